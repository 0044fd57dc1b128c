"""Benchmark: how fast the command line answers a small request, against ``import numpy``.

Goal: ``python -m engines parse`` (and ``explain``) within 2× of ``python -c "import numpy"``
timed in the same run — the engines need numpy, so that is the floor; anything above it is
imports the command does not need. Each run is a fresh interpreter timed as a whole process
(wall clock, ``time.perf_counter`` around ``subprocess.run``); the floor and the commands
alternate, so all see the same machine load.

Run: ``python tests/benchmarks/bench_cli_start.py [RUNS]`` from the repository root (prints the
medians and the ratios to the floor).
"""
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FLOOR = [sys.executable, "-c", "import numpy"]
COMMANDS = {
    "parse (Cluedo)": [sys.executable, "-m", "engines", "parse", "resources/examples/cluedo.json",
                       "Ann: plum rope hall; Bob"],
    "parse (Spyfall)": [sys.executable, "-m", "engines", "parse",
                        "resources/examples/spyfall.json", "Bob: beach 1, casino .5"],
    "parse (Inkognito)": [sys.executable, "-m", "engines", "parse",
                          "resources/examples/inkognito.json", "Red: lord zsa fat"],
    "parse (Egghead)": [sys.executable, "-m", "engines", "parse",
                        "resources/examples/egghead.json", "sum = 14"],
    "parse (Guess Who?)": [sys.executable, "-m", "engines", "parse",
                           "resources/examples/guesswho.json", "glasses? no"],
    "explain (Cluedo)": [sys.executable, "-m", "engines", "explain",
                         "resources/examples/cluedo.json", "--fact",
                         '{"card": "Rope", "place": "Me"}'],
}


def wall(argv: list[str]) -> float:
    """Seconds of wall time of one run of ``argv`` (from the repository root)."""
    t0 = time.perf_counter()
    subprocess.run(argv, cwd=ROOT, check=True, stdout=subprocess.DEVNULL,
                   env=dict(os.environ, PYTHONPATH=ROOT))
    return time.perf_counter() - t0


def main(runs: int = 7) -> None:
    times: dict[str, list[float]] = {"import numpy (floor)": []}
    times.update({name: [] for name in COMMANDS})
    for _ in range(runs):
        times["import numpy (floor)"].append(wall(FLOOR))
        for name, argv in COMMANDS.items():
            times[name].append(wall(argv))
    floor = statistics.median(times["import numpy (floor)"])
    print(f"{runs} runs each, medians (load average {os.getloadavg()[0]:.1f}):")
    for name, ts in times.items():
        med = statistics.median(ts)
        print(f"  {name:22s} {med:6.3f} s  worst {max(ts):6.3f} s  ratio to floor {med / floor:4.2f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 7)
