"""Which Egghead entry was probably mistyped: the corrections of a contradictory log.

Candidate edits of one entry (:mod:`engines.core.diagnosis` searches them, likeliest first):

* an answer: another answer to the same question (a neighbouring number first), among those
  some stack of mine gives with the cards I saw then; another answering player (rotating
  moderator); then a question next to it in the deck's list with the same answer (a card
  picked by mistake);
* a reactions round: another set of players who solved (one player more or fewer first; a
  solver whose solve is logged right after the round is less likely a slip);
* a solve: the new cards dealt, or the cards I called, one card different.

Knowledge is not monotone here (M. Zorn, "A study on the logic game Egghead", 2024, section 4:
a reaction means something different once an earlier answer is gone), so removal alone often
cannot restore consistency while changing the mistyped answer back does; every entry up to the
first impossible one is a candidate. Edited logs are checked with the exact master-table engine
(:func:`engines.egghead.inference.update`), replayed from the state kept after the edited
entry's prefix (:class:`engines.core.diagnosis.IncrementalChecker`).
"""
from __future__ import annotations

from typing import Optional, Sequence

from engines.core.diagnosis import Diagnosis, Edit, IncrementalChecker
from engines.core.diagnosis import diagnose as _diagnose
from engines.core.errors import SessionFormatError, check_cancel
from engines.egghead import inference as _inf
from engines.egghead.model import Answer, Reactions, Setup, Solve, describe_event, visible_after
from engines.egghead.questions import bound_deck, stack_space
from engines.egghead.table import BitTable, unpack_bits

#: Default budget in steps (events the engine processes), so that ``python -m engines explain``
#: stays within 10 s of CPU: the most a step took in random mistyped logs, times the budget, is
#: about 5 s (3 players: 0.44 ms; 4: 2.4 ms; 5: 107-167 ms, where 200 steps took up to 23 s;
#: ``python tests/benchmarks/bench_diagnosis.py --games egghead --egghead-players 3,4,5``).
#: ``--budget`` asks for a longer search.
DEFAULT_BUDGET = {3: 10000, 4: 2000, 5: 30}

#: Events :func:`answers_fit` screens per step of the budget, by number of players: about a
#: quarter of the measured ratio of a step's time to a screened event's (3 players: 0.56 ms
#: against 8 µs; 4: 2.9 ms against 15 µs; 5: 50 ms against 24 µs; random logs of
#: tests/engines/random_logs.py, medians of 8), so a budget bounds the screening's time too.
SCREENED_PER_STEP = {3: 16, 4: 64, 5: 512}


#: A question picked by mistake is taken to be a neighbour in the deck's list (the picker's
#: order): up to this many places before or after the logged one.
QUESTION_REACH = 2


def default_budget(setup: Setup) -> int:
    """Steps for at most about 5 s of work on the project's 2-core machine (fewer with more
    players): :data:`DEFAULT_BUDGET`."""
    return DEFAULT_BUDGET.get(len(setup.players), 50)


def _fits_my_view(setup: Setup, vis: dict, qid: str, answer: int, moderator) -> bool:
    """Whether some stack of mine gives ``answer`` with the cards I see (cheap: no table)."""
    deck = bound_deck(setup.values, setup.cards_per_player, len(setup.players))
    q = deck[qid]
    sp = stack_space(setup.values, setup.cards_per_player)
    partial = q.combine_all([sp.index(vis[p]) for p in setup.others if p != moderator])
    return bool(q.ok_given_partial(answer, moderator != setup.me)[partial].any())


def _stack_text(cards) -> str:
    return " ".join(map(str, cards))


def _one_card_off(setup: Setup, cards: tuple) -> list:
    out = []
    for j in range(len(cards)):
        for v in range(1, setup.values + 1):
            if v != cards[j]:
                new = tuple(sorted(cards[:j] + (v,) + cards[j + 1:]))
                if new != tuple(cards) and new not in out:
                    out.append(new)
    return out


def refuses(ctx, st, ev) -> Optional[bool]:
    """Whether :func:`engines.egghead.inference.update` would raise at ``ev`` after the state
    ``st`` — exactly, from my row of the master table and, for a reactions round, the rows of
    the other players' tables through the worlds of my row, never a pass over a whole table;
    ``st`` is not changed. None where the tables are not :class:`BitTable` (orbit tables).

    The engine's tests, point by point (Zorn 2024, eqs. (2)-(5) restricted to the worlds I
    consider, which are those of my row at the stacks I see, ``w``):

    * an answer: none of my stacks gives it with the cards I see (the answers-only row), or
      none of my still-valid stacks does (eq. (2) on my row);
    * a reactions round: my own reaction is not what I would do (I solve iff my row of the
      table that models me has one stack), or for every stack ``v`` of my row some other
      player ``p`` would have reacted otherwise in the world ``(w, v)`` (``p`` solves there iff
      ``p``'s row of the table that models ``p`` has exactly one stack: eqs. (3)-(4));
    * a solve: my cards are not in my row, or another player's logged cards are not those I
      saw (eq. (5) keeps my row otherwise).
    """
    if not isinstance(st.M, BitTable) or (st.A is not None and not isinstance(st.A, BitTable)):
        return None
    w = ctx.world(st.visible)
    row = _inf._my_row(ctx, st)
    if isinstance(ev, Answer):
        q = ctx.deck[ev.question]
        seen_me = ev.moderator != ctx.setup.me
        partial = q.combine_all([st.visible[p] for p in ctx.order[:-1] if p != ev.moderator])
        ok = q.ok_given_partial(ev.answer, seen_me)[partial]
        return not (st.ans_row & ok).any() or not (row & ok).any()
    if isinstance(ev, Reactions):
        me = ctx.setup.me
        mine = ctx.table_for(st, me).row(ctx.last, w)
        if (int(mine.sum()) == 1) != (me in ev.solved):
            return True
        keep = row.copy()
        for p in ctx.order[:-1]:
            if not keep.any():
                break
            T = ctx.table_for(st, p)
            idx = list(w[:-1])
            idx[ctx.axis[p]] = slice(None)
            # [p's stack, my stack]: p's valids in the world where I hold each stack
            valid = unpack_bits(T.t[tuple(idx)], ctx.S)
            keep &= (valid.sum(axis=0) == 1) == (p in ev.solved)
        return not keep.any()
    if ev.player == ctx.setup.me:
        return ev.cards is None or not row[ctx.space.index(ev.cards)]
    return ev.cards is not None and ctx.space.index(ev.cards) != st.visible[ev.player]


def answers_fit(ctx, st, events) -> bool:
    """A necessary condition for ``events`` to follow the state ``st``, without a table: the
    stacks of mine that give every answer logged since my last solve with the cards I see
    (the engine's answers-only row, eq. (2) on my row alone, with other players' new cards
    after their solves) never run out. False: the engine would refuse one of the events."""
    ans, vis, me = st.ans_row.copy(), dict(st.visible), ctx.setup.me
    for ev in events:
        if isinstance(ev, Answer):
            q = ctx.deck[ev.question]
            partial = q.combine_all([vis[p] for p in ctx.order[:-1] if p != ev.moderator])
            ans &= q.ok_given_partial(ev.answer, ev.moderator != me)[partial]
            if not ans.any():
                return False
        elif isinstance(ev, Solve):
            if ev.player == me:
                ans[:] = True
            elif ev.new_cards is not None:
                vis[ev.player] = ctx.space.index(ev.new_cards)
    return True


def fails_at_once(ctx, st, ev) -> bool:
    """Whether ``ev`` is impossible right after the state ``st`` (exactly when
    :func:`engines.egghead.inference.update` would raise at it): :func:`refuses`, or, on
    orbit tables, an answer none of my stacks gives (a reactions round or a solve is then not
    pre-checked: False). No table is copied or filtered."""
    verdict = refuses(ctx, st, ev)
    if verdict is not None:
        return verdict
    if isinstance(ev, Answer):
        q = ctx.deck[ev.question]
        partial = q.combine_all([st.visible[p] for p in ctx.order[:-1] if p != ev.moderator])
        ok = q.ok_given_partial(ev.answer, ev.moderator != ctx.setup.me)[partial]
        return not (st.ans_row & ok).any() or not (_inf._my_row(ctx, st) & ok).any()
    return False


def edits(setup: Setup, events: Sequence, i: int, state=None) -> list:
    """The candidate field edits of entry ``i`` (:class:`~engines.core.diagnosis.Edit`; the
    removal is added by the search). ``state``: the inference state after ``events[:i]``,
    when kept: edits impossible at once on it (:func:`fails_at_once`) are left out, since the
    engine would refuse them at entry ``i`` (exact, and no table is replayed for them)."""
    out = _edits(setup, events, i)
    if state is None:
        return out
    ctx = _inf._Ctx(setup)
    return [e for e in out if not fails_at_once(ctx, state, e.event)]


def _edits(setup: Setup, events: Sequence, i: int) -> list:
    ev = events[i]
    out = []
    if isinstance(ev, Answer):
        deck = bound_deck(setup.values, setup.cards_per_player, len(setup.players))
        vis = visible_after(setup, events[:i])
        seen = len(setup.players) - (0 if ev.moderator is None else 1)
        for a in deck[ev.question].possible_answers(seen):
            if a != ev.answer and _fits_my_view(setup, vis, ev.question, a, ev.moderator):
                d = abs(a - ev.answer)
                out.append(Edit(i, "answer", a, Answer(question=ev.question, answer=a, moderator=ev.moderator),
                                1.0 + min(d - 1, 9) / 10, f"the answer {a}"))
        if ev.moderator is not None:
            n = len(setup.players)
            at = setup.players.index(ev.moderator)
            for step in range(1, n):
                m = setup.players[(at + step) % n]
                if ev.answer in deck[ev.question].possible_answers(n - 1) and \
                        _fits_my_view(setup, vis, ev.question, ev.answer, m):
                    near = min(step, n - step)
                    out.append(Edit(i, "moderator", m, Answer(question=ev.question, answer=ev.answer, moderator=m),
                                    1.0 + 0.5 * (near - 1), f"{m} answering"))
        ids = list(deck)
        at = ids.index(ev.question)
        for j in range(max(0, at - QUESTION_REACH), min(len(ids), at + QUESTION_REACH + 1)):
            qid = ids[j]
            if qid != ev.question and ev.answer in deck[qid].possible_answers(seen) and \
                    _fits_my_view(setup, vis, qid, ev.answer, ev.moderator):
                text = deck[qid].spec.display_text(setup.values)
                out.append(Edit(i, "question", qid, Answer(question=qid, answer=ev.answer, moderator=ev.moderator),
                                3.0 + abs(j - at) / 10, f"the question “{text}”"))
    elif isinstance(ev, Reactions):
        was = set(ev.solved)
        players = setup.players
        # the solves logged right after the round back up its solvers: taking one of them out
        # of the round, or putting in a player with no solve after it, is a less likely slip
        solves = set()
        for later in events[i + 1:]:
            if not isinstance(later, Solve):
                break
            solves.add(later.player)
        for mask in range(1 << len(players)):
            solved = tuple(p for b, p in enumerate(players) if mask >> b & 1)
            if set(solved) == was:
                continue
            flips = len(was ^ set(solved))
            backed = len((was - set(solved)) & solves) + 0.5 * len((set(solved) - was) - solves)
            words = (", ".join(solved) + " solved") if solved else "nobody solved"
            out.append(Edit(i, "solved", list(solved), Reactions(solved=solved),
                            1.0 + 0.5 * (flips - 1) + 0.5 * backed, f"“{words}”"))
    elif isinstance(ev, Solve):
        if ev.player == setup.me and ev.cards is not None:
            for new in _one_card_off(setup, tuple(ev.cards)):
                out.append(Edit(i, "cards", list(new), Solve(player=ev.player, cards=new, new_cards=None), 2.0,
                                f"the cards {_stack_text(new)}"))
        elif ev.new_cards is not None:
            for new in _one_card_off(setup, tuple(ev.new_cards)):
                out.append(Edit(i, "new_cards", list(new), Solve(player=ev.player, cards=ev.cards, new_cards=new), 2.0,
                                f"the new cards {_stack_text(new)}"))
    return out


def _table_step(ctx, st, ev, cancel) -> None:
    """The tables' part of :func:`engines.egghead.inference.update` for ``ev`` (no check, no
    record; BitTables): eq. (2)/(6) for an answer, eqs. (3)-(4) for a reactions round, eq. (5)
    for a solve (the player's stack as I saw it)."""
    if isinstance(ev, Answer):
        seen = [True] * ctx.n
        if ev.moderator is not None:
            seen[ctx.axis[ev.moderator]] = False
        for T in (st.M, st.A):
            if T is not None:
                T.filter_answer(ctx.deck[ev.question], ev.answer, seen, cancel)
    elif isinstance(ev, Reactions):
        inds = _inf._indicators(ctx, st, cancel)
        st.M.keep_reactions([(ctx.axis[p], inds[p], p in ev.solved) for p in ctx.order], cancel,
                            same_classes=True)
    else:
        me = ev.player == ctx.setup.me
        axis = ctx.last if me else ctx.axis[ev.player]
        stack = ctx.space.index(ev.cards) if me else st.visible[ev.player]
        for T in (st.M, st.A):
            if T is not None:
                T.reset_player(axis, stack, cancel)
    st.inds = st.sups = st.fix = st.post = None


class _View:
    """A state's tables seen with another ``visible`` and answers-only row (read-only)."""

    def __init__(self, st, visible: dict, ans_row):
        self.M, self.A, self.visible, self.ans_row = st.M, st.A, visible, ans_row


class _Checker(IncrementalChecker):
    """:class:`IncrementalChecker` that decides together the edits of one solve's new cards
    (:meth:`group`): a solve by another player resets their coordinate of the master table
    from the stack I saw them hold, whatever new cards are logged, and answers and reactions
    change the tables independently of the stacks I see; so the tables evolve the same for
    every such edit (until that player solves again), and only the rows read through the
    stacks I see, and my answers-only row, differ. One replay of the tables then judges every
    edit point-wise with :func:`refuses`, exactly as replaying each would."""

    def __init__(self, ctx, *args, **kw):
        super().__init__(*args, **kw)
        self.ctx = ctx

    def group(self, edit: Edit):
        if edit.field != "new_cards" or not isinstance(self.events[edit.entry], Solve):
            return None
        who = self.events[edit.entry].player
        if any(isinstance(e, Solve) and e.player == who for e in self.events[edit.entry + 1:]):
            return None
        return ("new_cards", edit.entry)

    def consistent_batch(self, start: int, tails: Sequence) -> list:
        self.first_bad()
        base = self.snaps.get(start)
        if base is None or refuses(self.ctx, base, tails[0][0]) is None:
            return [self.consistent_with(start, t, start + 1) for t in tails]
        ctx = self.ctx
        alive = {}
        for v, tail in enumerate(tails):
            self.steps += 1
            if not refuses(ctx, base, tail[0]):
                vis = dict(base.visible)
                vis[tail[0].player] = ctx.space.index(tail[0].new_cards)
                alive[v] = (vis, base.ans_row.copy())
        out = [False] * len(tails)
        rest = list(tails[0][1:])
        if not alive:
            return out
        st = self._copy(base)
        _table_step(ctx, st, tails[0][0], self.cancel)
        for pos, ev in enumerate(rest):
            check_cancel(self.cancel)
            self.steps += 1
            for v, (vis, ans) in list(alive.items()):
                if refuses(ctx, _View(st, vis, ans), ev):
                    del alive[v]
                elif isinstance(ev, Answer):
                    q = ctx.deck[ev.question]
                    partial = q.combine_all([vis[p] for p in ctx.order[:-1]
                                             if p != ev.moderator])
                    ans &= q.ok_given_partial(ev.answer, ev.moderator != ctx.setup.me)[partial]
                elif isinstance(ev, Solve):
                    if ev.player == ctx.setup.me:
                        ans[:] = True
                    else:
                        vis[ev.player] = ctx.space.index(ev.new_cards)
            if not alive or pos == len(rest) - 1:
                break
            _table_step(ctx, st, ev, self.cancel)
        for v in alive:
            out[v] = True
        return out


def checker(setup: Setup, events: Sequence, cancel=None) -> IncrementalChecker:
    """The incremental consistency check of edited logs (master-table states kept per prefix;
    a kept state's solved indicators are computed once for all the edits that start there;
    a replay is skipped when the answers alone rule it out (:func:`answers_fit`); each
    replayed event is first judged by :func:`refuses`, so a replay stops at a refused event
    without updating the tables, and its last event is judged, never applied; the edits of a
    solve's new cards share one replay of the tables, :class:`_Checker`)."""
    ctx = _inf._Ctx(setup)
    return _Checker(ctx, setup, events, _inf.initial, _inf.update, _inf.copy_state,
                    state_bytes=_inf.state_bytes(setup), cancel=cancel,
                    prepare=lambda st, i: _prepare(ctx, st, events, i, cancel),
                    refuses=lambda st, _i, ev: refuses(ctx, st, ev),
                    prescreen=lambda st, _i, evs: answers_fit(ctx, st, evs),
                    screened_per_step=SCREENED_PER_STEP.get(len(setup.players), 512))


def _prepare(ctx, st, events, i: int, cancel) -> None:
    """Before the edits of a reactions round: every player's solved indicator on the state
    kept before it, computed once and shared by the copies (a reactions edit then costs a
    filter of the table, not a pass per player)."""
    if i < len(events) and isinstance(events[i], Reactions):
        _inf._indicators(ctx, st, cancel)


def diagnose(setup: Setup, events: Sequence, *, budget: Optional[int] = None,
             time_limit: Optional[float] = None, cancel=None) -> Optional[Diagnosis]:
    """The corrections of a contradictory log (:func:`engines.core.diagnosis.diagnose`).

    Args:
        budget: most steps (one event through the engine each); default
            :func:`default_budget`. time_limit: optional wall-clock cap (s), for the app.
    Returns:
        :class:`~engines.core.diagnosis.Diagnosis`, or None when the log is consistent.
    Raises:
        SessionFormatError: 6 players (every edit would rebuild a table of gigabytes).
    """
    if _inf.is_large(setup):
        raise SessionFormatError("$.setup.players",
                                 f"the diagnosis of a contradiction is not available with "
                                 f"{len(setup.players)} players: every edited log would rebuild "
                                 f"a table of gigabytes")
    events = list(events)
    chk = checker(setup, events, cancel)
    return _diagnose(events, chk, lambda i: edits(setup, events, i, chk.state_before(i)),
                     lambda i: describe_event(setup, events[i]), monotone=False,
                     budget=budget or default_budget(setup), time_limit=time_limit,
                     cancel=cancel)
