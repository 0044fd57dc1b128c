"""The Spyfall round timer's time left is saved with the session and restored paused; the table
aids (timer, strike-outs) are outside the setup's equality, so neither the timer's ticks nor a
strike-out make a new belief timeline, while a strike-out stays an undoable edit."""
import json

import pytest
from spyfall_table_kit import FakeClock, open_spyfall, wait

from engines import spyfall
from engines.core.errors import SessionFormatError
from engines.core.schema import parse_session


def _with_table(table: dict) -> dict:
    obj = spyfall.default_setup().to_json()
    obj["table"] = table
    return obj


def test_table_aids_with_the_time_left_round_trip_and_stay_out_of_setup_equality():
    base = spyfall.default_setup()
    obj = _with_table({"round_seconds": 360, "struck": ["Casino"],
                       "timer": {"left": 123.45, "paused": False}})
    s = spyfall.Setup.from_json(obj)
    assert s.table == spyfall.TableAids(round_seconds=360, struck=("Casino",), timer_left=123.5, timer_paused=False)
    assert s.to_json()["table"] == {"round_seconds": 360, "struck": ["Casino"],
                                    "timer": {"left": 123.5, "paused": False}}
    assert spyfall.Setup.from_json(s.to_json()).table == s.table
    # the model never reads them: equal setups, equal hashes
    assert s == base and hash(s) == hash(base)
    # a round not started writes no timer
    assert "timer" not in spyfall.Setup.from_json(_with_table({"round_seconds": 360})).to_json()[
        "table"]


@pytest.mark.parametrize("timer, path, words", [
    ({"left": 500}, "$.setup.table.timer.left", "more than the round's length"),
    ({"left": -1}, "$.setup.table.timer.left", None),
    ({"left": 10, "paused": "yes"}, "$.setup.table.timer.paused", "true or false"),
    ({}, "$.setup.table.timer.left", None),
])
def test_a_bad_time_left_is_refused_with_its_field(timer, path, words):
    with pytest.raises(SessionFormatError) as exc:
        spyfall.Setup.from_json(_with_table({"round_seconds": 480, "timer": timer}), "$.setup")
    assert exc.value.path == path
    if words:
        assert words in exc.value.message


def test_time_left_is_saved_and_a_reopened_session_shows_the_timer_paused(window, tmp_path):
    """Also: a finished round reopens finished, and the time left never exceeds the round's
    length after the length's edit is undone (one window for both: CI time)."""
    tab = open_spyfall(window)
    clock = FakeClock()
    tab.timer._clock = clock
    tl = tab.controller.current_timeline()
    revision, steps = tab.controller.document.revision, tab.controller.document.undo_stack.count()
    tab.timer.toggle()                       # start
    for _ in range(40):                      # the clock runs: no edit, no new timeline
        clock.t += 2.5
        tab.timer.tick()
    wait(window)
    assert tab.timer.remaining() == 380 and tab.timer.running
    assert tab.controller.document.revision == revision and tab.controller.document.undo_stack.count() == steps
    assert tab.controller.current_timeline() is tl
    # a strike-out: an undoable edit, the same timeline (the model never reads it)
    tab.strikes.toggle("Casino")
    wait(window)
    assert tab.controller.document.undo_stack.count() == steps + 1
    assert tab.controller.current_timeline() is tl
    # saved while running: the time left as it is at the save
    path = tmp_path / "round.json"
    tab.controller.document.save(str(path))
    obj = json.loads(path.read_text())
    assert obj["setup"]["table"] == {"struck": ["Casino"],
                                     "timer": {"left": 380.0, "paused": False}}
    assert tab.timer.running                 # saving does not stop the round
    clock.t += 30
    tab.timer.pause()                        # paused later: the next save says so
    tab.controller.document.save(str(path))
    obj = json.loads(path.read_text())
    assert obj["setup"]["table"]["timer"] == {"left": 350.0, "paused": True}
    # reopened (here in the same tab after a new game): paused where it was
    tab.reset_document(spyfall.default_setup(), [])
    wait(window)
    assert tab.timer.fresh and tab.timer.clock_label.text() == "8:00"
    data = parse_session(json.loads(path.read_text()))
    tab.load_session(data, str(path))
    wait(window)
    assert not tab.timer.running and tab.timer.remaining() == 350
    assert tab.timer.clock_label.text() == "5:50" and tab.timer.start_button.text() == "Resume"
    assert tab.strikes.struck() == ("Casino",)
    # undo of the strike-out after the reopen is not possible (a fresh history); a new strike
    # and its undo leave the timer alone
    tab.strikes.toggle("Beach")
    wait(window)
    tab.controller.document.undo_stack.undo()
    wait(window)
    assert tab.strikes.struck() == ("Casino",) and tab.timer.remaining() == 350
    # a finished round reopens finished; a shorter round after an undo is clamped
    tab.reset_document(spyfall.default_setup(), [])
    wait(window)
    tab.timer._beep = lambda: None
    tab.timer.minutes.setValue(10)           # an undoable edit of the length
    wait(window)
    tab.timer.start()
    clock.t += 30
    tab.timer.pause()                        # 9:30 left of 10:00
    tab.controller.document.undo_stack.undo()           # back to 8 minutes: never more left than that
    wait(window)
    assert tab.timer.length == 480 and tab.timer.remaining() == 480
    tab.timer.start()
    clock.t += 1000
    tab.timer.tick()
    assert tab.timer.finished
    path = tmp_path / "over.json"
    tab.controller.document.save(str(path))
    assert json.loads(path.read_text())["setup"]["table"] == {"timer": {"left": 0.0,
                                                                        "paused": True}}
    tab.reset_document(spyfall.default_setup(), [])
    wait(window)
    tab.load_session(parse_session(json.loads(path.read_text())), str(path))
    wait(window)
    assert tab.timer.finished and tab.timer.clock_label.text() == "0:00"
    assert not tab.timer.banner.isHidden()
