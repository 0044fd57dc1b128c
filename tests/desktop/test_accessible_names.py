"""Every control of the five tabs can be announced by a screen reader: each input control that
is visible with its game's example open has an accessible name that is not just its value, or
is labelled by a label (the AT-SPI "labelled-by" relation Qt makes from a label's buddy, which
is how Orca names a picker on Linux), and every worksheet cell has a text that names its row,
column and value (desktop/widgets/accessible.py)."""
import pytest
from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSpinBox,
    QComboBox,
    QHeaderView,
    QLineEdit,
    QSlider,
    QWidget,
)
from window_idle import wait_idle

from engines.core.resources import resource_path

GAMES = ("cluedo", "inkognito", "egghead", "guesswho", "spyfall")
CONTROLS = (QAbstractButton, QComboBox, QLineEdit, QAbstractSpinBox, QAbstractItemView, QSlider)


def _value(w) -> str:
    if isinstance(w, QComboBox):
        return w.currentText()
    if isinstance(w, (QAbstractSpinBox, QLineEdit)):
        return w.text()
    return ""


def unnamed_controls(root: QWidget) -> list:
    """The visible controls under ``root`` a screen reader could not name."""
    out = []
    for w in root.findChildren(QWidget):
        if not isinstance(w, CONTROLS) or isinstance(w, QHeaderView) or not w.isVisibleTo(root):
            continue
        if w.objectName() in ("qt_tableview_cornerbutton", "qt_spinbox_lineedit") \
                or isinstance(w.parentWidget(), (QComboBox, QAbstractSpinBox)):
            continue                      # parts of another control
        iface = QAccessible.queryAccessibleInterface(w)
        name = iface.text(QAccessible.Text.Name).strip() if iface is not None else ""
        labelled = iface is not None and any(
            r[0].text(QAccessible.Text.Name).strip() for r in iface.relations(QAccessible.RelationFlag.Label))
        if not labelled and (not name or name == _value(w).strip()):
            out.append(f"{type(w).__name__} in {type(w.parentWidget()).__name__} "
                       f"(value {_value(w)[:30]!r}, tip {w.toolTip()[:40]!r})")
    return out


@pytest.mark.parametrize("game", GAMES)
def test_every_control_can_be_named(window, game):
    window.resize(1280, 800)
    assert window.open_path(str(resource_path("examples", f"{game}.json")), ask=False)
    assert wait_idle(window, 60)
    tab = window.tab_for(game)
    window.select_game(game)
    assert unnamed_controls(tab) == []
