"""Timeline.accepts_cached: an entry's check decided from the cache, never computed."""
from engines import cluedo
from engines.core.resources import resource_path
from engines.core.schema import read_session_file
from engines.core.timeline import Timeline


def test_an_entry_whose_posterior_is_kept_is_accepted_without_computing(monkeypatch):
    s = read_session_file(str(resource_path("examples", "cluedo.json")))
    setup, events = s.setup, tuple(s.events)
    log, entry = events[:-1], events[-1]
    tl = Timeline(cluedo, setup, {})
    assert not tl.accepts_cached(log, entry)                # nothing computed yet
    assert tl.check(log, entry) is None
    calls = []
    monkeypatch.setattr(cluedo, "infer", lambda *a, **k: calls.append(a))
    assert tl.accepts_cached(log, entry)                    # the check kept its posterior
    assert not tl.accepts_cached(log[:-1], entry)           # another log: not known
    assert calls == []
    monkeypatch.undo()
    # an entry the engine refuses is never accepted from the cache
    me = setup.me
    held = next(e for e in events if isinstance(e, cluedo.HandEvent)).cards[0]
    refused = cluedo.LacksEvent(player=me, card=held)
    assert tl.check(log, refused) is not None
    assert not tl.accepts_cached(log, refused)


def test_with_another_method_the_engines_own_check_decides():
    s = read_session_file(str(resource_path("examples", "cluedo.json")))
    setup, events = s.setup, tuple(s.events)[:3]
    tl = Timeline(cluedo, setup, {"method": "center"})
    tl.posterior(events)                                    # kept, but by an approximation
    assert tl.cached_entry(events) is not None
    assert not tl.accepts_cached(events[:-1], events[-1])


class _Counted:
    """An event that counts how often it is hashed."""

    hashed = 0

    def __hash__(self) -> int:
        _Counted.hashed += 1
        return 7


def test_a_timeline_with_nothing_cached_answers_without_hashing_the_log():
    s = read_session_file(str(resource_path("examples", "cluedo.json")))
    tl = Timeline(cluedo, s.setup, {})
    _Counted.hashed = 0
    assert tl.cached_result([_Counted() for _ in range(50)]) is None
    assert _Counted.hashed == 0
    events = tuple(s.events)[:2]
    tl.posterior(events)                     # once something is kept, the log is looked up
    assert tl.cached_result(events, full=False) is not None
