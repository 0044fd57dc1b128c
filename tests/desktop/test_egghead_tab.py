"""The Egghead tab end to end: Zorn's (2024) example through the forms, undo, the BA toggle, stack
edits at setup, solves, beliefs then, bad input, the New game dialog and the simulation panel —
every model checked against the engine's own answer."""
import numpy as np
import pytest
from PySide6.QtCore import Qt
from window_idle import wait_idle

from engines import egghead
from engines.core.errors import SessionFormatError
from engines.core.resources import resource_path

#: The tab the ``window`` fixture shows first (tests/desktop/conftest.py).
WINDOW_GAME = "egghead"

SEED_VALIDS = [(1, 1, 2), (1, 2, 2), (1, 2, 3)]


def _wait(window):
    assert wait_idle(window, 60)


def _tab(window):
    window.select_game("egghead")
    tab = window.tab_for("egghead")
    tab.reset_document(egghead.default_setup(), [])
    _wait(window)
    return tab


def _shown_probabilities(tab):
    return tab.listed_probabilities()


def _check_against_engine(tab):
    doc = tab.controller.document
    post = egghead.infer(doc.setup, doc.events)
    assert tab.listed_valids() == list(post.my_valids)
    from desktop.widgets.worksheet import format_probability
    assert _shown_probabilities(tab) == [format_probability(p) for p in post.my_probabilities]
    np.testing.assert_allclose(tab.position_model.matrix(), np.array(post.position_probabilities),
                               atol=1e-12)
    series = tab.plot.series()
    then = [egghead.infer(doc.setup, doc.events[:k]) for k in range(len(doc.events) + 1)]
    assert series["with analysis (BA)"] == [p.valid_count_with_ba for p in then]
    assert series["answers alone"] == [p.valid_count_without_ba for p in then]
    return post


def _log_answer(qtbot, tab, search, qid, answer):
    form = tab.question_form
    form.filter.clear()
    qtbot.keyClicks(form.filter, search)
    assert form.question.currentData() == qid
    assert form.set_answer(answer)
    qtbot.mouseClick(form.button, Qt.LeftButton)


def test_seed_example_through_the_forms_and_undo(window, qtbot):
    tab = _tab(window)
    assert tab.listed_valids() == list(egghead.infer(tab.controller.document.setup, []).my_valids)
    assert len(tab.listed_valids()) == 56
    _log_answer(qtbot, tab, "missing", "missing", 0)
    _wait(window)
    assert tab.controller.document.events == [egghead.Answer(question="missing", answer=0, moderator=None)]
    after_answer = _check_against_engine(tab)
    assert len(after_answer.my_valids) == 6
    # the reactions round: B solved, A and C did not
    for _p, b in tab.reactions_form.toggles.items():
        b.setChecked(False)
    qtbot.mouseClick(tab.reactions_form.toggles["B"], Qt.LeftButton)
    qtbot.mouseClick(tab.reactions_form.button, Qt.LeftButton)
    _wait(window)
    assert tab.controller.document.events[-1] == egghead.Reactions(solved=("B",))
    post = _check_against_engine(tab)
    assert tab.listed_valids() == SEED_VALIDS
    assert "Not yet" in tab.solve_label.text()
    assert "B</b> can solve" in tab.others_label.text()
    # the next round is pre-filled with this one; no further round can change anything
    assert tab.reactions_form.solved() == ["B"]
    assert not egghead.reactions_can_change(tab.controller.document.setup, tab.controller.document.events)
    assert "can change nothing" in tab.reactions_form.note.text()
    # stacks only the reactions ruled out are listed greyed
    assert tab.valids.row_count() == 6
    # undo restores the list after the answer, then the setup alone
    window.undo_action.trigger()
    _wait(window)
    assert tab.listed_valids() == list(after_answer.my_valids)
    window.undo_action.trigger()
    _wait(window)
    assert len(tab.listed_valids()) == 56
    window.redo_action.trigger()
    window.redo_action.trigger()
    _wait(window)
    assert tab.listed_valids() == SEED_VALIDS == list(post.my_valids)


def test_behavioural_analysis_toggle_is_undoable(window, qtbot):
    tab = _tab(window)
    _log_answer(qtbot, tab, "values appear on no", "missing", 0)
    tab.reactions_form.set_solved(["B"])
    qtbot.mouseClick(tab.reactions_form.button, Qt.LeftButton)
    _wait(window)
    assert tab.listed_valids() == SEED_VALIDS
    qtbot.mouseClick(tab.ba_box, Qt.LeftButton)
    _wait(window)
    assert tab.controller.document.setup.behavioural_analysis is False
    assert len(tab.controller.document.events) == 2  # the log is kept
    post = _check_against_engine(tab)
    assert len(post.my_valids) == 6 and tab.valids.row_count() == 6
    window.undo_action.trigger()
    _wait(window)
    assert tab.controller.document.setup.behavioural_analysis is True
    assert tab.ba_box.isChecked()
    assert tab.listed_valids() == SEED_VALIDS


def test_stack_edit_at_setup_then_locked(window, qtbot, monkeypatch):
    tab = _tab(window)
    spins = tab.table_panel.spins["C"]
    assert spins[0].isVisible()
    spins[0].setValue(2)  # C: 3 3 3 -> 2 3 3
    _wait(window)
    assert tab.controller.document.setup.visible_dict()["C"] == (2, 3, 3)
    _check_against_engine(tab)
    window.undo_action.trigger()
    _wait(window)
    assert tab.controller.document.setup.visible_dict()["C"] == (3, 3, 3)
    assert [s.value() for s in spins] == [3, 3, 3]
    # once something is logged the cards are shown, not edited
    _log_answer(qtbot, tab, "sum of all", "sum", 30)
    _wait(window)
    assert not spins[0].isVisible() and tab.table_panel.faces["C"][0].isVisible()


def test_solve_form_updates_the_table_and_history_shows_beliefs_then(window, qtbot):
    tab = _tab(window)
    _log_answer(qtbot, tab, "missing", "missing", 0)
    tab.reactions_form.set_solved(["B"])
    qtbot.mouseClick(tab.reactions_form.button, Qt.LeftButton)
    _wait(window)
    qtbot.mouseClick(tab.table_panel.solve_buttons["B"], Qt.LeftButton)
    form = tab.solve_form
    assert form.player.currentData() == "B"
    assert [s.value() for s in form.cards] == [4, 5, 6]  # pre-filled with what I see
    form.set_cards([4, 5, 6], [1, 1, 2])
    qtbot.mouseClick(form.button, Qt.LeftButton)
    _wait(window)
    assert tab.controller.document.events[-1] == egghead.Solve(player="B", cards=(4, 5, 6), new_cards=(1, 1, 2))
    assert [f.text() for f in tab.table_panel.faces["B"]] == ["1", "1", "2"]
    _check_against_engine(tab)
    # select entry 1 (after the answer): the beliefs then, from the timeline
    tab.history.select_entry(1)
    _wait(window)
    then = egghead.infer(tab.controller.document.setup, tab.controller.document.events[:1])
    assert tab.listed_valids() == list(then.my_valids)
    assert "as after entry 1" in tab.solve_label.text()
    tab.history.select_live()
    _wait(window)
    assert tab.listed_valids() == list(egghead.infer(tab.controller.setup, tab.controller.events).my_valids)


def test_bad_input_names_the_field(window, qtbot, monkeypatch):
    tab = _tab(window)
    warnings = []
    monkeypatch.setattr(tab, "warn", lambda title, text: warnings.append(text))
    assert not tab.log_json({"type": "answer", "question": "sum", "answer": 2, "moderator": None})
    assert "not a possible answer" in warnings[-1] and not tab.controller.document.events
    # my own solve with new cards: the engine's message reaches the player
    tab.solve_form.set_player("A")
    tab.solve_form.none_new.setChecked(False)
    qtbot.mouseClick(tab.solve_form.button, Qt.LeftButton)
    assert "cannot see your own new cards" in warnings[-1]
    assert not tab.controller.document.events
    # a search that matches nothing disables logging
    qtbot.keyClicks(tab.question_form.filter, "zzzz")
    assert tab.question_form.question.count() == 0
    assert not tab.question_form.button.isEnabled()
    assert "No question matches" in tab.question_form.hint.text()


def test_new_game_dialog_builds_and_validates(window, qtbot):
    from desktop.games.egghead.forms import NewGameDialog

    tab = _tab(window)
    dlg = NewGameDialog(tab, tab.controller.document.setup)
    qtbot.addWidget(dlg)
    dlg.n_players.setValue(4)
    dlg.set_row(3, "D", False, "6 6 1", analysing=False)
    dlg.moderator.setCurrentIndex(dlg.moderator.findData("rotating"))
    dlg.ba.setChecked(False)
    setup = dlg.build()
    assert setup.players == ("A", "B", "C", "D") and setup.me == "A"
    assert setup.visible_dict()["D"] == (1, 6, 6)
    assert setup.analysing == ("B", "C") and setup.moderator == "rotating"
    assert not setup.behavioural_analysis
    dlg.set_row(3, "D", False, "6 x 1")
    with pytest.raises(SessionFormatError, match="whole numbers"):
        dlg.build()
    dlg.set_row(3, "D", False, "6 6")
    with pytest.raises(SessionFormatError) as info:
        dlg.build()
    assert "D" in info.value.path
    # the grid edits like the form it is: ticking "Me" on another seat moves it there (one me),
    # a typed name and a typed stack reach the setup
    m = dlg.table.model()
    assert m.setData(m.index(1, 1), Qt.Checked.value, Qt.CheckStateRole)
    assert [s.me for s in dlg.seats()] == [False, True, False, False]
    assert m.setData(m.index(0, 2), "2 3 4") and m.setData(m.index(1, 0), "Bea")
    dlg.set_row(3, "D", False, "6 6 1", analysing=False)
    moved = dlg.build()
    assert moved.me == "Bea" and moved.visible_dict()["A"] == (2, 3, 4)
    assert m.setData(m.index(0, 1), Qt.Checked.value, Qt.CheckStateRole)
    assert m.setData(m.index(1, 0), "B")
    # the tab takes the new setup: a rotating moderator is offered, and I answer about what I see
    dlg.set_row(3, "D", False, "6 6 1", analysing=False)
    tab.reset_document(dlg.build(), [])
    _wait(window)
    assert len(tab.table_panel.spins) == 3
    form = tab.question_form
    form.moderator.setCurrentIndex(form.moderator.findData("A"))
    assert form.set_question("sum")
    assert form.answer.currentData() == 4 + 5 + 6 + 3 * 3 + 1 + 6 + 6
    _check_against_engine(tab)


def test_new_game_dialog_sizes_the_game(window, qtbot):
    """The dialog says what a setup costs: six players need gigabytes (and say how much),
    a table beyond the engine's limit is refused by the note and by build()."""
    from desktop.games.egghead.forms import NewGameDialog

    tab = _tab(window)
    dlg = NewGameDialog(tab, tab.controller.document.setup)
    qtbot.addWidget(dlg)
    assert "GB" not in dlg.size_note.text()
    dlg.n_players.setValue(6)
    assert "56^6" in dlg.size_note.text() and "GB of memory" in dlg.size_note.text()
    for r in range(1, 6):
        dlg.set_row(r, "ABCDEF"[r], False, "1 2 3")
    assert len(dlg.build().players) == 6        # accepted: inference checks the memory
    dlg.values.setValue(7)
    assert "Too many" in dlg.size_note.text()
    with pytest.raises(SessionFormatError, match="memory"):
        dlg.build()
    # a custom deck has a lower limit than Zorn's (2024) deck (3 x 9 values x 6 cards: 3.4 GB)
    dlg.n_players.setValue(3)
    dlg.values.setValue(9)
    dlg.cards.setValue(6)
    assert "Too many" in dlg.size_note.text() and "limit for this deck" in dlg.size_note.text()
    # under the memory limit but over the time a command may take (engines/egghead/cost.py):
    # the note says so before build() refuses it
    dlg.n_players.setValue(5)
    dlg.values.setValue(5)
    dlg.cards.setValue(4)
    assert "Too slow" in dlg.size_note.text() and "per event" in dlg.size_note.text()
    with pytest.raises(SessionFormatError, match="per event"):
        dlg.build()


def test_open_example_file(window):
    tab = window.tab_for("egghead")
    window.select_game("egghead")
    assert window.open_path(str(resource_path("examples", "egghead.json")), ask=False)
    _wait(window)
    _check_against_engine(tab)
    assert [f.text() for f in tab.table_panel.faces["B"]] == ["1", "1", "2"]


def test_simulation_panel_runs_to_completion(window, qtbot):
    tab = _tab(window)
    panel = tab.simulation
    tab.pages.setCurrentWidget(panel)
    panel.players.setValue(3)
    panel.rounds.setValue(40)
    panel.set_analysing([0, 1])
    assert not panel.progress.isTextVisible()      # no "0 of 1 rounds" before a run
    with qtbot.waitSignal(panel.finished, timeout=60000) as blocker:
        qtbot.mouseClick(panel.run_button, Qt.LeftButton)
    result = blocker.args[0]
    direct = egghead.simulate(egghead.SimConfig(**panel.options()))
    assert [c.analysing for c in result.configs] == [0, 1]
    def obs(res):  # same seed, same rounds: the same games
        return [(c.ba and c.ba.observations, c.no_ba and c.no_ba.observations) for c in res.configs]

    assert obs(result) == obs(direct)
    rows = panel.rows()
    assert panel.table.row_count() == len(rows) > 0
    for r, row in enumerate(rows):
        assert panel.table.text(r, 3) == f"{row.stats.mean:.2f}"
        assert panel.table.text(r, 0) == f"{row.analysing} of {result.players}"
        assert "nan" not in panel.table.copy_text().lower()
    assert panel.progress.value() == panel.progress.maximum() == 80
    assert panel.progress.isTextVisible() and panel.progress.text() == "80 of 80 rounds, all games"
    assert panel.run_button.isEnabled() and not panel.cancel_button.isEnabled()
    assert len(panel.ecdf_plot.getPlotItem().listDataItems()) == len(rows)


def test_simulation_cancel(window, qtbot):
    tab = _tab(window)
    panel = tab.simulation
    panel.players.setValue(4)
    panel.rounds.setValue(100000)
    panel.set_analysing([1])
    assert panel.run()
    assert panel.is_running() and panel.cancel_button.isEnabled()
    qtbot.wait(200)
    qtbot.mouseClick(panel.cancel_button, Qt.LeftButton)
    assert not panel.is_running() and panel.run_button.isEnabled()
    assert "cancelled" in panel.status.text()
    _wait(window)
    assert panel.result is None


def test_position_grid_tooltip_and_no_nan(window):
    tab = _tab(window)
    m = tab.position_model
    idx = m.index(m.row_of_item(0), 0)
    assert m.data(idx, Qt.ToolTipRole).startswith("Chance that my 1st card shows 1: ")
    texts = [m.data(m.index(r, c)) for r in range(m.rowCount()) for c in range(m.columnCount())]
    assert all(t and "nan" not in t.lower() for t in texts)


def test_rotating_moderator_prefill_and_learned_from(window, qtbot):
    tab = _tab(window)
    setup = egghead.Setup.from_json({"players": ["A", "B", "C"], "me": "A", "moderator": "rotating",
                                     "visible": {"B": [4, 5, 6], "C": [3, 3, 3]}}, "setup")
    tab.reset_document(setup, [])
    _wait(window)
    form = tab.question_form
    assert form.moderator.currentData() == "A"  # the first player answers first
    assert form.set_question("missing")
    assert form.answer.currentData() == egghead.answer_for(setup, "missing", setup.visible_dict(), "A")
    form.moderator.setCurrentIndex(form.moderator.findData("B"))
    assert form.set_answer(2)  # B sees my three cards and 3 3 3
    qtbot.mouseClick(form.button, Qt.LeftButton)
    _wait(window)
    assert tab.controller.document.events == [egghead.Answer(question="missing", answer=2, moderator="B")]
    assert form.moderator.currentData() == "C"  # the next player round the table
    post = _check_against_engine(tab)
    removed = post.learned[0].removed
    assert removed > 0 and f"by answers — B: {removed}" in tab.learned_label.text()


def test_the_solve_line_draws_a_moment_from_the_snapshot_alone(qapp):
    """"Can I solve now?" is a presenter of the published snapshot: given a snapshot of a past
    moment (no tab, no document) it answers for that moment and names it; a live moment of an
    impossible log never says yes."""
    from desktop.games.egghead.panes import SolveLine
    from desktop.tabs.snapshot import Snapshot, Status
    from engines.core.resources import resource_path
    from engines.core.schema import read_session_file

    data = read_session_file(str(resource_path("examples", "egghead.json")))
    k = len(data.events) - 1
    post = egghead.infer(data.setup, data.events[:k])
    line = SolveLine()
    line.render(Snapshot(setup=data.setup, n=len(data.events), selected=k, k=k,
                         status=Status.READY, posterior=post))
    assert f"as after entry {k}" in line.text() and "Can I solve now?" in line.text()
    assert ("Yes — call" in line.text()) == bool(post.can_solve)

    class Impossible:
        error = ValueError("impossible")

    line.render(Snapshot(setup=data.setup, n=k, k=k, status=Status.CONTRADICTION, posterior=post,
                         timeline=Impossible()))
    assert "The log is impossible" in line.text() and "Yes" not in line.text()
