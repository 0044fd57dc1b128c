"""A logged entry in its game's own form, for *Fix…* (:mod:`desktop.tabs.entry_fix`).

Each game's forms module has an ``entry_editor(setup, before, event)`` that returns an
:class:`EntryEditor` for a logged entry: the form the player logs that kind of entry with
(Cluedo's suggestion form, Egghead's question / reactions / solve forms, Inkognito's answer
sheet, Guess Who?'s question and answer), put in *edit mode* (no Log button, nothing is
logged from it) and filled with the entry; entries that only come from clicks on a worksheet
(a Cluedo "has / does not have" cell, a knocked-down Guess Who? card) get a small form of their
fields here. ``before`` is the log before the entry (the form reads the entry in that
context, as when it was logged). The editor never runs inference: its choices come from the
setup and the log (the GUI thread stays free).

:meth:`EntryEditor.mark` outlines the widgets of the fields a correction changed
(``Edit.field``: ``"card"``, ``"answer"``, …), drawn over the form, and names them above it.
:meth:`EntryEditor.entry` builds the entry through the game's ``event_from_json``, so every
check the engine makes when an entry is logged also guards the edit; it raises
:class:`~engines.core.errors.SessionFormatError` naming the field.
"""
from __future__ import annotations

import html
from typing import Any, Iterable, Optional

from PySide6.QtCore import QEvent, QPoint, QRect, Qt
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QComboBox, QLabel, QVBoxLayout, QWidget

from desktop.shell.appearance import tone
from engines.core.i18n import N_, _

#: Width (px) of the outline drawn around a field a correction changed.
OUTLINE = 2


class _Outlines(QWidget):
    """A transparent layer over the editor that draws an orange frame around each changed
    field's widget. Drawn over the form, not through the widgets' style sheets: a widget keeps
    its own look and size (a style-sheet border would restyle a combo box or shrink a button's
    room for its text)."""

    def __init__(self, editor: QWidget):
        super().__init__(editor)
        self.setAttribute(Qt.WA_TransparentForMouseEvents)
        self.setAttribute(Qt.WA_NoSystemBackground)
        self.widgets: list = []

    def set_widgets(self, widgets) -> None:
        for w in self.widgets:
            w.removeEventFilter(self)
        self.widgets = list(widgets)
        for w in self.widgets:
            w.installEventFilter(self)
        self.refresh()

    def refresh(self) -> None:
        self.setGeometry(self.parentWidget().rect())
        self.raise_()
        self.update()

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 (Qt's method name)
        if event.type() in (QEvent.Move, QEvent.Resize, QEvent.Show, QEvent.Hide):
            self.refresh()
        return False

    def paintEvent(self, _event) -> None:  # noqa: N802 (Qt's method name)
        painter = QPainter(self)
        painter.setPen(QPen(QColor(tone("#e65100")), OUTLINE))
        painter.setBrush(Qt.NoBrush)
        parent = self.parentWidget()
        for w in self.widgets:
            if not w.isVisibleTo(parent):
                continue
            top_left = w.mapTo(parent, QPoint(0, 0))
            r = QRect(top_left, w.size()).adjusted(-OUTLINE, -OUTLINE, OUTLINE, OUTLINE)
            painter.drawRoundedRect(r, 3, 3)
        painter.end()


def combo_select(combo: QComboBox, value: Any, text: Optional[str] = None) -> None:
    """Select the item of ``combo`` whose data (else text) is ``value``; an unknown value is
    added (``text`` or ``str(value)``) so that an entry's own value can always be shown."""
    i = combo.findData(value)
    if i < 0 and isinstance(value, str):
        i = combo.findText(value)
    if i < 0:
        combo.addItem(text if text is not None else str(value), value)
        i = combo.count() - 1
    combo.setCurrentIndex(i)


class EntryEditor(QWidget):
    """A form holding one logged entry (module docstring).

    Subclasses implement :meth:`load` (fill the form from an event), :meth:`event_json` (the
    entry the form describes, as session JSON) and :meth:`field_widgets` (``{field name:
    [widgets]}`` for :meth:`mark`). ``module``: the game's engine module; ``setup``: its setup;
    ``before``: the log before the entry.
    """

    def __init__(self, module, setup, before, parent: Optional[QWidget] = None):
        super().__init__(parent)
        self.module, self.setup, self.before = module, setup, list(before)
        self.setObjectName("entryEditor")
        self.outer = QVBoxLayout(self)
        self.outer.setContentsMargins(0, 0, 0, 0)
        self.changed_note = QLabel()
        self.changed_note.setObjectName("entryEditorChanged")
        self.changed_note.setWordWrap(True)
        self.changed_note.hide()
        self.outer.addWidget(self.changed_note)
        self._marked: list = []
        self._outlines = _Outlines(self)

    # -- subclass ----------------------------------------------------------------------
    def load(self, event) -> None:
        """Fill the form with ``event``."""
        raise NotImplementedError

    def event_json(self) -> dict:
        """The entry the form describes, as session JSON (not validated)."""
        raise NotImplementedError

    def field_widgets(self) -> dict:
        """``{field name: [widgets]}``: where each field of the entry is edited."""
        return {}

    # -- shared ------------------------------------------------------------------------
    def entry(self):
        """The entry the form holds, validated by the game's ``event_from_json``; raises
        :class:`~engines.core.errors.SessionFormatError` naming what is wrong."""
        return self.module.event_from_json(self.event_json(), self.setup, "entry")

    def mark(self, fields: Iterable[str], text: str = "") -> None:
        """Outline the widgets of ``fields`` (the fields a correction changed) and say so above
        the form (``text``: the correction in words); no fields clears the marks."""
        self._marked = []
        widgets = self.field_widgets()
        names = []
        for f in fields:
            self._marked += [w for w in widgets.get(f, ()) if w not in self._marked]
            if f in widgets:
                names.append(_(FIELD_WORDS.get(f, f)))
        self._outlines.set_widgets(self._marked)
        if names:
            what = f" ({text})" if text else ""
            self.changed_note.setText(f"<span style='color:{tone('#e65100')}'><b>" + _("Changed:") + "</b> "
                                      f"{', '.join(names)}{html.escape(what)}</span> — " + _("outlined below"))
            self.changed_note.show()
        else:
            self.changed_note.hide()

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt's method name)
        super().resizeEvent(event)
        self._outlines.refresh()

    def marked_widgets(self) -> list:
        """The widgets outlined by :meth:`mark`."""
        return list(self._marked)

    def focus_changed(self) -> None:
        """Put the keyboard focus on the first outlined widget."""
        if self._marked:
            self._marked[0].setFocus()


#: A correction's field in words (Edit.field of the engines' diagnoses).
FIELD_WORDS = {"player": N_("player"), "card": N_("card"), "cards": N_("cards"), "shown": N_("card shown"),
               "refuter": N_("refuted by"), "passed": N_("who passed"), "correct": N_("accusation"),
               "answer": N_("answer"), "moderator": N_("moderator"), "question": N_("question"),
               "solved": N_("who solved"), "new_cards": N_("new cards"), "name": N_("character"),
               "remaining": N_("opponent's standing cards"), "opponent": N_("opponent"),
               "identities": N_("identities shown"), "builds": N_("builds shown"), "asked": N_("asked about"),
               "at": N_("position"), "total": N_("roll"), "type": N_("kind of entry"),
               "mission": N_("mission card"), "claim": N_("claim")}


def editor_for(module, setup, before, event) -> Optional[EntryEditor]:
    """The :class:`EntryEditor` of ``event`` in its game's form, filled with it; None for a
    game (or a kind of entry) without one (the dialog then offers the typed line only)."""
    import importlib

    game = getattr(module, "GAME", None)
    if not game:
        return None
    try:
        forms = importlib.import_module(f"desktop.games.{game}.forms")
    except ImportError:
        return None
    make = getattr(forms, "entry_editor", None)
    if make is None:
        return None
    editor = make(setup, list(before), event)
    if editor is not None:
        editor.outer.addStretch(1)      # room to spare goes under the form, not between its rows
        editor.load(event)
    return editor
