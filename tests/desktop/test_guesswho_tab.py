"""The Guess Who? tab end to end: click a question then Yes/No, click cards, undo/redo, the
opponent spin box, setup switches (compound, ε) as undoable commands, the New game dialog and the
simulator — with the views checked against the engine's own answers."""
import json

import numpy as np
import pytest
from PySide6.QtCore import Qt
from window_idle import wait_idle

from desktop.games.guesswho.forms import FILE_CHOICE, NewGameDialog
from desktop.games.guesswho.model import COL_BITS, COL_QUESTION, QuestionRole
from desktop.tabs.wording import information_bar
from desktop.widgets.worksheet import format_probability
from engines import guesswho
from engines.core.errors import SessionFormatError
from engines.core.resources import resource_path

#: The tab the ``window`` fixture shows first (tests/desktop/conftest.py).
WINDOW_GAME = "guesswho"


def _wait(window):
    assert wait_idle(window, 60)


def _tab(window, setup=None, events=()):
    window.select_game("guesswho")
    tab = window.tab_for("guesswho")
    tab.reset_document(setup or guesswho.default_setup(), list(events))
    _wait(window)
    return tab


def _click_question(qtbot, tab, label):
    """Click the row of the question whose words are ``label`` in the question table."""
    view, proxy = tab.question_view, tab.proxy
    for r in range(proxy.rowCount()):
        idx = proxy.index(r, COL_QUESTION)
        if proxy.data(idx, QuestionRole) == label or proxy.data(idx).lstrip("★ ") == label:
            view.scrollTo(idx)
            qtbot.mouseClick(view.viewport(), Qt.LeftButton, pos=view.visualRect(idx).center())
            return proxy.data(idx, QuestionRole)
    raise AssertionError(f"question {label!r} not in the table")


def _click_card(qtbot, tab, name):
    card = tab.board_view.card(name)
    tab.board_view.ensureWidgetVisible(card)
    qtbot.mouseClick(card, Qt.LeftButton, pos=card.rect().center())


def test_click_question_then_no_knocks_down_the_right_cards(window, qtbot):
    tab = _tab(window)
    board = tab.controller.document.setup.board
    q = _click_question(qtbot, tab, "Glasses?")
    assert q == {"attribute": "glasses", "value": True}
    assert tab.current_question() == q and tab.no_button.isEnabled()
    # the yes side is outlined before answering
    assert {n for n, c in tab.board_view.cards.items() if c.highlight} == \
        {c.name for c in board.characters if c.value("glasses")}
    qtbot.mouseClick(tab.no_button, Qt.LeftButton)
    _wait(window)
    ev = tab.controller.document.events[-1]
    assert ev.to_json() == {"type": "answer", "question": q, "answer": False}
    for c in board.characters:
        assert tab.board_view.card(c.name).down == c.value("glasses"), c.name
    assert sum(not c.down for c in tab.board_view.cards.values()) == \
        sum(not c.value("glasses") for c in board.characters)
    # and the question list is the engine's ranking after that answer
    direct = guesswho.infer(tab.controller.document.setup, tab.controller.document.events)
    shown = [tab.questions.data(tab.questions.index(r, COL_QUESTION), QuestionRole)
             for r in range(tab.questions.rowCount())]
    assert shown == [rq.question for rq in direct.questions]
    window.set_details(True, remember=False)             # the Details view: bits
    bits = [tab.questions.data(tab.questions.index(r, COL_BITS)) for r in range(tab.questions.rowCount())]
    assert bits == [f"{rq.information_bits:.3f}" for rq in direct.questions]
    window.set_details(False, remember=False)            # plain words: a bar, full at one bit
    bars = [tab.questions.data(tab.questions.index(r, COL_BITS)) for r in range(tab.questions.rowCount())]
    assert bars == [information_bar(rq.information_bits, 1.0) for rq in direct.questions]
    assert not tab.yes_button.isEnabled()  # answered: pick the next question


def test_yes_keeps_only_the_yes_side(window, qtbot):
    tab = _tab(window)
    board = tab.controller.document.setup.board
    _click_question(qtbot, tab, "Ginger hair?")
    qtbot.mouseClick(tab.yes_button, Qt.LeftButton)
    _wait(window)
    standing = {n for n, c in tab.board_view.cards.items() if not c.down}
    assert standing == {c.name for c in board.characters if c.value("hair_colour") == "ginger"}
    assert tab.controller.timeline.latest.n_candidates == len(standing)
    assert f"<b>{len(standing)}</b> cards standing" in tab.summary.text()


def test_click_card_eliminates_and_undo_stands_it_up(window, qtbot):
    tab = _tab(window)
    _click_card(qtbot, tab, "Alex")
    _wait(window)
    assert [e.to_json() for e in tab.controller.document.events] == [{"type": "eliminate", "name": "Alex"}]
    assert tab.board_view.card("Alex").down and tab.board_view.card("Alex").by_me
    assert tab.controller.timeline.latest.n_candidates == 23
    window.undo_action.trigger()
    _wait(window)
    assert tab.controller.document.events == [] and not tab.board_view.card("Alex").down
    window.redo_action.trigger()
    _wait(window)
    assert tab.board_view.card("Alex").down
    # clicking a card I knocked down stands it up: the eliminate event is removed (undoable)
    _click_card(qtbot, tab, "Bill")
    _wait(window)
    _click_card(qtbot, tab, "Alex")
    _wait(window)
    assert [e.to_json() for e in tab.controller.document.events] == [{"type": "eliminate", "name": "Bill"}]
    assert not tab.board_view.card("Alex").down and tab.board_view.card("Bill").down
    window.undo_action.trigger()
    _wait(window)
    assert [e.to_json()["name"] for e in tab.controller.document.events] == ["Alex", "Bill"]
    assert tab.board_view.card("Alex").down


def test_card_ruled_out_by_an_answer_is_not_logged(window, qtbot):
    tab = _tab(window)
    _click_question(qtbot, tab, {"attribute": "glasses", "value": True})
    qtbot.mouseClick(tab.yes_button, Qt.LeftButton)
    _wait(window)
    board = tab.controller.document.setup.board
    out = next(c.name for c in board.characters if not c.value("glasses"))
    n = len(tab.controller.document.events)
    _click_card(qtbot, tab, out)
    assert len(tab.controller.document.events) == n
    assert tab.banner.isVisible() and "ruled out by an answer" in tab.banner.text()


def test_opponent_spin_logs_events_and_shows_the_race(window, qtbot):
    tab = _tab(window)
    assert "set the opponent" in tab.win_label.text()
    tab.opponent.setValue(24)
    _wait(window)
    assert [e.to_json() for e in tab.controller.document.events] == [{"type": "opponent", "remaining": 24}]
    post = guesswho.infer(tab.controller.document.setup, tab.controller.document.events)
    assert post.win_probability == pytest.approx(5 / 9)  # Nica: 24 vs 24, official rules
    assert format_probability(post.win_probability) in tab.win_label.text()
    assert tab.win_plot.series()["my win probability"][-1] == pytest.approx(5 / 9)
    # a second change straight after is the same entry (one fact: their count now)
    tab.opponent.setValue(12)
    _wait(window)
    assert [e.to_json() for e in tab.controller.document.events] == [{"type": "opponent", "remaining": 12}]
    post = guesswho.infer(tab.controller.document.setup, tab.controller.document.events)
    assert format_probability(post.win_probability) in tab.win_label.text()
    assert f"{post.advised_split[0]} / {post.advised_split[1]}" in tab.advice_label.text()
    # the advised question can be selected and answered
    tab.use_advice.click()
    assert tab.current_question() == post.advised_question


def test_compound_and_error_rate_change_the_setup_undoably(window, qtbot):
    tab = _tab(window)
    n_single = tab.questions.rowCount()
    tab.compound.setChecked(True)
    _wait(window)
    assert tab.controller.document.setup.compound_questions
    assert tab.questions.rowCount() == len(guesswho.infer(tab.controller.document.setup, []).questions) > n_single
    window.undo_action.trigger()
    _wait(window)
    assert not tab.controller.document.setup.compound_questions and not tab.compound.isChecked()
    assert tab.questions.rowCount() == n_single
    # ε: answers weigh the cards; badges show the engine's posterior
    _click_question(qtbot, tab, "Glasses?")
    qtbot.mouseClick(tab.no_button, Qt.LeftButton)
    _wait(window)
    tab.error_rate.setValue(0.1)
    _wait(window)
    assert tab.controller.document.setup.error_rate == pytest.approx(0.1)
    direct = guesswho.infer(tab.controller.document.setup, tab.controller.document.events)
    for name, p in zip(direct.names, direct.probabilities):
        card = tab.board_view.card(name)
        assert not card.down and card.badge
        assert card.probability == pytest.approx(p)
    window.undo_action.trigger()
    _wait(window)
    assert tab.controller.document.setup.error_rate == 0 and tab.error_rate.value() == 0
    assert any(c.down for c in tab.board_view.cards.values())


def test_history_selection_shows_the_board_then(window, qtbot):
    events = [guesswho.event_from_json(e, guesswho.default_setup(), "$")
              for e in json.loads(resource_path("examples", "guesswho.json").read_text())["events"]]
    tab = _tab(window, guesswho.setup_for_board("classic", opponent_remaining=24), events)
    live = {n for n, c in tab.board_view.cards.items() if not c.down}
    assert live == set(guesswho.infer(tab.controller.document.setup, events).candidates)
    tab.history.select_entry(1)  # after the first answer
    first = guesswho.infer(tab.controller.document.setup, events[:1])
    assert {n for n, c in tab.board_view.cards.items() if not c.down} == set(first.candidates)
    assert "as after entry 1" in tab.summary.text()
    tab.history.select_live()
    assert {n for n, c in tab.board_view.cards.items() if not c.down} == live
    series = tab.plot.series()
    assert series["cards standing"] == [float(guesswho.infer(tab.controller.document.setup, events[:k]).n_candidates)
                                        for k in range(len(events) + 1)]


def test_new_game_dialog_builds_setups_and_names_bad_files(window, qtbot, tmp_path):
    tab = _tab(window)
    dlg = NewGameDialog(tab, tab.controller.document.setup)
    qtbot.addWidget(dlg)
    dlg.board.setCurrentIndex(dlg.board.findData("demo"))
    dlg.rules.setCurrentIndex(dlg.rules.findData("instant"))
    dlg.compound.setChecked(True)
    setup = dlg.build()
    assert setup.board.key == "demo" and setup.rules == "instant" and setup.compound_questions
    assert setup.opponent_remaining == setup.board.size
    tab.reset_document(setup, [])
    _wait(window)
    assert sorted(tab.board_view.cards) == sorted(setup.board.names)
    dlg.board.setCurrentIndex(dlg.board.findData(FILE_CHOICE))
    with pytest.raises(SessionFormatError, match="choose a board file"):
        dlg.build()
    bad = tmp_path / "board.csv"
    bad.write_text("name,glasses\nAnn,yes\nBob,maybe\n", encoding="utf-8")
    dlg.path.setText(str(bad))
    dlg.opponent.setValue(0)
    setup = dlg.build()  # 'maybe' makes glasses a category: valid
    assert setup.board.attribute("glasses").kind == "category"
    bad.write_text("name,glasses\nAnn,yes\nBob\n", encoding="utf-8")
    with pytest.raises(SessionFormatError) as err:
        dlg.build()
    assert "board.csv" in str(err.value) and "line 3" in str(err.value)


def test_simulation_runs_in_background_with_engine_numbers(window, qtbot):
    tab = _tab(window, guesswho.setup_for_board("demo"))
    tab.run_simulation(["greedy", "random"], 60, 3)
    assert not tab.sim_panel.run_button.isEnabled()
    _wait(window)
    assert tab.sim_panel.run_button.isEnabled()
    direct = guesswho.simulate(guesswho.SimConfig(tab.controller.setup.board, ["greedy", "random"], 60, seed=3))
    m = direct.matches[0]
    assert tab.sim_panel.table.row_count() == 1
    assert tab.sim_panel.table.text(0, 0) == "greedy\nvs random"
    from desktop.shell.locale_format import percent
    assert tab.sim_panel.table.text(0, 1).startswith(percent(m.win_rate_a, 1))   # "73.3 %": QLocale's
    assert tab.sim_panel.table.tooltip(0, 3).startswith(f"{m.games} games: greedy won {m.wins_a}")
    assert tab.sim_panel.progress.value() == tab.sim_panel.progress.maximum()
    tab.run_simulation([], 10, 0)
    assert "at least one" in tab.sim_panel.message.text()


def test_save_then_open_round_trip(window, qtbot, tmp_path):
    tab = _tab(window)
    assert window.open_path(str(resource_path("examples", "guesswho.json")), ask=False)
    _wait(window)
    original = tab.controller.document.data().to_json()
    standing = {n for n, c in tab.board_view.cards.items() if not c.down}
    path = tmp_path / "gw.json"
    tab.controller.document.save(str(path))
    tab.reset_document(guesswho.default_setup(), [])
    _wait(window)
    assert window.open_path(str(path), ask=False)
    _wait(window)
    assert tab.controller.document.data().to_json() == original
    assert {n for n, c in tab.board_view.cards.items() if not c.down} == standing
    assert np.isclose(sum(c.probability for c in tab.board_view.cards.values()), 1.0)


def test_simulation_can_be_cancelled(window, qtbot):
    tab = _tab(window)
    tab.sim_panel.games.setValue(100_000)
    tab.sim_panel.run_button.click()
    assert tab.sim_panel.cancel_button.isEnabled()
    qtbot.mouseClick(tab.sim_panel.cancel_button, Qt.LeftButton)
    _wait(window)
    assert tab.sim_panel.run_button.isEnabled() and not tab.sim_panel.cancel_button.isEnabled()
    assert tab.sim_panel.table.row_count() == 0 and "cancelled" in tab.sim_panel.message.text()


def test_impossible_answer_is_reported_and_rules_switch_changes_the_race(window, qtbot,
                                                                          monkeypatch):
    tab = _tab(window, guesswho.setup_for_board("classic", opponent_remaining=24))
    _click_question(qtbot, tab, "Glasses?")
    qtbot.mouseClick(tab.yes_button, Qt.LeftButton)
    _wait(window)
    standing = {n for n, c in tab.board_view.cards.items() if not c.down}
    warned = []
    monkeypatch.setattr(tab, "warn", lambda title, text: warned.append(text))
    _click_question(qtbot, tab, "Glasses?")
    qtbot.waitUntil(lambda: tab.current_question() is not None and tab.no_button.isEnabled(),
                    timeout=5000)
    qtbot.mouseClick(tab.no_button, Qt.LeftButton)  # contradicts the first answer: refused
    _wait(window)
    assert len(tab.controller.document.events) == 1 and warned and "contradicts the log" in warned[0]
    # logged on purpose (a correction): the banner reports it, Undo recovers
    tab.log_json({"type": "answer", "question": {"attribute": "glasses", "value": True},
                  "answer": False})
    _wait(window)
    assert tab.banner.isVisible() and "Impossible" in tab.banner.text()
    assert {n for n, c in tab.board_view.cards.items() if not c.down} == standing
    window.undo_action.trigger()
    _wait(window)
    assert not tab.banner.isVisible()
    tab.rules.setCurrentIndex(tab.rules.findData("instant"))
    _wait(window)
    assert tab.controller.document.setup.rules == "instant"
    post = guesswho.infer(tab.controller.document.setup, tab.controller.document.events)
    assert format_probability(post.win_probability_instant) in tab.win_label.text()
    window.undo_action.trigger()
    _wait(window)
    assert tab.controller.document.setup.rules == "official" and tab.rules.currentData() == "official"


def test_board_with_pictures_draws_them(window, qtbot, tmp_path):
    from PySide6.QtGui import QColor, QPixmap

    for name in ("ann", "bob"):
        pm = QPixmap(40, 50)
        pm.fill(QColor("teal"))
        assert pm.save(str(tmp_path / f"{name}.png"))
    csv = tmp_path / "faces.csv"
    csv.write_text("name,glasses,image\nAnn,yes,ann.png\nBob,no,bob.png\nCy,no,\n", encoding="utf-8")
    setup = guesswho.setup_for_board(guesswho.load_board(str(csv)))
    tab = _tab(window, setup)
    assert tab.board_view.card("Ann").pixmap is not None and tab.board_view.card("Bob").pixmap is not None
    assert tab.board_view.card("Cy").pixmap is None and tab.board_view.card("Cy").chips == []
    assert tab.board_view.card("Ann").grab().width() > 0


def test_the_race_pane_draws_a_moment_from_the_snapshot_alone(qapp):
    """The race pane is a presenter of the published snapshot: given a snapshot and no tab or
    document, it shows my win probability and the advised split of that moment, and an
    opponent's count it shows is no entry of the player's."""
    from desktop.games.guesswho.panes import RacePane
    from desktop.tabs.snapshot import Snapshot, Status
    from engines.core.resources import resource_path
    from engines.core.schema import read_session_file

    data = read_session_file(str(resource_path("examples", "guesswho.json")))
    events = list(data.events) + [guesswho.Opponent(remaining=5)]
    post = guesswho.infer(data.setup, events)
    assert post.win_probability is not None
    pane = RacePane()
    asked = []
    pane.opponentChanged.connect(asked.append)
    pane.render(Snapshot(setup=data.setup, n=len(events), k=len(events), status=Status.READY,
                         posterior=post))
    assert format_probability(post.win_probability) in pane.win_label.text()
    assert f"{post.advised_split[0]} / {post.advised_split[1]}" in pane.advice_label.text() \
        or post.advised_split[0] == 0
    assert pane.opponent.value() == 5 and asked == []
    pane.opponent.setValue(4)                 # the player's own change is reported
    assert asked == [4]


def test_an_answer_paints_only_the_cards_it_changes(window, qtbot, monkeypatch):
    """After "Glasses? no" (no error model: no badges) only the cards knocked down are asked
    to repaint; the standing ones look as before and are left alone."""
    from desktop.games.guesswho.cards import CharacterCard

    tab = _tab(window)
    board = tab.controller.document.setup.board
    asked = []
    real = CharacterCard.update

    def counting(self, *args):
        asked.append(self.name)
        return real(self, *args)

    monkeypatch.setattr(CharacterCard, "update", counting)
    _click_question(qtbot, tab, "Glasses?")
    asked.clear()
    qtbot.mouseClick(tab.no_button, Qt.LeftButton)
    _wait(window)
    glasses = {c.name for c in board.characters if c.value("glasses")}
    assert glasses and set(asked) == glasses, sorted(set(asked) ^ glasses)
    # and only those are repainted at once with the beliefs (with the ranked questions)
    assert tab.board_view.take_changed() == []             # taken by the render
    tab.board_view.set_card_state(next(iter(glasses)), 0.0, True, False, False, False)
    assert tab.beliefs_views() == [tab.question_view]      # a card already down: unchanged
    standing = next(n for n in tab.board_view.cards if n not in glasses)
    tab.board_view.set_card_state(standing, 0.0, True, True, False, False)
    assert tab.beliefs_views() == [tab.board_view.card(standing), tab.question_view]
