"""Count the calls from Qt (C++) into Python that the GUI thread makes while a file opens.

Run: ``QT_QPA_PLATFORM=offscreen python tests/benchmarks/count_open_calls.py GAME [N]``
(``GAME``: cluedo, inkognito, egghead, guesswho or spyfall, a random log of ``N`` events, 100
by default, as ``bench_open_stall.py --long=N`` opens it into a tab already built; or
``spy2000``, ``spylarge``, ``cluedo12``: that benchmark's other files). From a worktree, put it
first: ``PYTHONPATH=$PWD``.

Each such call — a model's ``data``/``headerData``/``rowCount``, an overridden ``paintEvent``,
an event filter — must take the interpreter lock again when the GUI thread comes from the
event loop, and waits for it while a job runs Python beside it; their number is the part of
the open's GUI work that a Python change can remove, and unlike a stall in milliseconds it
does not depend on the machine's load. A ``sys.setprofile`` hook counts every Python function
entered from a C function (the built-ins' own callbacks — generator expressions, ``enum`` and
``abc`` machinery, engine code — are left out), so the count is a measure, not a timing.

Prints the total, the most called functions, and for the ``SLICES`` (env, default 4) longest
gaps of a 10 ms heartbeat the calls made inside them (the profiler slows the GUI thread, so
those gaps are longer than the benchmark's).
"""
import bisect
import collections
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

#: Python functions entered from C that are not Qt calling the app (built-ins' callbacks).
_NOT_QT = ("<genexpr>", "<listcomp>", "<dictcomp>", "<setcomp>")
_NOT_QT_FILES = ("enum.py", "abc>", "_methods.py", "confusables.py")


def _name(code, root: str) -> str:
    path = code.co_filename
    for prefix in (root + os.sep, os.path.join(sys.prefix, "lib", f"python{sys.version_info[0]}."
                                              f"{sys.version_info[1]}", "site-packages") + os.sep):
        if path.startswith(prefix):
            path = path[len(prefix):]
    return f"{path}:{code.co_name}"


def main() -> None:
    import bench_open_stall as bench
    from PySide6.QtCore import QTimer

    from desktop.shell.headless import wait_until_idle
    from desktop.shell.main_window import MainWindow, make_app
    from desktop.shell.process import configure_process

    game = sys.argv[1] if len(sys.argv) > 1 else "inkognito"
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    app = make_app()
    configure_process()
    win = MainWindow(autosave=False, interactive=False)
    win.show()
    app.processEvents()
    win.build_all_tabs()
    wait_until_idle(win)
    folder = tempfile.mkdtemp(prefix="count-open-")
    path = {"spy2000": lambda: bench.spyfall_file(folder),
            "spylarge": lambda: bench.spyfall_large_file(folder),
            "cluedo12": lambda: bench.cluedo_file(folder)}.get(
        game, lambda: bench.game_file(folder, game, n))()
    root = os.path.dirname(os.path.abspath(__import__("desktop").__file__)).rsplit(os.sep, 1)[0]
    top = sys._getframe()
    in_c: dict = {}        # id(frame) -> C calls under way from that frame
    calls = []             # (time, function)

    def hook(frame, event, arg):
        if event == "c_call":
            in_c[id(frame)] = in_c.get(id(frame), 0) + 1
        elif event in ("c_return", "c_exception"):
            in_c[id(frame)] = in_c.get(id(frame), 1) - 1
        elif event == "call":
            back = frame.f_back
            code = frame.f_code
            if (back is None or back is top or in_c.get(id(back), 0) > 0) \
                    and code.co_name not in _NOT_QT and not code.co_filename.endswith(_NOT_QT_FILES) \
                    and f"{os.sep}engines{os.sep}" not in code.co_filename:
                calls.append((time.perf_counter(), _name(code, root)))
        elif event == "return":
            in_c.pop(id(frame), None)

    ticks = []
    beat = QTimer()
    beat.setInterval(10)
    beat.timeout.connect(lambda: ticks.append(time.perf_counter()))
    beat.start()
    ticks.append(time.perf_counter())
    sys.setprofile(hook)
    win.open_path_in_background(path, ask=False)
    t0 = time.perf_counter()
    while win._pending_open is not None or time.perf_counter() - t0 < 0.05:
        app.processEvents()
    end = time.perf_counter() + 120
    while time.perf_counter() < end:
        app.processEvents()
        time.sleep(0.002)
        if not any(t.is_busy() for t in win.game_tabs.values()):
            break
    for _ in range(20):
        app.processEvents()
        time.sleep(0.01)
    sys.setprofile(None)
    beat.stop()
    print(f"{os.path.basename(path)}: {len(calls)} calls from Qt into Python on the GUI thread")
    for name, count in collections.Counter(c for _t, c in calls).most_common(
            int(os.environ.get("TOP", "15"))):
        print(f"{count:7d} {name}")
    at = [t for t, _c in calls]
    gaps = sorted(((b - a, a, b) for a, b in zip(ticks, ticks[1:])), reverse=True)
    for gap, a, b in gaps[:int(os.environ.get("SLICES", "4"))]:
        inside = calls[bisect.bisect(at, a):bisect.bisect(at, b)]
        most = collections.Counter(c for _t, c in inside).most_common(6)
        print(f"slice at {(a - ticks[0]) * 1000:.0f} ms ({gap * 1000:.0f} ms profiled): "
              f"{len(inside)} calls; " + ", ".join(f"{k} {c.rsplit('/', 1)[-1]}" for c, k in most))
    win.shutdown()


if __name__ == "__main__":
    main()
