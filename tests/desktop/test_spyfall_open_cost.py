"""What the open of a large Spyfall table costs the GUI thread (docs/app-speed.md, "The largest
Spyfall table's open"): the claim sheet's views answer Qt without a call per location or per
claim where the answer is known, and show exactly what they showed before."""
import numpy as np
from PySide6.QtCore import QSize
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QHeaderView
from view_kit import shown

from desktop.games.spyfall.model import ClaimSheetModel, ClaimSheetView, RotatedHeader


def _locations(n: int) -> list[str]:
    return [f"Location {i}" + "x" * (i % 7) for i in range(n)]


def _claims(n: int, s: int) -> list:
    rng = np.random.default_rng(n)
    return [(f"P{t % 5}", rng.choice([0.0, 0.5, 1.0], size=s)) for t in range(n)]


class _CountingHeader(RotatedHeader):
    """Counts Qt's calls for a section's contents (PySide keeps the override it found first,
    so the count is made in a subclass, not by patching the class)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.asked = 0

    def sectionSizeFromContents(self, logical: int) -> QSize:  # noqa: N802 (Qt's method name)
        self.asked += 1
        return super().sectionSizeFromContents(logical)


def test_rotated_header_size_hint_is_qts_without_a_call_per_section(qtbot):
    view = ClaimSheetView()
    header = _CountingHeader(view)
    view.setHorizontalHeader(header)
    header.setSectionResizeMode(QHeaderView.Stretch)
    view, model = shown(qtbot, view, ClaimSheetModel(), 500, 400)
    for n, point in ((0, 9), (3, 9), (40, 14), (250, 11)):   # over 200: Qt's first and last 100
        model.set_sheet(_locations(n), _claims(4, n), ["Public"])
        header.setFont(QFont(header.font().family(), point))
        if n > 2:
            header.hideSection(1)
        assert header.sizeHint() == QSize(QHeaderView.sizeHint(header).width(),
                                          header._label_height())
    header.asked = 0
    model.set_sheet(_locations(200), _claims(4, 200), ["Public"])   # a new table, laid out
    view.resize(520, 400)
    qtbot.wait(1)
    header.sizeHint()
    assert header.asked == 0
