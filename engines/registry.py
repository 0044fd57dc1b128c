"""The game registry: every game the app knows, found through Python entry points.

A game is declared by a :class:`GameInfo` object named by an entry point of the group
:data:`ENTRY_POINT_GROUP` (``deduction_desk.games``). The five built-in games are declared in
this repository's ``pyproject.toml``::

    [project.entry-points."deduction_desk.games"]
    cluedo = "engines.registry:CLUEDO"

and a game in a package of its own declares its ``GameInfo`` the same way in its own
``pyproject.toml``; installed (``pip install``), it appears in :func:`registered_games`, and so
in ``engines.GAMES``, the command line and the desktop's tabs (Python Packaging User Guide,
"Creating and discovering plugins", "Using package metadata").

Reading the registry imports no engine (``GameInfo`` holds module paths, titles and examples):
the desktop shows its tab bar before any engine is imported. :meth:`GameInfo.capabilities`
imports the engine and checks it against the Protocols of :mod:`engines.core.contract`.

Running from a source tree that was never installed (no ``deduction_desk`` distribution, or
one installed before the entry points were declared), no entry point names a built-in game:
:data:`BUILTIN_GAMES` are registered in any case, first and in their order, so the five games
always appear, and a built-in game is found without reading package metadata
(:func:`known_games`: the window's first frame, the command line on a built-in game's file).
An entry point with a built-in game's id that declares something else, or that cannot be
loaded, is skipped and named in :func:`discovery_problems` (the desktop logs it), never fatal.
"""
from __future__ import annotations

import dataclasses
import importlib
import sys
from pathlib import Path
from types import ModuleType
from typing import Optional

from engines.core.i18n import N_

#: The entry point group that declares games.
ENTRY_POINT_GROUP = "deduction_desk.games"


@dataclasses.dataclass(frozen=True)
class GameInfo:
    """One game as the app knows it before importing its engine.

    Attributes:
        id: the session file's ``"game"`` value (``"cluedo"``); the engine's ``GAME``.
        title: the tab title (``"Guess Who?"``); the engine's ``TITLE``.
        engine: the import path of the engine module (satisfies
            :class:`engines.core.contract.GameEngine`).
        example: one quick-entry line or two (shown as the entry line's placeholder; "" when
            the game has no quick entry).
        example_session: an example session file as ``"package:relative/path"`` (read with
            :mod:`importlib.resources`; ``resources:…`` is this repository's resource folder,
            found in a PyInstaller bundle too), or "" for none.
        tab: ``"module:Class"`` of a desktop tab the game's package provides (a
            ``desktop.tabs.base.GameTab`` subclass; "" lets the desktop choose: its own
            ``desktop/games/<id>/tab.py``, else a generic tab).
        guide: the game's page of the guide (Help → Guide, F1 on its tab), a Markdown file
            named as ``example_session`` is (``"package:relative/path.md"``); its pictures and
            links are relative to its own folder. "" for none (F1 shows the overview).

    The id and the title are declared here only: an engine module takes its ``GAME`` and
    ``TITLE`` from its ``GameInfo`` (``GAME, TITLE = INFO.id, INFO.title``), and the entry
    point's name must be the id (:func:`discover` skips one that is not).
    """

    id: str
    title: str
    engine: str
    example: str = ""
    example_session: str = ""
    tab: str = ""
    guide: str = ""

    def module(self) -> ModuleType:
        """The engine module (imported now if it was not).

        Raises:
            ModuleNotFoundError: the engine is not installed.
        """
        return importlib.import_module(self.engine)

    def capabilities(self) -> frozenset[str]:
        """The names of :data:`engines.core.contract.CAPABILITIES` the engine has (imports it)."""
        from engines.core.contract import capabilities

        return capabilities(self.module())

    def example_session_path(self) -> Optional[Path]:
        """The example session file, or None when the game declares none or it is missing."""
        return _packaged_file(self.example_session)

    def guide_page_path(self) -> Optional[Path]:
        """The game's guide page, or None when the game declares none or it is missing."""
        return _packaged_file(self.guide)


def _packaged_file(spec: str) -> Optional[Path]:
    """The file ``"package:relative/path"`` names (read with :mod:`importlib.resources`;
    ``resources:…`` is this repository's resource folder, found in a PyInstaller bundle too),
    or None for "" or a missing file or package."""
    if not spec:
        return None
    package, _, rel = spec.partition(":")
    if package == "resources":
        from engines.core.resources import resource_path

        path = resource_path(*rel.split("/"))
    else:
        from importlib.resources import files

        try:
            path = Path(str(files(package).joinpath(rel)))
        except ModuleNotFoundError:
            return None
    return path if path.is_file() else None


def _builtin(game: str, title: str, example: str) -> GameInfo:
    return GameInfo(game, title, f"engines.{game}", example, f"resources:examples/{game}.json",
                    guide=f"resources:guide/{game}.md")


# One example line per game for the quick entry's placeholder (docs/quick-entry.md); marked for
# translation where the game reads German and French words too (shown with gettext).
CLUEDO = _builtin("cluedo", "Cluedo", "Ann: plum rope hall; Bob   ·   Bob has rope")
INKOGNITO = _builtin("inkognito", "Inkognito", N_("Red: lord zsa fat   ·   Red: ambassador tall fat"))
EGGHEAD = _builtin("egghead", "Egghead", N_("sum = 14   ·   reactions: B, C   ·   B solves -> 112"))
GUESSWHO = _builtin("guesswho", N_("Guess Who?"), N_("glasses? no   ·   down alex   ·   opponent 12"))
SPYFALL = _builtin("spyfall", "Spyfall", N_("Bob: beach 1, casino .5   ·   Bob: all   ·   Bob asks Cy"))
#: The games of this repository, in tab order (also the fallback without package metadata).
BUILTIN_GAMES: tuple[GameInfo, ...] = (CLUEDO, INKOGNITO, EGGHEAD, GUESSWHO, SPYFALL)

_registered: Optional[dict[str, GameInfo]] = None
_problems: list[str] = []


def discover() -> dict[str, GameInfo]:
    """Read the entry points of :data:`ENTRY_POINT_GROUP` now: ``{id: GameInfo}`` in tab
    order (the built-in games in their order, then the others by id). See the module docstring
    for the fallback and for entry points that cannot be loaded."""
    from importlib.metadata import entry_points

    _problems.clear()
    builtin = {g.id: g for g in BUILTIN_GAMES}
    found: dict[str, GameInfo] = {}
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        try:
            info = ep.load()
        except Exception as exc:   # noqa: BLE001 - a broken plugin must not stop the app
            _problems.append(f"{ep.name} = {ep.value}: {type(exc).__name__}: {exc}")
            continue
        if not isinstance(info, GameInfo) or info.id != ep.name:
            _problems.append(f"{ep.name} = {ep.value}: not a GameInfo with id {ep.name!r}")
            continue
        if info.id in builtin and info != builtin[info.id]:
            _problems.append(f"{ep.name} = {ep.value}: {info.id!r} is a built-in game's id")
            continue
        found.setdefault(info.id, info)
    games = {g.id: found.pop(g.id, g) for g in BUILTIN_GAMES}
    games.update(sorted(found.items()))
    return games


def registered_games() -> dict[str, GameInfo]:
    """``{id: GameInfo}`` of every game, in tab order (discovered once, then kept; see
    :func:`refresh`)."""
    global _registered
    if _registered is None:
        _registered = discover()
    return _registered


def known_games() -> dict[str, GameInfo]:
    """The games known without reading package metadata: those of :func:`registered_games`
    once it ran, else the built-in games (the window's first frame uses this; reading the
    entry points imports :mod:`importlib.metadata` and scans every installed distribution,
    tens of milliseconds, which the first frame does not wait for)."""
    if _registered is not None:
        return _registered
    return {g.id: g for g in BUILTIN_GAMES}


def refresh() -> dict[str, GameInfo]:
    """Discover the games again (after a package was installed while running: tests) and
    update ``engines.GAMES`` in place."""
    global _registered
    _registered = discover()
    package = sys.modules.get("engines")      # the package reads this module, not the reverse
    games = package.__dict__.get("GAMES") if package is not None else None
    if games is not None:
        games.clear()
        games.update({g.id: g.engine for g in _registered.values()})
    return _registered


def game_info(game: str) -> GameInfo:
    """The :class:`GameInfo` of ``game``.

    Raises:
        KeyError: no such game is registered.
    """
    return registered_games()[game]


def discovery_problems() -> list[str]:
    """Entry points skipped by the last discovery, each with the reason."""
    return list(_problems)
