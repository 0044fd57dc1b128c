"""Zoom scales every text, also those drawn larger than the rest (headings, playing cards): at
150 % each text's font is 1.5 times its size at 100 % (desktop.table.zoom.relative_font; rich text in
CSS relative sizes), and no style sheet or rich text of the desktop fixes a font size."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtGui import QFontInfo, QTextDocument
from PySide6.QtWidgets import QAbstractButton, QAbstractSpinBox, QApplication, QLabel, QWidget

from desktop.table import zoom

DESKTOP = Path(__file__).resolve().parents[2] / "desktop"
FIXED_SIZE = re.compile(r"font-size\s*:\s*\d+(\.\d+)?\s*(pt|px)|setPoint(Size|SizeF)\(\s*\d|setPixelSize\(\s*\d")


def test_no_fixed_font_size_in_the_desktop_sources():
    found = []
    for path in sorted(DESKTOP.rglob("*.py")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if FIXED_SIZE.search(line):
                found.append(f"{path.relative_to(DESKTOP.parent)}:{n}: {line.strip()}")
    assert not found, "fixed font sizes do not follow the zoom:\n" + "\n".join(found)


def _texts(root: QWidget) -> list[QWidget]:
    return [w for w in [root, *root.findChildren(QWidget)]
            if isinstance(w, (QLabel, QAbstractButton, QAbstractSpinBox))]


def _rich_height(label: QLabel) -> float:
    """The height of ``label``'s rich text laid out in its own font (pixels)."""
    doc = QTextDocument()
    doc.setDefaultFont(label.font())
    doc.setHtml(label.text())
    return doc.size().height()


def test_every_text_is_one_and_a_half_times_larger_at_150_percent(qtbot, qapp, zoomed_back):
    from desktop.games.egghead.forms import TablePanel
    from desktop.widgets.why import WhyPopup
    from engines.core.resources import resource_path
    from engines.core.schema import read_session_file

    zoom.set_zoom(qapp, 1.0)
    setup = read_session_file(str(resource_path("examples", "egghead.json"))).setup
    table = TablePanel(setup)                  # playing cards: spin boxes and faces
    why = WhyPopup()
    why.start({"position": 1, "value": 1}, "My first card is 1", "now")   # the x-large heading
    solve = QLabel("<span style='font-size:x-large'><b>Can I solve now? Yes</b></span> — call 1 2 3")
    for w in (table, why, solve):
        qtbot.addWidget(w)
        w.show()
    qapp.processEvents()
    widgets = [w for root in (table, why, solve) for w in _texts(root)]
    assert len(widgets) > 20
    at_100 = [QFontInfo(w.font()).pointSizeF() for w in widgets]
    rich_100 = [_rich_height(lab) for lab in (why.heading, solve)]
    mins_100 = [w.minimumSize() for w in widgets]
    zoom.set_zoom(qapp, 1.5)
    qapp.processEvents()
    at_150 = [QFontInfo(w.font()).pointSizeF() for w in widgets]
    wrong = [f"{type(w).__name__} {getattr(w, 'text', lambda: '')()!r}: {a} pt → {b} pt"
             for w, a, b in zip(widgets, at_100, at_150) if abs(b - 1.5 * a) > 0.51]
    assert not wrong, "texts not scaled 1.5 times:\n" + "\n".join(wrong)
    # the larger texts stay larger than the rest, by the same ratio
    base = QFontInfo(QApplication.font()).pointSizeF()
    cards = [w for w in widgets if w.font().bold() and QFontInfo(w.font()).pointSizeF() > 1.3 * base]
    assert cards, "the playing cards are drawn larger than the rest"
    # rich text sized in CSS relative sizes grows with its label
    for h100, lab in zip(rich_100, (why.heading, solve)):
        assert _rich_height(lab) == pytest.approx(1.5 * h100, rel=0.12)
    # sizes measured in the text's own height grow with it (cards are no clipped boxes)
    grown = [(m, w.minimumSize()) for w, m in zip(widgets, mins_100) if m.height() > 0 and w in cards]
    assert grown and all(after.height() >= round(1.45 * before.height()) for before, after in grown)
