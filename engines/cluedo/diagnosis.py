"""Which Cluedo entry was probably mistyped: the corrections of a contradictory log.

Candidate edits of one entry (:mod:`engines.core.diagnosis` searches them, likeliest first):

* a player: the next players in the seating order first (a shown / lacks entry's player, a
  suggestion's refuter — the passers then those seated between the suggester and the new
  refuter, as :func:`engines.cluedo.model.passers_between` says — "nobody refuted", a passer
  left out);
* a card: another card of the same category first, then any other card (a shown / lacks
  entry's card, one card of a suggestion, an accusation or a hand; the shown card of a
  suggestion among the other two suggested);
* an accusation's verdict (correct / wrong).

Adding entries only removes deals (the "#Sat" model of Agade09's Cluedo_Sheet: every card in
one place, fixed hand sizes, one card per category in the envelope), so the game is monotone: a
correction touches every conflicting subset, and the candidates are the entries of one
irreducible conflicting subset within the log up to its first impossible entry. Edited logs
are checked by exact deal counting (:mod:`engines.cluedo.counting`; unit propagation first,
which refutes most of them without counting).
"""
from __future__ import annotations

from typing import Optional, Sequence

from engines.cluedo.constraints import constraints_for
from engines.cluedo.counting import count_deals, propagate
from engines.cluedo.model import (
    AccusationEvent,
    HandEvent,
    LacksEvent,
    Setup,
    ShownEvent,
    SuggestionEvent,
    describe_event,
    passers_between,
)
from engines.core.diagnosis import Diagnosis, Edit, ReplayChecker
from engines.core.diagnosis import diagnose as _diagnose
from engines.core.i18n import _

#: Default budget in steps (events in the edited logs counted). A classic game's check of 30
#: entries takes a few milliseconds (tests/benchmarks/bench_diagnosis.py).
DEFAULT_BUDGET = 20000


def consistent(setup: Setup, events: Sequence) -> bool:
    """Whether some deal fits ``events`` (propagation, then exact counting)."""
    comp = propagate(constraints_for(setup, events))
    if not comp.feasible:
        return False
    return count_deals(comp, marginals=False).count > 0


def _seat_cost(setup: Setup, was: Optional[str], now: Optional[str]) -> float:
    """1.0 for the next player in the seating order (either way), more further away."""
    if was is None or now is None:
        return 1.5
    n = len(setup.players)
    d = (setup.players.index(now) - setup.players.index(was)) % n
    return 1.0 + 0.25 * (min(d, n - d) - 1)


def _card_edits(setup: Setup, card: str, exclude=()) -> list:
    """(other card, cost): same category 1.0 (+0.05 per place in the list), else 2.0."""
    cat = setup.category_of(card)
    out = []
    for c_cat, cards in setup.categories:
        for j, c in enumerate(cards):
            if c == card or c in exclude:
                continue
            if c_cat == cat:
                d = abs(j - cards.index(card))
                out.append((c, 1.0 + 0.05 * (d - 1)))
            else:
                out.append((c, 2.0))
    return out


def edits(setup: Setup, events: Sequence, i: int) -> list:  # noqa: C901 (one branch per event kind's fields)
    """The candidate field edits of entry ``i`` (the removal is added by the search)."""
    ev = events[i]
    out = []
    if isinstance(ev, (ShownEvent, LacksEvent)):
        cls = type(ev)
        for p in setup.players:
            if p != ev.player:
                out.append(Edit(i, "player", p, cls(player=p, card=ev.card), _seat_cost(setup, ev.player, p),
                                _instead(p, ev.player)))
        for c, cost in _card_edits(setup, ev.card):
            out.append(Edit(i, "card", c, cls(player=ev.player, card=c), cost, _instead(c, ev.card)))
    elif isinstance(ev, HandEvent):
        for j, card in enumerate(ev.cards):
            for c, cost in _card_edits(setup, card, exclude=ev.cards):
                new = ev.cards[:j] + (c,) + ev.cards[j + 1:]
                out.append(Edit(i, "cards", list(new), HandEvent(player=ev.player, cards=new), cost,
                                _instead(c, card)))
    elif isinstance(ev, SuggestionEvent):
        for j, card in enumerate(ev.cards):
            for c, cost in _card_edits(setup, card):
                if setup.category_of(c) != setup.category_of(card):
                    continue                     # a suggestion names one card per category
                new = ev.cards[:j] + (c,) + ev.cards[j + 1:]
                shown = c if ev.shown == card else ev.shown
                out.append(Edit(i, "cards", list(new),
                                SuggestionEvent(suggester=ev.suggester, cards=new, passed=ev.passed,
                                                refuter=ev.refuter, shown=shown),
                                cost, _instead(c, card)))
        if ev.shown is not None:
            for c in ev.cards:
                if c != ev.shown:
                    out.append(Edit(i, "shown", c, SuggestionEvent(suggester=ev.suggester, cards=ev.cards,
                                                                   passed=ev.passed, refuter=ev.refuter, shown=c),
                                    1.0, _("{card} shown instead of {other}").format(card=c, other=ev.shown)))
            out.append(Edit(i, "shown", None, SuggestionEvent(suggester=ev.suggester, cards=ev.cards, passed=ev.passed,
                                                              refuter=ev.refuter, shown=None),
                            2.0, _("an unseen card shown")))
        follows = set(ev.passed) == set(passers_between(setup, ev.suggester, ev.refuter))
        for r in list(setup.players) + [None]:
            if r == ev.refuter or r == ev.suggester:
                continue
            passed = passers_between(setup, ev.suggester, r) if follows else \
                tuple(p for p in ev.passed if p != r)
            shown = ev.shown if r is not None else None
            words = _("{player} refuting").format(player=r) if r is not None else _("nobody refuting")
            out.append(Edit(i, "refuter", r, SuggestionEvent(suggester=ev.suggester, cards=ev.cards, passed=passed,
                                                             refuter=r,
                                                             shown=shown),
                            _seat_cost(setup, ev.refuter, r), words))
        for p in ev.passed:
            passed = tuple(x for x in ev.passed if x != p)
            out.append(Edit(i, "passed", list(passed), SuggestionEvent(suggester=ev.suggester, cards=ev.cards,
                                                                       passed=passed, refuter=ev.refuter,
                                                                       shown=ev.shown),
                            2.0, _("{player} not passing").format(player=p)))
    elif isinstance(ev, AccusationEvent):
        out.append(Edit(i, "correct", not ev.correct,
                        AccusationEvent(player=ev.player, cards=ev.cards, correct=not ev.correct), 1.5,
                        _("a correct accusation") if not ev.correct else _("a wrong accusation")))
        for j, card in enumerate(ev.cards):
            for c, cost in _card_edits(setup, card):
                if setup.category_of(c) != setup.category_of(card):
                    continue
                new = ev.cards[:j] + (c,) + ev.cards[j + 1:]
                out.append(Edit(i, "cards", list(new), AccusationEvent(player=ev.player, cards=new, correct=ev.correct),
                                cost, _instead(c, card)))
    return out


def _instead(new: str, old: str) -> str:
    """A correction's words: "Rope instead of Dagger"."""
    return _("{new} instead of {old}").format(new=new, old=old)



def diagnose(setup: Setup, events: Sequence, *, budget: Optional[int] = None,
             time_limit: Optional[float] = None, cancel=None) -> Optional[Diagnosis]:
    """The corrections of a contradictory log (:func:`engines.core.diagnosis.diagnose`).

    Args:
        budget: most steps (events in the edited logs counted); default :data:`DEFAULT_BUDGET`.
        time_limit: optional wall-clock cap (s), for the app.
    Returns:
        :class:`~engines.core.diagnosis.Diagnosis` (its ``conflict`` a minimal unsatisfiable
        subset), or None when the log is consistent.
    """
    events = list(events)
    chk = ReplayChecker(events, lambda evs: consistent(setup, evs), monotone=True, cancel=cancel)
    return _diagnose(events, chk, lambda i: edits(setup, events, i),
                     lambda i: describe_event(setup, events[i]), monotone=True,
                     budget=budget or DEFAULT_BUDGET, time_limit=time_limit, cancel=cancel)
