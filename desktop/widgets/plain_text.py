"""Text from a session (player, card and location names, notes) shown literally.

Qt guesses whether a label's, tooltip's or message box's text is rich text from its first
tag (``Qt::mightBeRichText``), so a name such as ``<img src=x>`` would be drawn as a
picture. Rich text built by the desktop escapes every such name with :func:`esc`; plain text
that may start with a name goes through :func:`as_rich_plain`. Item views' tooltips
(``Qt.ItemDataRole.ToolTipRole`` of every model, all plain text) are shown through
:func:`install_plain_item_tooltips`, one event filter on every item view's viewport (headers,
combo boxes' and completers' pop-ups, dialogs' lists included), instead of relying on every
model to escape them. The filter is put on each view as the style polishes it
(:mod:`desktop.widgets.polish_hook`), not on the application: an application-wide filter in
Python would be called for every event of every widget.
"""
from __future__ import annotations

import html

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QAbstractItemView, QApplication, QWidget

from desktop.widgets.polish_hook import on_polish


def esc(text) -> str:
    """``text`` escaped for rich text (``<``, ``>``, ``&``; quotes are kept)."""
    return html.escape(str(text), quote=False)


def as_rich_plain(text: str) -> str:
    """Plain ``text`` as rich text that shows it literally (line breaks kept), for widgets
    that guess the format (tooltips, message boxes); "" stays "" (no tooltip)."""
    if not text:
        return ""
    return ("<p style='white-space:pre-wrap'>" + esc(text) + "</p>")


#: Read once: this filter sees every event of every item view's viewport, and an enum member
#: looked up through Shiboken's namespace costs about 0.4 µs per access.
_TOOLTIP = QEvent.Type.ToolTip


class _PlainItemTips(QObject):
    """Shows an item view's or header's ``ToolTipRole`` text literally (module docstring);
    installed on the views' viewports."""

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 (Qt name)
        if event.type() != _TOOLTIP:
            return False
        # imported at the first tooltip: the window's first frame needs none of these classes
        from PySide6.QtCore import Qt
        from PySide6.QtWidgets import QHeaderView, QToolTip

        view = obj.parent() if isinstance(obj, QWidget) else None   # not a stale wrapper
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


def _filter_view(widget: QWidget) -> None:
    """The polish hook: ``widget``'s viewport gets the filter if it is an item view (Qt
    keeps one copy of a filter installed twice on the same object)."""
    if isinstance(widget, QAbstractItemView):
        widget.viewport().installEventFilter(_filter)


def install_plain_item_tooltips(app: QApplication = None) -> None:
    """Put the tooltip filter on the viewport of every item view of ``app`` (the running
    application by default), those that exist and those made later (once; module doc)."""
    global _filter
    app = app or QApplication.instance()
    if app is None:
        return
    if _filter is None:
        _filter = _PlainItemTips(app)
    on_polish(_filter_view, app)
