"""The Inkognito tab end to end: tick cells on an opponent's worksheet, log with Enter, the heat
map equals the engine's posterior; an invalid answer is refused with the rules' message; undo;
the model selector and the deception switch; the example session opens."""

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox
from window_idle import wait_idle

from engines import inkognito as ink
from engines.core.resources import resource_path
from engines.core.schema import read_session_file

#: The tab the ``window`` fixture shows first (tests/desktop/conftest.py).
WINDOW_GAME = "inkognito"


def _wait(window):
    assert wait_idle(window, 60)


def _tab(window):
    window.select_game("inkognito")
    tab = window.tab_for("inkognito")
    tab.reset_document(ink.default_setup(), [])  # me = Agent X / short; Red, Blue, Yellow
    _wait(window)
    return tab


def _click(qtbot, sheet, col):
    """Click column ``col`` of the pending (last) row of ``sheet`` with the mouse."""
    t = sheet.table
    rect = t.visualRect(t.model().index(sheet.pending_row, col))
    qtbot.mouseClick(t.viewport(), Qt.LeftButton, pos=rect.center())


def _heat(tab, name):
    return tab.cards[name].matrix()[:4, :4]


def test_tick_cells_and_log_with_enter(window, qtbot):
    tab = _tab(window)
    setup = tab.controller.document.setup
    red = tab.sheets["Red"]
    red.set_question("player", "build")
    # Höhle's first row: I1 + B2 + B3 to a build question
    for col in (1, 5 + 1, 5 + 2):
        _click(qtbot, red, col)
    assert red.ticked_identities == {0} and red.ticked_builds == {1, 2}
    assert red.cell_text(red.pending_row, 1) == "●"
    _click(qtbot, red, 5 + 3)  # tick and untick "thin"
    _click(qtbot, red, 5 + 3)
    qtbot.keyClick(red.table, Qt.Key_Return)
    _wait(window)
    assert len(tab.controller.document.events) == 1
    ev = tab.controller.document.events[0]
    assert ev == ink.Answer(opponent="Red", question="player", asked="build", identities=("Lord Fiddlebottom",),
                            builds=("short", "fat"), mission=False)
    assert red.ticked_identities == set() and red.row_count() == 2
    assert red.cell_text(0, 1) == "●" and red.cell_text(0, 0) == "P·B"
    sheet_model = red.table.model()
    assert [sheet_model.headerData(r, Qt.Vertical) for r in range(2)] == ["1", "new"]
    assert sheet_model.data(sheet_model.index(0, 1), Qt.ToolTipRole) == "Lord Fiddlebottom"
    # ambassador row with the Log button, then the identity row
    red.set_question("ambassador", "build")
    for col in (5 + 2, 5 + 3):
        _click(qtbot, red, col)
    qtbot.mouseClick(red.log_button, Qt.LeftButton)
    _wait(window)
    red.set_question("player", "identity")
    for col in (1, 2, 5 + 2):
        _click(qtbot, red, col)
    qtbot.keyClick(red.table, Qt.Key_Enter)
    _wait(window)
    assert len(tab.controller.document.events) == 3
    # the heat map equals the engine's joint posterior: Höhle's known answer
    direct = ink.infer(setup, tab.controller.document.events)
    np.testing.assert_allclose(_heat(tab, "Red"), direct.opponents["Red"].joint, atol=1e-12)
    m = tab.cards["Red"].matrix()
    np.testing.assert_allclose(m[:4, 4], [0.5, 0.25, 0.25, 0], atol=1e-12)   # identity marginal
    np.testing.assert_allclose(m[4, :4], [0, 0, 0.75, 0.25], atol=1e-12)     # build marginal
    for name in ("Blue", "Yellow"):
        np.testing.assert_allclose(_heat(tab, name), direct.opponents[name].joint, atol=1e-12)
    assert "25%" in tab.cards["Red"].partner.text()
    # the plot has one point per event for each opponent's top identity
    series = tab.plot.series()
    want = [max(ink.infer(setup, tab.controller.document.events[:k]).opponents["Red"].identity.values())
            for k in range(4)]
    assert series["Red: top identity"] == pytest.approx(want)
    assert want[0] == pytest.approx(1 / 3) and want[-1] == pytest.approx(0.5)
    # the recommendation arrived (ranked by bits)
    _wait(window)
    assert tab.rec_table.row_count() == 12
    assert tab.rec_table.text(0, 3) == "▮▮▮▮▮"         # plain words: the best fills the bar
    window.set_details(True, remember=False)           # the Details view: the bits
    bits = [float(tab.rec_table.text(r, 3)) for r in range(12)]
    assert bits == sorted(bits, reverse=True)
    best = ink.recommend(setup, tab.controller.document.events).best
    assert tab.rec_table.text(0, 3) == f"{best.information_bits:.2f}"


def test_invalid_answer_is_refused_with_a_message(window, qtbot, monkeypatch):
    tab = _tab(window)
    shown = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: shown.append(a[2]) or QMessageBox.Ok)
    blue = tab.sheets["Blue"]
    blue.set_question("player", "identity")
    _click(qtbot, blue, 1)
    _click(qtbot, blue, 5)  # 1 identity + 1 build: wrong for a player question
    qtbot.keyClick(blue.table, Qt.Key_Return)
    _wait(window)
    assert tab.controller.document.events == []
    assert shown and "2 identities and 1 build" in shown[0] and "you ticked 1 identity" in shown[0]
    assert blue.ticked_identities == {0}  # the ticks stay, so the user can fix them
    blue.set_question("ambassador", "identity")
    qtbot.keyClick(blue.table, Qt.Key_Return)
    assert "exactly one" in shown[-1] and tab.controller.document.events == []


def test_undo_redo_restores_beliefs(window, qtbot):
    tab = _tab(window)
    before = _heat(tab, "Yellow").copy()
    y = tab.sheets["Yellow"]
    y.set_question("ambassador", "identity")
    _click(qtbot, y, 1)
    _click(qtbot, y, 4)  # Lord Fiddlebottom or Agent X (me): Yellow is Lord Fiddlebottom
    qtbot.keyClick(y.table, Qt.Key_Return)
    _wait(window)
    assert tab.cards["Yellow"].matrix()[0, 4] == pytest.approx(1.0)
    window.undo_action.trigger()
    _wait(window)
    assert tab.controller.document.events == [] and y.row_count() == 1
    np.testing.assert_allclose(_heat(tab, "Yellow"), before, atol=1e-12)
    window.redo_action.trigger()
    _wait(window)
    assert len(tab.controller.document.events) == 1 and y.row_count() == 2
    assert tab.cards["Yellow"].matrix()[0, 4] == pytest.approx(1.0)


def test_model_selector_and_deception(window, qtbot):
    tab = _tab(window)
    data = read_session_file(str(resource_path("examples", "inkognito.json")))
    tab.reset_document(data.setup, data.events)
    _wait(window)
    assert {n: tab.sheets[n].row_count() - 1 for n in tab.sheets} == {
        "Red": 3, "Blue": 2, "Yellow": 2}
    tab.method.setCurrentIndex(tab.method.findData("independent"))
    _wait(window)
    ind = ink.infer(data.setup, data.events, method="independent")
    np.testing.assert_allclose(_heat(tab, "Yellow"), ind.opponents["Yellow"].joint, atol=1e-12)
    assert "possible combinations" in tab.info.text()   # plain words: no model name
    window.set_details(True, remember=False)             # the Details view names the model
    assert "Independent" in tab.info.text()
    tab.method.setCurrentIndex(tab.method.findData("joint"))
    tab.deception.setChecked(True)
    _wait(window)
    assert tab.controller.document.setup.deception.enabled
    dec = ink.infer(tab.controller.document.setup, data.events)
    np.testing.assert_allclose(_heat(tab, "Red"), dec.opponents["Red"].joint, atol=1e-12)
    assert "θ" in tab.cards["Red"].theta.text() and "deception" in tab.info.text()
    window.undo_action.trigger()  # the switch is an undoable setup change
    _wait(window)
    assert not tab.controller.document.setup.deception.enabled and not tab.deception.isChecked()


def test_worksheet_headers_are_short_and_unique():
    from desktop.games.inkognito.forms import short_names

    assert short_names(["tall", "short", "fat", "thin"]) == ["Ta", "Sh", "Fa", "Th"]
    assert short_names(["Lord Fiddlebottom", "Madame Zsa Zsa", "Colonel Bubble", "Agent X"]) == \
        ["LF", "MZZ", "CB", "AX"]
    assert short_names(["thin", "thick", "tall"]) == ["Thin", "Thic", "Tall"]
