"""The quick-entry line of every tab: a typed line and Enter logs the engine's event (one undo
step), Escape clears, a bad line shows the engine's message and logs nothing, Ctrl+L and /
focus the line, an entry that contradicts the log is refused with the reason (Enter again
logs it anyway)."""
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from window_idle import wait_idle

from engines import cluedo, egghead, guesswho, inkognito, spyfall


def _wait(window):
    assert wait_idle(window, 60)


def _type(qtbot, tab, text):
    qe = tab.quick_entry
    qe.focus()
    qe.line.clear()
    qtbot.keyClicks(qe.line, text)
    qe.completer.popup().hide()   # the completion list would take the Enter
    return qe


def _enter(qtbot, window, qe):
    qtbot.keyClick(qe.line, Qt.Key_Return)
    _wait(window)


UK = {"edition": "cluedo-uk", "players": ["Me", "Ann", "Bob", "Cy"], "me": "Me"}
SPY = {"edition": "spyfall1", "players": ["Ann", "Bob", "Cy", "Dee", "Eve"], "me": "Ann",
       "my_role": {"location": "Beach"}}

# (game, setup JSON or None for the default, typed line, the event it must log)
CASES = [
    ("cluedo", UK, "Ann: plum rope hall; cy",
     {"type": "suggestion", "suggester": "Ann", "cards": ["Professor Plum", "Rope", "Hall"],
      "passed": ["Bob"], "refuter": "Cy"}),
    ("cluedo", UK, "me: plum rope hall; bob rope",
     {"type": "suggestion", "suggester": "Me", "cards": ["Professor Plum", "Rope", "Hall"],
      "passed": ["Ann"], "refuter": "Bob", "shown": "Rope"}),
    ("cluedo", UK, "Bob has rope", {"type": "shown", "player": "Bob", "card": "Rope"}),
    ("cluedo", UK, "Bob lacks rope", {"type": "lacks", "player": "Bob", "card": "Rope"}),
    ("cluedo", UK, "Ann accuses plum rope hall",
     {"type": "accusation", "player": "Ann", "cards": ["Professor Plum", "Rope", "Hall"],
      "correct": False}),
    ("inkognito", None, "red: amb tall fat",
     {"type": "answer", "opponent": "Red", "question": "ambassador", "asked": "build",
      "identities": [], "builds": ["tall", "fat"]}),
    ("egghead", None, "b solves -> 112",
     {"type": "solve", "player": "B", "cards": None, "new_cards": [1, 1, 2]}),
    ("guesswho", None, "opponent 12", {"type": "opponent", "remaining": 12}),
    ("inkognito", None, "red: lord zsa fat",
     {"type": "answer", "opponent": "Red", "question": "player", "asked": "identity",
      "identities": ["Lord Fiddlebottom", "Madame Zsa Zsa"], "builds": ["fat"]}),
    ("egghead", None, "reactions: none", {"type": "reactions", "solved": []}),
    ("egghead", None, "sum = 30",
     {"type": "answer", "question": "sum", "answer": 30, "moderator": None}),
    ("guesswho", None, "glasses? no",
     {"type": "answer", "question": {"attribute": "glasses", "value": True}, "answer": False}),
    ("guesswho", None, "down alex", {"type": "eliminate", "name": "Alex"}),
    ("spyfall", SPY, "bob: beach 1, casino .5",
     {"type": "claim", "player": "Bob", "claim": {"Beach": 1, "Casino": 0.5}}),
]
MODULES = {"cluedo": cluedo, "egghead": egghead, "guesswho": guesswho, "inkognito": inkognito,
           "spyfall": spyfall}


def _tab(window, game, setup_json):
    window.select_game(game)
    tab = window.tab_for(game)
    mod = MODULES[game]
    setup = mod.default_setup() if setup_json is None else mod.Setup.from_json(setup_json, "$")
    tab.reset_document(setup, [])
    _wait(window)
    return tab, setup


@pytest.mark.parametrize("game,setup_json,line,expect", CASES)
def test_typed_line_logs_the_event(window, qtbot, game, setup_json, line, expect):
    tab, setup = _tab(window, game, setup_json)
    qe = _type(qtbot, tab, line)
    want = MODULES[game].event_from_json(expect, setup, "$")
    assert qe.message().startswith("→ ")                  # the live preview, in words
    assert MODULES[game].describe_event(setup, want) in qe.message()
    _enter(qtbot, window, qe)
    assert list(tab.controller.document.events) == [want]
    assert qe.text() == ""                                 # ready for the next line
    assert tab.controller.document.undo_stack.count() == 1            # one undoable command
    tab.controller.document.undo_stack.undo()
    assert list(tab.controller.document.events) == []


@pytest.mark.parametrize("game,line", [("cluedo", "zzqx: zzqx zzqx"), ("inkognito", "zzqx: zzqx"),
                                       ("egghead", "zzqx = 3"), ("guesswho", "zzqx? no"),
                                       ("spyfall", "zzqx: beach")])
def test_bad_line_logs_nothing_and_names_the_word(window, qtbot, game, line):
    tab, _setup = _tab(window, game, UK if game == "cluedo" else SPY if game == "spyfall" else None)
    qe = _type(qtbot, tab, line)
    _enter(qtbot, window, qe)
    assert list(tab.controller.document.events) == []
    assert qe.message().startswith("Not logged:")
    assert "zzqx" in qe.message()                          # names the unknown word
    assert qe.text() == line                               # nothing the player typed is lost


def test_ambiguous_word_names_the_candidates(window, qtbot):
    tab, _setup = _tab(window, "cluedo", UK)
    qe = _type(qtbot, tab, "Bob has rev")
    _enter(qtbot, window, qe)
    assert list(tab.controller.document.events) == []
    assert "Reverend Green" in qe.message() and "Revolver" in qe.message()


def test_escape_clears(window, qtbot):
    tab, _setup = _tab(window, "cluedo", UK)
    qe = _type(qtbot, tab, "Bob has ro")
    qtbot.keyClick(qe.line, Qt.Key_Escape)
    assert qe.text() == ""
    assert qe.message() == ""
    assert list(tab.controller.document.events) == []


def test_ctrl_l_and_slash_focus_the_line(window, qtbot):
    tab, _setup = _tab(window, "cluedo", UK)
    window.activateWindow()
    tab.sheet.setFocus()
    qtbot.keyClick(tab.sheet, Qt.Key_L, Qt.ControlModifier)
    assert QApplication.focusWidget() is tab.quick_entry.line
    tab.sheet.setFocus()
    qtbot.keyClick(tab.sheet, Qt.Key_Slash)
    assert QApplication.focusWidget() is tab.quick_entry.line
    assert tab.quick_entry.text() == ""                   # the / itself is not typed


def test_every_tab_has_the_line(window):
    for game, tab in window.build_all_tabs().items():
        assert tab.quick_entry.parent() is not None, game
        assert tab.quick_entry.isVisibleTo(tab), game


def test_idle_hint_shows_prefixes_of_each_games_own_names(window, qtbot):
    """The hint under an empty line gives prefixes of the game's own words, each one that the
    game reads as the whole word: Cluedo's card names never show on another tab."""
    import re

    from engines.registry import registered_games

    seen = {}
    for game, tab in window.build_all_tabs().items():
        tab.quick_entry.set_idle_prompt("")     # Cluedo asks for my hand there first
        hint = tab.quick_entry.preview.text()
        assert hint.startswith("Names: any unique prefix of any word"), (game, hint)
        m = re.search(r"word \(([^)]*)\)", hint)
        seen[game] = m.group(1).split(", ") if m else []
        for prefix in seen[game]:
            line = next(seg.strip() for seg in registered_games()[game].example.split("·")
                        if re.search(rf"\b{prefix}\w+", seg))
            word = re.search(rf"\b{prefix}\w+", line).group(0)
            assert (tab.quick_entry.parse(line.replace(word, prefix, 1))
                    == tab.quick_entry.parse(line)), (game, prefix)
    assert seen["cluedo"] == ["plu", "rop", "hal"]
    assert all("plu" not in p for g, p in seen.items() if g != "cluedo"), seen
    assert seen["spyfall"][:2] == ["bea", "cas"] and seen["inkognito"][:1] == ["lor"]
    _type(qtbot, window.tab_for("cluedo"), "Ann: pl")
    assert not window.tab_for("cluedo").quick_entry.preview.text().startswith("Names:")


def test_completion_offers_names(window, qtbot):
    tab, _setup = _tab(window, "cluedo", UK)
    qe = _type(qtbot, tab, "Ann: pl")
    assert any("Professor Plum" in s or "Plum" in s for s in qe._model.stringList())


def test_contradicting_line_is_refused_then_logged_anyway(window, qtbot):
    tab, setup = _tab(window, "cluedo", UK)
    hand = cluedo.parse(setup, [], "me hand: scarlett, rope, hall, kitchen, plum")
    tab.log_event(hand)
    _wait(window)
    qe = _type(qtbot, tab, "Ann has scarlett")
    _enter(qtbot, window, qe)
    assert len(tab.controller.document.events) == 1                  # refused
    assert "you hold it" in qe.message()
    _enter(qtbot, window, qe)                              # Enter again: a deliberate correction
    assert len(tab.controller.document.events) == 2
    assert tab.banner.isVisible()                          # the contradiction banner, with Undo
    assert "Impossible" in tab.banner.label.text()


def test_egghead_impossible_answer_refused_with_the_possible_ones(window, qtbot):
    tab, _setup = _tab(window, "egghead", None)
    qe = _type(qtbot, tab, "sum = 14")            # I see 4+5+6 and 3+3+3: 27..42 only
    _enter(qtbot, window, qe)
    assert list(tab.controller.document.events) == []
    assert "27–42" in qe.message()


# -- flow ---------------------------------------------------------------------------------
def test_enter_logs_the_cluedo_form_and_the_suggester_moves_on(window, qtbot):
    tab, setup = _tab(window, "cluedo", UK)
    form = tab.form
    form.set_suggester("Ann")
    form.refuter.setCurrentText("Cy")
    form.pickers["suspect"].setFocus()
    qtbot.keyClick(form.pickers["suspect"], Qt.Key_Return)
    _wait(window)
    assert len(tab.controller.document.events) == 1
    ev = tab.controller.document.events[0]
    assert ev.suggester == "Ann" and ev.refuter == "Cy" and list(ev.passed) == ["Bob"]
    assert form.suggester.currentText() == "Bob"          # the next player suggests next


def test_guesswho_answer_keeps_the_focus_on_the_questions(window, qtbot):
    tab, _setup = _tab(window, "guesswho", None)
    view = tab.question_view
    view.setFocus()
    view.selectRow(0)
    qtbot.waitUntil(lambda: tab.current_question() is not None, timeout=5000)
    tab.no_button.setFocus()
    qtbot.keyClick(tab.no_button, Qt.Key_Space)
    _wait(window)
    assert len(tab.controller.document.events) == 1
    assert QApplication.focusWidget() is view
    assert QApplication.focusWidget() is not tab.opponent


def _typed(window, qtbot, text):
    """A Cluedo tab whose quick entry holds ``text`` typed key by key: (tab, entry, popup)."""
    tab, _setup = _tab(window, "cluedo", UK)
    qe = tab.quick_entry
    qe.focus()
    qtbot.keyClicks(qe.line, text)
    return tab, qe, qe.completer.popup()


def test_down_then_enter_logs_the_completed_line(window, qtbot):
    """↓ puts a completion in the line; Enter logs it at once when it is a complete line."""
    tab, qe, popup = _typed(window, qtbot, "Ann: plum rope hall; c")
    qtbot.waitUntil(popup.isVisible, timeout=3000)
    qtbot.keyClick(popup, Qt.Key_Down)
    assert qe.text() == "Ann: plum rope hall; Cy"
    qtbot.keyClick(popup, Qt.Key_Return)
    _wait(window)
    assert len(tab.controller.document.events) == 1 and tab.controller.document.events[0].refuter == "Cy"
    assert qe.text() == ""


def test_enter_logs_a_complete_line_while_the_completions_are_open(window, qtbot):
    """One Enter logs a complete, valid line even though the completion list is open."""
    tab, qe, popup = _typed(window, qtbot, "Ann: plum rope hall; Bob")
    qe._on_edited(qe.text())            # the list offers what may follow ("Bob rope"…)
    if not popup.isVisible():
        qe._model.setStringList(["Ann: plum rope hall; Bob rope"])
        qe.completer.complete()
    qtbot.waitUntil(popup.isVisible, timeout=3000)
    popup.setCurrentIndex(popup.model().index(0, 0))     # even with a completion highlighted
    qtbot.keyClick(popup, Qt.Key_Return)
    _wait(window)
    assert len(tab.controller.document.events) == 1
    ev = tab.controller.document.events[0]
    assert ev.suggester == "Ann" and ev.refuter == "Bob"
    assert not popup.isVisible()


def test_tab_takes_a_completion_without_logging(window, qtbot):
    tab, qe, popup = _typed(window, qtbot, "Ann: plum rope hall; c")
    qtbot.waitUntil(popup.isVisible, timeout=3000)
    qtbot.keyClick(popup, Qt.Key_Tab)
    _wait(window)
    assert qe.text() == "Ann: plum rope hall; Cy"
    assert list(tab.controller.document.events) == []
    assert qe.message().startswith("→ Ann suggested")
    _enter(qtbot, window, qe)
    assert len(tab.controller.document.events) == 1


def test_enter_on_an_ambiguous_name_says_so_instead_of_taking_the_first_completion(window, qtbot):
    """"Bob has rev" (Reverend Green or Revolver) and Enter: nothing is logged, the list
    closes and the line says which names "rev" could be; ↓ then Enter takes the completion
    the player moved to, a whole line, and logs it."""
    tab, qe, popup = _typed(window, qtbot, "Bob has rev")
    qtbot.waitUntil(popup.isVisible, timeout=3000)
    assert qe._model.stringList() == ["Bob has Reverend", "Bob has Revolver"]
    qtbot.keyClick(popup, Qt.Key_Return)
    _wait(window)
    assert tab.controller.document.events == [] and qe.text() == "Bob has rev" and not popup.isVisible()
    assert qe.message() == "Not logged: ambiguous card 'rev': Reverend Green, Revolver"
    qe._on_edited(qe.text())
    qtbot.waitUntil(popup.isVisible, timeout=3000)
    qtbot.keyClick(popup, Qt.Key_Down)
    qtbot.keyClick(popup, Qt.Key_Return)
    _wait(window)
    assert [(e.player, e.card) for e in tab.controller.document.events] in (
        [("Bob", "Reverend Green")], [("Bob", "Revolver")])
