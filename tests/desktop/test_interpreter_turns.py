"""The jobs that compute Python in this process take turns (desktop.tabs.jobs.interpreter_turns):
one computes at a time and hands over at a poll when another waits; a job that does not poll
holds the others up at most MAX_TURN_WAIT_SECONDS; a job computed in another process takes no
turn; a more urgent job gets the turn at the running job's next poll."""
import threading
import time

from desktop.tabs import jobs
from desktop.tabs.jobs import JobRunner, Priority, PriorityGroup, interpreter_turns


def _spin(seconds: float) -> None:
    t_end = time.perf_counter() + seconds
    while time.perf_counter() < t_end:
        pass


def _slices(name: str, log: list, n: int = 25):
    def job(task):
        for _ in range(n):
            if task():
                return None
            t0 = time.perf_counter()
            _spin(0.003)
            log.append((t0, time.perf_counter(), name))
        return name
    return job


def test_two_jobs_compute_one_at_a_time_and_hand_over_at_their_polls(qtbot):
    a = JobRunner(name="tab A", group=PriorityGroup(), priority=Priority.BELIEFS)
    b = JobRunner(name="tab B", group=PriorityGroup(), priority=Priority.BELIEFS)
    log: list = []
    handovers = interpreter_turns.handovers
    with qtbot.waitSignals([a.resultReady, b.resultReady], timeout=10000):
        a.submit(_slices("a", log))
        b.submit(_slices("b", log))
    spans = sorted(log)
    assert [s[2] for s in spans].count("a") == 25 and [s[2] for s in spans].count("b") == 25
    overlaps = [(p, q) for p, q in zip(spans, spans[1:]) if q[0] < p[1] and q[2] != p[2]]
    assert overlaps == []                      # never both computing at once
    switches = sum(p[2] != q[2] for p, q in zip(spans, spans[1:]))
    assert switches >= 10 and interpreter_turns.handovers - handovers >= 10   # taking turns
    a.shutdown()
    b.shutdown()


def test_a_job_that_does_not_poll_holds_another_up_at_most_the_longest_wait(qtbot):
    a = JobRunner(name="tab A", group=PriorityGroup(), priority=Priority.BELIEFS)
    b = JobRunner(name="tab B", group=PriorityGroup(), priority=Priority.BELIEFS)
    release = threading.Event()
    times = {}
    a.submit(lambda task: release.wait(5) and "a")
    qtbot.waitUntil(lambda: interpreter_turns.owner() is not None, timeout=5000)
    times["submit"] = time.monotonic()
    with qtbot.waitSignal(b.resultReady, timeout=5000):
        b.submit(lambda task: times.setdefault("b", time.monotonic()))
    waited = times["b"] - times["submit"]
    assert jobs.MAX_TURN_WAIT_SECONDS * 0.9 <= waited < jobs.MAX_TURN_WAIT_SECONDS + 1.0
    release.set()
    with qtbot.waitSignal(a.resultReady, timeout=5000):
        pass
    assert interpreter_turns.owner() is None
    a.shutdown()
    b.shutdown()


def test_a_job_computed_in_another_process_takes_no_turn(qtbot):
    a = JobRunner(name="tab A", group=PriorityGroup(), priority=Priority.BELIEFS)
    there = JobRunner(name="a ranking there", group=PriorityGroup(), priority=Priority.RANKING,
                      shares_lock=False)
    release = threading.Event()
    owners = []
    a.submit(lambda task: release.wait(5) and "a")
    qtbot.waitUntil(lambda: interpreter_turns.owner() is not None, timeout=5000)
    t0 = time.monotonic()
    with qtbot.waitSignal(there.resultReady, timeout=5000):
        there.submit(lambda task: owners.append(interpreter_turns.owner() is task) or "there")
    assert owners == [False] and time.monotonic() - t0 < jobs.MAX_TURN_WAIT_SECONDS * 0.9
    release.set()
    with qtbot.waitSignal(a.resultReady, timeout=5000):
        pass
    a.shutdown()
    there.shutdown()


def test_a_more_urgent_job_gets_the_turn_at_the_running_jobs_next_poll(qtbot):
    group = PriorityGroup()
    beliefs = JobRunner(name="beliefs", group=group, priority=Priority.BELIEFS)
    plots = JobRunner(name="plots", group=group, priority=Priority.BACKGROUND)
    log: list = []
    plots.submit(_slices("plots", log, n=200))
    qtbot.waitUntil(lambda: len(log) > 2, timeout=5000)
    t0 = time.perf_counter()
    with qtbot.waitSignal(beliefs.resultReady, timeout=5000):
        beliefs.submit(lambda task: log.append((time.perf_counter(), 0.0, "beliefs")) or "b")
    started = next(t for t, _, name in log if name == "beliefs") - t0
    assert started < jobs.MAX_TURN_WAIT_SECONDS * 0.9   # not a timed-out wait
    plots.cancel()
    qtbot.waitUntil(lambda: interpreter_turns.owner() is None, timeout=5000)
    beliefs.shutdown()
    plots.shutdown()
