"""Guess Who? simulator: strategies against each other.

Two players each draw a secret character uniformly at random from the board (independently)
and take turns asking yes/no questions answered truthfully. Under the official rules a player
who starts a turn with one candidate names it and wins, and naming a wrong character loses;
under the instant rule a player wins the moment their candidates come down to one. Each
matchup plays ``games`` games, the first player alternating, and reports win rates with Wilson
score intervals (E. B. Wilson, JASA 22, 1927).

Strategies (``STRATEGIES``):

* ``random`` — any question that splits my candidates, uniformly;
* ``greedy`` — the most information (the “Guess Who Solver” notebook's CMI: the most balanced split), ties at random;
* ``optimal`` — the question of the minimum-expected-questions DP (:mod:`.optimal`);
* ``race`` — Nica's race: the split that maximises my win probability given the opponent's
  count (visible on the table), mapped to the closest real question; may gamble on a name.
"""
from __future__ import annotations

import argparse
import random
from dataclasses import dataclass
from typing import Optional, Sequence, Union

from engines.core.errors import CancelFlag, Progress, SessionFormatError
from engines.core.executor import run_games
from engines.core.stats import wilson_interval
from engines.guesswho.board import Board, load_board
from engines.guesswho.inference import question_dp
from engines.guesswho.optimal import RULES, race_best_split

STRATEGIES = ("random", "greedy", "optimal", "race")
_NAME = -1


@dataclass(frozen=True)
class MatchResult:
    """One matchup of ``a`` against ``b`` over ``games`` games (first player alternating).

    Attributes:
        wins_a, wins_b: games won by each; first_player_wins: games won by whoever asked first.
        win_rate_a: probability estimate; interval_a: 95% Wilson interval of it.
        first_player_rate, first_player_interval: the same for the first player.
        mean_questions: mean number of questions asked per game (both players).
    """

    a: str
    b: str
    games: int
    wins_a: int
    wins_b: int
    first_player_wins: int
    mean_questions: float

    @property
    def win_rate_a(self) -> float:
        return self.wins_a / self.games if self.games else 0.0

    @property
    def interval_a(self) -> tuple:
        return wilson_interval(self.wins_a, self.games)

    @property
    def first_player_rate(self) -> float:
        return self.first_player_wins / self.games if self.games else 0.0

    @property
    def first_player_interval(self) -> tuple:
        return wilson_interval(self.first_player_wins, self.games)

    def to_json(self) -> dict:
        return {"a": self.a, "b": self.b, "games": self.games, "wins_a": self.wins_a,
                "wins_b": self.wins_b, "win_rate_a": round(self.win_rate_a, 6),
                "interval_a": [round(x, 6) for x in self.interval_a],
                "first_player_win_rate": round(self.first_player_rate, 6),
                "first_player_interval": [round(x, 6) for x in self.first_player_interval],
                "mean_questions": round(self.mean_questions, 4)}


@dataclass(frozen=True)
class SimulationResult:
    """All matchups of a simulation run, plus its settings."""

    board: str
    rules: str
    compound_questions: bool
    seed: int
    matches: tuple

    def to_json(self) -> dict:
        return {"game": "guesswho", "board": self.board, "rules": self.rules,
                "compound_questions": self.compound_questions, "seed": self.seed,
                "matches": [m.to_json() for m in self.matches]}


class _Player:
    def __init__(self, strategy: str, board: Board, masks: list, compound: bool, rules: str,
                 rng: random.Random):
        self.strategy = strategy
        self.masks = masks
        self.rules = rules
        self.rng = rng
        self.dp = question_dp(board, compound) if strategy == "optimal" else None

    def choose(self, mask: int, opp_count: int) -> int:
        n = mask.bit_count()
        splitting = [i for i, q in enumerate(self.masks) if 0 != (q & mask) != mask]
        if not splitting:
            return _NAME
        s = self.strategy
        if s == "random":
            return self.rng.choice(splitting)
        if s == "optimal":
            _, qi = self.dp.best(mask)
            return qi if qi >= 0 else _NAME
        if s == "greedy":
            target = n // 2
        else:  # race
            yes, _no = race_best_split(n, opp_count, self.rules)
            if yes == 0:
                return _NAME
            target = yes
        best_d, best = None, []
        for i in splitting:
            a = (self.masks[i] & mask).bit_count()
            d = abs(min(a, n - a) - target)
            if best_d is None or d < best_d:
                best_d, best = d, [i]
            elif d == best_d:
                best.append(i)
        return self.rng.choice(best)


def _play(p0: _Player, p1: _Player, n_chars: int, masks: list, rules: str,
          rng: random.Random) -> tuple[int, int]:
    """One game; returns (winner 0/1, questions asked)."""
    full = (1 << n_chars) - 1
    secrets = (rng.randrange(n_chars), rng.randrange(n_chars))
    # cand[i]: player i's candidates for the secret of player 1-i
    cand = [full, full]
    players = (p0, p1)
    asked = 0
    for turn in range(4 * n_chars + 10):
        me = turn % 2
        other = 1 - me
        mask = cand[me]
        target = secrets[other]
        if mask.bit_count() == 1 and rules == "official":
            return me, asked
        choice = players[me].choose(mask, cand[other].bit_count())
        if choice == _NAME:
            bits = [j for j in range(n_chars) if mask >> j & 1]
            return (me if rng.choice(bits) == target else other), asked
        q = masks[choice]
        asked += 1
        cand[me] = mask & q if (q >> target) & 1 else mask & ~q
        if rules == "instant" and cand[me].bit_count() == 1:
            return me, asked
    raise RuntimeError("game did not end")  # pragma: no cover - every question shrinks a set


@dataclass(frozen=True)
class SimConfig:
    """The options of one strategy tournament (:func:`simulate`).

    Attributes:
        board: a bundled board name, a path, or a Board.
        strategies: names from :data:`STRATEGIES`; every unordered pair plays (a single
            strategy plays itself).
        games: games per matchup (>= 1).
        rules: ``"official"`` or ``"instant"``; compound: allow "A or B?" questions.
        seed: random seed (results are reproducible).
    """

    board: Union[str, Board] = "classic"
    strategies: Sequence[str] = ("greedy", "race")
    games: int = 1000
    rules: str = "official"
    compound: bool = False
    seed: int = 0
    scheduler: Optional[str] = None
    """Where the games run (:mod:`engines.core.executor`): None = in this process,
    ``processes:N``, ``local:N`` or ``tcp://HOST:8786``; the figures do not depend on it."""


_PREPARED: dict = {}


def _one_game(index: int, seed_seq, spec: tuple) -> tuple:
    """Game ``index`` of a run (a task of :func:`engines.core.executor.run_games`):
    ``(winner 0/1 = first/second to ask, questions asked)``."""
    b, pairs, games, rules, compound = spec
    key = (id(b), compound)
    if key not in _PREPARED:       # once per board object (per chunk of games on a worker)
        if len(_PREPARED) > 8:
            _PREPARED.clear()
        _PREPARED[key] = (b, [b.mask(q) for q in b.questions(compound)])
    masks = _PREPARED[key][1]
    a, bb = pairs[index // games]
    rng = random.Random(int.from_bytes(seed_seq.generate_state(4).tobytes(), "little"))
    pa = _Player(a, b, masks, compound, rules, rng)
    pb = _Player(bb, b, masks, compound, rules, rng)
    if (index % games) % 2 == 0:
        return _play(pa, pb, b.size, masks, rules, rng)
    return _play(pb, pa, b.size, masks, rules, rng)


def simulate(config: SimConfig = SimConfig(), *, progress: Progress = None,
             cancel: CancelFlag = None) -> SimulationResult:
    """Play every pair of ``config.strategies`` for ``config.games`` games each, first player
    alternating, with random secrets.

    Args:
        config: :class:`SimConfig`.
        progress: called as ``progress(done, total)`` after each game.
        cancel: zero-argument callable; raises Cancelled when it returns True.
    Returns:
        :class:`SimulationResult` (win rates with 95% Wilson intervals).
    Raises:
        SessionFormatError: unknown strategy, rules or board; games < 1.
    """
    board, strategies, games = config.board, tuple(config.strategies), config.games
    rules, compound, seed = config.rules, config.compound, config.seed
    for s in strategies:
        if s not in STRATEGIES:
            raise SessionFormatError("--strategies", f"unknown strategy {s!r}; expected one of "
                                                     f"{', '.join(STRATEGIES)}")
    if not strategies:
        raise SessionFormatError("--strategies", "name at least one strategy")
    if rules not in RULES:
        raise SessionFormatError("--rules", f"unknown rules {rules!r}; expected official or "
                                            f"instant")
    if games < 1:
        raise SessionFormatError("--games", "must be at least 1")
    b = board if isinstance(board, Board) else load_board(board)
    strategies = list(strategies)
    pairs = [(strategies[i], strategies[j]) for i in range(len(strategies))
             for j in range(i + 1, len(strategies))] or [(strategies[0], strategies[0])]
    # game k is game k % games of pair k // games, seeded by the executor (SeedSequence spawn)
    results = run_games(_one_game, games * len(pairs), seed, ((b, tuple(pairs), games, rules,
                                                               compound),),
                        scheduler=config.scheduler, workers=1, progress=progress, cancel=cancel)
    out = []
    for pi, (a, bb) in enumerate(pairs):
        part = results[pi * games:(pi + 1) * games]
        wa = wb = first = asked = 0
        for g, (winner, k) in enumerate(part):
            a_first = g % 2 == 0
            asked += k
            first += winner == 0
            a_won = (winner == 0) == a_first
            wa += a_won
            wb += not a_won
        out.append(MatchResult(a, bb, games, wa, wb, first, asked / games))
    name = b.key or b.name
    return SimulationResult(name, rules, compound, seed, tuple(out))


def add_simulate_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``python -m engines simulate guesswho``."""
    parser.add_argument("--board", default="classic",
                        help="bundled board (classic, demo) or a CSV/JSON board file")
    parser.add_argument("--strategies", default="greedy,race",
                        help=f"comma-separated, from {', '.join(STRATEGIES)} (default greedy,race)")
    parser.add_argument("--games", type=int, default=1000, help="games per matchup")
    parser.add_argument("--rules", default="official", choices=RULES)
    parser.add_argument("--compound", action="store_true", help="allow 'A or B?' questions")
    parser.add_argument("--seed", type=int, default=0)


def simulate_main(args: argparse.Namespace) -> dict:
    """Run :func:`simulate` from parsed CLI arguments; returns the JSON-able result."""
    strategies = [s.strip() for s in str(args.strategies).split(",") if s.strip()]
    return simulate(SimConfig(args.board, tuple(strategies), args.games, rules=args.rules,
                              compound=args.compound, seed=args.seed,
                              scheduler=getattr(args, "scheduler", None))).to_json()
