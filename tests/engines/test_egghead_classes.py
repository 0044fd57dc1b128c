"""Egghead's solved indicators read from one stack per class (``BitTable.classes``,
``BitTable._lumped_indicator``; lumping, Kemeny and Snell 1960).

A table built from the whole table by answers (eq. (2)/(6)), reaction filters (eqs. (3)-(4))
and solves (eq. (5)) is unchanged when a stack of an axis is replaced by another of its class,
and the indicators read from the box of representatives equal those read from every word of
the table and the unpacked boolean count.
"""
import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engines.egghead.table as table_mod
from engines.egghead import BitTable, bound_deck, stack_space
from engines.egghead.table import _dense_indicator, unpack_bits

DECKS = [(3, 4, 2), (4, 3, 2), (5, 2, 2), (4, 4, 1)]


def _check(T: BitTable, n: int, S: int) -> None:
    """The classes' claim and every axis's indicator against the references."""
    dense = unpack_bits(T.t, S)
    for a, cls in enumerate(T.classes()):
        rep = np.array([int(np.flatnonzero(cls == cls[s])[0]) for s in range(S)])
        assert np.array_equal(T.t.take(rep, axis=a), T.t), a     # a class is interchangeable
    for axis in range(n):
        ind, sup = T.solved_indicator(axis, with_support=True)
        wind, wsup = _dense_indicator(T.t, axis)
        assert np.array_equal(ind, wind) and np.array_equal(sup, wsup), axis
        cnt = dense.sum(axis=axis)
        got = (ind, sup) if axis == n - 1 else (unpack_bits(ind, S), unpack_bits(sup, S))
        assert np.array_equal(got[0], cnt == 1) and np.array_equal(got[1], cnt >= 1), axis


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(deck=st.sampled_from(DECKS), seed=st.integers(0, 10 ** 6),
       steps=st.lists(st.sampled_from(["answer", "answer", "unseen", "reactions", "solve"]),
                      min_size=1, max_size=6))
def test_lumped_indicators_equal_the_whole_table_after_any_log(monkeypatch, deck, seed, steps):
    """Random logs of answers (moderator external or rotating), reactions rounds of the
    players' true reactions and solves: after every step the classes are interchangeable and
    the lumped indicators are exact."""
    monkeypatch.setattr(table_mod, "_LUMP_SHARE", float("inf"))    # always the box
    n, v, k = deck
    S = stack_space(v, k).size
    qs = list(bound_deck(v, k, n).values())
    rng = np.random.default_rng(seed)
    real = [int(x) for x in rng.integers(S, size=n)]
    T = BitTable(n, S)
    for step in steps:
        if step in ("answer", "unseen"):
            q = qs[int(rng.integers(len(qs)))]
            mod = int(rng.integers(n)) if step == "unseen" else None
            seen = [i != mod for i in range(n)]
            T.filter_answer(q, q.answer([real[i] for i in range(n) if seen[i]]), seen)
        elif step == "reactions":
            inds = [T.solved_indicator(a) for a in range(n)]
            solved = [T.row_count(a, real) == 1 for a in range(n)]
            T.keep_reactions([(a, inds[a], solved[a]) for a in range(n)], same_classes=True)
        else:
            a = int(rng.integers(n))
            T.reset_player(a, real[a])
            real[a] = int(rng.integers(S))
        _check(T, n, S)


def test_classes_are_forgotten_after_a_filter_from_another_table():
    """A reaction filter whose indicator is not said to share the classes leaves one class
    per stack (the default), so nothing is read from a representative."""
    n, v, k = 4, 3, 2
    S = stack_space(v, k).size
    q = bound_deck(v, k, n)["sum"]
    T = BitTable(n, S)
    T.filter_answer(q, q.answer([0, 1, 2, 3]), [True] * n)
    assert max(int(c.max()) for c in T.classes()) + 1 < S
    rng = np.random.default_rng(3)
    ind = rng.integers(0, 2 ** 63, size=(S,) * (n - 2) + (T.W,), dtype=np.uint64)
    T.keep_reaction(0, ind, False)
    assert all(np.array_equal(c, np.arange(S)) for c in T.classes())
    _check(T, n, S)


def test_a_solve_of_the_last_player_keeps_the_worlds_where_they_held_the_stack():
    """Eq. (5) on the bit axis (the in-place path for one word per row, S <= 64, and the
    general one for S > 64) against the unpacked reference: every stack of the last player
    is valid exactly where the revealed one was, and no padding bit is set."""
    rng = np.random.default_rng(5)
    for n, S in ((4, 10), (3, 64), (3, 70)):
        T = BitTable(n, S, BitTable(n, S).t.copy())
        T.t &= rng.integers(0, 2 ** 63, size=T.t.shape, dtype=np.uint64) | np.uint64(1 << 63)
        T.t &= T.full
        dense = unpack_bits(T.t, S)
        for s in (0, S // 2, S - 1):
            U = T.copy()
            U.reset_player(n - 1, s)
            expect = np.broadcast_to(dense[..., s:s + 1], dense.shape)
            assert np.array_equal(unpack_bits(U.t, S), expect), (n, S, s)
            assert not (U.t & ~U.full).any()


def test_an_emptied_table_has_no_valid_stack_through_the_classes(monkeypatch):
    """Both reactions of one player leave no world: every lumped indicator and support is
    zero (the box of classes holding a world is empty)."""
    monkeypatch.setattr(table_mod, "_LUMP_SHARE", float("inf"))
    n, v, k = 4, 3, 2
    S = stack_space(v, k).size
    q = bound_deck(v, k, n)["sum"]
    T = BitTable(n, S)
    T.filter_answer(q, q.answer([0, 1, 2, 3]), [True] * n)
    ind = T.solved_indicator(1)
    T.keep_reactions([(1, ind, True), (1, ind, False)], same_classes=True)
    assert T.count() == 0
    for axis in range(n):
        i, s = T.solved_indicator(axis, with_support=True)
        assert not i.any() and not s.any()
        assert i.shape == _dense_indicator(T.t, axis)[0].shape
