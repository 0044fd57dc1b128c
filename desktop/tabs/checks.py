"""The check of a form's entry before it is logged: a cancellable task through the belief
timeline.

A form or the quick-entry line logs an entry only if some world agrees with the log plus the
entry. :class:`EntryChecks` asks the controller's :class:`engines.core.timeline.Timeline` for
the posterior of the log and then of the log plus the entry, on the thread pool: both prefixes
are usually cached or cheap (the log's beliefs are on screen already; the new prefix is the one
the log will need once the entry is logged), Cancel stops the work at the engine's next cancel
check, and only a refused entry asks the engine's ``contradiction`` for the reason in words.
"""
from __future__ import annotations

import functools
from typing import Any, Callable, Optional

from PySide6.QtCore import QObject, Signal, Slot

from engines.core.i18n import _


class EntryChecks(QObject):
    """Entries waiting to be logged once checked, in order, each against the log before it.

    Args:
        controller: the :class:`desktop.tabs.controller.GameController` (its document, timeline and
            a runner of its own, ``check``).

    Signals:
        refused(str title, str text): an entry without a ``refused`` callback was refused (the
            tab shows a warning).
    """

    refused = Signal(str, str)

    def __init__(self, controller):
        super().__init__(controller)
        self.controller = controller
        self.runner = controller.make_runner("check")
        self.runner.resultReady.connect(self._on_checked)
        self.runner.failed.connect(self._on_failed)
        self._check: Optional[tuple] = None     # the entry being checked
        # the check of a line still being typed (its verdict is only cached, never acted on)
        self.prefetch_runner = controller.make_runner("precheck", counted=False)
        self._queue: list[tuple] = []           # entries waiting for their check

    def submit(self, event: Any, refused: Optional[Callable[[str], None]] = None,
               logged: Optional[Callable[[], None]] = None) -> None:
        """Log ``event`` unless it contradicts the log; then ``logged()``, or ``refused(reason)``
        (default: the ``refused`` signal) and nothing is logged."""
        self._queue.append((event, refused, logged))
        if self._check is None:
            self._next()

    @Slot(object)
    def prefetch(self, event: Any) -> None:
        """Check ``event`` ahead of time (a quick-entry line that parses while it is typed): the
        posterior of the log plus ``event`` is computed on the thread pool and cached in the
        timeline, so that Enter logs it without waiting (:meth:`submit` then finds it through
        ``accepts_cached``, or its check waits for this one's timeline lock and finds it
        cached). Newest wins: each keystroke's line replaces the previous one's check. Nothing
        is logged or refused here; no check for a timeline kept in order (its state is too
        large to copy)."""
        c = self.controller
        tl = c.current_timeline()
        events = tuple(c.document.events)
        if tl.in_order or tl.accepts_cached(events, event):
            self.prefetch_runner.cancel()
            return
        self.prefetch_runner.submit(functools.partial(check_job, tl, events, event))

    def clear(self) -> None:
        """Forget every waiting entry (another game is opened)."""
        self._queue.clear()
        self._check = None
        self.runner.cancel()
        self.prefetch_runner.cancel()

    def requeue_after_cancel(self) -> None:
        """Cancel stopped the check: the entry waits for the next one (first in line)."""
        if self._check is not None:
            self._queue.insert(0, self._check[:3])
            self._check = None

    def _next(self) -> None:
        c = self.controller
        while self._queue and self._check is None:
            event, refused, logged = self._queue.pop(0)
            setup = c.document.setup
            if c.current_timeline().in_order:
                # a state too large to copy (Egghead, 6 players): a check would take minutes;
                # the contradiction banner reports an impossible entry instead
                self._log(event, refused, logged)
                continue
            events = tuple(c.document.events)
            if c.current_timeline().accepts_cached(events, event):
                # decided from the timeline's cache (the entry's posterior is kept): logged
                # now, without a trip through the thread pool
                self._log(event, refused, logged)
                continue
            self._check = (event, refused, logged, setup, events)
            self.runner.submit(functools.partial(check_job, c.current_timeline(), events, event))

    def _log(self, event, refused, logged) -> None:
        full = self.controller.log_event(event)
        if full:   # the log is full (the document's one check)
            if refused is not None:
                refused(full)
            else:
                self.refused.emit(_("Not logged"), full[0].upper() + full[1:] + ".")
            return
        if logged:
            logged()

    @Slot(int, object, float)
    def _on_checked(self, _rev: int, reason, _secs: float) -> None:
        pending, self._check = self._check, None
        if pending is None:
            return
        event, refused, logged, setup, events = pending
        doc = self.controller.document
        if setup is not doc.setup or events != tuple(doc.events):
            self._queue.insert(0, (event, refused, logged))   # the log changed meanwhile
        elif reason:
            if refused is not None:
                refused(reason)
            else:
                self.refused.emit(_("Not logged"), _("{entry}: this contradicts the log — {reason}.").format(
                    entry=doc.module.describe_event(setup, event), reason=reason))
        else:
            self._log(event, refused, logged)
        self._next()

    @Slot(int, object)
    def _on_failed(self, _rev: int, exc: Exception) -> None:
        pending, self._check = self._check, None
        if pending is not None:
            refused = pending[1]
            reason = _("cannot check it: {reason}").format(reason=getattr(exc, "message", exc))
            if refused is not None:
                refused(reason)
            else:
                self.refused.emit(_("Not logged"), reason)
        self._next()


def check_job(timeline, events: tuple, event, task) -> Optional[str]:
    """Why ``event`` cannot follow ``events``, or None: :meth:`engines.core.timeline.Timeline.check`
    (the engine's named reason where it has a check of its own, else the posterior of the log plus
    ``event`` through the timeline, cached; cancellable through ``task``).

    Raises:
        Cancelled: ``task()`` became true. EngineError: as the engine's ``infer``.
    """
    return timeline.check(events, event, cancel=task)
