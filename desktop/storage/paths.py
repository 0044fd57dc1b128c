"""Where the app keeps its files, decided in one place: the data folder
(``QStandardPaths.AppDataLocation``) when files can be written there, otherwise a folder of this
user's under the temporary location, and the folders inside it (recovery files, logs,
Inkognito's profiles).

The folder is probed by making a real file (``os.access`` says yes to root on a read-only mount)
and decided once per process; the reason it was not usable is kept, in words, for the window to
show (:class:`desktop.storage.write_failure_bar.WriteFailureBar`). Qt Core only: the log file's
folder is asked for at start-up.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Optional

from PySide6.QtCore import QStandardPaths

from engines.core.i18n import _

#: ``AppDataLocation -> (folder used, problem or None)``, decided once per process.
_DATA_DIRS: dict = {}


def unwritable(path: str) -> Optional[str]:
    """Why files cannot be made in the folder ``path`` (created if needed), or None: a real
    file is created and removed, so a read-only mount, a full disk or a missing permission
    all show (``os.access`` says yes to root on a read-only mount)."""
    import tempfile

    try:
        os.makedirs(path, mode=0o700, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=".write-test-", dir=path)
        try:
            os.write(fd, b"x")
        finally:
            os.close(fd)
            os.remove(probe)
    except OSError as exc:
        return exc.strerror or str(exc)
    return None


def fallback_dir() -> str:
    """A folder of this user's under the temporary location, for when the data folder cannot
    be written (only this user may enter it)."""
    import getpass
    import tempfile

    try:
        user = getpass.getuser()
    except (KeyError, OSError):
        user = str(os.getuid()) if hasattr(os, "getuid") else "user"
    base = QStandardPaths.writableLocation(QStandardPaths.TempLocation) or tempfile.gettempdir()
    return os.path.join(base, f"deduction-desk-{''.join(c for c in user if c.isalnum())[:32]}")


def data_location() -> tuple[str, Optional[str]]:
    """``(folder, problem)``: the app's data folder (QStandardPaths.AppDataLocation) when files
    can be written there; otherwise (read-only, full, not a folder) a folder of this user's
    under the temporary location, with ``problem`` saying why in words (shown in the
    window). When neither can be written, the data folder and the problem; writes there then
    fail and say so (the app runs on, its work in memory). Decided once per process."""
    preferred = QStandardPaths.writableLocation(QStandardPaths.AppDataLocation)
    if preferred in _DATA_DIRS:
        return _DATA_DIRS[preferred]
    problem = unwritable(preferred)
    if problem is None:
        out = (preferred, None)
    else:
        fallback = fallback_dir()
        fb_problem = unwritable(fallback)
        if fb_problem is None and hasattr(os, "getuid") and os.stat(fallback).st_uid != os.getuid():
            fb_problem = _("it belongs to another user")
        if fb_problem is None:
            out = (fallback, _("The data folder {folder} cannot be written ({reason}); recovery "
                               "files are written to {fallback} instead").format(
                folder=preferred, reason=problem, fallback=fallback))
        else:
            out = (preferred, _("The data folder {folder} cannot be written ({reason}), nor {fallback} "
                                "({fallback_reason}); unsaved games are kept only in memory until "
                                "you save them").format(folder=preferred, reason=problem,
                                                        fallback=fallback, fallback_reason=fb_problem))
    _DATA_DIRS[preferred] = out
    return out


def data_dir() -> str:
    """The app's data folder (see :func:`data_location`: a temporary folder of this user's when
    the real one cannot be written); never raises."""
    return data_location()[0]


def log_dir() -> Path:
    """The folder of the log files, ``logs`` in :func:`data_dir` (made if it can be; a folder
    that cannot be written makes the log handlers fail on their own, which the window shows)."""
    path = Path(data_dir()) / "logs"
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError:
        pass
    return path


def recovery_dir() -> str:
    """``recovery`` in :func:`data_dir`: the instances' recovery files (created if possible);
    never raises."""
    path = os.path.join(data_dir(), "recovery")
    try:
        os.makedirs(path, exist_ok=True)
    except OSError:
        pass   # a folder that cannot be written: every use of it fails on its own, and says so
    return path


def spare_recovery_dir() -> str:
    """``recovery`` in :func:`fallback_dir`: where an instance moves its recovery file when its
    folder stops taking writes (:meth:`desktop.storage.recovery.InstanceAutosave.relocate`)."""
    return os.path.join(fallback_dir(), "recovery")
