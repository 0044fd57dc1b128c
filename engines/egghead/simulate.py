"""Egghead simulator: rounds needed to solve, with and without behavioural analysis.

Reproduces the experiment of Zorn 2024, section 5: external moderator, a question deck, v
values, n players with k cards, a game of ``rounds`` rounds without a score cap. Every round a
question is drawn (the deck is shuffled and drawn without replacement, reshuffled when empty)
and answered about the real world; then reactions rounds are announced until nothing changes
(Algorithm 1, lines 4–11). A player solves as soon as their valids set has one element (section
3.1); they are then dealt a new stack (eq. (5)) and their round counter restarts. The counter
values at solving are the observations of X = "rounds needed to solve".

Players 0..a-1 use behavioural analysis (their valids are rows of the master table); the
others react from the answers alone (appendix A.2, Remark A.5), modelled by a second,
answers-only table that the analysing players consult to predict their reactions.

Figures per mode: mean, variance (unbiased), the empirical CDF of X, the CDF of the rounds
needed for ``target_points`` solves by convolution of X's empirical distribution (seed fig.
1b), and win probabilities (first to ``target_points``; ties count for all, seed fig. 3).
"""
from __future__ import annotations

import argparse
import time
from dataclasses import dataclass
from typing import Optional, Sequence

import numpy as np

from engines.core.errors import CancelFlag, Progress, SessionFormatError, check_cancel
from engines.core.executor import game_progress, run_games, worker_cancelled
from engines.egghead.questions import Question, bound_deck, stack_space
from engines.egghead.table import BitTable, table_bytes

SIM_MAX_TABLE_BYTES = 256 << 20
"""Largest master table a simulation accepts (every game rebuilds its tables many times:
5 players × 56 stacks, 79 MB, is accepted; 6 players, 4.4 GB, is not)."""



@dataclass(frozen=True)
class ModeStats:
    """Observations of X (rounds needed to solve) for one mode (with or without BA).

    Attributes:
        n: number of observations (solves); mean, variance: of X (rounds; variance with ddof=1).
        ecdf: tuple of (x, F(x)) for x = 1..max observed (F = empirical P(X <= x)).
        cdf_target: tuple of (x, P(rounds for target points <= x)), by convolution.
        observations: the raw counts, in order of occurrence.
    """

    n: int
    mean: float
    variance: float
    ecdf: tuple
    cdf_target: tuple
    observations: tuple

    def to_json(self, raw: bool = False) -> dict:
        d = {"n": self.n, "mean": self.mean, "variance": self.variance,
             "ecdf": [list(p) for p in self.ecdf], "cdf_target": [list(p) for p in self.cdf_target]}
        if raw:
            d["observations"] = list(self.observations)
        return d


@dataclass(frozen=True)
class ConfigResult:
    """One simulated game with ``analysing`` players using BA (players 0..analysing-1).

    Attributes:
        ba, no_ba: :class:`ModeStats` or None when no player of that mode exists / solved.
        win_probabilities: per player, P(first to ``target_points``), ties counting for all
            (from the two modes' target CDFs, players independent; seed fig. 3).
        solves: total solves; seconds: wall time of this game.
    """

    analysing: int
    ba: Optional[ModeStats]
    no_ba: Optional[ModeStats]
    win_probabilities: tuple
    solves: int
    seconds: float

    def to_json(self, raw: bool = False) -> dict:
        return {"analysing": self.analysing,
                "ba": None if self.ba is None else self.ba.to_json(raw),
                "no_ba": None if self.no_ba is None else self.no_ba.to_json(raw),
                "win_probabilities": list(self.win_probabilities),
                "solves": self.solves, "seconds": self.seconds}


@dataclass(frozen=True)
class SimulationResult:
    """All configurations of one :func:`simulate` call, plus the pooled modes.

    Attributes:
        players, values, cards_per_player, rounds, questions (ids used), seed, target_points.
        configs: tuple of :class:`ConfigResult`, one per entry of ``analysing``.
        pooled_ba, pooled_no_ba: :class:`ModeStats` over all configs (None if empty).
        seconds: total wall time.
    """

    players: int
    values: int
    cards_per_player: int
    rounds: int
    questions: tuple
    seed: int
    target_points: int
    configs: tuple
    pooled_ba: Optional[ModeStats]
    pooled_no_ba: Optional[ModeStats]
    seconds: float

    def to_json(self, raw: bool = False) -> dict:
        return {"game": "egghead", "players": self.players, "values": self.values,
                "cards_per_player": self.cards_per_player, "rounds": self.rounds,
                "questions": list(self.questions), "seed": self.seed,
                "target_points": self.target_points,
                "configs": [c.to_json(raw) for c in self.configs],
                "pooled_ba": None if self.pooled_ba is None else self.pooled_ba.to_json(raw),
                "pooled_no_ba": None if self.pooled_no_ba is None else self.pooled_no_ba.to_json(raw),
                "seconds": self.seconds,
                "seed_table": {"no_ba": {"mean": 9.78, "variance": 29.3},
                               "ba": {"mean": 6.16, "variance": 14.0},
                               "note": "Zorn 2024, section 5, its own 23-question deck"}}


# ------------------------------------------------------------------- statistics

def _pmf(obs: Sequence[int]) -> np.ndarray:
    c = np.bincount(np.asarray(obs, dtype=np.int64))
    return c / c.sum()


def target_pmf(obs: Sequence[int], target: int) -> np.ndarray:
    """pmf (index = rounds) of the sum of ``target`` independent draws of X (convolution)."""
    p = _pmf(obs)
    out = np.array([1.0])
    for _ in range(target):
        out = np.convolve(out, p)
    return out


def mode_stats(obs: Sequence[int], target: int) -> Optional[ModeStats]:
    """:class:`ModeStats` of the observations (None when there are none)."""
    if len(obs) == 0:
        return None
    a = np.asarray(obs, dtype=float)
    p = _pmf(obs)
    F = np.cumsum(p)
    ecdf = tuple((int(x), float(min(F[x], 1.0))) for x in range(1, len(p)))
    tp = target_pmf(obs, target)
    Ft = np.cumsum(tp)
    cdf_t = tuple((int(x), float(min(Ft[x], 1.0))) for x in range(target, len(tp)))
    var = float(a.var(ddof=1)) if len(a) > 1 else 0.0
    return ModeStats(len(obs), float(a.mean()), var, ecdf, cdf_t, tuple(int(x) for x in obs))


def win_probabilities(pmfs: Sequence[np.ndarray]) -> tuple:
    """P(player i is first to reach the target), ties counting as a win for all tied.

    Args:
        pmfs: per player, the pmf of the rounds needed to reach the target (index = rounds).
    Returns:
        tuple of probabilities (their sum exceeds 1 by the tie mass; seed fig. 3).
    """
    L = max(len(p) for p in pmfs)
    P = np.zeros((len(pmfs), L))
    for i, p in enumerate(pmfs):
        P[i, :len(p)] = p
    surv = 1.0 - np.concatenate([np.zeros((len(pmfs), 1)), np.cumsum(P, 1)[:, :-1]], 1)  # P(T>=t)
    surv = np.clip(surv, 0.0, 1.0)
    out = []
    for i in range(len(pmfs)):
        others = np.prod(np.delete(surv, i, axis=0), axis=0)
        out.append(float(np.clip(np.dot(P[i], others), 0.0, 1.0)))
    return tuple(out)


# ------------------------------------------------------------------- one game

def _deal(rng, space, cards) -> int:
    return space.index(rng.integers(1, space.values + 1, size=cards))


def play_game(players: int, values: int, cards: int, rounds: int, analysing: int,
              questions: Sequence[Question], rng: np.random.Generator,
              cancel: CancelFlag = None, progress: Progress = None,
              progress_offset: int = 0, progress_total: int = 0,
              check_truth: bool = True) -> tuple[list, list, int]:
    """Play one game of ``rounds`` rounds (Algorithm 1 without the score cap).

    Returns:
        (observations of players using BA, observations of the others, number of solves).
    Raises:
        Cancelled when ``cancel()`` becomes true; RuntimeError if a player's single valid stack
        is not their real stack (cannot happen with a correct engine; checked when
        ``check_truth``).
    """
    space = stack_space(values, cards)
    S, n = space.size, players
    ba = [i < analysing for i in range(n)]
    M = BitTable(n, S) if analysing > 0 else None
    A = BitTable(n, S) if 0 < analysing < n else None
    filt = [np.ones(S, dtype=bool) for _ in range(n)] if analysing == 0 else None
    real = [_deal(rng, space, cards) for _ in range(n)]
    counter = [0] * n
    obs_ba, obs_no = [], []
    deck: list = []
    solves = 0
    for r in range(rounds):
        check_cancel(cancel)
        if not deck:
            deck = [questions[i] for i in rng.permutation(len(questions))]
        q = deck.pop()
        ans = q.answer(real)
        seen = [True] * n
        if M is not None:
            M.filter_answer(q, ans, seen, cancel)
        if A is not None:
            A.filter_answer(q, ans, seen, cancel)
        if filt is not None:
            for j in range(n):
                partial = q.combine_all([real[i] for i in range(n) if i != j])
                filt[j] &= q.ok_given_partial(ans, True)[partial]
        for j in range(n):
            counter[j] += 1
        while True:
            rows = []
            for j in range(n):
                if filt is not None:
                    rows.append(filt[j])
                else:
                    rows.append((M if ba[j] or A is None else A).row(j, real))
            reacts = [int(row.sum()) == 1 for row in rows]
            changed = False
            if M is not None:
                inds = [(M if ba[j] or A is None else A).solved_indicator(j, cancel)
                        for j in range(n)]
                before = M.count(cancel)
                for j in range(n):
                    M.keep_reaction(j, inds[j], reacts[j], cancel, same_classes=True)
                changed = M.count(cancel) != before
            solvers = [j for j in range(n) if reacts[j]]
            for j in solvers:
                if check_truth and int(np.flatnonzero(rows[j])[0]) != real[j]:
                    raise RuntimeError(f"player {j} solved with a wrong stack (engine bug)")
                (obs_ba if ba[j] else obs_no).append(counter[j])
                solves += 1
                if M is not None:
                    M.reset_player(j, real[j], cancel)
                if A is not None:
                    A.reset_player(j, real[j], cancel)
                if filt is not None:
                    filt[j][:] = True
                real[j] = _deal(rng, space, cards)
                counter[j] = 0
            if not solvers and not changed:
                break
        if progress is not None and (r % 10 == 9 or r == rounds - 1):
            progress(progress_offset + r + 1, progress_total)
    return obs_ba, obs_no, solves


def _analysing_game(index: int, seed_seq, job: tuple, analysing: tuple) -> tuple:
    """Game ``index`` (``analysing[index]`` players use BA), a task of
    :func:`engines.core.executor.run_games`: ``(a, BA solves, others' solves, solves, s)``."""
    players, values, cards, rounds, qids = job
    deck = bound_deck(values, cards, players)
    a = analysing[index]
    t0 = time.perf_counter()
    obs_ba, obs_no, solves = play_game(players, values, cards, rounds, a, [deck[i] for i in qids],
                                       np.random.default_rng(seed_seq), worker_cancelled,
                                       lambda done, total: game_progress(done / total), 0, rounds)
    return a, obs_ba, obs_no, solves, time.perf_counter() - t0


def _config_result(players, a, obs_ba, obs_no, solves, secs, target) -> ConfigResult:
    ba, no = mode_stats(obs_ba, target), mode_stats(obs_no, target)
    pm = []
    for i in range(players):
        st = obs_ba if i < a else obs_no
        pm.append(target_pmf(st, target) if st else None)
    if all(p is not None for p in pm):
        wins = win_probabilities(pm)
    else:
        wins = tuple(0.0 for _ in range(players))
    return ConfigResult(a, ba, no, wins, solves, secs)


@dataclass(frozen=True)
class SimConfig:
    """The options of one simulation run (:func:`simulate`).

    Attributes:
        players: n (3–6); values: v; cards_per_player: k.
        rounds: rounds (questions) per game, no score cap (seed: 1000).
        analysing: numbers a of players using BA; one game per entry (seed fig. 2 uses 0..4;
            its table compares BA and no BA with a = 1).
        questions: deck ids to draw from (default: the whole bundled deck).
        seed: random seed (reproducible); target_points: points for the target CDF (10).
        workers: processes (1 = in this process; >1 runs the games, one per entry of
            ``analysing``, in parallel worker processes).
        scheduler: where the games run (:mod:`engines.core.executor`): None = this computer
            (``workers``), ``processes:N``, ``local:N`` or ``tcp://HOST:8786``. The result does
            not depend on where: game c draws from ``SeedSequence(seed).spawn(...)[c]``.
    """

    players: int = 4
    values: int = 6
    cards_per_player: int = 3
    rounds: int = 1000
    analysing: Sequence[int] = (1,)
    questions: Optional[Sequence[str]] = None
    seed: int = 0
    target_points: int = 10
    workers: int = 1
    scheduler: Optional[str] = None


def simulate(config: SimConfig = SimConfig(), *, progress: Progress = None,
             cancel: CancelFlag = None) -> SimulationResult:
    """Run Zorn's (2024) simulation (section 5) for each number of analysing players.

    Args:
        config: :class:`SimConfig`.
        progress: optional callable(done, total) (rounds done over all games).
        cancel: optional zero-argument callable; raises Cancelled when it returns True.
    Returns:
        :class:`SimulationResult`.
    Raises:
        SessionFormatError: bad arguments (unknown question, too many worlds, a out of range).
        Cancelled: cancelled.
    """
    players, values, cards_per_player = config.players, config.values, config.cards_per_player
    rounds, analysing, questions = config.rounds, config.analysing, config.questions
    seed, target_points, workers = config.seed, config.target_points, config.workers
    if not 2 <= players <= 6:
        raise SessionFormatError("--players", "must be 2..6")
    if not 2 <= values <= 9 or not 1 <= cards_per_player <= 6:
        raise SessionFormatError("--values", "values must be 2..9 and cards 1..6")
    if rounds < 1:
        raise SessionFormatError("--rounds", "must be at least 1")
    S = stack_space(values, cards_per_player).size
    if table_bytes(players, S) > SIM_MAX_TABLE_BYTES:
        raise SessionFormatError("--players", f"{S}^{players} worlds are too many to simulate")
    analysing = tuple(int(a) for a in analysing)
    for a in analysing:
        if not 0 <= a <= players:
            raise SessionFormatError("--analysing", f"{a} is not between 0 and {players}")
    deck = bound_deck(values, cards_per_player, players)
    qids = tuple(deck) if questions is None else tuple(questions)
    for q in qids:
        if q not in deck:
            raise SessionFormatError("--questions", f"unknown question {q!r}")
    if not qids:
        raise SessionFormatError("--questions", "no questions")
    seqs = np.random.SeedSequence(seed).spawn(len(analysing))
    total = rounds * len(analysing)
    t0 = time.perf_counter()
    raw = []
    scheduler = getattr(config, "scheduler", None)
    if not scheduler and (workers <= 1 or len(analysing) == 1):   # here, progress per round
        qs = [deck[i] for i in qids]
        for c, a in enumerate(analysing):
            t1 = time.perf_counter()
            ob, on, sv = play_game(players, values, cards_per_player, rounds, a, qs,
                                   np.random.default_rng(seqs[c]), cancel, progress,
                                   c * rounds, total)
            raw.append((a, ob, on, sv, time.perf_counter() - t1))
    else:
        # one task per entry of ``analysing``, on this computer's processes or a Dask cluster;
        # game c draws from game_seed(seed, c) = SeedSequence(seed).spawn(...)[c], as above
        jobs = (players, values, cards_per_player, rounds, qids)
        done = (lambda d, _t: progress(int(d * rounds), total)) if progress is not None else None
        raw = run_games(_analysing_game, len(analysing), seed, (jobs, tuple(analysing)),
                        scheduler=scheduler, workers=workers, chunk_size=1, progress=done,
                        cancel=cancel)
    configs = tuple(_config_result(players, a, ob, on, sv, secs, target_points)
                    for a, ob, on, sv, secs in raw)
    all_ba = [x for _, ob, _, _, _ in raw for x in ob]
    all_no = [x for _, _, on, _, _ in raw for x in on]
    return SimulationResult(players, values, cards_per_player, rounds, qids, seed, target_points,
                            configs, mode_stats(all_ba, target_points),
                            mode_stats(all_no, target_points), time.perf_counter() - t0)


def add_simulate_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``python -m engines simulate egghead``."""
    parser.add_argument("--players", type=int, default=4, help="players (default 4)")
    parser.add_argument("--values", type=int, default=6, help="card values 1..V (default 6)")
    parser.add_argument("--cards", type=int, default=3, help="cards per player (default 3)")
    parser.add_argument("--rounds", type=int, default=1000, help="rounds per game (default 1000)")
    parser.add_argument("--analysing", type=str, default="1",
                        help="comma-separated numbers of players using behavioural analysis, "
                             "one game each (default 1; Zorn's (2024) figure 2: 0,1,2,3,4)")
    parser.add_argument("--questions", type=str, default=None,
                        help="comma-separated question ids (default: the whole deck)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--target", type=int, default=10, help="points to win (default 10)")
    parser.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--raw", action="store_true", help="include the raw observations")


def simulate_main(args) -> dict:
    """Run :func:`simulate` from parsed CLI arguments; returns the JSON-able result."""
    try:
        analysing = [int(x) for x in str(args.analysing).split(",") if x.strip()]
    except ValueError:
        raise SessionFormatError("--analysing", f"expected numbers like 0,1,2, got "
                                                f"{args.analysing!r}") from None
    qs = None if not args.questions else [x.strip() for x in args.questions.split(",") if x.strip()]
    res = simulate(SimConfig(players=args.players, values=args.values,
                             cards_per_player=args.cards, rounds=args.rounds,
                             analysing=tuple(analysing), questions=qs, seed=args.seed,
                             target_points=args.target, workers=args.workers,
                             scheduler=getattr(args, "scheduler", None)))
    return res.to_json(raw=args.raw)
