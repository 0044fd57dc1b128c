"""The Cluedo tab's "Who is close?" strip, the accuse/wait advice and the plot over the game:
the figures on screen are the engine's (engines.cluedo.opponents / accuse), browsing the
history shows that entry's figures, and a newer request never leaves stale values."""
import json

import pytest
from window_idle import wait_idle

import desktop.games.cluedo.opponents as opp_mod
from engines import cluedo
from engines.cluedo.accuse import accusation_advice, best_triple, decide
from engines.cluedo.opponents import MIN_INTERVAL_SAMPLES, iter_opponent_knowledge
from engines.core.resources import resource_path

# A 3-player classic game where the envelope is Professor Plum, Spanner, Study. I hold six cards,
# Ann showed me all six of hers; then Ann suggested the envelope's three cards and Bob and I
# passed: Ann, who holds none of them, now knows the envelope (and so do I); Bob cannot tell
# which of them Ann holds.
ME = ["Miss Scarlett", "Colonel Mustard", "Candlestick", "Dagger", "Kitchen", "Ballroom"]
ANN = ["Mrs White", "Reverend Green", "Lead Piping", "Revolver", "Conservatory", "Dining Room"]
ENVELOPE = ["Professor Plum", "Spanner", "Study"]


def _events(setup, with_suggestion=True):
    raw = [{"type": "hand", "player": "Me", "cards": ME}]
    raw += [{"type": "shown", "player": "Ann", "card": c} for c in ANN]
    if with_suggestion:
        raw.append({"type": "suggestion", "suggester": "Ann", "cards": ENVELOPE,
                    "passed": ["Bob", "Me"], "refuter": None})
    return [cluedo.event_from_json(e, setup, "$.events[0]") for e in raw]


@pytest.fixture
def table():
    return cluedo.Setup.from_json({"edition": "cluedo-uk", "players": ["Me", "Ann", "Bob"],
                                   "me": "Me"}, "$.setup")


def _tab(window, setup, events):
    window.select_game("cluedo")
    tab = window.tab_for("cluedo")
    tab.reset_document(setup, events)
    assert wait_idle(window, 60)
    return tab


def _plain(text):
    return text.replace("\u00a0", " ")


def _texts(tab):
    return {name: (_plain(value), bits) for name, value, bits in tab.strip.row_texts()}


def test_opponent_who_knows_is_shown_exact_with_the_alert(window, table):
    tab = _tab(window, table, _events(table))
    rows = {r.name: r for r in tab.strip.rows()}
    assert set(rows) == {"Ann", "Bob"}
    assert rows["Ann"].p == pytest.approx(1.0) and rows["Ann"].exact
    assert rows["Bob"].p == pytest.approx(0.0) and rows["Bob"].exact
    assert _texts(tab)["Ann"] == ("100 %", "")          # plain words: the chance alone
    assert _texts(tab)["Bob"][0] == "0 %"
    window.set_details(True, remember=False)             # the Details view: exact, and bits
    assert _texts(tab)["Ann"] == ("100 % exact", "0.0 bits")
    assert _texts(tab)["Bob"][0] == "0 % exact"
    window.set_details(False, remember=False)
    # Bob still hesitates between 2 x 2 x 2 envelopes... at least 1 bit left
    assert rows["Bob"].bits >= 1.0
    alert = _plain(tab.advice_panel.alert_text())
    assert "Ann" in alert and "Bob" not in alert and "50 %" in alert
    assert tab.advice_panel.alert.isVisible()
    assert "⚠" in tab.side_tabs.tabText(tab.side_tabs.indexOf(tab.who_page))
    # the envelope is certain for me too: the engine's rule says accuse now
    assert tab.advice_panel.verdict_text() == "Accuse now"
    assert "Professor Plum, Spanner, Study is right for certain" in \
        _plain(tab.advice_panel.detail.text())
    window.set_details(True, remember=False)             # the Details view: the figure
    assert "Professor Plum, Spanner, Study: right with 100 %" in _plain(tab.advice_panel.detail.text())
    window.set_details(False, remember=False)


def test_browsing_an_earlier_entry_shows_its_figures(window, table):
    events = _events(table)
    tab = _tab(window, table, events)
    tab.history.select_event(len(events) - 2)          # before Ann's suggestion
    assert wait_idle(window, 60)
    assert tab.view_index == len(events) - 1
    rows = {r.name: r for r in tab.strip.rows()}
    assert rows["Ann"].p == pytest.approx(0.0) and rows["Ann"].exact
    assert tab.advice_panel.alert_text() == ""
    assert tab.who_title.text().startswith(f"As after entry {len(events) - 1} of {len(events)}")
    _, p = best_triple(table, events[:-1])
    assert p == pytest.approx(1 / 20)                 # 2 suspects x 2 weapons x 5 rooms
    assert tab.advice_panel.verdict_text() == decide(p, tab.opponents.cached(
        len(events) - 1).advice.p_opponent_knows_before_my_turn).capitalize()
    assert tab.advice_panel.detail.text().startswith(f"As after entry {len(events) - 1}: ")
    # the two panes' two questions in the same words: "now" there, "before your next turn" here
    assert "name the envelope now?" in tab.who_title.text()
    assert "before your next turn" in tab.who_title.text()
    assert "an opponent names the envelope before your next turn" in \
        _plain(tab.advice_panel.detail.text())
    window.set_details(True, remember=False)             # the Details view says it with figures
    assert "Before your next turn, an opponent can name the envelope" in \
        _plain(tab.advice_panel.detail.text())
    window.set_details(False, remember=False)
    assert tab.knows_plot.marker.isVisible() and tab.knows_plot.marker.value() == len(events) - 1
    tab.history.select_live()
    assert wait_idle(window, 60)
    assert {r.name: r.p for r in tab.strip.rows()}["Ann"] == pytest.approx(1.0)


def test_advice_is_the_engines(window, monkeypatch):
    """The example session (4 players, sampled): the advice on screen is what the engine
    decides for the same estimate, and the estimate is the engine's."""
    # stop at the first estimate with an interval (the budget never stops it short of one)
    monkeypatch.setattr(opp_mod, "LIVE_BUDGET_SECONDS", 0.01)
    data = json.loads(open(resource_path("examples/cluedo.json"), encoding="utf-8").read())
    setup = cluedo.Setup.from_json(data["setup"], "$.setup")
    events = [cluedo.event_from_json(e, setup, "$.events") for e in data["events"]]
    window.select_game("cluedo")
    seen = []
    window.tab_for("cluedo").opponents.viewReady.connect(seen.append)
    tab = _tab(window, setup, events)
    # the first estimate is on screen before the best triple is counted, then the advice
    mine = [v for v in seen if v.k == len(events)]
    assert mine[0].advice is None and not mine[0].complete
    assert mine[-1].complete and mine[-1].advice is not None
    view = tab.opponents.cached(len(events))
    assert view is not None and view.complete and view.advice is not None
    engine = accusation_advice(setup, events, opponents=view.estimate)
    assert view.advice.triple == engine.triple
    assert view.advice.p_correct == pytest.approx(engine.p_correct)
    assert view.advice.advice == engine.advice == decide(engine.p_correct,
                                                         engine.p_opponent_knows_before_my_turn)
    assert tab.advice_panel.verdict_text() == {"accuse now": "Accuse now", "wait": "Wait"}[engine.advice]
    assert f"{100 * engine.p_correct:.0f} %" in _plain(tab.advice_panel.detail.text())
    # the same seed and sample size give the engine's own figures
    first = next(e for e in iter_opponent_knowledge(setup, events, lookahead=True)
                 if e.final or e.samples >= MIN_INTERVAL_SAMPLES)
    assert view.estimate.p_any_next_interval is not None
    assert view.samples == first.samples
    assert view.estimate.p_any_knows_next == pytest.approx(first.p_any_knows_next)
    for name, k in first.opponents.items():
        row = {r.name: r for r in tab.strip.rows()}[name]
        assert row.p == pytest.approx(k.p_knows_envelope)
        assert row.standard_error == pytest.approx(k.standard_error)
        assert row.bits == pytest.approx(k.envelope_entropy_bits)


def test_newest_request_wins_no_stale_values(window, table):
    events = _events(table, with_suggestion=False)
    tab = _tab(window, table, events)
    seen = []
    tab.opponents.viewReady.connect(lambda v: seen.append(v.k))
    suggestion = _events(table)[-1]
    tab.log_event(suggestion)          # Ann would know...
    tab.controller.document.undo_stack.undo()     # ...but the entry is taken back at once
    assert wait_idle(window, 60)
    assert len(tab.controller.document.events) == len(events)
    assert all(k == len(events) for k in seen)
    assert {r.name: r.p for r in tab.strip.rows()}["Ann"] == pytest.approx(0.0)
    assert tab.advice_panel.alert_text() == ""
    # and forward again: the new entry's figures, not the cached ones of the shorter log
    tab.controller.document.undo_stack.redo()
    assert wait_idle(window, 60)
    assert {r.name: r.p for r in tab.strip.rows()}["Ann"] == pytest.approx(1.0)


def test_plot_has_one_curve_per_opponent_over_every_entry(window, table, qtbot):
    events = _events(table)
    tab = _tab(window, table, events)
    qtbot.waitUntil(lambda: not tab.opponents.is_history_busy(), timeout=60_000)
    tab._update_knows_plot()
    series = tab.knows_plot.series()
    assert list(series) == ["Ann", "Bob"]
    for name, curve in tab.knows_plot._curves.items():
        xs, ys = curve.getData()
        assert len(xs) == len(events) + 1, name
    assert series["Ann"][-1] == pytest.approx(1.0)
    assert series["Ann"][:-1] == pytest.approx([0.0] * len(events))   # nobody knew before
    assert series["Bob"] == pytest.approx([0.0] * (len(events) + 1))
    # a plot-only estimate is the engine's for that prefix
    view = tab.opponents.cached(1)
    assert view is not None
    assert view.estimate.opponents["Ann"].p_knows_envelope == series["Ann"][1]


def test_impossible_log_clears_the_figures(window, table):
    events = _events(table)
    bad = cluedo.event_from_json({"type": "shown", "player": "Bob", "card": "Mrs White"}, table,
                                 "$.events")
    tab = _tab(window, table, events + [bad])
    assert tab.strip.rows() == []
    assert "impossible" in tab.strip.message()
    assert tab.advice_panel.verdict_text() == ""
    assert tab.knows_plot.series() == {}


def test_names_are_plain_text(window):
    """An entity in a name ("&amp;" would read "&" as rich text) is shown as typed."""
    from PySide6.QtCore import Qt

    setup = cluedo.Setup.from_json({"edition": "cluedo-uk", "players": ["Me", "Ann&amp;Co", "Bob"],
                                    "me": "Me"}, "$.setup")
    tab = _tab(window, setup, [])
    assert [name for name, _, _ in tab.strip.row_texts()] == ["Ann&amp;Co", "Bob"]
    for name, *_ in tab.strip._rows:
        assert name.textFormat() == Qt.PlainText
    assert "Ann&amp;amp;Co" in tab.strip._rows[0][0].toolTip()     # escaped in the tooltip


def test_cache_keeps_the_prefixes_a_changed_log_still_shares(qapp, table):
    """Per-prefix cache: an entry for the first k events survives while those k events stay
    the same (an append keeps all, an edit drops the entries after it, a new setup drops all)."""
    from types import SimpleNamespace

    from desktop.games.cluedo.estimates import OpponentsView
    from desktop.games.cluedo.opponents import OpponentsTracker
    from desktop.tabs.jobs import JobRunner

    tracker = OpponentsTracker(JobRunner(), JobRunner())
    events = _events(table)
    tracker.sync(table, events)
    for k in range(len(events) + 1):
        tracker._store(OpponentsView(k, SimpleNamespace(exact=True, samples=1, opponents={}), None, True))
    extra = cluedo.event_from_json({"type": "lacks", "player": "Bob", "card": "Rope"}, table, "$")
    assert tracker.sync(table, events + [extra])                 # appended: every prefix kept
    assert all(tracker.cached(k) is not None for k in range(len(events) + 1))
    edited = list(events)
    edited[3] = cluedo.event_from_json({"type": "lacks", "player": "Bob", "card": "Rope"}, table, "$")
    assert tracker.sync(table, edited)                            # entry 4 changed
    assert [k for k in range(len(events) + 1) if tracker.cached(k) is not None] == [0, 1, 2, 3]
    assert not tracker.sync(table, edited)                        # nothing new
    other = cluedo.Setup.from_json({"edition": "cluedo-uk", "players": ["Me", "Ann", "Cy"],
                                    "me": "Me"}, "$.setup")
    tracker.sync(other, [])
    assert tracker.cached(0) is None
    tracker.shutdown()


def test_the_rule_is_stated_in_the_advice_tooltip(window, table):
    tab = _tab(window, table, _events(table))
    tip = tab.advice_panel.verdict.toolTip()
    assert "Accuse now when your best guess is at least as likely to be right" in tip
    assert "before your next turn" in tip
    assert tab.advice_panel.toolTip() == tip == tab.advice_panel.detail.toolTip()
    window.set_details(True, remember=False)             # the rule with its symbols
    tip = tab.advice_panel.verdict.toolTip()
    assert "Accuse now if and only if p_correct ≥ 1 − p_opponent_knows_before_my_turn" in tip
    assert tab.advice_panel.toolTip() == tip == tab.advice_panel.detail.toolTip()


def test_a_hidden_tab_computes_nothing_until_shown(window, table):
    window.select_game("inkognito")
    tab = window.tab_for("cluedo")
    tab.reset_document(table, _events(table))
    assert wait_idle(window, 60)
    assert tab.opponents.cached(len(tab.controller.document.events)) is None
    window.select_game("cluedo")
    assert wait_idle(window, 60)
    assert {r.name: r.p for r in tab.strip.rows()}["Ann"] == pytest.approx(1.0)


def test_advice_being_recomputed_stays_in_place_greyed(qapp):
    """While new advice is computed the panel keeps the old advice's lines, greyed and not
    reported as the advice (no shrink to one grey line and back at every entry); with no
    advice on screen it says what is being computed; new advice replaces the grey."""
    from desktop.games.cluedo.opponents_view import AdvicePanel
    from desktop.shell.appearance import muted_css

    panel = AdvicePanel("the rule")
    panel.resize(600, 200)
    panel.set_stale("computing…")                        # nothing shown yet: a pending line
    assert panel.verdict.isHidden() and panel.detail.text() == "computing…"
    assert not panel.is_stale()
    detail = "Plum, Rope, Hall: right with 40 %. An opponent names the envelope first: 10 %. " * 3
    panel.set_advice("Wait", detail, False)
    panel.set_alert("⚠ Ann probably knows the envelope.")
    lines = panel.sizeHint().height(), panel.detail.heightForWidth(300)
    panel.set_stale("computing what the opponents know…")
    assert panel.is_stale() and not panel.verdict.isHidden() and not panel.alert.isHidden()
    assert panel.detail.text() == detail and panel.verdict.text() == "Wait"
    assert (panel.sizeHint().height(), panel.detail.heightForWidth(300)) == lines
    assert panel.verdict_text() == "" and panel.alert_text() == ""
    for label in (panel.verdict, panel.detail, panel.alert):
        assert muted_css() in label.styleSheet()
    assert panel.toolTip().startswith("computing what the opponents know…")
    assert panel.toolTip().endswith("the rule")
    panel.set_advice("Accuse now", "Plum, Rope, Hall: right with 100 %.", True)
    assert not panel.is_stale() and panel.verdict_text() == "Accuse now"
    assert muted_css() not in panel.verdict.styleSheet() and panel.toolTip() == "the rule"
    panel.set_alert("")
    panel.set_stale("again")
    assert panel.alert.isHidden() and panel.alert_text() == ""


def test_the_figures_say_which_suggestion_model_they_assume(window):
    """With a suggestion model in the setup (Ann suggests what she lacks), the opponents'
    figures and the advice are the weighted posterior's and say so in words; without one they
    say nothing about a model (the test above: the plain figures)."""
    setup = cluedo.Setup.from_json({"edition": "cluedo-uk", "players": ["Me", "Ann", "Bob"], "me": "Me",
                                    "model": {"suggestion_trust": {"Ann": 0.25}}}, "$.setup")
    # Ann named three cards nobody else holds: hers or the envelope's, likelier the envelope's
    # when she suggests what she lacks (31 % against 4.5 % for the plain posterior)
    events = [cluedo.event_from_json(e, setup, "$.events")
              for e in ({"type": "hand", "player": "Me", "cards": ME},
                        {"type": "suggestion", "suggester": "Ann", "cards": ENVELOPE,
                         "passed": ["Bob", "Me"], "refuter": None})]
    tab = _tab(window, setup, events)
    # in words by default; the parameter only in the Details view
    assert "· assuming Ann suggests what they lack" in tab.who_title.text() and "ρ" not in tab.who_title.text()
    assert "(Assuming Ann suggests what they lack.)" in _plain(tab.advice_panel.detail.text())
    window.set_details(True, remember=False)
    assert wait_idle(window, 60)
    assert "assuming Ann suggests what they lack (ρ 0.25)" in tab.who_title.text()
    assert "(Assuming Ann suggests what they lack (ρ 0.25).)" in _plain(tab.advice_panel.detail.text())
    window.set_details(False, remember=False)
    view = tab.opponents.cached(len(events))
    assert view.estimate.rhos == {"Ann": 0.25}
    _, p = best_triple(setup, events)
    _, p_plain = best_triple(setup, events, rhos={})
    assert view.advice.p_correct == pytest.approx(p) and abs(p - p_plain) > 1e-3


def _long_events(setup, repeats):
    """The 3-player log above with its last suggestion made ``repeats`` times more: a plot
    back-fill of that many prefixes, seconds of work."""
    events = _events(setup)
    return events + [events[-1]] * repeats


def test_a_hidden_tab_pauses_its_back_fill_and_a_new_log_stops_the_old_one(window, table, qtbot):
    tab = _tab(window, table, _long_events(table, 60))
    qtbot.waitUntil(tab.opponents.is_history_busy, timeout=60_000)
    # another tab chosen: the back-fill stops (its job notices at its next poll)...
    window.select_game("inkognito")
    assert not tab.opponents.is_history_busy()
    qtbot.waitUntil(lambda: tab.opponents.running() == 0, timeout=10_000)
    done = len(tab.opponents.series()["Ann"]) - tab.opponents.series()["Ann"].count(None)
    # ...and goes on from where it was when the tab is shown again
    window.select_game("cluedo")
    qtbot.waitUntil(tab.opponents.is_history_busy, timeout=60_000)
    assert len(tab.opponents.series()["Ann"]) - tab.opponents.series()["Ann"].count(None) >= done
    # another log opened, then the tab hidden before its beliefs arrive: the old log's
    # back-fill does not run on behind the tab on screen
    tab.reset_document(table, _events(table, with_suggestion=False))
    window.select_game("inkognito")
    qtbot.waitUntil(lambda: tab.opponents.running() == 0, timeout=10_000)
    assert not tab.opponents.is_history_busy()


def test_the_who_is_close_page_shows_its_whole_plot_at_1280x800(window, qtbot):
    """At 1280×800 the "Who is close?" page fits: no scroll bar, and the plot of each
    opponent's chance over the game is in view with its curves, not its empty top (the page
    was as tall as the plot's preferred 520 px and scrolled)."""
    from window_idle import example_tab

    tab, _session = example_tab(window, "cluedo")
    tab.side_tabs.setCurrentWidget(tab.who_page)
    # the three curves with their first values (the back-fill runs in the background and
    # comes later on a loaded machine)
    qtbot.waitUntil(lambda: len(tab.knows_plot.series()) == 3 and all(
        any(v is not None for v in vals) for vals in tab.knows_plot.series().values()),
        timeout=30000)
    qtbot.wait(50)
    pane = tab.who_pane
    assert pane.verticalScrollBar().maximum() == 0
    plot = tab.knows_plot
    assert plot.minimumSizeHint().height() <= plot.height() <= pane.viewport().height()
    assert all(any(v is not None for v in vals) for vals in plot.series().values())


def test_with_sample_budgets_the_estimate_is_the_same_on_a_slow_machine(table, monkeypatch):
    """The command line's picture modes give up the wall-clock budgets
    (desktop.shell.process.use_sample_budgets): the shown prefix's estimate on a machine whose
    every clock reading is 10 s after the last is then the estimate bounded by its samples
    alone; with the app's 4 s budget the same slow machine stops it after fewer deals."""
    import math

    from desktop.games.cluedo import estimates
    from desktop.shell import process

    raw = [{"type": "hand", "player": "Me", "cards": ME},
           {"type": "suggestion", "suggester": "Ann", "cards": ENVELOPE, "passed": [],
            "refuter": "Bob"}]
    events = tuple(cluedo.event_from_json(e, table, "$.events[0]") for e in raw)

    def estimate():
        view = estimates.refine_shown_prefix(
            table, events, len(events), max_samples=4096,    # the app's cap (the tests' is 64)
            budget_seconds=process.budget_seconds(opp_mod.LIVE_BUDGET_SECONDS))
        a = view.advice
        return view.estimate.samples, a.p_opponent_knows_before_my_turn, a.standard_error, a.advice

    monkeypatch.setattr(process, "_sample_budgets_only", True)
    assert process.budget_seconds(opp_mod.LIVE_BUDGET_SECONDS) == math.inf
    idle = estimate()

    class SlowClock:
        def __init__(self):
            self.now = 0.0

        def perf_counter(self):
            self.now += 10.0
            return self.now

    monkeypatch.setattr(estimates, "time", SlowClock())
    assert estimate() == idle
    monkeypatch.setattr(process, "_sample_budgets_only", False)
    slow = estimate()
    assert slow[0] < idle[0]


def test_the_screenshot_mode_gives_up_the_wall_clock_budgets(qapp, monkeypatch, tmp_path):
    """``--screenshot`` turns the sample budgets on before it opens the file."""
    from desktop.shell import headless, process

    monkeypatch.setattr(process, "_sample_budgets_only", False)
    seen = []

    class Stop(Exception):
        pass

    class Window:
        def open_path(self, path, ask):
            seen.append(process.budget_seconds(1.0))
            raise Stop

    class Args:
        session = str(tmp_path / "game.json")

    with pytest.raises(Stop):
        headless.screenshot(qapp, Window(), Args())
    assert seen == [float("inf")]


def test_who_is_close_s_jobs_take_the_process_s_budgets(table, monkeypatch):
    """Both of who is close's jobs hand their computation the process's budget: the app's
    seconds, or none once the sample budgets are on."""
    import threading

    from desktop.shell import process
    from desktop.tabs import engine_process

    asked = []
    monkeypatch.setattr(engine_process, "run",
                        lambda task, fn, *args, **kwargs: asked.append(kwargs["budget_seconds"]))
    gate = threading.Event()
    gate.set()

    class Task:
        def __call__(self):
            return False

        def publish(self, value):
            pass

    for only_samples in (False, True):
        monkeypatch.setattr(process, "_sample_budgets_only", only_samples)
        opp_mod.shown_prefix_job(table, (), 0, gate, Task())
        opp_mod.history_job(table, (), (0,), Task())
    inf = float("inf")
    assert asked == [opp_mod.LIVE_BUDGET_SECONDS, opp_mod.HISTORY_BUDGET_SECONDS, inf, inf]
