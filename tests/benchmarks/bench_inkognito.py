"""Inkognito benchmark: time per answer of infer (joint / independent, deception off / on)
and of recommend, on random consistent logs of a 4-player game. Prints figures; not pass/fail.

Run: python tests/benchmarks/bench_inkognito.py [--games 20] [--answers 30]
Budget (DESIGN.md): inference < 20 ms per event.
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

import engines.inkognito as ink  # noqa: E402
from test_inkognito import random_log  # noqa: E402


def main(argv=None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--answers", type=int, default=30)
    a = ap.parse_args(argv)
    rng = random.Random(1)
    logs = []
    for _ in range(a.games):
        s = ink.default_setup()
        logs.append((s, random_log(rng, s, a.answers)))
    print(f"{a.games} games x up to {a.answers} answers (3 opponents, 36 worlds)")
    for deception in (False, True):
        for method in ink.METHODS:
            per_event, whole = [], []
            for s, log in logs:
                s2 = dataclasses.replace(s, deception=ink.Deception(deception))
                t0 = time.perf_counter()
                ink.infer(s2, log, method=method)
                dt = time.perf_counter() - t0
                whole.append(dt * 1e3)
                per_event.append(dt * 1e3 / max(len(log), 1))
            print(f"infer {method:11s} deception={'on ' if deception else 'off'}: whole log "
                  f"median {statistics.median(whole):.2f} ms, max {max(whole):.2f} ms; "
                  f"per answer median {statistics.median(per_event):.3f} ms")
        times = []
        for s, log in logs[:10]:
            s2 = dataclasses.replace(s, deception=ink.Deception(deception))
            t0 = time.perf_counter()
            ink.recommend(s2, log)
            times.append((time.perf_counter() - t0) * 1e3)
        print(f"recommend deception={'on ' if deception else 'off'}: median "
              f"{statistics.median(times):.2f} ms, max {max(times):.2f} ms")


if __name__ == "__main__":
    main()
