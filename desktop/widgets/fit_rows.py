"""A grid exactly as tall as its rows: header, every row, and the sideways scroll bar when the
columns do not fit, recomputed when the rows, the columns' fit or the zoom change.

For a short grid shown whole in a pane that scrolls (the Egghead "Each of my cards" grid): a
fixed height in pixels does not follow the zoom (the rows do, :mod:`desktop.table.zoom`) and does not
know whether a sideways scroll bar takes a row's room; either way the last row was cut off.

The fitting lives in the view itself (its own ``changeEvent``/``showEvent`` and slots) rather
than in a separate event-filter object: Qt may deliver events to a filter whose Python wrapper
has already been collected (its ``__dict__`` empty) while the C++ object lives on until its
parent goes, which raised ``AttributeError`` inside Qt's event loop at teardown (the same
lifetime problem is described for Orange's widgets, biolab/orange-widget-base PR 256, 2023).
"""
from __future__ import annotations

from PySide6.QtCore import QEvent, Slot

from desktop.widgets.worksheet import WorksheetView


class FittedWorksheetView(WorksheetView):
    """A :class:`~desktop.widgets.worksheet.WorksheetView` kept at the height of its horizontal
    header, its rows and two frame widths, plus its horizontal scroll bar while that is needed
    (its range is not empty). :meth:`fit` applies it now; it runs by itself on a new model,
    rows added or removed, a section resized, the columns' geometry, the scroll bar's range,
    a font or style change (the zoom) and on show."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.verticalHeader().sectionResized.connect(self.fit)
        self.horizontalHeader().geometriesChanged.connect(self.fit)
        self.horizontalScrollBar().rangeChanged.connect(self.fit)

    def setModel(self, model) -> None:  # noqa: N802 (Qt's name)
        super().setModel(model)
        if model is not None:
            for sig in (model.modelReset, model.layoutChanged, model.rowsInserted, model.rowsRemoved):
                sig.connect(self.fit)
        self.fit()

    def fitted_height(self) -> int:
        """The height (pixels) that shows the header, every row and, while the columns do not
        fit, the horizontal scroll bar, inside two frame widths."""
        h = self.verticalHeader().length() + 2 * self.frameWidth()
        if not self.horizontalHeader().isHidden():
            h += self.horizontalHeader().sizeHint().height()
        bar = self.horizontalScrollBar()
        if bar.maximum() > bar.minimum():
            h += bar.sizeHint().height()
        return h

    @Slot()
    def fit(self, *_args) -> None:
        """Fix the view's height at :meth:`fitted_height` (nothing happens if it already is)."""
        h = self.fitted_height()
        if self.minimumHeight() != h or self.maximumHeight() != h:
            self.setFixedHeight(h)

    def changeEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().changeEvent(event)
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self.fit()

    def showEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().showEvent(event)
        self.fit()

