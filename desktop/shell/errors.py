"""Errors are seen: the app's log file, the handlers of uncaught exceptions, and the dialog
that shows an error's details with *Copy details*.

* :func:`setup_logging` — the standard :mod:`logging` module writes to a rotating file
  (:class:`logging.handlers.RotatingFileHandler`) in :func:`log_dir`, the ``logs`` folder of
  the app's data directory (``QStandardPaths.AppDataLocation``; on Linux
  ``~/.local/share/DeductionDesk/Deduction Desk/logs``), warnings also to stderr;
  :mod:`faulthandler` writes the Python stacks of a hard crash (a segfault in a native
  library, an abort) to ``faults.log`` beside it. ``deduction-desk --log-level DEBUG`` sets
  the level.
* :class:`ErrorReporter` — installed as ``sys.excepthook`` and ``threading.excepthook`` by
  ``main()``: an exception nothing caught (in a slot on the GUI thread, or in a thread) is
  logged with its traceback and shown in an :class:`ErrorDialog`, one at a time (the model is
  napari's ``napari._qt.dialogs.qt_notification`` / ``ExceptionHandler``: the hook emits a
  Qt signal, so a worker thread's exception reaches the GUI thread queued).
* A background job that fails with a bug (:mod:`desktop.tabs.jobs`) is logged by the runner;
  its tab's banner offers *Details…* (:func:`show_error_details`).
"""
from __future__ import annotations

import faulthandler
import logging
import logging.handlers
import sys
import threading
import traceback
from pathlib import Path
from typing import Optional

from PySide6.QtCore import QObject, Qt, Signal, Slot
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QMessageBox, QWidget

from engines.core.i18n import _

log = logging.getLogger(__name__)

#: The log file's name in :func:`log_dir`.
LOG_FILE = "deduction-desk.log"
#: The file the interpreter's fault handler writes to, in :func:`log_dir`.
FAULT_FILE = "faults.log"
#: A log file is rotated at this size (bytes); :data:`LOG_BACKUPS` older files are kept.
LOG_MAX_BYTES = 1_000_000
LOG_BACKUPS = 3
#: The levels ``--log-level`` accepts.
LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
_FORMAT = "%(asctime)s %(levelname)s %(threadName)s %(name)s: %(message)s"

_handlers: list[logging.Handler] = []
_fault_file = None
_log_folder: Optional[Path] = None    # where setup_logging writes


def log_dir() -> Path:
    """The folder of the log files: :func:`desktop.storage.paths.log_dir` (the application and
    organisation names must be set, :func:`desktop.shell.main_window.make_app`)."""
    from desktop.storage.paths import log_dir as folder

    return folder()


def setup_logging(level: str = "INFO", folder: Optional[Path] = None) -> Path:
    """Send the root logger's records of ``level`` and above to the rotating log file (and
    warnings and errors to stderr), and the fault handler to ``faults.log``; calling it again
    replaces the handlers it added. Returns the log file's path.

    Raises:
        ValueError: ``level`` is not one of :data:`LEVELS`.
    """
    global _fault_file, _log_folder
    if level.upper() not in LEVELS:
        raise ValueError(f"log level must be one of {', '.join(LEVELS)}, got {level!r}")
    folder = folder if folder is not None else log_dir()
    stop_logging()
    root = logging.getLogger()
    _log_folder = folder
    path = folder / LOG_FILE
    file_handler = logging.handlers.RotatingFileHandler(
        path, maxBytes=LOG_MAX_BYTES, backupCount=LOG_BACKUPS, encoding="utf-8")
    file_handler.setFormatter(logging.Formatter(_FORMAT))
    stderr = logging.StreamHandler()
    stderr.setLevel(logging.WARNING)
    stderr.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    for h in (file_handler, stderr):
        root.addHandler(h)
        _handlers.append(h)
    root.setLevel(level.upper())
    logging.captureWarnings(True)
    # open for as long as the process runs: the fault handler writes to it when it crashes
    _fault_file = open(folder / FAULT_FILE, "a", encoding="utf-8")
    faulthandler.enable(file=_fault_file, all_threads=True)
    log.info("log started at level %s", level.upper())
    return path


def stop_logging() -> None:
    """Remove the handlers :func:`setup_logging` added and stop the fault handler (tests)."""
    global _fault_file, _log_folder
    _log_folder = None
    root = logging.getLogger()
    for h in _handlers:
        root.removeHandler(h)
        h.close()
    _handlers.clear()
    if _fault_file is not None:
        faulthandler.disable()
        _fault_file.close()
        _fault_file = None


def format_exception(exc_type, exc, tb) -> str:
    """The traceback of an exception as text."""
    return "".join(traceback.format_exception(exc_type, exc, tb))


class ErrorDialog(QMessageBox):
    """An error in words with its details (a traceback) folded out, *Copy details* (puts the
    summary, the details and the log file's place on the clipboard) and *Close*."""

    def __init__(self, title: str, summary: str, details: str,
                 parent: Optional[QWidget] = None):
        super().__init__(parent)
        self.setIcon(QMessageBox.Icon.Critical)
        self.setWindowTitle(title)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setText(summary)
        where = _("The log is in {folder}.").format(folder=_log_folder) if _log_folder is not None else ""
        self.setInformativeText((where + " " if where else "") + _("Please report this with the details."))
        self.setDetailedText(details)
        self.copy_button = self.addButton(_("Copy details"), QMessageBox.ButtonRole.ActionRole)
        self.copy_button.clicked.disconnect()       # copying must not close the dialog
        self.copy_button.clicked.connect(self.copy_details)
        self.addButton(QMessageBox.StandardButton.Close)
        self._clip = f"{summary}\n\n{details}\n{where}".strip()

    def copy_details(self) -> None:
        """Put the summary, the details and the log's place on the clipboard."""
        QGuiApplication.clipboard().setText(self._clip)


def show_error_details(parent: Optional[QWidget], title: str, summary: str,
                       details: str) -> ErrorDialog:
    """Show an :class:`ErrorDialog` (not modal: the window stays usable); returns it."""
    dialog = ErrorDialog(title, summary, details, parent)
    dialog.setModal(False)
    dialog.show()
    return dialog


class ErrorReporter(QObject):
    """Logs uncaught exceptions and shows them (see the module docstring).

    Args:
        parent: the main window (the dialogs' parent).
        interactive: False for ``--screenshot``/``--self-test``: the details go to stderr, no
            dialog.

    Signals:
        reported(str summary, str details): an uncaught exception, delivered on the GUI thread.
    """

    reported = Signal(str, str)

    def __init__(self, parent: Optional[QWidget] = None, interactive: bool = True):
        super().__init__(parent)
        self.interactive = interactive
        self.dialog: Optional[ErrorDialog] = None
        self.missed = 0              # exceptions while a dialog was open (counted, logged)
        self.reported.connect(self._show)

    def install(self) -> None:
        """Become ``sys.excepthook`` and ``threading.excepthook``."""
        sys.excepthook = self.excepthook
        threading.excepthook = self.threading_excepthook

    def uninstall(self) -> None:
        """Give the interpreter's own hooks back."""
        sys.excepthook = sys.__excepthook__
        threading.excepthook = threading.__excepthook__

    def excepthook(self, exc_type, exc, tb) -> None:
        """``sys.excepthook``: log, then show (Ctrl+C is passed on)."""
        if issubclass(exc_type, KeyboardInterrupt):
            sys.__excepthook__(exc_type, exc, tb)
            return
        details = format_exception(exc_type, exc, tb)
        log.error("uncaught exception: %s", details.rstrip())
        self.reported.emit(f"{exc_type.__name__}: {exc}", details)

    def threading_excepthook(self, args) -> None:
        """``threading.excepthook``: as :meth:`excepthook`, naming the thread."""
        if args.exc_type is SystemExit:
            return
        details = format_exception(args.exc_type, args.exc_value, args.exc_traceback)
        name = args.thread.name if args.thread is not None else "a thread"
        log.error("uncaught exception in %s: %s", name, details.rstrip())
        self.reported.emit(f"{args.exc_type.__name__} in {name}: {args.exc_value}", details)

    @Slot(str, str)
    def _show(self, summary: str, details: str) -> None:
        if not self.interactive:
            print(f"error: {summary}\n{details}", file=sys.stderr)
            return
        if self.dialog is not None and self.dialog.isVisible():
            self.missed += 1
            return
        parent = self.parent() if isinstance(self.parent(), QWidget) else None
        self.dialog = show_error_details(parent, _("Internal error"),
                                         _("Something went wrong: {summary}").format(summary=summary), details)
