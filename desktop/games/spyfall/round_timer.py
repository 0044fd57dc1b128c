"""A round timer for the table: counts a round down (default 8 minutes, editable), pauses and
resumes, and at zero beeps and shows a banner.

The time left is measured with a monotonic clock (``time.monotonic``, injectable for tests),
not by counting ticks, so a busy GUI thread delays the display but never the end of the round.
"""
from __future__ import annotations

import time
from typing import Callable, Optional

from PySide6.QtCore import QTimer, Signal, Slot
from PySide6.QtWidgets import QApplication, QHBoxLayout, QLabel, QPushButton, QSpinBox, QVBoxLayout, QWidget

from engines.core.i18n import _

#: The default round: 8 minutes (Spyfall's rules).
DEFAULT_SECONDS = 480
#: Longest round the spin box offers, in minutes.
MAX_MINUTES = 240


def format_clock(seconds: float) -> str:
    """``"7:59"`` for 479.2 s (whole seconds, rounded up while counting down; never negative);
    hours shown as ``"1:02:03"``."""
    s = max(0, int(-(-seconds // 1)))
    h, rest = divmod(s, 3600)
    m, sec = divmod(rest, 60)
    return f"{h}:{m:02d}:{sec:02d}" if h else f"{m}:{sec:02d}"


class RoundTimer(QWidget):
    """Start / Pause / Reset and the round's length in minutes; a banner at zero.

    Signals:
        lengthEdited(int): the player changed the round's length (seconds); the owner saves it.
        expired(): the round reached zero (once per round).
    """

    lengthEdited = Signal(int)
    expired = Signal()

    def __init__(self, seconds: int = DEFAULT_SECONDS, parent: Optional[QWidget] = None,
                 clock: Callable[[], float] = time.monotonic, beep: Optional[Callable] = None):
        super().__init__(parent)
        self._clock = clock
        self._beep = beep or QApplication.beep
        self._length = int(seconds)
        self._left = float(seconds)       # seconds left when not running
        self._started: Optional[float] = None   # clock value when (re)started, None = paused
        self._done = False
        self._tick = QTimer(self, interval=250)
        self._tick.timeout.connect(self.tick)
        self._build()
        self._show()

    def _build(self) -> None:
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        outer.addLayout(row)
        row.addWidget(QLabel(_("Round:")))
        self.clock_label = QLabel()
        self.clock_label.setToolTip(_("Time left in this round"))
        self.clock_label.setStyleSheet("font-weight:bold; font-family:monospace")
        row.addWidget(self.clock_label)
        self.start_button = QPushButton(_("Start"))
        self.start_button.setToolTip(_("Start or pause the round timer"))
        self.start_button.clicked.connect(self.toggle)
        row.addWidget(self.start_button)
        self.reset_button = QPushButton(_("Reset"))
        self.reset_button.setToolTip(_("Back to the full round, stopped"))
        self.reset_button.clicked.connect(self.reset)
        row.addWidget(self.reset_button)
        self.minutes = QSpinBox()
        self.minutes.setAccessibleName(_("Round length"))
        self.minutes.setRange(1, MAX_MINUTES)
        self.minutes.setSuffix(" " + _("min"))
        self.minutes.setToolTip(_("Length of a round (Spyfall: 8 minutes)"))
        self.minutes.setValue(max(1, round(self._length / 60)))
        self.minutes.valueChanged.connect(self._minutes_edited)
        row.addWidget(self.minutes)
        row.addStretch(1)
        self.banner = QLabel(_("Time is up: the round is over. Vote, or the spy names the location."))
        self.banner.setStyleSheet("background:#b71c1c; color:white; font-weight:bold; padding:3px")
        self.banner.setVisible(False)
        outer.addWidget(self.banner)

    # -- state -------------------------------------------------------------------------------
    @property
    def length(self) -> int:
        """The round's length in seconds."""
        return self._length

    @property
    def running(self) -> bool:
        return self._started is not None

    @property
    def fresh(self) -> bool:
        """True for a round not started: stopped at its full length, no banner."""
        return not self.running and not self._done and self._left >= self._length

    @property
    def finished(self) -> bool:
        """True once the round reached zero (the banner shows) until Reset or a new round."""
        return self._done

    def remaining(self) -> float:
        """Seconds left in the round (>= 0)."""
        if self._started is None:
            return max(0.0, self._left)
        return max(0.0, self._left - (self._clock() - self._started))

    def set_length(self, seconds: int) -> None:
        """Set the round's length (seconds, from the session) without emitting
        :attr:`lengthEdited`; a stopped full round shows the new length."""
        seconds = int(seconds)
        full = not self.running and self._left == self._length
        self._length = seconds
        if full:
            self._left = float(seconds)
            self._done = False
        elif not self.running:   # never more left than the round is long
            self._left = min(self._left, float(seconds))
        self.minutes.blockSignals(True)
        self.minutes.setValue(max(1, min(MAX_MINUTES, round(seconds / 60))))
        self.minutes.blockSignals(False)
        self._show()

    def restore(self, seconds: int, left: Optional[float] = None) -> None:
        """The round as a session saved it, paused: ``seconds`` long with ``left`` seconds
        left (None: not started; 0: over, the banner shows without a beep). Emits nothing."""
        self._started = None
        self._tick.stop()
        self._length = int(seconds)
        self._left = float(seconds) if left is None else max(0.0, min(float(left), float(seconds)))
        self._done = left is not None and self._left <= 0
        self.minutes.blockSignals(True)
        self.minutes.setValue(max(1, min(MAX_MINUTES, round(self._length / 60))))
        self.minutes.blockSignals(False)
        self._show()

    # -- actions -----------------------------------------------------------------------------
    @Slot()
    def toggle(self) -> None:
        """Start, pause, or resume; after zero, start a new round."""
        if self.running:
            self.pause()
        else:
            if self._done or self.remaining() <= 0:
                self.reset()
            self.start()

    def start(self) -> None:
        if self.running:
            return
        self._started = self._clock()
        self._tick.start()
        self._show()

    def pause(self) -> None:
        if not self.running:
            return
        self._left = self.remaining()
        self._started = None
        self._tick.stop()
        self._show()

    @Slot()
    def reset(self) -> None:
        """The full round, stopped; the banner hidden."""
        self._started = None
        self._tick.stop()
        self._left = float(self._length)
        self._done = False
        self._show()

    @Slot()
    def tick(self) -> None:
        """Update the display; at zero stop, beep once and show the banner."""
        if self.running and self.remaining() <= 0:
            self._left = 0.0
            self._started = None
            self._tick.stop()
            if not self._done:
                self._done = True
                self._beep()
                self.expired.emit()
        self._show()

    def _minutes_edited(self, minutes: int) -> None:
        seconds = int(minutes) * 60
        running = self.running
        used = (self._length - self.remaining())
        self._length = seconds
        if running:   # keep the time already played
            self._started = self._clock()
            self._left = max(0.0, seconds - used)
        else:
            self._left = float(seconds) if not self._done and used == 0 else max(0.0, seconds - used)
        self._done = False
        self._show()
        self.lengthEdited.emit(seconds)

    def _show(self) -> None:
        left = self.remaining()
        self.clock_label.setText(format_clock(left))
        self.start_button.setText(_("Pause") if self.running else
                                  (_("Start") if left >= self._length or self._done else _("Resume")))
        self.banner.setVisible(self._done)
