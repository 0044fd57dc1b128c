"""Exact public and private beliefs for Spyfall (“Spyfall with Pyro”, "Beliefs, Prior, Posterior",
"Public belief and Information gain", "Emission strategies to implement").

The hypothesis space is (location l, spy k): n × s worlds with a uniform prior. Each claim C_t
of speaker j has a Dirichlet likelihood whose parameter γ_t(l, k) is given by the speaker's
emission strategy (:func:`emission_params`). Because a non-spy's γ depends only on l and a spy's
γ does not depend on l at all, the log posterior factorises as

    log P(l, k | G_T) = const + Σ_t ℓ_t(l) − Σ_{t: j_t = k} ℓ_t(l) + Σ_{t: j_t = k} σ_t

with ℓ_t(l) = log Dir(C_t; γ_t^non-spy(l)) (n numbers) and σ_t = log Dir(C_t; γ_t^spy) (one
number). The engine keeps three running sums (T(l), M[k, l], Σ[k]) and so updates in O(n·s)
per claim — exactly, with no sampling. The same fold is the incremental interface
(:func:`initial`, :func:`update`, :func:`posterior`, :func:`copy_state`, :func:`state_bytes`;
:class:`engines.core.contract.IncrementalEngine`), so a timeline adds a claim in O(n·s) and a
log's every prefix costs O(T·n·s) in all instead of O(T²·n·s). The spy's own location belief
Q^(k) ∝ exp(T − M[k]) is the public posterior over N given that k is the spy, i.e. the claims of
the others read as non-spy claims (“Spyfall with Pyro”'s definition of Q_t).

Claim weight (a tempered likelihood, as in power posteriors — Grünwald & van Ommen 2017, "Inconsistency
of Bayesian inference for misspecified linear models"; Bissiri, Holmes & Walker 2016): the
observer multiplies claim t's log-likelihood under every hypothesis by w_t in (0, 1], so the
reported posterior is ∝ exp(Σ_t w_t·log p(C_t | l, k)). The speakers' emission parameters — the
spy's own belief Q and the public beliefs the dynamic rule reads — are computed from the
untempered sums exactly as with w = 1 (w tempers the observer's likelihood only), so w = 1 for
every claim is exactly “Spyfall with Pyro”'s model.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

import numpy as np

from engines.core.errors import CancelFlag, ContradictionError, SessionFormatError, check_cancel
from engines.core.info import kl_divergence_bits
from engines.spyfall.model import Ask, Claim, Setup

METHODS = ("exact", "enumeration")

#: Dynamic hide-reveal constants (see :func:`emission_params`).
DYNAMIC_LAMBDA_STEP = 0.2
DYNAMIC_LAMBDA_CAP = 0.95
DYNAMIC_BETA_SHRINK = 0.75



def _softmax(logw: np.ndarray, axis=None) -> np.ndarray:
    m = np.max(logw, axis=axis, keepdims=True)
    w = np.exp(logw - m)
    return w / w.sum(axis=axis, keepdims=True)


def kl_bits(new: np.ndarray, old: np.ndarray) -> float:
    """Information gain IG(old, new) = KL(new ‖ old) in bits (seed, "Information gain"), by
    :func:`engines.core.info.kl_divergence_bits`; both are probability vectors of one shape.
    Every world keeps a positive posterior in exact arithmetic; ``old`` is floored at 1e-300
    where extreme β underflows it in floating point, so the gain stays finite."""
    return kl_divergence_bits(new, old, floor=1e-300)


def top_suspect(spy_belief: np.ndarray, j: int) -> bool:
    """True when player ``j`` is (one of) the top public suspects and the spy belief is not flat."""
    hi, lo = float(spy_belief.max()), float(spy_belief.min())
    return hi - lo > 1e-9 and spy_belief[j] >= hi - 1e-9


def emission_params(strategy: str, beta: float, lam: float, j: int, public_location: np.ndarray,
                    public_spy: np.ndarray, spy_view: np.ndarray):
    """Dirichlet parameters of speaker ``j``'s claim under every hypothesis (seed, "Flat
    Hide-Reveal" and "Dynamic Hide-Reveal").

    Args:
        strategy: "flat", "dynamic" or "joker".
        beta: the speaker's base concentration β_j > 0.
        lam: the speaker's base reveal weight λ_j in [0, 1).
        j: the speaker's seat index.
        public_location: public location belief P̂_t before the turn, shape (n,).
        public_spy: public spy belief Ŝ_t before the turn, shape (s,).
        spy_view: Q_t^(j), the location belief the speaker holds if it is the spy, shape (n,).

    Returns:
        ``(a, b, gamma_spy)``: if the speaker is not the spy and the location is l,
        γ = a[l]·1 + b[l]·e_l (a, b of shape (n,)); if the speaker is the spy, γ = gamma_spy (n,).

    Flat hide-reveal: γ = β((1−λ)·1 + λ·P), P = e_l for a non-spy, Q for the spy.

    Dynamic hide-reveal (defined here exactly; the public observer applies the same rule under
    every hypothesis, so it is part of the likelihood):

    * λ_t = min(λ_j + 0.2, max(λ_j, 0.95)) when j is a top public suspect before the turn
      (Ŝ_t[j] equals the maximum of Ŝ_t and Ŝ_t is not flat), else λ_t = λ_j.
      Being suspected, the player reveals more.
    * β_t = β_j·(1 − 0.75·c), where c ∈ [0, 1] measures how much the public already knows the
      location: c = (P̂_t(l) − 1/n)/(1 − 1/n) clipped to [0, 1] for a non-spy at l, and
      c = (Σ_l Q(l)P̂_t(l) − 1/n)/(1 − 1/n) clipped for the spy (its expectation under Q).
      When the public is close to the truth, the player blurs (lower β) its claim.

    Joker: γ = 1 (a uniformly random claim whatever the world): its claims carry no evidence.
    """
    n = public_location.shape[0]
    if strategy == "joker":
        one = np.ones(n)
        return one, np.zeros(n), one
    if strategy == "flat":
        a = np.full(n, beta * (1.0 - lam))
        b = np.full(n, beta * lam)
        return a, b, beta * ((1.0 - lam) + lam * spy_view)
    if strategy == "dynamic":
        lam_t = min(lam + DYNAMIC_LAMBDA_STEP, max(lam, DYNAMIC_LAMBDA_CAP)) \
            if top_suspect(public_spy, j) else lam
        u = 1.0 / n
        c_non = np.clip((public_location - u) / (1.0 - u), 0.0, 1.0)
        c_spy = float(np.clip((float(spy_view @ public_location) - u) / (1.0 - u), 0.0, 1.0))
        beta_non = beta * (1.0 - DYNAMIC_BETA_SHRINK * c_non)
        beta_spy = beta * (1.0 - DYNAMIC_BETA_SHRINK * c_spy)
        return beta_non * (1.0 - lam_t), beta_non * lam_t, beta_spy * ((1.0 - lam_t) + lam_t * spy_view)
    raise ValueError(f"unknown strategy {strategy!r}")


def gammaln(x):
    """log Γ(x), elementwise (:func:`scipy.special.gammaln`, imported at the first claim:
    ``scipy.special`` takes about a second to import, which ``python -m engines parse`` and the
    app's start-up do not need)."""
    from scipy.special import gammaln as _gammaln

    return _gammaln(x)


def dirichlet_logpdf(c: np.ndarray, gamma: np.ndarray) -> float:
    """log Dirichlet(c; γ) for one claim c (n,) on the open simplex and γ (n,) > 0."""
    return float(gammaln(gamma.sum()) - gammaln(gamma).sum() + ((gamma - 1.0) * np.log(c)).sum())


def nonspy_loglik(c: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """log Dirichlet(c; a[l]·1 + b[l]·e_l) for every l at once, shape (n,)."""
    n = c.shape[0]
    logc = np.log(c)
    return (gammaln(n * a + b) - (n - 1) * gammaln(a) - gammaln(a + b)
            + (a - 1.0) * logc.sum() + b * logc)


class BeliefTracker:
    """Incremental exact posterior over (location, spy) for one table (the engine's core).

    Args:
        n: number of locations; s: number of players.
        betas, lambdas: per-player β (s,) and λ (s,); strategies: per-player strategy names.
        claim_weights: per-player claim weight w (s,) in (0, 1]; None = all 1 (untempered).

    After :meth:`add_claim` calls, :meth:`joint` is P(N = l, S = k | claims), shape (n, s),
    with every claim's log-likelihood multiplied by its weight. The emission model (Q and the
    public beliefs of the dynamic rule) uses the untempered sums (module docstring).
    Used by :func:`infer`, the bots of :mod:`engines.spyfall.simulate` and the Gymnasium env.
    """

    def __init__(self, n: int, s: int, betas, lambdas, strategies: Sequence[str],
                 claim_weights=None):
        self.n, self.s = n, s
        self.betas = np.asarray(betas, float)
        self.lambdas = np.asarray(lambdas, float)
        self.strategies = tuple(strategies)
        self.claim_weights = np.ones(s) if claim_weights is None else np.asarray(claim_weights, float)
        self.T = np.zeros(n)          # Σ_t ℓ_t(l)
        self.M = np.zeros((s, n))     # Σ_{t: j_t = k} ℓ_t(l)
        self.Sig = np.zeros(s)        # Σ_{t: j_t = k} σ_t
        self._joint = np.full((n, s), 1.0 / (n * s))
        # the observer's tempered sums Σ_t w_t ℓ_t(l) etc.; shared with the above while every w is 1
        self.Tw, self.Mw, self.Sigw = self.T, self.M, self.Sig
        self._model_joint = self._joint
        self._tempered = False

    def copy(self) -> "BeliefTracker":
        """An independent copy (the running sums copied; the observer's tempered sums stay
        shared with the untempered ones exactly when they are in this tracker)."""
        new = object.__new__(BeliefTracker)
        new.n, new.s = self.n, self.s
        new.betas, new.lambdas, new.strategies = self.betas, self.lambdas, self.strategies
        new.claim_weights = self.claim_weights
        new.T, new.M, new.Sig = self.T.copy(), self.M.copy(), self.Sig.copy()
        new._tempered = self._tempered
        if self._tempered:
            new.Tw, new.Mw, new.Sigw = self.Tw.copy(), self.Mw.copy(), self.Sigw.copy()
        else:
            new.Tw, new.Mw, new.Sigw = new.T, new.M, new.Sig
        # the joints are replaced, never changed in place (add_claim): shared
        new._joint, new._model_joint = self._joint, self._model_joint
        return new

    # -- beliefs -------------------------------------------------------------------------
    def log_joint(self) -> np.ndarray:
        """Unnormalised log posterior (tempered by the claim weights), shape (n, s)."""
        return self.Tw[:, None] - self.Mw.T + self.Sigw[None, :]

    def _model_log_joint(self) -> np.ndarray:
        return self.T[:, None] - self.M.T + self.Sig[None, :]

    def joint(self) -> np.ndarray:
        """P(N = l, S = k | claims), shape (n, s), sums to 1."""
        return self._joint

    def public_location(self) -> np.ndarray:
        """Public location belief P̂ (n,)."""
        return self._joint.sum(1)

    def public_spy(self) -> np.ndarray:
        """Public spy belief Ŝ (s,)."""
        return self._joint.sum(0)

    def spy_view(self, k: int) -> np.ndarray:
        """Q^(k): the location belief of player k if k is the spy (the claims of the others read as
        non-spy claims, uniform prior) = P(N | S = k, claims), shape (n,)."""
        return _softmax(self.T - self.M[k])

    def location_given_spy(self, k: int) -> np.ndarray:
        """The observer's P(N | S = k, claims) with tempered claims, shape (n,): the private
        location belief of player k when k is the spy and reads the claims with their weights
        (equal to :meth:`spy_view` when every w is 1)."""
        return _softmax(self.Tw - self.Mw[k])

    def private_spy(self, k: int, location: int) -> np.ndarray:
        """The spy belief of non-spy k who knows N = location: ∝ joint[location, i], i ≠ k; (s,)."""
        row = self.log_joint()[location].copy()
        row[k] = -np.inf
        return _softmax(row)

    def leave_one_out(self) -> tuple[np.ndarray, np.ndarray]:
        """Public beliefs without player j's claims, for every j (seed, "Public marginal belief").

        Returns:
            ``(loc, spy)`` of shapes (s, n) and (s, s): row j is the public location/spy belief
            computed from every claim except j's (the others' likelihood factors are kept as
            they are, conditional on the full history).
        """
        L = self.log_joint()
        loc = np.empty((self.s, self.n))
        spy = np.empty((self.s, self.s))
        for j in range(self.s):
            Lj = L - self.Mw[j][:, None]
            Lj[:, j] = self.Tw - self.Mw[j]
            P = _softmax(Lj)
            loc[j] = P.sum(1)
            spy[j] = P.sum(0)
        return loc, spy

    # -- evidence ------------------------------------------------------------------------
    def emission(self, j: int):
        """:func:`emission_params` of speaker j in the current public state (the untempered
        public beliefs: the speakers are modelled as reading every claim exactly)."""
        P = self._model_joint
        return emission_params(self.strategies[j], self.betas[j], self.lambdas[j], j,
                               P.sum(1), P.sum(0), self.spy_view(j))

    def add_claim(self, j: int, c: np.ndarray, params=None, weight=None) -> None:
        """Condition on claim ``c`` (n,) on the open simplex, spoken by seat ``j``.

        ``params`` may pass the already computed :meth:`emission` of this turn; ``weight``
        overrides the speaker's claim weight w for this claim (in (0, 1]).
        """
        a, b, g = self.emission(j) if params is None else params
        w = float(self.claim_weights[j] if weight is None else weight)
        ell = nonspy_loglik(c, a, b)
        sig = dirichlet_logpdf(c, g)
        if w != 1.0 and not self._tempered:
            self.Tw, self.Mw, self.Sigw = self.T.copy(), self.M.copy(), self.Sig.copy()
            self._tempered = True
        self.T += ell
        self.M[j] += ell
        self.Sig[j] += sig
        if self._tempered:
            self.Tw += w * ell
            self.Mw[j] += w * ell
            self.Sigw[j] += w * sig
            self._model_joint = _softmax(self._model_log_joint())
            self._joint = _softmax(self.log_joint())
        else:
            self._joint = self._model_joint = _softmax(self.log_joint())


@dataclass(frozen=True, eq=False)
class Posterior:
    """Public and private Spyfall beliefs after a log of claims.

    Attributes:
        method: "exact" (factorised running sums) or "enumeration" (scipy.stats.dirichlet per world).
        locations: n location names; players: s player names (seating order).
        joint: P(N = l, S = k | claims), ndarray (n, s), sums to 1.
        location: public location marginal {location: probability}.
        spy: public spy marginal {player: probability}.
        me: my name or None; i_am_spy: my role.
        private_location: my location belief {location: probability} (a point mass when I hold a
            location card; Q, the spy's belief, when I am the spy); None for an observer.
        private_spy: my spy belief {player: probability} (∝ joint[my location, k], k ≠ me, for a
            non-spy; a point mass on me for the spy); None for an observer.
        loo_location: (s, n) public location belief without player j's claims (row j).
        loo_spy: (s, s) public spy belief without player j's claims (row j).
        contribution_bits: {player: KL(public location ‖ leave-one-out location)} in bits.
        speaker_seats: seat index of each claim's speaker, read-only float ndarray (number
            of claims,); the prefixes of one log share its buffer. ``speakers`` gives them
            as a tuple of ints.
        information_gain_bits: per event, KL(P_t ‖ P_{t−1}) of the public location belief, bits
            (0 for an ask, which carries no evidence),
            read-only ndarray (T,).
        spy_information_gain_bits: per turn, the same for the public spy belief, bits (T,).
        private_information_gain_bits: per turn, the same for my private belief over what I do
            not know (location if I am the spy, the spy otherwise), bits (T,); empty for an
            observer.
        aggregate_information_gain_bits: KL(P_T ‖ P_0) of the public location belief, bits.
        private_aggregate_information_gain_bits: the same for my private belief (0 for an observer).

    The beliefs after earlier claims are the posteriors of the log's prefixes
    (:class:`engines.core.timeline.Timeline`).
    """

    method: str
    locations: tuple
    players: tuple
    joint: np.ndarray
    location: dict
    spy: dict
    me: Optional[str]
    i_am_spy: bool
    private_location: Optional[dict]
    private_spy: Optional[dict]
    loo_location: np.ndarray
    loo_spy: np.ndarray
    contribution_bits: dict
    speaker_seats: np.ndarray
    information_gain_bits: np.ndarray
    spy_information_gain_bits: np.ndarray
    private_information_gain_bits: np.ndarray
    aggregate_information_gain_bits: float
    private_aggregate_information_gain_bits: float

    @property
    def speakers(self) -> tuple:
        """Seat index of each claim's speaker, a tuple of ints (number of claims,), made on
        each call. A tuple kept per posterior cost O(claims) of memory for every prefix of a
        log (12.5 million references for the prefixes of 5,000 claims), and the cyclic
        collector scanned each once: young passes of 2 million references, 10-20 ms on the
        GUI thread, while such a log was opened (gc.get_referents;
        tests/benchmarks/bench_open_stall.py)."""
        return tuple(int(j) for j in self.speaker_seats)

    @property
    def leave_one_out(self) -> dict:
        """{player: {"location": {l: p}, "spy": {k: p}}} (see ``loo_location``/``loo_spy``)."""
        return {p: {"location": _named(self.locations, self.loo_location[j]),
                    "spy": _named(self.players, self.loo_spy[j])}
                for j, p in enumerate(self.players)}

    def to_json(self) -> dict:
        """The CLI output: ``{"game": "spyfall", "public": {"location", "spy"}, "private":
        {"location"} or {"spy"}, "information_gain_bits": [...], ...}``."""
        out = {"game": "spyfall", "method": self.method,
               "public": {"location": self.location, "spy": self.spy}}
        if self.me is not None:
            out["me"] = self.me
            out["private"] = ({"location": self.private_location} if self.i_am_spy
                              else {"spy": self.private_spy})
        out["information_gain_bits"] = list(self.information_gain_bits)
        out["spy_information_gain_bits"] = list(self.spy_information_gain_bits)
        if self.me is not None:
            out["private_information_gain_bits"] = list(self.private_information_gain_bits)
        out["aggregate_information_gain_bits"] = self.aggregate_information_gain_bits
        out["leave_one_out"] = self.leave_one_out
        out["contribution_bits"] = self.contribution_bits
        return out


def _named(names, values) -> dict:
    return {name: min(max(float(v), 0.0), 1.0) for name, v in zip(names, values)}


def _check_event(setup: Setup, i: int, ev) -> tuple[int, np.ndarray, float]:
    """``(speaker seat, claim vector, claim weight)`` of event number ``i``.

    Raises:
        SessionFormatError: at ``$.events[i]`` when the event is not a claim of this table.
    """
    if not isinstance(ev, Claim):
        raise SessionFormatError(f"$.events[{i}]", f"not a Spyfall claim: {type(ev).__name__}")
    if ev.player not in setup.players:
        raise SessionFormatError(f"$.events[{i}].player", f"unknown player {ev.player!r}")
    if len(ev.weights) != setup.n_locations:
        raise SessionFormatError(f"$.events[{i}].claim",
                                 f"expected {setup.n_locations} weights, got {len(ev.weights)}")
    j = setup.players.index(ev.player)
    w = setup.models[j].claim_weight if ev.claim_weight is None else ev.claim_weight
    return j, ev.vector, float(w)


def _check_ask(setup: Setup, i: int, ev: Ask) -> None:
    """Raises SessionFormatError at ``$.events[i]`` when an ask names a player not at the table."""
    for field_name in ("asker", "answerer"):
        if getattr(ev, field_name) not in setup.players:
            raise SessionFormatError(f"$.events[{i}].{field_name}",
                                     f"unknown player {getattr(ev, field_name)!r}")


def _check_events(setup: Setup, events) -> list[tuple[int, np.ndarray, float]]:
    """The claims of a log as ``(speaker seat, claim vector, claim weight)``; asks are checked
    and left out (they carry no evidence)."""
    out = []
    for i, ev in enumerate(events):
        if isinstance(ev, Ask):
            _check_ask(setup, i, ev)
        else:
            out.append(_check_event(setup, i, ev))
    return out


def _per_event(events, per_claim: np.ndarray) -> np.ndarray:
    """A per-claim series (T_claims,) spread over the events, 0 at every ask."""
    mask = np.array([not isinstance(e, Ask) for e in events], dtype=bool)
    out = np.zeros(mask.size)
    out[mask] = per_claim
    return out


class _Series:
    """An append-only float series whose prefixes share one buffer.

    A timeline keeps a state per log prefix; the per-turn information gains of those states are
    prefixes of one another, so they share storage: copying a state costs O(1) for its series,
    and a state that branches (an event replaced after an undo) copies only its own prefix.
    ``values`` is a read-only view, never changed afterwards.
    """

    __slots__ = ("_holder", "_n")

    def __init__(self, holder: Optional[list] = None, n: int = 0):
        # holder = [buffer (ndarray), how many entries of it some series has written]
        self._holder = holder if holder is not None else [np.empty(16), 0]
        self._n = n

    def append(self, x: float) -> "_Series":
        """This series with ``x`` appended (a new series object; ``self`` is unchanged)."""
        buf, used = self._holder
        n = self._n
        if used != n or n == buf.shape[0]:      # another series wrote past n, or full: copy
            grown = np.empty(max(16, 2 * (n + 1)))
            grown[:n] = buf[:n]
            holder = [grown, n]
        else:
            holder = self._holder
        holder[0][n] = x
        holder[1] = n + 1
        return _Series(holder, n + 1)

    @property
    def values(self) -> np.ndarray:
        """The series, shape (len,), read-only."""
        v = self._holder[0][:self._n]
        v.setflags(write=False)
        return v

    def __len__(self) -> int:
        return self._n


@dataclass(eq=False)
class _State:
    """The exact engine's state after a log prefix (the incremental interface).

    ``tracker`` holds the running sums; ``location``/``spy`` the public marginals (clipped) and
    ``private`` my private belief (None for an observer) after the prefix, ``*0`` before any
    claim; the ``_Series`` hold the per-turn information gains and speakers.
    """

    tracker: BeliefTracker
    location: np.ndarray
    spy: np.ndarray
    private: Optional[np.ndarray]
    location0: np.ndarray
    private0: Optional[np.ndarray]
    ig: _Series
    ig_spy: _Series
    ig_private: _Series
    speakers: _Series


def _private_belief(setup: Setup, tr: BeliefTracker) -> Optional[np.ndarray]:
    """My private belief over what I do not know: Q (locations) as the spy, the spy belief as a
    non-spy (from the log joint: the row may underflow when I know better); None for an
    observer. Clipped to [0, 1]."""
    me = setup.me_index
    if me is None:
        return None
    if setup.i_am_spy:
        return np.clip(tr.location_given_spy(me), 0.0, 1.0)
    r = tr.log_joint()[setup.locations.index(setup.my_location)].copy()
    r[me] = -np.inf
    return np.clip(_softmax(r), 0.0, 1.0)


def initial(setup: Setup) -> _State:
    """The state before any claim: the uniform prior over (location, spy)."""
    tr = BeliefTracker(setup.n_locations, setup.n_players, setup.betas(), setup.lambdas(),
                       setup.strategies(), setup.claim_weights())
    J = tr.joint()
    loc, spy = np.clip(J.sum(1), 0.0, 1.0), np.clip(J.sum(0), 0.0, 1.0)
    priv = _private_belief(setup, tr)
    return _State(tr, loc, spy, priv, loc, priv, _Series(), _Series(), _Series(), _Series())


def update(setup: Setup, state: _State, index: int, event: Claim,
           cancel: CancelFlag = None) -> _State:
    """The state after claim ``event`` (number ``index``, 0-based): O(n·s) (the tracker is
    changed in place and the state returned).

    Raises:
        SessionFormatError: the event does not fit the table (at ``$.events[index]``).
        ContradictionError: ``index``, when the numbers became non-finite (never for claims
            and parameters within the model's limits).
    """
    check_cancel(cancel)
    if isinstance(event, Ask):   # no evidence: the beliefs stay, the gains of this event are 0
        _check_ask(setup, index, event)
        state.ig = state.ig.append(0.0)
        state.ig_spy = state.ig_spy.append(0.0)
        if state.private is not None:
            state.ig_private = state.ig_private.append(0.0)
        return state
    j, c, w = _check_event(setup, index, event)
    tr = state.tracker
    tr.add_claim(j, c, weight=w)
    J = tr.joint()
    if not np.all(np.isfinite(J)):
        raise ContradictionError(index, "the claims made the posterior non-finite")
    loc, spy = np.clip(J.sum(1), 0.0, 1.0), np.clip(J.sum(0), 0.0, 1.0)
    state.ig = state.ig.append(kl_bits(loc, state.location))
    state.ig_spy = state.ig_spy.append(kl_bits(spy, state.spy))
    priv = _private_belief(setup, tr)
    if priv is not None:
        state.ig_private = state.ig_private.append(kl_bits(priv, state.private))
    state.speakers = state.speakers.append(j)
    state.location, state.spy, state.private = loc, spy, priv
    return state


def copy_state(state: _State) -> _State:
    """An independent copy of a state (the tracker's sums copied; the marginals, which are
    replaced and never changed in place, and the series shared)."""
    return _State(state.tracker.copy(), state.location, state.spy, state.private,
                  state.location0, state.private0, state.ig, state.ig_spy, state.ig_private,
                  state.speakers)


def state_bytes(setup: Setup) -> int:
    """Bytes of one state: the tracker's (s, n) sums and (n, s) joints, twice when tempered."""
    n, s = setup.n_locations, setup.n_players
    return 8 * (4 * n * s + 6 * n + 6 * s) + 1024


def posterior(setup: Setup, state: _State, cancel: CancelFlag = None) -> Posterior:
    """The :class:`Posterior` of a state (the state is not changed): the marginals, my private
    beliefs, leave-one-out beliefs (O(s²·n)) and the per-turn gains so far."""
    check_cancel(cancel)
    tr = state.tracker
    n, s = setup.n_locations, setup.n_players
    me = setup.me_index
    private_location = private_spy = None
    pig = np.empty(0)
    pagg = 0.0
    if me is not None:
        if setup.i_am_spy:
            private_location = _named(setup.locations, state.private)
            private_spy = _named(setup.players, np.eye(s)[me])
        else:
            l0 = setup.locations.index(setup.my_location)
            private_location = _named(setup.locations, np.eye(n)[l0])
            private_spy = _named(setup.players, state.private)
        pig = state.ig_private.values
        pagg = kl_bits(state.private, state.private0)
    loo_loc, loo_spy = (np.clip(x, 0.0, 1.0) for x in tr.leave_one_out())
    contrib = {p: kl_bits(state.location, loo_loc[j]) for j, p in enumerate(setup.players)}
    joint = tr.joint().copy()
    for arr in (joint, loo_loc, loo_spy):
        arr.setflags(write=False)
    return Posterior(
        method="exact", locations=setup.locations, players=setup.players, joint=joint,
        location=_named(setup.locations, state.location), spy=_named(setup.players, state.spy),
        me=setup.me, i_am_spy=setup.i_am_spy, private_location=private_location,
        private_spy=private_spy, loo_location=loo_loc, loo_spy=loo_spy,
        contribution_bits=contrib,
        speaker_seats=state.speakers.values,
        information_gain_bits=state.ig.values, spy_information_gain_bits=state.ig_spy.values,
        private_information_gain_bits=pig,
        aggregate_information_gain_bits=kl_bits(state.location, state.location0),
        private_aggregate_information_gain_bits=pagg)


def _fold(setup: Setup, events: Sequence[Claim], cancel: CancelFlag) -> _State:
    state = initial(setup)
    for i, ev in enumerate(events):
        state = update(setup, state, i, ev, cancel)
    return state


def _joint_history_enumeration(setup: Setup, claims, cancel) -> list[np.ndarray]:
    """Reference method: per world, scipy.stats.dirichlet.logpdf of every claim (times its
    weight w for the observer; the emission model reads the untempered sums)."""
    from scipy.stats import dirichlet

    n, s = setup.n_locations, setup.n_players
    betas, lams, strats = setup.betas(), setup.lambdas(), setup.strategies()
    logL = np.zeros((n, s))          # the observer's tempered log-likelihood
    logL_model = np.zeros((n, s))    # untempered: what the speakers' emission model reads
    nonspy_dens = []  # per turn: (speaker, log density under each location as a non-spy)
    hist = [_softmax(logL)]
    logs = [logL.copy()]
    me = setup.me_index
    views = [np.full(n, 1.0 / n)] if setup.i_am_spy else None
    for j, c, w in claims:
        check_cancel(cancel)
        P = _softmax(logL_model)
        pub_loc, pub_spy = P.sum(1), P.sum(0)
        q_log = np.zeros(n)
        for (u_j, dens) in nonspy_dens:
            if u_j != j:
                q_log += dens
        Q = _softmax(q_log)
        a, b, g_spy = emission_params(strats[j], betas[j], lams[j], j, pub_loc, pub_spy, Q)
        dens = np.empty(n)
        for l in range(n):
            gamma = a[l] + b[l] * (np.arange(n) == l)
            dens[l] = dirichlet.logpdf(c, gamma)
        spy_dens = dirichlet.logpdf(c, g_spy)
        for l in range(n):
            for k in range(s):
                logL[l, k] += w * (spy_dens if k == j else dens[l])
                logL_model[l, k] += spy_dens if k == j else dens[l]
        nonspy_dens.append((j, dens))
        hist.append(_softmax(logL))
        logs.append(logL.copy())
        if views is not None:
            views.append(_softmax(logL[:, me]))
    return hist, logs, views


def infer(setup: Setup, events: Sequence[Claim], *, method: str = METHODS[0],
          cancel: CancelFlag = None) -> Posterior:
    """Exact posterior over (location, spy) given the public claims, and my private beliefs.

    Args:
        setup: the table (:class:`~engines.spyfall.model.Setup`).
        events: the claims in order (:class:`~engines.spyfall.model.Claim`).
        method: "exact" (O(n·s) per claim, factorised sums: the fold of :func:`update` over
            the claims, then :func:`posterior`) or "enumeration" (every world with
            scipy.stats.dirichlet; a slow reference, same numbers).
        cancel: optional zero-argument callable; when it returns True, raises ``Cancelled``.

    Returns:
        :class:`Posterior` (probabilities; information gains in bits).

    Raises:
        SessionFormatError: an event that does not fit the setup, or an unknown method.
        ContradictionError: never in practice — every Dirichlet likelihood of a floored claim is
            positive, so no world is ever excluded; raised only if the numbers became non-finite.

    Each claim's log-likelihood is multiplied by its claim weight (the claim's own
    ``claim_weight``, else its speaker's from the setup; 1 = “Spyfall with Pyro”'s model; module docstring).

    Method: “Spyfall with Pyro” ("Public belief update: Bayes update", "Bayes update", "Information gain");
    the spy's Q_t and the floor of claims with zeros as in engines/spyfall/model.py; a tempered
    likelihood for the claim weight (Bissiri, Holmes & Walker 2016).
    """
    if method not in METHODS:
        raise SessionFormatError("--method", f"unknown method {method!r}; expected one of "
                                             f"{', '.join(METHODS)}")
    if method == "exact":
        return posterior(setup, _fold(setup, events, cancel), cancel)
    claims = _check_events(setup, events)
    hist, logs, views = _joint_history_enumeration(setup, claims, cancel)
    for t, J in enumerate(hist):
        if not np.all(np.isfinite(J)):
            raise ContradictionError(max(t - 1, 0), "the claims made the posterior non-finite")
    n, s = setup.n_locations, setup.n_players
    joint = hist[-1]
    loc_hist = np.clip(np.array([J.sum(1) for J in hist]), 0.0, 1.0)
    spy_hist = np.clip(np.array([J.sum(0) for J in hist]), 0.0, 1.0)
    ig = _per_event(events, [kl_bits(loc_hist[t + 1], loc_hist[t]) for t in range(len(claims))])
    ig_spy = _per_event(events, [kl_bits(spy_hist[t + 1], spy_hist[t])
                                 for t in range(len(claims))])
    me = setup.me_index
    private_location = private_spy = private_hist = None
    pig = np.empty(0)
    pagg = 0.0
    if me is not None:
        if setup.i_am_spy:
            private_hist = np.clip(np.array(views), 0.0, 1.0)
            private_location = _named(setup.locations, private_hist[-1])
            private_spy = _named(setup.players, np.eye(s)[me])
        else:
            l0 = setup.locations.index(setup.my_location)
            rows = []
            for logJ in logs:  # in log space: the row may underflow when I know better
                r = logJ[l0].copy()
                r[me] = -np.inf
                rows.append(_softmax(r))
            private_hist = np.clip(np.array(rows), 0.0, 1.0)
            private_location = _named(setup.locations, np.eye(n)[l0])
            private_spy = _named(setup.players, private_hist[-1])
        pig = _per_event(events, [kl_bits(private_hist[t + 1], private_hist[t])
                                  for t in range(len(claims))])
        pagg = kl_bits(private_hist[-1], private_hist[0])
    # leave-one-out from the factorised tracker is the same quantity
    tr = _fold(setup, events, cancel).tracker
    loo_loc, loo_spy = (np.clip(x, 0.0, 1.0) for x in tr.leave_one_out())
    contrib = {p: kl_bits(loc_hist[-1], loo_loc[j]) for j, p in enumerate(setup.players)}
    seats = np.array([j for j, _, _ in claims], dtype=float)
    for arr in (joint, loo_loc, loo_spy, ig, ig_spy, pig, seats):
        arr.setflags(write=False)
    return Posterior(
        method=method, locations=setup.locations, players=setup.players, joint=joint,
        location=_named(setup.locations, loc_hist[-1]), spy=_named(setup.players, spy_hist[-1]),
        me=setup.me, i_am_spy=setup.i_am_spy, private_location=private_location,
        private_spy=private_spy, loo_location=loo_loc, loo_spy=loo_spy,
        contribution_bits=contrib, speaker_seats=seats,
        information_gain_bits=ig, spy_information_gain_bits=ig_spy,
        private_information_gain_bits=pig,
        aggregate_information_gain_bits=kl_bits(loc_hist[-1], loc_hist[0]),
        private_aggregate_information_gain_bits=pagg)


def belief_summary(setup: Setup, posterior: Posterior) -> dict[str, float]:
    """Flat named numbers for the CSV export and the belief plot (same keys after every event):
    ``"location:<l>"``, ``"spy:<k>"`` (public, probabilities), ``"private_location:<l>"`` /
    ``"private_spy:<k>"`` when there is a ``me``, and the last turn's ``information_gain_bits``,
    ``spy_information_gain_bits``, ``private_information_gain_bits`` (0 before any claim)."""
    out = {f"location:{k}": v for k, v in posterior.location.items()}
    out.update({f"spy:{k}": v for k, v in posterior.spy.items()})
    if posterior.me is not None:
        out.update({f"private_location:{k}": v for k, v in posterior.private_location.items()})
        out.update({f"private_spy:{k}": v for k, v in posterior.private_spy.items()})
    last = lambda xs: float(xs[-1]) if len(xs) else 0.0  # noqa: E731 (a one-line key function)
    out["information_gain_bits"] = last(posterior.information_gain_bits)
    out["spy_information_gain_bits"] = last(posterior.spy_information_gain_bits)
    if posterior.me is not None:
        out["private_information_gain_bits"] = last(posterior.private_information_gain_bits)
    return out
