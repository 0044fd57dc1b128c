"""Statistics by the independent unit: intervals over games, not over rounds.

A simulated game yields many observations (rounds, solves, claims) that share the game's deal,
deck order and table, so they are correlated; treating them as independent makes intervals too
narrow (an intra-class correlation ρ and m observations per game inflate the variance of a mean
by the design effect 1 + (m − 1)ρ: Kish, "Survey Sampling", 1965, §5.4). Everything here takes
the game as the unit:

* :func:`cluster_mean_ci` — the mean of per-observation values grouped by game: the ratio
  estimator Σ y / Σ m with its delta-method (linearisation) standard error over games and a
  t quantile with G − 1 degrees of freedom (Cochran, "Sampling Techniques", 3rd ed. 1977,
  §6.3; Cameron & Miller, "A practitioner's guide to cluster-robust inference", J. Human
  Resources 50, 2015), or the cluster bootstrap (resample whole games with replacement:
  Davison & Hinkley, "Bootstrap Methods and their Application", 1997, §3.8).
* :func:`cluster_variance_ci` — the variance of the per-observation values, by the cluster
  bootstrap (percentile interval): unlike the chi-square interval it does not assume normal
  observations nor independent ones.
* :func:`naive_mean_ci` — the t interval that treats every observation as independent, kept
  to show the contrast (tests/engines/test_cluster_stats.py).
* :func:`wilson_interval` — proportions of independent games (re-exported from
  :mod:`engines.core.stats`).
* :func:`solve_matrix_game` and :func:`matrix_game_uncertainty` — a zero-sum payoff matrix
  estimated from games: the equilibrium by linear programming, and its uncertainty by
  resampling the games of every cell (jointly when the cells share their deals).

Randomness comes from a seeded :class:`numpy.random.Generator` only (``seed`` arguments), so
every interval is a function of its input.
"""
from __future__ import annotations

import math
from typing import Sequence

import numpy as np

from engines.core.stats import wilson_interval

__all__ = ["ClusterInterval", "cluster_mean_ci", "cluster_variance_ci", "naive_mean_ci",
           "wilson_interval", "group_by_game", "solve_matrix_game", "matrix_game_uncertainty",
           "dominated_rows", "MAX_RESAMPLES"]

MAX_RESAMPLES = 100_000
"""Largest number of bootstrap resamples accepted (each costs O(games) memory at a time)."""


class ClusterInterval(dict):
    """A dict ``{"n", "games", "estimate", "low", "high", "method", "confidence"}`` (floats;
    ``n`` observations, ``games`` clusters), with attribute access for the three numbers."""

    @property
    def estimate(self) -> float:
        return self["estimate"]

    @property
    def low(self) -> float:
        return self["low"]

    @property
    def high(self) -> float:
        return self["high"]


def group_by_game(values, games) -> list:
    """Split per-observation ``values`` (n,) by their game labels ``games`` (n,) into a list of
    arrays, one per game, in order of first appearance.

    Raises:
        ValueError: the two arrays differ in length.
    """
    v = np.asarray(values, dtype=float).ravel()
    g = np.asarray(games).ravel()
    if v.shape != g.shape:
        raise ValueError(f"values ({v.size}) and game labels ({g.size}) differ in length")
    _, first, inverse = np.unique(g, return_index=True, return_inverse=True)
    order = np.argsort(first)
    return [v[inverse == k] for k in order]


def _check_groups(groups: Sequence) -> tuple:
    """(sums (G,), counts (G,), sums of squares (G,)) of non-empty games."""
    arrs = [np.asarray(x, dtype=float).ravel() for x in groups]
    arrs = [a for a in arrs if a.size]
    if not arrs:
        raise ValueError("no observations")
    for a in arrs:
        if not np.all(np.isfinite(a)):
            raise ValueError("observations must be finite numbers")
    return (np.array([a.sum() for a in arrs]), np.array([a.size for a in arrs], dtype=float),
            np.array([(a * a).sum() for a in arrs]))


def _check_conf(confidence: float) -> None:
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")


def _check_resamples(resamples: int) -> None:
    if not 1 <= resamples <= MAX_RESAMPLES:
        raise ValueError(f"resamples must be 1..{MAX_RESAMPLES}, got {resamples}")


def _resample_weights(G: int, resamples: int, rng: np.random.Generator, block: int = 256):
    """Yield (b, G) arrays of how often each game is drawn, ``resamples`` rows in all."""
    done = 0
    while done < resamples:
        b = min(block, resamples - done)
        yield rng.multinomial(G, np.full(G, 1.0 / G), size=b).astype(float)
        done += b


def cluster_mean_ci(groups: Sequence, confidence: float = 0.95, method: str = "delta",
                    resamples: int = 2000, seed: int = 0) -> ClusterInterval:
    """Interval of the mean per observation when observations come in games.

    Args:
        groups: one array of observations per game (``G`` games, ``m_g`` observations each);
            :func:`group_by_game` builds it from per-observation labels. Empty games are dropped.
        confidence: coverage in (0, 1).
        method: ``"delta"`` — the ratio estimator μ̂ = Σ_g y_g / Σ_g m_g with the linearised
            variance Σ_g (y_g − μ̂ m_g)² / (m̄² G (G − 1)) and a t quantile with G − 1 degrees
            of freedom; ``"bootstrap"`` — the percentile interval of μ̂ over ``resamples``
            resamples of whole games (Generator seeded ``seed``).
    Returns:
        :class:`ClusterInterval`; with one game the interval is (−inf, inf) for "delta" and the
        point for "bootstrap" (nothing to say about the spread between games).
    Raises:
        ValueError: no observations, a non-finite value, a bad confidence, method or resamples.
    Source: module docstring (Cochran 1977 §6.3; Davison & Hinkley 1997 §3.8).
    """
    _check_conf(confidence)
    y, m, _ = _check_groups(groups)
    G = y.size
    mu = float(y.sum() / m.sum())
    if method == "delta":
        if G < 2:
            lo, hi = -math.inf, math.inf
        else:
            from scipy.stats import t

            mbar = m.mean()
            se = math.sqrt(float(((y - mu * m) ** 2).sum()) / (mbar * mbar * G * (G - 1)))
            h = float(t.ppf(0.5 + confidence / 2, G - 1)) * se
            lo, hi = mu - h, mu + h
    elif method == "bootstrap":
        _check_resamples(resamples)
        rng = np.random.default_rng(seed)
        est = np.concatenate([(w @ y) / (w @ m) for w in _resample_weights(G, resamples, rng)])
        lo, hi = (float(q) for q in np.quantile(est, [0.5 - confidence / 2, 0.5 + confidence / 2]))
    else:
        raise ValueError(f"method must be 'delta' or 'bootstrap', got {method!r}")
    return ClusterInterval(n=int(m.sum()), games=G, estimate=mu, low=lo, high=hi,
                           method=f"cluster {method} over games", confidence=confidence)


def cluster_variance_ci(groups: Sequence, confidence: float = 0.95, resamples: int = 2000,
                        seed: int = 0) -> ClusterInterval:
    """Interval of the variance of the observations (ddof = 1) by the cluster bootstrap.

    Args:
        groups: one array of observations per game (see :func:`cluster_mean_ci`).
        confidence: coverage in (0, 1); resamples: bootstrap resamples; seed: the Generator's.
    Returns:
        :class:`ClusterInterval` of the pooled variance Σ(x − x̄)²/(n − 1) (percentile interval
        over resamples of whole games).
    Raises:
        ValueError: fewer than 2 observations, a non-finite value, bad confidence/resamples.
    Source: Davison & Hinkley (1997), §3.8 (resampling clusters).
    """
    _check_conf(confidence)
    _check_resamples(resamples)
    y, m, q = _check_groups(groups)
    n = m.sum()
    if n < 2:
        raise ValueError("the variance needs at least 2 observations")

    def var(s1, s0, s2):
        return (s2 - s1 * s1 / s0) / (s0 - 1)
    est = float(var(y.sum(), n, q.sum()))
    rng = np.random.default_rng(seed)
    boot = []
    for w in _resample_weights(y.size, resamples, rng):
        s0 = w @ m
        ok = s0 >= 2
        b = np.full(w.shape[0], np.nan)
        b[ok] = var((w @ y)[ok], s0[ok], (w @ q)[ok])
        boot.append(b)
    boot = np.concatenate(boot)
    boot = boot[np.isfinite(boot)]
    lo, hi = (float(x) for x in np.quantile(boot, [0.5 - confidence / 2, 0.5 + confidence / 2]))
    return ClusterInterval(n=int(n), games=int(y.size), estimate=est, low=lo, high=hi,
                           method="cluster bootstrap over games", confidence=confidence)


def naive_mean_ci(values, confidence: float = 0.95) -> ClusterInterval:
    """The t interval of the mean treating every observation as independent — wrong when
    observations come in correlated games; kept to show the contrast with
    :func:`cluster_mean_ci`.

    Raises:
        ValueError: fewer than 2 observations, a non-finite value or a bad confidence.
    """
    from scipy.stats import t

    _check_conf(confidence)
    x = np.asarray(values, dtype=float).ravel()
    if x.size < 2 or not np.all(np.isfinite(x)):
        raise ValueError("needs at least 2 finite observations")
    mu = float(x.mean())
    h = float(t.ppf(0.5 + confidence / 2, x.size - 1)) * float(x.std(ddof=1)) / math.sqrt(x.size)
    return ClusterInterval(n=x.size, games=x.size, estimate=mu, low=mu - h, high=mu + h,
                           method="t, observations independent", confidence=confidence)


# ----------------------------------------------------------------------------- matrix games

def solve_matrix_game(payoff) -> tuple:
    """Optimal mixed strategies and value of a finite two-player zero-sum game.

    Args:
        payoff: (m, k) array, payoff[i, j] = what the row player (maximiser) gets when it plays
            i and the column player (minimiser) plays j.
    Returns:
        ``(row_mix, column_mix, value)``: probability vectors (m,) and (k,) and the value
        max_x min_j xᵀA e_j = min_y max_i e_iᵀA y.
    Raises:
        ValueError: an empty or non-finite matrix, or a linear program that fails.
    Method: the two dual linear programs of the minimax theorem (von Neumann 1928; e.g.
    Shoham & Leyton-Brown, "Multiagent Systems", 2009, §4.1), solved with
    scipy.optimize.linprog (HiGHS): max v s.t. Aᵀx >= v·1, 1ᵀx = 1, x >= 0, and its dual.
    """
    from scipy.optimize import linprog

    A = np.asarray(payoff, dtype=float)
    if A.ndim != 2 or A.size == 0 or not np.all(np.isfinite(A)):
        raise ValueError("the payoff matrix must be a non-empty finite 2-D array")

    def side(M):  # maximise v s.t. M^T x >= v, sum x = 1, x >= 0; variables (x, v)
        r, c = M.shape
        res = linprog(np.r_[np.zeros(r), -1.0],
                      A_ub=np.c_[-M.T, np.ones(c)], b_ub=np.zeros(c),
                      A_eq=np.r_[np.ones(r), 0.0][None, :], b_eq=[1.0],
                      bounds=[(0, None)] * r + [(None, None)], method="highs")
        if res.status != 0:
            raise ValueError(f"linprog failed: {res.message}")
        x = np.maximum(res.x[:r], 0.0)
        return x / x.sum(), float(res.x[r])

    x, v = side(A)
    y, w = side(-A.T)  # the column player maximises −A
    return x, y, 0.5 * (v - w)


def dominated_rows(payoff) -> list:
    """Rows i of ``payoff`` (m, k) strictly dominated by another pure row: some i' with
    A[i'] >= A[i] in every column and > in at least one (the row player maximises).

    Returns:
        sorted list of row indices.
    Raises:
        ValueError: not a 2-D finite array.
    """
    A = np.asarray(payoff, dtype=float)
    if A.ndim != 2 or not np.all(np.isfinite(A)):
        raise ValueError("the payoff matrix must be a finite 2-D array")
    out = []
    for i in range(A.shape[0]):
        ge = np.all(A >= A[i], axis=1) & np.any(A > A[i], axis=1)
        ge[i] = False
        if ge.any():
            out.append(i)
    return out


def _support(p: np.ndarray, tol: float) -> tuple:
    return tuple(int(i) for i in np.flatnonzero(p > tol))


def matrix_game_uncertainty(outcomes, resamples: int = 1000, seed: int = 0, joint: bool = True,
                            confidence: float = 0.95, support_tol: float = 0.01) -> dict:
    """The equilibrium of a payoff matrix estimated from games, and how sure it is.

    Args:
        outcomes: (m, k, G) array: the row player's payoff (e.g. 1 = a win) in game g of cell
            (i, j). With ``joint`` (common random numbers: game g of every cell plays the same
            deal) a resample draws G game indices and applies them to every cell at once, which
            keeps the cells' correlation; otherwise each cell's games are resampled on their own.
        resamples: bootstrap resamples (1..:data:`MAX_RESAMPLES`); seed: the Generator's seed.
        confidence: of the value's percentile interval and of the cells' intervals.
        support_tol: a strategy is in a mixed strategy's support when its probability exceeds it.
    Returns:
        dict with ``matrix`` (m, k) means; ``cell_ci95`` (low, high) arrays — Wilson intervals
        when the outcomes are 0/1, else t intervals over games; ``value`` and ``value_ci95``
        (bootstrap percentile); ``row_mix``, ``column_mix`` (LP solution of the means);
        ``row_support``, ``column_support`` (index tuples); ``maximin_row`` (the pure row with
        the best worst case) and its ``maximin_guarantee``; ``minimax_column``; and over the
        resamples ``maximin_row_frequency`` (m,), ``minimax_column_frequency`` (k,) and
        ``row_support_frequency`` / ``column_support_frequency`` (lists of (support tuple,
        fraction), most frequent first).
    Raises:
        ValueError: not a non-empty finite (m, k, G) array, or bad resamples/confidence.
    Method: solve the game by LP on every resample (:func:`solve_matrix_game`); the fraction of
    resamples in which a strategy is chosen is the bootstrap's measure of how stable the choice
    is (Efron & Tibshirani, "An Introduction to the Bootstrap", 1993, ch. 13).
    """
    W = np.asarray(outcomes, dtype=float)
    if W.ndim != 3 or 0 in W.shape or not np.all(np.isfinite(W)):
        raise ValueError("outcomes must be a non-empty finite (rows, columns, games) array")
    _check_resamples(resamples)
    _check_conf(confidence)
    m, k, G = W.shape
    A = W.mean(axis=2)
    binary = bool(np.all((W == 0) | (W == 1)))
    if binary:
        wins = W.sum(axis=2).astype(int)
        ci = np.array([[wilson_interval(int(wins[i, j]), G, confidence) for j in range(k)]
                       for i in range(m)])
        low, high = ci[..., 0], ci[..., 1]
    else:
        from scipy.stats import t

        se = W.std(axis=2, ddof=1) / math.sqrt(G) if G > 1 else np.full((m, k), np.inf)
        h = float(t.ppf(0.5 + confidence / 2, max(G - 1, 1))) * se
        low, high = A - h, A + h
    x, y, v = solve_matrix_game(A)
    rng = np.random.default_rng(seed)
    flat = W.reshape(m * k, G)
    values = np.empty(resamples)
    row_freq = np.zeros(m)
    col_freq = np.zeros(k)
    row_sup: dict = {}
    col_sup: dict = {}
    for b in range(resamples):
        if joint:
            w = rng.multinomial(G, np.full(G, 1.0 / G)).astype(float)
            Ab = (flat @ w / G).reshape(m, k)
        else:
            idx = rng.integers(G, size=(m * k, G))
            Ab = np.take_along_axis(flat, idx, axis=1).mean(axis=1).reshape(m, k)
        xb, yb, vb = solve_matrix_game(Ab)
        values[b] = vb
        row_freq[int(np.argmax(Ab.min(axis=1)))] += 1
        col_freq[int(np.argmin(Ab.max(axis=0)))] += 1
        rs, cs = _support(xb, support_tol), _support(yb, support_tol)
        row_sup[rs] = row_sup.get(rs, 0) + 1
        col_sup[cs] = col_sup.get(cs, 0) + 1
    q = np.quantile(values, [0.5 - confidence / 2, 0.5 + confidence / 2])
    best = int(np.argmax(A.min(axis=1)))
    return {"matrix": A, "cell_ci95": (low, high), "games": G,
            "value": float(v), "value_ci95": [float(q[0]), float(q[1])],
            "row_mix": x, "column_mix": y,
            "row_support": _support(x, support_tol), "column_support": _support(y, support_tol),
            "maximin_row": best, "maximin_guarantee": float(A.min(axis=1)[best]),
            "minimax_column": int(np.argmin(A.max(axis=0))),
            "maximin_row_frequency": (row_freq / resamples).tolist(),
            "minimax_column_frequency": (col_freq / resamples).tolist(),
            "row_support_frequency": sorted(((s, c / resamples) for s, c in row_sup.items()),
                                            key=lambda t: -t[1]),
            "column_support_frequency": sorted(((s, c / resamples) for s, c in col_sup.items()),
                                               key=lambda t: -t[1])}

