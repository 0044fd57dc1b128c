"""Every registered game conforms to the engine contract (engines/core/contract.py): the
names exist, the simulator has the one signature, and the behaviour the desktop relies on holds
on the game's example session (setup and events round-trip, every prefix infers, the summary
has the same finite keys after every event, a cancel stops inference and simulation)."""
import dataclasses
import inspect
import json
import math
from pathlib import Path

import pytest

import engines
from engines.core.contract import GameEngine, Recommender, Simulator, check_engine, simulate_signature_ok
from engines.core.errors import Cancelled, ContradictionError
from engines.core.schema import read_session_file

ROOT = Path(__file__).resolve().parents[2]
GAMES = list(engines.GAMES)


@pytest.mark.parametrize("game", GAMES)
def test_module_satisfies_the_protocols(game):
    mod = engines.game_module(game)
    assert isinstance(mod, GameEngine), check_engine(mod)
    assert isinstance(mod, Simulator) and isinstance(mod, Recommender)
    assert mod.GAME == game and mod.TITLE and mod.METHODS and mod.EVENT_TYPES
    assert simulate_signature_ok(mod.simulate) is None, simulate_signature_ok(mod.simulate)
    infer = inspect.signature(mod.infer).parameters
    assert infer["method"].kind is inspect.Parameter.KEYWORD_ONLY
    assert infer["cancel"].kind is inspect.Parameter.KEYWORD_ONLY
    # the package layout is the same in every game
    pkg = ROOT / "engines" / game
    for name in ("model.py", "inference.py", "simulate.py"):
        assert (pkg / name).is_file(), f"{game} has no {name}"
    assert not (pkg / "simulation.py").exists()
    assert mod.simulate.__module__ == f"engines.{game}.simulate"
    assert dataclasses.is_dataclass(mod.SimConfig) and mod.SimConfig.__dataclass_params__.frozen
    mod.SimConfig()  # every option has a default


@pytest.mark.parametrize("game", GAMES)
def test_setup_and_events_round_trip_and_every_prefix_infers(game):
    mod = engines.game_module(game)
    s = read_session_file(str(ROOT / "resources" / "examples" / f"{game}.json"))
    assert mod.Setup.from_json(s.setup.to_json()) == s.setup
    assert mod.Setup.from_json(mod.default_setup().to_json()) == mod.default_setup()
    keys = None
    for k, ev in enumerate(s.events):
        obj = ev.to_json()
        assert obj["type"] in mod.EVENT_TYPES
        assert mod.event_from_json(obj, s.setup, f"$.events[{k}]") == ev
        assert isinstance(mod.describe_event(s.setup, ev), str)
    for k in range(len(s.events) + 1):
        try:
            post = mod.infer(s.setup, s.events[:k])
        except ContradictionError:
            break
        json.dumps(post.to_json(), allow_nan=False)
        summary = mod.belief_summary(s.setup, post)
        assert all(isinstance(v, float) and math.isfinite(v) for v in summary.values())
        keys = keys or list(summary)
        assert list(summary) == keys


@pytest.mark.parametrize("game", GAMES)
def test_cancel_stops_inference_and_simulation(game):
    mod = engines.game_module(game)
    s = read_session_file(str(ROOT / "resources" / "examples" / f"{game}.json"))
    with pytest.raises(Cancelled):
        mod.infer(s.setup, s.events, cancel=lambda: True)
    with pytest.raises(Cancelled):
        mod.simulate(mod.SimConfig(), cancel=lambda: True)


# -- the registry and the optional capabilities (engines/registry.py, engines/core/contract.py)
#: What each built-in game offers (the desktop builds quick entry, checks, Why? and the
#: Cluedo cell reasons from these): a capability lost or gained by accident fails here.
BUILTIN_CAPABILITIES = {
    "cluedo": {"quick_entry", "checking", "explanation", "fact_reasons", "recommendation",
               "simulation"},
    "inkognito": {"quick_entry", "checking", "explanation", "recommendation", "simulation"},
    "egghead": {"quick_entry", "checking", "explanation", "recommendation", "simulation",
                "incremental"},
    "guesswho": {"quick_entry", "checking", "explanation", "recommendation", "simulation"},
    "spyfall": {"quick_entry", "checking", "recommendation", "simulation", "incremental"},
}


def test_the_registry_declares_the_five_games_in_tab_order():
    from engines.registry import BUILTIN_GAMES, registered_games

    games = registered_games()
    assert [g.id for g in BUILTIN_GAMES] == list(BUILTIN_CAPABILITIES)
    assert list(games)[:5] == list(BUILTIN_CAPABILITIES)
    assert list(engines.GAMES) == list(games)
    # pyproject.toml declares the same objects as entry points
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    for g in BUILTIN_GAMES:
        assert f'{g.id} = "engines.registry:{g.id.upper()}"' in text


@pytest.mark.parametrize("game", GAMES)
def test_registry_entry_matches_the_engine(game):
    from engines.registry import game_info

    info = game_info(game)
    mod = info.module()
    assert (info.id, info.title, info.engine) == (mod.GAME, mod.TITLE, mod.__name__)
    s = read_session_file(str(info.example_session_path()))
    assert s.game == game and s.events
    if "quick_entry" in info.capabilities():
        for line in info.example.split("   ·   "):   # the placeholder's examples parse
            mod.parse(s.setup, s.events, line)


@pytest.mark.parametrize("game", GAMES)
def test_capabilities_are_the_declared_ones_with_cancel(game):
    from engines.core.contract import CANCELLABLE, cancel_keyword_ok, capabilities

    mod = engines.game_module(game)
    caps = capabilities(mod)
    if game in BUILTIN_CAPABILITIES:
        assert caps == BUILTIN_CAPABILITIES[game]
    for cap, names in CANCELLABLE.items():
        for name in names if cap in caps else ():
            assert cancel_keyword_ok(getattr(mod, name)) is None, cancel_keyword_ok(getattr(mod, name))


@pytest.mark.parametrize("game", GAMES)
def test_quick_entry_check_and_explanation_on_the_example(game):
    """Every example entry round-trips through ``format_event``/``parse``; each entry, checked
    against the log before it, is not refused; a check polls ``cancel``; the example log has
    no conflicting entries."""
    from engines.core.contract import capabilities

    mod = engines.game_module(game)
    caps = capabilities(mod)
    s = read_session_file(str(ROOT / "resources" / "examples" / f"{game}.json"))
    events = list(s.events)
    for k, ev in enumerate(events):
        if "quick_entry" in caps:
            line = mod.format_event(s.setup, ev)
            assert mod.parse(s.setup, events[:k], line) == ev, line
            assert isinstance(mod.preview(s.setup, events[:k], line), str)
            assert all(isinstance(c, str) for c in mod.complete(s.setup, events[:k], line[:3]))
        if "checking" in caps:
            assert mod.contradiction(s.setup, events[:k], ev) is None, (k, ev)
    if "checking" in caps:
        try:
            verdict = mod.contradiction(s.setup, events[:-1], events[-1], cancel=lambda: True)
        except Cancelled:
            verdict = "cancelled"
        # Spyfall's check runs nothing (no claim contradicts a log); the others run the engine
        assert verdict == (None if game == "spyfall" else "cancelled")
    if "explanation" in caps:
        assert mod.explain_contradiction(s.setup, events) is None
