import os
import tempfile

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# Each test session gets its own data and settings folders (autosave recovery file, recent
# files), so tests never touch a user's files nor race with another test run.
# Under pytest-xdist the workers inherit the controller's TMPDIR (set below when it imported
# this file): their folders are made beside it, in the temporary folder the run started with,
# not inside it — a hand-off server's socket lives in TMPDIR and a Unix socket's path holds at
# most 107 bytes (unix(7)), which a nested folder and a long instance name overflowed.
_BASE = os.environ.setdefault("DEDUCTION_DESK_TESTS_TMPDIR", tempfile.gettempdir())
_HOME = tempfile.mkdtemp(prefix="dd-tests-", dir=_BASE)
os.environ["XDG_DATA_HOME"] = os.path.join(_HOME, "data")
os.environ["XDG_CONFIG_HOME"] = os.path.join(_HOME, "config")
# and its own temporary location (QStandardPaths.TempLocation reads TMPDIR): the folder autosave
# falls back to when the data folder stops taking writes (desktop.storage.paths.fallback_dir), so an
# orphan left there by one run is never offered to the next
os.makedirs(os.path.join(_HOME, "tmp"), exist_ok=True)
os.environ["TMPDIR"] = os.path.join(_HOME, "tmp")


@pytest.fixture(autouse=True, scope="session")
def _qt_test_mode(qapp):
    from PySide6.QtCore import QStandardPaths

    from desktop.shell.process import configure_process

    qapp.setApplicationName("Deduction Desk")
    qapp.setOrganizationName("DeductionDeskTests")
    assert QStandardPaths.writableLocation(QStandardPaths.AppDataLocation).startswith(_HOME)
    configure_process()   # as main() does: garbage collected on the GUI thread only, GIL interval
    yield


#: The sampled deals at which the Cluedo tab's opponents' estimate stops refining in tests (the
#: app: :data:`desktop.games.cluedo.opponents.LIVE_MAX_SAMPLES`, 4,096 within a 4 s budget; 64 is
#: where the advice first gets its interval), and at which each point of its plot's back-fill
#: stops (the app: ``HISTORY_MAX_SAMPLES``, 256 within 0.4 s a point). A test that waits for the tab to be idle then
#: waits for a count, not for the wall-clock budget: the figures are the same on a loaded
#: machine, and the Cluedo tests take a quarter less time. The refinement itself is tested in
#: tests/desktop/test_cluedo_opponents.py, its speed in tests/benchmarks/bench_opponents.py.
TEST_LIVE_MAX_SAMPLES = 64


@pytest.fixture(autouse=True)
def _opponents_refined_by_count(monkeypatch):
    import desktop.games.cluedo.opponents as opponents

    monkeypatch.setattr(opponents, "LIVE_MAX_SAMPLES", TEST_LIVE_MAX_SAMPLES)
    monkeypatch.setattr(opponents, "HISTORY_MAX_SAMPLES", TEST_LIVE_MAX_SAMPLES)


def _window_game(request):
    """The game whose tab a test's window shows first: the test's ``game`` parameter, else its
    module's ``WINDOW_GAME``, else None (the first tab, Cluedo)."""
    callspec = getattr(request.node, "callspec", None)
    game = callspec.params.get("game") if callspec is not None else None
    if not isinstance(game, str):
        game = getattr(request.module, "WINDOW_GAME", None)
    return game


@pytest.fixture
def window(qtbot, monkeypatch, request):
    """A MainWindow with autosave on, message boxes answered without blocking, and fresh
    settings: no window geometry, splitter state or recent files of an earlier test. The tab
    shown (and so built) first is the test's game (:func:`_window_game`), as the app shows the
    tab used last: a Spyfall test does not build a Cluedo tab it never looks at. The first tab
    is built but its first beliefs are not waited for: a test waits for what it needs."""
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QMessageBox

    from desktop.shell.main_window import APP_NAME, ORG_NAME, MainWindow
    from desktop.shell.settings import LAST_TAB

    QSettings(ORG_NAME, APP_NAME).clear()
    first = _window_game(request)
    if first:
        LAST_TAB.write(first)

    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: QMessageBox.Ok)
    monkeypatch.setattr(QMessageBox, "information", lambda *a, **k: QMessageBox.Ok)
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.Discard)
    # several unsaved games at teardown: one dialog, answered "Discard all"
    monkeypatch.setattr("desktop.shell.file_actions.ask_unsaved", lambda *a, **k: "discard")
    # what earlier tests left goes first: their windows' deferred deletions, then a collection
    # of the Python wrappers that reference cycles kept. Seen once in CI: a new QMenu came back
    # from addMenu() as a QWidgetItem wrapper, shiboken's wrapper for an earlier object at the
    # same address (a layout item, not a QObject: no signal tells shiboken it was deleted);
    # the suspected keeper is a cycle the GUI thread's collector had not reached yet
    import gc

    from PySide6.QtCore import QCoreApplication, QEvent

    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    gc.collect()
    gc.freeze()     # what survives is the session's (modules, caches): the next collection skips it
    win = MainWindow(autosave=True)
    qtbot.addWidget(win)
    win.show()
    # the first tab built, its first beliefs not waited for: nearly every test sets up its own
    # game and waits for that (wait_idle) — waiting here too cost 12 % of the desktop tests' CPU
    # for beliefs the test then replaces (their jobs go stale and are cancelled)
    win.current_tab()
    yield win
    for tab in win.game_tabs.values():
        tab.controller.document.undo_stack.setClean()
    win.autosave.discard()
    for tab in win.game_tabs.values():
        tab.shutdown()


@pytest.fixture
def no_modal_boxes(monkeypatch):
    """QMessageBox's warning, information and question answered at once (Ok, Ok, Discard)."""
    from PySide6.QtWidgets import QMessageBox

    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: QMessageBox.Ok)
    monkeypatch.setattr(QMessageBox, "information", lambda *a, **k: QMessageBox.Ok)
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.Discard)


@pytest.fixture
def fresh_recovery():
    """The recovery folder emptied for the test; yields its path."""
    import shutil

    from desktop.storage.paths import recovery_dir

    shutil.rmtree(recovery_dir(), ignore_errors=True)
    yield recovery_dir()


@pytest.fixture
def zoomed_back(qapp):
    """The zoom set back to 100 % after the test (a test that zooms leaves no larger fonts)."""
    from desktop.table import zoom

    yield
    zoom.set_zoom(qapp, 1.0)


@pytest.fixture
def scheme_follower(qapp):
    """``make(scheme)``: a :class:`desktop.shell.appearance.SchemeFollower` of ``scheme`` on the
    test application; its palette and style are put back, and the follower removed, afterwards."""
    from PySide6.QtGui import QPalette

    from desktop.shell.appearance import SchemeFollower

    palette, style = QPalette(qapp.palette()), qapp.style().name()
    made = []

    def make(scheme: str):
        made.append(SchemeFollower(qapp, scheme))
        return made[-1]

    yield make
    hints = qapp.styleHints()
    for f in made:
        if hasattr(hints, "colorSchemeChanged"):
            hints.colorSchemeChanged.disconnect(f._scheme_changed)
        if hasattr(hints, "accessibility"):
            hints.accessibility().contrastPreferenceChanged.disconnect(f._scheme_changed)
        f.deleteLater()
    qapp.setStyle(style)
    qapp.setPalette(palette)
