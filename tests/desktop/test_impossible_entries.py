"""Never offered the impossible: the Cluedo worksheet menu shows an entry that contradicts the
log disabled with the reason (and a deliberate "anyway" path that ends in the contradiction
banner with Undo); Egghead's answer list holds exactly the engine's possible answers, a forced
answer pre-selected; the forms refuse a contradicting entry with the reason."""
from PySide6.QtCore import Qt
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtWidgets import QApplication
from window_idle import wait_idle

from engines import cluedo, egghead


def _wait(window):
    assert wait_idle(window, 60)


def _menu_texts(monkeypatch, tab, item, column, choose=None):
    """Open the worksheet menu on (item, column); return [(text, enabled)] and choose the action
    whose text starts with ``choose`` (if given)."""
    seen = []

    def fake_exec(menu, *args, **kwargs):
        seen.extend((a.text(), a.isEnabled()) for a in menu.actions())
        for a in menu.actions():
            if choose and a.text().startswith(choose):
                return a
        return None

    monkeypatch.setattr(tab, "exec_menu", fake_exec)
    row = tab.model.row_of_item(item)
    rect = tab.sheet.visualRect(tab.model.index(row, column))
    ev = QContextMenuEvent(QContextMenuEvent.Mouse, rect.center(),
                           tab.sheet.viewport().mapToGlobal(rect.center()))
    QApplication.sendEvent(tab.sheet.viewport(), ev)
    return seen


def _cluedo(window):
    window.select_game("cluedo")
    tab = window.tab_for("cluedo")
    setup = cluedo.Setup.from_json({"edition": "cluedo-uk", "players": ["Me", "Alice", "Bob"],
                                    "me": "Me"}, "$.setup")
    hand = cluedo.parse(setup, [], "me hand: scarlett, rope, hall, kitchen, plum, dagger")
    tab.reset_document(setup, [hand])
    _wait(window)
    return tab, setup


def test_cluedo_menu_disables_a_card_i_hold_with_the_reason(window, monkeypatch):
    tab, setup = _cluedo(window)
    item = setup.cards.index("Miss Scarlett")
    alice = list(setup.players).index("Alice")
    entries = _menu_texts(monkeypatch, tab, item, alice)
    assert ("Alice has Miss Scarlett — you hold it", False) in entries
    assert ("Alice does not have Miss Scarlett", True) in entries
    # the same cell for a card nobody is known to hold: both offered
    free = setup.cards.index("Colonel Mustard")
    entries = _menu_texts(monkeypatch, tab, free, alice)
    assert ("Alice has Colonel Mustard", True) in entries
    assert all("—" not in t for t, _ in entries)


def test_cluedo_menu_on_my_column_reads_naturally(window, monkeypatch):
    tab, setup = _cluedo(window)
    me = list(setup.players).index("Me")
    entries = _menu_texts(monkeypatch, tab, setup.cards.index("Rope"), me)
    assert ("I do not have Rope — you hold it", False) in entries
    assert ("I have Rope", True) in entries


def test_cluedo_log_anyway_ends_in_the_banner_with_undo(window, monkeypatch):
    tab, setup = _cluedo(window)
    item = setup.cards.index("Miss Scarlett")
    alice = list(setup.players).index("Alice")
    _menu_texts(monkeypatch, tab, item, alice, choose="    Log “Alice has Miss Scarlett” anyway")
    _wait(window)
    assert len(tab.controller.document.events) == 2
    assert tab.banner.isVisible()
    assert "Impossible log" in tab.banner.label.text()
    assert tab.banner.button.text() == "Undo"
    tab.banner.button.click()
    _wait(window)
    assert len(tab.controller.document.events) == 1


def _answers(form):
    return [form.answer.itemData(i) for i in range(form.answer.count())]


def test_egghead_answer_list_is_the_possible_answers(window, qtbot):
    window.select_game("egghead")
    tab = window.tab_for("egghead")
    setup = egghead.default_setup()          # I see 4 5 6 and 3 3 3
    tab.reset_document(setup, [])
    _wait(window)
    form = tab.question_form
    assert form.set_question("sum")
    qtbot.waitUntil(lambda: _answers(form) == egghead.possible_answers(setup, [], "sum"),
                    timeout=20000)
    assert min(_answers(form)) == 27         # 15 + 9 + at least 3: never 9…26
    # after "sum = 30" the sum is forced: one answer, selected
    tab.log_json({"type": "answer", "question": "sum", "answer": 30, "moderator": None})
    _wait(window)
    assert form.set_question("sum")
    qtbot.waitUntil(lambda: _answers(form) == [30], timeout=20000)
    assert form.answer.currentData() == 30
    assert "Forced" in form.hint.text()
    # every other question: exactly the engine's list given the log
    events = list(tab.controller.document.events)
    for qid in ("count-6", "highest-stack"):
        if form.set_question(qid):
            qtbot.waitUntil(lambda: _answers(form) == egghead.possible_answers(setup, events, qid),
                            timeout=20000)


def test_cluedo_form_refuses_a_contradicting_suggestion(window, qtbot, monkeypatch):
    tab, setup = _cluedo(window)
    warned = []
    monkeypatch.setattr(tab, "warn", lambda title, text: warned.append(text))
    form = tab.form
    form.set_suggester("Me")
    for card in ("Colonel Mustard", "Rope", "Lounge"):
        form.set_card(card)
    form.refuter.setCurrentText("Alice")
    # Alice cannot have shown me Rope (I hold it): the form does not offer it
    assert "Rope" not in [form.shown.itemText(i) for i in range(form.shown.count())]
    form.set_suggester("Alice")
    for card in ("Miss Scarlett", "Rope", "Hall"):    # all three are mine
        form.set_card(card)
    form.refuter.setCurrentText("Bob")                # Bob cannot hold any of them
    form.submit()
    _wait(window)
    assert len(tab.controller.document.events) == 1              # only my hand: refused
    assert warned and "contradicts the log" in warned[0]
    assert form.suggester.currentText() == "Alice"   # nothing logged: the suggester stays


def test_ctrl_l_works_after_switching_tabs_with_the_mouse(window, qtbot):
    window.select_game("inkognito")
    tab = window.tab_for("inkognito")
    window.activateWindow()
    window.tabs.tabBar().setFocus()
    qtbot.keyClick(window.tabs.tabBar(), Qt.Key_L, Qt.ControlModifier)
    assert QApplication.focusWidget() is tab.quick_entry.line
