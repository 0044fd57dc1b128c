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
import os
import re
import sys
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Iterable, Optional, Sequence

from engines.core.errors import SessionFormatError
from engines.core.i18n import N_, _, ngettext

FORMAT = "deduction-desk.session"
VERSION = 1

#: Input limits (every size a file can set drives memory or time; checked before use).
#: A session file is a few kilobytes (a long Cluedo evening is ~50 kB); 16 MB leaves room
#: for boards stored inline with their pictures' names while bounding what a hostile file costs.
MAX_FILE_BYTES = 16 << 20
#: A name (player, card, location, character, attribute) is shown in buttons, worksheet
#: headers and table cells: 80 characters is two lines of a tooltip.
MAX_NAME_CHARS = 80
#: Any other text field (question ids, edition names, file names of boards and pictures).
MAX_TEXT_CHARS = 1000
#: A note beside an event: a paragraph. The whole session is rewritten to the recovery file
#: after every click, so notes must stay small (an 8 MB note made every click cost 1.2 s).
MAX_NOTE_CHARS = 4000
#: Events in one log: a real game has tens to a few hundred; inference is linear in them.
MAX_EVENTS = 5000
#: Characters of a bad value quoted in an error message.
EXCERPT_CHARS = 40

_MISSING = object()

#: The session file being parsed (None when parsing an object that came from elsewhere). Engines
#: that read other files named by a session (a Guess Who? board, its pictures) resolve them
#: against it and accept only files next to it or in the resources (:func:`allowed_file`).
SESSION_FILE: ContextVar[Optional[str]] = ContextVar("SESSION_FILE", default=None)
#: The folder whose files the session being parsed may name (besides the app's resources):
#: the session file's folder; ``""`` for a session without a trustworthy file (one read from
#: a recovery file: only the resources); None when not parsing a session (no confinement).
SESSION_FOLDER: ContextVar[Optional[str]] = ContextVar("SESSION_FOLDER", default=None)
#: The session file being written (absolute path) while :func:`dumps_session` writes one, so
#: that engines write the files a setup names relative to it (:func:`file_ref`); ``""`` when
#: what is written has no folder of its own (a recovery file's untitled game); None when no
#: session file is being written.
WRITING_TO: ContextVar[Optional[str]] = ContextVar("WRITING_TO", default=None)
_SAME_FOLDER = object()


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
        _note_read(self, key)
        return key in self.obj and self.obj[key] is not None

    def raw(self, key: str, default: Any = _MISSING) -> Any:
        """The value of ``key`` as it is, except that text (the text items of a list, the keys
        of an object) is in Unicode normalization form NFC (:func:`nfc_value`), so a name
        spelt in NFD reads as the same name.

        Raises:
            SessionFormatError: ``key`` is missing and has no default; two keys of the object
                are the same text in NFC.
        """
        _note_read(self, key)
        if key not in self.obj:
            if default is _MISSING:
                raise SessionFormatError(self.sub(key), _("required field is missing"))
            return default
        v = self.obj[key]
        if isinstance(v, dict):
            return self._nfc_keys(key, v)
        return nfc_value(v)

    def _nfc_keys(self, key: str, obj: dict) -> dict:
        """``obj`` with its keys in NFC (``obj`` itself when they are: always for a parsed
        session, whose text :func:`parse_session` normalised; a setup built by a dialog may
        hold a name typed in NFD as a key of ``hand_sizes``)."""
        import unicodedata

        if all(not isinstance(k, str) or unicodedata.is_normalized("NFC", k) for k in obj):
            return obj
        out: dict = {}
        for k, x in obj.items():
            nk = nfc_value(k)
            if nk in out:
                raise SessionFormatError(f"{self.sub(key)}.{nk}", _(
                    "duplicate key \"{key}\" at {path} (spelt in two Unicode forms that are the same "
                    "text in NFC)").format(key=nk, path=self.sub(key)))
            out[nk] = x
        return out

    def error(self, key: str, message: str) -> SessionFormatError:
        """An error about field ``key`` (to raise)."""
        return SessionFormatError(self.sub(key), message)

    def child(self, key: str, default: Any = _MISSING) -> "Reader":
        v = self.raw(key, default)
        return Reader(v if v is not None else {}, self.sub(key))

    def str(self, key: str, default: Any = _MISSING, *, allow_empty: bool = False,
            max_len: int = MAX_TEXT_CHARS) -> str:
        v = self.raw(key, default)
        if v is default and default is not _MISSING:
            return v
        if not isinstance(v, str):
            raise self.error(key, _("expected text, got {value}").format(value=_kind(v)))
        if not allow_empty and not v.strip():
            raise self.error(key, _("must not be empty"))
        if len(v) > max_len:
            raise self.error(key, _("is {n} characters long; at most {limit} are allowed").format(
                n=len(v), limit=max_len))
        return v

    def opt_str(self, key: str) -> Optional[str]:
        return None if self.raw(key, None) is None else self.str(key)

    def bool(self, key: str, default: Any = _MISSING) -> bool:
        v = self.raw(key, default)
        if not isinstance(v, bool):
            raise self.error(key, _("expected true or false, got {value}").format(value=_kind(v)))
        return v

    def int(self, key: str, default: Any = _MISSING, *, min: Optional[int] = None,
            max: Optional[int] = None) -> int:
        v = self.raw(key, default)
        if isinstance(v, bool) or not isinstance(v, int):
            if isinstance(v, float) and v.is_integer():
                v = int(v)
            else:
                raise self.error(key, _("expected a whole number, got {value}").format(value=_kind(v)))
        _check_range(self.sub(key), v, min, max)
        return v

    def float(self, key: str, default: Any = _MISSING, *, min: Optional[float] = None,
              max: Optional[float] = None, min_exclusive: bool = False,
              max_exclusive: bool = False) -> float:
        v = self.raw(key, default)
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            raise self.error(key, _("expected a number, got {value}").format(value=_kind(v)))
        v = float(v)
        if min is not None and (v < min or (min_exclusive and v == min)):
            raise self.error(key, _("must be {relation} {bound}, got {value}").format(
                relation=">" if min_exclusive else ">=", bound=f"{min:g}", value=repr(v)))
        if max is not None and (v > max or (max_exclusive and v == max)):
            raise self.error(key, _("must be {relation} {bound}, got {value}").format(
                relation="<" if max_exclusive else "<=", bound=f"{max:g}", value=repr(v)))
        return v

    def list(self, key: str, default: Any = _MISSING, *, min_len: int = 0,
             max_len: Optional[int] = None) -> list:
        v = self.raw(key, default)
        if not isinstance(v, list):
            raise self.error(key, _("expected a list, got {value}").format(value=_kind(v)))
        if len(v) < min_len:
            raise self.error(key, _("needs at least {limit} entries, got {n}").format(limit=min_len, n=len(v)))
        if max_len is not None and len(v) > max_len:
            raise self.error(key, _("allows at most {limit} entries, got {n}").format(limit=max_len, n=len(v)))
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
                raise SessionFormatError(p, _("expected a name, got {value}").format(value=_kind(item)))
            if allowed is not None and item not in allowed:
                raise SessionFormatError(p, _("unknown {what} {name}; expected one of {names}").format(
                    what=_kind_word(key.rstrip("s")), name=excerpt(item), names=_short(allowed)))
            check_name(item, p)
            if unique and item in seen:
                raise SessionFormatError(p, _("{name} appears twice").format(name=excerpt(item)))
            seen.add(item)
        if unique:   # names quick entry or the eye could not tell apart
            check_distinct_names(v, [f"{self.sub(key)}[{i}]" for i in range(len(v))])
        return list(v)

    def choice(self, key: str, choices: Iterable[str], default: Any = _MISSING,
               *, what: Optional[str] = None) -> Any:
        """A text field that must be one of ``choices`` (``None`` allowed only as default)."""
        v = self.raw(key, default)
        if v is default and default is not _MISSING:
            return v
        allowed = list(choices)
        try:
            known = v in allowed
        except TypeError:   # an unhashable value tested against a set/dict view
            known = False
        if not known:
            raise self.error(key, _("unknown {what} {name}; expected one of {names}").format(
                what=_kind_word(what or key), name=excerpt(v), names=_short(allowed)))
        return v

    def dict(self, key: str, default: Any = _MISSING) -> dict:
        v = self.raw(key, default)
        if not isinstance(v, dict):
            raise self.error(key, _("expected an object, got {value}").format(value=_kind(v)))
        return v


#: Unicode general categories never allowed in a name: controls (Cc: a newline or tab breaks
#: buttons, table headers and one-line labels; C1 controls act on terminals), format
#: characters (Cf: zero-width spaces and joiners, which emoji sequences use, soft hyphens,
#: direction marks — the name would look like another one), and the line and paragraph
#: separators U+2028 and U+2029 (Zl, Zp: they break a label in two). The categories are the
#: Unicode Standard's (chapter 4.5, "General Category").
_NAME_CATEGORIES = {"Cc": N_("a control character"), "Cf": N_("an invisible (format) character"),
                    "Zl": N_("a line separator"), "Zp": N_("a paragraph separator")}


def check_name(name: str, path: str) -> str:
    """Refuse a name that is too long (:data:`MAX_NAME_CHARS`), holds a control character, a
    format character (invisible: zero-width spaces and joiners, soft hyphens, direction marks)
    or a line or paragraph separator (Unicode general categories Cc, Cf, Zl, Zp), or has no
    letter or digit. ``<``, ``>`` and ``&`` are allowed: the desktop escapes every name it
    puts into rich text (labels, tooltips, banners, message boxes), so ``<img src=x>`` shows
    as those characters.

    Args:
        name: the name, in NFC (the reader normalises text on reading, :func:`nfc_value`).
        path: the JSON path of the name, for the message.
    Returns:
        ``name``.
    Raises:
        SessionFormatError: at ``path``, naming the character by code point and name.
    """
    import unicodedata

    if len(name) > MAX_NAME_CHARS:
        raise SessionFormatError(path, _("a name is {n} characters long; at most {limit} are allowed "
                                         "(names are shown in buttons and table headers)").format(
            n=len(name), limit=MAX_NAME_CHARS))
    for ch in name:
        kind = _NAME_CATEGORIES.get(unicodedata.category(ch))
        if kind is not None:
            label = unicodedata.name(ch, "")
            raise SessionFormatError(path, _("the name {name} contains {character}, {kind}; names may not "
                                             "contain control or invisible characters or line breaks").format(
                name=excerpt(name), character=f"U+{ord(ch):04X}" + (f" {label}" if label else ""),
                kind=_(kind)))
    from engines.core.names import words

    if not words(name):
        raise SessionFormatError(path, _("the name {name} has no letter or digit; quick entry finds names "
                                         "by their words, so a name needs one").format(name=excerpt(name)))
    return name


def check_distinct_names(names: Sequence[str], paths: Sequence[str]) -> None:
    """Refuse two names of one game that a player could not tell apart.

    Two names clash when they are equal after Unicode normalization (NFC) and case folding,
    or differ only in punctuation (quick entry reads both the same way,
    :func:`engines.core.names.words`), or when they share a confusable skeleton (Unicode
    Technical Standard #39, "Unicode Security Mechanisms", section 4: the Cyrillic "Аnn"
    beside the Latin "Ann", "Al" beside "AI"; :mod:`engines.core.confusables`).

    Args:
        names: the names of one list, or of several lists that quick entry reads together
            (a Cluedo deck's cards), in order.
        paths: the JSON path of each name (same length).
    Raises:
        SessionFormatError: at the path of the second name of the first clash, naming both.
    """
    from engines.core.confusables import name_keys
    from engines.core.names import words

    spelled: dict = {}
    looks: dict = {}
    for name, path in zip(names, paths):
        spelling = tuple(words(name))
        if spelling in spelled:
            other = spelled[spelling]
            if other == name:
                raise SessionFormatError(path, _("{name} appears twice").format(name=excerpt(name)))
            raise SessionFormatError(path, _("{name} and {other} differ only in case, punctuation or Unicode "
                                             "form; quick entry could not tell them apart").format(
                name=excerpt(name), other=excerpt(other)))
        spelled[spelling] = name
        for key in name_keys(name):
            if key in looks and looks[key] != name:
                raise SessionFormatError(path, _("{name} looks like {other} (confusable characters, Unicode "
                                                 "TR #39); names a player cannot tell apart are not "
                                                 "allowed").format(name=excerpt(name),
                                                                   other=excerpt(looks[key])))
        for key in name_keys(name):
            looks.setdefault(key, name)


def nfc_value(v: Any) -> Any:
    """``v`` with its text in Unicode normalization form NFC (Unicode Standard Annex #15,
    "Unicode Normalization Forms"): a string, or a list whose string items (at any depth of
    nested lists) are normalised; other values as they are. "José" typed as ``e`` + U+0301
    (NFD) and as U+00E9 (NFC) are then one name."""
    import unicodedata

    if isinstance(v, str):
        return v if unicodedata.is_normalized("NFC", v) else unicodedata.normalize("NFC", v)
    if isinstance(v, list) and any(isinstance(x, (str, list)) for x in v):
        out = [nfc_value(x) for x in v]
        return v if all(a is b for a, b in zip(out, v)) else out
    return v


def unknown_key_error(path: str, key: str, known: Iterable[str], what: str) -> SessionFormatError:
    """The error for a key no reader takes: ``key`` at ``path`` (the object's path), the
    nearest of ``known`` when one is close (``difflib.get_close_matches``, ratio 0.6), and the
    keys ``what`` has.

    Returns:
        the :class:`SessionFormatError` to raise, at ``path.key``.
    """
    import difflib

    known = sorted(known)
    shown = key if len(key) <= 40 else key[:40] + "…"
    close = difflib.get_close_matches(key, known, n=1) if len(key) <= 100 else []
    where = _kind_word(what)
    if close:
        words = _("unknown key {key} in {what}; did you mean {close}? ({what} has {keys})").format(
            key=excerpt(key), what=where, close=repr(close[0]), keys=", ".join(known))
    else:
        words = _("unknown key {key} in {what} ({what} has {keys})").format(
            key=excerpt(key), what=where, keys=", ".join(known))
    return SessionFormatError(f"{path}.{shown}", words)


#: While a setup or an event is parsed: every object a Reader read, by id, with the Reader's
#: JSON path and the keys it looked at (so that :func:`parse_session` can refuse the keys no
#: reader takes — a typo such as ``"playrs"`` would otherwise be silently ignored).
_READ_KEYS: ContextVar[Optional[dict]] = ContextVar("_READ_KEYS", default=None)


def _note_read(reader: "Reader", key: str) -> None:
    seen = _READ_KEYS.get()
    if seen is not None:
        entry = seen.get(id(reader.obj))
        if entry is None:
            entry = seen[id(reader.obj)] = (reader.obj, reader.path, set())
        entry[2].add(key)


def _refuse_unread(seen: dict, root: str, skip: Any = None) -> None:
    """Refuse the first key that no Reader looked at in any object under the JSON path
    ``root`` read while ``seen`` was collected (except the object ``skip``, checked by its
    caller; objects of other files — a bundled deck, a board file — have their own rules)."""
    for obj, path, keys in seen.values():
        if obj is skip or not (path == root or path.startswith((root + ".", root + "["))):
            continue
        unknown = next((k for k in obj if k not in keys), None)
        if unknown is not None:
            raise unknown_key_error(path, unknown, keys, "this object")


def _check_range(path, v, lo, hi):
    if lo is not None and v < lo:
        raise SessionFormatError(path, _("must be at least {bound}, got {value}").format(bound=lo, value=excerpt(v)))
    if hi is not None and v > hi:
        raise SessionFormatError(path, _("must be at most {bound}, got {value}").format(bound=hi, value=excerpt(v)))


def excerpt(v: Any, n: int = EXCERPT_CHARS) -> str:
    """``repr(v)`` cut to about ``n`` characters (``'abc…' (10000 characters)``), so an error
    message never echoes a huge bad value (a 10 MB name froze a message box for 100 s)."""
    if isinstance(v, str):
        if len(v) <= n:
            return repr(v)
        return repr(v[:n]) + "… " + ngettext("({n} characters)", "({n} characters)", len(v)).format(n=len(v))
    if isinstance(v, int) and not isinstance(v, bool) and v.bit_length() > 3 * n:
        return _("a {bits}-bit number").format(bits=v.bit_length())
    if isinstance(v, (list, dict)):
        return _("a list") if isinstance(v, list) else _("an object")
    text = repr(v)
    return text if len(text) <= n else text[:n] + "…"


def _kind(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true/false"
    if isinstance(v, (int, float)):
        return _("the number {value}").format(value=excerpt(v))
    if isinstance(v, str):
        return _("the text {value}").format(value=excerpt(v))
    if isinstance(v, list):
        return _("a list")
    if isinstance(v, dict):
        return _("an object")
    return type(v).__name__


def _kind_word(what: str) -> str:
    """The kind of thing a message names (``"player"``, ``"this object"``, ``"a session file"``)
    in the language in effect (:func:`engines.core.names.kind_word`; the object kinds below)."""
    return _(what) if what else what


#: The objects a message about an unknown key names (translated by :func:`_kind_word`).
OBJECT_WORDS = (N_("this object"), N_("a session file"), N_("game"), N_("format"))


def _short(items: Sequence[str], n: int = 8) -> str:
    items = list(items)
    shown = ", ".join(excerpt(x) for x in items[:n])
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
            d = event_file_json(self.game, self.setup, ev)
            d.update(meta.to_json())
            events.append(d)
        return {"format": FORMAT, "version": VERSION, "game": self.game,
                "setup": self.setup.to_json(), "events": events}


def event_file_json(game: str, setup: Any, event: Any) -> dict:
    """``event.to_json()`` as a session file holds it: through the game module's optional
    ``event_to_file(obj, setup)`` (Cluedo's local editions store canonical card ids;
    :func:`parse_event` applies the module's ``event_from_file`` when reading). A fresh dict."""
    from engines import game_module

    d = dict(event.to_json())
    try:
        to_file = getattr(game_module(game), "event_to_file", None)
    except ModuleNotFoundError:
        return d
    return dict(to_file(d, setup)) if to_file is not None else d


def declared_keys(*samples: Any) -> tuple[str, ...]:
    """The keys an event kind may hold, derived from what its codec writes: the union of the
    keys of ``sample.to_json()`` over ``samples`` (events of one kind, between them writing
    every optional key), sorted. Each game's ``EVENT_KEYS`` is built with it, so the keys the
    reader takes cannot drift from the keys the writer writes."""
    keys: set[str] = set()
    for sample in samples:
        keys.update(sample.to_json())
    return tuple(sorted(keys))


#: Keys every event may hold beside its engine's (:class:`EventMeta`).
META_KEYS = ("note", "time")
#: The keys of the session object itself.
SESSION_KEYS = ("format", "version", "game", "setup", "events")


def parse_event(module, obj: Any, setup: Any, path: str):
    """Validate one event object with the game's engine; returns ``(event, EventMeta)``.

    Every key must be one the event's kind declares (the game module's ``EVENT_KEYS``, or
    for a game without it, one its reader looked at) or ``note``/``time``.

    Raises:
        SessionFormatError: a bad field, or an unknown key (naming the nearest known one).
    """
    r = Reader(obj, path)
    note = r.str("note", max_len=MAX_NOTE_CHARS) if r.has("note") else None
    time = r.str("time", max_len=64) if r.has("time") else None
    if time is not None:
        try:
            datetime.fromisoformat(time)
        except ValueError:
            raise r.error("time", _("expected an ISO 8601 time, got {value}").format(value=excerpt(time))) \
                from None
    kind = r.choice("type", module.EVENT_TYPES, what="event type")
    declared = getattr(module, "EVENT_KEYS", None)
    if declared is not None:
        known = set(declared.get(kind, ())) | set(META_KEYS) | {"type"}
        unknown = next((k for k in obj if k not in known), None)
        if unknown is not None:
            raise unknown_key_error(path, unknown, known, _("a {kind} event").format(kind=kind))
    stripped = {k: v for k, v in obj.items() if k not in META_KEYS}
    from_file = getattr(module, "event_from_file", None)
    if from_file is not None:   # the file form's names -> the setup's (Cluedo's local editions)
        stripped = from_file(stripped, setup, path)
    read_token = _READ_KEYS.set({})
    try:
        event = module.event_from_json(stripped, setup, path)
        read = _READ_KEYS.get()
    finally:
        _READ_KEYS.reset(read_token)
    top = read.get(id(stripped))
    if declared is None and top is not None:   # a plug-in game: the keys its reader read
        unknown = next((k for k in stripped if k not in top[2]), None)
        if unknown is not None:
            raise unknown_key_error(path, unknown, top[2] | set(META_KEYS), _("a {kind} event").format(kind=kind))
    _refuse_unread(read, path, skip=stripped)   # objects inside the event (a Guess Who? question)
    return event, EventMeta(note=note, time=time)


NOT_A_SESSION = N_('this is not a Deduction Desk session file (it has no "format": "{format}")')


def parse_session(obj: Any, file: Optional[str] = None, *,
                  folder: Any = _SAME_FOLDER) -> SessionData:
    """Validate a whole session object and parse it with its game's engine.

    Args:
        obj: the parsed JSON; file: the file it came from (named in errors).
        folder: the folder whose files the session may name (:func:`allowed_file`); by
            default ``file``'s folder, or no confinement without a file; ``""``: only the
            app's resources (a session from a recovery file without a trustworthy file).
    Raises:
        SessionFormatError: the first bad field, by JSON path (and ``file`` when given); a
            newer ``version`` than this program reads is refused with a clear message.
    """
    from engines import game_module
    from engines.registry import known_games, registered_games

    token = SESSION_FILE.set(os.path.abspath(file) if file else None)
    if folder is _SAME_FOLDER:
        folder = os.path.dirname(os.path.abspath(file)) if file else None
    folder_token = SESSION_FOLDER.set(folder)
    try:
        if not isinstance(obj, dict):
            raise SessionFormatError("$", _('this is not a Deduction Desk session file (it has no "format": '
                                            '"{format}"); it holds {value}').format(format=FORMAT, value=_kind(obj)))
        check_text(obj)
        obj = nfc_tree(obj)
        if obj.get("format") != FORMAT:
            raise SessionFormatError("$.format", _(NOT_A_SESSION).format(format=FORMAT))
        r = Reader(obj, "$")
        version = r.int("version", VERSION, min=1)
        if version > VERSION:
            raise r.error("version", _("this file was written by a newer Deduction Desk (version {version}); "
                                       "this program reads version {known}. Please update Deduction "
                                       "Desk.").format(version=version, known=VERSION))
        extra = next((k for k in obj if k not in SESSION_KEYS), None)
        if extra is not None:
            raise unknown_key_error("$", extra, SESSION_KEYS, "a session file")
        games = known_games()   # the built-in games need no package metadata
        if not isinstance(obj.get("game"), str) or obj.get("game") not in games:   # {} is unhashable
            games = registered_games()
        game = r.choice("game", list(games), what="game")
        try:
            module = game_module(game)
        except ModuleNotFoundError:
            raise r.error("game", _("this build of Deduction Desk has no {game} engine").format(
                game=repr(game))) from None
        setup_obj = r.dict("setup")
        read_token = _READ_KEYS.set({})
        try:
            setup = module.Setup.from_json(setup_obj, "$.setup")
            read = _READ_KEYS.get()
        finally:
            _READ_KEYS.reset(read_token)
        top = read.get(id(setup_obj))
        seen = top[2] if top is not None else None
        # keys are known only when the engine read its setup with a Reader; an engine that
        # parses the object by hand (a plug-in game) checks its own fields
        unknown = [k for k in setup_obj if k not in seen] if seen is not None else []
        if unknown:
            import difflib

            key = unknown[0] if len(unknown[0]) <= 40 else unknown[0][:40] + "…"
            close = difflib.get_close_matches(unknown[0], sorted(seen), n=1) \
                if len(unknown[0]) <= 100 else []
            if close:
                words = _("unknown setup field; did you mean {close}? this {game} setup has {keys}")
            else:
                words = _("unknown setup field; this {game} setup has {keys}")
            raise SessionFormatError(f"$.setup.{key}", words.format(
                close=repr(close[0]) if close else "", game=game, keys=", ".join(sorted(seen))))
        _refuse_unread(read, "$.setup", skip=setup_obj)   # objects inside the setup ("me", "model", …)
        raw_events = r.list("events", [], max_len=MAX_EVENTS)
        events, meta = [], []
        for i, ev in enumerate(raw_events):
            e, m = parse_event(module, ev, setup, f"$.events[{i}]")
            events.append(e)
            meta.append(m)
        return SessionData(game, setup, tuple(events), tuple(meta))
    except SessionFormatError as exc:
        raise (exc.with_file(file) if file else exc) from None
    except RecursionError:  # a value nested thousands of levels deep
        raise SessionFormatError("$", _("the file is nested too deeply to be a session"), file) \
            from None
    finally:
        SESSION_FILE.reset(token)
        SESSION_FOLDER.reset(folder_token)


def allowed_file(name: str, json_path: str) -> str:
    """Resolve a file named inside the session being parsed: relative to the session file's
    folder, and only inside it or inside the app's resources (a session from someone else must
    not make the app read ``/etc/passwd`` or ``/dev/zero``). Outside a session file (a setup
    built in the app from a file the player chose) the path is taken as given.

    Returns:
        the absolute path.
    Raises:
        SessionFormatError: at ``json_path`` when the file lies outside those folders.
    """
    from engines.core.resources import resources_root

    if "\x00" in name:   # no file system takes it (os.path raises ValueError)
        raise SessionFormatError(json_path, _("the file name {name} contains a NUL character").format(
            name=excerpt(name, 80)))
    base = SESSION_FOLDER.get()
    if base is None:
        return os.path.abspath(name)
    resources = os.path.realpath(str(resources_root()))
    full = os.path.realpath(os.path.join(base or resources, name))
    for root in ([os.path.realpath(base)] if base else []) + [resources]:
        if full == root or full.startswith(root.rstrip(os.sep) + os.sep):
            return full
    raise SessionFormatError(json_path, _("the file {name} is outside the session file's folder; a "
                                          "session may only name files next to it or in the app's "
                                          "resources").format(name=excerpt(name, 80)))


def read_session_file(path: str) -> SessionData:
    """Read and validate a session file (UTF-8 JSON).

    Raises:
        SessionFormatError: unreadable file, invalid JSON (with line and column), or a bad field.
    """
    data = read_bounded(path, MAX_FILE_BYTES, "$", "a session file")
    return parse_session(loads_json(data, path), path)


def read_bounded(path, limit: int, json_path: str = "$", what: str = "the file",
                 file: Optional[str] = None) -> bytes:
    """The bytes of the regular file ``path``, refusing anything over ``limit`` bytes.

    Devices, FIFOs and directories are refused before they are opened for reading (a board
    read from ``/dev/zero`` grew to 7.5 GB); the read itself is bounded too, so a file that
    grows while it is read cannot exceed the limit.

    Raises:
        SessionFormatError: at ``json_path`` (naming ``file`` or ``path``) when the file is
            missing, not a regular file, unreadable or too large.
    """
    import stat

    where = file if file is not None else str(path)
    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode):
            raise SessionFormatError(json_path, _("{file} is not a regular file").format(
                file=excerpt(str(path), 120)), where)
        if st.st_size > limit:
            raise SessionFormatError(json_path, _("{what} is {size} bytes; at most {limit} are read").format(
                what=_kind_word(what), size=st.st_size, limit=limit), where)
        with open(path, "rb") as fh:
            data = fh.read(limit + 1)
    except OSError as exc:
        raise SessionFormatError(json_path, _("cannot read the file ({reason})").format(reason=exc.strerror),
                                 where) \
            from None
    if len(data) > limit:
        raise SessionFormatError(json_path, _("{what} is larger than {limit} bytes").format(
            what=_kind_word(what), limit=limit), where)
    return data


#: Code points that are not text: lone surrogates (U+D800–U+DFFF; JSON's ``"\\ud800"`` escape
#: makes one, but no UTF-8 file can hold it, so every later write of it would fail) and the 66
#: noncharacters (U+FDD0–U+FDEF and the last two code points of every plane), which the
#: Unicode Standard (§23.7, "Noncharacters") reserves for a program's internal use, never
#: for interchange.
_MAYBE_NOT_TEXT = re.compile("[\ud800-\udfff\ufdd0-\ufdef\ufffe\uffff]|[\U0001fffe-\U0010ffff]")


def not_text(s: str) -> Optional[tuple[int, int]]:
    """``(index, code point)`` of the first code point in ``s`` that is not text (lone
    surrogates, U+D800–U+DFFF: JSON's ``"\\ud800"`` escape makes one, but no UTF-8 file can
    hold it, so every later write of it would fail; and the 66 noncharacters, U+FDD0–U+FDEF and
    the last two code points of every plane, which the Unicode Standard (§23.7,
    "Noncharacters") reserves for a program's internal use), or None."""
    for m in _MAYBE_NOT_TEXT.finditer(s):
        cp = ord(m.group(0))
        if cp < 0x10000 or cp & 0xFFFE == 0xFFFE:
            return m.start(), cp
    return None


def check_text(obj: Any, path: str = "$", file: Optional[str] = None) -> Any:
    """Refuse a JSON tree that holds a string (a value or an object's key) with a code point
    that is not text (:func:`not_text`); returns ``obj``. The walk is iterative, so a deeply
    nested tree costs no recursion.

    Raises:
        SessionFormatError: at the JSON path of the first such string (``$.events[3].note``).
    """
    try:   # fast path (C): a tree without such code points is not walked
        if not_text(json.dumps(obj, ensure_ascii=False)) is None:
            return obj
    except (TypeError, ValueError):
        pass
    stack: list = [(obj, None)]
    while stack:
        v, where = stack.pop()
        if isinstance(v, str):
            bad = not_text(v)
            if bad is not None:
                raise SessionFormatError(
                    _json_path(path, where), _("the text {text} holds {code} at character {n}, which is "
                                               "not a character (a lone surrogate or a Unicode "
                                               "noncharacter); it cannot be saved as UTF-8").format(
                        text=excerpt(v), code=f"U+{bad[1]:04X}", n=bad[0] + 1), file)
        elif isinstance(v, dict):
            for k, x in v.items():
                step = (where, k)
                if isinstance(k, str) and not_text(k):
                    stack.append((k, step))
                    break
                if isinstance(x, (str, dict, list)):
                    stack.append((x, step))
        elif isinstance(v, list):
            for i, x in enumerate(v):
                if isinstance(x, (str, dict, list)):
                    stack.append((x, (where, i)))
    return obj


def _json_path(root: str, where) -> str:
    """``root`` followed by the keys and indices of the linked steps ``(parent, key)``."""
    steps = []
    while where is not None:
        where, key = where
        steps.append(f"[{key}]" if isinstance(key, int) else f".{key}")
    return root + "".join(reversed(steps))


class _DuplicateKeys(dict):
    """An object of the JSON text that named a key twice: ``duplicate`` is that key (after
    NFC), ``spellings`` how it was spelt each time."""

    duplicate: str = ""
    spellings: tuple = ()


class _ObjectHook:
    """``object_pairs_hook`` of :func:`loads_json`: builds each object with its keys and text
    in NFC (:func:`nfc_value`; keys too, so two spellings of one name are one key), and marks an
    object that names a key twice (:class:`_DuplicateKeys`) instead of keeping the last copy
    as ``json.loads`` does (RFC 8259 §4: "The names within an object SHOULD be unique"; a
    reader that keeps one copy silently reads another file than the one that was written)."""

    def __init__(self, normalise: bool = True) -> None:
        self.duplicates = 0
        self.normalise = normalise   # False: the whole text is NFC already

    def __call__(self, pairs: list) -> dict:
        if not self.normalise:
            out = dict(pairs)
            if len(out) == len(pairs):
                return out
        out = {}
        raw: dict = {}
        dup = None
        for k, v in pairs:
            key = nfc_value(k)
            if key in out and dup is None:
                dup = (key, (raw[key], k))
            raw.setdefault(key, k)
            out[key] = nfc_value(v)
        if dup is None:
            return out
        self.duplicates += 1
        marked = _DuplicateKeys(out)
        marked.duplicate, marked.spellings = dup
        return marked


def _raise_duplicate(obj: Any, file: Optional[str]) -> None:
    """Raise the error for the first object (in the order of the text) of ``obj`` that named
    a key twice, with the JSON path of the object and of the key."""
    stack: list = [(obj, "$")]
    while stack:
        v, path = stack.pop()
        if isinstance(v, _DuplicateKeys):
            key = v.duplicate
            shown = key if len(key) <= 40 else key[:40] + "…"
            a, b = v.spellings
            if a == b:
                words = _('duplicate key "{key}" at {path}; a key may appear only once in an object '
                          "(JSON readers differ on which copy they keep)")
            else:
                words = _('duplicate key "{key}" at {path} (spelt in two Unicode forms that are the same '
                          "text in NFC); a key may appear only once in an object (JSON readers differ on "
                          "which copy they keep)")
            raise SessionFormatError(f"{path}.{shown}", words.format(key=shown, path=path), file)
        if isinstance(v, dict):
            stack.extend(reversed([(x, f"{path}.{k}") for k, x in v.items()
                                   if isinstance(x, (dict, list))]))
        elif isinstance(v, list):
            stack.extend(reversed([(x, f"{path}[{i}]") for i, x in enumerate(v)
                                   if isinstance(x, (dict, list))]))


def nfc_tree(obj: Any) -> Any:
    """``obj`` (a parsed JSON tree) with every text and key in NFC (:func:`nfc_value`): ``obj``
    itself when it already is (the usual case, checked in C).

    Raises:
        SessionFormatError: two keys of one object are the same text in NFC (at their path).
    """
    import unicodedata

    try:
        text = json.dumps(obj, ensure_ascii=False)
    except (TypeError, ValueError):
        return obj          # not a JSON tree (the caller refuses it with its own message)
    if unicodedata.is_normalized("NFC", text):
        return obj
    hook = _ObjectHook()
    out = json.loads(text, object_pairs_hook=hook)
    if hook.duplicates:
        _raise_duplicate(out, None)
    return out


def loads_json(data: bytes, file: Optional[str] = None) -> Any:
    """Decode UTF-8 JSON, turning every way it can fail into a :class:`SessionFormatError`.

    Text and keys are read in Unicode normalization form NFC (:func:`nfc_value`), and an
    object that names a key twice is refused (``$.events: duplicate key "events" at $``)
    rather than read with its last copy.

    Python's reader raises RecursionError on input nested thousands of levels deep and
    ValueError on integers of more than 4300 digits (``sys.set_int_max_str_digits``); both
    are bad input, not program errors.
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SessionFormatError("$", _("the file is not UTF-8 text (byte {n})").format(n=exc.start), file) \
            from None
    if text.startswith("\ufeff"):
        text = text[1:]
    import unicodedata

    try:
        # a \u escape may spell a decomposed character in text that is NFC itself
        hook = _ObjectHook(normalise="\\u" in text or not unicodedata.is_normalized("NFC", text))
        obj = json.loads(text, object_pairs_hook=hook)
        if hook.duplicates:
            _raise_duplicate(obj, file)
        # a lone surrogate can only come from a \u escape; noncharacters also literally
        return check_text(obj, "$", file) if "\\u" in text or not_text(text) else obj
    except json.JSONDecodeError as exc:
        raise SessionFormatError("$", _("not valid JSON (line {line}, column {column}: {reason})").format(
            line=exc.lineno, column=exc.colno, reason=exc.msg), file) from None
    except RecursionError:
        raise SessionFormatError("$", _("the JSON is nested too deeply to be a session"), file) \
            from None
    except ValueError:   # int longer than sys.get_int_max_str_digits()
        raise SessionFormatError("$", _("a number in the file has more than {n} digits").format(
            n=sys.get_int_max_str_digits()), file) from None
    except MemoryError:
        raise SessionFormatError("$", _("the file is too large to read"), file) from None


def dumps_session(session: SessionData, target: Optional[str] = None) -> str:
    """The session as pretty-printed JSON text (ends with a newline).

    Args:
        target: the file it is written to: files the setup names are then written relative to
            its folder, or inline where the engine can (:func:`file_ref`), so that the file
            reopens from wherever it is; ``""``: no folder (every named file inline where
            possible); None: names as they are.
    """
    token = WRITING_TO.set(os.path.abspath(target) if target else target)
    try:
        return json.dumps(session.to_json(), indent=2, ensure_ascii=False) + "\n"
    finally:
        WRITING_TO.reset(token)


def session_json(session: SessionData, target: Optional[str] = None) -> dict:
    """``session.to_json()`` as written to ``target`` (see :func:`dumps_session`)."""
    token = WRITING_TO.set(os.path.abspath(target) if target else target)
    try:
        return session.to_json()
    finally:
        WRITING_TO.reset(token)


def file_ref(full: str) -> Optional[str]:
    """How the session being written (:data:`WRITING_TO`) names the file ``full`` (absolute):
    relative to the session file's folder (with ``/``) when the file lies inside it; ``full``
    itself inside the app's resources, or when no session file is being written; None when
    the file lies elsewhere — a session may only name files next to it
    (:func:`allowed_file`), so the caller writes the content inline instead."""
    from engines.core.resources import resources_root

    target = WRITING_TO.get()
    if target is None:
        return full
    real = os.path.realpath(full)
    resources = os.path.realpath(str(resources_root()))
    if real.startswith(resources + os.sep):
        return full
    if not target:
        return None
    base = os.path.realpath(os.path.dirname(target))
    if real.startswith(base.rstrip(os.sep) + os.sep):
        return os.path.relpath(real, base).replace(os.sep, "/")
    return None
