"""The look-ahead's sequential stopping (engines/cluedo/suggestion_race.py ``_advice``,
engines/cluedo/race.py ``_p_any_next``) gives the decisions the whole sampled stages give, and
the paired accusation race plays the control's games."""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import beta

from engines.cluedo import race
from engines.cluedo import suggestion_race as sr
from engines.cluedo.accuse import CERTAIN, best_triple, decide
from engines.cluedo.model import HandEvent, Setup, SuggestionEvent
from engines.cluedo.opponents import p_any_knows_after_next_suggestion
from engines.cluedo.simulate import play_suggestion, random_deal


def _logs(players: int, turns: int, seed: int):
    """The first seat's log after each of its ``turns`` turns of a race game."""
    names = [f"P{i + 1}" for i in range(players)]
    setup = Setup.from_json({"edition": "cluedo-uk", "players": names, "me": names[0]}, "$.t")
    rng = np.random.default_rng(seed)
    deal = random_deal(setup, rng)
    setups = [Setup.from_json({"edition": "cluedo-uk", "players": names, "me": n}, "$.t") for n in names]
    logs = [[HandEvent(player=n, cards=tuple(c for c, o in zip(setup.cards, deal) if o == p))]
            for p, n in enumerate(names)]
    out = []
    for _ in range(turns):
        for p in range(players):
            ev = play_suggestion(setup, deal, p, race._suggest(setups[p], logs[p], rng), rng, reveal=True)
            hidden = SuggestionEvent(suggester=ev.suggester, cards=ev.cards, passed=ev.passed,
                                     refuter=ev.refuter, shown=None)
            for q in range(players):
                logs[q].append(ev if q == p or names[q] == ev.refuter else hidden)
        out.append(list(logs[0]))
    return setups[0], out


def _advice_whole_stages(setup, log, rhos, seed, stages=(8, 32)):
    """The reference: ``_advice`` evaluating every deal of every stage it reaches."""
    triple, pc = best_triple(setup, log, None, rhos=rhos)
    q = 0.0
    if pc < CERTAIN:
        first = int(min(max(int(np.ceil(np.log(sr.WAIT_ALPHA) / np.log(pc))), 2), stages[-1]))
        for stage, n in enumerate([first] + [m for m in stages if m > first]):
            q, se = p_any_knows_after_next_suggestion(setup, log, samples=n, seed=seed + stage, rhos=rhos)
            k = int(round(q * n))
            upper = 1.0 if k >= n else float(beta.ppf(1.0 - sr.WAIT_ALPHA, k + 1, n - k))
            if pc < 1.0 - upper:
                return None
            if abs(pc - (1.0 - q)) > 4 * max(se, 0.5 / np.sqrt(n)):
                break
    return (triple, pc) if decide(pc, q) == "accuse now" else None


def test_sequential_advice_equals_the_whole_stages():
    setup, logs = _logs(3, 6, seed=11)
    for i, log in enumerate(logs[1:]):          # p_correct 0.13 to 0.5: decisions in doubt
        for rhos in ({}, {"P2": 0.1, "P3": 0.1}):
            assert sr._advice(setup, log, rhos, 100 + i, None) == _advice_whole_stages(setup, log, rhos, 100 + i)


def test_sequential_race_figure_gives_the_whole_stages_decision():
    setup, logs = _logs(3, 7, seed=5)
    for i, log in enumerate(logs[2:]):          # p_correct 0.07 to 0.67
        _, pc = best_triple(setup, log)
        p, se = p_any_knows_after_next_suggestion(setup, log, samples=32, seed=7 + i)
        if abs(p - (1.0 - pc)) <= 4 * max(se, 0.5 / np.sqrt(32)):
            p = p_any_knows_after_next_suggestion(setup, log, samples=128, seed=8 + i)[0]
        assert decide(pc, race._p_any_next(setup, log, pc, 128, 7 + i, None)) == decide(pc, p)


def test_paired_race_plays_the_controls_games():
    paired = race.paired_race(2, n_players=3, seed=4)
    control = race.race(2, n_players=3, seed=4, control=True)
    assert paired["control_wins"] == control["focal_result"]["wins"]
    eager = race.paired_race(2, n_players=3, seed=4, lazy=False)    # every turn decided: the reference
    assert eager["per_game"] == paired["per_game"]
    assert paired["shadow_turns"] == eager["shadow_turns"]
    assert paired["shadow_decisions"] <= eager["shadow_decisions"]
    off = race.paired_race(2, n_players=3, seed=4, shadow=False)
    assert off["per_game"] == [[c, c] for c, _ in paired["per_game"]]
    assert (off["won_only_advice"], off["won_only_control"], off["early_accusations"]) == (0, 0, 0)


@settings(max_examples=200, deadline=None)
@given(st.booleans(), st.lists(st.tuples(st.booleans(), st.booleans()), max_size=8))
def test_lazy_paired_result_equals_deciding_every_turn(control, turns):
    """The paired race's lazy evaluation (``race._advice_result``) gives the advice bot's result
    that deciding every turn in order gives (the reference), for any outcomes and decisions,
    and never decides a turn the reference would not reach unless it may change the result."""
    outcome = [o for o, _ in turns]
    acc = [a for _, a in turns]
    asked: list = []

    def accuses(i):
        asked.append(i)
        return acc[i]

    lazy = race._advice_result(control, outcome, accuses, lazy=True)
    ref = race._advice_result(control, outcome, lambda i: acc[i], lazy=False)
    assert lazy[0] == ref[0]
    first = next((i for i, a in enumerate(acc) if a), None)
    assert ref[0] == (control if first is None else outcome[first])
    assert len(asked) == len(set(asked)) == lazy[2]
    if lazy[1] is not None:
        assert lazy[1] == first
    if all(o == control for o in outcome):
        assert asked == []          # no turn can make the game discordant: nothing computed
