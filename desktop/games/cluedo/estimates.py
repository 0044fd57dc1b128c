"""Who is close to solving: the Cluedo tab's estimates of what each opponent knows, computed
where the tab's tracker asks (Qt-free: :mod:`desktop.games.cluedo.opponents` keeps them per
prefix and shows them).

Both computations run in the "who is close" worker process of :mod:`desktop.tabs.engine_process`
once it is ready, not in a thread of the app: their counting (:mod:`engines.cluedo.counting`)
holds the interpreter lock in stretches long enough that the GUI thread, asleep on it, missed
its heartbeat by 50-90 ms while the 12 × 12 × 12 deck's estimate refined
(tests/benchmarks/bench_open_stall.py, docs/app-speed.md). Every option is an argument, read
by the caller when it asks, so the process computes with the app's values.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable, Optional, Sequence

from engines.cluedo.accuse import AccusationAdvice, best_triple, decide
from engines.cluedo.opponents import (
    MIN_INTERVAL_SAMPLES,
    OpponentsEstimate,
    iter_opponent_knowledge,
    opponent_knowledge,
)
from engines.core.errors import ContradictionError, SessionFormatError

#: An opponent "probably knows" the envelope (the tab's alert) when the estimated probability
#: that their view determines it is at least this: at 0.5 it is more likely than not that they
#: could accuse and be sure — the point where their next turn is more likely a win than not.
LIKELY_KNOWS = 0.5
#: The refinement stops early once every figure's ±2 standard errors is within this (a bar on
#: screen cannot show more), after at least :data:`MIN_SAMPLES_TO_STOP` deals.
TARGET_HALF_WIDTH = 0.025
MIN_SAMPLES_TO_STOP = 64


@dataclass(frozen=True)
class OpponentsView:
    """What the tab shows for the first ``k`` events of the log.

    Fields:
        k: the prefix length (0 = the setup alone).
        estimate: the engine's :class:`OpponentsEstimate` (``p_any_knows_next`` set when
            computed with the look-ahead).
        advice: the :class:`AccusationAdvice` (None for a plot-only entry, or before the best
            triple is known).
        complete: True once the refinement for this prefix is over (budget, sample cap or
            precision reached; always True for a plot-only entry).
    """

    k: int
    estimate: OpponentsEstimate
    advice: Optional[AccusationAdvice]
    complete: bool

    @property
    def samples(self) -> int:
        return self.estimate.samples

    def likely_knowers(self, threshold: float = LIKELY_KNOWS) -> list:
        """``[(name, p_knows_envelope, exact)]`` of the opponents still in the game whose
        probability of knowing the envelope is at least ``threshold``, most likely first."""
        out = [(k.player, k.p_knows_envelope, k.exact) for k in self.estimate.opponents.values()
               if not k.out and k.p_knows_envelope >= threshold]
        return sorted(out, key=lambda t: -t[1])


def make_advice(triple: tuple, p_correct: float, est: OpponentsEstimate, seconds: float) -> AccusationAdvice:
    """The :class:`AccusationAdvice` of an estimate computed with the look-ahead, decided by the
    engine's rule (:func:`engines.cluedo.accuse.decide`) — what
    :func:`engines.cluedo.accuse.accusation_advice` returns for the same estimate, without
    recounting the best triple at every refinement."""
    q = est.p_any_knows_next if est.p_any_knows_next is not None else 0.0
    se = est.p_any_next_standard_error if est.p_any_next_standard_error is not None else 0.0
    return AccusationAdvice(tuple(triple), float(p_correct), float(q), float(se), est.p_any_knows,
                            est.exact, decide(p_correct, q), seconds)


def precise_enough(est: OpponentsEstimate) -> bool:
    """Whether the refinement of ``est`` may stop: exact, or after at least
    :data:`MIN_SAMPLES_TO_STOP` deals every figure's ±2 standard errors within
    :data:`TARGET_HALF_WIDTH`."""
    if est.exact and est.p_any_next_standard_error in (None, 0.0):
        return True
    if est.samples < MIN_SAMPLES_TO_STOP:
        return False
    ses = [k.standard_error for k in est.opponents.values()]
    if est.p_any_next_standard_error is not None:
        ses.append(est.p_any_next_standard_error)
    return all(2.0 * s <= TARGET_HALF_WIDTH for s in ses)


def refine_shown_prefix(setup, events: tuple, k: int, *, max_samples: int, budget_seconds: float,
                        cancel=None, on_view: Optional[Callable[["OpponentsView"], None]] = None
                        ) -> "OpponentsView":
    """The shown prefix's estimate (see :mod:`desktop.games.cluedo.opponents`): the first
    sampled estimate at once (``on_view``, without the advice), then the exact best triple
    (:func:`engines.cluedo.accuse.best_triple`) and the look-ahead estimate refined — each
    refinement handed to ``on_view`` with the advice — until ``budget_seconds`` of wall time,
    ``max_samples`` sampled deals or the precision target (:func:`precise_enough`).

    Args:
        events: the first ``k`` events of the log.
        cancel: the cancel flag, polled in the engines' loops.
    Returns:
        The last :class:`OpponentsView` (``complete=True``).
    Raises:
        ContradictionError: the prefix is impossible. SessionFormatError: over the work limit.
        Cancelled.
    """
    t0 = time.perf_counter()
    it = iter_opponent_knowledge(setup, events, lookahead=True, max_samples=max_samples,
                                 cancel=cancel)
    last, advice, triple, p_correct = None, None, None, None
    try:
        for est in it:
            if triple is None:
                # the first estimate goes out at once; the exact best triple follows
                if on_view is not None:
                    on_view(OpponentsView(k, est, None, False))
                triple, p_correct = best_triple(setup, events, cancel)
            advice = make_advice(triple, p_correct, est, time.perf_counter() - t0)
            last = est
            elapsed = time.perf_counter() - t0
            # as engines.cluedo.opponents.opponent_knowledge: the next estimate doubles the
            # sample and costs about as much as all before it; the wall-clock budget never stops
            # it short of the deals an interval needs (a loaded start-up left the advice at 32
            # deals, without an interval, for good)
            done = est.final or precise_enough(est) or (
                2.2 * elapsed > budget_seconds and est.samples >= MIN_INTERVAL_SAMPLES)
            if done:
                break
            if on_view is not None:
                on_view(OpponentsView(k, est, advice, False))
    finally:
        it.close()
    return OpponentsView(k, last, advice, True)


def history_estimates(setup, events: tuple, ks: Sequence[int], *, max_samples: int,
                      budget_seconds: float, cancel=None,
                      on_view: Optional[Callable[["OpponentsView"], None]] = None) -> int:
    """The plot's estimates: for each prefix length in ``ks`` (in that order) the estimate of
    :func:`engines.cluedo.opponents.opponent_knowledge` within ``budget_seconds`` and
    ``max_samples``, handed to ``on_view`` as a plot-only :class:`OpponentsView`. An impossible
    prefix (or one over the work limit) is skipped. Returns how many prefixes were computed.

    Raises:
        Cancelled.
    """
    done = 0
    for k in ks:
        try:
            est = opponent_knowledge(setup, events[:k], budget_seconds=budget_seconds,
                                     max_samples=max_samples, cancel=cancel)
        except (ContradictionError, SessionFormatError):   # impossible, or over the budget
            continue
        if on_view is not None:
            on_view(OpponentsView(k, est, None, True))
        done += 1
    return done
