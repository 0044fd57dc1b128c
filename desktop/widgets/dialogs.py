"""Base class of the New game dialogs: validate on OK, keep the dialog open on bad input."""
from __future__ import annotations

from typing import Any, Optional

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QMessageBox

from desktop.widgets.plain_text import as_rich_plain
from engines.core.errors import SessionFormatError
from engines.core.i18n import _


class NewGameDialogBase(QDialog):
    """A dialog whose OK button calls :meth:`build`; a :class:`SessionFormatError` from it is
    shown ("Check the new game", naming the field) and the dialog stays open; otherwise the
    built value is kept in :attr:`built` and the dialog is accepted. Connect OK to
    :meth:`_accept`.
    """

    built: Any = None

    def start_buttons(self, ok_text: Optional[str] = None) -> QDialogButtonBox:
        """The dialog's OK (labelled ``ok_text``, validating through :meth:`build`) and Cancel
        buttons, connected; the caller adds them to its layout."""
        buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        ok_text = _("Start game") if ok_text is None else ok_text
        if ok_text:
            buttons.button(QDialogButtonBox.Ok).setText(ok_text)
        buttons.accepted.connect(self._accept)
        buttons.rejected.connect(self.reject)
        return buttons

    def build(self) -> Any:  # subclass
        """Validate the form and return what it describes; raise SessionFormatError if wrong."""
        raise NotImplementedError

    def _accept(self) -> None:
        try:
            self.built = self.build()
        except SessionFormatError as exc:
            QMessageBox.warning(self, _("Check the new game"), as_rich_plain(f"{exc.path}: {exc.message}"))
            return
        self.accept()

    def result_setup(self):
        """What :meth:`build` returned when the dialog was accepted (None before)."""
        return self.built
