"""Inline banner for errors and notices inside a tab (hidden when there is nothing to say).

The banner floats over the top of the widget it is anchored to (:meth:`Banner.float_over`):
showing or hiding it never moves the worksheet under the pointer, so a click aimed at a cell
lands on that cell. It can be dismissed (✕) without acting.
"""
from __future__ import annotations

import html
from typing import Optional

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import (
    QFrame,
    QGraphicsDropShadowEffect,
    QHBoxLayout,
    QLabel,
    QLayout,
    QPushButton,
    QTableView,
    QToolButton,
    QWidget,
)

# text colours are explicit, so each style reads the same on a light or a dark palette
STYLES = {
    "error": "background:#ffebee; border:1px solid #e57373; color:#b71c1c;",
    "warning": "background:#fff8e1; border:1px solid #ffb300; color:#6d4c00;",
    "info": "background:#e3f2fd; border:1px solid #64b5f6; color:#0d47a1;",
    "success": "background:#e8f5e9; border:1px solid #66bb6a; color:#1b5e20;",
}


def find_in_layout(layout: QLayout, widget: QWidget):
    """``(layout, index)`` of ``widget`` in ``layout`` or one of its nested layouts, or None."""
    for i in range(layout.count()):
        item = layout.itemAt(i)
        if item.widget() is widget:
            return layout, i
        if item.layout() is not None:
            found = find_in_layout(item.layout(), widget)
            if found:
                return found
    return None


class Banner(QFrame):
    """A one-line coloured message with an optional action button and a dismiss button.

    Signals:
        actionClicked(): the button was pressed.
        linkActivated(str href): a link in the message was clicked (e.g. ``"entry:3"``).
    """

    actionClicked = Signal()
    linkActivated = Signal(str)

    def __init__(self, parent=None):
        super().__init__(parent)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 4, 4, 4)
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.label.linkActivated.connect(self.linkActivated)
        layout.addWidget(self.label, 1)
        self.button = QPushButton()
        self.button.clicked.connect(self.actionClicked)
        layout.addWidget(self.button)
        self.close_button = QToolButton()
        self.close_button.setText("✕")
        self.close_button.setAutoRaise(True)
        self.close_button.setToolTip("Hide this message")
        self.close_button.clicked.connect(self.hide)
        layout.addWidget(self.close_button)
        self._anchor: Optional[QObject] = None
        self._watcher: Optional[_Watcher] = None
        self.hide()

    # -- overlay ---------------------------------------------------------------------------
    def float_over(self, host: QWidget) -> None:
        """Take the banner out of ``host``'s layout and float it over whatever follows it there
        (the worksheet, usually), at the full width of that item; it then covers the top of
        that item while shown instead of pushing it down. Without a layout place it at the top
        of ``host``."""
        anchor = None
        found = find_in_layout(host.layout(), self) if host.layout() is not None else None
        if found:
            lay, i = found
            nxt = lay.itemAt(i + 1)
            if nxt is not None:
                anchor = nxt.widget() or nxt.layout()
            lay.removeWidget(self)
        self.setParent(host)
        self._anchor = anchor
        self._watcher = _Watcher(self)
        host.installEventFilter(self._watcher)
        if isinstance(anchor, QWidget):
            anchor.installEventFilter(self._watcher)
        shadow = QGraphicsDropShadowEffect(self)
        shadow.setBlurRadius(12)
        shadow.setOffset(0, 2)
        self.setGraphicsEffect(shadow)
        self.hide()

    def place(self) -> None:
        """Put the floating banner over the top of its anchor (after a resize or a new text)."""
        host = self.parentWidget()
        if host is None or self._watcher is None:
            return
        if self._anchor is not None:
            rect = self._anchor.geometry()
            if isinstance(self._anchor, QWidget) and self._anchor.parentWidget() is not host:
                rect.moveTopLeft(self._anchor.parentWidget().mapTo(host, rect.topLeft()))
        else:
            rect = host.rect().adjusted(6, 6, -6, -6)
        width = max(100, rect.width())
        hfw = self.heightForWidth(width)
        height = hfw if hfw > 0 else self.sizeHint().height()
        self.setGeometry(rect.left(), self._below_headers(host, rect.top(), height), width, height)
        self.raise_()

    def _below_headers(self, host: QWidget, top: int, height: int) -> int:
        """The first y (host coordinates) at or below ``top`` where a banner ``height`` high
        covers no column header of a table in its anchor (the columns stay named)."""
        bands = []
        for view in host.findChildren(QTableView):
            header = view.horizontalHeader()
            if view.isVisible() and header.isVisible():
                y0 = header.mapTo(host, header.rect().topLeft()).y()
                bands.append((y0, y0 + header.height()))
        for _ in range(len(bands) + 1):
            hit = [b for b in bands if b[0] < top + height and b[1] > top]
            if not hit:
                break
            top = max(b[1] for b in hit) + 1
        return top

    # -- messages --------------------------------------------------------------------------
    def show_message(self, text: str, kind: str = "error", action: str = "") -> None:
        """Show ``text`` — rich text: names in it must be escaped (``html.escape``; or use
        :meth:`show_message_plain`) — styled as ``kind`` (error, warning, info, success),
        with an action button labelled ``action`` when given."""
        self.label.setTextFormat(Qt.RichText)
        style = STYLES.get(kind, STYLES["info"])
        colour = style.split("color:")[-1].split(";")[0]
        # the banner is light in either scheme: its text, links and ✕ in its own dark colour
        self.setStyleSheet(f"Banner {{{style} border-radius:4px;}}"
                           f" QLabel {{border:none; background:transparent; color:{colour};}}"
                           f" QToolButton {{color:{colour};}}")
        pal = self.label.palette()
        pal.setColor(QPalette.Link, QColor(colour))
        self.label.setPalette(pal)
        self.label.setText(text)
        self.button.setText(action)
        self.button.setVisible(bool(action))
        self.show()
        self.place()

    def set_text(self, text: str) -> None:
        """Change the shown message's text only (rich text, as :meth:`show_message`): no
        restyling, no new place — cheap enough for a progress count."""
        self.label.setText(text)

    def show_message_plain(self, text: str, kind: str = "error", action: str = "") -> None:
        """:meth:`show_message` for plain text (a file or player name is shown literally)."""
        self.show_message(html.escape(text, quote=False), kind, action)

    def clear(self) -> None:
        self.hide()
        self.label.clear()

    def text(self) -> str:
        return self.label.text() if self.isVisible() else ""

    def message(self) -> str:
        """The message set last (also while the tab holding the banner is hidden)."""
        return self.label.text() if not self.isHidden() else ""


class _Watcher(QObject):
    """Re-places a floating banner when its host or anchor is resized or moved."""

    def __init__(self, banner: Banner):
        super().__init__(banner)
        self._banner = banner

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 (Qt's method name)
        if event.type() in (QEvent.Resize, QEvent.Move, QEvent.LayoutRequest, QEvent.Show) \
                and self._banner.isVisible():
            # after the layout has moved its items (it sees the event after this filter)
            QTimer.singleShot(0, self._banner, self._banner.place)   # dropped if the banner goes
        return False
