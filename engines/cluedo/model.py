"""Cluedo setup, events, editions and their JSON form (the session schema).

The model (Agade09's Cluedo_Sheet, "#Sat"): every card is in exactly one place — a player's hand or the
envelope; player ``p`` holds exactly ``hand_sizes[p]`` cards; the envelope holds exactly one card
of each category. Events constrain that deal; :mod:`engines.cluedo.inference` turns them into
probabilities.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Optional, Sequence

from engines.cluedo.editions import CATEGORY_NAMES, names_of
from engines.cluedo.editions import editions_raw as _editions_raw
from engines.cluedo.editions import name_tables as _name_tables
from engines.core.errors import SessionFormatError
from engines.core.i18n import N_, _, ngettext
from engines.core.limits import check_memory
from engines.core.schema import Reader, check_distinct_names, declared_keys
from engines.registry import CLUEDO

GAME, TITLE = CLUEDO.id, CLUEDO.title   # declared once, in the game registry
ENVELOPE = "envelope"
MAX_PLAYERS_CLASSIC = 6
MAX_PLAYERS = 10
MIN_PLAYERS = 2
MAX_DEAL_STATE_BYTES = 512 << 20
"""Largest exact-counting state accepted for a setup (bytes, :func:`deal_state_bytes`). The
counting DP (:mod:`engines.cluedo.counting`) keeps one tensor per free card whose axes are the
hands' remaining capacities; before anything is known every hand is open at once. The classic
deck with 6 players needs 1 MB, Master Detective with 10 players 0.21 GB; a custom 12/12/12 deck
with 10 players 0.94 GB (and minutes of counting once refutations add clause axes) — refused."""


def deal_state_bytes(n_cards: int, hand_sizes) -> int:
    """Estimated bytes of the counting DP's kept forward tensors before anything is known:
    8 bytes x (product of (size + 1) over every hand but the largest, which is implicit) x 2^3
    envelope slots x one tensor per card."""
    sizes = sorted(hand_sizes)
    states = 8
    for c in sizes[:-1]:
        states *= c + 1
    return 8 * states * n_cards


def load_editions() -> dict:
    """The editions shipped in ``resources/cluedo/editions.json``.

    Returns:
        ``{edition_id: {"title": str, "categories": {"suspect": [...], "weapon": [...],
        "room": [...]}}}`` in file order (a fresh copy; editing it changes nothing).
    """
    raw = _editions_raw()
    out = {}
    for k, v in raw.items():
        out[k] = {"title": v["title"], "categories": {c: list(cards) for c, cards in v["categories"].items()}}
        if "names_of" in v:
            out[k]["names_of"] = v["names_of"]
    return out


def same_deck_editions(edition: Optional[str]) -> list:
    """The editions a session of ``edition`` can be relabelled to (its own included): those
    sharing its canonical deck, in file order; ``[]`` for a custom deck."""
    if edition is None:
        return []
    base = names_of(edition)
    return [k for k in _editions_raw() if names_of(k) == base]


def canonical_names(edition: str) -> dict:
    """``{display name: canonical id}`` of a local edition's cards (a fresh dict); ``{}`` for an
    edition whose names are its ids. Raises KeyError: unknown edition."""
    return dict(_name_tables(edition)[0])


def card_id(setup: "Setup", name: str) -> str:
    """The canonical id (the UK card name) of the card ``name`` shows in ``setup``'s edition;
    ``name`` itself for an edition whose names are its ids or a custom deck. Raises KeyError:
    not a card of a local edition."""
    if setup.edition is None:
        return name
    to_id, _ = _name_tables(setup.edition)
    return to_id[name] if to_id else name


def card_name(setup: "Setup", cid: str) -> str:
    """The display name in ``setup``'s edition of the card with canonical id ``cid`` (the
    inverse of :func:`card_id`). Raises KeyError: not a canonical id of that deck."""
    if setup.edition is None:
        return cid
    _, to_name = _name_tables(setup.edition)
    return to_name[cid] if to_name else cid


def deal_hand_sizes(n_players: int, n_dealt: int, dealer_index: int) -> list:
    """Hand sizes when ``n_dealt`` cards are dealt one at a time, starting with the player to the
    dealer's left (the next player in seating order) and going round.

    Args:
        n_players: number of players (>= 1), in seating order.
        n_dealt: cards dealt (the deck minus the three envelope cards), >= 0.
        dealer_index: 0-based seat of the dealer.
    Returns:
        list of ``n_players`` ints summing to ``n_dealt``; the players right after the dealer get
        the extra cards when the deal does not come out even.
    Raises:
        SessionFormatError: a count is out of range.
    """
    if n_players < 1:
        raise SessionFormatError("players", "needs at least one player")
    if n_dealt < 0:
        raise SessionFormatError("hand_sizes", "cannot deal a negative number of cards")
    if not 0 <= dealer_index < n_players:
        raise SessionFormatError("dealer", f"dealer seat {dealer_index} is not one of the {n_players} seats")
    base, extra = divmod(n_dealt, n_players)
    sizes = [base] * n_players
    for j in range(extra):
        sizes[(dealer_index + 1 + j) % n_players] += 1
    return sizes


@dataclass(frozen=True, kw_only=True)
class Setup:
    """A Cluedo table: the deck by category, the players in seating order and their hand sizes.

    Fields:
        categories: ``(("suspect", cards), ("weapon", cards), ("room", cards))`` in deck order.
        players: player names in seating order (play passes to the next name).
        hand_sizes: cards held by each player, aligned with ``players``; they sum to the
            number of cards minus 3 (the envelope).
        me: the player using the app (whose suggestions reveal the shown card).
        edition: an id from :func:`load_editions`, or None for a custom deck.
        dealer: the dealer's name when it was given (only used to fill default hand sizes).
        dice: 1 or 2 dice per move when given (else the edition's rule,
            :mod:`engines.cluedo.board`); only the turn advice uses it.
        pawns: ``((player, suspect), ...)``: the suspect whose pawn each player moves, when
            given (a suggestion naming that suspect moves that player's pawn).
        suggestion_trust: ``((player, rho or "learn"), ...)``, the suggestion model of
            :mod:`engines.cluedo.suggestions` (players left out: rho 1, no information); empty:
            today's model, suggestions reveal nothing about the suggester's hand.
    """

    categories: tuple
    players: tuple
    hand_sizes: tuple
    me: str
    edition: Optional[str] = None
    dealer: Optional[str] = None
    dice: Optional[int] = None
    pawns: tuple = ()
    suggestion_trust: tuple = ()

    # -- derived -----------------------------------------------------------------------
    # computed once per setup (a frozen value): every event's constraints look cards and players
    # up by index, a few thousand times in one inference of a long log
    @cached_property
    def cards(self) -> tuple:
        """All cards in deck order (suspects, weapons, rooms)."""
        return tuple(c for _, cards in self.categories for c in cards)

    @cached_property
    def card_indices(self) -> dict:
        """``{card: its index in cards}`` (shared: read it, never change it)."""
        return {c: i for i, c in enumerate(self.cards)}

    @cached_property
    def player_indices(self) -> dict:
        """``{player: seat index}`` in seating order (shared: read it, never change it)."""
        return {p: i for i, p in enumerate(self.players)}

    @property
    def owners(self) -> tuple:
        """Columns of the worksheet: the players then ``"envelope"``."""
        return tuple(self.players) + (ENVELOPE,)

    def category_of(self, card: str) -> str:
        """The category (``"suspect"``, ``"weapon"`` or ``"room"``) of ``card``.

        Raises:
            SessionFormatError: unknown card.
        """
        for cat, cards in self.categories:
            if card in cards:
                return cat
        raise SessionFormatError("card", f"unknown card {card!r}")

    def card_index(self, card: str) -> int:
        """The index of ``card`` in :attr:`cards`. Raises KeyError: not a card of this deck."""
        return self.card_indices[card]

    def player_index(self, player: str) -> int:
        """The seat index of ``player``. Raises KeyError: not a player at this table."""
        return self.player_indices[player]

    # -- JSON -----------------------------------------------------------------------------
    @staticmethod
    def from_json(obj, path: str = "$.setup") -> "Setup":  # noqa: C901 (one check per setup field, in the schema's order)
        """Validate a setup object (the session schema) and build the Setup.

        ``{"edition": id}`` or ``{"categories": {"suspect": [...], "weapon": [...], "room": [...]}}``,
        ``"players"`` (seating order), optional ``"dealer"``, optional ``"hand_sizes": {name: n}``
        (default: the deal from the dealer's left, the dealer being the last player when not
        given), ``"me"``, optional ``"model": {"suggestion_trust": {name: rho or "learn"}}``
        (:func:`engines.cluedo.suggestions.read_trust`).

        Raises:
            SessionFormatError: the first bad field, by JSON path.
        """
        r = Reader(obj, path)
        edition = None
        if r.has("edition"):
            editions = _editions_raw()
            edition = r.choice("edition", list(editions), what="edition")
            cats_obj = editions[edition]["categories"]
            if r.has("categories"):
                raise r.error("categories", "give either an edition or categories, not both")
        else:
            if not r.has("categories"):
                raise r.error("edition", "required: an edition id or a \"categories\" object")
            cats_obj = r.dict("categories")
        cr = Reader(cats_obj, r.sub("categories"))
        extra = [k for k in cats_obj if k not in CATEGORY_NAMES]
        if extra:
            raise cr.error(extra[0], f"unknown category {extra[0]!r}; expected suspect, weapon, room")
        categories = []
        seen: dict = {}
        for cat in CATEGORY_NAMES:
            cards = cr.str_list(cat, min_len=1, max_len=40, unique=True)
            for i, c in enumerate(cards):
                if c in seen:
                    raise SessionFormatError(f"{cr.sub(cat)}[{i}]", f"card {c!r} is also a {seen[c]}")
                if c == ENVELOPE:
                    raise SessionFormatError(f"{cr.sub(cat)}[{i}]", "'envelope' is reserved")
                seen[c] = cat
            categories.append((cat, tuple(cards)))
        # "has rope" may name a card of any category: no two cards of the deck may look alike
        check_distinct_names([c for _, cards in categories for c in cards],
                             [f"{cr.sub(cat)}[{i}]" for cat, cards in categories
                              for i in range(len(cards))])
        n_cards = len(seen)
        max_players = MAX_PLAYERS if (edition is None or n_cards > 21) else MAX_PLAYERS_CLASSIC
        min_players = 3 if edition is not None else MIN_PLAYERS
        players = r.str_list("players", min_len=min_players, max_len=max_players, unique=True)
        for i, p in enumerate(players):
            if p == ENVELOPE:
                raise SessionFormatError(f"{r.sub('players')}[{i}]", "'envelope' is not a player name")
            _check_typeable(p, f"{r.sub('players')}[{i}]")
        dealer = r.choice("dealer", players, None, what="player") if r.has("dealer") else None
        n_dealt = n_cards - 3
        if r.has("hand_sizes"):
            hs = r.dict("hand_sizes")
            hr = Reader(hs, r.sub("hand_sizes"))
            for k in hs:
                if k not in players:
                    raise hr.error(k, f"{k!r} is not one of the players")
            sizes = [hr.int(p, min=0, max=n_dealt) for p in players]
            if sum(sizes) != n_dealt:
                raise r.error("hand_sizes", f"the hands hold {sum(sizes)} cards but {n_dealt} are dealt "
                                            f"({n_cards} cards minus 3 in the envelope)")
        else:
            d = players.index(dealer) if dealer else len(players) - 1
            sizes = deal_hand_sizes(len(players), n_dealt, d)
        need = deal_state_bytes(n_cards, sizes)
        if need > MAX_DEAL_STATE_BYTES:
            raise r.error("players", f"{len(players)} players with {n_cards} cards need about "
                                     f"{need / 1e9:.1f} GB for exact counting; at most "
                                     f"{MAX_DEAL_STATE_BYTES / 1e9:.1f} GB is allowed (use fewer "
                                     f"players or cards)")
        check_memory(need, r.sub("players"), f"{len(players)} players with {n_cards} cards",
                     "close other programs, or use fewer players or cards")
        me = r.choice("me", players, what="player")
        dice = r.int("dice", min=1, max=2) if r.has("dice") else None
        pawns = ()
        if r.has("pawns"):
            pobj = r.dict("pawns")
            pr = Reader(pobj, r.sub("pawns"))
            suspects = dict(categories)["suspect"]
            # a local edition's file names the pawns by canonical id (docs/session-format.md)
            _, to_name = _name_tables(edition) if edition else ({}, {})
            ids = [_name_tables(edition)[0][c] for c in suspects] if to_name else suspects
            used: dict = {}
            for k in pobj:
                if k not in players:
                    raise pr.error(k, f"{k!r} is not one of the players")
                sus = pr.choice(k, ids, what="suspect")
                if sus in used:
                    raise pr.error(k, f"{sus} is already {used[sus]}'s pawn")
                used[sus] = k
            pawns = tuple((p, to_name.get(pobj[p], pobj[p])) for p in players if p in pobj)
        trust = ()
        if r.has("model"):
            trust = read_trust(r.dict("model"), players, me, r.sub("model"))
        return Setup(categories=tuple(categories), players=tuple(players), hand_sizes=tuple(sizes), me=me,
                     edition=edition, dealer=dealer, dice=dice, pawns=pawns,
                     suggestion_trust=trust)

    def to_json(self) -> dict:
        """The setup object (round-trips through :meth:`from_json`)."""
        out: dict = {}
        if self.edition:
            out["edition"] = self.edition
        else:
            out["categories"] = {cat: list(cards) for cat, cards in self.categories}
        out["players"] = list(self.players)
        if self.dealer:
            out["dealer"] = self.dealer
        out["hand_sizes"] = dict(zip(self.players, self.hand_sizes))
        out["me"] = self.me
        if self.dice is not None:
            out["dice"] = self.dice
        if self.pawns:
            out["pawns"] = {p: card_id(self, sus) for p, sus in self.pawns}
        if self.suggestion_trust:
            out["model"] = {"suggestion_trust": dict(self.suggestion_trust)}
        return out


def default_setup() -> Setup:
    """The New game dialog's start: Cluedo (UK), four players, me first, dealer last."""
    return Setup.from_json({"edition": "cluedo-uk", "players": ["Me", "Ann", "Bob", "Cy"], "me": "Me"})


# ---------------------------------------------------------------------------------------------
# Events
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class HandEvent:
    """``player`` holds all of ``cards`` (my hand at the deal: all my cards)."""

    player: str
    cards: tuple

    def to_json(self) -> dict:
        return {"type": "hand", "player": self.player, "cards": list(self.cards)}


@dataclass(frozen=True, kw_only=True)
class ShownEvent:
    """``player`` holds ``card`` (it was shown to me, or seen)."""

    player: str
    card: str

    def to_json(self) -> dict:
        return {"type": "shown", "player": self.player, "card": self.card}


@dataclass(frozen=True, kw_only=True)
class LacksEvent:
    """``player`` does not hold ``card``."""

    player: str
    card: str

    def to_json(self) -> dict:
        return {"type": "lacks", "player": self.player, "card": self.card}


@dataclass(frozen=True, kw_only=True)
class SuggestionEvent:
    """``suggester`` suggested ``cards`` = (suspect, weapon, room); each player in ``passed``
    holds none of them; ``refuter`` (or None: nobody) holds at least one; ``shown`` is the card
    the refuter showed when it is known — to me when I suggested, or by me when I refuted (the
    suggester then knows I hold it) — else None (optional in a session file: files without it
    read as before)."""

    suggester: str
    cards: tuple
    passed: tuple = ()
    refuter: Optional[str] = None
    shown: Optional[str] = None

    def to_json(self) -> dict:
        return {"type": "suggestion", "suggester": self.suggester, "cards": list(self.cards),
                "passed": list(self.passed), "refuter": self.refuter, "shown": self.shown}


@dataclass(frozen=True, kw_only=True)
class AccusationEvent:
    """``player`` accused ``cards`` = (suspect, weapon, room); ``correct=False`` (a failed
    accusation): the envelope is not exactly that triple; ``correct=True``: it is."""

    player: str
    cards: tuple
    correct: bool = False

    def to_json(self) -> dict:
        return {"type": "accusation", "player": self.player, "cards": list(self.cards),
                "correct": self.correct}


@dataclass(frozen=True, kw_only=True)
class PositionEvent:
    """``player``'s pawn is at ``at``: a room name, or a corridor square ``(row, col)`` of the
    edition's board (:mod:`engines.cluedo.board`). Says nothing about the cards."""

    player: str
    at: object

    def to_json(self) -> dict:
        return {"type": "position", "player": self.player,
                "at": self.at if isinstance(self.at, str) else list(self.at)}


@dataclass(frozen=True, kw_only=True)
class RollEvent:
    """``player`` rolled ``total`` (the dice's sum) for their move. Says nothing about the cards;
    the turn advice reads my latest roll."""

    player: str
    total: int

    def to_json(self) -> dict:
        return {"type": "roll", "player": self.player, "total": self.total}


EVENT_TYPES = ("hand", "shown", "lacks", "suggestion", "accusation", "position", "roll")
#: The keys each event type may hold, from what its ``to_json`` writes (the reader refuses
#: any other key, naming the nearest of these).
EVENT_KEYS = {
    "hand": declared_keys(HandEvent(player="", cards=())),
    "shown": declared_keys(ShownEvent(player="", card="")),
    "lacks": declared_keys(LacksEvent(player="", card="")),
    "suggestion": declared_keys(SuggestionEvent(suggester="", cards=(), passed=(), refuter="", shown="")),
    "accusation": declared_keys(AccusationEvent(player="", cards=())),
    "position": declared_keys(PositionEvent(player="", at="")),
    "roll": declared_keys(RollEvent(player="", total=0)),
}
#: events about the pawns, not the cards (inference ignores them)
BOARD_EVENTS = (PositionEvent, RollEvent)


def _triple(r: Reader, setup: Setup, key: str = "cards") -> tuple:
    cards = r.str_list(key, min_len=3, max_len=3)
    for i, ((cat, deck), c) in enumerate(zip(setup.categories, cards)):
        if c not in deck:
            raise SessionFormatError(f"{r.sub(key)}[{i}]", _("expected a {category} card, got {card}").format(
                category=_(CATEGORY_WORDS.get(cat, cat)), card=repr(c)))
    return tuple(cards)


def event_from_json(obj, setup: Setup, path: str = "$.event"):
    """Validate one event object against ``setup`` and build the event dataclass.

    Raises:
        SessionFormatError: unknown type, player or card; wrong counts; a passer who is also the
            suggester or refuter; a shown card that is not one of the suggested cards.
    """
    r = Reader(obj, path)
    t = r.choice("type", EVENT_TYPES, what="event type")
    players = list(setup.players)
    cards = list(setup.cards)
    if t == "hand":
        p = r.choice("player", players, what="player")
        size = setup.hand_sizes[players.index(p)]
        hand = r.str_list("cards", max_len=size, unique=True, choices=cards)
        return HandEvent(player=p, cards=tuple(hand))
    if t in ("shown", "lacks"):
        p = r.choice("player", players, what="player")
        c = r.choice("card", cards, what="card")
        return ShownEvent(player=p, card=c) if t == "shown" else LacksEvent(player=p, card=c)
    if t == "suggestion":
        s = r.choice("suggester", players, what="player")
        triple = _triple(r, setup)
        refuter = r.choice("refuter", players, None, what="player") if r.has("refuter") else None
        if refuter == s:
            raise r.error("refuter", _("the suggester cannot refute their own suggestion"))
        passed = r.str_list("passed", [], unique=True, choices=players)
        for i, p in enumerate(passed):
            if p == s:
                raise SessionFormatError(f"{r.sub('passed')}[{i}]", _("the suggester does not pass"))
            if p == refuter:
                raise SessionFormatError(f"{r.sub('passed')}[{i}]",
                                         _("{player} refuted, so did not pass").format(player=p))
        shown = None
        if r.has("shown"):
            shown = r.choice("shown", triple, what="shown card (one of the suggested cards)")
            if refuter is None:
                raise r.error("shown", "a card can only be shown when somebody refuted")
        return SuggestionEvent(suggester=s, cards=triple, passed=tuple(passed), refuter=refuter, shown=shown)
    if t == "position":
        p = r.choice("player", players, what="player")
        at = r.raw("at")
        rooms = dict(setup.categories)["room"]
        from engines.cluedo.board import edition_board

        eb = edition_board(setup)
        if isinstance(at, str):
            at = r.choice("at", rooms, what="room")
        elif eb is None:
            raise r.error("at", "this game has no board (a custom deck or an edition whose board "
                                "is not encoded): give a room")
        else:
            at = eb.board.check_position(at, r.sub("at"))
        return PositionEvent(player=p, at=at)
    if t == "roll":
        p = r.choice("player", players, what="player")
        return RollEvent(player=p, total=r.int("total", min=1, max=12))
    # accusation
    p = r.choice("player", players, what="player")
    triple = _triple(r, setup)
    correct = r.bool("correct", False)
    return AccusationEvent(player=p, cards=triple, correct=correct)


#: the keys of an event object that hold one card / a list of cards (what the file boundary
#: maps between display names and canonical ids)
_CARD_KEYS = ("card", "shown", "at")
_CARD_LIST_KEYS = ("cards",)


def _map_event_cards(obj: dict, table: dict, on_unknown) -> dict:
    out = dict(obj)
    for k in _CARD_KEYS:
        v = out.get(k)
        if isinstance(v, str):   # "at" may be a corridor square [row, col]
            out[k] = table[v] if v in table else on_unknown(k, v)
    for k in _CARD_LIST_KEYS:
        v = out.get(k)
        if isinstance(v, list):
            out[k] = [table[c] if isinstance(c, str) and c in table else on_unknown(f"{k}[{i}]", c)
                      for i, c in enumerate(v)]
    return out


def event_to_file(obj: dict, setup: Setup) -> dict:
    """An event object (``event.to_json()``, display names) as a session file holds it: every
    card named by its canonical id (:func:`card_id`) when ``setup`` is a local edition, so the
    same file reads under the other names of the deck (docs/session-format.md). Unchanged for
    an edition whose names are its ids or a custom deck."""
    to_id, _ = _name_tables(setup.edition) if setup.edition else ({}, {})
    if not to_id:
        return obj
    return _map_event_cards(obj, to_id, lambda _k, v: v)


def event_from_file(obj: dict, setup: Setup, path: str = "$.event") -> dict:
    """The inverse of :func:`event_to_file`: a session file's event object with its canonical
    card ids replaced by ``setup``'s display names, for :func:`event_from_json`.

    Raises:
        SessionFormatError: a card that is not a canonical id of the deck (e.g. a display name
            written by hand: the file form is exact), by JSON path.
    """
    _, to_name = _name_tables(setup.edition) if setup.edition else ({}, {})
    if not to_name or not isinstance(obj, dict):
        return obj

    def refuse(key, v):
        if not isinstance(v, str):
            return v   # event_from_json names the wrong type
        raise SessionFormatError(f"{path}.{key}", f"unknown card {v!r}: a {setup.edition} session "
                                 f"stores cards by their {names_of(setup.edition)} names "
                                 f"(expected one of {', '.join(sorted(to_name))})")
    return _map_event_cards(obj, to_name, refuse)


def relabel(setup: Setup, events: Sequence, edition: str) -> tuple:
    """The same game under the card names of ``edition`` (another edition of the same deck,
    :func:`same_deck_editions`): ``(setup, events)`` rebuilt through the file form, i.e. the
    canonical ids, so the log, the deal and every posterior are unchanged.

    Raises:
        SessionFormatError: ``edition`` does not share ``setup``'s deck (or a custom deck).
    """
    if edition not in same_deck_editions(setup.edition):
        raise SessionFormatError("edition", f"{edition!r} is not an edition of this deck; expected one "
                                            f"of {', '.join(same_deck_editions(setup.edition)) or 'none'}")
    new = Setup.from_json(dict(setup.to_json(), edition=edition))
    new_events = tuple(event_from_json(event_from_file(event_to_file(e.to_json(), setup), new), new)
                       for e in events)
    return new, new_events


def passers_between(setup: Setup, suggester: str, refuter: Optional[str]) -> tuple:
    """The players who must have passed on ``suggester``'s suggestion: those seated after the
    suggester, in order, up to (not including) ``refuter``; all the others when nobody refuted.

    Raises:
        SessionFormatError: unknown player names, or refuter == suggester.
    """
    players = list(setup.players)
    if suggester not in players:
        raise SessionFormatError("suggester", f"unknown player {suggester!r}")
    if refuter is not None and refuter not in players:
        raise SessionFormatError("refuter", f"unknown player {refuter!r}")
    if refuter == suggester:
        raise SessionFormatError("refuter", _("the suggester cannot refute their own suggestion"))
    order = seated_after(setup, suggester)
    if refuter is None:
        return order
    return order[:order.index(refuter)]


def seated_after(setup: Setup, player: str) -> tuple:
    """The other players in the order they play after ``player``: clockwise from the one seated
    next (``setup.players`` is the seating order, clockwise). An unknown ``player``: every
    player, in the seating order.

    The order in which the players are asked to refute a suggestion and in which the turns pass
    (the Cluedo / Clue rules, Waddingtons 1949 and Parker Brothers: play passes to the left)."""
    players = list(setup.players)
    if player not in players:
        return tuple(players)
    i = players.index(player)
    return tuple(players[i + 1:] + players[:i])


def describe_event(setup: Setup, event) -> str:
    """The event in words for the history panel, e.g.
    ``"Ann suggested Plum, Rope, Hall; Bob passed; Cy showed a card"``; I (``setup.me``) am
    "I": ``"My hand: …"``, ``"I have Rope"``, ``"I suggested …; Bob showed me Rope"``."""
    me = setup.me
    # the words are translated where they are built (engines.core.i18n; English unless the
    # desktop chose a language): whole sentences per person, since verbs agree with "I"
    and_ = _(" and ")

    def who(p: str) -> str:
        return _("I") if p == me else p

    def joined(names) -> str:
        names = [who(n) for n in names]
        return and_.join(names) if len(names) <= 2 else ", ".join(names[:-1]) + and_ + names[-1]

    if isinstance(event, HandEvent):
        cards = ", ".join(event.cards) if event.cards else _("(no cards)")
        if event.player == me:
            return _("My hand: {cards}").format(cards=cards)
        return _("{player}'s hand: {cards}").format(player=event.player, cards=cards)
    if isinstance(event, ShownEvent):
        if event.player == me:
            return _("I have {card}").format(card=event.card)
        return _("{player} has {card}").format(player=event.player, card=event.card)
    if isinstance(event, LacksEvent):
        if event.player == me:
            return _("I do not have {card}").format(card=event.card)
        return _("{player} does not have {card}").format(player=event.player, card=event.card)
    if isinstance(event, SuggestionEvent):
        return _describe_suggestion(event, me, joined)
    if isinstance(event, AccusationEvent):
        cards = ", ".join(event.cards)
        if event.player == me:
            text = _("I correctly accused {cards}") if event.correct else _("I wrongly accused {cards}")
        else:
            text = (_("{player} correctly accused {cards}") if event.correct else
                    _("{player} wrongly accused {cards}"))
        return text.format(player=event.player, cards=cards)
    if isinstance(event, PositionEvent):
        if isinstance(event.at, str):
            text = _("I am in the {room}") if event.player == me else _("{player} is in the {room}")
            return text.format(player=event.player, room=event.at)
        text = (_("I am on square row {row}, column {col}") if event.player == me else
                _("{player} is on square row {row}, column {col}"))
        return text.format(player=event.player, row=event.at[0], col=event.at[1])
    if isinstance(event, RollEvent):
        if event.player == me:
            return _("I rolled {total}").format(total=event.total)
        return _("{player} rolled {total}").format(player=event.player, total=event.total)
    raise SessionFormatError("event", f"not a Cluedo event: {type(event).__name__}")



def _describe_suggestion(event, me, joined) -> str:
    """:func:`describe_event` of a suggestion (``joined``: names joined with "and", "I" for me)."""
    cards = ", ".join(event.cards)
    parts = [_("I suggested {cards}").format(cards=cards) if event.suggester == me else
             _("{player} suggested {cards}").format(player=event.suggester, cards=cards)]
    if event.passed:
        if list(event.passed) == [me]:
            parts.append(_("I passed"))
        else:
            parts.append(ngettext("{players} passed", "{players} passed", len(event.passed)).format(
                players=joined(event.passed)))
    if event.refuter is None:
        parts.append(_("nobody refuted"))
    elif event.shown:
        if event.suggester == me:
            text = _("{player} showed me {card}")
        elif event.refuter == me:
            text = _("I showed {player} {card}")
        else:
            text = _("{refuter} showed {card}")
        parts.append(text.format(player=event.refuter if event.suggester == me else event.suggester,
                                 refuter=event.refuter, card=event.shown))
    else:
        parts.append(_("I showed a card") if event.refuter == me else
                     _("{player} showed a card").format(player=event.refuter))
    return "; ".join(parts)


def _check_typeable(name: str, path: str) -> None:
    """Refuse a player name quick entry could not read back: a ``:`` (it ends the suggester in
    "Ann: plum rope hall; Bob") or a word that means "nobody refuted" ("none", "nobody", …).

    Raises:
        SessionFormatError: at ``path``.
    """
    from engines.core.names import words

    if ":" in name:
        raise SessionFormatError(path, f"the name {name!r} contains ':', which quick entry reads "
                                       f"as the end of the suggester's name")
    if " ".join(words(name)) in NOBODY or name.strip() in NOBODY:
        raise SessionFormatError(path, f"{name!r} is a word quick entry reads as \"nobody "
                                       f"refuted\"; please choose another name")


#: Words a refuter field reads as "nobody refuted" (quick entry; so no player may be called so).
#: The card categories in words (marked only: translated where they are shown).
CATEGORY_WORDS = {"suspect": N_("suspect"), "weapon": N_("weapon"), "room": N_("room")}

NOBODY = ("none", "nobody", "noone", "-", "no one")
LEARN = "learn"
#: Largest rho accepted in a setup: beyond it the weights say "they only ever name their own
#: cards", which no table plays.
MAX_RHO = 100.0


def read_trust(obj, setup_players: Sequence[str], me: str, path: str) -> tuple:
    """Validate ``{"suggestion_trust": {name: rho or "learn"}}`` (the setup's ``"model"``).

    Returns:
        a tuple of ``(player, rho or "learn")`` pairs in seating order, players left out (rho 1)
        omitted.
    Raises:
        SessionFormatError: not an object, an unknown key, an unknown player, me (I know my own
            hand), or a value that is neither a number in [0, :data:`MAX_RHO`] nor ``"learn"``.
    """
    from engines.core.schema import Reader

    r = Reader(obj, path)
    extra = [k for k in obj if k != "suggestion_trust"]
    if extra:
        raise r.error(extra[0], f"unknown model setting {extra[0]!r}; expected \"suggestion_trust\"")
    if not r.has("suggestion_trust"):
        return ()
    trust = r.dict("suggestion_trust")
    tr = Reader(trust, r.sub("suggestion_trust"))
    for name in trust:
        if name not in setup_players:
            raise tr.error(name, f"{name!r} is not one of the players")
        if name == me:
            raise tr.error(name, "that is you: your own suggestions say nothing about a hand you know")
    out = []
    for name in setup_players:
        if name not in trust:
            continue
        v = trust[name]
        if isinstance(v, str):
            if v != LEARN:
                raise tr.error(name, f"expected a number (0: never names own cards, 1: neutral, "
                                     f"above 1: bluffs) or \"learn\", got {v!r}")
            out.append((name, LEARN))
        else:
            rho = tr.float(name, min=0.0, max=MAX_RHO)
            if rho != 1.0:
                out.append((name, rho))
    return tuple(out)
