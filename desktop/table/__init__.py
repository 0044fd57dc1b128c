"""The table companion's window extras, installed on the main window in one call: zoom
(:mod:`desktop.table.zoom`), the privacy screen (:mod:`desktop.table.privacy`), keeping the computer
awake (:mod:`desktop.table.keep_awake`), reopening the last files (:mod:`desktop.table.reopen`). The list
of shortcuts is :mod:`desktop.shell.shortcuts`. Documented for users in the guide's first page
(resources/guide/index.md).
"""
from __future__ import annotations


def install(window) -> None:
    """Install every extra on a :class:`desktop.shell.main_window.MainWindow` (after its menus exist)."""
    from desktop.shell.settings import app_settings
    from desktop.table import keep_awake, privacy, reopen, zoom

    settings = app_settings()
    zoom.install(window, settings)
    privacy.install(window)
    keep_awake.install(window, settings)
    reopen.install(window, app_settings)
