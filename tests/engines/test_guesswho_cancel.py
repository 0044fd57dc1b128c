"""Guess Who?'s question DP honours Cancel within a bounded amount of work however many
(compound) questions a board has: the flag is read at least every
``CANCEL_EVERY_OPS`` subset x question steps (a few milliseconds; the seconds are measured by
tests/benchmarks/bench_guesswho_cancel.py), and compound questions are built from their atoms'
masks (the audit measured 11 s to over 2 minutes ignoring Cancel)."""
from __future__ import annotations

import pytest
from guesswho_boards import random_board_session

from engines.core.errors import Cancelled
from engines.core.schema import parse_session
from engines.guesswho import inference
from engines.guesswho.optimal import CANCEL_EVERY_OPS, QuestionDP


def _dp():
    board = parse_session(random_board_session()).setup.board
    qs = board.questions(True)
    assert len(qs) > 1000                     # compound questions over many-valued attributes
    return board, QuestionDP([board.mask(q) for q in qs])


def test_compound_masks_are_the_or_of_their_atoms():
    board = parse_session(random_board_session()).setup.board
    for q in board.questions(True)[:300]:
        truth = board.truth(q)
        assert board.mask(q) == sum(1 << i for i, t in enumerate(truth) if t)
        expect = [any(c.value(a) == v for a, v in q.atoms) for c in board.characters]
        assert truth.tolist() == expect


def test_cancel_is_read_at_least_every_bounded_amount_of_work():
    board, dp = _dp()
    reads = []
    dp.best((1 << board.size) - 1, lambda: reads.append(dp._count) or False)
    steps = dp._count * len(dp.questions)
    assert dp._count > 50
    assert len(reads) >= steps // (CANCEL_EVERY_OPS + len(dp.questions))


def test_a_set_flag_stops_the_dp_at_the_next_read():
    board, dp = _dp()
    state = {"reads": 0, "at": None}

    def flag():
        state["reads"] += 1
        if state["reads"] == 3:
            state["at"] = dp._count
        return state["reads"] >= 3

    with pytest.raises(Cancelled):
        dp.best((1 << board.size) - 1, flag)
    assert dp._count == state["at"]            # no subset solved after the flag was seen


def test_recommend_with_compound_questions_stops_when_cancelled():
    s = parse_session(random_board_session())
    inference._DP_CACHE.clear()
    reads = []
    with pytest.raises(Cancelled):
        inference.recommend(s.setup, s.events, cancel=lambda: reads.append(1) or len(reads) > 1)
