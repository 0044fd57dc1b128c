"""Cluedo at the table: the suggester moves on after any logged suggestion (typed or from the
form), the card shown offers only cards the refuter can hold, and when I refute I can record
the card I showed (History says it)."""
from PySide6.QtCore import Qt
from window_idle import wait_idle

from engines import cluedo

UK = {"edition": "cluedo-uk", "players": ["Me", "Ann", "Bob", "Cy"], "me": "Me"}
MY_HAND = ["Miss Scarlett", "Rope", "Hall", "Kitchen", "Professor Plum"]


def _wait(window):
    assert wait_idle(window, 60)


def _cluedo(window, events=()):
    window.select_game("cluedo")
    tab = window.tab_for("cluedo")
    setup = cluedo.Setup.from_json(UK, "$")
    hand = cluedo.event_from_json({"type": "hand", "player": "Me", "cards": MY_HAND}, setup, "$")
    tab.reset_document(setup, [hand, *events])
    _wait(window)
    return tab, setup


def test_a_typed_suggestion_moves_the_suggester_on(window, qtbot):
    tab, _setup = _cluedo(window)
    tab.form.set_suggester("Me")
    qe = tab.quick_entry
    qe.focus()
    qtbot.keyClicks(qe.line, "Ann: white dagger lounge; bob")
    qe.completer.popup().hide()
    qtbot.keyClick(qe.line, Qt.Key_Return)
    _wait(window)
    assert len(tab.controller.document.events) == 2 and tab.controller.document.events[-1].suggester == "Ann"
    assert tab.form.suggester.currentText() == "Bob"      # the player after Ann
    # and after a suggestion logged from the form
    for card in ("Colonel Mustard", "Dagger", "Lounge"):
        tab.form.set_card(card)
    tab.form.refuter.setCurrentText("Cy")
    tab.form.submit()
    _wait(window)
    assert tab.controller.document.events[-1].suggester == "Bob"
    assert tab.form.suggester.currentText() == "Cy"


def _shown_items(form):
    return [form.shown.itemText(i) for i in range(form.shown.count())]


def test_card_shown_offers_only_cards_the_refuter_can_hold(window):
    bob_has_lounge = cluedo.ShownEvent(player="Bob", card="Lounge")
    tab, _setup = _cluedo(window, [bob_has_lounge])
    form = tab.form
    form.set_suggester("Me")
    for card in ("Professor Plum", "Dagger", "Lounge"):
        form.set_card(card)
    form.refuter.setCurrentText("Ann")
    # Plum is mine, Lounge is Bob's: Ann can only have shown the Dagger
    assert form.shown.isEnabled()
    assert _shown_items(form) == ["(not shown to me)", "Dagger"]
    form.refuter.setCurrentText("Bob")
    assert _shown_items(form) == ["(not shown to me)", "Dagger", "Lounge"]


def test_when_i_refute_i_can_record_the_card_i_showed(window):
    tab, setup = _cluedo(window)
    form = tab.form
    form.set_suggester("Ann")
    for card in ("Miss Scarlett", "Dagger", "Hall"):
        form.set_card(card)
    form.refuter.setCurrentText("Me")
    assert form.shown.isEnabled() and "showed" in form.shown_label.text()
    # my cards among the three only; not recording stays possible (the first item)
    assert _shown_items(form) == ["(not recorded)", "Miss Scarlett", "Hall"]
    assert form.event_json()["shown"] is None
    form.set_shown("Hall")                                  # one click
    form.submit()
    _wait(window)
    ev = tab.controller.document.events[-1]
    assert ev.refuter == "Me" and ev.shown == "Hall"
    text = tab.history.entry_text(tab.history.entry_count() - 1)
    assert "I showed Ann Hall" in text
    assert cluedo.describe_event(setup, ev).endswith("I showed Ann Hall")
