"""The Spyfall tab end to end: claims logged by clicking worksheet cells (0 → ½ → 1) or by
typing, undo, bad typed claims, the belief models against the engine's own infer, the
recommendation, the New game dialog and the simulation panel (progress, cancel)."""
import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from window_idle import wait_idle

from desktop.games.spyfall.forms import NewGameDialog, parse_claim_text
from desktop.games.spyfall.model import next_weight
from desktop.shell.locale_format import percent  # "62.0 %": QLocale's, as the app writes it
from desktop.widgets.columns import MISSING
from engines import spyfall
from engines.core.errors import SessionFormatError

#: The tab the ``window`` fixture shows first (tests/desktop/conftest.py).
WINDOW_GAME = "spyfall"


def _wait(window):
    assert wait_idle(window, 60)


def _tab(window, setup=None):
    window.select_game("spyfall")
    tab = window.tab_for("spyfall")
    tab.reset_document(setup or spyfall.default_setup(), [])
    _wait(window)
    return tab


def _click_location(qtbot, tab, location):
    """Left-click the pending row's cell of ``location`` in the worksheet (a real mouse click)."""
    m = tab.sheet_model
    row = m.row_of_item(m.pending_item)
    col = tab.controller.document.setup.locations.index(location)
    index = m.index(row, col)
    tab.sheet.scrollTo(index)
    rect = tab.sheet.visualRect(index)
    assert rect.isValid()
    qtbot.mouseClick(tab.sheet.viewport(), Qt.LeftButton, pos=rect.center())


def _beliefs_equal_engine(tab):
    setup = tab.controller.document.setup
    direct = spyfall.infer(setup, tab.controller.document.events)
    rows = tab.sheet_model.beliefs()
    np.testing.assert_allclose(rows[0], [direct.location[l] for l in setup.locations], atol=1e-12)
    spy = tab.spy_model.matrix()
    np.testing.assert_allclose(spy[:, 0], [direct.spy[p] for p in setup.players], atol=1e-12)
    if setup.me is not None:
        np.testing.assert_allclose(spy[:, 1], [direct.private_spy[p] for p in setup.players], atol=1e-12)
    np.testing.assert_allclose(spy[:, -1], np.diag(direct.loo_spy), atol=1e-12)
    series = tab.plot.series()
    then = [spyfall.infer(setup, tab.controller.events[:k]) for k in range(len(tab.controller.events) + 1)]
    for p in setup.players:
        np.testing.assert_allclose(series[p], [t.spy[p] for t in then], atol=1e-12)
    ig = tab.ig_plot.series()["location (public)"]
    assert ig[0] is None
    np.testing.assert_allclose(ig[1:], direct.information_gain_bits, atol=1e-12)
    return direct


def test_next_weight_cycle():
    assert [next_weight(w) for w in (0.0, 0.5, 1.0, 0.3)] == [0.5, 1.0, 0.0, 0.0]


def test_click_cells_logs_claim_and_undo_removes_it(window, qtbot):
    tab = _tab(window)
    setup = tab.controller.document.setup
    uniform = tab.sheet_model.beliefs().copy()
    np.testing.assert_allclose(uniform[0], 1 / setup.n_locations)
    assert tab.speaker.currentData() == setup.players[0]  # the first player speaks first
    _click_location(qtbot, tab, "Beach")
    _click_location(qtbot, tab, "Beach")      # Beach: 0 → ½ → 1
    _click_location(qtbot, tab, "Casino")     # Casino: 0 → ½
    _click_location(qtbot, tab, "Hotel")
    _click_location(qtbot, tab, "Hotel")
    _click_location(qtbot, tab, "Hotel")      # Hotel: back to 0
    assert tab.claim_edit.text() == "Beach:1, Casino:0.5"
    pending = tab.sheet_model.pending_weights()
    assert pending[setup.locations.index("Beach")] == 1.0 and pending.sum() == 1.5
    tab.speaker.setCurrentIndex(tab.speaker.findData("Bob"))
    qtbot.mouseClick(tab.log_button, Qt.LeftButton)
    _wait(window)
    assert len(tab.controller.document.events) == 1
    assert tab.controller.document.events[0].to_json() == {"type": "claim", "player": "Bob",
                                                "claim": {"Beach": 1, "Casino": 0.5}}
    # the logged claim is a worksheet row, the pending row is empty again, the next speaker is Cy
    assert tab.sheet_model.pending_weights().sum() == 0 and tab.claim_edit.text() == ""
    assert tab.speaker.currentData() == "Cy"
    first = tab.sheet_model.row_of_turn(0)
    assert tab.sheet_model.claim_of_row(first) == 0
    assert tab.sheet_model.data(tab.sheet_model.index(first, setup.locations.index("Casino"))) == "½"
    direct = _beliefs_equal_engine(tab)
    assert direct.location["Beach"] > 1 / setup.n_locations
    # Enter in the worksheet logs the next claim (keyboard path, Space cycles the current cell)
    row = tab.sheet_model.row_of_item(tab.sheet_model.pending_item)
    tab.sheet.setFocus()
    tab.sheet.setCurrentIndex(tab.sheet_model.index(row, setup.locations.index("Beach")))
    qtbot.keyClick(tab.sheet, Qt.Key_Space)
    qtbot.keyClick(tab.sheet, Qt.Key_Space)
    qtbot.keyClick(tab.sheet, Qt.Key_Return)
    _wait(window)
    assert tab.controller.document.events[-1].to_json() == {"type": "claim", "player": "Cy", "claim": {"Beach": 1}}
    _beliefs_equal_engine(tab)
    # undo removes them, and the beliefs go back to the engine's answer for the shorter log
    window.undo_action.trigger()
    _wait(window)
    assert len(tab.controller.document.events) == 1 and tab.speaker.currentData() == "Cy"
    _beliefs_equal_engine(tab)
    window.undo_action.trigger()
    _wait(window)
    assert tab.controller.document.events == []
    assert all(tab.sheet_model.claim_of_row(r) == -1 for r in range(tab.sheet_model.rowCount()))
    np.testing.assert_allclose(tab.sheet_model.beliefs(), uniform, atol=1e-12)


def test_typed_claims_valid_and_invalid(window, qtbot, monkeypatch):
    tab = _tab(window)
    messages = []
    monkeypatch.setattr(tab, "warn", lambda title, text: messages.append(text))
    for text, expected in [("Beachy:1", "unknown location 'Beachy'"),
                           ("Beach:x", "Beach: expected a number, got the text 'x'"),
                           ("Beach:-1", "Beach: must be >= 0, got -1"),
                           ("Beach:0", "at least one location with a positive weight"),
                           ("1, 0, 0.5", "needs 27 weights (one per location), got 3"),
                           ("Beach:1, beach:0.5", "Beach is named twice")]:
        tab.claim_edit.setText(text)
        qtbot.mouseClick(tab.log_button, Qt.LeftButton)
        assert messages and expected in messages[-1], (text, messages[-1:])
        assert tab.controller.document.events == []
    messages.clear()
    tab.claim_edit.clear()
    qtbot.keyClicks(tab.claim_edit, "casino: 1/2, Hotel")  # names ignore case; a name alone weighs 1
    setup = tab.controller.document.setup
    pending = tab.sheet_model.pending_weights()  # the typed claim shows on the pending row
    assert pending[setup.locations.index("Casino")] == 0.5 and pending[setup.locations.index("Hotel")] == 1
    qtbot.keyClick(tab.claim_edit, Qt.Key_Return)
    _wait(window)
    assert not messages
    assert tab.controller.document.events[0].to_json() == {"type": "claim", "player": "Ann",
                                                "claim": {"Casino": 0.5, "Hotel": 1}}
    _beliefs_equal_engine(tab)


def test_spy_role_private_location_row_and_recommendation(window, qtbot):
    setup = spyfall.Setup.from_json({"locations": ["Beach", "Bank", "Zoo", "Jail"],
                                     "players": ["Ann", "Bob", "Cy", "Dee"], "me": "Cy",
                                     "my_role": {"spy": True},
                                     "model": {"beta": 5, "lambda": 0.7, "strategy": "dynamic"}}, "$.setup")
    tab = _tab(window, setup)
    for player, claim in [("Ann", {"Beach": 1, "Bank": 0.5}), ("Bob", {"Beach": 1})]:
        tab.log_event(spyfall.make_claim(setup, player, claim))
    _wait(window)
    direct = _beliefs_equal_engine(tab)
    rows = tab.sheet_model.beliefs()
    assert rows.shape == (2, 4)  # public + mine (as the spy)
    np.testing.assert_allclose(rows[1], [direct.private_location[l] for l in setup.locations], atol=1e-12)
    rec = spyfall.recommend(setup, tab.controller.document.events)
    assert rec.name_location == "Beach"
    assert f"Name the location: {rec.name_location}" in tab.advice.text()
    assert tab.speaker.currentData() == "Cy"
    # selecting a history entry shows the beliefs as they were then
    tab.history.select_entry(1)
    then = spyfall.infer(setup, tab.controller.document.events[:1])
    np.testing.assert_allclose(tab.sheet_model.beliefs()[0], [then.location[l] for l in setup.locations],
                               atol=1e-12)
    assert f"as after entry 1 of {len(tab.controller.document.events)}" in tab.summary.text()
    tab.history.select_live()
    np.testing.assert_allclose(tab.sheet_model.beliefs()[0], [direct.location[l] for l in setup.locations],
                               atol=1e-12)


def test_non_spy_recommendation_names_suspect(window, qtbot):
    tab = _tab(window)
    setup = tab.controller.document.setup
    tab.log_event(spyfall.make_claim(setup, "Bob", {"Casino": 1}))
    tab.log_event(spyfall.make_claim(setup, "Cy", {"Beach": 1}))
    _wait(window)
    rec = spyfall.recommend(setup, tab.controller.document.events)
    assert rec.accuse == "Bob"
    assert "Accuse Bob" in tab.advice.text() and "Beach" in tab.advice.text()


def test_parse_claim_text_forms():
    setup = spyfall.default_setup()
    assert parse_claim_text("Beach:1, Casino=0.5; hotel", setup) == {"Beach": 1.0, "Casino": 0.5, "Hotel": 1.0}
    assert parse_claim_text("Beach:½", setup) == {"Beach": 0.5}
    assert parse_claim_text("1, 0, 2", setup) == [1.0, 0.0, 2.0]
    with pytest.raises(SessionFormatError):
        parse_claim_text(":1", setup)


def test_new_game_dialog_builds_setup(window, qtbot):
    tab = _tab(window)
    dlg = NewGameDialog(tab, tab.controller.document.setup)
    qtbot.addWidget(dlg)
    assert dlg.beta.value() == 5 and dlg.lam.value() == pytest.approx(spyfall.default_setup().lam)
    dlg.n_players.setValue(4)
    dlg.me.setCurrentIndex(dlg.me.findData("Bob"))
    dlg.role.setCurrentIndex(dlg.role.findData("spy"))
    dlg.beta.slider.setValue(80)          # the slider moves the spin box: β = 8
    dlg.lam.set_value(0.5)
    dlg.strategy.setCurrentIndex(dlg.strategy.findData("dynamic"))
    m = dlg.table.model()
    assert not m.setData(m.index(2, dlg.STRATEGY), "joker")   # Cy follows the table: refused
    assert m.setData(m.index(2, dlg.OWN), Qt.Checked.value, Qt.CheckStateRole)  # Cy gets an own model
    assert m.setData(m.index(2, dlg.STRATEGY), "joker")
    assert dlg.table.text(2, dlg.STRATEGY) == "Joker (random claims)"
    setup = dlg.build()
    assert setup.players == ("Ann", "Bob", "Cy", "Dee") and setup.me == "Bob" and setup.i_am_spy
    assert setup.beta == 8 and setup.lam == 0.5 and setup.strategy == "dynamic"
    assert setup.models[2].strategy == "joker" and setup.models[0].strategy == "dynamic"
    assert m.setData(m.index(1, dlg.NAME), "Ann")
    with pytest.raises(SessionFormatError, match="same name"):
        dlg.build()
    assert m.setData(m.index(1, dlg.NAME), "Bob")
    dlg.edition.setCurrentIndex(dlg.edition.findData("custom"))
    dlg.custom.setPlainText("Moon")
    with pytest.raises(SessionFormatError, match="at least two locations"):
        dlg.build()
    dlg.custom.setPlainText("Moon\nMars\nVenus")
    dlg.role.setCurrentIndex(dlg.role.findData("Mars"))
    setup = dlg.build()
    assert setup.locations == ("Moon", "Mars", "Venus") and setup.my_location == "Mars"
    # starting the game resets the tab with it
    tab.reset_document(setup, [])
    _wait(window)
    assert tab.sheet_model.columns() == ["Moon", "Mars", "Venus"]
    assert "Mars" in tab.role_label.text()


def test_simulation_runs_with_progress_and_matches_engine(window, qtbot):
    tab = _tab(window)
    panel = tab.simulation
    tab.pages.setCurrentWidget(panel)
    panel.players.setValue(4)
    panel.locations.setValue(5)
    panel.games.setValue(12)
    panel.rounds.setValue(2)
    panel.workers.setValue(1)
    panel.seat_combos[3].setCurrentIndex(panel.seat_combos[3].findData("joker"))
    seen = []
    panel.progress.valueChanged.connect(seen.append)
    with qtbot.waitSignal(panel.finished, timeout=60000) as blocker:
        qtbot.mouseClick(panel.run_button, Qt.LeftButton)
    result = blocker.args[0]
    assert panel.progress.value() == panel.progress.maximum() == 12
    # the worker thread's progress callback reached the bar (chunks of 3 games) before the result
    assert any(0 < v < 12 for v in seen), seen
    direct = spyfall.simulate(panel.config)
    assert panel.config.seats == ("flat", "flat", "flat", "joker")
    assert result.spy_win_rate == direct.spy_win_rate
    rows = {(panel.table.text(r, 0), panel.table.text(r, 1)): panel.table.text(r, 2)
            for r in range(panel.table.row_count())}
    assert rows[("joker", "as spy")] == (percent(direct.by_strategy['joker']['as_spy']['win_rate'], 1)
                                         if direct.by_strategy["joker"]["as_spy"]["games"] else MISSING)
    assert "nan" not in panel.table.copy_text().lower()
    np.testing.assert_allclose(panel.ig_plot.series()["public location"][1:],
                               direct.mean_information_gain_bits, atol=1e-12)
    assert "Spy wins" in panel.status.text()
    assert panel.run_button.isEnabled() and not panel.cancel_button.isEnabled()


def test_simulation_cancel_and_bad_config(window, qtbot):
    tab = _tab(window)
    panel = tab.simulation
    panel.drawn.setChecked(True)
    for cb in panel.draw_checks.values():
        cb.setChecked(False)
    panel.run()
    assert "name at least one strategy" in panel.status.text() and not panel.is_running()
    panel.draw_checks["flat"].setChecked(True)
    panel.games.setValue(5000)
    panel.workers.setValue(1)
    panel.run()
    assert panel.is_running() and panel.cancel_button.isEnabled()
    qtbot.mouseClick(panel.cancel_button, Qt.LeftButton)
    assert not panel.is_running() and "Cancelled" in panel.status.text()
    qtbot.waitUntil(lambda: not panel.runner.is_busy(), timeout=30000)
    _wait(window)
    assert panel.result is None


def test_observer_and_enumeration_method(window, qtbot):
    setup = spyfall.Setup.from_json({"locations": ["Beach", "Bank", "Zoo"],
                                     "players": ["Ann", "Bob", "Cy"]}, "$.setup")
    tab = _tab(window, setup)
    assert tab.spy_model.columns() == ["Public", "w/o own"]  # no "Mine" without a card
    assert "Observer" in tab.advice.text() and "Observer" in tab.role_label.text()
    for player, claim in [("Ann", {"Beach": 1}), ("Bob", {"Bank": 1, "Zoo": 0.5})]:
        tab.log_event(spyfall.make_claim(setup, player, claim))
    _wait(window)
    _beliefs_equal_engine(tab)
    tab.method.setCurrentIndex(tab.method.findData("enumeration"))
    _wait(window)
    ref = spyfall.infer(setup, tab.controller.document.events, method="enumeration")
    assert ref.method == "enumeration"
    np.testing.assert_allclose(tab.sheet_model.beliefs()[0], [ref.location[l] for l in setup.locations],
                               atol=1e-9)
    latest = tab.snapshot.replace(posterior=tab.controller.timeline.latest, seconds=0.0)
    assert "checked the slow way" in tab.status_text(latest)
    window.set_details(True, remember=False)           # the Details view names the method
    latest = latest.replace(wording=tab.snapshot.wording)
    assert "Enumeration" in tab.status_text(latest)
    window.set_details(False, remember=False)
    # clicking a logged claim's row shows the beliefs as they were after it
    row = tab.sheet_model.row_of_turn(0)
    rect = tab.sheet.visualRect(tab.sheet_model.index(row, 0))
    qtbot.mouseClick(tab.sheet.viewport(), Qt.LeftButton, pos=rect.center())
    assert tab.history.current_entry() == 1
    assert f"as after entry 1 of {len(tab.controller.document.events)}" in tab.summary.text()
    assert tab.controller.document.events[0].to_json()["claim"] == {"Beach": 1}  # a logged row is not edited


def test_new_game_dialog_round_trips_claim_weight_table_wide_and_per_player(window, qtbot, tmp_path):
    from engines.core.schema import read_session_file

    setup = spyfall.Setup.from_json({
        "edition": "spyfall1", "players": ["Ann", "Bob", "Cy", "Dee"], "me": "Ann",
        "my_role": {"location": "Beach"},
        "model": {"beta": 5, "lambda": 0.3, "strategy": "flat", "claim_weight": 0.05,
                  "players": {"Bob": {"claim_weight": 0.5},
                              "Cy": {"beta": 9, "lambda": 0.3, "strategy": "flat"}}}}, "$.setup")
    assert setup.claim_weights().tolist() == [0.05, 0.5, 0.05, 0.05]
    tab = _tab(window, setup)
    dlg = NewGameDialog(tab, tab.controller.document.setup)
    qtbot.addWidget(dlg)
    assert dlg.weight.value() == pytest.approx(0.05)
    bob, cy, dee = (dlg.seats()[r] for r in (1, 2, 3))
    assert bob.own and bob.weight == pytest.approx(0.5) and cy.own and cy.weight == pytest.approx(0.05)
    assert not dee.own and dee.weight == pytest.approx(0.05)
    m = dlg.table.model()
    assert not m.flags(m.index(3, dlg.WEIGHT)) & Qt.ItemIsEnabled  # Dee follows the table
    assert dlg.table.text(3, dlg.WEIGHT) == "0.050"
    assert "At 0.05," in dlg.weight_hint.text() and "count fully" in dlg.weight_hint.text()
    assert dlg.build() == setup  # unchanged form: the same setup, per-player w included
    # the table-wide w moves the players without their own model, not Bob's own w
    dlg.weight.set_value(0.2)
    assert dee.weight == pytest.approx(0.2) and bob.weight == pytest.approx(0.5)
    assert m.setData(m.index(2, dlg.WEIGHT), 0.7)  # Cy has an own model: the field is free
    built = dlg.build()
    assert built.claim_weight == pytest.approx(0.2)
    assert built.claim_weights().tolist() == pytest.approx([0.2, 0.5, 0.7, 0.2])
    # the defaults button restores the studied model, w included
    dlg._defaults()
    assert (dlg.beta.value(), dlg.lam.value(), dlg.weight.value()) == pytest.approx(
        (spyfall.NEW_GAME_MODEL["beta"], spyfall.NEW_GAME_MODEL["lambda"],
         spyfall.NEW_GAME_MODEL["claim_weight"]))
    # the session file keeps w (table-wide and per player)
    tab.reset_document(built, [])
    _wait(window)
    assert "some players differ" in tab.role_label.text()
    window.set_details(True, remember=False)           # the Details view: the parameters
    assert "w = 0.2" in tab.role_label.text() and "some players differ" in tab.role_label.text()
    path = str(tmp_path / "w.json")
    tab.controller.document.save(path)
    assert read_session_file(path).setup.claim_weights().tolist() == pytest.approx([0.2, 0.5, 0.7, 0.2])


def test_default_setup_role_line_does_not_claim_players_differ(window):
    tab = _tab(window)
    assert "claims hint at the location" in tab.role_label.text()    # λ = 0.3 in words
    assert "differ" not in tab.role_label.text() and "λ" not in tab.role_label.text()
    window.set_details(True, remember=False)           # the Details view: the parameters
    assert "w = 0.05" in tab.role_label.text() and "differ" not in tab.role_label.text()


@pytest.mark.parametrize("weights, grid", [([1, 0, 0.5], True), ([2, 1, 0], True), ([0.5, 0, 0], True),
                                           ([0.62, 0.38, 0], False), ([1, 0.25, 0], False),
                                           ([3, 1, 0], False)])
def test_on_grid_and_entry_claim_weight(weights, grid):
    from engines.spyfall.model import entry_claim_weight, on_grid

    assert on_grid(weights) is grid
    assert entry_claim_weight(weights) == (None if grid else 1.0)
    assert entry_claim_weight(weights, 0.3) == 0.3


def test_typed_exact_claim_carries_claim_weight_one_grid_claim_does_not(window, qtbot):
    tab = _tab(window)  # the default model: w = 0.05 for worksheet claims
    setup = tab.controller.document.setup
    assert setup.claim_weight == pytest.approx(0.05)
    # grid: clicked on the worksheet
    _click_location(qtbot, tab, "Casino")
    _click_location(qtbot, tab, "Casino")
    _click_location(qtbot, tab, "Hotel")
    assert tab.weight_label.text() == "weight 0.05 (grid)"
    qtbot.mouseClick(tab.log_button, Qt.LeftButton)
    _wait(window)
    assert tab.controller.document.events[-1].to_json() == {"type": "claim", "player": "Ann",
                                                 "claim": {"Casino": 1, "Hotel": 0.5}}
    # typed with grid weights only: the same rule as clicks
    qtbot.keyClicks(tab.claim_edit, "Beach: 1, Casino: ½")
    assert tab.weight_label.text() == "weight 0.05 (grid)"
    qtbot.keyClick(tab.claim_edit, Qt.Key_Return)
    _wait(window)
    assert "claim_weight" not in tab.controller.document.events[-1].to_json()
    # typed with exact numbers: logged with claim_weight 1
    qtbot.keyClicks(tab.claim_edit, "Beach: 0.62, Casino: 0.38")
    assert tab.weight_label.text() == "weight 1 (exact numbers)"
    qtbot.keyClick(tab.claim_edit, Qt.Key_Return)
    _wait(window)
    assert tab.controller.document.events[-1].to_json() == {"type": "claim", "player": "Cy",
                                                 "claim": {"Beach": 0.62, "Casino": 0.38},
                                                 "claim_weight": 1.0}
    # an explicit w in the text wins, on or off the grid
    qtbot.keyClicks(tab.claim_edit, "Beach: 0.62, w=0.3")
    assert tab.weight_label.text() == "weight 0.3 (typed)"
    qtbot.keyClick(tab.claim_edit, Qt.Key_Return)
    _wait(window)
    assert tab.controller.document.events[-1].claim_weight == pytest.approx(0.3)
    assert [e.claim_weight for e in tab.controller.document.events] == [None, None, 1.0, 0.3]
    direct = _beliefs_equal_engine(tab)
    # the weights matter: reading the exact claim with the grid's w gives another posterior
    regridded = [spyfall.make_claim(setup, e.player, list(e.weights)) for e in tab.controller.document.events]
    other = spyfall.infer(setup, regridded)
    assert abs(other.spy["Cy"] - direct.spy["Cy"]) > 1e-3
    # a bad explicit w gets the engine's message and logs nothing
    messages = []
    tab.warn = lambda title, text: messages.append(text)
    tab.claim_edit.setText("Beach: 1, w=2")
    assert not tab.submit_claim()
    assert messages and "<= 1" in messages[-1] and len(tab.controller.document.events) == 4


def test_equilibrium_heat_map_shows_the_stored_matrix_and_marks_the_equilibrium(window, qtbot):
    import json

    from scipy.stats import binomtest

    from desktop.games.spyfall.equilibrium_view import RateRole, SupportRole
    from engines.core.resources import resource_path
    from engines.spyfall.equilibrium import solve_matrix_game

    with open(resource_path("spyfall", "equilibrium.json"), encoding="utf-8") as fh:
        stored = json.load(fh)
    tab = _tab(window)
    tab.pages.setCurrentWidget(tab.simulation)
    view = tab.simulation.equilibrium
    assert tab.simulation.results.currentWidget() is view  # shown before any tournament
    assert view.error is None
    m = view.model
    rate = np.array(stored["non_spy_win_rate"])
    assert (m.rowCount(), m.columnCount()) == rate.shape == (10, 12)
    shown = np.array([[m.data(m.index(i, j), RateRole) for j in range(12)] for i in range(10)])
    np.testing.assert_array_equal(shown, rate)
    assert m.data(m.index(3, 4)) == f"{100 * rate[3, 4]:.0f}"
    # the marked cells are the supports of the equilibrium of the shown matrix, solved again here
    x, y, value = solve_matrix_game(rate)
    marked = np.array([[m.data(m.index(i, j), SupportRole) for j in range(12)] for i in range(10)])
    np.testing.assert_array_equal(marked, np.outer(x > 0.005, y > 0.005))
    assert marked.sum() >= 1
    assert value == pytest.approx(stored["equilibrium"]["value"], abs=1e-4)  # rates stored to 4 digits
    i, j = map(int, np.argwhere(marked)[0])
    assert "★" in m.headerData(i, Qt.Vertical) and "★" in m.headerData(j, Qt.Horizontal)
    unplayed = int(np.argmin(x))
    assert "★" not in m.headerData(unplayed, Qt.Vertical)
    assert percent(value, 1) in view.summary.text()
    lam, st = stored["non_spy_strategies"][i]
    assert f"{st} λ {lam:g}" in view.summary.text()
    # a cell's tooltip carries its Wilson 95% interval (games per cell from the study)
    n = stored["games_per_cell"]
    ci = binomtest(round(rate[0, 5] * n), n).proportion_ci(method="wilson")
    tip = m.data(m.index(0, 5), Qt.ToolTipRole)
    assert f"{percent(ci.low, 1)} – {percent(ci.high, 1)}" in tip and f"of {n:,} games" in tip
    assert "nan" not in tip.lower()
    # readable at 1280×800: every column at least as wide as its label
    window.resize(1280, 800)
    QApplication.processEvents()
    header = view.view.horizontalHeader()
    assert min(header.sectionSize(c) for c in range(12)) >= header.fontMetrics().horizontalAdvance("dynamic")


def test_equilibrium_view_names_a_bad_study(qtbot, monkeypatch):
    from desktop.games.spyfall.equilibrium_view import EquilibriumView, read_study
    from engines.spyfall import equilibrium

    good = equilibrium.load_equilibrium()
    bad = dict(good, non_spy_win_rate=[[0.5, 0.5]])
    with pytest.raises(SessionFormatError) as err:
        read_study(bad)
    assert err.value.path == "$.non_spy_win_rate" and "10 × 12" in err.value.message
    monkeypatch.setattr(equilibrium, "load_equilibrium", lambda: bad)
    view = EquilibriumView()
    qtbot.addWidget(view)
    assert view.model.rowCount() == 0 and "$.non_spy_win_rate" in view.summary.text()

    def missing():
        raise FileNotFoundError("equilibrium.json")
    monkeypatch.setattr(equilibrium, "load_equilibrium", missing)
    assert not view.load() and "python -m engines.spyfall.equilibrium" in view.summary.text()


def test_recommendation_line_names_the_equilibrium_strategy_and_the_early_vote(window, qtbot,
                                                                              monkeypatch):
    from engines.spyfall import replication
    from engines.spyfall.equilibrium import early_vote_threshold, equilibrium_strategy

    window.set_details(True, remember=False)   # the study's names and figures: the Details view

    tab = _tab(window)
    setup = tab.controller.document.setup
    tab.log_event(spyfall.make_claim(setup, "Bob", {"Casino": 1}))
    _wait(window)
    rep = replication.replicated_strategies("non_spy")
    rec = spyfall.recommend(setup, tab.controller.document.events)
    if rep["seeds"] and not rep["replicated"]:
        # the stored replication does not settle: no single strategy is named, the robust
        # facts are
        # (in the line's tooltip: the line itself says it in four words)
        qtbot.waitUntil(lambda: "No single best strategy" in tab.advice.toolTip(), timeout=30000)
        assert rec.strategy == () and "Play" not in tab.advice.text()
        assert "no single best way to claim (hover for why)" in tab.advice.text()
        assert "replications" not in tab.advice.text()
        assert f"differs between {rep['seeds']} replications" in tab.advice.toolTip()
        if rep["never_dominated"]:
            assert "never dominated" in tab.advice.toolTip()
    assert not rec.call_vote and f"reaches {100 * early_vote_threshold():.0f}%" in tab.advice.text()
    # without a replication the stored single-seed equilibrium is named, marked as such (the
    # study is replaced in this process only: the recommendation is computed here too)
    from desktop.tabs import engine_process

    monkeypatch.setattr(engine_process, "enabled", False)
    monkeypatch.setattr(replication, "load_replication", lambda: None)
    tab.log_event(spyfall.make_claim(setup, "Cy", {"Beach": 1}))
    _wait(window)
    qtbot.waitUntil(lambda: "Play" in tab.advice.text(), timeout=30000)
    rec = spyfall.recommend(setup, tab.controller.document.events)
    mix = equilibrium_strategy("non_spy")
    assert [{k: m[k] for k in ("lambda", "strategy", "probability")} for m in rec.strategy] == mix
    top = mix[0]
    assert f"{top['strategy']} hide-reveal, λ = {top['lambda']:g}" in tab.advice.text()
    assert "one study, not replicated" in tab.advice.text()
    assert "equilibrium for non-spies" in tab.advice.text()
    window.set_details(False, remember=False)  # plain words: the same advice, no symbol
    assert "Claim so that you" in tab.advice.text() and "λ" not in tab.advice.text()
    assert "(the best play for non-spies)" in tab.advice.text()
    window.set_details(True, remember=False)
    # with exact claims (w = 1) Bob's lone Casino gives him away: call the vote now
    sharp = spyfall.Setup.from_json(dict(setup.to_json(), model={"beta": 5, "lambda": 0.7}), "$.setup")
    tab = _tab(window, sharp)
    for p, c in [("Bob", {"Casino": 1}), ("Cy", {"Beach": 1}), ("Dee", {"Beach": 1}), ("Eve", {"Beach": 1})]:
        tab.log_event(spyfall.make_claim(sharp, p, c))
    _wait(window)
    rec = spyfall.recommend(sharp, tab.controller.document.events)
    assert rec.call_vote and rec.accuse == "Bob" and rec.accuse_probability >= early_vote_threshold()
    qtbot.waitUntil(lambda: "Call the vote now" in tab.advice.text(), timeout=30000)
    assert "Accuse Bob" in tab.advice.text()
    # the spy's line names the spy's equilibrium
    spy_setup = spyfall.Setup.from_json(dict(setup.to_json(), my_role={"spy": True}), "$.setup")
    tab = _tab(window, spy_setup)
    tab.log_event(spyfall.make_claim(spy_setup, "Bob", {"Casino": 1}))
    _wait(window)
    qtbot.waitUntil(lambda: "equilibrium for the spy" in tab.advice.text(), timeout=30000)
    spy_top = equilibrium_strategy("spy")[0]
    assert f"λ = {spy_top['lambda']:g}" in tab.advice.text() and "Name the location" in tab.advice.text()
    assert "Call the vote" not in tab.advice.text()


def test_the_spy_pane_draws_a_moment_from_the_snapshot_alone(qapp):
    """The "Who is the spy?" pane is a presenter of the published snapshot: given a snapshot
    (its setup, posterior and moment) and no tab, document or timeline, it shows each player's
    public spy belief and names a past moment as such."""
    from desktop.games.spyfall.panes import SpyPane
    from desktop.tabs.snapshot import Snapshot, Status
    from engines.core.resources import resource_path
    from engines.core.schema import read_session_file

    data = read_session_file(str(resource_path("examples", "spyfall.json")))
    k = 2
    post = spyfall.infer(data.setup, data.events[:k])
    pane = SpyPane()
    pane.set_table(data.setup)
    pane.render(Snapshot(setup=data.setup, n=len(data.events), selected=k, k=k,
                         status=Status.READY, posterior=post))
    shown = pane.model.matrix()[:, 0]
    assert np.allclose(shown, [post.spy[p] for p in data.setup.players], atol=1e-12)
    assert f"as after entry {k} of {len(data.events)}" in pane.summary.text()
    leader = max(post.spy, key=post.spy.get)
    assert leader in pane.summary.text()
    pane.clear()
    assert pane.model.matrix() is None and "no belief" in pane.summary.text()


def test_the_spy_pane_keeps_its_height_when_the_beliefs_come(qapp):
    """The title says what the bars mean from the start and the summary keeps its room, so the
    pane is no taller once a moment's beliefs are drawn than before (a taller pane made the tab
    lay out and paint its panes again after every open of a log)."""
    from desktop.games.spyfall.panes import SpyPane
    from desktop.tabs.snapshot import Snapshot, Status
    from engines.core.resources import resource_path
    from engines.core.schema import read_session_file

    data = read_session_file(str(resource_path("examples", "spyfall.json")))
    post = spyfall.infer(data.setup, data.events)
    pane = SpyPane()
    pane.resize(300, 400)
    pane.set_table(data.setup)
    before = pane.minimumSizeHint().height()
    title = pane.title.text()
    pane.render(Snapshot(setup=data.setup, n=len(data.events), selected=len(data.events),
                         k=len(data.events), status=Status.READY, posterior=post))
    assert pane.summary.text() and pane.title.text() == title
    assert pane.summary.heightForWidth(pane.width()) <= pane.summary.minimumHeight()
    assert pane.minimumSizeHint().height() == before


def test_the_spy_table_keeps_its_minimum_width_when_the_contributions_come(qapp):
    """The row labels' room for each player's contribution is kept before the beliefs bring it,
    so the pane's minimum width (what decides whether the side panes fold) does not jump at
    every open of a log; in the Details view as in the plain one."""
    from desktop.games.spyfall.panes import SpyPane
    from desktop.tabs.wording import Wording
    from engines.core.resources import resource_path
    from engines.core.schema import read_session_file

    data = read_session_file(str(resource_path("examples", "spyfall.json")))
    post = spyfall.infer(data.setup, data.events)
    pane = SpyPane()
    for wording in (Wording(), Wording(details=True)):
        pane.set_table(data.setup)
        pane.model._wording = wording
        before = pane.view.minimumSizeHint().width()
        pane.model.set_contributions(post.contribution_bits, wording)
        after = pane.view.minimumSizeHint().width()
        # never wider (a fold), at most a digit narrower
        assert pane.model._bits and 0 <= before - after <= 12, (wording, before, after)
        assert after > pane.view.verticalHeader().fontMetrics().horizontalAdvance("  ·  ")


def test_the_plot_series_are_every_prefix_spy_beliefs(window, monkeypatch):
    """The belief plot's series: each player's public spy probability after every prefix, as
    the timeline's summaries hold them (None where a prefix has none), and the information
    plot's bits after each claim. From SERIES_JOB_PREFIXES prefixes on (here 3) they are read
    from the posteriors in a pool thread beside the render, before the plot is drawn."""
    import json
    import threading

    import desktop.games.spyfall.tab as spytab
    from engines.core.resources import resource_path
    from engines.core.schema import parse_session

    threads = []
    read = spytab.spy_series
    monkeypatch.setattr(spytab, "spy_series", lambda players, posts, **kw: (
        len(posts) >= 3 and threads.append(threading.current_thread())) or read(players, posts, **kw))
    monkeypatch.setattr(spytab, "SERIES_JOB_PREFIXES", 3)
    data = parse_session(json.loads(resource_path("examples", "spyfall.json").read_text(encoding="utf-8")))
    tab = _tab(window)
    tab.reset_document(data.setup, list(data.events))
    _wait(window)
    snap = tab.controller.snapshot
    assert threads and threading.main_thread() not in threads
    assert tab._prepared_spy_series(snap.timeline) is not None
    series = tab.plot_series(snap)      # float arrays, NaN where a prefix has none
    summaries = snap.timeline.summaries
    assert set(series) == set(data.setup.players)
    for p in data.setup.players:
        shown = [None if x != x else x for x in series[p].tolist()]
        assert shown == [None if s is None else s[f"spy:{p}"] for s in summaries]
        assert tab.plot.series()[p] == shown
    assert len(summaries) == len(data.events) + 1 and any(v is not None for v in shown)


def test_the_recommendation_line_keeps_a_claims_small_figures_and_names_as_text(qapp):
    """The mean claim is plain text inside a rich-text line: "<1%" and a location named with
    "&" or "<" show as written, not as markup (a 200-location claim's "≤ <1%" swallowed the rest
    of the line)."""
    from PySide6.QtGui import QTextDocument

    from desktop.games.spyfall.panes import recommendation_text
    from engines.spyfall.recommend import Recommendation

    data = spyfall.Setup.from_json({"players": ["Ann", "Bob", "Cy"], "me": "Ann",
                                    "locations": ["R&D <Lab>", "Beach"] + [f"L{i}" for i in range(198)],
                                    "my_role": {"location": "Beach"}}, "$")
    claim = {loc: 0.002 for loc in data.locations}
    claim["R&D <Lab>"] = 0.6
    rec = Recommendation(claim=claim, accuse=None, accuse_probability=0.0, name_location=None,
                         location_probability=0.0)
    doc = QTextDocument()
    doc.setHtml(recommendation_text(rec, data))
    shown = doc.toPlainText()
    assert "R&D <Lab> 60%" in shown and "every other location <1%" in shown and "≤ <" not in shown


def test_the_tournament_plots_are_made_when_first_needed(window, qtbot):
    """The Simulation page's two plots (11-13 ms each) are not made with the tab: the results
    page opened makes them once; results shown before make them too (the test above)."""
    panel = _tab(window).simulation
    assert not panel._plots_made and not hasattr(panel, "ig_plot")
    panel.results.setCurrentWidget(panel.equilibrium)
    assert not panel._plots_made
    panel.results.setCurrentWidget(panel.tournament_page)
    assert panel._plots_made and panel.tournament_page.count() == 3
    plot = panel.ig_plot
    panel.results.setCurrentWidget(panel.equilibrium)
    panel.results.setCurrentWidget(panel.tournament_page)
    assert panel.ig_plot is plot and panel.tournament_page.count() == 3
