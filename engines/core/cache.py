"""A small thread-safe least-recently-used cache, with one computation per key at a time.

Answers that are a function of (setup, log) — a ranking of suggestions, the information each
room offers — are asked again when the user goes back and forth in the History or a second task
needs the same prefix. :class:`LockedLRU` keeps the last few, and :meth:`LockedLRU.get_or_compute`
lets a second asker wait for the task already computing a value instead of computing it twice
("single flight"). Pure Python, no Qt: the engines and the desktop's worker threads share it.

The eviction rule is the classic least-recently-used one (a hit or a store makes the entry the
newest; the oldest goes when the cache is over capacity), as :func:`functools.lru_cache` does
(Python standard library), which cannot serve here: it cannot be cleared per key, has no
waiting for an in-flight value and cannot poll a cancel flag while waiting.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Callable, Generic, Hashable, Optional, TypeVar

from engines.core.errors import CancelFlag, check_cancel

V = TypeVar("V")

#: Seconds between two looks at the cancel flag while waiting for another task's value.
POLL_SECONDS = 0.05


class LockedLRU(Generic[V]):
    """A map of at most ``capacity`` entries, least recently used dropped first; thread-safe.

    Keys must be hashable (callers with possibly unhashable keys test ``hash`` first). Values
    must not be None (None means "not kept") and are shared between threads as they are: treat
    them as read-only.

    Raises:
        ValueError: ``capacity`` is below 1.
    """

    def __init__(self, capacity: int):
        if capacity < 1:
            raise ValueError(f"capacity must be at least 1, got {capacity}")
        self.capacity = capacity
        self._lock = threading.Lock()
        self._entries: OrderedDict[Hashable, V] = OrderedDict()
        self._inflight: dict[Hashable, threading.Event] = {}   # keys being computed

    def get(self, key: Hashable) -> Optional[V]:
        """The value kept for ``key`` (now the most recently used), or None."""
        with self._lock:
            return self._hit(key)

    def put(self, key: Hashable, value: V) -> None:
        """Keep ``value`` for ``key`` as the most recently used; drop the oldest over capacity."""
        with self._lock:
            self._store(key, value)

    def get_or_compute(self, key: Hashable, compute: Callable[[], V],
                       cancel: CancelFlag = None) -> V:
        """The value kept for ``key``; else the value another thread is computing for it (waited
        for); else ``compute()``, kept. Only one thread computes a key at a time; if it fails,
        a waiting thread computes it in turn.

        Raises:
            Cancelled: ``cancel`` returned True while waiting for another thread (polled every
                :data:`POLL_SECONDS`). Whatever ``compute`` raises (nothing is kept then).
        """
        while True:
            with self._lock:
                hit = self._hit(key)
                if hit is not None:
                    return hit
                done = self._inflight.get(key)
                if done is None:
                    done = self._inflight[key] = threading.Event()
                    break
            self._wait(done, cancel)
        try:
            value = compute()
            with self._lock:
                self._store(key, value)
        finally:
            with self._lock:
                self._inflight.pop(key, None)
            done.set()
        return value

    def wait_for(self, key: Hashable, cancel: CancelFlag = None) -> Optional[V]:
        """The value kept for ``key``, waiting for a thread computing it if there is one; None
        when it is neither kept nor being computed (this never computes it).

        Raises:
            Cancelled: as :meth:`get_or_compute`.
        """
        while True:
            with self._lock:
                hit = self._hit(key)
                done = self._inflight.get(key) if hit is None else None
            if done is None:
                return hit
            self._wait(done, cancel)

    def clear(self) -> None:
        """Forget every kept value (values being computed are still kept when they finish)."""
        with self._lock:
            self._entries.clear()

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)

    def _hit(self, key):
        value = self._entries.get(key)
        if value is not None:
            self._entries.move_to_end(key)
        return value

    def _store(self, key, value) -> None:
        self._entries[key] = value
        self._entries.move_to_end(key)
        while len(self._entries) > self.capacity:
            self._entries.popitem(last=False)

    @staticmethod
    def _wait(done: threading.Event, cancel: CancelFlag) -> None:
        while not done.wait(POLL_SECONDS):
            check_cancel(cancel)
