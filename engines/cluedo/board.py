"""The Cluedo board as data, and movement on it: which rooms a roll reaches, with what
probability, and the shortest paths (Qt-free).

The boards and the editions' movement rules are read from ``resources/cluedo/boards.json``
(described by ``boards.schema.json``; :func:`load_boards` checks the same shape with messages
naming the JSON path, and beyond the schema that the grid, the doors, the starts and the passages
agree with each other). ``docs/references-board.md`` says where each fact comes from and which are
uncertain: the classic layout was drawn from memory of the standard board picture, no scan of a
printed board was at hand.

Movement rules (the Clue rules leaflet, Parker Brothers, US; Cluedo, Waddingtons, UK; the
Wikipedia article "Cluedo", section Rules):

* a turn moves a pawn by the roll of one or two dice (the edition's rule, editable in the setup),
  one square at a time, up, down, left or right, never diagonally;
* in the corridors the whole roll is used, and no square is entered twice in one turn;
* entering a room (through a door, from the corridor square in front of it) ends the move,
  whatever is left of the roll; leaving a room through a door onto the square in front of it is
  one step; a room cannot be re-entered on the turn it was left;
* a corridor square held by another pawn can be neither entered nor passed (a pawn in front of a
  door blocks that door); a room holds any number of pawns;
* instead of rolling, a pawn in a corner room may take the secret passage to the opposite corner
  (Kitchen <-> Study, Conservatory <-> Lounge);
* a pawn moved into a room by another player's suggestion may stay there and suggest on its
  next turn (otherwise a suggestion needs a room entered this turn).

Distances are in steps: from a room, leaving through a door is one step; entering a room is one
step. Positions are a room name (``str``) or a corridor square ``(row, col)`` (0-based, row 0 at
the top of the picture, the Kitchen's side).
"""
from __future__ import annotations

import threading
from collections import OrderedDict, deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

from engines.core.errors import SessionFormatError
from engines.core.i18n import _
from engines.core.resources import load_json_resource
from engines.core.schema import Reader

Square = tuple
Position = str | tuple
DIRECTIONS = {"N": (-1, 0), "S": (1, 0), "E": (0, 1), "W": (0, -1)}
MAX_SIDE = 100
MAX_ROLL = 12


@dataclass(frozen=True)
class Door:
    """A door: the room's square ``door`` opens onto the corridor square ``outside``, which lies
    one square from it in ``direction`` (``"N"``, ``"S"``, ``"E"`` or ``"W"``)."""

    room: str
    door: Square
    outside: Square
    direction: str


@dataclass(frozen=True)
class Board:
    """A board: the grid (``rows``: strings, one character per square, see ``legend``), the
    rooms, their doors, the secret passages and the starting squares by pawn colour.

    Fields:
        name: the board's id in ``boards.json``. title, source: where it comes from.
        rows: the grid, ``n_rows`` strings of ``n_cols`` characters.
        legend: character -> meaning (``"#"``: no square, ``"."``: corridor, a letter: a room).
        rooms: the room names in legend order. doors: :class:`Door` values.
        passages: room -> the room its secret passage leads to (both directions).
        starts: colour -> starting square (a corridor square).
    """

    name: str
    title: str
    source: str
    rows: tuple
    legend: dict
    rooms: tuple
    doors: tuple
    passages: dict
    starts: dict
    corridor: frozenset = field(default_factory=frozenset)

    @property
    def n_rows(self) -> int:
        return len(self.rows)

    @property
    def n_cols(self) -> int:
        return len(self.rows[0])

    def room_at(self, square: Square) -> str | None:
        """The room a square belongs to, or None (corridor, cellar, no square)."""
        r, c = square
        if not (0 <= r < self.n_rows and 0 <= c < self.n_cols):
            return None
        name = self.legend.get(self.rows[r][c])
        return name if name in self.rooms else None

    def neighbours(self, square: Square):
        """The corridor squares next to ``square`` (up, down, left, right)."""
        r, c = square
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            q = (r + dr, c + dc)
            if q in self.corridor:
                yield q

    def doors_of(self, room: str) -> list:
        """The room's doors (a list of :class:`Door`)."""
        return [d for d in self.doors if d.room == room]

    def entries(self, square: Square) -> list:
        """The rooms entered in one step from corridor square ``square`` (its doors)."""
        return [d.room for d in self.doors if d.outside == square]

    def check_position(self, pos, path: str = "$.at") -> Position:
        """A room name or a corridor square ``[row, col]``, validated.

        Raises:
            SessionFormatError: at ``path``: not a room of this board nor a corridor square.
        """
        if isinstance(pos, str):
            if pos not in self.rooms:
                raise SessionFormatError(path, f"unknown room {pos!r}; expected one of {', '.join(self.rooms)}")
            return pos
        if isinstance(pos, (list, tuple)) and len(pos) == 2 and all(
                isinstance(x, int) and not isinstance(x, bool) for x in pos):
            sq = (int(pos[0]), int(pos[1]))
            if sq not in self.corridor:
                room = self.room_at(sq)
                what = (_("inside the {room} (give the room's name)").format(room=room) if room
                        else _("not a corridor square"))
                raise SessionFormatError(path, _("square [{row}, {col}] is {what}; the board has "
                                                 "{rows} rows and {cols} columns, 0-based").format(
                    row=sq[0], col=sq[1], what=what, rows=self.n_rows, cols=self.n_cols))
            return sq
        raise SessionFormatError(path, "expected a room name or a square [row, column]")


# ---------------------------------------------------------------------------------------------
# loading and checking
# ---------------------------------------------------------------------------------------------
def _square(r: Reader, key: str, n_rows: int, n_cols: int) -> Square:
    v = r.list(key, min_len=2, max_len=2)
    for i, x in enumerate(v):
        if isinstance(x, bool) or not isinstance(x, int):
            raise SessionFormatError(f"{r.sub(key)}[{i}]", "expected a whole number")
    if not (0 <= v[0] < n_rows and 0 <= v[1] < n_cols):
        raise r.error(key, f"[{v[0]}, {v[1]}] is outside the {n_rows} x {n_cols} grid")
    return (v[0], v[1])


def board_from_json(name: str, obj, path: str) -> Board:
    """Build and check one board object of ``boards.json``.

    Checks beyond the schema: every row has ``columns`` characters and there are ``rows_count``
    rows; every character is in the legend; every door square is a square of its room, its
    outside square a corridor square one step away in its direction; every room of the legend has
    a door; passages join two rooms; starts are corridor squares.

    Raises:
        SessionFormatError: the first problem, by JSON path.
    """
    r = Reader(obj, path)
    n_cols = r.int("columns", min=1, max=MAX_SIDE)
    n_rows = r.int("rows_count", min=1, max=MAX_SIDE)
    rows = r.list("rows", min_len=n_rows, max_len=n_rows)
    legend = r.dict("legend")
    for ch in ("#", "."):
        if ch not in legend:
            raise SessionFormatError(f"{r.sub('legend')}", f"needs {ch!r}")
    for i, row in enumerate(rows):
        p = f"{r.sub('rows')}[{i}]"
        if not isinstance(row, str) or len(row) != n_cols:
            raise SessionFormatError(p, f"expected a text of {n_cols} characters")
        for j, ch in enumerate(row):
            if ch not in legend:
                raise SessionFormatError(p, f"column {j}: {ch!r} is not in the legend")
    room_codes = {ch: nm for ch, nm in legend.items() if ch not in "#.X"}
    rooms = tuple(room_codes.values())
    corridor = frozenset((i, j) for i, row in enumerate(rows) for j, ch in enumerate(row) if ch == ".")
    doors = []
    for k, d in enumerate(r.list("doors", min_len=1)):
        dr = Reader(d, f"{r.sub('doors')}[{k}]")
        room = dr.choice("room", rooms, what="room")
        door = _square(dr, "door", n_rows, n_cols)
        outside = _square(dr, "outside", n_rows, n_cols)
        direction = dr.choice("direction", list(DIRECTIONS), what="direction")
        if legend.get(rows[door[0]][door[1]]) != room:
            raise dr.error("door", f"[{door[0]}, {door[1]}] is not a square of the {room}")
        if outside not in corridor:
            raise dr.error("outside", f"[{outside[0]}, {outside[1]}] is not a corridor square")
        dd = DIRECTIONS[direction]
        if (door[0] + dd[0], door[1] + dd[1]) != outside:
            raise dr.error("outside", f"is not one square {direction} of the door")
        doors.append(Door(room, door, outside, direction))
    for room in rooms:
        if not any(d.room == room for d in doors):
            raise r.error("doors", f"the {room} has no door")
    passages = {}
    for k, pobj in enumerate(r.list("passages")):
        pr = Reader(pobj, f"{r.sub('passages')}[{k}]")
        a, b = pr.str_list("rooms", min_len=2, max_len=2, unique=True, choices=rooms)
        if a in passages or b in passages:
            raise pr.error("rooms", "a room has at most one secret passage")
        passages[a], passages[b] = b, a
    starts = {}
    for k, sobj in enumerate(r.list("starts")):
        sr = Reader(sobj, f"{r.sub('starts')}[{k}]")
        colour = sr.str("colour")
        sq = _square(sr, "square", n_rows, n_cols)
        if sq not in corridor:
            raise sr.error("square", f"[{sq[0]}, {sq[1]}] is not a corridor square")
        starts[colour] = sq
    return Board(name, r.str("title"), r.str("source"), tuple(rows), dict(legend), rooms, tuple(doors),
                 passages, starts, corridor)


@dataclass(frozen=True)
class EditionBoard:
    """An edition's board and movement rules: ``board``, ``dice`` (1 or 2), ``starts`` (suspect
    -> colour), ``rules`` (flags as in ``boards.json``), ``source``."""

    edition: str
    board: Board
    dice: int
    starts: dict
    rules: dict
    source: str

    def start_of(self, suspect: str) -> Square | None:
        """The starting square of a suspect's pawn, or None."""
        colour = self.starts.get(suspect)
        return self.board.starts.get(colour) if colour else None


def boards_from_json(obj, path: str = "$") -> tuple:
    """``(boards, editions)`` from the ``boards.json`` object: ``{name: Board}`` and
    ``{edition: EditionBoard}``.

    Raises:
        SessionFormatError: the first problem, by JSON path.
    """
    r = Reader(obj, path)
    bobj = r.dict("boards")
    boards = {name: board_from_json(name, b, f"{r.sub('boards')}.{name}") for name, b in bobj.items()}
    editions = {}
    for ed, eobj in r.dict("editions").items():
        er = Reader(eobj, f"{r.sub('editions')}.{ed}")
        board = boards[er.choice("board", list(boards), what="board")]
        dice = er.int("dice", min=1, max=2)
        sr = Reader(er.dict("starts"), er.sub("starts"))
        starts = {s: sr.choice(s, list(board.starts), what="colour") for s in er.dict("starts")}
        rules = er.dict("rules")
        editions[ed] = EditionBoard(ed, board, dice, starts, dict(rules), er.str("source"))
    return boards, editions


@lru_cache(maxsize=1)
def load_boards() -> tuple:
    """The shipped boards and editions (``resources/cluedo/boards.json``), checked; see
    :func:`boards_from_json`."""
    return boards_from_json(load_json_resource("cluedo", "boards.json"), "boards.json")


@lru_cache(maxsize=8)
def local_edition_board(edition: str) -> EditionBoard | None:
    """The board of a local edition (the German or French classic Cluedo): its canonical
    edition's board and rules with the rooms and the pawns' suspects under the edition's names
    (``names_of`` in ``editions.json``), or None when that edition has no board either. One
    instance per edition, so the board's search cache is the edition's own."""
    import dataclasses

    from engines.cluedo.editions import name_tables, names_of

    base_id = names_of(edition)
    base = load_boards()[1].get(base_id) if base_id and base_id != edition else None
    if base is None:
        return None
    _to_id, to_name = name_tables(edition)

    def nm(x: str) -> str:
        return to_name.get(x, x)

    b = base.board
    board = dataclasses.replace(
        b, legend={k: nm(v) for k, v in b.legend.items()}, rooms=tuple(nm(r) for r in b.rooms),
        doors=tuple(dataclasses.replace(d, room=nm(d.room)) for d in b.doors),
        passages={nm(a): nm(c) for a, c in b.passages.items()})
    return EditionBoard(edition, board, base.dice, {nm(k): c for k, c in base.starts.items()},
                        dict(base.rules), base.source)


def edition_board(setup) -> EditionBoard | None:
    """The board and rules of a setup's edition, or None (a custom deck, or an edition whose
    board is not encoded: no turn advice). The setup's ``dice`` overrides the edition's."""
    ed = getattr(setup, "edition", None)
    if ed is None:
        return None
    eb = load_boards()[1].get(ed)
    if eb is None:
        eb = local_edition_board(ed)
    if eb is None:
        return None
    dice = getattr(setup, "dice", None)
    if dice and dice != eb.dice:
        eb = EditionBoard(eb.edition, eb.board, int(dice), eb.starts, eb.rules, eb.source)
    rooms = dict(setup.categories)["room"]
    if set(rooms) != set(eb.board.rooms):
        return None
    return eb


# ---------------------------------------------------------------------------------------------
# dice
# ---------------------------------------------------------------------------------------------
@lru_cache(maxsize=4)
def roll_distribution(dice: int) -> dict:
    """The law of the total of ``dice`` six-sided dice: ``{total: Fraction}`` (exact).

    Raises:
        SessionFormatError: ``dice`` is not 1 or 2.
    """
    if dice not in (1, 2):
        raise SessionFormatError("dice", f"1 or 2 dice, got {dice!r}")
    law = {0: Fraction(1)}
    for _die in range(dice):
        nxt: dict = {}
        for t, p in law.items():
            for f in range(1, 7):
                nxt[t + f] = nxt.get(t + f, 0) + p / 6
        law = nxt
    return law


def p_at_least(dice: int, k: int) -> Fraction:
    """P(the roll of ``dice`` dice is >= ``k``), exact."""
    return sum((p for t, p in roll_distribution(dice).items() if t >= k), Fraction(0))


# ---------------------------------------------------------------------------------------------
# distances and reach
# ---------------------------------------------------------------------------------------------
def _first_squares(board: Board, start: Position, blocked: frozenset) -> list:
    """The squares one step from ``start`` (the start itself at distance 0 when it is a square)."""
    if isinstance(start, str):
        return [(1, d.outside) for d in board.doors_of(start) if d.outside not in blocked]
    return [(0, tuple(start))]


_CACHE_SIZE = 4096      # searches kept per board (a turn asks for the same ones several times)
_CACHE_LOCK = threading.Lock()


def _cached(board: Board, key: tuple, compute):
    """``compute()`` memoised on ``board`` by ``key`` (least recently used dropped first; safe
    from several threads: the background jobs of the desktop share the boards)."""
    with _CACHE_LOCK:
        cache = board.__dict__.get("_search_cache")
        if cache is None:
            cache = OrderedDict()
            object.__setattr__(board, "_search_cache", cache)      # a frozen dataclass
        if key in cache:
            cache.move_to_end(key)
            return cache[key]
    val = compute()
    with _CACHE_LOCK:
        cache[key] = val
        if len(cache) > _CACHE_SIZE:
            cache.popitem(last=False)
    return val


def corridor_distances(board: Board, start: Position, blocked: Iterable = ()) -> dict:
    """Steps from ``start`` to every corridor square reachable without entering a blocked
    square (breadth-first search; a room is left through one of its doors in one step).

    Returns:
        ``{square: steps}`` (a new dict; the search is memoised per board).
    """
    blocked = frozenset(map(tuple, blocked))
    key = ("dist", start if isinstance(start, str) else tuple(start), blocked)
    return dict(_cached(board, key, lambda: _corridor_distances(board, start, blocked)))


def _corridor_distances(board: Board, start: Position, blocked: frozenset) -> dict:
    dist: dict = {}
    queue: deque = deque()
    for d0, sq in _first_squares(board, start, blocked):
        if sq not in dist:
            dist[sq] = d0
            queue.append(sq)
    while queue:
        sq = queue.popleft()
        for q in board.neighbours(sq):
            if q not in dist and q not in blocked:
                dist[q] = dist[sq] + 1
                queue.append(q)
    return dist


def room_distances(board: Board, start: Position, blocked: Iterable = ()) -> dict:
    """Fewest steps from ``start`` (a room or a square) into each other room, through the
    corridors, not entering a blocked square, entering a room ending the move.

    Returns:
        ``{room: steps}`` for the rooms that can be reached (the start room is left out: it
        cannot be re-entered on the turn it is left). A passage is not a step: see
        :func:`reach`.
    """
    dist = corridor_distances(board, start, blocked)
    out: dict = {}
    for d in board.doors:
        if d.room == start or d.outside not in dist:
            continue
        k = dist[d.outside] + 1
        if k < out.get(d.room, 1 << 30):
            out[d.room] = k
    return out


def shortest_path(board: Board, start: Position, room: str, blocked: Iterable = ()) -> list:
    """A shortest path from ``start`` into ``room``: the corridor squares in order (the room is
    entered after the last one). From a square the path begins with that square, and its
    ``n``-th element is ``n`` steps away; from a room it begins with the square in front of the
    door used, one step away, so its ``n``-th element is ``n + 1`` steps away. The room's
    distance is the steps to the last square plus one.

    Raises:
        SessionFormatError: unknown room, or the room cannot be reached.
    """
    blocked = frozenset(map(tuple, blocked))
    if room not in board.rooms:
        raise SessionFormatError("room", f"unknown room {room!r}")
    dist = corridor_distances(board, start, blocked)
    ends = [d.outside for d in board.doors_of(room) if d.outside in dist and d.room != start]
    if not ends:
        raise SessionFormatError("room", f"the {room} cannot be reached from {start!r}")
    sq = min(ends, key=lambda q: (dist[q], q))
    path = [sq]
    while dist[sq] > (1 if isinstance(start, str) else 0):
        sq = min((q for q in board.neighbours(sq) if dist.get(q) == dist[sq] - 1), key=lambda q: q)
        path.append(sq)
    return path[::-1]


def end_squares_by_roll(board: Board, start: Position, max_roll: int, blocked: Iterable = ()) -> dict:
    """The corridor squares where a move of exactly ``n`` steps can end, for every ``n`` up to
    ``max_roll``: a walk from ``start`` that enters no square twice, no blocked square and no
    room. Depth-first enumeration of the self-avoiding walks of up to ``max_roll`` steps (every
    prefix of one is one, so one enumeration gives every ``n``); the corridors are narrow enough
    for 12 steps (``tests/benchmarks/bench_turn.py``).

    Returns:
        ``{n: set of squares}`` for ``n`` in 1..max_roll (empty sets included).
    Raises:
        SessionFormatError: ``max_roll`` outside 1..12.
    """
    if not 1 <= max_roll <= MAX_ROLL:
        raise SessionFormatError("roll", f"a roll is 1 to {MAX_ROLL}, got {max_roll!r}")
    blocked = frozenset(map(tuple, blocked))
    key = ("ends", start if isinstance(start, str) else tuple(start), max_roll, blocked)
    got = _cached(board, key, lambda: _end_squares_by_roll(board, start, max_roll, blocked))
    return {n: set(v) for n, v in got.items()}


def _end_squares_by_roll(board: Board, start: Position, max_roll: int, blocked: frozenset) -> dict:
    out: dict = {n: set() for n in range(1, max_roll + 1)}
    nb: dict = {}

    def neigh(sq):
        v = nb.get(sq)
        if v is None:
            v = nb[sq] = [q for q in board.neighbours(sq) if q not in blocked]
        return v

    def walk(sq, steps, visited):
        if steps:
            out[steps].add(sq)
        if steps == max_roll:
            return
        for q in neigh(sq):
            if q not in visited:
                visited.add(q)
                walk(q, steps + 1, visited)
                visited.discard(q)

    for d0, sq in _first_squares(board, start, blocked):
        walk(sq, d0, {sq})
    return out


def end_squares(board: Board, start: Position, roll: int, blocked: Iterable = ()) -> set:
    """The corridor squares where a move of exactly ``roll`` steps from ``start`` can end (see
    :func:`end_squares_by_roll`)."""
    return end_squares_by_roll(board, start, roll, blocked)[roll]


def room_fields(board: Board, blocked: Iterable = ()) -> dict:
    """For every room, the steps from every corridor square into it: ``{room: {square: steps}}``
    (one breadth-first search per room from the squares in front of its doors; moves are
    reversible, so the steps into a room from ``q`` are the steps out of it to ``q``)."""
    blocked = frozenset(map(tuple, blocked))
    return {rm: corridor_distances(board, rm, blocked) for rm in board.rooms}


def reach(board: Board, start: Position, roll: int | None, blocked: Iterable = ()) -> dict:
    """The rooms a turn from ``start`` can end in: ``{room: steps}`` for the rooms within
    ``roll`` steps (all reachable rooms when ``roll`` is None), plus the passage's room with
    ``steps`` 0 when ``start`` is a corner room (taken instead of rolling)."""
    out = {rm: k for rm, k in room_distances(board, start, blocked).items() if roll is None or k <= roll}
    if isinstance(start, str) and start in board.passages:
        out[board.passages[start]] = 0
    return out


def p_reach(board: Board, start: Position, dice: int, blocked: Iterable = ()) -> dict:
    """Exact probability that this turn's roll lets ``start`` enter each room:
    ``{room: P(roll >= steps)}`` (``Fraction``; a room reached by the passage has 1)."""
    out = {rm: p_at_least(dice, k) for rm, k in room_distances(board, start, blocked).items()}
    if isinstance(start, str) and start in board.passages:
        out[board.passages[start]] = Fraction(1)
    return {rm: p for rm, p in out.items() if p > 0}


def p_reach_within_two(board: Board, start: Position, dice: int, blocked: Iterable = ()) -> dict:
    """Exact probability that ``start`` can be in each room by the end of its next turn but
    one (this turn or the next), playing for that room, the other pawns staying where they are.

    Method: with ``d`` the room's distance, roll ``n1`` this turn: enter it when ``n1 >= d``;
    or walk ``n1`` steps along a shortest path (a prefix of a shortest path is a walk that enters
    no square twice, ending ``d - n1`` from the room; no corridor square ends nearer, as a walk
    in the corridors cannot shorten the distance by more than its length) and need
    ``n2 >= d - n1``; or enter another room ``A`` this turn (``d_A <= n1``) and leave it next
    turn by another door or its passage (a room is a shortcut between its doors across two
    turns). The best of these per ``n1``; or take this room's passage now and roll from its
    far end next turn.

    Returns:
        ``{room: Fraction}`` (rooms with probability 0 left out; the start room left out).
    """
    blocked = frozenset(map(tuple, blocked))
    law = roll_distribution(dice)
    direct = room_distances(board, start, blocked)
    from_room = {a: room_distances(board, a, blocked) for a in direct}

    def next_turn(a, rm):
        if a == rm or board.passages.get(a) == rm:
            return Fraction(1)
        k = from_room[a].get(rm)
        return p_at_least(dice, k) if k is not None else Fraction(0)

    out = {}
    via_passage = {}
    if isinstance(start, str) and start in board.passages:
        q = board.passages[start]
        via_passage = {rm: p_at_least(dice, k) for rm, k in room_distances(board, q, blocked).items()}
        via_passage[q] = Fraction(1)
    for rm in board.rooms:
        if rm == start:
            continue
        d = direct.get(rm)
        total = Fraction(0)
        for n1, p1 in law.items():
            best = Fraction(0)
            if d is not None:
                best = Fraction(1) if n1 >= d else p_at_least(dice, d - n1)
            for a, k in direct.items():
                if k <= n1 and best < 1:
                    best = max(best, next_turn(a, rm))
            total += p1 * best
        total = max(total, via_passage.get(rm, Fraction(0)))
        if total > 0:
            out[rm] = total
    return out
