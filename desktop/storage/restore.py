"""Restore after a crash: the recovery files of instances that are gone, offered at start.

At start, :func:`offer_restore` looks at the other instances' files (:func:`find_orphans`): a
file whose lock can be taken belongs to an instance that is gone (QLockFile treats the lock of a
dead process on this host as stale, Qt docs "QLockFile::tryLock"), so it is offered for
restoring with what it holds (game titles, event counts, last change); a file whose lock is
held by a live instance is never read, moved or deleted. What a file offers is the checkpoint
with its journal replayed (:func:`read_recovery`), less every document that equals its saved
file. Declined files are moved to ``recovery/declined/`` (nothing is lost); a damaged file
(not JSON, wrong shape) is moved to ``recovery/damaged/`` with a message and never blocks
start-up.
"""
from __future__ import annotations

import os
import re
import sys
import time
from dataclasses import dataclass, field
from datetime import datetime
from typing import Optional

from PySide6.QtCore import QLockFile
from PySide6.QtWidgets import QMessageBox

from desktop.shell.locale_format import clock_time as locale_clock_time
from desktop.shell.locale_format import date_time, parse_local_time
from desktop.storage.document import write_text_atomically
from desktop.storage.journal import save_target
from desktop.storage.locks import is_stale, lock_path, process_lock, remove_quietly, remove_stale_locks
from desktop.storage.paths import recovery_dir
from desktop.storage.recovery import InstanceAutosave, recovery_folders
from desktop.widgets.plain_text import as_rich_plain
from engines import game_module
from engines.core.errors import SessionFormatError
from engines.core.i18n import _, ngettext
from engines.core.schema import parse_session

#: Largest recovery file read (bytes): sessions are kilobytes; the schema's limits (events,
#: note lengths) keep a real one far below this.
MAX_RECOVERY_BYTES = 64 << 20


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
            n = len(data.events)
            parts.append(f"{title}{name} (" + ngettext("{n} event", "{n} events", n).format(n=n) + f"{what})")
        when = date_time(datetime.fromtimestamp(self.modified))
        return ", ".join(parts) + " — " + _("last change {when}").format(when=when)


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

    remove_quietly(journal_path(path))
    remove_quietly(path)


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
    t = parse_local_time(iso)
    if t is None:
        return None
    return locale_clock_time(t) if t.date() == datetime.now().date() else date_time(t)


def _entries(n: int) -> str:
    return ngettext("{n} entry", "{n} entries", n).format(n=n)


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
        what = _("never saved") if not file else _("its file cannot be read")
        return f"{_entries(len(ev))}, {what}" + (", " + _("the newest {time}").format(time=newest) if newest else "")
    if saved == ours:
        return None
    old = saved["events"]
    same = 0
    while same < min(len(ev), len(old)) and ev[same] == old[same]:
        same += 1
    parts = []
    if same == len(old) and len(ev) > same:
        newest = clock_time(max((e.get("time") or "" for e in ev[same:]), default="") or None)
        parts.append(_("{entries} after the last save").format(entries=_entries(len(ev) - same))
                     + (", " + _("the newest {time}").format(time=newest) if newest else ""))
    elif len(ev) != len(old) or same < len(ev):
        parts.append(_("the log differs from the saved file from entry {at} ({here} entries here, "
                       "{there} in the file)").format(at=same + 1, here=len(ev), there=len(old)))
    if ours["setup"] != saved["setup"]:
        parts.append(_("a changed setup"))
    return "; ".join(parts) or _("changes after the last save")


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
        remove_stale_locks(folder, names)
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


def _remove_stale_temporaries(folder: str, names: set) -> None:
    """QSaveFile temporaries (``instance-….json.XXXXXX``) of instances killed while writing."""
    for name in sorted(names):
        base, _dot, suffix = name.rpartition(".")
        if name.startswith("instance-") and base.endswith(".json") and len(suffix) == 6 \
                and is_stale(os.path.join(folder, base[:-5] + ".lock")):
            remove_quietly(os.path.join(folder, name))


def _claim_orphan(path: str) -> tuple[Optional[Orphan], Optional[str]]:
    """``(orphan, message)`` for one instance recovery file: the file locked for this instance
    when its instance is gone and it holds sessions; a damaged file is set aside (the
    message says where); an empty one is removed; a live instance's is left alone."""
    lock = process_lock(path[:-5] + ".lock")
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
            message = _("A damaged recovery file was set aside as {path} ({reason}).").format(
                path=dest, reason=exc.message)
        except OSError:
            message = _("A damaged recovery file could not be moved: {path}.").format(path=path)
        sessions = None
    if not sessions:
        if sessions is not None:
            _remove_recovery(path)   # nothing unsaved in it (or all equal to their files)
        lock.unlock()
        remove_quietly(lock_path(lock))
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
        return _("Recovery of {name}: {problem}.").format(name=os.path.basename(path), problem=problem)
    return _("Recovery of {name}: {problem}; the journal was copied to {path}.").format(
        name=os.path.basename(path), problem=problem, path=dest)


def offer_restore(window, ask: bool = True) -> bool:
    """Offer the sessions of instances that are gone (stale locks) to ``window``; True when
    something was restored. One session per game tab is restored (the newest); a file whose
    sessions were not all restored stays for the next start. Declined files are moved to
    ``recovery/declined/``."""
    own = window.autosave.recovery_path() if isinstance(window.autosave, InstanceAutosave) else None
    orphans, messages = find_orphans(own)
    if messages and ask:
        QMessageBox.warning(window, _("Recovery files"), as_rich_plain("\n".join(messages)))
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
        window, _("Restore unsaved games?"),
        as_rich_plain(_("A Deduction Desk window that has closed did not save these games:") + f"\n{lines}\n\n"
                      + _("Restore them? (No keeps them in {folder}.)").format(
                          folder=os.path.join(recovery_dir(), "declined"))),
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
        remove_quietly(lock_path(o.lock))


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

                    tab.controller.document.disk_stamp = disk_stamp(file)
                except OSError:
                    pass
            tab.controller.document.undo_stack.resetClean()   # restored work is unsaved work
            restored_games.add(data.game)
            restored = True
    written = window.autosave.write() if restored else True
    for o in orphans:
        done = written and complete[o.path]
        if done:
            _remove_recovery(o.path)   # its sessions now live in this instance's recovery file
        o.lock.unlock()
        if done:
            remove_quietly(lock_path(o.lock))
    if kept:
        text = (_("Only one game of each kind can be restored into a tab; these unsaved games "
                  "were kept as session files (File → Open reads them):") + "\n"
                + "\n".join(f"• {p}" for p in kept))
        if getattr(window, "interactive", False):
            QMessageBox.information(window, _("Games kept as files"), as_rich_plain(text))
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
