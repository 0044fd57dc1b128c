"""The Tab key's order over a tab's controls: the order its layouts place them in.

Qt's focus chain follows the order in which widgets were made, not where they stand: a control
made later (the "passed" check boxes, made again for each new game; the quick entry, made before
the tab's own rows and placed above them afterwards; a side pane built before the worksheet)
is reached out of place, after the panes to its right, and a keyboard user jumps back and forth
across the window. :func:`follow_layout` sets the chain to the layouts' own order — each layout's
items in turn, a splitter's panes left to right or top to bottom, a tab widget's tab bar before
its pages, a scroll area's contents — which is the reading order the layouts were written for
(Qt documentation, "Keyboard Focus in Widgets" and ``QWidget.setTabOrder``; W3C, WCAG 2.2,
success criterion 2.4.3 "Focus Order", 2023).

Compound controls (a spin box and its line edit, a view and its viewport, a combo box) keep
their own inner order: the walk does not enter them.
"""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QAbstractScrollArea,
    QAbstractSpinBox,
    QComboBox,
    QLayout,
    QScrollArea,
    QSplitter,
    QStackedWidget,
    QTabBar,
    QTabWidget,
    QWidget,
)

#: Widgets whose children are parts of one control, never walked into.
COMPOUND = (QAbstractSpinBox, QComboBox, QAbstractItemView, QTabBar)


def _takes_tab(w: QWidget) -> bool:
    return bool(w.focusPolicy() & Qt.TabFocus) and w.focusProxy() is None


def _children_in_order(w: QWidget) -> list:
    """``w``'s child widgets in the order its layout (or splitter, tab or scroll area) places
    them; children outside any layout follow, in the order they were made."""
    if isinstance(w, QSplitter):
        ordered = [w.widget(i) for i in range(w.count())]
    elif isinstance(w, QTabWidget):
        ordered = [w.tabBar()] + [w.widget(i) for i in range(w.count())]
    elif isinstance(w, QStackedWidget):
        ordered = [w.widget(i) for i in range(w.count())]
    elif isinstance(w, QScrollArea):
        ordered = [w.widget()] if w.widget() is not None else []
    else:
        ordered = []
        if w.layout() is not None:
            _layout_widgets(w.layout(), ordered)
    seen = set(map(id, ordered))
    rest = [c for c in w.findChildren(QWidget, options=Qt.FindDirectChildrenOnly) if id(c) not in seen]
    return [c for c in ordered if c is not None] + rest


def _layout_widgets(layout: QLayout, out: list) -> None:
    for i in range(layout.count()):
        item = layout.itemAt(i)
        if item.widget() is not None:
            out.append(item.widget())
        elif item.layout() is not None:
            _layout_widgets(item.layout(), out)


def layout_order(root: QWidget) -> list:
    """The controls under ``root`` that take focus with the Tab key, in layout order
    (see the module docstring); hidden ones included, so a page shown later is in place too."""
    out: list = []

    def visit(w: QWidget) -> None:
        if w is not root and _takes_tab(w):
            out.append(w)
        if isinstance(w, COMPOUND) or (isinstance(w, QAbstractScrollArea) and not isinstance(w, QScrollArea)):
            return
        for c in _children_in_order(w):
            if c.isWindow():
                continue        # a popup or dialog owned by the tab has its own chain
            visit(c)

    visit(root)
    return out


def follow_layout(root: QWidget) -> int:
    """Set the Tab order of ``root``'s controls to :func:`layout_order`; returns how many."""
    order = layout_order(root)
    for a, b in zip(order, order[1:]):
        QWidget.setTabOrder(a, b)
    return len(order)
