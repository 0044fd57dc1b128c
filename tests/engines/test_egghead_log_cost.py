"""Egghead: the cost of a log grows with its events, a repeated or implied constraint costs
nearly nothing, and the estimate charged per event (engines/egghead/cost.py) bounds the CPU
time the command takes.

* The fast paths (a reactions round that removes nothing keeps the indicators and marks the
  fixpoint; an answer repeated since the last solve skips its filter) give the same posterior
  as the reference replay that applies every event's filters in full, on random small logs
  (hypothesis; 1e-9).
* Logs drawn up to the limits (3-5 players, the largest accepted decks, long logs with repeated
  answers and rounds, rotating moderators, players who do not analyse): the CPU time of
  ``infer`` (time.process_time) stays under the estimate.
"""
from __future__ import annotations

import time

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engines.egghead.inference as inf
from engines.core.errors import SessionFormatError
from engines.egghead import Answer, BitTable, Reactions, Setup, Solve, bound_deck, cost, infer, stack_space

# CPU-time bounds: the tests that measure CPU run on one pytest-xdist worker, one at a time.
pytestmark = pytest.mark.xdist_group("cpu_time")


def random_log(n, v, k, events, seed, rotating=False, ba=None, dup=0.0, extra_rounds=0):
    """A consistent log of ``events`` events for player P0 from a god's-eye pair of tables (the
    master table and the answers-only table, as the engine models the players who do not
    analyse): random questions (a random moderator when ``rotating``), reactions rounds as the
    real deal gives them until one changes nothing (then ``extra_rounds`` copies of it), solves;
    with probability ``dup`` an earlier answer since the last solve is logged again."""
    rng = np.random.default_rng(seed)
    sp = stack_space(v, k)
    deck = list(bound_deck(v, k, n).values())
    names = [f"P{i}" for i in range(n)]
    ba = [True] * n if ba is None else list(ba)
    real = [int(rng.integers(sp.size)) for _ in range(n)]
    initial = list(real)
    M = BitTable(n, sp.size)
    A = BitTable(n, sp.size)
    out, since_solve = [], []
    while len(out) < events:
        if since_solve and rng.random() < dup:
            out.append(since_solve[int(rng.integers(len(since_solve)))])
            continue
        q = deck[int(rng.integers(len(deck)))]
        mod = int(rng.integers(n)) if rotating else None
        seen = [i != mod for i in range(n)]
        a = q.answer([real[i] for i in range(n) if seen[i]])
        M.filter_answer(q, a, seen)
        A.filter_answer(q, a, seen)
        ev = Answer(question=q.id, answer=a, moderator=None if mod is None else names[mod])
        out.append(ev)
        since_solve.append(ev)
        for _ in range(6):
            tab = [M if ba[j] else A for j in range(n)]
            reacts = [tab[j].row_count(j, real) == 1 for j in range(n)]
            inds = [tab[j].solved_indicator(j) for j in range(n)]
            before = M.count()
            for j in range(n):
                M.keep_reaction(j, inds[j], reacts[j])
            ev = Reactions(solved=tuple(names[j] for j in range(n) if reacts[j]))
            out.append(ev)
            solvers = [j for j in range(n) if reacts[j]]
            for j in solvers:
                M.reset_player(j, real[j])
                A.reset_player(j, real[j])
                old = real[j]
                real[j] = int(rng.integers(sp.size))
                out.append(Solve(player=names[j], cards=sp.stack(old),
                                 new_cards=None if j == 0 else sp.stack(real[j])))
                since_solve = []
            if not solvers and M.count() == before:
                out.extend([ev] * extra_rounds)
                break
    setup = Setup.from_json({"players": names, "me": names[0], "values": v, "cards_per_player": k,
                             "moderator": "rotating" if rotating else "external",
                             "behavioural_analysis": ba[0],
                             "analysing": [names[i] for i in range(1, n) if ba[i]],
                             "visible": {names[i]: list(sp.stack(initial[i])) for i in range(1, n)}})
    return setup, out[:events]


def _reference(setup, events):
    """The posterior with every event applied in full: the state's derived data dropped before
    each event (the fixpoint check, the kept indicators, the changed rows from which they
    would be refreshed) and no answer taken as repeated."""
    state = inf.initial(setup)
    for i, ev in enumerate(events):
        state.inds = state.sups = state.fix = state.post = state.worlds = state.delta = None
        state.answered = set()
        inf.update(setup, state, i, ev)
    state.inds = state.sups = state.fix = state.post = state.worlds = None
    return inf.posterior(setup, state)


def _same(a, b):
    assert a.my_valids == b.my_valids and a.my_valids_without_ba == b.my_valids_without_ba
    assert a.worlds == b.worlds and a.fixpoint_reached == b.fixpoint_reached
    assert a.others_can_solve == b.others_can_solve
    assert np.allclose(a.my_probabilities, b.my_probabilities, rtol=0, atol=1e-9)
    for p in a.others_solve_probability:
        assert abs(a.others_solve_probability[p] - b.others_solve_probability[p]) <= 1e-9
    assert [(r.kind, r.removed, r.removed_without_ba, r.removed_by) for r in a.learned] == \
        [(r.kind, r.removed, r.removed_without_ba, r.removed_by) for r in b.learned]


SMALL = [(3, 3, 2), (4, 3, 2), (3, 4, 2), (4, 2, 2), (5, 2, 2), (3, 6, 1)]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10 ** 6), deck=st.sampled_from(SMALL), rotating=st.booleans(),
       ba=st.lists(st.booleans(), min_size=5, max_size=5), events=st.integers(1, 40),
       dup=st.sampled_from([0.0, 0.3]), extra=st.integers(0, 3))
def test_fast_paths_equal_the_full_replay_on_random_logs(seed, deck, rotating, ba, events, dup, extra):
    n, v, k = deck
    setup, log = random_log(n, v, k, events, seed, rotating, ba[:n], dup, extra)
    _same(infer(setup, log), _reference(setup, log))


def test_a_repeated_constraint_costs_nearly_nothing():
    """One answer and 1,000 identical reactions rounds on five players: the posterior of the
    full replay, and the estimate grows by the fixed part of an event only."""
    setup, log = random_log(5, 2, 2, 3, 4)
    base = [e for e in log if isinstance(e, Reactions)][:1]
    first = [e for e in log if isinstance(e, Answer)][:1]
    many = first + base * 1000
    few = first + base * 10
    _same(infer(setup, many), _reference(setup, many))
    assert cost.log_seconds(setup, many) - cost.log_seconds(setup, few) <= \
        990 * cost.SECONDS_PER_EVENT + 1e-9


def _measure(setup, log):
    infer(setup, log[:1])                       # imports and caches outside the measurement
    t0 = time.process_time()
    infer(setup, log)
    return time.process_time() - t0


# the largest accepted decks of 4 and 5 players (and the game's deck), logs to the limits
LIMITS = [
    (5, 6, 3, dict(events=10, seed=3)),                                  # a truthful game
    (5, 6, 3, dict(events=400, seed=5, extra_rounds=300)),               # repeated rounds
    (5, 4, 5, dict(events=12, seed=3, dup=0.3)),
    (4, 9, 3, dict(events=6, seed=3, rotating=True)),
    (4, 9, 3, dict(events=20, seed=6, ba=[True, False, True, True], extra_rounds=12)),
    (3, 9, 5, dict(events=3, seed=2)),
]


@pytest.mark.parametrize("n,v,k,kw", LIMITS)
def test_the_estimate_bounds_the_cpu_of_logs_at_the_limits(n, v, k, kw):
    setup, log = random_log(n, v, k, **kw)
    est = cost.log_seconds(setup, log)
    assert est <= cost.COMMAND_SECONDS or (v, k) == (6, 3)
    cpu = _measure(setup, log)
    assert cpu <= est, (cpu, est)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10 ** 6), deck=st.sampled_from(SMALL + [(4, 6, 3), (3, 7, 3)]),
       rotating=st.booleans(), ba=st.lists(st.booleans(), min_size=5, max_size=5),
       events=st.integers(1, 120), dup=st.sampled_from([0.0, 0.3]), extra=st.integers(0, 40))
def test_the_estimate_bounds_the_cpu_of_random_logs(seed, deck, rotating, ba, events, dup, extra):
    n, v, k = deck
    setup, log = random_log(n, v, k, events, seed, rotating, ba[:n], dup, extra)
    cpu = _measure(setup, log)
    assert cpu <= cost.log_seconds(setup, log)


def test_a_custom_decks_log_that_cannot_fit_is_refused_at_once_at_its_event():
    """4 players x 9 values x 3 cards: a log of answers that each need a whole pass, long enough
    to pass 10 s by the estimate, is refused before anything is built, at the first event over."""
    setup, log = random_log(4, 9, 3, 1, 3)
    deck = list(bound_deck(9, 3, 4).values())
    # answers that are all different keys: each one charged a pass (none is a repeat)
    answers = [Answer(question=q.id, answer=a) for q in deck for a in q.possible_answers(4)]
    long_log = (answers * 2)[:400]
    t0 = time.process_time()
    with pytest.raises(SessionFormatError) as exc:
        infer(setup, long_log)
    assert time.process_time() - t0 < 1.0
    i = int(exc.value.path.split("[")[1].rstrip("]"))
    assert cost.log_seconds(setup, long_log[:i + 1]) > cost.COMMAND_SECONDS >= \
        cost.log_seconds(setup, long_log[:i])
    assert "s of CPU to replay" in exc.value.message


def test_the_cost_models_game_deck_is_the_models():
    from engines.egghead.cost import GAME_DECK
    from engines.egghead.model import SEED_DECK

    assert GAME_DECK == SEED_DECK
