"""Opening a long Spyfall log (the example's last claim repeated 2,000 times): the History
lists every entry, is laid out in batches and ends scrolled to the newest entry; the claim
sheet spans its two group headers without reading every row. Structural properties (row and
call counts); the stall itself is measured by tests/benchmarks/bench_open_stall.py."""
import json
import time

from PySide6.QtWidgets import QApplication, QListView

from desktop.games.spyfall.model import ClaimSheetModel
from desktop.widgets.worksheet import KindRole
from engines.core.resources import resource_path

REPEAT = 2000


def _long_log(tmp_path):
    d = json.loads(resource_path("examples", "spyfall.json").read_text(encoding="utf-8"))
    n = len(d["events"]) + REPEAT
    d["events"] = d["events"] + [d["events"][-1]] * REPEAT
    path = tmp_path / "long.json"
    path.write_text(json.dumps(d), encoding="utf-8")
    return path, n


def test_long_log_opens_whole_and_spans_in_constant_reads(window, tmp_path, monkeypatch):
    path, n = _long_log(tmp_path)
    reads = []
    real = ClaimSheetModel.data

    def counting(self, index, role=0):
        if role == KindRole:
            reads.append(index.row())
        return real(self, index, role)

    monkeypatch.setattr(ClaimSheetModel, "data", counting)
    window.resize(1920, 1080)       # wide enough that History is beside the sheet, not folded
    assert window.open_path(str(path), ask=False)
    tab = window.current_tab()
    # the claim sheet: one row per claim, the two group headers spanned, no row's kind read
    m = tab.sheet_model
    assert m.rowCount() == 2 + len(tab._belief_labels()) + 1 + n
    assert reads == []
    for r in range(m.rowCount()):
        spanned = tab.sheet.columnSpan(r, 0) == m.columnCount()
        assert spanned == (r in m.group_rows())
        if r > 5:
            break
    assert m.group_rows() == (0, 1 + len(tab._belief_labels()))
    assert tab.sheet.columnSpan(m.group_rows()[1], 0) == m.columnCount()
    # the History: every entry, whole (wrapped), batched layout, newest entry in view
    view = tab.history._view
    assert not tab.history.is_laid_out()        # laid out in batches, between events
    assert tab.history.entry_count() == 1 + n
    assert view.layoutMode() == QListView.Batched and view.wordWrap()
    deadline = time.monotonic() + 30
    bar = view.verticalScrollBar()
    last = view.model().index(n)
    while time.monotonic() < deadline:
        QApplication.processEvents()
        if bar.maximum() > 0 and bar.value() == bar.maximum() and \
                view.viewport().rect().intersects(view.visualRect(last)):
            break
    assert bar.value() == bar.maximum() > 0
    assert tab.history.is_laid_out()
    assert view.viewport().rect().intersects(view.visualRect(last))
    assert tab.history.entry_text(n).startswith(f"{n}.  ")
    tab.cancel_computation()   # the timeline of 2,000 prefixes is long: not what this tests
