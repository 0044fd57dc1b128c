"""Shared statistics for the simulators: binomial confidence intervals.

The information-theory helpers (entropy, KL divergence, mutual information) are in
:mod:`engines.core.info`; both are re-exported by :mod:`engines.core`.
"""
from __future__ import annotations


def wilson_interval(successes: int, trials: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion.

    Args:
        successes: k, 0 <= k <= trials; trials: n >= 0.
        confidence: the interval's coverage (default 0.95).
    Returns:
        ``(low, high)`` probabilities in [0, 1]; ``(0.0, 1.0)`` when ``trials == 0`` (nothing
        observed, nothing excluded).
    Raises:
        ValueError: ``successes`` outside 0..trials.
    Source: E. B. Wilson, "Probable inference, the law of succession, and statistical
    inference", JASA 22 (1927); computed by ``scipy.stats.binomtest(...).proportion_ci``.
    """
    if trials <= 0:
        return (0.0, 1.0)
    from scipy.stats import binomtest  # here: scipy.stats takes ~1 s to import, at first use only

    ci = binomtest(int(successes), int(trials)).proportion_ci(confidence_level=confidence,
                                                               method="wilson")
    return (max(0.0, float(ci.low)), min(1.0, float(ci.high)))
