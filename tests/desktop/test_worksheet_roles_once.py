"""The worksheet computes a cell's painted roles together (ProbabilityTableModel
._painted_roles): multiData answers exactly what data() answers role by role, for certain,
impossible, uncertain and unknown cells, with standard errors, greyed, and on a dark palette."""
import numpy as np
from PySide6.QtCore import QModelRoleData, QModelRoleDataSpan, Qt
from PySide6.QtGui import QColor, QGuiApplication, QPalette

from desktop.widgets.worksheet import ProbabilityTableModel

ROLES = [Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.DecorationRole,
         Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.FontRole,
         Qt.ItemDataRole.TextAlignmentRole, Qt.ItemDataRole.BackgroundRole,
         Qt.ItemDataRole.ForegroundRole, Qt.ItemDataRole.CheckStateRole]
MATRIX = np.array([[0.0, 1.0, 0.0], [0.5, 0.25, 0.25], [0.001, np.nan, 0.999],
                   [1 - 1e-12, 1e-12, 0.0], [0.3, 0.3, 0.4]])


def _same(a, b) -> bool:
    if hasattr(a, "color") and hasattr(b, "color"):        # brushes
        return a.color() == b.color() and a.style() == b.style()
    if hasattr(a, "bold") and hasattr(b, "bold"):          # fonts
        return a.bold() == b.bold() and a.resolveMask() == b.resolveMask()
    return a == b


def _check(model):
    for row in range(model.rowCount()):
        for col in range(model.columnCount()):
            index = model.index(row, col)
            for role in ROLES:        # the first role asked computes the painted ones
                rd = QModelRoleData(int(role))
                model.multiData(index, QModelRoleDataSpan(rd))
                assert _same(rd.data(), model.data(index, role)), (row, col, role)


def test_multi_data_equals_data_in_every_state(qapp):
    model = ProbabilityTableModel([("Suspects", ["Plum", "Green"]), ("Weapons", ["Rope", "Knife", "Pipe"])],
                                  ["Me", "Ann", "Envelope"])
    model.set_matrix(MATRIX)
    _check(model)
    model.set_matrix(MATRIX, np.full(MATRIX.shape, 0.02))
    _check(model)
    model.set_stale(True)
    _check(model)
    old = QGuiApplication.palette()
    dark = QPalette(old)
    for group in (QPalette.Active, QPalette.Inactive, QPalette.Disabled):
        dark.setColor(group, QPalette.Base, QColor(30, 30, 30))
        dark.setColor(group, QPalette.Text, QColor(230, 230, 230))
        dark.setColor(group, QPalette.Window, QColor(40, 40, 40))
        dark.setColor(group, QPalette.WindowText, QColor(230, 230, 230))
    try:
        QGuiApplication.setPalette(dark)
        model.set_stale(False)
        _check(model)
    finally:
        QGuiApplication.setPalette(old)
