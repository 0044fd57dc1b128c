"""Run code once on every widget as it is polished, instead of an application-wide event filter.

An application-wide event filter written in Python (``QApplication.installEventFilter``) is a
call from Qt into Python for every event of every object: the widgets' paints, layouts, moves,
timers and meta-calls. Each such call must take the interpreter lock, and while a worker thread
computes in Python (a job replaying a log) it waits for the lock each time, so a tab switch or a
repaint of the whole window took up to twice as long. Most such filters only need to act on a
few kinds of widget (item views' viewports, for instance).

Qt polishes every widget once with the application's style before it is first shown, and again
when the style changes (``QStyle::polish(QWidget *)``; Qt 6 documentation, "QStyle"). A
:class:`~PySide6.QtWidgets.QProxyStyle` that overrides ``polish`` alone adds one call into Python
per widget polished: its other virtual functions (drawing, metrics) stay in C++, because
Shiboken calls into Python only for the methods a Python class overrides (Qt for Python
documentation, "Shiboken: virtual methods").

:func:`on_polish` registers a hook, runs it on the widgets that already exist and makes sure the
application's style is a :class:`HookedStyle` (wrapping the current style, so the look does not
change). The colour schemes' style (:class:`desktop.shell.appearance.LegibleFusion`) is one too,
so the hooks survive a change of scheme.

The hooks are installed after the window's first paint: PySide's ``QStyle.polish`` called with a
widget creates its ``Qt`` namespace (about 14 ms; see ``tests/desktop/test_startup.py``), and
installing a style re-polishes every widget. A style that stands for the application's style
later (:class:`desktop.shell.appearance.SchemeFollower` on a change of scheme) goes through
:func:`with_hooks`.
"""
from __future__ import annotations

import logging
from typing import Callable, Optional

from PySide6.QtCore import QTimer
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication, QProxyStyle, QStyle, QStyleFactory, QWidget

log = logging.getLogger(__name__)

_HOOKS: list = []   # callables taking the widget being polished, in the order registered

#: A dynamic property (bool) marking a widget that draws check boxes although its class does
#: not say so (an item view with a check column), for a ``widget_style`` that decides by it.
DRAWS_CHECKS = "drawsCheckBoxes"
_OWN_STYLE = "hookedOwnStyle"   # dynamic property: the widget was given its widget_style


class HookedStyle(QProxyStyle):
    """A proxy style that runs every :func:`on_polish` hook on each widget it polishes.

    Args:
        base: the style that draws, a new one (the proxy owns it); ``None`` for the
            platform's default style.
        widget_style: ``widget -> QStyle or None``: a style of the widget's own, set on it as
            it is polished (after the hooks), for the few widgets that need a style written in
            Python (whose every drawing call is a call into Python) while the rest of the
            application draws in C++.
    """

    def __init__(self, base: Optional[QStyle] = None, *,
                 widget_style: Optional[Callable[[QWidget], Optional[QStyle]]] = None):
        if base is None:
            super().__init__()
        else:
            super().__init__(base)
        self._base = base   # the Python wrapper of a Python style lives as long as the proxy
        self._widget_style = widget_style

    def polish(self, target):   # Qt's overloads: a QWidget, the QApplication, a QPalette
        if not isinstance(target, (QWidget, QApplication, QPalette)):
            # Shiboken handed over a stale wrapper: the one of a deleted object (a layout's
            # QWidgetItem) whose address the new widget reuses. PySide cannot pass it to
            # Qt's polish (TypeError), so the widget goes unpolished rather than raising
            # inside Qt's event handling; seen once in a test run of many windows.
            log.debug("polish skipped for a stale wrapper of type %s", type(target).__name__)
            return None
        result = super().polish(target)
        if isinstance(target, QWidget):
            for hook in _HOOKS:
                hook(target)
            if self._widget_style is not None and not target.property(_OWN_STYLE):
                own = self._widget_style(target)
                if own is not None:
                    target.setProperty(_OWN_STYLE, True)
                    if target.style() is self:
                        target.setStyle(own)
                    else:
                        # a widget with a style sheet is being polished by its own
                        # QStyleSheetStyle, which setStyle would delete under this call
                        QTimer.singleShot(0, target, lambda w=target, s=own: w.setStyle(s))
        return result


def _hooked(style: Optional[QStyle], *, new: bool) -> "HookedStyle":
    """A :class:`HookedStyle` that draws like ``style``: the style's own ``hooked()`` if it has
    one (a style written in Python says how it is drawn under the hooks), else ``style``
    itself as the base when it is ``new`` (not yet any application's), else a new style of
    the factory of its name, else the default."""
    make = getattr(style, "hooked", None)
    if callable(make):
        return make()
    if new:
        return HookedStyle(style)
    base = QStyleFactory.create(style.name()) if style is not None and style.name() else None
    return HookedStyle(base)


def with_hooks(style: QStyle) -> QStyle:
    """``style`` (new, about to become the application's) wrapped in a :class:`HookedStyle`
    once a hook is registered; ``style`` itself before, or if it runs the hooks already."""
    if not _HOOKS or isinstance(style, HookedStyle):
        return style
    return _hooked(style, new=True)


def on_polish(hook: Callable[[QWidget], None], app: Optional[QApplication] = None) -> None:
    """Run ``hook(widget)`` on every widget of ``app`` (the running application by default):
    those that exist now, and each one polished from now on (a new widget before it is first
    shown, every widget when the style changes). A hook is registered once, however often this
    is called; it must be cheap and idempotent (it may run several times on a widget). Call
    it after the window's first paint (module docstring)."""
    app = app or QApplication.instance()
    if hook not in _HOOKS:
        _HOOKS.append(hook)
    if app is None:
        return
    style = app.style()
    if isinstance(style, HookedStyle):
        for widget in app.allWidgets():
            hook(widget)
        return
    new = _hooked(style, new=False)
    app._hooked_style = new   # the Python wrapper lives as long as the application uses it
    app.setStyle(new)         # polishes every widget again: the hooks run on each
