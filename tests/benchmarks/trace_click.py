"""Trace one logged fact through the code: which files of the project (``desktop/``,
``engines/``) its calls pass through, on the GUI thread and on the pool threads, from the
Cluedo tab's ``log_json`` (what the worksheet's menu calls) until the new beliefs are drawn.

Run: ``QT_QPA_PLATFORM=offscreen python tests/benchmarks/trace_click.py``.
"""
import os
import sys
import threading

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main() -> None:
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
    gui = threading.get_ident()
    seen = {"gui": set(), "pool": set()}

    def profile(frame, event, _arg):
        if event == "call":
            f = frame.f_code.co_filename
            if f.startswith(ROOT) and "/tests/" not in f:
                where = "gui" if threading.get_ident() == gui else "pool"
                seen[where].add(os.path.relpath(f, ROOT))

    threading.setprofile_all_threads(profile)
    post = tab.controller.timeline.latest
    card = next(c for c in tab.controller.document.setup.cards if 0 < post.probability(c, "Bob") < 1)
    tab.log_json({"type": "shown", "player": "Bob", "card": card})    # a fact that fits
    wait_idle(win)
    threading.setprofile_all_threads(None)
    for where in ("gui", "pool"):
        files = sorted(seen[where])
        print(f"{where}: {len(files)} files: {', '.join(files)}")
    both = seen["gui"] | seen["pool"]
    print(f"all: {len(both)} files")
    tab.controller.document.undo_stack.setClean()
    win.autosave.discard()
    win.shutdown()
    del app


if __name__ == "__main__":
    sys.exit(main())
