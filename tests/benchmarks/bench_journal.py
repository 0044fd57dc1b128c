"""The write-ahead journal's cost: one append (a line written and synced, desktop.storage.journal)
at the median and the 99th percentile, and the recovery of a 5,000-entry journal (checkpoint
plus replay, every line read with the session reader).

    python tests/benchmarks/bench_journal.py [--appends 2000] [--entries 5000] [--game cluedo]

Prints figures; asserts nothing (docs/nothing-lost.md quotes them).
"""
import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))


def _quantile(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--appends", type=int, default=2000)
    ap.add_argument("--entries", type=int, default=5000)
    ap.add_argument("--game", default="cluedo")
    ap.add_argument("--dir", default=None, help="folder for the files (default: a temporary one "
                    "under the data folder's file system, $XDG_DATA_HOME or ~/.local/share)")
    args = ap.parse_args()
    from desktop.storage.journal import Journal
    from engines.core.resources import resource_path

    base = args.dir or os.environ.get("XDG_DATA_HOME") or os.path.expanduser("~/.local/share")
    os.makedirs(base, exist_ok=True)
    example = json.loads(resource_path("examples", f"{args.game}.json").read_text("utf-8"))
    event = dict(example["events"][-1], time="2026-11-28T21:14:00+00:00")
    with tempfile.TemporaryDirectory(dir=base, prefix="bench-journal-") as tmp:
        print(f"{args.appends} appends of one {args.game} entry in {tmp}:")
        for sync in ("inline", "none"):
            j = Journal(os.path.join(tmp, f"instance-{sync}.journal"), sync=sync)
            j.append({"doc": args.game, "op": "base", "path": None, "saved": False,
                      "session": example})
            times = []
            for i in range(args.appends):
                t = time.perf_counter()
                j.append({"doc": args.game, "op": "insert", "at": i, "event": event})
                times.append(time.perf_counter() - t)
            j.remove()
            what = {"none": "the write alone (what a sync off the GUI thread would leave it)",
                    "inline": "the app's policy: write + fdatasync before the views"}[sync]
            print(f"  {what}: append median {statistics.median(times) * 1e3:.3f} ms, "
                  f"p99 {_quantile(times, 0.99) * 1e3:.3f} ms, max {max(times) * 1e3:.3f} ms")

        from desktop.storage.restore import read_recovery

        rec = os.path.join(tmp, "instance-2-00000000.json")
        start = dict(example, events=[])
        Path(rec).write_text(json.dumps({"sessions": [start], "paths": [None],
                                         "saved": [False], "seq": 0}), encoding="utf-8")
        j = Journal(rec[:-5] + ".journal")
        for i in range(args.entries):
            j.append({"doc": args.game, "op": "insert", "at": i, "event": event})
        j.close()
        t = time.perf_counter()
        found = read_recovery(rec)
        took = time.perf_counter() - t
        n = len(found.sessions[0][0].events) if found.sessions else 0
        print(f"recovery of a {args.entries}-entry journal ({args.game}): {took:.3f} s, "
              f"{n} entries restored, problem: {found.problem}")


if __name__ == "__main__":
    main()
