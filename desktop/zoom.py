"""Zoom: every text and grid of the window larger or smaller, for reading from a chair.

``Ctrl+=`` (also ``Ctrl++``) zooms in, ``Ctrl+-`` out, ``Ctrl+0`` back to 100 %; the factor is
kept in ``QSettings`` (:data:`SETTINGS_KEY`) and applied at the next start. Zooming scales the
application font (every widget that does not set its own point size follows it) and the row
and column sizes item views set in pixels (each header's default and minimum section size,
scaled from the size it had when first shown), so grids grow with their text. Steps are the
browser-like :data:`LEVELS`.
"""
from __future__ import annotations

import logging
from typing import Optional

from PySide6.QtCore import QEvent, QObject, QSettings
from PySide6.QtGui import QAction, QFont, QKeySequence
from PySide6.QtWidgets import QApplication, QHeaderView

from desktop.settings import ZOOM

log = logging.getLogger(__name__)

#: Zoom factors offered by Ctrl+= / Ctrl+- (1.0 is the desktop's own size).
LEVELS = (0.8, 0.9, 1.0, 1.1, 1.25, 1.5, 1.75, 2.0)
SETTINGS_KEY = ZOOM.key   # declared once in desktop.settings
_BASE = "_zoom_base"     # a header's (default, minimum) section size at zoom 1.0


class Zoom(QObject):
    """The application's zoom factor (one per application: :func:`zoom_of`)."""

    def __init__(self, app: QApplication):
        super().__init__(app)
        self.app = app
        self.base_font = QFont(app.font())
        self.factor = 1.0
        app.installEventFilter(self)

    def set_factor(self, factor: float) -> float:
        """Zoom to ``factor`` (clamped to :data:`LEVELS`' range); returns the factor used."""
        factor = min(max(float(factor), LEVELS[0]), LEVELS[-1])
        self.factor = factor
        font = QFont(self.base_font)
        if self.base_font.pointSizeF() > 0:
            font.setPointSizeF(self.base_font.pointSizeF() * factor)
        else:
            font.setPixelSize(max(1, round(self.base_font.pixelSize() * factor)))
        self.app.setFont(font)
        for top in self.app.topLevelWidgets():
            for header in top.findChildren(QHeaderView):
                self._scale_header(header)
        return factor

    def step(self, direction: int) -> float:
        """One level in (``+1``) or out (``-1``); returns the new factor."""
        if direction > 0:
            nxt = [lv for lv in LEVELS if lv > self.factor + 1e-9]
            return self.set_factor(nxt[0] if nxt else LEVELS[-1])
        prv = [lv for lv in LEVELS if lv < self.factor - 1e-9]
        return self.set_factor(prv[-1] if prv else LEVELS[0])

    def _scale_header(self, header: QHeaderView) -> None:
        base = header.property(_BASE)
        if base is None:
            base = (header.defaultSectionSize(), header.minimumSectionSize())
            header.setProperty(_BASE, base)
        default, minimum = base
        header.setMinimumSectionSize(max(1, round(minimum * self.factor)))
        header.setDefaultSectionSize(max(1, round(default * self.factor)))

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 (Qt name)
        # headers made after a zoom (a tab built later) get their sizes scaled when shown
        if event.type() == QEvent.Type.Show and isinstance(obj, QHeaderView) \
                and obj.property(_BASE) is None and abs(self.factor - 1.0) > 1e-9:
            self._scale_header(obj)
        return False


def zoom_of(app: Optional[QApplication] = None) -> Zoom:
    """The application's :class:`Zoom` (made on first use)."""
    app = app or QApplication.instance()
    z = getattr(app, "_zoom", None)
    if z is None:
        z = Zoom(app)
        app._zoom = z
    return z


def set_zoom(app: QApplication, factor: float) -> float:
    """Zoom ``app`` to ``factor`` (see :class:`Zoom`); returns the factor used."""
    return zoom_of(app).set_factor(factor)


def install(window, settings: QSettings) -> list[QAction]:
    """Add Zoom in / Zoom out / Actual size to ``window``'s View menu (or the window itself)
    and apply the factor kept in ``settings``; returns the actions."""
    z = zoom_of()
    stored = settings.value(SETTINGS_KEY)
    try:
        if stored is not None:
            z.set_factor(float(stored))
    except (TypeError, ValueError):
        log.warning("ignoring the stored zoom factor %r", stored)

    def act(text, keys, fn):
        a = QAction(text, window)
        a.setShortcuts([QKeySequence(k) for k in keys])
        a.triggered.connect(fn)
        window.addAction(a)
        return a

    def zoom_to(f):
        settings.setValue(SETTINGS_KEY, f)
        window.statusBar().showMessage(f"Zoom {round(100 * f)} %", 2000)

    actions = [act("Zoom &in", ["Ctrl+=", "Ctrl++"], lambda: zoom_to(z.step(+1))),
               act("Zoom &out", ["Ctrl+-"], lambda: zoom_to(z.step(-1))),
               act("&Actual size", ["Ctrl+0"], lambda: zoom_to(z.set_factor(1.0)))]
    menu = _view_menu(window)
    if menu is not None:
        menu.addSeparator()
        for a in actions:
            menu.addAction(a)
    return actions


def _view_menu(window):
    for a in window.menuBar().actions():
        if a.menu() is not None and a.text().replace("&", "") == "View":
            return a.menu()
    return None
