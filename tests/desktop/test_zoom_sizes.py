"""Layout sizes follow the zoom, and the Spyfall table keeps what is read and clicked in view
on a 1280×800 window: the spy table's column headers whole (at 100 % and 150 %), the claim
sheet's ▶ row (the row one clicks to enter a claim) and the latest claim under the names."""
from PySide6.QtWidgets import QApplication, QWidget
from spyfall_table_kit import open_spyfall, wait

from desktop.table import zoom
from engines.core.resources import resource_path
from engines.core.schema import read_session_file


def test_pixel_sizes_given_at_100_percent_follow_the_zoom(qtbot, qapp, zoomed_back):
    zoom.set_zoom(qapp, 1.0)
    early = QWidget()
    qtbot.addWidget(early)
    zoom.scaled_size(early, min_width=430, fixed_height=52)
    assert (early.minimumWidth(), early.height(), early.maximumHeight()) == (430, 52, 52)
    zoom.set_zoom(qapp, 1.5)
    assert (early.minimumWidth(), early.maximumHeight()) == (645, 78)
    late = QWidget()                       # made while zoomed (a tab built later)
    qtbot.addWidget(late)
    zoom.scaled_size(late, min_height=100)
    assert late.minimumHeight() == 150 and late.minimumWidth() == 0
    zoom.set_zoom(qapp, 1.0)
    assert (early.minimumWidth(), early.maximumHeight(), late.minimumHeight()) == (430, 52, 100)


def test_a_fitted_grid_shows_every_row_at_any_zoom_and_with_a_sideways_scroll_bar(qtbot, qapp, zoomed_back):
    from desktop.widgets.fit_rows import FittedWorksheetView
    from desktop.widgets.worksheet import ProbabilityTableModel

    zoom.set_zoom(qapp, 1.0)
    model = ProbabilityTableModel([("", ["1st", "2nd", "3rd"])], [str(v) for v in range(1, 7)])
    view = FittedWorksheetView()
    view.setModel(model)
    qtbot.addWidget(view)
    view.resize(600, 50)
    view.show()
    QApplication.processEvents()

    def last_row_bottom_in_view() -> bool:
        return view.visualRect(model.index(2, 0)).bottom() < view.viewport().height()

    wide = view.height()
    assert not view.horizontalScrollBar().isVisible() and last_row_bottom_in_view()
    view.resize(150, wide)                         # the columns no longer fit: a scroll bar
    QApplication.processEvents()
    assert view.horizontalScrollBar().isVisible() and view.height() > wide
    assert last_row_bottom_in_view()
    scrolled = view.height()
    zoom.set_zoom(qapp, 1.5)                       # rows 1.5 times taller
    QApplication.processEvents()
    assert view.verticalHeader().sectionSize(0) > 24   # the rows grew (desktop.table.zoom)
    assert view.height() > scrolled and last_row_bottom_in_view()


def _example_tab(window):
    session = read_session_file(str(resource_path("examples", "spyfall.json")))
    window.resize(1280, 800)
    return open_spyfall(window, session.setup, session.events)


def _headers_whole(tab, factor) -> None:
    view = tab.spy_view
    hh = view.horizontalHeader()
    labels = [tab.spy_model.headerData(c, hh.orientation()) for c in range(hh.count())]
    assert labels[-1] == "w/o own"
    for c in range(hh.count()):
        assert hh.sectionSize(c) >= hh.sectionSizeHint(c), f"{labels[c]!r} cut at {factor}"
    assert hh.length() <= view.viewport().width() + 1     # every column in view, no sideways scroll


def test_spyfall_pending_row_in_view_and_spy_headers_whole_at_100_and_150_percent(window, qapp, zoomed_back):
    """One window for both (CI time)."""
    tab = _example_tab(window)
    sheet, model = tab.sheet, tab.sheet_model
    pending = model.row_of_item(model.pending_item)
    assert pending > 0 and len(tab.controller.document.events) > 0
    bottom = sheet.visualRect(model.index(pending + 1, 0)).bottom()
    assert 0 < bottom <= sheet.viewport().height()
    _headers_whole(tab, 1.0)
    zoom.set_zoom(qapp, 1.5)
    wait(window)
    for _ in range(3):
        QApplication.processEvents()
    _headers_whole(tab, 1.5)
