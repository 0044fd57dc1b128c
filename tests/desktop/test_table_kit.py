"""The table companion's extras: zoom, the privacy screen, keeping the computer awake,
reopening the last files, and the F1 list of shortcuts generated from the window."""
import shutil

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QApplication, QMessageBox
from window_idle import wait_idle

from desktop.shell import shortcuts
from desktop.shell.main_window import APP_NAME, ORG_NAME
from desktop.table import keep_awake, reopen, zoom
from engines.core.resources import resource_path


def _settings():
    return QSettings(ORG_NAME, APP_NAME)


# -- zoom ----------------------------------------------------------------------------------------
def test_zoom_scales_fonts_and_grids_and_is_kept(window, qtbot):
    z = zoom.zoom_of()
    base_pt = z.base_font.pointSizeF()
    tab = window.tab_for("cluedo")
    header = tab.sheet.verticalHeader()
    rows_before = header.defaultSectionSize()
    try:
        actions = {a.text().replace("&", ""): a for a in window.findChildren(QAction)}
        actions["Zoom in"].trigger()
        assert z.factor == 1.1
        assert abs(QApplication.font().pointSizeF() - base_pt * 1.1) < 1e-6
        assert float(_settings().value(zoom.SETTINGS_KEY)) == 1.1
        for _ in range(20):
            actions["Zoom in"].trigger()
        assert z.factor == zoom.LEVELS[-1]                   # clamped
        assert header.defaultSectionSize() == round(header.property("_zoom_base")[0] * 2.0)
        assert header.defaultSectionSize() > rows_before
        actions["Zoom out"].trigger()
        assert z.factor == zoom.LEVELS[-2]
        assert QKeySequence("Ctrl+0") in actions["Actual size"].shortcuts()
        actions["Actual size"].trigger()
        assert z.factor == 1.0 and header.defaultSectionSize() == rows_before
        assert abs(QApplication.font().pointSizeF() - base_pt) < 1e-6
    finally:
        zoom.set_zoom(QApplication.instance(), 1.0)
        _settings().remove(zoom.SETTINGS_KEY)


# -- privacy screen ---------------------------------------------------------------------------
def test_privacy_screen_covers_everything_and_swallows_keys(window, qtbot):
    tab = window.tab_for("cluedo")
    window.select_game("cluedo")
    tab.log_json({"type": "shown", "player": tab.controller.document.setup.players[1],
                  "card": tab.controller.document.setup.cards[0]})
    assert wait_idle(window, 60)
    n = len(tab.controller.document.events)
    tab.show_why({"card": tab.controller.setup.cards[0], "place": tab.controller.setup.players[1]}, "x")
    popup = tab.why_popup()
    assert popup.isVisible()
    screen = window.privacy_screen
    window.privacy_action.trigger()
    assert screen.is_up() and screen.geometry() == window.rect()
    assert not popup.isVisible()                       # other windows hidden too
    assert QKeySequence("F12") in window.privacy_action.shortcuts()
    # a key meant to lift the screen never reaches a shortcut (Ctrl+Z would undo the entry)
    qtbot.keyClick(screen, Qt.Key_Z, Qt.ControlModifier)
    assert len(tab.controller.document.events) == n and tab.controller.document.undo_stack.count() >= 1
    assert not screen.is_up()
    assert popup.isVisible()                           # shown again
    tab.close_why()
    window.privacy_action.trigger()
    qtbot.mouseClick(screen, Qt.LeftButton)
    assert not screen.is_up()


# -- keep awake -----------------------------------------------------------------------------
class _Reply:
    def __init__(self, args):
        self._args = args

    def arguments(self):
        return self._args


class FakeScreenSaver:
    """Stands in for the org.freedesktop.ScreenSaver interface: records the calls."""

    def __init__(self):
        self.calls = []

    def call(self, method, *args):
        self.calls.append((method, args))
        return _Reply([4242] if method == "Inhibit" else [])


class _Win:
    def __init__(self):
        self.active = True
        self.filters = []

    def isActiveWindow(self):  # noqa: N802 (Qt's method name)
        return self.active

    def installEventFilter(self, f):  # noqa: N802 (Qt's method name)
        self.filters.append(f)


def test_keep_awake_inhibits_while_active_with_a_game():
    from PySide6.QtWidgets import QWidget

    host = QWidget()
    fake = FakeScreenSaver()
    games = {"n": 0}
    keeper = keep_awake.KeepAwake(host, lambda: games["n"] > 0,
                                  backend=keep_awake.FreedesktopBackend(fake))
    keeper.window = _Win()
    keeper.update()
    assert fake.calls == [] and not keeper.held          # no game open: nothing asked
    games["n"] = 1
    keeper.update()
    assert fake.calls == [("Inhibit", ("Deduction Desk", keep_awake.REASON))] and keeper.held
    keeper.update()
    assert len(fake.calls) == 1                          # once
    keeper.window.active = False                         # another window has the focus
    keeper.update()
    assert fake.calls[-1] == ("UnInhibit", (4242,)) and not keeper.held
    keeper.window.active = True
    keeper.set_enabled(False)                            # the setting off
    assert not keeper.held and fake.calls[-1][0] == "UnInhibit"
    keeper.set_enabled(True)
    assert keeper.held
    keeper.release()
    assert fake.calls[-1] == ("UnInhibit", (4242,))
    host.deleteLater()


def test_keep_awake_windows_flags_and_no_op_elsewhere(caplog):
    seen = []
    win = keep_awake.WindowsBackend(lambda flags: seen.append(flags) or 1)
    assert win.inhibit("x", "y")
    win.release()
    assert seen == [keep_awake.ES_CONTINUOUS | keep_awake.ES_SYSTEM_REQUIRED
                    | keep_awake.ES_DISPLAY_REQUIRED, keep_awake.ES_CONTINUOUS]
    from PySide6.QtWidgets import QWidget

    host = QWidget()
    keeper = keep_awake.KeepAwake(host, lambda: True, backend=keep_awake.Backend())
    keeper.window = _Win()
    with caplog.at_level("INFO", logger="desktop.table.keep_awake"):
        keeper.update()
        keeper.update()
    assert not keeper.held
    assert sum("cannot keep the computer awake" in r.message for r in caplog.records) == 1
    host.deleteLater()


def test_keep_awake_setting_in_the_view_menu(window):
    act = window.keep_awake_action
    assert act.isChecked() and window.keep_awake.enabled
    act.setChecked(False)
    assert not window.keep_awake.enabled
    assert _settings().value(keep_awake.SETTINGS_KEY) in (False, "false")
    act.setChecked(True)


def test_keep_awake_switch_says_when_it_cannot_work_here(window):
    """Where no backend can hold off sleep, the View menu's switch says so (the log was the
    only place before); the player's choice stays ticked for a desktop where it works."""
    keeper, act = window.keep_awake, window.keep_awake_action
    keeper.release()
    keeper.backend = keep_awake.Backend()             # the no-op backend: inhibit() fails
    keeper.window = _Win()
    keeper.update()
    assert keeper.available is False and act.isChecked()
    assert act.text().replace("&", "").endswith("(not possible on this desktop)")
    assert "not available" in act.statusTip()
    keeper.backend = keep_awake.WindowsBackend(lambda flags: 1)
    keeper.update()
    assert keeper.available is True and "not possible" not in act.text()
    keeper.release()


# -- reopen ------------------------------------------------------------------------------------
def test_reopen_last_files_and_name_the_gone_one(window, tmp_path, monkeypatch):
    a = tmp_path / "egg.json"
    b = tmp_path / "gone.json"
    shutil.copy(resource_path("examples", "egghead.json"), a)
    shutil.copy(resource_path("examples", "guesswho.json"), b)
    assert window.open_path(str(a), ask=False) and window.open_path(str(b), ask=False)
    window.select_game("egghead")
    reopen.remember(window, _settings())
    assert set(_settings().value(reopen.FILES_KEY)) >= {str(a), str(b)}
    b.unlink()
    for tab in window.game_tabs.values():     # a fresh start: no file open
        tab.controller.document.path = None
    window.select_game("cluedo")
    dialogs = []
    for name in ("warning", "critical", "information"):
        monkeypatch.setattr(QMessageBox, name, lambda *args, **k: dialogs.append(args) or QMessageBox.Ok)
    opened, missing = reopen.reopen_last(window, _settings())
    assert opened == [str(a)] and missing == [str(b)]
    assert window.tab_for("egghead").controller.document.path == str(a)
    assert window.tabs.currentWidget().game == "egghead"
    assert "gone.json" in window.statusBar().currentMessage() and not dialogs


# -- F1 ------------------------------------------------------------------------------------------
def test_f1_lists_every_shortcut_of_the_window(window):
    window.tab_for("cluedo")
    rows = shortcuts.shortcut_rows(window)
    keys = {k for k, _ in rows}
    for k in ("Ctrl+L", "/", "F12", "Ctrl+0", "F1", "Ctrl+Z"):
        assert any(k in row_keys.split(" / ") for row_keys in keys), k
    # every action with a key is listed (generated, so it cannot drift)
    listed = " | ".join(f"{k} {v}" for k, v in rows)
    for act in window.findChildren(QAction):
        for seq in act.shortcuts():
            if not seq.isEmpty():
                assert seq.toString(QKeySequence.NativeText) in listed, act.text()
    from desktop.shell.guide import SHORTCUTS_PAGE
    window.guide_dock.show_page(SHORTCUTS_PAGE)
    text = window.guide_dock.browser.toPlainText()
    assert "Ctrl+L" in text and "quick entry" in text and "F12" in text


# -- window state across screens ----------------------------------------------------------------
def test_splitters_saved_on_a_larger_screen_are_not_restored(qtbot, tmp_path, monkeypatch):
    """Panel sizes chosen on 2560×1440 would leave a panel a few pixels high on 1280×720: they
    are restored on a screen at least as large only."""
    from PySide6.QtCore import QRect
    from PySide6.QtWidgets import QLabel, QSplitter, QVBoxLayout, QWidget

    from desktop.shell import window_geometry as window_state

    settings = QSettings(str(tmp_path / "state.ini"), QSettings.IniFormat)

    def make():
        win = QWidget()
        split = QSplitter(Qt.Vertical)
        for text in ("a", "b"):
            split.addWidget(QLabel(text))
        QVBoxLayout(win).addWidget(split)
        qtbot.addWidget(win)
        win.resize(600, 600)
        win.show()
        split.setSizes([500, 100])
        return win, split

    screen = {"rect": QRect(0, 0, 2560, 1440)}
    monkeypatch.setattr(window_state, "available_geometry", lambda w=None: QRect(screen["rect"]))
    win, _ = make()
    window_state.save_window_state(settings, win, {"g": win})
    win2, _ = make()
    assert window_state.restore_splitters(settings, "g", win2) == 1      # same screen
    screen["rect"] = QRect(0, 0, 1280, 720)
    win3, _ = make()
    assert window_state.restore_splitters(settings, "g", win3) == 0      # a smaller one
