"""The background inference runner: results on the GUI thread, latest request wins, stale work
cancelled, errors as signals, progress forwarded."""
import threading
import time

import pytest

from desktop.tabs.jobs import JobRunner
from engines.core.errors import ContradictionError, check_cancel


@pytest.fixture
def runner(qtbot):
    r = JobRunner()
    yield r
    r.shutdown()


def test_result_arrives_on_gui_thread_from_worker(runner, qtbot):
    seen = {}

    def job(cancel):
        seen["thread"] = threading.current_thread()
        return 42

    with qtbot.waitSignal(runner.resultReady, timeout=5000) as b:
        runner.submit(job)
    assert b.args[1] == 42
    assert seen["thread"] is not threading.main_thread()
    assert not runner.is_busy()


def test_latest_request_wins_and_stale_work_is_cancelled(runner, qtbot):
    started = threading.Event()
    cancelled = threading.Event()

    def slow(cancel):
        started.set()
        for _ in range(500):
            if cancel():
                cancelled.set()
            check_cancel(cancel)
            time.sleep(0.01)
        return "slow"

    results = []
    runner.resultReady.connect(lambda rev, res, secs: results.append(res))
    runner.submit(slow)
    assert started.wait(5)
    with qtbot.waitSignal(runner.resultReady, timeout=10000):
        runner.submit(lambda cancel: "fast")
    assert results == ["fast"]     # the newer request ran at once on another pool thread
    assert cancelled.wait(2)       # and the stale one stopped at its next cancel check


def test_errors_come_back_as_signals(runner, qtbot):
    def bad(cancel):
        raise ContradictionError(3, "nothing fits")

    with qtbot.waitSignal(runner.failed, timeout=5000) as b:
        runner.submit(bad)
    assert isinstance(b.args[1], ContradictionError) and b.args[1].event_index == 3

    def bug(cancel):
        return 1 / 0

    with qtbot.waitSignal(runner.failed, timeout=5000) as b:
        runner.submit(bug)
    assert isinstance(b.args[1], ZeroDivisionError) and "ZeroDivisionError" in b.args[1].detail


def test_progress_is_forwarded(runner, qtbot):
    seen = []
    runner.progress.connect(lambda d, t: seen.append((d, t)))

    def job(task):
        for i in range(1, 4):
            task.progress(i, 3)
            time.sleep(0.06)
        return "done"

    with qtbot.waitSignal(runner.resultReady, timeout=5000):
        runner.submit(job)
    qtbot.wait(50)
    assert seen and seen[-1] == (3, 3)
    assert all(0 < d <= t == 3 for d, t in seen)


def test_partial_results_arrive_before_the_result_and_no_thread_per_runner(qtbot):
    from desktop.tabs.jobs import thread_pool

    runners = [JobRunner() for _ in range(20)]
    try:
        r = runners[0]
        partials = []
        r.partialResult.connect(lambda rev, p: partials.append(p))

        def job(task):
            task.publish("estimate")
            time.sleep(0.05)
            return "exact"

        with qtbot.waitSignal(r.resultReady, timeout=5000) as b:
            r.submit(job)
        assert partials == ["estimate"] and b.args[1] == "exact"
        assert threading.active_count() < 20        # runners own no thread: one shared pool
        assert thread_pool().maxThreadCount() <= 8
    finally:
        for x in runners:
            x.shutdown()
