"""Tables from declared columns (desktop/widgets/columns.py): text through the format, missing
and non-finite values as a dash, sorting by the sort key (missing last), the tooltip and header
roles, editing a form grid (check and value columns, disabled cells), and copy."""
import math
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QDoubleSpinBox

from desktop.widgets.columns import MISSING, Column, ColumnTable, ColumnTableModel, RowRole, SortRole, is_missing


@dataclass
class Row:
    name: str
    rate: float
    own: bool = False
    weight: float = 0.5


def _pct(x):
    return f"{100 * x:.1f}%"


COLUMNS = (
    Column("Name", lambda r: r.name, tooltip=lambda r: f"the row of {r.name}"),
    Column("Rate", lambda r: r.rate, numeric=True, format=_pct, header_tooltip="win rate"),
)


def _texts(model, column):
    return [model.data(model.index(r, column)) for r in range(model.rowCount())]


def test_format_alignment_tooltip_and_row_roles(qapp):
    m = ColumnTableModel(COLUMNS)
    rows = [Row("a", 0.25), Row("b", 0.5)]
    m.set_rows(rows)
    assert (m.rowCount(), m.columnCount()) == (2, 2)
    assert _texts(m, 1) == ["25.0%", "50.0%"]
    assert m.data(m.index(1, 0), Qt.ToolTipRole) == "the row of b"
    # no tooltip declared: the cell's own text (a narrow column elides it)
    assert m.data(m.index(0, 1), Qt.ToolTipRole) == "25.0%"
    assert m.data(m.index(0, 1), Qt.TextAlignmentRole) == int(Qt.AlignRight | Qt.AlignVCenter)
    assert m.data(m.index(0, 0), Qt.TextAlignmentRole) is None
    assert m.data(m.index(1, 1), RowRole) is rows[1]
    assert m.headerData(1, Qt.Horizontal, Qt.DisplayRole) == "Rate"
    assert m.headerData(1, Qt.Horizontal, Qt.ToolTipRole) == "win rate"
    assert m.headerData(0, Qt.Horizontal, Qt.ToolTipRole) is None
    assert m.data(m.index(5, 0)) is None                 # out of range: nothing, no exception


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf, None])
def test_missing_and_non_finite_values_show_a_dash_never_nan(qapp, bad):
    called = []
    col = Column("Rate", lambda r: r.rate, format=lambda v: called.append(v) or f"{v:.2f}")
    m = ColumnTableModel([col])
    m.set_rows([Row("x", bad), Row("y", 0.5)])
    assert _texts(m, 0) == [MISSING, "0.50"]
    assert called == [0.5]                               # the format never sees a missing value
    assert is_missing(bad) and not is_missing(0.0) and not is_missing(True) and not is_missing("")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.none()), max_size=12))
def test_no_nan_text_for_any_value(qapp, values):
    m = ColumnTableModel(COLUMNS)
    m.set_rows([Row(str(i), v) for i, v in enumerate(values)])
    for text in _texts(m, 1):
        assert "nan" not in text.lower() and "inf" not in text.lower()


def test_sorting_uses_the_sort_key_and_puts_missing_last(qapp):
    # as text "9.5%" > "10.0%"; the sort key (the number) orders them right
    m = ColumnTableModel(COLUMNS)
    m.set_rows([Row("a", 0.095), Row("b", math.nan), Row("c", 0.10), Row("d", 0.5)])
    m.sort(1, Qt.AscendingOrder)
    assert _texts(m, 1) == ["9.5%", "10.0%", "50.0%", MISSING]
    m.sort(1, Qt.DescendingOrder)
    assert _texts(m, 1) == ["50.0%", "10.0%", "9.5%", MISSING]
    assert m.data(m.index(0, 1), SortRole) == (0, 0.5) and m.data(m.index(3, 1), SortRole) == (1, 0)
    # an explicit sort key: by the length of the name, whatever the text
    by_len = ColumnTableModel([Column("Name", lambda r: r.name, sort_key=lambda r: len(r.name))])
    by_len.set_rows([Row("ccc", 0), Row("a", 0), Row("bb", 0)])
    by_len.sort(0)
    assert _texts(by_len, 0) == ["a", "bb", "ccc"]


def test_view_sorts_on_header_click_and_keeps_the_order_for_new_rows(qapp, qtbot):
    view = ColumnTable(COLUMNS, sortable=True)
    qtbot.addWidget(view)
    rows = [Row("a", 0.3), Row("b", 0.1), Row("c", 0.2)]
    view.set_rows(rows)
    assert [view.text(r, 0) for r in range(3)] == ["a", "b", "c"]   # the rows' own order
    header = view.horizontalHeader()
    assert not header.isSortIndicatorShown()          # no room taken by an arrow before a sort
    view.show()
    qtbot.mouseClick(header.viewport(), Qt.LeftButton,
                     pos=QPoint(header.sectionViewportPosition(1) + 5, header.height() // 2))
    assert header.isSortIndicatorShown() and header.sortIndicatorSection() == 1
    assert [view.text(r, 0) for r in range(3)] == ["b", "c", "a"]
    assert view.row_object(0) is rows[1]
    view.set_rows([Row("x", 0.9), Row("y", 0.0)])                    # a new result: still sorted
    assert [view.text(r, 0) for r in range(2)] == ["y", "x"]


def test_copy_selected_rows_or_all_as_tab_separated_text(qapp, qtbot):
    view = ColumnTable(COLUMNS)
    qtbot.addWidget(view)
    view.set_rows([Row("a", 0.25), Row("b", math.nan)])
    assert view.copy_text() == "Name\tRate\na\t25.0%\nb\t" + MISSING
    view.select_row(1)
    assert view.copy_text() == "Name\tRate\nb\t" + MISSING
    view.setFocus()
    qtbot.keyClick(view, Qt.Key_C, Qt.ControlModifier)
    assert QGuiApplication.clipboard().text() == "Name\tRate\nb\t" + MISSING


def test_form_grid_check_and_value_columns(qapp, qtbot):
    def set_own(r, on):
        r.own = on

    def set_weight(r, w):
        r.weight = float(w)

    def spin(parent):
        s = QDoubleSpinBox(parent)
        s.setRange(0.001, 1.0)
        return s

    cols = (Column("Name", lambda r: r.name),
            Column("Own", lambda r: r.own, check=True, edit=set_own),
            Column("w", lambda r: r.weight, numeric=True, format=lambda v: f"{v:.3f}",
                   edit=set_weight, editable=lambda r: r.own, editor=spin))
    view = ColumnTable(cols, editable=True, select_rows=False)
    qtbot.addWidget(view)
    rows = [Row("a", 0, own=False), Row("b", 0, own=True)]
    view.set_rows(rows)
    m = view.model()
    assert not m.flags(m.index(0, 0)) & Qt.ItemIsEditable
    assert m.flags(m.index(0, 1)) & Qt.ItemIsUserCheckable
    assert m.data(m.index(0, 1)) is None and m.data(m.index(0, 1), Qt.CheckStateRole) == Qt.Unchecked
    # a cell that follows something else is disabled and refuses edits
    assert not m.flags(m.index(0, 2)) & Qt.ItemIsEnabled
    assert not m.setData(m.index(0, 2), 0.9)
    assert m.flags(m.index(1, 2)) & Qt.ItemIsEditable
    with qtbot.waitSignal(m.edited) as blocker:
        assert m.setData(m.index(1, 2), 0.25)
    assert blocker.args == [1, 2] and rows[1].weight == 0.25 and view.text(1, 2) == "0.250"
    # ticking the check column frees the value cell
    assert m.setData(m.index(0, 1), Qt.Checked.value, Qt.CheckStateRole)
    assert rows[0].own and m.flags(m.index(0, 2)) & Qt.ItemIsEditable
    # the editor comes from the column: its range guards the value
    view.edit(m.index(0, 2))
    editor = view.indexWidget(m.index(0, 2)) or view.findChild(QDoubleSpinBox)
    assert isinstance(editor, QDoubleSpinBox) and editor.maximum() == 1.0


def test_combo_editor_reads_and_writes_item_data(qapp, qtbot):
    from PySide6.QtWidgets import QComboBox

    def combo(parent):
        c = QComboBox(parent)
        for key, label in (("flat", "Flat"), ("joker", "Joker")):
            c.addItem(label, key)
        return c

    def set_name(r, v):
        r.name = v

    col = Column("Strategy", lambda r: r.name, format={"flat": "Flat", "joker": "Joker"}.get,
                 edit=set_name, editor=combo)
    view = ColumnTable([col], editable=True, select_rows=False)
    qtbot.addWidget(view)
    row = Row("joker", 0)
    view.set_rows([row])
    index = view.model().index(0, 0)
    delegate = view.itemDelegate()
    editor = delegate.createEditor(view.viewport(), None, index)
    delegate.setEditorData(editor, index)
    assert editor.currentData() == "joker"                # the editor starts at the value
    editor.setCurrentIndex(editor.findData("flat"))
    delegate.setModelData(editor, view.model(), index)
    assert row.name == "flat" and view.text(0, 0) == "Flat"


def test_numbered_rows_radio_column_and_declared_widths(qapp, qtbot):
    def set_me(r, on):
        for other in view.rows():
            other.own = False
        r.own = on

    cols = (Column("Name", lambda r: r.name, width=150),
            Column("Me", lambda r: r.own, check=True, radio=True, edit=set_me))
    view = ColumnTable(cols, editable=True, select_rows=False, numbered=True)
    qtbot.addWidget(view)
    rows = [Row("a", 0, own=True), Row("b", 0)]
    view.set_rows(rows)
    m = view.model()
    assert view.verticalHeader().isVisibleTo(view)
    assert [m.headerData(r, Qt.Vertical) for r in range(2)] == ["1", "2"]
    assert view.horizontalHeader().sectionSize(0) == 150
    # ticking the radio column moves the one tick; the view paints it (a radio indicator)
    assert m.setData(m.index(1, 1), Qt.Checked.value, Qt.CheckStateRole)
    assert [r.own for r in rows] == [False, True]
    view.resize(300, 120)
    view.show()
    assert not view.grab().isNull()


def test_contents_columns_are_measured_on_a_change_not_on_every_width(qapp, qtbot, monkeypatch):
    """A width change (a banner above the table, a side pane unfolded) reads only the cells it
    repaints: the contents columns were measured when the rows came, and fit the new rows, a
    longer text after a refresh and a larger font."""
    from PySide6.QtWidgets import QApplication

    asked = []
    multi = ColumnTableModel.multiData

    def counting(self, index, span):
        asked.append(index.row())
        return multi(self, index, span)

    monkeypatch.setattr(ColumnTableModel, "multiData", counting)
    view = ColumnTable((Column("Name", lambda r: r.name), Column("Rate", lambda r: r.rate)))
    qtbot.addWidget(view)
    view.horizontalHeader().setStretchLastSection(False)
    rows = [Row(f"q{i}", i / 7) for i in range(300)]
    view.set_rows(rows)
    view.resize(300, 200)
    view.show()
    QApplication.processEvents()
    hh = view.horizontalHeader()

    def fitted():
        return all(hh.sectionSize(c) == max(view.sizeHintForColumn(c), hh.sectionSizeHint(c))
                   for c in range(2))

    assert fitted()
    shown = view.rowAt(view.viewport().height() - 1)
    assert 0 < shown < 50
    asked.clear()
    for width in (320, 340, 360):
        view.resize(width, 200)
        QApplication.processEvents()
    assert asked and max(asked) <= shown + 1        # the rows on screen, never all 300
    rows[0].name = "a much longer name than any other"
    view.refresh()
    QApplication.processEvents()
    assert fitted() and hh.sectionSize(0) >= view.fontMetrics().horizontalAdvance(rows[0].name)
    narrow = hh.sectionSize(0)
    font = view.font()
    font.setPointSizeF(font.pointSizeF() * 2)
    view.setFont(font)
    QApplication.processEvents()
    assert fitted() and hh.sectionSize(0) > narrow


def test_a_read_only_table_paints_without_calling_python_for_flags(qapp, qtbot):
    """Qt asks a cell's flags each time it paints it: a table whose columns are never edited
    answers with Qt's own (in C++), an editable one from Python."""
    import sys

    from PySide6.QtWidgets import QApplication

    def flags_entered(view) -> list:
        entered = []

        def hook(frame, event, _arg):
            if event == "call" and frame.f_code.co_name == "flags":
                entered.append(frame.f_code.co_filename)

        sys.setprofile(hook)
        try:
            view.viewport().repaint()
        finally:
            sys.setprofile(None)
        return entered

    shown = ColumnTable(COLUMNS)
    form = ColumnTable((Column("Name", lambda r: r.name, edit=lambda r, v: setattr(r, "name", v)),),
                       editable=True)
    for view in (shown, form):
        qtbot.addWidget(view)
        view.set_rows([Row(f"r{i}", i / 10) for i in range(8)])
        view.resize(300, 200)
        view.show()
    QApplication.processEvents()
    assert flags_entered(shown) == []
    assert flags_entered(form)                     # the hook does see a flags written in Python
    m = shown.model()
    assert m.flags(m.index(0, 0)) & Qt.ItemIsEnabled and m.flags(m.index(0, 0)) & Qt.ItemIsSelectable
    assert not m.flags(m.index(0, 0)) & Qt.ItemIsEditable
    with pytest.raises(ValueError):
        shown.set_columns((Column("Name", lambda r: r.name, edit=lambda r, v: None), COLUMNS[1]))
