"""``deduction-desk --screenshot OUT.png``: the window rendered to a PNG without a user, and the
wait for a window to be idle that it and the self-test (:mod:`desktop.shell.selftest`) use.

The wait runs the event loop (``QEventLoop``) until the window is idle — no file being opened,
every built tab's jobs done and its History laid out — or the time is up; it checks after each
short timer tick, so the process sleeps in Qt's event loop instead of spinning.
"""
from __future__ import annotations

import sys
import time

from PySide6.QtCore import QEventLoop, QTimer
from PySide6.QtWidgets import QApplication

from desktop.shell.process import use_sample_budgets

#: How often the wait checks whether the window is idle (milliseconds).
CHECK_MS = 10


def wait_until_idle(win, timeout_s: float = 30.0) -> bool:
    """Build the tab on screen if needed, then run the event loop until ``win``
    (a :class:`desktop.shell.main_window.MainWindow`) is idle
    (:meth:`~desktop.shell.main_window.MainWindow.is_idle`) and
    a few more turns have drawn it. False when ``timeout_s`` passed first."""
    win.current_tab()
    app = QApplication.instance()
    loop = QEventLoop()
    deadline = time.monotonic() + timeout_s
    idle = [False]

    def check() -> None:
        app.processEvents()   # the events a tick may have queued before deciding
        if win.is_idle():
            idle[0] = True
            loop.quit()
        elif time.monotonic() >= deadline:
            loop.quit()

    timer = QTimer()
    timer.timeout.connect(check)
    timer.start(CHECK_MS)
    check()
    if not idle[0] and time.monotonic() < deadline:
        loop.exec()
    timer.stop()
    if idle[0]:
        for _ in range(5):
            app.processEvents()
    return idle[0]


def screenshot(app: QApplication, win, args) -> int:
    """``--screenshot OUT.png``: open the session (if any), wait for its beliefs, render the
    window to a PNG and quit; returns the exit code (2: the session could not be opened).
    Background work is bounded by samples, not seconds (:func:`use_sample_budgets`), so the
    picture of a file is the same on a loaded machine."""
    use_sample_budgets()
    if args.session:
        if not win.open_path(args.session, ask=False):
            win.shutdown()
            return 2
        if args.tab:
            win.select_game(args.tab)
    w, _, h = args.size.partition("x")
    win.resize(int(w), int(h))
    win.show()
    if not wait_until_idle(win, timeout_s=600.0):   # a 6-player Egghead log takes minutes
        print("warning: inference still running after 10 minutes; the screenshot shows "
              "the beliefs so far", file=sys.stderr)
    app.processEvents()
    ok = win.grab().save(args.screenshot)
    win.shutdown()
    from desktop.shell.shutdown import finish_threads

    finish_threads(win, 1.0)   # a computation still running must not abort the exit
    if not ok:
        print(f"error: cannot write {args.screenshot}", file=sys.stderr)
        return 1
    return 0
