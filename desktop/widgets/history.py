"""History panel: every event of the log in words, with its time; right-click → Remove.

:class:`HistoryModel` is a ``QAbstractListModel`` over a
:class:`desktop.storage.document.SessionDocument`: row 0 is "Game set up", row ``i + 1`` is event ``i``.
It follows the document's fine-grained signals — a logged fact inserts one row, undo removes
it, an edited event repaints its row — instead of rebuilding the list.

Selecting an entry emits ``entrySelected(k)`` with ``k`` = number of events whose beliefs to
show (entry ``i`` → ``k = i + 1``; the "Game set up" row → 0; nothing selected → -1 = live).
The selection shown is the controller's (:meth:`HistoryPanel.show_selected` renders it): the
panel reports what the player selects, never the rows Qt's selection model moves by itself
when entries are inserted or removed.
"""
from __future__ import annotations

from datetime import datetime
from typing import Optional

from PySide6.QtCore import QAbstractListModel, QLocale, QModelIndex, QPoint, Qt, Signal, Slot
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetrics, QKeySequence
from PySide6.QtWidgets import QAbstractItemView, QLabel, QListView, QMenu, QSizePolicy, QVBoxLayout, QWidget

from desktop.shell.appearance import muted, muted_css, readable_on
from desktop.shell.locale_format import app_locale, clock_time, parse_local_time
from desktop.widgets.role_data import BACKGROUND, DISPLAY, FOREGROUND, TOOLTIP, MultiDataModel
from engines.core.i18n import _

#: Rows the History view lays out per pass of the event loop (QListView.Batched): about
#: 10 ms of wrapping and describing entries per pass.
BATCH_ROWS = 50
_CONTRADICTION_COLOR = QColor(255, 205, 210)
#: An entry of the conflicting set the contradiction banner names (lighter than the first
#: impossible entry).
_CONFLICT_COLOR = QColor(255, 228, 230)
#: An entry the open Why? popup names (a highlighter yellow, distinct from the selection).
_EXPLAINED_COLOR = QColor(255, 236, 153)

#: ``data(index, ExplainedRole)``: True for an entry the open Why? popup names.
ExplainedRole = Qt.ItemDataRole.UserRole + 11
#: ``data(index, ConflictRole)``: True for an entry of the banner's conflicting set.
ConflictRole = Qt.ItemDataRole.UserRole + 12
_EXPLAINED_ROLE = getattr(ExplainedRole, "value", ExplainedRole)
_CONFLICT_ROLE = getattr(ConflictRole, "value", ConflictRole)
_FONT = Qt.ItemDataRole.FontRole.value


def _short_time(iso: Optional[str], now: Optional[datetime] = None) -> str:
    """When an entry was logged, as a person says it: ``"14:05"`` today, ``"yesterday
    14:05"``, ``"Mon 23 Nov 14:05"`` this year, ``"23 Nov 2025 14:05"`` before; "" if unknown."""
    t = parse_local_time(iso)
    if t is None:
        return ""
    now = now or (datetime.now(t.tzinfo) if t.tzinfo is not None else datetime.now())
    days = (now.date() - t.date()).days
    loc = app_locale()
    clock = clock_time(t, loc)
    if days == 0:
        return clock
    if days == 1:
        return _("yesterday {time}").format(time=clock)
    short = QLocale.FormatType.ShortFormat
    month = loc.monthName(t.month, short)
    if t.year == now.year:
        return _("{weekday} {day} {month} {time}").format(
            weekday=loc.dayName(t.isoweekday(), short), day=t.day, month=month, time=clock)
    return _("{day} {month} {year} {time}").format(day=t.day, month=month, year=t.year, time=clock)


def _long_time(iso: Optional[str]) -> str:
    """``"logged on Monday 23 November 2026 at 14:05:31"`` ("" if unknown)."""
    t = parse_local_time(iso)
    if t is None:
        return ""
    loc, long = app_locale(), QLocale.FormatType.LongFormat
    return _("logged on {weekday} {day} {month} {year} at {time}").format(
        weekday=loc.dayName(t.isoweekday(), long), day=t.day, month=loc.monthName(t.month, long),
        year=t.year, time=t.strftime("%H:%M:%S"))


class HistoryModel(MultiDataModel, QAbstractListModel):
    """The log as a list: row 0 the setup, row ``i + 1`` event ``i`` (text, tooltip, colour)."""

    def __init__(self, document, parent=None):
        super().__init__(parent)
        self.document = document
        self._rows = 1 + len(document.events)
        # (label, tooltip) per event, made the first time the row is asked for (None until
        # then) and kept: a view lays out every row often, and describe_event is Python
        self._texts: list = [None] * len(document.events)
        self._bad_index: Optional[int] = None
        self._explained: frozenset = frozenset()
        self._conflict: frozenset = frozenset()
        document.eventsInserted.connect(self._inserted)
        document.eventsRemoved.connect(self._removed)
        document.eventChanged.connect(self._changed)
        document.setupReplaced.connect(self._reset)   # descriptions depend on the setup
        document.documentReset.connect(self._reset)

    # -- QAbstractListModel -------------------------------------------------------------
    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: N802 (Qt name)
        return 0 if parent.isValid() else self._rows

    def data(self, index: QModelIndex, role: int = DISPLAY):
        role = getattr(role, "value", role)
        row = index.row()
        if not 0 <= row < self._rows:
            return None
        if row == 0:
            if role == DISPLAY:
                return "0.  " + _("Game set up")
            if role == FOREGROUND:
                return QBrush(muted())
            return None
        i = row - 1
        if i >= len(self._texts):
            return None
        if role == DISPLAY:
            return f"{row}.  {self._text(i)[0]}"
        if role == TOOLTIP:
            if i == self._bad_index:
                return _("No deal/world is consistent after this entry. Undo it or remove it.")
            if i in self._conflict:
                return _("This entry cannot be true together with the other highlighted ones: "
                         "one of them may be mistyped.")
            return self._text(i)[1]
        if role == _EXPLAINED_ROLE:
            return i in self._explained
        if role == _FONT and i in self._explained:
            font = QFont()
            font.setBold(True)
            return font
        if role == _CONFLICT_ROLE:
            return i in self._conflict
        if role in (BACKGROUND, FOREGROUND):
            colour = (_EXPLAINED_COLOR if i in self._explained else
                      _CONTRADICTION_COLOR if i == self._bad_index else
                      _CONFLICT_COLOR if i in self._conflict else None)
            if colour is None:
                return None
            # a light band in either scheme: its text dark enough to read on it
            return QBrush(colour) if role == BACKGROUND else QBrush(readable_on(colour))
        return None

    def _text(self, i: int) -> tuple:
        """(label, tooltip) of event ``i``, described on first use."""
        t = self._texts[i]
        if t is None:
            t = self._texts[i] = self._describe(i)
        return t

    def _describe(self, i: int) -> tuple:
        """(label without the number, tooltip) of event ``i``."""
        doc = self.document
        text = doc.module.describe_event(doc.setup, doc.events[i])
        meta = doc.meta[i]
        t = _short_time(meta.time)
        label = text + (f"  · {t}" if t else "") + (f"   [{meta.note}]" if meta.note else "")
        return label, f"{text}\n{_long_time(meta.time)}".strip()

    # -- the document's signals ---------------------------------------------------------
    @Slot(int, int)
    def _inserted(self, first: int, count: int) -> None:
        self.beginInsertRows(QModelIndex(), first + 1, first + count)
        self._texts[first:first] = [None] * count
        self._rows += count
        self.endInsertRows()
        if first + count < len(self._texts):   # later rows are renumbered
            self.dataChanged.emit(self.index(first + count + 1), self.index(self._rows - 1))

    @Slot(int, int)
    def _removed(self, first: int, count: int) -> None:
        self.beginRemoveRows(QModelIndex(), first + 1, first + count)
        del self._texts[first:first + count]
        self._rows -= count
        self.endRemoveRows()
        if first < len(self._texts):
            self.dataChanged.emit(self.index(first + 1), self.index(self._rows - 1))

    @Slot(int)
    def _changed(self, index: int) -> None:
        self._texts[index] = None
        ix = self.index(index + 1)
        self.dataChanged.emit(ix, ix)

    @Slot()
    def _reset(self) -> None:
        self.beginResetModel()
        self._texts = [None] * len(self.document.events)
        self._rows = 1 + len(self.document.events)
        self.endResetModel()

    def set_contradiction(self, index: Optional[int]) -> None:
        """Highlight event ``index`` (0-based) as the first contradiction; None clears."""
        if index == self._bad_index:
            return
        old, self._bad_index = self._bad_index, index
        for i in (old, index):
            if i is not None and 0 <= i + 1 < self._rows:
                ix = self.index(i + 1)
                self.dataChanged.emit(ix, ix)

    def set_explained(self, indices) -> None:
        """Highlight the events ``indices`` (0-based) an open Why? popup names; empty clears."""
        old, self._explained = self._explained, frozenset(int(i) for i in indices)
        self._repaint(old | self._explained)

    def set_conflict(self, indices) -> None:
        """Mark the events ``indices`` (0-based) that cannot all be true together; empty
        clears."""
        old, self._conflict = self._conflict, frozenset(int(i) for i in indices)
        self._repaint(old | self._conflict)

    def _repaint(self, indices) -> None:
        for i in indices:
            if 0 <= i + 1 < self._rows:
                ix = self.index(i + 1)
                self.dataChanged.emit(ix, ix)


class HeadingLabel(QLabel):
    """A one-line heading: the title in bold and a hint in the muted colour, in parentheses,
    cut with "…" to the width it has (the whole hint in the tooltip). German and French hints
    are longer than the English ones: wrapped, they took a second line from the list below on
    narrow columns (the screen audit at 150 % zoom)."""

    def __init__(self, title: str, hint: str, parent=None):
        super().__init__(parent)
        self._title, self._hint = title, hint
        self.setTextFormat(Qt.RichText)
        self.setToolTip(hint)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self._render()

    def _render(self) -> None:
        import html

        bold = QFont(self.font())
        bold.setBold(True)
        room = self.contentsRect().width() - QFontMetrics(bold).horizontalAdvance(self._title + " ") - 2
        hint = QFontMetrics(self.font()).elidedText(f"({self._hint})", Qt.TextElideMode.ElideRight,
                                                    max(0, room))
        text = f"<b>{html.escape(self._title)}</b>"
        if hint:
            text += f" <span style='{muted_css()}'>{html.escape(hint)}</span>"
        if text != self.text():
            self.setText(text)

    def resizeEvent(self, event) -> None:   # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        self._render()

    def changeEvent(self, event) -> None:   # noqa: N802 (Qt's name): a zoom changes the font
        super().changeEvent(event)
        if event.type() == event.Type.FontChange:
            self._render()


class HistoryPanel(QWidget):
    """List of the log's events for one tab (a view of :class:`HistoryModel`).

    Signals:
        entrySelected(int k): show the beliefs after the first ``k`` events (-1: the live view).
        removeRequested(int index): the player asked to remove event ``index`` (0-based).
    """

    entrySelected = Signal(int)
    removeRequested = Signal(int)

    def __init__(self, document, parent=None):
        super().__init__(parent)
        self.document = document
        self.model = HistoryModel(document, self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        title = HeadingLabel(_("History"), _("select to see the beliefs then; right-click to remove"))
        layout.addWidget(title)
        self._view = QListView()
        # connected before the view's selection model is (setModel): on removal Qt's selection
        # model moves the current row to the one before, so a handler connected after it no
        # longer sees that the entry shown was removed (Undo of the last entry, selected, then
        # Redo left the tab "as after entry 15 of 16" instead of now)
        self.model.rowsAboutToBeRemoved.connect(self._model_moves)
        self.model.rowsAboutToBeInserted.connect(self._model_moves)
        self.model.modelAboutToBeReset.connect(self._model_moves)
        self._rendering = False     # the selection is set from the snapshot or moved by Qt
        self._view.setModel(self.model)
        self._view.setSelectionMode(QAbstractItemView.SingleSelection)
        self._view.setContextMenuPolicy(Qt.CustomContextMenu)
        self._view.customContextMenuRequested.connect(self._menu)
        self._view.selectionModel().currentRowChanged.connect(self._selected)
        self._view.setAlternatingRowColors(True)
        self._view.setUniformItemSizes(False)
        # every entry whole: wrapped to the panel's width, never elided
        self._view.setWordWrap(True)
        self._view.setTextElideMode(Qt.ElideNone)
        self._view.setResizeMode(QListView.Adjust)
        self._view.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        # wrapped rows differ in height, so the view measures every row (Qt text layout, about
        # 60 us each): a log of thousands of entries is laid out in batches between events
        # (Qt's QListView.Batched) instead of freezing the window for a fraction of a second
        self._view.setLayoutMode(QListView.Batched)
        self._view.setBatchSize(BATCH_ROWS)
        # "scrolled to the newest entry" survives the batches: the range grows batch by batch
        self._stick_to_bottom = False
        self._view.verticalScrollBar().rangeChanged.connect(self._range_changed)
        self._view.verticalScrollBar().actionTriggered.connect(self._user_scrolled)
        layout.addWidget(self._view)
        self.model.rowsInserted.connect(self._after_insert)
        self.model.modelReset.connect(self._after_reset)
        self.model.rowsRemoved.connect(self._model_moved)

    # -- what tabs and tests use -----------------------------------------------------------
    def set_contradiction(self, index: Optional[int]) -> None:
        """Highlight event ``index`` (0-based) as the first contradiction; None clears."""
        self.model.set_contradiction(index)

    def set_explained(self, indices) -> None:
        """Highlight the events ``indices`` (0-based) the open Why? popup names."""
        self.model.set_explained(indices)

    def explained_entries(self) -> list[int]:
        """The events (0-based, ascending) highlighted for the Why? popup."""
        return sorted(self.model._explained)

    def set_conflict(self, indices) -> None:
        """Mark the events ``indices`` (0-based) that cannot all be true together."""
        self.model.set_conflict(indices)

    def conflict_entries(self) -> list[int]:
        """The events (0-based, ascending) marked as the conflicting set."""
        return sorted(self.model._conflict)

    def select_event(self, index: int) -> None:
        """Select event ``index`` (0-based) and scroll to it: its beliefs are shown."""
        ix = self.model.index(index + 1)
        if ix.isValid():
            self._view.setCurrentIndex(ix)
            self._view.scrollTo(ix)

    def contradiction_index(self) -> Optional[int]:
        """The event (0-based) highlighted as the first contradiction, or None."""
        return self.model._bad_index

    def select_entry(self, row: int) -> None:
        """Select row ``row`` (0: the setup, ``i + 1``: event ``i``): its beliefs are shown."""
        self._view.setCurrentIndex(self.model.index(row))

    def current_entry(self) -> int:
        """The selected row, or -1 when nothing is selected (the live view)."""
        ix = self._view.currentIndex()
        return ix.row() if ix.isValid() else -1

    def is_laid_out(self) -> bool:
        """True once the view has laid out its newest entry (a long log is laid out in batches,
        :data:`BATCH_ROWS` per pass of the event loop), or when the panel is hidden."""
        m = self._view.model()
        n = m.rowCount()
        if n == 0 or not self._view.isVisible():
            return True
        return self._view.visualRect(m.index(n - 1)).isValid()

    def entry_count(self) -> int:
        """Rows listed: the setup plus one per event."""
        return self.model.rowCount()

    def entry_text(self, row: int) -> str:
        """The text shown in row ``row``."""
        return self.model.data(self.model.index(row)) or ""

    def set_word_wrap(self, on: bool) -> None:
        """Wrap long entries (narrow panels; rows then differ in height)."""
        self._view.setWordWrap(on)
        self._view.setUniformItemSizes(not on)

    def select_live(self) -> None:
        """The player asks for the beliefs now (Escape, "Show current beliefs")."""
        self._view.clearSelection()
        self._view.setCurrentIndex(QModelIndex())

    def show_selected(self, k: int) -> None:
        """Show the controller's selected moment ``k`` (-1: live, nothing selected; else row
        ``k``) without reporting it back as the player's choice."""
        if self.current_entry() == k:
            return
        self._rendering = True
        try:
            if k < 0:
                self._view.clearSelection()
                self._view.setCurrentIndex(QModelIndex())
            else:
                ix = self.model.index(k)
                self._view.setCurrentIndex(ix)
                self._view.scrollTo(ix)
        finally:
            self._rendering = False

    def refresh(self, *_args) -> None:
        """Repaint every row (the document's signals keep the rows in step by themselves)."""
        self.model._reset()

    # -- internals ------------------------------------------------------------------------
    @Slot()
    def _model_moves(self, *_args) -> None:
        """Rows are about to be inserted or removed (connected before the view's selection
        model, which then moves its current row): those moves are not the player's."""
        self._rendering = True

    @Slot()
    def _model_moved(self, *_args) -> None:
        self._rendering = False

    @Slot()
    def _after_insert(self, *_args) -> None:
        self._rendering = False
        self._view.scrollToBottom()

    @Slot()
    def _after_reset(self) -> None:
        self._rendering = False
        self._view.scrollToBottom()
        self._stick_to_bottom = True

    @Slot(int, int)
    def _range_changed(self, _low: int, high: int) -> None:
        if self._stick_to_bottom:
            self._view.verticalScrollBar().setValue(high)

    @Slot(int)
    def _user_scrolled(self, *_args) -> None:
        self._stick_to_bottom = False

    def _selected(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if not self._rendering:
            self.entrySelected.emit(current.row() if current.isValid() else -1)

    def _menu(self, pos: QPoint) -> None:
        ix = self._view.indexAt(pos)
        row = ix.row() if ix.isValid() else -1
        if row <= 0:
            return
        menu = QMenu(self)
        remove = menu.addAction(_("Remove this entry"))
        remove.setShortcut(QKeySequence.Delete)
        live = menu.addAction(_("Show current beliefs"))
        chosen = menu.exec(self._view.viewport().mapToGlobal(pos))
        if chosen is remove:
            self.removeRequested.emit(row - 1)
        elif chosen is live:
            self.select_live()

    def keyPressEvent(self, event) -> None:  # noqa: N802 (Qt's method name)
        row = self.current_entry()
        if event.key() in (Qt.Key_Delete, Qt.Key_Backspace) and row > 0:
            self.removeRequested.emit(row - 1)
            return
        if event.key() == Qt.Key_Escape:
            self.select_live()
            return
        super().keyPressEvent(event)
