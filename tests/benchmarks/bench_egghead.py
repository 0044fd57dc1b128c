"""Egghead benchmarks (not collected by pytest): prints the figures against the budgets.

    python tests/benchmarks/bench_egghead.py [--quick] [--no-five] [--six] [--sim-configs 0,1,2,3,4]

1. 4 players (56^4 ≈ 9.8 M worlds): one answer plus the reaction fixpoint, through
   ``infer`` (cached prefix, as the tab calls it) — budget < 100 ms.
2. 5 players (56^5 ≈ 551 M worlds): memory of the master table and peak RSS, time per event
   — budget < 1 GB and < 5 s per event.
2b. With ``--six``: 6 players (56^6 ≈ 30.8 G worlds, a 4.4 GB table; no budget in the issue):
   time per event as the tab asks for it (prefix by prefix) and peak RSS.
3. Zorn's (2024) simulation: 1000 rounds, 4 players, external moderator — budget < 5 minutes.
2c. With ``--compare [4,5,6]``: memory and time per event before (the explicit bit-packed table)
   and after (orbits under the symmetry of players, engines/egghead/orbits.py) on the same
   god's-eye logs, each in a fresh process: peak RSS, wall and CPU time per
   event (median, max) and their ratio. 6 players explicit only with ``--six-explicit``.
5. With ``--long`` (only): a long real game, 5 players and 100 events (the first 100 events of a
   truthful 40-round game, seed 3), through ``python -m engines infer FILE`` in a fresh process
   (the command line replays the whole log): CPU and wall time and peak RSS against the 10 s /
   1 GB contract, and the CPU ratio to ``python -c "import numpy"`` measured in the same run.
6. With ``--rotating`` (only): six players, a rotating moderator (the seed-5 deal of ``--compare
   6``; the first answer given by P1, so the blocks are (1, 5)), the answer and a reactions round
   in a fresh process, as ``--compare`` reports them.
7. With ``--solve`` (only): six players, a game with a solve (the first 12 events of
   ``truthful_game(6, 4, 5)``, written out below: P5 solves at event 4, then answers concern
   their new stack), through the timeline in a fresh process as ``--compare`` reports them.
4. With ``--hostile`` (only): custom decks whose master table passes 1 GiB (3 players × 9
   values × 6 cards: a 3.4 GB table) are refused at once — time to the refusal, peak RSS, message.
"""
from __future__ import annotations

import argparse
import os
import resource
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

import numpy as np

import engines.egghead as egghead
from engines.core.timeline import Timeline
from engines.egghead import (
    Answer,
    BitTable,
    Reactions,
    Setup,
    SimConfig,
    Solve,
    bound_deck,
    infer,
    simulate,
    stack_space,
)
from engines.egghead.orbits import OrbitTable


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def truthful_game(players: int, rounds: int, seed: int):
    """A truthful event log (everybody analyses) from a god's-eye table; yields
    (setup_json_for_player0, events) after each round's answer and each reactions round."""
    rng = np.random.default_rng(seed)
    sp = stack_space(6, 3)
    deck = list(bound_deck(6, 3, players).values())
    names = [f"P{i}" for i in range(players)]
    real = [sp.index(rng.integers(1, 7, 3)) for _ in range(players)]
    initial = list(real)
    M = OrbitTable(players, sp.size) if players >= 6 else BitTable(players, sp.size)
    events = []
    marks = []
    for _r in range(rounds):
        q = deck[rng.integers(len(deck))]
        a = q.answer(real)
        M.filter_answer(q, a, [True] * players)
        events.append(Answer(question=q.id, answer=a))
        start = len(events)
        while True:
            reacts = [M.row_count(j, real) == 1 for j in range(players)]
            if isinstance(M, OrbitTable):   # solvers and the others in separate blocks
                M.split([j for j in range(players) if reacts[j]])
            inds = [M.solved_indicator(j) for j in range(players)]
            before = M.count()
            for j in range(players):
                M.keep_reaction(j, inds[j], reacts[j])
            changed = M.count() != before
            events.append(Reactions(solved=tuple(names[j] for j in range(players) if reacts[j])))
            solvers = [j for j in range(players) if reacts[j]]
            for j in solvers:
                M.reset_player(j, real[j])
                old = real[j]
                real[j] = sp.index(rng.integers(1, 7, 3))
                events.append(Solve(player=names[j], cards=sp.stack(old),
                                    new_cards=None if j == 0 else sp.stack(real[j])))
            if not solvers and not changed:
                break
        marks.append((start - 1, len(events)))
    setup = Setup.from_json({"players": names, "me": names[0],
                             "visible": {names[i]: list(sp.stack(initial[i]))
                                         for i in range(1, players)}})
    return setup, events, marks


def bench_four(rounds: int = 12) -> None:
    setup, events, marks = truthful_game(4, rounds, seed=7)
    tl = Timeline(egghead, setup)  # what the tab keeps: states and posteriors per prefix
    times = []
    for (a, b) in marks:
        tl.posterior(events[:a])  # the state before the answer is kept (the tab did it)
        t0 = time.perf_counter()
        for j in range(a + 1, b + 1):
            tl.posterior(events[:j])
        times.append((time.perf_counter() - t0) * 1000)
    t = np.array(times)
    print(f"4 players, one answer + reaction fixpoint via the timeline (kept prefix), {len(t)} rounds: "
          f"median {np.median(t):.1f} ms, max {t.max():.1f} ms, "
          f"mean reaction rounds per answer {np.mean([b - a - 1 for a, b in marks]):.1f}")
    tl.clear()
    t0 = time.perf_counter()
    infer(setup, events)
    print(f"4 players, whole log of {len(events)} events from scratch: "
          f"{(time.perf_counter() - t0) * 1000:.0f} ms")


def bench_five(rounds: int = 2) -> None:
    rss0 = _rss_mb()
    t0 = time.perf_counter()
    setup, events, marks = truthful_game(5, rounds, seed=3)
    t_god = time.perf_counter() - t0
    print(f"5 players: god's-eye log of {len(events)} events built in {t_god:.1f} s "
          f"(table {56 ** 4 * 8 / 2 ** 20:.0f} MB bit-packed)")
    tl = Timeline(egghead, setup)  # what the tab keeps: states and posteriors per prefix
    per = []
    for j in range(1, len(events) + 1):
        t0 = time.perf_counter()
        post = tl.posterior(events[:j])
        per.append(time.perf_counter() - t0)
        print(f"  event {j - 1} ({type(events[j - 1]).__name__}): {per[-1]:.2f} s, "
              f"my valids {post.valid_count_with_ba}, worlds {post.worlds}")
    print(f"5 players: per event median {np.median(per):.2f} s, max {max(per):.2f} s; "
          f"peak RSS {_rss_mb():.0f} MB (before: {rss0:.0f} MB)")
    tl.clear()


def bench_six(rounds: int = 1) -> None:
    from engines.egghead.inference import memory_needed

    t0 = time.perf_counter()
    setup, events, marks = truthful_game(6, rounds, seed=5)
    t_god = time.perf_counter() - t0
    print(f"6 players: god's-eye log of {len(events)} events built in {t_god:.0f} s "
          f"(table {56 ** 5 * 8 / 1e9:.1f} GB bit-packed; inference needs "
          f"{memory_needed(setup) / 1e9:.1f} GB)", flush=True)
    tl = Timeline(egghead, setup)  # what the tab keeps: states and posteriors per prefix
    per = []
    t_all = time.perf_counter()
    for j in range(0, len(events) + 1):
        t0 = time.perf_counter()
        post = tl.posterior(events[:j])
        per.append(time.perf_counter() - t0)
        what = "setup" if j == 0 else type(events[j - 1]).__name__
        print(f"  after {j} events ({what}): {per[-1]:.1f} s, my valids "
              f"{post.valid_count_with_ba}, worlds {post.worlds}", flush=True)
    t0 = time.perf_counter()
    tl.posterior(events)
    again = time.perf_counter() - t0
    print(f"6 players: per event median {np.median(per[1:]):.1f} s, max {max(per[1:]):.1f} s "
          f"(setup {per[0]:.1f} s, whole log {time.perf_counter() - t_all:.0f} s, a repeated "
          f"request {again * 1000:.0f} ms); peak RSS {_rss_mb() / 1024:.1f} GB")
    tl.clear()


def compare_one(path: str, rep: str) -> None:
    """In this (fresh) process: the log in ``path`` through the timeline prefix by prefix with
    the explicit table (``rep == "explicit"``) or orbits; one line of figures."""
    import json

    from engines.egghead import event_from_json

    with open(path) as fh:
        obj = json.load(fh)
    setup = Setup.from_json(obj["setup"])
    events = [event_from_json(e, setup) for e in obj["events"]]
    import engines.egghead.orbits as orbits

    orbits.ORBIT_FROM_BYTES = (1 << 62) if rep == "explicit" else -1
    tl = Timeline(egghead, setup)
    wall, cpu, rss = [], [], []
    for j in range(len(events) + 1):
        t0, c0 = time.perf_counter(), time.process_time()
        post = tl.posterior(events[:j])
        wall.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
        rss.append(_rss_mb())
    w, c = np.array(wall[1:]), np.array(cpu[1:])
    print(json.dumps({"rep": rep, "players": len(setup.players), "events": len(events),
                      "setup_s": wall[0], "wall_median": float(np.median(w)), "wall_max": float(w.max()),
                      "cpu_median": float(np.median(c)), "cpu_max": float(c.max()),
                      "peak_rss_mb": _rss_mb(), "worlds": post.worlds,
                      "valids": post.valid_count_with_ba, "cpu": cpu[1:], "rss_mb": rss[1:]}),
          flush=True)


def bench_compare(players_list, six_explicit: bool = False, rounds: int = 1) -> None:
    """Before (explicit) and after (orbits), same logs, fresh processes (see the docstring)."""
    import json
    import subprocess
    import tempfile

    for n in players_list:
        t0 = time.perf_counter()
        setup, events, _ = truthful_game(n, rounds, seed={4: 7, 5: 3, 6: 5}.get(n, n))
        print(f"{n} players: god's-eye log of {len(events)} events "
              f"({', '.join(type(e).__name__ for e in events)}) built in "
              f"{time.perf_counter() - t0:.0f} s", flush=True)
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump({"setup": setup.to_json(), "events": [e.to_json() for e in events]}, f)
        res = {}
        for rep in ("explicit", "orbits"):
            if rep == "explicit" and n >= 6 and not six_explicit:
                print(f"  {n} players explicit: skipped (--six-explicit; 4.4 GB table, ~6.4 GB peak)")
                continue
            out = subprocess.run([sys.executable, __file__, "--compare-one", f.name, rep],
                                 capture_output=True, text=True, timeout=7200, check=False)
            if out.returncode != 0:
                print(f"  {rep}: failed: {out.stderr.strip().splitlines()[-1:]}", flush=True)
                continue
            r = json.loads(out.stdout.strip().splitlines()[-1])
            res[rep] = r
            print(f"  {n} players {rep:8s}: per event wall median {r['wall_median']:.3f} s max "
                  f"{r['wall_max']:.3f} s, CPU median {r['cpu_median']:.3f} s max {r['cpu_max']:.3f} s; "
                  f"peak RSS {r['peak_rss_mb']:.0f} MB; worlds {r['worlds']}, my valids {r['valids']}",
                  flush=True)
        if len(res) == 2:
            e, o = res["explicit"], res["orbits"]
            same = (e["worlds"], e["valids"]) == (o["worlds"], o["valids"])
            print(f"  {n} players orbits/explicit: CPU median x{o['cpu_median'] / max(e['cpu_median'], 1e-9):.2f}, "
                  f"CPU max x{o['cpu_max'] / max(e['cpu_max'], 1e-9):.2f}, peak RSS "
                  f"x{o['peak_rss_mb'] / e['peak_rss_mb']:.2f}; same final worlds and valids: {same}",
                  flush=True)
        os.unlink(f.name)


def bench_sim(configs, rounds: int = 1000) -> None:
    for a in configs:
        t0 = time.perf_counter()
        res = simulate(SimConfig(players=4, rounds=rounds, analysing=(a,), seed=2024))
        c = res.configs[0]
        secs = time.perf_counter() - t0
        line = f"simulation a={a} analysing, {rounds} rounds, 4 players: {secs:.1f} s, {c.solves} solves"
        if c.no_ba:
            line += f"; no BA mean {c.no_ba.mean:.2f} var {c.no_ba.variance:.2f} (n={c.no_ba.n})"
        if c.ba:
            line += f"; BA mean {c.ba.mean:.2f} var {c.ba.variance:.2f} (n={c.ba.n})"
        line += f"; win P {[round(x, 3) for x in c.win_probabilities]}"
        print(line, flush=True)
    print("Zorn 2024 table (its 23-question deck): no BA 9.78 / 29.3, BA 6.16 / 14")


def bench_long(players: int = 5, events_wanted: int = 100, repeats: int = 3) -> None:
    """The long-game figure (see the module docstring, item 5)."""
    import json
    import subprocess
    import tempfile

    t0 = time.perf_counter()
    setup, events, _ = truthful_game(players, 40, seed=3)
    events = events[:events_wanted]
    kinds = {k: sum(type(e).__name__ == k for e in events) for k in ("Answer", "Reactions", "Solve")}
    print(f"{players} players: god's-eye log of {len(events)} events {kinds} built in "
          f"{time.perf_counter() - t0:.0f} s", flush=True)
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump({"format": "deduction-desk.session", "version": 1, "game": "egghead",
                   "setup": setup.to_json(), "events": [e.to_json() for e in events]}, f)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

    def run(argv):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        w0 = time.perf_counter()
        subprocess.run(argv, cwd=root, check=True, stdout=subprocess.DEVNULL)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        return cpu, time.perf_counter() - w0

    floor = min(run([sys.executable, "-c", "import numpy"])[0] for _ in range(repeats))
    res = [run([sys.executable, "-m", "engines", "infer", f.name]) for _ in range(repeats)]
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    cpu = sorted(r[0] for r in res)
    wall = sorted(r[1] for r in res)
    print(f"  python -m engines infer ({len(events)} events): CPU median {cpu[len(cpu) // 2]:.2f} s "
          f"(min {cpu[0]:.2f}, max {cpu[-1]:.2f}), wall median {wall[len(wall) // 2]:.2f} s; "
          f"peak RSS {rss:.0f} MB; CPU / import numpy ({floor:.2f} s) = "
          f"x{cpu[len(cpu) // 2] / max(floor, 1e-9):.0f}; contract 10 s / 1 GB", flush=True)
    os.unlink(f.name)


def bench_rotating() -> None:
    """Six players with a rotating moderator (see the module docstring, item 6)."""
    import json
    import subprocess
    import tempfile

    rng = np.random.default_rng(5)
    sp = stack_space(6, 3)
    deck = list(bound_deck(6, 3, 6).values())
    names = [f"P{i}" for i in range(6)]
    real = [sp.index(rng.integers(1, 7, 3)) for _ in range(6)]
    q = deck[rng.integers(len(deck))]
    a = q.answer([real[i] for i in range(6) if i != 1])
    setup = Setup.from_json({"players": names, "me": names[0], "moderator": "rotating",
                             "visible": {names[i]: list(sp.stack(real[i])) for i in range(1, 6)}})
    events = [Answer(question=q.id, answer=a, moderator=names[1]), Reactions(solved=())]
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump({"setup": setup.to_json(), "events": [e.to_json() for e in events]}, f)
    out = subprocess.run([sys.executable, __file__, "--compare-one", f.name, "orbits"],
                         capture_output=True, text=True, timeout=7200, check=True)
    r = json.loads(out.stdout.strip().splitlines()[-1])
    print(f"6 players, rotating moderator ({q.id} = {a} by P1, then nobody solved): per event "
          f"CPU median {r['cpu_median']:.3f} s max {r['cpu_max']:.3f} s, wall max "
          f"{r['wall_max']:.3f} s; peak RSS {r['peak_rss_mb']:.0f} MB; worlds {r['worlds']}, "
          f"my valids {r['valids']}", flush=True)
    os.unlink(f.name)


SOLVE_GAME = {
    "setup": {"players": ["P0", "P1", "P2", "P3", "P4", "P5"], "me": "P0", "values": 6,
              "cards_per_player": 3, "moderator": "external",
              "visible": {"P1": [3, 4, 5], "P2": [2, 4, 6], "P3": [1, 2, 3], "P4": [1, 3, 4],
                          "P5": [1, 1, 1]}},
    "events": [{"type": "answer", "question": "count-2", "answer": 2},
               {"type": "reactions", "solved": []},
               {"type": "answer", "question": "lowest-top-card", "answer": 1},
               {"type": "reactions", "solved": ["P5"]},
               {"type": "solve", "player": "P5", "cards": [1, 1, 1], "new_cards": [2, 4, 5]},
               {"type": "reactions", "solved": []},
               {"type": "answer", "question": "count-4", "answer": 4},
               {"type": "reactions", "solved": []}, {"type": "reactions", "solved": []},
               {"type": "answer", "question": "count-5", "answer": 4},
               {"type": "reactions", "solved": []}, {"type": "reactions", "solved": []}]}
"""The first 12 events of ``truthful_game(6, 4, 5)`` (a six-player game where P5 solves)."""


def bench_solve() -> None:
    """Six players, a game with a solve (see the module docstring, item 7)."""
    import json
    import subprocess
    import tempfile

    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(SOLVE_GAME, f)
    out = subprocess.run([sys.executable, __file__, "--compare-one", f.name, "orbits"],
                         capture_output=True, text=True, timeout=7200)
    os.unlink(f.name)
    if out.returncode != 0:
        print("failed:", out.stderr.strip().splitlines()[-1:], flush=True)
        return
    r = json.loads(out.stdout.strip().splitlines()[-1])
    for i, (c, m) in enumerate(zip(r["cpu"], r["rss_mb"])):
        kind = SOLVE_GAME["events"][i]["type"]
        print(f"  event {i:2d} {kind:9s} CPU {c:6.3f} s (update and posterior), peak RSS so far "
              f"{m:4.0f} MB", flush=True)
    print(f"6 players, P5 solves at event 4 ({r['events']} events): per event CPU median "
          f"{r['cpu_median']:.3f} s max {r['cpu_max']:.3f} s, wall max {r['wall_max']:.3f} s; "
          f"peak RSS {r['peak_rss_mb']:.0f} MB; worlds {r['worlds']}, my valids {r['valids']}",
          flush=True)


def bench_hostile() -> None:
    """Hostile-but-valid custom decks: the setup is refused before any table is built."""
    from engines.core.errors import SessionFormatError
    from engines.egghead.table import table_bytes

    for players, values, cards in ((3, 9, 6), (5, 8, 3), (5, 6, 4)):
        names = [f"P{i}" for i in range(players)]
        obj = {"players": names, "me": "P0", "values": values, "cards_per_player": cards,
               "visible": {p: [1] * cards for p in names[1:]}}
        S = stack_space(values, cards).size
        t = time.perf_counter()
        try:
            Setup.from_json(obj)
            out = "accepted"
        except SessionFormatError as e:
            out = f"refused: {e}"
        dt = time.perf_counter() - t
        print(f"{players} players x {values} values x {cards} cards ({table_bytes(players, S) / 1e9:.1f} GB "
              f"table): {1000 * dt:.1f} ms, peak RSS {_rss_mb():.0f} MB; {out}", flush=True)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hostile", action="store_true", help="only the custom decks refused at once")
    ap.add_argument("--quick", action="store_true", help="fewer rounds")
    ap.add_argument("--no-five", action="store_true", help="skip the 5-player benchmark")
    ap.add_argument("--six", action="store_true", help="also 6 players (needs ~10 GB, minutes)")
    ap.add_argument("--sim-configs", default="1", help="numbers of analysing players")
    ap.add_argument("--compare", default=None, metavar="4,5,6",
                    help="only: explicit vs orbits, memory and time per event, per player count")
    ap.add_argument("--six-explicit", action="store_true",
                    help="with --compare: also 6 players explicit (4.4 GB table)")
    ap.add_argument("--compare-one", nargs=2, help=argparse.SUPPRESS)
    ap.add_argument("--rotating", action="store_true",
                    help="only: 6 players, rotating moderator, the first answer and reactions")
    ap.add_argument("--long", action="store_true",
                    help="only: 5 players, 100 events through python -m engines infer")
    ap.add_argument("--solve", action="store_true",
                    help="only: 6 players, a game where P5 solves, then answers about them")
    args = ap.parse_args(argv)
    if args.solve:
        bench_solve()
        return
    if args.compare_one:
        compare_one(*args.compare_one)
        return
    if args.compare:
        bench_compare([int(x) for x in args.compare.split(",")], args.six_explicit)
        return
    if args.hostile:
        bench_hostile()
        return
    if args.long:
        bench_long()
        return
    if args.rotating:
        bench_rotating()
        return
    bench_four(6 if args.quick else 12)
    if not args.no_five:
        bench_five(1 if args.quick else 2)
    if args.six:
        bench_six(1)
    bench_sim([int(x) for x in args.sim_configs.split(",")], 200 if args.quick else 1000)


if __name__ == "__main__":
    main()
