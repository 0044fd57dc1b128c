"""Which Inkognito answer was probably mistyped: the corrections of a contradictory log.

Candidate edits of one answer (:mod:`engines.core.diagnosis` searches them, likeliest first):
one card ticked in place of another of the same kind (an identity for an identity, a build for
a build); the answer logged against another opponent (the next one in the list first); the
kind asked, where the cards shown fit both kinds (a player question answered with the mission
card and one card of each kind). Each edited answer must still have a form the rules allow
(:func:`engines.inkognito.model.validate_answer`).

Which deals of identities and builds are possible depends only on which answers are valid for
them, and a set shown twice is a contradiction whatever else was logged, so the game is
monotone: the candidates are the answers of one irreducible conflicting subset. Edited logs
are checked by the exact joint model (:func:`engines.inkognito.inference.infer`, 36 worlds).
"""
from __future__ import annotations

from typing import Optional, Sequence

from engines.core.diagnosis import Diagnosis, Edit, ReplayChecker
from engines.core.diagnosis import diagnose as _diagnose
from engines.core.errors import ContradictionError, SessionFormatError
from engines.inkognito.inference import infer
from engines.inkognito.model import (
    KINDS,
    Answer,
    Setup,
    describe_event,
    validate_answer,
)

#: Default budget in steps (answers in the edited logs counted); a check is a fraction of a
#: millisecond.
DEFAULT_BUDGET = 20000


def consistent(setup: Setup, events: Sequence) -> bool:
    """Whether some deal of identities and builds fits every answer (exact joint model)."""
    try:
        infer(setup, list(events), method="joint")
    except ContradictionError:
        return False
    return True


def _valid(ev: Answer) -> bool:
    try:
        validate_answer(ev.question, ev.asked, ev.identities, ev.builds, ev.mission)
    except SessionFormatError:
        return False
    return True


def edits(setup: Setup, events: Sequence, i: int) -> list:
    """The candidate field edits of answer ``i`` (the removal is added by the search)."""
    ev = events[i]
    out = []
    n = len(setup.opponents)
    at = setup.opponents.index(ev.opponent)
    for step in range(1, n):
        o = setup.opponents[(at + step) % n]
        near = min(step, n - step)
        out.append(Edit(i, "opponent", o, Answer(opponent=o, question=ev.question, asked=ev.asked,
                                                 identities=ev.identities,
                                                 builds=ev.builds, mission=ev.mission),
                        1.0 + 0.25 * (near - 1), f"{o} instead of {ev.opponent}"))
    for key, names in (("identities", setup.identities), ("builds", setup.builds)):
        shown = getattr(ev, key)
        for j, card in enumerate(shown):
            for c in names:
                if c in shown:
                    continue
                new = tuple(sorted(shown[:j] + (c,) + shown[j + 1:], key=names.index))
                kw = {"identities": ev.identities, "builds": ev.builds, key: new}
                cand = Answer(opponent=ev.opponent, question=ev.question, asked=ev.asked, identities=kw["identities"],
                              builds=kw["builds"],
                              mission=ev.mission)
                if _valid(cand):
                    out.append(Edit(i, key, list(new), cand, 1.0, f"{c} instead of {card}"))
    for kind in KINDS:
        if kind != ev.asked:
            cand = Answer(opponent=ev.opponent, question=ev.question, asked=kind, identities=ev.identities,
                          builds=ev.builds, mission=ev.mission)
            if _valid(cand):
                out.append(Edit(i, "asked", kind, cand, 1.5, f"asked about {kind}"))
    return out


def diagnose(setup: Setup, events: Sequence, *, budget: Optional[int] = None,
             time_limit: Optional[float] = None, cancel=None) -> Optional[Diagnosis]:
    """The corrections of a contradictory log (:func:`engines.core.diagnosis.diagnose`).

    Returns:
        :class:`~engines.core.diagnosis.Diagnosis` (``conflict``: a minimal unsatisfiable
        subset of the answers), or None when the log is consistent.
    """
    events = list(events)
    chk = ReplayChecker(events, lambda evs: consistent(setup, evs), monotone=True, cancel=cancel)
    return _diagnose(events, chk, lambda i: edits(setup, events, i),
                     lambda i: describe_event(setup, events[i]), monotone=True,
                     budget=budget or DEFAULT_BUDGET, time_limit=time_limit, cancel=cancel)
