"""The layout and contrast checks of the screen audit, run on the live widgets of one state.

Each check returns :class:`Finding` s naming the widget (class, object name, text). The
checks read the widgets Qt laid out under a real window manager and the pixels Qt rendered
(``QWidget.grab``), never the palette alone:

- :func:`check_on_screen`: every visible top-level window (the main window, dialogs, popups)
  lies inside the available area of its screen (frame included).
- :func:`check_clipping`: no visible widget is cut off by an ancestor unless the ancestor is
  a scroll area's viewport whose scroll bar in that direction is shown; no label or button is
  narrower than its text (Qt clips, it does not elide); no word-wrapped label is shorter than
  its text; no item view has columns or rows beyond its viewport without a scroll bar; no
  floating banner covers a table's header.
- :func:`check_elided`: an item-view cell whose text does not fit its column (elided by the
  view) has that text in its tooltip; a label whose text ends in "…" has a tooltip.
- :func:`check_contrast`: WCAG 2.1 success criterion 1.4.3 (contrast minimum, level AA):
  4.5:1, or 3:1 for large text (at least 18 pt, or 14 pt bold). The background is the most
  frequent colour of the widget's rendered pixels, the text colour the rendered pixel of
  greatest contrast against it (the core of the glyphs; anti-aliased edges lie between).
  Relative luminance and contrast ratio as defined by WCAG 2.1 (W3C, 2018), "relative
  luminance" and "contrast ratio". Disabled widgets and inactive cells, which 1.4.3 exempts,
  are held to :data:`DISABLED_FLOOR` (3:1, the criterion's floor for large text and 1.4.11's
  for the boundaries of controls): a disabled field here often still shows a value the player
  reads (the Egghead Solve form's cards), and 3:1 leaves it visibly dimmer than enabled text.
  Besides labels, buttons, headers, cells and group titles, the values in spin boxes, combo
  boxes and line edits are judged.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Optional

import numpy as np
from PySide6.QtCore import QModelIndex, QPoint, QRect, Qt
from PySide6.QtGui import QFontMetrics, QImage
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractScrollArea,
    QAbstractSpinBox,
    QApplication,
    QCheckBox,
    QComboBox,
    QGroupBox,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListView,
    QPushButton,
    QRadioButton,
    QStyle,
    QStyleOptionComboBox,
    QStyleOptionSpinBox,
    QTabBar,
    QTableView,
    QToolButton,
    QTreeView,
    QWidget,
)

#: WCAG 2.1 AA minimum contrast for normal and large text.
AA_NORMAL, AA_LARGE = 4.5, 3.0
#: The contrast the audit asks of disabled text (see the module's docstring).
DISABLED_FLOOR = 3.0
#: Item-view cells sampled per view for the contrast and elision checks (bounds the time).
MAX_CELLS = 40


@dataclass
class Finding:
    """One defect: ``check`` (on-screen, clipped, elided, contrast), the widget's description
    and what is wrong."""
    check: str
    widget: str
    detail: str

    def __str__(self) -> str:
        return f"[{self.check}] {self.widget}: {self.detail}"


def describe(w: QWidget) -> str:
    """``Class 'objectName' "text"`` of a widget (text shortened), for failure messages."""
    text = ""
    for getter in ("text", "title", "windowTitle", "placeholderText"):
        f = getattr(w, getter, None)
        if callable(f):
            try:
                t = f()
            except TypeError:
                continue
            if isinstance(t, str) and t:
                text = t
                break
    text = " ".join(text.split())
    if len(text) > 70:
        text = text[:67] + "..."
    parents = []
    p = w.parentWidget()
    while p is not None and len(parents) < 3:
        parents.append(type(p).__name__)
        p = p.parentWidget()
    return f"{type(w).__name__} '{w.objectName()}' \"{text}\" (in {' < '.join(parents)})"


def visible_widgets(top: QWidget) -> list[QWidget]:
    """``top`` 's descendants that are visible on screen (their ancestors too), excluding
    separate windows."""
    out = []
    for w in top.findChildren(QWidget):
        if w.isWindow() or w.window() is not top or not w.isVisible() or w.width() <= 0 \
                or w.height() <= 0:
            continue
        out.append(w)
    return out


# -- on screen --------------------------------------------------------------------------------
def check_on_screen(windows: Iterable[QWidget]) -> list[Finding]:
    """Every window's frame (title bar and borders as the window manager drew them) lies in
    the available geometry of its screen."""
    found = []
    for win in windows:
        screen = win.screen() or QApplication.primaryScreen()
        avail = screen.availableGeometry()
        frame = win.frameGeometry()
        if not avail.contains(frame):
            found.append(Finding("on-screen", describe(win),
                                 f"frame {_r(frame)} outside the available screen {_r(avail)}"))
    return found


def _r(r: QRect) -> str:
    return f"{r.width()}x{r.height()}+{r.x()}+{r.y()}"


# -- clipping ---------------------------------------------------------------------------------
def _scroll_area_of_viewport(w: QWidget) -> Optional[QAbstractScrollArea]:
    p = w.parentWidget()
    if isinstance(p, QAbstractScrollArea) and p.viewport() is w:
        return p
    return None


def _internal(w: QWidget) -> bool:
    """Widgets Qt manages inside complex widgets (tab bar scroll buttons, scroll bars' corner,
    spin box line edits, item-view editors ...): their clipping is the owner's business."""
    for a in _ancestors(w):
        if isinstance(a, (QTabBar, QComboBox, QHeaderView)):
            return True
    name = w.objectName()
    return name.startswith("qt_") and name not in ("qt_scrollarea_viewport",)


def _ancestors(w: QWidget):
    p = w.parentWidget()
    while p is not None and not p.isWindow():
        yield p
        p = p.parentWidget()


def check_clipping(top: QWidget) -> list[Finding]:
    found = []
    widgets = visible_widgets(top)
    for w in widgets:
        if _internal(w):
            continue
        found += _clipped_by_ancestor(w, top)
        found += _text_squeezed(w)
        if isinstance(w, QAbstractItemView) and not isinstance(w, QHeaderView):
            found += _view_overflow(w)
    found += _banner_over_headers(top, widgets)
    return found


def _clipped_by_ancestor(w: QWidget, top: QWidget) -> list[Finding]:
    rect = QRect(w.mapTo(top, QPoint(0, 0)), w.size())
    child = w
    for a in _ancestors(w):
        arect = QRect(a.mapTo(top, QPoint(0, 0)), a.size())
        if not arect.contains(rect):
            inter = arect.intersected(rect)
            # how far the widget sticks out of the ancestor on each axis
            cut_w = max(0, arect.left() - rect.left()) + max(0, rect.right() - arect.right())
            cut_h = max(0, arect.top() - rect.top()) + max(0, rect.bottom() - arect.bottom())
            if cut_w <= 1 and cut_h <= 1:
                rect = inter
                child = a
                continue
            sa = _scroll_area_of_viewport(a)
            if sa is not None:
                ok_h = cut_w <= 1 or sa.horizontalScrollBar().isVisible()
                ok_v = cut_h <= 1 or sa.verticalScrollBar().isVisible()
                if ok_h and ok_v:
                    return []   # reachable by scrolling
                where = "horizontally" if not ok_h else "vertically"
                return [Finding("clipped", describe(w),
                                f"cut off {where} by scroll area {describe(sa)} without a scroll bar "
                                f"({cut_w}x{cut_h} px hidden)")]
            if isinstance(a, QTabBar):
                return []
            return [Finding("clipped", describe(w),
                            f"{cut_w}x{cut_h} px of its {_r(rect)} cut off by {describe(a)} at "
                            f"{_r(arect)} (no scroll bar reaches it)")]
        child = a
    del child
    return []


def _text_squeezed(w: QWidget) -> list[Finding]:
    if isinstance(w, QLabel):
        if not w.text().strip() or not w.pixmap().isNull():
            return []
        if w.wordWrap():
            need = w.heightForWidth(w.width())
            if need > 0 and w.height() + 2 < need:
                return [Finding("clipped", describe(w),
                                f"word-wrapped text needs {need} px of height, has {w.height()}")]
            return []
        need = w.minimumSizeHint().width()
        if w.width() + 2 < need:
            return [Finding("clipped", describe(w), f"text needs {need} px, has {w.width()} (cut off)")]
        return []
    if isinstance(w, (QPushButton, QCheckBox, QRadioButton, QToolButton)) and w.text():
        need = w.sizeHint().width()
        if isinstance(w, QToolButton) and w.toolButtonStyle() == Qt.ToolButtonIconOnly and not w.icon().isNull():
            return []
        if w.width() + 2 < need:
            return [Finding("clipped", describe(w), f"text needs {need} px, has {w.width()} (cut off)")]
    if isinstance(w, QGroupBox) and w.title():
        fm = w.fontMetrics()
        need = fm.horizontalAdvance(w.title().replace("&&", "&")) + 20
        if w.width() < need:
            return [Finding("clipped", describe(w), f"title needs {need} px, has {w.width()}")]
    return []


def _view_overflow(view: QAbstractItemView) -> list[Finding]:
    """Columns wider / rows taller than the viewport with that scroll bar off."""
    found = []
    vp = view.viewport()
    if isinstance(view, (QTableView, QTreeView)):
        hh = view.horizontalHeader() if isinstance(view, QTableView) else view.header()
        total = hh.length()
        if total > vp.width() + 2 and not view.horizontalScrollBar().isVisible():
            found.append(Finding("clipped", describe(view),
                                 f"columns {total} px wide in a {vp.width()} px viewport, no scroll bar"))
    if view.model() is not None and view.model().rowCount(QModelIndex()) > 0 and \
            view.verticalScrollBarPolicy() == Qt.ScrollBarAlwaysOff:
        last = view.model().index(view.model().rowCount(QModelIndex()) - 1, 0)
        if view.visualRect(last).bottom() > vp.height() + 2:
            found.append(Finding("clipped", describe(view), "rows below the viewport, no scroll bar"))
    return found


def _banner_over_headers(top: QWidget, widgets: list[QWidget]) -> list[Finding]:
    found = []
    overlays = [w for w in widgets if w.graphicsEffect() is not None]
    headers = [w for w in widgets if isinstance(w, QHeaderView) and w.orientation() == Qt.Horizontal]
    for o in overlays:
        orect = QRect(o.mapTo(top, QPoint(0, 0)), o.size())
        for h in headers:
            hrect = QRect(h.mapTo(top, QPoint(0, 0)), h.size())
            if orect.intersects(hrect) and not o.isAncestorOf(h):
                found.append(Finding("clipped", describe(h), f"column header {_r(hrect)} covered by "
                                     f"{describe(o)} at {_r(orect)}"))
    return found


# -- elided text ------------------------------------------------------------------------------
def _sample_indexes(view: QAbstractItemView):
    model = view.model()
    if model is None:
        return
    vp = view.viewport().rect()
    n = 0
    from PySide6.QtCore import QModelIndex
    rows = model.rowCount(QModelIndex())
    try:
        cols = model.columnCount(QModelIndex())
    except TypeError:   # a list model
        cols = 1
    for r in range(rows):
        for c in range(cols):
            if isinstance(view, QTableView) and view.isColumnHidden(c):
                continue
            idx = model.index(r, c)
            rect = view.visualRect(idx)
            if rect.isEmpty() or not vp.intersects(rect):
                continue
            if rect.top() > vp.bottom():
                return
            seen = rect.intersected(vp)
            if seen.width() * 4 < rect.width() * 3 or seen.height() * 4 < rect.height() * 3:
                continue   # a sliver at the viewport's edge: its glyphs are cut (scroll to read)
            yield idx, seen
            n += 1
            if n >= MAX_CELLS:
                return


def _mnemonic_eaten(text: str) -> bool:
    """Whether Qt would take a lone ``&`` in a title or button text as a mnemonic marker and
    not draw it ("1 & 3" shown as "1  3")."""
    return bool(re.search(r"(?<!&)&(?!&)(\s|$)", text))


def check_elided(top: QWidget) -> list[Finding]:
    """Elided cells without their text in a tooltip, labels ending in "…" without a tooltip,
    and titles whose "&" Qt eats as a mnemonic."""
    found = []
    for w in visible_widgets(top):
        title = w.title() if isinstance(w, QGroupBox) else \
            w.text() if isinstance(w, QAbstractButton) else ""
        if title and _mnemonic_eaten(title):
            found.append(Finding("elided", describe(w), "an '&' in the text is taken as a "
                                 "mnemonic and not shown (write '&&')"))
        if isinstance(w, QLabel) and not w.wordWrap():
            t = w.text()
            if t.rstrip().endswith(("…", "...")) and not w.toolTip() and "</" not in t \
                    and not t.lower().startswith(("loading", "computing", "looking")):
                found.append(Finding("elided", describe(w), "elided text without a tooltip"))
        if isinstance(w, QAbstractItemView) and not isinstance(w, QHeaderView):
            found += _elided_cells(w)
    return found


def _elided_cells(view: QAbstractItemView) -> list[Finding]:
    if view.textElideMode() == Qt.ElideNone or (isinstance(view, QListView) and view.wordWrap()):
        return []
    if isinstance(view, QTableView) and view.wordWrap() and view.verticalHeader().sectionResizeMode(0) \
            == QHeaderView.ResizeToContents:
        return []
    found = []
    fm = QFontMetrics(view.font())
    for idx, _rect in _sample_indexes(view):
        text = idx.data(Qt.DisplayRole)
        if not isinstance(text, str) or not text:
            continue
        if view.indexWidget(idx) is not None:
            continue
        font = idx.data(Qt.FontRole)
        m = QFontMetrics(font) if font is not None else fm
        icon = idx.data(Qt.DecorationRole)
        margin = view.style().pixelMetric(QStyle.PM_FocusFrameHMargin, None, view) + 1
        room = view.visualRect(idx).width() - 2 * margin - (20 if icon is not None else 0)
        if m.horizontalAdvance(text) > room:
            tip = idx.data(Qt.ToolTipRole)
            if not (isinstance(tip, str) and text.strip() in tip):
                found.append(Finding("elided", f"cell ({idx.row()},{idx.column()}) \"{text}\" of "
                                     f"{describe(view)}",
                                     f"needs {m.horizontalAdvance(text)} px, column gives {room}; "
                                     f"no tooltip with the full text"))
    return found


# -- contrast ---------------------------------------------------------------------------------
def _lin(c: np.ndarray) -> np.ndarray:
    c = c / 255.0
    return np.where(c <= 0.03928, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def luminance(rgb: np.ndarray) -> np.ndarray:
    """WCAG 2.1 relative luminance of ``rgb`` (..., 3) in 0..255."""
    lin = _lin(np.asarray(rgb, dtype=float))
    return lin[..., 0] * 0.2126 + lin[..., 1] * 0.7152 + lin[..., 2] * 0.0722


def contrast_ratio(a, b) -> float:
    """WCAG 2.1 contrast ratio of two sRGB colours (0..255), 1..21."""
    la, lb = float(luminance(np.asarray(a))), float(luminance(np.asarray(b)))
    hi, lo = max(la, lb), min(la, lb)
    return (hi + 0.05) / (lo + 0.05)


def image_array(img: QImage) -> np.ndarray:
    """A QImage as an (h, w, 3) uint8 RGB array."""
    img = img.convertToFormat(QImage.Format_RGB888)
    w, h, bpl = img.width(), img.height(), img.bytesPerLine()
    buf = np.frombuffer(img.constBits(), dtype=np.uint8, count=bpl * h).reshape(h, bpl)
    return buf[:, : w * 3].reshape(h, w, 3).copy()


def measured_contrast(pixels: np.ndarray) -> Optional[tuple[float, tuple, tuple]]:
    """``(ratio, background, text)`` of a rendered text region (h, w, 3): the background is
    its most frequent colour, the text the pixel of greatest contrast against it; None when
    the region is one colour (nothing drawn)."""
    flat = pixels.reshape(-1, 3)
    if flat.shape[0] == 0:
        return None
    keys = (flat[:, 0].astype(np.int32) << 16) | (flat[:, 1].astype(np.int32) << 8) | flat[:, 2]
    values, counts = np.unique(keys, return_counts=True)
    if len(values) < 2:
        return None
    bgk = int(values[np.argmax(counts)])
    bg = np.array([(bgk >> 16) & 255, (bgk >> 8) & 255, bgk & 255], dtype=float)
    cols = np.stack([(values >> 16) & 255, (values >> 8) & 255, values & 255], axis=1).astype(float)
    lum = luminance(cols)
    lbg = float(luminance(bg))
    ratios = (np.maximum(lum, lbg) + 0.05) / (np.minimum(lum, lbg) + 0.05)
    i = int(np.argmax(ratios))
    return float(ratios[i]), tuple(int(v) for v in bg), tuple(int(v) for v in cols[i])


def _large(font) -> bool:
    pt = font.pointSizeF()
    if pt <= 0:
        pt = font.pixelSize() * 0.75
    return pt >= 18 or (pt >= 14 and font.bold())


def _text_rect(w: QWidget) -> QRect:
    if isinstance(w, QLabel):
        return w.contentsRect()
    return w.rect()


def check_contrast(top: QWidget, shot: QImage) -> list[Finding]:
    """WCAG AA contrast of every visible enabled label, button, group title, header section
    and item-view cell (sampled) of ``top``, measured in ``shot`` (``top.grab()``)."""
    found = []
    arr = image_array(shot)
    dpr = shot.devicePixelRatio() or 1.0

    def crop(rect: QRect) -> np.ndarray:
        x0, y0 = int(rect.left() * dpr), int(rect.top() * dpr)
        x1, y1 = int((rect.right() + 1) * dpr), int((rect.bottom() + 1) * dpr)
        x0, y0 = max(0, x0), max(0, y0)
        return arr[y0:y1, x0:x1]

    def judge(desc: str, rect: QRect, font, what: str = "", enabled: bool = True) -> None:
        res = measured_contrast(crop(rect))
        if res is None:
            return
        ratio, bg, fg = res
        need = (AA_LARGE if _large(font) else AA_NORMAL) if enabled else DISABLED_FLOOR
        if ratio + 1e-6 < need:
            what = what if enabled else "disabled, " + what
            found.append(Finding("contrast", desc, f"{what}contrast {ratio:.2f}:1 < {need}:1 "
                                 f"(text rgb{fg} on rgb{bg})"))

    for w in visible_widgets(top):
        if _covered(w, top):
            continue
        on = w.isEnabled()
        origin = w.mapTo(top, QPoint(0, 0))
        field = _field_rect(w)
        if field is not None:
            # a field partly scrolled out of view (a form in a scroll area on a short screen)
            # shows other widgets' pixels where it is hidden: judged only when wholly in view
            if w.visibleRegion().boundingRect().contains(field):
                judge(describe(w), field.translated(origin), w.font(), "value ", on)
        elif isinstance(w, QLabel) and w.text().strip() and w.pixmap().isNull():
            judge(describe(w), _text_rect(w).translated(origin), w.font(), "", on)
        elif isinstance(w, QAbstractButton) and w.text().strip() and not isinstance(w, QTabBar):
            r = w.rect().adjusted(3, 3, -3, -3)   # the face, not the frame (a focus ring)
            if isinstance(w, (QCheckBox, QRadioButton)):
                r = w.rect().adjusted(22, 0, 0, 0)     # the text, not the indicator
            judge(describe(w), r.translated(origin), w.font(), "", on)
        elif isinstance(w, QHeaderView) and w.model() is not None:
            shown = w.viewport().visibleRegion().boundingRect()
            for s in range(min(w.count(), 12)):
                if w.isSectionHidden(s):
                    continue
                pos = w.sectionViewportPosition(s)
                size = w.sectionSize(s)
                if size <= 4 or pos < 0 or pos + size > (w.width() if w.orientation() == Qt.Horizontal else w.height()):
                    continue
                r = QRect(pos + 2, 2, size - 4, w.height() - 4) if w.orientation() == Qt.Horizontal \
                    else QRect(2, pos + 2, w.width() - 4, size - 4)
                if not shown.contains(r):
                    continue   # scrolled out of view by a scroll area around the view: not shown
                text = w.model().headerData(s, w.orientation(), Qt.DisplayRole)
                if text:
                    judge(f"header section \"{text}\" of {describe(w)}",
                          r.translated(w.viewport().mapTo(top, QPoint(0, 0))), w.font(), "", on)
        elif isinstance(w, QAbstractItemView) and not isinstance(w, QHeaderView):
            vp = w.viewport()
            vorigin = vp.mapTo(top, QPoint(0, 0))
            shown = vp.visibleRegion().boundingRect()
            for idx, rect in _sample_indexes(w):
                if not shown.contains(rect.adjusted(1, 1, -1, -1)):
                    continue   # (partly) scrolled out of view by a scroll area around the view
                text = idx.data(Qt.DisplayRole)
                if not isinstance(text, str) or not text.strip():
                    continue
                if w.selectionModel() is not None and w.selectionModel().isSelected(idx):
                    continue   # the highlight colours are the style's
                # an inactive cell is held to the disabled floor (see the module's docstring)
                judge(f"cell ({idx.row()},{idx.column()}) \"{text[:40]}\" of {describe(w)}",
                      rect.adjusted(1, 1, -1, -1).translated(vorigin), w.font(), "",
                      on and bool(idx.flags() & Qt.ItemIsEnabled))
        elif isinstance(w, QGroupBox) and w.title():
            fm = w.fontMetrics()
            r = QRect(0, 0, min(w.width(), fm.horizontalAdvance(w.title()) + 16), fm.height() + 2)
            judge(describe(w), r.translated(origin), w.font(), "title ", on)
    return found


def _field_rect(w: QWidget) -> Optional[QRect]:
    """The text field of a spin box or combo box showing a value, or of a line edit holding
    text (not one inside a spin box or combo box, judged with its owner), shrunk by 2 px so
    that the frame is not taken for the text; None for other widgets."""
    if isinstance(w, QAbstractSpinBox) and w.text().strip():
        opt = QStyleOptionSpinBox()
        opt.initFrom(w)
        opt.subControls = QStyle.SC_All
        r = w.style().subControlRect(QStyle.CC_SpinBox, opt, QStyle.SC_SpinBoxEditField, w)
    elif isinstance(w, QComboBox) and w.currentText().strip():
        opt = QStyleOptionComboBox()
        w.initStyleOption(opt)
        r = w.style().subControlRect(QStyle.CC_ComboBox, opt, QStyle.SC_ComboBoxEditField, w)
    elif isinstance(w, QLineEdit) and w.text().strip() and \
            not isinstance(w.parentWidget(), (QAbstractSpinBox, QComboBox)):
        r = w.rect()
    else:
        return None
    r = r.adjusted(2, 2, -2, -2)
    return r if r.width() > 2 and r.height() > 2 else None


def _covered(w: QWidget, top: QWidget) -> bool:
    """Whether a floating overlay (a banner: a widget with a graphics effect) lies over
    ``w``; then ``w`` 's pixels there are the overlay's, judged as the overlay's own widgets."""
    rect = QRect(w.mapTo(top, QPoint(0, 0)), w.size())
    for o in top.findChildren(QWidget):
        if o.graphicsEffect() is None or not o.isVisible() or o.window() is not top:
            continue
        if o is w or o.isAncestorOf(w) or w.isAncestorOf(o):
            continue
        if QRect(o.mapTo(top, QPoint(0, 0)), o.size()).intersects(rect):
            return True
    return False
