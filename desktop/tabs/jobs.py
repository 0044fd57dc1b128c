"""Background work (docs/ARCHITECTURE.md, "The path of one click"): one task-state object per
job, a shared thread pool, the newest request wins.

A tab (its controller) owns a few :class:`JobRunner` objects — beliefs, recommendation,
simulation, export — but no thread of its own: every job runs on :func:`thread_pool`, a
``QThreadPool`` whose threads are made when work arrives and expire when idle. A job is a plain
callable ``job(task) -> result`` that must not touch Qt widgets; ``task`` is the job's
:class:`TaskState`:

* ``task()`` / ``task.cancel_requested`` — True once a newer request was submitted to the same
  runner (or it was cancelled); pass ``task`` as an engine's ``cancel`` flag (engines poll it via
  ``engines.core.errors.check_cancel``);
* ``task.progress(done, total)`` — pass it as a simulator's ``progress``; arrives as the runner's
  ``progress`` signal (at most ~20 a second);
* ``task.publish(partial)`` — a partial result (e.g. a sampled estimate before the exact
  ranking); arrives as ``partialResult``.

A stale request still queued is skipped, a running one sees its cancel flag turn True and its
result, if any, is dropped. Exceptions come back as the ``failed`` signal — never a crash.

Priorities among one tab's tasks (:class:`Priority`): runners made with the same
:class:`PriorityGroup` (one per tab) have a level — the beliefs first (the worksheet, the check of
an entry, a past entry's beliefs, Why?, the export), then the ranking, then advice, then plots and
back-fills. A job waits before it starts, and again at every poll of its cancel flag (engines poll
it in their long loops), while a runner of its group with a more urgent level has work pending:
the interpreter lock is not shared with less urgent work, so the worksheet and the ranking come at
the engines' own speed (``tests/benchmarks/bench_app_speed.py``). A wait lasts at most
:data:`MAX_PAUSE_SECONDS` at a time, so a job holding something the urgent one waits for (a lock)
cannot stall it for long. Every job also pauses while the GUI thread holds the
:data:`worker_gate` (a session file shown in its tab, a paint of the window, a job's result or
error delivered), at most :data:`MAX_GATE_SECONDS`.
Results, partial results, progress and errors are emitted from the worker thread by a relay
object and delivered, queued, to ``@Slot`` methods of the runner on the GUI thread (a lambda
would run in the worker thread).
"""
from __future__ import annotations

import atexit
import enum
import logging
import threading
import time
import traceback
import weakref
from typing import Any, Callable, Optional

from PySide6.QtCore import QObject, QThreadPool, Signal, Slot

from engines.core.errors import Cancelled, EngineError

log = logging.getLogger(__name__)

#: Threads the pool may run at once: enough that a long simulation or a 6-player Egghead log
#: does not hold up the other tabs' beliefs.
MAX_THREADS = 6
#: An idle pool thread ends after this many milliseconds.
EXPIRY_MS = 10_000
_pool: Optional[QThreadPool] = None
#: Longest single wait (s) of a job for more urgent work of its tab (see the module docstring).
MAX_PAUSE_SECONDS = 10.0


class Priority(enum.IntEnum):
    """A tab's task levels, most urgent first (see the module docstring)."""

    BELIEFS = 0       # the worksheet: the log's beliefs, an entry's check, a past entry, Why?
    RANKING = 1       # the ranking of the next move (an advisor)
    ADVICE = 2        # advice built on it: accuse or wait, the turn, which card to show
    BACKGROUND = 3    # plots over the game, back-fills, simulations


class PriorityGroup:
    """The runners of one tab, by level: :meth:`wait_turn` holds a job while a more urgent
    runner of the group has work pending (thread-safe; the busy counts change on the GUI
    thread, the waits happen in pool threads)."""

    def __init__(self):
        self._cond = threading.Condition()
        self._busy = [0] * len(Priority)
        self.pauses = 0          # waits that actually happened (for tests and benchmarks)
        self._settled: list[Callable[[], None]] = []
        self._holds: list["Hold"] = []     # held on the GUI thread: hold(), a delivery
        _groups.add(self)

    def set_busy(self, level: int, busy: bool) -> None:
        with self._cond:
            self._busy[level] += 1 if busy else -1
            if not busy:
                self._cond.notify_all()
            called, self._settled = (self._settled, []) if not busy else ((), self._settled)
        for callback in called:
            callback()

    def call_when_settled(self, callback: Callable[[], None]) -> None:
        """Call ``callback()`` once, the next time some level's pending work ends (on the thread
        that ends it: the GUI thread, where runners deliver their results). A waiter such as the
        tab's plot then checks :meth:`urgent_pending` again, instead of polling."""
        with self._cond:
            if callback not in self._settled:
                self._settled.append(callback)

    def hold(self, level: int = 0) -> "Hold":
        """Count ``level`` as pending until the returned :class:`Hold` is released (on the GUI
        thread: the render of an urgent result, so that the tab's less urgent jobs leave the
        interpreter lock to it). Use it as a context manager; :meth:`release_holds` ends it
        earlier (the worksheet painted: the ranking may start while the rest is drawn)."""
        self.set_busy(level, True)
        return self._held(level)

    def _held(self, level: int) -> "Hold":
        """A :class:`Hold` of one count of ``level`` already counted as pending."""
        h = Hold(self, level)
        self._holds.append(h)
        return h

    def _end_hold(self, hold: "Hold") -> None:
        if hold in self._holds:
            self._holds.remove(hold)
        self.set_busy(hold.level, False)

    def release_holds(self, level: int) -> None:
        """End every hold of ``level`` taken on the GUI thread (:meth:`hold`, a runner delivering
        its result): what they protected is on screen."""
        for h in [h for h in self._holds if h.level == level]:
            h.release()

    def urgent_pending(self, level: int) -> bool:
        """True while a runner more urgent than ``level`` has work pending."""
        return any(self._busy[:level])

    def wait_turn(self, level: int, stop: Callable[[], bool]) -> None:
        """Wait while more urgent work is pending (at most :data:`MAX_PAUSE_SECONDS`), or until
        ``stop()``."""
        if not any(self._busy[:level]):
            return
        deadline = time.monotonic() + MAX_PAUSE_SECONDS
        with self._cond:
            self.pauses += 1
            while any(self._busy[:level]) and not stop():
                left = deadline - time.monotonic()
                if left <= 0:
                    return
                self._cond.wait(min(left, 0.05))


class Hold:
    """One count of a level as pending (:meth:`PriorityGroup.hold`, :meth:`WorkerGate.hold`),
    ended once by :meth:`release` or at the end of a ``with`` block, whichever comes first.

    Attributes:
        level: the :class:`Priority` held (0 for the worker gate).
    """

    __slots__ = ("_owner", "level")

    def __init__(self, owner, level: int):
        self._owner = owner
        self.level = level

    def release(self) -> None:
        """End the hold (a second call does nothing)."""
        owner, self._owner = self._owner, None
        if owner is not None:
            owner._end_hold(self)

    def __enter__(self) -> "Hold":
        return self

    def __exit__(self, *_exc) -> None:
        self.release()


class WorkerGate:
    """The GUI thread's long moments, during which every job of every tab pauses at its next
    poll (:class:`TaskState`), the beliefs too: a session file shown in its tab (its views
    rebuilt, the tab brought to the front and painted whole), every paint of the main window
    (``MainWindow.event``), a job's result or error delivered (its render), a tab's plot drawn
    and its Tab order walked (``GameTab._draw_due_plot``, ``GameTab._follow_layout_now``). A
    job that shares the interpreter lock then would make each of the GUI thread's thousands of
    returns from Qt wait for it: with the 100-event Inkognito file the longest stall of the
    event loop was 631 ms with the file's beliefs computing beside it and 87-101 ms without
    (tests/benchmarks/bench_open_stall.py, on a loaded machine). A pause lasts at most
    :data:`MAX_GATE_SECONDS`, so a hold that is never released cannot stop the work."""

    def __init__(self):
        self._cond = threading.Condition()
        self._holds = 0
        self._since = 0.0
        self.pauses = 0          # waits that actually happened (for tests and benchmarks)

    def hold(self) -> "Hold":
        """Pause the jobs until the returned :class:`Hold` is released (GUI thread)."""
        with self._cond:
            if not self._holds:
                self._since = time.monotonic()
            self._holds += 1
        return Hold(self, 0)

    def _end_hold(self, _hold: "Hold") -> None:
        with self._cond:
            self._holds = max(0, self._holds - 1)
            if not self._holds:
                self._cond.notify_all()

    def closed(self) -> bool:
        """True while the GUI thread holds the gate (within :data:`MAX_GATE_SECONDS`)."""
        return bool(self._holds) and time.monotonic() - self._since < MAX_GATE_SECONDS

    def wait(self, stop: Callable[[], bool]) -> None:
        """Wait while :meth:`closed` (a pool thread), or until ``stop()``."""
        with self._cond:
            if self.closed():
                self.pauses += 1
            while self.closed() and not stop():
                self._cond.wait(0.02)


#: Longest pause (s) of the jobs for the GUI thread (:class:`WorkerGate`).
MAX_GATE_SECONDS = 0.5
#: The process's :class:`WorkerGate`.
worker_gate = WorkerGate()


#: Every tab's :class:`PriorityGroup` (weakly: a closed tab's group goes with it).
_groups: "weakref.WeakSet[PriorityGroup]" = weakref.WeakSet()
_exiting = False
#: Every :class:`JobRunner` (weakly), for :func:`_stop_all_at_exit`.
_runners: "weakref.WeakSet[JobRunner]" = weakref.WeakSet()


def _stop_all_at_exit() -> None:
    """At interpreter exit, make every runner's requests stale and wake every waiting job: a
    script that ends without ``shutdown()`` left a job waiting for its turn behind a result the
    event loop would never deliver, and the pool's destructor waited for that job for ever."""
    global _exiting
    _exiting = True
    for runner in list(_runners):
        with runner._lock:
            runner._latest += 1
    for group in list(_groups):
        with group._cond:
            group._cond.notify_all()
    with worker_gate._cond:
        worker_gate._holds = 0
        worker_gate._cond.notify_all()


atexit.register(_stop_all_at_exit)


def urgent_work_pending() -> bool:
    """True while some tab's urgent work — :attr:`Priority.BELIEFS` (an entry's check, the log's
    beliefs) or :attr:`Priority.RANKING` (the next move's ranking) — is pending or its result is
    being shown: the GUI thread's own chores (the cyclic garbage collector,
    :class:`desktop.shell.process.GuiThreadCollector`) wait meanwhile. A collection holds the
    GIL: run during a Cluedo ranking, the young collections (24 in a 16-entry run, about 48 ms
    each) stalled it for 441 ms in all (tests/benchmarks/bench_app_speed.py)."""
    return any(g.urgent_pending(Priority.RANKING + 1) for g in list(_groups))


def work_pending() -> bool:
    """True while any job of any tab is pending (any level) or the GUI thread holds the
    :data:`worker_gate` (a file being shown in its tab): the app is not idle. The GUI thread's
    full garbage collections wait for it (:class:`desktop.shell.process.GuiThreadCollector`)."""
    return bool(worker_gate._holds) or any(g.urgent_pending(len(Priority)) for g in list(_groups))


def thread_pool() -> QThreadPool:
    """The application's thread pool for background jobs (made on first use; the app's GIL
    switch interval is set by ``main()``: :func:`desktop.shell.process.configure_process`)."""
    global _pool
    if _pool is None:
        _pool = QThreadPool()
        _pool.setObjectName("deduction-desk-jobs")
        _pool.setMaxThreadCount(MAX_THREADS)
        _pool.setExpiryTimeout(EXPIRY_MS)
    return _pool


class TaskState:
    """The state one background job shares with its runner (see the module docstring).

    Attributes:
        revision: the request number of this job.
        owner: the runner's name and id (what :mod:`desktop.tabs.engine_process` tells
            callers apart by).
    """

    def __init__(self, revision: int, latest: Callable[[], int], relay: "_Relay",
                 group: Optional[PriorityGroup] = None, level: int = 0,
                 shares_lock: bool = True, owner: Any = None):
        self.revision = revision
        self.owner = owner
        self._latest = latest
        self._relay = relay
        self._last_progress = 0.0
        self._group = group
        self._level = level
        self._waits = shares_lock

    @property
    def cancel_requested(self) -> bool:
        """True once a newer request was submitted or the runner was cancelled."""
        return self._latest() != self.revision

    def __call__(self) -> bool:
        """The cancel flag an engine polls; first waits while more urgent work of the tab is
        pending (:meth:`PriorityGroup.wait_turn`)."""
        if self._waits:
            self.wait_turn()
        return self.cancel_requested

    def wait_turn(self) -> None:
        """Wait while more urgent work of the tab is pending or the GUI thread holds the
        :data:`worker_gate` (at most :data:`MAX_PAUSE_SECONDS` and :data:`MAX_GATE_SECONDS`),
        or until the job is cancelled. A job that computed in another process waits so before
        it delivers: its result then reaches the GUI thread after the worksheet's paint and
        outside a file's opening turns, as a job sharing the interpreter lock would."""
        group = self._group
        if group is not None and self._level and group.urgent_pending(self._level):
            group.wait_turn(self._level, lambda: self.cancel_requested)
        self.wait_for_gui()

    def wait_for_gui(self) -> None:
        """Wait while the GUI thread holds the :data:`worker_gate` (at most
        :data:`MAX_GATE_SECONDS`), or until the job is cancelled; unlike :meth:`wait_turn`, not
        for the tab's more urgent work. What a job that computes in another process still does
        here holding the interpreter lock (pickling a long log for it,
        :func:`desktop.tabs.engine_process.run`) waits so for the GUI thread's paints."""
        if worker_gate._holds:
            worker_gate.wait(lambda: self.cancel_requested)

    def share_lock(self) -> bool:
        """From now on, wait at every poll as a job that shares the interpreter lock does (a
        job of a runner made with ``shares_lock=False`` that computes in its own thread after
        all: :func:`desktop.tabs.engine_process.run`); waits its turn now and returns the
        cancel flag."""
        self._waits = True
        return self()

    def progress(self, done: int, total: int) -> None:
        """Report progress (``done`` of ``total`` units); throttled to ~20 signals a second."""
        now = time.perf_counter()
        if done >= total or now - self._last_progress > 0.05:
            self._last_progress = now
            self._relay.progressed.emit(self.revision, int(done), int(total))

    def publish(self, partial: Any) -> None:
        """Deliver a partial result (the final one still comes as ``resultReady``)."""
        if not self.cancel_requested:
            self._relay.partial.emit(self.revision, partial)


class _Relay(QObject):
    """Carries a job's outcome from the worker thread to the runner (queued connections)."""

    finished = Signal(int, object, float)
    failed = Signal(int, object)
    progressed = Signal(int, int, int)
    partial = Signal(int, object)


class _Task:
    """One submitted job; ``run`` is started on the pool (PySide keeps the callable alive)."""

    def __init__(self, job: Callable, state: TaskState, relay: _Relay,
                 done: Callable[["_Task"], None], name: str = ""):
        self.job, self.state, self.relay, self._done = job, state, relay, done
        self.name = name

    def run(self) -> None:  # in a pool thread
        try:
            self._run()
        except RuntimeError:
            pass  # the runner was deleted meanwhile (the app is closing): nothing to deliver
        finally:
            self._done(self)

    def _run(self) -> None:
        state, relay = self.state, self.relay
        state()     # waits while more urgent work of the tab is pending
        if state.cancel_requested:
            return  # stale before it started
        t0 = time.perf_counter()
        try:
            result = self.job(state)
        except Cancelled:
            return
        except EngineError as exc:
            relay.failed.emit(state.revision, exc)
            return
        except Exception as exc:  # noqa: BLE001 - a bug: log and report it, never crash the app
            if _exiting:
                return      # the interpreter is ending: a stale job's failure is nobody's news
            # a bug in another process (desktop.tabs.engine_process) brings its own traceback
            exc.detail = getattr(exc, "detail", None) or traceback.format_exc()
            log.error("job %s #%d failed: %s: %s\n%s", self.name, state.revision,
                      type(exc).__name__, exc, exc.detail)
            relay.failed.emit(state.revision, exc)
            return
        if not state._waits:
            state.wait_turn()     # computed in another process: delivered in its turn
        if not state.cancel_requested:
            relay.finished.emit(state.revision, result, time.perf_counter() - t0)


class JobRunner(QObject):
    """Runs jobs of one kind (beliefs, a recommendation, a simulation, a check, an export, a
    file to read) on the shared thread pool, newest request wins (see the module docstring).

    Args:
        group, priority: the tab's :class:`PriorityGroup` and this runner's :class:`Priority`
            (None: a runner of its own, never held back).
        shares_lock: False for jobs that compute in another process
            (:mod:`desktop.tabs.engine_process`): they start at once and do not wait for more
            urgent work or the :data:`worker_gate` while they compute, since they do not take
            the interpreter lock from it, only before they deliver
            (:meth:`TaskState.wait_turn`); their level holds the tab's less urgent jobs back.

    Signals:
        resultReady(int revision, object result, float seconds): the newest request's result.
        partialResult(int revision, object partial): a partial result the newest job published.
        failed(int revision, object exception): the newest request raised (EngineError for user
            errors such as ContradictionError; anything else is a bug, with ``.detail``, the
            traceback, also written to the log).
        busyChanged(bool): work is pending or not.
        progress(int done, int total): progress the newest job reported.
    """

    resultReady = Signal(int, object, float)
    partialResult = Signal(int, object)
    failed = Signal(int, object)
    busyChanged = Signal(bool)
    progress = Signal(int, int)

    def __init__(self, parent: Optional[QObject] = None, name: str = "inference", *,
                 group: Optional[PriorityGroup] = None, priority: int = Priority.BELIEFS,
                 shares_lock: bool = True):
        super().__init__(parent)
        self.setObjectName(name)
        _runners.add(self)
        self.group = group
        self.priority = int(priority)
        self.shares_lock = shares_lock
        self._lock = threading.Lock()
        self._latest = 0
        self._busy = False
        self._active: set = set()
        self._idle = threading.Condition(self._lock)
        self._relay = _Relay()
        self._relay.finished.connect(self._on_finished)
        self._relay.failed.connect(self._on_failed)
        self._relay.progressed.connect(self._on_progress)
        self._relay.partial.connect(self._on_partial)

    def latest(self) -> int:
        with self._lock:
            return self._latest

    def is_busy(self) -> bool:
        return self._busy

    def submit(self, job: Callable[[TaskState], Any], revision: Optional[int] = None) -> int:
        """Queue ``job(task)`` (``task``: its :class:`TaskState`). Returns the request number;
        older requests become stale."""
        with self._lock:
            self._latest = self._latest + 1 if revision is None else max(revision, self._latest + 1)
            rev = self._latest
            task = _Task(job, TaskState(rev, self.latest, self._relay, self.group,
                                        self.priority, self.shares_lock,
                                        (self.objectName(), id(self))), self._relay,
                         self._task_done, self.objectName())
            self._active.add(task)
        self._set_busy(True)
        thread_pool().start(task.run)
        return rev

    def running(self) -> int:
        """How many of this runner's jobs are still running on the pool, stale ones included (a
        cancelled job runs on until it next polls its cancel flag)."""
        with self._lock:
            return len(self._active)

    def cancel(self) -> None:
        """Make every pending request stale (nothing will be delivered)."""
        with self._lock:
            self._latest += 1
        self._set_busy(False)

    def _task_done(self, task: _Task) -> None:  # in a pool thread
        with self._lock:
            self._active.discard(task)
            self._idle.notify_all()

    def _set_busy(self, busy: bool, *, hold_group: bool = False) -> Optional[Hold]:
        """Set the busy flag (``busyChanged`` on a change). ``hold_group``: a change to idle
        leaves the tab's :class:`PriorityGroup` count as it is, as a :class:`Hold` returned to
        the caller, who releases it once it has delivered the result (or the tab earlier:
        :meth:`PriorityGroup.release_holds`)."""
        if busy == self._busy:
            return None
        self._busy = busy
        held = hold_group and not busy and self.group is not None
        if self.group is not None and not held:
            self.group.set_busy(self.priority, busy)
        self.busyChanged.emit(busy)
        return self.group._held(self.priority) if held else None

    @Slot(int, object, float)
    def _on_finished(self, revision: int, result: Any, seconds: float) -> None:
        if revision != self.latest():
            return
        # the tab's less urgent jobs stay paused until the result is delivered, and every job
        # pauses while it is (the worker gate): what the GUI thread does with it (the
        # worksheet's render) has the interpreter lock to itself
        held = self._set_busy(False, hold_group=True)
        try:
            with worker_gate.hold():
                self.resultReady.emit(revision, result, seconds)
        finally:
            if held is not None:
                held.release()

    @Slot(int, object)
    def _on_partial(self, revision: int, partial: Any) -> None:
        if revision == self.latest():
            with worker_gate.hold():
                self.partialResult.emit(revision, partial)

    @Slot(int, int, int)
    def _on_progress(self, revision: int, done: int, total: int) -> None:
        if revision == self.latest():
            self.progress.emit(done, total)

    @Slot(int, object)
    def _on_failed(self, revision: int, exc: Exception) -> None:
        if revision != self.latest():
            return
        held = self._set_busy(False, hold_group=True)
        try:
            with worker_gate.hold():
                self.failed.emit(revision, exc)
        finally:
            if held is not None:
                held.release()

    def shutdown(self, timeout_ms: int = 3000) -> None:
        """Cancel pending work and wait (up to ``timeout_ms``) for this runner's running jobs to
        notice (called when the tab closes)."""
        self.cancel()
        deadline = time.monotonic() + timeout_ms / 1000
        with self._lock:
            while self._active and time.monotonic() < deadline:
                self._idle.wait(timeout=0.05)
