"""The GUI thread's time kept short: size hints computed in Python once per change
(desktop/widgets/hint_cache.py), every job paused while the GUI thread holds the worker gate
(a session shown in its tab, and every paint of the window), and a tab's ranking allowed to start once the worksheet is
painted rather than after the whole snapshot is drawn (desktop/tabs/jobs.py)."""
import time

from PySide6.QtCore import QEvent, QObject, QSize
from PySide6.QtWidgets import QApplication, QLabel, QVBoxLayout, QWidget

from desktop.tabs.jobs import MAX_GATE_SECONDS, JobRunner, Priority, PriorityGroup, worker_gate
from desktop.widgets.hint_cache import HintCache
from desktop.widgets.side_panes import SidePanes
from desktop.widgets.vscroll import VerticalScroll


def test_a_hint_is_kept_across_painting_and_computed_again_after_a_layout_request():
    cache = HintCache()
    made = []

    def compute():
        made.append(1)
        return QSize(10 * len(made), 5)

    assert cache.get("min", compute) == QSize(10, 5)
    got = cache.get("min", compute)
    got.setWidth(999)                                # a caller's change is not the cache's
    assert cache.get("min", compute) == QSize(10, 5) and len(made) == 1
    for kind in (QEvent.Type.Paint, QEvent.Type.Timer, QEvent.Type.MouseMove, QEvent.Type.Move):
        cache.seen(QEvent(kind))
    assert cache.get("min", compute) == QSize(10, 5) and len(made) == 1
    cache.seen(QEvent(QEvent.Type.LayoutRequest))
    assert cache.get("min", compute) == QSize(20, 5) and len(made) == 2
    cache.seen(QEvent(QEvent.Type.FontChange))
    assert cache.get("min", compute) == QSize(30, 5)
    assert (cache.hits, cache.misses) == (3, 3)


def _grow(label: QLabel, text: str, app) -> None:
    label.setText(text)
    for _ in range(5):
        app.processEvents()


def test_side_panes_and_scroll_areas_follow_their_content_with_hints_kept(qtbot):
    """A pane's content grows (a longer unbreakable line): the scroll area's and the splitter's
    minimum widths grow with it, as without the cache; asked again with nothing changed they are
    answered from the cache."""
    app = QApplication.instance()
    main = QLabel("main view")
    content = QWidget()
    QVBoxLayout(content).addWidget(label := QLabel("short"))
    area = VerticalScroll(content)
    panes = SidePanes()
    panes.addWidget(main)
    panes.add_pane(area, "Pane")
    qtbot.addWidget(panes)
    panes.resize(1200, 400)
    panes.show()
    qtbot.waitExposed(panes)
    _grow(label, "short", app)
    before_area, before_panes = area.minimumSizeHint().width(), panes.width_side_by_side()
    hits = area._hints.hits
    for _ in range(10):
        assert area.minimumSizeHint().width() == before_area
    assert area._hints.hits >= hits + 10
    _grow(label, "W" * 120, app)
    assert area.minimumSizeHint().width() > before_area + 500
    assert area.minimumSizeHint().width() == (area._content_width()
                                              + area.verticalScrollBar().sizeHint().width()
                                              + 2 * area.frameWidth())
    assert panes.width_side_by_side() > before_panes + 500
    assert panes.width_side_by_side() == panes._width_side_by_side()


def test_every_job_waits_while_the_gui_thread_holds_the_gate(qtbot):
    """A beliefs job (the most urgent level) started while the gate is held runs only after its
    release; a hold never released stops nothing for longer than MAX_GATE_SECONDS."""
    runner = JobRunner(name="beliefs", group=PriorityGroup(), priority=Priority.BELIEFS)
    ran = []
    hold = worker_gate.hold()
    t_hold = time.monotonic()
    runner.submit(lambda task: task() or ran.append(time.monotonic()) or "done")
    qtbot.wait(150)
    assert ran == []
    t_release = time.monotonic()
    hold.release()
    hold.release()                       # a second release does nothing
    with qtbot.waitSignal(runner.resultReady, timeout=5000):
        pass
    assert ran and ran[0] >= t_release and ran[0] - t_hold < 2
    forgotten = worker_gate.hold()
    t0 = time.monotonic()
    runner.submit(lambda task: task() or ran.append(time.monotonic()) or "done")
    with qtbot.waitSignal(runner.resultReady, timeout=5000):
        pass
    assert MAX_GATE_SECONDS - 0.05 <= ran[-1] - t0 < MAX_GATE_SECONDS + 1.5
    forgotten.release()
    runner.shutdown()


def test_every_paint_of_the_window_holds_the_gate(window, qtbot):
    """A widget of the window is painted with the worker gate held (the window's UpdateRequest),
    and the gate is free again once the paint is done."""
    seen = []

    class Probe(QLabel):
        def paintEvent(self, event):  # noqa: N802
            seen.append(worker_gate.closed())
            super().paintEvent(event)

    probe = Probe("probe")
    window.statusBar().addPermanentWidget(probe)   # never hidden by a message
    window.show()
    qtbot.waitExposed(window)
    qtbot.waitUntil(lambda: bool(seen), timeout=5000)
    seen.clear()
    probe.update()
    qtbot.waitUntil(lambda: bool(seen), timeout=5000)
    assert seen == [True]
    assert not worker_gate.closed()


def test_the_plot_and_the_tab_order_walk_hold_the_gate(window, qtbot, monkeypatch):
    """Drawing a tab's plot (pyqtgraph's Python) and walking its widgets for the Tab order are
    the GUI thread's own long Python work: jobs pause at their next poll meanwhile, as for a
    paint, and the gate is free again after."""
    import desktop.tabs.base as base

    tab = window.tab_for("cluedo")
    qtbot.waitUntil(lambda: not tab.is_busy(), timeout=20000)
    seen = []
    monkeypatch.setattr(tab, "_draw_plot", lambda snap: seen.append(("plot", worker_gate.closed())))
    monkeypatch.setattr(base, "follow_layout", lambda w: seen.append(("order", worker_gate.closed())))
    tab._plot_due = tab._snapshot
    tab._draw_due_plot()
    tab._follow_layout_now()
    assert seen == [("plot", True), ("order", True)]
    assert not worker_gate.closed()


def test_the_tab_order_walk_waits_for_a_file_s_turns_without_a_wake_up_each_millisecond(
        window, qtbot, monkeypatch):
    """While a file's opening turns hold the gate, the Tab order's walk is put off and looked
    at again every GATE_RETRY_MS (a retry every millisecond woke the GUI thread throughout an
    open), then done once the gate is open."""
    import desktop.tabs.base as base

    tab = window.tab_for("cluedo")
    qtbot.waitUntil(lambda: not tab.is_busy(), timeout=20000)
    calls, walks = [], []
    real = tab._follow_layout_now

    def counted():
        calls.append(time.monotonic())
        real()

    monkeypatch.setattr(tab, "_follow_layout_now", counted)
    monkeypatch.setattr(base, "follow_layout", lambda w: walks.append(1))
    hold = worker_gate.hold()
    try:
        counted()
        t0 = time.monotonic()
        while time.monotonic() - t0 < 0.1:
            QApplication.processEvents()
            time.sleep(0.001)
    finally:
        hold.release()
    assert not walks and 2 <= len(calls) <= 0.1 * 1000 / base.GATE_RETRY_MS + 2
    qtbot.waitUntil(lambda: bool(walks), timeout=2000)
    assert walks == [1]


def test_the_ranking_may_start_once_the_worksheet_is_painted(window, qtbot, monkeypatch):
    """While a snapshot is drawn, the tab's ranking level waits until the tab says the beliefs
    views are painted (``beliefs_shown``), not until every pane is drawn."""
    from cluedo_game_log import classic_setup, random_log

    tab = window.tab_for("cluedo")
    window.select_game("cluedo")
    controller = tab.controller
    seen = []
    real_beside = type(tab).show_beside_posterior

    def beside(self, snap):
        # drawn after the worksheet: the beliefs level is no longer held by the render
        seen.append(controller.priorities.urgent_pending(Priority.RANKING))
        return real_beside(self, snap)

    monkeypatch.setattr(type(tab), "show_beside_posterior", beside)
    setup = classic_setup(("Me", "Ann", "Bob"))
    tab.reset_document(setup, random_log(setup, 2, seed=5))
    qtbot.waitUntil(lambda: bool(seen), timeout=30000)
    assert seen and not any(seen)


def _open_sampling_each_turn(window, qtbot, path, sample) -> None:
    """File → Open ``path`` in the background, ``sample()`` called by a 1 ms timer in the
    turns of the event loop until the open has ended and the jobs run again."""
    from PySide6.QtCore import QTimer

    timer = QTimer()
    timer.setInterval(1)
    timer.timeout.connect(sample)
    timer.start()
    window.open_path_in_background(str(path), ask=False)
    qtbot.waitUntil(lambda: window._pending_open is None and not worker_gate._holds, timeout=20000)
    timer.stop()


def test_opening_a_file_in_the_background_shows_it_in_turns(window, qtbot, tmp_path):
    """File → Open's reading done, the session goes into its tab, the tab comes to the front, and
    the recent files list gets it, in separate turns of the event loop, with the jobs held only
    meanwhile; the open counts as pending until the last turn."""
    import json

    from engines.core.resources import resource_path

    d = json.loads(resource_path("examples", "inkognito.json").read_text(encoding="utf-8"))
    path = tmp_path / "inkognito.json"
    path.write_text(json.dumps(d), encoding="utf-8")
    window.select_game("cluedo")
    states = []

    def tick():
        shown = window._shown_tab()
        states.append((window._pending_open is not None,
                       shown is not None and shown.GAME == "inkognito", bool(worker_gate._holds)))

    _open_sampling_each_turn(window, qtbot, path, tick)
    assert window.current_tab().GAME == "inkognito"
    assert str(path) in window.recent_files()
    # a turn was seen with the session loaded but its tab not yet in front, the open pending
    # and the jobs held
    assert (True, False, True) in states
    assert (True, True, True) in states            # in front, the recent files still to come


def test_a_file_for_a_tab_not_built_builds_it_in_a_turn_of_its_own(window, qtbot, tmp_path):
    """Opening a session of a game whose tab is not built yet: the tab is built in one turn of
    the event loop and the session put into it in a later one."""
    import json
    import os

    from engines.core.resources import resource_path

    d = json.loads(resource_path("examples", "inkognito.json").read_text(encoding="utf-8"))
    path = tmp_path / "inkognito.json"
    path.write_text(json.dumps(d), encoding="utf-8")
    assert "inkognito" not in window.game_tabs
    states = []

    def tick():
        tab = window.game_tabs.get("inkognito")
        states.append((tab is not None,
                       tab is not None and tab.controller.document.path == os.path.abspath(path)))

    prepared = []
    real_steps = window.off_screen_steps

    def steps(game):
        prepared.append((game, window.game_tabs[game].controller.document.path == os.path.abspath(path),
                         window.current_tab().GAME))
        return [lambda step=step: (prepared.append(window.current_tab().GAME), step())
                for step in real_steps(game)]

    window.off_screen_steps = steps
    _open_sampling_each_turn(window, qtbot, path, tick)
    del window.off_screen_steps
    assert (True, False) in states and states[-1] == (True, True)
    # drawn off screen with its session, in three steps, before it came to the front
    assert len(prepared) == 4 and prepared[0][:2] == ("inkognito", True)
    assert "inkognito" not in (prepared[0][2], *prepared[1:])
    assert window.current_tab().GAME == "inkognito"


def test_a_tab_built_in_parts_is_the_tab_built_at_once(qapp):
    """GameTab(staged=True) builds a part per build_step(); once built it holds the same
    controls as a tab built at once."""
    from collections import Counter

    from PySide6.QtWidgets import QWidget

    from desktop.shell.tab_pages import tab_class

    for game in ("cluedo", "spyfall"):
        cls = tab_class(game)
        whole = cls()
        staged = cls(staged=True)
        assert not staged.built and whole.built
        steps = 0
        while staged.build_step():
            steps += 1
        assert staged.built and steps >= 4 and not staged.build_step()

        def kinds(tab):
            return Counter(type(w).__name__ for w in tab.findChildren(QWidget))

        assert kinds(staged) == kinds(whole)
        for tab in (whole, staged):
            tab.controller.shutdown()
            tab.deleteLater()


def test_the_window_builds_a_tab_in_turns_and_tab_for_finishes_it(window, qtbot):
    """build_tab_in_turns builds a part per turn of the event loop (a 1 ms timer ticks between
    them) and then calls back; tab_for() during such a build finishes it at once."""
    from PySide6.QtCore import QTimer

    ticks, done = [], []
    timer = QTimer()
    timer.setInterval(1)
    timer.timeout.connect(lambda: ticks.append(window._partial.get("inkognito") is not None))
    timer.start()
    window.build_tab_in_turns("inkognito", lambda: done.append("inkognito" in window.game_tabs))
    assert "inkognito" not in window.game_tabs and not window.is_idle()
    qtbot.waitUntil(lambda: bool(done), timeout=20000)
    timer.stop()
    assert done == [True] and ticks.count(True) >= 3      # ticks between the parts
    window.build_tab_in_turns("guesswho")
    assert "guesswho" in window._partial
    tab = window.tab_for("guesswho")                      # needed now: built at once
    assert tab is not None and tab.built and not window._partial
    assert window.game_tabs["guesswho"] is tab


def test_a_result_is_delivered_with_the_gate_held(qtbot):
    """What the GUI thread does with a job's result (or partial result, or error) runs with
    every job paused: the gate is held while the signal's slots run, and free after."""
    runner = JobRunner(name="beliefs", group=PriorityGroup(), priority=Priority.BELIEFS)
    seen = []
    runner.resultReady.connect(lambda *_a: seen.append(("result", worker_gate.closed())))
    runner.partialResult.connect(lambda *_a: seen.append(("partial", worker_gate.closed())))
    runner.failed.connect(lambda *_a: seen.append(("failed", worker_gate.closed())))

    def job(task):
        task.publish("half")
        return "whole"

    with qtbot.waitSignal(runner.resultReady, timeout=5000):
        runner.submit(job)
    from engines.core.errors import EngineError

    def failing(task):
        raise EngineError("no")

    with qtbot.waitSignal(runner.failed, timeout=5000):
        runner.submit(failing)
    assert seen == [("partial", True), ("result", True), ("failed", True)]
    assert not worker_gate.closed()
    runner.shutdown()


def _event_spy(kind, seen: list, what=lambda obj: obj):
    """An event filter that appends ``what(obj)`` to ``seen`` for each event of type ``kind``
    that an object it is installed on receives."""

    class Spy(QObject):
        def eventFilter(self, obj, event):  # noqa: N802 (Qt's name)
            if event.type() == kind:
                seen.append(what(obj))
            return False

    return Spy()


def _paint_log():
    """An event filter whose ``log`` records each paint of the widgets it is installed on, as
    the widget's size then (``(width, height)``); tests add their own markers to it."""
    log = []
    spy = _event_spy(QEvent.Type.Paint, log, lambda obj: obj.size().toTuple())
    spy.log = log
    return spy


def _draw_off_screen(window, game: str) -> None:
    for step in window.off_screen_steps(game):
        step()


def test_a_tab_not_in_front_is_drawn_off_screen_at_the_size_it_will_have(window, qtbot):
    """off_screen_steps draw a tab that is not in front, laid out at the size of the page in
    front (a hidden page of the stack keeps its own size, and its layout sets the tab to it),
    shown before or not; the tab in front is not drawn again."""
    from desktop.widgets.side_panes import SidePanes

    window.select_game("cluedo")
    tab = window.tab_for("egghead")
    panes = tab.findChild(SidePanes)
    seen = _paint_log()
    tab.installEventFilter(seen)
    _draw_off_screen(window, "egghead")
    front = window.tabs.currentWidget().size().toTuple()
    assert len(seen.log) == 3 and set(seen.log) == {front}   # laid out, left, right
    assert tab.size().toTuple() == front
    assert panes.width() > front[0] - 40                 # its layout made for that size
    _draw_off_screen(window, "cluedo")                     # in front
    assert len(seen.log) == 3
    window.select_game("egghead")
    qtbot.waitUntil(tab.isVisible, timeout=5000)
    qtbot.wait(50)
    seen.log.clear()
    _draw_off_screen(window, "egghead")                    # in front now
    assert seen.log == []
    window.select_game("cluedo")
    _draw_off_screen(window, "egghead")                    # shown before, not in front
    assert set(seen.log) == {window.tabs.currentWidget().size().toTuple()}
    tab.removeEventFilter(seen)


def test_a_paint_put_off_comes_in_a_turn_of_its_own(window, qtbot):
    """paint_next_turn: the window's next paint waits for a turn of the event loop of its own
    (a timer already due runs first), then paints what was dirty."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    qtbot.waitUntil(lambda: window.isVisible(), timeout=5000)
    qtbot.wait(50)
    bar = window.statusBar()
    paints = _paint_log()
    bar.installEventFilter(paints)
    due = QTimer()
    due.setSingleShot(True)
    due.timeout.connect(lambda: paints.log.append("timer"))
    due.start(0)
    qtbot.wait(5)                        # the timer is due, not yet run
    paints.log.clear()
    due.start(0)
    window.paint_next_turn()
    bar.update()
    QApplication.processEvents()         # the posted paint request: put off
    def painted():
        return [i for i, entry in enumerate(paints.log) if entry != "timer"]

    assert not painted()
    qtbot.waitUntil(lambda: bool(painted()), timeout=2000)
    assert paints.log.index("timer") < painted()[0]
    bar.removeEventFilter(paints)


def test_views_painted_now_are_painted_in_one_pass_of_the_window(window, qtbot):
    """A tab's views painted at once (a Guess Who board whose cards all changed) are painted
    in one synchronous update of the window, not one update each: every view is painted
    before the call returns, and the window saw one update request."""
    tab = window.tab_for("cluedo")                 # the tab in front
    window.show()
    qtbot.waitExposed(window)
    painted = []

    class Probe(QLabel):
        def paintEvent(self, event):  # noqa: N802
            painted.append(self)
            super().paintEvent(event)

    holder = QWidget()
    column = QVBoxLayout(holder)
    probes = [Probe(f"card {i}") for i in range(6)]
    for p in probes:
        column.addWidget(p)
    window.statusBar().addPermanentWidget(holder)
    qtbot.waitUntil(lambda: set(probes) <= set(painted), timeout=5000)
    requests = []
    spy = _event_spy(QEvent.Type.UpdateRequest, requests)
    window.installEventFilter(spy)
    try:
        painted.clear()
        tab._paint_now(probes)
        assert set(painted) == set(probes)          # all painted before the call returned
        assert requests == [window]
    finally:
        window.removeEventFilter(spy)


def test_beliefs_that_move_the_panes_are_painted_once_where_they_end_in_a_turn_of_their_own(
        window, qtbot):
    """The beliefs arrive and the progress banner goes: the layout is done at once, and the
    worksheet, moved up, is painted where it ends in a turn of its own right after the
    delivery's. Laid out after the delivery, it was painted where it had been, moved, and
    painted again, all in the delivery's turn."""
    from PySide6.QtCore import QPoint

    from desktop.tabs.banner_state import BannerState

    tab = window.tab_for("cluedo")
    window.show()
    qtbot.waitExposed(window)
    qtbot.waitUntil(lambda: not tab.is_busy() and tab._snapshot.posterior is not None, timeout=20000)
    tab.banner_view._show(BannerState.PROGRESS, "Computing the beliefs…", "info")
    qtbot.waitUntil(lambda: tab.banner.isVisible(), timeout=5000)
    for _ in range(5):
        QApplication.processEvents()
    shown_at = tab.sheet.mapTo(tab, QPoint(0, 0))
    painted_at = []
    spy = _event_spy(QEvent.Type.Paint, painted_at, lambda _obj: tab.sheet.mapTo(tab, QPoint(0, 0)))
    tab.sheet.viewport().installEventFilter(spy)
    try:
        tab._render(tab._snapshot, force=True)       # not busy: the banner goes
        in_delivery = list(painted_at)
        final = tab.sheet.mapTo(tab, QPoint(0, 0))   # laid out already
        qtbot.waitUntil(lambda: bool(painted_at), timeout=5000)
        for _ in range(5):
            QApplication.processEvents()
    finally:
        tab.sheet.viewport().removeEventFilter(spy)
    assert not tab.banner.isVisible() and final.y() < shown_at.y()
    assert tab.sheet.mapTo(tab, QPoint(0, 0)) == final
    assert in_delivery == []
    assert painted_at and all(p == final for p in painted_at)


def test_a_file_opened_into_the_tab_in_front_is_painted_in_a_turn_after_its_load(
        window, qtbot, monkeypatch, tmp_path):
    """Opening a session of the game in front: the session goes into the tab in one turn of
    the event loop and the tab is painted in a later one, not in the same (the largest
    Spyfall table's load and paint were one turn of 50-60 ms)."""
    import json

    from engines.core.resources import resource_path

    d = json.loads(resource_path("examples", "cluedo.json").read_text(encoding="utf-8"))
    path = tmp_path / "cluedo.json"
    path.write_text(json.dumps(d), encoding="utf-8")
    tab = window.tab_for("cluedo")
    window.select_game("cluedo")
    window.show()
    qtbot.waitExposed(window)
    qtbot.waitUntil(lambda: not tab.is_busy(), timeout=20000)
    painted = []
    spy = _event_spy(QEvent.Type.Paint, painted)
    tab.sheet.viewport().installEventFilter(spy)
    in_load_turn = []
    load = window._load_opened

    def loaded(*args, **kwargs):
        ok = load(*args, **kwargs)
        QApplication.sendPostedEvents()    # what the event loop delivers next in this pass
        in_load_turn.append(len(painted))
        return ok

    monkeypatch.setattr(window, "_load_opened", loaded)
    try:
        window.open_path_in_background(str(path), ask=False)
        qtbot.waitUntil(lambda: window._pending_open is None and bool(painted), timeout=20000)
    finally:
        tab.sheet.viewport().removeEventFilter(spy)
    assert in_load_turn == [0]
    assert tab.controller.document.path == str(path)


def test_a_staged_tab_makes_its_engine_and_its_plot_in_turns_of_their_own(qtbot):
    """A tab built in turns does nothing when made; its first part imports the engine and makes
    the controller, the next the History and the plot (the first tab's imports and its plot
    were one 32-45 ms turn with the rest of the first part)."""
    from desktop.games.inkognito.tab import Tab

    tab = Tab(staged=True)
    qtbot.addWidget(tab)
    assert not hasattr(tab, "controller") and not tab.built
    assert tab.build_step() and hasattr(tab, "controller") and not hasattr(tab, "plot")
    assert tab.build_step() and hasattr(tab, "plot") and not hasattr(tab, "banner")
    tab.finish_build()
    assert tab.built and hasattr(tab, "banner")
