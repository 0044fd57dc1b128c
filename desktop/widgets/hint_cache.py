"""Size hints computed in Python once per change of what they depend on.

A widget that overrides ``sizeHint``/``minimumSizeHint`` in Python is asked for them by every
layout pass of every ancestor and by our own arrangement code (:class:`desktop.widgets.side_panes.
SidePanes` asks each pane's minimum width to decide whether to fold): in a Spyfall tab one logged
claim made about 75 calls of the side panes' ``minimumSizeHint`` and 240 of their panes', each
walking the pages below it through Shiboken, 20 ms of the GUI thread per entry while the next
advice waited (tests/benchmarks/bench_app_speed.py, cProfile). Qt's own layouts keep a widget's
hints in their items (``QWidgetItemV2``) until the widget calls ``updateGeometry``; a Python
override has no such cache.

:class:`HintCache` keeps each computed hint until the widget receives an event that may change
it. What may change a hint always reaches the widget as an event: its content's layout asks
again (``LayoutRequest``: a child's ``updateGeometry``, a text or page changed, a child shown or
hidden), its font, style or language changed, it was resized (a height for a width), shown,
polished, or a child came or went. The cache keeps its values only across the events listed in
:data:`KEEPS_HINTS` (painting, timers, the pointer, tooltips, queued calls); any other event
clears it, so an event type Qt adds later costs a recomputation, never a stale hint.
"""
from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QEvent

_T = QEvent.Type
#: Event types after which a widget's size hints are what they were: drawing, timers, the
#: pointer's moves and hovering, tooltips and help texts, queued slot calls.
KEEPS_HINTS = frozenset(int(t.value) for t in (
    _T.Paint, _T.UpdateRequest, _T.UpdateLater, _T.Timer, _T.MetaCall, _T.DeferredDelete,
    _T.MouseMove, _T.HoverMove, _T.HoverEnter, _T.HoverLeave, _T.Enter, _T.Leave,
    _T.ToolTip, _T.StatusTip, _T.WhatsThis, _T.QueryWhatsThis, _T.ToolTipChange,
    _T.WindowActivate, _T.WindowDeactivate, _T.ActivationChange, _T.FocusIn, _T.FocusOut,
    _T.FocusAboutToChange, _T.ShortcutOverride, _T.KeyPress, _T.KeyRelease, _T.InputMethodQuery,
    _T.Move, _T.Wheel, _T.MouseButtonPress, _T.MouseButtonRelease,
    _T.MouseButtonDblClick, _T.ContextMenu, _T.DragMove, _T.DragEnter, _T.DragLeave,
    _T.CursorChange))


class HintCache:
    """The size hints (``QSize``) of one widget, each computed once until :meth:`seen` meets an
    event outside :data:`KEEPS_HINTS` or :meth:`clear` is called.

    Use: ``return self._hints.get("min", self._minimum_size_hint)`` in the override, and
    ``self._hints.seen(event)`` first thing in the widget's ``event()`` (and in an event filter
    of a watched child, such as a scroll area's content). Values are returned as copies, so a
    caller that changes the ``QSize`` it got does not change the cache.

    Attributes:
        hits, misses: how many :meth:`get` calls were answered from the cache and computed.
    """

    __slots__ = ("_values", "hits", "misses")

    def __init__(self):
        self._values: dict = {}
        self.hits = 0
        self.misses = 0

    def get(self, key, compute: Callable):
        """The hint ``key`` ("size", "min", or any key with its own dependencies): cached, or
        ``compute()`` (a ``QSize``; kept and a copy returned)."""
        value = self._values.get(key)
        if value is None:
            self.misses += 1
            value = self._values[key] = compute()
        else:
            self.hits += 1
        return type(value)(value)

    def seen(self, event) -> None:
        """Forget the hints unless ``event`` is one after which they are unchanged."""
        if self._values and int(event.type().value) not in KEEPS_HINTS:
            self._values.clear()

    def clear(self) -> None:
        """Forget the hints (the widget changed what they depend on without an event)."""
        self._values.clear()
