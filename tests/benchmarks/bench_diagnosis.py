"""Diagnosis of mistyped entries: how often the mistyped entry is among the corrections, and the
time per diagnosis (not a pass/fail test; run it by hand):

    python tests/benchmarks/bench_diagnosis.py [--logs 100] [--seed 0] [--time-limit S]

For each game, random consistent logs (tests/engines/random_logs.py: the game played truthfully
from a random hidden world) with one field of one entry mistyped; only the logs the mistake
made contradictory are diagnosed (the others need no correction). Printed per game: the logs
diagnosed, the rate at which the mistyped entry is among the corrections (95 % Wilson interval,
the log being the independent unit), how many searches were complete within the default budget
(steps), the time per diagnosis (median, worst), the steps spent and the time as a multiple of
one exact check of the whole log by the game's engine measured in the same run (so that a
loaded machine's figures can be compared). The CPU time per diagnosis (the process's, from
``time.process_time``) is printed beside the wall time: on a loaded machine it is the fairer
figure.

* Egghead: 3 and 4 players (6 values, 3 cards), 4 questions each followed by the reactions
  rounds and solves the true table produces; one answer changed to another answer of its
  question, or one reactions round to another set of solvers.
* Cluedo: classic deck, 4 players, my hand and 29 other entries; a small deck (2 suspects,
  2 weapons, 3 rooms, 3 players) with 8 entries. One field changed through the event's JSON.
* Inkognito: 3 opponents, 10 truthful answers; one field changed through the JSON.
* Guess Who?: classic board, 10 entries; an answer flipped or another character knocked down.

The budget (issue "Mistakes at the table"): 1 s per diagnosis on a 2-core machine.
"""
from __future__ import annotations

import argparse
import importlib
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[1] / "engines"),
                str(Path(__file__).resolve().parents[2])]

from random_logs import (  # noqa: E402 (after the set-up above)
    cluedo_log,
    cluedo_small_setup,
    egghead_log,
    egghead_mutations,
    guesswho_log,
    inkognito_log,
    mutate_json,
)

import engines.cluedo as cl  # noqa: E402 (after the set-up above)
import engines.egghead as eg  # noqa: E402 (after the set-up above)
import engines.guesswho as gw  # noqa: E402 (after the set-up above)
import engines.inkognito as ink  # noqa: E402 (after the set-up above)
from engines.core.errors import ContradictionError  # noqa: E402 (after the set-up above)
from engines.core.stats import wilson_interval  # noqa: E402 (after the set-up above)


def _floor(mod, setup, log) -> float:
    """Time of one exact check of the whole log by the game's own engine (the floor the
    diagnosis is compared with, measured in the same run: the machine's load cancels out)."""
    check = importlib.import_module(f"{mod.__name__}.diagnosis")
    t = time.perf_counter()
    if hasattr(check, "consistent"):
        check.consistent(setup, log)
    else:
        try:
            mod.infer(setup, log)
        except ContradictionError:
            pass
    return time.perf_counter() - t


def _run(name, mod, cases, time_limit) -> None:
    hits = total = complete = 0
    times, cpus, ratios, steps = [], [], [], []
    for setup, log, mistyped in cases:
        t, c = time.perf_counter(), time.process_time()
        d = mod.diagnose(setup, log, time_limit=time_limit)
        dt, dc = time.perf_counter() - t, time.process_time() - c
        if d is None:
            continue
        total += 1
        times.append(dt)
        cpus.append(dc)
        ratios.append(dt / max(_floor(mod, setup, log), 1e-6))
        steps.append(d.steps)
        complete += d.complete
        hits += mistyped in [c.entry for c in d.corrections]
    if not total:
        print(f"{name:34s} no contradictory log", flush=True)
        return
    lo, hi = wilson_interval(hits, total)
    times.sort()
    cpus.sort()
    print(f"{name:34s} logs {total:4d}  found {hits:4d} = {100 * hits / total:5.1f} % "
          f"[{100 * lo:5.1f}, {100 * hi:5.1f}]  complete {complete:4d}  "
          f"median {1e3 * statistics.median(times):7.1f} ms  worst {1e3 * times[-1]:7.1f} ms  "
          f"CPU median {1e3 * statistics.median(cpus):7.1f} ms  worst {1e3 * cpus[-1]:7.1f} ms  "
          f"steps median {statistics.median(steps):.0f} max {max(steps)}  "
          f"time / one check of the log: median {statistics.median(ratios):.0f} "
          f"max {max(ratios):.0f}", flush=True)


def egghead_cases(players: int, logs: int, seed: int):
    rng = random.Random(seed)
    n = 0
    while n < logs:
        setup, events, _ = egghead_log(rng, players, 4)
        i, _, ev = rng.choice(egghead_mutations(setup, events, rng))
        log = events[:i] + [ev] + events[i + 1:]
        try:
            eg.infer(setup, log)
            continue                     # the mistake left the log consistent
        except ContradictionError:
            pass
        n += 1
        yield setup, log, i


def json_cases(mod, make, logs: int, seed: int):
    rng = random.Random(seed)
    n = tries = 0
    while n < logs and tries < 50 * logs:
        tries += 1
        setup, events = make(rng)
        if not events:
            continue
        i = rng.randrange(len(events))
        if mod is gw:
            ev = events[i]
            bad = gw.Answer(question=ev.question, answer=not ev.answer) if isinstance(ev, gw.Answer) else \
                gw.Eliminate(name=rng.choice([x for x in setup.board.names if x != ev.name]))
        else:
            m = mutate_json(mod, setup, events[i], rng)
            if m is None:
                continue
            bad = m[1]
        log = events[:i] + [bad] + events[i + 1:]
        if importlib.import_module(f"{mod.__name__}.diagnosis").consistent(setup, log):
            continue                     # the mistake left the log consistent
        n += 1
        yield setup, log, i


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--logs", type=int, default=100, help="mistyped logs per game (default 100)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--time-limit", type=float, default=None,
                    help="the app's wall-clock cap per diagnosis (s); default none (budget only)")
    ap.add_argument("--games", default="egghead,cluedo,inkognito,guesswho",
                    help="comma-separated games to run (default: all four)")
    ap.add_argument("--egghead-players", default="3,4",
                    help="comma-separated Egghead player counts (default 3,4; 5 takes seconds "
                         "a log)")
    args = ap.parse_args(argv)
    games = set(args.games.split(","))
    print(f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}; budget: the games' "
          f"default steps; time limit {args.time_limit}", flush=True)
    for players in [int(x) for x in args.egghead_players.split(",")] if "egghead" in games else ():
        _run(f"Egghead {players}p, answer or reaction", eg,
             egghead_cases(players, args.logs, args.seed), args.time_limit)
    if "cluedo" in games:
        _cluedo(args)
    if "inkognito" in games:
        _run("Inkognito 3 opponents, 10 answers", ink,
             json_cases(ink, lambda r: inkognito_log(r, 10), args.logs, args.seed),
             args.time_limit)
    if "guesswho" in games:
        _run("Guess Who? classic, 10 entries", gw,
             json_cases(gw, lambda r: guesswho_log(r, 10), args.logs, args.seed), args.time_limit)
    print(f"load average after {os.getloadavg()[0]:.1f}", flush=True)


def _cluedo(args) -> None:
    classic = cl.default_setup()
    small = cluedo_small_setup()
    _run("Cluedo classic 4p, 30 entries", cl,
         json_cases(cl, lambda r: (classic, cluedo_log(classic, r, 30)[1]), args.logs, args.seed),
         args.time_limit)
    _run("Cluedo small deck 3p, 8 entries", cl,
         json_cases(cl, lambda r: (small, cluedo_log(small, r, 8)[1]), args.logs, args.seed),
         args.time_limit)


if __name__ == "__main__":
    main()
