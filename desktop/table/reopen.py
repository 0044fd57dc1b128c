"""Reopen where it was: starting without a file reopens the files open at the last quit.

At quit (the window's close) the paths of the open tabs' session files and the tab shown are
kept in ``QSettings`` (:data:`FILES_KEY`, :data:`TAB_KEY`). Starting without a file
(:func:`reopen_last`) opens each of them again, in their games' tabs, and shows that tab; a
file that is gone or cannot be read is named in the status bar — never an error dialog.
"""
from __future__ import annotations

import logging
import os

from PySide6.QtCore import QObject, QSettings

from desktop.shell.settings import OPEN_FILES, OPEN_TAB
from engines.core.i18n import _

log = logging.getLogger(__name__)

FILES_KEY = OPEN_FILES.key   # declared once in desktop.shell.settings
TAB_KEY = OPEN_TAB.key


def open_files(window) -> list[str]:
    """The session files of ``window``'s tabs (tabs with a file), in tab order."""
    return [tab.controller.document.path for tab in window.game_tabs.values() if tab.controller.document.path]


def remember(window, settings: QSettings) -> None:
    """Keep the open files and the tab shown (called at quit)."""
    settings.setValue(FILES_KEY, open_files(window))
    page = window.tabs.currentWidget()
    if page is not None:
        settings.setValue(TAB_KEY, page.game)


def _stored_files(settings: QSettings) -> list[str]:
    files = settings.value(FILES_KEY)
    if isinstance(files, str):
        files = [files]
    return [f for f in (files or []) if isinstance(f, str) and f]


def reopen_last(window, settings: QSettings) -> tuple[list[str], list[str]]:
    """Open again the files kept by :func:`remember` that are not open yet; returns
    ``(opened, missing)``. Missing or unreadable files are named in the status bar."""
    opened, missing = [], []
    already = set(open_files(window))
    interactive = window.interactive
    for path in _stored_files(settings):
        if path in already:
            continue
        if not os.path.isfile(path):
            missing.append(path)
            continue
        window.interactive = False      # a file that cannot be read: stderr/status, no dialog
        try:
            ok = window.open_path(path, ask=False)
        except Exception:
            log.exception("reopening %s", path)
            ok = False
        finally:
            window.interactive = interactive
        (opened if ok else missing).append(path)
    tab = settings.value(TAB_KEY)
    if isinstance(tab, str) and (opened or tab in window.games()):
        window.select_game(tab)
    if missing:
        names = ", ".join(os.path.basename(p) for p in missing)
        window.statusBar().showMessage(_("Not reopened (gone or unreadable): {names}").format(names=names), 15000)
        log.info("not reopened: %s", missing)
    return opened, missing


class _Remember(QObject):
    """Remembers ``window``'s files when its close is accepted: :meth:`at_quit` is called by
    the window's ``closeEvent`` once the unsaved games are dealt with, so the files that
    *Save all* has just given a name to are among them (an event filter on Close ran before
    the window's own handler, and kept only the files saved before the quit)."""

    def __init__(self, window, settings_factory):
        super().__init__(window)
        self.window, self.settings_factory = window, settings_factory

    def at_quit(self) -> None:
        if self.window.interactive:
            remember(self.window, self.settings_factory())


def install(window, settings_factory) -> None:
    """Remember ``window``'s files when it closes (``settings_factory()`` gives the
    QSettings; the window calls ``window._reopen.at_quit()`` from its ``closeEvent``)."""
    window._reopen = _Remember(window, settings_factory)
