"""Exact outcome laws of every suggestion at once, and their information about the envelope.

My suggestion (s, w, r) has an observable outcome ``O``: who refutes (the first player after me
in seating order holding one of the three cards) and which card I am shown (the refuter choosing
uniformly among their matching cards). ``O`` is a function of the three cards' owners, so the
law of ``O`` for every suggestion follows from the joint law of the owners of every triple of
cards, one from each category: ``J[s, w, r, o_s, o_w, o_r]`` = the number of consistent deals
with card s at owner o_s, w at o_w and r at o_r.

Method (forward/backward messages of the counting DP of :mod:`engines.cluedo.counting`, a
variable-elimination analogue of the junction-tree "clamping" of Koller & Friedman,
*Probabilistic Graphical Models*, 2009, section 10.3 and exercise 10.12):

* Every card becomes a step of the DP (the cards fixed by propagation first, as steps that leave
  the tensor unchanged, then the free cards in the counting order).
* A forward pass carries, besides the ordinary forward message, one *clamped* row per (card a,
  owner o_a) of every card already processed: the forward message restricted to deals with a at
  o_a. Before each step the rows are stored (``G``).
* A backward pass does the same from the end (``H``: completions restricted to a later card c at
  o_c, stored after each step).
* For a triple whose cards sit at steps a < b < c in this order,
  ``J[o_a, o_b, o_c] = sum over states of G_b[a, o_a] moved by "b to o_b" times H_b[c, o_c]``:
  one matrix product per (step b, owner o_b) gives every pair (a, c) around b at once.

Cost per conditioning: the two passes are O(R x sum over steps of (owners x tensor size)) and
the products O(sum over steps of R_before x R_after x owners x tensor size), R = number of
clamped rows (about owners per card x cards). The classic deck mid-game: a few ms.

The envelope information of category X (suspect, weapon or room) uses ``I(E_X; O) = H(O) -
H(O | E_X)``: the laws of ``O`` are computed once per conditioning "card x is in the envelope"
for every x of X that may be there (the count restricted to that). The joint information
``I(E; O)`` about the whole envelope ``E = (E_S, E_W, E_R)`` conditions on every possible
envelope instead (more conditionings; :func:`envelope_information` offers it when asked).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Optional, Sequence

import numpy as np

from engines.cluedo.counting import Compiled, _move, _step_res, propagate
from engines.core.errors import check_cancel


@dataclass
class _Plan:
    """The DP steps in order: card, choices ``(owner, resource or None, clause resources)``,
    the axes during the transition (``layout``), axes opened before it and closed after it, and
    each choice's index tuples (``moves[i][j]``: :func:`engines.cluedo.counting._move` of choice
    ``j`` of step ``i`` in ``layout[i]``, its ``src`` and ``dst`` prefixed with the row axis;
    None for a card fixed by propagation), made once per plan for the forward pass, the backward
    pass and the products."""

    cards: list
    choices: list
    layout: list
    opened: list
    closed: list
    moves: list


def _plan(comp: Compiled) -> _Plan:
    cards, choices, layout, opened, closed = [], [], [], [], []
    for c in sorted(comp.fixed):
        cards.append(c)
        choices.append([(comp.fixed[c], None, ())])
        layout.append([])
        opened.append([])
        closed.append([])
    axes: list = []
    left = {r: len(t) for r, t in enumerate(comp.touched)}
    for c in comp.free:
        chs = comp.choices[c]
        res = _step_res(comp, chs)
        op = [r for r in res if r not in axes]
        axes.extend(op)
        cards.append(c)
        choices.append(list(chs))
        layout.append(list(axes))
        opened.append(op)
        for r in res:
            left[r] -= 1
        cl = [r for r in axes if left[r] == 0]
        for r in cl:
            axes.remove(r)
        closed.append(cl)
    moves = [[None if r is None else _rows_move(_move(lay, r, qs, comp.implicit))
              for _o, r, qs in chs] for chs, lay in zip(choices, layout)]
    return _Plan(cards, choices, layout, opened, closed, moves)


def _b(idx: tuple) -> tuple:
    """Prefix an index tuple with the row axis."""
    return (slice(None),) + idx


def _rows_move(move: tuple) -> tuple:
    """A :func:`engines.cluedo.counting._move` ``(src, dst, q positions)`` for tensors with a
    leading row axis (``src`` and ``dst`` prefixed with it)."""
    src, dst, pqs = move
    return _b(src), _b(dst), pqs


def _forward_rows(comp: Compiled, plan: _Plan, allow: np.ndarray, clamp: np.ndarray, cancel):
    """Forward pass with clamped rows. Returns (count, G, rows): ``G[i]`` float array
    (R_i, *layout_i) before step i, row 0 the plain message; ``rows`` list of (card, owner) per
    row (row 0 = (-1, -1)); rows are appended, so ``G[i]``'s rows are a prefix of ``rows``."""
    x = np.ones((1,))
    rows = [(-1, -1)]
    G = []
    for i, c in enumerate(plan.cards):
        check_cancel(cancel)
        for r in plan.opened[i]:
            nx = np.zeros(x.shape + (comp.sizes[r],))
            nx[..., comp.init[r]] = x
            x = nx
        G.append(x)
        y = np.zeros_like(x)
        new = []
        for (o, r, _qs), mv in zip(plan.choices[i], plan.moves[i]):
            if not allow[c, o]:
                continue
            w = comp.weights.get((c, o), 1.0) if comp.weights else 1.0
            if r is None:
                y += x if w == 1.0 else w * x
                u0 = x[0:1] if w == 1.0 else w * x[0:1]
                if clamp[c]:
                    new.append(u0.copy())
                    rows.append((c, o))
                continue
            src, dst, pqs = mv
            u = x[src]
            for pq in pqs:
                u = u.sum(axis=pq + 1, keepdims=True)
            if w != 1.0:
                u = w * u
            y[dst] += u
            if clamp[c]:
                z = np.zeros((1,) + x.shape[1:])
                z[dst] = u[0:1]
                new.append(z)
                rows.append((c, o))
        x = np.concatenate([y] + new, axis=0) if new else y
        for r in plan.closed[i]:      # positions shift as earlier axes close
            x = np.take(x, comp.terminal[r], axis=1 + _pos_after(plan.layout[i], plan.closed[i], r))
    return float(x[0]), G, rows


def _pos_after(layout, closed, r) -> int:
    """Position of ``r`` among the axes of ``layout`` still present when ``r`` is closed (axes in
    ``closed`` are removed in that order)."""
    gone = set(closed[:closed.index(r)])
    return [a for a in layout if a not in gone].index(r)


def _backward_rows(comp: Compiled, plan: _Plan, allow: np.ndarray, clamp: np.ndarray, cancel):
    """Backward pass with clamped rows. Returns (H, rows): ``H[i]`` float array (R_i, *layout_i)
    after step i (completions), row 0 the plain message; ``rows`` as in :func:`_forward_rows`
    (rows of later cards; ``H[i]``'s rows are a prefix)."""
    b = np.ones((1,))
    rows = [(-1, -1)]
    n = len(plan.cards)
    H = [None] * n
    for i in range(n - 1, -1, -1):
        check_cancel(cancel)
        c = plan.cards[i]
        lay = plan.layout[i]
        present = [a for a in lay if a not in plan.closed[i]]
        for r in reversed(plan.closed[i]):
            cur = [a for a in lay if a in present or a == r]
            ins = cur.index(r)
            shape = list(b.shape)
            shape.insert(ins + 1, comp.sizes[r])
            nb = np.zeros(shape)
            nb[(slice(None),) * (ins + 1) + (comp.terminal[r],)] = b
            b = nb
            present = cur
        H[i] = b
        pre = np.zeros_like(b)
        new = []
        for (o, r, _qs), mv in zip(plan.choices[i], plan.moves[i]):
            if not allow[c, o]:
                continue
            w = comp.weights.get((c, o), 1.0) if comp.weights else 1.0
            if r is None:
                pre += b if w == 1.0 else w * b
                if clamp[c]:
                    new.append(b[0:1].copy() if w == 1.0 else w * b[0:1])
                    rows.append((c, o))
                continue
            src, dst, _ = mv
            bq = b[dst] if w == 1.0 else w * b[dst]
            pre[src] += bq
            if clamp[c]:
                z = np.zeros((1,) + b.shape[1:])
                z[src] += bq[0:1]
                new.append(z)
                rows.append((c, o))
        b = np.concatenate([pre] + new, axis=0) if new else pre
        for r in reversed(plan.opened[i]):
            b = np.take(b, comp.init[r], axis=1 + lay.index(r))
    return H, rows


def triple_joint(comp: Compiled, cat_of: Sequence[int], candidates: Sequence[Sequence[int]],
                 allow: Optional[np.ndarray] = None, cancel=None, plan: Optional[_Plan] = None):
    """Joint owner counts of every candidate triple.

    Args:
        comp: :func:`engines.cluedo.counting.propagate` of the log (feasible).
        cat_of: category (0, 1, 2) of each card.
        candidates: three lists of card indices (suspects, weapons, rooms to consider).
        allow: bool array (n_cards, n_players + 1), extra restriction of the owners (a
            conditioning such as "card x is in the envelope"); None: no restriction.
        cancel: cancel flag.
    Returns:
        ``(count, J)``: the number of consistent deals satisfying ``allow`` (float) and float
        array ``J`` of shape (n_S, n_W, n_R, K, K, K), ``K = n_players + 1`` (owner ``n_players``
        = envelope): ``J[i, j, l, a, b, c]`` = number of those deals with ``candidates[0][i]`` at
        owner a, ``candidates[1][j]`` at b and ``candidates[2][l]`` at c.
    """
    k = comp.n_players
    K = k + 1
    n = comp.n_cards
    plan = plan or _plan(comp)
    if allow is None:
        allow = np.ones((n, K), dtype=bool)
    pos_in = {}
    for cat, cards in enumerate(candidates):
        for j, c in enumerate(cards):
            pos_in[c] = (cat, j)
    clamp = np.zeros(n, dtype=bool)
    clamp[list(pos_in)] = True
    J = np.zeros(tuple(len(c) for c in candidates) + (K, K, K))
    for c, o in comp.fixed.items():
        if not allow[c, o]:
            return 0.0, J
    total, G, frows = _forward_rows(comp, plan, allow, clamp, cancel)
    if total == 0.0:
        return 0.0, J
    H, brows = _backward_rows(comp, plan, allow, clamp, cancel)
    fwd, bwd = _rows_by_category(frows, pos_in), _rows_by_category(brows, pos_in)
    # J's cells as flat indices: a row's part (its card's candidate index and owner) is added
    # to the other row's and the middle card's (one index array per pair of rows, not six)
    stride = [int(np.prod(J.shape[m + 1:])) for m in range(6)]
    f_off = [fwd[x].idx * stride[x] + fwd[x].own * stride[3 + x] for x in range(3)]
    b_off = [bwd[x].idx * stride[x] + bwd[x].own * stride[3 + x] for x in range(3)]
    Jf = J.reshape(-1)
    for i, c in enumerate(plan.cards):
        if c not in pos_in:
            continue
        check_cancel(cancel)
        cb, jb = pos_in[c]
        g, h = G[i], H[i]
        moves = []
        for (o, r, _qs), mv in zip(plan.choices[i], plan.moves[i]):
            if allow[c, o]:
                w = comp.weights.get((c, o), 1.0) if comp.weights else 1.0
                moves.append(((o, None, None, ()) if r is None else (o, *mv)) + (w,))
        for cat_a in range(3):
            for cat_c in range(3):
                if len({cat_a, cat_c, cb}) < 3:
                    continue
                # the rows of G[i] (H[i]) are a prefix of the forward (backward) rows
                ma, mc = fwd[cat_a].below[g.shape[0]], bwd[cat_c].below[h.shape[0]]
                if not ma or not mc:
                    continue
                ga, hc = g[fwd[cat_a].rows[:ma]], h[bwd[cat_c].rows[:mc]]
                cells = f_off[cat_a][:ma, None] + b_off[cat_c][None, :mc] + jb * stride[cb]
                for o, src, dst, pqs, w in moves:
                    if src is None:
                        u, v = ga, hc
                    else:
                        u = ga[src]
                        for pq in pqs:
                            u = u.sum(axis=pq + 1, keepdims=True)
                        v = hc[dst]
                    prod = _dot_t(u.reshape(ma, -1), v.reshape(mc, -1))
                    Jf[cells + o * stride[3 + cb]] = prod if w == 1.0 else w * prod
    return total, J


class _CategoryRows:
    """The clamped rows of one category in a pass's row list (:func:`_forward_rows`,
    :func:`_backward_rows`): their positions, candidate indices and owners, in row order, and
    how many of them lie below each row count (``below[n]``); :func:`triple_joint` takes, for
    every step, the rows of a prefix as slices of these (one ``flatnonzero`` per category and pass instead of
    one per step, pair of categories and conditioning: 8,232 calls, about 9 % of a 4-player
    ranking after five entries)."""

    __slots__ = ("rows", "idx", "own", "below")

    def __init__(self, rows: np.ndarray, idx: np.ndarray, own: np.ndarray, n_rows: int):
        self.rows, self.idx, self.own = rows, idx, own
        self.below = np.searchsorted(rows, np.arange(n_rows + 1)).tolist()



def _rows_by_category(rows: list, pos_in: dict) -> list:
    """:class:`_CategoryRows` of each category (0, 1, 2) of ``rows`` ((card, owner) pairs,
    row 0 the plain message: card -1), ``pos_in`` card -> (category, index among the
    candidates)."""
    cat = np.array([pos_in[c][0] if c >= 0 else -1 for c, _ in rows])
    idx = np.array([pos_in[c][1] if c >= 0 else 0 for c, _ in rows])
    own = np.array([o for _, o in rows])
    out = []
    for x in range(3):
        r = np.flatnonzero(cat == x)
        out.append(_CategoryRows(r, idx[r], own[r], len(rows)))
    return out


def outcome_matrix(n_players: int, me: int) -> np.ndarray:
    """Float array (K**3, 1 + 3 (k - 1)), ``K = k + 1``: row ``(o_s * K + o_w) * K + o_r`` is the
    law of the outcome when the three cards are at those owners: outcome 0 = nobody refutes,
    ``1 + 3 j + t`` = the j-th player after ``me`` refutes by showing card t (uniform among the
    cards they hold)."""
    k = n_players
    K = k + 1
    order = [(me + 1 + j) % k for j in range(k - 1)]
    rank = {p: j for j, p in enumerate(order)}
    out = np.zeros((K, K, K, 1 + 3 * (k - 1)))
    for owners in np.ndindex(K, K, K):
        rk = [rank.get(o, k) for o in owners]
        j = min(rk)
        if j == k:
            out[owners + (0,)] = 1.0
            continue
        held = [t for t in range(3) if rk[t] == j]
        for t in held:
            out[owners + (1 + 3 * j + t,)] = 1.0 / len(held)
    return out.reshape(K ** 3, -1)


def _dot_t(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a @ b.T`` by numpy's own loops: the products here are small, and a threaded BLAS call
    on a busy 2-core machine waits for its threads (measured 20-50x slower than this)."""
    return np.einsum("ij,kj->ik", a, b)


def _clean(bits: np.ndarray) -> np.ndarray:
    """Information from a difference of entropies: rounding leaves ~1e-16 where the truth is 0
    (a suggestion of my own cards); below 1e-12 bits is 0."""
    return np.where(bits < 1e-12, 0.0, bits)


def _xlogx(p: np.ndarray, axis) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(p > 0, p * np.log2(np.where(p > 0, p, 1.0)), 0.0)
    return t.sum(axis=axis)


def envelope_information(comp: Compiled, cat_of: Sequence[int], candidates: Sequence[Sequence[int]],
                         me: int, total: float, envelope_marginal: np.ndarray, *, joint: bool = False,
                         cancel=None, cons=None, log_scale: float = 0.0) -> dict:
    """Exact expected information about the envelope of every candidate suggestion.

    Args:
        comp: the propagated log (feasible); ``total``: its number of consistent deals (> 0).
        cat_of: category of each card; candidates: three lists of card indices (the triples are
            their product).
        me: the suggester's seat (the others answer in seating order).
        envelope_marginal: float array (n_cards,), P(card in the envelope) (which conditionings
            are possible).
        joint: also compute the joint information ``I(E; O)`` (one conditioning per possible
            envelope instead of one per possible envelope card).
        cancel: cancel flag.
        cons: the log's :class:`engines.cluedo.counting.Constraints` (the conditionings are then
            propagated again, and exchangeable cards share one).
        log_scale: ``total``'s log factor (:attr:`engines.cluedo.counting.CountResult.log_scale`)
            when the log carries the suggestion model's cell weights
            (:attr:`engines.cluedo.counting.Constraints.weights`): every count is then a weighted
            count, each conditioning's brought to ``total``'s scale, and the laws those of the
            weighted posterior. 0 without weights.
    Returns:
        dict with ``"sum"``: float array (n_S, n_W, n_R), ``sum over categories X of
        I(E_X; O)`` in bits; ``"per_category"``: float array (3, n_S, n_W, n_R); with
        ``joint``, ``"joint"``: float array (n_S, n_W, n_R), ``I(E; O)`` in bits; and, when some
        category is uncertain, ``"envelope"``: float array (n_S, n_W, n_R), ``P(E = (s, w, r))``
        for the candidate triples (a by-product: the first uncertain category's conditionings
        "x in the envelope" summed over x, each triple's count with its three cards in the
        envelope; the whole law of the envelope when the candidates are every card).
    Method: the module docstring (``I(E_X; O) = H(O) - sum_x P(E_X = x) H(O | E_X = x)``).
    """
    k = comp.n_players
    K = k + 1
    n = comp.n_cards
    plan = _plan(comp)
    mout = outcome_matrix(k, me)
    mout_t = np.ascontiguousarray(mout.T)
    shape = tuple(len(c) for c in candidates)
    n_trip = int(np.prod(shape))
    base = np.ones((n, K), dtype=bool)

    def outcome_counts(cards_env):
        if cons is not None:                     # the conditioned log, propagated again
            cc = cons.copy()
            for x in cards_env:
                cc.force(x, k)
            sub = propagate(cc)
            if not sub.feasible:
                return 0.0, None, None
            cnt, J = triple_joint(sub, cat_of, candidates, None, cancel)
            scale = sub.log_scale
        else:
            allow = base.copy()
            for x in cards_env:
                allow[x, :k] = False
            cnt, J = triple_joint(comp, cat_of, candidates, allow, cancel, plan)
            scale = comp.log_scale
        if scale != log_scale:            # weighted counts: to the scale of ``total``
            f = float(np.exp(scale - log_scale))
            cnt, J = cnt * f, J * f
        Jf = J.reshape(n_trip, K ** 3)
        return cnt, _dot_t(Jf, mout_t), Jf[:, -1]     # (n_trip, n_outs) counts; all in the envelope

    per_cat = np.zeros((3,) + shape)
    h_o = None
    ncat = 3
    env_law = None
    for cat in range(ncat):
        xs = [c for c in range(n) if cat_of[c] == cat and envelope_marginal[c] > 0]
        if len(xs) <= 1:
            continue
        h_cond = np.zeros(n_trip)
        p_o = np.zeros((n_trip, mout.shape[1]))
        law = np.zeros(n_trip) if env_law is None else None
        done: list = []                  # (card, its conditioning's results), computed ones
        for x in xs:
            rep = next((d for d in done if cons is not None
                        and exchangeable(cons, d[0], x, candidates[cat])), None)
            if rep is None:
                cnt, oc, in_env = outcome_counts([x])
                done.append((x, (cnt, oc, in_env)))
            else:                        # x's conditioning is rep's with the two cards swapped
                cnt, oc, in_env = rep[1]
                if cnt > 0:
                    perm = _swap_index(candidates[cat], rep[0], x)
                    oc = oc.reshape(shape + (-1,)).take(perm, axis=cat).reshape(n_trip, -1)
                    in_env = in_env.reshape(shape).take(perm, axis=cat).reshape(n_trip)
            if cnt <= 0:
                continue
            if law is not None:
                law += in_env / total        # P(E = triple, E_X = x), summed over x: P(E = triple)
            p = oc / total                                         # P(O = o, E_X = x)
            p_o += p
            h_cond -= _xlogx(p, 1) - (cnt / total) * np.log2(cnt / total)   # P(x) H(O | x)
        h_o = -_xlogx(p_o, 1)
        per_cat[cat] = _clean(h_o - h_cond).reshape(shape)
        if law is not None:
            env_law = law.reshape(shape)
    out = {"per_category": per_cat, "sum": per_cat.sum(axis=0)}
    if env_law is not None:
        out["envelope"] = env_law
    if joint:
        env_cards = [[c for c in range(n) if cat_of[c] == cat and envelope_marginal[c] > 0]
                     for cat in range(ncat)]
        h_cond = np.zeros(n_trip)
        p_o = np.zeros((n_trip, mout.shape[1]))
        for e in np.ndindex(*[len(v) for v in env_cards]):
            cards_env = [env_cards[cat][j] for cat, j in enumerate(e)]
            cnt, oc, _ = outcome_counts(cards_env)
            if cnt <= 0:
                continue
            p = oc / total
            p_o += p
            h_cond -= _xlogx(p, 1) - (cnt / total) * np.log2(cnt / total)
        out["joint"] = _clean(-_xlogx(p_o, 1) - h_cond).reshape(shape)
    return out


def exchangeable(cons, a: int, b: int, candidates: Sequence[int] = ()) -> bool:
    """Whether swapping cards ``a`` and ``b`` maps the constraints ``cons``
    (:class:`engines.cluedo.counting.Constraints`) to themselves — same allowed owners, same
    weights, the same multiset of clauses — so that every count conditioned on ``a`` equals the
    count conditioned on ``b`` with the two cards' roles swapped; and ``candidates`` (a card list)
    holds both or neither. Only cards of one category may be swapped (the envelope holds one per
    category). Method: a permutation of the cards that leaves the constraints unchanged maps the
    consistent deals one to one (the symmetry reduction of exact counting, e.g. Sabharwal,
    "SymChaff", 2009, applied to one transposition)."""
    if a == b:
        return True
    if cons.cat_of[a] != cons.cat_of[b] or ((a in candidates) != (b in candidates)):
        return False
    if not np.array_equal(cons.allowed[a], cons.allowed[b]):
        return False
    if cons.weights:
        for o in range(cons.n_players + 1):
            if cons.weights.get((a, o), 1.0) != cons.weights.get((b, o), 1.0):
                return False
    sw = {a: b, b: a}
    mine = [frozenset(cl) for cl in cons.clauses if any(c in sw for c, _ in cl)]
    if not mine:
        return True
    swapped = [frozenset((sw.get(c, c), o) for c, o in cl) for cl in cons.clauses
               if any(c in sw for c, _ in cl)]
    return Counter(mine) == Counter(swapped)


def _swap_index(cards: Sequence[int], a: int, b: int) -> np.ndarray:
    """Index array over ``cards`` that swaps the positions of ``a`` and ``b`` (when present)."""
    perm = np.arange(len(cards))
    cards = list(cards)
    if a in cards and b in cards:
        i, j = cards.index(a), cards.index(b)
        perm[i], perm[j] = j, i
    return perm


def estimated_work(comp: Compiled, cat_of: Sequence[int], candidates: Sequence[Sequence[int]],
                   envelope_marginal: np.ndarray, cons=None) -> float:
    """Estimated number of tensor entries touched by :func:`envelope_information` (without
    ``joint``): conditionings x (clamped rows x sum over steps of owners x tensor size) x 4 (two
    passes and the products). About 1e8 per second of numpy on one core (measured on the
    classic deck). With ``cons`` (the log's :class:`engines.cluedo.counting.Constraints`), a
    conditioning is counted once per class of :func:`exchangeable` cards, as
    :func:`envelope_information` computes it (the others are its results permuted)."""
    plan = _plan(comp)
    cand = {c for cards in candidates for c in cards}
    rows = 1 + sum(len(plan.choices[i]) for i, c in enumerate(plan.cards) if c in cand)
    per = 0.0
    for i in range(len(plan.cards)):
        size = 1
        for r in plan.layout[i]:
            size *= comp.sizes[r]
        per += len(plan.choices[i]) * size
    n_cond = 0
    for cat in range(3):
        xs = [c for c in range(comp.n_cards) if cat_of[c] == cat and envelope_marginal[c] > 0]
        if len(xs) <= 1:
            continue
        if cons is None:
            n_cond += len(xs)
            continue
        reps: list = []
        for x in xs:
            if not any(exchangeable(cons, r, x, candidates[cat]) for r in reps):
                reps.append(x)
        n_cond += len(reps)
    return float(n_cond * rows * per * 4)
