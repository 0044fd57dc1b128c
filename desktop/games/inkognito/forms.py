"""Inkognito forms: the paper-like answer worksheet of one opponent, and the New game dialog."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from PySide6.QtCore import QModelIndex, Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
)

from desktop.shell.appearance import tone_style
from desktop.table.zoom import scaled_size
from desktop.tabs.entry_forms import EntryEditor
from desktop.widgets.columns import CONTENTS, Column, ColumnTable
from desktop.widgets.plain_text import as_rich_plain, esc
from engines import inkognito
from engines.core.i18n import N_, _
from engines.inkognito.words import card_words

QUESTION_LABELS = {"player": N_("Player"), "ambassador": N_("Ambassador")}
TICK = "●"   # a card shown (✗ means impossible in the heat maps)
PENDING_BG = QColor(255, 249, 219)
_DARK = QColor(33, 33, 33)


@dataclass(frozen=True)
class SheetRow:
    """A row of the answer worksheet: a logged answer, or the pending one being ticked."""

    code: str                    # P·I, P·B, A·I, A·B, ·M for the mission card
    tip: str                     # the question in words
    identities: frozenset        # indices (0..3) of the identities shown
    builds: frozenset            # indices (0..3) of the builds shown
    pending: bool = False
    label: str = ""              # the row's header: its number, or "new"


def _pending_bg(row: SheetRow) -> Optional[QColor]:
    return PENDING_BG if row.pending else None


def _pending_fg(row: SheetRow) -> Optional[QColor]:
    # dark text on the light pending row, whatever the palette's text colour
    return _DARK if row.pending else None


def sheet_columns(setup) -> tuple:
    """The worksheet's columns: the question code, then a tick column per identity and per
    build (short headers, the full names in the tooltips)."""
    def tick(kind: str, k: int, name: str, head: str) -> Column:
        return Column(head, lambda r: TICK if k in getattr(r, kind) else "",
                      align=Qt.AlignmentFlag.AlignCenter,
                      tooltip=lambda r: name, header_tooltip=name, bold=lambda r: True,
                      background=_pending_bg, foreground=_pending_fg)

    cols = [Column("Q", lambda r: r.code, align=Qt.AlignmentFlag.AlignCenter,
                   tooltip=lambda r: r.tip,
                   header_tooltip=_("question"), resize=CONTENTS, background=_pending_bg,
                   foreground=_pending_fg)]
    cols += [tick("identities", i, n, h) for i, (n, h) in
             enumerate(zip(setup.identities, short_names(setup.identities)))]
    shown = [card_words(b) for b in setup.builds]      # "groß", "grand": the builds translated
    cols += [tick("builds", b, n, h) for b, (n, h) in
             enumerate(zip(shown, short_names(shown)))]
    return tuple(cols)


def short_name(name: str, length: int = 5) -> str:
    """Initials for a column header ("Lord Fiddlebottom" -> "LF"; one word: its first
    ``length`` letters, capitalised: "tall" -> "Tall", with length 2 "Ta")."""
    words = name.split()
    if len(words) > 1:
        return "".join(w[0].upper() for w in words if w[:1].isalnum())[:3]
    return name[:length].capitalize()


def short_names(names) -> list[str]:
    """Headers for a narrow worksheet: initials of several words, the first two letters of one
    word ("tall", "short", "fat", "thin" -> "Ta", "Sh", "Fa", "Th"), lengthened where two would
    be the same (the full name is in the tooltip)."""
    for length in range(2, 1 + max((len(n) for n in names), default=2)):
        out = [short_name(n, length) for n in names]
        if len(set(out)) == len(out):
            return out
    return list(names)


class AnswerSheet(QGroupBox):
    """One opponent's worksheet: a row per logged answer, columns = the 4 identities and the 4
    builds (● = card shown); the last row is the pending answer, ticked by clicking.
    Below it: question (player / ambassador), asked kind, mission card, Log button.

    Signals:
        submitted(str opponent): the user pressed Enter or Log (the tab builds the event).
        pendingChanged(str opponent).
    """

    submitted = Signal(str)
    pendingChanged = Signal(str)

    def focus_table(self) -> None:
        """Put the keyboard focus on the sheet's answer grid."""
        self.table.setFocus()

    def __init__(self, opponent: str, setup, parent=None):
        super().__init__(opponent, parent)
        self.opponent = opponent
        self.setup = setup
        self.ticked_identities: set[int] = set()
        self.ticked_builds: set[int] = set()
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(self._build_table(setup), 1)
        row = QHBoxLayout()
        self.question = QComboBox()
        for q in inkognito.QUESTIONS:
            self.question.addItem(_(QUESTION_LABELS[q]), q)
        self.asked = QComboBox()
        for k in inkognito.KINDS:
            self.asked.addItem(_("about identity") if k == "identity" else _("about build"), k)
        self.mission = QCheckBox(_("mission"))
        self.mission.setToolTip(_("The mission card was shown in place of one card"))
        self.log_button = QPushButton(_("Log"))
        self.log_button.setToolTip(_("Log the ticked answer (Enter)"))
        self.log_button.clicked.connect(lambda: self.submitted.emit(self.opponent))
        for w in (self.question, self.asked):
            w.setSizeAdjustPolicy(QComboBox.AdjustToMinimumContentsLengthWithIcon)
            w.setMinimumContentsLength(6)
            row.addWidget(w, 1)
        self.question.currentIndexChanged.connect(self._draw_pending)
        self.asked.currentIndexChanged.connect(self._draw_pending)
        self.mission.toggled.connect(self._draw_pending)
        lay.addLayout(row)
        row2 = QHBoxLayout()
        row2.addWidget(self.mission)
        row2.addStretch(1)
        row2.addWidget(self.log_button)
        lay.addLayout(row2)
        self._answers: list = []
        self.set_answers([])

    def _build_table(self, setup) -> "_SheetTable":
        """The answer grid: a row per logged answer and the pending row, ticked by clicking."""
        self.table = _SheetTable(sheet_columns(setup), stretch=True, select_rows=False,
                                 row_label=lambda r: r.label)
        hh = self.table.horizontalHeader()
        hh.setMinimumSectionSize(22)
        font = hh.font()
        font.setPointSizeF(max(font.pointSizeF() - 1, 7))   # three-letter headers in 22 px
        hh.setFont(font)
        self.table.verticalHeader().setDefaultSectionSize(22)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.Fixed)
        self.table.setSelectionMode(QAbstractItemView.NoSelection)
        self.table.setToolTip(_("Click the cells of the last row to tick the statements of a new "
                                "answer, then press Enter (or Log)"))
        self.table.clicked.connect(self._clicked)
        self.table.enterPressed.connect(lambda: self.submitted.emit(self.opponent))
        return self.table

    @property
    def pending_row(self) -> int:
        return self.table.row_count() - 1

    def cell_text(self, row: int, column: int) -> str:
        """The text of a worksheet cell (``TICK`` for a card shown)."""
        return self.table.text(row, column)

    def row_count(self) -> int:
        """Rows of the worksheet: the logged answers and the pending row."""
        return self.table.row_count()

    def set_answers(self, answers) -> None:
        """Show the logged answers of this opponent (in order) and the pending row."""
        self._answers = list(answers)
        self._draw_pending()

    def _logged_row(self, r: int, ev) -> SheetRow:
        s = self.setup
        tip = {("player", "identity"): _("Player question about identity"),
               ("player", "build"): _("Player question about build"),
               ("ambassador", "identity"): _("Ambassador question about identity"),
               ("ambassador", "build"): _("Ambassador question about build")}[(ev.question, ev.asked)]
        if ev.mission:
            tip = _("{question}, mission card shown").format(question=tip)
        return SheetRow(_code(ev.question, ev.asked, ev.mission), tip,
                        frozenset(i for i, n in enumerate(s.identities) if n in ev.identities),
                        frozenset(b for b, n in enumerate(s.builds) if n in ev.builds),
                        label=str(r + 1))

    def _draw_pending(self, *_a) -> None:
        if not hasattr(self, "mission"):
            return
        code = _code(self.question.currentData(), self.asked.currentData(),
                     self.mission.isChecked())
        pending = SheetRow(code, _("the next answer: click cells to tick, then Enter"),
                           frozenset(self.ticked_identities), frozenset(self.ticked_builds),
                           pending=True, label=getattr(self, "editing_label", _("new")))
        rows = [self._logged_row(r, ev) for r, ev in enumerate(self._answers)] + [pending]
        if rows != self.table.rows():      # rows are values: an unchanged sheet is not reset
            self.table.set_rows(rows)

    def _clicked(self, index: QModelIndex) -> None:
        row, col = index.row(), index.column()
        if row != self.pending_row or col == 0:
            return
        self.toggle(col)
        self.table.setFocus()

    def toggle(self, col: int) -> None:
        """Tick or untick column ``col`` (1..4 identities, 5..8 builds) of the pending row."""
        target, k = (self.ticked_identities, col - 1) if col <= 4 else (self.ticked_builds, col - 5)
        target.symmetric_difference_update({k})
        self._draw_pending()
        self.pendingChanged.emit(self.opponent)

    def clear_pending(self) -> None:
        self.ticked_identities.clear()
        self.ticked_builds.clear()
        self.mission.setChecked(False)
        self._draw_pending()

    def set_question(self, question: str, asked: str) -> None:
        self.question.setCurrentIndex(self.question.findData(question))
        self.asked.setCurrentIndex(self.asked.findData(asked))

    def set_edit_mode(self, label: str) -> None:
        """Edit a logged answer instead of logging one (Fix…, desktop.tabs.entry_forms): no
        Log button, Enter logs nothing, and the ticked row is labelled ``label`` (the entry's
        number) instead of "new"."""
        self.editing_label = label
        self.log_button.hide()
        self.table.setToolTip(_("Click the cells of the highlighted row to tick or untick the "
                                "cards shown in this answer"))
        self._draw_pending()

    def set_opponent(self, opponent: str, answers) -> None:
        """Show the sheet of ``opponent`` (their logged ``answers``), keeping the ticked row."""
        self.opponent = opponent
        self.setTitle(opponent)
        self.set_answers(answers)

    def load_event(self, ev) -> None:
        """Tick the pending row as logged answer ``ev`` (question, kind asked, cards, mission)."""
        s = self.setup
        self.ticked_identities = {i for i, n in enumerate(s.identities) if n in ev.identities}
        self.ticked_builds = {b for b, n in enumerate(s.builds) if n in ev.builds}
        self.set_question(ev.question, ev.asked)
        self.mission.setChecked(bool(ev.mission))
        self._draw_pending()

    def event_json(self) -> dict:
        """The pending answer as event JSON (validated by the engine when logged)."""
        s = self.setup
        return {"type": "answer", "opponent": self.opponent,
                "question": self.question.currentData(), "asked": self.asked.currentData(),
                "identities": [s.identities[i] for i in sorted(self.ticked_identities)],
                "builds": [s.builds[b] for b in sorted(self.ticked_builds)],
                "mission": self.mission.isChecked()}


def _code(question: str, asked: str, mission: bool) -> str:
    """Worksheet code of a question: P·I, P·B (player), A·I, A·B (ambassador), ·M mission."""
    return (("A" if question == "ambassador" else "P") + ("·I" if asked == "identity" else "·B")
            + ("·M" if mission else ""))


class _SheetTable(ColumnTable):
    """The worksheet's grid: Enter logs the pending answer."""

    enterPressed = Signal()

    def keyPressEvent(self, event) -> None:  # noqa: N802 (Qt's method name)
        if event.key() in (Qt.Key_Return, Qt.Key_Enter):
            self.enterPressed.emit()
            return
        super().keyPressEvent(event)


class NewGameDialog(QDialog):
    """A new Inkognito game: my identity and build, 2 or 3 opponents (leave the third empty
    for a 3-player game), the names of identities and builds, and the deception model."""

    def __init__(self, parent=None, setup=None):
        super().__init__(parent)
        self.setWindowTitle(_("New Inkognito game"))
        setup = setup or inkognito.default_setup()
        lay = QVBoxLayout(self)
        lay.addWidget(self._build_names_box(setup))
        lay.addLayout(self._build_players_form(setup))
        self.error = QLabel()
        tone_style(self.error, "#b71c1c")
        lay.addWidget(self.error)
        bb = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        bb.accepted.connect(self._accept)
        bb.rejected.connect(self.reject)
        lay.addWidget(bb)
        self._names_changed()
        self.me_identity.setCurrentIndex(setup.identities.index(setup.me_identity))
        self.me_build.setCurrentIndex(setup.builds.index(setup.me_build))
        self._setup: Optional[object] = None
        self.priors: dict = {}

    def _build_names_box(self, setup) -> QGroupBox:
        """The names of the four identities and the four builds."""
        names = QGroupBox(_("Names (identities in team order: 1 && 3 and 2 && 4 are partners)"))
        g = QGridLayout(names)
        self.id_edits, self.build_edits = [], []
        g.addWidget(QLabel("<b>{}</b>".format(esc(_("Identities")))), 0, 0)
        g.addWidget(QLabel("<b>{}</b>".format(esc(_("Builds")))), 0, 1)
        for k in range(4):
            a, b = QLineEdit(setup.identities[k]), QLineEdit(setup.builds[k])
            a.textChanged.connect(self._names_changed)
            b.textChanged.connect(self._names_changed)
            g.addWidget(a, k + 1, 0)
            g.addWidget(b, k + 1, 1)
            self.id_edits.append(a)
            self.build_edits.append(b)
        return names

    def _build_players_form(self, setup) -> QFormLayout:
        """My identity and build, the opponents, the deception model."""
        form = QFormLayout()
        self.me_identity = QComboBox()
        self.me_build = QComboBox()
        form.addRow(_("My identity"), self.me_identity)
        form.addRow(_("My build"), self.me_build)
        self.opp_edits = []
        for k in range(3):
            e = QLineEdit(setup.opponents[k] if k < len(setup.opponents) else "")
            if k == 2:
                e.setPlaceholderText(_("empty: 3-player game"))
            form.addRow(_("Opponent {n}").format(n=k + 1), e)
            self.opp_edits.append(e)
        self.deception = QCheckBox(_("Opponents may mislead (learn how often, per opponent)"))
        self.deception.setChecked(setup.deception.enabled)
        form.addRow("", self.deception)
        return form

    def _names_changed(self, *_a) -> None:
        for combo, edits in ((self.me_identity, self.id_edits), (self.me_build, self.build_edits)):
            k = max(combo.currentIndex(), 0)
            combo.blockSignals(True)
            combo.clear()
            combo.addItems([e.text().strip() or f"#{i + 1}" for i, e in enumerate(edits)])
            combo.setCurrentIndex(k)
            combo.blockSignals(False)

    def setup_json(self) -> dict:
        ids = [e.text().strip() for e in self.id_edits]
        builds = [e.text().strip() for e in self.build_edits]
        opps = [e.text().strip() for e in self.opp_edits if e.text().strip()]
        obj = {"identities": ids, "builds": builds,
               "me": {"identity": ids[self.me_identity.currentIndex()],
                      "build": builds[self.me_build.currentIndex()]},
               "opponents": opps,
               "deception": {"enabled": self.deception.isChecked(),
                             "prior": list(inkognito.DEFAULT_DECEPTION_PRIOR)}}
        if self.priors:
            obj["deception"]["priors"] = {k: list(v) for k, v in self.priors.items() if k in opps}
        return obj

    def _accept(self) -> None:
        from engines.core.errors import SessionFormatError
        try:
            self._setup = inkognito.Setup.from_json(self.setup_json(), "setup")
        except SessionFormatError as exc:
            self.error.setText(as_rich_plain(f"{exc.path}: {exc.message}"))
            return
        self.accept()

    def result_setup(self):
        return self._setup


# -- Fix… of a logged entry (desktop.tabs.entry_forms) ------------------------------------
class _AnswerEditor(EntryEditor):
    """A logged answer in the opponent's :class:`AnswerSheet` (edit mode): their earlier answers
    above, the entry's cards ticked in the highlighted row, and the opponent to pick (a
    correction may move the answer to another opponent's sheet)."""

    def __init__(self, setup, before, event):
        super().__init__(inkognito, setup, before)
        self.original = event
        row = QHBoxLayout()
        row.addWidget(QLabel(_("Answered by")))
        self.opponent = QComboBox()
        for o in setup.opponents:
            self.opponent.addItem(o, o)
        row.addWidget(self.opponent)
        row.addStretch(1)
        self.outer.addLayout(row)
        self.sheet = AnswerSheet(event.opponent, setup)
        self.sheet.set_edit_mode(f"#{len(before) + 1}")
        scaled_size(self.sheet, min_height=220)   # pixels at 100 %, times the zoom
        self.outer.addWidget(self.sheet, 1)
        self.opponent.currentIndexChanged.connect(self._opponent_changed)

    def _opponent_changed(self, *_a) -> None:
        o = self.opponent.currentData()
        self.sheet.set_opponent(o, [e for e in self.before if e.opponent == o])

    def load(self, event) -> None:
        self.opponent.blockSignals(True)
        self.opponent.setCurrentIndex(max(self.opponent.findData(event.opponent), 0))
        self.opponent.blockSignals(False)
        self._opponent_changed()
        self.sheet.load_event(event)

    def event_json(self) -> dict:
        return self.sheet.event_json()

    def field_widgets(self) -> dict:
        return {"opponent": [self.opponent], "identities": [self.sheet.table],
                "builds": [self.sheet.table], "asked": [self.sheet.asked],
                "question": [self.sheet.question], "mission": [self.sheet.mission]}


def entry_editor(setup, before, event) -> Optional["EntryEditor"]:
    """The form of a logged Inkognito answer in edit mode (:mod:`desktop.tabs.entry_forms`)."""
    if isinstance(event, inkognito.Answer):
        return _AnswerEditor(setup, before, event)
    return None
