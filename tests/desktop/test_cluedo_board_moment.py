"""The Board page shows the moment the rest of the tab shows: a past History entry selected, the
pawns where that prefix of the log put them and the moves of that turn, labelled as that entry;
the live view says "Now"."""
from window_idle import wait_idle

from engines import cluedo
from engines.cluedo.board import edition_board
from engines.cluedo.model import PositionEvent, RollEvent


def test_board_follows_the_history_selection(window, qtbot):
    window.select_game("cluedo")
    tab = window.tab_for("cluedo")
    setup = cluedo.Setup.from_json({"edition": "cluedo-uk", "players": ["Me", "Ann", "Bob"],
                                    "me": "Me", "pawns": {"Ann": "Mrs White"}}, "$.setup")
    events = [PositionEvent(player="Me", at="Study"), RollEvent(player="Me", total=4),
              PositionEvent(player="Me", at="Lounge"), PositionEvent(player="Ann", at="Kitchen")]
    tab.reset_document(setup, events)
    assert wait_idle(window, 90)
    panel = tab.board_panel
    qtbot.waitUntil(lambda: "the most useful first" in panel.status.text(), timeout=60000)
    assert panel.moment.text().startswith("<b>Now</b>")
    assert panel.view._me == "Lounge" and panel.view._others == {"Ann": "Kitchen"}
    assert panel.status.text().startswith("any roll of 2 dice")   # my move used the roll
    # after entry 2 ("roll 4" after "me at Study"): in the Study with 4 to walk, Ann at her start
    tab.history.select_event(1)
    assert wait_idle(window, 90)
    qtbot.waitUntil(lambda: "roll 4" in panel.status.text(), timeout=60000)
    assert "As after entry 2 of 4" in panel.moment.text()
    assert panel.view._me == "Study"
    start = edition_board(setup).start_of("Mrs White")
    assert panel.view._others == {"Ann": start}
    assert "Hall" in panel.view._shade          # 4 steps from the Study to the Hall
    # back to the live view: now again
    tab.history.select_live()
    assert wait_idle(window, 90)
    qtbot.waitUntil(lambda: panel.view._me == "Lounge", timeout=60000)
    assert panel.moment.text().startswith("<b>Now</b>")
