"""The write-ahead journal of an instance's documents: a change reaches the disk before the screen.

Every undoable command of a :class:`desktop.storage.document.SessionDocument` (log, remove, replace,
setup change, and their undo and redo) is appended to the journal as one line of JSON before
the command changes the document and before any view is told (write-ahead logging as in
databases: C. Mohan et al., "ARIES", ACM TODS 17(1), 1992; SQLite's "Write-Ahead Logging",
https://sqlite.org/wal.html). The journal lies beside the instance's recovery file, which is
its *checkpoint*::

    recovery/instance-<id>.json      checkpoint: {"sessions", "paths", "saved", "seq"}
    recovery/instance-<id>.journal   one line per change since, each with a rising "seq"

A line is one ``os.write`` of the whole line to a file opened with ``O_APPEND``; the fsync
policy (the house rule, durability before speed): ``fdatasync`` before the views are told, on
every line, so an entry on screen survives a crash of the app and of the machine
(:class:`Journal`; ``tests/benchmarks/bench_journal.py`` measures it and the alternative of a
sync on a thread of the journal's own).
The checkpoint is written one pass of the event loop later, after the repaint
(:class:`desktop.storage.document.Autosave`), and then the journal is emptied; lines whose ``seq`` the
checkpoint already holds are skipped on replay, so a crash between the two loses nothing and
applies nothing twice.

Lines (``doc`` is the game id: one document per game and window)::

    {"seq": 7, "doc": "cluedo", "op": "base", "path": "/x/s.json" | null, "saved": false,
     "session": {session object}}                 the document as it is before the next line
    {"seq": 8, "doc": "cluedo", "op": "insert", "at": 12, "event": {event object}}
    {"seq": 9, "doc": "cluedo", "op": "remove", "at": 3}
    {"seq": 10, "doc": "cluedo", "op": "replace", "at": 3, "event": {event object}}
    {"seq": 11, "doc": "cluedo", "op": "setup", "setup": {setup object}}
    {"seq": 12, "doc": "cluedo", "op": "saved", "path": "/x/s.json"}   equal to its saved file
    {"seq": 13, "doc": "cluedo", "op": "unsaved"}                      no longer equal to it
    {"seq": 14, "doc": "cluedo", "op": "drop"}     replaced by New game / Open: nothing to keep

Replaying reads every event, setup and session of a line with the session file's own reader
(:func:`engines.core.schema.parse_event`, :func:`engines.core.schema.parse_session`), so a
journal is refused where a session file would be. A last line without its newline was cut
short by the crash (the write never finished): it is dropped and named; a bad line anywhere
else stops the replay there, and the lines before it are kept.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any, Optional

from engines.core.errors import SessionFormatError
from engines.core.i18n import _

#: Largest journal read (bytes): 5,000 events of a few hundred bytes each, many times over.
MAX_JOURNAL_BYTES = 64 << 20

#: The operations a journal line may hold.
OPS = ("base", "insert", "remove", "replace", "setup", "saved", "unsaved", "drop")


class Journal:
    """An append-only file of JSON lines.

    Each :meth:`append` writes the whole line with one ``os.write`` (the file is opened with
    ``O_APPEND`` on the first append and kept open): when it returns, the line is in the
    operating system's hands and survives any end of the app, SIGKILL included. The sync to
    the disk itself (``os.fdatasync``), which survives a crash of the machine too, follows:

    * ``sync="inline"`` (the app's policy): before :meth:`append` returns (measured in
      ``tests/benchmarks/bench_journal.py``: 0.16 ms at the median on an idle disk, 4 ms with
      other processes writing);
    * ``sync="none"``: never (the benchmark's comparison: the write alone).
    """

    def __init__(self, path: str, sync: str = "inline"):
        if sync not in ("inline", "none"):
            raise ValueError(f"sync: {sync!r}")
        self.path = path
        self.seq = 0
        self.sync = sync
        self._fd: Optional[int] = None

    def append(self, obj: dict) -> int:
        """Write ``obj`` with the next sequence number as one line (one ``os.write``) and have it
        synced to disk as :attr:`sync` says; returns the sequence number.

        Raises:
            OSError: the line could not be written or synced (the file may then hold a cut
                line, which a replay drops and names).
        """
        self.seq += 1
        line = json.dumps({"seq": self.seq, **obj}, ensure_ascii=False,
                          separators=(",", ":")) + "\n"
        try:
            data = line.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise OSError(_("cannot write {path}: the text holds U+{code}, which is not a character "
                            "(a lone surrogate)").format(path=self.path,
                                                         code=f"{ord(exc.object[exc.start]):04X}")) from None
        if self._fd is None:
            os.makedirs(os.path.dirname(self.path) or ".", exist_ok=True)
            self._fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        written = os.write(self._fd, data)
        while written < len(data):       # a short write (a signal, a full disk): the rest
            n = os.write(self._fd, data[written:])
            if n <= 0:
                raise OSError(_("cannot write {path}: the disk took only part of a line").format(path=self.path))
            written += n
        if self.sync == "inline":
            getattr(os, "fdatasync", os.fsync)(self._fd)   # macOS and Windows have no fdatasync
        return self.seq

    def truncate(self) -> None:
        """Empty the journal (its lines are in a checkpoint now); the numbering goes on."""
        if self._fd is not None:
            os.ftruncate(self._fd, 0)
        elif os.path.exists(self.path):
            os.truncate(self.path, 0)

    def close(self) -> None:
        """Close the file (it stays on disk; every line was synced as it was written)."""
        if self._fd is not None:
            try:
                os.close(self._fd)
            except OSError:
                pass
            self._fd = None

    def remove(self) -> None:
        """Close and delete the file (a clean end); never raises."""
        self.close()
        try:
            os.remove(self.path)
        except OSError:
            pass


def journal_path(recovery_file: str) -> str:
    """The journal beside the checkpoint ``recovery_file`` (``….json`` → ``….journal``)."""
    base = recovery_file[:-5] if recovery_file.endswith(".json") else recovery_file
    return base + ".journal"


@dataclass
class DocState:
    """One document as a replay leaves it: its session object, file and whether it equals the
    saved file (``saved``)."""

    session: dict
    path: Optional[str]
    saved: bool
    #: the time of each event logged or replaced by the journal (ISO 8601, or None)
    journal_times: list = field(default_factory=list)


@dataclass
class Replay:
    """What :func:`replay` made of a checkpoint and its journal."""

    docs: dict                      # game -> DocState
    lines: int = 0                  # journal lines applied
    problem: Optional[str] = None   # the line refused or cut short, in words (None: none)


def _folder(path: Optional[str]) -> str:
    return os.path.dirname(path) if path else ""


def _check_session(obj: Any, path: Optional[str], where: str):
    """``obj`` read as a session file is (the same reader, confined to the file's folder or,
    untitled, to the app's resources)."""
    from engines.core.schema import parse_session

    try:
        return parse_session(obj, path, folder=_folder(path))
    except SessionFormatError as exc:
        raise SessionFormatError(where + exc.path.removeprefix("$"), exc.message) from None


def replay(docs: dict, journal_file: str, after_seq: int = 0) -> Replay:  # noqa: C901 (one pass over the journal's kinds of line, in order)
    """Apply the lines of ``journal_file`` whose ``seq`` is above ``after_seq`` to ``docs``
    (game → :class:`DocState`, from the checkpoint; changed in place).

    Every line is checked as a session file is: an event against the setup of its document
    (:func:`engines.core.schema.parse_event`), a setup or a base session with
    :func:`engines.core.schema.parse_session`; a document changed by the journal is read whole
    with :func:`~engines.core.schema.parse_session` at the end (by the caller). A last line
    without its newline (a write cut short) is dropped and named in ``problem``; any other bad
    line stops the replay there (the lines before it are kept) and ``problem`` names it.
    A missing journal is an empty one.
    """
    from engines import game_module
    from engines.core.schema import loads_json, parse_event, read_bounded

    out = Replay(docs)
    try:
        data = read_bounded(journal_file, MAX_JOURNAL_BYTES, "$", "the journal")
    except SessionFormatError as exc:
        if not os.path.exists(journal_file):
            return out
        out.problem = _("the journal could not be read ({reason})").format(reason=exc.message)
        return out
    lines = data.split(b"\n")
    torn = lines.pop()              # b"" when the file ends with a newline
    setups: dict = {}               # game -> parsed setup, for checking events

    def setup_of(game: str):
        if game not in setups:
            st = docs[game]
            setups[game] = _check_session(dict(st.session, events=[]), st.path,
                                          f"journal document {game}").setup
        return setups[game]

    for number, raw in enumerate(lines, 1):
        where = f"journal line {number}"
        try:
            obj = loads_json(raw)
            if not isinstance(obj, dict):
                raise SessionFormatError("$", "expected an object")
            seq, game, op = obj.get("seq"), obj.get("doc"), obj.get("op")
            if not isinstance(seq, int) or isinstance(seq, bool):
                raise SessionFormatError("$.seq", "expected a whole number")
            if op not in OPS:
                raise SessionFormatError("$.op", f"unknown operation {str(op)[:20]!r}")
            if not isinstance(game, str):
                raise SessionFormatError("$.doc", "expected a game id")
            if seq <= after_seq:
                continue            # already in the checkpoint
            if op == "base":
                path = obj.get("path")
                if path is not None and not isinstance(path, str):
                    raise SessionFormatError("$.path", "expected a file name or null")
                path = save_target(path) if path else None
                session = obj.get("session")
                data_ = _check_session(session, path, "$.session")
                if data_.game != game:
                    raise SessionFormatError("$.session.game", f"expected {game!r}")
                docs[game] = DocState(session, path, obj.get("saved") is True)
                setups[game] = data_.setup
            elif op == "drop":
                docs.pop(game, None)
                setups.pop(game, None)
            elif game not in docs:
                raise SessionFormatError("$.doc", f"no document {game!r} before this line")
            else:
                st = docs[game]
                events = st.session.setdefault("events", [])
                if op in ("insert", "replace"):
                    at = obj.get("at")
                    hi = len(events) + (1 if op == "insert" else 0)
                    if not isinstance(at, int) or isinstance(at, bool) or not 0 <= at < max(hi, 1) \
                            or (op == "replace" and at >= len(events)):
                        raise SessionFormatError("$.at", f"expected an entry number below {hi}")
                    ev = obj.get("event")
                    _e, meta = parse_event(game_module(game), ev, setup_of(game), "$.event")
                    if op == "insert":
                        events.insert(at, ev)
                    else:
                        events[at] = ev
                    st.journal_times.append(meta.time)
                    st.saved = False
                elif op == "remove":
                    at = obj.get("at")
                    if not isinstance(at, int) or isinstance(at, bool) \
                            or not 0 <= at < len(events):
                        raise SessionFormatError("$.at", f"expected an entry number below "
                                                         f"{len(events)}")
                    del events[at]
                    st.saved = False
                elif op == "setup":
                    trial = dict(st.session, setup=obj.get("setup"), events=[])
                    setups[game] = _check_session(trial, st.path, "$.setup").setup
                    st.session["setup"] = obj.get("setup")
                    st.saved = False
                elif op == "saved":
                    path = obj.get("path")
                    if path is not None and not isinstance(path, str):
                        raise SessionFormatError("$.path", "expected a file name or null")
                    st.path, st.saved = (save_target(path) if path else None), True
                    st.journal_times.clear()
                elif op == "unsaved":
                    st.saved = False
        except SessionFormatError as exc:
            out.problem = _("{where} was refused and the replay stopped there ({reason})").format(
                where=where, reason=exc)
            return out
        out.lines += 1
    if torn.strip():
        out.problem = _("the journal's last line ({n} bytes) was cut short when the app stopped; "
                        "it was dropped").format(n=len(torn))
    return out


def save_target(path) -> Optional[str]:
    """``path`` when a restored game may keep it as its file (Save writes there): an absolute
    path of a ``.json`` file, valid text without control characters, in an existing folder,
    and either missing or a regular file holding a Deduction Desk session; otherwise None
    (the game is restored untitled: a recovery file must not make Save overwrite another
    file)."""
    import stat

    from engines.core.schema import FORMAT, loads_json, not_text, read_bounded

    if not isinstance(path, str) or not path or len(path) > 4096 or not os.path.isabs(path) \
            or not path.lower().endswith(".json") or not_text(path) is not None \
            or any(ord(c) < 32 or ord(c) == 127 for c in path):
        return None
    if not os.path.isdir(os.path.dirname(path)):
        return None
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return os.path.abspath(path)
    except (OSError, ValueError):
        return None
    if not stat.S_ISREG(st.st_mode):
        return None
    try:
        obj = loads_json(read_bounded(path, 16 << 20, "$", "a session file"), path)
    except SessionFormatError:
        return None
    return os.path.abspath(path) if isinstance(obj, dict) and obj.get("format") == FORMAT \
        else None
