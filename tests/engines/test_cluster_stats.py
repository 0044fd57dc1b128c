"""Intervals by the game (engines.core.cluster_stats): coverage in simulations with correlated
rounds, known answers, and the matrix game's resampling."""
from __future__ import annotations

import numpy as np
import pytest

from engines.core.cluster_stats import (
    cluster_mean_ci,
    cluster_variance_ci,
    dominated_rows,
    group_by_game,
    matrix_game_uncertainty,
    naive_mean_ci,
    solve_matrix_game,
    wilson_interval,
)

TRUE_MEAN = 3.0


def correlated_games(rng, games=30, rounds=(10, 30), game_sd=1.0, noise_sd=1.0):
    """Games whose rounds share a game effect: intra-class correlation
    game_sd² / (game_sd² + noise_sd²) = 0.5 by default; the game sizes vary."""
    out = []
    for _ in range(games):
        m = int(rng.integers(rounds[0], rounds[1] + 1))
        out.append(TRUE_MEAN + rng.normal(0, game_sd) + rng.normal(0, noise_sd, size=m))
    return out


def coverage(method, reps=400, seed=1, **kw):
    rng = np.random.default_rng(seed)
    hit_cluster = hit_naive = 0
    for r in range(reps):
        groups = correlated_games(rng, **kw)
        ci = cluster_mean_ci(groups, method=method, resamples=400, seed=r)
        hit_cluster += ci.low <= TRUE_MEAN <= ci.high
        nv = naive_mean_ci(np.concatenate(groups))
        hit_naive += nv.low <= TRUE_MEAN <= nv.high
    return hit_cluster / reps, hit_naive / reps


def test_delta_method_interval_covers_at_its_nominal_rate_and_the_naive_one_does_not():
    cluster, naive = coverage("delta")
    assert cluster >= 0.93, cluster
    # design effect 1 + (m − 1)·0.5 ≈ 10.5: the naive 95 % interval is about 3× too narrow
    assert naive <= 0.70, naive


def test_cluster_bootstrap_covers_at_its_nominal_rate_and_the_naive_one_does_not():
    cluster, naive = coverage("bootstrap", seed=2, games=40)
    assert cluster >= 0.93, cluster
    assert naive <= 0.70, naive


def test_without_correlation_the_cluster_and_naive_intervals_agree():
    rng = np.random.default_rng(5)
    groups = correlated_games(rng, games=200, game_sd=0.0)
    a = cluster_mean_ci(groups)
    b = naive_mean_ci(np.concatenate(groups))
    assert a.estimate == pytest.approx(b.estimate)
    assert (a.high - a.low) == pytest.approx(b.high - b.low, rel=0.15)


def test_delta_method_with_equal_games_is_the_t_interval_of_the_game_means():
    from scipy import stats

    rng = np.random.default_rng(3)
    groups = [rng.normal(size=8) + rng.normal() for _ in range(12)]
    means = np.array([g.mean() for g in groups])
    ref = stats.t.interval(0.95, len(means) - 1, loc=means.mean(), scale=stats.sem(means))
    ci = cluster_mean_ci(groups)
    assert (ci.low, ci.high) == pytest.approx(ref)
    assert ci["games"] == 12 and ci["n"] == 96


def test_variance_interval_covers_the_true_variance_and_chi_square_does_not():
    from scipy import stats

    rng = np.random.default_rng(11)
    true_var = 2.0      # game_sd² + noise_sd²
    hit_boot = hit_chi2 = 0
    reps = 200
    for r in range(reps):
        groups = correlated_games(rng, games=60)
        ci = cluster_variance_ci(groups, resamples=400, seed=r)
        hit_boot += ci.low <= true_var <= ci.high
        x = np.concatenate(groups)
        n, v = x.size, x.var(ddof=1)
        lo = (n - 1) * v / stats.chi2.ppf(0.975, n - 1)
        hi = (n - 1) * v / stats.chi2.ppf(0.025, n - 1)
        hit_chi2 += lo <= true_var <= hi
    assert hit_boot / reps >= 0.88, hit_boot / reps
    assert hit_chi2 / reps <= 0.75, hit_chi2 / reps


def test_group_by_game_keeps_order_of_first_appearance():
    groups = group_by_game([1, 2, 3, 4, 5], ["b", "a", "b", "c", "a"])
    assert [g.tolist() for g in groups] == [[1.0, 3.0], [2.0, 5.0], [4.0]]
    with pytest.raises(ValueError, match="differ in length"):
        group_by_game([1, 2], [1])


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="no observations"):
        cluster_mean_ci([[], []])
    with pytest.raises(ValueError, match="finite"):
        cluster_mean_ci([[1.0, np.nan]])
    with pytest.raises(ValueError, match="method"):
        cluster_mean_ci([[1.0, 2.0]], method="jackknife")
    with pytest.raises(ValueError, match="resamples"):
        cluster_variance_ci([[1.0, 2.0]], resamples=0)
    one = cluster_mean_ci([[1.0, 2.0, 3.0]])
    assert one.estimate == 2.0 and one.low == -np.inf and one.high == np.inf


def test_wilson_matches_scipy_and_known_values():
    lo, hi = wilson_interval(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-4)
    lo, hi = wilson_interval(50, 100)
    assert (lo, hi) == pytest.approx((0.4038, 0.5962), abs=1e-4)


def test_matrix_game_known_answers():
    x, y, v = solve_matrix_game([[0, -1, 1], [1, 0, -1], [-1, 1, 0]])   # rock-paper-scissors
    assert v == pytest.approx(0, abs=1e-9)
    assert x == pytest.approx([1 / 3] * 3) and y == pytest.approx([1 / 3] * 3)
    x, y, v = solve_matrix_game([[3, 5], [1, 4]])                      # saddle at (0, 0)
    assert v == pytest.approx(3) and x == pytest.approx([1, 0]) and y == pytest.approx([1, 0])
    assert dominated_rows([[3, 5], [1, 4], [3, 5]]) == [1]


def test_matrix_uncertainty_clear_saddle_point_is_found_in_every_resample():
    rng = np.random.default_rng(0)
    p = np.array([[0.8, 0.7], [0.2, 0.3]])          # row 0 dominates; column 1 is the spy's
    wins = rng.random((2, 2, 300)) < p[..., None]
    u = matrix_game_uncertainty(wins, resamples=200, seed=1)
    assert u["maximin_row"] == 0 and u["minimax_column"] == 1
    assert u["maximin_row_frequency"][0] == 1.0
    assert u["row_support_frequency"][0] == ((0,), 1.0)
    assert u["value_ci95"][0] <= 0.7 <= u["value_ci95"][1]
    lo, hi = u["cell_ci95"]
    assert np.all(lo <= u["matrix"]) and np.all(u["matrix"] <= hi)


def test_matrix_uncertainty_tied_rows_split_the_resamples():
    rng = np.random.default_rng(4)
    p = np.array([[0.3, 0.3], [0.3, 0.3], [0.1, 0.1]])
    shared = rng.random((1, 1, 400))                 # common random numbers across cells
    wins = (shared + 0.05 * rng.standard_normal((3, 2, 400))) % 1.0 < p[..., None]
    for joint in (True, False):
        u = matrix_game_uncertainty(wins, resamples=300, seed=2, joint=joint)
        f = u["maximin_row_frequency"]
        assert f[2] == 0.0
        assert 0.1 < f[0] < 0.9 and f[0] + f[1] == pytest.approx(1.0)
