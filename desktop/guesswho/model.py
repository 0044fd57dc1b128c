"""Qt models of the Guess Who? tab: the ranked question list and its split-bar delegate.

:class:`QuestionTableModel` shows the engine's ranking (``Posterior.questions``, best first):
the question in words, the expected information gain in bits, the yes/no split of the cards
still standing (drawn as a bar by :class:`SplitBarDelegate`) and the expected number of cards
left after the answer. The question the engine advises (race or fewest expected questions) is
starred.
"""
from __future__ import annotations

import math
from typing import Callable, Optional, Sequence

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPen
from PySide6.QtWidgets import QStyle, QStyledItemDelegate

#: Item data roles of :class:`QuestionTableModel`.
QuestionRole = Qt.UserRole + 1  # the question in event form (dict)
SplitRole = Qt.UserRole + 2  # (yes, no) counts

COLUMNS = ("Question", "Bits", "Split yes / no", "Left")
COL_QUESTION, COL_BITS, COL_SPLIT, COL_LEFT = range(4)
YES_COLOUR = QColor(67, 160, 71)
NO_COLOUR = QColor(229, 115, 115)


def _finite(x: Optional[float]) -> Optional[float]:
    return x if x is not None and isinstance(x, (int, float)) and math.isfinite(x) else None


class QuestionTableModel(QAbstractTableModel):
    """The ranked questions of one posterior (rows best first).

    :meth:`set_ranking` takes the engine's ``RankedQuestion`` tuple and the question(s) to star
    (event forms); :meth:`question` returns row ``r``'s question in event form.
    """

    def __init__(self, parent=None):
        super().__init__(parent)
        self._rows: list = []
        self._starred: dict = {}
        self._labels: list = []

    def set_ranking(self, ranked: Sequence, starred: Optional[dict] = None,
                    words: Optional[Callable[[dict], str]] = None) -> None:
        """Show ``ranked`` (RankedQuestion, best first); ``starred`` maps a key of
        :func:`question_key` to a tooltip reason for the questions to mark with ★; ``words``
        turns a question (event form) into the text shown (default: the engine's label)."""
        self.beginResetModel()
        self._rows = list(ranked)
        self._starred = dict(starred or {})
        self._labels = [words(rq.question) if words else rq.label for rq in self._rows]
        self.endResetModel()

    def label(self, row: int) -> str:
        """The words shown for row ``row`` (without the star)."""
        return self._labels[row] if 0 <= row < len(self._labels) else ""

    def ranking(self) -> list:
        """The RankedQuestion rows shown, best first."""
        return list(self._rows)

    def question(self, row: int) -> Optional[dict]:
        """Row ``row``'s question in event form (None when out of range)."""
        return self._rows[row].question if 0 <= row < len(self._rows) else None

    def row_of(self, question: Optional[dict]) -> int:
        """The row showing ``question`` (event form), or -1."""
        if question is None:
            return -1
        key = question_key(question)
        for r, rq in enumerate(self._rows):
            if question_key(rq.question) == key:
                return r
        return -1

    # -- Qt API ----------------------------------------------------------------------------
    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: N802
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent=QModelIndex()) -> int:  # noqa: N802
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section, orientation, role=Qt.DisplayRole):  # noqa: N802
        if orientation == Qt.Horizontal and role == Qt.DisplayRole:
            return COLUMNS[section]
        if orientation == Qt.Horizontal and role == Qt.ToolTipRole:
            return ("The question (★ = advised)", "Expected information gain of the answer, bits",
                    "Cards still standing on the yes side / the no side",
                    "Expected number of cards standing after the answer")[section]
        return None

    def data(self, index: QModelIndex, role=Qt.DisplayRole):
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        rq = self._rows[index.row()]
        col = index.column()
        star = self._starred.get(question_key(rq.question))
        if role == QuestionRole:
            return rq.question
        if role == SplitRole:
            return (rq.yes, rq.no)
        if role == Qt.DisplayRole:
            if col == COL_QUESTION:
                return ("★ " if star else "") + self._labels[index.row()]
            if col == COL_BITS:
                bits = _finite(rq.information_bits)
                return "–" if bits is None else f"{bits:.3f}"
            if col == COL_SPLIT:
                return f"{rq.yes} / {rq.no}"
            if col == COL_LEFT:
                left = _finite(rq.expected_remaining)
                return "–" if left is None else f"{left:.1f}"
        if role == Qt.TextAlignmentRole and col in (COL_BITS, COL_LEFT):
            return int(Qt.AlignRight | Qt.AlignVCenter)
        if role == Qt.FontRole and star:
            f = QFont()
            f.setBold(True)
            return f
        if role == Qt.ForegroundRole and col == COL_BITS and (rq.information_bits or 0) <= 1e-12:
            return QBrush(QColor(150, 150, 150))
        if role == Qt.ToolTipRole:
            p = _finite(rq.p_yes)
            tip = (f"{self._labels[index.row()]}  ({rq.label})\n{rq.information_bits:.4f} bits expected; {rq.yes} standing cards "
                   f"say yes, {rq.no} say no" + (f"; P(yes) = {p:.3f}" if p is not None else ""))
            if star:
                tip += f"\n★ {star}"
            return tip
        return None


def question_key(question: dict) -> str:
    """A canonical string for a question in event form (to compare questions)."""
    import json

    return json.dumps(question, sort_keys=True)


class SplitBarDelegate(QStyledItemDelegate):
    """Draws a ``(yes, no)`` split (:data:`SplitRole`) as a two-coloured bar with the counts."""

    def paint(self, painter: QPainter, option, index) -> None:
        split = index.data(SplitRole)
        if not split:
            super().paint(painter, option, index)
            return
        yes, no = split
        painter.save()
        if option.state & QStyle.State_Selected:
            painter.fillRect(option.rect, option.palette.highlight())
        r = QRectF(option.rect).adjusted(4, 5, -4, -5)
        total = max(yes + no, 1)
        wy = r.width() * yes / total
        painter.setPen(Qt.NoPen)
        painter.setBrush(YES_COLOUR)
        painter.drawRect(QRectF(r.left(), r.top(), wy, r.height()))
        painter.setBrush(NO_COLOUR)
        painter.drawRect(QRectF(r.left() + wy, r.top(), r.width() - wy, r.height()))
        painter.setPen(QPen(QColor(255, 255, 255)))
        f = QFont(option.font)
        f.setBold(True)
        f.setPointSizeF(max(7.0, f.pointSizeF() - 1))
        painter.setFont(f)
        if yes:
            painter.drawText(QRectF(r.left() + 3, r.top(), max(wy - 3, 0), r.height()),
                             Qt.AlignLeft | Qt.AlignVCenter, str(yes))
        if no:
            painter.drawText(QRectF(r.left() + wy, r.top(), r.width() - wy - 3, r.height()),
                             Qt.AlignRight | Qt.AlignVCenter, str(no))
        painter.restore()
