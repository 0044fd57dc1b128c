"""Inline banner for errors and notices inside a tab (hidden when there is nothing to say).

The banner is an info bar in the tab's layout, between the quick entry and the panes, as GTK's
``GtkInfoBar`` and KDE's ``KMessageWidget`` are: shown, it pushes the panes down by its height
and covers nothing. (It used to float over the top of the panes so that the worksheet never
moved; at 1280×800 it then hid the worksheet's first rows, the suggestion form's pickers and
the History title while it was up, which is when they are needed to mend the log.) It can be
dismissed (✕) without acting.
"""
from __future__ import annotations

import html

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QToolButton

from engines.core.i18n import _

# text colours are explicit, so each style reads the same on a light or a dark palette
STYLES = {
    "error": "background:#ffebee; border:1px solid #e57373; color:#b71c1c;",
    "warning": "background:#fff8e1; border:1px solid #ffb300; color:#6d4c00;",
    "info": "background:#e3f2fd; border:1px solid #64b5f6; color:#0d47a1;",
    "success": "background:#e8f5e9; border:1px solid #66bb6a; color:#1b5e20;",
}


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
        self.close_button.setAccessibleName(_("Hide this message"))   # not "multiplication x"
        self.close_button.setAutoRaise(True)
        self.close_button.setToolTip(_("Hide this message"))
        self.close_button.clicked.connect(self.hide)
        layout.addWidget(self.close_button)
        self.hide()

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
