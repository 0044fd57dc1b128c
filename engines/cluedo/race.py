"""The accusation race: bots that follow the accuse/wait advice against bots that accuse only
when certain, in simulated 4-player classic games (measures the rule of
:mod:`engines.cluedo.accuse`).

The game (no board: any room, as in :mod:`engines.cluedo.simulate`, whose dealing and
suggestion resolution are reused): a uniformly random deal; players take turns in seating order;
on a turn the player suggests, the first player after them holding a suggested card refutes by
showing a uniformly chosen matching card, then the player may accuse. A correct accusation wins;
a wrong one puts the player out (they still refute, never move again). The game ends with a
correct accusation, when everybody is out, or after ``max_rounds`` rounds (no winner).

Every bot keeps its own log, as a player of the app would: its hand; every suggestion's public
part (suggester, cards, who passed, who refuted); the card shown to it and the card it showed;
every failed accusation. Both kinds of bot suggest alike: in each category a card drawn
uniformly from those its exact posterior still allows in the envelope. After suggesting:

* a *certain* bot accuses when its exact posterior makes the envelope certain;
* an *advice* bot accuses its best triple when :func:`engines.cluedo.accuse.decide` says
  "accuse now" (``p_correct >= 1 - p_opponent_knows_before_my_turn``; certain included), the
  opponents' figure being the look-ahead of :mod:`engines.cluedo.accuse` (rule ``"next"``, the
  advice) or, to compare, the probability that an opponent can already name the envelope
  (rule ``"now"``).

One advice bot plays three certain bots, its seat rotating with the game number; were the rule
worthless the four seats would be alike and its win rate 1/4 (the null hypothesis of the
binomial test). Win rates with 95 % Wilson intervals (``scipy.stats.binomtest``).
:func:`paired_race` compares the advice bot and the control on the same games instead (the
quick study of :mod:`engines.studies`).
"""
from __future__ import annotations

import dataclasses
import functools
import time
from typing import Optional

import numpy as np

from engines.cluedo.accuse import best_triple, decide
from engines.cluedo.inference import infer
from engines.cluedo.model import AccusationEvent, HandEvent, Setup, SuggestionEvent
from engines.cluedo.opponents import iter_lookahead, iter_opponent_knowledge
from engines.cluedo.simulate import play_suggestion, random_deal
from engines.core.errors import SessionFormatError, check_cancel

CERTAIN = 1.0 - 1e-9
MAX_GAMES = 100_000


def _suggest(setup: Setup, log: list, rng: np.random.Generator, strategy: str = "allowed") -> tuple:
    """A card per category, uniform among those the bot's exact posterior still allows in the
    envelope (``"allowed"``), or among the whole category (``"uniform"``)."""
    if strategy == "uniform":
        return tuple(deck[int(rng.integers(len(deck)))] for _, deck in setup.categories)
    post = infer(setup, log)
    env = post.matrix[:, -1]
    triple = []
    start = 0
    for _, deck in setup.categories:
        ok = [c for j, c in enumerate(deck) if env[start + j] > 0]
        triple.append(ok[int(rng.integers(len(ok)))])
        start += len(deck)
    return tuple(triple)


def _certain_triple(setup: Setup, log: list) -> Optional[tuple]:
    env = infer(setup, log).envelope_marginals()
    out = []
    for cat, _ in setup.categories:
        card, p = max(env[cat].items(), key=lambda t: t[1])
        if p < CERTAIN:
            return None
        out.append(card)
    return tuple(out)


def _p_any_knows(setup: Setup, log: list, p_correct: float, max_samples: int, seed: int, cancel) -> float:
    """P(some active opponent knows) for the advice bot, refined only while the decision is in
    doubt: sampling stops once the estimate is 4 standard errors (at least the Bernoulli bound
    0.5 / sqrt(n)) away from the threshold ``1 - p_correct``. Exact enumeration is kept for
    small cases (at most 192 views) so that a turn stays cheap."""
    est = None
    for est in iter_opponent_knowledge(setup, log, seed=seed, first_batch=16, max_samples=max_samples,
                                       exact_max_views=192, cancel=cancel):
        if est.exact:
            break
        se = max(est.p_any_standard_error, 0.5 / np.sqrt(est.samples))
        if abs(est.p_any_knows - (1.0 - p_correct)) > 4 * se:
            break
    return est.p_any_knows


def _p_any_next(setup: Setup, log: list, p_correct: float, max_samples: int, seed: int, cancel) -> float:
    """The look-ahead probability (:func:`p_any_knows_after_next_suggestion`): 32 samples, then
    ``max_samples`` when the decision is in doubt (as in :func:`_p_any_knows`).

    Only the decision :func:`engines.cluedo.accuse.decide` makes of the figure matters to the
    race, so the deals are evaluated one at a time (:func:`engines.cluedo.opponents.iter_lookahead`)
    and a stage stops as soon as every count its remaining deals can still reach gives the same
    step (wait, accuse, or the larger stage); the figure returned is then one such count's
    (sequential stopping, Wald, *Sequential Analysis*, 1947): the same decisions, the same
    games, for fewer counted views."""
    sizes = [min(32, max_samples)] + ([max_samples] if max_samples > 32 else [])
    for stage, n in enumerate(sizes):
        last = stage == len(sizes) - 1
        steps = [_next_step(p_correct, x, n, last) for x in range(n + 1)]    # by count of positives
        k = done = 0
        for v in iter_lookahead(setup, log, samples=n, seed=seed + stage, cancel=cancel):
            k += int(v)
            done += 1
            if len(set(steps[k:k + n - done + 1])) == 1:
                break
        if steps[k] != "more":
            return _figure(k, n)[0]
    raise AssertionError("the last stage always decides")   # pragma: no cover


@functools.lru_cache(maxsize=4096)
def _figure(k: int, n: int) -> tuple:
    """(mean, standard error) of ``n`` 0/1 values of which ``k`` are 1, as
    :func:`p_any_knows_after_next_suggestion` computes them."""
    vals = np.zeros(n)
    vals[:k] = 1.0
    return float(vals.mean()), float(vals.std(ddof=1) / np.sqrt(n))


def _next_step(p_correct: float, k: int, n: int, last: bool) -> str:
    """After a stage of :func:`_p_any_next` with ``k`` of ``n`` deals positive: ``"accuse"``,
    ``"wait"`` or ``"more"`` (in doubt: the larger stage)."""
    p, se = _figure(k, n)
    if last or abs(p - (1.0 - p_correct)) > 4 * max(se, 0.5 / np.sqrt(n)):
        return "accuse" if decide(p_correct, p) == "accuse now" else "wait"
    return "more"


RULES = ("now", "next")
STRATEGIES = ("allowed", "uniform")


def play_game(setup: Setup, kinds: list, rng: np.random.Generator, *, max_rounds: int = 40,
              opponent_samples: int = 128, rule: str = "next", certain_strategy: str = "allowed",
              cancel=None, shadow: Optional[list] = None) -> dict:
    """One game. ``kinds[p]`` is ``"advice"``, ``"certain"`` or ``"focal"`` (a certain bot that
    suggests as the advice bot does) for seat ``p``; ``rule``: the
    advice bot's opponent figure, ``"next"`` (can name the envelope once their next suggestion
    is answered: the advice of :mod:`engines.cluedo.accuse`) or ``"now"`` (can already name it).
    ``certain_strategy``: how the certain bots suggest (``"allowed"``, as the advice bot and as
    the look-ahead models them, or ``"uniform"`` over each category: a model mismatch).

    ``shadow`` (a list, filled in place; the game is the control's, nothing is drawn for it):
    at each turn of the ``"focal"`` seat before it is certain, what the advice bot would decide
    from, had it sat there: a :class:`ShadowTurn` (the focal's log, its best triple and
    ``p_correct``, whether that triple is the envelope). :func:`paired_race` computes the
    advice's decisions from them after the game, only at the turns that can change the
    pairing.

    Returns:
        ``{"winner": seat or None, "rounds": int, "accusations": [(seat, correct, certain)]}``.
    """
    k = len(setup.players)
    deal = random_deal(setup, rng)
    envelope = tuple(c for c, o in zip(setup.cards, deal) if o == k)
    setups = [dataclasses.replace(setup, me=name) for name in setup.players]
    logs = [[HandEvent(player=name, cards=tuple(c for c, o in zip(setup.cards, deal) if o == p))]
            for p, name in enumerate(setup.players)]
    out = [False] * k
    accusations = []
    return _play(setup, kinds, rng, deal, envelope, setups, logs, out, accusations, max_rounds, opponent_samples,
                 rule, certain_strategy, cancel, shadow)


@dataclasses.dataclass(frozen=True, kw_only=True)
class ShadowTurn:
    """A turn of the focal seat before it is certain, as the advice bot would see it: the
    ``round`` (1-based), the focal's ``setup`` and ``log`` (a tuple of events, after its
    suggestion), its best ``triple`` and ``p_correct`` (:func:`engines.cluedo.accuse.best_triple`)
    and whether that triple is the envelope (``correct``)."""

    round: int
    setup: Setup
    log: tuple
    triple: tuple
    p_correct: float
    correct: bool


def _play(setup, kinds, rng, deal, envelope, setups, logs, out, accusations, max_rounds, opponent_samples,
          rule, certain_strategy, cancel, shadow) -> dict:
    """The rounds of :func:`play_game` (``shadow``: a list the focal's :class:`ShadowTurn`
    records are appended to, or None)."""
    k = len(setup.players)
    for rnd in range(max_rounds):
        for p in range(k):
            if out[p]:
                continue
            check_cancel(cancel)
            triple = _suggest(setups[p], logs[p], rng, certain_strategy if kinds[p] == "certain" else "allowed")
            if kinds[p] == "focal":          # the control's measured seat: certain, suggests "allowed"
                kinds_p = "certain"
            else:
                kinds_p = kinds[p]
            ev = play_suggestion(setup, deal, p, triple, rng, reveal=True)
            hidden = SuggestionEvent(suggester=ev.suggester, cards=ev.cards, passed=ev.passed, refuter=ev.refuter,
                                     shown=None)
            for q in range(k):
                sees = q == p or (ev.refuter is not None and setup.players[q] == ev.refuter)
                logs[q].append(ev if sees else hidden)
            if kinds_p == "certain":
                accuse = _certain_triple(setups[p], logs[p])
                certain = True
                if shadow is not None and kinds[p] == "focal" and accuse is None:
                    triple_a, p_correct = best_triple(setups[p], logs[p], cancel)
                    shadow.append(ShadowTurn(round=rnd + 1, setup=setups[p], log=tuple(logs[p]),
                                             triple=tuple(triple_a), p_correct=p_correct,
                                             correct=tuple(triple_a) == envelope))
            else:
                accuse, p_correct = best_triple(setups[p], logs[p], cancel)
                certain = p_correct >= CERTAIN
                if not certain:
                    fig = _p_any_knows if rule == "now" else _p_any_next
                    p_any = fig(setups[p], logs[p], p_correct, opponent_samples, int(rng.integers(1 << 30)), cancel)
                    if decide(p_correct, p_any) != "accuse now":
                        accuse = None
            if accuse is None:
                continue
            correct = tuple(accuse) == envelope
            accusations.append((p, correct, certain))
            if correct:
                return {"winner": p, "rounds": rnd + 1, "accusations": accusations}
            out[p] = True
            acc = AccusationEvent(player=setup.players[p], cards=tuple(accuse), correct=False)
            for q in range(k):
                logs[q].append(acc)
            if all(out):
                return {"winner": None, "rounds": rnd + 1, "accusations": accusations}
    return {"winner": None, "rounds": max_rounds, "accusations": accusations}


def _rate(wins: int, n: int, p0: Optional[float] = None) -> dict:
    from scipy.stats import binomtest

    if n == 0:
        return {"wins": 0, "games": 0, "win_rate": None, "wilson_95": None}
    bt = binomtest(wins, n, p0 if p0 is not None else 0.5)
    ci = bt.proportion_ci(confidence_level=0.95, method="wilson")
    out = {"wins": wins, "games": n, "win_rate": wins / n, "wilson_95": [float(ci.low), float(ci.high)]}
    if p0 is not None:
        out["p_value_vs_%g" % p0] = float(bt.pvalue)
    return out


def _check_sizes(games: int, opponent_samples: int, max_rounds: int) -> None:
    """The sizes a race accepts, checked before anything is allocated.

    Raises:
        SessionFormatError: games, opponent_samples or max_rounds out of range.
    """
    if not 1 <= games <= MAX_GAMES:
        raise SessionFormatError("games", f"between 1 and {MAX_GAMES}")
    if not 2 <= opponent_samples <= 4096:
        raise SessionFormatError("opponent_samples", "between 2 and 4096")
    if not 1 <= max_rounds <= 1000:
        raise SessionFormatError("max_rounds", "between 1 and 1000")


def race(games: int = 200, *, n_players: int = 4, edition: str = "cluedo-uk", seed: Optional[int] = 0,
         control: bool = False, max_rounds: int = 40, opponent_samples: int = 128, rule: str = "next",
         certain_strategy: str = "allowed", cancel=None, progress=None) -> dict:
    """Play ``games`` games: one advice bot (``control``: a certain bot that suggests as the
    advice bot does, the measured "focal" seat) against ``n_players - 1`` certain bots
    suggesting by ``certain_strategy``, the focal seat rotating. ``progress(done, games)`` is
    called after each game.

    Returns:
        ``{"games", "players", "focal": "advice"|"certain", "focal_result": {"wins", "games",
        "win_rate", "wilson_95", "p_value_vs_0.25"}, "others_result": {...} (per-bot rate over
        the other seats), "no_winner", "early_accusations", "early_correct", "mean_rounds",
        "seconds"}``.
    Raises:
        SessionFormatError: games, players, opponent_samples or max_rounds out of range, or an
            unknown rule.
    """
    _check_sizes(games, opponent_samples, max_rounds)
    if certain_strategy not in STRATEGIES:
        raise SessionFormatError("certain_strategy", f"one of {', '.join(STRATEGIES)}")
    if rule not in RULES:
        raise SessionFormatError("rule", f"one of {', '.join(RULES)}")
    if not 3 <= n_players <= 6:
        raise SessionFormatError("players", "3 to 6 players")
    names = [f"P{i + 1}" for i in range(n_players)]
    setup = Setup.from_json({"edition": edition, "players": names, "me": names[0]}, "$.race")
    rng = np.random.default_rng(seed)
    t0 = time.perf_counter()
    focal_wins = other_wins = no_winner = early = early_ok = 0
    rounds = []
    for g in range(games):
        seat = g % n_players
        kinds = ["certain"] * n_players
        kinds[seat] = "focal" if control else "advice"
        res = play_game(setup, kinds, rng, max_rounds=max_rounds, opponent_samples=opponent_samples,
                        rule=rule, certain_strategy=certain_strategy, cancel=cancel)
        rounds.append(res["rounds"])
        if res["winner"] is None:
            no_winner += 1
        elif res["winner"] == seat:
            focal_wins += 1
        else:
            other_wins += 1
        for p, correct, certain in res["accusations"]:
            if p == seat and not certain:
                early += 1
                early_ok += correct
        if progress is not None:
            progress(g + 1, games)
    p0 = 1.0 / n_players
    return {"game": "cluedo", "games": games, "players": n_players, "edition": edition,
            "focal": "certain" if control else "advice", "rule": rule, "certain_strategy": certain_strategy,
            "focal_result": _rate(focal_wins, games, p0),
            "others_result": _rate(other_wins, games * (n_players - 1)),
            "no_winner": no_winner, "early_accusations": early, "early_correct": early_ok,
            "mean_rounds": float(np.mean(rounds)), "seconds": round(time.perf_counter() - t0, 1)}


def paired_race(games: int = 40, *, n_players: int = 4, edition: str = "cluedo-uk", seed: Optional[int] = 0,
                max_rounds: int = 40, opponent_samples: int = 128, shadow: bool = True, lazy: bool = True,
                cancel=None, progress=None) -> dict:
    """The advice bot and the control on the same games: game ``g`` (focal seat ``g % n_players``)
    is the control's (a certain bot in the focal seat, :func:`race` with ``control``), and at
    each focal turn before it is certain the advice bot's decision (rule ``"next"``) is computed
    on the focal's log (``play_game``'s ``shadow``), with random numbers of its own: turn ``i``
    of game ``g`` draws its look-ahead's seed as the ``i``-th number of
    ``numpy.random.default_rng([seed, 2, g])``, so that each decision is fixed by the game and
    the turn, whichever decisions are computed. Up to the advice's first early accusation an
    advice bot in that seat would have played the same game (its suggestions are the control's;
    certain, it accuses as the control does), so:

    * no early accusation: the advice bot's result is the control's;
    * a wrong one: the advice bot loses (it is out);
    * a right one at round ``r``: it wins unless an opponent won earlier in the control's game
      (a correct accusation in round ``r_w`` by seat ``s_w`` before ``(r, seat)``).

    ``lazy`` (the default): the advice's decisions are computed only where they can make the
    game discordant (:func:`_advice_result`): a game the control won is discordant only if the
    advice's first early accusation is wrong, one it lost only if that accusation is right, so
    the turns whose best triple would give the control's result anyway are decided only when
    they come before such a turn that accuses. The result of every game is the one computing
    every decision gives (``lazy=False``); only the early-accusation counts become those found.

    The comparison is paired by the game: the exact McNemar test (a two-sided binomial test on
    the games only one of the two won; McNemar, Psychometrika, 1947). ``shadow=False``: the
    advice replaced by the control (no early accusation), the broken variant.

    Returns:
        ``{"games", "players", "advice_wins", "control_wins", "won_only_advice",
        "won_only_control", "mcnemar_p", "early_accusations", "early_correct" (the games whose
        first early accusation was found, and right), "shadow_turns", "shadow_decisions" (focal
        turns before certain, and advice decisions computed), "per_game": [[control won,
        advice won]]}``.
    Raises:
        SessionFormatError: games, players, opponent_samples or max_rounds out of range.
    """
    from scipy.stats import binomtest

    _check_sizes(games, opponent_samples, max_rounds)
    if not 3 <= n_players <= 6:
        raise SessionFormatError("players", "3 to 6 players")
    names = [f"P{i + 1}" for i in range(n_players)]
    setup = Setup.from_json({"edition": edition, "players": names, "me": names[0]}, "$.race")
    rng = np.random.default_rng(seed)
    per_game = []
    early = early_ok = n_turns = n_decided = 0
    for g in range(games):
        seat = g % n_players
        kinds = ["certain"] * n_players
        kinds[seat] = "focal"
        turns: list = []
        res = play_game(setup, kinds, rng, max_rounds=max_rounds, opponent_samples=opponent_samples,
                        cancel=cancel, shadow=turns if shadow else None)
        control = res["winner"] == seat
        seeds = np.random.default_rng([seed if seed is not None else 0, 2, g]).integers(1 << 30, size=len(turns))

        def accuses(i, turns=turns, seeds=seeds):
            t = turns[i]
            p_any = _p_any_next(t.setup, t.log, t.p_correct, opponent_samples, int(seeds[i]), cancel)
            return decide(t.p_correct, p_any) == "accuse now"

        # what the advice bot's result is if its first early accusation is at turn i
        w = res["winner"]              # the control's game ends in the round of the correct accusation
        outcome = [t.correct and (w is None or w == seat or (t.round, seat) < (res["rounds"], w)) for t in turns]
        advice, first, decided = _advice_result(control, outcome, accuses, lazy)
        n_turns += len(turns)
        n_decided += decided
        if first is not None:
            early += 1
            early_ok += turns[first].correct
        per_game.append([bool(control), bool(advice)])
        if progress is not None:
            progress(g + 1, games)
    only_a = sum(1 for c, a in per_game if a and not c)
    only_c = sum(1 for c, a in per_game if c and not a)
    return {"game": "cluedo", "games": games, "players": n_players, "edition": edition, "rule": "next",
            "advice_wins": sum(a for _, a in per_game), "control_wins": sum(c for c, _ in per_game),
            "won_only_advice": only_a, "won_only_control": only_c,
            "mcnemar_p": float(binomtest(only_a, only_a + only_c).pvalue) if only_a + only_c else 1.0,
            "early_accusations": early, "early_correct": early_ok,
            "shadow_turns": n_turns, "shadow_decisions": n_decided, "per_game": per_game}


def _advice_result(control: bool, outcome: list, accuses, lazy: bool = True) -> tuple:
    """The advice bot's result in one paired game: ``outcome[i]`` if its first early accusation
    is at turn ``i``, ``control`` if it makes none; ``accuses(i)`` computes its decision at turn
    ``i`` (the costly part).

    Lazy: a turn with ``outcome[i] == control`` cannot make the game discordant, whether the
    advice accuses there or later. So the other turns (*decisive*) are decided first, in order,
    up to the first that accuses, ``i``; then the non-decisive turns before ``i``, in order, up
    to the first that accuses (then it is the first early accusation and the result is the
    control's). The result is the one deciding every turn in order gives (``lazy=False``, the
    reference): the first accusing turn is found whenever it is decisive, and otherwise the
    result is ``control`` either way.

    Returns:
        ``(advice won, index of the first early accusation found or None, decisions computed)``.
    """
    n = len(outcome)
    if not lazy:
        for i in range(n):
            if accuses(i):
                return outcome[i], i, i + 1
        return control, None, n
    decided = 0
    decisive = [i for i in range(n) if outcome[i] != control]
    for i in decisive:
        decided += 1
        if accuses(i):
            for j in range(i):
                if outcome[j] == control:
                    decided += 1
                    if accuses(j):
                        return control, j, decided
            return outcome[i], i, decided
    return control, None, decided


def main(argv=None) -> None:
    """``python -m engines.cluedo.race [--games N] [--seed S] [--control]``: prints JSON."""
    import argparse

    ap = argparse.ArgumentParser(prog="python -m engines.cluedo.race", description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--control", action="store_true", help="the focal seat is a certain bot too")
    ap.add_argument("--opponent-samples", type=int, default=128)
    ap.add_argument("--rule", choices=RULES, default="next")
    ap.add_argument("--certain-strategy", choices=STRATEGIES, default="allowed",
                    help="how the certain bots suggest (uniform: not as the look-ahead models them)")
    a = ap.parse_args(argv)
    run_cli(lambda progress: race(a.games, n_players=a.players, seed=a.seed, control=a.control,
                                  opponent_samples=a.opponent_samples, rule=a.rule,
                                  certain_strategy=a.certain_strategy, progress=progress))


def run_cli(run) -> None:
    """The races' command-line run: ``run(progress)`` plays the games and returns the result,
    printed as JSON on stdout; ``progress(done, total)`` writes "done/total games, seconds" on
    stderr. Bad arguments (``SessionFormatError``) end with the message and exit code 2, an
    interrupt (Ctrl+C) with 130, without a traceback."""
    import json
    import sys

    t0 = time.perf_counter()

    def progress(done, total):
        print(f"{done}/{total} games, {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)

    try:
        out = run(progress)
    except SessionFormatError as exc:
        print(f"error: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    except KeyboardInterrupt:
        raise SystemExit(130) from None
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
