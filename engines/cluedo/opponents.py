"""What each opponent knows about the envelope, from my log (who is close to solving).

The model (Agade09's Cluedo_Sheet, "#Sat", extended to the opponents' views):

* The true deal ``D`` is uniform over the deals consistent with my whole log — the model of
  :func:`engines.cluedo.inference.infer` (method ``exact``).
* Opponent ``j`` sees: ``j``'s own hand in ``D``; the public part of every suggestion (who
  suggested which three cards, who passed, who refuted); every accusation; and, for each
  suggestion ``j`` made that someone refuted, the card shown to ``j`` — the logged ``shown`` card
  when my log has it (I refuted and logged the card I showed), otherwise one of the refuter's
  matching cards in ``D``, chosen uniformly at random (independently per suggestion). ``j`` does
  not see my hand, the cards shown to me or the facts I logged by hand (``hand``, ``shown`` and
  ``lacks`` events).
* ``j``'s belief is uniform over the deals consistent with ``j``'s view; it is computed with the
  exact counting engine (:mod:`engines.cluedo.counting`) run on ``j``'s constraints.

Two figures per opponent, both expectations over ``D`` and the shown-card choices:

* ``p_knows_envelope``: the probability that ``j``'s view determines the envelope (every
  category's envelope card has probability 1 in ``j``'s belief);
* ``envelope_entropy_bits``: the expected sum over the three categories of the entropy (bits) of
  ``j``'s marginal belief about that category's envelope card.

Computation: *exact* when my log leaves few deals and few shown-card combinations (every deal is
enumerated by splitting on the exact marginals, every combination weighted by its probability);
otherwise *sampled*: exact uniform samples of ``D`` from my posterior
(:meth:`engines.cluedo.counting.CountResult.sample`, no rejection), one uniformly drawn
combination of shown cards per sample, and the sample mean with its standard error. The same
samples serve every opponent, so the probability that *some* opponent knows is estimated from
the same deals (the choices of different opponents are independent given ``D``: they concern
different suggestions). Views repeat (an opponent's view depends on ``D`` only through their
hand and the cards they were shown) and are counted once.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field, replace
from typing import Iterator, Optional, Sequence

import numpy as np

from engines.cluedo.counting import Constraints, count_deals, propagate
from engines.cluedo.inference import _raise_contradiction, constraints_for, raise_model_contradiction
from engines.cluedo.model import AccusationEvent, HandEvent, LacksEvent, Setup, ShownEvent, SuggestionEvent
from engines.core.cache import LockedLRU
from engines.core.errors import ContradictionError, check_cancel
from engines.core.info import entropy_bits

CERTAIN = 1.0 - 1e-9
EXACT_MAX_DEALS = 48        # enumerate my posterior's deals when there are at most this many
EXACT_MAX_VIEWS = 768       # ... and (deals x shown-card combinations x opponents) stays below this
MAX_SAMPLES = 100_000       # hard cap on sampled deals (memory: n_cards int64 each)
#: Fewest sampled deals behind a reported interval: below this a sampled probability has no
#: interval (the first refinements of the app's live estimate), and the command line never
#: samples fewer. With 64 deals a 95 % Wilson interval is at most ±0.12 wide.
MIN_INTERVAL_SAMPLES = 64
#: Fewest deals behind the first (uncertain, interval-free) estimate when ``first_batch`` deals
#: would not fit the budget (:func:`engines.cluedo.cost.opponent_deals_that_fit`).
MIN_FIRST_BATCH = 8
#: Sampled deals of the command line's estimate (``recommend --samples``; a budget in samples,
#: so the figures depend only on the input and ``--seed``).
CLI_SAMPLES = 256


@dataclass(frozen=True)
class OpponentKnowledge:
    """What one opponent knows about the envelope (expectations over my posterior).

    Fields:
        player: the opponent's name.
        p_knows_envelope: P(the opponent's view determines the envelope), in [0, 1].
        envelope_entropy_bits: expected sum over categories of the entropy of the opponent's
            marginal belief about that category's envelope card (bits, >= 0).
        standard_error: standard error of ``p_knows_envelope`` (0.0 when exact; the sample's,
            so also 0.0 when every sampled deal agreed — then the true one is at most
            ``sqrt(p (1 - p) / samples)`` for the true ``p``).
        entropy_standard_error: standard error of ``envelope_entropy_bits`` (0.0 when exact).
        exact: True when computed by enumeration (exact up to float rounding), False when sampled.
        samples: sampled deals (sampled), or consistent deals enumerated (exact).
        out: the opponent made a failed accusation (they can no longer win).
        interval: 95 % interval of ``p_knows_envelope``: Wilson's score interval of the
            sampled deals in which the opponent knows (each sampled deal is one Bernoulli
            trial; the Wald error ``standard_error`` understates small samples), ``(p, p)``
            when exact, None below :data:`MIN_INTERVAL_SAMPLES` deals.
    """

    player: str
    p_knows_envelope: float
    envelope_entropy_bits: float
    standard_error: float
    entropy_standard_error: float
    exact: bool
    samples: int
    out: bool = False
    interval: Optional[tuple] = None

    def to_json(self) -> dict:
        return {"p_knows_envelope": self.p_knows_envelope,
                "envelope_entropy_bits": self.envelope_entropy_bits,
                "standard_error": self.standard_error,
                "envelope_entropy_standard_error": self.entropy_standard_error,
                "interval_95": None if self.interval is None else list(self.interval),
                "exact": self.exact, "samples": self.samples, "out": self.out}


@dataclass(frozen=True)
class OpponentsEstimate:
    """Every opponent's knowledge, and the chance that some active opponent knows.

    Fields:
        opponents: ``{name: OpponentKnowledge}`` in seating order (me excluded).
        p_any_knows: P(at least one opponent still in the game — no failed accusation — knows
            the envelope now), in [0, 1].
        p_any_standard_error: its standard error (0.0 when exact).
        exact: True when every figure is exact.
        samples: sampled (or enumerated) deals.
        seconds: wall time so far.
        final: False for an intermediate estimate of :func:`iter_opponent_knowledge`.
        p_any_knows_next: P(some active opponent can name the envelope once their next
            suggestion is answered) (:func:`p_any_knows_after_next_suggestion`; always sampled),
            or None when not asked for.
        p_any_next_standard_error: its standard error, or None.
        p_any_interval, p_any_next_interval: 95 % intervals of ``p_any_knows`` and
            ``p_any_knows_next`` (as :attr:`OpponentKnowledge.interval`), or None.
        rhos: the suggestion model the figures assume (``{player: rho}``: the true deal is
            drawn from my weighted posterior); empty: none (my plain posterior).
        assumes: that model in words (:func:`engines.cluedo.suggestions.model_label`), e.g.
            ``"assuming Ann suggests what they lack (ρ 0.25)"``.
    """

    opponents: dict
    p_any_knows: float
    p_any_standard_error: float
    exact: bool
    samples: int
    seconds: float
    final: bool = True
    p_any_knows_next: Optional[float] = None
    p_any_next_standard_error: Optional[float] = None
    p_any_interval: Optional[tuple] = None
    p_any_next_interval: Optional[tuple] = None
    rhos: dict = field(default_factory=dict)
    assumes: str = ""

    def to_json(self) -> dict:
        """``{name: {"p_knows_envelope", "envelope_entropy_bits", "standard_error", "exact", ...}}``."""
        return {name: k.to_json() for name, k in self.opponents.items()}


# ---------------------------------------------------------------------------------------------
# an opponent's view
# ---------------------------------------------------------------------------------------------
@dataclass
class _ViewModel:
    """The constraints every view of opponent ``j`` shares, and ``j``'s shown cards.

    ``public``: the setup plus the public part of my log; ``fixed_shown``: ``(card, refuter)``
    pairs ``j`` was shown and my log names; ``hidden``: ``(card indices, refuter)`` of ``j``'s
    refuted suggestions whose shown card my log does not name."""

    j: int
    public: Constraints
    fixed_shown: list
    hidden: list
    out: bool
    cache: dict = field(default_factory=dict)
    #: ``(cards, refuter)`` -> its positions in ``hidden``, in order of first appearance: a
    #: suggestion logged several times is one entry with several positions
    repeats: dict = field(init=False, repr=False)

    def __post_init__(self):
        self.repeats = {}
        for i, h in enumerate(self.hidden):
            self.repeats.setdefault(h, []).append(i)


def _public_events(setup: Setup, events: Sequence, j: str) -> tuple:
    """(events opponent ``j`` sees, fixed shown (card, refuter), hidden (cards, refuter), out)."""
    ci = setup.card_indices
    pi = setup.player_indices
    pub, fixed, hidden = [], [], []
    out = False
    for ev in events:
        if isinstance(ev, (HandEvent, ShownEvent, LacksEvent)):
            continue
        if isinstance(ev, SuggestionEvent):
            if ev.refuter is not None and ev.suggester == j:
                if ev.shown is not None:
                    fixed.append((ci[ev.shown], pi[ev.refuter]))
                else:
                    hidden.append((tuple(ci[c] for c in ev.cards), pi[ev.refuter]))
            pub.append(SuggestionEvent(suggester=ev.suggester, cards=ev.cards, passed=ev.passed, refuter=ev.refuter,
                                       shown=None))
        elif isinstance(ev, AccusationEvent):
            if ev.player == j and not ev.correct:
                out = True
            pub.append(ev)
        else:
            pub.append(ev)
    return pub, fixed, hidden, out


def _view_models(setup: Setup, events: Sequence) -> list:
    models = []
    for name in setup.players:
        if name == setup.me:
            continue
        pub, fixed, hidden, out = _public_events(setup, events, name)
        models.append(_ViewModel(setup.players.index(name), constraints_for(setup, pub), fixed, hidden, out))
    return models


_VIEWS = LockedLRU(4)          # (setup, events) -> _view_models: their caches shared by calls


def _shared_view_models(setup: Setup, events: tuple) -> list:
    """:func:`_view_models` of this log, shared by the calls on the same log (the look-ahead
    asked again with more samples or under another suggestion model: the opponents' views do
    not depend on it), so that a view already counted is not counted again."""
    return _VIEWS.get_or_compute((setup, events), lambda: _view_models(setup, events))


def _blocks(setup: Setup) -> list:
    out, start = [], 0
    for _, deck in setup.categories:
        out.append((start, start + len(deck)))
        start += len(deck)
    return out


def _view_constraints(vm: _ViewModel, deal: np.ndarray, shown: tuple) -> Constraints:
    """Opponent ``vm.j``'s constraints: the public ones, their hand in ``deal``, the cards shown
    to them (``shown``: the hidden ones, aligned with ``vm.hidden``)."""
    cons = vm.public.copy()
    cons.allowed[:, vm.j] = False
    for c in np.flatnonzero(deal == vm.j):
        cons.allowed[c, :] = False
        cons.allowed[c, vm.j] = True
    for c, r in vm.fixed_shown:
        cons.force(c, r)
    for c, r in dict.fromkeys((c, r) for c, (_, r) in zip(shown, vm.hidden)):
        cons.force(c, r)
    return cons


def _belief(cons: Constraints, blocks, cancel) -> tuple:
    """(knows: 0/1, entropy bits, envelope marginal vector) of the uniform law on ``cons``."""
    res = count_deals(propagate(cons), cancel, marginals=True)
    if res.count == 0:      # cannot happen when the deal agrees with my log
        raise ContradictionError(-1, "an opponent's view admits no deal (the log contradicts itself)")
    env = res.marginal[:, -1] / res.count_float
    knows = 1.0 if all(float(env[a:b].max()) >= CERTAIN for a, b in blocks) else 0.0
    h = float(sum(entropy_bits(env[a:b]) for a, b in blocks))
    return knows, h, env


def _evaluate_view(vm: _ViewModel, deal: np.ndarray, shown: tuple, blocks, cancel) -> tuple:
    """(knows: 0/1, entropy bits, envelope marginals) of opponent ``vm.j``'s belief when the deal
    is ``deal`` and the hidden shown cards are ``shown`` (card indices, aligned with
    ``vm.hidden``). Cached by view (their hand and the shown cards)."""
    key = (tuple(np.flatnonzero(deal == vm.j).tolist()), shown)
    hit = vm.cache.get(key)
    if hit is None:
        check_cancel(cancel)
        hit = vm.cache[key] = _belief(_view_constraints(vm, deal, shown), blocks, cancel)
    return hit


def _draw_shown(vm: _ViewModel, deal: np.ndarray, rng: np.random.Generator) -> tuple:
    """A card shown to ``vm.j`` for each of their hidden refutations (aligned with
    ``vm.hidden``): one of the refuter's matching cards in ``deal``, uniformly, each refutation
    on its own. A suggestion logged several times draws its cards together (one call for all
    its copies); without repeats the draws are the same, in the same order, as one per entry."""
    out: list = [None] * len(vm.hidden)
    for (cards, r), where in vm.repeats.items():
        opts = [c for c in cards if deal[c] == r]
        if len(where) == 1:
            out[where[0]] = opts[int(rng.integers(len(opts)))]
        else:
            for i, x in zip(where, rng.integers(len(opts), size=len(where)).tolist()):
                out[i] = opts[x]
    return tuple(out)


def _choices(vm: _ViewModel, deal: np.ndarray) -> list:
    """For each hidden shown card: the refuter's matching cards in ``deal`` (card indices)."""
    return [[c for c in cards if deal[c] == r] for cards, r in vm.hidden]


# ---------------------------------------------------------------------------------------------
# exact enumeration
# ---------------------------------------------------------------------------------------------
def enumerate_deals(cons: Constraints, limit: int, cancel=None) -> Optional[np.ndarray]:
    """Every deal consistent with ``cons``: int array (D, n_cards) of owner indices, or None when
    there are more than ``limit``. Splits on a card with two possible owners (by the exact
    marginals), so every split branches and at most ``2 D`` counts are made."""
    res = count_deals(propagate(cons.copy()), cancel, marginals=True)
    if res.count == 0:
        return np.zeros((0, len(cons.cat_of)), dtype=np.int64)
    if res.count > limit:
        return None
    out: list = []

    def rec(c_cons: Constraints, marg: np.ndarray) -> None:
        check_cancel(cancel)
        pos = marg > 0
        multi = np.flatnonzero(pos.sum(axis=1) > 1)
        if multi.size == 0:
            out.append(np.argmax(pos, axis=1).astype(np.int64))
            return
        c = int(multi[0])
        for o in np.flatnonzero(pos[c]):
            sub = c_cons.copy()
            sub.force(c, int(o))
            r = count_deals(propagate(sub.copy()), cancel, marginals=True)
            if r.count > 0:
                rec(sub, r.marginal)

    rec(cons.copy(), res.marginal)
    return np.array(out, dtype=np.int64)


def _exact(setup, models, deals, blocks, cancel) -> tuple:
    """Per deal and opponent: E[knows], E[entropy] over every shown-card combination."""
    n, m = len(deals), len(models)
    q = np.zeros((n, m))
    h = np.zeros((n, m))
    for i, deal in enumerate(deals):
        for jj, vm in enumerate(models):
            opts = _choices(vm, deal)
            w = 1.0 / math.prod(len(o) for o in opts) if opts else 1.0
            for combo in _product(opts):
                kn, hb, _ = _evaluate_view(vm, deal, combo, blocks, cancel)
                q[i, jj] += w * kn
                h[i, jj] += w * hb
    return q, h


def _product(opts) -> Iterator[tuple]:
    import itertools

    return itertools.product(*opts)


def _combos(models, deals) -> int:
    return sum(math.prod(len(o) for o in _choices(vm, d)) for d in deals for vm in models)


# ---------------------------------------------------------------------------------------------
# the estimate
# ---------------------------------------------------------------------------------------------
def _interval(values: np.ndarray, exact: bool) -> Optional[tuple]:
    """95 % interval of the mean of ``values``: ``(p, p)`` when exact; Wilson's score interval
    when they are sampled 0/1 outcomes (:func:`engines.core.stats.wilson_interval`), from at
    least :data:`MIN_INTERVAL_SAMPLES` of them; else None."""
    n = len(values)
    if exact:
        p = float(np.clip(values.mean(), 0.0, 1.0)) if n else 0.0
        return (p, p)
    if n < MIN_INTERVAL_SAMPLES or not np.all((values == 0) | (values == 1)):
        return None
    from engines.core.stats import wilson_interval

    lo, hi = wilson_interval(int(values.sum()), n)
    return (round(lo, 9), round(hi, 9))


def _summary(setup, models, q, h, exact, t0, final, look=None, weights=None) -> OpponentsEstimate:
    """The estimate from per-deal values ``q``, ``h`` (arrays (deals, opponents)); ``weights``:
    the enumerated deals' probabilities under the suggestion model (exact case; None: the deals
    are equally likely, or sampled from the law the figures are about)."""
    n = q.shape[0]

    def mean(x):
        return float(x.mean()) if weights is None else float(np.dot(weights, x))
    opp = {}
    for jj, vm in enumerate(models):
        name = setup.players[vm.j]
        if exact:
            se_q = se_h = 0.0
        else:
            se_q = float(np.std(q[:, jj], ddof=1) / math.sqrt(n)) if n > 1 else 0.5
            se_h = float(np.std(h[:, jj], ddof=1) / math.sqrt(n)) if n > 1 else 0.0
        p_j = float(np.clip(mean(q[:, jj]), 0.0, 1.0))
        opp[name] = OpponentKnowledge(name, p_j,
                                      float(max(mean(h[:, jj]), 0.0)), se_q, se_h, exact, n, vm.out,
                                      _interval(q[:, jj], exact) if weights is None else (p_j, p_j))
    active = [jj for jj, vm in enumerate(models) if not vm.out]
    if active:
        any_k = 1.0 - np.prod(1.0 - q[:, active], axis=1)
    else:
        any_k = np.zeros(n)
    p_any = float(np.clip(mean(any_k), 0.0, 1.0))
    se_any = 0.0 if exact else (float(np.std(any_k, ddof=1) / math.sqrt(n)) if n > 1 else 0.5)
    p_next = se_next = None
    if look is not None and len(look):
        p_next = float(np.clip(look.mean(), 0.0, 1.0))
        se_next = float(np.std(look, ddof=1) / math.sqrt(len(look))) if len(look) > 1 else 0.5
    interval_any = _interval(any_k, exact) if weights is None else (p_any, p_any)
    return OpponentsEstimate(opp, p_any, se_any, exact, n, time.perf_counter() - t0, final, p_next, se_next,
                             interval_any,
                             None if look is None or not len(look) else _interval(look, False))


def iter_opponent_knowledge(setup: Setup, events: Sequence = (), *, seed: Optional[int] = 0,
                            first_batch: int = 16, max_samples: int = 4096, cancel=None,
                            exact_max_deals: int = EXACT_MAX_DEALS,
                            exact_max_views: int = EXACT_MAX_VIEWS,
                            lookahead: bool = False,
                            rhos: Optional[dict] = None) -> Iterator[OpponentsEstimate]:
    """Estimates of every opponent's knowledge, refined step by step (see the module docstring).

    Exact case: one estimate (``exact=True``, ``final=True``). Sampled case: an estimate after
    ``first_batch`` deals, then after every doubling of the sample, up to ``max_samples`` deals
    (the last has ``final=True``); a caller with a deadline keeps the latest one.

    Args:
        setup, events: the table and my log.
        seed: random seed (fixed by default: the same log gives the same figures).
        first_batch: deals in the first estimate (>= 2).
        max_samples: deals in the last estimate (capped at ``MAX_SAMPLES``).
        cancel: zero-argument callable; :class:`engines.core.errors.Cancelled` when true.
        exact_max_deals, exact_max_views: enumerate when my log leaves at most this many deals
            and (deals x shown-card combinations x opponents) is at most ``exact_max_views``.
        lookahead: also estimate ``p_any_knows_next`` (from the same sampled deals; in the
            exact case from ``first_batch`` x 4 deals drawn uniformly from the enumerated ones).
        rhos: the suggestion model (``{player: rho}``; ``{}``: none; None: the setup's,
            :func:`engines.cluedo.suggestions.advice_rhos`): the true deal is then drawn from my
            weighted posterior (sampled: the weighted sampler; exact: every enumerated deal
            weighted by the model's likelihood, the look-ahead's deals drawn by those weights).
            Each opponent's belief stays their plain posterior of what they saw. The estimates
            name the model (``rhos``, ``assumes``).
    Yields:
        :class:`OpponentsEstimate`.
    Raises:
        ContradictionError: my log is impossible (names the first impossible event).
        SessionFormatError: the first estimate cannot fit the budget even from
            :data:`MIN_FIRST_BATCH` deals (:func:`engines.cluedo.cost.check_opponents`, at
            ``$.setup.players``); between that and ``first_batch`` the first estimate is made
            from as many deals as fit.
    """
    from engines.cluedo.suggestions import advice_rhos, apply_rhos, deal_weights, model_label

    t0 = time.perf_counter()
    events = tuple(events)
    blocks = _blocks(setup)
    cons = constraints_for(setup, events)
    rhos = advice_rhos(setup, events, cancel, rhos)
    named = {"rhos": dict(rhos), "assumes": model_label(setup, rhos)}
    if rhos:
        apply_rhos(cons, setup, events, rhos)      # rho 0: forbidden cells; else cell weights
    plain = cons.copy()
    plain.weights = {}                             # the enumeration counts deals, unweighted
    models = _view_models(setup, events)
    deals = enumerate_deals(plain, exact_max_deals, cancel) if exact_max_deals > 0 else None
    if deals is not None and len(deals) == 0:
        _raise_contradiction(setup, events, cancel)
        raise_model_contradiction(events)
    if deals is not None and _combos(models, deals) <= exact_max_views:
        q, h = _exact(setup, models, deals, blocks, cancel)
        weights = None
        if rhos:
            weights = deal_weights(setup, events, rhos, deals)
            weights = weights / weights.sum()
        look = None
        if lookahead:
            rng = np.random.default_rng(seed)
            size = max(4 * first_batch, 2)
            pick = deals[rng.integers(len(deals), size=size) if weights is None
                         else rng.choice(len(deals), size=size, p=weights)]
            look = _lookahead_values(models, pick, len(setup.players), blocks, rng, cancel)
        yield replace(_summary(setup, models, q, h, True, t0, True, look, weights), **named)
        return
    res = count_deals(propagate(cons), cancel, marginals=False, keep_backward=True)
    if res.count == 0:
        _raise_contradiction(setup, events, cancel)
        raise_model_contradiction(events)
    rng = np.random.default_rng(seed)
    max_samples = int(min(max(max_samples, 2), MAX_SAMPLES))
    batch = int(min(max(first_batch, 2), max_samples))
    from engines.cluedo.cost import check_opponents, opponent_deals_that_fit

    # the first estimate must fit: on the largest tables (Master Detective with 9 or 10 players)
    # it is made from fewer deals, never under MIN_FIRST_BATCH, and refined as time allows
    batch = opponent_deals_that_fit(res.comp, len(setup.players), batch, min(batch, MIN_FIRST_BATCH))
    check_opponents(res.comp, len(setup.players), batch)
    qs, hs, looks = [], [], []
    n = 0
    while n < max_samples:
        check_cancel(cancel)
        take = min(batch, max_samples - n)
        sample = res.sample(take, rng)
        q = np.zeros((take, len(models)))
        h = np.zeros((take, len(models)))
        for i, deal in enumerate(sample):
            for jj, vm in enumerate(models):
                combo = _draw_shown(vm, deal, rng)
                q[i, jj], h[i, jj], _ = _evaluate_view(vm, deal, combo, blocks, cancel)
        qs.append(q)
        hs.append(h)
        if lookahead:
            looks.append(_lookahead_values(models, sample, len(setup.players), blocks, rng, cancel))
        n += take
        batch = n             # doubling
        yield replace(_summary(setup, models, np.concatenate(qs), np.concatenate(hs), False, t0,
                               n >= max_samples, np.concatenate(looks) if lookahead else None), **named)


def opponent_knowledge(setup: Setup, events: Sequence = (), *, budget_seconds: Optional[float] = 1.5,
                       seed: Optional[int] = 0, max_samples: int = 4096, cancel=None,
                       **kwargs) -> OpponentsEstimate:
    """Every opponent's knowledge of the envelope: the last estimate of
    :func:`iter_opponent_knowledge` finished within ``budget_seconds`` (None: run to
    ``max_samples``). The first estimate is always returned, even when late.

    Measured (``tests/benchmarks/bench_opponents.py``, 6 players, classic deck, 20 suggestions):
    see docs/performance.md.

    Returns:
        :class:`OpponentsEstimate` (``final`` False when the budget stopped the refinement).
    Raises:
        ContradictionError: my log is impossible. Cancelled: ``cancel()`` became true.
    """
    t0 = time.perf_counter()
    last = None
    it = iter_opponent_knowledge(setup, events, seed=seed, max_samples=max_samples, cancel=cancel, **kwargs)
    for est in it:
        last = est
        elapsed = time.perf_counter() - t0
        if budget_seconds is not None and est.samples and elapsed > 0:
            # the next estimate doubles the sample (and costs about as much as all before it):
            # stop when it would end after the budget, with a 20 % margin
            if 2.2 * elapsed > budget_seconds:
                break
    it.close()
    return last


def _lookahead_knows(vm: _ViewModel, deal: np.ndarray, combo: tuple, k: int, blocks, rng, cancel) -> float:
    """1.0 when opponent ``vm.j`` can name the envelope once their next suggestion is answered
    (the suggestion drawn as in :func:`p_any_knows_after_next_suggestion`), else 0.0."""
    knows, _, env = _evaluate_view(vm, deal, combo, blocks, cancel)
    if knows:
        return 1.0
    check_cancel(cancel)
    triple = []
    for a, b in blocks:
        ok = [c for c in range(a, b) if env[c] > 0]
        triple.append(ok[int(rng.integers(len(ok)))])
    outcome = None                   # (refuter, card shown), or None: nobody refutes
    for step in range(1, k):
        p = (vm.j + step) % k
        have = [c for c in triple if deal[c] == p]
        if have:
            outcome = (p, have[int(rng.integers(len(have)))])
            break
    # the view after the suggestion depends on the deal only through the view and the outcome
    key = ("look", tuple(np.flatnonzero(deal == vm.j).tolist()), combo, tuple(triple), outcome)
    hit = vm.cache.get(key)
    if hit is None:
        view = _view_constraints(vm, deal, combo)
        for step in range(1, k):
            p = (vm.j + step) % k
            if outcome is not None and p == outcome[0]:
                view.force(outcome[1], p)
                break
            for c in triple:
                view.forbid(c, p)
        hit = vm.cache[key] = _belief(view, blocks, cancel)[0]
    return hit


def p_any_knows_after_next_suggestion(setup: Setup, events: Sequence = (), *, samples: int = 128,
                                      seed: Optional[int] = 0, cancel=None,
                                      rhos: Optional[dict] = None) -> tuple:
    """P(some opponent still in the game can name the envelope once their next suggestion is
    answered) — a look-ahead of one suggestion per opponent; each opponent moves once before my
    next turn.

    Model: as in the module docstring, plus: opponent ``j`` suggests, in each category, a card
    drawn uniformly from those ``j``'s belief still allows in the envelope; the first player
    after ``j`` holding a suggested card shows one of them uniformly; ``j`` adds who passed and
    the card shown to their view. (Each opponent's look-ahead uses only their own suggestion.)
    Estimated from ``samples`` exact uniform samples of the deal (with a suggestion model
    ``rhos``, as :func:`iter_opponent_knowledge`: exact samples of my weighted posterior).

    Returns:
        ``(probability, standard_error)``.
    Raises:
        ContradictionError: my log is impossible. Cancelled: ``cancel()`` became true.
    """
    n = int(min(max(samples, 2), MAX_SAMPLES))
    vals = np.fromiter(iter_lookahead(setup, events, samples=n, seed=seed, cancel=cancel, rhos=rhos),
                       dtype=float, count=n)
    return float(vals.mean()), float(vals.std(ddof=1) / math.sqrt(n))


def iter_lookahead(setup: Setup, events: Sequence = (), *, samples: int = 128, seed: Optional[int] = 0,
                   cancel=None, rhos: Optional[dict] = None) -> Iterator[float]:
    """The sampled deals of :func:`p_any_knows_after_next_suggestion`, one at a time: for each of
    ``samples`` (at least 2) exact samples of my (weighted) posterior, 1.0 when some active
    opponent can name the envelope once their next suggestion is answered, else 0.0, in the
    same order and with the same random draws as :func:`p_any_knows_after_next_suggestion`
    (whose mean and standard error are those of all of them). A caller whose decision no longer
    depends on the deals still to come stops consuming: the views of those deals are never
    counted (sequential stopping; the deals evaluated are the same as without stopping).

    Raises:
        ContradictionError: my log is impossible (at the first value). Cancelled: ``cancel()``
            became true.
    """
    from engines.cluedo.suggestions import advice_rhos, apply_rhos

    events = tuple(events)
    blocks = _blocks(setup)
    cons = constraints_for(setup, events)
    rhos = advice_rhos(setup, events, cancel, rhos)
    if rhos:
        apply_rhos(cons, setup, events, rhos)
    models = [vm for vm in _shared_view_models(setup, events) if not vm.out]
    res = count_deals(propagate(cons), cancel, marginals=False, keep_backward=True)
    if res.count == 0:
        _raise_contradiction(setup, events, cancel)
        raise_model_contradiction(events)
    n = int(min(max(samples, 2), MAX_SAMPLES))
    rng = np.random.default_rng(seed)
    for deal in res.sample(n, rng):
        yield _lookahead_value(models, deal, len(setup.players), blocks, rng, cancel)


def _lookahead_value(models, deal, k, blocks, rng, cancel) -> float:
    """1 - prod over the active opponents of (1 - look-ahead knows) for one deal."""
    none_knows = 1.0
    for vm in models:
        if vm.out:
            continue
        combo = _draw_shown(vm, deal, rng)
        none_knows *= 1.0 - _lookahead_knows(vm, deal, combo, k, blocks, rng, cancel)
        if none_knows == 0.0:
            break
    return 1.0 - none_knows


def _lookahead_values(models, deals, k, blocks, rng, cancel) -> np.ndarray:
    """Per deal: 1 - prod over the active opponents of (1 - look-ahead knows)."""
    vals = np.zeros(len(deals))
    for i, deal in enumerate(deals):
        vals[i] = _lookahead_value(models, deal, k, blocks, rng, cancel)
    return vals
