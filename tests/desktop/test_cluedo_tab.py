"""The Cluedo tab end to end: right-click facts, undo/redo, history removal, save/open,
corrupted files, contradictions — with the background worker's results checked in the models."""
import json

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtWidgets import QApplication, QMessageBox
from window_idle import wait_idle

from engines import cluedo
from engines.core.resources import resource_path


def _tab(window):
    window.select_game("cluedo")
    return window.tab_for("cluedo")


def _wait(window):
    assert wait_idle(window, 60)


def _right_click(qtbot, monkeypatch, tab, item, column, action_prefix):
    """Right-click the worksheet cell (item, column) and choose the menu action starting with
    ``action_prefix`` (the menu's exec is intercepted; everything else is the real code path)."""
    chosen = {}

    def fake_exec(menu, *args, **kwargs):
        for act in menu.actions():
            if act.text().startswith(action_prefix) or action_prefix in act.text():
                chosen["text"] = act.text()
                return act
        return None

    monkeypatch.setattr(tab, "exec_menu", fake_exec)
    row = tab.model.row_of_item(item)
    rect = tab.sheet.visualRect(tab.model.index(row, column))
    ev = QContextMenuEvent(QContextMenuEvent.Mouse, rect.center(), tab.sheet.viewport().mapToGlobal(rect.center()))
    QApplication.sendEvent(tab.sheet.viewport(), ev)
    return chosen.get("text")


def _setup_game(window):
    tab = _tab(window)
    setup = cluedo.Setup.from_json({"edition": "cluedo-uk", "players": ["Me", "Ann", "Bob"],
                                    "me": "Me"}, "$.setup")
    tab.reset_document(setup, [])
    _wait(window)
    return tab, setup


def test_right_click_has_card_reaches_model(window, qtbot, monkeypatch):
    tab, setup = _setup_game(window)
    card = setup.cards[0]
    text = _right_click(qtbot, monkeypatch, tab, 0, 1, "Ann has")
    assert text == f"Ann has {card}"
    _wait(window)
    assert len(tab.controller.document.events) == 1
    m = tab.model.matrix()
    assert m[0, 1] == pytest.approx(1.0)
    assert m[0, 0] == pytest.approx(0.0) and m[0, -1] == pytest.approx(0.0)
    # the shown text marks the certain fact
    assert tab.model.data(tab.model.index(tab.model.row_of_item(0), 1)) == "✓"
    # the model equals the engine's answer, computed independently
    direct = cluedo.infer(setup, tab.controller.document.events)
    np.testing.assert_allclose(m, direct.matrix, atol=1e-12)


def test_undo_redo_and_history_removal(window, qtbot, monkeypatch):
    tab, setup = _setup_game(window)
    before = tab.model.matrix().copy()
    _right_click(qtbot, monkeypatch, tab, 0, 1, "Ann has")
    _wait(window)
    _right_click(qtbot, monkeypatch, tab, 1, 2, "does not have")
    _wait(window)
    assert len(tab.controller.document.events) == 2
    after_two = tab.model.matrix().copy()
    window.undo_action.trigger()
    _wait(window)
    assert len(tab.controller.document.events) == 1
    window.undo_action.trigger()
    _wait(window)
    np.testing.assert_allclose(tab.model.matrix(), before, atol=1e-12)
    window.redo_action.trigger()
    window.redo_action.trigger()
    _wait(window)
    np.testing.assert_allclose(tab.model.matrix(), after_two, atol=1e-12)
    # remove the first entry through the history panel (undoable)
    tab.history.removeRequested.emit(0)
    _wait(window)
    assert [e.to_json()["type"] for e in tab.controller.document.events] == ["lacks"]
    assert tab.model.matrix()[0, 1] < 1
    window.undo_action.trigger()
    _wait(window)
    assert len(tab.controller.document.events) == 2
    np.testing.assert_allclose(tab.model.matrix(), after_two, atol=1e-12)
    # selecting a history entry shows the beliefs as they were after it
    tab.history.select_entry(0)
    np.testing.assert_allclose(tab.model.matrix(), before, atol=1e-12)
    tab.history.select_live()
    np.testing.assert_allclose(tab.model.matrix(), after_two, atol=1e-12)


def test_undo_then_redo_with_the_newest_entry_selected_returns_to_now(window):
    """The newest History entry selected (the beliefs now), Undo, Redo: the tab shows now,
    not "as after entry 1 of 2" (Qt's selection model had moved the selection up one row)."""
    tab = window.tab_for("cluedo")
    for line in ["Ann: plum rope hall; Bob", "Bob has rope"]:
        tab.quick_entry.line.setText(line)
        tab.quick_entry.submit()
        _wait(window)
    assert len(tab.controller.document.events) == 2
    tab.history.select_entry(2)
    _wait(window)
    window.undo_action.trigger()
    _wait(window)
    assert tab.history.current_entry() == -1 and tab.snapshot.scope() == ""
    window.redo_action.trigger()
    _wait(window)
    assert len(tab.controller.document.events) == 2
    assert tab.controller.view_index == -1 and tab.snapshot.scope() == ""


def test_the_moment_shown_has_one_owner_and_follows_its_entry(window, qtbot):
    """The controller owns the selected moment: removing an earlier entry from the History
    keeps the entry shown (one row up), undoing that removal brings it back down, removing the
    entry shown goes back to now, and a new entry always shows now. The History panel only
    reports the player's own choices, never the rows Qt's selection model moves by itself."""
    tab = window.tab_for("cluedo")
    for line in ["Ann: plum rope hall; Bob", "Bob has rope", "Ann has dagger"]:
        tab.quick_entry.line.setText(line)
        tab.quick_entry.submit()
        _wait(window)
    assert len(tab.controller.document.events) == 3
    reported = []
    tab.history.entrySelected.connect(reported.append)
    tab.history.select_entry(3)                  # "Ann has dagger": the log after 3 entries
    _wait(window)
    assert reported == [3] and tab.snapshot.k == 3
    tab.history.removeRequested.emit(0)          # the first entry goes (History's Delete)
    _wait(window)
    assert tab.controller.view_index == 2 and tab.history.current_entry() == 2
    assert tab.snapshot.selected == 2 and tab.snapshot.k == 2   # the same entry, now the last
    window.undo_action.trigger()                 # it comes back: the moment moves down with it
    _wait(window)
    assert tab.controller.view_index == 3 and tab.history.current_entry() == 3
    tab.history.removeRequested.emit(2)          # the entry shown goes: now
    _wait(window)
    assert tab.controller.view_index == -1 and tab.history.current_entry() == -1
    assert tab.snapshot.scope() == ""
    window.undo_action.trigger()
    tab.history.select_entry(1)
    _wait(window)
    assert tab.snapshot.k == 1
    tab.quick_entry.line.setText("Bob has hall")  # a new entry: now
    tab.quick_entry.submit()
    _wait(window)
    assert len(tab.controller.document.events) == 4 and tab.controller.view_index == -1
    assert tab.history.current_entry() == -1
    assert reported == [3, 1]                    # only the two selections made by hand


def test_my_suggestion_refuted_asks_for_the_card_i_was_shown(window):
    """My own suggestion, refuted by Ann, the card shown left at "(not shown to me)": the
    first Log asks for the card and logs nothing; picking it logs the suggestion with it.
    Asked again and pressed again unchanged, it is logged without the card."""
    tab, setup = _setup_game(window)
    form = tab.form
    form.set_suggester("Me")
    for card in ("Professor Plum", "Rope", "Hall"):
        form.set_card(card)
    form.refuter.setCurrentText("Ann")
    assert form.shown.currentIndex() == 0 and form.shown.isEnabled()
    form.submit()
    _wait(window)
    assert tab.controller.document.events == []
    assert "Which card did <b>Ann</b> show you?" in form.advice.text()
    form.set_shown("Rope")
    form.submit()
    _wait(window)
    assert [(e.suggester, e.refuter, e.shown) for e in tab.controller.document.events] == [("Me", "Ann", "Rope")]
    form.set_suggester("Me")
    for card in ("Professor Plum", "Rope", "Hall"):
        form.set_card(card)
    form.refuter.setCurrentText("Ann")
    form.submit()
    _wait(window)
    assert len(tab.controller.document.events) == 1
    form.submit()                                   # again, unchanged: logged without the card
    _wait(window)
    assert [(e.refuter, e.shown) for e in tab.controller.document.events][1:] == [("Ann", None)]


def test_the_form_does_not_tick_as_passed_a_player_known_to_hold_a_named_card(window):
    """Ann is known to hold the Rope: a suggestion of the Rope refuted by Bob (after Ann) does
    not pre-tick Ann as having passed; with cards she is not known to hold, she is ticked."""
    tab, setup = _setup_game(window)
    tab.quick_entry.line.setText("Ann has rope")
    tab.quick_entry.submit()
    _wait(window)
    form = tab.form
    form.set_suggester("Me")
    for card in ("Professor Plum", "Rope", "Hall"):
        form.set_card(card)
    form.refuter.setCurrentText("Bob")
    assert "Ann" in form.known_holders()
    assert not form.passed_checks["Ann"].isChecked() and form.passed_checks["Ann"].isEnabled()
    form.set_card("Dagger")
    assert form.passed_checks["Ann"].isChecked()


def test_save_then_open_reproduces_document(window, qtbot, monkeypatch, tmp_path):
    tab = _tab(window)
    assert window.open_path(str(resource_path("examples", "cluedo.json")), ask=False)
    _wait(window)
    original = tab.controller.document.data().to_json()
    matrix = tab.model.matrix().copy()
    path = tmp_path / "game.json"
    tab.controller.document.save(str(path))
    assert not tab.controller.document.is_modified()
    tab.reset_document(cluedo.default_setup(), [])
    _wait(window)
    assert window.open_path(str(path), ask=False)
    _wait(window)
    assert tab.controller.document.data().to_json() == original
    np.testing.assert_allclose(tab.model.matrix(), matrix, atol=1e-12)
    assert "game.json" in window.windowTitle()
    # CSV export: one row per event plus the setup, with beliefs
    csv_path = tmp_path / "h.csv"
    with qtbot.waitSignal(tab.exportFinished, timeout=30000) as blocker:
        window.write_csv(tab, str(csv_path))
    assert blocker.args == [str(csv_path), ""]
    lines = csv_path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == len(tab.controller.document.events) + 2
    assert "envelope_entropy_bits" in lines[0]


def test_corrupted_file_shows_message_and_changes_nothing(window, qtbot, monkeypatch, tmp_path):
    tab, setup = _setup_game(window)
    _right_click(qtbot, monkeypatch, tab, 0, 1, "Ann has")
    _wait(window)
    before = tab.controller.document.data().to_json()
    messages = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: messages.append(a[2]) or QMessageBox.Ok)
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "deduction-desk.session", "version": 1, "game": "cluedo", "setup": ', encoding="utf-8")
    assert not window.open_path(str(bad))
    assert messages and "bad.json" in messages[-1] and "JSON" in messages[-1]
    wrong = tmp_path / "wrong.json"
    obj = json.loads(resource_path("examples", "cluedo.json").read_text(encoding="utf-8"))
    obj["events"][0]["player"] = "Nobody-here"
    wrong.write_text(json.dumps(obj), encoding="utf-8")
    assert not window.open_path(str(wrong))
    assert "$.events[0]" in messages[-1]
    assert tab.controller.document.data().to_json() == before


def test_contradiction_is_reported_and_undo_recovers(window, qtbot, monkeypatch):
    tab, setup = _setup_game(window)
    _right_click(qtbot, monkeypatch, tab, 0, 1, "Ann has")
    _wait(window)
    good = tab.model.matrix().copy()
    # the same card in two hands: offered only through the deliberate "anyway" path
    assert _right_click(qtbot, monkeypatch, tab, 0, 2, "Bob has").endswith("— Ann holds it")
    _right_click(qtbot, monkeypatch, tab, 0, 2, "Log “Bob has")
    _wait(window)
    assert tab.banner.isVisible() and "Impossible" in tab.banner.text()
    assert tab.history.contradiction_index() == 1
    painted = tab.history.model.data(tab.history.model.index(2), Qt.BackgroundRole)
    assert painted is not None       # row 2 is event 1, painted red
    np.testing.assert_allclose(tab.model.matrix(), good, atol=1e-12)  # beliefs from before it
    window.undo_action.trigger()
    _wait(window)
    assert not tab.banner.isVisible()
    assert tab.history.contradiction_index() is None


def test_suggestion_form_prefills_passers_and_logs(window, qtbot):
    tab, setup = _setup_game(window)
    form = tab.form
    form.set_suggester("Ann")
    form.refuter.setCurrentText("Me")
    # Ann suggested; Bob sits after Ann, then Me: Bob must have passed
    assert form.passed_checks["Bob"].isChecked()
    # I refute: the card I showed may be recorded, not recorded by default
    assert form.shown.isEnabled() and form.event_json()["shown"] is None
    form.set_suggester("Me")
    form.refuter.setCurrentText("Bob")
    assert form.passed_checks["Ann"].isChecked() and form.shown.isEnabled()
    form.shown.setCurrentText(form.cards()[1])
    qtbot.mouseClick(form.log_button, Qt.LeftButton)
    _wait(window)
    ev = tab.controller.document.events[-1].to_json()
    assert ev["type"] == "suggestion" and ev["refuter"] == "Bob" and ev["passed"] == ["Ann"]
    assert ev["shown"] == form.cards()[1]
    col_bob = list(setup.players).index("Bob")
    assert tab.model.matrix()[setup.cards.index(form.cards()[1]), col_bob] == pytest.approx(1.0)


def test_suggestion_form_lists_the_passers_in_the_order_they_were_asked(window, qtbot):
    """Nobody refuted Bob: Cy, Me and Ann passed, in that order (clockwise after Bob), as the
    quick entry and the engine list them — not in the seating order from the first seat."""
    tab = _tab(window)
    setup = cluedo.Setup.from_json({"edition": "cluedo-uk", "players": ["Me", "Ann", "Bob", "Cy"],
                                    "me": "Me"}, "$.setup")
    tab.reset_document(setup, [])
    _wait(window)
    form = tab.form
    form.set_suggester("Bob")
    form.refuter.setCurrentText("nobody")
    assert form.event_json()["passed"] == ["Cy", "Me", "Ann"]
    assert list(cluedo.passers_between(setup, "Bob", None)) == ["Cy", "Me", "Ann"]
    assert [form.refuter.itemText(i) for i in range(form.refuter.count())][:3] == ["Cy", "Me", "Ann"]


def test_suggestion_form_keeps_its_width_when_its_labels_switch(window, qtbot):
    """The shown-card label says "Card I showed (optional)" when I refute and "Card shown to
    me" otherwise; the form asks for the same width either way (a switch would lay out the
    whole window again at an entry), at 100 % and zoomed."""
    from desktop.table.zoom import zoom_of

    tab, _setup = _setup_game(window)
    form = tab.form
    for factor in (1.0, 1.5):
        zoom_of().set_factor(factor)
        QApplication.processEvents()
        widths = set()
        for suggester, refuter in (("Ann", "Me"), ("Me", "Bob"), ("Ann", "Me")):
            form.set_suggester(suggester)
            form.refuter.setCurrentText(refuter)
            QApplication.processEvents()
            widths.add((form.shown_label.minimumSizeHint().width(),
                        form.minimumSizeHint().width()))
        assert form.shown_label.text() == "Card I showed (optional)"
        assert len(widths) == 1, widths
    zoom_of().set_factor(1.0)


def test_steady_label_asks_for_its_widest_text_in_its_font():
    from PySide6.QtGui import QFont, QFontMetrics

    from desktop.widgets.steady_label import SteadyLabel

    label = SteadyLabel(("short", "a much longer alternative"))
    hint = label.sizeHint().width()
    label.setText("a much longer alternative")
    assert label.sizeHint().width() == hint
    assert hint >= QFontMetrics(label.font()).horizontalAdvance("a much longer alternative")
    big = QFont(label.font())
    big.setPointSizeF(big.pointSizeF() * 2)
    label.setFont(big)
    assert label.minimumSizeHint().width() > hint
    with pytest.raises(ValueError):
        SteadyLabel(())


def test_autosave_writes_recovery_and_restores(window, qtbot, monkeypatch):
    from desktop.storage.restore import read_recovery_file

    tab, setup = _setup_game(window)
    _right_click(qtbot, monkeypatch, tab, 0, 1, "Ann has")
    _wait(window)
    found = read_recovery_file(window.autosave.recovery_path())
    games = {d.game: d for d, _ in found}
    assert "cluedo" in games and len(games["cluedo"].events) == 1
    # the next start after a crash: a fresh window finds the recovery file and restores it
    from desktop.shell.main_window import MainWindow

    window.autosave.crash_for_test()   # the first instance is gone, its file stays
    second = MainWindow(autosave=False)
    qtbot.addWidget(second)
    try:
        assert second.offer_recovery(ask=False)
        restored = second.tab_for("cluedo").controller.document
        assert len(restored.events) == 1 and restored.is_modified()
        assert restored.data().to_json()["events"] == tab.controller.document.data().to_json()["events"]
    finally:
        for t in second.game_tabs.values():
            t.controller.document.undo_stack.setClean()
            t.shutdown()


def test_recommendation_table_shows_exact_information(window):
    """The room I am in: every listed suggestion's information is the engine's exact value
    (no ≈ mark), best first; the Details view shows the bits (the default view: a bar)."""
    tab, setup = _setup_game(window)
    window.set_details(True, remember=False)
    (_, sus), (_, wea), (_, roo) = setup.categories
    hand = cluedo.HandEvent(player="Me", cards=(sus[0], wea[0]) + tuple(roo[:4]))
    tab.log_event(hand)
    _wait(window)
    room = setup.categories[2][1][-1]
    tab.room.setCurrentIndex(tab.room.findData(room))
    _wait(window)
    rec = cluedo.recommend(setup, [hand], room=room, exact_seconds=None)
    n = tab.rec_table.row_count()
    assert n == min(12, len(rec.suggestions)) and n > 0
    expect = {t[:3]: t[3] for t in rec.suggestions}
    shown = []
    for r in range(n):
        key = tuple(tab.rec_table.text(r, c) for c in range(3))
        text = tab.rec_table.text(r, 3)
        assert not text.startswith("≈") and key[2] == room
        assert float(text) == pytest.approx(expect[key], abs=0.006)
        shown.append(float(text))
    assert shown == sorted(shown, reverse=True)
    # the first stage (the sampled estimate, a partial result of the same task) is shown
    # marked ≈ while the exact count runs; the runner delivers a partial result only before the
    # task's own result, and never one of a stale task
    est = cluedo.recommend(setup, [hand], room=room, exact_seconds=0)
    key = tab.controller._advice_asked["recommend"]     # the moment the ranking is of
    tab.controller._on_advice("recommend", False, 0, (key, est))
    assert tab.rec_table.text(0, 3).startswith("≈") and "counting" in tab.rec_note.text()
    tab.controller._on_advice("recommend", True, 0, (key, rec))
    assert not tab.rec_table.text(0, 3).startswith("≈")


def test_a_fresh_game_asks_for_my_hand_until_it_is_entered(window):
    """A new game shows ~23 % in my own column: the line under Quick entry asks for my hand,
    counting the cards entered, and gives the usual hint once every card of my hand is
    placed."""
    tab, setup = _setup_game(window)        # Me, Ann, Bob: 6 cards each
    size = setup.hand_sizes[setup.players.index("Me")]
    hint = tab.quick_entry.preview
    assert hint.text().startswith("Start with your hand: type “me has rope” here")
    assert f"({0} of {size} cards so far)" in hint.text()
    cards = ["Professor Plum", "Rope", "Hall", "Kitchen", "Dagger", "Revolver"][:size]
    tab.quick_entry.line.setText("me has rope")
    tab.quick_entry.submit()
    _wait(window)
    assert f"(1 of {size} cards so far)" in hint.text()
    for card in cards:
        if card != "Rope":
            tab.log_checked(cluedo.event_from_json({"type": "shown", "player": "Me", "card": card},
                                                   setup, "$"))
            _wait(window)
    assert hint.text().startswith("Names: any unique prefix of any word")
