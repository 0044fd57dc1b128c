"""The whole Cluedo turn: where to move, and what to suggest in the room reached.

A suggestion can only name the room my pawn stands in, and a room is reached by dice, doors and
secret passages (:mod:`engines.cluedo.board`). For my turn this module ranks the moves — each room
the roll reaches, the secret passage, staying (when another player's suggestion pulled me into
the room), and the corridor square that heads best towards the rooms for next turn when no room
is worth entering — by

    value = I(room reached) + lookahead_weight x V(where the move leaves me)

* ``I(R)`` is the expected information gain about the envelope (bits) of the best suggestion in
  room ``R``: :func:`engines.cluedo.recommend.recommend`'s value, exact for the classic deck (the
  outcome laws of every suggestion from one forward/backward pass of the counting DP per possible
  envelope card, :mod:`engines.cluedo.outcomes`); 0 in a corridor.
* ``V(p)`` is the one-turn look-ahead: the expected best ``I`` of the rooms my next turn can
  enter from ``p`` over next turn's roll, or the passage from ``p``
  (``max(I(passage room), sum over n of P(n) x max over rooms within n steps of I)``). It uses
  today's ``I`` (what I will learn before my next turn is not modelled) and assumes the other
  pawns stay where they are; staying is not counted for next turn (it needs another pull).

With a known roll every move is a certainty (``p_reach`` 1). Without one, each room is a plan
"head for R" valued over the roll's exact law: enter R when the roll reaches it (``p_reach``);
otherwise walk the roll along a shortest path towards R (the end square of the exact roll closest
to R, the best for next turn among those) and get ``lookahead_weight x V`` of that square. The
passage and staying are taken instead of rolling and need no roll.

A suggestion naming a suspect whose pawn another player moves (``setup.pawns``) pulls that pawn
into my room: the move says whom (``"pulls"``). When the accuse/wait rule of
:mod:`engines.cluedo.accuse` says "accuse now", the advice says that accusing beats moving.
"""
from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from engines.cluedo.board import (
    EditionBoard,
    Position,
    edition_board,
    end_squares_by_roll,
    roll_distribution,
    room_distances,
    room_fields,
    shortest_path,
)
from engines.cluedo.model import PositionEvent, RollEvent, Setup, SuggestionEvent
from engines.core.cache import LockedLRU
from engines.core.errors import SessionFormatError, check_cancel
from engines.core.i18n import _, ngettext

LOOKAHEAD_WEIGHT = 1.0
_INFO_CACHE: LockedLRU = LockedLRU(16)     # (setup, events) -> information_by_room's answer
SQUARE_MOVES = 3          # corridor squares listed when a roll is known


@dataclass(frozen=True)
class PawnState:
    """Where the pawns are, read from the log.

    Fields:
        positions: ``{player: room name or (row, col)}`` for the players whose pawn is known.
        pulled: players moved into their room by another player's suggestion since their own
            last move (they may stay and suggest there).
        roll: my latest roll when no move of mine followed it, else None.
    """

    positions: dict
    pulled: frozenset
    roll: int | None


def pawn_state(setup: Setup, events: Sequence, board: EditionBoard | None = None) -> PawnState:
    """The pawns' positions after the log: a ``position`` event puts a pawn; a suggestion puts
    the suggester's pawn in the suggested room and pulls the named suspect's pawn there (when
    ``setup.pawns`` says which player moves it). A player with no known position starts on
    their suspect's starting square (when ``setup.pawns`` and the board say where)."""
    by_suspect = {sus: p for p, sus in setup.pawns}
    pos: dict = {}
    if board is not None:
        for p, sus in setup.pawns:
            sq = board.start_of(sus)
            if sq is not None:
                pos[p] = sq
    pulled: set = set()
    roll = None
    for ev in events:
        if isinstance(ev, PositionEvent):
            pos[ev.player] = ev.at
            pulled.discard(ev.player)
            if ev.player == setup.me:
                roll = None
        elif isinstance(ev, RollEvent):
            if ev.player == setup.me:
                roll = ev.total
        elif isinstance(ev, SuggestionEvent):
            room = ev.cards[2]
            pos[ev.suggester] = room
            pulled.discard(ev.suggester)
            if ev.suggester == setup.me:
                roll = None
            q = by_suspect.get(ev.cards[0])
            if q is not None and q != ev.suggester:
                pos[q] = room
                pulled.add(q)
    return PawnState(pos, frozenset(pulled), roll)


@dataclass(frozen=True)
class Move:
    """One move of my turn.

    Fields:
        to: a room name, ``"passage"``, ``"stay"`` or a corridor square ``(row, col)``.
        room: the room I end in (None: a corridor square).
        p_reach: probability the move ends in ``room`` (1 with a known roll; without one, the
            probability the roll reaches it).
        steps: squares walked (0: passage or stay).
        suggestion: the best ``(suspect, weapon, room)`` there, or None.
        information_bits: its expected information gain about the envelope (bits).
        next_turn_bits: ``V`` of where the move leaves me (bits; the module docstring).
        value_bits: the ranking value (bits).
        path: the corridor squares walked, in order.
        towards: for a corridor square or a plan, the room it heads for.
        pulls: ``{"player", "suspect", "from"}`` when the suggestion moves another player's pawn.
    """

    to: object
    room: str | None
    p_reach: float
    steps: int
    suggestion: tuple | None
    information_bits: float
    next_turn_bits: float
    value_bits: float
    path: tuple = ()
    towards: str | None = None
    pulls: dict | None = None

    def to_json(self) -> dict:
        return {"to": self.to if isinstance(self.to, str) else list(self.to), "room": self.room,
                "p_reach": self.p_reach, "steps": self.steps,
                "suggestion": list(self.suggestion) if self.suggestion else None,
                "information_bits": self.information_bits, "next_turn_bits": self.next_turn_bits,
                "value_bits": self.value_bits, "path": [list(q) for q in self.path],
                "towards": self.towards, "pulls": self.pulls}


@dataclass(frozen=True)
class TurnAdvice:
    """My turn's moves, best first (:class:`Move`), and whether to accuse instead.

    Fields:
        at: my position; roll: the roll (None: the ranking is over the roll's law); dice.
        moves: best first by ``value_bits``.
        roll_value_bits: the expected value of rolling (the best move for each roll, averaged
            over the roll's law); compare with the passage and staying.
        room_bits: ``{room: (bits, (suspect, weapon, room))}``, the best suggestion per room.
        exact: whether every ``information_bits`` is exact (else estimated from samples).
        accusation: the accuse/wait advice object of ``python -m engines recommend`` or None;
            ``accuse`` True when it says accusing now beats moving.
        positions: the other pawns' positions used (blocked corridor squares).
        seconds: wall time.
    """

    at: object
    roll: int | None
    dice: int
    moves: list
    roll_value_bits: float
    room_bits: dict
    exact: bool
    accusation: dict | None
    accuse: bool
    positions: dict
    lookahead_weight: float
    seconds: float = 0.0

    def to_json(self) -> dict:
        def jpos(p):
            return p if isinstance(p, str) or p is None else list(p)
        return {"game": "cluedo", "at": jpos(self.at), "roll": self.roll, "dice": self.dice,
                "accuse": self.accuse, "accusation": self.accusation,
                "roll_value_bits": self.roll_value_bits, "lookahead_weight": self.lookahead_weight,
                "exact": self.exact,
                "moves": [m.to_json() for m in self.moves],
                "rooms": {r: {"information_bits": b, "suggestion": list(t)}
                          for r, (b, t) in self.room_bits.items()},
                "positions": {p: jpos(q) for p, q in self.positions.items()},
                "seconds": round(self.seconds, 6)}


def parse_at(text: str, setup: Setup) -> Position:
    """``--at``: a room (any unique prefix of a word) or ``ROW,COL``.

    Raises:
        SessionFormatError: at ``--at``.
    """
    from engines.core.names import match_name

    t = text.strip()
    parts = t.replace(",", " ").split()
    if len(parts) == 2 and all(p.isdigit() for p in parts):
        eb = edition_board(setup)
        if eb is None:
            raise SessionFormatError("--at", "this game has no board")
        return eb.board.check_position([int(parts[0]), int(parts[1])], "--at")
    try:
        return match_name(t, dict(setup.categories)["room"], "room")
    except SessionFormatError as exc:
        raise SessionFormatError("--at", exc.message if hasattr(exc, "message") else str(exc)) from None


def information_by_room(setup: Setup, events: Sequence, *, cancel=None,
                        opponents_seconds: float | None = 0.0, ranking=None):
    """The best suggestion per room and its information (bits), from one
    :func:`engines.cluedo.recommend.recommend` over every room.

    Args:
        ranking: that recommendation of ``events`` over every room when the caller has it
            (the app's ranking of the same prefix: it is not computed again).
    Returns:
        ``(room_bits, exact, recommendation)``: ``{room: (bits, (s, w, r))}``, whether all are
        exact, and the recommendation object (its ``accusation`` is set when the envelope is
        certain; then ``room_bits`` is empty). Without the opponents' estimate the answer is a
        function of the log and is kept for the last few logs (another roll or position for the
        same log, or the History going back and forth, costs no new count); treat it as
        read-only.
    """
    from engines.cluedo.recommend import recommend

    events = tuple(events)
    key = (setup, events)
    cacheable = opponents_seconds is not None and opponents_seconds <= 0   # then a function of the log
    try:
        hash(key)
    except TypeError:
        cacheable = False
    if cacheable:
        hit = _INFO_CACHE.get(key)
        if hit is not None:
            return hit
    if ranking is not None:
        rec = ranking
    else:
        rec = recommend(setup, events, cancel=cancel, opponents_seconds=opponents_seconds,
                        joint=False)
    best: dict = {}
    exact = True
    for s, w, r, b in rec.suggestions:
        if r not in best:
            best[r] = (float(b), (s, w, r))
            exact = exact and rec.is_exact(s, w, r)
    out = (best, exact, rec)
    if cacheable:
        _INFO_CACHE.put(key, out)
    return out


def _next_turn_value(board, dice_law, fields, info, pos) -> tuple:
    """``V(square)`` and the room it heads for (the best P(reach next turn) x I), from the
    rooms' distance fields (:func:`engines.cluedo.board.room_fields`)."""
    dist = {r: fields[r][pos] + 1 for r in board.rooms if pos in fields[r]}
    order = sorted(((info.get(r, 0.0), r) for r in dist), reverse=True)
    v = 0.0
    for n, p in dice_law.items():
        for b, r in order:
            if dist[r] <= n:
                v += float(p) * b
                break
    towards = None
    best = -1.0
    for r, d in dist.items():
        pr = sum(float(p) for n, p in dice_law.items() if n >= d)
        if pr * info.get(r, 0.0) > best:
            best, towards = pr * info.get(r, 0.0), r
    return v, towards


def turn_advice(setup: Setup, events: Sequence = (), *, at=None, roll: int | None = None,  # noqa: C901 (the turn's options assembled in order: board, roll, look-ahead)
                lookahead_weight: float = LOOKAHEAD_WEIGHT, opponents_seconds: float | None = 0.0,
                others: dict | None = None, may_stay: bool | None = None,
                room_bits: tuple | None = None, cancel=None) -> TurnAdvice:
    """Rank my moves for this turn (the module docstring).

    Args:
        setup, events: the table and the log (positions and my roll are read from it).
        at: my position (a room name or ``(row, col)``), overriding the log's.
        roll: this turn's roll, overriding the log's latest roll of mine; None and no roll in
            the log: the ranking is over the roll's law.
        lookahead_weight: weight of the next turn's value (>= 0; 0: this turn only).
        opponents_seconds: time for the accuse/wait advice (0: not computed, ``accusation`` is
            None unless the envelope is certain).
        others: ``{player: position}`` of the other pawns, overriding the log's (a simulator).
        may_stay: whether I may stay in my room, overriding the log's "pulled in".
        room_bits: ``(room_bits, exact, recommendation)`` of :func:`information_by_room` for
            this log, when the caller has it (the pre-roll and post-roll advice share it).
        cancel: cancel flag.
    Returns:
        :class:`TurnAdvice`.
    Raises:
        SessionFormatError: the game has no board (a custom deck), my position is unknown or
            not on the board, or the roll is impossible with the edition's dice.
        ContradictionError: the log is impossible.
    """
    t0 = time.perf_counter()
    events = tuple(events)
    eb = edition_board(setup)
    if eb is None:
        raise SessionFormatError("$.setup", _("this game has no board (a custom deck, or an edition "
                                              "whose board is not encoded): no turn advice"))
    board = eb.board
    if not 0 <= lookahead_weight <= 10:
        raise SessionFormatError("lookahead_weight", "0 to 10")
    state = pawn_state(setup, events, eb)
    if at is None:
        at = state.positions.get(setup.me)
        if at is None:
            raise SessionFormatError("--at", "where is your pawn? log “me at ROOM” (or a square), "
                                             "give --at, or say which suspect you play (setup "
                                             "\"pawns\")")
    at = board.check_position(list(at) if isinstance(at, tuple) else at, "--at")
    if roll is None:
        roll = state.roll
    law = roll_distribution(eb.dice)
    if roll is not None and roll not in law:
        raise SessionFormatError("--roll", ngettext("{n} die rolls {low} to {high}, got {roll}",
                                                    "{n} dice roll {low} to {high}, got {roll}", eb.dice).format(
            n=eb.dice, low=min(law), high=max(law), roll=roll))
    if others is None:
        others = {p: q for p, q in state.positions.items() if p != setup.me}
    blocked = frozenset(tuple(q) for q in others.values() if not isinstance(q, str))
    check_cancel(cancel)
    if room_bits is None:
        room_bits = information_by_room(setup, events, cancel=cancel, opponents_seconds=opponents_seconds)
    info, exact, rec = room_bits
    accusation = rec.accusation_advice
    accuse = rec.accusation is not None or bool(accusation and accusation.get("advice") == "accuse now")
    bits = {r: b for r, (b, _) in info.items()}
    fields = room_fields(board, blocked)
    dist = room_distances(board, at, blocked)
    who_plays = {sus: p for p, sus in setup.pawns}
    w = float(lookahead_weight)
    v_cache: dict = {}

    def V(pos):  # noqa: N802 (the value function's own notation, V)
        if pos not in v_cache:
            v_cache[pos] = _next_turn_value(board, law, fields, bits, pos) if not isinstance(pos, str) \
                else _room_value(pos)
        return v_cache[pos]

    def _room_value(room):
        d = room_distances(board, room, blocked)
        order = sorted(((bits.get(r, 0.0), r) for r in d), reverse=True)
        v = 0.0
        for n, p in law.items():
            for b, r in order:
                if d[r] <= n:
                    v += float(p) * b
                    break
        if room in board.passages:
            v = max(v, bits.get(board.passages[room], 0.0))
        return v, None

    def pulls(sugg, room):
        if not sugg:
            return None
        q = who_plays.get(sugg[0])
        if q is None or q == setup.me:
            return None
        frm = state.positions.get(q)
        if frm == room:
            return None
        return {"player": q, "suspect": sugg[0],
                "from": frm if isinstance(frm, str) or frm is None else list(frm)}

    def room_move(to, room, p, steps, path, value=None, towards=None):
        b, sugg = info.get(room, (0.0, None))
        nxt = V(room)[0]
        val = b + w * nxt if value is None else value
        return Move(to, room, float(p), steps, sugg, b, nxt, val, tuple(path), towards, pulls(sugg, room))

    moves = []
    if isinstance(at, str) and at in board.passages:
        q = board.passages[at]
        moves.append(room_move("passage", q, 1.0, 0, ()))
    if may_stay is None:
        may_stay = setup.me in state.pulled
    if isinstance(at, str) and may_stay:
        moves.append(room_move("stay", at, 1.0, 0, ()))
    max_roll = max(law)
    ends = end_squares_by_roll(board, at, roll if roll is not None else max_roll, blocked)

    def best_square(n, target=None):
        """The end square of an exact ``n`` with the best V (closest to ``target`` first)."""
        cands = ends.get(n) or set()
        if not cands:
            return None
        if target is not None:
            dmin = min(fields[target].get(t, 1 << 30) for t in cands)
            cands = [t for t in cands if fields[target].get(t, 1 << 30) == dmin]
        return max(sorted(cands), key=lambda t: V(t)[0])

    if roll is not None:
        for r, k in sorted(dist.items(), key=lambda t: t[1]):
            if k <= roll:
                moves.append(room_move(r, r, 1.0, k, shortest_path(board, at, r, blocked)))
        squares = sorted(ends.get(roll) or (), key=lambda t: (-V(t)[0], t))[:SQUARE_MOVES]
        for t in squares:
            v, towards = V(t)
            moves.append(Move(t, None, 1.0, roll, None, 0.0, v, w * v, (), towards, None))
        roll_value = max((m.value_bits for m in moves if m.to not in ("passage", "stay")), default=0.0)
    else:
        # best value for each roll (for the value of rolling)
        best_by_n = {}
        for n in law:
            vals = [bits.get(r, 0.0) + w * V(r)[0] for r, k in dist.items() if k <= n]
            sq = best_square(n)
            if sq is not None:
                vals.append(w * V(sq)[0])
            best_by_n[n] = max(vals, default=0.0)
        roll_value = sum(float(p) * best_by_n[n] for n, p in law.items())
        for r, k in sorted(dist.items(), key=lambda t: t[1]):
            p_in = sum((p for n, p in law.items() if n >= k), Fraction(0))
            b = bits.get(r, 0.0)
            val = float(p_in) * (b + w * V(r)[0])
            for n, p in law.items():
                if n < k:
                    sq = best_square(n, r)
                    if sq is not None:
                        val += float(p) * w * V(sq)[0]
            if p_in == 0 and val == 0.0:
                continue
            m = room_move(r, r, p_in, k, shortest_path(board, at, r, blocked), value=val, towards=r)
            moves.append(m)
    moves.sort(key=lambda m: (-m.value_bits, m.steps, str(m.to)))
    return TurnAdvice(at, roll, eb.dice, moves, float(roll_value), info, exact, accusation, accuse,
                      others, w, time.perf_counter() - t0)
