"""Screenshots of the Save conflict and of the restore offer that says what it holds, over the
main window at 1280×800, light and dark (docs/nothing-lost.md).

    xvfb-run -s "-screen 0 1280x800x24" sh -c 'openbox & python docs/make_dialog_screenshots.py OUT_DIR'

Needs a real X server with a window manager (dialogs are separate windows, which the
offscreen platform cannot show together): the whole screen is grabbed while each dialog is
open, then the dialog is closed. Data and settings go to a temporary folder.
"""
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main(out: str, scheme: str) -> int:
    home = tempfile.mkdtemp(prefix="dialog-shots-")
    os.environ.update(XDG_DATA_HOME=f"{home}/data", XDG_CONFIG_HOME=f"{home}/config")
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QMessageBox

    from desktop.shell.appearance import follow_system
    from desktop.shell.main_window import MainWindow, make_app
    from engines.core.resources import resource_path

    app = make_app()
    follow_system(app, scheme)
    suffix = "" if scheme == "light" else "-dark"
    work = Path(home) / "games"
    work.mkdir()
    session = work / "cluedo.json"
    session.write_bytes(resource_path("examples", "cluedo.json").read_bytes())

    def shoot(name: str) -> None:
        def grab():
            box = QApplication.activeModalWidget()
            app.primaryScreen().grabWindow(0).save(os.path.join(out, f"{name}{suffix}.png"))
            if isinstance(box, QMessageBox):     # Cancel the Save, keep the files (No)
                box.done(QMessageBox.Cancel if name == "save-conflict" else QMessageBox.No)
            elif box is not None:
                box.reject()

        QTimer.singleShot(1500, grab)

    # a crashed instance's recovery file: its checkpoint holds the saved file, its journal 3
    # entries more
    from desktop.storage.journal import Journal
    from desktop.storage.paths import recovery_dir

    example = json.loads(session.read_text("utf-8"))
    rec = Path(recovery_dir()) / "instance-1-0000dead.json"
    rec.write_text(json.dumps({"sessions": [example], "paths": [str(session)],
                               "saved": [False], "seq": 0}), encoding="utf-8")
    j = Journal(str(rec)[:-5] + ".journal")
    for i, minute in enumerate(("21:05", "21:09", "21:14")):
        ev = dict(example["events"][-1 - i], time=f"2026-11-28T{minute}:00")
        j.append({"doc": "cluedo", "op": "insert", "at": len(example["events"]) + i,
                  "event": ev})
    j.close()
    win = MainWindow(autosave=True, interactive=True)
    win.resize(1280, 800)
    win.show()
    win.select_game("cluedo")
    shoot("restore-offer")
    win.offer_recovery(ask=True)

    # a Save over a file another writer changed
    assert win.open_path(str(session), ask=False)
    doc = win.tab_for("cluedo").controller.document
    doc.log_event(doc.events[-1])
    obj = json.loads(session.read_text("utf-8"))
    obj["events"].append(dict(obj["events"][0], time="2026-11-28T21:14:00"))
    session.write_text(json.dumps(obj), encoding="utf-8")
    shoot("save-conflict")
    win.save()
    for t in win.game_tabs.values():
        t.controller.document.undo_stack.setClean()
    win.close()
    shutil.rmtree(home, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots",
                  sys.argv[2] if len(sys.argv) > 2 else "light"))
