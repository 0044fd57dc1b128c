"""Text from a session (player, card and location names, notes) shown literally.

Qt guesses whether a label's, tooltip's or message box's text is rich text from its first
tag (``Qt::mightBeRichText``), so a name such as ``<img src=x>`` would be drawn as a
picture. Rich text built by the desktop escapes every such name with :func:`esc`; plain text
that may start with a name goes through :func:`as_rich_plain`. Item views' tooltips
(``Qt.ItemDataRole.ToolTipRole`` of every model, all plain text) are shown literally by one
event filter installed on each item view's viewport (:func:`plain_item_tooltips`: the generic
tables, lists and worksheets install it themselves, the window on every view of a tab it
builds, :func:`plain_item_tooltips_under`) instead of relying on every model to escape them.

The filter used to watch the whole application: then every event of every widget — each
paint, resize and layout request — was a call from Qt into Python, and while a job runs Python
beside the GUI thread each such call waits for the interpreter lock (a fifth of the calls from
Qt into Python while a 100-event Inkognito file opened, tests/benchmarks/bench_open_stall.py).
On the viewports it sees their events alone.
"""
from __future__ import annotations

import html

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QApplication


def esc(text) -> str:
    """``text`` escaped for rich text (``<``, ``>``, ``&``; quotes are kept)."""
    return html.escape(str(text), quote=False)


def as_rich_plain(text: str) -> str:
    """Plain ``text`` as rich text that shows it literally (line breaks kept), for widgets
    that guess the format (tooltips, message boxes); "" stays "" (no tooltip)."""
    if not text:
        return ""
    return ("<p style='white-space:pre-wrap'>" + esc(text) + "</p>")


#: Read once: this filter sees every event of the application, and an enum member looked up
#: through Shiboken's namespace costs about 0.4 µs per access.
_TOOLTIP = QEvent.Type.ToolTip


class _PlainItemTips(QObject):
    """Shows an item view's or header's ``ToolTipRole`` text literally (module docstring)."""

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 (Qt name)
        if event.type() != _TOOLTIP:
            return False
        # imported at the first tooltip: the window's first frame needs none of these classes
        from PySide6.QtCore import Qt
        from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QToolTip

        view = obj.parent() if hasattr(obj, "parent") else None
        if not isinstance(view, QAbstractItemView) or view.viewport() is not obj \
                or view.model() is None:
            return False
        pos = event.pos()
        if isinstance(view, QHeaderView):
            section = view.logicalIndexAt(pos)
            text = view.model().headerData(section, view.orientation(),
                                           Qt.ItemDataRole.ToolTipRole) if section >= 0 else None
        else:
            index = view.indexAt(pos)
            text = index.data(Qt.ItemDataRole.ToolTipRole) if index.isValid() else None
        if isinstance(text, str) and text:
            QToolTip.showText(event.globalPos(), as_rich_plain(text), obj)
        else:
            QToolTip.hideText()
            event.ignore()
        return True


_filter = None
#: The dynamic property that marks a viewport whose tooltips the filter shows.
MARK = "plainItemTips"


def install_plain_item_tooltips(app: QApplication = None) -> None:
    """Make the one filter of item-view tooltips (once), owned by the application; it watches
    nothing until :func:`plain_item_tooltips` puts it on a view."""
    global _filter
    app = app or QApplication.instance()
    if _filter is None and app is not None:
        _filter = _PlainItemTips(app)


def plain_item_tooltips(view):
    """Show the item tooltips of ``view`` (a ``QAbstractItemView``) and of its headers
    literally: the filter on their viewports, once each. Returns ``view``."""
    from PySide6.QtWidgets import QTableView, QTreeView

    install_plain_item_tooltips()
    if _filter is None:
        return view
    views = [view]
    if isinstance(view, QTableView):
        views += [view.horizontalHeader(), view.verticalHeader()]
    elif isinstance(view, QTreeView):
        views.append(view.header())
    for v in views:
        port = v.viewport()
        if port is not None and not port.property(MARK):
            port.installEventFilter(_filter)
            port.setProperty(MARK, True)
    return view


def plain_item_tooltips_under(root) -> None:
    """:func:`plain_item_tooltips` for every item view below ``root`` (a tab just built)."""
    from PySide6.QtWidgets import QAbstractItemView

    for view in root.findChildren(QAbstractItemView):
        plain_item_tooltips(view)
