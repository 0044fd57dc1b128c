"""Why? end to end: right-click a decided cell of each game's tab → the popup shows the engine's
own explanation (status, entries, steps), the same entries are highlighted in History and a
click selects them there; an undecided cell says so; the contradiction banner names the
irreducible conflicting set the engine finds, as links that select the entries."""
import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtWidgets import QApplication
from window_idle import wait_idle

from desktop.widgets.history import ConflictRole, ExplainedRole
from engines import cluedo, egghead, guesswho, inkognito
from engines.core.resources import resource_path
from engines.core.schema import read_session_file


def _wait(window):
    assert wait_idle(window, 60)


def _load(window, game, setup=None, events=None):
    window.select_game(game)
    tab = window.tab_for(game)
    if setup is None:
        data = read_session_file(str(resource_path("examples", f"{game}.json")))
        setup, events = data.setup, data.events
    tab.reset_document(setup, list(events))
    _wait(window)
    return tab


def _choose_why(monkeypatch, tab, text="Why"):
    """Intercept the context menu's exec: choose the action containing ``text``; record the
    menu's action texts."""
    seen = {}

    def fake_exec(menu, *args, **kwargs):
        seen["actions"] = [a.text() for a in menu.actions()]
        for act in menu.actions():
            if text in act.text():
                seen["chosen"] = act.text()
                return act
        return None

    monkeypatch.setattr(tab, "exec_menu", fake_exec)
    return seen


def _context_click(widget, pos: QPoint):
    ev = QContextMenuEvent(QContextMenuEvent.Mouse, pos, widget.mapToGlobal(pos))
    QApplication.sendEvent(widget, ev)


def _click_cell(view, model, item, column):
    rect = view.visualRect(model.index(model.row_of_item(item), column))
    _context_click(view.viewport(), rect.center())


def _check_popup(window, tab, qtbot, expected):
    """The popup shows ``expected`` (the engine's Explanation); History highlights the same
    entries; clicking each listed entry selects it in History; closing clears the highlight."""
    _wait(window)
    popup = tab.why_popup()
    assert popup is not None and popup.isVisible()
    assert not popup.is_working()
    assert popup.status == expected.status
    assert popup.entry_indices() == list(expected.because)
    text = popup.steps_text()
    for step in expected.steps:
        assert step in text
    assert tab.history.explained_entries() == list(expected.because)
    model = tab.history.model
    for row in range(1, model.rowCount()):
        assert model.data(model.index(row), ExplainedRole) == (row - 1 in expected.because)
    for r, i in enumerate(expected.because):
        item = popup.entries.item(r)
        assert item.text().startswith(f"#{i + 1}")
        rect = popup.entries.visualItemRect(item)
        qtbot.mouseClick(popup.entries.viewport(), Qt.LeftButton, pos=rect.center())
        assert tab.history.current_entry() == i + 1
    _wait(window)
    popup.close()
    assert tab.history.explained_entries() == []
    tab.history.select_live()
    _wait(window)


def test_cluedo_worksheet_why(window, qtbot, monkeypatch):
    tab = _load(window, "cluedo")
    doc = tab.controller.document
    setup = doc.setup
    card, owner = "Miss Scarlett", "Bob"        # ✓ from a refutation and two passes
    expected = cluedo.explain(setup, doc.events, {"card": card, "place": owner})
    assert expected.status == "certain" and len(expected.because) == 2
    seen = _choose_why(monkeypatch, tab)
    item, column = setup.cards.index(card), setup.owners.index(owner)
    assert tab.model.data(tab.model.index(tab.model.row_of_item(item), column)) == "✓"
    _click_cell(tab.sheet, tab.model, item, column)
    assert seen["chosen"] == "Why?"
    # the contradicting entry is offered disabled with its reason (quick entry's fact_reason)
    assert seen["actions"][0] == f"{owner} has {card}"
    assert seen["actions"][1] == f"{owner} does not have {card} — {owner} holds it"
    _check_popup(window, tab, qtbot, expected)
    assert "✓ Certain" in tab.why_popup().heading.text()
    # the envelope column: a ✗ explained by the same chain
    expected = cluedo.explain(setup, doc.events, {"card": card, "place": "envelope"})
    assert expected.status == "impossible"
    _click_cell(tab.sheet, tab.model, item, len(setup.players))
    _check_popup(window, tab, qtbot, expected)


def test_cluedo_undecided_cell_says_so(window, qtbot, monkeypatch):
    tab = _load(window, "cluedo")
    setup, events = tab.controller.document.setup, tab.controller.document.events
    m = tab.model.matrix()
    item, column = next((i, j) for i in range(m.shape[0]) for j in range(m.shape[1])
                        if 0.01 < m[i, j] < 0.99)
    fact = {"card": setup.cards[item], "place": setup.owners[column]}
    assert cluedo.explain(setup, events, fact).status == "uncertain"
    seen = _choose_why(monkeypatch, tab)
    _click_cell(tab.sheet, tab.model, item, column)
    assert seen["chosen"] == "Why? (not decided yet)"
    _wait(window)
    popup = tab.why_popup()
    assert popup.status == "uncertain"
    assert popup.entry_indices() == [] and tab.history.explained_entries() == []
    assert "Not decided" in popup.heading.text()
    assert "open" in popup.message.text()
    assert not popup.entries.isVisibleTo(popup)
    popup.close()


def test_cluedo_why_follows_the_log_and_the_browsed_entry(window, qtbot, monkeypatch):
    """A popup left open is explained again when the log changes; an earlier history entry
    is explained under the entries before it."""
    setup = cluedo.Setup.from_json({"edition": "cluedo-uk", "players": ["Me", "Ann", "Bob"],
                                    "me": "Me"}, "$.setup")
    rope = setup.cards.index("Rope")
    tab = _load(window, "cluedo", setup, [])
    tab.log_json({"type": "lacks", "player": "Ann", "card": "Rope"})
    _wait(window)
    _choose_why(monkeypatch, tab)
    _click_cell(tab.sheet, tab.model, rope, 1)
    _wait(window)
    popup = tab.why_popup()
    assert popup.status == "impossible" and popup.entry_indices() == [0]
    tab.log_json({"type": "shown", "player": "Bob", "card": "Mrs White"})
    tab.log_json({"type": "lacks", "player": "Bob", "card": "Rope"})
    _wait(window)
    # the popup (Ann lacks Rope) still names entry 0 under the longer log
    assert popup.isVisible() and popup.entry_indices() == [0]
    assert tab.history.explained_entries() == [0]
    # browse back to "after entry 1": Bob's cell is open there, decided now
    tab.history.select_entry(1)
    _wait(window)
    _click_cell(tab.sheet, tab.model, rope, 2)
    _wait(window)
    assert popup.status == "uncertain" and "entry 1 of 3" in popup.scope.text()
    tab.history.select_live()
    _wait(window)
    _click_cell(tab.sheet, tab.model, rope, 2)
    _wait(window)
    assert popup.status == "impossible" and popup.entry_indices() == [2]
    popup.close()


def test_inkognito_heat_map_why(window, qtbot, monkeypatch):
    tab = _load(window, "inkognito")
    doc = tab.controller.document
    setup = doc.setup
    opp, name = "Blue", "Lord Fiddlebottom"
    expected = inkognito.explain(setup, doc.events, {"opponent": opp, "identity": name})
    assert expected.status == "impossible" and expected.because
    card = tab.cards[opp]
    seen = _choose_why(monkeypatch, tab)
    # the identity's "any" column: the identity fact alone
    _click_cell(card.view, card.model, setup.identities.index(name), len(setup.builds))
    assert seen["actions"] == [f"Why is {opp} not {name}?"]
    _check_popup(window, tab, qtbot, expected)
    # a joint cell offers the identity and the build
    _click_cell(card.view, card.model, setup.identities.index(name), 0)
    assert len(seen["actions"]) == 2 and setup.builds[0] in seen["actions"][1]
    _wait(window)
    tab.why_popup().close()


def test_egghead_position_grid_and_ruled_out_stack_why(window, qtbot, monkeypatch):
    tab = _load(window, "egghead")
    doc = tab.controller.document
    expected = egghead.explain(doc.setup, doc.events, {"position": 1, "value": 1})
    assert expected.status == "certain"
    _choose_why(monkeypatch, tab)
    _click_cell(tab.position_view, tab.position_model, 0, 0)
    _check_popup(window, tab, qtbot, expected)
    # a grey row: a stack the answers allow and the reactions rule out (seed example 3.1)
    grey = next(r for r in range(tab.valids.row_count()) if not tab.valids.row_object(r).valid)
    stack = [int(x) for x in tab.valids.text(grey, 0).split()]
    assert tab.valids.text(grey, 1) == "ruled out by reactions"
    expected = egghead.explain(doc.setup, doc.events, {"stack": stack})
    assert expected.status == "impossible"
    assert any("could not have known" in s for s in expected.steps)
    rect = tab.valids.visualRect(tab.valids.model().index(grey, 0))
    _context_click(tab.valids.viewport(), rect.center())
    _check_popup(window, tab, qtbot, expected)


def test_guesswho_knocked_down_card_why(window, qtbot, monkeypatch):
    tab = _load(window, "guesswho")
    doc = tab.controller.document
    expected = guesswho.explain(doc.setup, doc.events, {"name": "Anita"})
    assert expected.status == "impossible" and expected.because == (0,)
    seen = _choose_why(monkeypatch, tab)
    card = tab.board_view.card("Anita")
    assert card.down
    _context_click(card, card.rect().center())
    assert seen["chosen"] == "Why is Anita down?"
    assert len(doc.events) == len(read_session_file(
        str(resource_path("examples", "guesswho.json"))).events)   # nothing was logged
    _check_popup(window, tab, qtbot, expected)


def test_why_cancel_shows_cancelled(window, qtbot, monkeypatch):
    tab = _load(window, "guesswho")
    _choose_why(monkeypatch, tab)
    card = tab.board_view.card("Anita")
    monkeypatch.setattr(tab.controller, "explain", lambda fact: None)   # never answers
    _context_click(card, card.rect().center())
    popup = tab.why_popup()
    assert popup.is_working()
    popup.cancel_button.click()
    assert not popup.is_working() and "Cancelled" in popup.message.text()
    popup.close()


def _banner_links(tab):
    import re
    return [int(x) for x in re.findall(r"href='entry:(\d+)'", tab.banner.message())]


@pytest.mark.parametrize("game", ["cluedo", "guesswho", "inkognito"])
def test_banner_names_the_conflicting_entries(window, qtbot, game):
    if game == "cluedo":
        setup = cluedo.Setup.from_json({"edition": "cluedo-uk", "players": ["Me", "Ann", "Bob"],
                                        "me": "Me"}, "$.setup")
        objs = [{"type": "shown", "player": "Ann", "card": "Rope"},
                {"type": "lacks", "player": "Bob", "card": "Dagger"},
                {"type": "shown", "player": "Bob", "card": "Hall"},
                {"type": "shown", "player": "Bob", "card": "Rope"}]
        module = cluedo
    elif game == "guesswho":
        setup = guesswho.default_setup()
        objs = [{"type": "answer", "question": {"attribute": "hat", "value": True}, "answer": True},
                {"type": "opponent", "remaining": 12},
                {"type": "answer", "question": {"attribute": "glasses", "value": True}, "answer": False},
                {"type": "answer", "question": {"attribute": "hat", "value": True}, "answer": False}]
        module = guesswho
    else:
        data = read_session_file(str(resource_path("examples", "inkognito.json")))
        setup = data.setup
        ev = data.events[1].to_json()          # Blue: Madame Zsa Zsa, Colonel Bubble, tall
        objs = [e.to_json() for e in data.events] + [
            {**ev, "cards": ["Lord Fiddlebottom", "Agent X", "short"]}]
        module = inkognito
    events = [module.event_from_json(o, setup, "event") for o in objs]
    expected = module.explain_contradiction(setup, events)
    assert expected is not None and len(expected) >= 2
    tab = _load(window, game, setup, events)
    _wait(window)
    assert tab.history.contradiction_index() == max(expected)
    assert _banner_links(tab)[-len(expected):] == expected   # after the corrections
    assert "cannot all be true together" in tab.banner.message()
    assert "Probably mistyped" in tab.banner.message()
    assert tab.history.conflict_entries() == expected
    model = tab.history.model
    assert [r - 1 for r in range(1, model.rowCount())
            if model.data(model.index(r), ConflictRole)] == expected
    # a click on a link selects the entry in History
    tab.banner.label.linkActivated.emit(f"entry:{expected[0]}")
    assert tab.history.current_entry() == expected[0] + 1
    # removing one of them clears the banner and the marks
    tab.history.select_live()
    tab.remove_event(expected[0])
    _wait(window)
    assert tab.banner.message() == "" and tab.history.conflict_entries() == []


def test_conflict_is_named_before_and_after_undo(window, qtbot):
    """Undo then redo of the impossible entry: the set comes back (from the controller's
    cache) without a new search."""
    setup = cluedo.Setup.from_json({"edition": "cluedo-uk", "players": ["Me", "Ann", "Bob"],
                                    "me": "Me"}, "$.setup")
    tab = _load(window, "cluedo", setup, [])
    tab.log_json({"type": "shown", "player": "Ann", "card": "Rope"})
    tab.log_json({"type": "lacks", "player": "Ann", "card": "Rope"})
    _wait(window)
    assert _banner_links(tab)[-2:] == [0, 1]
    window.undo_action.trigger()
    _wait(window)
    assert tab.banner.message() == ""
    window.redo_action.trigger()
    _wait(window)
    assert _banner_links(tab)[-2:] == [0, 1]
