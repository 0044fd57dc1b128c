"""The table companion's window extras, installed on the main window in one call: zoom
(:mod:`desktop.zoom`), the privacy screen (:mod:`desktop.privacy`), keeping the computer
awake (:mod:`desktop.keep_awake`), reopening the last files (:mod:`desktop.reopen`). The list
of shortcuts is :mod:`desktop.shortcuts`. Documented for users in the guide's first page
(resources/guide/index.md).
"""
from __future__ import annotations


def install(window) -> None:
    """Install every extra on a :class:`desktop.app.MainWindow` (after its menus exist)."""
    from desktop import keep_awake, privacy, reopen, zoom
    from desktop.settings import app_settings

    settings = app_settings()
    zoom.install(window, settings)
    privacy.install(window)
    keep_awake.install(window, settings)
    reopen.install(window, app_settings)
