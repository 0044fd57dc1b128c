"""Rows keep one height through a zoom: the rows a grid had, the rows added after, and a grid
made while zoomed (desktop.table.zoom scales each header's default and minimum section size)."""
from PySide6.QtGui import QStandardItemModel
from PySide6.QtWidgets import QApplication

from desktop.table import zoom
from desktop.widgets.worksheet import WorksheetView


def _rows(view) -> list[int]:
    header = view.verticalHeader()
    return [header.sectionSize(r) for r in range(header.count())]


def test_rows_of_one_grid_share_one_height_through_zooms(qtbot, qapp, zoomed_back):
    zoom.set_zoom(qapp, 1.0)
    model = QStandardItemModel(4, 3)
    view = WorksheetView()
    view.setModel(model)
    qtbot.addWidget(view)
    view.show()
    QApplication.processEvents()
    at_100 = _rows(view)[0]
    assert set(_rows(view)) == {at_100}
    zoom.set_zoom(qapp, 1.5)
    model.insertRows(4, 2)                              # rows added while zoomed
    QApplication.processEvents()
    assert set(_rows(view)) == {round(1.5 * at_100)}    # old rows moved with the new ones
    late = WorksheetView()                              # a grid made while zoomed
    late.setModel(QStandardItemModel(3, 3))
    qtbot.addWidget(late)
    late.show()
    QApplication.processEvents()
    # Qt's own minimum is measured on the zoomed font: not zoomed a second time
    assert abs(_rows(late)[0] - round(1.5 * at_100)) <= 0.1 * at_100
    zoom.set_zoom(qapp, 1.0)
    QApplication.processEvents()
    assert set(_rows(view)) == {at_100}
    assert abs(_rows(late)[0] - at_100) <= 0.1 * at_100
