"""The Cluedo ranking of suggestions, computed once per prefix of the log and shared.

The tab's ranking (the controller's advisor "recommend") and the Board page's turn advice
(:func:`engines.cluedo.turn.turn_advice`, which needs the best suggestion of every room) both
need :func:`engines.cluedo.recommend.recommend` of the same log over every room. The advisor
computes it first (its task is more urgent: :class:`desktop.tabs.jobs.Priority`) and keeps it
here; the turn advice of the same prefix then takes it, or waits for the task counting it,
instead of counting again. Only a ranking
whose every suggestion is exact is shared (every classic game): the turn advice's own staged
ranking counts more suggestions exactly than the tab's 24, so a partly estimated ranking is not
used for it.

The ranking itself: every candidate exact at once when the estimated work fits (every classic
game), else the sampled estimate first — published to the tab as a partial result — and the 24
best counted exactly (``recommend``'s ``on_estimate``; no sampled stage when the exact one
fits). Thread-safe (:class:`engines.core.cache.LockedLRU`); entries are keyed by the setup, the
log and the room, so a changed log never finds another's ranking.
"""
from __future__ import annotations

import importlib
from typing import Callable, Optional

from engines.core.cache import LockedLRU

#: Rankings kept (the prefixes shown most recently).
CAPACITY = 32
#: Suggestions the tab lists (12) with a margin: the best this many are counted exactly.
EXACT_TOP = 24

_cache: LockedLRU = LockedLRU(CAPACITY)     # one computation per key at a time


def _key(setup, events, room) -> tuple:
    return (setup, tuple(events), room)


def cached_ranking(setup, events, room: Optional[str] = None):
    """The ranking of ``events`` kept here (see the module docstring), or None."""
    return _cache.get(_key(setup, events, room))


def ranking(setup, events, room: Optional[str] = None, *, cancel=None,
            on_estimate: Optional[Callable] = None, task=None):
    """The tab's ranking of my suggestions after ``events`` (in ``room``; None: every room),
    from the cache, or from the task computing it already (waited for), or computed and kept.

    Args:
        cancel: the cancel flag, when computed in this thread.
        on_estimate: receives the sampled estimate when the exact ranking does not fit at once
            (never for a classic game once my hand is logged).
        task: a job's :class:`desktop.tabs.jobs.TaskState` (instead of ``cancel``): computed
            in the engines' worker process (:func:`desktop.tabs.engine_process.run`).
    Returns:
        :class:`engines.cluedo.recommend.CluedoRecommendation` (no opponents' figures).
    Raises:
        ContradictionError, SessionFormatError: as ``recommend``. Cancelled.
    """
    rec_mod = importlib.import_module("engines.cluedo.recommend")   # the module, not the
    # package's re-exported function of the same name
    options = dict(room=room, exact_top=EXACT_TOP, opponents_seconds=0)
    if task is not None:
        from desktop.tabs import engine_process

        def compute():
            return engine_process.run(task, rec_mod.recommend, setup, tuple(events),
                                      partial_keyword="on_estimate", on_partial=on_estimate,
                                      **options)
        cancel = task
    else:
        def compute():
            return rec_mod.recommend(setup, tuple(events), cancel=cancel,
                                     on_estimate=on_estimate, **options)
    return _cache.get_or_compute(_key(setup, events, room), compute, cancel=cancel)


def room_bits(setup, events, cancel=None):
    """``turn_advice``'s ``room_bits`` from the ranking of ``events`` over every room that the
    tab's ranking task has kept or is computing (waited for), when every suggestion in it is
    exact; else None (the turn advice then ranks on its own, counting more suggestions
    exactly). It never computes the ranking itself: a less urgent task that owned the
    computation would hold up the ranking task waiting for it."""
    rec = _cache.wait_for(_key(setup, events, None), cancel)
    if rec is None or (rec.suggestions and len(rec.exact) < len(rec.suggestions)):
        return None
    from engines.cluedo.turn import information_by_room

    return information_by_room(setup, events, cancel=cancel, ranking=rec)


def clear() -> None:
    """Forget every kept ranking (tests)."""
    _cache.clear()
