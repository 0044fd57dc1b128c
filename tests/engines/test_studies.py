"""Each documented study's quick version (``python -m engines study NAME --quick``) still shows
the effect its page reports, tested at the page's unit, the game.

Every test here must fail when the measured ingredient is taken out: with ``STUDY_BROKEN=1``
in the environment each study runs its broken variant (:data:`engines.studies.BROKEN`: the
suggestion model ignored, in the threshold race and in the accuse-or-wait advice, the turn
advice and the accuse-or-wait advice replaced by the baseline bot, the claim weight ignored, Egghead's decks replaced by
ours; for the Spyfall value the test itself replaces the non-spies' vote by a random one), and
every test of this file fails. The studies' budgets are in games, so each result is a function
of its seed.
"""
import importlib
import json
import os

import pytest
from scipy.stats import binomtest

from engines.__main__ import main
from engines.studies import BROKEN

pytestmark = pytest.mark.study


def run_quick(name: str, tmp_path, capsys) -> dict:
    """The quick study through the command line, its JSON read back from ``--out``."""
    out = tmp_path / f"{name}.json"
    argv = ["study", name, "--quick", "--out", str(out)]
    if os.environ.get("STUDY_BROKEN") and name in BROKEN:
        argv += ["--broken", BROKEN[name][0]]
    assert main(argv) == 0
    res = json.loads(out.read_text(encoding="utf-8"))
    assert capsys.readouterr().out.strip() == res["table"]    # stdout is the page's table
    return res


def test_the_right_suggestion_model_beats_no_model(tmp_path, capsys):
    """docs/cluedo-suggestion-model.md: against opponents who suggest what they lack (rho = 0.1)
    the player who assumes their true rho wins games the player without the model loses. Paired
    on the same 120 games, the exact McNemar test (a binomial test on the games only one of the
    two won) at p < 0.01."""
    res = run_quick("suggestion-model", tmp_path, capsys)
    row = res["result"]["lack-0.1"]
    assert row["games"] == 120
    v = row["right"]["vs_today"]
    only_model, only_plain = v["won_only_here"], v["won_only_today"]
    assert only_model > only_plain, v
    assert binomtest(only_model, only_model + only_plain, 0.5).pvalue < 0.01, v
    assert row["right"]["win"]["k"] > row["today"]["win"]["k"]


def test_the_suggestion_model_in_the_accuse_or_wait_advice_beats_no_model(tmp_path, capsys):
    """docs/cluedo-suggestion-model.md: a player who accuses by the accuse-or-wait advice wins,
    against opponents who suggest what they lack (rho = 0.1), games the same advice without the
    model loses: paired on the same fresh games (3 players), the exact McNemar test at
    p < 0.01."""
    from engines.studies import MODEL_ADVICE

    res = run_quick("model-advice", tmp_path, capsys)
    row = res["result"]["lack-0.1"]
    assert row["games"] == MODEL_ADVICE["quick_games"]
    v = row["right"]["vs_today"]
    only_model, only_plain = v["won_only_here"], v["won_only_today"]
    assert only_model > only_plain, v
    assert binomtest(only_model, only_model + only_plain, 0.5).pvalue < 0.01, v
    assert row["right"]["win"]["k"] > row["today"]["win"]["k"]


def test_the_turn_advice_beats_random_movers(tmp_path, capsys):
    """docs/cluedo-board.md: the bot that moves and suggests by the turn advice, seated among
    three bots that move to random rooms, wins more than the quarter of the games a seat is
    worth (one-sided binomial test by the game, 40 games, p < 0.01)."""
    res = run_quick("board", tmp_path, capsys)
    (row,) = res["result"]
    f = row["focal_result"]
    assert f["games"] == 40
    assert binomtest(f["wins"], f["games"], 0.25, alternative="greater").pvalue < 0.01, f


def test_the_accuse_or_wait_advice_wins_games_the_certain_bot_loses(tmp_path, capsys):
    """docs/cluedo-accusation.md: the advice bot and a bot that accuses only when certain, paired
    in the same seat of the same games among three certain bots (the control's game, the
    advice's decisions computed alongside where they can change the pairing). Paired on the
    same :data:`engines.studies.ACCUSATION_QUICK` games, the exact McNemar test (a binomial test
    on the games only one of the two won) at p < 0.01, and more wins in all. With the advice
    replaced by the control (``advice-is-baseline``) every game is concordant and the test
    fails."""
    from engines.studies import ACCUSATION_QUICK

    res = run_quick("accusation", tmp_path, capsys)
    r = res["result"]
    assert r["games"] == len(r["per_game"]) == ACCUSATION_QUICK["games"]
    only_advice = sum(1 for c, a in r["per_game"] if a and not c)
    only_control = sum(1 for c, a in r["per_game"] if c and not a)
    assert (only_advice, only_control) == (r["won_only_advice"], r["won_only_control"])
    assert r["early_accusations"] > 0, r
    assert only_advice > only_control, r
    assert binomtest(only_advice, only_advice + only_control, 0.5).pvalue < 0.01, r
    assert r["advice_wins"] > r["control_wins"], r


def test_the_calibrated_claim_weight_beats_the_unweighted_model(tmp_path, capsys):
    """docs/spyfall-calibration.md: grid claims read with the calibrated claim weight predict the
    spy better than read at w = 1 (the unweighted Dirichlet model), game by game (sign test over
    80 bot games of the tab's default table, p < 0.01), and w = 1 is far worse than a uniform
    guess (its 95 % interval by the game lies above log 5)."""
    res = run_quick("spyfall-claim-weight", tmp_path, capsys)
    r = res["result"]
    lower, higher = r["games_lower_than_w1"], r["games_higher_than_w1"]
    assert lower > higher, r
    assert binomtest(lower, lower + higher, 0.5).pvalue < 0.01, (lower, higher)
    (cal, one) = r["rows"]
    assert cal["w"] == r["calibrated_w"] < 1 and one["w"] == 1
    assert one["log_loss_ci95"][0] > r["uniform_log_loss"], one


def _random_vote(tracker, i, location, spy, rng):
    """The broken variant of the Spyfall value: a bot votes for a seat drawn at random,
    whatever it believes."""
    others = [k for k in range(tracker.s) if k != i]
    return int(others[rng.integers(len(others))])


def test_the_spyfall_value_lies_in_its_interval(tmp_path, capsys, monkeypatch):
    """docs/spyfall-equilibrium.md: the non-spies win about a quarter of the games at
    equilibrium (pooled over three deal seeds, 0.248). On a fresh deal seed with 40 games a cell
    the value's 95 % interval by resampling whole games holds that value."""
    from engines.studies import SPYFALL_POOLED_VALUE

    if os.environ.get("STUDY_BROKEN"):
        monkeypatch.setattr(importlib.import_module("engines.spyfall.simulate"), "bot_vote", _random_vote)
    res = run_quick("spyfall-value", tmp_path, capsys)
    r = res["result"]
    assert r["games"] == 40
    lo, hi = r["value_ci95"]
    assert hi - lo < 0.25, r                 # an interval that could miss the value
    assert lo <= SPYFALL_POOLED_VALUE <= hi, r


def test_egghead_rounds_follow_the_information_of_the_deck(tmp_path, capsys):
    """docs/egghead-simulation.md: without behavioural analysis the rounds a player needs to
    solve follow the information of the question deck: the 23 least informative questions of our
    deck drawn with replacement need more rounds than the 23 most informative ones (95 %
    intervals by the game, 8 games of 1,000 rounds each, disjoint), and our own deck as the app
    plays it needs fewer than the paper's 9.78."""
    res = run_quick("egghead", tmp_path, capsys)
    rows = {(r["deck"], r["draw"]): r["no_ba"] for r in res["result"]["rows"]}
    low, high = rows[("lowest-info-23", "replace")], rows[("highest-info-23", "replace")]
    assert low["games"] == high["games"] == 8
    assert low["mean_ci"][0] > high["mean_ci"][1], (low, high)
    assert rows[("ours-28", "deck")]["mean_ci"][1] < res["result"]["paper"]["no_ba"][0]
