"""The studies the documentation reports, one command each:
``python -m engines study NAME [--quick | --full] [--seed N] [--out FILE]`` (docs/cli.md).

A study plays a fixed number of games (its budget is in games, never in seconds, so its output
is a function of its name, its mode and its seed) and returns the table its page shows:

========================  ==============================================  =====================
name                      page                                            code
========================  ==============================================  =====================
``suggestion-model``      docs/cluedo-suggestion-model.md                  :mod:`engines.cluedo.suggestion_race`
``model-advice``          docs/cluedo-suggestion-model.md                  :mod:`engines.cluedo.suggestion_race`
``board``                 docs/cluedo-board.md                             :mod:`engines.cluedo.race_board`
``accusation``            docs/cluedo-accusation.md                        :mod:`engines.cluedo.race`
``egghead``               docs/egghead-simulation.md                       :mod:`engines.egghead.study`
``spyfall-value``         docs/spyfall-equilibrium.md                      :mod:`engines.spyfall.replication`
``spyfall-claim-weight``  docs/spyfall-calibration.md                      :mod:`engines.spyfall.calibration`
========================  ==============================================  =====================

``--quick`` is the version the tests run (``tests/engines/test_studies.py``, marker ``study``):
the one comparison that carries the page's claim, on enough games to decide it at the game
level; ``--full`` is the page's whole table (at least 400 games per row). A study's quick form
runs on ``default_seed`` unless it has a ``quick_seed`` of its own (``accusation``: its quick
form's design changed, its games were then fixed from the cost and run on a fresh seed).

Every study also has *broken variants* (:data:`BROKEN`), reachable only through the hidden
``--broken`` option: the same games with the measured ingredient taken out (the model ignored,
the advice replaced by the baseline). They exist to show that a study's test can fail: under
its broken variant the test's assertion must not hold.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

from engines.core.errors import SessionFormatError, check_cancel


@dataclass(frozen=True, kw_only=True)
class Study:
    """One study: ``run(quick, seed, broken, progress, cancel) -> dict`` returns
    ``{"result": JSON-able figures, "table": Markdown text, "games": games played}``."""

    name: str
    page: str
    what: str
    quick_games: int
    full_games: int
    default_seed: int
    run: Callable
    #: the quick form's seed when it differs from ``default_seed`` (None: the same)
    quick_seed: Optional[int] = None


# -- the suggestion model -------------------------------------------------------------------
def _suggestion_model(quick: bool, seed: int, broken: Optional[str], progress, cancel) -> dict:
    """The suggestion-model race (:mod:`engines.cluedo.suggestion_race`). Quick: 120 games against
    lack-seekers (rho = 0.1), the engine without the model against the one with the opponents'
    true rho. Full: 400 games against each behaviour, all four engines."""
    from engines.cluedo import suggestion_race as sr

    games = 120 if quick else 400
    behaviours = ("lack-0.1",) if quick else tuple(sr.BEHAVIOURS)
    engines = ("today", "right") if quick else sr.ENGINES
    results: list = []
    total = games * len(behaviours)
    for i, b in enumerate(behaviours):
        def step(done, _n, i=i):
            if progress is not None:
                progress(i * games + done, total)
        results += sr.run(b, games, seed=seed, engines=engines, ignore_model=broken == "model-ignored",
                          progress=step, cancel=cancel)
    table = sr.summarise(results)
    return {"result": table, "table": sr.markdown(table), "games": total}


# -- the suggestion model in the accuse-or-wait advice ----------------------------------------
#: The model-advice race's table: players, the opponents' look-ahead's sampled deals per stage
#: (:func:`engines.cluedo.suggestion_race._advice`), quick games, full games per behaviour.
MODEL_ADVICE = {"players": 3, "stages": (8, 32), "quick_games": 48, "full_games": 400}


def _model_advice(quick: bool, seed: int, broken: Optional[str], progress, cancel) -> dict:
    """The focal accuses by the accuse-or-wait advice (:mod:`engines.cluedo.accuse`: its best
    triple's probability against the look-ahead chance that an opponent names the envelope
    first), with the opponents' true suggestion model (``right``) or without (``today``), on the
    same games (:mod:`engines.cluedo.suggestion_race`, rule ``"advice"``, 3 players). Quick:
    :data:`MODEL_ADVICE` games against lack-seekers (rho = 0.1), ``today`` against ``right``.
    Full: 400 games against lack-seekers and 400 against bluffers (rho = 4), with the learned
    model (``learned``) too. Broken variant ``model-ignored``: every engine without the model."""
    from engines.cluedo import suggestion_race as sr

    games = MODEL_ADVICE["quick_games"] if quick else MODEL_ADVICE["full_games"]
    behaviours = ("lack-0.1",) if quick else ("lack-0.1", "bluff-4")
    engines = ("today", "right") if quick else ("today", "right", "learned")
    results: list = []
    total = games * len(behaviours)
    for i, b in enumerate(behaviours):
        def step(done, _n, i=i):
            if progress is not None:
                progress(i * games + done, total)
        results += sr.run(b, games, seed=seed, engines=engines, players=MODEL_ADVICE["players"],
                          rule="advice", advice_stages=MODEL_ADVICE["stages"],
                          ignore_model=broken == "model-ignored", progress=step, cancel=cancel)
    table = sr.summarise(results)
    return {"result": table, "table": sr.markdown(table), "games": total}


# -- the board race -------------------------------------------------------------------------
def _board_rows(rows: list) -> str:
    lines = ["| pairing | games | focal win rate (Wilson 95 %) | binomial test against 1/4 | "
             "turns to solve, median (mean): focal / baseline seated after it | unsolved: focal / baseline "
             "| Mann–Whitney U, two-sided |",
             "|---|---|---|---|---|---|---|"]
    for r in rows:
        f, t = r["focal_result"], r["turns_to_solve"]
        lo, hi = f["wilson_95"]
        lines.append(
            f"| {r['focal']} vs 3 *{r['baseline']}* | {r['games']} | **{100 * f['win_rate']:.1f} %** "
            f"({100 * lo:.1f}–{100 * hi:.1f} %), {f['wins']} wins | p = {f['p_value_vs_0.25']:.2g} | "
            f"{t['focal_median']:g} ({t['focal_mean']:.1f}) / {t['baseline_median']:g} ({t['baseline_mean']:.1f}) | "
            f"{t['unsolved_focal']} / {t['unsolved_baseline']} | p = {t['mann_whitney_p']:.2g} |")
    return "\n".join(lines)


def _board(quick: bool, seed: int, broken: Optional[str], progress, cancel) -> dict:
    """The board race (:mod:`engines.cluedo.race_board`), at most 30 rounds a game. Quick: 40
    games of the turn advice against three random movers. Full: 400 games against each
    baseline (nearest, random, sensible: :mod:`engines.cluedo.race_board`)."""
    from engines.cluedo.race_board import board_race

    games = 40 if quick else 400
    baselines = ("random",) if quick else ("nearest", "random", "sensible")
    rows = []
    for i, b in enumerate(baselines):
        def step(done, _n, i=i):
            if progress is not None:
                progress(i * games + done, games * len(baselines))
        focal = b if broken == "advice-is-baseline" else "advice"
        res = board_race(games, focal=focal, baseline=b, seed=seed + i, max_rounds=30,
                         progress=step, cancel=cancel)
        res.pop("seconds", None)
        rows.append(res)
    return {"result": rows, "table": _board_rows(rows), "games": games * len(baselines)}


# -- the accusation race --------------------------------------------------------------------
def _accusation_rows(rows: list) -> str:
    lines = ["| focal bot | games | focal win rate (Wilson 95 %) | binomial test against 1/4 | "
             "accusations before certain (right) | games without a winner |",
             "|---|---|---|---|---|---|"]
    for r in rows:
        f = r["focal_result"]
        lo, hi = f["wilson_95"]
        who = f"advice, rule {r['rule']}" if r["focal"] == "advice" else "certain (control)"
        lines.append(f"| {who} | {r['games']} | **{100 * f['win_rate']:.1f} %** ({100 * lo:.1f}–{100 * hi:.1f} %), "
                     f"{f['wins']} wins | p = {f['p_value_vs_0.25']:.2g} | {r['early_accusations']} "
                     f"({r['early_correct']}) | {r['no_winner']} |")
    return "\n".join(lines)


#: The quick accusation study: the advice bot and the control paired on the same games
#: (:func:`engines.cluedo.race.paired_race`, lazy): players, games, seed. 72 games were fixed
#: from a pilot's cost (seed 41) before the run on this seed; that run cost more than 30 s of
#: CPU, so the first 56 are played, a number chosen after the 72 games' record was known
#: (docs/cluedo-accusation.md says so, with every prefix's record).
ACCUSATION_QUICK = {"players": 4, "games": 56, "seed": 2026}


def _paired_rows(r: dict) -> str:
    return ("| players | games | advice bot wins | control wins | won only by the advice / only by the control "
            "(exact McNemar p) | early accusations (right) |\n|---|---|---|---|---|---|\n"
            f"| {r['players']} | {r['games']} | {r['advice_wins']} | {r['control_wins']} | "
            f"{r['won_only_advice']} / {r['won_only_control']} (p = {r['mcnemar_p']:.2g}) | "
            f"{r['early_accusations']} ({r['early_correct']}) |")


def _accusation(quick: bool, seed: int, broken: Optional[str], progress, cancel) -> dict:
    """The accusation race (:mod:`engines.cluedo.race`): one bot following the accuse-or-wait
    advice (rule ``next``) against three bots that accuse only when certain. Quick: the advice
    bot and the control (a certain bot in its seat) on the same :data:`ACCUSATION_QUICK` games
    (:func:`engines.cluedo.race.paired_race`: the control's game, the advice's decisions
    computed alongside), compared game by game. Full: 400 games with the advice and 400 of the
    control, each on its own games. Broken variant ``advice-is-baseline``: the advice replaced by
    the control (quick: no advice computed; full: the control in both rows)."""
    from engines.cluedo.race import paired_race, race

    if quick:
        res = paired_race(ACCUSATION_QUICK["games"], n_players=ACCUSATION_QUICK["players"], seed=seed,
                          shadow=broken != "advice-is-baseline", progress=progress, cancel=cancel)
        return {"result": res, "table": _paired_rows(res), "games": res["games"]}
    games = 400
    kinds = (False, True)
    rows = []
    for i, control in enumerate(kinds):
        def step(done, _n, i=i):
            if progress is not None:
                progress(i * games + done, games * len(kinds))
        res = race(games, seed=seed + i, control=control or broken == "advice-is-baseline", rule="next",
                   progress=step, cancel=cancel)
        res.pop("seconds", None)
        rows.append(res)
    return {"result": rows, "table": _accusation_rows(rows), "games": games * len(kinds)}


# -- Spyfall: the claim weight --------------------------------------------------------------
def _claim_weight(quick: bool, seed: int, broken: Optional[str], progress, cancel) -> dict:
    """The claim weight of worksheet claims (:mod:`engines.spyfall.calibration`). Quick: 80 bot
    games of the tab's default table (5 players, 27 locations, flat lambda 0.3), grid claims read
    with the calibrated w and with w = 1 (the unweighted model), each game's mean log loss of
    the public spy belief. Full: the page's claim-weight table (40 games a cell, 9 cells)."""
    import numpy as np

    from engines.core.cluster_stats import cluster_mean_ci
    from engines.spyfall import default_setup
    from engines.spyfall.calibration import (
        bot_games,
        calibrated_claim_weight,
        per_game_scores,
        table_markdown,
        table_study,
    )

    if not quick:
        rows = table_study(40, seed=seed)
        return {"result": rows, "table": table_markdown({"rows": rows}), "games": 40 * len(rows)}
    d = default_setup()
    games = 80
    gs = bot_games(games, d.n_players, d.n_locations, d.rounds, d.beta, d.lam, d.strategy, seed=seed)
    w_cal = calibrated_claim_weight()
    rows = []
    losses = {}
    for w in (w_cal, 1.0):
        # the broken variant reads every claim unweighted, whatever w it reports
        read = 1.0 if broken == "weight-ignored" else w
        loss, steps = per_game_scores(gs, read, d.n_locations, d.n_players, d.beta, d.lam, d.strategy)
        losses[w] = loss
        ci = cluster_mean_ci([[x] for x in loss])
        rows.append({"w": w, "games": games, "log_loss": round(ci.estimate, 4),
                     "log_loss_ci95": [round(ci.low, 4), round(ci.high, 4)],
                     "per_game": [round(float(x), 6) for x in loss],
                     "step_p99": round(float(np.percentile(steps, 99)), 3)})
    lower = int(np.sum(losses[w_cal] < losses[1.0]))
    higher = int(np.sum(losses[w_cal] > losses[1.0]))
    uniform = float(np.log(d.n_players))
    lines = ["| w | games | log loss of the public spy belief, nats per claim (95 % by game) | "
             "one claim moves a spy log-odds by (p99), nats |", "|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['w']:g} | {r['games']} | {r['log_loss']:.3f} ({r['log_loss_ci95'][0]:.3f}–"
                     f"{r['log_loss_ci95'][1]:.3f}) | {r['step_p99']:.2f} |")
    lines.append(f"\nUniform guess: {uniform:.3f}. Games where w = {w_cal:g} scores lower than w = 1: "
                 f"{lower}, higher: {higher}.")
    result = {"table": {k: getattr(d, k) for k in ("n_players", "n_locations", "rounds", "beta", "lam",
                                                   "strategy")},
              "calibrated_w": w_cal, "rows": rows, "uniform_log_loss": round(uniform, 4),
              "games_lower_than_w1": lower, "games_higher_than_w1": higher}
    return {"result": result, "table": "\n".join(lines), "games": games}


# -- Spyfall: the value of the hide-reveal game -----------------------------------------------
#: The value the page reports (pooled over deal seeds 11-13, 1,200 games a cell).
SPYFALL_POOLED_VALUE = 0.248


def _spyfall_value(quick: bool, seed: int, broken: Optional[str], progress, cancel) -> dict:
    """The value of the hide-reveal game (:mod:`engines.spyfall.replication`): every cell of the
    10 x 12 payoff matrix played on deal seed ``seed``, game g of every cell on the same deal, the
    value's interval by resampling whole games (:func:`engines.core.cluster_stats.matrix_game_uncertainty`).
    Quick: 40 games a cell, 200 resamples, in this process. Full: 400 games a cell, 1,000
    resamples."""
    import numpy as np

    from engines.core.cluster_stats import matrix_game_uncertainty
    from engines.core.executor import run_games
    from engines.spyfall.equilibrium import NON_SPY_STRATEGIES, SPY_STRATEGIES
    from engines.spyfall.replication import _cell_game, _cells, _label

    games = 40 if quick else 400
    cells = tuple(_cells())
    out = run_games(_cell_game, len(cells) * games, seed, (seed, games, cells, 0), workers=1,
                    progress=progress, cancel=cancel)
    wins = np.array([o[0] for o in out], dtype=bool).reshape(len(NON_SPY_STRATEGIES), len(SPY_STRATEGIES),
                                                             games)
    u = matrix_game_uncertainty(wins, resamples=200 if quick else 1000, seed=2026 + seed)
    rows = [_label(*x) for x in NON_SPY_STRATEGIES]
    cols = [_label(*x) for x in SPY_STRATEGIES]
    result = {"seed": seed, "games": games, "value": round(float(u["value"]), 4),
              "value_ci95": [round(float(x), 4) for x in u["value_ci95"]],
              "maximin_row": rows[u["maximin_row"]], "maximin_guarantee": round(float(u["maximin_guarantee"]), 4),
              "minimax_column": cols[u["minimax_column"]],
              "row_mix": {rows[i]: round(float(p), 4) for i, p in enumerate(u["row_mix"]) if p > 0.005},
              "column_mix": {cols[j]: round(float(p), 4) for j, p in enumerate(u["column_mix"]) if p > 0.005},
              "page_value": SPYFALL_POOLED_VALUE}
    mix = " ; ".join(", ".join(f"{k} {v:.2f}" for k, v in m.items()) for m in (result["row_mix"],
                                                                              result["column_mix"]))
    table = ("| seed | games per cell | value (95 % game bootstrap) | pure maximin row (guarantee) | "
             "spy's minimax column | equilibrium (non-spies ; spy) |\n|---|---|---|---|---|---|\n"
             f"| {seed} | {games} | {result['value']:.3f} ({result['value_ci95'][0]:.3f}–"
             f"{result['value_ci95'][1]:.3f}) | {result['maximin_row']} ({result['maximin_guarantee']:.3f}) | "
             f"{result['minimax_column']} | {mix} |")
    return {"result": result, "table": table, "games": games * len(cells)}


# -- Egghead: rounds to solve by deck ------------------------------------------------------------
def _egghead_rows(rows: list) -> str:
    lines = ["| deck | bits/question | draw | n (games) | mean [95% CI by game] | per observation | "
             "variance [95% CI by game] | per observation |", "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        x = r["no_ba"]
        if "mean_ci" not in x:
            lines.append(f"| {r['deck']} | {r['mean_info_bits']:.2f} | {r['draw']} | {x['n']} ({x['games']}) | "
                         "too few solves | | | |")
            continue
        lines.append(f"| {r['deck']} | {r['mean_info_bits']:.2f} | {r['draw']} | {x['n']} ({x['games']}) | "
                     f"{x['mean']:.2f} [{x['mean_ci'][0]:.2f}, {x['mean_ci'][1]:.2f}] | "
                     f"[{x['naive_mean_ci'][0]:.2f}, {x['naive_mean_ci'][1]:.2f}] | "
                     f"{x['var']:.1f} [{x['var_ci'][0]:.1f}, {x['var_ci'][1]:.1f}] | "
                     f"[{x['naive_var_ci'][0]:.1f}, {x['naive_var_ci'][1]:.1f}] |")
    return "\n".join(lines)


#: The quick Egghead study's settings: our deck as the app plays it, and the least and the most
#: informative 23 questions of it drawn with replacement.
EGGHEAD_QUICK = (("ours-28", "deck"), ("lowest-info-23", "replace"), ("highest-info-23", "replace"))


def _egghead(quick: bool, seed: int, broken: Optional[str], progress, cancel) -> dict:
    """Rounds to solve in Egghead without behavioural analysis (4 players, 6 values, 3 cards,
    external moderator), by deck and draw (:mod:`engines.egghead.study`, Zorn 2024, section 5:
    9.78 rounds). Quick: 8 games of 1,000 rounds for each setting of :data:`EGGHEAD_QUICK`.
    Full: 8 games of 1,000 rounds for every deck of the page's table and both draws. Broken
    variant ``deck-ignored``: every setting plays our 28-question deck as the app does."""
    import numpy as np

    from engines.egghead import study as eg

    d, info = eg.decks()
    settings = EGGHEAD_QUICK if quick else tuple((name, draw) for name in d for draw in ("deck", "replace"))
    rows = []
    for i, (name, draw) in enumerate(settings):
        check_cancel(cancel)
        ids, how = (d["ours-28"], "deck") if broken == "deck-ignored" else (d[name], draw)
        spec = dict(eg.BASE, draw=how, deck=ids, rounds=1000, analysing=0)
        r = eg.run(spec, 8, seed + i, None)
        bits = round(float(np.mean([info[q] for q in d[name]])), 3)
        rows.append({"deck": name, "draw": draw, "mean_info_bits": bits,
                     "no_ba": eg.summary(eg.counted_games(r["no_ba"], "questions"))})
        if progress is not None:
            progress(i + 1, len(settings))
    return {"result": {"paper": eg.PAPER, "rows": rows}, "table": _egghead_rows(rows), "games": 8 * len(settings)}


STUDIES = {s.name: s for s in (
    Study(name="suggestion-model", page="docs/cluedo-suggestion-model.md",
          what="Cluedo: does modelling what opponents suggest win the accusation race?",
          quick_games=120, full_games=1600, default_seed=37, run=_suggestion_model),
    Study(name="model-advice", page="docs/cluedo-suggestion-model.md",
          what="Cluedo: does the suggestion model in the accuse-or-wait advice win the race?",
          quick_games=MODEL_ADVICE["quick_games"], full_games=2 * MODEL_ADVICE["full_games"],
          default_seed=3701, run=_model_advice),
    Study(name="board", page="docs/cluedo-board.md",
          what="Cluedo: the turn advice against bots that move to the nearest or a random room",
          quick_games=40, full_games=1200, default_seed=37, run=_board),
    Study(name="accusation", page="docs/cluedo-accusation.md",
          what="Cluedo: the accuse-or-wait advice against bots that accuse only when certain",
          quick_games=ACCUSATION_QUICK["games"], full_games=800, default_seed=37, run=_accusation,
          quick_seed=ACCUSATION_QUICK["seed"]),
    Study(name="egghead", page="docs/egghead-simulation.md",
          what="Egghead: rounds to solve without behavioural analysis, by question deck and draw",
          quick_games=24, full_games=272, default_seed=37, run=_egghead),
    Study(name="spyfall-value", page="docs/spyfall-equilibrium.md",
          what="Spyfall: the value of the hide-reveal game (the non-spies' win rate at equilibrium)",
          quick_games=4800, full_games=48000, default_seed=37, run=_spyfall_value),
    Study(name="spyfall-claim-weight", page="docs/spyfall-calibration.md",
          what="Spyfall: grid claims read with the calibrated weight against the unweighted model",
          quick_games=80, full_games=360, default_seed=37, run=_claim_weight),
)}

#: The hidden broken variants of each study (``--broken``): the measured ingredient taken out.
BROKEN = {"suggestion-model": ("model-ignored",), "model-advice": ("model-ignored",),
          "board": ("advice-is-baseline",),
          "accusation": ("advice-is-baseline",), "egghead": ("deck-ignored",),
          "spyfall-claim-weight": ("weight-ignored",)}


def figures(obj):
    """``obj`` with every key made a name the docs' ``<!--gen:BENCH.KEY.PATH-->`` markers can
    address (each character but letters, digits and ``_`` replaced by ``_``), lists turned into
    ``{"0": ..., "1": ...}``, and every ``rate`` or ``win_rate`` also given as a percentage
    (``rate_pct``), as the pages print them."""
    import re

    if isinstance(obj, dict):
        out = {}
        for k, v in obj.items():
            key = re.sub(r"[^A-Za-z0-9_]", "_", str(k))
            out[key] = figures(v)
            if key in ("rate", "win_rate") and isinstance(v, (int, float)):
                out[key + "_pct"] = 100.0 * v
        return out
    if isinstance(obj, (list, tuple)):
        return {str(i): figures(v) for i, v in enumerate(obj)}
    return obj


def run_study(name: str, *, quick: bool = True, seed: Optional[int] = None, broken: Optional[str] = None,
              progress=None, cancel=None) -> dict:
    """Run study ``name`` (a key of :data:`STUDIES`) and return ``{"study", "page", "mode",
    "seed", "games", "broken", "result", "table", "figures"}`` (``figures``: the result under
    names the docs' generated-figure markers can address, :func:`figures`); ``seed`` None: the
    study's default.

    Raises:
        SessionFormatError: an unknown study or broken variant.
    """
    if name not in STUDIES:
        raise SessionFormatError("study", f"one of {', '.join(STUDIES)}")
    if broken is not None and broken not in BROKEN.get(name, ()):
        raise SessionFormatError("--broken", f"one of {', '.join(BROKEN.get(name, ())) or 'none'}")
    s = STUDIES[name]
    if seed is None:
        seed = s.quick_seed if quick and s.quick_seed is not None else s.default_seed
    out = s.run(quick, seed, broken, progress, cancel)
    return {"study": name, "page": s.page, "mode": "quick" if quick else "full", "seed": seed,
            "games": out["games"], "broken": broken, "result": out["result"], "table": out["table"],
            "figures": figures(out["result"])}
