"""Locks on files: which running copy of the app (an *instance*) holds a recovery file or an
open session file (docs/nothing-lost.md).

A session file open in one instance is marked by ``recovery/open-<hash>.lock`` with
``open-<hash>.owner`` naming the holding instance; :func:`open_elsewhere` tells another instance
so. A save takes a lock beside its target too (:func:`check_write_target`). Every lock is a
:class:`QLockFile` that is stale only when its process is gone (on this host, Qt docs
"QLockFile::tryLock"), never by age.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
from typing import Optional, Protocol

from PySide6.QtCore import QLockFile

from desktop.storage.document import write_text_atomically
from desktop.storage.paths import recovery_dir
from engines.core.i18n import _


class LockHolder(Protocol):
    """What the locks ask of this instance's autosave
    (:class:`desktop.storage.recovery.InstanceAutosave`)."""

    instance_id: str

    def holds(self, path: str) -> bool:
        """Whether this instance holds the open-file lock of ``path``."""


def process_lock(path: str) -> QLockFile:
    """A :class:`QLockFile` at ``path`` that is stale only when its process is gone."""
    lock = QLockFile(path)
    # 0: never stale by age; a lock is stale only when its process is gone (same host)
    lock.setStaleLockTime(0)
    return lock


class TargetHeldError(OSError):
    """A file cannot be written here because another running instance has it open.

    Attributes:
        path: the file; pid: the other instance's process (-1 when unknown); instance: its
            instance id ("" when unknown).
    """

    def __init__(self, path: str, pid: int = -1, instance: str = ""):
        self.path, self.pid, self.instance = path, pid, instance
        who = _("process {pid}").format(pid=pid) if pid and pid > 0 else _("another process")
        super().__init__(_("{path} is open in another Deduction Desk window ({who}); two windows "
                           "writing one file would overwrite each other's events. Close it there "
                           "first, or choose another file name.").format(path=path, who=who))

    def __str__(self) -> str:
        return self.args[0]


def check_write_target(path: str, autosave: Optional[LockHolder]) -> Optional[str]:
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


def take_beside(path: str) -> Optional[QLockFile]:
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
    lock = process_lock(beside_lock_path(path))
    if lock.tryLock(0):
        return lock
    if lock.error() == QLockFile.LockFailedError:
        raise TargetHeldError(path, lock_pid(lock))
    return None


def lock_pid(lock: QLockFile) -> int:
    """The process holding ``lock`` (-1 when the lock does not tell)."""
    info = lock.getLockInfo()   # (pid, hostname, appname), or a falsy value when unknown
    pid = info[0] if isinstance(info, (tuple, list)) and info else 0
    return int(pid) if pid else -1


def let_go(lock: Optional[QLockFile], beside: Optional[QLockFile]) -> None:
    """Unlock an open-file lock (with its ``.owner`` file) and the lock beside the file."""
    if lock is not None:
        remove_quietly(owner_path(lock.fileName()))
        lock.unlock()
    if beside is not None:
        beside.unlock()


def open_lock_path(path: str) -> str:
    digest = hashlib.sha1(os.path.realpath(path).encode("utf-8", "surrogatepass")).hexdigest()
    return os.path.join(recovery_dir(), f"open-{digest[:20]}.lock")


def owner_path(lock_file: str) -> str:
    return lock_file[:-5] + ".owner" if lock_file.endswith(".lock") else lock_file + ".owner"


def write_owner(lock_file: str, instance_id: str) -> None:
    """Name the instance holding an open-file lock (read by :func:`open_elsewhere_owner`)."""
    try:
        write_text_atomically(owner_path(lock_file), json.dumps(
            {"pid": os.getpid(), "instance": instance_id}))
    except OSError:
        pass   # no hand-off for this file: another instance refuses it instead


def open_elsewhere_owner(path: str, autosave: Optional[LockHolder] = None) \
        -> Optional[tuple[int, str]]:
    """``(pid, instance id)`` of another running instance that has ``path`` open, or None (also
    when ``autosave``, this instance's, holds it). The pid is -1 when the lock does not tell
    it; the instance id is "" when the holder did not name itself (no hand-off possible)."""
    pid = open_elsewhere(path, autosave)
    if pid is None:
        return None
    instance = ""
    try:
        with open(owner_path(open_lock_path(path)), encoding="utf-8") as fh:
            obj = json.loads(fh.read(4096))
        if isinstance(obj, dict) and isinstance(obj.get("instance"), str) \
                and INSTANCE_ID.fullmatch(obj["instance"]) and obj.get("pid") == pid:
            instance = obj["instance"]
    except (OSError, ValueError):
        pass
    return pid, instance


def open_elsewhere(path: str, autosave: Optional[LockHolder] = None) -> Optional[int]:
    """The process id of another running instance that has ``path`` open, or None (also when
    ``autosave``, this instance's, holds it)."""
    if autosave is not None and autosave.holds(path):
        return None
    from engines.core.resources import resources_root

    beside = [] if os.path.realpath(path).startswith(
        os.path.realpath(str(resources_root())).rstrip(os.sep) + os.sep) \
        else [beside_lock_path(path)]
    for lock_file in [open_lock_path(path), *beside]:
        lock = process_lock(lock_file)
        if lock.tryLock(0):
            lock.unlock()
            continue
        if lock.error() != QLockFile.LockFailedError:
            continue   # the lock cannot be made at all (a folder that cannot be written)
        return lock_pid(lock)
    return None
INSTANCE_ID = re.compile(r"[0-9]+-[0-9a-f]{8}")


def is_stale(lock_file: str) -> bool:
    """True when no live process holds ``lock_file`` (a stale lock is removed on the way)."""
    lock = process_lock(lock_file)
    if lock.tryLock(0):
        lock.unlock()           # removes the lock file
        return True
    return False


def remove_stale_locks(folder: str, names: set) -> None:
    """Locks of instances that never wrote a recovery file, and the open-file locks with their
    ``.owner`` files of instances that are gone (an owner file without its lock included)."""
    for name in sorted(names):
        path = os.path.join(folder, name)
        if name.startswith("instance-") and name.endswith(".lock") \
                and name[:-5] + ".json" not in names and name[:-5] + ".journal" not in names:
            is_stale(path)
        elif name.startswith("open-") and name.endswith(".lock"):
            remove_stale_open_lock(path)
        elif name.startswith("open-") and name.endswith(".owner") \
                and name[:-6] + ".lock" not in names:
            remove_quietly(path)   # no lock to take: taking one could make a live _mark_open fail


def remove_stale_open_lock(lock_file: str) -> None:
    """Remove an open-file lock and its ``.owner`` file when no live process holds the lock.
    The owner file goes while this process holds the lock, so an instance that takes the lock
    next (and then writes its own owner file) never loses it; a held lock leaves both."""
    lock = process_lock(lock_file)
    if not lock.tryLock(0):
        return                  # a live instance has the session file open
    remove_quietly(owner_path(lock_file))
    lock.unlock()               # removes the lock file


def lock_path(lock: QLockFile) -> str:
    """The file name of ``lock`` (``QLockFile::fileName``)."""
    return lock.fileName()


def remove_quietly(path: str) -> None:
    try:
        os.remove(path)
    except OSError:
        pass
