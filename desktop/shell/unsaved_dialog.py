"""One question for every unsaved game when the window closes: Save all / Discard all / Cancel."""
from __future__ import annotations

from typing import Sequence

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QListWidget, QVBoxLayout

from engines.core.i18n import _, ngettext

SAVE_ALL, DISCARD_ALL, CANCEL = "save", "discard", "cancel"


class UnsavedDialog(QDialog):
    """Lists the unsaved games (one line each, e.g. "Cluedo — untitled (12 entries)") and asks
    once what to do with all of them.

    Args:
        entries: the lines to list.

    After ``exec()``, :attr:`choice` is :data:`SAVE_ALL`, :data:`DISCARD_ALL` or :data:`CANCEL`
    (also when the dialog is closed with Escape or the window's close button).
    """

    def __init__(self, entries: Sequence[str], parent=None):
        super().__init__(parent)
        self.setWindowTitle(_("Unsaved games"))
        self.choice = CANCEL
        layout = QVBoxLayout(self)
        n = len(entries)
        head = QLabel("<b>" + ngettext("{n} game has unsaved changes.", "{n} games have unsaved changes.", n)
                      .format(n=n) + "</b> " + _("Save them before quitting?"))
        head.setWordWrap(True)
        layout.addWidget(head)
        self.list = QListWidget()
        self.list.addItems(list(entries))
        self.list.setSelectionMode(QListWidget.NoSelection)
        self.list.setFocusPolicy(self.list.focusPolicy().NoFocus)
        rows = self.list.sizeHintForRow(0) if n else 20
        self.list.setMinimumHeight(min(10, max(n, 2)) * rows + 2 * self.list.frameWidth() + 4)
        layout.addWidget(self.list)
        note = QLabel(_("Games never saved ask for a file name, one after the other."))
        note.setWordWrap(True)
        note.setEnabled(False)
        layout.addWidget(note)
        self.buttons = QDialogButtonBox()
        self.save_button = self.buttons.addButton(QDialogButtonBox.SaveAll)
        self.save_button.setText(_("&Save all"))
        self.discard_button = self.buttons.addButton(QDialogButtonBox.Discard)
        self.discard_button.setText(_("&Discard all"))
        self.cancel_button = self.buttons.addButton(QDialogButtonBox.Cancel)
        self.save_button.setDefault(True)
        self.save_button.clicked.connect(lambda: self._done(SAVE_ALL))
        self.discard_button.clicked.connect(lambda: self._done(DISCARD_ALL))
        self.cancel_button.clicked.connect(lambda: self._done(CANCEL))
        layout.addWidget(self.buttons)
        self.setMinimumWidth(420)

    def _done(self, choice: str) -> None:
        self.choice = choice
        if choice == CANCEL:
            self.reject()
        else:
            self.accept()


def ask_unsaved(parent, entries: Sequence[str]) -> str:
    """Show :class:`UnsavedDialog` (modal) and return the choice."""
    dlg = UnsavedDialog(entries, parent)
    dlg.exec()
    return dlg.choice
