"""Deduction Desk inference engines: pure Python (numpy, scipy, cvxpy), never Qt.

Each game lives in ``engines.<game>`` and follows the contract of
:mod:`engines.core.contract` (engines/CONTRACT.md); :data:`GAMES` maps the session file's
``"game"`` value to that module.
"""
from __future__ import annotations

import importlib
from types import ModuleType

#: Session ``"game"`` value -> module path. The order is the order of the tabs.
GAMES: dict[str, str] = {
    "cluedo": "engines.cluedo",
    "inkognito": "engines.inkognito",
    "egghead": "engines.egghead",
    "guesswho": "engines.guesswho",
    "spyfall": "engines.spyfall",
}


def game_module(game: str) -> ModuleType:
    """Import and return the engine module of ``game`` (a key of :data:`GAMES`).

    Raises:
        KeyError: ``game`` is not a known game.
        ModuleNotFoundError: the game's engine is not installed (not written yet).
    """
    return importlib.import_module(GAMES[game])


def available_games() -> list[str]:
    """The games whose engine module can be imported, in tab order."""
    out = []
    for game, path in GAMES.items():
        try:
            importlib.import_module(path)
        except ModuleNotFoundError as exc:
            if exc.name and exc.name.startswith(path):
                continue
            raise
        out.append(game)
    return out
