"""The equilibrium replication: its analysis of stored outcomes, and what `recommend` names
from it (a strategy marked "replicated" only when every seed shows it)."""
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from engines import spyfall
from engines.spyfall import replication
from engines.spyfall.equilibrium import NON_SPY_STRATEGIES, SPY_STRATEGIES

ROOT = Path(__file__).resolve().parents[2]
M, K = len(NON_SPY_STRATEGIES), len(SPY_STRATEGIES)


def fake_runs(p, seeds=(1, 2, 3), games=120, rng_seed=0):
    """Stored runs whose outcomes are Bernoulli(p[i, j]) with common random numbers."""
    rng = np.random.default_rng(rng_seed)
    runs = []
    for s in seeds:
        u = rng.random(games)
        wins = (u[None, None, :] + 0.02 * rng.standard_normal((M, K, games))) % 1.0 < p[..., None]
        runs.append({"seed": s, "games": games, "wins": replication.pack(wins)})
    return {"runs": runs}


def test_pack_round_trips():
    a = np.random.default_rng(1).random((3, 4, 5)) < 0.5
    assert np.array_equal(replication.unpack(replication.pack(a), a.shape), a)


def test_label_round_trips():
    assert replication.parse_label(replication._label(0.05, "flat")) == ("flat", 0.05)
    with pytest.raises(ValueError):
        replication.parse_label("flat 0.05")


def test_a_clear_saddle_point_replicates_and_is_named():
    p = np.full((M, K), 0.3)
    p[:, 0] = 0.1                   # the spy's first strategy is best against every row
    p[2, :] += 0.4                  # the non-spies' third row is best against every column
    a = replication.analyse(fake_runs(p), resamples=100)
    assert a["settled"] and a["same_maximin_row"] and a["same_minimax_column"]
    row = replication._label(*NON_SPY_STRATEGIES[2])
    assert a["replicated"]["non_spy"] == [row]
    assert a["replicated"]["spy"] == [replication._label(*SPY_STRATEGIES[0])]
    for s in a["per_seed"]:
        assert s["maximin_row_frequency"][row] >= 0.95
        assert s["value_ci95"][0] <= 0.5 <= s["value_ci95"][1]
    assert row in a["never_dominated_non_spy"] and len(a["never_dominated_non_spy"]) < M


def test_tied_rows_do_not_settle_and_no_strategy_is_named(monkeypatch):
    p = np.full((M, K), 0.25)       # nothing to choose between: every seed picks by noise
    a = replication.analyse(fake_runs(p, games=60), resamples=50)
    assert not (a["same_maximin_row"] and a["same_minimax_column"]) or not a["settled"]
    monkeypatch.setattr(replication, "load_replication", lambda: a)
    setup = spyfall.default_setup()
    rec = spyfall.recommend(setup, [])
    if not a["settled"]:
        assert rec.strategy == () or all(m["replicated"] for m in rec.strategy)
        assert rec.equilibrium["settled"] is False and rec.equilibrium["seeds"] == 3
        assert "no single strategy" in rec.equilibrium["note"]
        lo, hi = rec.equilibrium["value"]
        assert 0.1 < lo <= hi < 0.4


def test_recommend_marks_a_replicated_strategy_with_its_seeds(monkeypatch):
    a = {"seeds": [11, 12, 13], "settled": True,
         "replicated": {"non_spy": ["flat λ = 0.3"], "spy": ["flat λ = 0"]},
         "never_dominated_non_spy": ["flat λ = 0.3", "flat λ = 0.05"], "value_range": [0.2, 0.26]}
    monkeypatch.setattr(replication, "load_replication", lambda: a)
    setup = spyfall.default_setup()
    rec = spyfall.recommend(setup, [])
    assert rec.strategy == ({"lambda": 0.3, "strategy": "flat", "probability": 1.0,
                             "replicated": True, "seeds": 3},)
    out = rec.to_json()
    assert out["strategy"][0]["replicated"] is True and out["strategy"][0]["seeds"] == 3
    assert out["equilibrium"]["never_dominated"][1] == {"strategy": "flat", "lambda": 0.05}
    # the mean claim is that strategy's: γ = β(0.7·1 + 0.3·e_l) before any claim
    n = setup.n_locations
    assert rec.claim[setup.my_location] == pytest.approx(1.0 / (0.7 * n + 0.3))


def test_recommend_cli_marks_what_is_named(tmp_path):
    """`python -m engines recommend` on the stored study: every strategy it names carries
    "replicated" and the number of seeds; a replicated one only if the stored replication
    settled."""
    out = subprocess.run([sys.executable, "-m", "engines", "recommend",
                          str(ROOT / "resources" / "examples" / "spyfall.json")],
                         capture_output=True, text=True, cwd=ROOT, check=False)
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    rep = replication.replicated_strategies("non_spy")
    for m in d["strategy"]:
        assert isinstance(m["replicated"], bool) and m["seeds"] >= 1
        if m["replicated"]:
            assert rep["settled"] or rep["replicated"]
    if rep["seeds"] and not rep["replicated"]:
        assert d["strategy"] == [] and d["equilibrium"]["settled"] is False


def test_a_stored_seed_is_extended_to_the_games_a_longer_run_plays(tmp_path):
    """``run`` with more games than a stored seed plays only the missing games (game g's deal
    does not depend on the number of games): 1 game per cell extended to 2 equals 2 directly."""
    ext, direct = tmp_path / "ext.json", tmp_path / "direct.json"
    common = ["run", "--seeds", "5", "--scheduler", "processes:1"]
    replication.main(common + ["--games", "1", "--out", str(ext)])
    res = replication.main(common + ["--games", "2", "--out", str(ext)])
    ref = replication.main(common + ["--games", "2", "--out", str(direct)])
    (run,), (want,) = res["runs"], ref["runs"]
    assert run["games"] == want["games"] == 2 and run["wins"] == want["wins"]
    assert run["mean_turns"] == pytest.approx(want["mean_turns"], abs=0.01)
    assert [p["games"] for p in run["parts"]] == [1, 1]
    assert json.loads(ext.read_text())["runs"][0]["wins"] == want["wins"]
