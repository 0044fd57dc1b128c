"""The orbit master table (engines.egghead.orbits) equals the explicit bit-packed one.

Random truthful games are played from a god's-eye explicit table; after every event the
posterior computed with orbits (forced by lowering ``ORBIT_FROM_BYTES``) must equal the
explicit one field by field: my valids with and without behavioural analysis, the number of
worlds, every other player's solve probability, and whether the reactions fixpoint is reached.
"""
import itertools
import random

import numpy as np
import pytest

import engines.egghead.inference as inf
import engines.egghead.orbits as orbits_module
from engines.core.errors import ContradictionError
from engines.egghead import (
    Answer,
    BitTable,
    Reactions,
    Setup,
    Solve,
    bound_deck,
    stack_space,
)
from engines.egghead.orbits import OrbitTable, _assignments, multisets


def _god_game(n, v, k, rounds, seed, rotating=False):
    """A truthful log (everybody analyses) from an explicit god's-eye table: (setup, events)."""
    rng = np.random.default_rng(seed)
    sp = stack_space(v, k)
    deck = list(bound_deck(v, k, n).values())
    names = [f"P{i}" for i in range(n)]
    real = [int(rng.integers(sp.size)) for _ in range(n)]
    initial = list(real)
    M = BitTable(n, sp.size)
    events = []
    for _ in range(rounds):
        q = deck[int(rng.integers(len(deck)))]
        mod = int(rng.integers(n)) if rotating else None
        seen = [i != mod for i in range(n)]
        a = q.answer([real[i] for i in range(n) if seen[i]])
        M.filter_answer(q, a, seen)
        events.append(Answer(question=q.id, answer=a, moderator=None if mod is None else names[mod]))
        for _ in range(3):
            reacts = [M.row_count(j, real) == 1 for j in range(n)]
            inds = [M.solved_indicator(j) for j in range(n)]
            for j in range(n):
                M.keep_reaction(j, inds[j], reacts[j])
            events.append(Reactions(solved=tuple(names[j] for j in range(n) if reacts[j])))
            for j in [j for j in range(n) if reacts[j]]:
                M.reset_player(j, real[j])
                old = real[j]
                real[j] = int(rng.integers(sp.size))
                events.append(Solve(player=names[j], cards=sp.stack(old),
                                    new_cards=None if j == 0 else sp.stack(real[j])))
    setup = Setup.from_json({"players": names, "me": names[0], "values": v, "cards_per_player": k,
                             "moderator": "rotating" if rotating else "external",
                             "visible": {names[i]: list(sp.stack(initial[i])) for i in range(1, n)}})
    return setup, events


def _fields(post):
    return (post.my_valids, post.my_valids_without_ba, post.worlds,
            {p: round(x, 12) for p, x in post.others_solve_probability.items()},
            post.others_can_solve, post.fixpoint_reached, post.valid_count_with_ba)


def _compare_every_prefix(monkeypatch, setup, events):
    explicit = inf.initial(setup)
    assert isinstance(explicit.M, BitTable)
    monkeypatch.setattr(orbits_module, "ORBIT_FROM_BYTES", -1)
    orbit = inf.initial(setup)
    monkeypatch.undo()
    assert isinstance(orbit.M, OrbitTable)
    assert _fields(inf.posterior(setup, explicit)) == _fields(inf.posterior(setup, orbit))
    for i, ev in enumerate(events):
        inf.update(setup, explicit, i, ev)
        inf.update(setup, orbit, i, ev)
        assert _fields(inf.posterior(setup, explicit)) == _fields(inf.posterior(setup, orbit)), i


@pytest.mark.parametrize("n,v,k,rounds,seed,rotating", [
    (3, 6, 3, 4, 1, False), (3, 6, 3, 4, 2, True), (4, 6, 3, 2, 3, False),
    (4, 4, 2, 4, 4, True), (5, 3, 2, 3, 5, False), (5, 3, 2, 3, 6, True),
    (3, 3, 2, 6, 7, False), (4, 3, 2, 5, 8, False),
])
def test_orbit_posterior_equals_explicit_after_every_event(monkeypatch, n, v, k, rounds, seed,
                                                          rotating):
    setup, events = _god_game(n, v, k, rounds, seed, rotating)
    _compare_every_prefix(monkeypatch, setup, events)


@pytest.mark.parametrize("seed", range(4))
def test_orbit_posterior_with_players_who_do_not_analyse(monkeypatch, seed):
    """Players modelled from the answers alone (a second table) and me not analysing."""
    setup, events = _god_game(4, 3, 2, 4, 100 + seed, rotating=bool(seed % 2))
    obj = setup.to_json() if hasattr(setup, "to_json") else None
    assert obj is not None
    obj = dict(obj, analysing=[setup.players[1]], behavioural_analysis=bool(seed % 2))
    setup2 = Setup.from_json(obj)
    # a log the explicit engine accepts for this setup (it may contradict later: stop there)
    ok = []
    st = inf.initial(setup2)
    for i, ev in enumerate(events):
        try:
            inf.update(setup2, st, i, ev)
        except ContradictionError:
            break
        ok.append(ev)
    _compare_every_prefix(monkeypatch, setup2, ok)


def _world_set(t, n, S):
    """bool over all S^n worlds: membership in an OrbitTable (by canonical orbit)."""
    allw = np.array(list(itertools.product(range(S), repeat=n)), dtype=np.int16)
    if t.full:
        return np.ones(len(allw), dtype=bool)
    return np.isin(t.pack(t._canon(allw)), t.keys)


def _bit_set(b, n, S):
    return np.array([w in b for w in itertools.product(range(S), repeat=n)])


def _react_both(B, T, real, n):
    """One reactions round of the true table ``real`` applied to both an explicit table ``B``
    and an orbit table ``T``: the solvers are split off, then every player's reaction kept."""
    r = [B.row_count(j, real) == 1 for j in range(n)]
    T.split([j for j in range(n) if r[j]])
    bi = [B.solved_indicator(j) for j in range(n)]
    ti = [T.solved_indicator(j) for j in range(n)]
    for j in range(n):
        B.keep_reaction(j, bi[j], r[j])
        T.keep_reaction(j, ti[j], r[j])


@pytest.mark.parametrize("seed", range(6))
def test_table_operations_equal_explicit_with_random_splits(seed):
    """Answers, reactions, resets and block splits in random order: the same worlds."""
    rng = random.Random(seed)
    n, v, k = 4, 3, 1
    S = stack_space(v, k).size
    deck = list(bound_deck(v, k, n).values())
    B, T = BitTable(n, S), OrbitTable(n, S)
    real = [rng.randrange(S) for _ in range(n)]
    for _ in range(6):
        op = rng.choice(["answer", "answer", "react", "reset", "split"])
        if op == "answer":
            q = rng.choice(deck)
            mod = rng.choice([None] + list(range(n)))
            seen = [i != mod for i in range(n)]
            a = q.answer([real[i] for i in range(n) if seen[i]])
            B.filter_answer(q, a, seen)
            T.filter_answer(q, a, seen)
        elif op == "react":
            _react_both(B, T, real, n)
        elif op == "reset":
            j = rng.randrange(n)
            B.reset_player(j, real[j])
            T.reset_player(j, real[j])
            real[j] = rng.randrange(S)
        else:
            T.split(rng.sample(range(n), rng.randrange(1, n)))
        assert (_world_set(T, n, S) == _bit_set(B, n, S)).all(), op
        assert T.count() == B.count()


def test_multisets_and_assignments():
    m = multisets(5, 3)
    assert m.shape[0] == 35 and (np.diff(m, axis=1) >= 0).all()
    assert [tuple(r) for r in m] == sorted(itertools.combinations_with_replacement(range(5), 3))
    a = _assignments((0, 1, 2), [(0,), (1, 2)])
    assert sorted(a) == [(0, 1, 2), (1, 0, 2), (2, 0, 1)]


@pytest.mark.parametrize("blocks", [[(0, 1, 2, 3)], [(0,), (1, 2, 3)], [(0, 1), (2, 3)]])
def test_full_table_generated_in_chunks_comes_in_key_order(monkeypatch, blocks):
    """The full table's orbits, generated in small chunks, are every orbit once, in key order
    (the answer filter relies on it to skip a sort)."""
    import engines.egghead.orbits as orb
    monkeypatch.setattr(orb, "_GEN_LIMIT", 5)
    monkeypatch.setattr(orb, "_CHUNK", 16)
    t = OrbitTable(4, 6, blocks)
    keys = np.concatenate([t.pack(r) for r in t._full_chunks(t.blocks)])
    assert (np.diff(keys) > 0).all()
    assert keys.size == t.orbits
    q = next(iter(bound_deck(6, 1, 4).values()))
    t.filter_answer(q, q.answer([0, 1, 2, 3]), [True] * 4)
    ref = OrbitTable(4, 6, blocks)
    ref.full = False
    ref.keys = keys
    ref.filter_answer(q, q.answer([0, 1, 2, 3]), [True] * 4)
    assert (t.keys == ref.keys).all() and t.count() == ref.count()


@pytest.mark.parametrize("dense", [True, False])
def test_indicator_counted_in_chunks_equals_at_once(monkeypatch, dense):
    """The solved indicator merged over small chunks equals the one from a single chunk
    (sparse keys and dense count arrays alike)."""
    import engines.egghead.orbits as orb
    if not dense:
        monkeypatch.setattr(orb, "_DENSE_LIMIT", -1)
    n, S = 4, 6
    deck = list(bound_deck(6, 1, n).values())
    t = OrbitTable(n, S, [(0,), (1, 2, 3)])
    t.filter_answer(deck[0], deck[0].answer([0, 1, 2, 3]), [True] * n)
    for axis in (0, 1):
        whole = t.copy().solved_indicator(axis)
        with monkeypatch.context() as m:
            m.setattr(orb, "_CHUNK", 7)
            small = t.copy().solved_indicator(axis)
        if dense:
            assert whole.dense is not None and (whole.dense == small.dense).all()
            assert (whole.dense > 0).sum() > 7
        else:
            assert (whole.keys == small.keys).all() and (whole.counts == small.counts).all()
            assert whole.keys.size > 7


def test_six_players_use_orbits_and_start_without_a_table():
    """Six players × 56 stacks: orbits, no world stored before the first answer, an estimate
    of memory far below the explicit table's 4.4 GB, and a timeline that moves one state."""
    six = Setup.from_json({"players": list("ABCDEF"), "me": "A",
                           "visible": {p: [1, 2, 3] for p in "BCDEF"}})
    st = inf.initial(six)
    assert isinstance(st.M, OrbitTable) and st.M.full and st.M.nbytes == 0
    assert inf.memory_needed(six) < 2e9 and inf.is_large(six)
    post = inf.posterior(six, st)
    assert post.worlds == 56 ** 6 and post.valid_count_with_ba == 56


@pytest.mark.parametrize("sizes", [(3,), (1, 2), (2, 1, 1), (0, 3)])
def test_dense_ranks_number_the_orbits_without_gaps(sizes):
    """The mixed-radix colex rank is a bijection from the sorted tuples of each block onto
    0..prod C(S+b-1, b)-1 (the index of the dense indicator)."""
    from engines.egghead.orbits import _dense_ranks
    S = 5
    rows = [np.hstack(parts) if parts else np.zeros(0, dtype=np.int16)
            for parts in itertools.product(*[list(multisets(S, b)) for b in sizes])]
    ranks = _dense_ranks(np.array(rows, dtype=np.int16).reshape(len(rows), sum(sizes)), sizes, S)
    assert sorted(ranks.tolist()) == list(range(len(rows)))


@pytest.mark.parametrize("n,v,k,rounds,seed,rotating", [
    (3, 6, 3, 3, 11, False), (4, 3, 2, 4, 12, True), (5, 3, 2, 2, 13, False),
])
def test_orbit_posterior_with_sparse_indicators_equals_explicit(monkeypatch, n, v, k, rounds,
                                                                seed, rotating):
    """The sparse indicators (six players with many blocks) and the generic answer filter of
    the full table (its other blocks too many to combine at once) are exact too."""
    monkeypatch.setattr(orbits_module, "_DENSE_LIMIT", -1)
    monkeypatch.setattr(orbits_module, "_OUTER_LIMIT", 0)
    setup, events = _god_game(n, v, k, rounds, seed, rotating)
    explicit, orbit = inf.initial(setup), None
    with monkeypatch.context() as m:
        m.setattr(orbits_module, "ORBIT_FROM_BYTES", -1)
        orbit = inf.initial(setup)
    for i, ev in enumerate(events):
        inf.update(setup, explicit, i, ev)
        inf.update(setup, orbit, i, ev)
        assert _fields(inf.posterior(setup, explicit)) == _fields(inf.posterior(setup, orbit)), i
        if i == 0 and orbit.M.orbits:
            assert orbit.inds and all(x.dense is None for x in orbit.inds.values())


@pytest.mark.parametrize("orbit", [False, True])
def test_reactions_at_the_fixpoint_skip_the_table_and_change_nothing(monkeypatch, orbit):
    """A reactions round logged at the fixpoint keeps the table without a pass over it, and
    the posteriors equal those computed with the pass."""
    setup, events = _god_game(4, 3, 2, 4, 21, False)
    if orbit:
        monkeypatch.setattr(orbits_module, "ORBIT_FROM_BYTES", -1)
    skipped = []
    real = inf._reactions_change_nothing

    def spy(*a):
        r = real(*a)
        skipped.append(r)
        return r

    monkeypatch.setattr(inf, "_reactions_change_nothing", spy)
    st = inf.initial(setup)
    fast = []
    for i, ev in enumerate(events):
        inf.update(setup, st, i, ev)
        fast.append(inf.posterior(setup, st))
    assert any(skipped)
    monkeypatch.setattr(inf, "_reactions_change_nothing", lambda *a: False)
    st = inf.initial(setup)
    for i, ev in enumerate(events):
        inf.update(setup, st, i, ev)
        post = inf.posterior(setup, st)
        assert _fields(post) == _fields(fast[i]) and post.learned == fast[i].learned, i
