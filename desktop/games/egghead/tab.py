"""The Egghead tab: the table as I see it (others' stacks as cards, mine as "?"), my valid stacks
with their probabilities, the per-position heat map, the question / reactions / solve forms,
behavioural analysis on or off, the plot of my valid stacks with and without analysis, and the
simulation panel (Zorn 2024, section 5).
"""
from __future__ import annotations

import functools

from PySide6.QtCore import QPoint, Qt, Slot
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QHBoxLayout,
    QMenu,
    QScrollArea,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from desktop.games.egghead.forms import NewGameDialog, stack_text
from desktop.games.egghead.panes import FormsArea, MyStackPane, SolveLine, position_labels
from desktop.games.egghead.simulation import SimulationPanel
from desktop.shell.locale_format import number
from desktop.tabs.base import GameTab
from desktop.tabs.jobs import Priority
from desktop.widgets.belief_plot import BeliefPlot
from desktop.widgets.quick_entry import EnterSubmits
from desktop.widgets.side_panes import SidePanes
from desktop.widgets.vscroll import VerticalScroll
from desktop.widgets.worksheet import CERTAIN_EPS
from engines import egghead
from engines.core.i18n import N_, _

SERIES_BA = N_("with analysis (BA)")
SERIES_NO_BA = N_("answers alone")
RULED_OUT = N_("ruled out by reactions")


class Tab(GameTab):
    """Egghead at the table: log answers, reaction rounds and solves; read my valid stacks."""

    GAME = "egghead"

    def make_plot(self) -> BeliefPlot:
        return BeliefPlot(_("Stacks I could have, after each event"), y_label=_("stacks I could have (log scale)"),
                          y_range=None, log_y=True)

    # -- layout -----------------------------------------------------------------------------
    def build_ui(self):
        self._view_setup = self.controller.setup
        root = QVBoxLayout(self)
        root.setContentsMargins(6, 6, 6, 6)
        root.addLayout(self._build_solve_bar())
        root.addWidget(self.banner)
        self.pages = QTabWidget()
        root.addWidget(self.pages, 1)
        self.pages.addTab(self._build_table_page(), _("Table"))
        yield                     # each part of the tab a turn of its own (GameTab._parts)
        self.sim_runner = self.make_runner("simulate", priority=Priority.BACKGROUND)
        self.simulation = SimulationPanel(self.sim_runner)
        self.pages.addTab(self.simulation, _("Simulation"))
        yield
        self.reset_views()

    def _build_solve_bar(self) -> QHBoxLayout:
        """"Can I solve now?" and my behavioural-analysis switch."""
        bar = QHBoxLayout()
        self.solve_label = SolveLine()
        bar.addWidget(self.solve_label, 1)
        self.ba_box = QCheckBox(_("Behavioural analysis (mine)"))
        self.ba_box.setToolTip(_("Use who solved and who did not to rule out stacks (seed section 4). "
                                 "Undoable; the log is kept."))
        self.ba_box.toggled.connect(self._ba_toggled)
        bar.addWidget(self.ba_box)
        return bar

    def _build_table_page(self) -> QWidget:
        """The Table page: the forms | my stack | history and plot."""
        page = QWidget()
        pl = QHBoxLayout(page)
        pl.setContentsMargins(0, 4, 0, 0)
        split = SidePanes()       # the side panes fold into tabs when the width is short
        pl.addWidget(split)
        split.addWidget(self._build_forms_pane())
        split.setStretchFactor(0, 3)
        split.add_pane(VerticalScroll(self._build_stack_pane()), _("My stack"), 2)
        right = QSplitter(Qt.Orientation.Vertical)
        self.history.set_word_wrap(True)
        right.addWidget(self.history)
        right.addWidget(self.plot)
        right.setSizes([300, 330])
        split.add_pane(right, _("History and plot"), 2)
        split.setSizes([560, 330, 390])
        self.side_panes = split
        return page

    def _build_forms_pane(self) -> QScrollArea:
        """The table of stacks and the question / reactions / solve forms (:class:`FormsArea`;
        scrolls for 6 players)."""
        area = self.forms_area = FormsArea(self.controller.setup)
        self.table_panel = area.table_panel
        self.question_form, self.reactions_form = area.question_form, area.reactions_form
        self.solve_form = area.solve_form
        self.table_panel.stackEdited.connect(self._stack_edited)
        self.table_panel.analysingChanged.connect(self._analysing_changed)
        self.table_panel.solveClicked.connect(self._solve_clicked)
        for form in area.forms():
            form.submitted.connect(self.log_json_checked)
            EnterSubmits(form, form.submit)
        self.answers_runner = self.make_runner("answers")
        self.answers_runner.resultReady.connect(self._on_possible_answers)
        self.question_form.answersWanted.connect(self._want_answers)
        # as wide as the forms want (measured when asked: follows the zoom), scrolls vertically
        scroll = VerticalScroll(area, prefer_hint=True)
        return scroll

    def _build_stack_pane(self) -> MyStackPane:
        """My stack (:class:`MyStackPane`); its Why? menus are the tab's."""
        pane = self.stack_pane = MyStackPane()
        self.worded(pane.cards_title.setText,
                    _("<b>Each of my cards</b> (sorted, lowest first): the chance of each value"),
                    _("<b>Each of my cards</b> (sorted, lowest first): P(value)"))
        self.valids, self.position_model = pane.valids, pane.position_model
        self.position_view, self.learned_label = pane.position_view, pane.learned_label
        self.others_label, self.valids_title = pane.others_label, pane.valids_title
        self.valids.customContextMenuRequested.connect(self._valids_menu)
        self.position_view.cellContextMenu.connect(self._position_menu)
        return pane

    # -- setup-dependent views ----------------------------------------------------------------
    def reset_views(self) -> None:
        setup = self.controller.setup
        self._view_setup = setup
        self.forms_area.set_setup(setup)
        self.stack_pane.set_setup(setup)
        self._sync_setup_widgets()
        # the plot's curves, with and without the analysis, made in the turns before the
        # beliefs arrive (BeliefPlot.reserve)
        self.plot.reserve(2)

    def _sync_setup_widgets(self) -> None:
        setup = self.controller.setup
        self.ba_box.blockSignals(True)
        self.ba_box.setChecked(setup.behavioural_analysis)
        self.ba_box.blockSignals(False)
        self.forms_area.follow_log(setup, self.controller.events)

    def events_changed(self) -> None:
        self._sync_setup_widgets()

    def setup_changed(self) -> None:
        """An option or the stacks seen changed (or its undo): rebuild what depends on the
        players and the deck, update the rest in place."""
        setup, old = self.controller.setup, self._view_setup
        if setup != old:
            structural = (setup.players, setup.me, setup.values, setup.cards_per_player,
                          setup.moderator) != (old.players, old.me, old.values,
                                               old.cards_per_player, old.moderator)
            if structural:
                self.reset_views()
                return
            self._view_setup = setup
            self.question_form.set_setup(setup)
            self.solve_form.set_setup(setup)
        self._sync_setup_widgets()

    # -- setup changes (undoable) -----------------------------------------------------------------
    def _replace_setup(self, text: str, merge_key: int = -1, **changes) -> None:
        if not self.replace_setup(text, merge_key, **changes):
            self._sync_setup_widgets()   # the refused change is undone on screen too

    def _ba_toggled(self, on: bool) -> None:
        self._replace_setup(_("Behavioural analysis on") if on else _("Behavioural analysis off"),
                            behavioural_analysis=on)

    def _analysing_changed(self, player: str, on: bool) -> None:
        setup = self.controller.setup
        now = set(setup.analysing) | {player} if on else set(setup.analysing) - {player}
        self._replace_setup((_("{player} uses behavioural analysis") if on else
                             _("{player} does not use behavioural analysis")).format(player=player),
                            analysing=tuple(p for p in setup.others if p in now))

    def _stack_edited(self, player: str, cards) -> None:
        setup = self.controller.setup
        if self.controller.events:
            self.warn(_("Cannot change the cards"),
                      _("Facts are logged already: log a solve to change {player}'s cards, "
                        "or start a new game.").format(player=player))
            self.table_panel.show_stacks(setup.visible_dict())
            return
        visible = tuple((p, tuple(sorted(cards)) if p == player else s) for p, s in setup.visible)
        self._replace_setup(_("{player}'s cards: {cards}").format(player=player, cards=stack_text(sorted(cards))),
                            merge_key=setup.players.index(player), visible=visible)

    # -- logging ------------------------------------------------------------------------------
    def _solve_clicked(self, player: str) -> None:
        self.solve_form.set_player(player)
        self.solve_form.focus_player()

    # -- results -----------------------------------------------------------------------------
    def beliefs_views(self) -> list:
        return [self.position_view, self.solve_label]   # "Can I solve now?" is of the beliefs

    def show_posterior(self, snap) -> None:
        self.solve_label.render(snap)
        self.forms_area.render(snap)
        self.stack_pane.render(snap)

    def show_moment(self, snap) -> None:
        self.forms_area.show_moment(snap)

    @Slot()
    def _want_answers(self) -> None:
        """The answers the selected question can get given the log, from the live posterior
        (my valid stacks × the stacks I see), as a task: a long list of valid stacks must not
        hold the GUI thread."""
        qid, mod, post = self.question_form.selection()
        if qid is None or post is None:
            self.answers_runner.cancel()
            return
        self.answers_runner.submit(functools.partial(_possible_answers_job, self.controller.setup,
                                                     post, qid, mod))

    @Slot(int, object, float)
    def _on_possible_answers(self, _rev: int, result, _secs: float) -> None:
        qid, mod, answers = result
        self.question_form.set_possible(qid, mod, answers)

    # -- Why? ------------------------------------------------------------------------------------
    @Slot(int, int, QPoint)
    def _position_menu(self, item: int, column: int, pos: QPoint) -> None:
        """Right-click on the position grid: Why? for "my card at this position shows this
        value" (``{"position", "value"}``, both from 1)."""
        setup = self.controller.setup
        m = self.position_model.matrix()
        p = None if m is None else float(m[item, column])
        decided = p is not None and (p <= CERTAIN_EPS or p >= 1 - CERTAIN_EPS)
        label = position_labels(setup.cards_per_player)[item].split(" ")[0]
        fact = (_("my card shows {value}") if setup.cards_per_player == 1 else
                _("my {position} card shows {value}")).format(position=label, value=column + 1)
        menu = QMenu(self)
        self.add_why_action(menu, {"position": item + 1, "value": column + 1}, fact, decided)
        if menu.actions():
            self.why_chosen(self.exec_menu(menu, pos), pos)

    @Slot(QPoint)
    def _valids_menu(self, point: QPoint) -> None:
        """Right-click on a stack of the list: Why? it is ruled out (a grey row) or the only
        one left (``{"stack": [...]}``)."""
        row = self.valids.row_at(point)
        if row < 0:
            return
        stack = self.valids.row_object(row)
        decided = not stack.valid or len(self.listed_valids()) == 1
        menu = QMenu(self)
        self.add_why_action(menu, {"stack": list(stack.stack)},
                            _("my stack is {stack}").format(stack=stack_text(stack.stack)), decided)
        if menu.actions():
            pos = self.valids.viewport().mapToGlobal(point)
            self.why_chosen(self.exec_menu(menu, pos), pos)

    def listed_valids(self) -> list[tuple]:
        """The valid stacks the list shows, in its order (rows ruled out by reactions
        excluded)."""
        return [r.stack for r in self.valids.rows() if r.valid]

    def listed_probabilities(self) -> list[str]:
        """The probabilities the list shows for the valid stacks, as text, in its order."""
        return [self.valids.text(i, 1) for i, r in enumerate(self.valids.rows()) if r.valid]

    def clear_beliefs(self) -> None:
        self.stack_pane.clear()
        self.solve_label.setText(_("No stack of mine is consistent with the setup."))

    def plot_series(self, snap) -> dict:
        timeline = snap.timeline
        n = len(timeline.summaries)  # whole events on the x axis
        step = max(1, -(-n // 10))
        self.plot.set_x_tick_spacing(step)
        pick = lambda key: [None if s is None else s[key] for s in timeline.summaries]  # noqa: E731 (a one-line key function)
        return {_(SERIES_BA): pick("valids_with_ba"), _(SERIES_NO_BA): pick("valids_without_ba")}

    def status_text(self, snap) -> str:
        post, seconds = snap.posterior, snap.seconds
        if not snap.wording.details:
            return _("Egghead · {ms} ms · {n} stacks I could have").format(
                ms=number(seconds * 1000), n=len(post.my_valids))
        return _("Egghead · master table · {ms} ms · {n} valid stacks · {worlds} worlds").format(
            ms=number(seconds * 1000), n=len(post.my_valids), worlds=number(post.worlds))

    # -- new game -----------------------------------------------------------------------------
    def new_game(self) -> bool:
        dlg = NewGameDialog(self, self.controller.setup)
        if dlg.exec() != QDialog.Accepted:
            return False
        self.reset_document(dlg.result_setup(), [])
        return True


def _possible_answers_job(setup, post, question: str, moderator, task) -> tuple:
    """``(question, moderator, answers)``: the moderator's answer over every stack I may still
    hold (``post.my_valids``, the exact engine's) with the others' stacks as I see them —
    :func:`egghead.possible_answers` read from a posterior already computed."""
    if moderator is not None and moderator == setup.me:
        return question, moderator, [egghead.answer_for(setup, question, post.visible, moderator)]
    others = {p: s for p, s in post.visible.items() if p != setup.me}
    answers = set()
    for i, mine in enumerate(post.my_valids):
        if i % 256 == 0 and task():
            return question, moderator, []
        answers.add(egghead.answer_for(setup, question, {**others, setup.me: mine}, moderator))
    return question, moderator, sorted(answers)
