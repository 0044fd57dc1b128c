"""A layout that places its widgets in a row and wraps them onto further rows when the row is
too narrow (a form's seat pickers or check boxes on a small or zoomed window).

After Qt's "Flow Layout" example (The Qt Company, Qt for Python examples, ``layouts/flowlayout``,
BSD licence): items left to right with the style's spacing, a new row when the next item would
pass the right edge; the height for a width is that of the rows it makes
(``hasHeightForWidth``), the minimum width that of the widest item.
"""
from __future__ import annotations

from PySide6.QtCore import QMargins, QPoint, QRect, QSize, Qt
from PySide6.QtWidgets import QLayout, QSizePolicy, QStyle


class FlowLayout(QLayout):
    """Widgets in rows that wrap at the layout's width (see the module docstring)."""

    def __init__(self, parent=None, spacing: int = -1):
        super().__init__(parent)
        self._items = []
        self._spacing = spacing
        self.setContentsMargins(QMargins(0, 0, 0, 0))

    def addItem(self, item) -> None:  # noqa: N802 (Qt name)
        self._items.append(item)

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int):  # noqa: N802 (Qt name)
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int):  # noqa: N802 (Qt name)
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    def expandingDirections(self):  # noqa: N802 (Qt name)
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:  # noqa: N802 (Qt name)
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802 (Qt name)
        return self._do_layout(QRect(0, 0, width, 0), True)

    def setGeometry(self, rect: QRect) -> None:  # noqa: N802 (Qt name)
        super().setGeometry(rect)
        self._do_layout(rect, False)

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt name)
        """One row of every item."""
        w = h = 0
        for item in self._visible():
            hint = item.sizeHint()
            w += hint.width() + (self._gap(Qt.Orientation.Horizontal) if w else 0)
            h = max(h, hint.height())
        m = self.contentsMargins()
        return QSize(w + m.left() + m.right(), h + m.top() + m.bottom())

    def minimumSize(self) -> QSize:  # noqa: N802 (Qt name)
        """As wide as the widest item."""
        size = QSize()
        for item in self._visible():
            size = size.expandedTo(item.minimumSize())
        m = self.contentsMargins()
        return size + QSize(m.left() + m.right(), m.top() + m.bottom())

    def _visible(self):
        return [it for it in self._items if it.widget() is None or not it.widget().isHidden()]

    def _gap(self, orientation) -> int:
        if self._spacing >= 0:
            return self._spacing
        parent = self.parentWidget()
        if parent is None:
            return 6
        control = QSizePolicy.ControlType.PushButton
        return max(0, parent.style().layoutSpacing(control, control, orientation)) or \
            parent.style().pixelMetric(QStyle.PixelMetric.PM_LayoutHorizontalSpacing)

    def _do_layout(self, rect: QRect, test_only: bool) -> int:
        m = self.contentsMargins()
        area = rect.adjusted(m.left(), m.top(), -m.right(), -m.bottom())
        x, y, line = area.x(), area.y(), 0
        gx, gy = max(0, self._gap(Qt.Orientation.Horizontal)), max(0, self._gap(Qt.Orientation.Vertical))
        for item in self._visible():
            hint = item.sizeHint()
            if x > area.x() and x + hint.width() > area.right() + 1:
                x, y, line = area.x(), y + line + gy, 0
            if not test_only:
                item.setGeometry(QRect(QPoint(x, y), hint.boundedTo(QSize(area.width(), hint.height()))))
            x += hint.width() + gx
            line = max(line, hint.height())
        return y + line - rect.y() + m.bottom()


def field_pairs(fields) -> FlowLayout:
    """A :class:`FlowLayout` of ``(label text, editor)`` pairs, each pair kept on one row (the
    label's buddy is its editor)."""
    from PySide6.QtWidgets import QHBoxLayout, QLabel, QWidget

    flow = FlowLayout()
    for text, editor in fields:
        pair = QWidget()
        row = QHBoxLayout(pair)
        row.setContentsMargins(0, 0, 0, 0)
        label = QLabel(text)
        label.setBuddy(editor)
        row.addWidget(label)
        row.addWidget(editor)
        flow.addWidget(pair)
    return flow


def described_group(title: str, about: str):
    """A group box titled ``title`` with ``about`` as a word-wrapped line at its top (a group
    box's title never wraps, so a long description there would widen the window). Returns
    ``(box, layout)``: the box and its vertical layout, for the rest of the form."""
    from PySide6.QtWidgets import QGroupBox, QLabel, QVBoxLayout

    box = QGroupBox(title)
    outer = QVBoxLayout(box)
    line = QLabel(about)
    line.setWordWrap(True)
    outer.addWidget(line)
    return box, outer
