"""The check of a new entry (engines.core.timeline.Timeline.check) decides from the timeline's
cached posteriors; an engine's ``contradiction`` gives the words of a refusal only. That needs
the contract's rule (engines/core/contract.py, CheckingEngine): ``contradiction`` is None exactly
when ``infer`` of the log plus the entry, default method, raises no ContradictionError."""
import types

import pytest

import engines
from engines.core.contract import has_capability
from engines.core.errors import ContradictionError
from engines.core.resources import resource_path
from engines.core.schema import read_session_file
from engines.core.timeline import Timeline

GAMES = ["cluedo", "inkognito", "egghead", "guesswho", "spyfall"]


def _example(game):
    return read_session_file(str(resource_path("examples", f"{game}.json")))


def _consistent(mod, setup, events) -> bool:
    try:
        mod.infer(setup, list(events))
    except ContradictionError:
        return False
    return True


def _candidates(game, mod, setup, events):
    """The log's own events at other places, and for Cluedo and Egghead entries that the log
    refuses (my own card 'lacking'; every answer to the first question)."""
    out = list(dict.fromkeys(events))
    if game == "cluedo":
        hand = next(e for e in events if type(e).__name__ == "HandEvent")
        out += [mod.event_from_json({"type": "lacks", "player": hand.player, "card": c},
                                    setup, "$") for c in hand.cards[:2]]
    if game == "egghead":
        first = events[0]
        out += [type(first)(question=first.question, answer=a, moderator=first.moderator)
                for a in range(0, 12)]
    return out


@pytest.mark.parametrize("game", GAMES)
def test_contradiction_is_none_exactly_when_infer_succeeds(game):
    mod = engines.game_module(game)
    if not has_capability(mod, "checking"):
        pytest.skip("no check of its own")
    s = _example(game)
    events = list(s.events)
    refused = 0
    for k in sorted({0, len(events) // 2, len(events)}):
        tl = Timeline(mod, s.setup)
        for ev in _candidates(game, mod, s.setup, events):
            verdict = mod.contradiction(s.setup, events[:k], ev)
            assert (verdict is None) == _consistent(mod, s.setup, events[:k] + [ev]), (k, ev)
            # the timeline's check: the same verdict, and the engine's words when refused
            assert tl.check(events[:k], ev) == verdict, (k, ev)
            refused += verdict is not None
    if game in ("cluedo", "egghead"):
        assert refused > 0          # the refusals were exercised too


def test_the_check_reuses_the_cached_posteriors():
    """One ``infer`` for log + entry, none for the log on screen, none when the entry is then
    logged; the engine's own check is not run for an accepted entry."""
    cluedo = engines.game_module("cluedo")
    calls = {"infer": 0, "contradiction": 0}

    def infer(*a, **k):
        calls["infer"] += 1
        return cluedo.infer(*a, **k)

    def contradiction(*a, **k):
        calls["contradiction"] += 1
        return cluedo.contradiction(*a, **k)

    # every public name (__all__): dir() of a lazily loaded game package lists only the names
    # loaded so far, which depends on the tests run before in the same process
    names = set(cluedo.__all__) | {n for n in dir(cluedo) if not n.startswith("__")}
    mod = types.SimpleNamespace(**{n: getattr(cluedo, n) for n in names})
    mod.infer, mod.contradiction = infer, contradiction
    s = _example("cluedo")
    events = tuple(s.events)
    tl = Timeline(mod, s.setup)
    tl.compute(events[:-1], full=False)
    calls["infer"] = 0
    assert tl.check(events[:-1], events[-1]) is None
    assert calls == {"infer": 1, "contradiction": 0}
    tl.compute(events, full=False)
    assert calls == {"infer": 1, "contradiction": 0}
    hand = next(e for e in events if type(e).__name__ == "HandEvent")
    lacks = cluedo.event_from_json({"type": "lacks", "player": hand.player,
                                    "card": hand.cards[0]}, s.setup, "$")
    assert tl.check(events, lacks) == "you hold it"
    assert calls["contradiction"] == 1
