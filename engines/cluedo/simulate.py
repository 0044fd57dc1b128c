"""A modest Cluedo simulator: random deals, every player suggests in turn (no board: any room),
the first player after the suggester holding a suggested card refutes with a uniformly chosen
matching card. I (seat 0) follow a strategy — ``random`` suggestions or ``greedy`` (the best
expected information gain, :func:`engines.cluedo.recommend.recommend`) — and log everything I
can see; the figure is the number of my turns until my exact posterior makes the envelope
certain.
"""
from __future__ import annotations

import statistics
import time
from dataclasses import dataclass
from typing import Optional

import numpy as np

from engines.cluedo.inference import infer
from engines.cluedo.model import HandEvent, Setup, SuggestionEvent, load_editions
from engines.cluedo.recommend import CERTAIN, recommend
from engines.core.errors import CancelFlag, Progress, SessionFormatError, check_cancel
from engines.core.executor import run_games, worker_cancelled

STRATEGIES = ("random", "greedy")


def random_deal(setup: Setup, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random deal: int array (n_cards,) of owner indices (``len(players)`` =
    envelope); one card per category in the envelope, the rest dealt with the hand sizes."""
    k = len(setup.players)
    owner = np.full(len(setup.cards), -1)
    start = 0
    for _, deck in setup.categories:
        owner[start + rng.integers(len(deck))] = k
        start += len(deck)
    rest = rng.permutation(np.flatnonzero(owner < 0))
    pos = 0
    for p, h in enumerate(setup.hand_sizes):
        owner[rest[pos:pos + h]] = p
        pos += h
    return owner


def play_suggestion(setup: Setup, deal: np.ndarray, suggester: int, triple: tuple,
                    rng: np.random.Generator, reveal: bool) -> SuggestionEvent:
    """Resolve a suggestion on a known deal; ``reveal``: log the shown card (I suggested)."""
    k = len(setup.players)
    idx = [setup.cards.index(c) for c in triple]
    passed = []
    for j in range(1, k):
        p = (suggester + j) % k
        have = [c for c, i in zip(triple, idx) if deal[i] == p]
        if have:
            shown = have[rng.integers(len(have))] if reveal else None
            return SuggestionEvent(suggester=setup.players[suggester], cards=tuple(triple), passed=tuple(passed),
                                   refuter=setup.players[p], shown=shown)
        passed.append(setup.players[p])
    return SuggestionEvent(suggester=setup.players[suggester], cards=tuple(triple), passed=tuple(passed), refuter=None,
                           shown=None)


@dataclass(frozen=True)
class SimConfig:
    """The options of one simulation run (:func:`simulate`).

    Attributes:
        players: number of players (I am seat 0); edition: a key of ``editions.json``.
        strategy: ``"random"`` or ``"greedy"``; games: games to play (>= 1).
        seed: random seed (None: not reproducible); max_rounds: rounds before a game counts
            as unsolved; samples: deals sampled per greedy recommendation.
    """

    players: int = 4
    edition: str = "cluedo-uk"
    strategy: str = "greedy"
    games: int = 3
    seed: Optional[int] = 0
    max_rounds: int = 40
    samples: int = 1000
    scheduler: Optional[str] = None
    """Where the games run (:mod:`engines.core.executor`): None = in this process,
    ``processes:N``, ``local:N`` or ``tcp://HOST:8786``; the figures do not depend on it."""


@dataclass(frozen=True)
class SimulationResult:
    """Figures of one simulation run.

    Attributes:
        config: the :class:`SimConfig`.
        turns_to_certainty: my turns per game until the envelope was certain (None: not
            solved within ``max_rounds``).
        mean, median: of the solved games' turns (None when none was solved).
        seconds: wall time of the run.
    """

    config: SimConfig
    turns_to_certainty: tuple
    mean: Optional[float]
    median: Optional[float]
    seconds: float

    def to_json(self) -> dict:
        c = self.config
        return {"strategy": c.strategy, "edition": c.edition, "players": c.players,
                "games": c.games, "turns_to_certainty": list(self.turns_to_certainty),
                "mean": self.mean, "median": self.median, "seconds": self.seconds}


def _one_game(index: int, seed_seq, setup: Setup, strategy: str, max_rounds: int,
              samples: int) -> Optional[int]:
    """Game ``index`` (a task of :func:`engines.core.executor.run_games`): my turns until my
    posterior makes the envelope certain (None: not within ``max_rounds``)."""
    rng = np.random.default_rng(seed_seq)
    n_players = len(setup.players)
    (_, suspects), (_, weapons), (_, rooms) = setup.categories
    deal = random_deal(setup, rng)
    events = [HandEvent(player="Me", cards=tuple(c for c, o in zip(setup.cards, deal) if o == 0))]
    my_turns = 0
    for _rnd in range(max_rounds):
        check_cancel(worker_cancelled)
        for p in range(n_players):
            if p == 0:
                my_turns += 1
                if strategy == "greedy":
                    # estimates: reproducible, fast; the opponents' figures and the accusation
                    # advice (a wall-clock budget of their own) do not enter the ranking
                    rec = recommend(setup, events, samples=samples, seed=int(rng.integers(1 << 30)),
                                    exact_seconds=0, opponents_seconds=0)
                    if rec.suggestions:
                        best = rec.suggestions[0][3]
                        ties = [s for s in rec.suggestions if s[3] >= best - 1e-12]
                        s, w, r, _ = ties[rng.integers(len(ties))]
                        triple = (s, w, r)
                    else:
                        triple = (suspects[0], weapons[0], rooms[0])
                else:
                    triple = (suspects[rng.integers(len(suspects))], weapons[rng.integers(len(weapons))],
                              rooms[rng.integers(len(rooms))])
            else:
                triple = (suspects[rng.integers(len(suspects))], weapons[rng.integers(len(weapons))],
                          rooms[rng.integers(len(rooms))])
            events.append(play_suggestion(setup, deal, p, triple, rng, reveal=(p == 0)))
            if p == 0:
                post = infer(setup, events)
                if np.all([max(v.values()) >= CERTAIN for v in post.envelope_marginals().values()]):
                    return my_turns
    return None


def simulate(config: SimConfig = SimConfig(), *, progress: Progress = None,
             cancel: CancelFlag = None) -> SimulationResult:
    """Play ``config.games`` simulated games; I am seat 0 and use ``config.strategy``.

    Args:
        config: :class:`SimConfig`.
        progress: optional ``progress(done, total)`` (games), called after every game.
        cancel: optional zero-argument callable; the run stops with ``Cancelled`` when True.
    Returns:
        :class:`SimulationResult`.
    Raises:
        SessionFormatError: unknown edition/strategy or bad player count.
    """
    n_players, edition, strategy = config.players, config.edition, config.strategy
    games, seed, max_rounds, samples = config.games, config.seed, config.max_rounds, config.samples
    if strategy not in STRATEGIES:
        raise SessionFormatError("strategy", f"unknown strategy {strategy!r}; expected one of {STRATEGIES}")
    names = [f"P{i + 1}" for i in range(n_players)]
    names[0] = "Me"
    setup = Setup.from_json({"edition": edition, "players": names, "me": "Me"}, "$.simulate")
    t0 = time.perf_counter()
    if seed is None:    # not reproducible: fresh entropy, still one independent seed per game
        seed = int(np.random.SeedSequence().entropy)
    turns = run_games(_one_game, games, seed, (setup, strategy, max_rounds, samples),
                      scheduler=config.scheduler, workers=1, progress=progress, cancel=cancel)
    done = [t for t in turns if t is not None]
    return SimulationResult(config, tuple(turns),
                            statistics.fmean(done) if done else None,
                            statistics.median(done) if done else None,
                            round(time.perf_counter() - t0, 3))


def add_simulate_arguments(parser) -> None:
    """Options of ``python -m engines simulate cluedo``."""
    parser.add_argument("--players", type=int, default=4, help="number of players (3-6; default 4)")
    parser.add_argument("--edition", default="cluedo-uk", choices=list(load_editions()))
    parser.add_argument("--games", type=int, default=3, help="games per strategy (default 3)")
    parser.add_argument("--strategy", choices=STRATEGIES + ("both",), default="both")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--samples", type=int, default=1000, help="deals sampled per recommendation")


def simulate_main(args) -> dict:
    """Run the simulator from parsed arguments; a JSON-able comparison of the strategies."""
    strategies = STRATEGIES if args.strategy == "both" else (args.strategy,)
    return {"game": "cluedo",
            "results": [simulate(SimConfig(args.players, edition=args.edition, strategy=s,
                                           games=args.games, seed=args.seed,
                                           samples=args.samples,
                                           scheduler=getattr(args, "scheduler", None))).to_json()
                        for s in strategies]}
