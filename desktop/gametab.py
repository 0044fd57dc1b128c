"""The base class of every game tab: the views of one :class:`GameController`.

A game tab subclasses :class:`GameTab` and implements the hooks marked "subclass". The tab
renders; its :attr:`controller` (:mod:`desktop.controller`) owns the session document, the
belief timeline (:class:`engines.core.timeline.Timeline`, every posterior it computed kept per
prefix), the background tasks and the selected history entry. The data flow of
docs/ARCHITECTURE.md: a logged event is a QUndoCommand on :attr:`document`; every change asks
the controller for the posteriors of the log's prefixes (a task on the thread pool); the result
updates the views; an engine error shows in the inline banner and the status bar, never as a
crash. Selecting a history entry shows the beliefs as they were after it (computed on demand
when the timeline does not have them).
"""
from __future__ import annotations

import dataclasses
import functools
from typing import Any, Callable, Optional

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QMessageBox, QWidget

from engines import game_module
from engines.core.errors import ContradictionError, EngineError, SessionFormatError
from engines.core.timeline import Timeline, TimelineResult
from desktop.controller import GameController
from desktop.inference import InferenceRunner
from desktop.session import SessionDocument
from desktop.widgets.banner import Banner
from desktop.widgets.belief_plot import BeliefPlot
from desktop.widgets.history import HistoryPanel
from desktop.widgets.quick_entry import QuickEntry


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
        self.controller = GameController(self.module, options=lambda: self.inference_options(),
                                         full_timeline=lambda: self.FULL_TIMELINE, parent=self)
        c = self.controller
        c.resultReady.connect(self._on_result)
        c.failed.connect(self._on_failed)
        c.entryReady.connect(self._on_entry_ready)
        c.statusMessage.connect(self.statusMessage)
        c.exportFinished.connect(self.exportFinished)
        self.history = HistoryPanel(self.document)
        self.history.entrySelected.connect(self._on_history_selected)
        self.history.removeRequested.connect(self.remove_event)
        self.plot = self.make_plot()
        self.banner = Banner()
        self.banner.actionClicked.connect(self._banner_action)
        self._banner_kind = ""
        self.document.changed.connect(self.request_inference)
        self.check_runner = self.make_runner("check")
        self.check_runner.resultReady.connect(self._on_checked)
        self.check_runner.failed.connect(self._on_check_failed)
        self._check: Optional[tuple] = None     # the entry being checked
        self._checks: list[tuple] = []          # entries waiting for their check
        self.quick_entry = QuickEntry(self.module, self.document)
        self.quick_entry.entered.connect(self._on_quick_entered)
        self.build_ui()
        self._place_quick_entry()
        self.request_inference()

    # -- what the controller holds (read-only views for the tab's code) --------------------
    @property
    def document(self) -> SessionDocument:
        return self.controller.document

    @property
    def runner(self) -> InferenceRunner:
        return self.controller.runner

    @property
    def belief_timeline(self) -> Timeline:
        return self.controller.belief_timeline

    @property
    def timeline(self) -> Optional[TimelineResult]:
        """The last beliefs delivered (``.posteriors[k]`` after the first k events)."""
        return self.controller.timeline

    @property
    def view_index(self) -> int:
        """The selected history entry: -1 live, k the beliefs after the first k events."""
        return self.controller.view_index

    @property
    def last_seconds(self) -> float:
        return self.controller.last_seconds

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
        self.controller.log_event(event)

    def log_json(self, obj: dict, title: str = "Cannot log this") -> bool:
        """Validate ``obj`` (an event as in a session file) with the engine and log it; bad
        input shows the engine's message naming the field. Returns whether it was logged."""
        try:
            event = self.module.event_from_json(obj, self.document.setup, "event")
        except SessionFormatError as exc:
            self.warn(title, exc.message)
            return False
        self.log_event(event)
        return True

    def log_json_checked(self, obj: dict, title: str = "Cannot log this",
                         logged: Optional[Callable[[], None]] = None) -> bool:
        """:meth:`log_json` for a form: validate ``obj`` with the engine, then log it unless it
        contradicts the log (:meth:`log_checked`: refused with a warning naming the reason).
        Returns whether the object was valid (the check finishes in the background)."""
        try:
            event = self.module.event_from_json(obj, self.document.setup, "event")
        except SessionFormatError as exc:
            self.warn(title, exc.message)
            return False
        self.log_checked(event, logged=logged)
        return True

    def log_checked(self, event: Any, refused: Optional[Callable[[str], None]] = None,
                    logged: Optional[Callable[[], None]] = None) -> None:
        """Log ``event`` unless it contradicts the log: the engine's ``contradiction(setup,
        events, event)`` runs as a task on the thread pool (it may run ``infer``); then the event
        is logged (one undoable command) and ``logged()`` called, or ``refused(reason)`` is
        called (default: a warning naming the reason) and nothing is logged. Entries made while
        a check runs are checked after it, in order, each against the log before it."""
        self._checks.append((event, refused, logged))
        if self._check is None:
            self._next_check()

    def _next_check(self) -> None:
        while self._checks and self._check is None:
            event, refused, logged = self._checks.pop(0)
            check = getattr(self.module, "contradiction", None)
            in_order = getattr(self.module, "timeline_in_order", None)
            if in_order is not None and in_order(self.document.setup):
                check = None   # a state too large to copy (Egghead, 6 players): a check would
                #                take minutes; the contradiction banner reports an impossible entry
            if check is None:
                self.log_event(event)
                if logged:
                    logged()
                continue
            setup, events = self.document.setup, tuple(self.document.events)
            self._check = (event, refused, logged, setup, events)
            self.check_runner.submit(functools.partial(_check_job, check, setup, events, event))

    @Slot(int, object, float)
    def _on_checked(self, _rev: int, reason, _secs: float) -> None:
        pending, self._check = self._check, None
        if pending is None:
            return
        event, refused, logged, setup, events = pending
        if setup is not self.document.setup or events != tuple(self.document.events):
            self._checks.insert(0, (event, refused, logged))   # the log changed meanwhile
        elif reason:
            if refused is not None:
                refused(reason)
            else:
                self.warn("Not logged", f"{self.module.describe_event(setup, event)}: this "
                          f"contradicts the log — {reason}.")
        else:
            self.log_event(event)
            if logged:
                logged()
        self._next_check()

    @Slot(int, object)
    def _on_check_failed(self, _rev: int, exc: Exception) -> None:
        pending, self._check = self._check, None
        if pending is not None:
            refused = pending[1]
            reason = f"cannot check it: {getattr(exc, 'message', exc)}"
            if refused is not None:
                refused(reason)
            else:
                self.warn("Not logged", reason)
        self._next_check()

    # -- quick entry ---------------------------------------------------------------------
    def _place_quick_entry(self) -> None:
        """Put :attr:`quick_entry` under the banner of the tab's top layout (every tab gets
        it from here) and bind Ctrl+L and / to it."""
        root = self.layout()
        at = root.indexOf(self.banner) if root is not None else -1
        if root is not None and hasattr(root, "insertWidget"):
            root.insertWidget(at + 1 if at >= 0 else 0, self.quick_entry)
        for key in ("Ctrl+L", "/"):
            sc = QShortcut(QKeySequence(key), self)
            sc.setContext(Qt.WindowShortcut)   # only the visible tab's shortcut is active
            sc.activated.connect(self.quick_entry.focus)

    @Slot(object, bool)
    def _on_quick_entered(self, event: Any, force: bool) -> None:
        qe = self.quick_entry
        if force:
            self.log_event(event)
            qe.show_logged()
            return
        self.log_checked(event, refused=qe.show_refused, logged=qe.show_logged)

    def replace_setup(self, text: str, merge_key: int = -1, **changes) -> bool:
        """Replace fields of the setup (``dataclasses.replace``), keeping the events (undoable).

        The new setup is validated by the engine as a session file's would be
        (``Setup.from_json(setup.to_json())``); a bad one shows the engine's message and changes
        nothing. Consecutive changes with the same ``merge_key`` (>= 0) are one undo step.
        Returns whether the setup was replaced."""
        setup = dataclasses.replace(self.document.setup, **changes)
        try:
            self.module.Setup.from_json(setup.to_json(), "setup")
        except SessionFormatError as exc:
            self.warn("Cannot change the setup", exc.message)
            return False
        self.history.select_live()
        self.document.replace_setup(setup, text, merge_key)
        return True

    def remove_event(self, index: int) -> None:
        self.controller.remove_event(index)

    def reset_document(self, setup: Any, events=(), meta=(), path: Optional[str] = None) -> None:
        self.history.set_contradiction(None)
        self.banner.clear()
        self._checks.clear()          # entries of the old game are not logged into the new
        self._check = None
        self.check_runner.cancel()
        self.quick_entry.show_logged()
        self.controller.reset(setup, events, meta, path)
        self.reset_views()
        self.request_inference()

    def load_session(self, data, path: Optional[str]) -> None:
        self.reset_document(data.setup, data.events, data.meta, path)

    @Slot()
    def request_inference(self, *_args) -> None:
        self.controller.request_inference()
        self.statusMessage.emit(f"{self.title()}: computing…")

    def make_runner(self, name: str) -> InferenceRunner:
        """A further background runner (recommendations, simulations), shut down with the tab."""
        return self.controller.make_runner(name)

    def is_busy(self) -> bool:
        """True while any of the tab's runners has pending work."""
        return self.controller.is_busy()

    # -- results ------------------------------------------------------------------------
    @Slot(int, object, float)
    def _on_result(self, revision: int, timeline: TimelineResult, seconds: float) -> None:
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
        self.controller.view_index = k
        self._show_view()

    def _show_view(self) -> None:
        k = self.controller.view_index
        shown, post = self.controller.select(k)
        if shown < 0:
            return
        self.plot.set_marker(None if k < 0 else shown)
        if post is None:
            return  # computed on demand: arrives as the controller's entryReady
        try:
            self.show_posterior(post, shown)
        except Exception as exc:
            self._show_error(exc)

    @Slot(int, object)
    def _on_entry_ready(self, k: int, post) -> None:
        try:
            self.show_posterior(post, k)
        except Exception as exc:
            self._show_error(exc)

    def shutdown(self) -> None:
        self.controller.shutdown()

    # -- export ---------------------------------------------------------------------------
    def export_history_csv(self, path: str) -> None:
        """Write the history with the beliefs after every event to ``path`` (CSV); emits
        ``exportFinished(path, error)`` (see :meth:`GameController.export_history_csv`)."""
        self.controller.export_history_csv(path)

    def exec_menu(self, menu, pos):
        """Show a context menu at ``pos`` and return the chosen QAction (tests replace this)."""
        return menu.exec(pos)

    def warn(self, title: str, text: str) -> None:
        """A modal warning naming what is wrong (bad form input)."""
        QMessageBox.warning(self, title, text)


def _check_job(check, setup, events: tuple, event, _task) -> Optional[str]:
    return check(setup, list(events), event)
