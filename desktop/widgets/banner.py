"""Inline banner for errors and notices inside a tab (hidden when there is nothing to say)."""
from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton

STYLES = {
    "error": "background:#ffebee; border:1px solid #e57373; color:#b71c1c;",
    "warning": "background:#fff8e1; border:1px solid #ffb300; color:#6d4c00;",
    "info": "background:#e3f2fd; border:1px solid #64b5f6; color:#0d47a1;",
    "success": "background:#e8f5e9; border:1px solid #66bb6a; color:#1b5e20;",
}


class Banner(QFrame):
    """A one-line coloured message with an optional action button.

    Signals:
        actionClicked(): the button was pressed.
        linkActivated(str href): a link in the message was clicked (e.g. ``"entry:3"``).
    """

    actionClicked = Signal()
    linkActivated = Signal(str)

    def __init__(self, parent=None):
        super().__init__(parent)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 4, 8, 4)
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.label.linkActivated.connect(self.linkActivated)
        layout.addWidget(self.label, 1)
        self.button = QPushButton()
        self.button.clicked.connect(self.actionClicked)
        layout.addWidget(self.button)
        self.hide()

    def show_message(self, text: str, kind: str = "error", action: str = "") -> None:
        self.setStyleSheet(f"Banner {{{STYLES.get(kind, STYLES['info'])} border-radius:4px;}}"
                           f" QLabel {{border:none; background:transparent;}}")
        self.label.setText(text)
        self.button.setText(action)
        self.button.setVisible(bool(action))
        self.show()

    def clear(self) -> None:
        self.hide()
        self.label.clear()

    def text(self) -> str:
        return self.label.text() if self.isVisible() else ""

    def message(self) -> str:
        """The message set last (also while the tab holding the banner is hidden)."""
        return self.label.text() if not self.isHidden() else ""
