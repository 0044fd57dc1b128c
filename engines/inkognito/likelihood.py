"""Answer forms and their likelihoods, by enumeration of the sets an opponent may show.

A *form* is ``(question, asked, mission)``. Its answer set lists every set of statements of an
allowed shape (:func:`engines.inkognito.model.form_shapes`); each set is ``(imask, bmask)``, bit
``j`` set when identity/build ``j`` is shown. For a true cell ``(i, b)`` of the opponent:

* valid: player forms — at least one statement true; ambassador — exactly one true;
* "lone": (player question, no mission card) only the lone statement of the other kind is
  true; "pair": the asked pair contains the truth (valid and not lone).

Likelihoods (Höhle's Inkognito post, "Likelihood"; the deception extension):

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
        """``P(a | cell, θ)``, shape (A, 16, G) (G = 1 when ``thetas`` is None: indifferent).

        Read-only array, cached per θ grid (the same grid is used for a whole session).
        """
        key = None if thetas is None else np.asarray(thetas, dtype=float).tobytes()
        return _base_likelihood(self, key)

    def _compute(self, thetas: Optional[np.ndarray]) -> np.ndarray:
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

    def likelihood_excluding(self, thetas: Optional[np.ndarray],
                             shown: Iterable[tuple]) -> np.ndarray:
        """``P(a | cell, θ, S)`` for every answer ``a`` of the form, shape (A, 16, G), where
        the sets ``S`` already shown (those of this form) are removed from the choice set and
        the rest renormalised (rows of excluded sets are 0). Cells with no answer left have
        all-zero columns."""
        L = self.likelihood(thetas)
        excl = sorted({self.index[s] for s in shown if s in self.index})
        if not excl:
            return L
        keep = np.ones(len(self.answers), dtype=bool)
        keep[excl] = False
        denom = L[keep].sum(0)
        out = np.where(keep[:, None, None], L, 0.0)
        return np.where(denom > 0, out / np.where(denom > 0, denom, 1.0), 0.0)


@lru_cache(maxsize=256)
def _base_likelihood(table: "FormTable", key: Optional[bytes]) -> np.ndarray:
    thetas = None if key is None else np.frombuffer(key, dtype=float)
    L = table._compute(thetas)
    L.setflags(write=False)
    return L


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


@dataclass(frozen=True)
class AnswerForm:
    """One answer form the rules allow (see :func:`answer_forms`).

    Attributes:
        question: ``"player"`` or ``"ambassador"``; asked: ``"identity"`` or ``"build"``.
        mission: the mission card replaces one of the cards (player question only).
        shapes: allowed ``(number of identities, number of builds)`` ticked, e.g. ``((2, 1),)``.
        rule: ``"at least one true"`` or ``"exactly one true"`` (of the statements shown).
        choices: how many sets of statements are valid for one true (identity, build) — the
            denominator of the indifferent likelihood (15, 10 or 3; from the enumeration).
        deceptive: whether the θ deception model applies to this form.
        certain: False where the rulebook facts are uncertain (see :func:`answer_forms`).
        description: the form in words, for the tab's help text.
    """

    question: str
    asked: str
    mission: bool
    shapes: tuple
    rule: str
    choices: int
    deceptive: bool
    certain: bool
    description: str

    def to_json(self) -> dict:
        return {"question": self.question, "asked": self.asked, "mission": self.mission,
                "shapes": [list(s) for s in self.shapes], "rule": self.rule,
                "choices": self.choices, "deceptive": self.deceptive,
                "certain": self.certain, "description": self.description}


@lru_cache(maxsize=1)
def answer_forms() -> tuple:
    """Every answer form the engine accepts, as a tuple of :class:`AnswerForm` (6 forms).

    Rules relied on (Inkognito, L. Colovini & A. Randolph, 1988; Höhle's Inkognito post; the rules summary by
    P. Wyns & S. Davis, The Game Cabinet; BoardGameGeek rules thread 1144026 "Easily
    forgotten rules"):

    1. Player question (my figure meets an opponent's figure), I choose identity or build: the
       opponent shows 3 cards, 2 of the asked kind and 1 of the other kind; at least one of the
       three is true (seed: ``sum I = 2, sum B = 1, I_i + B_b >= 1``; 15 valid sets).
    2. Ambassador question (the ambassador meets an opponent's figure): 2 cards of the asked
       kind, one of them true (seed: ``I_i + B_b = 1``; 3 valid sets). With two cards of one
       kind at most one can be true, so "exactly one" and "at least one" coincide.
    3. Mission card (BGG thread 1144026, players' reading of the rulebook): in the answer to a
       player question the opponent may put the secret mission card in place of any one of the
       three cards; at least one of the two remaining statements must be true (10 valid sets:
       2 of the asked kind, or 1 of each kind). *Uncertain*: whether the mission card may be
       shown to the ambassador (not accepted here), and what its content tells (not modelled).
    4. No repeats (this reading of the rulebook; *uncertain*, hence the setup switch
       ``no_repeats``): a set of cards is never shown twice to the same asker. This is not a
       form of its own: the sets an opponent already showed me are removed from that
       opponent's choice set (:func:`answer_likelihood`); the forms stay the same.

    ``choices`` is computed by enumerating every set of the form for the true cell (0, 0)
    (by symmetry the count is the same for every cell).
    """
    from engines.inkognito.model import KINDS, QUESTIONS
    out = []
    for question in QUESTIONS:
        for asked in KINDS:
            for mission in (False, True):
                if question == "ambassador" and mission:
                    continue
                t = form_table(question, asked, mission)
                shapes = form_shapes(question, asked, mission)
                other = "build" if asked == "identity" else "identity"
                plural = {"identity": "identities", "build": "builds"}
                if question == "ambassador":
                    text = (f"ambassador asks about {asked}: 2 {plural[asked]}, exactly one "
                            f"of them true")
                    rule = "exactly one true"
                elif not mission:
                    text = (f"player question about {asked}: 2 {plural[asked]} and 1 {other}, "
                            f"at least one of the three true")
                    rule = "at least one true"
                else:
                    text = (f"player question about {asked}, mission card shown in place of a "
                            f"card: 2 {plural[asked]}, or 1 identity and 1 build; at least "
                            f"one of the two true")
                    rule = "at least one true"
                out.append(AnswerForm(question, asked, mission, shapes, rule, int(t.valid[:, 0].sum()),
                                      t.deceptive, not mission, text))
    return tuple(out)
