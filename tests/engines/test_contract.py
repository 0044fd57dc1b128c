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
from engines.core.contract import (GameEngine, Recommender, Simulator, check_engine,
                                   simulate_signature_ok)
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
