"""The main window's recovery wiring: its locked recovery file (autosave), the hand-off of a
file another instance has open, and the recovery offer at start-up (a mixin of
:class:`desktop.shell.main_window.MainWindow`; the machinery is :mod:`desktop.storage.recovery`).
"""
from __future__ import annotations

import os
import sys
from typing import Optional

from desktop.shell.file_actions import plain_text_html
from desktop.shell.settings import APP_NAME, app_settings
from engines.core.i18n import _


class RecoveryWiring:
    """Autosave and hand-off of :class:`desktop.shell.main_window.MainWindow` (see the module docstring)."""

    _autosave = None
    _handoff = None
    _autosave_enabled = True

    @property
    def autosave(self):
        """This instance's own, locked recovery file (:class:`desktop.storage.recovery.InstanceAutosave`),
        made on first use (the first tab built, or the recovery offer)."""
        if self._autosave is None:
            from desktop.storage.handoff import HandoffServer
            from desktop.storage.recovery import InstanceAutosave

            self._autosave = InstanceAutosave(self)
            self._autosave.enabled = self._autosave_enabled
            if self._autosave_enabled:   # a failed autosave shows at once, above the tabs
                from desktop.storage.paths import data_location
                from desktop.storage.write_failure_bar import WriteFailureBar

                self.write_failure_bar = WriteFailureBar(self, self._autosave,
                                                         data_location()[1])
            # another instance asking for a file this one has open: its tab comes to the front
            # (a file is only ever opened here through this recovery file's locks)
            self._handoff = HandoffServer(self._autosave, self.bring_file_to_front, self)
        return self._autosave

    @property
    def handoff(self):
        """This instance's hand-off server (:class:`desktop.storage.handoff.HandoffServer`), listening
        from the moment the recovery file exists."""
        self.autosave   # noqa: B018 (made with the recovery file)
        return self._handoff

    def hand_off_if_open_elsewhere(self, path: str) -> bool:
        """When another instance has ``path`` open, hand the file to it (its window comes to
        the front with the file's tab, :func:`desktop.storage.handoff.request_handoff`) and say so, or
        refuse the file when that instance does not answer. True when the file is open
        elsewhere (then it must not be opened here)."""
        from desktop.storage.handoff import request_handoff
        from desktop.storage.locks import open_elsewhere_owner

        owner = open_elsewhere_owner(path, self.autosave)
        if owner is None:
            return False
        pid, instance = owner
        if instance and request_handoff(path, instance):
            text = _("This file is open in another {app} window (PID {pid}); it was brought to "
                     "the front.").format(app=APP_NAME, pid=pid)
            self.statusBar().showMessage(text, 8000)
            if self.interactive:
                from PySide6.QtWidgets import QMessageBox

                QMessageBox.information(self, _("Open in another window"), plain_text_html(text))
            else:
                print(text, file=sys.stderr)
            return True
        self._error(_("Cannot open the session"),
                    _("{path} is already open in another {app} window (process {pid}); two windows "
                      "saving one file would overwrite each other's events").format(
                        path=path, app=APP_NAME, pid=pid))
        return True

    def bring_file_to_front(self, path: str) -> bool:
        """Select the tab holding the session file ``path`` and raise and activate this window
        (another instance asked for the file); False when no tab holds it."""
        real = os.path.realpath(path)
        for game, tab in self.game_tabs.items():
            p = tab.controller.document.path
            if p and os.path.realpath(p) == real:
                self.select_game(game)
                if self.isMinimized():
                    self.showNormal()
                self.show()
                self.raise_()
                self.activateWindow()
                self.statusBar().showMessage(
                    _("Another {app} window asked to open {name}: it is open here.").format(
                        app=APP_NAME, name=os.path.basename(path)), 8000)
                return True
        return False

    def offer_recovery(self, ask: bool = True) -> bool:
        """Offer the sessions of windows that closed without saving (their instance is gone);
        True if restored (:func:`desktop.storage.restore.offer_restore`; a game's tab is built when a
        session is restored into it)."""
        from desktop.storage.restore import offer_restore

        return offer_restore(self, ask)

    def start(self, session: Optional[str] = None) -> None:
        """What start-up does once the window is visible: offer the recovery files of windows
        that closed without saving, then open ``session`` (a path) if given."""
        self.offer_recovery()
        if session:
            self.open_path_in_background(session, ask=False)
        else:   # the files open at the last quit (desktop.table.reopen)
            from desktop.table import reopen

            reopen.reopen_last(self, app_settings())


def hand_off_at_start(path: str) -> bool:
    """``deduction-desk FILE`` while another instance has FILE open: that instance brings the
    file's tab to the front and this one ends (True) without opening a window; False when no
    instance holds the file or the holder did not answer (this instance starts and refuses
    the file with a message naming the other process)."""
    from desktop.storage.handoff import request_handoff
    from desktop.storage.locks import open_elsewhere_owner

    owner = open_elsewhere_owner(path)
    if owner is None or not owner[1] or not request_handoff(path, owner[1]):
        return False
    print(_("{path}: this file is open in another {app} window (PID {pid}); it was brought to "
            "the front.").format(path=path, app=APP_NAME, pid=owner[0]), file=sys.stderr)
    return True
