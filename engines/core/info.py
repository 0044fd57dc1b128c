"""Information-theory helpers, all in bits (log base 2), with 0·log 0 = 0."""
from __future__ import annotations

import numpy as np


def entropy_bits(p, axis=None) -> float | np.ndarray:
    """Shannon entropy H(p) = -Σ p log2 p in bits.

    Args:
        p: probabilities (array-like, non-negative; normalised along ``axis`` or over all
            entries when ``axis`` is None). Zeros contribute 0.
    Returns:
        float (or array when ``axis`` is given), >= 0.
    """
    p = np.asarray(p, dtype=float)
    total = p.sum(axis=axis, keepdims=axis is not None)
    with np.errstate(divide="ignore", invalid="ignore"):
        q = np.where(total > 0, p / np.where(total > 0, total, 1.0), 0.0)
        terms = np.where(q > 0, -q * np.log2(np.where(q > 0, q, 1.0)), 0.0)
    h = terms.sum(axis=axis)
    return np.maximum(h, 0.0) if isinstance(h, np.ndarray) else max(float(h), 0.0)


def kl_divergence_bits(p, q, floor: float = 0.0) -> float:
    """Kullback–Leibler divergence KL(p ‖ q) = Σ p log2(p/q) in bits (information gain).

    Both are normalised first. ``floor`` > 0 reads q below it as ``floor`` (a posterior whose
    positive entries underflowed to 0 in floating point), so the result stays finite; with
    ``floor`` = 0 it returns ``inf`` when p puts mass where q has none.
    """
    p = np.asarray(p, dtype=float).ravel()
    q = np.asarray(q, dtype=float).ravel()
    p = p / p.sum()
    q = q / q.sum()
    mask = p > 0
    if floor > 0:
        q = np.maximum(q, floor)
    elif np.any(q[mask] <= 0):
        return float("inf")
    return max(float(np.sum(p[mask] * (np.log2(p[mask]) - np.log2(q[mask])))), 0.0)


def mutual_information_bits(joint) -> float:
    """Mutual information I(X;Y) in bits of a joint probability table ``joint[x, y]``.

    Equals H(X) + H(Y) - H(X, Y); the expected information gain about X from observing Y.
    """
    j = np.asarray(joint, dtype=float)
    j = j / j.sum()
    return max(float(entropy_bits(j.sum(1)) + entropy_bits(j.sum(0)) - entropy_bits(j)), 0.0)
