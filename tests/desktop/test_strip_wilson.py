"""The Cluedo strip shows a sampled probability with its 95 % Wilson interval and the number of
sampled deals (as the command line's ``interval_95``), never "± a standard error"."""
from __future__ import annotations

import json

import pytest
from scipy.stats import binomtest

from desktop.games.cluedo.opponents_view import KnowsRow, OpponentsStrip
from desktop.games.cluedo.panes import knows_rows
from desktop.tabs.wording import DETAILS
from engines import cluedo
from engines.cluedo.opponents import iter_opponent_knowledge
from engines.core.resources import resource_path


def _plain(text):
    return text.replace("\u00a0", " ")


def test_sampled_row_shows_the_wilson_interval_and_the_deals(qtbot):
    strip = OpponentsStrip(threshold=0.5)
    qtbot.addWidget(strip)
    k, n = 20, 64
    ci = binomtest(k, n).proportion_ci(method="wilson")
    rows = [KnowsRow("Ann", k / n, 0.058, False, 2.0, 0.1, n, False, (ci.low, ci.high)),
            KnowsRow("Bob", 0.25, 0.1, False, 3.0, 0.1, 16, False, None),
            KnowsRow("Cy", 1.0, 0.0, True, 0.0, 0.0, 40, False, None)]
    strip.set_rows(rows)                                    # plain words: "about" an estimate
    texts = {name: _plain(v) for name, v, _ in strip.row_texts()}
    assert texts == {"Ann": "about 31 %", "Bob": "about 25 %", "Cy": "100 %"}
    assert "Wilson" not in strip._rows[0][0].toolTip()
    strip.set_rows(rows, DETAILS)                           # the Details view: the interval
    texts = {name: _plain(v) for name, v, _ in strip.row_texts()}
    assert texts["Ann"] == f"31 % ({100 * ci.low:.0f}–{100 * ci.high:.0f}, 64 deals)"
    assert texts["Ann"] == "31 % (21–43, 64 deals)"        # Wilson, not p ± 2 SE (20–43)
    assert texts["Bob"] == "≈ 25 % (16 deals)"               # too few deals for an interval
    assert texts["Cy"] == "100 % exact"
    assert not any("±" in t for t in texts.values())
    bar = strip._rows[0][1]
    assert (bar.lo, bar.hi) == pytest.approx((ci.low, ci.high))
    assert "95 % Wilson interval" in strip._rows[0][0].toolTip()


def test_the_tab_rows_carry_the_engines_interval():
    data = json.loads(open(resource_path("examples/cluedo.json"), encoding="utf-8").read())
    setup = cluedo.Setup.from_json(data["setup"], "$.setup")
    events = [cluedo.event_from_json(e, setup, "$.events") for e in data["events"]]
    est = list(iter_opponent_knowledge(setup, events, max_samples=64))[-1]
    assert not est.exact and est.samples == 64
    rows = knows_rows(est)
    assert [r.name for r in rows] == list(est.opponents)
    for row in rows:
        o = est.opponents[row.name]
        hits = round(o.p_knows_envelope * o.samples)
        ci = binomtest(hits, o.samples).proportion_ci(method="wilson")
        assert row.interval == pytest.approx((ci.low, ci.high), abs=1e-8)


def test_the_who_is_close_pane_draws_a_moment_from_the_snapshot_alone(qapp):
    """The "Who is close?" pane draws the moment it is given — the snapshot's moment, log length
    and wording, and the opponents' estimate of that moment — with no tab or document: a
    bar per opponent, the moment named, and "exact" or "estimated" as the figures were had."""
    from desktop.games.cluedo.estimates import OpponentsView
    from desktop.games.cluedo.panes import WhoIsClosePane
    from desktop.tabs.snapshot import Snapshot, Status

    data = json.loads(open(resource_path("examples/cluedo.json"), encoding="utf-8").read())
    setup = cluedo.Setup.from_json(data["setup"], "$.setup")
    events = [cluedo.event_from_json(e, setup, "$.events") for e in data["events"]]
    k = len(events) - 1
    est = list(iter_opponent_knowledge(setup, events[:k], max_samples=64))[-1]
    pane = WhoIsClosePane()
    snap = Snapshot(setup=setup, n=len(events), selected=k, k=k, status=Status.READY)
    pane.render(snap, OpponentsView(k, est, None, True), refining=False)
    assert [name for name, _, _ in pane.strip.row_texts()] == list(est.opponents)
    assert pane.title.text().startswith(f"As after entry {k} of {len(events)}")
    assert ("exact" if est.exact else "estimated") in pane.title.text()
    pane.show_computing(snap, k)
    assert "computing" in pane.title.text()
    pane.clear("Not while the log is impossible")
    assert pane.strip.rows() == [] and pane.title.text() == ""
