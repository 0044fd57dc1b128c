"""Inkognito inference: joint Bayesian identity disclosure for all opponents.

Hypotheses (worlds). ``(identity, build)`` of every opponent, identities and builds dealt one
per player: the opponents' identities are an injective map into the 3 identities I do not
hold, and so are their builds — 3!·3! = 36 worlds with three opponents, (3·2)² = 36 with two.
The prior is uniform over the worlds.

Likelihood (Höhle's Inkognito post, "Likelihood Implementation"): an opponent picks uniformly among the
answers of the asked form that are valid for their true cell — see
:mod:`engines.inkognito.likelihood`; answers are independent given the world.

Methods:

* ``"joint"`` — exact posterior over the worlds: ``P(w | D) ∝ Π_o f_o(w_o)`` with
  ``f_o(cell) = ∫ Π_{k ∈ o} P(a_k | cell, θ) p(θ) dθ`` (θ only with the deception model).
* ``"independent"`` — Höhle's Inkognito post's per-opponent model: each opponent's cell uniform over the 9
  cells without my identity or build, updated only by that opponent's answers (it ignores
  that two opponents cannot share an identity or a build).

Deception model (Höhle's closing remark): per-opponent θ ~ Beta(a, b), integrated
out on a grid of :data:`GRID` midpoints of (0, 1); since θ never reaches 0 or 1 on the grid,
the deception model rules out exactly the worlds the indifferent model rules out.

Cost: one answer updates one 16 × G table and the product over 36 worlds: well below 1 ms.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

import numpy as np

from engines.core.errors import CancelFlag, ContradictionError, check_cancel
from engines.core.i18n import _
from engines.core.info import entropy_bits
from engines.inkognito.likelihood import answer_likelihood, form_table
from engines.inkognito.model import KINDS, QUESTIONS, Answer, Setup, partner_index

METHODS = ("joint", "independent")
#: Number of θ grid points (midpoints of equal cells of (0, 1)).
GRID = 64


def theta_grid(n: int = GRID) -> np.ndarray:
    """θ grid, shape (n,): the midpoints ``(k + 0.5) / n``."""
    return (np.arange(n) + 0.5) / n


def beta_on_grid(a: float, b: float, grid: np.ndarray) -> np.ndarray:
    """Beta(a, b) density on ``grid``, normalised to sum 1 (shape of ``grid``)."""
    logp = (a - 1.0) * np.log(grid) + (b - 1.0) * np.log1p(-grid)
    p = np.exp(logp - logp.max())
    return p / p.sum()


def worlds(setup: Setup) -> tuple:
    """The joint hypotheses: ``(ident, build)`` int arrays, shape (W, n_opponents), indices
    into the setup's names; W = 36 for 2 or 3 opponents."""
    from itertools import permutations
    n = len(setup.opponents)
    ids = [k for k in range(4) if k != setup.my_identity_index]
    bs = [k for k in range(4) if k != setup.my_build_index]
    pi = list(permutations(ids, n))
    pb = list(permutations(bs, n))
    ident = np.array([p for p in pi for _ in pb], dtype=np.int64).reshape(-1, n)
    build = np.array([q for _ in pi for q in pb], dtype=np.int64).reshape(-1, n)
    return ident, build


def encode(setup: Setup, ev: Answer) -> tuple:
    """``(opponent index, form, (imask, bmask))`` of an answer."""
    im = sum(1 << setup.identities.index(x) for x in ev.identities)
    bm = sum(1 << setup.builds.index(x) for x in ev.builds)
    return setup.opponents.index(ev.opponent), (ev.question, ev.asked, ev.mission), (im, bm)


def _log(x: np.ndarray) -> np.ndarray:
    """``log x`` with ``log 0 = -inf`` (no warning)."""
    with np.errstate(divide="ignore"):
        return np.log(x)


def logsumexp(a: np.ndarray, axis=None) -> np.ndarray:
    """``log Σ exp(a)`` along ``axis``, exact where every term is ``-inf`` (gives ``-inf``)."""
    m = np.max(a, axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    with np.errstate(divide="ignore"):
        out = np.log(np.sum(np.exp(a - m), axis=axis, keepdims=True)) + m
    return out.reshape(()) if axis is None else np.squeeze(out, axis=axis)


def _normalised(logw: np.ndarray) -> np.ndarray:
    """``exp(logw)`` scaled to sum 1 (zeros where ``logw`` is ``-inf``; all zeros if all are)."""
    m = np.max(logw) if logw.size else -np.inf
    if not np.isfinite(m):
        return np.zeros_like(logw)
    w = np.exp(logw - m)
    return w / w.sum()


class _State:
    """Per-opponent tables ``logh[o]`` (16, G): ``log p(θ) + Σ_k log P(a_k | cell, θ)``, shifted
    so the largest entry is 0; ``-inf`` marks an impossible (cell, θ). Kept in log space: a
    product of thousands of answer likelihoods underflows in floating point, and a cell that
    underflowed to 0 would be reported impossible (a false contradiction)."""

    def __init__(self, setup: Setup):
        self.setup = setup
        self.n = len(setup.opponents)
        dec = setup.deception
        self.thetas = theta_grid() if dec.enabled else None
        G = 1 if self.thetas is None else len(self.thetas)
        self.logh = []
        for name in setup.opponents:
            prior = np.ones(G) if self.thetas is None else \
                beta_on_grid(*dec.prior_of(name), self.thetas)
            self.logh.append(np.tile(_log(prior), (16, 1)))
        self.shown: list[list] = [[] for _ in range(self.n)]

    def update(self, setup: Setup, ev: Answer) -> int:
        o, form, ans = encode(setup, ev)
        table = form_table(*form)
        shown = self.shown[o] if setup.no_repeats else ()
        L = answer_likelihood(table, ans, shown, self.thetas)
        h = self.logh[o] + _log(L)
        m = h.max()
        self.logh[o] = h - m if np.isfinite(m) else h
        self.shown[o].append(ans)
        return o

    def logf(self, o: int) -> np.ndarray:
        """``log f_o(cell)``, shape (16,), θ summed out (up to a constant)."""
        return logsumexp(self.logh[o], axis=1)


@dataclass(frozen=True, eq=False)
class OpponentBelief:
    """What is believed about one opponent.

    Attributes:
        name: the opponent.
        identity, build: marginals, dict name -> probability (setup order).
        joint: float array (4, 4), P(identity i, build b) (rows identities, columns builds).
        partner: probability that this opponent is my partner.
        theta: ``(grid, probabilities)`` arrays of shape (G,), θ's posterior, or None when
            the deception model is off.
        answers: number of answers from this opponent.
    """

    name: str
    identity: dict
    build: dict
    joint: np.ndarray
    partner: float
    theta: Optional[tuple]
    answers: int

    @property
    def theta_mean(self) -> Optional[float]:
        if self.theta is None:
            return None
        g, p = self.theta
        return float(np.dot(g, p))

    def to_json(self) -> dict:
        out = {"identity": {k: round(v, 9) for k, v in self.identity.items()},
               "build": {k: round(v, 9) for k, v in self.build.items()},
               "partner": round(self.partner, 9),
               "joint": [[round(float(x), 9) for x in row] for row in self.joint]}
        if self.theta is not None:
            g, p = self.theta
            out["theta"] = {"mean": round(self.theta_mean, 9),
                            "grid": [round(float(x), 6) for x in g],
                            "probabilities": [round(float(x), 9) for x in p]}
        return out


@dataclass(frozen=True, eq=False)
class Posterior:
    """Result of :func:`infer`.

    Attributes:
        opponents: dict name -> :class:`OpponentBelief` (setup order).
        worlds: number of hypotheses with positive posterior (joint: worlds of the 36;
            independent: product of each opponent's number of possible cells).
        entropy_bits: entropy of the posterior over hypotheses, bits (independent: sum of the
            opponents' entropies).
        method: ``"joint"`` or ``"independent"``; deception: whether θ was used.
        world_probabilities: float array (W,) over :func:`worlds` (joint method; None else).
        model (property): ``"uniform"`` (every valid answer equally likely, Höhle's model)
            or ``"deception"`` (θ model).
    """

    opponents: dict
    worlds: int
    entropy_bits: float
    method: str
    deception: bool
    world_probabilities: Optional[np.ndarray] = None

    @property
    def model(self) -> str:
        """The likelihood model in use: ``"uniform"`` or ``"deception"``."""
        return "deception" if self.deception else "uniform"

    def to_json(self) -> dict:
        """The CLI output: ``{"game", "opponents": {name: {"identity", "build",
        "partner", ...}}, "worlds"}`` plus entropy, method and the deception flag."""
        return {"game": "inkognito",
                "opponents": {k: v.to_json() for k, v in self.opponents.items()},
                "worlds": self.worlds, "entropy_bits": round(self.entropy_bits, 6),
                "method": self.method,
                "model": self.model}


def _check(setup: Setup, method: str) -> None:
    if method not in METHODS:
        from engines.core.errors import SessionFormatError
        raise SessionFormatError("method", f"unknown method {method!r}; expected one of "
                                           f"{', '.join(METHODS)}")


def _cell_prior(setup: Setup) -> np.ndarray:
    p = np.zeros((4, 4))
    ids = [k for k in range(4) if k != setup.my_identity_index]
    bs = [k for k in range(4) if k != setup.my_build_index]
    p[np.ix_(ids, bs)] = 1.0
    return p.ravel()


def _run(setup: Setup, events: Sequence[Answer], method: str, cancel: CancelFlag):
    """Apply the events; returns (state, cells (W, n), world weights (W,) or per-opponent
    cell weights). Raises ContradictionError at the first impossible event."""
    st = _State(setup)
    ident, build = worlds(setup)
    cells = ident * 4 + build
    prior_cell = _cell_prior(setup)
    for k, ev in enumerate(events):
        if k % 64 == 0:
            check_cancel(cancel)
        o = st.update(setup, ev)
        if method == "joint":
            ok = bool(np.any(np.isfinite(_joint_log(st, cells))))
        else:
            ok = bool(np.any(np.isfinite(st.logf(o)) & (prior_cell > 0)))
        if not ok:
            raise ContradictionError(k, _why(setup, ev, st, o, method))
    return st, cells, prior_cell


def _joint_log(st: _State, cells: np.ndarray, skip: Optional[int] = None) -> np.ndarray:
    """``Σ_j log f_j(w_j)`` over the worlds, shape (W,) (opponent ``skip`` left out)."""
    out = np.zeros(len(cells))
    for j in range(st.n):
        if j != skip:
            out = out + st.logf(j)[cells[:, j]]
    return out


def _why(setup: Setup, ev: Answer, st: _State, o: int, method: str) -> str:
    if setup.no_repeats and st.shown[o].count(st.shown[o][-1]) > 1:
        return _("{opponent} showed this same set of cards before; the rules forbid showing a set "
                 "twice to the same player").format(opponent=ev.opponent)
    if method == "joint":
        return _("no deal of identities and builds fits all answers so far (after {opponent}'s "
                 "answer)").format(opponent=ev.opponent)
    return _("no identity and build of {opponent} fits all their answers").format(opponent=ev.opponent)


def infer(setup: Setup, events: Sequence[Answer], *, method: str = METHODS[0],
          cancel: CancelFlag = None) -> Posterior:
    """Posterior over every opponent's identity and build.

    Args:
        setup: the :class:`Setup`; events: answers in order; method: ``"joint"`` (exact over
            the 36 worlds) or ``"independent"`` (Höhle's Inkognito post's per-opponent model).
        cancel: zero-argument callable; when it returns True, :class:`Cancelled` is raised.
    Returns:
        :class:`Posterior` (marginals are probabilities; entropy in bits).
    Raises:
        ContradictionError: index of the first answer after which no world (joint) or no
            cell of that opponent (independent) is consistent; a repeated set of cards with
            ``no_repeats`` is one.
        SessionFormatError: unknown method.
    """
    _check(setup, method)
    st, cells, prior_cell = _run(setup, events, method, cancel)
    return _posterior(setup, events, method, st, cells, prior_cell)


def _posterior(setup, events, method, st, cells, prior_cell) -> Posterior:
    n = st.n
    counts = [0] * n
    for ev in events:
        counts[setup.opponents.index(ev.opponent)] += 1
    partner = partner_index(setup.my_identity_index)
    beliefs = {}
    if method == "joint":
        p = _normalised(_joint_log(st, cells))
        n_worlds = int(np.count_nonzero(p > 0))
        ent = float(entropy_bits(p))
        for o, name in enumerate(setup.opponents):
            joint = np.bincount(cells[:, o], weights=p, minlength=16).reshape(4, 4)
            theta = None
            if st.thetas is not None:
                # log Σ over the worlds with this opponent at each cell of the others' f
                others = _joint_log(st, cells, skip=o)
                m = np.full(16, -np.inf)
                for c in np.unique(cells[:, o]):
                    m[c] = logsumexp(others[cells[:, o] == c])
                theta = _theta_post(st, o, m)
            beliefs[name] = _belief(setup, name, joint, partner, theta, counts[o])
        wp = p
    else:
        n_worlds, ent = 1, 0.0
        for o, name in enumerate(setup.opponents):
            q = _normalised(_log(prior_cell) + st.logf(o))
            n_worlds *= int(np.count_nonzero(q > 0))
            ent += float(entropy_bits(q))
            theta = _theta_post(st, o, _log(prior_cell)) if st.thetas is not None else None
            beliefs[name] = _belief(setup, name, q.reshape(4, 4), partner, theta, counts[o])
        wp = None
    return Posterior(beliefs, n_worlds, ent, method, st.thetas is not None, wp)


def _theta_post(st: _State, o: int, log_cell_weights: np.ndarray) -> tuple:
    """θ's posterior for opponent ``o``: ``(grid, probabilities)``, given the log weight of
    each of its cells (shape (16,)) from everything but its own answers."""
    post = _normalised(logsumexp(log_cell_weights[:, None] + st.logh[o], axis=0))
    g = st.thetas.copy()
    g.setflags(write=False)
    post.setflags(write=False)
    return g, post


def _belief(setup, name, joint, partner, theta, count) -> OpponentBelief:
    joint = np.clip(joint, 0.0, 1.0)
    joint.setflags(write=False)
    ids = joint.sum(1)
    bs = joint.sum(0)
    return OpponentBelief(name, {setup.identities[i]: float(ids[i]) for i in range(4)},
                          {setup.builds[b]: float(bs[b]) for b in range(4)}, joint,
                          float(ids[partner]), theta, count)


def belief_summary(setup: Setup, posterior: Posterior) -> dict:
    """Flat numbers for the CSV export and the belief plot (same keys after every event).

    Keys (probabilities unless ``_bits``): ``entropy_bits``; for every opponent ``o``:
    ``<o> top identity`` (the largest identity probability), ``<o> partner``,
    ``<o> is <identity>`` and ``<o> is <build>`` for every name.
    """
    out = {"entropy_bits": posterior.entropy_bits}
    for name, b in posterior.opponents.items():
        out[f"{name} top identity"] = max(b.identity.values())
        out[f"{name} partner"] = b.partner
    for name, b in posterior.opponents.items():
        for k, v in b.identity.items():
            out[f"{name} is {k}"] = v
        for k, v in b.build.items():
            out[f"{name} is {k}"] = v
    return out


# ------------------------------------------------------------------------------ recommend

@dataclass(frozen=True)
class RankedQuestion:
    """One question: ask ``opponent`` a ``question`` (player | ambassador) about ``asked``
    (identity | build); ``information_bits`` = expected information gain I(world; answer),
    bits; ``expected_entropy_bits`` = expected entropy of the world posterior afterwards."""

    opponent: str
    question: str
    asked: str
    information_bits: float
    expected_entropy_bits: float

    def __iter__(self):
        """Unpacks as ``(opponent, question, asked, information_bits)``."""
        return iter((self.opponent, self.question, self.asked, self.information_bits))

    @property
    def label(self) -> str:
        from engines.inkognito.words import kind_words

        if self.question == "ambassador":
            return _("ask {opponent} about {kind} (ambassador)").format(
                opponent=self.opponent, kind=kind_words(self.asked))
        return _("ask {opponent} about {kind} (player question)").format(
            opponent=self.opponent, kind=kind_words(self.asked))

    def to_json(self) -> dict:
        return {"opponent": self.opponent, "question": self.question, "asked": self.asked,
                "information_bits": round(self.information_bits, 6),
                "expected_entropy_bits": round(self.expected_entropy_bits, 6)}


@dataclass(frozen=True)
class Recommendation:
    """Result of :func:`recommend`: ``ranking`` best first (tuple of :class:`RankedQuestion`);
    ``best`` its first entry. It is also the ranked list itself: ``len(rec)``, ``rec[0]``,
    ``for opponent, question, asked, bits in rec``."""

    ranking: tuple
    entropy_bits: float
    method: str

    def __len__(self) -> int:
        return len(self.ranking)

    def __getitem__(self, k):
        return self.ranking[k]

    def __iter__(self):
        return iter(self.ranking)

    @property
    def best(self) -> Optional[RankedQuestion]:
        return self.ranking[0] if self.ranking else None

    def to_json(self) -> dict:
        return {"game": "inkognito", "method": self.method,
                "entropy_bits": round(self.entropy_bits, 6),
                "best": None if self.best is None else self.best.to_json(),
                "ranking": [r.to_json() for r in self.ranking]}


def recommend(setup: Setup, events: Sequence[Answer], *, method: str = METHODS[0],
              cancel: CancelFlag = None) -> Recommendation:
    """Rank every (opponent, player|ambassador, identity|build) question by expected
    information gain ``I(W; A) = H(A) - Σ_w P(w) H(A | w)`` in bits, under the posterior of
    ``method``. The answer's predictive distribution uses the same likelihood as
    :func:`infer` (θ integrated with its posterior given the cell; sets already shown
    excluded). Since A depends on the world only through the asked opponent's cell, this is
    also I(cell; A). Mission-card answers are the opponent's choice, not modelled here. When
    every set valid for some cell was already shown (no-repeat rule), "cannot answer" counts
    as one more outcome.

    Returns:
        :class:`Recommendation`, which is also the ranked list itself: 4 questions per
        opponent, each unpacking as ``(opponent, "player"|"ambassador",
        "identity"|"build", expected information gain in bits)``, best first.

    Raises:
        ContradictionError: as :func:`infer`.
    """
    return _recommend(setup, events, method, cancel)[0]


def _recommend(setup, events, method, cancel) -> tuple:
    """(:class:`Recommendation`, :class:`Posterior`) from one pass over the events."""
    _check(setup, method)
    st, cells, prior_cell = _run(setup, events, method, cancel)
    post = _posterior(setup, events, method, st, cells, prior_cell)
    out = []
    for o, name in enumerate(setup.opponents):
        q = post.opponents[name].joint.ravel()
        logh = st.logh[o]
        logf = st.logf(o)
        # P(θ | cell, data): each possible cell's row normalised (zeros for impossible cells)
        with np.errstate(invalid="ignore"):
            wgt = np.where(np.isfinite(logf)[:, None], np.exp(logh - logf[:, None]), 0.0)
        shown = st.shown[o] if setup.no_repeats else ()
        for question in QUESTIONS:
            for asked in KINDS:
                table = form_table(question, asked, False)
                La = table.likelihood_excluding(st.thetas, shown)
                L = np.einsum("acg,cg->ac", La, wgt)  # P(a | cell, data)
                # a cell whose every valid set was already shown cannot answer: that is an
                # outcome of its own, so each column is a distribution
                L = np.vstack([L, np.clip(1.0 - L.sum(0), 0.0, 1.0) * (q > 0)])
                pa = L @ q
                cond = float(np.dot(q, entropy_bits(L, axis=0)))
                gain = max(float(entropy_bits(pa)) - cond, 0.0)
                out.append(RankedQuestion(name, question, asked, gain,
                                          max(post.entropy_bits - gain, 0.0)))
    out.sort(key=lambda r: (-r.information_bits, r.opponent, r.question, r.asked))
    return Recommendation(tuple(out), post.entropy_bits, method), post
