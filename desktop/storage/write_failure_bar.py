"""A persistent bar at the top of the window when the recovery file cannot be written.

Autosave (:class:`desktop.storage.document.Autosave`) writes every open game to a recovery file after
every change; when that write fails (a full disk, a read-only data folder, text that is not
valid Unicode) the games are still in memory, but a crash would lose them. The player must
know at once, so this bar appears above the tabs with the reason and two ways out: *Retry*
(write again, e.g. after freeing disk space) and *Save as…* (save the current game somewhere
else). It stays until a write succeeds. When the data folder itself cannot be written and
recovery files go to a temporary folder instead (:func:`desktop.storage.paths.data_location`), the
bar says so once, as a notice the player may hide; the same when the folder stops taking writes
later and the recovery file moves there (:meth:`desktop.storage.recovery.InstanceAutosave.relocate`).
"""
from __future__ import annotations

import html

from PySide6.QtCore import Qt, Slot
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QToolBar, QToolButton

from desktop.widgets.banner import STYLES
from engines.core.i18n import _


class WriteFailureBar(QToolBar):
    """The bar (a fixed tool bar of ``window``, hidden while autosave works).

    Args:
        window: the main window; its ``save_as()`` is what *Save as…* calls.
        autosave: the :class:`desktop.storage.document.Autosave` whose ``writeFailed(str)`` shows the bar
            and ``writeRecovered()`` hides it.
        notice: a message about where recovery files go (None: nothing to say).

    Attributes:
        label: the message (plain text of the reason, shown literally).
        retry_button, save_as_button, hide_button: the actions (hide only for a notice).
        kind: ``"error"`` (autosave failed), ``"warning"`` (notice) or ``""`` (hidden).
    """

    def __init__(self, window, autosave, notice: str | None = None):
        super().__init__(_("Autosave"), window)
        self.setObjectName("writeFailureBar")
        self.setMovable(False)
        self.setFloatable(False)
        self.toggleViewAction().setVisible(False)   # not one of the window's optional bars
        self._window = window
        self._autosave = autosave
        self.frame = QFrame()
        lay = QHBoxLayout(self.frame)
        lay.setContentsMargins(8, 4, 4, 4)
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.label.setTextFormat(Qt.RichText)
        self.label.setTextInteractionFlags(Qt.TextSelectableByMouse)
        lay.addWidget(self.label, 1)
        self.retry_button = QPushButton(_("Retry"))
        self.retry_button.setToolTip(_("Write the recovery file again"))
        self.retry_button.clicked.connect(self.retry)
        lay.addWidget(self.retry_button)
        self.save_as_button = QPushButton(_("Save as…"))
        self.save_as_button.setToolTip(_("Save this game to a file of your choice"))
        self.save_as_button.clicked.connect(self._save_as)
        lay.addWidget(self.save_as_button)
        self.hide_button = QToolButton()
        self.hide_button.setText("✕")
        self.hide_button.setAccessibleName(_("Hide this message"))   # not "multiplication x"
        self.hide_button.setAutoRaise(True)
        self.hide_button.setToolTip(_("Hide this message"))
        self.hide_button.clicked.connect(self._hide_notice)
        lay.addWidget(self.hide_button)
        self.addWidget(self.frame)
        self.kind = ""
        window.addToolBar(Qt.TopToolBarArea, self)
        autosave.writeFailed.connect(self.show_failure)
        autosave.writeRecovered.connect(self._recovered)
        moved = getattr(autosave, "writeMoved", None)
        if moved is not None:
            moved.connect(self.show_moved)
        self._notice = notice
        if autosave.failure:
            self.show_failure(autosave.failure)
        elif notice:
            self._show("warning", notice, retry=False)
        else:
            self.hide()

    def _show(self, kind: str, text: str, *, retry: bool) -> None:
        self.kind = kind
        self.frame.setStyleSheet(f"QFrame {{{STYLES[kind]} border-radius:4px;}} "
                                 f"QLabel {{border:none; background:transparent;}}")
        self.label.setText("<p style='white-space:pre-wrap'>" + html.escape(text, quote=False)
                           + "</p>")
        self.retry_button.setVisible(retry)
        self.save_as_button.setVisible(retry)
        self.hide_button.setVisible(not retry)
        self.show()

    @Slot(str)
    def show_failure(self, reason: str) -> None:
        """Show that autosave failed, with ``reason``; stays until a write succeeds."""
        self._show("error", _("Autosave failed: the unsaved games are only in memory and a "
                              "crash would lose them.") + " " + reason, retry=True)

    def text(self) -> str:
        """The message shown, as plain text ("" when hidden)."""
        if self.isHidden():
            return ""
        return html.unescape(self.label.text().removeprefix(
            "<p style='white-space:pre-wrap'>").removesuffix("</p>"))

    @Slot()
    def retry(self) -> None:
        """Write the recovery file again (the bar hides when that works)."""
        self._autosave.write()

    @Slot()
    def _save_as(self) -> None:
        self._window.save_as()

    @Slot(str)
    def show_moved(self, notice: str) -> None:
        """Say that the recovery file moved to another folder (``notice`` names both); a
        notice the player may hide, the games being safe again."""
        self._show("warning", notice, retry=False)

    @Slot()
    def _recovered(self) -> None:
        moved = getattr(self._autosave, "moved", None)
        if moved:
            self.show_moved(moved)
            return
        self.kind = ""
        self.hide()

    @Slot()
    def _hide_notice(self) -> None:
        self.kind = ""
        self.hide()
