"""Diagnosis of a contradictory log: which single entry, edited or removed, makes it consistent.

A contradiction names entries that cannot all be true together (:mod:`engines.core.explain`),
but the player wants to know which entry was mistyped. A *correction* is a single-entry edit
after which the whole log is consistent again: removing the entry, or changing one field of it
(an answer, a card, a player, a reaction) to another value. This module searches for them; each
game supplies its candidate edits with a plausibility cost (``engines/<game>/diagnosis.py``) and
a consistency check (:class:`Checker`).

The search, in the spirit of model-based diagnosis (R. Reiter, "A theory of diagnosis from first
principles", Artificial Intelligence 32, 1987: a diagnosis is a set of components whose failure
explains the observations; here the components are the log's entries and the smallest
diagnoses are single entries) and of minimal correction subsets (M. H. Liffiton and K. A.
Sakallah, "Algorithms for computing minimal unsatisfiable subsets of constraints", J. Automated
Reasoning 40, 2008):

1. Find ``k``, the first entry after which nothing is consistent (the log's prefixes are
   checked in order; a consistent log has every prefix consistent). An edit of an entry after
   ``k`` leaves the impossible prefix as it is, so only entries ``0..k`` are candidates.
2. In monotone games (every subset of a consistent set of entries is consistent: Cluedo,
   Inkognito, Guess Who?) a correction must touch every conflicting subset, so the candidates
   are the entries of one irreducible conflicting subset of the prefix ``0..k`` (it is kept and
   reported as ``conflict``). In Egghead, where an answer changes what a later reaction means,
   every entry ``0..k`` is a candidate.
3. The candidate edits are tried entry by entry from ``k`` backwards (the entries nearest the
   contradiction are the likeliest slips and the cheapest to check), each entry's edits in
   order of plausibility (the game's cost: a neighbouring number, a card of the same category,
   the next player in the seating order), each checked by the game's exact engine, until every
   candidate was tried or the budget is spent. The corrections found are ranked by that cost.
4. When no single edit works, the smallest sets of removals that do are searched the same way
   (pairs, then triples), within what is left of the budget.

The budget is counted in *steps*, one step being one event the engine's consistency check
processes, so a diagnosis is a function of its input (the command line is deterministic); the
app may add a wall-clock cap (``deadline``). A search stopped by either says so
(``complete=False``): "not found within the budget".

The words (an edit's text, the message and the lines) are marked for translation where they are
built (:mod:`engines.core.i18n`): English on the command line, which never sets a language.
"""
from __future__ import annotations

import bisect
import itertools
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Optional, Protocol, Sequence

from engines.core.errors import CancelFlag, ContradictionError, check_cancel
from engines.core.i18n import N_, _, ngettext

#: Largest set of removals searched when no single edit works.
MAX_REMOVAL_SET = 3


@dataclass(frozen=True)
class Edit:
    """One candidate correction of one entry.

    Attributes:
        entry: 0-based index of the entry in the log.
        field: the event's JSON field changed (``"answer"``, ``"card"``, ``"player"``,
            ``"solved"``, …), or None to remove the entry.
        value: the field's new JSON value (None for a removal).
        event: the edited event (None for a removal).
        cost: how implausible the slip is (lower is likelier; a removal costs
            :data:`REMOVAL_COST`); ties keep the game's order.
        text: the edit in words, for the banner: ``"the answer 3"``, ``"Bob instead of Ann"``.
    """

    entry: int
    field: Optional[str]
    value: Any
    event: Any
    cost: float
    text: str

    def to_json(self) -> dict:
        """``{"entry": i, "remove": true}`` or ``{"entry": i, "field": f, "value": v}``, plus
        ``"text"`` (the edit in words)."""
        if self.field is None:
            return {"entry": self.entry, "remove": True, "text": self.text}
        return {"entry": self.entry, "field": self.field, "value": self.value, "text": self.text}


#: Plausibility cost of removing an entry: after the likeliest field slips (cost 1-2: a
#: neighbouring number, the next player, a card of the same category), before the unlikely ones.
REMOVAL_COST = 2.5


#: A removal's text (translated when the edit is made: :func:`removal`).
REMOVE_TEXT = N_("remove it")


def removal(entry: int) -> Edit:
    """The candidate that removes ``entry`` (its text "remove it" in the language in effect)."""
    return Edit(entry, None, None, None, REMOVAL_COST, _(REMOVE_TEXT))


class Checker(Protocol):
    """A game's consistency check of edited logs (see :class:`ReplayChecker`,
    :class:`IncrementalChecker`)."""

    n: int
    steps: int

    def first_bad(self) -> int:
        """0-based index of the first entry after which nothing is consistent; ``n`` when the
        log is consistent; ``-1`` when the setup alone is impossible."""

    def consistent_with(self, start: int, tail: Sequence, rest_from: Optional[int] = None) -> bool:
        """Whether ``events[:start] + tail`` is consistent (adds the events processed to
        ``steps``); ``rest_from``: ``tail`` ends with ``events[rest_from:]``."""

    # Optional: ``group(edit)`` -> a hashable key or None, and ``consistent_batch(start,
    # tails)`` -> one bool per tail, deciding the edits of one group (same entry) together,
    # exactly as ``consistent_with`` would one by one.


class ReplayChecker:
    """Checks an edited log by one call of ``consistent(events)`` on the whole edited log (one
    step per event in it). ``monotone``: prefixes are consistent when the log is, and consistency
    is lost for good, so ``first_bad`` bisects (O(log n) calls)."""

    def __init__(self, events: Sequence, consistent: Callable[[list], bool],
                 monotone: bool = True, cancel: CancelFlag = None):
        self.events = list(events)
        self.n = len(self.events)
        self._consistent = consistent
        self.monotone = monotone
        self.cancel = cancel
        self.steps = 0

    def check(self, events: list) -> bool:
        check_cancel(self.cancel)
        self.steps += max(1, len(events))
        return bool(self._consistent(events))

    def first_bad(self) -> int:
        if not self.check([]):
            return -1
        if self.check(self.events):
            return self.n
        lo, hi = 0, self.n - 1          # events[:hi + 1] is inconsistent
        while lo < hi:
            mid = (lo + hi) // 2
            if not self.check(self.events[:mid + 1]):
                hi = mid
            else:
                lo = mid + 1
        return lo

    def consistent_with(self, start: int, tail: Sequence, rest_from: Optional[int] = None) -> bool:
        return self.check(self.events[:start] + list(tail))


class IncrementalChecker:
    """Checks edited logs with a game's incremental interface (``initial``, ``update``,
    ``copy_state``; :class:`engines.core.contract.IncrementalEngine`): the state after every
    prefix up to the first contradiction is kept (every ``stride``-th one when a state is
    large), so an edit of entry ``i`` replays only the events from ``i`` on, and stops at the
    first one the engine finds impossible. One step is one ``update``.

    ``prepare(state, i)`` (optional) fills the caches of the state kept before entry ``i``
    once, before it is copied for every edit of that entry.

    ``refuses(state, index, event)`` (optional) answers, without changing ``state``, whether
    ``update`` would raise at ``event``: True (it would: the replay stops there, no update),
    False (it would not), or None (unknown: the update decides). It must be exact whenever it
    answers. With it, an edited log is replayed without copying a state when the edit fails
    at once, and the last event of a replay is never applied (only its verdict is needed): a
    game whose exact check is cheaper than its update (Egghead: my row of the master table
    against a whole-table pass) saves most of the work, since most candidates fail.

    ``prescreen(state, index, events)`` (optional) is a cheap necessary condition on a whole
    replay: False when the events from ``index`` on certainly cannot all follow ``state``
    (then nothing is replayed), True when they may. The events it reads are counted too, one
    step per ``screened_per_step`` of them (carried over between calls), so that a search
    whose candidates are all screened out still ends within its budget: a log of thousands
    of entries has millions of removal sets, each screened in time linear in the log.
    """

    def __init__(self, setup, events: Sequence, initial, update, copy_state, *,
                 state_bytes: int = 0, memory_budget: int = 256 << 20, cancel: CancelFlag = None,
                 prepare=None, refuses=None, prescreen=None, screened_per_step: int = 1):
        self.setup = setup
        self.events = list(events)
        self.n = len(self.events)
        self._update, self._copy = update, copy_state
        self._prepare = prepare
        self._refuses = refuses
        self._prescreen = prescreen
        if screened_per_step < 1:
            raise ValueError("screened_per_step must be at least 1")
        self.screened_per_step = screened_per_step
        self.screened = 0        # events read by the prescreen, in all
        self.cancel = cancel
        self.steps = 0
        self.stride = max(1, -(-(max(1, state_bytes) * (self.n + 1)) // memory_budget))
        self._initial = initial
        self.snaps: dict = {}
        self._prepared: set = set()
        self._k: Optional[int] = None

    def state_before(self, i: int):
        """The kept state after ``events[:i]`` (read it, never change it), or None when it
        was not kept (large states) or ``i`` is past the first contradiction."""
        self.first_bad()
        return self.snaps.get(i)

    def _apply(self, st, index: int, ev) -> bool:
        check_cancel(self.cancel)
        self.steps += 1
        try:
            self._update(self.setup, st, index, ev, self.cancel)
        except ContradictionError:
            return False
        return True

    def first_bad(self) -> int:
        if self._k is not None:
            return self._k
        try:
            st = self._initial(self.setup)
        except ContradictionError:
            self._k = -1
            return -1
        self.snaps[0] = self._copy(st)
        k = self.n
        for i, ev in enumerate(self.events):
            if not self._apply(st, i, ev):
                k = i
                break
            if (i + 1) % self.stride == 0:
                self.snaps[i + 1] = self._copy(st)
        self._k = k
        return k

    def consistent_with(self, start: int, tail: Sequence, rest_from: Optional[int] = None) -> bool:
        """Whether ``events[:start] + tail`` is consistent."""
        self.first_bad()
        base = max(j for j in self.snaps if j <= start)
        if self._prepare is not None and base == start and base not in self._prepared:
            self._prepare(self.snaps[base], base)
            self._prepared.add(base)
        run = [(j, self.events[j]) for j in range(base, start)] + \
            [(start + j, ev) for j, ev in enumerate(tail)]
        st, copied = self.snaps[base], False
        if self._prescreen is not None:
            check_cancel(self.cancel)
            before = self.screened // self.screened_per_step
            self.screened += len(run)
            self.steps += self.screened // self.screened_per_step - before
            if not self._prescreen(st, base, [e for _, e in run]):
                return False
        for pos, (index, ev) in enumerate(run):
            if self._refuses is not None:
                verdict = self._refuses(st, index, ev)
                if verdict is not None:
                    check_cancel(self.cancel)
                    self.steps += 1
                    if verdict:
                        return False
                    if pos == len(run) - 1:
                        return True         # the last event fits: its update is not needed
                    self.steps -= 1         # the update below counts the step
            if not copied:
                st, copied = self._copy(st), True
            if not self._apply(st, index, ev):
                return False
        return True


def removal_sets_to_try(n: int, size: int, k: int,
                        pool: Optional[Sequence[int]] = None) -> Iterable[tuple]:
    """The sets of ``size`` entries of a log of ``n`` whose removal may make it consistent, in
    lexicographic order: sorted index tuples whose first entry is at most ``k`` (the first
    impossible entry: removing only later ones leaves the impossible prefix) and, when
    ``pool`` is given (a conflicting subset, in monotone games), holding one of its entries.

    Generated without visiting the others: the first entry runs over ``0..k`` and a tuple
    still missing a ``pool`` entry closes with one, so the work between two yielded sets is
    O(n) at most whatever ``n``, ``size`` and the number of sets left out (a log of 2,000
    entries has about 1.3 billion triples, 20 million of which start within the first 10).
    """
    hit = None if pool is None else frozenset(pool)
    hits = None if pool is None else sorted(hit)
    if hits == []:
        return

    def rest(start: int, r: int, need: bool):
        if r == 0:
            yield ()
            return
        if need and r == 1:                  # the last entry must be one of the pool's
            for x in hits[bisect.bisect_left(hits, start):]:
                yield (x,)
            return
        for x in range(start, n - r + 1):
            still = need and x not in hit
            if still and hits[-1] < x + 1:   # no pool entry left after x
                return
            for tail in rest(x + 1, r - 1, still):
                yield (x,) + tail

    for first in range(min(k, n - size) + 1):
        for tail in rest(first + 1, size - 1, hit is not None and first not in hit):
            yield (first,) + tail


@dataclass(frozen=True)
class Diagnosis:
    """What to fix in a contradictory log.

    Attributes:
        first_bad: 0-based index of the first entry after which nothing is consistent
            (``-1``: the setup alone is impossible).
        conflict: 0-based indices, ascending: an irreducible set of entries that cannot all be
            true together (in monotone games a minimal unsatisfiable subset; in Egghead a sub-log
            in the same order that is contradictory while dropping any one entry is not).
        corrections: the single-entry edits found that make the whole log consistent, likeliest
            slip first (:class:`Edit`).
        removal_sets: when no single edit works and the search was complete: the smallest sets
            of entries (0-based, ascending) whose removal makes the log consistent.
        complete: every candidate was tried (False: the budget or the time cap ran out first,
            so more corrections may exist).
        steps: events the engine processed (the budget's unit); budget: the budget given.
        tried: candidate edits checked.
        seconds: wall time of the diagnosis (not in :meth:`to_json`: the command line's output
            is a function of its input).
        message: the diagnosis in one sentence.
    """

    first_bad: int
    conflict: tuple
    corrections: tuple = ()
    removal_sets: tuple = ()
    complete: bool = True
    steps: int = 0
    budget: int = 0
    tried: int = 0
    seconds: float = 0.0
    message: str = ""
    lines: tuple = field(default=())

    def entries(self) -> list:
        """The entries to look at first: those with a correction (likeliest first), then the
        rest of the conflict."""
        out = list(dict.fromkeys(c.entry for c in self.corrections))
        return out + [i for i in self.conflict if i not in out]

    def to_json(self) -> dict:
        """The command line's object: ``{"status": "contradiction", "conflict", "corrections",
        "removal_sets", "search": {"complete", "steps", "budget", "tried"}, "message",
        "steps"}`` (``"steps"``: the diagnosis in words)."""
        return {"status": "contradiction", "first_bad": self.first_bad,
                "conflict": list(self.conflict),
                "corrections": [c.to_json() for c in self.corrections],
                "removal_sets": [list(s) for s in self.removal_sets],
                "search": {"complete": self.complete, "steps": self.steps, "budget": self.budget,
                           "tried": self.tried},
                "message": self.message, "steps": list(self.lines)}


class _OutOfBudget(Exception):
    pass


class _Budget:
    def __init__(self, checker: Checker, budget: int, deadline: Optional[float]):
        self.checker, self.budget, self.deadline = checker, budget, deadline

    def left(self) -> bool:
        if self.checker.steps >= self.budget:
            return False
        return self.deadline is None or time.monotonic() < self.deadline


def diagnose(events: Sequence, checker: Checker, edits_for: Callable[[int], Iterable[Edit]],  # noqa: C901 (the search with its budget, time and cancel checks)
             describe: Callable[[int], str], *, monotone: bool, budget: int,
             time_limit: Optional[float] = None, cancel: CancelFlag = None) -> Optional[Diagnosis]:
    """Diagnose ``events`` (see the module docstring).

    Args:
        events: the log; checker: the game's :class:`Checker` over it.
        edits_for: candidate field edits of entry ``i`` (the removal is added here).
        describe: entry ``i`` in words (the History's text).
        monotone: whether every subset of a consistent set of entries is consistent.
        budget: most steps (events processed by the engine) to spend; the search stops there.
        time_limit: optional wall-clock cap in seconds (the app); None for the command line.
        cancel: zero-argument callable (:class:`~engines.core.errors.Cancelled`).
    Returns:
        :class:`Diagnosis`, or None when the log is consistent.
    Raises:
        ValueError: ``budget`` < 1.
    """
    from engines.core.explain import entries_text, quickxplain

    if budget < 1:
        raise ValueError("the budget must be at least one step")
    t0 = time.monotonic()
    deadline = None if time_limit is None else t0 + time_limit
    events = list(events)
    n = len(events)
    k = checker.first_bad()
    if k >= n:
        return None
    if k < 0:
        words = _("No world fits the setup, whatever the entries say.")
        return Diagnosis(-1, (), steps=checker.steps, budget=budget,
                         seconds=time.monotonic() - t0, message=words, lines=(words,))
    lim = _Budget(checker, budget, deadline)

    def sub_ok(s) -> bool:                    # a sub-log, same order
        s = list(s)
        j = 0
        while j < len(s) and s[j] == j:
            j += 1
        return checker.consistent_with(j, [events[x] for x in s[j:]])

    def find_conflict() -> tuple:
        """Within the impossible prefix 0..k; the whole prefix when the budget runs out."""
        def bad(s) -> bool:
            if not lim.left():
                raise _OutOfBudget
            return not sub_ok(s)
        try:
            c = quickxplain(k + 1, bad, monotone=monotone, cancel=cancel)
        except _OutOfBudget:
            c = None
        return tuple(range(k + 1)) if c is None else tuple(c)

    # monotone games: a correction touches every conflicting subset, so one of them is the pool
    conflict = find_conflict() if monotone else None
    pool = sorted(conflict) if monotone else list(range(k + 1))
    cands = [e for i in pool for e in itertools.chain(edits_for(i), (removal(i),))]
    # search order: the entries nearest the first impossible one first (the likeliest slips
    # in practice, and the cheapest to check: the fewest events replayed), each entry's edits
    # likeliest first; the corrections found are ranked by plausibility below
    order = sorted(range(len(cands)), key=lambda j: (-cands[j].entry, cands[j].cost, j))
    # a checker may decide a group of edits of one entry in one replay (Egghead: new cards
    # after a solve leave the master table as it is); ``group(edit)`` names the group or None
    group = getattr(checker, "group", None)
    keys = [None if group is None else group(e) for e in cands]
    decided: dict = {}
    found: list = []
    tried = 0
    complete = True

    def tail_of(e) -> list:
        return ([] if e.event is None else [e.event]) + events[e.entry + 1:]

    for j in order:
        if not lim.left():
            complete = False
            break
        e = cands[j]
        tried += 1
        if j not in decided:
            members = [x for x in order if x not in decided and keys[x] is not None
                       and keys[x] == keys[j]] if keys[j] is not None else []
            if len(members) > 1:
                verdicts = checker.consistent_batch(e.entry, [tail_of(cands[x]) for x in members])
                decided.update(zip(members, verdicts))
            else:
                decided[j] = checker.consistent_with(e.entry, tail_of(e), e.entry + 1)
        if decided[j]:
            found.append(e)
    removal_sets: list = []
    if not found and complete:
        for size in range(2, MAX_REMOVAL_SET + 1):
            for combo in removal_sets_to_try(n, size, k, pool if monotone else None):
                if not lim.left():
                    complete = False
                    break
                tried += 1
                keep = [x for x in range(combo[0], n) if x not in combo]
                if checker.consistent_with(combo[0], [events[x] for x in keep]):
                    removal_sets.append(combo)
            if removal_sets or not complete:
                break
    found.sort(key=lambda e: (e.cost, -e.entry))
    if conflict is None:
        conflict = find_conflict()
    message, lines = _words(events, k, conflict, found, removal_sets, complete, budget,
                            describe, entries_text)
    return Diagnosis(k, conflict, tuple(found), tuple(removal_sets), complete, checker.steps,
                     budget, tried, time.monotonic() - t0, message, tuple(lines))


def _words(events, k, conflict, found, removal_sets, complete, budget, describe,
           entries_text) -> tuple:
    lines = [_("Entries #1 to #{last} cannot all be true: after #{last} ({entry}) no world fits "
               "the log.").format(last=k + 1, entry=describe(k))]
    if conflict:
        lines.append(_("These entries cannot all be true together: {entries}.").format(
            entries=entries_text(describe, conflict)))
    for e in found:
        if e.field is None:
            lines.append(_("Removing #{n} ({entry}) makes the log consistent.").format(
                n=e.entry + 1, entry=describe(e.entry)))
        else:
            lines.append(_("#{n} ({entry}) with {correction} makes the log consistent.").format(
                n=e.entry + 1, entry=describe(e.entry), correction=e.text))
    short = []
    for e in found:
        if e.entry not in [x for x, _t, _r in short]:
            short.append((e.entry, e.text, e.field is None))
    if found:
        items = ", ".join(
            f"#{i + 1} ({t})" if removes else _("#{n} ({correction} fits)").format(n=i + 1, correction=t)
            for i, t, removes in short[:5])
        if len(short) > 5:
            items = ngettext("{items} and {n} more", "{items} and {n} more", len(short) - 5).format(
                items=items, n=len(short) - 5)
        message = _("Probably mistyped: {entries}").format(entries=items)
    elif removal_sets:
        sets = "; ".join(_join_and([f"#{i + 1}" for i in s]) for s in removal_sets[:5])
        if len(removal_sets) > 5:
            sets = _("{sets} and {n} more sets").format(sets=sets, n=len(removal_sets) - 5)
        message = ngettext("No single entry, changed or removed, makes the log consistent; "
                           "removing {n} entry does: {sets}",
                           "No single entry, changed or removed, makes the log consistent; "
                           "removing {n} entries does: {sets}",
                           len(removal_sets[0])).format(n=len(removal_sets[0]), sets=sets)
    elif complete:
        message = _("No single entry, changed or removed, makes the log consistent, nor does "
                    "removing up to {n} entries.").format(n=MAX_REMOVAL_SET)
    else:
        message = _("No correction found within the budget of {budget} steps; these entries "
                    "cannot all be true: {entries}").format(
                        budget=budget, entries=", ".join(f"#{i + 1}" for i in conflict))
    if found and not complete:
        message = _("{message} (the search stopped at its budget: there may be more)").format(
            message=message)
    lines.append(message)
    return message, lines


def _join_and(items: Sequence[str]) -> str:
    """``"#1 and #2 and #3"`` (a set of entries to remove together), in the language in effect."""
    out = items[0]
    for item in items[1:]:
        out = _("{items} and {last}").format(items=out, last=item)
    return out
