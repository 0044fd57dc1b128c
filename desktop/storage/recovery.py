"""Autosave for several running copies of the app: each instance's own recovery file.

Every running copy (an *instance*) owns one recovery file, guarded by a :class:`QLockFile`::

    <data folder>/recovery/instance-<id>.json     checkpoint {"sessions", "paths", ...}
    <data folder>/recovery/instance-<id>.journal  every change since (desktop.storage.journal)
    <data folder>/recovery/instance-<id>.lock     held while the instance runs

Autosave (:class:`InstanceAutosave`) appends every change to the instance's own journal before
the views are told, and writes a checkpoint of its documents after the repaint (atomically,
:class:`QSaveFile`), so two copies never overwrite each other. The data folder is
:func:`desktop.storage.paths.data_dir`; the locks are :mod:`desktop.storage.locks`, the
hand-off of a file between instances :mod:`desktop.storage.handoff`, restoring a crashed
instance's file :mod:`desktop.storage.restore`, and waiting for running work at the end
:mod:`desktop.shell.shutdown`.
"""
from __future__ import annotations

import os
import time
import uuid
from contextlib import contextmanager
from typing import Optional

from PySide6.QtCore import QLockFile

from desktop.storage.document import Autosave
from desktop.storage.locks import (
    TargetHeldError,
    let_go,
    open_elsewhere_owner,
    open_lock_path,
    process_lock,
    remove_quietly,
    take_beside,
    write_owner,
)
from desktop.storage.paths import data_dir, recovery_dir, spare_recovery_dir, unwritable
from engines.core.i18n import _


def recovery_folders() -> list:
    """Where recovery files may be: :func:`recovery_dir`, and the temporary folder's
    ``recovery`` an instance moves its file to when its folder stops taking writes
    (:meth:`InstanceAutosave.relocate`), when that exists."""
    out = [recovery_dir()]
    spare = spare_recovery_dir()
    if os.path.abspath(spare) != os.path.abspath(out[0]) and os.path.isdir(spare):
        out.append(spare)
    return out


class InstanceAutosave(Autosave):
    """:class:`desktop.storage.document.Autosave` writing to this instance's own recovery file, which a
    :class:`QLockFile` guards while the instance runs (module docstring)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.instance_id = f"{os.getpid()}-{uuid.uuid4().hex[:8]}"
        base = os.path.join(recovery_dir(), f"instance-{self.instance_id}")
        self._path = base + ".json"
        self.lock = process_lock(base + ".lock")
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
        self.lock = process_lock(base + ".lock")
        self.lock.tryLock(0)
        self.moved = ""                  # no second move while this write is tried
        if not Autosave.write(self) or self.failure is not None:
            self.lock.unlock()
            self._path, self.lock, self.moved = old_path, old_lock, None
            remove_quietly(base + ".json")
            return False
        remove_quietly(old_path)                # the older copy, where it can still be removed
        old_lock.unlock()
        reason = exc.strerror or str(exc) or type(exc).__name__
        self.moved = _("The recovery file could not be written in {old} any more ({reason}); "
                       "it is now written to {new}").format(old=old_dir, reason=reason, new=new_dir)
        self.writeMoved.emit(self.moved)
        return True

    def _mark_open(self, doc) -> None:
        old = self._open_locks.pop(doc, None)
        if old is not None:
            let_go(old[1], old[2])
        if doc.path:
            claimed = self._claims.pop(os.path.realpath(doc.path), None)
            if claimed is not None:   # taken before the file was written (write_target)
                self._open_locks[doc] = (os.path.abspath(doc.path), *claimed)
                return
            lock = process_lock(open_lock_path(doc.path))
            if lock.tryLock(0):
                write_owner(lock.fileName(), self.instance_id)
            else:
                lock = None
            try:
                beside = take_beside(doc.path)
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
        lock = process_lock(open_lock_path(path))
        if not lock.tryLock(0):
            if lock.error() == QLockFile.LockFailedError:
                raise TargetHeldError(path, *(open_elsewhere_owner(path, self) or (-1, "")))
            lock = None  # no lock can be made here (a data folder that cannot be written)
        try:
            beside = take_beside(path)
        except TargetHeldError:
            let_go(lock, None)
            raise
        if lock is not None:
            write_owner(lock.fileName(), self.instance_id)
        if lock is None and beside is None:
            yield        # no lock can be made anywhere: written as before
            return
        self._claims[real] = (lock, beside)
        try:
            yield
        finally:
            left = self._claims.pop(real, None)
            if left is not None:          # not adopted by a document: let it go
                let_go(*left)

    def holds(self, path: str) -> bool:
        """True when this instance has the session file ``path`` open."""
        real = os.path.realpath(path)
        return any(os.path.realpath(held[0]) == real for held in self._open_locks.values())

    def release(self) -> None:
        """Unlock everything this instance holds (a clean quit; the file is discarded first)."""
        for _path, lock, beside in self._open_locks.values():
            let_go(lock, beside)
        self._open_locks.clear()
        self.lock.unlock()

    def crash_for_test(self) -> None:
        """Forget the locks without deleting the recovery file, as a killed process would."""
        self.enabled = False
        if self._journal is not None:
            self._journal.close()
        self.release()


def _adopt_legacy_file() -> None:
    """Move the single ``recovery.json`` of earlier versions into the per-instance folder, so
    it is offered like any other file whose instance is gone."""
    old = os.path.join(data_dir(), "recovery.json")
    if os.path.exists(old):
        try:
            os.replace(old, os.path.join(recovery_dir(), f"instance-legacy-{int(time.time())}.json"))
        except OSError:
            pass
