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

from desktop.shell.locale_format import number, percent
from desktop.widgets.belief_plot import PALETTE, plain_axes
from desktop.widgets.columns import CONTENTS, Column, ColumnTable
from desktop.widgets.flow import described_group, field_pairs
from desktop.widgets.simulation import SimulationPanelBase
from engines import egghead
from engines.core.errors import SessionFormatError
from engines.core.i18n import N_, _, ngettext

SEED_TABLE = N_("Zorn 2024 (its own 23-question deck, 1 analysing player): without analysis "
                "9.78 rounds (variance 29.3), with analysis 6.16 (variance 14.0).")
#: The two modes of a game (keys; shown translated).
WITH, WITHOUT = N_("with analysis"), N_("without")
#: Zorn's (2024) mean rounds to solve once (section 5), per mode, for 1 analysing player.
SEED_MEAN = {WITH: 6.16, WITHOUT: 9.78}


class ResultRow(NamedTuple):
    """A row of the results table: one mode of one game."""

    analysing: int                 # players using behavioural analysis in that game
    mode: str                      # "with analysis" or "without"
    stats: object                  # engines.egghead ModeStats of the mode
    win: Optional[float]           # P(one player of this mode is first to the target points)
    players: int                   # players of the game


def result_columns() -> tuple:
    """The results table's columns, in the language in effect."""
    return (
        Column(_("Analysing"), lambda r: _("{n} of {players}").format(n=r.analysing, players=r.players),
               sort_key=lambda r: r.analysing, header_tooltip=_("players using behavioural analysis in this game")),
        Column(_("Mode"), lambda r: _(r.mode), resize=CONTENTS, header_tooltip=_("the players of this mode")),
        Column(_("Solves"), lambda r: r.stats.n, numeric=True, header_tooltip=_("observations (solves) of X")),
        Column(_("Mean"), lambda r: r.stats.mean, numeric=True, format=lambda v: number(v, 2),
               header_tooltip=_("mean rounds needed to solve once")),
        Column(_("Variance"), lambda r: r.stats.variance, numeric=True, format=lambda v: number(v, 1),
               header_tooltip=_("variance of X (rounds²)")),
        Column(_("Wins"), lambda r: r.win, numeric=True, format=lambda v: percent(v, 1),
               header_tooltip=_("P(one player of this mode is first to the target points), ties "
                                "counting for all")),
        Column(_("Seed mean"), lambda r: SEED_MEAN[r.mode] if r.analysing == 1 else "", numeric=True,
               format=lambda v: v if isinstance(v, str) else number(v, 2),
               sort_key=lambda r: SEED_MEAN[r.mode] if r.analysing == 1 else None,
               header_tooltip=_("Zorn's (2024) table (its own deck, 1 analysing)")),
    )


#: The results table's columns (English; the panel builds them in the language in effect).
RESULT_COLUMNS = result_columns()


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

    FAILURE = N_("Cannot simulate")

    def __init__(self, runner, parent=None):
        super().__init__(runner, parent)
        root = QVBoxLayout(self)
        root.setContentsMargins(6, 6, 6, 6)
        root.addWidget(self._build_form())
        split = QSplitter(Qt.Orientation.Horizontal)
        root.addWidget(split, 1)
        self.table = ColumnTable(result_columns(), stretch=True, sortable=True, select_rows=False,
                                 tooltip=_("Click a header to sort; Ctrl+C copies the table"))
        split.addWidget(self.table)
        split.addWidget(self._build_plots())
        split.setSizes([520, 700])

    def _build_form(self) -> QGroupBox:
        """The experiment's settings, the analysing players, Run / Cancel, progress, status."""
        box, outer = described_group(
            _("Simulate Zorn's (2024) experiment"), _("Rounds a player needs to solve, with and without "
                                                      "behavioural analysis (external moderator, the whole deck)."))
        grid = QGridLayout()
        outer.addLayout(grid)
        self.players = self._spin(3, 6, 4, _("players"))
        self.values = self._spin(2, 9, 6, _("card values 1..v"))
        self.cards = self._spin(1, 6, 3, _("cards per player"))
        self.rounds = self._spin(1, 100000, 300, _("rounds (questions) per game; Zorn (2024) uses 1000"))
        self.target = self._spin(1, 100, 10, _("points for the target CDF and the win probability"))
        self.seed = self._spin(0, 10 ** 9, 0, _("random seed (reproducible)"))
        fields = [(_("Players"), self.players), (_("Values"), self.values), (_("Cards"), self.cards),
                  (_("Rounds"), self.rounds), (_("Target points"), self.target), (_("Seed"), self.seed)]
        grid.addLayout(field_pairs(fields), 0, 0, 1, 12)   # pairs that wrap when narrow
        grid.addWidget(QLabel(_("Analysing players:")), 1, 0, 1, 2)
        self.analysing_row = QHBoxLayout()
        grid.addLayout(self.analysing_row, 1, 2, 1, 6)
        self.analysing: dict[int, QCheckBox] = {}
        self.players.valueChanged.connect(self._players_changed)
        self._players_changed()
        grid.addWidget(self.run_button, 1, 8, 1, 2)
        grid.addWidget(self.cancel_button, 1, 10, 1, 2)
        self.progress.setFormat(_("%v of %m rounds, all games"))   # rounds × games ticked
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
        self.ecdf_plot = self._plot(_("Empirical CDF: rounds needed to solve once"), _("rounds"))
        self.target_plot = self._plot(_("CDF of the rounds needed for the target points "
                                        "(convolution)"), _("rounds"))
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
        w = pg.PlotWidget(title=title, axisItems=plain_axes())
        w.setMinimumHeight(120)
        w.showGrid(x=True, y=True, alpha=0.25)
        w.setLabel("bottom", x_label)
        w.setLabel("left", "P(X ≤ x)")
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
            b.setToolTip(_("one game where {a} of the {n} players use behavioural analysis").format(a=a, n=n))
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
            raise SessionFormatError("--analysing", _("tick at least one number of analysing "
                                                      "players."))
        opts = dict(opts, scheduler=self.scheduler())
        return (functools.partial(_simulate_job, opts), opts["rounds"] * len(opts["analysing"]),
                ngettext("Simulating {n} game of {rounds} rounds…", "Simulating {n} games of {rounds} rounds…",
                         len(opts["analysing"])).format(n=len(opts["analysing"]), rounds=opts["rounds"]))

    def present(self, result, seconds: float) -> None:
        self.show_result(result)
        pooled = []
        for name, st in ((WITH, result.pooled_ba), (WITHOUT, result.pooled_no_ba)):
            if st is not None:
                pooled.append(_("{mode} {mean} rounds (variance {variance})").format(
                    mode=_(name), mean=_num(st.mean, 2), variance=_num(st.variance, 1)))
        self.status.setText(_("Done in {seconds} s: {rounds} rounds per game, {questions} questions. Pooled "
                              "here: {pooled}. {seed} The decks differ (which questions, how sharp), so "
                              "compare the gap between the modes rather than the levels.").format(
            seconds=number(seconds, 1), rounds=result.rounds, questions=len(result.questions),
            pooled="; ".join(pooled) or _("nobody solved"), seed=_(SEED_TABLE)))

    def rows(self) -> list[ResultRow]:
        """The table's rows: per game, with analysis then without (a mode nobody played is
        left out)."""
        out = []
        n = self.result.players if self.result else 0
        for c in (self.result.configs if self.result else ()):
            for mode, st in ((WITH, c.ba), (WITHOUT, c.no_ba)):
                if st is None:
                    continue
                player = 0 if mode == WITH else c.analysing
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
                xs = [float(x) for x, _y in pts]
                ys = [float(y) for _x, y in pts]
                color = PALETTE[row.analysing % len(PALETTE)]  # one colour per game, dashed: no analysis
                style = Qt.SolidLine if row.mode == WITH else Qt.DashLine
                plot.plot(xs + [xs[-1] + 1], ys, stepMode="center",
                          pen=pg.mkPen(color, width=2, style=style),
                          name=_("{n} analysing, {mode}").format(n=row.analysing, mode=_(row.mode)))
            plot.setYRange(0, 1, padding=0.02)


def _num(x, digits: int) -> str:
    return "–" if x is None or not math.isfinite(x) else number(x, digits)
