"""Who is close to solving, and when to accuse: the Cluedo tab's background estimates.

The figures come from the engine (:mod:`engines.cluedo.opponents`,
:mod:`engines.cluedo.accuse`; the model and the decision rule are stated there and in the
docs/guide/cluedo.md). This module runs them off the GUI thread and keeps them per prefix of the log:

* the **shown prefix** (the whole log, or the history entry selected): a task on its own
  runner — the exact best triple (:func:`engines.cluedo.accuse.best_triple`), then
  :func:`engines.cluedo.opponents.iter_opponent_knowledge` with the look-ahead, every refinement
  published as a partial result (the first after 16 sampled deals, a fraction of a second),
  until :data:`LIVE_BUDGET_SECONDS`, :data:`LIVE_MAX_SAMPLES` or the precision target
  :data:`desktop.games.cluedo.estimates.TARGET_HALF_WIDTH`;
* **every other prefix** (the plot of ``p_knows_envelope`` over the game): a second, low
  priority task, started once the shown prefix is done, newest prefix first, each estimate
  within :data:`HISTORY_BUDGET_SECONDS` (no look-ahead), published one prefix at a time.

The wall-clock budgets give way to the sample caps alone in the command line's picture modes
(:func:`desktop.shell.process.use_sample_budgets`), whose pictures must not depend on the
machine's load.

Both are :class:`desktop.tabs.jobs.JobRunner` tasks on the shared thread pool (newest
request wins, cooperative cancel) whose computation
(:mod:`desktop.games.cluedo.estimates`) runs in the "who is close" worker process
(:data:`desktop.tabs.engine_process.WHO_IS_CLOSE`) once it is ready, and in the task's
thread until then or when it is busy. Results are cached per prefix in :class:`OpponentsTracker`:
an entry for the first ``k`` events stays valid while those ``k`` events stay the same, so
logging an event computes one new prefix, and browsing the history shows a cached entry at
once. The task for the shown prefix waits (at most :data:`HOLD_SECONDS`) until the tab's
ranking of suggestions has published its first estimate, so Best suggestions are not delayed by
this work competing for the interpreter.
"""
from __future__ import annotations

import functools
import math
import threading
import time
from typing import Optional, Sequence

from PySide6.QtCore import QObject, Signal, Slot

from desktop.games.cluedo.estimates import OpponentsView, history_estimates, refine_shown_prefix
from desktop.shell.process import budget_seconds
from desktop.tabs import engine_process
from desktop.tabs.jobs import JobRunner
from engines.core.errors import Cancelled
from engines.core.i18n import N_

#: Wall-time budget (s) of the shown prefix's refinement: its first estimate is on screen
#: within a fraction of a second and each refinement replaces it, so the budget only bounds the
#: background work (6 players after 20 suggestions reach a few hundred sampled deals in 2 s on
#: an idle machine, docs/performance.md; a loaded one needs about twice as long).
LIVE_BUDGET_SECONDS = 4.0
#: Most sampled deals for the shown prefix.
LIVE_MAX_SAMPLES = 4096
#: Per-prefix budget (s) and cap of sampled deals for the plot over the game (no look-ahead).
HISTORY_BUDGET_SECONDS = 0.4
HISTORY_MAX_SAMPLES = 256
#: Longest wait (s) for the ranking's first estimate before the shown prefix's task starts.
HOLD_SECONDS = 1.0
#: Cached prefixes kept per log (a long log's earliest prefixes are dropped beyond this).
MAX_CACHED_PREFIXES = 2000

#: The decision rule as the tab states it (engines.cluedo.accuse, the Cluedo guide, "Who is close").
RULE_TEXT = N_("Accuse now if and only if p_correct ≥ 1 − p_opponent_knows_before_my_turn.\n"
             "p_correct: the exact probability that your most probable triple is the envelope.\n"
             "p_opponent_knows_before_my_turn: the probability that some opponent still in the "
             "game — every one of them moves before your next turn — can name the envelope once "
             "their next suggestion is answered (their knowledge now plus a look-ahead of one "
             "suggestion each).\n"
             "Accusing now wins with p_correct; waiting wins at most when no opponent who can "
             "name the envelope accuses first. A certain envelope is always “accuse now”. "
             "The rule applies at your turn, after your suggestion.")


def shown_prefix_job(setup, events: tuple, k: int, gate: threading.Event, task) -> OpponentsView:
    """The shown prefix's task (see the module docstring): waits for ``gate`` (at most
    :data:`HOLD_SECONDS`), then :func:`desktop.games.cluedo.estimates.refine_shown_prefix`
    in the "who is close" worker process (in this thread when it cannot take the call), its
    refinements published as they come; returns the last one (``complete=True``).

    Raises:
        ContradictionError: the prefix is impossible. Cancelled: a newer request came.
    """
    t_hold = time.monotonic() + HOLD_SECONDS
    while not gate.wait(0.02):
        if task():
            raise Cancelled()
        if time.monotonic() > t_hold:
            break
    return engine_process.run(task, refine_shown_prefix, setup, tuple(events), k,
                              max_samples=LIVE_MAX_SAMPLES,
                              budget_seconds=budget_seconds(LIVE_BUDGET_SECONDS),
                              partial_keyword="on_view", on_partial=task.publish,
                              worker_name=engine_process.WHO_IS_CLOSE)


def history_job(setup, events: tuple, ks: Sequence[int], task) -> int:
    """The plot's task: :func:`desktop.games.cluedo.estimates.history_estimates` for the
    prefix lengths ``ks`` (within :data:`HISTORY_BUDGET_SECONDS` and
    :data:`HISTORY_MAX_SAMPLES` each), in the "who is close" worker process when it can take
    the call, each prefix's plot-only :class:`OpponentsView` published. Returns how many
    prefixes were computed."""
    return engine_process.run(task, history_estimates, setup, tuple(events), tuple(ks),
                              max_samples=HISTORY_MAX_SAMPLES,
                              budget_seconds=budget_seconds(HISTORY_BUDGET_SECONDS),
                              partial_keyword="on_view", on_partial=task.publish,
                              worker_name=engine_process.WHO_IS_CLOSE)


def _better(new: OpponentsView, old: Optional[OpponentsView]) -> bool:
    """Whether ``new`` should replace ``old`` in the cache: an entry with the advice beats one
    without, a complete one an incomplete one, then the larger sample."""
    if old is None:
        return True
    rank = lambda v: (v.advice is not None, v.complete, v.estimate.exact, v.samples)  # noqa: E731 (a one-line key function)
    return rank(new) >= rank(old)


class OpponentsTracker(QObject):
    """The estimates of what each opponent knows, per prefix of the Cluedo log (no widget).

    Args:
        live_runner: the runner of the shown prefix's task (counted as the tab's work).
        history_runner: the runner of the plot's task (low priority: not waited for).

    Signals:
        viewReady(object OpponentsView): a new estimate for the prefix last requested (partial
            ones first, then ``complete=True``).
        failed(int k, str message): the requested prefix cannot be estimated.
        historyUpdated(): a prefix's estimate was added to the cache (the plot may redraw).
    """

    viewReady = Signal(object)
    failed = Signal(int, str)
    historyUpdated = Signal()

    def __init__(self, live_runner: JobRunner, history_runner: JobRunner,
                 parent: Optional[QObject] = None):
        super().__init__(parent)
        self._live = live_runner
        self._history = history_runner
        self._live.partialResult.connect(self._on_live_partial)
        self._live.resultReady.connect(self._on_live_result)
        self._live.failed.connect(self._on_live_failed)
        self._history.partialResult.connect(self._on_history_partial)
        self._gate = threading.Event()
        self._gate.set()
        self._setup = None
        self._events: tuple = ()
        self._valid = 0                       # prefixes 0.._valid are consistent
        self._cache: dict[int, OpponentsView] = {}
        self._requested: Optional[int] = None

    # -- the log ---------------------------------------------------------------------------
    def sync(self, setup, events: Sequence) -> bool:
        """Follow the log: entries of prefixes the new log no longer shares are dropped (a new
        setup drops all) and pending tasks are cancelled. Returns whether anything changed."""
        events = tuple(events)
        if setup is self._setup and events == self._events:
            return False
        if self._setup is None or (setup is not self._setup and setup != self._setup):
            self._cache.clear()
        else:
            old = self._events
            common = 0
            for a, b in zip(old, events):
                if a is not b and a != b:
                    break
                common += 1
            for k in [k for k in self._cache if k > common]:
                del self._cache[k]
        self._setup, self._events = setup, events
        self._valid = min(self._valid, len(events))
        self._requested = None
        self._live.cancel()
        self._history.cancel()
        return True

    def hold(self) -> None:
        """The ranking of suggestions starts: the shown prefix's task waits for :meth:`release`
        (at most :data:`HOLD_SECONDS`)."""
        self._gate.clear()

    def release(self) -> None:
        """The ranking has published its first estimate (or failed): go ahead."""
        self._gate.set()

    # -- requests ------------------------------------------------------------------------
    def request(self, setup, events: Sequence, k: int, valid: Optional[int] = None) -> Optional[OpponentsView]:
        """Show the estimates after the first ``k`` events of ``events``.

        Returns the cached entry at once when there is one (None otherwise); when it is not
        complete with the advice, the shown prefix's task is (re)started and its estimates
        arrive as ``viewReady``; once it is complete, the plot's task fills in the other
        prefixes (``valid``: the prefixes ``0..valid`` are consistent; default all).
        """
        self.sync(setup, events)
        n = len(self._events)
        self._valid = n if valid is None else max(0, min(valid, n))
        k = max(0, min(k, self._valid))
        entry = self._cache.get(k)
        if self._requested == k and (self._live.is_busy() or
                                     (entry is not None and entry.complete and entry.advice)):
            return entry
        self._requested = k
        if entry is not None and entry.complete and entry.advice is not None:
            self._live.cancel()
            self._start_history()
            return entry
        self._history.cancel()
        self._live.submit(functools.partial(shown_prefix_job, self._setup, self._events[:k], k,
                                            self._gate))
        return entry

    def cancel(self) -> None:
        """Drop every pending estimate (the log became impossible)."""
        self._requested = None
        self._live.cancel()
        self._history.cancel()

    def requested(self) -> Optional[int]:
        """The prefix length last requested (None after a change or :meth:`cancel`)."""
        return self._requested

    def cached(self, k: int) -> Optional[OpponentsView]:
        return self._cache.get(k)

    def series(self, n: Optional[int] = None) -> dict:
        """``{opponent: [p_knows_envelope after 0, 1, ..., n events or None]}`` from the cache
        (``n``: default the consistent prefixes), opponents in seating order."""
        if self._setup is None:
            return {}
        n = self._valid if n is None else n
        names = [p for p in self._setup.players if p != self._setup.me]
        out = {name: [None] * (n + 1) for name in names}
        for k, view in self._cache.items():
            if k <= n:
                for name in names:
                    kn = view.estimate.opponents.get(name)
                    if kn is not None and math.isfinite(kn.p_knows_envelope):
                        out[name][k] = kn.p_knows_envelope
        return out

    def is_refining(self) -> bool:
        """True while the shown prefix's task runs."""
        return self._live.is_busy()

    def is_history_busy(self) -> bool:
        """True while the plot's task runs."""
        return self._history.is_busy()

    def running(self) -> int:
        """How many of the tracker's tasks still run on the pool, cancelled ones included."""
        return self._live.running() + self._history.running()

    def shutdown(self) -> None:
        self._gate.set()
        self._live.shutdown()
        self._history.shutdown()

    # -- the plot's task -------------------------------------------------------------------
    def _start_history(self) -> None:
        ks = [k for k in range(self._valid, -1, -1) if k not in self._cache]
        if not ks:
            self._history.cancel()
            return
        self._history.submit(functools.partial(history_job, self._setup, self._events, tuple(ks)))

    def _store(self, view: OpponentsView) -> bool:
        if view.k > len(self._events) or not _better(view, self._cache.get(view.k)):
            return False
        self._cache[view.k] = view
        if len(self._cache) > MAX_CACHED_PREFIXES:
            for k in sorted(self._cache)[:len(self._cache) - MAX_CACHED_PREFIXES]:
                if k != self._requested:
                    del self._cache[k]
        return True

    # -- results (GUI thread) ------------------------------------------------------------
    @Slot(int, object)
    def _on_live_partial(self, _rev: int, view: OpponentsView) -> None:
        self._deliver(view)

    @Slot(int, object, float)
    def _on_live_result(self, _rev: int, view: OpponentsView, _secs: float) -> None:
        self._deliver(view)
        if view.k == self._requested:
            self._start_history()

    def _deliver(self, view: OpponentsView) -> None:
        if self._store(view):
            self.historyUpdated.emit()
        if view.k == self._requested:
            cached = self._cache.get(view.k)
            self.viewReady.emit(cached if cached is not None and _better(cached, view) else view)

    @Slot(int, object)
    def _on_live_failed(self, _rev: int, exc: Exception) -> None:
        k = self._requested if self._requested is not None else -1
        self.failed.emit(k, str(getattr(exc, "message", None) or exc))

    @Slot(int, object)
    def _on_history_partial(self, _rev: int, view: OpponentsView) -> None:
        if self._store(view):
            self.historyUpdated.emit()
