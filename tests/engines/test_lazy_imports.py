"""The game packages import their submodules on first use (engines/core/lazy.py).

``python -m engines parse`` must not import a game's simulator, explanations or diagnosis, nor
scipy/cvxpy/dask (the command line's start-up; the timing itself is
tests/benchmarks/bench_cli_start.py). The public API must still read as before.
"""
import importlib
import json
import os
import subprocess
import sys
import types

import pytest

from engines.core import contract

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GAMES = ["cluedo", "spyfall", "inkognito", "egghead", "guesswho"]
LINES = {"cluedo": "Ann: plum rope hall; Bob", "spyfall": "Bob: beach 1, casino .5",
         "inkognito": "Red: lord zsa fat", "egghead": "sum = 14", "guesswho": "glasses? no"}
_COMMON = {"CheckingEngine", "GameEngine", "QuickEntryEngine", "Recommender", "Simulator"}
PROTOCOLS = {"cluedo": _COMMON | {"ExplainingEngine", "FactReasonEngine"},
             "spyfall": _COMMON | {"IncrementalEngine"},
             "inkognito": _COMMON | {"ExplainingEngine"},
             "egghead": _COMMON | {"ExplainingEngine", "IncrementalEngine"},
             "guesswho": _COMMON | {"ExplainingEngine"}}
HEAVY_SUBMODULES = ("simulate", "explain", "diagnosis")
HEAVY_LIBRARIES = ("scipy", "cvxpy", "dask", "matplotlib", "pandas")

# one fresh interpreter per game: run `python -m engines parse` through its main() and print
# what it imported
_PROBE = """
import contextlib, io, json, sys
import engines.__main__ as cli
with contextlib.redirect_stdout(io.StringIO()) as out:
    code = cli.main(["parse", sys.argv[1], sys.argv[2]])
print(json.dumps({"code": code, "out": out.getvalue(), "modules": sorted(sys.modules)}))
"""


def _parse_modules(game: str) -> dict:
    r = subprocess.run([sys.executable, "-c", _PROBE, f"resources/examples/{game}.json",
                        LINES[game]], cwd=ROOT, capture_output=True, text=True, timeout=120,
                       env=dict(os.environ, PYTHONPATH=ROOT))
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


@pytest.mark.parametrize("game", GAMES)
def test_parse_imports_no_simulator_explanation_diagnosis_or_heavy_library(game):
    got = _parse_modules(game)
    assert got["code"] == 0 and json.loads(got["out"])["type"]     # the event was parsed
    modules = set(got["modules"])
    assert f"engines.{game}.parse" in modules
    assert not {f"engines.{game}.{m}" for m in HEAVY_SUBMODULES} & modules
    assert not {m for m in modules if m.split(".")[0] in HEAVY_LIBRARIES}


@pytest.mark.parametrize("game", GAMES)
def test_every_public_name_reads_as_its_submodule_defines_it(game):
    pkg = importlib.import_module(f"engines.{game}")
    assert pkg.__all__ and sorted(pkg.__all__) == sorted(set(pkg.__all__))
    for name in pkg.__all__:
        value = getattr(pkg, name)
        where = type(pkg).__dict__[name]
        sub = importlib.import_module(f"engines.{game}.{where.module}")
        assert value is getattr(sub, where.attr), name
    # the engine contract's runtime checks see the names (they read them statically): the
    # same protocols as when the packages imported everything at once
    protocols = {n for n in dir(contract)
                 if getattr(getattr(contract, n), "_is_runtime_protocol", False)
                 and isinstance(pkg, getattr(contract, n))}
    assert protocols == PROTOCOLS[game]


def test_a_function_named_like_its_submodule_stays_the_function():
    import engines.cluedo as cluedo
    import engines.cluedo.parse
    import engines.cluedo.simulate  # noqa: F401

    for name in ("parse", "simulate", "recommend", "explain"):
        assert callable(getattr(cluedo, name)) and not isinstance(getattr(cluedo, name),
                                                                  types.ModuleType), name
    assert cluedo.Posterior is cluedo.CluedoPosterior
    assert "engines.cluedo.parse" in sys.modules
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        cluedo.nothing  # noqa: B018
    from engines.egghead import inference  # a submodule that is not a public name
    assert isinstance(inference, types.ModuleType) and inference.infer is engines_egghead().infer


def engines_egghead():
    return importlib.import_module("engines.egghead")
