"""The master table of Egghead up to the symmetry of players, kept sparse (Zorn 2024, A.1).

Why: six players with 56 stacks each have 56^6 ≈ 30.8 G worlds; the bit-packed table of
:mod:`engines.egghead.table` takes 4.4 GB and every event reads all of it. But the table is
symmetric. Every question decomposes over players (an associative ``combine`` of a per-stack
number), so an answer about the stacks the moderator sees does not change when those stacks
are permuted among the seen players; a reactions round treats alike the players who react
alike and whose reaction is modelled from the same table; a solve singles one player out.
So the players fall into *blocks* (a partition of the axes, refined as events single players
out: a rotating moderator, the solvers of a round, a player who solved, the players who do not
use behavioural analysis), and the table is invariant under every permutation of the players
within a block (the Young subgroup of the partition). It is stored here as the set of its
*orbits*: a world up to those permutations is one sorted tuple of stacks per block, packed into
one int64 key (stacks in the block order, each in ``bits`` bits), and the table is the sorted
array of the keys of the orbits it contains. That is the idea of symbolic epistemic model
checkers (van Benthem, van Eijck, Gattinger and Su, "Symbolic model checking for Dynamic
Epistemic Logic", 2015, SMCDEL): knowledge over huge world sets need not be stored world by
world; here the structure used is the symmetry of players rather than a BDD.

The operations are Zorn's (2024) equations, on orbits:

* answers, eq. (2)/(6): an orbit is kept iff the answer computed from its stacks (the seen
  players' blocks) is the one given — the moderator's block is split off first;
* reactions, eqs. (3)-(4): player p's valids in a world are the stacks v with (w_-p, v) in the
  table; up to symmetry, w_-p is the orbit with one element of p's block deleted, and the
  number of valids is the number of orbits (and distinct deleted values) that give that key.
  An orbit stays iff, for every element of every block, the reaction so computed is the one
  announced for that block (every block's players reacted alike, split first otherwise);
* a solve, eq. (5): the solver's axis is split off as a block of one, the orbits where they
  held the revealed stack are kept and their coordinate is made free.

The table before any answer (every world) is kept as a flag, not as its C(S+n-1, n) orbits.
Exactness against the explicit table is tested on 3-5 players (tests/engines/
test_egghead_orbits.py). Cost: proportional to the number of orbits left; with six players and
the benchmark's games (tests/benchmarks/bench_egghead.py --six) see docs/egghead-six-players.md.
"""
from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from engines.core.errors import CancelFlag, check_cancel
from engines.egghead.questions import Question
from engines.egghead.table import table_bytes

_CHUNK = 1 << 20  # orbits handled at once
_IND_CHUNK = 1 << 18  # orbits per pass of an indicator (temporaries of a few MB, reused)
_WINDOW = 1 << 22  # widest rank window an indicator counts with one bincount (32 MB of int64)
_STEP_LIMIT = 1 << 21  # (tails x other orbits) combined at once while listing the answers' orbits
_GEN_LIMIT = 1 << 18  # multisets generated at once for the full table
_DENSE_LIMIT = 1 << 25  # indicators over at most this many keys are dense count arrays
_OUTER_LIMIT = 1 << 23  # aggregates combined at once by the full-table answer filter (>= C(60, 5))
_SYM_LIMIT = 1 << 16  # answers kept unmaterialised while the product of their aggregate ranges fits
_SYM_PIECE = 1 << 19  # entries of an answers-only indicator built at once
_JOINT_LIMIT = 1 << 22  # (joint aggregates x orbits of the other blocks) tabled at once when listing them


@lru_cache(maxsize=64)
def _colex(n: int, S: int) -> np.ndarray:
    """int64 (n+1, S): entry [i, a] is C(a+i-1, i), the term of a stack a at 1-based position
    i in the colexicographic rank of a sorted tuple (combinatorial number system: the sorted
    tuple a_1 <= ... <= a_b is the combination c_i = a_i + i - 1 of 0..S+b-2, whose rank is
    sum_i C(c_i, i); the ranks of b-tuples are 0..C(S+b-1, b)-1)."""
    out = np.zeros((n + 1, S), dtype=np.int64)
    for i in range(n + 1):
        for a in range(S):
            out[i, a] = math.comb(a + i - 1, i) if a + i - 1 >= 0 else (1 if i == 0 else 0)
    out.setflags(write=False)
    return out


@lru_cache(maxsize=64)
def _colex32(n: int, S: int) -> np.ndarray:
    """:func:`_colex` as int32 (for dense ranks below 2^31)."""
    out = _colex(n, S).astype(np.int32)
    out.setflags(write=False)
    return out


@lru_cache(maxsize=64)
def _lex_keys(S: int, b: int, bits: int) -> np.ndarray:
    """int64 packed keys (``bits`` per stack) of :func:`multisets` (S, b), same order (sorted)."""
    rows = multisets(S, b)
    key = np.zeros(rows.shape[0], dtype=np.int64)
    for j in range(b):             # column by column: no int64 copy of every row
        key <<= bits
        key |= rows[:, j]
    key.setflags(write=False)
    return key


def _radix(S: int, sizes: Sequence[int]) -> list[int]:
    """Number of sorted tuples per block (C(S+b-1, b) for each block size b)."""
    return [math.comb(S + b - 1, b) for b in sizes]


def _strides(radix: Sequence[int]) -> list[int]:
    out, s = [0] * len(radix), 1
    for i in range(len(radix) - 1, -1, -1):
        out[i] = s
        s *= radix[i]
    return out


def _unpack(keys: np.ndarray, m: int, bits: int) -> np.ndarray:
    """int64 (N, m) rows of packed keys (the first column most significant), in column-major
    order: each column contiguous and of the index type, so that the passes' gathers
    (:meth:`OrbitTable._deletion_ranks`) read it without a conversion (measured: 7 ms instead
    of 12 ms per 2^18 orbits)."""
    keys = np.asarray(keys, dtype=np.int64)
    out = np.empty((m, keys.shape[0]), dtype=np.int64)
    mask = (1 << bits) - 1
    for j in range(m):
        np.right_shift(keys, bits * (m - 1 - j), out=out[j])
        np.bitwise_and(out[j], mask, out=out[j])
    return out.T


def _mirror(rows: np.ndarray, sizes: Sequence[int], S: int) -> np.ndarray:
    """Rows with every stack x replaced by S-1-x and each block's columns reversed (still
    sorted within blocks): the lexicographic order of rows is the reverse of the mixed-radix
    colex order of their mirrors, so a lex rank is (total - 1) minus a colex rank."""
    out = np.empty_like(rows)
    c = 0
    for b in sizes:
        out[:, c:c + b] = (S - 1) - rows[:, c:c + b][:, ::-1]
        c += b
    return out


def _dense_ranks(rows: np.ndarray, sizes: Sequence[int], S: int) -> np.ndarray:
    """int64 (N,): the rank of rows (N, sum(sizes)) made of sorted blocks of the given sizes
    (block order = column order) in the lexicographic order of all such rows (the order of
    their keys), from the combinatorial number system on the mirrored rows (:func:`_mirror`);
    a dense index of the orbits."""
    CT = _colex(max(1, max(sizes, default=1)), S)
    radix = _radix(S, sizes)
    st = _strides(radix)
    y = _mirror(rows, sizes, S)
    out = np.zeros(rows.shape[0], dtype=np.int64)
    c = 0
    for b, s in zip(sizes, st):
        r = np.zeros(rows.shape[0], dtype=np.int64)
        for q in range(b):
            r += CT[q + 1][y[:, c + q]]
        out += r * s
        c += b
    return (math.prod(radix) - 1) - out


def _lex_multisets(S: int, lo: int, b: int):
    """Sorted b-tuples of stacks lo..S-1 in lexicographic order, in chunks of about
    ``_GEN_LIMIT`` rows (int16 (N, b)); never all C(S+b-1, b) at once."""
    if b == 0:
        yield np.zeros((1, 0), dtype=np.int16)
        return
    if math.comb(S - lo + b - 1, b) <= _GEN_LIMIT:
        yield (multisets(S - lo, b) + lo).astype(np.int16)
        return
    for a in range(lo, S):
        for sub in _lex_multisets(S, a, b - 1):
            yield np.hstack([np.full((sub.shape[0], 1), a, dtype=np.int16), sub])


@lru_cache(maxsize=512)
def multisets(S: int, b: int) -> np.ndarray:
    """int16 (C(S+b-1, b), b): every sorted b-tuple of stacks 0..S-1, in lexicographic order."""
    if b == 0:
        return np.zeros((1, 0), dtype=np.int16)
    if b == 1:
        return np.arange(S, dtype=np.int16)[:, None]
    prev = multisets(S, b - 1)
    parts = []
    for a in range(S):
        suf = prev[np.searchsorted(prev[:, 0], a):] if prev.shape[1] else prev
        head = np.full((suf.shape[0], 1), a, dtype=np.int16)
        parts.append(np.hstack([head, suf]))
    out = np.vstack(parts)
    out.setflags(write=False)
    return out


def _tuple_aggregates(q: Question, S: int, b: int, dt) -> np.ndarray:
    """``dt`` (C(S+b-1, b),): the aggregate of question ``q`` (the combine of its per-stack
    numbers, Zorn 2024 eq. (2)) of every sorted b-tuple of :func:`multisets` (S, b), in the
    same order, built as :func:`multisets` builds the tuples (a first stack, then the
    (b-1)-tuples from it on): one combine per tuple instead of b gathers and combines."""
    f = q.feature.astype(dt)
    agg = np.full(1, q.identity, dtype=dt)
    for k in range(1, b + 1):
        if k == 1:
            agg = q.ufunc(agg[0], f)
            continue
        first = multisets(S, k - 1)[:, 0]
        starts = np.searchsorted(first, np.arange(S, dtype=first.dtype))
        agg = np.concatenate([q.ufunc(f[a], agg[starts[a]:]) for a in range(S)])
    return agg


def _add_window(cnt: np.ndarray, ranks: np.ndarray) -> None:
    """Add to ``cnt`` (uint8/uint16 counts) one per entry of ``ranks`` (int, repeats allowed,
    changed in place) with one ``bincount`` over their window [min, max] only."""
    if ranks.size == 0:
        return
    lo = int(ranks.min())
    ranks -= lo
    c = np.bincount(ranks)
    view = cnt[lo:lo + c.size]
    np.add(view, c, out=view, casting="unsafe")


def orbits_possible(players: int, S: int) -> int:
    """Orbits of the whole table when all ``players`` are in one block: C(S+n-1, n) (int)."""
    return math.comb(S + players - 1, players)


def fits(players: int, S: int) -> bool:
    """Whether keys of ``players`` stacks of S values fit in an int64 (the representation's
    precondition)."""
    return players * max(1, (S - 1).bit_length()) <= 62


def _assignments(block: Sequence[int], parts: Sequence[Sequence[int]]) -> list[tuple]:
    """For an old block (sorted axes) split into ``parts``: every assignment of its sorted
    positions 0..b-1 to its axes (a tuple aligned with ``block``) with each part's positions
    increasing along its axes (so that the rows stay sorted within the new blocks)."""
    b = len(block)
    out = []

    def rec(i, free, acc):
        if i == len(parts):
            out.append(dict(acc))
            return
        for pos in itertools.combinations(free, len(parts[i])):
            nxt = [x for x in free if x not in pos]
            rec(i + 1, nxt, acc + list(zip(parts[i], pos)))
    rec(0, list(range(b)), [])
    return [tuple(d[a] for a in block) for d in out]


class OrbitIndicator:
    """A player's solved indicator on an :class:`OrbitTable`: for each key of a world without
    that player (sorted int64 ``keys``), the number of their valid stacks (``counts``).
    ``full_count``: set instead when the table is full (every key has S valids).
    Dense form (``dense`` set): uint8 counts capped at 2, indexed by the mixed-radix colex
    rank (:func:`_dense_ranks`) of the world without the player, whose blocks have ``sizes``;
    ``bits``/``S`` say how its keys are packed. Kept when that index space is at most
    ``_DENSE_LIMIT`` (6 players in one block: C(60, 5) = 5.5 M entries)."""

    def __init__(self, keys: np.ndarray | None, counts: np.ndarray | None,
                 full_count: int | None = None, dense: np.ndarray | None = None,
                 sizes: tuple = (), bits: int = 0, S: int = 0):
        self.keys, self.counts, self.full_count = keys, counts, full_count
        self.dense, self.sizes, self.bits, self.S = dense, tuple(sizes), bits, S

    def count_of(self, keys: np.ndarray) -> np.ndarray:
        """int64 counts for keys (0 where a key is absent; capped at 2 in the dense form)."""
        keys = np.asarray(keys, dtype=np.int64)
        if self.full_count is not None:
            return np.full(keys.shape, self.full_count, dtype=np.int64)
        if self.dense is not None:
            rows = _unpack(keys, sum(self.sizes), self.bits)
            return self.dense[_dense_ranks(rows, self.sizes, self.S)].astype(np.int64)
        if self.keys.size == 0:
            return np.zeros(keys.shape, dtype=np.int64)
        pos = np.searchsorted(self.keys, keys)
        pos = np.minimum(pos, self.keys.size - 1)
        hit = self.keys[pos] == keys
        return np.where(hit, self.counts[pos], 0)


class OrbitTable:
    """A set of worlds invariant under permutations of players within blocks, as sorted orbit
    keys (see the module docstring). Mutable; :meth:`copy` to keep. Same methods as
    :class:`engines.egghead.table.BitTable` where :mod:`engines.egghead.inference` uses them.

    Args:
        players: n >= 2; S: stacks per player; blocks: the initial partition of the axes
            (tuples of axes; default one block of all).
    Raises:
        ValueError: keys of n stacks of S values do not fit in 62 bits (:func:`fits`).
    """

    def __init__(self, players: int, S: int, blocks: Sequence[Sequence[int]] | None = None):
        if not fits(players, S):
            raise ValueError(f"{players} stacks of {S} values do not fit in an int64 key")
        self.n, self.S = players, S
        self.bits = max(1, (S - 1).bit_length())
        self.blocks = self._norm(blocks if blocks is not None else [range(players)])
        self.full = True
        # the answers given on the full table while no other event changed it, kept as
        # (question, answer, seen) instead of their orbits (see :meth:`_materialize`); None
        # when the orbits are stored
        self._sym: list | None = None
        self._keys = np.zeros(0, dtype=np.int64)
        self._kept: list = []
        self._inds: dict = {}   # block -> OrbitIndicator of the current orbits
        self._count: int | None = None   # worlds of the stored orbits, cached until they change
        # axes whose coordinate is free (a player who solved, eq. (5)): each is a block of one
        # whose column holds 0 in every stored orbit, and the table is the stored orbits times
        # every stack of each free axis (see :meth:`reset_player`)
        self.free: frozenset = frozenset()

    @property
    def keys(self) -> np.ndarray:
        """The sorted int64 keys of the orbits (materialised from the answers on first use,
        without a Cancel flag: the passes of this class list them with :meth:`_listed` and
        their ``cancel`` first, so this property only reads them there)."""
        if self._sym is not None:
            self._materialize()
        return self._keys

    @keys.setter
    def keys(self, value: np.ndarray) -> None:
        self._keys = value
        self._sym = None

    # ------------------------------------------------------------------ answers, symbolically
    # While the table is the full table cut by answers only (no reaction has removed a world,
    # nobody has solved), a world is in it iff every answer holds for it, and each answer
    # depends on the world only through its aggregate (Zorn 2024, eq. (2): combine of a
    # per-stack number over the seen players). So a player's number of valid stacks in a
    # world depends only on the aggregates, over the others' stacks, of the questions asked:
    # the indicators are a gather from a table over those aggregates, the number of worlds a
    # convolution over players, and no orbit needs to be listed (six players: the first
    # answer and its posterior without the 11.7 M orbits of a typical answer).

    def _sym_grid(self, sym=None):
        """For the recorded answers (or ``sym``): their bounds, strides (first most
        significant), the flattened grid of aggregate tuples (k, G) and okJ (G,): whether
        every answer holds."""
        qs = self._sym if sym is None else sym
        bounds = [q.bound for q, _a, _s in qs]
        strides = _strides(bounds)
        grid = np.indices(bounds).reshape(len(qs), -1)
        ok = np.ones(grid.shape[1], dtype=bool)
        for i, (q, a, _s) in enumerate(qs):
            ok &= (q.final(np.arange(q.bound, dtype=np.int64)) == a)[grid[i]]
        return bounds, strides, grid, ok

    def _sym_moves(self, axis: int, grid, strides):
        """For one more stack on ``axis``: (target flat grid index (G,), multiplicity) per
        group of stacks with the same numbers for the questions that see ``axis``."""
        qs = self._sym
        seen = [i for i, (_q, _a, sn) in enumerate(qs) if sn[axis]]
        if not seen:
            flat = sum(grid[i] * strides[i] for i in range(len(qs)))
            return [(flat, self.S)]
        feats = np.stack([qs[i][0].feature for i in seen], axis=1)      # (S, k_seen)
        uniq, mult = np.unique(feats, axis=0, return_counts=True)
        out = []
        for f, m in zip(uniq, mult):
            flat = np.zeros(grid.shape[1], dtype=np.int64)
            for i, (q, _a, _s) in enumerate(qs):
                x = grid[i]
                if i in seen:   # past the bound only from aggregates no world reaches
                    x = np.minimum(q.ufunc(x, f[seen.index(i)]), q.bound - 1)
                flat += x * strides[i]
            out.append((flat, int(m)))
        return out

    def _sym_count(self) -> int:
        """Worlds satisfying every recorded answer: the distribution of the aggregates,
        built one player at a time (exact in float64: at most S^n < 2^53 worlds)."""
        bounds, strides, grid, ok = self._sym_grid()
        G = grid.shape[1]
        dist = np.zeros(G)
        dist[sum(q.identity * st for (q, _a, _s), st in zip(self._sym, strides))] = 1.0
        for axis in range(self.n):
            new = np.zeros(G)
            for flat, m in self._sym_moves(axis, grid, strides):
                new += m * np.bincount(flat, weights=dist, minlength=G)
            dist = new
        return int(round(float(dist @ ok)))

    def _sym_indicator(self, bi: int, sizes: tuple, cancel: CancelFlag = None) -> OrbitIndicator:
        """The dense solved indicator of block ``bi`` (as :meth:`_dense_indicator` computes
        it from the orbits) from the recorded answers: for every world without one player of
        the block (mixed-radix lexicographic index of its sorted blocks), the number of that
        player's stacks that satisfy every answer, read from the aggregates. Built in pieces
        of about ``_SYM_PIECE`` entries along the first block's tuples (six players, blocks
        of 5 and 1: 25.5 M entries, whose joint indices are never all held at once).

        Raises:
            Cancelled: ``cancel`` returned True (checked every piece)."""
        qs = self._sym
        check_cancel(cancel)
        bounds, strides, grid, ok = self._sym_grid()
        N = np.zeros(grid.shape[1], dtype=np.int32)
        for flat, m in self._sym_moves(self.blocks[bi][0], grid, strides):
            N += m * ok[flat]
        N = np.minimum(N, 2).astype(np.uint8)
        jdt = np.int32 if grid.shape[1] < (1 << 31) else np.int64
        live = [(b, size) for b, size in zip(self.blocks, sizes) if size]
        per_q = []                       # (question, outer aggregates, inner aggregates, stride)
        for i, (q, _a, sn) in enumerate(qs):
            check_cancel(cancel)
            dt = np.int16 if q.bound < (1 << 15) else np.int64

            def blk_agg(b, size, q=q, sn=sn, dt=dt):
                if not sn[b[0]]:
                    return np.full(math.comb(self.S + size - 1, size), q.identity, dtype=dt)
                return _tuple_aggregates(q, self.S, size, dt)
            inner = np.full(1, q.identity, dtype=dt)
            for b, size in live[1:]:
                inner = q.ufunc.outer(inner, blk_agg(b, size)).ravel()
            per_q.append((q, blk_agg(*live[0]), inner, jdt(strides[i])))
        R0, Rr = per_q[0][1].size, per_q[0][2].size
        cnt = np.empty(R0 * Rr, dtype=np.uint8)
        step = max(1, _SYM_PIECE // Rr)
        for s0 in range(0, R0, step):
            check_cancel(cancel)
            J = None
            for q, outer, inner, st in per_q:
                part = q.ufunc.outer(outer[s0:s0 + step], inner).ravel().astype(jdt)
                part *= st
                J = part if J is None else np.add(J, part, out=J)
            cnt[s0 * Rr:s0 * Rr + J.size] = N[J]
        return OrbitIndicator(None, None, dense=cnt, sizes=sizes, bits=self.bits, S=self.S)

    def _sym_row(self, axis: int, world: Sequence[int]) -> np.ndarray:
        """:meth:`row` from the recorded answers."""
        ok = np.ones(self.S, dtype=bool)
        for q, a, sn in self._sym:
            part = q.combine_all([int(world[j]) for j in range(self.n) if j != axis and sn[j]])
            tot = q.ufunc(np.int64(part), q.feature) if sn[axis] else np.full(self.S, part)
            ok &= q.final(tot) == a
        return ok

    def _materialize(self, cancel: CancelFlag = None) -> None:
        """List the orbits of the recorded answers (all of them at once: the fast full-table
        filter, or a filter of every orbit of the full table when that does not apply)."""
        sym, inds, count, kept = self._sym, self._inds, self._count, self._kept
        check_cancel(cancel)
        self._sym = None
        try:
            self._list_answers(sym, cancel)
        except BaseException:            # Cancelled: still the answers, nothing half-listed
            self._sym, self._keys, self.full = sym, np.zeros(0, dtype=np.int64), False
            self._inds, self._count, self._kept = inds, count, kept
            raise
        self._inds, self._count, self._kept = inds, count, kept

    def _list_answers(self, sym, cancel: CancelFlag) -> None:
        """:meth:`_materialize`'s listing of the orbits of the answers ``sym``."""
        fast = self._full_answer_chunks(sym, cancel)
        if fast is None:
            def rows_iter():
                for rows in self._full_chunks(self.blocks):
                    check_cancel(cancel)
                    ok = np.ones(rows.shape[0], dtype=bool)
                    for q, a, sn in sym:
                        acc = np.full(rows.shape[0], q.identity, dtype=np.int64)
                        for j, ax in enumerate(self.layout):
                            if sn[ax]:
                                acc = q.ufunc(acc, q.feature[rows[:, j]])
                        ok &= q.final(acc) == a
                    yield rows[ok]
            self._set_rows(rows_iter(), in_order=True, keep_marks=True, cancel=cancel)
        else:
            self._set_keys(fast, in_order=True, keep_marks=True, cancel=cancel)

    # ------------------------------------------------------------------ layout
    @staticmethod
    def _norm(blocks) -> tuple:
        bl = [tuple(sorted(int(a) for a in b)) for b in blocks if len(b)]
        return tuple(sorted(bl))

    @property
    def layout(self) -> list[int]:
        """The axis held by each column of an orbit row (blocks concatenated)."""
        return [a for b in self.blocks for a in b]

    def _block_cols(self, blocks=None) -> list[tuple[int, int]]:
        out, c = [], 0
        for b in (blocks or self.blocks):
            out.append((c, c + len(b)))
            c += len(b)
        return out

    def _block_of(self, axis: int) -> int:
        for i, b in enumerate(self.blocks):
            if axis in b:
                return i
        raise ValueError(f"no axis {axis}")

    def pack(self, rows: np.ndarray) -> np.ndarray:
        """int64 keys of orbit rows (N, m) (the first column most significant)."""
        rows = np.asarray(rows, dtype=np.int64)
        key = np.zeros(rows.shape[0], dtype=np.int64)
        for j in range(rows.shape[1]):
            key <<= self.bits
            key |= rows[:, j]
        return key

    def unpack(self, keys: np.ndarray, m: int | None = None) -> np.ndarray:
        """int64 (N, m) rows of keys (m defaults to n; column-major, see :func:`_unpack`)."""
        return _unpack(keys, self.n if m is None else m, self.bits)

    def _canon(self, world: Sequence[int]) -> np.ndarray:
        """Orbit row (one sorted tuple per block) of worlds (N, n) given in axis order."""
        w = np.asarray(world, dtype=np.int16)
        if self.free:                    # a free coordinate is stored as 0
            w = w.copy()
            w[:, sorted(self.free)] = 0
        cols = [np.sort(w[:, list(b)], axis=1) for b in self.blocks]
        return np.hstack(cols)

    def _rows_chunks(self, chunk: int | None = None, cancel: CancelFlag = None):
        """The table's orbit rows, in chunks of ``chunk`` (default ``_CHUNK``) (int64 (N, n), or
        int16 for the full table);
        a table kept as its answers lists its orbits first (:meth:`_materialize`).

        Raises:
            Cancelled: ``cancel`` returned True (checked before every chunk)."""
        if self.full:
            for rows in self._full_chunks(self.blocks):
                check_cancel(cancel)
                yield rows
            return
        self._listed(cancel)
        chunk = chunk or _CHUNK
        keys = self._keys
        for s in range(0, keys.size, chunk):
            check_cancel(cancel)
            yield self.unpack(keys[s:s + chunk])

    def _listed(self, cancel: CancelFlag = None) -> None:
        """List the orbits of a table kept as its answers (:meth:`_materialize`, honouring
        ``cancel``), so that no loop lists them through :attr:`keys` without it."""
        if self._sym is not None:
            self._materialize(cancel)

    def _key_chunks(self, chunk: int | None = None, cancel: CancelFlag = None):
        """The stored keys and their orbit rows, in chunks of ``chunk`` (default
        ``_IND_CHUNK``): (int64 (N,), int64 (N, n)) pairs; the table must not be :attr:`full`.
        A filter keeps ``keys[ok]`` instead of packing ``rows[ok]`` again.

        Raises:
            Cancelled: ``cancel`` returned True (checked before every chunk)."""
        chunk = chunk or _IND_CHUNK
        self._listed(cancel)
        keys = self._keys
        for s in range(0, keys.size, chunk):
            check_cancel(cancel)
            part = keys[s:s + chunk]
            yield part, self.unpack(part)

    def _full_chunks(self, blocks):
        """Every orbit of the full table for ``blocks``, in chunks (int16 (N, n)), in the
        order of their keys (so that a filter of them needs no sort)."""
        S = self.S
        rest_sizes = [math.prod(math.comb(S + len(b) - 1, len(b)) for b in blocks[i + 1:])
                      for i in range(len(blocks))]

        def rec(i):
            if i == len(blocks):
                yield np.zeros((1, 0), dtype=np.int16)
                return
            # several head rows per chunk only when the tail comes in one chunk (key order)
            whole_tail = rest_sizes[i] <= 4 * _GEN_LIMIT
            for head in _lex_multisets(S, 0, len(blocks[i])):
                step = max(1, 4 * _GEN_LIMIT // max(1, rest_sizes[i])) if whole_tail else 1
                for s in range(0, head.shape[0], step):
                    h = head[s:s + step]
                    for tail in rec(i + 1):
                        yield np.hstack([np.repeat(h, tail.shape[0], axis=0),
                                         np.tile(tail, (h.shape[0], 1))])
        yield from rec(0)

    # ------------------------------------------------------------------ basics
    def copy(self) -> OrbitTable:
        t = OrbitTable.__new__(OrbitTable)
        t.n, t.S, t.bits, t.blocks, t.full = self.n, self.S, self.bits, self.blocks, self.full
        t._sym = None if self._sym is None else list(self._sym)
        t._keys = self._keys.copy()
        t._kept = []
        t._inds = dict(self._inds)      # read-only indicators of the same orbits
        t._count = self._count
        t.free = self.free
        return t

    @property
    def nbytes(self) -> int:
        return 0 if self._sym is not None else int(self._keys.nbytes)

    @property
    def orbits(self) -> int:
        """Number of orbits stored (int; of the full table when :attr:`full`)."""
        if self.full:
            return math.prod(math.comb(self.S + len(b) - 1, len(b)) for b in self.blocks)
        return int(self.keys.size)

    def count(self, cancel: CancelFlag = None) -> int:
        """Number of worlds (int): the sum over orbits of their sizes (multinomials), times S
        for each free axis (cached; usually counted by the indicators' pass).

        Raises:
            Cancelled: ``cancel`` returned True (checked every chunk)."""
        if self.full:
            return self.S ** self.n
        if self._count is None:
            if self._sym is not None:
                self._count = self._sym_count()
            else:
                self._count = sum(int(self._orbit_sizes(rows).sum())
                                  for rows in self._rows_chunks(_IND_CHUNK, cancel))
        return self._count * self.S ** len(self.free)

    def _orbit_sizes(self, rows: np.ndarray) -> np.ndarray:
        """int64 (N,): worlds per orbit row, the product over blocks of the multinomial
        b! / prod(multiplicities!) (rows sorted within blocks): the product of the running
        run lengths along a block is prod(multiplicities!)."""
        size = np.ones(rows.shape[0], dtype=np.int64)
        for (c0, c1) in self._block_cols():
            b = c1 - c0
            if b < 2:
                continue
            run = np.ones(rows.shape[0], dtype=np.int16)
            denom = np.ones(rows.shape[0], dtype=np.int32)
            same = np.empty(rows.shape[0], dtype=bool)
            for j in range(c0 + 1, c1):
                np.equal(rows[:, j], rows[:, j - 1], out=same)
                np.multiply(run, same, out=run)
                run += 1
                denom *= run
            size *= math.factorial(b) // denom
        return size

    def _set_rows(self, rows_iter, in_order: bool = False, keep_marks: bool = False,
                  cancel: CancelFlag = None) -> None:
        """Replace the table by the orbits of ``rows_iter``; ``in_order``: they come in key
        order without repeats (a filter of the table's own orbits), so no sort is needed."""
        self._set_keys((self.pack(r) for r in rows_iter), in_order, keep_marks, cancel)

    def _set_keys(self, keys_iter, in_order: bool = False, keep_marks: bool = False,
                  cancel: CancelFlag = None) -> None:
        """:meth:`_set_rows` from chunks of packed keys. The chunks are copied into one
        array ``_CHUNK`` keys at a time (its first touch is the slow part on a fresh
        allocation), checking ``cancel`` in between.

        Raises:
            Cancelled: ``cancel`` returned True (the caller's table may be half-changed:
                discard it, as the timeline does)."""
        parts = list(keys_iter)
        keys = np.empty(sum(p.size for p in parts), dtype=np.int64)
        pos = 0
        for p in parts:
            for s0 in range(0, p.size, _CHUNK):
                check_cancel(cancel)
                piece = p[s0:s0 + _CHUNK]
                keys[pos:pos + piece.size] = piece
                pos += piece.size
        del parts
        if not in_order:
            # sorted, repeats dropped (what np.unique gives; numpy 2's np.unique hashes: 16 s
            # instead of 1 s for the 11.4 M keys of a six-player answer after a solve)
            keys.sort()
            check_cancel(cancel)
            if keys.size > 1:
                keys = keys[np.concatenate(([True], keys[1:] != keys[:-1]))]
        self.keys = keys
        self.full = False
        self._count = None
        if not keep_marks:   # the reaction filters applied since the last other change
            self._kept = []
        self._inds = {}

    def _keep_keys(self, pieces, keep_marks: bool = False, cancel: CancelFlag = None) -> None:
        """Replace the table by a filter of its own stored keys: ``pieces`` yields, in key
        order, the kept keys of consecutive chunks (new arrays, each at most its chunk; they
        may be changed without changing the order, as a solve's freed column set to 0). They
        are written over the stored keys in place: the k-th piece never passes its own chunk,
        so nothing is overwritten before it is read, and no second array of the table's size
        is allocated (its first touch is most of a pass's system time on a fresh allocation).
        A generator that raises (Cancelled) leaves the stored keys half-overwritten: discard
        the table (the timeline does). A table kept as its answers is listed first (with
        ``cancel``)."""
        self._listed(cancel)
        keys = self._keys
        if not keys.flags.writeable:
            keys = keys.copy()
        pos = 0
        for piece in pieces:
            keys[pos:pos + piece.size] = piece
            pos += piece.size
        # a table that shrank to under half gives its memory back (a copy of the rest)
        self._keys = keys[:pos] if 2 * pos >= keys.size else keys[:pos].copy()
        self.full = False
        self._count = None
        if not keep_marks:
            self._kept = []
        self._inds = {}

    # ------------------------------------------------------------------ refinement
    def split(self, group: Sequence[int], cancel: CancelFlag = None) -> bool:
        """Refine the blocks so that ``group`` (axes) is a union of blocks. Returns whether
        anything changed. Each orbit becomes the orbits of the finer partition it holds.

        Raises:
            Cancelled: ``cancel`` returned True (checked every chunk of orbits)."""
        g = {int(a) for a in group}
        new = []
        for b in self.blocks:
            inside = tuple(a for a in b if a in g)
            outside = tuple(a for a in b if a not in g)
            new.extend([x for x in (inside, outside) if x])
        new = self._norm(new)
        if new == self.blocks:
            return False
        old_blocks, old_cols = self.blocks, self._block_cols()
        self.blocks = new
        self._inds = {}
        if self.full or self._sym is not None:   # the same worlds, as their new orbits
            self._kept = []
            return True
        # per old block: every way to hand its sorted stacks to its axes that is canonical for
        # the new blocks (the positions given to each new part increasing)
        per_block = []
        for b in old_blocks:
            parts = [nb for nb in new if set(nb) <= set(b)]
            per_block.append(_assignments(b, parts))

        def rows_iter():
            for rows in self._rows_chunks(_CHUNK // 8, cancel):
                for combo in itertools.product(*per_block):
                    world = np.empty_like(rows)
                    for b, (c0, _c1), assign in zip(old_blocks, old_cols, combo):
                        for a, pos in zip(b, assign):
                            world[:, a] = rows[:, c0 + pos]
                    yield self._canon(world)
        self._set_rows(rows_iter(), cancel=cancel)
        return True

    def split_orbits(self, group: Sequence[int], cancel: CancelFlag = None) -> int:
        """Orbits :meth:`split` (``group``) would store (int; 0 when the table is full or kept
        as answers, which a split leaves unlisted), exactly, without building them: per
        stored orbit, the product over the blocks it cuts of the number of distinct
        sub-multisets of the cut size (the distinct sorted choices of that many columns;
        chunked, at most C(6, 3) = 20 choices per block).

        Raises:
            Cancelled: ``cancel`` returned True (checked every chunk)."""
        if self.full or self._sym is not None:
            return 0
        g = {int(a) for a in group}
        cuts = []
        for (c0, c1), b in zip(self._block_cols(), self.blocks):
            k = sum(a in g for a in b)
            if 0 < k < len(b):
                cuts.append((c0, c1, k))
        if not cuts:
            return int(self.keys.size)
        total = 0
        for rows in self._rows_chunks(_IND_CHUNK, cancel):
            per = np.ones(rows.shape[0], dtype=np.int64)
            for c0, c1, k in cuts:
                choices = list(itertools.combinations(range(c0, c1), k))
                sub = np.stack([self.pack(rows[:, list(c)]) for c in choices], axis=1)
                sub.sort(axis=1)
                per *= 1 + (sub[:, 1:] != sub[:, :-1]).sum(axis=1)
            total += int(per.sum())
        return total

    # ------------------------------------------------------------------ eq. (2) / (6)
    def filter_answer(self, q: Question, answer: int, seen: Sequence[bool],
                      cancel: CancelFlag = None) -> None:
        """Keep the orbits where the moderator gives ``answer`` (eq. (2); eq. (6) with an
        unseen player). Splits the unseen players off first. On a table cut by answers only
        the answer is recorded, not applied to listed orbits (see :meth:`_sym_indicator`)."""
        unseen = [a for a in range(self.n) if not seen[a]]
        if unseen:
            self.split(unseen, cancel)
        released = sorted(a for a in self.free if seen[a])
        if released:
            self._filter_answer_released(q, answer, seen, released, cancel)
            return
        seen_cols = [j for j, a in enumerate(self.layout) if seen[a]]
        if self.full or self._sym is not None:
            sym = (self._sym or []) + [(q, int(answer), tuple(bool(x) for x in seen))]
            self.full = False
            self._sym, self._keys = sym, np.zeros(0, dtype=np.int64)
            self._count, self._inds, self._kept = None, {}, []
            if math.prod(qq.bound for qq, _a, _s in sym) > _SYM_LIMIT:
                self._materialize(cancel)
            return

        def keys_iter():                 # the stored keys filtered: nothing packed again
            for part, rows in self._key_chunks(cancel=cancel):
                acc = np.full(rows.shape[0], q.identity, dtype=np.int64)
                for j in seen_cols:
                    acc = q.ufunc(acc, q.feature[rows[:, j]])
                yield part[q.final(acc) == answer]
        self._keep_keys(keys_iter(), cancel=cancel)

    def _released_pass(self, q: Question, answer: int, seen: Sequence[bool], released,
                       cancel: CancelFlag = None, chunk: int | None = None):
        """Per-chunk aggregates of the seen stored columns and the pass table of the
        ``released`` free axes: yields (rows, acc) with acc the aggregate over the seen
        columns that are not released, ``chunk`` orbits at a time (default ``_IND_CHUNK``).

        Raises:
            Cancelled: ``cancel`` returned True (checked every chunk)."""
        lay = self.layout
        cols = [j for j, a in enumerate(lay) if seen[a] and a not in released]
        for rows in self._rows_chunks(chunk or _IND_CHUNK):
            check_cancel(cancel)
            acc = np.full(rows.shape[0], q.identity, dtype=np.int64)
            for j in cols:
                acc = q.ufunc(acc, q.feature[rows[:, j]])
            yield rows, acc

    def answer_orbits(self, q: Question, answer: int, seen: Sequence[bool],
                      cancel: CancelFlag = None) -> int:
        """Orbits :meth:`filter_answer` would store (int), exactly, without building them:
        the stored orbits when no free axis is seen (a filter keeps at most those), else the
        number of (orbit, stacks of the seen free axes) that give ``answer``, from the
        histogram of the other seen players' aggregate (one pass over the stored orbits).

        Raises:
            Cancelled: ``cancel`` returned True (checked every chunk)."""
        released = sorted(a for a in self.free if seen[a])
        if not released:
            return 0 if (self.full or self._sym is not None) else int(self.keys.size)
        hist = np.zeros(q.bound, dtype=np.int64)
        for _rows, acc in self._released_pass(q, answer, seen, released, cancel):
            hist += np.bincount(acc, minlength=q.bound)
        for _a in released:               # one more stack combined, each of the S possible
            new = np.zeros(q.bound, dtype=np.int64)
            tot = q.ufunc(np.arange(q.bound, dtype=np.int64)[:, None], q.feature[None, :]).ravel()
            w = np.repeat(hist, self.S)
            inside = tot < q.bound        # beyond the bound only aggregates no table reaches
            np.add.at(new, tot[inside], w[inside])
            hist = new
        return int(hist[q.final(np.arange(q.bound, dtype=np.int64)) == answer].sum())

    def _filter_answer_released(self, q: Question, answer: int, seen: Sequence[bool],
                                released: Sequence[int], cancel: CancelFlag) -> None:
        """:meth:`filter_answer` when the answer concerns free axes: each stored orbit is
        combined with every stack of those axes (they are blocks of one, so the rows stay
        canonical) and kept where the answer is given; those axes are no longer free."""
        lay = self.layout
        rcols = [lay.index(a) for a in released]
        if len(rcols) == 1:
            # the stacks of the one released axis that give the answer, per stored aggregate
            # (a (bound, S) table), and the new keys straight from the stored ones: the
            # released column holds 0 there
            tot = q.ufunc(np.arange(q.bound, dtype=np.int64)[:, None], q.feature[None, :])
            ok = q.final(tot) == answer
            shift = self.bits * (self.n - 1 - rcols[0])
            keys = self.keys

            def keys_iter():
                s0 = 0
                # small chunks: the (chunk, S) pass mask and its survivors stay a few MB
                for rows, acc in self._released_pass(q, answer, seen, released, cancel,
                                                     _IND_CHUNK // 4):
                    ri, v = np.nonzero(ok[acc])
                    yield keys[s0 + ri] | (v.astype(np.int64) << shift)
                    s0 += rows.shape[0]
            self.free = self.free - set(released)
            # the released column the last one (shift 0): the stored keys are sorted and
            # distinct, and each is followed by its stacks in increasing order, so the new
            # keys come sorted
            self._set_keys(keys_iter(), in_order=shift == 0, cancel=cancel)
            return
        step = max(1, _CHUNK // self.S ** len(released))

        def rows_iter():
            for rows, acc in self._released_pass(q, answer, seen, released, cancel):
                for s0 in range(0, rows.shape[0], step):
                    r, a = rows[s0:s0 + step], acc[s0:s0 + step]
                    for c in rcols:
                        r = np.repeat(r, self.S, axis=0)
                        r[:, c] = np.tile(np.arange(self.S, dtype=np.int16), r.shape[0] // self.S)
                        a = q.ufunc(np.repeat(a, self.S), q.feature[r[:, c]])
                    yield r[q.final(a) == answer]
        self.free = self.free - set(released)
        self._set_rows(rows_iter(), cancel=cancel)

    def _full_answer_chunks(self, sym: Sequence[tuple], cancel: CancelFlag):
        """The keys of the orbits of the full table that give every answer of ``sym``
        (``(question, answer, seen)`` triples), in key order, without generating the others:
        the aggregate of a block's sorted tuples is combined from the per-stack numbers (Zorn
        2024, eq. (2), on orbits), for each first stack ``a`` of the first block at once over
        every tail (the rest of the first block, tuples >= a, times every orbit of the other
        blocks). A generator of key chunks, or None when the other blocks' orbits are too many
        to hold their aggregates (then every orbit is generated and filtered)."""
        S, blocks, bits = self.S, self.blocks, self.bits
        rest = blocks[1:]
        radix = _radix(S, [len(b) for b in rest])
        R = math.prod(radix)
        if R > _OUTER_LIMIT:
            return None
        b1 = len(blocks[0])
        tail = multisets(S, b1 - 1)
        if math.prod(q.bound for q, _a, _s in sym) * R <= _JOINT_LIMIT:
            return self._joint_answer_chunks(sym, tail, cancel)
        per_q = []
        for q, answer, seen in sym:
            dt = np.int16 if q.bound < (1 << 15) else np.int64
            feat = q.feature.astype(dt)
            ident = dt(q.identity)

            def agg_of(rows, is_seen, ident=ident, dt=dt, q=q):
                # every sorted tuple of rows.shape[1] stacks (rows is multisets(S, b))
                if is_seen:
                    return _tuple_aggregates(q, S, rows.shape[1], dt)
                return np.full(rows.shape[0], ident, dtype=dt)

            rest_agg = np.full(1, ident, dtype=dt)
            for b in rest:
                rest_agg = q.ufunc.outer(rest_agg, agg_of(multisets(S, len(b)), seen[b[0]])).ravel()
            ok_val = q.final(np.arange(q.bound, dtype=np.int64)) == answer
            per_q.append((q, feat, ok_val, rest_agg, agg_of(tail, seen[blocks[0][0]]),
                          seen[blocks[0][0]]))
        rest_key = np.zeros(1, dtype=np.int64)
        for b in rest:
            rest_key = ((rest_key[:, None] << (bits * len(b)))
                        | _lex_keys(S, len(b), bits)[None, :]).ravel()
        rest_cols = sum(len(b) for b in rest)
        tail_key = _lex_keys(S, b1 - 1, bits) << (bits * rest_cols)
        starts = (np.searchsorted(tail[:, 0], np.arange(S, dtype=tail.dtype)) if b1 > 1
                  else np.zeros(S, dtype=np.int64))
        step = max(1, _STEP_LIMIT // R)

        def gen():
            for a in range(S):
                check_cancel(cancel)
                start = int(starts[a])
                head = np.int64(a) << (bits * (self.n - 1))
                t_aggs = [q.ufunc(feat[a], tail_agg[start:]) if seen1 else tail_agg[start:]
                          for q, feat, _ok, _ra, tail_agg, seen1 in per_q]
                for s0 in range(0, t_aggs[0].shape[0], step):
                    check_cancel(cancel)
                    ok = None
                    for (q, _f, ok_val, rest_agg, _ta, _s1), t_agg in zip(per_q, t_aggs):
                        part = t_agg[s0:s0 + step]
                        tot = part if R == 1 else q.ufunc.outer(part, rest_agg).ravel()
                        ok = ok_val[tot] if ok is None else ok & ok_val[tot]
                    idx = np.flatnonzero(ok)
                    if idx.size == 0:
                        continue
                    if R == 1:
                        yield head | tail_key[start + s0 + idx]
                        continue
                    it, ir = np.divmod(idx, R)
                    yield head | tail_key[start + s0 + it] | rest_key[ir]
        return gen()

    def _joint_answer_chunks(self, sym: Sequence[tuple], tail: np.ndarray, cancel: CancelFlag):
        """:meth:`_full_answer_chunks` through joint indices: the aggregates of all answers
        of a set of stacks are one joint index (mixed radix over the questions' bounds). A
        table ``okr`` (joint index of the first block, orbit of the other blocks) says whether
        every answer holds; each first stack ``a`` then costs one gather of a table over the
        joint indices (the tails' aggregates with ``a`` added) and one of ``okr``."""
        S, bits, blocks = self.S, self.bits, self.blocks
        _bounds, strides, grid, okJ = self._sym_grid(sym)
        G = grid.shape[1]
        rest = blocks[1:]

        def agg(q, rows, is_seen):
            # every sorted tuple of rows.shape[1] stacks (rows is multisets(S, b))
            dt = np.int16 if q.bound < (1 << 15) else np.int64
            if is_seen:
                return _tuple_aggregates(q, S, rows.shape[1], dt)
            return np.full(rows.shape[0], q.identity, dtype=dt)

        jt = np.zeros(tail.shape[0], dtype=np.int64)
        okr = None
        rest_key = np.zeros(1, dtype=np.int64)
        for b in rest:
            rest_key = ((rest_key[:, None] << (bits * len(b)))
                        | _lex_keys(S, len(b), bits)[None, :]).ravel()
        comb = [None] * len(sym)
        for i, ((q, _a, seen), st) in enumerate(zip(sym, strides)):
            check_cancel(cancel)
            jt += agg(q, tail, seen[blocks[0][0]]).astype(np.int64) * st
            ra = np.full(1, q.identity, dtype=np.int64)
            for b in rest:
                ra = q.ufunc.outer(ra, agg(q, multisets(S, len(b)), seen[b[0]]).astype(np.int64)).ravel()
            # the joint index's part of question i with the other blocks added: (G, R)
            comb[i] = np.minimum(q.ufunc.outer(grid[i], ra), q.bound - 1) * st
        total = comb[0]
        for c in comb[1:]:
            total = total + c
        okr = okJ[total]                  # (G, R); past a bound: aggregates no world reaches
        del total, comb
        R = okr.shape[1]
        jt = jt.astype(np.int32) if G < (1 << 31) else jt
        rest_cols = sum(len(b) for b in rest)
        tail_key = _lex_keys(S, tail.shape[1], bits) << (bits * rest_cols)
        starts = (np.searchsorted(tail[:, 0], np.arange(S, dtype=tail.dtype)) if tail.shape[1]
                  else np.zeros(S, dtype=np.int64))
        step = max(1, _STEP_LIMIT // R)
        seen0 = [sn[blocks[0][0]] for _q, _a, sn in sym]

        def gen():
            for a in range(S):
                check_cancel(cancel)
                start = int(starts[a])
                head = np.int64(a) << (bits * (self.n - 1))
                flat = np.zeros(G, dtype=np.int64)
                for i, ((q, _a, _s), st) in enumerate(zip(sym, strides)):
                    x = np.minimum(q.ufunc(grid[i], q.feature[a]), q.bound - 1) if seen0[i] else grid[i]
                    flat += x * st
                for s0 in range(start, tail.shape[0], step):
                    check_cancel(cancel)
                    ja = flat[jt[s0:s0 + step]]
                    idx = np.flatnonzero(okr[ja].ravel() if R > 1 else okr[ja, 0])
                    if idx.size == 0:
                        continue
                    if R == 1:
                        yield head | tail_key[s0 + idx]
                        continue
                    it, ir = np.divmod(idx, R)
                    yield head | tail_key[s0 + it] | rest_key[ir]
        return gen()

    # ------------------------------------------------------------------ eqs. (3)-(4)
    def _deletion_keys(self, rows: np.ndarray, col: int) -> np.ndarray:
        """Keys of the rows with column ``col`` deleted (n-1 stacks)."""
        keep = [j for j in range(self.n) if j != col]
        return self.pack(rows[:, keep])

    def solved_indicator(self, axis: int, cancel: CancelFlag = None,
                         with_support: bool = False):
        """The :class:`OrbitIndicator` of the player on ``axis`` (their number of valids per
        world without them); with ``with_support`` also the sorted keys where they have a
        valid stack (the support, as an :class:`OrbitIndicator` of the keys)."""
        if self.full:
            ind = OrbitIndicator(None, None, self.S)
            return (ind, ind) if with_support else ind
        bi = self._block_of(axis)
        cached = self._inds.get(self.blocks[bi])
        if cached is not None:          # the same for every player of the block (symmetry)
            return (cached, cached) if with_support else cached
        dsz = self._deletion_sizes(bi)
        if math.prod(_radix(self.S, dsz)) <= _DENSE_LIMIT:
            ind = (self._sym_indicator(bi, dsz, cancel) if self._sym is not None
                   else self._dense_indicator(bi, dsz, cancel))
            if axis in self.free:        # one stored orbit per key stands for S stacks
                np.minimum(ind.dense.astype(np.int64) * self.S, 2, out=ind.dense, casting="unsafe")
            self._inds[self.blocks[bi]] = ind
            return (ind, ind) if with_support else ind
        c0, c1 = self._block_cols()[bi]
        # counted chunk by chunk and merged: the distinct keys are at most the orbits of the
        # smaller block structure (6 players: C(60, 5) = 5.5 M), far fewer than the deletion
        # keys of all orbits (up to 6 per orbit: 70 M for 11.7 M orbits)
        keys = np.zeros(0, dtype=np.int64)
        counts = np.zeros(0, dtype=np.int64)
        for rows in self._rows_chunks(cancel=cancel):
            parts = []
            for j in range(c0, c1):
                last = np.ones(rows.shape[0], dtype=bool) if j == c1 - 1 else rows[:, j] != rows[:, j + 1]
                parts.append(self._deletion_keys(rows[last], j))
            ck, cc = np.unique(np.concatenate(parts), return_counts=True)
            if keys.size == 0:
                keys, counts = ck, cc.astype(np.int64)
                continue
            u, inv = np.unique(np.concatenate([keys, ck]), return_inverse=True)
            counts = np.bincount(inv, weights=np.concatenate([counts, cc]).astype(np.float64),
                                 minlength=u.size).astype(np.int64)
            keys = u
        if axis in self.free:
            counts = counts * self.S
        ind = OrbitIndicator(keys, counts)
        self._inds[self.blocks[bi]] = ind
        return (ind, ind) if with_support else ind

    def _deletion_sizes(self, bi: int) -> tuple:
        """Block sizes of a world without one player of block ``bi``."""
        return tuple(len(b) - (k == bi) for k, b in enumerate(self.blocks))

    def _deletion_ranks(self, rows: np.ndarray, bi: int, sizes: Sequence[int]):
        """For each column j of block ``bi``: (dense ranks (:func:`_dense_ranks`, key order)
        of the rows with column j deleted, bool mask of the rows where j is the last column of
        its run of equal stacks — one deletion per distinct stack). Computed from per-column
        terms of the combinatorial number system on the mirrored rows (a stack x at mirrored
        position k adds C(S-1-x+k-1, k); the columns before j move one position down in the
        mirror) without building the deleted rows; ranks of neighbouring orbits are close, so
        the count array is read and written nearly in sequence."""
        MT = _colex32(self.n, self.S)[:, ::-1]   # MT[k, x] = C(S-1-x+k-1, k); ranks < 2^31
        cols = self._block_cols()
        radix = _radix(self.S, sizes)
        st = _strides(radix)
        top = math.prod(radix) - 1
        N = rows.shape[0]
        base = np.full(N, top, dtype=np.int32)   # top minus the other blocks' part of the rank
        for k, (c0, c1) in enumerate(cols):
            if k == bi or c1 == c0:
                continue
            bk = c1 - c0
            r = MT[bk][rows[:, c0]]
            for p in range(1, bk):
                r += MT[bk - p][rows[:, c0 + p]]
            if st[k] != 1:
                r *= st[k]
            base -= r
        c0, c1 = cols[bi]
        b = c1 - c0
        suf = [None] * b             # suf[j]: the columns after j, at their mirrored positions
        acc = np.zeros(N, dtype=np.int32)
        for p in range(b - 1, -1, -1):
            suf[p] = acc
            acc = acc + MT[b - p][rows[:, c0 + p]]
        pre = np.zeros(N, dtype=np.int32)   # the columns before j, one mirrored position down
        for j in range(b):
            r = pre + suf[j]
            if st[bi] != 1:
                r *= st[bi]
            np.subtract(base, r, out=r)
            last = (np.ones(N, dtype=bool) if j == b - 1
                    else rows[:, c0 + j] != rows[:, c0 + j + 1])
            yield r, last
            if j < b - 1:
                pre += MT[b - 1 - j][rows[:, c0 + j]]

    def _dense_indicator(self, bi: int, sizes: tuple, cancel: CancelFlag) -> OrbitIndicator:
        """The solved indicator of block ``bi`` as a dense count array (see
        :class:`OrbitIndicator`), from the deletion ranks of the orbits, ``_IND_CHUNK`` orbits
        at a time, without a temporary the size of the index space (six players, blocks of 5
        and 1: 25.5 M entries, a fresh 204 MB array per chunk before). The keys are sorted and
        the rank order is the key order of the deleted rows (:meth:`_deletion_ranks`), so

        * the column-0 deletions of the orbits sharing column 0 are distinct and increasing:
          one fancy-indexed increment per run of equal column 0 (no repeats within it);
        * a deletion of a later column keeps the columns before it, which change slowly along
          the sorted keys: the ranks of a chunk lie in a window, counted by one ``bincount``
          of the window (a few MB) added into the count array.

        A count is the number of distinct deleted stacks giving that key, at most S (uint8 for
        S <= 255), capped at 2 at the end.

        Raises:
            Cancelled: ``cancel`` returned True (checked every chunk)."""
        total = math.prod(_radix(self.S, sizes))
        cnt = np.zeros(total, dtype=np.uint8 if self.S <= 255 else np.uint16)
        worlds = 0 if (self._count is None and not self.full) else None
        first = self._block_cols()[bi][0] == 0
        for rows in self._rows_chunks(_IND_CHUNK):
            check_cancel(cancel)
            if worlds is not None:       # the same pass counts the worlds (:meth:`count`)
                worlds += int(self._orbit_sizes(rows).sum())
            col = rows[:, 0]
            cut = np.flatnonzero(col[1:] != col[:-1]) + 1
            runs = list(zip(np.r_[0, cut], np.r_[cut, rows.shape[0]]))   # equal column 0
            later = []
            for j, (r, last) in enumerate(self._deletion_ranks(rows, bi, sizes)):
                if j == 0 and first:
                    for s0, s1 in runs:
                        cnt[r[s0:s1][last[s0:s1]]] += 1
                else:
                    later.append((r, last))
            if not later:
                continue
            rr = np.concatenate([r[last] for r, last in later])
            if rr.size and int(rr.max()) - int(rr.min()) < _WINDOW:
                _add_window(cnt, rr)
                continue
            # a chunk across many values of column 0 (a sparse part of the table): one
            # window per run of equal column 0, which every later deletion keeps first
            for s0, s1 in runs:
                _add_window(cnt, np.concatenate([r[s0:s1][last[s0:s1]] for r, last in later]))
        np.minimum(cnt, 2, out=cnt)
        if worlds is not None:
            self._count = worlds
        return OrbitIndicator(None, None, dense=cnt.astype(np.uint8, copy=False), sizes=sizes,
                              bits=self.bits, S=self.S)

    def support(self, axis: int, cancel: CancelFlag = None) -> OrbitIndicator:
        """Keys (worlds without the player on ``axis``) where they have a valid stack."""
        return self.solved_indicator(axis, cancel, with_support=True)[1]

    @staticmethod
    def reaction_is_constant_on(solved_ind: OrbitIndicator, support: OrbitIndicator) -> bool:
        """Whether the player reacts alike in every world of the support (see BitTable)."""
        if support.dense is not None and support.dense is solved_ind.dense:
            # the support of a table is where its own count is positive (capped at 2):
            # constant iff not both some key with exactly one valid and some with more
            return not (bool((solved_ind.dense == 1).any()) and bool((solved_ind.dense == 2).any()))
        if support.dense is not None and solved_ind.dense is not None \
                and support.sizes == solved_ind.sizes:
            s = support.dense > 0
            one = solved_ind.dense == 1
            return not (bool((one & s).any()) and bool((~one & s).any()))
        if support.dense is not None and solved_ind.full_count is not None:
            return True
        if support.full_count is not None and solved_ind.dense is not None:
            one = solved_ind.dense == 1
            return bool(one.all() or not one.any())
        if support.dense is not None or solved_ind.dense is not None:
            # both come from tables with the same blocks and the same size rule: unreachable
            raise ValueError("a dense and a sparse indicator of different layouts")
        if support.full_count is not None:
            if solved_ind.full_count is not None:
                return True
            return False if solved_ind.keys.size == 0 else bool(
                np.all(solved_ind.counts == 1) or np.all(solved_ind.counts != 1))
        c = solved_ind.count_of(support.keys) == 1
        return bool(c.all() or not c.any())

    def keep_reaction(self, axis: int, solved_ind: OrbitIndicator, solved: bool,
                      cancel: CancelFlag = None) -> None:
        """Keep the orbits where every player of ``axis``'s block reacts as ``solved`` (the
        block must hold players who all reacted alike, with indicators from the same table).

        Raises:
            Cancelled: ``cancel`` returned True (checked every chunk of orbits)."""
        bi = self._block_of(axis)
        tag = (self.blocks[bi], bool(solved), solved_ind)
        if any(t[0] == tag[0] and t[1] == tag[1] and t[2] is solved_ind for t in self._kept):
            return                       # the same condition on the same block: idempotent
        if self.full and solved_ind.full_count is not None:
            if (solved_ind.full_count == 1) != bool(solved):
                self.full, self.keys, self._count = False, np.zeros(0, dtype=np.int64), None
            self._kept.append(tag)
            return
        c0, c1 = self._block_cols()[bi]
        dense = solved_ind.dense is not None and solved_ind.sizes == self._deletion_sizes(bi)

        # the keys of worlds without the player where they react as ``solved``
        good = ((solved_ind.dense == 1) == bool(solved)) if dense else None

        def ok_of(rows):
            ok = np.ones(rows.shape[0], dtype=bool)
            if dense:
                for r, _last in self._deletion_ranks(rows, bi, solved_ind.sizes):
                    ok &= good[r]
                return ok
            for j in range(c0, c1):
                ok &= (solved_ind.count_of(self._deletion_keys(rows, j)) == 1) == bool(solved)
            return ok

        if self.full:
            def rows_iter():
                for rows in self._rows_chunks(cancel=cancel):
                    yield rows[ok_of(rows)]
            self._set_rows(rows_iter(), in_order=True, keep_marks=True, cancel=cancel)
        else:                            # the stored keys filtered: nothing packed again
            self._keep_keys((part[ok_of(rows)] for part, rows in self._key_chunks(cancel=cancel)),
                            keep_marks=True, cancel=cancel)
        self._kept.append(tag)

    # ------------------------------------------------------------------ eq. (5)
    def solve_orbits(self, axis: int, stack: int, cancel: CancelFlag = None) -> int:
        """Orbits :meth:`reset_player` (``axis``, ``stack``) would store (int; 0 when the
        table is full and stays a flag), without changing the table's worlds: every stored
        orbit whose block of ``axis`` holds ``stack`` gives exactly one orbit with ``axis``
        split off and holding it (its freed coordinate is not stored: :meth:`reset_player`).
        One pass of shifts over the keys (chunked), nothing of that size built; a table still
        kept as its answers lists its orbits first (as :meth:`reset_player` would), honouring
        ``cancel``.

        Raises:
            Cancelled: ``cancel`` returned True."""
        if self.full:
            return 0
        if self._sym is not None:
            self._materialize(cancel)
        if axis in self.free:
            return int(self.keys.size)
        keys = self.keys
        c0, c1 = self._block_cols()[self._block_of(axis)]
        mask = (1 << self.bits) - 1
        kept = 0
        for s in range(0, keys.size, _CHUNK):
            check_cancel(cancel)
            part = keys[s:s + _CHUNK]
            hit = np.zeros(part.size, dtype=bool)
            for j in range(c0, c1):
                hit |= ((part >> (self.bits * (self.n - 1 - j))) & mask) == stack
            kept += int(hit.sum())
        return kept

    def reset_player(self, axis: int, stack: int, cancel: CancelFlag = None) -> None:
        """Eq. (5): keep the worlds where the player on ``axis`` held ``stack``, then make
        their coordinate free (their block is split off first). The free coordinate is not
        stored (:attr:`free`; its column holds 0): the table stays the size of the orbits
        kept, instead of S times it, until an answer concerns that player
        (:meth:`filter_answer`). A player already free stays free, the table unchanged.

        Raises:
            Cancelled: ``cancel`` returned True (checked every chunk; the table is then
                half-changed: discard it, as the timeline does)."""
        if axis in self.free:
            return
        if self.full:
            self.split([axis])
            return
        self._listed(cancel)             # before the blocks change
        bi = self._block_of(axis)
        if len(self.blocks[bi]) > 1:
            self._split_off_holding(axis, stack, cancel)
        shift = self.bits * (self.n - 1 - self.layout.index(axis))
        mask = np.int64((1 << self.bits) - 1) << shift

        def keys_iter():                 # the stored keys filtered, the column set to 0
            keys = self._keys
            for s0 in range(0, keys.size, _CHUNK):
                check_cancel(cancel)
                part = keys[s0:s0 + _CHUNK]
                k = part[(part & mask) == (np.int64(stack) << shift)]
                k &= ~mask               # every kept orbit had ``stack`` there: key order kept
                yield k
        self._keep_keys(keys_iter(), cancel=cancel)
        self.free = self.free | {axis}

    def _split_off_holding(self, axis: int, stack: int, cancel: CancelFlag = None) -> None:
        """Keep the orbits whose block of ``axis`` holds ``stack`` and split ``axis`` off as a
        block of one holding it: each such orbit gives exactly one orbit of the finer blocks
        (one copy of ``stack`` moved to ``axis``), so nothing larger than the result is built
        (a plain :meth:`split` first would list every finer orbit, up to b per orbit)."""
        old_blocks, old_cols = self.blocks, self._block_cols()
        bi = self._block_of(axis)
        c0, c1 = old_cols[bi]
        b = c1 - c0
        rest = [a for a in old_blocks[bi] if a != axis]
        self.blocks = self._norm([blk for k, blk in enumerate(old_blocks) if k != bi]
                                 + [rest, [axis]])

        def rows_iter():
            for rows in self._rows_chunks(_IND_CHUNK, cancel):
                hit = rows[:, c0:c1] == stack
                keep = hit.any(axis=1)
                rows, hit = rows[keep], hit[keep]
                if rows.shape[0] == 0:
                    continue
                p = hit.argmax(axis=1)[:, None]           # the first copy of ``stack``
                idx = np.arange(b - 1)[None, :]
                others = np.take_along_axis(rows[:, c0:c1], idx + (idx >= p), axis=1)
                world = np.empty_like(rows)
                for k, (d0, d1) in enumerate(old_cols):
                    if k != bi:
                        world[:, list(old_blocks[k])] = rows[:, d0:d1]
                world[:, rest] = others
                world[:, axis] = stack
                yield self._canon(world)
        self._set_rows(rows_iter(), cancel=cancel)

    # ------------------------------------------------------------------ projections
    def _worlds_over(self, axis: int, world: Sequence[int]) -> np.ndarray:
        w = np.tile(np.asarray([int(x) for x in world], dtype=np.int16), (self.S, 1))
        w[:, axis] = np.arange(self.S, dtype=np.int16)
        return w

    def row(self, axis: int, world: Sequence[int]) -> np.ndarray:
        """bool (S,): the valids of the player on ``axis`` when the others hold ``world``."""
        if self.full:
            return np.ones(self.S, dtype=bool)
        if self._sym is not None:
            return self._sym_row(axis, world)
        keys = self.pack(self._canon(self._worlds_over(axis, world)))
        if self.keys.size == 0:
            return np.zeros(self.S, dtype=bool)
        # the keys are sorted: binary search (np.isin would hash or sort all of them)
        pos = np.minimum(np.searchsorted(self.keys, keys), self.keys.size - 1)
        return self.keys[pos] == keys

    def row_count(self, axis: int, world: Sequence[int]) -> int:
        return int(self.row(axis, world).sum())

    def key_without(self, axis: int, worlds: np.ndarray) -> np.ndarray:
        """Keys of worlds (N, n) in axis order with ``axis`` deleted (indicator keys)."""
        rows = self._canon(worlds)
        lay = self.layout
        # the column of ``axis``: any column of its block holding its stack (the rows are
        # sorted within blocks); delete the last one holding that value
        bi = self._block_of(axis)
        c0, c1 = self._block_cols()[bi]
        val = np.asarray(worlds, dtype=np.int16)[:, axis]
        if axis in self.free:
            val = np.zeros_like(val)
        out = np.empty(rows.shape[0], dtype=np.int64)
        for j in range(c0, c1):
            hit = rows[:, j] == val
            if j < c1 - 1:
                hit &= rows[:, j + 1] != val
            if hit.any():
                out[hit] = self._deletion_keys(rows[hit], j)
        _ = lay
        return out

    def indicator_row(self, axis: int, ind: OrbitIndicator, world: Sequence[int],
                      over: int) -> np.ndarray:
        """bool (S,): whether the player on ``axis`` solves in ``world`` with the stack of the
        player on ``over`` replaced by each v (like :func:`engines.egghead.table.indicator_at`)."""
        w = self._worlds_over(over, world)
        return ind.count_of(self.key_without(axis, w)) == 1

    def indicator_value(self, axis: int, ind: OrbitIndicator, world: Sequence[int]) -> bool:
        """Whether the player on ``axis`` solves in ``world`` (their own stack ignored)."""
        w = np.asarray([[int(x) for x in world]], dtype=np.int16)
        return bool(ind.count_of(self.key_without(axis, w))[0] == 1)


ORBIT_FROM_BYTES = 1 << 30
"""Explicit master tables larger than this (bytes; 6 players × 56 stacks: 4.4 GB) are kept as
orbits under the symmetry of players instead (:class:`engines.egghead.orbits.OrbitTable`,
exact, tested equal to the explicit table on 3-5 players); smaller ones stay bit-packed."""


MAX_EVENT_ORBITS = 12 << 20
"""Most orbits an event may leave in an :class:`OrbitTable` (12.6 M keys): a solve
(:meth:`OrbitTable.solve_orbits`) or an answer about a player whose stack is free since they
solved (:meth:`OrbitTable.answer_orbits`); larger ones are refused before anything is built
(:func:`engines.egghead.inference.check_solve`, :func:`engines.egghead.inference.check_answer`).
Measured (docs/egghead-six-players.md, "A solve"): six players, an answer after a solve that
left 11.4 M orbits took 6.1 s of CPU with its posterior and the process peaked at 0.81 GB;
since the passes run in chunks over the stored keys ("The whole command within 10 s" there),
2.1 s and 0.30 GB, and the whole 12-event log through ``python -m engines infer`` 6.2 s of CPU,
within the 10 s / 1 GB every task must keep to. The limit is kept (no run at a larger one)."""

EVENT_BYTES_PER_ORBIT = 27
"""Peak bytes of the process per orbit an event leaves, measured on that answer (0.30 GB /
11.4 M orbits, ``bench_egghead.py --solve``; it includes the indicators and the fixed part;
72 before the chunked passes)."""


def uses_orbits(players: int, S: int) -> bool:
    """Whether inference keeps the master table of ``players`` × ``S`` stacks as orbits."""
    return table_bytes(players, S) > ORBIT_FROM_BYTES and fits(players, S)


def orbit_bytes(players: int, S: int) -> int:
    """Bytes of an orbit table holding every orbit of one block (8 per key; the table before
    the first answer is a flag and after it holds a fraction of these), int."""
    return 8 * orbits_possible(players, S)


def memory_needed_for(players: int, S: int, answers_table: bool = False) -> int:
    """:func:`memory_needed` from the sizes alone (``players``, ``S`` stacks each, whether an
    answers-only table is kept too), for a setup form that has no Setup yet (int bytes)."""
    if uses_orbits(players, S):
        # at worst an answer keeps every orbit of one block (6 players × 56 stacks: 55.5 M
        # keys, 0.44 GB) and holds them twice while they are joined; the dense indicators, the
        # cached tuples and the chunk temporaries fit in the headroom. The benchmark's games
        # peak at 0.34 GB, the game with a solve at 0.30 GB (docs/egghead-six-players.md)
        keys = orbit_bytes(players, S)
        return keys * (2 if answers_table else 1) + keys + (256 << 20)
    table = table_bytes(players, S)
    slab = table // S                                        # one index of axis 0
    return table * (2 if answers_table else 1) + (2 * players + 4) * slab + (256 << 20)
