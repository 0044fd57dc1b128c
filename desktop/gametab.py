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

from PySide6.QtCore import QTimer, Qt, Signal, Slot
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QMessageBox, QWidget

from engines import game_module
from engines.core.contract import has_capability
from engines.core.errors import ContradictionError, EngineError, SessionFormatError
from engines.core.explain import ConflictError
from engines.core.timeline import Timeline, TimelineResult
from desktop.controller import GameController
from desktop.inference import JobRunner
from desktop.session import SessionDocument
from desktop.widgets.banner import Banner
from desktop.widgets.belief_plot import BeliefPlot
from desktop.widgets.history import HistoryPanel
from desktop.widgets.why import WhyPopup, conflict_html, parse_entry_link
from desktop.widgets.quick_entry import QuickEntry
from desktop.widgets.plain_text import as_rich_plain, esc


#: A computation running longer than this (ms) shows its progress and a Cancel button.
PROGRESS_AFTER_MS = 700
#: Shortest time between two progress updates of the banner (ms).
PROGRESS_UPDATE_MS = 400


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
        self._connect_controller()
        self._build_shared_widgets()
        self._why_popup: Optional[WhyPopup] = None
        self._why_request: Optional[tuple] = None      # (fact, subject)
        self._why_log: Optional[tuple] = None          # (setup, events) it was asked under
        self._connect_document()
        self._start_checks()
        #: The quick-entry line; None for an engine without parse/preview/complete.
        self.quick_entry: Optional[QuickEntry] = None
        if has_capability(self.module, "quick_entry"):
            self.quick_entry = QuickEntry(self.module, self.document)
            self.quick_entry.entered.connect(self._on_quick_entered)
        self.build_ui()
        if self.quick_entry is not None:
            self._place_quick_entry()  # under the banner's place in the layout, before it floats
        # the banner overlays the top of what follows it instead of pushing the layout down
        self.banner.float_over(self)
        self.request_inference()

    def _connect_controller(self) -> None:
        """Results, failures, entries, status, exports, explanations, progress and cancellation
        from the controller."""
        c = self.controller
        c.resultReady.connect(self._on_result)
        c.failed.connect(self._on_failed)
        c.entryReady.connect(self._on_entry_ready)
        c.statusMessage.connect(self.statusMessage)
        c.exportFinished.connect(self.exportFinished)
        c.explanationReady.connect(self._on_explanation)
        c.explanationFailed.connect(self._on_explanation_failed)
        c.conflictReady.connect(self._on_conflict)
        c.conflictFailed.connect(self._on_conflict_failed)
        c.progress.connect(self._on_progress)
        c.cancelled.connect(self._on_cancelled)

    def _build_shared_widgets(self) -> None:
        """What every tab shows: the history, the belief plot and the banner."""
        self.history = HistoryPanel(self.document)
        self.history.entrySelected.connect(self._on_history_selected)
        self.history.removeRequested.connect(self.remove_event)
        self.plot = self.make_plot()
        self.banner = Banner()
        self.banner.actionClicked.connect(self._banner_action)
        self.banner.linkActivated.connect(self._banner_link)
        self._banner_kind = ""
        self._conflict_base_text = ""
        self._error_details: Optional[tuple] = None   # (summary, traceback) of Details…

    def _connect_document(self) -> None:
        """Edits of the log: the why popup follows, the views follow, inference reruns."""
        d = self.document
        d.changed.connect(self._why_log_changed)
        d.documentReset.connect(self.close_why)
        for edit in (d.eventsInserted, d.eventsRemoved):
            edit.connect(self._on_events_edited)
        d.eventChanged.connect(self._on_event_replaced)
        d.setupReplaced.connect(self._on_setup_replaced)
        d.changed.connect(self.request_inference)

    def _start_checks(self) -> None:
        """The stale-numbers timer and the background check of a new entry."""
        # numbers still on screen while a computation runs longer than this are greyed
        self._stale_timer = QTimer(self, singleShot=True, interval=150)
        self._stale_timer.timeout.connect(self._stale_if_busy)
        # a computation longer than this shows its progress and a Cancel button in the banner
        self._progress_timer = QTimer(self, singleShot=True, interval=PROGRESS_AFTER_MS)
        self._progress_timer.timeout.connect(self._show_progress)
        self._progress = (0, 0)
        self.check_runner = self.make_runner("check")
        self.check_runner.resultReady.connect(self._on_checked)
        self.check_runner.failed.connect(self._on_check_failed)
        self._check: Optional[tuple] = None     # the entry being checked
        self._checks: list[tuple] = []          # entries waiting for their check

    # -- what the controller holds (read-only views for the tab's code) --------------------
    @property
    def document(self) -> SessionDocument:
        return self.controller.document

    @property
    def runner(self) -> JobRunner:
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

    def log_plots(self) -> list:
        """The plots that show the log's beliefs (cleared when another game is opened);
        override to add a tab's own (simulation plots are not among them)."""
        return [self.plot]

    def show_cancelled(self) -> None:
        """Called after Cancel stopped the tab's jobs (the numbers are already greyed by
        :meth:`show_stale`): override to replace what says "computing…" with "not computed",
        since nothing computes until the next change or Compute."""

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

    def show_stale(self, stale: bool = True) -> None:
        """Grey the beliefs on screen while newer ones are computed (``stale=False``: undo it).

        The default greys every worksheet heat map of the tab; override to also relabel what
        describes the numbers (call the base). Called when a computation takes longer than a
        moment, and at once by tabs whose method changed."""
        from desktop.widgets.worksheet import ProbabilityTableModel, WorksheetView

        for view in self.findChildren(WorksheetView):
            model = view.model()
            if isinstance(model, ProbabilityTableModel):
                model.set_stale(stale)

    @Slot()
    def _stale_if_busy(self) -> None:
        if self.controller.runner.is_busy():
            self.show_stale(True)

    def events_changed(self) -> None:
        """Called when events were logged, removed or replaced (also by undo/redo), before the
        new beliefs are asked for: update views that show the log itself (forms' defaults)."""

    def setup_changed(self) -> None:
        """Called when the setup was replaced with the events kept (an option, or its undo):
        by default the setup-dependent views are rebuilt (:meth:`reset_views`)."""
        self.reset_views()

    # -- actions -----------------------------------------------------------------------
    def log_event(self, event: Any) -> bool:
        """Append ``event`` to the log (undoable) — the one way facts enter the document.
        False (with a warning) when the log is full (:meth:`SessionDocument.log_limit`)."""
        full = self.document.log_limit()
        if full:
            self.warn("Cannot log this", full[0].upper() + full[1:] + ".")
            return False
        self.history.select_live()
        self.controller.log_event(event)
        return True

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
        """Log ``event`` unless it contradicts the log: the check (``Timeline.check``: the
        engine's ``contradiction`` where it has one, else the posterior after log + event) runs
        as a task of the controller, which Cancel stops (it may run ``infer``); then the event
        is logged (one undoable command) and ``logged()`` called, or ``refused(reason)`` is
        called (default: a warning naming the reason) and nothing is logged. Entries made while
        a check runs are checked after it, in order, each against the log before it."""
        full = self.document.log_limit()
        if full:   # said at once, before any check
            if refused is not None:
                refused(full)
            else:
                self.warn("Not logged", full[0].upper() + full[1:] + ".")
            return
        self._checks.append((event, refused, logged))
        if self._check is None:
            self._next_check()

    def _next_check(self) -> None:
        while self._checks and self._check is None:
            event, refused, logged = self._checks.pop(0)
            in_order = getattr(self.module, "timeline_in_order", None)  # optional (CONTRACT.md)
            if in_order is not None and in_order(self.document.setup):
                # a state too large to copy (Egghead, 6 players): a check would take minutes;
                # the contradiction banner reports an impossible entry
                if self.log_event(event) and logged:
                    logged()
                continue
            setup, events = self.document.setup, tuple(self.document.events)
            self._check = (event, refused, logged, setup, events)
            self.check_runner.submit(functools.partial(
                _check_job, self.controller.current_timeline(), events, event))

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
        elif self.log_event(event) and logged:
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
        """Put :attr:`quick_entry` where the banner sits in the tab's top layout (every tab gets
        it from here; the banner then floats over what follows, not over the line) and bind
        Ctrl+L and / to it."""
        root = self.layout()
        at = root.indexOf(self.banner) if root is not None else -1
        if root is not None and hasattr(root, "insertWidget"):
            root.insertWidget(at if at >= 0 else 0, self.quick_entry)
        for key in ("Ctrl+L", "/"):
            sc = QShortcut(QKeySequence(key), self)
            sc.setContext(Qt.WindowShortcut)   # only the visible tab's shortcut is active
            sc.activated.connect(self.quick_entry.focus)
            sc.setWhatsThis("Type an event in quick entry")   # listed by F1 (desktop.shortcuts)

    @Slot(object, bool)
    def _on_quick_entered(self, event: Any, force: bool) -> None:
        qe = self.quick_entry
        if force:
            if self.log_event(event):
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
        self._banner_kind = ""
        self._checks.clear()          # entries of the old game are not logged into the new
        self._check = None
        self.check_runner.cancel()
        if self.quick_entry is not None:
            self.quick_entry.show_logged()
        self.controller.reset(setup, events, meta, path)
        # the old game's lines must not stand for the new one while its beliefs are computed
        # (or if that is cancelled)
        for plot in self.log_plots():
            plot.set_series({})
            plot.set_marker(None)
        self.reset_views()
        self.request_inference()

    def load_session(self, data, path: Optional[str]) -> None:
        self.reset_document(data.setup, data.events, data.meta, path)

    @Slot()
    def request_inference(self, *_args) -> None:
        self.controller.request_inference()
        self.statusMessage.emit(f"{self.title()}: computing…")
        self._stale_timer.start()
        self._progress = (0, 0)
        if self._banner_kind == "cancelled":
            self._banner_kind = ""
            self.banner.clear()
        self._progress_timer.start(PROGRESS_AFTER_MS)

    # -- a long computation: progress, Cancel ------------------------------------------------
    def cancel_computation(self) -> None:
        """Stop the tab's background work (the Cancel button of the progress banner): the log
        stays open and editable, the banner says the beliefs are not computed (its Compute
        button, or any change, asks for them again). An entry being checked is checked again."""
        self.controller.cancel_computation()
        if self._check is not None:
            self._checks.insert(0, self._check[:3])
            self._check = None
            self._next_check()

    @Slot(int, int)
    def _on_progress(self, done: int, total: int) -> None:
        self._progress = (done, total)
        if self._banner_kind == "progress" and not self._progress_timer.isActive():
            # at most a few updates a second, text only: a restyled banner or a status-bar
            # message relayouts the window, and every Python call that makes waits for the
            # GIL the computation holds
            self._progress_timer.start(PROGRESS_UPDATE_MS)

    @Slot()
    def _show_progress(self) -> None:
        if not self.controller.runner.is_busy() or self._banner_kind not in ("", "progress") \
                or (self._banner_kind == "" and self.banner.message()):
            return      # an error, or a tab's own message, stays
        done, total = self._progress
        count = f": {done:,} of {total:,} log prefixes" if total > 1 else ""
        text = f"Computing the beliefs{count}… The log can be edited meanwhile."
        if self._banner_kind == "progress":
            self.banner.set_text(text)
            return
        self._banner_kind = "progress"
        self.banner.show_message(text, "info", "Cancel")
        self.statusMessage.emit(f"{self.title()}: computing… (Cancel in the banner)")

    @Slot()
    def _on_cancelled(self) -> None:
        self._stale_timer.stop()
        self._progress_timer.stop()
        self.show_stale(True)
        self.show_cancelled()
        if self._banner_kind in ("", "progress", "cancelled"):
            self._banner_kind = "cancelled"
            self.banner.show_message(
                "<b>Beliefs not computed</b>: the computation was cancelled. The log is open and "
                "can be edited; numbers on screen are not its beliefs. Any change, or Compute, "
                "computes them again.", "warning", "Compute")
        self.statusMessage.emit(f"{self.title()}: cancelled — beliefs not computed")

    def make_runner(self, name: str) -> JobRunner:
        """A further background runner (recommendations, simulations), shut down with the tab."""
        return self.controller.make_runner(name)

    def is_busy(self) -> bool:
        """True while any of the tab's runners has pending work."""
        return self.controller.is_busy()

    # -- the document's fine-grained signals ------------------------------------------------
    @Slot(int, int)
    def _on_events_edited(self, _first: int, _count: int) -> None:
        self.events_changed()

    @Slot(int)
    def _on_event_replaced(self, _index: int) -> None:
        self.events_changed()

    @Slot()
    def _on_setup_replaced(self) -> None:
        self.setup_changed()

    # -- results ------------------------------------------------------------------------
    @Slot(int, object, float)
    def _on_result(self, revision: int, timeline: TimelineResult, seconds: float) -> None:
        self._stale_timer.stop()
        self._progress_timer.stop()
        self.show_stale(False)
        err = timeline.error
        if isinstance(err, ContradictionError):
            self.history.set_contradiction(err.event_index)
            self._show_error(err)
            self._explain_conflict(err)
        elif err is not None:
            self.history.set_contradiction(None)
            self._clear_conflict()
            self._show_error(err)
        else:
            self.history.set_contradiction(None)
            self._clear_conflict()
            if self._banner_kind in ("error", "contradiction", "progress", "cancelled"):
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
        self._why_refresh()
        self.inferenceDone.emit(revision)

    @Slot(int, object)
    def _on_failed(self, revision: int, exc: Exception) -> None:
        self._stale_timer.stop()
        self._progress_timer.stop()
        self.show_stale(False)
        self._show_error(exc)
        self.inferenceDone.emit(revision)

    def _show_error(self, exc: Exception) -> None:
        if isinstance(exc, ContradictionError):
            self._banner_kind = "contradiction"
            where = "the setup" if exc.event_index < 0 else f"entry {exc.event_index + 1}"
            self.banner.show_message(
                f"<b>Impossible log</b>: {esc(exc.message)} — no world is consistent after {where}. "
                f"The beliefs shown are from before it. Undo (Ctrl+Z) or remove that entry.",
                "error", "Undo" if self.document.undo_stack.canUndo() else "")
            self.statusMessage.emit(f"Contradiction at {where}")
        elif isinstance(exc, EngineError):
            self._banner_kind = "error"
            self.banner.show_message(f"<b>Cannot compute</b>: {esc(exc)}", "error")
            self.statusMessage.emit(str(exc))
        else:
            self._banner_kind = "error"
            self._error_details = (f"{type(exc).__name__}: {exc}",   # logged by the runner
                                   getattr(exc, "detail", "") or repr(exc))
            self.banner.show_message(f"<b>Internal error</b> in the {self.title()} engine: "
                                     f"{type(exc).__name__}: {esc(exc)}. Your log is safe; "
                                     f"please report this.", "error", "Details…")
            self.statusMessage.emit(f"Internal error: {exc}")

    # -- a contradiction explained: the entries that cannot all be true together ----------
    def _explain_conflict(self, err: ContradictionError) -> None:
        """Name an irreducible set of entries that cannot all be true together in the banner
        (``explain_contradiction`` in the background; the first impossible entry meanwhile)."""
        if isinstance(err, ConflictError):
            self._show_conflict(err.entries)
            return
        if not self.controller.can_explain():
            return
        entries = self.controller.request_conflict()
        if entries is not None:
            self._show_conflict(entries)
            return
        self._conflict_base_text = self.banner.message()
        self.banner.show_message(self._conflict_base_text + " <i>Looking for the entries that "
                                 "cannot all be true together…</i>", "error", self._undo_label())

    def _clear_conflict(self) -> None:
        self.controller.cancel_conflict()
        self.history.set_conflict(())

    def _undo_label(self) -> str:
        return "Undo" if self.document.undo_stack.canUndo() else ""

    def _show_conflict(self, entries) -> None:
        if self._banner_kind != "contradiction":
            return
        doc = self.document
        self.history.set_conflict(entries)

        def describe(i):
            return doc.module.describe_event(doc.setup, doc.events[i])
        from desktop.widgets.diagnosis import banner_html   # corrections first, if any
        self.banner.show_message(banner_html(entries, describe) or conflict_html(entries, describe),
                                 "error", self._undo_label())
        if entries:
            self.statusMessage.emit("Impossible log: entries " + ", ".join(
                f"#{i + 1}" for i in entries) + " cannot all be true together")

    @Slot(object)
    def _on_conflict(self, entries) -> None:
        if entries is None:
            self._on_conflict_failed(None)
        else:
            self._show_conflict(entries)

    @Slot(object)
    def _on_conflict_failed(self, exc) -> None:
        if self._banner_kind == "contradiction" and self._conflict_base_text:
            self.banner.show_message(self._conflict_base_text, "error", self._undo_label())
        if exc is not None:
            self.statusMessage.emit(f"Cannot name the conflicting entries: "
                                    f"{getattr(exc, 'message', exc)}")

    @Slot(str)
    def _banner_link(self, href: str) -> None:
        from desktop.widgets.diagnosis import handle_link   # "fix" / "remove" a mistyped entry
        if handle_link(self, href):
            return
        i = parse_entry_link(href)
        if i is not None and 0 <= i < len(self.document.events):
            self.history.select_event(i)

    # -- Why? (engines.core.explain; the popup: desktop.widgets.why) ------------------------
    def add_why_action(self, menu, fact: dict, subject: str, decided: bool = True,
                       label: str = "Why?"):
        """Add a Why? item to a cell's context menu: ``fact`` is the engine's fact object,
        ``subject`` the fact in words ("Bob has Rope"), ``decided`` whether the cell shows ✓ or
        ✗. Returns the QAction (None when the game has no explanations); pass the menu's
        chosen action to :meth:`why_chosen`."""
        if not self.controller.can_explain():
            return None
        acts = menu.actions()
        if acts and not acts[-1].isSeparator() and not isinstance(acts[-1].data(), dict):
            menu.addSeparator()
        act = menu.addAction(label if decided else f"{label} (not decided yet)")
        act.setData({"why_fact": dict(fact), "why_subject": subject})
        act.setToolTip("Which entries force this, and how")
        return act

    def why_chosen(self, chosen, pos=None) -> bool:
        """Open the Why? popup if ``chosen`` is an action of :meth:`add_why_action`; returns
        whether it was one."""
        data = chosen.data() if chosen is not None else None
        if isinstance(data, dict) and "why_fact" in data:
            self.show_why(data["why_fact"], data["why_subject"], pos)
            return True
        return False

    def show_why(self, fact: dict, subject: str, pos=None) -> None:
        """Open (or reuse) the Why? popup for ``fact`` and ask the controller for its
        explanation under the log as the views show it (the selected history entry, or the
        entries before a contradiction)."""
        if not self.controller.can_explain():
            return
        popup = self._why_popup
        if popup is None:
            popup = self._why_popup = WhyPopup(self)
            popup.entryClicked.connect(self._why_entry_clicked)
            popup.cancelRequested.connect(self.controller.cancel_explanation)
            popup.closed.connect(self._why_closed)
        doc = self.document
        n = len(doc.events)
        k = self._shown_prefix()
        scope = (f"Under the whole log ({n} entr{'y' if n == 1 else 'ies'})." if k == n else
                 f"As after entry {k} of {n} (the beliefs shown).")
        self._why_request = (dict(fact), subject)
        self._why_log = (doc.setup, tuple(doc.events))
        self.history.set_explained(())
        popup.start(fact, subject, scope)
        if pos is not None and not popup.isVisible():
            popup.place_near(pos)
        popup.show()
        popup.raise_()
        self.controller.explain(fact, k)

    def why_popup(self) -> Optional[WhyPopup]:
        """The Why? popup (None before the first Why?)."""
        return self._why_popup

    def close_why(self) -> None:
        """Close the Why? popup (clears the History highlight)."""
        if self._why_popup is not None and self._why_popup.isVisible():
            self._why_popup.close()
        self._why_closed()

    def hideEvent(self, event) -> None:  # noqa: N802 (Qt name)
        """Another tab was selected: its Why? popup would point into a hidden History."""
        self.close_why()
        super().hideEvent(event)

    def _shown_prefix(self) -> int:
        """How many events the shown beliefs are under: the selected history entry, else the
        whole log (the entries before a contradiction when the log is impossible)."""
        n = len(self.document.events)
        tl = self.timeline
        last = n
        if tl is not None and tl.error is not None and tl.posteriors:
            last = min(n, len(tl.posteriors) - 1)
        k = self.controller.view_index
        return last if k < 0 or k > last else k

    @Slot(object)
    def _on_explanation(self, result) -> None:
        popup = self._why_popup
        if popup is None or not popup.isVisible() or self._why_request is None \
                or result.fact != self._why_request[0]:
            return
        doc = self.document
        popup.show_explanation(result.explanation,
                               lambda i: doc.module.describe_event(doc.setup, doc.events[i]))
        self.history.set_explained(result.explanation.because)
        self.statusMessage.emit(f"Why? answered in {result.seconds * 1000:.0f} ms")

    @Slot(object)
    def _on_explanation_failed(self, exc) -> None:
        popup = self._why_popup
        if popup is None or not popup.isVisible():
            return
        if isinstance(exc, ContradictionError):
            text = f"The log is impossible: {exc}"
        elif isinstance(exc, SessionFormatError):
            text = exc.message
        elif isinstance(exc, EngineError):
            text = str(exc)
        else:
            text = (f"Internal error in the {self.title()} engine: {type(exc).__name__}: {exc}. "
                    f"Your log is safe; please report this.")
        popup.show_error(text)

    @Slot()
    def _why_closed(self) -> None:
        self.history.set_explained(())
        self.controller.cancel_explanation()
        self._why_request = None
        self._why_log = None

    @Slot(int)
    def _why_entry_clicked(self, index: int) -> None:
        if 0 <= index < len(self.document.events):
            self.history.select_event(index)

    @Slot()
    def _why_log_changed(self, *_args) -> None:
        """The log changed: the highlighted indices are stale until the next result."""
        self.history.set_conflict(())
        if self._why_request is not None and self._why_popup is not None \
                and self._why_popup.isVisible():
            self.history.set_explained(())
            fact, subject = self._why_request
            self._why_popup.start(fact, subject, "The log changed: updating…")

    def _why_refresh(self) -> None:
        """After new beliefs: explain the open popup's fact again if the log changed."""
        doc = self.document
        if self._why_request is not None and self._why_popup is not None \
                and self._why_popup.isVisible() and self._why_log != (doc.setup, tuple(doc.events)):
            self.show_why(*self._why_request)

    def _banner_action(self) -> None:
        if self._banner_kind == "progress":
            self.cancel_computation()
            return
        if self._banner_kind == "cancelled":
            self.request_inference()
            return
        if self._banner_kind == "contradiction" and self.document.undo_stack.canUndo():
            self.document.undo_stack.undo()
        if self._banner_kind == "error" and self._error_details is not None:
            from desktop.errors import show_error_details

            summary, details = self._error_details   # the traceback of the failed job
            self.error_dialog = show_error_details(self, "Internal error", summary, details)

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
        if self._why_popup is not None:
            self._why_popup.close()
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
        QMessageBox.warning(self, title, as_rich_plain(text))


def _check_job(timeline: Timeline, events: tuple, event, task) -> Optional[str]:
    return timeline.check(events, event, cancel=task)   # Cancel stops it
