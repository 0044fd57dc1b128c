"""Panes of the Cluedo tab that present a moment: "Who is close?" — one bar per opponent for
the chance that what they have seen already tells them the envelope, and the plot of that
chance over the game; the best suggestions (:class:`SuggestionRanking`) and "Accuse or wait"
(:class:`AccuseAdvice`).

The pane draws what it is given for the moment shown (:class:`desktop.tabs.snapshot.Snapshot`:
its moment, log length and wording) and the opponents' estimate of that moment
(:class:`desktop.games.cluedo.estimates.OpponentsView`, computed by the tab's tracker), never
the document or the timeline (docs/ARCHITECTURE.md, "One moment on screen").
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Optional

import pyqtgraph as pg
from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QComboBox, QFrame, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from desktop.games.cluedo.estimates import LIKELY_KNOWS, OpponentsView
from desktop.games.cluedo.opponents_view import AdvicePanel, KnowsRow, OpponentsStrip, percent
from desktop.shell.appearance import muted_style, tone, tone_style
from desktop.shell.locale_format import number
from desktop.tabs.snapshot import Snapshot, Status
from desktop.tabs.wording import PLAIN, Wording
from desktop.widgets.belief_plot import BeliefPlot
from desktop.widgets.plain_text import as_rich_plain
from desktop.widgets.ranking import Column, RankingTable
from desktop.widgets.unchanged import clear_text
from desktop.widgets.vscroll import NeededHeightContent, VerticalScroll
from engines.cluedo.opponents import MIN_INTERVAL_SAMPLES
from engines.core.i18n import N_, _, ngettext

#: The methods' names in the Details view (the technical ones) …
METHOD_LABELS = {"exact": N_("Exact (count deals)"), "center": N_("Analytical center (cvxpy)"),
                 "montecarlo": N_("Monte Carlo (exact sampling)")}
#: … and in plain words.
METHOD_WORDS = {"exact": N_("Exact"), "center": N_("Quick estimate"),
                "montecarlo": N_("Random deals (estimate)")}
#: When to accuse, in a player's words (the rule with its symbols is the Details view's tooltip);
#: marked only: translated where it is shown (``_(RULE_WORDS)``).
RULE_WORDS = N_("Accuse now when your best guess is at least as likely to be right as it is that "
                "every opponent fails to name the envelope before your next turn.\n"
                "Your best guess: the most likely suspect, weapon and room, with the chance it is "
                "right.\nBefore your next turn: what each opponent knows now, plus one more "
                "suggestion each (they all move before you do).")


def method_label(method: str, wording: Wording) -> str:
    """The name of an inference method as ``wording`` words it (translated)."""
    return _(wording.pick(METHOD_WORDS.get(method, method), METHOD_LABELS.get(method, method)))


@dataclass(frozen=True)
class RankedSuggestion:
    """One row of the best suggestions: the triple, its information gain in bits, whether it
    was counted exactly, and the sample size of the estimate otherwise."""

    suspect: str
    weapon: str
    room: str
    bits: float
    exact: bool
    samples: int
    top: float = 0.0            # the best row's bits: a full bar in plain words


def suggestion_columns(wording: Wording) -> tuple:
    """The best suggestions' columns: "Information" as a bar relative to the best suggestion
    by default, "Bits" in the Details view."""
    return (
        Column(_("Suspect"), lambda r: r.suspect),
        Column(_("Weapon"), lambda r: r.weapon),
        Column(_("Room"), lambda r: r.room),
        Column(wording.pick(_("Information"), _("Bits")),
               lambda r: wording.information(r.bits, r.top, approximate=not r.exact, unit=False),
               numeric=wording.details,
               tooltip=lambda r: wording.pick(
                   (_("How much this suggestion's answer is expected to tell you about the "
                      "envelope: a full bar is the best suggestion") if r.exact else
                    _("How much this suggestion's answer is expected to tell you about the "
                      "envelope: a full bar is the best suggestion (estimated from deals drawn at random)")),
                   (_("exact: counted over every consistent deal") if r.exact else
                    _("estimated from {n} uniformly sampled deals").format(n=number(r.samples))))),
    )


SUGGESTION_COLUMNS = suggestion_columns(PLAIN)


def how_often(p: float) -> str:
    """A chance as a player says it: "every time", "nearly always", "most of the time", "about
    half the time", "now and then", "rarely" (then the percentage)."""
    if p >= 0.995:
        return _("for certain")
    if p >= 0.9:
        text = _("nearly always ({chance})")
    elif p >= 0.6:
        text = _("most of the time ({chance})")
    elif p >= 0.4:
        text = _("about half the time ({chance})")
    elif p >= 0.15:
        text = _("now and then ({chance})")
    else:
        text = _("rarely ({chance})")
    return text.format(chance=percent(p))


def advice_source(method: str | None, wording: Wording) -> str:
    """The advice's note on where its figures come from when the worksheet shows another
    method's (``""`` under the exact count). The advice needs the chance of a whole triple and
    of an opponent's knowledge, which only the deals give (counted, or drawn at random when
    there are too many); the quick estimate gives each card's chance alone, and a triple's is
    not the product of its cards' (they are dependent), so the advice cannot take its figures
    from it: it says that they come from the deals, so 50 % beside a worksheet's 40 % is not
    read as a slip."""
    if method in (None, "exact"):
        return ""
    return " " + _("(These figures come from the possible deals; the worksheet's from "
                   "“{method}”.)").format(method=method_label(method, wording))


def plain_advice(scope: str, triple, p_correct: float, q: str, accuse: bool) -> str:
    """The accuse/wait advice in a player's words: how often the best guess is right, and the
    chance that an opponent names the envelope before your next turn (``q``, worded)."""
    guess = ", ".join(triple)
    if accuse:
        text = _("{guess} is right {how_often}, and an opponent may name the "
                 "envelope before your next turn: {chance}.")
    else:
        text = _("{guess} would be right {how_often}; an opponent names the "
                 "envelope before your next turn with a chance of {chance}: waiting for more clues is "
                 "the better bet.")
    return scope + text.format(guess=guess, how_often=how_often(p_correct), chance=q)


#: The tooltip of the pane's title: plain words, then the Details view's.
#: (marked only: translated where shown, with ``{threshold}`` filled: :func:`title_tip`)
TITLE_TIP = (
    N_("The chance that what each opponent has seen (their hand, every suggestion's public "
       "part, failed accusations, the cards shown to them) already tells them the "
       "envelope, now. \"About\": estimated from deals drawn at random (View → Show "
       "details gives the margin). The dashed tick marks the warning level "
       "({threshold})."),
    N_("The chance that what each opponent has seen (their hand, every suggestion's public "
       "part, failed accusations, the cards shown to them) already determines the "
       "envelope. When the figure is sampled, the bar's whisker and the brackets give its 95 % "
       "Wilson interval and the number of sampled deals behind it; "
       "the dashed tick marks the alert threshold ({threshold}). Bits: their "
       "expected remaining uncertainty about the envelope."))


def title_tip() -> tuple[str, str]:
    """:data:`TITLE_TIP` translated, plain words then the Details view's."""
    return tuple(_(t).format(threshold=percent(LIKELY_KNOWS)) for t in TITLE_TIP)


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
    scope = _("After the whole log") if k >= n else _("As after entry {k} of {n}").format(k=k, n=n)
    # "now" here, "before your next turn" in the advice beside: the same words for the same
    # two questions, so 0 % here and 72 % there read as different questions, not a conflict
    return _("{scope} · can each opponent name the envelope now? (The advice counts their "
             "next suggestions too: before your next turn.) · {how}").format(scope=scope, how=how)


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
        # "chance" (the title's word): short enough for the plot's height in every language
        # ("Wahrscheinlichkeit" was cut at 1280×800)
        self.plot = BeliefPlot(_("Chance each opponent can name the envelope"), y_label=_("chance"))
        self.threshold_line = pg.InfiniteLine(pos=LIKELY_KNOWS, angle=0, movable=False)
        self.threshold_line.setToolTip(_("alert threshold: {threshold}").format(threshold=percent(LIKELY_KNOWS)))
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
        how = _("exact") if est.exact else wording.pick(
            _("estimated"), _("{n} sampled deals").format(n=number(est.samples)))
        assumes = assumed_model(est, wording.details)
        if assumes:
            how += f" · {assumes}"
        if refining and not view.complete:
            how += " · " + _("refining…")
        self.title.setText(who_title(view.k, snap.n, how))

    def show_computing(self, snap: Snapshot, k: int) -> None:
        """The estimate of moment ``k`` is being computed: the bars on screen stay, greyed."""
        self.strip.set_stale(True)
        self.title.setText(who_title(k, snap.n, _("computing…")))

    def clear(self, message: str) -> None:
        """No figures: ``message`` says why."""
        self.strip.clear(message)
        self.title.setText("")

    def show_series(self, series: dict, marker: Optional[int]) -> None:
        """Each opponent's chance after every entry computed so far; the moment's marker."""
        self.plot.set_series(series)
        self.plot.set_marker(marker)


class SuggestionRanking(QObject):
    """The best suggestions of the moment shown: their title and room filter (:attr:`head`),
    the table, the note under it, and the "Ready to accuse" line (:attr:`accuse`); the tab
    places them. :meth:`render` draws the ranking advisor's answer carried by the
    :class:`Snapshot` (``snap.advice["recommend"]``: an
    :class:`engines.cluedo.recommend.Recommendation`), and nothing else.

    Signals:
        roomChanged(object): the room the ranking is asked for (None: any room).
        suggestionChosen(object): a row double-clicked (a :class:`RankedSuggestion`).
    """

    roomChanged = Signal(object)
    suggestionChosen = Signal(object)

    def __init__(self, parent: Optional[QObject] = None):
        super().__init__(parent)
        self.head = QHBoxLayout()
        self.title = QLabel()
        self.title.setWordWrap(True)
        self.head.addWidget(self.title, 1)
        self.room = QComboBox()
        self.room.setSizeAdjustPolicy(QComboBox.AdjustToContents)
        self.room.setMinimumContentsLength(16)
        self.head.addWidget(self.room)
        self.room.currentIndexChanged.connect(
            lambda *_a: self.roomChanged.emit(self.room.currentData()))
        self.table = RankingTable(suggestion_columns(PLAIN), stretch=True,
                                  tooltip=_("Double-click to put this suggestion in the form"))
        self.table.setAccessibleName(_("Best suggestions"))
        self.table.rowActivated.connect(
            lambda row: self.suggestionChosen.emit(self.table.row_object(row)))
        self.note = QLabel()
        self.note.setWordWrap(True)
        muted_style(self.note)
        self.accuse = QLabel()
        tone_style(self.accuse, "#1b5e20", "; font-weight:bold")

    def set_setup(self, setup: Any) -> None:
        """A new game (``cluedo.Setup``): its rooms in the filter (any room first), no rows."""
        self.room.blockSignals(True)
        self.room.clear()
        self.room.addItem(_("any room"), None)
        for cat, cards in setup.categories:
            if cat == "room":
                for c in cards:
                    self.room.addItem(_("in the {room}").format(room=c), c)
        self.room.blockSignals(False)
        self.table.clear_rows()
        clear_text(self.accuse)

    def set_wording(self, wording: Wording) -> None:
        self.table.set_columns(suggestion_columns(wording))

    def show_cancelled(self, not_computed: str) -> None:
        self.note.setText(_("Best suggestions: {reason}.").format(reason=not_computed))

    def render(self, snap: Snapshot) -> bool:
        """Draw the ranking of ``snap``'s moment; True when it is settled there (shown, or
        none: an impossible log, the advisor's error), False while it is computed (the rows
        on screen stay)."""
        if snap.status is Status.CONTRADICTION or snap.status is Status.ERROR:
            self.table.clear_rows()
            clear_text(self.accuse)   # nothing is "ready" while the log is impossible
            self.note.setText(_("No recommendation while the log is impossible: fix the "
                                "highlighted entry first."))
            return True
        advice = snap.advice_for("recommend")
        if advice is None:
            clear_text(self.accuse)   # the ranking on screen is not of this moment yet
            if snap.status is not Status.CANCELLED:
                self.note.setText(_("Computing the best suggestions…"))
            return False
        if advice.error is not None:
            self.table.clear_rows()
            self.note.setText(as_rich_plain(_("No recommendation: {error}").format(error=advice.error)))
            return True
        self._show(advice.value, not advice.final, snap)
        return True

    def _show(self, rec, counting: bool, snap: Snapshot) -> None:
        rows = rec.suggestions[:12]
        if rows:
            shown_exact = sum(rec.is_exact(s, w, room) for s, w, room, _ in rows)
            note = _("Double-click a suggestion to put it in the form.")
            details = snap.wording.details
            if counting:
                note = (_("≈ estimated from {n} sampled deals; counting the best "
                          "exactly…").format(n=number(rec.samples)) if details else
                        _("Estimated for now; counting the best exactly…"))
            elif shown_exact < len(rows):
                note += " " + (_("≈: estimated from {n} sampled deals (no time left to count "
                                 "it exactly).").format(n=number(rec.samples)) if details else
                               _("Some are estimates (no time left to count them exactly)."))
        else:
            note = (_("The envelope is certain: accuse!") if rec.accusation else
                    _("No suggestion can tell you more."))
        if not snap.live:
            note = _("Ranked {scope}. {note}").format(scope=snap.scope(), note=note)
        self.note.setText(note)
        top = max((bits for *_t, bits in rows), default=0.0)
        self.table.set_rows([RankedSuggestion(s, w, room, bits, rec.is_exact(s, w, room),
                                              rec.samples, top)
                             for s, w, room, bits in rows])
        if rec.accusation and snap.status is Status.READY:
            cards = ", ".join(rec.accusation)
            text = (_("Ready to accuse: {cards}") if snap.live else
                    _("As after entry {k}: Ready to accuse: {cards}"))
            self.accuse.setText(as_rich_plain(text.format(k=snap.k, cards=cards)))
        else:
            clear_text(self.accuse)


class AccuseAdvice(AdvicePanel):
    """"Accuse or wait" for the moment shown: the verdict of
    :func:`desktop.games.cluedo.estimates.make_advice` (carried by the opponents' estimate of
    the moment, :class:`OpponentsView`) in words, and the alert naming the opponents who probably
    know the envelope (the criterion in words: :data:`RULE_WORDS`)."""

    def __init__(self, parent: Optional[QWidget] = None):
        super().__init__(_(RULE_WORDS), parent)

    def render(self, snap: Snapshot, view: OpponentsView, method: Optional[str]) -> bool:
        """Draw ``view`` (the opponents' estimate of ``snap``'s moment) for a worksheet computed
        by ``method``; returns whether an opponent probably knows the envelope."""
        est, wording = view.estimate, snap.wording
        assumes = assumed_model(est, wording.details)
        adv = view.advice
        if adv is None:
            self.set_stale(_("Accuse or wait: computing your best triple…"))
        else:
            accuse = adv.advice == "accuse now"
            q = percent(adv.p_opponent_knows_before_my_turn, False)
            if not est.exact and est.p_any_next_interval is not None:
                # Wilson, from the look-ahead's deals
                q = wording.chance(adv.p_opponent_knows_before_my_turn, est.p_any_next_interval,
                                   est.samples)
            elif not est.exact and not wording.details:
                q = _("about\u00a0{chance}").format(chance=q)
            elif not est.exact:
                # "≈" as the strip beside it marks an estimate without an interval; as long as the
                # interval's text, so the panel keeps its lines when the interval comes
                q = "≈\u00a0" + _("{chance} (from {n} deals so far; an interval from "
                                  "{least})").format(chance=q, n=number(est.samples),
                                                     least=MIN_INTERVAL_SAMPLES)
            scope = "" if view.k >= snap.n else _("As after entry {k}: ").format(k=view.k)
            if wording.details:
                detail = scope + _("{guess}: right with {chance}. "
                                   "Before your next turn, an opponent can name the envelope (what they "
                                   "know now, plus one suggestion each): {opponent}.").format(
                    guess=", ".join(adv.triple), chance=percent(adv.p_correct), opponent=q)
            else:
                detail = plain_advice(scope, adv.triple, adv.p_correct, q, accuse)
            if assumes:
                detail += f" ({assumes[0].upper()}{assumes[1:]}.)"
            detail += advice_source(method, wording)
            self.set_advice(_("Accuse now") if accuse else _("Wait"), detail, accuse)
        knowers = view.likely_knowers(LIKELY_KNOWS)
        if knowers:
            who = ", ".join((_("{player} ({chance}, exact)") if exact else _("{player} ({chance})")).format(
                player=name, chance=percent(p, exact)) for name, p, exact in knowers)
            self.set_alert("⚠ " + ngettext("{players} probably knows the envelope (alert at ≥ {threshold}).",
                                           "{players} probably know the envelope (alert at ≥ {threshold}).",
                                           len(knowers)).format(players=who, threshold=percent(LIKELY_KNOWS)))
        else:
            self.set_alert("")
        return bool(knowers)

    def clear(self, message: str) -> None:
        """No figures: ``message`` says why."""
        self.set_pending(message or _("Accuse or wait: no figures yet."))

        self.set_alert("")
