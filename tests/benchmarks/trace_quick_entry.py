"""Trace one quick-entry Enter through the code: which files of the project (``desktop/``,
``engines/``) its calls pass through — in the key press itself (the line parsed, the entry's
check against the log submitted), then on the GUI thread and on the pool threads until the tab is
idle (the check, the log, the new beliefs, ranking and advice drawn) — on the Cluedo tab with the
example session open. The method: :func:`threading.setprofile_all_threads` (Python 3.12), the
call events of every thread.

Run: ``QT_QPA_PLATFORM=offscreen python tests/benchmarks/trace_quick_entry.py``.
"""
import os
import sys
import threading

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main() -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    from desktop.shell.headless import wait_until_idle as wait_idle
    from desktop.shell.main_window import MainWindow, make_app
    from engines.core.resources import resource_path

    app = make_app()
    win = MainWindow(autosave=True, interactive=False)
    win.show()
    tab = win.tab_for("cluedo")
    win.open_path(str(resource_path("examples", "cluedo.json")), ask=False)
    win.select_game("cluedo")
    wait_idle(win)
    n = len(tab.controller.document.events)
    qe = tab.quick_entry
    qe.focus()
    qe.line.setText("Bob lacks rope")
    qe.completer.popup().hide()
    gui = threading.get_ident()
    seen = {"enter": set(), "gui": set(), "pool": set()}
    phase = ["enter"]

    def profile(frame, event, _arg):
        if event == "call":
            f = frame.f_code.co_filename
            if f.startswith(ROOT) and "/tests/" not in f:
                where = phase[0] if threading.get_ident() == gui else "pool"
                seen[where].add(os.path.relpath(f, ROOT))

    threading.setprofile_all_threads(profile)
    QTest.keyClick(qe.line, Qt.Key_Return)
    phase[0] = "gui"
    wait_idle(win)
    threading.setprofile_all_threads(None)
    threading.setprofile(None)
    assert len(tab.controller.document.events) == n + 1, "the line was not logged"
    seen["gui"] |= seen["enter"]
    for where in ("enter", "gui", "pool"):
        files = sorted(seen[where])
        print(f"{where}: {len(files)} files: {', '.join(files)}")
    print(f"all: {len(seen['gui'] | seen['pool'])} files")
    tab.controller.document.undo_stack.setClean()
    win.autosave.discard()
    win.shutdown()
    del app


if __name__ == "__main__":
    sys.exit(main())
