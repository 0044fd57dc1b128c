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
    tab.document.log_event(tab.document.events[-1])
    assert not b._save_to(tab, held)
    assert Path(held).read_bytes() == before                   # nothing written
    assert errors and "open in another Deduction Desk window" in errors[0]
    assert f"process {os.getpid()}" in errors[0]                # which window
    assert tab.document.path == mine and tab.document.is_modified()


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
    import desktop.session as session
    from desktop.recovery import open_elsewhere

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
