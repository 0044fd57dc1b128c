"""What the open of a large Spyfall table costs the GUI thread (docs/app-speed.md, "The largest
Spyfall table's open"): the claim sheet's views answer Qt without a call per location or per
claim where the answer is known, and show exactly what they showed before."""
from collections.abc import Sequence

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QHeaderView
from view_kit import shown

from desktop.games.spyfall.model import (
    PENDING_BACKGROUND,
    ClaimSheetModel,
    ClaimSheetView,
    RotatedHeader,
    format_weight,
)
from desktop.shell.locale_format import percent
from desktop.widgets.role_data import BACKGROUND, DISPLAY, FOREGROUND, TOOLTIP
from desktop.widgets.worksheet import heat_color

#: The tab the ``window`` fixture shows first (tests/desktop/conftest.py).
WINDOW_GAME = "spyfall"


def _locations(n: int) -> list[str]:
    return [f"Location {i}" + "x" * (i % 7) for i in range(n)]


def _claims(n: int, s: int) -> list:
    rng = np.random.default_rng(n)
    return [(f"P{t % 5}", rng.choice([0.0, 0.5, 1.0], size=s)) for t in range(n)]


class _CountingHeader(RotatedHeader):
    """Counts Qt's calls for a section's contents (PySide keeps the override it found first,
    so the count is made in a subclass, not by patching the class)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.asked = 0

    def sectionSizeFromContents(self, logical: int) -> QSize:  # noqa: N802 (Qt's method name)
        self.asked += 1
        return super().sectionSizeFromContents(logical)


def test_rotated_header_size_hint_is_qts_without_a_call_per_section(qtbot):
    view = ClaimSheetView()
    header = _CountingHeader(view)
    view.setHorizontalHeader(header)
    header.setSectionResizeMode(QHeaderView.Stretch)
    view, model = shown(qtbot, view, ClaimSheetModel(), 500, 400)
    for n, point in ((0, 9), (3, 9), (40, 14), (250, 11)):   # over 200: Qt's first and last 100
        model.set_sheet(_locations(n), _claims(4, n), ["Public"])
        header.setFont(QFont(header.font().family(), point))
        if n > 2:
            header.hideSection(1)
        assert header.sizeHint() == QSize(QHeaderView.sizeHint(header).width(),
                                          header._label_height())
    header.asked = 0
    model.set_sheet(_locations(200), _claims(4, 200), ["Public"])   # a new table, laid out
    view.resize(520, 400)
    qtbot.wait(1)
    header.sizeHint()
    assert header.asked == 0


class _Weights:
    """A claim's weights that count how often they are read (a plain sequence, so numpy reads
    it through ``__getitem__`` too)."""

    reads = 0

    def __init__(self, values):
        self._values = list(values)

    def __len__(self) -> int:
        return len(self._values)

    def __getitem__(self, i):
        _Weights.reads += 1
        return self._values[i]


WEIGHT = st.sampled_from([0.0, 0.5, 1.0, 0.3, 2.0])


@st.composite
def sheets(draw):
    n = draw(st.integers(1, 5))
    claim = st.lists(WEIGHT, min_size=n, max_size=n).filter(lambda w: max(w) > 0)
    claims = draw(st.lists(claim, max_size=6))
    labels = ["Public"] + (["Mine (as the spy)"] if draw(st.booleans()) else [])
    beliefs = draw(st.one_of(st.none(), st.lists(st.floats(0, 1), min_size=n * len(labels),
                                                 max_size=n * len(labels))))
    pending = draw(st.lists(WEIGHT, min_size=n, max_size=n))
    return n, claims, labels, beliefs, pending, draw(st.booleans())


@settings(max_examples=40, deadline=None)
@given(sheet=sheets())
def test_claim_sheet_shows_the_numbers_of_its_full_matrix(qapp, sheet):
    """Every cell as the sheet showed it when it kept one (n_items × n) matrix: the belief rows
    (unknown: NaN), the pending row, the claims newest first; a claim or the pending row shaded
    by its weight relative to the row's largest (NaN skipped, 1 when none is positive)."""
    n, claims, labels, beliefs, pending, stale = sheet
    model = ClaimSheetModel()
    model.set_sheet([f"L{i}" for i in range(n)], [(f"P{t}", tuple(w)) for t, w in enumerate(claims)],
                    labels)
    rows = None if beliefs is None else np.array(beliefs).reshape(len(labels), n)
    model.set_beliefs(rows)
    model.set_pending(pending)
    model.set_stale(stale)
    b = len(labels)
    full = np.full((b + 1 + len(claims), n), np.nan)
    if rows is not None:
        full[:b] = rows
    full[b] = pending
    if claims:
        full[b + 1:] = np.array(claims[::-1], float)
    np.testing.assert_array_equal(model.matrix(), full)
    top = np.fmax.reduce(full, axis=1)
    top = np.where(top > 0, top, 1.0)
    for row in range(model.rowCount()):
        k = model.item_index(row)
        for col in range(n):
            index = model.index(row, col)
            shown = model.value(row, col)
            if k < 0:
                assert shown is None
                continue
            assert shown == (None if np.isnan(full[k, col]) else full[k, col])
            if k >= b:          # the pending row and the claims
                w = full[k, col]
                brush = model.data(index, BACKGROUND)
                if w > 0:
                    assert brush.color() == heat_color(0.25 + 0.6 * w / top[k])
                elif k == b:
                    assert brush.color() == PENDING_BACKGROUND
                else:
                    assert brush is None
                assert model.data(index, DISPLAY) == format_weight(w)
            if k > b and full[k, col] > 0:
                share = full[k, col] / full[k].sum()
                assert percent(share) in model.data(index, TOOLTIP)


def test_claim_sheet_repaints_only_the_rows_that_changed(qtbot):
    model = ClaimSheetModel()
    model.set_sheet(_locations(6), _claims(50, 6), ["Public", "Mine (as the spy)"])
    changed = []
    model.dataChanged.connect(lambda a, b: changed.append((a.row(), a.column(), b.row(), b.column())))
    model.set_beliefs(np.full((2, 6), 1 / 6))
    beliefs = (model.row_of_item(0), 0, model.row_of_item(1), 5)
    pending = model.row_of_item(model.pending_item)
    model.set_pending(np.ones(6))
    model.cycle(2)
    assert changed == [beliefs, (pending, 0, pending, 5), (pending, 0, pending, 5)]
    model.set_stale(True)                   # grey, then new beliefs: the belief rows
    model.set_beliefs(np.full((2, 6), 1 / 6))
    assert changed[3:] == [beliefs, beliefs] and not model.is_stale()
    model.set_stale(True)                   # grey, then a click: up to the pending row
    model.cycle(1)
    assert changed[5:] == [beliefs, (beliefs[0], 0, pending, 5)] and not model.is_stale()
    assert model.belief_rows() == (beliefs[0], beliefs[2])


def test_claim_sheet_reads_a_claim_only_when_its_row_is_painted(qtbot):
    claims = [(f"P{t % 20}", _Weights(w)) for t, (_p, w) in enumerate(_claims(2000, 30))]
    model = ClaimSheetModel()
    _Weights.reads = 0
    model.set_sheet(_locations(30), claims, ["Public"])
    model.set_beliefs(np.full((1, 30), 1 / 30))
    model.set_pending(np.zeros(30))
    assert _Weights.reads == 0
    view, _model = shown(qtbot, ClaimSheetView(), model, 900, 300)
    view.viewport().grab()                  # a paint of what is in view
    painted = view.rowAt(view.viewport().height() - 1) + 1
    assert 0 < _Weights.reads <= 2 * 30 * painted      # a cell's weight and its row's largest


def test_spy_series_reads_each_posteriors_spy_marginal_with_gaps():
    from types import SimpleNamespace

    from desktop.games.spyfall.tab import spy_series

    posts = [SimpleNamespace(spy={"Ann": 0.25, "Bob": 0.75}), None,
             SimpleNamespace(spy={"Ann": 0.5, "Bob": 0.5})]
    series = spy_series(("Ann", "Bob"), posts)
    np.testing.assert_array_equal(series["Ann"], [0.25, np.nan, 0.5])
    np.testing.assert_array_equal(series["Bob"], [0.75, np.nan, 0.5])
    assert spy_series(("Ann",), posts[:1])["Ann"].tolist() == [0.25]
    assert spy_series(("Ann", "Bob"), [])["Bob"].shape == (0,)


def test_spy_series_is_read_a_part_at_a_time_polling_between_parts(monkeypatch):
    """numpy's conversion of the rows keeps the interpreter lock: a long log's series are read
    SERIES_PART_PREFIXES prefixes at a time, the job's cancel flag polled before each part
    (where it waits while the GUI thread paints), and the parts join into the same arrays."""
    from types import SimpleNamespace

    import desktop.games.spyfall.tab as spytab
    from engines.core.errors import Cancelled

    posts = [None if i % 4 == 3 else SimpleNamespace(spy={"Ann": i / 10, "Bob": 1 - i / 10})
             for i in range(7)]
    whole = spytab.spy_series(("Ann", "Bob"), posts)
    monkeypatch.setattr(spytab, "SERIES_PART_PREFIXES", 3)
    polls = []
    parts = spytab.spy_series(("Ann", "Bob"), posts, cancel=lambda: polls.append(1) and False)
    assert len(polls) == 3                              # 3 + 3 + 1 prefixes
    for p in ("Ann", "Bob"):
        np.testing.assert_array_equal(parts[p], whole[p])
    asked = []
    with pytest.raises(Cancelled):          # a newer log: stops at the next part
        spytab.spy_series(("Ann", "Bob"), posts, cancel=lambda: asked.append(1) or len(asked) > 1)
    assert len(asked) == 2


def test_a_plot_of_arrays_draws_and_reports_what_the_same_lists_do(qtbot):
    from desktop.widgets.belief_plot import BeliefPlot

    lists = {"a": [None, 0.5, 0.25, None, 1.0], "b": [0.1, 0.2, 0.3, 0.4, 0.5]}
    arrays = {k: np.array([np.nan if x is None else x for x in v]) for k, v in lists.items()}
    plots = []
    for series in (lists, arrays):
        plot = BeliefPlot("t")
        qtbot.addWidget(plot)
        plot.set_series(series)
        plots.append(plot)
    assert plots[1].series() == plots[0].series() == lists
    for name in lists:
        xs, ys = (plots[0]._curves[name].getData(), plots[1]._curves[name].getData())
        np.testing.assert_array_equal(xs[0], ys[0])
        np.testing.assert_array_equal(xs[1], ys[1])
    arrays["b"][0] = 9.0                   # the plot keeps its own copy
    assert plots[1].series()["b"][0] == 0.1



def test_new_beliefs_paint_the_belief_rows_of_the_sheet_at_once(window, qtbot, monkeypatch):
    """The render's synchronous paint of the claim sheet covers its belief rows only (the
    claims under them are unchanged)."""
    from PySide6.QtWidgets import QWidget

    tab = window.tab_for("spyfall")
    qtbot.waitUntil(lambda: tab.sheet_model.beliefs() is not None and tab.isVisible())
    painted = []
    monkeypatch.setattr(QWidget, "repaint", lambda self, *rect: painted.append((self, rect)))
    tab._paint_beliefs_now()
    first, last = tab.sheet_model.belief_rows()
    sheet = tab.sheet
    assert painted == [(sheet.viewport(), (0, sheet.rowViewportPosition(first),
                                           sheet.viewport().width(),
                                           sum(sheet.rowHeight(r) for r in range(first, last + 1))))]
    assert sum(sheet.rowHeight(r) for r in range(first, last + 1)) < sheet.viewport().height() / 2


class _CountedClaims(Sequence):
    """A log's claims that count how often one is read."""

    def __init__(self, claims):
        self._claims, self.reads = list(claims), 0

    def __len__(self) -> int:
        return len(self._claims)

    def __getitem__(self, t):
        self.reads += 1
        return self._claims[t]


@settings(max_examples=30, deadline=None)
@given(turns=st.integers(0, 12), spy=st.booleans())
def test_the_sheets_rows_are_those_of_its_layout_made_at_once(qapp, turns, spy):
    """Rows, items and labels read when asked are those the worksheet's set_layout makes."""
    from desktop.widgets.worksheet import ProbabilityTableModel

    labels = ["Public"] + (["Mine (as the spy)"] if spy else [])
    claims = _claims(turns, 3)
    model = ClaimSheetModel()
    model.set_sheet(_locations(3), _CountedClaims(claims), labels)
    reference = ProbabilityTableModel([(model._rows[0][1], labels),
                                       (model._rows[len(labels) + 1][1],
                                        ["next"] + [f"{t + 1}. {p}" for t, (p, _w) in
                                                    enumerate(claims)][::-1])],
                                      _locations(3))
    assert list(model._rows) == reference._rows and model.rowCount() == reference.rowCount()
    assert model.n_items == reference.n_items
    for row in range(-1, model.rowCount() + 1):
        assert model.item_index(row) == reference.item_index(row)
    for item in range(model.n_items + 1):
        assert model.row_of_item(item) == reference.row_of_item(item)


def test_a_log_opened_into_the_sheet_is_read_only_where_it_is_painted(qtbot):
    claims = _CountedClaims(_claims(3000, 30))
    model = ClaimSheetModel()
    model.set_sheet(_locations(30), claims, ["Public"])
    model.set_beliefs(np.full((1, 30), 1 / 30))
    model.set_pending(np.zeros(30))
    model.set_speaker("P1")
    assert model.row_of_item(model.n_items - 1) == model.rowCount() - 1
    assert claims.reads == 0
    view, _model = shown(qtbot, ClaimSheetView(), model, 900, 300)
    view.viewport().grab()
    painted = view.rowAt(view.viewport().height() - 1) + 1
    # each painted claim's cells and its label; Qt's size hint of the row labels reads the
    # first and last 100 (QHeaderView::sizeHint)
    assert 0 < claims.reads <= 3 * 30 * painted + 2 * 100 + 10


def test_my_list_is_filled_without_a_call_per_change_of_each_location(qtbot):
    from desktop.games.spyfall.strikes import StrikeList

    def state(strikes):
        items = [strikes.list.item(i) for i in range(strikes.list.count())]
        return ([(i.text(), i.toolTip(), i.checkState(), i.font().strikeOut(),
                  i.data(FOREGROUND)) for i in items], strikes.title.text(), strikes.struck())

    filled, ticked = StrikeList(), StrikeList()
    qtbot.addWidget(filled)
    qtbot.addWidget(ticked)
    changes = []
    filled.list.itemChanged.connect(changes.append)
    locations = _locations(200)
    filled.set_locations(locations, struck=locations[3:9])
    assert changes == []
    ticked.set_locations(locations)
    ticked.set_struck(locations[3:9])          # the same state, reached item by item
    assert state(filled) == state(ticked)
    assert state(filled)[2] == tuple(locations[3:9]) and "194" in state(filled)[1]


def test_the_next_speaker_asker_and_turn_line_find_the_turn_once(window, monkeypatch):
    from engines import spyfall

    tab = window.tab_for("spyfall")
    setup = tab.controller.setup
    a, b = setup.players[:2]
    tab.reset_document(setup, [spyfall.event_from_json({"type": "ask", "asker": a, "answerer": b},
                                                       setup, "ask")])
    expected = (tab.next_speaker(), tab.next_asker(), tab.turn_text())
    calls = []
    find = spyfall.next_turn
    monkeypatch.setattr(spyfall, "next_turn", lambda *args: calls.append(1) or find(*args))
    tab._default_speaker()
    assert len(calls) == 1
    assert (tab.speaker.currentData(), tab.asker.currentData(), tab.turn_label.text()) == expected
    assert expected[0] == b and b in expected[2]


def test_the_pending_rows_label_changes_only_with_the_name(qapp):
    model = ClaimSheetModel()
    model.set_sheet(_locations(4), _claims(3, 4), ["Public"])
    changed = []
    model.headerDataChanged.connect(lambda *args: changed.append(args[1:]))
    pending = model.row_of_item(model.pending_item)
    for name in ("Ann", "Ann", "Bob", "Bob", ""):
        model.set_speaker(name)
    assert changed == [(pending, pending)] * 3
    assert model.headerData(pending, Qt.Orientation.Vertical, DISPLAY) == "▶ next"


def test_a_hidden_simulation_form_takes_the_table_when_shown_or_read(qtbot):
    from unittest.mock import Mock

    from PySide6.QtGui import QShowEvent
    from PySide6.QtWidgets import QApplication

    from desktop.games.spyfall.simulation import SimulationPanel
    from engines import spyfall

    setup = spyfall.default_setup()
    setup = spyfall.Setup.from_json({**setup.to_json(), "players": [f"P{i}" for i in range(7)],
                                     "me": "P0"})
    hidden, read = SimulationPanel(Mock()), SimulationPanel(Mock())
    for panel in (hidden, read):
        qtbot.addWidget(panel)
        panel.set_table(setup)

    def form(panel):
        return (panel.players.value(), panel.locations.value(), panel.beta.value(),
                panel.lam.value(), panel.rounds.value(), len(panel.seat_combos))

    assert form(hidden)[0] == form(hidden)[5] != 7          # not filled while hidden
    assert read.make_config().players == 7                   # filled when read
    QApplication.sendEvent(hidden, QShowEvent())             # or when shown
    assert form(hidden) == form(read) and form(read)[0] == form(read)[5] == 7
    assert (form(read)[2], form(read)[3], form(read)[4]) == (setup.beta, setup.lam, setup.rounds)


def test_the_focus_order_follows_a_new_document_after_the_events_already_posted(window, qtbot):
    """The walk of the tab's widgets comes in a timer of the event loop, not with the events
    posted in the open's turn (a repaint), so that the turn and its repaint are not longer."""
    from PySide6.QtCore import QCoreApplication

    from engines import spyfall

    tab = window.tab_for("spyfall")
    tab.reset_document(spyfall.default_setup(), [])
    QCoreApplication.sendPostedEvents()
    assert tab._focus_order_due
    qtbot.waitUntil(lambda: not tab._focus_order_due, timeout=2000)


def test_a_sheet_not_laid_out_has_no_rows(qapp):
    model = ClaimSheetModel()
    assert model.rowCount() == 0 and model.row_of_item(model.pending_item) == -1
    assert model.item_index(0) == -1 and model.belief_rows() == (-1, -1)
