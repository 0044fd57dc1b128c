"""Cluedo forms: the New game dialog (edition or custom deck, seating, hand sizes, my cards) and
the suggestion / accusation form. Forms build engine events from JSON so every check the engine
makes (names, counts) also guards the form; a wrong entry gets a message naming the field.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
)

from desktop.shell.appearance import tone, tone_style
from desktop.table.zoom import scaled_size
from desktop.tabs.entry_forms import EntryEditor, combo_select
from desktop.widgets.columns import CONTENTS, STRETCH, Column, ColumnTable
from desktop.widgets.dialogs import NewGameDialogBase
from desktop.widgets.plain_text import as_rich_plain, esc
from desktop.widgets.steady_label import SteadyLabel
from engines import cluedo
from engines.cluedo.model import PositionEvent, RollEvent
from engines.cluedo.suggestions import BEHAVIOURS, LEARN, MAX_RHO
from engines.core.errors import SessionFormatError
from engines.core.i18n import N_, _, ngettext

#: The refuter picker's "nobody refuted" and the card picker's "no card" entries (marked only:
#: the form shows and compares them translated, ``_(NOBODY)``).
NOBODY = N_("nobody")
NOT_SEEN = N_("(not shown to me)")
NOT_RECORDED = N_("(not recorded)")
#: A card the refuter holds with a probability at most this is not offered as shown.
HOLD_EPS = 1e-9
DEFAULT_NAMES = [N_("Me"), "Ann", "Bob", "Cy", "Dee", "Eve", "Flo", "Gus", "Hal", "Ivy"]


@dataclass
class Seat:
    """One row of the New game dialog's seating grid: a player, the size of their hand,
    whether they are me and the dealer (one of each: the ticks act as radio buttons), and how
    their suggestions are read (:mod:`engines.cluedo.suggestions`): ``suggests`` one of
    :data:`SUGGESTS` and the likelihood ratio ``rho`` (ignored for me and for "learn"); ``pawn``:
    the suspect whose pawn they move on the board ("" when not said; editions with a board)."""

    name: str
    cards: int
    me: bool
    dealer: bool
    suggests: str = "neutral"
    rho: float = 1.0
    pawn: str = ""


#: The suggestion model's choices per opponent: (value, text in the grid).
SUGGESTS = (("neutral", N_("neutral")), ("lacks", N_("what they lack")), ("bluffs", N_("bluffs")),
            ("learn", N_("learn from the log")))


def category_title(category: str) -> str:
    """The worksheet's heading of a card category ("suspect" → "Suspects"), translated."""
    return {"suspect": _("Suspects"), "weapon": _("Weapons"), "room": _("Rooms")}.get(
        category, category.capitalize() + "s")


def category_label(category: str) -> str:
    """A card category as a picker's label ("suspect" → "Suspect"), translated."""
    return {"suspect": _("Suspect"), "weapon": _("Weapon"), "room": _("Room")}.get(
        category, category.capitalize())


def _header_width(title: str, least: int) -> int:
    """A column at least ``least`` px wide and wide enough for its header ``title`` (German and
    French headers are longer than the English one)."""
    return max(least, QFontMetrics(QApplication.font()).horizontalAdvance(title) + 24)


def _suggests_text(value) -> str:
    """The grid's words for a :data:`SUGGESTS` value, translated."""
    text = dict(SUGGESTS).get(value)
    return _(text) if text is not None else value


def _suggests_editor(parent) -> QComboBox:
    combo = QComboBox(parent)
    for value, text in SUGGESTS:
        combo.addItem(_(text), value)
    return combo


def _rho_editor(parent) -> QDoubleSpinBox:
    """The likelihood ratio: 0 (never names own cards) to the engine's largest."""
    spin = QDoubleSpinBox(parent)
    spin.setRange(0.0, MAX_RHO)
    spin.setDecimals(2)
    spin.setSingleStep(0.05)
    return spin


def _set_suggests(seat: Seat, value) -> None:
    seat.suggests = str(value)
    if seat.suggests in BEHAVIOURS:
        seat.rho = BEHAVIOURS[seat.suggests]


def _set_rho(seat: Seat, value) -> None:
    seat.rho = float(value)
    seat.suggests = "lacks" if seat.rho < 1.0 else ("neutral" if seat.rho == 1.0 else "bluffs")


#: The dice choices: (value, text); None is the edition's rule.
DICE = ((None, N_("as the edition says")), (1, N_("1 die")), (2, N_("2 dice")))


def _board_editions() -> dict:
    """``{edition: EditionBoard}`` of the editions whose board is encoded (the turn advice)."""
    from engines.cluedo.board import load_boards, local_edition_board

    out = dict(load_boards()[1])
    for key in cluedo.load_editions():   # the German and French classic: the UK board renamed
        if key not in out and local_edition_board(key) is not None:
            out[key] = local_edition_board(key)
    return out


def _cards_editor(parent) -> QSpinBox:
    """The hand-size editor: a spin box over 0..30 (the engine checks the total)."""
    spin = QSpinBox(parent)
    spin.setRange(0, 30)
    return spin


class NewGameDialog(NewGameDialogBase):
    """Ask for a new Cluedo game: edition (or a custom deck), players in seating order, which one
    is me, the dealer, hand sizes (filled from the deal, editable), my cards, and for an edition
    with a board (the turn advice) the dice and each player's pawn.

    :meth:`result_session` returns ``(setup, events)`` after ``exec()`` was accepted.
    """

    #: The seating grid's columns, by position.
    NAME, CARDS, ME, DEALER, SUGGESTS, RHO, PAWN = range(7)

    def __init__(self, parent=None, setup=None, my_cards=()):
        super().__init__(parent)
        self.setWindowTitle(_("New Cluedo game"))
        self.setMinimumWidth(900)
        self.editions = cluedo.load_editions()
        outer = QVBoxLayout(self)
        top = QHBoxLayout()
        outer.addLayout(top, 1)
        left = QVBoxLayout()
        top.addLayout(left, 1)
        left.addLayout(self._build_deck_form())
        left.addWidget(self._build_custom_box())
        self._build_seating(left)
        top.addLayout(self._build_my_cards(), 1)
        outer.addWidget(self.start_buttons())
        self._start(setup, my_cards)

    # -- layout -------------------------------------------------------------------------
    def _build_deck_form(self) -> QFormLayout:
        """The edition (or a custom deck) and the number of players."""
        form = QFormLayout()
        self.edition = QComboBox()
        for key, ed in self.editions.items():
            self.edition.addItem(ed["title"], key)
        self.edition.addItem(_("Custom deck…"), userData="custom")
        form.addRow(_("Edition"), self.edition)
        self.n_players = QSpinBox()
        self.n_players.setRange(3, 10)
        self.n_players.setValue(4)
        form.addRow(_("Players"), self.n_players)
        self.dice = QComboBox()
        for value, text in DICE:
            self.dice.addItem(_(text), value)
        self.dice.setToolTip(_("dice rolled per move on the board (the turn advice); editions differ, "
                               "see docs/cluedo-board.md"))
        form.addRow(_("Dice"), self.dice)
        return form

    def _build_custom_box(self) -> QGroupBox:
        """A custom deck: one text box per category, one card per line."""
        self.custom_box = QGroupBox(_("Custom deck (one card per line)"))
        cb = QGridLayout(self.custom_box)
        self.custom_edits = {}
        for i, cat in enumerate(("suspect", "weapon", "room")):
            cb.addWidget(QLabel(category_title(cat)), 0, i)
            ed = QPlainTextEdit()
            ed.setMinimumHeight(110)
            cb.addWidget(ed, 1, i)
            self.custom_edits[cat] = ed
            ed.textChanged.connect(self._deck_changed)
        return self.custom_box

    def _seat_columns(self) -> tuple:
        def set_name(seat: Seat, text) -> None:
            seat.name = str(text)

        def set_cards(seat: Seat, n) -> None:
            seat.cards = int(n)

        return (Column(_("Name"), lambda s: s.name, edit=set_name, resize=STRETCH),
                Column(_("Cards"), lambda s: s.cards, numeric=True, edit=set_cards,
                       editor=_cards_editor, width=60,
                       header_tooltip=_("the size of this player's hand (filled from the deal)")),
                Column(_("Me"), lambda s: s.me, check=True, radio=True, resize=CONTENTS,
                       edit=lambda seat, on: self._tick(seat, "me", on),
                       header_tooltip=_("tick exactly one player: yourself")),
                Column(_("Dealer"), lambda s: s.dealer, check=True, radio=True, resize=CONTENTS,
                       edit=lambda seat, on: self._tick(seat, "dealer", on),
                       header_tooltip=_("the player who dealt (the deal starts at their left)")),
                Column(_("Suggests"), lambda s: "" if s.me else s.suggests, edit=_set_suggests,
                       editor=_suggests_editor, editable=lambda s: not s.me, width=130,
                       format=_suggests_text,
                       header_tooltip=_("how this player picks the cards they suggest: mostly cards "
                                        "they lack, neutral (their suggestions say nothing about "
                                        "their hand), bluffing with their own cards, or learned from "
                                        "the log; see docs/cluedo-suggestion-model.md")),
                Column(_("Own cards?"), lambda s: None if s.me or s.suggests == LEARN else s.rho,
                       numeric=True, edit=_set_rho, editor=_rho_editor, width=_header_width(_("Own cards?"), 80),
                       editable=lambda s: not s.me and s.suggests != LEARN, format=lambda v: f"{v:g}",
                       header_tooltip=_("How readily do they name a card of their own? The odds of "
                                        "naming one of their own cards against one they lack: below "
                                        "1 they suggest what they lack (0: never their own), 1 "
                                        "neutral, above 1 they bluff (the model's ρ)")),
                Column(_("Pawn"), lambda s: s.pawn, edit=_set_pawn, editor=self._pawn_editor, width=130,
                       editable=lambda s: self._has_board(),
                       header_tooltip=_("the suspect whose pawn this player moves on the board: "
                                        "their pawn starts on its square, and naming that suspect "
                                        "pulls this player into the room (the turn advice)")))

    def _has_board(self) -> bool:
        return self.edition.currentData() in _board_editions()

    def _pawn_editor(self, parent) -> QComboBox:
        """The pawn: none, or one of the deck's suspects."""
        combo = QComboBox(parent)
        combo.addItem("", "")
        for sus in self.categories().get("suspect", []):
            combo.addItem(sus, sus)
        return combo

    def _build_seating(self, left: QVBoxLayout) -> None:
        """The seating grid (an editable form: a :class:`Seat` per row), the buttons that move a
        seat or refill the hand sizes from the deal, and the note on the deal."""
        left.addWidget(QLabel(_("Seating order (clockwise); tick who you are and the dealer:")))
        self.table = ColumnTable(self._seat_columns(), editable=True, select_rows=False,
                                 numbered=True)
        self.table.horizontalHeader().setMinimumSectionSize(36)
        self.table.setHorizontalScrollBarPolicy(Qt.ScrollBarAsNeeded)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeToContents)
        left.addWidget(self.table, 1)
        moves = QHBoxLayout()
        up, down = QPushButton(_("Move up")), QPushButton(_("Move down"))
        up.clicked.connect(lambda: self._move(-1))
        down.clicked.connect(lambda: self._move(1))
        redeal = QPushButton(_("Hand sizes from the deal"))
        redeal.clicked.connect(self._fill_hand_sizes)
        moves.addWidget(up)
        moves.addWidget(down)
        moves.addStretch(1)
        moves.addWidget(redeal)
        left.addLayout(moves)
        self.deal_note = QLabel()
        self.deal_note.setWordWrap(True)
        left.addWidget(self.deal_note)

    def _fit_table_width(self) -> None:
        """The seating table as wide as its columns while the dialog still fits the screen
        (beyond that, a large zoom or a small screen, it scrolls sideways), and tall enough for
        every seat (and the sideways scroll bar when there is one)."""
        t = self.table
        want = (t.horizontalHeader().length() + t.verticalHeader().sizeHint().width()
                + 2 * t.frameWidth() + t.verticalScrollBar().sizeHint().width())
        screen = self.screen() or QApplication.primaryScreen()
        cap = want
        if screen is not None:
            cap = screen.availableGeometry().width() - (self.width() - t.width()) - 40
        width = max(t.minimumSizeHint().width(), min(want, cap))
        t.setMinimumWidth(width)
        height = t.verticalHeader().length() + t.horizontalHeader().height() + 2 * t.frameWidth()
        if want > width:
            height += t.horizontalScrollBar().sizeHint().height()
        t.setMinimumHeight(height)

    def _build_my_cards(self) -> QVBoxLayout:
        """My cards: a checkable list under a count of the ticks against my hand size."""
        right = QVBoxLayout()
        self.my_cards_label = QLabel(_("My cards"))
        right.addWidget(self.my_cards_label)
        self.my_cards = QListWidget()
        self.my_cards.itemChanged.connect(self._update_count)
        right.addWidget(self.my_cards, 1)
        return right

    def _start(self, setup, my_cards) -> None:
        """Fill the form (from ``setup`` if given; my previous hand if it fits), then connect
        the changes that mean a new deal."""
        self.edition.currentIndexChanged.connect(self._deck_changed)
        self.n_players.valueChanged.connect(self._players_changed)
        self.table.edited.connect(self._seat_edited)
        self._loading = True
        self._players_changed()
        if setup is not None:
            self._load_setup(setup)
        self._deck_changed()
        if len(set(my_cards)) == self._my_hand_size():   # start from my previous hand if it fits
            for i in range(self.my_cards.count()):
                it = self.my_cards.item(i)
                if it.data(Qt.ItemDataRole.UserRole) in set(my_cards):
                    it.setCheckState(Qt.Checked)
        self._loading = False
        # a new deal (edition, number of players, dealer, my seat) means a new hand: the ticks
        # of the old one go
        self.edition.currentIndexChanged.connect(self._clear_ticks)
        self.n_players.valueChanged.connect(self._clear_ticks)
        self._fit_table()

    def seats(self) -> list[Seat]:
        """The seating grid's rows, in seating order."""
        return self.table.rows()

    def _my_hand_size(self) -> int:
        return next((seat.cards for seat in self.seats() if seat.me), 0)

    def _clear_ticks(self, *_a) -> None:
        if self._loading:
            return
        self.my_cards.blockSignals(True)
        for i in range(self.my_cards.count()):
            it = self.my_cards.item(i)
            if it.data(Qt.ItemDataRole.UserRole):
                it.setCheckState(Qt.Unchecked)
        self.my_cards.blockSignals(False)
        self._update_count()

    def _fit_table(self) -> None:
        """Tall enough for every seat (up to 10), so that no scroll bar takes the names' room."""
        t = self.table
        rows = sum(t.verticalHeader().sectionSize(r) for r in range(t.row_count()))
        t.setMinimumHeight(min(rows, 10 * 34) + t.horizontalHeader().sizeHint().height()
                           + 2 * t.frameWidth() + 4)

    # -- deck -------------------------------------------------------------------------
    def categories(self) -> dict:
        key = self.edition.currentData()
        if key == "custom":
            return {cat: [line.strip() for line in ed.toPlainText().splitlines() if line.strip()]
                    for cat, ed in self.custom_edits.items()}
        return {cat: list(cards) for cat, cards in _edition_categories(self.editions[key])}

    def _deck_changed(self, *_a) -> None:
        custom = self.edition.currentData() == "custom"
        self.custom_box.setVisible(custom)
        if custom and not any(ed.toPlainText().strip() for ed in self.custom_edits.values()):
            first = next(iter(self.editions.values()))
            for cat, cards in _edition_categories(first):
                self.custom_edits[cat].blockSignals(True)
                self.custom_edits[cat].setPlainText("\n".join(cards))
                self.custom_edits[cat].blockSignals(False)
        key = self.edition.currentData()
        max_players = 10 if key in ("custom", "clue-master-detective") else 6
        board = _board_editions().get(key)
        self.dice.setEnabled(board is not None)
        self.dice.setItemText(0, ngettext("as the edition says ({n} die)", "as the edition says ({n} dice)",
                                          board.dice).format(n=board.dice)
                              if board is not None else _("no board for this deck"))
        suspects = set(self.categories().get("suspect", [])) if board is not None else set()
        for seat in self.seats():
            if seat.pawn not in suspects:
                seat.pawn = ""
        self.table.refresh()
        self.n_players.setMaximum(max_players)
        checked = set(self.checked_cards())
        self.my_cards.blockSignals(True)
        self.my_cards.clear()
        for cat, cards in self.categories().items():
            head = QListWidgetItem(category_title(cat))
            head.setFlags(Qt.NoItemFlags)
            f = head.font()
            f.setBold(True)
            head.setFont(f)
            self.my_cards.addItem(head)
            for c in cards:
                it = QListWidgetItem(c)
                it.setFlags(Qt.ItemIsEnabled | Qt.ItemIsUserCheckable)
                it.setCheckState(Qt.Checked if c in checked else Qt.Unchecked)
                it.setData(Qt.ItemDataRole.UserRole, c)
                self.my_cards.addItem(it)
        self.my_cards.blockSignals(False)
        self._fill_hand_sizes()

    def checked_cards(self) -> list[str]:
        out = []
        for i in range(self.my_cards.count()):
            it = self.my_cards.item(i)
            if it.data(Qt.ItemDataRole.UserRole) and it.checkState() == Qt.Checked:
                out.append(it.data(Qt.ItemDataRole.UserRole))
        return out

    # -- players ------------------------------------------------------------------------
    def _players_changed(self, *_a) -> None:
        n = self.n_players.value()
        old = self.seats()
        seats = old[:n] + [Seat(_(DEFAULT_NAMES[r]), 0, r == 0 and not old, False)
                           for r in range(len(old), n)]
        if not any(seat.me for seat in seats):
            seats[0].me = True
        if not any(seat.dealer for seat in seats):
            seats[-1].dealer = True
        self.table.set_rows(seats)
        QTimer.singleShot(0, self, self._fit_table_width)   # once the columns are sized
        self._fill_hand_sizes()
        self._fit_table()

    def _tick(self, seat: Seat, attr: str, on: bool) -> None:
        """Tick ``seat`` as me or as the dealer (``attr``); the other seats are unticked."""
        if on:
            for other in self.seats():
                setattr(other, attr, False)
        setattr(seat, attr, bool(on))

    def _seat_edited(self, row: int, column: int) -> None:
        """A cell of the seating grid was edited: another dealer is another deal, and another
        dealer or another me is another hand."""
        seat = self.table.row_object(row)
        if column == self.DEALER and seat.dealer:
            self._fill_hand_sizes()
        if (column == self.DEALER and seat.dealer) or (column == self.ME and seat.me):
            self._clear_ticks()
        self._update_count()

    def _move(self, delta: int) -> None:
        r = self.table.currentIndex().row()
        s = r + delta
        seats = self.seats()
        if r < 0 or not 0 <= s < len(seats):
            return
        seats[r], seats[s] = seats[s], seats[r]
        self.table.set_rows(seats)
        QTimer.singleShot(0, self, self._fit_table_width)   # once the columns are sized
        self.table.select_row(s)
        self._fill_hand_sizes()

    def _fill_hand_sizes(self, *_a) -> None:
        seats = self.seats()
        n = len(seats)
        if n == 0:
            return
        n_dealt = sum(len(v) for v in self.categories().values()) - 3
        dealer = next((r for r, seat in enumerate(seats) if seat.dealer), n - 1)
        sizes = cluedo.deal_hand_sizes(n, max(n_dealt, 0), dealer)
        for seat, size in zip(seats, sizes):
            seat.cards = int(size)
        self.table.refresh()
        self.deal_note.setText(ngettext("{n} card dealt one at a time from the dealer's left; "
                                        "edit the counts if your table dealt differently.",
                                        "{n} cards dealt one at a time from the dealer's left; "
                                        "edit the counts if your table dealt differently.",
                                        max(n_dealt, 0)).format(n=max(n_dealt, 0)))
        self._update_count()

    def _update_count(self, *_a) -> None:
        need = self._my_hand_size()
        have = len(self.checked_cards())
        colour = tone("#1b5e20" if have == need else "#b71c1c")
        self.my_cards_label.setText(_("My cards: <span style='color:{colour}'>{have} of {need} ticked</span>").format(
            colour=colour, have=have, need=need))

    def _load_setup(self, setup) -> None:
        idx = self.edition.findData(setup.edition) if setup.edition else self.edition.findData("custom")
        self.edition.setCurrentIndex(max(idx, 0))
        if not setup.edition:
            for cat, cards in setup.categories:
                if cat in self.custom_edits:
                    self.custom_edits[cat].setPlainText("\n".join(cards))
        self.n_players.setValue(len(setup.players))
        last = len(setup.players) - 1
        trust = dict(setup.suggestion_trust)
        seats = []
        for r, (p, n) in enumerate(zip(setup.players, setup.hand_sizes)):
            seat = Seat(p, n, p == setup.me, r == last)
            if trust.get(p) == LEARN:
                seat.suggests = LEARN
            elif p in trust:
                _set_rho(seat, trust[p])
            seat.pawn = dict(setup.pawns).get(p, "")
            seats.append(seat)
        self.table.set_rows(seats)
        QTimer.singleShot(0, self, self._fit_table_width)   # once the columns are sized
        self.dice.setCurrentIndex(max(0, self.dice.findData(setup.dice)))

    # -- result -------------------------------------------------------------------------
    def build(self):
        """Validate and build ``(setup, events)``; raises SessionFormatError naming the field."""
        seats = self.seats()
        names = [seat.name.strip() for seat in seats]
        for i, n in enumerate(names):
            if not n:
                raise SessionFormatError(_("player {n}").format(n=i + 1), _("every player needs a name"))
        if len(set(names)) != len(names):
            raise SessionFormatError(_("players"), _("two players have the same name"))
        me = [n for n, seat in zip(names, seats) if seat.me]
        if len(me) != 1:
            raise SessionFormatError(_("me"), _("tick exactly one player as yourself"))
        obj = {"players": names, "hand_sizes": {n: seat.cards for n, seat in zip(names, seats)},
               "me": me[0]}
        key = self.edition.currentData()
        if key == "custom":
            obj["categories"] = self.categories()
        else:
            obj["edition"] = key
        trust = {n: (LEARN if seat.suggests == LEARN else seat.rho) for n, seat in zip(names, seats)
                 if not seat.me and (seat.suggests == LEARN or seat.rho != 1.0)}
        if trust:
            obj["model"] = {"suggestion_trust": trust}
        if self._has_board():
            if self.dice.currentData() is not None:
                obj["dice"] = int(self.dice.currentData())
            # the setup object is the file form: a local edition names the pawns by canonical id
            to_id = cluedo.canonical_names(key) if key != "custom" else {}
            pawns = {n: to_id.get(seat.pawn, seat.pawn) for n, seat in zip(names, seats) if seat.pawn}
            if pawns:
                obj["pawns"] = pawns
        try:
            setup = cluedo.Setup.from_json(obj, "$.setup")
        except SessionFormatError as exc:     # "$.setup.pawns.Ann": the field is Ann's pawn
            head, _sep, who = exc.path.partition(".pawns.")
            if who:
                raise SessionFormatError(_("{player}'s pawn").format(player=who), exc.message) from None
            raise
        mine = self.checked_cards()
        need = dict(zip(setup.players, setup.hand_sizes))[setup.me]
        if len(mine) != need:
            raise SessionFormatError(_("my cards"), ngettext("tick your {need} card (ticked {ticked})",
                                                             "tick your {need} cards (ticked {ticked})",
                                                             need).format(need=need, ticked=len(mine)))
        events = []
        if need:
            events.append(cluedo.event_from_json({"type": "hand", "player": setup.me, "cards": mine},
                                                 setup, "$.events[0]"))
        return setup, events

    def result_session(self):
        """``(setup, events)`` after the dialog was accepted (None before)."""
        return self.built


def _set_pawn(seat: Seat, value) -> None:
    seat.pawn = str(value or "")


def _edition_categories(edition) -> list:
    cats = edition["categories"]
    if isinstance(cats, dict):
        return list(cats.items())
    return [tuple(x) for x in cats]


class SuggestionForm(QGroupBox):
    """Log a suggestion: three cards, suggester, refuter or nobody, who passed (pre-filled from
    the seating order, editable), and the card shown: to me when I suggested, or by me when I
    refuted (optional). Only cards the refuter can hold, by the beliefs of the whole log
    (:meth:`set_beliefs`), are offered.

    Signals:
        submitted(object event), accusationSubmitted(object event), refuterChanged().
    """

    submitted = Signal(object)
    accusationSubmitted = Signal(object)
    formChanged = Signal()

    def __init__(self, setup, parent=None):
        super().__init__(_("Log a suggestion"), parent)
        self.setup = setup
        self._beliefs = None
        lay = QGridLayout(self)
        self._build_pickers(lay)
        self._build_players(lay)
        self.advice = QLabel()
        self.advice.setWordWrap(True)
        tone_style(self.advice, "#0d47a1")
        lay.addWidget(self.advice, 6, 0, 1, 3)
        lay.addLayout(self._build_buttons(), 7, 0, 1, 3)
        self.suggester.currentIndexChanged.connect(self._suggester_changed)
        self.refuter.currentIndexChanged.connect(self._refuter_changed)
        #: The form (event JSON) for which the card shown to me was asked for, or None.
        self._asked_for: Optional[dict] = None
        self.set_setup(setup)

    def _build_pickers(self, lay: QGridLayout) -> None:
        """Rows 0-1: one card picker per category."""
        self.pickers = {}
        for i, (cat, cards) in enumerate(self.setup.categories):
            combo = QComboBox()
            combo.addItems(list(cards))
            lay.addWidget(QLabel(category_label(cat)), 0, i)
            lay.addWidget(combo, 1, i)
            self.pickers[cat] = combo
            combo.currentIndexChanged.connect(self._refuter_changed)   # who can have passed

    def _build_players(self, lay: QGridLayout) -> None:
        """Rows 2-5: suggester, refuter, the card shown to me, and who passed."""
        self.suggester = QComboBox()
        self.refuter = QComboBox()
        lay.addWidget(QLabel(_("Suggested by")), 2, 0)
        lay.addWidget(self.suggester, 3, 0)
        lay.addWidget(QLabel(_("Refuted by")), 2, 1)
        lay.addWidget(self.refuter, 3, 1)
        self.shown_label = SteadyLabel((_("Card shown to me"), _("Card I showed (optional)")))
        lay.addWidget(self.shown_label, 2, 2)
        self.shown = QComboBox()
        lay.addWidget(self.shown, 3, 2)
        self.passed_label = QLabel(_("Passed (no matching card):"))
        lay.addWidget(self.passed_label, 4, 0, 1, 3)
        self.passed_box = QHBoxLayout()
        lay.addLayout(self.passed_box, 5, 0, 1, 3)
        self.passed_checks: dict[str, QCheckBox] = {}

    def _build_buttons(self) -> QHBoxLayout:
        """Log the suggestion (Enter), or log it as a failed accusation."""
        row = QHBoxLayout()
        self.log_button = QPushButton(_("Log suggestion"))
        self.log_button.setDefault(True)
        self.log_button.setToolTip(_("Enter"))
        self.log_button.clicked.connect(self.submit)
        self.accuse_button = QPushButton(_("Failed accusation…"))
        self.accuse_button.setToolTip(_("The suggester accused these three cards and was wrong"))
        self.accuse_button.clicked.connect(self.submit_accusation)
        row.addWidget(self.log_button)
        row.addStretch(1)
        row.addWidget(self.accuse_button)
        return row

    def set_setup(self, setup) -> None:
        self.setup = setup
        self._beliefs = None            # those of another setup
        for (cat, cards) in setup.categories:
            combo = self.pickers.get(cat)
            if combo is not None:
                combo.blockSignals(True)
                combo.clear()
                combo.addItems(list(cards))
                combo.blockSignals(False)
        self.suggester.blockSignals(True)
        self.suggester.clear()
        self.suggester.addItems(list(setup.players))
        self.suggester.setCurrentText(setup.me)
        self.suggester.blockSignals(False)
        for cb in self.passed_checks.values():
            self.passed_box.removeWidget(cb)
            cb.setParent(None)
            cb.deleteLater()
        self.passed_checks = {}
        for p in setup.players:
            cb = QCheckBox(p)
            self.passed_box.addWidget(cb)
            self.passed_checks[p] = cb
        self._suggester_changed()

    def cards(self) -> list[str]:
        return [self.pickers[cat].currentText() for cat, _ in self.setup.categories]

    def set_advice(self, html: str) -> None:
        """Show which card to reveal when I must refute (empty: nothing to advise)."""
        self.advice.setText(html)

    def set_card(self, card: str) -> None:
        cat = self.setup.category_of(card)
        if cat in self.pickers:
            self.pickers[cat].setCurrentText(card)

    def set_suggester(self, player: str) -> None:
        self.suggester.setCurrentText(player)

    def _suggester_changed(self, *_a) -> None:
        s = self.suggester.currentText()
        cur = self.refuter.currentText()
        self.refuter.blockSignals(True)
        self.refuter.clear()
        order = list(cluedo.seated_after(self.setup, s))
        nobody = _(NOBODY)
        self.refuter.addItems(order + [nobody])
        self.refuter.setCurrentText(cur if cur in order or cur == nobody else (order[0] if order else nobody))
        self.refuter.blockSignals(False)
        self._refuter_changed()

    def _refuter_changed(self, *_a) -> None:
        s = self.suggester.currentText()
        r = self.refuter.currentText()
        refuter = None if r == _(NOBODY) else r
        try:
            must = set(cluedo.passers_between(self.setup, s, refuter))
        except Exception:  # noqa: BLE001 - never the app's crash: no passers to require
            must = set()
        holds = self.known_holders()
        for p, cb in self.passed_checks.items():
            cb.setEnabled(p != s and p != r)
            # a player known to hold a named card cannot have passed: not ticked for them
            cb.setChecked(p in must and p not in holds)
        self._update_shown()
        self.formChanged.emit()

    def known_holders(self) -> set:
        """The players known (posterior 1) to hold one of the form's three cards."""
        post = self._beliefs
        if post is None:
            return set()
        cards = self.cards()
        return {p for p in self.setup.players
                if any(post.probability(c, p) >= 1 - HOLD_EPS for c in cards)}

    def set_beliefs(self, posterior) -> None:
        """The posterior of the whole log (the form logs after it), or None: the card shown
        offers only cards the refuter can hold in it, and a player known to hold a named card
        is not ticked as having passed."""
        self._beliefs = posterior
        holds = self.known_holders()   # never ticks: a tick of the player's own stays
        for p, cb in self.passed_checks.items():
            if p in holds and cb.isChecked():
                cb.setChecked(False)
        self._update_shown()

    def shown_choices(self) -> list:
        """The cards the refuter can have shown: the suggested cards they can hold."""
        refuter = self.refuter.currentText()
        cards = self.cards()
        post = self._beliefs
        if refuter == _(NOBODY) or post is None or refuter not in self.setup.players:
            return cards
        return [c for c in cards if post.probability(c, refuter) > HOLD_EPS]

    def _update_shown(self, *_a) -> None:
        me = self.setup.me
        mine = self.suggester.currentText() == me
        refuted = self.refuter.currentText() != _(NOBODY)
        i_refute = self.refuter.currentText() == me and not mine
        self.shown_label.setText(_("Card I showed (optional)") if i_refute else _("Card shown to me"))
        cur = self.shown.currentText()
        choices = self.shown_choices()
        self.shown.blockSignals(True)
        self.shown.clear()
        self.shown.addItem(_(NOT_RECORDED) if i_refute else _(NOT_SEEN))
        self.shown.addItems(choices)
        if cur in choices:
            self.shown.setCurrentText(cur)
        self.shown.blockSignals(False)
        self.shown.setEnabled((mine and refuted) or i_refute)
        self.formChanged.emit()

    def set_shown(self, card: str) -> None:
        """Pick ``card`` as the card shown (if it is offered)."""
        i = self.shown.findText(card)
        if i >= 0:
            self.shown.setCurrentIndex(i)

    # -- edit mode (Fix… of a logged entry: desktop.tabs.entry_forms) -------------------
    def set_edit_mode(self, accusation: bool = False) -> None:
        """Edit a logged entry instead of logging one: no Log / accusation buttons nor advice;
        ``accusation``: the form holds a failed (or correct) accusation — the accuser and the
        three cards, and whether it was right — instead of a suggestion."""
        self.editing = True
        self.accusation = accusation
        self.setTitle(_("Accusation") if accusation else _("Suggestion"))
        for w in (self.log_button, self.accuse_button, self.advice):
            w.hide()
        lay = self.layout()
        if not hasattr(self, "correct"):
            self.correct = QCheckBox(_("the accusation was right (the envelope holds these cards)"))
            lay.addWidget(self.correct, 8, 0, 1, 3)
        self.correct.setVisible(accusation)
        for w in (self.refuter, self.shown, self.shown_label, self.passed_label,
                  *self.passed_checks.values()):
            w.setVisible(not accusation)
        label = lay.itemAtPosition(2, 1)
        if label is not None and label.widget() is not None:
            label.widget().setVisible(not accusation)
        label = lay.itemAtPosition(2, 0)
        if label is not None and label.widget() is not None:
            label.widget().setText(_("Accused by") if accusation else _("Suggested by"))

    def load_event(self, ev) -> None:
        """Fill the form with a logged suggestion (or, in accusation mode, accusation)."""
        for c in ev.cards:
            self.set_card(c)
        if getattr(self, "accusation", False):
            self.suggester.setCurrentText(ev.player)
            self.correct.setChecked(bool(ev.correct))
            return
        self.suggester.setCurrentText(ev.suggester)
        self.refuter.setCurrentText(ev.refuter if ev.refuter is not None else _(NOBODY))
        for p, cb in self.passed_checks.items():
            cb.setChecked(p in ev.passed)
        if ev.shown is not None:
            self.set_shown(ev.shown)
        else:
            self.shown.setCurrentIndex(0)

    def edit_json(self) -> dict:
        """The entry the form holds in edit mode, as session JSON."""
        if getattr(self, "accusation", False):
            return {"type": "accusation", "player": self.suggester.currentText(),
                    "cards": self.cards(), "correct": self.correct.isChecked()}
        return self.event_json()

    def event_json(self) -> dict:
        r = self.refuter.currentText()
        shown = self.shown.currentText() if self.shown.isEnabled() else _(NOT_SEEN)
        return {"type": "suggestion", "suggester": self.suggester.currentText(), "cards": self.cards(),
                "passed": self._passed(),
                "refuter": None if r == _(NOBODY) else r,
                "shown": None if shown in (_(NOT_SEEN), _(NOT_RECORDED)) else shown}

    def _passed(self) -> list:
        """The players ticked as having passed, in the order they were asked (after the
        suggester, clockwise), as the quick entry and the engine list them."""
        ticked = {p for p, cb in self.passed_checks.items() if cb.isEnabled() and cb.isChecked()}
        return [p for p in cluedo.seated_after(self.setup, self.suggester.currentText())
                if p in ticked]

    def missing_shown_card(self) -> Optional[str]:
        """The refuter of my own suggestion when no card shown to me is picked (what I was
        shown is the most informative fact of a turn), else None."""
        f = self.event_json()
        if f["suggester"] == self.setup.me and f["refuter"] is not None and f["shown"] is None:
            return f["refuter"]
        return None

    def submit(self) -> None:
        """Log the form's suggestion. My own suggestion refuted with no card picked is not
        logged at the first press: the form asks for the card (the picker takes the focus);
        a second press with the form unchanged logs it without the card."""
        try:
            ev = cluedo.event_from_json(self.event_json(), self.setup, "suggestion")
        except SessionFormatError as exc:
            QMessageBox.warning(self, _("Check the suggestion"), as_rich_plain(exc.message))
            return
        refuter = self.missing_shown_card()
        if refuter is not None and self._asked_for != self.event_json():
            self._asked_for = self.event_json()
            self.set_advice(_("Which card did <b>{player}</b> show you? Pick it in "
                              "“Card shown to me”, then log. (Press “Log suggestion” again to log "
                              "the suggestion without it.)").format(player=esc(refuter)))
            self.shown.setFocus(Qt.OtherFocusReason)
            return
        self._asked_for = None
        self.submitted.emit(ev)

    def submit_accusation(self) -> None:
        who = self.suggester.currentText()
        cards = self.cards()
        ans = QMessageBox.question(self, _("Failed accusation"),
                                   as_rich_plain(_("Log that {player} accused {cards} "
                                                   "and was wrong?").format(player=who, cards=", ".join(cards))))
        if ans != QMessageBox.Yes:
            return
        try:
            ev = cluedo.event_from_json({"type": "accusation", "player": who, "cards": cards,
                                         "correct": False}, self.setup, "accusation")
        except SessionFormatError as exc:
            QMessageBox.warning(self, _("Check the accusation"), as_rich_plain(exc.message))
            return
        self.accusationSubmitted.emit(ev)


# -- Fix… of a logged entry (desktop.tabs.entry_forms) ------------------------------------
def _player_combo(setup) -> QComboBox:
    combo = QComboBox()
    for p in setup.players:
        combo.addItem(_("{player} (me)").format(player=p) if p == setup.me else p, p)
    return combo


def _card_combo(setup) -> QComboBox:
    combo = QComboBox()
    for cat, cards in setup.categories:
        for c in cards:
            combo.addItem(c, c)
            combo.setItemData(combo.count() - 1, cat, Qt.ItemDataRole.ToolTipRole)
    return combo


class _SuggestionEditor(EntryEditor):
    """A logged suggestion or accusation in :class:`SuggestionForm` (edit mode)."""

    def __init__(self, setup, before, accusation: bool):
        super().__init__(cluedo, setup, before)
        self.form = SuggestionForm(setup)
        self.form.set_edit_mode(accusation)
        self.outer.addWidget(self.form)
        self.original = None

    def load(self, event) -> None:
        if self.original is None:
            self.original = event
        self.form.load_event(event)

    def event_json(self) -> dict:
        obj = self.form.edit_json()
        was = getattr(self.original, "passed", None)
        if was is not None and "passed" in obj and set(was) == set(obj["passed"]):
            obj["passed"] = list(was)     # unchanged: as logged (the form lists them clockwise)
        return obj

    def field_widgets(self) -> dict:
        f = self.form
        was = list(self.original.cards) if self.original is not None else []
        changed = [f.pickers[cat] for (cat, _), card in zip(self.setup.categories, was)
                   if f.pickers[cat].currentText() != card]
        return {"cards": changed or list(f.pickers.values()), "player": [f.suggester],
                "refuter": [f.refuter], "shown": [f.shown], "correct": [f.correct],
                "passed": [cb for cb in f.passed_checks.values() if cb.isVisible()]}


class _FactEditor(EntryEditor):
    """A worksheet cell's entry (``shown`` / ``lacks``): a player has, or does not have, a
    card — the cell's right-click menu as a form."""

    def __init__(self, setup, before):
        super().__init__(cluedo, setup, before)
        box = QGroupBox(_("A card held or not held (a worksheet cell)"))
        row = QHBoxLayout(box)
        self.player = _player_combo(setup)
        self.verb = QComboBox()
        self.verb.addItem(_("has"), userData="shown")
        self.verb.addItem(_("does not have"), userData="lacks")
        self.card = _card_combo(setup)
        for w in (self.player, self.verb, self.card):
            row.addWidget(w)
        row.addStretch(1)
        self.outer.addWidget(box)

    def load(self, event) -> None:
        combo_select(self.player, event.player)
        combo_select(self.verb, "shown" if isinstance(event, cluedo.ShownEvent) else "lacks")
        combo_select(self.card, event.card)

    def event_json(self) -> dict:
        return {"type": self.verb.currentData(), "player": self.player.currentData(),
                "card": self.card.currentData()}

    def field_widgets(self) -> dict:
        return {"player": [self.player], "card": [self.card], "type": [self.verb]}


class _HandEditor(EntryEditor):
    """A hand entry (the cards a player holds, e.g. mine at the deal): the player and a tick
    per card, as in the New game dialog's list of my cards."""

    def __init__(self, setup, before):
        super().__init__(cluedo, setup, before)
        box = QGroupBox(_("A hand (every card the player holds)"))
        lay = QVBoxLayout(box)
        self.player = _player_combo(setup)
        lay.addWidget(self.player)
        self.cards = QListWidget()
        for cat, cards in setup.categories:
            for c in cards:
                it = QListWidgetItem(c)
                it.setData(Qt.ItemDataRole.UserRole, c)
                it.setToolTip(cat)
                it.setFlags(it.flags() | Qt.ItemIsUserCheckable)
                it.setCheckState(Qt.Unchecked)
                self.cards.addItem(it)
        scaled_size(self.cards, min_height=180)   # pixels at 100 %, times the zoom
        lay.addWidget(self.cards)
        self.outer.addWidget(box)

    def load(self, event) -> None:
        if getattr(self, "original", None) is None:
            self.original = event
        self.loaded = event
        combo_select(self.player, event.player)
        held = set(event.cards)
        for i in range(self.cards.count()):
            it = self.cards.item(i)
            it.setCheckState(Qt.Checked if it.data(Qt.ItemDataRole.UserRole) in held
                             else Qt.Unchecked)

    def event_json(self) -> dict:
        ticked = [self.cards.item(i).data(Qt.ItemDataRole.UserRole)
                  for i in range(self.cards.count())
                  if self.cards.item(i).checkState() == Qt.Checked]
        # the cards in the order the entry lists them, then any newly ticked in deck order
        cards = [c for c in self.loaded.cards if c in ticked] + \
            [c for c in ticked if c not in self.loaded.cards]
        return {"type": "hand", "player": self.player.currentData(), "cards": cards}

    def field_widgets(self) -> dict:
        return {"player": [self.player], "cards": [self.cards]}

    def mark(self, fields, text: str = "") -> None:
        """As :meth:`EntryEditor.mark`; the cards ticked or unticked by the correction are
        also written in bold."""
        super().mark(fields, text)
        was = set(self.original.cards)
        for i in range(self.cards.count()):
            it = self.cards.item(i)
            font = it.font()
            font.setBold("cards" in fields and
                         (it.checkState() == Qt.Checked) != (it.data(Qt.ItemDataRole.UserRole) in was))
            it.setFont(font)


class _MoveEditor(EntryEditor):
    """A pawn's position (a room, or a corridor square typed "row, col") or a roll of the
    dice: the player and the value, as on the board panel."""

    def __init__(self, setup, before, kind: str):
        super().__init__(cluedo, setup, before)
        self.kind = kind
        box = QGroupBox(_("A pawn's position") if kind == "position" else _("A roll of the dice"))
        form = QFormLayout(box)
        self.player = _player_combo(setup)
        form.addRow(_("Player"), self.player)
        if kind == "position":
            self.value = QComboBox()
            self.value.setEditable(True)
            self.value.setToolTip(_("a room, or a corridor square as “row, col”"))
            for room in dict(setup.categories)["room"]:
                self.value.addItem(room, room)
            form.addRow(_("At"), self.value)
        else:
            self.value = QSpinBox()
            self.value.setRange(0, 12)
            form.addRow(_("Total"), self.value)

        self.outer.addWidget(box)

    def load(self, event) -> None:
        combo_select(self.player, event.player)
        if self.kind == "position":
            at = event.at if isinstance(event.at, str) else f"{event.at[0]}, {event.at[1]}"
            combo_select(self.value, at)
        else:
            self.value.setValue(int(event.total))

    def event_json(self) -> dict:
        p = self.player.currentData()
        if self.kind == "roll":
            return {"type": "roll", "player": p, "total": self.value.value()}
        text = self.value.currentText().strip()
        parts = [t.strip() for t in text.split(",")]
        at: object = text
        if len(parts) == 2 and all(t.lstrip("-").isdigit() for t in parts):
            at = [int(parts[0]), int(parts[1])]
        return {"type": "position", "player": p, "at": at}

    def field_widgets(self) -> dict:
        return {"player": [self.player], "at": [self.value], "total": [self.value]}


def entry_editor(setup, before, event) -> Optional[EntryEditor]:
    """The form of a logged Cluedo entry in edit mode (:mod:`desktop.tabs.entry_forms`):
    :class:`SuggestionForm` for a suggestion or an accusation; a small form of the worksheet
    cell's fields for ``shown`` / ``lacks``, of the hand, of a position or a roll."""
    if isinstance(event, cluedo.SuggestionEvent):
        return _SuggestionEditor(setup, before, False)
    if isinstance(event, cluedo.AccusationEvent):
        return _SuggestionEditor(setup, before, True)
    if isinstance(event, (cluedo.ShownEvent, cluedo.LacksEvent)):
        return _FactEditor(setup, before)
    if isinstance(event, cluedo.HandEvent):
        return _HandEditor(setup, before)
    if isinstance(event, PositionEvent):
        return _MoveEditor(setup, before, "position")
    if isinstance(event, RollEvent):
        return _MoveEditor(setup, before, "roll")
    return None
