"""The check of a new entry through the belief timeline (``Timeline.check``): an engine's own
named reason where it has one (CheckingEngine), else the posterior of log + entry, which the
timeline then keeps; Cancel stops it."""
import types

import pytest

import engines
from engines.core.errors import Cancelled, ContradictionError
from engines.core.resources import resource_path
from engines.core.schema import read_session_file
from engines.core.timeline import Timeline


def _counting_engine(calls: list):
    """A toy engine without ``contradiction``: events are integers, a log is impossible once
    its sum exceeds 3 (ContradictionError names the first such event)."""
    def infer(setup, events, *, method="exact", cancel=None):
        calls.append(tuple(events))
        total = 0
        for i, e in enumerate(events):
            if cancel is not None and cancel():
                raise Cancelled()
            total += e
            if total > 3:
                raise ContradictionError(i, f"the sum would be {total}, above 3")
        return total

    return types.SimpleNamespace(GAME="count", TITLE="Count", METHODS=("exact",),
                                 EVENT_TYPES=("n",), Setup=object, infer=infer,
                                 belief_summary=lambda setup, post: {"sum": float(post)})


def test_without_an_engine_check_the_timeline_computes_and_keeps_log_plus_entry():
    calls = []
    tl = Timeline(_counting_engine(calls), setup=None)
    assert tl.check((1, 1), 1) is None
    assert tl.cached_entry((1, 1, 1)) is not None        # kept: logging it costs nothing
    n = len(calls)
    assert tl.posterior((1, 1, 1)) == 3 and len(calls) == n
    assert tl.check((1, 1), 2) == "the sum would be 4, above 3"
    assert tl.check((2, 2), 0) == "the log is already impossible"
    with pytest.raises(Cancelled):
        tl.check((1,), 1, cancel=lambda: True)


def test_an_engine_with_its_own_check_gives_its_named_reason():
    s = read_session_file(str(resource_path("examples", "cluedo.json")))
    mod = engines.game_module("cluedo")
    tl = Timeline(mod, s.setup)
    shown = mod.event_from_json({"type": "shown", "player": "Ann", "card": "Rope"}, s.setup, "e")
    assert s.events[0].player == "Me" and "Rope" in s.events[0].cards     # my hand has Rope
    assert tl.check(s.events, shown) == "you hold it"
    assert tl.check(s.events[:-1], s.events[-1]) is None
