"""Light and dark colour schemes that follow the desktop.

Qt reports the desktop's preference as ``QStyleHints.colorScheme()`` (Qt ≥ 6.5) and signals
``colorSchemeChanged`` when the user switches. Platform themes that honour it (Windows, macOS,
GNOME and KDE through their portals) repaint the application themselves; where the platform
gives no palette for the scheme (a bare X server, the offscreen platform) :func:`follow_system`
installs the Fusion style with a dark or light palette, so the heat maps and plots, which read
the palette (``desktop.widgets.worksheet.is_dark``, ``BeliefPlot``), are readable in both.
``--color-scheme light|dark`` (or ``DEDUCTION_DESK_COLOR_SCHEME``) overrides the desktop.
"""
from __future__ import annotations

import os
from typing import Optional

from PySide6.QtCore import QObject, Qt, Slot
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QStyleFactory

SCHEMES = ("system", "light", "dark")
ENV_VAR = "DEDUCTION_DESK_COLOR_SCHEME"


def dark_palette() -> QPalette:
    """A dark palette for the Fusion style (text contrast ≥ 7:1 on the base colour)."""
    p = QPalette()
    window, base, alt, text = QColor(45, 45, 48), QColor(30, 30, 32), QColor(40, 40, 44), QColor(230, 230, 230)
    disabled = QColor(130, 130, 130)
    for role, colour in ((QPalette.Window, window), (QPalette.WindowText, text), (QPalette.Base, base),
                         (QPalette.AlternateBase, alt), (QPalette.ToolTipBase, QColor(60, 60, 64)),
                         (QPalette.ToolTipText, text), (QPalette.PlaceholderText, disabled),
                         (QPalette.Text, text), (QPalette.Button, window), (QPalette.ButtonText, text),
                         (QPalette.BrightText, QColor(255, 110, 110)), (QPalette.Link, QColor(100, 170, 255)),
                         (QPalette.LinkVisited, QColor(180, 140, 255)),
                         (QPalette.Highlight, QColor(42, 130, 218)), (QPalette.HighlightedText, QColor(255, 255, 255)),
                         (QPalette.Light, QColor(70, 70, 74)), (QPalette.Midlight, QColor(58, 58, 62)),
                         (QPalette.Mid, QColor(36, 36, 38)), (QPalette.Dark, QColor(25, 25, 27)),
                         (QPalette.Shadow, QColor(0, 0, 0))):
        p.setColor(role, colour)
    for role in (QPalette.WindowText, QPalette.Text, QPalette.ButtonText):
        p.setColor(QPalette.Disabled, role, disabled)
    return p


def tone(colour: str) -> str:
    """``colour`` (a dark "#rrggbb" chosen for text on a light background) as it should be
    drawn on the application's palette: unchanged on a light one, mixed 60 % towards white on
    a dark one so that it keeps its hue and reads on the dark base."""
    app = QApplication.instance()
    if app is None or not _is_dark(app.palette()):
        return colour
    c = QColor(colour)
    return QColor(*(round(v + 0.6 * (255 - v)) for v in c.getRgb()[:3])).name()


def _linear(v: float) -> float:
    v /= 255.0
    return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4


def contrast(a: QColor, b: QColor) -> float:
    """WCAG 2.1 contrast ratio of two colours (1 … 21): (L1 + 0.05) / (L2 + 0.05) of their
    relative luminances (W3C, "Web Content Accessibility Guidelines 2.1", 2018)."""
    def lum(c: QColor) -> float:
        r, g, b_ = (_linear(x) for x in c.getRgb()[:3])
        return 0.2126 * r + 0.7152 * g + 0.0722 * b_
    la, lb = lum(QColor(a)), lum(QColor(b))
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


#: The contrast secondary text keeps against the window and base colours: WCAG 2.1 AA for
#: normal text (4.5:1) with a margin for panels a shade lighter or darker than the window.
MUTED_CONTRAST = 5.6


def muted(palette: Optional[QPalette] = None) -> QColor:
    """The colour of secondary text (hints, notes, stale figures) on ``palette`` (the
    application's by default): the text colour mixed towards the window colour as far as it
    keeps :data:`MUTED_CONTRAST` against both the window and the base colour, so it reads
    the same in light and dark schemes. Kept per (text, window, base) colours: a worksheet
    asks for it for every greyed cell it paints."""
    if palette is None:
        app = QApplication.instance()
        palette = app.palette() if app is not None else QPalette()
    text = palette.color(QPalette.WindowText)
    backs = (palette.color(QPalette.Window), palette.color(QPalette.Base))
    key = (text.rgba(), backs[0].rgba(), backs[1].rgba())
    rgba = _MUTED.get(key)
    if rgba is None:
        rgba = _MUTED[key] = _muted(text, backs).rgba()
    return QColor.fromRgba(rgba)


_MUTED: dict = {}     # (text, window, base) rgba -> muted rgba; a few palettes at most


def _muted(text: QColor, backs: tuple) -> QColor:
    win = backs[0]
    best = QColor(text)
    for step in range(1, 12):
        t = step * 0.05
        c = QColor(*(round(a + (b - a) * t) for a, b in zip(text.getRgb()[:3], win.getRgb()[:3])))
        if min(contrast(c, b) for b in backs) < MUTED_CONTRAST:
            break
        best = c
    return best


def muted_css() -> str:
    """``color:#rrggbb`` of :func:`muted` for style sheets and rich text."""
    return f"color:{muted().name()}"


def readable_on(background: QColor) -> QColor:
    """Black or white, whichever contrasts more with ``background`` (text on a heat-map cell
    or a coloured bar); at least 4.58:1 whatever the background."""
    dark, light = QColor(0, 0, 0), QColor(255, 255, 255)
    return dark if contrast(dark, background) >= contrast(light, background) else light


def _is_dark(palette: QPalette) -> bool:
    return palette.color(QPalette.Window).lightness() < palette.color(QPalette.WindowText).lightness()


def requested_scheme(cli: Optional[str] = None) -> str:
    """``cli`` if given, else the environment variable, else ``"system"``."""
    scheme = (cli or os.environ.get(ENV_VAR) or "system").strip().lower()
    return scheme if scheme in SCHEMES else "system"


class SchemeFollower(QObject):
    """Keeps the application's palette in the colour scheme wanted (see the module)."""

    def __init__(self, app: QApplication, scheme: str = "system"):
        super().__init__(app)
        self.app = app
        self.scheme = scheme
        self._platform_palette = QPalette(app.palette())
        hints = app.styleHints()
        if hasattr(hints, "colorSchemeChanged"):
            hints.colorSchemeChanged.connect(self._scheme_changed)
        self.apply()

    def wanted(self) -> str:
        """``"dark"`` or ``"light"``: the forced scheme, else the desktop's (light if unknown)."""
        if self.scheme in ("light", "dark"):
            return self.scheme
        hints = self.app.styleHints()
        if hasattr(hints, "colorScheme") and hints.colorScheme() == Qt.ColorScheme.Dark:
            return "dark"
        return "light"

    def apply(self) -> None:
        want = self.wanted()
        if _is_dark(self._platform_palette) == (want == "dark") and self.app.palette() == self._platform_palette:
            return   # the platform already paints the scheme
        if want == "dark":
            self.app.setStyle(QStyleFactory.create("Fusion"))
            self.app.setPalette(dark_palette())
        elif _is_dark(self._platform_palette):
            self.app.setStyle(QStyleFactory.create("Fusion"))
            self.app.setPalette(self.app.style().standardPalette())
        else:
            self.app.setPalette(self._platform_palette)

    @Slot()
    def _scheme_changed(self, *_a) -> None:
        self._platform_palette = QPalette(self.app.style().standardPalette())
        self.apply()


def follow_system(app: QApplication, scheme: Optional[str] = None) -> SchemeFollower:
    """Make ``app`` follow the desktop's colour scheme (or ``scheme``: light / dark / system)."""
    follower = SchemeFollower(app, requested_scheme(scheme))
    app._scheme_follower = follower   # keep it alive with the application
    return follower
