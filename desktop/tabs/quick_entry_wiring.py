"""The tab's quick-entry line: where it sits, its shortcuts, and where its entries go.

:func:`attach_quick_entry` builds the :class:`desktop.widgets.quick_entry.QuickEntry` of a
:class:`desktop.tabs.base.GameTab`, puts it where the banner sits in the tab's top layout (the
banner then floats over what follows, not over the line), binds Ctrl+L and ``/`` to it, and
sends what it enters through the tab's entry check (a forced entry is logged as typed); a line
that parses while it is typed is checked ahead of Enter (:meth:`desktop.tabs.checks.EntryChecks.prefetch`).
"""
from __future__ import annotations

from typing import Optional

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut

from desktop.widgets.quick_entry import QuickEntry
from engines.core.contract import has_capability
from engines.core.i18n import _


def make_quick_entry(tab) -> Optional[QuickEntry]:
    """The tab's quick-entry line, its entries wired to the tab (placed by
    :func:`place_quick_entry` once the tab's layout exists); None for an engine without the
    quick-entry capability (``parse``/``preview``/``complete``: a game that offers only the
    required functions still gets its tab, without the line)."""
    if not has_capability(tab.module, "quick_entry"):
        return None
    qe = QuickEntry(tab.module, tab.controller.document)

    def entered(event, force: bool) -> None:
        if force:
            if tab.log_event(event):   # False: the log is full (the tab said so)
                qe.show_logged()
            return
        tab.log_checked(event, refused=qe.show_refused, logged=qe.show_logged)

    qe.entered.connect(entered)
    qe.lineParsed.connect(tab.controller.checks.prefetch)
    return qe


def place_quick_entry(tab) -> None:
    """Put ``tab.quick_entry`` where ``tab.banner`` sits in the tab's top layout and bind
    Ctrl+L and ``/`` to it (only the visible tab's shortcuts are active)."""
    if tab.quick_entry is None:
        return
    root = tab.layout()
    at = root.indexOf(tab.banner) if root is not None else -1
    if root is not None and hasattr(root, "insertWidget"):
        root.insertWidget(at if at >= 0 else 0, tab.quick_entry)
    for key in ("Ctrl+L", "/"):
        sc = QShortcut(QKeySequence(key), tab)
        sc.setContext(Qt.WindowShortcut)
        sc.activated.connect(tab.quick_entry.focus)
        sc.setWhatsThis(_("Type an event in quick entry"))   # listed by desktop.shell.shortcuts
