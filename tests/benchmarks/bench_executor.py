"""Figures of the simulation executor (docs/cli.md, "Simulations on a Dask cluster").

    python tests/benchmarks/bench_executor.py            # speed-up and memory per game
    python tests/benchmarks/bench_executor.py --part speedup --workers 2

* speed-up: the same Egghead workload (the paper's setting: 4 players, 6 values, 3 cards, one
  analysing player; ``--games`` games of ``--rounds`` rounds) in this process, on
  ``processes:N`` and on a ``local:N`` Dask LocalCluster (start-up included), with the
  results checked equal game for game. The load average is printed: on a shared machine the
  speed-up is bounded by the idle cores, not by N.
* memory: peak resident memory of a fresh Python process that plays one game of each
  simulator (what one Dask worker needs per game it runs at a time), and of the same process
  that only imports the engines (the worker's baseline).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402 (after the set-up above)

from engines.core.executor import run_games  # noqa: E402 (after the set-up above)


def egghead_game(index, seed_seq, players, rounds, analysing):
    """One Egghead game of the paper's experiment; returns (BA solves, others' solves)."""
    from engines.egghead.questions import bound_deck
    from engines.egghead.simulate import play_game
    qs = list(bound_deck(6, 3, players).values())
    ob, on, _ = play_game(players, 6, 3, rounds, analysing, qs, np.random.default_rng(seed_seq))
    return ob, on


def timed_game(index, seed_seq, *args):
    """:func:`egghead_game` and the CPU seconds it took in the process that ran it."""
    t = time.process_time()
    res = egghead_game(index, seed_seq, *args)
    return res, time.process_time() - t


def speedup(games: int, rounds: int, workers: int) -> dict:
    """Wall time in this process, on processes:N and on local:N; ``cores_used`` = CPU seconds
    of the games / wall seconds (what the run got of the machine: <= N, less when shared)."""
    args = (4, rounds, 1)
    out = {"workload": f"{games} Egghead games x {rounds} rounds, 4 players, 1 analysing",
           "cpus": os.cpu_count(), "load_average_before": os.getloadavg()}
    t = time.perf_counter()
    ref = run_games(timed_game, games, 1, args, workers=1)
    wall = time.perf_counter() - t
    out["in_process"] = {"wall_s": round(wall, 2),
                         "cores_used": round(sum(c for _, c in ref) / wall, 2)}
    for sched in (f"processes:{workers}", f"local:{workers}"):
        t = time.perf_counter()
        res = run_games(timed_game, games, 1, args, scheduler=sched, chunk_size=1)
        s = time.perf_counter() - t
        assert [r for r, _ in res] == [r for r, _ in ref], f"{sched} gave other results"
        out[sched] = {"wall_s": round(s, 2), "speedup": round(wall / s, 2),
                      "cores_used": round(sum(c for _, c in res) / s, 2)}
    out["load_average_after"] = os.getloadavg()
    return out


GAMES = {
    "baseline (imports only)": "import engines.egghead, engines.spyfall, engines.guesswho, "
                               "engines.inkognito, engines.cluedo",
    "egghead 4 players, 1 analysing, 200 rounds":
        "from engines.egghead.simulate import simulate; simulate(rounds=200)",
    "egghead 5 players, 1 analysing, 10 rounds":
        "from engines.egghead.simulate import simulate; simulate(players=5, rounds=10)",
    "spyfall 5 players, 10 locations, 1 game":
        "from engines.spyfall.simulation import SimConfig, simulate; "
        "simulate(SimConfig(games=1, workers=1))",
    "guesswho classic, optimal vs random, 1 game":
        "from engines.guesswho.simulate import simulate; "
        "simulate('classic', ['optimal', 'random'], 1)",
    "inkognito recommend, 1 game": "from engines.inkognito.simulate import simulate; "
                                   "simulate(1, 'recommend', max_questions=20)",
    "cluedo greedy, 4 players, 1 game": "from engines.cluedo.simulate import simulate; "
                                        "simulate(4, strategy='greedy', games=1)",
}


def memory() -> dict:
    out = {}
    for name, code in GAMES.items():
        prog = (f"import resource, sys; sys.path.insert(0, {str(ROOT)!r}); {code}; "
                "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)")
        try:
            r = subprocess.run([sys.executable, "-c", prog], capture_output=True, text=True,
                               timeout=600, cwd=ROOT)
            out[name] = (f"{int(r.stdout.split()[-1]) / 1024:.0f} MB" if r.returncode == 0
                         else f"error: {r.stderr.strip().splitlines()[-1]}")
        except (subprocess.TimeoutExpired, IndexError, ValueError) as exc:
            out[name] = f"error: {exc}"
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--part", choices=("all", "speedup", "memory"), default="all")
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--rounds", type=int, default=100)
    ap.add_argument("--workers", type=int, default=2)
    a = ap.parse_args(argv)
    res = {}
    if a.part in ("all", "speedup"):
        res["speedup"] = speedup(a.games, a.rounds, a.workers)
    if a.part in ("all", "memory"):
        res["peak_memory_per_process"] = memory()
    print(json.dumps(res, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
