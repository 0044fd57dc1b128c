"""Clean ends without a quit from the menu: SIGTERM, SIGHUP and the desktop session's logout.

A logout, a shutdown or ``kill`` sends SIGTERM (SIGHUP when the terminal goes): each ends the
app as a quit does, without a question (nobody may be there to answer): a game without unsaved
changes leaves no recovery file, a game with unsaved changes is kept in it and offered at the
next start (:meth:`desktop.storage.document.Autosave.finish`). The desktop session manager asks first
with ``QGuiApplication.commitDataRequest``: the app then writes everything at once
(:meth:`desktop.shell.main_window.MainWindow.commit_data`) and goes on running, as Qt's documentation of the
signal asks ("you should not exit the application within this signal"; the logout may still
be cancelled), so whatever ends it next loses nothing and offers only unsaved games.

Python runs a signal handler only between bytecodes, never while Qt's event loop waits in C++;
``signal.set_wakeup_fd`` makes the C-level handler write the signal's number to a socket that a
:class:`QSocketNotifier` watches, which wakes the event loop (Python docs, "signal.set_wakeup_fd";
Qt docs, "Calling Qt Functions From Unix Signal Handlers").
"""
from __future__ import annotations

import logging
import signal
import socket

from PySide6.QtCore import QSocketNotifier, Qt

log = logging.getLogger(__name__)

#: The signals that end the app cleanly (those that exist on this platform).
END_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP")
                    if hasattr(signal, name))


def install_clean_end(app, window) -> None:
    """Make SIGTERM and SIGHUP call ``window.end_without_asking`` (from the event loop, on the
    GUI thread) and ``app.commitDataRequest`` call ``window.commit_data``. Call once, on the main thread, before
    ``app.exec()``.

    Raises:
        ValueError: not called on the main thread (``signal.set_wakeup_fd`` requires it).
    """
    reader, writer = socket.socketpair()
    reader.setblocking(False)
    writer.setblocking(False)
    signal.set_wakeup_fd(writer.fileno(), warn_on_full_buffer=False)
    for sig in END_SIGNALS:
        # the handler itself does nothing: the byte on the socket wakes the notifier below
        signal.signal(sig, lambda *_args: None)
    notifier = QSocketNotifier(reader.fileno(), QSocketNotifier.Read, window)

    def on_signal(*_args) -> None:
        try:
            data = reader.recv(64)
        except OSError:
            return
        for number in data:
            if number in END_SIGNALS:
                window.end_without_asking(signal.Signals(number).name)
                return

    notifier.activated.connect(on_signal)
    # Qt's documentation of the signal asks for a direct connection
    app.commitDataRequest.connect(window.commit_data, Qt.DirectConnection)
    window._clean_end = (reader, writer, notifier)   # kept as long as the window
