"""Inkognito benchmark (not pass/fail): time of one inference per event, as the desktop runs it.

After every logged answer the desktop calls ``infer(setup, events[:k])`` for the new prefix
(and ``recommend`` once). This script times both on every prefix of random consistent logs of
a 4-player game (3 opponents, 36 worlds), for each method with the deception model off and on,
and prints median and worst figures, plus the cost of a whole timeline (every prefix).

Run: python tests/benchmarks/bench_inkognito.py [--games 20] [--answers 40]
Budget (docs/performance.md): inference < 20 ms per event.
"""
from __future__ import annotations

import argparse
import dataclasses
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "engines"))

from test_inkognito import random_log

import engines.inkognito as ink


def _ms(f) -> float:
    t0 = time.perf_counter()
    f()
    return (time.perf_counter() - t0) * 1e3


def _fmt(xs) -> str:
    xs = sorted(xs)
    p95 = xs[int(0.95 * (len(xs) - 1))]
    return (f"median {statistics.median(xs):6.3f} ms, p95 {p95:6.3f} ms, "
            f"worst {xs[-1]:6.3f} ms  (n={len(xs)})")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--answers", type=int, default=40)
    ap.add_argument("--sim-games", type=int, default=200)
    a = ap.parse_args(argv)
    rng = random.Random(1)
    logs = []
    for _ in range(a.games):
        s = ink.default_setup()
        logs.append((s, random_log(rng, s, a.answers)))
    n_ev = sum(len(log) for _, log in logs)
    print(f"{a.games} games, {n_ev} answers in all (3 opponents, 36 worlds); budget 20 ms/event")
    ink.infer(logs[0][0], logs[0][1])  # warm the form-table caches
    for deception in (False, True):
        model = "deception" if deception else "uniform  "
        for method in ink.METHODS:
            per_event, timeline = [], []
            for s, log in logs:
                s2 = dataclasses.replace(s, deception=ink.Deception(enabled=deception))
                t = [_ms(lambda: ink.infer(s2, log[:k], method=method))
                     for k in range(1, len(log) + 1)]
                per_event += t
                timeline.append(sum(t))
            print(f"infer     {method:11s} {model}: per event {_fmt(per_event)}; "
                  f"whole timeline median {statistics.median(timeline):.1f} ms")
        rec = []
        for s, log in logs[:8]:
            s2 = dataclasses.replace(s, deception=ink.Deception(enabled=deception))
            rec += [_ms(lambda: ink.recommend(s2, log[:k])) for k in range(1, len(log) + 1)]
        print(f"recommend joint       {model}: per event {_fmt(rec)}")
    print("simulation (4 players, target P(true deal) >= 0.95, 30 questions at most):")
    for policy, qs, theta, deception in [
            ("recommend", "any", None, False), ("random", "any", None, False),
            ("recommend", "player", None, False), ("random", "player", None, False),
            ("recommend", "player", 0.8, False), ("recommend", "player", 0.8, True),
            ("recommend", "player", 0.05, False), ("recommend", "player", 0.05, True)]:
        t0 = time.perf_counter()
        r = ink.simulate(ink.SimConfig(a.sim_games, policy, theta=theta, deception=deception,
                                       questions=qs, seed=7))
        dt = time.perf_counter() - t0
        q = sorted(r.questions)
        print(f"  {policy:9s} {qs:6s} opponents θ={'indiff.' if theta is None else theta} engine "
              f"{r.model:9s}: solved {r.solved:.0%}, questions median "
              f"{statistics.median(q) if q else float('nan'):.1f}, worst {q[-1] if q else '-'}; "
              f"mean P(truth) after 3/5 questions {r.truth_probability[3]:.3f}/"
              f"{r.truth_probability[5]:.3f}  ({dt:.1f} s)")


if __name__ == "__main__":
    main()
