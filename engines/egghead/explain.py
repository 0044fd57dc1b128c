"""Why one of my Egghead stacks is ruled out (or is the only one left), or why a position's
value is certain: the entries that force it (Zorn 2024's master table, exact).

Facts: ``{"stack": [1, 2, 4]}`` (a stack of mine, sorted or not) or ``{"position": 1,
"value": 2}`` (my ``position``-th smallest card, from 1, shows ``value``). Status under the
exact posterior of :func:`engines.egghead.inference.infer` (my valids, with behavioural analysis
when the setup says I use it): a stack is ``"impossible"`` when it is not among my valids and
``"certain"`` when it is the only one; a position's value is ``"certain"`` when every valid
stack has it there, ``"impossible"`` when none does.

Subsets. Egghead's entries are not independent facts: a reactions round says "exactly these
players could solve", which depends on what the earlier answers told them, and a solve changes
the table (eq. (5)). A subset of the log is therefore the log with the other entries never
logged, in the same order: a removed answer was simply not asked, a removed reactions round
was not announced, a removed solve did not happen. A subset that is itself contradictory (a
player "solved" without the answer that let them) forces nothing. This predicate is not
monotone, so the subset QuickXplain finds is checked and reduced one entry at a time until
dropping any one of its entries leaves the fact uncertain or the log contradictory
(:mod:`engines.core.explain`).
"""
from __future__ import annotations

from typing import Optional, Sequence

from engines.core.errors import ContradictionError, SessionFormatError
from engines.core.explain import Explanation, conflict_error, explain_with
from engines.core.schema import Reader
from engines.egghead.inference import infer, is_large
from engines.egghead.model import Answer, Reactions, Setup, Solve, describe_event
from engines.egghead.questions import stack_space


def parse_fact(setup: Setup, fact) -> tuple:
    """``("stack", sorted tuple)`` or ``("position", 0-based position, value)``.

    Raises:
        SessionFormatError: not a stack of ``cards_per_player`` values in 1..values, or a
            position / value out of range (path ``$.fact...``).
    """
    r = Reader(fact, "$.fact")
    k, v = setup.cards_per_player, setup.values
    if r.has("stack"):
        lst = r.list("stack", min_len=k, max_len=k)
        for i, c in enumerate(lst):
            if isinstance(c, bool) or not isinstance(c, int) or not 1 <= c <= v:
                raise SessionFormatError(f"$.fact.stack[{i}]",
                                         f"expected a card value 1..{v}, got {c!r}")
        return ("stack", tuple(sorted(lst)))
    if r.has("position"):
        pos = r.int("position", min=1, max=k)
        val = r.int("value", min=1, max=v)
        return ("position", pos - 1, val)
    raise SessionFormatError("$.fact", "give \"stack\" (one of your stacks) or \"position\" "
                                       "and \"value\"")


def _valids(setup: Setup, events) -> Optional[tuple]:
    try:
        return infer(setup, events).my_valids
    except ContradictionError:
        return None


def _status(valids: tuple, f: tuple) -> str:
    if f[0] == "stack":
        if f[1] not in valids:
            return "impossible"
        return "certain" if len(valids) == 1 else "uncertain"
    have = {s[f[1]] for s in valids}
    if f[2] not in have:
        return "impossible"
    return "certain" if have == {f[2]} else "uncertain"


def _check_size(setup: Setup) -> None:
    """Explanations rebuild the master table for many sub-logs; refuse tables too large to
    snapshot (6 players: 9-12 s per event, so hours per explanation)."""
    if is_large(setup):
        raise SessionFormatError("$.setup.players",
                                 f"explanations are not available with {len(setup.players)} "
                                 f"players and {setup.values} values: every sub-log of the "
                                 f"game would rebuild a table of gigabytes")


def explain_contradiction(setup: Setup, events: Sequence, *, cancel=None) -> Optional[list]:
    """An irreducible set of 0-based event indices whose sub-log (same order) is contradictory
    while dropping any one of them gives a consistent one; None when the log is consistent."""
    _check_size(setup)
    events = tuple(events)
    err = conflict_error(len(events), lambda s: _valids(setup, [events[i] for i in s]) is not None,
                         lambda i: describe_event(setup, events[i]), monotone=False,
                             cancel=cancel)
    return None if err is None else list(err.entries)


def explain(setup: Setup, events: Sequence, fact: dict, *, cancel=None) -> Explanation:
    """Why ``fact`` is certain, ruled out or open under ``events`` (see the module docstring).

    ``cancel``: zero-argument callable checked before every engine call (raises
    :class:`~engines.core.errors.Cancelled`), as in ``infer``.

    Returns:
        :class:`~engines.core.explain.Explanation` (``because``: 0-based event indices).
    Raises:
        SessionFormatError: the fact names no stack / position of the setup.
        ConflictError (a ContradictionError): the log is contradictory; it names an
            irreducible set of entries that cannot all be true together.
    Cost: each subset is one :func:`infer` (prefixes are cached by the engine); 3 players:
        see tests/benchmarks/bench_explain.py.
    """
    f = parse_fact(setup, fact)
    _check_size(setup)
    events = tuple(events)
    n = len(events)
    full = _valids(setup, events)
    if full is None:
        raise conflict_error(n, lambda s: _valids(setup, [events[i] for i in s]) is not None,
                             lambda i: describe_event(setup, events[i]), monotone=False,
                             cancel=cancel)
    status = _status(full, f)

    def forces(s):
        v = _valids(setup, [events[i] for i in s])
        return v is not None and _status(v, f) == status

    return explain_with(dict(fact), n, status, forces,
                        lambda s: _steps(setup, events, s, f, status), monotone=False,
                        cancel=cancel)


def _reactions_against(setup: Setup, before: list, ev: Reactions, f: tuple) -> Optional[str]:
    """Which announced reactions could not have happened had I held the stack ``f[1]``, in
    words ("B could not have known their cards"), from every player's solved indicator on the
    master table before the round (Zorn 2024, eqs. (3)-(4)); None for tables too large to
    rebuild here, or when no single reaction is to blame."""
    from engines.egghead.inference import _Ctx, _fold, _indicators, is_large
    from engines.egghead.table import indicator_at
    if is_large(setup):
        return None
    try:
        ctx, st = _Ctx(setup), _fold(setup, before, None)
        inds = _indicators(ctx, st, None)
        w = ctx.world(st.visible)
        mine = ctx.space.index(f[1])
        out = []
        for p in ctx.order[:-1]:
            could = bool(indicator_at(ctx.n, ctx.S, ctx.axis[p], inds[p], w)[mine])
            if could != (p in ev.solved):
                out.append(f"{p} could not have known their cards" if not could
                           else f"{p} would have known their cards and solved")
    except ContradictionError:
        return None
    return "; ".join(out) or None


def _fact_text(f: tuple, status: str) -> str:
    if f[0] == "stack":
        st = " ".join(map(str, f[1]))
        return f"you hold {st}" if status == "certain" else f"you do not hold {st}"
    pos = f"your card no. {f[1] + 1} (lowest first)"
    return f"{pos} shows {f[2]}" if status == "certain" else f"{pos} does not show {f[2]}"


def _steps(setup: Setup, events, subset, f: tuple, status: str) -> list:
    if not subset:
        return [f"Before any entry: {_fact_text(f, status)}"]
    sp = stack_space(setup.values, setup.cards_per_player)
    out = []
    prev = sp.size
    for j, i in enumerate(subset):
        ev = events[i]
        valids = _valids(setup, [events[x] for x in subset[:j + 1]])
        now = len(valids) if valids is not None else 0
        st = _status(valids, f) if valids is not None else "uncertain"
        what = f"{now} of your stacks remain"
        if st != "uncertain":
            what += f"; now {_fact_text(f, st)}"
        if isinstance(ev, Reactions):
            why = ""
            if now < prev:
                who = _reactions_against(setup, [events[x] for x in subset[:j]], ev, f) \
                    if f[0] == "stack" and st == "impossible" else None
                why = (f" (had you held {' '.join(map(str, f[1]))}, {who})" if who else
                       " (players solve as soon as they know their cards: in the stacks "
                       "removed, someone would have reacted otherwise)")
            out.append(f"#{i + 1}: {describe_event(setup, ev)} → {what}{why}")
        elif isinstance(ev, Answer):
            out.append(f"#{i + 1}: {describe_event(setup, ev)} → {what}")
        else:
            assert isinstance(ev, Solve)
            out.append(f"#{i + 1}: {describe_event(setup, ev)} → {what}")
        prev = now
    out.append(f"Together, in this order → {_fact_text(f, status)}")
    return out
