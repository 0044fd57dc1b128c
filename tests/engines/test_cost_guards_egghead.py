"""Egghead custom decks: the peak memory of inference, not the master table alone, is held to
the 1 GB limit for decks other than the game's (the audit measured 1.1 GB for a table just
under it), refused at once naming the field and both figures; a deck just under still loads."""
from __future__ import annotations

import time

import pytest

from engines.core.errors import SessionFormatError
from engines.egghead.inference import memory_needed_for
from engines.egghead.model import MAX_CUSTOM_TABLE_BYTES, Setup
from engines.egghead.questions import stack_space
from engines.egghead.table import table_bytes


def _setup(n, values, cards):
    players = [chr(65 + i) for i in range(n)]
    return {"players": players, "me": "A", "values": values, "cards_per_player": cards,
            "visible": {p: [1] * cards for p in players[1:]}}


def test_a_table_under_the_limit_whose_peak_is_over_it_is_refused_at_once():
    S = stack_space(7, 3).size
    assert table_bytes(5, S) < MAX_CUSTOM_TABLE_BYTES < memory_needed_for(5, S)
    t0 = time.process_time()
    with pytest.raises(SessionFormatError) as exc:
        Setup.from_json(_setup(5, 7, 3))
    assert time.process_time() - t0 < 1.0
    assert exc.value.path == "$.setup.values"            # the field that differs from the game's deck
    assert "0.8 GB master table and 1.2 GB at the peak" in exc.value.message


def test_a_custom_deck_within_the_memory_and_time_limits_loads():
    S = stack_space(7, 6).size                       # 3 players: 0.1 GB table, 0.37 GB peak
    assert memory_needed_for(3, S) < MAX_CUSTOM_TABLE_BYTES
    assert Setup.from_json(_setup(3, 7, 6)).values == 7
