"""The belief timeline (engines/core/timeline.py): each prefix computed once, snapshots or one
live state, contradictions stop it, a cancel keeps nothing half-done; and with the real engines
every prefix equals a fresh ``infer``."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engines
from engines.core.contract import IncrementalEngine
from engines.core.errors import Cancelled, ContradictionError
from engines.core.resources import resource_path
from engines.core.schema import read_session_file
from engines.core.timeline import Timeline


class _Fake:
    """An engine over string events: the posterior is the number of events; "x" is impossible.
    Records the prefixes it infers and the updates it applies."""

    METHODS = ("exact",)

    def __init__(self):
        self.calls = []

    def infer(self, setup, events, cancel=None, method="exact"):
        self.calls.append(len(events))
        if "x" in events:
            raise ContradictionError(events.index("x"), "impossible")
        return len(events)

    def belief_summary(self, setup, post):
        return {"n": float(post)}


class _FakeIncremental(_Fake):
    """The same as an incremental engine: a state is a list of the events folded so far."""

    def __init__(self, nbytes=10):
        super().__init__()
        self.nbytes = nbytes
        self.updates = 0

    def initial(self, setup):
        return []

    def update(self, setup, state, index, event, cancel=None):
        self.updates += 1
        if event == "x":
            raise ContradictionError(index, "impossible")
        state.append(event)
        return state

    def posterior(self, setup, state, cancel=None):
        return len(state)

    def copy_state(self, state):
        return list(state)

    def state_bytes(self, setup):
        return self.nbytes


def test_the_fakes_satisfy_the_protocols():
    assert isinstance(_FakeIncremental(), IncrementalEngine)
    assert not isinstance(_Fake(), IncrementalEngine)


def test_whole_log_first_then_prefixes_each_once_and_contradiction():
    eng = _Fake()
    tl = Timeline(eng, "setup")
    r = tl.compute(("a", "b", "c"))
    assert r.posteriors == (0, 1, 2, 3) and r.error is None and r.is_full
    assert eng.calls == [3, 0, 1, 2]
    eng.calls.clear()
    assert tl.compute(("a", "b")).posteriors == (0, 1, 2)     # undo: nothing recomputed
    assert tl.compute(("a", "b", "c", "d")).posteriors == (0, 1, 2, 3, 4)
    assert eng.calls == [4]                                     # append: one inference
    eng.calls.clear()
    r = tl.compute(("a", "b", "x", "c"))
    assert r.posteriors == (0, 1, 2) and r.error.event_index == 2
    assert eng.calls == [4]                # the failing log; its consistent prefixes are cached


def test_whole_log_only_leaves_gaps_for_uncached_prefixes():
    eng = _Fake()
    tl = Timeline(eng, "setup")
    tl.posterior(("a",))
    r = tl.compute(("a", "b", "c"), full=False)
    assert r.posteriors == (None, 1, None, 3) and r.latest == 3 and not r.is_full
    assert r.summaries[1] == {"n": 1.0} and r.summaries[0] is None


def test_incremental_engine_costs_one_update_per_new_event():
    eng = _FakeIncremental()
    tl = Timeline(eng, "setup")
    assert tl.compute(("a", "b", "c")).posteriors == (0, 1, 2, 3)
    assert eng.updates == 3 and eng.calls == []                 # never a whole inference
    tl.compute(("a", "b", "c", "d"))
    assert eng.updates == 4
    tl.compute(("a", "b", "e"))                                 # an edited log: from "a b"
    assert eng.updates == 5


def test_large_states_move_one_live_state_forward_in_order():
    eng = _FakeIncremental(nbytes=10)
    tl = Timeline(eng, "setup", memory_budget=5)
    assert tl.in_order
    r = tl.compute(("a", "b", "c"))
    assert r.posteriors == (0, 1, 2, 3) and eng.updates == 3    # in order: no rebuilding
    live = tl._live[1]
    assert tl.posterior(("a",)) == 1 and tl._live[1] is live    # cached, the live state kept
    tl.compute(("a", "b", "c", "d"))
    assert eng.updates == 4 and tl._live[1] is live             # moved forward in place
    tl.clear()
    tl.posterior(("a", "b", "c", "d"))
    assert tl.posterior(("a",)) == 1 and tl._live[1] is not None   # a temporary state
    assert tl._live[0] == ("a", "b", "c", "d")
    r = tl.compute(("a", "x", "c"))
    assert r.posteriors == (0, 1) and r.error.event_index == 1


def test_cancel_keeps_nothing_half_done():
    eng = _FakeIncremental(nbytes=10)
    tl = Timeline(eng, "setup", memory_budget=5)
    tl.compute(("a",))
    calls = iter(range(100))
    with pytest.raises(Cancelled):
        tl.compute(("a", "b", "c", "d"), cancel=lambda: next(calls) > 2)
    assert tl._live is None                       # a state stopped midway is dropped
    assert tl.compute(("a", "b", "c", "d")).posteriors == (0, 1, 2, 3, 4)


@pytest.mark.parametrize("game", list(engines.GAMES))
def test_every_prefix_of_every_example_equals_a_fresh_inference(game):
    mod = engines.game_module(game)
    s = read_session_file(str(resource_path("examples", f"{game}.json")))
    tl = Timeline(mod, s.setup)
    r = tl.compute(s.events)
    assert r.error is None and len(r.posteriors) == len(s.events) + 1
    for k in (0, len(s.events) // 2, len(s.events)):
        fresh = mod.infer(s.setup, s.events[:k])
        assert _timeless(r.posteriors[k].to_json()) == _timeless(fresh.to_json())
        assert r.summaries[k] == mod.belief_summary(s.setup, fresh)


def _timeless(obj):
    """``obj`` without the wall-clock fields (``seconds``) that differ between runs."""
    if isinstance(obj, dict):
        return {k: _timeless(v) for k, v in obj.items() if k != "seconds"}
    if isinstance(obj, list):
        return [_timeless(v) for v in obj]
    return obj


def test_the_time_a_cached_posterior_took_is_kept():
    """Timeline.seconds: the wall time of the computation of a cached posterior (what the
    status bar shows for beliefs taken from the cache), 0.0 for one not computed."""
    import time

    class _Slow(_Fake):
        def infer(self, setup, events, cancel=None, method="exact"):
            time.sleep(0.02 * len(events))
            return super().infer(setup, events, cancel, method)

    tl = Timeline(_Slow(), None)
    assert tl.seconds(("a", "b")) == 0.0
    assert tl.check(("a",), "b") is None
    assert tl.seconds(("a", "b")) >= 0.04
    assert 0.02 <= tl.seconds(("a",)) < tl.seconds(("a", "b"))
    tl.clear()
    assert tl.seconds(("a", "b")) == 0.0


LOG = tuple("abcdefghijklmnopqrstuvwyzABCDE")        # 30 events, none impossible ("x")


def _lengths(tl) -> list:
    return sorted(key.length for key in tl._states)


def test_a_long_log_keeps_checkpoints_and_the_last_states_not_every_prefix():
    """Over ``checkpoints`` events, states are kept at every ``stride``-th prefix (a power of
    two) and for the prefixes computed last; every prefix still costs one update in all, and
    the whole log's state is kept for the next entry."""
    eng = _FakeIncremental()
    tl = Timeline(eng, "setup", checkpoints=4)
    r = tl.compute(LOG)
    assert r.posteriors == tuple(range(31)) and eng.updates == 30
    assert tl._stride == 8                       # 30 / 8 <= 4 < 30 / 4
    assert _lengths(tl) == [0, 8, 16, 24, 27, 28, 29, 30]
    tl.compute(LOG + ("F",))
    assert eng.updates == 31                     # appended: one update, from the whole log's state
    eng.updates = 0
    assert tl.posterior(LOG[:13] + ("Z",)) == 14
    assert eng.updates == 6                      # an edit: from checkpoint 8, not from the start


def test_a_short_log_keeps_every_prefix_state():
    eng = _FakeIncremental()
    tl = Timeline(eng, "setup", checkpoints=128)
    tl.compute(LOG)
    assert _lengths(tl) == list(range(31)) and tl._stride == 1


def test_a_longer_log_drops_the_checkpoints_off_the_wider_stride():
    eng = _FakeIncremental()
    tl = Timeline(eng, "setup", checkpoints=4)
    tl.compute(LOG[:16])
    assert tl._stride == 4 and {0, 4, 8, 12} <= set(_lengths(tl))
    tl.compute(LOG)
    assert tl._stride == 8 and not {4, 12} & set(_lengths(tl))


def test_snapshots_not_reached_by_a_call_are_dropped_when_it_ends():
    """The whole log alone (``full=False``), a cancel: the states kept for prefixes whose
    posteriors were not computed are dropped when the call ends."""
    eng = _FakeIncremental()
    tl = Timeline(eng, "setup", checkpoints=4)
    tl.compute(LOG, full=False)
    assert _lengths(tl) == [0, 8, 16, 24, 30]
    calls = iter(range(1000))
    with pytest.raises(Cancelled):
        tl.compute(LOG + ("F", "G"), cancel=lambda: next(calls) > 40)
    assert not tl._transient and len([n for n in _lengths(tl) if n % 8]) <= 4   # the recent
    assert tl.compute(LOG + ("F", "G")).posteriors == tuple(range(33))


@settings(max_examples=60, deadline=None)
@given(logs=st.lists(st.lists(st.sampled_from("abc"), max_size=40), min_size=1, max_size=4),
       checkpoints=st.integers(1, 6))
def test_checkpoints_give_every_prefix_of_logs_that_branch(logs, checkpoints):
    """Logs one after another (each an edit of the last: a shared prefix, then others): every
    prefix's posterior is right, at most ``checkpoints`` + a few states per log are kept,
    and the updates are at most one per prefix computed plus a stride per log."""
    eng = _FakeIncremental()
    tl = Timeline(eng, "setup", checkpoints=checkpoints)
    prev = ()
    for i, tail in enumerate(logs):
        log = prev[:len(prev) // 2] + tuple(tail)
        before = eng.updates
        assert tl.compute(log).posteriors == tuple(range(len(log) + 1))
        stride = tl._stride
        assert eng.updates - before <= len(log) + stride
        assert len([n for n in _lengths(tl) if n % stride]) <= 4 + 1   # the recent, the head
        assert len([n for n in _lengths(tl) if n % stride == 0]) <= (i + 1) * (checkpoints + 1)
        prev = log


def test_checkpoints_below_one_are_refused():
    with pytest.raises(ValueError, match="checkpoints"):
        Timeline(_FakeIncremental(), "setup", checkpoints=0)


def test_the_whole_log_s_state_stored_again_and_again_is_kept_once():
    """The whole log's posterior dropped from the cache and asked for again several times:
    its state is found and stored again each time; the recent states keep it once (a key
    listed twice made the pruning loop forever once only that key was left)."""
    import threading

    eng = _FakeIncremental()
    tl = Timeline(eng, "setup", checkpoints=4)
    tl.compute(LOG)
    done = []

    def ask_again():
        for _ in range(8):
            tl._posts.clear()
            done.append(tl.posterior(LOG))

    worker = threading.Thread(target=ask_again, daemon=True)
    worker.start()
    worker.join(timeout=10)
    assert done == [30] * 8 and not worker.is_alive()
    assert [key.length for key in tl._recent].count(30) == 1 and 30 in _lengths(tl)


def test_a_wider_stride_keeps_the_whole_log_s_state():
    """The whole log's state at a checkpoint of the old stride, off the new one: kept when the
    stride grows, so the longer log continues from it."""
    eng = _FakeIncremental()
    tl = Timeline(eng, "setup", checkpoints=4)
    tl.compute(LOG[:12])                          # stride 4: 12 is a checkpoint and the head
    eng.updates = 0
    tl.posterior(LOG[:20])                        # stride 8: from 12, not from 8
    assert eng.updates == 8
