"""Tables from data: a table's columns are declared once as :class:`Column` values, its rows are
plain objects (an engine result, a simulation row, a seat of a form), and one model —
:class:`ColumnTableModel` — shows any of them in a :class:`ColumnTable` view.

A column says what a cell *is* (its value), how it reads (format, alignment, tooltip, colours),
how it sorts (a sort key, so "9.5%" sorts below "10.0%") and, for a form grid, how it is edited.
The idea is MusicBrainz Picard's declared columns (``picard/ui/columns.py``: a ``Column`` is a
title, the key of the row's value, an alignment and an optional sort key); here the key is a
function of the row object. The model/view split is Qt's own (Qt documentation, "Model/View
Programming").

No NaN reaches the screen: a value that is ``None`` or a non-finite number shows as
:data:`MISSING` (and sorts last).
"""
from __future__ import annotations

import math
import numbers
import re
from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence

from PySide6.QtCore import QAbstractTableModel, QEvent, QModelIndex, Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QComboBox,
    QHeaderView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionButton,
    QStyleOptionViewItem,
    QTableView,
)

from desktop.widgets.cached_header import use_cached_vertical_header
from desktop.widgets.polish_hook import DRAWS_CHECKS
from desktop.widgets.role_data import TOOLTIP, MultiDataModel

#: The row object behind a cell (``model.data(index, RowRole)``).
RowRole = Qt.ItemDataRole.UserRole + 1
#: A cell's sort key (``model.data(index, SortRole)``).
SortRole = Qt.ItemDataRole.UserRole + 2
#: What a cell shows when its value is missing or not a finite number.
MISSING = "—"

#: "nan" or "inf" as a word of a number's text (``f"{1e306 * 100:.1f}%"`` is "inf%").
_NOT_FINITE_TEXT = re.compile(r"(?<![a-z])(nan|inf)(?![a-z])", re.IGNORECASE)

STRETCH = "stretch"
CONTENTS = "contents"

# a view asks every cell's flags at every paint and measure: combined once (a Qt flag "|"
# costs microseconds in Python)
_NO_FLAGS = Qt.ItemFlag.NoItemFlags
_READ_FLAGS = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
_DISABLED_FLAGS = Qt.ItemFlag.ItemIsSelectable
_CHECK_FLAGS = _READ_FLAGS | Qt.ItemFlag.ItemIsUserCheckable
_EDIT_FLAGS = _READ_FLAGS | Qt.ItemFlag.ItemIsEditable
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)


def is_missing(value: Any) -> bool:
    """True for ``None`` and for a real number that is NaN or infinite."""
    if value is None:
        return True
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        return not math.isfinite(float(value))
    return False


@dataclass(frozen=True)
class Column:
    """One column of a table, declared as data.

    Attributes:
        title: the header text.
        value: row object -> the cell's value (a number, a text, a bool for a check column).
        numeric: right-aligned (numbers); ``align`` overrides it.
        tooltip: row object -> the cell's tooltip.
        format: value -> the cell's text (default ``str``); not called for a missing value
            (``None``, NaN, ±inf), which shows as :data:`MISSING`, as does a number whose text
            came out as "nan" or "inf" (an overflow in the format).
        sort_key: row object -> the key the column sorts by (default: the value; missing
            values sort last).
        header_tooltip: the header's tooltip.
        align: a ``Qt.Alignment`` for the cell's text.
        background / foreground: row object -> a ``QColor`` (or None: the palette's).
        bold: row object -> whether the text is bold.
        resize: ``"stretch"``, ``"contents"`` or None (the view's default) — the header's
            resize mode for this column.
        width: a starting width in pixels (the player can resize it): room for an editor.
        check: a check-box column: the value (a bool) is shown as a check mark, not as text.
        radio: a check column drawn as a radio button (one row ticked: its ``edit`` unticks
            the others).
        edit: ``(row object, new value) -> None``: makes the cell editable (a form grid);
            the new value is the editor's (a bool for a check column).
        editable: row object -> whether the cell can be edited now (default: always, when
            ``edit`` is given); a cell that cannot be edited is shown disabled.
        editor: ``parent -> QWidget``: the editor (a spin box with its range, a combo box whose
            item data are the values); default: Qt's editor for the value's type.
    """

    title: str
    value: Callable[[Any], Any]
    numeric: bool = False
    tooltip: Optional[Callable[[Any], str]] = None
    format: Optional[Callable[[Any], str]] = None
    sort_key: Optional[Callable[[Any], Any]] = None
    header_tooltip: str = ""
    align: Optional[Any] = None
    background: Optional[Callable[[Any], Optional[QColor]]] = None
    foreground: Optional[Callable[[Any], Optional[QColor]]] = None
    bold: Optional[Callable[[Any], bool]] = None
    resize: Optional[str] = None
    width: Optional[int] = None
    check: bool = False
    radio: bool = False
    edit: Optional[Callable[[Any, Any], None]] = None
    editable: Optional[Callable[[Any], bool]] = None
    editor: Optional[Callable[[Any], Any]] = None

    def text(self, row: Any) -> str:
        """The text a cell of ``row`` shows (:data:`MISSING` for a missing value)."""
        if self.check:
            return ""
        v = self.value(row)
        if is_missing(v):
            return MISSING
        text = self.format(v) if self.format is not None else str(v)
        if isinstance(v, numbers.Real) and _NOT_FINITE_TEXT.search(text):
            return MISSING                  # a finite value whose arithmetic overflowed
        return text

    def key(self, row: Any) -> tuple:
        """The sort key of ``row``: ``(0, key)``, or ``(1, 0)`` for a missing key (last)."""
        k = self.sort_key(row) if self.sort_key is not None else self.value(row)
        return (1, 0) if is_missing(k) else (0, k)

    def can_edit(self, row: Any) -> bool:
        return self.edit is not None and (self.editable is None or bool(self.editable(row)))

    def alignment(self) -> Optional[int]:
        if self.align is not None:
            return int(self.align)
        if self.numeric:
            return _RIGHT
        return None


class ColumnTableModel(MultiDataModel, QAbstractTableModel):
    """Rows (any objects) shown through declared :class:`Column` s.

    Sorting (``sort``, what a view with sorting enabled calls) reorders the rows by the
    column's sort key; an edit calls the column's ``edit`` and then reports every cell of the
    model changed (an edit may change other rows: the one seat that is "me").

    What a view paints (``multiData``: every role of a cell but its tooltip) is computed by
    :meth:`data` once per change and kept: a change is new rows, :meth:`refresh`, a sort, an
    edit, any ``dataChanged``/reset/layout/row signal of the model (so a subclass that
    changes what ``data`` answers must emit one, as a view needs anyway) and a new
    application palette. Repaints and the header's fitting to the contents then read the kept
    values instead of calling the columns' functions again for every role of every cell.

    Args:
        columns: the declared columns.
        row_label: row object -> the text of its row header (default: none).
        numbered: without ``row_label``, the row headers number the rows from 1.

    Signals:
        edited(int row, int column): a cell was edited through the view.
    """

    edited = Signal(int, int)

    def __init__(self, columns: Sequence[Column], parent=None, *,
                 row_label: Optional[Callable[[Any], str]] = None, numbered: bool = False):
        super().__init__(parent)
        self.columns = tuple(columns)
        self.row_label = row_label
        self.numbered = numbered
        self._rows: list = []
        self._cells: dict = {}          # (row, column) -> {role: value}; see the class doc
        self._cells_palette = None
        for signal in (self.modelReset, self.dataChanged, self.layoutChanged,
                       self.rowsInserted, self.rowsRemoved, self.rowsMoved,
                       self.columnsInserted, self.columnsRemoved, self.columnsMoved):
            signal.connect(self._forget_cells)

    def _forget_cells(self, *_args) -> None:
        self._cells.clear()

    def multiData(self, index, roleDataSpan) -> None:  # noqa: N802 (Qt names)
        """Every requested role of ``index`` (Qt's ``QAbstractItemModel::multiData``) from
        :meth:`data`, each computed once per change (class docstring); tooltips are asked
        each time."""
        if not index.isValid():
            return MultiDataModel.multiData(self, index, roleDataSpan)
        palette = QGuiApplication.palette().cacheKey()
        if palette != self._cells_palette:
            self._cells.clear()
            self._cells_palette = palette
        key = (index.row(), index.column())
        roles = self._cells.get(key)
        if roles is None:
            roles = self._cells[key] = {}
        data = self.data
        for role_data in roleDataSpan:
            role = role_data.role()
            if role == TOOLTIP:
                role_data.setData(data(index, role))
                continue
            try:
                value = roles[role]
            except KeyError:
                value = roles[role] = data(index, role)
            role_data.setData(value)

    # -- rows ---------------------------------------------------------------------------------
    def set_rows(self, rows: Sequence) -> None:
        """Replace the rows (a new result)."""
        self.beginResetModel()
        self._rows = list(rows)
        self.endResetModel()

    def set_columns(self, columns: Sequence[Column]) -> None:
        """Replace the columns (the same number of them: another wording of the same table,
        :mod:`desktop.tabs.wording`); the rows stay."""
        columns = tuple(columns)
        if len(columns) != len(self.columns):
            raise ValueError(f"{len(columns)} columns for a table of {len(self.columns)}")
        self.columns = columns
        self._cells.clear()
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(columns) - 1)
        self.refresh()

    def rows(self) -> list:
        """The row objects, in the order shown."""
        return list(self._rows)

    def row_object(self, row: int) -> Any:
        return self._rows[row]

    def refresh(self) -> None:
        """The row objects changed in place: repaint every cell."""
        if self._rows:
            self.dataChanged.emit(self.index(0, 0),
                                  self.index(len(self._rows) - 1, len(self.columns) - 1))

    def text(self, row: int, column: int) -> str:
        """The text shown in a cell."""
        return self.columns[column].text(self._rows[row])

    # -- Qt model -----------------------------------------------------------------------------
    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: N802 (Qt name)
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent=QModelIndex()) -> int:  # noqa: N802 (Qt's method name)
        return 0 if parent.isValid() else len(self.columns)

    def data(self, index: QModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        obj, col = self._rows[index.row()], self.columns[index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            return None if col.check else col.text(obj)
        if role == Qt.ItemDataRole.EditRole:
            return col.value(obj)
        if role == Qt.ItemDataRole.CheckStateRole and col.check:
            return Qt.Checked if col.value(obj) else Qt.Unchecked
        return self._decoration(obj, col, role)

    def _decoration(self, obj, col: Column, role: int):
        """Alignment, tooltip, colours, font, the row object and the sort key of a cell."""
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return col.alignment()
        if role == Qt.ItemDataRole.ToolTipRole:
            if col.tooltip is not None:
                return col.tooltip(obj)
            # a narrow column elides its text: the tooltip shows it whole
            return None if col.check else (col.text(obj) or None)
        if role == Qt.ItemDataRole.BackgroundRole and col.background is not None:
            color = col.background(obj)
            return QBrush(color) if color is not None else None
        if role == Qt.ItemDataRole.ForegroundRole and col.foreground is not None:
            color = col.foreground(obj)
            return QBrush(color) if color is not None else None
        if role == Qt.ItemDataRole.FontRole and col.bold is not None and col.bold(obj):
            font = QFont()
            font.setBold(True)
            return font
        if role == RowRole:
            return obj
        if role == SortRole:
            return col.key(obj)
        return None

    def flags(self, index: QModelIndex):
        if not index.isValid():
            return _NO_FLAGS
        col = self.columns[index.column()]
        if col.edit is None:
            return _READ_FLAGS
        if not col.can_edit(self._rows[index.row()]):
            return _DISABLED_FLAGS              # shown disabled: it follows something else
        return _CHECK_FLAGS if col.check else _EDIT_FLAGS

    def setData(self, index: QModelIndex, value,  # noqa: N802 (Qt's method name)
                role: int = Qt.ItemDataRole.EditRole) -> bool:
        if not index.isValid():
            return False
        obj, col = self._rows[index.row()], self.columns[index.column()]
        if not col.can_edit(obj):
            return False
        if col.check and role == Qt.ItemDataRole.CheckStateRole:
            value = Qt.CheckState(value) == Qt.Checked
        elif col.check or role != Qt.ItemDataRole.EditRole:
            return False
        col.edit(obj, value)
        self.refresh()
        self.edited.emit(index.row(), index.column())
        return True

    def headerData(self, section: int, orientation,  # noqa: N802 (Qt's method name)
                   role: int = Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Vertical:
            if role != Qt.ItemDataRole.DisplayRole or not 0 <= section < len(self._rows):
                return None
            if self.row_label is not None:
                return self.row_label(self._rows[section])
            return str(section + 1) if self.numbered else None
        if not 0 <= section < len(self.columns):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.columns[section].title
        if role == Qt.ItemDataRole.ToolTipRole and self.columns[section].header_tooltip:
            return self.columns[section].header_tooltip
        return None

    def sort(self, column: int, order=Qt.AscendingOrder) -> None:
        if not 0 <= column < len(self.columns):
            return
        col = self.columns[column]
        self.layoutAboutToBeChanged.emit()
        present = [r for r in self._rows if col.key(r)[0] == 0]
        missing = [r for r in self._rows if col.key(r)[0] == 1]
        present.sort(key=col.key, reverse=order == Qt.DescendingOrder)
        self._rows = present + missing          # missing last in either order
        self.layoutChanged.emit()


class ReadOnlyColumnTableModel(ColumnTableModel):
    """A :class:`ColumnTableModel` whose columns are never edited: its ``flags`` are Qt's own
    (enabled, selectable), so a view painting or measuring a cell does not call into Python
    for them — each call from Qt into Python waits for the interpreter lock while a job runs
    Python beside the GUI thread. :class:`ColumnTable` uses it when no column has ``edit``.

    Raises:
        ValueError: :meth:`set_columns` with a column that has ``edit``.
    """

    flags = QAbstractTableModel.flags           # Qt's, in C++: no Python override

    def set_columns(self, columns: Sequence[Column]) -> None:
        columns = tuple(columns)
        if any(col.edit is not None for col in columns):
            raise ValueError("an edited column in a read-only table")
        super().set_columns(columns)


class ColumnDelegate(QStyledItemDelegate):
    """Edits a cell with its column's ``editor``; a combo box's item data are the values; a
    ``radio`` column's check mark is drawn as a radio button (same place, same clicks)."""

    def __init__(self, model: ColumnTableModel, parent=None):
        super().__init__(parent)
        self._model = model

    def paint(self, painter, option, index) -> None:
        if not self._model.columns[index.column()].radio:
            super().paint(painter, option, index)
            return
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        widget = opt.widget
        style = widget.style() if widget is not None else QApplication.style()
        box = style.subElementRect(QStyle.SE_ItemViewItemCheckIndicator, opt, widget)
        on = opt.checkState == Qt.Checked
        opt.features &= ~QStyleOptionViewItem.HasCheckIndicator
        style.drawControl(QStyle.CE_ItemViewItem, opt, painter, widget)
        radio = QStyleOptionButton()
        radio.rect = box
        radio.state = opt.state | (QStyle.State_On if on else QStyle.State_Off)
        style.drawPrimitive(QStyle.PE_IndicatorRadioButton, radio, painter, widget)

    def createEditor(self, parent, option, index):  # noqa: N802 (Qt's method name)
        col = self._model.columns[index.column()]
        if col.editor is not None:
            return col.editor(parent)
        return super().createEditor(parent, option, index)

    def setEditorData(self, editor, index) -> None:  # noqa: N802 (Qt's method name)
        if isinstance(editor, QComboBox):
            editor.setCurrentIndex(max(0, editor.findData(index.data(Qt.ItemDataRole.EditRole))))
            return
        super().setEditorData(editor, index)

    def setModelData(self, editor, model, index) -> None:  # noqa: N802 (Qt's method name)
        if isinstance(editor, QComboBox):
            model.setData(index, editor.currentData(), Qt.ItemDataRole.EditRole)
            return
        super().setModelData(editor, model, index)


class ColumnTable(QTableView):
    """A table of a :class:`ColumnTableModel`: no row numbers, each column's resize mode from
    its declaration, Ctrl+C copies the selected rows as tab-separated text (with the header).

    A column that fits its contents is measured once per change of what the table shows (new
    rows, a refresh, a sort, new columns or header texts, another font or style), on the next
    turn of the event loop, and is then a fixed section. Qt's ``ResizeToContents`` measured
    every such column again over all its rows (up to the header's ``resizeContentsPrecision``,
    1,000) each time the table's width changed — a banner shown above it, a side pane
    unfolded — and every row was a call from C++ into Python (``multiData``), each waiting for
    the interpreter lock while a job runs Python (Qt documentation, ``QHeaderView::
    ResizeMode``; the width is ``max(sizeHintForColumn, sectionSizeHint)``, as Qt's own).

    Args:
        columns: the declared columns.
        stretch: columns without a ``resize`` of their own stretch (else they fit their
            contents and the last one stretches, unless a column declares ``resize="stretch"``).
        sortable: clicking a header sorts by that column's sort key.
        editable: a form grid (edits through :class:`ColumnDelegate`); else read-only.
        select_rows: select whole rows (single selection); else cells can't be selected.
        tooltip: the view's tooltip.
        row_label: row object -> its row header's text (the row headers are hidden without).
        numbered: show row headers numbering the rows from 1 (a seating order).

    Signals:
        rowActivated(int row): the player double-clicked (or pressed Enter on) a row.
        edited(int row, int column): a cell of a form grid was edited.
    """

    rowActivated = Signal(int)
    edited = Signal(int, int)

    def __init__(self, columns: Sequence[Column], *, stretch: bool = False, sortable: bool = False,
                 editable: bool = False, select_rows: bool = True, tooltip: str = "",
                 row_label: Optional[Callable[[Any], str]] = None, numbered: bool = False,
                 parent=None):
        super().__init__(parent)
        use_cached_vertical_header(self)        # row labels measured once per change
        self._fitted: tuple = ()        # the columns fitted to their contents (class docstring)
        self._fit_timer = QTimer(self)
        self._fit_timer.setSingleShot(True)
        self._fit_timer.setInterval(0)
        self._fit_timer.timeout.connect(self._fit_columns)
        columns = tuple(columns)
        model = ColumnTableModel if editable or any(c.edit is not None for c in columns) \
            else ReadOnlyColumnTableModel       # read-only: Qt's flags, no call into Python
        self.table_model = model(columns, self, row_label=row_label, numbered=numbered)
        self.setModel(self.table_model)
        self.table_model.edited.connect(self.edited)
        if any(c.check for c in columns):   # check boxes or radio buttons: outlined (appearance)
            self.setProperty(DRAWS_CHECKS, True)
        self._resize_columns(stretch)
        for signal in (self.table_model.modelReset, self.table_model.dataChanged,
                       self.table_model.layoutChanged, self.table_model.rowsInserted,
                       self.table_model.rowsRemoved, self.table_model.headerDataChanged):
            signal.connect(self._schedule_fit)
        self.verticalHeader().setVisible(row_label is not None or numbered)
        if editable:
            self.setItemDelegate(ColumnDelegate(self.table_model, self))
            self.setEditTriggers(QAbstractItemView.DoubleClicked | QAbstractItemView.EditKeyPressed
                                 | QAbstractItemView.AnyKeyPressed)
        else:
            self.setEditTriggers(QAbstractItemView.NoEditTriggers)
        if select_rows:
            self.setSelectionBehavior(QAbstractItemView.SelectRows)
            self.setSelectionMode(QAbstractItemView.SingleSelection)
        elif not editable:
            self.setSelectionMode(QAbstractItemView.NoSelection)
        if sortable:
            self._enable_sorting()
        if tooltip:
            self.setToolTip(tooltip)
        self.activated.connect(lambda index: self.rowActivated.emit(index.row()))

    def _enable_sorting(self) -> None:
        """Sort on a header click; the rows keep their own order until then, and the sort
        arrow (whose room would widen every fitted column) appears with the first sort."""
        header = self.horizontalHeader()
        self.setSortingEnabled(True)
        header.setSortIndicator(-1, Qt.AscendingOrder)
        header.setSortIndicatorShown(False)
        header.sectionClicked.connect(lambda _section: header.setSortIndicatorShown(True))

    def _resize_columns(self, stretch: bool) -> None:
        header = self.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.Stretch if stretch else QHeaderView.ResizeToContents)
        # the last column takes the spare room unless a column declared itself the one to stretch
        header.setStretchLastSection(not stretch and all(c.resize != STRETCH
                                                         for c in self.table_model.columns))
        modes = {STRETCH: QHeaderView.Stretch, CONTENTS: QHeaderView.ResizeToContents}
        for c, col in enumerate(self.table_model.columns):
            if col.resize in modes:
                header.setSectionResizeMode(c, modes[col.resize])
            elif col.width is not None:
                header.setSectionResizeMode(c, QHeaderView.Interactive)
                header.resizeSection(c, col.width)
        # fitted on a change only (class docstring): Fixed, as ResizeToContents, to the player
        self._fitted = tuple(c for c in range(header.count())
                             if header.sectionResizeMode(c) == QHeaderView.ResizeToContents)
        for c in self._fitted:
            header.setSectionResizeMode(c, QHeaderView.Fixed)
        self._schedule_fit()

    def _schedule_fit(self, *_args) -> None:
        """Fit the contents columns on the next turn of the event loop (once for any number
        of changes before it)."""
        if self._fitted:
            self._fit_timer.start()

    def _fit_columns(self) -> None:
        """Each contents column as wide as its widest cell or its header, as Qt's
        ``ResizeToContents`` makes it (the last section, when it stretches, is left to Qt)."""
        header = self.horizontalHeader()
        last = header.count() - 1
        for c in self._fitted:
            if c > last or header.isSectionHidden(c) or (c == last and header.stretchLastSection()):
                continue
            header.resizeSection(c, max(self.sizeHintForColumn(c), header.sectionSizeHint(c)))

    def changeEvent(self, event) -> None:  # noqa: N802 (Qt's method name)
        """Another font or style measures the contents columns again."""
        super().changeEvent(event)
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._schedule_fit()

    # -- rows -----------------------------------------------------------------------------------
    def set_rows(self, rows: Sequence) -> None:
        self.table_model.set_rows(rows)
        header = self.horizontalHeader()
        if self.isSortingEnabled() and header.sortIndicatorSection() >= 0:
            self.table_model.sort(header.sortIndicatorSection(), header.sortIndicatorOrder())

    def set_columns(self, columns: Sequence[Column]) -> None:
        """Another wording of the same columns (:meth:`ColumnTableModel.set_columns`)."""
        self.table_model.set_columns(columns)

    def clear_rows(self) -> None:
        self.table_model.set_rows(())

    def refresh(self) -> None:
        """The row objects changed in place: repaint every cell."""
        self.table_model.refresh()

    def rows(self) -> list:
        return self.table_model.rows()

    def row_count(self) -> int:
        return self.table_model.rowCount()

    def row_object(self, row: int) -> Any:
        return self.table_model.row_object(row)

    def text(self, row: int, column: int) -> str:
        """The text shown in a cell."""
        return self.table_model.text(row, column)

    def tooltip(self, row: int, column: int) -> str:
        index = self.table_model.index(row, column)
        return self.table_model.data(index, Qt.ItemDataRole.ToolTipRole) or ""

    def select_row(self, row: int) -> None:
        self.selectRow(row)

    def row_at(self, point) -> int:
        """The row under a viewport point, or -1."""
        ix = self.indexAt(point)
        return ix.row() if ix.isValid() else -1

    # -- copy -----------------------------------------------------------------------------------
    def copy_text(self) -> str:
        """The selected rows (all rows when none is selected) as tab-separated text, with the
        header line."""
        rows = sorted({ix.row() for ix in self.selectionModel().selectedIndexes()}) \
            or range(self.row_count())
        cols = range(len(self.table_model.columns))
        lines = ["\t".join(self.table_model.columns[c].title for c in cols)]
        lines += ["\t".join(self.text(r, c).replace("\n", " ") for c in cols) for r in rows]
        return "\n".join(lines)

    def keyPressEvent(self, event) -> None:  # noqa: N802 (Qt's method name)
        if event.matches(QKeySequence.Copy) and self.state() != QAbstractItemView.EditingState:
            QGuiApplication.clipboard().setText(self.copy_text())
            return
        super().keyPressEvent(event)
