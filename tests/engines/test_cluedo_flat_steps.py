"""Cluedo exact counting: the small steps of the DP run as flat index arrays (one gather and
one ``np.bincount`` per step, :class:`engines.cluedo.counting._Flat`) instead of one slice
operation per run of states. Both paths must give the counts of brute-force enumeration, the
very same float64 forward sums (the flat entries come in the order of the slice operations) and
the same marginals (bit for bit without weights: integer counts; to rounding with weights)."""
from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings

from engines.cluedo import counting
from engines.cluedo.constraints import constraints_for
from tests.engines.test_cluedo import brute, game_logs


def _count(setup, events, flat_max, weights=None):
    """(count, marginals, steps using flat arrays, steps) with ``_FLAT_MAX = flat_max``, every
    schedule built anew (the tensor DP: the dictionary DP of small counts turned off)."""
    saved = counting._FLAT_MAX, counting._DIRECT_MAX
    counting._FLAT_MAX, counting._DIRECT_MAX = flat_max, -1
    counting._SCHEDULES.clear()
    try:
        comp = counting.propagate(constraints_for(setup, events))
        if weights is not None:
            comp = counting.reweight(comp, weights)
        res = counting.count_deals(comp, marginals=True)
        steps = comp.schedule_cache.get("steps") or []
        return res.count, res.marginal, sum(st.flat is not None for st in steps), len(steps)
    finally:
        counting._FLAT_MAX, counting._DIRECT_MAX = saved
        counting._SCHEDULES.clear()


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_logs())
def test_flat_steps_equal_slice_steps_and_brute_force(case):
    setup, deal, events = case
    z, _ = brute(setup, events)
    n_flat, m_flat, used, n_steps = _count(setup, events, counting._FLAT_MAX)
    n_slice, m_slice, unused, _ = _count(setup, events, -1)
    assert n_flat == n_slice == z
    assert unused == 0 and (used == n_steps or n_steps == 0 or n_flat == 0)
    np.testing.assert_array_equal(m_flat, m_slice)
    # weighted cells (the suggestion model's counts) through both paths
    rng = np.random.default_rng(len(events))
    k = len(setup.players)
    weights = {(c, o): float(w) for c in range(len(setup.cards)) for o in range(k + 1)
               for w in [rng.uniform(0.2, 3.0)]}
    w_flat = _count(setup, events, counting._FLAT_MAX, weights)
    w_slice = _count(setup, events, -1, weights)
    assert w_flat[0] == w_slice[0]          # the forward pass: the same sums in the same order
    # a marginal is a dot product, summed in another order (einsum, bincount): the weighted
    # values agree to rounding; unweighted ones are integers below 2**53, exact either way
    np.testing.assert_allclose(w_flat[1], w_slice[1], rtol=1e-13, atol=0)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_logs())
def test_greedy_order_reports_its_estimated_work(case):
    # the greedy order adds up its work on the way; it must be the cost model's figure, to the bit
    setup, deal, events = case
    comp = counting.propagate(constraints_for(setup, events))
    args = (comp.choices, comp.sizes, comp.touched, comp.implicit)
    order, cost = counting._greedy_order_cost(comp.free, *args)
    assert order == counting._greedy_order(comp.free, *args)
    assert sorted(order) == sorted(comp.free)
    assert cost == counting._order_cost(order, *args)


def test_a_flat_step_with_no_surviving_entry_sums_to_float_zeros():
    """``np.bincount`` with weights returns int64 zeros for an empty index; a flat step no choice
    of which survives must still hand the next step float64 entries (a weighted count — the
    suggestion model's cell weights — then multiplied float weights into an int array and
    failed: the suggestion-model study's quick test)."""
    import numpy as np

    from engines.cluedo.counting import _summed

    empty = _summed(np.array([], dtype=np.intp), np.array([], dtype=float), 3)
    assert empty.dtype == np.float64 and empty.tolist() == [0.0, 0.0, 0.0]
    full = _summed(np.array([0, 2, 2]), np.array([0.5, 1.0, 2.0]), 3)
    assert full.dtype == np.float64 and full.tolist() == [0.5, 0.0, 3.0]
