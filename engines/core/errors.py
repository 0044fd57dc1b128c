"""Errors every engine raises (engines/CONTRACT.md).

User errors are :class:`SessionFormatError` (bad input, with the JSON path of the first bad
field) and :class:`ContradictionError` (the log cannot all be true, with the index of the first
event after which nothing is consistent). Both carry a message fit to show to a player, in the
language in effect when it was made (:mod:`engines.core.i18n`; English on the command line).
"""
from __future__ import annotations

import re
from typing import Callable, Optional

from engines.core.i18n import _, ngettext

#: Longest message an error keeps: a hostile file must not have a 10 MB value echoed into a
#: message box (the readers quote short excerpts; this is the safety net behind them).
MAX_MESSAGE_CHARS = 600


#: Characters a message never carries as they are: C0 and C1 controls and DEL (a terminal acts
#: on escape sequences, a newline breaks the one-line message), the bidirectional overrides and
#: isolates (they reorder the text around them, Unicode Standard Annex #9), and code points
#: that are not text (lone surrogates cannot be written as UTF-8; noncharacters, Unicode
#: Standard §23.7).
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069"
                     "\ud800-\udfff\ufdd0-\ufdef\ufffe\uffff]|[\U0001fffe-\U0010ffff]")


def _escape(m: "re.Match") -> str:
    ch = m.group(0)
    code = ord(ch)
    if code > 0xFFFF:   # only the noncharacters of the supplementary planes
        return f"\\U{code:08x}" if code & 0xFFFE == 0xFFFE else ch
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def one_line(text: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    """``text`` as one line of at most about ``limit`` characters, fit for a terminal or a
    message box: every control character (newline and escape included), bidirectional
    override and non-character shown as a Python-style escape (``\\x1b``, ``\\ud800``), and
    the rest cut with its length stated (``… (10000 characters)``)."""
    text = _UNSAFE.sub(_escape, str(text))
    if len(text) <= limit:
        return text
    return text[:limit] + "… " + ngettext("({n} characters)", "({n} characters)", len(text)).format(
        n=len(text))


def _bounded(message: str) -> str:
    return one_line(message)


class EngineError(Exception):
    """Base class of the errors an engine raises on purpose (never a bare exception). Pickles
    with its fields as they are (an error made in another process, e.g. the desktop's engine
    worker, arrives whole: its message is not bounded or translated again)."""

    def __reduce__(self):
        return _restore, (type(self), self.args, dict(self.__dict__))


def _restore(cls, args: tuple, state: dict) -> "EngineError":
    """An :class:`EngineError` of class ``cls`` with its ``args`` and fields, without calling
    its ``__init__`` (whose arguments are not ``args``)."""
    err = cls.__new__(cls, *args)
    Exception.__init__(err, *args)
    err.__dict__.update(state)
    return err


class SessionFormatError(EngineError):
    """Bad input: a session file or setup/event JSON that does not follow the schema.

    Args:
        path: JSON path of the first bad field, e.g. ``"$.events[3].player"``.
        message: what is wrong, in words (``"unknown player 'Zed'"``).
        file: the file it was read from, when there is one.
    """

    def __init__(self, path: str, message: str, file: Optional[str] = None):
        self.path = _bounded(path)
        self.message = _bounded(message)
        self.file = file
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"{one_line(self.file, 300)}: " if self.file else ""
        return f"{where}{self.path}: {self.message}"

    def with_file(self, file: str) -> "SessionFormatError":
        """A copy of this error that names ``file``."""
        return SessionFormatError(self.path, self.message, file)


class ContradictionError(EngineError):
    """The event log cannot all be true.

    Args:
        event_index: 0-based index of the first event after which no world is consistent
            (``-1`` when the setup alone is impossible).
        message: what contradicts, in words.
    """

    def __init__(self, event_index: int, message: str):
        self.event_index = event_index
        self.message = _bounded(message)
        super().__init__(str(self))

    def __str__(self) -> str:
        if self.event_index < 0:
            return _("the setup is impossible: {reason}").format(reason=self.message)
        return _("event {n} contradicts what came before: {reason}").format(
            n=self.event_index + 1, reason=self.message)


class Cancelled(EngineError):
    """A long computation noticed that its caller asked it to stop (a newer request came)."""


CancelFlag = Optional[Callable[[], bool]]
"""A zero-argument callable polled by long computations; True means stop (``Cancelled``)."""

Progress = Optional[Callable[[int, int], None]]
"""``progress(done, total)``: a long computation reports how far it is (units of its own)."""


def check_cancel(cancel: CancelFlag) -> None:
    """Raise :class:`Cancelled` when ``cancel`` (a zero-argument callable, or None) returns True.

    Engines call this inside long loops so the desktop's inference runner can drop stale work.
    """
    if cancel is not None and cancel():
        raise Cancelled()
