"""The Spyfall simulation panel: a bot tournament (:func:`engines.spyfall.simulate`) run in a
background runner with a progress bar and cancel; win rates per strategy as spy and as non-spy
with Wilson 95% intervals, accusation accuracy, and the mean information-gain curves; and the
stored hide-reveal game as a heat map with its equilibrium
(:class:`desktop.games.spyfall.equilibrium_view.EquilibriumView`).
"""
from __future__ import annotations

import functools
import os
from typing import NamedTuple

from PySide6.QtCore import Qt, Slot
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QGridLayout,
    QGroupBox,
    QRadioButton,
    QSpinBox,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
)

from desktop.games.spyfall.equilibrium_view import EquilibriumView
from desktop.games.spyfall.forms import STRATEGY_LABELS, strategy_label
from desktop.shell.locale_format import number, percent
from desktop.table.zoom import scaled_size
from desktop.widgets.belief_plot import BeliefPlot
from desktop.widgets.columns import Column, ColumnTable
from desktop.widgets.flow import FlowLayout, described_group, field_pairs
from desktop.widgets.simulation import SimulationPanelBase
from engines import spyfall
from engines.core.i18n import N_, _, ngettext
from engines.spyfall.model import DEFAULT_BETA, DEFAULT_LAMBDA, DEFAULT_ROUNDS, STRATEGIES


def _simulate_job(config, task):
    return spyfall.simulate(config, progress=task.progress, cancel=task)


def _pct(x: float) -> str:
    return percent(x, 1)


class ResultRow(NamedTuple):
    """A row of the tournament table: one strategy in one role."""

    strategy: str
    role: str              # "as spy" or "as non-spy"
    win_rate: float        # of the team of a seat playing the strategy
    ci95: tuple            # its Wilson 95% interval (low, high)
    count: int             # games (as spy) or seats (as non-spy) it played


def result_columns() -> tuple:
    """The result table's columns, in the language in effect."""
    return (
        Column(_("Strategy"), lambda r: r.strategy, tooltip=lambda r: strategy_label(r.strategy)),
        Column(_("Role"), lambda r: _(r.role)),
        Column(_("Win rate"), lambda r: r.win_rate if r.count else None, numeric=True, format=_pct),
        Column(_("95 % interval"), lambda r: r.ci95 if r.count else None, numeric=True,
               format=lambda ci: f"{_pct(ci[0])} – {_pct(ci[1])}",
               header_tooltip=_("Wilson score interval of the win rate")),
        Column(_("Games"), lambda r: r.count, numeric=True, format=number,
               header_tooltip=_("games played as the spy; seats played as a non-spy")),
    )


#: The result table's columns (English; the panel builds them in the language in effect).
RESULT_COLUMNS = result_columns()


class SimulationPanel(SimulationPanelBase):
    """Pick a strategy per seat (or a random draw), run N games off the GUI thread, show results.

    Args:
        runner: an :class:`desktop.tabs.jobs.JobRunner` (from the tab's ``make_runner``).

    Signals:
        finished(object result): a tournament completed (the :class:`engines.spyfall.SimResult`).
    """

    RUN_TEXT = N_("Run tournament")

    def __init__(self, runner, parent=None):
        super().__init__(runner, parent)
        self.config = None
        self._table_due = None      # a table given while hidden (set_table)
        root = QVBoxLayout(self)
        root.setContentsMargins(6, 6, 6, 6)
        root.addWidget(self._build_form())
        self.seat_combos: list[QComboBox] = []
        self.players.valueChanged.connect(self._players_changed)
        self._players_changed()
        self.fixed.toggled.connect(self._mode_changed)
        self._mode_changed()
        self.results = QTabWidget()
        root.addWidget(self.results, 1)
        self.equilibrium = EquilibriumView(load_when_shown=True)
        self.results.addTab(self.equilibrium, _("Equilibrium of the hide-reveal game (stored study)"))
        self.tournament_page = self._build_tournament_page()
        self.results.addTab(self.tournament_page, _("Tournament results"))
        self.results.currentChanged.connect(self._results_page_shown)

    def _build_form(self) -> QGroupBox:
        """The tournament's settings, the seats' strategies, Run / Cancel, progress, status."""
        box, outer = described_group(
            _("Bot tournament"), _("Every bot does the exact Bayes update; after the rounds each votes "
                                   "for its most likely spy and the spy names its most likely location."))
        grid = QGridLayout()
        outer.addLayout(grid)
        # the numbers as (label, field) pairs that wrap: the form fits a narrow or zoomed window
        grid.addLayout(field_pairs(self._build_fields()), 0, 0, 1, 16)
        self.fixed = QRadioButton(_("Strategy per seat:"))
        self.drawn = QRadioButton(_("Draw every seat at random from:"))
        group = QButtonGroup(self)
        group.addButton(self.fixed)
        group.addButton(self.drawn)
        self.fixed.setChecked(True)
        grid.addWidget(self.fixed, 1, 0, 1, 2)
        self.seats_row = FlowLayout()        # up to 12 seats: wraps on a narrow window
        grid.addLayout(self.seats_row, 1, 2, 1, 14)
        grid.addWidget(self.drawn, 2, 0, 1, 2)
        grid.addLayout(self._build_draw_row(), 2, 2, 1, 10)
        grid.addWidget(self.run_button, 2, 12, 1, 2)
        grid.addWidget(self.cancel_button, 2, 14, 1, 2)
        grid.addWidget(self.run_on, 3, 12, 1, 4)
        self.progress.setFormat("")
        grid.addWidget(self.progress, 3, 0, 1, 12)
        self.status.setText(_("Not run yet. Strategies: flat and dynamic hide-reveal (from “Spyfall with Pyro”), "
                              "joker = random claims and random votes (a baseline)."))
        self.status.setWordWrap(True)
        grid.addWidget(self.status, 4, 0, 1, 16)
        return box

    def _build_fields(self) -> list:
        """``(label, editor)`` of the tournament's numbers."""
        self.players = self._spin(3, 12, 5, _("seats at the table"))
        self.locations = self._spin(2, 60, 10, _("number of locations"))
        self.games = self._spin(1, 100000, 200, _("games to play"))
        self.rounds = self._spin(1, 50, DEFAULT_ROUNDS, _("rounds before the end game"))
        self.seed = self._spin(0, 10 ** 9, 1, _("tournament seed (the same seed gives the same results)"))
        cores = os.cpu_count() or 1
        self.workers = self._spin(1, max(1, cores), max(1, cores), _("processes (results do not depend on it)"))
        self.beta = QDoubleSpinBox()
        self.beta.setRange(0.1, 1000.0)
        self.beta.setDecimals(1)
        self.beta.setValue(DEFAULT_BETA)
        self.beta.setToolTip(_("How steady are the bots' claims? (β, the Dirichlet concentration "
                               "of every bot)"))
        self.lam = QDoubleSpinBox()
        self.lam.setRange(0.0, 0.99)
        self.lam.setDecimals(2)
        self.lam.setSingleStep(0.05)
        self.lam.setValue(DEFAULT_LAMBDA)
        self.lam.setToolTip(_("How much do the bots' claims give away? (λ, the reveal weight of "
                              "every bot)"))
        return [(_("Players"), self.players), (_("Locations"), self.locations), (_("Games"), self.games),
                (_("Rounds"), self.rounds), (_("Steady (β)"), self.beta), (_("Give away (λ)"), self.lam),
                (_("Seed"), self.seed), (_("Processes"), self.workers)]

    def _build_draw_row(self) -> FlowLayout:
        """The strategies a random draw picks from."""
        draw_row = FlowLayout()
        self.draw_checks = {}
        for s in STRATEGIES:
            cb = QCheckBox(strategy_label(s))
            cb.setChecked(True)
            self.draw_checks[s] = cb
            draw_row.addWidget(cb)
        return draw_row

    def _build_tournament_page(self) -> QSplitter:
        """The win rates per strategy and role; the information-gain and suspicion plots
        beside them are made when first needed (:meth:`_make_plots`)."""
        split = QSplitter(Qt.Orientation.Horizontal)
        self.table = ColumnTable(result_columns(), sortable=True, select_rows=False, tooltip=_(
            "Win rate of the team of a seat playing this strategy, with its Wilson 95 % interval. "
            "Click a header to sort; Ctrl+C copies the table"))
        scaled_size(self.table, min_width=400)
        split.addWidget(self.table)
        self._plots_made = False
        return split

    def _make_plots(self) -> None:
        """The tournament page's two plots, made when results are first shown or the page is
        first opened (once): made with the Spyfall tab, on a page behind two others, they were
        22-26 ms of one turn of its build (11-13 ms per pyqtgraph plot)."""
        if self._plots_made:
            return
        self._plots_made = True
        split = self.tournament_page
        self.ig_plot = BeliefPlot(_("Mean information gain per turn"), y_label=_("bits"), y_range=None)
        self.ig_plot.plot.setLabel("bottom", _("turn"))
        split.addWidget(self.ig_plot)
        self.suspicion_plot = BeliefPlot(_("Mean public probability of the true spy"))
        self.suspicion_plot.plot.setLabel("bottom", _("turn"))
        split.addWidget(self.suspicion_plot)
        split.setSizes([420, 430, 430])

    @Slot(int)
    def _results_page_shown(self, _index: int) -> None:
        if self.results.currentWidget() is self.tournament_page:
            self._make_plots()

    @staticmethod
    def _spin(lo, hi, value, tip) -> QSpinBox:
        s = QSpinBox()
        s.setRange(lo, hi)
        s.setValue(value)
        s.setToolTip(tip)
        return s

    # -- form ----------------------------------------------------------------------------------
    def set_table(self, setup) -> None:
        """Start from a game's table: its number of players and locations, β, λ and strategies.
        A hidden panel (the Table page in front) fills its form when it is shown or its
        configuration is read (:meth:`make_config`): a table of 20 players made 20 seat
        choosers again at every open of a log, 3-5 ms of the open's first turn."""
        if not self.isVisible():
            self._table_due = setup
            return
        self._table_due = None
        self._fill_table(setup)

    def _fill_due_table(self) -> None:
        due, self._table_due = self._table_due, None
        if due is not None:
            self._fill_table(due)

    def showEvent(self, event) -> None:  # noqa: N802 (Qt's method name)
        self._fill_due_table()
        super().showEvent(event)

    def _fill_table(self, setup) -> None:
        self.players.setValue(min(max(len(setup.players), 3), self.players.maximum()))
        self.locations.setValue(min(max(len(setup.locations), 2), self.locations.maximum()))
        self.beta.setValue(setup.beta)
        self.lam.setValue(setup.lam)
        self.rounds.setValue(setup.rounds)
        for combo, m in zip(self.seat_combos, setup.models):
            combo.setCurrentIndex(max(0, combo.findData(m.strategy)))

    def _players_changed(self, *_a) -> None:
        n = self.players.value()
        old = [c.currentData() for c in self.seat_combos]
        for c in self.seat_combos:
            self.seats_row.removeWidget(c)
            c.setParent(None)
            c.deleteLater()
        self.seat_combos = []
        for i in range(n):
            c = QComboBox()
            for s in STRATEGIES:
                c.addItem(s, s)
            c.setToolTip(_("Seat {n}: {strategies}").format(
                n=i + 1, strategies=", ".join(f"{k} = {strategy_label(k)}" for k in STRATEGY_LABELS)))
            c.setCurrentIndex(max(0, c.findData(old[i] if i < len(old) else "flat")))
            c.setEnabled(self.fixed.isChecked() if hasattr(self, "fixed") else True)
            self.seats_row.addWidget(c)
            self.seat_combos.append(c)

    def _mode_changed(self, *_a) -> None:
        fixed = self.fixed.isChecked()
        for c in self.seat_combos:
            c.setEnabled(fixed)
        for cb in self.draw_checks.values():
            cb.setEnabled(not fixed)

    def make_config(self) -> spyfall.SimConfig:
        """The :class:`engines.spyfall.SimConfig` of the form; raises SessionFormatError."""
        self._fill_due_table()
        if self.fixed.isChecked():
            seats = tuple(c.currentData() for c in self.seat_combos)
            strategies = tuple(dict.fromkeys(seats))
        else:
            seats = None
            strategies = tuple(s for s, cb in self.draw_checks.items() if cb.isChecked())
        config = spyfall.SimConfig(players=self.players.value(), locations=self.locations.value(),
                                   games=self.games.value(), strategies=strategies, seats=seats,
                                   seed=self.seed.value(), beta=self.beta.value(),
                                   lam=self.lam.value(), rounds=self.rounds.value(),
                                   workers=self.workers.value(), scheduler=self.scheduler())
        config.validate()
        return config

    # -- running (SimulationPanelBase) ----------------------------------------------------------
    def prepare(self):
        config = self.make_config()
        self.config = config
        self.progress.setFormat(_("%v of %m games"))
        return (functools.partial(_simulate_job, config), config.games,
                ngettext("Playing {games} games on {n} process…", "Playing {games} games on {n} processes…",
                         config.workers).format(games=number(config.games), n=config.workers))

    def present(self, result, seconds: float) -> None:
        self.show_result(result, seconds)
        self.results.setCurrentWidget(self.tournament_page)

    def cancelled_text(self) -> str:
        return _("Cancelled after {done} of {total} games.").format(
            done=number(self.progress.value()), total=number(self.progress.maximum()))

    @staticmethod
    def rows(r) -> list[ResultRow]:
        """The table's rows of a :class:`SimResult`: per strategy, as spy then as non-spy."""
        return [ResultRow(strat, role, d[key]["win_rate"], tuple(d[key]["ci95"]), d[key][count])
                for strat, d in r.by_strategy.items()
                for role, key, count in ((N_("as spy"), "as_spy", "games"),
                                         (N_("as non-spy"), "as_non_spy", "seats"))]

    def show_result(self, r, seconds: float) -> None:
        """Fill the table, the status line and the plots from a :class:`SimResult`."""
        c = r.config
        lo, hi = r.spy_win_ci95
        self.status.setText(_(
            "<b>{games} games</b>, {players} players, {locations} locations, {rounds} rounds ({seconds} s). "
            "Spy wins <b>{spy}</b> [{low}, {high}] · vote names the spy {vote} · non-spy votes on the "
            "spy {votes} · spy names the location {named}").format(
            games=number(c.games), players=c.players, locations=c.locations, rounds=c.rounds,
            seconds=number(seconds, 1), spy=_pct(r.spy_win_rate), low=_pct(lo), high=_pct(hi),
            vote=_pct(r.accusation_accuracy), votes=_pct(r.vote_accuracy), named=_pct(r.spy_location_accuracy)))
        self.table.set_rows(self.rows(r))
        self._make_plots()
        gap = [None]
        series = {_("public location"): gap + [float(x) for x in r.mean_information_gain_bits],
                  _("public spy"): gap + [float(x) for x in r.mean_spy_information_gain_bits]}
        if r.mean_spy_private_information_gain_bits is not None:
            series[_("spy's location belief")] = gap + [float(x) for x in r.mean_spy_private_information_gain_bits]
        if r.mean_non_spy_private_information_gain_bits is not None:
            series[_("non-spy's spy belief")] = gap + [float(x) for x in r.mean_non_spy_private_information_gain_bits]
        self.ig_plot.set_series(series)
        self.suspicion_plot.set_series({_("P(true spy), public"): [float(x) for x in r.mean_true_spy_probability],
                                        _("chance 1/s"): [1.0 / c.players] * len(r.mean_true_spy_probability)})
