"""Our exact Cluedo inference alone on the 96 positions of ``bench_cluedo_anchor.py``, against
another checkout in the same run; not a pass/fail test, run it by hand:

    python tests/benchmarks/bench_cluedo_ours.py [--code OTHER_CHECKOUT] [--runs 6] [--sweep]
        [--calls]

Each run is a fresh interpreter per checkout (``PYTHONPATH`` set to it), the checkouts taking
turns, first one then the other, so that both see the same load on a shared machine. A run
answers a warm-up position, calls :func:`engines.warm_up`, then times ``cluedo.infer`` on every
position once, back to back (``time.perf_counter``, garbage collection included). Printed per
checkout: the median and worst of each run, then of each position's best over the runs (the
figure least disturbed by other processes). ``--sweep`` writes 48 MB of memory and walks a large
list between positions, as the anchor's call does between ours in ``bench_cluedo_anchor.py``
(caches cold, as there). ``--calls``: the number of Python function calls over the 96 positions
(cProfile), a figure that does not depend on the load.
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

WORKER = textwrap.dedent("""
    import json, sys, time
    sys.path.insert(0, sys.argv[1] + "/tests/benchmarks")
    from bench_cluedo_anchor import positions
    import engines
    from engines import cluedo
    pos = positions(12)
    sweep = "--sweep" in sys.argv
    if sweep:       # made before warm_up freezes the heap: no collection scans the sweep's list
        import numpy as np
        big = np.ones(6_000_000)
        junk = [{"a": i} for i in range(200_000)]
    cluedo.infer(pos[0][2], pos[0][3])
    engines.warm_up(["cluedo"])
    if "--calls" in sys.argv:
        import cProfile, pstats
        prof = cProfile.Profile()
        prof.enable()
        for _, _, setup, events in pos:
            cluedo.infer(setup, events)
        prof.disable()
        print(json.dumps({"calls": pstats.Stats(prof).total_calls}))
        raise SystemExit
    sec = []
    for _, _, setup, events in pos:
        if sweep:
            big += 1.0
            sum(d["a"] for d in junk[::3])
        t = time.perf_counter()
        cluedo.infer(setup, events)
        sec.append(time.perf_counter() - t)
    print(json.dumps({"sec": sec}))
""")


def run(code: str, *flags: str) -> dict:
    env = dict(os.environ, PYTHONPATH=code)
    out = subprocess.run([sys.executable, "-c", WORKER, code, *flags], capture_output=True, text=True,
                         cwd=code, env=env, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--code", help="another checkout, measured in turn with this one")
    ap.add_argument("--runs", type=int, default=6)
    ap.add_argument("--sweep", action="store_true", help="sweep 48 MB of memory between positions")
    ap.add_argument("--calls", action="store_true", help="count Python calls (cProfile) instead")
    args = ap.parse_args(argv)
    codes = [str(ROOT)] + ([str(Path(args.code).resolve())] if args.code else [])
    if args.calls:
        for code in codes:
            print(f"{code}: {run(code, '--calls')['calls']:,} Python calls over the 96 positions")
        return
    flags = ("--sweep",) if args.sweep else ()
    runs: dict = {code: [] for code in codes}
    for i in range(args.runs):
        for code in (codes if i % 2 == 0 else codes[::-1]):
            runs[code].append(run(code, *flags)["sec"])
    for code, rs in runs.items():
        meds = [1000 * statistics.median(r) for r in rs]
        worsts = [1000 * max(r) for r in rs]
        best = [min(x) for x in zip(*rs)]
        print(f"{code}: per run median {min(meds):.3f}-{max(meds):.3f} ms, worst {min(worsts):.2f}-"
              f"{max(worsts):.2f} ms; each position's best of {len(rs)}: median "
              f"{1000 * statistics.median(best):.3f} ms, worst {1000 * max(best):.2f} ms")


if __name__ == "__main__":
    main()
