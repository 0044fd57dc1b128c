"""The diagnosis of a long contradictory log stays within its budget of steps.

A fuzzed Egghead file (the example's entries repeated to 2,008, impossible at entry 9) kept
``python -m engines explain`` busy for minutes: with no single edit found, the search for
removal sets walked all 1.3 billion triples of entries to keep the 20 million that start
within the impossible prefix, and each of those was screened out by the cheap necessary
condition (``answers_fit``) over the 2,000 entries after it without a step being counted, so
the budget never ran out. Now the sets are generated without visiting the others
(:func:`engines.core.diagnosis.removal_sets_to_try`, checked against the brute-force filter of
every combination) and the screened entries count against the budget."""
import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

import engines.egghead as eg
from engines.core.diagnosis import removal_sets_to_try
from engines.egghead.diagnosis import SCREENED_PER_STEP, default_budget


@settings(max_examples=300, deadline=None)
@given(n=st.integers(0, 11), size=st.integers(2, 4), k=st.integers(-1, 12),
       pool=st.one_of(st.none(), st.sets(st.integers(0, 10))))
def test_removal_sets_are_the_combinations_that_start_early_and_touch_the_pool(n, size, k, pool):
    pool = None if pool is None else sorted(x for x in pool if x < n)
    want = [c for c in itertools.combinations(range(n), size)
            if c[0] <= k and (pool is None or set(c) & set(pool))]
    assert list(removal_sets_to_try(n, size, k, pool)) == want


def test_removal_sets_of_a_huge_log_come_without_visiting_the_rest():
    """The first sets of a log of a billion entries, impossible at entry 2, whose conflict is
    entry 7: each comes at once (the generator never walks the sets it leaves out)."""
    first = list(itertools.islice(removal_sets_to_try(10 ** 9, 3, 2, [7]), 4))
    assert first == [(0, 1, 7), (0, 2, 7), (0, 3, 7), (0, 4, 7)]
    last_of_first = list(itertools.islice(removal_sets_to_try(10 ** 9, 2, 0, [7]), 2))
    assert last_of_first == [(0, 7)]                     # 0 is not in the pool: only (0, 7)


ANSWER = {"type": "answer", "question": "missing", "answer": 0, "moderator": None}
SETUP = {"players": ["A", "B", "C"], "me": "A", "values": 6, "cards_per_player": 3,
         "moderator": "external", "behavioural_analysis": True,
         "visible": {"B": [4, 5, 6], "C": [3, 3, 3]}}


def test_a_long_log_impossible_early_is_diagnosed_within_its_budget():
    """The fuzzed file: six answers "no value is missing", B solves with 4 5 6 and draws
    1 1 2, and again, 251 times (2,008 entries; the answer after the first solve is
    impossible). No single edit works; the search for removal sets stops at its budget (not
    complete, said so) after few candidates, the screened entries counted."""
    setup = eg.Setup.from_json(SETUP)
    block = [ANSWER] * 6 + [{"type": "reactions", "solved": ["B"]},
                            {"type": "solve", "player": "B", "cards": [4, 5, 6],
                             "new_cards": [1, 1, 2]}]
    events = [eg.event_from_json(e, setup, f"$.events[{i}]")
              for i, e in enumerate(block * 251)]
    d = eg.diagnose(setup, events)
    budget = default_budget(setup)
    assert d is not None and d.first_bad == 8 and not d.complete
    assert not d.corrections and not d.removal_sets and "budget" in d.message
    # a candidate replays at most the whole log (one step an event) and screens it first
    assert budget <= d.steps <= budget + len(events) + len(events) // SCREENED_PER_STEP[3] + 1
    assert d.tried <= budget // ((len(events) - 9) // SCREENED_PER_STEP[3]) + 1
