"""Spyfall benchmarks (not part of the test run): ``python tests/benchmarks/bench_spyfall.py``.

Budgets (docs/performance.md): inference < 20 ms per event for 8 players x 30 locations;
1000 simulated 5-player games < 2 minutes.
"""
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from engines.spyfall import BeliefTracker, Setup, SimConfig, infer, make_claim, simulate


def _session(strategy: str, n=30, s=8, rounds=5, seed=0):
    rng = np.random.default_rng(seed)
    setup = Setup.from_json({"locations": [f"Location {i}" for i in range(n)],
                             "players": [f"P{i}" for i in range(s)], "me": "P0",
                             "my_role": {"location": "Location 3"},
                             "model": {"strategy": strategy}})
    events = [make_claim(setup, f"P{t % s}", rng.dirichlet(np.full(n, 0.5))) for t in range(rounds * s)]
    return setup, events


def bench_inference():
    for strategy in ("flat", "dynamic"):
        setup, events = _session(strategy)
        T = len(events)
        # what the desktop does after a click: infer the whole log again
        times = []
        for _ in range(20):
            t0 = time.perf_counter()
            infer(setup, events)
            times.append(time.perf_counter() - t0)
        full = statistics.median(times)
        # the incremental cost of one more claim (BeliefTracker.add_claim)
        tr = BeliefTracker(30, 8, setup.betas(), setup.lambdas(), setup.strategies())
        t0 = time.perf_counter()
        for ev in events:
            tr.add_claim(setup.players.index(ev.player), ev.vector)
        inc = (time.perf_counter() - t0) / T
        print(f"inference 8 players x 30 locations, {strategy:7s}: infer() on a {T}-claim log "
              f"median {full * 1e3:.2f} ms ({full / T * 1e3:.3f} ms per event); "
              f"incremental {inc * 1e6:.0f} us per claim")
    setup, events = _session("flat", n=6, s=4, rounds=2)
    t0 = time.perf_counter()
    infer(setup, events, method="enumeration")
    print(f"reference enumeration (scipy.stats.dirichlet), 4 x 6, {len(events)} claims: "
          f"{(time.perf_counter() - t0) * 1e3:.1f} ms")


def bench_simulation():
    for workers in (1, None):
        config = SimConfig(players=5, locations=10, games=1000, seed=1, workers=workers)
        t0 = time.perf_counter()
        r = simulate(config)
        dt = time.perf_counter() - t0
        print(f"1000 games, 5 players, 10 locations, flat/dynamic/joker, workers="
              f"{workers or os.cpu_count()}: {dt:.2f} s; spy wins {r.spy_win_rate:.3f} "
              f"[{r.spy_win_ci95[0]:.3f}, {r.spy_win_ci95[1]:.3f}], accusation accuracy "
              f"{r.accusation_accuracy:.3f}, spy location accuracy {r.spy_location_accuracy:.3f}")


def main():
    bench_inference()
    bench_simulation()


if __name__ == "__main__":
    main()
