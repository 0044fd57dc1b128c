"""What Egghead inference costs on a deck other than the game's, known before it starts.

The master table (Zorn 2024, appendix A.1; :class:`engines.egghead.table.BitTable`) holds
``S^(players-1)`` rows of ``ceil(S / 64)`` 64-bit words (:func:`engines.egghead.table.table_bytes`
/ 8). Every event reads the whole table: an answer filters it once (eq. 2), and the solved
indicators that the reactions (eqs. 3-4) and the posterior need take one pass per player. The
cost of one event is therefore counted in *word passes*, a function of the setup alone::

    event_work = words x (players + 1)

and a command that folds a log of ``e`` events (``python -m engines infer``; the app's first
refresh of an opened file) costs about ``(e + 1) x event_work`` (building the table and the
posterior count as one more event).

Calibration (CPU time of one answer and its posterior, ``engines.egghead.update`` then
``posterior``, on custom decks with a random deal; load average 7-9 on the project's 2-core
machine):

=============  ======  ================  ===========  ==================
players        stacks  word passes       CPU (s)      word passes per s
=============  ======  ================  ===========  ==================
5, 5 values    70      2.9e8             1.9-2.3      1.2-1.5e8
  x 4 cards
4, 6 x 5       252     3.2e8             1.7-2.0      1.6-1.9e8
6, 8 x 2       36      4.2e8             1.6-1.8      2.3-2.6e8
3, 9 x 5       1287    1.4e8             0.43-0.5     2.8-3.2e8
3, 8 x 6       1716    3.2e8             0.92-0.99    3.2-3.5e8
=============  ======  ================  ===========  ==================

:data:`WORK_PER_SECOND` is the slowest of them, 1.2e8, so the estimate is an upper bound on
every measured deck. Three players' rows are long and cheap (2.8-3.5e8 word passes per s, and a
re-measurement after the passes learned to skip empty rows gave 3.1e8 for the reactions of a
3-player 9 x 5 game, 0.45 s per round): they get their own rate,
:data:`WORK_PER_SECOND_BY_PLAYERS`, the slowest measured for them, so that a three-player deck
is not refused on a 2.7x overestimate.

The contract of a command is 10 s of CPU (:data:`COMMAND_SECONDS`). A custom deck is refused at
once (:func:`check_custom_deck`, called where its memory is checked,
:meth:`engines.egghead.model.Setup.from_json`) when a log of :data:`EVENTS_PER_COMMAND` events
— a round or two of play; the audit that asked for this measured 24-33 s after 10 events on a
deck the memory limit let through — would not fit, naming the field and the estimate. Longer
logs on an accepted deck are charged event by event (:func:`log_seconds`, from the input
alone) and a custom deck's log that would not fit is refused at once at its first event over
(:func:`check_log`); the game's own deck (6 values, 3 cards) is not limited here. The per-event
rates were measured with ``python tests/benchmarks/bench_egghead_log.py --calibrate``
(docs/cost-limits.md gives the figures).
"""
from __future__ import annotations

from typing import Sequence

from engines.core.i18n import _, number
from engines.egghead.table import n_words, table_bytes

#: Word passes per CPU second (the slowest measured deck; see the module docstring).
WORK_PER_SECOND = 1.2e8
#: The rate for a player count measured apart (the slowest such measurement; see above).
WORK_PER_SECOND_BY_PLAYERS = {3: 2.8e8}
#: CPU seconds one command may take.
COMMAND_SECONDS = 10.0
#: Events a custom deck's log must be able to hold within :data:`COMMAND_SECONDS`.
EVENTS_PER_COMMAND = 10


def event_work(players: int, S: int) -> float:
    """Word passes of one event on a master table of ``players`` players with ``S`` stacks each:
    the table's 64-bit words x (one pass for the answer + one per player's solved indicator)."""
    return table_bytes(players, S) / 8 * (players + 1)


def seconds_per_event(players: int, S: int) -> float:
    """:func:`event_work` in CPU seconds at the player count's rate
    (:data:`WORK_PER_SECOND_BY_PLAYERS`, else :data:`WORK_PER_SECOND`; an upper bound on the
    measured decks)."""
    return event_work(players, S) / WORK_PER_SECOND_BY_PLAYERS.get(players, WORK_PER_SECOND)


def command_seconds(players: int, S: int, events: int = EVENTS_PER_COMMAND) -> float:
    """Estimated CPU seconds of a command folding ``events`` events (the table's start and the
    posterior counted as one more)."""
    return (events + 1) * seconds_per_event(players, S)


def events_within_budget(players: int, S: int) -> int:
    """How many events a command can fold within :data:`COMMAND_SECONDS` (int >= 0)."""
    return max(int(COMMAND_SECONDS / seconds_per_event(players, S)) - 1, 0)


def check_custom_deck(players: int, values: int, cards: int, S: int, reader) -> None:
    """Refuse a custom deck (not the game's 6 values x 3 cards) on which a log of
    :data:`EVENTS_PER_COMMAND` events would take more than :data:`COMMAND_SECONDS`.

    Args:
        players, values, cards: the setup; S: its stacks per player.
        reader: the setup's :class:`engines.core.schema.Reader` (names the field).
    Raises:
        SessionFormatError: at ``$.setup.cards_per_player`` (cards other than the game's) or
            ``$.setup.values``, naming the estimate per event and for the log.
    """
    total = command_seconds(players, S)
    if total <= COMMAND_SECONDS:
        return
    field = "cards_per_player" if cards != 3 else "values"
    raise reader.error(field, _(
        "{players} players with {values} values and {cards} cards each ({stacks} possible stacks) take "
        "about {per_event} s of CPU per event (every event reads the whole {mb} MB master table), so a "
        "log of {events} events would take about {total} s; at most {limit} s are allowed per command "
        "for a deck other than the game's 6 values and 3 cards; use fewer players, values or cards").format(
        players=players, values=values, cards=cards, stacks=S, per_event=number(seconds_per_event(players, S), ".1f"),
        mb=number(table_bytes(players, S) / 1e6, ".0f"), events=EVENTS_PER_COMMAND, total=number(total, ".0f"),
        limit=number(COMMAND_SECONDS, ".0f")))


# -- the cost of a log, charged per event ------------------------------------------------------
# Rates in CPU nanoseconds per 64-bit word of the master table, per pass; measured on whole
# (dense) tables, where every pass reads every word (``python tests/benchmarks/bench_egghead_log.py
# --calibrate``; figures in docs/cost-limits.md), the largest of eight decks, times about 1.3.
#: Building the table (every word written once).
NS_FILL = 3.0
#: One answer filter (eq. (2)/(6)).
NS_ANSWER = 5.5
#: One reactions round, per player: their solved indicator and support, and their filter
#: (eqs. (3)-(4)); keyed by whether a row of the last player's stacks is one word (S <= 64:
#: the game's deck and most custom ones) or several (S > 64: the passes along the rows axes
#: fold several words per world, measured 1.5-2x slower per word).
NS_ROUND_PER_PLAYER = {True: 3.5, False: 6.5}
#: One solve (eq. (5)): the table rewritten along the solver's axis.
NS_SOLVE = 1.0
#: The posterior at the end, per player (their indicator) and the world count.
NS_POSTERIOR_PER_PLAYER = 5.0
#: Fixed CPU seconds: per event (Python and the rows I read), per pass over a table (numpy
#: calls, blocks), and once per command (the deck, the stack space, the posterior's lists).
SECONDS_PER_EVENT = 1e-3
SECONDS_PER_PASS = 5e-4
SECONDS_START = 0.02
#: Reactions rounds of a run of identical rounds (nothing between them) charged in full: after
#: a round that removes nothing the engine is at the fixpoint and the next identical rounds cost
#: a check on arrays S times smaller than the table. The longest run of rounds that each removed
#: worlds was 4 in 2,800 answers of truthful games on seven decks (docs/cost-limits.md), plus
#: the round that finds nothing to remove: 5. A longer run of rounds that each remove worlds is
#: charged 5 rounds only (not a proof: none was found).
CHAIN_ROUNDS = 5


def log_seconds(setup, events: Sequence) -> float:
    """Estimated CPU seconds of :func:`engines.egghead.infer` on ``events`` (the command line's
    fold of the whole log and its posterior) for an explicit master table (3-5 players, or any
    setup whose table is not kept as orbits), a function of the input alone.

    Every event is charged the passes it makes over the whole table at the measured dense rates
    (an upper bound: while few rows are non-empty the passes read those only), except what the
    engine provably skips: an answer repeated since the last solve (eq. (2) is idempotent and
    the other events before the next solve only remove worlds) costs :data:`SECONDS_PER_EVENT`,
    and so do the reactions rounds after the :data:`CHAIN_ROUNDS`-th of a run of identical
    rounds. Players who do not analyse double the answer and solve passes (a second, answers-only
    table) and read that table's indicator beside the master table's support.

    Args:
        setup: :class:`engines.egghead.model.Setup`; events: its events.
    Returns:
        float seconds (> 0).
    """
    from engines.egghead.questions import stack_space

    n = len(setup.players)
    S = stack_space(setup.values, setup.cards_per_player).size
    words = S ** (n - 1) * n_words(S)
    tables = 1 if all(setup.uses_ba(p) for p in setup.players) else 2
    ns = 1e-9 * words
    total = SECONDS_START + tables * (ns * NS_FILL + SECONDS_PER_PASS)
    total += n * tables * (ns * NS_POSTERIOR_PER_PLAYER + SECONDS_PER_PASS) + ns * 1.0
    answered: set = set()
    run = 0
    prev = None
    for ev in events:
        kind = getattr(ev, "type", None)
        total += SECONDS_PER_EVENT
        if kind == "answer":
            key = (ev.question, ev.answer, ev.moderator)
            if key not in answered:
                answered.add(key)
                total += tables * (ns * NS_ANSWER + SECONDS_PER_PASS)
            run = 0
        elif kind == "reactions":
            same = prev is not None and getattr(prev, "type", None) == "reactions" and \
                set(prev.solved) == set(ev.solved)
            run = run + 1 if same else 1
            if run <= CHAIN_ROUNDS:
                total += n * (tables * ns * NS_ROUND_PER_PLAYER[n_words(S) == 1] + 3 * SECONDS_PER_PASS)
        else:                                   # a solve: eq. (5) adds worlds back
            answered.clear()
            run = 0
            total += tables * (ns * NS_SOLVE + SECONDS_PER_PASS)
        prev = ev
    return total


#: The game's own deck, ``(values, cards per player)``: ``engines.egghead.model.SEED_DECK``
#: (written here too: this module is imported by the model, never the reverse).
GAME_DECK = (6, 3)


def check_log(setup, events: Sequence, path: str = "$.events") -> None:
    """Refuse at once a log on a deck other than the game's whose estimate
    (:func:`log_seconds`) passes :data:`COMMAND_SECONDS`, naming the first event at which it
    does. The game's own deck (:data:`GAME_DECK`, 6 values, 3 cards) is not refused here: its
    logs are measured apart (docs/egghead-long-games.md), and the dense rates overstate a real
    game several times.

    Raises:
        SessionFormatError: at ``{path}[i]``, the first event whose prefix does not fit.
    """
    from engines.core.errors import SessionFormatError

    if (setup.values, setup.cards_per_player) == GAME_DECK:
        return
    total = log_seconds(setup, events)
    if total <= COMMAND_SECONDS:
        return
    lo, hi = 0, len(events)           # the shortest prefix over the budget (the estimate grows)
    while lo < hi:
        mid = (lo + hi) // 2
        if log_seconds(setup, events[:mid + 1]) > COMMAND_SECONDS:
            hi = mid
        else:
            lo = mid + 1
    raise SessionFormatError(
        f"{path}[{lo}]",
        _("{players} players with {values} values and {cards} cards each: the log up to this event would "
          "take about {upto} s of CPU to replay (the whole log about {total} s); at most {limit} s are "
          "allowed per command for a deck other than the game's 6 values and 3 cards; start a new game "
          "from this position, or use fewer players, values or cards").format(
            players=len(setup.players), values=setup.values, cards=setup.cards_per_player,
            upto=number(log_seconds(setup, events[:lo + 1]), ".0f"), total=number(total, ".0f"),
            limit=number(COMMAND_SECONDS, ".0f")))


__all__ = ["CHAIN_ROUNDS", "COMMAND_SECONDS", "EVENTS_PER_COMMAND", "WORK_PER_SECOND",
           "check_custom_deck", "check_log", "command_seconds", "event_work",
           "events_within_budget", "log_seconds", "seconds_per_event"]
