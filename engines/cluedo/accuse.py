"""When to accuse in Cluedo: the chance my best triple is the envelope, the chance an opponent
can name it before my next turn, and the advice.

Decision rule (stated in the Cluedo guide, measured by :mod:`engines.cluedo.race`): at my turn, after my
suggestion,

    accuse now  iff  p_correct >= 1 - p_opponent_knows_before_my_turn

where ``p_correct`` is the posterior probability that my best triple (the mode of the envelope's
joint law under the exact model) is the envelope, and ``p_opponent_knows_before_my_turn`` the
probability that at least one opponent still in the game (no failed accusation) — every one of
them moves before my next turn — can name the envelope when they may accuse, i.e. once their own
next suggestion is answered (:func:`engines.cluedo.opponents.p_any_knows_after_next_suggestion`:
their knowledge now, plus a look-ahead of one suggestion each, drawn among the cards they still
allow in the envelope). Reason: accusing now wins with probability ``p_correct``; waiting wins at
most when no opponent who can name the envelope accuses first, i.e. with probability at most
``1 - p_opponent_knows_before_my_turn``. A certain envelope (``p_correct = 1``) is always
"accuse now". The probability that some opponent can *already* name it (no look-ahead) is
reported too (``p_opponent_knows_now``); the same rule with it instead gained less in the race
(the Cluedo guide, docs/guide/cluedo.md).
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Optional, Sequence

from engines.cluedo.cost import check_best_triple
from engines.cluedo.counting import count_deals, propagate
from engines.cluedo.inference import _raise_contradiction, constraints_for, raise_model_contradiction
from engines.cluedo.model import Setup
from engines.cluedo.opponents import OpponentsEstimate, opponent_knowledge
from engines.core.errors import check_cancel

CERTAIN = 1.0 - 1e-9
ADVICE = ("accuse now", "wait")


def best_triple(setup: Setup, events: Sequence = (), cancel=None, *, rhos: Optional[dict] = None) -> tuple:
    """The most probable envelope triple and its probability (exact).

    Method: ``P(s, w, r) = P(s, w) P(r | s, w)``. One exact count with marginals per suspect ``s``
    gives ``P(s, w)`` for every weapon; the pairs are visited by decreasing ``P(s, w)`` and one
    count with ``s, w`` in the envelope gives ``P(s, w, r)`` for every room; the search stops when
    the next pair's ``P(s, w)`` cannot beat the best triple found (``P(s, w, r) <= P(s, w)``).
    At most 1 + |suspects| + |suspects| x |weapons| counts, usually a handful. ``rhos``
    (``{player: rho}``): the same under the suggestion model of :mod:`engines.cluedo.suggestions`
    (weighted counts; each count's ``log_scale`` brought to the first one's); ``{}``: no model;
    None (default): the setup's model (:func:`engines.cluedo.suggestions.advice_rhos`).

    Returns:
        ``((suspect, weapon, room), p_correct)``; ties go to the first in deck order.
    Raises:
        ContradictionError: the log is impossible. Cancelled: ``cancel()`` became true.
        SessionFormatError: the bound on the counts does not fit the budget
            (:func:`engines.cluedo.cost.check_best_triple`).
    """
    from engines.cluedo.suggestions import advice_rhos, apply_rhos

    events = tuple(events)
    cons = constraints_for(setup, events)
    rhos = advice_rhos(setup, events, cancel, rhos)
    if rhos:
        apply_rhos(cons, setup, events, rhos)
    k = len(setup.players)
    res = count_deals(propagate(cons.copy()), cancel, marginals=True)
    if res.count == 0:
        _raise_contradiction(setup, events, cancel)
        raise_model_contradiction(events)
    total = res.count_float
    (_, suspects), (_, weapons), (_, rooms) = setup.categories
    check_best_triple(res.comp, k, len(suspects), len(weapons))   # refused at once if too large
    ci = setup.card_indices
    pairs = []
    for s in suspects:
        if res.marginal[ci[s], k] <= 0:
            continue
        check_cancel(cancel)
        sub = cons.copy()
        sub.force(ci[s], k)
        rs = count_deals(propagate(sub), cancel, marginals=True)
        scale = math.exp(rs.log_scale - res.log_scale) if rhos else 1.0
        for w in weapons:
            p = rs.marginal[ci[w], k] * scale / total if rs.count else 0.0
            if p > 0:
                pairs.append((-p, ci[s], ci[w], s, w))
    pairs.sort()
    best, best_p = None, -1.0
    for negp, _, _, s, w in pairs:
        if -negp <= best_p:
            break
        check_cancel(cancel)
        sub = cons.copy()
        sub.force(ci[s], k)
        sub.force(ci[w], k)
        rs = count_deals(propagate(sub), cancel, marginals=True)
        scale = math.exp(rs.log_scale - res.log_scale) if rhos else 1.0
        for r in rooms:
            p = rs.marginal[ci[r], k] * scale / total
            if p > best_p:
                best, best_p = (s, w, r), float(p)
    return best, float(min(max(best_p, 0.0), 1.0))


@dataclass(frozen=True)
class AccusationAdvice:
    """Whether to accuse now.

    Fields:
        triple: my best triple ``(suspect, weapon, room)``.
        p_correct: P(it is the envelope), exact.
        p_opponent_knows_before_my_turn: P(some opponent still in the game can name the
            envelope once their next suggestion is answered); every opponent moves before my
            next turn. Sampled.
        standard_error: its standard error.
        p_opponent_knows_now: P(some opponent still in the game can already name it).
        exact: whether ``p_opponent_knows_now`` is exact.
        advice: ``"accuse now"`` or ``"wait"`` (the rule in the module docstring).
        seconds: wall time.
        suggestion_model: the suggestion model both probabilities assume (``{"rho": {player:
            rho}, "assumes": words}``, :func:`engines.cluedo.suggestions.model_label`); None:
            none (the plain posterior).
    """

    triple: tuple
    p_correct: float
    p_opponent_knows_before_my_turn: float
    standard_error: float
    p_opponent_knows_now: float
    exact: bool
    advice: str
    seconds: float = 0.0
    suggestion_model: Optional[dict] = None

    def to_json(self) -> dict:
        out = {"p_correct": self.p_correct,
               "p_opponent_knows_before_my_turn": self.p_opponent_knows_before_my_turn,
               "advice": self.advice, "triple": list(self.triple),
               "standard_error": self.standard_error,
               "p_opponent_knows_now": self.p_opponent_knows_now, "exact": self.exact}
        if self.suggestion_model:
            out["suggestion_model"] = self.suggestion_model
        return out


def decide(p_correct: float, p_opponent_knows: float) -> str:
    """The decision rule: ``"accuse now"`` iff ``p_correct >= 1 - p_opponent_knows`` (or the
    envelope is certain), else ``"wait"``. Both arguments are probabilities in [0, 1]."""
    if p_correct >= CERTAIN or p_correct >= 1.0 - p_opponent_knows:
        return ADVICE[0]
    return ADVICE[1]


def accusation_advice(setup: Setup, events: Sequence = (), *, opponents: Optional[OpponentsEstimate] = None,
                      budget_seconds: Optional[float] = 1.0, seed: Optional[int] = 0,
                      cancel=None, rhos: Optional[dict] = None) -> AccusationAdvice:
    """``p_correct``, ``p_opponent_knows_before_my_turn`` and the advice for my log.

    Args:
        setup, events: the table and my log.
        opponents: an estimate already computed for this log with ``lookahead=True`` (else
            computed here within
            ``budget_seconds``, see :func:`engines.cluedo.opponents.opponent_knowledge`).
        seed: random seed of the opponents' estimate.
        cancel: cancel flag.
        rhos: the suggestion model (``{player: rho}``, ``{}``: none; None: the setup's, see
            :func:`engines.cluedo.suggestions.advice_rhos`): ``p_correct`` and the opponents'
            figures are then those of the weighted posterior (the true deal drawn from it; each
            opponent's own belief stays their plain posterior of what they saw).
    Raises:
        ContradictionError: the log is impossible. Cancelled: ``cancel()`` became true.
    """
    from engines.cluedo.suggestions import advice_rhos, model_label

    t0 = time.perf_counter()
    events = tuple(events)
    rhos = advice_rhos(setup, events, cancel, rhos)
    triple, p = best_triple(setup, events, cancel, rhos=rhos)
    if opponents is None or opponents.p_any_knows_next is None:
        opponents = opponent_knowledge(setup, events, budget_seconds=budget_seconds, seed=seed, cancel=cancel,
                                       lookahead=True, rhos=rhos)
    q = opponents.p_any_knows_next
    model = {"rho": dict(rhos), "assumes": model_label(setup, rhos)} if rhos else None
    return AccusationAdvice(triple, p, q, opponents.p_any_next_standard_error, opponents.p_any_knows,
                            opponents.exact, decide(p, q), time.perf_counter() - t0, model)


def accusation_without_opponents(triple: Optional[tuple], p_correct: Optional[float], *,
                                 certain: bool) -> dict:
    """The ``"accusation"`` value of ``python -m engines recommend`` when the opponents' figures
    are left out: my most probable envelope ``triple`` (None: left out too) with its
    probability ``p_correct``, the advice only when the envelope is ``certain`` ("accuse now"),
    every opponent figure None (keys as :func:`recommendation_keys`)."""
    return {"p_correct": p_correct, "p_opponent_knows_before_my_turn": None,
            "advice": ADVICE[0] if certain else None,
            "triple": None if triple is None else list(triple), "certain": bool(certain),
            "standard_error": None, "p_opponent_knows_now": None, "exact": None}


def recommendation_keys(setup: Setup, events: Sequence, certain: Optional[tuple], *,
                        budget_seconds: Optional[float] = 1.0, cancel=None,
                        samples: Optional[int] = None, seed: Optional[int] = 0,
                        best: Optional[tuple] = None, rhos: Optional[dict] = None) -> tuple:
    """The ``"opponents"`` and ``"accusation"`` values of ``python -m engines recommend``.

    Args:
        certain: the envelope triple when my posterior makes it certain, else None.
        budget_seconds: time for the opponents' estimate (0: skip it; then ``"opponents"`` is
            None and the accusation object has no opponent figure and no advice unless the
            envelope is certain).
        samples: a budget in sampled deals instead of seconds (the command line: the figures
            then depend only on the input and ``seed``); None: ``budget_seconds`` decides.
        best: ``((suspect, weapon, room), p_correct)``, my most probable envelope triple and its
            exact probability when the caller has it (:func:`best_triple` is then not run when
            the opponents are skipped).
        rhos: the suggestion model, as :func:`accusation_advice` (None: the setup's).
    Returns:
        ``(opponents, accusation)``: ``{name: {"p_knows_envelope", "envelope_entropy_bits",
        "standard_error", "exact", ...}}`` or None; ``{"p_correct",
        "p_opponent_knows_before_my_turn", "advice", "triple", "certain", "standard_error",
        "p_opponent_knows_now", "exact"}``.
    """
    from engines.cluedo.suggestions import advice_rhos, model_label

    events = tuple(events)
    rhos = advice_rhos(setup, events, cancel, rhos)
    if budget_seconds is not None and budget_seconds <= 0:
        if certain:
            triple, p = tuple(certain), 1.0
        elif best is not None:
            triple, p = tuple(best[0]), float(best[1])
        else:
            triple, p = best_triple(setup, events, cancel, rhos=rhos)
        acc = accusation_without_opponents(triple, p, certain=bool(certain))
        if rhos:
            acc["suggestion_model"] = {"rho": dict(rhos), "assumes": model_label(setup, rhos)}
        return None, acc
    if samples is not None:
        est = opponent_knowledge(setup, events, budget_seconds=None, max_samples=samples,
                                 seed=seed, cancel=cancel, lookahead=True, rhos=rhos)
    else:
        est = opponent_knowledge(setup, events, budget_seconds=budget_seconds, cancel=cancel,
                                 lookahead=True, rhos=rhos)
    adv = accusation_advice(setup, events, opponents=est, cancel=cancel, rhos=rhos)
    acc = adv.to_json()
    acc["interval_95"] = None if est.p_any_next_interval is None else list(est.p_any_next_interval)
    acc["samples"] = est.samples
    acc["certain"] = bool(certain) or adv.p_correct >= CERTAIN
    if certain:
        acc["triple"] = list(certain)
    return est.to_json(), acc
