"""The item-tooltip filter (desktop/widgets/plain_text.py) sits on item views' viewports, not on
the application: a widget that is not an item view never calls it (each call from Qt into
Python waits for the interpreter lock while a job runs Python), and a cell's tooltip naming a
player is still shown literally."""
from PySide6.QtCore import QEvent
from PySide6.QtGui import QHelpEvent
from PySide6.QtWidgets import QApplication, QLabel, QToolTip

from desktop.widgets import plain_text
from desktop.widgets.columns import Column, ColumnTable

HOSTILE = "<img src=x>&<b>"


def test_the_tooltip_filter_sees_item_views_only_and_shows_names_literally(qapp, qtbot, monkeypatch):
    seen = []

    class Counting(plain_text._PlainItemTips):
        def eventFilter(self, obj, event):  # noqa: N802 (Qt name)
            seen.append(obj)
            return super().eventFilter(obj, event)

    monkeypatch.setattr(plain_text, "_PlainItemTips", Counting)
    monkeypatch.setattr(plain_text, "_filter", None)       # a filter of this test's own
    plain_text.install_plain_item_tooltips()
    mine = plain_text._filter
    try:
        _check(qtbot, seen)
    finally:
        qapp.removeEventFilter(mine)
        mine.setParent(None)


def _check(qtbot, seen) -> None:
    label = QLabel("plain")
    qtbot.addWidget(label)
    label.show()
    for width in (200, 220, 240):
        label.resize(width, 40)
        label.repaint()
        QApplication.processEvents()
    assert seen == []                  # paints, resizes, moves of other widgets: no call
    table = ColumnTable((Column("Name", lambda r: r),))
    qtbot.addWidget(table)
    table.set_rows([HOSTILE])
    table.resize(300, 120)
    table.show()
    QApplication.processEvents()
    port = table.viewport()
    pos = table.visualRect(table.model().index(0, 0)).center()
    QApplication.sendEvent(port, QHelpEvent(QEvent.ToolTip, pos, port.mapToGlobal(pos)))
    shown = QToolTip.text()
    QToolTip.hideText()
    assert port in seen
    assert shown and HOSTILE not in shown          # the markup escaped, shown as text
    assert "&lt;img src=x&gt;&amp;&lt;b&gt;" in shown
