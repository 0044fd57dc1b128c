"""Explanations: which entries of a log force a fact, and which entries cannot all be true.

An explanation of a fact under a log is an *irreducible* subset of the log's events that forces
the fact's status on its own (with the setup): removing any one of its events leaves the fact
uncertain. A contradiction is explained the same way: an irreducible set of events that cannot
all be true together (a minimal unsatisfiable subset) — dropping any one of them makes the rest
consistent.

Both are found by QuickXplain (U. Junker, "QUICKXPLAIN: Preferred explanations and relaxations
for over-constrained problems", AAAI 2004): divide and conquer over the events, asking the
game's exact engine whether a subset forces the status. For a monotone predicate (a superset of
a forcing subset forces too: Cluedo, Inkognito, Guess Who?) it needs O(k log(n/k)) engine calls
for a result of k events out of n, instead of n for deletion one at a time, and its result is
irreducible. For a predicate that is not monotone (Egghead: a reaction means something
different once an earlier answer is gone), the result is checked and then reduced one event at
a time until no single event can be dropped, so it is irreducible in the same sense.

Subsets keep the events' order: a subset is the log with the other entries never logged.

The words (the steps, the conflict's message) are marked for translation where they are built
(:mod:`engines.core.i18n`): the app shows them in the player's language, the command line, which
never sets a language, in English.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional, Sequence

from engines.core.errors import CancelFlag, ContradictionError, check_cancel
from engines.core.i18n import _, ngettext

STATUSES = ("certain", "impossible", "uncertain")

#: Predicate over a subset of event indices (sorted, 0-based): does it (with the setup) force
#: the status / is it contradictory?
SubsetPredicate = Callable[[tuple], bool]


@dataclass(frozen=True)
class Explanation:
    """Why a fact has its status under a log.

    Attributes:
        fact: the fact as asked (JSON object, e.g. ``{"card": "Rope", "place": "Bob"}``).
        status: ``"certain"``, ``"impossible"`` or ``"uncertain"`` under the full log.
        because: 0-based indices into the session's events, ascending: an irreducible subset
            that forces the same status on its own (empty for ``"uncertain"``, and when the
            setup alone forces it).
        steps: the derivation in words (entries numbered from 1, as in the History panel).
        details: per step, the step with every list in full ("" when the step shows it all),
            for a tooltip: a step cuts a long list to its first names and "and 12 more"
            (:func:`listed`).
    """

    fact: dict
    status: str
    because: tuple = ()
    steps: tuple = ()
    details: tuple = ()

    def to_json(self) -> dict:
        """``{"fact", "status", "because", "steps"}`` (the CLI output), and ``"details"``
        (the steps' lists in full, for a tooltip) when some step cut a list."""
        out = {"fact": self.fact, "status": self.status, "because": list(self.because),
               "steps": list(self.steps)}
        if any(self.details):
            out["details"] = list(self.details)
        return out


#: Most names a step lists before "and 12 more" (the full list goes to the step's details).
LIST_LIMIT = 8


def join_words(items: Sequence[str], last: str = "and") -> str:
    """``"a"``, ``"a and b"``, ``"a, b and c"``; ``last="or"``: ``"a, b or c"``. In the
    language in effect (``"a, b und c"``); ``last`` is ``"and"`` or ``"or"``."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    head = ", ".join(items[:-1])
    if last == "or":
        return _("{items} or {last}").format(items=head, last=items[-1])
    if last == "and":
        return _("{items} and {last}").format(items=head, last=items[-1])
    return f"{head} {last} {items[-1]}"


def listed(items: Sequence[str], limit: int = LIST_LIMIT, last: str = "and") -> tuple:
    """``(short, full)``: the list in words, complete when it has at most ``limit`` items,
    else its first ``limit`` and "and 12 more"; ``full`` always complete."""
    items = list(items)
    full = join_words(items, last)
    if len(items) <= limit:
        return full, full
    more = len(items) - limit
    return ngettext("{items} and {n} more", "{items} and {n} more", more).format(
        items=", ".join(items[:limit]), n=more), full


def split_details(pairs: Sequence[tuple]) -> tuple:
    """``(steps, details)`` from ``(short, full)`` pairs; a detail is "" when it adds nothing."""
    steps = tuple(a for a, _ in pairs)
    details = tuple("" if a == b else b for a, b in pairs)
    return steps, (details if any(details) else ())


class ConflictError(ContradictionError):
    """A contradictory log, explained: ``entries`` (0-based, ascending) is an irreducible set of
    events that cannot all be true together; ``event_index`` is the last of them (the first
    event after which nothing is consistent is at most that)."""

    def __init__(self, entries: Sequence[int], message: str):
        self.entries = tuple(entries)
        super().__init__(self.entries[-1] if self.entries else -1, message)

    def __str__(self) -> str:
        if not self.entries:
            return _("the setup is impossible: {reason}").format(reason=self.message)
        return self.message


def quickxplain(n: int, forces: SubsetPredicate, *, monotone: bool = True,
                calls: Optional[list] = None, cancel: CancelFlag = None) -> Optional[tuple]:
    """An irreducible subset of ``range(n)`` on which ``forces`` holds.

    Args:
        n: number of events.
        forces: predicate over a sorted tuple of event indices; must hold for ``range(n)``.
        monotone: whether ``forces(S)`` implies ``forces(T)`` for every ``T ⊇ S``. When False
            the result is checked and reduced by deletion (see the module docstring).
        calls: optional list; the number of predicate evaluations is appended (benchmarks).
        cancel: zero-argument callable checked before every predicate evaluation
            (:class:`~engines.core.errors.Cancelled`).
    Returns:
        a sorted tuple of indices such that ``forces`` holds on it and fails on it minus any
        one index; ``()`` when ``forces(())`` holds; None when ``forces(range(n))`` fails.
    Source: Junker 2004, Algorithm QUICKXPLAIN (the background is the events kept so far,
    the splits halve the remaining events).
    """
    memo: dict = {}

    def p(s) -> bool:
        key = tuple(sorted(s))
        if key not in memo:
            check_cancel(cancel)
            memo[key] = bool(forces(key))
        return memo[key]

    allv = tuple(range(n))
    try:
        if not p(allv):
            return None
        if p(()):
            return ()

        def qx(base: tuple, has_delta: bool, cands: tuple) -> tuple:
            if has_delta and p(base):
                return ()
            if len(cands) == 1:
                return cands
            half = len(cands) // 2
            c1, c2 = cands[:half], cands[half:]
            d2 = qx(base + c1, bool(c1), c2)
            d1 = qx(base + d2, bool(d2), c1)
            return d1 + d2

        res = tuple(sorted(qx((), False, allv)))
        if not monotone:
            if not p(res):               # not monotone: fall back on the whole log
                res = allv
            res = _reduce(res, p)
        return res
    finally:
        if calls is not None:
            calls.append(len(memo))


def _reduce(res: tuple, p) -> tuple:
    """Drop single events while the predicate still holds, until none can be dropped."""
    changed = True
    while changed:          # passes of deletion; a pass after a change re-checks the rest
        changed = False
        for i in list(res):
            t = tuple(j for j in res if j != i)
            if p(t):
                res, changed = t, True
    return res


def minimal_conflict(n: int, consistent: SubsetPredicate, *, monotone: bool = True,
                     calls: Optional[list] = None, cancel: CancelFlag = None) -> Optional[tuple]:
    """An irreducible set of event indices that cannot all be true (a minimal unsatisfiable
    subset): ``consistent`` fails on it and holds on it minus any one index.

    Args:
        n: number of events; consistent: predicate over a sorted tuple of event indices.
        monotone: whether every subset of a consistent set is consistent.
    Returns:
        sorted tuple; ``()`` when the setup alone is impossible; None when all ``n`` events
        are consistent together.
    """
    return quickxplain(n, lambda s: not consistent(s), monotone=monotone, calls=calls,
                       cancel=cancel)


def entries_text(describe: Callable[[int], str], indices: Sequence[int]) -> str:
    """``"#2 (Bob passed …); #5 (…)"``: entries numbered from 1 with their words."""
    return "; ".join(f"#{i + 1} ({describe(i)})" for i in indices)


def explain_with(fact: dict, n: int, status: str, forces: SubsetPredicate,
                 steps_for: Callable[[tuple], list], *, monotone: bool = True,
                 cancel: CancelFlag = None) -> Explanation:
    """The :class:`Explanation` of ``fact`` given its ``status`` under the full log, a
    predicate ``forces`` (does a subset force that status?) and ``steps_for`` (the steps in
    words for the subset found: a list of strings, or a ``(steps, details)`` pair of tuples,
    :func:`split_details`). ``"uncertain"`` gives no subset and one step."""
    if status not in STATUSES:
        raise ValueError(status)
    if status == "uncertain":
        return Explanation(fact, status, (), (_("The entries so far leave this open."),))
    because = quickxplain(n, forces, monotone=monotone, cancel=cancel)
    if because is None:  # the engine's status and the predicate disagree: not expected
        raise RuntimeError(f"the full log does not force the status {status!r} of {fact}")
    steps = steps_for(because)
    if isinstance(steps, tuple) and len(steps) == 2 and isinstance(steps[0], tuple):
        return Explanation(fact, status, because, steps[0], steps[1])     # (steps, details)
    return Explanation(fact, status, because, tuple(steps))


def conflict_error(n: int, consistent: SubsetPredicate, describe: Callable[[int], str],
                   *, monotone: bool = True, cancel: CancelFlag = None) -> Optional[ConflictError]:
    """A :class:`ConflictError` naming an irreducible conflicting set of entries, or None when
    the log is consistent."""
    conflict = minimal_conflict(n, consistent, monotone=monotone, cancel=cancel)
    if conflict is None:
        return None
    if not conflict:
        return ConflictError((), _("no world fits the setup"))
    entries = entries_text(describe, conflict)
    if len(conflict) > 1:
        return ConflictError(conflict, _("these entries cannot all be true together: {entries}; "
                                         "one of them may be mistyped").format(entries=entries))
    return ConflictError(conflict, _("these entries cannot all be true together: {entries}")
                         .format(entries=entries))
