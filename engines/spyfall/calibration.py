"""Calibration of the claim weight w for claims entered on the worksheet's {0, ½, 1} grid.

“Spyfall with Pyro”'s model reads a claim as an exact point of the simplex with a Dirichlet density. A
person at the table answers in words, and the Spyfall tab turns the answer into clicks: each
location 0, ½ or 1, then normalised (zeros floored at 1e-6, see
:func:`engines.spyfall.model.normalise_claim`). Read with the exact density, such a claim sits
on the edge of the simplex where the density is extreme, and one claim can move the public spy
belief by tens of bits. A tempered likelihood (every claim's log-likelihood times w in (0, 1];
Bissiri, Holmes & Walker 2016, "A general framework for updating belief distributions";
Grünwald & van Ommen 2017) keeps the model and scales its evidence; w is chosen by prediction:

1. play bot games with the tab's model (:func:`bot_games`; the bots of
   :mod:`engines.spyfall.simulate`, exact claims, no early vote);
2. round every claim to the grid as a person clicking would (:func:`grid_claim`: scaled so its
   largest weight is 1, each weight rounded to the nearest of 0, ½, 1);
3. for each w of a grid, replay the rounded claims as the public observer and score the public
   spy posterior after every claim against the true spy: the log loss −log P_t(S = spy), in
   nats, averaged over games and turns (:func:`score`);
4. take the w with the least log loss; the reliability diagram (predicted P(k is the spy)
   against the observed frequency, all players and turns pooled, 10 bins) shows the result.

``python -m engines.spyfall.calibration`` reruns it (about a minute on one core) and writes
``resources/spyfall/calibration.json``; ``python tests/benchmarks/plot_spyfall_studies.py`` draws
the figures of ``docs/spyfall-calibration.md``.
"""
from __future__ import annotations

import argparse
import time
from functools import lru_cache
from typing import Optional, Sequence

import numpy as np

from engines.core.resources import load_json_resource, resource_path, save_json_result
from engines.spyfall.inference import BeliefTracker
from engines.spyfall.model import normalise_claim
from engines.spyfall.simulate import bot_claim

#: The w grid of the study (log-spaced; 1 is “Spyfall with Pyro”'s model).
W_GRID = (0.01, 0.015, 0.02, 0.03, 0.04, 0.05, 0.07, 0.1, 0.15, 0.2, 0.3, 0.5, 0.7, 1.0)
RESULT_FILE = ("spyfall", "calibration.json")
_BINS = 10


def grid_claim(c) -> np.ndarray:
    """A claim as the worksheet would enter it: scaled so its largest weight is 1, each weight
    rounded to the nearest of {0, ½, 1} (ties up), then normalised and floored.

    Args:
        c: non-negative weights (n,), not all zero.
    Returns:
        the floored claim on the simplex (n,) (:func:`~engines.spyfall.model.normalise_claim`).
    """
    c = np.asarray(c, float)
    g = np.floor(2.0 * c / c.max() + 0.5 + 1e-9) / 2.0  # 1e-9: a tie in decimal stays a tie
    return normalise_claim(g)


def bot_games(games: int, players: int = 5, locations: int = 27, rounds: int = 5,
              beta: float = 5.0, lam: float = 0.7, strategy: str = "flat", seed: int = 7) -> list:
    """Bot games for the study: ``[(location, spy, [(seat, claim (n,)), ...]), ...]``.

    Every seat plays ``strategy`` with (β, λ); game i draws from ``default_rng([seed, i])``.
    """
    out = []
    for i in range(games):
        rng = np.random.default_rng([seed, i])
        loc, spy = int(rng.integers(locations)), int(rng.integers(players))
        tr = BeliefTracker(locations, players, np.full(players, beta), np.full(players, lam),
                           (strategy,) * players)
        claims = []
        for t in range(rounds * players):
            j = t % players
            params = tr.emission(j)
            c = bot_claim(tr, j, loc, spy, rng, params)
            tr.add_claim(j, c, params)
            claims.append((j, c))
        out.append((loc, spy, claims))
    return out


def replay_spy_beliefs(game, w: float, n: int, s: int, beta: float, lam: float, strategy: str,
                       rounded: bool = True) -> np.ndarray:
    """The public spy belief after each claim of one game, read with claim weight w.

    Returns:
        (T, s) array: row t = P(S = k | claims 1..t+1).
    """
    _, _, claims = game
    tr = BeliefTracker(n, s, np.full(s, beta), np.full(s, lam), (strategy,) * s, np.full(s, w))
    rows = np.empty((len(claims), s))
    for t, (j, c) in enumerate(claims):
        tr.add_claim(j, grid_claim(c) if rounded else c)
        rows[t] = tr.public_spy()
    return rows


def _log_loss(p_true: np.ndarray) -> float:
    return float(-np.mean(np.log(np.clip(p_true, 1e-300, 1.0))))


def reliability(pred: np.ndarray, truth: np.ndarray, bins: int = _BINS) -> list:
    """Reliability diagram rows: for each bin of predicted probability, ``{"lo", "hi", "count",
    "mean_predicted", "observed", "ci95"}`` (observed frequency with its Wilson 95% interval);
    empty bins are left out."""
    from engines.spyfall.equilibrium import wilson_ci

    edges = np.linspace(0.0, 1.0, bins + 1)
    idx = np.clip(np.searchsorted(edges, pred, side="right") - 1, 0, bins - 1)
    rows = []
    for b in range(bins):
        m = idx == b
        cnt = int(m.sum())
        if cnt == 0:
            continue
        k = int(truth[m].sum())
        rows.append({"lo": float(edges[b]), "hi": float(edges[b + 1]), "count": cnt,
                     "mean_predicted": float(pred[m].mean()), "observed": k / cnt,
                     "ci95": list(wilson_ci(k, cnt))})
    return rows


def score(games: list, w_grid: Sequence[float], n: int, s: int, beta: float, lam: float,
          strategy: str) -> dict:
    """Log loss of the public spy posterior for each w (module docstring, step 3).

    Returns:
        ``{"w": [...], "log_loss": [...] (nats, all turns), "log_loss_final": [...] (after the
        last claim), "exact_log_loss": the unrounded claims at w = 1 (reference),
        "best_w", "reliability": {"1": rows, "best": rows}, "max_step_log_odds": {w: the largest
        change of a player's public spy log-odds by one claim, 99th percentile}}``.
    """
    ll, llf, step99 = [], [], []
    preds = {}
    truth_rows = None
    for w in w_grid:
        pt, pf, steps, allp = [], [], [], []
        for g in games:
            rows = replay_spy_beliefs(g, w, n, s, beta, lam, strategy)
            pt.append(rows[:, g[1]])
            pf.append(rows[-1, g[1]])
            prev = np.vstack([np.full(s, 1.0 / s), rows[:-1]])
            lo = lambda p: np.log(np.clip(p, 1e-300, 1)) - np.log(np.clip(1 - p, 1e-300, 1))  # noqa: E731 (a one-line key function)
            steps.append(np.abs(lo(rows) - lo(prev)).max(1))
            allp.append(rows.ravel())
        ll.append(_log_loss(np.concatenate(pt)))
        llf.append(_log_loss(np.array(pf)))
        step99.append(float(np.percentile(np.concatenate(steps), 99)))
        preds[w] = np.concatenate(allp)
        if truth_rows is None:
            truth_rows = np.concatenate([np.tile(np.eye(s)[g[1]], (len(g[2]), 1)).ravel()
                                         for g in games])
    exact = _log_loss(np.concatenate([replay_spy_beliefs(g, 1.0, n, s, beta, lam, strategy,
                                                         rounded=False)[:, g[1]] for g in games]))
    best = int(np.argmin(ll))
    return {"w": list(w_grid), "log_loss": ll, "log_loss_final": llf, "exact_log_loss": exact,
            "uniform_log_loss": float(np.log(s)), "best_w": float(w_grid[best]),
            "max_step_log_odds_p99": step99,
            "reliability": {"1": reliability(preds[w_grid[-1]], truth_rows),
                            "best": reliability(preds[w_grid[best]], truth_rows)}}


#: The claim-weight table: table sizes (Spyfall 1's 27 locations, Spyfall 1 + 2's 52 and a small
#: custom list of 10; Spyfall 2's 25 reads the 27 row) × the reveal weight λ of flat hide-reveal
#: (at λ ≤ 0.15 grid claims carry no spy information: docs/spyfall-calibration.md).
TABLE_LOCATIONS = (10, 27, 52)
TABLE_LAMBDAS = (0.3, 0.5, 0.7)
TABLE_W_GRID = (0.01, 0.02, 0.03, 0.05, 0.07, 0.1, 0.15, 0.2, 0.3, 0.5, 1.0)
TABLE_FILE = ("spyfall", "calibration_table.json")


def per_game_scores(games: list, w: float, n: int, s: int, beta: float, lam: float,
                    strategy: str = "flat") -> tuple:
    """For one w: each game's mean log loss of the public spy belief over its turns (nats),
    and every claim's change of a player's spy log-odds (the largest over players, nats).

    Returns:
        ``(losses (games,), steps (games × turns,))``.
    """
    losses, steps = [], []
    for g in games:
        rows = replay_spy_beliefs(g, w, n, s, beta, lam, strategy)
        losses.append(float(-np.mean(np.log(np.clip(rows[:, g[1]], 1e-300, 1.0)))))
        prev = np.vstack([np.full(s, 1.0 / s), rows[:-1]])
        lo = lambda p: np.log(np.clip(p, 1e-300, 1)) - np.log(np.clip(1 - p, 1e-300, 1))  # noqa: E731 (a one-line key function)
        steps.append(np.abs(lo(rows) - lo(prev)).max(1))
    return np.array(losses), np.concatenate(steps)


def table_study(games: int = 40, locations: Sequence[int] = TABLE_LOCATIONS,
                lams: Sequence[float] = TABLE_LAMBDAS, w_grid: Sequence[float] = TABLE_W_GRID,
                players: int = 5, rounds: int = 5, beta: float = 5.0, progress=None, seed: int = 7) -> list:
    """The best claim weight per number of locations and λ (flat hide-reveal, grid claims).

    For each (locations, λ): ``games`` bot games (:func:`bot_games`, deal seed ``seed``), every claim
    rounded to the grid, scored for every w of ``w_grid``. The game is the unit of the
    intervals (:func:`engines.core.cluster_stats.cluster_mean_ci`): the turns of one game share
    its deal.

    Returns:
        rows ``{"locations", "lambda", "games", "best_w", "log_loss": [per w] (nats per claim),
        "uniform_log_loss", "gain_nats": the best w's gain over a uniform guess per claim,
        "gain_ci95": its interval by the game, "step_p99": [per w] 99th percentile of one
        claim's change of a spy log-odds (nats), "step_max": [per w] the largest}``.
    """
    from engines.core.cluster_stats import cluster_mean_ci

    out = []
    for n in locations:
        for lam in lams:
            gs = bot_games(games, players, n, rounds, beta, lam, "flat", seed=seed)
            per_w = [per_game_scores(gs, w, n, players, beta, lam) for w in w_grid]
            means = [float(l.mean()) for l, _ in per_w]
            b = int(np.argmin(means))
            uniform = float(np.log(players))
            gain = cluster_mean_ci([[uniform - x] for x in per_w[b][0]])
            out.append({"locations": n, "lambda": lam, "games": games, "w": list(w_grid),
                        "best_w": float(w_grid[b]), "log_loss": [round(x, 4) for x in means],
                        "uniform_log_loss": round(uniform, 4),
                        "gain_nats": round(gain.estimate, 4),
                        "gain_ci95": [round(gain.low, 4), round(gain.high, 4)],
                        "step_p99": [round(float(np.percentile(st, 99)), 3) for _, st in per_w],
                        "step_max": [round(float(st.max()), 3) for _, st in per_w]})
            if progress is not None:
                progress(out[-1])
    return out


@lru_cache(maxsize=1)
def load_calibration_table() -> list:
    """The stored claim-weight table (``resources/spyfall/calibration_table.json``)."""
    return list(load_json_resource(*TABLE_FILE)["rows"])


def claim_weight_row(n_locations: int, lam: float) -> dict:
    """The stored table's row nearest to a table of ``n_locations`` and reveal weight ``lam``
    (nearest number of locations, then nearest λ).

    Raises:
        OSError, ValueError, KeyError: the table is missing or unreadable.
    """
    rows = load_calibration_table()
    n = min({r["locations"] for r in rows}, key=lambda x: (abs(x - n_locations), x))
    same = [r for r in rows if r["locations"] == n]
    return min(same, key=lambda r: (abs(r["lambda"] - lam), r["lambda"]))


def step_at(row: dict, w: float, key: str = "step_p99") -> float:
    """A row's one-claim log-odds change (nats) at claim weight ``w``: interpolated linearly in
    w between the grid's points (the change is close to proportional to w)."""
    ws, steps = np.asarray(row["w"], float), np.asarray(row[key], float)
    return float(np.interp(w, ws, steps))


@lru_cache(maxsize=1)
def load_calibration() -> dict:
    """The stored study (``resources/spyfall/calibration.json``, written by ``main``)."""
    return load_json_resource(*RESULT_FILE)


def calibrated_claim_weight() -> float:
    """The calibrated w for worksheet (grid) claims under the tab's default model."""
    return float(load_calibration()["default"]["best_w"])


def main(argv: Optional[Sequence[str]] = None) -> dict:
    """Rerun the study for the tab's default model (and flat λ of 0.05 to 0.7 for comparison), write
    ``resources/spyfall/calibration.json`` and print a Markdown table."""
    p = argparse.ArgumentParser(prog="python -m engines.spyfall.calibration",
                                description=__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=300, help="bot games per model (default 300)")
    p.add_argument("--out", default=None, help="output JSON (default resources/spyfall/calibration.json)")
    p.add_argument("--table", action="store_true",
                   help="the claim-weight table per number of locations and λ instead (writes "
                        "resources/spyfall/calibration_table.json; --games default 40)")
    a = p.parse_args(argv)
    if not 1 <= a.games <= 100_000:
        p.error("--games must be in 1..100000")
    if a.table:
        games = a.games if "--games" in (argv or __import__("sys").argv) else 40
        t0 = time.perf_counter()
        rows = table_study(games, progress=lambda r: print(
            f"{r['locations']} locations, λ {r['lambda']:g}: best w {r['best_w']:g}, gain "
            f"{r['gain_nats']:.4f} nats ({r['gain_ci95'][0]:.4f}–{r['gain_ci95'][1]:.4f})",
            flush=True))
        out = {"_comment": "written by python -m engines.spyfall.calibration --table; see "
                           "docs/spyfall-calibration.md", "games": games, "players": 5,
               "rounds": 5, "beta": 5.0, "strategy": "flat", "rows": rows,
               "seconds": round(time.perf_counter() - t0, 1)}
        save_json_result(out, a.out or str(resource_path(*TABLE_FILE)))
        print(table_markdown(out))
        return out
    from engines.spyfall import default_setup

    d = default_setup()
    table = {"players": d.n_players, "locations": d.n_locations, "rounds": d.rounds,
             "beta": d.beta, "lambda": d.lam, "strategy": d.strategy}
    out = {"_comment": "written by python -m engines.spyfall.calibration; see docs/spyfall-calibration.md",
           "games": a.games, "table": table}
    t0 = time.perf_counter()
    models = {"default": (d.lam, d.strategy)}
    for lam in (0.05, 0.15, 0.3, 0.5, 0.7):
        if (lam, "flat") != (d.lam, d.strategy):
            models[f"flat lambda {lam:g}"] = (lam, "flat")
    for name, (lam, strategy) in models.items():
        games = bot_games(a.games, d.n_players, d.n_locations, d.rounds, d.beta, lam, strategy)
        res = score(games, W_GRID, d.n_locations, d.n_players, d.beta, lam, strategy)
        out[name] = {"lambda": lam, "strategy": strategy, **res}
    out["seconds"] = round(time.perf_counter() - t0, 1)
    path = a.out or str(resource_path(*RESULT_FILE))
    save_json_result(out, path)
    print(markdown(out))
    return out


def markdown(res: dict) -> str:
    """The Markdown table of docs/spyfall-calibration.md from a stored result."""
    names = [k for k in res if isinstance(res[k], dict) and "log_loss" in res[k]]
    lines = ["| w | " + " | ".join(f"{n} (λ {res[n]['lambda']:g}, {res[n]['strategy']}): all turns / "
                                    f"final / p99 step" for n in names) + " |",
             "|---|" + "---|" * len(names)]
    for i, w in enumerate(res[names[0]]["w"]):
        cells = [f"{res[n]['log_loss'][i]:.3f} / {res[n]['log_loss_final'][i]:.3f} / "
                 f"{res[n]['max_step_log_odds_p99'][i]:.2f}" for n in names]
        lines.append(f"| {w:g} | " + " | ".join(cells) + " |")
    lines.append("")
    for n in names:
        r = res[n]
        lines.append(f"- {n}: best w = {r['best_w']:g}; log loss {min(r['log_loss']):.3f} nats "
                     f"(w = 1: {r['log_loss'][-1]:.3f}; exact unrounded claims at w = 1: "
                     f"{r['exact_log_loss']:.3f}; a uniform guess: {r['uniform_log_loss']:.3f})")
    return "\n".join(lines)


def table_markdown(res: dict) -> str:
    """The claim-weight table of docs/spyfall-calibration.md from a stored table study."""
    lines = ["| locations | λ | best w | log loss at best w (uniform) | gain over uniform, nats per "
             "claim (95 % by game) | one claim moves a spy log-odds by (p99 / max), nats |",
             "|---|---|---|---|---|---|"]
    for r in res["rows"]:
        b = r["w"].index(r["best_w"])
        lines.append(f"| {r['locations']} | {r['lambda']:g} | {r['best_w']:g} | "
                     f"{r['log_loss'][b]:.3f} ({r['uniform_log_loss']:.3f}) | "
                     f"{r['gain_nats']:.4f} ({r['gain_ci95'][0]:.4f}–{r['gain_ci95'][1]:.4f}) | "
                     f"{r['step_p99'][b]:.2f} / {r['step_max'][b]:.2f} |")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
