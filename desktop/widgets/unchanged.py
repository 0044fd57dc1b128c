"""Setters that leave a widget alone when it shows the value already.

A tab renders every snapshot the controller publishes, and most of a snapshot's texts are the
ones on screen already. Qt does not compare: ``QLabel.setText`` always asks its parents for a
new layout (``QWidget::updateGeometry``: a wrapped label's height may change) and
``QWidget.setStyleSheet`` always polishes the widget again, both before the next paint of the
window. These helpers compare first, so an unchanged text or style costs a string comparison
(Qt documentation, "QLabel", "QWidget::updateGeometry", "Qt Style Sheets").
"""
from __future__ import annotations

from PySide6.QtWidgets import QLabel, QTabWidget, QWidget


def set_text(label: QLabel, text: str) -> None:
    """``label.setText(text)`` unless ``label.text()`` is ``text`` already."""
    if label.text() != text:
        label.setText(text)


def clear_text(label: QLabel) -> None:
    """``label.clear()`` unless it is empty already."""
    if label.text():
        label.clear()


def set_style(widget: QWidget, css: str) -> None:
    """``widget.setStyleSheet(css)`` unless ``widget.styleSheet()`` is ``css`` already."""
    if widget.styleSheet() != css:
        widget.setStyleSheet(css)


def set_tool_tip(widget: QWidget, tip: str) -> None:
    """``widget.setToolTip(tip)`` unless ``widget.toolTip()`` is ``tip`` already."""
    if widget.toolTip() != tip:
        widget.setToolTip(tip)


def set_tab_text(tabs: QTabWidget, index: int, text: str) -> None:
    """``tabs.setTabText(index, text)`` unless that tab reads ``text`` already (a new tab
    text lays the tab bar out again)."""
    if tabs.tabText(index) != text:
        tabs.setTabText(index, text)
