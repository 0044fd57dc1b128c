"""Process-wide settings of the desktop app, made once by ``main()`` (and by the test
session's set-up, which runs windows the same way): the GIL switch interval, Python's cyclic
garbage collector run on the GUI thread only, and the warm-up that imports the engines in the
background and then freezes what exists (``gc.freeze``).

Nothing here is done by building a window or a tab: a library user (a script making a
``MainWindow``, a test) gets the interpreter as it was, unless it calls
:func:`configure_process`.
"""
from __future__ import annotations

import gc
import importlib
import logging
import math
import sys
import time
from typing import Optional

from PySide6.QtCore import QObject, QTimer, Slot

log = logging.getLogger(__name__)

#: The GIL switch interval while the app runs (seconds; Python's default is 0.005). A job
#: running Python code holds the GIL; the GUI thread, whose every call into Python (a model's
#: data(), a header's sizeHint, an event to a widget of a Python class, a timer's slot) takes
#: the GIL again, waits up to one interval each time — a relayout of a 2,000-row table made
#: thousands of such calls: opening a Spyfall log of 2,000 claims stalled the GUI 23-35 s at
#: 5 ms, 3.7 s at 0.5 ms, 1.3-1.6 s at 0.1 ms (the rest is building the views;
#: tests/benchmarks/bench_open_stall.py). The worker gate (desktop.tabs.jobs.worker_gate) pauses
#: the jobs during paints and deliveries, but not during the GUI thread's other turns: with the
#: 100-event Inkognito log reopened and its beliefs computing, the GUI thread slept 45-95 ms of
#: a 67-123 ms turn waiting for the GIL at 0.1 ms (the scheduler's sleep stacks, perf
#: sched_switch: nine in ten in take_gil); the reopens' longest turn was 20-26 ms at 20 µs
#: (tests/benchmarks/bench_open_stall.py --repeat: 52-94 -> 21-27 ms), the beliefs no later
#: (0.65-0.67 s to idle either way) and the typing latencies of tests/benchmarks/bench_app_speed.py
#: within their run-to-run spread. Threads switch only when one waits (Beazley 2010, the "convoy
#: effect", in docs/references.md).
GIL_SWITCH_INTERVAL_S = 0.00002
#: Milliseconds of a timer that runs work in a turn of the event loop of its own: the parts of a
#: tab built in turns, a paint put off, the Tab order's walk after a new document. Not 0: Qt 6
#: runs a 0 ms single shot as a posted event, in the same pass of the event loop as what posted
#: it and before the timers and input already due (after an 18 ms turn a heartbeat came between
#: in 2 of 20 trials, and before a 1 ms timer in 20 of 20; tests/benchmarks/bench_open_stall.py).
NEXT_TURN_MS = 1
#: How often the GUI thread runs the cyclic garbage collector (milliseconds). A collection's
#: cost grows with what was allocated since its generation's last one: opening the 5,000-claim
#: Spyfall table (tests/benchmarks/bench_open_stall.py), the longest young collection took
#: 19-23 ms of GUI CPU at 500 ms and 8-10 ms at 100 ms, the longest of the middle generation
#: 34-38 and 19-31 ms (gc.callbacks, two and three runs). Ticks with nothing to collect cost a
#: call to gc.get_count().
GC_INTERVAL_MS = 100
#: Young collections after which the middle generation is collected (more than this many;
#: CPython's threshold is 10). Each middle collection scans the young collections' survivors
#: since the last, so a lower count makes each smaller: opening the largest Spyfall table after
#: the 2,005-claim log, the longest took 14-19 ms of the GUI thread at 10 and 6-9 ms at 3, all
#: collections together 57-62 and 62-67 ms (gc.callbacks, two runs each).
GC_MIDDLE_AFTER = 3
#: CPython's rule for the oldest generation (von Löwis 2008, in docs/references.md): a full
#: collection waits until the objects moved to it since the last one are at least this
#: fraction of those it held then, so that a large heap of long-lived objects (a log's
#: posteriors) is not scanned again at every tenth collection of the middle generation.
GC_FULL_GROWTH = 0.25
#: Longest wait (s) of a full collection for the app to be idle (no job pending, no file being
#: opened): a full collection scans every long-lived object, 100-130 ms of the GUI thread with
#: the largest Spyfall table open (gc.callbacks while the next file opened).
GC_FULL_MAX_WAIT_S = 10.0
#: Ticks in a row a collection may wait for a tab's urgent work, and the retry interval
#: meanwhile (milliseconds).
GC_MAX_DEFERRALS = 20
GC_RETRY_MS = 25
#: A collection due at a tick that came this late (milliseconds; the GUI thread was busy until
#: now: a paint, a delivery) is made in a turn of its own, :data:`NEXT_TURN_MS` later, so that
#: the input and timers already waiting come first. Opening the 100-event Egghead log, a 50 ms
#: full collection ran in the same turn as the 18 ms plot and paint before it: one 75 ms stall
#: (tests/benchmarks/bench_open_stall.py with a stack sampler). Above a coarse timer's 5 %.
GC_LATE_MS = 8
#: Modules imported by the warm-up besides the engines: ones a view imports on the GUI thread
#: when first shown (the Spyfall equilibrium view reads its study through the solver's module,
#: which imports scipy.optimize and scipy.stats, about 0.5 s).
WARM_MODULES = ("engines.spyfall.equilibrium",)

_collector: Optional["GuiThreadCollector"] = None
#: Whether the advisors may compute in the engines' worker process
#: (:mod:`desktop.tabs.engine_process`): set by :func:`configure_process`.
engine_worker = False
_warmed = False


class GuiThreadCollector(QObject):
    """Python's cyclic garbage collector run by a timer on the GUI thread, automatic collection
    off (the approach of pyqtgraph's ``pyqtgraph.util.garbage_collector.GarbageCollector``,
    written out here so that start-up does not import pyqtgraph). Otherwise a collection that
    starts in a background job's thread may destroy Qt widgets there, which deadlocks against
    the GUI thread (seen with a Cluedo recommendation running while a closed window's menus
    were collected). Thresholds as CPython's generations: a young collection at every tick, the
    middle generation after :data:`GC_MIDDLE_AFTER` young collections (a shorter pause each than
    after CPython's 10), and the oldest
    (a full collection) only once the objects that reached it since the last full collection
    are :data:`GC_FULL_GROWTH` of those it held then (CPython's own rule), and while the app
    is idle (at most :data:`GC_FULL_MAX_WAIT_S` later).

    :attr:`long_lived` is the oldest generation's size after the last full collection
    (``len(gc.get_objects(2))``, counted in the turn after it, about a third of the
    collection's cost); :attr:`pending` estimates the objects moved there since: the young
    collections' survivors (their count before minus what they found unreachable), less what
    the middle generation's collections found unreachable."""

    def __init__(self, interval_ms: int = GC_INTERVAL_MS, parent: Optional[QObject] = None):
        super().__init__(parent)
        young, _middle, oldest = gc.get_threshold()
        self.threshold = (young, GC_MIDDLE_AFTER, oldest)
        self.interval_ms = interval_ms
        self._deferred = 0
        self.long_lived = 0       # none counted yet: the first full collection is not put off
        self.pending = 0
        self._promoted = 0        # young survivors since the middle generation's last collection
        self.full_collections = 0
        self._full_due_since: Optional[float] = None   # when a full collection first waited
        gc.disable()
        self._recount = QTimer(self)
        self._recount.setSingleShot(True)
        self._recount.setInterval(0)
        self._recount.timeout.connect(self._count_long_lived)
        self._timer = QTimer(self)
        self._timer.timeout.connect(self.check)
        self._start(interval_ms)

    def _start(self, ms: int) -> None:
        """(Re)start the tick every ``ms`` milliseconds and note when the next is due."""
        self._timer.start(ms)
        self._due = time.monotonic() + ms / 1000

    def check(self) -> None:
        """Collect the generations whose counts passed their thresholds (youngest first); not
        while a tab's urgent work (beliefs, ranking) is pending or being shown
        (:func:`desktop.tabs.jobs.urgent_work_pending`: a collection of a large young
        generation took 20-30 ms, between an entry's Enter and its worksheet), at most
        :data:`GC_MAX_DEFERRALS` ticks in a row; nor at a tick :data:`GC_LATE_MS` late (the
        GUI thread busy until now), made then in a turn of its own."""
        from desktop.tabs.jobs import urgent_work_pending

        now = time.monotonic()
        late_ms = (now - self._due) * 1000
        self._due = now + self._timer.interval() / 1000
        if urgent_work_pending() and self._deferred < GC_MAX_DEFERRALS:
            self._deferred += 1
            self._start(GC_RETRY_MS)            # soon after the urgent work, not a tick later
            return
        l0, l1, l2 = gc.get_count()
        if l0 > self.threshold[0] and late_ms > GC_LATE_MS and self._deferred < GC_MAX_DEFERRALS:
            self._deferred += 1
            self._start(NEXT_TURN_MS)           # after what waited behind the busy turn
            return
        self._deferred = 0
        if self._timer.interval() != self.interval_ms:
            self._start(self.interval_ms)
        if l0 > self.threshold[0]:
            self._promoted += max(0, l0 - (gc.collect(0) or 0))
            if l1 > self.threshold[1]:
                self.pending += max(0, self._promoted - (gc.collect(1) or 0))
                self._promoted = 0
                if (l2 > self.threshold[2] and self.pending >= GC_FULL_GROWTH * self.long_lived
                        and self._may_collect_all()):
                    gc.collect(2)
                    self._full_due_since = None
                    self.full_collections += 1
                    self.pending = 0
                    self._recount.start()

    def _may_collect_all(self) -> bool:
        """A full collection is due: make it now if the app is idle (no job pending, no file
        being opened), else put it off, at most :data:`GC_FULL_MAX_WAIT_S` since it fell due
        (the middle generation's collections go on meanwhile)."""
        from desktop.tabs.jobs import work_pending

        now = time.monotonic()
        if self._full_due_since is None:
            self._full_due_since = now
        return not work_pending() or now - self._full_due_since >= GC_FULL_MAX_WAIT_S

    @Slot()
    def _count_long_lived(self) -> None:
        """The oldest generation's size after a full collection (see the class)."""
        self.long_lived = len(gc.get_objects(generation=2))


_sample_budgets_only = False


def use_sample_budgets() -> None:
    """From now on in this process, the app's background work stops on budgets in samples or
    steps only, never on the wall clock (Cluedo's "Who is close?" estimates,
    :func:`budget_seconds`): what the command line's picture modes draw (``--screenshot``,
    ``docs/make_pane_screenshots.py``) is then a function of the file and the options,
    whatever the machine's load. The Cluedo example's accusation advice read "about 7 %
    (between 5 and 9 %)" on an idle machine and "about 9 % (between 5 and 16 %)" beside a test
    run, the estimate stopped by its 4 s budget after fewer sampled deals."""
    global _sample_budgets_only
    _sample_budgets_only = True


def budget_seconds(seconds: float) -> float:
    """A wall-clock budget of background work as the process runs it: ``seconds``, or no limit
    (``math.inf``) after :func:`use_sample_budgets`, the work then bounded by its samples."""
    return math.inf if _sample_budgets_only else seconds


def configure_process() -> None:
    """The process-wide settings of the running app (once; a QApplication must exist): the GIL
    switch interval (:data:`GIL_SWITCH_INTERVAL_S`), garbage collection on the GUI thread
    only (:class:`GuiThreadCollector`), and the advisors' engine calls in a worker process
    (:mod:`desktop.tabs.engine_process`, started by the first such call)."""
    global _collector, engine_worker
    if _collector is not None:
        return
    engine_worker = True
    sys.setswitchinterval(min(sys.getswitchinterval(), GIL_SWITCH_INTERVAL_S))
    from PySide6.QtCore import QCoreApplication

    _collector = GuiThreadCollector(parent=QCoreApplication.instance())


def warm_engine_imports(games) -> None:
    """Import the engines of ``games`` (ids) and :data:`WARM_MODULES` in a background job,
    once (on a pool thread, so the GUI thread's next File → Open or tab finds them imported:
    the engines import scipy, about 0.2 s each on first use), then move what exists — modules,
    classes, the first window, all living until the app quits — to the permanent generation:
    the cyclic collector no longer scans it; a full collection fell from 50-65 ms to about
    1 ms, and to 12 ms with a 2,000-claim Spyfall log open (Python documentation, gc.freeze).
    ``main()`` calls it when the first tab is built (:attr:`desktop.shell.main_window.MainWindow.tabBuilt`)."""
    global _warmed
    if _warmed:
        return
    _warmed = True
    from desktop.tabs.jobs import thread_pool
    from engines import game_module

    names = list(games)

    def job() -> None:
        for game in names:
            try:
                game_module(game)
            except Exception:
                log.debug("warm-up: %s not imported", game, exc_info=True)
        for name in WARM_MODULES:
            try:
                importlib.import_module(name)
            except Exception:
                log.debug("warm-up: %s not imported", name, exc_info=True)
        gc.freeze()

    thread_pool().start(job)
