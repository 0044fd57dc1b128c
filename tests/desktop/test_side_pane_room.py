"""Room for the side panes at 1280×800: Cluedo's plot tabs show every title whole (no scroll
arrows, no "B…") and keep their width whatever a page says, so the worksheet beside them never
moves; History shows several whole entries; Spyfall's "Who is the spy?" shows every player's row
at 100 % and, at 150 % zoom, each row can be scrolled into view whole."""
from PySide6.QtCore import QPoint, QRect
from PySide6.QtWidgets import QApplication, QScrollArea
from spyfall_table_kit import open_spyfall
from window_idle import wait_idle

from desktop.table import zoom
from engines.core.resources import resource_path
from engines.core.schema import read_session_file

WINDOW_GAME = "cluedo"

#: Whole History entries at 1280×800 with the Cluedo example (8 measured offscreen; the entries
#: wrap on two or three lines in the pane; a title bar takes a line under a window manager).
HISTORY_ENTRIES = 6


def _settle(window) -> None:
    for _ in range(5):
        QApplication.processEvents()
    assert wait_idle(window, 60)


def _open_cluedo(window):
    window.resize(1280, 800)
    assert window.open_path(str(resource_path("examples", "cluedo.json")), ask=False)
    assert wait_idle(window, 60)
    return window.tab_for("cluedo")


def test_cluedo_side_tabs_whole_and_the_worksheet_still(window):
    tab = _open_cluedo(window)
    assert not tab.side_panes.is_folded()
    bar = tab.side_tabs.tabBar()
    for i in range(bar.count()):
        text = bar.tabText(i)
        assert bar.tabRect(i).width() >= bar.fontMetrics().horizontalAdvance(text), text
        assert bar.tabRect(i).right() <= bar.width(), text        # not scrolled off the bar
    before = (tab.sheet.mapTo(window, QPoint(0, 0)).x(), tab.sheet.width(), tab.side_tabs.width())
    board = tab.board_panel
    for message in ("No turn advice: " + "a long reason that does not fit on one line " * 4, "",
                    "Computing the moves…"):
        board.status.setText(message)
        board.moment.setText("<b>As after entry 12 of 13</b> " + "x" * len(message))
        _settle(window)
        after = (tab.sheet.mapTo(window, QPoint(0, 0)).x(), tab.sheet.width(), tab.side_tabs.width())
        assert after == before, message


def test_cluedo_history_shows_several_whole_entries(window):
    tab = _open_cluedo(window)
    view = tab.history._view
    model = view.model()
    assert model.rowCount() > HISTORY_ENTRIES
    view.scrollToTop()
    _settle(window)
    whole = [r for r in range(model.rowCount())
             if view.viewport().rect().contains(view.visualRect(model.index(r)))]
    assert len(whole) >= HISTORY_ENTRIES, whole


def _row_in(window, tab, row: int) -> QRect:
    view = tab.spy_view
    rect = view.visualRect(view.model().index(row, 0))
    return QRect(view.viewport().mapTo(window, rect.topLeft()), rect.size())


def _scroll_area(tab) -> QScrollArea:
    w = tab.spy_view.parentWidget()
    while not isinstance(w, QScrollArea):
        w = w.parentWidget()
    return w


def _whole_on_screen(window, tab, row: int) -> bool:
    area = _scroll_area(tab)
    shown = QRect(area.viewport().mapTo(window, QPoint(0, 0)), area.viewport().size())
    view = QRect(tab.spy_view.viewport().mapTo(window, QPoint(0, 0)), tab.spy_view.viewport().size())
    return shown.intersected(view).contains(_row_in(window, tab, row))


def test_spyfall_who_is_the_spy_rows_at_100_and_150_percent(window, qapp, zoomed_back):
    session = read_session_file(str(resource_path("examples", "spyfall.json")))
    window.resize(1280, 800)
    tab = open_spyfall(window, session.setup, session.events)
    _settle(window)
    players = tab.spy_view.model().rowCount()
    assert players == 5
    for r in range(players):                                  # 100 %: every row in view
        assert _whole_on_screen(window, tab, r), r
    zoom.set_zoom(qapp, 1.5)
    _settle(window)
    area = _scroll_area(tab)
    for r in range(players):                                  # 150 %: each reachable whole
        area.ensureWidgetVisible(tab.spy_view, 0, 0)
        rect = tab.spy_view.visualRect(tab.spy_view.model().index(r, 0))
        top = tab.spy_view.viewport().mapTo(area.widget(), rect.topLeft()).y()
        area.verticalScrollBar().setValue(top)
        QApplication.processEvents()
        assert _whole_on_screen(window, tab, r), r


def test_cluedo_history_scrolls_to_the_entry_chosen_with_the_arrow_keys(window, qtbot):
    from PySide6.QtCore import Qt

    tab = _open_cluedo(window)
    view = tab.history._view
    model = view.model()
    view.setFocus()
    tab.history.select_entry(0)
    view.scrollToTop()
    _settle(window)
    for key, rows in ((Qt.Key.Key_Down, range(1, model.rowCount())),
                      (Qt.Key.Key_Up, range(model.rowCount() - 2, -1, -1))):
        for row in rows:
            qtbot.keyClick(view, key)
            QApplication.processEvents()
            assert tab.history.current_entry() == row
            rect = view.visualRect(model.index(row))
            assert view.viewport().rect().contains(rect), (row, rect)
