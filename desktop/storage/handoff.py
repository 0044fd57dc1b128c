"""The hand-off of a file between running copies of the app.

Two copies saving the same file would overwrite each other's events, so a file is never opened
twice: File → Open (or a FILE argument at start) in instance B hands the file to instance A
that holds it (:func:`desktop.storage.locks.open_elsewhere_owner`). Every instance listens on a
:class:`QLocalServer` (:class:`HandoffServer`, name :func:`handoff_server_name`: the user and
the instance id); B asks A through a :class:`QLocalSocket` (:func:`request_handoff`) to bring
the file's tab to the front. When A does not answer within :data:`HANDOFF_TIMEOUT_MS`, B
refuses the file with a message naming A's process instead.
"""
from __future__ import annotations

import getpass
import json
import os
import re
from typing import Optional

from PySide6.QtCore import QEventLoop, QObject, QTimer, Signal, Slot
from PySide6.QtNetwork import QLocalServer, QLocalSocket

from desktop.storage.locks import INSTANCE_ID, LockHolder

#: How long instance B waits for instance A to answer a hand-off (ms); then B refuses the file.
HANDOFF_TIMEOUT_MS = 3000
#: Longest Unix socket path used (bytes): the smallest ``sun_path`` of the systems served, less
#: its terminating NUL (unix(7); macOS and the BSDs have 104 bytes).
MAX_SOCKET_PATH = 103
#: Largest hand-off message read (bytes): a path and a few keys.
MAX_HANDOFF_BYTES = 16 << 10


def handoff_server_name(instance_id: str) -> str:
    """The :class:`QLocalServer` name of the instance ``instance_id``: the application, the user
    (two users never reach each other's servers) and the instance, e.g.
    ``"deduction-desk-alice-4242-1a2b3c4d"``."""
    try:
        user = getpass.getuser()
    except (KeyError, OSError):
        user = str(os.getuid()) if hasattr(os, "getuid") else "user"
    user = re.sub(r"[^A-Za-z0-9_.-]", "_", user)[:32]
    name = f"deduction-desk-{user}-{instance_id}"
    from PySide6.QtCore import QDir

    # Qt makes a bare name a socket file in QDir.tempPath(); a Unix socket's path holds at most
    # 107 bytes (sun_path, 108 with its NUL on Linux; 104 on macOS and the BSDs: unix(7)), so
    # under a long TMPDIR the server could not listen. Then the name becomes a full path in a
    # short folder every instance of this user computes alike.
    if len(os.path.join(QDir.tempPath(), name).encode()) <= MAX_SOCKET_PATH:
        return name
    for folder in (os.environ.get("XDG_RUNTIME_DIR", ""), "/tmp"):
        path = os.path.join(folder, name)
        if folder and os.path.isdir(folder) and len(path.encode()) <= MAX_SOCKET_PATH:
            return path
    return name


class HandoffServer(QObject):
    """This instance's end of the hand-off (module docstring): a :class:`QLocalServer`, only
    reachable by the same user, answering one request per connection.

    A request is one line of JSON, ``{"open": "/abs/path.json"}``; the answer one line,
    ``{"shown": true, "pid": 4242}`` when this instance holds the file and ``bring(path)``
    brought it to the front, ``{"shown": false}`` otherwise.

    Args:
        autosave: this instance's :class:`InstanceAutosave` (its id names the server; its
            locks tell which files this instance holds).
        bring: ``bring(path) -> bool``: select the file's tab and raise the window.

    Signals:
        handedOff(str path): another instance asked for ``path`` and it was brought forward.
    """

    handedOff = Signal(str)

    def __init__(self, autosave: LockHolder, bring, parent: Optional[QObject] = None):
        super().__init__(parent)
        self._autosave = autosave
        self._bring = bring
        self.server = QLocalServer(self)
        self.server.setSocketOptions(QLocalServer.UserAccessOption)
        self.name = handoff_server_name(autosave.instance_id)
        QLocalServer.removeServer(self.name)   # a socket file left by a killed process
        self.listening = self.server.listen(self.name)
        self.server.newConnection.connect(self._on_connection)
        self._buffers: dict = {}

    @Slot()
    def _on_connection(self) -> None:
        while self.server.hasPendingConnections():
            sock = self.server.nextPendingConnection()
            self._buffers[sock] = b""
            sock.readyRead.connect(self._on_ready_read)
            sock.disconnected.connect(self._on_gone)
            QTimer.singleShot(HANDOFF_TIMEOUT_MS * 2, sock, sock.abort)   # a silent client

    @Slot()
    def _on_gone(self) -> None:
        sock = self.sender()
        self._buffers.pop(sock, None)
        if sock is not None:
            sock.deleteLater()

    @Slot()
    def _on_ready_read(self) -> None:
        sock = self.sender()
        if sock not in self._buffers:
            return
        data = self._buffers[sock] + bytes(sock.readAll().data())
        if b"\n" not in data and len(data) <= MAX_HANDOFF_BYTES:
            self._buffers[sock] = data
            return
        del self._buffers[sock]
        answer = {"shown": False}
        try:
            request = json.loads(data.split(b"\n", 1)[0][:MAX_HANDOFF_BYTES].decode("utf-8"))
            path = request.get("open") if isinstance(request, dict) else None
            if isinstance(path, str) and self._autosave.holds(path) and self._bring(path):
                answer = {"shown": True, "pid": os.getpid()}
                self.handedOff.emit(path)
        except (ValueError, UnicodeDecodeError):
            pass
        sock.write((json.dumps(answer) + "\n").encode("utf-8"))
        sock.flush()
        sock.disconnectFromServer()

    def close(self) -> None:
        """Stop listening (the window closes)."""
        self.server.close()


def request_handoff(path: str, instance_id: str, timeout_ms: Optional[int] = None) -> bool:
    """Ask the instance ``instance_id`` to bring ``path``'s tab to the front; True when it
    answered that it did within ``timeout_ms`` (default :data:`HANDOFF_TIMEOUT_MS`). Waits
    in a local event loop, so this instance's window keeps painting and an instance in the
    same process can answer."""
    if not INSTANCE_ID.fullmatch(instance_id or ""):
        return False
    timeout_ms = HANDOFF_TIMEOUT_MS if timeout_ms is None else timeout_ms
    request = (json.dumps({"open": os.path.realpath(path)}) + "\n").encode("utf-8")
    reply = _exchange(handoff_server_name(instance_id), request, timeout_ms)
    try:
        answer = json.loads(reply.split(b"\n", 1)[0].decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return False
    return isinstance(answer, dict) and answer.get("shown") is True


def _exchange(server: str, request: bytes, timeout_ms: int) -> bytes:
    """Send ``request`` to the local server ``server`` and return what it answers up to the
    first newline (at most :data:`MAX_HANDOFF_BYTES`; b"" when nobody answers in time)."""
    sock = QLocalSocket()
    loop = QEventLoop()
    got = {"data": b"", "done": False}

    def on_ready():
        got["data"] += bytes(sock.readAll().data())
        if b"\n" in got["data"] or len(got["data"]) > MAX_HANDOFF_BYTES:
            got["done"] = True
            loop.quit()

    def on_gone(*_a):
        got["done"] = True
        loop.quit()

    sock.readyRead.connect(on_ready)
    sock.disconnected.connect(on_gone)
    sock.errorOccurred.connect(on_gone)
    sock.connected.connect(lambda: sock.write(request))
    timer = QTimer()
    timer.setSingleShot(True)
    timer.timeout.connect(loop.quit)
    timer.start(timeout_ms)
    sock.connectToServer(server)
    if not got["done"]:
        loop.exec()
    timer.stop()
    if sock.bytesAvailable():
        got["data"] += bytes(sock.readAll().data())
    sock.abort()
    return got["data"]
