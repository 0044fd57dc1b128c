"""Egghead inference: my valid stacks with behavioural analysis (Zorn 2024, sections 3–4).

The public knowledge is the master table V_M (appendix A.1), kept bit-packed by
:class:`engines.egghead.table.BitTable` with me on the bit axis. Each event updates it:

* ``answer``   — eq. (2) (eq. (6) with a rotating moderator, who answers about the cards
  they see);
* ``reactions`` — one round of eqs. (3)–(4): every player's reaction is "solved iff my valids
  set has one element"; worlds where some player would have reacted otherwise are removed.
  Players who do not analyse (appendix A.2, Remark A.5) are modelled with a second table that
  holds the answers alone, so their reactions come from the answers only;
* ``solve``    — eq. (5): the table is restricted to the revealed stack and that player's
  coordinate becomes free again (they hold a new, unknown-to-them stack).

My valids are the row of V_M at the stacks I see (Remark A.3); my posterior puts the prior
multinomial weight of each valid stack (each card uniform on 1..v) on it, normalised — the
announcements are deterministic given the world, so the likelihood is 0 or 1.

Deviation from Zorn (2024), on purpose: with a rotating moderator Zorn (2024) applies eq. (3) to
the non-moderators only (appendix A.2); here every player's announced reaction is used,
the moderator's included, because solving is public and a moderator may know their cards
from earlier rounds (this is sound; the brute-force reference in the tests uses it too).
A ``solve`` event alone applies eq. (5) only; log the reactions round first so that the
fact that the player could solve is used.

The engine is pure: :func:`infer` folds the events from the start. For a session's timeline
it also offers the incremental interface of :class:`engines.core.contract.IncrementalEngine`
(:func:`initial`, :func:`update`, :func:`posterior`, :func:`copy_state`, :func:`state_bytes`):
:class:`engines.core.timeline.Timeline` keeps the states as snapshots, or one live state moved
forward in place when the tables are too large to copy (6 players × 56 stacks: 4.4 GB). Every
player's solved indicator and the fixpoint test are derived once per state (from one blocked
pass per axis that also yields the table's support) and reused by the next event.
"""
from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Optional, Sequence

import numpy as np

from engines.core import limits as _limits
from engines.core.errors import (
    CancelFlag,
    ContradictionError,
    SessionFormatError,
    check_cancel,
)
from engines.core.info import entropy_bits
from engines.core.timeline import DEFAULT_MEMORY_BUDGET
from engines.egghead.model import Answer, Event, Reactions, Setup, Solve
from engines.egghead.orbits import (  # noqa: F401 (re-exported)
    EVENT_BYTES_PER_ORBIT,
    MAX_EVENT_ORBITS,
    ORBIT_FROM_BYTES,
    OrbitTable,
    memory_needed_for,
    orbit_bytes,
    orbits_possible,
    uses_orbits,
)
from engines.egghead.questions import bound_deck, stack_space
from engines.egghead.table import BitTable, any_and, indicator_at, table_bytes

METHODS = ("master-table",)
"""Inference methods: the exact bit-packed master table (the only one; it is exact)."""

_PARALLEL_BYTES = 256 << 20  # tables from this size get their indicators two at a time



@dataclass(frozen=True)
class LearnedRecord:
    """What one event taught me.

    Attributes:
        event_index: 0-based index of the event.
        kind: ``"answer"``, ``"reactions"`` or ``"solve"``.
        source: who the information came from (the moderator's name, ``"moderator"`` for an
            external one, the solver's name, or ``"reactions"``).
        removed: how many of my valid stacks (with behavioural analysis) it removed (int >= 0;
            a solve of mine resets my valids and removes none).
        removed_without_ba: the same for my valids from the answers alone.
        removed_by: for a reactions round, per player, how many of my valid stacks that
            player's reaction alone ruled out (several players may rule out the same stack).
    """

    event_index: int
    kind: str
    source: str
    removed: int
    removed_without_ba: int
    removed_by: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"event": self.event_index, "kind": self.kind, "source": self.source,
                "removed": self.removed, "removed_without_ba": self.removed_without_ba,
                "removed_by": dict(self.removed_by)}


@dataclass(frozen=True)
class Posterior:
    """The result of :func:`infer` (immutable).

    Attributes:
        game: ``"egghead"``.
        me: my name; ``behavioural_analysis``: whether ``my_valids`` use it.
        my_valids: tuple of sorted stacks (tuples of k ints), lexicographic — what I may hold
            (with behavioural analysis when the setup says I use it, else from answers alone).
        my_probabilities: tuple of floats, same order, posterior probability of each (sums to 1).
        can_solve: True iff exactly one valid stack is left; ``solution``: that stack or None.
        others_can_solve: ``{name: bool}`` True iff that player can solve in every world I
            still consider possible (the real world I see, my stack unknown).
        others_solve_probability: ``{name: probability}`` that they can solve now.
        worlds: number of worlds in the master table (publicly possible), int.
        valid_count_with_ba / valid_count_without_ba: sizes of my valids with behavioural
            analysis and from the answers alone (ints); ``my_valids_without_ba``: that list.
        position_values: k tuples; entry p is the set of values my p-th smallest card may show.
        position_probabilities: k tuples of v floats: P(my p-th smallest card shows value x+1).
        entropy_bits: entropy of my posterior (bits).
        learned: one :class:`LearnedRecord` per event; ``learned_from``: ``{source: removed}``
            summed over events (my valids removed by answers of each moderator and by each
            player's reactions).
        fixpoint_reached: True iff another reactions round cannot change the master table
            (every player would react the same way in every possible world; seed's
            "until no update happened").
        visible: ``{name: stack}`` the stacks I see now (after solves).
        method: the inference method used.
    """

    game: str
    me: str
    behavioural_analysis: bool
    my_valids: tuple
    my_probabilities: tuple
    can_solve: bool
    solution: Optional[tuple]
    others_can_solve: dict
    others_solve_probability: dict
    worlds: int
    valid_count_with_ba: int
    valid_count_without_ba: int
    my_valids_without_ba: tuple
    position_values: tuple
    position_probabilities: tuple
    entropy_bits: float
    learned: tuple
    learned_from: dict
    fixpoint_reached: bool
    visible: dict
    method: str = METHODS[0]

    def to_json(self) -> dict:
        """The CLI output plus the fields the tab uses; JSON-safe, no NaN."""
        return {
            "game": self.game,
            "my_valids": [list(s) for s in self.my_valids],
            "my_probabilities": list(self.my_probabilities),
            "can_solve": self.can_solve,
            "others_can_solve": dict(self.others_can_solve),
            "worlds": self.worlds,
            "me": self.me,
            "behavioural_analysis": self.behavioural_analysis,
            "solution": None if self.solution is None else list(self.solution),
            "others_solve_probability": dict(self.others_solve_probability),
            "valid_count_with_ba": self.valid_count_with_ba,
            "valid_count_without_ba": self.valid_count_without_ba,
            "my_valids_without_ba": [list(s) for s in self.my_valids_without_ba],
            "position_values": [list(p) for p in self.position_values],
            "position_probabilities": [list(p) for p in self.position_probabilities],
            "entropy_bits": self.entropy_bits,
            "learned": [r.to_json() for r in self.learned],
            "learned_from": dict(self.learned_from),
            "fixpoint_reached": self.fixpoint_reached,
            "visible": {p: list(s) for p, s in self.visible.items()},
            "method": self.method,
        }


# --------------------------------------------------------------------------- state

class _State:
    """Mutable inference state after a prefix of the events (the timeline keeps snapshots)."""

    def __init__(self, M: BitTable, A: Optional[BitTable], ans_row: np.ndarray,
                 visible: dict, learned: list):
        self.M, self.A, self.ans_row = M, A, ans_row
        self.visible, self.learned = visible, learned
        # derived from the tables, dropped by every event (_apply): each player's
        # solved_indicator, the fixpoint flag and the posterior
        self.inds: Optional[dict] = None
        self.sups: Optional[dict] = None   # support of the master table along each axis
        self.fix: Optional[bool] = None
        self.post: Optional["Posterior"] = None
        self.worlds: Optional[int] = None  # the master table's world count (derived, like inds)
        # the answers applied since the last solve, as (question, answer, seen): eq. (2) is
        # idempotent and every later eq. (3)-(4) only removes worlds, so the same answer again
        # keeps the whole table (a solve, eq. (5), adds worlds back: it clears this set)
        self.answered: set = set()
        # after a reactions round that removed worlds: (the master table's version after it,
        # the indicators and supports before it, the rows it changed), from which
        # :func:`_indicators` refreshes the entries that read a changed row (read-only)
        self.delta: Optional[tuple] = None

    def copy(self) -> "_State":
        st = _State(self.M.copy(), None if self.A is None else self.A.copy(),
                    self.ans_row.copy(), dict(self.visible), list(self.learned))
        st.inds, st.sups, st.fix, st.post = self.inds, self.sups, self.fix, self.post  # read-only
        st.worlds, st.answered = self.worlds, set(self.answered)
        st.delta = self.delta
        return st

    @property
    def nbytes(self) -> int:
        return self.M.nbytes + (0 if self.A is None else self.A.nbytes)


class _Ctx:
    """Setup-derived constants: axes (others in seating order, me last), deck, stack space."""

    def __init__(self, setup: Setup):
        self.setup = setup
        self.space = stack_space(setup.values, setup.cards_per_player)
        self.S = self.space.size
        self.n = len(setup.players)
        self.order = list(setup.others) + [setup.me]
        self.axis = {p: i for i, p in enumerate(self.order)}
        self.last = self.n - 1
        self.deck = bound_deck(setup.values, setup.cards_per_player, self.n)
        self.need_answers_table = not all(setup.uses_ba(p) for p in setup.players)
        self.orbit = uses_orbits(self.n, self.S)

    def world(self, visible: dict) -> list[int]:
        return [visible[p] for p in self.order[:-1]] + [0]

    def table_for(self, st: _State, player: str) -> BitTable:
        return st.M if self.setup.uses_ba(player) or st.A is None else st.A

    def fmt(self, s_idx: int) -> str:
        return " ".join(map(str, self.space.stack(s_idx)))


def _initial_state(ctx: _Ctx) -> _State:
    if ctx.orbit:
        # players modelled from different tables react by different rules: separate blocks
        ba = [ctx.axis[p] for p in ctx.order if ctx.setup.uses_ba(p)]
        blocks = [ba, [a for a in range(ctx.n) if a not in ba]]
        M = OrbitTable(ctx.n, ctx.S, blocks)
        A = OrbitTable(ctx.n, ctx.S, blocks) if ctx.need_answers_table else None
    else:
        M = BitTable(ctx.n, ctx.S)
        A = BitTable(ctx.n, ctx.S) if ctx.need_answers_table else None
    vis = {p: ctx.space.index(s) for p, s in ctx.setup.visible}
    return _State(M, A, np.ones(ctx.S, dtype=bool), vis, [])


def _my_row(ctx: _Ctx, st: _State) -> np.ndarray:
    return st.M.row(ctx.last, ctx.world(st.visible))


def _ind_over_me(ctx: _Ctx, st: _State, p: str, ind, w) -> np.ndarray:
    """bool (S,): whether ``p`` solves in world ``w`` with each of my stacks."""
    if isinstance(st.M, OrbitTable):
        return st.M.indicator_row(ctx.axis[p], ind, w, ctx.last)
    return indicator_at(ctx.n, ctx.S, ctx.axis[p], ind, w)


def _ind_of_me(ctx: _Ctx, st: _State, ind, w) -> bool:
    """Whether I solve in world ``w`` (my own stack ignored)."""
    if isinstance(st.M, OrbitTable):
        return st.M.indicator_value(ctx.last, ind, w)
    return bool(ind[tuple(w[:-1])])


def _apply(ctx: _Ctx, st: _State, i: int, ev: Event, cancel: CancelFlag) -> None:  # noqa: C901 (one branch per event kind and table form)
    if isinstance(ev, Reactions) and st.fix is None and isinstance(st.M, OrbitTable):
        # what a posterior after the previous event computes (the timeline asks for one after
        # every event; the command line folds the log without them): the indicators the
        # reactions need anyway, and whether the table is at the fixpoint, so that a round at
        # the fixpoint skips eqs. (3)-(4) here too (six players: the orbits stay unlisted)
        _fixpoint(ctx, st, cancel)
    if isinstance(ev, Reactions) and st.inds is None and st.delta is not None:
        # the previous round removed worlds: its indicators refreshed where a row changed
        _indicators(ctx, st, cancel)
    inds_before, sups_before, fix_before = st.inds, st.sups, st.fix
    worlds_before = st.worlds
    st.inds = st.sups = st.fix = st.post = st.worlds = None
    st.delta = delta = None
    w = ctx.world(st.visible)
    before = _my_row(ctx, st)
    before_ans = st.ans_row.copy()
    me = ctx.setup.me
    if isinstance(ev, Answer):
        q = ctx.deck[ev.question]
        seen = [True] * ctx.n
        if ev.moderator is not None:
            seen[ctx.axis[ev.moderator]] = False
        key = (ev.question, ev.answer, tuple(seen))
        repeated = key in st.answered
        if not repeated:
            check_answer(ctx, st, i, q, ev.answer, seen, cancel)
            if (isinstance(st.M, BitTable) and st.A is None and inds_before is not None
                    and sups_before is not None):
                # the indicators of the table before the answer are known (the round before
                # reached the fixpoint): the next round refreshes them where a row changed
                rows = st.M.filter_answer(q, ev.answer, seen, cancel, track=True)
                if rows is not None:
                    delta = (st.M.version, inds_before, sups_before, rows)
            else:
                st.M.filter_answer(q, ev.answer, seen, cancel)
            if st.A is not None:
                st.A.filter_answer(q, ev.answer, seen, cancel)
            st.answered.add(key)
        partial = q.combine_all([st.visible[p] for p in ctx.order[:-1] if seen[ctx.axis[p]]])
        ok = q.ok_given_partial(ev.answer, seen[ctx.last])[partial]
        st.ans_row &= ok
        after = _my_row(ctx, st)
        text = q.spec.display_text(ctx.setup.values)
        if not st.ans_row.any():
            raise ContradictionError(i, f"no stack of yours gives the answer {ev.answer} to "
                                        f"“{text}” with the cards you see")
        if not after.any():
            raise ContradictionError(i, f"the answer {ev.answer} to “{text}” leaves none of "
                                        f"your valid stacks (the earlier reactions exclude the rest)")
        source = ev.moderator or "moderator"
        st.learned.append(LearnedRecord(i, "answer", source, int((before & ~after).sum()),
                                        int((before_ans & ~st.ans_row).sum())))
        if repeated:
            # the same answer since the last solve: the tables are unchanged, and so is what
            # was derived from them (a repeated constraint costs no pass over the table)
            st.inds, st.sups, st.fix, st.worlds = inds_before, sups_before, fix_before, worlds_before
            return
    elif isinstance(ev, Reactions):
        solved = set(ev.solved)
        if fix_before and inds_before is not None and _reactions_change_nothing(
                ctx, st, inds_before, w, before, solved):
            # at the fixpoint every player reacts alike in every world (Zorn 2024, Algorithm
            # 1, "until no update happened"): reactions that agree with the worlds I consider
            # possible keep the whole table, so eqs. (3)-(4) are skipped and the derived data
            # kept (six players: a whole pass over the orbits saved)
            st.learned.append(LearnedRecord(i, "reactions", "reactions", 0, 0,
                                            {p: 0 for p in ctx.order[:-1]}))
            st.inds, st.sups, st.fix, st.worlds = inds_before, sups_before, fix_before, worlds_before
            return
        if isinstance(st.M, OrbitTable):
            # the players who solved and those who did not in separate blocks (on both tables)
            group = [ctx.axis[p] for p in solved]
            _refuse_orbits(ctx, st, i, lambda T: T.split_orbits(group, cancel), "this reactions round",
                           "the players who solved are told apart from the others, which "
                           "lists up to 6 orbits per orbit")
            changed = st.M.split(group, cancel)
            if st.A is not None:
                st.A.split(group, cancel)
            if changed:
                inds_before = None
        inds = inds_before if inds_before is not None else _indicators(ctx, st, cancel)
        removed_by = {}
        my_ind = _ind_of_me(ctx, st, inds[me], w)
        if my_ind != (me in solved):
            if my_ind:
                sol = ctx.fmt(int(np.flatnonzero(ctx.table_for(st, me).row(ctx.last, w))[0]))
                msg = f"you ({me}) could solve with {sol} but are logged as not solving"
            else:
                msg = f"you ({me}) are logged as solving but could not know your cards"
            raise ContradictionError(i, msg)
        for p in ctx.order[:-1]:
            ok = _ind_over_me(ctx, st, p, inds[p], w) == (p in solved)
            removed_by[p] = int((before & ~ok).sum())
        sups = sups_before if inds is inds_before else st.sups
        filters = [(ctx.axis[p], inds[p], p in solved) for p in ctx.order
                   # eqs. (3)-(4) for p are skipped when they would remove nothing
                   if sups is None or not _keeps_every_world(st.M, inds[p], sups[p], p in solved)]
        changed_rows = None
        if isinstance(st.M, BitTable):
            # one pass for every player's filter; it lists the rows it changed, from which the
            # next round's indicators are refreshed (when every player is modelled by M)
            # (on a whole table only when the round follows a round: the first after an answer
            # or a solve removes many worlds in the benchmark's game, and no refresh paid there)
            changed_rows = st.M.keep_reactions(filters, cancel, track=st.A is None and bool(filters),
                                               track_dense=bool(st.learned) and
                                               st.learned[-1].kind == "reactions",
                                               same_classes=True)
        else:
            for axis, ind, solved_p in filters:
                st.M.keep_reaction(axis, ind, solved_p, cancel)
        filtered = bool(filters)
        if not filtered and sups is not None:
            # every player reacted as announced in every world of the table: nothing was
            # removed (a filter that is not skipped removes at least the worlds its check found),
            # so the indicators stay, and the table is at the fixpoint — every player reacts the
            # same way in every world (Zorn 2024, Algorithm 1, "until no update happened"); the
            # next rounds cost the check above only
            st.learned.append(LearnedRecord(i, "reactions", "reactions", 0, 0, removed_by))
            st.inds, st.sups, st.fix, st.worlds = inds, sups, True, worlds_before
            return
        after = _my_row(ctx, st)
        if not after.any():
            alone = [p for p, r in removed_by.items() if r == int(before.sum())]
            if alone:
                who = ", ".join(f"{p} ({'solved' if p in solved else 'did not solve'})"
                                for p in alone)
                msg = f"the reaction of {who} is impossible in every world you consider possible"
            else:
                msg = "these reactions together are impossible in every world you consider possible"
            raise ContradictionError(i, msg)
        st.learned.append(LearnedRecord(i, "reactions", "reactions",
                                        int((before & ~after).sum()), 0, removed_by))
        if changed_rows is not None and sups is not None:
            st.inds = st.sups = st.fix = st.post = None
            st.delta = (st.M.version, inds, sups, changed_rows)
            return
    else:
        assert isinstance(ev, Solve)
        if ev.player == me:
            c = ctx.space.index(ev.cards)
            if not before[c]:
                raise ContradictionError(i, f"your cards {ctx.fmt(c)} were not among your valid "
                                            f"stacks")
            check_solve(ctx, st, i, ctx.last, c, me, cancel)
            st.M.reset_player(ctx.last, c, cancel)
            if st.A is not None:
                st.A.reset_player(ctx.last, c, cancel)
            st.ans_row[:] = True
        else:
            held = st.visible[ev.player]
            if ev.cards is not None and ctx.space.index(ev.cards) != held:
                raise ContradictionError(i, f"{ev.player} is logged as holding "
                                            f"{' '.join(map(str, ev.cards))}, but you saw "
                                            f"{ctx.fmt(held)}")
            ax = ctx.axis[ev.player]
            check_solve(ctx, st, i, ax, held, ev.player, cancel)
            st.M.reset_player(ax, held, cancel)
            if st.A is not None:
                st.A.reset_player(ax, held, cancel)
            st.visible[ev.player] = ctx.space.index(ev.new_cards)
        st.answered.clear()               # eq. (5) adds worlds: earlier answers apply anew
        after = _my_row(ctx, st)
        if not after.any():
            raise ContradictionError(i, f"no world is left in which {ev.player} held those cards")
        st.learned.append(LearnedRecord(i, "solve", ev.player, int((before & ~after).sum()),
                                        int((before_ans & ~st.ans_row).sum())))
    st.inds = st.sups = st.fix = st.post = None  # the tables changed
    st.delta = delta


def _refuse_orbits(ctx: _Ctx, st: _State, i: int, orbits_of, what: str, why: str) -> None:
    """Refuse event ``i`` when ``orbits_of(table)`` (the orbits it would leave) passes
    :data:`MAX_EVENT_ORBITS` on an orbit table (:class:`SessionFormatError` at ``$.events[i]``
    naming the orbits, the memory they would need and the limit)."""
    for T in (st.M, st.A):
        if not isinstance(T, OrbitTable):
            continue
        out = orbits_of(T)
        if out > MAX_EVENT_ORBITS:
            raise SessionFormatError(
                f"$.events[{i}]",
                f"{what} would leave {out / 1e6:.1f} M orbits in the master table of {ctx.n} "
                f"players (about {out * EVENT_BYTES_PER_ORBIT / 1e9:.1f} GB of memory); at most "
                f"{MAX_EVENT_ORBITS / 1e6:.1f} M fit a task's 10 s and 1 GB ({why}); use fewer "
                f"players, values or cards for this game")


def check_solve(ctx: _Ctx, st: _State, i: int, axis: int, stack: int, who: str,
                cancel: CancelFlag = None) -> None:
    """Refuse, before anything is built, a solve (eq. (5)) that would leave an orbit table
    (six players) larger than :data:`MAX_EVENT_ORBITS` orbits. The count is exact
    (:meth:`OrbitTable.solve_orbits`, one pass of shifts over the stored keys). Explicit tables
    (3-5 players) are never refused: their size does not change. A table still kept as its
    answers lists its orbits first, as the solve itself would (honouring ``cancel``).

    Raises:
        SessionFormatError: at ``$.events[i]``, naming the orbits and memory and the limit.
        Cancelled: ``cancel`` returned True.
    """
    _refuse_orbits(ctx, st, i, lambda T: T.solve_orbits(axis, stack, cancel), f"the solve of {who}",
                   "the table holds the worlds where they held that stack")


def check_answer(ctx: _Ctx, st: _State, i: int, q, answer: int, seen: Sequence[bool],
                 cancel: CancelFlag = None) -> None:
    """Refuse, before anything is built, an answer (eq. (2)/(6)) about players whose stack is
    free since they solved, when it would leave an orbit table larger than
    :data:`MAX_EVENT_ORBITS` (every stored orbit meets each of their 56 stacks; the count is
    exact: :meth:`OrbitTable.answer_orbits`). Other answers only remove orbits.

    Raises:
        SessionFormatError: at ``$.events[i]``, naming the orbits and memory and the limit.
        Cancelled: ``cancel`` returned True.
    """
    _refuse_orbits(ctx, st, i, lambda T: (T.answer_orbits(q, answer, seen, cancel)
                                         if any(seen[a] for a in T.free) else 0),
                   "this answer", "it concerns players who solved, whose new stacks are "
                   "unknown: every possible world meets each of their stacks")


def _keeps_every_world(M, ind, sup, solved: bool) -> bool:
    """Whether a player's announced reaction ``solved`` is their reaction in every world of
    the bit-packed master table ``M`` (their solved indicator ``ind`` read on the support
    ``sup`` of ``M`` along their axis, as :func:`_indicators` gives them), so that keeping
    the worlds where they react so removes nothing. Cost: one pass over arrays S times smaller
    than the table. False for orbit tables (not checked there)."""
    if not isinstance(M, BitTable):
        return False
    return not (any_and(sup, ind, negate=True) if solved else any_and(ind, sup))


def _reactions_change_nothing(ctx: _Ctx, st: _State, inds: dict, w: list, before: np.ndarray,
                              solved: set) -> bool:
    """At the fixpoint (every player reacts the same way in every world of the table): whether
    the announced reactions are that constant reaction, read in the worlds I consider possible
    (my valids ``before``, not empty). Then eqs. (3)-(4) keep every world."""
    if _ind_of_me(ctx, st, inds[ctx.setup.me], w) != (ctx.setup.me in solved):
        return False
    return all(bool((_ind_over_me(ctx, st, p, inds[p], w)[before] == (p in solved)).all())
               for p in ctx.order[:-1])


def is_large(setup: Setup) -> bool:
    """Whether the master tables of ``setup`` are too large for a timeline to snapshot after
    every event with its default budget (then it moves one live state forward; see
    :func:`state_bytes` and :data:`engines.core.timeline.DEFAULT_MEMORY_BUDGET`)."""
    ctx = _Ctx(setup)
    # orbit tables (six players) change size with every event: never snapshot them all
    return ctx.orbit or state_bytes(setup) > DEFAULT_MEMORY_BUDGET


def state_bytes(setup: Setup) -> int:
    """Bytes of the inference state's tables: the master table, plus the answers-only table
    when some player does not use behavioural analysis (int)."""
    ctx = _Ctx(setup)
    if ctx.orbit:
        return orbit_bytes(ctx.n, ctx.S) * (2 if ctx.need_answers_table else 1)
    return table_bytes(ctx.n, ctx.S) * (2 if ctx.need_answers_table else 1)




def memory_needed(setup: Setup) -> int:
    """Bytes inference needs at its peak for ``setup``: the tables, every player's solved
    indicator and support, and the chunk temporaries (int). 4 players: ~260 MB of it fixed
    headroom; 5 players: ~0.4 GB; 6 players × 56 stacks (orbits, everyone analysing): ~1.2 GB
    (a rotating moderator was measured at 1.7 GB: docs/egghead-six-players.md)."""
    ctx = _Ctx(setup)
    return memory_needed_for(ctx.n, ctx.S, ctx.need_answers_table)


def available_bytes() -> Optional[int]:
    """Memory this process can still allocate (bytes), or None where unknown: the system's
    MemAvailable, ``ulimit -v``/``-d`` and the cgroup limit (:mod:`engines.core.limits`)."""
    return _limits.available_bytes()


SECONDS_PER_MEGAORBIT = 0.008
"""Inference time per event per 10^6 orbits of the full table, when the master table is kept as
orbits (:func:`uses_orbits`): 6 players × 56 stacks (55.5 M orbits) take at most 0.43 s of CPU
per event, update and posterior, on the benchmark's games (``bench_egghead.py --compare 6``,
load about 8; docs/egghead-six-players.md; since the chunked passes 0.07 s, and the estimate
is kept as a bound for loaded machines). The answer that concerns a player again after they
solved takes about 2 s with its posterior (``--solve``), which the estimate does not cover."""


def estimated_seconds_per_event(players: int, S: int) -> float:
    """Rough inference time per event (s) for ``players`` players with ``S`` stacks each:
    scaled from the 6-player measurement by the orbits of the full table when the table is
    kept as orbits (:data:`SECONDS_PER_MEGAORBIT`), else the explicit table's estimate in word
    passes that also refuses custom decks (:func:`engines.egghead.cost.seconds_per_event`)."""
    if uses_orbits(players, S):
        return SECONDS_PER_MEGAORBIT * orbits_possible(players, S) / 1e6
    from engines.egghead.cost import seconds_per_event

    return seconds_per_event(players, S)


def check_memory(setup: Setup) -> None:
    """Refuse, with a message fit for a player, a setup whose tables do not fit in the memory
    available now (read from /proc/meminfo where there is one; elsewhere nothing is checked).

    Raises:
        SessionFormatError: at ``$.setup.players``, naming the memory needed and available.
    """
    need = memory_needed(setup)
    if need < (512 << 20):
        return
    avail = available_bytes()
    if avail is not None and need > avail:
        ctx = _Ctx(setup)
        raise SessionFormatError(
            "$.setup.players",
            f"{ctx.n} players with {ctx.S} possible stacks each need {need / 1e9:.1f} GB of "
            f"memory for the master table, and {avail / 1e9:.1f} GB is available; close other "
            f"programs, or use fewer players, values or cards")


def _indicators(ctx: _Ctx, st: _State, cancel: CancelFlag) -> dict:
    """Every player's solved indicator on the table that models them (cached on the state)."""
    if st.inds is None and st.delta is not None:
        version, inds, sups, rows = st.delta
        if version == st.M.version and st.A is None and isinstance(st.M, BitTable):
            new = st.M.refreshed_indicators(
                {ctx.axis[p]: (inds[p], sups[p]) for p in ctx.order}, rows, cancel)
            st.delta = None     # used once: the indicators are derived below either way
            if new is not None:
                st.inds = {p: new[ctx.axis[p]][0] for p in ctx.order}
                st.sups = {p: new[ctx.axis[p]][1] for p in ctx.order}
                return st.inds
    if st.inds is None:
        def one(p):
            check_cancel(cancel)
            T = ctx.table_for(st, p)
            ind, sup = T.solved_indicator(ctx.axis[p], cancel, with_support=True)
            return ind, (sup if T is st.M else st.M.support(ctx.axis[p], cancel))

        workers = min(2, os.cpu_count() or 1)
        if st.M.nbytes >= _PARALLEL_BYTES and workers > 1:
            # memory-bound passes over a large table: two at a time (numpy releases the GIL);
            # 6 players: 11 s -> 6 s for the six indicators
            with ThreadPoolExecutor(workers) as pool:
                res = dict(zip(ctx.order, pool.map(one, ctx.order)))
        else:
            res = {p: one(p) for p in ctx.order}
        st.inds = {p: r[0] for p, r in res.items()}
        st.sups = {p: r[1] for p, r in res.items()}
    return st.inds


def _worlds(st: _State, cancel: CancelFlag) -> int:
    """The master table's world count (cached on the state)."""
    if st.worlds is None:
        st.worlds = st.M.count(cancel)
    return st.worlds


def _fixpoint(ctx: _Ctx, st: _State, cancel: CancelFlag) -> bool:
    """Whether every player reacts the same way in every world of the table (cached)."""
    if st.fix is None:
        inds = _indicators(ctx, st, cancel)
        seen = set()                      # players of one orbit block share their indicators
        fix = True
        for p in ctx.order:
            pair = (id(inds[p]), id(st.sups[p]))
            if pair in seen:
                continue
            seen.add(pair)
            check_cancel(cancel)
            if not type(st.M).reaction_is_constant_on(inds[p], st.sups[p]):
                fix = False
                break
        st.fix = fix
    return st.fix


def infer(setup: Setup, events: Sequence[Event], *, method: str = METHODS[0],
          cancel: CancelFlag = None) -> Posterior:
    """My valid stacks and their posterior after the events (Zorn 2024, Algorithm 1).

    Args:
        setup: the :class:`Setup`; events: sequence of Answer / Reactions / Solve.
        method: ``"master-table"`` (exact).
        cancel: optional zero-argument callable; the work stops with ``Cancelled`` when it
            returns True.
    Returns:
        :class:`Posterior`.
    Raises:
        ContradictionError: the first event after which no stack of mine is consistent
            (names the event index and why).
        SessionFormatError: unknown method.
    Cost (tests/benchmarks/bench_egghead.py): 4 players, one answer and its reaction rounds
    median 8 ms (1.4 MB table); 5 players 0.2–0.36 s per event (79 MB table); 6 players
    9–12 s per event (4.4 GB table, 6.4 GB peak RSS, indicators two at a time; asked in
    order by :class:`engines.core.timeline.Timeline`) with the explicit table; six players
    now use orbits under the symmetry of players (:func:`uses_orbits`; figures in
    docs/egghead-six-players.md). Raises SessionFormatError too when the
    tables do not fit in the memory available (:func:`check_memory`), and at ``$.events[i]``
    when a custom deck's log would pass the 10 s of CPU a command may take
    (:func:`engines.egghead.cost.check_log`, before anything is built).
    """
    if method not in METHODS:
        raise SessionFormatError("--method", f"unknown method {method!r}; expected one of "
                                             f"{', '.join(METHODS)}")
    return posterior(setup, _fold(setup, events, cancel), cancel)


def _fold(setup: Setup, events: Sequence[Event], cancel: CancelFlag) -> _State:
    from engines.egghead.cost import check_log

    check_log(setup, events)      # a custom deck's log that cannot fit 10 s: refused at once
    st = initial(setup)
    for i, ev in enumerate(events):
        check_cancel(cancel)
        st = update(setup, st, i, ev, cancel)
    return st


# -- the incremental interface (engines.core.contract.IncrementalEngine) ----------------------

def initial(setup: Setup) -> _State:
    """The inference state before any event: every world possible (master table of
    :func:`state_bytes` bytes). Raises SessionFormatError when it does not fit in memory."""
    check_memory(setup)
    return _initial_state(_Ctx(setup))


def update(setup: Setup, state: _State, index: int, event: Event,
           cancel: CancelFlag = None) -> _State:
    """The state after ``event`` (number ``index``, 0-based), changed in place and returned.

    Raises:
        ContradictionError: ``index`` and why, when no stack of mine is left (the state is
            then half-updated: discard it).
    """
    _apply(_Ctx(setup), state, index, event, cancel)
    return state


def posterior(setup: Setup, state: _State, cancel: CancelFlag = None) -> Posterior:
    """The :class:`Posterior` of a state (kept on the state; the tables are not changed)."""
    if state.post is None:
        state.post = _posterior(_Ctx(setup), state, cancel)
    return state.post


def copy_state(state: _State) -> _State:
    """An independent copy of a state (its tables copied; derived data shared read-only)."""
    return state.copy()


def _posterior(ctx: _Ctx, st: _State, cancel: CancelFlag) -> Posterior:
    setup, sp = ctx.setup, ctx.space
    w = ctx.world(st.visible)
    ba_row = _my_row(ctx, st)
    row = ba_row if setup.behavioural_analysis else st.ans_row
    idx = np.flatnonzero(row)
    wts = sp.weights[idx]
    probs = wts / wts.sum()
    inds = _indicators(ctx, st, cancel)
    fix = _fixpoint(ctx, st, cancel)
    # others' solvability over my BA valids (the worlds the logged reactions allow)
    bidx = np.flatnonzero(ba_row)
    bw = sp.weights[bidx] / sp.weights[bidx].sum()
    others_p, others_b = {}, {}
    for p in setup.others:
        ind = _ind_over_me(ctx, st, p, inds[p], w)[bidx]
        pr = float(np.clip(np.dot(bw, ind), 0.0, 1.0))
        others_p[p] = pr
        others_b[p] = bool(ind.all())
    k, v = setup.cards_per_player, setup.values
    stacks = sp.stacks[idx].astype(int)
    pos_vals = tuple(tuple(sorted(set(int(x) for x in stacks[:, j]))) for j in range(k))
    pos_prob = np.zeros((k, v))
    for j in range(k):
        np.add.at(pos_prob[j], stacks[:, j] - 1, probs)
    learned_from: dict[str, int] = {}
    for r in st.learned:
        if r.kind == "answer":
            learned_from[r.source] = learned_from.get(r.source, 0) + r.removed
        elif r.kind == "reactions":
            for p, c in r.removed_by.items():
                learned_from[p] = learned_from.get(p, 0) + c
    ans_idx = np.flatnonzero(st.ans_row)
    return Posterior(
        game="egghead", me=setup.me, behavioural_analysis=setup.behavioural_analysis,
        my_valids=tuple(sp.stack(int(s)) for s in idx),
        my_probabilities=tuple(float(x) for x in probs),
        can_solve=len(idx) == 1, solution=sp.stack(int(idx[0])) if len(idx) == 1 else None,
        others_can_solve=others_b, others_solve_probability=others_p,
        worlds=_worlds(st, cancel), valid_count_with_ba=int(ba_row.sum()),
        valid_count_without_ba=int(st.ans_row.sum()),
        my_valids_without_ba=tuple(sp.stack(int(s)) for s in ans_idx),
        position_values=pos_vals,
        position_probabilities=tuple(tuple(float(x) for x in r) for r in pos_prob),
        entropy_bits=float(entropy_bits(probs)), learned=tuple(st.learned),
        learned_from=learned_from,
        fixpoint_reached=fix,
        visible={p: sp.stack(st.visible[p]) for p in setup.others})


def reactions_can_change(setup: Setup, events: Sequence[Event], *, cancel: CancelFlag = None) -> bool:
    """Whether logging another reactions round can still change the master table.

    False means the fixpoint of Zorn's (2024) repeat loop (Algorithm 1, lines 4–11) is reached:
    in every publicly possible world every player would react as before.
    Raises ContradictionError like :func:`infer`.
    """
    return not _fixpoint(_Ctx(setup), _fold(setup, events, cancel), cancel)


def belief_summary(setup: Setup, posterior: Posterior) -> dict[str, float]:
    """Flat numbers for the CSV export and the belief plot (same keys after every event):
    ``valids`` and ``valids_without_ba`` (counts), ``my_entropy_bits`` (bits), ``worlds``,
    ``can_solve`` (0/1) and ``p_solve_<name>`` (probability) for every other player."""
    out = {"valids": float(posterior.valid_count_with_ba if setup.behavioural_analysis
                           else posterior.valid_count_without_ba),
           "valids_with_ba": float(posterior.valid_count_with_ba),
           "valids_without_ba": float(posterior.valid_count_without_ba),
           "my_entropy_bits": float(posterior.entropy_bits),
           "worlds": float(posterior.worlds),
           "can_solve": 1.0 if posterior.can_solve else 0.0}
    for p in setup.others:
        out[f"p_solve_{p}"] = float(posterior.others_solve_probability.get(p, 0.0))
    return out


@dataclass(frozen=True)
class Recommendation:
    """Whether to call my cards now (seed 3.1: every player solves as soon as they can).

    Attributes:
        solve: True iff I know my stack; ``cards``: it, or None.
        most_likely: my most probable stack and its probability.
        another_round_useful: whether another reactions round can change anything.
    """

    solve: bool
    cards: Optional[tuple]
    most_likely: tuple
    probability: float
    another_round_useful: bool

    def to_json(self) -> dict:
        return {"game": "egghead", "solve": self.solve,
                "cards": None if self.cards is None else list(self.cards),
                "most_likely": list(self.most_likely), "probability": self.probability,
                "another_round_useful": self.another_round_useful}


def recommend(setup: Setup, events: Sequence[Event], *, cancel: CancelFlag = None) -> Recommendation:
    """Call my cards when my valids set has one element; otherwise wait (seed section 3.1).

    Raises ContradictionError like :func:`infer`."""
    post = infer(setup, events, cancel=cancel)
    j = int(np.argmax(post.my_probabilities))
    return Recommendation(post.can_solve, post.solution, post.my_valids[j],
                          float(post.my_probabilities[j]), not post.fixpoint_reached)
