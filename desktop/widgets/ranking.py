"""Ranking tables from data: every ranked list in the tabs (the best suggestions, the next
questions) is a :class:`RankingTable` — a :class:`desktop.widgets.columns.ColumnTable` whose
columns the tab declares once as :class:`Column` values and whose rows are the engine's own
objects (a ranked question, a suggestion), in the engine's order.

The model and the column declaration are the generic ones of :mod:`desktop.widgets.columns`
(the result tables of the Simulation tabs and the form grids use them too); this module keeps
the names the tabs import.
"""
from __future__ import annotations

from typing import Sequence

from desktop.widgets.columns import Column, ColumnTable, ColumnTableModel, RowRole

__all__ = ["Column", "RankingModel", "RankingTable", "RowRole"]

#: The model of a ranking (rows in the engine's order, columns declared as data).
RankingModel = ColumnTableModel


class RankingTable(ColumnTable):
    """A read-only, row-selecting table of ranked rows (best first, the engine's order).

    Signals:
        rowActivated(int row): the player double-clicked (or pressed Enter on) a row.
    """

    def __init__(self, columns: Sequence[Column], *, stretch: bool = False, tooltip: str = "",
                 parent=None):
        super().__init__(columns, stretch=stretch, tooltip=tooltip, parent=parent)
        self.ranking = self.table_model
