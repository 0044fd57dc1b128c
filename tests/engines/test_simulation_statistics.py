"""The simulators' statistics: the better strategy measurably wins (seeded, small, but with
enough games that each assertion could fail), and a Dask LocalCluster run equals the
in-process run game for game.

Every comparison is a one-sided test at a level far below what the seeded sample reaches, so
a broken strategy (or a simulator that ignored it) fails it: Welch's t-test / Mann–Whitney U
(scipy.stats) on the per-solve or per-game counts, or a Wilson interval (E. B. Wilson, 1927)
that must exclude 1/2. Budget: about 30 s on one core for the whole file.
"""
import dataclasses
import importlib

import numpy as np
import pytest
from scipy import stats

from engines.core.errors import Cancelled, SessionFormatError
from engines.core.executor import dask_available, parse_scheduler, run_games
from engines.egghead.questions import bound_deck
from engines.egghead.simulate import play_game

# ----------------------------------------------------------------- Egghead (Zorn 2024, §5)

def egghead_game(index, seed_seq, players, rounds, analysing):
    """One Egghead game (external moderator, our deck); returns (BA solves, answers-only
    solves) as lists of rounds needed (Zorn's (2024) X)."""
    qs = list(bound_deck(6, 3, players).values())
    ob, on, _ = play_game(players, 6, 3, rounds, analysing, qs, np.random.default_rng(seed_seq))
    return ob, on


def egghead_rounds(players, analysing, games, rounds, seed):
    res = run_games(egghead_game, games, seed, (players, rounds, analysing), workers=1)
    return (np.array([x for ob, _ in res for x in ob], float),
            np.array([x for _, on in res for x in on], float))


def test_egghead_analysing_players_solve_in_fewer_rounds():
    # the paper's table (4 players, 6 values, 3 cards, external moderator). Every player
    # analyses in one set of games, none in the other: seed fig. 2 finds the number of
    # analysing players barely matters, and all-BA gives 4 times the observations per second.
    # Measured: about 6.8 rounds (variance 10) with BA against 7.2 (variance 9.5) without.
    ba, _ = egghead_rounds(4, 4, 3, 300, seed=5)
    _, no = egghead_rounds(4, 0, 8, 500, seed=6)
    assert len(ba) > 400 and len(no) > 1500
    t = stats.ttest_ind(ba, no, equal_var=False, alternative="less")
    assert ba.mean() < no.mean() - 0.2, (ba.mean(), no.mean())
    assert t.pvalue < 0.01, (ba.mean(), no.mean(), t.pvalue)


# ----------------------------------------------------------------- Guess Who?

def _guesswho(strategies, games, seed, scheduler=None):
    gw = importlib.import_module("engines.guesswho.simulate")
    return gw.simulate(gw.SimConfig("classic", tuple(strategies), games, seed=seed,
                                    scheduler=scheduler))


def test_guesswho_optimal_play_beats_random():
    r = _guesswho(("optimal", "random"), 600, seed=11).matches[0]
    low, _high = r.interval_a
    assert r.win_rate_a > 0.55 and low > 0.5, r.to_json()


# ----------------------------------------------------------------- Inkognito

def _inkognito(policy, games, seed):
    ink = importlib.import_module("engines.inkognito.simulate")
    return ink.simulate(ink.SimConfig(games=games, policy=policy, max_questions=20, seed=seed))


def test_inkognito_recommended_questions_beat_random_ones():
    rec, rnd = _inkognito("recommend", 30, 21), _inkognito("random", 30, 22)

    def per_game(r):  # questions to solve; an unsolved game counts as max_questions + 1
        q = list(r.questions)
        return np.array(q + [r.max_questions + 1] * (r.games - len(q)), float)

    a, b = per_game(rec), per_game(rnd)
    assert a.mean() < b.mean() - 1.0, (a.mean(), b.mean())
    assert stats.mannwhitneyu(a, b, alternative="less").pvalue < 1e-3
    assert rec.log_loss_bits <= rnd.log_loss_bits


# ----------------------------------------------------------------- Cluedo

def _cluedo(strategy, games, seed):
    cl = importlib.import_module("engines.cluedo.simulate")
    turns = cl.simulate(cl.SimConfig(4, strategy=strategy, games=games, seed=seed,
                                     samples=300)).turns_to_certainty
    return np.array([41 if t is None else t for t in turns], float)   # unsolved: max_rounds+1


@pytest.mark.study     # 6 s of games guarding an effect: in the README's command, not the quick loop
def test_cluedo_recommendation_solves_sooner_than_random_suggestions():
    greedy, rnd = _cluedo("greedy", 8, 31), _cluedo("random", 8, 32)
    assert greedy.mean() < rnd.mean() - 1.0, (greedy, rnd)
    assert stats.mannwhitneyu(greedy, rnd, alternative="less").pvalue < 0.01, (greedy, rnd)


# ----------------------------------------------------------------- the executor

def test_seeds_do_not_depend_on_workers_or_chunks():
    a = run_games(egghead_game, 6, 9, (3, 40, 3), workers=1)
    b = run_games(egghead_game, 6, 9, (3, 40, 3), workers=1, chunk_size=4)
    assert a == b
    c = run_games(egghead_game, 6, 10, (3, 40, 3), workers=1)
    assert a != c          # another seed, other games
    assert len({str(g) for g in a}) == 6    # games differ from each other


@pytest.mark.skipif(not dask_available(), reason="needs the 'cluster' extra (dask[distributed])")
def test_local_cluster_run_equals_in_process_run_game_for_game():
    args = (3, 30, 3)
    here = run_games(egghead_game, 6, 4, args, workers=1)
    progress = []
    there = run_games(egghead_game, 6, 4, args, scheduler="local:1", chunk_size=2,
                      progress=lambda d, t: progress.append((d, t)))
    assert there == here
    assert progress[-1] == (6, 6) and [d for d, _ in progress] == sorted(d for d, _ in progress)


@pytest.mark.skipif(not dask_available(), reason="needs the 'cluster' extra (dask[distributed])")
def test_simulators_give_the_same_figures_on_a_cluster():
    # the simulators' own entry points: Egghead (one game per number of analysing players)
    # and Guess Who? (many small games) on a LocalCluster equal the in-process run
    from engines.egghead.simulate import SimConfig, simulate
    cfg = SimConfig(players=3, rounds=25, analysing=(0, 3), seed=2)
    here = simulate(cfg).to_json(raw=True)
    there = simulate(dataclasses.replace(cfg, scheduler="local:2:threads")).to_json(raw=True)
    for r in (here, there):
        r.pop("seconds")
        for c in r["configs"]:
            c.pop("seconds")
    assert here == there
    a = _guesswho(("optimal", "random"), 50, 3).to_json()
    b = _guesswho(("optimal", "random"), 50, 3, scheduler="local:1:threads").to_json()
    assert a == b


@pytest.mark.skipif(not dask_available(), reason="needs the 'cluster' extra (dask[distributed])")
def test_cancel_stops_a_cluster_run():
    with pytest.raises(Cancelled):
        run_games(egghead_game, 50, 1, (3, 2000, 3), scheduler="local:1:threads",
                  chunk_size=1, cancel=lambda: True)


def test_scheduler_errors_name_the_option_and_the_install(monkeypatch):
    with pytest.raises(SessionFormatError, match="tcp://HOST:8786"):
        parse_scheduler("somewhere")
    with pytest.raises(SessionFormatError, match="1..256"):
        parse_scheduler("local:0")
    import sys
    monkeypatch.setitem(sys.modules, "distributed", None)    # as if the extra were missing
    assert not dask_available()
    with pytest.raises(SessionFormatError, match=r"--scheduler.*pip install '\.\[cluster\]'"):
        run_games(egghead_game, 2, 1, (3, 5, 0), scheduler="tcp://127.0.0.1:1")
    # this computer needs nothing extra
    assert len(run_games(egghead_game, 2, 1, (3, 5, 0), workers=1)) == 2


def slow_game(index, seed_seq):
    """A game that reports being half done after 0.3 s (longer than the report interval)."""
    import time

    from engines.core.executor import game_progress
    time.sleep(0.3)
    game_progress(0.5)
    time.sleep(0.3)
    return index


@pytest.mark.parametrize("scheduler", [None, "processes:2", "local:1:threads"])
def test_a_long_game_reports_its_own_progress(scheduler):
    if scheduler and scheduler.startswith("local") and not dask_available():
        pytest.skip("needs the 'cluster' extra")
    seen = []
    out = run_games(slow_game, 2, 0, scheduler=scheduler, workers=1, chunk_size=1,
                    progress=lambda d, t: seen.append(d))
    assert out == [0, 1]
    assert any(d != int(d) for d in seen), seen          # a half-done game moved the bar
    assert seen == sorted(seen) and seen[-1] == 2
