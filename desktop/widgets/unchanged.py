"""Setters that leave a widget alone when it shows the value already.

A tab renders every snapshot the controller publishes, and most of a snapshot's texts are the
ones on screen already. ``QLabel.setText`` and ``QWidget.setToolTip`` compare with what they
hold and do nothing for the same value, but these do not: ``QWidget.setStyleSheet`` polishes
the widget again and asks for a new layout, ``QLabel.clear`` of an empty label and
``QTabWidget.setTabText`` with the same text lay out and repaint (counted with an event filter:
one layout request and several paints per call). These helpers compare first, so an unchanged
style or tab text costs a string comparison (Qt documentation, "Qt Style Sheets",
"QWidget::updateGeometry").
"""
from __future__ import annotations

from PySide6.QtWidgets import QLabel, QTabWidget, QWidget


def clear_text(label: QLabel) -> None:
    """``label.clear()`` unless it is empty already."""
    if label.text():
        label.clear()


def set_style(widget: QWidget, css: str) -> None:
    """``widget.setStyleSheet(css)`` unless ``widget.styleSheet()`` is ``css`` already."""
    if widget.styleSheet() != css:
        widget.setStyleSheet(css)


def set_tab_text(tabs: QTabWidget, index: int, text: str) -> None:
    """``tabs.setTabText(index, text)`` unless that tab reads ``text`` already (a new tab
    text lays the tab bar out again)."""
    if tabs.tabText(index) != text:
        tabs.setTabText(index, text)
