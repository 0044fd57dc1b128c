"""The Cluedo worksheet from the keyboard alone: the arrows move the current cell, H logs "has",
L "does not have" (a contradicting one is refused with the reason and nothing is logged), W
opens Why?; and a screen reader hears a cell as its row, column and value in words."""
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from window_idle import wait_idle

from engines import cluedo

WINDOW_GAME = "cluedo"


def _fresh(window):
    tab = window.tab_for("cluedo")
    setup = cluedo.Setup.from_json({"edition": "cluedo-uk", "players": ["Me", "Ann", "Bob"], "me": "Me"}, "s")
    tab.reset_document(setup, [cluedo.HandEvent(player="Me", cards=("Rope",))])
    assert wait_idle(window, 60)
    return tab, setup


def _go(tab, card: str, player: str):
    """Put the current cell on (card, player) with the arrow keys, from the top-left cell."""
    sheet, model = tab.sheet, tab.model
    sheet.setFocus()
    sheet.setCurrentIndex(model.index(model.row_of_item(0), 0))
    target_row = model.row_of_item(tab.controller.document.setup.cards.index(card))
    target_col = list(tab.controller.document.setup.players).index(player)
    while sheet.currentIndex().row() < target_row:
        QTest.keyClick(sheet, Qt.Key_Down)
    while sheet.currentIndex().column() < target_col:
        QTest.keyClick(sheet, Qt.Key_Right)
    assert (sheet.currentIndex().row(), sheet.currentIndex().column()) == (target_row, target_col)


def test_keys_log_has_and_lacks_and_ask_why(window, qtbot):
    tab, setup = _fresh(window)
    _go(tab, "Dagger", "Ann")
    QTest.keyClick(tab.sheet, Qt.Key_H)
    assert wait_idle(window, 60)
    assert tab.controller.document.events[-1] == cluedo.ShownEvent(player="Ann", card="Dagger")
    _go(tab, "Hall", "Bob")
    QTest.keyClick(tab.sheet, Qt.Key_L)
    assert wait_idle(window, 60)
    assert tab.controller.document.events[-1] == cluedo.LacksEvent(player="Bob", card="Hall")
    messages = []
    tab.statusMessage.connect(messages.append)
    _go(tab, "Rope", "Ann")                        # I hold the Rope: refused, nothing logged
    n = len(tab.controller.document.events)
    QTest.keyClick(tab.sheet, Qt.Key_H)
    assert len(tab.controller.document.events) == n and messages and messages[-1].startswith("Not logged: Ann has Rope")
    _go(tab, "Dagger", "Ann")
    QTest.keyClick(tab.sheet, Qt.Key_W)
    qtbot.waitUntil(lambda: tab.why_popup() is not None and tab.why_popup().isVisible(), timeout=10_000)
    tab.close_why()


def test_a_cell_is_spoken_with_its_row_column_and_value(window):
    tab, setup = _fresh(window)
    model = tab.model
    spoken = lambda card, col: model.data(model.index(model.row_of_item(setup.cards.index(card)), col),
                                          Qt.ItemDataRole.AccessibleTextRole)
    assert spoken("Rope", 0) == "Rope, Me: certain"
    assert spoken("Rope", 1) == "Rope, Ann: ruled out"
    assert spoken("Dagger", 1).startswith("Dagger, Ann: ") and spoken("Dagger", 1).endswith(" percent")
