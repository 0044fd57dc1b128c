"""Benchmark: app start to first window, against a bare PySide6 window on the same machine.

Goal: the first frame of the main window within 1.5× of a bare ``QMainWindow`` holding one
``QLabel``, and under 2 s. Each run is a fresh interpreter (imports dominate), timed from its
first statement; ours and the bare window alternate, so both see the same machine load.

Figures (medians over the runs):

* bare window: first paint of the bare window;
* first window: first paint of ours (tab bar, menus, the shown tab's "Loading" page);
* shown tab on screen: the shown tab (the first one; the last-used one in a user's start) is
  built and replaces the "Loading" page, with its first beliefs (or 0.4 s after it was built);
* every tab's first result: every tab built and its first beliefs computed.

Run: ``QT_QPA_PLATFORM=offscreen python tests/benchmarks/bench_startup.py [RUNS]`` from the
repository root (the ``desktop`` package there is the one timed).
"""
import os
import statistics
import subprocess
import sys

PROBE = """
import time; t0 = time.perf_counter()
import os; os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
from PySide6.QtCore import QEvent, QObject
class FirstPaint(QObject):
    t = None
    def eventFilter(self, obj, event):
        if self.t is None and event.type() == QEvent.Paint:
            self.t = time.perf_counter() - t0
        return False
"""

BARE = PROBE + """
from PySide6.QtWidgets import QApplication, QLabel, QMainWindow
app = QApplication([]); probe = FirstPaint(); app.installEventFilter(probe)
w = QMainWindow(); w.setCentralWidget(QLabel("Deduction Desk")); w.show()
while probe.t is None: app.processEvents()
print(probe.t)
"""

OURS = PROBE + """
from desktop.shell.main_window import MainWindow, make_app
from desktop.shell.headless import wait_until_idle as wait_idle
from desktop.shell.process import configure_process, warm_engine_imports
app = make_app(); probe = FirstPaint(); app.installEventFilter(probe)
configure_process()   # as main() does
w = MainWindow(autosave=False, interactive=False)
w.tabBuilt.connect(lambda _game: warm_engine_imports(w.games())); w.show()
while probe.t is None: app.processEvents()
t1 = probe.t
# the page's first paint builds its tab, shown with its first beliefs (or 0.4 s after built)
while not (w.game_tabs and list(w.game_tabs.values())[0].isVisible()): app.processEvents()
app.processEvents(); t2 = time.perf_counter() - t0
w.build_all_tabs(); wait_idle(w); t3 = time.perf_counter() - t0; w.shutdown()
print(t1, t2, t3)
"""


def _run(code: str) -> list[float]:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=dict(os.environ, QT_QPA_PLATFORM="offscreen"), check=True,
                         cwd=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    return [float(x) for x in out.stdout.split()]


def main(runs: int = 7) -> None:
    bare, first, shown, alls = [], [], [], []
    for _ in range(runs):
        bare += _run(BARE)
        a, b, c = _run(OURS)
        first.append(a)
        shown.append(b)
        alls.append(c)
    med = statistics.median
    load = os.getloadavg()
    print(f"{runs} runs each, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores")
    print(f"bare PySide6 window: median {med(bare):.3f} s, worst {max(bare):.3f} s")
    print(f"start to first window: median {med(first):.3f} s, worst {max(first):.3f} s "
          f"(budget 2 s) — {med(first) / med(bare):.2f}× the bare window (goal ≤ 1.5×)")
    print(f"start to the shown tab on screen: median {med(shown):.2f} s, worst {max(shown):.2f} s")
    print(f"start to every tab's first result: median {med(alls):.2f} s, worst {max(alls):.2f} s")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 7)
