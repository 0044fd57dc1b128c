"""Belief-evolution plot (pyqtgraph): x = event number, y = probability or bits.

One line per tracked hypothesis, with a legend; moving the mouse shows the values at the
nearest event; a vertical marker shows the event whose beliefs are on screen. The tab calls
:meth:`set_series` with the whole timeline after each result, so the plot follows undo/redo.
"""
from __future__ import annotations

import math
from typing import Mapping, Optional, Sequence

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b",
           "#e377c2", "#7f7f7f", "#bcbd22"]


class BeliefPlot(QWidget):
    """A titled pyqtgraph plot of named series over event numbers.

    Args:
        title: shown above the plot.
        y_label: e.g. "probability" or "bits".
        y_range: fixed (min, max) or None to auto-range.
        log_y: logarithmic y axis (e.g. counts of valid stacks).
        legend_at: ``"top-right"`` (default) or ``"bottom-right"`` (for curves that rise
            towards 1, such as a top probability).
    """

    def __init__(self, title: str = "Beliefs after each event", y_label: str = "probability",
                 y_range: Optional[tuple] = (0.0, 1.0), log_y: bool = False, parent=None,
                 legend_at: str = "top-right"):
        super().__init__(parent)
        pg.setConfigOptions(antialias=True, background="w", foreground="k")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.title = QLabel(f"<b>{title}</b>")
        self.title.setWordWrap(True)
        layout.addWidget(self.title)
        self.plot = pg.PlotWidget()
        self.plot.setMinimumHeight(150)
        self.plot.showGrid(x=True, y=True, alpha=0.25)
        self.plot.setLabel("bottom", "event")
        self.plot.setLabel("left", y_label)
        self.plot.setMouseEnabled(x=False, y=False)
        self.plot.hideButtons()
        self.plot.setMenuEnabled(False)
        if log_y:
            self.plot.setLogMode(y=True)
        self._y_range = y_range
        if y_range:
            self.plot.setYRange(*y_range, padding=0.02)
        self.legend = self.plot.addLegend(offset=(-5, -5 if legend_at == "bottom-right" else 5),
                                          labelTextSize="8pt")
        self.legend.setBrush(pg.mkBrush(255, 255, 255, 200))
        layout.addWidget(self.plot)
        self._series: dict[str, list] = {}
        self._curves: dict[str, pg.PlotDataItem] = {}
        self.marker = pg.InfiniteLine(angle=90, movable=False,
                                      pen=pg.mkPen(QColor(120, 120, 120), style=Qt.DashLine))
        self.plot.addItem(self.marker)
        self.marker.hide()
        self.hover = pg.TextItem(anchor=(0, 1), color="k", fill=pg.mkBrush(255, 255, 230, 230),
                                 border=pg.mkPen(180, 180, 180))
        self.hover.setZValue(100)
        self.plot.addItem(self.hover, ignoreBounds=True)
        self.hover.hide()
        self._proxy = pg.SignalProxy(self.plot.scene().sigMouseMoved, rateLimit=30, slot=self._mouse)

    def set_series(self, series: Mapping[str, Sequence[Optional[float]]]) -> None:
        """Replace the plotted data: name -> value after event 0, 1, 2, ... (None = gap)."""
        self._series = {k: list(v) for k, v in series.items()}
        for name in list(self._curves):
            if name not in self._series:
                self.plot.removeItem(self._curves.pop(name))
                self.legend.removeItem(name)
        for i, (name, values) in enumerate(self._series.items()):
            xs = [x for x, v in enumerate(values) if _ok(v)]
            ys = [float(v) for v in values if _ok(v)]
            if name not in self._curves:
                color = PALETTE[len(self._curves) % len(PALETTE)]
                self._curves[name] = self.plot.plot([], [], pen=pg.mkPen(color, width=2), name=name,
                                                    symbol="o", symbolSize=5, symbolBrush=color,
                                                    symbolPen=None)
            self._curves[name].setData(xs, ys)
        n = max((len(v) for v in self._series.values()), default=1)
        self.plot.setXRange(0, max(1, n - 1), padding=0.03)
        step = max(1, math.ceil((n - 1) / 10))  # whole event numbers only
        self.plot.getAxis("bottom").setTickSpacing(step, step)
        if self._y_range:
            self.plot.setYRange(*self._y_range, padding=0.02)

    def series(self) -> dict:
        return {k: list(v) for k, v in self._series.items()}

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
        self.hover.setText(f"after event {x}\n" + "\n".join(lines))
        self.hover.setPos(pt.x(), pt.y())
        self.hover.show()


def _ok(v) -> bool:
    return v is not None and isinstance(v, (int, float)) and math.isfinite(v)
