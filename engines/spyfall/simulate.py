"""Spyfall bots and tournament simulator (“Spyfall with Pyro”, "Player strategy", "Code up the game").

A game: N ~ Unif(locations), S ~ Unif(players). Seats speak in seating order for ``rounds``
rounds (seed: each player shares 5 times). Every bot does the Bayes update of
:class:`~engines.spyfall.inference.BeliefTracker` (the bots know each other's personalities and
strategies) and emits with its strategy:

* ``flat``: flat hide-reveal, γ = β((1−λ)·1 + λ·P), P its private location belief;
* ``dynamic``: dynamic hide-reveal (exact rule in :func:`engines.spyfall.inference.emission_params`);
* ``joker``: a random baseline: claims ~ Dirichlet(1), and it votes / names a location at random.

End game (seed, "Automatic end-game trigger"): every non-spy bot votes for its most likely spy
(its private spy belief, MLE); the spy votes for the top public suspect other than itself;
a player is named when a strict majority (> s/2) votes for them. The spy names its most likely
location (MLE of Q). The non-spy team wins when the named player is the spy and the spy's
location is wrong; otherwise the spy wins.

Two variants for the hide-reveal study (:mod:`engines.spyfall.equilibrium`):

* ``vote_threshold``: an early vote — the end game above runs as soon as, after a claim, the
  public spy belief of some player reaches the threshold (``vote_on="public"``), or some
  non-spy's private spy belief does (``vote_on="private"``: “Spyfall with Pyro”'s "Check if the end-game
  threshold for any player has been reached").
* ``spy_lam`` / ``spy_beta`` / ``spy_strategy``: the spy secretly emits with its own λ, β and
  strategy, while every bot's model still reads all seats with the table's β, λ and the seat's
  strategy (the spy's deviation is not known to the others).

Tournaments run on all cores or on a Dask cluster (:mod:`engines.core.executor`) and are
reproducible from the seed whatever runs them: game i draws everything from
``numpy.random.default_rng([seed, i])``.
"""
from __future__ import annotations

import argparse
import math
import time
from dataclasses import dataclass, field
from typing import Optional, Sequence

import numpy as np

from engines.core.errors import CancelFlag, Progress, SessionFormatError
from engines.core.executor import run_games
from engines.core.stats import wilson_interval
from engines.spyfall.inference import BeliefTracker, emission_params, kl_bits
from engines.spyfall.model import DEFAULT_BETA, DEFAULT_LAMBDA, DEFAULT_ROUNDS, STRATEGIES, normalise_claim


@dataclass(frozen=True)
class SimConfig:
    """What to simulate.

    Attributes:
        players: s >= 3 seats; locations: n >= 2 locations; games: number of games.
        strategies: the strategies in play; each game draws each seat's strategy uniformly from
            this list (unless ``seats`` fixes them).
        seats: optional fixed strategy per seat (length ``players``).
        seed: the tournament seed (game i uses ``default_rng([seed, i])``).
        beta, lam: every bot's personality (β > 0, λ in [0, 1)).
        rounds: rounds before the end game (each seat speaks ``rounds`` times).
        workers: processes (None = os.cpu_count()); results do not depend on it.
        scheduler: where the games run (:mod:`engines.core.executor`): None = this computer's
            ``workers`` processes, ``processes:N``, ``local:N`` or ``tcp://HOST:8786``.
        vote_threshold: None (vote after the last round, “Spyfall with Pyro”'s rule) or p in (0, 1]: the
            end game runs after the first claim that lifts a spy probability to >= p.
        vote_on: "public" (the public spy belief) or "private" (any non-spy's private belief).
        spy_lam, spy_beta, spy_strategy: the spy's actual emission (None = as modelled).
    """

    players: int = 5
    locations: int = 10
    games: int = 1000
    strategies: tuple = ("flat", "dynamic", "joker")
    seats: Optional[tuple] = None
    seed: int = 1
    beta: float = DEFAULT_BETA
    lam: float = DEFAULT_LAMBDA
    rounds: int = DEFAULT_ROUNDS
    workers: Optional[int] = None
    scheduler: Optional[str] = None
    vote_threshold: Optional[float] = None
    vote_on: str = "public"
    spy_lam: Optional[float] = None
    spy_beta: Optional[float] = None
    spy_strategy: Optional[str] = None

    def validate(self) -> None:
        """Raises SessionFormatError (path = the CLI option) on a bad value."""
        if self.players < 3:
            raise SessionFormatError("--players", f"needs at least 3 players, got {self.players}")
        if self.locations < 2:
            raise SessionFormatError("--locations", f"needs at least 2 locations, got {self.locations}")
        if self.games < 1:
            raise SessionFormatError("--games", f"needs at least 1 game, got {self.games}")
        if self.rounds < 1:
            raise SessionFormatError("--rounds", f"needs at least 1 round, got {self.rounds}")
        if not self.strategies and not self.seats:
            raise SessionFormatError("--strategies", "name at least one strategy")
        for s in tuple(self.strategies) + tuple(self.seats or ()):
            if s not in STRATEGIES:
                raise SessionFormatError("--strategies", f"unknown strategy {s!r}; expected one of "
                                                         f"{', '.join(STRATEGIES)}")
        if self.seats is not None and len(self.seats) != self.players:
            raise SessionFormatError("--seats", f"needs {self.players} strategies (one per seat), "
                                                f"got {len(self.seats)}")
        if not (self.beta > 0 and math.isfinite(self.beta)):
            raise SessionFormatError("--beta", f"must be > 0, got {self.beta}")
        if not (0 <= self.lam < 1):
            raise SessionFormatError("--lambda", f"must be in [0, 1), got {self.lam}")
        if self.vote_threshold is not None and not (0 < self.vote_threshold <= 1):
            raise SessionFormatError("--vote-threshold",
                                     f"must be in (0, 1], got {self.vote_threshold}")
        if self.vote_on not in ("public", "private"):
            raise SessionFormatError("--vote-on", f"expected public or private, got {self.vote_on!r}")
        if self.spy_lam is not None and not (0 <= self.spy_lam < 1):
            raise SessionFormatError("--spy-lambda", f"must be in [0, 1), got {self.spy_lam}")
        if self.spy_beta is not None and not (self.spy_beta > 0 and math.isfinite(self.spy_beta)):
            raise SessionFormatError("--spy-beta", f"must be > 0, got {self.spy_beta}")
        if self.spy_strategy is not None and self.spy_strategy not in STRATEGIES:
            raise SessionFormatError("--spy-strategy", f"unknown strategy {self.spy_strategy!r}")
        if self.workers is not None and self.workers < 1:
            raise SessionFormatError("--workers", f"must be at least 1, got {self.workers}")


def bot_claim(tracker: BeliefTracker, j: int, location: int, spy: int,
              rng: np.random.Generator, params=None) -> np.ndarray:
    """The claim (n,) bot ``j`` emits now: C ~ Dirichlet(γ) with γ from its strategy, floored."""
    a, b, g = tracker.emission(j) if params is None else params
    if j == spy:
        gamma = g
    else:
        gamma = np.full(tracker.n, a[location])
        gamma[location] += b[location]
    c = rng.dirichlet(gamma)
    if not np.all(np.isfinite(c)) or c.sum() <= 0:  # pragma: no cover - numpy edge case
        c = np.ones(tracker.n)
    return normalise_claim(c)


def bot_vote(tracker: BeliefTracker, i: int, location: int, spy: int,
             rng: np.random.Generator) -> int:
    """The seat bot ``i`` votes for at the end game (see module docstring)."""
    s = tracker.s
    if tracker.strategies[i] == "joker":
        others = [k for k in range(s) if k != i]
        return int(others[rng.integers(len(others))])
    if i == spy:
        pub = tracker.public_spy().copy()
        pub[i] = -1.0
        return int(np.argmax(pub))
    return int(np.argmax(tracker.private_spy(i, location)))


def bot_guess(tracker: BeliefTracker, spy: int, rng: np.random.Generator) -> int:
    """The location the spy bot names (MLE of its belief Q; random for a joker)."""
    if tracker.strategies[spy] == "joker":
        return int(rng.integers(tracker.n))
    return int(np.argmax(tracker.spy_view(spy)))


def majority(votes: Sequence[int], s: int) -> int:
    """The seat named by a strict majority (> s/2) of ``votes``, or -1."""
    counts = np.bincount(np.asarray(votes, int), minlength=s)
    k = int(np.argmax(counts))
    return k if counts[k] * 2 > s else -1


def _non_spy_views(tr: BeliefTracker, location: int, non_spies: list) -> np.ndarray:
    """Private spy beliefs of the non-spies (rows), each ∝ joint[location, k] with k ≠ itself."""
    row = tr.joint()[location]
    views = np.tile(row, (len(non_spies), 1))
    views[np.arange(len(non_spies)), non_spies] = 0.0
    tot = views.sum(1, keepdims=True)
    if np.any(tot <= 0):  # underflow: recompute those rows in log space
        return np.array([tr.private_spy(i, location) for i in non_spies])
    return views / tot


def _mean_kl_bits(new: np.ndarray, old: np.ndarray) -> float:
    """Mean over rows of KL(new ‖ old) in bits."""
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(new > 0, new * (np.log(new) - np.log(np.maximum(old, 1e-300))), 0.0)
    return float(np.mean(np.maximum(terms.sum(1), 0.0))) / np.log(2.0)


def play_game(config: SimConfig, index: int, record: bool = True) -> dict:
    """Play game ``index`` of the tournament ``config`` with bots; reproducible from (seed, index).

    ``record=False`` skips the per-turn information gains (a third of the cost; the studies
    that need only who won use it): the game, its random draws and its outcome are the same,
    and the per-turn arrays of the record stay 0.

    Returns a record: ``strategies`` (s names), ``location``, ``spy`` (seat), ``spy_wins`` (bool),
    ``named`` (seat or -1), ``guess`` (location), ``votes`` (s,), ``ig`` (T,) public location
    information gain per turn in bits, ``ig_spy`` (T,) public spy IG in bits,
    ``ig_spy_private`` (T,) IG of the spy's private location belief Q, ``ig_non_spy_private`` (T,)
    mean IG of the non-spies' private spy beliefs (bits), ``p_spy`` (T+1,)
    public probability of the true spy after 0..T claims, ``turns`` claims made (< T after an
    early vote; the per-turn information gains are 0 after it and p_spy keeps its last value).
    """
    rng = np.random.default_rng([config.seed, index])
    s, n = config.players, config.locations
    strategies = tuple(config.seats) if config.seats else \
        tuple(config.strategies[i] for i in rng.integers(len(config.strategies), size=s))
    location = int(rng.integers(n))
    spy = int(rng.integers(s))
    tr = BeliefTracker(n, s, np.full(s, config.beta), np.full(s, config.lam), strategies)
    turns = config.rounds * s
    ig = np.zeros(turns)
    ig_spy = np.zeros(turns)
    ig_spy_private = np.zeros(turns)
    ig_non_spy_private = np.zeros(turns)
    non_spies = [i for i in range(s) if i != spy]
    q0 = tr.spy_view(spy) if record else None
    priv0 = _non_spy_views(tr, location, non_spies) if record else None
    private_vote = config.vote_threshold is not None and config.vote_on == "private"
    p_spy = np.empty(turns + 1)
    p_spy[0] = 1.0 / s
    deviates = any(x is not None for x in (config.spy_lam, config.spy_beta, config.spy_strategy))
    played = turns
    for t in range(turns):
        j = t % s
        loc0, spy0 = tr.public_location(), tr.public_spy()
        params = tr.emission(j)
        if j == spy and deviates:  # the spy's own emission; the others' model is unchanged
            actual = emission_params(config.spy_strategy or strategies[j],
                                     config.beta if config.spy_beta is None else config.spy_beta,
                                     config.lam if config.spy_lam is None else config.spy_lam,
                                     j, loc0, spy0, tr.spy_view(j))
            c = bot_claim(tr, j, location, spy, rng, actual)
        else:
            c = bot_claim(tr, j, location, spy, rng, params)
        tr.add_claim(j, c, params)
        p_spy[t + 1] = tr.public_spy()[spy]
        if record:
            ig[t] = kl_bits(tr.public_location(), loc0)
            ig_spy[t] = kl_bits(tr.public_spy(), spy0)
            q1 = tr.spy_view(spy)
            priv1 = _non_spy_views(tr, location, non_spies)
            ig_spy_private[t] = kl_bits(q1, q0)
            ig_non_spy_private[t] = _mean_kl_bits(priv1, priv0)
            q0, priv0 = q1, priv1
        elif private_vote:
            priv1 = _non_spy_views(tr, location, non_spies)
        if config.vote_threshold is not None and \
                (priv1 if config.vote_on == "private" else tr.public_spy()).max() >= config.vote_threshold:
            played = t + 1
            p_spy[played + 1:] = p_spy[played]  # the belief stays as it was at the vote
            break
    votes = [bot_vote(tr, i, location, spy, rng) for i in range(s)]
    named = majority(votes, s)
    guess = bot_guess(tr, spy, rng)
    spy_wins = guess == location or named != spy
    return {"strategies": strategies, "location": location, "spy": spy, "spy_wins": bool(spy_wins),
            "named": named, "guess": guess, "votes": votes, "ig": ig, "ig_spy": ig_spy,
            "ig_spy_private": ig_spy_private, "ig_non_spy_private": ig_non_spy_private,
            "p_spy": p_spy, "turns": played}


def _one_game(index: int, _seed_seq, config: SimConfig) -> dict:
    """Game ``index`` (a task of :func:`engines.core.executor.run_games`); it keeps this
    simulator's own per-game seed ``SeedSequence([seed, index])`` (the figures published with
    it stay the same), as independent across games as the executor's spawned seeds."""
    return play_game(config, index)


@dataclass(frozen=True, eq=False)
class SimResult:
    """Tournament figures (probabilities in [0, 1], information in bits).

    Attributes:
        config: the :class:`SimConfig`.
        spy_win_rate, spy_win_ci95: overall spy win rate and its Wilson 95% interval.
        by_strategy: {strategy: {"as_spy": {"games", "win_rate", "ci95"},
            "as_non_spy": {"seats", "win_rate", "ci95"}}} (win rate of that seat's team).
        accusation_accuracy: fraction of games where the vote named the true spy.
        vote_accuracy: fraction of non-spy votes cast for the true spy.
        spy_location_accuracy: fraction of games where the spy named the true location.
        mean_information_gain_bits: (T,) mean public location IG per turn, bits.
        mean_spy_information_gain_bits: (T,) mean public spy IG per turn, bits.
        mean_spy_private_information_gain_bits: (T,) mean IG of the spy's location belief Q, bits.
        mean_non_spy_private_information_gain_bits: (T,) mean IG of a non-spy's spy belief, bits.
        mean_true_spy_probability: (T+1,) mean public probability of the true spy after 0..T
            claims (starts at 1/s; rises when claims expose the spy).
        elapsed_seconds: wall time.
    """

    config: SimConfig
    spy_win_rate: float
    spy_win_ci95: tuple
    by_strategy: dict
    accusation_accuracy: float
    vote_accuracy: float
    spy_location_accuracy: float
    mean_information_gain_bits: np.ndarray
    mean_spy_information_gain_bits: np.ndarray
    mean_true_spy_probability: np.ndarray
    mean_spy_private_information_gain_bits: np.ndarray = None
    mean_non_spy_private_information_gain_bits: np.ndarray = None
    elapsed_seconds: float = 0.0
    records: list = field(default_factory=list, repr=False)

    def to_json(self) -> dict:
        c = self.config
        return {"game": "spyfall", "players": c.players, "locations": c.locations,
                "games": c.games, "rounds": c.rounds, "strategies": list(c.strategies),
                "seats": list(c.seats) if c.seats else None, "seed": c.seed,
                "beta": c.beta, "lambda": c.lam,
                **({"vote_threshold": c.vote_threshold, "vote_on": c.vote_on}
                   if c.vote_threshold is not None else {}),
                **{k: v for k, v in (("spy_lambda", c.spy_lam), ("spy_beta", c.spy_beta),
                                     ("spy_strategy", c.spy_strategy)) if v is not None},
                "spy_win_rate": self.spy_win_rate, "spy_win_ci95": list(self.spy_win_ci95),
                "non_spy_win_rate": 1.0 - self.spy_win_rate,
                "by_strategy": self.by_strategy,
                "accusation_accuracy": self.accusation_accuracy,
                "vote_accuracy": self.vote_accuracy,
                "spy_location_accuracy": self.spy_location_accuracy,
                "mean_information_gain_bits": [float(x) for x in self.mean_information_gain_bits],
                "mean_total_information_gain_bits": float(self.mean_information_gain_bits.sum()),
                "mean_spy_information_gain_bits": [float(x) for x in self.mean_spy_information_gain_bits],
                "mean_true_spy_probability": [float(x) for x in self.mean_true_spy_probability],
                "mean_spy_private_information_gain_bits":
                    [float(x) for x in self.mean_spy_private_information_gain_bits],
                "mean_non_spy_private_information_gain_bits":
                    [float(x) for x in self.mean_non_spy_private_information_gain_bits],
                "elapsed_seconds": self.elapsed_seconds}


def aggregate(config: SimConfig, records: list, elapsed: float = 0.0) -> SimResult:
    """Figures from the game records of :func:`play_game` (in game order)."""
    g = len(records)
    spy_wins = sum(r["spy_wins"] for r in records)
    names = list(dict.fromkeys(tuple(config.strategies) + tuple(config.seats or ())))
    by = {}
    for st in names:
        as_spy = [r for r in records if r["strategies"][r["spy"]] == st]
        w = sum(r["spy_wins"] for r in as_spy)
        seats = [(r, i) for r in records for i, x in enumerate(r["strategies"])
                 if x == st and i != r["spy"]]
        wn = sum(not r["spy_wins"] for r, _ in seats)
        by[st] = {"as_spy": {"games": len(as_spy), "win_rate": w / len(as_spy) if as_spy else 0.0,
                             "ci95": list(wilson_interval(w, len(as_spy)))},
                  "as_non_spy": {"seats": len(seats),
                                 "win_rate": wn / len(seats) if seats else 0.0,
                                 "ci95": list(wilson_interval(wn, len(seats)))}}
    votes_ok = sum(sum(v == r["spy"] for i, v in enumerate(r["votes"]) if i != r["spy"])
                   for r in records)
    votes_n = sum(len(r["votes"]) - 1 for r in records)
    return SimResult(
        config=config, spy_win_rate=spy_wins / g, spy_win_ci95=wilson_interval(spy_wins, g),
        by_strategy=by,
        accusation_accuracy=sum(r["named"] == r["spy"] for r in records) / g,
        vote_accuracy=votes_ok / votes_n,
        spy_location_accuracy=sum(r["guess"] == r["location"] for r in records) / g,
        mean_information_gain_bits=np.mean([r["ig"] for r in records], axis=0),
        mean_spy_information_gain_bits=np.mean([r["ig_spy"] for r in records], axis=0),
        mean_true_spy_probability=np.mean([r["p_spy"] for r in records], axis=0),
        mean_spy_private_information_gain_bits=np.mean([r["ig_spy_private"] for r in records], axis=0),
        mean_non_spy_private_information_gain_bits=np.mean([r["ig_non_spy_private"] for r in records],
                                                           axis=0),
        elapsed_seconds=elapsed, records=records)


def simulate(config: SimConfig, *, progress: Progress = None,
             cancel: CancelFlag = None) -> SimResult:
    """Run a bot tournament (“Spyfall with Pyro”, "Code up the game").

    Args:
        config: :class:`SimConfig`.
        progress: optional callable ``progress(done, total)`` (games), called as chunks finish.
        cancel: optional zero-argument callable; when it returns True the run stops.

    Returns:
        :class:`SimResult`; identical for the same ``seed`` whatever ``workers`` is.

    Raises:
        SessionFormatError: a bad configuration value (path = the CLI option).
        Cancelled: ``cancel()`` became true.
    """
    config.validate()
    t0 = time.perf_counter()
    records = run_games(_one_game, config.games, config.seed, (config,),
                        scheduler=config.scheduler, workers=config.workers,
                        progress=progress, cancel=cancel)
    return aggregate(config, records, time.perf_counter() - t0)


def add_simulate_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``python -m engines simulate spyfall``."""
    parser.add_argument("--players", type=int, default=5, help="seats (default 5)")
    parser.add_argument("--locations", type=int, default=10, help="locations (default 10)")
    parser.add_argument("--games", type=int, default=1000, help="games (default 1000)")
    parser.add_argument("--strategies", default="flat,dynamic,joker",
                        help="strategies drawn per seat per game (flat, dynamic, joker)")
    parser.add_argument("--seats", default=None,
                        help="fixed strategy per seat, comma-separated (overrides the draw)")
    parser.add_argument("--seed", type=int, default=1, help="tournament seed (default 1)")
    parser.add_argument("--beta", type=float, default=DEFAULT_BETA, help="Dirichlet concentration β")
    parser.add_argument("--lambda", dest="lam", type=float, default=DEFAULT_LAMBDA,
                        help="reveal weight λ in [0, 1)")
    parser.add_argument("--rounds", type=int, default=DEFAULT_ROUNDS, help="rounds (default 5)")
    parser.add_argument("--workers", type=int, default=None,
                        help="processes (default: all cores); results do not depend on it")


def _names(text: Optional[str]) -> Optional[tuple]:
    if text is None:
        return None
    return tuple(x.strip() for x in text.split(",") if x.strip())


def simulate_main(args) -> dict:
    """Run :func:`simulate` from parsed CLI options; returns the JSON-able figures."""
    config = SimConfig(players=args.players, locations=args.locations, games=args.games,
                       strategies=_names(args.strategies) or (), seats=_names(args.seats),
                       seed=args.seed, beta=args.beta, lam=args.lam, rounds=args.rounds,
                       workers=args.workers, scheduler=getattr(args, "scheduler", None))
    return simulate(config).to_json()


SimulationResult = SimResult
"""The contract's name for a simulator's result (:mod:`engines.core.contract`)."""
