"""Belief-evolution plot (pyqtgraph): x = event number, y = probability or bits.

One line per tracked hypothesis, with a legend; moving the mouse shows the values at the
nearest event; a vertical marker shows the event whose beliefs are on screen. The tab calls
:meth:`set_series` with the whole timeline after each result, so the plot follows undo/redo.

Colours come from the Okabe–Ito palette (Okabe & Ito, "Color Universal Design", 2002; Wong,
"Points of view: Color blindness", Nature Methods 8:441, 2011), readable with every common
colour-vision deficiency, and are keyed by series name: a series keeps its colour while others
come and go, and no two series on screen share one (lines beyond the eighth are dashed). The
legend sits above the plot area, so it never covers a point; background, axes and text follow
the application palette (light or dark).
"""
from __future__ import annotations

import html
import math
from typing import Mapping, Optional, Sequence

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, Qt, QTimer, Slot
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QGraphicsItem, QLabel, QVBoxLayout, QWidget

from engines.core.i18n import _

#: Okabe–Ito colours in the order lines are given them (black, the eighth, is replaced by the
#: palette's text colour so that it shows on a dark background too).
PALETTE = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442"]
_STYLES = [Qt.SolidLine, Qt.DashLine, Qt.DotLine, Qt.DashDotLine]
_SYMBOLS = ["o", "s", "t", "d", "+", "x", "star", "p"]
#: Longest series drawn with a symbol at every point. Longer ones (a log of thousands of
#: claims) are drawn as lines only, clipped to the view and downsampled to the plot's width by
#: pyqtgraph ("peak": the minimum and maximum of each pixel column, so no spike is lost):
#: symbols there would overlap into a smear and cost a second of painting per plot. Their
#: lines are one pixel wide (a two-pixel antialiased path costs Qt 30 times as much).
MAX_SYMBOL_POINTS = 300
#: Bins per pixel column of a long series's downsampling (pyqtgraph's ``autoDownsampleFactor``,
#: whose default 5 left a 5,000-point series on a 556-pixel plot undownsampled: 20 such curves
#: cost Qt 69 ms to stroke at each repaint). With the "peak" method a bin is drawn as its
#: minimum and maximum, so one bin per column still reaches every extreme the column holds:
#: 1,110 points a curve there, 36 ms for 20 curves of random values.
DOWNSAMPLE_BINS_PER_PIXEL = 1.0


class ColourKeys:
    """Colour slots keyed by series name, stable while other series come and go.

    :meth:`assign` takes the names on screen and returns ``{name: slot}``: a name keeps the
    slot it had whenever that slot is free, a new name takes the lowest free slot, so the names
    shown at one time never share a slot. Slot ``i`` is colour ``i % (len(PALETTE) + 1)`` (the
    last being the text colour) in line style ``i // (len(PALETTE) + 1)``.
    """

    def __init__(self):
        self._slot: dict[str, int] = {}

    def assign(self, names: Sequence[str]) -> dict[str, int]:
        out: dict[str, int] = {}
        used: set[int] = set()
        for name in names:                       # first the names whose old slot is free
            slot = self._slot.get(name)
            if slot is not None and slot not in used:
                out[name] = slot
                used.add(slot)
        for name in names:                       # then the rest take the lowest free slot
            if name not in out:
                slot = next(i for i in range(len(used) + 1) if i not in used)
                out[name] = self._slot[name] = slot
                used.add(slot)
        return out


def _slot_style(slot: int):
    """The line style of colour slot ``slot``: solid for the palette's first round, then
    dashed, so that two curves never share colour and style."""
    return _STYLES[(slot // (len(PALETTE) + 1)) % len(_STYLES)]


def slot_pen_colour(slot: int, text: QColor) -> QColor:
    """The line colour of ``slot`` (see :class:`ColourKeys`); ``text`` is the palette's text."""
    i = slot % (len(PALETTE) + 1)
    return QColor(text) if i == len(PALETTE) else QColor(PALETTE[i])


class _Legend(QLabel):
    """The plot's legend: one coloured line sample and name per series, above the plot."""

    def setOffset(self, _offset) -> None:  # noqa: N802 - pyqtgraph LegendItem's name
        """Kept for callers written for pyqtgraph's in-plot legend; the legend is outside now."""


class PlainAxis(pg.AxisItem):
    """An axis without an automatic SI scale factor in its label ("bits (x0.001)" for 0.06–0.3
    bits: the values are shown), whose log mode labels the decades only (:meth:`logTickValues`),
    drawn from a pixmap while its range and size stay."""

    def __init__(self, orientation: str, **kwargs):
        super().__init__(orientation, **kwargs)
        self.enableAutoSIPrefix(False)
        # drawn once into a pixmap and copied while the range and size stay (a tab brought to
        # the front, a marker moved, a curve added): replaying the axis's picture of ticks,
        # labels and the grid took 2.3 ms an axis, 20 ms of each switch to a tab with plots
        # (cProfile of MainWindow.select_game; Qt documentation, QGraphicsItem.CacheMode)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)

    def logTickValues(self, minVal, maxVal, size, stdTicks):  # noqa: N802 (pyqtgraph)
        """Ticks at whole powers of ten (at most one label per 40 px of axis), no minor
        labels."""
        lo, hi = int(np.floor(minVal)), int(np.ceil(maxVal))
        decades = list(range(lo, hi + 1))
        step = max(1, int(np.ceil(len(decades) * 40 / max(size, 1.0))))
        return [(float(step), [float(d) for d in decades[::step] if minVal <= d <= maxVal])]


def plain_axes() -> dict:
    """A ``pg.PlotWidget``'s ``axisItems``: a :class:`PlainAxis` at the left and bottom."""
    return {"left": PlainAxis("left"), "bottom": PlainAxis("bottom")}


class BeliefPlot(QWidget):
    """A titled pyqtgraph plot of named series over event numbers.

    Args:
        title: shown above the plot.
        y_label: e.g. "probability" or "bits".
        y_range: fixed (min, max) or None to auto-range.
        log_y: logarithmic y axis (e.g. counts of valid stacks).
        legend_at: accepted for compatibility and ignored: the legend is above the plot.
    """

    def __init__(self, title: Optional[str] = None, y_label: Optional[str] = None,
                 y_range: Optional[tuple] = (0.0, 1.0), log_y: bool = False, parent=None,
                 legend_at: str = "top-right"):
        super().__init__(parent)
        pg.setConfigOptions(antialias=True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        title = _("Beliefs after each event") if title is None else title
        y_label = _("probability") if y_label is None else y_label
        self.title = QLabel(f"<b>{title}</b>")
        self.title.setWordWrap(True)
        layout.addWidget(self.title)
        self.plot = self._build_plot_widget(y_label, y_range, log_y)
        # legend_at is accepted for compatibility: the legend is above the plot area, where it
        # cannot cover the newest (or any) points
        self.legend = _Legend()
        self.legend.setWordWrap(True)
        self.legend.setTextFormat(Qt.RichText)
        self.legend.hide()
        layout.addWidget(self.legend)
        layout.addWidget(self.plot)
        self._series: dict[str, list] = {}
        self._dense = False       # longer than MAX_SYMBOL_POINTS: lines only, downsampled
        self._styled: dict[str, tuple] = {}   # name -> the style last applied to its curve
        self._curves: dict[str, pg.PlotDataItem] = {}
        self.curves_made = 0      # curves made since the plot was made (a reused one is not counted)
        self._spare: list[pg.PlotDataItem] = []     # made ahead by reserve(), empty and hidden
        self._reserved = 0
        self._spare_timer = QTimer(self)
        self._spare_timer.setInterval(0)
        self._spare_timer.timeout.connect(self._make_spare)
        self._keys = ColourKeys()
        self._slots: dict[str, int] = {}
        self._add_marker_and_hover()
        self._apply_palette()

    def _build_plot_widget(self, y_label: str, y_range: Optional[tuple],
                           log_y: bool) -> pg.PlotWidget:
        """The plot area: a grid, fixed axes (no mouse zoom, no menu), the y range if given;
        axes labelled in plain units (no "x0.001" scale factor) and, on a log axis, one
        label per decade only (the minor ticks' labels overlapped)."""
        plot = pg.PlotWidget(axisItems=plain_axes())
        plot.setMinimumHeight(100)
        plot.showGrid(x=True, y=True, alpha=0.25)
        plot.setLabel("bottom", _("event"))
        plot.setLabel("left", y_label)
        plot.setMouseEnabled(x=False, y=False)
        plot.hideButtons()
        plot.setMenuEnabled(False)
        if log_y:
            plot.setLogMode(y=True)
        self._y_range = y_range
        if y_range:
            plot.setYRange(*y_range, padding=0.02)
        return plot

    def _add_marker_and_hover(self) -> None:
        """The event-on-screen marker and the hover box that follows the mouse."""
        self.marker = pg.InfiniteLine(angle=90, movable=False,
                                      pen=pg.mkPen(QColor(120, 120, 120), style=Qt.DashLine))
        self.plot.addItem(self.marker)
        self.marker.hide()
        self.hover = pg.TextItem(anchor=(0, 1))
        self.hover.setZValue(100)
        self.plot.addItem(self.hover, ignoreBounds=True)
        self.hover.hide()
        self._proxy = pg.SignalProxy(self.plot.scene().sigMouseMoved, rateLimit=30, slot=self._mouse)

    def add_item(self, item) -> None:
        """Draw a pyqtgraph item (a threshold line, a band) on the plot area with the series."""
        self.plot.addItem(item)

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt's method name)
        super().resizeEvent(event)
        self._fit_wrapped_text()

    def hasHeightForWidth(self) -> bool:  # noqa: N802 (Qt's method name)
        """False: the plot takes any height from its minimum up. Its layout's wrapped title and
        legend would make Qt ask a height for each width, and answer the plot's preferred height
        (about 520 px): a scroll area that gives each item the height it needs at its width
        (:class:`desktop.widgets.vscroll.VerticalScroll`) then made a short "Who is close?"
        page scroll, with the plot's empty top in view. The wrapped labels keep their lines
        through their minimum heights (:meth:`_fit_wrapped_text`)."""
        return False

    def _fit_wrapped_text(self) -> None:
        """Give the wrapped title and legend at least the height their text takes at the
        plot's width: a layout's minimum for a wrapped label is what it takes at its preferred
        width, so a splitter or scroll area giving the plot only its minimum height cut the
        plot's bottom by the extra lines."""
        for label in (self.title, self.legend):
            old = label.minimumHeight()
            if old:
                label.setMinimumHeight(0)   # QLabel.heightForWidth never answers under it
            need = label.heightForWidth(self.width()) if label.text() and not label.isHidden() else 0
            if old or need > 0:
                label.setMinimumHeight(max(0, need))

    # -- colours -----------------------------------------------------------------------------
    def changeEvent(self, event) -> None:  # noqa: N802 (Qt's method name)
        super().changeEvent(event)
        if event.type() in (QEvent.PaletteChange, QEvent.ApplicationPaletteChange):
            self._apply_palette()

    def _text_colour(self) -> QColor:
        return self.palette().color(QPalette.Text)

    def _apply_palette(self) -> None:
        """Background, axes, grid, marker and hover box from the widget's palette."""
        pal = self.palette()
        base, text = pal.color(QPalette.Base), pal.color(QPalette.Text)
        self.plot.setBackground(base)
        for name in ("left", "bottom"):
            axis = self.plot.getAxis(name)
            axis.setPen(pg.mkPen(text))
            axis.setTextPen(pg.mkPen(text))
        mid = QColor(text)
        mid.setAlpha(150)
        self.marker.setPen(pg.mkPen(mid, style=Qt.DashLine))
        self.hover.setColor(text)
        fill = QColor(pal.color(QPalette.ToolTipBase))
        fill.setAlpha(235)
        self.hover.fill = pg.mkBrush(fill)
        self.hover.border = pg.mkPen(mid)
        if self._curves:
            self._restyle()

    def series_colour(self, name: str) -> Optional[QColor]:
        """The colour of series ``name`` on screen (None if it is not plotted)."""
        slot = self._slots.get(name)
        return None if slot is None else slot_pen_colour(slot, self._text_colour())

    def _restyle(self) -> None:
        """Style every curve again (the palette changed) and rewrite the legend."""
        self._styled.clear()
        self._style_curves()

    def _style_curves(self, apply: bool = True) -> dict:
        """Pen, symbol and downsampling of each curve from its colour slot (only where they
        changed: each change makes pyqtgraph rebuild the curve's path), and the legend.
        ``apply=False``: the changed curves' styles are returned (name -> keyword arguments of
        ``PlotDataItem.setData``) for :meth:`set_series` to give with the data, one rebuild
        of each curve where the five setters made five."""
        text = self._text_colour()
        samples = []
        styles = {}
        for name, curve in self._curves.items():
            slot = self._slots[name]
            colour = slot_pen_colour(slot, text)
            style = _slot_style(slot)
            key = (colour.name(), style, slot, self._dense)
            if self._styled.get(name) != key:
                self._styled[name] = key
                # a wide antialiased path of thousands of points costs Qt ~15 ms per curve to
                # stroke; one pixel wide, under 1 ms
                styles[name] = dict(
                    pen=pg.mkPen(colour, width=1 if self._dense else 2, style=style),
                    symbol=None if self._dense
                    else _SYMBOLS[(slot // (len(PALETTE) + 1)) % len(_SYMBOLS)],
                    symbolBrush=pg.mkBrush(colour), autoDownsample=self._dense,
                    downsampleMethod="peak", clipToView=self._dense)
                if apply:
                    curve.setPen(styles[name]["pen"])
                    curve.setSymbol(styles[name]["symbol"])
                    curve.setSymbolBrush(styles[name]["symbolBrush"])
                    curve.setDownsampling(auto=self._dense, method="peak")
                    curve.setClipToView(self._dense)
            samples.append(self._legend_sample(name, colour, style))
        self._show_legend(samples)
        return {} if apply else styles

    def _legend_sample(self, name: str, colour: QColor, style) -> str:
        dash = "━━" if style == Qt.SolidLine else "╍╍"
        return f"<span style='color:{colour.name()}'><b>{dash}</b></span>&nbsp;{html.escape(name)}"

    def _show_legend(self, samples: list) -> None:
        text = "&nbsp;&nbsp; ".join(samples)
        if text != self.legend.text() or self.legend.isHidden() == bool(samples):
            self.legend.setText(text)
            self.legend.setVisible(bool(samples))
            self._fit_wrapped_text()

    def set_series(self, series: Mapping[str, Sequence[Optional[float]]]) -> None:
        """Replace the plotted data: name -> value after event 0, 1, 2, ... (None = gap), a
        sequence or a float array, shape (events + 1,), NaN = gap. An array is drawn as it is
        (copied once), with no Python object per value: 20 series of 5,001 values given as
        lists cost 12 ms of the GUI thread to read into arrays (a Spyfall log of 5,000
        claims; tests/benchmarks/bench_open_stall.py)."""
        self._series = {k: np.array(v, dtype=float) if isinstance(v, np.ndarray) else list(v)
                        for k, v in series.items()}
        # a curve whose series left is given to a series that came (restyled below): making a
        # curve (pyqtgraph's PlotDataItem with its path and scatter items, added to the scene)
        # cost about 1 ms of the GUI thread each, 20 of them 18 ms of a Spyfall log's 33 ms
        # set_series when another log with other players was opened (cProfile)
        spare = []
        for name in list(self._curves):
            if name not in self._series:
                spare.append(self._curves.pop(name))
                self._styled.pop(name, None)
        self._slots = self._keys.assign(list(self._series))
        n = max((len(v) for v in self._series.values()), default=1)
        self._dense = n > MAX_SYMBOL_POINTS
        for name in self._series:
            if name not in self._curves:
                if spare:
                    self._curves[name] = spare.pop()
                elif self._spare:
                    self._curves[name] = curve = self._spare.pop()
                    curve.show()
                else:
                    self._curves[name] = self._new_curve()
        for curve in spare:     # kept, hidden and empty, for the series of the next log
            self._hide_spare(curve)
        # each later series drawn over the earlier ones, whichever curve it was given (made
        # now, reserved ahead, or another series' before): the stacking of a plot's curves is
        # a function of its series, not of the logs shown before; all stay under the hover box
        for i, name in enumerate(self._series):
            self._curves[name].setZValue(i / len(self._series))
        styles = self._style_curves(apply=False)    # given with the data: one path each
        # the range before the data: a long curve clipped to the view and downsampled to its
        # width is computed again at each change of the range
        self.plot.setXRange(0, max(1, n - 1), padding=0.03)
        for name, values in self._series.items():
            ys = _finite_values(values)
            xs = np.flatnonzero(~np.isnan(ys))
            self._curves[name].setData(xs, ys[xs], **styles.get(name, {}))
        step = event_tick_step(n - 1)
        self.plot.getAxis("bottom").setTickSpacing(step, step)
        if self._y_range:
            self.plot.setYRange(*self._y_range, padding=0.02)
        # the view's auto range and transform brought up to date now: pyqtgraph updates them
        # lazily as the next paint begins (ViewBox.prepareForPaint), and the items they move
        # then ask for a second paint of the whole plot: two Spyfall plots of 20 players took
        # four paints, 61-93 ms of the GUI thread, after each change of their data, and take two,
        # 27-29 ms, this way
        self.plot.getPlotItem().vb.prepareForPaint()

    def reserve(self, count: int, names: Optional[Sequence[str]] = None) -> None:
        """Have ``count`` curves ready before the series come: the missing ones are made one
        per turn of the event loop (each about 1-2 ms of the GUI thread), empty and hidden,
        and taken by :meth:`set_series` before it makes any. A Spyfall log of 20 players made
        its 20 curves in the turn its beliefs arrived, 36 ms of that turn's GUI-thread CPU
        (tests/benchmarks/bench_open_stall.py); its tab reserves them when the setup is
        shown, while the beliefs are computed.

        ``names``: the series to come, when known (a plot with no series now): the legend
        shows them at once, each in the colour its curve will have, so the plot's layout is
        final before the data come. The legend appearing with the data made the tab lay out
        and paint its panes two or three times more after a Spyfall log's beliefs arrived
        (the plot shorter, the pane taller than its room, a scroll bar, the panes narrower).
        """
        self._reserved = count
        if names is not None and not self._series:
            slots = self._keys.assign(list(names))
            text = self._text_colour()
            self._show_legend([
                self._legend_sample(name, slot_pen_colour(slots[name], text), _slot_style(slots[name]))
                for name in names])
        if len(self._curves) + len(self._spare) < count:
            self._spare_timer.start()

    def _hide_spare(self, curve: pg.PlotDataItem) -> None:
        """Keep ``curve`` for a later series (:meth:`set_series` takes the spare curves before
        it makes any), hidden and empty: a curve removed from the plot at every open of a log
        was made again by :meth:`reserve` (about 1-1.5 ms of the GUI thread each, 23 of them
        for a Spyfall log of 20 players)."""
        curve.hide()
        curve.setData([], [])
        self._spare.append(curve)

    @Slot()
    def _make_spare(self) -> None:
        if len(self._curves) + len(self._spare) >= self._reserved:
            self._spare_timer.stop()
            return
        curve = self._new_curve()
        curve.hide()
        self._spare.append(curve)

    def _new_curve(self) -> pg.PlotDataItem:
        """A curve added to the plot, empty (styled by :meth:`_style_curves`); counted in
        :attr:`curves_made`."""
        self.curves_made += 1
        curve = self.plot.plot([], [], symbol="o", symbolSize=5, symbolPen=None)
        # no setter in pyqtgraph 0.13/0.14; read by PlotDataItem._getDisplayDataset
        curve.opts["autoDownsampleFactor"] = DOWNSAMPLE_BINS_PER_PIXEL
        return curve

    def series(self) -> dict:
        """The plotted data as lists: name -> value after event 0, 1, 2, ... (a gap of a series
        given as an array: None)."""
        return {k: [None if x != x else x for x in v.tolist()] if isinstance(v, np.ndarray)
                else list(v) for k, v in self._series.items()}

    def set_y_label(self, text: str) -> None:
        """The y axis's title (another wording of the same axis, :mod:`desktop.tabs.wording`)."""
        self.plot.setLabel("left", text)

    def set_y_range(self, y_range: Optional[tuple]) -> None:
        """Fix the y axis to ``(min, max)`` (None: auto-range), e.g. when the setup changes."""
        self._y_range = y_range
        if y_range:
            self.plot.setYRange(*y_range, padding=0.02)
        else:
            self.plot.enableAutoRange(axis="y")

    def set_x_tick_spacing(self, step: int) -> None:
        """Ticks on the event axis every ``step`` events (long logs)."""
        self.plot.getAxis("bottom").setTickSpacing(step, step)

    def set_marker(self, x: Optional[int]) -> None:
        """Mark event ``x`` (None hides the marker)."""
        if x is None or x < 0:
            self.marker.hide()
        else:
            self.marker.setValue(x)
            self.marker.show()

    def _mouse(self, evt) -> None:
        pos = evt[0]
        vb = self.plot.getPlotItem().vb
        if not self.plot.sceneBoundingRect().contains(pos) or not self._series:
            self.hover.hide()
            return
        pt = vb.mapSceneToView(pos)
        x = int(round(pt.x()))
        lines = []
        for name, values in self._series.items():
            if 0 <= x < len(values) and _ok(values[x]):
                lines.append(f"{name}: {values[x]:.3f}")
        if not lines:
            self.hover.hide()
            return
        self.hover.setText(_("after event {n}").format(n=x) + "\n" + "\n".join(lines))
        self.hover.setPos(pt.x(), pt.y())
        self.hover.show()


def event_tick_step(last: int, max_ticks: int = 8) -> int:
    """Spacing of the event axis's ticks for events 0..``last``: a whole number 1, 2 or 5 times
    a power of ten, the smallest giving at most ``max_ticks`` intervals (labels such as 0, 500,
    1000 stay apart and readable where 0, 201, 402 ran into each other)."""
    raw = max(1.0, last / max_ticks)
    power = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 5, 10):
        if m * power >= raw:
            return int(m * power)
    return int(10 * power)


def _ok(v) -> bool:
    return v is not None and isinstance(v, (int, float)) and math.isfinite(v)


def _finite_values(values: Sequence) -> np.ndarray:
    """``values`` as a float array, shape (len,), with NaN where a value is missing (None),
    not a number or not finite."""
    try:
        arr = np.array(values, dtype=float)
    except (TypeError, ValueError):     # None or another non-number among them
        try:
            # None read as NaN by numpy itself: a log's series start with None (no value
            # before the first event), and the test of every value in Python below took 2 ms
            # a series of 5,000 (20 of them in a Spyfall log's plot)
            arr = np.array(values, dtype=object).astype(float)
        except (TypeError, ValueError):
            arr = np.array([float(v) if _ok(v) else np.nan for v in values], dtype=float)
    arr[~np.isfinite(arr)] = np.nan
    return arr
