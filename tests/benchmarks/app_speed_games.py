"""The five games as tests/benchmarks/bench_app_speed.py drives them: a random consistent log
of each game as quick-entry lines, the widgets that show its beliefs and its advice, and the
engine's own time for a prefix.

Each log is played truthfully from a random hidden world (tests/engines/random_logs.py for
Inkognito, Guess Who? and Egghead, tests/desktop/cluedo_game_log.py for Cluedo; Spyfall claims
in seating order, each naming two to three locations), then kept only where the engine accepts
each entry after the ones before it (``contradiction`` is None) and the entry's canonical line
(``format_event``) reads back as the same event (``parse``): the benchmark types those lines.
"""
from __future__ import annotations

import os
import random
import sys
import time
from dataclasses import dataclass
from typing import Callable, Optional

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests", "engines"))
sys.path.insert(0, os.path.join(ROOT, "tests", "desktop"))


@dataclass
class GameBench:
    """What the benchmark needs of one game's tab.

    Attributes:
        sheet: the tab's widget (or widgets) whose paint shows the beliefs (the worksheet).
        advice: the tab's widget whose paint shows the ranking / advice, from the tab.
        advisor: the controller's advisor whose final result is the advice, or None when the
            advice comes with the beliefs (Egghead's "Can I solve now?", Guess Who?'s ranked
            questions: part of the posterior).
    """

    game: str
    sheet: Callable
    advice: Callable
    advisor: Optional[str]
    make_log: Callable[[int, int, int], tuple]      # (events, seed, players) -> (setup, events)
    advise: Optional[Callable] = None               # (module, setup, events) -> the advisor's call


def _checked(mod, setup, candidates, n: int) -> list:
    """The first ``n`` candidates the engine accepts in turn and quick entry reads back."""
    out: list = []
    for ev in candidates:
        if len(out) >= n:
            break
        try:
            if mod.contradiction(setup, out, ev) is not None:
                continue
            line = mod.format_event(setup, ev)
            if mod.parse(setup, out, line) != ev:
                continue
        except Exception:
            continue
        out.append(ev)
    return out


def _cluedo(n, seed, players):
    from cluedo_game_log import classic_setup, random_log

    setup = classic_setup(tuple(["Me", "Ann", "Bob", "Cy", "Di", "Ed"][:players]))
    return setup, random_log(setup, n, seed=seed)


def _inkognito(n, seed, _players):
    from random_logs import inkognito_log

    import engines.inkognito as ink

    setup, events = inkognito_log(random.Random(seed), 4 * n)
    return setup, _checked(ink, setup, events, n)


def _guesswho(n, seed, _players):
    from random_logs import guesswho_log

    import engines.guesswho as gw

    setup, events = guesswho_log(random.Random(seed), 4 * n)
    return setup, _checked(gw, setup, events, n)


def _egghead(n, seed, players):
    from random_logs import egghead_log

    import engines.egghead as eg

    setup, events, _real = egghead_log(random.Random(seed), players=min(players, 4),
                                       answers=2 * n)
    return setup, _checked(eg, setup, events, n)


def _spyfall(n, seed, _players):
    import engines.spyfall as sp

    setup = sp.default_setup()
    rng = random.Random(seed)
    locs = list(setup.locations)
    candidates = []
    for i in range(4 * n):
        who = setup.players[i % len(setup.players)]
        named = rng.sample(locs, rng.randint(2, 3))
        weights = {loc: rng.choice([1.0, 0.5]) for loc in named}
        weights[named[0]] = 1.0
        candidates.append(sp.make_claim(setup, who, weights))
    return setup, _checked(sp, setup, candidates, n)


def _recommend(mod, setup, events):
    return mod.recommend(setup, events)


def _cluedo_ranking(mod, setup, events):
    return mod.recommend(setup, events, exact_top=24, opponents_seconds=0)


def _inkognito_ranking(mod, setup, events):
    return mod.recommend(setup, events, method=mod.METHODS[0])


def _attr(name: str) -> Callable:
    return lambda tab: getattr(tab, name)


GAMES = {
    "cluedo": GameBench("cluedo", _attr("sheet"), _attr("rec_table"), "recommend", _cluedo,
                        _cluedo_ranking),
    # one worksheet per opponent, all recomputed at every answer (the joint posterior): the first
    "inkognito": GameBench("inkognito", lambda tab: next(iter(tab.cards.values())).view,
                           _attr("rec_table"), "recommend", _inkognito, _inkognito_ranking),
    "egghead": GameBench("egghead", _attr("position_view"), _attr("solve_label"), None, _egghead),
    # the board's cards paint themselves (children of a scroll area): any card's paint counts
    "guesswho": GameBench("guesswho", lambda tab: list(tab.board_view.cards.values()),
                          _attr("question_view"), None, _guesswho),
    "spyfall": GameBench("spyfall", _attr("sheet"), _attr("advice"), "recommend", _spyfall,
                         _recommend),
}


def engine_seconds(bench: GameBench, setup, events, prefixes) -> list:
    """The engine's own wall time for each prefix length in ``prefixes``: the beliefs as the
    app's timeline computes them (an incremental engine's ``update`` + ``posterior`` of the
    last entry from the state before it; else ``infer`` of the prefix), plus the advisor's
    call when the advice is not part of the beliefs."""
    import importlib

    from engines.core.contract import IncrementalEngine

    mod = importlib.import_module(f"engines.{bench.game}")
    incremental = isinstance(mod, IncrementalEngine)
    states = {}
    if incremental:      # the state before each entry, built once, not timed
        st = mod.initial(setup)
        for k in range(len(events) + 1):
            states[k] = mod.copy_state(st)
            if k < len(events):
                mod.update(setup, st, k, events[k])
    out = []
    for k in prefixes:
        t = time.perf_counter()
        if incremental and k > 0:
            st = states[k - 1]
            mod.update(setup, st, k - 1, events[k - 1])
            mod.posterior(setup, st)
        else:
            mod.infer(setup, events[:k])
        if bench.advise is not None:
            bench.advise(mod, setup, tuple(events[:k]))
        out.append(time.perf_counter() - t)
    return out
