"""A Cluedo recommendation's cost is estimated before it starts (engines/cluedo/cost.py, in
work units: a function of the input, never of the machine) and either fits the budget —
made cheaper deterministically where it can be — or is refused at once naming the field and the
estimate: custom decks of 40 cards per category (the audit measured 42 s); every built-in
edition is answered, Master Detective with 10 players (11-15 s before) by leaving out what does
not fit, with notes; an input just under the budget still runs."""
from __future__ import annotations

import importlib
import time

import pytest

import engines.cluedo.cost as cost
from engines.cluedo.model import Setup
from engines.cluedo.opponents import MIN_INTERVAL_SAMPLES, iter_opponent_knowledge
from engines.core.errors import SessionFormatError

# CPU-time bounds: the tests that measure CPU run on one pytest-xdist worker, one at a time,
# never beside each other (two memory-bound folds on two cores slow each other down).
pytestmark = pytest.mark.xdist_group("cpu_time")

rec = importlib.import_module("engines.cluedo.recommend")


def _setup(players, edition=None, per_category=None) -> Setup:
    obj = {"players": players, "me": players[0]}
    if edition:
        obj["edition"] = edition
    else:
        obj["categories"] = {c: [f"{c[0].upper()}{i}" for i in range(per_category)]
                             for c in ("suspect", "weapon", "room")}
    return Setup.from_json(obj, "$.setup")


PLAYERS = [f"P{i}" for i in range(10)]


def test_forty_cards_per_category_are_refused_at_once_naming_the_deck():
    t0 = time.process_time()
    with pytest.raises(SessionFormatError) as exc:
        rec.recommend_for_cli(_setup(PLAYERS[:3], per_category=40), ())
    assert time.process_time() - t0 < 8.0            # the first count and the estimate only
    assert exc.value.path == "$.setup.categories"
    assert "work units" in exc.value.message and "64,000 suggestions" in exc.value.message


def test_master_detective_with_ten_players_is_answered_leaving_out_what_does_not_fit():
    setup = _setup(PLAYERS, edition="clue-master-detective")
    t0 = time.process_time()
    out = rec.recommend_for_cli(setup, ()).to_json()
    assert time.process_time() - t0 < 8.0
    # the ranking from sampled deals, every one of the 960 suggestions; no exact count, no
    # opponents' figures, no most probable envelope: each said in the notes
    assert len(out["suggestions"]) == 10 * 8 * 12 and out["samples"] >= cost.MIN_RANK_SAMPLES
    assert not any(s["exact"] for s in out["suggestions"])
    assert out["opponents"] is None and out["accusation"]["triple"] is None
    notes = " ".join(out["notes"])
    assert "opponents know is left out" in notes and "most probable envelope is left out" in notes
    assert "0 of the best suggestions are counted exactly" in notes
    # the app's opponents' figures: the first estimate alone is over the budget
    with pytest.raises(SessionFormatError) as exc2:
        next(iter(iter_opponent_knowledge(setup, (), lookahead=True)))
    assert exc2.value.path == "$.setup.players"


def _planned(monkeypatch, setup, **kw):
    seen = []
    real = cost.plan_recommendation

    def spy(**args):
        plan = real(**args)
        seen.append((args, plan))
        return plan

    monkeypatch.setattr(cost, "plan_recommendation", spy)
    out = rec.recommend_for_cli(setup, (), **kw)
    monkeypatch.setattr(cost, "plan_recommendation", real)
    return out, seen[-1]


def test_just_under_the_budget_runs_and_just_over_is_refused(monkeypatch):
    setup = _setup(PLAYERS[:3], per_category=3)
    out, (args, plan) = _planned(monkeypatch, setup, samples=64)
    assert plan.opponents_samples == 64 and out.suggestions
    # the same input with the budget 1 % above its estimate runs, 1 % below is refused
    monkeypatch.setattr(cost, "RECOMMEND_WORK", plan.work * 1.01)
    again = rec.recommend_for_cli(setup, (), samples=64)
    assert again.to_json()["suggestions"] == out.to_json()["suggestions"]
    monkeypatch.setattr(cost, "RECOMMEND_WORK", plan.work * 0.99)
    with pytest.raises(SessionFormatError) as exc:
        rec.recommend_for_cli(setup, (), samples=64)
    assert exc.value.path == "--samples" and "work units" in exc.value.message


def test_lowering_is_deterministic_and_keeps_the_floors():
    base = dict(n_cards=21, n_players=6, n_suspects=6, n_weapons=6, n_candidates=324,
                dp_work=2.2e5, at_once_work=None, rank_samples=4000, exact_top=24,
                exact_budgeted=False, opponents_samples=256, opponents_fixed=False,
                n_opponents=5, best_envelope=True)
    a = cost.plan_recommendation(**base)
    assert a == cost.plan_recommendation(**base)
    assert a == cost.plan_recommendation(**base, min_opponent_samples=MIN_INTERVAL_SAMPLES)
    # six players, an empty classic log: every size goes down to its floor, then the exact
    # counts below theirs, said in a note
    assert a.work <= cost.RECOMMEND_WORK
    assert a.opponents_samples <= MIN_INTERVAL_SAMPLES and a.exact_top < cost.MIN_EXACT_TOP
    assert a.rank_samples == cost.MIN_RANK_SAMPLES and a.best_envelope
    assert any("counted exactly (not 24)" in n for n in a.notes)
    # three players: the opponents' deals alone are lowered
    three = dict(base, n_players=3, n_opponents=2)
    b = cost.plan_recommendation(**three)
    assert MIN_INTERVAL_SAMPLES < b.opponents_samples < 256
    assert (b.exact_top, b.rank_samples) == (24, 4000) and b.work <= cost.RECOMMEND_WORK
    assert b.notes == () and b.best_envelope
    # a larger DP: the exact counts go, then the opponents' deals below 64 (no interval), then
    # the opponents' figures (the exact counts get their room back, up to 12), then the most
    # probable envelope; each named in the notes
    f = cost.plan_recommendation(**dict(base, dp_work=4e6))
    assert cost.MIN_FEW_OPPONENT_SAMPLES <= f.opponents_samples < MIN_INTERVAL_SAMPLES
    assert f.exact_top == 0 and f.best_envelope and f.work <= cost.RECOMMEND_WORK
    assert any("fewer than the 64 a 95 % interval needs" in n for n in f.notes)
    c = cost.plan_recommendation(**dict(base, dp_work=1e7))
    assert c.opponents_samples == 0 and 0 < c.exact_top <= cost.MIN_EXACT_TOP and c.best_envelope
    assert c.work <= cost.RECOMMEND_WORK and len(c.notes) == 2
    d = cost.plan_recommendation(**dict(base, dp_work=6e7))
    assert (d.opponents_samples, d.exact_top, d.best_envelope) == (0, 0, False)
    assert d.work <= cost.RECOMMEND_WORK and len(d.notes) == 3
    assert d == cost.plan_recommendation(**dict(base, dp_work=6e7))
    # a deck far larger than a real game's: even the ranking's estimate does not fit
    with pytest.raises(SessionFormatError) as exc:
        cost.plan_recommendation(**dict(base, n_candidates=64_000, n_cards=120))
    assert exc.value.path == "$.setup.categories" and "work units" in exc.value.message
    with pytest.raises(SessionFormatError) as exc:      # a number the caller named is never lowered
        cost.plan_recommendation(**dict(three, opponents_samples=4096, opponents_fixed=True))
    assert exc.value.path == "--samples" and "samples fit" in exc.value.message


def test_opponents_first_estimate_is_made_from_the_deals_that_fit():
    """Master Detective, 8 players, game start: 16 sampled deals would not fit the budget, so the
    first (interval-free) estimate is made from as many as fit, between MIN_FIRST_BATCH and 16;
    10 players do not fit even MIN_FIRST_BATCH deals and are refused at $.setup.players."""
    from engines.cluedo.opponents import MIN_FIRST_BATCH, iter_opponent_knowledge
    from engines.core.schema import parse_session

    def setup(n):
        return parse_session({"format": "deduction-desk.session", "version": 1, "game": "cluedo",
                              "setup": {"edition": "clue-master-detective", "me": "Me",
                                        "players": ["Me"] + [f"P{i}" for i in range(1, n)]},
                              "events": []}).setup

    first = next(iter_opponent_knowledge(setup(8), first_batch=16))
    assert MIN_FIRST_BATCH <= first.samples < 16 and first.p_any_interval is None
    with pytest.raises(SessionFormatError) as exc:
        next(iter_opponent_knowledge(setup(10), first_batch=16))
    assert exc.value.path == "$.setup.players"
