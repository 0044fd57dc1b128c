"""An entry is checked against the log through the belief timeline, except when the timeline
must compute prefixes in order (a state too large to copy: Egghead with 6 players), where a
check would move the one live state to a possibly impossible prefix and cost minutes: the entry
is then logged at once and the contradiction banner reports an impossible entry. The decision
is the timeline's ``in_order`` (no engine function probed by name)."""
from engines.core.resources import resource_path
from engines.core.schema import read_session_file
from engines.core.timeline import Timeline


def _controller(game):
    import engines
    from desktop.tabs.controller import GameController

    mod = engines.game_module(game)
    c = GameController(mod, full_timeline=False)
    s = read_session_file(str(resource_path("examples", f"{game}.json")))
    c.reset(s.setup, list(s.events[:2]))
    return c, s


def test_an_in_order_timeline_logs_the_entry_without_a_check(qtbot):
    c, s = _controller("spyfall")
    # the same engine with a memory budget too small for one state: prefixes in order
    c.belief_timeline = Timeline(c.module, c.document.setup, c.options(), memory_budget=0)
    assert c.current_timeline().in_order
    submitted = []
    c.checks.runner.submit = lambda job, revision=None: submitted.append(job)
    c.checks.submit(s.events[2])
    assert len(c.document.events) == 3 and submitted == []
    c.shutdown()


def test_an_ordinary_timeline_checks_the_entry_first(qtbot):
    c, s = _controller("spyfall")
    assert not c.current_timeline().in_order
    with qtbot.waitSignal(c.checks.runner.resultReady, timeout=30000):
        c.checks.submit(s.events[2])
    qtbot.waitUntil(lambda: len(c.document.events) == 3, timeout=30000)
    c.shutdown()
