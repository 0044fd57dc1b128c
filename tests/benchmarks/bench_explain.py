"""Explanation timing per game (not a pass/fail test; run it by hand):

    python tests/benchmarks/bench_explain.py [--seeds 5]

For every decided fact (✓ or ✗) of simulated logs: the time of ``explain`` (QuickXplain over
the exact engine), median and worst, and the size of the subset found. Budget (issue "Why?"):
under 200 ms for a classic Cluedo fact after 30 events.

* Cluedo: classic deck, 3-6 players, my hand and 30 suggestions (tests/benchmarks/
  bench_cluedo.py's game log), every decided cell; Master Detective with 8 players, 20
  decided cells per log.
* Inkognito: 3 opponents, 12 truthful answers (the simulator's answer model), every decided
  identity and build.
* Egghead: 3 and 4 players (6 values, 3 cards), 4 truthful answers each followed by the
  reactions round the true table produces (as seen by me), every ruled-out stack.
* Guess Who?: classic board, 4 truthful answers, every knocked-down character.
"""
from __future__ import annotations

import argparse
import itertools
import random
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path[:0] = [str(Path(__file__).resolve().parent), str(Path(__file__).resolve().parents[2])]

from bench_cluedo import game_log  # noqa: E402 (after the set-up above)

from engines import cluedo, egghead, guesswho, inkognito  # noqa: E402 (after the set-up above)
from engines.core.errors import ContradictionError  # noqa: E402 (after the set-up above)


def _report(name, times, sizes) -> None:
    times = sorted(times)
    print(f"{name:34s} facts {len(times):4d}  median {1e3 * statistics.median(times):7.1f} ms  "
          f"p90 {1e3 * times[int(0.9 * (len(times) - 1))]:7.1f} ms  worst {1e3 * times[-1]:7.1f} ms  "
          f"subset mean {statistics.mean(sizes):.1f} max {max(sizes)}", flush=True)


def _timed(fn, *a):
    t = time.perf_counter()
    out = fn(*a)
    return out, time.perf_counter() - t


def bench_cluedo(seeds: int) -> None:
    for n_players in (3, 4, 5, 6):
        names = ["Me", "Ann", "Bob", "Cy", "Dee", "Eve"][:n_players]
        setup = cluedo.Setup.from_json({"edition": "cluedo-uk", "players": names, "me": "Me"})
        times, sizes = [], []
        for seed in range(seeds):
            events = game_log(setup, 30, seed)
            m = cluedo.infer(setup, events).matrix
            cluedo.explain(setup, events, {"card": setup.cards[0], "place": "envelope"})  # warm
            for c, o in zip(*np.nonzero((m == 0.0) | (m == 1.0))):
                e, dt = _timed(cluedo.explain, setup, events,
                               {"card": setup.cards[c], "place": setup.owners[o]})
                times.append(dt)
                sizes.append(len(e.because))
        _report(f"Cluedo classic {n_players}p, 31 events", times, sizes)
    setup = cluedo.Setup.from_json({"edition": "clue-master-detective", "me": "Me",
                                    "players": ["Me", "A", "B", "C", "D", "E", "F", "G"]})
    times, sizes = [], []
    for seed in range(max(1, seeds // 2)):
        events = game_log(setup, 30, seed)
        m = cluedo.infer(setup, events).matrix
        cells = list(zip(*np.nonzero((m == 0.0) | (m == 1.0))))
        rng = np.random.default_rng(seed)
        for j in rng.choice(len(cells), min(20, len(cells)), replace=False):
            c, o = cells[j]
            e, dt = _timed(cluedo.explain, setup, events,
                           {"card": setup.cards[c], "place": setup.owners[o]})
            times.append(dt)
            sizes.append(len(e.because))
    _report("Cluedo Master Detective 8p, 31 ev.", times, sizes)


def bench_inkognito(seeds: int) -> None:
    from engines.inkognito.simulate import _answer
    setup = inkognito.default_setup()
    times, sizes = [], []
    for seed in range(seeds):
        rng = random.Random(seed)
        ident, build = inkognito.worlds(setup)
        w = rng.randrange(len(ident))
        shown = [[] for _ in setup.opponents]
        events = []
        while len(events) < 12:
            o = rng.randrange(len(setup.opponents))
            a = _answer(rng, setup, o, int(ident[w, o] * 4 + build[w, o]),
                        rng.choice(inkognito.QUESTIONS), rng.choice(inkognito.KINDS), None, shown[o])
            if a is not None:
                events.append(a)
        post = inkognito.infer(setup, events)
        for opp, b in post.opponents.items():
            for kind, d in (("identity", b.identity), ("build", b.build)):
                for name, p in d.items():
                    if p <= 1e-12 or p >= 1 - 1e-9:
                        e, dt = _timed(inkognito.explain, setup, events, {"opponent": opp, kind: name})
                        times.append(dt)
                        sizes.append(len(e.because))
    _report("Inkognito 3 opponents, 12 answers", times, sizes)


def _egg_log(setup, table, rng, rounds):
    deck = [q.id for q in egghead.questions_for(setup)]
    events = []
    for _ in range(rounds):
        q = rng.choice(deck)
        events.append(egghead.Answer(question=q, answer=egghead.answer_for(setup, q, table)))
        for r in range(len(setup.players) + 1):   # the announcement consistent with my view
            done = False
            for solved in itertools.combinations(setup.players, r):
                try:
                    egghead.infer(setup, events + [egghead.Reactions(solved=solved)])
                except ContradictionError:
                    continue
                events.append(egghead.Reactions(solved=solved))
                done = True
                break
            if done:
                break
    return events


def bench_egghead(seeds: int) -> None:
    for players in (["A", "B", "C"], ["A", "B", "C", "D"]):
        times, sizes = [], []
        for seed in range(seeds):
            rng = random.Random(seed)
            sp = egghead.stack_space(6, 3)
            table = {p: sp.stack(rng.randrange(sp.size)) for p in players}
            setup = egghead.Setup.from_json({"players": players, "me": "A",
                                             "visible": {p: list(table[p]) for p in players[1:]}})
            events = _egg_log(setup, table, rng, 4)
            valid = set(egghead.infer(setup, events).my_valids)
            out = [s for s in (sp.stack(i) for i in range(sp.size)) if s not in valid]
            for s in rng.sample(out, min(10, len(out))):
                egghead.clear_cache()
                e, dt = _timed(egghead.explain, setup, events, {"stack": list(s)})
                times.append(dt)
                sizes.append(len(e.because))
        _report(f"Egghead {len(players)}p, {len(events)} events (cold cache)", times, sizes)


def bench_guesswho(seeds: int) -> None:
    setup = guesswho.default_setup()
    board = setup.board
    times, sizes = [], []
    for seed in range(seeds):
        rng = random.Random(seed)
        secret = rng.randrange(board.size)
        events = [guesswho.Answer(question=q, answer=bool(board.truth(q)[secret]))
                  for q in rng.sample(list(board.questions()), 4)]
        p = guesswho.posterior_probabilities(setup, events)
        for k in np.flatnonzero((p == 0) | (p >= 1 - 1e-12)):
            e, dt = _timed(guesswho.explain, setup, events, {"name": board.names[k]})
            times.append(dt)
            sizes.append(len(e.because))
    _report("Guess Who? classic, 4 answers", times, sizes)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=5)
    args = ap.parse_args(argv)
    bench_cluedo(args.seeds)
    bench_inkognito(args.seeds)
    bench_egghead(max(1, args.seeds // 2))
    bench_guesswho(args.seeds)


if __name__ == "__main__":
    main()
