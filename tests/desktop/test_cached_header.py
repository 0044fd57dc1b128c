"""The row header of the generic tables (desktop/widgets/cached_header.py): its size hint is Qt's
own, measured again when its labels, its rows or its font change, and not when the table is
made shorter (a banner shown above it), which made Qt ask the model for every row label again."""
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QHeaderView, QLabel, QVBoxLayout, QWidget

from desktop.widgets.cached_header import CachedHintHeader
from desktop.widgets.columns import Column, ColumnTable, ColumnTableModel
from desktop.widgets.worksheet import WorksheetView

SIZE_HINT = Qt.ItemDataRole.SizeHintRole.value


def test_row_labels_are_measured_on_a_change_not_when_a_banner_shows(qapp, qtbot, monkeypatch):
    asked = []
    header_data = ColumnTableModel.headerData

    def counting(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Vertical and int(getattr(role, "value", role)) == SIZE_HINT:
            asked.append(section)
        return header_data(self, section, orientation, role)

    monkeypatch.setattr(ColumnTableModel, "headerData", counting)
    box = QWidget()
    qtbot.addWidget(box)
    lay = QVBoxLayout(box)
    banner = QLabel("Computing…")
    banner.hide()
    lay.addWidget(banner)
    table = ColumnTable((Column("Bits", lambda r: r[1]),), row_label=lambda r: r[0])
    lay.addWidget(table)
    table.set_rows([(f"turn {i}", i / 7) for i in range(100)])
    box.resize(400, 300)
    box.show()
    QApplication.processEvents()
    header = table.verticalHeader()
    assert isinstance(header, CachedHintHeader) and isinstance(WorksheetView().verticalHeader(), CachedHintHeader)
    assert header.sizeHint() == QHeaderView.sizeHint(header)       # Qt's own measure
    asked.clear()
    measured = header.measured
    for shown in (True, False, True):
        banner.setVisible(shown)
        QApplication.processEvents()
    box.resize(400, 240)
    QApplication.processEvents()
    assert asked == [] and header.measured == measured
    narrow = header.sizeHint().width()
    table.set_rows([(f"turn {i}", i / 7) for i in range(99)] + [("a much longer label", 0.5)])
    QApplication.processEvents()
    assert header.sizeHint() == QHeaderView.sizeHint(header)
    assert header.sizeHint().width() > narrow
    font = header.font()
    font.setPointSizeF(font.pointSizeF() * 2)
    header.setFont(font)
    assert header.sizeHint() == QHeaderView.sizeHint(header)
