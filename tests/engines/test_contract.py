"""Every registered game conforms to the engine contract (engines/core/contract.py): the
names exist, the simulator has the one signature, and the behaviour the desktop relies on holds
on the game's example session (setup and events round-trip, every prefix infers, the summary
has the same finite keys after every event, a cancel stops inference and simulation)."""
from pathlib import Path

import pytest

import engines
from engines.core.contract import GameEngine, Recommender, Simulator, check_engine, simulate_signature_ok
from engines.core.errors import Cancelled
from engines.core.schema import read_session_file

ROOT = Path(__file__).resolve().parents[2]
GAMES = list(engines.GAMES)
#: The games of this repository (a plug-in installed beside it is in GAMES too).
BUILTINS = [g.id for g in __import__("engines.registry", fromlist=["BUILTIN_GAMES"]).BUILTIN_GAMES]


@pytest.mark.parametrize("game", GAMES)
def test_every_registered_game_conforms(game):
    """The conformance kit a plug-in runs from its own tests, on every registered game: an
    installed plug-in is held to what it declares, exactly as the built-in games are."""
    from engines.core.conformance import conformance_problems
    from engines.registry import game_info

    assert conformance_problems(game_info(game)) == []


@pytest.mark.parametrize("game", BUILTINS)
def test_builtin_games_have_the_whole_contract_and_the_same_layout(game):
    mod = engines.game_module(game)
    assert isinstance(mod, GameEngine), check_engine(mod)
    assert isinstance(mod, Simulator) and isinstance(mod, Recommender)
    assert simulate_signature_ok(mod.simulate) is None, simulate_signature_ok(mod.simulate)
    # the package layout is the same in every game
    pkg = ROOT / "engines" / game
    for name in ("model.py", "inference.py", "simulate.py"):
        assert (pkg / name).is_file(), f"{game} has no {name}"
    assert not (pkg / "simulation.py").exists()
    assert mod.simulate.__module__ == f"engines.{game}.simulate"
    assert (ROOT / "resources" / "examples" / f"{game}.json").is_file()
    assert (ROOT / "resources" / "guide" / f"{game}.md").is_file()


def test_the_kit_names_what_a_broken_game_lacks(tmp_path, monkeypatch):
    """The kit can fail: a copy of a game whose title, round trip and cancel are broken."""
    import sys
    import types

    from engines.core.conformance import conformance_problems
    from engines.registry import SPYFALL, GameInfo

    real = engines.game_module("spyfall")
    fake = types.ModuleType("broken_spyfall")
    fake.__dict__.update({k: getattr(real, k) for k in real.__all__})
    fake.TITLE = "Spyfal"
    fake.infer = lambda setup, events, *, method="exact", cancel=None: real.infer(setup, events)  # ignores cancel
    monkeypatch.setitem(sys.modules, "broken_spyfall", fake)
    info = GameInfo("spyfall", "Spyfall", "broken_spyfall", SPYFALL.example, SPYFALL.example_session)
    problems = conformance_problems(info)
    assert any("Spyfal" in p for p in problems), problems
    assert any("did not raise Cancelled" in p for p in problems), problems
    assert conformance_problems(GameInfo("nothing", "Nothing", "no_such_module_here")) != []


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


@pytest.mark.parametrize("game", BUILTINS)
def test_builtin_capabilities_are_the_declared_ones(game):
    from engines.core.contract import capabilities
    from engines.registry import game_info

    info = game_info(game)
    assert (info.id, info.title, info.engine) == (game, info.module().TITLE, f"engines.{game}")
    assert capabilities(engines.game_module(game)) == BUILTIN_CAPABILITIES[game]


@pytest.mark.parametrize("game", BUILTINS)
def test_a_cancelled_check_on_the_example_stops(game):
    """A check polls ``cancel`` (Spyfall's check runs nothing: no claim contradicts a log)."""
    mod = engines.game_module(game)
    s = read_session_file(str(ROOT / "resources" / "examples" / f"{game}.json"))
    events = list(s.events)
    try:
        verdict = mod.contradiction(s.setup, events[:-1], events[-1], cancel=lambda: True)
    except Cancelled:
        verdict = "cancelled"
    assert verdict == (None if game == "spyfall" else "cancelled")
