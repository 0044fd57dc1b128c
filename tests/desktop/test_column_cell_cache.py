"""A declared-column table keeps each cell's roles until its rows change
(ColumnTableModel.multiData), also behind a filter proxy (role_data.MultiDataProxy): what it
paints is what a fresh table of the same rows paints, after new rows, an edit in place, a sort
and a proxy's filter."""
from dataclasses import dataclass

from PySide6.QtCore import QSortFilterProxyModel, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QTableView

from desktop.widgets.columns import Column, ColumnTable, ColumnTableModel
from desktop.widgets.role_data import MultiDataProxy


@dataclass
class Row:
    name: str
    bits: float
    hot: bool = False


COLUMNS = (
    Column("Name", lambda r: r.name, bold=lambda r: r.hot),
    Column("Bits", lambda r: r.bits, numeric=True, format=lambda v: f"{v:.2f}",
           background=lambda r: QColor(255, 152, 0) if r.hot else None),
)
ROWS_A = [Row("Plum", 1.5, True), Row("Green", 0.25), Row("Rope", 2.0)]
ROWS_B = [Row("Knife", 0.5), Row("Pipe", 3.0, True)]


def _shown(qtbot, view, rows=None):
    if rows is not None:
        view.set_rows(rows)
    view.resize(320, 200)
    qtbot.addWidget(view)
    view.show()
    qtbot.waitExposed(view)
    return view


def _image(view):
    view.viewport().repaint()
    return view.viewport().grab().toImage()


def _fresh(qtbot, rows, sort=None):
    view = ColumnTable(COLUMNS, sortable=sort is not None)
    view.set_rows([Row(r.name, r.bits, r.hot) for r in rows])
    if sort is not None:
        view.sortByColumn(*sort)
    return _shown(qtbot, view)


def test_painted_cells_follow_new_rows_edits_and_sorting(qtbot):
    view = _shown(qtbot, ColumnTable(COLUMNS, sortable=True), ROWS_A)
    first = _image(view)
    assert first == _image(_fresh(qtbot, ROWS_A))
    view.set_rows(ROWS_B)                              # new rows: every kept cell forgotten
    assert _image(view) == _image(_fresh(qtbot, ROWS_B)) != first
    rows = [Row(r.name, r.bits, r.hot) for r in ROWS_B]
    view.set_rows(rows)
    rows[0].hot, rows[0].bits = True, 9.0              # changed in place, then refresh()
    view.refresh()
    assert _image(view) == _image(_fresh(qtbot, rows))
    view.sortByColumn(1, Qt.AscendingOrder)            # a sort moves the kept cells' rows
    assert _image(view) == _image(_fresh(qtbot, rows, sort=(1, Qt.AscendingOrder)))
    assert [view.text(r, 0) for r in range(2)] == ["Pipe", "Knife"]


def test_multi_data_equals_data_after_each_change():
    model = ColumnTableModel(COLUMNS)
    roles = (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.BackgroundRole,
             Qt.ItemDataRole.FontRole, Qt.ItemDataRole.TextAlignmentRole)

    def check():
        from PySide6.QtCore import QModelRoleData
        for r in range(model.rowCount()):
            for c in range(model.columnCount()):
                ix = model.index(r, c)
                span = [QModelRoleData(role) for role in roles]
                model.multiData(ix, span)
                for rd, role in zip(span, roles):
                    assert rd.data() == model.data(ix, role), (r, c, role)

    model.set_rows(ROWS_A)
    check()
    model.set_rows(ROWS_B)
    check()
    ROWS_B[1].bits = 7.0                                # in place, then refresh()
    model.refresh()
    check()


def test_proxy_shows_what_qt_proxy_shows(qtbot):
    model = ColumnTableModel(COLUMNS)
    model.set_rows(ROWS_A)
    views = []
    for proxy_type in (QSortFilterProxyModel, MultiDataProxy):
        view = QTableView()
        proxy = proxy_type(view)                       # kept alive by its view
        proxy.setSourceModel(model)
        proxy.setFilterKeyColumn(0)
        proxy.setFilterFixedString("e")                # Green, Rope
        view.setModel(proxy)
        views.append(_shown(qtbot, view))
    assert views[0].model().rowCount() == views[1].model().rowCount() == 2
    assert _image(views[0]) == _image(views[1])
    model.set_rows(ROWS_B)                              # the model's change reaches both
    for v in views:
        v.model().setFilterFixedString("")
    assert views[1].model().rowCount() == 2
    assert _image(views[0]) == _image(views[1])
