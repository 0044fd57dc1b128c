"""Egghead orbit tables in small pieces, and Cancel.

The passes over the orbits work in chunks (indicators by runs and rank windows, reaction and
answer filters on the stored keys, the answers-only indicator in pieces): with the chunk sizes
lowered to a few orbits they give what one pass gives and what the explicit table gives. And
every loop over the orbits polls Cancel: in the six-player game with a solve, no stretch of
work between two polls takes more than 0.2 s of CPU, and a Cancel set during the largest
reactions round stops it within that."""
import itertools
import math
import time

import numpy as np
import pytest

import engines.egghead.inference as inf
import engines.egghead.orbits as orb
from engines.core.errors import Cancelled
from engines.egghead import BitTable, Setup, bound_deck, event_from_json
from engines.egghead.orbits import OrbitTable, _dense_ranks, _tuple_aggregates, multisets
from tests.benchmarks.bench_egghead import SOLVE_GAME
from tests.engines.test_egghead_orbits import _compare_every_prefix, _god_game

# CPU-time bounds: the tests that measure CPU run on one pytest-xdist worker, one at a time,
# never beside each other (two memory-bound folds on two cores slow each other down).
pytestmark = pytest.mark.xdist_group("cpu_time")


def _reference_indicator(T: OrbitTable, bi: int) -> np.ndarray:
    """uint8 counts (capped at 2) of the deletion keys of block ``bi``, from the deleted rows
    ranked directly (:func:`_dense_ranks` of ``np.delete``), one distinct stack per orbit."""
    sizes = T._deletion_sizes(bi)
    total = math.prod(math.comb(T.S + b - 1, b) for b in sizes)
    rows = T.unpack(T.keys)
    c0, c1 = T._block_cols()[bi]
    ranks = []
    for j in range(c0, c1):
        last = np.ones(rows.shape[0], dtype=bool) if j == c1 - 1 else rows[:, j] != rows[:, j + 1]
        ranks.append(_dense_ranks(np.delete(rows[last], j, axis=1), sizes, T.S))
    c = np.bincount(np.concatenate(ranks), minlength=total)
    return np.minimum(c, 2).astype(np.uint8)


def _random_table(seed: int, n: int, S: int, blocks, orbits: int) -> OrbitTable:
    rng = np.random.default_rng(seed)
    T = OrbitTable(n, S, blocks)
    rows = rng.integers(0, S, size=(orbits, n)).astype(np.int16)
    if seed % 2:                       # crowd the first stacks: long runs of equal column 0
        rows = np.minimum(rows, rng.integers(0, S, size=(orbits, n)).astype(np.int16))
    T._set_rows([T._canon(rows)])
    return T


@pytest.mark.parametrize("seed,n,S,blocks", [
    (0, 4, 10, [range(4)]), (1, 4, 10, [[0], [1, 2, 3]]), (2, 5, 7, [[0, 1, 2, 4], [3]]),
    (3, 5, 7, [[0, 1], [2, 3, 4]]), (4, 4, 12, [[0, 1], [2], [3]]), (5, 5, 6, [range(5)]),
    (7, 3, 300, [range(3)]),           # S > 255: counts in uint16 until capped
])
def test_dense_indicator_in_small_chunks_equals_the_deleted_rows_ranked(monkeypatch, seed, n, S,
                                                                       blocks):
    """Every block, chunks of 3, 17 and all orbits, rank windows of one entry (a window per
    run of column 0) and unbounded: the counts of the deleted rows ranked directly, and the
    same number of worlds."""
    T = _random_table(seed, n, S, blocks, 400 if S < 100 else 3000)
    worlds = T.count()
    for bi in range(len(T.blocks)):
        ref = _reference_indicator(T, bi)
        assert (ref == 1).any() and (ref == 2).any()
        for chunk, window in itertools.product((3, 17, 1 << 18), (1, 1 << 22)):
            monkeypatch.setattr(orb, "_IND_CHUNK", chunk)
            monkeypatch.setattr(orb, "_WINDOW", window)
            t = T.copy()
            t._count = None
            ind = t._dense_indicator(bi, t._deletion_sizes(bi), None)
            assert ind.dense.dtype == np.uint8 and (ind.dense == ref).all(), (bi, chunk, window)
            assert t._count == worlds


@pytest.mark.parametrize("n,v,k,rounds,seed,rotating", [
    (4, 3, 2, 5, 8, False), (4, 4, 2, 4, 4, True), (5, 3, 2, 3, 5, False), (3, 6, 3, 4, 2, True),
])
def test_small_chunks_give_the_explicit_posterior_after_every_event(monkeypatch, n, v, k, rounds,
                                                                    seed, rotating):
    """Games with solves and answers about the solvers (rotating moderator too) on orbit tables
    whose every pass runs a few orbits at a time (indicators, reaction and answer filters, the
    answers-only indicator, listing the answers' orbits, copying new keys): the explicit
    table's posterior after every event."""
    for name, value in (("_IND_CHUNK", 5), ("_CHUNK", 7), ("_SYM_PIECE", 3), ("_STEP_LIMIT", 11),
                        ("_WINDOW", 4)):
        monkeypatch.setattr(orb, name, value)
    setup, events = _god_game(n, v, k, rounds, seed, rotating)
    _compare_every_prefix(monkeypatch, setup, events)


@pytest.mark.parametrize("v,k,n,top", [(6, 3, 6, 3), (4, 2, 4, 5)])
def test_tuple_aggregates_are_the_combine_over_each_tuple(v, k, n, top):
    for q in bound_deck(v, k, n).values():
        S = q.feature.size
        for b in range(top + 1):
            ms = multisets(S, b)
            want = np.full(ms.shape[0], q.identity, dtype=np.int64)
            for j in range(b):
                want = q.ufunc(want, q.feature[ms[:, j]])
            assert (_tuple_aggregates(q, S, b, np.int64) == want).all(), (q.id, b)


@pytest.mark.parametrize("qid", ["count-2", "sum"])
def test_released_last_column_keeps_the_keys_sorted(qid):
    """An answer about a solver whose column is the last: the new keys come sorted and
    distinct without a sort, each (stored orbit, stack) the answer allows once."""
    deck = bound_deck(3, 2, 5)
    q = deck[qid] if qid in deck else next(iter(deck.values()))
    S = q.feature.size
    T = _random_table(5, 5, S, [[0, 1, 2, 3], [4]], 300)
    T.reset_player(4, int(T.unpack(T.keys)[0, 4]))
    assert T.free == {4} and T.layout[-1] == 4
    stored = T.unpack(T.keys)
    answer = q.answer([int(x) for x in stored[0, :4]] + [0])
    T.filter_answer(q, answer, [True] * 5)
    keys = T.keys
    assert not T.free and keys.size and (np.diff(keys) > 0).all()
    rows = T.unpack(keys)
    agg = np.full(rows.shape[0], q.identity, dtype=np.int64)
    for j in range(5):
        agg = q.ufunc(agg, q.feature[rows[:, j]])
    assert (q.final(agg) == answer).all()
    want = sum(int((q.final(q.ufunc(np.int64(q.combine_all([int(x) for x in r[:4]])),
                                    q.feature)) == answer).sum()) for r in stored)
    assert keys.size == want


# ----------------------------------------------------------------------------- Cancel

def _solve_game():
    setup = Setup.from_json(SOLVE_GAME["setup"])
    return setup, [event_from_json(e, setup) for e in SOLVE_GAME["events"]]


def test_answers_only_table_is_not_listed_past_a_cancel():
    """A table kept as its answers lists its orbits only with Cancel polled: a set Cancel
    stops a reactions filter before the 11.7 M orbits of a six-player answer are listed."""
    setup, events = _solve_game()
    st = inf.initial(setup)
    inf.update(setup, st, 0, events[0])
    assert st.M._sym is not None
    ind = st.M.solved_indicator(0)
    c = time.process_time()
    with pytest.raises(Cancelled):
        st.M.keep_reaction(0, ind, True, lambda: True)
    assert time.process_time() - c < 0.2 and st.M._sym is not None


def _poll_gaps(setup, events) -> tuple[list[float], OrbitTable]:
    """The CPU seconds of every stretch of work between two polls of Cancel while ``events``
    are folded as the command line folds them (from an event's start to its first poll, and
    from its last poll to its end, included), in order, and the final orbit table."""
    gaps = []
    mark = [time.process_time()]

    def poll():
        t = time.process_time()
        gaps.append(t - mark[0])
        mark[0] = t
        return False

    st = inf.initial(setup)
    for i, ev in enumerate(events):
        mark[0] = time.process_time()
        inf.update(setup, st, i, ev, poll)
        poll()
    return gaps, st


def _cancel_delay(setup, events, after: float) -> float:
    """CPU seconds from a Cancel set ``after`` CPU seconds into the last of ``events`` (the
    others folded first) to the Cancelled it raises; AssertionError if it is not raised."""
    st = inf.initial(setup)
    for i, ev in enumerate(events[:-1]):
        inf.update(setup, st, i, ev)
    deadline = time.process_time() + after

    def cancel_later():
        return time.process_time() >= deadline

    with pytest.raises(Cancelled):
        inf.update(setup, st, len(events) - 1, events[-1], cancel_later)
    return time.process_time() - deadline


# A stretch of CPU time measured once can be stretched by the machine (page faults of a fresh
# buffer under memory pressure, another process's cache traffic); the work itself is the same
# in every run, since the fold is deterministic and polls at the same places. So a stretch
# over the bound is measured again, and the least of up to three runs is the figure, as
# timeit takes the least of its repeats (Python documentation, "timeit", note on repeat).
_REPEATS = 3


def test_six_player_game_with_a_solve_polls_cancel_every_fifth_of_a_second():
    """The six-player game where P5 solves, up to the largest reactions round (the answer
    that releases P5 leaves 11.4 M orbits; the round after it lists and filters them),
    folded as the command line folds it: the CPU time between two polls of Cancel (and from
    an event's start to its first poll, from the last to its end) stays under 0.2 s, each
    stretch taken as the least of up to three runs."""
    setup, events = _solve_game()
    gaps, st = _poll_gaps(setup, events[:8])
    assert st.M.keys.size == 7_885_875 and not st.M.free    # P5 released, reactions kept
    assert len(gaps) > 200
    for _ in range(_REPEATS - 1):
        if max(gaps) < 0.2:
            break
        again, _ = _poll_gaps(setup, events[:8])
        assert len(again) == len(gaps)                      # the same polls, in the same order
        gaps = [min(a, b) for a, b in zip(gaps, again)]
    assert max(gaps) < 0.2, sorted(gaps)[-5:]


def test_cancel_in_the_largest_reactions_round_stops_within_a_fifth_of_a_second():
    """A Cancel set 0.5 s of CPU into the largest reactions round of the six-player game
    (11.4 M orbits, about 2.5 s) raises Cancelled within 0.2 s of CPU after it is set (the
    least of up to three runs)."""
    setup, events = _solve_game()
    delays = [_cancel_delay(setup, events[:8], 0.5)]
    while min(delays) >= 0.2 and len(delays) < _REPEATS:
        delays.append(_cancel_delay(setup, events[:8], 0.5))
    assert 0 <= min(delays) < 0.2, delays


@pytest.mark.parametrize("kind", ["explicit", "orbits"])
@pytest.mark.parametrize("op", ["answer", "indicator", "reaction", "solve_last", "solve_first",
                                "count"])
def test_every_table_pass_polls_cancel(kind, op):
    """Each pass over a table (4 players × 10 stacks, every world and after one answer) stops
    at its first poll when Cancel is set: Cancelled, not a finished pass."""
    n, S = 4, 10
    deck = list(bound_deck(4, 2, n).values())
    T = BitTable(n, S) if kind == "explicit" else OrbitTable(n, S, [[0, 1, 2], [3]])
    q = deck[0]
    T.filter_answer(q, q.answer([1, 2, 3, 4]), [True] * n)
    ind = T.solved_indicator(0)
    if kind == "orbits":
        assert T.keys.size                             # listed: the passes read the orbits
        T._count = None                                # counted again, not read from the cache
    calls = {"answer": lambda c: T.filter_answer(deck[1], deck[1].answer([1, 2, 3, 4]),
                                                 [True] * n, c),
             "indicator": lambda c: T.solved_indicator(3, c),
             "reaction": lambda c: T.keep_reaction(1, T.solved_indicator(1), False, c),
             "solve_last": lambda c: T.reset_player(n - 1, 4, c),
             "solve_first": lambda c: T.reset_player(0, 2, c),
             "count": lambda c: T.count(c)}
    assert ind is not None
    with pytest.raises(Cancelled):
        calls[op](lambda: True)
