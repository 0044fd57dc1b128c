"""The base class of every game tab: document, background inference, history, plot, banner.

A game tab subclasses :class:`GameTab` and implements the hooks marked "subclass". The base
wires the data flow of docs/ARCHITECTURE.md: a logged event is a QUndoCommand on
:attr:`document`; every change asks :attr:`runner` (a background thread) for the posteriors of
the log's prefixes from :attr:`belief_timeline` (an :class:`engines.core.timeline.Timeline`,
which keeps every posterior it computed); the result updates the views; an engine error shows
in the inline banner and the status bar, never as a crash. Selecting a history entry shows the
beliefs as they were after it (computed on demand when the timeline does not have them).
"""
from __future__ import annotations

import functools
from typing import Any, Optional

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import QMessageBox, QWidget

from engines import game_module
from engines.core.errors import ContradictionError, EngineError
from engines.core.timeline import Timeline, TimelineResult
from desktop.inference import InferenceRunner
from desktop.session import SessionDocument
from desktop.widgets.banner import Banner
from desktop.widgets.belief_plot import BeliefPlot
from desktop.widgets.history import HistoryPanel


class GameTab(QWidget):
    """One game's tab. Subclasses set :attr:`GAME` and implement the hooks.

    Signals:
        statusMessage(str): text for the main window's status bar.
        inferenceDone(int revision): a result (or an error) for ``revision`` was shown.
    """

    GAME = ""
    #: Compute the posterior after every prefix (for the plot and the history view); a
    #: timeline whose states are too large to copy computes the whole log only, and the
    #: beliefs after an earlier entry on demand.
    FULL_TIMELINE = True

    statusMessage = Signal(str)
    inferenceDone = Signal(int)
    #: (path, error): a CSV export finished; error is "" on success.
    exportFinished = Signal(str, str)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.module = game_module(self.GAME)
        self.document = SessionDocument(self.GAME, self.module.default_setup(), self)
        self._runners: list[InferenceRunner] = []
        self.runner = self.make_runner("inference")
        self.export_runner = self.make_runner("export")
        self.export_runner.resultReady.connect(self._on_export_timeline)
        self.export_runner.failed.connect(self._on_export_failed)
        self._export_path = ""
        self.runner.resultReady.connect(self._on_result)
        self.runner.failed.connect(self._on_failed)
        # the options come from widgets built later: current_timeline() renews it if needed
        self.belief_timeline = Timeline(self.module, self.document.setup)
        self.view_runner = self.make_runner("view")
        self.view_runner.resultReady.connect(self._on_view_entry)
        self.view_runner.failed.connect(self._on_view_failed)
        #: the last result of :attr:`belief_timeline` shown (None before the first)
        self.timeline: Optional[TimelineResult] = None
        self.view_index = -1  # -1: live; k: beliefs after the first k events
        self.last_seconds = 0.0
        self.history = HistoryPanel(self.document)
        self.history.entrySelected.connect(self._on_history_selected)
        self.history.removeRequested.connect(self.remove_event)
        self.plot = self.make_plot()
        self.banner = Banner()
        self.banner.actionClicked.connect(self._banner_action)
        self._banner_kind = ""
        self.document.changed.connect(self.request_inference)
        self.build_ui()
        self.request_inference()

    # -- subclass hooks --------------------------------------------------------------------
    def title(self) -> str:
        return self.module.TITLE

    def make_plot(self) -> BeliefPlot:
        """The tab's belief plot (override to change title, axis, scale)."""
        return BeliefPlot()

    def build_ui(self) -> None:  # subclass
        """Build the tab's widgets; place :attr:`history`, :attr:`plot` and :attr:`banner`."""
        raise NotImplementedError

    def inference_options(self) -> dict:
        """Keyword arguments for ``engine.infer`` (e.g. ``{"method": "exact"}``)."""
        return {}

    def show_posterior(self, posterior: Any, k: int) -> None:  # subclass
        """Show ``posterior`` (the beliefs after the first ``k`` events) in the tab's views."""
        raise NotImplementedError

    def clear_beliefs(self) -> None:
        """Called when no posterior can be shown (e.g. the setup itself is impossible)."""

    def plot_series(self, timeline: TimelineResult) -> dict:
        """Series for the belief plot from a timeline: name -> value after each event."""
        return {}

    def status_text(self, posterior: Any, seconds: float) -> str:
        return f"{self.title()}: updated in {seconds * 1000:.0f} ms"

    def new_game(self) -> bool:  # subclass
        """Ask for a new game's setup (a dialog) and reset the document; False if cancelled."""
        return False

    def after_result(self, timeline: TimelineResult) -> None:
        """Called after every new timeline (e.g. to ask for a recommendation)."""

    def reset_views(self) -> None:
        """Called after the setup changed (New game, Open): rebuild setup-dependent views."""

    # -- actions -----------------------------------------------------------------------
    def log_event(self, event: Any) -> None:
        """Append ``event`` to the log (undoable) — the one way facts enter the document."""
        self.history.select_live()
        self.document.log_event(event)

    def remove_event(self, index: int) -> None:
        self.document.remove_event(index)

    def reset_document(self, setup: Any, events=(), meta=(), path: Optional[str] = None) -> None:
        self.belief_timeline = Timeline(self.module, setup, self.inference_options())
        self.timeline = None
        self.view_index = -1
        self.history.set_contradiction(None)
        self.banner.clear()
        self.document.reset(setup, events, meta, path)
        self.reset_views()
        self.request_inference()

    def load_session(self, data, path: Optional[str]) -> None:
        self.reset_document(data.setup, data.events, data.meta, path)

    def current_timeline(self) -> Timeline:
        """The :class:`Timeline` of the document's setup and the tab's options (a new one when
        either changed; the old one's cache is dropped)."""
        tl, setup, options = self.belief_timeline, self.document.setup, self.inference_options()
        if tl.setup is not setup and tl.setup != setup or tl.options != options:
            self.belief_timeline = tl = Timeline(self.module, setup, options)
        return tl

    @Slot()
    def request_inference(self, *_args) -> None:
        tl = self.current_timeline()
        full = self.FULL_TIMELINE and not tl.in_order
        self.runner.submit(functools.partial(_timeline_job, tl, tuple(self.document.events),
                                             full=full))
        self.statusMessage.emit(f"{self.title()}: computing…")

    def make_runner(self, name: str) -> InferenceRunner:
        """A further background runner (recommendations, simulations), shut down with the tab."""
        runner = InferenceRunner(self, name=f"{self.GAME}-{name}")
        self._runners.append(runner)
        return runner

    def is_busy(self) -> bool:
        """True while any of the tab's runners has pending work."""
        return any(r.is_busy() for r in self._runners)

    # -- results ------------------------------------------------------------------------
    @Slot(int, object, float)
    def _on_result(self, revision: int, timeline: TimelineResult, seconds: float) -> None:
        self.timeline = timeline
        self.last_seconds = seconds
        err = timeline.error
        if isinstance(err, ContradictionError):
            self.history.set_contradiction(err.event_index)
            self._show_error(err)
        elif err is not None:
            self.history.set_contradiction(None)
            self._show_error(err)
        else:
            self.history.set_contradiction(None)
            if self._banner_kind in ("error", "contradiction"):
                self.banner.clear()
                self._banner_kind = ""
        if timeline.posteriors:
            self._show_view()
            try:
                self.plot.set_series(self.plot_series(timeline))
            except Exception as exc:  # a plot must never take the tab down
                self.statusMessage.emit(f"plot: {exc}")
            if err is None:
                self.statusMessage.emit(self.status_text(timeline.latest, seconds))
        else:
            self.clear_beliefs()
        self.after_result(timeline)
        self.inferenceDone.emit(revision)

    @Slot(int, object)
    def _on_failed(self, revision: int, exc: Exception) -> None:
        self._show_error(exc)
        self.inferenceDone.emit(revision)

    def _show_error(self, exc: Exception) -> None:
        if isinstance(exc, ContradictionError):
            self._banner_kind = "contradiction"
            where = "the setup" if exc.event_index < 0 else f"entry {exc.event_index + 1}"
            self.banner.show_message(
                f"<b>Impossible log</b>: {exc.message} — no world is consistent after {where}. "
                f"The beliefs shown are from before it. Undo (Ctrl+Z) or remove that entry.",
                "error", "Undo" if self.document.undo_stack.canUndo() else "")
            self.statusMessage.emit(f"Contradiction at {where}")
        elif isinstance(exc, EngineError):
            self._banner_kind = "error"
            self.banner.show_message(f"<b>Cannot compute</b>: {exc}", "error")
            self.statusMessage.emit(str(exc))
        else:
            self._banner_kind = "error"
            self.banner.show_message(f"<b>Internal error</b> in the {self.title()} engine: "
                                     f"{type(exc).__name__}: {exc}. Your log is safe; "
                                     f"please report this.", "error")
            self.statusMessage.emit(f"Internal error: {exc}")

    def _banner_action(self) -> None:
        if self._banner_kind == "contradiction" and self.document.undo_stack.canUndo():
            self.document.undo_stack.undo()

    def _on_history_selected(self, k: int) -> None:
        self.view_index = k
        self._show_view()

    def _show_view(self) -> None:
        tl = self.timeline
        if tl is None or not tl.posteriors:
            return
        n = len(tl.posteriors) - 1
        if self.view_index < 0 or self.view_index > n:
            k = n
            self.plot.set_marker(None if self.view_index < 0 else n)
        else:
            k = self.view_index
            self.plot.set_marker(k)
        post = tl.posteriors[k]
        if post is None:  # not computed yet (a timeline of the whole log only): on demand
            self.view_runner.submit(functools.partial(
                _entry_job, self.belief_timeline, tuple(self.document.events[:k]), k))
            return
        self.view_runner.cancel()
        try:
            self.show_posterior(post, k)
        except Exception as exc:
            self._show_error(exc)

    @Slot(int, object, float)
    def _on_view_entry(self, _rev: int, result: tuple, _secs: float) -> None:
        k, post = result
        if self.view_index != k:
            return
        try:
            self.show_posterior(post, k)
        except Exception as exc:
            self._show_error(exc)

    @Slot(int, object)
    def _on_view_failed(self, _rev: int, exc: Exception) -> None:
        self.statusMessage.emit(f"beliefs then: {exc}")

    def shutdown(self) -> None:
        for r in self._runners:
            r.shutdown()

    # -- export ---------------------------------------------------------------------------
    def export_history_csv(self, path: str) -> None:
        """Write the history with the beliefs after every event to ``path`` (CSV).

        Uses the current timeline when it covers every event; otherwise (a tab that computes
        only the latest posterior) the missing beliefs are computed in the background first.
        Emits ``exportFinished(path, error)``.
        """
        tl = self.timeline
        n = len(self.document.events)
        if tl is not None and tl.error is None and len(tl.summaries) == n + 1 and tl.is_full:
            self._write_csv(path, list(tl.summaries))
            return
        self._export_path = path
        self.statusMessage.emit("Computing the beliefs after every event for the CSV…")
        self.export_runner.submit(functools.partial(
            _timeline_job, self.current_timeline(), tuple(self.document.events), full=True))

    @Slot(int, object, float)
    def _on_export_timeline(self, _rev: int, timeline: TimelineResult, _secs: float) -> None:
        self._write_csv(self._export_path, list(timeline.summaries))

    @Slot(int, object)
    def _on_export_failed(self, _rev: int, exc: Exception) -> None:
        self.exportFinished.emit(self._export_path, f"cannot compute the beliefs: {exc}")

    def _write_csv(self, path: str, summaries: list) -> None:
        summaries = summaries + [None] * (len(self.document.events) + 1 - len(summaries))
        from desktop.session import write_text_atomically

        try:
            write_text_atomically(path, self.document.history_csv(summaries))
        except OSError as exc:
            self.exportFinished.emit(path, str(exc))
            return
        self.exportFinished.emit(path, "")

    def exec_menu(self, menu, pos):
        """Show a context menu at ``pos`` and return the chosen QAction (tests replace this)."""
        return menu.exec(pos)

    def warn(self, title: str, text: str) -> None:
        """A modal warning naming what is wrong (bad form input)."""
        QMessageBox.warning(self, title, text)


def _timeline_job(timeline: Timeline, events: tuple, cancel, *, full: bool) -> TimelineResult:
    return timeline.compute(events, cancel, full=full)


def _entry_job(timeline: Timeline, events: tuple, k: int, cancel) -> tuple:
    return k, timeline.posterior(events, cancel)
