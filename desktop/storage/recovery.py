"""Crash recovery for several running copies of the app, and a clean quit.

Every running copy (an *instance*) owns one recovery file, guarded by a :class:`QLockFile`::

    <AppDataLocation>/recovery/instance-<id>.json     checkpoint {"sessions", "paths", ...}
    <AppDataLocation>/recovery/instance-<id>.journal  every change since (desktop.storage.journal)
    <AppDataLocation>/recovery/instance-<id>.lock     held while the instance runs

Autosave (:class:`InstanceAutosave`) appends every change to the instance's own journal before
the views are told, and writes a checkpoint of its documents after the repaint (atomically,
:class:`QSaveFile`), so two copies never overwrite each other. What a file offers is the
checkpoint with its journal replayed (:func:`read_recovery`), less every document that equals
its saved file.
At start, :func:`offer_restore` looks at the other instances' files: a file whose lock can be
taken belongs to an instance that is gone (QLockFile treats the lock of a dead process on this
host as stale, Qt docs "QLockFile::tryLock"), so it is offered for restoring with what it holds
(game titles, event counts, last change); a file whose lock is held by a live instance is never
read, moved or deleted. Declined files are moved to ``recovery/declined/`` (nothing is lost);
a damaged file (not JSON, wrong shape) is moved to ``recovery/damaged/`` with a message and
never blocks start-up.

A session file that is open in one instance is marked by a lock too
(``recovery/open-<hash>.lock``, with ``open-<hash>.owner`` naming the holding instance);
:func:`open_elsewhere` tells another instance so. Two copies saving the same file would
overwrite each other's events, so the file is never opened twice: File → Open (or a FILE
argument at start) in instance B hands the file to instance A that holds it. Every instance
listens on a :class:`QLocalServer` (:class:`HandoffServer`, name :func:`handoff_server_name`:
the user and the instance id); B reads A's instance id from the ``.owner`` file and asks A,
through a :class:`QLocalSocket` (:func:`request_handoff`), to bring the file's tab to the front.
When A does not answer within :data:`HANDOFF_TIMEOUT_MS`, B refuses the file with a message
naming A's process instead.

Quitting: :func:`finish_threads` waits for every running :class:`QThread` after the tabs were
asked to stop; a computation that never checks for cancellation is left to the end of the
process, which then exits at once (``os._exit``) instead of destroying a running QThread
(Qt aborts with "QThread: Destroyed while thread is still running").
"""
from __future__ import annotations

import atexit
import getpass
import hashlib
import json
import os
import re
import sys
import time
import uuid
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Optional

from PySide6.QtCore import QEventLoop, QLockFile, QObject, QThread, QThreadPool, QTimer, Signal, Slot
from PySide6.QtNetwork import QLocalServer, QLocalSocket
from PySide6.QtWidgets import QMessageBox

from desktop.storage.document import Autosave, write_text_atomically
from desktop.storage.journal import save_target
from desktop.storage.paths import data_dir, recovery_dir, spare_recovery_dir, unwritable
from desktop.widgets.plain_text import as_rich_plain
from engines import game_module
from engines.core.errors import SessionFormatError
from engines.core.schema import parse_session

#: Largest recovery file read (bytes): sessions are kilobytes; the schema's limits (events,
#: note lengths) keep a real one far below this.
MAX_RECOVERY_BYTES = 64 << 20


def recovery_folders() -> list:
    """Where recovery files may be: :func:`recovery_dir`, and the temporary folder's
    ``recovery`` an instance moves its file to when its folder stops taking writes
    (:meth:`InstanceAutosave.relocate`), when that exists."""
    out = [recovery_dir()]
    spare = spare_recovery_dir()
    if os.path.abspath(spare) != os.path.abspath(out[0]) and os.path.isdir(spare):
        out.append(spare)
    return out


def _lock(path: str) -> QLockFile:
    """A :class:`QLockFile` at ``path`` that is stale only when its process is gone."""
    lock = QLockFile(path)
    # 0: never stale by age; a lock is stale only when its process is gone (same host)
    lock.setStaleLockTime(0)
    return lock


class InstanceAutosave(Autosave):
    """:class:`desktop.storage.document.Autosave` writing to this instance's own recovery file, which a
    :class:`QLockFile` guards while the instance runs (module docstring)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.instance_id = f"{os.getpid()}-{uuid.uuid4().hex[:8]}"
        base = os.path.join(recovery_dir(), f"instance-{self.instance_id}")
        self._path = base + ".json"
        self.lock = _lock(base + ".lock")
        self.lock.tryLock(0)   # a fresh unique name: always free
        # document -> (abs path, data-folder QLockFile or None, QLockFile beside it or None)
        self._open_locks: dict = {}
        # real path -> (data-folder lock or None, lock beside it or None) for a write in progress
        self._claims: dict = {}
        _adopt_legacy_file()

    def recovery_path(self) -> str:
        return self._path

    def watch(self, doc) -> None:
        super().watch(doc)
        doc.pathChanged.connect(lambda _p, d=doc: self._mark_open(d))

    #: the notice of :meth:`relocate` once the recovery file moved (None: it never moved)
    moved: Optional[str] = None

    def relocate(self, exc: OSError) -> bool:
        """The recovery file's folder stopped taking writes after start-up (a full disk, a
        folder made read-only or taken away): write the file, with a new lock, in a folder of
        this user's under the temporary location (:func:`desktop.storage.paths.fallback_dir`, the
        folder used when the data folder is unwritable at start; :func:`find_orphans` looks
        there too, so a crash is still offered for restoring at the next start). The move
        happens once, only when the write there works (else everything stays as it was and
        the failure is shown); ``writeMoved`` then names both folders and the reason.

        Returns:
            True when the recovery file is now written in the other folder.
        """
        old_dir = os.path.dirname(self._path)
        new_dir = spare_recovery_dir()
        if self.moved is not None or os.path.abspath(old_dir) == os.path.abspath(new_dir) \
                or unwritable(new_dir) is not None:
            return False
        old_path, old_lock = self._path, self.lock
        base = os.path.join(new_dir, f"instance-{self.instance_id}")
        self._path = base + ".json"
        self.lock = _lock(base + ".lock")
        self.lock.tryLock(0)
        self.moved = ""                  # no second move while this write is tried
        if not Autosave.write(self) or self.failure is not None:
            self.lock.unlock()
            self._path, self.lock, self.moved = old_path, old_lock, None
            _remove(base + ".json")
            return False
        _remove(old_path)                # the older copy, where it can still be removed
        old_lock.unlock()
        reason = exc.strerror or str(exc) or type(exc).__name__
        self.moved = (f"The recovery file could not be written in {old_dir} any more ({reason}); "
                      f"it is now written to {new_dir}")
        self.writeMoved.emit(self.moved)
        return True

    def _mark_open(self, doc) -> None:
        old = self._open_locks.pop(doc, None)
        if old is not None:
            _let_go(old[1], old[2])
        if doc.path:
            claimed = self._claims.pop(os.path.realpath(doc.path), None)
            if claimed is not None:   # taken before the file was written (write_target)
                self._open_locks[doc] = (os.path.abspath(doc.path), *claimed)
                return
            lock = _lock(_open_lock_path(doc.path))
            if lock.tryLock(0):
                _write_owner(lock.fileName(), self.instance_id)
            else:
                lock = None
            try:
                beside = _take_beside(doc.path)
            except TargetHeldError:
                beside = None         # opened after open_elsewhere said no: a race, not ours
            if lock is not None or beside is not None:
                self._open_locks[doc] = (os.path.abspath(doc.path), lock, beside)

    @contextmanager
    def write_target(self, path: str):
        """Hold the open-file locks of ``path`` while it is written (Save As, Export): the
        locks are taken before writing, so two instances never write one file; a document
        whose path becomes ``path`` keeps them (``pathChanged``), any other write lets them go
        afterwards. The locks are the one beside the file (:func:`beside_lock_path`, whatever
        the instances' data folders) and the one in the data folder (which names this
        instance for the hand-off).

        Raises:
            TargetHeldError: another running instance has ``path`` open (names its process).
        """
        real = os.path.realpath(path)
        if self.holds(path):
            yield
            return
        lock = _lock(_open_lock_path(path))
        if not lock.tryLock(0):
            if lock.error() == QLockFile.LockFailedError:
                raise TargetHeldError(path, *(open_elsewhere_owner(path, self) or (-1, "")))
            lock = None  # no lock can be made here (a data folder that cannot be written)
        try:
            beside = _take_beside(path)
        except TargetHeldError:
            _let_go(lock, None)
            raise
        if lock is not None:
            _write_owner(lock.fileName(), self.instance_id)
        if lock is None and beside is None:
            yield        # no lock can be made anywhere: written as before
            return
        self._claims[real] = (lock, beside)
        try:
            yield
        finally:
            left = self._claims.pop(real, None)
            if left is not None:          # not adopted by a document: let it go
                _let_go(*left)

    def holds(self, path: str) -> bool:
        """True when this instance has the session file ``path`` open."""
        real = os.path.realpath(path)
        return any(os.path.realpath(held[0]) == real for held in self._open_locks.values())

    def release(self) -> None:
        """Unlock everything this instance holds (a clean quit; the file is discarded first)."""
        for _path, lock, beside in self._open_locks.values():
            _let_go(lock, beside)
        self._open_locks.clear()
        self.lock.unlock()

    def crash_for_test(self) -> None:
        """Forget the locks without deleting the recovery file, as a killed process would."""
        self.enabled = False
        if self._journal is not None:
            self._journal.close()
        self.release()


class TargetHeldError(OSError):
    """A file cannot be written here because another running instance has it open.

    Attributes:
        path: the file; pid: the other instance's process (-1 when unknown); instance: its
            instance id ("" when unknown).
    """

    def __init__(self, path: str, pid: int = -1, instance: str = ""):
        self.path, self.pid, self.instance = path, pid, instance
        who = f"process {pid}" if pid and pid > 0 else "another process"
        super().__init__(f"{path} is open in another Deduction Desk window ({who}); two windows "
                         f"writing one file would overwrite each other's events. Close it "
                         f"there first, or choose another file name.")

    def __str__(self) -> str:
        return self.args[0]


def check_write_target(path: str, autosave: Optional["InstanceAutosave"]) -> Optional[str]:
    """Why ``path`` must not be written by this instance (another running instance has it
    open), or None. For writes that finish later (the CSV export); a write done at once holds
    the lock instead (:meth:`InstanceAutosave.write_target`)."""
    owner = open_elsewhere_owner(path, autosave)
    return None if owner is None else str(TargetHeldError(path, *owner))


def beside_lock_path(path: str) -> str:
    """The lock beside the session file ``path``: ``.~lock.NAME#`` in its folder, as office
    suites name theirs (LibreOffice's ``.~lock.NAME#``), so two instances whatever their data
    folders (two accounts, a shared or network folder, another install) see each other."""
    folder, name = os.path.split(os.path.abspath(path))
    return os.path.join(folder, f".~lock.{name}#")


def _take_beside(path: str) -> Optional[QLockFile]:
    """The lock beside ``path`` (:func:`beside_lock_path`) taken for this instance, or None
    where none can be made (a folder that cannot be written: the data folder's lock alone
    guards the file then).

    Raises:
        TargetHeldError: another running process holds it (naming that process).
    """
    from engines.core.resources import resources_root

    root = os.path.realpath(str(resources_root()))
    if os.path.realpath(path).startswith(root.rstrip(os.sep) + os.sep):
        return None     # the app's own examples: never a lock file among them
    lock = _lock(beside_lock_path(path))
    if lock.tryLock(0):
        return lock
    if lock.error() == QLockFile.LockFailedError:
        raise TargetHeldError(path, _lock_pid(lock))
    return None


def _lock_pid(lock: QLockFile) -> int:
    """The process holding ``lock`` (-1 when the lock does not tell)."""
    info = lock.getLockInfo()   # (pid, hostname, appname), or a falsy value when unknown
    pid = info[0] if isinstance(info, (tuple, list)) and info else 0
    return int(pid) if pid else -1


def _let_go(lock: Optional[QLockFile], beside: Optional[QLockFile]) -> None:
    """Unlock an open-file lock (with its ``.owner`` file) and the lock beside the file."""
    if lock is not None:
        _remove(_owner_path(lock.fileName()))
        lock.unlock()
    if beside is not None:
        beside.unlock()


def _open_lock_path(path: str) -> str:
    digest = hashlib.sha1(os.path.realpath(path).encode("utf-8", "surrogatepass")).hexdigest()
    return os.path.join(recovery_dir(), f"open-{digest[:20]}.lock")


def _owner_path(lock_file: str) -> str:
    return lock_file[:-5] + ".owner" if lock_file.endswith(".lock") else lock_file + ".owner"


def _write_owner(lock_file: str, instance_id: str) -> None:
    """Name the instance holding an open-file lock (read by :func:`open_elsewhere_owner`)."""
    try:
        write_text_atomically(_owner_path(lock_file), json.dumps(
            {"pid": os.getpid(), "instance": instance_id}))
    except OSError:
        pass   # no hand-off for this file: another instance refuses it instead


def open_elsewhere_owner(path: str, autosave: Optional[InstanceAutosave] = None) \
        -> Optional[tuple[int, str]]:
    """``(pid, instance id)`` of another running instance that has ``path`` open, or None (also
    when ``autosave``, this instance's, holds it). The pid is -1 when the lock does not tell
    it; the instance id is "" when the holder did not name itself (no hand-off possible)."""
    pid = open_elsewhere(path, autosave)
    if pid is None:
        return None
    instance = ""
    try:
        with open(_owner_path(_open_lock_path(path)), encoding="utf-8") as fh:
            obj = json.loads(fh.read(4096))
        if isinstance(obj, dict) and isinstance(obj.get("instance"), str) \
                and _INSTANCE_ID.fullmatch(obj["instance"]) and obj.get("pid") == pid:
            instance = obj["instance"]
    except (OSError, ValueError):
        pass
    return pid, instance


def open_elsewhere(path: str, autosave: Optional[InstanceAutosave] = None) -> Optional[int]:
    """The process id of another running instance that has ``path`` open, or None (also when
    ``autosave``, this instance's, holds it)."""
    if autosave is not None and autosave.holds(path):
        return None
    from engines.core.resources import resources_root

    beside = [] if os.path.realpath(path).startswith(
        os.path.realpath(str(resources_root())).rstrip(os.sep) + os.sep) \
        else [beside_lock_path(path)]
    for lock_file in [_open_lock_path(path), *beside]:
        lock = _lock(lock_file)
        if lock.tryLock(0):
            lock.unlock()
            continue
        if lock.error() != QLockFile.LockFailedError:
            continue   # the lock cannot be made at all (a folder that cannot be written)
        return _lock_pid(lock)
    return None


# -- hand-off of a file open in another instance ----------------------------------------------
#: How long instance B waits for instance A to answer a hand-off (ms); then B refuses the file.
HANDOFF_TIMEOUT_MS = 3000
#: Longest Unix socket path used (bytes): the smallest ``sun_path`` of the systems served, less
#: its terminating NUL (unix(7); macOS and the BSDs have 104 bytes).
MAX_SOCKET_PATH = 103
#: Largest hand-off message read (bytes): a path and a few keys.
MAX_HANDOFF_BYTES = 16 << 10
_INSTANCE_ID = re.compile(r"[0-9]+-[0-9a-f]{8}")


def handoff_server_name(instance_id: str) -> str:
    """The :class:`QLocalServer` name of the instance ``instance_id``: the application, the user
    (two users never reach each other's servers) and the instance, e.g.
    ``"deduction-desk-alice-4242-1a2b3c4d"``."""
    try:
        user = getpass.getuser()
    except (KeyError, OSError):
        user = str(os.getuid()) if hasattr(os, "getuid") else "user"
    user = re.sub(r"[^A-Za-z0-9_.-]", "_", user)[:32]
    name = f"deduction-desk-{user}-{instance_id}"
    from PySide6.QtCore import QDir

    # Qt makes a bare name a socket file in QDir.tempPath(); a Unix socket's path holds at most
    # 107 bytes (sun_path, 108 with its NUL on Linux; 104 on macOS and the BSDs: unix(7)), so
    # under a long TMPDIR the server could not listen. Then the name becomes a full path in a
    # short folder every instance of this user computes alike.
    if len(os.path.join(QDir.tempPath(), name).encode()) <= MAX_SOCKET_PATH:
        return name
    for folder in (os.environ.get("XDG_RUNTIME_DIR", ""), "/tmp"):
        path = os.path.join(folder, name)
        if folder and os.path.isdir(folder) and len(path.encode()) <= MAX_SOCKET_PATH:
            return path
    return name


class HandoffServer(QObject):
    """This instance's end of the hand-off (module docstring): a :class:`QLocalServer`, only
    reachable by the same user, answering one request per connection.

    A request is one line of JSON, ``{"open": "/abs/path.json"}``; the answer one line,
    ``{"shown": true, "pid": 4242}`` when this instance holds the file and ``bring(path)``
    brought it to the front, ``{"shown": false}`` otherwise.

    Args:
        autosave: this instance's :class:`InstanceAutosave` (its id names the server; its
            locks tell which files this instance holds).
        bring: ``bring(path) -> bool``: select the file's tab and raise the window.

    Signals:
        handedOff(str path): another instance asked for ``path`` and it was brought forward.
    """

    handedOff = Signal(str)

    def __init__(self, autosave: InstanceAutosave, bring, parent: Optional[QObject] = None):
        super().__init__(parent)
        self._autosave = autosave
        self._bring = bring
        self.server = QLocalServer(self)
        self.server.setSocketOptions(QLocalServer.UserAccessOption)
        self.name = handoff_server_name(autosave.instance_id)
        QLocalServer.removeServer(self.name)   # a socket file left by a killed process
        self.listening = self.server.listen(self.name)
        self.server.newConnection.connect(self._on_connection)
        self._buffers: dict = {}

    @Slot()
    def _on_connection(self) -> None:
        while self.server.hasPendingConnections():
            sock = self.server.nextPendingConnection()
            self._buffers[sock] = b""
            sock.readyRead.connect(self._on_ready_read)
            sock.disconnected.connect(self._on_gone)
            QTimer.singleShot(HANDOFF_TIMEOUT_MS * 2, sock, sock.abort)   # a silent client

    @Slot()
    def _on_gone(self) -> None:
        sock = self.sender()
        self._buffers.pop(sock, None)
        if sock is not None:
            sock.deleteLater()

    @Slot()
    def _on_ready_read(self) -> None:
        sock = self.sender()
        if sock not in self._buffers:
            return
        data = self._buffers[sock] + bytes(sock.readAll().data())
        if b"\n" not in data and len(data) <= MAX_HANDOFF_BYTES:
            self._buffers[sock] = data
            return
        del self._buffers[sock]
        answer = {"shown": False}
        try:
            request = json.loads(data.split(b"\n", 1)[0][:MAX_HANDOFF_BYTES].decode("utf-8"))
            path = request.get("open") if isinstance(request, dict) else None
            if isinstance(path, str) and self._autosave.holds(path) and self._bring(path):
                answer = {"shown": True, "pid": os.getpid()}
                self.handedOff.emit(path)
        except (ValueError, UnicodeDecodeError):
            pass
        sock.write((json.dumps(answer) + "\n").encode("utf-8"))
        sock.flush()
        sock.disconnectFromServer()

    def close(self) -> None:
        """Stop listening (the window closes)."""
        self.server.close()


def request_handoff(path: str, instance_id: str, timeout_ms: Optional[int] = None) -> bool:
    """Ask the instance ``instance_id`` to bring ``path``'s tab to the front; True when it
    answered that it did within ``timeout_ms`` (default :data:`HANDOFF_TIMEOUT_MS`). Waits
    in a local event loop, so this instance's window keeps painting and an instance in the
    same process can answer."""
    if not _INSTANCE_ID.fullmatch(instance_id or ""):
        return False
    timeout_ms = HANDOFF_TIMEOUT_MS if timeout_ms is None else timeout_ms
    request = (json.dumps({"open": os.path.realpath(path)}) + "\n").encode("utf-8")
    reply = _exchange(handoff_server_name(instance_id), request, timeout_ms)
    try:
        answer = json.loads(reply.split(b"\n", 1)[0].decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return False
    return isinstance(answer, dict) and answer.get("shown") is True


def _exchange(server: str, request: bytes, timeout_ms: int) -> bytes:
    """Send ``request`` to the local server ``server`` and return what it answers up to the
    first newline (at most :data:`MAX_HANDOFF_BYTES`; b"" when nobody answers in time)."""
    sock = QLocalSocket()
    loop = QEventLoop()
    got = {"data": b"", "done": False}

    def on_ready():
        got["data"] += bytes(sock.readAll().data())
        if b"\n" in got["data"] or len(got["data"]) > MAX_HANDOFF_BYTES:
            got["done"] = True
            loop.quit()

    def on_gone(*_a):
        got["done"] = True
        loop.quit()

    sock.readyRead.connect(on_ready)
    sock.disconnected.connect(on_gone)
    sock.errorOccurred.connect(on_gone)
    sock.connected.connect(lambda: sock.write(request))
    timer = QTimer()
    timer.setSingleShot(True)
    timer.timeout.connect(loop.quit)
    timer.start(timeout_ms)
    sock.connectToServer(server)
    if not got["done"]:
        loop.exec()
    timer.stop()
    if sock.bytesAvailable():
        got["data"] += bytes(sock.readAll().data())
    sock.abort()
    return got["data"]


def _adopt_legacy_file() -> None:
    """Move the single ``recovery.json`` of earlier versions into the per-instance folder, so
    it is offered like any other file whose instance is gone."""
    old = os.path.join(data_dir(), "recovery.json")
    if os.path.exists(old):
        try:
            os.replace(old, os.path.join(recovery_dir(), f"instance-legacy-{int(time.time())}.json"))
        except OSError:
            pass


@dataclass
class Orphan:
    """The recovery file of an instance that is gone: its sessions and their file names."""

    path: str
    lock: QLockFile
    sessions: list = field(default_factory=list)   # [(SessionData, file or None)]
    modified: float = 0.0
    #: for each session, what it holds beyond its saved file (:func:`beyond_saved`)
    beyond: list = field(default_factory=list)

    def describe(self) -> str:
        """``"Cluedo — s.json (12 events: 3 entries after the last save, the newest 21:14) —
        last change 2026-11-23 21:14"``."""
        parts = []
        for i, (data, file) in enumerate(self.sessions):
            try:
                title = game_module(data.game).TITLE
            except ModuleNotFoundError:
                title = data.game
            name = f" — {os.path.basename(file)}" if file else ""
            what = f": {self.beyond[i]}" if i < len(self.beyond) and self.beyond[i] else ""
            parts.append(f"{title}{name} ({len(data.events)} event"
                         f"{'s' if len(data.events) != 1 else ''}{what})")
        when = datetime.fromtimestamp(self.modified).strftime("%Y-%m-%d %H:%M")
        return f"{', '.join(parts)} — last change {when}"


def _set_aside(path: str, folder: str) -> str:
    """Move the recovery file ``path`` and its journal to ``recovery/<folder>/``; the new name
    of the one that existed (the recovery file's when both did)."""
    from desktop.storage.journal import journal_path

    dest_dir = os.path.join(recovery_dir(), folder)
    os.makedirs(dest_dir, exist_ok=True)
    dest = None
    for src in (journal_path(path), path):
        if os.path.exists(src):
            dest = os.path.join(dest_dir, os.path.basename(src))
            os.replace(src, dest)
    return dest or os.path.join(dest_dir, os.path.basename(path))


def _remove_recovery(path: str) -> None:
    """Remove the recovery file ``path`` and its journal."""
    from desktop.storage.journal import journal_path

    _remove(journal_path(path))
    _remove(path)


@dataclass
class RecoveryRead:
    """What one recovery file holds once its journal is replayed (:func:`read_recovery`).

    Attributes:
        sessions: ``[(SessionData, file or None)]``, the documents with unsaved changes that
            differ from their saved file; ``beyond``: for each, what it holds beyond the saved
            file in words (``"3 entries after the last save, the newest 21:14"``);
            ``problem``: a journal line refused or cut short, in words, or None.
    """

    sessions: list
    beyond: list
    problem: Optional[str] = None


def read_recovery(path: str) -> RecoveryRead:
    """The checkpoint ``path`` (``instance-<id>.json``, may be missing when the instance died
    before its first checkpoint) with its journal replayed (:func:`desktop.storage.journal.replay`).
    A document that has no unsaved change, or that equals its saved file, is left out.

    Raises:
        SessionFormatError: the checkpoint is damaged (unreadable, not JSON, wrong shape, or
            no session in it validates and the journal adds none).
    """
    from desktop.storage.journal import DocState, journal_path, replay
    from engines.core.schema import loads_json, read_bounded

    docs: dict = {}
    after, first_error = 0, None
    if os.path.exists(path) or not os.path.exists(journal_path(path)):
        payload = loads_json(read_bounded(path, MAX_RECOVERY_BYTES, "$", "the recovery file"),
                             path)
        if not isinstance(payload, dict) or not isinstance(payload.get("sessions"), list):
            raise SessionFormatError("$.sessions", "expected a list of sessions", path)
        paths = payload.get("paths")
        paths = paths if isinstance(paths, list) else []
        saved = payload.get("saved")
        saved = saved if isinstance(saved, list) else []
        seq = payload.get("seq")
        after = seq if isinstance(seq, int) and not isinstance(seq, bool) else 0
        for i, obj in enumerate(payload["sessions"]):
            file = save_target(paths[i]) if i < len(paths) else None
            try:
                # the same reader as File → Open, confined to the game's own folder (or, for an
                # untitled game, to the app's resources): a recovery file is input like any other
                data = parse_session(obj, file, folder=os.path.dirname(file) if file else "")
            except SessionFormatError as exc:
                # the inner path within the session ("$.events[1].refutter" → "$.sessions[0]
                # .events[1].refutter"), so the refusal names the very key
                inner = exc.path[1:] if str(exc.path).startswith("$") else f".{exc.path}"
                first_error = first_error or SessionFormatError(f"$.sessions[{i}]{inner}",
                                                                exc.message, path)
                continue
            docs[data.game] = DocState(obj, file, i < len(saved) and saved[i] is True)
    result = replay(docs, journal_path(path), after)
    out = RecoveryRead([], [], result.problem)
    for game, st in result.docs.items():
        file = save_target(st.path) if st.path else None
        try:
            data = parse_session(st.session, file, folder=os.path.dirname(file) if file else "")
        except SessionFormatError as exc:
            first_error = first_error or SessionFormatError(f"journal document {game}",
                                                            exc.message, path)
            continue
        if st.saved:
            continue
        beyond = beyond_saved(data, file)
        if beyond is None:
            continue            # equal to its saved file: nothing to restore
        out.sessions.append((data, file))
        out.beyond.append(beyond)
    if not out.sessions and first_error is not None:
        raise first_error
    return out


def read_recovery_file(path: str) -> list:
    """Sessions in one recovery file with its journal replayed, ``[(SessionData, file or
    None)]``: those with unsaved changes (:func:`read_recovery`).

    Raises:
        SessionFormatError: the file is damaged (unreadable, not JSON, wrong shape, or no
            session in it validates).
    """
    return read_recovery(path).sessions


def clock_time(iso: Optional[str]) -> Optional[str]:
    """An event's ISO time as the local ``HH:MM`` (with the date when not today)."""
    if not iso:
        return None
    try:
        t = datetime.fromisoformat(iso)
    except ValueError:
        return None
    if t.tzinfo is not None:
        t = t.astimezone()
    return t.strftime("%H:%M") if t.date() == datetime.now().date() \
        else t.strftime("%Y-%m-%d %H:%M")


def _entries(n: int) -> str:
    return f"{n} entr{'y' if n == 1 else 'ies'}"


def beyond_saved(data, file: Optional[str]) -> Optional[str]:
    """What the recovered session ``data`` holds beyond its saved file ``file``, in words
    (``"3 entries after the last save, the newest 21:14"``), or None when it equals the
    file (then there is nothing to restore). An untitled game, or a file that cannot be
    read, is described by its own entries."""
    from engines.core.schema import read_session_file, session_json

    ours = session_json(data, file or "")
    ev = ours["events"]
    saved = None
    if file:
        try:
            saved = session_json(read_session_file(file), file)
        except (SessionFormatError, OSError, ValueError):
            saved = None
    if saved is None:
        newest = clock_time(max((e.get("time") or "" for e in ev), default="") or None)
        what = "never saved" if not file else "its file cannot be read"
        return f"{_entries(len(ev))}, {what}" + (f", the newest {newest}" if newest else "")
    if saved == ours:
        return None
    old = saved["events"]
    same = 0
    while same < min(len(ev), len(old)) and ev[same] == old[same]:
        same += 1
    parts = []
    if same == len(old) and len(ev) > same:
        newest = clock_time(max((e.get("time") or "" for e in ev[same:]), default="") or None)
        parts.append(f"{_entries(len(ev) - same)} after the last save"
                     + (f", the newest {newest}" if newest else ""))
    elif len(ev) != len(old) or same < len(ev):
        parts.append(f"the log differs from the saved file from entry {same + 1} "
                     f"({len(ev)} entries here, {len(old)} in the file)")
    if ours["setup"] != saved["setup"]:
        parts.append("a changed setup")
    return "; ".join(parts) or "changes after the last save"


def find_orphans(own: Optional[str] = None) -> tuple[list, list]:
    """Recovery files of instances that are gone, each locked for this instance while it
    decides; and messages about damaged files set aside. Removes on the way what crashed
    instances left: QSaveFile temporaries, lock files and the ``.owner`` files of session
    files they had open (never anything a live instance holds).

    Returns:
        ``(orphans, messages)``: :class:`Orphan` list (newest first) and text lines.
    """
    orphans, messages = [], []
    for folder in recovery_folders():
        try:
            names = set(os.listdir(folder))
        except OSError:
            continue
        _remove_stale_temporaries(folder, names)
        _remove_stale_locks(folder, names)
        for name in sorted(names):
            if not name.startswith("instance-"):
                continue
            if name.endswith(".journal"):     # a journal without its checkpoint: read alone
                if name[:-8] + ".json" in names:
                    continue
                name = name[:-8] + ".json"
            elif not name.endswith(".json"):
                continue
            path = os.path.join(folder, name)
            if own and os.path.abspath(path) == os.path.abspath(own):
                continue
            orphan, message = _claim_orphan(path)
            if orphan is not None:
                orphans.append(orphan)
            if message:
                messages.append(message)
    orphans.sort(key=lambda o: o.modified, reverse=True)
    return orphans, messages


def _is_stale(lock_file: str) -> bool:
    """True when no live process holds ``lock_file`` (a stale lock is removed on the way)."""
    lock = _lock(lock_file)
    if lock.tryLock(0):
        lock.unlock()           # removes the lock file
        return True
    return False


def _remove_stale_temporaries(folder: str, names: set) -> None:
    """QSaveFile temporaries (``instance-….json.XXXXXX``) of instances killed while writing."""
    for name in sorted(names):
        base, _dot, suffix = name.rpartition(".")
        if name.startswith("instance-") and base.endswith(".json") and len(suffix) == 6 \
                and _is_stale(os.path.join(folder, base[:-5] + ".lock")):
            _remove(os.path.join(folder, name))


def _remove_stale_locks(folder: str, names: set) -> None:
    """Locks of instances that never wrote a recovery file, and the open-file locks with their
    ``.owner`` files of instances that are gone (an owner file without its lock included)."""
    for name in sorted(names):
        path = os.path.join(folder, name)
        if name.startswith("instance-") and name.endswith(".lock") \
                and name[:-5] + ".json" not in names and name[:-5] + ".journal" not in names:
            _is_stale(path)
        elif name.startswith("open-") and name.endswith(".lock"):
            _remove_stale_open_lock(path)
        elif name.startswith("open-") and name.endswith(".owner") \
                and name[:-6] + ".lock" not in names:
            _remove(path)   # no lock to take: taking one could make a live _mark_open fail


def _remove_stale_open_lock(lock_file: str) -> None:
    """Remove an open-file lock and its ``.owner`` file when no live process holds the lock.
    The owner file goes while this process holds the lock, so an instance that takes the lock
    next (and then writes its own owner file) never loses it; a held lock leaves both."""
    lock = _lock(lock_file)
    if not lock.tryLock(0):
        return                  # a live instance has the session file open
    _remove(_owner_path(lock_file))
    lock.unlock()               # removes the lock file


def _claim_orphan(path: str) -> tuple[Optional[Orphan], Optional[str]]:
    """``(orphan, message)`` for one instance recovery file: the file locked for this instance
    when its instance is gone and it holds sessions; a damaged file is set aside (the
    message says where); an empty one is removed; a live instance's is left alone."""
    lock = _lock(path[:-5] + ".lock")
    if not lock.tryLock(0):
        return None, None          # a live instance: never touched
    from desktop.storage.journal import journal_path

    message = None
    try:
        found = read_recovery(path)
        sessions = found.sessions
        if found.problem:
            message = _keep_journal_copy(path, found.problem)
    except SessionFormatError as exc:
        try:
            dest = _set_aside(path, "damaged")
            message = f"A damaged recovery file was set aside as {dest} ({exc.message})."
        except OSError:
            message = f"A damaged recovery file could not be moved: {path}."
        sessions = None
    if not sessions:
        if sessions is not None:
            _remove_recovery(path)   # nothing unsaved in it (or all equal to their files)
        lock.unlock()
        _remove(lock_path(lock))
        return None, message
    times = []
    for p in (path, journal_path(path)):
        try:
            times.append(os.path.getmtime(p))
        except OSError:
            pass
    return Orphan(path, lock, sessions, max(times, default=time.time()), found.beyond), message


def _keep_journal_copy(path: str, problem: str) -> str:
    """A copy of the journal of ``path`` in ``recovery/damaged/`` (a line of it was refused or
    cut short); the message saying so."""
    import shutil

    from desktop.storage.journal import journal_path

    src = journal_path(path)
    dest_dir = os.path.join(recovery_dir(), "damaged")
    try:
        os.makedirs(dest_dir, exist_ok=True)
        dest = os.path.join(dest_dir, os.path.basename(src))
        shutil.copyfile(src, dest)
    except OSError:
        return f"Recovery of {os.path.basename(path)}: {problem}."
    return f"Recovery of {os.path.basename(path)}: {problem}; the journal was copied to {dest}."


def lock_path(lock: QLockFile) -> str:
    """The file name of ``lock`` (``QLockFile::fileName``)."""
    return lock.fileName()


def _remove(path: str) -> None:
    try:
        os.remove(path)
    except OSError:
        pass


def offer_restore(window, ask: bool = True) -> bool:
    """Offer the sessions of instances that are gone (stale locks) to ``window``; True when
    something was restored. One session per game tab is restored (the newest); a file whose
    sessions were not all restored stays for the next start. Declined files are moved to
    ``recovery/declined/``."""
    own = window.autosave.recovery_path() if isinstance(window.autosave, InstanceAutosave) else None
    orphans, messages = find_orphans(own)
    if messages and ask:
        QMessageBox.warning(window, "Recovery files", as_rich_plain("\n".join(messages)))
    elif messages:
        print("\n".join(messages), file=sys.stderr)
    if not orphans:
        return False
    if ask and not _user_wants_restore(window, orphans):
        _decline(orphans)
        return False
    return _restore(window, orphans)


def _user_wants_restore(window, orphans: list) -> bool:
    """Ask, listing what each file holds (games, event counts, last change)."""
    lines = "\n".join(f"• {o.describe()}" for o in orphans)
    ans = QMessageBox.question(
        window, "Restore unsaved games?",
        as_rich_plain(f"A Deduction Desk window that has closed did not save these games:"
                      f"\n{lines}\n\nRestore them? (No keeps them in "
                      f"{os.path.join(recovery_dir(), 'declined')}.)"),
        QMessageBox.Yes | QMessageBox.No, QMessageBox.Yes)
    return ans == QMessageBox.Yes


def _decline(orphans: list) -> None:
    """Move declined recovery files to ``recovery/declined/`` (kept, never offered again)."""
    for o in orphans:
        try:
            _set_aside(o.path, "declined")
        except OSError:
            pass
        o.lock.unlock()
        _remove(lock_path(o.lock))


def _restore(window, orphans: list) -> bool:
    """Load the newest session of each game into its tab (as unsaved work). A session whose
    game was already restored from a newer file is written as a session file of its own to
    ``recovery/set-aside/`` and named in a message (File → Open reads it), so every
    orphaned session is restored or set aside, never dropped. An orphaned file is removed only
    after this instance's recovery file holds what was restored from it (and every other
    session of it was set aside); otherwise it stays for the next start."""
    restored_games: set = set()
    restored = False
    complete: dict = {}
    kept: list = []
    for o in orphans:
        complete[o.path] = True
        for data, file in o.sessions:
            tab = window.tab_for(data.game)
            if tab is None or data.game in restored_games:
                where = _set_aside_session(o, data, file)
                if where is None:
                    complete[o.path] = False
                else:
                    kept.append(where)
                continue
            tab.load_session(data, file)
            if file:   # Save checks the file against what it is now (desktop.shell.file_actions)
                try:
                    from desktop.storage.document import disk_stamp

                    tab.document.disk_stamp = disk_stamp(file)
                except OSError:
                    pass
            tab.document.undo_stack.resetClean()   # restored work is unsaved work
            restored_games.add(data.game)
            restored = True
    written = window.autosave.write() if restored else True
    for o in orphans:
        done = written and complete[o.path]
        if done:
            _remove_recovery(o.path)   # its sessions now live in this instance's recovery file
        o.lock.unlock()
        if done:
            _remove(lock_path(o.lock))
    if kept:
        text = ("Only one game of each kind can be restored into a tab; these unsaved games "
                "were kept as session files (File → Open reads them):\n"
                + "\n".join(f"• {p}" for p in kept))
        if getattr(window, "interactive", False):
            QMessageBox.information(window, "Games kept as files", as_rich_plain(text))
        else:
            print(text, file=sys.stderr)
    return restored


def _set_aside_session(orphan: Orphan, data, file: Optional[str]) -> Optional[str]:
    """Write one session of ``orphan`` to ``recovery/set-aside/`` as a session file; its
    name (or None when it cannot be written)."""
    from engines.core.schema import dumps_session

    stamp = datetime.fromtimestamp(orphan.modified).strftime("%Y%m%d-%H%M%S")
    base = os.path.splitext(os.path.basename(file))[0] if file else data.game
    base = re.sub(r"[^\w.-]", "_", base)[:60] or data.game
    folder = os.path.join(recovery_dir(), "set-aside")
    for k in range(1000):
        dest = os.path.join(folder, f"{base}-{stamp}" + (f"-{k}" if k else "") + ".json")
        if not os.path.exists(dest):
            break
    try:
        write_text_atomically(dest, dumps_session(data))
    except OSError:
        return None
    return dest


# -- quitting ------------------------------------------------------------------------------
_parked: list = []


def _running(t) -> bool:
    try:
        if isinstance(t, QThreadPool):
            return t.activeThreadCount() > 0
        return t.isRunning()
    except RuntimeError:   # the C++ object is already gone
        return False


def window_threads(window) -> list:
    """``[(QThread, owner)]``: the threads owned by ``window``'s descendants — QThread children
    and QThread attributes of child QObjects (e.g. an inference runner's worker thread)."""
    from PySide6.QtCore import QObject

    out, seen = [], set()
    for child in [window] + window.findChildren(QObject):
        cands = [child] if isinstance(child, QThread) else []
        cands += [v for v in getattr(child, "__dict__", {}).values() if isinstance(v, QThread)]
        for t in cands:
            if id(t) not in seen:
                seen.add(id(t))
                out.append((t, child))
    return out


def finish_threads(window, timeout_s: float = 5.0) -> bool:
    """Wait up to ``timeout_s`` for ``window``'s threads to end (its tabs were told to stop);
    True when all ended. A thread still running (a computation that never checks for
    cancellation) is kept referenced with its owner, so it is never destroyed while it runs,
    and the process ends at exit with ``os._exit`` (see module docstring)."""
    end = time.monotonic() + timeout_s
    pairs = window_threads(window)
    for t, _owner in pairs:
        if _running(t):
            t.quit()
    for t, _owner in pairs:
        if _running(t):
            t.wait(max(0, int((end - time.monotonic()) * 1000)))
    still = [(t, o) for t, o in pairs if _running(t)]
    _parked.extend(still)
    # background jobs run on the shared thread pool (desktop.tabs.jobs.thread_pool): its
    # destructor would wait for a job that never checks for cancellation. This window's own
    # jobs are waited for; the pool's others belong to another window of this process (tests),
    # which ends them when it closes
    from desktop.tabs import jobs as inference

    runners = window.findChildren(inference.JobRunner)
    while any(r.running() for r in runners) and time.monotonic() < end:
        time.sleep(0.01)
    own_done = not any(r.running() for r in runners)
    pool_done = inference._pool is None or inference._pool.waitForDone(
        0 if own_done else max(0, int((end - time.monotonic()) * 1000)))
    if not pool_done:
        _parked.append((inference._pool, None))
    return not still and pool_done


@atexit.register
def _exit_if_threads_run() -> None:
    if any(_running(t) for t, _owner in _parked):
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except (OSError, ValueError):
            pass
        os._exit(0)
