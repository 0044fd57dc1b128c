"""Cluedo inference: P(card is in each hand / in the envelope) given the log.

Three methods, all for the same model (Agade09's Cluedo_Sheet, "#Sat": a uniformly random deal, one card of
each category in the envelope and the rest dealt with the known hand sizes, conditioned on the
log):

* ``exact``: count the consistent deals with dynamic programming over cards (see
  :mod:`engines.cluedo.counting`) and divide — exact marginals and the exact number of deals.
* ``center``: Agade09's Cluedo_Sheet's "Analytical center": relax the 0/1 matrix to [0, 1], write every
  inequality as an equality with a slack variable, and maximise the sum of the logs of all
  variables and slacks (cvxpy). Fast, approximate.
* ``montecarlo``: exact uniform samples of consistent deals drawn from the DP counts (no
  rejection, unlike Agade09's Cluedo_Sheet's "Monte Carlo draws"), with a standard error per cell.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Optional, Sequence

import numpy as np

from engines.cluedo.constraints import apply_event, base_constraints, constraints_for  # noqa: F401 (re-exported)
from engines.cluedo.counting import CountResult, count_deals, propagate
from engines.cluedo.model import (
    Setup,
    describe_event,
)
from engines.core.errors import ContradictionError, SessionFormatError
from engines.core.i18n import _
from engines.core.info import entropy_bits

METHODS = ("exact", "center", "montecarlo")


def _count(setup, events, cancel=None, *, marginals=False, keep_backward=False) -> CountResult:
    return count_deals(propagate(constraints_for(setup, events)), cancel, marginals=marginals,
                       keep_backward=keep_backward)


def first_contradiction(setup: Setup, events: Sequence, cancel=None) -> int:
    """0-based index of the first event after which no deal is consistent (``-1``: the setup
    alone is impossible; ``len(events)``: the log is consistent). Binary search on prefixes:
    consistency can only be lost by adding events (monotone), so O(log n) counts."""
    if _count(setup, (), cancel).count == 0:
        return -1
    if _count(setup, events, cancel).count > 0:
        return len(events)
    lo, hi = 0, len(events) - 1      # answer in [lo, hi]: prefix events[:hi+1] is inconsistent
    while lo < hi:
        mid = (lo + hi) // 2
        if _count(setup, events[:mid + 1], cancel).count == 0:
            hi = mid
        else:
            lo = mid + 1
    return lo


def _raise_contradiction(setup, events, cancel) -> None:
    i = first_contradiction(setup, events, cancel)
    if i < 0:
        raise ContradictionError(-1, _("the hand sizes do not fit the deck"))
    if i >= len(events):
        return
    raise ContradictionError(i, _("no deal of the cards agrees with all events up to "
                                  "“{event}”").format(event=describe_event(setup, events[i])))


# ---------------------------------------------------------------------------------------------
# posterior
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class CluedoPosterior:
    """P(card is at owner) after a log.

    Fields:
        method: ``"exact"``, ``"center"`` or ``"montecarlo"``.
        cards: the cards in deck order (rows).
        owners: the players in seating order, then ``"envelope"`` (columns).
        matrix: float array (n_cards, n_players + 1) of probabilities; every row sums to 1, the
            player columns sum to the hand sizes and the envelope column to 1 per category.
        consistent_deals: the exact number of consistent deals (Python int); None for
            ``center``.
        standard_error: float array like ``matrix`` (``montecarlo``: sqrt(p(1-p)/N)); else None.
        seconds: wall time of the computation.
        categories: ``((category, cards), ...)`` as in the setup.
        samples: number of Monte Carlo samples (``montecarlo``), else None.
        note: a remark on how the result was obtained (e.g. a solver fallback), else None.
        suggestion_model: the JSON of :class:`engines.cluedo.suggestions.ModelResult` when the
            setup has a suggestion model (``matrix`` is then the weighted posterior), else None.
    """

    method: str
    cards: tuple
    owners: tuple
    matrix: np.ndarray
    consistent_deals: Optional[int]
    standard_error: Optional[np.ndarray]
    seconds: float
    categories: tuple = ()
    samples: Optional[int] = None
    note: Optional[str] = None
    suggestion_model: Optional[dict] = None

    def probability(self, card: str, owner: str) -> float:
        """P(``card`` is held by ``owner``) (``owner`` a player or ``"envelope"``).

        Raises:
            SessionFormatError: unknown card or owner.
        """
        if card not in self.cards:
            raise SessionFormatError("card", f"unknown card {card!r}")
        if owner not in self.owners:
            raise SessionFormatError("owner", f"unknown owner {owner!r}")
        return float(self.matrix[self.cards.index(card), self.owners.index(owner)])

    def envelope_marginals(self) -> dict:
        """``{category: {card: P(card is the envelope's card of its category)}}``."""
        col = self.matrix[:, -1]
        out = {}
        i = 0
        for cat, cards in self.categories:
            out[cat] = {c: float(col[i + j]) for j, c in enumerate(cards)}
            i += len(cards)
        return out

    def envelope_entropy_bits(self) -> float:
        """Envelope uncertainty in bits: the sum over categories of the entropy of that
        category's envelope card (its marginal). 0 exactly when the envelope is certain; an
        upper bound on the entropy of the joint triple."""
        return float(sum(entropy_bits(list(d.values())) for d in self.envelope_marginals().values()))

    def to_json(self) -> dict:
        """``{"game": "cluedo", "method", "consistent_deals", "probabilities": {card: {owner: p}}}``
        (plus ``"standard_error"`` for montecarlo and ``"seconds"``)."""
        probs = {c: {o: float(self.matrix[i, j]) for j, o in enumerate(self.owners)}
                 for i, c in enumerate(self.cards)}
        out = {"game": "cluedo", "method": self.method, "consistent_deals": self.consistent_deals,
               "probabilities": probs}
        if self.standard_error is not None:
            out["standard_error"] = {c: {o: float(self.standard_error[i, j]) for j, o in enumerate(self.owners)}
                                     for i, c in enumerate(self.cards)}
            out["samples"] = self.samples
        if self.note:
            out["note"] = self.note
        if self.suggestion_model is not None:
            out["suggestion_model"] = self.suggestion_model
        out["seconds"] = round(self.seconds, 6)
        return out


def infer(setup: Setup, events: Sequence = (), *, method: str = "exact", cancel=None,
          samples: int = 20000, seed: Optional[int] = None) -> CluedoPosterior:
    """P(each card is in each hand / in the envelope) given the log.

    Args:
        setup: the table.
        events: the log (Hand/Shown/Lacks/Suggestion/Accusation events), in order.
        method: ``"exact"`` (DP counting, default), ``"center"`` (analytical center, cvxpy) or
            ``"montecarlo"`` (exact uniform sampling from the DP counts).
        cancel: zero-argument callable checked inside long loops (raises ``Cancelled``).
        samples: Monte Carlo sample size.
        seed: Monte Carlo random seed.
    Returns:
        :class:`CluedoPosterior` (matrix of shape (n_cards, n_players + 1), probabilities). When
        ``setup.suggestion_trust`` is set and the method is exact, the posterior under that
        suggestion model (:mod:`engines.cluedo.suggestions`; ``suggestion_model`` filled).
    Raises:
        ContradictionError: no deal is consistent; names the first event after which none is
            (with the suggestion model: also when players set to 0 must have named own cards).
        SessionFormatError: unknown method or a foreign event.
    """
    t0 = time.perf_counter()
    events = tuple(events)
    if method not in METHODS:
        raise SessionFormatError("method", f"unknown method {method!r}; expected one of {', '.join(METHODS)}")
    if setup.suggestion_trust and method == "exact":
        return _infer_with_model(setup, events, cancel, t0)
    comp = propagate(constraints_for(setup, events))
    owners = setup.owners
    if method == "center":
        from engines.cluedo.center import analytic_center

        res = count_deals(comp, cancel, marginals=False)
        if res.count == 0:
            _raise_contradiction(setup, events, cancel)
        matrix, note = analytic_center(setup, comp, cancel)
        if matrix is None:  # the solver failed: exact answer instead, said so
            res = count_deals(comp, cancel)
            matrix = res.marginal / res.count_float
            note = note + "; showing the exact marginals instead"
        if setup.suggestion_trust:
            note = ((note + "; ") if note else "") + _NO_MODEL
        return CluedoPosterior("center", setup.cards, owners, _clean(matrix), None, None,
                               time.perf_counter() - t0, setup.categories, None, note)
    res = count_deals(comp, cancel, marginals=(method == "exact"), keep_backward=(method == "montecarlo"))
    if res.count == 0:
        _raise_contradiction(setup, events, cancel)
        raise ContradictionError(max(len(events) - 1, -1), _("no consistent deal"))  # not reached
    if method == "exact":
        matrix = res.marginal / res.count_float
        return CluedoPosterior("exact", setup.cards, owners, _clean(matrix), res.count, None,
                               time.perf_counter() - t0, setup.categories)
    n = max(int(samples), 1)
    rng = np.random.default_rng(seed)
    deals = res.sample(n, rng)
    matrix = np.zeros((len(setup.cards), len(owners)))
    for j in range(len(owners)):
        matrix[:, j] = np.mean(deals == j, axis=0)
    se = np.sqrt(matrix * (1 - matrix) / n)
    return CluedoPosterior("montecarlo", setup.cards, owners, _clean(matrix), res.count, se,
                           time.perf_counter() - t0, setup.categories, n,
                           _NO_MODEL if setup.suggestion_trust else None)


_NO_MODEL = "the suggestion model is used by the exact method only; these are the plain probabilities"


def _infer_with_model(setup: Setup, events: tuple, cancel, t0: float) -> CluedoPosterior:
    """``infer(method="exact")`` under the setup's suggestion model
    (:mod:`engines.cluedo.suggestions`): the weighted (or model-averaged) posterior; the number
    of consistent deals is the plain count of the log plus the model's hard constraints (rho 0)."""
    from engines.cluedo.suggestions import model_posterior

    result, count = model_posterior(setup, events, cancel)
    if count == 0 or result.matrix is None:
        if _count(setup, events, cancel).count == 0:
            _raise_contradiction(setup, events, cancel)
        raise_model_contradiction(events)
    return CluedoPosterior("exact", setup.cards, setup.owners, _clean(result.matrix), count, None,
                           time.perf_counter() - t0, setup.categories,
                           suggestion_model=result.to_json(setup))


def raise_model_contradiction(events: Sequence) -> None:
    """Raise the :class:`ContradictionError` of a log that only the suggestion model's hard
    constraints (players set to rho 0) make impossible."""
    raise ContradictionError(max(len(events) - 1, -1),
                             _("no deal agrees with the log when the players set to 0 never name "
                               "their own cards; set them above 0"))


def _clean(m: np.ndarray) -> np.ndarray:
    m = np.asarray(m, dtype=float)
    if not np.isfinite(m).all():     # (nan_to_num alone costs more than the rest of a small count)
        m = np.nan_to_num(m, nan=0.0, posinf=1.0, neginf=0.0)
    m = np.clip(m, 0.0, 1.0)
    m.setflags(write=False)
    return m


def sample_deals(setup: Setup, events: Sequence, n: int, *, seed=None, rng=None, cancel=None) -> np.ndarray:
    """``n`` exact uniform samples of the deals consistent with ``events``: int array
    (n, n_cards) of owner indices (player index, or ``len(players)`` for the envelope).

    Raises:
        ContradictionError: no consistent deal.
    """
    res = _count(setup, tuple(events), cancel, keep_backward=True)
    if res.count == 0:
        _raise_contradiction(setup, tuple(events), cancel)
    rng = rng if rng is not None else np.random.default_rng(seed)
    return res.sample(n, rng)


def belief_summary(setup: Setup, posterior: CluedoPosterior) -> dict:
    """Flat numbers for the CSV export and the belief plot: ``"envelope:<card>"`` = P(card is in
    the envelope) for every card in deck order, and ``"envelope_entropy_bits"`` (bits)."""
    out = {f"envelope:{c}": float(posterior.matrix[i, -1]) for i, c in enumerate(setup.cards)}
    out["envelope_entropy_bits"] = posterior.envelope_entropy_bits()
    return out
