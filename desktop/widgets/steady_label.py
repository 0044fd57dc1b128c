"""A label that switches between a few known texts without changing its size.

A grid label whose text depends on the form's state ("Card shown to me" / "Card I showed
(optional)") changes the grid's column width each time it switches, and the whole window is
laid out again around it. :class:`SteadyLabel` asks for the room of the widest of its texts
whichever it shows, measured in its font as it is now (so it follows the zoom).
"""
from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QRect, QSize
from PySide6.QtWidgets import QLabel


class SteadyLabel(QLabel):
    """A plain-text QLabel sized for the widest of ``texts`` (its alternatives), whichever of
    them (or any shorter text) it shows. Sizes are in pixels of the label's current font."""

    def __init__(self, texts: Sequence[str], parent=None):
        if not texts:
            raise ValueError("SteadyLabel needs at least one text")
        super().__init__(texts[0], parent)
        self._texts = tuple(texts)

    def _widest(self) -> int:
        # measured as QLabel measures plain text: the bounding rectangle with its alignment
        fm = self.fontMetrics()
        room, align = QRect(0, 0, 1 << 20, 1 << 20), int(self.alignment())
        m = self.contentsMargins()
        return (max(fm.boundingRect(room, align, t).width() for t in self._texts)
                + 2 * self.margin() + m.left() + m.right())

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt name)
        hint = super().sizeHint()
        return QSize(max(hint.width(), self._widest()), hint.height())

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt name)
        hint = super().minimumSizeHint()
        return QSize(max(hint.width(), self._widest()), hint.height())
