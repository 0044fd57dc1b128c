"""The Guess Who? tab's race pane, a presenter of the published snapshot: the opponent's
standing cards, my chance of winning the race and the advised question. It draws each moment
from the :class:`desktop.tabs.snapshot.Snapshot` alone (its setup's board and its posterior),
never from the document; what the player changes in it (the opponent's count, "Select the
advised question") leaves it as a signal for the tab (docs/ARCHITECTURE.md, "One moment on
screen").
"""
from __future__ import annotations

from typing import Optional

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QGridLayout, QGroupBox, QLabel, QPushButton, QSpinBox, QWidget

from desktop.games.guesswho.cards import question_words
from desktop.shell.appearance import muted_css
from desktop.tabs.snapshot import Snapshot
from desktop.widgets.plain_text import esc
from desktop.widgets.worksheet import format_probability
from engines.core.i18n import N_, _

RULE_NAMES = {"official": N_("Official rules"), "instant": N_("Instant win")}


def advised_question(post) -> Optional[dict]:
    """The question to ask at the moment ``post`` (a :class:`engines.guesswho` posterior): the
    race's advised split, else the fewest expected questions, else the first ranked; None when
    there is none."""
    return post.advised_question or post.best_question or (
        post.questions[0].question if post.questions else None)


class RacePane(QGroupBox):
    """The opponent's standing cards (an entry field), my win probability under both rules and
    the advised split.

    Signals:
        opponentChanged(int): the player set the opponent's standing cards (0: unknown).
        adviceRequested(): "Select the advised question" was pressed.

    Attributes:
        opponent: the spin box; win_label, advice_label: the race's lines; use_advice: the button.
    """

    opponentChanged = Signal(int)
    adviceRequested = Signal()

    def __init__(self, parent: Optional[QWidget] = None):
        super().__init__(_("Opponent and the race"), parent)
        og = QGridLayout(self)
        og.setContentsMargins(6, 4, 6, 6)
        og.addWidget(QLabel(_("Opponent's standing cards")), 0, 0)
        self.opponent = QSpinBox()
        self.opponent.setRange(0, 99)
        self.opponent.setSpecialValueText(_("unknown"))
        self.opponent.setKeyboardTracking(False)
        self.opponent.setToolTip(_("Set it whenever the opponent knocks cards down (logged, undoable)"))
        self.opponent.valueChanged.connect(self.opponentChanged)
        og.addWidget(self.opponent, 0, 1)
        self.win_label = QLabel()
        self.win_label.setWordWrap(True)
        self.win_label.setTextFormat(Qt.RichText)
        og.addWidget(self.win_label, 1, 0, 1, 2)
        self.advice_label = QLabel()
        self.advice_label.setWordWrap(True)
        self.advice_label.setTextFormat(Qt.RichText)
        og.addWidget(self.advice_label, 2, 0, 1, 2)
        self.use_advice = QPushButton(_("Select the advised question"))
        self.use_advice.clicked.connect(self.adviceRequested)
        og.addWidget(self.use_advice, 3, 0, 1, 2)
        og.setColumnStretch(0, 1)

    def render(self, snap: Snapshot) -> None:
        """Draw the race at the moment ``snap`` (its posterior must be set)."""
        post = snap.posterior
        self.opponent.blockSignals(True)      # the moment's count shown, not an entry
        self.opponent.setValue(post.opponent_remaining or 0)
        self.opponent.blockSignals(False)
        n_likely = int(post.likely.sum())
        if post.win_probability is None:
            self.win_label.setText(_("My win probability: {what}").format(
                what="<i>{}</i>".format(esc(_("set the opponent's standing cards")))))
            self.advice_label.setText(f"<span style='{muted_css()}'>" + esc(_(
                "The race needs the opponent's count; meanwhile ★ marks the question with the "
                "fewest expected questions.")) + "</span>")
        else:
            other = "instant" if post.rules == "official" else "official"
            other_p = post.win_probability_instant if other == "instant" else post.win_probability_official
            if other_p is not None:
                context = _("{rules}, my {mine} vs their {theirs}, my turn; {other}: {p}").format(
                    rules=_(RULE_NAMES[post.rules]).lower(), mine=n_likely,
                    theirs=post.opponent_remaining, other=_(RULE_NAMES[other]).lower(),
                    p=format_probability(other_p))
            else:
                context = _("{rules}, my {mine} vs their {theirs}, my turn").format(
                    rules=_(RULE_NAMES[post.rules]).lower(), mine=n_likely,
                    theirs=post.opponent_remaining)
            self.win_label.setText(
                _("My win probability: {p}").format(p=f"<b>{format_probability(post.win_probability)}</b>")
                + f" <span style='{muted_css()}'>({esc(context)})</span>")
            yes, no = post.advised_split
            label = question_words(post.advised_question, snap.setup.board) \
                if post.advised_question is not None else ""
            if yes == 0:
                what = _("name a character: ask “{question}”").format(question=esc(label))
            else:
                what = _("aim for a {split} split: ask “{question}”").format(
                    split=f"<b>{yes} / {no}</b>", question=esc(label))
            self.advice_label.setText(_("Advised: {what}").format(what=what))
        self.use_advice.setEnabled(advised_question(post) is not None)
