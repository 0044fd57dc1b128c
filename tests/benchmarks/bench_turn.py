"""Time of one Cluedo turn advice (not a pass/fail test; run it by hand):

    python tests/benchmarks/bench_turn.py [--seeds 5] [--opponents-seconds 0]

Classic deck (Cluedo UK, two dice), 3-6 players, logs of 0, 10, 20, 30 random suggestions
(``bench_cluedo.game_log``), my pawn in a random room or on a random corridor square, with and
without a roll; the other players' pawns on random corridor squares. Prints the median and the
worst wall time of :func:`engines.cluedo.turn.turn_advice` per player count, cold (the
information per room not kept from an earlier call), and the time of the same log's
``recommend(joint=False)`` over every room (the information part alone) measured in the same
run, as the floor the movement part adds to; ``warm_*``: another roll for the same log (the
information per room kept); wall time and CPU time of the process (on a loaded
shared machine the wall time is several times the CPU time). Budget: 0.5 s per advice (the accuse/wait advice,
which has its own time budget of about 1 s, is not included: ``--opponents-seconds 0``).
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))      # this checkout's engines

from bench_cluedo import game_log

from engines.cluedo import turn as turn_module
from engines.cluedo.board import load_boards
from engines.cluedo.model import PositionEvent, Setup
from engines.cluedo.recommend import recommend
from engines.cluedo.turn import turn_advice

BUDGET = 0.5


def run(n_players: int, seeds: int, suggestions=(0, 10, 20, 30), opponents_seconds: float = 0.0) -> dict:
    names = ["Me"] + [f"P{i}" for i in range(1, n_players)]
    setup = Setup.from_json({"edition": "cluedo-uk", "players": names, "me": "Me"})
    board = load_boards()[0]["classic"]
    corridor = sorted(board.corridor)
    times, floors, cpus, cpu_floors, warm = [], [], [], [], []
    for n_s in suggestions:
        for seed in range(seeds):
            rng = np.random.default_rng(1000 * n_s + seed)
            ev = list(game_log(setup, n_s, seed))
            for p in names[1:]:
                ev.append(PositionEvent(player=p, at=corridor[int(rng.integers(len(corridor)))]))
            if rng.random() < 0.5:
                me = board.rooms[int(rng.integers(len(board.rooms)))]
            else:
                free = [q for q in corridor if q not in {e.at for e in ev if isinstance(e, PositionEvent)}]
                me = free[int(rng.integers(len(free)))]
            ev.append(PositionEvent(player="Me", at=me))
            t, c = time.perf_counter(), time.process_time()
            recommend(setup, ev, opponents_seconds=0, joint=False)
            floors.append(time.perf_counter() - t)
            cpu_floors.append(time.process_time() - c)
            for roll in (None, int(rng.integers(2, 13))):
                turn_module._INFO_CACHE.clear()       # cold: nothing kept from an earlier call
                t, c = time.perf_counter(), time.process_time()
                turn_advice(setup, ev, roll=roll, opponents_seconds=opponents_seconds)
                times.append(time.perf_counter() - t)
                cpus.append(time.process_time() - c)
            c = time.process_time()     # warm: another roll, same log
            turn_advice(setup, ev, roll=int(rng.integers(2, 13)), opponents_seconds=opponents_seconds)
            warm.append(time.process_time() - c)
    return {"players": n_players, "advices": len(times), "median_s": round(statistics.median(times), 4),
            "worst_s": round(max(times), 4), "recommend_median_s": round(statistics.median(floors), 4),
            "recommend_worst_s": round(max(floors), 4),
            "cpu_median_s": round(statistics.median(cpus), 4), "cpu_worst_s": round(max(cpus), 4),
            "recommend_cpu_median_s": round(statistics.median(cpu_floors), 4),
            "recommend_cpu_worst_s": round(max(cpu_floors), 4),
            "warm_cpu_median_s": round(statistics.median(warm), 4), "warm_cpu_worst_s": round(max(warm), 4),
            "within_budget_wall": max(times) <= BUDGET, "within_budget_cpu": max(cpus) <= BUDGET}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--opponents-seconds", type=float, default=0.0)
    a = ap.parse_args(argv)
    for k in (3, 4, 5, 6):
        print(json.dumps(run(k, a.seeds, opponents_seconds=a.opponents_seconds)), flush=True)


if __name__ == "__main__":
    main()
