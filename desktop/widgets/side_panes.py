"""A tab's main view with side panes beside it that fold into tabs when the room is short.

:class:`SidePanes` is a horizontal ``QSplitter``: its first widget is the tab's main view (a
worksheet, a board), the widgets added with :meth:`SidePanes.add_pane` are side panes (ranking,
advice, History, plots). While the splitter is at least as wide as all of them need side by side
(the sum of their widths and the handles, each widget's minimum width but at least
:data:`READABLE_EM` lines of text high in width, so that no pane is squeezed to a sliver) they
stand side by side; below that width the
side panes move, in order, into one ``QTabWidget`` beside the main view, and back when the room
is there again (a single side pane never folds: a tab would be no narrower). The splitter's
minimum width is the folded arrangement's, so a window on a small screen (or at a large zoom)
can be narrower than the panes side by side.

Nothing is lost by a move: the panes are the same widgets (models, selections, nested tab pages
and text are untouched), scroll bars are put back to where they were, focus stays where it was,
the last chosen tab is chosen again at the next fold, and the splitter positions of the side by
side arrangement are kept while folded (also in :meth:`SidePanes.saveState`).

The arrangement follows Qt's own pattern of a splitter whose children the program re-parents
(``QSplitter.insertWidget`` moves a widget that has another parent) and of ``QTabWidget`` pages;
the width rule is the one ``QSplitter`` itself uses, each child's ``minimumSize`` if set, else
its ``minimumSizeHint``.
"""
from __future__ import annotations

from typing import Optional

from PySide6.QtCore import QByteArray, QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QApplication,
    QSizePolicy,
    QSplitter,
    QStyle,
    QTabWidget,
    QWidget,
)

from desktop.widgets.hint_cache import HintCache

#: The narrowest a widget may be side by side, in heights of a line of its text (about 200 px at
#: 100 % on a 9 pt desktop, 300 px at 150 % zoom): narrower, the panes fold into tabs.
READABLE_EM = 12


def min_width(widget: QWidget) -> int:
    """The width (pixels) a splitter gives ``widget`` at least: its explicit minimum width if
    set, else its ``minimumSizeHint`` (0 for an Ignored horizontal policy)."""
    if widget.minimumWidth() > 0:
        return widget.minimumWidth()
    if widget.sizePolicy().horizontalPolicy() == QSizePolicy.Policy.Ignored:
        return 0
    return max(0, widget.minimumSizeHint().width())


def _scroll_positions(root: QWidget) -> list:
    """(scroll bar, value) of every scroll area under ``root``, ``root`` included."""
    areas = root.findChildren(QAbstractScrollArea)
    if isinstance(root, QAbstractScrollArea):
        areas.append(root)
    out = []
    for area in areas:
        for bar in (area.horizontalScrollBar(), area.verticalScrollBar()):
            out.append((bar, bar.value()))
    return out


class SidePanes(QSplitter):
    """A horizontal splitter: the main view (the first :meth:`addWidget`) and side panes
    (:meth:`add_pane`) that fold into a ``QTabWidget`` below the width they need side by side.

    Signals:
        foldedChanged(bool): the side panes moved into tabs (True) or back side by side (False).
    """

    foldedChanged = Signal(bool)

    def __init__(self, parent: Optional[QWidget] = None):
        super().__init__(Qt.Orientation.Horizontal, parent)
        self.setChildrenCollapsible(False)
        self._panes: list[tuple[QWidget, str]] = []
        self._hidden: dict[int, bool] = {}
        #: The folded panes' tabs (a child of the splitter only while folded).
        self.tabs = QTabWidget()
        self.tabs.setObjectName("sidePaneTabs")
        self.tabs.setDocumentMode(True)
        self._folded = False
        self._current = 0
        self._wide_state: Optional[QByteArray] = None
        self._arranging = False
        self._check_pending = False
        self._hints = HintCache()

    # -- building ------------------------------------------------------------------------
    def add_pane(self, widget: QWidget, title: str, stretch: int = 1) -> QWidget:
        """Add a side pane (shown as tab ``title`` when folded) with splitter ``stretch``."""
        self._panes.append((widget, title))
        self._hints.clear()
        if self._folded:
            self.tabs.addTab(widget, title)
        else:
            self.addWidget(widget)
            self.setStretchFactor(self.indexOf(widget), stretch)
        self._schedule_check()
        return widget

    def panes(self) -> list[QWidget]:
        """The side panes, in order."""
        return [w for w, _t in self._panes]

    def is_folded(self) -> bool:
        """True while the side panes are tabs."""
        return self._folded

    def show_pane(self, widget: QWidget) -> None:
        """Make the side pane holding ``widget`` visible (its tab current while folded)."""
        if not self._folded:
            return
        for i, (pane, _t) in enumerate(self._panes):
            if pane is widget or pane.isAncestorOf(widget):
                self.tabs.setCurrentIndex(i)
                return

    # -- widths --------------------------------------------------------------------------
    def main_widget(self) -> Optional[QWidget]:
        return self.widget(0) if self.count() else None

    def width_side_by_side(self) -> int:
        """The width (pixels) the main view and every shown side pane need side by side: each
        its minimum width, at least :data:`READABLE_EM` text lines (kept until an event may
        change it: :mod:`desktop.widgets.hint_cache`)."""
        return self._hints.get("side", self._width_side_by_side)

    def _width_side_by_side(self) -> int:
        widgets = [w for w in (self.main_widget(),) if w is not None]
        widgets += [w for i, (w, _t) in enumerate(self._panes) if not self._pane_hidden(i)]
        readable = READABLE_EM * QFontMetrics(self.font()).height()
        return sum(max(min_width(w), readable) for w in widgets) + \
            self.handleWidth() * max(0, len(widgets) - 1)

    def width_folded(self) -> int:
        """The width (pixels) the main view and the side panes need as tabs (kept as
        :meth:`width_side_by_side`)."""
        return self._hints.get("folded", self._width_folded)

    def _width_folded(self) -> int:
        main = self.main_widget()
        shown = [w for i, (w, _t) in enumerate(self._panes) if not self._pane_hidden(i)]
        if not shown:
            return min_width(main) if main is not None else 0
        frame = 2 * self.tabs.style().pixelMetric(QStyle.PixelMetric.PM_DefaultFrameWidth) + 4
        side = max(min_width(w) for w in shown) + frame
        return (min_width(main) if main is not None else 0) + self.handleWidth() + side

    def minimumSizeHint(self):  # noqa: N802 (Qt name)
        return self._hints.get("min", self._minimum_size_hint)

    def _minimum_size_hint(self):
        hint = super().minimumSizeHint()
        if self._panes and self.main_widget() is not None:
            hint.setWidth(min(self.width_side_by_side(), self.width_folded()))
        return hint

    def _pane_hidden(self, i: int) -> bool:
        pane = self._panes[i][0]
        if self._folded:
            return self._hidden.get(i, False)
        return pane.isHidden()

    # -- arranging -----------------------------------------------------------------------
    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt name)
        self._arrange(event.size().width())
        super().resizeEvent(event)

    def event(self, e) -> bool:
        self._hints.seen(e)
        if e.type() in (QEvent.Type.LayoutRequest, QEvent.Type.Show):
            self._schedule_check()
        return super().event(e)

    def _schedule_check(self) -> None:
        if not self._check_pending:
            self._check_pending = True
            QTimer.singleShot(0, self, self._check)   # not after deletion

    def _check(self) -> None:
        self._check_pending = False
        if self.isVisible():
            self._arrange(self.width())

    def _arrange(self, width: int) -> None:
        if self._arranging or not self._panes or self.main_widget() is None:
            return
        wide = self.width_side_by_side()
        fold = width < wide and self.width_folded() < wide   # only when tabs are narrower
        if fold != self._folded:
            self.set_folded(fold)

    def set_folded(self, fold: bool) -> None:
        """Fold the side panes into tabs (``True``) or put them side by side (``False``);
        normally the width decides (see the module docstring)."""
        if fold == self._folded or not self._panes:
            return
        self._arranging = True
        self._hints.clear()
        scrolls = _scroll_positions(self)
        focus = QApplication.focusWidget()
        focus = focus if focus is not None and self.isAncestorOf(focus) else None
        try:
            if fold:
                self._fold()
            else:
                self._unfold()
        finally:
            self._arranging = False
        self._folded = fold
        self._hints.clear()
        self._restore(scrolls, focus)
        QTimer.singleShot(0, self, lambda: self._restore(scrolls, focus))   # after the new layout
        self.updateGeometry()
        self.foldedChanged.emit(fold)

    def _fold(self) -> None:
        self._wide_state = super().saveState()
        self._hidden = {i: w.isHidden() for i, (w, _t) in enumerate(self._panes)}
        main = self.main_widget()
        for i, (widget, title) in enumerate(self._panes):
            self.tabs.addTab(widget, title)
            self.tabs.setTabVisible(i, not self._hidden[i])
        self.insertWidget(self.indexOf(main) + 1, self.tabs)
        self.setStretchFactor(self.indexOf(self.tabs), 2)
        self.tabs.setCurrentIndex(min(self._current, self.tabs.count() - 1))
        self.tabs.show()

    def _unfold(self) -> None:
        self._current = max(0, self.tabs.currentIndex())
        at = self.indexOf(self.tabs)
        for i, (widget, _title) in enumerate(self._panes):
            self.insertWidget(at + i, widget)
            widget.setVisible(not self._hidden.get(i, False))
        self.tabs.hide()
        self.tabs.setParent(None)
        if self._wide_state is not None:
            super().restoreState(self._wide_state)

    @staticmethod
    def _restore(scrolls: list, focus: Optional[QWidget]) -> None:
        for bar, value in scrolls:
            try:
                bar.setValue(value)
            except RuntimeError:   # the scroll area was deleted meanwhile
                pass
        if focus is not None:
            try:
                if focus.isVisible():
                    focus.setFocus()
            except RuntimeError:
                pass

    # -- the side by side positions are what is kept ---------------------------------------
    def saveState(self) -> QByteArray:  # noqa: N802 (Qt name)
        """The side by side arrangement's state (also while folded)."""
        if self._folded and self._wide_state is not None:
            return QByteArray(self._wide_state)
        return super().saveState()

    def restoreState(self, state) -> bool:  # noqa: N802 (Qt name)
        """Restore side by side positions (kept for the next unfold while folded)."""
        if self._folded:
            self._wide_state = QByteArray(state)
            return True
        return super().restoreState(state)


class PaneTabs(QTabWidget):
    """The tabbed pages of a side pane (plots, a board), every title shown whole and a width
    that does not follow what the pages say.

    A ``QTabWidget`` narrower than its tab bar scrolls the bar (arrows, titles cut: "B…") and is
    as wide as its widest page needs, so a page whose text grows (a long status line) widens
    the pane and moves the panes beside it. Here the bar never scrolls (Qt's
    ``usesScrollButtons`` off, no eliding) and the least width is the whole bar's, at least
    :data:`READABLE_EM` text lines, whatever the pages' minimums: the pages fit the width they
    are given (their texts wrap). The width follows the font (a zoom) and the titles only.
    """

    def __init__(self, parent: Optional[QWidget] = None):
        super().__init__(parent)
        self.setUsesScrollButtons(False)
        self.setElideMode(Qt.TextElideMode.ElideNone)
        self._hints = HintCache()

    def event(self, e) -> bool:
        self._hints.seen(e)   # a page's layout request, a title, the font (hint_cache)
        return super().event(e)

    def bar_width(self) -> int:
        """The width in pixels the tab bar needs to show every title whole."""
        bar = self.tabBar()
        return sum(bar.tabSizeHint(i).width() for i in range(bar.count()) if bar.isTabVisible(i))

    def _least_width(self) -> int:
        frame = 2 * self.style().pixelMetric(QStyle.PixelMetric.PM_DefaultFrameWidth)
        readable = READABLE_EM * QFontMetrics(self.font()).height()
        return max(self.bar_width() + frame, readable)

    def minimumSizeHint(self):  # noqa: N802 (Qt name)
        return self._hints.get("min", self._minimum_size_hint)

    def _minimum_size_hint(self):
        hint = super().minimumSizeHint()
        hint.setWidth(self._least_width())
        return hint

    def sizeHint(self):  # noqa: N802 (Qt name)
        return self._hints.get("size", self._size_hint)

    def _size_hint(self):
        hint = super().sizeHint()
        hint.setWidth(self._least_width())
        return hint
