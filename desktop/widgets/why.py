"""The Why? popup: why a ✓ or ✗ on a worksheet is certain, in words and entries.

A non-modal tool window over a tab: the fact and its status under the log (✓ certain, ✗ ruled
out, or not decided), the entries that force it on their own (an irreducible subset found by
the engine's ``explain``, :mod:`engines.core.explain`) as clickable rows, and the derivation
in words. The popup only shows; the tab asks its controller for the explanation (a background
task, cancellable) and highlights the same entries in the History panel while it is open.

Also here: :func:`conflict_html`, the contradiction banner's text naming an irreducible set of
entries that cannot all be true together, as links (``entry:<0-based index>``).
"""
from __future__ import annotations

import html
from typing import Callable, Optional, Sequence

from PySide6.QtCore import QPoint, QRect, QSize, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QFontMetrics, QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QProgressBar,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from desktop.shell.appearance import muted_css, muted_style, tone
from engines.core.i18n import N_, _, ngettext

#: status -> (mark, words, colour)
STATUS_LOOK = {
    "certain": ("✓", N_("Certain"), "#1b5e20"),
    "impossible": ("✗", N_("Ruled out"), "#b71c1c"),
    "uncertain": ("?", N_("Not decided"), "#6d4c00"),
}

#: Role of an entry row holding its event index (0-based).
EventIndexRole = Qt.ItemDataRole.UserRole + 1


def entry_link(index: int, text: str) -> str:
    """An HTML link to event ``index`` (0-based) of the log, shown as ``text``."""
    return f"<a href='entry:{index}'>{html.escape(text)}</a>"


def parse_entry_link(href: str) -> Optional[int]:
    """The event index (0-based) of a link made by :func:`entry_link`, None for another."""
    if not href.startswith("entry:"):
        return None
    try:
        return int(href[len("entry:"):])
    except ValueError:
        return None


def conflict_html(entries: Sequence[int], describe: Callable[[int], str]) -> str:
    """The contradiction banner's text naming ``entries`` (0-based, an irreducible set that
    cannot all be true together) as links; ``describe(i)`` gives event ``i`` in words."""
    if not entries:
        return _("<b>Impossible setup</b>: no world fits the setup itself, before any entry. "
                 "Start a new game with a corrected setup.")
    items = "; ".join(f"{entry_link(i, f'#{i + 1}')} {html.escape(describe(i))}"
                      for i in entries)
    if len(entries) == 1:
        return _("<b>Impossible log</b>: entry {entry} cannot be true with this setup. "
                 "Undo (Ctrl+Z) or remove it.").format(entry=items)
    return _("<b>Impossible log</b>: these {n} entries cannot all be true together — {entries}. "
             "One of them may be mistyped: click one to select it in History, then remove or undo "
             "the wrong one.").format(n=len(entries), entries=items)


class WhyPopup(QDialog):
    """Non-modal popup explaining one fact (see the module docstring).

    Signals:
        entryClicked(int index): the player clicked entry ``index`` (0-based) of the log.
        cancelRequested(): the player cancelled the pending explanation.
        closed(): the popup was closed (the tab clears the History highlight).
    """

    entryClicked = Signal(int)
    cancelRequested = Signal()
    closed = Signal()

    def __init__(self, parent: Optional[QWidget] = None):
        super().__init__(parent)
        self.setWindowTitle(_("Why?"))
        self.setWindowFlag(Qt.Tool, True)
        self.setModal(False)
        self.setAttribute(Qt.WA_DeleteOnClose, False)
        self.resize(520, 300)
        self.fact: Optional[dict] = None
        self.subject = ""
        self.status = ""
        lay = QVBoxLayout(self)
        self._build_heading(lay)
        lay.addWidget(self._build_busy_row())
        self._build_answer(lay)
        lay.addStretch(0)       # spare height goes below the content, not between its lines
        buttons = QDialogButtonBox(QDialogButtonBox.Close)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)
        self.finished.connect(self._finished)
        self._show_parts(entries=False, steps=False)

    def _build_heading(self, lay: QVBoxLayout) -> None:
        """The fact asked about (rich text) and the log it is explained under (grey)."""
        self.heading = QLabel()
        self.heading.setTextFormat(Qt.RichText)
        self.heading.setWordWrap(True)
        lay.addWidget(self.heading)
        self.scope = QLabel()
        self.scope.setWordWrap(True)
        muted_style(self.scope)
        lay.addWidget(self.scope)

    def _build_busy_row(self) -> QWidget:
        """The working state: a label, an indeterminate progress bar and Cancel."""
        self.busy = QWidget()
        bl = QHBoxLayout(self.busy)
        bl.setContentsMargins(0, 0, 0, 0)
        self.busy_label = QLabel(_("Working… finding the entries that force it"))
        bl.addWidget(self.busy_label)
        self.progress = QProgressBar()
        self.progress.setRange(0, 0)              # indeterminate
        self.progress.setTextVisible(False)
        self.progress.setMaximumHeight(12)
        bl.addWidget(self.progress, 1)
        self.cancel_button = QPushButton(_("Cancel"))
        self.cancel_button.clicked.connect(self._cancel)
        bl.addWidget(self.cancel_button)
        return self.busy

    def _build_answer(self, lay: QVBoxLayout) -> None:
        """The answer: a message, the entries that force the fact (click one to select it in
        History) and the steps of the derivation."""
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.message.setTextFormat(Qt.RichText)
        lay.addWidget(self.message)
        self.entries_title = QLabel("<b>" + _("Because of these entries") + "</b> "
                                    f"<span style='{muted_css()}'>— "
                                    + _("click one to select it in History") + "</span>")
        self.entries_title.setWordWrap(True)
        lay.addWidget(self.entries_title)
        self.entries = QListWidget()
        self.entries.setWordWrap(True)
        self.entries.setAlternatingRowColors(True)
        self.entries.setCursor(Qt.PointingHandCursor)
        self.entries.setToolTip(_("Click an entry to select it in the History panel"))
        self.entries.itemClicked.connect(self._item_clicked)
        self.entries.itemActivated.connect(self._item_clicked)
        lay.addWidget(self.entries, 2)
        self.steps_title = QLabel("<b>" + _("How") + "</b>")
        lay.addWidget(self.steps_title)
        self.steps = QTextBrowser()
        self.steps.setOpenLinks(False)
        lay.addWidget(self.steps, 3)

    # -- states --------------------------------------------------------------------------
    def start(self, fact: dict, subject: str, scope: str) -> None:
        """The working state: the explanation of ``fact`` (``subject`` in words) is being
        computed; ``scope`` says which log it is under."""
        self.fact, self.subject, self.status = dict(fact), subject, ""
        self.heading.setText(f"<span style='font-size:x-large'><b>{html.escape(subject)}</b></span>")
        self.scope.setText(scope)
        self.message.clear()
        self.entries.clear()
        self.steps.clear()
        self.busy_label.setText(_("Working… finding the entries that force it"))
        self.busy.show()
        self.progress.show()
        self.cancel_button.setEnabled(True)
        self._show_parts(entries=False, steps=False)

    def show_explanation(self, expl, describe: Callable[[int], str]) -> None:
        """Show an :class:`engines.core.explain.Explanation`; ``describe(i)`` gives entry
        ``i`` (0-based) in words."""
        self.busy.hide()
        self.status = expl.status
        mark, words, colour = STATUS_LOOK.get(expl.status, ("", expl.status, "black"))
        self.heading.setText(
            f"<span style='font-size:x-large'><b style='color:{colour}'>{mark} {_(words)}</b>: "
            f"<b>{html.escape(self.subject)}</b></span>")
        self.entries.clear()
        for i in expl.because:
            item = QListWidgetItem(f"#{i + 1}   {describe(i)}")
            item.setData(EventIndexRole, int(i))
            self.entries.addItem(item)
        if expl.status == "uncertain":
            self.message.setText(_("No entry decides this yet: the entries so far leave it "
                                   "open (some worlds consistent with the log have it, some do "
                                   "not)."))
            self._show_parts(entries=False, steps=False)
            return
        n = len(expl.because)
        if n == 0:
            self.message.setText(_("The setup alone decides it: no entry is needed."))
        else:
            self.message.setText(
                ngettext("This entry alone forces it: without it, it would be open.",
                         "These {n} entries force it on their own; without any one of them it would "
                         "be open.", n).format(n=n))
        self.steps.setHtml("<ol style='margin-left:-20px'>" + "".join(
            f"<li style='margin-bottom:4px'>{html.escape(s)}</li>" for s in expl.steps) + "</ol>")
        self._fit()
        self._show_parts(entries=n > 0, steps=bool(expl.steps))

    def show_error(self, text: str) -> None:
        """The explanation cannot be given: say why (plain text)."""
        self.busy.hide()
        self.status = "error"
        self.message.setText(f"<span style='color:{tone('#b71c1c')}'>{html.escape(text)}</span>")
        self._show_parts(entries=False, steps=False)

    def is_working(self) -> bool:
        """True while the explanation is being computed."""
        return self.busy.isVisibleTo(self)

    def entry_indices(self) -> list[int]:
        """The entries listed (0-based event indices, in order)."""
        return [self.entries.item(r).data(EventIndexRole) for r in range(self.entries.count())]

    def steps_text(self) -> str:
        """The derivation as plain text."""
        return self.steps.toPlainText()

    #: Room for the window manager's title bar and borders around the popup (logical px).
    FRAME = QSize(8, 32)

    def place_near(self, pos: QPoint) -> None:
        """Move the popup next to global position ``pos``, inside that screen (frame
        included)."""
        self._placed = True
        screen = QGuiApplication.screenAt(pos) or QGuiApplication.primaryScreen()
        x, y = pos.x() + 16, pos.y() + 16
        if screen is not None:
            g = screen.availableGeometry()
            x = max(g.left() + self.FRAME.width() // 2,
                    min(x, g.right() - self.width() - self.FRAME.width() // 2))
            y = max(g.top() + self.FRAME.height(), min(y, g.bottom() - self.height() - self.FRAME.width()))
        self.move(x, y)

    def showEvent(self, event) -> None:  # noqa: N802 (Qt name)
        """Shown without a place (a Why? not asked from a cell): centred over the window."""
        if not getattr(self, "_placed", False):
            owner = self.parentWidget().window() if self.parentWidget() is not None else None
            if owner is not None:
                centre = owner.frameGeometry().center()
                self.place_near(centre - QPoint(self.width() // 2 + 16, self.height() // 2 + 16))
        super().showEvent(event)
        # the window manager frames the popup after it is shown (a title bar above it): once
        # that has happened, a frame pushed off the screen's edge is moved back (the screen
        # audit saw a frame at y = -20 under load, once)
        for ms in (0, 150):
            QTimer.singleShot(ms, self, self._keep_on_screen)

    # -- internals ------------------------------------------------------------------------
    def _fit(self) -> None:
        """Size the entry list and the steps to their content (within limits), then the
        popup to its parts: no large empty panes, long derivations scroll."""
        lst = self.entries
        fm = QFontMetrics(lst.font())
        width = max(200, self.width() - 70)      # margins, frame and a scroll bar
        rows = sum(fm.boundingRect(QRect(0, 0, width, 10_000), Qt.TextWordWrap,
                                   lst.item(r).text()).height() + 4 for r in range(lst.count()))
        lst.setFixedHeight(min(max(rows, 22), 220) + 2 * lst.frameWidth() + 4)
        doc = self.steps.document().clone()   # owned by Python: freed after
        doc.setTextWidth(max(200, self.width() - 64))
        self.steps.setFixedHeight(int(min(max(doc.size().height(), 40), 300))
                                  + 2 * self.steps.frameWidth() + 4)

    def _show_parts(self, entries: bool, steps: bool) -> None:
        self.entries_title.setVisible(entries)
        self.entries.setVisible(entries)
        self.steps_title.setVisible(steps)
        self.steps.setVisible(steps)
        self.message.setVisible(bool(self.message.text()))
        lay = self.layout()
        lay.activate()
        h = (lay.totalHeightForWidth(self.width()) if lay.hasHeightForWidth()
             else self.sizeHint().height())
        self.resize(self.width(), max(h, self.minimumSizeHint().height()))
        if self.isVisible():
            self._keep_on_screen()

    def _keep_on_screen(self) -> None:
        """Move the popup back inside its screen after it grew."""
        screen = self.screen() or QGuiApplication.primaryScreen()
        if screen is None:
            return
        g, f = screen.availableGeometry(), self.frameGeometry()
        x = max(g.left(), min(f.left(), g.right() - f.width()))
        y = max(g.top(), min(f.top(), g.bottom() - f.height()))
        if (x, y) != (f.left(), f.top()):
            self.move(x, y)

    @Slot()
    def _cancel(self) -> None:
        self.cancelRequested.emit()
        self.busy_label.setText(_("Cancelled"))
        self.cancel_button.setEnabled(False)
        self.progress.hide()
        self.show_error(_("Cancelled. Right-click the cell and choose Why? again to retry."))

    @Slot(QListWidgetItem)
    def _item_clicked(self, item: QListWidgetItem) -> None:
        i = item.data(EventIndexRole)
        if i is not None:
            self.entryClicked.emit(int(i))

    @Slot(int)
    def _finished(self, _result: int) -> None:
        self.closed.emit()
