"""Guess Who? benchmark: inference per event (budget < 20 ms), the expected-questions DP cold
and warm, the race table, and simulator throughput. Run: python tests/benchmarks/bench_guesswho.py
"""
from __future__ import annotations

import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

import engines.guesswho as gw
from engines.guesswho import inference, optimal


def _games(setup, n_games, rng):
    """Random consistent logs: a secret, then greedy-ish random questions until one is left."""
    board = setup.board
    qs = board.questions(setup.compound_questions)
    logs = []
    for _ in range(n_games):
        secret = rng.randrange(board.size)
        evs, alive = [], set(range(board.size))
        opp = board.size
        while len(alive) > 1:
            q = rng.choice(qs)
            t = board.truth(q)
            ans = bool(t[secret])
            evs.append(gw.Answer(question=q, answer=ans))
            alive = {i for i in alive if bool(t[i]) == ans}
            opp = max(1, opp - rng.randint(0, opp // 2))
            evs.append(gw.Opponent(remaining=opp))
        logs.append(evs)
    return logs


def bench_infer(label, setup, n_games=30, seed=0):
    rng = random.Random(seed)
    logs = _games(setup, n_games, rng)
    times = []
    for evs in logs:
        for k in range(len(evs) + 1):
            t = time.perf_counter()
            gw.infer(setup, evs[:k])
            times.append((time.perf_counter() - t) * 1000)
    times.sort()
    print(f"{label:44s} infer per event: median {statistics.median(times):6.2f} ms, "
          f"p95 {times[int(0.95 * len(times))]:6.2f} ms, max {times[-1]:6.2f} ms "
          f"({len(times)} calls)")


def bench_dp_cold(board, compound):
    inference._DP_CACHE.clear()
    dp = inference.question_dp(board, compound)
    t = time.perf_counter()
    v, _ = dp.best((1 << board.size) - 1)
    full = (time.perf_counter() - t) * 1000
    n_memo = len(dp.memo)
    rng = random.Random(1)
    worst = 0.0
    for _ in range(200):
        inference._DP_CACHE.clear()
        dp = inference.question_dp(board, compound)
        idx = rng.sample(range(board.size), rng.randint(3, board.size))
        m = sum(1 << i for i in idx)
        t = time.perf_counter()
        dp.best(m)
        worst = max(worst, (time.perf_counter() - t) * 1000)
    print(f"DP cold {board.name[:20]:20s} compound={compound!s:5s}: full board {full:7.2f} ms "
          f"(E[questions] = {v:.4f}, {n_memo} subsets), worst random subset {worst:7.2f} ms")


def bench_race():
    optimal._race.cache_clear()
    optimal._FILLED.update({False: 0, True: 0})
    t = time.perf_counter()
    for rules in ("official", "instant"):
        gw.race_win_probability(24, 24, rules)
    print(f"race table 24x24 both rules (exact fractions): {(time.perf_counter() - t) * 1000:.1f} ms")


def bench_sim():
    for strategies in (["greedy", "race"], ["optimal"], ["random"]):
        t = time.perf_counter()
        gw.simulate(gw.SimConfig("classic", strategies, 2000, seed=0))
        dt = time.perf_counter() - t
        print(f"simulate {'+'.join(strategies):14s} 2000 games: {dt:.2f} s "
              f"({2000 / dt:.0f} games/s)")


def main():
    classic = gw.load_board("classic")
    bench_dp_cold(classic, False)
    bench_dp_cold(classic, True)
    bench_race()
    for label, setup in [
        ("classic, single questions", gw.Setup(board=classic, board_ref="classic")),
        ("classic, compound questions", gw.Setup(board=classic, board_ref="classic", compound_questions=True)),
        ("classic, compound, error model eps=0.05", gw.Setup(board=classic, board_ref="classic", error_rate=0.05,
                                                            compound_questions=True)),
    ]:
        inference._DP_CACHE.clear()
        bench_infer(label, setup)
    bench_sim()


if __name__ == "__main__":
    main()
