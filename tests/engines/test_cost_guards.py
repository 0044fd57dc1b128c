"""What cannot finish within the time contract is refused at once, naming the field and the
estimate: Guess Who? compound questions over many-valued attributes (the audit measured 11 s
to over 2 minutes)."""
from __future__ import annotations

import time

import pytest
from guesswho_boards import random_board_session

from engines.core.errors import SessionFormatError
from engines.core.schema import parse_session
from engines.guesswho.model import MAX_COMPOUND_WORK, compound_questions_count, default_setup


@pytest.mark.parametrize("shape", [(24, 8, 40), (64, 6, 30), (64, 64, 100)])
def test_compound_questions_beyond_the_budget_are_refused_at_once(shape):
    t0 = time.process_time()
    with pytest.raises(SessionFormatError) as exc:
        parse_session(random_board_session(*shape))
    assert time.process_time() - t0 < 2.0
    assert exc.value.path == "$.setup.compound_questions"
    assert "pairs of questions" in exc.value.message and f"{MAX_COMPOUND_WORK:,}" in exc.value.message
    # the same board with single questions is fine
    assert parse_session(random_board_session(*shape, compound=False)).setup.board.size == shape[0]


def test_the_classic_board_and_modest_boards_keep_compound_questions():
    b = default_setup().board
    assert compound_questions_count(b) * b.size <= MAX_COMPOUND_WORK
    assert parse_session(random_board_session(24, 6, 30)).setup.compound_questions
