"""*Fix…* and *Remove…* in the contradiction banner (desktop/tabs/entry_fix.py): Fix… opens
the entry's form filled with the suggested value and focused on it (the game's form; the typed
line behind *Edit as text…*; every game's forms: tests/desktop/test_entry_fix_forms.py), OK replaces the entry (one
undoable step) and gives a log the engine finds consistent, Cancel changes nothing; Remove…
shows the beliefs without the entry — computed by the preview's controller, equal to the
engine's inference on the log without it — and removes it only on *Remove*. Egghead's case
runs inside tests/desktop/test_diagnosis_banner.py (the same window and log)."""

import pytest
from entry_fix_kit import click_link as _click
from entry_fix_kit import contradiction as _contradiction
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox
from window_idle import wait_idle

from desktop.tabs.entry_fix import FixEntryDialog, RemovalPreviewDialog, changed_span
from desktop.tabs.snapshot import Status
from engines import cluedo, egghead
from engines.core.errors import ContradictionError
from engines.core.resources import resource_path
from engines.core.schema import read_session_file


def _example(game):
    return read_session_file(str(resource_path("examples", f"{game}.json")))


def _consistent(module, setup, events):
    try:
        module.infer(setup, events)
    except ContradictionError:
        return False
    return True


def test_changed_span():
    assert changed_span("missing = 1", "missing = 0") == (10, 11)
    assert changed_span("Bob has Library", "Ann has Library") == (0, 3)
    assert changed_span("reactions: B", "reactions: none") == (11, 15)


def test_cluedo_fix_and_remove(window, qtbot):
    data = _example("cluedo")
    bad = cluedo.event_from_json({"type": "shown", "player": "Bob", "card": "Library"},
                                 data.setup, "event")
    events = list(data.events) + [bad]
    tab = _contradiction(window, qtbot, "cluedo", data.setup, events)
    _click(tab, f"fix:{len(events) - 1}:")
    dialog = tab.findChild(FixEntryDialog)
    # the worksheet cell's form, the suggested player set and outlined
    editor = dialog.editor
    assert not dialog.text_shown() and editor.player.currentData() == "Ann"
    assert editor.card.currentData() == "Library" and editor.marked_widgets() == [editor.player]
    # the entry's other corrections are offered; picking one refills the form
    texts = [b.text() for b in dialog.choices.buttons()]
    assert any(t.startswith("Lounge instead of Library") for t in texts), texts
    k = next(i for i, t in enumerate(texts) if t.startswith("Lounge"))
    dialog.choices.button(k).click()
    assert editor.player.currentData() == "Bob" and editor.card.currentData() == "Lounge"
    assert editor.marked_widgets() == [editor.card]
    # the typed line, the other way to edit it: the suggested words selected
    dialog.text_button.click()
    assert dialog.text_shown() and dialog.selected_text() == "Lounge"
    dialog.choose(0)
    assert dialog.line.text().startswith("Ann") and dialog.selected_text() == "Ann"
    dialog.text_button.click()
    assert not dialog.text_shown() and editor.player.currentData() == "Ann"
    dialog.buttons.button(QDialogButtonBox.Ok).click()
    assert wait_idle(window, 60)
    fixed = tab.controller.document.events[-1]
    assert fixed.to_json() == {"type": "shown", "player": "Ann", "card": "Library"}
    assert _consistent(cluedo, data.setup, tab.controller.document.events)
    window.undo_action.trigger()
    assert wait_idle(window, 60)
    qtbot.waitUntil(lambda: "Probably mistyped" in tab.banner.message(), timeout=30000)
    check_removal_preview(window, qtbot, tab, cluedo, data.setup, events, len(events) - 1, "keep")


def _summary_close(module, setup, a, b):
    sa, sb = module.belief_summary(setup, a), module.belief_summary(setup, b)
    assert sa.keys() == sb.keys()
    for key in sa:
        assert sa[key] == pytest.approx(sb[key], rel=1e-9, abs=1e-12), key


def check_removal_preview(window, qtbot, tab, module, setup, events, gone, answer):
    """Remove… on entry ``gone`` of ``tab`` (whose log ``events`` is contradictory): the
    preview shows the posterior of the log without it; then ``answer``: "keep" (Keep it changes
    nothing) or "remove" (Remove removes it, undoable)."""
    doc = tab.controller.document
    rev = doc.revision
    _click(tab, f"remove:{gone}")
    dialog = tab.findChild(RemovalPreviewDialog)
    assert dialog is not None and dialog.isVisible()
    qtbot.waitUntil(lambda: dialog.snapshot().status is Status.READY
                    and not dialog.snapshot().busy, timeout=60000)
    without = [e for j, e in enumerate(events) if j != gone]
    snap = dialog.snapshot()
    assert snap.n == len(without) and snap.live
    assert dialog.preview.controller.document.events == without
    # the preview renders what its controller published: the engine's posterior
    _summary_close(module, setup, snap.posterior,
                   module.infer(setup, without, **tab.controller.options()))
    assert "consistent again" in dialog.head_text()
    assert dialog.buttons.button(QDialogButtonBox.Ok).isEnabled()
    # the preview is read-only: a key typed into it logs nothing
    qtbot.keyClick(dialog.preview, Qt.Key_Delete)
    assert dialog.preview.controller.document.events == without
    if answer == "keep":
        dialog.buttons.button(QDialogButtonBox.Cancel).click()
        assert wait_idle(window, 60)
        assert doc.revision == rev and doc.events == events
        return
    dialog.buttons.button(QDialogButtonBox.Ok).click()
    assert wait_idle(window, 60)
    assert doc.events == without and tab.banner.message() == ""
    window.undo_action.trigger()
    assert wait_idle(window, 60)
    assert doc.events == events


def egghead_fix_and_remove(window, qtbot, tab, data, events):
    """Fix… and Remove… on the Egghead example whose first answer was mistyped as 1 (``tab``
    shows ``events``, the banner is up): run by
    tests/desktop/test_diagnosis_banner.py, which opens that log already."""
    doc = tab.controller.document
    rev, count = doc.revision, doc.undo_stack.count()
    # Cancel: nothing changes
    _click(tab, "fix:0:")
    dialog = tab.findChild(FixEntryDialog)
    assert dialog is not None and dialog.isVisible()
    form = dialog.editor.form                           # the question form, edit mode
    assert form.question.currentData() == "missing" and form.answer.currentData() == 0
    assert dialog.editor.marked_widgets() == [form.answer] and form.button.isHidden()
    dialog.show_text(True)
    assert dialog.line.text() == "missing = 0"          # the entry, its answer changed
    assert dialog.selected_text() == "0" and dialog.focusWidget() is dialog.line
    assert "0" in dialog.message()                      # the entry in words
    dialog.buttons.button(QDialogButtonBox.Cancel).click()
    assert wait_idle(window, 60)
    assert doc.revision == rev and doc.events == events and doc.undo_stack.count() == count
    # a line the grammar cannot read keeps the form open and names the word
    _click(tab, "fix:0:")
    dialog = tab.findChild(FixEntryDialog)
    dialog.show_text(True)
    dialog.line.setText("missing = x")
    dialog.buttons.button(QDialogButtonBox.Ok).click()
    assert dialog.isVisible() and dialog.message().startswith("Not replaced")
    assert doc.revision == rev
    # the suggested value, OK: one undoable step, a consistent log, the banner goes
    dialog.choose(0)
    dialog.buttons.button(QDialogButtonBox.Ok).click()
    assert wait_idle(window, 60)
    assert doc.events[0] == egghead.Answer(question="missing", answer=0) and doc.events[1:] == events[1:]
    assert doc.undo_stack.count() == count + 1
    assert _consistent(egghead, data.setup, doc.events)
    assert tab.snapshot.status is Status.READY and tab.banner.message() == ""
    window.undo_action.trigger()
    assert wait_idle(window, 60)
    assert doc.events == events
    qtbot.waitUntil(lambda: "Probably mistyped" in tab.banner.message(), timeout=30000)
    check_removal_preview(window, qtbot, tab, egghead, data.setup, events, 1, "remove")
