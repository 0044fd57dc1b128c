"""Autosave writes one pass of the event loop after a change (after the change's repaint), and
a clean exit drops a write still pending (desktop.storage.document.Autosave)."""
import json
import os
from pathlib import Path

from PySide6.QtCore import QCoreApplication
from window_instances import close_instance as _close
from window_instances import copy_example as _copy_example
from window_instances import instance_window as _new_window


def _events_in(path: str) -> int:
    return len(json.loads(Path(path).read_text(encoding="utf-8"))["sessions"][0]["events"])


def test_a_change_is_written_at_the_next_pass_of_the_event_loop(qtbot, tmp_path, fresh_recovery):
    w = _new_window(qtbot)
    try:
        assert w.open_path(_copy_example(tmp_path, "cluedo"), ask=False)
        qtbot.waitUntil(lambda: not w.autosave.pending(), timeout=5000)
        doc = w.tab_for("cluedo").controller.document
        path = w.autosave.recovery_path()
        n = len(doc.events)
        doc.log_event(doc.events[-1])
        doc.log_event(doc.events[-1])
        assert w.autosave.pending()                 # not written inside the change's signal
        assert not os.path.exists(path) or _events_in(path) == n
        QCoreApplication.processEvents()            # one pass: both changes, one write
        assert not w.autosave.pending() and _events_in(path) == n + 2
        doc.log_event(doc.events[-1])
        w.autosave.discard()                        # a clean exit: the pending write is dropped
        QCoreApplication.processEvents()
        assert not w.autosave.pending() and not os.path.exists(path)
    finally:
        _close(w)
