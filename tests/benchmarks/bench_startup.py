"""Benchmark: app start to first window, and to every tab's first result (budget: < 2 s).

Run: ``QT_QPA_PLATFORM=offscreen python tests/benchmarks/bench_startup.py`` (each run in a fresh
interpreter, since imports dominate).
"""
import os
import statistics
import subprocess
import sys

CODE = """
import time; t0 = time.perf_counter()
import os; os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
from desktop.app import MainWindow, make_app
app = make_app(); w = MainWindow(autosave=False, interactive=False); w.show(); app.processEvents()
t1 = time.perf_counter() - t0; w.wait_idle(); t2 = time.perf_counter() - t0; w.shutdown()
print(t1, t2)
"""


def main(runs: int = 5) -> None:
    firsts, alls = [], []
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True,
                             env=dict(os.environ, QT_QPA_PLATFORM="offscreen"), check=True)
        a, b = map(float, out.stdout.split()[-2:])
        firsts.append(a)
        alls.append(b)
    print(f"start to first window: median {statistics.median(firsts):.2f} s, worst {max(firsts):.2f} s (budget 2 s)")
    print(f"start to every tab's first result: median {statistics.median(alls):.2f} s, worst {max(alls):.2f} s")


if __name__ == "__main__":
    main()
