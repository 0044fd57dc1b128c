"""A long computation that a file starts runs in the background, shows its progress with a
Cancel button, and Cancel stops it and leaves the session open and editable (the GUI-thread
stall itself is measured by tests/benchmarks/bench_open_stall.py)."""
import importlib.util
import time
from pathlib import Path

import pytest
from window_idle import wait_idle

_BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_open_stall.py"
_spec = importlib.util.spec_from_file_location("bench_open_stall", _BENCH)
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)


def _workers_stopped() -> bool:
    from desktop.tabs.jobs import thread_pool

    return thread_pool().activeThreadCount() == 0


@pytest.fixture
def heartbeat():
    """A 10 ms GUI-thread timer; ``ticks`` grows while the event loop runs."""
    from PySide6.QtCore import QTimer

    ticks = []
    t = QTimer()
    t.setInterval(10)
    t.timeout.connect(lambda: ticks.append(time.perf_counter()))
    t.start()
    yield ticks
    t.stop()


def test_spyfall_log_of_2000_claims_is_computed_in_full_in_the_background(window, qtbot,
                                                                           tmp_path, heartbeat):
    path = bench.spyfall_file(str(tmp_path), 2000)
    assert window.open_path(path, ask=False)
    tab = window.tab_for("spyfall")
    assert tab.is_busy()                       # open returned; the prefixes compute in the back
    n = len(tab.controller.document.events)
    ticks_before = len(heartbeat)
    qtbot.waitUntil(lambda: not tab.is_busy(), timeout=120_000)
    assert len(heartbeat) > ticks_before       # the event loop ran meanwhile
    result = tab.controller.timeline
    assert result is not None and result.error is None
    assert len(result.posteriors) == n + 1 and result.is_full   # every prefix, for the plots
    assert len(result.latest.information_gain_bits) == n


def test_spyfall_largest_table_shows_progress_and_cancels(window, qtbot, tmp_path, heartbeat):
    path = bench.spyfall_large_file(str(tmp_path))
    assert window.open_path(path, ask=False)
    tab = window.tab_for("spyfall")
    n = len(tab.controller.document.events)
    qtbot.waitUntil(lambda: "log prefixes" in tab.banner.message(), timeout=30_000)
    msg = tab.banner.message()
    assert f"of {n + 1:,} log prefixes" in msg and tab.banner.button.text() == "Cancel"
    ticks_before = len(heartbeat)
    qtbot.wait(300)
    assert len(heartbeat) > ticks_before       # the event loop runs while it computes
    done_before = tab.banner_view.progress()[0]
    qtbot.waitUntil(lambda: tab.banner_view.progress()[0] > done_before, timeout=30_000)   # it advances

    tab.banner.button.click()                  # Cancel
    qtbot.waitUntil(_workers_stopped, timeout=10_000)
    assert not tab.is_busy()
    assert "Beliefs not computed" in tab.banner.message()
    assert tab.banner.button.text() == "Compute"
    assert tab.controller.document.path == path and len(tab.controller.document.events) == n
    qtbot.wait(200)
    assert tab.controller.timeline is None                # nothing delivered after Cancel

    # still editable: an edit asks for the beliefs again (and clears the notice)
    tab.controller.document.remove_event(n - 1)
    assert len(tab.controller.document.events) == n - 1 and tab.is_busy()
    assert "Beliefs not computed" not in tab.banner.message()
    tab.cancel_computation()
    qtbot.waitUntil(_workers_stopped, timeout=10_000)


def test_cluedo_custom_deck_10_players_shows_progress_and_cancels(window, qtbot, tmp_path):
    path = bench.cluedo_file(str(tmp_path))
    assert window.open_path(path, ask=False)
    tab = window.tab_for("cluedo")
    qtbot.waitUntil(lambda: tab.banner.message().startswith("Computing the beliefs"),
                    timeout=30_000)
    assert tab.banner.button.text() == "Cancel"
    tab.banner.button.click()
    qtbot.waitUntil(_workers_stopped, timeout=10_000)
    assert "Beliefs not computed" in tab.banner.message()
    # nothing of the tab says it is computing while nothing computes
    from PySide6.QtWidgets import QLabel

    saying = [w.text() for w in tab.findChildren(QLabel) if "computing" in w.text().lower()]
    assert saying == [], saying
    assert "not computed" in tab.deals_label.text()
    # no line of the game open before stands for this one (its cards are S0…, W0…, R0…)
    for plot in tab.log_plots():
        assert plot.series() == {} and not plot.legend.isVisible()
    tab.banner.button.click()                  # Compute: asks again
    assert tab.is_busy() and "Beliefs not computed" not in tab.banner.message()
    tab.cancel_computation()
    qtbot.waitUntil(_workers_stopped, timeout=10_000)
    assert len(tab.controller.document.events) == 7 and tab.controller.document.path == path


def test_timeline_reports_progress_per_prefix():
    import json

    from engines import game_module
    from engines.core.resources import resource_path
    from engines.core.schema import parse_session
    from engines.core.timeline import Timeline

    data = parse_session(json.loads(resource_path("examples", "spyfall.json")
                                    .read_text(encoding="utf-8")))
    seen = []
    tl = Timeline(game_module("spyfall"), data.setup)
    res = tl.compute(data.events, progress=lambda d, t: seen.append((d, t)))
    n = len(data.events)
    assert res.is_full and len(res.posteriors) == n + 1
    assert seen == [(k, n + 1) for k in range(1, n + 2)]
    seen.clear()
    Timeline(game_module("spyfall"), data.setup).compute(
        data.events, full=False, progress=lambda d, t: seen.append((d, t)))
    assert seen == [(1, 1)]


def test_open_in_background_reads_the_file_off_the_gui_thread(window, qtbot, tmp_path,
                                                              monkeypatch):
    """The menus' open: the file is read and checked on a pool thread, the tab shows it when
    done; a bad file gets the message and changes nothing."""
    import threading

    import desktop.storage.document

    gui = threading.get_ident()
    readers = []
    real = desktop.storage.document.open_session_file_stamped

    def recording(path):
        readers.append(threading.get_ident())
        return real(path)

    monkeypatch.setattr(desktop.storage.document, "open_session_file_stamped", recording)
    path = bench.spyfall_file(str(tmp_path), 200)
    window.open_path_in_background(path, ask=False)
    assert "Opening spyfall-200.json" in window.statusBar().currentMessage()
    qtbot.waitUntil(lambda: window.tab_for("spyfall").controller.document.path == path, timeout=30_000)
    assert readers and gui not in readers
    qtbot.waitUntil(lambda: window._pending_open is None, timeout=30_000)   # the front in a later turn
    tab = window.tab_for("spyfall")
    n = len(tab.controller.document.events)
    assert n == 205 and window.tabs.currentWidget().game == "spyfall"

    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "deduction-desk.session", "version": 1, "game": "spyfall", '
                   '"setup": {"players": ["A"]}, "events": []}', encoding="utf-8")
    errors = []
    monkeypatch.setattr(window, "_error", lambda title, text: errors.append(text))
    window.open_path_in_background(str(bad), ask=False)
    qtbot.waitUntil(lambda: bool(errors), timeout=30_000)
    assert "$.setup" in errors[0]
    assert tab.controller.document.path == path and len(tab.controller.document.events) == n   # nothing changed
    assert wait_idle(window, 60)


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="Linux's scheduler statistics")
def test_the_benchmarks_scheduler_statistics_count_the_threads_own_run_time():
    import os
    import threading

    fd = os.open(f"/proc/self/task/{threading.get_native_id()}/schedstat", os.O_RDONLY)
    try:
        ran0, waited0 = bench.read_schedstat(fd)
        cpu0 = time.thread_time()
        while time.thread_time() - cpu0 < 0.05:     # 50 ms of this thread's CPU
            pass
        ran1, waited1 = bench.read_schedstat(fd)
        burned = time.thread_time() - cpu0
    finally:
        os.close(fd)
    assert waited1 >= waited0
    assert 0.8 * burned <= ran1 - ran0 <= burned + 0.05
