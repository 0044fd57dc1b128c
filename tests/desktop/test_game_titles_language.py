"""The game tabs' titles in the player's language: Guess Who? is "Wer ist es?" in German and
"Qui est-ce ?" in French on the tab bar, the same words as the guide's page list."""
from __future__ import annotations

import pytest


@pytest.mark.parametrize("lang, title", [("de", "Wer ist es?"), ("fr", "Qui est-ce ?")])
def test_guesswho_tab_title_is_the_guides(qtbot, lang, title):
    from desktop.shell.guide import PAGES
    from desktop.shell.main_window import MainWindow
    from engines.core import i18n

    i18n.set_language(lang)
    try:
        win = MainWindow(autosave=False, interactive=False)
        qtbot.addWidget(win)
        tabs = [win.tabs.tabText(i) for i in range(win.tabs.count())]
        assert title in tabs, tabs
        assert i18n._(dict(PAGES)["guesswho"]) == title       # the guide's page list
        assert "Guess Who?" not in tabs
        win.shutdown()
    finally:
        i18n.set_language("en")
