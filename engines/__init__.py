"""Deduction Desk inference engines: pure Python (numpy, scipy, cvxpy), never Qt.

Each game lives in a module that follows the contract of :mod:`engines.core.contract`
(engines/CONTRACT.md) and is declared in the game registry (:mod:`engines.registry`, Python
entry points of the group ``deduction_desk.games``); :data:`GAMES` maps the session file's
``"game"`` value to that module's import path.
"""
from __future__ import annotations

import importlib
from types import ModuleType


def __getattr__(name: str):
    # GAMES is made on first use (PEP 562): reading the entry points costs tens of ms, which
    # a program that never asks for the games does not pay
    if name == "GAMES":
        from engines.registry import registered_games

        games = {info.id: info.engine for info in registered_games().values()}
        globals()["GAMES"] = games
        return games
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: Session ``"game"`` value -> engine module path, in tab order (from :mod:`engines.registry`;
#: :func:`engines.registry.refresh` updates it in place).
GAMES: dict[str, str]


def _games() -> dict[str, str]:
    return globals().get("GAMES") or __getattr__("GAMES")


def game_module(game: str) -> ModuleType:
    """Import and return the engine module of ``game`` (a key of :data:`GAMES`).

    Raises:
        KeyError: ``game`` is not a known game.
        ModuleNotFoundError: the game's engine is not installed (not written yet).
    """
    from engines.registry import known_games, registered_games

    info = known_games().get(game) or registered_games()[game]   # built-ins: no metadata read
    return importlib.import_module(info.engine)


def available_games() -> list[str]:
    """The games whose engine module can be imported, in tab order."""
    out = []
    for game, path in _games().items():
        try:
            importlib.import_module(path)
        except ModuleNotFoundError as exc:
            if exc.name and exc.name.startswith(path):
                continue
            raise
        out.append(game)
    return out


def warm_up(games=None) -> None:
    """Import the engines of ``games`` (ids; default: every available game) and then move every
    object that exists — modules, classes, functions, and whatever the caller made before —
    to the permanent generation of Python's cyclic garbage collector (``gc.freeze``, Python
    documentation), which no later collection scans.

    For a program that runs inferences where latency counts (the desktop app does the same
    after its first window, :func:`desktop.shell.process.warm_engine_imports`; the command line after
    it has read its input): a full collection scans every tracked object, and with the engines'
    modules imported (about 30,000 objects) one took 10-16 ms, which fell inside a 1-2 ms
    Cluedo inference about once in a hundred. Objects frozen are never collected: call it once,
    after start-up, not in a loop. Call again after importing more engines to freeze those too.

    Raises:
        KeyError: a game in ``games`` is not known.
    """
    import gc

    for game in (available_games() if games is None else games):
        game_module(game)
    gc.collect()
    gc.freeze()

