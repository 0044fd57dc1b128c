"""Disabled text and check boxes stay readable in both colour schemes (desktop.shell.appearance).

Measured on rendered pixels, as the screen audit does (tests/screen_audit/checks.py): the
contrast of the pixel of greatest contrast against the background, WCAG 2.1's contrast ratio
(W3C, "Web Content Accessibility Guidelines 2.1", 2018). The floors: 3:1 for disabled text
(the audit's floor, see its docstring) and 3:1 for a check box's outline (success criterion
1.4.11, non-text contrast). Each test also measures the colours Qt gives without the fix,
so that it fails where the fix is undone.
"""
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QListWidget,
    QListWidgetItem,
    QStyle,
    QStyleFactory,
    QStyleOptionButton,
    QStyleOptionSpinBox,
    QWidget,
)

from desktop.shell.appearance import (
    DISABLED_CONTRAST,
    INDICATOR_CONTRAST,
    LegibleFusion,
    contrast,
    dark_palette,
    legible_disabled,
)
from tests.screen_audit.checks import DISABLED_FLOOR, image_array, measured_contrast

TEXT_ROLES = (QPalette.WindowText, QPalette.Text, QPalette.ButtonText)
BACKS = (QPalette.Window, QPalette.Base, QPalette.Button, QPalette.Light)


def _worst(palette: QPalette) -> float:
    dis = QPalette.ColorGroup.Disabled
    return min(contrast(palette.color(dis, t), palette.color(dis, b)) for t in TEXT_ROLES for b in BACKS)


def test_disabled_text_reaches_the_floor_in_both_schemes(qapp):
    light = QStyleFactory.create("Fusion").standardPalette()   # Qt's own light palette
    assert _worst(light) < 2.0                                 # #bebebe on #efefef: 1.6:1
    for palette in (light, dark_palette()):
        fixed = legible_disabled(palette)
        assert _worst(fixed) >= DISABLED_CONTRAST >= DISABLED_FLOOR
        for role in TEXT_ROLES:
            # enabled colours untouched, and disabled text still visibly dimmer than enabled
            active = QPalette.ColorGroup.Active
            assert fixed.color(active, role) == palette.color(active, role)
            win = fixed.color(active, QPalette.Window)
            assert contrast(fixed.color(QPalette.ColorGroup.Disabled, role), win) < \
                contrast(fixed.color(active, role), win) / 2


def _style(widget: QWidget, legible: bool) -> None:
    style = LegibleFusion() if legible else QStyleFactory.create("Fusion")
    widget._style = style                                    # lives as long as the widget
    widget.setStyle(style)
    for child in widget.findChildren(QWidget):
        child.setStyle(style)
    widget.setPalette(legible_disabled(dark_palette()) if legible else dark_palette())


def _ratio(widget: QWidget, rect) -> float:
    arr = image_array(widget.grab().toImage())
    return measured_contrast(arr[rect.top():rect.bottom() + 1, rect.left():rect.right() + 1])[0]


def _box_outline(legible: bool) -> float:
    """The contrast of an unchecked box's outline on the dark base (the box's inside is the
    base colour, so the most frequent colour of its rect is the base)."""
    box = QCheckBox("Airplane")
    _style(box, legible)
    box.resize(box.sizeHint())
    opt = QStyleOptionButton()
    box.initStyleOption(opt)
    rect = box.style().subElementRect(QStyle.SE_CheckBoxIndicator, opt, box)
    return _ratio(box, rect)


def _item_outline(legible: bool) -> float:
    """The same for an unchecked item of a list of check boxes (Spyfall's "My list")."""
    view = QListWidget()
    item = QListWidgetItem("Airplane")
    item.setFlags(item.flags() | Qt.ItemIsUserCheckable)
    item.setCheckState(Qt.Unchecked)
    view.addItem(item)
    _style(view, legible)
    view.resize(200, 60)
    view.show()
    QApplication.processEvents()
    rect = view.visualItemRect(item)
    side = rect.height()
    rect.setWidth(side)   # the indicator, left of the text
    rect.translate(view.viewport().pos())
    ratio = _ratio(view, rect)
    view.hide()
    return ratio


@pytest.mark.parametrize("outline", [_box_outline, _item_outline], ids=["check box", "list item"])
def test_unchecked_boxes_are_outlined_in_the_dark_scheme(qapp, outline):
    assert outline(False) < 1.5              # Fusion's own outline on the dark base: invisible
    assert outline(True) >= INDICATOR_CONTRAST


def test_egghead_disabled_card_values_readable_in_the_dark_scheme(qapp):
    """The Solve form's card spin boxes, disabled while the solver's cards are unknown."""
    from desktop.games.egghead.forms import card_spin

    spin = card_spin(6, 1)
    _style(spin, True)
    spin.setEnabled(False)
    spin.resize(spin.sizeHint())
    opt = QStyleOptionSpinBox()
    opt.initFrom(spin)
    opt.subControls = QStyle.SC_All
    rect = spin.style().subControlRect(QStyle.CC_SpinBox, opt, QStyle.SC_SpinBoxEditField, spin)
    ratio = _ratio(spin, rect.adjusted(2, 2, -2, -2))
    assert ratio >= DISABLED_FLOOR
    # the card ink the form had set (#3e2723, for every state) on the same field: unreadable
    spin.setStyleSheet("QSpinBox {color:#3e2723;}")
    assert _ratio(spin, rect.adjusted(2, 2, -2, -2)) < 2.0


def _checkable(view) -> bool:
    from PySide6.QtCore import QModelIndex

    m = view.model()
    if m is None:
        return False
    def count(what: str) -> int:
        for args in ((QModelIndex(),), ()):
            try:
                return getattr(m, what)(*args)
            except TypeError:   # a list model's columnCount is private, a Python model's
                continue        # takes its parent
        return 1

    rows, cols = count("rowCount"), count("columnCount")
    return any(m.flags(m.index(r, c)) & Qt.ItemIsUserCheckable
               for r in range(min(rows, 50)) for c in range(min(cols, 30)))


def test_only_widgets_that_draw_check_boxes_draw_in_python_and_they_are_outlined(
        window, qapp, qtbot, scheme_follower):
    """Under the desktop's hooks (after the first paint) the application draws with Fusion in
    C++; the widgets that draw check boxes — the check boxes, lists of them, tables with a check
    column — have the outlining style of their own, and their outlines keep the 3:1."""
    from PySide6.QtWidgets import QAbstractItemView, QPushButton, QTableView

    from desktop.shell.appearance import draws_checks
    from desktop.widgets.columns import Column, ColumnTable
    from desktop.widgets.polish_hook import HookedStyle

    scheme_follower("dark")
    qtbot.waitUntil(lambda: isinstance(qapp.style(), HookedStyle))
    assert not isinstance(qapp.style().baseStyle(), LegibleFusion)
    window.build_all_tabs()
    box = QCheckBox("Airplane")
    view = QListWidget()
    item = QListWidgetItem("Airplane")
    item.setFlags(item.flags() | Qt.ItemIsUserCheckable)
    item.setCheckState(Qt.Unchecked)
    view.addItem(item)
    table = ColumnTable([Column(title="Struck", value=lambda r: False, check=True)])
    plain = [QTableView(), QPushButton("Ask")]
    for w in (box, view, table, *plain):
        qtbot.addWidget(w)
        w.show()
    QApplication.processEvents()
    for w in (box, view, table):
        assert isinstance(w.style(), LegibleFusion), type(w).__name__
    for w in plain:
        assert not isinstance(w.style(), LegibleFusion), type(w).__name__
    # every view of the five tabs whose items can be checked is outlined; none other is
    checking = [w for w in window.findChildren(QAbstractItemView) if _checkable(w)]
    assert checking   # Spyfall's "My list" at least
    for w in checking:
        assert draws_checks(w) and isinstance(w.style(), LegibleFusion), w.objectName()
    # the outline as drawn on the dark base
    box.resize(box.sizeHint())
    opt = QStyleOptionButton()
    box.initStyleOption(opt)
    assert _ratio(box, box.style().subElementRect(QStyle.SE_CheckBoxIndicator, opt, box)) \
        >= INDICATOR_CONTRAST
    rect = view.visualItemRect(item)
    rect.setWidth(rect.height())
    rect.translate(view.viewport().pos())
    assert _ratio(view, rect) >= INDICATOR_CONTRAST
