"""Why a Guess Who? card is down (or is the only one left): the entries that force it.

Fact: ``{"name": "Anita"}``. Status (the exact posterior of :func:`engines.guesswho.inference.
posterior_probabilities`): ``"impossible"`` when the character cannot be the secret (probability
0: knocked down, or — without the error model — an answer that does not fit the character),
``"certain"`` when it is the only character left (probability 1), else ``"uncertain"``.

A subset of the log forces the status when the posterior under the subset alone (events in
their order) has the same value. Answers and knock-downs only remove characters, so the
predicate is monotone and the subset found by QuickXplain is irreducible
(:mod:`engines.core.explain`). An ``opponent`` entry (their count of standing cards) never
changes my candidates and is never part of an explanation.
"""
from __future__ import annotations

from typing import Optional, Sequence

import numpy as np

from engines.core.errors import ContradictionError
from engines.core.explain import Explanation, conflict_error, explain_with, listed, split_details
from engines.core.i18n import _
from engines.core.schema import Reader
from engines.guesswho.board import NAME_ATTRIBUTE, join_or
from engines.guesswho.inference import posterior_probabilities
from engines.guesswho.model import Answer, Eliminate, Setup, describe_event
from engines.guesswho.words import attribute_words, value_words


def _probs(setup: Setup, events) -> Optional[np.ndarray]:
    try:
        return posterior_probabilities(setup, events)
    except ContradictionError:
        return None


def _status(p: float) -> str:
    return "certain" if p >= 1.0 - 1e-12 else "impossible" if p <= 0.0 else "uncertain"


def explain_contradiction(setup: Setup, events: Sequence, *, cancel=None) -> Optional[list]:
    """An irreducible set of 0-based event indices that cannot all be true (no character fits
    them all; dropping any one leaves one); None when the log is consistent."""
    events = tuple(events)
    err = conflict_error(len(events), lambda s: _probs(setup, [events[i] for i in s]) is not None,
                         lambda i: describe_event(setup, events[i]), cancel=cancel)
    return None if err is None else list(err.entries)


def explain(setup: Setup, events: Sequence, fact: dict, *, cancel=None) -> Explanation:
    """Why ``fact`` (``{"name": character}``) is ruled out, certain or open under ``events``.

    ``cancel``: zero-argument callable checked before every engine call (raises
    :class:`~engines.core.errors.Cancelled`), as in ``infer``.

    Returns:
        :class:`~engines.core.explain.Explanation` (``because``: 0-based event indices).
    Raises:
        SessionFormatError: the fact names no character of the board (``$.fact.name``).
        ConflictError (a ContradictionError): the log is contradictory; it names an
            irreducible set of entries that cannot all be true.
    """
    board = setup.board
    name = Reader(fact, "$.fact").choice("name", board.names, what="character")
    k = board.names.index(name)
    events = tuple(events)
    n = len(events)
    full = _probs(setup, events)
    if full is None:
        raise conflict_error(n, lambda s: _probs(setup, [events[i] for i in s]) is not None,
                             lambda i: describe_event(setup, events[i]), cancel=cancel)
    status = _status(float(full[k]))

    def forces(s):
        p = _probs(setup, [events[i] for i in s])
        return p is not None and _status(float(p[k])) == status

    def steps(s):
        return _steps(setup, events, s, k, status)

    return explain_with(dict(fact), n, status, forces, steps, cancel=cancel)


def _out_by(setup: Setup, ev) -> np.ndarray:
    """Characters one entry rules out on its own (bool, board order)."""
    board = setup.board
    out = np.zeros(board.size, dtype=bool)
    if isinstance(ev, Eliminate):
        out[board.names.index(ev.name)] = True
    elif isinstance(ev, Answer) and setup.error_rate == 0.0:
        out = board.truth(ev.question) != ev.answer
    return out


def answer_meaning(ev: Answer) -> str:
    """What an answer says about the secret character, in words: "has no glasses", "does not
    have black hair colour", "has glasses or a hat", "is not Alex"."""
    atoms = ev.question.atoms

    def has(a, v) -> str:
        if a == NAME_ATTRIBUTE:
            return _("is {name}").format(name=v)
        if v is True:
            return _("has {attribute}").format(attribute=attribute_words(a))
        if v is False:
            return _("has no {attribute}").format(attribute=attribute_words(a))
        return _("has {value} {attribute}").format(value=value_words(a, v), attribute=attribute_words(a))

    def has_not(a, v) -> str:
        if a == NAME_ATTRIBUTE:
            return _("is not {name}").format(name=v)
        if v is True:
            return _("has no {attribute}").format(attribute=attribute_words(a))
        if v is False:
            return _("has {attribute}").format(attribute=attribute_words(a))
        return _("does not have {value} {attribute}").format(value=value_words(a, v),
                                                             attribute=attribute_words(a))

    if ev.answer:
        return join_or([has(a, v) for a, v in atoms])
    text = ""
    for a, v in atoms:
        part = has_not(a, v)
        text = _("{first} and {second}").format(first=text, second=part) if text else part
    return text


def _asked(ev: Answer) -> str:
    """The entry as the player logged it: you asked “…” (the question's own words) — yes."""
    if ev.answer:
        return _("you asked “{question}” and the answer was yes").format(question=ev.question.label())
    return _("you asked “{question}” and the answer was no").format(question=ev.question.label())


def _steps(setup: Setup, events, subset, k: int, status: str) -> tuple:
    """``(steps, details)``: one step per entry of ``subset`` with its rule (an answer knocks
    down every character it does not fit; a knocked-down card is out), lists complete or cut
    with "and N more" (the full list in the details)."""
    board = setup.board
    name = board.names[k]
    pairs = []
    for i in subset:
        ev = events[i]
        gone = _out_by(setup, ev)
        if isinstance(ev, Eliminate):
            t = _("#{n}: you knocked down {name} → {name} is out").format(n=i + 1, name=ev.name)
            pairs.append((t, t))
        elif status == "impossible":
            t = _("#{n}: {asked}, so the secret character {meaning}, which does not fit {name} → "
                  "{name} is out").format(n=i + 1, asked=_asked(ev), meaning=answer_meaning(ev),
                                          name=name)
            pairs.append((t, t))
        else:
            names = [board.names[j] for j in np.flatnonzero(gone) if j != k]
            said = dict(n=i + 1, asked=_asked(ev), meaning=answer_meaning(ev))
            if not names:
                t = _("#{n}: {asked}, so the secret character {meaning} → nobody else is out"
                      ).format(**said)
                pairs.append((t, t))
            else:
                short, full = listed(names)
                line = _("#{n}: {asked}, so the secret character {meaning} → out: {names}")
                pairs.append((line.format(names=short, **said), line.format(names=full, **said)))
    if status == "certain":
        t = _("Every other character is out by the entries above and only {name} is left "
              "standing → {name} is the secret character").format(name=name)
        pairs.append((t, t))
    return split_details(pairs)
