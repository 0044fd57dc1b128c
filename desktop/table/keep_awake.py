"""Keep the computer awake while a game is open and the window is active.

A laptop must not sleep or blank its screen mid-game. :class:`KeepAwake` asks the platform
to hold off idle sleep while the window is the active one and at least one game tab is open,
and lets go when the window loses focus, the last tab goes or the app quits:

- Linux and other freedesktop desktops: ``org.freedesktop.ScreenSaver.Inhibit(application,
  reason) → cookie`` and ``UnInhibit(cookie)`` on the session bus (freedesktop.org "Idle
  Inhibition Service" specification), through QtDBus;
- Windows: ``SetThreadExecutionState(ES_CONTINUOUS | ES_SYSTEM_REQUIRED |
  ES_DISPLAY_REQUIRED)`` and ``SetThreadExecutionState(ES_CONTINUOUS)`` to release
  (Microsoft, Win32 API documentation), through ctypes;
- elsewhere (or without a session bus): nothing, with one log line saying so.

The setting ``power/keepAwake`` (View ▸ Keep the screen awake) turns it off.
"""
from __future__ import annotations

import logging
import sys
import time
from typing import Callable, Optional

from PySide6.QtCore import QEvent, QObject, QSettings, Signal
from PySide6.QtGui import QAction

from desktop.shell.settings import KEEP_AWAKE
from engines.core.i18n import N_, _

log = logging.getLogger(__name__)

SETTINGS_KEY = KEEP_AWAKE.key   # declared once in desktop.shell.settings
REASON = N_("A game is open at the table")

#: Seconds before asking the session bus again for a screen saver service it did not have (the
#: interface is looked up synchronously; the window asks at every tab change and activation).
RETRY_SECONDS = 60.0

ES_CONTINUOUS = 0x80000000
ES_SYSTEM_REQUIRED = 0x00000001
ES_DISPLAY_REQUIRED = 0x00000002


class Backend:
    """How one platform holds off sleep: :meth:`inhibit` → True if it took, :meth:`release`."""

    name = "none"

    def inhibit(self, app_name: str, reason: str) -> bool:
        return False

    def release(self) -> None:
        pass


class FreedesktopBackend(Backend):
    """``org.freedesktop.ScreenSaver`` on the session bus (or on ``bus``, a
    ``QDBusConnection``). ``interface`` may be given (an object with ``call(method, *args)``
    returning a reply with ``arguments()``, as ``QDBusInterface``) — a test's fake one.

    The cookie goes back as the specification's ``uint32``: a Python int given to
    ``QDBusInterface.call`` travels as a signed ``int32``, which a service declaring
    ``UnInhibit(u)`` rejects ("No such method … (signature 'i')"), so the call goes through
    the interface's introspected method, which converts it."""

    name = "freedesktop"
    SERVICE = "org.freedesktop.ScreenSaver"
    PATH = "/org/freedesktop/ScreenSaver"

    def __init__(self, interface=None, bus=None):
        self._iface = interface
        self._bus = bus
        self._cookie: Optional[int] = None
        self._failed_at: Optional[float] = None     # when the service was last not found

    def _interface(self):
        if self._iface is None:
            now = time.monotonic()
            if self._failed_at is not None and now - self._failed_at < RETRY_SECONDS:
                return None     # asked at every tab change: not a bus round trip each time
            try:
                from PySide6.QtDBus import QDBusConnection, QDBusInterface
            except ImportError:     # a build without Qt's D-Bus module: no service to ask
                self._failed_at = now
                return None
            bus = self._bus if self._bus is not None else QDBusConnection.sessionBus()
            iface = QDBusInterface(self.SERVICE, self.PATH, self.SERVICE, bus) \
                if bus.isConnected() else None
            if iface is None or not iface.isValid():
                self._failed_at = now
                return None
            self._iface = iface
        return self._iface

    def inhibit(self, app_name: str, reason: str) -> bool:
        iface = self._interface()
        if iface is None:
            return False
        reply = iface.call("Inhibit", app_name, reason)
        args = reply.arguments() if reply is not None else []
        if not args or getattr(reply, "type", lambda: None)() == _error_type():
            return False
        self._cookie = int(args[0])
        return True

    def release(self) -> None:
        if self._cookie is not None and self._iface is not None:
            if not _call_uint(self._iface, "UnInhibit", self._cookie):
                self._iface.call("UnInhibit", self._cookie)
        self._cookie = None


def _call_uint(iface, method: str, value: int) -> bool:
    """Call ``method(uint32 value)`` on a ``QDBusInterface`` through its introspected
    meta-object (False when ``iface`` is not one, or the method is not introspected)."""
    from PySide6.QtCore import Q_ARG, QMetaObject, QObject, Qt

    if not isinstance(iface, QObject):
        return False
    try:
        return bool(QMetaObject.invokeMethod(iface, method, Qt.ConnectionType.DirectConnection,
                                             Q_ARG("uint", int(value))))
    except (RuntimeError, TypeError, OverflowError):
        return False


def _error_type():
    try:
        from PySide6.QtDBus import QDBusMessage

        return QDBusMessage.ErrorMessage
    except ImportError:   # pragma: no cover - QtDBus is part of PySide6
        return None


class WindowsBackend(Backend):
    """``SetThreadExecutionState`` (``setter`` may be given for tests: a function of the
    flags returning the previous state, 0 on failure)."""

    name = "windows"

    def __init__(self, setter: Optional[Callable[[int], int]] = None):
        if setter is None:
            import ctypes

            setter = ctypes.windll.kernel32.SetThreadExecutionState  # type: ignore[attr-defined]
        self._set = setter

    def inhibit(self, app_name: str, reason: str) -> bool:
        return bool(self._set(ES_CONTINUOUS | ES_SYSTEM_REQUIRED | ES_DISPLAY_REQUIRED))

    def release(self) -> None:
        self._set(ES_CONTINUOUS)


def platform_backend() -> Backend:
    """The backend of this platform (:class:`Backend`, doing nothing, where none applies)."""
    if sys.platform.startswith("win"):
        return WindowsBackend()
    if sys.platform.startswith(("linux", "freebsd", "openbsd", "netbsd")):
        return FreedesktopBackend()
    return Backend()


class KeepAwake(QObject):
    """Holds off sleep while ``window`` is active and ``has_game()`` is true (see the module).

    ``enabled`` follows the setting; :meth:`update` re-decides (called on activation
    changes and when tabs come and go).

    Signals:
        availabilityChanged(bool): whether holding off sleep works here, learnt the first time
            it is tried and whenever that changes (the View menu's switch says so).
    """

    availabilityChanged = Signal(bool)

    def __init__(self, window, has_game: Callable[[], bool], backend: Optional[Backend] = None,
                 enabled: bool = True, app_name: str = "Deduction Desk"):
        super().__init__(window)
        self.window = window
        self.has_game = has_game
        self.backend = backend if backend is not None else platform_backend()
        self.enabled = enabled
        self.app_name = app_name
        self.held = False
        self._warned = False
        #: Whether holding off sleep worked when last tried (None: not tried yet).
        self.available: Optional[bool] = None
        window.installEventFilter(self)

    def set_enabled(self, on: bool) -> None:
        self.enabled = bool(on)
        self.update()

    def wanted(self) -> bool:
        return self.enabled and self.window.isActiveWindow() and bool(self.has_game())

    def update(self) -> None:
        want = self.wanted()
        if want and not self.held:
            self.held = self.backend.inhibit(self.app_name, _(REASON))
            if self.available is not self.held:
                self.available = self.held
                self.availabilityChanged.emit(self.held)
            if self.held:
                log.info("keeping the computer awake (%s)", self.backend.name)
            elif not self._warned:
                self._warned = True
                log.info("cannot keep the computer awake here (%s backend: not available)",
                         self.backend.name)
        elif not want and self.held:
            self.backend.release()
            self.held = False
            log.info("no longer keeping the computer awake")

    def release(self) -> None:
        """Let go (at quit)."""
        if self.held:
            self.backend.release()
            self.held = False

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 (Qt name)
        if obj is self.window and event.type() in (QEvent.Type.WindowActivate,
                                                   QEvent.Type.WindowDeactivate,
                                                   QEvent.Type.Close, QEvent.Type.Hide):
            if event.type() in (QEvent.Type.Close, QEvent.Type.Hide):
                self.release()
            else:
                self.update()
        return False


def install(window, settings: QSettings) -> KeepAwake:
    """Give a :class:`desktop.shell.main_window.MainWindow` its :class:`KeepAwake` and the View menu's
    "Keep the screen awake" switch (kept in ``settings``)."""
    stored = settings.value(SETTINGS_KEY, True)
    enabled = stored not in (False, "false", "0", 0)
    keeper = KeepAwake(window, lambda: bool(window.game_tabs), enabled=enabled)
    act = QAction(_("Keep the screen a&wake during a game"), window)
    act.setCheckable(True)
    act.setChecked(enabled)

    def toggled(on: bool) -> None:
        settings.setValue(SETTINGS_KEY, bool(on))
        keeper.set_enabled(on)

    act.toggled.connect(toggled)

    def shown_availability(works: bool) -> None:
        # the switch stays as the player set it (another desktop may support it), and says
        # that it has no effect here
        act.setText(_("Keep the screen a&wake during a game") if works else
                    _("Keep the screen a&wake during a game (not possible on this desktop)"))
        act.setStatusTip("" if works else _("This desktop offers an application no way to hold "
                                            "off the screen saver ({backend}: not available)")
                         .format(backend=keeper.backend.name))
        act.setToolTip(act.statusTip() or act.text().replace("&", ""))

    keeper.availabilityChanged.connect(shown_availability)
    for a in window.menuBar().actions():
        if a.menu() is not None and a.text().replace("&", "") in ("View", _("&View").replace("&", "")):
            a.menu().addAction(act)
    window.tabs.currentChanged.connect(lambda *_: keeper.update())
    window.keep_awake = keeper
    window.keep_awake_action = act
    return keeper
