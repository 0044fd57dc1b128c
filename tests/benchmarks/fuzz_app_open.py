"""Hostile session files opened in the app (not a pass/fail test; run it by hand):

    QT_QPA_PLATFORM=offscreen python tests/benchmarks/fuzz_app_open.py [--files 200] [--seed 0]

Each file is one of the five games' example sessions (``resources/examples``) with one mutation:
a value anywhere in the JSON tree replaced by a hostile one (a lone surrogate escape, control
and bidirectional characters, a 100,000-character string, NaN/Infinity, an integer of 5,000
digits, a huge or negative size, deep nesting, another JSON type), a key removed, an unknown
key added, an entry duplicated, or the bytes damaged (cut short, a byte flipped, invalid UTF-8,
a byte-order mark). Every file is opened with File → Open's reader in one main window
(``MainWindow.open_path``), and the window is run until its tabs are idle.

The contract checked for every file:

* either the session opens, or exactly one short message (< 1,000 characters, no
  "Traceback") is shown and every open game is unchanged;
* nothing is raised to ``sys.excepthook`` or ``threading.excepthook`` and no job fails with a
  bug (logged at ERROR level);
* the window becomes idle within 60 s;
* when the session opened, no visible label or table cell shows NaN or infinity, and the app
  saves it to a file its own reader opens again (the app never writes a file it refuses).

Printed: the files by outcome (opened / refused / violation), the worst open-to-idle time, and
each violation with the mutation that caused it. The exit status is the number of violations
(capped at 100).
"""
from __future__ import annotations

import argparse
import json
import logging
import math
import os
import random
import re
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[1] / "desktop"),
                str(Path(__file__).resolve().parents[2])]
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
_HOME = tempfile.mkdtemp(prefix="deduction-desk-fuzz-")
os.environ["XDG_DATA_HOME"] = os.path.join(_HOME, "data")
os.environ["XDG_CONFIG_HOME"] = os.path.join(_HOME, "config")

GAMES = ("cluedo", "inkognito", "egghead", "guesswho", "spyfall")
_BAD = object()    # a marker: write a raw JSON fragment instead of a value


def _hostile_values(rng: random.Random):
    """One hostile replacement: (description, value or (_BAD, raw JSON text))."""
    choices = [
        ("lone surrogate", (_BAD, '"a\\ud800b"')),
        ("control characters", "a\x00b\x1b[31mc\x07"),
        ("bidi override", "\u202eevil\u202c"),
        ("zero-width joiner", "A\u200dB"),
        ("long string", "x" * 100_000),
        ("NaN", (_BAD, "NaN")),
        ("Infinity", (_BAD, "-Infinity")),
        ("5000-digit integer", (_BAD, "9" * 5000)),
        ("huge integer", 10**12),
        ("negative integer", -7),
        ("zero", 0),
        ("float", 2.5),
        ("null", None),
        ("true", True),
        ("empty string", ""),
        ("empty list", []),
        ("empty object", {}),
        ("list of strings", ["a", "a", "b"]),
        ("deep nesting", (_BAD, "[" * 50_000 + "]" * 50_000)),
        ("markup", '<img src="x.png"> & <b>bold</b>'),
        ("path", "../../../../etc/passwd"),
    ]
    return rng.choice(choices)


def _paths(node, prefix=()):
    """Every path in the JSON tree (tuples of keys and indices), the root excluded."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield prefix + (k,)
            yield from _paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield prefix + (i,)
            yield from _paths(v, prefix + (i,))


def _parent(doc, path):
    node = doc
    for key in path[:-1]:
        node = node[key]
    return node


def mutate(text: str, rng: random.Random) -> tuple[str, bytes]:
    """One mutation of a session's text: (description, the file's bytes)."""
    kind = rng.random()
    if kind < 0.12:     # damage the bytes
        raw = text.encode("utf-8")
        how = rng.choice(["cut", "flip", "invalid utf-8", "bom"])
        if how == "cut":
            return "cut short", raw[: rng.randrange(len(raw))]
        if how == "flip":
            i = rng.randrange(len(raw))
            return f"byte {i} flipped", raw[:i] + bytes([raw[i] ^ 0xFF]) + raw[i + 1:]
        if how == "invalid utf-8":
            i = rng.randrange(len(raw))
            return "invalid UTF-8", raw[:i] + b"\xc3\x28" + raw[i:]
        return "byte-order mark", b"\xef\xbb\xbf" + raw
    doc = json.loads(text)
    paths = list(_paths(doc))
    path = rng.choice(paths)
    parent = _parent(doc, path)
    where = "$" + "".join(f"[{k!r}]" for k in path)
    op = rng.random()
    raw_fragment = None
    if op < 0.12 and isinstance(parent, dict):
        del parent[path[-1]]
        what = f"{where} removed"
    elif op < 0.2 and isinstance(parent, dict):
        parent["\x1b[2Junknown\u202e"] = 1
        what = f"unknown key beside {where}"
    elif op < 0.28 and isinstance(parent, list):
        parent.append(parent[path[-1]])
        what = f"{where} duplicated"
    else:
        name, value = _hostile_values(rng)
        what = f"{where} := {name}"
        if isinstance(value, tuple) and value and value[0] is _BAD:
            raw_fragment = value[1]
            value = "@@FRAGMENT@@"
        parent[path[-1]] = value
    out = json.dumps(doc, ensure_ascii=True)
    if raw_fragment is not None:
        out = out.replace('"@@FRAGMENT@@"', raw_fragment, 1)
    return what, out.encode("utf-8")


def _bad_numbers_on_screen(window) -> list[str]:
    """Visible label and table texts that show NaN or infinity."""
    from PySide6.QtCore import QModelIndex, Qt
    from PySide6.QtWidgets import QAbstractItemView, QLabel

    bad = []
    pattern = re.compile(r"(?<!\w)(nan|[+-]?inf(inity)?)(?!\w)|∞", re.IGNORECASE)
    for tab in window.game_tabs.values():
        for label in tab.findChildren(QLabel):
            if label.isVisible() and pattern.search(label.text()):
                bad.append(label.text()[:80])
        for view in tab.findChildren(QAbstractItemView):
            model = view.model()
            if model is None or not view.isVisible():
                continue
            try:
                rows, columns = model.rowCount(QModelIndex()), model.columnCount(QModelIndex())
            except TypeError:      # a list model: one column, columnCount not public
                rows, columns = model.rowCount(QModelIndex()), 1
            for r in range(min(rows, 60)):
                for c in range(min(columns, 30)):
                    v = model.data(model.index(r, c), Qt.DisplayRole)
                    if isinstance(v, float) and not math.isfinite(v):
                        bad.append(f"cell {r},{c}: {v}")
                    elif isinstance(v, str) and pattern.search(v):
                        bad.append(f"cell {r},{c}: {v}")
    return bad


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    from PySide6.QtWidgets import QApplication, QMessageBox

    from desktop.shell.headless import wait_until_idle
    from desktop.shell.main_window import APP_NAME, ORG_NAME, MainWindow
    from desktop.storage.document import open_session_file
    from engines.core.resources import resource_path

    app = QApplication.instance() or QApplication([])
    app.setApplicationName(APP_NAME)
    app.setOrganizationName(ORG_NAME + "Fuzz")
    shown: list[str] = []
    QMessageBox.warning = lambda _p, _t, text, *a, **k: shown.append(text) or QMessageBox.Ok
    QMessageBox.critical = lambda _p, _t, text, *a, **k: shown.append(text) or QMessageBox.Ok
    QMessageBox.information = lambda *a, **k: QMessageBox.Ok
    QMessageBox.question = lambda *a, **k: QMessageBox.Discard
    import desktop.shell.file_actions as wf
    wf.ask_unsaved = lambda *a, **k: "discard"
    raised: list[str] = []
    sys.excepthook = lambda t, e, tb: raised.append(f"{t.__name__}: {e}"[:300])
    threading.excepthook = lambda a: raised.append(f"thread {a.exc_type.__name__}: {a.exc_value}"[:300])

    class _Errors(logging.Handler):
        def emit(self, record):
            raised.append("logged: " + record.getMessage()[:300])
    logging.getLogger().addHandler(_Errors(level=logging.ERROR))

    win = MainWindow(autosave=False)
    win.resize(1280, 800)
    win.show()
    win.build_all_tabs()
    wait_until_idle(win, 60)
    texts = {g: resource_path("examples", f"{g}.json").read_text(encoding="utf-8") for g in GAMES}
    rng = random.Random(args.seed)
    work = Path(_HOME) / "files"
    work.mkdir()
    outcomes = {"opened": 0, "refused": 0, "violation": 0}
    by_game = {g: {"opened": 0, "refused": 0, "violation": 0} for g in GAMES}
    violations = []
    worst = (0.0, "")
    for i in range(args.files):
        game = GAMES[i % len(GAMES)]
        what, data = mutate(texts[game], rng)
        path = work / f"{i:04d}-{game}.json"
        path.write_bytes(data)
        shown.clear()
        raised.clear()
        before = {g: (t.controller.document.setup, len(t.controller.document.events)) for g, t in win.game_tabs.items()}
        t0 = time.perf_counter()
        ok = win.open_path(str(path), ask=False)
        idle = wait_until_idle(win, 60)
        seconds = time.perf_counter() - t0
        if seconds > worst[0]:
            worst = (seconds, f"{path.name}: {what}")
        problems = list(raised)
        if not idle:
            problems.append("not idle within 60 s")
        if ok:
            problems += [f"on screen: {b}" for b in _bad_numbers_on_screen(win)]
            saved = work / f"{i:04d}-saved.json"
            try:
                win.game_tabs[game].controller.document.save(str(saved))
                open_session_file(str(saved))
            except Exception as exc:
                problems.append(f"save/reopen: {type(exc).__name__}: {str(exc)[:200]}")
        else:
            if len(shown) != 1:
                problems.append(f"{len(shown)} messages shown")
            elif len(shown[0]) >= 1000 or "Traceback" in shown[0]:
                problems.append(f"message of {len(shown[0])} characters: {shown[0][:120]!r}")
            after = {g: (t.controller.document.setup, len(t.controller.document.events))
                     for g, t in win.game_tabs.items()}
            if after != before:
                problems.append("an open game changed")
        outcome = "violation" if problems else ("opened" if ok else "refused")
        outcomes[outcome] += 1
        by_game[game][outcome] += 1
        if problems:
            violations.append((path.name, what, problems))
        if (i + 1) % 25 == 0:
            print(f"{i + 1} files: {outcomes}", flush=True)
    print(f"\n{args.files} files, seed {args.seed}: {outcomes}")
    for g in GAMES:
        print(f"  {g:10s} {by_game[g]}")
    print(f"worst open-to-idle: {worst[0]:.2f} s ({worst[1]})")
    for name, what, problems in violations:
        print(f"VIOLATION {name} ({what}): {'; '.join(problems)[:400]}")
    for tab in win.game_tabs.values():
        tab.controller.document.undo_stack.setClean()
        tab.shutdown()
    return min(len(violations), 100)


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Exception:      # the hooks above collect exceptions: the script's own must show
        import traceback
        traceback.print_exc()
        sys.exit(101)
