"""How long Cancel takes in Guess Who?'s question DP with compound questions over
many-valued attributes (the largest board the compound limit accepts: 24 characters, 6
attributes x 30 values, 16,110 pairs of questions): ``recommend`` runs in a thread, the cancel
flag is set after ``delay`` seconds, and the time from setting it to ``Cancelled`` is printed
(wall and the process's CPU share). Run: ``python tests/benchmarks/bench_guesswho_cancel.py``."""
from __future__ import annotations

import os
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "engines"))

from guesswho_boards import random_board_session

from engines.core.errors import Cancelled
from engines.core.schema import parse_session
from engines.guesswho import inference


def latency(delay: float) -> tuple:
    inference._DP_CACHE.clear()
    s = parse_session(random_board_session())
    flag = threading.Event()
    out = {}

    def run():
        try:
            inference.recommend(s.setup, s.events, cancel=flag.is_set)
            out["end"] = "finished"
        except Cancelled:
            out["end"] = "cancelled"
        out["t"] = time.perf_counter()

    th = threading.Thread(target=run)
    th.start()
    time.sleep(delay)
    t_set = time.perf_counter()
    flag.set()
    th.join()
    return out["end"], out["t"] - t_set


if __name__ == "__main__":
    import engines

    print("engines from", os.path.dirname(engines.__file__))
    t0 = time.process_time()
    inference.recommend(parse_session(random_board_session()).setup, ())
    print(f"recommend without cancel: {time.process_time() - t0:.2f} s CPU")
    for delay in [float(a) for a in sys.argv[1:]] or [0.05, 0.3, 0.6, 1.0]:
        end, dt = latency(delay)
        print(f"cancel after {delay:.2f} s: {end}, {1000 * dt:.0f} ms from the flag to the end", flush=True)
