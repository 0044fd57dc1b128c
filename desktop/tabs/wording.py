"""Plain words or the technical figures: how every view of a tab words its numbers.

A player reads plain words by default ("about 9 % (between 5 and 16 %)", "Information ▮▮▮▯▯",
"Uncertainty"); View → Show details restores the figures behind them (the 95 % interval and
the number of sampled deals, bits, model parameters and their symbols). The choice is one
value, :class:`Wording`, that each tab's controller publishes in its
:class:`desktop.tabs.snapshot.Snapshot` (:meth:`desktop.tabs.controller.GameController.set_wording`):
the views word what they show from the snapshot they render and nothing else, so a toggle
re-renders the tab at once and no inference runs again.

Needs no window (the tests check the words without one); the numbers are written by
:mod:`desktop.shell.locale_format` (QtCore's QLocale) in the app's language.
"""
from __future__ import annotations

import dataclasses
import math
from typing import Optional

from desktop.shell import locale_format
from engines.core.i18n import _, ngettext

#: Non-breaking space between a number and its unit.
NBSP = "\u00a0"
#: The cells of an information bar: filled, empty.
BAR_FULL, BAR_EMPTY = "▮", "▯"
#: Cells of an information bar.
BAR_CELLS = 5


def percent(p: Optional[float]) -> str:
    """``p`` (a probability) as a whole percentage, "<1 %" and ">99 %" at the ends, "—" for
    a missing or non-finite value."""
    if p is None or not math.isfinite(p):
        return "—"
    if 0 < p < 0.005:
        return "<" + locale_format.percent(0.01, 0)
    if 0.995 < p < 1:
        return ">" + locale_format.percent(0.99, 0)
    return locale_format.percent(p, 0)


def information_bar(bits: Optional[float], top: Optional[float]) -> str:
    """A bar of :data:`BAR_CELLS` cells filled in proportion ``bits / top`` (the best
    option's ``bits``: the best fills the bar); "—" for a missing value. At least one cell is
    filled for any positive amount, none for nothing."""
    if bits is None or not math.isfinite(bits):
        return "—"
    if not top or top <= 0 or bits <= 1e-12:
        filled = 0
    else:
        filled = max(1, min(BAR_CELLS, round(BAR_CELLS * bits / top)))
    return BAR_FULL * filled + BAR_EMPTY * (BAR_CELLS - filled)


@dataclasses.dataclass(frozen=True)
class Wording:
    """How a tab words its numbers.

    Attributes:
        details: False (the default): plain words for a player; True: the technical figures
            too (intervals with their sample counts, bits, model parameters and symbols).
    """

    details: bool = False

    def pick(self, plain: str, details: str) -> str:
        """``details`` in the Details view, else ``plain``."""
        return details if self.details else plain

    def chance(self, p: Optional[float], interval: Optional[tuple] = None,
               samples: Optional[int] = None) -> str:
        """A probability as a player reads it: "9 %"; estimated from sampled deals (an
        ``interval`` (low, high) given): "about 9 % (between 5 and 16 %)". In the Details view
        the interval is named with its level and sample count: "9 % (95 % interval 5–16,
        128 deals)"."""
        text = percent(p)
        if interval is None or p is None:
            return text
        lo, hi = (float(x) for x in interval)
        if self.details:
            if samples:
                return ngettext("{chance} ({level} interval {low}–{high}, {n} deal)",
                                "{chance} ({level} interval {low}–{high}, {n} deals)", samples).format(
                    chance=text, level=locale_format.percent(0.95, 0), low=locale_format.number(100 * lo),
                    high=locale_format.number(100 * hi), n=locale_format.number(samples))
            return _("{chance} ({level} interval {low}–{high})").format(
                chance=text, level=locale_format.percent(0.95, 0), low=locale_format.number(100 * lo),
                high=locale_format.number(100 * hi))
        return _("about {chance} (between {low} and {high})").format(
            chance=text, low=locale_format.number(100 * lo), high=locale_format.percent(hi, 0))

    def information(self, bits: Optional[float], top: Optional[float], *,
                    approximate: bool = False, unit: bool = True) -> str:
        """How much an option tells: a bar relative to the best option (``top``) by default,
        "1.23 bits" in the Details view (``approximate``: "≈1.23 bits"; ``unit=False``: the
        number alone, under a "Bits" header)."""
        if self.details:
            if bits is None or not math.isfinite(bits):
                return "—"
            value = ("≈" if approximate else "") + locale_format.number(bits, 2)
            return _("{value} bits").format(value=value) if unit else value
        return information_bar(bits, top)

    def uncertainty(self, bits: Optional[float]) -> str:
        """How open a question still is: "about 3 equally likely answers" (2 ** bits, the
        perplexity) by default, "entropy 1.58 bits" in the Details view."""
        if bits is None or not math.isfinite(bits):
            return "—"
        if self.details:
            return _("entropy {value} bits").format(value=locale_format.number(bits, 2))
        n = 2 ** bits
        if n < 1.05:
            return _("settled")
        if n < 1.5:
            return _("nearly settled")
        return _("as open as {n} equally likely answers").format(n=locale_format.number(n))


#: The default wording (plain words).
PLAIN = Wording()
#: The Details view.
DETAILS = Wording(details=True)
