"""Session file schema and a path-tracking JSON reader.

A session file is one JSON object::

    {"format": "deduction-desk.session", "version": 1, "game": "cluedo",
     "setup": {...}, "events": [{"type": ..., "note"?: str, "time"?: ISO 8601}, ...]}

:func:`parse_session` validates it completely, delegating ``setup`` and each event to the
game's engine module (``Setup.from_json(obj, path)``, ``event_from_json(obj, setup, path)``),
and reports the JSON path of the first bad field as a :class:`SessionFormatError`.
The optional ``note`` and ``time`` of an event are kept beside the event (:class:`EventMeta`),
so engines never see them.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Iterable, Optional, Sequence

from engines.core.errors import SessionFormatError

FORMAT = "deduction-desk.session"
VERSION = 1

_MISSING = object()


class Reader:
    """Typed, validated access to one JSON object, naming the JSON path of any bad field.

    Example::

        r = Reader(obj, "$.setup")
        players = r.str_list("players", min_len=2, unique=True)
        me = r.choice("me", players)

    Every getter raises :class:`SessionFormatError` with a path such as ``$.setup.players[2]``.
    """

    def __init__(self, obj: Any, path: str = "$"):
        if not isinstance(obj, dict):
            raise SessionFormatError(path, f"expected an object, got {_kind(obj)}")
        self.obj = obj
        self.path = path

    def sub(self, key: str) -> str:
        """JSON path of field ``key``."""
        return f"{self.path}.{key}"

    def has(self, key: str) -> bool:
        return key in self.obj and self.obj[key] is not None

    def raw(self, key: str, default: Any = _MISSING) -> Any:
        if key not in self.obj:
            if default is _MISSING:
                raise SessionFormatError(self.sub(key), "required field is missing")
            return default
        return self.obj[key]

    def error(self, key: str, message: str) -> SessionFormatError:
        """An error about field ``key`` (to raise)."""
        return SessionFormatError(self.sub(key), message)

    def child(self, key: str, default: Any = _MISSING) -> "Reader":
        v = self.raw(key, default)
        return Reader(v if v is not None else {}, self.sub(key))

    def str(self, key: str, default: Any = _MISSING, *, allow_empty: bool = False) -> str:
        v = self.raw(key, default)
        if v is default and default is not _MISSING:
            return v
        if not isinstance(v, str):
            raise self.error(key, f"expected text, got {_kind(v)}")
        if not allow_empty and not v.strip():
            raise self.error(key, "must not be empty")
        return v

    def opt_str(self, key: str) -> Optional[str]:
        return None if self.raw(key, None) is None else self.str(key)

    def bool(self, key: str, default: Any = _MISSING) -> bool:
        v = self.raw(key, default)
        if not isinstance(v, bool):
            raise self.error(key, f"expected true or false, got {_kind(v)}")
        return v

    def int(self, key: str, default: Any = _MISSING, *, min: Optional[int] = None,
            max: Optional[int] = None) -> int:
        v = self.raw(key, default)
        if isinstance(v, bool) or not isinstance(v, int):
            if isinstance(v, float) and v.is_integer():
                v = int(v)
            else:
                raise self.error(key, f"expected a whole number, got {_kind(v)}")
        _check_range(self.sub(key), v, min, max)
        return v

    def float(self, key: str, default: Any = _MISSING, *, min: Optional[float] = None,
              max: Optional[float] = None, min_exclusive: bool = False,
              max_exclusive: bool = False) -> float:
        v = self.raw(key, default)
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            raise self.error(key, f"expected a number, got {_kind(v)}")
        v = float(v)
        if min is not None and (v < min or (min_exclusive and v == min)):
            raise self.error(key, f"must be {'>' if min_exclusive else '>='} {min:g}, got {v:g}")
        if max is not None and (v > max or (max_exclusive and v == max)):
            raise self.error(key, f"must be {'<' if max_exclusive else '<='} {max:g}, got {v:g}")
        return v

    def list(self, key: str, default: Any = _MISSING, *, min_len: int = 0,
             max_len: Optional[int] = None) -> list:
        v = self.raw(key, default)
        if not isinstance(v, list):
            raise self.error(key, f"expected a list, got {_kind(v)}")
        if len(v) < min_len:
            raise self.error(key, f"needs at least {min_len} entries, got {len(v)}")
        if max_len is not None and len(v) > max_len:
            raise self.error(key, f"allows at most {max_len} entries, got {len(v)}")
        return v

    def str_list(self, key: str, default: Any = _MISSING, *, min_len: int = 0,
                 max_len: Optional[int] = None, unique: bool = False,
                 choices: Optional[Iterable[str]] = None) -> list[str]:
        v = self.list(key, default, min_len=min_len, max_len=max_len)
        allowed = None if choices is None else list(choices)
        seen: set[str] = set()
        for i, item in enumerate(v):
            p = f"{self.sub(key)}[{i}]"
            if not isinstance(item, str) or not item.strip():
                raise SessionFormatError(p, f"expected a name, got {_kind(item)}")
            if allowed is not None and item not in allowed:
                raise SessionFormatError(p, f"unknown {key.rstrip('s')} {item!r}; expected one of "
                                            f"{_short(allowed)}")
            if unique and item in seen:
                raise SessionFormatError(p, f"{item!r} appears twice")
            seen.add(item)
        return list(v)

    def choice(self, key: str, choices: Iterable[str], default: Any = _MISSING,
               *, what: Optional[str] = None) -> Any:
        """A text field that must be one of ``choices`` (``None`` allowed only as default)."""
        v = self.raw(key, default)
        if v is default and default is not _MISSING:
            return v
        allowed = list(choices)
        if v not in allowed:
            raise self.error(key, f"unknown {what or key} {v!r}; expected one of {_short(allowed)}")
        return v

    def dict(self, key: str, default: Any = _MISSING) -> dict:
        v = self.raw(key, default)
        if not isinstance(v, dict):
            raise self.error(key, f"expected an object, got {_kind(v)}")
        return v


def _check_range(path, v, lo, hi):
    if lo is not None and v < lo:
        raise SessionFormatError(path, f"must be at least {lo}, got {v}")
    if hi is not None and v > hi:
        raise SessionFormatError(path, f"must be at most {hi}, got {v}")


def _kind(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true/false"
    if isinstance(v, (int, float)):
        return f"the number {v!r}"
    if isinstance(v, str):
        return f"the text {v!r}" if len(v) < 40 else "text"
    if isinstance(v, list):
        return "a list"
    if isinstance(v, dict):
        return "an object"
    return type(v).__name__


def _short(items: Sequence[str], n: int = 8) -> str:
    shown = ", ".join(repr(x) for x in list(items)[:n])
    return shown + (", …" if len(items) > n else "")


@dataclass(frozen=True)
class EventMeta:
    """What a session keeps beside an engine event: an optional note and time (ISO 8601)."""

    note: Optional[str] = None
    time: Optional[str] = None

    def to_json(self) -> dict:
        out = {}
        if self.time:
            out["time"] = self.time
        if self.note:
            out["note"] = self.note
        return out

    @staticmethod
    def now(note: Optional[str] = None) -> "EventMeta":
        return EventMeta(note=note, time=datetime.now().astimezone().isoformat(timespec="seconds"))


@dataclass(frozen=True)
class SessionData:
    """A parsed, validated session: ``game``, its engine ``setup``, ``events`` and their ``meta``."""

    game: str
    setup: Any
    events: tuple = ()
    meta: tuple = ()

    def to_json(self) -> dict:
        """The session file object (see module docstring)."""
        events = []
        for ev, meta in zip(self.events, self.meta or [EventMeta()] * len(self.events)):
            d = dict(ev.to_json())
            d.update(meta.to_json())
            events.append(d)
        return {"format": FORMAT, "version": VERSION, "game": self.game,
                "setup": self.setup.to_json(), "events": events}


def parse_event(module, obj: Any, setup: Any, path: str):
    """Validate one event object with the game's engine; returns ``(event, EventMeta)``."""
    r = Reader(obj, path)
    note = r.opt_str("note") if r.has("note") else None
    time = r.str("time") if r.has("time") else None
    if time is not None:
        try:
            datetime.fromisoformat(time)
        except ValueError:
            raise r.error("time", f"expected an ISO 8601 time, got {time!r}") from None
    r.choice("type", module.EVENT_TYPES, what="event type")
    stripped = {k: v for k, v in obj.items() if k not in ("note", "time")}
    return module.event_from_json(stripped, setup, path), EventMeta(note=note, time=time)


def parse_session(obj: Any, file: Optional[str] = None) -> SessionData:
    """Validate a whole session object and parse it with its game's engine.

    Raises:
        SessionFormatError: the first bad field, by JSON path (and ``file`` when given); a
            newer ``version`` than this program reads is refused with a clear message.
    """
    from engines import GAMES, game_module

    try:
        r = Reader(obj, "$")
        fmt = r.raw("format", FORMAT)
        if fmt != FORMAT:
            raise r.error("format", f"not a Deduction Desk session (format {fmt!r})")
        version = r.int("version", VERSION, min=1)
        if version > VERSION:
            raise r.error("version", f"this file was written by a newer Deduction Desk (version "
                                     f"{version}); this program reads version {VERSION}. "
                                     f"Please update Deduction Desk.")
        game = r.choice("game", list(GAMES), what="game")
        try:
            module = game_module(game)
        except ModuleNotFoundError:
            raise r.error("game", f"this build of Deduction Desk has no {game!r} engine") from None
        setup = module.Setup.from_json(r.dict("setup"), "$.setup")
        raw_events = r.list("events", [])
        events, meta = [], []
        for i, ev in enumerate(raw_events):
            e, m = parse_event(module, ev, setup, f"$.events[{i}]")
            events.append(e)
            meta.append(m)
        return SessionData(game, setup, tuple(events), tuple(meta))
    except SessionFormatError as exc:
        raise exc.with_file(file) if file else exc


def read_session_file(path: str) -> SessionData:
    """Read and validate a session file (UTF-8 JSON).

    Raises:
        SessionFormatError: unreadable file, invalid JSON (with line and column), or a bad field.
    """
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as exc:
        raise SessionFormatError("$", f"cannot read the file ({exc.strerror})", path) from None
    try:
        obj = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise SessionFormatError("$", "the file is not UTF-8 text", path) from None
    except json.JSONDecodeError as exc:
        raise SessionFormatError("$", f"not valid JSON (line {exc.lineno}, column {exc.colno}: "
                                      f"{exc.msg})", path) from None
    return parse_session(obj, path)


def dumps_session(session: SessionData) -> str:
    """The session as pretty-printed JSON text (UTF-8 safe, ends with a newline)."""
    return json.dumps(session.to_json(), indent=2, ensure_ascii=False) + "\n"
