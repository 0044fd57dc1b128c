"""Does the suggestion model (:mod:`engines.cluedo.suggestions`) win races? Simulated classic games
against opponents whose suggestions follow a known behaviour.

The game is the accusation race of :mod:`engines.cluedo.race` (no board, any room; the first
player after the suggester holding a suggested card refutes with a uniformly chosen one; a
correct accusation wins). Opponents are bots that suggest with behaviour ``rho``: in each
category a card drawn with weight ``rho`` for a card in their own hand, 1 for a card their exact
posterior still allows in the envelope, 0 for the others (``rho`` < 1: they suggest what they
lack; 1: neutral between own and open cards; > 1: they bluff). They accuse when their exact
(plain) posterior makes the envelope certain.

The measured player (the focal seat, rotating with the game number) suggests as
:mod:`engines.cluedo.race`'s bots do (a card per category uniform among those its plain posterior
allows in the envelope: the same for every engine, since rho > 0 never changes which deals are
possible) and accuses its most probable triple once its probability reaches ``theta``. Four
engines give that probability, each on the same game (paired, common random numbers: the focal's
suggestions do not depend on the engine, so the game is the same up to the focal's accusation,
whose outcome alone decides the focal's result):

* ``today``: no suggestion model (rho = 1 for everybody);
* ``right``: the opponents' true rho;
* ``learned``: each opponent's rho learned from the log (:func:`engines.cluedo.suggestions.learn_trust`,
  the posterior geometric mean plugged in);
* ``assume-lacks``: rho = 0.25 for everybody (the New game dialog's "suggests what they lack"),
  the wrong model against bluffers.

With ``rule="advice"`` the focal accuses instead by the accuse-or-wait advice of
:mod:`engines.cluedo.accuse` computed under each engine's model (:func:`_advice`; the
``model-advice`` study of :mod:`engines.studies`).

Per game and engine: whether the focal won (its accusation correct and made before an opponent's
correct one), whether it accused wrongly, and the focal turn of its accusation. Win rates with
95 % Wilson intervals (``scipy.stats.binomtest``; the unit is the game); each engine against
``today`` by the exact McNemar test (a binomial test on the games where exactly one of the two
won) and, for the turn of a correct accusation, the Mann-Whitney U test (won games), and on
the games where both accused correctly (whoever won) the paired turn difference and its sign test.

``python -m engines.cluedo.suggestion_race --behaviour lack-0.1 --games 400 --out FILE.jsonl``
plays and appends one JSON line per game (resumable in chunks with ``--start``);
``--summarise FILE.jsonl ...`` prints the table.
"""
from __future__ import annotations

import functools
import json
import time
from dataclasses import replace
from typing import Optional

import numpy as np

from engines.cluedo.accuse import best_triple
from engines.cluedo.inference import infer
from engines.cluedo.model import HandEvent, Setup, SuggestionEvent
from engines.cluedo.race import _certain_triple, _figure
from engines.cluedo.simulate import play_suggestion, random_deal
from engines.cluedo.suggestions import learn_trust
from engines.core.errors import SessionFormatError, check_cancel

BEHAVIOURS = {"lack-0.1": 0.1, "lack-0.5": 0.5, "neutral": 1.0, "bluff-4": 4.0}
#: When the focal accuses: at a fixed threshold on its best triple, or by the accuse-or-wait advice.
RULES = ("threshold", "advice")
ENGINES = ("today", "right", "learned", "assume-lacks")
ASSUMED_LACKS = 0.25


def behaviour_suggestion(setup: Setup, deal: np.ndarray, seat: int, log: list, rho: float,
                         rng: np.random.Generator) -> tuple:
    """A bot's triple: per category a card with weight ``rho`` (own card), 1 (allowed in the
    envelope by the bot's plain exact posterior) or 0 (known to be elsewhere)."""
    env = infer(setup, log).matrix[:, -1]
    triple = []
    start = 0
    for _, deck in setup.categories:
        w = np.array([rho if deal[start + j] == seat else (1.0 if env[start + j] > 0 else 0.0)
                      for j in range(len(deck))])
        triple.append(deck[int(rng.choice(len(deck), p=w / w.sum()))])
        start += len(deck)
    return tuple(triple)


def _allowed_suggestion(setup: Setup, log: list, rng: np.random.Generator) -> tuple:
    env = infer(setup, log).matrix[:, -1]
    triple = []
    start = 0
    for _, deck in setup.categories:
        ok = [c for j, c in enumerate(deck) if env[start + j] > 0]
        triple.append(ok[int(rng.integers(len(ok)))])
        start += len(deck)
    return tuple(triple)


def _engine_rhos(setup: Setup, log: list, engine: str, rho_true: float, cancel) -> dict:
    opps = [p for p in setup.players if p != setup.me]
    if engine == "today":
        return {}
    if engine == "right":
        return {p: rho_true for p in opps}
    if engine == "assume-lacks":
        return {p: ASSUMED_LACKS for p in opps}
    return {p: learn_trust(setup, log, p, None, cancel).geometric_mean for p in opps}


def _bound(setup: Setup, log: list, rhos: dict) -> float:
    """An upper bound on P(best triple): the smallest over categories of the largest envelope
    marginal (a triple is no likelier than any of its cards)."""
    s = setup if not rhos else replace(setup, suggestion_trust=tuple(rhos.items()))
    env = infer(s, log).envelope_marginals()
    return min(max(d.values()) for d in env.values())


#: One-sided level of the look-ahead's exact upper bound below which the advice waits without
#: refining (about a 4-sigma normal tail).
WAIT_ALPHA = 3.2e-5


@functools.lru_cache(maxsize=4096)
def _wait_bound(k: int, n: int) -> float:
    """The exact (Clopper and Pearson, Biometrika, 1934) upper bound of ``q`` at the one-sided
    level :data:`WAIT_ALPHA` when ``k`` of ``n`` deals show an opponent naming the envelope."""
    from scipy.stats import beta

    return 1.0 if k >= n else float(beta.ppf(1.0 - WAIT_ALPHA, k + 1, n - k))


def _stage_outcome(pc: float, k: int, n: int, last: bool) -> str:
    """What :func:`_advice` does after a stage of ``n`` deals of which ``k`` show an opponent
    naming the envelope: ``"wait"`` or ``"accuse"`` (decided) or ``"more"`` (the next stage).
    The standard error is that of the ``n`` 0/1 values, as :func:`p_any_knows_after_next_suggestion`
    computes it."""
    from engines.cluedo.accuse import decide

    q, se = _figure(k, n)
    if pc < 1.0 - _wait_bound(k, n):
        return "wait"
    if last or abs(pc - (1.0 - q)) > 4 * max(se, 0.5 / np.sqrt(n)):
        return "accuse" if decide(pc, q) == "accuse now" else "wait"
    return "more"


def _advice(setup: Setup, log: list, rhos: dict, seed: int, cancel,
            stages: tuple = (8, 32)) -> Optional[tuple]:
    """The accuse-or-wait advice of :mod:`engines.cluedo.accuse` under the suggestion model
    ``rhos`` (``{}``: none): ``(triple, p_correct)`` when it says "accuse now", else None.

    ``p_correct`` is exact (:func:`engines.cluedo.accuse.best_triple`); the opponents' figure
    ``q`` is the look-ahead (:func:`engines.cluedo.opponents.p_any_knows_after_next_suggestion`)
    from sampled deals of the (weighted) posterior (each deal a 0/1 outcome: some opponent can
    name the envelope after their next suggestion, or none), refined only while the decision is
    in doubt, as the accusation race of :mod:`engines.cluedo.race` does: first the fewest deals
    that can decide a wait (``ln(WAIT_ALPHA) / ln(p_correct)``: 2 early in the game, 9 at
    ``p_correct`` = 0.3), then each of ``stages`` above it (default 8, then 32):

    * wait at once when even the exact upper bound of ``q`` (Clopper and Pearson, Biometrika,
      1934) at the one-sided level :data:`WAIT_ALPHA` leaves the threshold ``1 - q`` above
      ``p_correct``;
    * else decide by the rule once ``p_correct`` is more than 4 standard errors (at least the
      Bernoulli bound 0.5 / sqrt(n)) from ``1 - q``, or at the last stage.

    Each stage's deals are evaluated one at a time (:func:`engines.cluedo.opponents.iter_lookahead`)
    and the stage stops as soon as every count of positives its remaining deals can still reach
    leads to the same step (:func:`_stage_outcome`; Wald's sequential idea, Wald, *Sequential
    Analysis*, 1947, with the stage's own fixed-sample test as the rule): the advice is the
    one the whole stage gives, for fewer counted views (the model-advice study's quick run:
    measured in docs/cluedo-suggestion-model.md)."""
    from engines.cluedo.accuse import CERTAIN
    from engines.cluedo.opponents import iter_lookahead

    triple, pc = best_triple(setup, log, cancel, rhos=rhos)
    if pc >= CERTAIN:
        return triple, pc
    # the fewest deals whose exact upper bound, when none shows an opponent naming the
    # envelope, leaves 1 - q above p_correct: ln(alpha) / ln(p_correct)
    first = int(np.ceil(np.log(WAIT_ALPHA) / np.log(pc))) if pc > 0 else 2
    first = int(min(max(first, 2), stages[-1]))     # 2: the sampler draws at least 2
    sizes = [first] + [m for m in stages if m > first]
    for stage, n in enumerate(sizes):
        last = stage == len(sizes) - 1
        steps = [_stage_outcome(pc, x, n, last) for x in range(n + 1)]    # by count of positives
        k = done = 0
        for v in iter_lookahead(setup, log, samples=n, seed=seed + stage, cancel=cancel, rhos=rhos):
            k += int(v)
            done += 1
            if len(set(steps[k:k + n - done + 1])) == 1:
                break
        if steps[k] != "more":
            return (triple, pc) if steps[k] == "accuse" else None
    raise AssertionError("the last stage always decides")   # pragma: no cover


def play_game(setup: Setup, rho_true: float, focal: int, rng: np.random.Generator, *,
              theta: float = 0.8, max_rounds: int = 40, engines: tuple = ENGINES, ignore_model: bool = False,
              rule: str = "threshold", advice_stages: tuple = (8, 32), cancel=None) -> dict:
    """One game (module docstring). Returns ``{"focal", "rounds", "opponent_win": [round, seat]
    or None, engine: {"turn", "correct"} or None (never accused)}`` for each of ``engines`` (a
    subset of :data:`ENGINES`; the game does not depend on which: the focal's suggestions never
    do). ``ignore_model``: every engine runs without the model (rho = 1), the broken variant
    that a study's test must tell apart from the real one. ``rule``: when the focal accuses,
    ``"threshold"`` (its best triple's probability reaches ``theta``) or ``"advice"`` (the
    accuse-or-wait advice under the engine's model, :func:`_advice`; the opponents' figure's
    samples seeded alike for every engine, common random numbers; ``advice_stages``: its
    sampled deals, :func:`_advice`)."""
    if rule not in RULES:
        raise SessionFormatError("rule", f"one of {', '.join(RULES)}")
    k = len(setup.players)
    deal = random_deal(setup, rng)
    # drawn only for the advice rule, so that the threshold rule's games stay those of its table
    advice_seed = int(rng.integers(1 << 30)) if rule == "advice" else 0
    names = setup.players
    setups = [replace(setup, players=names, me=n, dice=None, pawns=(), suggestion_trust=())
              for n in names]
    logs = [[HandEvent(player=n, cards=tuple(c for c, o in zip(setup.cards, deal) if o == p))] for p,
            n in enumerate(names)]
    envelope = tuple(c for c, o in zip(setup.cards, deal) if o == k)
    out: dict = {"focal": focal, "opponent_win": None}
    open_ = [e for e in ENGINES if e in engines and (rho_true != 1.0 or e != "right")]
    decided: dict = {}
    turn = 0
    for rnd in range(max_rounds):
        for p in range(k):
            check_cancel(cancel)
            if p == focal:
                turn += 1
                triple = _allowed_suggestion(setups[p], logs[p], rng)
            else:
                triple = behaviour_suggestion(setups[p], deal, p, logs[p], rho_true, rng)
            ev = play_suggestion(setup, deal, p, triple, rng, reveal=True)
            hidden = SuggestionEvent(suggester=ev.suggester, cards=ev.cards, passed=ev.passed, refuter=ev.refuter,
                                     shown=None)
            for q in range(k):
                sees = q == p or (ev.refuter is not None and names[q] == ev.refuter)
                logs[q].append(ev if sees else hidden)
            if p == focal:
                for eng in list(open_):
                    rhos = {} if ignore_model else _engine_rhos(setups[p], logs[p], eng, rho_true, cancel)
                    if rule == "advice":
                        got = _advice(setups[p], logs[p], rhos, advice_seed + 1000 * turn, cancel,
                                      advice_stages)
                        if got is None:
                            continue
                        acc, pc = got
                    else:
                        if _bound(setups[p], logs[p], rhos) < theta:
                            continue
                        acc, pc = best_triple(setups[p], logs[p], cancel, rhos=rhos)
                        if pc < theta:
                            continue
                    decided[eng] = {"turn": turn, "correct": tuple(acc) == envelope, "p": round(pc, 6)}
                    open_.remove(eng)
                if not open_:
                    break
            elif _certain_triple(setups[p], logs[p]) is not None:
                out["opponent_win"] = [rnd + 1, p]
                break
        if out["opponent_win"] or not open_:
            break
    out["rounds"] = rnd + 1
    for eng in engines:
        out[eng] = decided.get(eng) if eng != "right" or rho_true != 1.0 else decided.get("today")
    return out


def run(behaviour: str, games: int, *, start: int = 0, seed: int = 0, players: int = 4,
        theta: float = 0.8, out_path: Optional[str] = None, engines: tuple = ENGINES,
        ignore_model: bool = False, rule: str = "threshold", advice_stages: tuple = (8, 32),
        progress=None, cancel=None) -> list:
    """Games ``start .. start + games - 1`` against ``behaviour`` opponents (a key of
    :data:`BEHAVIOURS`); game ``g`` uses the ``g``-th child of ``SeedSequence(seed)`` whatever the
    chunking, its focal seat is ``g % players``. Appends a JSON line per game to ``out_path``.
    ``engines`` (must include ``"today"``), ``ignore_model``, ``rule`` and ``advice_stages``:
    :func:`play_game`;
    ``progress(done, games)`` after each game.

    Raises:
        SessionFormatError: unknown behaviour or engine, or counts out of range.
    """
    if behaviour not in BEHAVIOURS:
        raise SessionFormatError("behaviour", f"one of {', '.join(BEHAVIOURS)}")
    if "today" not in engines or not set(engines) <= set(ENGINES):
        raise SessionFormatError("engines", f"\"today\" and any of {', '.join(ENGINES[1:])}")
    if not 1 <= games <= 100_000 or not 0 <= start <= 1_000_000:
        raise SessionFormatError("games", "between 1 and 100000 (start below 1000000)")
    if not 3 <= players <= 6:
        raise SessionFormatError("players", "3 to 6 players")
    if not 0 < theta <= 1:
        raise SessionFormatError("theta", "in (0, 1]")
    names = [f"P{i + 1}" for i in range(players)]
    setup = Setup.from_json({"edition": "cluedo-uk", "players": names, "me": names[0]}, "$.race")
    seqs = np.random.SeedSequence([seed, sorted(BEHAVIOURS).index(behaviour)]).spawn(start + games)[start:]
    results = []
    for i, ss in enumerate(seqs):
        g = start + i
        t0 = time.perf_counter()
        res = play_game(setup, BEHAVIOURS[behaviour], g % players, np.random.default_rng(ss),
                        theta=theta, engines=engines, ignore_model=ignore_model, rule=rule,
                        advice_stages=advice_stages, cancel=cancel)
        res.update(game=g, behaviour=behaviour, theta=theta, seconds=round(time.perf_counter() - t0, 2))
        if rule != "threshold":
            res["rule"] = rule
        results.append(res)
        if out_path:
            with open(out_path, "a", encoding="utf-8") as f:
                f.write(json.dumps(res) + "\n")
        if progress is not None:
            progress(i + 1, games)
    return results


def summarise(results: list) -> dict:
    """The table per behaviour and engine: win rate (Wilson 95 %), wrong accusations (Wilson),
    the exact McNemar test against ``today`` (two-sided), the focal turn of correct winning
    accusations (mean, median) and the Mann-Whitney U test of those turns against ``today``."""
    from scipy.stats import binomtest, mannwhitneyu

    def rate(x, n):
        if n == 0:
            return None
        ci = binomtest(x, n).proportion_ci(confidence_level=0.95, method="wilson")
        return {"k": x, "n": n, "rate": round(x / n, 4), "wilson_95": [round(ci.low, 4), round(ci.high, 4)]}

    out: dict = {}
    by_b: dict = {}
    for r in results:
        by_b.setdefault(r["behaviour"], []).append(r)
    for b, rs in sorted(by_b.items(), key=lambda t: BEHAVIOURS[t[0]]):
        def won(r, eng):
            d = r[eng]
            if d is None or not d["correct"]:
                return False
            ow = r["opponent_win"]
            # the focal's accusation on its turn of a round comes before later seats' turns
            return ow is None or d["turn"] < ow[0] or (d["turn"] == ow[0] and r["focal"] < ow[1])
        row: dict = {"games": len(rs), "opponent_won": sum(r["opponent_win"] is not None for r in rs)}
        wins_today = [won(r, "today") for r in rs]
        turns_today = [r["today"]["turn"] for r in rs if won(r, "today")]
        for eng in _played(rs):
            wins = [won(r, eng) for r in rs]
            wrong = sum(1 for r in rs if r[eng] is not None and not r[eng]["correct"])
            turns = [r[eng]["turn"] for r, w in zip(rs, wins) if w]
            e = {"win": rate(sum(wins), len(rs)), "wrong_accusation": rate(wrong, len(rs)),
                 "turns_to_win_mean": round(float(np.mean(turns)), 3) if turns else None,
                 "turns_to_win_median": float(np.median(turns)) if turns else None}
            if eng != "today":
                better = sum(1 for a, t in zip(wins, wins_today) if a and not t)
                worse = sum(1 for a, t in zip(wins, wins_today) if t and not a)
                e["vs_today"] = {"won_only_here": better, "won_only_today": worse,
                                 "mcnemar_p": round(float(binomtest(better, better + worse).pvalue), 4)
                                 if better + worse else 1.0}
                if turns and turns_today and turns != turns_today:
                    e["vs_today"]["turns_mannwhitney_p"] = round(float(mannwhitneyu(turns, turns_today).pvalue), 4)
                # paired: the games where both accused correctly (whoever won the race)
                pairs = [(r[eng]["turn"], r["today"]["turn"]) for r in rs
                         if r[eng] and r["today"] and r[eng]["correct"] and r["today"]["correct"]]
                if pairs:
                    d = [a - t for a, t in pairs]
                    e["vs_today"]["paired_turns"] = {
                        "games": len(d), "mean_difference": round(float(np.mean(d)), 3),
                        "earlier": sum(x < 0 for x in d), "later": sum(x > 0 for x in d),
                        "sign_test_p": round(float(binomtest(sum(x < 0 for x in d),
                                                             sum(x != 0 for x in d)).pvalue), 4)
                        if any(d) else 1.0}
            row[eng] = e
        out[b] = row
    return out


def _played(results: list) -> list:
    """The engines every game of ``results`` has, in :data:`ENGINES` order."""
    return [e for e in ENGINES if all(e in r for r in results)]


def _p(p: float) -> str:
    return "< 0.0001" if p < 1e-4 else f"= {p:.3g}"


def markdown(table: dict) -> str:
    """The :func:`summarise` table as Markdown: a row per behaviour and engine."""
    lines = ["| opponents | engine | games | focal wins (95 % Wilson) | wrong accusations | "
             "won only here / only today (McNemar p) | turn of a winning accusation (mean) | "
             "both correct: earlier / later (sign p) |",
             "|---|---|---|---|---|---|---|---|"]
    for b, row in table.items():
        for eng in [e for e in ENGINES if e in row]:
            e = row[eng]
            w = e["win"]
            cell = f"{w['k']} = {100 * w['rate']:.1f} % [{100 * w['wilson_95'][0]:.1f}, {100 * w['wilson_95'][1]:.1f}]"
            wr = e["wrong_accusation"]
            v = e.get("vs_today")
            mc = f"{v['won_only_here']} / {v['won_only_today']} (p {_p(v['mcnemar_p'])})" if v else "—"
            pt = v.get("paired_turns") if v else None
            pts = f"{pt['earlier']} / {pt['later']} of {pt['games']} (p {_p(pt['sign_test_p'])})" if pt else "—"
            turns = "—" if e["turns_to_win_mean"] is None else f"{e['turns_to_win_mean']:.2f}"
            lines.append(f"| {b} | {eng} | {row['games']} | {cell} | {wr['k']} | {mc} | {turns} | {pts} |")
    return "\n".join(lines)


def main(argv=None) -> None:
    """Command line (module docstring)."""
    import argparse
    import sys

    ap = argparse.ArgumentParser(prog="python -m engines.cluedo.suggestion_race",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("--behaviour", choices=list(BEHAVIOURS))
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--theta", type=float, default=0.8)
    ap.add_argument("--rule", choices=list(RULES), default="threshold")
    ap.add_argument("--out")
    ap.add_argument("--summarise", nargs="+", metavar="FILE")
    ap.add_argument("--markdown", action="store_true", help="with --summarise: a Markdown table")
    a = ap.parse_args(argv)
    try:
        if a.summarise:
            rs = []
            for name in a.summarise:
                with open(name, encoding="utf-8") as f:
                    rs += [json.loads(line) for line in f if line.strip()]
            table = summarise(rs)
            print(markdown(table) if a.markdown else json.dumps(table, indent=1))
            return
        if not a.behaviour:
            ap.error("--behaviour or --summarise")
        rs = run(a.behaviour, a.games, start=a.start, seed=a.seed, players=a.players, theta=a.theta,
                 out_path=a.out, rule=a.rule)
        print(json.dumps(summarise(rs), indent=1))
    except SessionFormatError as exc:
        print(f"error: {exc}", file=sys.stderr)
        raise SystemExit(2) from None


if __name__ == "__main__":
    main()
