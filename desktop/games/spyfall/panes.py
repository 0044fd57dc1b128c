"""The Spyfall tab's panes, each a presenter of the published snapshot: "Who is the spy?" and
the recommendation line. A pane is told the table once (:meth:`SpyPane.set_table`, after a new
setup) and then draws each moment from the :class:`desktop.tabs.snapshot.Snapshot` alone
(its setup, posterior, moment and advice), never from the document or the timeline: the
tab composes them (docs/ARCHITECTURE.md, "One moment on screen").
"""
from __future__ import annotations

from typing import Optional

import numpy as np
from PySide6.QtCore import QEvent, QSize, Qt
from PySide6.QtWidgets import QLabel, QSizePolicy, QVBoxLayout, QWidget

from desktop.games.spyfall.forms import strategy_label
from desktop.games.spyfall.model import SpyBeliefModel, SpyBeliefView
from desktop.shell.appearance import muted_css, tone, tone_style
from desktop.shell.locale_format import number, significant
from desktop.table.zoom import scaled_size
from desktop.tabs.snapshot import Snapshot
from desktop.tabs.wording import DETAILS, PLAIN, Wording
from desktop.widgets.fit_split import CappedText
from desktop.widgets.hint_cache import HintCache
from desktop.widgets.plain_text import esc
from desktop.widgets.worksheet import format_probability
from engines.core.i18n import N_, _


def top(d: dict, k: int = 1) -> list:
    """The ``k`` items of ``d`` with the largest values, largest first: ``[(key, value)]``."""
    return sorted(d.items(), key=lambda kv: -kv[1])[:k]



#: How much a player's claims give away, by the reveal weight λ of the hide-reveal model (below
#: each bound): the words alone and as the verb "claim so that you …" continues with (whole
#: phrases, so that each language words both).
_REVEAL = ((0.0, N_("claims reveal nothing"), N_("reveal nothing")),
           (0.2, N_("claims hint a little"), N_("hint a little")),
           (0.5, N_("claims hint at the location"), N_("hint at the location")),
           (float("inf"), N_("claims point at the location"), N_("point at the location")))


def _reveal(lam: float) -> tuple:
    if lam <= 0:
        return _REVEAL[0]
    return next(row for row in _REVEAL[1:] if lam < row[0])


def reveal_words(lam: float) -> str:
    """How much a player's claims give away (the reveal weight λ of the hide-reveal model) in a
    player's words."""
    return _(_reveal(lam)[1])


def _reveal_verb(lam: float) -> str:
    """:func:`reveal_words` without "claims" (what "claim so that you …" continues with)."""
    return _(_reveal(lam)[2])


def plain_strategy(mix) -> str:
    """An equilibrium mix in a player's words (the strategy's λ named by
    :func:`reveal_words`; a mix: its most probable pure strategy, "mostly")."""
    ms = sorted(mix, key=lambda m: -float(m.get("probability", 1.0)))
    words = _reveal_verb(float(ms[0]["lambda"]))
    return words if len(ms) == 1 else _("mostly {words}").format(words=words)


def early_vote_threshold():
    """The private spy belief at which the stored equilibrium's non-spies call the vote, or None
    when the study file is missing or unreadable."""
    from engines.spyfall import equilibrium

    try:
        return equilibrium.early_vote_threshold()
    except (OSError, ValueError, KeyError, TypeError):
        return None


def describe_strategy(mix) -> str:
    """An equilibrium mix in words: ``"flat hide-reveal, λ = 0.05"`` for a pure strategy, else
    each pure strategy with its probability (most probable first); λ = 0 is "pure noise"; a
    strategy shown by the replication says in how many independent replications."""
    def one(m):
        label = strategy_label(m["strategy"]).lower()
        lam = float(m["lambda"])
        text = f"{label}, λ = {significant(lam, 6)}"
        if lam == 0:
            text += " " + _("(pure noise: reveal nothing)")
        if m.get("replicated"):
            text += " " + _("(the same in {n} independent replications)").format(n=m.get("seeds"))
        elif m.get("replicated") is False:
            text += " " + _("(one study, not replicated)")
        return text
    mix = list(mix)
    if len(mix) == 1:
        return one(mix[0])
    return "; ".join(f"{one(m)} {format_probability(m['probability'])}" for m in mix)


def describe_mean_claim(claim: dict) -> str:
    """A recommended claim in words (plain text): the locations that stand out (at most four,
    above 1.5 × the median weight), then the level of the rest; "every location alike" for a
    flat claim and "nearly every location alike" when no location stands out."""
    values = np.array(list(claim.values()), float)
    if values.size == 0 or np.ptp(values) < 1e-6:
        return _("every location alike")
    median = float(np.median(values))
    high = [(loc, p) for loc, p in top(claim, len(claim)) if p > 1.5 * median][:4]
    if not high:  # nothing stands out: a hiding claim
        (loc, p), = top(claim, 1)
        return _("nearly every location alike (at most {location} {p})").format(
            location=loc, p=format_probability(p))
    names = {loc for loc, _ in high}
    rest = [p for loc, p in claim.items() if loc not in names]
    text = ", ".join(f"{loc} {format_probability(p)}" for loc, p in high)
    if rest:
        bound = format_probability(max(rest))
        if bound.startswith("<"):     # "<1%" is a bound already: not "≤ <1%"
            text += _("; every other location {p}").format(p=bound)
        else:
            text += _("; every other location ≤ {p}").format(p=bound)
    return text


def recommendation_text(rec, setup, wording: Wording = PLAIN) -> str:
    """The recommendation line (rich text) for :func:`engines.spyfall.recommend`'s answer:
    my side's equilibrium strategy (``rec.strategy``) and the mean claim it makes now; as a
    non-spy whom to accuse and whether to call the early vote now (``rec.call_vote``) or at
    which belief; as the spy the location to name."""
    spy = setup.i_am_spy
    claim = esc(describe_mean_claim(rec.claim))    # plain text ("<1%", a location's "&") in rich text
    yours = _("<b>Your claim</b> on average: {claim}").format(claim=claim)
    if rec.strategy and wording.details:
        play = describe_strategy(rec.strategy)
        text = (_("<b>Play {strategy}</b> (the equilibrium for the spy)") if spy else
                _("<b>Play {strategy}</b> (the equilibrium for non-spies)")).format(strategy=play)
        text += " · " + yours
    elif rec.strategy:
        how = plain_strategy(rec.strategy)
        text = (_("<b>Claim so that you {how}</b> (the best play for the spy)") if spy else
                _("<b>Claim so that you {how}</b> (the best play for non-spies)")).format(how=how)
        text += " · " + yours
    else:  # no strategy shown across replications: the claim follows my own model
        own = setup.models[setup.me_index]
        if wording.details:
            text = _("<b>Your claim</b> ({strategy}, λ = {lam}, on average): {claim}").format(
                strategy=strategy_label(own.strategy).lower(), lam=significant(own.lam, 6), claim=claim)
        else:
            text = yours
        if rec.equilibrium:   # the study's details one hover away (recommendation_details)
            text += " · <i>" + _("no single best way to claim (hover for why)") + "</i>"
    if rec.accuse is not None:
        p = format_probability(rec.accuse_probability)
        threshold = early_vote_threshold()
        who = esc(rec.accuse)
        if rec.call_vote:
            text += (f" · <b style='color:{tone('#b71c1c')}'>"
                     + _("Call the vote now: Accuse {name}").format(name=who) + "</b> "
                     + (f"({p} ≥ {format_probability(threshold)})" if threshold else f"({p})"))
        elif threshold is not None:
            text += " · " + _("<b>Accuse {name}</b> ({p}) at the vote; call it early when your "
                              "belief in a suspect reaches {threshold}").format(
                name=who, p=p, threshold=format_probability(threshold))
        else:
            text += " · " + _("<b>Accuse {name}</b> ({p})").format(name=who, p=p)
    if rec.name_location is not None:
        text += " · " + _("<b>Name the location: {location}</b> ({p})").format(
            location=esc(rec.name_location), p=format_probability(rec.location_probability))
    if rec.reason:
        text += f" · <span style='color:gray'>{esc(rec.reason)}</span>"
    return text

def recommendation_details(rec, wording: Wording = DETAILS) -> str:
    """What the study says when it names no single best strategy (the advice line's tooltip,
    plain text): how many replications disagree, the non-spies' chance at equilibrium and
    the strategies never dominated; "" when it names one."""
    eq = rec.equilibrium
    if rec.strategy or not eq:
        return ""
    lo, hi = eq["value"]
    lo_t, hi_t = format_probability(lo), format_probability(hi)
    value = _("about {p}").format(p=lo_t) if lo_t == hi_t else f"{lo_t}–{hi_t}"
    if not wording.details:
        return _("No single best way to claim: the bot games we studied disagree on it; played "
                 "well, the non-spies win {value} of the time.").format(value=value)
    never = ", ".join(f"{strategy_label(m['strategy']).lower()} "
                      f"λ = {significant(m['lambda'], 6)}" for m in eq["never_dominated"])
    if never:
        return _("No single best strategy: it differs between {n} replications of the study; the "
                 "non-spies win {value} at equilibrium; never dominated for non-spies: {never}."
                 ).format(n=eq["seeds"], value=value, never=never)
    return _("No single best strategy: it differs between {n} replications of the study; the "
             "non-spies win {value} at equilibrium.").format(n=eq["seeds"], value=value)


class AdvicePane(CappedText):
    """The recommendation line of the moment shown (:func:`engines.spyfall.recommend`, the
    controller's advisor "recommend"): what to claim, whom to accuse, when to call the vote; as
    the spy, the location to name. Its tooltip holds what the study says when it names no
    single best strategy. At most :meth:`set_max_lines` lines, scrolling for the rest.

    Attributes:
        label: the rich-text label (the line).
    """

    def __init__(self, parent: Optional[QWidget] = None):
        label = QLabel()
        label.setTextFormat(Qt.RichText)
        tone_style(label, "#0d47a1")
        super().__init__(label, parent)

    def render(self, snap: Snapshot) -> None:
        """Draw the advice of the moment ``snap`` ("as after entry k" for a past one); while it
        is computed the previous line stays, greyed with the beliefs."""
        if snap.setup.me is None:
            self.label.setText(_("Observer: no card, so no move to recommend."))
            return
        advice = snap.advice_for("recommend")
        if snap.error is not None:
            self.label.clear()
        elif advice is None:
            return
        elif advice.error is not None:
            exc = advice.error
            self.label.setText(_("No recommendation: {why}").format(why=esc(getattr(exc, "message", exc))))
        else:
            scope = "" if snap.live else f"<i>{snap.scope()}</i> · "
            self.label.setText(scope + recommendation_text(advice.value, snap.setup, snap.wording))
            self.label.setToolTip(recommendation_details(advice.value, snap.wording))

    def clear(self) -> None:
        self.label.clear()


class WrappedBox(QWidget):
    """A box whose least height is its layout's height at its width, wrapped labels included
    (a ``QWidget``'s minimum size counts a wrapped label as one line): a splitter that fits its
    panes to their content (:class:`desktop.widgets.fit_split.FitSplitter`) then keeps room
    for the whole text."""

    def __init__(self, parent: Optional[QWidget] = None):
        super().__init__(parent)
        self._hints = HintCache()

    def event(self, e) -> bool:
        self._hints.seen(e)   # its layout's request, a resize (the height for a width)
        return super().event(e)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt name)
        return self._hints.get("min", self._minimum_size_hint)

    def _minimum_size_hint(self) -> QSize:
        hint = super().minimumSizeHint()
        lay = self.layout()
        if lay is not None and lay.hasHeightForWidth() and self.width() > 0:
            hint.setHeight(max(hint.height(), lay.totalHeightForWidth(self.width())))
        return hint


#: Lines of text the spy pane's summary keeps room for before the beliefs bring it.
SUMMARY_LINES = 2


class SpyPane(WrappedBox):
    """Each player's probability of being the spy (public, mine, without their own claims),
    how much each player's claims gave away, and the moment's summary line under them.

    Attributes:
        model: the :class:`SpyBeliefModel` (a row per player); view: its :class:`SpyBeliefView`;
        title, summary: the labels over and under it.
    """

    def __init__(self, parent: Optional[QWidget] = None):
        super().__init__(parent)
        sl = QVBoxLayout(self)
        sl.setContentsMargins(0, 0, 0, 0)
        self.title = QLabel()
        self.title.setWordWrap(True)
        self._set_title(PLAIN)
        sl.addWidget(self.title)
        self.model = SpyBeliefModel(self)
        self.view = SpyBeliefView()
        self.view.setModel(self.model)
        scaled_size(self.view.verticalHeader(), min_width=60)
        # every player's row (SpyBeliefView.minimumSizeHint), the summary right under them
        self.view.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        sl.addWidget(self.view)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.RichText)
        # two lines kept while the summary is empty (a new table, its beliefs still to come;
        # the summary takes two lines in a pane about 300 px wide): the pane does not grow when
        # they come, and the tab does not lay out and paint its panes again and again (the
        # splitter above the claim sheet refitted, a scroll bar shown, the panes narrower:
        # three more paints after each open of a log)
        self._keep_summary_room()
        sl.addWidget(self.summary)
        sl.addStretch(1)

    def changeEvent(self, event) -> None:  # noqa: N802 (Qt's method name)
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:   # a zoom: the summary's lines, at its font
            self._keep_summary_room()

    def _keep_summary_room(self) -> None:
        self.summary.setMinimumHeight(SUMMARY_LINES * self.summary.fontMetrics().lineSpacing())

    def set_table(self, setup) -> None:
        """A new table (New game, Open): its players and the columns my card gives."""
        cols = [_("Public")] + ([_("Mine")] if setup.me is not None else []) + [_("w/o own")]
        self.model.set_players(setup.players, setup.me, cols)
        self.summary.clear()

    def render(self, snap: Snapshot) -> None:
        """Draw the beliefs of the moment ``snap`` (its posterior must be set)."""
        setup, post, wording = snap.setup, snap.posterior, snap.wording
        cols = [np.array([post.spy[p] for p in setup.players])]
        if setup.me is not None:
            cols.append(np.array([post.private_spy[p] for p in setup.players]))
        cols.append(np.clip(np.diag(post.loo_spy), 0.0, 1.0))
        self.model.set_matrix(np.column_stack(cols))
        self.model.set_contributions(post.contribution_bits, wording)
        (loc, pl), = top(post.location)
        (spy, ps), = top(post.spy)
        # the moment named as every tab names it (an entry may be an "ask" as well as a claim)
        text = "" if snap.live else f"<i>{snap.scope()}</i> · "
        text += _("Public: location {location} {pl}, spy {spy} {ps}").format(
            location=f"<b>{esc(loc)}</b>", pl=format_probability(pl), spy=f"<b>{esc(spy)}</b>",
            ps=format_probability(ps))
        if setup.me is not None and not setup.i_am_spy:
            (mspy, mp), = top(post.private_spy)
            text += " · " + _("I suspect {name} {p}").format(name=f"<b>{esc(mspy)}</b>", p=format_probability(mp))
        elif setup.i_am_spy:
            (mloc, mp), = top(post.private_location)
            text += " · " + _("I think it is {location} {p}").format(location=f"<b>{esc(mloc)}</b>",
                                                                     p=format_probability(mp))
        if wording.details:
            ig = post.aggregate_information_gain_bits
            text += " · " + _("the claims told the public {bits} bits about the location").format(
                bits=number(ig, 2))
        self.summary.setText(text)
        self._set_title(wording)

    def _set_title(self, wording: Wording) -> None:
        """The title with what the row labels' bars (or bits) mean: set when the pane is made,
        not only when the first beliefs come, so that its second line does not make the pane
        taller then (the tab laid out and painted its panes again)."""
        self.title.setText("<b>{}</b> <span style='{}'>".format(esc(_("Who is the spy?")), muted_css())
                           + esc(wording.pick(_("(▮: how much each player's claims gave away "
                                                "about the location)"),
                                              _("(bits: what each player's claims told about the "
                                                "location)"))) + "</span>")

    def clear(self) -> None:
        """No belief can be computed (an impossible setup)."""
        self.model.set_matrix(None)
        self.summary.setText(_("no belief can be computed"))
