"""The Egghead tab: the table as I see it (others' stacks as cards, mine as "?"), my valid stacks
with their probabilities, the per-position heat map, the question / reactions / solve forms,
behavioural analysis on or off, the plot of my valid stacks with and without analysis, and the
simulation panel (Zorn 2024, section 5).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Optional

import numpy as np
from PySide6.QtCore import QPoint, Qt, Slot
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QMenu,
    QScrollArea,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from desktop.games.egghead.forms import NewGameDialog, QuestionForm, ReactionsForm, SolveForm, TablePanel, stack_text
from desktop.games.egghead.panes import SolveLine
from desktop.games.egghead.simulation import SimulationPanel
from desktop.shell.appearance import muted, readable_on
from desktop.tabs.base import GameTab
from desktop.tabs.jobs import Priority
from desktop.widgets.belief_plot import BeliefPlot
from desktop.widgets.columns import Column, ColumnTable
from desktop.widgets.fit_rows import FittedWorksheetView
from desktop.widgets.plain_text import esc
from desktop.widgets.quick_entry import EnterSubmits
from desktop.widgets.side_panes import SidePanes
from desktop.widgets.vscroll import VerticalScroll
from desktop.widgets.worksheet import CERTAIN_EPS, ProbabilityTableModel, format_probability, heat_color
from engines import egghead

SERIES_BA = "with analysis (BA)"
SERIES_NO_BA = "answers alone"
RULED_OUT = "ruled out by reactions"


@dataclass(frozen=True)
class StackRow:
    """A row of my stacks: the stack, its probability (None: the answers allow it but the
    reactions ruled it out) and whether I can solve (the one stack left, shown bold)."""

    stack: tuple
    probability: Optional[float]
    solved: bool = False

    @property
    def valid(self) -> bool:
        return self.probability is not None


def _probability_foreground(r: StackRow) -> QColor:
    if not r.valid:
        return muted()
    # dark text on a light cell, white on a dark one, whatever the palette's text colour
    return readable_on(heat_color(r.probability))


#: My stacks: valid ones with their probability on the heat colour, ruled-out ones grey.
STACK_COLUMNS = (
    Column("Stack", lambda r: stack_text(r.stack), sort_key=lambda r: r.stack,
           bold=lambda r: r.solved, foreground=lambda r: None if r.valid else muted()),
    Column("Probability", lambda r: r.probability if r.valid else RULED_OUT, numeric=True,
           format=lambda v: v if isinstance(v, str) else format_probability(v),
           sort_key=lambda r: r.probability,
           tooltip=lambda r: f"P = {r.probability:.6f} (prior: multinomial weight of the stack)"
           if r.valid else "the answers allow it; the reactions ruled it out",
           background=lambda r: heat_color(r.probability) if r.valid else None,
           foreground=_probability_foreground),
)


def _rich_label(text: str = "") -> QLabel:
    """A word-wrapped rich-text label (a long text must not widen its pane)."""
    label = QLabel(text)
    label.setWordWrap(True)
    label.setTextFormat(Qt.RichText)
    return label


def position_labels(k: int) -> list[str]:
    """Row labels of the position grid: my cards sorted, lowest first."""
    if k == 1:
        return ["my card"]
    out = []
    for i in range(k):
        name = {0: "1st", 1: "2nd", 2: "3rd"}.get(i, f"{i + 1}th")
        if i == 0:
            name += " (lowest)"
        elif i == k - 1:
            name += " (highest)"
        out.append(name)
    return out


def learned_text(post) -> str:
    """What I learned from whom: my stacks ruled out by each moderator's answers and by each
    player's reactions (from the posterior's LearnedRecords)."""
    answers: dict[str, int] = {}
    reactions: dict[str, int] = {}
    for r in post.learned:
        if r.kind == "answer":
            src = "the moderator" if r.source == "moderator" else r.source
            answers[src] = answers.get(src, 0) + r.removed
        elif r.kind == "reactions":
            for p, n in r.removed_by.items():
                reactions[p] = reactions.get(p, 0) + n
    if not answers and not reactions:
        return "<b>Stacks ruled out</b>: nothing logged yet"
    parts = []
    if answers:
        parts.append("by answers — " + ", ".join(f"{esc(s)}: {n}" for s, n in answers.items()))
    if reactions:
        parts.append("by reactions — " + ", ".join(f"{esc(s)}: {n}" for s, n in reactions.items()))
    return "<b>Stacks ruled out</b> " + "; ".join(parts)


class Tab(GameTab):
    """Egghead at the table: log answers, reaction rounds and solves; read my valid stacks."""

    GAME = "egghead"

    def make_plot(self) -> BeliefPlot:
        return BeliefPlot("Stacks I could have, after each event", y_label="stacks I could have (log scale)",
                          y_range=None, log_y=True)

    # -- layout -----------------------------------------------------------------------------
    def build_ui(self) -> None:
        self._view_setup = self.controller.setup
        root = QVBoxLayout(self)
        root.setContentsMargins(6, 6, 6, 6)
        root.addLayout(self._build_solve_bar())
        root.addWidget(self.banner)
        self.pages = QTabWidget()
        root.addWidget(self.pages, 1)
        self.pages.addTab(self._build_table_page(), "Table")
        self.sim_runner = self.make_runner("simulate", priority=Priority.BACKGROUND)
        self.simulation = SimulationPanel(self.sim_runner)
        self.pages.addTab(self.simulation, "Simulation")
        self.reset_views()

    def _build_solve_bar(self) -> QHBoxLayout:
        """"Can I solve now?" and my behavioural-analysis switch."""
        bar = QHBoxLayout()
        self.solve_label = SolveLine()
        bar.addWidget(self.solve_label, 1)
        self.ba_box = QCheckBox("Behavioural analysis (mine)")
        self.ba_box.setToolTip("Use who solved and who did not to rule out stacks (seed section 4). "
                               "Undoable; the log is kept.")
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
        split.add_pane(VerticalScroll(self._build_stack_pane()), "My stack", 2)
        right = QSplitter(Qt.Orientation.Vertical)
        self.history.set_word_wrap(True)
        right.addWidget(self.history)
        right.addWidget(self.plot)
        right.setSizes([300, 330])
        split.add_pane(right, "History and plot", 2)
        split.setSizes([560, 330, 390])
        self.side_panes = split
        return page

    def _build_forms_pane(self) -> QScrollArea:
        """The table of stacks and the question / reactions / solve forms (scrolls for 6
        players)."""
        setup = self.controller.setup
        left = QWidget()
        ll = QVBoxLayout(left)
        ll.setContentsMargins(0, 0, 4, 0)
        self.table_panel = TablePanel(setup)
        self.table_panel.stackEdited.connect(self._stack_edited)
        self.table_panel.analysingChanged.connect(self._analysing_changed)
        self.table_panel.solveClicked.connect(self._solve_clicked)
        ll.addWidget(self.table_panel)
        self.question_form = QuestionForm(setup)
        self.reactions_form = ReactionsForm(setup)
        self.solve_form = SolveForm(setup)
        for form in (self.question_form, self.reactions_form, self.solve_form):
            form.submitted.connect(self.log_json_checked)
            EnterSubmits(form, form.submit)
            ll.addWidget(form)
        self.answers_runner = self.make_runner("answers")
        self.answers_runner.resultReady.connect(self._on_possible_answers)
        self.question_form.answersWanted.connect(self._want_answers)
        ll.addStretch(1)
        # as wide as the forms want (measured when asked: follows the zoom), scrolls vertically
        scroll = VerticalScroll(left, prefer_hint=True)
        return scroll

    def _build_stack_pane(self) -> QGroupBox:
        """My stack: what the others can solve, my valid stacks, each of my cards, what I
        learned."""
        mid = QGroupBox("My stack")
        ml = QVBoxLayout(mid)
        self.others_label = _rich_label()
        ml.addWidget(self.others_label)
        self.valids_title = _rich_label("<b>Stacks I could have</b>")  # long counts must not widen the pane
        ml.addWidget(self.valids_title)
        self.valids = ColumnTable(STACK_COLUMNS, stretch=True, sortable=True, tooltip=(
            "Grey rows: stacks the answers allow but the reactions ruled out (what behavioural "
            "analysis bought). Right-click: Why?  Click a header to sort."))
        self.valids.verticalHeader().setDefaultSectionSize(22)
        self.valids.setContextMenuPolicy(Qt.CustomContextMenu)
        self.valids.customContextMenuRequested.connect(self._valids_menu)
        ml.addWidget(self.valids, 3)
        cards_title = _rich_label("")
        self.worded(cards_title.setText,
                    "<b>Each of my cards</b> (sorted, lowest first): the chance of each value",
                    "<b>Each of my cards</b> (sorted, lowest first): P(value)")
        ml.addWidget(cards_title)
        self.position_model = ProbabilityTableModel(
            [], [], tooltip=lambda row, col, p: f"Chance that my {row.split(' ')[0]} card shows {col}: "
                                        f"{100 * p:.4g} %")
        # every row shown, at any zoom, with or without a scroll bar
        self.position_view = FittedWorksheetView()
        self.position_view.setModel(self.position_model)
        self.position_view.cellContextMenu.connect(self._position_menu)
        ml.addWidget(self.position_view)
        self.learned_label = _rich_label()
        ml.addWidget(self.learned_label)
        return mid

    # -- setup-dependent views ----------------------------------------------------------------
    def reset_views(self) -> None:
        setup = self.controller.setup
        self._view_setup = setup
        self.table_panel.set_setup(setup)
        self.question_form.set_setup(setup)
        self.reactions_form.set_setup(setup)
        self.solve_form.set_setup(setup)
        self.position_model.set_layout([("", position_labels(setup.cards_per_player))],
                                       [str(v) for v in range(1, setup.values + 1)])
        # every value column visible (the pane is never narrower than the grid)
        self.position_view.setMinimumWidth(100 + 42 * setup.values)
        self.valids.clear_rows()
        self._sync_setup_widgets()
        self._prefill_reactions()

    def _sync_setup_widgets(self) -> None:
        setup = self.controller.setup
        self.ba_box.blockSignals(True)
        self.ba_box.setChecked(setup.behavioural_analysis)
        self.ba_box.blockSignals(False)
        self.table_panel.set_analysing(setup.analysing)
        self.table_panel.set_editable(not self.controller.events)
        if not self.controller.events:
            self.table_panel.show_stacks(setup.visible_dict())

    def events_changed(self) -> None:
        self._sync_setup_widgets()
        self._prefill_reactions()

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
        self._prefill_reactions()

    def _prefill_reactions(self) -> None:
        """Pre-fill the reactions row with the previous round (nobody before the first), and
        a rotating moderator with the player after the last one who answered."""
        setup = self.controller.setup
        last_answer = next((e for e in reversed(self.controller.events)
                            if isinstance(e, egghead.Answer) and e.moderator), None)
        if setup.moderator == "rotating":
            nxt = setup.players[0] if last_answer is None else \
                setup.players[(setup.players.index(last_answer.moderator) + 1) % len(setup.players)]
            self.question_form.set_moderator(nxt)
        last = next((e for e in reversed(self.controller.events)
                     if isinstance(e, egghead.Reactions)), None)
        self.reactions_form.set_solved(last.solved if last else ())

    # -- setup changes (undoable) -----------------------------------------------------------------
    def _replace_setup(self, text: str, merge_key: int = -1, **changes) -> None:
        if not self.replace_setup(text, merge_key, **changes):
            self._sync_setup_widgets()   # the refused change is undone on screen too

    def _ba_toggled(self, on: bool) -> None:
        self._replace_setup("Behavioural analysis " + ("on" if on else "off"),
                            behavioural_analysis=on)

    def _analysing_changed(self, player: str, on: bool) -> None:
        setup = self.controller.setup
        now = set(setup.analysing) | {player} if on else set(setup.analysing) - {player}
        self._replace_setup(f"{player} {'uses' if on else 'does not use'} behavioural analysis",
                            analysing=tuple(p for p in setup.others if p in now))

    def _stack_edited(self, player: str, cards) -> None:
        setup = self.controller.setup
        if self.controller.events:
            self.warn("Cannot change the cards",
                      f"Facts are logged already: log a solve to change {player}'s cards, "
                      "or start a new game.")
            self.table_panel.show_stacks(setup.visible_dict())
            return
        visible = tuple((p, tuple(sorted(cards)) if p == player else s) for p, s in setup.visible)
        self._replace_setup(f"{player}'s cards: {stack_text(sorted(cards))}",
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
        self._display(snap.posterior, live=snap.live)

    def show_moment(self, snap) -> None:
        """The forms log after the whole log: their hints say so while a past entry is shown."""
        self.question_form.set_past(not snap.live)
        self.reactions_form.set_past(not snap.live)

    def _display(self, post, live: bool) -> None:
        self.table_panel.show_stacks(post.visible)
        self.table_panel.show_solution(post.solution)
        self._show_others(post)
        self._fill_valids(post)
        self.position_model.set_matrix(np.array(post.position_probabilities, dtype=float))
        self.learned_label.setText(learned_text(post) + self.snapshot.wording.pick(
            f" · {post.worlds:,} deals still possible as everyone at the table sees it",
            f" · {post.worlds:,} worlds publicly possible · entropy {post.entropy_bits:.2f} bits"))
        if live:
            self._update_forms(post)

    def _show_others(self, post) -> None:
        """Whether each player can solve: on the table panel and in the "others" line."""
        setup = self.controller.setup
        self.table_panel.set_state(setup.me, "✓ can solve" if post.can_solve else
                                   f"{len(post.my_valids)} possible")
        parts = []
        for p in setup.others:
            pr = post.others_solve_probability.get(p, 0.0)
            if post.others_can_solve.get(p):
                text, tip, html = "✓ can solve", f"{p} knows their stack", f"<b>{esc(p)}</b> can solve"
            elif pr <= 0:
                text, tip, html = "cannot solve", f"{p} cannot know their stack yet", \
                    f"{esc(p)} cannot solve"
            else:
                text = f"solve? {format_probability(pr)}"
                tip = f"P({p} can solve now) = {pr:.4f}: it depends on my stack"
                html = f"{esc(p)} can solve with probability {format_probability(pr)}"
            self.table_panel.set_state(p, text, tip)
            parts.append(html)
        self.others_label.setText("The others, in the real world I see: " + "; ".join(parts) + ".")

    def _update_forms(self, post) -> None:
        """The live posterior sets the forms: the answers possible, the stacks to solve, the
        note on whether another round of reactions can teach anything."""
        self.question_form.set_log(self.controller.events, post, visible=post.visible)
        self.solve_form.set_state(post.visible, post.solution)
        if not self.controller.events:
            self.reactions_form.set_note("Log the moderator's answer first, then the round "
                                         "of reactions.")
        elif post.fixpoint_reached:
            self.reactions_form.set_note("Another round of reactions can change nothing now "
                                         "(every player would react the same way): ask the "
                                         "next question.", warn=True)
        else:
            self.reactions_form.set_note("Another round of reactions can still teach "
                                         "something: log who solved this round.")

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

    def _fill_valids(self, post) -> None:
        setup = self.controller.setup
        extra = []
        if setup.behavioural_analysis:
            have = set(post.my_valids)
            extra = [s for s in post.my_valids_without_ba if s not in have]
        head = (f"<b>{self.snapshot.wording.pick('Stacks I could have', 'My valid stacks')}</b>: "
                f"{len(post.my_valids)}")
        if setup.behavioural_analysis:
            head += f" with behavioural analysis, {post.valid_count_without_ba} from the answers alone"
        else:
            head += " (from the answers alone: behavioural analysis is off)"
        self.valids_title.setText(head)
        rows = [StackRow(tuple(s), float(p), post.can_solve)
                for s, p in zip(post.my_valids, post.my_probabilities)]
        rows += [StackRow(tuple(s), None, False) for s in extra]
        self.valids.set_rows(rows)

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
        card = "my card" if setup.cards_per_player == 1 else f"my {label} card"
        menu = QMenu(self)
        self.add_why_action(menu, {"position": item + 1, "value": column + 1},
                            f"{card} shows {column + 1}", decided)
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
                            f"my stack is {stack_text(stack.stack)}", decided)
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
        self.valids.clear_rows()
        self.position_model.set_matrix(None)
        self.solve_label.setText("No stack of mine is consistent with the setup.")

    def plot_series(self, snap) -> dict:
        timeline = snap.timeline
        n = len(timeline.summaries)  # whole events on the x axis
        step = max(1, -(-n // 10))
        self.plot.set_x_tick_spacing(step)
        pick = lambda key: [None if s is None else s[key] for s in timeline.summaries]  # noqa: E731 (a one-line key function)
        return {SERIES_BA: pick("valids_with_ba"), SERIES_NO_BA: pick("valids_without_ba")}

    def status_text(self, snap) -> str:
        post, seconds = snap.posterior, snap.seconds
        if not snap.wording.details:
            return (f"Egghead · {seconds * 1000:.0f} ms · {len(post.my_valids)} stacks I could "
                    f"have")
        return (f"Egghead · master table · {seconds * 1000:.0f} ms · {len(post.my_valids)} valid "
                f"stacks · {post.worlds:,} worlds")

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
