"""QApplication, MainWindow and the ``deduction-desk`` entry point.

Usage: ``deduction-desk [SESSION.json] [--tab GAME] [--screenshot OUT.png] [--self-test]
[--log-level LEVEL]``.

The window's concerns live in modules of their own: the tabs and their lazy pages
(:mod:`desktop.shell.tab_pages`), the file actions (:mod:`desktop.shell.file_actions`), the recovery file
and hand-off (:mod:`desktop.storage.window_autosave`), the menus (:mod:`desktop.shell.menus`), the
screenshot mode (:mod:`desktop.shell.headless`) and the self-test (:mod:`desktop.shell.selftest`);
:func:`main` makes the process-wide settings (:mod:`desktop.shell.process`) and installs logging and
the error dialogs (:mod:`desktop.shell.errors`).
"""
from __future__ import annotations

import inspect
import logging
import os
import sys
from typing import Callable, Optional

from PySide6.QtCore import QCoreApplication, QEvent, QPoint, QTimer, Signal, Slot
from PySide6.QtGui import QIcon, QPixmap, QRegion, QUndoGroup
from PySide6.QtWidgets import QApplication, QLabel, QMainWindow, QTabWidget

import desktop
from desktop import table  # zoom, privacy screen, keep awake, reopen
from desktop.shell import window_geometry
from desktop.shell.file_actions import FileActions, plain_text_html
from desktop.shell.menus import MenuActions
from desktop.shell.process import NEXT_TURN_MS
from desktop.shell.settings import APP_NAME, LAST_TAB, ORG_NAME, app_settings
from desktop.shell.tab_pages import TabPage, tab_class, tab_games
from desktop.storage.window_autosave import RecoveryWiring, hand_off_at_start
from desktop.widgets.plain_text import install_plain_item_tooltips  # Qt only
from engines.core.i18n import _
from engines.core.resources import resource_path  # light: engines.core imports lazily
from engines.registry import discovery_problems, known_games, registered_games

# Start-up imports Qt and these modules only: engines (numpy, scipy, cvxpy), pyqtgraph, the
# session and recovery modules and every tab module are imported when first used — a tab's
# when it is first shown or needed (docs/ARCHITECTURE.md, "Start-up"). What only main() uses
# (logging and the error dialogs, the clean ends) is imported there, so that the first window
# of a test or of the start-up benchmark does not wait for it either.

__all__ = ["APP_NAME", "ORG_NAME", "MainWindow", "main", "make_app",
           "plain_text_html"]
log = logging.getLogger(__name__)
_UPDATE_REQUEST = QEvent.Type.UpdateRequest


class MainWindow(FileActions, RecoveryWiring, MenuActions, QMainWindow):
    """The application window: one tab per game, File/Edit/View/Help menus, status bar.

    Tabs are built when first needed (docs/ARCHITECTURE.md, "Start-up"): the window starts
    with a light :class:`~desktop.shell.tab_pages.TabPage` per registered game and builds a game's
    tab when its page is first shown or when :meth:`tab_for` needs it. :attr:`game_tabs` holds
    the tabs built so far; :meth:`build_all_tabs` builds the rest.

    Signals:
        tabBuilt(str game): a game's tab was built and placed (``main()`` starts the engines'
            warm-up on the first).
    """

    tabBuilt = Signal(str)

    def __init__(self, *, autosave: bool = True, interactive: bool = True):
        super().__init__()
        #: False for --screenshot/--self-test: errors go to stderr instead of message boxes.
        self.interactive = interactive
        self._autosave_enabled = autosave
        self._autosave = None
        self._file_reader = None
        self._pending_open = None
        self._handoff = None
        self._building: Optional[str] = None
        self._partial: dict = {}      # game -> its tab while it is built in turns
        self._painted = False
        self._paint_put_off = False     # the next paint waits a turn (paint_next_turn)
        self._after_paint: list = []
        # item views' tooltips show names literally; after the first paint, which it would slow
        self.after_first_frame(install_plain_item_tooltips)
        self.setWindowTitle(APP_NAME)
        icon = resource_path("icons", "deduction-desk.png")
        if icon.exists():
            self.setWindowIcon(QIcon(str(icon)))
        self.undo_group = QUndoGroup(self)
        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        self.setCentralWidget(self.tabs)
        self._pages: dict[str, TabPage] = {}
        games = known_games()   # the installed packages' games come after the first frame
        for game in tab_games(games):
            self._add_page(game, _(games[game].title))
        if interactive:   # the tab used last is shown (and so built) first
            last = LAST_TAB.read()
            if last in self._pages:
                self.tabs.setCurrentWidget(self._pages[last])
        self.tabs.currentChanged.connect(self._tab_changed)
        self.status_label = QLabel()
        self.statusBar().addPermanentWidget(self.status_label)
        self._build_menus()
        table.install(self)   # zoom, privacy screen, keep awake, reopen (desktop.table)
        self.after_first_frame(self.add_discovered_games)
        self._tab_changed(self.tabs.currentIndex())
        # within the available screen (1280×800, 1366×768 included), or as the user left it;
        # each tab's splitters are restored when the tab is built
        if interactive:
            window_geometry.restore_window_state(app_settings(), self, {})
        else:
            window_geometry.apply_default_geometry(self)

    def _add_page(self, game: str, title: str) -> TabPage:
        # "Wer ist es?" in German, as the guide's list; built in turns when first shown
        page = TabPage(game, _(title), lambda p: self.build_tab_in_turns(p.game))
        self._pages[game] = page
        self.tabs.addTab(page, page.title)
        return page

    def add_discovered_games(self) -> None:
        """Read the installed packages' games (:func:`engines.registry.registered_games`:
        entry points) and add a page for each game that has none yet, with its View menu item.
        Called after the first frame, and by ``main()`` before ``--tab`` is applied."""
        games = registered_games()
        for problem in discovery_problems():
            log.warning("game not loaded: %s", problem)
        for game in tab_games(games):
            if game not in self._pages:
                self.add_tab_action(self._add_page(game, _(games[game].title)))

    def after_first_frame(self, fn) -> None:
        """Call ``fn()`` on the turn of the event loop after the window's first paint (at the
        next turn if that was already painted)."""
        if self._painted:
            QTimer.singleShot(0, self, fn)   # dropped if the window is gone by then
        else:
            self._after_paint.append(fn)

    def event(self, event) -> bool:
        """Qt's event handler; the window's repaint holds the jobs' gate
        (:data:`desktop.tabs.jobs.worker_gate`). An ``UpdateRequest`` to the window paints,
        in this one call, every widget of it with a dirty region, and each of the paint's calls
        from Qt into Python (a model's data, a style's draw) must take the interpreter lock
        again, which a job computing Python beside it holds: opening the 100-event Inkognito
        file, the GUI thread was blocked 130 of 179 ms of one such paint while the file's beliefs
        computed (tests/benchmarks/bench_open_stall.py, the threads' scheduler statistics). Jobs
        pause at their next poll until the paint ends."""
        if event.type() == _UPDATE_REQUEST:
            if self._paint_put_off:
                self._paint_put_off = False
                QTimer.singleShot(NEXT_TURN_MS, self, self._paint_now)
                return True
            jobs = sys.modules.get("desktop.tabs.jobs")   # no jobs before it is imported
            if jobs is not None:
                with jobs.worker_gate.hold():
                    return super().event(event)
        return super().event(event)

    def paintEvent(self, event) -> None:  # noqa: N802 (Qt's method name)
        super().paintEvent(event)
        if not self._painted:
            self._painted = True
            for fn in self._after_paint:
                QTimer.singleShot(0, self, fn)
            self._after_paint.clear()

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
        """Build ``page``'s tab now (what is left of it, if it was being built in turns)."""
        while self._build_part(page):
            pass

    def build_tab_in_turns(self, game: str, then: Optional[Callable[[], None]] = None) -> None:
        """Build ``game``'s tab a part per turn of the event loop (its
        :meth:`desktop.tabs.base.GameTab.build_step`, :data:`desktop.shell.process.NEXT_TURN_MS` apart), then call
        ``then()`` (at once if the tab is built or the game has none). Building a tab takes
        80-130 ms of the GUI thread; in parts, no turn takes more than about 30 ms, and the
        window answers between them. :meth:`tab_for` finishes a build under way at once."""
        page = self._pages.get(game)

        def step() -> None:
            if page is not None and page.tab is None and self._build_part(page):
                QTimer.singleShot(NEXT_TURN_MS, self, step)
            elif then is not None:
                then()

        step()

    def off_screen_steps(self, game: str) -> list:
        """The steps, each for a turn of its own, that lay out and draw ``game``'s tab off
        screen at the size it will have, when it is not in front (else none): its page given
        the front page's size and laid out (its pending resize events sent by drawing one
        pixel), then its left half drawn, then its right half. Bringing it to the front then
        finds its widgets polished, its layouts made for what it now holds and its text laid
        out. A tab never shown came to the front in 18-28 ms of the GUI thread where it took
        38-39 (Spyfall, Egghead, Inkognito). Drawn whole in one turn, the 100-event Inkognito
        log's tab took 37-43 ms; in these parts 6, 21 and 16 ms (first drawing). Called before
        File → Open brings the tab to the front (:meth:`FileActions._show_opened_in_turns`)."""
        page = self._pages.get(game)
        tab = page.tab if page is not None else None
        front = self.tabs.currentWidget()
        if tab is None or page is front or front is None:
            return []
        size = front.size()
        if size.isEmpty():
            return []
        canvas = QPixmap(size)
        half = size.width() // 2

        def lay_out() -> None:
            # the page, not the tab in it: a hidden page of the stack keeps its old size until
            # it comes to the front, and its layout set the tab back to it (640 x 480) as the
            # drawing began, so the tab was laid out and drawn at a size it never has
            page.resize(size)
            page.render(QPixmap(1, 1), QPoint(), QRegion(0, 0, 1, 1))

        def draw(x: int, width: int):
            return lambda: page.render(canvas, QPoint(x, 0), QRegion(x, 0, width, size.height()))

        return [lay_out, draw(0, half), draw(half, size.width() - half)]

    def paint_next_turn(self) -> None:
        """Put the window's next paint off to a turn of the event loop of its own
        (:data:`desktop.shell.process.NEXT_TURN_MS` later): what is due meanwhile (a timer, input) comes between
        the turn that changed the window and its paint. File → Open brings a tab to the front
        so (:meth:`FileActions._show_opened_in_turns`): its first paint took 21-26 ms after
        ``select_game``'s 8 in one turn (the 100-event Inkognito log)."""
        self._paint_put_off = True

    @Slot()
    def _paint_now(self) -> None:
        QCoreApplication.sendEvent(self, QEvent(_UPDATE_REQUEST))

    def _build_part(self, page: TabPage) -> bool:
        """Build the next part of ``page``'s tab (the tab made, with its first part, if it was
        not); True while parts are left, False once the tab is built and placed."""
        if self._building is not None:
            raise RuntimeError(f"the {page.game} tab was asked for while the {self._building} "
                               f"tab is being built")
        self._building = page.game
        try:
            tab = self._partial.get(page.game)
            if tab is None:
                cls = tab_class(page.game)
                if "staged" not in inspect.signature(cls).parameters:   # a tab of its own making
                    tab = cls()
                else:
                    tab = self._partial[page.game] = cls(staged=True)
                    return True
            elif tab.build_step():
                return True
        finally:
            self._building = None
        self._partial.pop(page.game, None)
        self._place_tab(page, tab)
        return False

    def _place_tab(self, page: TabPage, tab) -> None:
        """A built tab into its page, with the window's undo group, title, autosave, View
        options and wording."""
        self.undo_group.addStack(tab.controller.document.undo_stack)
        tab.statusMessage.connect(self._status)
        tab.exportFinished.connect(self._export_finished)
        tab.controller.document.undo_stack.cleanChanged.connect(self._update_title)
        tab.controller.document.pathChanged.connect(self._update_title)
        self.autosave.watch(tab.controller.document)
        tab.history.setVisible(self.show_history.isChecked())
        tab.plot.setVisible(self.show_plot.isChecked())
        tab.controller.set_wording(self.wording())
        if self.interactive:
            window_geometry.restore_splitters(app_settings(), page.game, tab)
        page.set_tab(tab)
        if self.tabs.currentWidget() is page:
            self._tab_changed(self.tabs.currentIndex())
        self.tabBuilt.emit(page.game)

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
            LAST_TAB.write(page.game)
        tab = page.tab
        self.undo_group.setActiveStack(None if tab is None else tab.controller.document.undo_stack)
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
        doc = tab.controller.document
        self.setWindowTitle(f"{doc.display_name()}[*] — {tab.title()} — {APP_NAME}")
        self.setWindowModified(doc.is_modified())

    _ended = False

    def commit_data(self, _manager=None) -> None:
        """The desktop session is about to end (``QGuiApplication.commitDataRequest``): write
        the recovery file now, the journal emptied into it, and the window's state. The app
        goes on running (the logout may be cancelled; :mod:`desktop.shell.clean_end`); games without
        unsaved changes are marked saved in it and never offered."""
        log.info("the desktop session asks to save (logout)")
        if self.interactive:
            window_geometry.save_window_state(app_settings(), self, self.game_tabs)
        if self._autosave is not None:
            self._autosave.write()

    def end_without_asking(self, reason: str) -> None:
        """End the app as a quit does, without a question (SIGTERM, SIGHUP, the desktop
        session's logout: :mod:`desktop.shell.clean_end`): games without unsaved changes leave no
        recovery file, unsaved ones stay in it for the next start's offer
        (:meth:`desktop.storage.document.Autosave.finish`); then the event loop ends."""
        if self._ended:
            return
        self._ended = True
        log.info("ending without a question (%s)", reason)
        self._wind_down(keep_unsaved=True, save_state=self.interactive)
        QApplication.exit(0)

    def closeEvent(self, event) -> None:  # noqa: N802 (Qt's method name)
        if self._ended:
            event.accept()
            return
        if not self._close_unsaved():
            event.ignore()
            return
        self._wind_down(keep_unsaved=False, save_state=True)
        event.accept()

    def _wind_down(self, *, keep_unsaved: bool, save_state: bool) -> None:
        """What every end does once the unsaved games are dealt with: the window state kept
        (``save_state``) and the files open remembered for the next start (after Save all has
        named the untitled games' files), the recovery file finished — unsaved games stay in it
        for the next start's offer (``keep_unsaved``: an end without asking) — or discarded (a
        quit: every game was saved or discarded), the background threads stopped, the hand-off
        server closed and the locks released."""
        from desktop.shell.shutdown import finish_threads

        if save_state:
            window_geometry.save_window_state(app_settings(), self, self.game_tabs)
        reopen = getattr(self, "_reopen", None)
        if reopen is not None:
            reopen.at_quit()
        if self._autosave is not None:
            if keep_unsaved:
                self._autosave.finish()
            else:
                self._autosave.discard()
        self.shutdown()
        if self._handoff is not None:
            self._handoff.close()
        if self._autosave is not None:
            self._autosave.release()
        finish_threads(self)

    def shutdown(self) -> None:
        """Stop every built tab's background threads (before the window goes away)."""
        if self._file_reader is not None:
            self._file_reader.shutdown()
        for tab in self.game_tabs.values():
            tab.shutdown()

    def is_idle(self) -> bool:
        """True when no file is being opened, no tab is being built and every built tab's jobs
        are done and its History laid out (what the screenshot mode and tests wait for)."""
        return self._pending_open is None and not self._partial and not any(
            t.is_busy() or not t.history.is_laid_out() for t in self.game_tabs.values())


def parse_args(argv):
    import argparse

    from desktop.shell.errors import LEVELS

    p = argparse.ArgumentParser(prog="deduction-desk",
                                description="Exact deduction at the game table.")
    p.add_argument("session", nargs="?", help="a session file to open")
    p.add_argument("--tab", metavar="GAME", help="the tab to show (cluedo, inkognito, egghead, "
                   "guesswho, spyfall, or an installed game's id)")
    p.add_argument("--screenshot", metavar="OUT.png", help="render the window to a PNG and exit")
    p.add_argument("--size", default="1280x820", help="window size for --screenshot (WxH)")
    p.add_argument("--details", action="store_true",
                   help="with --screenshot: the Details view (View → Show details)")
    p.add_argument("--self-test", action="store_true",
                   help="headless check of every tab and engine")
    p.add_argument("--color-scheme", choices=("system", "light", "dark", "high-contrast"), default=None,
                   help="light, dark or high-contrast colours (default: follow the desktop)")
    p.add_argument("--install-desktop-entry", action="store_true",
                   help="add Deduction Desk to this user's application menu, with its icon and "
                        "the session file type (double-click opens a session), and exit")
    p.add_argument("--uninstall-desktop-entry", action="store_true",
                   help="remove what --install-desktop-entry added, and exit")
    p.add_argument("--log-level", choices=LEVELS, default="INFO", type=str.upper,
                   help="what the log file records (default INFO; the file is in the app's "
                        "data folder, logs/deduction-desk.log)")
    return p.parse_args(argv)


def __getattr__(name: str):
    """``install_clean_end`` stays importable from here (PEP 562 module ``__getattr__``),
    imported only when asked for: start-up does not need :mod:`desktop.shell.clean_end`."""
    if name == "install_clean_end":
        from desktop.shell.clean_end import install_clean_end

        return install_clean_end
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def make_app(argv=None) -> QApplication:
    app = QApplication.instance() or QApplication(argv or [sys.argv[0]])
    app.setApplicationName(APP_NAME)
    app.setOrganizationName(ORG_NAME)
    app.setApplicationVersion(desktop.__version__)
    app.setDesktopFileName(desktop.APP_ID)   # links windows to the menu entry (desktop.shell.desktop_entry)
    return app


def main(argv=None) -> int:
    """Entry point of ``deduction-desk``; returns the exit code. The process-wide settings
    are made here and nowhere else: logging and the error hooks (:mod:`desktop.shell.errors`), the
    GIL switch interval and garbage collection on the GUI thread (:mod:`desktop.shell.process`), and
    the engines' warm-up once the first tab is built."""
    import multiprocessing

    from desktop.shell.clean_end import install_clean_end
    from desktop.shell.errors import ErrorReporter, setup_logging

    multiprocessing.freeze_support()  # simulators use worker processes (also in the bundle)
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.install_desktop_entry or args.uninstall_desktop_entry:
        from desktop.shell import desktop_entry

        try:
            files = (desktop_entry.install() if args.install_desktop_entry
                     else desktop_entry.uninstall())
        except OSError as exc:
            print(f"error: {exc.strerror or exc}: {exc.filename or ''}", file=sys.stderr)
            return 1
        verb = "installed" if args.install_desktop_entry else "removed"
        print(f"{verb} {len(files)} files" + "".join(f"\n  {f}" for f in files))
        return 0
    if args.self_test:
        from desktop.shell.selftest import run_self_test

        return run_self_test(args.screenshot, MainWindow, make_app)
    if args.screenshot and not os.environ.get("QT_QPA_PLATFORM") and not os.environ.get("DISPLAY"):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    app = make_app()
    from desktop.shell.language import apply_language, chosen_language

    apply_language(app, chosen_language())   # before any window: every string is translated once
    try:
        setup_logging(args.log_level)
    except OSError as exc:   # an unwritable data folder must not stop the app
        print(f"warning: no log file: {exc}", file=sys.stderr)
    from desktop.shell.appearance import follow_system
    from desktop.shell.process import configure_process, warm_engine_imports

    configure_process()
    follow_system(app, args.color_scheme)
    headless = bool(args.screenshot)
    if args.session and not headless and hand_off_at_start(args.session):
        return 0
    win = MainWindow(autosave=not headless, interactive=not headless)
    if headless:       # a screenshot shows the view asked for, not the one the user left on
        win.set_details(args.details, remember=False)
    if not headless:
        install_clean_end(app, win)
    reporter = ErrorReporter(win, interactive=not headless)
    reporter.install()
    win.tabBuilt.connect(lambda _game: warm_engine_imports(win.games()))
    if args.tab:
        if args.tab not in win.games():
            win.add_discovered_games()
        if not win.select_game(args.tab):
            print(f"error: --tab: no game {args.tab!r}; the games are "
                  f"{', '.join(win.games())}", file=sys.stderr)
            win.shutdown()
            return 2
    try:
        if not headless:
            # once the window is on screen: recovery, then the session file; each builds the
            # tab it needs
            win.after_first_frame(lambda: win.start(args.session))
            win.show()
            code = app.exec()
            if getattr(win, "restart_requested", False):   # View → Language: "Restart now"
                from desktop.shell.language import restart_app

                restart_app()
            return code
        from desktop.shell.headless import screenshot

        return screenshot(app, win, args)
    finally:
        reporter.uninstall()
