"""Names and notes holding markup (``<img src=x>&<b>``) are accepted and shown literally in
every game's tab: every label, tooltip and banner that is rich text escapes them (Qt guesses
rich text from a leading tag, so an unescaped name would be drawn as a picture or bold)."""
import json

import pytest
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import Qt as GuiQt
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QAbstractItemView, QLabel, QWidget
from window_idle import wait_idle

from desktop.widgets.plain_text import as_rich_plain
from engines.core.resources import resource_path

HOSTILE = "<img src=x>&<b>"
NOTE = "<img src=y>&<i>note"


def _rename(obj, old: str, new: str):
    if isinstance(obj, dict):
        return {(new if k == old else k): _rename(v, old, new) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_rename(v, old, new) for v in obj]
    return new if obj == old else obj


def _session(game: str) -> dict:
    d = json.loads(resource_path("examples", f"{game}.json").read_text(encoding="utf-8"))
    s = d["setup"]
    if game == "guesswho":
        board = json.loads(resource_path("guesswho", "classic.json").read_text(encoding="utf-8"))
        old = board["characters"][0]["name"]
        board = _rename(board, old, HOSTILE)
        board["name"] = HOSTILE
        board["note"] = NOTE
        d["setup"]["board"] = board
        d = _rename(d, old, HOSTILE)
    else:
        old = (s.get("players") or s.get("opponents"))[1]
        d = _rename(d, old, HOSTILE)
    for e in d["events"]:
        if "note" in e or game != "guesswho":
            e["note"] = NOTE
            break
    return d


def _is_rich(text: str, fmt) -> bool:
    return fmt == Qt.RichText or (fmt == Qt.AutoText and GuiQt.mightBeRichText(text))


def _shown(text: str, fmt) -> tuple[str, str]:
    """(the text a person reads, the HTML Qt renders — "" for plain text)."""
    if not _is_rich(text, fmt):
        return text, ""
    doc = QTextDocument()
    doc.setHtml(text)
    return doc.toPlainText(), doc.toHtml().split("<body", 1)[-1]


def _count(model, what: str) -> int:
    for args in ((QModelIndex(),), ()):
        try:
            return getattr(model, what)(*args)
        except TypeError:
            continue
    return 1


def _texts(root: QWidget):
    """(where, shown text, rendered HTML) of every label and tooltip under ``root``, and the
    display and tooltip text of every item view's cells."""
    for w in [root] + root.findChildren(QWidget):
        if isinstance(w, QLabel) and w.text():
            yield (f"label {w.objectName() or type(w.parent()).__name__}",
                   *_shown(w.text(), w.textFormat()))
        if w.toolTip():
            yield f"tooltip of {type(w).__name__}", *_shown(w.toolTip(), Qt.AutoText)
        if isinstance(w, QAbstractItemView) and w.model() is not None:
            m = w.model()
            for r in range(min(_count(m, "rowCount"), 100)):
                for c in range(min(_count(m, "columnCount"), 60)):
                    i = m.index(r, c)
                    disp = m.data(i, Qt.DisplayRole)
                    if isinstance(disp, str):
                        yield f"cell of {type(w).__name__}", disp, ""
                    tip = m.data(i, Qt.ToolTipRole)
                    if isinstance(tip, str) and tip:   # shown by the application's filter
                        yield (f"cell tooltip of {type(w).__name__}",
                               *_shown(as_rich_plain(tip), Qt.AutoText))
            for orient in (Qt.Horizontal, Qt.Vertical):
                n = _count(m, "columnCount") if orient == Qt.Horizontal else _count(m, "rowCount")
                for k in range(min(n, 100)):
                    tip = m.headerData(k, orient, Qt.ToolTipRole)
                    if isinstance(tip, str) and tip:
                        yield (f"header tooltip of {type(w).__name__}",
                               *_shown(as_rich_plain(tip), Qt.AutoText))
                    disp = m.headerData(k, orient, Qt.DisplayRole)
                    if isinstance(disp, str):
                        yield f"header of {type(w).__name__}", disp, ""


@pytest.mark.parametrize("game", ["cluedo", "inkognito", "egghead", "guesswho", "spyfall"])
def test_markup_in_names_is_shown_literally(window, tmp_path, game):
    path = tmp_path / f"{game}.json"
    path.write_text(json.dumps(_session(game)), encoding="utf-8")
    assert window.open_path(str(path), ask=False)
    assert wait_idle(window, 120)
    tab = window.tab_for(game)
    found = list(_texts(tab))
    injected = [(where, plain[:120]) for where, plain, html in found
                if "<img" in html or "<b>&amp;" in html]
    assert not injected, "\n".join(map(repr, injected))
    assert any(HOSTILE in plain for _w, plain, _h in found), \
        f"{HOSTILE!r} shown nowhere in the {game} tab"
    # the history shows the note literally too
    notes = [plain for where, plain, _h in found if "<img src=y>" in plain]
    assert notes or game == "egghead", f"the note is shown nowhere in the {game} tab"


def test_banner_and_message_boxes_escape_names(window, tmp_path, monkeypatch):
    """A contradiction naming a player, and the Open error naming a file, show the markup."""
    from PySide6.QtWidgets import QMessageBox

    from desktop.widgets.banner import Banner

    b = Banner()
    b.show_message(f"<b>Impossible log</b>: {HOSTILE}", "error")
    b.show_message_plain(f"Cannot open {HOSTILE}", "error")
    plain, html = _shown(b.label.text(), b.label.textFormat())
    assert plain == f"Cannot open {HOSTILE}" and "<img" not in html
    shown = []
    monkeypatch.setattr(QMessageBox, "warning", lambda _p, _t, text, *a, **k:
                        shown.append(text) or QMessageBox.Ok)
    bad = tmp_path / f"{HOSTILE.replace('/', '_')}.json"
    bad.write_text("{", encoding="utf-8")
    assert not window.open_path(str(bad), ask=False)
    plain, html = _shown(shown[0], Qt.AutoText)
    assert HOSTILE in plain and "<img" not in html


def test_item_view_tooltips_show_names_literally(window, tmp_path):
    """A real tooltip event on a History entry naming the player: the tooltip shows the
    markup as text (the application's item-view tooltip filter)."""
    from PySide6.QtCore import QEvent
    from PySide6.QtGui import QHelpEvent
    from PySide6.QtWidgets import QApplication, QListView, QToolTip

    path = tmp_path / "spyfall.json"
    path.write_text(json.dumps(_session("spyfall")), encoding="utf-8")
    assert window.open_path(str(path), ask=False)
    assert wait_idle(window, 60)
    tab = window.tab_for("spyfall")
    view = next(v for v in tab.history.findChildren(QListView) if v.model() is not None)
    m = view.model()
    row = next(r for r in range(m.rowCount()) if HOSTILE in str(m.index(r, 0).data(Qt.ToolTipRole)))
    rect = view.visualRect(m.index(row, 0))
    pos = rect.center()
    QApplication.sendEvent(view.viewport(), QHelpEvent(QEvent.ToolTip, pos,
                                                       view.viewport().mapToGlobal(pos)))
    shown = QToolTip.text()
    QToolTip.hideText()
    plain, html = _shown(shown, Qt.AutoText)
    assert HOSTILE in plain and "<img" not in html


def test_tooltip_filter_is_on_item_views_only_even_those_made_later(window, qtbot):
    """The filter is put on each item view's viewport as it is polished, the pop-up list of a
    combo box made after the window included, and never sees other widgets' events (an
    application-wide filter in Python costs a call for every event of every widget)."""
    import sys

    from PySide6.QtCore import QEvent, QPoint
    from PySide6.QtGui import QHelpEvent
    from PySide6.QtWidgets import QApplication, QComboBox, QDialog, QLabel, QToolTip, QVBoxLayout

    from desktop.widgets import plain_text
    from desktop.widgets.polish_hook import HookedStyle

    # installed on the turn after the window's first paint
    qtbot.waitUntil(lambda: isinstance(QApplication.instance().style(), HookedStyle))
    code = plain_text._PlainItemTips.eventFilter.__code__
    seen = []

    def profile(frame, event, _arg):   # every Python call on this thread, from Qt's too
        if event == "call" and frame.f_code is code:
            seen.append(frame.f_locals.get("obj"))

    dialog = QDialog(window)
    label = QLabel("a label", dialog)
    combo = QComboBox(dialog)
    combo.addItems(["Scarlet", HOSTILE])
    combo.setItemData(1, HOSTILE, Qt.ToolTipRole)
    lay = QVBoxLayout(dialog)
    lay.addWidget(label)
    lay.addWidget(combo)
    dialog.show()
    combo.showPopup()
    QApplication.processEvents()
    view = combo.view()
    sys.setprofile(profile)
    try:
        pos = QPoint(1, 1)
        QApplication.sendEvent(label, QHelpEvent(QEvent.ToolTip, pos, label.mapToGlobal(pos)))
        label.setText("another label")
        QApplication.processEvents()
        assert all(isinstance(o.parent(), QAbstractItemView) and o.parent().viewport() is o
                   for o in seen), "the tooltip filter saw events of widgets that are not views"
        rect = view.visualRect(view.model().index(1, 0))
        pos = rect.center()
        QApplication.sendEvent(view.viewport(), QHelpEvent(QEvent.ToolTip, pos,
                                                           view.viewport().mapToGlobal(pos)))
        assert view.viewport() in seen
    finally:
        sys.setprofile(None)
        shown = QToolTip.text()
        QToolTip.hideText()
        combo.hidePopup()
        dialog.close()
    plain, html = _shown(shown, Qt.AutoText)
    assert HOSTILE in plain and "<img" not in html


def test_the_polish_hook_survives_a_stale_wrapper(qapp):
    """Shiboken may hand a widget's polish over as the stale wrapper of a deleted object at
    the same address (a layout's QWidgetItem, seen in a test run): the style skips it instead
    of raising inside Qt, and still runs its hooks on real widgets."""
    from PySide6.QtWidgets import QLabel, QWidgetItem

    from desktop.widgets import polish_hook

    seen = []
    style = polish_hook.HookedStyle()
    label = QLabel("x")
    polish_hook._HOOKS.append(seen.append)
    try:
        assert style.polish(QWidgetItem(label)) is None
        style.polish(label)
    finally:
        polish_hook._HOOKS.remove(seen.append)
    assert seen == [label]
