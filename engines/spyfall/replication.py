"""Does the equilibrium of the hide-reveal game replicate? The payoff matrix of
:mod:`engines.spyfall.equilibrium` replayed with independent deal seeds, game by game.

Each seed plays every cell of the 10 × 12 game (:data:`~engines.spyfall.equilibrium.NON_SPY_STRATEGIES`
× :data:`~engines.spyfall.equilibrium.SPY_STRATEGIES`, vote rule
:data:`~engines.spyfall.equilibrium.GAME_VOTE`, table :data:`~engines.spyfall.equilibrium.TABLE`)
with ``games`` games; game ``g`` of every cell of one seed plays the same deal (common random
numbers: ``default_rng([seed, g])``), so the game — not the cell — is the independent unit.
The outcome of every game (did the non-spies win) is kept, and
:func:`engines.core.cluster_stats.matrix_game_uncertainty` resamples the games of a seed
(every cell at once, which keeps the cells' correlation) to say how often each pure strategy
is the maximin and each equilibrium support appears.

Run (``--scheduler``: :mod:`engines.core.executor`, e.g. ``processes:2`` or ``local:2`` for a
Dask LocalCluster)::

    nice -n 10 python -m engines.spyfall.replication run --seeds 11,12,13 --games 500
    python -m engines.spyfall.replication analyse     # writes the summary, prints Markdown

``run`` writes ``resources/spyfall/equilibrium_replication.json`` after every seed (the raw
outcomes, bit-packed); ``analyse`` adds the analysis to the same file, which
:func:`replicated_strategies` (and so ``python -m engines recommend``) reads.
"""
from __future__ import annotations

import argparse
import base64
import itertools
import time
from functools import lru_cache
from typing import Optional, Sequence

import numpy as np

from engines.core.resources import load_json_resource, resource_path, save_json_result

RESULT_FILE = ("spyfall", "equilibrium_replication.json")
MAX_GAMES_PER_CELL = 100_000


def _cells() -> list:
    from engines.spyfall.equilibrium import NON_SPY_STRATEGIES, SPY_STRATEGIES

    return list(itertools.product(NON_SPY_STRATEGIES, SPY_STRATEGIES))


def _cell_game(index: int, _seed_seq, seed: int, games: int, cells: tuple,
               first: int = 0) -> tuple:
    """Game ``first + index % (games - first)`` of cell ``index // (games - first)`` (a task of
    :func:`engines.core.executor.run_games`); returns ``(non_spy_won, turns)``. The deal of game
    g is ``default_rng([seed, g])`` in every cell (common random numbers), whatever the number
    of games, so games ``first..games-1`` extend a stored run of ``first`` games exactly."""
    from engines.spyfall.equilibrium import GAME_VOTE, _config
    from engines.spyfall.simulate import play_game

    c, k = divmod(index, games - first)
    g = first + k
    (lam, st), (slam, sst) = cells[c]
    from engines.spyfall.equilibrium import TABLE
    config = _config(games, seed, lam=lam, seats=(st,) * TABLE["players"], spy_lam=slam,
                     spy_strategy=sst, **GAME_VOTE)
    r = play_game(config, g, record=False)
    return (not r["spy_wins"], int(r["turns"]))


def run_seed(seed: int, games: int, scheduler: Optional[str] = "processes:2",
             progress=None, first: int = 0) -> dict:
    """Play every cell of the game with games ``first..games-1`` on deal seed ``seed`` (``first``
    > 0 extends a stored run of ``first`` games: the same games a run of ``games`` plays).

    Returns:
        ``{"seed", "games", "wins": (cells, games - first) bool array (row-major over non-spy ×
        spy strategies), "turns": (cells, games - first) int array, "seconds"}``.
    Raises:
        SessionFormatError: a bad scheduler (see :func:`engines.core.executor.run_games`).
    """
    from engines.core.executor import run_games

    if not 1 <= games <= MAX_GAMES_PER_CELL:
        raise ValueError(f"games per cell must be 1..{MAX_GAMES_PER_CELL}, got {games}")
    if not 0 <= first < games:
        raise ValueError(f"first game must be in 0..{games - 1}, got {first}")
    cells = tuple(_cells())
    n = games - first
    t0 = time.perf_counter()
    out = run_games(_cell_game, len(cells) * n, seed, (seed, games, cells, first),
                    scheduler=scheduler, chunk_size=max(1, n // 2), progress=progress)
    wins = np.array([o[0] for o in out], dtype=bool).reshape(len(cells), n)
    turns = np.array([o[1] for o in out], dtype=np.int16).reshape(len(cells), n)
    return {"seed": seed, "games": games, "wins": wins, "turns": turns,
            "seconds": time.perf_counter() - t0}


def pack(a: np.ndarray) -> str:
    """A bool array as base64 of ``numpy.packbits`` (row-major)."""
    return base64.b64encode(np.packbits(np.asarray(a, dtype=bool).ravel())).decode("ascii")


def unpack(text: str, shape: tuple) -> np.ndarray:
    """Inverse of :func:`pack` for an array of ``shape``."""
    bits = np.unpackbits(np.frombuffer(base64.b64decode(text), dtype=np.uint8))
    return bits[: int(np.prod(shape))].reshape(shape).astype(bool)


def stored_outcomes(res: dict) -> list:
    """The per-seed outcome arrays of a stored replication: ``[(seed, wins (m, k, games))]``."""
    from engines.spyfall.equilibrium import NON_SPY_STRATEGIES, SPY_STRATEGIES

    m, k = len(NON_SPY_STRATEGIES), len(SPY_STRATEGIES)
    return [(r["seed"], unpack(r["wins"], (m, k, r["games"]))) for r in res["runs"]]


def _label(lam: float, st: str) -> str:
    return f"{st} λ = {lam:g}"


def parse_label(label: str) -> tuple:
    """``("flat", 0.05)`` from a stored strategy label ``"flat λ = 0.05"``.

    Raises:
        ValueError: not a label of this module.
    """
    st, _, lam = label.partition(" λ = ")
    if not lam:
        raise ValueError(f"not a strategy label: {label!r}")
    return st, float(lam)


def analyse(res: dict, resamples: int = 1000, bootstrap_seed: int = 2026) -> dict:
    """The replication's analysis from the stored outcomes (module docstring).

    Returns ``{"per_seed": [...], "pooled": {...}, "replicated": {...}, "never_dominated": [...],
    "settled": bool}``; each seed's entry has the value, its game-bootstrap 95 % interval, the
    pure maximin row and minimax column, the equilibrium's supports and the bootstrap frequencies
    (:func:`engines.core.cluster_stats.matrix_game_uncertainty`).
    """
    from engines.core.cluster_stats import dominated_rows, matrix_game_uncertainty
    from engines.spyfall.equilibrium import NON_SPY_STRATEGIES, SPY_STRATEGIES

    rows = [_label(*s) for s in NON_SPY_STRATEGIES]
    cols = [_label(*s) for s in SPY_STRATEGIES]
    per_seed = []
    outcomes = stored_outcomes(res)
    for seed, wins in outcomes:
        u = matrix_game_uncertainty(wins, resamples=resamples, seed=bootstrap_seed + seed)
        dom = dominated_rows(u["matrix"])
        per_seed.append({
            "seed": seed, "games": int(wins.shape[2]),
            "value": u["value"], "value_ci95": u["value_ci95"],
            "maximin_row": rows[u["maximin_row"]], "maximin_guarantee": u["maximin_guarantee"],
            "minimax_column": cols[u["minimax_column"]],
            "row_support": [rows[i] for i in u["row_support"]],
            "column_support": [cols[j] for j in u["column_support"]],
            "row_mix": {rows[i]: round(p, 4) for i, p in enumerate(u["row_mix"]) if p > 0.005},
            "column_mix": {cols[j]: round(p, 4) for j, p in enumerate(u["column_mix"]) if p > 0.005},
            "maximin_row_frequency": {rows[i]: f for i, f in enumerate(u["maximin_row_frequency"])
                                      if f > 0},
            "minimax_column_frequency": {cols[j]: f for j, f in
                                         enumerate(u["minimax_column_frequency"]) if f > 0},
            "row_support_frequency": {" + ".join(rows[i] for i in s): f
                                      for s, f in u["row_support_frequency"]},
            "column_support_frequency": {" + ".join(cols[j] for j in s): f
                                         for s, f in u["column_support_frequency"]},
            "dominated_rows": [rows[i] for i in dom],
            "matrix": np.round(u["matrix"], 4).tolist()})
    pooled_wins = np.concatenate([w for _, w in outcomes], axis=2)
    pu = matrix_game_uncertainty(pooled_wins, resamples=resamples, seed=bootstrap_seed)
    pooled = {"games": int(pooled_wins.shape[2]), "value": pu["value"],
              "value_ci95": pu["value_ci95"], "maximin_row": rows[pu["maximin_row"]],
              "maximin_guarantee": pu["maximin_guarantee"],
              "row_mix": {rows[i]: round(p, 4) for i, p in enumerate(pu["row_mix"]) if p > 0.005},
              "column_mix": {cols[j]: round(p, 4) for j, p in enumerate(pu["column_mix"])
                             if p > 0.005},
              "maximin_row_frequency": {rows[i]: f for i, f in
                                        enumerate(pu["maximin_row_frequency"]) if f > 0},
              "minimax_column_frequency": {cols[j]: f for j, f in
                                           enumerate(pu["minimax_column_frequency"]) if f > 0},
              "matrix": np.round(pu["matrix"], 4).tolist(),
              "ci95_low": np.round(pu["cell_ci95"][0], 4).tolist(),
              "ci95_high": np.round(pu["cell_ci95"][1], 4).tolist()}
    n_seeds = len(per_seed)
    same_row = len({s["maximin_row"] for s in per_seed}) == 1
    same_col = len({s["minimax_column"] for s in per_seed}) == 1
    same_support = len({tuple(s["row_support"]) for s in per_seed}) == 1
    dominated_somewhere = set(itertools.chain.from_iterable(s["dominated_rows"] for s in per_seed))
    never_dominated = [r for r in rows if r not in dominated_somewhere]
    settled = n_seeds >= 3 and same_row and same_col
    replicated = {"non_spy": [], "spy": []}
    if n_seeds >= 3 and same_row:
        replicated["non_spy"].append(per_seed[0]["maximin_row"])
    if n_seeds >= 3 and same_col:
        replicated["spy"].append(per_seed[0]["minimax_column"])
    return {"seeds": [s["seed"] for s in per_seed], "resamples": resamples,
            "per_seed": per_seed, "pooled": pooled, "settled": settled,
            "same_maximin_row": same_row, "same_minimax_column": same_col,
            "same_row_support": same_support, "replicated": replicated,
            "never_dominated_non_spy": never_dominated,
            "value_range": [min(s["value"] for s in per_seed), max(s["value"] for s in per_seed)]}


@lru_cache(maxsize=1)
def load_replication() -> Optional[dict]:
    """The stored replication's analysis, or None when no replication file exists."""
    try:
        res = load_json_resource(*RESULT_FILE)
    except (OSError, ValueError):
        return None
    return res.get("analysis")


def replicated_strategies(side: str) -> dict:
    """What the replication shows for ``side`` ("non_spy" or "spy").

    Returns:
        ``{"seeds": int, "settled": bool, "replicated": [labels], "never_dominated": [labels]
        (non-spies only), "value": [low, high] of the seeds' values}``; ``seeds`` 0 when no
        replication is stored.
    Raises:
        ValueError: an unknown side.
    """
    if side not in ("spy", "non_spy"):
        raise ValueError(f"side must be 'spy' or 'non_spy', got {side!r}")
    a = load_replication()
    if not a:
        return {"seeds": 0, "settled": False, "replicated": [], "never_dominated": [],
                "value": None}
    return {"seeds": len(a["seeds"]), "settled": bool(a["settled"]),
            "replicated": list(a["replicated"][side]),
            "never_dominated": list(a["never_dominated_non_spy"]) if side == "non_spy" else [],
            "value": list(a["value_range"])}


def markdown(res: dict) -> str:
    """The replication's Markdown tables (docs/spyfall-equilibrium.md)."""
    a = res["analysis"]
    def pct(f):
        return f"{100 * f:.0f} %"

    def mix(d):
        return ", ".join(f"{k} {v:.2f}" for k, v in sorted(d.items(), key=lambda kv: -kv[1]))

    lines = [("| seed | games per cell | value (95 % game bootstrap) | pure maximin row "
              "(guarantee) | maximin row in resamples | spy's minimax column | "
              "equilibrium (non-spies ; spy) |"), "|---|---|---|---|---|---|---|"]
    for s in a["per_seed"]:
        freq = ", ".join(f"{k} {pct(v)}" for k, v in sorted(s["maximin_row_frequency"].items(),
                                                          key=lambda kv: -kv[1])[:3])
        lines.append(f"| {s['seed']} | {s['games']} | {s['value']:.3f} ({s['value_ci95'][0]:.3f}–"
                     f"{s['value_ci95'][1]:.3f}) | {s['maximin_row']} ({s['maximin_guarantee']:.3f})"
                     f" | {freq} | {s['minimax_column']} | {mix(s['row_mix'])} ; "
                     f"{mix(s['column_mix'])} |")
    p = a["pooled"]
    freq = ", ".join(f"{k} {pct(v)}" for k, v in sorted(p["maximin_row_frequency"].items(),
                                                      key=lambda kv: -kv[1])[:4])
    pooled = (f"Pooled ({p['games']} games per cell): value {p['value']:.3f} "
              f"({p['value_ci95'][0]:.3f}–{p['value_ci95'][1]:.3f}); pure maximin row "
              f"{p['maximin_row']} (guarantee {p['maximin_guarantee']:.3f}); maximin row in "
              f"the resamples: {freq}.")
    lines += ["", pooled]
    return "\n".join(lines)


def main(argv: Optional[Sequence[str]] = None) -> dict:
    """``run`` the seeds (writing the raw outcomes after each) or ``analyse`` the stored ones."""
    p = argparse.ArgumentParser(prog="python -m engines.spyfall.replication",
                                description=__doc__.split("\n")[0])
    p.add_argument("command", choices=("run", "analyse"))
    p.add_argument("--seeds", default="11,12,13", help="deal seeds, comma-separated")
    p.add_argument("--games", type=int, default=500, help="games per cell per seed (default 500)")
    p.add_argument("--scheduler", default="processes:2",
                   help="where the games run: processes:N, local:N (Dask), tcp://HOST:PORT")
    p.add_argument("--resamples", type=int, default=1000, help="bootstrap resamples (analyse)")
    p.add_argument("--out", default=None, help="the JSON file (default resources/spyfall/"
                                               "equilibrium_replication.json)")
    a = p.parse_args(argv)
    path = a.out or str(resource_path(*RESULT_FILE))
    if a.command == "run":
        if not 1 <= a.games <= MAX_GAMES_PER_CELL:
            p.error(f"--games must be in 1..{MAX_GAMES_PER_CELL}")
        try:
            seeds = [int(x) for x in a.seeds.split(",") if x.strip()]
        except ValueError:
            p.error(f"--seeds: expected whole numbers separated by commas, got {a.seeds!r}")
        from engines.spyfall.equilibrium import GAME_VOTE, NON_SPY_STRATEGIES, SPY_STRATEGIES, TABLE
        res = {"_comment": "written by python -m engines.spyfall.replication; see "
                           "docs/spyfall-equilibrium.md",
               "table": TABLE, "game_vote": GAME_VOTE,
               "non_spy_strategies": [list(s) for s in NON_SPY_STRATEGIES],
               "spy_strategies": [list(s) for s in SPY_STRATEGIES],
               "scheduler": a.scheduler, "runs": []}
        import json
        import os
        if os.path.exists(path):   # keep the seeds already played (a run may be resumed)
            with open(path, encoding="utf-8") as fh:
                old = json.load(fh)
            if old.get("table") == TABLE and old.get("game_vote") == GAME_VOTE:
                # a seed with fewer games is extended (its games are the first of the longer run)
                res["runs"] = [r for r in old.get("runs", []) if r["seed"] not in seeds
                               or r["games"] <= a.games]
        done = {r["seed"] for r in res["runs"] if r["games"] == a.games}
        for seed in [x for x in seeds if x not in done]:
            prior = next((r for r in res["runs"] if r["seed"] == seed), None)
            first = prior["games"] if prior else 0
            last = [0.0]

            def progress(done, total, seed=seed, last=last):
                if time.monotonic() - last[0] > 30:
                    last[0] = time.monotonic()
                    print(f"seed {seed}: {done:.0f}/{total} games", flush=True)
            r = run_seed(seed, a.games, a.scheduler, progress, first=first)
            print(f"seed {seed}: games {first}..{a.games - 1} of every cell in "
                  f"{r['seconds']:.0f} s", flush=True)
            entry = {"seed": seed, "games": a.games, "wins": pack(r["wins"]),
                     "mean_turns": round(float(r["turns"].mean()), 2),
                     "seconds": round(r["seconds"], 1), "scheduler": a.scheduler}
            if prior:   # games 0..first-1 from the stored run
                n_cells = r["wins"].shape[0]
                wins = np.concatenate([unpack(prior["wins"], (n_cells, first)), r["wins"]], axis=1)
                entry.update(
                    wins=pack(wins),
                    mean_turns=round((prior["mean_turns"] * first + float(r["turns"].mean())
                                      * (a.games - first)) / a.games, 2),
                    seconds=round(prior["seconds"] + r["seconds"], 1),
                    parts=list(prior.get("parts") or [{k: prior.get(k) for k in
                                                        ("games", "seconds", "scheduler")}])
                    + [{"games": a.games - first, "seconds": round(r["seconds"], 1),
                        "scheduler": a.scheduler}])
                res["runs"].remove(prior)
            res["runs"].append(entry)
            res["runs"].sort(key=lambda x: x["seed"])
            save_json_result(res, path)
        return res
    import json
    with open(path, encoding="utf-8") as fh:
        res = json.load(fh)
    t0 = time.perf_counter()
    res["analysis"] = analyse(res, a.resamples)
    res["analysis"]["seconds"] = round(time.perf_counter() - t0, 1)
    save_json_result(res, path)
    print(markdown(res))
    return res


if __name__ == "__main__":
    main()
