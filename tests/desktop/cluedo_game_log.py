"""A random classic Cluedo game as I would log it (tests and tests/benchmarks/bench_app_speed.py).

A uniform deal (the envelope first, then the rest dealt round the table), my hand, then
suggestions by each player in turn: the players after the suggester pass until one holds a card
of the triple; the card shown is known only in my own suggestions, or when I refute (the
lowest-index card I hold). Every log is consistent with the deal, so every prefix is possible.
"""
import numpy as np

from engines import cluedo


def classic_setup(players=("Me", "Ann", "Bob", "Cy")):
    """The cluedo-uk deck with ``players`` (I am the first)."""
    return cluedo.Setup.from_json({"edition": "cluedo-uk", "players": list(players),
                                   "me": players[0]}, "$.setup")


def random_log(setup, n_events: int, seed: int = 0) -> list:
    """``n_events`` events (my hand first, then suggestions) of one random game."""
    rng = np.random.default_rng(seed)
    players = list(setup.players)
    holder = {}
    rest = []
    for _, deck in setup.categories:
        env = deck[int(rng.integers(len(deck)))]
        holder[env] = None
        rest += [c for c in deck if c != env]
    rng.shuffle(rest)
    for i, c in enumerate(rest):
        holder[c] = players[i % len(players)]
    me = setup.me
    events = [cluedo.HandEvent(player=me, cards=tuple(c for c in setup.cards if holder[c] == me))]
    turn = 0
    while len(events) < n_events:
        sugg = players[turn % len(players)]
        turn += 1
        triple = tuple(deck[int(rng.integers(len(deck)))] for _, deck in setup.categories)
        i = players.index(sugg)
        passed, refuter, shown = [], None, None
        for j in range(1, len(players)):
            p = players[(i + j) % len(players)]
            held = [c for c in triple if holder[c] == p]
            if held:
                refuter = p
                if sugg == me or p == me:
                    shown = held[0]
                break
            passed.append(p)
        events.append(cluedo.SuggestionEvent(suggester=sugg, cards=triple, passed=tuple(passed), refuter=refuter,
                                             shown=shown))
    return events[:n_events]


def quick_lines(setup, events) -> list:
    """The quick-entry line of each event (``format_event``; ``parse`` reads it back)."""
    return [cluedo.format_event(setup, ev) for ev in events]
