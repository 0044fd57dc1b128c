"""The test helpers' wait for a window: ``wait_idle(window, timeout_s)`` runs the event loop
until ``window`` (a :class:`desktop.app.MainWindow`) is idle — no file being opened, every
built tab's jobs done and its History laid out — after building the tab on screen. True when
idle, False when ``timeout_s`` passed first (tests assert it). The app's own screenshot mode
and self-test use the same wait (:func:`desktop.headless.wait_until_idle`)."""
from desktop.headless import wait_until_idle


def wait_idle(window, timeout_s: float = 30.0) -> bool:
    """Run the event loop until ``window`` is idle (module docstring)."""
    return wait_until_idle(window, timeout_s)
