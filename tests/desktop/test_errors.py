"""Errors are seen (desktop/shell/errors.py): the log file, the uncaught-exception hooks with their
dialog and *Copy details*, a failed job's traceback in the log and behind its banner's
*Details…*, and ``--log-level``."""
import faulthandler
import logging
import sys
import threading

import pytest
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QMessageBox
from window_idle import wait_idle


@pytest.fixture
def log_folder(tmp_path):
    from desktop.shell import errors

    had_faulthandler = faulthandler.is_enabled()   # pytest's own, given back afterwards
    path = errors.setup_logging("INFO", tmp_path)
    yield tmp_path, path
    errors.stop_logging()
    if had_faulthandler:
        faulthandler.enable(file=sys.stderr)


def _text(path) -> str:
    for h in logging.getLogger().handlers:
        h.flush()
    return path.read_text(encoding="utf-8")


def test_the_log_file_rotates_in_its_folder_and_faults_go_beside_it(log_folder):
    from desktop.shell import errors

    folder, path = log_folder
    assert path == folder / "deduction-desk.log" and (folder / "faults.log").is_file()
    logging.getLogger("desktop.test").info("an info line")
    logging.getLogger("desktop.test").debug("a debug line")       # below INFO: not written
    text = _text(path)
    assert "INFO" in text and "desktop.test: an info line" in text and "a debug line" not in text
    handler = next(h for h in logging.getLogger().handlers
                   if isinstance(h, logging.handlers.RotatingFileHandler))
    assert (handler.maxBytes, handler.backupCount) == (errors.LOG_MAX_BYTES, errors.LOG_BACKUPS)
    with pytest.raises(ValueError, match="log level must be one of"):
        errors.setup_logging("LOUD", folder)


def test_the_log_folder_is_in_the_app_data_directory(qapp):
    from PySide6.QtCore import QStandardPaths

    from desktop.shell.errors import log_dir

    data = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    assert log_dir() == __import__("pathlib").Path(data) / "logs" and log_dir().is_dir()


def test_log_level_on_the_command_line():
    from desktop.shell.main_window import parse_args

    assert parse_args([]).log_level == "INFO"
    assert parse_args(["--log-level", "debug"]).log_level == "DEBUG"
    with pytest.raises(SystemExit):
        parse_args(["--log-level", "chatty"])


def test_an_uncaught_exception_is_logged_and_shown_with_copy_details(log_folder, qtbot):
    from desktop.shell.errors import ErrorReporter

    _folder, path = log_folder
    reporter = ErrorReporter(interactive=True)
    try:
        raise ZeroDivisionError("the odds of nothing")
    except ZeroDivisionError:
        reporter.excepthook(*sys.exc_info())
    dialog = reporter.dialog
    assert dialog is not None and dialog.isVisible()
    assert dialog.text() == "Something went wrong: ZeroDivisionError: the odds of nothing"
    assert "Traceback" in dialog.detailedText() and "the odds of nothing" in dialog.detailedText()
    assert str(_folder) in dialog.informativeText()
    dialog.copy_button.click()                                   # copies, stays open
    clip = QGuiApplication.clipboard().text()
    assert clip.startswith("Something went wrong: ZeroDivisionError") and "Traceback" in clip
    assert dialog.isVisible()
    # a second one while the dialog is open is logged and counted, not stacked
    try:
        raise KeyError("again")
    except KeyError:
        reporter.excepthook(*sys.exc_info())
    assert reporter.missed == 1 and reporter.dialog is dialog
    text = _text(path)
    assert "uncaught exception" in text and "ZeroDivisionError: the odds of nothing" in text
    assert "KeyError: 'again'" in text
    dialog.close()


def test_a_thread_s_exception_reaches_the_gui_thread(log_folder, qtbot):
    from desktop.shell.errors import ErrorReporter

    _folder, path = log_folder
    reporter = ErrorReporter(interactive=True)
    reporter.install()
    try:
        assert sys.excepthook == reporter.excepthook
        t = threading.Thread(target=lambda: 1 / 0, name="worker-7")
        with qtbot.waitSignal(reporter.reported, timeout=5000) as blocker:
            t.start()
            t.join()
    finally:
        reporter.uninstall()
    assert sys.excepthook is sys.__excepthook__ and threading.excepthook is threading.__excepthook__
    assert blocker.args[0] == "ZeroDivisionError in worker-7: division by zero"
    qtbot.waitUntil(lambda: reporter.dialog is not None and reporter.dialog.isVisible())
    assert "uncaught exception in worker-7" in _text(path)
    reporter.dialog.close()


def test_a_failed_job_is_logged_and_its_traceback_is_behind_details(window, qtbot, monkeypatch,
                                                                   caplog):
    """A bug in an engine (here: belief_summary raising) fails the tab's job: the runner logs
    the traceback, the banner says "Internal error" and its Details… opens the traceback."""
    window.select_game("guesswho")
    tab = window.current_tab()
    assert wait_idle(window, 60)

    def broken(setup, posterior):
        raise RuntimeError("summary went missing")

    monkeypatch.setattr(tab.module, "belief_summary", broken)
    monkeypatch.setattr(QMessageBox, "critical", lambda *a, **k: QMessageBox.Ok)
    caplog.set_level(logging.ERROR, logger="desktop.tabs.jobs")
    with qtbot.waitSignal(tab.inferenceDone, timeout=30_000):
        tab.reset_document(tab.controller.document.setup)       # a new timeline: nothing cached
    assert "Internal error" in tab.banner.text() and tab.banner.button.text() == "Details…"
    record = next(r for r in caplog.records if "summary went missing" in r.getMessage())
    assert "Traceback" in record.getMessage() and "guesswho-inference" in record.getMessage()
    tab.banner.button.click()
    dialog = tab.error_dialog
    assert dialog.isVisible() and dialog.text() == "RuntimeError: summary went missing"
    assert "in broken" in dialog.detailedText()
    dialog.close()
    monkeypatch.undo()
    tab.reset_document(tab.controller.document.setup)
    assert wait_idle(window, 60)
