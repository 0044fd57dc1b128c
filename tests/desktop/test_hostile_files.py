"""File → Open of hostile files: a short message, the open session untouched, no traceback."""
import json

import pytest

from engines.core.resources import resource_path

HOSTILE = {
    "deep.json": '{"format": "deduction-desk.session", "x": ' + "[" * 100_000 + "]" * 100_000 + "}",
    "digits.json": '{"format": "deduction-desk.session", "version": ' + "9" * 5000 + "}",
    "package.json": json.dumps({"name": "x", "version": "1.0.0"}),
    "huge_name.json": None,        # filled below: a 10 MB player name
    "devzero_board.json": json.dumps({"format": "deduction-desk.session", "version": 1,
                                      "game": "guesswho", "setup": {"board": "/dev/zero"}}),
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_hostile_file_gives_a_short_message_and_changes_nothing(window, tmp_path, monkeypatch,
                                                                name):
    from PySide6.QtWidgets import QMessageBox

    shown = []
    monkeypatch.setattr(QMessageBox, "warning", lambda _p, title, text, *a, **k:
                        shown.append(text) or QMessageBox.Ok)
    text = HOSTILE[name]
    if text is None:
        d = json.loads(resource_path("examples", "egghead.json").read_text(encoding="utf-8"))
        d["setup"]["players"][1] = "x" * 10_000_000   # (markup in names: test_names_escaped)
        d["setup"]["visible"] = {d["setup"]["players"][1]: [4, 5, 6], "C": [3, 3, 3]}
        text = json.dumps(d)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    before = {g: (t.controller.setup, list(t.controller.events)) for g, t in window.build_all_tabs().items()}
    assert not window.open_path(str(path))
    assert len(shown) == 1 and len(shown[0]) < 1000 and "Traceback" not in shown[0]
    after = {g: (t.controller.document.setup, list(t.controller.document.events)) for g, t in window.game_tabs.items()}
    assert after == before


def test_message_boxes_show_names_as_plain_text():
    from PySide6.QtGui import QTextDocument

    from desktop.shell.main_window import plain_text_html

    doc = QTextDocument()
    doc.setHtml(plain_text_html('cannot open <img src="x.png"> & co\nline 2'))
    assert doc.toPlainText() == 'cannot open <img src="x.png"> & co\u2028line 2' or \
        doc.toPlainText().replace("\u2028", "\n") == 'cannot open <img src="x.png"> & co\nline 2'
    assert "<img" not in doc.toHtml().split("<body")[1].replace("&lt;img", "")
