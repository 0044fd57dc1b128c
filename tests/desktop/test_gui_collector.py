"""The GUI thread's garbage collector (desktop.shell.process.GuiThreadCollector): CPython's
rule for full collections (a full collection waits until the long-lived objects grew by a
quarter), driven with the interpreter's counts replaced."""
from desktop.shell import process


def _fake_gc(monkeypatch, counts, found, oldest):
    calls = []

    def collect(generation=2):
        calls.append(generation)
        return found.get(generation, 0)

    monkeypatch.setattr(process.gc, "collect", collect)
    monkeypatch.setattr(process.gc, "get_count", lambda: counts)
    monkeypatch.setattr(process.gc, "get_objects", lambda generation=None: [None] * oldest)
    from desktop.tabs import jobs

    monkeypatch.setattr(jobs, "work_pending", lambda: False)    # the app idle
    return calls


def test_a_full_collection_waits_until_the_long_lived_objects_grew_by_a_quarter(monkeypatch, qtbot):
    # every tick: 1,000 young objects, the middle generation's and the oldest's counts over
    # their thresholds (700, 10, 10)
    calls = _fake_gc(monkeypatch, (1000, 11, 11), {0: 0, 1: 0}, oldest=10_000)
    collector = process.GuiThreadCollector(interval_ms=10**6)
    try:
        collector.check()               # nothing counted yet: collected in full, as CPython's first
        assert calls == [0, 1, 2] and collector.full_collections == 1
        qtbot.waitUntil(lambda: collector.long_lived == 10_000, timeout=2000)   # the turn after
        calls.clear()
        collector.check()
        collector.check()               # 2,000 moved to the oldest: under a quarter of 10,000
        assert calls == [0, 1, 0, 1] and collector.pending == 2000
        collector.check()               # 3,000: a quarter reached
        assert calls[-3:] == [0, 1, 2] and collector.full_collections == 2
        assert collector.pending == 0
    finally:
        collector._timer.stop()
        if process._collector is None:      # the session's own collector keeps gc off
            process.gc.enable()


def test_what_the_middle_generation_found_unreachable_never_reaches_the_oldest(monkeypatch, qtbot):
    calls = _fake_gc(monkeypatch, (1000, 11, 11), {0: 100, 1: 500}, oldest=0)
    collector = process.GuiThreadCollector(interval_ms=10**6)
    collector.long_lived = 10_000
    try:
        for _ in range(6):              # 1,000 - 100 young survivors, 500 of them unreachable later
            collector.check()
        assert collector.pending == 6 * 400 and 2 not in calls
        collector.check()
        assert calls[-1] == 2 and collector.pending == 0
    finally:
        collector._timer.stop()
        if process._collector is None:
            process.gc.enable()


def test_a_full_collection_waits_for_the_app_to_be_idle(monkeypatch, qtbot):
    """A full collection that is due waits while the app is busy (a job pending, a file being
    shown; the young and middle generations are still collected), and is made once it is
    idle, or GC_FULL_MAX_WAIT_S after it fell due."""
    from desktop.tabs import jobs

    calls = _fake_gc(monkeypatch, (1000, 11, 11), {0: 0, 1: 0}, oldest=0)
    collector = process.GuiThreadCollector(interval_ms=10**6)
    clock, busy = [1000.0], [True]
    monkeypatch.setattr(process.time, "monotonic", lambda: clock[0])
    monkeypatch.setattr(jobs, "work_pending", lambda: busy[0])
    try:
        collector.check()
        assert calls == [0, 1] and collector.full_collections == 0
        busy[0] = False
        collector.check()                           # idle: made
        assert calls[-3:] == [0, 1, 2] and collector.full_collections == 1
        collector.long_lived = 0                    # due again at the next tick
        busy[0] = True
        calls.clear()
        collector.check()
        clock[0] += process.GC_FULL_MAX_WAIT_S - 0.1
        collector.check()
        assert 2 not in calls
        clock[0] += 0.2
        collector.check()                           # waited long enough: made though busy
        assert calls[-1] == 2 and collector.full_collections == 2
    finally:
        collector._timer.stop()
        if process._collector is None:
            process.gc.enable()


def test_the_app_is_busy_while_a_file_is_shown_or_a_job_is_pending(qtbot):
    from desktop.tabs.jobs import JobRunner, Priority, PriorityGroup, work_pending, worker_gate

    group = PriorityGroup()
    runner = JobRunner(name="export", group=group, priority=Priority.BACKGROUND)
    assert not group.urgent_pending(len(Priority))
    with worker_gate.hold():
        assert work_pending()
    gate = []
    runner.submit(lambda task: gate.append(work_pending()) or "done")
    assert group.urgent_pending(len(Priority))          # the export's level counts
    with qtbot.waitSignal(runner.resultReady, timeout=5000):
        pass
    assert gate == [True] and not group.urgent_pending(len(Priority))
    runner.shutdown()


def test_the_middle_generation_is_collected_after_fewer_young_collections_than_cpython_s(
        monkeypatch, qtbot):
    """The middle generation is collected once more than GC_MIDDLE_AFTER (3) young collections
    were made since its last, not CPython's 10: each such collection scans fewer survivors, a
    shorter pause of the GUI thread."""
    counts = [1000, 4, 0]
    calls = _fake_gc(monkeypatch, counts, {0: 0, 1: 0}, oldest=0)
    monkeypatch.setattr(process.gc, "get_count", lambda: tuple(counts))
    collector = process.GuiThreadCollector(interval_ms=10**6)
    try:
        assert process.GC_MIDDLE_AFTER == 3 < process.gc.get_threshold()[1]
        collector.check()               # 4 young collections since the middle's last: collected
        assert calls == [0, 1]
        counts[1] = 3
        collector.check()               # 3: not yet
        assert calls == [0, 1, 0]
    finally:
        collector._timer.stop()
        if process._collector is None:
            process.gc.enable()


def test_a_collection_due_at_a_late_tick_is_made_in_a_turn_of_its_own(monkeypatch, qtbot):
    """A tick more than GC_LATE_MS late (the GUI thread was busy until then) collects nothing
    and comes again NEXT_TURN_MS later; an on-time tick collects; at most GC_MAX_DEFERRALS
    late ticks in a row are put off."""
    calls = _fake_gc(monkeypatch, (1000, 0, 0), {0: 0}, oldest=0)
    collector = process.GuiThreadCollector(interval_ms=10**6)
    late = lambda: setattr(collector, "_due",
                           process.time.monotonic() - 2 * process.GC_LATE_MS / 1000)
    try:
        late()
        collector.check()
        assert calls == [] and collector._timer.interval() == process.NEXT_TURN_MS
        collector.check()                           # the next turn, on time: collected
        assert calls == [0] and collector._timer.interval() == 10**6
        for _ in range(process.GC_MAX_DEFERRALS):
            late()
            collector.check()
        assert calls == [0]
        late()
        collector.check()                           # put off long enough: collected though late
        assert calls == [0, 0]
    finally:
        collector._timer.stop()
        if process._collector is None:
            process.gc.enable()
