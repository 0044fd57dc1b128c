"""The stored claim-weight table (per number of locations and λ) and its small pieces."""
import numpy as np
import pytest

from engines.spyfall.calibration import (
    TABLE_LAMBDAS,
    TABLE_LOCATIONS,
    bot_games,
    claim_weight_row,
    load_calibration_table,
    per_game_scores,
    step_at,
)


def test_table_covers_every_studied_table_and_its_best_w_is_the_least_log_loss():
    rows = load_calibration_table()
    assert {(r["locations"], r["lambda"]) for r in rows} == \
        {(n, lam) for n in TABLE_LOCATIONS for lam in TABLE_LAMBDAS}
    for r in rows:
        i = int(np.argmin(r["log_loss"]))
        assert r["w"][i] == r["best_w"]
        assert r["gain_ci95"][0] <= r["gain_nats"] <= r["gain_ci95"][1]
        assert r["gain_nats"] == pytest.approx(r["uniform_log_loss"] - r["log_loss"][i], abs=2e-4)
        # one claim moves a log-odds further the more it counts
        assert all(a <= b + 1e-9 for a, b in zip(r["step_p99"], r["step_p99"][1:]))


def test_nearest_row_and_interpolated_step():
    r = claim_weight_row(25, 0.33)                      # Spyfall 2 reads the 27-location row
    assert (r["locations"], r["lambda"]) == (27, 0.3)
    assert claim_weight_row(60, 0.9)["locations"] == 52
    w0, w1 = r["w"][3], r["w"][4]
    mid = step_at(r, (w0 + w1) / 2)
    assert r["step_p99"][3] <= mid <= r["step_p99"][4]
    assert step_at(r, r["w"][0]) == r["step_p99"][0]


def test_per_game_scores_match_a_direct_replay():
    games = bot_games(3, players=4, locations=6, rounds=2, lam=0.7, seed=5)
    losses, steps = per_game_scores(games, 0.5, 6, 4, 5.0, 0.7)
    assert losses.shape == (3,) and steps.shape == (3 * 8,)
    assert np.all(losses > 0) and np.all(steps >= 0)
