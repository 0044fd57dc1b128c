"""Egghead's fast paths give the tables they replace.

* The explicit table's passes over its non-empty rows only (``engines.egghead.table``,
  ``_SPARSE_ROWS``) against an unpacked boolean reference and against the whole-table passes.
* Answers kept as answers on the orbit table (``OrbitTable._sym``): indicators, world counts and
  rows read from the aggregates equal those of the listed orbits, and the posterior equals the
  explicit table's after every event when the answers must be listed early.
"""
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_egghead_orbits import _compare_every_prefix, _god_game

import engines.egghead.inference as inf
import engines.egghead.orbits as orbits_module
import engines.egghead.table as table_mod
from engines.egghead import BitTable, bound_deck, stack_space
from engines.egghead.orbits import OrbitTable
from engines.egghead.table import pack_bits, unpack_bits


@pytest.mark.parametrize("n,S", [(4, 7), (3, 70), (5, 5)])
def test_sparse_row_passes_equal_the_boolean_reference(monkeypatch, n, S):
    """A table whose rows are mostly empty: every pass done on the non-empty rows equals the
    same operation on the unpacked boolean table (and the whole-table pass)."""
    monkeypatch.setattr(table_mod, "_SPARSE_ROWS", 1.0)   # always the compact rows
    rng = np.random.default_rng(n * 1000 + S)
    dense = rng.random((S,) * n) < 0.5
    rows = dense.reshape(-1, S * S)                            # one row: axes n-2 and n-1
    rows[rng.random(rows.shape[0]) < 0.7] = False
    T = BitTable(n, S, pack_bits(dense).copy())
    assert T._rows() is not None
    assert T.count() == int(dense.sum())
    for axis in range(n):
        cnt = dense.sum(axis=axis, keepdims=True)
        ref_ind = np.broadcast_to(cnt == 1, dense.shape)
        ind, sup = T.solved_indicator(axis, with_support=True)
        monkeypatch.setattr(table_mod, "_SPARSE_ROWS", -1.0)
        D = BitTable(n, S, T.t.copy())
        dind, dsup = D.solved_indicator(axis, with_support=True)
        monkeypatch.setattr(table_mod, "_SPARSE_ROWS", 1.0)
        assert np.array_equal(ind, dind) and np.array_equal(sup, dsup), axis
        for solved in (True, False):
            U = T.copy()
            U.keep_reaction(axis, ind, solved)
            expect = dense & (ref_ind if solved else ~ref_ind)
            assert np.array_equal(unpack_bits(U.t, S), expect), (axis, solved)
            assert U.count() == int(expect.sum())
        U.keep_reaction(axis, ind, True)      # both reactions: nothing is left
        assert U.count() == 0 and not U.t.any() and U.solved_indicator(axis).sum() == 0


def test_sparse_answer_filter_equals_the_whole_table_filter(monkeypatch):
    """The answer filter on the non-empty rows, every question, moderator seen or not."""
    n, v, k = 4, 3, 2
    S = stack_space(v, k).size
    rng = np.random.default_rng(7)
    dense = rng.random((S,) * n) < 0.6
    dense.reshape(-1, S * S)[rng.random(S ** (n - 2)) < 0.6] = False
    for q in bound_deck(v, k, n).values():
        for mod in (None, 0, n - 2, n - 1):
            seen = [i != mod for i in range(n)]
            a = int(rng.choice(q.possible_answers(n - (mod is not None))))
            monkeypatch.setattr(table_mod, "_SPARSE_ROWS", 1.0)
            T = BitTable(n, S, pack_bits(dense).copy())
            T.filter_answer(q, a, seen)
            monkeypatch.setattr(table_mod, "_SPARSE_ROWS", -1.0)
            D = BitTable(n, S, pack_bits(dense).copy())
            D.filter_answer(q, a, seen)
            assert np.array_equal(T.t, D.t), (q.id, mod)


@pytest.mark.parametrize("seed,rotating", [(11, False), (12, True), (13, False)])
def test_sparse_rows_give_the_posterior_of_whole_table_passes(monkeypatch, seed, rotating):
    """Five players, a truthful game: the posterior after every event is the same with the
    compact rows always used and never used."""
    setup, events = _god_game(5, 3, 2, 4, seed, rotating)
    monkeypatch.setattr(table_mod, "_SPARSE_ROWS", 1.0)
    a = inf.initial(setup)
    monkeypatch.setattr(table_mod, "_SPARSE_ROWS", -1.0)
    b = inf.initial(setup)
    for i, ev in enumerate(events):
        monkeypatch.setattr(table_mod, "_SPARSE_ROWS", 1.0)
        inf.update(setup, a, i, ev)
        pa = inf.posterior(setup, a)
        monkeypatch.setattr(table_mod, "_SPARSE_ROWS", -1.0)
        inf.update(setup, b, i, ev)
        pb = inf.posterior(setup, b)
        assert pa == pb, i


@pytest.mark.parametrize("seed", range(5))
def test_answers_kept_as_answers_equal_their_orbits(seed):
    """Random answers (random moderators, random block splits) on the full table: the solved
    indicator of every block, the number of worlds and rows of the table read from the
    answers equal those of the listed orbits, which equal the explicit table."""
    rng = random.Random(seed)
    n, v, k = 4, 3, 2
    S = stack_space(v, k).size
    deck = list(bound_deck(v, k, n).values())
    T, B = OrbitTable(n, S), BitTable(n, S)
    real = [rng.randrange(S) for _ in range(n)]
    for _ in range(3):
        if rng.random() < 0.5:
            T.split(rng.sample(range(n), rng.randrange(1, n)))
        q = rng.choice(deck)
        mod = rng.choice([None] + list(range(n)))
        seen = [i != mod for i in range(n)]
        a = q.answer([real[i] for i in range(n) if seen[i]])
        T.filter_answer(q, a, seen)
        B.filter_answer(q, a, seen)
        assert T._sym is not None
        L = T.copy()
        L._materialize()
        assert L._sym is None and T._sym is not None
        assert T.count() == L.count() == B.count()
        for axis in range(n):
            ti, li = T.solved_indicator(axis), L.solved_indicator(axis)
            assert ti.sizes == li.sizes and np.array_equal(ti.dense, li.dense), axis
            w = [rng.randrange(S) for _ in range(n)]
            assert np.array_equal(T.row(axis, w), B.row(axis, w))
            assert np.array_equal(L.row(axis, w), B.row(axis, w))
        assert T._sym is not None       # nothing above listed the orbits


@pytest.mark.parametrize("n,v,k,rounds,seed,rotating", [
    (4, 3, 2, 4, 21, False), (4, 4, 2, 3, 22, True), (5, 3, 2, 3, 23, True),
])
def test_answers_listed_at_once_give_the_explicit_posterior(monkeypatch, n, v, k, rounds, seed,
                                                            rotating):
    """When the answers' aggregates pass the limit they are listed as orbits at once (all
    answers so far in one pass); the posterior still equals the explicit table's."""
    monkeypatch.setattr(orbits_module, "_SYM_LIMIT", 1)
    setup, events = _god_game(n, v, k, rounds, seed, rotating)
    with pytest.MonkeyPatch.context() as mp:     # undone inside, unlike the limit above
        _compare_every_prefix(mp, setup, events)


@pytest.mark.parametrize("n,v,k,seed", [(3, 3, 2, 1), (4, 3, 2, 2), (4, 2, 2, 3), (5, 2, 2, 4)])
def test_indicators_read_from_a_slice_along_a_solved_players_axis_equal_the_whole_pass(n, v, k, seed):
    """After solves (eq. (5)) the table does not depend on the solvers' stacks until an answer
    about them: every player's indicator and support read from one slice (``BitTable._free``)
    equal the pass over the whole table, through answers (a moderator who does not see the
    solver keeps the axis free), reactions and further solves."""
    rng = np.random.default_rng(seed)
    S = stack_space(v, k).size
    deck = list(bound_deck(v, k, n).values())
    T = BitTable(n, S)
    real = [int(rng.integers(S)) for _ in range(n)]
    free_seen = 0
    for step in range(12):
        q = deck[int(rng.integers(len(deck)))]
        mod = int(rng.integers(n)) if step % 2 else None
        seen = [i != mod for i in range(n)]
        T.filter_answer(q, q.answer([real[i] for i in range(n) if seen[i]]), seen)
        for j in rng.permutation(n)[:2]:
            T.reset_player(int(j), real[j])
            real[j] = int(rng.integers(S))
        free_seen += bool(T._free)
        ref = BitTable(n, S, T.t.copy())              # the same worlds, no axis known free
        inds = []
        for axis in range(n):
            ind, sup = T.solved_indicator(axis, with_support=True)
            rind, rsup = ref.solved_indicator(axis, with_support=True)
            assert np.array_equal(ind, rind) and np.array_equal(sup, rsup), (step, axis)
            inds.append(ind)
        for axis in range(n):
            solved = T.row_count(axis, real) == 1
            T.keep_reaction(axis, inds[axis], solved)
            ref.keep_reaction(axis, inds[axis], solved)
            assert np.array_equal(T.t, ref.t)
        if T.count() == 0:
            break
    assert free_seen


@settings(max_examples=40, deadline=None)
@given(n=st.integers(3, 5), S=st.integers(2, 7), density=st.floats(0.05, 0.95),
       empty_rows=st.floats(0.0, 0.95), sparse=st.booleans(), free=st.booleans(),
       solved=st.lists(st.booleans(), min_size=5, max_size=5), seed=st.integers(0, 2 ** 31))
def test_fused_reaction_filters_equal_the_filters_one_by_one(n, S, density, empty_rows, sparse,
                                                              free, solved, seed):
    """``BitTable.keep_reactions`` (every player's eqs. (3)-(4) in one pass, on the compact
    rows or chunk by chunk) leaves the table, its non-empty rows and its free axes exactly as
    ``keep_reaction`` called player by player, and the table equals the boolean reference."""
    rng = np.random.default_rng(seed)
    dense = rng.random((S,) * n) < density
    dense.reshape(-1, S * S)[rng.random(S ** (n - 2)) < empty_rows] = False
    if free:                                   # constant along axis 0 (a solved player)
        dense[...] = dense[:1]
    old = table_mod._SPARSE_ROWS
    table_mod._SPARSE_ROWS = 1.0 if sparse else -1.0
    try:
        T = BitTable(n, S, pack_bits(dense).copy())
        if free:
            T._free = frozenset({0})
        inds = [T.solved_indicator(a) for a in range(n)]
        ref_inds = [np.broadcast_to(dense.sum(axis=a, keepdims=True) == 1, dense.shape)
                    for a in range(n)]
        one = T.copy()
        for a in range(n):
            one.keep_reaction(a, inds[a], solved[a])
        T.keep_reactions([(a, inds[a], solved[a]) for a in range(n)])
        expect = dense.copy()
        for a in range(n):
            expect &= ref_inds[a] if solved[a] else ~ref_inds[a]
        assert np.array_equal(T.t, one.t)
        assert np.array_equal(unpack_bits(T.t, S), expect)
        assert T._free == one._free
        assert T.count() == one.count() == int(expect.sum())
    finally:
        table_mod._SPARSE_ROWS = old


def test_answer_filter_with_a_mask_per_feature_value_equals_the_boolean_reference(monkeypatch):
    """The dense answer filter that builds each distinct feature value's mask once (the path of
    five players x 56 stacks, reached here on a small table with small blocks) keeps exactly the
    worlds whose seen players' aggregate gives the answer, for every question of the deck and
    a moderator who sees everybody, not player 0 (no feature on axis 0) or not another."""
    n, v, k = 4, 4, 2
    S = stack_space(v, k).size
    monkeypatch.setattr(table_mod, "_BLOCK_WORDS", 16)      # 2*16 < S^2 words: the memo path
    monkeypatch.setattr(table_mod, "_SPARSE_ROWS", -1.0)
    rng = np.random.default_rng(3)
    dense = rng.random((S,) * n) < 0.7
    grids = np.meshgrid(*[np.arange(S)] * n, indexing="ij")
    for q in bound_deck(v, k, n).values():
        for mod in (None, 0, 2):
            seen = [i != mod for i in range(n)]
            a = int(rng.choice(q.possible_answers(n - (mod is not None))))
            T = BitTable(n, S, pack_bits(dense).copy())
            T.filter_answer(q, a, seen)
            agg = np.full(dense.shape, q.identity, dtype=np.int64)
            for i in range(n):
                if seen[i]:
                    agg = q.ufunc(agg, q.feature[grids[i]])
            want = dense & (q.final(agg) == a)
            assert np.array_equal(unpack_bits(T.t, S), want), (q.id, mod)
