"""The Inkognito tab's sheets, a presenter of the published snapshot: each opponent's answer
worksheet (:class:`desktop.games.inkognito.forms.AnswerSheet`, the answers logged about them)
over their belief card (:class:`BeliefCard`: identity × build heat map with marginals, partner
probability, θ when the deception model is on). :meth:`SheetsPane.render` draws the beliefs of
the moment from the :class:`desktop.tabs.snapshot.Snapshot` alone (its setup, posterior and
wording), never from the document (docs/ARCHITECTURE.md, "One moment on screen"). The model:
M. Höhle, "Inkognito – Sequential Bayesian Identity Disclosure" (docs/references.md).
"""
from __future__ import annotations

from typing import Any, Optional, Sequence

import numpy as np
from PySide6.QtCore import QPoint, Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSplitter, QVBoxLayout, QWidget

from desktop.games.inkognito.forms import AnswerSheet, short_name
from desktop.shell.appearance import tone_style
from desktop.shell.locale_format import number, percent
from desktop.tabs.snapshot import Snapshot
from desktop.tabs.wording import PLAIN, Wording
from desktop.widgets.plain_text import esc
from desktop.widgets.worksheet import ProbabilityTableModel, WorksheetView, format_probability
from engines.core.i18n import _
from engines.inkognito.words import card_words

_TITLES = ("lord", "lady", "madame", "madam", "colonel", "col.", "mr", "mrs", "miss", "dr")


def _compact(name: str) -> str:
    """A row label without a leading title ("Lord Fiddlebottom" -> "Fiddlebottom")."""
    first, _sep, rest = name.partition(" ")
    return rest if rest and first.lower() in _TITLES else name


class BeliefCard(QWidget):
    """One opponent's beliefs: heat map identity × build with marginals ("any ..."),
    partner probability, θ summary.

    Signals:
        cellContextMenu(int item, int column, QPoint global_pos): right-click on the heat map
            (the WorksheetView's signal, passed on).
    """

    cellContextMenu = Signal(int, int, QPoint)

    def __init__(self, opponent: str, setup, parent=None):
        super().__init__(parent)
        self.opponent = opponent
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        self.title = QLabel(f"<b>{esc(opponent)}</b>")
        self.title.setWordWrap(True)
        lay.addWidget(self.title)
        self.model = ProbabilityTableModel(
            [("", [_compact(i) for i in setup.identities]), ("", [_("any")])],
            [card_words(b)[:5] if len(card_words(b).split()) == 1 else short_name(card_words(b))
             for b in setup.builds] + [_("any")],
            tooltip=lambda r, c, p: _("Chance that {opponent} is {identity}, {build}: {p}").format(
                opponent=opponent, identity=r, build=c, p=percent(p, 1)))
        self.view = WorksheetView()
        self.view.setModel(self.model)
        self.view.verticalHeader().setDefaultSectionSize(21)
        self.view.horizontalHeader().setMinimumSectionSize(32)
        rows = self.model.rowCount()
        self.view.setFixedHeight(self.view.horizontalHeader().sizeHint().height() + rows * 21
                                 + 2 * self.view.frameWidth())
        # scroll bars only when zoomed text no longer fits the card
        self.view.setVerticalScrollBarPolicy(Qt.ScrollBarAsNeeded)
        self.view.setHorizontalScrollBarPolicy(Qt.ScrollBarAsNeeded)
        self.view.cellContextMenu.connect(self.cellContextMenu)
        lay.addWidget(self.view)
        self.partner = QLabel()
        self.theta = QLabel()
        tone_style(self.theta, "#4a148c")
        # wrapped, so that three cards side by side (θ shown) never widen the window
        for label in (self.partner, self.theta):
            label.setWordWrap(True)
        lay.addWidget(self.partner)
        lay.addWidget(self.theta)
        lay.addStretch(1)

    def matrix(self):
        """The heat map's matrix (5 × 5: identities × builds with the "any" marginals), or
        None before a belief is shown."""
        return self.model.matrix()

    def show_belief(self, b, setup, wording: Wording = PLAIN) -> None:
        j = np.asarray(b.joint, dtype=float)
        m = np.full((5, 5), np.nan)
        m[:4, :4] = j
        m[:4, 4] = j.sum(1)
        m[4, :4] = j.sum(0)
        self.model.set_matrix(m)
        top = max(b.identity, key=b.identity.get)
        self.title.setText(_("{opponent} — most likely {identity} ({p})").format(
            opponent=f"<b>{esc(self.opponent)}</b>", identity=esc(top), p=format_probability(b.identity[top])))
        self.partner.setText(_("My partner ({identity}): {p}").format(
            identity=esc(setup.partner_identity), p=f"<b>{format_probability(b.partner)}</b>"))
        if b.theta is not None:
            g, p = b.theta
            c = np.cumsum(p)
            lo, hi = g[np.searchsorted(c, 0.05)], g[min(np.searchsorted(c, 0.95), len(g) - 1)]
            self.theta.setText(wording.pick(
                _("Their lone card is true about {p} of the time (likely {low}–{high})").format(
                    p=percent(b.theta_mean), low=percent(lo), high=percent(hi)),
                _("θ (lone-statement truth): mean {mean}, 90 % in [{low}, {high}]").format(
                    mean=number(b.theta_mean, 2), low=number(lo, 2), high=number(hi, 2))))
            self.theta.show()
        else:
            self.theta.hide()

    def clear(self) -> None:
        self.model.set_matrix(None)
        self.partner.clear()


class SheetsPane(QSplitter):
    """Each opponent's answer worksheet (top row) over their belief card (bottom row), side by
    side; rebuilt when the identities, builds or opponents change.

    Signals:
        answerSubmitted(str opponent): a worksheet's Log (its pending answer).
        cellContextMenu(str opponent, int item, int column, QPoint global_pos): right-click on
            an opponent's heat map.

    Attributes:
        sheets, cards: opponent -> :class:`AnswerSheet` / :class:`BeliefCard`, in seat order.
    """

    answerSubmitted = Signal(str)
    cellContextMenu = Signal(str, int, int, QPoint)

    def __init__(self, parent: Optional[QWidget] = None):
        super().__init__(Qt.Orientation.Vertical, parent)
        self.sheets_box = QWidget()
        self.sheets_layout = QHBoxLayout(self.sheets_box)
        self.sheets_layout.setContentsMargins(0, 0, 0, 0)
        self.addWidget(self.sheets_box)
        self.cards_box = QWidget()
        self.cards_layout = QHBoxLayout(self.cards_box)
        self.cards_layout.setContentsMargins(0, 0, 0, 0)
        self.addWidget(self.cards_box)
        self.setSizes([300, 260])
        self.sheets: dict[str, AnswerSheet] = {}
        self.cards: dict[str, BeliefCard] = {}
        self._built_for = None

    def set_setup(self, setup: Any) -> None:
        """A game (``inkognito.Setup``): a worksheet and a card per opponent, made again when
        the identities, builds or opponents changed (else the worksheets take the new setup)."""
        key = (setup.identities, setup.builds, setup.opponents)
        if key != self._built_for:
            for w in list(self.sheets.values()) + list(self.cards.values()):
                w.setParent(None)
                w.deleteLater()
            self.sheets, self.cards = {}, {}
            for name in setup.opponents:
                sheet = AnswerSheet(name, setup)
                sheet.submitted.connect(self.answerSubmitted)
                self.sheets_layout.addWidget(sheet, 1)
                self.sheets[name] = sheet
                card = BeliefCard(name, setup)
                card.cellContextMenu.connect(
                    lambda item, column, pos, name=name: self.cellContextMenu.emit(name, item, column, pos))
                self.cards_layout.addWidget(card, 1)
                self.cards[name] = card
            self._built_for = key
        else:
            for s in self.sheets.values():
                s.setup = setup

    def follow_log(self, events: Sequence[Any]) -> None:
        """The log as it is now: each worksheet lists the answers logged about its opponent."""
        for name, sheet in self.sheets.items():
            sheet.set_answers([e for e in events if e.opponent == name])

    def render(self, snap: Snapshot) -> None:
        """Draw each opponent's beliefs at the moment ``snap`` (its posterior must be set)."""
        for name, b in snap.posterior.opponents.items():
            if name in self.cards:
                self.cards[name].show_belief(b, snap.setup, snap.wording)

    def clear(self) -> None:
        """No consistent deal: the cards empty."""
        for c in self.cards.values():
            c.clear()
