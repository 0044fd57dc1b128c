"""Refresh time of the Cluedo worksheet with the suggestion model on vs off (not a pass/fail
test; run it by hand):

    python tests/benchmarks/bench_suggestion_model.py [--seeds 5] [--suggestions 20]

Classic deck (Cluedo UK), 3-6 players, my hand and ``--suggestions`` random suggestions by the
players in turn. Per table size the median over seeds of ``infer`` with no model (off), with a
fixed rho for every opponent (on: 0.25, 4, 0.5, ... in turn; goal: within 2x of off), and with
one opponent learned (model averaging over the grid; several weighted counts, reported), and the
ratios to off measured in the same run. Times are CPU seconds of this process
(``time.process_time``), the machine being shared.
"""
from __future__ import annotations

import argparse
import statistics
import time

from bench_cluedo import game_log

from engines import cluedo
from engines.cluedo.model import Setup


def _cpu(fn, *a, repeat=3):
    best = None
    for _ in range(repeat):
        t = time.process_time()
        fn(*a)
        dt = time.process_time() - t
        best = dt if best is None else min(best, dt)
    return best


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--suggestions", type=int, default=20)
    a = ap.parse_args(argv)
    values = (0.25, 4.0, 0.5, 0.1, 2.0)
    worst = 0.0
    for n in range(3, 7):
        names = ["Me"] + [f"P{i}" for i in range(1, n)]
        plain = Setup.from_json({"edition": "cluedo-uk", "players": names, "me": "Me"})
        on = Setup.from_json({"edition": "cluedo-uk", "players": names, "me": "Me",
                              "model": {"suggestion_trust": {p: values[i % len(values)]
                                                             for i, p in enumerate(names[1:])}}})
        learn = Setup.from_json({"edition": "cluedo-uk", "players": names, "me": "Me",
                                 "model": {"suggestion_trust": {names[1]: "learn"}}})
        t_off, t_on, t_learn = [], [], []
        for seed in range(a.seeds):
            ev = game_log(plain, a.suggestions, seed)
            t_off.append(_cpu(cluedo.infer, plain, ev))
            t_on.append(_cpu(cluedo.infer, on, ev))
            t_learn.append(_cpu(cluedo.infer, learn, ev, repeat=1))
        off, mon, ml = (statistics.median(t) for t in (t_off, t_on, t_learn))
        ratio = mon / off
        worst = max(worst, ratio)
        print(f"classic {n}p {a.suggestions} sugg: off {1000 * off:6.1f} ms  on {1000 * mon:6.1f} ms"
              f"  ratio {ratio:4.2f}  |  one learner {1000 * ml:7.1f} ms  ratio {ml / off:5.2f}", flush=True)
    print(f"largest on/off ratio {worst:.2f} (goal: at most 2)")


if __name__ == "__main__":
    main()
