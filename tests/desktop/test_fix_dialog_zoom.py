"""The Fix… dialog's pixel minimums follow the zoom (desktop.table.zoom.scaled_size): at 150 % its
width, Cluedo's hand list and Inkognito's answer sheet are 1.5 times their 100 % minimum, and the
dialog still fits a 1280×800 screen."""
from PySide6.QtWidgets import QApplication

from desktop.table import zoom
from desktop.tabs.entry_fix import FixEntryDialog
from engines import cluedo, inkognito
from engines.core.resources import resource_path
from engines.core.schema import read_session_file


def _dialog(module, pick):
    session = read_session_file(str(resource_path("examples", f"{module.GAME}.json")))
    events = list(session.events)
    k = next(i for i, e in enumerate(events) if pick(e))
    return FixEntryDialog(module, session.setup, events, k, [])


def _form(dialog):
    """The entry's form (a game whose editor switches forms by kind keeps it in ``form``)."""
    return getattr(dialog.editor, "form", dialog.editor)


def test_fix_dialog_minimums_follow_the_zoom_and_fit_1280x800(qtbot, qapp, zoomed_back):
    for factor in (1.0, 1.5):
        zoom.set_zoom(qapp, factor)
        hand = _dialog(cluedo, lambda e: isinstance(e, cluedo.HandEvent))
        answer = _dialog(inkognito, lambda e: isinstance(e, inkognito.Answer))
        for d in (hand, answer):
            qtbot.addWidget(d)
            d.show()
        QApplication.processEvents()
        assert hand.minimumWidth() == answer.minimumWidth() == round(560 * factor)
        assert _form(hand).cards.minimumHeight() == round(180 * factor)
        assert _form(answer).sheet.minimumHeight() == round(220 * factor)
        for d in (hand, answer):
            need = d.minimumSizeHint().expandedTo(d.minimumSize())
            assert need.width() <= 1280 and need.height() <= 800 - 40, (factor, need)   # a title bar
            d.close()
