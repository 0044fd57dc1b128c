"""Egghead: the CPU time of replaying a log, per event, as the log grows (not collected by pytest).

    python tests/benchmarks/bench_egghead_log.py [--rounds 10,100,1000] [--games 10,100]
                                                 [--decks] [--estimate]

What the command line and the app's first refresh of an opened file do: ``infer`` folds the whole
log from the start. Every figure is CPU time (``time.process_time``, this process only), so other
programs on the machine change it little; each is printed beside a floor measured in the same
run: one pass that counts the bits of the whole five-player master table (79 MB), the unit of
work of the dense passes.

1. ``--rounds``: five players, the game's deck (6 values, 3 cards), one answer, then N
   reactions rounds in which nobody solves (N = 10, 100, 1000): a repeated constraint.
2. ``--games``: the first N events of a truthful five-player game (the game of
   ``bench_egghead.py --long``: seed 3, answers, reactions rounds until nothing changes, solves).
3. ``--decks``: the custom decks near the limits, 4 players x 9 values x 3 cards with 40 events
   and 5 x 4 x 5 with 80 events (a truthful game's first events, and one answer followed by
   reactions rounds).
With ``--estimate`` each line also prints the cost model's estimate for the log
(:func:`engines.egghead.cost.log_seconds`) and the ratio measured / estimate.
4. ``--calibrate`` (only): the rates of the cost model — CPU nanoseconds per 64-bit word of the
   master table for each pass, on whole (dense) tables of eight decks (min of 2-3 runs): building
   the table, an answer filter, each player's solved indicator with its support, each player's
   reaction filter, a solve and the world count.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

import numpy as np

from engines.egghead import (
    Answer,
    BitTable,
    Reactions,
    Setup,
    Solve,
    bound_deck,
    infer,
    stack_space,
)


def truthful_log(n: int, v: int, k: int, events_wanted: int, seed: int):
    """The first ``events_wanted`` events of a truthful game (everybody analyses; an external
    moderator) from a god's-eye master table: ``(setup, events)``. Each round: a random deck
    question, then reactions rounds until one changes nothing and nobody solves."""
    rng = np.random.default_rng(seed)
    sp = stack_space(v, k)
    deck = list(bound_deck(v, k, n).values())
    names = [f"P{i}" for i in range(n)]
    real = [int(rng.integers(sp.size)) for _ in range(n)]
    initial = list(real)
    M = BitTable(n, sp.size)
    events = []
    while len(events) < events_wanted:
        q = deck[int(rng.integers(len(deck)))]
        a = q.answer(real)
        M.filter_answer(q, a, [True] * n)
        events.append(Answer(question=q.id, answer=a))
        while len(events) < events_wanted:
            reacts = [M.row_count(j, real) == 1 for j in range(n)]
            inds = [M.solved_indicator(j) for j in range(n)]
            before = M.count()
            for j in range(n):
                M.keep_reaction(j, inds[j], reacts[j])
            changed = M.count() != before
            events.append(Reactions(solved=tuple(names[j] for j in range(n) if reacts[j])))
            solvers = [j for j in range(n) if reacts[j]]
            for j in solvers:
                M.reset_player(j, real[j])
                old = real[j]
                real[j] = int(rng.integers(sp.size))
                events.append(Solve(player=names[j], cards=sp.stack(old),
                                    new_cards=None if j == 0 else sp.stack(real[j])))
            if not solvers and not changed:
                break
    setup = Setup.from_json({"players": names, "me": names[0], "values": v, "cards_per_player": k,
                             "visible": {names[i]: list(sp.stack(initial[i])) for i in range(1, n)}})
    return setup, events[:events_wanted]


def repeated_rounds(n: int, v: int, k: int, rounds: int, seed: int = 5):
    """One answer (the truth of a random deal) and then ``rounds`` reactions rounds copied from
    the first one of that deal's truthful game (the rounds repeat the same announcement).
    Returns ``(setup, events)``; a deal whose first round has a solver is skipped."""
    for s in range(seed, seed + 100):
        setup, events = truthful_log(n, v, k, 2, s)
        if isinstance(events[1], Reactions) and not events[1].solved:
            return setup, [events[0]] + [events[1]] * rounds
    raise RuntimeError("no deal without a solver in the first round")


def floor_seconds() -> float:
    """CPU seconds of one bit count over the five-player master table (79 MB), min of 5."""
    T = BitTable(5, 56)
    best = float("inf")
    for _ in range(5):
        t0 = time.process_time()
        int(np.bitwise_count(T.t).sum(dtype=np.int64))
        best = min(best, time.process_time() - t0)
    return best


def run(label: str, setup: Setup, events, floor: float, estimate: bool) -> None:
    t0 = time.process_time()
    post = infer(setup, events)
    cpu = time.process_time() - t0
    kinds = "/".join(str(sum(type(e).__name__ == k for e in events)) for k in ("Answer", "Reactions", "Solve"))
    line = (f"{label:<44} {len(events):>5} events ({kinds:>10} a/r/s): CPU {cpu:7.2f} s, "
            f"{cpu / len(events) * 1000:8.2f} ms per event = {cpu / len(events) / floor:6.2f} floors; "
            f"my valids {post.valid_count_with_ba}")
    if estimate:
        from engines.egghead.cost import log_seconds
        est = log_seconds(setup, events)
        line += f"; estimate {est:.2f} s (measured / estimate {cpu / est:.2f})"
    print(line, flush=True)


def calibrate() -> None:
    """The per-pass rates of engines/egghead/cost.py (see the module docstring, item 4)."""
    def cpu(f, rep=3):
        best = float("inf")
        for _ in range(rep):
            t0 = time.process_time()
            f()
            best = min(best, time.process_time() - t0)
        return best

    print("ns of CPU per word of the master table, dense tables (min of runs):")
    for n, v, k in ((5, 6, 3), (5, 4, 5), (4, 9, 3), (4, 6, 5), (4, 6, 3), (3, 9, 5), (6, 8, 2), (3, 7, 6)):
        S = stack_space(v, k).size
        words = S ** (n - 1) * ((S + 63) // 64)
        # the dense rates: a table whose stack classes are unknown (one per stack), so that no
        # pass reads one stack per class (a new whole table has one class per axis)
        T = BitTable(n, S, BitTable(n, S).t)
        q = list(bound_deck(v, k, n).values())[3]
        a = q.answer([0] * n)
        copy = cpu(lambda: T.copy(), 2)
        per = 1e9 / words
        fill = cpu(lambda: BitTable(n, S), 2) * per
        filt = (cpu(lambda: T.copy().filter_answer(q, a, [True] * n), 2) - copy) * per
        ind = [cpu(lambda ax=ax: T.solved_indicator(ax, with_support=True), 2) * per for ax in range(n)]
        inds = [T.solved_indicator(ax) for ax in range(n)]
        keep = [(cpu(lambda ax=ax: T.copy().keep_reaction(ax, inds[ax], False), 2) - copy) * per
                for ax in range(n)]
        fused = (cpu(lambda: T.copy().keep_reactions([(ax, inds[ax], False) for ax in range(n)]), 2)
                 - copy) * per
        reset = (cpu(lambda: T.copy().reset_player(1, 0), 2) - copy) * per
        count = cpu(lambda: T.count(), 2) * per
        print(f"  {n} players x {v} values x {k} cards (S={S}, {words / 1e6:.1f} M words): fill {fill:.2f}, "
              f"answer {filt:.2f}, indicators {' '.join(f'{x:.2f}' for x in ind)}, reaction filters "
              f"{' '.join(f'{x:.2f}' for x in keep)} (in one pass {fused:.2f}); a round per player "
              f"{(sum(ind) + sum(keep)) / n:.2f} ({(sum(ind) + fused) / n:.2f} with the filters in one pass); "
              f"solve {reset:.2f}, count {count:.2f}", flush=True)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", default="10,100,1000", help="repeated reactions rounds ('' for none)")
    ap.add_argument("--games", default="10,100", help="events of a truthful game ('' for none)")
    ap.add_argument("--decks", action="store_true", help="the custom decks near the limits")
    ap.add_argument("--estimate", action="store_true", help="print the cost model's estimate")
    ap.add_argument("--calibrate", action="store_true", help="only the cost model's rates")
    a = ap.parse_args(argv)
    if a.calibrate:
        calibrate()
        return
    floor = floor_seconds()
    print(f"floor: one bit count over the 5-player master table (79 MB): {floor * 1000:.1f} ms CPU",
          flush=True)
    for r in [int(x) for x in a.rounds.split(",") if x]:
        run(f"5 players, 6x3, answer + {r} rounds", *repeated_rounds(5, 6, 3, r), floor, a.estimate)
    for g in [int(x) for x in a.games.split(",") if x]:
        run("5 players, 6x3, truthful game", *truthful_log(5, 6, 3, g, 3), floor, a.estimate)
    if a.decks:
        for n, v, k, e in ((4, 9, 3, 40), (5, 4, 5, 80)):
            run(f"{n} players, {v}x{k}, truthful game", *truthful_log(n, v, k, e, 3), floor, a.estimate)
            run(f"{n} players, {v}x{k}, answer + {e - 1} rounds", *repeated_rounds(n, v, k, e - 1),
                floor, a.estimate)


if __name__ == "__main__":
    main()
