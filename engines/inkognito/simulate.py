"""Inkognito simulator: how many questions until the deal is known, by questioning policy and
by how the opponents answer (``python -m engines simulate inkognito``).

A game: identities and builds are dealt at random (me included); I ask one question per step,
chosen by a *policy*; the asked opponent answers by drawing a set of statements valid for
their true (identity, build) (:func:`engines.inkognito.likelihood.answer_forms`, no mission
card), uniformly (Höhle's indifferent opponent) or with the deception parameter θ (the
true statement is the lone one with probability θ), never repeating a set shown to me. After
every answer the engine's posterior is computed with the chosen model (uniform or deception).
The game is *solved* when the posterior probability of the true deal reaches ``target``.

Policies: ``"recommend"`` asks :func:`engines.inkognito.recommend`'s best question (expected
information gain, Höhle's Inkognito post's sequential update with expected-information-gain
ranking); ``"random"`` asks a
uniformly random (opponent, player|ambassador, identity|build).

A question the true cell can no longer answer (all its valid sets shown already) is wasted:
it is counted and nothing is logged.
"""
from __future__ import annotations

import argparse
import math
import random
import statistics
from dataclasses import dataclass
from typing import Optional

import numpy as np

from engines.core.errors import CancelFlag, Progress, SessionFormatError
from engines.core.executor import run_games
from engines.inkognito.inference import _recommend, infer
from engines.inkognito.likelihood import form_table
from engines.inkognito.model import DEFAULT_DECEPTION_PRIOR, KINDS, QUESTIONS, Answer, Deception, default_setup

POLICIES = ("recommend", "random")
#: Which questions the asker may use: any, or player questions only (the ambassador is not
#: always within reach on the board; the board is not simulated).
QUESTION_SETS = ("any", "player")


@dataclass(frozen=True)
class SimulationResult:
    """Figures of :func:`simulate`.

    Attributes:
        policy, question_set (``"any"``/``"player"``), model (``"uniform"``/``"deception"``,
        the engine's), theta (opponents' true θ,
        None = indifferent), games, max_questions, target (probability).
        solved: fraction of games solved within ``max_questions`` (probability).
        questions: questions asked in each solved game, tuple (length = solved games).
        truth_probability: mean posterior probability of the true deal after k questions,
            tuple of length ``max_questions + 1`` (k = 0..max; a solved game keeps its last
            value).
        log_loss_bits: mean of -log2 P(true deal) after ``max_questions`` (or at solving).
    """

    policy: str
    question_set: str
    model: str
    theta: Optional[float]
    games: int
    max_questions: int
    target: float
    solved: float
    questions: tuple
    truth_probability: tuple
    log_loss_bits: float

    def to_json(self) -> dict:
        q = self.questions
        return {"game": "inkognito", "policy": self.policy, "questions": self.question_set,
                "model": self.model,
                "theta": self.theta, "games": self.games, "max_questions": self.max_questions,
                "target": self.target, "solved": round(self.solved, 6),
                "questions_median": statistics.median(q) if q else None,
                "questions_mean": round(statistics.fmean(q), 4) if q else None,
                "questions_worst": max(q) if q else None,
                "log_loss_bits": round(self.log_loss_bits, 6),
                "truth_probability": [round(x, 6) for x in self.truth_probability]}


def _answer(rng: random.Random, setup, opp: int, cell: int, question: str, asked: str,
            theta: Optional[float], shown: list) -> Optional[Answer]:
    t = form_table(question, asked, False)
    L = t.likelihood_excluding(None if theta is None else np.array([theta]), shown)
    p = L[:, cell, 0]
    if p.sum() <= 0:
        return None
    a = rng.choices(range(len(t.answers)), weights=p)[0]
    im, bm = t.answers[a]
    shown.append((im, bm))
    return Answer(opponent=setup.opponents[opp], question=question, asked=asked,
                  identities=tuple(setup.identities[j] for j in range(4) if im >> j & 1),
                  builds=tuple(setup.builds[j] for j in range(4) if bm >> j & 1))


def play(rng: random.Random, policy: str = "recommend", *, theta: Optional[float] = None,
         deception: bool = False, prior: tuple = DEFAULT_DECEPTION_PRIOR,
         max_questions: int = 30, target: float = 0.95, questions: str = "any") -> tuple:
    """One simulated game; returns ``(questions or None, truth probabilities per step)``.

    The truth probabilities are P(true deal | answers) after 0..k questions (floats in (0, 1];
    the truth is never ruled out since every answer drawn is valid for it).
    """
    names = default_setup()
    ids = rng.sample(range(4), 4)
    bs = rng.sample(range(4), 4)
    setup = _with_me(names, ids[0], bs[0], deception, prior)
    cells = [4 * ids[o + 1] + bs[o + 1] for o in range(3)]
    truth = tuple(ids[1:]), tuple(bs[1:])
    shown = [[] for _ in range(3)]
    events: list = []
    probs = []
    solved = None
    for k in range(max_questions + 1):
        if k == 0 or policy == "random":
            post = infer(setup, events)
            rec = None
        else:
            rec, post = _recommend(setup, events, "joint", None)
        p = _truth_probability(setup, post, truth)
        probs.append(p)
        if p >= target:
            solved = k
            break
        if k == max_questions:
            break
        kinds = QUESTIONS if questions == "any" else ("player",)
        if policy == "random":
            o, q, a = rng.randrange(3), rng.choice(kinds), rng.choice(KINDS)
        else:
            if rec is None:
                rec = _recommend(setup, events, "joint", None)[0]
            best = next(r for r in rec if r.question in kinds)
            o, q, a = setup.opponents.index(best.opponent), best.question, best.asked
        ev = _answer(rng, setup, o, cells[o], q, a, theta, shown[o])
        if ev is not None:
            events.append(ev)
    return solved, probs


def _with_me(base, my_identity: int, my_build: int, deception: bool, prior: tuple):
    """The default setup with my cards and the engine's model."""
    import dataclasses
    return dataclasses.replace(base, me_identity=base.identities[my_identity],
                               me_build=base.builds[my_build],
                               deception=Deception(enabled=deception, prior=tuple(prior)))


def _truth_probability(setup, post, truth) -> float:
    from engines.inkognito.inference import worlds
    ident, build = worlds(setup)
    k = np.flatnonzero(np.all(ident == truth[0], axis=1) & np.all(build == truth[1], axis=1))
    return float(post.world_probabilities[k[0]])


@dataclass(frozen=True)
class SimConfig:
    """The options of one simulation run (:func:`simulate`).

    Attributes:
        games: number of games (>= 1); policy: ``"recommend"`` or ``"random"``.
        theta: the opponents' true θ in (0, 1) (None: indifferent, every valid set equally
            likely — Höhle's model); deception, prior: the engine's model (θ ~ Beta(prior)).
        max_questions: questions per game (>= 1); target: P(true deal) that counts as solved.
        questions: ``"any"`` or ``"player"`` (player questions only: θ matters only there).
        seed: the random seed (same seed, same figures).
    """

    games: int = 100
    policy: str = "recommend"
    theta: Optional[float] = None
    deception: bool = False
    prior: tuple = DEFAULT_DECEPTION_PRIOR
    max_questions: int = 30
    target: float = 0.95
    questions: str = "any"
    seed: int = 0
    scheduler: Optional[str] = None
    """Where the games run (:mod:`engines.core.executor`): None = in this process,
    ``processes:N``, ``local:N`` or ``tcp://HOST:8786``; the figures do not depend on it."""


def _one_game(index: int, seed_seq, policy: str, opts: dict) -> tuple:
    """Game ``index`` (a task of :func:`engines.core.executor.run_games`): :func:`play` with
    a generator seeded from the game's ``SeedSequence``."""
    rng = random.Random(int.from_bytes(seed_seq.generate_state(4).tobytes(), "little"))
    return play(rng, policy, **opts)


def simulate(config: SimConfig = SimConfig(), *, progress: Progress = None,
             cancel: CancelFlag = None) -> SimulationResult:
    """Play ``config.games`` 4-player games (see the module docstring) and collect the figures.

    Args:
        config: :class:`SimConfig`.
        progress: optional ``progress(done, total)`` (games), called after every game.
        cancel: optional zero-argument callable; the run stops with ``Cancelled`` when True.
    Returns:
        :class:`SimulationResult`.
    Raises:
        SessionFormatError: a bad option (path ``--<option>``); Cancelled via ``cancel``.
    """
    games, policy, theta = config.games, config.policy, config.theta
    deception, prior, max_questions = config.deception, tuple(config.prior), config.max_questions
    target, questions, seed = config.target, config.questions, config.seed
    if policy not in POLICIES:
        raise SessionFormatError("--policy", f"unknown policy {policy!r}; expected one of "
                                             f"{', '.join(POLICIES)}")
    if questions not in QUESTION_SETS:
        raise SessionFormatError("--questions", f"unknown question set {questions!r}; "
                                                f"expected one of {', '.join(QUESTION_SETS)}")
    if not isinstance(games, int) or games < 1:
        raise SessionFormatError("--games", f"must be a whole number >= 1, got {games!r}")
    if not isinstance(max_questions, int) or max_questions < 1:
        raise SessionFormatError("--max-questions", f"must be >= 1, got {max_questions!r}")
    if theta is not None and not (0.0 < theta < 1.0):
        raise SessionFormatError("--theta", f"must be strictly between 0 and 1, got {theta!r}")
    if not (0.0 < target <= 1.0):
        raise SessionFormatError("--target", f"must be in (0, 1], got {target!r}")
    if len(prior) != 2 or not all(x > 0 and math.isfinite(x) for x in prior):
        raise SessionFormatError("--prior", f"Beta parameters must be two positive numbers, "
                                            f"got {prior!r}")
    opts = dict(theta=theta, deception=deception, prior=prior, max_questions=max_questions,
                target=target, questions=questions)
    solved_q, curves, losses = [], [], []
    for k, probs in run_games(_one_game, games, seed, (policy, opts), scheduler=config.scheduler,
                              workers=1, progress=progress, cancel=cancel):
        if k is not None:
            solved_q.append(k)
        curves.append(probs + [probs[-1]] * (max_questions + 1 - len(probs)))
        losses.append(-math.log2(max(probs[-1], 1e-300)))
    mean_curve = tuple(float(x) for x in np.mean(np.array(curves), axis=0))
    return SimulationResult(policy, questions, "deception" if deception else "uniform", theta,
                            games, max_questions, target, len(solved_q) / games, tuple(solved_q),
                            mean_curve, float(np.mean(losses)))


def add_simulate_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``python -m engines simulate inkognito``."""
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--policy", default="recommend", choices=POLICIES)
    parser.add_argument("--questions", default="any", choices=QUESTION_SETS,
                        help="player questions only, or any (default)")
    parser.add_argument("--theta", type=float, default=None,
                        help="opponents' true θ (default: indifferent opponents)")
    parser.add_argument("--deception", action="store_true",
                        help="the engine uses the deception model")
    parser.add_argument("--prior", type=float, nargs=2, default=list(DEFAULT_DECEPTION_PRIOR),
                        metavar=("A", "B"), help="Beta prior of θ (deception model)")
    parser.add_argument("--max-questions", type=int, default=30)
    parser.add_argument("--target", type=float, default=0.95)
    parser.add_argument("--seed", type=int, default=0)


def simulate_main(args: argparse.Namespace) -> dict:
    """Run :func:`simulate` from parsed CLI arguments; returns the JSON-able result."""
    return simulate(SimConfig(games=args.games, policy=args.policy, theta=args.theta,
                              deception=args.deception, prior=tuple(args.prior),
                              max_questions=args.max_questions, target=args.target,
                              questions=args.questions, seed=args.seed,
                              scheduler=getattr(args, "scheduler", None))).to_json()
