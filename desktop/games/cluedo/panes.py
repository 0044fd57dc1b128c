"""Panes of the Cluedo tab that present a moment: "Who is close?" — one bar per opponent for
the chance that what they have seen already tells them the envelope, and the plot of that
chance over the game.

The pane draws what it is given for the moment shown (:class:`desktop.tabs.snapshot.Snapshot`:
its moment, log length and wording) and the opponents' estimate of that moment
(:class:`desktop.games.cluedo.opponents.OpponentsView`, computed by the tab's tracker), never
the document or the timeline (docs/ARCHITECTURE.md, "One moment on screen").
"""
from __future__ import annotations

import re
from typing import Optional

import pyqtgraph as pg
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QFrame, QLabel, QVBoxLayout, QWidget

from desktop.games.cluedo.opponents import LIKELY_KNOWS, OpponentsView
from desktop.games.cluedo.opponents_view import KnowsRow, OpponentsStrip, percent
from desktop.shell.appearance import tone
from desktop.tabs.snapshot import Snapshot
from desktop.widgets.belief_plot import BeliefPlot
from desktop.widgets.vscroll import NeededHeightContent, VerticalScroll

#: The tooltip of the pane's title: plain words, then the Details view's.
TITLE_TIP = (
    "The chance that what each opponent has seen (their hand, every suggestion's public "
    "part, failed accusations, the cards shown to them) already tells them the "
    "envelope, now. \"About\": estimated from deals drawn at random (View → Show "
    f"details gives the margin). The dashed tick marks the warning level "
    f"({percent(LIKELY_KNOWS)}).",
    "The chance that what each opponent has seen (their hand, every suggestion's public "
    "part, failed accusations, the cards shown to them) already determines the "
    "envelope. When the figure is sampled, the bar's whisker and the brackets give its 95 % "
    "Wilson interval and the number of sampled deals behind it; "
    f"the dashed tick marks the alert threshold ({percent(LIKELY_KNOWS)}). Bits: their "
    "expected remaining uncertainty about the envelope.")


def knows_rows(est) -> list:
    """The strip's rows (:class:`KnowsRow`) of an :class:`engines.cluedo.opponents.OpponentsEstimate`:
    one per opponent, with the engine's 95 % Wilson interval when the figure is sampled."""
    return [KnowsRow(o.player, o.p_knows_envelope, o.standard_error, o.exact,
                     o.envelope_entropy_bits, o.entropy_standard_error,
                     o.samples, o.out, None if o.exact else o.interval)
            for o in est.opponents.values()]


def who_title(k: int, n: int, how: str) -> str:
    """The pane's title for moment ``k`` of a log of ``n`` entries; ``how``: how the figures
    were had (exact, estimated, computing…)."""
    scope = "After the whole log" if k >= n else f"As after entry {k} of {n}"
    # "now" here, "before your next turn" in the advice beside: the same words for the same
    # two questions, so 0 % here and 72 % there read as different questions, not a conflict
    return (f"{scope} · can each opponent name the envelope now? (The advice counts their "
            f"next suggestions too: before your next turn.) · {how}")


def assumed_model(est, details: bool) -> str:
    """The suggestion model the opponents' figures assume, in words ("" for none); its ρ only
    in the Details view."""
    if not est.rhos:
        return ""
    return est.assumes if details else re.sub(r"\s*\(ρ[^)]*\)", "", est.assumes)


class WhoIsClosePane(VerticalScroll):
    """The side panel's "Who is close?" page: the strip (one bar per opponent) above the plot
    of each opponent's chance of knowing the envelope over the game; it scrolls when it is
    short (1280×720 with History above it), so the plot keeps its least height.

    Attributes:
        title: the line naming the moment and how its figures were had; strip: the
        :class:`OpponentsStrip`; plot: the :class:`BeliefPlot` over the game.
    """

    def __init__(self, parent: Optional[QWidget] = None):
        super().__init__(parent=parent)
        page = NeededHeightContent()   # the plot takes the height left (stretch)
        lay = QVBoxLayout(page)
        lay.setContentsMargins(4, 4, 4, 0)
        self.title = QLabel()
        self.title.setTextFormat(Qt.PlainText)
        self.title.setWordWrap(True)
        lay.addWidget(self.title)
        self.strip = OpponentsStrip(threshold=LIKELY_KNOWS)
        lay.addWidget(self.strip)
        self.plot = BeliefPlot("Chance each opponent can name the envelope", y_label="probability")
        self.threshold_line = pg.InfiniteLine(pos=LIKELY_KNOWS, angle=0, movable=False)
        self.threshold_line.setToolTip(f"alert threshold: {percent(LIKELY_KNOWS)}")
        self._style_threshold_line()
        self.plot.add_item(self.threshold_line)
        lay.addWidget(self.plot, 1)
        self.setWidget(page)
        self.setFrameShape(QFrame.Shape.NoFrame)

    def _style_threshold_line(self) -> None:
        colour = QColor(tone("#b71c1c"))     # the alert's colour, for the palette in use
        colour.setAlpha(150)
        self.threshold_line.setPen(pg.mkPen(colour, style=Qt.DotLine))

    def changeEvent(self, event) -> None:  # noqa: N802 (Qt name)
        super().changeEvent(event)
        if event.type() in (QEvent.PaletteChange, QEvent.ApplicationPaletteChange):
            self._style_threshold_line()

    def render(self, snap: Snapshot, view: OpponentsView, refining: bool) -> None:
        """Draw the opponents' estimate ``view`` of the moment shown (``snap``); ``refining``:
        more sampled deals are on their way."""
        est, wording = view.estimate, snap.wording
        self.strip.set_stale(False)
        self.strip.set_rows(knows_rows(est), wording)
        how = "exact" if est.exact else wording.pick("estimated", f"{est.samples:,} sampled deals")
        assumes = assumed_model(est, wording.details)
        if assumes:
            how += f" · {assumes}"
        if refining and not view.complete:
            how += " · refining…"
        self.title.setText(who_title(view.k, snap.n, how))

    def show_computing(self, snap: Snapshot, k: int) -> None:
        """The estimate of moment ``k`` is being computed: the bars on screen stay, greyed."""
        self.strip.set_stale(True)
        self.title.setText(who_title(k, snap.n, "computing…"))

    def clear(self, message: str) -> None:
        """No figures: ``message`` says why."""
        self.strip.clear(message)
        self.title.setText("")

    def show_series(self, series: dict, marker: Optional[int]) -> None:
        """Each opponent's chance after every entry computed so far; the moment's marker."""
        self.plot.set_series(series)
        self.plot.set_marker(marker)
