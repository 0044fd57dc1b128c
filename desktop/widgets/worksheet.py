"""Reusable worksheet: a QTableView over a probability table model, drawn as a heat map.

:class:`ProbabilityTableModel` holds a matrix of probabilities (rows = items such as cards,
grouped under header rows such as "Suspects"; columns = owners such as players and the
envelope). Cells show the number, coloured from white (0) to a warm colour (1); certain facts
are marked ✓ (probability 1) and ✗ (probability 0). :class:`WorksheetView` adds keyboard
navigation, a context-menu hook and header-click hooks.
"""
from __future__ import annotations

import math
from typing import Callable, Optional, Sequence

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QMetaMethod, QModelIndex, QPoint, QRect, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QGuiApplication, QPalette
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView

from desktop.shell.appearance import muted, readable_on
from desktop.shell.locale_format import significant
from desktop.widgets.cached_header import use_cached_vertical_header
from desktop.widgets.role_data import TOOLTIP, MultiDataModel
from engines.core.i18n import _

#: Values within this distance of 0 or 1 are certain facts.
CERTAIN_EPS = 1e-9

ProbabilityRole = Qt.ItemDataRole.UserRole + 1
KindRole = Qt.ItemDataRole.UserRole + 2  # "group" for a group header row, "item" otherwise
StandardErrorRole = Qt.ItemDataRole.UserRole + 3


# the last stop is dark enough for white text at WCAG AA (5.6:1)
_LIGHT_STOPS = [(0.0, (255, 255, 255)), (0.35, (255, 224, 130)), (0.7, (255, 152, 0)), (1.0, (191, 54, 12))]
_DARK_STOPS = [(0.0, (42, 42, 46)), (0.35, (112, 78, 24)), (0.7, (196, 112, 0)), (1.0, (191, 54, 12))]


_DARK_OF_PALETTE: dict = {}    # the application palette's cacheKey -> is_dark


def is_dark(palette=None) -> bool:
    """True when ``palette`` (default: the application's) has light text on a dark base."""
    if palette is None:
        # asked for every cell a worksheet paints: answered once per palette
        pal = QGuiApplication.palette()
        key = pal.cacheKey()
        dark = _DARK_OF_PALETTE.get(key)
        if dark is None:
            if len(_DARK_OF_PALETTE) > 64:
                _DARK_OF_PALETTE.clear()
            dark = _DARK_OF_PALETTE[key] = is_dark(pal)
        return dark
    return palette.color(QPalette.Base).lightness() < palette.color(QPalette.Text).lightness()


_HEAT_RGB: dict = {}           # (p, dark) -> (r, g, b) of heat_color


def heat_color(p: float, dark: bool = False) -> QColor:
    """Heat-map colour of probability ``p`` in [0, 1]: white (a dark grey on a dark palette)
    → amber → deep orange-red. A new QColor each call (its components are kept per ``p``:
    a worksheet asks for every cell it paints)."""
    p = min(max(float(p), 0.0), 1.0)
    key = (p, bool(dark))
    rgb = _HEAT_RGB.get(key)
    if rgb is None:
        if len(_HEAT_RGB) > 4096:
            _HEAT_RGB.clear()
        rgb = _HEAT_RGB[key] = _heat_rgb(p, dark)
    return QColor(*rgb)


def _heat_rgb(p: float, dark: bool) -> tuple:
    stops = _DARK_STOPS if dark else _LIGHT_STOPS
    for (p0, c0), (p1, c1) in zip(stops, stops[1:]):
        if p <= p1:
            t = (p - p0) / (p1 - p0)
            return tuple(round(a + (b - a) * t) for a, b in zip(c0, c1))
    return tuple(stops[-1][1])


def format_probability(p: Optional[float], se: Optional[float] = None) -> str:
    """Text for a cell: ✓ for 1, ✗ for 0, else a percentage ("<1%", "37%", ">99%"); "–" if unknown."""
    if p is None or not math.isfinite(p):
        return "–"
    if p >= 1 - CERTAIN_EPS:
        return "✓"
    if p <= CERTAIN_EPS:
        return "✗"
    if p < 0.005:
        text = "<1%"
    elif p > 0.995:
        text = ">99%"
    else:
        text = f"{100 * p:.0f}%"
    if se is not None and math.isfinite(se) and se > 0:   # never "±0": below half a point
        text += f" ±{100 * se:.0f}" if 100 * se >= 0.5 else " ±<1"
    return text


# the roles a view paints, as ints (see desktop.widgets.role_data)
_DISPLAY = Qt.ItemDataRole.DisplayRole.value
_BACKGROUND = Qt.ItemDataRole.BackgroundRole.value
_FOREGROUND = Qt.ItemDataRole.ForegroundRole.value
_ALIGNMENT = Qt.ItemDataRole.TextAlignmentRole.value
_FONT = Qt.ItemDataRole.FontRole.value
_DECORATION = Qt.ItemDataRole.DecorationRole.value
_CHECK_STATE = Qt.ItemDataRole.CheckStateRole.value
_CENTER = int(Qt.AlignmentFlag.AlignCenter)

# a view asks every cell's flags at every paint: combined once (a Qt flag "|" costs ~10 µs)
_NO_FLAGS = Qt.ItemFlag.NoItemFlags
_GROUP_FLAGS = Qt.ItemFlag.ItemIsEnabled
_ITEM_FLAGS = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable


class ProbabilityTableModel(MultiDataModel, QAbstractTableModel):
    """Table of probabilities with optional group-header rows.

    Args:
        groups: ``[(group title, [row labels...]), ...]``; a group with an empty title adds no
            header row.
        columns: column labels (e.g. players then "Envelope").

    A subclass whose own ``data()`` answers only from what :meth:`set_matrix`,
    :meth:`set_stale` and :meth:`set_layout` change sets :attr:`KEEP_CELLS` so that its cells
    are kept too (see :meth:`multiData`).

    :meth:`set_matrix` takes an array of shape (n_items, n_columns) in the order the items
    appear in ``groups`` (header rows excluded) and emits ``dataChanged``.
    """

    #: A subclass with its own ``data()`` keeps each cell's roles per change as this class
    #: does (class docstring).
    KEEP_CELLS = False
    #: A subclass whose own ``data()`` differs from this class's in tooltips only: its cells'
    #: painted roles are computed together as this class's are (:meth:`_painted_roles`).
    TOOLTIPS_ONLY = False

    def __init__(self, groups: Sequence, columns: Sequence[str], parent=None,
                 tooltip: Optional[Callable[[str, str, float], str]] = None):
        super().__init__(parent)
        #: optional ``tooltip(row label, column label, p) -> text`` (default: "P(row is with column)")
        self.tooltip = tooltip
        self._rows: list[tuple[str, str, int]] = []  # (kind, label, item index)
        self._columns: list[str] = []
        self._matrix: Optional[np.ndarray] = None
        self._se: Optional[np.ndarray] = None
        self._notes: dict[int, tuple[str, str]] = {}
        self._stale = False
        # every role of a cell, computed once per change of the numbers (see multiData); a
        # subclass with its own data() keeps Qt's per-call answers unless it says KEEP_CELLS
        self._cells: Optional[dict] = {} if type(self).data is ProbabilityTableModel.data \
            or self.KEEP_CELLS else None
        self._cells_palette = None
        self.set_layout(groups, columns)

    def set_layout(self, groups: Sequence, columns: Sequence[str]) -> None:
        rows = []
        k = 0
        for title, labels in groups:
            if title:
                rows.append(("group", title, -1))
            for label in labels:
                rows.append(("item", label, k))
                k += 1
        self.set_row_layout(rows, columns)

    def set_row_layout(self, rows: Sequence[tuple], columns: Sequence[str]) -> None:
        """Lay out the table from its rows, each ``(kind, label, item)`` (``"group"`` rows
        with item -1), a sequence read by index (a subclass may give one that makes a row when
        asked), and its columns; the numbers are forgotten (a model reset)."""
        self.beginResetModel()
        self._rows = rows
        self._columns = list(columns)
        self._matrix = None
        self._se = None
        self._forget_cells()
        self.endResetModel()

    @property
    def n_items(self) -> int:
        return sum(1 for r in self._rows if r[0] == "item")

    def columns(self) -> list[str]:
        return list(self._columns)

    def set_matrix(self, matrix: Optional[np.ndarray], standard_error: Optional[np.ndarray] = None) -> None:
        """Show ``matrix`` (n_items × n_columns probabilities; None clears)."""
        if matrix is not None:
            matrix = np.asarray(matrix, dtype=float)
            if matrix.shape != (self.n_items, len(self._columns)):
                raise ValueError(f"matrix shape {matrix.shape} != {(self.n_items, len(self._columns))}")
        self._matrix = matrix
        self._se = None if standard_error is None else np.asarray(standard_error, dtype=float)
        self._stale = False
        self._repaint()

    def _forget_cells(self) -> None:
        if self._cells is not None:
            self._cells.clear()

    def multiData(self, index, roleDataSpan) -> None:  # noqa: N802 (Qt names)
        """Every requested role of ``index`` (Qt's ``QAbstractItemModel::multiData``), each
        computed by :meth:`data` once per change of the numbers (:meth:`set_matrix`,
        :meth:`set_stale`, :meth:`set_layout`) and of the application's palette and kept: a
        repaint of the worksheet then costs about what a plain table's does. Tooltips are
        asked each time (``tooltip`` may be replaced)."""
        cells = self._cells
        if cells is None or not index.isValid():
            return MultiDataModel.multiData(self, index, roleDataSpan)
        palette = QGuiApplication.palette().cacheKey()
        if palette != self._cells_palette:
            cells.clear()
            self._cells_palette = palette
        key = (index.row(), index.column())
        roles = cells.get(key)
        if roles is None:
            roles = cells[key] = self._painted_roles(index.row(), index.column())
        for role_data in roleDataSpan:
            role = role_data.role()
            if role == TOOLTIP:
                role_data.setData(self.data(index, role))
                continue
            try:
                value = roles[role]
            except KeyError:
                value = roles[role] = self.data(index, role)
            role_data.setData(value)

    def _painted_roles(self, row: int, col: int) -> dict:
        """The roles a view paints of an item cell (text, heat colour, text colour, alignment,
        font), computed together — its probability and heat colour once — exactly as
        :meth:`data` answers them one by one; ``{}`` (every role asked of :meth:`data`) for a
        group row or a subclass with its own ``data()`` (unless :attr:`TOOLTIPS_ONLY`)."""
        if type(self).data is not ProbabilityTableModel.data and not self.TOOLTIPS_ONLY:
            return {}
        _kind, _label, k = self._rows[row]
        if k < 0:
            return {}
        return self._probability_roles(row, col, k)

    def _probability_roles(self, row: int, col: int, k: int) -> dict:
        """:meth:`_painted_roles` of the probability cell of item ``k`` at ``row``, ``col``
        (every role a view paints, the decoration and check state None as :meth:`data`
        answers them)."""
        p = self.value(row, col)
        background = self._cell_background(p)
        font = None
        if p is not None and p >= 1 - CERTAIN_EPS:
            font = QFont()
            font.setBold(True)
        return {_DISPLAY: format_probability(p, self._standard_error(k, col)),
                _BACKGROUND: background,
                _FOREGROUND: self._cell_foreground(p, background),
                _ALIGNMENT: _CENTER,
                _FONT: font,
                _DECORATION: None,
                _CHECK_STATE: None}

    def _repaint(self) -> None:
        self._forget_cells()
        if self.rowCount() and self.columnCount():
            self.dataChanged.emit(self.index(0, 0), self.index(self.rowCount() - 1, self.columnCount() - 1))

    def set_stale(self, stale: bool) -> None:
        """Grey the numbers on screen (they belong to an older log or another method, and new
        ones are being computed); the next :meth:`set_matrix` clears it."""
        if stale != self._stale:
            self._stale = stale
            self._repaint()

    def is_stale(self) -> bool:
        return self._stale

    def matrix(self) -> Optional[np.ndarray]:
        return self._matrix

    def set_column_notes(self, notes: dict) -> None:
        """A second header line and a tooltip per column: ``{column index: (short, long)}``
        (the learned suggestion behaviour of a player, :mod:`engines.cluedo.suggestions`)."""
        notes = {int(c): (str(a), str(b)) for c, (a, b) in notes.items()}
        if notes != self._notes:
            self._notes = notes
            if self._columns:
                self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(self._columns) - 1)

    def item_index(self, row: int) -> int:
        """Item number of table row ``row`` (-1 for a group header)."""
        return self._rows[row][2] if 0 <= row < len(self._rows) else -1

    def row_of_item(self, item: int) -> int:
        for r, (_label, _p, k) in enumerate(self._rows):
            if k == item:
                return r
        return -1

    def row_label(self, row: int) -> str:
        return self._rows[row][1]

    # -- Qt model API ----------------------------------------------------------------------
    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: N802 (Qt's name)
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent=QModelIndex()) -> int:  # noqa: N802 (Qt's name)
        return 0 if parent.isValid() else len(self._columns)

    def value(self, row: int, col: int) -> Optional[float]:
        kind, _, k = self._rows[row]
        if kind != "item" or self._matrix is None:
            return None
        v = float(self._matrix[k, col])
        return v if math.isfinite(v) else None

    def data(self, index: QModelIndex, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        row, col = index.row(), index.column()
        kind, label, _item = self._rows[row]
        if role == KindRole:
            return kind
        if kind == "group":
            return self._group_data(label, col, role)
        return self._item_data(row, col, role)

    def _group_data(self, label: str, col: int, role: int):
        """A group header row: its label in the first column, bold, on a grey band."""
        if role == Qt.ItemDataRole.DisplayRole and col == 0:
            return label
        if role == Qt.ItemDataRole.FontRole:
            f = QFont()
            f.setBold(True)
            return f
        if role == Qt.ItemDataRole.BackgroundRole:
            return QBrush(QColor(62, 66, 72) if is_dark() else QColor(236, 239, 241))
        return None

    def _item_data(self, row: int, col: int, role: int):
        """A probability cell: its text (with the standard error), heat colour and tooltip."""
        _, label, k = self._rows[row]
        p = self.value(row, col)
        if role == Qt.ItemDataRole.DisplayRole:
            return format_probability(p, self._standard_error(k, col))
        if role == ProbabilityRole:
            return p
        if role == StandardErrorRole:
            return self._standard_error(k, col)
        if role == Qt.ItemDataRole.BackgroundRole:
            return self._cell_background(p)
        if role == Qt.ItemDataRole.ForegroundRole:
            return self._cell_foreground(p)
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return _CENTER
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._cell_tooltip(label, col, p)
        if role == Qt.ItemDataRole.AccessibleTextRole:
            return self._cell_spoken(label, col, p)
        if role == Qt.ItemDataRole.FontRole and p is not None and (p >= 1 - CERTAIN_EPS):
            f = QFont()
            f.setBold(True)
            return f
        return None

    def _standard_error(self, k: int, col: int) -> Optional[float]:
        return None if self._se is None else float(self._se[k, col])

    def _cell_background(self, p: Optional[float]) -> Optional[QBrush]:
        """The heat colour of ``p``, washed out towards grey while the numbers are stale."""
        if p is None:
            return None
        dark = is_dark()
        colour = heat_color(p, dark)
        if self._stale:   # washed out towards grey: these numbers are being replaced
            grey = 90 if dark else 225
            colour = QColor(*(round(0.3 * c + 0.7 * grey) for c in colour.getRgb()[:3]))
        return QBrush(colour)

    def _cell_foreground(self, p: Optional[float], background=False) -> QBrush:
        """Grey for stale or impossible cells; else a text colour readable on the heat colour
        (``background``: the cell's background brush when already made, else computed)."""
        if self._stale or (p is not None and p <= CERTAIN_EPS):
            return QBrush(muted())
        bg = self._cell_background(p) if background is False else background
        if bg is None:
            return QBrush(QGuiApplication.palette().color(QPalette.Text))
        return QBrush(readable_on(bg.color()))

    def _cell_spoken(self, label: str, col: int, p: Optional[float]) -> str:
        """What a screen reader says for a cell: its row, its column and the value in words
        ("Rope, Ann: 24 percent", "…: certain", "…: ruled out"); the symbols ✓ and ✗ of the
        cell are read aloud as "check mark", which says nothing of the row or column."""
        where = f"{label}, {self._columns[col].lstrip('★ ')}"   # the star marks me: not spoken
        if p is None:
            return _("{cell}: not computed yet").format(cell=where)
        if p >= 1 - CERTAIN_EPS:
            return _("{cell}: certain").format(cell=where)
        if p <= CERTAIN_EPS:
            return _("{cell}: ruled out").format(cell=where)
        text = format_probability(p).replace("<", _("less than") + " ").replace(">", _("more than") + " ")
        return _("{cell}: {value}").format(cell=where, value=text.replace("%", " " + _("percent")))

    def _cell_tooltip(self, label: str, col: int, p: Optional[float]) -> str:
        if p is None:
            return _("{cell}: not computed yet").format(cell=f"{label} / {self._columns[col]}")
        if self.tooltip is not None:
            return self.tooltip(label, self._columns[col], p)
        return _("Chance that {card} is with {holder}: {value}").format(
            card=label, holder=self._columns[col], value=f"{significant(100 * p, 4)} %")

    def headerData(self, section: int, orientation, role=Qt.ItemDataRole.DisplayRole):  # noqa: N802 (Qt's name)
        if role == Qt.ItemDataRole.DisplayRole:
            if orientation == Qt.Orientation.Horizontal:
                if section >= len(self._columns):
                    return None
                note = self._notes.get(section)
                return self._columns[section] + (f"\n{note[0]}" if note and note[0] else "")
            kind, label, _item = self._rows[section]
            return "" if kind == "group" else label
        if role == Qt.ItemDataRole.ToolTipRole and orientation == Qt.Orientation.Horizontal \
                and section in self._notes:
            return self._notes[section][1]
        return None

    def flags(self, index: QModelIndex):
        if not index.isValid():
            return _NO_FLAGS
        if self._rows[index.row()][0] == "group":
            return _GROUP_FLAGS
        return _ITEM_FLAGS


#: The worksheet's keys on the current cell (:attr:`WorksheetView.cellKeyAction`).
CELL_KEYS = {"h": "has", "+": "has", "l": "lacks", "-": "lacks", "w": "why", "?": "why"}


class WorksheetView(QTableView):
    """Keyboard-navigable heat-map grid with hooks.

    Signals:
        cellContextMenu(int item, int column, QPoint global_pos): right-click / menu key on a
            cell (item = model item index, never a group header).
        rowHeaderClicked(int item), columnHeaderClicked(int column).
        cellKeyAction(int item, int column, str action): a key on the current cell — H or +
            ``"has"``, L or − ``"lacks"``, W or ? ``"why"`` — so that the worksheet is used from
            the keyboard alone (the arrows move; the menu key opens the cell's menu). A tab
            that does not connect it gets nothing from these keys.
    """

    cellContextMenu = Signal(int, int, QPoint)
    rowHeaderClicked = Signal(int)
    columnHeaderClicked = Signal(int)
    cellKeyAction = Signal(int, int, str)

    def __init__(self, parent=None):
        super().__init__(parent)
        use_cached_vertical_header(self)        # row labels measured once per change
        self.setSelectionMode(QAbstractItemView.SingleSelection)
        self.setSelectionBehavior(QAbstractItemView.SelectItems)
        self.setEditTriggers(QAbstractItemView.NoEditTriggers)
        self.setContextMenuPolicy(Qt.CustomContextMenu)
        self.setAlternatingRowColors(False)
        self.setShowGrid(True)
        self.setWordWrap(False)
        self.setTextElideMode(Qt.ElideNone)  # ">99%" in a narrow column: clip, never "…"
        self.horizontalHeader().setSectionResizeMode(QHeaderView.Stretch)
        self.horizontalHeader().setMinimumSectionSize(42)
        self.verticalHeader().setSectionResizeMode(QHeaderView.Fixed)
        self.verticalHeader().setDefaultSectionSize(24)
        self.horizontalHeader().setSectionsClickable(True)
        self.verticalHeader().setSectionsClickable(True)
        self.customContextMenuRequested.connect(self._on_context_menu)
        self.horizontalHeader().sectionClicked.connect(self.columnHeaderClicked)
        self.verticalHeader().sectionClicked.connect(self._on_row_header)

    def setModel(self, model) -> None:  # noqa: N802 (Qt name)
        super().setModel(model)
        model.modelReset.connect(self._span_groups)
        self._span_groups()

    def _span_groups(self) -> None:
        m = self.model()
        self.clearSpans()
        for r in range(m.rowCount()):
            if m.data(m.index(r, 0), KindRole) == "group":
                self.setSpan(r, 0, 1, max(1, m.columnCount()))

    def _on_row_header(self, row: int) -> None:
        k = self.model().item_index(row)
        if k >= 0:
            self.rowHeaderClicked.emit(k)

    def _on_context_menu(self, pos: QPoint) -> None:
        index = self.indexAt(pos)
        if not index.isValid():
            return
        k = self.model().item_index(index.row())
        if k >= 0:
            self.setCurrentIndex(index)
            self.cellContextMenu.emit(k, index.column(), self.viewport().mapToGlobal(pos))

    def keyPressEvent(self, event) -> None:  # noqa: N802 (Qt's method name)
        if event.key() == Qt.Key_Menu or (event.key() == Qt.Key_F10 and event.modifiers() & Qt.ShiftModifier):
            index = self.currentIndex()
            if index.isValid():
                rect: QRect = self.visualRect(index)
                self._on_context_menu(rect.center())
                return
        plain = not (event.modifiers() & (Qt.ControlModifier | Qt.AltModifier | Qt.MetaModifier))
        action = CELL_KEYS.get(event.text().lower()) if plain else None
        index = self.currentIndex()
        wanted = self.isSignalConnected(QMetaMethod.fromSignal(self.cellKeyAction))
        if action is not None and index.isValid() and wanted:
            k = self.model().item_index(index.row())
            if k >= 0:
                self.cellKeyAction.emit(k, index.column(), action)
                event.accept()
                return
        super().keyPressEvent(event)
