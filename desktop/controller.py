"""One tab's controller: the session document, its belief timeline, the background tasks and
the selected history entry (docs/ARCHITECTURE.md, "Layers").

A :class:`GameController` holds no widget. Views (the tab, the history panel, the plot) call
its actions and render what its signals deliver; everything heavier than building an event
runs as a task on the shared thread pool (:mod:`desktop.inference`), newest request wins.
"""
from __future__ import annotations

import dataclasses
import functools
import time
from typing import Any, Callable, Optional

from PySide6.QtCore import QObject, Signal, Slot

from engines.core.contract import has_capability
from engines.core.timeline import Timeline, TimelineResult
from desktop.inference import JobRunner
from desktop.session import SessionDocument, write_text_atomically


class GameController(QObject):
    """The logic of one game's tab.

    Args:
        module: the game's engine module (:class:`engines.core.contract.GameEngine`).
        options: zero-argument callable giving ``infer``'s keyword arguments (read at every
            request: a method combo box may change them).
        full_timeline: zero-argument callable; True to compute the posterior after every prefix
            (a timeline whose states are too large to copy computes the whole log only).

    Attributes:
        document: the :class:`SessionDocument` (setup, events, undo stack).
        belief_timeline: the :class:`Timeline` of the document's setup and options.
        timeline: the last :class:`TimelineResult` delivered (None before the first).
        view_index: the selected history entry: -1 live, ``k`` the beliefs after ``k`` events.
        last_seconds: wall time of the last result.

    Signals:
        resultReady(int revision, object TimelineResult, float seconds): new beliefs.
        failed(int revision, object exception): the beliefs cannot be computed.
        entryReady(int k, object posterior): the posterior of the selected entry, computed on
            demand (it was not in :attr:`timeline`).
        statusMessage(str): text for the status bar.
        exportFinished(str path, str error): a CSV export finished ("" on success).
        explanationReady(object WhyResult): the explanation :meth:`explain` asked for.
        explanationFailed(object exception): it cannot be given (a fact naming nothing,
            a contradictory log: ``ConflictError``, a table too large).
        conflictReady(object entries): the irreducible set of entries (0-based, ascending)
            that cannot all be true together, after :meth:`request_conflict`; ``()`` when the
            setup alone is impossible; None when the exact engine finds the log consistent.
        conflictFailed(object exception): the set cannot be found.
        progress(int done, int total): the beliefs being computed: ``done`` of ``total`` log
            prefixes (a file with thousands of entries takes a while).
        cancelled(): :meth:`cancel_computation` stopped the work; no beliefs are shown until
            the next request.
    """

    resultReady = Signal(int, object, float)
    failed = Signal(int, object)
    entryReady = Signal(int, object)
    statusMessage = Signal(str)
    exportFinished = Signal(str, str)
    explanationReady = Signal(object)
    explanationFailed = Signal(object)
    conflictReady = Signal(object)
    conflictFailed = Signal(object)
    progress = Signal(int, int)
    cancelled = Signal()

    def __init__(self, module, *, options: Callable[[], dict] = dict,
                 full_timeline: Callable[[], bool] = lambda: True,
                 parent: Optional[QObject] = None):
        super().__init__(parent)
        self.module = module
        self._options = options
        self._full = full_timeline
        self.document = SessionDocument(module.GAME, module.default_setup(), self)
        self._runners: list[JobRunner] = []
        self.runner = self.make_runner("inference")
        self.runner.resultReady.connect(self._on_result)
        self.runner.failed.connect(self._on_failed)
        self.runner.progress.connect(self.progress)
        self.view_runner = self.make_runner("view")
        self.view_runner.resultReady.connect(self._on_view_entry)
        self.view_runner.failed.connect(self._on_view_failed)
        self.export_runner = self.make_runner("export")
        self.export_runner.resultReady.connect(self._on_export_timeline)
        self.export_runner.failed.connect(self._on_export_failed)
        self._export_path = ""
        self.why_runner = self.make_runner("why")
        self.why_runner.resultReady.connect(self._on_explanation)
        self.why_runner.failed.connect(self._on_explanation_failed)
        self.conflict_runner = self.make_runner("conflict")
        self.conflict_runner.resultReady.connect(self._on_conflict)
        self.conflict_runner.failed.connect(self._on_conflict_failed)
        self._conflict_log: Optional[tuple] = None     # (setup, events) of the last conflict
        self._conflict_entries: Optional[tuple] = None
        # the options may come from widgets built later: current_timeline() renews it
        self.belief_timeline = Timeline(module, self.document.setup)
        self.timeline: Optional[TimelineResult] = None
        self.view_index = -1
        self.last_seconds = 0.0

    # -- tasks -------------------------------------------------------------------------------
    def make_runner(self, name: str) -> JobRunner:
        """A further background runner (recommendations, simulations), shut down with the tab."""
        runner = JobRunner(self, name=f"{self.module.GAME}-{name}")
        self._runners.append(runner)
        return runner

    def is_busy(self) -> bool:
        """True while any runner has pending work."""
        return any(r.is_busy() for r in self._runners)

    def shutdown(self) -> None:
        for r in self._runners:
            r.shutdown()

    def cancel_computation(self) -> None:
        """Stop every background job of this tab (the beliefs, recommendations, simulations):
        each stops at its next cancel check and delivers nothing; the document stays open and
        editable, and the next change (or :meth:`request_inference`) computes again. Emits
        ``cancelled``."""
        for r in self._runners:
            r.cancel()
        self.cancelled.emit()

    # -- actions -----------------------------------------------------------------------------
    def log_event(self, event: Any) -> None:
        """Append ``event`` to the log (undoable) and go back to the live view."""
        self.view_index = -1
        self.document.log_event(event)

    def remove_event(self, index: int) -> None:
        self.document.remove_event(index)

    def reset(self, setup: Any, events=(), meta=(), path: Optional[str] = None) -> None:
        """New game / Open: a new setup and log (not undoable), a fresh timeline."""
        self.belief_timeline = Timeline(self.module, setup, self._options())
        self.timeline = None
        self.view_index = -1
        self.document.reset(setup, events, meta, path)

    def current_timeline(self) -> Timeline:
        """The :class:`Timeline` of the document's setup and the current options (a new one,
        and the old one's cache dropped, when either changed)."""
        tl, setup, options = self.belief_timeline, self.document.setup, self._options()
        if tl.setup is not setup and tl.setup != setup or tl.options != options:
            self.belief_timeline = tl = Timeline(self.module, setup, options)
        return tl

    @Slot()
    def request_inference(self, *_args) -> None:
        """Ask for the beliefs of the document as it is now (newest request wins)."""
        tl = self.current_timeline()
        full = self._full() and not tl.in_order
        self.runner.submit(functools.partial(_timeline_job, tl, tuple(self.document.events),
                                             full=full))

    def select(self, k: int) -> tuple[int, Any]:
        """Select history entry ``k`` (-1 live). Returns ``(k shown, posterior)`` when the
        timeline has it (posterior None otherwise: it is computed and comes as
        ``entryReady``); ``(-1, None)`` when there is nothing to show yet."""
        self.view_index = k
        tl = self.timeline
        if tl is None or not tl.posteriors:
            return -1, None
        n = len(tl.posteriors) - 1
        shown = n if k < 0 or k > n else k
        post = tl.posteriors[shown]
        if post is None:
            self.view_runner.submit(functools.partial(
                _entry_job, self.belief_timeline, tuple(self.document.events[:shown]), shown))
        else:
            self.view_runner.cancel()
        return shown, post

    def export_history_csv(self, path: str) -> None:
        """Write the history with the beliefs after every event to ``path`` (CSV); the beliefs
        not computed yet are computed in the background first. Emits ``exportFinished``."""
        tl = self.timeline
        n = len(self.document.events)
        if tl is not None and tl.error is None and len(tl.summaries) == n + 1 and tl.is_full:
            self._write_csv(path, list(tl.summaries))
            return
        self._export_path = path
        self.statusMessage.emit("Computing the beliefs after every event for the CSV…")
        self.export_runner.submit(functools.partial(
            _timeline_job, self.current_timeline(), tuple(self.document.events), full=True))

    # -- explanations (engines.core.explain) ----------------------------------------------------
    def can_explain(self) -> bool:
        """Whether the game's engine explains facts and contradictions."""
        return has_capability(self.module, "explanation")   # ExplainingEngine

    def explain(self, fact: dict, k: int) -> None:
        """Why ``fact`` (the engine's fact object) has its status after the first ``k`` events
        of the log: ``engine.explain`` in the background (newest request wins), delivered as
        ``explanationReady(WhyResult)`` or ``explanationFailed(exception)``."""
        events = tuple(self.document.events[:max(0, k)])
        self.why_runner.submit(functools.partial(_explain_job, self.module, self.document.setup,
                                                 events, dict(fact)))

    def cancel_explanation(self) -> None:
        """Drop the pending explanation (its engine call stops at its next cancel check)."""
        self.why_runner.cancel()

    def request_conflict(self) -> Optional[tuple]:
        """An irreducible set of entries of the contradictory log that cannot all be true
        together: returned at once when the same log was explained before, else None and
        computed in the background (``conflictReady`` / ``conflictFailed``)."""
        log = (self.document.setup, tuple(self.document.events))
        if self._conflict_log is not None and self._conflict_log == log \
                and self._conflict_entries is not None:
            self.conflict_runner.cancel()
            return self._conflict_entries
        self._conflict_log, self._conflict_entries = log, None
        self.conflict_runner.submit(functools.partial(_conflict_job, self.module, *log))
        return None

    def cancel_conflict(self) -> None:
        """The log is consistent again: drop the pending search."""
        self.conflict_runner.cancel()

    @Slot(int, object, float)
    def _on_explanation(self, _rev: int, result: "WhyResult", _secs: float) -> None:
        self.explanationReady.emit(result)

    @Slot(int, object)
    def _on_explanation_failed(self, _rev: int, exc: Exception) -> None:
        self.explanationFailed.emit(exc)

    @Slot(int, object, float)
    def _on_conflict(self, _rev: int, result: tuple, _secs: float) -> None:
        log, entries = result
        if log != (self.document.setup, tuple(self.document.events)):
            return                  # the log changed meanwhile: its own request follows
        if entries is not None and not isinstance(entries, tuple):
            entries = tuple(entries)    # a DiagnosedEntries keeps its diagnosis for the banner
        self._conflict_log, self._conflict_entries = log, entries
        self.conflictReady.emit(entries)

    @Slot(int, object)
    def _on_conflict_failed(self, _rev: int, exc: Exception) -> None:
        self.conflictFailed.emit(exc)

    # -- results -----------------------------------------------------------------------------
    @Slot(int, object, float)
    def _on_result(self, revision: int, timeline: TimelineResult, seconds: float) -> None:
        self.timeline = timeline
        self.last_seconds = seconds
        self.resultReady.emit(revision, timeline, seconds)

    @Slot(int, object)
    def _on_failed(self, revision: int, exc: Exception) -> None:
        self.failed.emit(revision, exc)

    @Slot(int, object, float)
    def _on_view_entry(self, _rev: int, result: tuple, _secs: float) -> None:
        k, post = result
        if self.view_index == k:
            self.entryReady.emit(k, post)

    @Slot(int, object)
    def _on_view_failed(self, _rev: int, exc: Exception) -> None:
        self.statusMessage.emit(f"beliefs then: {exc}")

    @Slot(int, object, float)
    def _on_export_timeline(self, _rev: int, timeline: TimelineResult, _secs: float) -> None:
        self._write_csv(self._export_path, list(timeline.summaries))

    @Slot(int, object)
    def _on_export_failed(self, _rev: int, exc: Exception) -> None:
        self.exportFinished.emit(self._export_path, f"cannot compute the beliefs: {exc}")

    def _write_csv(self, path: str, summaries: list) -> None:
        summaries = summaries + [None] * (len(self.document.events) + 1 - len(summaries))
        try:
            write_text_atomically(path, self.document.history_csv(summaries))
        except OSError as exc:
            self.exportFinished.emit(path, str(exc))
            return
        self.exportFinished.emit(path, "")


def _timeline_job(timeline: Timeline, events: tuple, task, *, full: bool) -> TimelineResult:
    return timeline.compute(events, task, full=full, progress=task.progress)


@dataclasses.dataclass(frozen=True)
class WhyResult:
    """An explanation as the Why? popup needs it.

    Attributes:
        fact: the fact asked (engine JSON form).
        k: the explanation is under the first ``k`` events of the log.
        explanation: :class:`engines.core.explain.Explanation` (``because``: 0-based indices).
        seconds: wall time of the engine call.
    """

    fact: dict
    k: int
    explanation: Any
    seconds: float


def _explain_job(module, setup, events: tuple, fact: dict, task) -> WhyResult:
    t0 = time.perf_counter()
    expl = module.explain(setup, events, fact, cancel=task)
    return WhyResult(fact, len(events), expl, time.perf_counter() - t0)


def _conflict_job(module, setup, events: tuple, task) -> tuple:
    from desktop.widgets.diagnosis import conflict_job   # the entries and the corrections
    return conflict_job(module, setup, events, task)


def _entry_job(timeline: Timeline, events: tuple, k: int, task) -> tuple:
    return k, timeline.posterior(events, task)
