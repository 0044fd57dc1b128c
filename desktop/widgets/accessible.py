"""Accessible names for a tab's controls, taken from the labels the layout already shows.

A screen reader announces a control by its accessible name (AT-SPI on Linux, read from Qt's
``QAccessible`` interface). Qt names a button by its text but a picker by its current value
("Miss Scarlett") and a spin box or an unlabelled list by nothing, so the label written beside
it ("Suspect") never reaches the listener. :func:`name_controls` gives every input control
without a name of its own the text of the label the layout places for it — a
``QFormLayout``'s label, in a grid the label just left of it or, failing that, just above it,
in a row or column the label just before it — and makes that label its buddy, so the label's
mnemonic moves the focus to it too (Qt documentation, "Accessibility for QWidget
Applications", and ``QLabel.setBuddy``). A control the layout gives no label is named where it
is made (``setAccessibleName``).
"""
from __future__ import annotations

import html
import re
from typing import Optional

from PySide6.QtWidgets import (
    QAbstractItemView,
    QAbstractSpinBox,
    QBoxLayout,
    QComboBox,
    QFormLayout,
    QGridLayout,
    QLabel,
    QLayout,
    QLineEdit,
    QSlider,
    QWidget,
)

#: The controls that need a name from a label (buttons and check boxes carry their own text).
NAMED_BY_LABEL = (QComboBox, QAbstractSpinBox, QLineEdit, QSlider, QAbstractItemView)
_TAGS = re.compile(r"<[^>]+>")


def label_text(label: QLabel) -> str:
    """The words a label shows: markup and the mnemonic's ``&`` removed, the trailing colon
    and whatever follows a first parenthesis or line break dropped ("Passed (no matching
    card):" -> "Passed")."""
    text = html.unescape(_TAGS.sub(" ", label.text())).replace("&&", "\0").replace("&", "").replace("\0", "&")
    text = re.split(r"[(\n]", text, maxsplit=1)[0]
    return " ".join(text.split()).rstrip(" :")


def _label_for(layout: QLayout, widget: QWidget) -> Optional[QLabel]:
    """The label ``layout`` (or a layout nested in it) shows for ``widget``, or None."""
    index = layout.indexOf(widget)
    if index < 0:
        for i in range(layout.count()):
            inner = layout.itemAt(i).layout()
            if inner is not None:
                found = _label_for(inner, widget)
                if found is not None:
                    return found
        return None
    candidates: list = []
    if isinstance(layout, QFormLayout):
        candidates.append(layout.labelForField(widget))
    elif isinstance(layout, QGridLayout):
        row, col, _rs, _cs = layout.getItemPosition(index)
        for r, c in ((row, col - 1), (row - 1, col)):
            item = layout.itemAtPosition(r, c) if r >= 0 and c >= 0 else None
            candidates.append(item.widget() if item is not None else None)
    elif isinstance(layout, QBoxLayout) and index > 0:
        candidates.append(layout.itemAt(index - 1).widget())
    for w in candidates:
        if isinstance(w, QLabel) and label_text(w):
            return w
    return None


def name_controls(root: QWidget) -> int:
    """Name every control under ``root`` (:data:`NAMED_BY_LABEL`) that has no accessible name
    of its own from its label in the layout, and make the label its buddy; returns how many
    were named. Run once the widgets are laid out; safe to run again."""
    named = 0
    for w in root.findChildren(QWidget):
        if not isinstance(w, NAMED_BY_LABEL) or w.accessibleName():
            continue
        parent = w.parentWidget()
        layout = parent.layout() if parent is not None else None
        label = _label_for(layout, w) if layout is not None else None
        if label is None:
            continue
        w.setAccessibleName(label_text(label))
        if label.buddy() is None:
            label.setBuddy(w)
        named += 1
    return named
