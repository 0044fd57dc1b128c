"""The coin game's own test, as its package keeps it (docs/writing-a-game.md): the conformance
kit of Deduction Desk on both games it declares. It runs with the package installed
(``tests/desktop/test_toy_game.py`` installs it and runs this file in a fresh interpreter)."""
from coin_game.info import COIN, PLAIN_COIN

from engines.core.conformance import conformance_problems


def test_coin_conforms():
    assert conformance_problems(COIN) == []


def test_plain_coin_conforms():
    assert conformance_problems(PLAIN_COIN) == []
