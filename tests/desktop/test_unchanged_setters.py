"""What desktop/widgets/unchanged.py rests on: ``QLabel.setText`` with the text it holds asks
for no new layout (Qt compares, so the views call it directly), while a style sheet set again
does, and the helper that compares first does not."""
from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QLabel, QTabWidget, QVBoxLayout, QWidget

from desktop.widgets.unchanged import set_style, set_tab_text


class _Layouts(QObject):
    def __init__(self):
        super().__init__()
        self.n = 0

    def eventFilter(self, obj, ev):  # noqa: N802 (Qt name)
        if ev.type() == QEvent.LayoutRequest:
            self.n += 1
        return False


def _window(qtbot):
    w = QWidget()
    lay = QVBoxLayout(w)
    label = QLabel("Wait — 12 %")
    label.setWordWrap(True)
    tabs = QTabWidget()
    tabs.addTab(QLabel("x"), "Who is close?")
    lay.addWidget(label)
    lay.addWidget(tabs)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    layouts = _Layouts()
    w.installEventFilter(layouts)
    qtbot.wait(100)                     # the window's own first layouts
    layouts.n = 0
    return w, label, tabs, layouts


def test_the_same_label_text_costs_no_layout_and_a_new_one_does(qtbot):
    _w, label, _tabs, layouts = _window(qtbot)
    label.setText("Wait — 12 %")
    qtbot.wait(20)
    assert layouts.n == 0
    label.setText("Wait — 13 %")
    qtbot.wait(20)
    assert layouts.n == 1


def test_a_style_sheet_set_again_lays_out_unless_compared_first(qtbot):
    _w, label, tabs, layouts = _window(qtbot)
    label.setStyleSheet("color: grey")
    qtbot.wait(20)
    n = layouts.n
    label.setStyleSheet("color: grey")
    qtbot.wait(20)
    assert layouts.n > n                 # Qt does not compare style sheets
    n = layouts.n
    set_style(label, "color: grey")
    set_tab_text(tabs, 0, "Who is close?")
    qtbot.wait(20)
    assert layouts.n == n
