"""History panel: every event of the log in words, with its time; right-click → Remove.

Selecting an entry emits ``entrySelected(k)`` with ``k`` = number of events whose beliefs to
show (entry ``i`` → ``k = i + 1``; the "Game set up" row → 0; nothing selected → -1 = live).
"""
from __future__ import annotations

from datetime import datetime
from typing import Optional

from PySide6.QtCore import QPoint, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QKeySequence
from PySide6.QtWidgets import (QAbstractItemView, QLabel, QListWidget, QListWidgetItem, QMenu,
                               QVBoxLayout, QWidget)


def _short_time(iso: Optional[str]) -> str:
    if not iso:
        return ""
    try:
        return datetime.fromisoformat(iso).strftime("%H:%M")
    except ValueError:
        return ""


class HistoryPanel(QWidget):
    """List of the log's events for one tab (reads a :class:`desktop.session.SessionDocument`).

    Signals:
        entrySelected(int k): show the beliefs after the first ``k`` events (-1: the live view).
        removeRequested(int index): the player asked to remove event ``index`` (0-based).
    """

    entrySelected = Signal(int)
    removeRequested = Signal(int)

    def __init__(self, document, parent=None):
        super().__init__(parent)
        self.document = document
        self._bad_index: Optional[int] = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        title = QLabel("<b>History</b> <span style='color:gray'>(select to see the beliefs then; "
                       "right-click to remove)</span>")
        title.setWordWrap(True)
        layout.addWidget(title)
        self.list = QListWidget()
        self.list.setSelectionMode(QAbstractItemView.SingleSelection)
        self.list.setContextMenuPolicy(Qt.CustomContextMenu)
        self.list.customContextMenuRequested.connect(self._menu)
        self.list.currentRowChanged.connect(self._selected)
        self.list.setAlternatingRowColors(True)
        layout.addWidget(self.list)
        document.changed.connect(self.refresh)
        self.refresh()

    def refresh(self, *_args) -> None:
        doc = self.document
        self.list.blockSignals(True)
        self.list.clear()
        setup_item = QListWidgetItem("0.  Game set up")
        setup_item.setForeground(QBrush(QColor(110, 110, 110)))
        self.list.addItem(setup_item)
        for i, (ev, meta) in enumerate(zip(doc.events, doc.meta)):
            text = doc.module.describe_event(doc.setup, ev)
            t = _short_time(meta.time)
            label = f"{i + 1}.  {text}" + (f"   — {t}" if t else "")
            if meta.note:
                label += f"   [{meta.note}]"
            item = QListWidgetItem(label)
            item.setToolTip(f"{text}\n{meta.time or ''}".strip())
            if self._bad_index is not None and i == self._bad_index:
                item.setBackground(QBrush(QColor(255, 205, 210)))
                item.setToolTip("No deal/world is consistent after this entry. Undo it or remove it.")
            self.list.addItem(item)
        self.list.blockSignals(False)
        self.list.scrollToBottom()

    def set_contradiction(self, index: Optional[int]) -> None:
        """Highlight event ``index`` (0-based) as the first contradiction; None clears."""
        if index != self._bad_index:
            self._bad_index = index
            self.refresh()

    def select_live(self) -> None:
        self.list.clearSelection()
        self.list.setCurrentRow(-1)

    def _selected(self, row: int) -> None:
        self.entrySelected.emit(row if row >= 0 else -1)

    def _menu(self, pos: QPoint) -> None:
        item = self.list.itemAt(pos)
        row = self.list.row(item) if item else -1
        if row <= 0:
            return
        menu = QMenu(self)
        remove = menu.addAction("Remove this entry")
        remove.setShortcut(QKeySequence.Delete)
        live = menu.addAction("Show current beliefs")
        chosen = menu.exec(self.list.viewport().mapToGlobal(pos))
        if chosen is remove:
            self.removeRequested.emit(row - 1)
        elif chosen is live:
            self.select_live()

    def keyPressEvent(self, event) -> None:  # noqa: N802
        if event.key() in (Qt.Key_Delete, Qt.Key_Backspace) and self.list.currentRow() > 0:
            self.removeRequested.emit(self.list.currentRow() - 1)
            return
        if event.key() == Qt.Key_Escape:
            self.select_live()
            return
        super().keyPressEvent(event)
