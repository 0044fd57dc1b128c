"""The contradiction banner's *Fix…* and *Remove…*: a correction is reviewed before it is applied.

The banner (:mod:`desktop.tabs.diagnosis`) lists the corrections the engine's diagnosis
found (:mod:`engines.core.diagnosis`). Nothing is applied by a click on them:

* *Fix…* opens :class:`FixEntryDialog`: the entry in **its game's own form** — the form that
  logs that kind of entry, in edit mode (:mod:`desktop.tabs.entry_forms`; a small form of
  its fields for an entry that only comes from a worksheet click) — filled with the entry as
  logged and the suggested field changed, that field outlined and named, and the other
  corrections of the same entry one click away. *Edit as text…* shows the entry as one line
  of the game's typed-entry grammar instead (``format_event`` writes it, ``parse`` reads it
  back, docs/quick-entry.md), with completion and the entry in words as it is typed. OK
  replaces the entry (one undoable command, ``SessionDocument.replace_event``) once the
  engine's checks accept it (a bad field keeps the dialog open, naming it); Cancel changes
  nothing. The forms and the grammar run no inference (nothing heavy on the GUI thread).
* *Remove…* opens :class:`RemovalPreviewDialog`: the game's own tab, read-only, showing the log
  without the entry; its beliefs are computed in the background by that tab's
  :class:`desktop.tabs.controller.GameController` and rendered from the snapshot it publishes, like
  every other state. *Remove #n* then removes the entry (one undoable command); Cancel changes
  nothing.
"""
from __future__ import annotations

import html
import re
from typing import Any, Optional, Sequence

from PySide6.QtCore import QEvent, QObject, QStringListModel, Qt, QTimer
from PySide6.QtWidgets import (
    QApplication,
    QButtonGroup,
    QCompleter,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QFrame,
    QLabel,
    QLineEdit,
    QRadioButton,
    QScrollArea,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from desktop.shell.appearance import muted_css, scheme_style, tone_style
from desktop.table.zoom import scaled_size
from desktop.tabs.snapshot import Status
from engines.core.errors import SessionFormatError
from engines.core.i18n import _


def changed_span(before: str, after: str) -> tuple[int, int]:
    """The part of ``after`` that differs from ``before`` (common beginning and end left out),
    widened to whole words: ``(start, end)`` indices into ``after`` (``start == end`` when
    ``after`` only lost characters). ``changed_span("missing = 1", "missing = 0") == (10, 11)``.
    """
    n = min(len(before), len(after))
    lo = 0
    while lo < n and before[lo] == after[lo]:
        lo += 1
    hi = 0
    while hi < n - lo and before[-1 - hi] == after[-1 - hi]:
        hi += 1
    start, end = lo, len(after) - hi
    while start > 0 and (after[start - 1].isalnum() or after[start - 1] in "'-"):
        start -= 1
    while end < len(after) and (after[end].isalnum() or after[end] in "'-"):
        end += 1
    return start, max(start, end)


def changed_fields(before, after, field: Optional[str] = None) -> list[str]:
    """The fields of entry ``after`` that differ from ``before`` (their JSON forms' keys, in
    order; ``"type"`` when the kind of entry changed), ``field`` (a correction's :attr:`Edit.field`) first when
    given: ``changed_fields(ShownEvent(player="Bob", card="Library"), ShownEvent(player="Ann", card="Library")) ==
    ["player"]``."""
    a, b = before.to_json(), after.to_json()
    out = [field] if field else []
    out += [k for k in b if a.get(k) != b[k] and k not in out]
    return out


class FixEntryDialog(QDialog):
    """The form of log entry ``index``, filled with a suggested correction (module docstring).

    Args:
        module: the game's engine module (``format_event``, ``parse``, ``preview``,
            ``complete``, ``describe_event``, ``event_from_json``).
        setup: the game's setup. events: the whole log (a sequence of events).
        index: 0-based index of the entry to fix.
        corrections: the diagnosis's corrections of this entry that change a field
            (:class:`engines.core.diagnosis.Edit` with an ``event``), likeliest first.
        chosen: the correction filled in first (an index into ``corrections``).

    The entry is shown in the game's own form (:attr:`editor`, an
    :class:`desktop.tabs.entry_forms.EntryEditor`: the form that logs that kind of entry, in
    edit mode) filled with the chosen correction, the changed field outlined and named; *Edit
    as text…* switches to the entry's line in the game's quick-entry grammar (:attr:`line`), the
    only page for a game without forms. The entry is read in the context of the entries before
    it (``events[:index]``), as it was when logged. The dialog is accepted only when the page
    shown holds a valid entry (:meth:`entry`: the engine's own checks, as when logging), and
    :attr:`result_event` is then that entry. Sources: the typed-entry grammar of each game
    (docs/quick-entry.md); the corrections of :mod:`engines.core.diagnosis`.
    """

    def __init__(self, module, setup, events: Sequence, index: int,
                 corrections: Sequence, chosen: int = 0, parent: Optional[QWidget] = None):
        super().__init__(parent)
        self.module, self.setup, self.index = module, setup, index
        self.before = list(events[:index])
        self.original = events[index]
        self.corrections = [c for c in corrections if c.event is not None]
        self.result_event: Any = None
        self._chosen: Optional[int] = None
        self.setWindowTitle(_("Fix entry #{n}").format(n=index + 1))
        self.setObjectName("fixEntryDialog")
        lay = QVBoxLayout(self)
        logged = QLabel(_("As logged: {entry}").format(entry=f"<b>{html.escape(self._describe(self.original))}</b>"))
        logged.setWordWrap(True)
        lay.addWidget(logged)
        self.choices = QButtonGroup(self)
        if self.corrections:
            lay.addWidget(QLabel(_("Suggested corrections (each makes the log consistent again):")))
            box = QWidget()
            blay = QVBoxLayout(box)
            blay.setContentsMargins(0, 0, 0, 0)
            for k, c in enumerate(self.corrections):
                # the correction in a few words; the entry it gives is written under the list
                # (wrapped) and in the tooltip
                b = QRadioButton(c.text)
                b.setToolTip(f"{self._describe(c.event)}\n{self._line(c.event)}")
                self.choices.addButton(b, k)
                blay.addWidget(b)
            lay.addWidget(_scroll_if_long(box, len(self.corrections)))
            self.choices.idClicked.connect(self.choose)
        self.gives = QLabel()
        self.gives.setObjectName("fixEntryGives")
        self.gives.setWordWrap(True)
        self.gives.setTextFormat(Qt.PlainText)
        self.gives.setVisible(bool(self.corrections))
        lay.addWidget(self.gives)
        self.editor = self._make_editor()
        self._editor_kind = type(self.original)
        self.pages = QStackedWidget()
        if self.editor is not None:
            self.pages.addWidget(self.editor)
        self.pages.addWidget(self._text_page())
        lay.addWidget(self.pages, 1)
        self.problem = QLabel()
        self.problem.setObjectName("fixEntryProblem")
        self.problem.setWordWrap(True)
        self.problem.setTextFormat(Qt.PlainText)
        self.problem.hide()
        lay.addWidget(self.problem)
        self.buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        self.buttons.button(QDialogButtonBox.Ok).setText(_("Replace #{n}").format(n=index + 1))
        self.text_button = None
        if self.editor is not None:
            self.text_button = self.buttons.addButton(_("Edit as text…"),
                                                      QDialogButtonBox.ActionRole)
            self.text_button.setCheckable(True)
            self.text_button.setToolTip(_("The entry as one line of the game's quick-entry "
                                          "grammar instead of its form"))
            self.text_button.toggled.connect(self.show_text)
        self.buttons.accepted.connect(self._accept)
        self.buttons.rejected.connect(self.reject)
        lay.addWidget(self.buttons)
        scaled_size(self, min_width=560)   # pixels at 100 %, times the zoom
        if self.corrections:
            chosen = min(max(chosen, 0), len(self.corrections) - 1)
            self.choices.button(chosen).setChecked(True)
            self.choose(chosen)
        else:
            self.line.setText(self._line(self.original))

    def _make_editor(self):
        from desktop.tabs.entry_forms import editor_for

        if not hasattr(self.module, "event_from_json"):
            return None
        try:
            return editor_for(self.module, self.setup, self.before, self.original)
        except SessionFormatError:
            return None

    def showEvent(self, event) -> None:  # noqa: N802 (Qt's method name)
        super().showEvent(event)
        QTimer.singleShot(0, self, self._fit_height)

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt's method name)
        super().resizeEvent(event)
        if self.isVisible() and event.size().width() != event.oldSize().width():
            QTimer.singleShot(0, self, self._fit_height)

    def _fit_height(self) -> None:
        """Give each word-wrapped label the height its text needs at its width (a window's
        layout sizes them for one line more or less than they wrap to at a large zoom), then
        grow the dialog to its layout's need, within the screen."""
        for label in self.findChildren(QLabel):
            if label.wordWrap() and label.isVisible() and label.width() > 0:
                need = label.heightForWidth(label.width())
                if need != label.minimumHeight():
                    label.setMinimumHeight(need)
        need = self.layout().totalMinimumSize().height()
        screen = self.screen() or QApplication.primaryScreen()
        avail = screen.availableGeometry() if screen is not None else None
        if avail is not None:
            need = min(need, avail.height() - 48)
        if need > self.height():
            self.resize(self.width(), need)
        if avail is not None and self.isVisible():
            # a dialog grown (or placed) past the screen's edge comes back whole
            frame = self.frameGeometry()
            x = min(max(frame.x(), avail.x()), max(avail.x(), avail.right() + 1 - frame.width()))
            y = min(max(frame.y(), avail.y()), max(avail.y(), avail.bottom() + 1 - frame.height()))
            if (x, y) != (frame.x(), frame.y()):
                self.move(x, y)

    def _editor_holds(self, event) -> bool:
        """Make :attr:`editor` the form of ``event``'s kind (another kind of entry, e.g. typed
        as text, gets its own form in place of the old one); False when it has none."""
        if type(event) is self._editor_kind:
            return True
        from desktop.tabs.entry_forms import editor_for

        try:
            editor = editor_for(self.module, self.setup, self.before, event)
        except SessionFormatError:
            editor = None
        if editor is None:
            return False
        old, self.editor, self._editor_kind = self.editor, editor, type(event)
        shown = self.pages.currentWidget() is old
        self.pages.insertWidget(0, editor)
        self.pages.removeWidget(old)
        old.deleteLater()
        if shown:
            self.pages.setCurrentWidget(editor)
        return True

    def _text_page(self) -> QWidget:
        page = QWidget()
        form = QFormLayout(page)
        form.setContentsMargins(0, 0, 0, 0)
        self.line = QLineEdit()
        self.line.setObjectName("fixEntryLine")
        self.line.setToolTip(_("The entry as one line of the game's quick-entry grammar (F1, "
                               "“Quick entry”). Names: any unique prefix of any word; ↓ completes."))
        form.addRow(_("Entry #{n}:").format(n=self.index + 1), self.line)
        self.words = QLabel()
        self.words.setWordWrap(True)
        self.words.setTextFormat(Qt.PlainText)
        form.addRow("", self.words)
        self._model = QStringListModel(self)
        completer = QCompleter(self._model, self)
        completer.setCaseSensitivity(Qt.CaseInsensitive)
        completer.setCompletionMode(QCompleter.UnfilteredPopupCompletion)
        self.line.setCompleter(completer)
        self.line.textChanged.connect(self._update_words)
        self.line.textEdited.connect(self._complete)
        return page

    # -- the entry -------------------------------------------------------------------------
    def _describe(self, event) -> str:
        return self.module.describe_event(self.setup, event)

    def _line(self, event) -> str:
        return self.module.format_event(self.setup, event)

    def text_shown(self) -> bool:
        """Whether the typed line is the page shown (else the game's form)."""
        return self.pages.currentWidget() is not self.editor

    def choose(self, k: int) -> None:
        """Fill the form with correction ``k``: the entry with the suggested field changed,
        that field outlined (the form) or selected (the typed line), and the keyboard focus on
        it."""
        c = self.corrections[k]
        self._chosen = k
        self.problem.hide()
        self.line.setText(self._line(c.event))
        self.gives.setText("→ " + _("#{n} becomes: {entry}").format(n=self.index + 1, entry=self._describe(c.event)))
        if self.isVisible():
            QTimer.singleShot(0, self, self._fit_height)
        if self.editor is not None and self._editor_holds(c.event):
            self.editor.load(c.event)
            self.editor.mark(changed_fields(self.original, c.event, c.field), c.text)
        self._focus_changed()

    def _focus_changed(self) -> None:
        if not self.text_shown():
            self.editor.focus_changed()
            return
        k = self._chosen
        if k is not None and self.line.text() == self._line(self.corrections[k].event):
            start, end = changed_span(self._line(self.original), self.line.text())
            self.line.setFocus(Qt.OtherFocusReason)
            self.line.setSelection(start, end - start)
        else:
            self.line.setFocus(Qt.OtherFocusReason)

    def show_text(self, on: bool) -> None:
        """Show the typed line (``on``) or the game's form. The entry moves across: the line is
        written from the form's entry, the form filled from the line's (when they are valid;
        otherwise the page keeps what it held)."""
        if self.editor is None:
            return
        self.problem.hide()
        if on:
            try:
                event = self.editor.entry()
            except SessionFormatError:
                event = None
            if event is not None and (self._chosen is None or event
                                      != self.corrections[self._chosen].event):
                self.line.setText(self._line(event))
            self.pages.setCurrentIndex(1)
        else:
            try:
                event = self._parse_line()
            except SessionFormatError:
                event = None
            if event is not None and self._editor_holds(event):
                self.editor.load(event)
            self.pages.setCurrentIndex(0)
        if self.text_button is not None and self.text_button.isChecked() != on:
            self.text_button.blockSignals(True)
            self.text_button.setChecked(on)
            self.text_button.blockSignals(False)
        self._focus_changed()

    def selected_text(self) -> str:
        """The words selected in the typed line (the suggested field, when just filled in)."""
        return self.line.selectedText()

    def _parse_line(self):
        text = self.line.text()
        if not text.strip():
            raise SessionFormatError("$.text", _("the entry is empty"))
        return self.module.parse(self.setup, list(self.before), text)

    def entry(self):
        """The entry the page shown holds; raises :class:`SessionFormatError` naming the field
        or the word that is wrong."""
        if not self.text_shown():
            return self.editor.entry()
        return self._parse_line()

    def _update_words(self, text: str) -> None:
        try:
            words = self.module.preview(self.setup, list(self.before), text) if text.strip() \
                else ""
        except SessionFormatError as exc:
            tone_style(self.words, "#c62828")
            self.words.setText(exc.message)
            return
        scheme_style(self.words, muted_css if not words else str)   # str(): no style
        self.words.setText(f"→ {words}" if words else "")

    def _complete(self, text: str) -> None:
        try:
            items = self.module.complete(self.setup, list(self.before), text) if text.strip() \
                else []
        except SessionFormatError:
            items = []
        self._model.setStringList([s for s in items if s != text][:60])
        completer = self.line.completer()
        if items and self.line.hasFocus():
            completer.setCompletionPrefix("")
            completer.complete()
        else:
            completer.popup().hide()

    def message(self) -> str:
        """What the dialog says about the entry: why it was not replaced, else (typed line) the
        entry in words."""
        if not self.problem.isHidden():
            return self.problem.text()
        return self.words.text() if self.text_shown() else ""

    def _accept(self) -> None:
        try:
            self.result_event = self.entry()
        except SessionFormatError as exc:
            text = _("Not replaced: {reason}").format(reason=exc.message)
            if self.text_shown():
                tone_style(self.words, "#c62828", "; font-weight:bold")
                self.words.setText(text)
            else:
                tone_style(self.problem, "#c62828", "; font-weight:bold")
                self.problem.setText(text)
                self.problem.show()
            return
        self.accept()


def _scroll_if_long(box: QWidget, rows: int, most: int = 6) -> QWidget:
    """``box`` (a column of ``rows`` choices) in a scroll area showing ``most`` of them when
    there are more, so that the form below stays on a small screen; as wide as the choices
    (a sideways scroll bar only when they are wider than the screen)."""
    if rows <= most:
        return box
    area = QScrollArea()
    area.setWidget(box)
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.NoFrame)
    area.setHorizontalScrollBarPolicy(Qt.ScrollBarAsNeeded)
    lay = box.layout()
    step = lay.itemAt(0).widget().sizeHint().height() + lay.spacing()
    area.setFixedHeight(step * most - lay.spacing())
    want = box.sizeHint().width() + area.verticalScrollBar().sizeHint().width()
    screen = box.screen() or QApplication.primaryScreen()
    if screen is not None:
        want = min(want, screen.availableGeometry().width() - 80)
    area.setMinimumWidth(want)
    return area


def open_fix_dialog(tab, index: int, suggested=None) -> Optional[FixEntryDialog]:
    """Open the form of ``tab``'s entry ``index`` (0-based), filled with the correction whose
    event is ``suggested`` (or the entry's first correction); OK replaces the entry (one
    undoable command) unless the log changed meanwhile. Returns the dialog (window-modal,
    already open), or None for an engine without the typed-entry grammar (the suggested event
    then replaces the entry at once, undoable)."""
    doc = tab.controller.document
    if not 0 <= index < len(doc.events):
        return None
    module = doc.module
    if not all(hasattr(module, name) for name in ("format_event", "parse", "preview",
                                                   "complete")):
        if suggested is not None:
            tab.replace_event(index, suggested)
        return None
    diagnosis = getattr(tab.snapshot.conflict, "diagnosis", None)
    mine = [c for c in getattr(diagnosis, "corrections", ()) if c.entry == index
            and c.event is not None]
    if suggested is not None and all(c.event != suggested for c in mine):
        from engines.core.diagnosis import Edit
        mine.insert(0, Edit(index, "entry", None, suggested, 0.0, _("the suggested entry")))
    chosen = next((k for k, c in enumerate(mine) if c.event == suggested), 0)
    revision = doc.revision
    dialog = FixEntryDialog(module, doc.setup, list(doc.events), index, mine, chosen, tab)
    dialog.setAttribute(Qt.WA_DeleteOnClose)

    def done(result: int) -> None:
        if result == QDialog.Accepted and doc.revision == revision \
                and dialog.result_event != doc.events[index]:
            tab.replace_event(index, dialog.result_event)
        elif result == QDialog.Accepted and doc.revision != revision:
            tab.statusMessage.emit(_("Not replaced: the log changed while the form was open"))

    dialog.finished.connect(done)
    dialog.open()
    return dialog


class _ReadOnly(QObject):
    """An application event filter that keeps the preview's widgets from being edited: clicks,
    keys (but Escape, which closes the dialog), context menus and drops on them are dropped;
    hovering, tooltips and the mouse wheel still work."""

    BLOCKED = (QEvent.MouseButtonPress, QEvent.MouseButtonRelease, QEvent.MouseButtonDblClick,
               QEvent.KeyPress, QEvent.KeyRelease, QEvent.ContextMenu, QEvent.Drop,
               QEvent.ShortcutOverride)

    def __init__(self, root: QWidget):
        super().__init__(root)
        self.root = root

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 (Qt's method name)
        if event.type() in self.BLOCKED and isinstance(obj, QWidget) \
                and (obj is self.root or self.root.isAncestorOf(obj)):
            if event.type() in (QEvent.KeyPress, QEvent.ShortcutOverride) \
                    and event.key() == Qt.Key_Escape:
                return False
            return True
        return False


class RemovalPreviewDialog(QDialog):
    """The beliefs without log entry ``index`` of ``tab``, before it is removed (module
    docstring). :attr:`preview` is a second tab of the same game (read-only) holding the log
    without the entry; its controller computes the beliefs in the background and the tab
    renders the snapshot it publishes. Accepting removes the entry from ``tab``'s log (one
    undoable command) unless the log changed meanwhile."""

    def __init__(self, tab, index: int):
        super().__init__(tab)
        doc = tab.controller.document
        self.tab, self.index, self.revision = tab, index, doc.revision
        self.setObjectName("removalPreviewDialog")
        self.setWindowTitle(_("Remove entry #{n}?").format(n=index + 1))
        self.events = [e for j, e in enumerate(doc.events) if j != index]
        lay = QVBoxLayout(self)
        what = tab.module.describe_event(doc.setup, doc.events[index])
        self.head = QLabel()
        self.head.setWordWrap(True)
        lay.addWidget(self.head)
        self._what = f"#{index + 1} ({html.escape(what)})"
        self.preview = type(tab)()
        self.preview.setObjectName("removalPreview")
        if self.preview.quick_entry is not None:
            self.preview.quick_entry.hide()
        c = self.preview.controller
        c.set_options(tab.controller.options())
        meta = [m for j, m in enumerate(doc.meta) if j != index]
        c.reset(doc.setup, self.events, meta)
        self.preview.reset_views()
        c.snapshotChanged.connect(self._update_head)
        self._filter = _ReadOnly(self.preview)
        QApplication.instance().installEventFilter(self._filter)
        # in a scroll area: a tab whose least width is more than a small screen (or a large
        # zoom) leaves scroll bars, never a dialog wider than the screen
        self.scroll = QScrollArea()
        self.scroll.setObjectName("removalPreviewScroll")
        self.scroll.setFrameShape(QFrame.NoFrame)
        self.scroll.setWidgetResizable(True)
        self.scroll.setWidget(self.preview)
        lay.addWidget(self.scroll, 1)
        self.buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        self.buttons.button(QDialogButtonBox.Ok).setText(_("Remove #{n}").format(n=index + 1))
        self.buttons.button(QDialogButtonBox.Cancel).setText(_("Keep it"))
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        lay.addWidget(self.buttons)
        self.finished.connect(self._finish)
        size = tab.window().size()
        width, height = int(size.width() * 0.94), int(size.height() * 0.92)
        screen = tab.screen() or QApplication.primaryScreen()
        if screen is not None:      # the frame (title bar, borders) inside the screen too
            avail = screen.availableGeometry()
            width, height = min(width, avail.width() - 24), min(height, avail.height() - 48)
        self.resize(width, height)
        self._update_head(c.snapshot)
        QTimer.singleShot(0, lambda: self.buttons.button(QDialogButtonBox.Cancel).setFocus())

    def snapshot(self):
        """The preview's :class:`desktop.tabs.snapshot.Snapshot` (what it shows)."""
        return self.preview.snapshot

    def _update_head(self, snap) -> None:
        if snap.status is Status.READY and snap.live:
            state = _("the log is consistent again. These are its beliefs")
        elif snap.status is Status.CONTRADICTION:
            state = _("the log is still impossible (the banner below says why)")
        elif snap.status in (Status.ERROR, Status.CANCELLED):
            state = _("its beliefs could not be computed")
        else:
            state = _("computing its beliefs…")
        self.head.setText(_("<b>Preview</b> — without {entry}, {state}. Nothing is changed until you "
                            "press <i>Remove #{n}</i>; it can be undone (Ctrl+Z).").format(
            entry=self._what, state=state, n=self.index + 1))
        # the entry goes only after its absence was seen
        self.buttons.button(QDialogButtonBox.Ok).setEnabled(snap.status is not Status.COMPUTING)

    def head_text(self) -> str:
        """The line above the preview, as plain text."""
        return re.sub(r"<[^>]+>", "", self.head.text())

    def _finish(self, result: int) -> None:
        QApplication.instance().removeEventFilter(self._filter)
        self.preview.shutdown()
        doc = self.tab.controller.document
        if result != QDialog.Accepted:
            return
        if doc.revision != self.revision:
            self.tab.statusMessage.emit(_("Not removed: the log changed while the preview was open"))
            return
        self.tab.remove_event(self.index)


def open_removal_preview(tab, index: int) -> Optional[RemovalPreviewDialog]:
    """Open the preview of ``tab``'s log without entry ``index`` (window-modal, already open);
    None when there is no such entry."""
    if not 0 <= index < len(tab.controller.document.events):
        return None
    dialog = RemovalPreviewDialog(tab, index)
    dialog.setAttribute(Qt.WA_DeleteOnClose)
    dialog.open()
    return dialog
