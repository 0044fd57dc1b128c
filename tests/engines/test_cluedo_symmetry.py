"""Exchangeable cards in the all-at-once information (engines/cluedo/outcomes.py) and the most
probable envelope read off the same passes (engines/cluedo/recommend.py): the shortcuts give
the values of the full computation."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from engines.cluedo import outcomes
from engines.cluedo.accuse import best_triple
from engines.cluedo.counting import count_deals, propagate
from engines.cluedo.inference import constraints_for
from engines.cluedo.model import HandEvent, Setup, SuggestionEvent
from engines.cluedo.recommend import recommend

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from bench_cluedo import game_log

SETUP4 = Setup.from_json({"edition": "cluedo-uk", "players": ["Me", "A", "B", "C"], "me": "Me"})


def _cards(setup, *names):
    return [setup.cards.index(c) for c in names]


def test_exchangeable_cards_are_those_the_log_does_not_tell_apart():
    s = SETUP4
    hand = HandEvent(player="Me", cards=("Miss Scarlett", "Rope", "Kitchen", "Hall", "Study"))
    cons = constraints_for(s, [hand])
    plum, white, scarlett, rope = _cards(s, "Professor Plum", "Mrs White", "Miss Scarlett", "Rope")
    assert outcomes.exchangeable(cons, plum, white)
    assert not outcomes.exchangeable(cons, plum, scarlett)        # Scarlett is in my hand
    assert not outcomes.exchangeable(cons, plum, rope)            # another category
    assert not outcomes.exchangeable(cons, plum, white, [plum])   # the candidates hold only one
    # A refuted suggestion naming Plum (a clause "A holds Plum, Candlestick or Ballroom") tells
    # Plum from White; a second one naming White with the same cards restores the symmetry.
    one = SuggestionEvent(suggester="B", cards=("Professor Plum", "Candlestick", "Ballroom"), passed=("C",),
                          refuter="A", shown=None)
    cons = constraints_for(s, [hand, one])
    assert not outcomes.exchangeable(cons, plum, white)
    two = SuggestionEvent(suggester="B", cards=("Mrs White", "Candlestick", "Ballroom"), passed=("C",), refuter="A",
                          shown=None)
    assert outcomes.exchangeable(constraints_for(s, [hand, one, two]), plum, white)


@pytest.mark.parametrize("n_players, n_sugg, seed", [(4, 0, 0), (4, 4, 1), (5, 0, 2), (3, 8, 3)])
def test_symmetry_gives_the_full_computation(monkeypatch, n_players, n_sugg, seed):
    """Every suggestion's information and the envelope law, with the conditionings of
    exchangeable cards reused, equal the ones computed for every card (within 1e-12), and at
    the start (my hand only) one conditioning per category is enough."""
    names = ["Me"] + [f"P{i}" for i in range(1, n_players)]
    setup = Setup.from_json({"edition": "cluedo-uk", "players": names, "me": "Me"})
    events = game_log(setup, n_sugg, seed)
    cons = constraints_for(setup, events)
    res = count_deals(propagate(cons.copy()), None, marginals=True)
    env = res.marginal[:, -1] / res.count_float
    cands = [[i for i, c in enumerate(cons.cat_of) if c == j] for j in range(3)]
    calls = []
    real = outcomes.triple_joint

    def counted(*a, **k):
        calls.append(1)
        return real(*a, **k)

    monkeypatch.setattr(outcomes, "triple_joint", counted)
    fast = outcomes.envelope_information(res.comp, cons.cat_of, cands, 0, res.count_float, env, cons=cons)
    n_fast = len(calls)
    monkeypatch.setattr(outcomes, "exchangeable", lambda c, a, b, cand=(): a == b)
    full = outcomes.envelope_information(res.comp, cons.cat_of, cands, 0, res.count_float, env, cons=cons)
    n_full = len(calls) - n_fast
    np.testing.assert_allclose(fast["sum"], full["sum"], rtol=0, atol=1e-12)
    np.testing.assert_allclose(fast["envelope"], full["envelope"], rtol=0, atol=1e-12)
    assert fast["sum"].max() > 0.1
    assert fast["envelope"].sum() == pytest.approx(1.0, abs=1e-12)
    if n_sugg == 0:
        assert n_fast == 3 < n_full
    else:
        assert n_fast <= n_full


@pytest.mark.parametrize("n_players, n_sugg, seed", [(3, 20, 1), (4, 10, 0), (5, 0, 2)])
def test_most_probable_envelope_equals_best_triple(n_players, n_sugg, seed):
    """recommend without the opponents' estimate reads the most probable envelope off its
    all-at-once passes: the same probability as accuse.best_triple (exact counts), and the
    triple named has that probability (ties may name another triple of the same probability)."""
    names = ["Me"] + [f"P{i}" for i in range(1, n_players)]
    setup = Setup.from_json({"edition": "cluedo-uk", "players": names, "me": "Me"})
    events = game_log(setup, n_sugg, seed)
    rec = recommend(setup, events, opponents_seconds=0, joint=False)
    (triple, p) = best_triple(setup, events)
    acc = rec.accusation_advice
    assert acc["p_correct"] == pytest.approx(p, rel=1e-12)
    cons = constraints_for(setup, events)
    total = count_deals(propagate(cons.copy()), None).count_float
    for c in acc["triple"]:
        cons.force(setup.cards.index(c), n_players)
    assert count_deals(propagate(cons), None).count_float / total == pytest.approx(p, rel=1e-12)


def test_information_per_room_is_kept_per_log():
    """The turn advice's information per room is computed once per log: the same log (another
    roll) gets the same answer without a count, another log its own."""
    from engines.cluedo import turn

    events = tuple(game_log(SETUP4, 6, 4))
    turn._INFO_CACHE.clear()
    first = turn.information_by_room(SETUP4, events, opponents_seconds=0)
    assert turn.information_by_room(SETUP4, list(events), opponents_seconds=0) is first
    shorter = turn.information_by_room(SETUP4, events[:-1], opponents_seconds=0)
    assert shorter is not first
    fresh = recommend(SETUP4, events[:-1], opponents_seconds=0)
    best = {}
    for s, w, r, b in fresh.suggestions:          # best first: the first per room is its best
        best.setdefault(r, ((s, w, r), b))
    assert {r: t for r, (_, t) in shorter[0].items()} == {r: t for r, (t, _) in best.items()}
    for r, (b, _) in shorter[0].items():
        assert b == pytest.approx(best[r][1], abs=1e-9)
