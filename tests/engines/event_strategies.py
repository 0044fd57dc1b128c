"""Hypothesis strategies of game events, shared by the property tests of the quick-entry
grammars (tests/engines/test_parse.py, tests/engines/test_cluedo_quick_entry_languages.py)."""
from __future__ import annotations

from hypothesis import strategies as st

from engines import cluedo


def cluedo_events(setup):
    """Any Cluedo event of ``setup``: suggestions (with the passers the grammar implies between
    suggester and refuter, the card shown when someone refuted), has, lacks, accusations and
    hands of one to three cards."""
    players, cards = setup.players, setup.cards
    triple = st.tuples(*[st.sampled_from(c) for _cat, c in setup.categories])

    @st.composite
    def suggestion(draw):
        s = draw(st.sampled_from(players))
        r = draw(st.sampled_from([None] + [p for p in players if p != s]))
        t = draw(triple)
        shown = draw(st.sampled_from((None,) + t)) if r else None
        return cluedo.SuggestionEvent(suggester=s, cards=t, passed=cluedo.passers_between(setup, s, r),
                                      refuter=r, shown=shown)

    return st.one_of(
        suggestion(),
        st.builds(cluedo.ShownEvent, player=st.sampled_from(players), card=st.sampled_from(cards)),
        st.builds(cluedo.LacksEvent, player=st.sampled_from(players), card=st.sampled_from(cards)),
        st.builds(cluedo.AccusationEvent, player=st.sampled_from(players), cards=triple, correct=st.booleans()),
        st.builds(cluedo.HandEvent, player=st.sampled_from(players),
                  cards=st.lists(st.sampled_from(cards), min_size=1, max_size=3, unique=True).map(tuple)),
    )
