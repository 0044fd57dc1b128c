"""Why the spy wins, and the equilibrium of the hide-reveal game (“Spyfall with Pyro”, "Collect statistics to
try out different strategies against each other and fine-tune parameters").

Two studies on one table (:data:`TABLE`: 5 players, the 27 locations of Spyfall 1, 5 rounds):

1. **Win rate against the non-spies' λ, β and vote rule** (:func:`win_rate_study`): every seat
   plays flat hide-reveal with the same (β, λ); the vote is “Spyfall with Pyro”'s (after 5 rounds, every
   player votes its most likely spy) or an early vote, called as soon as a spy probability
   reaches a threshold — the public spy belief (``public``) or a non-spy's private one
   (``private``, “Spyfall with Pyro”'s "end-game threshold for any player").
2. **The hide-reveal game** (:func:`payoff_matrix`, :func:`solve_matrix_game`): the non-spies
   choose a (λ, flat|dynamic) — their table model, known to all — and the spy secretly emits
   with its own (λ_s, flat|dynamic) while everyone reads its claims with the table's model. Each
   cell is a tournament (common random numbers: every cell plays the same deals) giving the
   non-spy win rate with its Wilson 95% interval; the zero-sum game is solved by linear
   programming (von Neumann's minimax theorem; e.g. Shoham & Leyton-Brown, "Multiagent
   Systems", 2009, §4.1) for both sides' mixed strategies and the value. The value's interval
   is the game solved on the matrices of the interval ends (the value is monotone in every
   entry), so it holds whenever every cell's interval does.

``python -m engines.spyfall.equilibrium`` reruns both (about 3 minutes on 2 cores) and writes
``resources/spyfall/equilibrium.json``, which :func:`equilibrium_strategy` (and so the
recommendation line, :func:`engines.spyfall.recommend.recommend`) reads;
``python tests/benchmarks/plot_spyfall_studies.py`` draws the figures of
``docs/spyfall-equilibrium.md``.
"""
from __future__ import annotations

import argparse
import itertools
import time
from functools import lru_cache
from typing import Optional, Sequence

import numpy as np
from scipy.stats import binomtest

from engines.core.cluster_stats import solve_matrix_game
from engines.core.resources import load_json_resource, resource_path, save_json_result
from engines.spyfall.simulate import SimConfig, simulate

#: The studied table: the tab's default (5 players, Spyfall 1's 27 locations, 5 rounds, β = 5).
TABLE = {"players": 5, "locations": 27, "rounds": 5, "beta": 5.0}
#: The non-spies' pure strategies (λ, emission strategy) of the game.
NON_SPY_STRATEGIES = tuple((lam, st) for st in ("flat", "dynamic") for lam in (0.05, 0.15, 0.3, 0.5, 0.7))
#: The spy's pure strategies (λ_s, emission strategy): λ_s = 0 is a claim of pure noise.
SPY_STRATEGIES = tuple((lam, st) for st in ("flat", "dynamic") for lam in (0.0, 0.15, 0.3, 0.5, 0.7, 0.9))
#: The vote rule of the game: an early vote when a non-spy's private spy belief reaches 0.6
#: (the best rule of the win-rate study; see docs/spyfall-equilibrium.md).
GAME_VOTE = {"vote_threshold": 0.6, "vote_on": "private"}
RESULT_FILE = ("spyfall", "equilibrium.json")
#: The refinement: the low-λ flat rows the coarse matrix cannot tell apart, against the spy's
#: best replies, with more games per cell (another deal seed).
REFINE_NON_SPY = ((0.05, "flat"), (0.15, "flat"), (0.3, "flat"), (0.5, "flat"))
REFINE_SPY = ((0.0, "flat"), (0.15, "flat"), (0.3, "flat"), (0.0, "dynamic"), (0.7, "flat"))


def wilson_ci(k: int, n: int) -> tuple:
    """Wilson score 95% interval of k successes in n trials (scipy.stats.binomtest)."""
    ci = binomtest(int(k), int(n)).proportion_ci(confidence_level=0.95, method="wilson")
    return (float(ci.low), float(ci.high))


def _cell(args) -> dict:
    key, config = args
    r = simulate(config)
    k = int(round((1.0 - r.spy_win_rate) * config.games))
    lo, hi = wilson_ci(k, config.games)
    return {**key, "games": config.games, "non_spy_wins": k, "non_spy_win_rate": k / config.games,
            "ci95": [lo, hi], "accusation_accuracy": r.accusation_accuracy,
            "spy_location_accuracy": r.spy_location_accuracy,
            "mean_turns": float(np.mean([g["turns"] for g in r.records]))}


def _run(cells: list, workers: int) -> list:
    if workers <= 1:
        return [_cell(c) for c in cells]
    import multiprocessing as mp

    with mp.get_context("spawn").Pool(workers) as pool:
        return pool.map(_cell, cells, chunksize=1)


def _config(games: int, seed: int, **kw) -> SimConfig:
    kw.setdefault("beta", TABLE["beta"])
    return SimConfig(players=TABLE["players"], locations=TABLE["locations"], rounds=TABLE["rounds"],
                     games=games, seed=seed, workers=1, **kw)


def win_rate_study(games: int = 200, lams: Sequence[float] = (0.05, 0.15, 0.3, 0.5, 0.7, 0.9),
                   betas: Sequence[float] = (1.0, 5.0, 20.0),
                   votes: Sequence[tuple] = (("end", None), ("public", 0.6), ("private", 0.6),
                                             ("private", 0.9)),
                   seed: int = 1, workers: int = 2) -> list:
    """Non-spy win rate with every seat flat hide-reveal at (β, λ), per vote rule.

    Returns:
        rows ``{"lambda", "beta", "vote", "threshold", "games", "non_spy_wins",
        "non_spy_win_rate", "ci95", "accusation_accuracy", "spy_location_accuracy",
        "mean_turns"}`` (rates in [0, 1]; ``vote`` is "end", "public" or "private").
    """
    cells = []
    for lam, beta, (vote, thr) in itertools.product(lams, betas, votes):
        kw = {} if vote == "end" else {"vote_threshold": thr, "vote_on": vote}
        cells.append(({"lambda": lam, "beta": beta, "vote": vote, "threshold": thr},
                      _config(games, seed, lam=lam, beta=beta, seats=("flat",) * TABLE["players"],
                              **kw)))
    return _run(cells, workers)


def payoff_matrix(games: int = 300, seed: int = 2, workers: int = 2,
                  non_spy: Sequence[tuple] = NON_SPY_STRATEGIES,
                  spy: Sequence[tuple] = SPY_STRATEGIES, vote: Optional[dict] = None) -> dict:
    """Tournaments over non-spy × spy pure strategies (module docstring, study 2).

    Returns:
        ``{"rate", "low", "high"}`` arrays (len(non_spy), len(spy)) of the non-spy win rate and
        its Wilson 95% interval, ``"cells"`` (the per-cell rows), ``"games"`` per cell.
    """
    vote = GAME_VOTE if vote is None else vote
    cells = []
    for (lam, st), (slam, sst) in itertools.product(non_spy, spy):
        cells.append(({"lambda": lam, "strategy": st, "spy_lambda": slam, "spy_strategy": sst},
                      _config(games, seed, lam=lam, seats=(st,) * TABLE["players"],
                              spy_lam=slam, spy_strategy=sst, **vote)))
    rows = _run(cells, workers)
    shape = (len(non_spy), len(spy))
    return {"rate": np.array([r["non_spy_win_rate"] for r in rows]).reshape(shape),
            "low": np.array([r["ci95"][0] for r in rows]).reshape(shape),
            "high": np.array([r["ci95"][1] for r in rows]).reshape(shape),
            "cells": rows, "games": games}


def solve(matrix: dict, non_spy: Sequence[tuple] = NON_SPY_STRATEGIES,
          spy: Sequence[tuple] = SPY_STRATEGIES) -> dict:
    """The equilibrium of a :func:`payoff_matrix` result (non-spies = row maximiser)."""
    x, y, v = solve_matrix_game(matrix["rate"])
    _, _, v_lo = solve_matrix_game(matrix["low"])
    _, _, v_hi = solve_matrix_game(matrix["high"])
    return {"value": v, "value_ci95": [v_lo, v_hi],
            "non_spy": [{"lambda": lam, "strategy": st, "probability": float(p)}
                        for (lam, st), p in zip(non_spy, x)],
            "spy": [{"lambda": lam, "strategy": st, "probability": float(p)}
                    for (lam, st), p in zip(spy, y)]}


def refinement(games: int = 1000, workers: int = 2) -> dict:
    """The refined sub-game (:data:`REFINE_NON_SPY` × :data:`REFINE_SPY`, deal seed 5), solved:
    ``{"non_spy_strategies", "spy_strategies", "games_per_cell", "non_spy_win_rate",
    "ci95_low", "ci95_high", "equilibrium"}`` (rates in [0, 1])."""
    m = payoff_matrix(games, seed=5, workers=workers, non_spy=REFINE_NON_SPY, spy=REFINE_SPY)
    return {"non_spy_strategies": [list(x) for x in REFINE_NON_SPY],
            "spy_strategies": [list(x) for x in REFINE_SPY], "games_per_cell": games,
            "non_spy_win_rate": m["rate"].round(4).tolist(),
            "ci95_low": m["low"].round(4).tolist(), "ci95_high": m["high"].round(4).tolist(),
            "equilibrium": solve(m, REFINE_NON_SPY, REFINE_SPY)}


@lru_cache(maxsize=1)
def load_equilibrium() -> dict:
    """The stored study (``resources/spyfall/equilibrium.json``, written by ``main``)."""
    return load_json_resource(*RESULT_FILE)


def equilibrium_strategy(side: str) -> list:
    """The equilibrium mixed strategy of one side of the stored hide-reveal game.

    Args:
        side: "spy" or "non_spy".

    Returns:
        ``[{"lambda", "strategy", "probability"}, ...]``, the pure strategies with positive
        probability (> 0.5 %), most probable first; probabilities renormalised to sum to 1.

    Raises:
        ValueError: an unknown side. The table solved is :data:`TABLE`; other tables use it
        as an approximation.
    """
    if side not in ("spy", "non_spy"):
        raise ValueError(f"side must be 'spy' or 'non_spy', got {side!r}")
    mix = [dict(m) for m in load_equilibrium()["equilibrium"][side] if m["probability"] > 0.005]
    tot = sum(m["probability"] for m in mix)
    for m in mix:
        m["probability"] /= tot
    return sorted(mix, key=lambda m: -m["probability"])


def early_vote_threshold() -> float:
    """The private spy probability at which the stored game's non-spies call the vote."""
    return float(load_equilibrium()["game_vote"]["vote_threshold"])


def main(argv: Optional[Sequence[str]] = None) -> dict:
    """Rerun both studies, write ``resources/spyfall/equilibrium.json`` and print Markdown tables."""
    p = argparse.ArgumentParser(prog="python -m engines.spyfall.equilibrium",
                                description=__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=300, help="games per payoff-matrix cell (default 300)")
    p.add_argument("--study-games", type=int, default=200,
                   help="games per cell of the win-rate study (default 200)")
    p.add_argument("--refine-games", type=int, default=1000,
                   help="games per cell of the refined sub-game (default 1000)")
    p.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    p.add_argument("--out", default=None, help="output JSON (default resources/spyfall/equilibrium.json)")
    a = p.parse_args(argv)
    for name in ("games", "study_games", "refine_games"):
        if not 1 <= getattr(a, name) <= 100_000:
            p.error(f"--{name.replace('_', '-')} must be in 1..100000")
    t0 = time.perf_counter()
    study = win_rate_study(a.study_games, workers=a.workers)
    t1 = time.perf_counter()
    mat = payoff_matrix(a.games, workers=a.workers)
    eq = solve(mat)
    t2 = time.perf_counter()
    ref = refinement(a.refine_games, a.workers)
    t3 = time.perf_counter()
    out = {"_comment": "written by python -m engines.spyfall.equilibrium; see docs/spyfall-equilibrium.md",
           "table": TABLE, "game_vote": GAME_VOTE, "games_per_cell": a.games,
           "non_spy_strategies": [list(s) for s in NON_SPY_STRATEGIES],
           "spy_strategies": [list(s) for s in SPY_STRATEGIES],
           "non_spy_win_rate": mat["rate"].round(4).tolist(),
           "ci95_low": mat["low"].round(4).tolist(), "ci95_high": mat["high"].round(4).tolist(),
           "equilibrium": eq, "refinement": ref, "win_rate_study": study,
           "seconds": {"win_rate_study": round(t1 - t0, 1), "payoff_matrix": round(t2 - t1, 1),
                       "refinement": round(t3 - t2, 1)}}
    path = a.out or str(resource_path(*RESULT_FILE))
    save_json_result(out, path)
    print(markdown(out))
    return out


def markdown(res: dict) -> str:
    """The Markdown tables of docs/spyfall-equilibrium.md from a stored result."""
    lines = ["### Non-spy win rate by λ, β and vote rule (every seat flat)", "",
             "| λ | β | vote | non-spy win | 95% CI | accusation | spy names location | turns |",
             "|---|---|---|---|---|---|---|---|"]
    for r in res["win_rate_study"]:
        vote = "after 5 rounds" if r["vote"] == "end" else f"early, {r['vote']} ≥ {r['threshold']}"
        lines.append(f"| {r['lambda']} | {r['beta']:g} | {vote} | {r['non_spy_win_rate']:.3f} | "
                     f"{r['ci95'][0]:.3f}–{r['ci95'][1]:.3f} | {r['accusation_accuracy']:.2f} | "
                     f"{r['spy_location_accuracy']:.2f} | {r['mean_turns']:.1f} |")
    spy = res["spy_strategies"]
    lines += ["", "### Payoff matrix: non-spy win rate (rows: non-spies, columns: spy)", "",
              "| non-spies \\ spy | " + " | ".join(f"{s} {l:g}" for l, s in spy) + " |",
              "|---|" + "---|" * len(spy)]
    for i, (lam, st) in enumerate(res["non_spy_strategies"]):
        cells = [f"{res['non_spy_win_rate'][i][j]:.2f} ({res['ci95_low'][i][j]:.2f}–"
                 f"{res['ci95_high'][i][j]:.2f})" for j in range(len(spy))]
        lines.append(f"| {st} {lam:g} | " + " | ".join(cells) + " |")
    eq = res["equilibrium"]
    lines += ["", f"**Value** (non-spy win probability at equilibrium): {eq['value']:.3f} "
                  f"(interval from the cells' Wilson intervals: {eq['value_ci95'][0]:.3f}–"
                  f"{eq['value_ci95'][1]:.3f}).", "",
              "| side | strategy | probability |", "|---|---|---|"]
    for side in ("non_spy", "spy"):
        for m in eq[side]:
            if m["probability"] > 0.005:
                lines.append(f"| {side.replace('_', '-')} | {m['strategy']} λ = {m['lambda']:g} | "
                             f"{m['probability']:.3f} |")
    if "refinement" in res:
        ref = res["refinement"]
        rs = ref["spy_strategies"]
        lines += ["", f"### Refinement ({ref['games_per_cell']} games per cell, another deal seed)",
                  "",
                  "| non-spies \\ spy | " + " | ".join(f"{s} {l:g}" for l, s in rs) + " |",
                  "|---|" + "---|" * len(rs)]
        for i, (lam, st) in enumerate(ref["non_spy_strategies"]):
            cells = [f"{ref['non_spy_win_rate'][i][j]:.3f} ({ref['ci95_low'][i][j]:.3f}–"
                     f"{ref['ci95_high'][i][j]:.3f})" for j in range(len(rs))]
            lines.append(f"| {st} {lam:g} | " + " | ".join(cells) + " |")
        e = ref["equilibrium"]
        best = lambda side: ", ".join(f"{m['strategy']} {m['lambda']:g} ({m['probability']:.2f})"  # noqa: E731 (a one-line key function)
                                      for m in e[side] if m["probability"] > 0.005)
        lines += ["", f"Refined value {e['value']:.3f} ({e['value_ci95'][0]:.3f}–"
                      f"{e['value_ci95'][1]:.3f}); non-spies: {best('non_spy')}; spy: {best('spy')}."]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
