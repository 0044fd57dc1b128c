"""The app at the engines' speed: a tab's tasks by priority (the beliefs, then the ranking, then
advice, then plots and back-fills; desktop/tabs/jobs.py), no sampled ranking stage where the
exact one fits (the classic Cluedo deck), and the ranking computed once per prefix and shared by
the Board page's turn advice (desktop/games/cluedo/ranking.py)."""
import importlib
import threading
import time

import pytest
from cluedo_game_log import classic_setup, quick_lines, random_log
from PySide6.QtCore import Qt
from window_idle import wait_idle

from desktop.games.cluedo import ranking as shared
from desktop.tabs.jobs import JobRunner, Priority, PriorityGroup

RECOMMEND = importlib.import_module("engines.cluedo.recommend")


# -- the scheduler ------------------------------------------------------------------------
def test_less_urgent_work_waits_for_more_urgent_work_of_its_tab(qtbot):
    """A ranking job submitted while the beliefs run starts only after they are delivered; an
    advice job already running stops at its next cancel poll while the beliefs run; a runner of
    another group is not held back."""
    group = PriorityGroup()
    beliefs = JobRunner(name="beliefs", group=group, priority=Priority.BELIEFS)
    ranking = JobRunner(name="ranking", group=group, priority=Priority.RANKING)
    advice = JobRunner(name="advice", group=group, priority=Priority.ADVICE)
    other = JobRunner(name="other tab", group=PriorityGroup(), priority=Priority.ADVICE)
    log = []
    go = threading.Event()
    advice_polls = []

    def advice_job(task):
        while not go.is_set() or len(advice_polls) < 3:
            if task():
                return None
            advice_polls.append(time.monotonic())
            time.sleep(0.005)
        log.append("advice")
        return "advice"

    times = {}

    def beliefs_job(task):
        log.append("beliefs start")
        t_end = time.monotonic() + 0.4
        while time.monotonic() < t_end:
            time.sleep(0.01)
        log.append("beliefs end")
        times["end"] = time.monotonic()
        return "beliefs"

    def ranking_job(task):
        log.append("ranking")
        return "ranking"

    def other_job(task):
        log.append("other")
        return "other"

    advice.submit(advice_job)
    qtbot.waitUntil(lambda: len(advice_polls) > 0, timeout=5000)
    times["submit"] = time.monotonic()
    beliefs.submit(beliefs_job)
    qtbot.waitUntil(lambda: "beliefs start" in log, timeout=5000)
    ranking.submit(ranking_job)
    other.submit(other_job)
    go.set()
    with qtbot.waitSignal(beliefs.resultReady, timeout=5000):
        pass
    qtbot.waitUntil(lambda: "advice" in log and "ranking" in log, timeout=5000)
    assert log.index("other") < log.index("beliefs end")          # another tab: not held
    assert log.index("beliefs end") < log.index("ranking")
    assert log.index("beliefs end") < log.index("advice")
    # the running advice job was held at its polls while the beliefs ran
    during = [t for t in advice_polls if times["submit"] + 0.05 < t < times["end"]]
    assert during == [] and group.pauses >= 2
    assert advice_polls[-1] > times["end"]
    for r in (beliefs, ranking, advice, other):
        r.shutdown()


def test_a_paused_job_still_stops_when_cancelled(qtbot):
    group = PriorityGroup()
    beliefs = JobRunner(name="beliefs", group=group, priority=Priority.BELIEFS)
    low = JobRunner(name="plots", group=group, priority=Priority.BACKGROUND)
    release = threading.Event()
    started = []
    beliefs.submit(lambda task: release.wait(5) and "done")
    low.submit(lambda task: started.append(1) or "low")
    time.sleep(0.2)
    low.cancel()
    release.set()
    with qtbot.waitSignal(beliefs.resultReady, timeout=5000):
        pass
    qtbot.wait(100)
    assert not started
    beliefs.shutdown()
    low.shutdown()


# -- the classic deck: exact at once, never a sampled stage ------------------------------
@pytest.mark.parametrize("players, ks", [(("Me", "Ann", "Bob"), (1, 4)),
                                         (("Me", "Ann", "Bob", "Cy", "Di", "Ed"), (1,))])
def test_the_classic_deck_never_publishes_a_sampled_ranking(players, ks):
    """Once my hand is logged, every classic ranking is exact at once (before it, six players'
    empty log is estimated at 3.7e9 steps, above the budget: about 4 s of CPU counted at once)."""
    setup = classic_setup(players)
    events = random_log(setup, max(ks), seed=len(players))
    shared.clear()
    for k in ks:
        estimates = []
        rec = shared.ranking(setup, events[:k], on_estimate=estimates.append)
        assert estimates == []
        assert rec.accusation is not None or len(rec.exact) == len(rec.suggestions) == 324
        assert shared.cached_ranking(setup, events[:k]) is rec


def test_the_staged_ranking_publishes_its_estimate_first():
    """Where the exact ranking does not fit at once (forced here with ``at_once=False``), the
    estimate from the sampled deals is handed over before the exact values are counted."""
    setup = classic_setup()
    events = random_log(setup, 5, seed=3)
    estimates = []
    rec = RECOMMEND.recommend(setup, events, at_once=False, exact_top=2, opponents_seconds=0,
                              on_estimate=estimates.append)
    assert len(estimates) == 1 and not estimates[0].exact and estimates[0].samples > 0
    assert len(rec.exact) == 2


# -- the real tab ------------------------------------------------------------------------
def _enter(qtbot, tab, line: str) -> None:
    qe = tab.quick_entry
    qe.line.setFocus()
    qe.line.setText(line)
    qtbot.keyClick(qe.line, Qt.Key_Return)


def test_the_cluedo_tab_ranks_each_prefix_once_and_shares_it(window, qtbot, monkeypatch):
    """Logged by quick entry with my pawn in a room (so the Board page's turn advice runs for
    every prefix): one ``recommend`` per prefix — the ranking's, which the turn advice takes —
    no partial (sampled) ranking, every shown ranking exact, and the jobs' order follows the
    priorities."""
    calls = {}
    real = RECOMMEND.recommend

    def counting(setup, events=(), **kw):
        key = tuple(events)
        calls[key] = calls.get(key, 0) + 1
        return real(setup, events, **kw)

    monkeypatch.setattr(RECOMMEND, "recommend", counting)
    shared.clear()
    starts = []
    real_submit = JobRunner.submit

    def recording_submit(self, job, revision=None):
        name, level = self.objectName(), self.priority

        def recorded(task):
            t0 = time.monotonic()
            try:
                return job(task)
            finally:
                starts.append((name, level, t0, time.monotonic()))
        return real_submit(self, recorded, revision)

    monkeypatch.setattr(JobRunner, "submit", recording_submit)
    window.select_game("cluedo")
    tab = window.tab_for("cluedo")
    setup = classic_setup(("Me", "Ann", "Bob"))
    events = random_log(setup, 3, seed=11)
    tab.reset_document(setup, [])
    assert wait_idle(window, 60)
    partials = []
    tab.rec_runner.partialResult.connect(lambda *a: partials.append(a))
    tab.side_tabs.setCurrentWidget(tab.board_panel)
    window.set_details(True, remember=False)    # "value of rolling" is the Details view's
    lines = ["me at hall"] + quick_lines(setup, events)
    for line in lines:
        _enter(qtbot, tab, line)
        assert wait_idle(window, 60)
        qtbot.waitUntil(lambda: "value of rolling" in tab.board_panel.status.text()
                        or "Accuse" in tab.board_panel.moves.text(), timeout=60000)
        advice = tab.snapshot.advice_for("recommend")
        assert advice is not None and advice.final
        assert "≈" not in tab.rec_note.text()
    assert len(tab.controller.document.events) == len(lines)
    assert partials == []
    logged = tuple(tab.controller.document.events)
    for k in range(1, len(logged) + 1):
        assert calls.get(logged[:k]) == 1, (k, calls.get(logged[:k]))
    # no job started its work while a more urgent job of the tab was running
    for name, level, t0, _t1 in starts:
        for other, olevel, s0, s1 in starts:
            if olevel < level and s0 < t0 < s1:
                pytest.fail(f"{name} (level {level}) started while {other} (level {olevel}) ran")


def test_a_script_that_ends_without_shutdown_exits(tmp_path):
    """A script that makes the window, opens a Cluedo log and ends while its jobs still wait for
    their turn exits promptly and quietly (the pool's destructor used to wait for ever for a job
    held behind a result the ended event loop would never deliver)."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    script = tmp_path / "ends.py"
    script.write_text(
        "import os, sys, time\n"
        "os.environ.setdefault('QT_QPA_PLATFORM', 'offscreen')\n"
        f"sys.path.insert(0, {str(Path(__file__).parent)!r})\n"
        "from cluedo_game_log import classic_setup, random_log\n"
        "from desktop.shell.main_window import MainWindow, make_app\n"
        "app = make_app()\n"
        "w = MainWindow(autosave=False, interactive=False); w.show()\n"
        "tab = w.tab_for('cluedo'); w.select_game('cluedo')\n"
        "setup = classic_setup(('Me', 'Ann', 'Bob', 'Cy'))\n"
        "tab.reset_document(setup, random_log(setup, 6, seed=3))\n"
        "t = time.time()\n"
        "while time.time() - t < 0.3:\n"
        "    app.processEvents()\n"
        "print('ending', flush=True)\n", encoding="utf-8")
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    # -X faulthandler: a crash at exit prints where each thread was (seen once in a CI run,
    # returncode -11, not again in 125 local runs)
    done = subprocess.run([sys.executable, "-X", "faulthandler", str(script)], capture_output=True,
                          text=True, timeout=60, env=env, cwd=str(tmp_path))
    assert done.returncode == 0 and done.stdout.strip() == "ending", done.stderr[-4000:]
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
