"""A vertical two-pane splitter whose default sizes depend on the height available.

A fixed default (``setSizes`` with a stretch ratio) that suits a tall screen leaves a worksheet
with no rows on a short one at a large zoom (1280×800 at 150 %: the names and the panes around
it take the whole height). :class:`FitSplitter` gives its first pane the height it asks for
(a callback, in pixels) as far as the second pane keeps the height its content needs (its
minimum size), and never less than its stretch share; on a page too short for both (the first
pane would get less than the least it can do with) the first pane gets what it asks for as far
as the second keeps ``rest_lines`` lines of text, scrolling (a scroll area around it). It fits
again when
the splitter is resized or the font changes (a zoom), until the user drags the handle or a
saved layout is restored (:func:`desktop.shell.window_geometry.restore_splitters`): those sizes are the
user's.

:class:`CappedText` is a word-wrapped label that can be capped at a few lines and scrolls for the
rest (a long recommendation on a short page), so that the worksheet above it keeps its rows.
"""
from __future__ import annotations

from typing import Callable, Optional

from PySide6.QtCore import QEvent, QSize, Qt, QTimer
from PySide6.QtWidgets import QFrame, QLabel, QScrollArea, QSizePolicy, QSplitter


class FitSplitter(QSplitter):
    """A vertical :class:`QSplitter` of two panes sized by :meth:`fit`.

    ``wanted()`` returns the first pane's heights in pixels ``(least, whole)``: the least it
    can do with (a worksheet's rows under elided names) and what shows everything (the names
    whole); called at each fit, it should not depend on the pane's own height; ``rest_lines``: the lines of the font's
    height the second pane keeps on a short page; ``short_changed(bool)``, if given, is called
    when the page starts or stops being short, before the sizes are set (the page may then
    make room, e.g. cap a wrapped text).
    """

    def __init__(self, wanted: Callable[[], tuple[int, int]], rest_lines: float = 5.0,
                 short_changed: Optional[Callable[[bool], None]] = None, parent=None):
        super().__init__(Qt.Orientation.Vertical, parent)
        self._wanted = wanted
        self._rest_lines = rest_lines
        self._short_changed = short_changed
        self._short: Optional[bool] = None
        self._auto = True
        self._queued = False
        self._watched: list = []
        self.splitterMoved.connect(self._user_moved)

    @property
    def fitting(self) -> bool:
        """False once the user has dragged the handle or a saved layout was restored."""
        return self._auto

    def _user_moved(self, *_args) -> None:
        self._auto = False

    def restoreState(self, state) -> bool:  # noqa: N802 (Qt name)
        ok = super().restoreState(state)
        if ok:
            self._auto = False
        return ok

    def event(self, event) -> bool:
        if event.type() in (QEvent.Type.Resize, QEvent.Type.Show, QEvent.Type.FontChange,
                            QEvent.Type.ApplicationFontChange):
            self.refit()
        return super().event(event)

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 (Qt name)
        # the second pane's content changed what it needs (a legend wrapped on another line)
        if event.type() == QEvent.Type.LayoutRequest:
            self.refit()
        return super().eventFilter(obj, event)

    def _watch(self) -> None:
        """Hear the second pane's (and its scroll area's content's) layout requests."""
        pane = self.widget(1)
        inner = pane.widget() if isinstance(pane, QScrollArea) else None
        for w in (pane, inner):
            if w is not None and not any(w is x for x in self._watched):
                w.installEventFilter(self)
                self._watched.append(w)

    def refit(self, *_args) -> None:
        """Fit again once the layouts under the splitter are updated (what the first pane
        wants changed: the rows of its worksheet, say); nothing once not :attr:`fitting`."""
        if self._auto and not self._queued:
            self._queued = True
            QTimer.singleShot(0, self, self.fit)

    def rest_height(self) -> int:
        """The second pane's least height in pixels on a short page (``rest_lines`` lines of
        the font)."""
        return round(self._rest_lines * self.fontMetrics().height())

    def content_height(self) -> int:
        """The height in pixels the second pane's content needs: its minimum size (that of the
        widget in it for a scroll area), at least :meth:`rest_height`."""
        pane = self.widget(1)
        inner = pane.widget() if isinstance(pane, QScrollArea) else None
        if inner is not None:
            need = inner.minimumSizeHint().expandedTo(inner.minimumSize()).height() + 2 * pane.frameWidth()
        else:
            need = pane.minimumSizeHint().expandedTo(pane.minimumSize()).height()
        return max(self.rest_height(), need)

    def fit(self) -> None:
        """Size the panes for the height the splitter has now (nothing once not
        :attr:`fitting`, or before the splitter has a height)."""
        self._queued = False
        if not self._auto or self.count() != 2 or not self.isVisible():
            return
        total = sum(self.sizes())
        if total <= 0:
            return
        self._watch()
        share = round(total * self._share())
        least, whole = self._wanted()
        first = min(whole, total - self.content_height())
        short = first < least and share < least
        if short:   # the first pane before the second one's content, which scrolls
            first = min(whole, total - self.rest_height())
        if self._short_changed is not None and short != self._short:
            self._short_changed(short)
        self._short = short
        first = max(share, first)
        self.setSizes([first, total - first])

    def _share(self) -> float:
        """The first pane's stretch share of the height (0.5 when no stretch is set)."""
        a = self.widget(0).sizePolicy().verticalStretch()
        b = self.widget(1).sizePolicy().verticalStretch()
        return a / (a + b) if a + b > 0 else 0.5


class CappedText(QScrollArea):
    """``label`` (word-wrapped) in a frameless scroll area as tall as its text at the width it
    has, or at most :meth:`set_max_lines` lines of its font, scrolling vertically for the rest
    (never sideways)."""

    def __init__(self, label: QLabel, parent=None):
        super().__init__(parent)
        label.setWordWrap(True)
        label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.label = label
        self._max_lines: Optional[float] = None
        self.setWidget(label)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        policy = QSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)
        # a new text asks the viewport (the label's parent) to lay out again: so must this
        self.viewport().installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 (Qt name)
        if obj is self.viewport() and event.type() == QEvent.Type.LayoutRequest:
            self.updateGeometry()
        return super().eventFilter(obj, event)

    def set_max_lines(self, lines: Optional[float]) -> None:
        """Show at most ``lines`` lines of text (None: the whole text)."""
        if lines != self._max_lines:
            self._max_lines = lines
            self.updateGeometry()

    def max_lines(self) -> Optional[float]:
        """The cap of :meth:`set_max_lines` (None: none)."""
        return self._max_lines

    def hasHeightForWidth(self) -> bool:  # noqa: N802 (Qt name)
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802 (Qt name)
        return self.height_for(width, self._max_lines)

    def height_for(self, width: int, max_lines: Optional[float]) -> int:
        """The height in pixels at ``width`` pixels with at most ``max_lines`` lines (None:
        the whole text)."""
        if not self.label.text():
            return 0
        need = self.label.heightForWidth(width)
        if max_lines is not None:
            cap = round(max_lines * self.label.fontMetrics().lineSpacing())
            if need > cap:   # the scroll bar takes part of the width: the text is taller
                bar = self.verticalScrollBar().sizeHint().width()
                need = min(self.label.heightForWidth(max(1, width - bar)), cap)
        return need

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt name)
        width = self.width() if self.width() > 0 else self.label.sizeHint().width()
        return QSize(self.label.sizeHint().width(), self.heightForWidth(width))

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt name)
        return QSize(0, min(self.sizeHint().height(), self.label.fontMetrics().lineSpacing()))
