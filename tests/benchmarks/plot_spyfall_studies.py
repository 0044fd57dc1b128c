"""Draw the figures of docs/spyfall-calibration.md and docs/spyfall-equilibrium.md from the stored
studies (resources/spyfall/calibration.json, equilibrium.json) with pyqtgraph's ImageExporter.

    python -m engines.spyfall.equilibrium      # writes resources/spyfall/equilibrium.json
    python -m engines.spyfall.calibration      # writes resources/spyfall/calibration.json
    QT_QPA_PLATFORM=offscreen python tests/benchmarks/plot_spyfall_studies.py [--out docs/figures]
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pyqtgraph as pg  # noqa: E402 (after the set-up above)
import pyqtgraph.exporters  # noqa: E402 (imported after the set-up above, for its side effect)
from PySide6 import QtCore, QtGui, QtWidgets  # noqa: E402 (after the set-up above)

from engines.core.resources import load_json_resource  # noqa: E402 (after the set-up above)

COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"]


def _plot(title, xlabel, ylabel):
    pw = pg.PlotWidget(background="w")
    pw.resize(760, 480)
    pi = pw.getPlotItem()
    pi.setTitle(title, color="k", size="12pt")
    pi.setLabel("bottom", xlabel, color="k")
    pi.setLabel("left", ylabel, color="k")
    pi.showGrid(x=True, y=True, alpha=0.3)
    pi.addLegend(offset=(-10, 10), labelTextColor="k", brush=pg.mkBrush(255, 255, 255, 220))
    for ax in ("left", "bottom"):
        pi.getAxis(ax).setTextPen("k")
        pi.getAxis(ax).setPen("k")
        pi.getAxis(ax).enableAutoSIPrefix(False)
    return pw, pi


def _export(pw, path):
    pg.QtWidgets.QApplication.processEvents()
    ex = pg.exporters.ImageExporter(pw.getPlotItem())
    ex.parameters()["width"] = 1000
    ex.export(str(path))
    print("wrote", path)


def calibration_figures(out: Path) -> None:
    res = load_json_resource("spyfall", "calibration.json")
    names = [k for k in res if isinstance(res[k], dict) and "log_loss" in res[k]]
    pw, pi = _plot("Public spy posterior from grid-entered claims: log loss against w",
                   "claim weight w (log scale)", "log loss, nats per claim")
    pi.setLogMode(x=True, y=False)
    ticks = (0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0)
    pi.getAxis("bottom").setTicks([[(np.log10(t), f"{t:g}") for t in ticks], []])
    for i, n in enumerate(names):
        r = res[n]
        label = f"λ = {r['lambda']:g} {r['strategy']}" + (" (the tab's default)" if n == "default" else "")
        pi.plot(r["w"], r["log_loss"], pen=pg.mkPen(COLOURS[i], width=2), symbol="o",
                symbolBrush=COLOURS[i], symbolSize=6, name=label)
        best = r["w"].index(r["best_w"])
        pi.plot([r["best_w"]], [r["log_loss"][best]], pen=None, symbol="star", symbolSize=18,
                symbolBrush=COLOURS[i], name=f"best w = {r['best_w']:g}")
    d = res["default"]
    pi.addLine(y=d["uniform_log_loss"], pen=pg.mkPen("k", style=QtCore.Qt.DashLine))
    pi.addLine(y=d["exact_log_loss"], pen=pg.mkPen("#777", style=QtCore.Qt.DotLine))
    pi.plot([], [], pen=pg.mkPen("k", style=QtCore.Qt.DashLine), name="uniform guess, log 5")
    pi.plot([], [], pen=pg.mkPen("#777", style=QtCore.Qt.DotLine),
            name="exact claims, w = 1 (default model)")
    pi.setYRange(1.0, min(4.0, max(d["log_loss"]) + 0.2))
    _export(pw, out / "spyfall-calibration-logloss.png")

    pw, pi = _plot(f"Reliability of the public spy belief (λ = {d['lambda']:g}, grid claims)",
                   "predicted P(player is the spy)", "observed frequency")
    pi.plot([0, 1], [0, 1], pen=pg.mkPen("#999", style=QtCore.Qt.DashLine), name="perfect")
    for i, (key, label) in enumerate((("1", "w = 1 (“Spyfall with Pyro”'s model)"),
                                      ("best", f"w = {d['best_w']:g} (calibrated)"))):
        rows = d["reliability"][key]
        x = np.array([r["mean_predicted"] for r in rows])
        y = np.array([r["observed"] for r in rows])
        lo = np.array([r["ci95"][0] for r in rows])
        hi = np.array([r["ci95"][1] for r in rows])
        pi.addItem(pg.ErrorBarItem(x=x, y=y, top=hi - y, bottom=y - lo, beam=0.01,
                                   pen=pg.mkPen(COLOURS[i])))
        pi.plot(x, y, pen=pg.mkPen(COLOURS[i], width=2), symbol="o", symbolBrush=COLOURS[i],
                name=label)
    pi.setXRange(0, 1)
    pi.setYRange(0, 1)
    _export(pw, out / "spyfall-calibration-reliability.png")


def equilibrium_figures(out: Path) -> None:
    res = load_json_resource("spyfall", "equilibrium.json")
    study = res["win_rate_study"]
    beta = 5.0
    pw, pi = _plot(f"Non-spy win rate, every seat flat with β = {beta:g} (Wilson 95%)",
                   "non-spies' λ", "non-spy win rate")
    votes = list(dict.fromkeys((r["vote"], r["threshold"]) for r in study))
    for i, (v, thr) in enumerate(votes):
        rows = [r for r in study if r["vote"] == v and r["threshold"] == thr and r["beta"] == beta]
        x = np.array([r["lambda"] for r in rows])
        y = np.array([r["non_spy_win_rate"] for r in rows])
        lo = np.array([r["ci95"][0] for r in rows])
        hi = np.array([r["ci95"][1] for r in rows])
        label = "vote after 5 rounds" if v == "end" else f"early vote, {v} spy belief ≥ {thr:g}"
        pi.addItem(pg.ErrorBarItem(x=x + 0.004 * i, y=y, top=hi - y, bottom=y - lo, beam=0.01,
                                   pen=pg.mkPen(COLOURS[i])))
        pi.plot(x + 0.004 * i, y, pen=pg.mkPen(COLOURS[i], width=2), symbol="o",
                symbolBrush=COLOURS[i], name=label)
    pi.setYRange(0, 0.5)
    _export(pw, out / "spyfall-win-rate.png")

    A = np.array(res["non_spy_win_rate"])
    ns, sp = res["non_spy_strategies"], res["spy_strategies"]
    eq = res["equilibrium"]
    pw = pg.PlotWidget(background="w")
    pw.resize(1500, 800)
    pi = pw.getPlotItem()
    pi.setTitle(f"Non-spy win rate: non-spies (rows) × spy (columns); value {eq['value']:.3f} "
                f"({eq['value_ci95'][0]:.3f}–{eq['value_ci95'][1]:.3f})", color="k", size="12pt")
    img = pg.ImageItem(A.T)  # ImageItem: first axis is x
    img.setColorMap(pg.colormap.get("viridis"))
    img.setLevels([0, max(0.5, float(A.max()))])
    pi.addItem(img)
    pi.invertY(True)
    def tick(l, s, p):
        return f"{s.replace('dynamic', 'dyn.')} {l:g}" + (f" (p {p:.2f})" if p > 0.005 else "")

    pi.getAxis("bottom").setTicks([[(j + 0.5, tick(l, s, m["probability"]))
                                    for j, ((l, s), m) in enumerate(zip(sp, eq["spy"]))]])
    pi.getAxis("left").setTicks([[(i + 0.5, tick(l, s, m["probability"]))
                                  for i, ((l, s), m) in enumerate(zip(ns, eq["non_spy"]))]])
    small = QtGui.QFont()
    small.setPointSize(7)
    for ax in ("left", "bottom"):
        pi.getAxis(ax).setTextPen("k")
        pi.getAxis(ax).setStyle(tickFont=small, autoExpandTextSpace=True, hideOverlappingLabels=False)
    pi.getAxis("left").setWidth(130)
    pi.setLabel("bottom", "spy's λ_s and strategy (dyn. = dynamic; its claims are read with the table's model)",
                color="k")
    pi.setLabel("left", "non-spies' λ and strategy", color="k")
    font = QtGui.QFont()
    font.setPointSize(8)
    for i in range(A.shape[0]):
        for j in range(A.shape[1]):
            t = pg.TextItem(f"{A[i, j]:.2f}", color="w" if A[i, j] < 0.3 else "k", anchor=(0.5, 0.5))
            t.setFont(font)
            t.setPos(j + 0.5, i + 0.5)
            pi.addItem(t)
    # the equilibrium: a red frame on every cell both mixed strategies play
    for i, mi in enumerate(eq["non_spy"]):
        for j, mj in enumerate(eq["spy"]):
            if mi["probability"] > 0.005 and mj["probability"] > 0.005:
                r = QtWidgets.QGraphicsRectItem(j + 0.04, i + 0.04, 0.92, 0.92)
                r.setPen(pg.mkPen("r", width=4))
                pi.addItem(r)
    pi.setXRange(0, A.shape[1], padding=0)
    pi.setYRange(0, A.shape[0], padding=0)
    _export(pw, out / "spyfall-equilibrium.png")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out", default=str(ROOT / "docs" / "figures"))
    a = p.parse_args()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    pg.mkQApp()
    calibration_figures(out)
    equilibrium_figures(out)


if __name__ == "__main__":
    main()
