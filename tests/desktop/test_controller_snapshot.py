"""The controller alone (no widget): it listens to its document, publishes one immutable
snapshot per change of what is shown, the snapshot of a past entry carries that prefix's
posterior (the engine's own answer for the prefix) and the advice of that moment, and Cancel
stops every runner, low-priority ones included."""
import dataclasses

import numpy as np
import pytest

from desktop.tabs.controller import GameController
from desktop.tabs.snapshot import Status
from engines import cluedo

SETUP = cluedo.Setup.from_json({"edition": "cluedo-uk", "players": ["Me", "Ann", "Bob"],
                                "me": "Me"}, "$.setup")
EVENTS = [cluedo.HandEvent(player="Me", cards=("Miss Scarlett", "Rope", "Hall", "Kitchen", "Professor Plum",
                                  "Lounge")),
          cluedo.ShownEvent(player="Ann", card="Dagger"), cluedo.LacksEvent(player="Bob", card="Study"),
          cluedo.ShownEvent(player="Bob", card="Library")]


@pytest.fixture
def controller(qtbot):
    c = GameController(cluedo, options={"method": "exact"})
    seen = []
    c.snapshotChanged.connect(seen.append)
    c.seen = seen
    yield c
    c.shutdown()


def _ready(qtbot, c):
    qtbot.waitUntil(lambda: c.snapshot.status is Status.READY and not c.snapshot.busy,
                    timeout=30_000)
    return c.snapshot


def test_an_edit_publishes_computing_at_once_then_ready(qtbot, controller):
    c = controller
    c.reset(SETUP, EVENTS[:2])
    assert c.seen and c.seen[-1].status is Status.COMPUTING and c.seen[-1].n == 2
    snap = _ready(qtbot, c)
    assert snap.k == 2 and snap.live and snap.posterior is not None
    c.log_event(EVENTS[2])                      # the controller listens to its document
    assert c.seen[-1].status is Status.COMPUTING and c.seen[-1].n == 3
    snap = _ready(qtbot, c)
    assert snap.k == 3
    with pytest.raises(dataclasses.FrozenInstanceError):
        snap.k = 1


def test_a_past_entry_is_the_prefix_moment(qtbot, controller):
    c = controller
    c.reset(SETUP, EVENTS)
    _ready(qtbot, c)
    c.select(1)
    snap = _ready(qtbot, c)
    assert (snap.k, snap.n, snap.selected, snap.live) == (1, 4, 1, False)
    assert snap.scope() == "as after entry 1 of 4"
    expected = cluedo.infer(SETUP, EVENTS[:1], method="exact").matrix
    assert np.allclose(snap.posterior.matrix, expected)
    c.select(-1)
    assert c.snapshot.k == 4 and c.snapshot.live


def test_advice_belongs_to_its_moment(qtbot, controller):
    c = controller
    asked = []

    def job_for(setup, events, options):
        asked.append(len(events))
        return lambda task: ("moment", len(events), options.get("x"))

    c.add_advisor("probe", job_for, options={"x": 1})
    c.reset(SETUP, EVENTS)
    qtbot.waitUntil(lambda: c.snapshot.advice_for("probe") is not None, timeout=30_000)
    assert c.snapshot.advice_for("probe").value == ("moment", 4, 1)
    c.select(2)
    assert c.snapshot.advice_for("probe") is None or c.snapshot.advice_for("probe").value[1] == 2
    qtbot.waitUntil(lambda: c.snapshot.advice_for("probe") is not None, timeout=30_000)
    assert c.snapshot.advice_for("probe").value == ("moment", 2, 1)
    c.set_advice_options("probe", x=2)             # options are values: asked again
    qtbot.waitUntil(lambda: c.snapshot.advice_for("probe") is not None
                    and c.snapshot.advice_for("probe").value[2] == 2, timeout=30_000)
    assert asked[-1] == 2


def test_cancel_stops_every_runner_low_priority_included(qtbot, controller):
    import threading

    c = controller
    c.reset(SETUP, EVENTS)
    _ready(qtbot, c)
    low = c.make_runner("background", counted=False)
    started, stopped = threading.Event(), threading.Event()

    def job(task):
        started.set()
        while not task():
            threading.Event().wait(0.01)
        stopped.set()
        return None

    low.submit(job)
    assert started.wait(10)
    assert not c.is_busy()                       # not waited for…
    c.cancel_computation()
    assert stopped.wait(10)                      # …but cancelled with the rest
    assert c.snapshot.status is Status.CANCELLED
    c.request_inference()
    assert _ready(qtbot, c).k == 4


def test_the_entry_check_goes_through_the_timeline(qtbot, controller):
    c = controller
    c.reset(SETUP, EVENTS)
    _ready(qtbot, c)
    refused, logged = [], []
    c.checks.submit(cluedo.ShownEvent(player="Ann", card="Rope"), refused.append, lambda: logged.append(1))
    qtbot.waitUntil(lambda: bool(refused or logged), timeout=30_000)
    assert refused == ["you hold it"] and not logged
    ok = cluedo.ShownEvent(player="Ann", card="Candlestick")
    c.checks.submit(ok, refused.append, lambda: logged.append(1))
    qtbot.waitUntil(lambda: bool(logged), timeout=30_000)
    assert c.document.events[-1] == ok
    # the checked prefix is in the timeline's cache: the log's new beliefs are not recomputed
    assert c.belief_timeline.cached_entry(tuple(c.document.events)) is not None
