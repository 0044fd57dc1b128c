"""Answer forms and their likelihoods, by enumeration of the sets an opponent may show.

A *form* is ``(question, asked, mission)``. Its answer set lists every set of statements of an
allowed shape (:func:`engines.inkognito.model.form_shapes`); each set is ``(imask, bmask)``, bit
``j`` set when identity/build ``j`` is shown. For a true cell ``(i, b)`` of the opponent:

* valid: player forms — at least one statement true; ambassador — exactly one true;
* "lone": (player question, no mission card) only the lone statement of the other kind is
  true; "pair": the asked pair contains the truth (valid and not lone).

Likelihoods (seed 000, "Likelihood"; the deception extension of issue 3):

* indifferent opponent: ``P(a | i, b) = valid[a, i, b] / n_valid(i, b)`` — 1/15 for a player
  question, 1/3 for the ambassador; the counts come from the enumeration, not hard-coded;
* deception model, player question without mission: with probability θ the opponent picks
  uniformly among the "lone" answers, else among the "pair" answers:
  ``P(a | i, b, θ) = θ lone/n_lone + (1-θ) pair/n_pair``; θ = n_lone/n_valid = 3/15 = 0.2
  gives back the indifferent opponent. Other forms stay uniform.
* no-repeat rule: the sets ``S`` this opponent already showed me are removed from the choice
  set and the rest renormalised, ``P(a | w, S) = P(a | w) / Σ_{a' ∉ S} P(a' | w)``.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Iterable, Optional

import numpy as np

from engines.inkognito.model import form_shapes


@dataclass(frozen=True, eq=False)
class FormTable:
    """Every answer of one form and its truth classes.

    Attributes:
        form: ``(question, asked, mission)``.
        answers: tuple of ``(imask, bmask)``, length A.
        index: dict ``(imask, bmask) -> row``.
        valid, lone, pair: bool arrays, shape (A, 16): column ``4 i + b`` is the opponent's cell.
        deceptive: whether the θ model applies to this form.
    """

    form: tuple
    answers: tuple
    index: dict
    valid: np.ndarray
    lone: np.ndarray
    pair: np.ndarray
    deceptive: bool

    def likelihood(self, thetas: Optional[np.ndarray]) -> np.ndarray:
        """``P(a | cell, θ)``, shape (A, 16, G) (G = 1 when ``thetas`` is None: indifferent)."""
        if thetas is None or not self.deceptive:
            n = self.valid.sum(0)
            base = np.where(n > 0, self.valid / np.maximum(n, 1), 0.0)
            g = 1 if thetas is None else len(thetas)
            return np.repeat(base[:, :, None], g, axis=2)
        nl = np.maximum(self.lone.sum(0), 1)
        npair = np.maximum(self.pair.sum(0), 1)
        t = np.asarray(thetas, dtype=float)[None, None, :]
        return (t * (self.lone / nl)[:, :, None]
                + (1.0 - t) * (self.pair / npair)[:, :, None])


def _masks(n: int, k: int) -> list:
    return [sum(1 << j for j in c) for c in combinations(range(4), k)] if k else [0]


@lru_cache(maxsize=None)
def form_table(question: str, asked: str, mission: bool = False) -> FormTable:
    """The :class:`FormTable` of a form (cached)."""
    answers = []
    for ni, nb in form_shapes(question, asked, mission):
        for im in _masks(4, ni):
            for bm in _masks(4, nb):
                answers.append((im, bm))
    A = len(answers)
    valid = np.zeros((A, 16), dtype=bool)
    lone = np.zeros((A, 16), dtype=bool)
    for a, (im, bm) in enumerate(answers):
        for i in range(4):
            for b in range(4):
                ti, tb = bool(im >> i & 1), bool(bm >> b & 1)
                n_true = ti + tb
                if question == "ambassador":
                    ok = n_true == 1
                else:
                    ok = n_true >= 1
                valid[a, 4 * i + b] = ok
                if question == "player" and not mission:
                    lone[a, 4 * i + b] = (tb and not ti) if asked == "identity" else \
                        (ti and not tb)
    pair = valid & ~lone
    for arr in (valid, lone, pair):
        arr.setflags(write=False)
    deceptive = question == "player" and not mission
    return FormTable((question, asked, mission), tuple(answers),
                     {x: k for k, x in enumerate(answers)}, valid, lone, pair, deceptive)


def answer_likelihood(table: FormTable, answer: tuple, shown: Iterable[tuple],
                      thetas: Optional[np.ndarray]) -> np.ndarray:
    """``P(answer | cell, θ, shown excluded)``, shape (16, G).

    Args:
        table: the answer's form; answer: ``(imask, bmask)``;
        shown: sets this opponent showed me before (excluded from the choice set; those not
            of this form are ignored); thetas: θ grid (None: indifferent opponent).
    """
    L = table.likelihood(thetas)
    a = table.index[answer]
    excl = [table.index[s] for s in set(shown) if s in table.index]
    if not excl:
        return L[a]
    if a in excl:
        return np.zeros_like(L[a])
    keep = np.ones(len(table.answers), dtype=bool)
    keep[excl] = False
    denom = L[keep].sum(0)
    return np.where(denom > 0, L[a] / np.where(denom > 0, denom, 1.0), 0.0)
