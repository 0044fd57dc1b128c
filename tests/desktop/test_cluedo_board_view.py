"""The Cluedo tab's board page: clicking a room logs my position, the advice arrives from the
background job and shades the reachable rooms, a custom deck has no board."""
from PySide6.QtCore import QPointF, Qt
from PySide6.QtTest import QTest
from window_idle import wait_idle

from engines import cluedo


def _tab(window):
    window.select_game("cluedo")
    return window.tab_for("cluedo")


def _wait(window):
    assert wait_idle(window, 90)


def _fresh_game(window):
    """The Cluedo tab with a new UK game of Me, Ann and Bob, its beliefs shown."""
    tab = _tab(window)
    setup = cluedo.Setup.from_json({"edition": "cluedo-uk", "players": ["Me", "Ann", "Bob"],
                                    "me": "Me"}, "$.setup")
    tab.reset_document(setup, [])
    _wait(window)
    return tab


def test_click_a_room_logs_my_position_and_the_advice_arrives(window, qtbot):
    tab = _fresh_game(window)
    panel = tab.board_panel
    panel.resize(360, 420)
    panel.show()
    assert "Where is your pawn" in panel.status.text()
    view = panel.view
    board = view._board
    assert board is not None
    # click the middle of the Study's square (22, 20)
    cell = min(view.width() / board.n_cols, view.height() / board.n_rows)
    ox = (view.width() - cell * board.n_cols) / 2
    oy = (view.height() - cell * board.n_rows) / 2
    pt = QPointF(ox + 20.5 * cell, oy + 22.5 * cell).toPoint()
    QTest.mouseClick(view, Qt.MouseButton.LeftButton, pos=pt)
    _wait(window)
    ev = tab.controller.document.events[-1]
    assert type(ev).__name__ == "PositionEvent"
    assert ev.player == "Me" and ev.at == "Study"
    qtbot.waitUntil(lambda: "the most useful first" in panel.status.text(), timeout=60000)
    assert "Hall" in panel.moves.text() or "passage" in panel.moves.text()
    assert view._me == "Study"
    # a roll of 4 reaches the Hall (4 steps): it is shaded, and the best path ends at its door
    panel.roll.setValue(4)
    qtbot.waitUntil(lambda: "roll 4" in panel.status.text(), timeout=60000)
    assert "Hall" in view._shade


def test_custom_deck_has_no_board(window):
    tab = _tab(window)
    custom = cluedo.Setup.from_json({"categories": {"suspect": ["a", "b"], "weapon": ["c", "d"],
                                                    "room": ["e", "f"]}, "players": ["Me", "B"],
                                     "me": "Me"}, "$.setup")
    tab.reset_document(custom, [])
    _wait(window)
    assert tab.board_panel.view._board is None
    assert "No board" in tab.board_panel.status.text()


def test_a_logged_roll_shows_in_the_roll_box(window, qtbot):
    """"me at Study" and "roll 5" logged: the roll box, none set, shows 5 (the roll the moves
    are ranked for) and the status says it was logged; a roll set in the box overrides it."""
    tab = _fresh_game(window)
    panel = tab.board_panel
    panel.show()
    for line in ("me at study", "roll 5"):
        tab.quick_entry.line.setText(line)
        tab.quick_entry.submit()
        _wait(window)
    assert [type(e).__name__ for e in tab.controller.document.events] == ["PositionEvent", "RollEvent"]
    qtbot.waitUntil(lambda: "roll 5" in panel.status.text(), timeout=60000)
    assert panel.roll.value() == 0 and panel.roll.text() == "5"
    assert "roll 5 (logged)" in panel.status.text()
    panel.roll.setValue(4)
    qtbot.waitUntil(lambda: "roll 4" in panel.status.text(), timeout=60000)
    assert "(logged)" not in panel.status.text() and panel.roll.text() == "4"
    panel.roll.setValue(0)
    qtbot.waitUntil(lambda: "roll 5 (logged)" in panel.status.text(), timeout=60000)
    assert panel.roll.text() == "5"
