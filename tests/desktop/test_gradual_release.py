"""A log no longer shown is freed a slice per turn of the event loop (desktop/tabs/release.py):
opening a short log after a long one does not free every prefix's beliefs in the open's
statement (163 ms of the GUI thread after the largest Spyfall table), and everything is freed
a few turns later."""
import json
import weakref

from PySide6.QtWidgets import QApplication

from desktop.tabs import release
from desktop.tabs.controller import GameController
from desktop.tabs.snapshot import Status
from engines import spyfall
from engines.core.resources import resource_path


class Posterior:
    """Stands for an engine's posterior: any object a timeline keeps per prefix."""


class Result:
    def __init__(self, n):
        self.posteriors = tuple(Posterior() for _ in range(n))


def test_retired_parts_are_let_go_a_slice_per_turn(qapp):
    r = release.GradualRelease()
    result = Result(3 * release.PER_TURN + 5)
    alive = [weakref.ref(p) for p in result.posteriors]
    r.retire(result, None)
    del result                                   # the caller's reference: the tuple goes
    assert all(a() is not None for a in alive)   # …the posteriors are still held
    turns = 0
    while r.pending:
        QApplication.processEvents()
        turns += 1
        assert turns < 50
    assert turns >= 4 and all(a() is None for a in alive)


def test_a_new_log_retires_the_old_one_s_beliefs(qtbot):
    d = json.loads(resource_path("examples", "spyfall.json").read_text(encoding="utf-8"))
    setup = spyfall.Setup.from_json(d["setup"], "$.setup")
    events = [spyfall.event_from_json(e, setup, f"$.events[{i}]") for i, e in enumerate(d["events"])]
    events += [events[-1]] * (release.LARGE + 10)          # a log of more than LARGE prefixes
    c = GameController(spyfall)
    try:
        c.reset(setup, events)
        qtbot.waitUntil(lambda: c.snapshot.status is Status.READY and not c.snapshot.busy,
                        timeout=30_000)
        last = weakref.ref(c.snapshot.posterior)
        c.reset(setup, events[:2])
        assert c.release.pending and last() is not None      # not freed in the open's call
        qtbot.waitUntil(lambda: not c.release.pending, timeout=5_000)
        qtbot.waitUntil(lambda: c.snapshot.status is Status.READY and not c.snapshot.busy,
                        timeout=30_000)
        assert last() is None                                # freed by then
    finally:
        c.shutdown()


class _Key:
    """A key whose hash is Python code that adds to the mapping it is in, as the job
    computing a timeline does when the GUI thread's walk of its cache gives up the lock."""

    def __init__(self, cache, n):
        self.cache, self.n = cache, n

    def __hash__(self):
        if len(self.cache) < 2 * release.LARGE + 10:
            self.cache[("added", len(self.cache))] = Posterior()
        return self.n

    def __eq__(self, other):
        return self is other


def test_a_cache_added_to_while_it_is_retired_is_read_whole(qapp):
    from collections import OrderedDict

    class Timeline:
        def __init__(self):
            self._posts = OrderedDict()

    t = Timeline()
    for n in range(release.LARGE + 1):
        t._posts[_Key(t._posts, n)] = Posterior()
    before = list(dict.values(t._posts))
    r = release.GradualRelease()
    r.retire(t)                          # iterating the OrderedDict as such raised here
    assert all(any(p is q for q in r.pending) for p in before)
