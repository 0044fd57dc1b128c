"""Egghead custom decks: a time estimate per event (engines/egghead/cost.py, in word passes over
the master table, a function of the setup alone) refuses at once a deck on which a log of ten
events would take more than the 10 s a command may take — the audit measured 24-33 s after
10 events on a deck the memory limit let through — naming the field and the estimate."""
from __future__ import annotations

import time

import pytest

from engines.core.errors import SessionFormatError
from engines.egghead import cost
from engines.egghead.model import SEED_DECK, Setup
from engines.egghead.questions import stack_space
from engines.egghead.table import table_bytes


def _setup(n, values, cards):
    players = [chr(65 + i) for i in range(n)]
    return {"players": players, "me": "A", "values": values, "cards_per_player": cards,
            "visible": {p: [1] * cards for p in players[1:]}}


def test_a_deck_whose_ten_events_would_take_over_ten_seconds_is_refused_at_once():
    # 5 players x 5 values x 4 cards: a 384 MB table (under the memory limit); measured
    # 1.9-2.3 s of CPU per answer, so ten events take 20 s and more
    t0 = time.process_time()
    with pytest.raises(SessionFormatError) as exc:
        Setup.from_json(_setup(5, 5, 4))
    assert time.process_time() - t0 < 1.0
    assert exc.value.path == "$.setup.cards_per_player"
    assert "2.4 s of CPU per event" in exc.value.message
    assert "10 events would take about 26 s" in exc.value.message
    with pytest.raises(SessionFormatError) as exc:        # the game's cards, other values
        Setup.from_json(_setup(6, 5, 3))
    assert exc.value.path == "$.setup.values" and "per event" in exc.value.message


def test_the_estimate_is_the_tables_words_times_the_passes_and_bounds_the_limit():
    S = stack_space(5, 4).size
    assert cost.event_work(5, S) == table_bytes(5, S) // 8 * 6
    # every accepted custom deck fits ten events in the budget, every refused one does not
    for n, v, c in [(3, 7, 6), (4, 9, 3), (5, 4, 5), (3, 9, 5), (4, 6, 5), (6, 8, 2)]:
        S = stack_space(v, c).size
        fits = cost.command_seconds(n, S) <= cost.COMMAND_SECONDS
        assert fits == (cost.events_within_budget(n, S) >= cost.EVENTS_PER_COMMAND)
        if fits:
            assert Setup.from_json(_setup(n, v, c)).values == v
        else:
            with pytest.raises(SessionFormatError):
                Setup.from_json(_setup(n, v, c))


def test_the_games_own_deck_is_not_limited_by_the_custom_estimate():
    v, c = SEED_DECK
    S = stack_space(v, c).size
    assert cost.command_seconds(6, S) > cost.COMMAND_SECONDS     # its speed is measured apart
    assert Setup.from_json(_setup(6, v, c)).cards_per_player == c
