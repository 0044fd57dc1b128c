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
from engines.core.explain import Explanation, conflict_error, explain_with, listed, split_details
from engines.core.i18n import _, ngettext
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
                                 _("explanations are not available with {players} players and "
                                   "{values} values: every sub-log of the game would rebuild a table "
                                   "of gigabytes").format(players=len(setup.players), values=setup.values))


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


def _reactions_against(setup: Setup, before: list, ev: Reactions, stacks) -> dict:
    """Why the announced reactions rule out each of my ``stacks`` (sorted tuples): ``{reason:
    [stacks]}`` with reasons in words ("B could not have known their cards"), from every
    player's solved indicator on the master table before the round (Zorn 2024, eqs. (3)-(4):
    a player solves as soon as their row of the table has one stack). Empty for tables too
    large to rebuild here."""
    from engines.egghead.inference import _Ctx, _fold, _indicators, is_large
    from engines.egghead.table import indicator_at
    if is_large(setup):
        return {}
    out: dict = {}
    try:
        ctx, st = _Ctx(setup), _fold(setup, before, None)
        inds = _indicators(ctx, st, None)
        w = ctx.world(st.visible)
        rows = {p: indicator_at(ctx.n, ctx.S, ctx.axis[p], inds[p], w) for p in ctx.order[:-1]}
        for stack in stacks:
            mine = ctx.space.index(stack)
            why = []
            for p in ctx.order[:-1]:
                could = bool(rows[p][mine])
                if could != (p in ev.solved):
                    why.append((_("{player} could not have known their cards") if not could
                                else _("{player} would have known their cards and solved")).format(player=p))
            out.setdefault("; ".join(why) or "", []).append(stack)
    except ContradictionError:
        return {}
    return out


def _fact_text(f: tuple, status: str) -> str:
    if f[0] == "stack":
        st = " ".join(map(str, f[1]))
        return (_("you hold {stack}") if status == "certain" else _("you do not hold {stack}")).format(stack=st)
    if status == "certain":
        return _("your card no. {n} (lowest first) shows {value}").format(n=f[1] + 1, value=f[2])
    return _("your card no. {n} (lowest first) does not show {value}").format(n=f[1] + 1, value=f[2])


def _stacks_text(stacks) -> list:
    return [" ".join(map(str, st)) for st in stacks]


def _steps(setup: Setup, events, subset, f: tuple, status: str) -> tuple:
    """``(steps, details)``: per entry of ``subset``, in order, what it rules out of my stacks
    and by which rule (an answer is true of the cards the moderator sees; players solve as soon
    as they know their cards; a solve reveals the cards called and deals new ones), lists cut
    with "and N more" (in full in the details)."""
    if not subset:
        t = _("Before any entry: {fact}").format(fact=_fact_text(f, status))
        return (t,), ()
    sp = stack_space(setup.values, setup.cards_per_player)
    pairs = []
    prev = {sp.stack(j) for j in range(sp.size)}
    for j, i in enumerate(subset):
        ev = events[i]
        valids = _valids(setup, [events[x] for x in subset[:j + 1]])
        now = set(valids or ())
        st = _status(valids, f) if valids is not None else "uncertain"
        gone = sorted(prev - now, key=lambda x: (x != f[1], x) if f[0] == "stack" else x)
        head = f"#{i + 1}: {describe_event(setup, ev)}"
        tail = ngettext("{n} of your stacks remains", "{n} of your stacks remain", len(now)).format(n=len(now))
        if st != "uncertain":
            tail = _("{remain}; now {fact}").format(remain=tail, fact=_fact_text(f, st))
        if isinstance(ev, Answer):
            if gone:
                short, full = listed(_stacks_text(gone), last="or")
                line = _("{head} → the moderator answers truthfully: with the cards you see, had you held "
                         "{stacks}, the answer would differ: out; {tail}")
                pairs.append((line.format(head=head, stacks=short, tail=tail),
                              line.format(head=head, stacks=full, tail=tail)))
            else:
                t = _("{head} → none of your stacks gives another answer; everyone heard it, and what "
                      "it tells the other players is what the later reactions show").format(head=head)
                pairs.append((t, t))
        elif isinstance(ev, Reactions):
            if gone:
                groups = _reactions_against(setup, [events[x] for x in subset[:j]], ev, gone)
                parts_s, parts_f = [], []
                for why, stacks in groups.items():
                    short, full = listed(_stacks_text(stacks), last="or")
                    reason = why or _("someone would have reacted otherwise")
                    had = _("had you held {stacks}, {reason}")
                    parts_s.append(had.format(stacks=short, reason=reason))
                    parts_f.append(had.format(stacks=full, reason=reason))
                if not groups:
                    short, full = listed(_stacks_text(gone), last="or")
                    had = _("had you held {stacks}, someone would have reacted otherwise")
                    parts_s = [had.format(stacks=short)]
                    parts_f = [had.format(stacks=full)]
                line = _("{head} → players solve as soon as they know their cards: {cases}: out; {tail}")
                pairs.append((line.format(head=head, cases="; ".join(parts_s), tail=tail),
                              line.format(head=head, cases="; ".join(parts_f), tail=tail)))
            else:
                t = _("{head} → none of your stacks is out by it; the others learn from it that whoever "
                      "did not solve could not yet know their cards, which the later entries use").format(head=head)
                pairs.append((t, t))
        else:
            assert isinstance(ev, Solve)
            if gone:
                short, full = listed(_stacks_text(gone), last="or")
                line = _("{head} → {player} called their cards, so every world where they could not is "
                         "out: {stacks}; {tail}")
                pairs.append((line.format(head=head, player=ev.player, stacks=short, tail=tail),
                              line.format(head=head, player=ev.player, stacks=full, tail=tail)))
            else:
                t = _("{head} → the cards called are revealed and new ones dealt; none of your stacks is "
                      "out by it, but the table the later entries use starts again for {player}").format(
                    head=head, player=ev.player)
                pairs.append((t, t))
        prev = now
    refs = ", ".join(f"#{i + 1}" for i in subset)
    if len(subset) > 1:
        t = _("{refs} together, in this order → {fact}").format(refs=refs, fact=_fact_text(f, status))
        pairs.append((t, t))
    return split_details(pairs)
