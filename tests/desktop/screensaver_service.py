"""A minimal ``org.freedesktop.ScreenSaver`` service for tests/desktop/test_keep_awake_bus.py:
``python tests/desktop/screensaver_service.py BUS_ADDRESS`` registers the service on that bus,
prints ``ready``, then one tab-separated line per call (``Inhibit  cookie  app  reason``,
``UnInhibit  cookie``) and quits after the UnInhibit of the last cookie it gave.

The methods and types are the freedesktop.org "Idle Inhibition Service" specification's:
``Inhibit(s application_name, s reason_for_inhibit) -> u cookie``, ``UnInhibit(u cookie)``.
Cookies start at 7001, so a test can tell a real cookie from a default 0.
"""
import sys

from PySide6.QtCore import ClassInfo, QCoreApplication, QObject, Slot
from PySide6.QtDBus import QDBusConnection


@ClassInfo({"D-Bus Interface": "org.freedesktop.ScreenSaver"})
class ScreenSaver(QObject):
    """The service object (its slots are the interface's methods)."""

    def __init__(self, app):
        super().__init__()
        self.app = app
        self.last = 7000

    @Slot(str, str, result="uint")
    def Inhibit(self, application_name, reason):  # noqa: N802 (the D-Bus method's name)
        self.last += 1
        print("Inhibit", self.last, application_name, reason, sep="\t", flush=True)
        return self.last

    @Slot("uint")
    def UnInhibit(self, cookie):  # noqa: N802 (the D-Bus method's name)
        print("UnInhibit", cookie, sep="\t", flush=True)
        if cookie == self.last:
            self.app.quit()


def main() -> int:
    app = QCoreApplication(sys.argv[:1])
    bus = QDBusConnection.connectToBus(sys.argv[1], "screensaver-service")
    service = ScreenSaver(app)
    ok = bus.isConnected() and \
        bus.registerObject("/org/freedesktop/ScreenSaver", service, QDBusConnection.ExportAllSlots) and \
        bus.registerService("org.freedesktop.ScreenSaver")
    print("ready" if ok else f"failed: {bus.lastError().message()}", flush=True)
    return app.exec() if ok else 1


if __name__ == "__main__":
    sys.exit(main())
