"""Egghead: the solved indicators refreshed from the rows a reactions round changed
(``BitTable.keep_reactions(track=True)`` + ``BitTable.refreshed_indicators``) equal the
indicators recomputed over the whole table, and the posterior after every event of random logs
equals the replay that recomputes every indicator.

The thresholds that choose between a refresh and a recomputation are forced both ways here
(``_REFRESH_MIN``, ``_REFRESH_SHARE``, ``_SPARSE_ROWS``), so that small tables take every path.
"""
import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_egghead_log_cost import _reference, _same, random_log

import engines.egghead.inference as inf
import engines.egghead.table as table_mod
from engines.egghead import BitTable, infer
from engines.egghead.table import pack_bits, unpack_bits


def _force_refresh(monkeypatch):
    monkeypatch.setattr(table_mod, "_REFRESH_MIN", 0)
    monkeypatch.setattr(table_mod, "_REFRESH_SHARE", float("inf"))
    monkeypatch.setattr(table_mod, "_REFRESH_GATHER", float("inf"))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(n=st.integers(3, 5), S=st.sampled_from([2, 3, 5, 7, 66]), density=st.floats(0.05, 0.98),
       empty_rows=st.floats(0.0, 0.95), sparse=st.booleans(),
       solved=st.lists(st.booleans(), min_size=5, max_size=5), seed=st.integers(0, 2 ** 31))
def test_refreshed_indicators_equal_the_recomputed_ones(monkeypatch, n, S, density, empty_rows,
                                                        sparse, solved, seed):
    """After one round of filters on a random table (compact rows or whole-table chunks), the
    changed rows are exactly those that lost a world, and every player's refreshed indicator
    and support equal :meth:`BitTable.solved_indicator` and the boolean reference (the number
    of valid stacks along the player's axis is 1, resp. >= 1)."""
    if S == 66 and n > 3:
        S = 5                                        # two words per row only where it is small
    _force_refresh(monkeypatch)
    monkeypatch.setattr(table_mod, "_SPARSE_ROWS", 1.0 if sparse else -1.0)
    rng = np.random.default_rng(seed)
    dense = rng.random((S,) * n) < density
    dense.reshape(-1, S * S)[rng.random(S ** (n - 2)) < empty_rows] = False
    T = BitTable(n, S, pack_bits(dense).copy())
    old = {a: T.solved_indicator(a, with_support=True) for a in range(n)}
    rows = T.keep_reactions([(a, old[a][0], solved[a]) for a in range(n)], track=True)
    expect = dense.copy()
    for a in range(n):
        ind = np.broadcast_to(dense.sum(axis=a, keepdims=True) == 1, dense.shape)
        expect &= ind if solved[a] else ~ind
    assert np.array_equal(unpack_bits(T.t, S), expect)
    lost = (dense & ~expect).reshape(-1, S * S).any(axis=1)
    assert np.array_equal(rows, np.flatnonzero(lost))
    new = T.refreshed_indicators(old, rows)
    assert new is not None
    for a in range(n):
        ind, sup = T.solved_indicator(a, with_support=True)
        assert np.array_equal(new[a][0], ind) and np.array_equal(new[a][1], sup)
        cnt = expect.sum(axis=a)
        got_ind = new[a][0] if a == n - 1 else unpack_bits(new[a][0], S)
        got_sup = new[a][1] if a == n - 1 else unpack_bits(new[a][1], S)
        assert np.array_equal(got_ind, cnt == 1) and np.array_equal(got_sup, cnt >= 1)
        # the arrays given are left as they were (a timeline's snapshots share them)
        assert new[a][0] is not old[a][0]


def test_a_refresh_is_declined_where_it_would_cost_more(monkeypatch):
    """A round that changed every row of a table is recomputed, not refreshed; a table with a
    free axis (its indicators come from one slice) too; and a refresh that would gather more
    than ``_REFRESH_GATHER`` of the rows for one player (memory)."""
    T = BitTable(4, 6, BitTable(4, 6).t)    # written below: its stack classes are unknown
    T.t[1] = 0
    old = {a: T.solved_indicator(a, with_support=True) for a in range(4)}
    monkeypatch.setattr(table_mod, "_REFRESH_MIN", 0)
    every = np.arange(T.t.size // (6 * T.W))
    assert T.refreshed_indicators(old, every) is None
    assert T.refreshed_indicators(old, every[:1]) is not None
    monkeypatch.setattr(table_mod, "_REFRESH_SHARE", float("inf"))
    monkeypatch.setattr(table_mod, "_REFRESH_GATHER", 0.01)
    assert T.refreshed_indicators(old, every[:1]) is None        # 5 non-empty rows of 36 for axis 0
    monkeypatch.setattr(table_mod, "_REFRESH_GATHER", 0.3)
    T._free = frozenset({0})
    assert T.refreshed_indicators(old, every[:1]) is None


SMALL = [(3, 3, 2), (4, 3, 2), (3, 4, 2), (4, 2, 2), (5, 2, 2), (3, 6, 1)]


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10 ** 6), deck=st.sampled_from(SMALL), rotating=st.booleans(),
       ba=st.booleans(), events=st.integers(1, 40), dup=st.sampled_from([0.0, 0.3]),
       extra=st.integers(0, 2), sparse=st.booleans())
def test_refreshed_indicators_give_the_posterior_of_the_full_replay(monkeypatch, seed, deck, rotating,
                                                                   ba, events, dup, extra, sparse):
    """Random small logs (every player analyses, or P1 does not: then nothing is refreshed):
    the posterior with every indicator refreshed where a round changed rows equals the replay
    that recomputes every indicator after every event, and the refresh was taken."""
    n, v, k = deck
    _force_refresh(monkeypatch)
    monkeypatch.setattr(table_mod, "_SPARSE_ROWS", 1.0 if sparse else -1.0)
    setup, log = random_log(n, v, k, events, seed, rotating, [True, ba] + [True] * (n - 2), dup, extra)
    calls = []
    real = BitTable.refreshed_indicators

    def spy(self, old, rows, cancel=None):
        out = real(self, old, rows, cancel)
        calls.append(out is not None)
        return out

    monkeypatch.setattr(BitTable, "refreshed_indicators", spy)
    _same(infer(setup, log), _reference(setup, log))
    if not ba:
        assert not calls
    state = inf.initial(setup)
    for i, ev in enumerate(log):
        state = inf.update(setup, state, i, ev)
        if state.delta is not None and state.inds is None and n >= 3:
            inds = inf._indicators(inf._Ctx(setup), state, None)
            for p, axis in inf._Ctx(setup).axis.items():
                ind, sup = state.M.solved_indicator(axis, with_support=True)
                assert np.array_equal(inds[p], ind) and np.array_equal(state.sups[p], sup)
