"""The master table of Egghead as a bit-packed numpy array (Zorn 2024, appendix A.1).

The master table V_M is the set of worlds (one stack per player) that are still publicly
possible. With S stacks and n players it has S^n entries (56^4 ≈ 9.8 M for 4 players, 56^5 ≈
551 M for 5). It is stored as an array of shape ``(S,)*(n-1) + (W,)`` of ``uint64`` words,
``W = ceil(S/64)``: axes 0..n-2 index the stacks of players 0..n-2 and the bits of the last
axis the stack of player n-1 (bit ``s % 64`` of word ``s // 64``). For S = 56 one word holds
the whole last axis, so 4 players take 1.4 MB and 5 players 79 MB.

Each player's conditional information V_p (Definition 4.1) is the projection of this table
(Remark A.3): the valids of player p in world w are the stacks v with (w_{-p}, v) in V_M.
The operations are Zorn's (2024) equations on the whole table at once:

* :meth:`BitTable.filter_answer` — eq. (2) (and eq. (6) for a rotating moderator);
* :meth:`BitTable.solved_indicator` + :meth:`BitTable.keep_reaction` — eqs. (3)–(4): a world
  stays iff every player's announced reaction (solved iff their valids set has one element)
  matches what they would have done in that world;
* :meth:`BitTable.reset_player` — eq. (5) after a solve.

The table also keeps, per axis 0..n-2, the classes of stacks it cannot tell apart (the
features of the questions asked about that player since the whole table; :meth:`BitTable.classes`):
while they are few, the solved indicators read one stack per class (lumping, Kemeny and Snell
1960) instead of every word.
"""
from __future__ import annotations

import itertools
from typing import Optional, Sequence

import numpy as np

from engines.core.errors import CancelFlag, check_cancel
from engines.egghead.questions import Question

ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
_CHUNK_WORDS = 1 << 18  # rows handled at once in the chunked answer filter
_CHUNK_BYTES = 16 << 20  # bytes of the table handled at once by the other whole-table passes
# (16 MB: a pass over one chunk stays well under the 0.2 s within which Cancel must be seen;
# 64 MB took up to 0.35 s of CPU in a five-player solve)
_BLOCK_WORDS = 1 << 15   # words per block of the solved-indicator pass (256 KB: stays in cache)


def _ones_twos_in_blocks(x: np.ndarray, ones: np.ndarray, twos: np.ndarray, cancel=None,
                         many: Optional[np.ndarray] = None) -> None:
    """For ``x`` of shape (rows, S, words): ``ones`` = the OR over axis 1 (a bit set in at least
    one of the S slices) and ``twos`` = the OR over j of (x_0 | ... | x_{j-1}) & x_j (set in at
    least two), both (rows, words), written in place (``twos`` starts at zero); ``many`` (bool
    (S,)): slices whose set bits count twice (OR-ed into ``twos`` too). Whole rows are
    taken in blocks of about :data:`_BLOCK_WORDS` words, so each block's running OR stays in
    cache; ``cancel`` is polled every 64 blocks.

    Raises:
        Cancelled: ``cancel()`` became true.
    """
    rows, S, words = x.shape
    multi = None if many is None or not many.any() else np.flatnonzero(many)
    pb = max(1, _BLOCK_WORDS // max(1, S * words))
    acc = np.empty((min(pb, rows), S, words), dtype=np.uint64)
    both = np.empty((min(pb, rows), max(S - 1, 1), words), dtype=np.uint64)
    for i0 in range(0, rows, pb):
        if i0 % (pb * 64) == 0:
            check_cancel(cancel)
        xb = x[i0:i0 + pb]
        m = xb.shape[0]
        a = acc[:m]
        np.bitwise_or.accumulate(xb, axis=1, out=a)
        ones[i0:i0 + m] = a[:, -1]
        if S > 1:
            b = both[:m]
            np.bitwise_and(a[:, :-1], xb[:, 1:], out=b)
            np.bitwise_or.reduce(b, axis=1, out=twos[i0:i0 + m])
        if multi is not None:
            twos[i0:i0 + m] |= np.bitwise_or.reduce(xb[:, multi], axis=1)
_VERSIONS = itertools.count(1)  # table versions: every write of any table takes a new one
_REFRESH_SHARE = 0.5  # indicators are refreshed from the changed rows while they read at most
# this share of the rows a recomputation would read (see BitTable.refreshed_indicators)
_DENSE_ROW_GAIN = 2.5  # a gathered row costs about 2.5-4 times a row of a whole-table pass
_REFRESH_GATHER = 0.3  # at most this share of the rows gathered for one player (memory)
_REFRESH_MIN = 20_000   # (rows x players) below which indicators are recomputed, not refreshed
_FILTER_CHUNK_BYTES = 4 << 20  # the reaction filters of a round on a whole table: every
# player's mask applied to 4 MB at a time (dense five-player table: 27 -> 22 ms; 16 MB chunks
# left the L2 cache between players)
_MASK_ROWS_WORDS = 1 << 16  # words of compact rows masked at once by every reaction filter
_LUMP_MAX_WORDS = 6 << 20  # and at most 48 MB (half the five-player table: no limit there;
# six players' explicit tables of hundreds of MB keep their memory bound)
_LUMP_SHARE = 0.5  # solved indicators read one stack per class while that box has at most this
# share of the words the pass would read otherwise (see BitTable._lumped_indicator)
_SPARSE_ROWS = 0.3  # passes read only the non-empty rows while at most this share is non-empty
# (a reactions round on states of a truthful five-player game, 5 indicators and the filters, CPU:
# 23% non-empty rows 78 ms compact / 130 ms whole; 32%: 148 / 134; 47%: 165 / 138)


def _dense_indicator(t: np.ndarray, axis: int, cancel=None, many: Optional[np.ndarray] = None):
    """:meth:`BitTable.solved_indicator` with its support, read from every word of ``t``: an
    array of uint64 words of any shape ``(s_0, ..., s_{m-1}, W)`` (the whole table, or the
    box of one representative stack per class: :meth:`BitTable._lumped_indicator`). For
    ``axis == t.ndim - 1`` (the bit axis): two bool arrays ``t.shape[:-1]``; otherwise two
    word arrays of ``t.shape`` without ``axis``. Cache-sized blocks; ``cancel`` is polled.
    ``many`` (bool (t.shape[axis],), not for the bit axis): the indices along ``axis`` that
    count as two valid stacks where their bit is set (classes of two stacks or more).

    Raises:
        Cancelled: ``cancel()`` became true.
    """
    if axis == t.ndim - 1:
        rows = t.reshape(-1, t.shape[-1])
        ind = np.empty(rows.shape[0], dtype=bool)
        sup = np.empty(rows.shape[0], dtype=bool)
        step = max(1, _BLOCK_WORDS // t.shape[-1])
        if t.shape[-1] == 1:     # one word per row: exactly one bit iff its bit count is 1
            # (numpy's bitwise_count into a reused uint8 buffer, then one comparison: 15 ->
            # 10 ms on the five-player table, against x != 0 and x & (x - 1) == 0)
            step = 1 << 17
            cnt = np.empty(min(step, rows.shape[0]), dtype=np.uint8)
            for r0 in range(0, rows.shape[0], step):
                check_cancel(cancel)
                x = rows[r0:r0 + step, 0]
                m = x.shape[0]
                np.bitwise_count(x, out=cnt[:m])
                np.equal(cnt[:m], 1, out=ind[r0:r0 + m])
                np.not_equal(x, 0, out=sup[r0:r0 + m])
        else:
            for r0 in range(0, rows.shape[0], step):
                if r0 % (step * 64) == 0:
                    check_cancel(cancel)
                cnt = np.bitwise_count(rows[r0:r0 + step]).sum(-1, dtype=np.int64)
                ind[r0:r0 + cnt.shape[0]] = cnt == 1
                sup[r0:r0 + cnt.shape[0]] = cnt > 0
        out_shape = t.shape[:-1]
        ind = ind.reshape(out_shape)
        return ind, sup.reshape(out_shape)
    shape = t.shape
    pre = int(np.prod(shape[:axis], dtype=np.int64))
    post = int(np.prod(shape[axis + 1:], dtype=np.int64))
    S = shape[axis]
    x = t.reshape(pre, S, post)
    ones = np.zeros((pre, post), dtype=np.uint64)
    twos = np.zeros_like(ones)
    if post <= 8:
        # the axis is (nearly) contiguous: reduce along it in blocks of whole rows
        # (twos = OR over j of (OR of x_0..x_{j-1}) & x_j)
        _ones_twos_in_blocks(x, ones, twos, cancel, many)
        out_shape = shape[:axis] + shape[axis + 1:]
        ind = (ones & ~twos).reshape(out_shape)
        return ind, ones.reshape(out_shape)
    qb = min(post, _BLOCK_WORDS)
    pb = max(1, _BLOCK_WORDS // qb)
    tmp = np.empty((min(pb, pre), qb), dtype=np.uint64)
    for i0 in range(0, pre, pb):
        check_cancel(cancel)
        i1 = min(pre, i0 + pb)
        for k0 in range(0, post, qb):
            k1 = min(post, k0 + qb)
            o, tw = ones[i0:i1, k0:k1], twos[i0:i1, k0:k1]
            tb = tmp[:i1 - i0, :k1 - k0]
            for j in range(S):
                xj = x[i0:i1, j, k0:k1]
                if many is not None and many[j]:
                    tw |= xj
                else:
                    np.bitwise_and(o, xj, out=tb)
                    tw |= tb
                o |= xj
    out_shape = shape[:axis] + shape[axis + 1:]
    ind = (ones & ~twos).reshape(out_shape)
    return ind, ones.reshape(out_shape)


def _repeat_classes(x: np.ndarray, idx: Sequence[np.ndarray]) -> np.ndarray:
    """``x`` indexed by class, for axes 0..len(idx)-1, repeated over the stacks: the array
    ``x[np.ix_(*idx)]`` (``idx[a]``: the class of each stack of axis a), built one axis at a
    time from the last (the largest copy, along axis 0, moves whole contiguous blocks: 9.8 M
    bools in a few ms, where the fancy index took 80 ms)."""
    for a in range(len(idx) - 1, -1, -1):
        x = x.take(idx[a], axis=a)
    return x


def any_and(x: np.ndarray, y: np.ndarray, negate: bool = False) -> bool:
    """Whether ``x & y`` (``x & ~y`` with ``negate``) has a set bit or a True entry: bool
    arrays or uint64 words of one shape. Blocks of 2^16 entries into a reused buffer, stopping
    at the first block that answers (the full-size temporaries of the last player's 9.8 M
    bools cost more than the test: 5-20 ms a call)."""
    xf, yf = x.reshape(-1), y.reshape(-1)
    step = 1 << 16
    buf = np.empty(min(step, xf.size), dtype=xf.dtype)
    for i in range(0, xf.size, step):
        b = buf[:min(step, xf.size - i)]
        if negate:
            np.invert(yf[i:i + step], out=b)
            b &= xf[i:i + step]
        else:
            np.bitwise_and(xf[i:i + step], yf[i:i + step], out=b)
        if b.any():
            return True
    return False


def n_words(S: int) -> int:
    """Words of 64 bits needed for S stacks."""
    return (S + 63) // 64


def full_words(S: int) -> np.ndarray:
    """uint64 (W,): the valid bits of a packed row (all S stacks)."""
    return pack_bits(np.ones(S, dtype=bool))


def pack_bits(b: np.ndarray) -> np.ndarray:
    """Pack bool (..., S) into uint64 (..., W) words, stack s at bit s%64 of word s//64."""
    b = np.asarray(b, dtype=bool)
    S = b.shape[-1]
    W = n_words(S)
    pad = np.zeros(b.shape[:-1] + (W * 64,), dtype=bool)
    pad[..., :S] = b
    by = np.packbits(pad, axis=-1, bitorder="little")
    return np.ascontiguousarray(by).view("<u8").astype(np.uint64).reshape(b.shape[:-1] + (W,))


def unpack_bits(words: np.ndarray, S: int) -> np.ndarray:
    """Inverse of :func:`pack_bits`: uint64 (..., W) -> bool (..., S)."""
    w = np.ascontiguousarray(np.asarray(words, dtype=np.uint64)).astype("<u8")
    by = w.view(np.uint8).reshape(w.shape[:-1] + (w.shape[-1] * 8,))
    return np.unpackbits(by, axis=-1, bitorder="little")[..., :S].astype(bool)


def table_bytes(players: int, S: int) -> int:
    """Bytes of one master table for ``players`` players and S stacks."""
    return S ** (players - 1) * n_words(S) * 8


class BitTable:
    """A bit-packed set of worlds (see the module docstring). Mutable; :meth:`copy` to keep.

    Args:
        players: n >= 2.
        S: number of stacks.
        data: optional existing array of shape ``(S,)*(n-1) + (W,)`` (taken, not copied).
    """

    def __init__(self, players: int, S: int, data: Optional[np.ndarray] = None):
        self.n, self.S, self.W = players, S, n_words(S)
        self.full = full_words(S)
        shape = (S,) * (players - 1) + (self.W,)
        whole = data is None
        if data is None:
            data = np.empty(shape, dtype=np.uint64)
            data[...] = self.full
        self.t = data
        # the non-empty rows (see :meth:`_rows`): sorted flat indices, or None when unknown;
        # and their words (nr, S, W), or None. Dropped by every pass that writes the whole table
        self._nz: Optional[np.ndarray] = None
        self._cx: Optional[np.ndarray] = None
        self._nz_exact = False   # False: _nz may hold rows emptied since (a superset)
        # axes 0..n-2 along which the table is known to be constant (a product: the set of
        # worlds does not depend on that player's stack): the axis of a player who solved,
        # until an answer about them (see :meth:`_slice_indicator`). A whole table starts with
        # none: its one class per axis (below) gives its indicators more cheaply (the
        # truthful 100-event game: 1.80 s CPU, 2.02-2.14 s with every axis free)
        self._free: frozenset = frozenset()
        # the classes of stacks of axes 0..n-2 (see :meth:`classes`): one per axis for a whole
        # table, one per stack when the content is unknown
        one = np.zeros(S, dtype=np.int64) if whole else np.arange(S, dtype=np.int64)
        self._cls: tuple = (one,) * (players - 1)
        self._lump_box: Optional[tuple] = None   # (version, the box of representatives)
        # a token of the table's content: every method that writes the table takes a new one
        # (copies keep it), so that what was derived from one content is not used on another
        self.version = next(_VERSIONS)

    def _new_version(self) -> None:
        """The table is about to be written: a new :attr:`version`, and the box of class
        representatives of the old content dropped (up to ``_LUMP_MAX_WORDS`` words)."""
        self.version = next(_VERSIONS)
        self._lump_box = None

    def chunks(self, nbytes: Optional[int] = None):
        """Slices along axis 0 covering the table, each at most about ``nbytes`` (16 MB; at
        least one index): whole-table passes go chunk by chunk so that none makes a temporary
        as large as the table (6 players × 56 stacks: a 4.4 GB table, 79 MB per index of
        axis 0)."""
        nbytes = _CHUNK_BYTES if nbytes is None else min(nbytes, _CHUNK_BYTES)
        step = max(1, nbytes // max(1, self.t[0].nbytes))   # the table has >= 2 axes
        for start in range(0, self.t.shape[0], step):
            yield slice(start, min(self.t.shape[0], start + step))

    def copy(self) -> "BitTable":
        t = BitTable(self.n, self.S, self.t.copy())
        t._nz, t._nz_exact = self._nz, self._nz_exact     # never written in place
        t._free, t._cls = self._free, self._cls
        t.version = self.version
        return t

    def _touch(self, removed_only: bool = False) -> None:
        """Forget the non-empty rows (the table was written as a whole); when worlds were only
        removed, the rows known non-empty are kept as a superset (an empty row in the compact
        array changes no result)."""
        self._cx = None
        self._nz_exact = False
        if not removed_only:
            self._nz = None

    # ------------------------------------------------------------------ sparse rows
    # A *row* is one index of axes 0..n-3: the S x W words of axis n-2 and the bit axis
    # (5 players x 56 stacks: 175 616 rows of 56 words). After a few answers most rows of a
    # game's table are empty (a truthful 100-event game with 5 players: at most 1 in 4
    # non-empty in 80 of its 100 states), and every operation of Zorn's (2024) eqs. (2)-(4) maps
    # an empty row to an empty row or reads nothing from it. So while few rows are non-empty the
    # passes read and write only those, gathered into a compact array: the result is the same
    # table, computed in time proportional to the non-empty rows.

    def _rows(self, refresh: bool = True):
        """``(c, X)``: the sorted flat indices of the non-empty rows (with ``refresh=False``
        possibly a superset) and their words (nr, S, W), or None when more than
        ``_SPARSE_ROWS`` of the rows are non-empty (or n < 3)."""
        if self.n < 3 or not self.t.flags.c_contiguous:
            return None
        V = self.t.reshape(-1, self.S * self.W)
        if self._nz is None or (refresh and not self._nz_exact):
            nz = np.empty(V.shape[0], dtype=bool)
            step = max(1, _BLOCK_WORDS // V.shape[1])
            for r0 in range(0, V.shape[0], step):
                np.not_equal(np.bitwise_or.reduce(V[r0:r0 + step], axis=1), 0,
                             out=nz[r0:r0 + step])
            self._nz = np.flatnonzero(nz)
            self._nz_exact = True
            self._cx = None
        if self._nz.size > _SPARSE_ROWS * V.shape[0]:
            return None
        if self._cx is None:
            self._cx = V[self._nz].reshape(-1, self.S, self.W)
        return self._nz, self._cx

    def _store_rows(self, c: np.ndarray, X: np.ndarray) -> None:
        """Write the compact rows back (the other rows stay empty) and drop the emptied ones."""
        flat = X.reshape(c.size, self.S * self.W)
        self.t.reshape(-1, self.S * self.W)[c] = flat
        keep = np.bitwise_or.reduce(flat, axis=1) != 0
        if keep.all():
            self._nz, self._cx = c, X
        else:
            self._nz, self._cx = c[keep], X[keep]
        self._nz_exact = True

    def _digit(self, c: np.ndarray, a: int) -> np.ndarray:
        """The index of axis ``a`` (0..n-3) of flat row indices ``c``."""
        return (c // self.S ** (self.n - 3 - a)) % self.S

    def _without(self, c: np.ndarray, a: int) -> np.ndarray:
        """Flat row indices ``c`` with axis ``a`` (0..n-3) deleted (indices of S^(n-3) rows)."""
        lo = self.S ** (self.n - 3 - a)
        return (c // (lo * self.S)) * lo + c % lo

    def _sparse_indicator(self, axis: int, c: np.ndarray, X: np.ndarray):
        """:meth:`solved_indicator` with its support from the non-empty rows only (same
        arrays: the empty rows contribute no valid stack)."""
        n, S, W = self.n, self.S, self.W
        R = self.t.size // (S * W)
        keys, ind_k, sup_k = self._indicator_groups(axis, c, X)
        if axis == n - 1:
            ind = np.zeros((R, S), dtype=bool)
            sup = np.zeros((R, S), dtype=bool)
            shape = self.t.shape[:-1]
        elif axis == n - 2:
            ind = np.zeros((R, W), dtype=np.uint64)
            sup = np.zeros((R, W), dtype=np.uint64)
            shape = self.t.shape[:-2] + (W,)
        else:
            ind = np.zeros((R // S, S, W), dtype=np.uint64)
            sup = np.zeros((R // S, S, W), dtype=np.uint64)
            shape = self.t.shape[:axis] + self.t.shape[axis + 1:]
        ind[keys] = ind_k
        sup[keys] = sup_k
        return ind.reshape(shape), sup.reshape(shape)

    def _indicator_groups(self, axis: int, c: np.ndarray, X: np.ndarray):
        """The part of :meth:`solved_indicator` (with support) that rows ``c`` (flat row
        indices, each once) with words ``X`` (nr, S, W) determine: ``(keys, ind, sup)``, the
        entries ``keys`` of the indicator and support flattened to rows of (S,) bools (last
        axis), (W,) words (axis n-2) or (S, W) words (a row axis). Exact for the entries
        whose rows are all among ``c`` or empty: all of them for the last two axes; for a
        row axis the groups of rows that differ only on that axis."""
        n, S, W = self.n, self.S, self.W
        if axis == n - 1:
            cnt = np.bitwise_count(X).sum(-1, dtype=np.int16)          # (nr, S)
            return c, cnt == 1, cnt > 0
        if axis == n - 2:
            # in cache-sized blocks of rows (numpy's accumulate over a whole compact array
            # took twice the time: 12.7 -> about 6 ms for 40 000 rows of 56 words)
            nr = X.shape[0]
            ones = np.empty((nr, W), dtype=np.uint64)
            twos = np.zeros((nr, W), dtype=np.uint64)
            _ones_twos_in_blocks(X, ones, twos)
            return c, ones & ~twos, ones
        # a row axis: rows that differ only on ``axis`` form a group. The groups are numbered
        # by decreasing size and the rows laid out by (rank in their group, group): the rows of
        # rank r are then one contiguous block, one per group among the first n_r groups, and
        # the fold ``twos |= ones & x; ones |= x`` runs on contiguous slices (one gather of the
        # rows in all, instead of a gather and scatter of the accumulators per rank)
        g = self._without(c, axis)
        order = np.argsort(g, kind="stable")
        gs = g[order]
        first = np.ones(gs.size, dtype=bool)
        first[1:] = gs[1:] != gs[:-1]
        starts = np.flatnonzero(first)
        sizes = np.diff(np.append(starts, gs.size))
        gid = np.cumsum(first) - 1
        rank = np.arange(gs.size) - starts[gid]
        by_size = np.argsort(-sizes, kind="stable")          # new group number -> old
        new_id = np.empty_like(by_size)
        new_id[by_size] = np.arange(by_size.size)
        layout = np.lexsort((new_id[gid], rank))             # by rank, then new group number
        Xs = np.take(X, order[layout], axis=0)
        ng = starts.size
        ones = np.empty((ng, S, W), dtype=np.uint64)
        twos = np.zeros((ng, S, W), dtype=np.uint64)
        tmp = np.empty((ng, S, W), dtype=np.uint64)
        per_rank = np.bincount(rank, minlength=1)            # n_r: groups with a row of rank r
        off = 0
        for r, m in enumerate(per_rank.tolist()):
            blk = Xs[off:off + m]
            off += m
            if r == 0:
                ones[...] = blk
                continue
            o = ones[:m]
            np.bitwise_and(o, blk, out=tmp[:m])
            twos[:m] |= tmp[:m]
            o |= blk
        keys = gs[starts][by_size]
        np.bitwise_not(twos, out=twos)
        twos &= ones
        return keys, twos, ones

    def refreshed_indicators(self, old: dict, rows: np.ndarray,
                             cancel: CancelFlag = None) -> Optional[dict]:
        """Every listed player's :meth:`solved_indicator` with its support after a pass that
        changed only ``rows``, from the ones before it: only the entries that read a changed
        row are recomputed (incremental maintenance of a derived view: Gupta and Mumick,
        "Maintenance of materialized views: problems, techniques, and applications", 1995).

        A player's valids in a world are read from one row (the last two axes) or from the S
        rows that differ only on their axis (a row axis), so an entry whose rows did not
        change keeps its value.

        Args:
            old: ``{axis: (indicator, support)}`` of this table before the pass (as returned
                by :meth:`solved_indicator` with ``with_support``; not modified).
            rows: sorted flat indices of the changed rows (from :meth:`keep_reactions` with
                ``track``).
        Returns:
            ``{axis: (indicator, support)}`` (new arrays), or None when the refresh would read
            more than ``_REFRESH_SHARE`` of the rows the recomputation reads or gather more
            than ``_REFRESH_GATHER`` of the table's rows for one player (then call
            :meth:`solved_indicator`), or when the table has a free axis (whose indicators
            come from one slice, already cheap) or fewer than 3 players.
        Raises:
            Cancelled: ``cancel`` returned True (checked once per player).
        """
        n, S, W = self.n, self.S, self.W
        if n < 3 or self._free or not self.t.flags.c_contiguous:
            return None
        R = self.t.size // (S * W)
        nz = self._nz
        live = None
        if nz is not None:          # rows outside it are empty: they add no valid stack
            live = np.zeros(R, dtype=bool)
            live[nz] = True
        # what a recomputation reads: the non-empty rows per player while the passes use them
        # (0.25 us per row and player on the five-player game), else the whole table, whose
        # blocked passes cost 0.11 us per row and player against 0.3-0.45 for a gathered row
        # here (the copies of the old arrays add about 3 ms: small tables are recomputed)
        if nz is not None and nz.size <= _SPARSE_ROWS * R:
            full = nz.size * len(old)
        else:
            full = R * len(old) / _DENSE_ROW_GAIN
        # every changed row still non-empty is read once per player at least
        least = rows.size if live is None else int(np.count_nonzero(live[rows]))
        if full < _REFRESH_MIN or least * len(old) > _REFRESH_SHARE * full:
            return None
        reads, zero = {}, {}
        for axis in old:
            if axis >= n - 2:
                zero[axis] = rows
                reads[axis] = rows if live is None else rows[live[rows]]
                continue
            groups = np.unique(self._without(rows, axis))
            lo = S ** (n - 3 - axis)
            base = (groups // lo) * (lo * S) + groups % lo
            c = (base[None, :] + (np.arange(S) * lo)[:, None]).reshape(-1)
            if live is not None:
                c = c[live[c]]
            reads[axis] = np.sort(c, kind="stable")     # S sorted runs: merged
            zero[axis] = groups
        if sum(c.size for c in reads.values()) > _REFRESH_SHARE * full:
            return None
        if max(c.size for c in reads.values()) > _REFRESH_GATHER * R:
            return None     # memory: one player's gathered rows stay within what the compact
            # rows may take (30 % of the table; 4 players x 6 x 5: 154 of 512 MB)
        V = self.t.reshape(-1, S, W)
        out = {}
        for axis, (ind, sup) in old.items():
            check_cancel(cancel)
            c = reads[axis]
            keys, ind_k, sup_k = self._indicator_groups(axis, c, V[c])
            ni, ns = ind.copy(), sup.copy()
            lead = (-1, S) if axis == n - 1 else ((-1, W) if axis == n - 2 else (-1, S, W))
            ni2, ns2 = ni.reshape(lead), ns.reshape(lead)
            ni2[zero[axis]] = 0             # groups left empty get no key
            ns2[zero[axis]] = 0
            ni2[keys] = ind_k
            ns2[keys] = sup_k
            out[axis] = (ni, ns)
        return out

    def _sparse_mask(self, axis: int, solved_ind: np.ndarray, solved: bool,
                     c: np.ndarray) -> np.ndarray:
        """:meth:`reaction_mask` for the compact rows ``c``, broadcastable to (nr, S, W)."""
        n, S, W = self.n, self.S, self.W
        if axis == n - 1:
            ind = solved_ind.reshape(-1, S)[c]
            ok = ind if solved else ~ind
            return np.where(ok, ALL, np.uint64(0))[..., None]
        if axis == n - 2:
            m = solved_ind.reshape(-1, W)[c][:, None, :]
        else:
            m = solved_ind.reshape(-1, S, W)[self._without(c, axis)]
        return m if solved else ~m

    @property
    def nbytes(self) -> int:
        return int(self.t.nbytes)

    def count(self, cancel: CancelFlag = None) -> int:
        """Number of worlds in the table (int).

        Raises:
            Cancelled: ``cancel`` returned True (checked every chunk)."""
        sparse = self._rows()
        if sparse is not None:
            return int(np.bitwise_count(sparse[1]).sum(dtype=np.int64))
        total = 0
        for sl in self.chunks():
            check_cancel(cancel)
            total += int(np.bitwise_count(self.t[sl]).sum(dtype=np.int64))
        return total

    def __contains__(self, world: Sequence[int]) -> bool:
        s = int(world[-1])
        return bool((self.t[tuple(int(x) for x in world[:-1])][s // 64] >> np.uint64(s % 64)) & np.uint64(1))

    # ------------------------------------------------------------------ eq. (2) / (6)
    def filter_answer(self, q: Question, answer: int, seen: Sequence[bool],
                      cancel: CancelFlag = None, track: bool = False) -> Optional[np.ndarray]:
        """Remove the worlds where the moderator would have given another answer (eq. (2)).

        Args:
            q: the question, bound to this stack space.
            answer: the answer given (int).
            seen: bool per player axis: whether the moderator sees that player's stack (all
                True for an external moderator; False at the moderator's axis, eq. (6)).
            track: also return the rows that lost a world, as :meth:`keep_reactions` does,
                while the pass runs on the compact rows (on a whole table an answer removes
                worlds from most rows: two more bit counts of the table would not pay).
        Returns:
            With ``track`` on the compact rows: the changed rows (sorted flat indices); else
            None.
        Cost: one lookup per packed row (S^(n-1) rows), chunked along axis 0.
        """
        n, S = self.n, self.S
        self._new_version()
        # the answer depends on the stacks the moderator sees: only an unseen axis stays free
        self._free = frozenset(a for a in self._free if not seen[a])
        self._split_classes(q.feature, seen)
        masks = pack_bits(q.ok_given_partial(answer, bool(seen[-1])))  # (bound, W)
        if n == 1:
            self.t &= masks[q.identity]
            return
        sparse = self._rows(refresh=False)
        if sparse is not None:
            c, X = sparse
            agg = np.full(c.size, q.identity, dtype=np.int64)
            for a in range(n - 2):
                if seen[a]:
                    agg = q.ufunc(agg, q.feature[self._digit(c, a)])
            before = self._word_counts(X) if track else None
            # in blocks of rows that stay in cache: the (rows, S) aggregates and their masks
            # (a table-sized gather and AND into a new array took 30 ms at 45 000 rows)
            step = max(1, _MASK_ROWS_WORDS // (S * self.W))
            f = q.feature if seen[n - 2] else np.full(S, q.identity, dtype=np.int64)
            grid = np.empty((min(step, c.size), S), dtype=np.int64)
            buf = np.empty((min(step, c.size), S, self.W), dtype=np.uint64)
            for r0 in range(0, c.size, step):
                if r0 % (step * 16) == 0:
                    check_cancel(cancel)
                m = min(step, c.size - r0)
                g = grid[:m]
                q.ufunc(agg[r0:r0 + m, None], f[None, :], out=g)
                np.take(masks, g, axis=0, out=buf[:m])
                X[r0:r0 + m] &= buf[:m]
            changed = c[self._rows_changed(before, X)] if track else None
            self._store_rows(c, X)
            return changed
        self._touch(removed_only=True)
        feats = [q.feature if seen[a] else None for a in range(n - 1)]
        # partial aggregate over axes 1..n-2 (shape S^(n-2))
        rest = np.full((S,) * (n - 2), q.identity, dtype=np.int64) if n > 2 else np.int64(q.identity)
        for a in range(1, n - 1):
            if feats[a] is None:
                continue
            shp = [1] * (n - 2)
            shp[a - 1] = S
            rest = q.ufunc(rest, feats[a].reshape(shp))
        rest = np.asarray(rest, dtype=np.int64)
        f0 = feats[0]
        if 2 * _BLOCK_WORDS < rest.size * self.W <= _CHUNK_BYTES // 8:
            # one index of axis 0 at a time: its mask depends on that index only through the
            # feature f0[i], which takes few values (the deck's features: sums, counts), so each
            # distinct value's mask is built once (5 players x 56 stacks: 56 builds of a 1.4 MB
            # mask -> at most the number of values; the build is two of the three passes)
            memo = {}
            for i in range(S):
                check_cancel(cancel)
                u = None if f0 is None else int(f0[i])
                m = memo.get(u)
                if m is None:
                    m = masks[rest if f0 is None else q.ufunc(f0[i], rest)]
                    if (len(memo) + 1) * m.nbytes <= 4 * _CHUNK_BYTES:
                        memo[u] = m
                self.t[i] &= m
            return None
        if rest.size > 4 * _BLOCK_WORDS:
            # large tables (6 players): cache-sized blocks of one row of axis 0 at a time, into
            # reused buffers (no temporary of the size of a row: 79 MB for 6 players)
            flat = rest.reshape(-1)
            tv = self.t.reshape(S, -1, self.W)
            gbuf = np.empty(_BLOCK_WORDS, dtype=np.int64)
            mbuf = np.empty((_BLOCK_WORDS, self.W), dtype=np.uint64)
            for i in range(S):
                check_cancel(cancel)
                for b0 in range(0, flat.size, _BLOCK_WORDS):
                    part = flat[b0:b0 + _BLOCK_WORDS]
                    m = part.shape[0]
                    if f0 is None:
                        g = part
                    else:
                        g = q.ufunc(f0[i], part, out=gbuf[:m])
                    np.take(masks, g, axis=0, out=mbuf[:m])
                    tv[i, b0:b0 + m] &= mbuf[:m]
            return
        if rest.size * self.W <= _CHUNK_WORDS:
            step = max(1, _CHUNK_WORDS // max(1, rest.size * self.W))
        else:
            step = 1
        for start in range(0, S, step):
            check_cancel(cancel)
            stop = min(S, start + step)
            if f0 is None:
                grid = np.broadcast_to(rest, (stop - start,) + rest.shape)
            else:
                shp = (stop - start,) + (1,) * rest.ndim
                grid = q.ufunc(f0[start:stop].reshape(shp), rest)
            self.t[start:stop] &= masks[grid]

    # ------------------------------------------------------------------ eqs. (3)-(4)
    def solved_indicator(self, axis: int, cancel: CancelFlag = None,
                         with_support: bool = False):
        """Where the player on ``axis`` has exactly one valid stack (would solve).

        Returns:
            For ``axis == n-1``: bool array ``(S,)*(n-1)`` indexed by the other players' stacks.
            Otherwise: uint64 words ``(S,)*(n-2) + (W,)`` (the axis removed), whose bit v of
            the last player says whether the player would solve in that world.
            With ``with_support``: ``(indicator, support)``, the support in the same format
            saying where the player has at least one valid stack (the projection of the
            table along ``axis``).
        Cost: one read of the table, in cache-sized blocks (6 players × 56 stacks: 4.4 GB,
        about 1 s per axis on one core); while the stacks fall into few classes, one stack per
        class (:meth:`_lumped_indicator`); else while few rows are non-empty, those rows only.
        """
        if self._free and self.n >= 3:
            ind, sup = self._slice_indicator(axis, min(self._free), cancel)
            return (ind, sup) if with_support else ind
        lumped = self._lumped_indicator(axis, cancel)
        if lumped is not None:
            return lumped if with_support else lumped[0]
        sparse = self._rows()
        if sparse is not None:
            ind, sup = self._sparse_indicator(axis, *sparse)
            return (ind, sup) if with_support else ind
        ind, sup = _dense_indicator(self.t, axis, cancel)
        return (ind, sup) if with_support else ind

    # ------------------------------------------------------------------ classes of stacks
    # Two stacks u, u' of the player on axis a (0..n-2) are in one *class* when swapping them
    # in every world maps the table onto itself. The whole table has one class per axis; an
    # answer (eq. (2)) keeps the classes of the players it does not concern and splits the
    # others' by the question's feature (the answer reads a stack only through it); a
    # reaction filter (eqs. (3)-(4)) keeps them when each indicator it reads is itself
    # invariant (the indicators of a table with these classes: ``same_classes``); a solve
    # (eq. (5)) makes the solver's axis one class and keeps the others. Zorn's (2024) tables
    # depend on the stacks only through the features asked, so in the rounds after an answer
    # the five-player game has 4-46 classes per axis instead of 56 (the first question's
    # feature takes 16 values), and a solved indicator can read one stack per class: the box
    # of representatives, prod(K_a) * W words instead of S^(n-1) * W. This is lumping: a
    # structure invariant under a partition of its states is analysed on the classes
    # (Kemeny and Snell 1960, chapter 6, lumpable processes).

    def classes(self) -> tuple:
        """The stack classes of axes 0..n-2 (see above): n-1 int arrays (S,), each class
        numbered 0..K-1 by its first stack (read-only; one class per stack when unknown)."""
        return self._cls

    def _split_classes(self, feature: np.ndarray, seen: Sequence[bool]) -> None:
        """Split the classes of the seen axes 0..n-2 by ``feature`` (int (S,))."""
        f = np.asarray(feature, dtype=np.int64) - int(np.min(feature))
        width = int(f.max()) + 1
        cls = list(self._cls)
        for a in range(self.n - 1):
            if seen[a]:
                _, first, inv = np.unique(cls[a] * width + f, return_index=True,
                                          return_inverse=True)
                rank = np.empty(first.size, dtype=np.int64)     # number classes by first stack
                rank[np.argsort(first, kind="stable")] = np.arange(first.size)
                cls[a] = rank[inv.reshape(-1)]
        self._cls = tuple(cls)

    def _lumped_indicator(self, axis: int, cancel: CancelFlag = None):
        """:meth:`solved_indicator` with its support from one representative stack per class
        of each axis 0..n-2 (see :meth:`classes`), or None when that box is larger than
        ``_LUMP_SHARE`` of what the pass would read otherwise (the non-empty rows while they
        are few, else the whole table) or n < 3.

        With the class sizes c_a(k): the player on axis a has exactly one valid stack iff
        exactly one class k of theirs holds valid stacks and c_a(k) = 1 (a class holds
        c_a(k) valid stacks or none), so a class of two or more counts as two; the last player
        (the bit axis, not lumped) reads the words of the box as they are. Classes without a
        world are left out of the box (they add no valid stack; their entries are zero). The
        result is the box's indicator repeated over the stacks of each class (a gather of
        S^(n-2) words, or S^(n-1) bools for the last player).
        """
        n, S, W = self.n, self.S, self.W
        if n < 3:
            return None
        box = self._lump_box
        if box is None or box[0] != self.version:
            self._lump_box = box = (self.version,) + self._build_lump_box(cancel)
        _, B, pos, sizes = box
        if B is None:
            return None
        if not B.size:         # no world: nobody has a valid stack
            shape = (S,) * (n - 2) + (W,) if axis < n - 1 else (S,) * (n - 1)
            dtype = np.uint64 if axis < n - 1 else bool
            return np.zeros(shape, dtype=dtype), np.zeros(shape, dtype=dtype)
        # the indicator and the support repeated over the stacks in one pass (ind implies sup);
        # index len(live) of each axis is a zero entry, for the classes left out
        if axis < n - 1:
            # a valid class of two stacks or more counts as two valid stacks
            ind, sup = _dense_indicator(B, axis, cancel, many=sizes[axis] >= 2)
            both = np.pad(np.stack([ind, sup], axis=-2), [(0, 1)] * (n - 2) + [(0, 0)] * 2)
            both = _repeat_classes(both, [pos[b] for b in range(n - 1) if b != axis])
            return np.ascontiguousarray(both[..., 0, :]), np.ascontiguousarray(both[..., 1, :])
        ind, sup = _dense_indicator(B, axis, cancel)
        code = np.pad(ind.view(np.uint8) + sup.view(np.uint8), [(0, 1)] * (n - 1))
        code = _repeat_classes(code, pos)
        return code == 2, code != 0

    def _build_lump_box(self, cancel: CancelFlag = None) -> tuple:
        """``(B, pos, sizes)`` for :meth:`_lumped_indicator`: the box of representatives of the
        classes that hold a world (uint64 (L_0, ..., L_{n-2}, W)); per axis, each stack's
        index in the box (L_a for a class left out) and the box's class sizes; or
        ``(None, None, None)`` when the box would be larger than ``_LUMP_SHARE`` of the words
        a pass reads otherwise, or than ``_LUMP_MAX_WORDS``. The classes of axes 0..n-3 with a
        stack in a non-empty row (:meth:`_rows`, possibly a superset) are kept before the box
        is built; then the classes of every axis without a world are dropped from it."""
        n, S, W = self.n, self.S, self.W
        cls = self._cls
        live = [np.arange(int(c.max()) + 1) for c in cls]
        nz = self._nz
        if nz is not None:
            for a in range(n - 2):
                held = np.zeros(S, dtype=bool)
                held[self._digit(nz, a)] = True
                live[a] = np.unique(cls[a][held])
        reads = self.t.size
        if nz is not None and nz.size <= _SPARSE_ROWS * (self.t.size // (S * W)):
            reads = nz.size * S * W
        box_words = int(np.prod([x.size for x in live], dtype=np.int64)) * W
        if box_words > min(_LUMP_SHARE * reads, _LUMP_MAX_WORDS):
            return None, None, None
        first = [np.unique(c, return_index=True)[1] for c in cls]   # classes are 0..K-1
        reps = [f[x] for f, x in zip(first, live)]
        B = np.empty(tuple(r.size for r in reps) + (W,), dtype=np.uint64)
        for k, i in enumerate(reps[0].tolist()):   # one slice of axis 0 at a time: the
            check_cancel(cancel)                   # temporaries stay in cache
            sub = self.t[i]
            for a in range(1, n - 1):
                sub = sub.take(reps[a], axis=a - 1)
            B[k] = sub
        if B.size:
            # the classes with a world, from two reductions of the box's non-empty words
            # (the rows known non-empty may be a superset: 44 classes kept where 33 hold one)
            full = np.bitwise_or.reduce(B, axis=-1) != 0
            h = (n - 1) // 2
            lo = full.any(axis=tuple(range(h, n - 1)))
            hi = full.any(axis=tuple(range(h)))
            for a in range(n - 1):
                part, b = (lo, a) if a < h else (hi, a - h)
                keep = part.any(axis=tuple(x for x in range(part.ndim) if x != b))
                if not keep.all():
                    B = B.compress(keep, axis=a)
                    live[a] = live[a][keep]
            B = np.ascontiguousarray(B)
        pos, sizes = [], []
        for c, x in zip(cls, live):
            m = np.full(int(c.max()) + 1, x.size, dtype=np.int64)
            m[x] = np.arange(x.size)
            pos.append(m[c])
            sizes.append(np.bincount(c)[x])
        return B, pos, sizes

    def _slice_indicator(self, axis: int, f: int, cancel: CancelFlag = None):
        """:meth:`solved_indicator` with its support of a table that is constant along axis
        ``f`` (0..n-2, in ``_free``), from one slice of it (S times smaller).

        Along a free axis the worlds do not depend on that player's stack: the player on ``f``
        has every stack valid wherever they have one (never solves: S >= 2, and their support
        is the slice), and any other player's valids do not depend on the stack of ``f``, so
        their indicator is the slice's (an (n-1)-player table) repeated along ``f``."""
        n, S = self.n, self.S
        sl = np.ascontiguousarray(self.t.take(0, axis=f))
        if axis == f:
            return np.zeros_like(sl), sl
        sub = BitTable(n - 1, S, sl)
        sub._free = frozenset(a - (a > f) for a in self._free if a != f)
        sub._cls = tuple(c for a, c in enumerate(self._cls) if a != f)
        ind, sup = sub.solved_indicator(axis - (axis > f), cancel, with_support=True)
        pos = f if f < axis else f - 1
        shape = self.t.shape[:axis] + self.t.shape[axis + 1:]
        return (np.ascontiguousarray(np.broadcast_to(np.expand_dims(ind, pos), shape)),
                np.ascontiguousarray(np.broadcast_to(np.expand_dims(sup, pos), shape)))

    @staticmethod
    def reaction_is_constant_on(solved_ind: np.ndarray, support: np.ndarray) -> bool:
        """Whether a player reacts the same way in every world of a table, from their
        :meth:`solved_indicator` and the table's support along their axis (both as returned
        with ``with_support``; for an answers-only player, the support of the master table).
        Cost: one pass over arrays S times smaller than the table."""
        # bool arrays (last player) or uint64 words alike; padding bits are 0 in the support
        return not (any_and(solved_ind, support) and any_and(support, solved_ind, negate=True))

    def support(self, axis: int, cancel: CancelFlag = None) -> np.ndarray:
        """Where the player on ``axis`` has at least one valid stack (format of
        :meth:`solved_indicator`)."""
        return self.solved_indicator(axis, cancel, with_support=True)[1]

    def reaction_mask(self, axis: int, solved_ind: np.ndarray, solved: bool,
                      rows: slice = slice(None)) -> np.ndarray:
        """The broadcastable uint64 mask of the worlds where the player on ``axis`` reacts as
        ``solved`` (True = solved), given :meth:`solved_indicator` of the table that models
        that player's knowledge; restricted to ``rows`` of axis 0 (a chunk of the table), so
        that the mask of the last player is never built for the whole table at once."""
        if axis == self.n - 1:
            ind = solved_ind[rows]
            ok = ind if solved else ~ind
            return np.where(ok, ALL, np.uint64(0))[..., None]
        m = np.expand_dims(solved_ind, axis)
        if axis != 0:
            m = m[rows]
        return m if solved else ~m

    def keep_reaction(self, axis: int, solved_ind: np.ndarray, solved: bool,
                      cancel: CancelFlag = None, same_classes: bool = False) -> None:
        """Eq. (3)+(4) for one player: keep only worlds where their reaction is ``solved``.

        Args:
            same_classes: the indicator is invariant under this table's stack classes (it is
                the :meth:`solved_indicator` of a table with the same :meth:`classes`: this
                table, or the answers-only table of the same log), so the classes stay;
                otherwise they are forgotten (one class per stack).
        Raises:
            Cancelled: ``cancel`` returned True (checked every chunk of the table)."""
        self._new_version()
        self._keep_free(axis, solved_ind)
        self._keep_classes(same_classes)
        sparse = self._rows(refresh=False)
        if sparse is not None:
            c, X = sparse
            self._store_rows(c, X & self._sparse_mask(axis, solved_ind, solved, c))
            return
        self._touch(removed_only=True)
        if axis == 0:
            self.t &= self.reaction_mask(axis, solved_ind, solved)
            return
        for sl in self.chunks():
            check_cancel(cancel)
            if axis == self.n - 1:
                self._drop_last(self.t[sl], solved_ind[sl], solved)
            else:
                self.t[sl] &= self.reaction_mask(axis, solved_ind, solved, sl)

    def keep_reactions(self, reactions: Sequence[tuple], cancel: CancelFlag = None,
                       track: bool = False, track_dense: bool = True,
                       same_classes: bool = False) -> Optional[np.ndarray]:
        """Eqs. (3)+(4) for several players at once: :meth:`keep_reaction` for each
        ``(axis, solved_ind, solved)`` of ``reactions``, in one pass over the table.

        The filters only remove worlds and each reads its own indicator (computed before any
        of them), so their order does not matter and they commute with one another: the
        result equals the filters applied one by one. While few rows are non-empty, the
        compact rows are masked in place and written back once (instead of once per player);
        on a dense table each chunk of axis 0 (16 MB) is masked by every player while it is
        in cache (instead of one read and write of the whole table per player).

        Args:
            track: also return the rows (see :meth:`_rows`) the filters changed.
            track_dense: with ``track``, track on a whole (dense) table too (two bit counts
                of the table: 9-11 ms for five players; the caller says False where few
                refreshes pay, e.g. the first round after an answer).
            same_classes: as for :meth:`keep_reaction`, for every indicator.
        Returns:
            With ``track`` (and n >= 3, and ``track_dense`` or compact rows): int64 array, the
            sorted flat indices of the rows that lost a world (a row changed iff the bit
            count of one of its words dropped: the filters only remove worlds), for
            :meth:`refreshed_indicators`; otherwise None.
        Raises:
            Cancelled: ``cancel`` returned True (checked every chunk; the table is then
                half-filtered: discard it).
        """
        reactions = list(reactions)
        track = track and self.n >= 3 and self.t.flags.c_contiguous
        if len(reactions) < 2 and not track:
            for axis, ind, solved in reactions:
                self.keep_reaction(axis, ind, solved, cancel, same_classes)
            return None
        self._new_version()
        self._keep_classes(same_classes)
        for axis, ind, _solved in reactions:
            self._keep_free(axis, ind)
        if not reactions:
            return np.zeros(0, dtype=np.int64)
        sparse = self._rows(refresh=False)
        if sparse is not None:
            c, X = sparse
            before = self._word_counts(X) if track else None
            self._mask_rows(X, c, reactions, cancel)
            changed = c[self._rows_changed(before, X)] if track else None
            self._store_rows(c, X)
            return changed
        self._touch(removed_only=True)
        track = track and track_dense
        rows_per_index = self.t[0].size // (self.S * self.W)
        out = []
        for sl in self.chunks(_FILTER_CHUNK_BYTES):
            check_cancel(cancel)
            part = self.t[sl]
            before = self._word_counts(part) if track else None
            for axis, ind, solved in reactions:
                if axis == self.n - 1:
                    self._drop_last(part, ind[sl], solved)
                else:
                    part &= self.reaction_mask(axis, ind, solved, sl)
            if track:
                out.append(np.flatnonzero(self._rows_changed(before, part))
                           + sl.start * rows_per_index)
        return np.concatenate(out) if track else None

    def _mask_rows(self, X: np.ndarray, c: np.ndarray, reactions: Sequence[tuple],
                   cancel: CancelFlag = None) -> None:
        """Every reaction filter ``(axis, solved_ind, solved)`` on the compact rows ``X``
        (nr, S, W) of rows ``c``, in place, in blocks of rows that stay in cache while every
        player's mask is gathered and applied (one table-sized gather per player and a
        complemented copy of it took 20 ms per player at 40 000 rows of 56 words)."""
        n, S, W = self.n, self.S, self.W
        prep = []
        for axis, ind, solved in reactions:
            if axis == n - 1:
                prep.append((axis, ind.reshape(-1, S), solved, c))
                continue
            src = ind if solved else ~ind          # S^(n-2) words: complemented once
            if axis == n - 2:
                prep.append((axis, src.reshape(-1, W), solved, c))
            else:
                prep.append((axis, src.reshape(-1, S, W), solved, self._without(c, axis)))
        step = max(1, _MASK_ROWS_WORDS // (S * W))
        buf = np.empty((min(step, X.shape[0]), S, W), dtype=np.uint64)
        for r0 in range(0, X.shape[0], step):
            if r0 % (step * 16) == 0:
                check_cancel(cancel)
            xb = X[r0:r0 + step]
            m = xb.shape[0]
            for axis, src, solved, key in prep:
                k = key[r0:r0 + m]
                if axis == n - 1:
                    self._drop_last(xb, src[k], solved)
                elif axis == n - 2:
                    xb &= src[k][:, None, :]
                else:
                    np.take(src, k, axis=0, out=buf[:m])
                    xb &= buf[:m]

    def _word_counts(self, words: np.ndarray) -> np.ndarray:
        """uint8 (rows, S*W): the bit count of each word of ``words``, by row."""
        return np.bitwise_count(words.reshape(-1, self.S * self.W))

    def _rows_changed(self, before: np.ndarray, words: np.ndarray) -> np.ndarray:
        """bool (rows,): the rows of ``words`` whose word bit counts differ from ``before``
        (:meth:`_word_counts`); the bytes compared eight at a time (2.3 against 3.9 ms per
        16 MB chunk for sums of the counts by row)."""
        ne = np.not_equal(before, self._word_counts(words))
        if ne.shape[1] % 8:
            return ne.any(axis=1)
        v = ne.view(np.uint64)
        r = v[:, 0].copy()
        for k in range(1, v.shape[1]):
            r |= v[:, k]
        return r != 0

    @staticmethod
    def _drop_last(part: np.ndarray, ind: np.ndarray, solved: bool) -> None:
        """The last player's reaction filter on words ``part`` (..., W), in place: a row's
        words are all kept or all cleared, by the bool indicator ``ind`` (...) — a masked
        write of zeros (3.5 ms on the dense five-player table, against 14.4 ms for an AND with
        a uint64 mask built from the indicator)."""
        drop = ~ind if solved else ind
        np.copyto(part, np.uint64(0), where=drop[..., None])

    def _keep_classes(self, same_classes: bool) -> None:
        """After a reaction filter: keep the stack classes when its indicators are invariant
        under them, else forget them (one class per stack; see :meth:`classes`)."""
        if not same_classes:
            self._cls = tuple(np.arange(self.S, dtype=np.int64) for _ in range(self.n - 1))

    def _keep_free(self, axis: int, solved_ind: np.ndarray) -> None:
        """Update the free axes for a reaction filter of the player on ``axis`` (see
        :meth:`keep_reaction`)."""
        if self._free:
            # a free axis stays free when the mask does not depend on it: the mask of the
            # player on it is constant along it; another player's indicator is checked
            keep = set()
            for f in self._free:
                if f == axis:
                    keep.add(f)
                    continue
                pos = f if f < axis else f - 1
                first = np.take(solved_ind, [0], axis=pos)
                if bool((solved_ind == first).all()):
                    keep.add(f)
            self._free = frozenset(keep)

    # ------------------------------------------------------------------ eq. (5)
    def reset_player(self, axis: int, stack: int, cancel: CancelFlag = None) -> None:
        """Eq. (5): the player on ``axis`` revealed ``stack`` and took a new, unknown stack.

        Keeps the worlds where they held ``stack`` and makes their coordinate free again.

        Raises:
            Cancelled: ``cancel`` returned True (checked every chunk; the table is then
                half-changed: discard it).
        """
        self._new_version()
        self._touch()
        # the worlds no longer depend on this player's stack; the other free axes stay free
        # (the slice copied along ``axis`` is constant along them)
        if axis < self.n - 1:
            self._free = self._free | {axis}
            # one class: the table no longer depends on their stack
            self._cls = tuple(np.zeros(self.S, dtype=np.int64) if a == axis else c
                              for a, c in enumerate(self._cls))
        if axis == self.n - 1 and self.W == 1:
            # one word per row, in place: (x >> s) & 1, negated (all ones where the bit was set),
            # AND the valid bits; chunks of 1 MB stay in cache (25 -> 6 ms on the five-player
            # table, against a bit test, a bool and np.where into new arrays)
            flat = self.t.reshape(-1)
            step = 1 << 17
            shift, one = np.uint64(stack), np.uint64(1)
            for r0 in range(0, flat.size, step):
                if r0 % (step * 16) == 0:
                    check_cancel(cancel)
                part = flat[r0:r0 + step]
                np.right_shift(part, shift, out=part)
                part &= one
                np.negative(part, out=part)
                part &= self.full[0]
        elif axis == self.n - 1:
            for sl in self.chunks():
                check_cancel(cancel)
                part = self.t[sl]
                bit = (part[..., stack // 64] >> np.uint64(stack % 64)) & np.uint64(1)
                part[...] = np.where(bit.astype(bool)[..., None], self.full, np.uint64(0))
        else:
            idx = [slice(None)] * (self.n - 1)
            idx[axis] = stack
            held = np.expand_dims(self.t[tuple(idx)].copy(), axis)
            for sl in self.chunks():      # the worlds where they held it, along their axis
                check_cancel(cancel)
                self.t[sl] = held if axis == 0 else held[sl]

    # ------------------------------------------------------------------ projections
    def row(self, axis: int, world: Sequence[int]) -> np.ndarray:
        """bool (S,): the valids of the player on ``axis`` when the others hold ``world``
        (world[axis] is ignored) — one row of the conditional information V_p (Remark A.3)."""
        w = [int(x) for x in world]
        if axis == self.n - 1:
            return unpack_bits(self.t[tuple(w[:-1])], self.S)
        idx = list(w[:-1])
        idx[axis] = slice(None)
        words = self.t[tuple(idx)]  # (S, W)
        last = w[-1]
        return ((words[:, last // 64] >> np.uint64(last % 64)) & np.uint64(1)).astype(bool)

    def row_count(self, axis: int, world: Sequence[int]) -> int:
        """Size of :meth:`row` (int)."""
        return int(self.row(axis, world).sum())


def indicator_at(table_n: int, S: int, axis: int, ind: np.ndarray, world: Sequence[int]) -> np.ndarray:
    """Read a :meth:`BitTable.solved_indicator` result along the last player's stacks.

    Returns bool (S,): for each stack v of the last player, whether the player on ``axis``
    would solve in the world ``world`` with the last player's stack replaced by v.
    ``axis`` must not be the last axis.
    """
    idx = [int(x) for i, x in enumerate(world[:-1]) if i != axis]
    return unpack_bits(ind[tuple(idx)], S)
