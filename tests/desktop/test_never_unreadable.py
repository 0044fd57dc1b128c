"""The app never writes what it cannot read, and a recovery file is input like any other.

* The reader's event limit applies when logging: at the limit the form (and quick entry) says
  so and nothing is logged, so Save never writes a file Open refuses.
* A board file named by a Guess Who? session is written relative to the saved file (or inline
  when outside its folder), so Save As to another folder, and a restore, keep the board.
* A recovery file goes through the same reader and path confinement: a board outside the
  game's folder is refused, and a save target that is not a session file is dropped (the game
  is restored untitled) instead of being overwritten by the next Save.
"""
import json
import shutil
from pathlib import Path

import pytest
from autosave_written import wait_written
from window_instances import close_instance as _close
from window_instances import copy_example as _copy_example
from window_instances import instance_window as _new_window

from engines.core.resources import resource_path
from engines.core.schema import read_session_file

#: QMessageBox answered without blocking (tests/desktop/conftest.py).
pytestmark = pytest.mark.usefixtures("no_modal_boxes")




def test_logging_stops_at_the_readers_event_limit(qtbot, tmp_path, fresh_recovery, monkeypatch):
    import engines.core.schema as schema

    w = _new_window(qtbot)
    try:
        path = _copy_example(tmp_path, "cluedo")
        assert w.open_path(path, ask=False)
        tab = w.tab_for("cluedo")
        doc = tab.controller.document
        n = len(doc.events)
        monkeypatch.setattr(schema, "MAX_EVENTS", n + 1)      # the reader's limit, made small
        warnings = []
        monkeypatch.setattr(tab, "warn", lambda title, text: warnings.append(text))
        ev = doc.events[-1]
        tab.log_event(ev)
        assert len(doc.events) == n + 1 and not warnings
        tab.log_event(ev)                                     # a form at the limit
        assert len(doc.events) == n + 1
        assert warnings and "most a session file may hold" in warnings[-1]
        refused = []                                          # quick entry at the limit
        tab.log_checked(ev, refused=refused.append, logged=lambda: refused.append("logged"))
        qtbot.waitUntil(lambda: bool(refused), timeout=10000)   # after its check: the document refuses
        qtbot.wait(50)
        assert len(refused) == 1 and "most a session file may hold" in refused[0]
        assert len(doc.events) == n + 1
        doc.save(path)                                        # what was saved opens again
        assert len(read_session_file(path).events) == n + 1
    finally:
        _close(w)


def _guesswho_with_board_file(folder: Path) -> str:
    (folder / "boards").mkdir(parents=True)
    shutil.copy(resource_path("guesswho", "demo.json"), folder / "boards" / "mine.json")
    demo = json.loads(resource_path("guesswho", "demo.json").read_text(encoding="utf-8"))
    obj = {"format": "deduction-desk.session", "version": 1, "game": "guesswho",
           "setup": {"board": "boards/mine.json", "rules": "official"},
           "events": [{"type": "eliminate", "name": demo["characters"][0]["name"]}]}
    path = folder / "game.json"
    path.write_text(json.dumps(obj), encoding="utf-8")
    return str(path)


def test_save_as_to_another_folder_keeps_the_board(qtbot, tmp_path, fresh_recovery):
    session = _guesswho_with_board_file(tmp_path / "a")
    w = _new_window(qtbot)
    try:
        assert w.open_path(session, ask=False)
        doc = w.tab_for("guesswho").controller.document
        other = tmp_path / "b" / "moved.json"
        other.parent.mkdir()
        doc.save(str(other))
        again = read_session_file(str(other))                 # reopens from the other folder
        assert len(again.events) == 1 and again.setup.board.size == doc.setup.board.size
        doc.save(session)                                     # and back: relative again
        assert json.loads(Path(session).read_text())["setup"]["board"] == "boards/mine.json"
    finally:
        _close(w)


def test_restore_keeps_a_board_named_relative_to_the_game(qtbot, tmp_path, fresh_recovery):
    session = _guesswho_with_board_file(tmp_path / "a")
    a = _new_window(qtbot)
    assert a.open_path(session, ask=False)
    doc = a.tab_for("guesswho").controller.document
    doc.log_event(doc.events[0])                              # unsaved work
    wait_written(qtbot, a)
    a.autosave.crash_for_test()
    b = _new_window(qtbot)
    try:
        assert b.offer_recovery(ask=False)
        restored = b.tab_for("guesswho").controller.document
        assert len(restored.events) == 2 and restored.path == session
        assert restored.setup.board.size == doc.setup.board.size
    finally:
        _close(b)
        for t in a.game_tabs.values():
            t.shutdown()


def test_recovery_file_is_confined_like_a_session_file(qtbot, tmp_path, fresh_recovery):
    from desktop.storage.restore import find_orphans

    outside = tmp_path / "elsewhere" / "board.json"
    outside.parent.mkdir()
    shutil.copy(resource_path("guesswho", "demo.json"), outside)
    bad = json.loads(resource_path("examples", "guesswho.json").read_text(encoding="utf-8"))
    bad["setup"]["board"] = str(outside)
    bad["events"] = []
    bad_file = Path(fresh_recovery) / "instance-999994-0000dead.json"
    bad_file.write_text(json.dumps({"sessions": [bad], "paths": [None]}), encoding="utf-8")
    # a save target that is another file (not a session): the game comes back untitled
    victim = tmp_path / "notes.json"
    victim.write_text('{"mine": "not a session"}', encoding="utf-8")
    good = json.loads(resource_path("examples", "cluedo.json").read_text(encoding="utf-8"))
    target_file = Path(fresh_recovery) / "instance-999995-0000dead.json"
    target_file.write_text(json.dumps({"sessions": [good], "paths": [str(victim)]}),
                           encoding="utf-8")
    orphans, messages = find_orphans()
    try:
        assert len(orphans) == 1 and orphans[0].path == str(target_file)
        assert orphans[0].sessions[0][1] is None              # untitled: Save asks where
        assert messages and "outside" in messages[0]           # the board outside: refused
        assert (Path(fresh_recovery) / "damaged" / bad_file.name).exists()
    finally:
        for o in orphans:
            o.lock.unlock()
    assert victim.read_text() == '{"mine": "not a session"}'
