"""The texts a player reads on a window: every visible widget's own text and the cells and
headers of every visible item view (for the words test, tests/desktop/test_plain_words.py)."""
from __future__ import annotations

import re
from html import unescape

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QComboBox,
    QGroupBox,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QStatusBar,
    QTabBar,
    QTextEdit,
    QWidget,
)

_TAG = re.compile(r"<[^>]*>")


def plain(text: str) -> str:
    """``text`` without HTML tags and entities (a rich-text label's words)."""
    return unescape(_TAG.sub(" ", text or ""))


def _shown(widget: QWidget, window: QWidget) -> bool:
    if not widget.isVisibleTo(window) or not widget.isVisible():
        return False
    return widget.width() > 0 and widget.height() > 0 and not widget.visibleRegion().isEmpty()


def _columns(model, parent) -> int:
    try:
        return model.columnCount(parent)
    except TypeError:      # a list model keeps columnCount private: one column
        return 1


def _children(model, index) -> bool:
    try:
        return model.hasChildren(index)
    except TypeError:      # a list or table model: no children
        return False


def _model_texts(view: QAbstractItemView):
    model = view.model()
    if model is None:
        return
    for orient, count in ((Qt.Orientation.Horizontal, _columns(model, view.rootIndex())),
                          (Qt.Orientation.Vertical, model.rowCount(view.rootIndex()))):
        hidden = getattr(view, "isColumnHidden" if orient == Qt.Orientation.Horizontal
                         else "isRowHidden", lambda _i: False)
        for i in range(min(count, 200)):
            if hidden(i):
                continue
            value = model.headerData(i, orient, Qt.ItemDataRole.DisplayRole)
            if value is not None:
                yield f"header {orient.name[0]}{i}", str(value)
    root = view.rootIndex()

    def walk(parent, depth):
        rows = model.rowCount(parent)
        for r in range(min(rows, 400)):
            for c in range(_columns(model, parent)):
                if hasattr(view, "isColumnHidden") and view.isColumnHidden(c):
                    continue
                index = model.index(r, c, parent)
                value = index.data(Qt.ItemDataRole.DisplayRole)
                if value not in (None, ""):
                    yield f"cell {r},{c}", str(value)
                if c == 0 and depth < 3 and _children(model, index):
                    yield from walk(index, depth + 1)

    yield from walk(root, 0)


def visible_texts(window: QWidget) -> list[tuple[str, str]]:
    """``(where, text)`` for every text shown on ``window``: labels, buttons, group titles,
    tab titles, line edits (their placeholder when empty), combo boxes, text views and the
    cells and headers of item views, of widgets visible on screen; a painted widget offers its
    words through a ``shown_texts()`` method."""
    out: list[tuple[str, str]] = []
    for w in [window, *window.findChildren(QWidget)]:
        if not _shown(w, window):
            continue
        name = f"{type(w).__name__}#{w.objectName()}"
        texts: list[str] = []
        if isinstance(w, QLabel):
            texts.append(plain(w.text()))
        elif isinstance(w, QAbstractButton):
            texts.append(w.text().replace("&", ""))
        elif isinstance(w, QGroupBox):
            texts.append(w.title().replace("&", ""))
        elif isinstance(w, QTabBar):
            texts += [w.tabText(i).replace("&", "") for i in range(w.count()) if w.isTabVisible(i)]
        elif isinstance(w, QLineEdit):
            texts.append(w.text() or w.placeholderText())
        elif isinstance(w, QComboBox):
            texts.append(w.currentText())
        elif isinstance(w, (QTextEdit, QPlainTextEdit)):
            texts.append(w.toPlainText() or w.placeholderText())
        elif isinstance(w, QStatusBar):       # a message is painted, not a label
            texts.append(w.currentMessage())
        if isinstance(w, QAbstractItemView):
            out += [(f"{name} {where}", t) for where, t in _model_texts(w)]
        if hasattr(w, "shown_texts"):
            texts += list(w.shown_texts())
        out += [(name, t) for t in texts if t and t.strip()]
    return out
