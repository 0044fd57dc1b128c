"""The write-ahead journal (desktop.storage.journal): every undoable command is on disk before a view
hears of it, and recovery is the checkpoint plus the journal's replay; a cut last line is
dropped and named, a bad line stops the replay without losing the lines before it."""
import json
import os
from pathlib import Path

import pytest
from window_instances import close_instance as _close
from window_instances import copy_example as _copy_example
from window_instances import instance_window as _new_window

pytestmark = pytest.mark.usefixtures("no_modal_boxes")


def _lines(path: str) -> list:
    return [json.loads(x) for x in Path(path).read_text(encoding="utf-8").splitlines()]


def test_each_command_is_in_the_journal_before_the_views_are_told(qtbot, tmp_path,
                                                                 fresh_recovery):
    w = _new_window(qtbot)
    try:
        assert w.open_path(_copy_example(tmp_path, "cluedo"), ask=False)
        doc = w.tab_for("cluedo").controller.document
        journal = w.autosave.journal_path()
        seen = []

        def told(*_a):   # a view hearing of the change: the line is already on disk
            seen.append(_lines(journal)[-1]["op"] if os.path.exists(journal) else None)

        for sig in (doc.eventsInserted, doc.eventsRemoved, doc.eventChanged, doc.setupReplaced):
            sig.connect(told)
        ev = doc.events[-1]
        doc.log_event(ev)
        doc.undo_stack.undo()
        doc.undo_stack.redo()
        doc.replace_event(0, doc.events[1])
        doc.remove_event(0)
        assert seen == ["insert", "remove", "insert", "replace", "remove"]
    finally:
        _close(w)


def test_recovery_is_the_checkpoint_plus_the_journal(qtbot, tmp_path, fresh_recovery):
    from desktop.storage.restore import find_orphans

    a = _new_window(qtbot)
    path = _copy_example(tmp_path, "inkognito")
    assert a.open_path(path, ask=False)
    doc = a.tab_for("inkognito").controller.document
    qtbot.waitUntil(lambda: not a.autosave.pending(), timeout=5000)   # a checkpoint
    ev = doc.events[0]
    doc.log_event(ev)
    doc.log_event(ev)
    doc.remove_event(1)
    doc.undo_stack.undo()
    doc.replace_event(len(doc.events) - 1, doc.events[1])
    expect = [e.to_json() for e in doc.events]
    a.autosave.crash_for_test()        # no event loop pass: the checkpoint never ran
    orphans, messages = find_orphans()
    try:
        assert not messages
        assert len(orphans) == 1
        data, file = orphans[0].sessions[0]
        assert [e.to_json() for e in data.events] == expect and file == path
        assert "2 entries after the last save" in orphans[0].describe()
    finally:
        for o in orphans:
            o.lock.unlock()
        a.autosave.enabled = True
        _close(a)


def _crashed_with_journal(qtbot, tmp_path):
    """A window that logged two entries after its checkpoint and crashed; (recovery file,
    journal, events expected after the first and after the second entry)."""
    a = _new_window(qtbot)
    assert a.open_path(_copy_example(tmp_path, "egghead"), ask=False)
    doc = a.tab_for("egghead").controller.document
    qtbot.waitUntil(lambda: not a.autosave.pending(), timeout=5000)
    n = len(doc.events)
    doc.log_event(doc.events[-1])
    doc.log_event(doc.events[-1])
    rec, journal = a.autosave.recovery_path(), a.autosave.journal_path()
    a.autosave.crash_for_test()
    a.autosave.enabled = True
    return a, rec, journal, n


def test_a_cut_last_line_is_dropped_and_named(qtbot, tmp_path, fresh_recovery):
    from desktop.storage.restore import find_orphans

    a, _rec, journal, n = _crashed_with_journal(qtbot, tmp_path)
    data = Path(journal).read_bytes()
    Path(journal).write_bytes(data[:-9])      # the last write cut short by the crash
    orphans, messages = find_orphans()
    try:
        assert [len(o.sessions[0][0].events) for o in orphans] == [n + 1]
        assert messages and "cut short" in messages[0] and "dropped" in messages[0]
    finally:
        for o in orphans:
            o.lock.unlock()
        _close(a)


def test_a_bad_line_is_refused_and_the_lines_before_it_kept(qtbot, tmp_path, fresh_recovery):
    from desktop.storage.restore import find_orphans

    a, _rec, journal, n = _crashed_with_journal(qtbot, tmp_path)
    lines = Path(journal).read_text(encoding="utf-8").splitlines()
    last = json.loads(lines[-1])
    last["event"]["refutter"] = "Cy"           # not a key of this event: the reader refuses
    last["event"]["type"] = "no such type"
    lines[-1] = json.dumps(last)
    Path(journal).write_text("\n".join(lines) + "\n", encoding="utf-8")
    orphans, messages = find_orphans()
    try:
        assert [len(o.sessions[0][0].events) for o in orphans] == [n + 1]
        assert messages and f"journal line {len(lines)} was refused" in messages[0]
    finally:
        for o in orphans:
            o.lock.unlock()
        _close(a)


def test_an_unchanged_file_leaves_nothing_to_restore(qtbot, tmp_path, fresh_recovery):
    from desktop.storage.restore import find_orphans

    a = _new_window(qtbot)
    assert a.open_path(_copy_example(tmp_path, "spyfall"), ask=False)
    doc = a.tab_for("spyfall").controller.document
    doc.log_event(doc.events[-1])
    doc.undo_stack.undo()                       # back to the saved file
    qtbot.waitUntil(lambda: not a.autosave.pending(), timeout=5000)
    doc.log_event(doc.events[-1])
    doc.undo_stack.undo()                       # again, without a checkpoint after it
    a.autosave.crash_for_test()
    a.autosave.enabled = True
    orphans, messages = find_orphans()
    try:
        assert orphans == [] and messages == []
    finally:
        for o in orphans:
            o.lock.unlock()
        _close(a)


def test_a_setup_change_and_its_undo_are_replayed(qtbot, tmp_path, fresh_recovery):
    from desktop.storage.restore import find_orphans

    a = _new_window(qtbot)
    assert a.open_path(_copy_example(tmp_path, "egghead"), ask=False)
    tab = a.tab_for("egghead")
    qtbot.waitUntil(lambda: not a.autosave.pending(), timeout=5000)
    on = tab.controller.document.setup.behavioural_analysis
    assert tab.replace_setup("Behavioural analysis", behavioural_analysis=not on)
    tab.controller.document.log_event(tab.controller.document.events[-1])
    assert tab.replace_setup("Behavioural analysis", behavioural_analysis=on)
    tab.controller.document.undo_stack.undo()              # the last setup change undone
    expect = tab.controller.document.setup.to_json()
    assert expect["behavioural_analysis"] is (not on)
    a.autosave.crash_for_test()
    orphans, messages = find_orphans()
    try:
        assert not messages and len(orphans) == 1
        data, _file = orphans[0].sessions[0]
        assert data.setup.to_json() == expect
        assert "a changed setup" in orphans[0].describe()
    finally:
        for o in orphans:
            o.lock.unlock()
        a.autosave.enabled = True
        _close(a)


@pytest.mark.parametrize("edit", [False, True])
def test_ending_without_asking_keeps_only_unsaved_games(qtbot, tmp_path, fresh_recovery, edit,
                                                        monkeypatch):
    """What SIGTERM, SIGHUP and the logout (commitDataRequest) do: desktop.shell.clean_end."""
    from PySide6.QtWidgets import QApplication

    from desktop.storage.restore import find_orphans

    exits = []   # the real exit would end this test process's later event loops at once
    monkeypatch.setattr(QApplication, "exit", lambda code=0: exits.append(code))
    a = _new_window(qtbot)
    path = _copy_example(tmp_path, "guesswho")
    assert a.open_path(path, ask=False)
    doc = a.tab_for("guesswho").controller.document
    if edit:
        doc.log_event(doc.events[-1])
    qtbot.waitUntil(lambda: not a.autosave.pending(), timeout=5000)
    rec, journal = a.autosave.recovery_path(), a.autosave.journal_path()
    assert os.path.exists(rec)                  # a checkpoint while it ran
    a.end_without_asking("test")
    assert exits == [0]
    assert not os.path.exists(journal)
    assert os.path.exists(rec) is edit
    orphans, _messages = find_orphans()
    try:
        assert [len(d.events) for o in orphans for d, _f in o.sessions] == \
            ([len(doc.events)] if edit else [])
    finally:
        for o in orphans:
            o.lock.unlock()


def test_the_logout_writes_everything_and_offers_only_unsaved_games(qtbot, tmp_path,
                                                                    fresh_recovery):
    """commitDataRequest (desktop.shell.clean_end): written at once, the app runs on; killed after
    it, only the unsaved game is offered."""
    from desktop.storage.restore import find_orphans

    a = _new_window(qtbot)
    assert a.open_path(_copy_example(tmp_path, "cluedo"), ask=False)
    assert a.open_path(_copy_example(tmp_path, "spyfall"), ask=False)
    doc = a.tab_for("spyfall").controller.document
    doc.log_event(doc.events[-1])              # spyfall unsaved, cluedo as saved
    a.commit_data()
    assert not a.autosave.pending() and a.autosave.enabled
    assert os.path.getsize(a.autosave.journal_path()) == 0   # all in the checkpoint
    a.autosave.crash_for_test()                # what a kill after the logout leaves
    orphans, messages = find_orphans()
    try:
        assert messages == []
        assert [(d.game, len(d.events)) for o in orphans for d, _f in o.sessions] == \
            [("spyfall", len(doc.events))]
    finally:
        for o in orphans:
            o.lock.unlock()
        a.autosave.enabled = True
        _close(a)
