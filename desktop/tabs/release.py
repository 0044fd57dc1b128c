"""Large values a tab no longer shows are freed a slice per turn of the event loop.

Opening a short log after the largest Spyfall table dropped the old log's beliefs in one
statement — the timeline's 5,000 posteriors and summaries, each a few numpy arrays — and
CPython freed them there, on the GUI thread: 163 ms with the heartbeat stopped
(tests/benchmarks/bench_open_stall.py). :class:`GradualRelease` takes the large containers of
such a value (its sequences and mappings of more than :data:`LARGE` items, one level down) into
a list of its own before the value's last reference goes, so that freeing the value costs only
the containers, and then lets go of :data:`PER_TURN` of their items per turn of the event loop.
Only references are dropped: a job still running with the old timeline keeps what it uses.
"""
from __future__ import annotations

import dataclasses
import types

from PySide6.QtCore import QObject, QTimer, Slot

#: A sequence or mapping with more items than this is released a slice at a time.
LARGE = 64
#: Items let go per turn of the event loop (a Spyfall posterior of 200 locations: ~15 µs each).
PER_TURN = 300


#: Values never looked into: scalars, text, modules and classes (a timeline's engine module).
_LEAVES = (type(None), str, bytes, int, float, complex, bool, types.ModuleType, type)


def _values(mapping: dict) -> list:
    """The values of ``mapping`` read from the dict's own storage, in one C call that runs no
    Python code: a timeline's ``OrderedDict`` iterated as such looks each key up again, and a
    key whose hash is Python code (a log's events) lets the job computing that timeline take
    the interpreter lock and add to it mid-iteration ("OrderedDict mutated during iteration",
    seen opening a file while the last one's beliefs were computing)."""
    return list(dict.values(mapping))


def _fields(value) -> list:
    """The attribute values of ``value`` (a dataclass, an object with a ``__dict__``), or its
    items when it is itself a container."""
    if isinstance(value, dict):
        return _values(value)
    if isinstance(value, (list, tuple)):
        return list(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [getattr(value, f.name, None) for f in dataclasses.fields(value)]
    return list(getattr(value, "__dict__", {}).values())


def large_parts(value, depth: int = 2) -> list:
    """The items of the large containers found in ``value`` up to ``depth`` attribute levels
    down (a snapshot → its timeline result → the posteriors)."""
    parts = []
    for field in _fields(value):
        if isinstance(field, (list, tuple, dict)) and len(field) > LARGE:
            parts.extend(_values(field) if isinstance(field, dict) else field)
        elif depth > 1 and not isinstance(field, _LEAVES) and not callable(field):
            parts.extend(large_parts(field, depth - 1))
    return parts


class GradualRelease(QObject):
    """Holds the parts of retired values and drops :data:`PER_TURN` of them per turn.

    Attributes:
        pending: the parts still held (tests).
    """

    def __init__(self, parent=None):
        super().__init__(parent)
        self.pending: list = []
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._release_some)

    def retire(self, *values) -> None:
        """Keep the large parts of ``values`` (module doc); the caller then drops its own
        references to the values, which frees their containers only."""
        for value in values:
            if value is not None:
                self.pending.extend(large_parts(value))
        if self.pending:
            self._timer.start()

    @Slot()
    def _release_some(self) -> None:
        del self.pending[-PER_TURN:]
        if self.pending:
            self._timer.start()
