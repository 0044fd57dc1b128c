"""What to do next in Cluedo: the suggestion with the largest expected information gain about
the envelope, whether an accusation is certain, and which card to show when I must refute
(Agade09's Cluedo_Sheet, "recommend").

Expected information gain of my suggestion (s, w, r): the observable outcome ``O`` is who
refutes (the first player after me, in seating order, holding one of the three cards) and which
card I am shown — the refuter is modelled as choosing uniformly among their matching cards. The
gain is ``sum over categories of I(E_cat; O)`` in bits, where ``E_cat`` is the envelope's card of
that category: the expected reduction of :meth:`CluedoPosterior.envelope_entropy_bits`.

Two ways to compute it, used together:

* exact (:func:`exact_information_bits`): the outcome splits the deals into classes — nobody
  refutes, or the j-th player after me refutes holding exactly the subset M of the three
  cards — and each class is the log plus unary facts (the players before j lack the three
  cards, j holds M and lacks the rest). One exact count with marginals per class gives
  ``P(class)`` and ``P(E_cat = x | class)``; the shown card is uniform on M. At most
  ``1 + 7 (k - 1)`` counts per suggestion, fewer when known cards rule classes out.
* estimated: the joint law of (deal, outcome) from exact uniform samples of the consistent
  deals (the same samples for every candidate, so the ranking is not blurred by independent
  noise; the refuter's choice is averaged, not sampled). It ranks all candidates quickly.

* all at once (:func:`engines.cluedo.outcomes.envelope_information`): the exact outcome law of
  every candidate from one pair of forward/backward passes of the counting DP with clamped rows,
  per conditioning "card x is in the envelope" (``I(E_cat; O) = H(O) - H(O | E_cat)``). All 324
  classic suggestions in 0.02-0.45 s of CPU time (``bench_cluedo.py --recommend``).

:func:`recommend` uses the all-at-once computation when its estimated work fits
``_BATCH_WORK`` (every classic game; a Master Detective game in one room when small enough):
every candidate is then exact. Otherwise it ranks every candidate by the estimate, then replaces
the estimate by the exact value for the best candidates, in that order, within a time budget
(the ones computed are marked exact), and sorts again.

The measure is the *sum over the three categories* of the information about each category's
envelope card, not the joint information ``I(E_S, E_W, E_R; O)`` about the whole envelope (the
two differ: the outcome's information about two categories can overlap). The joint value is
offered beside it (``joint_bits``) when its cost — one conditioning per possible envelope
instead of per possible envelope card, about 3-5x the sum's mid-game and far more early on —
fits ``_JOINT_WORK``.
"""
from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field
from typing import Callable, Optional, Sequence

import numpy as np

from engines.cluedo.accuse import accusation_without_opponents, recommendation_keys
from engines.cluedo.counting import count_deals, propagate
from engines.cluedo.inference import _raise_contradiction, constraints_for, infer, raise_model_contradiction
from engines.cluedo.model import HandEvent, LacksEvent, Setup, ShownEvent, SuggestionEvent
from engines.cluedo.outcomes import envelope_information, estimated_work
from engines.cluedo.suggestions import advice_rhos, apply_rhos, model_label
from engines.core.errors import SessionFormatError, check_cancel
from engines.core.info import entropy_bits, mutual_information_bits

CERTAIN = 1.0 - 1e-9
_BATCH_WORK = 1.5e9     # estimated entries (~1e9 per CPU second): all candidates exact at once
_JOINT_WORK = 2.0e8     # the same estimate x the number of possible envelopes / conditionings


@dataclass(frozen=True)
class CluedoRecommendation:
    """The next move for me.

    Fields:
        suggestions: list of ``(suspect, weapon, room, information_bits)``, best first;
            ``information_bits`` is the expected information gain about the envelope (bits):
            ``sum over categories X of I(E_X; O)``, ``E_X`` the envelope's card of category X
            and ``O`` the outcome (who refutes, which card I am shown).
        accusation: ``(suspect, weapon, room)`` when the envelope is certain, else None.
        room: the room the ranking was restricted to, or None (all rooms).
        envelope_entropy_bits: current envelope uncertainty (bits).
        samples: number of consistent deals sampled for the estimate.
        seconds: wall time.
        exact: the ``(suspect, weapon, room)`` whose information is exact; the others are
            estimated from the samples.
        joint_bits: ``{(suspect, weapon, room): I(E; O)}`` in bits, the exact joint information
            about the whole envelope ``E``, when it was affordable (else empty).
        notes: what was left out or counted less exactly to fit the budget of
            :mod:`engines.cluedo.cost`, in words (empty when nothing was).
        suggestion_model: the suggestion model every figure assumes, ``{"rho": {player: rho},
            "assumes": "assuming Ann suggests what they lack (ρ 0.25)"}``; None without one
            (the plain posterior).
    """

    suggestions: list
    accusation: Optional[tuple]
    room: Optional[str] = None
    envelope_entropy_bits: float = 0.0
    samples: int = 0
    seconds: float = 0.0
    exact: frozenset = frozenset()
    joint_bits: dict = field(default_factory=dict)
    opponents: Optional[dict] = None          # engines.cluedo.accuse.recommendation_keys
    accusation_advice: Optional[dict] = None
    notes: tuple = ()                         # what was left out to fit the budget, in words
    suggestion_model: Optional[dict] = None   # {"rho": {player: rho}, "assumes": words}; None: none

    def is_exact(self, suspect: str, weapon: str, room: str) -> bool:
        """Whether that suggestion's information is exact (else estimated from the samples)."""
        return (suspect, weapon, room) in self.exact

    def to_json(self) -> dict:
        return {"game": "cluedo",
                "accusation": self.accusation_advice,
                "opponents": self.opponents,
                "room": self.room,
                "envelope_entropy_bits": self.envelope_entropy_bits,
                "samples": self.samples,
                "suggestions": [{"suspect": s, "weapon": w, "room": r, "information_bits": b,
                                 "exact": (s, w, r) in self.exact,
                                 **({"joint_information_bits": self.joint_bits[(s, w, r)]}
                                    if (s, w, r) in self.joint_bits else {})}
                                for s, w, r, b in self.suggestions],
                "notes": list(self.notes),
                **({"suggestion_model": self.suggestion_model} if self.suggestion_model else {}),
                "seconds": round(self.seconds, 6)}


def _mi_bits(labels: np.ndarray, n_labels: int, rows: np.ndarray, outs: np.ndarray, weights: np.ndarray,
             n_outs: int, n: int) -> float:
    """Plug-in mutual information (bits) between a per-sample label and the outcome, from
    weighted (sample, outcome) pairs."""
    joint = np.bincount(labels[rows] * n_outs + outs, weights=weights, minlength=n_labels * n_outs)
    joint = joint.reshape(n_labels, n_outs) / n
    return max(float(entropy_bits(joint.sum(1)) + entropy_bits(joint.sum(0)) - entropy_bits(joint)), 0.0)


def suggestion_outcomes(setup: Setup, deals: np.ndarray, suggester: str, triple_idx) -> tuple:
    """Outcome law of a suggestion for each sampled deal.

    Args:
        deals: int array (N, n_cards) of owner indices.
        suggester: who suggests; the others answer in seating order.
        triple_idx: card indices (suspect, weapon, room).
    Returns:
        ``(rows, outs, weights, n_outs)``: for each sample ``rows[i]``, outcome ``outs[i]`` has
        probability ``weights[i]``; outcome 0 = nobody refutes, ``1 + 3*j + t`` = the j-th
        player after the suggester refutes by showing card t of the triple.
    """
    players = list(setup.players)
    i = players.index(suggester)
    order = [(i + 1 + j) % len(players) for j in range(len(players) - 1)]
    own = deals[:, list(triple_idx)]                          # N x 3
    n = own.shape[0]
    holds = np.stack([own == p for p in order], axis=1)       # N x (k-1) x 3
    anyh = holds.any(axis=2)
    has_ref = anyh.any(axis=1)
    ref = np.argmax(anyh, axis=1)
    match = holds[np.arange(n), ref] & has_ref[:, None]       # N x 3
    cnt = match.sum(axis=1)
    rows, outs, weights = [np.flatnonzero(~has_ref)], [np.zeros(int((~has_ref).sum()), dtype=np.int64)], \
        [np.ones(int((~has_ref).sum()))]
    for t in range(3):
        sel = np.flatnonzero(match[:, t])
        rows.append(sel)
        outs.append(1 + 3 * ref[sel] + t)
        weights.append(1.0 / cnt[sel])
    return (np.concatenate(rows), np.concatenate(outs).astype(np.int64), np.concatenate(weights),
            1 + 3 * len(order))


def exact_information_bits(setup: Setup, cons, total: float, suggester: str, triple_idx,
                           cancel=None, compiled=None, log_scale: float = 0.0) -> float:
    """Exact expected information gain (bits) about the envelope of a suggestion.

    Args:
        setup: the table. cons: :class:`engines.cluedo.counting.Constraints` of the log.
        total: the number of consistent deals of ``cons`` (float, > 0).
        suggester: who suggests (the others answer in seating order).
        triple_idx: card indices (suspect, weapon, room).
        cancel: cancel flag.
        compiled: ``propagate(cons)`` when the caller has it (else computed here).
        log_scale: ``total``'s log factor when ``cons`` carries the suggestion model's weights
            (every class count is then a weighted count brought to that scale); 0 without.
    Returns:
        ``sum over categories of I(E_cat; O)`` in bits (float >= 0), ``O`` = (who refutes,
        which card is shown), the refuter choosing uniformly among their matching cards.
    Method: the class decomposition in the module docstring; one exact count with marginals
    (:func:`engines.cluedo.counting.count_deals`) per possible class.
    """
    players = list(setup.players)
    k = len(players)
    i = players.index(suggester)
    order = [(i + 1 + j) % k for j in range(k - 1)]
    triple = [int(c) for c in triple_idx]
    n_outs = 1 + 3 * len(order)
    blocks = []
    start = 0
    for _, deck in setup.categories:
        blocks.append((start, start + len(deck)))
        start += len(deck)
    joints = [np.zeros((b - a, n_outs)) for a, b in blocks]

    def add(c, outs_weights):
        check_cancel(cancel)
        res = count_deals(propagate(c), cancel, marginals=True)
        if res.count == 0:
            return
        env = res.marginal[:, -1]
        if res.log_scale != log_scale:
            env = env * float(np.exp(res.log_scale - log_scale))
        for (a, b), joint in zip(blocks, joints):
            col = env[a:b] / total
            for o, wgt in outs_weights:
                joint[:, o] += wgt * col

    # owners each card may still have after propagating the log: classes that need an owner
    # a card cannot have are empty and skipped without a count
    comp = compiled if compiled is not None else propagate(cons.copy())
    owners = {}
    for c in triple:
        if c in comp.fixed:
            owners[c] = {comp.fixed[c]}
        else:
            owners[c] = {o for o, *_ in comp.choices.get(c, ())} or set(range(k + 1))
    me_or_env = {i, k}
    if all(owners[c] & me_or_env for c in triple):
        nobody = cons.copy()
        for p in order:
            for c in triple:
                nobody.forbid(c, p)
        add(nobody, [(0, 1.0)])
    before = cons.copy()
    passed: set = set()
    for jpos, p in enumerate(order):
        for mask in range(1, 8):
            held = [t for t in range(3) if mask >> t & 1]
            if any(p not in owners[triple[t]] for t in held) or \
                    any(not (owners[triple[t]] - passed - {p}) for t in range(3) if t not in held):
                continue              # some card cannot be where the class puts it: empty
            c = before.copy()
            for t in range(3):
                if t in held:
                    c.force(triple[t], p)
                else:
                    c.forbid(triple[t], p)
            add(c, [(1 + 3 * jpos + t, 1.0 / len(held)) for t in held])
        for c in triple:
            before.forbid(c, p)
        passed.add(p)
        if any(not (owners[c] - passed) for c in triple):
            break                     # a card is only with players who passed: no later class
    return float(sum(mutual_information_bits(j) for j in joints))


@dataclass(frozen=True, kw_only=True)
class RecommendOptions:
    """How :func:`recommend` ranks: what to rank, how much to compute exactly, the opponents'
    budget and the suggestion model.

    Fields:
        room: rank only suggestions in this room (the room I am in); None: all rooms.
        samples: consistent deals sampled (exactly, from the posterior) for the estimate.
        seed: random seed of the sampler (fixed by default: the same log gives the same advice).
        exact_seconds: time budget (s) for replacing estimates by exact values, best estimates
            first (None: every candidate exact; 0: estimates only). When every candidate can be
            computed at once (every classic game), any value but 0 gives every candidate exact
            and the budget is not used.
        exact_top: count at most this many of the best estimates exactly (None: no limit;
            the tab asks for 24 as it lists 12); ignored when every candidate is computed at once.
        at_once: None (default): compute every candidate at once when the estimated work fits
            (see the module docstring); False: never (the staged path).
        opponents_seconds: time budget (s) for what each opponent knows and the accusation
            advice (:func:`engines.cluedo.accuse.recommendation_keys`; 0: skip the opponents).
        opponents_samples: a budget in sampled deals for the same instead (with ``seed``: the
            same input gives the same figures on any machine); None: ``opponents_seconds``.
            Lowered (never under 64) when the whole would not fit the budget of
            :mod:`engines.cluedo.cost`, unless ``samples_named`` (then refused).
        samples_named: the caller named ``opponents_samples`` (``--samples``).
        joint: None (default): offer the joint information ``joint_bits`` when its cost fits;
            False: never compute it (the turn advice needs only the per-card sum).
        rhos: the suggestion model (``{player: rho}``; ``{}``: none); None (default): the
            setup's (:func:`engines.cluedo.suggestions.advice_rhos`). With a model every figure
            is that of the weighted posterior (deals weighted by the model's likelihood, the
            worksheet's law): the information of each suggestion, the most probable envelope,
            the opponents' figures and the accuse-or-wait advice; ``suggestion_model`` says
            which model. Without one, the plain posterior (the same code paths as before the
            model existed).
    """

    room: Optional[str] = None
    samples: int = 4000
    seed: Optional[int] = 0
    exact_seconds: Optional[float] = 1.5
    exact_top: Optional[int] = None
    at_once: Optional[bool] = None
    opponents_seconds: Optional[float] = 1.0
    opponents_samples: Optional[int] = None
    samples_named: bool = False
    joint: Optional[bool] = None
    rhos: Optional[dict] = None


@dataclass(frozen=True, kw_only=True)
class _Ranking:
    """What both strategies share: the (weighted) posterior of the log, the candidates and the
    sizes the budget allows (:func:`_prepare`)."""

    t0: float
    cons: object                # engines.cluedo.counting.Constraints (with the model's weights)
    res: object                 # its CountResult (marginals, backward tensors for the sampler)
    env: np.ndarray             # P(card in the envelope)
    env_entropy: float
    accusation: Optional[tuple]
    cands: list                 # three lists of card indices
    plan: object                # engines.cluedo.cost plan (notes, best_envelope)
    opts: RecommendOptions      # the options with the sizes the plan lowered
    work: Optional[float]       # estimated work of the all-at-once ranking, None: not tried
    model: Optional[dict]       # CluedoRecommendation.suggestion_model


def recommend(setup: Setup, events: Sequence = (), *, options: Optional[RecommendOptions] = None,
              cancel=None, on_estimate: Optional[Callable[["CluedoRecommendation"], None]] = None,
              **fields) -> CluedoRecommendation:
    """Rank my possible suggestions by expected information gain about the envelope.

    Args:
        setup, events: the table and the log.
        options: :class:`RecommendOptions` (None: the defaults); ``fields``: any of its fields
            by keyword, overriding ``options`` (``recommend(setup, events, room="Hall")``).
        cancel: cancel flag (raises ``Cancelled``).
        on_estimate: called with the ranking estimated from the samples (no suggestion exact,
            no opponents' figures) before the exact values are counted, only on the staged path
            (the all-at-once computation does not fit ``_BATCH_WORK``): the app shows it
            meanwhile. Never called when every candidate is exact at once (every classic game).

    Two strategies (the module docstring): every candidate exact at once
    (:func:`_rank_at_once`) when its estimated work fits ``_BATCH_WORK``, else estimated from
    samples then the best made exact within the budget (:func:`_rank_staged`).
    Cost: estimated before the ranking starts (:func:`engines.cluedo.cost.plan_recommendation`);
    the sizes are lowered deterministically to fit :data:`engines.cluedo.cost.RECOMMEND_WORK`,
    or the recommendation is refused at once.
    Returns:
        :class:`CluedoRecommendation` (suggestions best first, information in bits;
        ``exact`` names the suggestions whose value is exact).
    Raises:
        ContradictionError: the log is impossible. SessionFormatError: unknown room; a
            recommendation that cannot fit the budget (naming the field and the estimate).
        TypeError: a keyword that is not a field of :class:`RecommendOptions`.
    """
    opts = dataclasses.replace(options or RecommendOptions(), **fields)
    events = tuple(events)
    rk = _prepare(setup, events, opts, cancel)
    if rk.work is not None and rk.work <= _BATCH_WORK:
        return _rank_at_once(setup, events, rk, cancel)
    return _rank_staged(setup, events, rk, cancel, on_estimate)


def _prepare(setup: Setup, events: tuple, opts: RecommendOptions, cancel) -> _Ranking:
    """The log's (weighted) posterior, the envelope's entropy and certain triple, the
    candidates, and the sizes that fit the budget."""
    t0 = time.perf_counter()
    (_, suspects), (_, weapons), (_, rooms) = setup.categories
    room = opts.room
    if room is not None and room not in rooms:
        raise SessionFormatError("room", f"unknown room {room!r}")
    cons = constraints_for(setup, events)
    rhos = advice_rhos(setup, events, cancel, opts.rhos)
    model = None
    if rhos:
        apply_rhos(cons, setup, events, rhos)
        model = {"rho": dict(rhos), "assumes": model_label(setup, rhos)}
    res = count_deals(propagate(cons.copy()), cancel, marginals=True, keep_backward=True)
    if res.count == 0:
        _raise_contradiction(setup, events, cancel)
        raise_model_contradiction(events)
    env = res.marginal[:, -1] / res.count_float
    cards = setup.cards
    accusation = None
    env_entropy = 0.0
    start = 0
    triple = []
    for _, deck in setup.categories:
        col = env[start:start + len(deck)]
        env_entropy += entropy_bits(col)
        j = int(np.argmax(col))
        triple.append(deck[j] if col[j] >= CERTAIN else None)
        start += len(deck)
    if all(triple):
        accusation = tuple(triple)
    ci = {c: i for i, c in enumerate(cards)}
    cands = [[ci[c] for c in suspects], [ci[c] for c in weapons],
             [ci[c] for c in ([room] if room else rooms)]]
    work = None
    if accusation is None and opts.exact_seconds != 0 and opts.at_once is not False:
        work = estimated_work(res.comp, cons.cat_of, cands, env)
    # the plan charges the at-once ranking by its conditionings up to exchangeable cards (as
    # it computes them); the choice of the path above keeps the plain estimate
    plan = _plan(setup, res, cands, accusation,
                 estimated_work(res.comp, cons.cat_of, cands, env, cons)
                 if work is not None and work <= _BATCH_WORK else None,
                 opts.samples, opts.exact_seconds, opts.exact_top, opts.opponents_seconds,
                 opts.opponents_samples, opts.samples_named)
    sized = {"samples": plan.rank_samples or opts.samples, "opponents_samples": plan.opponents_samples,
             "rhos": rhos}
    if plan.exact_top is not None:
        sized["exact_top"] = plan.exact_top
    if plan.opponents_samples == 0:             # left out to fit the budget (plan.notes)
        sized.update(opponents_seconds=0, opponents_samples=None)
    return _Ranking(t0=t0, cons=cons, res=res, env=env, env_entropy=float(env_entropy), accusation=accusation,
                    cands=cands, plan=plan, opts=dataclasses.replace(opts, **sized), work=work, model=model)


def _opponents(setup: Setup, events: tuple, rk: _Ranking, certain, cancel, best=None) -> tuple:
    """``(opponents, accusation advice)`` of the recommendation
    (:func:`engines.cluedo.accuse.recommendation_keys`) within the ranking's budget."""
    o = rk.opts
    if not rk.plan.best_envelope and not certain and o.opponents_seconds == 0:
        # neither the opponents' figures nor the most probable envelope fit the budget
        # (the recommendation's notes say so)
        return None, accusation_without_opponents(None, None, certain=False)
    return recommendation_keys(setup, events, certain, budget_seconds=o.opponents_seconds,
                               cancel=cancel, samples=o.opponents_samples, seed=o.seed, best=best,
                               rhos=o.rhos)


def _rank_at_once(setup: Setup, events: tuple, rk: _Ranking, cancel) -> CluedoRecommendation:
    """Every candidate exact from the outcome laws of :mod:`engines.cluedo.outcomes`, with the
    joint information when affordable and the most probable envelope as a by-product."""
    cons, res, env, cands, cards = rk.cons, rk.res, rk.env, rk.cands, setup.cards
    info = envelope_information(res.comp, cons.cat_of, cands, setup.players.index(setup.me),
                                res.count_float, env, cancel=cancel, cons=cons,
                                joint=rk.opts.joint is not False and rk.work * _envelopes(cons.cat_of, env)
                                <= _JOINT_WORK * _conds(cons.cat_of, env),
                                log_scale=res.log_scale)
    triples = [(i, j, m) for i in range(len(cands[0])) for j in range(len(cands[1])) for m in range(len(cands[2]))]
    names = [(cards[cands[0][i]], cards[cands[1][j]], cards[cands[2][m]]) for i, j, m in triples]
    out = [name + (float(info["sum"][t]),) for name, t in zip(names, triples)]
    joint = {name: float(info["joint"][t]) for name, t in zip(names, triples)} if "joint" in info else {}
    out.sort(key=lambda t: (-t[3], cards.index(t[2]), cards.index(t[0]), cards.index(t[1])))
    best = None
    if rk.opts.room is None and "envelope" in info:
        best = _most_probable(info["envelope"], cands, cards)
    opponents, advice = _opponents(setup, events, rk, None, cancel, best)
    return CluedoRecommendation(out, None, rk.opts.room, rk.env_entropy, 0, time.perf_counter() - rk.t0,
                                frozenset(t[:3] for t in out), joint, opponents=opponents,
                                accusation_advice=advice, notes=rk.plan.notes, suggestion_model=rk.model)


def _rank_staged(setup: Setup, events: tuple, rk: _Ranking, cancel, on_estimate) -> CluedoRecommendation:
    """Every candidate estimated from the same sampled deals, then the best estimates replaced
    by exact values (:func:`exact_information_bits`) within the budget, and sorted again."""
    o, res, cards = rk.opts, rk.res, setup.cards
    (_, suspects), (_, weapons), (_, rooms) = setup.categories
    rng = np.random.default_rng(o.seed)
    deals = res.sample(max(int(o.samples), 1), rng)
    n = deals.shape[0]
    k = len(setup.players)
    labels = []                 # envelope card index per category for each sample
    start = 0
    for _, deck in setup.categories:
        block = deals[:, start:start + len(deck)] == k
        labels.append((np.argmax(block, axis=1), len(deck)))
        start += len(deck)
    ci = {c: i for i, c in enumerate(cards)}
    out = []
    exact = set()

    def key(t):
        return (-t[3], cards.index(t[2]), cards.index(t[0]), cards.index(t[1]))
    if rk.accusation is None:
        for r in ([o.room] if o.room else rooms):
            check_cancel(cancel)
            for s in suspects:
                for w in weapons:
                    rows, outs, wts, n_outs = suggestion_outcomes(setup, deals, setup.me, (ci[s], ci[w], ci[r]))
                    bits = sum(_mi_bits(lab, nl, rows, outs, wts, n_outs, n) for lab, nl in labels)
                    out.append((s, w, r, bits))
        out.sort(key=key)
        if o.exact_seconds is None or o.exact_seconds > 0:
            if on_estimate is not None:
                on_estimate(CluedoRecommendation(list(out), rk.accusation, o.room, rk.env_entropy, n,
                                                 time.perf_counter() - rk.t0, frozenset()))
            t_exact = time.perf_counter()
            for j, (s, w, r, _) in enumerate(out):
                if o.exact_seconds is not None and time.perf_counter() - t_exact > o.exact_seconds:
                    break
                if o.exact_top is not None and j >= o.exact_top:
                    break
                bits = exact_information_bits(setup, rk.cons, res.count_float, setup.me,
                                              (ci[s], ci[w], ci[r]), cancel, res.comp, res.log_scale)
                out[j] = (s, w, r, bits)
                exact.add((s, w, r))
            out.sort(key=key)
    opponents, advice = _opponents(setup, events, rk, rk.accusation, cancel)
    return CluedoRecommendation(out, rk.accusation, o.room, rk.env_entropy, n,
                                time.perf_counter() - rk.t0, frozenset(exact), opponents=opponents,
                                accusation_advice=advice, notes=rk.plan.notes, suggestion_model=rk.model)


def _plan(setup: Setup, res, cands, accusation, at_once_work, samples, exact_seconds, exact_top,
          opponents_seconds, opponents_samples, samples_named):
    """The sizes of this recommendation within the budget (:mod:`engines.cluedo.cost`)."""
    from engines.cluedo.cost import plan_recommendation
    from engines.cluedo.counting import dp_size
    from engines.cluedo.opponents import MIN_INTERVAL_SAMPLES

    (_, suspects), (_, weapons), _ = setup.categories
    k = len(setup.players)
    opp_sampled = opponents_samples is not None or (opponents_seconds is None or opponents_seconds > 0)
    if opponents_samples is None and opp_sampled:
        first = 16 if opponents_seconds is not None else 4096    # the time budget stops the rest
    else:
        first = opponents_samples
    ranking = accusation is None
    return plan_recommendation(
        n_cards=len(setup.cards), n_players=k, n_suspects=len(suspects), n_weapons=len(weapons),
        n_candidates=(len(cands[0]) * len(cands[1]) * len(cands[2])) if ranking else 0,
        dp_work=dp_size(res.comp)[2], at_once_work=at_once_work if ranking else 0.0,
        rank_samples=int(samples) if ranking else 0,
        exact_top=exact_top if ranking and exact_seconds != 0 else 0,
        exact_budgeted=exact_seconds is not None,
        opponents_samples=first if opp_sampled else None,
        opponents_fixed=samples_named and opponents_samples is not None,
        n_opponents=k - 1, best_envelope=opp_sampled and accusation is None,
        min_opponent_samples=MIN_INTERVAL_SAMPLES)


def _most_probable(law: np.ndarray, cands, cards) -> tuple:
    """``((suspect, weapon, room), p)``: the most probable envelope from the law of every triple
    (float array (n_S, n_W, n_R); ties, within 1e-12 relative, to the first in deck order)."""
    top = float(law.max())
    i, j, l = np.argwhere(law >= top * (1 - 1e-12))[0]
    return (cards[cands[0][i]], cards[cands[1][j]], cards[cands[2][l]]), min(max(top, 0.0), 1.0)


def _conds(cat_of, env) -> int:
    """Conditionings of the sum measure: possible envelope cards of the uncertain categories."""
    m = [int(np.sum((np.asarray(cat_of) == j) & (env > 0))) for j in range(3)]
    return max(sum(x for x in m if x > 1), 1)


def _envelopes(cat_of, env) -> int:
    """Conditionings of the joint measure: an upper bound on the possible envelopes."""
    m = [int(np.sum((np.asarray(cat_of) == j) & (env > 0))) for j in range(3)]
    return int(np.prod(m))


def public_events(setup: Setup, events: Sequence, viewer: Optional[str] = None) -> list:
    """The part of my log another player (``viewer``) also knows: my hand, the cards shown to me
    and my 'lacks' facts are removed, the card shown to me in my own suggestions is hidden; a
    card I showed to ``viewer`` stays known to them."""
    me = setup.me
    out = []
    for ev in events:
        if isinstance(ev, HandEvent) and ev.player == me:
            continue
        if isinstance(ev, (ShownEvent,)):
            continue
        if isinstance(ev, LacksEvent) and ev.player == me:
            continue
        if isinstance(ev, SuggestionEvent) and ev.shown is not None:
            if ev.refuter == me and ev.suggester == viewer:
                out.append(ev)
                continue
            ev = SuggestionEvent(suggester=ev.suggester, cards=ev.cards, passed=ev.passed, refuter=ev.refuter,
                                 shown=None)
        out.append(ev)
    return out


def refute_advice(setup: Setup, events: Sequence, suggester: str, cards: Sequence, *, cancel=None) -> list:
    """When I must refute ``suggester``'s suggestion ``cards``: which of my matching cards to show.

    For each card I hold among ``cards``: the information it gives the suggester about the
    envelope, in bits = the drop of the envelope entropy (sum over categories, bits) of the
    posterior built from what the suggester can know (:func:`public_events`) when they learn I
    hold that card (0 when it drops nothing or they knew it already).

    Returns:
        list of ``(card, bits_revealed)``, least revealing first; empty when I hold none of
        ``cards`` (or I am the suggester).
    Raises:
        ContradictionError: the log is impossible. SessionFormatError: unknown player/card.
    """
    if suggester not in setup.players:
        raise SessionFormatError("suggester", f"unknown player {suggester!r}")
    for c in cards:
        if c not in setup.cards:
            raise SessionFormatError("cards", f"unknown card {c!r}")
    if suggester == setup.me:
        return []
    events = tuple(events)
    mine = infer(setup, events, cancel=cancel)
    col = setup.players.index(setup.me)
    matching = [c for c in cards if mine.matrix[setup.cards.index(c), col] >= CERTAIN]
    if not matching:
        return []
    pub = public_events(setup, events, suggester)
    base = infer(setup, pub, cancel=cancel)
    h0 = base.envelope_entropy_bits()
    out = []
    for c in matching:
        p = base.probability(c, setup.me)
        post = infer(setup, pub + [ShownEvent(player=setup.me, card=c)], cancel=cancel)
        bits = max(h0 - post.envelope_entropy_bits(), 0.0)
        surprisal = -np.log2(p) if p > 0 else float("inf")
        out.append((c, float(bits), float(surprisal)))
    out.sort(key=lambda t: (t[1], t[2], setup.cards.index(t[0])))
    return [(c, b) for c, b, _ in out]


def recommend_for_cli(setup: Setup, events: Sequence = (), *, seed: int = 0,
                      samples: Optional[int] = None) -> CluedoRecommendation:
    """:func:`recommend` as ``python -m engines recommend`` runs it: every budget counted in
    work, none in seconds, so the output (but its ``seconds``) depends only on the input,
    ``seed`` and ``samples`` (the opponents' sampled deals, default
    :data:`engines.cluedo.opponents.CLI_SAMPLES`, at least
    :data:`engines.cluedo.opponents.MIN_INTERVAL_SAMPLES`): the exact values replace the
    estimates of the 24 best suggestions (as many as the tab asks for), whatever the time.

    Raises:
        SessionFormatError: ``samples`` below the minimum; as :func:`recommend`.
    """
    from engines.cluedo.opponents import CLI_SAMPLES, MAX_SAMPLES, MIN_INTERVAL_SAMPLES

    n = CLI_SAMPLES if samples is None else samples
    if not MIN_INTERVAL_SAMPLES <= n <= MAX_SAMPLES:
        raise SessionFormatError("--samples", f"must be {MIN_INTERVAL_SAMPLES} to {MAX_SAMPLES}, "
                                              f"got {n} (fewer sampled deals give no interval)")
    return recommend(setup, events, seed=seed, exact_seconds=None, exact_top=24,
                     opponents_samples=n, samples_named=samples is not None)
