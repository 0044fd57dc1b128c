"""Solves on orbit tables (six players): the solver's free coordinate is kept out of the stored
orbits (exact: equal to the explicit table), and an event that would leave more orbits than a
task can handle is refused at once; explicit tables (3-5 players) are never refused."""
import random
import time

import numpy as np
import pytest

import engines.egghead.inference as inf
import engines.egghead.orbits as orbits_module
from engines.core.errors import SessionFormatError
from engines.egghead import Answer, BitTable, Reactions, Setup, Solve, bound_deck, stack_space
from engines.egghead.orbits import OrbitTable
from tests.engines.test_egghead_orbits import (
    _bit_set,
    _compare_every_prefix,
    _god_game,
    _react_both,
    _world_set,
)

# CPU-time bounds: the tests that measure CPU run on one pytest-xdist worker, one at a time,
# never beside each other (two memory-bound folds on two cores slow each other down).
pytestmark = pytest.mark.xdist_group("cpu_time")


def _answered(seed, n=4, v=3, k=2):
    rng = random.Random(seed)
    S = stack_space(v, k).size
    deck = list(bound_deck(v, k, n).values())
    T = OrbitTable(n, S, [range(n)] if seed % 2 else [[0, 1], [2, 3]])
    real = [rng.randrange(S) for _ in range(n)]
    for _ in range(2):
        q = rng.choice(deck)
        T.filter_answer(q, q.answer(real), [True] * n)
    assert T.keys.size > 0                              # listed
    return rng, S, deck, T, real


@pytest.mark.parametrize("seed", range(8))
def test_solve_orbits_is_the_size_reset_player_leaves(seed):
    """The estimate is exact: random tables (answers, splits), every axis and stack."""
    rng, S, _deck, T, real = _answered(seed)
    assert OrbitTable(4, S).solve_orbits(0, 0) == 0     # the full table stays a flag
    if seed % 3 == 0:
        T.split([rng.randrange(4)])
    for axis in range(4):
        for stack in {real[axis], rng.randrange(S)}:
            t = T.copy()
            est = t.solve_orbits(axis, stack)
            t.reset_player(axis, stack)
            assert est == (0 if t.full else t.keys.size)
            assert t.free == {axis}


def _same(B, T, n, S):
    assert (_world_set(T, n, S) == _bit_set(B, n, S)).all()
    assert T.count() == B.count()


@pytest.mark.parametrize("seed", range(12))
def test_free_coordinates_equal_the_explicit_table(seed):
    """One or two players solve, then reactions and answers that concern them (one or two free
    axes released; a rotating moderator too): the same worlds as the explicit table after
    every step, and answer_orbits is the size an answer leaves."""
    rng = random.Random(seed)
    n, v, k = 4, 3, 2
    S = stack_space(v, k).size
    deck = list(bound_deck(v, k, n).values())
    B, T = BitTable(n, S), OrbitTable(n, S, [range(n)] if seed % 2 else [[0, 1], [2, 3]])
    real = [rng.randrange(S) for _ in range(n)]

    def answer(mod=None):
        q = rng.choice(deck)
        seen = [i != mod for i in range(n)]
        a = q.answer([real[i] for i in range(n) if seen[i]])
        released = any(seen[x] for x in T.free)
        est = T.answer_orbits(q, a, seen) if released else None
        B.filter_answer(q, a, seen)
        T.filter_answer(q, a, seen)
        if released and mod is None:
            assert est == T.keys.size
        _same(B, T, n, S)

    def react():
        _react_both(B, T, real, n)
        _same(B, T, n, S)

    answer()
    answer()
    solvers = rng.sample(range(n), 1 + seed % 2)
    for j in solvers:
        B.reset_player(j, real[j])
        T.reset_player(j, real[j])
        real[j] = rng.randrange(S)
        _same(B, T, n, S)
    assert T.free == set(solvers)
    react()
    T.reset_player(solvers[0], rng.randrange(S))        # already free: nothing changes
    B.reset_player(solvers[0], int(np.flatnonzero(B.row(solvers[0], real))[0]))
    _same(B, T, n, S)
    answer(rng.choice([None, solvers[0], next(j for j in range(n) if j not in solvers)]))
    react()
    answer()
    assert not T.free
    react()


def _six_player_table(orbits: int, seed: int = 0) -> OrbitTable:
    """A six-player table of about ``orbits`` random orbits and the 56 where the others hold
    stack 0, after P5 (axis 4) solved holding stack 0 (its coordinate free)."""
    rng = np.random.default_rng(seed)
    T = OrbitTable(6, 56, [[0, 1, 2, 3, 5], [4]])
    rows = rng.integers(0, 56, size=(orbits, 6)).astype(np.int16)
    rows[:, 4] = 0
    mine = np.zeros((56, 6), dtype=np.int16)           # the world I see (every stack 0), any of mine
    mine[:, 5] = np.arange(56)
    T._set_rows([T._canon(rows), T._canon(mine)])
    T.reset_player(4, 0)
    return T


def _six_setup():
    names = [f"P{i}" for i in range(6)]
    return Setup.from_json({"players": names, "me": "P0",
                            "visible": {p: [1, 1, 1] for p in names[1:]}})


def test_six_player_solve_keeps_the_free_coordinate_out_of_the_table():
    setup = _six_setup()
    st = inf.initial(setup)
    st.M = _six_player_table(2000)
    size = st.M.keys.size
    worlds = st.M.count()
    assert worlds % 56 == 0
    inf.update(setup, st, 0, Solve(player="P3", cards=(1, 1, 1), new_cards=(2, 2, 2)))   # P3 = axis 2, held stack 0
    assert st.M.free == {2, 4} and st.M.keys.size <= size
    assert inf.posterior(setup, st).valid_count_with_ba == 56


def test_six_player_answer_over_the_limit_is_refused_at_once(monkeypatch):
    setup = _six_setup()
    st = inf.initial(setup)
    st.M = _six_player_table(200_000)
    size = st.M.keys.size
    q = bound_deck(6, 3, 6)["count-2"]
    ev = Answer(question="count-2", answer=1, moderator=None)
    need = st.M.answer_orbits(q, 1, [True] * 6)
    assert size < need                                  # P5's 56 stacks meet every orbit
    monkeypatch.setattr(inf, "MAX_EVENT_ORBITS", need - 1)
    c = time.process_time()
    with pytest.raises(SessionFormatError) as exc:
        inf.update(setup, st, 7, ev)
    assert time.process_time() - c < 1.0
    msg = str(exc.value)
    assert msg.startswith("$.events[7]: this answer would leave") and "GB" in msg
    assert f"{need / 1e6:.1f} M orbits" in msg
    assert st.M.keys.size == size and st.M.free == {4}  # nothing was built


@pytest.mark.parametrize("n,seed", [(3, 1), (4, 3), (5, 5)])
def test_small_games_with_solves_are_not_refused(monkeypatch, n, seed):
    """3-5 players: explicit and orbit tables agree after every event of games with solves,
    with the limit in force (explicit tables are never refused)."""
    setup, events = _god_game(n, 3, 2, 4, seed)
    assert any(isinstance(e, Solve) for e in events)
    _compare_every_prefix(monkeypatch, setup, events)
    assert isinstance(inf.initial(setup).M, BitTable)


def test_solve_over_a_lowered_limit_is_refused_on_orbits_only(monkeypatch):
    setup, events = _god_game(4, 3, 2, 4, 3)
    first = next(i for i, e in enumerate(events) if isinstance(e, Solve) and e.player != "P0")
    monkeypatch.setattr(inf, "MAX_EVENT_ORBITS", 0)
    inf.infer(setup, events)                            # explicit: no limit
    monkeypatch.undo()
    monkeypatch.setattr(orbits_module, "ORBIT_FROM_BYTES", -1)
    st = inf.initial(setup)
    for i, ev in enumerate(events[:first]):
        inf.update(setup, st, i, ev)
    ctx = inf._Ctx(setup)
    need = st.M.solve_orbits(ctx.axis[events[first].player], st.visible[events[first].player])
    monkeypatch.setattr(inf, "MAX_EVENT_ORBITS", need - 1)
    with pytest.raises(SessionFormatError, match=rf"^\$\.events\[{first}\]: the solve of"):
        inf.update(setup, st, first, events[first])
    monkeypatch.setattr(inf, "MAX_EVENT_ORBITS", need)
    inf.update(setup, st, first, events[first])
    assert st.M.keys.size == need


def test_six_player_solve_in_a_block_builds_only_what_it_keeps():
    """A solve logged without the reactions round that split the solver off: the orbits of
    their block that hold the stack give one orbit each (no plain split into up to 6 finer
    orbits first), as counted beforehand."""
    rng = np.random.default_rng(1)
    T = OrbitTable(6, 56)
    rows = rng.integers(0, 56, size=(100_000, 6)).astype(np.int16)
    T._set_rows([T._canon(rows)])
    size = T.keys.size
    est = T.solve_orbits(4, 7)
    holding = int((T.unpack(T.keys) == 7).any(axis=1).sum())
    assert est == holding < size
    seen = []
    real_set_rows = T._set_rows

    def spy(rows_iter, *a, **k):
        rows = list(rows_iter)
        seen.append(sum(r.shape[0] for r in rows))
        return real_set_rows(iter(rows), *a, **k)
    T._set_rows = spy
    T.reset_player(4, 7)
    assert max(seen) == holding and T.keys.size == holding
    assert T.free == {4} and T.blocks == ((0, 1, 2, 3, 5), (4,))


@pytest.mark.parametrize("seed", range(8))
def test_split_orbits_is_the_size_split_leaves(seed):
    rng, S, _deck, T, _real = _answered(seed)
    for _ in range(3):
        group = rng.sample(range(4), rng.randrange(1, 4))
        t = T.copy()
        est = t.split_orbits(group)
        t.split(group)
        assert est == t.keys.size
        T = t


def test_reactions_round_over_a_lowered_limit_is_refused_on_orbits_only(monkeypatch):
    setup, events = _god_game(4, 3, 2, 4, 3)
    first = next(i for i, e in enumerate(events) if isinstance(e, Reactions) and e.solved)
    monkeypatch.setattr(orbits_module, "ORBIT_FROM_BYTES", -1)
    st = inf.initial(setup)
    for i, ev in enumerate(events[:first]):
        inf.update(setup, st, i, ev)
    size = st.M.keys.size
    monkeypatch.setattr(inf, "MAX_EVENT_ORBITS", st.M.split_orbits(
        [inf._Ctx(setup).axis[p] for p in events[first].solved]) - 1)
    with pytest.raises(SessionFormatError, match=rf"^\$\.events\[{first}\]: this reactions round"):
        inf.update(setup, st, first, events[first])
    assert st.M.keys.size == size
