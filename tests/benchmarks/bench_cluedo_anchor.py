"""Our exact Cluedo inference against the anchor, Agade09's Cluedo_Sheet (references.md), on the
same positions in one interleaved run; not a pass/fail test, run it by hand:

    python tests/benchmarks/bench_cluedo_anchor.py [--anchor PATH] [--seeds 12] [--repeats 1]
        [--no-warm-up] [--code OTHER_CHECKOUT]

Positions: the classic deck (cluedo-uk), 3-6 players, my hand and 10 or 20 random suggestions
(the suggester's refuter found on a random deal; the card shown logged when I suggested),
``--seeds`` of each: 96 with the default 12.

Each engine runs in its own process and environment, fed the positions over a pipe one at a
time, alternately first: ours in this interpreter's environment (``python -m`` of this
repository), the anchor in a virtual environment of its own with what its requirements name
(cvxpy, ortools, numpy, PyQt5; ECOS, which its fallback asks for by name). Only the inference
call is timed (``time.perf_counter`` around ``cluedo.infer`` and around the anchor's
``Find_Probabilities``), garbage collection included: each worker is a fresh interpreter that
imports its engine and answers a warm-up position first; ours then calls
:func:`engines.warm_up` as a latency-minded library user would (``--no-warm-up``: not).

The anchor: ``--anchor`` is a checkout of github.com/Agade09/Cluedo_Sheet or its bare git
directory (read with ``git show HEAD:...``); without it the script clones it into
``--cache``. Its environment is made in ``--cache`` on the first run (``pip install``).

Prints per player count and suggestion count the medians and worsts of both, the ratios, and
the anchor's largest absolute error per cell against our exact posterior (the anchor counts
solutions with CP-SAT for at most 0.01 s, then falls back to an analytic centre).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "benchmarks"))

ANCHOR_URL = "https://github.com/Agade09/Cluedo_Sheet"
ANCHOR_PACKAGES = ("cvxpy", "ortools", "numpy", "PyQt5", "ecos")
PLAYER_COUNTS = (3, 4, 5, 6)
SUGGESTION_COUNTS = (10, 20)

#: Our worker: reads one position per line (setup and log as in a session file), answers with
#: the seconds of ``cluedo.infer`` and the posterior (cards x owners, envelope last).
OURS = textwrap.dedent("""
    import gc, json, sys, time
    from engines import cluedo
    from engines.cluedo.model import event_from_json
    collections = []
    def watch(phase, info, t=[0.0]):
        if phase == "start":
            t[0] = time.perf_counter()
        else:
            collections.append((info["generation"], time.perf_counter() - t[0]))
    gc.callbacks.append(watch)
    warm = "--no-warm-up" not in sys.argv
    for n, line in enumerate(sys.stdin):
        q = json.loads(line)
        setup = cluedo.Setup.from_json(q["setup"])
        events = [event_from_json(e, setup) for e in q["events"]]
        del collections[:]
        c = time.process_time()
        t = time.perf_counter()
        post = cluedo.infer(setup, events)
        dt = time.perf_counter() - t
        cpu = time.process_time() - c
        full = sum(s for g, s in collections if g == 2)
        print(json.dumps({"seconds": dt, "cpu": cpu, "full_gc": full, "matrix": post.matrix.tolist()}), flush=True)
        if n == 0 and warm and hasattr(__import__("engines"), "warm_up"):
            import engines
            engines.warm_up(["cluedo"])     # after the warm-up position, as the docs advise
""")

#: The anchor's worker: its module's globals set as its own sheet sets them, then its
#: ``Find_Probabilities()``; the result is cards x (players, envelope).
ANCHOR = textwrap.dedent("""
    import json, os, sys, time
    sys.path.insert(0, sys.argv[1])
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    import Cluedo_Sheet as A
    out, sys.stdout = sys.stdout, sys.stderr     # the anchor prints its solver's status
    for line in sys.stdin:
        q = json.loads(line)
        A.N_Players = q["n_players"]
        A.Card_Counts = q["counts"]
        A.Known_Cards = q["known"]
        A.Unknown_Cards = q["unknown"]
        t = time.perf_counter()
        m = A.Find_Probabilities()
        dt = time.perf_counter() - t
        print(json.dumps({"seconds": dt, "matrix": [[float(x) for x in row] for row in m]}), file=out, flush=True)
""")


def positions(seeds: int):
    """(players, suggestions, setup, events) for every position, in a fixed order."""
    from bench_cluedo import game_log

    from engines import cluedo

    out = []
    for k in PLAYER_COUNTS:
        names = ["Me"] + [f"P{i}" for i in range(1, k)]
        setup = cluedo.Setup.from_json({"edition": "cluedo-uk", "players": names, "me": "Me"})
        for n in SUGGESTION_COUNTS:
            for seed in range(seeds):
                out.append((k, n, setup, game_log(setup, n, seed)))
    return out


def anchor_query(setup, events) -> dict:
    """The anchor's form of a position: card indices by category position (its suspects,
    weapons and rooms in its own order; the engines are symmetric within a category), what is
    known as (player, card, 0/1) and each unseen refutation as (refuter, suspect, weapon, room),
    exactly as its ``process_hypothesis2`` and ``process_card`` record them."""
    from engines import cluedo

    index = {c: i for i, c in enumerate(setup.cards)}
    seat = {p: i for i, p in enumerate(setup.players)}
    known, unknown = [], []
    for e in events:
        if isinstance(e, cluedo.HandEvent):
            known += [[seat[e.player], index[c], 1] for c in e.cards]
        else:
            for p in e.passed:
                known += [[seat[p], index[c], 0] for c in e.cards]
            if e.refuter is not None:
                unknown.append([seat[e.refuter]] + [index[c] for c in e.cards])
                if e.shown is not None:
                    known.append([seat[e.refuter], index[e.shown], 1])
    return {"n_players": len(setup.players), "counts": list(setup.hand_sizes), "known": known,
            "unknown": unknown}


def anchor_source(args) -> Path:
    """A folder holding the anchor's ``Cluedo_Sheet.py`` and ``src/``."""
    src = Path(args.cache) / "Cluedo_Sheet"
    if (src / "Cluedo_Sheet.py").exists():
        return src
    if args.anchor and (Path(args.anchor) / "Cluedo_Sheet.py").exists():
        return Path(args.anchor)
    src.mkdir(parents=True, exist_ok=True)
    if args.anchor:   # a bare git directory
        for name in ("Cluedo_Sheet.py", "src/__init__.py", "src/localization.py"):
            text = subprocess.run(["git", f"--git-dir={args.anchor}", "show", f"HEAD:{name}"],
                                  check=True, capture_output=True, text=True).stdout
            (src / name).parent.mkdir(parents=True, exist_ok=True)
            (src / name).write_text(text)
    else:
        subprocess.run(["git", "clone", "--depth", "1", ANCHOR_URL, str(src)], check=True)
    return src


def anchor_python(args) -> str:
    """The anchor environment's interpreter, made on first use."""
    env = Path(args.cache) / "agade09-env"
    py = env / "bin" / "python"
    if not py.exists():
        subprocess.run([sys.executable, "-m", "venv", str(env)], check=True)
        subprocess.run([str(py), "-m", "pip", "install", "-q", *ANCHOR_PACKAGES], check=True)
    return str(py)


class Worker:
    """One engine's process: a query per line in, an answer per line out; ``code``: the
    checkout whose ``engines`` it imports."""

    def __init__(self, argv, cwd=None, code=ROOT):
        env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(code))
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                     cwd=cwd, env=env)

    def ask(self, query: dict) -> dict:
        self.proc.stdin.write(json.dumps(query) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"worker {self.proc.args[:2]} ended")
        return json.loads(line)

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


def main(argv=None) -> None:
    import numpy as np


    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--anchor", help="a checkout of Cluedo_Sheet or its bare git directory")
    ap.add_argument("--cache", default=os.path.join(os.path.expanduser("~"), ".cache", "deduction-desk-bench"))
    ap.add_argument("--seeds", type=int, default=12)
    ap.add_argument("--repeats", type=int, default=1, help="passes over the positions (fresh workers each)")
    ap.add_argument("--no-warm-up", action="store_true",
                    help="our worker without engines.warm_up (garbage collection scans start-up objects)")
    ap.add_argument("--code", default=str(ROOT),
                    help="the checkout whose engine is measured as ours (a 'before' figure)")
    args = ap.parse_args(argv)

    src = anchor_source(args)
    apy = anchor_python(args)
    pos = positions(args.seeds)
    ours_t: dict = {}
    anchor_t: dict = {}
    err: dict = {}
    ours_cpu: list = []
    full_gc: list = []
    for rep in range(args.repeats):
        ours = Worker([sys.executable, "-c", OURS] + (["--no-warm-up"] if args.no_warm_up else []),
                      cwd=args.code, code=args.code)
        anchor = Worker([apy, "-c", ANCHOR, str(src)], cwd=str(src))
        for i, (k, n, setup, events) in enumerate([pos[0]] + pos):
            q_ours = {"setup": setup.to_json(), "events": [e.to_json() for e in events]}
            q_anchor = anchor_query(setup, events)
            pair = [(ours, q_ours), (anchor, q_anchor)]
            if (i + rep) % 2:
                pair.reverse()
            answers = {id(w): w.ask(q) for w, q in pair}
            if i == 0:
                continue                 # the warm-up position
            a_ours, a_anchor = answers[id(ours)], answers[id(anchor)]
            ours_t.setdefault((k, n), []).append(a_ours["seconds"])
            ours_cpu.append(a_ours["cpu"])
            full_gc.append(a_ours["full_gc"])
            anchor_t.setdefault((k, n), []).append(a_anchor["seconds"])
            e = float(np.abs(np.array(a_ours["matrix"]) - np.array(a_anchor["matrix"])).max())
            err.setdefault((k, n), []).append(e)
        ours.close()
        anchor.close()

    def row(label, o, a, e):
        mo, wo, ma, wa = statistics.median(o), max(o), statistics.median(a), max(a)
        print(f"{label:>16s}  ours median {1000 * mo:6.2f} ms worst {1000 * wo:6.2f} ms | anchor median"
              f" {1000 * ma:7.1f} ms worst {1000 * wa:7.1f} ms | ratio median {ma / mo:6.1f}x worst"
              f" {wa / wo:6.1f}x | anchor's worst cell error {max(e):.3f}")

    for key in sorted(ours_t):
        row(f"{key[0]} players {key[1]:2d} s", ours_t[key], anchor_t[key], err[key])
    allo = [t for v in ours_t.values() for t in v]
    alla = [t for v in anchor_t.values() for t in v]
    alle = [x for v in err.values() for x in v]
    row(f"all {len(allo)}", allo, alla, alle)
    print(f"ours: CPU median {1000 * statistics.median(ours_cpu):.2f} ms worst {1000 * max(ours_cpu):.2f} ms;"
          f" full garbage collections inside an inference: {sum(1 for x in full_gc if x)}"
          f" (longest {1000 * max(full_gc):.1f} ms)")


if __name__ == "__main__":
    main()
