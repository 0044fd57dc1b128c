"""Egghead setup and events (the session schema), validated with the core Reader.

Setup::

    {"players": [names], "me": name, "values": 6, "cards_per_player": 3,
     "moderator": "external" | "rotating", "behavioural_analysis": true,
     "visible": {name: [cards]},          # every player but me
     "analysing": [names]}                # optional: the other players who use behavioural
                                          # analysis (default: all of them)

Events::

    {"type": "answer", "question": id, "answer": n, "moderator": name | null}
    {"type": "reactions", "solved": [names]}
    {"type": "solve", "player": name, "cards": [...], "new_cards": [...] | null}
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence, Union

from engines.core.errors import SessionFormatError
from engines.core.i18n import _
from engines.core.limits import check_memory
from engines.core.schema import Reader, declared_keys, excerpt
from engines.egghead.questions import bound_deck, stack_space
from engines.egghead.table import table_bytes
from engines.registry import EGGHEAD

GAME, TITLE = EGGHEAD.id, EGGHEAD.title   # declared once, in the game registry
EVENT_TYPES = ("answer", "reactions", "solve")
MODERATORS = ("external", "rotating")
MAX_TABLE_BYTES = 6 << 30
"""Largest master table accepted (bytes of one bit-packed table): 5 players × 56 stacks take
79 MB, 6 players × 56 stacks 4.4 GB (accepted; inference then also checks the memory
available, :func:`engines.egghead.inference.check_memory`), 6 players × 84 stacks 66 GB
(refused).

That ceiling is for the game's own deck (:data:`SEED_DECK`), whose six-player table is a measured,
supported configuration (9-12 s per event). Any other deck gets :data:`MAX_CUSTOM_TABLE_BYTES`."""

SEED_DECK = (6, 3)   # engines.egghead.cost.GAME_DECK says the same (a test checks it)
"""(values, cards_per_player) of the game as Zorn (2024) describes it (section 2)."""

MAX_CUSTOM_TABLE_BYTES = 10 ** 9
"""Largest master table accepted for a deck other than :data:`SEED_DECK` (bytes): every event
reads the whole table, so a refresh stays under about 1 GB of memory and 10 s. 3 players with
9 values and 6 cards (3003 stacks each, 3003^3 worlds) need 3.4 GB and are refused at once."""


def max_table_bytes(values: int, cards_per_player: int) -> int:
    """The largest master table (bytes) accepted for this deck: :data:`MAX_TABLE_BYTES` for
    Zorn's (2024) deck, :data:`MAX_CUSTOM_TABLE_BYTES` for any other."""
    return MAX_TABLE_BYTES if (values, cards_per_player) == SEED_DECK else MAX_CUSTOM_TABLE_BYTES


def _stack(r: Reader, key: str, values: int, cards: int, what: str) -> tuple[int, ...]:
    lst = r.list(key, min_len=cards, max_len=cards)
    for i, c in enumerate(lst):
        if isinstance(c, bool) or not isinstance(c, int) or not 1 <= c <= values:
            raise SessionFormatError(f"{r.sub(key)}[{i}]",
                                     f"{what}: expected a card value 1..{values}, got {c!r}")
    return tuple(sorted(int(c) for c in lst))


@dataclass(frozen=True, kw_only=True)
class Setup:
    """An Egghead table as I see it (Zorn 2024, section 2).

    Attributes:
        players: names in seating order (3–6).
        me: my name (one of ``players``); my own stack is unknown to me.
        values: v, cards show 1..v (default 6).
        cards_per_player: k (default 3).
        moderator: ``"external"`` (a non-playing moderator, section 3.2) or ``"rotating"``
            (a player answers about the cards they see, appendix A.2).
        behavioural_analysis: whether I use behavioural analysis (section 4). When False my
            valids come from the answers alone (eq. (1)) and my reactions are modelled so.
        visible: ``((name, stack), ...)`` the stacks I see, sorted tuples, every player but me,
            in ``players`` order.
        analysing: the other players modelled as using behavioural analysis (appendix A.2,
            Remark A.5); the rest react from the answers alone.
    """

    players: tuple[str, ...]
    me: str
    values: int = 6
    cards_per_player: int = 3
    moderator: str = "external"
    behavioural_analysis: bool = True
    visible: tuple = ()
    analysing: tuple[str, ...] = ()

    @property
    def others(self) -> tuple[str, ...]:
        return tuple(p for p in self.players if p != self.me)

    def visible_dict(self) -> dict[str, tuple[int, ...]]:
        return dict(self.visible)

    def uses_ba(self, player: str) -> bool:
        """Whether ``player`` is modelled as using behavioural analysis."""
        return self.behavioural_analysis if player == self.me else player in self.analysing

    @staticmethod
    def from_json(obj, path: str = "$.setup") -> "Setup":
        """Validate and build a setup. Raises SessionFormatError naming the bad field."""
        r = Reader(obj, path)
        players = r.str_list("players", min_len=3, max_len=6, unique=True)
        me = r.choice("me", players, what="player")
        values = r.int("values", 6, min=2, max=9)
        cards = r.int("cards_per_player", 3, min=1, max=6)
        moderator = r.choice("moderator", MODERATORS, "external", what="moderator")
        ba = r.bool("behavioural_analysis", True)
        S = stack_space(values, cards).size
        if table_bytes(len(players), S) > MAX_TABLE_BYTES:
            raise r.error("players", f"{len(players)} players with {S} possible stacks each "
                                     f"({S}^{len(players)} worlds) do not fit in memory; use fewer "
                                     f"players, values or cards")
        tb = table_bytes(len(players), S)
        # a custom deck: the peak of inference (the table, the solved indicators and the chunk
        # temporaries, engines.egghead.orbits.memory_needed_for), not the table alone, must
        # fit (5 players x 7 values x 3 cards: a 0.8 GB table peaks at 1.2 GB)
        peak = tb
        if (values, cards) != SEED_DECK:
            from engines.egghead.orbits import memory_needed_for

            peak = memory_needed_for(len(players), S)
        if tb > max_table_bytes(values, cards) or peak > max_table_bytes(values, cards):
            field = "cards_per_player" if cards != SEED_DECK[1] else "values"
            raise r.error(field, f"{len(players)} players with {values} values and {cards} cards "
                                 f"each ({S} possible stacks, {S}^{len(players)} worlds) need a "
                                 f"{tb / 1e9:.1f} GB master table and {peak / 1e9:.1f} GB at the "
                                 f"peak of inference; at most "
                                 f"{MAX_CUSTOM_TABLE_BYTES / 1e9:.1f} GB is allowed for a deck other "
                                 f"than the game's {SEED_DECK[0]} values and {SEED_DECK[1]} cards "
                                 f"(every event reads the whole table, so memory and time grow with "
                                 f"it); use fewer players, values or cards")
        if (values, cards) != SEED_DECK:     # and its time: engines/egghead/cost.py
            from engines.egghead.cost import check_custom_deck
            check_custom_deck(len(players), values, cards, S, r)
        # the smallest table inference builds (one master table; for six players its orbits
        # under the symmetry of players, engines.egghead.orbits) against the memory this
        # process may still allocate (MemAvailable, ulimit -v/-d, cgroup: engines.core.limits)
        from engines.egghead.orbits import orbit_bytes, uses_orbits
        smallest = (orbit_bytes(len(players), S) if uses_orbits(len(players), S)
                    else table_bytes(len(players), S))
        check_memory(smallest, r.sub("players"),
                     f"{len(players)} players with {S} possible stacks each",
                     "close other programs, or use fewer players, values or cards")
        vis = r.child("visible")
        for name in vis.obj:
            if name not in players:
                raise vis.error(name, f"unknown player {excerpt(name)}")
            if name == me:
                raise vis.error(name, "you cannot see your own cards; leave yourself out")
        visible = tuple((p, _stack(vis, p, values, cards, f"{p}'s cards"))
                        for p in players if p != me)
        others = [p for p in players if p != me]
        analysing = tuple(r.str_list("analysing", others, unique=True, choices=others)) \
            if r.has("analysing") else tuple(others)
        analysing = tuple(p for p in others if p in analysing)
        return Setup(players=tuple(players), me=me, values=values, cards_per_player=cards, moderator=moderator,
                     behavioural_analysis=ba, visible=visible, analysing=analysing)

    def to_json(self) -> dict:
        return {"players": list(self.players), "me": self.me, "values": self.values,
                "cards_per_player": self.cards_per_player, "moderator": self.moderator,
                "behavioural_analysis": self.behavioural_analysis,
                "visible": {p: list(s) for p, s in self.visible},
                "analysing": list(self.analysing)}


@dataclass(frozen=True, kw_only=True)
class Answer:
    """The moderator answered question ``question`` (a deck id) with ``answer`` (an int).
    ``moderator`` is the answering player (rotating moderator) or None (external)."""

    question: str
    answer: int
    moderator: Optional[str] = None
    type: str = "answer"

    def to_json(self) -> dict:
        return {"type": "answer", "question": self.question, "answer": self.answer,
                "moderator": self.moderator}


@dataclass(frozen=True, kw_only=True)
class Reactions:
    """One announced round of reactions (seed eqs. (3)–(4)): the players in ``solved`` solved,
    everyone else did not."""

    solved: tuple[str, ...] = ()
    type: str = "reactions"

    def to_json(self) -> dict:
        return {"type": "reactions", "solved": list(self.solved)}


@dataclass(frozen=True, kw_only=True)
class Solve:
    """``player`` called their cards; ``cards`` is the stack they held (revealed), ``new_cards``
    the stack they were dealt (None when the player is me: I cannot see it). For another
    player ``cards`` may be None, meaning the stack I saw (seed eq. (5))."""

    player: str
    cards: Optional[tuple[int, ...]] = None
    new_cards: Optional[tuple[int, ...]] = None
    type: str = "solve"

    def to_json(self) -> dict:
        return {"type": "solve", "player": self.player,
                "cards": None if self.cards is None else list(self.cards),
                "new_cards": None if self.new_cards is None else list(self.new_cards)}


Event = Union[Answer, Reactions, Solve]
#: The keys each event type may hold, from what its ``to_json`` writes.
EVENT_KEYS = {"answer": declared_keys(Answer(question="", answer=0)), "reactions": declared_keys(Reactions()),
              "solve": declared_keys(Solve(player=""))}


def event_from_json(obj, setup: Setup, path: str = "$.events[0]") -> Event:
    """Validate one event against the setup. Raises SessionFormatError naming the bad field.

    Checks: question ids exist in the deck for this many values, the answer is one some world
    can give, the moderator field fits the setup's moderator mode, names exist, stacks have
    ``cards_per_player`` cards in 1..values.
    """
    r = Reader(obj, path)
    kind = r.choice("type", EVENT_TYPES, what="event type")
    if kind == "answer":
        deck = bound_deck(setup.values, setup.cards_per_player, len(setup.players))
        qid = r.str("question")
        if qid not in deck:
            raise r.error("question", f"unknown question {qid!r} for cards 1..{setup.values}")
        mod = r.raw("moderator", None)
        if setup.moderator == "external":
            if mod is not None:
                raise r.error("moderator", "the setup has an external moderator; use null")
        else:
            mod = r.choice("moderator", setup.players, what="player")
        ans = r.int("answer", min=0)
        seen = len(setup.players) - (0 if mod is None else 1)
        possible = deck[qid].possible_answers(seen)
        if ans not in possible:
            raise r.error("answer", f"{ans} is not a possible answer to {qid!r} "
                                    f"(possible: {', '.join(map(str, possible))})")
        return Answer(question=qid, answer=ans, moderator=mod)
    if kind == "reactions":
        return Reactions(solved=tuple(r.str_list("solved", [], unique=True, choices=setup.players)))
    player = r.choice("player", setup.players, what="player")
    k, v = setup.cards_per_player, setup.values
    cards = None if r.raw("cards", None) is None else _stack(r, "cards", v, k, "cards")
    new = None if r.raw("new_cards", None) is None else _stack(r, "new_cards", v, k, "new cards")
    if player == setup.me:
        if cards is None:
            raise r.error("cards", "give the cards you called (they are revealed to you)")
        if new is not None:
            raise r.error("new_cards", "you cannot see your own new cards; use null")
    elif new is None:
        raise r.error("new_cards", f"give the new cards {player} was dealt")
    return Solve(player=player, cards=cards, new_cards=new)


def _fmt(stack) -> str:
    return " ".join(str(c) for c in stack)


def visible_after(setup: Setup, events: Sequence) -> dict[str, tuple[int, ...]]:
    """The stacks I see after ``events``: ``{player: cards}`` for every other player, the
    setup's stacks, each replaced by the new cards a player other than me was dealt when they
    solved (the game's rules: a solver takes a new stack, which the others see). No inference.
    """
    visible = setup.visible_dict()
    for e in events:
        if isinstance(e, Solve) and e.player != setup.me and e.new_cards is not None:
            visible[e.player] = tuple(e.new_cards)
    return visible


def describe_event(setup: Setup, event: Event) -> str:
    """The event in words for the history panel."""
    if isinstance(event, Answer):
        deck = bound_deck(setup.values, setup.cards_per_player, len(setup.players))
        q = deck.get(event.question)
        from engines.egghead.words import question_text

        text = question_text(q.spec.text, setup.values) if q else event.question
        if event.moderator:
            return _("{player} asked “{question}” — answer {answer}").format(
                player=event.moderator, question=text, answer=event.answer)
        return _("The moderator asked “{question}” — answer {answer}").format(question=text, answer=event.answer)
    if isinstance(event, Reactions):
        if not event.solved:
            return _("Reactions: nobody solved")
        rest = [p for p in setup.players if p not in event.solved]
        if rest:
            return _("Reactions: {solved} solved; {rest} did not").format(
                solved=", ".join(event.solved), rest=", ".join(rest))
        return _("Reactions: {solved} solved").format(solved=", ".join(event.solved))
    said = dict(player=event.player, cards=_fmt(event.cards) if event.cards is not None else "",
                new=_fmt(event.new_cards) if event.new_cards is not None else "")
    if event.cards is not None:
        if event.new_cards is not None:
            return _("{player} solved with {cards} and was dealt {new}").format(**said)
        if event.player == setup.me:
            return _("{player} solved with {cards} and was dealt new (unknown) cards").format(**said)
        return _("{player} solved with {cards}").format(**said)
    if event.new_cards is not None:
        return _("{player} solved and was dealt {new}").format(**said)
    if event.player == setup.me:
        return _("{player} solved and was dealt new (unknown) cards").format(**said)
    return _("{player} solved").format(**said)


def default_setup() -> Setup:
    """The New game dialog's setup: Zorn's (2024) example 3.1 (I am A; B holds 4 5 6, C 3 3 3)."""
    return Setup(players=("A", "B", "C"), me="A", values=6, cards_per_player=3,
                 moderator="external", behavioural_analysis=True,
                 visible=(("B", (4, 5, 6)), ("C", (3, 3, 3))), analysing=("B", "C"))


@dataclass(frozen=True, kw_only=True)
class QuestionChoice:
    """A deck question as the tab's picker shows it: ``id``, ``text`` (values filled in) and
    ``answers`` (every answer some world can produce, ascending ints)."""

    id: str
    text: str
    answers: tuple[int, ...]


def questions_for(setup: Setup, moderator: Optional[str] = None) -> tuple[QuestionChoice, ...]:
    """The deck's questions applicable to the setup, in deck order, with their possible answers
    (for a rotating ``moderator`` the answers about the other players' cards)."""
    deck = bound_deck(setup.values, setup.cards_per_player, len(setup.players))
    seen = len(setup.players) - (0 if moderator is None else 1)
    return tuple(QuestionChoice(id=q.id, text=q.spec.display_text(setup.values),
                                answers=tuple(q.possible_answers(seen))) for q in deck.values())


def answer_for(setup: Setup, question: str, stacks: dict, moderator: Optional[str] = None) -> int:
    """The answer to ``question`` about ``stacks`` (``{name: cards}``; the moderator's own stack
    is ignored), e.g. when I am the rotating moderator and answer about the cards I see.

    Raises:
        SessionFormatError: unknown question or a bad stack.
    """
    deck = bound_deck(setup.values, setup.cards_per_player, len(setup.players))
    if question not in deck:
        raise SessionFormatError("question", f"unknown question {question!r}")
    sp = stack_space(setup.values, setup.cards_per_player)
    idx = []
    for p, cards in stacks.items():
        if p == moderator:
            continue
        try:
            idx.append(sp.index(cards))
        except KeyError:
            raise SessionFormatError(p, f"{list(cards)} is not a stack of "
                                        f"{setup.cards_per_player} cards in 1..{setup.values}") from None
    return deck[question].answer(idx)
