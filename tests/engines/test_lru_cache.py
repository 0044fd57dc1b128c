"""engines.core.cache.LockedLRU: least-recently-used eviction, one computation per key."""
import threading
import time

import pytest

from engines.core.cache import LockedLRU
from engines.core.errors import Cancelled


def test_least_recently_used_entry_goes_first():
    c = LockedLRU(2)
    c.put("a", 1)
    c.put("b", 2)
    assert c.get("a") == 1          # "a" is now the newest
    c.put("c", 3)                   # over capacity: "b", the oldest, goes
    assert (c.get("a"), c.get("b"), c.get("c"), len(c)) == (1, None, 3, 2)
    c.put("a", 4)                   # a store refreshes too
    c.put("d", 5)
    assert (c.get("a"), c.get("c"), c.get("d")) == (4, None, 5)
    c.clear()
    assert len(c) == 0 and c.get("a") is None
    with pytest.raises(ValueError, match="at least 1"):
        LockedLRU(0)


def test_one_thread_computes_a_key_while_the_others_wait_for_its_value():
    c = LockedLRU(4)
    calls = []
    started = threading.Event()

    def compute():
        calls.append(threading.get_ident())
        started.set()
        time.sleep(0.2)
        return object()

    results = []
    first = threading.Thread(target=lambda: results.append(c.get_or_compute("k", compute)))
    first.start()
    started.wait(5)
    others = [threading.Thread(target=lambda: results.append(c.get_or_compute("k", compute)))
              for _ in range(3)]
    peek = []
    others.append(threading.Thread(target=lambda: peek.append(c.wait_for("k"))))
    for t in others:
        t.start()
    for t in [first, *others]:
        t.join(10)
    assert len(calls) == 1
    assert len(results) == 4 and all(r is results[0] for r in results)
    assert peek == [results[0]]
    assert c.wait_for("other") is None        # neither kept nor computed: never computes


def test_a_waiter_stops_when_cancelled_and_a_failed_computation_keeps_nothing():
    c = LockedLRU(4)
    release = threading.Event()
    started = threading.Event()

    def slow():
        started.set()
        release.wait(10)
        raise RuntimeError("engine failed")

    failed = []

    def owner():
        try:
            c.get_or_compute("k", slow)
        except RuntimeError as exc:
            failed.append(exc)

    t = threading.Thread(target=owner)
    t.start()
    started.wait(5)
    with pytest.raises(Cancelled):
        c.get_or_compute("k", lambda: 1, cancel=lambda: True)
    with pytest.raises(Cancelled):
        c.wait_for("k", cancel=lambda: True)
    release.set()
    t.join(10)
    assert failed and c.get("k") is None
    assert c.get_or_compute("k", lambda: 7) == 7      # the next asker computes it in turn
    assert c.get("k") == 7
