"""Light and dark colour schemes that follow the desktop.

Qt reports the desktop's preference as ``QStyleHints.colorScheme()`` (Qt ≥ 6.5) and signals
``colorSchemeChanged`` when the user switches. Platform themes that honour it (Windows, macOS,
GNOME and KDE through their portals) repaint the application themselves; where the platform
gives no palette for the scheme (a bare X server, the offscreen platform) :func:`follow_system`
installs the Fusion style with a dark or light palette, so the heat maps and plots, which read
the palette (``desktop.widgets.worksheet.is_dark``, ``BeliefPlot``), are readable in both.

Disabled text stays readable in either scheme (:func:`legible_disabled`: at least
:data:`DISABLED_CONTRAST` against the window, base, button and light colours, where Qt's default light
palette gives 1.6:1), and the Fusion style installed here outlines check boxes and radio buttons
(in forms and in item views) at the 3:1 that WCAG 2.1 asks of a control's boundary
(:class:`LegibleFusion`; Fusion's own outline, a shade of the window colour, all but vanishes on a
dark base). Once the window is painted and the polish hooks run (:mod:`desktop.widgets.polish_hook`),
the application draws with Fusion itself, in C++, and only the widgets that draw check boxes have a
LegibleFusion of their own (:func:`draws_checks`): a style written in Python is a call into Python
for every primitive drawn, every cell of every item view among them.
``--color-scheme light|dark|high-contrast`` (or ``DEDUCTION_DESK_COLOR_SCHEME``) overrides the
desktop. With ``system`` the high-contrast scheme follows the desktop's contrast preference
(``QStyleHints.accessibility().contrastPreference()``, Qt ≥ 6.10: GNOME's and KDE's "High
contrast", Windows' contrast themes): white text on black, the selection black on yellow, at
least 7:1 everywhere (WCAG 2.1 success criterion 1.4.6, "Contrast (Enhanced)").

A style sheet whose colours depend on the scheme (:func:`tone`, :func:`muted_css`) is given with
:func:`scheme_style`, which sets it again whenever the scheme changes while the window is open
(:func:`restyle`, called by :class:`SchemeFollower`); a sheet set once when the widget is built
would keep the old scheme's colours (dark blue text on the new dark background).
"""
from __future__ import annotations

import os
from typing import Callable, Optional

from PySide6.QtCore import QObject, QRectF, Qt, Slot
from PySide6.QtGui import QColor, QPainter, QPalette, QPen
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QGroupBox,
    QListWidget,
    QMenu,
    QProxyStyle,
    QRadioButton,
    QStyle,
    QStyleFactory,
    QTableWidget,
    QTreeWidget,
    QWidget,
)

from desktop.widgets.polish_hook import DRAWS_CHECKS, HookedStyle, with_hooks

SCHEMES = ("system", "light", "dark", "high-contrast")
ENV_VAR = "DEDUCTION_DESK_COLOR_SCHEME"


def dark_palette() -> QPalette:
    """A dark palette for the Fusion style (text contrast ≥ 7:1 on the base colour, disabled
    text ≥ :data:`DISABLED_CONTRAST` once :func:`legible_disabled` has made it so)."""
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


def high_contrast_palette() -> QPalette:
    """White text on black, the selection black on yellow, links cyan, frames white: every text
    colour at least 7:1 on its background (WCAG 2.1 success criterion 1.4.6), disabled text
    5:1 — grey enough to look disabled, still readable."""
    p = QPalette()
    black, white, grey = QColor(0, 0, 0), QColor(255, 255, 255), QColor(150, 150, 150)
    for role, colour in ((QPalette.Window, black), (QPalette.WindowText, white), (QPalette.Base, black),
                         (QPalette.AlternateBase, QColor(20, 20, 20)), (QPalette.ToolTipBase, black),
                         (QPalette.ToolTipText, white), (QPalette.PlaceholderText, grey),
                         (QPalette.Text, white), (QPalette.Button, black), (QPalette.ButtonText, white),
                         (QPalette.BrightText, QColor(255, 255, 0)), (QPalette.Link, QColor(0, 255, 255)),
                         (QPalette.LinkVisited, QColor(255, 128, 255)),
                         (QPalette.Highlight, QColor(255, 255, 0)), (QPalette.HighlightedText, black),
                         (QPalette.Light, white), (QPalette.Midlight, QColor(200, 200, 200)),
                         (QPalette.Mid, QColor(160, 160, 160)), (QPalette.Dark, white),
                         (QPalette.Shadow, white)):
        p.setColor(role, colour)
    for role in (QPalette.WindowText, QPalette.Text, QPalette.ButtonText):
        p.setColor(QPalette.Disabled, role, grey)
    return p


#: The contrast disabled text keeps against the window, base, button and light colours. WCAG 2.1
#: exempts inactive controls from its 4.5:1 (success criterion 1.4.3), but a disabled field here
#: often still shows a value the player reads (the Egghead Solve form's cards, a greyed answer),
#: so disabled text keeps 3:1, the floor WCAG sets for large text and for the boundaries of
#: controls (1.4.11), with a margin for panels a shade off the window colour; it stays well
#: below enabled text (at least 11:1 in both schemes), so disabled still looks disabled.
DISABLED_CONTRAST = 3.5


def legible_disabled(palette: QPalette, floor: float = DISABLED_CONTRAST) -> QPalette:
    """A copy of ``palette`` whose disabled text colours (window text, text, button text) have
    at least ``floor`` contrast against the disabled window, base, button and light colours: each one
    below it is mixed towards its active colour in 5 % steps until it reaches it (unchanged
    where it already does). Contrast as in :func:`contrast`."""
    p = QPalette(palette)
    dis = QPalette.ColorGroup.Disabled
    # Light: the top of Fusion's button and combo box gradients, the lightest face text is on
    backs = [p.color(dis, r) for r in (QPalette.Window, QPalette.Base, QPalette.Button, QPalette.Light)]
    for role in (QPalette.WindowText, QPalette.Text, QPalette.ButtonText):
        start, goal = p.color(dis, role), p.color(QPalette.ColorGroup.Active, role)

        def legible(c: QColor) -> bool:
            return min(contrast(c, b) for b in backs) >= floor

        if legible(start):
            continue
        p.setColor(dis, role, mix_towards(start, goal, 20, legible, first=True) or QColor(goal))
    return p


def _mix(a: QColor, b: QColor, t: float) -> QColor:
    """``a`` mixed ``t`` (0 … 1) of the way to ``b``, channel by channel in sRGB (opaque)."""
    return QColor(*(round(x + (y - x) * t) for x, y in zip(a.getRgb()[:3], b.getRgb()[:3])))


def mix_towards(start: QColor, towards: QColor, steps: int, holds, first: bool = False) -> Optional[QColor]:
    """``start`` mixed towards ``towards`` in 5 % steps (1 … ``steps`` of them), a condition
    ``holds(colour) -> bool`` deciding where to stop. ``first``: the first mix for which it
    holds (moving a colour until it is legible); else the last mix before it first fails
    (moving a colour away from the text as far as it stays legible). None when no mix
    qualifies. The one walk behind :func:`legible_disabled`, :func:`indicator_outline` and
    :func:`muted`."""
    best = None
    for step in range(1, steps + 1):
        c = _mix(start, towards, step * 0.05)
        ok = holds(c)
        if first and ok:
            return c
        if not first:
            if not ok:
                break
            best = c
    return best


#: The contrast a check box's or radio button's outline keeps against the base colour it is
#: drawn on: WCAG 2.1 success criterion 1.4.11 (non-text contrast), 3:1.
INDICATOR_CONTRAST = 3.0


def indicator_outline(palette: QPalette, enabled: bool = True) -> QColor:
    """The outline of a check box or radio button drawn on ``palette`` 's base colour: the
    text colour (the disabled text colour when not ``enabled``) mixed towards the base as far as
    it keeps :data:`INDICATOR_CONTRAST` against it (the text colour itself where even that is
    below it)."""
    group = QPalette.ColorGroup.Active if enabled else QPalette.ColorGroup.Disabled
    base, text = palette.color(group, QPalette.Base), palette.color(group, QPalette.Text)
    key = (text.rgba(), base.rgba())
    rgba = _OUTLINE.get(key)
    if rgba is None:   # a paint asks for it for every check box: kept per (text, base) colours
        c = mix_towards(text, base, 19, lambda c: contrast(c, base) >= INDICATOR_CONTRAST)
        rgba = _OUTLINE[key] = (c or QColor(text)).rgba()
    return QColor.fromRgba(rgba)


_OUTLINE: dict = {}   # (text, base) rgba -> outline rgba; a few palettes at most

_CHECK_CLASSES = (QCheckBox, QRadioButton, QMenu, QListWidget, QTreeWidget, QTableWidget)


def draws_checks(widget: QWidget) -> bool:
    """Whether ``widget`` may draw check boxes or radio buttons: check boxes, radio buttons,
    checkable group boxes (as polished: before it is first shown), menus, the item widgets
    (lists of check boxes in forms), and any widget with the dynamic property ``DRAWS_CHECKS``
    (an item view with a check column). A plain group box draws its frame with the
    application's style."""
    if isinstance(widget, QGroupBox):
        return widget.isCheckable()
    return isinstance(widget, _CHECK_CLASSES) or bool(widget.property(DRAWS_CHECKS))


_OUTLINED: list = []   # the LegibleFusion set on the widgets of draws_checks (one, made once)


def _outlined(widget: QWidget) -> Optional[QStyle]:
    if not draws_checks(widget):
        return None
    if not _OUTLINED:
        _OUTLINED.append(LegibleFusion())
    return _OUTLINED[0]


def _legible(style: QStyle) -> bool:
    """Whether the application style ``style`` outlines check boxes already."""
    if isinstance(style, HookedStyle):   # LegibleFusion.hooked(): Fusion, outlines per widget
        return style._widget_style is _outlined
    return isinstance(style, LegibleFusion)


class LegibleFusion(QProxyStyle):
    """The Fusion style with check box and radio button outlines of :func:`indicator_outline`
    (also the check boxes of item views, which Fusion draws as check boxes). Fusion outlines
    them in the window colour darkened by 40 %: on a dark base that is under 1.2:1, so an
    unchecked box is all but invisible (a list of check boxes looks like a plain list)."""

    def __init__(self):
        super().__init__(QStyleFactory.create("Fusion"))

    def hooked(self) -> HookedStyle:
        """This style as the application's once the polish hooks run
        (:mod:`desktop.widgets.polish_hook`): plain Fusion, drawn in C++, and a LegibleFusion
        of their own for the widgets that draw check boxes or radio buttons
        (:func:`draws_checks`). A style written in Python is a call into Python for every
        primitive of every widget, every cell of every item view among them; that call waits
        for the interpreter lock while a job computes."""
        return HookedStyle(QStyleFactory.create("Fusion"), widget_style=_outlined)

    def drawPrimitive(self, element, option, painter, widget=None):  # noqa: N802 (Qt name)
        super().drawPrimitive(element, option, painter, widget)
        if element not in (QStyle.PrimitiveElement.PE_IndicatorCheckBox,
                           QStyle.PrimitiveElement.PE_IndicatorRadioButton):
            return
        enabled = bool(option.state & QStyle.StateFlag.State_Enabled)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(QPen(indicator_outline(option.palette, enabled), 1))
        r = QRectF(option.rect).adjusted(0.5, 0.5, -0.5, -0.5)
        if element == QStyle.PrimitiveElement.PE_IndicatorRadioButton:
            painter.drawEllipse(r.adjusted(0.5, 0.5, -0.5, -0.5))
        else:
            painter.drawRect(r)
        painter.restore()


def tone(colour: str) -> str:
    """``colour`` (a dark "#rrggbb" chosen for text on a light background) as it should be
    drawn on the application's palette: unchanged on a light one, mixed 60 % towards white on
    a dark one so that it keeps its hue and reads on the dark base."""
    app = QApplication.instance()
    if app is None or not _is_dark(app.palette()):
        return colour
    return _mix(QColor(colour), QColor(255, 255, 255), 0.6).name()


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
    c = mix_towards(text, backs[0], 11, lambda c: min(contrast(c, b) for b in backs) >= MUTED_CONTRAST)
    return c or QColor(text)


def muted_css() -> str:
    """``color:#rrggbb`` of :func:`muted` for style sheets and rich text."""
    return f"color:{muted().name()}"


_BLACK_ON: dict = {}    # a background's rgb -> whether black reads better on it than white


def readable_on(background: QColor) -> QColor:
    """Black or white, whichever contrasts more with ``background`` (text on a heat-map cell
    or a coloured bar); at least 4.58:1 whatever the background. (The choice is kept per
    colour: a worksheet asks for every cell it paints.)"""
    key = QColor(background).rgb()
    black = _BLACK_ON.get(key)
    if black is None:
        if len(_BLACK_ON) > 4096:
            _BLACK_ON.clear()
        dark, light = QColor(0, 0, 0), QColor(255, 255, 255)
        black = _BLACK_ON[key] = contrast(dark, background) >= contrast(light, background)
    return QColor(0, 0, 0) if black else QColor(255, 255, 255)


_STYLE = "_scheme_style"   # a widget's style sheet as a function of the scheme (scheme_style)


def scheme_style(widget: QWidget, make: Callable[[], str]) -> None:
    """Give ``widget`` the style sheet ``make()`` returns now and again at every change of
    the colour scheme (:func:`restyle`): ``make`` reads the palette through :func:`tone`,
    :func:`muted_css` and the like."""
    widget.setProperty(_STYLE, make)
    sheet = make()
    if sheet != widget.styleSheet():    # a new style sheet costs a re-polish
        widget.setStyleSheet(sheet)


def tone_style(widget: QWidget, colour: str, extra: str = "") -> None:
    """:func:`scheme_style` of text in :func:`tone` (``colour``) followed by ``extra``
    declarations (e.g. ``"; font-weight:bold"``)."""
    scheme_style(widget, lambda: f"color:{tone(colour)}{extra}")


def muted_style(widget: QWidget) -> None:
    """:func:`scheme_style` of secondary text (:func:`muted_css`)."""
    scheme_style(widget, muted_css)


def restyle(app: Optional[QApplication] = None) -> int:
    """Set again the style sheet of every widget given one with :func:`scheme_style` (after
    the application's palette changed); returns how many were set."""
    app = app or QApplication.instance()
    n = 0
    for widget in app.allWidgets():
        make = widget.property(_STYLE)
        if callable(make):
            sheet = make()
            if sheet != widget.styleSheet():
                widget.setStyleSheet(sheet)
                n += 1
    return n


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
        if hasattr(hints, "accessibility"):
            hints.accessibility().contrastPreferenceChanged.connect(self._scheme_changed)
        self.apply()

    def wanted(self) -> str:
        """``"dark"``, ``"light"`` or ``"high-contrast"``: the forced scheme, else the
        desktop's (its contrast preference first; light if unknown)."""
        if self.scheme in ("light", "dark", "high-contrast"):
            return self.scheme
        hints = self.app.styleHints()
        if hasattr(hints, "accessibility") and \
                hints.accessibility().contrastPreference() == Qt.ContrastPreference.HighContrast:
            return "high-contrast"
        if hasattr(hints, "colorScheme") and hints.colorScheme() == Qt.ColorScheme.Dark:
            return "dark"
        return "light"

    def apply(self) -> None:
        """Set the palette (and style) of the scheme :meth:`wanted`, and the style sheets of
        :func:`scheme_style` again when the palette changed."""
        before = QPalette(self.app.palette())
        self._apply()
        if self.app.palette() != before:
            restyle(self.app)

    def _apply(self) -> None:
        want = self.wanted()
        if want == "high-contrast":
            self._set_style(LegibleFusion())
            self.app.setPalette(high_contrast_palette())
            return
        platform = legible_disabled(self._platform_palette)
        if _is_dark(self._platform_palette) == (want == "dark") and \
                self.app.palette() in (self._platform_palette, platform):
            if self.app.palette() != platform:
                self.app.setPalette(platform)   # the platform's colours, its disabled text readable
            self._outline_fusion()
            return   # the platform already paints the scheme
        if want == "dark":
            self._set_style(LegibleFusion())
            self.app.setPalette(legible_disabled(dark_palette()))
        elif _is_dark(self._platform_palette):
            self._set_style(LegibleFusion())
            self.app.setPalette(legible_disabled(self.app.style().standardPalette()))
        else:
            self.app.setPalette(platform)
        self._outline_fusion()

    def _set_style(self, style: QStyle) -> None:
        style = with_hooks(style)   # the polish hooks (tooltips of item views) stay
        self._style = style   # the Python wrapper lives as long as the application uses it
        self.app.setStyle(style)

    def _outline_fusion(self) -> None:
        """Fusion already (a bare X server, the offscreen platform): the same look, outlined."""
        style = self.app.style()
        if _legible(style):
            return
        if isinstance(style, HookedStyle) and style.baseStyle() is not None:
            style = style.baseStyle()   # a proxy that only runs the polish hooks
        if style.name().lower() == "fusion":
            self._set_style(LegibleFusion())

    @Slot()
    def _scheme_changed(self, *_a) -> None:
        self._platform_palette = QPalette(self.app.style().standardPalette())
        self.apply()


def follow_system(app: QApplication, scheme: Optional[str] = None) -> SchemeFollower:
    """Make ``app`` follow the desktop's colour scheme (or ``scheme``: light / dark / system)."""
    follower = SchemeFollower(app, requested_scheme(scheme))
    app._scheme_follower = follower   # keep it alive with the application
    return follower
