"""The belief timeline of one session: the posterior after every prefix of the event log.

One :class:`Timeline` per open session (the desktop's controller owns it; tests and scripts may
use it directly). It folds the log once and keeps what it computed, so that

* appending an event costs one update (an :class:`~engines.core.contract.IncrementalEngine`)
  or one inference (any other engine),
* undo, removing an entry and browsing the history cost nothing for prefixes seen before
  (posteriors are cached per prefix; a removed entry keeps every prefix before it),
* an incremental engine's states are kept as snapshots while they fit :attr:`memory_budget`:
  checkpoints, at most :data:`DEFAULT_CHECKPOINTS` of them evenly along a long log, and the
  last few states computed (so any prefix is at most one checkpoint interval of updates away,
  and the next prefix one update); a state too large to copy (Egghead with 6 players: a 4.4 GB
  master table) is kept as one live state moved forward in place, and prefixes are then
  computed in order.

Checkpointing every ``stride``-th state of a long fold, and recomputing from the nearest one, is
the classic trade of memory for recomputation (Griewank & Walther 2000, in
docs/references.md). A state for every prefix of the 5,000-claim Spyfall table was 2,403
snapshots of 140 kB (the budget's 320 MB) and 40 % of the objects the GUI thread's cyclic
garbage collector scanned (a full collection with that file open: 14-16 ms, 9-10 ms without
the snapshots; tests/benchmarks/bench_open_stall.py).

Engines stay pure functions: every cache lives here. Qt-free; a :class:`threading.Lock` makes
one computation at a time (a worker that is told to stop releases it at the next event).
"""
from __future__ import annotations

import json
import threading
import time
from collections import OrderedDict, deque
from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence

from engines.core.contract import CheckingEngine, IncrementalEngine
from engines.core.errors import CancelFlag, ContradictionError, EngineError, check_cancel

#: Bytes of incremental-engine state snapshots a timeline keeps (older ones are dropped first).
DEFAULT_MEMORY_BUDGET = 320 << 20
#: Posteriors a timeline keeps (older prefixes are dropped first).
DEFAULT_CAPACITY = 2000
#: Checkpoints (state snapshots at every ``stride``-th prefix) a timeline keeps at most along
#: one log: ``stride`` is the least power of two with ``len(log) / stride <= checkpoints``, so a
#: log of up to this many events keeps every prefix's state, and the 5,000-claim Spyfall table
#: every 64th (a prefix at most 63 updates from its checkpoint).
DEFAULT_CHECKPOINTS = 128
#: States of the prefixes computed last kept besides the checkpoints (the next prefix in order,
#: an undo or a replaced last entry is then one update away).
RECENT_STATES = 4


@dataclass(frozen=True)
class TimelineResult:
    """Beliefs after every prefix of one log, as returned by :meth:`Timeline.compute`.

    Attributes:
        posteriors: ``posteriors[k]`` is the posterior after the first ``k`` events
            (``k = 0`` is the setup alone), for ``k`` up to the last consistent prefix
            (length ``n_consistent + 1``); computed with ``full=False``, the entries not
            computed before are None (ask :meth:`Timeline.entry` for them).
        summaries: ``belief_summary`` of each of those posteriors (None likewise).
        error: the :class:`EngineError` (e.g. ContradictionError) that stopped the timeline, or
            None when every event is consistent.
        n_events: the number of events in the log.
    """

    posteriors: tuple
    summaries: tuple
    error: Optional[EngineError] = None
    n_events: int = 0

    @property
    def latest(self):
        """The posterior after the last consistent event (None when even the setup fails)."""
        return self.posteriors[-1] if self.posteriors else None

    @property
    def is_full(self) -> bool:
        """True when every consistent prefix's posterior is present."""
        return all(p is not None for p in self.posteriors)


class Timeline:
    """Posteriors of one session's prefixes, computed on demand and cached.

    Args:
        module: the game's engine module (a :class:`~engines.core.contract.GameEngine`).
        setup: the session's setup; options: keyword arguments for ``module.infer`` (e.g.
            ``{"method": "exact"}``). A new setup or new options need a new Timeline.
        memory_budget: bytes of incremental states kept as snapshots.
        capacity: posteriors kept.
        checkpoints: incremental states kept at most as checkpoints along one log (see
            :data:`DEFAULT_CHECKPOINTS`), besides the :data:`RECENT_STATES` computed last.

    Raises:
        ValueError: ``checkpoints`` is below 1.
    """

    def __init__(self, module: Any, setup: Any, options: Optional[dict] = None, *,
                 memory_budget: int = DEFAULT_MEMORY_BUDGET, capacity: int = DEFAULT_CAPACITY,
                 checkpoints: int = DEFAULT_CHECKPOINTS):
        if checkpoints < 1:
            raise ValueError(f"checkpoints must be at least 1, not {checkpoints}")
        self.module = module
        self.setup = setup
        self.options = dict(options or {})
        self.memory_budget = memory_budget
        self.capacity = capacity
        self._lock = threading.Lock()
        # key -> (posterior, summary, seconds its computation took)
        self._posts: "OrderedDict[Any, tuple]" = OrderedDict()
        self._states: "OrderedDict[Any, Any]" = OrderedDict()    # key -> state snapshot
        self.checkpoints = checkpoints
        self._stride = 1                    # snapshots kept at prefix lengths divisible by it
        self._recent: "deque[_PrefixKey]" = deque()   # keys of the states computed last
        self._transient: "set[_PrefixKey]" = set()     # kept until their posterior is computed
        self._head: Optional[_PrefixKey] = None       # the last whole log's key (kept recent)
        self._live: Optional[tuple] = None                       # (events, state), large states
        #: Whether the options ask for the engine's default method (its first, ``METHODS[0]``):
        #: the contract defines a check's verdict by it, and incremental folding is its own.
        self.default_method = self.options.get("method", module.METHODS[0]) == module.METHODS[0]
        self.incremental = isinstance(module, IncrementalEngine) and self.default_method
        self._state_bytes = module.state_bytes(setup) if self.incremental else 0

    # -- public -----------------------------------------------------------------------------
    @property
    def in_order(self) -> bool:
        """Whether states are too large to snapshot (one live state is moved forward, so
        prefixes are best asked for in increasing order)."""
        return self.incremental and self._state_bytes > self.memory_budget

    def posterior(self, events: Sequence, cancel: CancelFlag = None):
        """The posterior after ``events`` (a prefix of the log, or any log with this setup).

        Raises:
            ContradictionError: as ``module.infer`` (naming the first impossible event).
            Cancelled: ``cancel()`` became true (nothing half-done is kept).
        """
        return self.entry(events, cancel)[0]

    def entry(self, events: Sequence, cancel: CancelFlag = None) -> tuple:
        """``(posterior, belief_summary)`` after ``events`` (see :meth:`posterior`)."""
        prefixes = _Prefixes(tuple(events))
        self._acquire(cancel)
        try:
            return self._entry(prefixes, len(prefixes.events), cancel)
        finally:
            self._release()

    def check(self, events: Sequence, event: Any, cancel: CancelFlag = None) -> Optional[str]:
        """Why ``event`` cannot follow ``events`` (the check of a new entry), or None.

        The verdict is the posterior after ``events`` + ``event`` through this timeline — the
        log's own posterior is usually cached (it is on screen), the new prefix costs one fold
        for an incremental engine or one ``infer``, and it stays in the cache, so logging the
        entry afterwards computes nothing. Only a refused entry asks an engine with its own check
        (:class:`~engines.core.contract.CheckingEngine`) for the reason in words ("you hold it");
        otherwise the contradiction's message is the reason. With a method other than the
        engine's default (which may be approximate) the engine's ``contradiction`` decides, as
        the contract defines its verdict by the default method.

        Raises:
            Cancelled: ``cancel()`` became true.
            SessionFormatError: ``event`` is not an event of this setup.
        """
        events = tuple(events)
        checking = isinstance(self.module, CheckingEngine)
        if checking and not self.default_method:
            return self.module.contradiction(self.setup, events, event, cancel=cancel)
        try:
            self.posterior(events, cancel)
        except ContradictionError:
            return "the log is already impossible"
        try:
            self.posterior(events + (event,), cancel)
        except ContradictionError as exc:
            if checking:
                reason = self.module.contradiction(self.setup, events, event, cancel=cancel)
                if reason:
                    return reason
            return exc.message
        return None

    def compute(self, events: Sequence, cancel: CancelFlag = None, *, full: bool = True,
                progress: Optional[Callable[[int, int], None]] = None) -> TimelineResult:
        """The posterior after every prefix of ``events`` (``full=False``: the whole log only).

        The whole log is computed first (what the player waits for), then the other prefixes
        (each from the cache when seen before); with states too large to copy, in order. With
        ``full=False`` only the whole log is computed (other prefixes as far as cached). A
        ContradictionError stops the timeline at the last consistent prefix (``error`` set).
        ``progress(done, total)`` is called after every prefix computed (``total``: the
        ``len(events) + 1`` prefixes; with ``full=False`` just the whole log).

        Raises:
            Cancelled: ``cancel()`` became true. EngineError other than a contradiction
            (e.g. SessionFormatError: not enough memory) propagates.
        """
        events = tuple(events)
        prefixes = _Prefixes(events)
        n = len(events)
        total = n + 1 if full else 1
        report = progress if progress is not None else (lambda _done, _total: None)
        self._acquire(cancel)
        try:
            if self.in_order and full:
                posts, sums, error = [], [], None
                for k in range(n + 1):
                    check_cancel(cancel)
                    try:
                        p, s = self._entry(prefixes, k, cancel)
                    except ContradictionError as exc:
                        error = exc
                        break
                    posts.append(p)
                    sums.append(s)
                    report(k + 1, total)
                return TimelineResult(tuple(posts), tuple(sums), error, n)
            error = None
            try:
                last = self._entry(prefixes, n, cancel)
                good = n
            except ContradictionError as exc:
                error = exc
                good = max(exc.event_index, 0)
                last = None if exc.event_index < 0 else self._entry(prefixes, good, cancel)
            if last is None:
                report(total, total)
                return TimelineResult((), (), error, n)
            total = good + 1 if full else 1     # a contradiction: the consistent prefixes
            report(1, total)
            posts, sums = [], []
            for k in range(good):
                check_cancel(cancel)
                if full:
                    p, s = self._entry(prefixes, k, cancel)
                    report(k + 2, total)
                else:
                    p, s, _secs = self._posts.get(prefixes.key(k), (None, None, 0.0))
                posts.append(p)
                sums.append(s)
            posts.append(last[0])
            sums.append(last[1])
            return TimelineResult(tuple(posts), tuple(sums), error, n)
        finally:
            self._release()

    def cached_result(self, events: Sequence, *, full: bool = True) -> Optional[TimelineResult]:
        """What :meth:`compute` would return when every posterior it needs is cached already
        (the whole log; with ``full``, every prefix), else None. Never computes and never waits:
        None too while a computation holds the timeline (safe on any thread; the desktop takes
        a log's beliefs this way when checking its last entry already computed them).
        A timeline with nothing cached answers None without hashing the log (the open of a
        5,000-claim Spyfall log hashed every claim's 200 weights on the GUI thread for it)."""
        if not self._posts:
            return None
        prefixes = _Prefixes(tuple(events))
        n = len(prefixes.events)
        if not self._lock.acquire(blocking=False):
            return None
        try:
            posts, sums = [], []
            for k in range(n + 1):
                hit = self._posts.get(prefixes.key(k))
                if hit is None and (full or k == n):
                    return None
                posts.append(None if hit is None else hit[0])
                sums.append(None if hit is None else hit[1])
            self._posts.move_to_end(prefixes.key(n))
            return TimelineResult(tuple(posts), tuple(sums), None, n)
        finally:
            self._lock.release()

    def accepts_cached(self, events: Sequence, event: Any) -> bool:
        """True when :meth:`check` of ``event`` after ``events`` is known from the cache to
        accept it: the posterior after ``events`` + ``event`` is cached (an earlier check or an
        undone entry computed it) and the verdict is the default method's. False when that is
        not known without computing. Never computes and never waits (safe on any thread: the
        desktop logs such an entry without a trip through its thread pool)."""
        if isinstance(self.module, CheckingEngine) and not self.default_method:
            return False
        prefixes = _Prefixes(tuple(events) + (event,))
        if not self._lock.acquire(blocking=False):
            return False
        try:
            return self._posts.get(prefixes.key(len(prefixes.events))) is not None
        finally:
            self._lock.release()

    def cached_entry(self, events: Sequence) -> Optional[tuple]:
        """``(posterior, summary)`` after ``events`` when already computed, else None (never
        computes; safe to call from any thread)."""
        prefixes = _Prefixes(tuple(events))
        with self._lock:
            hit = self._posts.get(prefixes.key(len(prefixes.events)))
        return None if hit is None else hit[:2]

    def seconds(self, events: Sequence) -> float:
        """The wall time (s) the posterior after ``events`` took to compute, when it is cached
        (the status bar shows it for beliefs taken from the cache); 0.0 when not known. Never
        waits."""
        prefixes = _Prefixes(tuple(events))
        hit = self._posts.get(prefixes.key(len(prefixes.events)))
        return 0.0 if hit is None else hit[2]

    def clear(self) -> None:
        """Forget every cached posterior and state (frees the memory)."""
        with self._lock:
            self._posts.clear()
            self._states.clear()
            self._recent.clear()
            self._transient.clear()
            self._head = None
            self._live = None

    # -- internals --------------------------------------------------------------------------
    def _acquire(self, cancel: CancelFlag) -> None:
        while not self._lock.acquire(timeout=0.05):
            check_cancel(cancel)

    def _release(self) -> None:
        """End a public call: drop the transient snapshots it left (a prefix whose posterior it
        did not compute: cancelled, a contradiction, or the whole log only), then unlock."""
        for key in self._transient:
            self._states.pop(key, None)
        self._transient.clear()
        self._lock.release()

    def _entry(self, prefixes: "_Prefixes", k: int, cancel: CancelFlag) -> tuple:
        """``(posterior, summary)`` after the first ``k`` events of ``prefixes``."""
        key = prefixes.key(k)
        hit = self._posts.get(key)
        if hit is not None:
            self._posts.move_to_end(key)
            return hit[:2]
        t0 = time.perf_counter()
        if self.incremental:
            post = self._incremental_posterior(prefixes, k, cancel)
        else:
            post = self.module.infer(self.setup, prefixes.events[:k], cancel=cancel, **self.options)
        value = (post, self.module.belief_summary(self.setup, post))
        self._posts[key] = value + (time.perf_counter() - t0,)
        while len(self._posts) > self.capacity:
            self._posts.popitem(last=False)
        return value

    def _incremental_posterior(self, prefixes: "_Prefixes", k: int, cancel: CancelFlag):
        mod, setup = self.module, self.setup
        events = prefixes.events[:k]
        if self.in_order:
            live = self._live
            if live is not None and len(live[0]) <= len(events) and events[:len(live[0])] == live[0]:
                self._live = None          # taken: moved forward in place below
                state, start = live[1], len(live[0])
                live = None
            elif live is not None and len(live[0]) > len(events) and live[0][:len(events)] == events:
                # an earlier entry while the live state is kept: a temporary state
                state, start = mod.initial(setup), 0
                for i in range(start, len(events)):
                    check_cancel(cancel)
                    state = mod.update(setup, state, i, events[i], cancel)
                return mod.posterior(setup, state, cancel)
            else:
                self._live = live = None   # another log: rebuild (frees the old state first)
                state, start = mod.initial(setup), 0
            for i in range(start, len(events)):
                check_cancel(cancel)
                state = mod.update(setup, state, i, events[i], cancel)
            post = mod.posterior(setup, state, cancel)
            self._live = (events, state)   # only a state that reached its events is kept
            return post
        # snapshots: start from the longest stored prefix
        self._set_stride(len(prefixes.events))
        state, start = None, 0
        for j in range(k, -1, -1):
            key = prefixes.key(j)
            snap = self._states.get(key)
            if snap is not None:
                self._states.move_to_end(key)
                state, start = mod.copy_state(snap), j
                break
        if state is None:
            state = mod.initial(setup)
            if k:
                self._store(prefixes.key(0), mod.copy_state(state))
        for i in range(start, k):
            check_cancel(cancel)
            state = mod.update(setup, state, i, events[i], cancel)
            if i + 1 < k:
                # a checkpoint, or kept until its own posterior is computed (the prefixes'
                # pass after the whole log then costs a copy each, not an update)
                self._store(prefixes.key(i + 1), mod.copy_state(state),
                            transient=bool((i + 1) % self._stride))
        post = mod.posterior(setup, state, cancel)
        # the state itself, with what the posterior derived from it (never changed again:
        # a state taken from the store is copied first)
        if k == len(prefixes.events):
            self._head = prefixes.key(k)
        self._store(prefixes.key(k), state)
        return post

    def _set_stride(self, n: int) -> None:
        """The checkpoint stride for a log of ``n`` events (at most :attr:`checkpoints` of them
        along it); when it grows, the snapshots it no longer keeps are dropped (:meth:`_kept`)."""
        stride = 1 << max(0, (-(-n // self.checkpoints) - 1).bit_length())
        grew, self._stride = stride > self._stride, stride
        if grew:
            recent = set(self._recent)
            for key in [key for key in self._states if not self._kept(key, recent)]:
                del self._states[key]

    def _kept(self, key: "_PrefixKey", recent) -> bool:
        """Whether the snapshot of ``key`` stays: a checkpoint, the whole log's state, one
        kept until its posterior is computed, or one of ``recent``."""
        return (key.length % self._stride == 0 or key == self._head or key in self._transient
                or key in recent)

    def _store(self, key: "_PrefixKey", state, transient: bool = False) -> None:
        """Keep ``state`` as the snapshot of ``key``'s prefix: a checkpoint when its length is a
        multiple of the stride; ``transient``, until the posterior of its prefix is computed or
        the public call ends (:meth:`_release`); else one of the :data:`RECENT_STATES`
        (the oldest other recent state is dropped). Then the oldest snapshots while they exceed
        the memory budget."""
        self._states[key] = state
        self._states.move_to_end(key)
        if transient:
            self._transient.add(key)
        elif key.length % self._stride:
            self._transient.discard(key)
            if key in self._recent:         # each key once: the loop below ends
                self._recent.remove(key)
            self._recent.append(key)
            while len(self._recent) > RECENT_STATES:
                old = self._recent.popleft()
                if old == self._head:       # the whole log's state: the next entry starts there
                    self._recent.append(old)
                    old = self._recent.popleft()
                if not self._kept(old, ()):
                    self._states.pop(old, None)
        while len(self._states) > 1 and len(self._states) * self._state_bytes > self.memory_budget:
            self._states.popitem(last=False)


class _Prefixes:
    """The prefixes of one event log, each with a dictionary key made in O(1).

    A tuple of events as a key costs O(k) to hash on every lookup, which made a timeline of
    every prefix O(T²) in hashing alone. Here each event is hashed once and the prefixes get a
    rolling hash ``h_k = hash((h_{k−1}, hash(event_k)))``; keys compare their events only
    when the hashes agree. An event that is not hashable is identified by its JSON text.
    """

    __slots__ = ("events", "ids", "hashes")

    def __init__(self, events: tuple):
        self.events = events
        try:
            item_hashes = [hash(e) for e in events]
            self.ids = events
        except TypeError:
            self.ids = tuple(_event_id(e) for e in events)
            item_hashes = [hash(e) for e in self.ids]
        acc = hash(())
        hashes = [acc]
        for h in item_hashes:
            acc = hash((acc, h))
            hashes.append(acc)
        self.hashes = hashes

    def key(self, k: int) -> "_PrefixKey":
        """The key of the first ``k`` events (0 <= k <= len(events))."""
        return _PrefixKey(self.ids, k, self.hashes[k])


class _PrefixKey:
    """A dictionary key for the first ``length`` entries of ``ids`` (see :class:`_Prefixes`)."""

    __slots__ = ("ids", "length", "_hash")

    def __init__(self, ids: tuple, length: int, hash_: int):
        self.ids, self.length, self._hash = ids, length, hash_

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other) -> bool:
        if not isinstance(other, _PrefixKey) or other._hash != self._hash \
                or other.length != self.length:
            return False
        k = self.length
        return other.ids is self.ids or other.ids[:k] == self.ids[:k]


def _event_id(event) -> Any:
    """An event itself when hashable, else its JSON text (sorted keys)."""
    try:
        hash(event)
        return event
    except TypeError:
        return json.dumps(event.to_json(), sort_keys=True)
