"""Qt models of the Guess Who? tab: the ranked question list and its split-bar delegate.

:class:`QuestionTableModel` shows the engine's ranking (``Posterior.questions``, best first):
the question in words, the expected information gain in bits, the yes/no split of the cards
still standing (drawn as a bar by :class:`SplitBarDelegate`) and the expected number of cards
left after the answer. The question the engine advises (race or fewest expected questions) is
starred.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional, Sequence

from PySide6.QtCore import QEvent, QModelIndex, QRectF, QSize, Qt, QTimer
from PySide6.QtGui import QColor, QFont, QPainter, QPen
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QTableView

from desktop.shell.locale_format import number
from desktop.tabs.wording import PLAIN, Wording
from desktop.widgets.columns import Column, ReadOnlyColumnTableModel, is_missing
from engines.core.i18n import _

#: Item data roles of :class:`QuestionTableModel`.
QuestionRole = Qt.ItemDataRole.UserRole + 11  # the question in event form (dict)
SplitRole = Qt.ItemDataRole.UserRole + 12  # (yes, no) counts

COLUMNS = ("Question", "Bits", "Split yes / no", "Left")
COL_QUESTION, COL_BITS, COL_SPLIT, COL_LEFT = range(4)
#: Bar colours dark enough for the white counts on them (WCAG AA: 5.1:1 and 5.6:1).
YES_COLOUR = QColor(46, 125, 50)
NO_COLOUR = QColor(198, 40, 40)


def _grey(_row=None) -> QColor:
    from desktop.shell.appearance import muted
    return muted()


@dataclass(frozen=True)
class QuestionRow:
    """A row of the question list: the engine's RankedQuestion, the words shown and, for an
    advised question, why it is starred."""

    ranked: object                 # engines.guesswho RankedQuestion
    label: str
    star: Optional[str] = None


def _tooltip(r: QuestionRow) -> str:
    rq = r.ranked
    p = None if is_missing(rq.p_yes) else rq.p_yes
    bits = "?" if is_missing(rq.information_bits) else number(rq.information_bits, 4)
    shown = ("★ " if r.star else "") + r.label   # the cell elides it in a narrow column
    tip = f"{shown}  ({rq.label})\n" + _("{bits} bits expected; {yes} standing cards say yes, "
                                         "{no} say no").format(bits=bits, yes=rq.yes, no=rq.no)
    if p is not None:
        tip += _("; P(yes) = {p}").format(p=number(p, 3))
    return tip + (f"\n★ {r.star}" if r.star else "")


def _plain_tooltip(r: QuestionRow) -> str:
    rq = r.ranked
    shown = ("★ " if r.star else "") + r.label
    tip = f"{shown}\n" + _("{yes} standing cards say yes, {no} say no: the closer to half and "
                           "half, the more the answer tells you").format(yes=rq.yes, no=rq.no)
    return tip + (f"\n★ {r.star}" if r.star else "")


def _starred(r: QuestionRow) -> bool:
    return bool(r.star)


def question_columns(wording: Wording) -> tuple:
    """The ranked questions, declared as data (the split is drawn as a bar by
    SplitBarDelegate): plain words by default ("Information" as a bar, a full bar the one bit
    of a question that halves the cards; "Cards left"), bits and the expected count in the
    Details view."""
    tooltip = _tooltip if wording.details else _plain_tooltip

    def column(title: str, value, header_tooltip: str, **kw) -> Column:
        return Column(title, value, tooltip=tooltip, bold=_starred, header_tooltip=header_tooltip,
                      **kw)

    return (
        column(_("Question"), lambda r: ("★ " if r.star else "") + r.label,
               _("The question (★ = advised)")),
        column(wording.pick(_("Information"), _("Bits")), lambda r: r.ranked.information_bits,
               wording.pick(_("How much the answer is expected to tell you: a full bar is a "
                              "question that knocks down half the cards either way"),
                            _("Expected information gain of the answer, bits")),
               numeric=wording.details,
               format=lambda v: wording.information(v, 1.0) if not wording.details else number(v, 3),
               # a zero in grey; an empty bar says "nothing" in the text colour (legible)
               foreground=lambda r: _grey() if wording.details and
               (r.ranked.information_bits or 0) <= 1e-12 else None),
        column(wording.pick(_("Yes / no"), _("Split yes / no")), lambda r: f"{r.ranked.yes} / {r.ranked.no}",
               _("Cards still standing on the yes side / the no side")),
        column(wording.pick(_("Cards left"), _("Left")), lambda r: r.ranked.expected_remaining,
               wording.pick(_("How many cards you can expect to be standing after the answer"),
                            _("Expected number of cards standing after the answer")),
               numeric=True,
               format=lambda v: number(v, 1) if wording.details else _("about {n}").format(n=number(v))),
    )


QUESTION_COLUMNS = question_columns(PLAIN)


class QuestionTableModel(ReadOnlyColumnTableModel):
    """The ranked questions of one posterior (rows best first), through
    :data:`QUESTION_COLUMNS`.

    :meth:`set_ranking` takes the engine's ``RankedQuestion`` tuple and the question(s) to star
    (event forms); :meth:`question` returns row ``r``'s question in event form.
    """

    def __init__(self, parent=None):
        super().__init__(question_columns(PLAIN), parent)   # in the language in effect

    def set_ranking(self, ranked: Sequence, starred: Optional[dict] = None,
                    words: Optional[Callable[[dict], str]] = None) -> None:
        """Show ``ranked`` (RankedQuestion, best first); ``starred`` maps a key of
        :func:`question_key` to a tooltip reason for the questions to mark with ★; ``words``
        turns a question (event form) into the text shown (default: the engine's label)."""
        starred = dict(starred or {})
        self.set_rows([QuestionRow(rq, words(rq.question) if words else rq.label,
                                   starred.get(question_key(rq.question))) for rq in ranked])

    def label(self, row: int) -> str:
        """The words shown for row ``row`` (without the star)."""
        return self.row_object(row).label if 0 <= row < self.rowCount() else ""

    def ranking(self) -> list:
        """The RankedQuestion rows shown, best first."""
        return [r.ranked for r in self.rows()]

    def question(self, row: int) -> Optional[dict]:
        """Row ``row``'s question in event form (None when out of range)."""
        return self.row_object(row).ranked.question if 0 <= row < self.rowCount() else None

    def row_of(self, question: Optional[dict]) -> int:
        """The row showing ``question`` (event form), or -1."""
        if question is None:
            return -1
        key = question_key(question)
        for r, row in enumerate(self.rows()):
            if question_key(row.ranked.question) == key:
                return r
        return -1

    def data(self, index: QModelIndex, role=Qt.ItemDataRole.DisplayRole):
        if role in (QuestionRole, SplitRole) and index.isValid() and \
                0 <= index.row() < self.rowCount():
            rq = self.row_object(index.row()).ranked
            return rq.question if role == QuestionRole else (rq.yes, rq.no)
        return super().data(index, role)


def question_key(question: dict) -> str:
    """A canonical string for a question in event form (to compare questions)."""
    import json

    return json.dumps(question, sort_keys=True)


class QuestionView(QTableView):
    """The ranked questions' table, at least as wide as its columns need to show each question
    whole (a question longer than :attr:`MAX_QUESTION_EM` heights of a line is elided, whole in
    its tooltip), so that the splitter it stands in takes that width from its neighbours first.
    Measured again when the questions or the font (a zoom) change."""

    #: The widest the Question column asks to be, in heights of a line of text.
    MAX_QUESTION_EM = 20

    def __init__(self, parent=None):
        super().__init__(parent)
        self._need = 0
        self._queued = False

    def setModel(self, model) -> None:  # noqa: N802 (Qt name)
        super().setModel(model)
        if model is not None:
            for sig in (model.modelReset, model.layoutChanged, model.rowsInserted, model.rowsRemoved):
                sig.connect(self._remeasure)
        self._remeasure()

    def changeEvent(self, event) -> None:  # noqa: N802 (Qt name)
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self._remeasure()

    def _remeasure(self, *_args) -> None:
        if not self._queued:
            self._queued = True
            QTimer.singleShot(0, self, self._measure)   # once the rows are laid out

    def _measure(self) -> None:
        self._queued = False
        hh = self.horizontalHeader()
        widest = round(self.MAX_QUESTION_EM * self.fontMetrics().height())
        columns = 0
        for c in range(hh.count()):
            if hh.isSectionHidden(c):
                continue
            w = max(self.sizeHintForColumn(c), hh.sectionSizeHint(c))
            columns += min(w, widest) if c == COL_QUESTION else w
        vh = self.verticalHeader()
        need = (columns + self.verticalScrollBar().sizeHint().width() + 2 * self.frameWidth()
                + (vh.width() if vh.isVisible() else 0))
        if need != self._need:
            self._need = need
            self.updateGeometry()

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt name)
        hint = super().minimumSizeHint()
        return QSize(max(hint.width(), self._need), hint.height())


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
                             Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, str(yes))
        if no:
            painter.drawText(QRectF(r.left() + wy, r.top(), r.width() - wy - 3, r.height()),
                             Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, str(no))
        painter.restore()
