"""Spyfall's claim sheet keeps each cell's roles per change (ClaimSheetModel.KEEP_CELLS): after
new claims, new beliefs and a click on the pending row it paints what a fresh sheet of the same
state paints."""
import numpy as np
from view_kit import shown

from desktop.games.spyfall.model import ClaimSheetModel, ClaimSheetView

LOCATIONS = ["Airplane", "Bank", "Beach", "Casino"]
CLAIMS_A = [("Ann", [1.0, 0.5, 0.0, 0.0])]
CLAIMS_B = [("Ann", [1.0, 0.5, 0.0, 0.0]), ("Bob", [0.0, 1.0, 1.0, 0.5])]
BELIEFS_A = np.array([[0.4, 0.3, 0.2, 0.1]])
BELIEFS_B = np.array([[0.1, 0.6, 0.2, 0.1]])


def _sheet(qtbot, claims, beliefs, clicks=()):
    model = ClaimSheetModel()
    model.set_sheet(LOCATIONS, claims, ["Public"])
    model.set_beliefs(beliefs)
    for col in clicks:
        model.cycle(col)
    return shown(qtbot, ClaimSheetView(), model, 420, 260)


def _image(view):
    view.viewport().repaint()
    return view.viewport().grab().toImage()


def test_claim_sheet_paints_its_state_after_each_change(qtbot):
    assert ClaimSheetModel.KEEP_CELLS
    view, model = _sheet(qtbot, CLAIMS_A, BELIEFS_A)
    first = _image(view)
    model.set_sheet(LOCATIONS, CLAIMS_B, ["Public"])   # a new claim: rows move down
    model.set_beliefs(BELIEFS_B)
    assert _image(view) == _image(_sheet(qtbot, CLAIMS_B, BELIEFS_B)[0]) != first
    model.cycle(2)                                     # a click on the pending row
    assert _image(view) == _image(_sheet(qtbot, CLAIMS_B, BELIEFS_B, clicks=(2,))[0])
