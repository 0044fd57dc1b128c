"""The Cluedo ranking of suggestions, computed once per prefix of the log and shared.

The tab's ranking (the controller's advisor "recommend") and the Board page's turn advice
(:func:`engines.cluedo.turn.turn_advice`, which needs the best suggestion of every room) both
need :func:`engines.cluedo.recommend.recommend` of the same log over every room. The advisor
computes it first (its task is more urgent: :class:`desktop.inference.Priority`) and keeps it
here; the turn advice of the same prefix then takes it, or waits for the task counting it,
instead of counting again. Only a ranking
whose every suggestion is exact is shared (every classic game): the turn advice's own staged
ranking counts more suggestions exactly than the tab's 24, so a partly estimated ranking is not
used for it.

The ranking itself: every candidate exact at once when the estimated work fits (every classic
game), else the sampled estimate first — published to the tab as a partial result — and the 24
best counted exactly (``recommend``'s ``on_estimate``; no sampled stage when the exact one
fits). Thread-safe; entries are keyed by the setup, the log and the room, so a changed log never
finds another's ranking.
"""
from __future__ import annotations

import importlib
import threading
from collections import OrderedDict
from typing import Any, Callable, Optional

#: Rankings kept (the prefixes shown most recently).
CAPACITY = 32
#: Suggestions the tab lists (12) with a margin: the best this many are counted exactly.
EXACT_TOP = 24

_lock = threading.Lock()
_cache: "OrderedDict[tuple, Any]" = OrderedDict()
_inflight: "dict[tuple, threading.Event]" = {}     # rankings being computed


def _key(setup, events, room) -> tuple:
    return (setup, tuple(events), room)


def cached_ranking(setup, events, room: Optional[str] = None):
    """The ranking of ``events`` kept here (see the module docstring), or None."""
    key = _key(setup, events, room)
    with _lock:
        rec = _cache.get(key)
        if rec is not None:
            _cache.move_to_end(key)
        return rec


def ranking(setup, events, room: Optional[str] = None, *, cancel=None,
            on_estimate: Optional[Callable] = None):
    """The tab's ranking of my suggestions after ``events`` (in ``room``; None: every room),
    from the cache, or from the task computing it already (waited for), or computed and kept.

    Args:
        on_estimate: receives the sampled estimate when the exact ranking does not fit at once
            (never for a classic game once my hand is logged).
    Returns:
        :class:`engines.cluedo.recommend.CluedoRecommendation` (no opponents' figures).
    Raises:
        ContradictionError, SessionFormatError: as ``recommend``. Cancelled.
    """
    from engines.core.errors import check_cancel

    key = _key(setup, events, room)
    while True:
        with _lock:
            hit = _cache.get(key)
            if hit is not None:
                _cache.move_to_end(key)
                return hit
            done = _inflight.get(key)
            if done is None:
                done = _inflight[key] = threading.Event()
                break
        while not done.wait(0.05):      # another task counts it: wait for its ranking
            check_cancel(cancel)
    rec_mod = importlib.import_module("engines.cluedo.recommend")   # the module, not the
    # package's re-exported function of the same name
    try:
        rec = rec_mod.recommend(setup, tuple(events), room=room, cancel=cancel,
                                exact_top=EXACT_TOP, opponents_seconds=0, on_estimate=on_estimate)
        with _lock:
            _cache[key] = rec
            while len(_cache) > CAPACITY:
                _cache.popitem(last=False)
    finally:
        with _lock:
            _inflight.pop(key, None)
        done.set()
    return rec


def room_bits(setup, events, cancel=None):
    """``turn_advice``'s ``room_bits`` from the ranking of ``events`` over every room that the
    tab's ranking task has kept or is computing (waited for), when every suggestion in it is
    exact; else None (the turn advice then ranks on its own, counting more suggestions
    exactly). It never computes the ranking itself: a less urgent task that owned the
    computation would hold up the ranking task waiting for it."""
    from engines.core.errors import check_cancel

    key = _key(setup, events, None)
    while True:
        with _lock:
            rec = _cache.get(key)
            done = _inflight.get(key) if rec is None else None
        if done is None:
            break
        while not done.wait(0.05):
            check_cancel(cancel)
    if rec is None or (rec.suggestions and len(rec.exact) < len(rec.suggestions)):
        return None
    from engines.cluedo.turn import information_by_room

    return information_by_room(setup, events, cancel=cancel, ranking=rec)


def clear() -> None:
    """Forget every kept ranking (tests)."""
    with _lock:
        _cache.clear()
