"""A Cluedo log as constraints of the counting DP (:mod:`engines.cluedo.counting`): the setup's
hand sizes and the envelope, then one constraint per event (Agade09's Cluedo_Sheet's "#Sat"
model: every deal consistent with the log is equally likely).

A module of its own so that the suggestion model (:mod:`engines.cluedo.suggestions`) and
inference both build on it without importing each other.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from engines.cluedo.counting import Constraints
from engines.cluedo.model import (
    BOARD_EVENTS,
    AccusationEvent,
    HandEvent,
    LacksEvent,
    Setup,
    ShownEvent,
    SuggestionEvent,
    describe_event,
)
from engines.core.errors import SessionFormatError


# ---------------------------------------------------------------------------------------------
# events -> constraints
# ---------------------------------------------------------------------------------------------
def base_constraints(setup: Setup) -> Constraints:
    """The constraints of the setup alone (hand sizes, one envelope card per category)."""
    # the deck is the categories' cards in order (:attr:`Setup.cards`)
    cat_of = [j for j, (_, cards) in enumerate(setup.categories) for _ in cards]
    k = len(setup.players)
    allowed = np.ones((len(cat_of), k + 1), dtype=bool)
    return Constraints(k, list(setup.hand_sizes), cat_of, allowed, [])


def apply_event(setup: Setup, cons: Constraints, event) -> None:
    """Add the constraints of one event to ``cons`` (in place).

    Raises:
        SessionFormatError: ``event`` is not a Cluedo event of this setup.
    """
    ci, pi = setup.card_indices, setup.player_indices
    k = len(setup.players)
    try:
        if isinstance(event, SuggestionEvent):       # the most frequent event first
            if event.passed:                         # each passer lacks all three cards
                rows = [ci[c] for c in event.cards]
                allowed = cons.allowed
                for p in event.passed:
                    col = pi[p]
                    for row in rows:                 # (scalar stores: a fancy one costs 6x)
                        allowed[row, col] = False
            if event.refuter is not None:
                r = pi[event.refuter]
                if event.shown is not None:
                    cons.force(ci[event.shown], r)
                else:
                    cons.add_clause(tuple((ci[c], r) for c in event.cards))
        elif isinstance(event, HandEvent):
            for c in event.cards:
                cons.force(ci[c], pi[event.player])
        elif isinstance(event, ShownEvent):
            cons.force(ci[event.card], pi[event.player])
        elif isinstance(event, LacksEvent):
            cons.forbid(ci[event.card], pi[event.player])
        elif isinstance(event, AccusationEvent):
            if event.correct:
                for c in event.cards:
                    cons.force(ci[c], k)
            else:  # not all three in the envelope: one of them is in some hand
                cons.add_clause(tuple((ci[c], p) for c in event.cards for p in range(k)))
        elif isinstance(event, BOARD_EVENTS):
            pass                      # pawns and dice say nothing about the cards
        else:
            raise SessionFormatError("event", f"not a Cluedo event: {type(event).__name__}")
    except KeyError as exc:
        raise SessionFormatError("event", f"unknown name {exc.args[0]!r} in {describe_event(setup, event)}") from None


def constraints_for(setup: Setup, events: Sequence) -> Constraints:
    """Constraints of the setup plus all ``events``. An event equal to an earlier one adds
    nothing (each event's constraints are idempotent) and is not applied again: a log with
    one suggestion logged 5,000 times costs about what one costs.

    Raises:
        SessionFormatError: an event is not a Cluedo event of this setup.
    """
    cons = base_constraints(setup)
    try:
        distinct = dict.fromkeys(events)
    except TypeError:                    # an unhashable event: every event applied
        distinct = events
    for ev in distinct:
        apply_event(setup, cons, ev)
    return cons


