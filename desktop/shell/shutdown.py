"""Quitting with work still running.

:func:`finish_threads` waits for the window's own background jobs and every running
:class:`QThread` after the tabs were asked to stop; a computation that never checks for
cancellation is left to the end of the process, which then exits at once (``os._exit``)
instead of destroying a running QThread (Qt aborts with "QThread: Destroyed while thread is
still running").
"""
from __future__ import annotations

import atexit
import os
import sys
import time

from PySide6.QtCore import QObject, QThread, QThreadPool

#: ``[(thread or pool, owner)]`` still running when the window ended: kept referenced so Qt never
#: destroys a running QThread; the process exits at once if any is left (:func:`_exit_if_threads_run`).
_parked: list = []


def _running(t) -> bool:
    try:
        if isinstance(t, QThreadPool):
            return t.activeThreadCount() > 0
        return t.isRunning()
    except RuntimeError:   # the C++ object is already gone
        return False


def window_threads(window) -> list:
    """``[(QThread, owner)]``: the threads owned by ``window``'s descendants — QThread children
    and QThread attributes of child QObjects (e.g. an inference runner's worker thread)."""

    out, seen = [], set()
    for child in [window] + window.findChildren(QObject):
        cands = [child] if isinstance(child, QThread) else []
        cands += [v for v in getattr(child, "__dict__", {}).values() if isinstance(v, QThread)]
        for t in cands:
            if id(t) not in seen:
                seen.add(id(t))
                out.append((t, child))
    return out


def finish_threads(window, timeout_s: float = 5.0) -> bool:
    """Wait up to ``timeout_s`` for ``window``'s threads to end (its tabs were told to stop);
    True when all ended. A thread still running (a computation that never checks for
    cancellation) is kept referenced with its owner, so it is never destroyed while it runs,
    and the process ends at exit with ``os._exit`` (see module docstring)."""
    end = time.monotonic() + timeout_s
    pairs = window_threads(window)
    for t, _owner in pairs:
        if _running(t):
            t.quit()
    for t, _owner in pairs:
        if _running(t):
            t.wait(max(0, int((end - time.monotonic()) * 1000)))
    still = [(t, o) for t, o in pairs if _running(t)]
    _parked.extend(still)
    # background jobs run on the shared thread pool (desktop.tabs.jobs.thread_pool): its
    # destructor would wait for a job that never checks for cancellation. This window's own
    # jobs are waited for; the pool's others belong to another window of this process (tests),
    # which ends them when it closes
    from desktop.tabs import jobs as inference

    runners = window.findChildren(inference.JobRunner)
    while any(r.running() for r in runners) and time.monotonic() < end:
        time.sleep(0.01)
    own_done = not any(r.running() for r in runners)
    pool_done = inference._pool is None or inference._pool.waitForDone(
        0 if own_done else max(0, int((end - time.monotonic()) * 1000)))
    if not pool_done:
        _parked.append((inference._pool, None))
    return not still and pool_done


@atexit.register
def _exit_if_threads_run() -> None:
    if any(_running(t) for t, _owner in _parked):
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except (OSError, ValueError):
            pass
        os._exit(0)
