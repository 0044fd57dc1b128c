"""A child instance of the app for the crash tests (tests/desktop/test_crash.py): opens a
session file, makes changes and says when each is made, until it is killed or told to stop.

    python tests/desktop/crash_child.py SESSION GAME OPS...

OPS are done in order, each after the window is idle and the checkpoint written: ``log``,
``undo``, ``redo``, ``remove``, ``replace``, ``save`` (File → Save), ``wait`` (for a line on
stdin, printing nothing). After each change it prints ``changed N HASH``
(N: entries now, HASH: sha1 of the events as a session file holds them) and flushes. Then it
runs the event loop until it ends: by a signal (the app's own handling, as ``main()``
installs it) or when stdin closes (a clean quit). Data folders come from the environment
(XDG_DATA_HOME, XDG_CONFIG_HOME), the application names are the tests'. A file another
instance has open is refused: the child prints ``refused`` and ends with 3.
"""
import hashlib
import json
import os
import sys
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from desktop.shell.main_window import MainWindow, make_app


def events_hash(data) -> str:
    """sha1 of ``data``'s events as a session file holds them (times and notes included)."""
    from engines.core.schema import session_json

    events = session_json(data, "")["events"]
    return hashlib.sha1(json.dumps(events, sort_keys=True).encode()).hexdigest()[:16]


def main() -> int:
    session, game, ops = sys.argv[1], sys.argv[2], sys.argv[3:]
    app = make_app()
    app.setApplicationName("Deduction Desk")
    app.setOrganizationName("DeductionDeskTests")
    win = MainWindow(autosave=True, interactive=False)
    try:     # as main() does (an app without it ends at SIGTERM's default action)
        from desktop.shell.clean_end import install_clean_end
    except ImportError:
        install_clean_end = None
    if install_clean_end is not None:
        install_clean_end(app, win)
    win.show()
    if not win.open_path(session, ask=False):
        print("refused", flush=True)        # another instance has the file open
        return 3
    doc = win.tab_for(game).controller.document
    print("ready", os.getpid(), win.autosave.recovery_path(), flush=True)

    def idle() -> None:
        end = time.monotonic() + 60
        while win.autosave.pending() and time.monotonic() < end:
            app.processEvents()
            time.sleep(0.005)

    for op in ops:
        idle()
        if op == "log":
            doc.log_event(doc.events[-1])
        elif op == "undo":
            doc.undo_stack.undo()
        elif op == "redo":
            doc.undo_stack.redo()
        elif op == "remove":
            doc.remove_event(len(doc.events) - 1)
        elif op == "replace":
            doc.replace_event(len(doc.events) - 1, doc.events[0])
        elif op == "save":
            assert win.save()
        elif op == "wait":                  # until the test writes a line
            sys.stdin.readline()
            continue
        print("changed", len(doc.events), events_hash(doc.data()), flush=True)
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())
