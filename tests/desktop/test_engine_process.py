"""The engines' worker process (desktop/tabs/engine_process.py): a call there gives what the
same call here gives, partial results and errors arrive whole, a cancelled call stops in the
worker, and whenever the worker cannot serve, the call runs in its caller's thread. And the
Cluedo tab's ranking is computed there, beside the worksheet's render."""
import importlib
import os
import threading

import pytest
from cluedo_game_log import classic_setup, random_log
from engine_calls import contradict, count_slowly, echo, fail, worker_pid

from desktop.tabs import engine_process
from desktop.tabs.engine_process import EngineProcess, Unavailable
from engines.core.errors import Cancelled, ContradictionError

RECOMMEND = importlib.import_module("engines.cluedo.recommend")


def started(warm=()) -> EngineProcess:
    w = EngineProcess()
    w.start(warm=warm)
    assert w.wait_ready(60), w._state
    return w


@pytest.fixture(scope="module")
def worker():
    w = started(("engines.cluedo.recommend",))
    yield w
    w.close()


def never() -> bool:
    return False


def use_worker(monkeypatch, w: EngineProcess) -> None:
    """Make ``w`` the app's worker for ``engine_process.run`` during one test."""
    monkeypatch.setitem(engine_process._workers, engine_process.RANKINGS, w)
    monkeypatch.setattr(engine_process, "enabled", True)


def test_a_call_there_gives_the_same_ranking_as_here(worker):
    setup = classic_setup(("Me", "Ann", "Bob"))
    events = tuple(random_log(setup, 6, seed=5))
    here = RECOMMEND.recommend(setup, events, exact_top=24, opponents_seconds=0)
    there = worker.call(RECOMMEND.recommend, (setup, events),
                        dict(exact_top=24, opponents_seconds=0), cancelled=never)
    assert worker.call(worker_pid, cancelled=never) == worker.pid != os.getpid()
    assert there.suggestions == here.suggestions and there.exact == here.exact
    assert there.joint_bits == here.joint_bits and there.accusation == here.accusation


def test_partial_results_arrive_in_order_before_the_result(worker, tmp_path):
    steps = []
    out = worker.call(count_slowly, (5, str(tmp_path / "n")), cancelled=never,
                      on_partial=steps.append, partial_keyword="on_step")
    assert out == 5 and steps == [0, 1, 2, 3, 4]


def test_errors_arrive_whole_and_in_the_callers_language(worker, language):
    language("de")
    with pytest.raises(ContradictionError) as err:
        worker.call(contradict, cancelled=never)
    assert err.value.event_index == 4
    assert err.value.message == "der Spielaufbau ist unmöglich: x"
    with pytest.raises(KeyError) as bug:
        worker.call(fail, cancelled=never)
    assert "engine_calls.py" in bug.value.detail and "fail" in bug.value.detail


def test_a_cancelled_call_stops_in_the_worker_which_serves_the_next(worker, tmp_path):
    record = tmp_path / "count"
    polls = []

    def cancelled() -> bool:      # True once the worker has counted a little
        polls.append(1)
        return record.exists() and int(record.read_text() or 0) >= 3

    with pytest.raises(Cancelled):
        worker.call(count_slowly, (1500, str(record)), cancelled=cancelled)
    assert worker.call(worker_pid, cancelled=never) == worker.pid    # served after it
    assert int(record.read_text()) < 1000           # it stopped: not 15 s of counting


class _Task:
    cancel_requested = False

    def __init__(self, owner="a runner"):
        self.shared = 0
        self.owner = owner
        self.paused = 0

    def wait_for_gui(self) -> None:
        self.paused += 1

    def share_lock(self) -> bool:
        self.shared += 1
        return False

    def __call__(self) -> bool:
        return False


def test_a_call_the_worker_cannot_take_runs_here(worker, monkeypatch):
    def local(*, cancel):          # not importable by name: cannot be sent
        return os.getpid()

    with pytest.raises(Unavailable):
        worker.call(local, cancelled=never)
    use_worker(monkeypatch, worker)
    task = _Task()
    assert engine_process.run(task, local) == os.getpid() and task.shared == 1
    assert engine_process.run(task, worker_pid) == worker.pid and task.shared == 1


def _in_flight(task, tmp_path, out: dict) -> threading.Thread:
    """A thread whose call of ``task`` (40 slow counts, ``out["long"]`` its result) is running in
    the worker when this returns."""
    record = tmp_path / "count"
    t = threading.Thread(target=lambda: out.setdefault(
        "long", engine_process.run(task, count_slowly, 40, str(record))))
    t.start()
    pause = threading.Event()
    while not record.exists():
        pause.wait(0.005)
    return t


def test_a_call_of_another_owner_runs_here_while_one_is_in_flight(worker, monkeypatch,
                                                                  tmp_path):
    """One tab's long ranking in the worker never holds up another tab's advice: that call runs
    in its own thread; a newer call of the same owner waits its turn in the worker."""
    use_worker(monkeypatch, worker)
    long_task = _Task("Cluedo's ranking")
    out = {}
    t = _in_flight(long_task, tmp_path, out)
    other = _Task("Spyfall's advice")
    assert engine_process.run(other, worker_pid) == os.getpid() and other.shared == 1
    same = _Task("Cluedo's ranking")
    assert engine_process.run(same, worker_pid) == worker.pid and same.shared == 0
    t.join()
    assert out["long"] == 40 and long_task.shared == 0


def test_the_self_test_waits_for_another_owner_s_call_to_end(worker, monkeypatch, tmp_path,
                                                              qtbot, capsys):
    """``--self-test`` checks the worker with a call of its own: while the first tab's advisors
    have a call in flight, the worker refuses it (busy with another owner's call); the check
    waits for that call to end instead of failing (seen in CI)."""
    from desktop.shell import selftest

    use_worker(monkeypatch, worker)
    monkeypatch.setattr(engine_process, "shared", lambda *a, **k: worker)
    t = _in_flight(_Task("Cluedo's ranking"), tmp_path, {})
    assert worker.busy
    with pytest.raises(Unavailable, match="another owner"):
        worker.call(worker_pid, cancelled=never)
    failures = []
    selftest._check_engine_worker(failures)
    t.join()
    assert failures == [] and not worker.busy
    assert f"ok   engine worker process (pid {worker.pid})" in capsys.readouterr().out


def test_a_worker_that_died_leaves_the_calls_to_their_threads(monkeypatch):
    w = started()
    done = threading.Event()
    w._process.kill()
    w._process.join(5)
    while w._state == "ready" and not done.wait(0.02):
        pass
    assert w._state == "lost"
    with pytest.raises(Unavailable):
        w.call(worker_pid, cancelled=never)
    use_worker(monkeypatch, w)
    task = _Task()
    assert engine_process.run(task, worker_pid) == os.getpid() and task.shared == 1
    w.close()


def test_the_cluedo_ranking_is_computed_there_beside_the_worksheets_render(window, qtbot,
                                                                          monkeypatch):
    """With the worker ready, every entry's ranking is computed in it, starting before the
    worksheet of that entry is painted (not after it, as a job sharing the interpreter lock
    does), and the ranking shown is the one computed here."""
    from PySide6.QtCore import Qt
    from window_idle import wait_idle

    from desktop.games.cluedo import ranking as shared

    w = started(("engines.cluedo.recommend",))
    use_worker(monkeypatch, w)
    order = []
    real_call = EngineProcess.call

    def recording_call(self, fn, args=(), kwargs=None, **kw):
        order.append(("ranking starts", len(args[1])))
        return real_call(self, fn, args, kwargs, **kw)

    monkeypatch.setattr(EngineProcess, "call", recording_call)
    window.select_game("cluedo")
    tab = window.tab_for("cluedo")
    setup = classic_setup(("Me", "Ann", "Bob"))
    tab.reset_document(setup, [])
    assert wait_idle(window, 60)
    real_shown = type(tab.controller).beliefs_shown

    def recording_shown(controller):
        order.append(("worksheet painted", len(controller.document.events)))
        return real_shown(controller)

    monkeypatch.setattr(type(tab.controller), "beliefs_shown", recording_shown)
    shared.clear()
    order.clear()
    from cluedo_game_log import quick_lines

    events = random_log(setup, 3, seed=11)
    for line in quick_lines(setup, events):
        qe = tab.quick_entry
        qe.line.setText(line)
        qtbot.keyClick(qe.line, Qt.Key_Return)
        assert wait_idle(window, 60)
        qtbot.waitUntil(lambda: (a := tab.snapshot.advice_for("recommend")) is not None
                        and a.final, timeout=60000)
    logged = tuple(tab.controller.document.events)
    for k in range(1, len(logged) + 1):
        assert ("ranking starts", k) in order
        assert order.index(("ranking starts", k)) < order.index(("worksheet painted", k))
    shown = tab.snapshot.advice_for("recommend").value
    here = RECOMMEND.recommend(setup, logged, exact_top=shared.EXACT_TOP, opponents_seconds=0)
    assert shown.suggestions == here.suggestions and shown.exact == here.exact
    w.close()


def test_a_job_computed_elsewhere_is_delivered_in_its_turn(qtbot):
    """A job of a runner that does not share the interpreter lock starts at once, but its
    result waits while the GUI thread holds the worker gate (a file's opening turns) or the
    tab's more urgent work is pending, as a job sharing the lock would."""
    from desktop.tabs.jobs import JobRunner, Priority, PriorityGroup, worker_gate

    group = PriorityGroup()
    runner = JobRunner(name="ranking elsewhere", group=group, priority=Priority.RANKING,
                       shares_lock=False)
    started, got = threading.Event(), []
    runner.resultReady.connect(lambda _rev, value, _s: got.append(value))

    def job(task):
        started.set()
        return "ranking"

    for hold in (lambda: worker_gate.hold(), lambda: group.hold(Priority.BELIEFS)):
        got.clear()
        started.clear()
        held = hold()
        runner.submit(job)
        qtbot.waitUntil(started.is_set, timeout=5000)       # computed while held
        qtbot.wait(150)
        assert got == []                                     # but not delivered
        held.release()
        qtbot.waitUntil(lambda: got == ["ranking"], timeout=5000)
    runner.shutdown()


def test_a_long_argument_is_sent_in_parts_and_arrives_whole(worker, monkeypatch):
    """A log of thousands of entries is pickled a part at a time (the interpreter lock can
    change hands, and the job waits for the GUI thread's paints, between parts) and arrives
    equal, as the same kind of sequence."""
    from engines.spyfall.model import Claim

    n = 3 * engine_process.PICKLE_PART_ITEMS + 5
    claims = tuple(Claim(player=f"P{i % 7}", weights=(0.5, 0.5, float(i % 3)))
                   for i in range(n))
    short = list(range(engine_process.PICKLE_PART_ITEMS))
    use_worker(monkeypatch, worker)
    task = _Task()
    out = engine_process.run(task, echo, claims, short, tail=list(claims))
    assert out == (claims, short, {"tail": list(claims)})
    assert type(out[0]) is tuple and type(out[2]["tail"]) is list
    assert task.paused == 2 * 4            # two long arguments of four parts; the short one whole
    assert task.shared == 0                # computed there


def test_a_call_cancelled_while_its_argument_is_pickled_is_not_sent(worker):
    asked = []

    def cancelled() -> bool:
        asked.append(1)
        return len(asked) > 2              # during the third part

    long = tuple(range(5 * engine_process.PICKLE_PART_ITEMS))
    with pytest.raises(Cancelled):
        worker.call(echo, (long,), cancelled=cancelled)
    assert len(asked) == 3
    assert worker.call(worker_pid, cancelled=never) == worker.pid    # the worker serves on


def test_who_is_close_computes_in_a_worker_process_of_its_own(worker, monkeypatch):
    """The Cluedo tab's "Who is close?" estimate runs in its own worker process (not the
    rankings', and not a thread of the app), with the options the app has when it asks, and
    gives what the same computation gives here: its first estimate published before the
    advice, then the advice of the exact best triple."""
    import desktop.games.cluedo.opponents as opponents
    from desktop.games.cluedo.estimates import refine_shown_prefix

    own = started(("desktop.games.cluedo.estimates",))
    try:
        use_worker(monkeypatch, worker)
        monkeypatch.setitem(engine_process._workers, engine_process.WHO_IS_CLOSE, own)
        monkeypatch.setattr(opponents, "LIVE_MAX_SAMPLES", 64)   # the app's value, read here
        setup = classic_setup(("Me", "Ann", "Bob", "Cat"))
        events = tuple(random_log(setup, 8, seed=3))
        gate = threading.Event()
        gate.set()
        published = []
        task = _Task()
        task.publish = published.append
        rankings_calls = worker._next_id
        view = opponents.shown_prefix_job(setup, events, len(events), gate, task)
        assert own._next_id == 1 and worker._next_id == rankings_calls and task.shared == 0
        here = refine_shown_prefix(setup, events, len(events), max_samples=64,
                                   budget_seconds=60.0)
        assert view.complete and view.k == len(events) and view.samples <= 64
        assert view.advice.triple == here.advice.triple
        assert view.advice.p_correct == pytest.approx(here.advice.p_correct)
        assert published and published[0].advice is None and not published[0].complete
    finally:
        own.close()
