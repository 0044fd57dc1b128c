"""What each opponent knows: timing (not a pass/fail test; run it by hand):

    python tests/benchmarks/bench_opponents.py [--seeds 10] [--players 6] [--suggestions 20]

A classic game (Cluedo UK) with random suggestions by every player in turn (bench_cluedo's game
log), then :func:`engines.cluedo.opponents.iter_opponent_knowledge` (with the look-ahead, as
the recommendation uses it): time to the first estimate,
samples reached within the 2 s budget, the largest standard error then, and the time of the
whole recommendation keys (:func:`engines.cluedo.accuse.recommendation_keys`, budget 2 s).
Budget (issue "who is close to solving"): 6 players after 20 suggestions within 2 s, the first
estimate sooner.

``--desktop``: the Cluedo tab's path instead (:mod:`desktop.games.cluedo.opponents`, the task a
worker thread runs, without the event loop): time to the first estimate on screen, to the
first with the accuse/wait advice, to the last refinement, and to the plot's estimates for
every prefix of the log.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from bench_cluedo import game_log

from engines import cluedo
from engines.cluedo.accuse import recommendation_keys
from engines.cluedo.opponents import iter_opponent_knowledge


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--players", type=int, default=6)
    ap.add_argument("--suggestions", type=int, default=20)
    ap.add_argument("--budget", type=float, default=2.0)
    ap.add_argument("--desktop", action="store_true", help="time the Cluedo tab's tasks")
    a = ap.parse_args()
    names = ["Me"] + [f"P{i}" for i in range(1, a.players)]
    setup = cluedo.Setup.from_json({"edition": "cluedo-uk", "players": names, "me": "Me"})
    if a.desktop:
        desktop_path(setup, a)
        return
    first, reached, se_max, total, exact = [], [], [], [], 0
    for seed in range(a.seeds):
        ev = game_log(setup, a.suggestions, seed)
        t0 = time.perf_counter()
        last = None
        for est in iter_opponent_knowledge(setup, ev, max_samples=1 << 16, lookahead=True):
            dt = time.perf_counter() - t0
            if last is None:
                first.append(dt)
            elif dt > a.budget:
                break
            last = est
        reached.append(last.samples)
        exact += last.exact
        se_max.append(max(k.standard_error for k in last.opponents.values()))
        t0 = time.perf_counter()
        recommendation_keys(setup, ev, None, budget_seconds=a.budget)
        total.append(time.perf_counter() - t0)
    print(f"{a.players} players, {a.suggestions} suggestions, {a.seeds} seeds ({exact} exact):")
    print(f"  first estimate: median {1000 * statistics.median(first):.0f} ms, worst {1000 * max(first):.0f} ms")
    print(f"  deals sampled within {a.budget:g} s: median {statistics.median(reached):.0f}, least {min(reached)}")
    print(f"  largest standard error of p_knows_envelope then: median {statistics.median(se_max):.4f}, "
          f"worst {max(se_max):.4f}")
    print(f"  recommendation keys (budget {a.budget:g} s): median {statistics.median(total):.2f} s, "
          f"worst {max(total):.2f} s")


class _Task:
    """Stands in for desktop.tabs.jobs.TaskState: records when each partial result came."""

    def __init__(self):
        self.t0 = time.perf_counter()
        self.published = []

    def __call__(self) -> bool:
        return False

    def publish(self, view) -> None:
        self.published.append((time.perf_counter() - self.t0, view))


def desktop_path(setup, a) -> None:
    import threading

    from desktop.games.cluedo import opponents as tab_tasks

    gate = threading.Event()
    gate.set()
    first, advice, final, samples, history, prefixes = [], [], [], [], [], 0
    for seed in range(a.seeds):
        ev = tuple(game_log(setup, a.suggestions, seed))
        task = _Task()
        view = tab_tasks.shown_prefix_job(setup, ev, len(ev), gate, task)
        final.append(time.perf_counter() - task.t0)
        first.append(task.published[0][0] if task.published else final[-1])
        advice.append(next((t for t, v in task.published if v.advice is not None), final[-1]))
        samples.append(view.samples)
        task = _Task()
        prefixes = len(ev)
        tab_tasks.history_job(setup, ev, tuple(range(len(ev) - 1, -1, -1)), task)
        history.append(time.perf_counter() - task.t0)
    ms = lambda xs: f"median {1000 * statistics.median(xs):.0f} ms, worst {1000 * max(xs):.0f} ms"
    print(f"desktop path, {a.players} players, {a.suggestions} suggestions, {a.seeds} seeds:")
    print(f"  first estimate on screen: {ms(first)}")
    print(f"  first with the advice: {ms(advice)}")
    print(f"  last refinement (budget {tab_tasks.LIVE_BUDGET_SECONDS:g} s): {ms(final)}; "
          f"deals then: median {statistics.median(samples):.0f}, least {min(samples)}")
    print(f"  the plot's {prefixes} earlier prefixes: median {statistics.median(history):.1f} s, "
          f"worst {max(history):.1f} s")


if __name__ == "__main__":
    main()
