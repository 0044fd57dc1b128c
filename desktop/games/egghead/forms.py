"""Egghead forms: the table (every player's stack as cards), the question picker with the
answer, the reactions row, the Solve form and the New game dialog.

Forms build engine events from JSON (``egghead.event_from_json``) so every check the engine
makes also guards the form; a wrong entry gets the engine's message naming the field.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from desktop.shell.appearance import scheme_style, tone, tone_style
from desktop.shell.locale_format import number
from desktop.table.zoom import relative_font
from desktop.tabs.entry_forms import EntryEditor, combo_select
from desktop.widgets.accessible import name_controls
from desktop.widgets.columns import CONTENTS, STRETCH, Column, ColumnTable
from desktop.widgets.dialogs import NewGameDialogBase
from desktop.widgets.now_label import NowLabel
from desktop.widgets.plain_text import as_rich_plain, esc
from desktop.widgets.unchanged import set_style
from engines import egghead
from engines.core.errors import SessionFormatError
from engines.core.i18n import _
from engines.egghead import cost as egghead_cost
from engines.egghead.words import shown_question

DEFAULT_NAMES = ["A", "B", "C", "D", "E", "F"]
# colours and borders; the cards' sizes follow the zoomed font (desktop.table.zoom.relative_font)
FACE_STYLE = ("QLabel {background:#fffdf6; color:#3e2723;"
              " border:2px solid #5d4037; border-radius:5px;}")
UNKNOWN_STYLE = ("QLabel {background:#eceff1; color:#546e7a;"
                 " border:2px dashed #78909c; border-radius:5px;}")


def card_spin(values: int, value: int = 1) -> QSpinBox:
    """A spin box drawn as a playing card showing 1..``values``."""
    spin = QSpinBox()
    spin.setRange(1, values)
    spin.setValue(min(max(value, 1), values))
    spin.setAlignment(Qt.AlignmentFlag.AlignCenter)
    relative_font(spin, 1.45, bold=True, min_em=(3.0, 1.65))   # 13 pt, 62×34 px on a 9 pt desktop
    return spin


def card_face(value) -> QLabel:
    """A card that is only shown (a value, or "?" for an unknown card)."""
    lab = QLabel(str(value))
    lab.setAlignment(Qt.AlignmentFlag.AlignCenter)
    lab.setStyleSheet(FACE_STYLE if value != "?" else UNKNOWN_STYLE)
    relative_font(lab, 1.65, bold=True, min_em=(2.2, 1.45), max_em_width=2.65)   # 15 pt, 52–62 px
    return lab


def stack_text(stack) -> str:
    """A stack as text: ``(1, 2, 2)`` -> ``"1 2 2"``."""
    return " ".join(str(c) for c in stack)


def parse_stack(text: str, what: str) -> list[int]:
    """Cards typed as ``"4 5 6"`` or ``"4,5,6"``; raises SessionFormatError naming ``what``."""
    parts = text.replace(",", " ").split()
    try:
        return [int(p) for p in parts]
    except ValueError:
        raise SessionFormatError(what, _("cards must be whole numbers separated by spaces, got {text}").format(
            text=repr(text))) from None


class _RebuiltBox(QGroupBox):
    """A group box whose contents are rebuilt when the setup changes (a fresh body widget is
    swapped in: removing items from a group box's own layout loses its title on some styles)."""

    def __init__(self, title: str, parent=None):
        super().__init__(title, parent)
        self._outer = QVBoxLayout(self)
        self._outer.setContentsMargins(6, 6, 6, 6)
        self._body = None

    def _new_body(self) -> QWidget:
        if self._body is not None:
            self._outer.removeWidget(self._body)
            self._body.setParent(None)
            self._body.deleteLater()
        self._body = QWidget()
        self._outer.addWidget(self._body)
        return self._body


class TablePanel(_RebuiltBox):
    """The table as I see it: one row per player — my stack as unknown cards ("?"), every other
    player's stack as cards. Before anything is logged the cards are editable (each change is an
    undoable setup change); afterwards they show the stacks as they are now (after solves) and
    the "Solved…" button fills the Solve form. Each other player has a "uses analysis" box
    (whether they are modelled as using behavioural analysis).

    Signals:
        stackEdited(str player, object cards): a card of ``player`` was changed (setup edit).
        analysingChanged(str player, bool on).
        solveClicked(str player).
    """

    stackEdited = Signal(str, object)
    analysingChanged = Signal(str, bool)
    solveClicked = Signal(str)

    def __init__(self, setup, parent=None):
        super().__init__(_("The table"), parent)
        self.spins: dict[str, list[QSpinBox]] = {}
        self.faces: dict[str, list[QLabel]] = {}
        self.unknown: list[QLabel] = []
        self.analysing: dict[str, QCheckBox] = {}
        self.solve_buttons: dict[str, QPushButton] = {}
        self.state: dict[str, QLabel] = {}
        self.setup = None
        self.set_setup(setup)

    def set_setup(self, setup) -> None:
        """Rebuild the rows for ``setup`` (players, k cards, the visible stacks)."""
        self.setup = setup
        self.grid = QGridLayout(self._new_body())
        self.grid.setContentsMargins(0, 0, 0, 0)
        self.grid.setHorizontalSpacing(6)
        self.spins, self.unknown, self.analysing, self.solve_buttons, self.state = {}, [], {}, {}, {}
        self.faces = {}
        vis = setup.visible_dict()
        k = setup.cards_per_player
        for r, p in enumerate(setup.players):
            name = QLabel(_("{player} (me)").format(player=f"<b>★ {esc(p)}</b>") if p == setup.me
                          else f"<b>{esc(p)}</b>")
            self.grid.addWidget(name, r, 0)
            if p == setup.me:
                self._add_my_cards(r, k)
            else:
                self._add_seen_cards(r, p, vis.get(p, (1,) * k))
            state = QLabel()
            state.setMinimumWidth(90)
            self.state[p] = state
            self.grid.addWidget(state, r, 1 + k)
            if p != setup.me:
                self._add_analysing_box(r, p, k)
            btn = QPushButton(_("Solved…"))
            btn.setToolTip(as_rich_plain(_("{player} called their cards: fill the Solve form").format(player=p)))
            btn.clicked.connect(lambda _c=False, who=p: self.solveClicked.emit(who))
            self.grid.addWidget(btn, r, 3 + k)
            self.solve_buttons[p] = btn
        self.grid.setColumnStretch(2 + k, 1)

    def _add_my_cards(self, r: int, k: int) -> None:
        """Row ``r``: my ``k`` cards, unknown to me ("?")."""
        for c in range(k):
            lab = card_face("?")
            lab.setToolTip(_("My own cards: I cannot see them"))
            self.grid.addWidget(lab, r, 1 + c)
            self.unknown.append(lab)

    def _add_seen_cards(self, r: int, player: str, stack) -> None:
        """Row ``r``: ``player``'s cards as I see them — spin boxes while nothing is logged,
        card faces after (:meth:`set_editable` shows one or the other)."""
        spins, faces = [], []
        for c, v in enumerate(stack):
            spin = card_spin(self.setup.values, v)
            spin.valueChanged.connect(lambda _v, who=player: self._edited(who))
            self.grid.addWidget(spin, r, 1 + c)
            spins.append(spin)
            face = card_face(v)
            self.grid.addWidget(face, r, 1 + c)
            faces.append(face)
        self.spins[player] = spins
        self.faces[player] = faces

    def _add_analysing_box(self, r: int, player: str, k: int) -> None:
        box = QCheckBox(_("uses analysis"))
        box.setToolTip(as_rich_plain(_("Model {player} as using behavioural analysis (reacting to "
                                       "the others' reactions); untick for a player who reasons "
                                       "from the answers alone").format(player=player)))
        box.setChecked(player in self.setup.analysing)
        box.toggled.connect(lambda on, who=player: self.analysingChanged.emit(who, on))
        self.grid.addWidget(box, r, 2 + k)
        self.analysing[player] = box

    def _edited(self, player: str) -> None:
        self.stackEdited.emit(player, sorted(s.value() for s in self.spins[player]))

    def set_analysing(self, players) -> None:
        """Tick "uses analysis" for exactly ``players`` (without emitting analysingChanged)."""
        for p, box in self.analysing.items():
            box.blockSignals(True)
            box.setChecked(p in players)
            box.blockSignals(False)

    def set_editable(self, editable: bool) -> None:
        """Cards can be edited (nothing logged yet) or only shown (the log has events)."""
        for p, spins in self.spins.items():
            for s, f in zip(spins, self.faces[p]):
                s.setVisible(editable)
                f.setVisible(not editable)
                s.setToolTip(as_rich_plain(_("{player}'s card — edit it while nothing is logged").format(player=p)))
                f.setToolTip(as_rich_plain(_("{player}'s card as I see it now (log a solve to change it)").format(
                    player=p)))

    def show_stacks(self, visible: dict) -> None:
        """Show ``visible`` ({name: stack}) without emitting edits."""
        for p, spins in self.spins.items():
            stack = visible.get(p)
            if stack is None:
                continue
            for s, f, v in zip(spins, self.faces[p], stack):
                if s.value() != v:
                    s.blockSignals(True)
                    s.setValue(v)
                    s.blockSignals(False)
                f.setText(str(v))

    def show_solution(self, solution: Optional[tuple]) -> None:
        """Show my stack when it is known, else "?" cards."""
        for i, lab in enumerate(self.unknown):
            lab.setText(str(solution[i]) if solution else "?")
            # a style sheet set again polishes the label again: only when it changes
            set_style(lab, FACE_STYLE.replace("#5d4037", "#2e7d32") if solution else UNKNOWN_STYLE)

    def set_state(self, player: str, text: str, tip: str = "") -> None:
        """The note after ``player``'s cards (can solve / cannot / probability)."""
        if player in self.state:
            self.state[player].setText(text)
            self.state[player].setToolTip(as_rich_plain(tip))

    def stack(self, player: str) -> list[int]:
        """The cards of ``player`` as the editable spin boxes hold them."""
        return [s.value() for s in self.spins.get(player, [])]


class QuestionForm(QGroupBox):
    """Log an answer: a searchable question picker (filter line + list), the moderator, and the
    answer (one of the answers some world can give). When I am the rotating moderator the
    answer is filled in from the cards I see.

    Signals:
        submitted(dict): the event JSON (``{"type": "answer", ...}``).
    """

    submitted = Signal(dict)
    #: the possible answers of the selected question are wanted (the tab computes them in the
    #: background from the live posterior and calls :meth:`set_possible`)
    answersWanted = Signal()

    def __init__(self, setup, parent=None):
        super().__init__(_("Question and answer"), parent)
        self.events: tuple = ()
        self.posterior = None   # the live posterior of ``events`` (None while computing)
        lay = QGridLayout(self)
        self.filter = QLineEdit()
        self.filter.setPlaceholderText(_("Search questions (e.g. sum, missing, pair)…"))
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self._refilter)
        lay.addWidget(self.filter, 0, 0, 1, 4)
        self.question = QComboBox()
        self.question.setMinimumContentsLength(20)
        self.question.setSizeAdjustPolicy(QComboBox.AdjustToMinimumContentsLengthWithIcon)
        self.question.currentIndexChanged.connect(self._question_changed)
        lay.addWidget(self.question, 1, 0, 1, 4)
        lay.addWidget(QLabel(_("Moderator")), 2, 0)
        self.moderator = QComboBox()
        self.moderator.currentIndexChanged.connect(self._moderator_changed)
        lay.addWidget(self.moderator, 2, 1)
        lay.addWidget(QLabel(_("Answer")), 2, 2)
        self.answer = QComboBox()
        self.answer.setMinimumContentsLength(4)
        lay.addWidget(self.answer, 2, 3)
        self.button = QPushButton(_("Log answer"))
        self.button.clicked.connect(self.submit)
        lay.addWidget(self.button, 3, 3)
        self.hint = NowLabel()
        tone_style(self.hint, "#0d47a1")
        self.hint.setWordWrap(True)
        lay.addWidget(self.hint, 3, 0, 1, 3)
        lay.setColumnStretch(1, 1)
        self.setup = setup
        self._choices: tuple = ()
        self.visible: dict = {}
        self.set_setup(setup)

    def set_setup(self, setup) -> None:
        """Rebuild the form for ``setup``."""
        self.setup = setup
        self.visible = setup.visible_dict()
        self.moderator.blockSignals(True)
        self.moderator.clear()
        if setup.moderator == "external":
            self.moderator.addItem(_("external"), None)
            self.moderator.setEnabled(False)
        else:
            for p in setup.players:
                self.moderator.addItem(_("{player} (me)").format(player=p) if p == setup.me else p, p)
            self.moderator.setEnabled(True)
        self.moderator.blockSignals(False)
        self._moderator_changed()

    def set_moderator(self, player: Optional[str]) -> None:
        """Select the answering player (rotating moderator)."""
        i = self.moderator.findData(player)
        if i >= 0 and i != self.moderator.currentIndex():
            self.moderator.setCurrentIndex(i)

    def set_log(self, events, posterior=None, visible: Optional[dict] = None) -> None:
        """The log (the answer list first holds the answers the cards I see allow after it,
        :func:`egghead.seen_answers`) and its posterior when known (then the tab narrows the
        list to :meth:`set_possible`); ``visible``: the stacks I see after it, when they
        changed (solves)."""
        self.events = tuple(events)
        self.posterior = posterior
        if visible is not None:
            self.visible = dict(visible)
        self._fill_answers()

    def selection(self) -> tuple:
        """``(question id, moderator, posterior)``: what the answer list is for (the question
        id is None when no question is selected; the posterior None before one is known)."""
        return self.question.currentData(), self.moderator.currentData(), self.posterior

    def set_past(self, past: bool) -> None:
        """A past History entry is shown: the hint says it speaks of the log now."""
        self.hint.set_past(past)

    def set_edit_mode(self, before, visible: dict) -> None:
        """Edit a logged answer instead of logging one (Fix…, desktop.tabs.entry_forms): no
        Log button; the answers offered are those the cards I saw then allow (``before``: the
        log before the entry; ``visible``: the stacks I saw then), with no inference."""
        self.editing = True
        self.button.hide()
        self.set_log(before, None, visible=visible)

    def load_event(self, ev) -> None:
        """Fill the form with a logged answer (its moderator, question and answer; an answer
        the list does not hold is added, so that the entry as logged can be shown)."""
        self.set_moderator(ev.moderator)
        if not self.set_question(ev.question):
            combo_select(self.question, ev.question)
        if not self.set_answer(ev.answer):
            combo_select(self.answer, ev.answer)

    def set_possible(self, question: str, moderator, answers) -> None:
        """The answers ``question`` (asked of ``moderator``) can get in some world consistent
        with the log and the cards I see (:func:`egghead.possible_answers`, computed in the
        background): the list holds only these, a forced answer is selected."""
        if question != self.question.currentData() or moderator != self.moderator.currentData():
            return   # the selection moved on meanwhile
        answers = list(answers)
        prev = self.answer.currentData()
        self.answer.blockSignals(True)
        self.answer.clear()
        for a in answers:
            self.answer.addItem(str(a), a)
        i = self.answer.findData(prev)
        self.answer.setCurrentIndex(0 if len(answers) == 1 or i < 0 else i)
        self.answer.blockSignals(False)
        self.button.setEnabled(bool(answers))
        if len(answers) == 1:
            self.hint.setText(_("Forced: with the log and the cards you see, the only possible "
                                "answer is {answer}.").format(answer=answers[0]))
        elif answers:
            self.hint.setText(_("{n} answers are possible given the log and the cards "
                                "you see.").format(n=len(answers)))
        else:
            self.hint.setText(_("No answer is possible: the log is impossible."))

    def _moderator_changed(self, *_a) -> None:
        self._choices = egghead.questions_for(self.setup, self.moderator.currentData())
        self._refilter()

    def _refilter(self, *_a) -> None:
        current = self.question.currentData()
        words = self.filter.text().lower().split()
        self.question.blockSignals(True)
        self.question.clear()
        for q in self._choices:
            shown = shown_question(q.text, self.setup.values)
            hay = f"{q.id} {q.text} {shown}".lower()
            if all(w in hay for w in words):
                self.question.addItem(shown, q.id)
                self.question.setItemData(self.question.count() - 1, f"id: {q.id}",
                                          Qt.ItemDataRole.ToolTipRole)
        i = self.question.findData(current)
        self.question.setCurrentIndex(i if i >= 0 else (0 if self.question.count() else -1))
        self.question.blockSignals(False)
        self.button.setEnabled(self.question.count() > 0)
        self._question_changed()

    def _question_changed(self, *_a) -> None:
        self._fill_answers()

    def choice(self) -> Optional[object]:
        """The selected :class:`egghead.QuestionChoice` (None when the search matches nothing)."""
        qid = self.question.currentData()
        return next((q for q in self._choices if q.id == qid), None)

    def _fill_answers(self) -> None:
        q = self.choice()
        prev = self.answer.currentData()
        self.answer.clear()
        self.hint.clear()
        if q is None:
            self.hint.setText(_("No question matches the search."))
            return
        mod = self.moderator.currentData()
        try:   # instantly: what the cards I see allow (no inference); narrowed by the log next
            answers = egghead.seen_answers(self.setup, self.events, q.id, mod)
        except SessionFormatError:
            answers = list(q.answers)
        for a in answers:
            self.answer.addItem(str(a), a)
        self.button.setEnabled(bool(answers))
        if mod is not None and mod == self.setup.me:
            try:
                mine = egghead.answer_for(self.setup, q.id, self.visible, mod)
            except SessionFormatError:
                mine = None
            if mine is not None:
                self.answer.setCurrentIndex(max(self.answer.findData(mine), 0))
                self.hint.setText((_("You are the moderator: the cards you saw then give {answer}.")
                                   if getattr(self, "editing", False) else
                                   _("You are the moderator: the cards you see give {answer}.")).format(answer=mine))
                return
        i = self.answer.findData(prev)
        if i >= 0:
            self.answer.setCurrentIndex(i)
        if getattr(self, "editing", False):
            self.hint.setText(_("Answers the cards you saw then allow."))
            return
        self.hint.setText(_("Answers the cards you see allow; checking them against the log…"))
        self.answersWanted.emit()

    def set_question(self, qid: str) -> bool:
        """Select question ``qid`` (clears the search); False if unknown."""
        self.filter.clear()
        i = self.question.findData(qid)
        if i >= 0:
            self.question.setCurrentIndex(i)
        return i >= 0

    def set_answer(self, answer: int) -> bool:
        """Select ``answer`` if it is a possible answer; False otherwise."""
        i = self.answer.findData(answer)
        if i >= 0:
            self.answer.setCurrentIndex(i)
        return i >= 0

    def event_json(self) -> dict:
        """The event the form describes, as session JSON (validated by the engine when logged)."""
        return {"type": "answer", "question": self.question.currentData(),
                "answer": self.answer.currentData(), "moderator": self.moderator.currentData()}

    def submit(self) -> None:
        """Emit ``submitted`` with :meth:`event_json`."""
        self.submitted.emit(self.event_json())


class ReactionsForm(_RebuiltBox):
    """One round of announced reactions: a toggle per player (solved / not), pre-filled with
    the previous round, and a note when another round can change nothing.

    Signals:
        submitted(dict): ``{"type": "reactions", "solved": [...]}``.
    """

    submitted = Signal(dict)

    def __init__(self, setup, parent=None):
        super().__init__(_("Reactions (who solved this round)"), parent)
        self.note = NowLabel()
        self.note.setWordWrap(True)
        self.toggles: dict[str, QPushButton] = {}
        self.set_setup(setup)

    def set_setup(self, setup) -> None:
        """Rebuild the form for ``setup``."""
        body = self._new_body()
        lay = QVBoxLayout(body)
        lay.setContentsMargins(0, 0, 0, 0)
        self.row = QHBoxLayout()
        lay.addLayout(self.row)
        self.note = NowLabel(self.note._raw)
        self.note.setWordWrap(True)
        lay.addWidget(self.note)
        self.toggles = {}
        grid = QGridLayout()       # five or six players: two rows of three, so the pane stays narrow
        grid.setContentsMargins(0, 0, 0, 0)
        cols = 3 if len(setup.players) > 4 else len(setup.players)
        for i, p in enumerate(setup.players):
            b = QPushButton(p)
            b.setCheckable(True)
            b.setToolTip(as_rich_plain(_("Checked: {player} solved this round; unchecked: {player} did not").format(
                player=p)))
            b.toggled.connect(lambda on, btn=b, who=p: self._label(btn, who, on))
            self._label(b, p, False)
            grid.addWidget(b, i // cols, i % cols)
            self.toggles[p] = b
        self.row.addLayout(grid)
        self.row.addStretch(1)
        self.button = QPushButton(_("Log reactions"))
        self.button.clicked.connect(self.submit)
        self.row.addWidget(self.button)

    @staticmethod
    def _label(btn: QPushButton, who: str, on: bool) -> None:
        btn.setText((_("{player}: solved") if on else _("{player}: not")).format(player=who))
        btn.setStyleSheet("QPushButton:checked {background:#c8e6c9; color:#1b5e20; font-weight:bold;}")

    def set_solved(self, solved) -> None:
        """Pre-fill the toggles (e.g. with the previous round)."""
        for p, b in self.toggles.items():
            b.setChecked(p in solved)

    def solved(self) -> list[str]:
        """The players toggled as solved."""
        return [p for p, b in self.toggles.items() if b.isChecked()]

    def set_past(self, past: bool) -> None:
        """A past History entry is shown: the note says it speaks of the log now."""
        self.note.set_past(past)

    def set_note(self, text: str, warn: bool = False) -> None:
        """The note under the row (``warn``: the fixpoint is reached)."""
        self.note.setText(text)
        tone_style(self.note, "#6d4c00" if warn else "#546e7a")

    def set_edit_mode(self) -> None:
        """Edit a logged round instead of logging one (Fix…): no Log button, no note."""
        self.button.hide()
        self.note.hide()

    def event_json(self) -> dict:
        """The event the form describes, as session JSON (validated by the engine when logged)."""
        return {"type": "reactions", "solved": self.solved()}

    def submit(self) -> None:
        """Emit ``submitted`` with :meth:`event_json`."""
        self.submitted.emit(self.event_json())


class SolveForm(_RebuiltBox):
    """A player called their cards: who, the cards they revealed, and the new cards they were
    dealt (none when it is me — I cannot see my new cards).

    Signals:
        submitted(dict): ``{"type": "solve", ...}``.
    """

    submitted = Signal(dict)

    def focus_player(self) -> None:
        """Put the keyboard focus on the solver's name."""
        self.player.setFocus()

    def __init__(self, setup, parent=None):
        super().__init__(_("Solve (a player called their cards)"), parent)
        self.visible: dict = {}
        self.solution: Optional[tuple] = None
        self.set_setup(setup)

    def set_setup(self, setup) -> None:
        """Rebuild the form for ``setup``."""
        self.setup = setup
        self.visible = setup.visible_dict()
        self.grid = QGridLayout(self._new_body())
        self.grid.setContentsMargins(0, 0, 0, 0)
        k = setup.cards_per_player
        self.player = QComboBox()
        for p in setup.players:
            self.player.addItem(_("{player} (me)").format(player=p) if p == setup.me else p, p)
        self.player.currentIndexChanged.connect(self._player_changed)
        self.grid.addWidget(QLabel(_("Player")), 0, 0)
        self.grid.addWidget(self.player, 0, 1, 1, k)
        self.grid.addWidget(QLabel(_("Revealed")), 1, 0)
        self.cards = [card_spin(setup.values) for _ in range(k)]
        for i, s in enumerate(self.cards):
            s.setAccessibleName(_("Revealed card {n}").format(n=i + 1))
            self.grid.addWidget(s, 1, 1 + i)
        self.grid.addWidget(QLabel(_("New cards")), 2, 0)
        self.new_cards = [card_spin(setup.values) for _ in range(k)]
        for i, s in enumerate(self.new_cards):
            s.setAccessibleName(_("New card {n}").format(n=i + 1))
            self.grid.addWidget(s, 2, 1 + i)
        self.none_new = QCheckBox(_("unknown (mine)"))
        self.none_new.setToolTip(_("My new cards are hidden from me: nothing to enter"))
        self.none_new.toggled.connect(lambda on: [s.setEnabled(not on) for s in self.new_cards])
        self.grid.addWidget(self.none_new, 2, 1 + k)
        self.button = QPushButton(_("Log solve"))
        self.button.clicked.connect(self.submit)
        self.grid.addWidget(self.button, 1, 1 + k)
        self.grid.setColumnStretch(2 + k, 1)
        name_controls(self)          # rebuilt with the setup: named again
        self._player_changed()

    def set_state(self, visible: dict, solution: Optional[tuple]) -> None:
        """The stacks I see now and my own stack if known (pre-fill of the revealed cards)."""
        self.visible = dict(visible)
        self.solution = solution
        self._player_changed()

    def set_player(self, player: str) -> None:
        """Select ``player`` and pre-fill their revealed cards."""
        i = self.player.findData(player)
        if i >= 0:
            self.player.setCurrentIndex(i)
            self._player_changed()

    def _player_changed(self, *_a) -> None:
        p = self.player.currentData()
        mine = p == self.setup.me
        stack = self.solution if mine else self.visible.get(p)
        if stack:
            for s, v in zip(self.cards, stack):
                s.setValue(v)
        self.none_new.setChecked(mine)
        self.none_new.setEnabled(False)

    def set_cards(self, cards, new_cards=None) -> None:
        """Fill the revealed cards and, if given, the new cards."""
        for s, v in zip(self.cards, cards):
            s.setValue(v)
        if new_cards is not None:
            for s, v in zip(self.new_cards, new_cards):
                s.setValue(v)

    def set_edit_mode(self, visible: dict) -> None:
        """Edit a logged solve instead of logging one (Fix…): no Log button; ``visible``: the
        stacks I saw before it."""
        self.button.hide()
        self.visible = dict(visible)

    def load_event(self, ev) -> None:
        """Fill the form with a logged solve (player, revealed cards, new cards or none)."""
        self.set_player(ev.player)
        self.set_cards(ev.cards, ev.new_cards)
        self.none_new.setChecked(ev.new_cards is None)

    def event_json(self) -> dict:
        """The event the form describes, as session JSON (validated by the engine when logged)."""
        return {"type": "solve", "player": self.player.currentData(),
                "cards": [s.value() for s in self.cards],
                "new_cards": None if self.none_new.isChecked() else [s.value() for s in self.new_cards]}

    def submit(self) -> None:
        """Emit ``submitted`` with :meth:`event_json`."""
        self.submitted.emit(self.event_json())


@dataclass
class Seat:
    """One row of the New game dialog's seating grid."""

    name: str
    me: bool = False
    cards: str = ""            # the cards I see, typed ("4 5 6"); parsed when the game starts
    analysing: bool = True     # this player uses behavioural analysis


class NewGameDialog(NewGameDialogBase):
    """Ask for a new Egghead game: players in seating order, which one is me, values, cards per
    player, external or rotating moderator, my behavioural analysis, who else analyses, and the
    stacks I see.

    :meth:`build` validates and returns the :class:`egghead.Setup` (raises SessionFormatError
    naming the field); after ``exec()`` was accepted :meth:`result_setup` returns it.
    """

    def __init__(self, parent=None, setup=None):
        super().__init__(parent)
        self.setWindowTitle(_("New Egghead game"))
        self.setMinimumWidth(560)
        outer = QVBoxLayout(self)
        outer.addLayout(self._build_options())
        outer.addWidget(QLabel(_("Seating order; tick who you are; type the cards you see "
                                 "(e.g. 4 5 6):")))
        # the seating grid is an editable form: a Seat per row, edited in place (names and
        # cards typed, "Me" and "Uses analysis" ticked) through the declared columns
        self.table = ColumnTable(self._seat_columns(), editable=True, select_rows=False,
                                 numbered=True)
        outer.addWidget(self.table, 1)
        self.size_note = QLabel()
        self.size_note.setWordWrap(True)
        outer.addWidget(self.size_note)
        outer.addWidget(self.start_buttons())
        self.n_players.valueChanged.connect(self._players_changed)
        for w in (self.values, self.cards):
            w.valueChanged.connect(self._update_note)
        self._load(setup or egghead.default_setup())

    def _build_options(self) -> QFormLayout:
        """Players, values, cards per player, the moderator, my behavioural analysis."""
        form = QFormLayout()
        self.n_players = QSpinBox()
        self.n_players.setRange(3, 6)
        form.addRow(_("Players"), self.n_players)
        self.values = QSpinBox()
        self.values.setRange(2, 9)
        self.values.setValue(6)
        form.addRow(_("Card values 1 to"), self.values)
        self.cards = QSpinBox()
        self.cards.setRange(1, 6)
        self.cards.setValue(3)
        form.addRow(_("Cards per player"), self.cards)
        self.moderator = QComboBox()
        self.moderator.addItem(_("External moderator (a person who does not play)"), userData="external")
        self.moderator.addItem(_("Rotating: a player answers about the cards they see"), userData="rotating")
        form.addRow(_("Moderator"), self.moderator)
        self.ba = QCheckBox(_("I use behavioural analysis (reason from who solved and who did not)"))
        self.ba.setChecked(True)
        form.addRow("", self.ba)
        return form

    def _seat_columns(self) -> tuple:
        def set_name(seat, text):
            seat.name = str(text)

        def set_cards(seat, text):
            seat.cards = str(text)

        def set_analysing(seat, on):
            seat.analysing = on

        return (Column(_("Name"), lambda s: s.name, edit=set_name, resize=STRETCH),
                Column(_("Me"), lambda s: s.me, check=True, radio=True, edit=self._set_me,
                       resize=CONTENTS,
                       header_tooltip=_("tick exactly one player: yourself")),
                Column(_("Cards I see"), lambda s: s.cards, edit=set_cards, resize=STRETCH,
                       header_tooltip=_("the cards on this player's stack, e.g. 4 5 6 "
                                        "(not needed for yourself)")),
                Column(_("Uses analysis"), lambda s: s.analysing, check=True, edit=set_analysing,
                       resize=CONTENTS,
                       header_tooltip=_("this player reasons from who solved and who did not")))

    def _set_me(self, seat: Seat, on: bool) -> None:
        """Tick ``seat`` as me (the other seats are unticked: one "me", like radio buttons)."""
        if on:
            for other in self.table.rows():
                other.me = False
        seat.me = on

    def _load(self, setup) -> None:
        self.n_players.blockSignals(True)
        self.n_players.setValue(len(setup.players))
        self.n_players.blockSignals(False)
        self.values.setValue(setup.values)
        self.cards.setValue(setup.cards_per_player)
        self.moderator.setCurrentIndex(max(self.moderator.findData(setup.moderator), 0))
        self.ba.setChecked(setup.behavioural_analysis)
        vis = setup.visible_dict()
        self.table.set_rows([Seat(p, p == setup.me, stack_text(vis.get(p, ())), p in setup.analysing)
                             for p in setup.players])
        self._update_note()

    def seats(self) -> list[Seat]:
        """The seating grid's rows, in seating order."""
        return self.table.rows()

    def _players_changed(self, *_a) -> None:
        n = self.n_players.value()
        seats = self.seats()[:n]
        seats += [Seat(DEFAULT_NAMES[r]) for r in range(len(seats), n)]
        if not any(s.me for s in seats):
            seats[0].me = True
        self.table.set_rows(seats)
        self._update_note()

    def _update_note(self, *_a) -> None:
        from math import comb

        s = comb(self.values.value() + self.cards.value() - 1, self.cards.value())
        n = self.n_players.value()
        text = _("{s} possible stacks per player, {s}^{n} = {deals} possible deals of the table.").format(
            s=s, n=n, deals=number(s ** n))
        warn = False
        table = egghead.table_bytes(n, s)
        limit = egghead.max_table_bytes(self.values.value(), self.cards.value())
        if table > limit:
            # the engine refuses this deck (engines.egghead.model.max_table_bytes): say so here
            text += " " + _("Too many: the master table alone would take {gb} GB, over the {limit} GB "
                            "limit for this deck. Use fewer players, values or cards.").format(
                gb=number(table / 1e9, 1), limit=number(limit / 1e9, 1))
            warn = True
        elif (self.values.value(), self.cards.value()) != egghead.SEED_DECK and \
                egghead_cost.command_seconds(n, s) > egghead_cost.COMMAND_SECONDS:
            # the engine refuses this deck for its time (engines.egghead.cost): say so here
            text += " " + _("Too slow: about {per_event} s of CPU per event, over the {limit} s a log of "
                            "{events} events may take. Use fewer players, values or cards.").format(
                per_event=number(egghead_cost.seconds_per_event(n, s), 1),
                limit=number(egghead_cost.COMMAND_SECONDS), events=egghead_cost.EVENTS_PER_COMMAND)
            warn = True
        elif table > (1 << 30):
            need = egghead.memory_needed_for(n, s)
            avail = egghead.available_bytes()
            said = dict(gb=number(need / 1e9, 1), seconds=number(egghead.estimated_seconds_per_event(n, s), 1),
                        avail=number((avail or 0) / 1e9, 1))
            text += " " + (_("This needs about {gb} GB of memory ({avail} GB is available now) and takes about "
                             "{seconds} s per event (an answer after a solve up to a few seconds).") if avail else
                           _("This needs about {gb} GB of memory and takes about {seconds} s per event (an "
                             "answer after a solve up to a few seconds).")).format(**said)
            warn = avail is not None and need > avail
        elif s ** n > 10 ** 8:
            text += " " + _("Each event takes a fraction of a second.")
        self.size_note.setText(text)
        scheme_style(self.size_note, (lambda: f"color:{tone('#b71c1c')}") if warn else str)

    def set_row(self, r: int, name: str, me: bool, cards: str, analysing: bool = True) -> None:
        """Fill row ``r`` (for tests and scripted setups)."""
        seat = self.seats()[r]
        seat.name, seat.cards, seat.analysing = name, cards, analysing
        self._set_me(seat, me)
        self.table.refresh()

    def build(self):
        """Validate and build the :class:`egghead.Setup`; raises SessionFormatError."""
        rows = [(s.name.strip(), s.me, s.cards.strip(), s.analysing) for s in self.seats()]
        names = [r[0] for r in rows]
        for i, n in enumerate(names):
            if not n:
                raise SessionFormatError(_("player {n}").format(n=i + 1), _("every player needs a name"))
        me = [r[0] for r in rows if r[1]]
        if len(me) != 1:
            raise SessionFormatError(_("me"), _("tick exactly one player as yourself"))
        visible = {r[0]: parse_stack(r[2], _("{player}'s cards").format(player=r[0])) for r in rows if not r[1]}
        obj = {"players": names, "me": me[0], "values": self.values.value(),
               "cards_per_player": self.cards.value(), "moderator": self.moderator.currentData(),
               "behavioural_analysis": self.ba.isChecked(), "visible": visible,
               "analysing": [r[0] for r in rows if not r[1] and r[3]]}
        return egghead.Setup.from_json(obj, "setup")



# -- Fix… of a logged entry (desktop.tabs.entry_forms) ------------------------------------
class _EggheadEditor(EntryEditor):
    """A logged answer, round of reactions or solve in its form (:class:`QuestionForm`,
    :class:`ReactionsForm`, :class:`SolveForm`) in edit mode."""

    def __init__(self, setup, before, event):
        super().__init__(egghead, setup, before)
        visible = egghead.visible_after(setup, before)
        self.original = event
        if isinstance(event, egghead.Answer):
            self.form = QuestionForm(setup)
            self.form.set_edit_mode(before, visible)
        elif isinstance(event, egghead.Reactions):
            self.form = ReactionsForm(setup)
            self.form.set_edit_mode()
        else:
            self.form = SolveForm(setup)
            self.form.set_edit_mode(visible)
        self.outer.addWidget(self.form)

    def load(self, event) -> None:
        if isinstance(self.form, ReactionsForm):
            self.form.set_solved(event.solved)
        else:
            self.form.load_event(event)

    def event_json(self) -> dict:
        return self.form.event_json()

    def field_widgets(self) -> dict:
        f = self.form
        if isinstance(f, QuestionForm):
            return {"answer": [f.answer], "moderator": [f.moderator], "question": [f.question]}
        if isinstance(f, ReactionsForm):
            was = set(self.original.solved)
            changed = [b for p, b in f.toggles.items() if b.isChecked() != (p in was)]
            return {"solved": changed or list(f.toggles.values())}
        def differ(spins, old):
            out = [s for s, v in zip(spins, old or ()) if s.value() != v]
            return out or list(spins)
        return {"player": [f.player], "cards": differ(f.cards, self.original.cards),
                "new_cards": differ(f.new_cards, self.original.new_cards) + [f.none_new]}


def entry_editor(setup, before, event) -> Optional[EntryEditor]:
    """The form of a logged Egghead entry in edit mode (:mod:`desktop.tabs.entry_forms`)."""
    if isinstance(event, (egghead.Answer, egghead.Reactions, egghead.Solve)):
        return _EggheadEditor(setup, before, event)
    return None
