"""Spyfall setup and events (“Spyfall with Pyro”, a probabilistic model of the game).

Session schema::

    setup  = {"locations": [...]} or {"edition": "spyfall1"|"spyfall2"|"spyfall1+2"},
             "players": [...], "me": name, "my_role": {"spy": true} | {"location": name},
             "model": {"beta": 5, "lambda": 0.7, "strategy": "flat"|"dynamic",
                       "claim_weight": 1,
                       "players": {name: {"beta": b, "lambda": l, "strategy": s,
                                          "claim_weight": w}}},
             "rounds": 5,
             "table": {"round_seconds": 480, "struck": [location, ...],       # optional
                       "timer": {"left": 312.5, "paused": true}}}
    events = {"type": "claim", "player": name, "claim": {location: weight, ...},
              "claim_weight": w}          # optional, overrides the player's w for this claim
           | {"type": "ask", "asker": name, "answerer": name}

An ``"ask"`` records who asked whom (Spyfall's rules: the answerer asks the next question). It
has no effect on the beliefs — the model of the seed reads claims only — but it fixes the turn
order the tab offers (:func:`next_turn`) and shows in the history.

``claim_weight`` w in (0, 1] tempers the observer's likelihood of a claim (each claim's
log-likelihood under every hypothesis is multiplied by w; w = 1, the default when the field is
absent, is “Spyfall with Pyro”'s model). A claim clicked on the worksheet's {0, ½, 1} grid is far coarser
than the Dirichlet model assumes; ``engines.spyfall.calibration`` chooses its w.

``table`` holds the player's own aids at the table — the round timer's length, the time left in
the round when the session was written (``timer``; absent for a round not yet started) and the
locations they struck out on their own list. They are kept with the session and never read by
the model (:class:`TableAids`: inference reads the locations, players and models only), and they
are not part of a setup's equality, so a change of them never makes a new belief timeline.

``me`` and ``my_role`` are optional (without them the engine is a public observer). A per-player
``strategy`` may also be ``"joker"`` (a random claimer whose claims carry no information).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Optional

import numpy as np

from engines.core.errors import SessionFormatError
from engines.core.i18n import _, ngettext, number
from engines.core.resources import load_json_resource
from engines.core.schema import Reader, declared_keys, excerpt
from engines.registry import SPYFALL

GAME, TITLE = SPYFALL.id, SPYFALL.title   # declared once, in the game registry
#: Emission strategies a player may follow (seed, "Emission strategies to implement").
STRATEGIES = ("flat", "dynamic", "joker")
DEFAULT_BETA = 5.0
DEFAULT_LAMBDA = 0.7
DEFAULT_ROUNDS = 5
#: The claim weight when the session does not give one: the untempered model of “Spyfall with Pyro”.
DEFAULT_CLAIM_WEIGHT = 1.0
#: The model a new game starts from (the New game dialog's defaults), chosen by the studies in
#: docs/spyfall-equilibrium.md and docs/spyfall-calibration.md: flat hide-reveal with λ = 0.3
#: (tied with the non-spies' equilibrium strategy and still informative), β = 5, and the claim
#: weight calibrated for worksheet (grid) claims under that model. The schema defaults above
#: (used when a session file omits a field) stay those of “Spyfall with Pyro”, so old files keep their meaning.
NEW_GAME_MODEL = {"beta": 5.0, "lambda": 0.3, "strategy": "flat", "claim_weight": 0.05}
#: Ranges of the model parameters where every number the engine computes stays finite:
#: β = 1e-300 with λ = 0.999999999 overflowed (a NaN posterior reported as a contradiction);
#: the whole grid β in {1e-6, 1e-3, 0.01, 1e4, 1e6} x λ in {0, 0.5, 0.999999} x every strategy
#: gives finite results (tests/engines/test_fuzz.py).
BETA_RANGE = (1e-6, 1e6)
LAMBDA_MAX = 0.999999
#: Sizes: Spyfall is played by 3 to 8 (Spyfall 2: up to 12); the editions have 30 locations
#: (60 together). Inference and its recommendation are O(players x locations^2) per claim.
MAX_PLAYERS = 20
MAX_LOCATIONS = 200
#: Largest claim weight: weights are proportions; larger ones only overflow their sum.
MAX_CLAIM_WEIGHT = 1e12
#: Claims are floored at this weight and renormalised (a Dirichlet density is 0 or infinite
#: on the boundary of the simplex, so a claim with zeros is read as "almost zero").
CLAIM_FLOOR = 1e-6


def editions() -> dict[str, dict]:
    """The location lists in ``resources/spyfall/editions.json``: ``{key: {"title", "locations"}}``,
    plus the union ``"spyfall1+2"``."""
    data = {k: v for k, v in load_json_resource("spyfall", "editions.json").items()
            if not k.startswith("_")}
    data["spyfall1+2"] = {"title": "Spyfall 1 + 2",
                          "locations": data["spyfall1"]["locations"] + data["spyfall2"]["locations"]}
    return data


def normalise_claim(weights) -> np.ndarray:
    """A claim vector on the simplex: weights floored at :data:`CLAIM_FLOOR` and renormalised.

    Args:
        weights: non-negative weights, shape (n,), not all zero.
    Returns:
        float array (n,), entries >= ~1e-6, summing to 1.
    """
    w = np.asarray(weights, dtype=float)
    w = w / w.sum()
    w = np.maximum(w, CLAIM_FLOOR)
    return w / w.sum()


@dataclass(frozen=True, kw_only=True)
class PlayerModel:
    """The personality of one player, known to everyone: Dirichlet concentration ``beta`` > 0,
    reveal weight ``lam`` in [0, 1), emission ``strategy`` (flat, dynamic or joker), and the
    ``claim_weight`` w in (0, 1] the observer's likelihood of this player's claims is tempered by."""

    beta: float = DEFAULT_BETA
    lam: float = DEFAULT_LAMBDA
    strategy: str = "flat"
    claim_weight: float = DEFAULT_CLAIM_WEIGHT


#: The round timer's default length: 8 minutes (Spyfall's rules for 5 players).
DEFAULT_ROUND_SECONDS = 480
#: Longest round the timer accepts (an evening).
MAX_ROUND_SECONDS = 4 * 3600


@dataclass(frozen=True, kw_only=True)
class TableAids:
    """The player's own aids at the table, saved with the session and never read by the model.

    Attributes:
        round_seconds: the round timer's length in seconds (1..:data:`MAX_ROUND_SECONDS`).
        struck: the locations I struck out on my own list (a subset of the setup's locations,
            in the setup's order).
        timer_left: seconds left in the round when the session was written (0..round_seconds,
            0.1 s steps), or None for a round not yet started (the full length).
        timer_paused: whether the timer was paused (or stopped) then; a reopened session shows
            the timer paused either way (the time between writing and reopening is not the
            round's).
    """

    round_seconds: int = DEFAULT_ROUND_SECONDS
    struck: tuple = ()
    timer_left: Optional[float] = None
    timer_paused: bool = True

    def to_json(self) -> dict:
        out: dict = {}
        if self.round_seconds != DEFAULT_ROUND_SECONDS:
            out["round_seconds"] = self.round_seconds
        if self.struck:
            out["struck"] = list(self.struck)
        if self.timer_left is not None:
            out["timer"] = {"left": self.timer_left, "paused": self.timer_paused}
        return out


@dataclass(frozen=True, kw_only=True)
class Setup:
    """A Spyfall table: locations, seating order, who I am and what I know, and the model.

    Attributes:
        locations: location names (n >= 2).
        players: player names in seating order (s >= 3).
        me: my name, or None for a public observer.
        my_location: the location on my card, or None (I am the spy, or no ``me``).
        i_am_spy: True when my card says "spy".
        models: one :class:`PlayerModel` per player (same order as ``players``).
        beta, lam, strategy, claim_weight: the table defaults the per-player models started from.
        edition: the edition key when the locations came from ``resources/spyfall``.
        rounds: rounds before the automatic end game (seed: each player speaks 5 times).
        table: my :class:`TableAids` (timer length and time left, struck-out locations); not
            part of the model: never read by inference, and left out of the setup's equality
            and hash (a strike-out or the timer never makes a new belief timeline; the session
            document compares the written setups, :func:`desktop.storage.document.same_setup`).
    """

    locations: tuple
    players: tuple
    me: Optional[str] = None
    my_location: Optional[str] = None
    i_am_spy: bool = False
    models: tuple = ()
    beta: float = DEFAULT_BETA
    lam: float = DEFAULT_LAMBDA
    strategy: str = "flat"
    edition: Optional[str] = None
    rounds: int = DEFAULT_ROUNDS
    claim_weight: float = DEFAULT_CLAIM_WEIGHT
    table: TableAids = field(default_factory=TableAids, compare=False)

    def __post_init__(self):
        if not self.models:
            object.__setattr__(self, "models", tuple(
                PlayerModel(beta=self.beta, lam=self.lam, strategy=self.strategy, claim_weight=self.claim_weight)
                for _ in self.players))

    @property
    def n_locations(self) -> int:
        return len(self.locations)

    @property
    def n_players(self) -> int:
        return len(self.players)

    @property
    def me_index(self) -> Optional[int]:
        return None if self.me is None else self.players.index(self.me)

    def betas(self) -> np.ndarray:
        """β per player, shape (s,)."""
        return np.array([m.beta for m in self.models], dtype=float)

    def lambdas(self) -> np.ndarray:
        """λ per player, shape (s,)."""
        return np.array([m.lam for m in self.models], dtype=float)

    def claim_weights(self) -> np.ndarray:
        """Claim weight w per player, shape (s,), each in (0, 1]."""
        return np.array([m.claim_weight for m in self.models], dtype=float)

    def strategies(self) -> tuple:
        """Emission strategy per player (s names)."""
        return tuple(m.strategy for m in self.models)

    @staticmethod
    def from_json(obj: Any, path: str = "$.setup") -> "Setup":
        """Validate a setup object (schema in the module docstring).

        Raises:
            SessionFormatError: the first bad field, by JSON path.
        """
        r = Reader(obj, path)
        edition = None
        if r.has("locations"):
            locations = r.str_list("locations", min_len=2, max_len=MAX_LOCATIONS, unique=True)
        elif r.has("edition"):
            eds = editions()
            edition = r.choice("edition", list(eds), what="edition")
            locations = list(eds[edition]["locations"])
        else:
            raise r.error("locations", "give either \"locations\" (a list) or \"edition\"")
        players = r.str_list("players", min_len=3, max_len=MAX_PLAYERS, unique=True)
        me = r.choice("me", players, None, what="player") if r.has("me") else None
        my_location, spy = None, False
        if me is not None:
            role = r.child("my_role")
            if role.has("spy") and role.bool("spy"):
                spy = True
                if role.has("location"):
                    raise role.error("location", "the spy does not know the location")
            elif role.has("location"):
                my_location = role.choice("location", locations, what="location")
            else:
                raise r.error("my_role", "give {\"spy\": true} or {\"location\": name}")
        elif r.has("my_role"):
            raise r.error("my_role", "my_role needs \"me\"")
        m = r.child("model", {})
        beta = m.float("beta", DEFAULT_BETA, min=BETA_RANGE[0], max=BETA_RANGE[1])
        lam = m.float("lambda", DEFAULT_LAMBDA, min=0, max=LAMBDA_MAX)
        strategy = m.choice("strategy", STRATEGIES, "flat", what="strategy")
        cw = m.float("claim_weight", DEFAULT_CLAIM_WEIGHT, min=0, min_exclusive=True, max=1)
        per = m.child("players", {})
        models = []
        for name in per.obj:
            if name not in players:
                raise per.error(name, f"unknown player {excerpt(name)}")
        for name in players:
            if per.has(name):
                pr = per.child(name)
                models.append(PlayerModel(
                    beta=pr.float("beta", beta, min=BETA_RANGE[0], max=BETA_RANGE[1]),
                    lam=pr.float("lambda", lam, min=0, max=LAMBDA_MAX),
                    strategy=pr.choice("strategy", STRATEGIES, strategy, what="strategy"),
                    claim_weight=pr.float("claim_weight", cw, min=0, min_exclusive=True, max=1)))
            else:
                models.append(PlayerModel(beta=beta, lam=lam, strategy=strategy, claim_weight=cw))
        rounds = r.int("rounds", DEFAULT_ROUNDS, min=1, max=1000)
        t = r.child("table", {})
        secs = t.int("round_seconds", DEFAULT_ROUND_SECONDS, min=1, max=MAX_ROUND_SECONDS)
        struck = t.str_list("struck", min_len=0, max_len=MAX_LOCATIONS, unique=True) \
            if t.has("struck") else []
        index = {loc: i for i, loc in enumerate(locations)}
        for i, loc in enumerate(struck):
            if loc not in index:
                raise SessionFormatError(f"{t.sub('struck')}[{i}]",
                                         f"unknown location {excerpt(loc)}")
        left, paused = None, True
        if t.has("timer"):
            tm = t.child("timer")
            left = tm.float("left", min=0, max=MAX_ROUND_SECONDS)
            if left > secs:
                raise tm.error("left", f"{left:g} seconds left is more than the round's "
                                       f"length ({secs} s, table.round_seconds)")
            left = round(left, 1)
            paused = tm.bool("paused", True)
        aids = TableAids(round_seconds=secs, struck=tuple(sorted(struck, key=index.__getitem__)), timer_left=left,
                         timer_paused=paused)
        return Setup(locations=tuple(locations), players=tuple(players), me=me, my_location=my_location, i_am_spy=spy,
                     models=tuple(models),
                     beta=beta, lam=lam, strategy=strategy, edition=edition, rounds=rounds, claim_weight=cw, table=aids)

    def to_json(self) -> dict:
        """The setup object; ``Setup.from_json(s.to_json()) == s``."""
        out: dict = {}
        if self.edition is not None:
            out["edition"] = self.edition
        else:
            out["locations"] = list(self.locations)
        out["players"] = list(self.players)
        if self.me is not None:
            out["me"] = self.me
            out["my_role"] = {"spy": True} if self.i_am_spy else {"location": self.my_location}
        model: dict = {"beta": self.beta, "lambda": self.lam, "strategy": self.strategy}
        if self.claim_weight != DEFAULT_CLAIM_WEIGHT:
            model["claim_weight"] = self.claim_weight
        default = PlayerModel(beta=self.beta, lam=self.lam, strategy=self.strategy, claim_weight=self.claim_weight)
        per = {}
        for name, pm in zip(self.players, self.models):
            if pm != default:
                per[name] = {"beta": pm.beta, "lambda": pm.lam, "strategy": pm.strategy}
                if pm.claim_weight != self.claim_weight:
                    per[name]["claim_weight"] = pm.claim_weight
        if per:
            model["players"] = per
        out["model"] = model
        if self.rounds != DEFAULT_ROUNDS:
            out["rounds"] = self.rounds
        aids = self.table.to_json()
        if aids:
            out["table"] = aids
        return out


@dataclass(frozen=True, kw_only=True)
class Claim:
    """A public claim C_t: ``player`` announces weights over the locations (seed, "Observed").

    Attributes:
        player: the speaker's name.
        weights: raw non-negative weights, one per location of the setup (n,), not all zero.
        claim_weight: this claim's w in (0, 1], or None for the speaker's w from the setup
            (e.g. 1 for an exact typed claim when the table's w is for worksheet clicks).
    """

    player: str
    weights: tuple = field(default_factory=tuple)
    locations: tuple = field(default_factory=tuple, compare=False, repr=False)
    claim_weight: Optional[float] = None

    @property
    def vector(self) -> np.ndarray:
        """The claim on the simplex (floored at 1e-6, renormalised), shape (n,)."""
        return normalise_claim(self.weights)

    def to_json(self) -> dict:
        claim = {loc: (int(w) if float(w).is_integer() else float(w))
                 for loc, w in zip(self.locations, self.weights) if w > 0}
        out = {"type": "claim", "player": self.player, "claim": claim}
        if self.claim_weight is not None:
            out["claim_weight"] = self.claim_weight
        return out


@dataclass(frozen=True, kw_only=True)
class Ask:
    """``asker`` asks ``answerer`` a question (Spyfall's turn order: the answerer asks next).
    It carries no evidence in the model of “Spyfall with Pyro” (the beliefs do not change); the answer is the
    answerer's next :class:`Claim`."""

    asker: str
    answerer: str

    def to_json(self) -> dict:
        return {"type": "ask", "asker": self.asker, "answerer": self.answerer}


EVENT_TYPES = ("claim", "ask")
#: The keys each event type may hold, from what its ``to_json`` writes (``claim_weight`` only
#: when the claim has its own).
EVENT_KEYS = {"claim": declared_keys(Claim(player="", claim_weight=1.0)),
              "ask": declared_keys(Ask(asker="", answerer=""))}


#: The weights a worksheet click gives a location (relative to the claim's largest weight).
GRID_LEVELS = (0.0, 0.5, 1.0)
#: The weight of a claim typed with exact numbers off the grid: “Spyfall with Pyro”'s untempered model.
EXACT_CLAIM_WEIGHT = 1.0


def on_grid(weights) -> bool:
    """True when a claim's weights, relative to its largest, are all 0, ½ or 1 (what worksheet
    clicks give; ``Beach:2, Casino:1`` is on the grid too). ``weights``: shape (n,), not all 0."""
    w = np.asarray(weights, float)
    top = float(w.max()) if w.size else 0.0
    if not top > 0:
        return False
    r = w / top
    return bool(np.all(np.min(np.abs(r[:, None] - np.array(GRID_LEVELS)[None, :]), axis=1) < 1e-9))


def entry_claim_weight(weights, explicit=None) -> Optional[float]:
    """The ``"claim_weight"`` a claim entered in the tab is logged with.

    The rule: an explicit ``w=…`` wins; a claim on the worksheet's grid (:func:`on_grid`) gets
    None — the speaker's w from the setup, calibrated for grid claims
    (docs/spyfall-calibration.md); a claim with exact numbers off the grid gets
    :data:`EXACT_CLAIM_WEIGHT` (1: “Spyfall with Pyro”'s model reads an exact claim as it is).

    Args:
        weights: the claim's weights, shape (n,).
        explicit: the typed ``w=…`` value, or None.
    """
    if explicit is not None:
        return explicit
    return None if on_grid(weights) else EXACT_CLAIM_WEIGHT


def make_claim(setup: Setup, player: str, weights, claim_weight: Optional[float] = None) -> Claim:
    """A :class:`Claim` from a name and a weight vector (n,) or a ``{location: weight}`` dict,
    with an optional per-claim ``claim_weight`` in (0, 1].

    Raises:
        SessionFormatError: unknown player/location, negative or non-finite weight, all zero,
            or a claim weight outside (0, 1].
    """
    obj = {"type": "claim", "player": player,
           "claim": weights if isinstance(weights, dict) else list(weights)}
    if claim_weight is not None:
        obj["claim_weight"] = claim_weight
    return event_from_json(obj, setup, "$")


def event_from_json(obj: Any, setup: Setup, path: str):
    """Validate one event against the setup: a :class:`Claim` (``"claim"`` is
    ``{location: weight}`` — missing locations weigh 0 — or a list of n weights in the order of
    the setup's locations) or an :class:`Ask` (two different players of the table).

    Raises:
        SessionFormatError: unknown type/player/location, a negative or non-finite weight,
            all weights zero, or a player asking themselves.
    """
    r = Reader(obj, path)
    if r.choice("type", EVENT_TYPES, what="event type") == "ask":
        asker = r.choice("asker", setup.players, what="player")
        answerer = r.choice("answerer", setup.players, what="player")
        if answerer == asker:
            raise r.error("answerer", f"{asker} cannot ask themselves")
        return Ask(asker=asker, answerer=answerer)
    player = r.choice("player", setup.players, what="player")
    raw = r.raw("claim")
    n = setup.n_locations
    w = np.zeros(n)
    if isinstance(raw, dict):
        index = _location_index(setup.locations)
        cr = Reader(raw, r.sub("claim"))
        for loc in raw:
            if loc not in index:
                raise cr.error(loc, f"unknown location {loc!r}")
            w[index[loc]] = cr.float(loc, min=0, max=MAX_CLAIM_WEIGHT)
    elif isinstance(raw, list):
        if len(raw) != n:
            raise r.error("claim", f"a claim vector needs {n} weights (one per location), "
                                   f"got {len(raw)}")
        lr = Reader({str(i): v for i, v in enumerate(raw)}, r.sub("claim"))
        for i in range(n):
            try:
                w[i] = lr.float(str(i), min=0, max=MAX_CLAIM_WEIGHT)
            except SessionFormatError as exc:
                raise SessionFormatError(f"{r.sub('claim')}[{i}]", exc.message) from None
    else:
        raise r.error("claim", "expected an object {location: weight} or a list of weights")
    if not w.sum() > 0:
        raise r.error("claim", "a claim needs at least one location with a positive weight")
    cw = r.float("claim_weight", min=0, min_exclusive=True, max=1) if r.has("claim_weight") else None
    return Claim(player=player, weights=tuple(w.tolist()), locations=setup.locations, claim_weight=cw)


@lru_cache(maxsize=16)
def _location_index(locations: tuple) -> dict:
    """``{location: index}`` of a setup's locations (made once per table, not per claim: a
    5,000-claim log of a 200-location table spent half its reading time building it)."""
    return {loc: i for i, loc in enumerate(locations)}


def describe_event(setup: Setup, event) -> str:
    """The event in words for the history panel, e.g. ``"Ann claims Beach 50%, Casino 50%"``
    or ``"Bob asks Cy"``."""
    if isinstance(event, Ask):
        return _("{asker} asks {answerer}").format(asker=event.asker, answerer=event.answerer)
    v = event.vector
    if np.ptp(v) < 1e-9:
        return _("{player} claims all locations alike").format(player=event.player)
    order = np.argsort(-v, kind="stable")
    shown = ", ".join(f"{setup.locations[i]} {number(v[i], '.0%')}" for i in order[:4] if v[i] >= 0.005)
    rest = int(np.sum(v[order[4:]] >= 0.005))
    if rest:
        return ngettext("{player} claims {claim} (+{n} more)", "{player} claims {claim} (+{n} more)",
                        rest).format(player=event.player, claim=shown, n=rest)
    return _("{player} claims {claim}").format(player=event.player, claim=shown)


def next_turn(setup: Setup, events) -> dict:
    """Whose turn it is, as Spyfall plays: the answerer of a question asks the next one.

    Returns:
        ``{"asker", "answerer", "after"}``: after an :class:`Ask` the answerer (who is to claim)
        and ``asker`` None; after a claim whose speaker had been asked, that speaker asks next
        (``asker``) and ``answerer`` is None (not known until they ask); in a log without asks,
        the seating order: ``answerer`` is the player after the last speaker (the first player
        at the start) and ``asker`` None. ``after`` is ``"ask"``, ``"claim"`` or ``"start"``.
    """
    players = setup.players
    if not events:
        return {"asker": None, "answerer": players[0], "after": "start"}
    last = events[-1]
    if isinstance(last, Ask):
        return {"asker": None, "answerer": last.answerer, "after": "ask"}
    if any(isinstance(e, Ask) for e in events):
        return {"asker": last.player, "answerer": None, "after": "claim"}
    i = players.index(last.player) if last.player in players else -1
    return {"asker": None, "answerer": players[(i + 1) % len(players)], "after": "claim"}


def claims_only(events) -> list:
    """The :class:`Claim` events of a log, in order (what the model reads)."""
    return [e for e in events if isinstance(e, Claim)]


def default_setup() -> Setup:
    """The New game dialog's start: Spyfall 1 locations, five players, I hold a location card,
    and the model of :data:`NEW_GAME_MODEL` (chosen by the studies)."""
    return Setup.from_json({"edition": "spyfall1", "players": ["Ann", "Bob", "Cy", "Dee", "Eve"],
                            "me": "Ann", "my_role": {"location": "Beach"},
                            "model": dict(NEW_GAME_MODEL)})
