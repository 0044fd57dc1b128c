"""Keep awake against a real D-Bus session bus: a ``dbus-daemon --session`` of the test's own
with an ``org.freedesktop.ScreenSaver`` service (tests/desktop/screensaver_service.py, the
specification's method types) — the Inhibit call gets a real cookie back and UnInhibit hands
that cookie back as the specification's uint32. Skipped where ``dbus-daemon`` is not
installed (``.ci/run`` installs it)."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from desktop.table import keep_awake

SERVICE = Path(__file__).with_name("screensaver_service.py")

pytestmark = pytest.mark.skipif(shutil.which("dbus-daemon") is None,
                                reason="needs dbus-daemon (installed by .ci/run)")


@pytest.fixture
def session_bus():
    """A private session bus: yields its address."""
    daemon = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--print-address=1"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        address = daemon.stdout.readline().strip()
        assert address.startswith(("unix:", "tcp:")), f"dbus-daemon printed {address!r}"
        yield address
    finally:
        daemon.terminate()
        daemon.wait(5)


def _connect(address: str, name: str):
    from PySide6.QtDBus import QDBusConnection

    bus = QDBusConnection.connectToBus(address, name)
    assert bus.isConnected(), bus.lastError().message()
    return bus


def test_no_screensaver_service_means_not_held(qapp, session_bus):
    backend = keep_awake.FreedesktopBackend(bus=_connect(session_bus, "keep-awake-empty"))
    assert backend.inhibit("Deduction Desk", keep_awake.REASON) is False
    backend.release()                       # nothing to release: no call, no error


def test_inhibit_and_uninhibit_with_the_real_cookie(qapp, session_bus):
    service = subprocess.Popen([sys.executable, str(SERVICE), session_bus],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert service.stdout.readline().strip() == "ready", service.stderr.read()
        backend = keep_awake.FreedesktopBackend(bus=_connect(session_bus, "keep-awake-test"))
        assert backend.inhibit("Deduction Desk", keep_awake.REASON) is True
        call, cookie, app, reason = service.stdout.readline().rstrip("\n").split("\t")
        assert (call, app, reason) == ("Inhibit", "Deduction Desk", keep_awake.REASON)
        assert backend._cookie == int(cookie) == 7001
        backend.release()
        # the service quits once the cookie it gave comes back through UnInhibit(u)
        assert service.wait(10) == 0, service.stderr.read()
        assert service.stdout.readline().rstrip("\n").split("\t") == ["UnInhibit", cookie]
        assert backend._cookie is None
    finally:
        if service.poll() is None:
            service.kill()
            service.wait(5)


def test_a_missing_service_is_looked_up_again_only_after_the_retry_interval(qapp, session_bus,
                                                                            monkeypatch):
    """Without a screen saver service the bus is not asked again at every tab change; a
    service that starts later is found once RETRY_SECONDS have passed."""
    now = [1000.0]
    monkeypatch.setattr(keep_awake.time, "monotonic", lambda: now[0])
    backend = keep_awake.FreedesktopBackend(bus=_connect(session_bus, "keep-awake-retry"))
    assert backend.inhibit("Deduction Desk", keep_awake.REASON) is False
    service = subprocess.Popen([sys.executable, str(SERVICE), session_bus],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert service.stdout.readline().strip() == "ready", service.stderr.read()
        now[0] += keep_awake.RETRY_SECONDS - 1
        assert backend.inhibit("Deduction Desk", keep_awake.REASON) is False   # not asked
        now[0] += 2
        assert backend.inhibit("Deduction Desk", keep_awake.REASON) is True
        backend.release()
        assert service.wait(10) == 0, service.stderr.read()
    finally:
        if service.poll() is None:
            service.kill()
            service.wait(5)
