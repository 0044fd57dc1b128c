"""The two pane pictures of the docs and the in-app guide, from the bundled Cluedo example,
headless: ``cluedo-who-is-close.png`` (the suggestions beside the Who is close? page) and
``cluedo-board.png`` (the Board page), and the same in the Details view (``-details.png``).
Run by ``docs/make_screenshots.sh`` after the tabs' pictures; ``python
docs/make_pane_screenshots.py OUT_DIR`` from the repository's root.
"""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
#: the longest wait (s) for the plot's history (a background task, bounded by its samples)
SETTLE_S = 600.0


def main(out: str) -> int:
    from PySide6.QtCore import QPoint, QRect

    from desktop.shell.appearance import follow_system
    from desktop.shell.headless import wait_until_idle
    from desktop.shell.main_window import MainWindow, make_app
    from desktop.shell.process import use_sample_budgets
    from desktop.shell.shutdown import finish_threads

    use_sample_budgets()        # the same pictures whatever the machine's load
    app = make_app()
    follow_system(app, "light")
    win = MainWindow(autosave=False, interactive=False)
    win.set_details(False, remember=False)      # the default view, whatever the user's setting
    if not win.open_path(str(ROOT / "resources" / "examples" / "cluedo.json"), ask=False):
        return 2
    win.select_game("cluedo")
    win.resize(1280, 800)
    win.show()
    tab = win.tab_for("cluedo")
    ok = True
    shots = [(details, page, name.replace(".png", "-details.png") if details else name)
             for details in (False, True)
             for page, name in ((tab.who_page, "cluedo-who-is-close.png"),
                                (tab.board_panel, "cluedo-board.png"))]
    for details, page, name in shots:
        win.set_details(details, remember=False)   # the Details view: the same moment, reworded
        tab.side_tabs.setCurrentWidget(page)
        wait_until_idle(win, timeout_s=600.0)
        end = time.monotonic() + SETTLE_S   # the plots' back-fill runs after the figures shown
        while tab.opponents.is_history_busy() and time.monotonic() < end:
            app.processEvents()
            time.sleep(0.05)
        for _ in range(20):                 # its last prefix drawn
            app.processEvents()
            time.sleep(0.01)
        if page is tab.board_panel:
            shot = page.grab()
        else:   # from the Log suggestion button down, the forms pane to the window's right edge
            top = tab.form.log_button.mapTo(win, QPoint(0, 0)).y() - 4
            left = tab.form.mapTo(win, QPoint(0, 0)).x()
            bottom = win.statusBar().mapTo(win, QPoint(0, 0)).y()
            shot = win.grab(QRect(left, top, win.width() - left, bottom - top))
        ok = shot.save(os.path.join(out, name)) and ok
        print(os.path.join(out, name))
    win.shutdown()
    finish_threads(win, 1.0)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "docs" / "screenshots")))
