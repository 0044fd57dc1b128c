"""Every keyboard shortcut of the window, read from the window itself (Help → Keyboard
shortcuts, a page of the guide: :mod:`desktop.shell.guide`).

The list is generated from the window's ``QAction`` s (menus and window actions: their text and
every key sequence) and its ``QShortcut`` s (the tabs' quick entry keys, Ctrl+L and ``/``, with
their ``whatsThis``), so it cannot drift from what the keys do; the keys that act inside a
widget rather than through an action (arrow keys in a worksheet, the menu key, Delete, Esc)
are listed from :data:`WIDGET_KEYS`.
"""
from __future__ import annotations

import html

from PySide6.QtGui import QAction, QKeySequence, QShortcut

from engines.core.i18n import N_, _

#: Keys handled by widgets themselves (no QAction to read them from).
WIDGET_KEYS = [
    (N_("Arrow keys"), N_("Move in a worksheet")),
    (N_("Menu key / Shift+F10"), N_("Cell menu (add or remove a fact, Why?)")),
    (N_("Delete"), N_("Remove the selected history entry")),
    (N_("Esc"), N_("Back to the current beliefs; in quick entry: clear the line")),
    (N_("Tab / ↓ (quick entry)"), N_("Take a completion")),
    (N_("Enter (quick entry)"), N_("Log the typed event, also while the completion list is open")),
]


def _native(seq: QKeySequence) -> str:
    return seq.toString(QKeySequence.SequenceFormat.NativeText)


def shortcut_rows(window) -> list[tuple[str, str]]:
    """``[(keys, what)]`` of every action and shortcut of ``window`` that has a key, in menu
    order, then the window's other actions, the shortcuts and :data:`WIDGET_KEYS`."""
    rows: list[tuple[str, str]] = []
    seen: set = set()

    def add_action(act: QAction, where: str = "") -> None:
        keys = [k for k in act.shortcuts() if not k.isEmpty()]
        if not keys or id(act) in seen:
            return
        seen.add(id(act))
        what = act.text().replace("&&", "\0").replace("&", "").replace("\0", "&").rstrip("…. ")
        rows.append((" / ".join(_native(k) for k in keys), f"{where}{what}"))

    def walk(menu, where):
        for act in menu.actions():
            if act.menu() is not None:
                walk(act.menu(), where + act.menu().title().replace("&", "") + " ▸ ")
            else:
                add_action(act, where)

    bar = window.menuBar()
    for top in bar.actions():
        if top.menu() is not None:
            walk(top.menu(), top.menu().title().replace("&", "") + " ▸ ")
    for act in window.findChildren(QAction):
        add_action(act)
    keys_seen = set()
    for sc in window.findChildren(QShortcut):
        key = _native(sc.key())
        if key and key not in keys_seen:
            keys_seen.add(key)
            rows.append((key, sc.whatsThis() or _("Shortcut")))
    rows += [(_(k), _(v)) for k, v in WIDGET_KEYS]
    return rows


def shortcuts_html(window) -> str:
    """The rows of :func:`shortcut_rows` as an HTML table (names escaped)."""
    body = "".join(f"<tr><td><b>{html.escape(k)}</b></td><td>&nbsp;&nbsp;{html.escape(v)}</td></tr>"
                   for k, v in shortcut_rows(window))
    return f"<table cellspacing='2'>{body}</table>"
