"""Nothing is lost when a write fails: a failed autosave shows at once in the window (a
persistent bar with the reason, Retry and Save as…) while the games stay in memory; text that
is not valid Unicode fails a write with a message instead of an exception; no recovery file is
deleted before its replacement is written; every orphaned session is restored or kept as a
file; a data folder that cannot be written is reported and the app runs on with its recovery
files in a temporary folder."""
import errno
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from autosave_written import wait_written
from window_instances import CHILD_PRELUDE, ROOT
from window_instances import close_instance as _close
from window_instances import copy_example as _copy_example
from window_instances import instance_window as _new_window

#: QMessageBox answered without blocking (tests/desktop/conftest.py).
pytestmark = pytest.mark.usefixtures("no_modal_boxes")




def _disk_full(*_a, **_k):
    raise OSError(errno.ENOSPC, "cannot write recovery.json: No space left on device")


def test_failed_autosave_shows_a_persistent_bar_and_keeps_the_games(qtbot, tmp_path,
                                                                    fresh_recovery, monkeypatch):
    import desktop.storage.document as session

    w = _new_window(qtbot)
    try:
        assert w.open_path(_copy_example(tmp_path, "cluedo"), ask=False)
        doc = w.tab_for("cluedo").controller.document
        n = len(doc.events)
        real = session.write_text_atomically
        monkeypatch.setattr(session, "write_text_atomically", _disk_full)
        doc.log_event(doc.events[-1])
        wait_written(qtbot, w)
        bar = w.write_failure_bar
        assert not bar.isHidden() and bar.kind == "error"
        assert "No space left on device" in bar.text() and "only in memory" in bar.text()
        assert not bar.retry_button.isHidden() and not bar.save_as_button.isHidden()
        assert len(doc.events) == n + 1                      # the game is still in memory
        bar.retry()                                          # still full: still shown
        assert not bar.isHidden()
        doc.log_event(doc.events[-1])
        wait_written(qtbot, w)
        assert not bar.isHidden()
        monkeypatch.setattr(session, "write_text_atomically", real)
        bar.retry()                                          # space again: written, bar gone
        assert bar.isHidden()
        saved = json.loads(Path(w.autosave.recovery_path()).read_text(encoding="utf-8"))
        assert len(saved["sessions"][0]["events"]) == n + 2
        # Save as… is the other way out
        called = []
        monkeypatch.setattr(w, "save_as", lambda: called.append(1) or True)
        bar.save_as_button.click()
        assert called == [1]
    finally:
        _close(w)


def test_text_that_is_not_unicode_fails_writes_with_a_message_not_an_exception(qtbot, tmp_path,
                                                                             fresh_recovery):
    from engines.core.schema import EventMeta

    w = _new_window(qtbot)
    try:
        path = _copy_example(tmp_path, "cluedo")
        before = Path(path).read_bytes()
        assert w.open_path(path, ask=False)
        doc = w.tab_for("cluedo").controller.document
        doc.log_event(doc.events[-1], EventMeta(note="half an emoji \ud83d"))
        wait_written(qtbot, w)
        bar = w.write_failure_bar
        assert not bar.isHidden() and "U+D83D" in bar.text()      # autosave: shown, not raised
        with pytest.raises(OSError, match="not a character"):
            doc.save(path)
        assert Path(path).read_bytes() == before              # the old file stays whole
        errors = []
        w._error = lambda title, text: errors.append(text)
        assert not w._save_to(w.tab_for("cluedo"), path)      # Save: a message
        assert errors and "U+D83D" in errors[0]
        doc.undo_stack.undo()                                  # without the bad note: fine
        wait_written(qtbot, w)
        assert bar.isHidden()
    finally:
        _close(w)


def _orphan(folder, name, sessions, paths=None):
    p = Path(folder) / f"instance-{name}.json"
    p.write_text(json.dumps({"sessions": sessions, "paths": paths or [None] * len(sessions)}),
                 encoding="utf-8")
    os.utime(p, (1_700_000_000 + hash(name) % 1000,) * 2)
    return p


def _example(game):
    from engines.core.resources import resource_path

    return json.loads(resource_path("examples", f"{game}.json").read_text(encoding="utf-8"))


def test_an_orphan_is_not_deleted_before_its_replacement_is_written(qtbot, fresh_recovery,
                                                                    monkeypatch):
    import desktop.storage.document as session

    orphan = _orphan(fresh_recovery, "999991-0000dead", [_example("cluedo")])
    w = _new_window(qtbot)
    try:
        monkeypatch.setattr(session, "write_text_atomically", _disk_full)
        assert w.offer_recovery(ask=False)
        assert len(w.tab_for("cluedo").controller.document.events) == len(_example("cluedo")["events"])
        assert orphan.exists()                 # its replacement could not be written: kept
        assert not w.write_failure_bar.isHidden()
    finally:
        monkeypatch.undo()
        _close(w)


def test_two_orphans_of_one_game_are_both_kept(qtbot, fresh_recovery):
    a = _example("cluedo")
    b = _example("cluedo")
    b["events"] = b["events"][:3]
    first = _orphan(fresh_recovery, "999992-0000dead", [a])
    second = _orphan(fresh_recovery, "999993-0000dead", [b, _example("spyfall")])
    w = _new_window(qtbot)
    try:
        assert w.offer_recovery(ask=False)
        restored = len(w.tab_for("cluedo").controller.document.events)
        assert restored in (len(a["events"]), 3)
        assert len(w.tab_for("spyfall").controller.document.events) == len(_example("spyfall")["events"])
        kept = sorted((Path(fresh_recovery) / "set-aside").glob("*.json"))
        assert len(kept) == 1                  # the other Cluedo game, as a session file
        from engines.core.schema import read_session_file

        other = read_session_file(str(kept[0]))
        assert other.game == "cluedo" and len(other.events) == ({len(a["events"]), 3} - {restored}).pop()
        assert not first.exists() and not second.exists()   # each fully restored or kept
    finally:
        _close(w)


def _child(script: str, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", CHILD_PRELUDE + textwrap.dedent(script)],
                          cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={**os.environ, **env})


def test_unwritable_data_folder_is_reported_and_the_app_runs_on(tmp_path):
    """``deduction-desk FILE`` with a data folder that cannot be made (its parent is a file:
    unwritable for root too) starts, opens the file, autosaves to a temporary folder and says
    so in the window."""
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    session = _copy_example(tmp_path, "cluedo")
    result = _child(f"""
        from PySide6.QtCore import QTimer
        from PySide6.QtWidgets import QApplication, QMessageBox
        import desktop.shell.main_window as appmod
        from desktop.shell.headless import wait_until_idle as wait_idle
        from desktop.storage.paths import data_location
        QMessageBox.warning = lambda *a, **k: QMessageBox.Ok
        QMessageBox.question = lambda *a, **k: QMessageBox.Discard
        seen = {{}}

        def check():
            win = next(w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow))
            wait_idle(win, 60)
            doc = win.tab_for("cluedo").controller.document
            seen["events"] = len(doc.events)
            doc.log_event(doc.events[-1])
            seen["bar"] = win.write_failure_bar.text()
            seen["kind"] = win.write_failure_bar.kind
            seen["recovery"] = win.autosave.recovery_path()
            seen["written"] = os.path.exists(win.autosave.recovery_path())
            seen["location"] = data_location()
            doc.undo_stack.setClean()
            win.autosave.discard()
            win.shutdown()
            app.exit(0)

        QTimer.singleShot(1500, check)
        code = appmod.main([{session!r}])
        print("RESULT", code, json.dumps(seen) if (json := __import__("json")) else "")
    """, {"XDG_DATA_HOME": str(blocker / "data")})
    assert result.returncode == 0, result.stderr[-2000:]
    line = next(ln for ln in result.stdout.splitlines() if ln.startswith("RESULT"))
    code, seen = line.split(" ", 2)[1:]
    seen = json.loads(seen)
    assert code == "0" and "Traceback" not in result.stderr
    assert seen["events"] > 0 and seen["written"]
    assert not seen["recovery"].startswith(str(blocker))
    assert seen["kind"] == "warning" and "cannot be written" in seen["bar"]
    assert str(blocker) in seen["location"][1]
