"""The Egghead simulation panel: Zorn's (2024) experiment (section 5) run in a background runner,
with a progress bar, cancel, the CDFs (pyqtgraph) and the table of mean, variance and win
probability, next to Zorn's (2024) own figures.
"""
from __future__ import annotations

import functools
import math
import os
from typing import NamedTuple, Optional

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QSpinBox,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from desktop.widgets.belief_plot import PALETTE
from desktop.widgets.columns import CONTENTS, Column, ColumnTable
from desktop.widgets.flow import described_group, field_pairs
from desktop.widgets.simulation import SimulationPanelBase
from engines import egghead
from engines.core.errors import SessionFormatError

SEED_TABLE = "Zorn 2024 (its own 23-question deck, 1 analysing player): without analysis " \
             "9.78 rounds (variance 29.3), with analysis 6.16 (variance 14.0)."
#: Zorn's (2024) mean rounds to solve once (section 5), per mode, for 1 analysing player.
SEED_MEAN = {"with analysis": 6.16, "without": 9.78}


class ResultRow(NamedTuple):
    """A row of the results table: one mode of one game."""

    analysing: int                 # players using behavioural analysis in that game
    mode: str                      # "with analysis" or "without"
    stats: object                  # engines.egghead ModeStats of the mode
    win: Optional[float]           # P(one player of this mode is first to the target points)
    players: int                   # players of the game


RESULT_COLUMNS = (
    Column("Analysing", lambda r: f"{r.analysing} of {r.players}", sort_key=lambda r: r.analysing,
           header_tooltip="players using behavioural analysis in this game"),
    Column("Mode", lambda r: r.mode, resize=CONTENTS, header_tooltip="the players of this mode"),
    Column("Solves", lambda r: r.stats.n, numeric=True, header_tooltip="observations (solves) of X"),
    Column("Mean", lambda r: r.stats.mean, numeric=True, format=lambda v: f"{v:.2f}",
           header_tooltip="mean rounds needed to solve once"),
    Column("Variance", lambda r: r.stats.variance, numeric=True, format=lambda v: f"{v:.1f}",
           header_tooltip="variance of X (rounds²)"),
    Column("Wins", lambda r: r.win, numeric=True, format=lambda v: f"{100 * v:.1f}%",
           header_tooltip="P(one player of this mode is first to the target points), ties "
                          "counting for all"),
    Column("Seed mean", lambda r: SEED_MEAN[r.mode] if r.analysing == 1 else "", numeric=True,
           format=lambda v: v if isinstance(v, str) else f"{v:.2f}",
           sort_key=lambda r: SEED_MEAN[r.mode] if r.analysing == 1 else None,
           header_tooltip="Zorn's (2024) table (its own deck, 1 analysing)"),
)


def _simulate_job(kwargs, task):
    # one game per ticked number of analysing players: several games run in worker processes
    workers = min(len(kwargs.get("analysing", ())), os.cpu_count() or 1)
    return egghead.simulate(egghead.SimConfig(**kwargs, workers=max(workers, 1)),
                            progress=task.progress, cancel=task)


class SimulationPanel(SimulationPanelBase):
    """Run :func:`engines.egghead.simulate` off the GUI thread and show its results.

    Args:
        runner: an :class:`desktop.tabs.jobs.JobRunner` (the tab's ``make_runner``).

    Signals:
        finished(object result): a simulation completed (the SimulationResult).
    """

    FAILURE = "Cannot simulate"

    def __init__(self, runner, parent=None):
        super().__init__(runner, parent)
        root = QVBoxLayout(self)
        root.setContentsMargins(6, 6, 6, 6)
        root.addWidget(self._build_form())
        split = QSplitter(Qt.Orientation.Horizontal)
        root.addWidget(split, 1)
        self.table = ColumnTable(RESULT_COLUMNS, stretch=True, sortable=True, select_rows=False,
                                 tooltip="Click a header to sort; Ctrl+C copies the table")
        split.addWidget(self.table)
        split.addWidget(self._build_plots())
        split.setSizes([520, 700])

    def _build_form(self) -> QGroupBox:
        """The experiment's settings, the analysing players, Run / Cancel, progress, status."""
        box, outer = described_group(
            "Simulate Zorn's (2024) experiment", "Rounds a player needs to solve, with and without "
            "behavioural analysis (external moderator, the whole deck).")
        grid = QGridLayout()
        outer.addLayout(grid)
        self.players = self._spin(3, 6, 4, "players")
        self.values = self._spin(2, 9, 6, "card values 1..v")
        self.cards = self._spin(1, 6, 3, "cards per player")
        self.rounds = self._spin(1, 100000, 300, "rounds (questions) per game; Zorn (2024) uses 1000")
        self.target = self._spin(1, 100, 10, "points for the target CDF and the win probability")
        self.seed = self._spin(0, 10 ** 9, 0, "random seed (reproducible)")
        fields = [("Players", self.players), ("Values", self.values), ("Cards", self.cards),
                  ("Rounds", self.rounds), ("Target points", self.target), ("Seed", self.seed)]
        grid.addLayout(field_pairs(fields), 0, 0, 1, 12)   # pairs that wrap when narrow
        grid.addWidget(QLabel("Analysing players:"), 1, 0, 1, 2)
        self.analysing_row = QHBoxLayout()
        grid.addLayout(self.analysing_row, 1, 2, 1, 6)
        self.analysing: dict[int, QCheckBox] = {}
        self.players.valueChanged.connect(self._players_changed)
        self._players_changed()
        grid.addWidget(self.run_button, 1, 8, 1, 2)
        grid.addWidget(self.cancel_button, 1, 10, 1, 2)
        self.progress.setFormat("%v of %m rounds, all games")   # rounds × games ticked
        grid.addWidget(self.progress, 2, 0, 1, 8)
        grid.addWidget(self.run_on, 2, 8, 1, 4)
        self.status.setText(SEED_TABLE)
        grid.addWidget(self.status, 3, 0, 1, 12)
        return box

    def _build_plots(self) -> QWidget:
        """The two CDF plots: one solve, the target points."""
        plots = QWidget()
        pl = QVBoxLayout(plots)
        pl.setContentsMargins(0, 0, 0, 0)
        pg.setConfigOptions(antialias=True, background="w", foreground="k")
        self.ecdf_plot = self._plot("Empirical CDF: rounds needed to solve once", "rounds")
        self.target_plot = self._plot("CDF of the rounds needed for the target points "
                                      "(convolution)", "rounds")
        pl.addWidget(self.ecdf_plot, 1)
        pl.addWidget(self.target_plot, 1)
        return plots

    @staticmethod
    def _spin(lo, hi, value, tip) -> QSpinBox:
        s = QSpinBox()
        s.setRange(lo, hi)
        s.setValue(value)
        s.setToolTip(tip)
        return s

    @staticmethod
    def _plot(title: str, x_label: str) -> pg.PlotWidget:
        w = pg.PlotWidget(title=title)
        w.setMinimumHeight(120)
        w.showGrid(x=True, y=True, alpha=0.25)
        w.setLabel("bottom", x_label)
        w.setLabel("left", "P(X ≤ x)")
        for side in ("left", "bottom"):   # plain numbers, no "x0.001" factor in the label
            w.getAxis(side).enableAutoSIPrefix(False)
        w.setYRange(0, 1, padding=0.02)
        w.setMenuEnabled(False)
        w.hideButtons()
        legend = w.addLegend(offset=(-5, -5), labelTextSize="8pt")
        legend.setBrush(pg.mkBrush(255, 255, 255, 200))
        return w

    def _players_changed(self, *_a) -> None:
        n = self.players.value()
        old = {a: b.isChecked() for a, b in self.analysing.items()}
        while self.analysing_row.count():
            w = self.analysing_row.takeAt(0).widget()
            if w is not None:
                w.deleteLater()
        self.analysing = {}
        for a in range(n + 1):
            b = QCheckBox(str(a))
            b.setToolTip(f"one game where {a} of the {n} players use behavioural analysis")
            b.setChecked(old.get(a, a == 1))
            self.analysing_row.addWidget(b)
            self.analysing[a] = b
        self.analysing_row.addStretch(1)

    def set_analysing(self, counts) -> None:
        """Tick exactly the numbers of analysing players in ``counts``."""
        for a, b in self.analysing.items():
            b.setChecked(a in counts)

    def options(self) -> dict:
        """The simulate() keyword arguments from the form."""
        return {"players": self.players.value(), "values": self.values.value(),
                "cards_per_player": self.cards.value(), "rounds": self.rounds.value(),
                "analysing": tuple(a for a, b in self.analysing.items() if b.isChecked()),
                "seed": self.seed.value(), "target_points": self.target.value()}

    # -- running (SimulationPanelBase) ------------------------------------------------------
    def prepare(self):
        opts = self.options()
        if not opts["analysing"]:
            raise SessionFormatError("--analysing", "tick at least one number of analysing "
                                                    "players.")
        opts = dict(opts, scheduler=self.scheduler())
        return (functools.partial(_simulate_job, opts), opts["rounds"] * len(opts["analysing"]),
                f"Simulating {len(opts['analysing'])} game(s) of {opts['rounds']} rounds…")

    def present(self, result, seconds: float) -> None:
        self.show_result(result)
        pooled = []
        for name, st in (("with analysis", result.pooled_ba), ("without", result.pooled_no_ba)):
            if st is not None:
                pooled.append(f"{name} {_num(st.mean, 2)} rounds (variance {_num(st.variance, 1)})")
        self.status.setText(f"Done in {seconds:.1f} s: {result.rounds} rounds per game, "
                            f"{len(result.questions)} questions. Pooled here: "
                            f"{'; '.join(pooled) or 'nobody solved'}. {SEED_TABLE} The decks "
                            f"differ (which questions, how sharp), so compare the gap between the "
                            f"modes rather than the levels.")

    def rows(self) -> list[ResultRow]:
        """The table's rows: per game, with analysis then without (a mode nobody played is
        left out)."""
        out = []
        n = self.result.players if self.result else 0
        for c in (self.result.configs if self.result else ()):
            for mode, st in (("with analysis", c.ba), ("without", c.no_ba)):
                if st is None:
                    continue
                player = 0 if mode == "with analysis" else c.analysing
                win = c.win_probabilities[player] if player < n and c.win_probabilities else None
                out.append(ResultRow(c.analysing, mode, st, win, n))
        return out

    def show_result(self, result) -> None:
        """Fill the table and the two CDF plots from a SimulationResult."""
        self.result = result
        rows = self.rows()
        self.table.set_rows(rows)
        for plot, attr in ((self.ecdf_plot, "ecdf"), (self.target_plot, "cdf_target")):
            plot.clear()
            for row in rows:
                pts = getattr(row.stats, attr)
                if not pts:
                    continue
                xs = [float(x) for x, _ in pts]
                ys = [float(y) for _, y in pts]
                color = PALETTE[row.analysing % len(PALETTE)]  # one colour per game, dashed: no analysis
                style = Qt.SolidLine if row.mode == "with analysis" else Qt.DashLine
                plot.plot(xs + [xs[-1] + 1], ys, stepMode="center",
                          pen=pg.mkPen(color, width=2, style=style),
                          name=f"{row.analysing} analysing, {row.mode}")
            plot.setYRange(0, 1, padding=0.02)


def _num(x, digits: int) -> str:
    return "–" if x is None or not math.isfinite(x) else f"{x:.{digits}f}"
