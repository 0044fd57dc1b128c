"""Benchmark: how long the GUI thread stalls while a session file that starts a long
computation is opened, and how long until its beliefs (or the Cancel) arrive.

Run: ``QT_QPA_PLATFORM=offscreen python tests/benchmarks/bench_open_stall.py [--cancel] [--long=N]
[--games=a,b] [--repeat=N] [--sched]`` (``--games``: only those games' random logs;
``--repeat``: each file opened N times, the later opens into its tab shown before).
Goal: no stall over :data:`STALL_GOAL_MS` (50 ms) for a file of any accepted length; each
line is marked ✓ or ✗.
A ``QTimer`` heartbeat ticks every 10 ms on the GUI thread; the longest gap between two
ticks from the moment File → Open starts until the tab is idle is the stall. Files:

* a Spyfall log whose last claim is repeated 2,000 times (every prefix is computed on open;
  the engine is incremental, so this is one update per claim);
* the largest Spyfall table, 200 locations × 20 players × 5,000 claims
  (:func:`spyfall_large_file`);
* a Cluedo custom deck of 12 suspects, 12 weapons and 12 rooms with 10 players and
  refutations nobody saw, 7 by default (:func:`cluedo_file`);
* with ``--long=N``: for each of the five games a random consistent log of N events, as the
  latency benchmark types them (:func:`game_file`).

The file is opened as File → Open does (read on a pool thread,
``MainWindow.open_path_in_background``); ``--sync`` reads it on the GUI thread
(``MainWindow.open_path``, what scripts use).

Beside each gap's wall time the heartbeat reads the GUI thread's CPU time
(``time.thread_time``): the most CPU the GUI thread spent between two beats is the work of
its longest slice, which other processes on a shared machine and waits for the interpreter
lock do not inflate (a wall stall on a loaded machine is mostly waiting for a core).

With ``--sched`` (Linux) each beat also reads the GUI thread's scheduler statistics
(``/proc/self/task/<id>/schedstat``: the time it ran and the time it waited for a core), and the
longest gap is split into the time the GUI thread ran, waited for a core, and slept — blocked
on a lock, mostly the interpreter lock while a job computes beside it (one more system call a
beat).

Prints, per file: the longest GUI stall (ms) and the most GUI-thread CPU between two beats
(ms), the time File → Open took to return (ms), and
the seconds until the tab was idle (``--cancel``: Cancel is pressed 0.5 s after the open; the
time from Cancel until every worker thread has stopped). ``-v`` also prints what the GUI
thread was doing during the longest stall.
"""
import json
import os
import sys
import tempfile
import threading
import time
import traceback

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


#: The goal: no gap between two heartbeats over this while a file opens (three frames).
STALL_GOAL_MS = 50


def spyfall_file(folder: str, repeat: int = 2000) -> str:
    from engines.core.resources import resource_path

    d = json.loads(resource_path("examples", "spyfall.json").read_text(encoding="utf-8"))
    d["events"] = d["events"] + [d["events"][-1]] * repeat
    path = os.path.join(folder, f"spyfall-{repeat}.json")
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(d, fh)
    return path


def spyfall_large_file(folder: str, claims: int = 5000) -> str:
    """The largest Spyfall table the reader accepts: 200 locations, 20 players and ``claims``
    claims (5,000 is the events limit), each naming three locations. Every log prefix costs
    O(s²·n) for its leave-one-out beliefs, so the timeline takes seconds."""
    locations = [f"L{i}" for i in range(200)]
    players = [f"P{i}" for i in range(20)]
    events = [{"type": "claim", "player": players[i % 20],
               "claim": {locations[(7 * i) % 200]: 1, locations[(7 * i + 1) % 200]: 0.5,
                         locations[(13 * i) % 200]: 0.5}}
              for i in range(claims)]
    d = {"format": "deduction-desk.session", "version": 1, "game": "spyfall",
         "setup": {"locations": locations, "players": players, "me": "P0",
                   "my_role": {"location": "L0"}},
         "events": events}
    path = os.path.join(folder, f"spyfall-200x20-{claims}.json")
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(d, fh)
    return path


def cluedo_file(folder: str, refutations: int = 7) -> str:
    """12 suspects, 12 weapons, 12 rooms, 10 players; hands 6, 6, 3 x 7, 0, and
    ``refutations`` (at most 12) refutations nobody saw. Seven take seconds per log prefix;
    from eight on, the exact count is over the engine's per-refresh limit and the log is
    refused at once (engines/cluedo/counting.py)."""
    cats = {"suspect": [f"S{i}" for i in range(12)], "weapon": [f"W{i}" for i in range(12)],
            "room": [f"R{i}" for i in range(12)]}
    players = ["Me"] + [f"P{i}" for i in range(1, 10)]
    sizes = dict(zip(players, [6, 6, 3, 3, 3, 3, 3, 3, 3, 0]))
    events = []
    for i in range(refutations):
        events.append({"type": "suggestion", "suggester": players[1 + i % 8],
                       "cards": [f"S{i}", f"W{(i * 5) % 12}", f"R{(i * 7) % 12}"],
                       "passed": [], "refuter": players[1 + (i + 1) % 8], "shown": None})
    d = {"format": "deduction-desk.session", "version": 1, "game": "cluedo",
         "setup": {"categories": cats, "players": players, "hand_sizes": sizes, "me": "Me"},
         "events": events}
    path = os.path.join(folder, "cluedo-12-12-12-10p.json")
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(d, fh)
    return path


def game_file(folder: str, game: str, n: int, seed: int = 0) -> str:
    """A random consistent log of ``n`` events of ``game`` (:mod:`app_speed_games`, as the
    latency benchmark types them), written as the app writes a session."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from app_speed_games import GAMES

    from engines.core.schema import SessionData

    setup, events = GAMES[game].make_log(n, seed, 4)
    path = os.path.join(folder, f"{game}-{len(events)}.json")
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(SessionData(game=game, setup=setup, events=tuple(events)).to_json(), fh)
    return path


def read_schedstat(fd: int) -> tuple:
    """``(ran, waited)``: the seconds a thread has run and waited for a core, from its open
    ``/proc/.../schedstat`` (``fd``; Linux's scheduler statistics, nanoseconds in the file)."""
    ran, waited, _slices = os.pread(fd, 128, 0).split()
    return int(ran) / 1e9, int(waited) / 1e9


def measure(win, path: str, cancel: bool = False, limit_s: float = 60.0,
            sync: bool = False, sched: bool = False, where: bool = False) -> dict:
    """Open ``path`` from the event loop with a 10 ms heartbeat running; see the module doc.
    ``sched``: split the longest gap by the GUI thread's scheduler statistics (``ran_ms``,
    ``core_ms``, ``blocked_ms``; Linux). ``where`` (``-v``): a thread reads the GUI thread's
    Python stack during stalls over 200 ms (``stall_at``); only then, since reading a running
    thread's frames from another thread has crashed a probe of this kind (SIGSEGV)."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    ticks = []
    cpu = []           # the GUI thread's CPU time at each beat (time.thread_time)
    stats = []         # with ``sched``: (ran, waited for a core) at each beat
    fd = os.open(f"/proc/self/task/{threading.get_native_id()}/schedstat", os.O_RDONLY) \
        if sched else None
    beat = QTimer()
    beat.setInterval(10)

    def on_beat():
        ticks.append(time.perf_counter())
        cpu.append(time.thread_time())
        if fd is not None:
            stats.append(read_schedstat(fd))

    beat.timeout.connect(on_beat)
    out = {}
    stacks = {}        # what the GUI thread was doing during stalls over 200 ms
    gui = threading.get_ident()
    watching = [True]

    def watchdog():
        while watching[0]:
            time.sleep(0.05)
            if ticks and time.perf_counter() - ticks[-1] > 0.2:
                frame = sys._current_frames().get(gui)
                where = traceback.format_stack(frame)[-3:] if frame is not None else []
                stacks[ticks[-1]] = "".join(where)

    if where:
        threading.Thread(target=watchdog, daemon=True).start()

    def do_open():
        t0 = time.perf_counter()
        if sync:
            out["opened"] = win.open_path(path, ask=False)
        else:
            win.open_path_in_background(path, ask=False)
            out["opened"] = True
        out["open_ms"] = (time.perf_counter() - t0) * 1000

    beat.start()
    on_beat()
    QTimer.singleShot(0, do_open)
    t_start = time.perf_counter()
    while "open_ms" not in out or win._pending_open is not None:
        app.processEvents()
    if cancel:
        t_c = time.perf_counter()
        while time.perf_counter() - t_c < 0.5:
            app.processEvents()
            time.sleep(0.005)
        tab = win.current_tab()
        t_cancel = time.perf_counter()
        tab.cancel_computation()
    from desktop.tabs.jobs import thread_pool

    busy_until = time.perf_counter() + limit_s
    while time.perf_counter() < busy_until:
        app.processEvents()
        time.sleep(0.002)
        if not any(t.is_busy() for t in win.game_tabs.values()) and (
                not cancel or thread_pool().activeThreadCount() == 0):
            break
    t_idle = time.perf_counter()
    for _ in range(20):
        app.processEvents()
        time.sleep(0.01)
    beat.stop()
    watching[0] = False
    out["stall_at"] = ""
    if len(ticks) > 1:
        i = max(range(len(ticks) - 1), key=lambda j: ticks[j + 1] - ticks[j])
        out["stall_at"] = stacks.get(ticks[i], "")
    gaps = [b - a for a, b in zip(ticks, ticks[1:])]
    out["stall_ms"] = max(gaps) * 1000 if gaps else float("nan")
    out["stall_cpu_ms"] = max((b - a for a, b in zip(cpu, cpu[1:])), default=float("nan")) * 1000
    if fd is not None:
        os.close(fd)
        if gaps:
            (r0, w0), (r1, w1) = stats[i], stats[i + 1]
            out["ran_ms"], out["core_ms"] = (r1 - r0) * 1000, (w1 - w0) * 1000
            out["blocked_ms"] = max(0.0, out["stall_ms"] - out["ran_ms"] - out["core_ms"])
    out["idle_s"] = t_idle - (t_cancel if cancel else t_start)
    out["timed_out"] = t_idle >= busy_until
    return out


def main() -> None:
    from desktop.shell.headless import wait_until_idle as wait_idle
    from desktop.shell.main_window import MainWindow, make_app

    cancel = "--cancel" in sys.argv
    sync = "--sync" in sys.argv
    from desktop.shell.appearance import follow_system
    from desktop.shell.process import configure_process, warm_engine_imports

    app = make_app()
    configure_process()       # as the app's main(): GIL switch interval, collection on the GUI thread
    follow_system(app)        # and the style and palette of the desktop's scheme
    win = MainWindow(autosave=False, interactive=False)
    win.tabBuilt.connect(lambda _game: warm_engine_imports(win.games()))
    win.show()
    app.processEvents()
    wait_idle(win)
    folder = tempfile.mkdtemp(prefix="bench-open-")
    # the first open of a game builds its tab (hundreds of widgets, on the GUI thread); the
    # second line opens a file into the tab already built
    files = [("Spyfall, last claim x2000 (builds the tab)", spyfall_file(folder)),
             ("Spyfall, last claim x2000 (tab built)", spyfall_file(folder)),
             ("Spyfall 200 locations x 20 players, 5000 claims", spyfall_large_file(folder)),
             ("Cluedo 12/12/12, 10 players (builds the tab)", cluedo_file(folder))]
    long = next((int(a.split("=", 1)[1]) for a in sys.argv if a.startswith("--long=")), 0)
    only = next((a.split("=", 1)[1].split(",") for a in sys.argv if a.startswith("--games=")), None)
    if only is not None:
        files = []
    if long:
        win.build_all_tabs()      # a file of any length into a tab already built
        wait_idle(win)
        for game in only or ("cluedo", "inkognito", "egghead", "guesswho", "spyfall"):
            path = game_file(folder, game, long)
            files.append((f"{game}, a random log of {os.path.basename(path)[len(game) + 1:-5]} events "
                          f"(tab built)", path))
    repeat = next((int(a.split("=", 1)[1]) for a in sys.argv if a.startswith("--repeat=")), 1)
    sched = "--sched" in sys.argv
    for label, path in files:
        r = measure(win, path, cancel=cancel, sync=sync, sched=sched, where="-v" in sys.argv)
        verdict = "✓" if r["stall_ms"] <= STALL_GOAL_MS else "✗"
        print(f"{label}: opened={r['opened']} longest GUI stall {r['stall_ms']:.0f} ms {verdict} "
              f"(GUI-thread CPU between two beats at most {r['stall_cpu_ms']:.0f} ms), "
              f"open_path returned in {r['open_ms']:.0f} ms, "
              f"{'workers stopped' if cancel else 'idle'} {r['idle_s']:.2f} s after "
              f"{'Cancel' if cancel else 'the open'}"
              f"{' (still busy: limit reached)' if r['timed_out'] else ''}")
        if "ran_ms" in r:
            print(f"  longest stall: the GUI thread ran {r['ran_ms']:.0f} ms, waited for a core "
                  f"{r['core_ms']:.0f} ms, slept (a lock: mostly the interpreter's) "
                  f"{r['blocked_ms']:.0f} ms")
        if "-v" in sys.argv and r["stall_at"]:
            print("  longest stall in:\n" + r["stall_at"])
        if repeat > 1:       # the same file again, into its tab now shown before
            again = [measure(win, path, cancel=cancel, sync=sync, sched=sched)
                     for _ in range(repeat - 1)]
            print("  opened again: longest GUI stall "
                  + ", ".join(f"{a['stall_ms']:.0f} ({a['stall_cpu_ms']:.0f})" for a in again)
                  + " ms (GUI-thread CPU)")
    win.shutdown()


if __name__ == "__main__":
    main()
