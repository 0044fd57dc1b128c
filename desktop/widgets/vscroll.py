"""A scroll area that scrolls vertically only and is as wide as its content needs.

``QScrollArea`` reports a small minimum size, so a splitter or layout may make it narrower than
its content (a horizontal scroll bar, or cut-off forms); a fixed minimum width taken from the
content when built does not follow a later zoom. :class:`VerticalScroll`'s minimum width is its
content's, measured whenever asked (so it follows the font), plus the vertical scroll bar and the
frame; its minimum height is small, so a short window scrolls the content instead of growing.
"""
from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import QScrollArea


class VerticalScroll(QScrollArea):
    """A resizable-content scroll area that never scrolls sideways (see the module docstring);
    ``prefer_hint``: take the content's size hint as its width (else its minimum size)."""

    def __init__(self, content=None, prefer_hint: bool = False, parent=None):
        super().__init__(parent)
        self._prefer_hint = prefer_hint
        self.setWidgetResizable(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        if content is not None:
            self.setWidget(content)

    def _content_width(self) -> int:
        w = self.widget()
        if w is None:
            return 0
        hint = w.sizeHint() if self._prefer_hint else w.minimumSizeHint()
        return max(hint.width(), w.minimumWidth())

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt name)
        bar = self.verticalScrollBar().sizeHint().width()
        return QSize(self._content_width() + bar + 2 * self.frameWidth(),
                     super().minimumSizeHint().height())

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt name)
        hint = super().sizeHint()
        return QSize(max(hint.width(), self.minimumSizeHint().width()), hint.height())
