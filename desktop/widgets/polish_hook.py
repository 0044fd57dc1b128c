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

from typing import Callable, Optional

from PySide6.QtWidgets import QApplication, QProxyStyle, QStyle, QStyleFactory, QWidget

_HOOKS: list = []   # callables taking the widget being polished, in the order registered


class HookedStyle(QProxyStyle):
    """A proxy style that runs every :func:`on_polish` hook on each widget it polishes.

    Args:
        base: the style that draws, a new one (the proxy owns it); ``None`` for the
            platform's default style.
    """

    def __init__(self, base: Optional[QStyle] = None):
        if base is None:
            super().__init__()
        else:
            super().__init__(base)
        self._base = base   # the Python wrapper of a Python style lives as long as the proxy

    def polish(self, target):   # Qt's overloads: a QWidget, the QApplication, a QPalette
        result = super().polish(target)
        if isinstance(target, QWidget):
            for hook in _HOOKS:
                hook(target)
        return result


def _new_like(style: Optional[QStyle]) -> Optional[QStyle]:
    """A new style that draws like ``style``: its ``duplicate()`` if it has one (a style
    written in Python), else the factory's style of its name, else None (the default)."""
    if style is None:
        return None
    duplicate = getattr(style, "duplicate", None)
    if callable(duplicate):
        return duplicate()
    return QStyleFactory.create(style.name()) if style.name() else None


def with_hooks(style: QStyle) -> QStyle:
    """``style`` (new, about to become the application's) wrapped in a :class:`HookedStyle`
    once a hook is registered; ``style`` itself before, or if it runs the hooks already."""
    if not _HOOKS or isinstance(style, HookedStyle):
        return style
    return HookedStyle(style)


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
    new = HookedStyle(_new_like(style))
    app._hooked_style = new   # the Python wrapper lives as long as the application uses it
    app.setStyle(new)         # polishes every widget again: the hooks run on each
