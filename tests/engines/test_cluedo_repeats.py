"""A suggestion logged again adds nothing to the deal constraints, and costs nothing again:
the clauses are kept once, the posterior is the same, and opponents' shown cards are drawn
as before when nothing repeats."""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from engines import cluedo
from engines.cluedo import opponents
from engines.cluedo.constraints import constraints_for

SETUP = cluedo.Setup.from_json({"edition": "cluedo-uk", "players": ["Me", "Ann", "Bob", "Cy"], "me": "Me"})
HAND = cluedo.HandEvent(player="Me", cards=SETUP.cards[:5])
UNSEEN = cluedo.SuggestionEvent(suggester="Ann", cards=(SETUP.cards[5], SETUP.cards[7], SETUP.cards[20]),
                                passed=("Bob",), refuter="Cy", shown=None)


def test_a_repeated_suggestion_is_one_clause_and_the_same_posterior():
    once = [HAND, UNSEEN]
    many = [HAND] + [UNSEEN] * 5000
    assert len(constraints_for(SETUP, many).clauses) == 1
    a, b = cluedo.infer(SETUP, once), cluedo.infer(SETUP, many)
    assert a.consistent_deals == b.consistent_deals
    np.testing.assert_array_equal(a.matrix, b.matrix)


def test_the_same_clause_from_two_events_is_kept_once():
    # the same refutation logged by two different events (another passer list, same clause)
    other = cluedo.SuggestionEvent(suggester="Ann", cards=UNSEEN.cards, passed=("Bob",), refuter="Cy", shown=None)
    reordered = cluedo.SuggestionEvent(suggester="Bob", cards=UNSEEN.cards, passed=(), refuter="Cy", shown=None)
    cons = constraints_for(SETUP, [HAND, UNSEEN, other, reordered])
    assert len(cons.clauses) == 1


def _draw_one_by_one(vm, deal, rng) -> tuple:
    """The draw as it was made before repeats were grouped: one per hidden entry, in order."""
    return tuple(o[int(rng.integers(len(o)))] for o in opponents._choices(vm, deal))


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2 ** 32 - 1), st.lists(st.integers(0, 20), min_size=1, max_size=6, unique=True))
def test_without_repeats_the_shown_cards_are_drawn_as_one_by_one(seed, rooms):
    rng = np.random.default_rng(seed)
    from engines.cluedo.simulate import random_deal

    deal = random_deal(SETUP, rng)
    hidden = []
    (_, S), (_, W), (_, R) = SETUP.categories
    for i, x in enumerate(rooms):
        trip = (SETUP.cards.index(S[i % 6]), SETUP.cards.index(W[(i + x) % 6]), SETUP.cards.index(R[x % 9]))
        owners = {int(deal[c]) for c in trip} - {0, 4}
        if owners:
            hidden.append((trip, min(owners)))
    hidden = list(dict.fromkeys(hidden))
    vm = opponents._ViewModel(1, constraints_for(SETUP, []), [], hidden, False)
    assert opponents._draw_shown(vm, deal, np.random.default_rng(seed)) == \
        _draw_one_by_one(vm, deal, np.random.default_rng(seed))


def test_a_repeated_refutation_shows_each_matching_card_at_its_rate():
    deal = np.zeros(len(SETUP.cards), dtype=np.int64)
    trip = (5, 7, 20)
    deal[list(trip)] = 3                          # Cy holds all three
    vm = opponents._ViewModel(1, constraints_for(SETUP, []), [], [(trip, 3)] * 3000, False)
    shown = opponents._draw_shown(vm, deal, np.random.default_rng(5))
    counts = [shown.count(c) for c in trip]
    assert sum(counts) == 3000 and all(900 < n < 1100 for n in counts)   # 1000 each, sd ~26
