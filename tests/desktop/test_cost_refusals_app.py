"""The app's Cluedo tasks apply the same cost estimate as the command line: a table whose
recommendation cannot fit the budget (40 cards per category) shows a clear message naming the
field and the estimate in the ranking's note and in the opponents' strip — no traceback, and
the worksheet (exact inference) still works."""
from __future__ import annotations

from window_idle import wait_idle

from engines import cluedo


def test_forty_cards_per_category_are_refused_with_a_message(window):
    setup = cluedo.Setup.from_json(
        {"players": ["Me", "Ann", "Bob"], "me": "Me",
         "categories": {c: [f"{c[0].upper()}{i}" for i in range(40)]
                        for c in ("suspect", "weapon", "room")}}, "$.setup")
    window.select_game("cluedo")
    tab = window.tab_for("cluedo")
    tab.reset_document(setup, [])
    assert wait_idle(window, 120)
    note = tab.rec_note.text()
    assert "No recommendation" in note and "setup.categories" in note and "work units" in note
    assert "Traceback" not in note
    assert "Cannot estimate what the opponents know" in tab.strip.message()
    assert "work units" in tab.strip.message()
    assert "possible deals" in tab.deals_label.text()          # the worksheet is there
