"""One run of the screen audit in its own process, on the X display in ``$DISPLAY``.

``python -m tests.screen_audit.runner --out DIR [--scheme light|dark] [--zoom 1.5]
[--states SPEC] [--save-state]`` starts the application's window as a user would (settings
from ``$XDG_CONFIG_HOME``, the language of the settings or of the system as at a real start,
geometry from :mod:`desktop.shell.window_geometry`), walks through the states
named by ``--states`` and runs :mod:`tests.screen_audit.checks` on every visible window of each
state. It writes ``DIR/report.json``: the states checked and, per failing state, its findings
and the screenshot (``DIR/<n>-<state>.png``) of every window of that state. Exit code 0 unless
the run itself broke (findings are in the report, judged by the test).

``--save-state`` instead sizes the window to 94 % of the screen, moves the splitters and
closes it, as a user quitting on a large screen does (the window state is saved in the
settings for the next run).

States (``--states``, comma separated ``game:state`` or ``*:state``; default every one):
``main`` (the example session), ``pages`` (every page of every side tab widget),
``deception`` (Inkognito's deception model on), ``why`` (a Why? popup), ``newgame`` (the New
game dialog), ``banner`` (a contradiction banner), ``longlog`` (the example's last entry
repeated).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
import traceback

ALL_STATES = ("main", "pages", "deception", "why", "newgame", "banner", "longlog")
GAMES = ("cluedo", "inkognito", "egghead", "guesswho", "spyfall")
#: entries appended for the ``longlog`` state
LONG_LOG = 400


def parse_states(spec: str) -> dict:
    """``"cluedo:main,*:why"`` → {game: [states]} (every game and state for ``"all"``)."""
    want = {g: [] for g in GAMES}
    for part in (spec or "all").split(","):
        part = part.strip()
        if not part:
            continue
        if part == "all":
            for g in GAMES:
                want[g] = list(ALL_STATES)
            continue
        game, _, state = part.partition(":")
        games = GAMES if game == "*" else (game,)
        states = ALL_STATES if state in ("", "*") else (state,)
        for g in games:
            for s in states:
                if s not in want[g]:
                    want[g].append(s)
    for g in want:   # in the order of ALL_STATES
        want[g] = [s for s in ALL_STATES if s in want[g]]
    return want


class Audit:
    def __init__(self, app, win, out: str):
        self.app, self.win, self.out = app, win, out
        self.states: list[str] = []
        self.failures: list[dict] = []
        self.errors: list[str] = []
        self._current = ""   # the game being walked (names the New game dialog's state)

    def settle(self, seconds: float = 0.25) -> None:
        from desktop.shell.headless import wait_until_idle

        wait_until_idle(self.win, 120)
        t_end = time.monotonic() + seconds
        while time.monotonic() < t_end:
            self.app.processEvents()
            time.sleep(0.02)

    def windows(self, extra=()):
        from PySide6.QtCore import Qt

        wins = [w for w in self.app.topLevelWidgets()
                if w.isVisible() and w.windowType() not in (Qt.ToolTip,)]
        for e in extra:
            if e not in wins:
                wins.append(e)
        return wins

    def check(self, state: str, extra=()) -> None:
        from tests.screen_audit import checks

        self.states.append(state)
        from PySide6.QtCore import QEvent

        for _ in range(3):   # layouts asked for by the last results are done
            self.app.sendPostedEvents(None, QEvent.DeferredDelete)   # as the event loop would
            self.app.sendPostedEvents()
            self.app.processEvents()
            time.sleep(0.02)
        findings = []
        wins = self.windows(extra)
        findings += checks.check_on_screen(wins)
        shots = []
        for w in wins:
            shot = w.grab().toImage()
            shots.append((w, shot))
            findings += checks.check_clipping(w)
            findings += checks.check_elided(w)
            findings += checks.check_contrast(w, shot)
        if findings:
            n = len(self.failures)
            paths = []
            for i, (_w, shot) in enumerate(shots):
                safe = state.replace(":", "-").replace("/", "-").replace(" ", "_")
                path = os.path.join(self.out, f"{n:02d}-{safe}-{i}.png")
                shot.save(path)
                paths.append(path)
            self.failures.append({"state": state, "findings": [str(f) for f in findings],
                                  "screenshots": paths})
        print(f"{state}: {len(findings)} finding(s)", flush=True)

    def report(self) -> dict:
        return {"states": self.states, "failures": self.failures, "errors": self.errors}


def _example(game: str) -> str:
    from engines.core.resources import resource_path

    return str(resource_path("examples", f"{game}.json"))


def _long_log_file(game: str, out: str) -> str:
    with open(_example(game), encoding="utf-8") as f:
        d = json.load(f)
    d["events"] = d["events"] + [d["events"][-1]] * LONG_LOG
    path = os.path.join(out, f"long-{game}.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(d, f)
    return path


def _why_fact(game: str, tab):
    setup = tab.controller.document.setup
    if game == "cluedo":
        return {"card": setup.cards[0], "place": setup.players[0]}, "why"
    if game == "egghead":
        return {"position": 1, "value": 1}, "why"
    if game == "guesswho":
        return {"name": setup.board.names[0]}, "why"
    if game == "inkognito":
        opp = setup.opponents[0]
        return {"opponent": opp, "identity": setup.identities[0]}, "why"
    return None, None


def _contradict(game: str, tab) -> bool:
    """Log an entry the log makes impossible; False where the audit has none for the game."""
    setup = tab.controller.document.setup
    if game == "cluedo":
        card = setup.cards[0]
        others = [p for p in setup.players if p != setup.me]
        tab.log_json({"type": "shown", "player": others[0], "card": card})
        tab.log_json({"type": "shown", "player": others[1 % len(others)], "card": card})
        if len(others) == 1:
            tab.log_json({"type": "shown", "player": setup.me, "card": card})
        return True
    if game == "guesswho":
        q = {"attribute": "glasses", "value": True}
        tab.log_json({"type": "answer", "question": q, "answer": True})
        tab.log_json({"type": "answer", "question": q, "answer": False})
        return True
    return False


def walk(audit: Audit, want: dict) -> None:
    from PySide6.QtWidgets import QDialog, QMessageBox

    win = audit.win
    dialogs_seen = []

    def fake_exec(dlg, *a, **k):
        dlg.show()
        audit.settle(0.4)
        audit.check(f"{audit._current}:newgame", extra=[dlg])
        dialogs_seen.append(type(dlg).__name__)
        dlg.hide()
        return QDialog.Rejected

    QDialog.exec = fake_exec
    for name in ("warning", "information", "critical", "question"):
        setattr(QMessageBox, name, staticmethod(lambda *a, **k: QMessageBox.Ok))

    for game in GAMES:
        states = want.get(game) or []
        if not states:
            continue
        audit._current = game
        try:
            win.select_game(game)
            win.open_path(_example(game), ask=False)
            win.select_game(game)
            tab = win.tab_for(game)
            audit.settle()
            if "main" in states:
                audit.check(f"{game}:main")
            if "pages" in states:
                _pages(audit, tab, f"{game}:page")
            if "deception" in states and game == "inkognito":
                tab.deception.setChecked(True)
                audit.settle(0.5)
                audit.check(f"{game}:deception")
                _pages(audit, tab, f"{game}:deception-page")
                tab.deception.setChecked(False)
                audit.settle()
            if "why" in states:
                fact, _ = _why_fact(game, tab)
                if fact is not None:
                    tab.show_why(fact, "the fact asked about")
                    audit.settle(0.5)
                    popup = tab.why_popup()
                    audit.check(f"{game}:why", extra=[popup] if popup is not None else [])
                    tab.close_why()
            if "newgame" in states:
                tab.new_game()
                audit.settle()
            if "banner" in states:
                n = len(tab.controller.document.events)
                if not _contradict(game, tab):
                    tab.banner.show_message("Impossible log: entries #1 and #2 cannot all be "
                                            "true together (shown by the audit)", "error", "Undo")
                audit.settle(0.5)
                audit.check(f"{game}:banner")
                while len(tab.controller.document.events) > n and win.undo_action.isEnabled():
                    win.undo_action.trigger()
                tab.banner.clear()
                audit.settle()
            if "longlog" in states:
                win.open_path(_long_log_file(game, audit.out), ask=False)
                win.select_game(game)
                audit.settle(0.5)
                audit.check(f"{game}:longlog")
            # a clean document for the next game's "open" (no unsaved-changes question)
            tab.controller.document.undo_stack.setClean()
        except Exception:
            audit.errors.append(f"{game}: {traceback.format_exc()}")


def _pages(audit: Audit, tab, prefix: str) -> None:
    """Every page of every visible side QTabWidget of ``tab``."""
    from PySide6.QtWidgets import QTabWidget

    for tw in tab.findChildren(QTabWidget):
        if not tw.isVisible():
            continue
        current = tw.currentIndex()
        for i in range(tw.count()):
            if i == current or not tw.isTabVisible(i):
                continue
            tw.setCurrentIndex(i)
            audit.settle(0.3)
            audit.check(f"{prefix}:{tw.tabText(i).replace('&', '')}")
        tw.setCurrentIndex(current)


def main(argv=None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--out", required=True)
    p.add_argument("--scheme", default="light")
    p.add_argument("--zoom", type=float, default=1.0)
    p.add_argument("--states", default="all")
    p.add_argument("--save-state", action="store_true")
    args = p.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)

    # the audit judges layouts, not figures: the Who is close? look-ahead samples up to 4096
    # deals (4 s) per shown entry and 256 per point of its plot's back-fill; capped at the 64
    # deals an interval needs for the entry shown (its texts have the same form, figures with
    # their intervals) and at 8 a point of the plot (a long log back-fills hundreds of points:
    # 35 s of CPU at 64)
    from desktop.games.cluedo import opponents as cluedo_opponents
    from desktop.shell.appearance import follow_system
    from desktop.shell.main_window import MainWindow, make_app

    cluedo_opponents.LIVE_MAX_SAMPLES, cluedo_opponents.HISTORY_MAX_SAMPLES = 64, 8
    app = make_app()
    from desktop.shell.language import apply_language, chosen_language

    apply_language(app, chosen_language())   # as desktop.shell.main_window.main: before the window
    follow_system(app, args.scheme)
    try:
        from desktop.table import zoom
        zoom.set_zoom(app, args.zoom)
    except ImportError:
        if args.zoom != 1.0:
            print("no desktop.table.zoom: --zoom ignored", file=sys.stderr)
    win = MainWindow(autosave=False, interactive=True)
    win.show()
    audit = Audit(app, win, args.out)
    audit.settle(0.5)
    if args.save_state:
        _save_large_state(audit)
        return 0
    walk(audit, parse_states(args.states))
    with open(os.path.join(args.out, "report.json"), "w", encoding="utf-8") as f:
        json.dump(audit.report(), f, indent=1)
    for tab in win.game_tabs.values():
        tab.controller.document.undo_stack.setClean()
    win.shutdown()
    from desktop.shell.shutdown import finish_threads

    finish_threads(win, 1.0)
    os._exit(0)


def _save_large_state(audit: Audit) -> None:
    """Open every tab, make the window nearly as large as the screen, drag every splitter
    towards its end, and quit (the window saves its state)."""
    from PySide6.QtWidgets import QSplitter

    win = audit.win
    for game in GAMES:
        win.open_path(_example(game), ask=False)
    audit.settle()
    avail = win.screen().availableGeometry()
    win.resize(int(avail.width() * 0.94), int(avail.height() * 0.94))
    audit.settle(0.5)
    for tab in win.build_all_tabs().values():
        for s in tab.findChildren(QSplitter):
            sizes = s.sizes()
            if len(sizes) >= 2:
                total = sum(sizes)
                s.setSizes([total // 6] * (len(sizes) - 1) + [total - total // 6 * (len(sizes) - 1)])
        tab.controller.document.undo_stack.setClean()
    win.select_game("guesswho")
    audit.settle()
    win.close()
    audit.app.processEvents()
    os._exit(0)


if __name__ == "__main__":
    sys.exit(main())
