"""Optimal play beyond one-step greed.

Two computations:

* :func:`expected_questions` — the minimum expected number of yes/no questions needed to
  identify the secret character among a candidate set, every candidate equally likely, when
  only the board's questions may be asked. Exact dynamic programming over the candidate
  subsets reachable by asking questions, memoised on bitmasks (bit i = character i). Only the
  partition a question induces matters, so questions giving the same split of a subset are
  evaluated once. Branch and bound: the sum of depths of any binary decision tree with n
  leaves is at least the balanced (Huffman) value ``D*(n) = n*k + 2(n - 2^k)``,
  ``k = floor(log2 n)``; a question whose split (a, n-a) has ``n + D*(a) + D*(n-a)`` no better
  than the best found is never expanded, and the search of a subset stops as soon as it reaches
  its own bound ``D*(n)``. A subset that no board question splits is finished by naming
  characters one by one ("is it Alex?"), the only questions left.

* :func:`race_win_probability` — the two-player race of M. Nica, "Optimal strategy in Guess
  Who?: Beyond binary search", Probability in the Engineering and Informational Sciences 30(4)
  (2016), 576–592 (arXiv:1509.03327). Each player is reduced to a count of candidates; the
  player to move with n candidates may ask a question with any split (b, n-b), b = 1..n/2, and
  goes to b or n-b with probabilities b/n and (n-b)/n; then the opponent moves. Under the
  *official* rules naming a character takes a turn and a wrong name loses, so a player who
  starts a turn with one candidate wins, and one with n may gamble on a name (wins with 1/n):

      P(1, m) = 1,
      P(n, m) = max( 1/n, max_b  b/n (1 - P(m, b)) + (n-b)/n (1 - P(m, n-b)) ).

  Under the *instant* rule a player wins the moment their own count reaches one:

      P(n, m) = max_b  sum_{k in {b, n-b}} k/n * (1 if k == 1 else 1 - P(m, k)).

  With 24 candidates each the first player wins with probability 5/9 (official) and 91/144
  (instant), Nica's values. A trailing player's best split is often bold (uneven): a small
  chance to catch up beats a sure but slow halving.
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Optional, Sequence

from engines.core.errors import CancelFlag, check_cancel

RULES = ("official", "instant")


def balanced_depth_sum(n: int) -> int:
    """``D*(n)``: the least possible sum of leaf depths of a binary tree with ``n`` leaves
    (the balanced tree; Huffman coding of n equal weights). ``D*(1) = 0``, ``D*(2) = 2``."""
    if n <= 1:
        return 0
    k = n.bit_length() - 1
    return n * k + 2 * (n - (1 << k))


def _popcount(x: int) -> int:
    return x.bit_count()


#: Cancel is checked at least once per this many (subset, question) steps of the DP — a few
#: milliseconds of Python (``tests/benchmarks/bench_guesswho_cancel.py``), so Cancel is honoured
#: well within 0.2 s however many compound questions a board has.
CANCEL_EVERY_OPS = 20_000


class BudgetExceeded(Exception):
    """Internal: the DP expanded more new subsets than its budget allowed."""


class QuestionDP:
    """Exact minimum expected number of questions, memoised on candidate bitmasks.

    One instance per (board, question set); the memo is shared by every call on it, so after
    the first call on the full board every later subset reached by answers is already known.

    Args:
        question_masks: bitmask of the characters for which each question is true
            (length Q). Only the partitions matter.
        cancel: optional zero-argument callable; :class:`~engines.core.errors.Cancelled` is
            raised when it returns True (checked every 2048 new subsets and at least every
            :data:`CANCEL_EVERY_OPS` subset x question steps).
    """

    def __init__(self, question_masks: Sequence[int]):
        self.questions = tuple(int(m) for m in question_masks)
        self.memo: dict[int, tuple[int, int]] = {}  # mask -> (depth sum, best question index)
        self._cancel: CancelFlag = None
        self._count = 0
        self._ops = 0
        self._limit: Optional[int] = None

    def depth_sum(self, mask: int, cancel: CancelFlag = None) -> int:
        """Minimum total number of questions summed over the candidates in ``mask`` (an int
        >= 0); the expected number is this divided by ``popcount(mask)``."""
        self._cancel = cancel
        return self._solve(mask)[0]

    def best(self, mask: int, cancel: CancelFlag = None, budget: Optional[int] = None
             ) -> tuple[float, int]:
        """``(expected number of questions, index of an optimal question or -1)`` for the
        candidate set ``mask`` (uniform prior). -1 means no board question splits the set
        (name a character) or the set has at most one candidate.

        Args:
            budget: at most this many new subsets are solved in this call (None: no limit).
                Solved subsets stay in the memo, so a later call continues the work.
        Raises:
            Cancelled: when ``cancel`` became true.
            BudgetExceeded: the budget ran out (use :meth:`heuristic` for an upper bound).
        """
        n = _popcount(mask)
        if n <= 1:
            return 0.0, -1
        self._cancel = cancel
        self._limit = None if budget is None else self._count + budget
        try:
            d, qi = self._solve(mask)
        finally:
            self._limit = None
        return d / n, qi

    def heuristic(self, mask: int) -> tuple[float, int]:
        """An upper bound on the expected number of questions: the tree that asks the most
        balanced question at every node (the “Guess Who Solver” notebook's greedy rule), using exact memo values where
        known. Returns ``(expected number of questions, question index or -1)``."""
        n = _popcount(mask)
        if n <= 1:
            return 0.0, -1

        def tree(s: int) -> tuple[int, int]:
            hit = self.memo.get(s)
            if hit is not None:
                return hit
            k = _popcount(s)
            if k <= 1:
                return (0, -1)
            best_i, best_a = -1, 0
            for i, q in enumerate(self.questions):
                a = _popcount(q & s)
                a = min(a, k - a)
                if a > best_a:
                    best_i, best_a = i, a
            if best_i < 0:
                return (k * (k + 1) // 2 - 1, -1)
            a = self.questions[best_i] & s
            return (k + tree(a)[0] + tree(s ^ a)[0], best_i)

        d, qi = tree(mask)
        return d / n, qi

    def _solve(self, mask: int) -> tuple[int, int]:
        hit = self.memo.get(mask)
        if hit is not None:
            return hit
        n = _popcount(mask)
        if n <= 1:
            return (0, -1)
        if n == 2:
            # any split of two is 1|1; use a board question when one exists
            qi = next((i for i, q in enumerate(self.questions) if 0 != (q & mask) != mask), -1)
            res = (2, qi)
            self.memo[mask] = res
            return res
        self._count += 1
        # Cancel is checked by work, not by subsets: each subset costs one pass over the
        # questions, and compound questions make thousands of them
        self._ops += len(self.questions)
        if self._ops >= CANCEL_EVERY_OPS or self._count & 2047 == 0:
            self._ops = 0
            check_cancel(self._cancel)
        if self._limit is not None and self._count > self._limit:
            raise BudgetExceeded()
        # distinct partitions, keyed by the smaller side
        parts: dict[int, int] = {}
        for i, q in enumerate(self.questions):
            a = q & mask
            if a == 0 or a == mask:
                continue
            b = mask ^ a
            key = a if a < b else b
            if key not in parts:
                parts[key] = i
        if not parts:
            # indistinguishable: name them one by one; depths 1, 2, ..., n-1, n-1
            res = (n * (n + 1) // 2 - 1, -1)
            self.memo[mask] = res
            return res
        lower = balanced_depth_sum(n)
        cands = []
        for key, i in parts.items():
            a = _popcount(key)
            lb = n + balanced_depth_sum(a) + balanced_depth_sum(n - a)
            cands.append((lb, i, key))
        cands.sort()
        best_val, best_q = None, -1
        for lb, i, key in cands:
            if best_val is not None and lb >= best_val:
                break
            other = mask ^ key
            va = self._solve(key)[0]
            if best_val is not None and n + va + balanced_depth_sum(_popcount(other)) >= best_val:
                continue
            v = n + va + self._solve(other)[0]
            if best_val is None or v < best_val:
                best_val, best_q = v, i
                if best_val <= lower:
                    break
        res = (best_val, best_q)
        self.memo[mask] = res
        return res


def brute_force_expected_questions(masks: Sequence[int], mask: int) -> Fraction:
    """Reference: minimum expected number of questions by plain recursion over every question
    (no bounds, no partition merging). Exponential; for tests on small boards only."""
    from functools import lru_cache as _lc

    qs = tuple(masks)

    @_lc(maxsize=None)
    def f(s: int) -> int:
        n = _popcount(s)
        if n <= 1:
            return 0
        best = None
        for q in qs:
            a = q & s
            if a == 0 or a == s:
                continue
            v = n + f(a) + f(s ^ a)
            best = v if best is None else min(best, v)
        if best is None:
            return n * (n + 1) // 2 - 1
        return best

    n = _popcount(mask)
    return Fraction(f(mask), n) if n else Fraction(0)


# ----------------------------------------------------------------------------- the race

@lru_cache(maxsize=None)
def _race(n: int, m: int, instant: bool) -> tuple[Fraction, int]:
    """(P(win) for the player to move with n candidates against m, best yes-count b or 0 for
    naming a character)."""
    if n <= 1:
        return Fraction(1), 0
    best, best_b = (Fraction(1, n), 0) if not instant else (Fraction(-1), 0)
    for b in range(1, n // 2 + 1):
        v = Fraction(0)
        for k in (b, n - b):
            if instant and k == 1:
                v += Fraction(k, n)
            else:
                v += Fraction(k, n) * (1 - _race(m, k, instant)[0])
        if v >= best:  # ties: the most balanced split
            best, best_b = v, b
    return best, best_b


_FILLED: dict[bool, int] = {False: 0, True: 0}


def _fill(n: int, m: int, instant: bool) -> None:
    # build the table bottom-up (by n + m) so the recursion never goes deep; once per size
    top = max(n, m)
    if _FILLED[instant] >= top:
        return
    for s in range(2, 2 * top + 1):
        for a in range(max(1, s - top), min(top, s - 1) + 1):
            _race(a, s - a, instant)
    _FILLED[instant] = top


def race_win_probability(n: int, m: int, rules: str = "official") -> Fraction:
    """Exact probability that the player about to ask, with ``n`` candidates left, beats an
    opponent with ``m`` left, both playing optimally (Nica 2016; see the module docstring).

    Args:
        n, m: candidate counts, >= 1.
        rules: ``"official"`` (naming takes a turn, a wrong name loses) or ``"instant"`` (you
            win the moment you are down to one candidate).
    Returns:
        a :class:`fractions.Fraction` in [0, 1] (``race_win_probability(24, 24) == 5/9``).
    Raises:
        ValueError: n or m < 1, or unknown rules.
    """
    if n < 1 or m < 1:
        raise ValueError("candidate counts must be at least 1")
    if rules not in RULES:
        raise ValueError(f"unknown rules {rules!r}")
    _fill(n, m, rules == "instant")
    return _race(n, m, rules == "instant")[0]


def race_best_split(n: int, m: int, rules: str = "official") -> tuple[int, int]:
    """The split ``(yes, no)`` (yes <= no, yes + no = n) the player to move should aim for in
    Nica's race, or ``(0, n)`` when naming a character at random is at least as good (official
    rules only; never for n >= 2 in practice except tiny counts). ``(1, 0)`` when n == 1.

    Raises:
        ValueError: as :func:`race_win_probability`.
    """
    race_win_probability(n, m, rules)
    if n == 1:
        return (1, 0)
    b = _race(n, m, rules == "instant")[1]
    return (b, n - b)
