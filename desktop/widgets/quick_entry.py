"""The quick-entry line of every tab: an event typed as one line, in the game's grammar.

The grammar is the engine's (``engines.<game>.parse``; docs/quick-entry.md): the widget only
reads the line with the engine's pure functions on the GUI thread — ``parse`` and
``describe_event`` (the event in words, as ``preview`` gives it, shown under the line while
typing; a line that parses is also checked against the log before Enter), ``complete`` (whole-line completions
of the last word, offered by a :class:`QCompleter`; Tab or ↓ takes one) — all microseconds, no
inference. Enter on a complete line logs it even while the completion list is open; Enter
emits :attr:`QuickEntry.entered` with the parsed event; the tab checks it against the log in
the background (``contradiction`` may run the engine) and logs it as one undoable command, or
calls :meth:`QuickEntry.show_refused` with the reason. Enter on the same refused line again
logs it anyway (a deliberate correction: the contradiction banner then offers Undo). Escape
clears the line; a line the grammar cannot read shows the engine's message (the unknown or
ambiguous word and its candidates) and logs nothing.
"""
from __future__ import annotations

from typing import Any, Optional

from PySide6.QtCore import QEvent, QObject, QStringListModel, Qt, Signal
from PySide6.QtWidgets import (
    QApplication,
    QCompleter,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop.shell.appearance import muted, muted_css, scheme_style, tone
from engines.core.errors import SessionFormatError
from engines.core.i18n import N_, _
from engines.registry import registered_games

_MAX_COMPLETIONS = 60
#: The hint under an empty line; ``{examples}`` is " (plum, rop, hal)": prefixes that work in
#: this game (:func:`prefix_examples`), or "" where none could be shown.
IDLE_HINT = N_("Names: any unique prefix of any word{examples}.  Tab or ↓ picks a "
               "completion, Enter logs, Escape clears.")


#: The empty line's placeholder; ``{example}`` is the game's example line.
PLACEHOLDER = N_("type an event, e.g.  {example}   (Ctrl+L or /)")


def prefix_examples(module, setup, events, example: str, limit: int = 3) -> list[str]:
    """Up to ``limit`` short prefixes that stand for whole words in this game: for each word
    of four letters or more in the lines of ``example`` (the game's
    :attr:`engines.registry.GameInfo.example`, lines separated by "·"), its first three
    letters, kept when the line with the prefix parses to the same event as the line with the
    word (so a hint never shows a prefix the game would refuse or read as another name). []
    when none does."""
    found: list[str] = []
    for line in example.split("·"):
        try:
            whole = module.parse(setup, events, line.strip())
        except SessionFormatError:
            continue
        words = line.split()
        for i, word in enumerate(words):
            bare = word.strip(",;:?!.")
            if len(bare) < 4 or not bare.isalpha() or bare[:3] in found:
                continue
            prefix = bare[:3]
            shorter = " ".join(words[:i] + [word.replace(bare, prefix, 1)] + words[i + 1:])
            try:
                same = module.parse(setup, events, shorter) == whole
            except SessionFormatError:
                same = False
            if same:
                found.append(prefix)
                if len(found) == limit:
                    return found
    return found


class _Line(QLineEdit):
    """The line edit: Escape clears it (after closing an open completion list)."""

    escaped = Signal()

    def keyPressEvent(self, event):  # noqa: N802 (Qt name)
        if event.key() == Qt.Key_Escape:
            popup = self.completer().popup() if self.completer() else None
            if popup is not None and popup.isVisible():
                popup.hide()
            else:
                self.escaped.emit()
            event.accept()
            return
        super().keyPressEvent(event)


class QuickEntry(QWidget):
    """A line edit for one typed event with completion, a live preview and inline errors.

    Args:
        module: the game's engine module, a
            :class:`engines.core.contract.QuickEntryEngine` (``parse``, ``preview``,
            ``complete``); the tab builds no quick entry for an engine without them.
        document: the :class:`desktop.storage.document.SessionDocument` (its ``setup`` and ``events``
            are read at every keystroke: the grammar depends on them).

    Signals:
        entered(object event, bool force): Enter on a line that parses; ``force`` is True when
            the same line was refused just before (log it anyway).
        lineParsed(object event): the line as typed so far is a whole event (the tab may check
            it against the log before Enter is pressed).
    """

    entered = Signal(object, bool)
    lineParsed = Signal(object)

    def __init__(self, module, document, parent: Optional[QWidget] = None):
        super().__init__(parent)
        self.module = module
        self.document = document
        self._refused = ""      # the line last refused (Enter again logs it anyway)
        self._idle_prompt = ""  # what the tab asks for first, shown instead of the idle hint
        self._hint_setup, self._hint = None, ""   # the idle hint and the setup it is for
        self._example_setup, self._setup_example_text = None, ""   # the example line, likewise
        #: Whether the player moved in the completion list since the last keystroke.
        self.completion_chosen = False
        self._message = ""
        self._busy = False
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(2)
        info = registered_games().get(module.GAME)   # the game's example line (its GameInfo)
        self._example = _(info.example) if info is not None and info.example else ""   # N_ in the registry
        lay.addLayout(self._build_line(self._example))
        self.preview = QLabel()
        self.preview.setObjectName("quickEntryPreview")
        self.preview.setWordWrap(True)
        self.preview.setTextFormat(Qt.PlainText)
        self.preview.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self._set_preview("", "")
        lay.addWidget(self.preview)   # always shown (a hint when idle): typing never shifts the tab
        self._build_completer()
        # the example and the hint follow the setup (another edition's card names, New game)
        document.setupReplaced.connect(self._setup_changed)
        document.documentReset.connect(self._setup_changed)
        self.line.textEdited.connect(self._on_edited)
        self.line.textChanged.connect(self._update_preview)
        self.line.returnPressed.connect(self.submit)
        self.line.escaped.connect(self.clear)

    def _build_line(self, example: str) -> QHBoxLayout:
        """The labelled line (Alt+Q), its placeholder showing ``example`` (the registry's
        :attr:`engines.registry.GameInfo.example`)."""
        row = QHBoxLayout()
        label = QLabel(_("&Quick entry:"))
        row.addWidget(label)
        self.line = _Line()
        label.setBuddy(self.line)
        self.line.setObjectName("quickEntry")
        self.line.setClearButtonEnabled(True)
        # the clear button is Qt's own, named after its action (else a screen reader finds a
        # button without a name)
        for button in self.line.findChildren(QToolButton):
            button.setAccessibleName(_("Clear"))
            button.setToolTip(_("Clear the line"))
        self.line.setPlaceholderText(_(PLACEHOLDER).format(example=example))
        self.line.setToolTip(_("Type an event as one line and press Enter to log it (one undo "
                               "step). Names: any unique prefix of any word, any case. ↓ "
                               "completes, Escape clears. The grammar is in the guide (F1), "
                               "“Quick entry”."))
        row.addWidget(self.line, 1)
        return row

    def _build_completer(self) -> None:
        """The completions popup under the line (filled as the player types)."""
        self._model = QStringListModel(self)
        self.completer = QCompleter(self._model, self)
        self.completer.setCaseSensitivity(Qt.CaseInsensitive)
        self.completer.setCompletionMode(QCompleter.UnfilteredPopupCompletion)
        self.completer.setMaxVisibleItems(12)
        self.line.setCompleter(self.completer)
        # installed after the completer's own filter, so it sees the popup's keys first
        self._popup_keys = _PopupKeys(self)
        self.completer.popup().installEventFilter(self._popup_keys)

    # -- state ----------------------------------------------------------------------------
    def text(self) -> str:
        return self.line.text()

    def focus(self) -> None:
        """Put the keyboard focus in the line, its text selected (Ctrl+L, /)."""
        self.line.setFocus(Qt.ShortcutFocusReason)
        self.line.selectAll()

    def clear(self) -> None:
        """Empty the line and the preview (Escape)."""
        self._refused = ""
        self._busy = False
        self.line.clear()
        self._set_preview("", "")

    def parse(self, text: Optional[str] = None) -> Any:
        """The event of ``text`` (default: the line). Raises :class:`SessionFormatError`."""
        doc = self.document
        return self.module.parse(doc.setup, list(doc.events), self.text() if text is None else text)

    # -- typing ---------------------------------------------------------------------------
    def _on_edited(self, text: str) -> None:
        self._refused = ""
        # no completion chosen until the player moves in the list (↓, ↑, Page keys): the row Qt
        # highlights by itself is not a choice, so Enter on a line that does not parse (an
        # ambiguous "rev": Reverend Green or Revolver) says why instead of taking it
        self.completion_chosen = False
        doc = self.document
        try:
            items = self.module.complete(doc.setup, list(doc.events), text) if text.strip() else []
        except SessionFormatError:
            items = []
        items = [s for s in items if s != text][:_MAX_COMPLETIONS]
        self._model.setStringList(items)
        if items and self.line.hasFocus():
            self.completer.setCompletionPrefix("")
            self.completer.complete()
        else:
            self.completer.popup().hide()

    def _update_preview(self, text: str) -> None:
        if self._busy:
            return
        if not text.strip():
            self._set_preview("", "")
            return
        # the engine's preview is describe_event of parse (engines/CONTRACT.md): parsed once
        # here, the event is also what the early check needs
        try:
            event = self.parse(text)
        except SessionFormatError as exc:
            self._set_preview(exc.message, "pending")
            return
        words = self.module.describe_event(self.document.setup, event)
        self._set_preview(f"→ {words}   " + _("(Enter logs it)"), "ok")
        self.lineParsed.emit(event)

    def _set_preview(self, text: str, kind: str) -> None:
        """kind: "" hidden, "ok" the event in words, "pending" what the line still lacks (grey),
        "error" a refused line (red), "busy" checking (grey)."""
        self.preview.setProperty("kind", kind)
        prompt = not text and bool(self._idle_prompt)

        def style(kind=kind, text=bool(text)) -> str:
            if prompt:        # the tab's question: in the text's colour, not greyed as a hint
                return f"color:{tone('#0d47a1')}; font-weight:normal"
            colour = {"ok": "palette(text)", "error": tone("#c62828")}.get(kind, muted().name())
            weight = "bold" if kind == "error" else "normal"
            return f"color:{colour}; font-weight:{weight}" if text else muted_css()

        scheme_style(self.preview, style)   # set again when the colour scheme changes
        self._message = text
        self.preview.setText(text or self.idle_hint())

    def set_idle_prompt(self, text: str) -> None:
        """Show ``text`` under the empty line instead of the hint (what the tab asks for first,
        e.g. Cluedo's "Start with your hand: …"); "" goes back to the hint. The line holds its
        place either way, so asking moves nothing."""
        if text == self._idle_prompt:
            return
        self._idle_prompt = text
        if not self.text().strip() and not self._busy and not self._message:
            self._set_preview("", "")

    def _setup_changed(self) -> None:
        self._setup_example()
        if not self.text().strip() and not self._busy and not self._message:
            self._set_preview("", "")

    def _setup_example(self) -> str:
        """The game's example line in the document's setup (a game may word it in the setup's
        names: Cluedo's German and French cards, ``example_for``), also shown as the empty
        line's placeholder; worked out once per setup."""
        doc = self.document
        if self._example_setup is not doc.setup:
            example_for = getattr(self.module, "example_for", None)
            try:
                example = example_for(doc.setup, self._example) if example_for else self._example
            except Exception:   # noqa: BLE001 - a hint must never stop the entry line
                example = self._example
            self._example_setup, self._setup_example_text = doc.setup, example
            self.line.setPlaceholderText(_(PLACEHOLDER).format(example=example))
        return self._setup_example_text

    def idle_hint(self) -> str:
        """The hint under an empty line, with prefixes that work in this game's setup."""
        doc = self.document
        example = self._setup_example()
        if self._idle_prompt:
            return self._idle_prompt
        if self._hint_setup is not doc.setup:     # worked out once per setup, not per clear
            try:
                examples = prefix_examples(self.module, doc.setup, list(doc.events), example)
            except Exception:   # noqa: BLE001 - a hint must never stop the entry line
                examples = []
            self._hint_setup = doc.setup
            self._hint = _(IDLE_HINT).format(examples=f" ({', '.join(examples)})" if examples else "")
        return self._hint

    def message(self) -> str:
        """The text under the line (the preview, the error or the refusal; "" when idle)."""
        return self._message

    # -- Enter ----------------------------------------------------------------------------
    def submit(self) -> None:
        """Enter: parse the line; a bad line shows the engine's message and logs nothing, a
        good one is emitted as :attr:`entered` (the tab checks and logs it). An open completion
        list does not stop a complete line: it closes and the line is logged."""
        self.completer.popup().hide()
        if self._busy:
            return
        text = self.text()
        if not text.strip():
            return
        try:
            event = self.parse(text)
        except SessionFormatError as exc:
            self._set_preview(_("Not logged: {reason}").format(reason=exc.message), "error")
            return
        force = bool(self._refused) and self._refused == text
        self._busy = True
        self._set_preview(_("checking against the log…"), "busy")
        self.entered.emit(event, force)

    def parses(self, text: str) -> bool:
        """Whether ``text`` is a complete line of the grammar."""
        try:
            self.parse(text)
        except SessionFormatError:
            return False
        return bool(text.strip())

    def accept_completion(self, row: int) -> None:
        """Put completion ``row`` in the line (Tab, or Enter on a highlighted completion of an
        incomplete line) and offer the completions of what follows."""
        items = self._model.stringList()
        self.completer.popup().hide()
        if 0 <= row < len(items):
            self.line.setText(items[row])
            self.line.setCursorPosition(len(items[row]))
            self._on_edited(items[row])

    def show_logged(self) -> None:
        """The tab logged the entered event: clear the line for the next one."""
        self._busy = False
        self.clear()

    def show_refused(self, reason: str) -> None:
        """The tab refused the entered event: show why; Enter again logs it anyway."""
        self._busy = False
        self._refused = self.text()
        self._set_preview(_("Not logged — it contradicts the log: {reason}. Press Enter again to "
                            "log it anyway, or Escape to clear.").format(reason=reason), "error")


class _PopupKeys(QObject):
    """The completion list's keys: Enter logs a complete line (the list closes), else takes
    the completion the player moved to (↓, ↑) or, with none, says why the line is not logged;
    Tab takes the highlighted completion, or the first."""

    def __init__(self, entry: QuickEntry):
        super().__init__(entry)
        self._entry = entry

    def eventFilter(self, obj, event):  # noqa: N802 (Qt name)
        if event.type() != QEvent.KeyPress or not obj.isVisible():
            return False
        entry, key = self._entry, event.key()
        row = obj.currentIndex().row() if obj.currentIndex().isValid() else -1
        if key in (Qt.Key_Up, Qt.Key_Down, Qt.Key_PageUp, Qt.Key_PageDown):
            entry.completion_chosen = True
            return False
        if key in (Qt.Key_Return, Qt.Key_Enter):
            if row >= 0 and entry.completion_chosen and not entry.parses(entry.text()):
                entry.accept_completion(row)
            else:
                entry.submit()
            return True
        if key == Qt.Key_Tab:
            entry.accept_completion(max(row, 0))
            return True
        return False


class EnterSubmits(QObject):
    """Enter (Return or the keypad's Enter) anywhere in ``form`` calls ``submit``: the form's
    combo boxes, check boxes, spin boxes and line edits pass Enter on to their parent, where
    this filter takes it. A focused push button keeps its own Enter (a form's other buttons
    must not log it), and an open combo box list takes Enter itself (a separate window).

    Use: ``EnterSubmits(form, form.submit)`` (the filter lives as long as ``form``).
    """

    def __init__(self, form: QWidget, submit):
        super().__init__(form)
        self._submit = submit
        form.installEventFilter(self)

    def eventFilter(self, obj, event):  # noqa: N802 (Qt name)
        if event.type() == QEvent.KeyPress and event.key() in (Qt.Key_Return, Qt.Key_Enter) \
                and not (event.modifiers() & ~Qt.KeypadModifier):
            if isinstance(QApplication.focusWidget(), QPushButton):
                return False
            if isinstance(obj, QWidget) and obj.isEnabled():
                self._submit()
                return True
        return False
