""""Who is close?" — one horizontal bar per opponent, and the accuse/wait advice line.

:class:`OpponentsStrip` shows, per opponent, the probability that they can name the envelope
(a bar from 0 to 1 with a tick at the alert threshold), its uncertainty (a whisker over the 95 %
Wilson interval and the number of sampled deals when the figure is sampled — Wilson, "Probable
inference, the law of succession, and statistical inference", JASA 22:209, 1927 —, the word
"exact" when it is exact) and their
expected remaining envelope entropy in bits. :class:`AdvicePanel` shows the accuse/wait advice
and the "probably knows" alert. Both are plain widgets fed with numbers (no engine import);
names are always shown as plain text, never interpreted as rich text.
"""
from __future__ import annotations

import html
import math
from dataclasses import dataclass
from typing import Optional, Sequence

from PySide6.QtCore import QLineF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QPainter, QPalette, QPen
from PySide6.QtWidgets import QFrame, QGridLayout, QHBoxLayout, QLabel, QSizePolicy, QToolButton, QVBoxLayout, QWidget

from desktop.shell.appearance import muted_css, muted_style, scheme_style, tone_style
from desktop.shell.locale_format import number
from desktop.shell.locale_format import percent as fmt_percent
from desktop.table.zoom import scaled_size
from desktop.tabs.wording import PLAIN, Wording
from desktop.widgets.unchanged import clear_text
from engines.core.i18n import _

#: Okabe–Ito blue and vermillion (desktop.widgets.belief_plot.PALETTE): below / at or above the
#: alert threshold.
BELOW, ABOVE = "#0072B2", "#D55E00"
NBSP = "\u00a0"


@dataclass(frozen=True)
class KnowsRow:
    """One opponent's figures for :meth:`OpponentsStrip.set_rows`.

    Fields:
        name: the opponent (shown as plain text).
        p: probability that their view determines the envelope, in [0, 1].
        standard_error: its standard error (0 when exact).
        exact: computed exactly (no sampling).
        bits: expected remaining entropy of their envelope belief (bits, >= 0).
        bits_standard_error: its standard error.
        samples: sampled deals (or enumerated deals when exact).
        out: they made a failed accusation (cannot win any more).
        interval: the 95 % Wilson interval ``(lo, hi)`` of ``p`` from the sampled deals
            (``scipy.stats.binomtest(k, n).proportion_ci(method="wilson")``), or None: exact,
            or too few deals for an interval (the engine gives none below its minimum).
    """

    name: str
    p: float
    standard_error: float
    exact: bool
    bits: float
    bits_standard_error: float = 0.0
    samples: int = 0
    out: bool = False
    interval: Optional[tuple] = None


def percent(p: float, exact: bool = True) -> str:
    """``p`` as a whole percentage (no line break inside); a sampled value that rounds to 0 or 100 without being it
    reads "< 1 %" / "> 99 %" (an estimate never claims certainty it does not have)."""
    if not math.isfinite(p):
        return "—"
    p = min(max(p, 0.0), 1.0)
    if not exact or p not in (0.0, 1.0):
        if 0.0 < p < 0.005:
            return f"<{NBSP}1{NBSP}%"
        if 0.995 < p < 1.0:
            return f">{NBSP}99{NBSP}%"
    return f"{100 * p:.0f}{NBSP}%"


class KnowsBar(QWidget):
    """A probability bar: filled to ``p``, a whisker over ``[lo, hi]`` when sampled, a dashed
    tick at the threshold; grey when the opponent is out or the figures are stale."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.p, self.lo, self.hi = 0.0, 0.0, 0.0
        self.exact, self.out, self.stale = True, False, False
        self.threshold = 0.5
        scaled_size(self, min_width=60)
        self.setSizePolicy(QSizePolicy.Expanding, QSizePolicy.Fixed)

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt's method name)
        return QSize(140, 16)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt's method name)
        return QSize(60, 14)

    def set_value(self, p: float, lo: float, hi: float, exact: bool, out: bool, threshold: float) -> None:
        value = (p, lo, hi, exact, out, threshold)
        if value != (self.p, self.lo, self.hi, self.exact, self.out, self.threshold):
            self.p, self.lo, self.hi = p, lo, hi
            self.exact, self.out, self.threshold = exact, out, threshold
            self.update()

    def set_stale(self, stale: bool) -> None:
        if stale != self.stale:
            self.stale = stale
            self.update()

    def paintEvent(self, _event) -> None:  # noqa: N802 (Qt's method name)
        pal = self.palette()
        text = pal.color(QPalette.Text)
        painter = QPainter(self)
        painter.setRenderHint(QPainter.Antialiasing)
        r = QRectF(self.rect()).adjusted(1, 2, -1, -2)
        track = QColor(text)
        track.setAlpha(30)
        painter.setPen(Qt.NoPen)
        painter.setBrush(track)
        painter.drawRoundedRect(r, 3, 3)
        colour = QColor(ABOVE if self.p >= self.threshold else BELOW)
        if self.out or self.stale:
            colour = QColor(text)
            colour.setAlpha(90)
        if self.p > 0:
            fill = QRectF(r.left(), r.top(), r.width() * min(self.p, 1.0), r.height())
            painter.setBrush(colour)
            painter.drawRoundedRect(fill, 3, 3)
        # the threshold
        mid = QColor(text)
        mid.setAlpha(140)
        pen = QPen(mid, 1, Qt.DashLine)
        painter.setPen(pen)
        x = r.left() + r.width() * self.threshold
        painter.drawLine(QLineF(x, r.top() - 1, x, r.bottom() + 1))
        # the interval's whisker
        if not self.exact and self.hi > self.lo:
            painter.setPen(QPen(text, 1.5))
            y = r.center().y()
            x0, x1 = r.left() + r.width() * self.lo, r.left() + r.width() * self.hi
            painter.drawLine(QLineF(x0, y, x1, y))
            painter.drawLine(QLineF(x0, y - 4, x0, y + 4))
            painter.drawLine(QLineF(x1, y - 4, x1, y + 4))
        painter.end()


def value_text(p: float, lo: float, hi: float, samples: int) -> str:
    """A sampled probability as on screen: ``"23 % (12–35, 256 deals)"`` — the estimate, its
    95 % Wilson interval in percent and the number of sampled deals behind it."""
    return (f"{percent(p, False)} ({100 * lo:.0f}–{100 * hi:.0f},{NBSP}"
            + _("{n}\u00a0deals").format(n=number(samples)) + ")")



class OpponentsStrip(QWidget):
    """One row per opponent: name, :class:`KnowsBar`, the probability (with its 95 % Wilson
    interval and the number of sampled deals, or "exact")
    and the expected remaining envelope entropy in bits (see the module docstring)."""

    def __init__(self, parent=None, threshold: float = 0.5):
        super().__init__(parent)
        self.threshold = threshold
        self._grid = QGridLayout(self)
        self._grid.setContentsMargins(0, 2, 0, 2)
        self._grid.setHorizontalSpacing(6)
        self._grid.setVerticalSpacing(3)
        self._grid.setColumnStretch(1, 1)
        self._message = QLabel()
        self._message.setTextFormat(Qt.PlainText)
        self._message.setWordWrap(True)
        muted_style(self._message)
        self._grid.addWidget(self._message, 0, 0, 1, 4)
        self._rows: list[tuple] = []          # (name label, bar, value label, bits label)
        self._data: list[KnowsRow] = []
        self._stale = False

    # -- content ---------------------------------------------------------------------------
    def set_rows(self, rows: Sequence[KnowsRow], wording: Wording = PLAIN) -> None:
        """Show ``rows`` (one per opponent, in order), worded as ``wording`` says (plain: the
        chance, "about" when sampled; Details: the interval, the sample count and the bits)."""
        rows = list(rows)
        if [r.name for r in rows] != [r.name for r in self._data] or len(self._rows) != len(rows):
            self._rebuild(len(rows))
        self._data = rows
        self._message.hide()
        for row, (name, bar, value, bits) in zip(rows, self._rows):
            name.setText(row.name)
            if row.exact:
                lo = hi = row.p
            elif row.interval is not None:
                lo, hi = row.interval
            else:
                lo = hi = row.p         # too few deals for an interval: no whisker
            bar.set_value(row.p, lo, hi, row.exact, row.out, self.threshold)
            bar.set_stale(self._stale)
            if row.out:
                value.setText(_("out"))
            elif not wording.details:
                value.setText(percent(row.p, False) if row.exact
                              else _("about\u00a0{chance}").format(chance=percent(row.p, False)))
            elif row.exact:
                value.setText(_("{chance} exact").format(chance=percent(row.p)))
            elif row.interval is not None:
                value.setText(value_text(row.p, lo, hi, row.samples))
            else:
                value.setText(f"≈{NBSP}" + _("{chance}\u00a0({n}\u00a0deals)").format(
                    chance=percent(row.p, False), n=number(row.samples)))
            bits.setText(_("{value} bits").format(value=number(row.bits, 1)) if wording.details else "")
            bits.setVisible(wording.details)
            bar.setAccessibleName(f"{row.name}: {value.text()}"
                                  + (f", {bits.text()}" if wording.details else ""))
            tip = self._tooltip(row, lo, hi) if wording.details else self._plain_tooltip(row)
            for w in (name, bar, value, bits):
                w.setToolTip(tip)
            for w in (name, value, bits):
                w.setEnabled(not row.out)

    def clear(self, message: str = "") -> None:
        """No figures: show ``message`` (plain text) instead."""
        self._rebuild(0)
        self._data = []
        self._message.setText(message)
        self._message.setVisible(bool(message))

    def set_stale(self, stale: bool) -> None:
        """Grey the bars while newer figures are computed."""
        self._stale = stale
        for _name, bar, value, bits in self._rows:
            bar.set_stale(stale)
            for label in (value, bits):   # a style sheet set only when it changes
                scheme_style(label, muted_css if stale else str)   # str(): no style

    def rows(self) -> list:
        """The :class:`KnowsRow` shown (empty when cleared)."""
        return list(self._data)

    def row_texts(self) -> list:
        """``[(name, value text, bits text)]`` as on screen (for tests and accessibility)."""
        return [(n.text(), v.text(), b.text()) for n, _, v, b in self._rows]

    def message(self) -> str:
        return self._message.text() if not self._message.isHidden() else ""

    # -- internals -------------------------------------------------------------------------
    def _rebuild(self, n: int) -> None:
        for widgets in self._rows:
            for w in widgets:
                self._grid.removeWidget(w)
                w.hide()            # out of the layout: not drawn over the new rows meanwhile
                w.deleteLater()
        self._rows = []
        for i in range(n):
            name = QLabel()
            name.setTextFormat(Qt.PlainText)
            bar = KnowsBar()
            value = QLabel()
            value.setTextFormat(Qt.PlainText)
            value.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            bits = QLabel()
            bits.setTextFormat(Qt.PlainText)
            bits.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            for col, w in enumerate((name, bar, value, bits)):
                self._grid.addWidget(w, i + 1, col)
            self._rows.append((name, bar, value, bits))

    def _plain_tooltip(self, row: KnowsRow) -> str:
        name = html.escape(row.name)
        if row.out:
            return "<p>" + _("<b>{player}</b> is out of the game (a failed accusation).").format(player=name) + "</p>"
        how = (_("counted over every deal your log allows") if row.exact else
               _("estimated from deals drawn at random (View → Show details gives the margin)"))
        return "<p>" + _("The chance that <b>{player}</b> can already name the envelope from what they "
                         "have seen, now: {chance} ({how}).").format(player=name, chance=percent(row.p, False),
                                                                    how=how) + "</p>"

    def _tooltip(self, row: KnowsRow, lo: float, hi: float) -> str:
        name = html.escape(row.name)
        if row.exact:
            how = _("exact: every deal consistent with your log enumerated")
        elif row.interval is not None:
            how = _("estimated from {n} sampled deals; 95 % Wilson interval: "
                    "{low} – {high}").format(n=number(row.samples), low=fmt_percent(lo, 1),
                                             high=fmt_percent(hi, 1))
        else:
            how = _("estimated from {n} sampled deals, too few for an interval; "
                    "more are being sampled").format(n=number(row.samples))
        bits = _("{value} bits").format(value=number(row.bits, 2))
        if not row.exact and row.bits_standard_error > 0:
            bits += f" (± {number(2 * row.bits_standard_error, 2)})"
        out = ("<br><i>" + _("Out of the game (a failed accusation).") + "</i>") if row.out else ""
        return "<p>" + _("<b>{player}</b> can name the envelope now with probability "
                         "{p} ({how}).<br>Their expected remaining uncertainty about the "
                         "envelope: {bits} (0 = they know it).").format(
            player=name, p=number(row.p, 3), how=how, bits=bits) + out + "</p>"


class AdvicePanel(QFrame):
    """The accuse/wait advice in one line, and an alert line when an opponent probably knows.

    Signals:
        detailsRequested(): the "Who is close?" button was pressed.
    """

    detailsRequested = Signal()

    def __init__(self, rule_text: str, parent=None):
        super().__init__(parent)
        self.setFrameShape(QFrame.StyledPanel)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 4, 6, 4)
        lay.setSpacing(2)
        top = QHBoxLayout()
        top.setSpacing(8)
        self.verdict = QLabel()
        self.verdict.setTextFormat(Qt.PlainText)
        top.addWidget(self.verdict)
        self.detail = QLabel()
        self.detail.setTextFormat(Qt.PlainText)
        self.detail.setWordWrap(True)
        top.addWidget(self.detail, 1)
        self.details_button = QToolButton()
        self.details_button.setText(_("Who is close?") + " ›")
        self.details_button.setAutoRaise(True)
        self.details_button.setToolTip(_("Show each opponent's chance of knowing the envelope"))
        self.details_button.clicked.connect(self.detailsRequested)
        top.addWidget(self.details_button, 0, Qt.AlignmentFlag.AlignTop)
        lay.addLayout(top)
        self.alert = QLabel()
        self.alert.setTextFormat(Qt.PlainText)
        self.alert.setWordWrap(True)
        self.alert.hide()
        lay.addWidget(self.alert)
        self.rule_text = rule_text
        self._stale = False
        self.set_pending("")

    def set_advice(self, verdict: str, detail: str, accuse: bool) -> None:
        """Show ``verdict`` ("Accuse now" / "Wait"), emphasised, and ``detail`` (plain text)."""
        tone_style(self.verdict, "#1b5e20" if accuse else "#0d47a1", "; font-weight:bold")
        self.verdict.setText(verdict)
        self.verdict.show()
        self.detail.setText(detail)
        scheme_style(self.detail, str)   # str(): no style
        self._stale = False
        self._tips(self.rule_text)

    def set_stale(self, text: str) -> None:
        """New advice is being computed: the advice on screen, if any, stays where it is in
        grey (the app's mark of figures that belong to an earlier log), ``text`` heading its
        tooltip, until :meth:`set_advice` or :meth:`set_pending` replaces it; so the panel keeps
        its lines and the ranking beside it is not laid out twice per entry. With no advice
        on screen, :meth:`set_pending` of ``text``."""
        if self.verdict.isHidden():
            self.set_pending(text)
            return
        self._stale = True
        scheme_style(self.verdict, lambda: f"{muted_css()}; font-weight:bold")
        muted_style(self.detail)
        if not self.alert.isHidden():
            muted_style(self.alert)
        self._tips(f"{text}\n\n{self.rule_text}")

    def is_stale(self) -> bool:
        """Whether the advice on screen is greyed while new advice is computed."""
        return self._stale

    def set_pending(self, text: str) -> None:
        """No advice yet (or none possible): ``text`` in grey."""
        clear_text(self.verdict)
        self.verdict.hide()
        self.detail.setText(text)
        muted_style(self.detail)
        self._stale = False
        self._tips(self.rule_text)

    def _tips(self, tip: str) -> None:
        for w in (self, self.verdict, self.detail):
            w.setToolTip(tip)

    def set_alert(self, text: str) -> None:
        """The alert line (plain text, warning colours); "" hides it."""
        self.alert.setText(text)
        tone_style(self.alert, "#b71c1c", "; font-weight:bold")
        self.alert.setVisible(bool(text))

    def alert_text(self) -> str:
        """The alert for the log on screen; "" while there is none or it is greyed."""
        return self.alert.text() if not self.alert.isHidden() and not self._stale else ""

    def verdict_text(self) -> str:
        """The advice for the log on screen ("Accuse now" / "Wait"); "" while there is none or
        the one shown is greyed (:meth:`set_stale`)."""
        return self.verdict.text() if not self.verdict.isHidden() and not self._stale else ""
