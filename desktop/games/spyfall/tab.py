"""The Spyfall tab: a claims worksheet (turns × locations; click the locations an answer
fits, 0 → ½ → 1, or type the claim), public and private location beliefs as heat-map rows under
the claims, the spy belief per player, plots of the spy belief and of the information gain per
turn, the recommendation (what to claim, whom to accuse / which location to name), and the bot
tournament simulator.

At the table: a round timer (:class:`desktop.games.spyfall.round_timer.RoundTimer`), the turn order as
Spyfall plays it (who asked whom: an ``ask`` event; the answerer asks next,
:func:`engines.spyfall.model.next_turn`) and my own strike-out list of locations
(:class:`desktop.games.spyfall.strikes.StrikeList`). The timer's length, the time left in the round
and the struck locations are saved with the session in ``setup.table``, which the model never
reads and which is not part of the setup's equality (no new belief timeline). The length and the
strike-outs are undoable edits; the time left is not an edit: it is read from the timer whenever
the session is written (``SessionDocument.setup_for_saving``), and a reopened session shows the
timer paused where it was.
"""
from __future__ import annotations

import dataclasses
import functools
import operator
import weakref
from collections.abc import Sequence
from typing import Optional

import numpy as np
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from desktop.games.spyfall.forms import (
    CLAIM_WEIGHT_HELP,
    NewGameDialog,
    claim_error_text,
    parse_claim_entry,
    strategy_label,
)
from desktop.games.spyfall.model import ClaimSheetModel, ClaimSheetView, claim_text
from desktop.games.spyfall.panes import AdvicePane, SpyPane, reveal_words, top
from desktop.games.spyfall.round_timer import RoundTimer
from desktop.games.spyfall.simulation import SimulationPanel
from desktop.games.spyfall.strikes import StrikeList
from desktop.shell.appearance import muted_style, tone
from desktop.shell.locale_format import number, significant
from desktop.tabs import engine_process
from desktop.tabs.base import GameTab
from desktop.tabs.jobs import Priority
from desktop.widgets.belief_plot import BeliefPlot
from desktop.widgets.fit_split import FitSplitter
from desktop.widgets.plain_text import esc
from desktop.widgets.side_panes import SidePanes
from desktop.widgets.vscroll import VerticalScroll
from desktop.widgets.worksheet import format_probability
from engines import spyfall
from engines.core.errors import SessionFormatError, check_cancel
from engines.core.i18n import N_, _
from engines.spyfall.model import entry_claim_weight

#: Undo merge key of the round timer's length (consecutive edits are one undo step).
TIMER_MERGE_KEY = 2801
METHOD_LABELS = {"exact": N_("Exact (factorised)"), "enumeration": N_("Enumeration (scipy, reference)")}
#: The methods in plain words (the technical names are the Details view's).
METHOD_WORDS = {"exact": N_("Exact"), "enumeration": N_("Exact, checked the slow way")}


PUBLIC = N_("Public")
#: Lines of the recommendation shown on a short Table page (the rest scrolls).
ADVICE_SHORT_LINES = 2
MINE_SPY = N_("Mine (as the spy)")


def _recommend_job(setup, events, task):
    """The recommendation of the moment, computed in the engines' worker process
    (:mod:`desktop.tabs.engine_process`) once it is ready."""
    return engine_process.run(task, spyfall.recommend, setup, events)


def _recommend_job_for(setup, events: tuple, _options: dict):
    """The recommendation's job for a moment (the controller's advisor "recommend"); None
    for an observer, who has no move."""
    if setup.me is None:
        return None
    return functools.partial(_recommend_job, setup, events)


#: Prefixes from which a log's spy-plot series are read in a job (Tab.show_beside_posterior).
SERIES_JOB_PREFIXES = 500
#: Prefixes read per part by :func:`spy_series` (between parts a job polls its cancel flag).
SERIES_PART_PREFIXES = 256


def spy_series(players: Sequence[str], posteriors: Sequence, cancel=None) -> dict:
    """The public spy belief of each player after every prefix of a log, for the plot:
    ``{player: float array (len(posteriors),)}``, NaN where a prefix's posterior is None (not
    computed). Read from each posterior's public spy marginal (``Posterior.spy``, the numbers
    :func:`engines.spyfall.belief_summary` names ``"spy:<player>"``), one C call per prefix:
    a dict of s entries keyed by the setup's own names reads about three times faster than
    the summary's 2n + 2s + 3 entries keyed by new strings (5,000 prefixes of 20 players and
    200 locations: 17 -> 6 ms).

    Read :data:`SERIES_PART_PREFIXES` prefixes at a time, polling ``cancel`` (a job's
    :class:`desktop.tabs.jobs.TaskState`, or None) between parts: numpy's conversion of
    the rows is one C call that keeps the interpreter lock, 3.5 ms for 5,000 prefixes alone
    and 18-35 ms of a job's CPU beside the app's render, during which the GUI thread could
    not paint; a part is a fraction of a millisecond, and a job waits at the poll while the
    GUI thread paints (:data:`desktop.tabs.jobs.worker_gate`).

    Raises:
        KeyError: a posterior without one of ``players``. Cancelled: ``cancel()`` turned True.
    """
    players = list(players)
    get = operator.itemgetter(*players) if len(players) > 1 else (lambda d: (d[players[0]],))
    blank = (None,) * len(players)
    values = np.empty((len(posteriors), len(players)), dtype=float)
    for start in range(0, len(posteriors), SERIES_PART_PREFIXES):
        check_cancel(cancel)
        part = posteriors[start:start + SERIES_PART_PREFIXES]
        rows = [blank if p is None else get(p.spy) for p in part]
        values[start:start + len(rows)] = np.array(rows, dtype=float).reshape(len(rows), len(players))
    return {p: values[:, j] for j, p in enumerate(players)}


def _spy_series_job(players: tuple, posteriors: tuple, task) -> dict:
    return spy_series(players, posteriors, cancel=task)


def _last_claim(events):
    """The log's last :class:`engines.spyfall.Claim` (None when it has none), read from the end."""
    return next((e for e in reversed(events) if isinstance(e, spyfall.Claim)), None)


class LogClaims(Sequence):
    """The claims of a log as the claim sheet reads them, each when its row is painted:
    ``claims[t]`` = ``(label, weights)`` of claim ``t`` (event ``claim_events[t]``), the label
    the speaker's name, ``"Bob ← Ann"`` when Ann's question came just before. Made of the
    log's events at once, 5,000 claims took 4-8 ms of the GUI thread at every open."""

    def __init__(self, events: tuple, claim_events: Sequence[int]):
        self._events, self._claim_events = events, claim_events

    def __len__(self) -> int:
        return len(self._claim_events)

    def __getitem__(self, t: int) -> tuple:
        i = self._claim_events[t]
        e = self._events[i]
        asked = self._events[i - 1] if i > 0 else None
        if isinstance(asked, spyfall.Ask) and asked.answerer == e.player:
            return (f"{e.player} ← {asked.asker}", e.weights)
        return (e.player, e.weights)


class Tab(GameTab):
    """Spyfall at the table: log every player's claim, read exact beliefs about the location and
    the spy, ask what to claim and whom to accuse, and simulate bot tournaments."""

    GAME = "spyfall"

    def make_plot(self) -> BeliefPlot:
        plot = BeliefPlot(_("Public spy belief of each player"))
        plot.legend.setOffset((5, 5))  # top left: every line starts at 1/s, the leader ends high
        return plot

    # -- layout --------------------------------------------------------------------------------
    def build_ui(self):
        root = QVBoxLayout(self)
        root.setContentsMargins(6, 6, 6, 6)
        root.addLayout(self._build_role_bar())
        root.addWidget(self._build_timer())
        root.addWidget(self.banner)
        self.pages = QTabWidget()
        root.addWidget(self.pages, 1)
        yield                     # each part of the tab a turn of its own (GameTab._parts)
        self.pages.addTab(self._build_table_page(), _("Table"))
        yield
        # the recommendation is an advisor of the controller: one per moment shown
        self.rec_runner = self.controller.add_advisor("recommend", _recommend_job_for,
                                                      shares_lock=False)
        self.simulation = SimulationPanel(self.make_runner("simulate", priority=Priority.BACKGROUND))
        # the spy plot's series of a long log, read beside the render (show_beside_posterior)
        self._series_runner = self.make_runner("spy series", priority=Priority.RANKING)
        self._series_runner.resultReady.connect(self._spy_series_read)
        self._series_asked = self._series_done = None
        self.pages.addTab(self.simulation, _("Simulation"))
        yield
        self.reset_views()

    def _build_role_bar(self) -> QHBoxLayout:
        """My role, the inference method and New game."""
        bar = QHBoxLayout()
        self.role_label = QLabel()
        self.role_label.setWordWrap(True)   # a long model line wraps, never widens the window
        self.role_label.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Preferred)
        self.role_label.setTextFormat(Qt.RichText)
        bar.addWidget(self.role_label, 1)
        bar.addWidget(QLabel(_("Method:")))
        self.method = QComboBox()
        for m in spyfall.METHODS:
            self.method.addItem(_(METHOD_WORDS[m]) if m in METHOD_WORDS else m, m)
        self.method.currentIndexChanged.connect(self.request_inference)
        bar.addWidget(self.method)
        self.new_button = QPushButton(_("New game…"))
        self.new_button.setToolTip(_("Players, my card, locations and the model (Ctrl+N)"))
        self.new_button.clicked.connect(self.new_game)
        bar.addWidget(self.new_button)
        return bar

    def _build_timer(self) -> RoundTimer:
        """The round timer; its length and the time left are saved with the session
        (``setup.table``); a reopened session restores it paused."""
        aids = self.controller.setup.table
        self.timer = RoundTimer(aids.round_seconds)
        self.timer.restore(aids.round_seconds, aids.timer_left)
        self.timer.lengthEdited.connect(self._timer_length_edited)
        self.controller.set_setup_for_saving(self._setup_with_timer)
        return self.timer

    def _setup_with_timer(self, setup):
        """``setup`` with the timer's time left as it is now (what a session file keeps)."""
        t = self.timer
        left = None if t.fresh else round(min(t.remaining(), setup.table.round_seconds), 1)
        aids = dataclasses.replace(setup.table, timer_left=left, timer_paused=not t.running)
        return dataclasses.replace(setup, table=aids)

    def document_reset(self) -> None:
        """New game / Open: the timer as the session saved it, paused (a new game: a full
        round, stopped)."""
        aids = self.controller.setup.table
        self.timer.restore(aids.round_seconds, aids.timer_left)

    def _build_table_page(self) -> QWidget:
        """The Table page: the claim worksheet and its entry line over the beliefs, plots and
        history."""
        page = QWidget()
        pl = QVBoxLayout(page)
        pl.setContentsMargins(0, 4, 0, 0)
        # the sheet's pane gets the height its rows need on a short page (1280×800 at 150 %),
        # the beliefs row at least two lines, scrolling (desktop.widgets.fit_split)
        vsplit = FitSplitter(self._sheet_pane_height, rest_lines=2, short_changed=self._page_short)
        pl.addWidget(vsplit, 1)
        top = QWidget()
        tl = QVBoxLayout(top)
        tl.setContentsMargins(0, 0, 0, 0)
        tl.addWidget(self._build_sheet(), 1)
        tl.addLayout(self._build_ask_row())
        tl.addLayout(self._build_entry_row())
        self.advice_box = AdvicePane()
        self.advice = self.advice_box.label
        tl.addWidget(self.advice_box)
        self._sheet_pane = top
        vsplit.addWidget(top)
        # the beliefs row scrolls as a whole when the page is too short for its plots' minimum
        vsplit.addWidget(VerticalScroll(self._build_beliefs_row()))
        # the sheet first (5:3, was 3:2): on 1280×800 its names and the ▶ row fit over the
        # beliefs row, which keeps room for a plot's wrapped legend on 1280×720
        vsplit.setSizes([500, 300])
        vsplit.setStretchFactor(0, 5)
        vsplit.setStretchFactor(1, 3)
        self.table_split = vsplit
        self.sheet_model.modelReset.connect(vsplit.refit)   # a new table: other names, rows
        return page

    def _sheet_pane_height(self) -> tuple[int, int]:
        """The heights in pixels ``(least, whole)`` the Table page's top pane asks of its
        splitter: the claim sheet's rows down to the ▶ row and the latest claims under
        elided / whole names (:meth:`ClaimSheetView.wanted_height`), the question and claim
        rows and two lines of the advice (more of it takes room from the names, which are
        elided first)."""
        lay = self._sheet_pane.layout()
        need, shown = 0, 0
        for i in range(lay.count()):
            item = lay.itemAt(i)
            if item.widget() is self.sheet:
                continue
            if item.widget() is self.advice_box:   # the same whatever the advice says
                need += ADVICE_SHORT_LINES * self.advice.fontMetrics().lineSpacing()
            else:
                need += item.sizeHint().height()
            shown += 1
        rest = need + max(0, lay.spacing()) * shown
        return rest + self.sheet.wanted_height(False), rest + self.sheet.wanted_height(True)

    def _page_short(self, short: bool) -> None:
        """A short page: the advice shows two lines and scrolls, so the sheet keeps its rows."""
        self.advice_box.set_max_lines(ADVICE_SHORT_LINES if short else None)

    def _build_sheet(self) -> ClaimSheetView:
        """The claim worksheet: a row per claim and the pending ▶ row, a column per location."""
        self.sheet_model = ClaimSheetModel(self)
        self.sheet = ClaimSheetView()
        self.sheet.setAccessibleName(_("Claims: the locations each claim fits"))
        self.sheet.setModel(self.sheet_model)
        self.sheet.setToolTip(_("Click the locations the answer fits on the ▶ row (0 → ½ → 1), pick "
                                "the speaker, then Log claim (Enter). Click a turn to see the beliefs then."))
        self.sheet.clicked.connect(self._cell_clicked)
        # the second click of a quick double click arrives as a double click: it counts too
        self.sheet.doubleClicked.connect(self._cell_clicked)
        self.sheet.spacePressed.connect(self._cell_clicked)
        self.sheet.enterPressed.connect(self.submit_claim)
        self.sheet.columnHeaderClicked.connect(self._column_clicked)
        self.sheet.rowHeaderClicked.connect(self._row_clicked)
        return self.sheet

    def _build_entry_row(self) -> QHBoxLayout:
        """Speaker, the typed claim, its weight, Log claim and Clear."""
        entry = QHBoxLayout()
        entry.addWidget(QLabel(_("Speaker:")))
        self.speaker = QComboBox()
        self.speaker.setToolTip(_("Who answered (default: the next player in the seating order)"))
        self.speaker.currentIndexChanged.connect(self._speaker_changed)
        entry.addWidget(self.speaker)
        entry.addWidget(QLabel(_("Claim:")))
        self.claim_edit = QLineEdit()
        self.claim_edit.setPlaceholderText(_("click the ▶ row, or type e.g. Beach:1, Casino:0.5"))
        self.claim_edit.setToolTip(
            _("Location:weight pairs separated by commas (a name alone weighs 1), or one weight per "
              "location in order.\nHow much the claim counts: a claim on the worksheet grid (weights "
              "0, ½ and 1 only, clicked or typed) gets the speaker's w from the New game dialog; a "
              "claim typed with exact numbers (Beach: 0.62) gets w = 1; w=0.3 in the text sets "
              "the claim's own w."))
        self.claim_edit.textEdited.connect(self._claim_typed)
        self.claim_edit.returnPressed.connect(self.submit_claim)
        entry.addWidget(self.claim_edit, 1)
        self.weight_label = QLabel()
        self.weight_label.setToolTip(_(CLAIM_WEIGHT_HELP))
        muted_style(self.weight_label)
        entry.addWidget(self.weight_label)
        self.log_button = QPushButton(_("Log claim"))
        self.log_button.setDefault(True)
        self.log_button.setToolTip(_("Enter"))
        self.log_button.clicked.connect(self.submit_claim)
        entry.addWidget(self.log_button)
        self.clear_button = QPushButton(_("Clear"))
        self.clear_button.clicked.connect(self.clear_pending)
        entry.addWidget(self.clear_button)
        return entry

    def _build_ask_row(self) -> QHBoxLayout:
        """Who asks whom (Spyfall's turn order: the answerer asks next); ``Bob asks Cy`` in
        quick entry does the same."""
        row = QHBoxLayout()
        self.turn_label = QLabel()
        self.turn_label.setTextFormat(Qt.RichText)
        self.turn_label.setWordWrap(True)      # a narrow or zoomed window: two lines
        row.addWidget(self.turn_label, 1)
        self.asker = QComboBox()
        self.asker.setToolTip(_("Who asks the question (the last answerer, by the rules)"))
        row.addWidget(self.asker)
        row.addWidget(QLabel(_("asks")))
        self.answerer = QComboBox()
        self.answerer.setToolTip(_("Who is asked: their answer is the next claim"))
        row.addWidget(self.answerer)
        self.ask_button = QPushButton(_("Log question"))
        self.ask_button.setToolTip(_("Log who asked whom (quick entry: “Bob asks Cy”); the "
                                     "beliefs do not change, the next claim's speaker does"))
        self.ask_button.clicked.connect(self.submit_ask)
        row.addWidget(self.ask_button)
        return row

    def _build_beliefs_row(self) -> QSplitter:
        """Who is the spy, the belief and information-gain plots, the history."""
        bottom = SidePanes()      # the side panes fold into tabs when the width is short
        # as tall as every player's row needs (the page's splitter makes that room; on a short
        # page the beliefs row scrolls as a whole, desktop.widgets.fit_split)
        bottom.addWidget(self._build_spy_box())
        self.strikes = StrikeList()
        self.strikes.struckChanged.connect(self._struck_changed)
        bottom.add_pane(self.strikes, _("My list"), 1)
        bottom.add_pane(self.plot, _("Beliefs"), 1)
        self.ig_plot = BeliefPlot(_("What each claim told"), y_label=_("bits"), y_range=None)
        bottom.add_pane(self.ig_plot, _("What claims told"), 1)
        self.worded(self.ig_plot.set_y_label, _("information"), _("bits"))
        bottom.add_pane(self.history, _("History"), 1)
        bottom.setSizes([300, 160, 320, 320, 340])
        self.side_panes = bottom
        return bottom

    def _build_spy_box(self) -> SpyPane:
        """Each player's probability of being the spy, and the summary under it."""
        self.spy_pane = SpyPane()
        self.spy_title, self.spy_model = self.spy_pane.title, self.spy_pane.model
        self.spy_view, self.summary = self.spy_pane.view, self.spy_pane.summary
        return self.spy_pane

    # -- setup-dependent views -------------------------------------------------------------------
    def _belief_labels(self) -> list[str]:
        setup = self.controller.setup
        return [_(PUBLIC)] + ([_(MINE_SPY)] if setup.me is not None and setup.i_am_spy else [])

    def log_plots(self) -> list:
        return [self.plot, self.ig_plot]

    def reset_views(self) -> None:
        setup = self.controller.setup
        self._fill_sheet(keep_beliefs=False)
        self.sheet_model.set_pending(np.zeros(setup.n_locations))
        self.spy_pane.set_table(setup)
        for combo in (self.speaker, self.asker, self.answerer):
            combo.blockSignals(True)
            combo.clear()
            for p in setup.players:
                combo.addItem(("★ " if p == setup.me else "") + p, p)
            combo.blockSignals(False)
        self._default_speaker()
        self._shown_setup = setup
        self._show_table_aids()
        self.claim_edit.clear()
        self.advice_box.clear()
        self.role_label.setText(self._role_text())
        self.simulation.set_table(setup)
        # the plots' curves made in the turns before the beliefs arrive (one per player; the
        # information-gain plot's public location, public spy and mine)
        self.plot.reserve(len(setup.players), setup.players)
        self.ig_plot.reserve(3, self._information_series_names(setup))

    def _role_text(self) -> str:
        s = self.controller.setup
        where = spyfall.editions().get(s.edition, {}).get("title", _("custom list")) if s.edition \
            else _("custom list")
        if s.me is None:
            who = esc(_("Observer (no card)"))
        elif s.i_am_spy:
            who = _("{me} · my card: {card}").format(
                me=f"<b>{esc(s.me)}</b>", card=f"<b style='color:{tone('#b71c1c')}'>{esc(_('SPY'))}</b>")
        else:
            who = _("{me} · my card: {card}").format(me=f"<b>{esc(s.me)}</b>", card=f"<b>{esc(s.my_location)}</b>")
        differ = any(m != spyfall.PlayerModel(beta=s.beta, lam=s.lam, strategy=s.strategy,
                                              claim_weight=s.claim_weight) for m in s.models)
        if self.snapshot.wording.details:
            model = (f"β = {significant(s.beta, 6)}, λ = {significant(s.lam, 6)}, "
                     f"w = {significant(s.claim_weight, 6)}, {strategy_label(s.strategy).lower()}")
        else:
            model = (f"{reveal_words(s.lam)}" if s.strategy != "joker" else _("random claims"))
        if differ:
            model += " " + _("(some players differ)")
        return _("{who} · {players} players · {where}, {locations} locations · {rounds} rounds · "
                 "model: {model}").format(who=who, players=len(s.players), where=esc(where),
                                          locations=s.n_locations, rounds=s.rounds, model=esc(model))

    def _fill_sheet(self, keep_beliefs: bool = True) -> None:
        doc = self.controller
        old = self.sheet_model.beliefs() if keep_beliefs else None
        labels = self._belief_labels()
        # the sheet shows the claims (each read when its row is painted, LogClaims); an ask
        # shows as the next claim's "← asker"
        events = tuple(doc.events)
        self._claim_events = [i for i, e in enumerate(events) if not isinstance(e, spyfall.Ask)]
        claims = LogClaims(events, self._claim_events)
        self.sheet_model.set_sheet(doc.setup.locations, claims, labels)
        self.sheet_model.set_struck(doc.setup.table.struck)
        if old is not None and old.shape == (len(labels), doc.setup.n_locations):
            self.sheet_model.set_beliefs(old)
        self.sheet_model.set_speaker(self.speaker.currentData() or "")

    def inference_options(self) -> dict:
        return {"method": self.method.currentData() or spyfall.METHODS[0]}

    # -- document ------------------------------------------------------------------------------
    def events_changed(self) -> None:
        self._fill_sheet()
        self._default_speaker()
        pending = self.sheet_model.row_of_item(self.sheet_model.pending_item)
        if pending >= 0:
            self.sheet.scrollTo(self.sheet_model.index(pending, 0))

    def next_speaker(self, turn: Optional[dict] = None) -> str:
        """Who claims next: the player just asked (:func:`engines.spyfall.model.next_turn`;
        ``turn``: its answer for the log, when already known); without a question logged, the
        player after the last speaker in the seating order (the first player at the start)."""
        setup = self.controller.setup
        turn = turn or spyfall.next_turn(setup, self.controller.events)
        if turn["answerer"] is not None:
            return turn["answerer"]
        last = _last_claim(self.controller.events)
        if last is None:
            return setup.players[0]
        seat = setup.players.index(last.player)
        return setup.players[(seat + 1) % len(setup.players)]

    def next_asker(self, turn: Optional[dict] = None) -> str:
        """Who asks next: the last answerer (the rules), else the first player (``turn``: as
        :meth:`next_speaker`'s)."""
        setup = self.controller.setup
        turn = turn or spyfall.next_turn(setup, self.controller.events)
        if turn["asker"] is not None:
            return turn["asker"]
        last = _last_claim(self.controller.events)
        return last.player if last is not None else setup.players[0]

    def turn_text(self, turn: Optional[dict] = None) -> str:
        """The turn order in words for the line above the claim entry (``turn``: as
        :meth:`next_speaker`'s)."""
        turn = turn or spyfall.next_turn(self.controller.setup, self.controller.events)
        if turn["after"] == "ask":
            ask = self.controller.events[-1]
            return _("{answerer} answers {asker}'s question; then {name} asks the next one.").format(
                answerer=f"<b>{esc(ask.answerer)}</b>", asker=esc(ask.asker), name=esc(ask.answerer))
        if turn["asker"] is not None:
            return _("{name} asks next.").format(name=f"<b>{esc(turn['asker'])}</b>")
        return _("Turn order: log who asks whom (“Bob asks Cy”), or just the claims.")

    def _default_speaker(self) -> None:
        # the turn found once (each finding reads the whole log: 5,000 claims, 1 ms)
        turn = spyfall.next_turn(self.controller.setup, self.controller.events)
        i = self.speaker.findData(self.next_speaker(turn))
        if i >= 0:
            self.speaker.setCurrentIndex(i)
        self.sheet_model.set_speaker(self.speaker.currentData() or "")
        self._show_claim_weight()
        if hasattr(self, "asker"):
            asker = self.next_asker(turn)
            self.asker.setCurrentIndex(max(0, self.asker.findData(asker)))
            players = self.controller.setup.players
            nxt = players[(players.index(asker) + 1) % len(players)]
            self.answerer.setCurrentIndex(max(0, self.answerer.findData(nxt)))
            self.turn_label.setText(self.turn_text(turn))

    def _speaker_changed(self, *_a) -> None:
        self.sheet_model.set_speaker(self.speaker.currentData() or "")
        self._show_claim_weight()

    def _show_claim_weight(self, weights=None, explicit=None) -> None:
        """Say next to the claim field how much the pending claim will count (the rule of
        :func:`engines.spyfall.model.entry_claim_weight`)."""
        if not hasattr(self, "weight_label"):
            return
        setup = self.controller.setup
        if weights is None:
            weights = self.sheet_model.pending_weights()
        weights = np.asarray(weights, float)
        player = self.speaker.currentData()
        own = (setup.models[setup.players.index(player)].claim_weight
               if player in setup.players else setup.claim_weight)
        w = self.snapshot.wording.pick(_("weight {w}"), "w = {w}")
        if not weights.size or not weights.max() > 0:
            self.weight_label.setText(w.format(w=significant(own, 6)))
            return
        cw = entry_claim_weight(weights, explicit)
        if explicit is not None:
            self.weight_label.setText(_("{weight} (typed)").format(weight=w.format(w=significant(cw, 6)))
                                      if isinstance(cw, float) else w.format(w="?"))
        elif cw is None:
            self.weight_label.setText(_("{weight} (grid)").format(weight=w.format(w=significant(own, 6))))
        else:
            self.weight_label.setText(_("{weight} (exact numbers)").format(weight=w.format(w=significant(cw, 6))))

    # -- claim entry -----------------------------------------------------------------------------
    def _cell_clicked(self, index: QModelIndex) -> None:
        if not index.isValid():
            return
        row = index.row()
        if self.sheet_model.is_pending_row(row):
            self.cycle_pending(index.column())
        else:
            turn = self.sheet_model.claim_of_row(row)
            if turn >= 0:
                self.history.select_entry(self._claim_events[turn] + 1)

    def _column_clicked(self, column: int) -> None:
        self.cycle_pending(column)

    def _row_clicked(self, item: int) -> None:
        turn = self.sheet_model.turn_of_item(item)
        if turn >= 0:
            self.history.select_entry(self._claim_events[turn] + 1)

    def cycle_pending(self, column: int) -> None:
        """One click on the pending claim's cell for location ``column`` (0 → ½ → 1 → 0)."""
        if not 0 <= column < self.controller.setup.n_locations:
            return
        self.sheet_model.cycle(column)
        self.claim_edit.setText(claim_text(self.controller.setup.locations, self.sheet_model.pending_weights()))
        self.claim_edit.setStyleSheet("")
        self._show_claim_weight()

    def _claim_typed(self, text: str) -> None:
        """Mirror a typed claim on the pending row while it parses; mark it when it does not."""
        setup = self.controller.setup
        try:
            claim, explicit = parse_claim_entry(text, setup)
            obj = {"type": "claim", "player": setup.players[0], "claim": claim}
            if explicit is not None:
                obj["claim_weight"] = explicit
            ev = spyfall.event_from_json(obj, setup, "claim")
        except SessionFormatError:
            # a light band with dark text in either scheme (light text on it would not read)
            self.claim_edit.setStyleSheet("background:#fff3e0; color:#212121" if text.strip() else "")
            if not text.strip():
                self.sheet_model.set_pending(np.zeros(setup.n_locations))
            self._show_claim_weight()
            return
        self.claim_edit.setStyleSheet("")
        self.sheet_model.set_pending(ev.weights)
        self._show_claim_weight(ev.weights, ev.claim_weight)

    def clear_pending(self) -> None:
        """Forget the claim being entered."""
        self.sheet_model.set_pending(np.zeros(self.controller.setup.n_locations))
        self.claim_edit.clear()
        self.claim_edit.setStyleSheet("")
        self._show_claim_weight()

    def build_claim(self):
        """The claim event of the form (speaker + the typed or clicked weights), with the claim
        weight of :func:`engines.spyfall.model.entry_claim_weight`: a claim on the worksheet grid
        (clicked, or typed with weights 0, ½, 1) has no ``claim_weight`` — the speaker's w from
        the setup applies; a claim typed with exact numbers is logged with ``claim_weight`` 1;
        a typed ``w=…`` sets its own.

        Raises:
            SessionFormatError: the claim does not parse or the engine refuses it.
        """
        setup = self.controller.setup
        text = self.claim_edit.text()
        explicit = None
        if text.strip():
            claim, explicit = parse_claim_entry(text, setup)
        else:
            claim = {loc: float(w) for loc, w in zip(setup.locations, self.sheet_model.pending_weights()) if w > 0}
        obj = {"type": "claim", "player": self.speaker.currentData(), "claim": claim}
        if explicit is not None:
            obj["claim_weight"] = explicit
        ev = spyfall.event_from_json(obj, setup, "claim")
        cw = entry_claim_weight(ev.weights, ev.claim_weight)
        if cw is not None and cw != ev.claim_weight:
            obj["claim_weight"] = cw
            ev = spyfall.event_from_json(obj, setup, "claim")
        return ev

    def submit_ask(self) -> bool:
        """Log who asks whom (the ask row); the engine refuses a player asking themselves."""
        obj = {"type": "ask", "asker": self.asker.currentData(),
               "answerer": self.answerer.currentData()}
        try:
            ev = spyfall.event_from_json(obj, self.controller.setup, "ask")
        except SessionFormatError as exc:
            self.warn(_("Cannot log this question"), exc.message)
            return False
        self.log_checked(ev)
        return True

    # -- table aids: the round timer and my strike-out list (never read by the model) ----------
    def _show_table_aids(self) -> None:
        setup = self.controller.setup
        self.timer.set_length(setup.table.round_seconds)
        if list(getattr(self.strikes, "_locations", [])) != list(setup.locations):
            self.strikes.set_locations(setup.locations, setup.table.struck)
        else:
            self.strikes.set_struck(setup.table.struck)
        self.sheet_model.set_struck(setup.table.struck)

    def _replace_table_aids(self, text: str, merge_key: int = -1, **changes) -> None:
        aids = dataclasses.replace(self.controller.setup.table, **changes)
        self.replace_setup(text, merge_key, table=aids)

    def _timer_length_edited(self, seconds: int) -> None:
        self._replace_table_aids(_("Change the round timer"), TIMER_MERGE_KEY, round_seconds=seconds)

    def _struck_changed(self, struck: tuple) -> None:
        old = set(self.controller.setup.table.struck)
        new = set(struck)
        changed = sorted((old ^ new), key=self.controller.setup.locations.index)
        names = ", ".join(changed)
        what = (_("Strike out {locations}") if new - old else _("Restore {locations}")).format(locations=names)
        self._replace_table_aids(what if changed else _("My list"),
                                 struck=tuple(struck))

    def setup_changed(self) -> None:
        """A change of my table aids alone (the rest of the setup is the same) updates the timer
        and the list; any other change rebuilds the views."""
        setup = self.controller.setup
        shown = getattr(self, "_shown_setup", None)
        if shown is not None and dataclasses.replace(shown, table=setup.table) == setup:
            self._shown_setup = setup
            self._show_table_aids()
            return
        self.reset_views()

    def submit_claim(self) -> bool:
        """Log the pending claim (Enter / "Log claim"); a bad claim gets the engine's message."""
        try:
            ev = self.build_claim()
        except SessionFormatError as exc:
            self.warn(_("Cannot log this claim"), claim_error_text(exc))
            return False
        self.log_checked(ev, logged=self.clear_pending)
        return True

    # -- results ---------------------------------------------------------------------------------
    def beliefs_views(self) -> list:
        return [self.sheet]

    def advice_views(self) -> list:
        return [self.advice]

    def _paint_beliefs_now(self) -> None:
        """Paint the claim sheet's belief rows now (synchronously, as the base paints a
        worksheet): only their rows, the claims under them being unchanged (the largest
        table's whole sheet, kept cells and rotated names, was 10-14 ms of the render)."""
        if not self.isVisible() or not self.sheet.viewport().isVisible():
            return
        first, last = self.sheet_model.belief_rows()
        if first < 0:
            return
        top = self.sheet.rowViewportPosition(first)
        bottom = self.sheet.rowViewportPosition(last) + self.sheet.rowHeight(last)
        if bottom > 0 and top < self.sheet.viewport().height():
            self.sheet.viewport().repaint(0, top, self.sheet.viewport().width(), bottom - top)

    def show_posterior(self, snap) -> None:
        setup, post = snap.setup, snap.posterior
        rows = [np.array([post.location[loc] for loc in setup.locations])]
        if setup.me is not None and setup.i_am_spy:
            rows.append(np.array([post.private_location[loc] for loc in setup.locations]))
        self.sheet_model.set_beliefs(np.array(rows))
        self.spy_pane.render(snap)

    def clear_beliefs(self) -> None:
        self.sheet_model.set_beliefs(None)
        self.spy_pane.clear()

    @staticmethod
    def _information_series_names(setup) -> list:
        """The information plot's series: the public location's and spy's, and mine when I
        hold a card."""
        names = [_("location (public)"), _("spy (public)")]
        if setup.me is not None:
            names.append(_("location (mine)") if setup.i_am_spy else _("spy (mine)"))
        return names

    def plot_series(self, snap) -> dict:
        timeline = snap.timeline
        post = timeline.latest
        setup = snap.setup
        series = self._prepared_spy_series(timeline)
        if series is None:      # not read in the background (a short log, or not yet)
            series = spy_series(setup.players, timeline.posteriors)

        def bits(values) -> np.ndarray:       # no value before the first event: a gap
            return np.concatenate(([np.nan], np.asarray(values, dtype=float)))

        names = self._information_series_names(setup)
        values = [post.information_gain_bits, post.spy_information_gain_bits,
                  post.private_information_gain_bits]
        self.ig_plot.set_series({name: bits(v) for name, v in zip(names, values)})
        return series

    def show_beside_posterior(self, snap) -> None:
        """A long log's new timeline: the spy plot's series are read from its posteriors in a
        job (:func:`spy_series`, at the ranking's level, so the plot that waits for the
        ranking waits for them too) while the rest of the beliefs are drawn, instead of on the
        GUI thread in the plot's turn (5,000 claims: 11-13 ms; docs/app-speed.md)."""
        timeline = snap.timeline
        if timeline is None or len(timeline.posteriors) < SERIES_JOB_PREFIXES:
            return
        asked = self._series_asked
        if asked is not None and asked[1]() is timeline:
            return
        rev = self._series_runner.submit(functools.partial(
            _spy_series_job, tuple(snap.setup.players), timeline.posteriors))
        self._series_asked = (rev, weakref.ref(timeline))

    def _spy_series_read(self, rev: int, series: dict, _seconds: float) -> None:
        asked = self._series_asked
        if asked is not None and asked[0] == rev:
            self._series_done = (asked[1], series)

    def _prepared_spy_series(self, timeline) -> Optional[dict]:
        """The series :meth:`show_beside_posterior` had read for ``timeline``, or None."""
        done = self._series_done
        return done[1] if done is not None and done[0]() is timeline else None

    def status_text(self, snap) -> str:
        post, seconds = snap.posterior, snap.seconds
        (loc, pl), = top(post.location)
        (spy, ps), = top(post.spy)
        method = snap.wording.pick(_(METHOD_WORDS.get(post.method, post.method)),
                                   _(METHOD_LABELS.get(post.method, post.method)))
        return _("Spyfall · {method} · {ms} ms · {n} claims · public: {location} {pl}, spy {spy} {ps}").format(
            method=method, ms=number(seconds * 1000), n=len(post.speaker_seats), location=loc,
            pl=format_probability(pl), spy=spy, ps=format_probability(ps))

    # -- recommendation --------------------------------------------------------------------------
    def wording_changed(self, wording) -> None:
        for i in range(self.method.count()):
            m = self.method.itemData(i)
            self.method.setItemText(i, wording.pick(_(METHOD_WORDS.get(m, m)), _(METHOD_LABELS.get(m, m))))
        self.role_label.setText(self._role_text())
        self._show_claim_weight()

    def show_moment(self, snap) -> None:
        """The recommendation of the moment shown (named "as after entry k" for a past one);
        the information-gain plot's marker."""
        self.ig_plot.set_marker(None if snap.selected < 0 else snap.k)
        self.advice_box.render(snap)

    # -- new game --------------------------------------------------------------------------------
    def new_game(self) -> bool:
        dlg = NewGameDialog(self, self.controller.setup)
        if dlg.exec() != QDialog.Accepted:
            return False
        self.reset_document(dlg.result_setup(), [])
        return True

    def shutdown(self) -> None:
        self.simulation.shutdown()
        super().shutdown()
