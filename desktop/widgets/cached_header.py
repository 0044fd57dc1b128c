"""A table header whose size hint is measured once per change of its sections' contents.

Qt's ``QHeaderView::sizeHint`` measures the first and last 100 sections from their contents
(``sectionSizeFromContents``: the model's ``headerData`` for the size hint, font, display and
decoration roles, four calls from C++ into Python per section for a Python model) and keeps the
result, but forgets it on changes of the view's height as well (a banner shown above the table,
a splitter moved): a claim sheet of 100 claims then made 400 calls for one relayout, each
waiting for the interpreter lock while a job runs Python beside the GUI thread
(tests/benchmarks/bench_open_stall.py). :class:`CachedHintHeader` keeps the hint until the
model reports a change of its headers or its sections (``headerDataChanged``, a reset, rows or
columns inserted, removed or moved, a layout change) or the header's font or style changes, and
the hint is then measured again by Qt's own code (Qt documentation, ``QHeaderView``).
"""
from __future__ import annotations

from PySide6.QtCore import QEvent, QSize, Qt
from PySide6.QtWidgets import QHeaderView, QTableView

_FORGET_ON = (QEvent.Type.FontChange, QEvent.Type.StyleChange)


class CachedHintHeader(QHeaderView):
    """A ``QHeaderView`` whose :meth:`sizeHint` is Qt's, computed once per change (module doc).

    Attributes:
        measured: how many times the hint was computed (tests).
    """

    _SIGNALS = ("headerDataChanged", "modelReset", "layoutChanged", "rowsInserted", "rowsRemoved",
                "rowsMoved", "columnsInserted", "columnsRemoved", "columnsMoved")

    def __init__(self, orientation, parent=None):
        super().__init__(orientation, parent)
        self._hint = None
        self._watched = None
        self.measured = 0

    def forget_hint(self, *_args) -> None:
        """Measure the hint again at the next :meth:`sizeHint`."""
        self._hint = None

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt's method name)
        model = self.model()
        if model is not self._watched:
            self._watch(model)
        if self._hint is None:
            self._hint = super().sizeHint()
            self.measured += 1
        return QSize(self._hint)

    def _watch(self, model) -> None:
        if self._watched is not None:
            for name in self._SIGNALS:
                try:
                    getattr(self._watched, name).disconnect(self.forget_hint)
                except (RuntimeError, TypeError):
                    pass                # the model is gone, or was never connected
        self._watched = model
        self._hint = None
        if model is not None:
            for name in self._SIGNALS:
                getattr(model, name).connect(self.forget_hint)

    def changeEvent(self, event) -> None:  # noqa: N802 (Qt's method name)
        super().changeEvent(event)
        if event.type() in _FORGET_ON:
            self._hint = None


def use_cached_vertical_header(view: QTableView) -> CachedHintHeader:
    """Give ``view`` a :class:`CachedHintHeader` as its row header, set as ``QTableView`` sets
    its own (clickable, highlighting the current row's section); call before ``setModel``."""
    header = CachedHintHeader(Qt.Orientation.Vertical, view)
    header.setSectionsClickable(True)
    header.setHighlightSections(True)
    view.setVerticalHeader(header)
    return header
