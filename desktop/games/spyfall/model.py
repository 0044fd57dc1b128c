"""Qt models of the Spyfall tab: the claims worksheet (turns × locations, with the location
beliefs as heat-map rows under the claims) and the spy-belief table (players × public / mine /
without their own claims). Both extend :class:`desktop.widgets.worksheet.ProbabilityTableModel`
so they draw with the shared heat-map colours and the shared probability text.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Optional

import numpy as np
from PySide6.QtCore import QEvent, QModelIndex, QRect, QSize, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QPainter
from PySide6.QtWidgets import QHeaderView, QStyle, QStyleOptionHeader, QTableView

from desktop.shell.locale_format import number, percent
from desktop.table.zoom import scaled_size
from desktop.tabs.wording import PLAIN, Wording
from desktop.widgets.role_data import (
    ALIGNMENT,
    BACKGROUND,
    CHECK_STATE,
    DECORATION,
    DISPLAY,
    FONT,
    FOREGROUND,
    TOOLTIP,
)
from desktop.widgets.worksheet import ProbabilityRole, ProbabilityTableModel, WorksheetView, heat_color
from engines.core.i18n import N_, _

#: The click cycle of a pending cell: 0 → ½ → 1 → 0.
WEIGHT_CYCLE = (0.0, 0.5, 1.0)
PENDING_BACKGROUND = QColor(232, 245, 233)


def next_weight(w: float) -> float:
    """The weight after one click on a pending cell: 0 → ½ → 1 → 0 (other values → 0)."""
    for a, b in zip(WEIGHT_CYCLE, WEIGHT_CYCLE[1:] + WEIGHT_CYCLE[:1]):
        if abs(w - a) < 1e-9:
            return b
    return 0.0


def format_weight(w: float) -> str:
    """A claim weight as shown in a cell: "" for 0, "½", "1", else two decimals."""
    if not math.isfinite(w) or w <= 0:
        return ""
    if abs(w - 0.5) < 1e-9:
        return "½"
    if abs(w - round(w)) < 1e-9:
        return str(int(round(w)))
    return f"{w:.2f}".rstrip("0").rstrip(".")


def claim_text(locations: Sequence[str], weights: Sequence[float]) -> str:
    """The typed form of a claim, e.g. ``"Beach:1, Casino:0.5"`` (only positive weights)."""
    parts = []
    for loc, w in zip(locations, weights):
        if w > 0:
            parts.append(f"{loc}:{format_weight(w).replace('½', '0.5')}")
    return ", ".join(parts)


# read once, like the roles (desktop/widgets/role_data.py)
_CENTER = int(Qt.AlignmentFlag.AlignCenter)
_CLAIM_FOREGROUND = QBrush(QColor(33, 33, 33))


class _SheetRows(Sequence):
    """The claim sheet's rows as :class:`ProbabilityTableModel` reads them, ``(kind, label,
    item)``, made when asked: the beliefs' title, the belief rows, the claims' title, the ▶ row,
    then the claims newest first (``"12. Ann"``). A sheet of 5,000 claims made every row's
    label at each open, reading every claim of the log on the GUI thread."""

    def __init__(self, titles: tuple, belief_labels: list, pending: str, claims: Sequence):
        self._titles, self._beliefs, self._pending, self._claims = titles, belief_labels, pending, claims

    def __len__(self) -> int:
        return len(self._beliefs) + 3 + len(self._claims)

    def __getitem__(self, row: int) -> tuple:
        if not isinstance(row, int):
            raise TypeError("a row of the claim sheet is read by its index")
        b, n = len(self._beliefs), len(self)
        if row < 0:
            row += n
        if not 0 <= row < n:
            raise IndexError(row)
        if row == 0:
            return ("group", self._titles[0], -1)
        if row <= b:
            return ("item", self._beliefs[row - 1], row - 1)
        if row == b + 1:
            return ("group", self._titles[1], -1)
        if row == b + 2:
            return ("item", self._pending, b)
        turn = n - 1 - row
        return ("item", f"{turn + 1}. {self._claims[turn][0]}", row - 2)


class ClaimSheetModel(ProbabilityTableModel):
    """Rows: the location beliefs (public, and mine when I am the spy), the pending claim being
    entered (▶), then one row per logged claim, newest first — so the beliefs and the row being
    edited stay in view however long the game; columns: the locations.

    A claim row shows the raw weights the speaker's answer fits (1, ½, …), coloured by the weight
    relative to the row's largest; belief rows show probabilities (shared heat map). The pending
    row is edited by :meth:`cycle` (a click) and read by :meth:`pending_weights`.
    """

    # data() reads the claims, the pending row, the beliefs and the layout, all set before the
    # change that forgets the kept cells (set_sheet, set_beliefs, set_pending): each cell's
    # roles are kept per change
    KEEP_CELLS = True

    CLAIMS = N_("Claims, newest first (click the locations the answer fits on the ▶ row: 0 → ½ → 1)")
    BELIEFS = N_("Location belief")

    def __init__(self, parent=None):
        self._group_rows: tuple = (0, 1)
        super().__init__([], [], parent)
        self._locations: list[str] = []
        # the claims as the log holds them (turn t: its speaker's label and its n weights, a
        # tuple of floats): a cell reads its weight, a row header its label, when painted. The
        # largest table (5,000 claims x 200 locations) made into one array on the GUI thread
        # at every open was 45 ms of the open's first turn, the sheet's matrix with the
        # beliefs 15-30 ms more and every row's label 4-8 ms (bench_open_stall.py)
        self._claims: Sequence = ()
        self._claim_top: dict[int, float] = {}
        self._pending = np.zeros(0)
        self._speaker = ""
        self._belief_labels: list[str] = []
        self._beliefs: Optional[np.ndarray] = None
        self._struck: frozenset = frozenset()

    # -- layout ----------------------------------------------------------------------------
    def set_sheet(self, locations: Sequence[str], claims: Sequence[tuple[str, Sequence[float]]],
                  belief_labels: Sequence[str]) -> None:
        """Lay out the sheet: ``claims`` = [(speaker, weights (n,)), ...] in turn order, kept
        and read when a row is painted (a list is copied; another sequence, such as the tab's
        view of the log, must not change afterwards).

        Raises:
            ValueError: a claim of a list or tuple without one weight per location.
        """
        self._locations = list(locations)
        n = len(self._locations)
        if isinstance(claims, (list, tuple)):
            claims = tuple(claims)
            if any(len(w) != n for _, w in claims):
                raise ValueError(f"every claim needs {n} weights (one per location)")
        self._claims = claims
        self._claim_top = {}
        if self._pending.shape != (n,):
            self._pending = np.zeros(n)
        self._belief_labels = list(belief_labels)
        self._beliefs = None
        # the two group-header rows: the beliefs' title (row 0) and the claims' title
        self._group_rows = (0, 1 + len(self._belief_labels))
        self._stale = False
        rows = _SheetRows((_(self.BELIEFS), _(self.CLAIMS)), self._belief_labels, _("next"), claims)
        self.set_row_layout(rows, self._locations)

    @property
    def n_items(self) -> int:
        return len(self._belief_labels) + 1 + len(self._claims)

    def item_index(self, row: int) -> int:
        """Item number of table row ``row`` (-1 for a group header), without reading the row."""
        b = len(self._belief_labels)
        if not 0 <= row < len(self._rows) or row in (0, b + 1):
            return -1
        return row - 1 if row <= b else row - 2

    def row_of_item(self, item: int) -> int:
        """Table row of item ``item`` (-1 when there is none)."""
        b = len(self._belief_labels)
        row = item + 1 if item < b else item + 2
        return row if 0 <= item < self.n_items and row < len(self._rows) else -1

    def set_struck(self, locations: Sequence[str]) -> None:
        """The locations I struck out on my own list: their column headers are struck through
        (a display aid; the beliefs are the model's)."""
        struck = frozenset(locations)
        if struck != self._struck:
            self._struck = struck
            if self._locations:
                self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(self._locations) - 1)

    def set_beliefs(self, rows: Optional[np.ndarray]) -> None:
        """The belief rows (len(belief_labels) × n probabilities), None while unknown; rows of
        another shape show as unknown."""
        self._beliefs = None if rows is None else np.asarray(rows, float)
        self._rows_changed(0, len(self._belief_labels))

    def beliefs(self) -> Optional[np.ndarray]:
        """The belief rows shown (len(belief_labels) × n), or None."""
        return self._beliefs

    def set_matrix(self, matrix: Optional[np.ndarray], standard_error: Optional[np.ndarray] = None) -> None:
        """Not for the claim sheet: its rows are set by :meth:`set_sheet`, :meth:`set_beliefs`
        and :meth:`set_pending` (raises TypeError)."""
        raise TypeError("the claim sheet's rows are set by set_sheet, set_beliefs and set_pending")

    def matrix(self) -> np.ndarray:
        """Every item row as a (n_items × n) array, made on request: the belief rows (NaN while
        unknown), the pending row, then the claims newest first."""
        n, b = len(self._locations), len(self._belief_labels)
        m = np.full((b + 1 + len(self._claims), n), np.nan)
        if n:
            if self._beliefs is not None and self._beliefs.shape == (b, n):
                m[:b] = self._beliefs
            m[b] = self._pending
            if len(self._claims):
                m[b + 1:] = np.array([w for _, w in self._claims][::-1], float)
        return m

    def set_stale(self, stale: bool) -> None:
        """Grey the belief rows while newer beliefs are computed (the claims are the log's,
        never stale): only those rows are repainted, not the sheet's thousands of claims."""
        if stale != self._stale:
            self._stale = stale
            self._forget_rows(0, len(self._belief_labels))

    def _rows_changed(self, first: int, count: int) -> None:
        """Items ``first`` .. ``first + count - 1`` show other numbers: their kept cells are
        forgotten and the views repaint them; the grey of stale beliefs goes, as the base's
        :meth:`set_matrix` clears it."""
        if self._stale:         # the belief rows (items 0 .. b - 1) with the changed ones
            self._stale = False
            first, count = 0, max(first + count, len(self._belief_labels))
        self._forget_rows(first, count)

    def belief_rows(self) -> tuple[int, int]:
        """The table rows ``(first, last)`` of the belief rows ((-1, -1) when there are none)."""
        b = len(self._belief_labels)
        return (self.row_of_item(0), self.row_of_item(b - 1)) if b else (-1, -1)

    def _forget_rows(self, first: int, count: int) -> None:
        if count <= 0:
            return
        rows = [r for r in (self.row_of_item(k) for k in (first, first + count - 1)) if r >= 0]
        if self._cells is not None:
            for key in [key for key in self._cells if rows and rows[0] <= key[0] <= rows[-1]]:
                del self._cells[key]
        if rows and self.columnCount():
            self.dataChanged.emit(self.index(rows[0], 0), self.index(rows[-1], self.columnCount() - 1))

    def value(self, row: int, col: int) -> Optional[float]:
        """The number of a cell: a belief (None while unknown), the pending row's weight or a
        logged claim's; None for a group row."""
        k = self.item_index(row)
        b = len(self._belief_labels)
        if k < 0:
            return None
        if k < b:
            rows = self._beliefs
            if rows is None or rows.shape != (b, len(self._locations)):
                return None
            v = float(rows[k, col])
            return v if math.isfinite(v) else None
        v = float(self._pending[col] if k == b else self._claims[self.turn_of_item(k)][1][col])
        return v if math.isfinite(v) else None

    def _row_top(self, k: int) -> float:
        """The largest weight of item ``k`` (the pending row or a claim; 1 when none is
        positive): its cells are shaded relative to it."""
        b = len(self._belief_labels)
        if k == b:
            top = float(np.fmax.reduce(self._pending)) if self._pending.size else 0.0
            return top if top > 0 else 1.0
        t = self.turn_of_item(k)
        top = self._claim_top.get(t)
        if top is None:
            top = max((float(w) for w in self._claims[t][1]), default=0.0)
            top = self._claim_top[t] = top if top > 0 else 1.0
        return top

    # -- rows ----------------------------------------------------------------------------------
    def group_rows(self) -> tuple:
        """The table rows of the two group headers (beliefs, claims), without reading the
        other rows: a sheet of thousands of claims is spanned in constant time."""
        return tuple(r for r in self._group_rows if r < self.rowCount())

    @property
    def pending_item(self) -> int:
        """Item index of the pending row."""
        return len(self._belief_labels)

    def _item_of_turn(self, turn: int) -> int:
        return self.pending_item + len(self._claims) - turn

    def turn_of_item(self, item: int) -> int:
        """Turn index (0-based) of model item ``item``, or -1 when it is not a logged claim."""
        t = self.pending_item + len(self._claims) - item
        return t if item > self.pending_item and 0 <= t < len(self._claims) else -1

    def row_of_turn(self, turn: int) -> int:
        """Table row of logged claim ``turn`` (0-based)."""
        return self.row_of_item(self._item_of_turn(turn))

    def is_pending_row(self, row: int) -> bool:
        return self.item_index(row) == self.pending_item

    def claim_of_row(self, row: int) -> int:
        """Turn index (0-based) of table row ``row``, or -1 when it is not a logged claim."""
        k = self.item_index(row)
        return self.turn_of_item(k) if k >= 0 else -1

    # -- pending claim -----------------------------------------------------------------------
    def pending_weights(self) -> np.ndarray:
        """The weights clicked or typed on the pending row, shape (n,)."""
        return self._pending.copy()

    def set_pending(self, weights: Sequence[float]) -> None:
        """Replace the pending row's weights (n,)."""
        w = np.asarray(weights, float)
        if w.shape != (len(self._locations),):
            raise ValueError(f"expected {len(self._locations)} weights, got {w.shape}")
        self._pending = w.copy()
        self._rows_changed(self.pending_item, 1)

    def cycle(self, column: int) -> float:
        """One click on the pending cell of ``column``; returns the new weight."""
        self._pending[column] = next_weight(float(self._pending[column]))
        self._rows_changed(self.pending_item, 1)
        return float(self._pending[column])

    def set_speaker(self, name: str) -> None:
        """The name shown on the pending row (a name already shown changes nothing: a changed
        row label makes the views measure the row labels again, 800 calls into Python for a
        long log's, and an open set the same name up to three times)."""
        if name == self._speaker:
            return
        self._speaker = name
        row = self.row_of_item(self.pending_item)
        if row >= 0:
            self.headerDataChanged.emit(Qt.Orientation.Vertical, row, row)

    # -- Qt model API ------------------------------------------------------------------------
    def _section(self, row: int) -> str:
        k = self.item_index(row)
        if k < 0:
            return "group"
        if k < self.pending_item:
            return "belief"
        if k == self.pending_item:
            return "pending"
        return "claim"

    def data(self, index: QModelIndex, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        section = self._section(index.row())
        if section in ("group", "belief"):
            if role == Qt.ItemDataRole.ToolTipRole and section == "belief":
                p = self.value(index.row(), index.column())
                label = self.row_label(index.row())
                if p is None:
                    return _("{label}: not computed yet").format(label=label)
                return _("{label}: P(the location is {location}) = {p}").format(
                    label=label, location=self._locations[index.column()], p=number(p, 4))
            return super().data(index, role)
        if role == TOOLTIP:
            w = self.value(index.row(), index.column())
            return self._claim_tooltip(index.row(), index.column(), section,
                                       0.0 if w is None else w)
        # the painted roles of a claim or the pending row: made in one place (a view reads
        # them through multiData, kept per change)
        return self._painted_roles(index.row(), index.column()).get(role)

    def _painted_roles(self, row: int, col: int) -> dict:
        """Every role a view paints of a cell, computed together (a new claim repaints the
        whole sheet: one call per cell, not one per role): a belief cell as the base
        worksheet's, a claim or the pending row's weight (which :meth:`data` answers from
        here too), ``{}`` (each role asked of :meth:`data`) for a group row."""
        k = self.item_index(row)
        pending = len(self._belief_labels)
        if k < 0:
            return {}
        if k < pending:
            return self._probability_roles(row, col, k)
        w = self.value(row, col)
        w = 0.0 if w is None else w
        if w > 0:
            background = QBrush(heat_color(0.25 + 0.6 * w / self._row_top(k)))
        else:
            background = QBrush(PENDING_BACKGROUND) if k == pending else None
        return {DISPLAY: format_weight(w), ProbabilityRole: w, BACKGROUND: background,
                FOREGROUND: _CLAIM_FOREGROUND, ALIGNMENT: _CENTER, FONT: None,
                DECORATION: None, CHECK_STATE: None}

    def _claim_tooltip(self, row: int, col: int, section: str, w: float) -> str:
        loc = self._locations[col]
        if section == "pending":
            return _("Next claim: {location} weight {w} — click to cycle 0 → ½ → 1 (Space on the "
                     "keyboard)").format(location=loc, w=format_weight(w) or "0")
        turn = self.claim_of_row(row)
        total = float(np.asarray(self._claims[turn][1], float).sum())
        said = dict(n=turn + 1, player=self._claims[turn][0], location=loc, w=format_weight(w) or "0")
        if total > 0:
            return _("Turn {n}, {player}: {location} weight {w} ({share} of the claim)").format(
                share=percent(w / total), **said)
        return _("Turn {n}, {player}: {location} weight {w}").format(**said)

    def headerData(self, section: int, orientation, role=Qt.ItemDataRole.DisplayRole):  # noqa: N802 (Qt's name)
        vertical = orientation == Qt.Orientation.Vertical
        if vertical and role == DISPLAY and self._section(section) == "pending":
            return f"▶ {self._speaker}" if self._speaker else "▶ " + _("next")
        if vertical and role == Qt.ItemDataRole.FontRole and self._section(section) == "pending":
            f = QFont()
            f.setBold(True)
            return f
        if orientation == Qt.Orientation.Horizontal and section < len(self._locations):
            if role == Qt.ItemDataRole.ToolTipRole:
                loc = self._locations[section]
                return _("{location} (struck out on my list)").format(location=loc) if loc in self._struck else loc
            if role == Qt.ItemDataRole.FontRole and self._locations[section] in self._struck:
                f = QFont()
                f.setStrikeOut(True)
                return f
        return super().headerData(section, orientation, role)


COLUMN_TIPS = {
    N_("Public"): N_("What everyone can infer from the claims: P(player is the spy)"),
    N_("Mine"): N_("My own belief, using my card (a non-spy knows the location; the spy knows itself)"),
    N_("w/o own"): N_("The public belief computed without this player's own claims "
                      "(the leave-one-out public marginal of “Spyfall with Pyro”)"),
}


def column_tip(title: str) -> str | None:
    """The tooltip of a spy-belief column shown as ``title`` (in the language in effect)."""
    return next((_(tip) for key, tip in COLUMN_TIPS.items() if _(key) == title), None)


class SpyBeliefModel(ProbabilityTableModel):
    """Players × (public P(spy), my P(spy), public P(spy) without the player's own claims).

    Row labels carry a ★ for me and each player's contribution to the public location belief
    (bits, the KL divergence between the public belief and the belief without their claims).
    """

    KEEP_CELLS = True       # its data() only adds tooltips, which are never kept
    TOOLTIPS_ONLY = True

    def __init__(self, parent=None):
        super().__init__([], [], parent)
        self._players: list[str] = []
        self._me: Optional[str] = None
        self._bits: dict = {}

    def set_players(self, players: Sequence[str], me: Optional[str], columns: Sequence[str]) -> None:
        self._players = list(players)
        self._me = me
        self._bits = {}
        self.set_layout([("", self._players)], columns)

    def set_contributions(self, bits: dict, wording: Wording = PLAIN) -> None:
        """{player: bits} shown next to each name (finite values only): as a bar relative to
        the player who told most by default, in bits in the Details view."""
        self._bits = {k: v for k, v in bits.items() if v is not None and math.isfinite(v)}
        self._wording = wording
        if self._players:
            self.headerDataChanged.emit(Qt.Orientation.Vertical, 0, len(self._players) - 1)

    def headerData(self, section: int, orientation, role=Qt.ItemDataRole.DisplayRole):  # noqa: N802 (Qt's name)
        vertical = orientation == Qt.Orientation.Vertical
        if vertical and role == DISPLAY and section < len(self._players):
            p = self._players[section]
            label = ("★ " if p == self._me else "") + p
            if p in self._bits:
                wording = getattr(self, "_wording", PLAIN)
                top = max(self._bits.values(), default=0.0)
                label += f"  ·  {wording.information(self._bits[p], top)}"
            return label
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.ToolTipRole:
            return column_tip(self.columns()[section] if section < len(self.columns()) else "")
        if vertical and role == TOOLTIP and section < len(self._players):
            if getattr(self, "_wording", PLAIN).details:
                return _("bits: how much this player's claims moved the public location belief "
                         "(KL divergence from the belief without them)")
            return _("The bar: how much this player's claims gave away about the location (a full "
                     "bar: the player who gave away most)")
        return super().headerData(section, orientation, role)

    def data(self, index: QModelIndex, role=Qt.ItemDataRole.DisplayRole):
        if role == Qt.ItemDataRole.ToolTipRole and index.isValid():
            p = self.value(index.row(), index.column())
            name = self._players[index.row()]
            col = self.columns()[index.column()]
            if p is None:
                return _("{name} / {column}: not available").format(name=name, column=col)
            return _("{column}: P({name} is the spy) = {p}").format(column=col, name=name, p=number(p, 4))
        return super().data(index, role)


class SpyBeliefView(WorksheetView):
    """The spy-belief table, never narrower than its row labels and every column's header at
    the current font (so "w/o own" shows whole at any zoom; the pane beside it folds into a
    tab first, :class:`desktop.widgets.side_panes.SidePanes`), never shorter than all its rows."""

    def setModel(self, model) -> None:  # noqa: N802 (Qt's method name)
        super().setModel(model)
        if model is not None:   # the row labels grow with the bits shown in them
            model.headerDataChanged.connect(lambda *_a: self.updateGeometry())
            model.modelReset.connect(self.updateGeometry)

    def changeEvent(self, event) -> None:  # noqa: N802 (Qt's method name)
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:   # a zoom
            self.updateGeometry()

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt's method name)
        hint = super().minimumSizeHint()
        m, hh = self.model(), self.horizontalHeader()
        if m is None:
            return hint
        hints = [max(hh.sectionSizeHint(c), hh.minimumSectionSize()) for c in range(m.columnCount())]
        # stretched columns share the width equally: each gets the widest one's need
        stretch = any(hh.sectionResizeMode(c) == QHeaderView.Stretch for c in range(len(hints)))
        columns = len(hints) * max(hints, default=0) if stretch else sum(hints)
        width = (self._row_labels_width(m) + columns + 2 * self.frameWidth()
                 + self.verticalScrollBar().sizeHint().width())
        # every player's row whole under the header: the page makes the room, or the beliefs
        # row scrolls as a whole to them (a short page, a large zoom)
        vh = self.verticalHeader()
        rows = sum(vh.sectionSize(r) for r in range(m.rowCount()))
        head = max(hh.sizeHint().height(), hh.height() if hh.isVisible() else 0)
        height = head + rows + 2 * self.frameWidth()
        return QSize(max(hint.width(), width), height)

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt's method name)
        hint = super().sizeHint()
        return QSize(hint.width(), self.minimumSizeHint().height())   # its rows, no more

    def _row_labels_width(self, model) -> int:
        """The row labels' width (pixels) with each player's contribution shown, also before
        the beliefs bring it: the table's minimum width then stays the same when they come,
        and the side panes beside it (:class:`desktop.widgets.side_panes.SidePanes`) do not
        fold at every open of a log and unfold at the next (a fold lays out and paints the
        whole tab again: 10-25 ms of the GUI thread)."""
        width = self.verticalHeader().sizeHint().width()
        if getattr(model, "_bits", True):
            return width
        wording = getattr(model, "_wording", PLAIN)
        fm = self.verticalHeader().fontMetrics()
        # a full bar, or "10.00 bits"; a character more for the style's margins of a longer
        # label and my own row's font
        shown = f"  ·  {wording.information(10.0, 10.0)}"
        return width + fm.size(0, shown).width() + fm.averageCharWidth()


def _rows_height(view: QTableView, rows: int) -> int:
    """The height in pixels of ``view`` 's first ``rows`` rows, a row not (yet) in the model
    counted at the header's default row height."""
    have = min(rows, view.model().rowCount()) if view.model() is not None else 0
    return (sum(view.rowHeight(r) for r in range(have))
            + (rows - have) * view.verticalHeader().defaultSectionSize())


class RotatedHeader(QHeaderView):
    """A horizontal header drawing its labels vertically (bottom to top), so that many long
    location names fit above narrow columns."""

    def __init__(self, parent=None, max_height: int = 130):
        super().__init__(Qt.Orientation.Horizontal, parent)
        self.max_height = max_height
        self.setSectionsClickable(True)
        self.setHighlightSections(False)

    def _label_height(self) -> int:
        """Height that fits the longest label; cached until the labels or the font change."""
        if getattr(self, "_height", None) is None:
            m = self.model()
            fm = self.fontMetrics()
            width = 0
            if m is not None:
                for c in range(m.columnCount()):
                    label = m.headerData(c, Qt.Orientation.Horizontal, DISPLAY)
                    width = max(width, fm.horizontalAdvance(str(label or "")))
            # pixels, not times the zoom: 195 px at 150 % made the window 818 px high, over a
            # 1280x800 screen (tests/screen_audit); longer names are elided, whole in tooltips
            self._height = min(self.max_height, width + 12)
        view = self.parentWidget()
        if isinstance(view, QTableView) and view.height() > 0:
            # a short sheet (a small screen at a large zoom) keeps its first rows in view under
            # the names (the claim sheet: down to the ▶ row and the latest claim): the names
            # are then elided, each whole in its tooltip
            keep = view.rows_to_keep() if hasattr(view, "rows_to_keep") else 2
            rows = _rows_height(view, keep) + 2 * view.frameWidth()
            bar = view.horizontalScrollBar()
            rows += bar.sizeHint().height() if bar.maximum() > 0 else 0
            return max(3 * self.fontMetrics().height(), min(self._height, view.height() - rows))
        return self._height

    def _forget_height(self, *_args) -> None:
        self._height = None

    def whole_names_height(self) -> int:
        """The height in pixels that shows the longest name whole (at most ``max_height``),
        whatever the view's height."""
        self._label_height()
        return self._height

    def setModel(self, model) -> None:  # noqa: N802 (Qt's method name)
        super().setModel(model)
        self._height = None
        if model is not None:
            for sig in (model.headerDataChanged, model.modelReset, model.columnsInserted,
                        model.columnsRemoved, model.layoutChanged):
                sig.connect(self._forget_height)

    def changeEvent(self, event) -> None:  # noqa: N802 (Qt's method name)
        self._height = None
        super().changeEvent(event)

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt's method name)
        """Qt's hint, without asking each section: ``QHeaderView::sizeHint`` is the largest
        :meth:`sectionSizeFromContents` of the first and last 100 shown sections (The Qt
        Company, Qt 6 source, qheaderview.cpp, 2026), which are all the same here. Qt
        computed it again at every layout of the sheet, 200 calls into Python for 200
        locations (the largest table's open made 800 in one turn, 15-28 ms of the GUI
        thread)."""
        shown = self.count() - self.hiddenSectionCount()
        return QSize(self._section_width() if shown > 0 else 0, self._label_height())

    def _section_width(self) -> int:
        return self.fontMetrics().height() + 8

    def sectionSizeFromContents(self, logical: int) -> QSize:  # noqa: N802 (Qt's method name)
        return QSize(self._section_width(), self._label_height())

    def paintSection(self, painter: QPainter, rect: QRect, logical: int) -> None:  # noqa: N802 (Qt's method name)
        if not rect.isValid():
            return
        opt = QStyleOptionHeader()
        self.initStyleOption(opt)
        opt.rect = rect
        opt.section = logical
        opt.text = ""
        painter.save()
        self.style().drawControl(QStyle.CE_Header, opt, painter, self)
        painter.restore()
        m = self.model()
        across = Qt.Orientation.Horizontal
        text = str(m.headerData(logical, across, DISPLAY) or "") if m else ""
        font = m.headerData(logical, across, Qt.ItemDataRole.FontRole) if m else None
        painter.save()
        if font is not None:
            painter.setFont(font)
        painter.translate(rect.left(), rect.bottom())
        painter.rotate(-90)
        inner = QRect(4, 0, rect.height() - 8, rect.width())
        text = painter.fontMetrics().elidedText(text, Qt.ElideRight, inner.width())
        painter.drawText(inner, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                         text)
        painter.restore()


#: Claims under the ▶ row that a short claim sheet keeps in view (its names are elided first).
CLAIMS_IN_VIEW = 3


class ClaimSheetView(WorksheetView):
    """The claims worksheet: the shared grid with rotated location headers; Space cycles the
    current pending cell and Enter logs the pending claim.

    Signals (besides WorksheetView's and QTableView's ``clicked``):
        spacePressed(QModelIndex): Space on the current cell.
        enterPressed(): Return/Enter.
    """

    spacePressed = Signal(QModelIndex)
    enterPressed = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        header = RotatedHeader(self)
        self.setHorizontalHeader(header)
        header.setSectionResizeMode(QHeaderView.Stretch)
        header.setMinimumSectionSize(30)
        header.setSectionsClickable(True)
        header.sectionClicked.connect(self.columnHeaderClicked)
        # a quick second click on a header is a double click: it counts as a click too
        header.sectionDoubleClicked.connect(self.columnHeaderClicked)
        scaled_size(self.verticalHeader(), min_width=90)

    def rows_to_keep(self) -> int:
        """How many rows the rotated names leave in view on a short sheet: the beliefs, the
        claims' title, the ▶ row one clicks to enter a claim and the :data:`CLAIMS_IN_VIEW`
        latest claims (those there are)."""
        m = self.model()
        if not isinstance(m, ClaimSheetModel):
            return 2
        pending = m.row_of_item(m.pending_item)
        return min(m.rowCount(), pending + 1 + CLAIMS_IN_VIEW) if pending >= 0 else 2

    def wanted_height(self, whole_names: bool = True) -> int:
        """The height in pixels that shows the names (``whole_names``, else elided to
        three lines' height, the least :class:`RotatedHeader` takes) and the rows down to the ▶
        row and :data:`CLAIMS_IN_VIEW` claims under it, logged or not yet (so that it stays
        the same while a game's first claims come in), with the frame and, when the columns
        are wider than the view, the sideways scroll bar."""
        header = self.horizontalHeader()
        if not isinstance(header, RotatedHeader):
            names = header.height()
        else:   # the header is never under three lines (RotatedHeader._label_height)
            least = 3 * header.fontMetrics().height()
            names = max(least, header.whole_names_height()) if whole_names else least
        m = self.model()
        pending = m.row_of_item(m.pending_item) if isinstance(m, ClaimSheetModel) else -1
        rows = _rows_height(self, max(pending, 1) + 1 + CLAIMS_IN_VIEW)
        wide = header.count() * header.minimumSectionSize() > self.viewport().width()
        return (names + rows + 2 * self.frameWidth()
                + (self.horizontalScrollBar().sizeHint().height() if wide else 0))

    def _span_groups(self) -> None:
        """Span the group-header rows across the columns. The shared view asks every row's
        kind (a Python call per row: 0.1 s for 2,000 claims on the GUI thread at every
        reset); the claim sheet knows its two header rows."""
        m = self.model()
        if not isinstance(m, ClaimSheetModel):
            super()._span_groups()
            return
        self.clearSpans()
        for r in m.group_rows():
            self.setSpan(r, 0, 1, max(1, m.columnCount()))

    def keyPressEvent(self, event) -> None:  # noqa: N802 (Qt's method name)
        if event.key() == Qt.Key_Space:
            self.spacePressed.emit(self.currentIndex())
            return
        if event.key() in (Qt.Key_Return, Qt.Key_Enter):
            self.enterPressed.emit()
            return
        super().keyPressEvent(event)
