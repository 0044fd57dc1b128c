"""Shared steps of the Fix… and Remove… tests: a game's tab given a contradictory log, waited
until its banner names the probable mistakes, and a click on one of the banner's links."""
import re

from window_idle import wait_idle


def contradiction(window, qtbot, game, setup, events):
    """Select ``game``'s tab, load ``setup`` and the contradictory ``events`` into it, and wait
    until the banner says "Probably mistyped"; returns the tab."""
    window.select_game(game)
    tab = window.tab_for(game)
    tab.reset_document(setup, events)
    assert wait_idle(window, 60)
    qtbot.waitUntil(lambda: "Probably mistyped" in tab.banner.message(), timeout=30000)
    return tab


def click_link(tab, pattern):
    """Activate the banner's first link whose address starts with ``pattern`` (a regex)."""
    href = re.search(rf"href='({pattern}[^']*)'", tab.banner.message()).group(1)
    tab.banner.label.linkActivated.emit(href)
