"""Errors every engine raises (engines/CONTRACT.md).

User errors are :class:`SessionFormatError` (bad input, with the JSON path of the first bad
field) and :class:`ContradictionError` (the log cannot all be true, with the index of the first
event after which nothing is consistent). Both carry a message fit to show to a player.
"""
from __future__ import annotations

from typing import Callable, Optional


class EngineError(Exception):
    """Base class of the errors an engine raises on purpose (never a bare exception)."""


class SessionFormatError(EngineError):
    """Bad input: a session file or setup/event JSON that does not follow the schema.

    Args:
        path: JSON path of the first bad field, e.g. ``"$.events[3].player"``.
        message: what is wrong, in words (``"unknown player 'Zed'"``).
        file: the file it was read from, when there is one.
    """

    def __init__(self, path: str, message: str, file: Optional[str] = None):
        self.path = path
        self.message = message
        self.file = file
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"{self.file}: " if self.file else ""
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
        self.message = message
        super().__init__(str(self))

    def __str__(self) -> str:
        if self.event_index < 0:
            return f"the setup is impossible: {self.message}"
        return f"event {self.event_index + 1} contradicts what came before: {self.message}"


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
