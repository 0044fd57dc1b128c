"""Guess Who? forms: the New game dialog and the strategy simulation panel.

The dialog builds the setup through the engine (``load_board`` / ``setup_for_board``), so a bad
board file gets the engine's message naming the file and the field. The simulation panel only
collects options and shows results; the tab runs :func:`engines.guesswho.simulate` in a
background runner.
"""
from __future__ import annotations

import functools
from typing import Optional

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from desktop.games.guesswho.panes import RULE_NAMES
from desktop.shell.appearance import muted_style, scheme_style, tone
from desktop.shell.locale_format import number, percent
from desktop.tabs.entry_forms import EntryEditor
from desktop.widgets.columns import STRETCH, Column, ColumnTable, is_missing
from desktop.widgets.dialogs import NewGameDialogBase
from desktop.widgets.plain_text import as_rich_plain, esc
from desktop.widgets.simulation import SimulationPanelBase
from engines import guesswho
from engines.core.errors import SessionFormatError
from engines.core.i18n import N_, _
from engines.guesswho.words import attribute_words, chip_words

FILE_CHOICE = "file"
RULE_LABELS = {"official": N_("Official (naming takes a turn; a wrong name loses)"),
               "instant": N_("Instant win (you win the moment one card is left)")}
STRATEGY_LABELS = {"random": N_("Random question"), "greedy": N_("Greedy (most information)"),
                   "optimal": N_("Optimal (fewest expected questions)"),
                   "race": N_("Race-optimal (Nica)")}


def _match_tip(m) -> str:
    return _("{games} games: {a} won {wins_a}, {b} won {wins_b}; whoever asked first won {first}").format(
        games=m.games, a=m.a, wins_a=m.wins_a, b=m.b, wins_b=m.wins_b, first=m.first_player_wins)


def _rate_with_interval(rate: float, interval) -> Optional[str]:
    """``"62.0% (58–66)"``; None (shown as a dash) for a rate that is not a finite number."""
    if is_missing(rate) or any(is_missing(x) for x in interval):
        return None
    return f"{percent(rate, 1)} ({number(100 * interval[0])}–{number(100 * interval[1])})"


#: One row per pairing of a :class:`engines.guesswho.SimulationResult` (its ``matches``).
def match_columns() -> tuple:
    """The columns of the result table, in the language in effect."""
    return (
        Column(_("A vs B"), lambda m: _("{a}\nvs {b}").format(a=m.a, b=m.b), tooltip=_match_tip,
               header_tooltip=_("The pairing")),
        Column(_("A wins"), lambda m: _rate_with_interval(m.win_rate_a, m.interval_a), numeric=True,
               sort_key=lambda m: m.win_rate_a, resize=STRETCH, tooltip=_match_tip,
               header_tooltip=_("How often the first-named strategy won (95 % interval)")),
        Column(_("1st wins"), lambda m: _rate_with_interval(m.first_player_rate, m.first_player_interval),
               numeric=True, sort_key=lambda m: m.first_player_rate, tooltip=_match_tip,
               header_tooltip=_("How often whoever asked first won (95 % interval)")),
        Column(_("Q/game"), lambda m: m.mean_questions, numeric=True, format=lambda v: number(v, 2),
               tooltip=_match_tip, header_tooltip=_("Mean questions asked per game, both players")),
    )


class NewGameDialog(NewGameDialogBase):
    """Ask for a new Guess Who? game: board (classic, demo, or a file), rules, compound questions,
    answer-error rate ε and the opponent's standing cards.

    :meth:`build` validates and returns the setup (raises SessionFormatError naming what is
    wrong); :meth:`result_setup` returns it after ``exec()`` was accepted.
    """

    def __init__(self, parent=None, setup=None):
        super().__init__(parent)
        self.setWindowTitle(_("New Guess Who? game"))
        self.setMinimumWidth(520)
        lay = QVBoxLayout(self)
        form = QFormLayout()
        lay.addLayout(form)
        self._add_board_rows(form)
        self._add_game_rows(form)
        self.note = QLabel()
        self.note.setWordWrap(True)
        muted_style(self.note)
        lay.addWidget(self.note)
        lay.addWidget(self.start_buttons())
        self.board.currentIndexChanged.connect(self._board_changed)
        if setup is not None:
            self._load(setup)
        self._board_changed()

    def _add_board_rows(self, form: QFormLayout) -> None:
        """The board: classic, the Guess Who Solver notebook's demo, or a file (with Browse…)."""
        self.board = QComboBox()
        self.board.addItem(_("Classic (24 characters)"), userData="classic")
        self.board.addItem(_("Seed demo (6 characters)"), userData="demo")
        self.board.addItem(_("Load from file (CSV, TSV or JSON)…"), FILE_CHOICE)
        form.addRow(_("Board"), self.board)
        row = QHBoxLayout()
        self.path = QLineEdit()
        self.path.setPlaceholderText(_("board file: name column + one column per attribute"))
        self.browse = QPushButton(_("Browse…"))
        self.browse.clicked.connect(self._browse)
        row.addWidget(self.path, 1)
        row.addWidget(self.browse)
        self.file_row = QWidget()
        self.file_row.setLayout(row)
        row.setContentsMargins(0, 0, 0, 0)
        form.addRow(_("Board file"), self.file_row)

    def _add_game_rows(self, form: QFormLayout) -> None:
        """Rules, compound questions, the answer error ε, the opponent's standing cards."""
        self.rules = QComboBox()
        for r in guesswho.RULES:
            self.rules.addItem(_(RULE_LABELS[r]) if r in RULE_LABELS else r, r)
        form.addRow(_("Rules"), self.rules)
        self.compound = QCheckBox(_("allow “A or B?” questions (house rule)"))
        form.addRow(_("Compound questions"), self.compound)
        self.error_rate = QDoubleSpinBox()
        self.error_rate.setRange(0.0, 0.45)
        self.error_rate.setDecimals(2)
        self.error_rate.setSingleStep(0.01)
        self.error_rate.setSpecialValueText(_("0 (answers are always right)"))
        self.error_rate.setToolTip(_("Probability that the opponent answers a question wrongly (the "
                                     "model's ε); above 0, answers weigh cards instead of knocking "
                                     "them down"))
        form.addRow(_("How often do they answer wrongly?"), self.error_rate)
        self.opponent = QSpinBox()
        self.opponent.setRange(0, 99)
        self.opponent.setSpecialValueText(_("unknown"))
        self.opponent.setToolTip(_("How many cards the opponent has standing (the whole board at "
                                   "the start); needed for the win probability"))
        form.addRow(_("Opponent's standing cards"), self.opponent)

    def _load(self, setup) -> None:
        key = setup.board.key
        idx = self.board.findData(key) if key else -1
        if idx < 0:
            idx = self.board.findData(FILE_CHOICE)
            if setup.board.source:
                self.path.setText(setup.board.source)
        self.board.setCurrentIndex(idx)
        self.rules.setCurrentIndex(max(0, self.rules.findData(setup.rules)))
        self.compound.setChecked(setup.compound_questions)
        self.error_rate.setValue(setup.error_rate)
        self.opponent.setValue(setup.board.size if setup.opponent_remaining is None
                               else setup.opponent_remaining)

    def _board_changed(self, *_a) -> None:
        is_file = self.board.currentData() == FILE_CHOICE
        self.file_row.setEnabled(is_file)
        if not is_file:
            try:
                b = guesswho.load_board(self.board.currentData())
            except SessionFormatError:
                return
            self.opponent.setMaximum(b.size)
            if self.opponent.value() in (0, self.opponent.maximum()) or self.opponent.value() > b.size:
                self.opponent.setValue(b.size)
            self.note.setText(b.note or "")
        else:
            self.opponent.setMaximum(99)
            self.note.setText(_("A board file has a header row with a <b>name</b> column and one column "
                                "per attribute (yes/no or categories such as hair colour); optional "
                                "<b>image</b> and <b>note</b> columns. JSON boards use the format of "
                                "resources/guesswho/classic.json."))

    def _browse(self) -> None:
        path, _filter = QFileDialog.getOpenFileName(self, _("Load a Guess Who? board"), "",
                                              _("Boards (*.csv *.tsv *.txt *.json);;All files (*)"))
        if path:
            self.path.setText(path)

    def build(self):
        """Validate the form and build the :class:`engines.guesswho.Setup`.

        Raises:
            SessionFormatError: no board file given, a bad board file (the engine's message,
                naming the file and field), or an opponent count larger than the board.
        """
        key = self.board.currentData()
        if key == FILE_CHOICE:
            path = self.path.text().strip()
            if not path:
                raise SessionFormatError(_("board file"), _("choose a board file (CSV, TSV or JSON)"))
            board = guesswho.load_board(path)
        else:
            board = guesswho.load_board(key)
        opp: Optional[int] = self.opponent.value() or None
        if opp is not None and opp > board.size:
            raise SessionFormatError(_("opponent's standing cards"),
                                     _("at most {n} (the board has {n} characters)").format(n=board.size))
        return guesswho.setup_for_board(board, opponent_remaining=opp,
                                        error_rate=round(self.error_rate.value(), 4),
                                        rules=self.rules.currentData(),
                                        compound_questions=self.compound.isChecked())


class SimulationPanel(SimulationPanelBase):
    """Options and results of a strategy simulation (strategies against each other) on the
    board and rules of the tab's setup.

    Args:
        runner: the tab's simulation runner; setup: zero-argument callable giving the tab's
            current :class:`engines.guesswho.Setup`.
    """

    RUN_TEXT = N_("Run")

    def __init__(self, runner, setup, parent=None):
        super().__init__(runner, parent)
        self._setup = setup
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        intro = QLabel(_("Strategies against each other on this board and rules: random secrets, "
                         "first player alternating; each win rate with the range it surely lies "
                         "in (hover a header for how it is computed)."))
        intro.setWordWrap(True)
        lay.addWidget(intro)
        lay.addWidget(self._build_strategies_box())
        lay.addLayout(self._build_games_row())
        row2 = QHBoxLayout()
        self.progress.setFormat("%p%")
        row2.addWidget(self.run_button)
        row2.addWidget(self.cancel_button)
        row2.addWidget(self.progress, 1)
        row2.addWidget(self.run_on)
        lay.addLayout(row2)
        self.table = ColumnTable(match_columns(), sortable=True, select_rows=False,
                                 tooltip=_("Click a header to sort; Ctrl+C copies the table"))
        # pixels, not times the zoom: the hidden Simulation page's minimum is the window's too,
        # and 165 px at 150 % made it 818 px high, over a 1280x800 screen (tests/screen_audit)
        self.table.setMinimumHeight(110)
        self.table.verticalHeader().setDefaultSectionSize(22)
        lay.addWidget(self.table, 1)
        self.message = self.status   # the status line under the table
        lay.addWidget(self.status)

    def _build_strategies_box(self) -> QGroupBox:
        """A check box per strategy (greedy and race ticked)."""
        box = QGroupBox(_("Strategies"))
        bl = QGridLayout(box)
        bl.setContentsMargins(6, 2, 6, 2)
        self.checks: dict[str, QCheckBox] = {}
        for i, s in enumerate(guesswho.STRATEGIES):
            cb = QCheckBox(s)
            cb.setToolTip(_(STRATEGY_LABELS[s]) if s in STRATEGY_LABELS else s)
            cb.setChecked(s in ("greedy", "race"))
            bl.addWidget(cb, i // 2, i % 2)
            self.checks[s] = cb
        return box

    def _build_games_row(self) -> QHBoxLayout:
        """Games per pairing and the seed."""
        row = QHBoxLayout()
        row.addWidget(QLabel(_("Games per pairing")))
        self.games = QSpinBox()
        self.games.setRange(10, 100_000)
        self.games.setSingleStep(100)
        self.games.setValue(500)
        row.addWidget(self.games)
        row.addWidget(QLabel(_("Seed")))
        self.seed = QSpinBox()
        self.seed.setRange(0, 1_000_000)
        row.addWidget(self.seed)
        return row

    def strategies(self) -> list:
        """The ticked strategy names: in the order :meth:`set_options` gave them (the first
        named plays as A), else in engine order."""
        ticked = [s for s, cb in self.checks.items() if cb.isChecked()]
        requested = getattr(self, "_requested", [])
        return list(requested) if sorted(requested) == sorted(ticked) else ticked

    def set_options(self, strategies, games: int, seed: int) -> None:
        """Tick ``strategies`` and set the games per pairing and the seed."""
        self._requested = [s for s in strategies if s in self.checks]
        for s, cb in self.checks.items():
            cb.setChecked(s in strategies)
        self.games.setValue(games)
        self.seed.setValue(seed)

    def prepare(self):
        strategies = self.strategies()
        if not strategies:
            raise SessionFormatError("--strategies", _("Tick at least one strategy."))
        setup = self._setup()
        config = guesswho.SimConfig(setup.board, tuple(strategies), self.games.value(),
                                    rules=setup.rules, compound=setup.compound_questions,
                                    seed=self.seed.value(), scheduler=self.scheduler())
        self.table.clear_rows()
        pairs = max(1, len(strategies) * (len(strategies) - 1) // 2)
        return (functools.partial(_simulate_job, config), config.games * pairs,
                _("Playing {n} games per pairing…").format(n=number(config.games)))

    def present(self, result, seconds: float) -> None:
        self.show_result(result)

    def show_result(self, result) -> None:
        """Fill the table from a :class:`engines.guesswho.SimulationResult`."""
        self.table.set_rows(result.matches)
        self.table.resizeRowsToContents()
        rules = _(RULE_NAMES[result.rules]) if result.rules in RULE_NAMES else result.rules
        text = _("{board} · {rules} · compound questions · seed {seed}") if result.compound_questions \
            else _("{board} · {rules} · seed {seed}")
        self.message.setText(as_rich_plain(text.format(board=result.board, rules=rules, seed=result.seed)))

    def show_error(self, text: str) -> None:
        """Show ``text`` (a problem or a notice) in red under the table."""
        self.status.setText(f"<span style='color:{tone('#b71c1c')}'>{esc(text)}</span>")


def _simulate_job(config, task):
    return guesswho.simulate(config, progress=task.progress, cancel=task)


# -- Fix… of a logged entry (desktop.tabs.entry_forms) ------------------------------------
#: The "no second part" item of a compound question's picker.
NO_ATOM = "—"


def _atom_choices(setup) -> list:
    """``[(label, (attribute, value))]``: every single question of the board as the quick entry
    names it ("glasses", "no glasses", "ginger hair colour", "is it Alex")."""
    from engines.guesswho.parse import atom_labels

    out = []
    for label, (a, v) in atom_labels(setup).items():
        if a == "name":
            label = _("is it {name}").format(name=v)
        elif v is True:
            label = attribute_words(a)
        else:
            label = chip_words(a, v) or label
        out.append((label, (a, v)))
        if v is True:
            out.append((_("no {attribute}").format(attribute=label), (a, False)))
    return out


class _GuessWhoEditor(EntryEditor):
    """A logged Guess Who? entry in a form: a question (its parts, "… or …" for a compound
    question) and the answer Yes / No, as the question list and its Yes / No buttons log it; a
    card I knocked down (the board's click); the opponent's count of standing cards (the
    opponent box)."""

    def __init__(self, setup, before, event):
        super().__init__(guesswho, setup, before)
        self.kind = type(event).__name__
        if isinstance(event, guesswho.Answer):
            box = QGroupBox(_("Question and answer"))
            lay = QGridLayout(box)
            choices = _atom_choices(setup)
            self.atoms = [atom for _label, atom in choices]
            parts = max(len(event.question.atoms), 2 if setup.compound_questions else 1)
            self.parts = []
            for k in range(parts):
                combo = QComboBox()
                if k:
                    combo.addItem(NO_ATOM, -1)
                for j, (label, _atom) in enumerate(choices):
                    combo.addItem(label, j)
                lay.addWidget(QLabel(_("Asked") if k == 0 else _("or")), k, 0)
                lay.addWidget(combo, k, 1)
                combo.currentIndexChanged.connect(self._update_words)
                self.parts.append(combo)
            self.words = QLabel()
            self.words.setWordWrap(True)
            lay.addWidget(self.words, parts, 1)
            row = QHBoxLayout()
            self.yes, self.no = QRadioButton(_("Yes")), QRadioButton(_("No"))
            for b, colour in ((self.yes, "#1b5e20"), (self.no, "#b71c1c")):
                scheme_style(b, lambda c=colour: f"QRadioButton {{ color:{tone(c)}; font-weight:bold }}")
                row.addWidget(b)
            row.addStretch(1)
            lay.addWidget(QLabel(_("Answer")), parts + 1, 0)
            lay.addLayout(row, parts + 1, 1)
            lay.setColumnStretch(1, 1)
        elif isinstance(event, guesswho.Eliminate):
            box = QGroupBox(_("A card I knocked down"))
            lay = QFormLayout(box)
            self.name = QComboBox()
            self.name.addItems(list(setup.board.names))
            lay.addRow(_("Character"), self.name)
        else:
            box = QGroupBox(_("The opponent's standing cards"))
            lay = QFormLayout(box)
            self.remaining = QSpinBox()
            self.remaining.setRange(1, max(1, setup.board.size))
            lay.addRow(_("Standing"), self.remaining)
        self.outer.addWidget(box)

    def _question(self) -> dict:
        atoms = [self.atoms[c.currentData()] for c in self.parts if c.currentData() >= 0]
        return guesswho.Question(tuple(atoms)).to_json()

    def _update_words(self, *_a) -> None:
        from desktop.games.guesswho.cards import question_words

        self.words.setText(_("“{question}”").format(question=question_words(self._question(), self.setup.board)))

    def load(self, event) -> None:
        if self.kind == "Answer":
            atoms = list(event.question.atoms)
            for k, combo in enumerate(self.parts):
                atom = tuple(atoms[k]) if k < len(atoms) else None
                if atom in self.atoms:
                    combo.setCurrentIndex(combo.findData(self.atoms.index(atom)))
                elif atom is not None:
                    self.atoms.append(atom)
                    combo.addItem(_("{attribute}: {value}").format(attribute=atom[0], value=atom[1]),
                                  len(self.atoms) - 1)
                    combo.setCurrentIndex(combo.count() - 1)
                else:
                    combo.setCurrentIndex(0)
            (self.yes if event.answer else self.no).setChecked(True)
            self._update_words()
        elif self.kind == "Eliminate":
            self.name.setCurrentText(event.name)
        else:
            self.remaining.setValue(int(event.remaining))

    def event_json(self) -> dict:
        if self.kind == "Answer":
            if not (self.yes.isChecked() or self.no.isChecked()):
                return {"type": "answer", "question": self._question()}
            return {"type": "answer", "question": self._question(),
                    "answer": self.yes.isChecked()}
        if self.kind == "Eliminate":
            return {"type": "eliminate", "name": self.name.currentText()}
        return {"type": "opponent", "remaining": self.remaining.value()}

    def field_widgets(self) -> dict:
        if self.kind == "Answer":
            return {"answer": [self.yes, self.no], "question": list(self.parts)}
        if self.kind == "Eliminate":
            return {"name": [self.name]}
        return {"remaining": [self.remaining]}


def entry_editor(setup, before, event) -> Optional[EntryEditor]:
    """The form of a logged Guess Who? entry in edit mode (:mod:`desktop.tabs.entry_forms`)."""
    if isinstance(event, (guesswho.Answer, guesswho.Eliminate, guesswho.Opponent)):
        return _GuessWhoEditor(setup, before, event)
    return None
