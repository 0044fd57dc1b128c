"""Spyfall at the table: the round timer, the turn order (who asked whom), my strike-out list,
and that all three round-trip through the session file; every click on a claim cell counts;
no accusation without evidence; the information axis shows its values."""
import json

import numpy as np
from PySide6.QtCore import QEvent, QPointF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QApplication
from spyfall_table_kit import FakeClock, open_spyfall, wait

from desktop.games.spyfall.round_timer import RoundTimer, format_clock
from engines import spyfall
from engines.core.schema import parse_session


def test_format_clock():
    assert format_clock(480) == "8:00" and format_clock(479.2) == "8:00"
    assert format_clock(59.0) == "0:59" and format_clock(-3) == "0:00"
    assert format_clock(3723) == "1:02:03"


def test_round_timer_counts_down_pauses_and_beeps_once_with_a_banner(qtbot):
    clock, beeps = FakeClock(), []
    timer = RoundTimer(480, clock=clock, beep=lambda: beeps.append(1))
    qtbot.addWidget(timer)
    assert timer.clock_label.text() == "8:00" and timer.start_button.text() == "Start"
    timer.toggle()                       # start
    clock.t += 100
    timer.tick()
    assert timer.remaining() == 380 and timer.clock_label.text() == "6:20"
    timer.toggle()                       # pause: the clock goes on, the round does not
    clock.t += 500
    timer.tick()
    assert timer.remaining() == 380 and timer.start_button.text() == "Resume"
    timer.toggle()                       # resume
    clock.t += 379
    timer.tick()
    assert timer.remaining() == 1 and not beeps
    with qtbot.waitSignal(timer.expired, timeout=1000):
        clock.t += 5
        timer.tick()
    timer.tick()
    assert beeps == [1] and timer.remaining() == 0 and not timer.running
    assert not timer.banner.isHidden() and "Time is up" in timer.banner.text()
    timer.reset()
    assert timer.banner.isHidden() and timer.remaining() == 480


def test_round_timer_length_edit_is_reported_and_keeps_the_time_played(qtbot):
    clock = FakeClock()
    timer = RoundTimer(480, clock=clock, beep=lambda: None)
    qtbot.addWidget(timer)
    timer.start()
    clock.t += 60
    with qtbot.waitSignal(timer.lengthEdited, timeout=1000) as sig:
        timer.minutes.setValue(10)
    assert sig.args == [600]
    assert timer.remaining() == 540          # 10 minutes less the one played
    timer.set_length(300)                    # from the session: no signal
    assert timer.length == 300


def test_timer_turn_order_and_strike_outs_round_trip_through_the_session_file(window, qtbot,
                                                                               tmp_path):
    tab = open_spyfall(window)
    setup = tab.controller.document.setup
    # the turn order: Ann asks Bob, Bob answers, so Bob asks next
    tab.log_event(spyfall.parse(setup, [], "Ann asks Bob"))
    wait(window)
    assert tab.speaker.currentData() == "Bob"          # the answerer claims next
    tab.log_event(spyfall.make_claim(setup, "Bob", {"Beach": 1, "Casino": 0.5}))
    wait(window)
    assert tab.asker.currentData() == "Bob" and "Bob</b> asks next" in tab.turn_label.text()
    tab.asker.setCurrentIndex(tab.asker.findData("Bob"))
    tab.answerer.setCurrentIndex(tab.answerer.findData("Dee"))
    assert tab.submit_ask()
    wait(window)
    assert tab.speaker.currentData() == "Dee"
    assert "Ann asks Bob" in tab.history.entry_text(1)
    assert "Bob asks Dee" in tab.history.entry_text(3)
    assert tab.sheet_model.headerData(tab.sheet_model.row_of_turn(0), Qt.Orientation.Vertical,
                                      Qt.ItemDataRole.DisplayRole) == "1. Bob ← Ann"
    # my strike-outs and the timer's length
    before = spyfall.infer(tab.controller.document.setup, tab.controller.document.events)
    tab.strikes.toggle("Casino")
    tab.strikes.toggle("Airplane")
    wait(window)
    tab.timer.minutes.setValue(6)
    wait(window)
    assert tab.controller.document.setup.table == spyfall.TableAids(round_seconds=360, struck=("Airplane", "Casino"))
    # never fed to the model: the same beliefs
    after = spyfall.infer(tab.controller.document.setup, tab.controller.document.events)
    assert after.location == before.location and after.spy == before.spy
    assert tab.sheet_model.headerData(setup.locations.index("Casino"), Qt.Orientation.Horizontal,
                                      Qt.ItemDataRole.FontRole).strikeOut()
    # through the file
    path = tmp_path / "table.json"
    tab.controller.document.save(str(path))
    obj = json.loads(path.read_text())
    assert obj["setup"]["table"] == {"round_seconds": 360, "struck": ["Airplane", "Casino"]}
    assert obj["events"][0]["type"] == "ask" and obj["events"][2] == {
        **obj["events"][2], "type": "ask", "asker": "Bob", "answerer": "Dee"}
    data = parse_session(obj)
    assert data.setup.table == spyfall.TableAids(round_seconds=360, struck=("Airplane", "Casino"))
    assert data.events == tuple(tab.controller.document.events)
    fresh = open_spyfall(window, spyfall.default_setup())
    fresh.load_session(data, str(path))
    wait(window)
    assert fresh.strikes.struck() == ("Airplane", "Casino")
    assert fresh.timer.length == 360 and fresh.timer.clock_label.text() == "6:00"
    assert fresh.speaker.currentData() == "Dee"


def test_undo_of_a_strike_out_restores_the_list(window, qtbot):
    tab = open_spyfall(window)
    tab.strikes.toggle("Beach")
    wait(window)
    assert tab.controller.document.setup.table.struck == ("Beach",)
    tab.controller.document.undo_stack.undo()
    wait(window)
    assert tab.controller.document.setup.table.struck == () and tab.strikes.struck() == ()


def _double_click(view, pos):
    p = QPointF(pos)
    for kind, buttons in ((QEvent.MouseButtonPress, Qt.LeftButton),
                          (QEvent.MouseButtonRelease, Qt.NoButton),
                          (QEvent.MouseButtonDblClick, Qt.LeftButton),
                          (QEvent.MouseButtonRelease, Qt.NoButton)):
        QApplication.sendEvent(view.viewport(), QMouseEvent(kind, p, p, Qt.LeftButton, buttons,
                                                            Qt.NoModifier))


def test_two_quick_clicks_on_a_claim_cell_count_twice(window, qtbot):
    tab = open_spyfall(window)
    m = tab.sheet_model
    col = tab.controller.document.setup.locations.index("Casino")
    index = m.index(m.row_of_item(m.pending_item), col)
    tab.sheet.scrollTo(index)
    _double_click(tab.sheet, tab.sheet.visualRect(index).center())
    assert m.pending_weights()[col] == 1.0          # 0 → ½ → 1: both clicks counted


def test_no_accusation_before_evidence_and_the_tab_says_what_is_needed(window, qtbot):
    setup = spyfall.default_setup()
    rec = spyfall.recommend(setup, [])
    assert rec.accuse is None and rec.accuse_probability is None
    assert "no one else has answered" in rec.reason
    assert rec.to_json()["accuse"] is None and rec.to_json()["reason"]
    rec = spyfall.recommend(setup, [spyfall.make_claim(setup, "Ann", {"Beach": 1})])
    assert rec.accuse is None                        # my own claim is no evidence
    tab = open_spyfall(window)
    qtbot.waitUntil(lambda: "needs at least one answer" in tab.advice.text(), timeout=30000)
    assert "Accuse" not in tab.advice.text()
    # a lone Casino claim from Bob while I hold Beach sets Bob apart
    tab.log_event(spyfall.make_claim(setup, "Bob", {"Casino": 1}))
    wait(window)
    rec = spyfall.recommend(setup, tab.controller.document.events)
    assert rec.accuse == "Bob" and rec.reason == ""
    qtbot.waitUntil(lambda: "Accuse Bob" in tab.advice.text(), timeout=30000)


def test_spy_names_no_location_before_anyone_else_answers():
    setup = spyfall.Setup.from_json(dict(spyfall.default_setup().to_json(), my_role={"spy": True}))
    rec = spyfall.recommend(setup, [])
    assert rec.name_location is None and rec.location_probability is None
    assert "location to name" in rec.reason
    rec = spyfall.recommend(setup, [spyfall.make_claim(setup, "Bob", {"Casino": 1}),
                                    spyfall.make_claim(setup, "Cy", {"Casino": 1})])
    assert rec.name_location == "Casino"


def test_information_axis_shows_values_without_a_scale_factor(window):
    tab = open_spyfall(window)
    tab.log_event(spyfall.make_claim(tab.controller.document.setup, "Bob", {"Casino": 1}))
    wait(window)
    for plot in (tab.ig_plot, tab.plot):
        axis = plot.plot.getAxis("left")
        assert axis.autoSIPrefix is False
        assert "x0.001" not in axis.labelString()
    assert np.nanmax([x for x in tab.ig_plot.series()["location (public)"] if x is not None]) < 1


def test_new_game_dialog_says_what_the_claim_weight_means(qtbot):
    from desktop.games.spyfall.forms import NewGameDialog, describe_claim_weight

    text = describe_claim_weight(27, 0.3, 0.05)
    assert "one clicked claim moves a player's odds of being the spy by at most ×" in text
    assert "Fitted to bots, not to people" in text
    assert "27 locations" in text and "nearest" not in text
    assert "the nearest studied table to 25" in describe_claim_weight(25, 0.3, 0.05)
    # one best fit for one table: the calibration study's 300 games (w = 0.05, the default the
    # guide names), not the claim-weight table's 40 games a row (0.1) for the same table
    assert "Best fit to 300 games (27 locations, claims giving away 0.3): 0.05." in text
    from engines.spyfall.model import NEW_GAME_MODEL

    assert f"): {NEW_GAME_MODEL['claim_weight']:g}." in text     # the new game's default
    assert "Best fit to 40 games (10 locations" in describe_claim_weight(10, 0.3, 0.05)
    # a larger w moves the odds further
    small = float(text.split("×")[1].split(" ")[0])
    big = float(describe_claim_weight(27, 0.3, 0.5).split("×")[1].split(" ")[0])
    assert big > small
    dlg = NewGameDialog(None, spyfall.default_setup())
    qtbot.addWidget(dlg)
    assert "odds of being the spy by at most" in dlg.weight_hint.text()
    before = dlg.weight_hint.text()
    dlg.weight.set_value(0.3)
    assert dlg.weight_hint.text() != before and "At 0.3," in dlg.weight_hint.text()
