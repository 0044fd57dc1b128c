"""Benchmark: keystrokes and clicks to log a typical entry in each tab, before (the mouse forms)
and after (one quick-entry line and Enter).

"After" is counted, not estimated: the characters of the typed line plus Enter (also for the
line with every word cut to its shortest unique prefix, found by trying), and each line is
parsed by the game's engine grammar (``engines.<game>.parse``) and checked to give the intended
event, so a figure cannot describe a line that does not work. Keystrokes with completion
(Tab accepting a completed word) are not counted: the figure is the plain typing.

"Before" is read from the desktop forms' code (``desktop/games/<game>/forms.py`` and ``tab.py`` as of
this benchmark) and counted as mouse presses: a combo box choice is 2 (open, choose) unless it
already shows the wanted value (its default: the form's code), a check box, table cell,
toggle or button is 1, a spin box arrow is 1 per step, a context-menu entry is 2 (right-click,
choose). Scrolling and searching a list are not counted (they only add).

"After" is then replayed through the real widget (``--widget``, the default when PySide6 is
installed): an offscreen main window, each case's setup in its tab, Ctrl+L, the line typed key
by key into the tab's quick-entry line (``desktop/widgets/quick_entry.py``), Enter; the event
the document logged (after the background check against the log) must be the intended one.

Run: ``python tests/benchmarks/bench_entry.py [--no-widget] [--save]`` (prints a table;
``--save`` also writes the figures to ``tests/benchmarks/results/bench_entry.json``, which the
documentation's generated figures are checked against by ``tests/docs/test_docs.py``).
"""
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from engines import cluedo, egghead, guesswho, inkognito, spyfall

UK = cluedo.Setup.from_json({"edition": "cluedo-uk", "players": ["Me", "Ann", "Bob", "Cy"], "me": "Me"})
SPY = spyfall.Setup.from_json({"edition": "spyfall1", "players": ["Ann", "Bob", "Cy", "Dee", "Eve"],
                               "me": "Ann", "my_role": {"location": "Beach"}})

# (tab, what, setup, module, typed line, expected event JSON, mouse presses, how they are counted)
CASES = [
    ("Cluedo", "opponent's suggestion", UK, cluedo, "Ann: plum rope hall; cy",
     {"type": "suggestion", "suggester": "Ann", "cards": ["Professor Plum", "Rope", "Hall"],
      "passed": ["Bob"], "refuter": "Cy"},
     2 + 2 + 2 + 2 + 2 + 1,
     "suspect, weapon, room combos 2+2+2; suggester (default me) 2; refuter (default: the "
     "next seat, Bob) 2; passers pre-ticked 0; Log 1"),
    ("Cluedo", "my suggestion, card shown", UK, cluedo, "me: plum rope hall; bob rope",
     {"type": "suggestion", "suggester": "Me", "cards": ["Professor Plum", "Rope", "Hall"],
      "passed": ["Ann"], "refuter": "Bob", "shown": "Rope"},
     2 + 2 + 2 + 0 + 2 + 2 + 1,
     "three card combos 6; suggester is me by default 0; refuter (default Ann) 2; "
     "card shown 2; Log 1"),
    ("Cluedo", "a card seen", UK, cluedo, "bob has rope",
     {"type": "shown", "player": "Bob", "card": "Rope"},
     2, "right-click the worksheet cell, choose “Bob has Rope”"),
    ("Inkognito", "player question", inkognito.default_setup(), inkognito, "red: lord zsa fat",
     {"type": "answer", "opponent": "Red", "question": "player", "asked": "identity",
      "identities": ["Lord Fiddlebottom", "Madame Zsa Zsa"], "builds": ["fat"]},
     3 + 1, "three cells of the pending row 3 (question and kind at their defaults); Log 1"),
    ("Inkognito", "ambassador, build", inkognito.default_setup(), inkognito, "red: amb tall fat",
     {"type": "answer", "opponent": "Red", "question": "ambassador", "asked": "build",
      "identities": [], "builds": ["tall", "fat"]},
     2 + 2 + 2 + 1, "question combo 2; kind combo 2; two cells 2; Log 1"),
    ("Egghead", "answer", egghead.default_setup(), egghead, "sum 30",
     {"type": "answer", "question": "sum", "answer": 30, "moderator": None},
     2 + 2 + 1, "question combo 2 (or typing in its search line); answer combo 2; Log answer 1"),
    # (B solving at once is impossible with the default table: the widget refuses it)
    ("Egghead", "reactions", egghead.default_setup(), egghead, "reactions: none",
     {"type": "reactions", "solved": []},
     0 + 1, "toggles pre-filled (nobody before the first round) 0; Log reactions 1"),
    ("Egghead", "a solve", egghead.default_setup(), egghead, "b solves -> 112",
     {"type": "solve", "player": "B", "cards": None, "new_cards": [1, 1, 2]},
     1 + 1 + 1, "Solved… on B's row 1 (cards pre-filled); new cards from 1 1 1: one arrow 1; "
                "Log solve 1"),
    ("Guess Who?", "answer", guesswho.default_setup(), guesswho, "glasses? no",
     {"type": "answer", "question": {"attribute": "glasses", "value": True}, "answer": False},
     1 + 1, "the question's row in the list 1 (if visible); No 1"),
    ("Guess Who?", "knock a card down", guesswho.default_setup(), guesswho, "down alex",
     {"type": "eliminate", "name": "Alex"},
     1, "click the card on the board"),
    ("Spyfall", "claim", SPY, spyfall, "bob: beach 1, casino .5",
     {"type": "claim", "player": "Bob", "claim": {"Beach": 1, "Casino": 0.5}},
     0 + 2 + 1 + 1, "speaker (default: the next player, Bob) 0; Beach cell 0→½→1 2; "
                    "Casino cell 1; Log claim 1"),
]


def shortest(mod, setup, line: str, event) -> str:
    """``line`` with every word cut to its shortest prefix that still parses to ``event``
    (greedy, word by word): what a player who knows the names types."""
    words = line.split(" ")
    for i, w in enumerate(words):
        core = w.rstrip(":;,?")
        tail = w[len(core):]
        for n in range(1, len(core)):
            trial = words[:i] + [core[:n] + tail] + words[i + 1:]
            try:
                if mod.parse(setup, [], " ".join(trial)) == event:
                    words = trial
                    break
            except Exception:
                continue
    return " ".join(words)


def main() -> None:
    rows = []
    for tab, what, setup, mod, line, expect, clicks, how in CASES:
        got = mod.parse(setup, [], line)
        want = mod.event_from_json(expect, setup, "$")
        if got != want:
            raise SystemExit(f"{tab} “{line}” parsed to {got.to_json()}, expected {want.to_json()}")
        short = shortest(mod, setup, line, want)
        rows.append((tab, what, line, len(line) + 1, clicks, how, short))
    w = max(len(r[2]) for r in rows)
    ws = max(len(r[6]) for r in rows)
    print(f"{'tab':11s} {'entry':27s} {'typed line':{w}s}  keys  {'shortest line':{ws}s}  keys"
          f"  clicks before")
    for tab, what, line, keys, clicks, _how, short in rows:
        print(f"{tab:11s} {what:27s} {line:{w}s}  {keys:4d}  {short:{ws}s}  {len(short) + 1:4d}"
              f"  {clicks:6d}")
    print()
    print("How the clicks before were counted (desktop/games/<game>/forms.py, tab.py):")
    for tab, what, _line, _keys, clicks, how, _short in rows:
        print(f"  {tab} {what}: {how} = {clicks}")
    print("\nAfter: one typed line + Enter, 0 clicks (focus the line with Ctrl+L or /).")
    if "--save" in sys.argv:
        save({slug(f"{tab} {what}"): {"line": line, "keys": keys, "shortest": short,
                                      "shortest_keys": len(short) + 1, "clicks": clicks}
              for tab, what, line, keys, clicks, _how, short in rows})
    if "--no-widget" not in sys.argv:
        widget_replay()


def slug(text: str) -> str:
    """``text`` as a key of the saved figures: lower case, words joined by '_'."""
    return "_".join("".join(c if c.isalnum() else " " for c in text.lower()).split())


def save(figures: dict) -> None:
    """Write ``figures`` as this benchmark's last saved output (JSON, sorted keys)."""
    import json
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results", "bench_entry.json")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w", encoding="utf-8") as f:
        json.dump(figures, f, indent=1, sort_keys=True, ensure_ascii=False)
        f.write("\n")
    print(f"saved {out}")


def widget_replay() -> None:
    """Type every case into the desktop's quick-entry line (offscreen) and check the event the
    document logged; prints the keys pressed per case (Ctrl+L + the line + Enter)."""
    try:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        from PySide6.QtCore import Qt
        from PySide6.QtTest import QTest
        from PySide6.QtWidgets import QApplication
    except ImportError:
        print("\n(PySide6 not installed: the widget replay is skipped)")
        return
    import tempfile

    os.environ.setdefault("XDG_DATA_HOME", tempfile.mkdtemp(prefix="bench-entry-"))
    from desktop.shell.headless import wait_until_idle as wait_idle
    from desktop.shell.main_window import MainWindow

    app = QApplication.instance() or QApplication([])
    win = MainWindow(autosave=False)
    win.show()
    win.activateWindow()
    app.processEvents()
    games = {"Cluedo": "cluedo", "Inkognito": "inkognito", "Egghead": "egghead",
             "Guess Who?": "guesswho", "Spyfall": "spyfall"}
    print("\nReplayed through the quick-entry widget (Ctrl+L, the line, Enter):")
    ok = 0
    for tab_name, what, setup, mod, line, expect, _clicks, _how in CASES:
        tab = win.tab_for(games[tab_name])
        win.select_game(games[tab_name])
        tab.reset_document(setup, [])
        wait_idle(win, 60)
        win.activateWindow()   # the offscreen platform may drop the activation between cases
        app.processEvents()
        QTest.keyClick(QApplication.focusWidget() or tab, Qt.Key_L, Qt.ControlModifier)
        app.processEvents()
        focused = QApplication.focusWidget() is tab.quick_entry.line
        keys = 1
        for ch in line:
            QTest.keyClicks(tab.quick_entry.line, ch)
            keys += 1
        tab.quick_entry.completer.popup().hide()
        QTest.keyClick(tab.quick_entry.line, Qt.Key_Return)
        keys += 1
        wait_idle(win, 60)
        want = mod.event_from_json(expect, setup, "$")
        good = focused and list(tab.controller.document.events) == [want]
        ok += good
        if good:
            verdict = "logged the intended event"
        elif not focused:
            verdict = f"FAILED: Ctrl+L did not focus the line (focus: {QApplication.focusWidget()})"
        else:   # e.g. refused: the case's event contradicts the empty log it is typed against
            verdict = "not logged: " + tab.quick_entry.message()
        print(f"  {tab_name:11s} {what:27s} {keys:3d} keys  {verdict}")
        tab.controller.document.undo_stack.setClean()
    print(f"  {ok} of {len(CASES)} lines logged the intended event through the widget")
    for tab in win.game_tabs.values():
        tab.shutdown()


if __name__ == "__main__":
    main()
