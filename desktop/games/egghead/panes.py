"""The Egghead tab's panes, presenters of the published snapshot: the answer to "Can I solve
now?" (:class:`SolveLine`), my stack (:class:`MyStackPane`: what the others can solve, the
stacks I could have, each of my cards, what I learned) and the table with the forms
(:class:`FormsArea`). Each draws a moment from the :class:`desktop.tabs.snapshot.Snapshot` alone
(its setup, log, posterior, moment, timeline and wording), never from the document
(docs/ARCHITECTURE.md, "One moment on screen"). The game: Zorn 2024 (docs/references.md).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional, Sequence

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QGroupBox, QLabel, QVBoxLayout, QWidget

from desktop.games.egghead.forms import QuestionForm, ReactionsForm, SolveForm, TablePanel, stack_text
from desktop.shell.appearance import muted, readable_on, tone
from desktop.shell.locale_format import number, percent
from desktop.tabs.snapshot import Snapshot
from desktop.widgets.columns import Column, ColumnTable
from desktop.widgets.fit_rows import FittedWorksheetView
from desktop.widgets.plain_text import esc
from desktop.widgets.worksheet import ProbabilityTableModel, format_probability, heat_color
from engines import egghead
from engines.core.i18n import N_, _, ngettext

RULED_OUT = N_("ruled out by reactions")




class SolveLine(QLabel):
    """"Can I solve now?" in large type: yes with the stack to call, or not yet with the stacks
    still possible and the likeliest; never "yes" while the log is impossible. Wraps when
    narrow (x-large: 1.5 × the zoomed font)."""

    def __init__(self, parent: Optional[QWidget] = None):
        super().__init__(parent)
        self.setTextFormat(Qt.RichText)
        self.setWordWrap(True)

    def render(self, snap: Snapshot) -> None:
        """Draw the answer at the moment ``snap`` (its posterior must be set)."""
        post = snap.posterior
        then = "" if snap.live else "<i>{}</i> · ".format(esc(_("as after entry {k}").format(k=snap.k)))
        impossible = snap.timeline is not None and snap.timeline.error is not None
        if impossible and snap.live:
            self.setText(f"<span style='font-size:x-large; color:{tone('#b71c1c')}'><b>"
                         + esc(_("Can I solve now? The log is impossible")) + "</b></span> "
                         + esc(_("— fix the highlighted entry first")))
        elif post.can_solve:
            self.setText(f"{then}<span style='font-size:x-large; color:{tone('#1b5e20')}'><b>"
                         + esc(_("Can I solve now? Yes — call {stack}").format(stack=stack_text(post.solution)))
                         + "</b></span>")
        else:
            j = int(np.argmax(post.my_probabilities))
            n = len(post.my_valids)
            rest = snap.wording.pick(
                ngettext("— {n} stack possible; most likely {stack} ({p})",
                         "— {n} stacks possible; most likely {stack} ({p})", n),
                ngettext("— {n} valid stack; most likely {stack} ({p})",
                         "— {n} valid stacks; most likely {stack} ({p})", n))
            self.setText(
                f"{then}<span style='font-size:x-large; color:{tone('#6d4c00')}'><b>"
                + esc(_("Can I solve now? Not yet")) + "</b></span> "
                + esc(rest.format(n=n, stack=stack_text(post.my_valids[j]),
                                  p=format_probability(post.my_probabilities[j]))))


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
def stack_columns() -> tuple:
    """The stack list's columns, in the language in effect."""
    return (
        Column(_("Stack"), lambda r: stack_text(r.stack), sort_key=lambda r: r.stack,
               bold=lambda r: r.solved, foreground=lambda r: None if r.valid else muted()),
        Column(_("Probability"), lambda r: r.probability if r.valid else _(RULED_OUT), numeric=True,
               format=lambda v: v if isinstance(v, str) else format_probability(v),
               sort_key=lambda r: r.probability,
               tooltip=lambda r: _("P = {p} (prior: multinomial weight of the stack)").format(
                   p=number(r.probability, 6)) if r.valid else _("the answers allow it; the reactions ruled it out"),
               background=lambda r: heat_color(r.probability) if r.valid else None,
               foreground=_probability_foreground),
    )


#: The stack list's columns (English; the pane builds them in the language in effect).
STACK_COLUMNS = stack_columns()


def _rich_label(text: str = "") -> QLabel:
    """A word-wrapped rich-text label (a long text must not widen its pane)."""
    label = QLabel(text)
    label.setWordWrap(True)
    label.setTextFormat(Qt.RichText)
    return label


def position_labels(k: int) -> list[str]:
    """Row labels of the position grid: my cards sorted, lowest first."""
    if k == 1:
        return [_("my card")]
    out = []
    for i in range(k):
        name = {0: _("1st"), 1: _("2nd"), 2: _("3rd")}.get(i) or _("{n}th").format(n=i + 1)
        if i == 0:
            name = _("{position} (lowest)").format(position=name)
        elif i == k - 1:
            name = _("{position} (highest)").format(position=name)
        out.append(name)
    return out


def learned_text(post) -> str:
    """What I learned from whom: my stacks ruled out by each moderator's answers and by each
    player's reactions (from the posterior's LearnedRecords)."""
    answers: dict[str, int] = {}
    reactions: dict[str, int] = {}
    for r in post.learned:
        if r.kind == "answer":
            src = _("the moderator") if r.source == "moderator" else r.source
            answers[src] = answers.get(src, 0) + r.removed
        elif r.kind == "reactions":
            for p, n in r.removed_by.items():
                reactions[p] = reactions.get(p, 0) + n
    if not answers and not reactions:
        return "<b>{}</b>: {}".format(esc(_("Stacks ruled out")), esc(_("nothing logged yet")))
    parts = []
    if answers:
        parts.append(_("by answers — {counts}").format(counts=", ".join(f"{esc(s)}: {n}" for s, n in answers.items())))
    if reactions:
        parts.append(_("by reactions — {counts}").format(
            counts=", ".join(f"{esc(s)}: {n}" for s, n in reactions.items())))
    return "<b>{}</b> ".format(esc(_("Stacks ruled out"))) + "; ".join(parts)


def others_states(setup: Any, post: Any) -> list[tuple[str, str, str, str]]:
    """Whether each other player can solve, by the posterior ``post`` of ``setup``: ``[(player,
    short text, tooltip, rich-text sentence)]`` in seat order."""
    out = []
    for p in setup.others:
        pr = post.others_solve_probability.get(p, 0.0)
        if post.others_can_solve.get(p):
            text, tip = _("✓ can solve"), _("{player} knows their stack").format(player=p)
            html = _("{player} can solve").format(player=f"<b>{esc(p)}</b>")
        elif pr <= 0:
            text, tip = _("cannot solve"), _("{player} cannot know their stack yet").format(player=p)
            html = _("{player} cannot solve").format(player=esc(p))
        else:
            text = _("solve? {p}").format(p=format_probability(pr))
            tip = _("P({player} can solve now) = {p}: it depends on my stack").format(player=p, p=number(pr, 4))
            html = _("{player} can solve with probability {p}").format(player=esc(p), p=format_probability(pr))
        out.append((p, text, tip, html))
    return out


class MyStackPane(QGroupBox):
    """"My stack" at the moment shown: what the others can solve, the stacks I could have (with
    their probabilities; those the reactions ruled out in grey), each of my cards (the chance
    of each value) and what I learned from whom.

    Attributes:
        others_label, valids_title, cards_title, learned_label: rich-text lines;
        valids: the :class:`ColumnTable` of :class:`StackRow`; position_model / position_view:
        the cards × values grid.
    """

    def __init__(self, parent: Optional[QWidget] = None):
        super().__init__(_("My stack"), parent)
        ml = QVBoxLayout(self)
        self.others_label = _rich_label()
        ml.addWidget(self.others_label)
        # long counts must not widen the pane
        self.valids_title = _rich_label("<b>{}</b>".format(esc(_("Stacks I could have"))))
        ml.addWidget(self.valids_title)
        self.valids = ColumnTable(stack_columns(), stretch=True, sortable=True, tooltip=_(
            "Grey rows: stacks the answers allow but the reactions ruled out (what behavioural "
            "analysis bought). Right-click: Why?  Click a header to sort."))
        self.valids.verticalHeader().setDefaultSectionSize(22)
        self.valids.setContextMenuPolicy(Qt.CustomContextMenu)
        ml.addWidget(self.valids, 3)
        self.cards_title = _rich_label("")
        ml.addWidget(self.cards_title)
        self.position_model = ProbabilityTableModel(
            [], [], tooltip=lambda row, col, p: _("Chance that my {position} card shows {value}: {p}").format(
                position=row.split(" ")[0], value=col, p=percent(p, 2)))
        # every row shown, at any zoom, with or without a scroll bar
        self.position_view = FittedWorksheetView()
        self.position_view.setModel(self.position_model)
        ml.addWidget(self.position_view)
        self.learned_label = _rich_label()
        ml.addWidget(self.learned_label)

    def set_setup(self, setup: Any) -> None:
        """A new game (``egghead.Setup``): a row per card of mine, a column per value; no rows."""
        self.position_model.set_layout([("", position_labels(setup.cards_per_player))],
                                       [str(v) for v in range(1, setup.values + 1)])
        # every value column visible (the pane is never narrower than the grid)
        self.position_view.setMinimumWidth(100 + 42 * setup.values)
        self.valids.clear_rows()

    def render(self, snap: Snapshot) -> None:
        """Draw the moment ``snap`` (its posterior must be set)."""
        post, setup, wording = snap.posterior, snap.setup, snap.wording
        parts = [html for _p, _t, _tip, html in others_states(setup, post)]
        self.others_label.setText(_("The others, in the real world I see: {states}.").format(states="; ".join(parts)))
        extra = []
        if setup.behavioural_analysis:
            have = set(post.my_valids)
            extra = [s for s in post.my_valids_without_ba if s not in have]
        head = "<b>{}</b>: ".format(esc(wording.pick(_("Stacks I could have"), _("My valid stacks"))))
        if setup.behavioural_analysis:
            head += esc(_("{n} with behavioural analysis, {m} from the answers alone").format(
                n=len(post.my_valids), m=post.valid_count_without_ba))
        else:
            head += esc(_("{n} (from the answers alone: behavioural analysis is off)").format(n=len(post.my_valids)))
        self.valids_title.setText(head)
        rows = [StackRow(tuple(s), float(p), post.can_solve)
                for s, p in zip(post.my_valids, post.my_probabilities)]
        rows += [StackRow(tuple(s), None, False) for s in extra]
        self.valids.set_rows(rows)
        self.position_model.set_matrix(np.array(post.position_probabilities, dtype=float))
        self.learned_label.setText(learned_text(post) + " · " + esc(wording.pick(
            _("{n} deals still possible as everyone at the table sees it"),
            _("{n} worlds publicly possible · entropy {bits} bits")).format(
                n=number(post.worlds), bits=number(post.entropy_bits, 2))))

    def clear(self) -> None:
        """No stack of mine is consistent: no rows, no figures."""
        self.valids.clear_rows()
        self.position_model.set_matrix(None)


class FormsArea(QWidget):
    """The table of stacks (:class:`TablePanel`) above the question, reactions and solve forms.
    :meth:`render` draws a moment's stacks and who can solve; the forms log after the whole
    log, so they follow the live moment only (its log and posterior). :meth:`follow_log` sets
    what depends on the log as it is now (the defaults of the next entry).

    Attributes:
        table_panel, question_form, reactions_form, solve_form: the widgets (the tab wires their
        signals to its commands).
    """

    def __init__(self, setup: Any, parent: Optional[QWidget] = None):
        super().__init__(parent)
        ll = QVBoxLayout(self)
        ll.setContentsMargins(0, 0, 4, 0)
        self.table_panel = TablePanel(setup)
        ll.addWidget(self.table_panel)
        self.question_form = QuestionForm(setup)
        self.reactions_form = ReactionsForm(setup)
        self.solve_form = SolveForm(setup)
        for form in self.forms():
            ll.addWidget(form)
        ll.addStretch(1)

    def forms(self) -> tuple:
        return self.question_form, self.reactions_form, self.solve_form

    def set_setup(self, setup: Any) -> None:
        """A new game, or new players / deck: every widget rebuilt for ``setup``."""
        self.table_panel.set_setup(setup)
        for form in self.forms():
            form.set_setup(setup)

    def follow_log(self, setup: Any, events: Sequence[Any]) -> None:
        """The log as it is now (``setup``, ``events``): the stacks editable before the first
        entry; the reactions row pre-filled with the previous round (nobody before the first),
        and a rotating moderator with the player after the last one who answered."""
        self.table_panel.set_analysing(setup.analysing)
        self.table_panel.set_editable(not events)
        if not events:
            self.table_panel.show_stacks(setup.visible_dict())
        last_answer = next((e for e in reversed(events)
                            if isinstance(e, egghead.Answer) and e.moderator), None)
        if setup.moderator == "rotating":
            nxt = setup.players[0] if last_answer is None else \
                setup.players[(setup.players.index(last_answer.moderator) + 1) % len(setup.players)]
            self.question_form.set_moderator(nxt)
        last = next((e for e in reversed(events) if isinstance(e, egghead.Reactions)), None)
        self.reactions_form.set_solved(last.solved if last else ())

    def render(self, snap: Snapshot) -> None:
        """Draw the moment ``snap`` (its posterior must be set): the stacks seen, the solution,
        whether each player can solve; the live moment also sets the forms (the answers
        possible, the stacks to solve, whether another round of reactions can teach
        anything)."""
        post, setup = snap.posterior, snap.setup
        panel = self.table_panel
        panel.show_stacks(post.visible)
        panel.show_solution(post.solution)
        panel.set_state(setup.me, _("✓ can solve") if post.can_solve else
                        _("{n} possible").format(n=len(post.my_valids)))
        for p, text, tip, _html in others_states(setup, post):
            panel.set_state(p, text, tip)
        if not snap.live:
            return
        self.question_form.set_log(snap.events, post, visible=post.visible)
        self.solve_form.set_state(post.visible, post.solution)
        if not snap.events:
            self.reactions_form.set_note(_("Log the moderator's answer first, then the round "
                                           "of reactions."))
        elif post.fixpoint_reached:
            self.reactions_form.set_note(_("Another round of reactions can change nothing now "
                                           "(every player would react the same way): ask the "
                                           "next question."), warn=True)
        else:
            self.reactions_form.set_note(_("Another round of reactions can still teach "
                                           "something: log who solved this round."))

    def show_moment(self, snap: Snapshot) -> None:
        """The forms log after the whole log: their hints say so while a past entry is shown."""
        self.question_form.set_past(not snap.live)
        self.reactions_form.set_past(not snap.live)
