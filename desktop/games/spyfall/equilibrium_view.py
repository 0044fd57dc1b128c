"""The hide-reveal game of the Spyfall studies as a heat map: the stored payoff matrix (non-spy
strategies × spy strategies, the non-spies' win rate of each tournament with its Wilson 95%
interval) with the equilibrium marked — both sides' mixed strategies on the headers, the cells
of their supports outlined — and the game's value (docs/spyfall-equilibrium.md, written by
``python -m engines.spyfall.equilibrium`` into ``resources/spyfall/equilibrium.json``).
"""
from __future__ import annotations

import math
from typing import Optional

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QRect, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPen
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QStyledItemDelegate,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from desktop.shell.appearance import muted_style, tone
from desktop.shell.locale_format import number, percent, significant
from desktop.table.zoom import scaled_size
from desktop.widgets.plain_text import esc
from desktop.widgets.role_data import MultiDataModel
from engines.core.errors import SessionFormatError
from engines.core.i18n import N_, _
from engines.core.schema import Reader

#: Model role: True for a cell both of whose strategies the equilibrium plays.
SupportRole = Qt.ItemDataRole.UserRole + 11
#: Model role: the cell's win rate (float) for tests and export.
RateRole = Qt.ItemDataRole.UserRole + 12
#: Colours of the diverging scale around the game's value: the spy does better (below the
#: value) → white (the value) → the non-spies do better (above it).
SPY_COLOR = (198, 40, 40)
NON_SPY_COLOR = (21, 101, 192)
#: At most this share of the end colour is mixed into white, so dark text stays readable.
MAX_TINT = 0.75
STRATEGY_WORDS = {"flat": N_("flat"), "dynamic": N_("dynamic")}


def _pct(x: float, digits: int = 1) -> str:
    return percent(x, digits)


def _word(strategy: str) -> str:
    return _(STRATEGY_WORDS[strategy]) if strategy in STRATEGY_WORDS else strategy


def strategy_label(lam: float, strategy: str, spy: bool = False) -> str:
    """``"flat λ 0.05"`` (``λs`` for the spy)."""
    return f"{_word(strategy)} λ{'s' if spy else ''} {significant(lam, 6)}"


def diverging_color(rate: float, center: float, span: float) -> QColor:
    """The cell colour of ``rate``: white at ``center`` (the game's value), tinted towards blue
    (non-spies do better) or red (the spy does better) in proportion to |rate − center| / span."""
    t = 0.0 if span <= 0 else max(-1.0, min(1.0, (rate - center) / span))
    end = NON_SPY_COLOR if t >= 0 else SPY_COLOR
    a = MAX_TINT * abs(t)
    return QColor(*(round(255 + (c - 255) * a) for c in end))


def read_study(obj) -> dict:
    """Check and extract what the heat map needs from the stored study.

    Args:
        obj: the object of ``resources/spyfall/equilibrium.json``.
    Returns:
        ``{"non_spy": [(λ, strategy)] (m), "spy": [(λ, strategy)] (k), "rate", "low", "high":
        float arrays (m, k) in [0, 1], "games": games per cell, "row_mix" (m,), "col_mix" (k,),
        "value", "value_ci95": (lo, hi), "vote": {"vote_threshold", "vote_on"} or {}, "table":
        {...} or {}, "refined": the refinement's equilibrium or None}``.
    Raises:
        SessionFormatError: a missing or malformed field, named by its JSON path.
    """
    r = Reader(obj, "$")
    non_spy = _strategies(r, "non_spy_strategies")
    spy = _strategies(r, "spy_strategies")
    shape = (len(non_spy), len(spy))
    arrays = _rate_arrays(r, shape)
    games = r.int("games_per_cell", min=1)
    eq = r.child("equilibrium")
    value = eq.float("value", min=0, max=1)
    ci = eq.raw("value_ci95")
    if not (isinstance(ci, list) and len(ci) == 2 and all(isinstance(x, (int, float)) for x in ci)):
        raise eq.error("value_ci95", "expected [low, high]")
    row_mix = _mix(eq, "non_spy", non_spy)
    col_mix = _mix(eq, "spy", spy)
    vote = obj.get("game_vote") if isinstance(obj.get("game_vote"), dict) else {}
    table = obj.get("table") if isinstance(obj.get("table"), dict) else {}
    refined = _refinement(obj.get("refinement"))
    return {"non_spy": non_spy, "spy": spy, **arrays, "games": games, "row_mix": row_mix,
            "col_mix": col_mix, "value": value, "value_ci95": (float(ci[0]), float(ci[1])),
            "vote": vote, "table": table, "refined": refined}


def _rate_arrays(r: Reader, shape: tuple) -> dict:
    """``{"rate", "low", "high"}``: the win-rate matrix and its Wilson bounds, each checked to
    be ``shape`` and in [0, 1]; raises SessionFormatError naming the field."""
    arrays = {}
    for key, name in (("rate", "non_spy_win_rate"), ("low", "ci95_low"), ("high", "ci95_high")):
        try:
            a = np.asarray(r.raw(name), dtype=float)
        except (TypeError, ValueError):
            raise r.error(name, "expected a matrix of numbers") from None
        if a.shape != shape:
            raise r.error(name, f"expected a {shape[0]} × {shape[1]} matrix, got shape {a.shape}")
        if not np.all(np.isfinite(a)) or a.min() < 0 or a.max() > 1:
            raise r.error(name, "expected rates in [0, 1]")
        arrays[key] = a
    return arrays


def _refinement(ref) -> Optional[dict]:
    """The refinement's equilibrium ``{"value", "value_ci95", "games"}``, or None when the
    study has none (or a malformed one: it is optional)."""
    if not (isinstance(ref, dict) and isinstance(ref.get("equilibrium"), dict)):
        return None
    e = ref["equilibrium"]
    if isinstance(e.get("value"), (int, float)) and isinstance(e.get("value_ci95"), list):
        return {"value": float(e["value"]), "value_ci95": tuple(float(x) for x in e["value_ci95"]),
                "games": ref.get("games_per_cell")}
    return None


def _strategies(r: Reader, key: str) -> list:
    raw = r.raw(key)
    if not isinstance(raw, list) or not raw:
        raise r.error(key, "expected a non-empty list of [λ, strategy]")
    out = []
    for i, x in enumerate(raw):
        if not (isinstance(x, list) and len(x) == 2 and isinstance(x[0], (int, float))
                and isinstance(x[1], str)):
            raise SessionFormatError(f"{r.sub(key)}[{i}]", "expected [λ, strategy]")
        out.append((float(x[0]), x[1]))
    return out


def _mix(eq: Reader, side: str, strategies: list) -> np.ndarray:
    raw = eq.raw(side)
    if not isinstance(raw, list) or len(raw) != len(strategies):
        raise eq.error(side, f"expected {len(strategies)} entries, one per strategy")
    p = np.zeros(len(strategies))
    for i, (m, s) in enumerate(zip(raw, strategies)):
        if not (isinstance(m, dict) and isinstance(m.get("probability"), (int, float))
                and math.isfinite(m["probability"]) and m["probability"] >= 0):
            raise SessionFormatError(f"{eq.sub(side)}[{i}].probability", "expected a probability")
        if (float(m.get("lambda", math.nan)), m.get("strategy")) != s:
            raise SessionFormatError(f"{eq.sub(side)}[{i}]", "does not match the strategy list")
        p[i] = float(m["probability"])
    if not p.sum() > 0:
        raise eq.error(side, "the mixed strategy has no positive probability")
    return p / p.sum()


class PayoffMatrixModel(MultiDataModel, QAbstractTableModel):
    """Rows: the non-spies' strategies; columns: the spy's; cells: the non-spies' win rate.
    Headers carry each strategy's equilibrium probability (★ when it is played)."""

    #: Probabilities at or below this are not part of the equilibrium's support.
    SUPPORT_EPS = 0.005

    def __init__(self, parent=None):
        super().__init__(parent)
        self.study: Optional[dict] = None

    def set_study(self, study: Optional[dict]) -> None:
        self.beginResetModel()
        self.study = study
        self.endResetModel()

    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: N802 (Qt's method name)
        return 0 if parent.isValid() or self.study is None else len(self.study["non_spy"])

    def columnCount(self, parent=QModelIndex()) -> int:  # noqa: N802 (Qt's method name)
        return 0 if parent.isValid() or self.study is None else len(self.study["spy"])

    def in_support(self, row: int, col: int) -> bool:
        s = self.study
        return bool(s["row_mix"][row] > self.SUPPORT_EPS and s["col_mix"][col] > self.SUPPORT_EPS)

    def _span(self) -> float:
        s = self.study
        return float(max(s["rate"].max() - s["value"], s["value"] - s["rate"].min(), 1e-9))

    def data(self, index: QModelIndex, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or self.study is None:
            return None
        s = self.study
        i, j = index.row(), index.column()
        rate = float(s["rate"][i, j])
        if role == Qt.ItemDataRole.DisplayRole:
            return f"{100 * rate:.0f}"
        if role == RateRole:
            return rate
        if role == SupportRole:
            return self.in_support(i, j)
        if role == Qt.ItemDataRole.BackgroundRole:
            return QBrush(diverging_color(rate, s["value"], self._span()))
        if role == Qt.ItemDataRole.ForegroundRole:
            return QBrush(QColor(25, 25, 25))
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignCenter)
        if role == Qt.ItemDataRole.FontRole and self.in_support(i, j):
            f = QFont()
            f.setBold(True)
            return f
        if role == Qt.ItemDataRole.ToolTipRole:
            (lam, st), (slam, sst) = s["non_spy"][i], s["spy"][j]
            text = _("Non-spies play {strategy} hide-reveal, λ = {lam}; the spy plays {spy_strategy}, "
                     "λs = {spy_lam}\nThe non-spies win {rate} of {games} games (Wilson 95 % interval "
                     "{low} – {high})").format(
                strategy=_word(st), lam=significant(lam, 6), spy_strategy=_word(sst),
                spy_lam=significant(slam, 6), rate=_pct(rate), games=number(s["games"]),
                low=_pct(s["low"][i, j]), high=_pct(s["high"][i, j]))
            if self.in_support(i, j):
                text += "\n" + _("★ Both strategies are played at the equilibrium.")
            return text
        return None

    def headerData(self, section: int, orientation, role=Qt.ItemDataRole.DisplayRole):  # noqa: N802 (Qt's name)
        if self.study is None:
            return None
        s = self.study
        rows = orientation == Qt.Orientation.Vertical
        strategies = s["non_spy"] if rows else s["spy"]
        mix = s["row_mix"] if rows else s["col_mix"]
        if not 0 <= section < len(strategies):
            return None
        lam, st = strategies[section]
        played = mix[section] > self.SUPPORT_EPS
        if role == Qt.ItemDataRole.DisplayRole:
            star = f"★ {_pct(mix[section], 0)}" if played else ""
            if rows:
                return f"{strategy_label(lam, st)}  {star}".rstrip()
            return f"{_word(st)}\nλs {significant(lam, 6)}" + (f"\n{star}" if star else "")
        if role == Qt.ItemDataRole.FontRole and played:
            f = QFont()
            f.setBold(True)
            return f
        if role == Qt.ItemDataRole.ToolTipRole:
            if rows:
                worst = float(s["rate"][section].min())
                text = _("Non-spies: {strategy} hide-reveal, λ = {lam}. Guarantees {rate} against the "
                         "spy's best reply.").format(strategy=_word(st), lam=significant(lam, 6), rate=_pct(worst))
            else:
                best = float(s["rate"][:, section].max())
                text = _("Spy: {strategy} hide-reveal, λs = {lam}. Holds the non-spies to {rate} at "
                         "most.").format(strategy=_word(st), lam=significant(lam, 6), rate=_pct(best))
            if played:
                text += "\n" + _("Played with probability {p} at the equilibrium.").format(p=_pct(mix[section]))
            return text
        return None


class SupportDelegate(QStyledItemDelegate):
    """Draws the cell, then a dark frame around the cells of the equilibrium's support."""

    def paint(self, painter, option, index) -> None:
        super().paint(painter, option, index)
        if index.data(SupportRole):
            painter.save()
            painter.setPen(QPen(QColor(20, 20, 20), 3))
            r = QRect(option.rect).adjusted(1, 1, -2, -2)
            painter.drawRect(r)
            painter.restore()


class EquilibriumView(QWidget):
    """The payoff matrix heat map with the equilibrium, read from the stored study.

    Args:
        study: a study (:func:`read_study`'s result) to show; None reads the stored one.
        load_when_shown: read the stored study when the view is first shown instead of now.

    Attributes:
        model: the :class:`PayoffMatrixModel`.
        view: its QTableView.
        summary: the rich-text line with both mixed strategies and the value.
        legend: the colour scale.
    """

    def __init__(self, parent=None, study: Optional[dict] = None, *,
                 load_when_shown: bool = False):
        super().__init__(parent)
        root = QVBoxLayout(self)
        root.setContentsMargins(0, 4, 0, 0)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.RichText)
        root.addWidget(self.summary)
        self.model = PayoffMatrixModel(self)
        self.view = QTableView()
        self.view.setModel(self.model)
        self.view.setItemDelegate(SupportDelegate(self.view))
        self.view.setEditTriggers(QAbstractItemView.NoEditTriggers)
        self.view.setSelectionMode(QAbstractItemView.NoSelection)
        self.view.setFocusPolicy(Qt.NoFocus)
        self.view.horizontalHeader().setSectionResizeMode(QHeaderView.Stretch)
        self.view.verticalHeader().setSectionResizeMode(QHeaderView.Stretch)
        self.view.horizontalHeader().setDefaultAlignment(Qt.AlignmentFlag.AlignCenter)
        self.view.setToolTip(_("Non-spy win rate (%) of each tournament: rows = the non-spies' "
                               "strategy, columns = the spy's"))
        root.addWidget(self.view, 1)
        legend_row = QHBoxLayout()
        self.legend = QLabel()
        scaled_size(self.legend, min_height=22)
        self.legend.setAlignment(Qt.AlignmentFlag.AlignCenter)
        legend_row.addWidget(self.legend, 1)
        root.addLayout(legend_row)
        self.note = QLabel()
        self.note.setWordWrap(True)
        muted_style(self.note)
        root.addWidget(self.note)
        self.error: Optional[str] = None
        # the stored study is read through the equilibrium solver's module, which imports
        # scipy.optimize and scipy.stats (about 0.5 s): a view inside a tab reads it when it is
        # first shown, not while the tab is built
        self._load_pending = study is None and load_when_shown
        if study is not None:
            self.set_study(study)
        elif not load_when_shown:
            self.load()

    def showEvent(self, event) -> None:  # noqa: N802 (Qt's method name)
        """Reads the stored study the first time the view is shown (``load_when_shown``)."""
        if self._load_pending:
            self._load_pending = False
            self.load()
        super().showEvent(event)

    def load(self) -> bool:
        """Read ``resources/spyfall/equilibrium.json`` now; a missing or bad file shows a message
        naming the problem (and the command that writes it). Returns True on success."""
        from engines.spyfall import equilibrium

        try:
            study = read_study(equilibrium.load_equilibrium())
        except SessionFormatError as exc:
            return self._fail(_("the stored study is malformed at {path}: {message}").format(
                path=exc.path, message=exc.message))
        except (OSError, ValueError) as exc:
            return self._fail(_("the stored study cannot be read ({error})").format(
                error=f"{exc.__class__.__name__}: {exc}"))
        self.set_study(study)
        return True

    def _fail(self, why: str) -> bool:
        self.error = why
        self.model.set_study(None)
        self.summary.setText(f"<span style='color:{tone('#b71c1c')}'>"
                             + esc(_("No equilibrium to show: {why}.").format(why=why)) + "</span> "
                             + _("Run {command} to compute it.").format(
                                 command="<code>python -m engines.spyfall.equilibrium</code>"))
        self.legend.clear()
        self.legend.setStyleSheet("")
        self.note.clear()
        return False

    def set_study(self, study: dict) -> None:
        """Show a study (:func:`read_study`'s result)."""
        self.error = None
        self.model.set_study(study)
        self.summary.setText(_summary_text(study))
        self._show_legend(study)
        self.note.setText(_note_text(study))

    def _show_legend(self, s: dict) -> None:
        """The colour scale: lowest rate (red) · the value (white) · highest rate (blue)."""
        lo_rate, hi_rate = float(s["rate"].min()), float(s["rate"].max())
        span = self.model._span()
        mid = 0.5 if hi_rate <= lo_rate else min(max((s["value"] - lo_rate) / (hi_rate - lo_rate), 0.0), 1.0)
        left = diverging_color(lo_rate, s["value"], span).name()
        right = diverging_color(hi_rate, s["value"], span).name()
        self.legend.setText(_("lowest {low} · the spy does better  ◀  value {value}  ▶  the non-spies "
                              "do better · highest {high}").format(
            low=_pct(lo_rate, 0), value=_pct(s["value"]), high=_pct(hi_rate, 0)))
        self.legend.setStyleSheet(
            "QLabel { color:#191919; border:1px solid #999; padding:2px; background: "
            f"qlineargradient(x1:0, y1:0, x2:1, y2:0, stop:0 {left}, stop:{mid:.3f} #ffffff, "
            f"stop:1 {right}); }}")


def _mix_text(strategies, mix, spy: bool) -> str:
    """The strategies played at the equilibrium with their probabilities, most played first."""
    parts = [(p, strategy_label(lam, st, spy)) for (lam, st), p in zip(strategies, mix)
             if p > PayoffMatrixModel.SUPPORT_EPS]
    parts.sort(key=lambda x: -x[0])
    return ", ".join(f"<b>{label}</b> ({_pct(p, 0)})" for p, label in parts)


def _summary_text(s: dict) -> str:
    """The equilibrium in words: each side's mix, the value with its interval, the refinement."""
    lo, hi = s["value_ci95"]
    text = _("<b>Hide-reveal game</b> — each cell is a {games}-game tournament; solved as a zero-sum "
             "game by linear programming. <b>Equilibrium:</b> non-spies play {non_spy}, the spy plays "
             "{spy}. <b>Value: the non-spies win {value}</b> (from the cells' Wilson intervals: {low} – "
             "{high})").format(games=number(s["games"]), non_spy=_mix_text(s["non_spy"], s["row_mix"], False),
                               spy=_mix_text(s["spy"], s["col_mix"], True), value=_pct(s["value"]),
                               low=_pct(lo), high=_pct(hi))
    if s["refined"] is not None:
        r = s["refined"]
        said = dict(value=_pct(r["value"]), low=_pct(r["value_ci95"][0]), high=_pct(r["value_ci95"][1]))
        if isinstance(r.get("games"), int):
            text += _("; refined with {games} games per cell: {value} ({low} – {high})").format(
                games=number(r["games"]), **said)
        else:
            text += _("; refined: {value} ({low} – {high})").format(**said)
    return text + "." + _replication_text()


def _replication_text() -> str:
    """What the replication across seeds shows (engines.spyfall.replication), or ""."""
    from engines.spyfall import replication

    try:
        a = replication.load_replication()
    except (OSError, ValueError, KeyError, TypeError):
        a = None
    if not a:
        return ""
    lo, hi = a["value_range"]
    seeds = len(a["seeds"])
    if a["settled"]:
        return " " + _("<b>Replicated</b> with {seeds} independent seeds: the same strategies, value "
                       "{low} – {high}.").format(seeds=seeds, low=_pct(lo), high=_pct(hi))
    never = ", ".join(a.get("never_dominated_non_spy", []))
    said = dict(seeds=seeds, low=_pct(lo), high=_pct(hi))
    if never:
        return " " + _("<b>Not replicated:</b> replayed with {seeds} independent seeds, the value holds "
                       "({low} – {high}) but the equilibrium strategies differ from seed to seed, so "
                       "this matrix's strategies are not advice; never dominated for the non-spies: "
                       "{never}.").format(never=esc(never), **said)
    return " " + _("<b>Not replicated:</b> replayed with {seeds} independent seeds, the value holds "
                   "({low} – {high}) but the equilibrium strategies differ from seed to seed, so "
                   "this matrix's strategies are not advice.").format(**said)


def _note_text(s: dict) -> str:
    """How to read the cells, the studied table and its vote rule, the source."""
    table, vote = s["table"], s["vote"]
    where = (_("{players} players, {locations} locations, {rounds} rounds, β = {beta}").format(
        players=table.get("players"), locations=table.get("locations"), rounds=table.get("rounds"),
        beta=table.get("beta")) if table else _("the studied table"))
    rule = ""
    if vote.get("vote_threshold") is not None:
        on = vote.get("vote_on", "private")
        threshold = _pct(float(vote["vote_threshold"]), 0)
        rule = " " + (_("Vote rule: a non-spy calls the vote when its private spy belief reaches {p}.")
                      if on == "private" else
                      _("Vote rule: a non-spy calls the vote when its public spy belief reaches {p}.")
                      if on == "public" else
                      _("Vote rule: a non-spy calls the vote when its {which} spy belief reaches {p}.")
                      ).format(which=on, p=threshold)
    return _("Cells: non-spy win rate in %, framed where both strategies are played at the equilibrium "
             "(★ on the headers: its probabilities). Bots on {where}; the spy emits with its own λs "
             "while everyone reads its claims with the table's model.{rule} Hover a cell for its "
             "Wilson 95 % interval. Source: docs/spyfall-equilibrium.md.").format(where=where, rule=rule)
