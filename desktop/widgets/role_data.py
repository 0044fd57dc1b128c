"""Every role of a cell in one call from Qt into Python.

A view asks its model for about eight roles of each cell it paints or measures (display,
background, foreground, alignment, font, decoration, check state, tool tip). Qt 6 asks for them
together with ``QAbstractItemModel::multiData``, whose default calls ``data()`` once per role:
from C++ into Python each time, and each such call must take Python's global lock again — up to
the switch interval (20 µs, :data:`desktop.shell.process.GIL_SWITCH_INTERVAL_S`) while a
background job runs Python. :class:`MultiDataModel` answers ``multiData`` itself, calling its own
``data()`` from Python, so a cell costs one crossing instead of eight.
"""
from __future__ import annotations

from PySide6.QtCore import QSortFilterProxyModel, Qt

# The roles as plain ints, read once: ``data()`` runs for every role of every visible cell, and
# an enum member looked up through Qt's namespace (``Qt.DisplayRole``) costs about 2.7 µs.
DISPLAY = Qt.ItemDataRole.DisplayRole.value
TOOLTIP = Qt.ItemDataRole.ToolTipRole.value
FOREGROUND = Qt.ItemDataRole.ForegroundRole.value
BACKGROUND = Qt.ItemDataRole.BackgroundRole.value
ALIGNMENT = Qt.ItemDataRole.TextAlignmentRole.value
FONT = Qt.ItemDataRole.FontRole.value
DECORATION = Qt.ItemDataRole.DecorationRole.value
CHECK_STATE = Qt.ItemDataRole.CheckStateRole.value


class MultiDataModel:
    """Mixin for Python item models (put it before the Qt model class in the bases): fills a
    ``QModelRoleDataSpan`` from :meth:`data` in one call. Behaviour is exactly ``data()``'s."""

    def multiData(self, index, roleDataSpan) -> None:  # noqa: N802 (Qt names)
        """Every requested role of ``index`` from :meth:`data` (Qt's
        ``QAbstractItemModel::multiData``)."""
        data = self.data
        for role_data in roleDataSpan:
            role_data.setData(data(index, role_data.role()))


class MultiDataProxy(QSortFilterProxyModel):
    """A ``QSortFilterProxyModel`` that passes ``multiData`` on to its source model in one
    call. Qt's proxy does not (its ``multiData`` is ``QAbstractItemModel``'s, one ``data()``
    per role, each mapped to the source's ``data()``): behind it, a Python model's
    :class:`MultiDataModel` (and the cells it keeps) went unused and every role of every cell
    was a call from C++ into Python. What it answers is exactly what the proxy's ``data()``
    answers."""

    def multiData(self, index, roleDataSpan) -> None:  # noqa: N802 (Qt names)
        """Every requested role of ``index`` from the source model's ``multiData`` at the
        mapped index."""
        source = self.sourceModel()
        if source is None or not index.isValid():
            return super().multiData(index, roleDataSpan)
        source.multiData(self.mapToSource(index), roleDataSpan)
