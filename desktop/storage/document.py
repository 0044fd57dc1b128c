"""The session document: game setup + ordered event list + a QUndoStack (docs/ARCHITECTURE.md).

Every logged fact is a :class:`QUndoCommand` (append, remove, replace the setup), so Edit→Undo
works on everything. Files are written atomically with :class:`QSaveFile`; reading validates the
whole file with :func:`engines.core.schema.parse_session` and changes nothing on error.
"""
from __future__ import annotations

import csv
import io
import json
import os
from typing import Any, Callable, Optional, Sequence

from PySide6.QtCore import QIODevice, QObject, QSaveFile, QTimer, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from engines import game_module
from engines.core.errors import SessionFormatError
from engines.core.i18n import _
from engines.core.schema import EventMeta, SessionData, dumps_session, read_session_file, session_json


def _title(game: str) -> str:
    """The game's title for messages ("Guess Who?", not the id "guesswho")."""
    try:
        return game_module(game).TITLE
    except (KeyError, ImportError):
        return game


def write_text_atomically(path: str, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` through QSaveFile: the old file stays whole on failure.

    Raises:
        OSError: the file cannot be written (message names the file and Qt's reason), also
            when ``text`` holds a lone surrogate (nothing is written then).
    """
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError as exc:   # a lone surrogate: no UTF-8 file can hold it
        raise OSError(_("cannot write {path}: the text holds U+{code} at character {at}, which is not "
                        "a character (a lone surrogate); nothing was written").format(
            path=path, code=f"{ord(exc.object[exc.start]):04X}", at=exc.start + 1)) from None
    try:
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    except OSError as exc:
        raise OSError(_("cannot write {path}: cannot make its folder ({reason})").format(
            path=path, reason=exc.strerror or exc)) from None
    f = QSaveFile(path)
    if not f.open(QIODevice.WriteOnly):
        raise OSError(_("cannot write {path}: {reason}").format(path=path, reason=f.errorString()))
    if f.write(data) != len(data):
        f.cancelWriting()
        raise OSError(_("cannot write {path}: {reason}").format(path=path, reason=f.errorString()))
    if not f.commit():
        raise OSError(_("cannot write {path}: {reason}").format(path=path, reason=f.errorString()))


class SessionDocument(QObject):
    """One tab's document: ``setup``, ``events`` (engine dataclasses), ``meta`` and an undo stack.

    Signals (the fine-grained ones first, then ``changed`` for the same edit):
        eventsInserted(int first, int count): events ``first .. first+count-1`` were inserted.
        eventsRemoved(int first, int count): the events at ``first ..`` were removed.
        eventChanged(int index): the event at ``index`` was replaced (same position).
        setupReplaced(): the setup changed, the events were kept (an undoable option change).
        documentReset(): a new setup and log (New game, Open; not undoable).
        changed(int): the revision number after any change (event list or setup).
        pathChanged(str): the file the document is saved to changed.
    """

    eventsInserted = Signal(int, int)
    eventsRemoved = Signal(int, int)
    eventChanged = Signal(int)
    setupReplaced = Signal()
    documentReset = Signal()
    changed = Signal(int)
    pathChanged = Signal(str)

    def __init__(self, game: str, setup: Any, parent: Optional[QObject] = None):
        super().__init__(parent)
        self.game = game
        self.module = game_module(game)
        self.setup = setup
        self.events: list = []
        self.meta: list[EventMeta] = []
        self.path: Optional[str] = None
        self.revision = 0
        self.undo_stack = QUndoStack(self)
        self.undo_stack.setUndoLimit(0)  # unlimited: a game's log must never be lost
        #: ``setup -> setup`` adding what a tab keeps outside the undo history to the setup that
        #: is written (Spyfall: the round timer's time left), or None.
        self.setup_for_saving: Optional[Callable[[Any], Any]] = None
        #: ``write_ahead(doc, op)``: called by every undoable command (its redo and its undo)
        #: with the change as a journal operation (:mod:`desktop.storage.journal`), before the command
        #: changes the document and before any view is told; None: no journal.
        self.write_ahead: Optional[Callable[["SessionDocument", dict], None]] = None
        #: the file as it was read, last written or restored here (:class:`DiskStamp`; None:
        #: not known): Save checks it first (desktop.shell.file_actions)
        self.disk_stamp: Optional[DiskStamp] = None

    # -- state ---------------------------------------------------------------------------
    def _ahead(self, op: dict) -> None:
        """Hand ``op`` to :attr:`write_ahead` (the journal) before the change is made."""
        if self.write_ahead is not None:
            self.write_ahead(self, op)

    def event_json(self, event: Any, meta: EventMeta) -> dict:
        """``event`` with its ``meta`` as a session file's event object."""
        from engines.core.schema import event_file_json

        d = event_file_json(self.game, self.setup, event)
        d.update(meta.to_json())
        return d

    def setup_json(self, setup: Any) -> dict:
        """``setup`` as the session file written to this document's file holds it (with
        :attr:`setup_for_saving`; files it names relative to the file's folder)."""
        from engines.core.schema import WRITING_TO

        if self.setup_for_saving is not None:
            setup = self.setup_for_saving(setup)
        token = WRITING_TO.set(os.path.abspath(self.path) if self.path else "")
        try:
            return setup.to_json()
        finally:
            WRITING_TO.reset(token)

    def _bump(self) -> None:
        self.revision += 1
        self.changed.emit(self.revision)

    def data(self) -> SessionData:
        """The document as an immutable :class:`SessionData` (what is saved; the setup through
        :attr:`setup_for_saving` when a tab set one)."""
        setup = self.setup if self.setup_for_saving is None else self.setup_for_saving(self.setup)
        return SessionData(self.game, setup, tuple(self.events), tuple(self.meta))

    def is_modified(self) -> bool:
        return not self.undo_stack.isClean()

    def display_name(self) -> str:
        return os.path.basename(self.path) if self.path else _("Untitled")

    # -- edits (always through the undo stack) --------------------------------------------
    def log_limit(self) -> Optional[str]:
        """Why no further event may be logged (the log holds the most events a session file may
        hold, :data:`engines.core.schema.MAX_EVENTS`: a longer log would be saved to a file
        that Open, and crash recovery, refuse), or None when one may."""
        from engines.core.schema import MAX_EVENTS

        if len(self.events) < MAX_EVENTS:
            return None
        return _("this game's log holds {n} events, the most a session file may hold ({limit}; "
                 "a longer one could not be opened again). Save the game and start a new one to "
                 "go on").format(n=len(self.events), limit=MAX_EVENTS)

    def log_event(self, event: Any, meta: Optional[EventMeta] = None, text: Optional[str] = None) -> None:
        """Append ``event`` with an undoable command (the command text is the event in words).

        Raises:
            SessionFormatError: at ``$.events`` when the log is full (:meth:`log_limit`).
        """
        full = self.log_limit()
        if full:
            raise SessionFormatError("$.events", full)
        meta = meta or EventMeta.now()
        desc = text or self.module.describe_event(self.setup, event)
        self.undo_stack.push(_AppendEvent(self, event, meta, desc))

    def remove_event(self, index: int) -> None:
        """Remove the event at ``index`` (undoable)."""
        if not 0 <= index < len(self.events):
            raise IndexError(index)
        desc = self.module.describe_event(self.setup, self.events[index])
        self.undo_stack.push(_RemoveEvent(self, index, desc))

    def replace_event(self, index: int, event: Any) -> None:
        """Replace the event at ``index`` (undoable), keeping its time and note."""
        self.undo_stack.push(_ReplaceEvent(self, index, event))

    def replace_setup(self, setup: Any, text: Optional[str] = None, merge_key: int = -1) -> None:
        """Replace the setup and keep the events (undoable), e.g. an option such as behavioural
        analysis, or a stack edited before anything was logged. Consecutive commands with the
        same ``merge_key`` (>= 0) merge into one undo step. Emits ``setupReplaced`` (also on
        undo/redo): views that depend on the setup rebuild there."""
        if same_setup(setup, self.setup):
            return
        self.undo_stack.push(_ReplaceSetup(self, setup, text or _("Change the setup"), merge_key))

    def relabel(self, setup: Any, events: Sequence, text: Optional[str] = None) -> None:
        """Replace the setup and every event by the same log under other names (undoable; the
        notes and times are kept): e.g. a Cluedo game switched between the UK, German and French
        card names (``engines.cluedo.relabel``). ``events`` must be as many as now and write the
        same session-file objects under ``setup`` as the current ones do (the journal records
        only the new setup). Emits ``setupReplaced`` (also on undo/redo)."""
        if len(events) != len(self.events):
            raise ValueError("a relabelled log has the same number of events")
        if same_setup(setup, self.setup):
            return
        self.undo_stack.push(_Relabel(self, setup, tuple(events), text or _("Change the card names")))

    def reset(self, setup: Any, events: Sequence = (), meta: Sequence = (), path: Optional[str] = None) -> None:
        """Start over with a new setup and log (not undoable: New game / Open); marks clean."""
        self.setup = setup
        self.events = list(events)
        self.meta = list(meta) if meta else [EventMeta() for _ in self.events]
        self.undo_stack.clear()
        self.disk_stamp = None
        self.set_path(path)
        self.undo_stack.setClean()
        self.documentReset.emit()
        self._bump()

    def set_path(self, path: Optional[str]) -> None:
        self.path = path
        self.pathChanged.emit(path or "")

    # -- files --------------------------------------------------------------------------
    def to_text(self, target: Optional[str] = None) -> str:
        """The session file's text, for writing to ``target`` (default: the document's file):
        files the setup names are written relative to its folder, or inline when outside it
        (:func:`engines.core.schema.dumps_session`)."""
        return dumps_session(self.data(), target or self.path or "")

    def save(self, path: Optional[str] = None) -> None:
        """Write the session atomically to ``path`` (or the current path) and mark it clean.

        Raises:
            OSError: the file cannot be written.
            ValueError: no path given and the document has none.
        """
        path = path or self.path
        if not path:
            raise ValueError("no file name")
        write_text_atomically(path, self.to_text(path))
        try:
            self.disk_stamp = disk_stamp(path)
        except OSError:
            self.disk_stamp = None
        self.set_path(path)
        self.undo_stack.setClean()

    def load(self, data: SessionData, path: Optional[str] = None) -> None:
        """Replace the document by ``data`` (already validated)."""
        if data.game != self.game:
            raise SessionFormatError("$.game", _("this is a {game} session, not {this}").format(
                game=_title(data.game), this=_title(self.game)))
        self.reset(data.setup, data.events, data.meta, path)

    def history_csv(self, summaries: Sequence[Optional[dict]]) -> str:
        """CSV of the event history with the belief after every event (one row per event).

        Args:
            summaries: ``summaries[i]`` is ``belief_summary`` after event ``i`` (None when it is
                not known, e.g. after a contradiction); ``summaries`` may have one extra leading
                entry for the setup alone, which is written as row 0.
        """
        keys: list[str] = []
        for s in summaries:
            for k in (s or {}):
                if k not in keys:
                    keys.append(k)
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w = _SafeWriter(w)
        w.writerow(["event", "time", "type", "description", "note"] + keys)
        offset = len(summaries) - len(self.events)
        if offset == 1:
            s = summaries[0] or {}
            w.writerow([0, "", "setup", "game set up", ""] + [_fmt(s.get(k)) for k in keys])
        for i, (ev, meta) in enumerate(zip(self.events, self.meta)):
            s = summaries[i + offset] if 0 <= i + offset < len(summaries) else None
            s = s or {}
            w.writerow([i + 1, meta.time or "", ev.to_json().get("type", ""),
                        self.module.describe_event(self.setup, ev), meta.note or ""]
                       + [_fmt(s.get(k)) for k in keys])
        return buf.getvalue()


#: First characters that make a spreadsheet read a cell as a formula (OWASP, "CSV Injection").
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\uff1d", "\uff0b", "\uff0d", "\uff20")


def csv_cell(v) -> str:
    """``v`` as a CSV cell a spreadsheet shows as text: a text cell that starts like a formula
    (``=``, ``+``, ``-``, ``@``, tab, CR) gets a leading apostrophe (OWASP's advice); numbers
    are left as they are."""
    if not isinstance(v, str):
        return v
    if v.startswith(_FORMULA_START):
        try:
            float(v)
            return v          # a number such as -0.5
        except ValueError:
            return "'" + v
    return v


class _SafeWriter:
    """A csv.writer whose cells pass through :func:`csv_cell`."""

    def __init__(self, writer):
        self._w = writer

    def writerow(self, row) -> None:
        self._w.writerow([csv_cell(c) for c in row])


def _fmt(v) -> str:
    if v is None:
        return ""
    if isinstance(v, float):
        return f"{v:.6g}"
    return str(v)


class _AppendEvent(QUndoCommand):
    def __init__(self, doc: SessionDocument, event, meta, text):
        super().__init__(text)
        self.doc, self.event, self.meta_ = doc, event, meta

    def redo(self):
        self.doc._ahead({"op": "insert", "at": len(self.doc.events),
                         "event": self.doc.event_json(self.event, self.meta_)})
        self.doc.events.append(self.event)
        self.doc.meta.append(self.meta_)
        self.doc.eventsInserted.emit(len(self.doc.events) - 1, 1)
        self.doc._bump()

    def undo(self):
        self.doc._ahead({"op": "remove", "at": len(self.doc.events) - 1})
        self.doc.events.pop()
        self.doc.meta.pop()
        self.doc.eventsRemoved.emit(len(self.doc.events), 1)
        self.doc._bump()


class _RemoveEvent(QUndoCommand):
    def __init__(self, doc: SessionDocument, index: int, text: str):
        super().__init__(_("Remove: {entry}").format(entry=text))
        self.doc, self.index = doc, index
        self.event = doc.events[index]
        self.meta_ = doc.meta[index]

    def redo(self):
        self.doc._ahead({"op": "remove", "at": self.index})
        del self.doc.events[self.index]
        del self.doc.meta[self.index]
        self.doc.eventsRemoved.emit(self.index, 1)
        self.doc._bump()

    def undo(self):
        self.doc._ahead({"op": "insert", "at": self.index,
                         "event": self.doc.event_json(self.event, self.meta_)})
        self.doc.events.insert(self.index, self.event)
        self.doc.meta.insert(self.index, self.meta_)
        self.doc.eventsInserted.emit(self.index, 1)
        self.doc._bump()


class _ReplaceEvent(QUndoCommand):
    def __init__(self, doc: SessionDocument, index: int, event):
        super().__init__(_("Edit: {entry}").format(entry=doc.module.describe_event(doc.setup, event)))
        self.doc, self.index, self.new, self.old = doc, index, event, doc.events[index]

    def redo(self):
        self.doc._ahead({"op": "replace", "at": self.index,
                         "event": self.doc.event_json(self.new, self.doc.meta[self.index])})
        self.doc.events[self.index] = self.new
        self.doc.eventChanged.emit(self.index)
        self.doc._bump()

    def undo(self):
        self.doc._ahead({"op": "replace", "at": self.index,
                         "event": self.doc.event_json(self.old, self.doc.meta[self.index])})
        self.doc.events[self.index] = self.old
        self.doc.eventChanged.emit(self.index)
        self.doc._bump()


class _ReplaceSetup(QUndoCommand):
    def __init__(self, doc: SessionDocument, setup, text: str, merge_key: int):
        super().__init__(text)
        self.doc, self.new, self.old, self.key = doc, setup, doc.setup, merge_key

    def id(self) -> int:
        return 7000 + self.key if self.key >= 0 else -1

    def mergeWith(self, other) -> bool:  # noqa: N802 (Qt's method name)
        if other.id() != self.id() or self.key < 0:
            return False
        self.new = other.new
        if same_setup(self.new, self.old):
            self.setObsolete(True)
        return True

    def redo(self):
        self.doc._ahead({"op": "setup", "setup": self.doc.setup_json(self.new)})
        self.doc.setup = self.new
        self.doc.setupReplaced.emit()
        self.doc._bump()

    def undo(self):
        self.doc._ahead({"op": "setup", "setup": self.doc.setup_json(self.old)})
        self.doc.setup = self.old
        self.doc.setupReplaced.emit()
        self.doc._bump()


class _Relabel(QUndoCommand):
    """Setup and events together (:meth:`SessionDocument.relabel`). The undo stack is linear, so
    the commands before and after this one hold events in the names of their own time."""

    def __init__(self, doc: SessionDocument, setup, events: tuple, text: str):
        super().__init__(text)
        self.doc = doc
        self.new, self.old = (setup, events), (doc.setup, tuple(doc.events))

    def _apply(self, state) -> None:
        setup, events = state
        self.doc._ahead({"op": "setup", "setup": self.doc.setup_json(setup)})
        self.doc.setup = setup
        self.doc.events = list(events)
        self.doc.setupReplaced.emit()
        self.doc._bump()

    def redo(self):
        self._apply(self.new)

    def undo(self):
        self._apply(self.old)


def same_setup(a: Any, b: Any) -> bool:
    """Whether two setups are the same setup as written: equal, and equal in their JSON (a
    setup may leave things the model never reads out of its equality, e.g. Spyfall's table
    aids, which must still be undoable changes)."""
    return a == b and (a is b or a.to_json() == b.to_json())


class DiskStamp(tuple):
    """``(size, mtime_ns, sha256)`` of a session file as this window read or wrote it: Save
    checks that the file on disk is still the one it knows (:func:`disk_stamp`)."""

    __slots__ = ()

    def __new__(cls, size: int, mtime_ns: int, sha256: str):
        return super().__new__(cls, (size, mtime_ns, sha256))

    @property
    def sha256(self) -> str:
        """The SHA-256 of the file's content (hex)."""
        return self[2]


def disk_stamp(path: str) -> Optional[DiskStamp]:
    """The :class:`DiskStamp` of the file ``path`` now, or None when it does not exist.

    Raises:
        OSError: it exists but cannot be read.
    """
    import hashlib

    try:
        with open(path, "rb") as fh:
            st = os.fstat(fh.fileno())
            digest = hashlib.sha256()
            for block in iter(lambda: fh.read(1 << 20), b""):
                digest.update(block)
    except FileNotFoundError:
        return None
    return DiskStamp(st.st_size, st.st_mtime_ns, digest.hexdigest())


def open_session_file(path: str) -> SessionData:
    """Read and validate a session file (see :func:`engines.core.schema.read_session_file`)."""
    return read_session_file(path)


def open_session_file_stamped(path: str) -> tuple:
    """Read and validate a session file as :func:`open_session_file` does, and its
    :class:`DiskStamp`: the digest is of the very bytes that were parsed (one read), so a change
    another program makes after that read is always seen by Save's check; hashing the file in a
    second read would miss a change made between the two.

    Raises:
        SessionFormatError: as :func:`engines.core.schema.read_session_file`.
    """
    import hashlib

    from engines.core.schema import MAX_FILE_BYTES, loads_json, parse_session, read_bounded

    data = read_bounded(path, MAX_FILE_BYTES, "$", "a session file")
    session = parse_session(loads_json(data, path), path)
    try:
        mtime = os.stat(path).st_mtime_ns
    except OSError:
        mtime = 0
    return session, DiskStamp(len(data), mtime, hashlib.sha256(data).hexdigest())


def _sync_folder(folder: str) -> None:
    """fsync the folder ``folder`` (so a rename in it survives a power loss); nothing where
    folders cannot be opened (Windows).

    Raises:
        OSError: the sync failed.
    """
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class Autosave(QObject):
    """Writes every change of the watched documents to disk before the views are told, and a
    checkpoint of them after the repaint.

    Write-ahead: every undoable command of a document is appended to the journal
    (:class:`desktop.storage.journal.Journal`, one JSON line written and synced to disk) from inside the
    command,
    before it changes the document and before any view is told (:mod:`desktop.storage.journal`).

    Checkpoint: the recovery file, ``{"sessions": [session, ...], "paths": [file or null, ...],
    "saved": [bool, ...], "seq": n}`` (``saved``: the document equals its saved file; ``seq``:
    the last journal line it holds), written atomically from a zero-delay timer
    (:data:`WRITE_DELAY_MS`), not inside the change's own signal: the repaint the change asked
    for is delivered first (Qt delivers posted events, such as a widget's paint request, before
    it runs timers), then the checkpoint, which empties the journal. Changes made in the same
    pass make one checkpoint. A clean exit deletes both files (:meth:`discard`); a clean end
    without asking (:meth:`finish`: SIGTERM, logout) keeps only the unsaved documents.
    """

    #: Milliseconds between a change and its checkpoint (0: the next pass of the event loop).
    WRITE_DELAY_MS = 0

    #: writeFailed(str reason): the recovery file could not be written (each failed write).
    writeFailed = Signal(str)
    #: writeRecovered(): a write succeeded after failing.
    writeRecovered = Signal()
    #: writeMoved(str notice): the recovery file's folder could not be written any more and the
    #: file is now written elsewhere (the notice names both folders and the reason).
    writeMoved = Signal(str)

    def __init__(self, parent: Optional[QObject] = None):
        super().__init__(parent)
        self.documents: list[SessionDocument] = []
        self.enabled = True
        #: why the last write failed (None: it succeeded, or nothing was written yet)
        self.failure: Optional[str] = None
        self._pending = QTimer(self)
        self._pending.setSingleShot(True)
        self._pending.setInterval(self.WRITE_DELAY_MS)
        self._pending.timeout.connect(self.write)
        self._journal = None
        self._old_journals: list = []
        #: ids of the documents whose state the checkpoint or the journal holds (the others get
        #: a "base" line before their next change)
        self._based: set = set()

    @staticmethod
    def recovery_path() -> str:
        from desktop.storage.paths import data_dir

        return os.path.join(data_dir(), "recovery.json")

    def journal_path(self) -> str:
        """The journal beside the recovery file (:func:`desktop.storage.journal.journal_path`)."""
        from desktop.storage.journal import journal_path

        return journal_path(self.recovery_path())

    @property
    def journal(self):
        """The :class:`desktop.storage.journal.Journal` beside the recovery file (it follows the
        recovery file when that moves, its numbering going on)."""
        from desktop.storage.journal import Journal

        path = self.journal_path()
        if self._journal is None or self._journal.path != path:
            old = self._journal
            self._journal = Journal(path)
            if old is not None:
                self._journal.seq = old.seq
                old.close()   # removed once a checkpoint in the new place holds its lines
                self._old_journals.append(old.path)
        return self._journal

    def watch(self, doc: SessionDocument) -> None:
        self.documents.append(doc)
        doc.changed.connect(self.schedule)
        doc.write_ahead = self._write_ahead
        doc.documentReset.connect(lambda d=doc: self._reset(d))
        doc.undo_stack.cleanChanged.connect(lambda clean, d=doc: self._clean_changed(d, clean))

    # -- the journal ----------------------------------------------------------------------
    def _append(self, obj: dict) -> bool:
        """Append one journal line now; on failure say so (``writeFailed``) and False."""
        try:
            self.journal.append(obj)
        except OSError as exc:
            self.failure = str(exc) or type(exc).__name__
            self.writeFailed.emit(self.failure)
            return False
        return True

    def _base(self, doc: SessionDocument) -> None:
        """The document as it is now, as a journal line (its next lines change it)."""
        if self._append({"doc": doc.game, "op": "base", "path": doc.path,
                         "saved": not doc.is_modified(),
                         "session": session_json(doc.data(), doc.path or "")}):
            self._based.add(id(doc))

    def _write_ahead(self, doc: SessionDocument, op: dict) -> None:
        """``doc``'s command is about to make the change ``op``: journal it first."""
        if not self.enabled:
            return
        if id(doc) not in self._based:
            self._base(doc)
        self._append({"doc": doc.game, **op})

    def _reset(self, doc: SessionDocument) -> None:
        """New game or Open replaced the document (not a command): the checkpoint's copy is no
        longer it."""
        if self.enabled and id(doc) in self._based:
            self._append({"doc": doc.game, "op": "drop"})
        self._based.discard(id(doc))

    def _clean_changed(self, doc: SessionDocument, clean: bool) -> None:
        """Saved (or undone back to the saved state), or unsaved again: journal it."""
        if not self.enabled:
            return
        if id(doc) not in self._based:
            if not clean:            # e.g. restored work marked unsaved: keep it whole
                self._base(doc)
            return
        if clean:
            self._append({"doc": doc.game, "op": "saved", "path": doc.path})
        else:
            self._append({"doc": doc.game, "op": "unsaved"})

    # -- the checkpoint -------------------------------------------------------------------
    def schedule(self, *_args) -> None:
        """Write at the next pass of the event loop (after the repaint of the change; see the
        class docstring); several changes before then make one write."""
        if not self._pending.isActive():
            self._pending.start()

    def pending(self) -> bool:
        """True while a change waits for its write (:meth:`schedule`)."""
        return self._pending.isActive()

    def write(self, *_args) -> bool:
        """Write the checkpoint now: every document with events or unsaved changes (or remove
        the files when there is none), then empty the journal. True when that worked; on
        failure the documents stay as they are in memory (and in the journal), ``failure``
        says why and ``writeFailed`` is emitted (the window shows it at once; autosave itself
        never interrupts the player with a dialog)."""
        return self._checkpoint([d for d in self.documents if d.events or d.is_modified()])

    def finish(self) -> bool:
        """End without asking (SIGTERM, SIGHUP, the desktop session's logout): documents without
        unsaved changes leave nothing; the unsaved ones are kept in the recovery file for the
        next start. True when that was written (or nothing needed writing)."""
        self._pending.stop()
        if not self.enabled:
            return True
        unsaved = [d for d in self.documents if d.is_modified()]
        if not unsaved:
            self.discard()
            return True
        ok = self._checkpoint(unsaved)
        if ok:
            self.journal.remove()    # empty: the checkpoint holds every line
        self.enabled = False         # nothing after the last checkpoint
        return ok

    def _checkpoint(self, docs: list) -> bool:
        self._pending.stop()
        if not self.enabled:
            return True
        if not docs:
            self.discard()
            return True
        try:
            # files a setup names: relative to the game's own file, or inline (untitled)
            payload = {"sessions": [session_json(d.data(), d.path or "") for d in docs],
                       "paths": [d.path for d in docs],
                       "saved": [not d.is_modified() for d in docs],
                       "seq": self.journal.seq}
            write_text_atomically(self.recovery_path(), json.dumps(payload, ensure_ascii=False))
        except (OSError, ValueError, RecursionError) as exc:
            if isinstance(exc, OSError) and self.relocate(exc):
                return True          # written in another folder (writeMoved says where)
            self.failure = str(exc) or type(exc).__name__
            self.writeFailed.emit(self.failure)
            return False
        self._based = {id(d) for d in docs}
        try:
            # the rename that QSaveFile made durable before the lines it replaces go (POSIX
            # makes a rename durable only with its folder: fsync(2), "NOTES")
            _sync_folder(os.path.dirname(self.recovery_path()))
            self.journal.truncate()      # its lines are in the checkpoint (and skipped by seq)
        except OSError:
            pass
        for old in self._old_journals:   # journals of a folder the files moved away from
            if old != self.journal.path:
                try:
                    os.remove(old)
                except OSError:
                    pass
        self._old_journals.clear()
        if self.failure is not None:
            self.failure = None
            self.writeRecovered.emit()
        return True

    def relocate(self, exc: OSError) -> bool:
        """After a write failed with ``exc``: write the recovery file in another folder instead
        and True when that worked (:class:`desktop.storage.recovery.InstanceAutosave` does; the shared
        file of this base class stays where it is: False)."""
        return False

    def discard(self) -> None:
        """A clean exit: no write after this; the recovery file and the journal are removed."""
        self._pending.stop()
        self._based.clear()
        if self._journal is not None:
            self._journal.remove()
        else:
            try:
                os.remove(self.journal_path())
            except OSError:
                pass
        try:
            os.remove(self.recovery_path())
        except OSError:   # not there, or a folder that cannot be written: nothing to remove
            pass
