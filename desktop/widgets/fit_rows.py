"""A table exactly as tall as its rows: header, every row, and the sideways scroll bar when the
columns do not fit, recomputed when the rows, the columns' fit or the zoom change.

For a short grid shown whole in a pane that scrolls (the Egghead "Each of my cards" grid): a
fixed height in pixels does not follow the zoom (the rows do, :mod:`desktop.zoom`) and does not
know whether a sideways scroll bar takes a row's room; either way the last row was cut off.
"""
from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QTableView


class FitRows(QObject):
    """Keeps ``view`` (a :class:`QTableView` with a model) at the height of its horizontal
    header, its rows and two frame widths, plus its horizontal scroll bar while that is needed
    (its range is not empty). Owned by the view; :meth:`fit` applies it now."""

    def __init__(self, view: QTableView):
        super().__init__(view)
        self.view = view
        view.installEventFilter(self)
        view.verticalHeader().sectionResized.connect(self.fit)
        view.horizontalHeader().geometriesChanged.connect(self.fit)
        view.horizontalScrollBar().rangeChanged.connect(self.fit)
        model = view.model()
        if model is not None:
            for sig in (model.modelReset, model.layoutChanged, model.rowsInserted, model.rowsRemoved):
                sig.connect(self.fit)
        self.fit()

    def height(self) -> int:
        """The height (pixels) the view needs now."""
        v = self.view
        h = v.verticalHeader().length() + 2 * v.frameWidth()
        if not v.horizontalHeader().isHidden():
            h += v.horizontalHeader().sizeHint().height()
        bar = v.horizontalScrollBar()
        if bar.maximum() > bar.minimum():
            h += bar.sizeHint().height()
        return h

    def fit(self, *_args) -> None:
        h = self.height()
        if self.view.minimumHeight() != h or self.view.maximumHeight() != h:
            self.view.setFixedHeight(h)

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 (Qt's name)
        if obj is self.view and event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange,
                                                 QEvent.Type.Show):
            self.fit()
        return False
