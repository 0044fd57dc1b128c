"""A solve on an orbit table (six players) is refused at once when the table it would leave
cannot fit the task budget; smaller games and explicit tables are unaffected."""
import random
import time

import numpy as np
import pytest

import engines.egghead.inference as inf
import engines.egghead.orbits as orbits_module
from engines.core.errors import SessionFormatError
from engines.egghead import BitTable, Setup, Solve, bound_deck, stack_space
from engines.egghead.orbits import OrbitTable
from tests.engines.test_egghead_orbits import _compare_every_prefix, _god_game


@pytest.mark.parametrize("seed", range(8))
def test_solve_orbits_is_the_size_reset_player_leaves(seed):
    """The estimate is exact: random tables (answers, splits), every axis and stack."""
    rng = random.Random(seed)
    n, v, k = 4, 3, 2
    S = stack_space(v, k).size
    deck = list(bound_deck(v, k, n).values())
    T = OrbitTable(n, S, [range(n)] if seed % 2 else [[0, 1], [2, 3]])
    assert T.solve_orbits(0, 0) == 0                    # the full table stays a flag
    real = [rng.randrange(S) for _ in range(n)]
    for _ in range(2):
        q = rng.choice(deck)
        T.filter_answer(q, q.answer(real), [True] * n)
    if seed % 3 == 0:
        T.split([rng.randrange(n)])
    assert T.keys.size > 0                              # listed
    for axis in range(n):
        for stack in {real[axis], rng.randrange(S)}:
            t = T.copy()
            est = t.solve_orbits(axis, stack)
            t.reset_player(axis, stack)
            assert est == (0 if t.full else t.keys.size)
            assert est % S == 0


def _six_player_table(orbits: int, seed: int = 0) -> OrbitTable:
    """A six-player table of about ``orbits`` random orbits, P5 (axis 4) split off holding 0."""
    rng = np.random.default_rng(seed)
    T = OrbitTable(6, 56, [[0, 1, 2, 3, 5], [4]])
    rows = rng.integers(0, 56, size=(orbits, 6)).astype(np.int16)
    rows[:, 4] = 0
    mine = np.zeros((56, 6), dtype=np.int16)           # the world I see (every stack 0), any of mine
    mine[:, 5] = np.arange(56)
    T._set_rows([T._canon(rows), T._canon(mine)])
    return T


def test_six_player_solve_over_the_limit_is_refused_at_once():
    names = [f"P{i}" for i in range(6)]
    setup = Setup.from_json({"players": names, "me": "P0",
                             "visible": {p: [1, 1, 1] for p in names[1:]}})
    st = inf.initial(setup)
    st.M = _six_player_table(200_000)
    size = st.M.keys.size
    c = time.process_time()
    with pytest.raises(SessionFormatError) as exc:
        inf.update(setup, st, 7, Solve("P5", (1, 1, 1), (2, 2, 2)))
    assert time.process_time() - c < 1.0
    msg = str(exc.value)
    assert msg.startswith("$.events[7]") and "P5" in msg and "M orbits" in msg and "GB" in msg
    assert f"{size * 56 / 1e6:.1f} M orbits" in msg
    assert st.M.keys.size == size                       # nothing was built


def test_six_player_solve_under_the_limit_runs():
    names = [f"P{i}" for i in range(6)]
    setup = Setup.from_json({"players": names, "me": "P0",
                             "visible": {p: [1, 1, 1] for p in names[1:]}})
    st = inf.initial(setup)
    st.M = _six_player_table(2000)
    est = st.M.solve_orbits(4, 0)
    assert 0 < est <= inf.MAX_SOLVE_ORBITS
    inf.update(setup, st, 0, Solve("P5", (1, 1, 1), (2, 2, 2)))
    assert st.M.keys.size == est
    assert inf.posterior(setup, st).valid_count_with_ba == 56


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
    first = next(i for i, e in enumerate(events) if isinstance(e, Solve))
    monkeypatch.setattr(inf, "MAX_SOLVE_ORBITS", 0)
    inf.infer(setup, events)                            # explicit: no limit
    monkeypatch.setattr(orbits_module, "ORBIT_FROM_BYTES", -1)
    with pytest.raises(SessionFormatError, match=rf"^\$\.events\[{first}\]: the solve of"):
        inf.infer(setup, events)
