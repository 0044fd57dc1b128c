"""Cluedo exact counting: small counts of a structure seen for the first time run as a
dictionary DP in Python integers (:func:`engines.cluedo.counting._count_direct`) instead of the
tensor DP. Both must give the counts and marginals of brute-force enumeration, and the same
float64 numbers bit for bit (unweighted counts below 2**53 are exact in both)."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from engines import cluedo
from engines.cluedo import counting
from engines.cluedo.constraints import constraints_for
from tests.engines.test_cluedo import accusation_logs, brute, game_logs, small_setup


def _tensor(comp, marginals=True):
    """``_count_deals`` of ``comp`` by the tensor DP only (the dictionary DP turned off)."""
    saved = counting._DIRECT_MAX
    counting._DIRECT_MAX = -1
    try:
        return counting._count_deals(comp, None, marginals, False)
    finally:
        counting._DIRECT_MAX = saved


def _direct(comp, marginals=True):
    """``_count_direct`` of ``comp`` whatever its size (its limits lifted)."""
    saved = counting._DIRECT_MAX, counting._DIRECT_SKIP
    counting._DIRECT_MAX = counting._DIRECT_SKIP = float("inf")
    try:
        return counting._count_direct(comp, None, marginals)
    finally:
        counting._DIRECT_MAX, counting._DIRECT_SKIP = saved


def _both_and_brute(setup, events):
    z, ref = brute(setup, events)
    comp = counting.propagate(constraints_for(setup, events))
    direct = _direct(comp)
    assert direct is not None
    tensor = _tensor(comp)
    assert direct.count == tensor.count == z
    assert type(direct.count) is int and direct.count_float == tensor.count_float
    np.testing.assert_array_equal(direct.marginal, tensor.marginal)
    if z:
        np.testing.assert_allclose(direct.marginal / direct.count_float, ref, atol=1e-12, rtol=0)
    return comp


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_logs())
def test_dictionary_dp_equals_tensor_dp_and_brute_force(case):
    setup, deal, events = case
    _both_and_brute(setup, events)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(accusation_logs())
def test_dictionary_dp_with_accusation_clauses_equals_tensor_dp(case):
    # every clause in the DP (failed accusations as clause bits), and by inclusion-exclusion
    setup, deal, events = case
    comp = _both_and_brute(setup, events)
    z, ref = brute(setup, events)
    res = counting.count_deals(comp)
    assert res.count == z
    np.testing.assert_allclose(res.marginal / max(res.count_float, 1.0), ref, atol=1e-12, rtol=0)


def test_the_classic_deck_positions_are_counted_by_the_dictionary_dp():
    """A 4-player classic-deck log (as the anchor benchmark's) counts the same through both
    DPs, and the first counts of a structure build no schedule; the next one builds and keeps
    it."""
    from engines.cluedo.simulate import play_suggestion, random_deal

    setup = cluedo.Setup.from_json({"edition": "cluedo-uk", "players": ["Me", "A", "B", "C"], "me": "Me"})
    rng = np.random.default_rng(3)
    deal = random_deal(setup, rng)
    events = [cluedo.HandEvent(player="Me", cards=tuple(c for c, o in zip(setup.cards, deal) if o == 0))]
    (_, S), (_, W), (_, R) = setup.categories
    for t in range(20):        # as tests/benchmarks/bench_cluedo.py's game_log
        trip = (S[rng.integers(len(S))], W[rng.integers(len(W))], R[rng.integers(len(R))])
        events.append(play_suggestion(setup, deal, t % 4, trip, rng, reveal=(t % 4 == 0)))
    comp = counting.propagate(constraints_for(setup, events))
    direct = counting._count_direct(comp, None, True)
    tensor = _tensor(comp)
    assert direct is not None and direct.count == tensor.count > 1
    np.testing.assert_array_equal(direct.marginal, tensor.marginal)
    counting._SEEN.clear()
    counting._SCHEDULES.clear()
    for _ in range(counting._DIRECT_TIMES):
        first = counting.propagate(constraints_for(setup, events))
        counting.count_deals(first)
        assert "steps" not in first.schedule_cache and len(counting._SCHEDULES) == 0
    again = counting.propagate(constraints_for(setup, events))
    res = counting.count_deals(again)
    assert again.schedule_cache["steps"] and len(counting._SCHEDULES) == 1
    assert res.count == direct.count
    np.testing.assert_array_equal(res.marginal, direct.marginal)


def test_dictionary_dp_hands_large_or_inexact_counts_to_the_tensor_dp(monkeypatch):
    setup = small_setup(3)
    events = [cluedo.SuggestionEvent(suggester="P", cards=("a", "d", "g"), passed=(), refuter="Q", shown=None)]
    comp = counting.propagate(constraints_for(setup, events))
    assert counting._count_direct(comp, None, True) is not None
    monkeypatch.setattr(counting, "_DIRECT_MAX", 10)            # more pairs than allowed
    assert counting._count_direct(comp, None, True) is None
    monkeypatch.setattr(counting, "_DIRECT_MAX", 2000)
    monkeypatch.setattr(counting, "_DIRECT_SKIP", comp.order_cost - 1)   # estimated too large
    assert counting._count_direct(comp, None, True) is None
    monkeypatch.setattr(counting, "_DIRECT_SKIP", 16000)
    monkeypatch.setattr(counting, "_EXACT_FLOAT", 2.0)         # float64 sums no longer exact
    assert counting._count_direct(comp, None, True) is None
    weighted = counting.reweight(comp, {(0, 1): 2.0})
    monkeypatch.setattr(counting, "_EXACT_FLOAT", float(1 << 53))
    assert counting._count_direct(weighted, None, True) is None   # weights: the tensor DP


def test_dictionary_dp_without_free_cards_and_without_marginals():
    setup = small_setup(3, (4, 2, 1))
    deal_events = [cluedo.HandEvent(player="P", cards=("a", "b", "d", "e")),
                   cluedo.HandEvent(player="Q", cards=("g", "h")),
                   cluedo.HandEvent(player="R", cards=("i",))]
    z, ref = brute(setup, deal_events)
    comp = counting.propagate(constraints_for(setup, deal_events))
    assert not comp.free
    res = counting._count_direct(comp, None, True)
    assert res.count == z == 1
    np.testing.assert_array_equal(res.marginal, ref)
    no_marg = counting._count_direct(counting.propagate(constraints_for(setup, deal_events[:1])), None, False)
    assert no_marg.marginal is None and no_marg.count == brute(setup, deal_events[:1])[0]


def test_dictionary_dp_is_cancellable():
    from engines.core.errors import Cancelled

    comp = counting.propagate(constraints_for(small_setup(3), []))
    with pytest.raises(Cancelled):
        counting._count_direct(comp, lambda: True, True)
