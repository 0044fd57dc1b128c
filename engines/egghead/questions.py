"""Stacks and the question deck of Egghead, evaluated vectorised over stacks and worlds.

A *stack* is a player's cards as a sorted tuple (combinations with replacement of ``k``
cards from the values ``1..v``; Zorn 2024, Definition 3.2: 56 stacks for k=3, v=6). Stacks
are numbered 0..S-1 in lexicographic order (:class:`StackSpace`).

A question (the deck is data: ``resources/egghead/questions.json``) is evaluated as

    answer = final( combine_{p in seen players} stack_feature(s_p) )

with a per-stack number ``stack_feature`` (:data:`STACK_FEATURES`), an associative
``combine`` (sum, or, max, min) and a ``final`` map (identity, missing, popcount, even).
This is Zorn's (2024) answering function f (Definition 3.3) restricted to questions that
decompose over players, which is what lets the master table apply an answer to every world
at once (see :mod:`engines.egghead.table`).
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable, Sequence

import numpy as np

from engines.core.errors import SessionFormatError
from engines.core.resources import load_json_resource
from engines.core.schema import Reader

DECK_FILE = ("egghead", "questions.json")


@dataclass(frozen=True)
class StackSpace:
    """All stacks of ``cards`` cards with values ``1..values`` (sorted tuples, lexicographic).

    Attributes:
        values: v, the highest card value.
        cards: k, cards per player.
        stacks: int8 array (S, k), row i is stack i (sorted ascending).
        weights: float array (S,), the prior probability of each stack when every card is
            drawn uniformly from 1..v (the multinomial weight k!/prod(m_x!) / v^k; sums to 1).
    """

    values: int
    cards: int
    stacks: np.ndarray = field(repr=False, compare=False, hash=False)
    weights: np.ndarray = field(repr=False, compare=False, hash=False)

    @property
    def size(self) -> int:
        """S, the number of stacks (C(v+k-1, k))."""
        return int(self.stacks.shape[0])

    def index(self, stack: Sequence[int]) -> int:
        """Index of a stack (any order of the cards). Raises KeyError for a bad stack."""
        return _index_map(self.values, self.cards)[tuple(sorted(int(c) for c in stack))]

    def stack(self, i: int) -> tuple[int, ...]:
        """The sorted stack with index ``i``."""
        return tuple(int(c) for c in self.stacks[i])


@lru_cache(maxsize=32)
def stack_space(values: int, cards: int) -> StackSpace:
    """The (cached) :class:`StackSpace` for ``values`` v and ``cards`` k."""
    combos = list(itertools.combinations_with_replacement(range(1, values + 1), cards))
    arr = np.array(combos, dtype=np.int8).reshape(len(combos), cards)
    w = np.empty(len(combos))
    for i, c in enumerate(combos):
        m = np.bincount(np.asarray(c), minlength=values + 1)
        w[i] = math.factorial(cards) / np.prod([math.factorial(int(x)) for x in m])
    w /= float(values) ** cards
    arr.setflags(write=False)
    w.setflags(write=False)
    return StackSpace(values, cards, arr, w)


@lru_cache(maxsize=32)
def _index_map(values: int, cards: int) -> dict:
    sp = stack_space(values, cards)
    return {sp.stack(i): i for i in range(sp.size)}


# ---------------------------------------------------------------- per-stack features

def _count(st, p, v):
    return (st == p["value"]).sum(1)


def _count_in(st, p, v):
    return np.isin(st, np.asarray(p["values"])).sum(1)


def _count_ge(st, p, v):
    return (st >= p["value"]).sum(1)


def _count_le(st, p, v):
    return (st <= p["value"]).sum(1)


def _mask(st, p, v):
    out = np.zeros(st.shape[0], dtype=np.int64)
    for j in range(st.shape[1]):
        out |= np.left_shift(1, st[:, j].astype(np.int64) - 1)
    return out


def _n_distinct(st):
    return (np.diff(st, axis=1) != 0).sum(1) + 1


STACK_FEATURES: dict[str, Callable] = {
    "count": _count,
    "count-in": _count_in,
    "count-ge": _count_ge,
    "count-le": _count_le,
    "sum": lambda st, p, v: st.sum(1),
    "mask": _mask,
    "max": lambda st, p, v: st.max(1),
    "min": lambda st, p, v: st.min(1),
    "middle": lambda st, p, v: st[:, st.shape[1] // 2],
    "range": lambda st, p, v: st.max(1) - st.min(1),
    "pair": lambda st, p, v: (_n_distinct(st) < st.shape[1]).astype(int),
    "all-equal": lambda st, p, v: (st.max(1) == st.min(1)).astype(int),
    "all-different": lambda st, p, v: (_n_distinct(st) == st.shape[1]).astype(int),
    "run": lambda st, p, v: (np.diff(st, axis=1) == 1).all(1).astype(int),
    "contains": lambda st, p, v: (st == p["value"]).any(1).astype(int),
    "distinct": lambda st, p, v: _n_distinct(st),
}
"""Per-stack numbers a question combines (each maps stacks (S, k) -> non-negative ints (S,))."""

_PARAMS = {"count": "value", "count-ge": "value", "count-le": "value", "contains": "value",
           "count-in": "values"}
COMBINES = ("sum", "or", "max", "min")
FINALS = ("identity", "missing", "popcount", "even")
_UFUNC = {"sum": np.add, "or": np.bitwise_or, "max": np.maximum, "min": np.minimum}


def _popcount(x):
    return np.bitwise_count(np.asarray(x, dtype=np.uint64)).astype(np.int64)


@dataclass(frozen=True)
class QuestionSpec:
    """One card of the question deck, as data (id, text, how it is evaluated).

    Attributes:
        id: stable identifier used in session files (``"missing"``, ``"sum"``, ``"count-6"``).
        text: the question as read aloud (``{values}`` is replaced by v).
        stack: name in :data:`STACK_FEATURES`; ``param``: its value or tuple of values.
        combine: one of :data:`COMBINES`; ``final``: one of :data:`FINALS`.
    """

    id: str
    text: str
    stack: str
    combine: str
    final: str = "identity"
    param: object = None

    def applicable(self, values: int) -> bool:
        """Whether the question makes sense with cards 1..``values`` (its values exist)."""
        if self.param is None:
            return True
        if isinstance(self.param, tuple):
            return any(1 <= x <= values for x in self.param)
        return 1 <= self.param <= values

    def display_text(self, values: int) -> str:
        return self.text.replace("{values}", str(values))

    def to_json(self) -> dict:
        ev = {"stack": self.stack, "combine": self.combine}
        if self.final != "identity":
            ev["final"] = self.final
        if self.param is not None:
            ev[_PARAMS[self.stack]] = list(self.param) if isinstance(self.param, tuple) else self.param
        return {"id": self.id, "text": self.text, "eval": ev}


def parse_deck(obj, path: str = "$") -> tuple[QuestionSpec, ...]:
    """Validate a question deck object (the format of ``resources/egghead/questions.json``).

    Raises:
        SessionFormatError: a bad field, named by its JSON path.
    """
    r = Reader(obj, path)
    items = r.list("questions", min_len=1)
    out, seen = [], set()
    for i, q in enumerate(items):
        qp = f"{r.sub('questions')}[{i}]"
        qr = Reader(q, qp)
        qid = qr.str("id")
        if qid in seen:
            raise qr.error("id", f"question id {qid!r} appears twice")
        seen.add(qid)
        ev = qr.child("eval")
        stack = ev.choice("stack", list(STACK_FEATURES), what="stack feature")
        param = None
        if stack in _PARAMS:
            key = _PARAMS[stack]
            if key == "values":
                vals = ev.list(key, min_len=1)
                for j, x in enumerate(vals):
                    if isinstance(x, bool) or not isinstance(x, int) or x < 1:
                        raise SessionFormatError(f"{ev.sub(key)}[{j}]", "expected a card value >= 1")
                param = tuple(vals)
            else:
                param = ev.int(key, min=1)
        out.append(QuestionSpec(id=qid, text=qr.str("text"), stack=stack,
                                combine=ev.choice("combine", COMBINES, what="combine"),
                                final=ev.choice("final", FINALS, "identity", what="final"),
                                param=param))
    return tuple(out)


@lru_cache(maxsize=1)
def load_deck() -> tuple[QuestionSpec, ...]:
    """The bundled question deck (``resources/egghead/questions.json``), in deck order."""
    return parse_deck(load_json_resource(*DECK_FILE), "questions.json")


class Question:
    """A question bound to a stack space: vectorised evaluation over stacks and worlds.

    Attributes:
        spec: the :class:`QuestionSpec`.
        feature: int64 array (S,), the per-stack number.
        identity: the neutral element of ``combine`` (0 for sum/or/max; max(feature)+1 for min).
        bound: partial aggregates of any number of stacks lie in ``0..bound-1`` for the player
            count it was bound with.
    """

    def __init__(self, spec: QuestionSpec, space: StackSpace, players: int):
        self.spec = spec
        self.space = space
        params = {"value": spec.param, "values": spec.param}
        self.feature = np.asarray(STACK_FEATURES[spec.stack](space.stacks.astype(np.int64),
                                                             params, space.values), dtype=np.int64)
        self.ufunc = _UFUNC[spec.combine]
        fmax = int(self.feature.max())
        if spec.combine == "sum":
            self.identity, self.bound = 0, players * fmax + 1
        elif spec.combine == "or":
            self.identity, self.bound = 0, 1 << max(fmax.bit_length(), 1)
        elif spec.combine == "max":
            self.identity, self.bound = 0, fmax + 1
        else:
            self.identity, self.bound = fmax + 1, fmax + 2

    @property
    def id(self) -> str:
        return self.spec.id

    def final(self, total):
        """Map combined values (int array) to answers (int64 array)."""
        t = np.asarray(total, dtype=np.int64)
        f = self.spec.final
        if f == "identity":
            return t
        if f == "missing":
            return self.space.values - _popcount(t)
        if f == "popcount":
            return _popcount(t)
        return (t % 2 == 0).astype(np.int64)

    def combine_all(self, stack_indices: Sequence[int]) -> int:
        """The combined feature of the given stacks (the identity for none)."""
        acc = np.int64(self.identity)
        for s in stack_indices:
            acc = self.ufunc(acc, self.feature[s])
        return int(acc)

    def answer(self, stack_indices: Sequence[int]) -> int:
        """The moderator's answer for the stacks they see (indices into the stack space)."""
        return int(self.final(self.combine_all(stack_indices)))

    def possible_answers(self, seen_players: int) -> list[int]:
        """All answers some world can produce when the moderator sees ``seen_players`` stacks."""
        totals = {self.identity}
        uniq = np.unique(self.feature)
        for _ in range(seen_players):
            totals = set(int(x) for x in np.unique(self.ufunc(np.fromiter(totals, np.int64)[:, None],
                                                               uniq[None, :])))
        return sorted(set(int(a) for a in self.final(np.fromiter(totals, np.int64))))

    def ok_given_partial(self, answer: int, include_last: bool) -> np.ndarray:
        """bool (bound, S): whether partial aggregate p of the other seen players, combined with
        stack v of one more player (when ``include_last``), gives ``answer``."""
        p = np.arange(self.bound, dtype=np.int64)
        if include_last:
            return self.final(self.ufunc(p[:, None], self.feature[None, :])) == answer
        ok = self.final(p) == answer
        return np.repeat(ok[:, None], self.space.size, axis=1)


@lru_cache(maxsize=64)
def bound_deck(values: int, cards: int, players: int) -> dict:
    """``{id: Question}`` for the bundled deck's questions applicable to the setting."""
    sp = stack_space(values, cards)
    return {q.id: Question(q, sp, players) for q in load_deck() if q.applicable(values)}
