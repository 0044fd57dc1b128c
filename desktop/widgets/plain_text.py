"""Text from a session (player, card and location names, notes) shown literally.

Qt guesses whether a label's, tooltip's or message box's text is rich text from its first
tag (``Qt::mightBeRichText``), so a name such as ``<img src=x>`` would be drawn as a
picture. Rich text built by the desktop escapes every such name with :func:`esc`; plain text
that may start with a name goes through :func:`as_rich_plain`. Item views' tooltips
(``Qt.ItemDataRole.ToolTipRole`` of every model, all plain text) are shown through
:func:`install_plain_item_tooltips`, one application-wide event filter, instead of relying on
every model to escape them.
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


def install_plain_item_tooltips(app: QApplication = None) -> None:
    """Install the application-wide filter of item-view tooltips (once; see module doc)."""
    global _filter
    app = app or QApplication.instance()
    if _filter is None and app is not None:
        _filter = _PlainItemTips(app)
        app.installEventFilter(_filter)
