"""The Why? popup of a tab, as a view of the snapshot (engines.core.explain; the popup widget is
:class:`desktop.widgets.why.WhyPopup`).

:class:`WhyView` adds the Why? item to a cell's context menu, opens the popup, asks the
controller (:meth:`desktop.tabs.controller.GameController.explain`), and renders the answer the
snapshot carries for the moment shown: the controller asks again by itself when the moment
changes by an edit of the log; selecting another History entry keeps the answer, whose moment
the popup names ("As after entry 7 of 11").
"""
from __future__ import annotations

from typing import Optional

from PySide6.QtCore import QObject, Signal, Slot

from desktop.shell.locale_format import number
from desktop.tabs.snapshot import Snapshot
from desktop.widgets.why import WhyPopup
from engines.core.errors import ContradictionError, EngineError, SessionFormatError
from engines.core.i18n import _, ngettext


class WhyView(QObject):
    """The Why? popup of one tab.

    Args:
        tab: the :class:`desktop.tabs.base.GameTab` (its controller, history and title; the popup's
            parent).

    Signals:
        statusMessage(str): text for the status bar.
    """

    statusMessage = Signal(str)

    def __init__(self, tab):
        super().__init__(tab)
        self.tab = tab
        self.controller = tab.controller
        self.popup: Optional[WhyPopup] = None
        self._subject = ""
        self._shown: object = None        # the answer on screen

    def add_action(self, menu, fact: dict, subject: str, decided: bool = True,
                   label: Optional[str] = None):
        """Add a Why? item to ``menu`` (see :meth:`desktop.tabs.base.GameTab.add_why_action`)."""
        if not self.controller.can_explain():
            return None
        acts = menu.actions()
        if acts and not acts[-1].isSeparator() and not isinstance(acts[-1].data(), dict):
            menu.addSeparator()
        label = _("Why?") if label is None else label
        act = menu.addAction(label if decided else _("{why} (not decided yet)").format(why=label))
        act.setData({"why_fact": dict(fact), "why_subject": subject})
        act.setToolTip(_("Which entries force this, and how"))
        return act

    def chosen(self, action, pos=None) -> bool:
        """Open the popup if ``action`` is a Why? item; returns whether it was one."""
        data = action.data() if action is not None else None
        if isinstance(data, dict) and "why_fact" in data:
            self.show(data["why_fact"], data["why_subject"], pos)
            return True
        return False

    def show(self, fact: dict, subject: str, pos=None) -> None:
        """Open (or reuse) the popup for ``fact`` and ask for its explanation at the moment
        shown."""
        if not self.controller.can_explain():
            return
        popup = self.popup
        if popup is None:
            popup = self.popup = WhyPopup(self.tab)
            popup.entryClicked.connect(self.select_entry)
            popup.cancelRequested.connect(self.controller.cancel_explanation)
            popup.closed.connect(self._closed)
        self._subject = subject
        self._shown = None
        self.tab.history.set_explained(())
        popup.start(fact, subject, self._scope(self.controller.snapshot))
        if pos is not None and not popup.isVisible():
            popup.place_near(pos)
        popup.show()
        popup.raise_()
        self.controller.explain(fact)

    def close(self) -> None:
        if self.popup is not None and self.popup.isVisible():
            self.popup.close()
        self._closed()

    @staticmethod
    def _scope(snap: Snapshot) -> str:
        n = snap.n
        if snap.k >= n:
            return ngettext("Under the whole log ({n} entry).", "Under the whole log ({n} entries).", n).format(n=n)
        return _("As after entry {k} of {n} (the beliefs shown).").format(k=snap.k, n=n)

    def render(self, snap: Snapshot) -> None:
        """Show the snapshot's answer (or that it is being updated)."""
        popup = self.popup
        if popup is None or not popup.isVisible() or snap.why_fact is None:
            return
        answer = snap.why
        if answer is self._shown:
            return
        self._shown = answer
        if answer is None:
            self.tab.history.set_explained(())
            popup.start(snap.why_fact, self._subject, self._scope(snap))
        elif isinstance(answer, BaseException):
            popup.show_error(self._error_text(answer))
        else:
            doc = self.controller.document
            popup.show_explanation(answer.explanation,
                                   lambda i: doc.module.describe_event(doc.setup, doc.events[i]))
            self.tab.history.set_explained(answer.explanation.because)
            self._reveal_history()
            self.statusMessage.emit(_("Why? answered in {ms} ms").format(ms=number(answer.seconds * 1000)))

    def _error_text(self, exc: BaseException) -> str:
        if isinstance(exc, ContradictionError):
            return _("The log is impossible: {reason}").format(reason=exc)
        if isinstance(exc, SessionFormatError):
            return exc.message
        if isinstance(exc, EngineError):
            return str(exc)
        return _("Internal error in the {game} engine: {error}. Your log is safe; please report "
                 "this.").format(game=self.tab.title(), error=f"{type(exc).__name__}: {exc}")

    @Slot()
    def _closed(self) -> None:
        self.tab.history.set_explained(())
        self.controller.cancel_explanation()
        self._shown = None

    @Slot(int)
    def select_entry(self, index: int) -> None:
        """Select log entry ``index`` (0-based) in History (a link in the popup or the
        banner)."""
        if 0 <= index < len(self.controller.document.events):
            self._reveal_history()
            self.tab.history.select_event(index)

    def _reveal_history(self) -> None:
        """Bring History into view where the tab's side panes are folded into tabs
        (:class:`desktop.widgets.side_panes.SidePanes`): the entries named are marked there."""
        panes = getattr(self.tab, "side_panes", None)
        if panes is not None:
            panes.show_pane(self.tab.history)
