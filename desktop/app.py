"""QApplication, MainWindow, menus and the tab registry; the ``deduction-desk`` entry point.

Usage: ``deduction-desk [SESSION.json] [--tab GAME] [--screenshot OUT.png] [--self-test]``.
"""
from __future__ import annotations

import argparse
import functools
import html
import importlib
import importlib.util
import os
import sys
import time
from typing import Optional

from PySide6.QtCore import QSettings, Qt, QTimer, Slot
from PySide6.QtGui import QAction, QIcon, QKeySequence, QPainter, QUndoGroup
from PySide6.QtWidgets import (QApplication, QFileDialog, QLabel, QMainWindow, QMessageBox,
                               QTabWidget, QVBoxLayout, QWidget)

import desktop
from engines import GAMES
from engines.core.resources import resource_path   # light: engines.core imports lazily
from desktop import window_state
from desktop.widgets.plain_text import install_plain_item_tooltips   # Qt only
from desktop.widgets.unsaved import DISCARD_ALL, SAVE_ALL, ask_unsaved

# Start-up imports Qt and this module only: engines (numpy, scipy, cvxpy), pyqtgraph, the
# session and recovery modules and every tab module are imported when first used — a tab's
# when it is first shown or needed (docs/ARCHITECTURE.md, "Start-up").

APP_NAME = "Deduction Desk"
ORG_NAME = "DeductionDesk"
MAX_RECENT = 8


def plain_text_html(text: str) -> str:
    """``text`` as rich text that shows it literally: message boxes guess the format, so a file
    or player name such as ``<img src=…>`` would otherwise be drawn as HTML."""
    return "<p>" + html.escape(text, quote=False).replace("\n", "<br>") + "</p>"


#: Each game's tab title, known without importing its engine (equal to the engine's ``TITLE``;
#: a test checks). A game missing here shows its key until its tab is built.
GAME_TITLES: dict[str, str] = {
    "cluedo": "Cluedo", "inkognito": "Inkognito", "egghead": "Egghead",
    "guesswho": "Guess Who?", "spyfall": "Spyfall",
}
#: QSettings key of the game whose tab was shown last (built first at the next start).
LAST_TAB_KEY = "window/lastTab"


def _module_exists(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:   # a parent package is missing
        return False


def tab_games() -> list[str]:
    """The games that have a tab, in the order of engines.GAMES: both ``desktop.<game>.tab`` and
    the engine package exist. Found without importing either (``importlib.util.find_spec``)."""
    return [game for game, path in GAMES.items()
            if _module_exists(f"desktop.{game}.tab") and _module_exists(path)]


def tab_class(game: str) -> type:
    """The ``Tab`` class of ``game`` (imports its tab module and engine)."""
    return importlib.import_module(f"desktop.{game}.tab").Tab


def tab_classes() -> list:
    """The tab classes that exist, in the order of engines.GAMES (imports every tab module)."""
    return [tab_class(game) for game in tab_games()]


_gui_gc = None


def collect_garbage_on_gui_thread() -> None:
    """Run Python's cyclic garbage collector on the GUI thread only (pyqtgraph's
    ``GarbageCollector``: automatic collection off, a timer collects). Otherwise a collection
    that starts in a background job's thread may destroy Qt widgets there, which deadlocks
    against the GUI thread (seen with a Cluedo recommendation running while a closed window's
    menus were collected)."""
    global _gui_gc
    if _gui_gc is None:
        from pyqtgraph.util.garbage_collector import GarbageCollector

        _gui_gc = GarbageCollector(interval=0.5)


_warmed = False
#: Modules imported by the warm-up besides the engines: ones a view imports on the GUI thread
#: when first shown (the Spyfall equilibrium view reads its study through the solver's module,
#: which imports scipy.optimize and scipy.stats, about 0.5 s).
WARM_MODULES = ("engines.spyfall.equilibrium",)


def _read_session_job(path: str, _task) -> object:
    """Read and check a session file (a pool job; see MainWindow.open_path_in_background)."""
    from desktop.session import open_session_file

    return open_session_file(path)


def warm_engine_imports() -> None:
    """Import every game's engine in a background job, once (on a pool thread, so the GUI
    thread's next File → Open or tab finds them imported: the engines import scipy, about
    0.2 s each on first use). Called after the first tab is built, when garbage is already
    collected on the GUI thread only (:func:`collect_garbage_on_gui_thread`)."""
    global _warmed
    if _warmed:
        return
    _warmed = True
    from desktop.inference import thread_pool

    def job() -> None:
        import gc

        from engines import game_module

        for game in tab_games():
            try:
                game_module(game)
            except Exception:   # noqa: BLE001 - imported again, and reported, when used
                pass
        for name in WARM_MODULES:
            try:
                importlib.import_module(name)
            except Exception:   # noqa: BLE001 - as above
                pass
        # What exists now — modules, classes, the first window — lives until the app quits:
        # moved to the permanent generation, the cyclic collector (run on the GUI thread by a
        # timer) no longer scans it; a full collection fell from 50-65 ms to about 1 ms, and
        # to 12 ms with a 2,000-claim Spyfall log open (Python documentation, gc.freeze).
        gc.freeze()

    thread_pool().start(job)


class TabPage(QWidget):
    """The page of one game in the main window's QTabWidget. It holds the game's tab once that
    is built; until then it paints a "Loading …" line, and its first paint (the page became
    visible) asks for the tab to be built on the next turn of the event loop — after the frame
    with the line is on screen. A tab built that way stays hidden behind the line until its
    first beliefs are shown (at most :attr:`REVEAL_MS`), so the empty views before the first
    result never flash; a tab built because code needs it (:meth:`MainWindow.tab_for`) shows
    at once."""

    #: Longest wait for a new tab's first result before it is shown anyway (milliseconds).
    REVEAL_MS = 400

    def __init__(self, game: str, title: str, build, parent=None):
        super().__init__(parent)
        self.game, self.title = game, title
        #: The game's tab (a :class:`desktop.gametab.GameTab`), None until built.
        self.tab = None
        self._build = build          # build(page): builds the tab and puts it in this page
        self._scheduled = False
        self._reveal_on_result = False
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)

    def set_tab(self, tab) -> None:
        self.tab = tab
        self.layout().addWidget(tab)
        if self._reveal_on_result and tab.is_busy():
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

    def paintEvent(self, event) -> None:  # noqa: N802
        if self.tab is not None and not self.tab.isHidden():
            return
        painter = QPainter(self)
        painter.setPen(self.palette().placeholderText().color())
        painter.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, f"Loading {self.title}…")
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
        self._reveal_on_result = True
        try:
            self._build(self)
        finally:
            self._reveal_on_result = False


class MainWindow(QMainWindow):
    """The application window: one tab per game, File/Edit/View/Help menus, status bar.

    Tabs are built when first needed (docs/ARCHITECTURE.md, "Start-up"): the window starts
    with a light :class:`TabPage` per game and builds a game's tab when its page is first
    shown or when :meth:`tab_for` needs it. :attr:`game_tabs` holds the tabs built so far;
    :meth:`build_all_tabs` builds the rest.
    """

    def __init__(self, *, autosave: bool = True, interactive: bool = True):
        super().__init__()
        install_plain_item_tooltips()   # item views' tooltips show names literally
        #: False for --screenshot/--self-test: errors go to stderr instead of message boxes.
        self.interactive = interactive
        self._autosave_enabled = autosave
        self._autosave = None
        self._file_reader = None
        self._pending_open = None
        self._handoff = None
        self._building: Optional[str] = None
        self._painted = False
        self._after_paint: list = []
        self.setWindowTitle(APP_NAME)
        icon = resource_path("icons", "deduction-desk.png")
        if icon.exists():
            self.setWindowIcon(QIcon(str(icon)))
        self.undo_group = QUndoGroup(self)
        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        self.setCentralWidget(self.tabs)
        self._pages: dict[str, TabPage] = {}
        for game in tab_games():
            page = TabPage(game, GAME_TITLES.get(game, game), self._build_tab)
            self._pages[game] = page
            self.tabs.addTab(page, page.title)
        if interactive:   # the tab used last is shown (and so built) first
            last = self._settings().value(LAST_TAB_KEY)
            if isinstance(last, str) and last in self._pages:
                self.tabs.setCurrentWidget(self._pages[last])
        self.tabs.currentChanged.connect(self._tab_changed)
        self.status_label = QLabel()
        self.statusBar().addPermanentWidget(self.status_label)
        self._build_menus()
        self._tab_changed(self.tabs.currentIndex())
        # within the available screen (1280×800, 1366×768 included), or as the user left it;
        # each tab's splitters are restored when the tab is built
        if interactive:
            window_state.restore_window_state(self._settings(), self, {})
        else:
            window_state.apply_default_geometry(self)

    def after_first_frame(self, fn) -> None:
        """Call ``fn()`` on the turn of the event loop after the window's first paint (at the
        next turn if that was already painted)."""
        if self._painted:
            QTimer.singleShot(0, fn)
        else:
            self._after_paint.append(fn)

    def paintEvent(self, event) -> None:  # noqa: N802
        super().paintEvent(event)
        if not self._painted:
            self._painted = True
            for fn in self._after_paint:
                QTimer.singleShot(0, fn)
            self._after_paint.clear()

    @property
    def autosave(self):
        """This instance's own, locked recovery file (:class:`desktop.recovery.InstanceAutosave`),
        made on first use (the first tab built, or the recovery offer)."""
        if self._autosave is None:
            from desktop.recovery import HandoffServer, InstanceAutosave

            self._autosave = InstanceAutosave(self)
            self._autosave.enabled = self._autosave_enabled
            # another instance asking for a file this one has open: its tab comes to the front
            # (a file is only ever opened here through this recovery file's locks)
            self._handoff = HandoffServer(self._autosave, self.bring_file_to_front, self)
        return self._autosave

    @property
    def handoff(self):
        """This instance's hand-off server (:class:`desktop.recovery.HandoffServer`), listening
        from the moment the recovery file exists."""
        self.autosave   # noqa: B018 (made with the recovery file)
        return self._handoff

    # -- tabs -------------------------------------------------------------------------------
    @property
    def game_tabs(self) -> dict:
        """game → tab, for the tabs built so far, in tab order."""
        return {game: page.tab for game, page in self._pages.items() if page.tab is not None}

    def games(self) -> list[str]:
        """Every game with a tab (built or not), in tab order."""
        return list(self._pages)

    def build_all_tabs(self) -> dict:
        """Build every tab not built yet; returns :attr:`game_tabs` (all of them)."""
        for game in self._pages:
            self.tab_for(game)
        return self.game_tabs

    def current_tab(self):
        """The tab on screen, built now if it was not (None without tabs)."""
        page = self.tabs.currentWidget()
        return None if page is None else self.tab_for(page.game)

    def _shown_tab(self):
        """The tab on screen if it is built, else None (never builds)."""
        page = self.tabs.currentWidget()
        return None if page is None else page.tab

    def tab_for(self, game: str):
        """``game``'s tab, built now if it was not (and shown, if it waited for its first
        result); None when this build has no tab for it."""
        page = self._pages.get(game)
        if page is None:
            return None
        if page.tab is None:
            self._build_tab(page)
        else:
            page.reveal()
        return page.tab

    def _build_tab(self, page: TabPage) -> None:
        if self._building is not None:
            raise RuntimeError(f"the {page.game} tab was asked for while the {self._building} "
                               f"tab is being built")
        self._building = page.game
        try:
            collect_garbage_on_gui_thread()   # before the tab's first background job
            tab = tab_class(page.game)()
        finally:
            self._building = None
        self.undo_group.addStack(tab.document.undo_stack)
        tab.statusMessage.connect(self._status)
        tab.exportFinished.connect(self._export_finished)
        tab.document.undo_stack.cleanChanged.connect(self._update_title)
        tab.document.pathChanged.connect(self._update_title)
        self.autosave.watch(tab.document)
        warm_engine_imports()
        tab.history.setVisible(self.show_history.isChecked())
        tab.plot.setVisible(self.show_plot.isChecked())
        if self.interactive:
            window_state.restore_splitters(self._settings(), page.game, tab)
        page.set_tab(tab)
        if self.tabs.currentWidget() is page:
            self._tab_changed(self.tabs.currentIndex())

    def select_game(self, game: str) -> bool:
        """Show ``game``'s tab (built when its page is first painted, or by :meth:`tab_for`);
        False when this build has no tab for it."""
        page = self._pages.get(game)
        if page is None:
            return False
        self.tabs.setCurrentWidget(page)
        return True

    @Slot(str)
    def _status(self, text: str) -> None:
        if self.sender() is self._shown_tab():
            self.statusBar().showMessage(text)

    def _tab_changed(self, index: int) -> None:
        page = self.tabs.widget(index)
        if page is None:
            return
        if self.interactive:
            self._settings().setValue(LAST_TAB_KEY, page.game)
        tab = page.tab
        self.undo_group.setActiveStack(None if tab is None else tab.document.undo_stack)
        if tab is not None and tab.moment_status():
            self.statusBar().showMessage(tab.moment_status())
        else:
            self.statusBar().clearMessage()   # not another tab's news
        self._update_title()

    def _update_title(self, *_args) -> None:
        page = self.tabs.currentWidget()
        if page is None:
            return
        if page.tab is None:
            self.setWindowTitle(f"{page.title} — {APP_NAME}")
            self.setWindowModified(False)
            return
        tab = page.tab
        doc = tab.document
        self.setWindowTitle(f"{doc.display_name()}[*] — {tab.title()} — {APP_NAME}")
        self.setWindowModified(doc.is_modified())

    # -- menus ------------------------------------------------------------------------------
    def _action(self, menu, text, slot, shortcut=None, tip=None) -> QAction:
        act = QAction(text, self)
        if shortcut is not None:
            if isinstance(shortcut, (list, tuple)):
                act.setShortcuts([QKeySequence(s) for s in shortcut])
            else:
                act.setShortcut(QKeySequence(shortcut))
        if tip:
            act.setStatusTip(tip)
        act.triggered.connect(slot)
        menu.addAction(act)
        return act

    def _build_menus(self) -> None:
        mb = self.menuBar()
        f = mb.addMenu("&File")
        self._action(f, "&New game…", self.new_game, QKeySequence.New, "Start a new game in this tab")
        self._action(f, "&Open…", self.open_dialog, QKeySequence.Open)
        self.recent_menu = f.addMenu("Open &Recent")
        self._rebuild_recent()
        f.addSeparator()
        self._action(f, "&Save", self.save, QKeySequence.Save)
        self._action(f, "Save &As…", self.save_as, QKeySequence.SaveAs)
        f.addSeparator()
        self._action(f, "Export history as &CSV…", self.export_csv)
        self._action(f, "Export session as &JSON…", self.export_json)
        f.addSeparator()
        self._action(f, "&Quit", self.close, QKeySequence.Quit)

        e = mb.addMenu("&Edit")
        undo = self.undo_group.createUndoAction(self, "&Undo")
        undo.setShortcut(QKeySequence("Ctrl+Z"))
        redo = self.undo_group.createRedoAction(self, "&Redo")
        redo.setShortcuts([QKeySequence("Ctrl+Y"), QKeySequence("Ctrl+Shift+Z")])
        e.addAction(undo)
        e.addAction(redo)
        self.undo_action, self.redo_action = undo, redo

        v = mb.addMenu("&View")
        self.show_history = self._action(v, "Show &history", self._toggle_panels)
        self.show_history.setCheckable(True)
        self.show_history.setChecked(True)
        self.show_plot = self._action(v, "Show belief &plot", self._toggle_panels)
        self.show_plot.setCheckable(True)
        self.show_plot.setChecked(True)
        v.addSeparator()
        for i, page in enumerate(self._pages.values()):
            self._action(v, page.title, lambda _=False, p=page: self.tabs.setCurrentWidget(p), f"Ctrl+{i + 1}")

        h = mb.addMenu("&Help")
        from desktop.guide import install_guide
        install_guide(self, h, lambda: getattr(self.tabs.currentWidget(), "game", None))
        self._action(h, "&About Deduction Desk", self.show_about)

    def _toggle_panels(self) -> None:
        for tab in self.game_tabs.values():
            tab.history.setVisible(self.show_history.isChecked())
            tab.plot.setVisible(self.show_plot.isChecked())

    def show_about(self) -> None:
        QMessageBox.about(self, f"About {APP_NAME}",
                          f"<h3>{APP_NAME} {desktop.__version__}</h3>"
                          "<p>Exact deduction at the game table: Cluedo, Inkognito, Egghead, "
                          "Guess Who? and Spyfall.</p><p>Every probability shown is computed "
                          "from what you logged, in a background thread.</p>")

    # -- recent files ---------------------------------------------------------------------
    def _settings(self) -> QSettings:
        return QSettings(ORG_NAME, APP_NAME)

    def recent_files(self) -> list[str]:
        v = self._settings().value("recentFiles", [])
        if isinstance(v, str):
            v = [v]
        return [p for p in (v or []) if isinstance(p, str)]

    def _add_recent(self, path: str) -> None:
        path = os.path.abspath(path)
        files = [path] + [p for p in self.recent_files() if p != path]
        self._settings().setValue("recentFiles", files[:MAX_RECENT])
        self._rebuild_recent()

    def _rebuild_recent(self) -> None:
        self.recent_menu.clear()
        files = self.recent_files()
        for p in files:
            act = self.recent_menu.addAction(os.path.basename(p))
            act.setToolTip(p)
            act.triggered.connect(lambda _=False, path=p: self.open_path_in_background(path))
        self.recent_menu.setEnabled(bool(files))

    # -- file actions ---------------------------------------------------------------------
    def new_game(self) -> None:
        tab = self.current_tab()
        if tab is not None and self._maybe_save(tab):
            tab.new_game()

    def open_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open session", "", "Session files (*.json);;All files (*)")
        if path:
            self.open_path_in_background(path)

    def open_path(self, path: str, *, ask: bool = True) -> bool:
        """Open a session file into its game's tab (built if it was not), reading it on this
        thread (scripts, tests, the screenshot mode; the menus use
        :meth:`open_path_in_background`). A bad file shows a message, changes nothing.
        Returns True when the session was opened."""
        from engines.core.errors import SessionFormatError
        from desktop.session import open_session_file

        if self.hand_off_if_open_elsewhere(path):
            return False
        try:
            data = open_session_file(path)
        except SessionFormatError as exc:
            self._error("Cannot open the session", str(exc))
            return False
        return self._show_opened(path, data, ask)

    def open_path_in_background(self, path: str, *, ask: bool = True) -> None:
        """Open a session file as :meth:`open_path` does, with the file read and checked on a
        pool thread: the largest logs take a few hundred ms to parse, which the window spends
        responsive (the status bar says what is being opened). The tab shows the session when
        the reading is done; a bad file gets the same message. Of several opens in a row, the
        newest wins."""
        if self.hand_off_if_open_elsewhere(path):
            return
        self._pending_open = (path, ask)
        self.statusBar().showMessage(f"Opening {os.path.basename(path)}…")
        self.file_reader.submit(functools.partial(_read_session_job, path))

    @property
    def file_reader(self):
        """The runner that reads session files in the background (made on first use)."""
        if self._file_reader is None:
            from desktop.inference import InferenceRunner

            self._file_reader = InferenceRunner(self, "open")
            self._file_reader.resultReady.connect(self._on_file_read)
            self._file_reader.failed.connect(self._on_file_read_failed)
        return self._file_reader

    @Slot(int, object, float)
    def _on_file_read(self, _revision: int, data, _seconds: float) -> None:
        path, ask = self._pending_open
        self._pending_open = None
        self.statusBar().clearMessage()
        self._show_opened(path, data, ask)

    @Slot(int, object)
    def _on_file_read_failed(self, _revision: int, exc) -> None:
        self._pending_open = None
        self.statusBar().clearMessage()
        self._error("Cannot open the session", str(exc))

    def _show_opened(self, path: str, data, ask: bool) -> bool:
        """Load a read session into its game's tab and bring the tab to the front (False: no
        such tab, or the user kept the unsaved game)."""
        tab = self.tab_for(data.game)
        if tab is None:
            self._error("Cannot open the session", f"{path}: this build has no {data.game} tab")
            return False
        if ask and not self._maybe_save(tab):
            return False
        tab.load_session(data, os.path.abspath(path))
        self.select_game(data.game)
        self._add_recent(path)
        self._update_title()
        return True

    def hand_off_if_open_elsewhere(self, path: str) -> bool:
        """When another instance has ``path`` open, hand the file to it (its window comes to
        the front with the file's tab, :func:`desktop.recovery.request_handoff`) and say so, or
        refuse the file when that instance does not answer. True when the file is open
        elsewhere (then it must not be opened here)."""
        from desktop.recovery import open_elsewhere_owner, request_handoff

        owner = open_elsewhere_owner(path, self.autosave)
        if owner is None:
            return False
        pid, instance = owner
        if instance and request_handoff(path, instance):
            text = (f"This file is open in another {APP_NAME} window (PID {pid}); it was "
                    f"brought to the front.")
            self.statusBar().showMessage(text, 8000)
            if self.interactive:
                QMessageBox.information(self, "Open in another window", plain_text_html(text))
            else:
                print(text, file=sys.stderr)
            return True
        self._error("Cannot open the session", f"{path} is already open in another {APP_NAME} "
                    f"window (process {pid}); two windows saving one file would overwrite "
                    f"each other's events")
        return True

    def bring_file_to_front(self, path: str) -> bool:
        """Select the tab holding the session file ``path`` and raise and activate this window
        (another instance asked for the file); False when no tab holds it."""
        real = os.path.realpath(path)
        for game, tab in self.game_tabs.items():
            p = tab.document.path
            if p and os.path.realpath(p) == real:
                self.select_game(game)
                if self.isMinimized():
                    self.showNormal()
                self.show()
                self.raise_()
                self.activateWindow()
                self.statusBar().showMessage(
                    f"Another {APP_NAME} window asked to open {os.path.basename(path)}: "
                    f"it is open here.", 8000)
                return True
        return False

    def save(self) -> bool:
        tab = self.current_tab()
        if tab is None:
            return False
        if not tab.document.path:
            return self.save_as()
        return self._save_to(tab, tab.document.path)

    def save_as(self) -> bool:
        tab = self.current_tab()
        if tab is None:
            return False
        path, _ = QFileDialog.getSaveFileName(self, "Save session", tab.document.path or f"{tab.GAME}.json",
                                              "Session files (*.json)")
        if not path:
            return False
        if not path.endswith(".json"):
            path += ".json"
        return self._save_to(tab, path)

    def _save_to(self, tab, path: str) -> bool:
        try:
            tab.document.save(path)
        except OSError as exc:
            self._error("Cannot save", str(exc))
            return False
        self._add_recent(path)
        self.statusBar().showMessage(f"Saved {path}", 4000)
        self._update_title()
        return True

    def export_json(self) -> None:
        from desktop.session import write_text_atomically

        tab = self.current_tab()
        path, _ = QFileDialog.getSaveFileName(self, "Export session as JSON", f"{tab.GAME}-session.json",
                                              "JSON (*.json)")
        if path:
            try:
                write_text_atomically(path, tab.document.to_text())
                self.statusBar().showMessage(f"Exported {path}", 4000)
            except OSError as exc:
                self._error("Cannot export", str(exc))

    def export_csv(self) -> None:
        tab = self.current_tab()
        path, _ = QFileDialog.getSaveFileName(self, "Export history as CSV", f"{tab.GAME}-history.csv", "CSV (*.csv)")
        if path:
            self.write_csv(tab, path)

    def write_csv(self, tab, path: str) -> None:
        """Export ``tab``'s history with the beliefs after every event (finishes asynchronously
        when beliefs must be computed first; the status bar or a message tells the outcome)."""
        tab.export_history_csv(path)

    @Slot(str, str)
    def _export_finished(self, path: str, error: str) -> None:
        if error:
            self._error("Cannot export", error)
        else:
            self.statusBar().showMessage(f"Exported {path}", 4000)

    def _error(self, title: str, text: str) -> None:
        self.statusBar().showMessage(text, 8000)
        if self.interactive:
            QMessageBox.warning(self, title, plain_text_html(text))
        else:
            print(f"error: {text}", file=sys.stderr)

    def _maybe_save(self, tab) -> bool:
        """Ask Save / Discard / Cancel when ``tab`` has unsaved changes; True to go on."""
        if not tab.document.is_modified():
            return True
        self.select_game(tab.GAME)
        ans = QMessageBox.question(
            self, "Unsaved changes",
            plain_text_html(f"The {tab.title()} game ({tab.document.display_name()}) has unsaved "
                            f"changes. Save them?"),
            QMessageBox.Save | QMessageBox.Discard | QMessageBox.Cancel, QMessageBox.Save)
        if ans == QMessageBox.Save:
            return self.save()
        return ans == QMessageBox.Discard

    def _unsaved_line(self, tab) -> str:
        n = len(tab.document.events)
        return f"{tab.title()} — {tab.document.display_name()} ({n} entr{'y' if n == 1 else 'ies'})"

    def _close_unsaved(self) -> bool:
        """Ask about the unsaved games before quitting: one Save / Discard / Cancel question for
        one game, one Save all / Discard all / Cancel dialog listing them for several. True to
        quit (everything saved or discarded)."""
        # a tab not built yet has nothing unsaved
        unsaved = [t for t in self.game_tabs.values() if t.document.is_modified()]
        if len(unsaved) <= 1:
            return all(self._maybe_save(t) for t in unsaved)
        choice = ask_unsaved(self, [self._unsaved_line(t) for t in unsaved])
        if choice == DISCARD_ALL:
            return True
        if choice != SAVE_ALL:
            return False
        for tab in unsaved:   # an untitled game asks for its file; cancelling there stops quitting
            self.select_game(tab.GAME)
            if not self.save():
                return False
        return True

    def closeEvent(self, event) -> None:  # noqa: N802
        if not self._close_unsaved():
            event.ignore()
            return
        from desktop.recovery import finish_threads

        window_state.save_window_state(self._settings(), self, self.game_tabs)
        if self._autosave is not None:
            self._autosave.discard()
        self.shutdown()
        if self._handoff is not None:
            self._handoff.close()
        if self._autosave is not None:
            self._autosave.release()
        finish_threads(self)
        event.accept()

    def shutdown(self) -> None:
        """Stop every built tab's background threads (before the window goes away)."""
        if self._file_reader is not None:
            self._file_reader.shutdown()
        for tab in self.game_tabs.values():
            tab.shutdown()

    # -- recovery -----------------------------------------------------------------------
    def offer_recovery(self, ask: bool = True) -> bool:
        """Offer the sessions of windows that closed without saving (their instance is gone);
        True if restored (:func:`desktop.recovery.offer_restore`; a game's tab is built when a
        session is restored into it)."""
        from desktop.recovery import offer_restore

        return offer_restore(self, ask)

    def start(self, session: Optional[str] = None) -> None:
        """What start-up does once the window is visible: offer the recovery files of windows
        that closed without saving, then open ``session`` (a path) if given."""
        self.offer_recovery()
        if session:
            self.open_path_in_background(session, ask=False)

    def wait_idle(self, timeout_s: float = 30.0) -> bool:
        """Build the tab on screen if needed, then process events until a file being opened is
        shown, every built tab's inference is done and its History laid out (for screenshots
        and tests)."""
        self.current_tab()
        app = QApplication.instance()
        t_end = time.monotonic() + timeout_s
        while time.monotonic() < t_end:
            app.processEvents()
            busy = any(t.is_busy() or not t.history.is_laid_out()
                       for t in self.game_tabs.values())
            if self._pending_open is None and not busy:
                for _ in range(5):
                    app.processEvents()
                return True
            time.sleep(0.01)
        return False


def parse_args(argv):
    p = argparse.ArgumentParser(prog="deduction-desk", description="Exact deduction at the game table.")
    p.add_argument("session", nargs="?", help="a session file to open")
    p.add_argument("--tab", choices=list(GAMES), help="the tab to show")
    p.add_argument("--screenshot", metavar="OUT.png", help="render the window to a PNG and exit")
    p.add_argument("--size", default="1280x820", help="window size for --screenshot (WxH)")
    p.add_argument("--self-test", action="store_true", help="headless check of every tab and engine")
    p.add_argument("--color-scheme", choices=("system", "light", "dark"), default=None,
                   help="light or dark colours (default: follow the desktop)")
    return p.parse_args(argv)


def make_app(argv=None) -> QApplication:
    app = QApplication.instance() or QApplication(argv or [sys.argv[0]])
    app.setApplicationName(APP_NAME)
    app.setOrganizationName(ORG_NAME)
    app.setApplicationVersion(desktop.__version__)
    app.setDesktopFileName("deduction-desk")  # links windows to packaging/deduction-desk.desktop
    return app


def hand_off_at_start(path: str) -> bool:
    """``deduction-desk FILE`` while another instance has FILE open: that instance brings the
    file's tab to the front and this one ends (True) without opening a window; False when no
    instance holds the file or the holder did not answer (this instance starts and refuses
    the file with a message naming the other process)."""
    from desktop.recovery import open_elsewhere_owner, request_handoff

    owner = open_elsewhere_owner(path)
    if owner is None or not owner[1] or not request_handoff(path, owner[1]):
        return False
    print(f"{path}: this file is open in another {APP_NAME} window (PID {owner[0]}); it was "
          f"brought to the front.", file=sys.stderr)
    return True


def main(argv=None) -> int:
    """Entry point of ``deduction-desk``; returns the exit code."""
    import multiprocessing

    multiprocessing.freeze_support()  # simulators use worker processes (also in the bundle)
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.self_test:
        from desktop.selftest import run_self_test

        return run_self_test(args.screenshot)
    if args.screenshot and not os.environ.get("QT_QPA_PLATFORM") and not os.environ.get("DISPLAY"):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    app = make_app()
    from desktop.appearance import follow_system

    follow_system(app, args.color_scheme)
    headless = bool(args.screenshot)
    if args.session and not headless and hand_off_at_start(args.session):
        return 0
    win = MainWindow(autosave=not headless, interactive=not headless)
    if args.tab:
        win.select_game(args.tab)
    if not headless:
        # once the window is on screen: recovery, then the session file; each builds the tab
        # it needs
        win.after_first_frame(lambda: win.start(args.session))
        win.show()
        return app.exec()
    return _screenshot(app, win, args)


def _screenshot(app: QApplication, win: MainWindow, args) -> int:
    """``--screenshot OUT.png``: open the session (if any), wait for its beliefs, render the
    window to a PNG and quit; returns the exit code (2: the session could not be opened)."""
    if args.session:
        if not win.open_path(args.session, ask=False):
            win.shutdown()
            return 2
        if args.tab:
            win.select_game(args.tab)
    w, _, h = args.size.partition("x")
    win.resize(int(w), int(h))
    win.show()
    if not win.wait_idle(timeout_s=600.0):   # a 6-player Egghead log takes minutes
        print("warning: inference still running after 10 minutes; the screenshot shows "
              "the beliefs so far", file=sys.stderr)
    app.processEvents()
    ok = win.grab().save(args.screenshot)
    win.shutdown()
    from desktop.recovery import finish_threads

    finish_threads(win, 1.0)   # a computation still running must not abort the exit
    if not ok:
        print(f"error: cannot write {args.screenshot}", file=sys.stderr)
        return 1
    return 0
