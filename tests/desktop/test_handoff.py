"""A session file open in one instance is handed to it, never opened twice: File → Open (or
``deduction-desk FILE``) in instance B brings A's tab with the file to the front through A's
QLocalServer, and B says so; when A does not answer, B refuses the file naming A's process."""
import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from window_idle import wait_idle
from window_instances import CHILD_PRELUDE, ROOT, close_instance, copy_example, instance_window


@pytest.fixture
def boxes(monkeypatch):
    """Message boxes recorded instead of shown: [(kind, title, text)]."""
    from PySide6.QtWidgets import QMessageBox

    shown = []
    for kind in ("warning", "information"):
        monkeypatch.setattr(QMessageBox, kind, lambda _p, title, text, *a, _k=kind, **k:
                            shown.append((_k, title, text)) or QMessageBox.Ok)
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.Discard)
    return shown


def test_file_open_in_another_window_is_brought_to_the_front(qtbot, tmp_path, boxes):
    a, b = instance_window(qtbot), instance_window(qtbot)
    try:
        path = copy_example(tmp_path, "spyfall")
        assert a.open_path(path, ask=False)
        a.select_game("cluedo")                 # A shows another tab
        assert wait_idle(a, 60) and wait_idle(b, 60)
        brought = []
        a.handoff.handedOff.connect(brought.append)
        b_doc = b.tab_for("spyfall").controller.document
        before = (b_doc.path, list(b_doc.events))

        assert not b.open_path(path, ask=False)

        assert brought == [os.path.realpath(path)]
        assert a.current_tab() is a.tab_for("spyfall")      # A selected the file's tab
        assert [k for k, _t, _x in boxes] == ["information"]
        text = boxes[0][2]
        assert f"open in another Deduction Desk window (PID {os.getpid()})" in text
        assert "brought to the front" in text
        assert (b_doc.path, list(b_doc.events)) == before  # not opened twice
        assert not b.autosave.holds(path) and a.autosave.holds(path)
    finally:
        close_instance(b)
        close_instance(a)


def test_a_long_temporary_folder_still_hands_off(qtbot, tmp_path, boxes, monkeypatch):
    """Under a TMPDIR so long that a socket file in it would pass the 107 bytes a Unix socket's
    path holds, the server still listens (in a short folder) and the hand-off works."""
    from PySide6.QtCore import QDir

    from desktop.storage import handoff

    deep = tmp_path / ("t" * 50) / ("u" * 50)
    deep.mkdir(parents=True)
    monkeypatch.setenv("TMPDIR", str(deep))
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    assert QDir.tempPath() == str(deep)
    a, b = instance_window(qtbot), instance_window(qtbot)
    try:
        assert a.handoff.listening
        name = handoff.handoff_server_name(a.autosave.instance_id)
        assert os.path.isabs(name) and len(name.encode()) <= handoff.MAX_SOCKET_PATH
        path = copy_example(tmp_path, "egghead")
        assert a.open_path(path, ask=False)
        brought = []
        a.handoff.handedOff.connect(brought.append)
        assert not b.open_path(path, ask=False)
        assert brought == [os.path.realpath(path)]
    finally:
        close_instance(b)
        close_instance(a)


def test_no_answer_falls_back_to_refusal(qtbot, tmp_path, boxes, monkeypatch):
    """A holder whose server is gone (or hangs) answers nothing: B refuses after the timeout."""
    from PySide6.QtNetwork import QLocalServer

    from desktop.storage import handoff

    monkeypatch.setattr(handoff, "HANDOFF_TIMEOUT_MS", 300)
    a, b = instance_window(qtbot), instance_window(qtbot)
    try:
        path = copy_example(tmp_path, "guesswho")
        assert a.open_path(path, ask=False)
        a.handoff.close()
        mute = QLocalServer()                  # accepts, never answers
        assert mute.listen(handoff.handoff_server_name(a.autosave.instance_id))
        t0 = time.monotonic()
        assert not b.open_path(path, ask=False)
        waited = time.monotonic() - t0
        mute.close()
        assert [k for k, _t, _x in boxes] == ["warning"]
        assert f"process {os.getpid()}" in boxes[0][2] and "already open" in boxes[0][2]
        assert b.tab_for("guesswho").controller.document.path != path
        assert waited < 5
    finally:
        close_instance(b)
        close_instance(a)


def test_forged_owner_file_is_not_trusted(qtbot, tmp_path, boxes):
    """An owner file naming another process than the lock's holder is ignored (refusal)."""
    from desktop.storage import locks

    a, b = instance_window(qtbot), instance_window(qtbot)
    try:
        path = copy_example(tmp_path, "guesswho")
        assert a.open_path(path, ask=False)
        owner = locks.owner_path(locks.open_lock_path(path))
        Path(owner).write_text(json.dumps({"pid": os.getpid() + 1,
                                           "instance": a.autosave.instance_id}))
        assert locks.open_elsewhere_owner(path, b.autosave) == (os.getpid(), "")
        assert not b.open_path(path, ask=False)
        assert [k for k, _t, _x in boxes] == ["warning"]
    finally:
        close_instance(b)
        close_instance(a)


def test_second_process_with_file_argument_hands_off_and_ends(tmp_path):
    """``deduction-desk FILE`` while another process has FILE open: the holder brings it to
    the front, the new process ends at once without opening it."""
    path = copy_example(tmp_path, "egghead")
    holder = subprocess.Popen(
        [sys.executable, "-c", CHILD_PRELUDE + textwrap.dedent(f"""
            from PySide6.QtWidgets import QMessageBox
            win = MainWindow(autosave=True)
            win.handoff.handedOff.connect(lambda p: print("HANDED", p, win.current_tab().GAME,
                                                           flush=True))
            assert win.open_path({path!r}, ask=False)
            win.select_game("cluedo")
            print("READY", flush=True)
            t_end = time.monotonic() + 60
            while time.monotonic() < t_end and not sys.stdin.closed:
                app.processEvents()
                time.sleep(0.01)
        """)], cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)
    try:
        assert "READY" in holder.stdout.readline()
        env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
        t0 = time.monotonic()
        second = subprocess.run(
            [sys.executable, "-c", CHILD_PRELUDE.replace("app = make_app()\n", "").replace(
                "app.setApplicationName", "#").replace("app.setOrganizationName", "#")
             + textwrap.dedent(f"""
                import desktop.shell.main_window as A
                real = A.make_app
                def make_app(argv=None):
                    app = real(argv)
                    app.setOrganizationName("DeductionDeskTests")
                    return app
                A.make_app = make_app
                sys.exit(A.main([{path!r}]))
             """)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
        assert second.returncode == 0, second.stderr[-2000:]
        assert "brought to the front" in second.stderr and str(holder.pid) in second.stderr
        line = holder.stdout.readline()
        assert line.split() == ["HANDED", os.path.realpath(path), "egghead"]
        assert time.monotonic() - t0 < 120
    finally:
        holder.stdin.close()
        holder.kill()
        holder.wait()
