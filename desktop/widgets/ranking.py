"""Ranking tables from data: the columns are declared as :class:`Column` values, the rows are
the engine's own objects (a ranked question, a suggestion), and one model shows them.

Every ranked list in the tabs (the best suggestions, the next questions) is a
:class:`RankingTable`: the tab declares its columns once and hands it the rows of each result.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt, Signal
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView

#: The row object behind a cell (``model.data(index, RowRole)``).
RowRole = Qt.UserRole + 1


@dataclass(frozen=True)
class Column:
    """One column of a ranking table.

    Attributes:
        title: the header text.
        text: row object -> the cell's text.
        numeric: right-aligned (numbers).
        tooltip: row object -> the cell's tooltip (optional).
    """

    title: str
    text: Callable[[Any], str]
    numeric: bool = False
    tooltip: Optional[Callable[[Any], str]] = None


class RankingModel(QAbstractTableModel):
    """Rows (any objects) shown through declared :class:`Column` s."""

    def __init__(self, columns: Sequence[Column], parent=None):
        super().__init__(parent)
        self.columns = tuple(columns)
        self._rows: list = []

    def set_rows(self, rows: Sequence) -> None:
        """Replace the rows (a new ranking)."""
        self.beginResetModel()
        self._rows = list(rows)
        self.endResetModel()

    def row_object(self, row: int) -> Any:
        return self._rows[row]

    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: N802 (Qt name)
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent=QModelIndex()) -> int:  # noqa: N802
        return 0 if parent.isValid() else len(self.columns)

    def data(self, index: QModelIndex, role: int = Qt.DisplayRole):
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        obj, col = self._rows[index.row()], self.columns[index.column()]
        if role == Qt.DisplayRole:
            return col.text(obj)
        if role == Qt.TextAlignmentRole and col.numeric:
            return int(Qt.AlignRight | Qt.AlignVCenter)
        if role == Qt.ToolTipRole and col.tooltip is not None:
            return col.tooltip(obj)
        if role == RowRole:
            return obj
        return None

    def headerData(self, section: int, orientation, role: int = Qt.DisplayRole):  # noqa: N802
        if role == Qt.DisplayRole and orientation == Qt.Horizontal and 0 <= section < len(self.columns):
            return self.columns[section].title
        return None


class RankingTable(QTableView):
    """A read-only, row-selecting table of a :class:`RankingModel`.

    Signals:
        rowActivated(int row): the player double-clicked (or pressed Enter on) a row.
    """

    rowActivated = Signal(int)

    def __init__(self, columns: Sequence[Column], *, stretch: bool = False, tooltip: str = "",
                 parent=None):
        super().__init__(parent)
        self.ranking = RankingModel(columns, self)
        self.setModel(self.ranking)
        header = self.horizontalHeader()
        if stretch:
            header.setSectionResizeMode(QHeaderView.Stretch)
        else:
            header.setSectionResizeMode(QHeaderView.ResizeToContents)
            header.setStretchLastSection(True)
        self.verticalHeader().setVisible(False)
        self.setEditTriggers(QAbstractItemView.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.setSelectionMode(QAbstractItemView.SingleSelection)
        if tooltip:
            self.setToolTip(tooltip)
        self.activated.connect(self._activated)   # double-click or Enter (the platform's way)

    def _activated(self, index: QModelIndex) -> None:
        self.rowActivated.emit(index.row())

    def set_rows(self, rows: Sequence) -> None:
        self.ranking.set_rows(rows)

    def clear_rows(self) -> None:
        self.ranking.set_rows(())

    def row_count(self) -> int:
        return self.ranking.rowCount()

    def row_object(self, row: int) -> Any:
        return self.ranking.row_object(row)

    def text(self, row: int, column: int) -> str:
        """The text shown in a cell."""
        return self.ranking.data(self.ranking.index(row, column)) or ""

    def tooltip(self, row: int, column: int) -> str:
        return self.ranking.data(self.ranking.index(row, column), Qt.ToolTipRole) or ""

    def select_row(self, row: int) -> None:
        self.selectRow(row)
