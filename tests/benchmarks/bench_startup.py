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

Run: ``QT_QPA_PLATFORM=offscreen python tests/benchmarks/bench_startup.py [RUNS] [--other
CHECKOUT] [--cached-bytecode]`` from the repository root (the ``desktop`` package there is the
one timed).

``--other CHECKOUT`` times another checkout's window too (a "before" figure), interleaved with
ours and the bare window in every run (bare, ours, other; then bare, other, ours), and prints the
median of the per-run ratios ours/other: on a loaded machine this paired figure moves far less
than two separate runs' ratios to the bare window.

Bytecode: with ``PYTHONDONTWRITEBYTECODE`` set (as in some test environments) every run
compiles each of our modules from source, which PySide6's own modules and an installed app
(pip and the bundle write ``.pyc`` files) never do; the first line printed says which. With
``--cached-bytecode`` each checkout's bytecode is written once to a temporary
``PYTHONPYCACHEPREFIX`` by an untimed warm-up run, as an installed app has it.
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


ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _run(code: str, cwd: str = ROOT, env: dict | None = None) -> list[float]:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=dict(env or os.environ, QT_QPA_PLATFORM="offscreen"), check=True,
                         cwd=cwd)
    return [float(x) for x in out.stdout.split()]


def _environment(cached: bool, root: str, tmp: str) -> dict:
    """The environment of one checkout's runs: as this process's, or (``cached``) with its
    bytecode in a ``PYTHONPYCACHEPREFIX`` of its own under ``tmp``."""
    env = dict(os.environ)
    if cached:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = os.path.join(tmp, os.path.basename(os.path.abspath(root)) or "root")
    return env


def main(runs: int = 7, other: str | None = None, cached: bool = False) -> None:
    import tempfile

    med = statistics.median
    roots = {"ours": ROOT} | ({"other": os.path.abspath(other)} if other else {})
    times: dict = {name: ([], [], []) for name in roots}
    bare: list = []
    with tempfile.TemporaryDirectory() as tmp:
        envs = {name: _environment(cached, root, tmp) for name, root in roots.items()}
        envs["bare"] = _environment(cached, "bare", tmp)
        if cached:   # untimed: writes each checkout's bytecode
            _run(BARE, env=envs["bare"])
            for name, root in roots.items():
                _run(OURS, cwd=root, env=envs[name])
        for i in range(runs):
            bare += _run(BARE, env=envs["bare"])
            for name in (list(roots) if i % 2 == 0 else list(roots)[::-1]):
                for series, value in zip(times[name], _run(OURS, cwd=roots[name], env=envs[name])):
                    series.append(value)
    load = os.getloadavg()
    written = "written once (--cached-bytecode)" if cached else (
        "compiled from source in every run (PYTHONDONTWRITEBYTECODE is set)"
        if os.environ.get("PYTHONDONTWRITEBYTECODE") else "cached as Python writes it")
    print(f"{runs} runs each, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on "
          f"{os.cpu_count()} cores; our modules' bytecode {written}")
    print(f"bare PySide6 window: median {med(bare):.3f} s, worst {max(bare):.3f} s")
    for name, root in roots.items():
        first, shown, alls = times[name]
        label = "" if name == "ours" else f" [{root}]"
        print(f"start to first window{label}: median {med(first):.3f} s, worst {max(first):.3f} s "
              f"(budget 2 s) — {med(first) / med(bare):.2f}× the bare window (goal ≤ 1.5×); "
              f"per run {med(f / b for f, b in zip(first, bare)):.2f}×")
        print(f"start to the shown tab on screen{label}: median {med(shown):.2f} s, worst {max(shown):.2f} s")
        print(f"start to every tab's first result{label}: median {med(alls):.2f} s, worst {max(alls):.2f} s")
    if other:
        (first, shown, alls), (first_o, shown_o, alls_o) = times["ours"], times["other"]
        print("ours / other, median of the per-run ratios: first window "
              f"{med(a / b for a, b in zip(first, first_o)):.2f}, shown tab "
              f"{med(a / b for a, b in zip(shown, shown_o)):.2f}, every tab "
              f"{med(a / b for a, b in zip(alls, alls_o)):.2f}")


if __name__ == "__main__":
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("runs", nargs="?", type=int, default=7)
    ap.add_argument("--other", metavar="CHECKOUT", help="another checkout timed in the same runs")
    ap.add_argument("--cached-bytecode", action="store_true",
                    help="our modules' bytecode written once, as an installed app has it")
    a = ap.parse_args()
    main(a.runs, a.other, a.cached_bytecode)
