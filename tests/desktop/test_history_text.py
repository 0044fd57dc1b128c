"""History rows: whole text (wrapped, never elided), a time as a person says it, and Cluedo
entries in the first person for me."""
from datetime import datetime

from PySide6.QtCore import Qt
from window_idle import wait_idle

from desktop.widgets.history import _long_time, _short_time
from engines import cluedo


def test_times_read_naturally():
    now = datetime(2026, 11, 23, 20, 0)
    assert _short_time("2026-11-23T14:05:31", now) == "14:05"
    assert _short_time("2026-11-22T21:30:00", now) == "yesterday 21:30"
    assert _short_time("2026-11-16T09:00:00", now) == "Mon 16 Nov 09:00"
    assert _short_time("2025-01-02T09:00:00", now) == "2 Jan 2025 09:00"
    assert _short_time(None, now) == "" and _short_time("not a time", now) == ""
    assert _long_time("2026-11-23T14:05:31") == "logged on Monday 23 November 2026 at 14:05:31"


def test_rows_wrap_whole(window):
    tab = window.tab_for("cluedo")
    view = tab.history._view
    assert view.wordWrap() and view.textElideMode() == Qt.ElideNone


def test_cluedo_speaks_of_me_in_the_first_person(window):
    setup = cluedo.Setup.from_json({"edition": "cluedo-uk", "players": ["Me", "Ann", "Bob"],
                                    "me": "Me"})
    say = lambda line: cluedo.describe_event(setup, cluedo.parse(setup, [], line))
    assert say("me hand: scarlett, rope, hall, kitchen, plum, dagger").startswith("My hand: ")
    assert say("Ann: plum rope hall; me") == "Ann suggested Professor Plum, Rope, Hall; " \
                                             "Bob passed; I showed a card"
    assert say("me: plum rope hall; bob rope").endswith("Bob showed me Rope")
    assert say("me lacks rope") == "I do not have Rope"
    tab = window.tab_for("cluedo")
    tab.reset_document(setup, [cluedo.parse(setup, [], "Ann: plum rope hall; me")])
    assert wait_idle(window, 30)
    assert "I showed a card" in tab.history.entry_text(1)
    assert "Me " not in tab.history.entry_text(1)
