"""The main window's tabs: which games have one, which class builds it, and the light page
that stands for a tab until it is built.

Which games: every game of the registry (:mod:`engines.registry`) whose engine is installed,
in the registry's order. Which class: the ``GameInfo.tab`` the game's package names
(``"module:Class"``), else this repository's ``desktop/games/<game>/tab.py`` (its ``Tab``), else
:class:`desktop.tabs.generic_tab.GenericTab`. Found without importing an engine or a tab module
(``importlib.util.find_spec``): start-up imports neither.
"""
from __future__ import annotations

import importlib
import importlib.util
from typing import Optional

from PySide6.QtCore import QTimer, Slot
from PySide6.QtGui import QPainter, QPalette
from PySide6.QtWidgets import QVBoxLayout, QWidget

from engines.core.i18n import _
from engines.registry import registered_games

#: ``Qt.AlignmentFlag.AlignCenter`` (``AlignHCenter | AlignVCenter``) as the int that
#: ``QStyle.drawItemText`` takes: the first frame draws the "Loading" line without touching
#: PySide's ``Qt`` namespace, whose ~100 Python enums take about 14 ms to create (measured with
#: tests/benchmarks/bench_startup.py); tests/desktop/test_startup.py checks the value.
ALIGN_CENTER = 0x0084


def _module_exists(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ModuleNotFoundError, ValueError):   # a parent package is missing
        return False


def tab_games(games: Optional[dict] = None) -> list[str]:
    """The games of ``games`` (default: every registered game) that have a tab, in order:
    those whose engine is installed."""
    games = registered_games() if games is None else games
    return [game for game, info in games.items() if _module_exists(info.engine)]


def tab_class(game: str) -> type:
    """The tab class of ``game`` (imports its tab module and engine); see the module
    docstring for the order in which it is looked for."""
    info = registered_games()[game]
    if info.tab:
        module, _, name = info.tab.partition(":")
        return getattr(importlib.import_module(module), name)
    if _module_exists(f"desktop.games.{game}.tab"):
        return importlib.import_module(f"desktop.games.{game}.tab").Tab
    from desktop.tabs.generic_tab import generic_tab_class

    return generic_tab_class(game)



class TabPage(QWidget):
    """The page of one game in the main window's QTabWidget. It holds the game's tab once that
    is built; until then it paints a "Loading …" line, and its first paint (the page became
    visible) asks for the tab to be built on the next turn of the event loop — after the frame
    with the line is on screen. A tab built that way stays hidden behind the line until its
    first beliefs are shown (at most :attr:`REVEAL_MS`), so the empty views before the first
    result never flash; a tab built because code needs it
    (:meth:`desktop.shell.main_window.MainWindow.tab_for`) shows at once."""

    #: Longest wait for a new tab's first result before it is shown anyway (milliseconds).
    REVEAL_MS = 400

    def __init__(self, game: str, title: str, build, parent=None):
        super().__init__(parent)
        self.game, self.title = game, title
        #: The game's tab (a :class:`desktop.tabs.base.GameTab`), None until built.
        self.tab = None
        self._build = build          # build(page): builds the tab (now or in turns), puts it here
        self._scheduled = False
        self._reveal_on_result = False
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)

    def set_tab(self, tab) -> None:
        self.tab = tab
        self.layout().addWidget(tab)
        reveal_on_result, self._reveal_on_result = self._reveal_on_result, False
        if reveal_on_result and tab.is_busy():
            tab.hide()
            tab.inferenceDone.connect(self.reveal)
            QTimer.singleShot(self.REVEAL_MS, self.reveal)
        else:
            tab.show()   # at once (a layout shows a new child of a visible widget only later)

    @Slot()
    def reveal(self, *_args) -> None:
        """Show the tab now if it waits for its first result."""
        if self.tab is not None and self.tab.isHidden():
            self.tab.show()

    def paintEvent(self, event) -> None:  # noqa: N802 (Qt's method name)
        if self.tab is not None and not self.tab.isHidden():
            return
        painter = QPainter(self)
        # the placeholder colour, as painter.setPen(palette.placeholderText().color()) would
        # give, without PySide's overload check of setPen (it creates the Qt namespace)
        self.style().drawItemText(painter, self.rect(), ALIGN_CENTER, self.palette(), True,
                                  _("Loading {game}…").format(game=self.title),
                                  QPalette.ColorRole.PlaceholderText)
        painter.end()
        if not self._scheduled:
            self._scheduled = True
            QTimer.singleShot(0, self._build_now)

    @Slot()
    def _build_now(self) -> None:
        if self.tab is not None:
            return
        if not self.isVisible():      # another tab was selected meanwhile: build when shown
            self._scheduled = False
            return
        self._reveal_on_result = True      # until the tab is placed (set_tab), maybe turns later
        try:
            self._build(self)
        except BaseException:
            self._reveal_on_result = False
            raise
