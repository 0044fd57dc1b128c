"""The base of every game's Simulation tab: a form, Run and Cancel, a progress bar, a status
line, and the result — the run itself a task on the shared thread pool (desktop/tabs/jobs.py).

A game's panel subclasses :class:`SimulationPanelBase`, builds its form around
:attr:`run_button`, :attr:`cancel_button`, :attr:`progress` and :attr:`status`, and implements
:meth:`prepare` (the job from the form) and :meth:`present` (show a result).
"""
from __future__ import annotations

from typing import Any, Callable

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import QLabel, QProgressBar, QPushButton, QWidget

from desktop.shell.appearance import tone
from desktop.widgets.plain_text import esc
from desktop.widgets.run_on import RunOnSelector
from engines.core.errors import EngineError, SessionFormatError
from engines.core.i18n import N_, _


def _error_text(html: str) -> str:
    """``html`` in red, toned for the colour scheme (:func:`desktop.shell.appearance.tone`)."""
    return f"<span style='color:{tone('#b71c1c')}'>{html}</span>"


class SimulationPanelBase(QWidget):
    """Run a simulator off the GUI thread with progress and cancel; show its result.

    Args:
        runner: an :class:`desktop.tabs.jobs.JobRunner` (the tab's ``make_runner``).

    Signals:
        finished(object result): a simulation completed.

    Subclass hooks: :meth:`prepare`, :meth:`present`, and :attr:`FAILURE` (the words before a
    failure's message).
    """

    finished = Signal(object)
    FAILURE = N_("Cannot run")
    RUN_TEXT = N_("Run simulation")

    def __init__(self, runner, parent=None):
        super().__init__(parent)
        self.runner = runner
        self.result = None
        self._running = False
        runner.progress.connect(self._on_progress)
        runner.resultReady.connect(self._on_result)
        runner.failed.connect(self._on_failed)
        self.run_button = QPushButton(_(self.RUN_TEXT))
        self.run_button.clicked.connect(self.run)
        self.cancel_button = QPushButton(_("Cancel"))
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel)
        self.progress = QProgressBar()
        self.progress.setRange(0, 1)
        self.progress.setValue(0)
        # no figure before the first run: its total is the form's, not yet known here (an
        # Egghead panel read "0 of 1 rounds" beside 300 rounds set)
        self.progress.setTextVisible(False)
        self.status = QLabel()
        self.status.setWordWrap(True)
        # "Run on: this computer | Dask …": a panel places it and passes scheduler() to its
        # SimConfig (engines/core/executor.py); the figures do not depend on it
        self.run_on = RunOnSelector()

    # -- subclass hooks -------------------------------------------------------------------
    def prepare(self) -> tuple[Callable[[Any], Any], int, str]:  # subclass
        """``(job, total, text)`` from the form: ``job(task)`` runs the simulator (pass
        ``task.progress`` and ``task`` as its progress and cancel), ``total`` its progress
        units, ``text`` the status line while it runs.

        Raises:
            SessionFormatError: the form is wrong (its message is shown).
        """
        raise NotImplementedError

    def present(self, result, seconds: float) -> None:  # subclass
        """Show a finished simulation's ``result`` (``seconds``: its wall time)."""
        raise NotImplementedError

    def cancelled_text(self) -> str:
        return _("Simulation cancelled.")

    def scheduler(self):
        """``SimConfig.scheduler`` from :attr:`run_on`; raises SessionFormatError."""
        return self.run_on.scheduler()

    # -- running ----------------------------------------------------------------------------
    def is_running(self) -> bool:
        """True while a simulation started here has not finished or been cancelled."""
        return self._running

    def run(self) -> bool:
        """Start a simulation with the form's settings; False (and the message in the status
        line) when the form is wrong."""
        try:
            job, total, text = self.prepare()
        except SessionFormatError as exc:
            self.status.setText(_error_text(f"{self.FAILURE}: {exc.message}"))
            return False
        self._running = True
        self.run_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(0)
        self.progress.setTextVisible(True)
        self.status.setText(text)
        self.runner.submit(job)
        return True

    def cancel(self) -> None:
        """Stop the running simulation (its result, if any, is dropped)."""
        if not self._running:
            return
        self.runner.cancel()
        self._finish()
        self.status.setText(self.cancelled_text())

    def shutdown(self) -> None:
        """Drop a running simulation (the runner itself is shut down by the tab)."""
        if self._running:
            self.runner.cancel()
            self._finish()

    def _finish(self) -> None:
        self._running = False
        self.run_button.setEnabled(True)
        self.cancel_button.setEnabled(False)

    @Slot(int, int)
    def _on_progress(self, done: int, total: int) -> None:
        if self._running:
            self.progress.setRange(0, max(total, 1))
            self.progress.setValue(min(done, total))

    @Slot(int, object, float)
    def _on_result(self, _rev: int, result, seconds: float) -> None:
        if not self._running:
            return
        self._finish()
        self.result = result
        self.progress.setValue(self.progress.maximum())
        self.present(result, seconds)
        self.finished.emit(result)

    @Slot(int, object)
    def _on_failed(self, _rev: int, exc) -> None:
        if not self._running:
            return
        self._finish()
        msg = exc.message if isinstance(exc, SessionFormatError) else str(exc)
        kind = _(self.FAILURE) if isinstance(exc, EngineError) else \
            _("Internal error ({kind})").format(kind=type(exc).__name__)
        self.status.setText(_error_text(f"<b>{kind}</b>: {esc(msg)}"))
