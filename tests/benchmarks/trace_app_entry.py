"""Trace entries of :mod:`bench_app_speed` end to end, with timestamps: the key press, the
entry's check, the journal's write, the beliefs' request and publication, the render and the
worksheet's paint, each job submitted, started (after its wait for more urgent work), ended and
delivered on the GUI thread, the advisor's engine call (wall time and the thread's CPU time; its
wall time as the job waits when it runs in the engines' worker process, ``worker call``) and
the ranking's render and paint — so that an entry's advice latency splits into the fixed
pipeline (queues, holds, turns of the event loop) and the engine's call as it runs in the app.

With ``--sample`` a thread samples the GUI thread's stack every 0.5 ms and each line of the
trace is followed by what the GUI thread was doing (its innermost frame of the project) until
the next line, when it was busy for 1 ms or more.

Run from the repository root (the arguments after ``--`` are bench_app_speed's)::

    QT_QPA_PLATFORM=offscreen python tests/benchmarks/trace_app_entry.py [--events-shown 14,16]
        [--sample] -- --events 20 --games cluedo [--code OTHER_CHECKOUT]
"""
from __future__ import annotations

import argparse
import collections
import functools
import importlib
import os
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main() -> int:
    argv = sys.argv[1:]
    split = argv.index("--") if "--" in argv else len(argv)
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--events-shown", default="5,14,16,20", help="entries traced (1-based)")
    ap.add_argument("--sample", action="store_true", help="sample the GUI thread's stack")
    args = ap.parse_args(argv[:split])
    bench_argv = argv[split + 1:]
    code = bench_argv[bench_argv.index("--code") + 1] if "--code" in bench_argv else ROOT
    sys.path.insert(0, os.path.join(ROOT, "tests", "benchmarks"))
    sys.path.insert(0, os.path.abspath(code))
    sys.argv = [sys.argv[0]] + bench_argv      # bench_app_speed reads --code at import
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

    marks: list = []      # (perf_counter, thread, text)
    gui = threading.get_ident()

    def mark(text: str) -> None:
        tid = threading.get_ident()
        marks.append((time.perf_counter(), "GUI" if tid == gui else f"w{tid % 1000:03d}", text,
                      time.thread_time()))

    def wrap(owner, name: str, label: str, describe=None, cpu: bool = False) -> None:
        orig = getattr(owner, name)

        @functools.wraps(orig)
        def traced(*a, **k):
            mark(f"> {label} {describe(*a, **k) if describe else ''}")
            c0 = time.thread_time()
            try:
                return orig(*a, **k)
            finally:
                mark(f"< {label}" + (f" (thread CPU {(time.thread_time() - c0) * 1000:.1f} ms)"
                                     if cpu else ""))
        setattr(owner, name, traced)

    jobs = importlib.import_module("desktop.tabs.jobs")
    controller = importlib.import_module("desktop.tabs.controller")
    base = importlib.import_module("desktop.tabs.base")
    journal = importlib.import_module("desktop.storage.journal")
    recommend = importlib.import_module("engines.cluedo.recommend")
    cluedo_tab = importlib.import_module("desktop.games.cluedo.tab")
    panes = importlib.import_module("desktop.games.cluedo.panes")

    wrap(jobs.JobRunner, "submit", "submit", lambda self, *a, **k: self.objectName())
    run = jobs._Task._run

    def traced_run(self):
        mark(f"> job {self.name} (queued)")
        try:
            return run(self)
        finally:
            mark(f"< job {self.name}")
    jobs._Task._run = traced_run
    for slot, sig in (("_on_finished", (int, object, float)), ("_on_partial", (int, object))):
        orig = getattr(jobs.JobRunner, slot)

        def delivered(self, *a, _orig=orig, _slot=slot):
            mark(f"  {_slot[4:]} delivered: {self.objectName()}")
            return _orig(self, *a)
        setattr(jobs.JobRunner, slot, jobs.Slot(*sig)(delivered))
    wrap(journal.Journal, "append", "journal.append")
    wrap(controller.GameController, "request_inference", "request_inference")
    wrap(controller.GameController, "_publish", "publish")
    wrap(controller.GameController, "beliefs_shown", "beliefs_shown")
    wrap(base.GameTab, "_render", "render",
         lambda self, snap, *a: f"{snap.status.name} advice={sorted(snap.advice)}")
    wrap(base.GameTab, "_paint_now", "paint now")
    wrap(base.GameTab, "_draw_due_plot", "plot due")
    wrap(cluedo_tab.Tab, "show_posterior", "show_posterior")
    wrap(cluedo_tab.Tab, "show_beside_posterior", "show_beside_posterior")
    wrap(cluedo_tab.Tab, "_update_knows_plot", "who-is-close plot")
    wrap(cluedo_tab.Tab, "_render_opponents", "render opponents")
    wrap(panes.SuggestionRanking, "render", "ranking.render")
    # in a job's thread (the worker process not ready, or busy with another tab) ...
    wrap(recommend, "recommend", "recommend", cpu=True)
    # ... or in the engines' worker process: its wall time as the job waits for it
    engine_process = importlib.import_module("desktop.tabs.engine_process")
    wrap(engine_process.EngineProcess, "call", "worker call",
         lambda self, fn, *a, **k: getattr(fn, "__qualname__", "?"))

    import gc

    def collected(phase: str, info: dict) -> None:
        mark(f"{'>' if phase == 'start' else '<'} gc.collect({info['generation']})"
             + (f" collected {info['collected']}" if phase == "stop" else ""))
    gc.callbacks.append(collected)

    from PySide6.QtTest import QTest
    key_click = QTest.keyClick

    def traced_key(*a, **k):
        mark("KEY")
        return key_click(*a, **k)
    QTest.keyClick = traced_key

    samples: list = []
    running = [True]

    def sampler() -> None:
        while running[0]:
            where = _innermost(sys._current_frames().get(gui), code)
            samples.append((time.perf_counter(), where))
            time.sleep(0.0005)
    if args.sample:
        threading.Thread(target=sampler, daemon=True).start()

    bench = importlib.import_module("bench_app_speed")
    rc = bench.main(bench_argv)
    running[0] = False

    keys = [i for i, m in enumerate(marks) if m[2] == "KEY"]
    for e in (int(x) for x in args.events_shown.split(",")):
        if not 0 < e <= len(keys):
            continue
        i0 = keys[e - 1]
        i1 = keys[e] if e < len(keys) else len(marks)
        t0 = marks[i0][0]
        print(f"==== entry {e} (ms after the key press; GUI = the GUI thread, wNNN = a pool thread)")
        span = marks[i0:i1]
        gui_cpu = None
        for j, (t, th, text, cpu) in enumerate(span):
            since = ""
            if th == "GUI":
                if gui_cpu is not None:
                    since = f"   [GUI CPU since its last line {(cpu - gui_cpu) * 1000:.1f} ms]"
                gui_cpu = cpu
            print(f"{(t - t0) * 1000:8.2f} {th:4s} {text}{since}")
            if args.sample:
                t_next = span[j + 1][0] if j + 1 < len(span) else t + 0.05
                busy = collections.Counter(w for ts, w in samples if t <= ts < t_next and w)
                if sum(busy.values()) >= 2:
                    print("              GUI busy in: " + ", ".join(
                        f"{w} ×{c}" for w, c in busy.most_common(3)))
    gc_ms = collections.defaultdict(list)
    begun = None
    busy_rec = 0
    for t, th, text, _cpu in marks:
        if th != "GUI" and text.startswith("> recommend"):
            busy_rec += 1
        elif th != "GUI" and text.startswith("< recommend"):
            busy_rec -= 1
        elif text.startswith("> gc.collect"):
            begun = (t, busy_rec > 0)
        elif text.startswith("< gc.collect") and begun is not None:
            gc_ms[(text[13], begun[1])].append((t - begun[0]) * 1000)
    for (gen, during), ms in sorted(gc_ms.items()):
        print(f"gc.collect({gen}) {'during' if during else 'outside'} a recommend in the app: "
              f"{len(ms)} collections, {sum(ms):.0f} ms in all, longest {max(ms):.1f} ms")
    if args.sample:
        # what the GUI thread did while the advisor's engine call ran, over every entry
        during = collections.Counter()
        start = None
        n = 0
        for t, th, text, _cpu in marks:
            if th == "GUI":
                continue        # the engine's own figure, after the run, on the GUI thread
            if text.startswith("> recommend"):
                start = t
            elif text.startswith("< recommend") and start is not None:
                n += sum(1 for ts, _w in samples if start <= ts < t)
                during.update(w or "(outside the project: Qt, the event loop)"
                              for ts, w in samples if start <= ts < t)
                start = None
        print(f"the GUI thread while recommend ran in the app: {n} samples")
        for w, c in during.most_common(25):
            print(f"  {c:6d} {w}")
    return rc


def _innermost(frame, code: str):
    """The innermost frame of the project in ``frame``'s stack, as "file:function" (the
    frames are not kept: a frame whose function has returned would otherwise end here, in the
    sampler's thread, with the Qt objects of its locals)."""
    codes = []
    while frame is not None:
        codes.append(frame.f_code)
        frame = frame.f_back
    for c in codes:
        fn = c.co_filename
        if ("/desktop/" in fn or "/engines/" in fn) and "trace_app_entry" not in fn:
            return f"{os.path.relpath(fn, code)}:{c.co_name}"
    return None


if __name__ == "__main__":
    sys.exit(main())
