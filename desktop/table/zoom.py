"""Zoom: every text and grid of the window larger or smaller, for reading from a chair.

``Ctrl+=`` (also ``Ctrl++``) zooms in, ``Ctrl+-`` out, ``Ctrl+0`` back to 100 %; the factor is
kept in ``QSettings`` (:data:`SETTINGS_KEY`) and applied at the next start. Zooming scales the
application font (every widget that does not set its own point size follows it) and the row
and column sizes item views set in pixels (each header's default and minimum section size,
scaled from the size it had when first shown), so grids grow with their text. Steps are the
browser-like :data:`LEVELS`.

Pixel sizes of the layout (a grid's minimum width, a plot's minimum height) are given at 100 %
with :func:`scaled_size` and follow the zoom the same way.

Text drawn larger than the rest (a heading, a playing card) is sized relative to the zoomed
application font, never in fixed points: in rich text with CSS's relative sizes
(``font-size:large`` is 1.2 times the label's font, ``x-large`` 1.5 times: Qt's HTML subset),
and for a whole widget with :func:`relative_font`, which a zoom applies again. Style sheets carry
colours and borders only (Qt's style sheets have no relative font size); a zoom applies every
widget's own style sheet again, without which Qt keeps such a widget at its old font size.
"""
from __future__ import annotations

import logging
from typing import Optional

from PySide6.QtCore import QEvent, QObject, QSettings
from PySide6.QtGui import QAction, QFont, QFontMetrics, QKeySequence
from PySide6.QtWidgets import QApplication, QHeaderView, QWidget

from desktop.shell.settings import ZOOM
from engines.core.i18n import _

log = logging.getLogger(__name__)

#: Zoom factors offered by Ctrl+= / Ctrl+- (1.0 is the desktop's own size).
LEVELS = (0.8, 0.9, 1.0, 1.1, 1.25, 1.5, 1.75, 2.0)
SETTINGS_KEY = ZOOM.key   # declared once in desktop.shell.settings
_BASE = "_zoom_base"     # a header's (default, minimum) section size at zoom 1.0
_FONT = "_zoom_font"     # a widget's relative font: (scale, bold, min_em, max_em_width)
_SIZE = "_zoom_size"     # a widget's pixel sizes at zoom 1.0: (min width, min height, fixed height)
_SHOW = QEvent.Type.Show  # read once: the filter sees every event while zoomed


class Zoom(QObject):
    """The application's zoom factor (one per application: :func:`zoom_of`)."""

    def __init__(self, app: QApplication):
        super().__init__(app)
        self.app = app
        self.base_font = QFont(app.font())
        self.factor = 1.0
        # the filter (eventFilter) is only needed away from 100 %: an application-wide filter in
        # Python is a call from Qt into Python for every event of every widget
        self._filtering = False

    def set_factor(self, factor: float) -> float:
        """Zoom to ``factor`` (clamped to :data:`LEVELS`' range); returns the factor used."""
        factor = min(max(float(factor), LEVELS[0]), LEVELS[-1])
        self.factor = factor
        zoomed = abs(factor - 1.0) > 1e-9
        if zoomed != self._filtering:
            if zoomed:
                self.app.installEventFilter(self)
            else:
                self.app.removeEventFilter(self)
            self._filtering = zoomed
        font = QFont(self.base_font)
        if self.base_font.pointSizeF() > 0:
            font.setPointSizeF(self.base_font.pointSizeF() * factor)
        else:
            font.setPixelSize(max(1, round(self.base_font.pixelSize() * factor)))
        self.app.setFont(font)
        for top in self.app.topLevelWidgets():
            for header in top.findChildren(QHeaderView):
                self._scale_header(header)
        widgets = self.app.allWidgets()
        _follow_font(widgets)
        for widget in widgets:
            if widget.property(_SIZE) is not None:
                _apply_size(widget, factor)
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
            default, minimum = header.defaultSectionSize(), header.minimumSectionSize()
            if abs(self.factor - 1.0) > 1e-9 and minimum == _implicit_minimum(header.orientation()):
                # Qt's own minimum, measured on the zoomed font of a header made after a zoom:
                # at 100 % it was the factor smaller (else it is zoomed twice)
                minimum = max(1, round(minimum / self.factor))
            base = (default, minimum)
            header.setProperty(_BASE, base)
        default, minimum = (max(1, round(v * self.factor)) for v in base)
        # Qt moves the sections still at the old default to the new one; a larger minimum set
        # first would have raised them off it (rows of two heights after a zoom), and a default
        # under the old minimum would not be taken
        header.setMinimumSectionSize(min(minimum, header.minimumSectionSize()))
        header.setDefaultSectionSize(default)
        header.setMinimumSectionSize(minimum)

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 (Qt name)
        # headers made after a zoom (a tab built later) get their sizes scaled when shown
        # (installed only while the factor is not 1: set_factor)
        if event.type() == _SHOW and isinstance(obj, QHeaderView) \
                and obj.property(_BASE) is None and abs(self.factor - 1.0) > 1e-9:
            self._scale_header(obj)
        return False


_IMPLICIT: dict = {}   # (orientation, application font) -> Qt's own minimum section size


def _implicit_minimum(orientation) -> int:
    """The minimum section size Qt gives a new header of ``orientation`` with the application's
    font as it is now (it measures the font), pixels."""
    key = (int(orientation.value), QApplication.font().toString())
    if key not in _IMPLICIT:
        probe = QHeaderView(orientation)
        _IMPLICIT[key] = probe.minimumSectionSize()
        probe.deleteLater()
    return _IMPLICIT[key]


def relative_font(widget: QWidget, scale: float = 1.0, bold: bool = False,
                  min_em: Optional[tuple[float, float]] = None,
                  max_em_width: Optional[float] = None) -> None:
    """Give ``widget`` a font ``scale`` times the application's font (which the zoom scales),
    ``bold`` if asked, and a minimum size of ``min_em`` (width, height) and a maximum width of
    ``max_em_width`` in units of that font's height (pixels); applied again at every zoom, so
    the widget keeps its proportions to the rest of the window."""
    widget.setProperty(_FONT, (float(scale), bool(bold), min_em, max_em_width))
    _apply_font(widget)


def scaled_size(widget: QWidget, min_width: Optional[int] = None, min_height: Optional[int] = None,
                fixed_height: Optional[int] = None) -> None:
    """Give ``widget`` a minimum width, minimum height and/or fixed height given in pixels at
    100 %, times the zoom factor now and at every zoom (a layout's pixel minimum that does not
    follow the zoom squeezes a zoomed grid or plot; one that does keeps its proportions to the
    text). ``None`` leaves that size alone."""
    widget.setProperty(_SIZE, (min_width, min_height, fixed_height))
    app = QApplication.instance()
    _apply_size(widget, zoom_of(app).factor if app is not None else 1.0)


def _apply_size(widget: QWidget, factor: float) -> None:
    min_width, min_height, fixed_height = widget.property(_SIZE)
    if min_width is not None:
        widget.setMinimumWidth(round(min_width * factor))
    if min_height is not None:
        widget.setMinimumHeight(round(min_height * factor))
    if fixed_height is not None:
        widget.setFixedHeight(round(fixed_height * factor))


def _depth(widget: QWidget) -> int:
    n = 0
    while widget is not None:
        widget, n = widget.parentWidget(), n + 1
    return n


def _follow_font(widgets) -> None:
    """Make ``widgets`` take the new application font. Qt leaves a widget that has a style
    sheet of its own at the font it had when the sheet was applied (``QStyleSheetStyle`` marks
    the font as the widget's own), so each such sheet is applied again, parents before
    children; widgets with a :func:`relative_font` get theirs again."""
    for widget in sorted(widgets, key=_depth):
        if widget.styleSheet():
            widget.setStyleSheet(widget.styleSheet())
        if widget.property(_FONT) is not None:
            _apply_font(widget)


def _apply_font(widget: QWidget) -> None:
    scale, bold, min_em, max_em_width = widget.property(_FONT)
    font = QFont(QApplication.font())
    if font.pointSizeF() > 0:
        font.setPointSizeF(font.pointSizeF() * scale)
    else:
        font.setPixelSize(max(1, round(font.pixelSize() * scale)))
    font.setBold(bold)
    widget.setFont(font)
    em = QFontMetrics(font).height()
    if min_em is not None:
        widget.setMinimumSize(round(min_em[0] * em), round(min_em[1] * em))
    if max_em_width is not None:
        widget.setMaximumWidth(round(max_em_width * em))


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
        from desktop.shell.locale_format import percent

        settings.setValue(SETTINGS_KEY, f)
        window.statusBar().showMessage(_("Zoom {percent}").format(percent=percent(f, 0)), 2000)

    actions = [act(_("Zoom &in"), ["Ctrl+=", "Ctrl++"], lambda: zoom_to(z.step(+1))),
               act(_("Zoom &out"), ["Ctrl+-"], lambda: zoom_to(z.step(-1))),
               act(_("&Actual size"), ["Ctrl+0"], lambda: zoom_to(z.set_factor(1.0)))]
    menu = _view_menu(window)
    if menu is not None:
        menu.addSeparator()
        for a in actions:
            menu.addAction(a)
    return actions


def _view_menu(window):
    for a in window.menuBar().actions():
        if a.menu() is not None and a.text().replace("&", "") in ("View", _("&View").replace("&", "")):
            return a.menu()
    return None
