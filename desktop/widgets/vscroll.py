"""A scroll area that scrolls vertically only and is as wide as its content needs.

``QScrollArea`` reports a small minimum size, so a splitter or layout may make it narrower than
its content (a horizontal scroll bar, or cut-off forms); a fixed minimum width taken from the
content when built does not follow a later zoom. :class:`VerticalScroll`'s minimum width is its
content's, measured whenever asked (so it follows the font), plus the vertical scroll bar and the
frame; its minimum height is small, so a short window scrolls the content instead of growing.
"""
from __future__ import annotations

from PySide6.QtCore import QEvent, QSize, Qt, QTimer
from PySide6.QtWidgets import QBoxLayout, QScrollArea, QWidget

from desktop.widgets.hint_cache import HintCache


class NeededHeightContent(QWidget):
    """Content for a :class:`VerticalScroll` that is as tall, for a width, as its items need at
    least (the minimum height the scroll area keeps for it: wrapped lines whole, each item's
    least height), not as tall as they would like. A word-wrapped label makes Qt ask the content
    for a height for the viewport's width, and a layout answers with its items' *preferred*
    heights: a plot preferring about 520 px then made a short page scroll where it had room,
    with the plot's empty top in view. Items with a stretch take the height left."""

    def heightForWidth(self, width: int) -> int:  # noqa: N802 (Qt name)
        return max(self.minimumHeight(), self.minimumSizeHint().height())


class VerticalScroll(QScrollArea):
    """A resizable-content scroll area that never scrolls sideways (see the module docstring);
    ``prefer_hint``: take the content's size hint as its width (else its minimum size)."""

    def __init__(self, content=None, prefer_hint: bool = False, parent=None):
        super().__init__(parent)
        self._prefer_hint = prefer_hint
        self._hints = HintCache()
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

    def event(self, e) -> bool:
        self._hints.seen(e)
        return super().event(e)

    def setWidget(self, widget) -> None:  # noqa: N802 (Qt name)
        self._hints.clear()
        super().setWidget(widget)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt name)
        """The content's minimum width (its size hint's with ``prefer_hint``) plus the scroll
        bar and the frame; kept until this area or its content sees an event that may change
        it (:mod:`desktop.widgets.hint_cache`)."""
        return self._hints.get("min", self._minimum_size_hint)

    def _minimum_size_hint(self) -> QSize:
        bar = self.verticalScrollBar().sizeHint().width()
        return QSize(self._content_width() + bar + 2 * self.frameWidth(),
                     super().minimumSizeHint().height())

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt name)
        super().resizeEvent(event)
        self._keep_wrapped_text()

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 (Qt name)
        # a text changed (a layout request of the content): its wrapped height may have too
        if obj is self.widget():
            self._hints.seen(event)
        if obj is self.widget() and event.type() == QEvent.Type.LayoutRequest:
            QTimer.singleShot(0, self, self._keep_wrapped_text)   # not after deletion
            # the content's minimum width is this area's: the splitter or layout holding it
            # must hear of a change (else it keeps the area narrower than its content)
            self.updateGeometry()
        return super().eventFilter(obj, event)

    def _keep_wrapped_text(self) -> None:
        """Give the content at least the height its items need at the viewport's width — word
        wrapped labels their height for that width (``QScrollArea`` sizes resizable content by
        the preferred heights, so a wrapped label could get less than its text needs)."""
        w = self.widget()
        lay = w.layout() if w is not None else None
        if not isinstance(lay, QBoxLayout) or lay.direction() not in (QBoxLayout.Direction.TopToBottom,
                                                                      QBoxLayout.Direction.BottomToTop):
            return
        m = lay.contentsMargins()
        width = self.viewport().width() - m.left() - m.right()
        need, shown = m.top() + m.bottom(), 0
        for i in range(lay.count()):
            item = lay.itemAt(i)
            if item.isEmpty():
                continue
            h = item.minimumSize().height()
            if item.hasHeightForWidth():
                h = max(h, item.heightForWidth(width))
            need += h
            shown += 1
        need += max(0, lay.spacing()) * max(0, shown - 1)
        if w.minimumHeight() != need:
            w.setMinimumHeight(need)

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt name)
        return self._hints.get("size", self._size_hint)

    def _size_hint(self) -> QSize:
        hint = super().sizeHint()
        return QSize(max(hint.width(), self.minimumSizeHint().width()), hint.height())
