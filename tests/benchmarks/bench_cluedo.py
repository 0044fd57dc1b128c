"""Cluedo inference timing over simulated games (not a pass/fail test; run it by hand):

    python tests/benchmarks/bench_cluedo.py [--seeds 5]
    python tests/benchmarks/bench_cluedo.py --recommend [--staged]
    python tests/benchmarks/bench_cluedo.py --center
    python tests/benchmarks/bench_cluedo.py --hostile

``--hostile``: valid logs built to be hard for exact counting (Master Detective, 10 players, my
hand not logged): 20 and 40 refutations nobody saw, no passes (refuters drawn from the real
deal), and 4, 8, 12 failed accusations; each in a fresh process, wall time and peak RSS (goal:
under 1 GB and 10 s, or refused at once naming the field).

Exact inference for 3-6 players (classic deck) after 0, 10, 20, 30 suggestions, several seeds,
median and worst time; Master Detective with 8 players; the analytical center's time and its
largest absolute error against exact and its solver failures (the first centre includes importing
cvxpy). Budgets (docs/performance.md): classic median < 50 ms, worst
< 250 ms; Master Detective 8 players < 1 s; 10 players: worst refresh < 100 ms
(``--md-only`` runs all ``--seeds`` games of it; the full run two per suggestion count).
"""
from __future__ import annotations

import argparse
import inspect
import statistics
import time

import numpy as np

from engines import cluedo
from engines.cluedo.accuse import recommendation_keys
from engines.cluedo.simulate import play_suggestion, random_deal


def game_log(setup, n_suggestions, seed):
    """My hand, then ``n_suggestions`` random suggestions by the players in turn (I see the
    card shown to me)."""
    rng = np.random.default_rng(seed)
    deal = random_deal(setup, rng)
    events = [cluedo.HandEvent(player=setup.me, cards=tuple(c for c, o in zip(setup.cards, deal) if o == 0))]
    (_, S), (_, W), (_, R) = setup.categories
    for t in range(n_suggestions):
        p = t % len(setup.players)
        trip = (S[rng.integers(len(S))], W[rng.integers(len(W))], R[rng.integers(len(R))])
        events.append(play_suggestion(setup, deal, p, trip, rng, reveal=(p == 0)))
    return events


def timed(fn, *a, **k):
    t = time.perf_counter()
    out = fn(*a, **k)
    return out, time.perf_counter() - t


def run(edition, n_players, suggestions, seeds, center=False):
    names = ["Me"] + [f"P{i}" for i in range(1, n_players)]
    setup = cluedo.Setup.from_json({"edition": edition, "players": names, "me": "Me"})
    rows = []
    for n_s in suggestions:
        times, cpu, ctimes, cerr, cfail = [], [], [], [], 0
        for seed in range(seeds):
            ev = game_log(setup, n_s, seed)
            c0 = time.process_time()
            post, dt = timed(cluedo.infer, setup, ev)
            cpu.append(time.process_time() - c0)
            times.append(dt)
            if center:
                cpost, ct = timed(cluedo.infer, setup, ev, method="center")
                ctimes.append(ct)
                cerr.append(float(np.abs(cpost.matrix - post.matrix).max()))
                cfail += cpost.note is not None
        line = (f"{edition:22s} {n_players:2d}p {n_s:3d} sugg: exact median {1000 * statistics.median(times):7.1f} ms"
                f"  worst {1000 * max(times):7.1f} ms (CPU median {1000 * statistics.median(cpu):6.1f} ms"
                f" worst {1000 * max(cpu):6.1f} ms)")
        if center:
            line += (f" | center median {1000 * statistics.median(ctimes):6.1f} ms worst {1000 * max(ctimes):6.1f} ms,"
                     f" max |center-exact| {max(cerr):.3f}, solver failures {cfail}/{len(ctimes)}")
        print(line, flush=True)
        rows.extend(zip(times, cpu))
    return rows


def run_center_late(positions_per_size=24, n_suggestions=30):
    """The analytical center on late-game positions (3-6 players, ``n_suggestions`` suggestions,
    seeds 100...): solver failures, time per refresh beside exact (median, worst; cvxpy is
    imported before timing), largest |center - exact|."""
    cluedo.infer(cluedo.default_setup(), [], method="center")          # import cvxpy first
    fails, ct, et, err = 0, [], [], []
    for n in (3, 4, 5, 6):
        names = ["Me"] + [f"P{i}" for i in range(1, n)]
        setup = cluedo.Setup.from_json({"edition": "cluedo-uk", "players": names, "me": "Me"})
        for seed in range(100, 100 + positions_per_size):
            ev = game_log(setup, n_suggestions, seed)
            post, dt = timed(cluedo.infer, setup, ev)
            et.append(dt)
            cpost, dt = timed(cluedo.infer, setup, ev, method="center")
            ct.append(dt)
            fails += cpost.note is not None
            err.append(float(np.abs(cpost.matrix - post.matrix).max()))
    print(f"center, late game ({n_suggestions} suggestions, 3-6 players, {len(ct)} positions): solver failures "
          f"{fails}; center median {1000 * statistics.median(ct):.1f} ms worst {1000 * max(ct):.1f} ms; "
          f"exact median {1000 * statistics.median(et):.1f} ms worst {1000 * max(et):.1f} ms; "
          f"max |center-exact| {max(err):.3f}", flush=True)


def run_recommend(edition, n_players, suggestions, seeds, staged=False):
    """Exact recommendation time, every candidate exact (exact_seconds=None), for all rooms
    (the 324 classic suggestions) and for the room I am in: wall time and the process's CPU time
    (the machine may be shared), how many games also got the joint envelope information, and
    the largest |estimate - exact| of the 4000-sample estimate. ``staged``: the per-suggestion
    class counts instead of the all-at-once computation (the method before it).

    The ranking is timed alone (the opponents' figures switched off, :func:`_opponents_off`);
    the opponents' figures (:func:`engines.cluedo.accuse.recommendation_keys` with
    ``recommend``'s default budget) are timed separately and printed on their own."""
    names = ["Me"] + [f"P{i}" for i in range(1, n_players)]
    setup = cluedo.Setup.from_json({"edition": edition, "players": names, "me": "Me"})
    rooms = setup.categories[2][1]
    one, every, every_cpu, err, joint = [], [], [], [], 0
    opp, opp_cpu = [], []
    at_once = False if staged else None
    for n_s in suggestions:
        for seed in range(seeds):
            ev = game_log(setup, n_s, seed)
            room = rooms[seed % len(rooms)]
            r1, dt = timed(cluedo.recommend, setup, ev, room=room, exact_seconds=None, at_once=at_once,
                           **_opponents_off())
            one.append(dt)
            est = cluedo.recommend(setup, ev, room=room, exact_seconds=0)
            ex = {t[:3]: t[3] for t in r1.suggestions}
            err.extend(abs(t[3] - ex[t[:3]]) for t in est.suggestions)
            if edition != "clue-master-detective":
                c0 = time.process_time()
                ra, dt = timed(cluedo.recommend, setup, ev, exact_seconds=None, at_once=at_once,
                               **_opponents_off())
                every_cpu.append(time.process_time() - c0)
                every.append(dt)
                joint += bool(ra.joint_bits)
            c0 = time.process_time()
            _, dt = timed(recommendation_keys, setup, ev, None)   # recommend's default budget
            opp_cpu.append(time.process_time() - c0)
            opp.append(dt)
    line = (f"recommend exact{' (staged)' if staged else ''}, ranking alone (opponents off), "
            f"{edition} {n_players}p {suggestions} sugg: "
            f"one room median {statistics.median(one):.3f} s worst {max(one):.3f} s")
    if every:
        line += (f"; all rooms median {statistics.median(every):.3f} s worst {max(every):.3f} s"
                 f" (CPU median {statistics.median(every_cpu):.3f} s worst {max(every_cpu):.3f} s),"
                 f" joint information in {joint}/{len(every)}")
    line += f"; 4000-sample estimate max |error| {max(err):.3f} bits"
    print(line, flush=True)
    print(f"  opponents' figures alone (recommendation_keys, default budget), {edition} {n_players}p: "
          f"median {statistics.median(opp):.3f} s worst {max(opp):.3f} s (CPU median "
          f"{statistics.median(opp_cpu):.3f} s worst {max(opp_cpu):.3f} s)", flush=True)


def _opponents_off() -> dict:
    """Keyword arguments of :func:`engines.cluedo.recommend` that switch the opponents' figures
    off (a time budget of 0, or a sample budget of 0 where the parameter counts samples), so
    that a timing measures the ranking alone."""
    import dataclasses
    import importlib

    rec = importlib.import_module("engines.cluedo.recommend")
    # the budgets are fields of RecommendOptions, given to recommend() by keyword
    params = set(inspect.signature(cluedo.recommend).parameters)
    params |= {f.name for f in dataclasses.fields(rec.RecommendOptions)}
    for name in ("opponents_seconds", "opponents_samples"):
        if name in params:
            return {name: 0}
    raise RuntimeError("engines.cluedo.recommend has no opponents' budget parameter this "
                       "benchmark knows; update _opponents_off")


def hostile_log(setup, kind, n, seed):
    """A valid but hard log: ``kind`` "refutations" (``n`` suggestions refuted by a player who
    holds one of the cards, nobody saw which, no passes logged) or "accusations" (``n`` failed
    accusations of random triples that are not the envelope)."""
    rng = np.random.default_rng(seed)
    deal = random_deal(setup, rng)
    k = len(setup.players)
    (_, S), (_, W), (_, R) = setup.categories
    events = []
    while len(events) < n:
        trip = (S[rng.integers(len(S))], W[rng.integers(len(W))], R[rng.integers(len(R))])
        owners = {int(deal[setup.cards.index(c)]) for c in trip}
        if kind == "accusations":
            if owners != {k}:
                events.append(cluedo.AccusationEvent(player=setup.players[1 + len(events) % (k - 1)], cards=trip))
            continue
        holders = sorted(owners - {k, 0})
        if holders:
            events.append(cluedo.SuggestionEvent(
                suggester=setup.players[int(rng.integers(1, k))], cards=trip, passed=(),
                refuter=setup.players[holders[rng.integers(len(holders))]], shown=None))
    return events


def run_hostile_one(kind, n, seed):
    """One hostile log in this process: prints wall time, peak RSS and the outcome."""
    import resource

    from engines.core.errors import SessionFormatError

    names = ["Me"] + [f"P{i}" for i in range(1, 10)]
    setup = cluedo.Setup.from_json({"edition": "clue-master-detective", "players": names, "me": "Me"})
    ev = hostile_log(setup, kind, n, seed)
    t = time.perf_counter()
    try:
        post = cluedo.infer(setup, ev)
        out = f"{post.consistent_deals:.3g} deals"
    except SessionFormatError as e:
        out = f"refused: {e}"
    dt = time.perf_counter() - t
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"  {n:2d} {kind:11s} seed {seed}: {dt:6.2f} s, peak RSS {rss:5.0f} MB, {out}", flush=True)


def run_hostile(seeds):
    import subprocess
    import sys

    print("Master Detective, 10 players, my hand not logged (each case in a fresh process):", flush=True)
    for kind, n in (("refutations", 20), ("refutations", 40), ("accusations", 4), ("accusations", 8),
                    ("accusations", 12)):
        for seed in range(seeds):
            subprocess.run([sys.executable, __file__, "--hostile-one", kind, str(n), str(seed)], check=False,
                           timeout=600)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--no-center", action="store_true")
    ap.add_argument("--md-only", action="store_true", help="only Master Detective with 10 players")
    ap.add_argument("--recommend", action="store_true", help="only the exact recommendation timing")
    ap.add_argument("--staged", action="store_true",
                    help="with --recommend: the per-suggestion class counts (the method before the all-at-once one)")
    ap.add_argument("--center", action="store_true", help="only the analytical center on late-game positions")
    ap.add_argument("--hostile", action="store_true", help="only the hostile-but-valid logs (time, peak RSS)")
    ap.add_argument("--hostile-one", nargs=3, metavar=("KIND", "N", "SEED"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.hostile_one:
        kind, n, seed = args.hostile_one
        run_hostile_one(kind, int(n), int(seed))
        return
    if args.hostile:
        run_hostile(max(2, args.seeds // 2 + 1))
        return
    if args.center:
        run_center_late()
        return
    if args.recommend:
        for n in (3, 4, 5, 6):
            run_recommend("cluedo-uk", n, (10, 20), max(2, args.seeds // 2), staged=args.staged)
            if not args.staged:
                run_recommend("cluedo-uk", n, (0,), max(2, args.seeds // 2))
        run_recommend("clue-master-detective", 8, (0, 10, 20), 2, staged=args.staged)
        return
    def summary(rows):
        wall, cpu = [w for w, _ in rows], [c for _, c in rows]
        return (f"median {1000 * statistics.median(wall):.1f} ms, worst {1000 * max(wall):.1f} ms "
                f"(CPU median {1000 * statistics.median(cpu):.1f} ms, worst {1000 * max(cpu):.1f} ms)")

    if not args.md_only:
        classic = []
        for n in (3, 4, 5, 6):
            classic += run("cluedo-uk", n, (0, 10, 20, 30), args.seeds, center=not args.no_center)
        print(f"classic deck, all: {summary(classic)} (budget 50 / 250 ms)")
        md = run("clue-master-detective", 8, (0, 10, 20, 30), args.seeds)
        print(f"Master Detective 8 players: {summary(md)} (budget 1000 ms)")
    md10 = run("clue-master-detective", 10, (0, 10, 20, 30),
               max(2, args.seeds // 2) if not args.md_only else args.seeds)
    print(f"Master Detective 10 players: {summary(md10)} (target: worst 100 ms)")


if __name__ == "__main__":
    main()
