"""The Inkognito tab: one paper-like answer worksheet per opponent (side by side), a belief
panel per opponent (identity × build heat map with marginals, partner probability, θ when the
deception model is on), the recommended next question, history and plots.
"""
from __future__ import annotations

import dataclasses
import functools

import pyqtgraph as pg
from PySide6.QtCore import Qt, Slot
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from desktop.games.inkognito.forms import QUESTION_LABELS, NewGameDialog
from desktop.games.inkognito.panes import SheetsPane
from desktop.shell.locale_format import number
from desktop.tabs import engine_process
from desktop.tabs.base import GameTab
from desktop.tabs.wording import PLAIN, Wording
from desktop.widgets.belief_plot import PALETTE, BeliefPlot, plain_axes
from desktop.widgets.plain_text import esc
from desktop.widgets.ranking import Column, RankingTable
from desktop.widgets.side_panes import SidePanes
from desktop.widgets.worksheet import CERTAIN_EPS
from engines import inkognito
from engines.core.errors import EngineError, SessionFormatError
from engines.core.i18n import N_, _, ngettext
from engines.inkognito.words import card_words, kind_words

METHOD_LABELS = {"joint": N_("Joint (all opponents together)"),
                 "independent": N_("Independent (per opponent, as in Höhle's model)")}
#: The methods in plain words (the technical names are the Details view's).
METHOD_WORDS = {"joint": N_("All opponents together"), "independent": N_("One opponent at a time")}


def _worlds_text(post) -> str:
    """"1,296 possible deals" (joint) or "… possible combinations" (independent)."""
    if post.method == "joint":
        return ngettext("{n} possible deal", "{n} possible deals", post.worlds).format(n=number(post.worlds))
    return ngettext("{n} possible combination", "{n} possible combinations", post.worlds).format(
        n=number(post.worlds))


#: The next-question ranking (rows: engines.inkognito.RankedQuestion).
def question_columns(wording: Wording, top=lambda: None) -> tuple:
    """The next-question ranking's columns: "Information" as a bar (``top()``: the best
    question's bits, a full bar) by default, "Bits" in the Details view."""
    return (
        Column(_("Ask"), lambda q: q.opponent),
        Column(_("Question"), lambda q: _(QUESTION_LABELS[q.question])),
        Column(_("About"), lambda q: kind_words(q.asked)),
        Column(wording.pick(_("Information"), _("Bits")),
               lambda q: wording.information(q.information_bits, top(), unit=False),
               numeric=wording.details,
               tooltip=lambda q: wording.pick(
                   _("How much the answer is expected to tell you about who is who: a full bar is "
                     "the best question"),
                   _("{bits} bits expected").format(bits=number(q.information_bits, 3)))),
    )


QUESTION_COLUMNS = question_columns(PLAIN)


class Tab(GameTab):
    """Inkognito at the table: tick each opponent's answers on their worksheet; read who is who."""

    GAME = "inkognito"

    def log_plots(self) -> list:
        return [self.plot, self.entropy_plot]

    def make_plot(self) -> BeliefPlot:
        return BeliefPlot(_("Each opponent's most likely identity: its probability"),
                          legend_at="bottom-right")    # the curves rise towards 1

    def build_ui(self):
        root = QVBoxLayout(self)
        root.setContentsMargins(6, 6, 6, 6)
        root.addLayout(self._build_model_bar())
        root.addWidget(self.banner)
        split = SidePanes()       # the side panes fold into tabs when the width is short
        root.addWidget(split, 1)
        split.addWidget(self._build_worksheets())
        split.setStretchFactor(0, 3)
        yield                     # each part of the tab a turn of its own (GameTab._parts)
        right = QSplitter(Qt.Orientation.Vertical)
        right.addWidget(self._build_recommendation())
        right.addWidget(self.history)
        yield
        right.addWidget(self._build_plots())
        right.setSizes([200, 200, 260])
        split.add_pane(right, _("Next question, History and plots"), 1)
        split.setSizes([1000, 340])
        self._split = self.side_panes = split
        self._split_done = False
        # the ranking of questions is an advisor of the controller: one per moment shown
        self.rec_runner = self.controller.add_advisor("recommend", _recommend_job_for,
                                                      shares_lock=False)
        self._shown_rec = None
        yield
        self.reset_views()

    def _build_model_bar(self) -> QHBoxLayout:
        """The inference model, the deception switch and the status."""
        bar = QHBoxLayout()
        bar.addWidget(QLabel(_("Model:")))
        self.method = QComboBox()
        for m in inkognito.METHODS:
            self.method.addItem(_(METHOD_WORDS[m]), m)
        self.method.currentIndexChanged.connect(self.request_inference)
        bar.addWidget(self.method)
        self.deception = QCheckBox()
        self.worded(self.deception.setText, _("Opponents may mislead"), _("Deception model (θ)"))
        self.deception.setToolTip(_("Do they mislead? How often an opponent's true statement in a "
                                    "player-question answer is the lone card of the other kind "
                                    "(the model's θ), learned per opponent (Beta prior, integrated "
                                    "on a grid)"))
        self.deception.toggled.connect(self._deception_toggled)
        bar.addWidget(self.deception)
        self.info = QLabel()
        self.info.setWordWrap(True)
        self.info.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Preferred)
        bar.addWidget(self.info, 1)
        return bar

    def _build_worksheets(self) -> SheetsPane:
        """Each opponent's answer worksheet over their belief card (:class:`SheetsPane`)."""
        pane = self.sheets_pane = SheetsPane()
        pane.answerSubmitted.connect(self.submit_answer)
        pane.cellContextMenu.connect(self._belief_menu)
        return pane

    def _build_recommendation(self) -> QWidget:
        """The next questions, ranked by expected information gain."""
        rec = QWidget()
        rl = QVBoxLayout(rec)
        rl.setContentsMargins(0, 0, 0, 0)
        title = QLabel()
        self.worded(title.setText, _("<b>Next question</b> (what each would tell you)"),
                    _("<b>Next question</b> (expected information gain, bits)"))
        title.setWordWrap(True)
        rl.addWidget(title)
        self.rec_table = RankingTable(
            question_columns(PLAIN, self._rec_top),
            tooltip=_("Double-click: set that opponent's worksheet to this question"))
        self.rec_table.rowActivated.connect(self._use_recommendation)
        rl.addWidget(self.rec_table, 1)
        return rec

    def _build_plots(self) -> QTabWidget:
        """Top identity, entropy and θ plots."""
        plots = QTabWidget()
        plots.addTab(self.plot, _("Top identity"))
        self.entropy_plot = BeliefPlot(_("Uncertainty about the deal"), y_label=_("bits"), y_range=None)
        plots.addTab(self.entropy_plot, _("Uncertainty"))
        theta_page = self._build_theta_page()
        plots.addTab(theta_page, _("Misleading"))
        self.worded(lambda t: plots.setTabText(plots.indexOf(self.entropy_plot), t),
                    _("Uncertainty"), _("Entropy"))
        self.worded(self.entropy_plot.set_y_label, _("uncertainty"), _("bits"))
        self.worded(lambda t: plots.setTabText(plots.indexOf(theta_page), t),
                    _("Misleading"), _("θ (deception)"))
        return plots

    def _build_theta_page(self) -> QWidget:
        """Each opponent's θ posterior and "Remember θ for later games"."""
        theta_box = QWidget()
        tl = QVBoxLayout(theta_box)
        tl.setContentsMargins(0, 0, 0, 0)
        self.theta_note = QLabel()
        self.theta_note.setWordWrap(True)
        tl.addWidget(self.theta_note)
        self.theta_plot = pg.PlotWidget(axisItems=plain_axes())
        self.theta_plot.setLabel("bottom", "θ")
        self.theta_plot.setLabel("left", _("posterior"))
        self.theta_plot.addLegend(offset=(-5, 5), labelTextSize="8pt")
        self.theta_plot.setMouseEnabled(x=False, y=False)
        self.theta_plot.hideButtons()
        self.theta_plot.setMinimumHeight(120)   # fits the page under a two-line note at 150 % zoom
        tl.addWidget(self.theta_plot, 1)
        self.remember = QPushButton()
        self.worded(self.remember.setText, _("Remember how they mislead, for later games"),
                    _("Remember θ for later games"))
        self.remember.clicked.connect(self._remember_theta)
        tl.addWidget(self.remember)
        return theta_box

    def showEvent(self, event) -> None:  # noqa: N802 (Qt's method name)
        """On first show, give the worksheets about two thirds of the width."""
        super().showEvent(event)
        if not self._split_done and self.width() > 0:
            self._split_done = True
            w = self._split.width()
            self._split.setSizes([int(w * 0.68), w - int(w * 0.68)])

    # -- setup-dependent views ---------------------------------------------------------
    def reset_views(self) -> None:
        setup = self.controller.setup
        self.sheets_pane.set_setup(setup)
        self.deception.blockSignals(True)
        self.deception.setChecked(setup.deception.enabled)
        self.deception.blockSignals(False)
        self.rec_table.clear_rows()
        self._fill_sheets()
        # the plots' curves made in the turns before the beliefs arrive (BeliefPlot.reserve):
        # each opponent's top identity, the deal's entropy
        self.plot.reserve(len(setup.opponents))
        self.entropy_plot.reserve(1)

    def events_changed(self) -> None:
        self._fill_sheets()

    def _fill_sheets(self) -> None:
        self.sheets_pane.follow_log(self.controller.events)

    @property
    def sheets(self) -> dict:
        """Opponent -> their answer worksheet (:class:`AnswerSheet`)."""
        return self.sheets_pane.sheets

    @property
    def cards(self) -> dict:
        """Opponent -> their belief card (:class:`BeliefCard`)."""
        return self.sheets_pane.cards

    def inference_options(self) -> dict:
        return {"method": self.method.currentData() or inkognito.METHODS[0]}

    def _belief_menu(self, opponent: str, item: int, column: int, pos) -> None:
        """Right-click on an opponent's heat map: Why? for the identity of the cell's row (its
        "any" column is the identity's probability) and the build of its column (its "any"
        row), the facts the engine explains (``{"opponent", "identity" | "build"}``)."""
        setup = self.controller.setup
        card = self.cards.get(opponent)
        m = None if card is None else card.matrix()
        ni, nb = len(setup.identities), len(setup.builds)
        menu = QMenu(self)
        for kind, names, i, p in (("identity", setup.identities, item, (item, nb)),
                                  ("build", setup.builds, column, (ni, column))):
            if i >= len(names):
                continue
            name = names[i]
            v = None if m is None else float(m[p])
            decided = v is not None and (v <= CERTAIN_EPS or v >= 1 - CERTAIN_EPS)
            said = dict(opponent=opponent, card=card_words(name))
            label = ((_("Why is {opponent} {card}?") if v >= 0.5 else _("Why is {opponent} not {card}?"))
                     if decided else _("Why? {opponent} as {card}")).format(**said)
            self.add_why_action(menu, {"opponent": opponent, kind: name},
                                _("{opponent} is {card}").format(**said), decided, label)
        if menu.actions():
            self.why_chosen(self.exec_menu(menu, pos), pos)

    # -- logging an answer --------------------------------------------------------------
    @Slot(str)
    def submit_answer(self, opponent: str) -> None:
        """Build the pending answer of ``opponent``'s worksheet; refused with a message when
        the form is invalid (wrong number of ticks)."""
        sheet = self.sheets[opponent]
        try:
            ev = inkognito.event_from_json(sheet.event_json(), self.controller.setup, "answer")
        except SessionFormatError as exc:
            self.warn(_("Cannot log this answer"), exc.message)
            return
        self.log_checked(ev, logged=sheet.clear_pending)

    def _deception_toggled(self, on: bool) -> None:
        if not self.replace_setup(_("Deception model on") if on else _("Deception model off"),
                                  deception=dataclasses.replace(self.controller.setup.deception,
                                                                enabled=on)):
            self.reset_views()   # the refused change is undone on screen too

    # -- results ----------------------------------------------------------------------
    def beliefs_views(self) -> list:
        return [card.view for card in self.cards.values()]

    def advice_views(self) -> list:
        return [self.rec_table]

    def show_posterior(self, snap) -> None:
        post, k = snap.posterior, snap.k
        self.sheets_pane.render(snap)
        when = "" if k == snap.n else "<i>{}</i> · ".format(esc(_("as after entry {k}").format(k=k)))
        worlds = _worlds_text(post)
        if snap.wording.details:
            model = _("deception model (θ learned)") if post.deception else _("indifferent opponents")
            method = _("Joint model") if post.method == "joint" else _("Independent model")
            self.info.setText(when + esc(_("{method}, {model} · {worlds} · entropy {bits} bits").format(
                method=method, model=model, worlds=worlds, bits=number(post.entropy_bits, 2))))
        else:
            model = (_("opponents may mislead") if post.deception else
                     _("every answer they may give is taken as equally likely"))
            self.info.setText(when + esc(f"{worlds} · {model}"))
        self._show_theta(snap)

    def _show_theta(self, snap) -> None:
        """The posterior of each opponent's deception rate θ at the moment ``snap``."""
        post = snap.posterior
        if self.theta_plot.listDataItems():      # nothing to clear while θ is not learned
            self.theta_plot.clear()
        if not post.deception:
            self.theta_note.setText(_("The deception model is off: every valid answer is "
                                      "taken as equally likely (Höhle's model)."))
            self.remember.setEnabled(False)
            return
        self.theta_note.setText(snap.wording.pick(
            _("How often each opponent's true statement is their lone card of the other kind: "
              "the higher a curve, the likelier that rate"),
            _("Posterior of θ per opponent (prior: Beta {prior})").format(
                prior=tuple(round(x, 2) for x in snap.setup.deception.prior))))
        self.remember.setEnabled(True)
        for i, (name, b) in enumerate(post.opponents.items()):
            g, p = b.theta
            self.theta_plot.plot(g, p * len(g), pen=pg.mkPen(PALETTE[i % len(PALETTE)], width=2),
                                 name=_("{name} (mean {theta})").format(name=name, theta=number(b.theta_mean, 2)))

    def clear_beliefs(self) -> None:
        self.sheets_pane.clear()
        self.info.setText(_("no consistent deal"))

    def plot_series(self, snap) -> dict:
        timeline = snap.timeline
        names = snap.setup.opponents
        name = snap.wording.pick(_("how open the deal still is"), _("entropy (bits)"))
        self.entropy_plot.set_series({name: [p.entropy_bits
                                                         for p in timeline.posteriors]})
        return {_("{opponent}: top identity").format(opponent=n): [max(p.opponents[n].identity.values())
                                       for p in timeline.posteriors] for n in names}

    def status_text(self, snap) -> str:
        post, seconds = snap.posterior, snap.seconds
        if not snap.wording.details:
            return _("Inkognito · {method} · {ms} ms · {worlds}").format(
                method=_(METHOD_WORDS[post.method]), ms=number(seconds * 1000), worlds=_worlds_text(post))
        return _("Inkognito · {method} · {model} · {ms} ms · {n} worlds").format(
            method=post.method, model=_("deception") if post.deception else _("indifferent"),
            ms=number(seconds * 1000), n=post.worlds)

    def _rec_top(self):
        return max((q.information_bits for q in self.rec_table.rows()), default=None)

    def wording_changed(self, wording) -> None:
        self.rec_table.set_columns(question_columns(wording, self._rec_top))
        for i in range(self.method.count()):
            m = self.method.itemData(i)
            self.method.setItemText(i, wording.pick(_(METHOD_WORDS[m]), _(METHOD_LABELS[m])))

    def show_moment(self, snap) -> None:
        """The ranking of questions of the moment shown (kept on screen while the next one
        is computed; cleared while the log is impossible)."""
        advice = snap.advice_for("recommend")
        if snap.error is not None or (advice is not None and advice.error is not None):
            self._shown_rec = None
            self.rec_table.clear_rows()
            return
        if advice is None or advice.value is self._shown_rec:
            return
        self._shown_rec = advice.value
        rows = advice.value.ranking
        self.rec_table.set_rows(rows)
        if rows:
            self.rec_table.select_row(0)

    def _use_recommendation(self, row: int) -> None:
        ranked = self.rec_table.row_object(row)
        opp, q, asked = ranked.opponent, ranked.question, ranked.asked
        if opp in self.sheets:
            self.sheets[opp].set_question(q, asked)
            self.sheets[opp].focus_table()

    def _remember_theta(self) -> None:
        from desktop.storage.paths import data_dir
        tl = self.controller.timeline
        post = tl.latest if tl else None
        if post is None or not post.deception:
            return
        try:
            store = inkognito.ProfileStore(data_dir()).load()
            for name, b in post.opponents.items():
                store.update(name, *b.theta)
            store.save()
        except (EngineError, OSError) as exc:
            self.warn(_("Cannot save the profiles"), str(exc))
            return
        self.statusMessage.emit(_("θ remembered for {opponents}").format(opponents=", ".join(post.opponents)))

    # -- new game -------------------------------------------------------------------------
    def new_game(self) -> bool:
        dlg = NewGameDialog(self, self.controller.setup)
        try:
            from desktop.storage.paths import data_dir
            store = inkognito.ProfileStore(data_dir()).load()
            dlg.priors = {k: (v["a"], v["b"]) for k, v in store.profiles.items()}
        except (EngineError, OSError):
            pass
        if dlg.exec() != QDialog.Accepted:
            return False
        self.reset_document(dlg.result_setup(), [])
        return True


def _recommend_job_for(setup, events: tuple, options: dict):
    """The ranking's job for a moment (the controller's advisor "recommend"), with the
    inference method of the tab."""
    return functools.partial(_recommend_job, setup, events,
                             options.get("method") or inkognito.METHODS[0])


def _recommend_job(setup, events, method, task):
    """The ranking of the moment, computed in the engines' worker process
    (:mod:`desktop.tabs.engine_process`) once it is ready."""
    return engine_process.run(task, inkognito.recommend, setup, events, method=method)
