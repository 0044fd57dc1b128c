"""Crash tests: the app is a child process, killed (SIGKILL) 0-20 ms after a change in each of
the five games, or ended with SIGTERM; the next start restores exactly what was on screen, and
offers nothing when nothing was unsaved (desktop.storage.journal, desktop.shell.clean_end).

Each trial has its own data, settings and temporary folders (xdist-safe); the restore is the
next start's own search (:func:`desktop.storage.restore.find_orphans`) in that data folder.
"""
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from crash_child import events_hash
from window_instances import ROOT

from engines.core.resources import resource_path
from engines.core.schema import read_session_file

pytestmark = [pytest.mark.crash, pytest.mark.usefixtures("no_modal_boxes")]

GAMES = ("cluedo", "inkognito", "egghead", "guesswho", "spyfall")
#: the changes of one game's trials (the last one is the change the kill follows)
OPS = (("log",), ("log", "undo"), ("log", "undo", "redo"), ("remove",), ("replace",),
       ("log", "log"))
#: milliseconds between the change and SIGKILL, rotated over the games
DELAYS = (0, 1, 2, 5, 10, 20)
CHILD = str(Path(__file__).with_name("crash_child.py"))


class Child:
    """One instance of the app in a folder of its own (data, settings, temporary files)."""

    def __init__(self, folder: Path, game: str, ops, session: str = ""):
        self.folder = folder
        if not session:
            session = str(folder / f"{game}.json")
            Path(session).write_bytes(resource_path("examples", f"{game}.json").read_bytes())
        self.session = session
        env = dict(os.environ, QT_QPA_PLATFORM="offscreen", **self.env(folder))
        self.proc = subprocess.Popen([sys.executable, CHILD, session, game, *ops], cwd=ROOT,
                                     env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True)
        first = self.line("")
        self.refused = first == "refused"
        self.changes = []
        if self.refused:
            return
        _, pid, self.recovery = first.split(maxsplit=2)
        assert int(pid) == self.proc.pid
        before = ops[:ops.index("wait")] if "wait" in ops else ops   # the rest: the test's
        self.changes = [self.line("changed").split()[1:] for _op in before]

    @staticmethod
    def env(folder: Path) -> dict:
        (folder / "tmp").mkdir(exist_ok=True)
        return {"XDG_DATA_HOME": str(folder / "data"), "XDG_CONFIG_HOME": str(folder / "config"),
                "TMPDIR": str(folder / "tmp")}

    def line(self, word: str, timeout: float = 60.0) -> str:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            line = self.proc.stdout.readline()
            if line.startswith(word):
                return line.strip()
            if not line and self.proc.poll() is not None:
                raise AssertionError(f"the child ended ({self.proc.returncode}) before {word!r}")
        raise AssertionError(f"no {word!r} from the child")

    def end(self, sig: int, timeout: float = 30.0) -> int:
        self.proc.send_signal(sig)
        try:
            return self.proc.wait(timeout)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait(10)


def _next_start(monkeypatch, folder: Path):
    """What the next start in ``folder`` finds: ``(orphans, messages)``; the orphans' locks
    are let go (nothing is restored here)."""
    from desktop.storage.restore import find_orphans

    for k, v in Child.env(folder).items():
        monkeypatch.setenv(k, v)
    orphans, messages = find_orphans()
    for o in orphans:
        o.lock.unlock()
    return orphans, messages


@pytest.mark.parametrize("game", GAMES)
def test_sigkill_after_a_change_loses_nothing(game, tmp_path, monkeypatch):
    lost = []
    shift = GAMES.index(game)
    for i, ops in enumerate(OPS):
        delay = DELAYS[(i + shift) % len(DELAYS)]
        folder = tmp_path / f"trial-{i}"
        folder.mkdir()
        child = Child(folder, game, ops)
        n, digest = child.changes[-1]
        if delay:
            time.sleep(delay / 1000)
        assert child.end(signal.SIGKILL) == -signal.SIGKILL
        orphans, _messages = _next_start(monkeypatch, folder)
        found = [(len(d.events), events_hash(d)) for o in orphans for d, _f in o.sessions
                 if d.game == game]
        expect = [(int(n), digest)]
        if digest == events_hash(read_session_file(child.session)):
            expect = []               # back to the saved file (log, undo): nothing to restore
        if found != expect:
            lost.append(f"{'+'.join(ops)} killed {delay} ms after: {found} instead of "
                        f"{[(int(n), digest)]}")
    assert lost == []


def _recovery_files(folder: Path) -> list:
    rec = folder / "data"
    return sorted(p.name for p in rec.rglob("instance-*") if p.suffix in (".json", ".journal"))


def test_sigterm_without_edits_leaves_nothing_to_restore(tmp_path, monkeypatch):
    child = Child(tmp_path, "cluedo", ())
    end = time.monotonic() + 30
    while not os.path.exists(child.recovery) and time.monotonic() < end:
        time.sleep(0.02)      # the checkpoint of the open file (a game with events)
    assert child.end(signal.SIGTERM) == 0
    orphans, messages = _next_start(monkeypatch, tmp_path)
    assert orphans == [] and messages == []
    assert _recovery_files(tmp_path) == []


def test_sighup_after_a_save_leaves_nothing_to_restore(tmp_path, monkeypatch):
    child = Child(tmp_path, "egghead", ("log", "save"))
    assert child.end(signal.SIGHUP) == 0
    orphans, _messages = _next_start(monkeypatch, tmp_path)
    assert orphans == [] and _recovery_files(tmp_path) == []


def test_sigterm_with_edits_keeps_them_and_says_what_they_are(tmp_path, monkeypatch):
    child = Child(tmp_path, "inkognito", ("log", "log", "log"))
    n, digest = child.changes[-1]
    assert child.end(signal.SIGTERM) == 0
    orphans, _messages = _next_start(monkeypatch, tmp_path)
    assert [(len(d.events), events_hash(d)) for o in orphans for d, _f in o.sessions] == \
        [(int(n), digest)]
    text = orphans[0].describe()
    assert "3 entries after the last save, the newest " in text, text


def test_two_instances_with_different_data_folders_never_both_write_one_file(tmp_path):
    """A has s.json open with an unsaved entry; B, whose data folder is another, must not
    open it (the lock beside the file): else B saves, A saves, and B's entry is silently gone."""
    (tmp_path / "a").mkdir()
    a = Child(tmp_path / "a", "guesswho", ("log", "wait", "save"))
    try:
        (tmp_path / "b").mkdir()
        b = Child(tmp_path / "b", "guesswho", ("log", "save"), session=a.session)
        try:
            assert b.refused, "B opened the file A has open"
            assert b.proc.wait(30) == 3
        finally:
            if b.proc.poll() is None:
                b.proc.kill()
                b.proc.wait(10)
        a.proc.stdin.write("go\n")
        a.proc.stdin.flush()
        n, digest = a.line("changed").split()[1:]
        saved = read_session_file(a.session)
        assert (len(saved.events), events_hash(saved)) == (int(n), digest)
    finally:
        a.end(signal.SIGTERM)
