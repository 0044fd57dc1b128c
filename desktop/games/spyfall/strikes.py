"""My own list of locations to strike out, beside the model's beliefs.

The list is the player's private notepad, like the location sheet of the boxed game: ticking a
location strikes it through. It is saved with the session (``setup.table.struck``,
:class:`engines.spyfall.model.TableAids`) and never read by the model: the beliefs shown next to
it are the model's alone.
"""
from __future__ import annotations

from typing import Optional, Sequence

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QLabel, QListWidget, QListWidgetItem, QVBoxLayout, QWidget

from desktop.shell.appearance import muted
from desktop.widgets.plain_text import esc
from engines.core.i18n import _


class StrikeList(QWidget):
    """A checkable list of the table's locations; a ticked location is struck through.

    Signals:
        struckChanged(tuple): the player ticked or unticked a location; the tuple holds every
            struck location in the table's order.
    """

    struckChanged = Signal(tuple)

    def __init__(self, parent: Optional[QWidget] = None):
        super().__init__(parent)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.title = QLabel("<b>{}</b>".format(esc(_("My list"))))
        self.title.setToolTip(_("Strike out the locations you have ruled out yourself. Saved with "
                                "the game; the model never reads it."))
        lay.addWidget(self.title)
        self.list = QListWidget()
        self.list.setToolTip(self.title.toolTip())
        # a narrow pane elides long names (the full name is the item's tooltip) rather than
        # adding a horizontal scroll bar over the last row
        self.list.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.itemChanged.connect(self._item_changed)
        lay.addWidget(self.list, 1)
        self._locations: list[str] = []
        self._updating = False

    def set_locations(self, locations: Sequence[str], struck: Sequence[str] = ()) -> None:
        """Show ``locations`` (in order) with ``struck`` ticked. Each item is ticked and styled
        before it joins the list: styled in the list, each of 200 locations' three changes
        called :meth:`_item_changed` (600 calls into Python, 2-4 ms of an open's first turn)."""
        self._updating = True
        try:
            self._locations = list(locations)
            struck = set(struck)
            self.list.clear()
            left = 0
            for loc in self._locations:
                item = QListWidgetItem(loc)
                item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                item.setToolTip(loc)
                on = loc in struck
                item.setCheckState(Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)
                self._style(item, on)
                self.list.addItem(item)
                left += not on
            self._title(left)
        finally:
            self._updating = False

    def set_struck(self, struck: Sequence[str]) -> None:
        """Tick exactly ``struck`` (no signal)."""
        self._updating = True
        try:
            self._apply(set(struck))
        finally:
            self._updating = False

    def struck(self) -> tuple:
        """The ticked locations, in the table's order."""
        return tuple(loc for i, loc in enumerate(self._locations)
                     if self.list.item(i).checkState() == Qt.CheckState.Checked)

    def toggle(self, location: str) -> None:
        """Strike or unstrike ``location`` as a click on its box would (emits the signal)."""
        i = self._locations.index(location)
        item = self.list.item(i)
        item.setCheckState(Qt.CheckState.Unchecked if item.checkState() == Qt.CheckState.Checked
                           else Qt.CheckState.Checked)

    def _apply(self, struck: set) -> None:
        left = 0
        for i, loc in enumerate(self._locations):
            item = self.list.item(i)
            on = loc in struck
            item.setCheckState(Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)
            self._style(item, on)
            left += not on
        self._title(left)

    def _style(self, item: QListWidgetItem, on: bool) -> None:
        """Struck through in the secondary text colour (:func:`desktop.shell.appearance.muted`),
        else the palette's own text colour (no colour of the item's: it follows the scheme)."""
        f = QFont(item.font())
        f.setStrikeOut(on)
        item.setFont(f)
        item.setData(Qt.ItemDataRole.ForegroundRole, muted(self.palette()) if on else None)

    def changeEvent(self, event) -> None:  # noqa: N802 (Qt name)
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange and self._locations:
            self.set_struck(self.struck())   # the struck colour of the new scheme

    def _title(self, left: int) -> None:
        self.title.setText("<b>{}</b> · {}".format(esc(_("My list")), esc(_("{left} of {n} left").format(
            left=left, n=len(self._locations)))))

    def _item_changed(self, item: QListWidgetItem) -> None:
        if self._updating:
            return
        self._updating = True
        try:
            self._style(item, item.checkState() == Qt.CheckState.Checked)
            self._title(len(self._locations) - len(self.struck()))
        finally:
            self._updating = False
        self.struckChanged.emit(self.struck())
