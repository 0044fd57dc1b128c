"""Engine calls run in a worker process of their own, so that they do not share the app's
interpreter lock (Qt-free; used by the tabs' advisors, :mod:`desktop.tabs.jobs`).

Why: a ranking computed in a thread of the app shares the GIL with the GUI thread, whose every
call back from Qt into Python (a model's ``data()``, a paint) waits for it. So a tab's
ranking first waits for the worksheet's paint (:class:`desktop.tabs.jobs.PriorityGroup`), and
then runs 1.3–2× its own CPU time beside the rest of the render: Cluedo's advice reached the
screen 40–55 ms after the engine alone would have it (``tests/benchmarks/bench_app_speed.py``,
``trace_app_entry.py``). In a process of its own it starts at once, on the other core, while
the worksheet is painted.

How (the pattern of :class:`concurrent.futures.ProcessPoolExecutor`, kept to one long-lived
worker so that its imports and caches are paid once). The executor itself, which the
simulators use (:mod:`engines.core.executor`), is not used here: its results and a side
queue of partial results travel on different pipes, so a partial (Cluedo's sampled estimate)
could arrive after the result it precedes; its worker is not a daemon, and at the
interpreter's exit it waits for the running call (a ranking of seconds) to end; one pipe in
each direction keeps the order and lets the app end at once:

* :class:`EngineProcess` starts one ``spawn`` process (safe beside Qt's threads and in the
  bundle: ``multiprocessing.freeze_support`` in ``main()``) on the first call, importing the
  called function's module before it says it is ready. Until then, and whenever it cannot
  serve, a call runs in the calling thread (:func:`run`): the result is the same function's,
  only where it ran differs. Only the running app uses it (:data:`enabled`; the flag
  :func:`desktop.shell.process.configure_process` sets); a script that builds a window computes in
  its threads.
* A call sends ``(id, language, function, args, kwargs)`` over a pipe; the function must be
  importable by name (a top-level engine function) and the arguments picklable. The worker
  calls it with a ``cancel`` flag that turns True when the caller gives up (a shared counter:
  every call up to it is cancelled), and, if asked, a callback whose partial results reach the
  caller as they are made. It answers with the pickled result, ``Cancelled``, or the error
  raised (engine errors keep their fields: :class:`engines.core.errors.EngineError` pickles
  them; a bug's traceback travels as ``detail``).
* One thread of the app reads the pipe and hands each answer to its caller's queue; the caller
  waits on that queue (without the interpreter lock), polling its own cancel flag every
  :data:`POLL_SECONDS`. Calls of one owner (a tab's runner) are served one after the other: a
  newer call waits behind the older one, which stops at its next poll once cancelled. A call
  of another owner while one is in flight runs in its caller's thread instead, so that one
  tab's long ranking never holds up another tab's advice.
* Messages of engine errors and notes are made in the worker in the caller's language
  (:func:`engines.core.i18n.set_language` before each call when it differs).
* The worker is a daemon process: it ends with the app (and when the pipe closes).
* Two such workers, each started by its first call: the rankings' (:data:`RANKINGS`), and the
  "Who is close?" estimates' (:data:`WHO_IS_CLOSE`), whose refinement of seconds would
  otherwise keep the rankings' worker from the next entry's ranking, and which, computed in a
  thread of the app, kept the GUI thread from the interpreter lock for 50-90 ms at a time.
"""
from __future__ import annotations

import atexit
import logging
import os
import pickle
import queue
import threading
import time
from typing import Any, Callable, Optional

log = logging.getLogger(__name__)

#: How often a waiting caller polls its cancel flag (seconds); an answer wakes it at once.
POLL_SECONDS = 0.02
#: Longest wait (s) at the app's end for the worker to stop after the pipe is closed.
STOP_SECONDS = 1.0
#: An argument that is a tuple or list longer than this (a log of thousands of entries) is
#: pickled this many items at a time (:class:`_Parts`): ``pickle.dumps`` keeps the interpreter
#: lock for the whole object it is given, and the 5,000-claim Spyfall log took 24 ms in one
#: call, the GUI thread waiting for the lock behind it as the log's beliefs were delivered
#: (tests/benchmarks/bench_open_stall.py). Each call from Qt into Python waits for the part
#: being pickled: 256 claims (about 1 ms each) still left the GUI thread without the lock for
#: 20-35 ms after that delivery, beside the spy plot's job; 32 claims take about 0.15 ms.
PICKLE_PART_ITEMS = 32
#: The worker process of the advisors' rankings (:func:`run`'s ``worker_name`` by default).
RANKINGS = "rankings"
#: The worker process of the "Who is close?" estimates: a process of their own, so that a
#: refinement of seconds never keeps the rankings' process from the next entry's ranking (a
#: call that finds its process busy with another owner's call runs in its own thread instead).
WHO_IS_CLOSE = "who-is-close"


class Unavailable(Exception):
    """The worker process cannot take the call (not started yet, starting, gone, or the call
    cannot be sent to it): run it here instead."""


def _portable(exc: BaseException) -> bytes:
    """``exc`` pickled for the caller, with its traceback as ``detail``; an exception that
    does not pickle becomes a RuntimeError naming it."""
    import traceback

    if not getattr(exc, "detail", None):
        try:
            exc.detail = "".join(traceback.format_exception(exc))
        except (AttributeError, TypeError):
            pass
    try:
        return pickle.dumps(exc, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # noqa: BLE001 - anything unpicklable is reported, never lost
        err = RuntimeError(f"{type(exc).__name__}: {exc}")
        err.detail = getattr(exc, "detail", "")
        return pickle.dumps(err, protocol=pickle.HIGHEST_PROTOCOL)


def _serve(conn, cancelled_upto, warm: tuple, parent: int) -> None:   # the worker's main
    import gc
    import importlib

    from engines.core import i18n
    from engines.core.errors import Cancelled

    for name in warm:
        importlib.import_module(name)
    gc.collect()
    gc.freeze()        # what the imports made lives as long as the process
    conn.send(("ready", os.getpid(), b""))
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        call_id, language, fn, args, kwargs, partial_keyword = message

        def cancel(call_id=call_id) -> bool:
            # also when the app ended without a word (os._exit): this process is then orphaned
            return cancelled_upto.value >= call_id or os.getppid() != parent

        if cancel():
            conn.send((call_id, "cancelled", b""))
            continue
        if language != i18n.language():
            i18n.set_language(language)
        if partial_keyword:
            def partial(value, call_id=call_id) -> None:
                conn.send((call_id, "partial",
                           pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)))
            kwargs[partial_keyword] = partial
        try:
            value = fn(*args, cancel=cancel, **kwargs)
            answer = (call_id, "result", pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
        except Cancelled:
            answer = (call_id, "cancelled", b"")
        except Exception as exc:  # noqa: BLE001 - every error goes back to its caller
            answer = (call_id, "error", _portable(exc))
        try:
            conn.send(answer)
        except (EOFError, OSError):
            return


class _Parts:
    """A long tuple or list on its way to the worker as pickles of consecutive parts; it
    unpickles there as the tuple or list itself (equal items, in order)."""

    __slots__ = ("kind", "parts")

    def __init__(self, kind: type, parts: list):
        self.kind, self.parts = kind, parts

    def __reduce__(self):
        return _joined, (self.kind, self.parts)


def _joined(kind: type, parts: list):
    """What :class:`_Parts` unpickles as (in the worker)."""
    items: list = []
    for part in parts:
        items.extend(pickle.loads(part))
    return kind(items)


def _in_parts(value: Any, between: Callable[[], None]) -> Any:
    """``value``, or a :class:`_Parts` of it when it is a tuple or list of more than
    :data:`PICKLE_PART_ITEMS` items; ``between()`` is called before each part (the interpreter
    lock may change hands there, and the caller may wait)."""
    if type(value) not in (tuple, list) or len(value) <= PICKLE_PART_ITEMS:
        return value
    parts = []
    for start in range(0, len(value), PICKLE_PART_ITEMS):
        between()
        parts.append(pickle.dumps(value[start:start + PICKLE_PART_ITEMS],
                                  protocol=pickle.HIGHEST_PROTOCOL))
    return _Parts(type(value), parts)


class EngineProcess:
    """One worker process that runs engine functions for the app (see the module docstring).
    Thread-safe; :meth:`call` blocks its calling thread (a pool thread) until the answer.

    Args:
        name: what the process is for (:data:`RANKINGS`, :data:`WHO_IS_CLOSE`; its process's
            name ends with it).

    Attributes:
        pid: the worker's process id once it is ready, else None.
    """

    def __init__(self, name: str = RANKINGS):
        self.name = name
        self._lock = threading.Lock()        # the state, the pending calls, the counter
        self._send_lock = threading.Lock()   # one message on the pipe at a time
        self._state = "idle"                 # idle → starting → ready → lost
        self._pending: dict[int, queue.SimpleQueue] = {}
        self._owners: dict[int, Any] = {}     # call id → its owner, while it is in flight
        self._next_id = 0
        self._conn = None
        self._process = None
        self._cancelled_upto = None
        self.pid: Optional[int] = None

    @property
    def ready(self) -> bool:
        """True when the worker has imported its modules and takes calls."""
        return self._state == "ready"

    def start(self, warm: tuple = ()) -> None:
        """Start the worker (once; later calls do nothing), importing the modules ``warm``
        (dotted names) before it is ready. Returns at once: the worker spawns and imports in
        the background. A start that fails leaves the worker gone (every call then runs in
        its caller's thread) and is logged."""
        with self._lock:
            if self._state != "idle":
                return
            self._state = "starting"
        try:
            import multiprocessing

            ctx = multiprocessing.get_context("spawn")
            ours, theirs = ctx.Pipe()
            self._cancelled_upto = ctx.RawValue("q", 0)
            process = ctx.Process(target=_serve, args=(theirs, self._cancelled_upto, tuple(warm),
                                                          os.getpid()),
                                  name=f"deduction-desk-engines-{self.name}", daemon=True)
            process.start()
            theirs.close()
        except Exception as exc:  # noqa: BLE001 - no worker: the calls run in their threads
            log.warning("the engines' worker process did not start: %s", exc)
            self._state = "lost"
            return
        self._conn, self._process = ours, process
        # after multiprocessing's own exit handler, so before it (atexit runs last first): the
        # worker it then ends is no news
        atexit.register(self._ending)
        threading.Thread(target=self._read, name="deduction-desk-engines-reader",
                         daemon=True).start()

    @property
    def busy(self) -> bool:
        """True while a call is in flight (a call of another owner is then refused with
        :class:`Unavailable`)."""
        with self._lock:
            return bool(self._owners)

    def wait_ready(self, timeout_s: float) -> bool:
        """Wait at most ``timeout_s`` seconds while the worker is starting; True when it is
        ready (the self-test, tests)."""
        deadline = time.monotonic() + timeout_s
        pause = threading.Event()
        while self._state in ("idle", "starting") and time.monotonic() < deadline:
            pause.wait(0.02)
        return self.ready

    def _ending(self) -> None:
        with self._lock:
            self._state = "closed"

    def _read(self) -> None:   # the reader thread
        conn = self._conn
        try:
            while True:
                call_id, kind, payload = conn.recv()
                if call_id == "ready":
                    self.pid = kind
                    self._state = "ready"
                    continue
                waiting = self._pending.get(call_id)
                if waiting is not None:
                    waiting.put((kind, payload))
        except (EOFError, OSError, ValueError, pickle.UnpicklingError) as exc:
            if self._state != "closed":
                log.warning("the engines' worker process ended: %s", exc or type(exc).__name__)
        finally:
            with self._lock:
                if self._state != "closed":
                    self._state = "lost"
                waiting = list(self._pending.values())
            for w in waiting:
                w.put(("lost", b""))

    def call(self, fn: Callable, args: tuple = (), kwargs: Optional[dict] = None, *,
             cancelled: Callable[[], bool],
             on_partial: Optional[Callable[[Any], None]] = None,
             partial_keyword: Optional[str] = None, owner: Any = None,
             pause: Optional[Callable[[], None]] = None) -> Any:
        """``fn(*args, cancel=flag, **kwargs)`` computed in the worker; returns its result.

        Args:
            fn: a function importable by its module and name (pickled by reference).
            cancelled: polled every :data:`POLL_SECONDS` while waiting; once True the worker's
                ``cancel`` flag turns True too and :class:`Cancelled` is raised at once.
            on_partial, partial_keyword: ``fn`` gets ``partial_keyword=callback``; each value
                the callback receives in the worker is handed to ``on_partial`` here (in the
                calling thread, in order, before the result).
            owner: who calls (a tab's runner; compared with ``==``): while a call of another
                owner is in flight, this one is not taken.
            pause: called before each part of a long argument is pickled (see
                :data:`PICKLE_PART_ITEMS`): where the caller waits while the GUI thread needs
                the interpreter lock (:func:`run`: the worker gate).
        Raises:
            Unavailable: the worker is not ready, is gone, is busy with another owner's call,
                or the call cannot be pickled (run it here instead). Cancelled. Whatever
                ``fn`` raised.
        """
        from engines.core import i18n
        from engines.core.errors import Cancelled

        kwargs = dict(kwargs or {})
        with self._lock:
            if self._state != "ready":
                raise Unavailable(self._state)
            if any(o != owner for o in self._owners.values()):
                raise Unavailable("busy with another owner's call")
            self._next_id += 1
            call_id = self._next_id
            answers: queue.SimpleQueue = queue.SimpleQueue()
            self._pending[call_id] = answers
            self._owners[call_id] = owner
        try:
            def between() -> None:
                if pause is not None:
                    pause()
                if cancelled():
                    raise Cancelled()

            try:
                args = tuple(_in_parts(a, between) for a in args)
                kwargs = {k: _in_parts(v, between) for k, v in kwargs.items()}
                message = pickle.dumps((call_id, i18n.language(), fn, args, kwargs,
                                        partial_keyword if on_partial is not None else None),
                                       protocol=pickle.HIGHEST_PROTOCOL)
            except Cancelled:
                raise
            except Exception as exc:      # e.g. a function a test replaced: not importable
                raise Unavailable(f"cannot send the call: {exc}") from exc
            with self._send_lock:
                try:
                    self._conn.send_bytes(message)
                except (OSError, ValueError) as exc:
                    raise Unavailable(f"cannot send the call: {exc}") from exc
            while True:
                try:
                    kind, payload = answers.get(timeout=POLL_SECONDS)
                except queue.Empty:
                    if cancelled():
                        self.cancel(call_id)
                        raise Cancelled() from None
                    continue
                if kind == "partial":
                    if on_partial is not None and not cancelled():
                        on_partial(pickle.loads(payload))
                elif kind == "result":
                    return pickle.loads(payload)
                elif kind == "cancelled":
                    raise Cancelled()
                elif kind == "error":
                    raise pickle.loads(payload)
                else:
                    raise Unavailable("the worker process ended")
        finally:
            with self._lock:
                self._pending.pop(call_id, None)
                self._owners.pop(call_id, None)

    def cancel(self, call_id: int) -> None:
        """Cancel call ``call_id`` and every earlier one still running or queued."""
        with self._lock:
            if self._cancelled_upto is not None and self._cancelled_upto.value < call_id:
                self._cancelled_upto.value = call_id

    def close(self) -> None:
        """Stop the worker (its running call is abandoned) and wait for it at most
        :data:`STOP_SECONDS`."""
        with self._lock:
            state, self._state = self._state, "closed"
            conn, process = self._conn, self._process
            if self._cancelled_upto is not None:
                self._cancelled_upto.value = self._next_id
        if state in ("idle", "closed") or process is None:
            return
        try:
            with self._send_lock:
                conn.send(None)
        except (OSError, ValueError):
            pass
        process.join(STOP_SECONDS)
        if process.is_alive():
            process.terminate()
            process.join(STOP_SECONDS)
        conn.close()


#: The app's worker processes by name (each made on first use).
_workers: dict[str, EngineProcess] = {}
_workers_lock = threading.Lock()
#: Whether :func:`run` may use the worker process. None: as the running app's process-wide
#: settings say (:data:`desktop.shell.process.engine_worker`, set by ``configure_process``,
#: which ``main()`` and the test session's set-up call), never by building a window alone: a
#: script that makes a window without them computes in its threads, since a "spawn" process
#: would run that script's main module again unless it is guarded (Python documentation,
#: multiprocessing, "Safe importing of main module"). False: a test that replaces an engine
#: function in this process.
enabled: Optional[bool] = None


def _allowed() -> bool:
    if enabled is not None:
        return enabled
    from desktop.shell import process

    return process.engine_worker


def shared(name: str = RANKINGS) -> EngineProcess:
    """The app's worker process called ``name`` (:data:`RANKINGS`, :data:`WHO_IS_CLOSE`): an
    :class:`EngineProcess` made on first use and started by the first :func:`run`."""
    with _workers_lock:
        if name not in _workers:
            _workers[name] = EngineProcess(name=name)
        return _workers[name]


def run(task, fn: Callable, *args, partial_keyword: Optional[str] = None,
        on_partial: Optional[Callable[[Any], None]] = None, worker_name: str = RANKINGS,
        **kwargs) -> Any:
    """``fn(*args, cancel=..., **kwargs)`` for a job of a runner that does not share the
    interpreter lock (:class:`desktop.tabs.jobs.JobRunner` made with ``shares_lock=False``):
    in the worker process when it is ready (the first call starts it), else here, in the
    job's thread, after waiting its turn as a job that shares the lock does
    (:meth:`desktop.tabs.jobs.TaskState.share_lock`).

    Args:
        task: the job's :class:`desktop.tabs.jobs.TaskState` (its cancel flag, and its
            ``owner``: the runner).
        partial_keyword, on_partial: ``fn``'s keyword for a callback of partial results, and
            where they go here (e.g. ``"on_estimate"``, ``task.publish``).
        worker_name: which worker process (:func:`shared`).
    Raises:
        Cancelled, and whatever ``fn`` raises.
    """
    if _allowed():
        worker = shared(worker_name)
        if worker._state == "idle":
            worker.start(warm=(fn.__module__,))
        try:
            return worker.call(fn, args, kwargs, cancelled=lambda: task.cancel_requested,
                               on_partial=on_partial, partial_keyword=partial_keyword,
                               owner=task.owner, pause=task.wait_for_gui)
        except Unavailable:
            pass
    if task.share_lock():
        from engines.core.errors import Cancelled

        raise Cancelled()
    if partial_keyword and on_partial is not None:
        kwargs[partial_keyword] = on_partial
    return fn(*args, cancel=task, **kwargs)


def process_id(*, cancel=None) -> int:
    """The id of the process it runs in (the self-test's call to the worker)."""
    return os.getpid()


def close_shared() -> None:
    """Stop the app's worker processes, if any was started (the app's end; tests)."""
    with _workers_lock:
        workers = list(_workers.values())
        _workers.clear()
    for worker in workers:
        worker.close()
