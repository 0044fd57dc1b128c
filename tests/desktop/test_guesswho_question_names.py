"""Guess Who?'s Question column shows each question whole on a 1280×800 window, at 100 % and
150 % zoom (desktop.games.guesswho.model.QuestionView asks its splitter for the width), and an elided
question is whole in its tooltip."""
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from window_idle import example_tab, wait_idle

from desktop.games.guesswho.model import COL_QUESTION
from desktop.table import zoom

#: The tab the ``window`` fixture shows first (tests/desktop/conftest.py).
WINDOW_GAME = "guesswho"


def _names_whole(tab, factor) -> None:
    view = tab.question_view
    hh = view.horizontalHeader()
    assert view.model().rowCount() > 10
    for c in range(hh.count()):   # every cell and title whole, the questions' too
        assert hh.sectionSize(c) >= max(view.sizeHintForColumn(c), hh.sectionSizeHint(c)), (c, factor)
    assert hh.length() <= view.viewport().width() + 1, factor       # no sideways scrolling


def test_question_names_whole_at_1280x800(window, qapp, zoomed_back):
    tab, _session = example_tab(window, "guesswho")
    for factor in (1.0, 1.5):
        zoom.set_zoom(qapp, factor)
        for _ in range(5):
            QApplication.processEvents()
        assert wait_idle(window, 60)
        _names_whole(tab, factor)
    index = tab.question_view.model().index(0, COL_QUESTION)
    tip = index.data(Qt.ItemDataRole.ToolTipRole)
    assert index.data(Qt.ItemDataRole.DisplayRole) in tip
