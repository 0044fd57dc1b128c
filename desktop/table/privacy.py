"""Privacy screen: the screen faces the room, so one key hides everything at once.

**F12** (or the *Hide (F12)* button at the right of the tab bar) covers the whole window — every
worksheet, belief, plot, log and form, the menus and the status bar — with a neutral screen,
and hides the window's other windows (the Why? popup, dialogs left open). Any key or click
brings everything back. While the screen is up the keyboard goes to it alone: shortcuts
(undo, quick entry, a tab's keys) are held back, so nothing can be logged or changed by a key
meant to lift the screen, and the screen writes nothing to the log file but the fact that it
was shown.
"""
from __future__ import annotations

import functools
import logging

from PySide6.QtCore import QEvent, QObject, Signal
from PySide6.QtGui import QAction, QKeySequence, QPalette
from PySide6.QtWidgets import QLabel, QToolButton, QVBoxLayout, QWidget

from engines.core.i18n import _

log = logging.getLogger(__name__)

SHORTCUT = "F12"


class PrivacyScreen(QWidget):
    """A neutral cover over a top-level ``window`` (see the module).

    Signals:
        shownChanged(bool): the screen went up (True) or down (False).
    """

    shownChanged = Signal(bool)

    def __init__(self, window: QWidget):
        super().__init__(window)
        self.window_ = window
        self._hidden_windows: list[QWidget] = []
        self.setObjectName("privacyScreen")
        self.setAutoFillBackground(True)
        self.setBackgroundRole(QPalette.ColorRole.Window)
        lay = QVBoxLayout(self)
        self.label = QLabel(_("Hidden — press any key or click to show the game"))
        lay.addWidget(self.label)
        self._prepared = False
        self.hide()
        window.installEventFilter(self)

    def _prepare(self) -> None:
        """What needs PySide's ``Qt`` namespace, done when the screen first goes up: the
        window's first frame does without it (its ~100 enums take about 14 ms to create)."""
        if self._prepared:
            return
        from PySide6.QtCore import Qt

        self._prepared = True
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.label.setAlignment(Qt.AlignmentFlag.AlignCenter)

    def is_up(self) -> bool:
        """Whether the screen covers the window now."""
        return self.isVisible()

    def cover(self) -> None:
        """Cover the window (and hide its other visible windows) until a key or a click."""
        if self.isVisible():
            return
        from PySide6.QtCore import Qt

        self._prepare()
        self._hidden_windows = [w for w in self.window_.findChildren(QWidget)
                                if w.isWindow() and w.isVisible()]
        for w in self._hidden_windows:
            w.hide()
        self.setGeometry(self.window_.rect())
        self.show()
        self.raise_()
        self.setFocus(Qt.FocusReason.OtherFocusReason)
        log.info("privacy screen shown")
        self.shownChanged.emit(True)

    def uncover(self) -> None:
        """Take the screen down and show the windows it hid."""
        if not self.isVisible():
            return
        self.hide()
        for w in self._hidden_windows:
            w.show()
        self._hidden_windows = []
        self.shownChanged.emit(False)

    def toggle(self) -> None:
        self.uncover() if self.isVisible() else self.cover()

    # -- input: everything is the screen's while it is up -----------------------------------
    def event(self, event) -> bool:
        if event.type() == QEvent.Type.ShortcutOverride:
            event.accept()          # no shortcut fires behind the screen
            return True
        return super().event(event)

    def keyPressEvent(self, event) -> None:  # noqa: N802 (Qt name)
        event.accept()
        if not event.isAutoRepeat():
            self.uncover()

    def mousePressEvent(self, event) -> None:  # noqa: N802 (Qt's method name)
        event.accept()
        self.uncover()

    def focusOutEvent(self, event) -> None:  # noqa: N802 (Qt's method name)
        super().focusOutEvent(event)
        if self.isVisible() and self.window_.isActiveWindow():
            from PySide6.QtCore import Qt

            self.setFocus(Qt.FocusReason.OtherFocusReason)   # the keyboard stays with the screen

    def eventFilter(self, obj: QObject, event) -> bool:  # noqa: N802 (Qt's method name)
        if obj is self.window_ and event.type() == QEvent.Type.Resize and self.isVisible():
            self.setGeometry(self.window_.rect())
        return False


def _label(button: QToolButton) -> None:
    """The corner button's own text and tooltip (its action's are the View menu's)."""
    button.setText(_("Hide ({key})").format(key=SHORTCUT))
    button.setToolTip(_("Hide the screen ({key}); any key shows it again").format(key=SHORTCUT))


def _application_wide(act: QAction, button: QToolButton) -> None:
    from PySide6.QtCore import Qt

    act.setShortcutContext(Qt.ShortcutContext.ApplicationShortcut)
    _label(button)   # a changed action gives its button the action's text again


def install(window) -> PrivacyScreen:
    """Give a :class:`desktop.shell.main_window.MainWindow` its privacy screen: the F12 action (View menu)
    and the "Hide (F12)" button at the right of the tab bar."""
    screen = PrivacyScreen(window)
    act = QAction(_("Hide the &screen"), window)
    act.setShortcuts([QKeySequence(SHORTCUT)])   # not setShortcut: see desktop.shell.menus
    act.setStatusTip(_("Cover every belief, log and form until a key is pressed"))
    act.triggered.connect(screen.cover)
    window.addAction(act)
    for a in window.menuBar().actions():
        if a.menu() is not None and a.text().replace("&", "") in ("View", _("&View").replace("&", "")):
            a.menu().addSeparator()
            a.menu().addAction(act)
    button = QToolButton()
    button.setDefaultAction(act)
    _label(button)
    # F12 works from the guide and the Why? popup too; set after the first frame, which does
    # without PySide's Qt namespace (desktop.shell.main_window.MainWindow.after_first_frame)
    window.after_first_frame(functools.partial(_application_wide, act, button))
    button.setAutoRaise(True)
    button.setObjectName("privacyButton")
    window.tabs.setCornerWidget(button)   # Qt.Corner.TopRightCorner, the default
    window.privacy_screen = screen
    window.privacy_action = act
    return screen
