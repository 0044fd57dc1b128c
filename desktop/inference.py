"""Background inference runner (DESIGN.md, "Data flow" steps 3–5): latest request wins.

Each tab owns one :class:`InferenceRunner`; its worker (a QObject moved to its own QThread)
runs jobs — plain callables ``job(cancel) -> result`` that must not touch Qt widgets. Submitting
a new request makes every older one stale: a stale request still queued is skipped, a running one
sees ``cancel()`` turn True (engines poll it via ``engines.core.errors.check_cancel``) and its
result, if any, is dropped. Exceptions come back as the ``failed`` signal — never a crash.

Cross-thread signals are connected to ``@Slot`` methods of objects living in the receiving
thread, so the slots run there (a lambda would run in the worker thread).
"""
from __future__ import annotations

import threading
import time
import traceback
from typing import Any, Callable, Optional

from PySide6.QtCore import QObject, QThread, Signal, Slot

from engines.core.errors import Cancelled, EngineError


class _Worker(QObject):
    finished = Signal(int, object, float)
    failed = Signal(int, object)
    progressed = Signal(int, int, int)

    def __init__(self, latest: Callable[[], int]):
        super().__init__()
        self._latest = latest

    @Slot(int, object, bool)
    def run(self, revision: int, job: Callable, with_progress: bool) -> None:
        if revision != self._latest():
            return  # stale before it started
        cancel = lambda: self._latest() != revision  # noqa: E731 (called in this thread)
        t0 = time.perf_counter()
        try:
            if with_progress:
                last = [0.0]

                def report(done: int, total: int) -> None:
                    now = time.perf_counter()  # at most ~20 signals a second
                    if done >= total or now - last[0] > 0.05:
                        last[0] = now
                        self.progressed.emit(revision, int(done), int(total))

                result = job(cancel, report)
            else:
                result = job(cancel)
        except Cancelled:
            return
        except EngineError as exc:
            self.failed.emit(revision, exc)
            return
        except Exception as exc:  # a bug: report it, never crash the app
            exc.detail = traceback.format_exc()
            self.failed.emit(revision, exc)
            return
        if revision == self._latest():
            self.finished.emit(revision, result, time.perf_counter() - t0)


class InferenceRunner(QObject):
    """Runs jobs off the GUI thread, latest request wins.

    Signals:
        resultReady(int revision, object result, float seconds): the newest request's result.
        failed(int revision, object exception): the newest request raised (EngineError for user
            errors such as ContradictionError; anything else is a bug, with ``.detail``).
        busyChanged(bool): work is pending or not.
        progress(int done, int total): progress of the newest request, for jobs submitted with
            ``with_progress=True`` (reported from the worker thread, delivered on this one).
    """

    resultReady = Signal(int, object, float)
    failed = Signal(int, object)
    busyChanged = Signal(bool)
    progress = Signal(int, int)
    _request = Signal(int, object, bool)

    def __init__(self, parent: Optional[QObject] = None, name: str = "inference"):
        super().__init__(parent)
        self._lock = threading.Lock()
        self._latest = 0
        self._busy = False
        self._thread = QThread()
        self._thread.setObjectName(name)
        self._worker = _Worker(self.latest)
        self._worker.moveToThread(self._thread)
        self._request.connect(self._worker.run)
        self._worker.finished.connect(self._on_finished)
        self._worker.failed.connect(self._on_failed)
        self._worker.progressed.connect(self._on_progress)
        self._thread.start()

    def latest(self) -> int:
        with self._lock:
            return self._latest

    def is_busy(self) -> bool:
        return self._busy

    def submit(self, job: Callable[..., Any], revision: Optional[int] = None, *,
               with_progress: bool = False) -> int:
        """Queue ``job(cancel)`` — or ``job(cancel, report)`` with ``with_progress``, where
        ``report(done, total)`` may be called from the job (a simulator's progress callback) and
        arrives as the :attr:`progress` signal. Returns the request number; older requests
        become stale."""
        with self._lock:
            self._latest = self._latest + 1 if revision is None else max(revision, self._latest + 1)
            rev = self._latest
        self._set_busy(True)
        self._request.emit(rev, job, with_progress)
        return rev

    def cancel(self) -> None:
        """Make every pending request stale (nothing will be delivered)."""
        with self._lock:
            self._latest += 1
        self._set_busy(False)

    def _set_busy(self, busy: bool) -> None:
        if busy != self._busy:
            self._busy = busy
            self.busyChanged.emit(busy)

    @Slot(int, object, float)
    def _on_finished(self, revision: int, result: Any, seconds: float) -> None:
        if revision != self.latest():
            return
        self._set_busy(False)
        self.resultReady.emit(revision, result, seconds)

    @Slot(int, int, int)
    def _on_progress(self, revision: int, done: int, total: int) -> None:
        if revision == self.latest():
            self.progress.emit(done, total)

    @Slot(int, object)
    def _on_failed(self, revision: int, exc: Exception) -> None:
        if revision != self.latest():
            return
        self._set_busy(False)
        self.failed.emit(revision, exc)

    def shutdown(self, timeout_ms: int = 3000) -> None:
        """Cancel pending work and stop the thread (called when the tab closes)."""
        self.cancel()
        self._thread.quit()
        self._thread.wait(timeout_ms)
