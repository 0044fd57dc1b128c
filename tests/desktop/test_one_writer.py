"""One writer per file: Save As and Export refuse a file another running instance has open
(naming its process), and the lock on the target is taken before anything is written."""
import os
from pathlib import Path

import pytest
from window_instances import close_instance as _close
from window_instances import copy_example as _copy_example
from window_instances import instance_window as _new_window


@pytest.fixture
def two(qtbot, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QMessageBox

    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: QMessageBox.Ok)
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.Discard)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    held = _copy_example(tmp_path / "a", "cluedo")
    mine = _copy_example(tmp_path / "b", "cluedo")
    a, b = _new_window(qtbot), _new_window(qtbot)
    assert a.open_path(held, ask=False) and b.open_path(mine, ask=False)
    errors = []
    b._error = lambda title, text: errors.append(text)
    yield a, b, held, mine, errors
    _close(b)
    _close(a)


def test_save_as_over_a_file_another_window_holds_is_refused(two):
    a, b, held, mine, errors = two
    before = Path(held).read_bytes()
    tab = b.tab_for("cluedo")
    tab.controller.document.log_event(tab.controller.document.events[-1])
    assert not b._save_to(tab, held)
    assert Path(held).read_bytes() == before                   # nothing written
    assert errors and "open in another Deduction Desk window" in errors[0]
    assert f"process {os.getpid()}" in errors[0]                # which window
    assert tab.controller.document.path == mine and tab.controller.document.is_modified()


def test_export_over_a_file_another_window_holds_is_refused(two, monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    a, b, held, mine, errors = two
    before = Path(held).read_bytes()
    b.select_game("cluedo")
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (held, ""))
    b.export_json()
    assert Path(held).read_bytes() == before and len(errors) == 1
    b.export_csv()
    assert Path(held).read_bytes() == before and len(errors) == 2
    assert all("open in another Deduction Desk window" in e for e in errors)


def test_save_as_takes_the_targets_lock_before_writing(two, tmp_path, monkeypatch):
    import desktop.storage.document as session
    from desktop.storage.locks import open_elsewhere

    a, b, held, mine, errors = two
    target = str(tmp_path / "b" / "new.json")
    seen = []
    real = session.write_text_atomically

    def spy(path, text):
        seen.append(open_elsewhere(path, a.autosave))          # A's view while B writes
        real(path, text)

    monkeypatch.setattr(session, "write_text_atomically", spy)
    assert b._save_to(b.tab_for("cluedo"), target)
    assert seen == [os.getpid()]                               # held by B during the write
    assert open_elsewhere(target, a.autosave) == os.getpid()   # and kept: B's file now
    assert open_elsewhere(mine, a.autosave) is None            # the old file let go
    assert not errors


def _written_elsewhere(path: str) -> str:
    """Another writer (an editor, an app on another machine) adds an entry to ``path``; the
    entry's description."""
    import json

    from engines import game_module
    from engines.core.schema import read_session_file

    obj = json.loads(Path(path).read_text(encoding="utf-8"))
    obj["events"].append(dict(obj["events"][0], time="2026-11-28T21:14:00"))   # local time
    Path(path).write_text(json.dumps(obj), encoding="utf-8")
    data = read_session_file(path)
    return game_module(data.game).describe_event(data.setup, data.events[-1])


@pytest.mark.parametrize("answer", ["cancel", "overwrite", "reload"])
def test_save_over_a_file_changed_elsewhere_asks_and_names_their_entries(
        qtbot, tmp_path, fresh_recovery, no_modal_boxes, answer):
    from engines.core.schema import read_session_file

    w = _new_window(qtbot)
    try:
        path = _copy_example(tmp_path, "egghead")
        assert w.open_path(path, ask=False)
        tab = w.tab_for("egghead")
        doc = tab.controller.document
        n = len(doc.events)
        doc.log_event(doc.events[1])                  # ours, unsaved
        theirs = _written_elsewhere(path)
        asked = []
        w.ask_save_conflict = lambda _tab, text: asked.append(text) or answer
        saved = w.save()
        assert len(asked) == 1
        assert "added 1 entry" in asked[0] and theirs in asked[0] and "21:14" in asked[0]
        on_disk = read_session_file(path)
        if answer == "cancel":                        # nothing overwritten, nothing dropped
            assert not saved and len(on_disk.events) == n + 1 and doc.is_modified()
            assert len(doc.events) == n + 1
        elif answer == "overwrite":
            assert saved and not doc.is_modified()
            assert [e.to_json() for e in on_disk.events] == [e.to_json() for e in doc.events]
            assert w.save() and len(asked) == 1       # our own file now: no question
        else:                                         # the file as it is, ours kept aside
            assert not saved and not doc.is_modified()
            assert [e.to_json() for e in doc.events] == [e.to_json() for e in on_disk.events]
            kept = list((Path(fresh_recovery) / "set-aside").glob("egghead-*.json"))
            assert len(kept) == 1 and len(read_session_file(str(kept[0])).events) == n + 1
    finally:
        _close(w)


def test_a_restored_game_checks_its_file_before_saving(qtbot, tmp_path, fresh_recovery,
                                                        no_modal_boxes):
    a = _new_window(qtbot)
    path = _copy_example(tmp_path, "egghead")
    assert a.open_path(path, ask=False)
    doc = a.tab_for("egghead").controller.document
    doc.log_event(doc.events[1])
    a.autosave.crash_for_test()                       # A is gone, its entry unsaved
    b = _new_window(qtbot)
    try:
        assert b.offer_recovery(ask=False)
        b.select_game("egghead")
        theirs = _written_elsewhere(path)              # after the restore
        asked = []
        b.ask_save_conflict = lambda _tab, text: asked.append(text) or "cancel"
        assert not b.save()
        assert len(asked) == 1 and theirs in asked[0]
    finally:
        _close(b)
        a.autosave.enabled = True
        _close(a)


def test_the_stamp_is_of_the_bytes_that_were_read(tmp_path, monkeypatch):
    """Another program writes the file while it is being parsed: the stamp Save checks against
    is the digest of what was read and shown, so Save sees the file as changed elsewhere (a
    second read to hash it would take the new file as the one shown)."""
    import hashlib

    import engines.core.schema as schema
    from desktop.storage.document import open_session_file_stamped
    from engines.core.resources import resource_path

    path = tmp_path / "s.json"
    first = resource_path("examples", "cluedo.json").read_bytes()
    path.write_bytes(first)
    real = schema.parse_session

    def parse_while_written(obj, file=None, **kw):
        path.write_bytes(first.replace(b'"Ann"', b'"Ana"'))     # someone else saves meanwhile
        return real(obj, file, **kw)

    monkeypatch.setattr(schema, "parse_session", parse_while_written)
    session, stamp = open_session_file_stamped(str(path))
    assert "Ann" in session.setup.players
    assert stamp.sha256 == hashlib.sha256(first).hexdigest()
    assert stamp.sha256 != hashlib.sha256(path.read_bytes()).hexdigest()
