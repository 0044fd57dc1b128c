"""From Enter to the worksheet (desktop/tabs/jobs.py, desktop/tabs/checks.py, desktop/tabs/base.py,
desktop/shell/process.py): a line that parses is checked while it is typed, so Enter logs it without a
trip through the thread pool; the tab's less urgent jobs stay paused while an urgent result is
delivered; the worksheet is painted while the new beliefs are rendered, before the tab's other
panes; the garbage collector waits while urgent work is pending."""
import threading

from PySide6.QtCore import QEvent, QObject, Qt
from window_idle import wait_idle

from desktop.shell import process
from desktop.tabs.jobs import JobRunner, Priority, PriorityGroup, urgent_work_pending

UK = {"edition": "cluedo-uk", "players": ["Me", "Ann", "Bob", "Cy"], "me": "Me"}


def test_less_urgent_jobs_wait_while_an_urgent_result_is_delivered(qtbot):
    """While the beliefs runner's result is handled on the GUI thread, its group counts it
    as pending: a ranking job submitted by the handler starts only after the handler returns."""
    group = PriorityGroup()
    beliefs = JobRunner(name="beliefs", group=group, priority=Priority.BELIEFS)
    ranking = JobRunner(name="ranking", group=group, priority=Priority.RANKING)
    seen = {}
    handler_done = threading.Event()
    started = threading.Event()

    def ranking_job(task):
        task()                                  # a job's first poll, as _Task._run's
        seen["handler done when the ranking ran"] = handler_done.is_set()
        started.set()
        return "ranking"

    def on_beliefs(_rev, _result, _secs):
        seen["busy flag"] = beliefs.is_busy()
        seen["urgent during delivery"] = group.urgent_pending(Priority.RANKING)
        seen["app-wide urgent"] = urgent_work_pending()
        ranking.submit(ranking_job)
        started.wait(0.3)                       # the ranking job would have run by now
        handler_done.set()

    beliefs.resultReady.connect(on_beliefs)
    with qtbot.waitSignal(ranking.resultReady, timeout=5000):
        beliefs.submit(lambda task: "beliefs")
    assert seen == {"busy flag": False, "urgent during delivery": True, "app-wide urgent": True,
                    "handler done when the ranking ran": True}
    assert not group.urgent_pending(Priority.RANKING)
    for r in (beliefs, ranking):
        r.shutdown()


def test_garbage_collection_waits_for_urgent_work(monkeypatch, qtbot):
    """A collection due while a tab's beliefs or ranking are pending is put off (at most
    GC_MAX_DEFERRALS ticks in a row), then made."""
    collected = []
    monkeypatch.setattr(process.gc, "collect", lambda gen=2: collected.append(gen))
    monkeypatch.setattr(process.gc, "get_count", lambda: (10**6, 0, 0))
    collector = process.GuiThreadCollector(interval_ms=10_000)
    group = PriorityGroup()
    group.set_busy(Priority.BELIEFS, True)
    try:
        for _ in range(process.GC_MAX_DEFERRALS):
            collector.check()
        assert collected == []
        collector.check()                       # waited long enough: collected anyway
        assert collected == [0]
        group.set_busy(Priority.BELIEFS, False)
        collector.check()
        assert collected == [0, 0]
        group.set_busy(Priority.RANKING, True)      # the next move's ranking: put off too
        collector.check()
        assert collected == [0, 0]
        group.set_busy(Priority.RANKING, False)
        group.set_busy(Priority.ADVICE, True)       # less urgent work: collected at once
        collector.check()
        assert collected == [0, 0, 0]
        group.set_busy(Priority.ADVICE, False)
    finally:
        collector._timer.stop()
        if process._collector is None:      # the session's own collector keeps gc off
            process.gc.enable()


def _cluedo_tab(window, qtbot):
    window.select_game("cluedo")
    tab = window.tab_for("cluedo")
    from engines import cluedo
    setup = cluedo.Setup.from_json(UK, "$")
    tab.reset_document(setup, [])
    assert wait_idle(window, 60)
    return tab


def test_a_typed_line_is_checked_before_enter(window, qtbot):
    """Typing a whole line checks it in the background (the posterior of the log plus the line
    is cached); Enter then logs it at once, with no check job."""
    tab = _cluedo_tab(window, qtbot)
    checks = tab.controller.checks
    qe = tab.quick_entry
    qe.focus()
    events = tuple(tab.controller.document.events)
    qtbot.keyClicks(qe.line, "Ann: plum rope hall; cy")
    qe.completer.popup().hide()
    event = qe.parse()
    tl = tab.controller.current_timeline()
    qtbot.waitUntil(lambda: tl.accepts_cached(events, event), timeout=10_000)
    submitted = []
    checks.runner.submit = lambda *a, **k: submitted.append(a)
    qtbot.keyClick(qe.line, Qt.Key_Return)
    assert submitted == []
    assert tab.controller.document.events[-1] == event          # logged by the key press itself
    assert wait_idle(window, 60)


def test_a_refused_line_is_not_logged_by_its_early_check(window, qtbot):
    """The early check only caches: a line that contradicts the log is still refused at
    Enter, with the engine's reason, and nothing is logged."""
    from engines import cluedo
    tab = _cluedo_tab(window, qtbot)
    tab.log_event(cluedo.parse(tab.controller.document.setup, [],
                               "me hand: scarlett, rope, hall, kitchen, plum"))
    assert wait_idle(window, 60)
    qe = tab.quick_entry
    qe.focus()
    qtbot.keyClicks(qe.line, "Ann has scarlett")
    qe.completer.popup().hide()
    qtbot.wait(300)                     # the early check has run
    qtbot.keyClick(qe.line, Qt.Key_Return)
    assert wait_idle(window, 60)
    assert len(tab.controller.document.events) == 1
    assert "you hold it" in qe.message()


class _PaintLog(QObject):
    def __init__(self, tab):
        super().__init__()
        self.tab = tab
        self.ready_paints = 0

    def eventFilter(self, obj, ev):  # noqa: N802 (Qt name)
        snap = self.tab.snapshot
        if ev.type() == QEvent.Paint and snap.posterior is not None \
                and snap.n == len(self.tab.controller.document.events):
            self.ready_paints += 1
        return False


def test_the_worksheet_is_painted_while_the_beliefs_are_rendered(window, qtbot):
    """When the READY snapshot of a new entry reaches the tab, its worksheet is painted before
    the snapshot's later receivers run (before the event loop's next pass)."""
    tab = _cluedo_tab(window, qtbot)
    log = _PaintLog(tab)
    tab.sheet.viewport().installEventFilter(log)
    seen = []

    def after_tab(snap):
        if snap.posterior is not None and snap.n == len(tab.controller.document.events) and snap.n:
            seen.append(log.ready_paints)

    tab.controller.snapshotChanged.connect(after_tab)   # connected after the tab's own
    qe = tab.quick_entry
    qe.focus()
    qtbot.keyClicks(qe.line, "Ann: plum rope hall; cy")
    qe.completer.popup().hide()
    qtbot.keyClick(qe.line, Qt.Key_Return)
    assert wait_idle(window, 60)
    tab.controller.snapshotChanged.disconnect(after_tab)
    assert seen and seen[0] >= 1


def test_a_snapshot_is_rendered_with_the_tabs_less_urgent_jobs_paused(window, qtbot):
    """While a published snapshot reaches the views, the tab's group counts urgent work as
    pending (its ranking and advice jobs wait at their next poll); afterwards it does not."""
    tab = _cluedo_tab(window, qtbot)
    pr = tab.controller.priorities
    during = []
    tab.controller.snapshotChanged.connect(
        lambda _snap: during.append(pr.urgent_pending(Priority.RANKING)))
    tab.controller.select(-1)                  # publishes the snapshot again
    assert during == [True]
    assert wait_idle(window, 60)
    assert not pr.urgent_pending(Priority.RANKING)


def test_the_plot_waits_for_the_ranking_and_follows_it_at_once(window, qtbot, monkeypatch):
    """A new timeline's plot is not drawn while the tab's ranking is pending; it is drawn as
    soon as the ranking ends (not at the PLOT_WAIT_S fallback)."""
    tab = _cluedo_tab(window, qtbot)
    drawn = []
    monkeypatch.setattr(tab.plot, "set_series", lambda series: drawn.append(series))
    pr = tab.controller.priorities
    pr.set_busy(Priority.RANKING, True)
    try:
        tab._render(tab.controller.snapshot, force=True)
        qtbot.wait(150)
        assert drawn == []
    finally:
        pr.set_busy(Priority.RANKING, False)
    assert tab.PLOT_WAIT_S >= 0.8
    qtbot.waitUntil(lambda: len(drawn) == 1, timeout=400)


def test_the_who_is_close_plot_waits_for_the_ranking(window, qtbot, monkeypatch):
    """The "Who is close?" plot's timer that fires while the tab's ranking is pending draws
    nothing then; the plot is drawn as soon as the ranking ends."""
    tab = _cluedo_tab(window, qtbot)
    drawn = []
    monkeypatch.setattr(tab.who_pane, "show_series", lambda *a: drawn.append(a))
    pr = tab.controller.priorities
    pr.set_busy(Priority.RANKING, True)
    try:
        tab._update_knows_plot()
        qtbot.wait(20)
        assert drawn == []
    finally:
        pr.set_busy(Priority.RANKING, False)
    qtbot.waitUntil(lambda: len(drawn) == 1, timeout=400)
