"""The Guess Who? board's cards never lie over each other: when the cards grow taller (a
narrower pane, a larger zoom), the grid's rows move down with them."""
from PySide6.QtWidgets import QApplication
from window_idle import wait_idle

from desktop.games.guesswho.cards import BoardView
from engines.core.resources import resource_path

#: The tab the ``window`` fixture shows first (tests/desktop/conftest.py).
WINDOW_GAME = "guesswho"


def _overlaps(board: BoardView) -> list:
    cards = list(board.cards.values())
    return [(a.name, b.name) for i, a in enumerate(cards) for b in cards[i + 1:]
            if a.geometry().intersects(b.geometry())]


def test_cards_do_not_overlap_after_the_board_narrows(window, qtbot):
    window.resize(1266, 740)
    window.show()
    window.open_path(str(resource_path("examples", "guesswho.json")), ask=False)
    window.select_game("guesswho")
    tab = window.tab_for("guesswho")
    assert wait_idle(window, 60)
    qtbot.wait(200)
    assert not _overlaps(board := tab.findChild(BoardView))
    assert len(board.cards) == 24
    for width in (1500, 1100, 800, 1400):     # each width changes columns and card heights
        window.resize(width, 800)
        qtbot.wait(50)
        QApplication.processEvents()
        qtbot.waitUntil(lambda: not _overlaps(board), timeout=3000)
        tall = max(c.height_wanted for c in board.cards.values())
        assert all(c.geometry().height() >= tall for c in board.cards.values())
