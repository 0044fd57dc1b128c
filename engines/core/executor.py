"""One executor for every simulator: independent games, deterministic seeds, local or Dask.

A simulation is a list of independent games. Game ``i`` of a run with seed ``s`` draws all of
its randomness from ``numpy.random.SeedSequence(s, spawn_key=(i,))`` — the ``i``-th child of
``SeedSequence(s).spawn(n)`` (NumPy, "Parallel random number generation") — so its outcome
does not depend on which process or machine plays it, on the number of workers, or on the
order in which games finish. :func:`run_games` returns the results in game order.

Where the games run (``scheduler``):

* ``None`` / ``""`` / ``"processes"`` — this computer: in this process when ``workers`` is 1
  (or there is only one chunk), else a :class:`concurrent.futures.ProcessPoolExecutor`
  ("spawn" start, safe inside the Qt app and the bundle) with ``workers`` processes
  (default: the number of CPUs).
* ``"processes:N"`` — the same with N processes.
* ``"local:N"`` — a :class:`distributed.LocalCluster` with N worker processes started for
  this run and closed after it (``"local:N:threads"`` runs N threads in this process: no
  start-up cost, for tests).
* ``"tcp://HOST:PORT"`` (or ``tls://``) — a running Dask scheduler (``dask scheduler`` and
  ``dask worker tcp://HOST:8786``; the scheduler and the workers need this package, same
  version, installed: a mismatch is reported as :class:`SessionFormatError`).

Dask is the optional extra ``cluster`` (``pip install '.[cluster]'``); naming a Dask
scheduler without it raises :class:`SessionFormatError` that says so.

Progress and cancel behave the same everywhere: ``progress(done_games, total_games)`` is
called in the calling thread as chunks finish, and in between when a long game reports how far
it is (:func:`game_progress`); when ``cancel()`` returns true, queued games are dropped,
running games are asked to stop (:func:`worker_cancelled`, which a game loop may poll through
:func:`engines.core.errors.check_cancel`; this computer's worker processes are ended at once),
and :class:`Cancelled` is raised.
``engines`` never imports Qt; this module imports Dask only when a Dask scheduler is named.
"""
from __future__ import annotations

import concurrent.futures as cf
import os
import sys
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence

import numpy as np

from engines.core.errors import CancelFlag, Cancelled, SessionFormatError

Progress = Optional[Callable[[float, int], None]]
GameFn = Callable[..., Any]
"""A game: a picklable top-level function ``fn(index, seed_sequence, *args) -> result``.
``index`` is the game's number (0-based), ``seed_sequence`` its :class:`numpy.random.SeedSequence`
(use ``numpy.random.default_rng(seed_sequence)``); the result must be picklable."""

INSTALL_HINT = "pip install '.[cluster]'  (or: pip install 'dask[distributed]')"
MAX_GAMES = 10_000_000
"""Largest number of games one run accepts (the seed list and the result list are O(games))."""
MAX_WORKERS = 256
"""Largest ``N`` of ``processes:N`` / ``local:N`` (each process costs ~100 MB and a start-up)."""


@dataclass(frozen=True)
class Scheduler:
    """A parsed ``scheduler`` string.

    Attributes:
        kind: ``"processes"`` (this computer), ``"local"`` (a LocalCluster started for the
            run) or ``"address"`` (a running Dask scheduler).
        workers: number of processes (``None``: the CPU count) for processes/local.
        address: the scheduler address for ``"address"``.
        threads: LocalCluster with threads in this process instead of worker processes.
    """

    kind: str
    workers: Optional[int] = None
    address: Optional[str] = None
    threads: bool = False

    @property
    def uses_dask(self) -> bool:
        return self.kind != "processes"

    def describe(self) -> str:
        """Human-readable: "this computer (2 processes)", "Dask LocalCluster (2 workers)"..."""
        if self.kind == "processes":
            n = self.workers or os.cpu_count() or 1
            return f"this computer ({n} process{'es' if n != 1 else ''})"
        if self.kind == "local":
            return f"Dask LocalCluster ({self.workers} {'threads' if self.threads else 'workers'})"
        return f"Dask scheduler at {self.address}"


def parse_scheduler(text: Optional[str], workers: Optional[int] = None,
                    option: str = "--scheduler") -> Scheduler:
    """Parse a ``--scheduler`` value (module docstring lists the forms).

    Args:
        text: the value (None or "" = this computer).
        workers: processes on this computer when ``text`` does not say (None = CPU count).
        option: the option name used in error messages.
    Raises:
        SessionFormatError: an unknown form or a worker count out of 1..:data:`MAX_WORKERS`.
    """
    def count(s: str) -> int:
        try:
            n = int(s)
        except ValueError:
            raise SessionFormatError(option, f"expected a number of workers, got {s!r}") from None
        if not 1 <= n <= MAX_WORKERS:
            raise SessionFormatError(option, f"number of workers must be 1..{MAX_WORKERS}, "
                                             f"got {n}")
        return n

    t = (text or "").strip()
    if workers is not None:
        workers = count(str(workers))
    if t in ("", "processes", "local-processes", "this-computer"):
        return Scheduler("processes", workers)
    if t.startswith("processes:"):
        return Scheduler("processes", count(t.split(":", 1)[1]))
    if t == "local" or t.startswith("local:"):
        parts = t.split(":")
        n = count(parts[1]) if len(parts) > 1 and parts[1] else (workers or os.cpu_count() or 1)
        threads = len(parts) > 2 and parts[2] == "threads"
        if len(parts) > 3 or (len(parts) > 2 and not threads):
            raise SessionFormatError(option, f"expected local:N or local:N:threads, got {t!r}")
        return Scheduler("local", n, threads=threads)
    if "://" in t:
        proto, rest = t.split("://", 1)
        if proto not in ("tcp", "tls", "ws", "wss", "inproc", "ucx") or not rest:
            raise SessionFormatError(option, f"expected a scheduler address like "
                                             f"tcp://HOST:8786, got {t!r}")
        return Scheduler("address", address=t)
    raise SessionFormatError(option, f"expected 'processes[:N]', 'local:N' or a Dask scheduler "
                                     f"address such as tcp://HOST:8786, got {t!r}")


def dask_available() -> bool:
    """True when ``distributed`` is installed (the ``cluster`` extra), found without importing
    it (importing Dask takes about 0.3 s; a broken install is reported when a cluster is
    actually asked for, by :func:`_require_dask`)."""
    import importlib.util

    if "distributed" in sys.modules:
        return sys.modules["distributed"] is not None
    try:
        return importlib.util.find_spec("distributed") is not None
    except (ImportError, ValueError):
        return False


def _require_dask(option: str):
    try:
        import distributed
    except ImportError:
        raise SessionFormatError(option, "running on a Dask cluster needs Dask distributed, "
                                         f"which is not installed: {INSTALL_HINT}") from None
    return distributed


def game_seed(seed: int, index: int) -> np.random.SeedSequence:
    """The seed of game ``index`` of a run seeded ``seed``: equal to
    ``SeedSequence(seed).spawn(index + 1)[index]`` (children of one root are independent)."""
    return np.random.SeedSequence(seed, spawn_key=(index,))


def game_seeds(seed: int, n: int) -> list:
    """``SeedSequence(seed).spawn(n)``: the seeds of games 0..n-1."""
    return np.random.SeedSequence(seed).spawn(n)


# ------------------------------------------------------------------ inside a worker

_process_hook: Optional[Callable[[], bool]] = None   # a worker process: its stop event
_process_queue = None                                 # a worker process: where progress goes
_thread = threading.local()   # a thread running games: .hook (cancel), .report, .index, .last
REPORT_INTERVAL = 0.25
"""Seconds between two progress reports of one game (:func:`game_progress`)."""


def worker_cancelled() -> bool:
    """True when the run that the calling game belongs to was cancelled. Long games poll it
    (``check_cancel(worker_cancelled)``); it works in this process (it then calls the caller's
    ``cancel``), in a worker process and on a Dask worker."""
    hook = getattr(_thread, "hook", None) or _process_hook
    return hook is not None and bool(hook())


def game_progress(fraction: float) -> None:
    """Inside a long game: report how far it is (0..1); the caller's ``progress`` then moves
    between finished games (``done`` becomes a float). At most one report per
    :data:`REPORT_INTERVAL` s is sent; no effect outside :func:`run_games`."""
    report = getattr(_thread, "report", None)
    index = getattr(_thread, "index", None)
    if report is None or index is None:
        return
    now = time.monotonic()
    if now - getattr(_thread, "last", 0.0) < REPORT_INTERVAL:
        return
    _thread.last = now
    try:
        report((index, min(max(float(fraction), 0.0), 1.0)))
    except Exception:   # noqa: BLE001 - progress is best effort; never fail a game for it
        pass


def _init_process(event, queue) -> None:
    global _process_hook, _process_queue
    _process_hook = event.is_set
    _process_queue = queue


class _DaskEventPoll:
    """Polls a ``distributed.Event`` at most every ``interval`` s (each poll asks the scheduler)."""

    def __init__(self, name: str, interval: float = 0.5):
        self.name, self.interval, self.last, self.state, self.event = name, interval, 0.0, False, None

    def __call__(self) -> bool:
        now = time.monotonic()
        if not self.state and now - self.last >= self.interval:
            self.last = now
            try:
                if self.event is None:
                    from distributed import Event
                    self.event = Event(self.name)
                self.state = bool(self.event.is_set())
            except Exception:   # noqa: BLE001 - no scheduler reachable from here: never cancelled
                self.state = False
        return self.state


def _run_chunk(fn: GameFn, seed: int, first: int, last: int, args: tuple,
               cancel_event: Optional[str] = None, progress_queue: Optional[str] = None) -> list:
    """Play games first..last-1 (a task); on Dask, ``cancel_event`` names the stop event and
    ``progress_queue`` the queue of :func:`game_progress` reports."""
    saved = (getattr(_thread, "hook", None), getattr(_thread, "report", None))
    if cancel_event is not None:
        _thread.hook = _DaskEventPoll(cancel_event)
    if progress_queue is not None:
        _thread.report = _DaskQueuePut(progress_queue)
    elif _process_queue is not None:
        _thread.report = _process_queue.put_nowait
    try:
        out = []
        for i in range(first, last):
            if worker_cancelled():
                raise Cancelled()
            _thread.index, _thread.last = i, time.monotonic()
            out.append(fn(i, game_seed(seed, i), *args))
        return out
    finally:
        _thread.hook, _thread.report = saved
        _thread.index = None


class _DaskQueuePut:
    """Puts progress reports on a ``distributed.Queue`` (created on first use)."""

    def __init__(self, name: str):
        self.name, self.queue = name, None

    def __call__(self, item) -> None:
        if self.queue is None:
            from distributed import Queue
            self.queue = Queue(self.name)
        self.queue.put(item)


# ------------------------------------------------------------------ the caller's side

def _chunks(n: int, workers: int, chunk_size: Optional[int]) -> list:
    if chunk_size is None:
        # at least 4 tasks per worker (load balance) and 50 per run (progress steps of 2%),
        # at most 1000 (each task costs ~1 ms of scheduling)
        tasks = min(n, 1000, max(50, 4 * workers))
        chunk_size = -(-n // tasks)
    return [(a, min(n, a + chunk_size)) for a in range(0, n, chunk_size)]


def run_games(fn: GameFn, games: int, seed: int, args: Sequence = (), *,
              scheduler: Optional[str] = None, workers: Optional[int] = None,
              chunk_size: Optional[int] = None, progress: Progress = None,
              cancel: CancelFlag = None) -> list:
    """Play ``games`` independent games and return their results in game order.

    Args:
        fn: the game, ``fn(index, seed_sequence, *args)`` (see :data:`GameFn`); top-level and
            picklable, as are ``args`` and the results.
        games: number of games (1..:data:`MAX_GAMES`).
        seed: the run's seed (an int >= 0); game i uses :func:`game_seed` (seed, i).
        args: extra arguments passed to every game (sent once per chunk).
        scheduler: where to run (module docstring); None = this computer.
        workers: processes on this computer (None = CPU count; 1 = in this process).
        chunk_size: games per task (None: about 4 tasks per worker, at most 1000 tasks).
        progress: ``progress(done, total)`` in games, called in the calling thread; ``done``
            is a float when games report their own progress (:func:`game_progress`).
        cancel: zero-argument callable polled about every 0.1 s; see the module docstring.
    Returns:
        list of ``games`` results, ``result[i] = fn(i, game_seed(seed, i), *args)``.
    Raises:
        SessionFormatError: bad scheduler, games or seed; Dask not installed; the scheduler
            address unreachable (message names it).
        Cancelled: ``cancel()`` became true.
        Any exception a game raises (re-raised in the caller).
    """
    if not isinstance(games, (int, np.integer)) or not 1 <= games <= MAX_GAMES:
        raise SessionFormatError("--games", f"must be 1..{MAX_GAMES}, got {games!r}")
    if not isinstance(seed, (int, np.integer)) or seed < 0:
        raise SessionFormatError("--seed", f"must be a whole number >= 0, got {seed!r}")
    games, seed, args = int(games), int(seed), tuple(args)
    sch = parse_scheduler(scheduler, workers)
    if sch.kind == "processes":
        return _run_processes(fn, games, seed, args, local_workers(sch.workers),
                              chunk_size, progress, cancel)
    if sch.kind == "local":   # a LocalCluster runs on this computer too
        sch = Scheduler("local", local_workers(sch.workers), threads=sch.threads)
    else:   # the missing extra is named first: no use reaching a scheduler without it
        _require_dask("--scheduler")
        check_reachable(sch.address)
    return _run_dask(fn, games, seed, args, sch, chunk_size, progress, cancel)


def cores() -> int:
    """The processors this process may run on (its CPU affinity; else the CPU count)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def local_workers(requested: Optional[int]) -> int:
    """Worker processes on this computer: ``requested`` (None: all) capped at :func:`cores`.
    More processes than cores finish no sooner (the games are CPU-bound) and each holds its
    own copy of the engine in memory (``--workers 64`` took 3.9 GB on 2 cores); the figures
    do not depend on the number of workers."""
    return min(requested or cores(), cores())


#: How long a Dask scheduler address may take to accept a connection (s); the whole refusal
#: of an unreachable one stays within 3 s.
CONNECT_TIMEOUT_S = 2.0


def check_reachable(address: str, timeout: float = CONNECT_TIMEOUT_S) -> None:
    """Refuse at once a ``tcp://`` / ``tls://`` scheduler address that accepts no connection
    within ``timeout`` seconds (a plain TCP connect, before Dask is imported; Dask's own
    client waits 10 s and more). Other protocols are left to Dask.

    Raises:
        SessionFormatError: at ``--scheduler``, naming the address and the reason.
    """
    import socket
    from urllib.parse import urlsplit

    if not address.startswith(("tcp://", "tls://")):
        return
    try:
        parts = urlsplit(address)
        host, port = parts.hostname, parts.port or 8786
    except ValueError:
        raise SessionFormatError("--scheduler", f"expected an address like tcp://HOST:8786, "
                                                f"got {address!r}") from None
    if not host:
        raise SessionFormatError("--scheduler", f"expected an address like tcp://HOST:8786, "
                                                f"got {address!r}")
    t0 = time.monotonic()
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as exc:
        raise SessionFormatError("--scheduler", f"cannot reach the Dask scheduler at "
                                                f"{address}: unknown host ({exc})") from None
    last = None
    for family, kind, proto, _name, addr in infos:
        left = timeout - (time.monotonic() - t0)
        if left <= 0:
            break
        try:
            with socket.socket(family, kind, proto) as sock:
                sock.settimeout(left)
                sock.connect(addr)
                return
        except OSError as exc:
            last = exc
    why = "no answer within {:g} s".format(timeout) if last is None or \
        isinstance(last, socket.timeout) else (last.strerror or str(last))
    raise SessionFormatError("--scheduler", f"cannot reach the Dask scheduler at {address}: "
                                            f"{why}")


def _run_inline(fn, games, seed, args, progress, cancel) -> list:
    saved = (getattr(_thread, "hook", None), getattr(_thread, "report", None))
    _thread.hook = cancel
    _thread.report = (lambda item: progress(item[0] + item[1], games)) if progress else None
    try:
        out = []
        for i in range(games):
            if cancel is not None and cancel():
                raise Cancelled()
            _thread.index, _thread.last = i, time.monotonic()
            out.append(fn(i, game_seed(seed, i), *args))
            if progress is not None:
                progress(i + 1, games)
        return out
    finally:
        _thread.hook, _thread.report = saved
        _thread.index = None


def _run_processes(fn, games, seed, args, workers, chunk_size, progress, cancel) -> list:
    chunks = _chunks(games, workers, chunk_size)
    workers = min(workers, len(chunks))
    if workers <= 1:
        return _run_inline(fn, games, seed, args, progress, cancel)
    import multiprocessing as mp
    ctx = mp.get_context("spawn")
    stop, reports = ctx.Event(), ctx.Queue()
    ex = cf.ProcessPoolExecutor(max_workers=workers, mp_context=ctx,
                                initializer=_init_process, initargs=(stop, reports))

    def drain() -> list:
        import queue as queue_mod
        items = []
        while True:
            try:
                items.append(reports.get_nowait())
            except (queue_mod.Empty, OSError, ValueError):
                return items

    def stop_all():
        stop.set()
        # games are pure computations: end the workers now rather than when their game ends
        for proc in list(getattr(ex, "_processes", {}).values()):
            proc.terminate()

    try:
        futs = {ex.submit(_run_chunk, fn, seed, a, b, args): (a, b) for a, b in chunks}
        return _collect(futs, games, progress, cancel, stop_all,
                        lambda pending: cf.wait(pending, timeout=0.1,
                                                return_when=cf.FIRST_COMPLETED)[0], drain)
    finally:
        ex.shutdown(wait=False, cancel_futures=True)


def _collect(futs: dict, games: int, progress, cancel, stop, wait_some, drain=None) -> list:
    """Gather chunk futures (dict future -> (first, last)) into the ordered result list;
    ``drain()`` returns the (game, fraction) reports of :func:`game_progress` since last asked."""
    results: list = [None] * games
    finished = np.zeros(games, dtype=bool)
    partial: dict = {}
    pending = set(futs)
    done_games = 0
    while pending:
        if cancel is not None and cancel():
            stop()
            for f in pending:
                f.cancel()
            raise Cancelled()
        moved = False
        for f in wait_some(pending):
            pending.discard(f)
            a, b = futs[f]
            results[a:b] = f.result()      # re-raises a game's exception
            finished[a:b] = True
            for i in range(a, b):
                partial.pop(i, None)
            done_games += b - a
            moved = True
        for i, frac in (drain() if drain is not None and progress is not None else ()):
            if not finished[i]:
                partial[i] = frac
                moved = True
        if moved and progress is not None:
            extra = sum(partial.values())
            progress(done_games + extra if extra else done_games, games)
    return results


def _run_dask(fn, games, seed, args, sch: Scheduler, chunk_size, progress, cancel) -> list:
    distributed = _require_dask("--scheduler")
    import logging
    import uuid
    quiet = logging.getLogger("distributed")
    level = quiet.level
    quiet.setLevel(logging.CRITICAL)   # closing a cluster logs tracebacks of closed comms
    cluster = None
    try:
        if sch.kind == "local":
            cluster = distributed.LocalCluster(
                n_workers=sch.workers, threads_per_worker=1, processes=not sch.threads,
                dashboard_address=None, silence_logs=logging.CRITICAL)
            client = distributed.Client(cluster, set_as_default=False)
        else:
            try:
                client = distributed.Client(sch.address, timeout=f"{CONNECT_TIMEOUT_S:g}s",
                                            set_as_default=False)
            except (OSError, TimeoutError, MemoryError, ValueError, TypeError) as exc:
                # also a server that is not a Dask scheduler (it answers something else)
                raise SessionFormatError("--scheduler", f"cannot reach the Dask scheduler at "
                                                        f"{sch.address}: "
                                                        f"{type(exc).__name__}") from None
        try:
            n_workers = max(1, len(client.scheduler_info().get("workers", {})) or
                            (sch.workers or 1))
            chunks = _chunks(games, n_workers, chunk_size)
            stop_name = f"deduction-desk-cancel-{uuid.uuid4().hex}"
            stop = distributed.Event(stop_name, client=client)
            reports = distributed.Queue(stop_name + "-progress", client=client)

            def drain() -> list:
                try:
                    return list(reports.get(batch=True))
                except Exception:   # noqa: BLE001 - progress is best effort
                    return []
            futs = {client.submit(_run_chunk, fn, seed, a, b, args, stop_name,
                                  stop_name + "-progress" if progress is not None else None,
                                  key=f"games-{stop_name[-8:]}-{a}-{b}", pure=False): (a, b)
                    for a, b in chunks}

            def wait_some(pending):
                done = [f for f in pending if f.done()]
                if not done:
                    time.sleep(0.05)
                return done

            def stop_all():
                stop.set()
                client.cancel(list(futs))

            try:
                return _collect(futs, games, progress, cancel, stop_all, wait_some, drain)
            except (RuntimeError, ImportError, AttributeError) as exc:
                text = str(exc)
                if isinstance(exc, ImportError) or "deserializ" in text or "engines" in text:
                    raise SessionFormatError(
                        "--scheduler", f"{sch.describe()} (its scheduler or workers) cannot run "
                                       f"this version of the games ({type(exc).__name__}"
                                       f": {text.splitlines()[0] if text else ''}); install the "
                                       f"same version of deduction-desk where they run") from None
                raise
        finally:
            client.close()
    finally:
        if cluster is not None:
            cluster.close()
        quiet.setLevel(level)
