"""Which Guess Who? entry was probably mistyped: the corrections of a contradictory log.

Candidate edits of one entry (:mod:`engines.core.diagnosis` searches them, likeliest first):

* an answer: the other answer (yes for no), then another value of the same attribute asked
  ("hair colour: brown?" for "hair colour: black?");
* a knock-down: a character next to it on the board (the board's order) first;
* the opponent's count of standing cards: a neighbouring number first.

Without the error model, answers and knock-downs only remove characters and the opponent's
count only goes down, so the game is monotone: the candidates are the entries of one
irreducible conflicting subset. With the error model a wrong answer is never a contradiction;
knocking down the last candidate and the opponent's count going up still are. Edited logs are
checked by the exact posterior (:func:`engines.guesswho.inference.posterior_probabilities`).
"""
from __future__ import annotations

from typing import Optional, Sequence

from engines.core.diagnosis import Diagnosis, Edit, ReplayChecker
from engines.core.diagnosis import diagnose as _diagnose
from engines.core.errors import ContradictionError
from engines.core.i18n import _, ngettext
from engines.guesswho.board import CATEGORY, Question
from engines.guesswho.inference import posterior_probabilities
from engines.guesswho.model import Answer, Eliminate, Opponent, Setup, describe_event

#: Default budget in steps (entries in the edited logs counted); a check of 20 entries takes a
#: fraction of a millisecond.
DEFAULT_BUDGET = 20000


def consistent(setup: Setup, events: Sequence) -> bool:
    """Whether some character fits every entry (exact posterior)."""
    try:
        posterior_probabilities(setup, list(events))
    except ContradictionError:
        return False
    return True


def edits(setup: Setup, events: Sequence, i: int) -> list:
    """The candidate field edits of entry ``i`` (the removal is added by the search)."""
    ev = events[i]
    board = setup.board
    out = []
    if isinstance(ev, Answer):
        out.append(Edit(i, "answer", not ev.answer, Answer(question=ev.question, answer=not ev.answer), 1.0,
                        _("the answer yes") if not ev.answer else _("the answer no")))
        if len(ev.question.atoms) == 1:
            a, v = ev.question.atoms[0]
            try:
                attr = board.attribute(a)
            except KeyError:
                attr = None
            if attr is not None and attr.kind == CATEGORY:
                for other in attr.values:
                    if other != v:
                        q = Question(((a, other),))
                        out.append(Edit(i, "question", q.to_json(), Answer(question=q, answer=ev.answer), 2.0,
                                        _("the question “{question}”").format(question=q.label())))
    elif isinstance(ev, Eliminate):
        at = board.names.index(ev.name)
        for j, name in enumerate(board.names):
            if name != ev.name:
                out.append(Edit(i, "name", name, Eliminate(name=name),
                                1.0 + min(abs(j - at) - 1, 10) / 10,
                                _("{name} instead of {other}").format(name=name, other=ev.name)))
    elif isinstance(ev, Opponent):
        for r in range(1, board.size + 1):
            if r != ev.remaining:
                out.append(Edit(i, "remaining", r, Opponent(remaining=r),
                                1.0 + min(abs(r - ev.remaining) - 1, 10) / 10,
                                ngettext("{n} card left", "{n} cards left", r).format(n=r)))
    return out


def diagnose(setup: Setup, events: Sequence, *, budget: Optional[int] = None,
             time_limit: Optional[float] = None, cancel=None) -> Optional[Diagnosis]:
    """The corrections of a contradictory log (:func:`engines.core.diagnosis.diagnose`).

    Returns:
        :class:`~engines.core.diagnosis.Diagnosis` (``conflict``: a minimal unsatisfiable
        subset), or None when the log is consistent.
    """
    events = list(events)
    chk = ReplayChecker(events, lambda evs: consistent(setup, evs), monotone=True, cancel=cancel)
    return _diagnose(events, chk, lambda i: edits(setup, events, i),
                     lambda i: describe_event(setup, events[i]), monotone=True,
                     budget=budget or DEFAULT_BUDGET, time_limit=time_limit, cancel=cancel)
