"""The tab's banner as a state machine over the snapshot (docs/ARCHITECTURE.md, "One moment on
screen").

:class:`BannerPresenter` renders a :class:`desktop.tabs.snapshot.Snapshot` into the tab's
:class:`desktop.widgets.banner.Banner` in the same call that renders the rest of the tab, so a
banner never outlives the state it reports (after Ctrl+Z of an impossible entry the new
snapshot is COMPUTING or READY and the red banner goes at once). A computation running longer
than :data:`PROGRESS_AFTER_MS` shows its progress with Cancel, unless its progress says it ends
within :data:`PROGRESS_NEARLY_DONE_MS`; numbers on screen while a computation runs longer than
:data:`STALE_AFTER_MS` are greyed.
"""
from __future__ import annotations

import enum
import time
from typing import Callable, Optional

from PySide6.QtCore import QObject, QTimer, Signal, Slot

from desktop.shell.locale_format import number
from desktop.tabs.snapshot import Snapshot, Status
from desktop.widgets.plain_text import esc
from desktop.widgets.why import conflict_html, parse_entry_link
from engines.core.errors import ContradictionError, EngineError
from engines.core.i18n import _

#: A computation running longer than this (ms) shows its progress and a Cancel button.
PROGRESS_AFTER_MS = 700
#: A computation whose progress at :data:`PROGRESS_AFTER_MS` says it ends within this (ms) is not
#: announced: it is looked at again after its expected end. The banner coming and going moves
#: everything below it, two relayouts and repaints of the whole tab (about 22 ms of the GUI
#: thread each, the 100-event Inkognito log, which computes in 0.6-0.8 s), for a notice shown a
#: tenth of a second — a flicker (tests/benchmarks/bench_open_stall.py; the window's paints).
PROGRESS_NEARLY_DONE_MS = 500
#: Shortest time between two progress updates of the banner (ms).
PROGRESS_UPDATE_MS = 400
#: Numbers still on screen while a computation runs longer than this (ms) are greyed.
STALE_AFTER_MS = 150


class BannerState(enum.Enum):
    """What the banner shows. NONE: nothing of the presenter's (a tab's own notice may be up);
    PROGRESS: a long computation, with Cancel; CANCELLED: not computed, with Compute;
    CONTRADICTION: the log cannot all be true, with Undo; ERROR: the engine failed."""

    NONE = "none"
    PROGRESS = "progress"
    CANCELLED = "cancelled"
    CONTRADICTION = "contradiction"
    ERROR = "error"


class BannerPresenter(QObject):
    """Renders snapshots into a banner (see the module docstring).

    Args:
        banner: the tab's Banner. title: the game's title ("Cluedo"). describe: ``(i) ->
            str``, log entry ``i`` in words. can_undo: whether Undo is possible now.
        show_stale: ``(bool)``, greys (True) or un-greys the numbers on screen.

    Signals:
        computeRequested(), cancelRequested(), undoRequested(): the banner's button.
        entryClicked(int index): a link to a log entry was clicked.
        linkClicked(str href): any other link (a correction's "fix" / "remove").
        statusMessage(str): text for the status bar.
    """

    computeRequested = Signal()
    cancelRequested = Signal()
    undoRequested = Signal()
    entryClicked = Signal(int)
    linkClicked = Signal(str)
    statusMessage = Signal(str)

    def __init__(self, banner, title: str, describe: Callable[[int], str],
                 can_undo: Callable[[], bool], show_stale: Callable[[bool], None],
                 parent=None):
        super().__init__(parent)
        self.banner = banner
        self.title = title
        self._describe = describe
        self._can_undo = can_undo
        self._show_stale = show_stale
        self.state = BannerState.NONE
        self._snapshot = Snapshot()
        self._progress = (0, 0)
        self._busy_since = 0.0                         # when the computation shown began
        self._put_off = False                          # its banner put off once (nearly done)
        self._error_details: Optional[tuple] = None   # (summary, traceback) behind Details…
        self.error_dialog = None                       # the Details… dialog last opened
        banner.actionClicked.connect(self._action)
        banner.linkActivated.connect(self._link)
        self._stale_timer = QTimer(self, singleShot=True, interval=STALE_AFTER_MS)
        self._stale_timer.timeout.connect(self._stale_if_busy)
        self._progress_timer = QTimer(self, singleShot=True, interval=PROGRESS_AFTER_MS)
        self._progress_timer.timeout.connect(self._show_progress)

    # -- rendering ---------------------------------------------------------------------------
    def render(self, snap: Snapshot) -> None:
        """Show what ``snap`` says about the computation (called for every snapshot)."""
        prev, self._snapshot = self._snapshot, snap
        status = snap.status
        if snap.busy and status is not Status.CANCELLED:
            if not (prev.busy and prev.revision == snap.revision):
                self._progress = (0, 0)
                self._busy_since = time.monotonic()
                self._put_off = False
                self._stale_timer.start()
                self._progress_timer.start(PROGRESS_AFTER_MS)
        else:
            self._stale_timer.stop()
            self._progress_timer.stop()
            if status is not Status.CANCELLED:
                self._show_stale(False)
        if status is Status.CONTRADICTION:
            self._show_contradiction(snap, prev)
        elif status is Status.ERROR:
            self._show_error(snap.error)
        elif status is Status.CANCELLED:
            self._show_cancelled()
        elif self.state in (BannerState.CONTRADICTION, BannerState.ERROR, BannerState.CANCELLED) \
                or (self.state is BannerState.PROGRESS and not snap.busy):
            self.clear()

    def clear(self) -> None:
        self.state = BannerState.NONE
        self.banner.clear()

    def _show(self, state: BannerState, text: str, kind: str, action: str = "") -> None:
        if self.state is state and self.banner.message() == text:
            return
        self.state = state
        self.banner.show_message(text, kind, action)

    def _undo(self) -> str:
        return _("Undo") if self._can_undo() else ""

    def _show_contradiction(self, snap: Snapshot, prev: Snapshot) -> None:
        exc = snap.error
        if snap.conflict is not None:
            from desktop.tabs.diagnosis import banner_html  # corrections first, if any
            text = banner_html(snap.conflict, self._describe) or \
                conflict_html(snap.conflict, self._describe)
            self._show(BannerState.CONTRADICTION, text, "error", self._undo())
            return
        where = _("the setup") if exc.event_index < 0 else _("entry {n}").format(n=exc.event_index + 1)
        text = _("<b>Impossible log</b>: {reason} — no world is consistent after {where}. The "
                 "beliefs shown are from before it. Undo (Ctrl+Z) or remove that entry.").format(
            reason=esc(exc.message), where=where)
        if snap.conflict_searching:
            text += " <i>" + _("Looking for the entries that cannot all be true together…") + "</i>"
        if self.state is not BannerState.CONTRADICTION or prev.error is not exc:
            self.statusMessage.emit(_("Contradiction at {where}").format(where=where))
        self._show(BannerState.CONTRADICTION, text, "error", self._undo())

    def _show_error(self, exc) -> None:
        if isinstance(exc, ContradictionError):
            text = _("<b>Impossible log</b>: {reason}").format(reason=esc(exc.message))
        elif isinstance(exc, EngineError):
            text = _("<b>Cannot compute</b>: {reason}").format(reason=esc(exc))
        else:
            text = _("<b>Internal error</b> in the {game} engine: {error}. Your log is safe; please "
                     "report this.").format(game=self.title, error=f"{type(exc).__name__}: {esc(exc)}")
        if self.state is not BannerState.ERROR or self.banner.message() != text:
            self.statusMessage.emit(str(exc) if isinstance(exc, EngineError)
                                    else _("Internal error: {error}").format(error=exc))
        internal = not isinstance(exc, (ContradictionError, EngineError))
        # the failed job's traceback (logged by the runner), one click away
        self._error_details = (f"{type(exc).__name__}: {exc}",
                               getattr(exc, "detail", "") or repr(exc)) if internal else None
        self._show(BannerState.ERROR, text, "error", _("Details…") if internal else "")

    def _show_cancelled(self) -> None:
        self._show_stale(True)
        if self.state in (BannerState.NONE, BannerState.PROGRESS, BannerState.CANCELLED):
            self._show(BannerState.CANCELLED,
                       _("<b>Beliefs not computed</b>: the computation was cancelled. The log is "
                         "open and can be edited; numbers on screen are not its beliefs. Any "
                         "change, or Compute, computes them again."), "warning", _("Compute"))
        self.statusMessage.emit(_("{game}: cancelled — beliefs not computed").format(game=self.title))

    # -- a long computation ------------------------------------------------------------------
    def progress(self) -> tuple:
        """``(done, total)``: the last progress of the computation (log prefixes)."""
        return self._progress

    @Slot(int, int)
    def on_progress(self, done: int, total: int) -> None:
        self._progress = (done, total)
        if self.state is BannerState.PROGRESS and not self._progress_timer.isActive():
            # at most a few updates a second, text only: a restyled banner relayouts the
            # window, and every Python call that makes waits for the GIL the job holds
            self._progress_timer.start(PROGRESS_UPDATE_MS)

    @Slot()
    def _stale_if_busy(self) -> None:
        if self._snapshot.busy and self._snapshot.status is not Status.CANCELLED:
            self._show_stale(True)

    @Slot()
    def _show_progress(self) -> None:
        snap = self._snapshot
        if not snap.busy or snap.status is Status.CANCELLED or self.state not in (
                BannerState.NONE, BannerState.PROGRESS) or \
                (self.state is BannerState.NONE and self.banner.message()):
            return      # an error, or a tab's own message, stays
        done, total = self._progress
        if self.state is BannerState.NONE and not self._put_off and 0 < done < total:
            elapsed = time.monotonic() - self._busy_since
            left = elapsed * (total - done) / done     # at the pace so far
            if left * 1000 < PROGRESS_NEARLY_DONE_MS:
                # nearly done: looked at again (once) after its expected end
                self._put_off = True
                self._progress_timer.start(int(left * 1000) + PROGRESS_UPDATE_MS // 2)
                return
        if total > 1:
            text = _("Computing the beliefs: {done} of {total} log prefixes… The log can be edited "
                     "meanwhile.").format(done=number(done), total=number(total))
        else:
            text = _("Computing the beliefs… The log can be edited meanwhile.")
        if self.state is BannerState.PROGRESS:
            self.banner.set_text(text)
            return
        self._show(BannerState.PROGRESS, text, "info", _("Cancel"))
        self.statusMessage.emit(_("{game}: computing… (Cancel in the banner)").format(game=self.title))

    # -- the button and the links ------------------------------------------------------------
    @Slot()
    def _action(self) -> None:
        if self.state is BannerState.PROGRESS:
            self.cancelRequested.emit()
        elif self.state is BannerState.CANCELLED:
            self.computeRequested.emit()
        elif self.state is BannerState.CONTRADICTION and self._can_undo():
            self.undoRequested.emit()
        elif self.state is BannerState.ERROR and self._error_details is not None:
            from desktop.shell.errors import show_error_details

            summary, details = self._error_details
            self.error_dialog = show_error_details(self.banner.window(), _("Internal error"),
                                                   summary, details)

    @Slot(str)
    def _link(self, href: str) -> None:
        i = parse_entry_link(href)
        if i is not None:
            self.entryClicked.emit(i)
        else:
            self.linkClicked.emit(href)
