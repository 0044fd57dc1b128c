"""Several instances never lose a log: per-instance recovery files under a QLockFile, restore
only from instances that are gone, damaged recovery files set aside, a clean quit while a
computation runs, and kill -9 during saves and after logging."""
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from autosave_written import wait_written
from window_instances import CHILD_PRELUDE, ROOT
from window_instances import close_instance as _close
from window_instances import copy_example as _copy_example
from window_instances import instance_window as _new_window

from engines.core.resources import resource_path


def _child(script: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", CHILD_PRELUDE + textwrap.dedent(script)],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _wait_line(proc, word: str, timeout: float = 60.0) -> str:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        line = proc.stdout.readline()
        if word in line:
            return line
        if not line and proc.poll() is not None:
            raise AssertionError(f"child ended: {proc.stderr.read()}")
    raise AssertionError(f"no {word!r} from the child")


#: QMessageBox answered without blocking (tests/desktop/conftest.py).
pytestmark = pytest.mark.usefixtures("no_modal_boxes")




def test_two_instances_keep_their_own_files(qtbot, tmp_path, fresh_recovery, monkeypatch):
    from PySide6.QtWidgets import QMessageBox

    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: QMessageBox.Ok)
    a = _new_window(qtbot)
    assert a.open_path(_copy_example(tmp_path), ask=False)
    doc = a.tab_for("guesswho").controller.document
    last = doc.events[-1]
    doc.remove_event(len(doc.events) - 1)
    doc.log_event(last)                       # unsaved work in A
    wait_written(qtbot, a)
    a_file = a.autosave.recovery_path()
    saved = json.loads(Path(a_file).read_text())
    n_a = len(doc.events)
    assert len(saved["sessions"][0]["events"]) == n_a

    b = _new_window(qtbot)                    # A is alive: B offers nothing, touches nothing
    try:
        assert b.autosave.recovery_path() != a_file
        assert not b.offer_recovery(ask=False)
        assert json.loads(Path(a_file).read_text()) == saved
        # the same session file cannot be opened in B while A has it
        assert not b.open_path(str(tmp_path / "guesswho.json"), ask=False)
        assert len(b.tab_for("guesswho").controller.document.events) != n_a or \
            b.tab_for("guesswho").controller.document.path is None
        # B's edits go to B's file, never to A's
        b.tab_for("guesswho").controller.document.log_event(last)
        wait_written(qtbot, b)
        assert json.loads(Path(a_file).read_text()) == saved

        a.autosave.crash_for_test()           # A is gone without cleaning up
        _close(b)
        c = _new_window(qtbot)
        try:
            assert c.offer_recovery(ask=False)
            restored = c.tab_for("guesswho").controller.document
            assert len(restored.events) == n_a and restored.is_modified()
            assert restored.path == str(tmp_path / "guesswho.json")
            assert not os.path.exists(a_file)          # adopted into C's own file
            own = json.loads(Path(c.autosave.recovery_path()).read_text())
            assert len(own["sessions"][0]["events"]) == n_a
        finally:
            _close(c)
    finally:
        _close(a)


def test_killed_instance_is_restored_and_live_one_never_touched(qtbot, tmp_path, fresh_recovery):
    session = _copy_example(tmp_path)
    child = _child(f"""
        win = MainWindow(autosave=True)
        assert win.open_path({session!r}, ask=False)
        doc = win.tab_for("guesswho").controller.document
        ev = doc.events[0]
        for _ in range(3):
            doc.log_event(ev)
        while win.autosave.pending():      # written one pass of the event loop later
            app.processEvents()
        print("ready", len(doc.events), win.autosave.recovery_path(), flush=True)
        while True:
            app.processEvents()
            time.sleep(0.05)
    """)
    try:
        _, n, path = _wait_line(child, "ready").strip().split(maxsplit=2)
        n = int(n)
        assert len(json.loads(Path(path).read_text())["sessions"][0]["events"]) == n
        live = _new_window(qtbot)             # the child is alive: nothing offered
        try:
            assert not live.offer_recovery(ask=False)
            assert os.path.exists(path)
        finally:
            _close(live)
        child.send_signal(signal.SIGKILL)
        child.wait(10)
        assert os.path.exists(path)            # kill -9 left every event in the file
        assert len(json.loads(Path(path).read_text())["sessions"][0]["events"]) == n
        after = _new_window(qtbot)
        try:
            assert after.offer_recovery(ask=False)
            assert len(after.tab_for("guesswho").controller.document.events) == n
            # and the session file is free again in this instance
            assert after.tab_for("guesswho").controller.document.path == session
        finally:
            _close(after)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait(10)


@pytest.mark.parametrize("content", ["[]", '{"sessions": 5}', "{not json", '{"sessions": [1, 2]}',
                                     '{"sessions": [], "paths": 7}'])
def test_damaged_recovery_file_is_set_aside(qtbot, fresh_recovery, content):
    from desktop.storage.restore import find_orphans

    bad = Path(fresh_recovery) / "instance-999999-dead.json"
    bad.write_text(content)
    orphans, messages = find_orphans()
    assert orphans == []
    assert not bad.exists()
    if content != '{"sessions": [], "paths": 7}':       # empty: nothing to keep, removed
        assert (Path(fresh_recovery) / "damaged" / bad.name).read_text() == content
        assert messages and "set aside" in messages[0]
    w = _new_window(qtbot)                                # start-up is never blocked
    _close(w)


def test_declined_restore_keeps_the_file(qtbot, tmp_path, fresh_recovery, monkeypatch):
    from PySide6.QtWidgets import QMessageBox

    a = _new_window(qtbot)
    assert a.open_path(_copy_example(tmp_path, "cluedo"), ask=False)
    doc = a.tab_for("cluedo").controller.document
    doc.log_event(doc.events[-1])             # unsaved work (an unchanged file is not offered)
    a_file = a.autosave.recovery_path()
    wait_written(qtbot, a)
    a.autosave.crash_for_test()
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.No)
    b = _new_window(qtbot)
    try:
        assert not b.offer_recovery(ask=True)
        kept = Path(fresh_recovery) / "declined" / os.path.basename(a_file)
        assert kept.exists() and not os.path.exists(a_file)
    finally:
        _close(b)
        for t in a.game_tabs.values():
            t.shutdown()


def test_quit_during_a_computation_that_ignores_cancel():
    """Quitting while a job never checks for cancellation ends cleanly (no Qt abort)."""
    child = _child("""
        from PySide6.QtCore import QTimer
        from desktop.tabs.jobs import JobRunner
        win = MainWindow(autosave=True)
        runner = JobRunner(win, name="stubborn")
        runner.submit(lambda cancel: time.sleep(30))
        win.show()
        QTimer.singleShot(300, win.close)
        rc = app.exec()
        print("exit", rc, flush=True)
        sys.exit(rc)
    """)
    t0 = time.monotonic()
    out, err = child.communicate(timeout=60)
    assert child.returncode == 0, err
    assert "Destroyed while thread" not in err
    assert time.monotonic() - t0 < 25


SAVER = textwrap.dedent("""
    import json, sys
    from PySide6.QtCore import QCoreApplication
    from desktop.storage.document import write_text_atomically
    app = QCoreApplication([])
    target = sys.argv[1]
    i = 0
    print("go", flush=True)
    while True:
        i += 1
        write_text_atomically(target, json.dumps({"i": i, "pad": ["x" * 100] * (2000 + i % 50)}))
""")


def test_kill_during_save_leaves_old_or_new_file(tmp_path):
    """kill -9 at random moments of a save loop: the target is always a complete file (the
    previous or the new version)."""
    import random

    rng = random.Random(11)
    target = tmp_path / "target.json"
    target.write_text(json.dumps({"i": 0, "pad": []}))
    runs = 0
    n_runs = int(os.environ.get("CRASH_RUNS", "8"))   # more for a report (closing figures)
    for _ in range(n_runs):
        proc = subprocess.Popen([sys.executable, "-c", SAVER, str(target)], cwd=ROOT,
                                stdout=subprocess.PIPE, text=True)
        assert "go" in proc.stdout.readline()
        time.sleep(rng.uniform(0.05, 0.4))
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        data = json.loads(target.read_text())   # complete JSON: the old or the new version
        assert data["i"] == 0 or len(data["pad"]) == 2000 + data["i"] % 50
        # a kill during the write may leave QSaveFile's temporary file beside it (never the
        # target itself half-written)
        assert all(n == "target.json" or n.startswith("target.json.") for n in os.listdir(tmp_path))
        runs += 1
    assert runs == n_runs


def test_csv_cells_that_look_like_formulas_are_neutralised():
    from desktop.storage.document import csv_cell

    assert csv_cell("=HYPERLINK(\"http://x\")") == "'=HYPERLINK(\"http://x\")"
    assert csv_cell("+1+1") == "'+1+1" and csv_cell("@SUM(A1)") == "'@SUM(A1)"
    assert csv_cell("\t=1") == "'\t=1"
    assert csv_cell("-0.5") == "-0.5" and csv_cell("Ann") == "Ann" and csv_cell(0.25) == 0.25


def test_history_csv_neutralises_notes(qtbot):
    import csv
    import io

    from desktop.storage.document import SessionDocument
    from engines.core.schema import EventMeta, read_session_file

    data = read_session_file(str(resource_path("examples", "guesswho.json")))
    doc = SessionDocument("guesswho", data.setup)
    meta = [EventMeta(note="=cmd|' /C calc'!A0", time=m.time) for m in data.meta]
    doc.reset(data.setup, data.events, meta)
    rows = list(csv.reader(io.StringIO(doc.history_csv([None] * (len(data.events) + 1)))))
    assert rows[0][4] == "note" and rows[2][4] == "'=cmd|' /C calc'!A0"


@pytest.mark.parametrize("content", ["[]", '{"sessions": 5}'])
def test_old_single_recovery_file_of_wrong_shape_never_blocks_start(qtbot, fresh_recovery,
                                                                    content):
    from desktop.storage.paths import data_dir

    old = Path(data_dir()) / "recovery.json"
    old.write_text(content)
    w = _new_window(qtbot)
    try:
        assert not w.offer_recovery(ask=False)
        assert not old.exists()
        damaged = list((Path(fresh_recovery) / "damaged").iterdir())
        assert [p.read_text() for p in damaged] == [content]
    finally:
        _close(w)


def test_temporaries_of_killed_instances_are_removed(fresh_recovery):
    from desktop.storage.restore import find_orphans

    tmp = Path(fresh_recovery) / "instance-999999-dead.json.AbCdEf"
    tmp.write_text('{"sessions": [')
    find_orphans()
    assert not tmp.exists()


def test_start_up_removes_what_crashed_instances_left_but_not_live_locks(tmp_path, fresh_recovery):
    """A killed instance leaves the lock and the ``.owner`` file of the session file it had
    open (and an owner file may outlive its lock): the next scan removes them; the same files
    of an instance that is alive stay."""
    from desktop.storage.locks import open_lock_path, owner_path, process_lock, write_owner
    from desktop.storage.restore import find_orphans

    dead_session, live_session = _copy_example(tmp_path), _copy_example(tmp_path, "spyfall")
    child = _child(f"""
        from desktop.storage.locks import process_lock, open_lock_path, write_owner
        lock = process_lock(open_lock_path({dead_session!r}))
        assert lock.tryLock(0)
        write_owner(lock.fileName(), "4242-deadbeef")
        print("ready", flush=True)
        while True:
            time.sleep(0.05)
    """)
    try:
        _wait_line(child, "ready")
        child.send_signal(signal.SIGKILL)
        child.wait(10)
    finally:
        if child.poll() is None:
            child.kill()
    dead_lock = open_lock_path(dead_session)
    assert os.path.exists(dead_lock) and os.path.exists(owner_path(dead_lock))
    live = process_lock(open_lock_path(live_session))        # this process: alive
    assert live.tryLock(0)
    write_owner(live.fileName(), "4243-0123abcd")
    lone_owner = os.path.join(fresh_recovery, "open-0123456789abcdef0123.owner")
    Path(lone_owner).write_text("{}")
    try:
        find_orphans()
        assert not os.path.exists(dead_lock) and not os.path.exists(owner_path(dead_lock))
        assert not os.path.exists(lone_owner)
        assert os.path.exists(live.fileName()) and os.path.exists(owner_path(live.fileName()))
    finally:
        live.unlock()


def _write_dead_lock(lock_file: str) -> None:
    """A lock file as a process that is gone left it: the content QLockFile writes (pid, app,
    host, machine id; Qt docs "QLockFile::getLockInfo") with the pid of no live process."""
    from desktop.storage.locks import process_lock

    lock = process_lock(lock_file)
    assert lock.tryLock(0)
    lines = Path(lock_file).read_text().split("\n")
    lock.unlock()
    pid = 2 ** 22 + 1                     # above Linux's largest pid (pid_max <= 2**22)
    while True:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        except PermissionError:          # alive, another user's
            pass
        pid += 1
    Path(lock_file).write_text("\n".join([str(pid)] + lines[1:]))


def test_stale_owner_file_is_removed_while_its_lock_is_held(tmp_path, fresh_recovery,
                                                             monkeypatch):
    """The ``.owner`` file of a dead holder goes while the scan holds the lock (so a new
    holder's owner file, written after it takes the lock, is never removed); then the lock
    goes too. A live holder's pair stays."""
    from desktop.storage import locks, restore

    dead_lock = locks.open_lock_path(_copy_example(tmp_path))
    _write_dead_lock(dead_lock)
    locks.write_owner(dead_lock, "4242-deadbeef")
    live = locks.process_lock(locks.open_lock_path(_copy_example(tmp_path, "cluedo")))
    assert live.tryLock(0)
    locks.write_owner(live.fileName(), "4243-0123abcd")
    removed, real_remove = [], locks.remove_quietly

    def remove(path):
        removed.append((path, os.path.exists(dead_lock)))
        real_remove(path)

    monkeypatch.setattr(locks, "remove_quietly", remove)
    try:
        restore.find_orphans()
        assert removed == [(locks.owner_path(dead_lock), True)]
        assert not os.path.exists(dead_lock)
        assert os.path.exists(live.fileName())
        assert os.path.exists(locks.owner_path(live.fileName()))
    finally:
        live.unlock()

