"""A recovery folder that stops taking writes after start-up (a full disk, a folder made
read-only or taken away): autosave moves the recovery file to a folder of this user's under the
temporary location, says where in the window's bar, and the moved file is still offered for
restoring after a crash. The folder is made unwritable by putting a regular file where it was —
a path whose parent is a file cannot be written even by root (``chmod`` would not stop root)."""
import json
import os
import shutil
from pathlib import Path

import pytest
from autosave_written import wait_written
from window_instances import close_instance as _close
from window_instances import copy_example as _copy_example
from window_instances import instance_window as _new_window

pytestmark = pytest.mark.usefixtures("no_modal_boxes")


@pytest.fixture
def folders(tmp_path, monkeypatch):
    """This test's own recovery folder and spare folder (the shared ones are left alone)."""
    import desktop.storage.paths as paths
    from desktop.storage import locks, recovery, restore

    rec = tmp_path / "data" / "recovery"
    rec.mkdir(parents=True)
    spare = tmp_path / "spare"
    for module in (recovery, locks, restore):   # each binds the folder by name
        monkeypatch.setattr(module, "recovery_dir", lambda: str(rec))
    monkeypatch.setattr(paths, "fallback_dir", lambda: str(spare))
    return rec, spare / "recovery"


def _events_in(path) -> int:
    return len(json.loads(Path(path).read_text(encoding="utf-8"))["sessions"][0]["events"])


def test_autosave_moves_when_its_folder_stops_taking_writes(qtbot, tmp_path, folders):
    from desktop.storage.restore import find_orphans

    rec, spare = folders
    w = _new_window(qtbot)
    try:
        assert w.open_path(_copy_example(tmp_path, "cluedo"), ask=False)
        doc = w.tab_for("cluedo").controller.document
        doc.log_event(doc.events[-1])
        wait_written(qtbot, w)
        first = w.autosave.recovery_path()
        assert os.path.dirname(first) == str(rec) and _events_in(first) == len(doc.events)
        bar = w.write_failure_bar
        assert bar.isHidden()
        # the folder goes away mid-session and a file takes its place: nothing can be made in it
        shutil.move(str(rec), str(tmp_path / "gone"))
        rec.write_text("not a folder")
        doc.log_event(doc.events[-1])
        wait_written(qtbot, w)
        moved = w.autosave.recovery_path()
        assert os.path.dirname(moved) == str(spare)
        assert _events_in(moved) == len(doc.events)          # nothing lost
        assert not bar.isHidden() and bar.kind == "warning"
        assert str(rec) in bar.text() and str(spare) in bar.text() and "could not be written" in bar.text()
        doc.log_event(doc.events[-1])                         # later writes go there too
        wait_written(qtbot, w)
        assert _events_in(moved) == len(doc.events)
        # a crash now: the moved file is offered at the next start like any other
        n = len(doc.events)
        w.autosave.crash_for_test()
        orphans, _ = find_orphans()
        assert [len(o.sessions[0][0].events) for o in orphans] == [n]
        for o in orphans:
            o.lock.unlock()
        w.autosave.enabled = True
    finally:
        _close(w)
    assert not os.path.exists(moved)


def test_no_move_when_the_spare_folder_fails_too(qtbot, tmp_path, folders, monkeypatch):
    """Where nothing can be written (the spare folder blocked as well) the recovery file stays
    where it was and the failure bar shows the reason."""
    rec, spare = folders
    spare.parent.write_text("blocked too")
    w = _new_window(qtbot)
    try:
        assert w.open_path(_copy_example(tmp_path, "cluedo"), ask=False)
        doc = w.tab_for("cluedo").controller.document
        doc.log_event(doc.events[-1])
        wait_written(qtbot, w)
        first = w.autosave.recovery_path()
        shutil.move(str(rec), str(tmp_path / "gone"))
        rec.write_text("not a folder")
        doc.log_event(doc.events[-1])
        wait_written(qtbot, w)
        assert w.autosave.recovery_path() == first
        bar = w.write_failure_bar
        assert bar.kind == "error" and "only in memory" in bar.text()
        rec.unlink()                                      # the folder is back: Retry works
        shutil.move(str(tmp_path / "gone"), str(rec))
        bar.retry()
        assert bar.isHidden() and _events_in(first) == len(doc.events)
    finally:
        _close(w)
