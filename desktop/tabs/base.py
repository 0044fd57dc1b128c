"""The base class of every game tab: the views of one :class:`GameController`.

A game tab subclasses :class:`GameTab` and implements the hooks marked "subclass". The tab only
renders the :class:`desktop.tabs.snapshot.Snapshot` its :attr:`controller` publishes (the controller
owns the document, the timeline, every task and the selected entry): :meth:`GameTab._render`
draws banner, History marks, beliefs, plot, advice and Why? in one pass, so every text of the
tab speaks of one moment. Parts: :mod:`desktop.tabs.banner_state`, :mod:`desktop.tabs.why_view`,
:mod:`desktop.tabs.quick_entry_wiring`, :mod:`desktop.tabs.checks`.
"""
from __future__ import annotations

import dataclasses
import inspect
import threading
import time
from typing import Any, Callable, Optional

from PySide6.QtCore import QCoreApplication, QEvent, QPoint, QTimer, Signal, Slot
from PySide6.QtWidgets import QMessageBox, QWidget

from desktop.shell.locale_format import number
from desktop.shell.process import NEXT_TURN_MS
from desktop.tabs.banner_state import BannerPresenter
from desktop.tabs.controller import GameController
from desktop.tabs.diagnosis import handle_link
from desktop.tabs.jobs import JobRunner, Priority, worker_gate
from desktop.tabs.quick_entry_wiring import make_quick_entry, place_quick_entry
from desktop.tabs.snapshot import Snapshot, Status
from desktop.tabs.why_view import WhyView
from desktop.widgets.accessible import name_controls
from desktop.widgets.banner import Banner
from desktop.widgets.belief_plot import BeliefPlot
from desktop.widgets.focus_order import follow_layout
from desktop.widgets.history import HistoryPanel
from desktop.widgets.plain_text import as_rich_plain
from desktop.widgets.why import WhyPopup
from engines import game_module
from engines.core.errors import SessionFormatError
from engines.core.i18n import _

#: While the worker gate is closed by a file's opening turns, work put off until it opens
#: (the Tab order's walk) looks again this often (ms): the open's turns last 50-500 ms.
GATE_RETRY_MS = 20


class GameTab(QWidget):
    """One game's tab. Subclasses set :attr:`GAME` and implement the hooks.

    Signals:
        statusMessage(str): text for the main window's status bar.
        inferenceDone(int revision): the beliefs for ``revision`` (or its error) are shown.
        exportFinished(str path, str error): a CSV export finished ("" on success).
    """

    GAME = ""
    #: Compute the posterior after every prefix (plot, History); False: the whole log only,
    #: an earlier entry's beliefs on demand (a timeline whose states are too large to copy).
    FULL_TIMELINE = True
    #: Longest wait (s) of a new plot for the tab's beliefs and ranking.
    PLOT_WAIT_S = 1.0

    statusMessage = Signal(str)
    inferenceDone = Signal(int)
    exportFinished = Signal(str, str)

    def __init__(self, parent=None, *, staged: bool = False):
        """Build the tab: at once, or with ``staged`` nothing yet, a part at a time by
        :meth:`build_step` (:meth:`finish_build` runs what is left): the main window
        builds a tab that way, a part per turn of the event loop, so that building it (80-130
        ms of the GUI thread) is not one long stall (tests/benchmarks/bench_open_stall.py)."""
        super().__init__(parent)
        self._build_parts = self._parts()
        if not staged:
            self.finish_build()

    @property
    def built(self) -> bool:
        """True once every part of the tab is built."""
        return self._build_parts is None

    def build_step(self) -> bool:
        """Build the next part of the tab; False once the tab is built (nothing was left)."""
        if self._build_parts is None:
            return False
        try:
            next(self._build_parts)
        except StopIteration:
            self._build_parts = None
            return False
        return True

    def finish_build(self) -> None:
        """Build every part of the tab not built yet."""
        while self.build_step():
            pass

    def _parts(self):
        """The tab's build, as a generator: it yields between parts, each a turn of the event
        loop of its own when the build is staged; a :meth:`build_ui` that yields (a generator
        function) is built a part at a time too."""
        self.module = game_module(self.GAME)
        self.controller = GameController(self.module, full_timeline=self.FULL_TIMELINE,
                                         parent=self)
        # the engine's modules imported, the views made, the rest: a turn each (the first
        # tab's engine imports 12-17 ms, its plot 15 ms; the three were one 32-45 ms turn)
        yield
        self._snapshot = Snapshot()
        self._worded: list[tuple[Callable[[str], None], str, str]] = []
        self.history = HistoryPanel(self.controller.document)
        self.history.entrySelected.connect(self.controller.select)
        self.history.removeRequested.connect(self._remove_from_history)
        self.plot = self.make_plot()
        yield
        # the plot of a new timeline is drawn after the snapshot's repaint (Qt delivers paints
        # before timers) and after the ranking, which the plot would hold up on this thread:
        # it waits while the tab's beliefs or ranking are computed, at most PLOT_WAIT_S
        self._plot_due: Optional[Snapshot] = None
        self._plot_since = 0.0
        self._plot_timer = QTimer(self)
        self._plot_timer.setSingleShot(True)
        self._plot_timer.setInterval(0)
        self._plot_timer.timeout.connect(self._draw_due_plot)
        # rich text carries its colours in its markup (desktop.shell.appearance.tone): after a change
        # of palette (a live switch of the colour scheme) the snapshot on screen is drawn again
        self._retone_timer = QTimer(self)
        self._retone_timer.setSingleShot(True)
        self._retone_timer.setInterval(0)
        self._retone_timer.timeout.connect(self._retone)
        self.banner = Banner()
        self.banner_view = BannerPresenter(
            self.banner, self.title(), self._describe, self.controller.document.undo_stack.canUndo,
            self.show_stale, self)
        self.banner_view.computeRequested.connect(self.request_inference)
        self.banner_view.cancelRequested.connect(self.cancel_computation)
        self.banner_view.undoRequested.connect(self.controller.document.undo_stack.undo)
        self.banner_view.linkClicked.connect(lambda href: handle_link(self, href))   # fix
        self.banner_view.statusMessage.connect(self.statusMessage)
        self.why = WhyView(self)
        self.why.statusMessage.connect(self.statusMessage)
        self.banner_view.entryClicked.connect(self.why.select_entry)
        self._connect_controller()
        self._connect_document()
        self._focus_order_due = False
        self.quick_entry = make_quick_entry(self)
        yield
        parts = self.build_ui()
        if inspect.isgenerator(parts):
            yield from parts
        yield
        place_quick_entry(self)        # above the banner's place in the layout
        name_controls(self)            # screen readers: each control named by its label
        follow_layout(self)            # the Tab key goes through the controls as they stand
        self.request_inference()

    def _connect_controller(self) -> None:
        c = self.controller
        c.snapshotChanged.connect(self._render)
        c.progress.connect(self.banner_view.on_progress)
        c.statusMessage.connect(self.statusMessage)
        c.exportFinished.connect(self.exportFinished)
        c.checks.refused.connect(self.warn)

    def _connect_document(self) -> None:
        """Views of the log itself (forms' defaults) follow its edits; the controller listens
        to the document by itself for the beliefs."""
        d = self.controller.document
        for edit in (d.eventsInserted, d.eventsRemoved):
            edit.connect(lambda *_a: self.events_changed())
        d.eventChanged.connect(lambda *_a: self.events_changed())
        d.setupReplaced.connect(self.setup_changed)
        d.eventsInserted.connect(self.events_inserted)
        d.documentReset.connect(self.close_why)
        d.documentReset.connect(self.document_reset)

    # -- what the controller holds (read-only views for the tab's code) --------------------
    @property
    def snapshot(self) -> Snapshot:
        """The moment on screen (:class:`desktop.tabs.snapshot.Snapshot`)."""
        return self._snapshot

    @property
    def view_index(self) -> int:
        """The selected history entry: -1 live, k the beliefs after the first k events."""
        return self.controller.view_index

    # -- subclass hooks --------------------------------------------------------------------
    def title(self) -> str:
        """The game's title in the language in effect (``"Wer ist es?"``)."""
        return _(self.module.TITLE)

    def make_plot(self) -> BeliefPlot:
        """The tab's belief plot (override to change title, axis, scale)."""
        return BeliefPlot()

    def build_ui(self) -> None:  # subclass
        """Build the tab's widgets; place :attr:`history`, :attr:`plot` and :attr:`banner`.
        It may be a generator function that yields between parts of the tab (each part then
        a turn of the event loop of its own when the main window builds the tab)."""
        raise NotImplementedError

    def inference_options(self) -> dict:
        """Keyword arguments for ``engine.infer`` (e.g. ``{"method": "exact"}``), read when
        :meth:`request_inference` is called and handed to the controller as a value."""
        return {}

    def show_posterior(self, snap: Snapshot) -> None:  # subclass
        """Show the beliefs of the moment ``snap`` (``snap.posterior``, after the first
        ``snap.k`` events) in the tab's views; everything drawn comes from ``snap``."""
        raise NotImplementedError

    def show_moment(self, snapshot: Snapshot) -> None:
        """Called after every snapshot is drawn: show what else it carries (advice, a scope
        line). Everything shown must be of ``snapshot``'s moment or say "now"."""

    def log_plots(self) -> list:
        """The plots that show the log's beliefs (cleared when another game is opened)."""
        return [self.plot]

    def show_cancelled(self) -> None:
        """Called after Cancel stopped the tab's jobs: replace what says "computing…" with
        "not computed", since nothing computes until the next change or Compute."""

    def clear_beliefs(self) -> None:
        """Called when no posterior can be shown (e.g. the setup itself is impossible)."""

    def plot_series(self, snap: Snapshot) -> dict:
        """Series for the belief plot from the snapshot's timeline (``snap.timeline``): name ->
        value after each event (the plots draw the whole log; the marker shows the moment)."""
        return {}

    def status_text(self, snap: Snapshot) -> str:
        """The status-bar line of the live moment ``snap`` (its posterior and its seconds)."""
        return _("{game}: updated in {ms} ms").format(game=self.title(), ms=number(snap.seconds * 1000))

    def new_game(self) -> bool:  # subclass
        """Ask for a new game's setup (a dialog) and reset the document; False if cancelled."""
        return False

    def reset_views(self) -> None:
        """Called after the setup changed (New game, Open): rebuild setup-dependent views."""

    def show_stale(self, stale: bool = True) -> None:
        """Grey the beliefs on screen while newer ones are computed (``stale=False``: undo it).
        The default greys every worksheet heat map of the tab; override to also relabel what
        describes the numbers (call the base)."""
        from desktop.widgets.worksheet import ProbabilityTableModel, WorksheetView

        for view in self.findChildren(WorksheetView):
            model = view.model()
            if isinstance(model, ProbabilityTableModel):
                model.set_stale(stale)

    def events_changed(self) -> None:
        """Called when events were logged, removed or replaced (also by undo/redo): update
        views that show the log itself (forms' defaults)."""

    def events_inserted(self, first: int, count: int) -> None:
        """Called when ``count`` entries were inserted at ``first`` (logged, or a removal
        undone), after :meth:`events_changed`."""

    def document_reset(self) -> None:
        """Called after New game / Open replaced the setup and the log (not undoable)."""

    def setup_changed(self) -> None:
        """Called when the setup was replaced with the events kept (an option, or its undo):
        by default the setup-dependent views are rebuilt (:meth:`reset_views`)."""
        self.reset_views()

    # -- wording (desktop.tabs.wording) ----------------------------------------------------------
    def worded(self, setter: Callable[[str], None], plain: str, details: str) -> None:
        """A fixed text of the tab (a title, a label, a tooltip) that reads ``plain`` by default
        and ``details`` in the Details view: ``setter`` is called with the one the published
        snapshot's wording picks, now and at every change of wording."""
        self._worded.append((setter, plain, details))
        setter(self._snapshot.wording.pick(plain, details))

    def wording_changed(self, wording) -> None:
        """Called before a snapshot with another wording is drawn again: change what
        :meth:`worded` does not cover (a table's columns). Default: nothing."""

    # -- rendering the snapshot ----------------------------------------------------------
    @Slot(object)
    def _render(self, snap: Snapshot, force: bool = False) -> None:
        """Draw ``snap``: banner, History marks, beliefs, plot, status, then the tab's own."""
        prev, self._snapshot = self._snapshot, snap
        if snap.wording != prev.wording:      # every text is worded again from the snapshot
            for setter, plain, details in self._worded:
                setter(snap.wording.pick(plain, details))
            self.wording_changed(snap.wording)
            force = True
        self.banner_view.render(snap)
        self.history.set_contradiction(snap.contradiction_index
                                       if snap.status is Status.CONTRADICTION else None)
        self.history.set_conflict(snap.conflict or ())
        moved = force or snap.posterior is not prev.posterior or snap.k != prev.k \
            or snap.n != prev.n or snap.status is not prev.status
        if snap.posterior is not None and moved:
            try:
                self.show_posterior(snap)
            except Exception as exc:  # noqa: BLE001 - never the app's crash: a view's fault shown in the banner
                self.banner_view.render(snap.replace(status=Status.ERROR, error=exc))
            else:
                self._show_beliefs_now()
                self.controller.beliefs_shown()
                self.show_beside_posterior(snap)
        elif snap.posterior is None and snap.timeline is not None \
                and not snap.timeline.posteriors and moved:
            self.clear_beliefs()
        if snap.timeline is not None and (force or snap.timeline is not prev.timeline):
            if self._plot_due is None:
                self._plot_since = time.monotonic()
            self._plot_due = snap
            self._plot_timer.start(0)
        if snap.selected != prev.selected or snap.k != prev.k:
            self.plot.set_marker(None if snap.selected < 0 else snap.k)
        if snap.selected != prev.selected:
            self.history.show_selected(snap.selected)     # the controller's selection, shown
        if snap.status is Status.CANCELLED and prev.status is not Status.CANCELLED:
            self.show_cancelled()
        self._status_line(snap, prev)
        if force and snap.wording != prev.wording and snap.status is Status.READY:
            self.statusMessage.emit(self.moment_status())     # the status line, reworded too
        self.show_moment(snap)
        if snap.advice and (force or snap.advice != prev.advice):
            self._paint_now(self.advice_views())
        if self.why.popup is not None:
            self.why.render(snap)
        if not snap.busy and (prev.busy or prev.revision != snap.revision):
            self.inferenceDone.emit(snap.revision)

    def changeEvent(self, event) -> None:  # noqa: N802 (Qt name)
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange):
            self._retone_timer.start()     # once, however many palette events arrive
        super().changeEvent(event)

    @Slot()
    def _retone(self) -> None:
        """Draw the published snapshot again, so that the colours written into rich text
        (:func:`desktop.shell.appearance.tone`) are those of the palette now in use."""
        if self._snapshot.timeline is not None:
            self._render(self._snapshot, force=True)

    def show_beside_posterior(self, snap: Snapshot) -> None:
        """What the tab shows beside the beliefs of moment ``snap.k`` and derives from them (Cluedo:
        who is close to solving), drawn after the worksheet is painted (default: nothing)."""

    def beliefs_views(self) -> list:
        """The widgets that show the beliefs (the worksheet; a game's tab overrides this):
        painted at once when a new posterior is shown, before the tab's other panes and the
        queued work of the event loop (default: none, they paint with the rest)."""
        return []

    def advice_views(self) -> list:
        """The widgets that show an advisor's result (the ranked suggestions or questions; a
        game's tab overrides this): painted at once when new advice is shown (default: none)."""
        return []

    def _paint_beliefs_now(self) -> None:
        """Paint :meth:`beliefs_views` now (``QWidget.repaint``, synchronous), so the worksheet
        shows an entry's beliefs without waiting for the window's next update pass."""
        self._paint_now(self.beliefs_views())

    def _show_beliefs_now(self) -> None:
        """Put the new beliefs on screen: the layout changes pending first (the progress banner
        gone, a label's new text), then :meth:`_paint_beliefs_now`, which so paints the panes
        where they end. Done after the delivery, the layout moved the panes and the window was
        painted a second time in the same turn of the event loop (12-13 ms of the GUI thread
        each for a Cluedo custom deck of 10 players, tests/benchmarks/bench_open_stall.py).

        When the layout moved a view of the beliefs, the whole window below it is to be
        painted (16 ms in that case): that paint comes in a turn of the event loop of its own,
        right after this one (:meth:`MainWindow.paint_next_turn`), not in the delivery's."""
        if not self.isVisible():
            return
        window = self.window()
        views = [v for v in self.beliefs_views() if v.isVisible()]
        before = [v.mapTo(window, QPoint(0, 0)) for v in views]
        QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        moved = [v.mapTo(window, QPoint(0, 0)) for v in views] != before
        if moved and hasattr(window, "paint_next_turn"):
            window.paint_next_turn()
        else:
            self._paint_beliefs_now()

    def _paint_now(self, views: list) -> None:
        """Paint ``views`` (widgets, or scroll areas by their viewport) now, in one pass of the
        window's backing store: each is marked for an update and the last is repainted, which
        sends the window one synchronous update request that paints every region marked
        (``QWidget.repaint``; Qt's ``QWidgetRepaintManager::sync``). A repaint per view was a
        pass each, with its flush to the screen: 24 for a Guess Who board whose cards all
        changed."""
        if not self.isVisible():
            return
        targets = [t for t in (w.viewport() if hasattr(w, "viewport") else w for w in views)
                   if t.isVisible()]
        if not targets:
            return
        for target in targets[:-1]:
            target.update()
        targets[-1].repaint()

    def _draw_due_plot(self) -> None:
        """Draw the plot of the last snapshot with a new timeline (see ``__init__``), its
        marker at the moment on screen now."""
        if self._plot_due is None:
            return
        left = self.PLOT_WAIT_S - (time.monotonic() - self._plot_since)
        if self.controller.priorities.urgent_pending(Priority.ADVICE) and left > 0:
            # the ranking first: drawn when the tab's urgent work ends, at the latest after
            # PLOT_WAIT_S
            self.controller.priorities.call_when_settled(self._plot_settled)
            self._plot_timer.start(max(1, int(left * 1000)))
            return
        due, self._plot_due = self._plot_due, None
        now = self._snapshot
        # the tab's less urgent jobs (Cluedo's turn advice and who is close) pause at their
        # next poll meanwhile, as for a paint: pyqtgraph's drawing is Python, and beside two
        # such jobs a Cluedo plot of 18 ms took 40 ms of the event loop
        # (tests/benchmarks/bench_open_stall.py)
        with worker_gate.hold():
            self._draw_plot(due.replace(selected=now.selected, k=now.k))

    def _plot_settled(self) -> None:
        """Some urgent work of the tab ended: check again whether the plot may be drawn."""
        if self._plot_due is not None and threading.current_thread() is threading.main_thread():
            self._plot_timer.start(0)

    def _draw_plot(self, snap: Snapshot) -> None:
        try:
            self.plot.set_series(self.plot_series(snap))
        except Exception as exc:  # noqa: BLE001 - a plot must never take the tab down
            self.statusMessage.emit(_("plot: {reason}").format(reason=exc))
        self.plot.set_marker(None if snap.selected < 0 else snap.k)

    def moment_status(self) -> str:
        """The status-bar line of the moment on screen ("" while nothing is computed)."""
        snap = self._snapshot
        if snap.status is not Status.READY:
            return ""
        if snap.live:
            return self.status_text(snap)
        return _("{game}: beliefs {scope}").format(game=self.title(), scope=snap.scope())

    def _status_line(self, snap: Snapshot, prev: Snapshot) -> None:
        if snap.status is Status.READY and (snap.posterior is not prev.posterior
                                            or snap.k != prev.k):
            self.statusMessage.emit(self.moment_status())
        elif snap.status is Status.COMPUTING and prev.revision != snap.revision:
            self.statusMessage.emit(_("{game}: computing…").format(game=self.title()))

    def _show_view(self) -> None:
        """Draw the beliefs of the snapshot again (benchmarks: the cost of a redraw)."""
        snap = self._snapshot
        if snap.posterior is not None:
            self.show_posterior(snap)
            self.show_beside_posterior(snap)
        self.plot.set_marker(None if snap.selected < 0 else snap.k)

    def _describe(self, i: int) -> str:
        return self.module.describe_event(self.controller.setup, self.controller.events[i])

    # -- actions -----------------------------------------------------------------------
    def log_event(self, event: Any) -> bool:
        """Append ``event`` to the log (undoable) — the one way facts enter the document.
        False (with a warning) when the log is full (:meth:`SessionDocument.log_limit`)."""
        full = self.controller.log_event(event)
        if full:
            self.warn(_("Cannot log this"), full[0].upper() + full[1:] + ".")
            return False
        return True

    def log_json(self, obj: dict, title: Optional[str] = None) -> bool:
        """Validate ``obj`` (an event as in a session file) with the engine and log it; bad
        input shows the engine's message naming the field. Returns whether it was logged."""
        event = self._event(obj, title)
        if event is None:
            return False
        self.log_event(event)
        return True

    def log_json_checked(self, obj: dict, title: Optional[str] = None,
                         logged: Optional[Callable[[], None]] = None) -> bool:
        """:meth:`log_json` for a form: validate ``obj``, then log it unless it contradicts the
        log (:meth:`log_checked`). Returns whether it was valid (the check runs in the
        background)."""
        event = self._event(obj, title)
        if event is None:
            return False
        self.log_checked(event, logged=logged)
        return True

    def _event(self, obj: dict, title: Optional[str]):
        try:
            return self.module.event_from_json(obj, self.controller.setup, "event")
        except SessionFormatError as exc:
            self.warn(title or _("Cannot log this"), exc.message)
            return None

    def log_checked(self, event: Any, refused: Optional[Callable[[str], None]] = None,
                    logged: Optional[Callable[[], None]] = None) -> None:
        """Log ``event`` unless it contradicts the log (:class:`desktop.tabs.checks.EntryChecks`: a
        cancellable task through the timeline); then ``logged()``, or ``refused(reason)``
        (default: a warning naming the reason) and nothing is logged. Entries made while a
        check runs are checked after it, in order, each against the log before it. A full log
        (:meth:`SessionDocument.log_limit`) refuses it when it is logged."""
        self.controller.log_checked(event, refused, logged)

    def replace_setup(self, text: str, merge_key: int = -1, **changes) -> bool:
        """Replace fields of the setup (``dataclasses.replace``), keeping the events (undoable).
        The new setup is validated by the engine as a session file's would be; a bad one shows
        the engine's message and changes nothing. Consecutive changes with the same
        ``merge_key`` (>= 0) are one undo step. Returns whether the setup was replaced."""
        setup = dataclasses.replace(self.controller.setup, **changes)
        try:
            self.module.Setup.from_json(setup.to_json(), "setup")
        except SessionFormatError as exc:
            self.warn(_("Cannot change the setup"), exc.message)
            return False
        self.controller.replace_setup(setup, text, merge_key)
        return True

    def remove_event(self, index: int) -> None:
        """Remove entry ``index`` (undoable) and show the beliefs now."""
        self.controller.remove_event(index)

    def replace_event(self, index: int, event: Any) -> None:
        """Replace entry ``index`` (undoable) and show the beliefs now."""
        self.controller.replace_event(index, event)

    @Slot(int)
    def _remove_from_history(self, index: int) -> None:
        """Remove entry ``index`` as the History asked: the moment shown stays unless it goes."""
        self.controller.remove_event(index, keep_moment=True)

    def reset_document(self, setup: Any, events=(), meta=(), path: Optional[str] = None) -> None:
        """New game / Open: another setup and log; the old game's lines leave the plots."""
        self.banner_view.clear()
        if self.quick_entry is not None:
            self.quick_entry.show_logged()
        self.controller.set_options(self.inference_options(), full_timeline=self.FULL_TIMELINE)
        self._plot_due = None           # the old game's plot is not drawn after this
        self.controller.reset(setup, events, meta, path)
        for plot in self.log_plots():
            plot.set_series({})
            plot.set_marker(None)
        self.reset_views()
        # controls made again for the new setup, in their place: in a turn of the event loop of
        # its own, after a file's open has ended (its turns hold the worker gate), so that a
        # long log's open (desktop.shell.file_actions) is not one long stall (a walk of the
        # tab's widgets, 5-30 ms, fell in the same pass as the open's next turn, both timers
        # due); NEXT_TURN_MS says why not a 0 ms single shot
        if not self._focus_order_due:
            self._focus_order_due = True
            QTimer.singleShot(NEXT_TURN_MS, self, self._follow_layout_now)

    @Slot()
    def _follow_layout_now(self) -> None:
        if worker_gate.closed():    # a file being shown: after its turns, not in one of them
            # looked at again every GATE_RETRY_MS, not every turn: a 1 ms retry woke the GUI
            # thread (and took the interpreter lock from the jobs) every millisecond of an open
            QTimer.singleShot(GATE_RETRY_MS, self, self._follow_layout_now)
            return
        self._focus_order_due = False
        with worker_gate.hold():        # a walk of hundreds of Qt calls: jobs pause meanwhile
            follow_layout(self)

    def load_session(self, data, path: Optional[str]) -> None:
        self.reset_document(data.setup, data.events, data.meta, path)

    @Slot()
    def request_inference(self, *_args) -> None:
        """Hand the options to the controller (as values) and compute the beliefs again."""
        self.controller.set_options(self.inference_options(), full_timeline=self.FULL_TIMELINE)
        self.controller.request_inference()

    def cancel_computation(self) -> None:
        """Stop the tab's background work (the Cancel button of the progress banner): the log
        stays open and editable, the banner says the beliefs are not computed (its Compute
        button, or any change, asks for them again)."""
        self.controller.cancel_computation()

    def make_runner(self, name: str, *, counted: bool = True, priority: int = 0) -> JobRunner:
        """A further background runner of the controller (simulations…), shut down with it;
        ``priority``: a :class:`desktop.tabs.jobs.Priority` (0: with the beliefs)."""
        return self.controller.make_runner(name, counted=counted, priority=priority)

    def is_busy(self) -> bool:
        """True while any of the tab's runners has pending work, or its plot waits to be
        drawn."""
        return self.controller.is_busy() or self._plot_due is not None

    # -- Why? (the popup: desktop.tabs.why_view) ------------------------------------------------
    def add_why_action(self, menu, fact: dict, subject: str, decided: bool = True,
                       label: Optional[str] = None):
        """Add a Why? item to a cell's context menu: ``fact`` is the engine's fact object,
        ``subject`` the fact in words ("Bob has Rope"), ``decided`` whether the cell shows ✓ or
        ✗. Returns the QAction (None when the game has no explanations); pass the menu's
        chosen action to :meth:`why_chosen`."""
        return self.why.add_action(menu, fact, subject, decided, _("Why?") if label is None else label)

    def why_chosen(self, chosen, pos=None) -> bool:
        """Open the Why? popup if ``chosen`` is an action of :meth:`add_why_action`."""
        return self.why.chosen(chosen, pos)

    def show_why(self, fact: dict, subject: str, pos=None) -> None:
        """Open the Why? popup for ``fact`` at the moment shown."""
        self.why.show(fact, subject, pos)

    def why_popup(self) -> Optional[WhyPopup]:
        """The Why? popup (None before the first Why?)."""
        return self.why.popup

    def close_why(self) -> None:
        """Close the Why? popup (clears the History highlight)."""
        self.why.close()

    def hideEvent(self, event) -> None:  # noqa: N802 (Qt name)
        """Another tab was selected: its Why? popup would point into a hidden History."""
        self.close_why()
        super().hideEvent(event)

    def shutdown(self) -> None:
        self.close_why()
        self.controller.shutdown()

    def export_history_csv(self, path: str) -> None:
        """Write the history with the beliefs after every event to ``path`` (CSV); emits
        ``exportFinished(path, error)`` (see :meth:`GameController.export_history_csv`)."""
        self.controller.export_history_csv(path)

    def exec_menu(self, menu, pos):
        """Show a context menu at ``pos`` and return the chosen QAction (tests replace this)."""
        return menu.exec(pos)

    @property
    def error_dialog(self):
        """The *Details…* dialog of an internal error last opened from the banner (or None)."""
        return self.banner_view.error_dialog

    def warn(self, title: str, text: str) -> None:
        """A modal warning naming what is wrong (bad form input)."""
        QMessageBox.warning(self, title, as_rich_plain(text))
