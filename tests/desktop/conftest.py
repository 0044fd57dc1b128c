import os

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


@pytest.fixture(autouse=True, scope="session")
def _qt_test_mode(qapp):
    from PySide6.QtCore import QStandardPaths

    qapp.setApplicationName("Deduction Desk")
    qapp.setOrganizationName("DeductionDeskTests")
    QStandardPaths.setTestModeEnabled(True)
    yield


@pytest.fixture
def window(qtbot, monkeypatch):
    """A MainWindow with autosave on, message boxes answered without blocking."""
    from PySide6.QtWidgets import QMessageBox

    from desktop.app import MainWindow

    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: QMessageBox.Ok)
    monkeypatch.setattr(QMessageBox, "information", lambda *a, **k: QMessageBox.Ok)
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.Discard)
    win = MainWindow(autosave=True)
    qtbot.addWidget(win)
    win.show()
    assert win.wait_idle(60)
    yield win
    for tab in win.game_tabs.values():
        tab.document.undo_stack.setClean()
    win.autosave.discard()
    for tab in win.game_tabs.values():
        tab.shutdown()
