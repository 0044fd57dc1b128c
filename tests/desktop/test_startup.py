"""Start-up: heavy modules and tabs are loaded when first needed (docs/ARCHITECTURE.md,
"Start-up"); whatever needs a tab builds it. The time it takes is measured by
tests/benchmarks/bench_startup.py, not here."""
import os
import shutil
import subprocess
import sys
import textwrap

import pytest
from autosave_written import wait_written
from PySide6.QtWidgets import QApplication, QMessageBox
from window_idle import wait_idle

from engines.core.resources import resource_path

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
#: Modules start-up must not import: the numeric stack, plots, the engines, the tabs, the
#: session/recovery layer and the background-job machinery.
HEAVY_PREFIXES = ("numpy", "scipy", "pyqtgraph", "cvxpy", "distributed", "engines.",
                  "desktop.tabs.base", "desktop.storage.document", "desktop.storage.recovery",
                  "desktop.storage.restore", "desktop.storage.locks", "desktop.storage.handoff",
                  "desktop.tabs.jobs", "desktop.tabs.controller", "desktop.games.cluedo.",
                  "desktop.games.inkognito.", "desktop.games.egghead.", "desktop.games.guesswho.",
                  "desktop.games.spyfall.")
#: The light exceptions: the engines.core package (its names load lazily), its resource paths
#: the game registry (names, titles and module paths; no engine) and the translations (the
#: standard library's gettext only: every window text is translated as it is built).
LIGHT = ("engines.core", "engines.core.resources", "engines.registry", "engines.core.i18n")


def _heavy_loaded_in_child(code: str) -> list:
    """Run ``code`` in a fresh interpreter, then list the heavy modules it imported."""
    script = textwrap.dedent(code) + textwrap.dedent(f"""
        import sys
        print([m for m in sys.modules if m.startswith({HEAVY_PREFIXES!r}) and m not in {LIGHT!r}])
    """)
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True,
                         env=dict(os.environ, QT_QPA_PLATFORM="offscreen"), timeout=120)
    assert out.returncode == 0, out.stderr
    return eval(out.stdout.strip().splitlines()[-1])


def test_importing_the_app_imports_no_engine_nor_heavy_library():
    assert _heavy_loaded_in_child("import desktop.shell.main_window") == []


#: Modules the first frame does without: logging's handlers and the error dialogs, the clean
#: ends (signals), the file and message dialogs, the guide (imported when first used).
NOT_BEFORE_FIRST_PAINT = ("desktop.shell.errors", "desktop.shell.clean_end",
                          "desktop.shell.unsaved_dialog", "desktop.shell.guide",
                          "desktop.tabs.wording", "desktop.shell.locale_format",
                          "desktop.shell.desktop_entry",
                          "logging.handlers", "socket", "subprocess")


def test_the_window_is_made_and_painted_without_engines_tabs_threads_or_qt_enums():
    """Up to its first paint the window also leaves PySide's ``Qt`` namespace alone (creating
    its ~100 Python enums takes about 14 ms, a tenth of a bare window's start) and the
    modules of NOT_BEFORE_FIRST_PAINT unimported."""
    loaded = _heavy_loaded_in_child(f"""
        import sys
        import PySide6.QtCore
        from PySide6.QtCore import QEvent, QObject
        from desktop.shell.main_window import MainWindow, make_app
        class FirstPaint(QObject):
            seen = None
            def eventFilter(self, obj, event):
                if self.seen is None and event.type() == QEvent.Paint:
                    self.seen = ("Qt" in vars(PySide6.QtCore),
                                 [m for m in {NOT_BEFORE_FIRST_PAINT!r} if m in sys.modules])
                return False
        app = make_app(); probe = FirstPaint(); app.installEventFilter(probe)
        w = MainWindow(autosave=False, interactive=False)
        assert w.game_tabs == {{}} and w.tabs.count() == 5, (w.game_tabs, w.tabs.count())
        w.show()
        while probe.seen is None:
            app.processEvents()
        assert probe.seen == (False, []), probe.seen
        app.removeEventFilter(probe)
    """)
    assert loaded == []


def test_the_loading_pages_centre_is_qts():
    from PySide6.QtCore import Qt

    from desktop.shell.tab_pages import ALIGN_CENTER

    assert ALIGN_CENTER == Qt.AlignmentFlag.AlignCenter.value


def test_titles_known_before_the_engines_are_their_titles():
    from desktop.shell.tab_pages import tab_games
    from engines import GAMES, game_module
    from engines.registry import registered_games

    assert tab_games() == list(GAMES)
    assert {g: info.title for g, info in registered_games().items()} == {
        game: game_module(game).TITLE for game in GAMES}


@pytest.fixture
def quiet(monkeypatch):
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: QMessageBox.Ok)
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.Discard)


def _new_window(qtbot, last_tab=None, interactive=True):
    from desktop.shell.main_window import MainWindow
    from desktop.shell.settings import LAST_TAB

    if last_tab is not None:
        LAST_TAB.write(last_tab)
    win = MainWindow(autosave=False, interactive=interactive)
    qtbot.addWidget(win)
    return win


def _close(win):
    for tab in win.game_tabs.values():
        tab.controller.document.undo_stack.setClean()
        tab.shutdown()


def test_only_the_last_used_tab_is_built_when_shown(qtbot, quiet):
    win = _new_window(qtbot, last_tab="egghead")
    try:
        assert win.game_tabs == {}
        assert win.tabs.currentWidget().game == "egghead"
        assert "Egghead" in win.windowTitle()
        win.show()
        qtbot.waitUntil(lambda: bool(win.game_tabs), timeout=30_000)   # its first paint builds it
        assert list(win.game_tabs) == ["egghead"]
        tab = win.game_tabs["egghead"]
        assert tab.parent() is win.tabs.currentWidget()
        # shown with its first beliefs (hidden behind "Loading" until then, at most 0.4 s)
        qtbot.waitUntil(tab.isVisible, timeout=5_000)
        assert win.undo_group.activeStack() is tab.controller.document.undo_stack
        # showing another tab builds that one only, and it is the one built first next time
        win.select_game("spyfall")
        qtbot.waitUntil(lambda: "spyfall" in win.game_tabs, timeout=30_000)
        assert list(win.game_tabs) == ["egghead", "spyfall"]
        assert win.close()
        win2 = _new_window(qtbot)
        assert win2.tabs.currentWidget().game == "spyfall"
        _close(win2)
    finally:
        _close(win)


def test_a_window_for_a_screenshot_starts_at_the_first_tab(qtbot):
    win = _new_window(qtbot, last_tab="spyfall", interactive=False)
    try:
        assert win.tabs.currentWidget().game == "cluedo"
        assert win.current_tab() is win.game_tabs["cluedo"]       # built when asked for
        assert list(win.game_tabs) == ["cluedo"]
    finally:
        _close(win)


def test_opening_a_session_builds_its_tab_only(qtbot, quiet, tmp_path):
    path = tmp_path / "guesswho.json"
    shutil.copy(resource_path("examples", "guesswho.json"), path)
    win = _new_window(qtbot, last_tab="cluedo", interactive=False)
    try:
        assert win.open_path(str(path))
        assert list(win.game_tabs) == ["guesswho"]
        assert win.tabs.currentWidget().game == "guesswho"
        tab = win.game_tabs["guesswho"]
        assert tab.controller.document.path == str(path) and len(tab.controller.document.events) > 0
        assert wait_idle(win, 60) and tab.controller.timeline is not None and tab.controller.timeline.latest is not None
    finally:
        _close(win)


def test_quitting_asks_only_about_built_tabs_and_builds_none(qtbot, monkeypatch, tmp_path):
    asked = []
    monkeypatch.setattr(QMessageBox, "question",
                        lambda *a, **k: asked.append(a[2]) or QMessageBox.Discard)
    path = tmp_path / "guesswho.json"
    shutil.copy(resource_path("examples", "guesswho.json"), path)
    win = _new_window(qtbot, interactive=False)
    assert win.open_path(str(path), ask=False)
    doc = win.game_tabs["guesswho"].controller.document
    doc.log_event(doc.events[0])
    assert doc.is_modified()
    assert win.close()
    assert len(asked) == 1 and "Guess Who?" in asked[0]
    assert list(win.game_tabs) == ["guesswho"]
    _close(win)


def test_recovery_restores_into_tabs_not_built_yet(qtbot, quiet, tmp_path):
    from desktop.shell.main_window import MainWindow
    from desktop.storage.paths import recovery_dir

    shutil.rmtree(recovery_dir(), ignore_errors=True)
    path = tmp_path / "guesswho.json"
    shutil.copy(resource_path("examples", "guesswho.json"), path)
    a = MainWindow(autosave=True, interactive=False)
    qtbot.addWidget(a)
    assert a.open_path(str(path), ask=False)
    doc = a.tab_for("guesswho").controller.document
    doc.log_event(doc.events[0])
    n = len(doc.events)
    wait_written(qtbot, a)
    a.autosave.crash_for_test()
    b = MainWindow(autosave=True, interactive=False)
    qtbot.addWidget(b)
    try:
        assert b.game_tabs == {}
        assert b.offer_recovery(ask=False)
        assert list(b.game_tabs) == ["guesswho"]
        restored = b.game_tabs["guesswho"].controller.document
        assert len(restored.events) == n and restored.is_modified()
    finally:
        _close(b)
        b.autosave.discard()
        b.autosave.release()
        _close(a)


def test_start_after_show_opens_the_session(qtbot, quiet, tmp_path):
    path = tmp_path / "inkognito.json"
    shutil.copy(resource_path("examples", "inkognito.json"), path)
    win = _new_window(qtbot, last_tab="cluedo")
    try:
        win.show()
        win.start(str(path))                  # read on a pool thread, then shown
        qtbot.waitUntil(lambda: "inkognito" in win.game_tabs
                        and win.game_tabs["inkognito"].controller.document.path == str(path), timeout=30_000)
        assert wait_idle(win, 60)           # the tab comes to the front in a turn after the session's
        assert win.tabs.currentWidget().game == "inkognito"
    finally:
        _close(win)


def test_work_after_the_first_frame_waits_for_it(qtbot):
    win = _new_window(qtbot, interactive=False)
    calls = []
    win.after_first_frame(lambda: calls.append(win.isVisible()))
    for _ in range(5):
        QApplication.processEvents()
    assert calls == []                       # never painted: not yet
    win.show()
    qtbot.waitUntil(lambda: calls == [True], timeout=10_000)
    win.after_first_frame(lambda: calls.append("again"))   # already painted: next turn
    qtbot.waitUntil(lambda: calls == [True, "again"], timeout=10_000)
    # the privacy screen's F12, made application-wide after the first frame, keeps its
    # corner button's own text (a changed action gives its button the action's text)
    from PySide6.QtCore import Qt

    assert win.privacy_action.shortcutContext() == Qt.ShortcutContext.ApplicationShortcut
    assert win.tabs.cornerWidget().text() == "Hide (F12)"
    _close(win)
