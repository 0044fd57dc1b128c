"""The contradiction banner at 1280×800 covers nothing: it takes its own place in the tab's
layout (an info bar), so the worksheet's header and first rows, the suggestion form's pickers
and the History title stay in view while it is up (they are what the player needs to mend the
log), and it goes away with Undo, giving the space back."""
from PySide6.QtCore import QPoint, QRect
from window_idle import wait_idle

from engines.core.resources import resource_path

WINDOW_GAME = "cluedo"


def _rect_in(window, w) -> QRect:
    return QRect(w.mapTo(window, QPoint(0, 0)), w.size())


def test_the_contradiction_banner_covers_nothing(window, qtbot):
    window.resize(1280, 800)
    assert window.open_path(str(resource_path("examples", "cluedo.json")), ask=False)
    assert wait_idle(window, 60)
    tab = window.tab_for("cluedo")
    sheet_top = _rect_in(window, tab.sheet).top()
    tab.quick_entry.line.setText("Bob has rope")          # I hold the Rope: impossible
    tab.quick_entry.submit()
    qtbot.waitUntil(lambda: tab.quick_entry.message().startswith("Not logged"), timeout=30_000)
    tab.quick_entry.submit()                                # Enter again: log it anyway
    assert wait_idle(window, 60)
    assert tab.banner.isVisible() and "Impossible" in tab.banner.text()
    qtbot.waitUntil(lambda: _rect_in(window, tab.sheet).top() > sheet_top, timeout=5000)
    banner = _rect_in(window, tab.banner)
    assert banner.height() > 0
    needed = [tab.sheet.horizontalHeader(), tab.history]
    needed += list(tab.form.pickers.values()) + [tab.form.suggester, tab.form.refuter]
    for w in needed:
        assert w.isVisible() and not banner.intersects(_rect_in(window, w)), w
    first_row = tab.sheet.visualRect(tab.model.index(1, 0))
    assert first_row.top() >= 0 and first_row.bottom() < tab.sheet.viewport().height()
    window.undo_action.trigger()
    assert wait_idle(window, 60)
    assert not tab.banner.isVisible()
    qtbot.waitUntil(lambda: _rect_in(window, tab.sheet).top() == sheet_top, timeout=5000)
