"""The Spyfall Table page on a short screen: in a 1280×800 window the claim sheet keeps the ▶ row
and the latest claims in view, three at 100 % and two at 150 % zoom, where the beliefs row under
it scrolls and the advice is capped at two lines (before, 150 % showed no claim and 100 % one);
a splitter the user has dragged or restored is left alone (desktop.widgets.fit_split)."""
from PySide6.QtWidgets import QApplication, QLabel, QWidget
from spyfall_table_kit import open_spyfall, wait

from desktop.games.spyfall.model import CLAIMS_IN_VIEW
from desktop.table import zoom
from desktop.widgets.fit_split import FitSplitter
from engines.core.resources import resource_path
from engines.core.schema import read_session_file


def _rows_in_view(tab) -> int:
    """How many claim rows (the ▶ row's logged claims under it) are whole in the sheet."""
    sheet, model = tab.sheet, tab.sheet_model
    pending = model.row_of_item(model.pending_item)
    shown = 0
    for r in range(pending + 1, model.rowCount()):
        rect = sheet.visualRect(model.index(r, 0))
        if rect.top() < 0 or rect.bottom() > sheet.viewport().height():
            break
        shown += 1
    return shown


def test_claim_rows_in_view_at_150_percent_on_1280x800(window, qapp, zoomed_back):
    session = read_session_file(str(resource_path("examples", "spyfall.json")))
    window.resize(1280, 800)
    tab = open_spyfall(window, session.setup, session.events)
    zoom.set_zoom(qapp, 1.5)
    for _ in range(5):
        QApplication.processEvents()
    wait(window)
    assert len(tab.controller.document.events) >= CLAIMS_IN_VIEW
    assert _rows_in_view(tab) >= CLAIMS_IN_VIEW - 1
    assert tab.advice_box.max_lines() is not None            # the page is short: capped
    assert tab.table_split.sizes()[1] >= tab.table_split.rest_height() - 1
    zoom.set_zoom(qapp, 1.0)                                  # room again: the advice whole
    for _ in range(5):
        QApplication.processEvents()
    wait(window)
    assert _rows_in_view(tab) >= CLAIMS_IN_VIEW
    assert tab.advice_box.max_lines() is None


def test_fit_splitter_gives_the_first_pane_what_it_wants_until_dragged_or_restored(qtbot, qapp):
    split = FitSplitter(lambda: (300, 300), rest_lines=2)
    split.addWidget(QWidget())
    split.addWidget(QLabel("rest"))
    split.setStretchFactor(0, 1)
    split.setStretchFactor(1, 1)
    qtbot.addWidget(split)
    split.resize(200, 400)
    split.show()
    qtbot.waitUntil(lambda: split.sizes()[0] == 300)
    saved = split.saveState()
    split.resize(200, 320)                  # short: the rest keeps its two lines
    qtbot.waitUntil(lambda: split.sizes()[1] == split.rest_height())
    split.resize(200, 1000)                 # tall: the stretch share (500) is more than wanted
    qtbot.waitUntil(lambda: split.sizes()[0] >= 490)
    split.moveSplitter(200, 1)              # the user drags the handle
    assert not split.fitting
    before = split.sizes()
    split.fit()
    assert split.sizes() == before          # the user's sizes stay

    restored = FitSplitter(lambda: (300, 300))
    restored.addWidget(QWidget())
    restored.addWidget(QWidget())
    qtbot.addWidget(restored)
    assert restored.restoreState(saved) and not restored.fitting   # a saved layout: the user's
