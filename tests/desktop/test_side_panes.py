"""Side panes fold into tabs below the width they need side by side, and back above it, with
nothing lost (desktop.widgets.side_panes.SidePanes, used by every game tab)."""
from __future__ import annotations

import pytest
from PySide6.QtCore import QItemSelectionModel
from PySide6.QtWidgets import QLineEdit, QListWidget, QTabWidget, QVBoxLayout, QWidget

from desktop.widgets.side_panes import SidePanes, min_width

#: The tab the ``window`` fixture shows first (tests/desktop/conftest.py).
WINDOW_GAME = "guesswho"


def _settle(qapp, rounds: int = 4) -> None:
    for _ in range(rounds):
        qapp.processEvents()


def _list(n: int, width: int) -> QListWidget:
    w = QListWidget()
    w.addItems([f"entry {i}" for i in range(n)])
    w.setMinimumWidth(width)
    return w


@pytest.fixture
def panes(qtbot, qapp):
    top = QWidget()
    lay = QVBoxLayout(top)
    lay.setContentsMargins(0, 0, 0, 0)
    split = SidePanes()
    lay.addWidget(split)
    main = _list(300, 300)
    split.addWidget(main)
    ranking = _list(300, 250)
    form = QWidget()
    form.setMinimumWidth(240)
    edit = QLineEdit(form)
    split.add_pane(ranking, "Ranking")
    split.add_pane(form, "Form")
    qtbot.addWidget(top)
    top.resize(1000, 400)
    top.show()
    _settle(qapp)
    return top, split, main, ranking, form, edit


def test_folds_below_the_width_side_by_side_and_unfolds_above(panes, qapp):
    top, split, main, ranking, form, edit = panes
    need = split.width_side_by_side()
    assert need == 300 + 250 + 240 + 2 * split.handleWidth()
    assert not split.is_folded() and split.count() == 3
    assert [split.widget(i) for i in range(3)] == [main, ranking, form]
    # the window may be narrower than the panes side by side: the minimum is the folded one
    assert split.minimumSizeHint().width() == split.width_folded() < need
    top.resize(need - 20, 400)
    _settle(qapp)
    assert split.is_folded() and split.count() == 2
    assert split.widget(0) is main and isinstance(split.widget(1), QTabWidget)
    tabs = split.widget(1)
    assert [tabs.tabText(i) for i in range(tabs.count())] == ["Ranking", "Form"]
    assert tabs.widget(0) is ranking and tabs.widget(1) is form
    # every widget lies inside the splitter: nothing sticks out of the window
    assert main.geometry().right() < tabs.geometry().left() <= tabs.geometry().right() < split.width()
    top.resize(need + 20, 400)
    _settle(qapp)
    assert not split.is_folded()
    assert [split.widget(i) for i in range(3)] == [main, ranking, form]
    assert ranking.isVisible() and form.isVisible() and not tabs.isVisible()
    assert form.geometry().right() < split.width()


def test_nothing_lost_selection_scroll_text_tab_and_positions(panes, qapp):
    top, split, main, ranking, form, edit = panes
    need = split.width_side_by_side()
    ranking.setCurrentRow(120, QItemSelectionModel.ClearAndSelect)
    ranking.verticalScrollBar().setValue(97)
    main.verticalScrollBar().setValue(41)
    edit.setText("Ann: plum rope")
    split.setSizes([400, 300, 300])
    _settle(qapp)
    wide_sizes = split.sizes()
    top.resize(need - 50, 400)
    _settle(qapp)
    assert split.is_folded()
    assert ranking.currentRow() == 120 and [i.text() for i in ranking.selectedItems()] == ["entry 120"]
    assert ranking.verticalScrollBar().value() == 97
    assert main.verticalScrollBar().value() == 41
    assert edit.text() == "Ann: plum rope"
    split.tabs.setCurrentIndex(1)            # the player looks at the form, folded
    top.resize(need + 100, 400)
    _settle(qapp)
    assert not split.is_folded()
    assert ranking.currentRow() == 120 and ranking.verticalScrollBar().value() == 97
    assert main.verticalScrollBar().value() == 41 and edit.text() == "Ann: plum rope"
    # the side by side positions come back in proportion (the window is 100 px wider now)
    total, before = sum(split.sizes()), sum(wide_sizes)
    assert [round(s / total, 1) for s in split.sizes()] == [round(s / before, 1) for s in wide_sizes]
    top.resize(need - 50, 400)
    _settle(qapp)
    assert split.is_folded() and split.tabs.currentIndex() == 1   # the tab chosen last time


def test_saved_state_is_the_side_by_side_one(panes, qapp):
    top, split, *_ = panes
    split.setSizes([500, 250, 250])
    _settle(qapp)
    state = split.saveState()
    top.resize(split.width_side_by_side() - 30, 400)
    _settle(qapp)
    assert split.is_folded()
    assert split.saveState() == state            # what the window keeps at quit
    assert split.restoreState(state)             # kept for the next unfold


def test_a_single_pane_never_folds(qtbot, qapp):
    split = SidePanes()
    split.addWidget(_list(5, 300))
    split.add_pane(_list(5, 200), "History")
    qtbot.addWidget(split)
    split.resize(400, 300)
    split.show()
    _settle(qapp)
    assert not split.is_folded()
    assert min_width(split.widget(1)) == 200


def test_zooming_in_folds_without_a_resize(panes, qapp):
    """Larger text makes the panes need more width than the splitter has: they fold although
    the window kept its size."""
    top, split, main, ranking, form, edit = panes
    top.resize(split.width_side_by_side() + 10, 400)
    _settle(qapp)
    assert not split.is_folded()
    ranking.setMinimumWidth(400)                 # as a zoomed font's minimum width would grow
    _settle(qapp)
    assert split.is_folded()


def test_a_game_tab_folds_its_side_panes_and_loses_nothing(window, qapp):
    """The Guess Who? tab (board | questions | History and plots) folds its side panes when the
    window is narrower than they need side by side and unfolds them when it is wider; the
    History entry selected (and the beliefs of that moment), the question selected and the
    question list's scroll position stay (the board, the main view, is not moved; it reflows
    its columns to its width)."""
    from window_idle import wait_idle

    from engines.core.resources import resource_path

    window.open_path(str(resource_path("examples", "guesswho.json")), ask=False)
    window.select_game("guesswho")
    tab = window.tab_for("guesswho")
    assert wait_idle(window, 60)
    split = tab.side_panes
    assert isinstance(split, SidePanes) and len(split.panes()) == 2
    need = split.width_side_by_side()
    window.resize(window.width() + need + 60 - split.width(), 700)
    _settle(qapp)
    assert split.width() >= need and not split.is_folded()
    tab.history.select_entry(2)
    assert wait_idle(window, 60)
    tab.question_view.selectRow(3)
    question = tab.question_view.currentIndex().data()
    bar = tab.question_view.verticalScrollBar()
    bar.setValue(bar.maximum() // 2)
    scroll = bar.value()
    assert scroll > 0, "the question list scrolls at this size"

    def kept():
        assert tab.controller.view_index == 2 and tab.history.current_entry() == 2
        assert tab.question_view.currentIndex().row() == 3
        assert tab.question_view.currentIndex().data() == question
        assert bar.value() == scroll

    window.resize(window.width() - (split.width() - need) - 60, 700)
    _settle(qapp)
    assert split.width() < need and split.is_folded()
    assert [split.tabs.tabText(i) for i in range(split.tabs.count())] == ["Questions", "History and plots"]
    kept()
    split.tabs.setCurrentIndex(0)
    tab.why.select_entry(1)              # a Why? or banner link names an entry: History shows
    assert split.tabs.currentIndex() == 1 and tab.history.isVisible()
    tab.history.select_entry(2)
    assert wait_idle(window, 60)
    window.resize(window.width() + need + 60 - split.width(), 700)
    _settle(qapp)
    assert not split.is_folded() and all(p.isVisible() for p in split.panes())
    kept()
