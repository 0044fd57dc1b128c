"""Exact counting of the Cluedo deals consistent with a log, by dynamic programming over cards.

Method (Agade09's Cluedo_Sheet's "#Sat" model, counted without enumerating deals):

* The log becomes *constraints* on the card × owner matrix (owners: the players, then the
  envelope): forced cells (``HandEvent``, ``ShownEvent``, a shown card), forbidden cells
  (``LacksEvent``, passers), and *clauses* "at least one of these (card, owner) cells is true"
  (an unseen refutation: the refuter holds one of the three cards; a failed accusation: one of
  the three cards is in some player's hand).
* Propagation (unit clauses, full hands, filled envelope slots, "hidden singles") fixes as many
  cards as it can; the others are *free*.
* The free cards are processed one at a time. The DP state is a tensor with one axis per
  open hand and envelope slot; the clauses of an unseen refutation (all literals at the
  refuter) live *inside* the refuter's axis, whose values are the pairs (cards taken, clauses
  of this hand satisfied) (:class:`_Axis`: a small automaton per hand). A clause spread over
  several owners gets an axis of its own ("satisfied yet", 2 values). An axis is opened just
  before the first card that touches it and closed (its end state selected) right after the
  last one. The order of the cards is chosen greedily to keep the product of the open axis
  sizes small; when the estimated work is large and there are clauses, it is improved by a
  steepest-descent local search over single-card moves (all scored at once).
* Each axis stores only the states that are reachable from its start *and* can still reach
  its end over the axis's remaining cards (:func:`_axes`): a hand of capacity 3 with two open
  refutations keeps only the (count, satisfied) pairs that can still end full with both
  satisfied. This joint pruning is what keeps refutation-heavy logs small (Master Detective,
  10 players, 20 refutations nobody saw, no passes: 0.1-0.3 s and ~70 MB; it was 114 s and
  9.1 GB with a count axis and a bit axis per clause). An axis opens and closes with length 1
  (reshapes, no copies). A choice maps runs of states to runs of states: one slice add each.
* One count resource (the largest hand, usually) keeps no count: every free card takes one unit
  of exactly one hand or envelope slot, so its remaining capacity is the number of cards still
  to place minus the others' remaining capacities. A path that overdraws it can never bring the
  others back to 0, so it dies when they close. Its clauses (if any) still have an axis.
* Failed accusations only say "the envelope is not this triple": they are counted by
  inclusion-exclusion over "the envelope holds these cards" (:func:`_count_by_envelope_terms`,
  one smaller DP per term; two different whole triples cannot both be the envelope, so k
  accusations cost k + 1 DPs) instead of clause axes that would multiply the state.
* The sizes of every tensor are known from the state lists before anything is allocated
  (:func:`dp_size`); a refresh over :data:`MAX_DP_BYTES` or :data:`MAX_DP_WORK` is refused at once.
* Cost: O(sum over free cards of (slice operations of the card) x (stored tensor size)) time for
  each pass; the forward tensors are kept for the backward pass (memory: the sum of their sizes).
  On a small deck the fixed cost of each Python and numpy call is the price, not the
  arithmetic: a card whose moves touch at most ``_FLAT_MAX`` entries runs as one gather and one
  ``np.bincount`` per pass (:data:`_Flat`) instead of one slice operation per run of states,
  and each axis's states and runs are kept by what they depend on (:func:`_axis_plan`), so a
  hand or envelope slot seen in an earlier log is not worked out again.
* A small count of a structure not seen before skips all of that: the same DP over cards, in
  the same order, runs over a dictionary ``state -> partial deals`` whose states are Python
  integers packing every hand's and envelope slot's count and the clause bits
  (:func:`_count_direct`), nothing scheduled ahead; building the schedule was half the time of
  a classic-deck count seen once. A structure counted more often (:data:`_DIRECT_TIMES`) gets
  its schedule (kept), which then counts faster.
* A forward pass gives the number of consistent deals; a backward (adjoint) pass gives, for
  every free card and owner, the number of consistent deals with that card there — the exact
  marginals. Exchangeable cards (the same choices) have the same marginals: one per class is
  computed and the backward pass stops once every earlier card's class is known. The backward
  tensors also drive exact uniform sampling of consistent deals.

Counts are computed in float64 (exact while every entry of every forward tensor is below 2**53,
which covers the classic deck); beyond that the exact integer is rebuilt from a uint64 forward
pass (wrap-around sums: the count modulo 2**64) and, above 4e30, a pass modulo a prime (Chinese
remainder theorem). Marginals are ratios of float64 counts (relative error ~1e-15; with failed
accusations, signed sums whose cancellation is bounded by ``_MAX_CANCELLATION``).
"""
from __future__ import annotations

import dataclasses
import itertools
import math
from dataclasses import dataclass, field
from typing import Optional

import numpy as np

from engines.core.cache import LockedLRU
from engines.core.errors import SessionFormatError, check_cancel
from engines.core.limits import check_memory

_P2 = 144115188075855847      # a prime below 2**57: int64 sums of up to 64 residues cannot overflow
_EXACT_FLOAT = float(1 << 53)
_WRAP = 1 << 64               # modulus of the uint64 pass (wrap-around arithmetic)
_ONE_RESIDUE_BELOW = _WRAP / 4 * 1e12   # counts below this need only the residue modulo 2**64


@dataclass
class Constraints:
    """Raw constraints on the deal (before propagation).

    Fields:
        n_players: number of players ``k``; owner ``k`` is the envelope.
        caps: hand sizes, length ``k``.
        cat_of: category index (0, 1, 2) of each card, length ``n``.
        allowed: bool array (n, k+1): the cell may be true.
        clauses: list of tuples of (card, owner) literals, at least one true.
        impossible: a reason string when the constraints are already known to conflict.
        weights: ``{(card, owner): w}`` with ``w > 0``: a deal's weight is the product over its
            cells of these factors (1 where absent; an empty dict: every consistent deal counts
            1, the plain count). A weight 0 is a forbidden cell (:meth:`forbid`). Used for the
            suggestion model (:mod:`engines.cluedo.suggestions`).
    """

    n_players: int
    caps: list
    cat_of: list
    allowed: np.ndarray
    clauses: list = field(default_factory=list)
    impossible: Optional[str] = None
    weights: dict = field(default_factory=dict)
    _keys: Optional[set] = field(default=None, repr=False, compare=False)   # clauses as sets

    def copy(self) -> "Constraints":
        return Constraints(self.n_players, list(self.caps), list(self.cat_of), self.allowed.copy(),
                           list(self.clauses), self.impossible, dict(self.weights))

    def force(self, card: int, owner: int) -> None:
        ok = self.allowed[card, owner]
        self.allowed[card, :] = False
        self.allowed[card, owner] = ok

    def forbid(self, card: int, owner: int) -> None:
        self.allowed[card, owner] = False

    def add_clause(self, lits) -> None:
        """Add the clause "at least one of ``lits`` ((card, owner) pairs) is true", unless the
        same clause (the same set of literals) is already there."""
        key = frozenset(lits)
        if self._keys is None:
            self._keys = {frozenset(cl) for cl in self.clauses}
        if key not in self._keys:
            self._keys.add(key)
            self.clauses.append(tuple(lits))


def _n_cat(cat_of) -> int:
    return max(cat_of) + 1 if cat_of else 0


@dataclass
class Compiled:
    """Constraints after propagation: fixed cards, free cards and the DP resources."""

    n_cards: int
    n_players: int
    feasible: bool
    fixed: dict                 # card -> owner
    free: list                  # card indices (processing order)
    choices: dict               # card -> list of (owner, resource, tuple(clause resources))
    sizes: list                 # per resource
    init: list
    terminal: list
    touched: list               # per resource: cards touching it
    implicit: Optional[int] = None   # count resource kept out of the DP state (see _forward)
    weights: dict = field(default_factory=dict)   # (free card, owner) -> weight / the card's largest
    log_scale: float = 0.0      # log of the factors taken out of ``weights`` (see _normalise_weights)
    # the DP schedule (it does not depend on the weights): shared by :func:`reweight` copies
    schedule_cache: dict = field(default_factory=dict, repr=False, compare=False)
    order_cost: float = 0.0     # the order's estimated work (:func:`_order_cost`; full axis sizes)


def reweight(comp: Compiled, weights: dict) -> Compiled:
    """``comp`` with other cell weights (``{(card, owner): w > 0}``, as
    :attr:`Constraints.weights`; 0 is not allowed: a forbidden cell changes the propagation),
    sharing its DP schedule: counting the same log under several weightings (the suggestion
    model's grid) propagates and schedules once."""
    owners = {c: [o for o, _, _ in comp.choices[c]] for c in comp.free}
    log_scale = 0.0
    for c, o in comp.fixed.items():
        log_scale += float(np.log(weights.get((c, o), 1.0)))
    out = {}
    for c in comp.free:
        ws = {o: weights.get((c, o), 1.0) for o in owners[c]}
        top = max(ws.values())
        if top != 1.0:
            log_scale += float(np.log(top))
        for o, w in ws.items():
            if w != top:
                out[(c, o)] = w / top
    return dataclasses.replace(comp, weights=out, log_scale=log_scale)


def _normalise_weights(weights: dict, owners_of: list, fixed: dict, free: list) -> tuple:
    """Per-cell weights divided by each free card's largest weight over its allowed owners
    (so every weight is at most 1 and no product can overflow), the fixed cards' weights and
    the divisors going into one log factor: ``({(card, owner): w <= 1}, log_scale)``
    (``owners_of[c]``: card ``c``'s possible owners, in order). The
    weighted count is ``exp(log_scale) x`` the count with the normalised weights; posteriors are
    ratios and do not depend on the scale."""
    if not weights:
        return {}, 0.0
    log_scale = 0.0
    for c, o in fixed.items():
        w = weights.get((c, o), 1.0)
        log_scale += float(np.log(w))
    out = {}
    for c in free:
        ws = {o: weights.get((c, o), 1.0) for o in owners_of[c]}
        top = max(ws.values())
        if top != 1.0:
            log_scale += float(np.log(top))
        for o, w in ws.items():
            if w != top:
                out[(c, o)] = w / top
    return out, log_scale


def propagate(cons: Constraints) -> Compiled:  # noqa: C901 (the propagation rules in one fixpoint loop (module docstring))
    """Unit propagation on ``cons``, then the DP resources (see the module docstring).

    The fixpoint runs on one bit mask per card (bit ``o``: owner ``o`` still possible), Python
    integers rather than a boolean array: a classic deck's 21 cards and at most 7 owners make
    numpy's per-call cost the whole price (the 96 anchor positions: the propagation 1.6 times
    as fast, the posteriors bit-identical)."""
    k = cons.n_players
    n = len(cons.cat_of)
    ncat = _n_cat(cons.cat_of)
    bits = 1 << np.arange(k + 1, dtype=np.int64)
    masks = (cons.allowed.astype(np.int64) @ bits).tolist() if n else []
    env_bit = 1 << k
    # a clause repeated (the same suggestion logged again) is one clause: dropped here, before
    # the propagation passes over every clause (the passes sort and deduplicate them anyway)
    clauses = list(dict.fromkeys(tuple(sorted(set(cl))) for cl in cons.clauses))
    feasible = cons.impossible is None
    caps = list(cons.caps)
    cat_cards = [[c for c in range(n) if cons.cat_of[c] == j] for j in range(ncat)]
    cards = range(n)

    changed = True
    while feasible and changed:
        changed = False
        if 0 in masks:
            feasible = False
            break
        # a card with one possible owner is fixed (its mask a power of two); -1: still open
        owner_of = [m.bit_length() - 1 if m & (m - 1) == 0 else -1 for m in masks]
        open_cards = [c for c in cards if owner_of[c] < 0]
        # hands: full hands exclude other cards; a hand needing all its candidates takes them
        for p in range(k):
            bit = 1 << p
            used = owner_of.count(p)
            cand = [c for c in open_cards if masks[c] & bit]
            if used > caps[p] or used + len(cand) < caps[p]:
                feasible = False
                break
            if cand and used == caps[p]:
                for c in cand:
                    masks[c] &= ~bit
                changed = True
            elif cand and used + len(cand) == caps[p]:
                for c in cand:
                    masks[c] = bit
                changed = True
        if not feasible:
            break
        if changed:
            continue
        for j in range(ncat):
            used = sum(1 for c in cat_cards[j] if owner_of[c] == k)
            cand = [c for c in cat_cards[j] if masks[c] & env_bit and owner_of[c] < 0]
            if used > 1 or used + len(cand) < 1:
                feasible = False
                break
            if cand and used == 1:
                for c in cand:
                    masks[c] &= ~env_bit
                changed = True
            elif len(cand) == 1 and used == 0:
                masks[cand[0]] = env_bit
                changed = True
        if not feasible or changed:
            continue
        new_clauses = []
        for cl in clauses:
            lits = [(c, o) for c, o in cl if masks[c] >> o & 1]
            if any(owner_of[c] == o for c, o in lits):
                continue
            if not lits:
                feasible = False
                break
            if len(lits) == 1:
                c, o = lits[0]
                masks[c] = 1 << o
                changed = True
                continue
            new_clauses.append(tuple(lits))
        clauses = sorted(set(new_clauses))

    if not feasible:
        return Compiled(n, k, False, {}, [], {}, [], [], [], [], None)
    owners_of = [[o for o in range(k + 1) if m >> o & 1] for m in masks]
    fixed = {c: os_[0] for c, os_ in enumerate(owners_of) if len(os_) == 1}
    free = [c for c, os_ in enumerate(owners_of) if len(os_) > 1]
    rem = list(caps)
    env_rem = [1] * ncat
    for c, o in fixed.items():
        if o < k:
            rem[o] -= 1
        else:
            env_rem[cons.cat_of[c]] -= 1
    # resources: players 0..k-1, envelope slots k..k+ncat-1, clauses after
    sizes = [r + 1 for r in rem] + [e + 1 for e in env_rem] + [2] * len(clauses)
    init = list(rem) + list(env_rem) + [0] * len(clauses)
    terminal = [0] * (k + ncat) + [1] * len(clauses)
    touched: list = [[] for _ in sizes]
    lit_clauses: dict = {}
    for q, cl in enumerate(clauses):
        for c, o in cl:
            lit_clauses.setdefault((c, o), []).append(k + ncat + q)
    lit_clauses = {key: tuple(qs) for key, qs in lit_clauses.items()}
    choices = {}
    cat_of = cons.cat_of
    no_clause = ()
    for c in free:                   # ascending: each ``touched`` list comes sorted
        ch = []
        for o in owners_of[c]:
            r = o if o < k else k + cat_of[c]
            qs = lit_clauses.get((c, o), no_clause)
            ch.append((o, r, qs))
            touched[r].append(c)     # one owner per count resource: c is new there
            for q in qs:
                t = touched[q]
                if not t or t[-1] != c:
                    t.append(c)
        choices[c] = ch
    for r in range(len(sizes)):
        if not touched[r] and init[r] != terminal[r]:
            feasible = False
    # every free card takes one unit of exactly one count resource (hand or envelope slot) and
    # all of them end at 0, so their capacities must add up to the number of free cards
    if sum(init[:k + ncat]) != len(free):
        feasible = False
    # the largest count resource is left implicit: its remaining capacity equals the number of
    # cards still to place minus the other count resources' remaining capacities
    cands = [r for r in range(k + ncat) if touched[r]]
    implicit = max(cands, key=lambda r: (sizes[r], len(touched[r]), -r)) if cands else None
    order, cost = _order_and_cost(free, choices, sizes, touched, implicit)
    weights, log_scale = _normalise_weights(cons.weights, owners_of, fixed, free)
    return Compiled(n, k, feasible, fixed, order, choices, sizes, init, terminal, touched, implicit,
                    weights, log_scale, order_cost=cost)


_SEARCH_ABOVE = 5e6     # estimated DP work (tensor entries touched) above which orders are searched
_SEARCH_TRIES = 0       # randomised greedy starts besides the greedy one (at most; one per 2e6 of
                        # estimated work). 0: with each hand's clauses in its own axis the local
                        # search from the greedy order alone is as good (Master Detective, 10
                        # players, 10-20 suggestions, 18 games: DP 282 ms in all, orders 64 ms;
                        # with 4 starts DP 290 ms, orders 257 ms)


def _order(free, choices, sizes, touched, implicit=None) -> list:
    """:func:`_order_and_cost`'s order."""
    return _order_and_cost(free, choices, sizes, touched, implicit)[0]


def _order_and_cost(free, choices, sizes, touched, implicit=None) -> tuple:
    """``(order, its estimated work)``: the card elimination order is the greedy order of
    :func:`_greedy_order`; when its estimated work (:func:`_order_cost`) exceeds
    ``_SEARCH_ABOVE``, also ``_SEARCH_TRIES`` randomised greedy orders (one per 2e6 of work, at
    most ``_SEARCH_TRIES``; each candidate's key multiplied by a factor in [1, 2), fixed seed, so
    the result is deterministic), each improved by :func:`_local_search`, keeping the cheapest.
    Any order gives the same exact count; only the work changes. Without clauses nothing is
    searched: every hand stays open over the cards anyway and the searches found nothing better
    (Master Detective, 10 players, no suggestion yet).
    O(T F^2 R) for T tries, F free cards and R resources, plus the local searches."""
    order, cost = _greedy_order_cost(free, choices, sizes, touched, implicit)
    clauses = any(qs for c in free for _, _, qs in choices[c])
    if cost > _SEARCH_ABOVE and clauses:
        rng = np.random.default_rng(len(free))
        starts = [order] + [_greedy_order(free, choices, sizes, touched, implicit, rng)
                            for _ in range(min(_SEARCH_TRIES, int(cost // 2e6)))]
        for cand in starts:
            cand = _local_search(cand, choices, sizes, implicit)
            c_cost = _order_cost(cand, choices, sizes, touched, implicit)
            if c_cost < cost:
                order, cost = cand, c_cost
    return order, cost


_MOVE_WORTH = 1e6       # DP work one local-search round must save to be worth its time (~3 ms)
_MOVE_ROUNDS = 60


def _local_search(order, choices, sizes, implicit) -> list:
    """Steepest descent over the orders one move away (a card taken out and put back at another
    place): every such order is scored at once with :func:`_batch_cost`, the best replaces the
    current one while it saves at least ``_MOVE_WORTH`` of estimated work (a round costs about
    that much time), at most ``_MOVE_ROUNDS`` rounds. Deterministic. Clause-heavy positions gain
    most (Master Detective, 10 players, 20 suggestions: 7.5e7 -> 2.3e7, the DP 3x faster): the
    greedy order leaves clauses open that a later move closes early."""
    f = len(order)
    if f < 3:
        return order
    index = {c: i for i, c in enumerate(order)}
    cols = sorted({rr for c in order for _, r, qs in choices[c] for rr in (r, *qs)} - {implicit})
    colx = {r: j for j, r in enumerate(cols)}
    member = np.zeros((f, len(cols)), dtype=bool)
    for c, i in index.items():
        for _, r, qs in choices[c]:
            for rr in (r, *qs):
                if rr != implicit:
                    member[i, colx[rr]] = True
    logs = np.log(np.array([sizes[r] for r in cols], dtype=float))
    weight = np.array([len(choices[c]) + 2 for c in order], dtype=float)
    if len(cols) <= 63:                  # axes as bits of one int64: 8 byte-wise lookups
        bits = (member.astype(np.int64) << np.arange(len(cols), dtype=np.int64)).sum(axis=1)
        tables = np.zeros((8, 256))
        for j, lg in enumerate(logs):
            byte, bit = divmod(j, 8)
            tables[byte, (np.arange(256) >> bit) & 1 == 1] += lg
        def score(o):
            return _batch_cost_bits(o, bits, tables, weight)
    else:
        def score(o):
            return _batch_cost(o, member, logs, weight)
    # all "take position i out, insert at j" moves as index arrays into the current order
    perms = _insertion_moves(f)
    cur = np.arange(f)
    cost = float(score(cur[None])[0])
    for _ in range(_MOVE_ROUNDS):
        cand = cur[perms]
        costs = score(cand)
        best = int(np.argmin(costs))
        if cost - costs[best] < _MOVE_WORTH:
            break
        cur, cost = cand[best], float(costs[best])
    return [order[i] for i in cur]


def _insertion_moves(f: int) -> np.ndarray:
    """int array (f (f - 1), f): row (i, j) is the order 0..f-1 with position i moved to j."""
    i, j = np.array([(i, j) for i in range(f) for j in range(f) if i != j]).T
    p = np.arange(f)[None, :]
    i, j = i[:, None], j[:, None]
    fwd = np.where((p >= i) & (p < j), p + 1, p)          # i < j: the block i+1..j moves left
    bwd = np.where((p > j) & (p <= i), p - 1, p)          # i > j: the block j..i-1 moves right
    out = np.where(i < j, fwd, bwd)
    return np.where(p == j, i, out)


def _batch_cost_bits(orders: np.ndarray, bits: np.ndarray, tables: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """:func:`_batch_cost` with each card's axes as the bits of one int64 (``bits`` (F,)) and
    ``tables[b, v]`` the sum of the log sizes of the axes set in byte ``b`` of value ``v``."""
    m = bits[orders]
    open_ = np.bitwise_or.accumulate(m, axis=1) & np.bitwise_or.accumulate(m[:, ::-1], axis=1)[:, ::-1]
    logsum = np.zeros(open_.shape)
    for b in range(8):
        logsum += tables[b][(open_ >> (8 * b)) & 255]
    return (np.exp(logsum) * weight[orders]).sum(axis=1)


def _batch_cost(orders: np.ndarray, member: np.ndarray, logs: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """:func:`_order_cost` of many orders at once: ``orders`` int array (B, F) of positions into
    ``member`` (F, R) bool (the axes each card touches); an axis is open during a step when some
    card at or before it and some card at or after it touch it. Returns float array (B,)."""
    m = member[orders]
    open_ = np.logical_or.accumulate(m, axis=1) & np.logical_or.accumulate(m[:, ::-1], axis=1)[:, ::-1]
    return (np.exp(open_.astype(np.float64) @ logs) * weight[orders]).sum(axis=1)


def _order_cost(order, choices, sizes, touched, implicit) -> float:
    """Estimated work of the DP in this order: sum over cards of (open tensor size) x (owners + 2),
    the forward and backward passes doing a few full-tensor operations per owner. O(F R)."""
    left = {r: len(t) for r, t in enumerate(touched)}
    open_: set = set()
    total = 0.0
    for c in order:
        res = {r for _, r, qs in choices[c] for r in (r, *qs)} - {implicit}
        open_ |= res
        size = 1
        for r in open_:
            size *= sizes[r]
        total += size * (len(choices[c]) + 2)
        for r in res:
            left[r] -= 1
            if left[r] == 0:
                open_.discard(r)
    return total


def _greedy_order(free, choices, sizes, touched, implicit=None, rng=None) -> list:
    """Greedy elimination order: next the card whose processing keeps the open tensor smallest
    (ties: the one closing most resources, then deck order); with ``rng``, sizes are multiplied
    by random factors in [1, 2) (randomised greedy). The implicit resource is no axis.
    O(F^2 R) for F free cards and R resources."""
    return _greedy_order_cost(free, choices, sizes, touched, implicit, rng)[0]


def _greedy_order_cost(free, choices, sizes, touched, implicit=None, rng=None) -> tuple:
    """``(order, cost)``: :func:`_greedy_order` and its :func:`_order_cost`, computed on the
    way (the same products and sums in the same order, so the same float)."""
    res_of = {}
    for c in free:
        rs = []
        for _, r, qs in choices[c]:
            if r != implicit and r not in rs:
                rs.append(r)
            for q in qs:
                if q != implicit and q not in rs:
                    rs.append(q)
        res_of[c] = rs
    left = [len(t) for t in touched]
    open_: set = set()
    order = []
    todo = list(free)
    total = 0.0
    while todo:
        best, best_key = None, None
        noise = rng.random(len(todo)) + 1.0 if rng is not None else None
        for i, c in enumerate(todo):
            size = 1                 # open tensor size after c, over the shared factor of open_
            closes = 0
            for r in res_of[c]:
                if r not in open_:
                    size *= sizes[r]
                if left[r] == 1:
                    closes -= 1
            if noise is not None:
                size *= noise[i]
            key = (size, closes, c)
            if best_key is None or key < best_key:
                best, best_key = c, key
        order.append(best)
        todo.remove(best)
        rs = res_of[best]
        open_.update(rs)
        size = 1
        for r in open_:
            size *= sizes[r]
        total += size * (len(choices[best]) + 2)
        for r in rs:
            left[r] -= 1
            if left[r] == 0:
                open_.discard(r)
    return order, total


class _Axis:
    """One axis of the DP tensor: a small automaton over the cards that touch it.

    An axis holds a count resource (a hand or an envelope slot) with the clauses all of whose
    literals are at that owner (an unseen refutation: "the refuter holds one of these cards"),
    or one clause spread over several owners (a failed accusation: "one of these cards is in
    some hand"). (The class allows several count resources in one axis; putting the envelope's
    slots and the failed accusations together was tried and was slower: the joint states were
    hardly fewer and their runs shorter.)

    A state is an int packing ``(used_0, ..., used_m-1, mask)``: cards taken by each count
    resource so far (always 0 for the implicit resource, whose count follows from the others)
    in bit fields wide enough for its capacity, the first resource highest, and the clauses of
    the axis satisfied so far in the lowest ``nq`` bits. Ints order as those tuples do
    (lexicographically), so the sorted state lists, and with them the tensors, are the same as
    with tuples; an int step is a shift and an add instead of building tuples. A card given to
    an owner adds one to that resource (refused at its capacity) and sets the bits of the
    clauses it satisfies; the axis must end at ``(cap_0, ..., cap_m-1, all bits)``.
    """

    __slots__ = ("caps", "shifts", "bits", "effects", "ariths", "init", "accept", "cards", "live", "runs",
                 "_counts")

    def __init__(self, caps, nq):
        self.caps = caps            # per count resource: capacity, or None (implicit: no count)
        self.bits: dict = {}        # clause resource -> bit
        self.effects: dict = {}     # step (position of the card in ``comp.free``) ->
        #                             {choice index: (count resource position or -1, mask)}
        self.ariths: dict = {}      # the same with :meth:`arith` of each effect
        shifts, at = [], nq
        for c in reversed(caps):
            shifts.append(at)
            at += (c or 0).bit_length()
        self.shifts = shifts[::-1]  # per count resource: the lowest bit of its field
        self.init = 0
        self.accept = sum((c or 0) << sh for c, sh in zip(caps, self.shifts)) | ((1 << nq) - 1)
        # per count resource: (inc, field, limit) of :meth:`arith`
        self._counts = [(1 << sh, ((1 << c.bit_length()) - 1) << sh, c << sh) if c is not None else (0, 0, 1)
                        for c, sh in zip(caps, self.shifts)]
        self.cards: list = []       # steps (positions in ``comp.free``) touching the axis, in order
        self.live: list = []        # per touching card: (states before, states after), sorted
        self.runs: tuple = ()       # per touching card: {arith or None: runs} (:func:`_runs`)

    def arith(self, eff) -> tuple:
        """``(inc, field, limit, mask)`` of an effect: a state ``s`` moves to
        ``(s + inc) | mask`` when ``s & field < limit`` (its count below the capacity), else
        it has no successor; ``inc = 0`` (no count) moves every state."""
        pos, mask = eff
        if pos >= 0:
            inc, fld, limit = self._counts[pos]
            return inc, fld, limit, mask
        return 0, 0, 1, mask

    def step(self, s: int, eff) -> Optional[int]:
        pos, mask = eff
        if pos >= 0:
            cap = self.caps[pos]
            if cap is not None:
                sh = self.shifts[pos]
                if (s >> sh) & ((1 << cap.bit_length()) - 1) >= cap:
                    return None
                s += 1 << sh
        return s | mask


def _axes(comp: Compiled) -> list:
    """The DP axes of ``comp`` (:class:`_Axis`) with the states each can hold around each card
    that touches it: the states reachable from the start that can still reach the end (forward
    and backward reachability over the axis's own cards; "the card goes elsewhere" leaves the
    state unchanged). This is where the tensors stay small: a hand of capacity 3 with two
    open refutation clauses holds only the (count, satisfied clauses) pairs that can still
    end full with both clauses satisfied, not all 4 x 2 x 2 of them.

    The states and the runs of each move depend only on the axis's start, end and moves
    (:func:`_axis_plan`), and the same hand or envelope slot over the same cards recurs from
    log to log: they are kept in :data:`_AXIS_PLANS` (the 96 anchor positions of
    ``bench_cluedo_anchor.py`` in one process: 378 of 521 axes found there)."""
    n_count = comp.terminal.count(0)            # hands, then envelope slots, then clauses
    owners_of_q: dict = {}
    for c in comp.free:
        for _, r, qs in comp.choices[c]:
            for q in qs:
                owners_of_q.setdefault(q, set()).add(r)
    own: dict = {}
    spread = []
    for q, rs in sorted(owners_of_q.items()):
        if len(rs) == 1:
            own.setdefault(next(iter(rs)), []).append(q)
        else:
            spread.append(q)
    # one axis per hand or envelope slot (with its own clauses), one per spread clause
    groups = [([r], own.get(r, [])) for r in range(n_count)] + [([], [q]) for q in spread]
    axes: list = []
    axis_of: dict = {}                               # resource (count or clause) -> (axis, position)
    for g, qs in groups:
        rs = [r for r in g if comp.touched[r] and r != comp.implicit]
        if not rs and not qs:
            continue
        ax = _Axis([comp.init[r] for r in rs], len(qs))
        ax.bits = {q: i for i, q in enumerate(qs)}
        for i, r in enumerate(rs):
            axis_of[r] = (ax, i)
        for q in qs:
            axis_of[q] = (ax, -1)
        axes.append(ax)
    for p, c in enumerate(comp.free):
        for j, (_, r, qs) in enumerate(comp.choices[c]):
            if qs:
                hit: dict = {}
                if r in axis_of:
                    ax, i = axis_of[r]
                    hit[id(ax)] = [ax, i, 0]
                for q in qs:
                    ax, _ = axis_of[q]
                    e = hit.setdefault(id(ax), [ax, -1, 0])
                    e[2] |= 1 << ax.bits[q]
                effects = hit.values()
            else:                            # a count only (most choices)
                e = axis_of.get(r)
                if e is None:
                    continue
                effects = ((e[0], e[1], 0),)
            for ax, i, mask in effects:
                effs = ax.effects.get(p)
                if effs is None:             # the axis's cards come in processing order
                    effs = ax.effects[p] = {}
                    ax.ariths[p] = {}
                    ax.cards.append(p)
                effs[j] = (i, mask)
                ax.ariths[p][j] = ax.arith((i, mask))
    axes = [a for a in axes if a.cards]
    for a in axes:
        a.live, a.runs = _kept_axis_plan(a)
    return axes


def _kept_axis_plan(a: "_Axis") -> tuple:
    """:func:`_axis_plan` of ``a``, from :data:`_AXIS_PLANS` when it is there."""
    # what the states depend on: the start, the end and, per card, the distinct moves its
    # choices make on this axis
    sig = (tuple(a.caps), a.accept, a.init,
           tuple([tuple(dict.fromkeys(a.ariths[c].values())) for c in a.cards]))
    plan = _AXIS_PLANS.get(sig)
    if plan is None:
        plan = _axis_plan(a.init, a.accept, sig[3])
        _AXIS_PLANS.put(sig, plan)
    return plan


#: :func:`_axis_plan` of recent axes, by what it depends on (see :func:`_axes`): the same hand
#: or envelope slot over the same number of cards recurs in most logs; the 4,096 most recently
#: used are kept (the 96 anchor positions make 143).
_AXIS_PLANS: LockedLRU = LockedLRU(4096)


def _axis_plan(init: int, accept: int, moves: tuple) -> tuple:
    """The states of one axis around each card that touches it and the runs of each move.

    Args:
        init: the start state; accept: the end state (:class:`_Axis`).
        moves: per touching card, the distinct :meth:`_Axis.arith` of its choices that touch
            the axis (a choice that does not leaves the state unchanged).
    Returns:
        ``(live, runs)``: ``live`` per card ``(states before, states after)``, sorted tuples of
        the states reachable from ``init`` that can still reach ``accept`` (forward and
        backward reachability); ``runs`` per card ``{arith or None: runs}`` (:func:`_runs`,
        None: the card goes elsewhere)."""
    reach = [{init}]
    for arts in moves:
        prev = reach[-1]
        cur = set(prev)
        for inc, fld, limit, mask in arts:
            if inc:
                cur.update([(s + inc) | mask for s in prev if s & fld < limit])
            else:
                cur.update([s | mask for s in prev])
        reach.append(cur)
    co = {accept} & reach[-1]
    live = []
    for i in range(len(moves) - 1, -1, -1):
        here = reach[i]
        before = here & co
        for inc, fld, limit, mask in moves[i]:
            if inc:
                before.update([s for s in here if s & fld < limit and (s + inc) | mask in co])
            else:
                before.update([s for s in here if s | mask in co])
        live.append((tuple(sorted(before)), tuple(sorted(co))))
        co = before
    live.reverse()
    runs = []
    for (before, after), arts in zip(live, moves):
        r = {None: _runs(before, after, None)}
        for ar in arts:
            r[ar] = _runs(before, after, ar)
        runs.append(r)
    return tuple(live), tuple(runs)


@dataclass
class _Step:
    card: int
    opened: int         # axes opened before this card (the last ``opened`` of ``layout``)
    layout: list        # _Axis objects during the step
    closed: list        # positions in ``layout`` of the axes closed after it
    states_in: list     # per axis: sorted states before the card
    states_out: list    # per axis: sorted states after it
    moves: list         # per choice: (owner, [(src slices, dst slices), ...]) or None
    shape_in: tuple     # the tensor's shape before the card (len of each ``states_in``)
    shape_out: tuple    # and after it (``states_out``)
    keep_shape: tuple   # after it, without the closed axes (each at its end state: length 1)
    n_ops: int          # slice operations of the step (all choices' runs)
    flat: Optional["_Flat"]   # the same moves as flat index arrays, or None (a large step)
    f_pre: Optional[np.ndarray] = None


#: Steps whose moves touch at most this many tensor entries in all also get flat index arrays
#: (:data:`_Flat`): one gather and one ``np.bincount`` per step instead of one slice
#: operation per run of states, whose fixed cost (~2 us each) is most of a small DP's time.
#: The arrays are kept with the schedule (:data:`_SCHEDULES`): a classic-deck schedule, 6 players,
#: 0-30 suggestions, holds 128 KB on average (34 KB without them; 85 KB with 2048 here, 66 KB
#: with 1024, at the same median time on the 96 anchor positions and a worst 5-12 % higher).
_FLAT_MAX = 4096


#: A step's moves as flat indices, a plain tuple ``(src, dst, starts, owners, counts, n_in,
#: n_out)`` (a tuple of untracked items: Python's cyclic garbage collector stops scanning it,
#: unlike an object with attributes; the schedules are kept, :data:`_SCHEDULES`). Entry ``e``
#: adds the tensor before the card at flat index ``src[e]`` to the tensor after it at
#: ``dst[e]``; the entries of ``owners[i]`` (the owners of the choices with a move, in order)
#: start at ``starts[i]``, ``counts[i]`` of them (at least one: a move has a run on every
#: axis); ``n_in``, ``n_out``: the entries of the tensor before and after the card. Entries come
#: in the order of the slice operations (choices, then runs, each in C order), so
#: ``np.bincount`` adds into every entry in the same order as those operations do: the same
#: float64 sums, bit for bit, in the forward pass and the backward tensors. A marginal (a dot
#: product, ``np.add.reduceat`` per owner) is summed in another order than ``np.einsum``'s:
#: the same integers without weights, equal to rounding (relative 1e-16) with them.
_Flat = tuple


def _summed(index: np.ndarray, values: np.ndarray, n: int) -> np.ndarray:
    """float64 (n,): ``values`` added up by ``index`` (``np.bincount`` with weights, which
    returns int64 zeros for an empty ``index``: a step no choice of which survives)."""
    if index.size == 0:
        return np.zeros(n)
    return np.bincount(index, values, n)


def _flat_weights(comp: Compiled, step: "_Step") -> np.ndarray:
    """The cell weight of each entry of ``step.flat`` (the weight of its choice's owner)."""
    owners, counts = step.flat[3:5]
    return np.repeat([comp.weights.get((step.card, o), 1.0) for o in owners], counts)


#: ``np.arange(n).reshape(shape)`` by shape (read-only, shared): the flat index of every entry.
_INDEX: LockedLRU = LockedLRU(512)   # at most 512 x _FLAT_MAX x 8 bytes (16 MB); a few hundred recur


def _index(shape: tuple) -> np.ndarray:
    got = _INDEX.get(shape)
    if got is None:
        got = np.arange(math.prod(shape)).reshape(shape)
        got.setflags(write=False)
        _INDEX.put(shape, got)
    return got



def _flat_moves(moves, shape_in: tuple, shape_out: tuple) -> Optional[_Flat]:
    """The :data:`_Flat` tuple of one step's moves, or None when they touch more than ``_FLAT_MAX``
    entries."""
    if math.prod(shape_in) > _FLAT_MAX or math.prod(shape_out) > _FLAT_MAX:
        return None
    ii = _index(shape_in)
    oo = _index(shape_out)
    srcs, dsts, owners, counts = [], [], [], []
    total = 0
    for mv in moves:
        if mv is None:
            continue
        o, combos = mv
        got = 0
        for src, dst in combos:
            a = ii[src]
            srcs.append(a)
            dsts.append(oo[dst])
            got += a.size
        total += got
        if total > _FLAT_MAX:
            return None
        owners.append(o)
        counts.append(got)
    if srcs:     # each run's entries in C order, the runs in order (axis None: flattened)
        both = np.concatenate(srcs + dsts, axis=None)
        src, dst = both[:total], both[total:]
    else:
        src = dst = np.zeros(0, dtype=np.intp)
    starts, at = [], 0
    for n in counts:
        starts.append(at)
        at += n
    return (src, dst, tuple(starts), tuple(owners), tuple(counts), ii.size, oo.size)


def _segments(dst_index, images) -> list:
    """Maximal runs ``(src start, dst start, length)`` of the map ``src index -> dst index``,
    where ``images[src index]`` is the successor of that state (None: dropped, which breaks the
    runs) and ``dst_index`` maps a state to its index after the step."""
    out = []
    for i, t in enumerate(images):
        d = dst_index.get(t) if t is not None else None
        if d is None:
            continue
        if out and out[-1][0] + out[-1][2] == i and out[-1][1] + out[-1][2] == d:
            out[-1][2] += 1
        else:
            out.append([i, d, 1])
    return out


#: Schedules built lately (:func:`_schedule`), by the structure they depend on: at most 256 of
#: them, the least recently used dropped first; one thread builds a key at a time.
_SCHEDULES: LockedLRU = LockedLRU(256)


def _schedule_key(comp: Compiled) -> tuple:
    """What the schedule of ``comp`` depends on: the choices of its free cards in processing
    order (owner, resource, clauses — not which card it is), the resources' sizes, starts and
    ends, which resources some card touches, and the implicit resource."""
    return (tuple(tuple(comp.choices[c]) for c in comp.free), tuple(comp.sizes),
            tuple(comp.init), tuple(comp.terminal), tuple(bool(t) for t in comp.touched),
            comp.implicit)


def _schedule(comp: Compiled, key: Optional[tuple] = None):
    """The DP schedule: per free card a :class:`_Step`; None when some axis has no state that
    is both reachable and able to finish (no consistent deal).

    The schedule depends on the log only through :func:`_schedule_key`, and many counts of one
    recommendation share it (a suggestion's outcome classes, the opponents' views of sampled
    deals: the same structure with other cards). Its parts are built once
    (:func:`_build_schedule`, pure Python: most of a count's time on a small DP) and kept in
    :data:`_SCHEDULES`; each call gets its own :class:`_Step` objects (the forward pass stores
    its tensors in them), so counts in several threads never share one. The result is the same
    as building it anew: the same states, runs and order, so the same numbers."""
    parts = _SCHEDULES.get_or_compute(key or _schedule_key(comp), lambda: _build_schedule(comp))
    if parts is False:
        return None
    return [_Step(c, *part) for c, part in zip(comp.free, parts)]


_WHOLE = slice(None)
#: Slice objects shared by every kept schedule (slices are immutable): the runs of states of
#: the kept schedules repeat a few hundred distinct ``(start, stop)`` pairs, and each slice
#: object is one more object that Python's cyclic garbage collector scans in every full
#: collection. At most :data:`_MAX_SHARED_SLICES` are kept; beyond, new ones are not shared.
_SLICES: dict = {}
_MAX_SHARED_SLICES = 100_000


def _slice(start: int, stop: int) -> slice:
    """The shared ``slice(start, stop)``."""
    key = (start, stop)
    got = _SLICES.get(key)
    if got is None:
        got = slice(start, stop)
        if len(_SLICES) < _MAX_SHARED_SLICES:
            got = _SLICES.setdefault(key, got)
    return got


#: :func:`_runs` of recent schedules, by (states before, states after, effect): the same hand
#: or envelope slot with the same states recurs in many logs and in every count of one
#: recommendation. At most :data:`_MAX_RUNS` are kept; then the memo starts again.
_RUNS: dict = {}
_MAX_RUNS = 50_000


def _runs(before: tuple, after: tuple, arith: Optional[tuple]) -> tuple:
    """The runs ``((src slice, dst slice), ...)`` that move an axis's states ``before`` to its
    states ``after`` under one choice (``arith``: :meth:`_Axis.arith` of its effect; None: the
    card goes elsewhere and every state stays); () when no state survives."""
    key = (before, after, arith)
    got = _RUNS.get(key)
    if got is None:
        if arith is None:
            images = before
        else:
            inc, field, limit, mask = arith
            images = ([s | mask for s in before] if not inc else
                      [(s + inc) | mask if s & field < limit else None for s in before])
        out_index = {st: n for n, st in enumerate(after)}
        got = tuple((_slice(si, si + ln), _slice(di, di + ln)) for si, di, ln in _segments(out_index, images))
        if len(_RUNS) >= _MAX_RUNS:
            _RUNS.clear()
        _RUNS[key] = got
    return got


def _first(item):
    return item[0]


def _build_schedule(comp: Compiled):
    """The parts of every :class:`_Step` of :func:`_schedule` but the card (a tuple per step,
    in ``comp.free`` order), or False when there is no consistent deal.

    What is kept is mostly tuples, and its slices are shared (:func:`_slice`); the axes drop
    their reachability lists once used. Python's cyclic garbage collector stops scanning a tuple
    of untracked items (the states) after it survived one collection, while lists and slices
    are scanned in every full collection (Python documentation, ``gc.is_tracked``): 96 kept
    schedules of the classic deck held about 51,000 scanned objects, now about 26,000."""
    axes = _axes(comp)
    if any(not st for a in axes for lv in a.live for st in lv):
        return False
    at: dict = {}                               # step -> [(axis, index among its cards)]
    for a in axes:
        for t, c in enumerate(a.cards):
            at.setdefault(c, []).append((a, t))
    layout: list = []
    states: list = []                           # per axis of ``layout``: its states now
    pos: dict = {}                              # id(axis) -> its position in ``layout``
    steps = []
    for p, c in enumerate(comp.free):
        here = at.get(p, ())
        opened = 0
        for a, t in here:
            if t == 0:                          # opened before the card, at its start states
                pos[id(a)] = len(layout)
                layout.append(a)
                states.append(a.live[0][0])
                opened += 1
        s_in = tuple(states)                    # an axis's states after one of its cards are
        touched, closed = [], []                # those before the next one
        for a, t in here:
            i = pos[id(a)]
            states[i] = a.live[t][1]
            touched.append((i, a.runs[t], a.ariths[p]))
            if t == len(a.cards) - 1:
                closed.append(i)
        if len(touched) > 1:
            touched.sort(key=_first)            # layout order: the runs' combinations in order
            closed.sort()
        s_out = tuple(states)
        base = [_WHOLE] * len(layout)           # an untouched axis: every state stays
        moves = []
        for j, (o, _r, _qs) in enumerate(comp.choices[c]):
            src, dst = list(base), list(base)
            multi = []
            for i, runs, ar in touched:
                segs = runs[ar.get(j)]
                if len(segs) == 1:
                    src[i], dst[i] = segs[0]
                elif not segs:
                    break
                else:
                    multi.append((i, segs))
            else:
                if not multi:
                    moves.append((o, ((tuple(src), tuple(dst)),)))
                    continue
                # one slice operation per combination of runs (in axis order)
                combos = []
                for combo in itertools.product(*[segs for _, segs in multi]):
                    for (i, _), (sl, dl) in zip(multi, combo):
                        src[i] = sl
                        dst[i] = dl
                    combos.append((tuple(src), tuple(dst)))
                moves.append((o, tuple(combos)))
                continue
            moves.append(None)
        shape_in = tuple([len(st) for st in s_in])
        shape_out = tuple([len(st) for st in s_out])
        keep_shape = tuple([n for i, n in enumerate(shape_out) if i not in closed])
        moves = tuple(moves)
        n_ops = sum([len(mv[1]) for mv in moves if mv is not None])
        steps.append((opened, tuple(layout), tuple(closed), s_in, s_out, moves, shape_in,
                      shape_out, keep_shape, n_ops,
                      _flat_moves(moves, shape_in, shape_out)))
        if closed:
            layout = [a for i, a in enumerate(layout) if i not in closed]
            states = [st for i, st in enumerate(states) if i not in closed]
            pos = {id(a): i for i, a in enumerate(layout)}
    for a in axes:
        a.live = a.cards = a.runs = a.ariths = ()   # used up; the sampler needs the start and the effects
    return tuple(steps)


def dp_size(comp: Compiled, steps=None) -> tuple:
    """The size of the DP on ``comp``, known before anything is allocated (from the exact state
    lists of :func:`_schedule`): ``(total, largest, work)`` — float64 entries of all forward
    tensors together (kept for the backward pass), of the largest one, and the work (sum over
    cards of entries x slice operations of the forward pass)."""
    if steps is None:
        steps = _schedule(comp) if comp.feasible else None
    total = largest = work = 0
    for st in steps or ():
        size = math.prod(st.shape_in)
        total += size
        if size > largest:
            largest = size
        work += size * st.n_ops
    return total, largest, work



#: Largest DP a refresh may build: bytes of its tensors (the forward tensors are kept for the
#: backward pass) and work (tensor entries x slice operations of the forward pass; a refresh
#: runs about 3e8 of them per second on one core of the 2-core machine, so 3e9 is ~10 s).
#: Beyond either, the log is refused at once (:func:`check_dp_size`).
MAX_DP_BYTES = 10 ** 9
MAX_DP_WORK = 3e9
_WORK_PER_SECOND = 3e8


def check_dp_size(comp: Compiled, steps=None, keep: bool = True) -> None:
    """Refuse, before anything is allocated, a DP larger than :data:`MAX_DP_BYTES` or
    :data:`MAX_DP_WORK`, or than the memory available (:func:`engines.core.limits.check_memory`).
    The sizes are exact (:func:`dp_size`), the time an estimate (``_WORK_PER_SECOND``).

    Raises:
        SessionFormatError: at ``$.events``, naming the size needed, the limit and why.
    """
    total, largest, work = dp_size(comp, steps)
    need = 8 * ((total if keep else 2 * largest) + 3 * largest)
    check_memory(need, "$.events", "counting the deals consistent with this log",
                 "close other programs, or play with fewer players or cards")
    if need > MAX_DP_BYTES or work > MAX_DP_WORK:
        raise SessionFormatError(
            "$.events", f"counting the deals consistent with this log exactly would take about "
                        f"{need / 1e9:.1f} GB of memory and {work / _WORK_PER_SECOND:.0f} s; at most "
                        f"{MAX_DP_BYTES / 1e9:.1f} GB and {MAX_DP_WORK / _WORK_PER_SECOND:.0f} s are "
                        f"allowed per refresh (the work grows with the hands still open and the "
                        f"refutations whose card nobody saw); log the cards you hold and were shown "
                        f"and the players who passed")


class CountResult:
    """Exact count and marginal counts of one compiled problem.

    Attributes:
        count: int, the number of consistent deals (exact); with weights
            (:attr:`Constraints.weights`) the weighted count, a float, divided by
            ``exp(log_scale)``.
        count_float: float, the same in float64.
        marginal: float array (n_cards, n_players + 1): number of consistent deals with each card
            at each owner (``marginal.sum(1) == count_float`` per row), or None (count only);
            weighted counts (divided by ``exp(log_scale)``) with weights.
        log_scale: the log of the factor taken out of the weighted counts (0 without weights).
        plain: the exact number of consistent deals (int) when asked for (``plain_count``), else None.
    """

    def __init__(self, comp: Compiled, count: int, count_float: float, marginal, steps, b_posts,
                 plain: Optional[int] = None):
        self.comp = comp
        self.plain = plain
        self.log_scale = comp.log_scale
        self.count = count
        self.count_float = count_float
        self.marginal = marginal
        self._steps = steps
        self._b_posts = b_posts

    def sample(self, n_samples: int, rng: np.random.Generator) -> np.ndarray:
        """Exact uniform samples of consistent deals: int array (n_samples, n_cards) of owner
        indices (``n_players`` = envelope). Sequential sampling card by card with probability
        count(child)/count(parent) from the backward tensors; no rejection.
        """
        comp = self.comp
        out = np.full((n_samples, comp.n_cards), -1, dtype=np.int64)
        for c, o in comp.fixed.items():
            out[:, c] = o
        if self.count == 0:
            raise ValueError("no consistent deal to sample")
        # each axis's states numbered 0..; every sample starts at the axis's initial state
        states: dict = {}
        vals: dict = {}
        for step in self._steps:
            for a, s_in, s_out in zip(step.layout, step.states_in, step.states_out):
                states.setdefault(id(a), set()).update(s_in, s_out)
        ids = {key: {s: i for i, s in enumerate(sorted(st))} for key, st in states.items()}
        lists = {key: sorted(st) for key, st in states.items()}
        for step in self._steps:
            for a in step.layout:
                if id(a) not in vals:
                    vals[id(a)] = np.full(n_samples, ids[id(a)][a.init], dtype=np.int64)
        for at, (step, b_post) in enumerate(zip(self._steps, self._b_posts)):
            chs = comp.choices[step.card]
            w = np.zeros((n_samples, len(chs)))
            new_vals: list = []
            for j in range(len(chs)):
                nv = []
                new_vals.append(nv)
                if step.moves[j] is None:
                    continue
                idx = []
                ok = np.ones(n_samples, dtype=bool)
                for i, a in enumerate(step.layout):
                    key = id(a)
                    eff = a.effects.get(at, {}).get(j)
                    out_index = {s: p for p, s in enumerate(step.states_out[i])}
                    new_id = np.full(len(lists[key]), -1, dtype=np.int64)
                    pos = np.full(len(lists[key]), -1, dtype=np.int64)
                    for sid, s in enumerate(lists[key]):
                        t = s if eff is None else a.step(s, eff)
                        p = out_index.get(t) if t is not None else None
                        if p is not None:
                            new_id[sid] = ids[key][t]
                            pos[sid] = p
                    v = vals[key]
                    ok &= pos[v] >= 0
                    idx.append(np.maximum(pos[v], 0))
                    nv.append(new_id[v])
                w[:, j] = np.where(ok, b_post[tuple(idx)], 0.0) * comp.weights.get((step.card, chs[j][0]), 1.0)
            cum = np.cumsum(w, axis=1)
            u = rng.random(n_samples) * cum[:, -1]
            pick = np.minimum((cum <= u[:, None]).sum(axis=1), len(chs) - 1)
            for j, (o, _r, _qs) in enumerate(chs):
                sel = pick == j
                if not np.any(sel):
                    continue
                out[sel, step.card] = o
                for a, nv in zip(step.layout, new_vals[j]):
                    vals[id(a)][sel] = nv[sel]
        return out


def _step_res(comp: Compiled, chs) -> list:
    """The DP axes one card's choices touch (its owners' resources and clauses; not the
    implicit resource), in first-use order."""
    res = []
    for _, r, qs in chs:
        for rr in (r, *qs):
            if rr != comp.implicit and rr not in res:
                res.append(rr)
    return res


def _move(axes: list, r: int, qs, implicit) -> tuple:
    """Index tuples (src, dst, q positions) of one choice "card to resource ``r``, clauses
    ``qs`` satisfied": ``dst`` holds the states after it, ``src`` those before (``r``'s value one
    higher; for the implicit resource no axis moves), each clause axis at 1 in ``dst``."""
    nd = len(axes)
    src = [slice(None)] * nd
    dst = [slice(None)] * nd
    if r != implicit:
        pr = axes.index(r)
        src[pr] = slice(1, None)
        dst[pr] = slice(0, -1)
    pqs = tuple(axes.index(q) for q in qs)
    for pq in pqs:
        dst[pq] = slice(1, 2)
    return tuple(src), tuple(dst), pqs



def _forward(comp: Compiled, cancel, *, keep: bool, mod: Optional[int] = None, steps=None):
    """Forward pass. Returns (count value, steps, an upper bound on every entry of every
    forward tensor).

    One step per free card (:func:`_schedule`): the axes the card opens join with their start
    state (length 1, no copy), then ``y = sum over the card's owners of x moved by that choice``
    (per axis a run of states maps to a run of states: a slice add per combination of runs),
    then the axes no later card touches — now at their end state — are dropped (length 1, no
    copy). Cost O(sum over cards of slice operations x stored values)."""
    # mod 2**64: uint64 sums wrap around, which is exact arithmetic modulo 2**64 (no reductions)
    dtype = np.float64 if not mod else (np.uint64 if mod == _WRAP else np.int64)
    if mod == _WRAP:
        mod = None
    if steps is None:
        steps = _schedule(comp)
    if steps is None:
        return dtype(0), [], 1.0
    x = np.ones((), dtype=dtype)
    max_mass = bound = 1.0
    weights = comp.weights
    for step in steps:
        check_cancel(cancel)
        if step.opened:
            x = x.reshape(step.shape_in)
        flat = step.flat
        if flat is not None and dtype is np.float64:
            # the same sums as the slice operations below, in the same order (:data:`_Flat`)
            f_src, f_dst, _, _, _, _, n_out = flat
            vals = x.reshape(-1)[f_src]
            if weights:
                vals *= _flat_weights(comp, step)
            y = _summed(f_dst, vals, n_out)
            y_mult = step.n_ops
            if keep:
                step.f_pre = x
            x = y.reshape(step.keep_shape)
            bound *= max(y_mult, 1)
            if bound >= _EXACT_FLOAT:
                bound = float(x.max()) if x.size else 0.0
            max_mass = max(max_mass, bound)
            continue
        y = np.zeros(step.shape_out, dtype=dtype)
        y_mult = 0          # modular mode: y's entries are < y_mult * mod
        for mv in step.moves:
            if mv is None:
                continue
            w = comp.weights.get((step.card, mv[0]), 1.0) if comp.weights else 1.0
            for src, dst in mv[1]:
                if w == 1.0:
                    y[dst] += x[src]
                else:
                    y[dst] += w * x[src]
                y_mult += 1
                if mod and y_mult >= 32:
                    y %= mod
                    y_mult = 1
        if mod:
            y %= mod
        if keep:
            step.f_pre = x
        x = y.reshape(step.keep_shape)
        if dtype is np.float64:
            # float64 sums are exact while every entry stays below 2**53 (partial sums are
            # bounded by the entry they build): bound the largest entry, measure it when needed
            bound *= max(y_mult, 1)
            if bound >= _EXACT_FLOAT:
                bound = float(x.max()) if x.size else 0.0
            max_mass = max(max_mass, bound)
    return x[()], steps, max_mass


def memory_needed(comp: Compiled, keep: bool = True) -> int:
    """Peak bytes of :func:`count_deals` on ``comp``: the forward tensors (float64) — all of
    them when they are kept for the backward pass, else the two largest — plus the backward
    pass's working tensors (three of the largest size), from the exact state lists of
    :func:`dp_size` (nothing is allocated)."""
    total, largest, _ = dp_size(comp)
    return 8 * ((total if keep else 2 * largest) + 3 * largest)


def count_deals(comp: Compiled, cancel=None, *, marginals: bool = True, keep_backward: bool = False,
                plain_count: bool = False) -> CountResult:
    """Count the consistent deals of ``comp`` and, optionally, the marginal counts.

    The backward (adjoint) pass runs the forward steps in reverse: ``b`` (number of completions
    of each state after a step) is pulled back through every choice, and the marginal count of
    "card c at owner o" is the inner product of the forward tensor before c's step with ``b``
    after it, along that choice. Same cost as the forward pass, times about two. Failed
    accusations are counted by inclusion-exclusion (:func:`_count_by_envelope_terms`), except
    for the sampler (``keep_backward``), which needs one DP with every clause in it.

    Args:
        comp: from :func:`propagate`.
        cancel: zero-argument callable; :class:`engines.core.errors.Cancelled` when it is true.
        marginals: also run the backward pass (marginal counts per card and owner).
        keep_backward: keep the backward tensors so that :meth:`CountResult.sample` works.
        plain_count: with weights, also the exact number of consistent deals
            (:attr:`CountResult.plain`: one more forward pass over the same schedule).
    Raises:
        SessionFormatError: at ``$.events`` when the DP would need more memory than is
            available (:func:`engines.core.limits.check_memory`) or more than
            :data:`MAX_DP_BYTES` / :data:`MAX_DP_WORK` (:func:`check_dp_size`).
    """
    if comp.feasible and not keep_backward:
        res = _count_by_envelope_terms(comp, cancel, marginals, plain_count)
        if res is not None:
            return res
    return _count_deals(comp, cancel, marginals, keep_backward, plain_count)


_MAX_TERMS = 256            # inclusion-exclusion terms of failed accusations (else clauses in the DP)
_MAX_CANCELLATION = 1e6     # largest sum of |terms| / result accepted for float marginals


def _envelope_clauses(comp: Compiled) -> dict:
    """The clauses of ``comp`` that only say "not all of these cards are in the envelope" (a
    failed accusation: their literals are exactly every hand a card of theirs may go to):
    ``{clause resource: (cards, envelope resource of each card)}``; a clause with a card that
    cannot be in the envelope is always true and maps to ``((), ())``."""
    k = comp.n_players
    lits: dict = {}
    for c in comp.free:
        for o, _r, qs in comp.choices[c]:
            for q in qs:
                lits.setdefault(q, set()).add((c, o))
    out = {}
    for q, ls in lits.items():
        cards = sorted({c for c, _ in ls})
        if ls != {(c, o) for c in cards for o, _, _ in comp.choices[c] if o < k}:
            continue
        env = [next((r for o, r, _ in comp.choices[c] if o == k), None) for c in cards]
        out[q] = ((), ()) if None in env else (tuple(cards), tuple(env))
    return out


def _count_by_envelope_terms(comp: Compiled, cancel, marginals: bool,  # noqa: C901 (inclusion-exclusion and its exactness guards together)
                             plain_count: bool = False) -> Optional[CountResult]:
    """Failed accusations by inclusion-exclusion instead of clause axes (None: not used).

    A failed accusation A only says "the envelope is not A". With E_A the deals whose envelope
    holds all of A's (still open) cards, the consistent deals are
    ``sum over sets F of accusations of (-1)^|F| N(all E_A, A in F)``, where N counts the deals
    of the other constraints; a term is non-zero only when F's cards fit in the envelope (one
    per category), so with whole accusations the sum stops at single ones. Each term is the
    same DP with F's cards put in the envelope: k accusations cost k + 1 DPs instead of a
    state up to 2^k times larger. Counts are exact integers; marginals are float sums with
    signs, used while the cancellation (sum of |terms| / result) stays below
    ``_MAX_CANCELLATION`` (relative error below ~1e-10)."""
    env_cl = _envelope_clauses(comp)
    if not env_cl:
        return None
    terms = [((), 1)]                  # (accusations in F, sign)

    def grow(start, chosen, slots, sign):
        for i in range(start, len(keys)):
            cards, env = env_cl[keys[i]]
            new = dict(slots)
            if any(new.setdefault(e, c) != c for c, e in zip(cards, env)):
                continue                 # two cards for one envelope slot: the term is 0
            terms.append((chosen + (keys[i],), -sign))
            if len(terms) > _MAX_TERMS:
                return
            grow(i + 1, chosen + (keys[i],), new, -sign)

    keys = [q for q, (cards, _) in sorted(env_cl.items()) if cards]
    grow(0, (), {}, 1)
    if len(terms) > _MAX_TERMS:
        return None
    drop = set(env_cl)
    k = comp.n_players
    count, marg, mass, plain = 0, None, 0.0, 0
    n_count = comp.terminal.count(0)
    for fam, sign in terms:
        # F's cards go to the envelope: fixed there, their slots filled, and no other card of
        # those categories may still go to the envelope
        forced = {c: r for q in fam for c, r in zip(*env_cl[q])}
        init, sizes = list(comp.init), list(comp.sizes)
        for r in forced.values():
            init[r] -= 1
            sizes[r] -= 1
        if min(init) < 0:
            continue
        full = {r for r in forced.values() if init[r] == 0}
        free = [c for c in comp.free if c not in forced]
        choices = {c: [(o, r, tuple(q for q in qs if q not in drop))
                       for o, r, qs in comp.choices[c] if r not in full] for c in free}
        if any(not ch for ch in choices.values()):
            continue
        touched = [[] for _ in sizes]
        for c in free:
            for _, r, qs in choices[c]:
                for rr in (r, *qs):
                    if not touched[rr] or touched[rr][-1] != c:
                        touched[rr].append(c)
        if any(not touched[r] and init[r] != comp.terminal[r] and r not in drop
               for r in range(len(sizes))):
            continue                     # a hand, slot or clause no card can complete: N = 0
        cands = [r for r in range(n_count) if touched[r]]
        implicit = max(cands, key=lambda r: (sizes[r], len(touched[r]), -r)) if cands else None
        order, cost = _order_and_cost(free, choices, sizes, touched, implicit)
        fixed = dict(comp.fixed)
        fixed.update({c: k for c in forced})
        sub = Compiled(comp.n_cards, k, True, fixed, order, choices, sizes, init, comp.terminal,
                       touched, implicit, comp.weights, comp.log_scale, order_cost=cost)
        res = _count_deals(sub, cancel, marginals, False, plain_count)
        if plain_count:
            plain += sign * res.plain
        # the cards put in the envelope carry their (normalised) envelope weight
        f = 1.0
        for c in forced:
            f *= comp.weights.get((c, k), 1.0)
        if comp.weights:
            count += sign * res.count_float * f
        else:
            count += sign * res.count
        mass += res.count_float * f
        if marginals:
            m = res.marginal * f if f != 1.0 else res.marginal
            marg = sign * m if marg is None else marg + sign * m
    zf = float(count)
    if count == 0 or (comp.weights and zf <= 0.0):
        return CountResult(comp, 0, 0.0, np.zeros((comp.n_cards, k + 1)) if marginals else None, [], [],
                           plain if plain_count else None)
    if marginals and mass / zf > _MAX_CANCELLATION:
        return None
    if comp.weights and mass / zf > _MAX_CANCELLATION:
        return None
    if marginals:
        marg = np.clip(marg, 0.0, zf)
    return CountResult(comp, count, zf, marg, [], [], plain if plain_count else None)


def _integer_count(comp: Compiled, cancel, zf: float, max_mass: float, steps) -> int:
    """The exact integer count of an unweighted DP from its float64 count (see the module
    docstring)."""
    if zf == 0.0:
        return 0
    if zf < _EXACT_FLOAT and max_mass < _EXACT_FLOAT:
        return int(round(zf))
    return _exact_count(comp, cancel, zf, steps)


def _count_deals(comp: Compiled, cancel, marginals: bool, keep_backward: bool,  # noqa: C901 (the forward, backward and exact passes share their tensors)
                 plain_count: bool = False) -> CountResult:
    """:func:`count_deals` with every clause in the DP."""
    k = comp.n_players
    if not comp.feasible:
        return CountResult(comp, 0, 0.0, np.zeros((comp.n_cards, k + 1)) if marginals else None, [], [],
                           0 if plain_count else None)
    key = None
    if not keep_backward and not comp.weights and "steps" not in comp.schedule_cache:
        # a structure's first counts: the dictionary DP, nothing scheduled; seen more
        # often (the counts of one recommendation, say), its schedule is built and kept
        key = _schedule_key(comp)
        seen = _SEEN.get(hash(key)) or 0
        if seen < _DIRECT_TIMES and _SCHEDULES.get(key) is None:
            _SEEN.put(hash(key), seen + 1)
            res = _count_direct(comp, cancel, marginals, plain_count)
            if res is not None:
                return res
    if "steps" not in comp.schedule_cache:
        comp.schedule_cache["steps"] = _schedule(comp, key)
    steps = comp.schedule_cache["steps"]
    if steps is None:
        return CountResult(comp, 0, 0.0, np.zeros((comp.n_cards, k + 1)) if marginals else None, [], [],
                           0 if plain_count else None)
    check_dp_size(comp, steps, keep=marginals or keep_backward)
    z, steps, max_mass = _forward(comp, cancel, keep=marginals or keep_backward, steps=steps)
    zf = float(z)
    if zf == 0.0:
        count = 0
    elif comp.weights:
        count = zf                       # a weighted count: a float, no exact integer
    elif zf < _EXACT_FLOAT and max_mass < _EXACT_FLOAT:
        count = int(round(zf))
    else:
        count = _exact_count(comp, cancel, zf, steps)
    marg = None
    b_posts: list = []
    if (marginals or keep_backward) and zf > 0:
        marg = np.zeros((comp.n_cards, k + 1))
        # exchangeable cards (the same choices: owners, resources and clauses) have the same
        # marginals: swapping two of them maps the consistent deals onto themselves. One card of
        # each class is computed; without the sampler, the backward pass stops as soon as every
        # earlier card's class is known.
        kind = {c: (tuple(comp.choices[c]),
                    tuple(comp.weights.get((c, o), 1.0) for o, _, _ in comp.choices[c]) if comp.weights else ())
                for c in comp.free}
        last_of = {kind[st.card]: i for i, st in enumerate(steps)}
        stop_at = min(last_of.values(), default=-1) if not keep_backward else -1
        rep: dict = {}                   # class -> the card whose marginals were computed
        b = np.ones(())
        for i in range(len(steps) - 1, -1, -1):
            step = steps[i]
            if i < stop_at:
                break
            check_cancel(cancel)
            # closed axes come back at their end state: length 1 (a reshape, no copy)
            b = b.reshape(step.shape_out)
            if keep_backward:
                b_posts.append(b)
            f = step.f_pre
            dots = kind[step.card] not in rep
            if dots:
                rep[kind[step.card]] = step.card
            last = i == stop_at and not keep_backward
            flat = step.flat
            if flat is not None:
                # the slice operations below as one gather and one sum each (:data:`_Flat`)
                f_src, f_dst, starts, owners, _, n_in, _ = flat
                bq = b.reshape(-1)[f_dst]
                if comp.weights:
                    bq *= _flat_weights(comp, step)
                if dots:
                    marg[step.card, owners] = np.add.reduceat(f.reshape(-1)[f_src] * bq, starts) \
                        if f_src.size else 0.0
                if not last:
                    b = _summed(f_src, bq, n_in).reshape(step.shape_in[:len(step.layout) - step.opened])
                step.f_pre = None
                continue
            b_pre = None if last else np.zeros(f.shape)
            for mv in step.moves:
                if mv is None:
                    continue
                o, combos = mv
                w = comp.weights.get((step.card, o), 1.0) if comp.weights else 1.0
                tot = 0.0
                for src, dst in combos:
                    bq = b[dst] if w == 1.0 else w * b[dst]
                    fs = f[src]
                    if fs.size == 0:
                        continue
                    if dots:
                        ax = list(range(fs.ndim))
                        tot += float(np.einsum(fs, ax, bq, ax, []))    # no temporary
                    if not last:
                        b_pre[src] += bq
                if dots:
                    marg[step.card, o] = tot
            if not last:
                b = b_pre.reshape(b_pre.shape[:len(step.layout) - step.opened])   # opened: length 1
            step.f_pre = None
        for st in steps:
            st.f_pre = None
            c = rep[kind[st.card]]
            if c != st.card:
                marg[st.card] = marg[c]
        b_posts.reverse()
        for c, o in comp.fixed.items():
            marg[c, o] = zf
    elif marginals:
        marg = np.zeros((comp.n_cards, k + 1))
    plain = None
    if plain_count:
        if comp.weights:
            bare = dataclasses.replace(comp, weights={}, log_scale=0.0)
            zp, _, mass_p = _forward(bare, cancel, keep=False, steps=steps)
            plain = _integer_count(bare, cancel, float(zp), mass_p, steps)
        else:
            plain = count
    return CountResult(comp, count, zf, marg, steps if keep_backward else [], b_posts, plain)


# ---------------------------------------------------------------------------------------------
# small counts: the same DP over a dictionary of states, in Python integers
# ---------------------------------------------------------------------------------------------
#: Most (state, choice) pairs the forward pass of :func:`_count_direct` visits before it leaves
#: the count to the tensor DP (negative: always the tensor DP). Below it the dictionary DP costs
#: less than building a tensor schedule (:func:`_build_schedule`) for a structure not seen
#: before; above it the tensor DP's one gather and one ``np.bincount`` per card are cheaper (the
#: classic deck, 3-6 players, 10-20 suggestions, 240 positions, each counted once in one
#: process: both cost the same at 1,800-2,400 pairs, ~1.2 ms).
_DIRECT_MAX = 2000
#: Counts whose order's estimated work (:attr:`Compiled.order_cost`, from the axes' full sizes;
#: some 5-30 times the pairs the dictionary DP visits) is above this go to the tensor DP
#: without trying (a try that stops at :data:`_DIRECT_MAX` costs ~0.3 ms).
_DIRECT_SKIP = 16000
#: How many counts of one structure (:func:`_schedule_key`) :func:`_count_direct` answers; the
#: next one builds the structure's schedule and keeps it (:data:`_SCHEDULES`): a kept schedule
#: counts faster than the dictionary DP, which pays when a structure recurs (the counts of one
#: recommendation), not when a log is only counted again (building costs 2-4 dictionary DPs).
_DIRECT_TIMES = 2
#: Hashes of the schedule keys counted by :func:`_count_direct` -> how many times (the hash, not
#: the key: a key is a few hundred tuples that Python's cyclic garbage collector would scan in
#: each collection of the generation holding them; two keys with one hash only build a
#: schedule sooner).
_SEEN: LockedLRU = LockedLRU(1024)


def _direct_plan(comp: Compiled) -> list:
    """Per free card of ``comp`` (processing order) ``(card, owners, moves, close_fields,
    close_target, floors, full)`` for :func:`_count_direct`.

    A state of the whole DP is one Python integer: a bit field per count resource (the cards it
    has taken, from 0 up to its capacity; every hand and envelope slot, the implicit one too:
    its count follows from the others, so it adds no state, and it refuses an overdrawn hand at
    once) and one bit per clause (satisfied yet). ``owners``: the card's possible owners;
    ``moves``: per owner ``(inc, field, limit, mask)``: state ``s`` goes to ``(s + inc) | mask``
    when ``s & field < limit`` (the owner's count is below its capacity). After the card a state
    is kept only when:

    * every resource no later card touches is at its end: ``t & close_fields == close_target``;
    * every hand or envelope slot the card touches can still fill up with the cards left that
      may go there: ``t & field >= floor`` for each ``(field, floor)`` of ``floors``;
    * a hand the card touches that is full has satisfied its own clauses (the unseen
      refutations it made): ``t & field != full_value or t & clauses == clauses`` for each
      ``(field, full_value, clauses)`` of ``full``.

    These are the conditions the tensor DP's axes keep (:func:`_axis_plan`), checked on the
    joint state."""
    n_count = comp.terminal.count(0)            # hands, then envelope slots, then clauses
    fld, unit, target = {}, {}, {}
    at = 0
    for r, cards in enumerate(comp.touched):
        if not cards:
            continue
        if r < n_count:
            cap = comp.init[r]
            width = max(cap.bit_length(), 1)
            fld[r], unit[r], target[r] = ((1 << width) - 1) << at, 1 << at, cap << at
            at += width
        else:
            fld[r] = target[r] = 1 << at
            at += 1
    left = {r: len(comp.touched[r]) for r in fld}     # cards still to come that touch r
    owners_of_q: dict = {}
    for c in comp.free:
        for _, r, qs in comp.choices[c]:
            for q in qs:
                owners_of_q.setdefault(q, set()).add(r)
    own: dict = {}                               # hand -> bits of the clauses only it can satisfy
    for q, rs in owners_of_q.items():
        if len(rs) == 1:
            r = next(iter(rs))
            own[r] = own.get(r, 0) | fld[q]
    plan = []
    for c in comp.free:
        owners, moves = [], []
        res = []
        for o, r, qs in comp.choices[c]:
            mask = 0
            for q in qs:
                mask |= fld[q]
                if q not in res:
                    res.append(q)
            owners.append(o)
            moves.append((unit[r], fld[r], target[r], mask))
            if r not in res:
                res.append(r)
        close_f = close_t = 0
        floors = []
        full = []
        for r in res:
            n_left = left[r] = left[r] - 1
            if not n_left:
                close_f |= fld[r]
                close_t |= target[r]
            elif r < n_count:
                need = comp.init[r] - n_left
                if need > 0:
                    floors.append((fld[r], need * unit[r]))
                if r in own:
                    full.append((fld[r], target[r], own[r]))
        plan.append((c, tuple(owners), tuple(moves), close_f, close_t, tuple(floors), tuple(full)))
    return plan


def _count_direct(comp: Compiled, cancel, marginals: bool,
                  plain_count: bool = False) -> Optional[CountResult]:
    """:func:`_count_deals` of a small unweighted count, or None when it is not small.

    The dynamic programming over cards of the module docstring, in the same card order, with a
    dictionary ``state -> number of partial deals`` instead of a tensor (a state: one Python
    integer, :func:`_direct_plan`): nothing is scheduled or allocated ahead, which is most of
    the time of a tensor DP over a structure seen for the first time (the 96 anchor positions of
    ``bench_cluedo_anchor.py``: 0.49 of 0.94 ms). The backward (adjoint) pass gives the marginal
    counts as in :func:`_count_deals`, one card per class of exchangeable cards.

    Counts are Python integers, exact. The result is returned only while every number of the
    forward pass is below 2**53, where the tensor DP's float64 sums are exact too: both give
    the same floats, bit for bit. None (the tensor DP's turn) with weights, when
    :attr:`Compiled.order_cost` is above :data:`_DIRECT_SKIP`, or when the forward pass would
    visit more than :data:`_DIRECT_MAX` (state, choice) pairs; memory is then at most a few
    thousand states (well under 1 MB), so nothing is checked (:func:`check_dp_size`).

    Raises:
        Cancelled: ``cancel`` returned True (checked once per card).
    """
    if comp.weights or not comp.feasible or comp.order_cost > _DIRECT_SKIP or _DIRECT_MAX < 0:
        return None
    plan = _direct_plan(comp)
    cur = {0: 1}
    forward = []
    work = 0
    bound = 1                                    # no number of the forward pass exceeds it
    for _card, _owners, moves, close_f, close_t, floors, full in plan:
        check_cancel(cancel)
        work += len(cur) * len(moves)
        if work > _DIRECT_MAX:
            return None
        bound *= len(moves)
        nxt: dict = {}
        get = nxt.get
        for s, v in cur.items():
            for inc, f, lim, mask in moves:
                if s & f < lim:
                    t = (s + inc) | mask
                    nxt[t] = get(t, 0) + v
        if close_f:
            nxt = {t: v for t, v in nxt.items() if t & close_f == close_t}
        for f, lo in floors:
            nxt = {t: v for t, v in nxt.items() if t & f >= lo}
        for f, top, qs in full:
            nxt = {t: v for t, v in nxt.items() if t & f != top or t & qs == qs}
        forward.append(cur)
        cur = nxt
    count = sum(cur.values())
    if bound >= _EXACT_FLOAT and (count >= _EXACT_FLOAT or
                                  any(v >= _EXACT_FLOAT for d in forward for v in d.values())):
        return None
    k = comp.n_players
    marg = None
    if marginals:
        rows = [[0] * (k + 1) for _ in range(comp.n_cards)]
        if count:
            _direct_marginals(comp, plan, forward, cur, rows, cancel)
            for c, o in comp.fixed.items():
                rows[c][o] = count
        marg = np.array(rows, dtype=np.float64)
    return CountResult(comp, count, float(count), marg, [], [], count if plain_count else None)


def _direct_marginals(comp: Compiled, plan: list, forward: list, final: dict, rows: list, cancel) -> None:
    """The backward pass of :func:`_count_direct`: ``rows[card][owner]`` = the number of
    consistent deals with that free card there. ``b`` maps each state after a card to its number
    of completions; the marginal of a choice is the sum over the states before the card of
    (partial deals) x (completions after the choice). Cards with the same choices have the same
    marginals (swapping them maps the consistent deals onto themselves): the pass stops once
    every earlier card's class is known, as :func:`_count_deals` does."""
    kind = {c: tuple(comp.choices[c]) for c in comp.free}
    last_of = {kind[c]: i for i, c in enumerate(comp.free)}
    stop_at = min(last_of.values(), default=0)
    rep: dict = {}                               # class -> the card whose marginals were computed
    b = dict.fromkeys(final, 1)
    for i in range(len(plan) - 1, stop_at - 1, -1):
        check_cancel(cancel)
        card, owners, moves = plan[i][:3]
        bget = b.get
        nb = {}
        if kind[card] in rep:                    # its class is known: completions only
            for s in forward[i]:
                acc = 0
                for inc, f, lim, mask in moves:
                    if s & f < lim:
                        w = bget((s + inc) | mask)
                        if w:
                            acc += w
                if acc:
                    nb[s] = acc
            b = nb
            continue
        rep[kind[card]] = card
        tots = [0] * len(moves)
        for s, v in forward[i].items():
            acc = 0
            for j, (inc, f, lim, mask) in enumerate(moves):
                if s & f < lim:
                    w = bget((s + inc) | mask)
                    if w:
                        acc += w
                        tots[j] += v * w
            if acc:
                nb[s] = acc
        row = rows[card]
        for o, tot in zip(owners, tots):
            row[o] = tot
        b = nb
    for c in comp.free:
        r = rep[kind[c]]
        if r != c:
            rows[c] = list(rows[r])


def _exact_count(comp: Compiled, cancel, approx: float, steps=None) -> int:
    """The exact count from its residues and the float64 count: the float is within a relative
    1e-12 of the truth (sums of non-negative terms, a few hundred roundings), so the residue
    modulo 2**64 (a uint64 pass: wrap-around sums, no reductions) pins the integer down while
    ``approx < 4e30``; beyond that a residue modulo a prime ~2**57 is combined with it (Chinese
    remainder theorem)."""
    from fractions import Fraction

    r, m = int(_forward(comp, cancel, keep=False, mod=_WRAP, steps=steps)[0]), _WRAP
    if approx >= _ONE_RESIDUE_BELOW:
        r2 = int(_forward(comp, cancel, keep=False, mod=_P2, steps=steps)[0])
        r = r + m * (((r2 - r) * pow(m, -1, _P2)) % _P2)
        m = m * _P2
    # nearest integer to approx that is = r (mod m)
    k = int(round((Fraction(approx) - r) / m))
    return r + k * m
