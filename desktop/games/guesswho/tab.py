"""The Guess Who? tab: the board as character cards, the ranked questions with Yes/No, the
opponent panel (their standing cards, my win probability, the advised split), plots of
candidates/entropy and win probability, and a strategy simulator.

Every fact goes through the undoable log: clicking a standing card logs an ``eliminate``;
clicking a card I knocked down removes that event (undoable); Yes/No logs an ``answer``; the
opponent spin box logs an ``opponent`` event. The compound-questions switch, ε and the rules
change the setup through an undoable command. Inference and simulation run in background runners.
"""
from __future__ import annotations

import math
from typing import Optional

from PySide6.QtCore import QItemSelectionModel, QPoint, Qt, Slot
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDialog,
    QDoubleSpinBox,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMenu,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from desktop.games.guesswho.cards import BoardView, question_words
from desktop.games.guesswho.forms import NewGameDialog, SimulationPanel
from desktop.games.guesswho.model import (
    COL_BITS,
    COL_LEFT,
    COL_QUESTION,
    COL_SPLIT,
    QuestionTableModel,
    QuestionView,
    SplitBarDelegate,
    question_key,
)
from desktop.games.guesswho.panes import RULE_NAMES, RacePane, advised_question
from desktop.shell.appearance import muted_css, scheme_style, tone
from desktop.shell.locale_format import number
from desktop.table.zoom import scaled_size
from desktop.tabs.base import GameTab
from desktop.tabs.jobs import Priority
from desktop.widgets.belief_plot import BeliefPlot
from desktop.widgets.plain_text import esc
from desktop.widgets.role_data import MultiDataProxy
from desktop.widgets.side_panes import SidePanes
from desktop.widgets.worksheet import format_probability
from engines import guesswho
from engines.core.errors import SessionFormatError
from engines.core.i18n import _, ngettext
from engines.guesswho import Eliminate, Opponent

#: merge key of consecutive ε edits (one undo step)
_EPS_MERGE = 51


class Tab(GameTab):
    """Guess Who? at the table: knock cards down, log answers, follow the best questions and
    the race against the opponent."""

    GAME = "guesswho"

    def log_plots(self) -> list:
        return [self.plot, self.entropy_plot, self.win_plot]

    def make_plot(self) -> BeliefPlot:
        return BeliefPlot(_("Cards standing after each event"), y_label=_("cards"), y_range=None)

    # -- layout ----------------------------------------------------------------------------
    def build_ui(self):
        self._built_board = None
        self._current_question: Optional[dict] = None
        self._posterior = None
        self._notice = False
        self._reselecting = False
        root = QVBoxLayout(self)
        root.setContentsMargins(6, 6, 6, 6)
        root.addLayout(self._build_rules_bar())
        self.summary = QLabel()
        self.summary.setTextFormat(Qt.RichText)
        self.summary.setWordWrap(True)
        root.addWidget(self.summary)
        root.addWidget(self.banner)
        split = SidePanes()       # the side panes fold into tabs when the width is short
        root.addWidget(split, 1)
        split.addWidget(self._build_board_pane())
        split.setStretchFactor(0, 3)
        yield                     # each part of the tab a turn of its own (GameTab._parts)
        split.add_pane(self._build_middle_pane(), _("Questions"), 2)
        yield
        right = QSplitter(Qt.Orientation.Vertical)
        right.addWidget(self.history)
        right.addWidget(self._build_plot_tabs())
        right.setSizes([230, 450])
        split.add_pane(right, _("History and plots"), 2)
        split.setSizes([560, 400, 320])
        self.side_panes = split
        self._set_current_question(None)
        yield
        self.reset_views()

    def _build_rules_bar(self) -> QHBoxLayout:
        """The board's name, the rules, compound questions and the answer error ε."""
        bar = QHBoxLayout()
        self.board_label = QLabel()
        self.board_label.setTextFormat(Qt.RichText)
        bar.addWidget(self.board_label)
        bar.addSpacing(12)
        self.rules = QComboBox()
        for r in guesswho.RULES:
            self.rules.addItem(_(RULE_NAMES[r]) if r in RULE_NAMES else r, r)
        self.rules.setToolTip(_("Official: naming a character takes a turn and a wrong name loses. "
                                "Instant: you win the moment one card is left."))
        self.rules.currentIndexChanged.connect(self._rules_changed)
        bar.addWidget(QLabel(_("Rules:")))     # named for a screen reader too (labelled-by)
        bar.addWidget(self.rules)
        self.compound = QCheckBox(_("Compound questions"))
        self.compound.setToolTip(_("House rule: allow “A or B?” questions"))
        self.compound.toggled.connect(self._compound_toggled)
        bar.addWidget(self.compound)
        error_label = QLabel()
        self.worded(error_label.setText, _("Wrong answers"), _("Answer error ε"))
        bar.addWidget(error_label)
        self.error_rate = QDoubleSpinBox()
        self.error_rate.setRange(0.0, 0.45)
        self.error_rate.setDecimals(2)
        self.error_rate.setSingleStep(0.01)
        self.error_rate.setKeyboardTracking(False)
        self.error_rate.setToolTip(_("How often does the opponent answer wrongly? (the model's ε, "
                                     "a probability). Above 0, answers weigh the cards (badges show "
                                     "each card's chance) instead of knocking them down."))
        self.error_rate.valueChanged.connect(self._error_rate_changed)
        bar.addWidget(self.error_rate)
        bar.addStretch(1)
        return bar

    def _build_board_pane(self) -> QWidget:
        """The board as character cards (click to knock down / stand up)."""
        left = QWidget()
        ll = QVBoxLayout(left)
        ll.setContentsMargins(0, 0, 0, 0)
        hint = QLabel("<b>{board}</b> <span style='{css}'>{how}</span>".format(
            board=esc(_("Board")), css=muted_css(),
            how=esc(_("— click a card to knock it down, click it again to stand it up; blue outline "
                      "= “yes” to the selected question"))))
        hint.setWordWrap(True)
        ll.addWidget(hint)
        self.board_view = BoardView()
        self.board_view.cardClicked.connect(self._card_clicked)
        self.board_view.cardContextMenu.connect(self._card_menu)
        ll.addWidget(self.board_view, 1)
        return left

    def _build_middle_pane(self) -> QWidget:
        """The ranked questions with Yes / No, above the opponent and the race."""
        mid = QWidget()
        ml = QVBoxLayout(mid)
        ml.setContentsMargins(0, 0, 0, 0)
        ml.addWidget(self._build_questions_box(), 3)
        ml.addWidget(self._build_opponent_box(), 0)
        return mid

    def _build_questions_box(self) -> QGroupBox:
        """The question list (filter, ranking), naming a character, and the Yes / No row."""
        qbox = QGroupBox(_("Questions — best first (★ advised)"))
        ql = QVBoxLayout(qbox)
        ql.setContentsMargins(6, 4, 6, 6)
        self.filter = QLineEdit()
        self.filter.setPlaceholderText(_("Filter questions…"))
        self.filter.setClearButtonEnabled(True)
        ql.addWidget(self.filter)
        ql.addWidget(self._build_question_view(), 1)
        self.filter.textChanged.connect(self.proxy.setFilterFixedString)
        ql.addLayout(self._build_name_row())
        ql.addLayout(self._build_answer_row())
        return qbox

    def _build_question_view(self) -> QTableView:
        """The ranked questions: their model behind a filter proxy, the split drawn as a bar."""
        self.questions = QuestionTableModel(self)
        self.proxy = MultiDataProxy(self)      # a cell's roles in one call, as kept by the model
        self.proxy.setSourceModel(self.questions)
        self.proxy.setFilterKeyColumn(COL_QUESTION)
        self.proxy.setFilterCaseSensitivity(Qt.CaseInsensitive)
        self.question_view = QuestionView()   # as wide as its questions need, whole
        self.question_view.setModel(self.proxy)
        self.question_view.setItemDelegateForColumn(COL_SPLIT, SplitBarDelegate(self.question_view))
        self.question_view.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.question_view.setSelectionMode(QAbstractItemView.SingleSelection)
        self.question_view.setEditTriggers(QAbstractItemView.NoEditTriggers)
        self.question_view.verticalHeader().setVisible(False)
        self.question_view.verticalHeader().setDefaultSectionSize(22)
        hh = self.question_view.horizontalHeader()
        hh.setSectionResizeMode(COL_QUESTION, QHeaderView.Stretch)
        hh.setSectionResizeMode(COL_BITS, QHeaderView.ResizeToContents)
        # as wide as its title, which the zoom scales (a fixed 110 px cut it at 150 %)
        hh.setSectionResizeMode(COL_SPLIT, QHeaderView.ResizeToContents)
        hh.setSectionResizeMode(COL_LEFT, QHeaderView.ResizeToContents)
        self.question_view.selectionModel().currentRowChanged.connect(self._question_selected)
        return self.question_view

    def _build_name_row(self) -> QHBoxLayout:
        """"Or name one": the character picker and its "is it …?" button."""
        name_row = QHBoxLayout()
        name_row.addWidget(QLabel(_("Or name one:")))
        self.name_pick = QComboBox()
        self.name_pick.setSizeAdjustPolicy(QComboBox.AdjustToContents)
        name_row.addWidget(self.name_pick, 1)
        self.name_button = QPushButton(_("Select “is it …?”"))
        self.name_button.clicked.connect(self._select_name_question)
        name_row.addWidget(self.name_button)
        return name_row

    def _build_answer_row(self) -> QHBoxLayout:
        """The selected question in words and the Yes / No buttons that log its answer."""
        ask = QHBoxLayout()
        self.asked_label = QLabel()
        self.asked_label.setWordWrap(True)
        self.asked_label.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Preferred)
        ask.addWidget(self.asked_label, 1)
        self.yes_button = QPushButton(_("Yes"))
        self.no_button = QPushButton(_("No"))
        for b, colour in ((self.yes_button, "#2e7d32"), (self.no_button, "#c62828")):
            scaled_size(b, min_width=64)
            scheme_style(b, lambda c=colour: f"QPushButton:enabled {{ color:{tone(c)}; font-weight:bold }}")
            ask.addWidget(b)
        self.yes_button.clicked.connect(lambda: self.answer(True))
        self.no_button.clicked.connect(lambda: self.answer(False))
        return ask

    def _build_opponent_box(self) -> RacePane:
        """The opponent's standing cards, my win probability and the advised split."""
        self.race = RacePane()
        self.race.opponentChanged.connect(self._opponent_changed)
        self.race.adviceRequested.connect(self.select_advised_question)
        self.opponent, self.win_label = self.race.opponent, self.race.win_label
        self.advice_label, self.use_advice = self.race.advice_label, self.race.use_advice
        return self.race

    def _build_plot_tabs(self) -> QTabWidget:
        """Cards, entropy and win-odds plots, and the strategy simulator."""
        plots = QTabWidget()
        plots.addTab(self.plot, _("Cards"))
        self.entropy_plot = BeliefPlot(_("Uncertainty about the secret character"), y_label=_("bits"),
                                       y_range=None)
        plots.addTab(self.entropy_plot, _("Uncertainty"))
        self.worded(lambda t: plots.setTabText(plots.indexOf(self.entropy_plot), t),
                    _("Uncertainty"), _("Entropy"))
        self.worded(self.entropy_plot.set_y_label, _("uncertainty"), _("bits"))
        self.win_plot = BeliefPlot(_("My win probability (my turn to ask, both optimal)"))
        plots.addTab(self.win_plot, _("Win odds"))
        self.sim_runner = self.make_runner("simulate", priority=Priority.BACKGROUND)
        self.sim_runner.resultReady.connect(self._on_simulation_done)
        self.sim_panel = SimulationPanel(self.sim_runner, lambda: self.controller.setup)
        plots.addTab(self.sim_panel, _("Simulate"))
        self.plot_tabs = plots
        return plots

    # -- setup-dependent views ------------------------------------------------------------
    def reset_views(self) -> None:
        setup = self.controller.setup
        board = setup.board
        if board is not self._built_board:
            self._built_board = board
            self.board_view.set_board(board)
            self.questions.set_ranking(())
            self._set_current_question(None)
            self.opponent.blockSignals(True)
            self.opponent.setMaximum(board.size)
            self.opponent.blockSignals(False)
            self.win_plot.set_series({})
            self.plot.set_y_range((0, board.size * 1.3))
            self.entropy_plot.set_y_range((0, math.log2(board.size) * 1.3))
        note = board.note or ""
        tip = esc(note)
        flag = f" <span style='color:{tone('#e65100')}'><u>{esc(_('note'))}</u></span>" if note else ""
        self.board_label.setText(f"<b>{esc(_(board.name))}</b>" + flag)   # "Classic (24 characters)" translated
        self.board_label.setToolTip(f"<p>{tip}</p>" if tip else "")
        self._sync_controls()
        # the plots' curves made in the turns before the beliefs arrive (BeliefPlot.reserve):
        # the cards standing (and the most likely ones when answers may be wrong), my chance
        # to win, the entropy
        self.plot.reserve(1 + (setup.error_rate > 0))
        self.win_plot.reserve(1)
        self.entropy_plot.reserve(1)

    def _sync_controls(self) -> None:
        setup = self.controller.setup
        for w in (self.rules, self.compound, self.error_rate):
            w.blockSignals(True)
        self.rules.setCurrentIndex(max(0, self.rules.findData(setup.rules)))
        self.compound.setChecked(setup.compound_questions)
        self.error_rate.setValue(setup.error_rate)
        for w in (self.rules, self.compound, self.error_rate):
            w.blockSignals(False)

    def events_changed(self) -> None:
        self._after_edit()

    def setup_changed(self) -> None:
        self._after_edit()

    def _after_edit(self) -> None:
        if self._notice:
            self.banner.clear()
            self._notice = False
        if self.controller.setup.board is not self._built_board:
            self.reset_views()
        else:
            self._sync_controls()

    def _replace_setup(self, text: str, merge_key: int = -1, **changes) -> None:
        if not self.replace_setup(text, merge_key, **changes):
            self._sync_controls()

    def _rules_changed(self, _i: int) -> None:
        rules = self.rules.currentData()
        self._replace_setup(_("Rules: {rules}").format(rules=_(RULE_NAMES[rules]) if rules in RULE_NAMES
                                                      else rules), rules=rules)

    def _compound_toggled(self, on: bool) -> None:
        self._replace_setup(_("Allow compound questions") if on else _("Single questions only"),
                            compound_questions=on)

    def _error_rate_changed(self, value: float) -> None:
        self._replace_setup(_("Answer error rate ε = {value}").format(value=number(value, 2)), _EPS_MERGE,
                            error_rate=round(float(value), 4))

    # -- results --------------------------------------------------------------------------
    def wording_changed(self, wording) -> None:
        from desktop.games.guesswho.model import question_columns
        self.questions.set_columns(question_columns(wording))

    def beliefs_views(self) -> list:
        # the cards an answer changed (not the whole board: each card paints itself in Python,
        # about 1 ms a card) and the ranked questions, which are of the beliefs too
        return [*self.board_view.take_changed(), self.question_view]

    def show_posterior(self, snap) -> None:
        post, k = snap.posterior, snap.k
        self._posterior = post
        setup = snap.setup
        events = snap.events[:k]
        mine = {e.name for e in events if isinstance(e, Eliminate)}
        badge = setup.error_rate > 0
        pmax = float(post.probabilities.max()) if len(post.probabilities) else 1.0
        for i, name in enumerate(post.names):
            alive = bool(post.alive[i])
            self.board_view.set_card_state(name, float(post.probabilities[i]), not alive,
                                           name in mine, alive and not bool(post.likely[i]),
                                           badge, 1.0 / pmax if pmax > 0 else 1.0)
        starred = {}
        if post.advised_question is not None:
            starred[question_key(post.advised_question)] = (
                _("the race advises a {yes}/{no} split").format(yes=post.advised_split[0],
                                                                 no=post.advised_split[1]))
        if post.best_question is not None:
            starred.setdefault(question_key(post.best_question),
                               _("fewest expected questions to find the secret"))
        self.questions.set_ranking(post.questions, starred, self.words)
        self._reselect_current()
        # name picker: the standing cards, most probable first
        names = sorted(post.candidates, key=lambda n: -post.candidates[n])
        if names != [self.name_pick.itemText(i) for i in range(self.name_pick.count())]:
            # refilled only when the standing cards change: its items size the combo box
            cur = self.name_pick.currentText()
            self.name_pick.blockSignals(True)
            self.name_pick.clear()
            for name in names:
                self.name_pick.addItem(name)
            if cur in post.candidates:
                self.name_pick.setCurrentText(cur)
            self.name_pick.blockSignals(False)
        self.race.render(snap)
        self._show_summary(post, k, snap.n)

    def words(self, q: Optional[dict]) -> str:
        """A question (event form) in the short words of the cards ("Blond hair or hat?")."""
        return "" if q is None else question_words(q, self.controller.setup.board)

    def _show_summary(self, post, k: int, n: int) -> None:
        parts = []
        if k != n:
            parts.append("<i>{}</i>".format(esc(_("as after entry {k}").format(k=k))))
        parts.append(ngettext("<b>{n}</b> card standing", "<b>{n}</b> cards standing",
                              post.n_candidates).format(n=post.n_candidates))
        details = self.snapshot.wording.details
        if details:
            parts.append(_("entropy {bits} bits").format(bits=number(post.entropy_bits, 2)))
        if post.expected_questions is not None and details:
            if post.expected_questions_exact:
                text = _("{n} questions expected with best play")
            else:
                text = _("{n} questions expected with best play (upper bound)")
            parts.append(text.format(n=number(post.expected_questions, 2)))
        elif post.expected_questions is not None:
            if post.expected_questions_exact:
                text = _("about {n} more questions with the best play")
            else:
                text = _("at most about {n} more questions with the best play")
            parts.append(text.format(n=number(post.expected_questions, 1)))
        if post.n_candidates == 1:
            name = next(iter(post.candidates))
            parts.append(f"<span style='color:{tone('#1b5e20')}'><b>"
                         + esc(_("it is {name}").format(name=name)) + "</b></span>")
        elif post.error_rate > 0:
            top = max(post.candidates, key=post.candidates.get)
            parts.append(esc(_("most likely {name} ({p})").format(
                name=top, p=format_probability(post.candidates[top]))))
        self.summary.setText(" · ".join(parts))

    def clear_beliefs(self) -> None:
        self.questions.set_ranking(())
        self.summary.setText(_("no character fits the log"))

    def plot_series(self, snap) -> dict:
        timeline = snap.timeline
        posts = timeline.posteriors
        self.win_plot.set_series({_("my win probability"): [p.win_probability for p in posts]})
        name = snap.wording.pick(_("how open it still is"), _("entropy (bits)"))
        self.entropy_plot.set_series({name: [p.entropy_bits for p in posts]})
        series = {_("cards standing"): [float(p.n_candidates) for p in posts]}
        if snap.setup.error_rate > 0:
            series[_("most likely cards")] = [float(p.likely.sum()) for p in posts]
        return series

    def status_text(self, snap) -> str:
        post, seconds = snap.posterior, snap.seconds
        text = _("Guess Who? · {n} standing · {bits} bits · {ms} ms") if snap.wording.details \
            else _("Guess Who? · {n} standing · {ms} ms")
        return text.format(n=post.n_candidates, bits=number(post.entropy_bits, 2),
                           ms=number(seconds * 1000))

    # -- questions and answers ------------------------------------------------------------
    def select_advised_question(self) -> None:
        """Make the advised question (race, else fewest expected questions) the current one."""
        if self._posterior is not None:
            self._set_current_question(advised_question(self._posterior))
            self._reselect_current()

    def select_question(self, question: dict) -> None:
        """Make ``question`` (event form) the current question and select its row."""
        self._set_current_question(question)
        self._reselect_current()

    def _select_name_question(self) -> None:
        name = self.name_pick.currentText()
        if name:
            self.select_question({"attribute": "name", "value": name})

    @Slot(object, object)
    def _question_selected(self, current, _previous) -> None:
        if self._reselecting or not current.isValid():
            return
        row = self.proxy.mapToSource(current).row()
        q = self.questions.question(row)
        if q is not None:
            self._set_current_question(q)

    def _reselect_current(self) -> None:
        row = self.questions.row_of(self._current_question)
        sel = self.question_view.selectionModel()
        self._reselecting = True
        if row < 0:
            self.question_view.clearSelection()
            sel.clearCurrentIndex()
        else:
            idx = self.proxy.mapFromSource(self.questions.index(row, 0))
            if idx.isValid():
                sel.setCurrentIndex(idx, QItemSelectionModel.ClearAndSelect | QItemSelectionModel.Rows)
                self.question_view.scrollTo(idx)
        self._reselecting = False

    def _set_current_question(self, q: Optional[dict]) -> None:
        self._current_question = q
        enabled = q is not None
        self.yes_button.setEnabled(enabled)
        self.no_button.setEnabled(enabled)
        truth = None
        if q is None:
            self.asked_label.setText(_("Select a question, then log the answer →"))
        else:
            try:
                question = guesswho.parse_question(q, self.controller.setup.board, "question")
                truth = self.controller.setup.board.truth(question)
                label = self.words(q)
            except SessionFormatError as exc:
                label = exc.message
            self.asked_label.setText(_("Asked “{question}” — the answer:").format(
                question=f"<b>{esc(label)}</b>"))
        names = self.controller.setup.board.names
        self.board_view.set_highlighted(() if truth is None else
                                        [n for i, n in enumerate(names) if truth[i]])

    def current_question(self) -> Optional[dict]:
        """The selected question (event form) that Yes/No will answer, or None."""
        return self._current_question

    def answer(self, yes: bool) -> None:
        """Log the opponent's answer to the current question (the Yes/No buttons)."""
        q = self._current_question
        if q is None:
            self.warn(_("No question selected"), _("Select a question in the list first, then Yes or No."))
            return
        # the next entry is the next question: keep the focus there (disabling the Yes/No
        # button that has it would pass it on to the next widget in the tab order)
        refocus = self.yes_button.hasFocus() or self.no_button.hasFocus()
        self.log_json_checked({"type": "answer", "question": q, "answer": bool(yes)},
                              logged=lambda: self._answered(refocus))

    def _answered(self, refocus: bool) -> None:
        if refocus:
            self.question_view.setFocus(Qt.OtherFocusReason)
        # no row stays current once its question is answered: a click on that row makes it
        # current again (a click on the current row changes nothing: Yes/No would stay off)
        self.question_view.clearSelection()
        self.question_view.selectionModel().clearCurrentIndex()
        self._set_current_question(None)

    # -- cards --------------------------------------------------------------------------
    @Slot(str)
    def _card_clicked(self, name: str) -> None:
        self.click_card(name)

    def click_card(self, name: str) -> None:
        """Knock ``name`` down (log an eliminate) or, if I knocked it down, stand it up (remove
        that eliminate event, undoable). A card ruled out by an answer gets a note instead."""
        events = self.controller.events
        mine = [i for i, e in enumerate(events) if isinstance(e, Eliminate) and e.name == name]
        if mine:
            self.remove_event(mine[-1])
            return
        tl = self.controller.timeline
        live = tl.latest if tl is not None else None
        if live is not None and name in live.names and not live.alive[live.names.index(name)]:
            self.banner.show_message(
                _("{name} was ruled out by an answer. To stand it up, undo that answer or remove "
                  "it in the history.").format(name=f"<b>{esc(name)}</b>"), "info")
            self._notice = True
            return
        self.log_json_checked({"type": "eliminate", "name": name})

    @Slot(str, QPoint)
    def _card_menu(self, name: str, pos: QPoint) -> None:
        """Right-click on a card: Why? it is down (ruled out) or the only one left
        (``{"name": character}``)."""
        post = self._posterior
        p = None
        if post is not None and name in post.names:
            p = float(post.probabilities[post.names.index(name)])
        down = p is not None and p <= 0.0
        certain = p is not None and p >= 1.0 - 1e-12
        label = (_("Why is {name} down?") if down else _("Why is it {name}?") if certain
                 else _("Why?")).format(name=name)
        menu = QMenu(self)
        self.add_why_action(menu, {"name": name}, _("the secret character is {name}").format(name=name),
                            down or certain, label)
        if menu.actions():
            self.why_chosen(self.exec_menu(menu, pos), pos)

    # -- opponent -----------------------------------------------------------------------
    def _opponent_changed(self, value: int) -> None:
        tl = self.controller.timeline
        live = tl.latest if tl is not None else None
        known = live.opponent_remaining if live is not None else None
        if value == 0:  # "unknown": a count cannot be taken back, only undone
            self.opponent.blockSignals(True)
            self.opponent.setValue(known or 0)
            self.opponent.blockSignals(False)
            return
        if value == known:
            return
        events = self.controller.events
        if events and isinstance(events[-1], Opponent):
            # the opponent's count changed again before anything else happened: one entry
            try:
                ev = guesswho.event_from_json({"type": "opponent", "remaining": value},
                                              self.controller.setup, "opponent")
            except SessionFormatError as exc:
                self.warn(_("Cannot log this"), exc.message)
                return
            self.replace_event(len(events) - 1, ev)
            return
        self.log_json({"type": "opponent", "remaining": value})

    # -- simulation ---------------------------------------------------------------------
    def run_simulation(self, strategies: list, games: int, seed: int) -> None:
        """Play ``strategies`` against each other in the background (this board and rules)."""
        self.sim_panel.set_options(strategies, games, seed)
        self.sim_panel.run()

    @Slot(int, object, float)
    def _on_simulation_done(self, _rev, _result, seconds) -> None:
        self.statusMessage.emit(_("Guess Who? simulation done in {seconds} s").format(seconds=number(seconds, 1)))

    # -- new game -------------------------------------------------------------------------
    def new_game(self) -> bool:
        dlg = NewGameDialog(self, self.controller.setup)
        if dlg.exec() != QDialog.Accepted:
            return False
        self.reset_document(dlg.result_setup(), [])
        return True
