"""The worksheet keeps each cell's roles until its numbers change (ProbabilityTableModel
.multiData): what it paints is what a fresh worksheet of the same numbers paints."""
import numpy as np
from view_kit import shown

from desktop.widgets.worksheet import ProbabilityTableModel, WorksheetView

GROUPS = [("Suspects", ["Plum", "Green"]), ("Weapons", ["Rope", "Knife", "Pipe"])]
COLUMNS = ["Me", "Ann", "Envelope"]


def _view(qtbot, matrix, stale=False):
    model = ProbabilityTableModel(GROUPS, COLUMNS)
    model.set_matrix(matrix)
    model.set_stale(stale)
    return shown(qtbot, WorksheetView(), model, 360, 240)


def _image(view):
    return view.viewport().grab().toImage()


def test_what_is_painted_follows_the_numbers_and_the_greying(qtbot):
    a = np.array([[0.0, 1, 0], [0.5, 0.25, 0.25], [0.1, 0.2, 0.7], [1, 0, 0], [0.3, 0.3, 0.4]])
    b = a[::-1].copy()
    view, model = _view(qtbot, a)
    first = _image(view)
    model.set_matrix(b)                     # new numbers: every kept cell is forgotten
    view.viewport().repaint()
    fresh_b, _ = _view(qtbot, b)
    assert _image(view) == _image(fresh_b) and _image(view) != first
    model.set_stale(True)                   # greyed: text and heat colours change
    view.viewport().repaint()
    fresh_stale, _ = _view(qtbot, b, stale=True)
    assert _image(view) == _image(fresh_stale) and _image(view) != _image(fresh_b)
