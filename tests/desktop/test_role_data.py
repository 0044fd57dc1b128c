"""Models answer every role of a cell in one call (desktop/widgets/role_data.py): what
``multiData`` gives equals ``data()`` role by role, and a view painting a table asks through
``multiData``."""
import numpy as np
from PySide6.QtCore import QModelIndex, QModelRoleData, QModelRoleDataSpan, Qt
from PySide6.QtWidgets import QApplication, QTableView
from window_idle import wait_idle

from desktop.widgets.role_data import MultiDataModel
from desktop.widgets.worksheet import ProbabilityRole
from engines.core.resources import resource_path

ROLES = [Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.DecorationRole,
         Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.FontRole,
         Qt.ItemDataRole.TextAlignmentRole, Qt.ItemDataRole.BackgroundRole,
         Qt.ItemDataRole.ForegroundRole, Qt.ItemDataRole.CheckStateRole]


def _count(method) -> int:
    """A model's row or column count, whether its override takes the parent or not."""
    try:
        return method()
    except TypeError:
        try:
            return method(QModelIndex())
        except TypeError:       # a list model's columnCount is private: one column
            return 1


def _same(a, b) -> bool:
    if hasattr(a, "color") and hasattr(b, "color"):        # brushes
        return a.color() == b.color() and a.style() == b.style()
    return a == b


def test_multi_data_equals_data_for_every_role(window):
    """Role by role (a worksheet computes the roles a view paints of a cell together, at the
    first role asked after a change, and keeps them): the claim sheet with weights on the pending row,
    the spy beliefs, the History, and Cluedo's worksheet with certain cells (bold)."""
    assert window.open_path(str(resource_path("examples", "spyfall.json")), ask=False)
    assert wait_idle(window, 60)
    tab = window.tab_for("spyfall")
    pending = np.zeros(tab.sheet_model.columnCount())
    pending[[1, 4]] = 0.5, 1.0
    tab.sheet_model.set_pending(pending)
    models = [tab.sheet_model, tab.spy_pane.model, tab.history._view.model()]
    assert window.open_path(str(resource_path("examples", "cluedo.json")), ask=False)
    assert wait_idle(window, 60)
    models.append(window.tab_for("cluedo").model)
    roles = ROLES + [ProbabilityRole]
    for model in models:
        assert isinstance(model, MultiDataModel)
        for row in range(min(_count(model.rowCount), 14)):
            for col in range(min(_count(model.columnCount), 6)):
                index = model.index(row, col)
                if hasattr(model, "_forget_cells"):     # the first role computes them all
                    model._forget_cells()
                for role in roles:
                    rd = QModelRoleData(int(role))
                    model.multiData(index, QModelRoleDataSpan(rd))
                    assert _same(rd.data(), model.data(index, role)), (model, row, col, role)


def test_a_painted_table_asks_once_per_cell(qtbot):
    """Every data() call of a paint comes from MultiDataModel.multiData (Python), none from
    Qt's own multiData calling into Python once per role."""
    import sys

    from desktop.widgets.worksheet import ProbabilityTableModel

    callers = []

    class Recording(ProbabilityTableModel):
        """Records the Python code that called data()."""

        def data(self, index, role=Qt.ItemDataRole.DisplayRole):
            callers.append(sys._getframe(1).f_code)
            return super().data(index, role)

    model = Recording([("Beliefs", ["a", "b", "c"])], ["x", "y", "z", "w"])
    model.set_matrix(np.full((3, 4), 0.25))
    view = QTableView()
    qtbot.addWidget(view)
    view.setModel(model)
    view.resize(500, 300)
    view.show()
    QApplication.processEvents()
    callers.clear()
    view.viewport().repaint()
    assert len(callers) >= 12 * 4                       # every cell, several roles each
    assert set(callers) == {MultiDataModel.multiData.__code__}
