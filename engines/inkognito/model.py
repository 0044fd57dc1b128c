"""Inkognito session setup, the answer event, and the rules of a valid answer.

The game, as modelled. Sources: Höhle's Inkognito post (sequential Bayesian identity disclosure); the
Inkognito rules (Leo Colovini and Alex Randolph, 1988) as summarised by P. Wyns and S. Davis
(The Game Cabinet) and in the BoardGameGeek rules thread 1144026 ("Easily forgotten rules");
the facts marked *uncertain* could not be checked against the rulebook itself:

* Four players (three in the 3-player variant, where one set of cards is put aside). Each holds
  a secret identity — Lord Fiddlebottom, Madame Zsa Zsa, Colonel Bubble, Agent X — and a secret
  build (tall, short, fat, thin), dealt one of each per player from the grey secret cards, so
  over my opponents both are injective assignments of what I do not hold. Teams are fixed:
  Lord Fiddlebottom with Colonel Bubble, Madame Zsa Zsa with Agent X (here: identities 1 & 3
  and 2 & 4 of the setup's list).
* Player question (my figure meets an opponent's figure; I ask about identity or build): the
  opponent shows 2 cards of the asked kind and 1 of the other kind; **at least one** of the
  three is true (seed: ``sum I = 2, sum B = 1, I_i + B_b >= 1``).
* Ambassador question (I move the ambassador onto an opponent's figure): the opponent shows 2
  cards of the asked kind, **exactly one** true (seed: ``I_i + B_b = 1``).
* Mission card (BGG thread 1144026): in the answer to a player question the opponent may
  show the secret mission card in place of any one of the three cards, so only 2 statements
  are shown (2 of the asked kind, or 1 of each kind); at least one of them must be true.
  The content of the mission card (half of the team's mission code) is *not* modelled — log
  it as a note. *Uncertain*: whether it may be shown to the ambassador; refused here.
* No repeats (*uncertain*, hence the switch): a player may not show the same set of
  cards twice to the same asker. The engine then excludes the sets an opponent already showed
  me from that opponent's choice set (setup ``"no_repeats"``, default true); a repeated set is
  a contradiction.

:func:`engines.inkognito.likelihood.answer_forms` lists every accepted form with its rule.

Setup (JSON)::

    {"identities": [4 names], "builds": [4 names],
     "me": {"identity": name, "build": name}, "opponents": [2 or 3 names],
     "deception"?: {"enabled": false, "prior": [a, b], "priors"?: {opponent: [a, b]}},
     "no_repeats"?: true}

Event (JSON)::

    {"type": "answer", "opponent": name, "question": "player" | "ambassador",
     "asked": "identity" | "build", "identities": [names], "builds": [names],
     "mission"?: false}
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional, Sequence

from engines.core.errors import SessionFormatError
from engines.core.i18n import _, ngettext
from engines.core.resources import load_json_resource
from engines.core.schema import Reader, check_distinct_names, declared_keys, excerpt
from engines.registry import INKOGNITO

GAME, TITLE = INKOGNITO.id, INKOGNITO.title   # declared once, in the game registry
EVENT_TYPES = ("answer",)
QUESTIONS = ("player", "ambassador")
KINDS = ("identity", "build")
#: Teams by position in the identity list: (Lord Fiddlebottom, Colonel Bubble) and
#: (Madame Zsa Zsa, Agent X) with the default names.
TEAMS = ((0, 2), (1, 3))
#: Default Beta(a, b) prior of θ: mean 0.2 = 3/15, the share of "lone statement true" answers
#: among the 15 valid answers to a player question, i.e. Höhle's indifferent opponent.
DEFAULT_DECEPTION_PRIOR = (1.0, 4.0)


def partner_index(identity: int) -> int:
    """Index (0..3) of the teammate of identity ``identity`` (0..3)."""
    for a, b in TEAMS:
        if identity == a:
            return b
        if identity == b:
            return a
    raise ValueError(identity)


def default_names() -> dict:
    """The bundled default names (``resources/inkognito/names.json``)."""
    return load_json_resource("inkognito", "names.json")


@dataclass(frozen=True, kw_only=True)
class Deception:
    """The deception model's options.

    Attributes:
        enabled: use the θ model (otherwise every valid answer is equally likely).
        prior: Beta(a, b) prior of θ for every opponent (a, b > 0).
        priors: per-opponent Beta parameters overriding ``prior`` (e.g. from a ProfileStore),
            as a tuple of ``(name, (a, b))``.
    """

    enabled: bool = False
    prior: tuple = DEFAULT_DECEPTION_PRIOR
    priors: tuple = ()

    def prior_of(self, opponent: str) -> tuple:
        """Beta (a, b) of ``opponent``."""
        return dict(self.priors).get(opponent, self.prior)

    def to_json(self) -> dict:
        out: dict[str, Any] = {"enabled": self.enabled, "prior": list(self.prior)}
        if self.priors:
            out["priors"] = {k: list(v) for k, v in self.priors}
        return out


@dataclass(frozen=True, kw_only=True)
class Setup:
    """The game as set up.

    Attributes:
        identities: the 4 identity names (order: team partners are positions 1&3 and 2&4).
        builds: the 4 build names.
        me_identity, me_build: my own cards (names).
        opponents: 2 or 3 opponent names (3-player or 4-player game).
        deception: :class:`Deception` options (off by default).
        no_repeats: apply the rule that a set is never shown twice to the same asker.
    """

    identities: tuple
    builds: tuple
    me_identity: str
    me_build: str
    opponents: tuple
    deception: Deception = field(default_factory=Deception)
    no_repeats: bool = True

    @property
    def my_identity_index(self) -> int:
        return self.identities.index(self.me_identity)

    @property
    def my_build_index(self) -> int:
        return self.builds.index(self.me_build)

    @property
    def partner_identity(self) -> str:
        """Name of the identity of my partner."""
        return self.identities[partner_index(self.my_identity_index)]

    @staticmethod
    def from_json(obj: Any, path: str = "$.setup") -> "Setup":
        """Validate and build a setup. Raises SessionFormatError(json_path, message)."""
        r = Reader(obj, path)
        names = default_names()
        ids = r.str_list("identities", names["identities"], min_len=4, max_len=4, unique=True)
        builds = r.str_list("builds", names["builds"], min_len=4, max_len=4, unique=True)
        # an answer's cards are typed as one list ("lord zsa, fat"): no identity may look like
        # a build
        check_distinct_names(list(ids) + list(builds),
                             [f"{r.sub('identities')}[{i}]" for i in range(len(ids))]
                             + [f"{r.sub('builds')}[{i}]" for i in range(len(builds))])
        me = r.child("me")
        mi = me.choice("identity", ids, what="identity")
        mb = me.choice("build", builds, what="build")
        opps = r.str_list("opponents", min_len=2, max_len=3, unique=True)
        for i, o in enumerate(opps):
            if ":" in o:   # quick entry: "Red: lord zsa fat" — the colon ends the opponent
                raise SessionFormatError(f"{r.sub('opponents')}[{i}]",
                                         f"the name {o!r} contains ':', which quick entry reads "
                                         f"as the end of the opponent's name")
        dec = Deception()
        if r.has("deception"):
            d = r.child("deception")
            enabled = d.bool("enabled", False)
            prior = _beta(d, "prior", DEFAULT_DECEPTION_PRIOR)
            priors = []
            if d.has("priors"):
                pr = d.child("priors")
                for name in pr.obj:
                    if name not in opps:
                        raise SessionFormatError(pr.sub(name), f"unknown opponent {excerpt(name)}")
                    priors.append((name, _beta(pr, name, None)))
            dec = Deception(enabled=enabled, prior=prior, priors=tuple(priors))
        no_rep = r.bool("no_repeats", True)
        return Setup(identities=tuple(ids), builds=tuple(builds), me_identity=mi, me_build=mb, opponents=tuple(opps),
                     deception=dec, no_repeats=no_rep)

    def to_json(self) -> dict:
        return {"identities": list(self.identities), "builds": list(self.builds),
                "me": {"identity": self.me_identity, "build": self.me_build},
                "opponents": list(self.opponents), "deception": self.deception.to_json(),
                "no_repeats": self.no_repeats}


#: Range of a Beta prior's parameters where the posterior stays finite (a = b = 1.7e308
#: overflowed a + b and read as an impossible log); 1e6 is already a prior worth a million
#: observed answers.
BETA_PARAMETER_RANGE = (1e-6, 1e6)


def _beta(r: Reader, key: str, default) -> tuple:
    v = r.list(key, default if default is None else list(default), min_len=2, max_len=2)
    out = []
    lo, hi = BETA_PARAMETER_RANGE
    for i, x in enumerate(v):
        if isinstance(x, bool) or not isinstance(x, (int, float)) or not (lo <= x <= hi):
            raise SessionFormatError(f"{r.sub(key)}[{i}]",
                                     f"Beta parameters must be numbers from {lo:g} to {hi:g}, "
                                     f"got {excerpt(x)}")
        out.append(float(x))
    return tuple(out)


def default_setup(opponents: Optional[Sequence[str]] = None) -> Setup:
    """The default names, me = Agent X / short (Höhle's player), three opponents."""
    names = default_names()
    return Setup(identities=tuple(names["identities"]), builds=tuple(names["builds"]),
                 me_identity=names["identities"][3],
                 me_build=names["builds"][1], opponents=tuple(opponents or names["opponents"]))


@dataclass(frozen=True, kw_only=True)
class Answer:
    """An opponent's answer to my question.

    Attributes:
        opponent: who answered.
        question: ``"player"`` or ``"ambassador"``.
        asked: ``"identity"`` or ``"build"`` — the kind I asked about.
        identities, builds: the statements shown (names, setup order).
        mission: the opponent showed the mission card in place of a third card.
    """

    opponent: str
    question: str
    asked: str
    identities: tuple
    builds: tuple
    mission: bool = False

    def to_json(self) -> dict:
        out = {"type": "answer", "opponent": self.opponent, "question": self.question,
               "asked": self.asked, "identities": list(self.identities),
               "builds": list(self.builds)}
        if self.mission:
            out["mission"] = True
        return out


Event = Answer
#: The keys an answer may hold, from what its ``to_json`` writes (``mission`` only when shown).
EVENT_KEYS = {"answer": declared_keys(Answer(opponent="", question="", asked="", identities=(), builds=(),
                                             mission=True))}


def form_shapes(question: str, asked: str, mission: bool = False) -> tuple:
    """The allowed ``(number of identities, number of builds)`` of an answer form.

    Player: (2, 1) asked identity, (1, 2) asked build; with the mission card (2, 0)/(1, 1)
    resp. (0, 2)/(1, 1). Ambassador: (2, 0) or (0, 2).
    """
    if question == "ambassador":
        return ((2, 0),) if asked == "identity" else ((0, 2),)
    if not mission:
        return ((2, 1),) if asked == "identity" else ((1, 2),)
    return ((2, 0), (1, 1)) if asked == "identity" else ((0, 2), (1, 1))


def _plural(n: int, word: str) -> str:
    if word == "identity":
        return ngettext("{n} identity", "{n} identities", n).format(n=n)
    return ngettext("{n} build", "{n} builds", n).format(n=n)


def validate_answer(question: str, asked: str, identities: Sequence, builds: Sequence,
                    mission: bool = False, *, path: str = "$") -> None:
    """Check the form of an answer (counts of statements), before any inference.

    Args:
        question: ``"player"`` or ``"ambassador"``; asked: ``"identity"`` or ``"build"``.
        identities, builds: the statements shown (names or indices; no duplicates).
        mission: the mission card was shown in place of one card (player question only).
        path: JSON path prefix for the error.
    Raises:
        SessionFormatError: with a message saying what the rules require, e.g. "a player
            question about identity is answered with 2 identities and 1 build; you ticked
            1 identity and 1 build".
    """
    if question not in QUESTIONS:
        raise SessionFormatError(f"{path}.question", f"unknown question {question!r}; expected "
                                                     f"'player' or 'ambassador'")
    if asked not in KINDS:
        raise SessionFormatError(f"{path}.asked", f"unknown kind {asked!r}; expected "
                                                  f"'identity' or 'build'")
    for key, items in (("identities", identities), ("builds", builds)):
        if len(set(items)) != len(items):
            raise SessionFormatError(f"{path}.{key}", _("a card appears twice in the answer"))
    if mission and question == "ambassador":
        raise SessionFormatError(f"{path}.mission", _("the mission card can replace a card only "
                                                      "in the answer to a player question"))
    ni, nb = len(identities), len(builds)
    shapes = form_shapes(question, asked, mission)
    if (ni, nb) in shapes:
        return
    wants = [_("{first} and {second}").format(first=_plural(a, "identity"), second=_plural(b, "build"))
             if a and b else _plural(a, "identity") if a else _plural(b, "build") for a, b in shapes]
    want = wants[0]
    for other in wants[1:]:
        want = _("{first} or {second}").format(first=want, second=other)
    rule = _("at least one of them true") if question == "player" else _("exactly one of them true")
    what = {("player", "identity"): _("a player question about identity"),
            ("player", "build"): _("a player question about build"),
            ("ambassador", "identity"): _("an ambassador question about identity"),
            ("ambassador", "build"): _("an ambassador question about build")}[(question, asked)]
    if mission:
        what = _("{question} with the mission card shown").format(question=what)
    got = _("{first} and {second}").format(first=_plural(ni, "identity"), second=_plural(nb, "build"))
    raise SessionFormatError(f"{path}.identities" if ni != shapes[0][0] else f"{path}.builds",
                             _("{what} is answered with {want} ({rule}); you ticked {got}").format(
                                 what=what, want=want, rule=rule, got=got))


def event_from_json(obj: Any, setup: Setup, path: str = "$.event") -> Answer:
    """Validate one answer against the setup. Raises SessionFormatError(json_path, message)."""
    r = Reader(obj, path)
    r.choice("type", EVENT_TYPES, what="event type")
    opp = r.choice("opponent", setup.opponents, what="opponent")
    q = r.choice("question", QUESTIONS, what="question")
    asked = r.choice("asked", KINDS, what="kind")
    ids = r.str_list("identities", [], max_len=4, unique=True, choices=setup.identities)
    builds = r.str_list("builds", [], max_len=4, unique=True, choices=setup.builds)
    mission = r.bool("mission", False)
    validate_answer(q, asked, ids, builds, mission, path=path)
    ids = tuple(sorted(ids, key=setup.identities.index))
    builds = tuple(sorted(builds, key=setup.builds.index))
    return Answer(opponent=opp, question=q, asked=asked, identities=ids, builds=builds, mission=mission)


def describe_event(setup: Setup, event: Answer) -> str:
    """The answer in words: "Red, asked about identity (player): Lord Fiddlebottom, Madame Zsa
    Zsa + fat"."""
    from engines.inkognito.words import card_words, kind_words

    who = _("ambassador") if event.question == "ambassador" else _("player question")
    cards = ", ".join(card_words(c) for c in list(event.identities) + list(event.builds))
    if event.mission:
        return _("{opponent} ({question}, {kind}): {cards} + mission card").format(
            opponent=event.opponent, question=who, kind=kind_words(event.asked), cards=cards)
    return _("{opponent} ({question}, {kind}): {cards}").format(
        opponent=event.opponent, question=who, kind=kind_words(event.asked), cards=cards)
