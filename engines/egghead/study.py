"""The Egghead study: why our simulator does not give the paper's 9.78 / 6.16 rounds.

Regenerates every figure of ``docs/egghead-simulation.md``:

    python -m engines.egghead.study                 # everything (~10 CPU-minutes)
    python -m engines.egghead.study --part info     # information per question only
    python -m engines.egghead.study --part rules --scheduler local:2
    python -m engines study egghead [--quick | --full]   # the page's deck table (engines/studies.py)

(``python tests/benchmarks/egghead_study.py`` is the same command.)

Zorn 2024, section 5 reports, for 4 players, 6 values, 3 cards, an external moderator and a
23-question deck, games of 1000 rounds with one player using behavioural analysis (BA):
X = rounds needed to solve has mean 9.78 (variance 29.3) without BA and 6.16 (variance 14)
with BA. This script replays that experiment under variations of the deck and of the rules
the paper does not pin down, with the game loop of :func:`engines.egghead.simulate.play_game`
extended by those rules:

* ``draw``: ``deck`` (the deck is shuffled and drawn without replacement, reshuffled when
  empty: ours) or ``replace`` (a uniformly random card every round: the paper's "a new random
  question is drawn" read literally);
* ``moderator``: ``external`` (the paper's table) or ``rotating`` (section 2.3: the moderator
  is the next player; they learn nothing from their own answer, appendix A.2 eq. (6));
* ``reactions``: ``fixpoint`` (Algorithm 1, lines 4–11: reactions are announced until nothing
  changes) or ``once`` (one announcement per round; what it reveals is used next round);
* the count (post-processed from the raw observations, so one run gives all of them):
  ``questions`` (questions asked since the player's deal: ours), ``heard`` (questions the
  player heard, i.e. not as moderator), ``questions+1`` (the round of the deal counted too),
  ``announcements`` (reaction announcements since the deal: a "round" per announcement).

Every game is an independent task of :func:`engines.core.executor.run_games` (per-game seeds),
so ``--scheduler local:2`` or ``tcp://HOST:8786`` gives the same numbers faster.
Intervals are by the game, the independent unit (:mod:`engines.core.cluster_stats`): the
solves of one game share its deals and deck order, so they are correlated. The mean's 95%
interval is the ratio estimator's delta-method interval over games (t with games − 1 degrees of
freedom), the variance's the cluster bootstrap (2000 resamples of whole games, percentile).
The per-observation intervals (t for the mean, chi-square for the variance: observations
independent and normal, as the paper's own figures would be read) are kept as ``naive_*`` to
show how much narrower they are.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

import numpy as np

from engines.core.executor import run_games
from engines.egghead.questions import bound_deck, stack_space
from engines.egghead.table import BitTable

PAPER = {"no_ba": (9.78, 29.3), "ba": (6.16, 14.0)}
PLAYERS, VALUES, CARDS = 4, 6, 3


# ----------------------------------------------------------------------------- one game

def _draw(questions: list, deck: list, rng, draw: str):
    """The next question: drawn with replacement (``draw == "replace"``), else the next card
    of ``deck``, reshuffled (in place) from ``questions`` when it runs out."""
    if draw == "replace":
        return questions[int(rng.integers(len(questions)))]
    if not deck:
        deck.extend(questions[i] for i in rng.permutation(len(questions)))
    return deck.pop()


def play(index: int, seed_seq, spec: dict) -> dict:
    """One game of ``spec["rounds"]`` rounds under the study's rules (module docstring).

    Returns:
        ``{"ba": [...], "no_ba": [...]}``: per solve, ``(questions, heard, announcements)``
        since the solver's deal (ints).
    """
    n, rounds, a = spec.get("players", PLAYERS), spec["rounds"], spec["analysing"]
    deck_all = bound_deck(VALUES, CARDS, n)
    questions = [deck_all[q] for q in spec["deck"]]
    rng = np.random.default_rng(seed_seq)
    space = stack_space(VALUES, CARDS)
    S = space.size
    ba = [i < a for i in range(n)]
    M = BitTable(n, S) if a > 0 else None
    A = BitTable(n, S) if 0 < a < n else None
    filt = [np.ones(S, dtype=bool) for _ in range(n)] if a < n else None
    real = [space.index(rng.integers(1, VALUES + 1, size=CARDS)) for _ in range(n)]
    qc, hc, ac = [0] * n, [0] * n, [0] * n
    out = {"ba": [], "no_ba": []}
    deck: list = []
    for r in range(rounds):
        q = _draw(questions, deck, rng, spec["draw"])
        mod = r % n if spec["moderator"] == "rotating" else None
        seen = [j != mod for j in range(n)]
        ans = q.answer([real[i] for i in range(n) if seen[i]])
        if M is not None:
            M.filter_answer(q, ans, seen)
        if A is not None:
            A.filter_answer(q, ans, seen)
        if filt is not None:
            for j in range(n):
                if j == mod:
                    continue
                partial = q.combine_all([real[i] for i in range(n) if i != j and seen[i]])
                filt[j] &= q.ok_given_partial(ans, True)[partial]
        for j in range(n):
            qc[j] += 1
            hc[j] += j != mod
        iterations = 0
        while True:
            iterations += 1
            for j in range(n):
                ac[j] += 1
            # an answers-only player's valids are its filter (= its row of the table A)
            rows = [M.row(j, real) if ba[j] else filt[j] for j in range(n)]
            reacts = [int(row.sum()) == 1 for row in rows]
            changed = False
            if M is not None:
                inds = [(M if ba[j] or A is None else A).solved_indicator(j) for j in range(n)]
                before = M.count()
                for j in range(n):
                    M.keep_reaction(j, inds[j], reacts[j], same_classes=True)
                changed = M.count() != before
            solvers = [j for j in range(n) if reacts[j]]
            for j in solvers:
                assert int(np.flatnonzero(rows[j])[0]) == real[j], "wrong solve"
                out["ba" if ba[j] else "no_ba"].append((qc[j], hc[j], ac[j]))
                if M is not None:
                    M.reset_player(j, real[j])
                if A is not None:
                    A.reset_player(j, real[j])
                if filt is not None:
                    filt[j][:] = True
                real[j] = space.index(rng.integers(1, VALUES + 1, size=CARDS))
                qc[j] = hc[j] = ac[j] = 0
            if spec["reactions"] == "once" or (not solvers and not changed):
                break
    return out


_GRIDS: dict = {}


def _answer_grid(q, n: int) -> np.ndarray:
    """int8 array (S,)*n: the external moderator's answer in every world (cached per question)."""
    key = (q.id, n)
    if key not in _GRIDS:
        S = q.space.size
        f = q.feature.astype(np.int16)
        grid = np.full((1,) * n, q.identity, dtype=np.int16)
        for a in range(n):
            shp = [1] * n
            shp[a] = S
            grid = q.ufunc(grid, f.reshape(shp))
        _GRIDS[key] = q.final(grid).astype(np.int8)
    return _GRIDS[key]


def play_counts(index: int, seed_seq, spec: dict) -> dict:
    """Like :func:`play` (external moderator) on plain boolean master tables, with
    ``spec["reactions"]``: ``"solve"`` (each player announces solve / not solve: Algorithm 1,
    the same game as :func:`play` with reactions ``fixpoint``, a check of this code) or
    ``"counts"`` (each player announces how many combinations they still hold: more than the
    seed's reactions). Player 0 analyses; the others answer only (their counts come from the
    answers-only table A)."""
    n, rounds = spec.get("players", PLAYERS), spec["rounds"]
    deck_all = bound_deck(VALUES, CARDS, n)
    questions = [deck_all[q] for q in spec["deck"]]
    rng = np.random.default_rng(seed_seq)
    space = stack_space(VALUES, CARDS)
    S = space.size
    M = np.ones((S,) * n, dtype=bool)
    A = np.ones((S,) * n, dtype=bool)
    real = [space.index(rng.integers(1, VALUES + 1, size=CARDS)) for _ in range(n)]
    qc = [0] * n
    out = {"ba": [], "no_ba": []}
    deck: list = []
    counts_mode = spec["reactions"] == "counts"

    def others(j):
        return tuple(real[i] for i in range(n) if i != j)

    for _r in range(rounds):
        q = _draw(questions, deck, rng, spec["draw"])
        g = _answer_grid(q, n)
        ok = g == g[tuple(real)]
        M &= ok
        A &= ok
        for j in range(n):
            qc[j] += 1
        while True:
            cnts = [(M if j == 0 else A).sum(axis=j, dtype=np.int32) for j in range(n)]
            said = [int(cnts[j][others(j)]) for j in range(n)]
            before = int(M.sum())
            for j in range(n):
                keep = (cnts[j] == said[j]) if counts_mode else ((cnts[j] == 1) == (said[j] == 1))
                M &= np.expand_dims(keep, j)
            changed = int(M.sum()) != before
            solvers = [j for j in range(n) if said[j] == 1]
            for j in solvers:
                row = (M if j == 0 else A)[tuple(slice(None) if i == j else real[i]
                                                 for i in range(n))]
                assert int(np.flatnonzero(row)[0]) == real[j], "wrong solve"
                out["ba" if j == 0 else "no_ba"].append((qc[j], qc[j], 0))
                for T in (M, A):
                    T[...] = np.expand_dims(np.take(T, real[j], axis=j), j)
                real[j] = space.index(rng.integers(1, VALUES + 1, size=CARDS))
                qc[j] = 0
            if not solvers and not changed:
                break
    return out


# ----------------------------------------------------------------------------- statistics

COUNTS = ("questions", "heard", "questions+1", "announcements")


def counted(obs: list, count: str) -> np.ndarray:
    """The rounds of each solve under one of the study's counts (module docstring):
    ``obs`` is a list of ``(questions, heard, announcements)``; ``count`` one of
    ``questions``, ``heard``, ``questions+1``, ``announcements``. Returns a float array."""
    a = np.asarray(obs, dtype=float).reshape(-1, 3)
    if count == "questions":
        return a[:, 0]
    if count == "heard":
        return a[:, 1]
    if count == "questions+1":
        return a[:, 0] + 1
    return a[:, 2]


def counted_games(games: list, count: str) -> list:
    """:func:`counted` per game: one array per game (games without an observation dropped)."""
    return [counted(g, count) for g in games if len(g)]


def summary(groups: list) -> dict:
    """n, games, mean with its 95% interval by the game (delta method), variance with its 95%
    interval by the game (cluster bootstrap), and the per-observation intervals for contrast
    (``naive_mean_ci``: t; ``naive_var_ci``: chi-square)."""
    from scipy import stats

    from engines.core.cluster_stats import cluster_mean_ci, cluster_variance_ci

    groups = [np.asarray(g, float) for g in groups if len(g)]
    x = np.concatenate(groups) if groups else np.zeros(0)
    n = len(x)
    if n < 2:
        return {"n": n, "games": len(groups)}
    m, v = float(x.mean()), float(x.var(ddof=1))
    h = float(stats.t.ppf(0.975, n - 1)) * math.sqrt(v / n)
    vlo = (n - 1) * v / float(stats.chi2.ppf(0.975, n - 1))
    vhi = (n - 1) * v / float(stats.chi2.ppf(0.025, n - 1))
    out = {"n": n, "games": len(groups), "mean": round(m, 3), "var": round(v, 2),
           "naive_mean_ci": [round(m - h, 3), round(m + h, 3)],
           "naive_var_ci": [round(vlo, 2), round(vhi, 2)]}
    if len(groups) >= 2:
        mc = cluster_mean_ci(groups)
        vc = cluster_variance_ci(groups, resamples=2000, seed=1)
        out["mean_ci"] = [round(mc.low, 3), round(mc.high, 3)]
        out["var_ci"] = [round(vc.low, 2), round(vc.high, 2)]
    return out


def run(spec: dict, games: int, seed: int, scheduler, game=None) -> dict:
    """The observations of ``games`` games, kept per game: ``{"ba": [[obs, ...] per game],
    "no_ba": [...]}``."""
    res = run_games(game or play, games, seed, (spec,), scheduler=scheduler,
                    workers=1 if not scheduler else None)
    return {"ba": [g["ba"] for g in res], "no_ba": [g["no_ba"] for g in res]}


def paper_interval() -> dict:
    """The paper's own 95% intervals, from its means/variances and the number of solves one
    1000-round game gives (1 BA player: ~1000/6.16 solves; 3 others: ~3·1000/9.78)."""
    out = {}
    for k, players in (("no_ba", 3), ("ba", 1)):
        m, v = PAPER[k]
        n = int(players * 1000 / m)
        h = 1.96 * math.sqrt(v / n)
        out[k] = {"n": n, "mean_ci": [round(m - h, 2), round(m + h, 2)]}
    return out


# ----------------------------------------------------------------------------- decks

def information_bits(qid: str, players: int = PLAYERS) -> float:
    """I(own stack; answer | the others' stacks) in bits, averaged over random deals: what one
    answer tells a player about their own cards (external moderator, fresh deal)."""
    deck = bound_deck(VALUES, CARDS, players)
    q = deck[qid]
    w = stack_space(VALUES, CARDS).weights
    # distribution of the partial aggregate of the other players
    dist = {q.identity: 1.0}
    for _ in range(players - 1):
        nd: dict = {}
        for p, pp in dist.items():
            agg = q.ufunc(np.int64(p), q.feature)
            for g, wi in zip(agg.tolist(), w):
                nd[g] = nd.get(g, 0.0) + pp * wi
        dist = nd
    h = 0.0
    for p, pp in dist.items():
        ans = q.final(q.ufunc(np.int64(p), q.feature))
        pa = np.bincount(ans - ans.min(), weights=w)
        pa = pa[pa > 0]
        h += pp * float(-(pa * np.log2(pa)).sum())
    return h


def decks(rng_seed: int = 2024, subsets: int = 12) -> dict:
    """The decks of the study: name -> list of question ids."""
    full = list(bound_deck(VALUES, CARDS, PLAYERS))
    info = {q: information_bits(q) for q in full}
    by_info = sorted(full, key=lambda q: info[q])
    d = {"ours-28": full,
         # the only question Zorn (2024) quotes is "How many numbers are missing?" (example 3.1)
         # and its footnote speaks of linear equations: counting questions over all cards
         "seed-kinds-9": ["missing", "distinct", "sum"] + [f"count-{v}" for v in range(1, 7)],
         "lowest-info-23": by_info[:23], "highest-info-23": by_info[-23:],
         "lowest-info-12": by_info[:12]}
    rng = np.random.default_rng(rng_seed)
    for i in range(subsets):
        d[f"random-23-{i}"] = sorted(rng.choice(full, size=23, replace=False).tolist(),
                                     key=full.index)
    return d, info


# ----------------------------------------------------------------------------- parts

BASE = {"draw": "deck", "moderator": "external", "reactions": "fixpoint"}


def part_info() -> dict:
    """The information one answer gives about a player's own stack, in bits, per question of
    our deck (:func:`information_bits`), most informative first."""
    _, info = decks()
    return {"information_bits": {q: round(b, 3) for q, b in sorted(info.items(),
                                                                  key=lambda t: -t[1])}}


def part_decks_no_ba(scheduler, rounds: int) -> dict:
    """No-BA mean/variance per deck (answers only; cheap: ~0.2 ms per round)."""
    d, info = decks()
    out = {}
    for name, ids in d.items():
        for draw in ("deck", "replace"):
            spec = dict(BASE, draw=draw, deck=ids, rounds=rounds, analysing=0)
            r = run(spec, 8, 11, scheduler)
            out[f"{name}/{draw}"] = {"mean_info_bits": round(float(np.mean([info[q] for q in ids])), 3),
                                     "no_ba": summary(counted_games(r["no_ba"], "questions"))}
    return out


def part_rules_no_ba(scheduler, rounds: int) -> dict:
    """No-BA figures for every rule combination and count, on our deck."""
    full = list(bound_deck(VALUES, CARDS, PLAYERS))
    out = {}
    for draw in ("deck", "replace"):
        for mod in ("external", "rotating"):
            spec = dict(BASE, draw=draw, moderator=mod, deck=full, rounds=rounds, analysing=0)
            r = run(spec, 8, 12, scheduler)
            for count in COUNTS:
                out[f"{draw}/{mod}/{count}"] = summary(counted_games(r["no_ba"], count))
    return out


def part_subsets(scheduler, rounds: int, count: int) -> dict:
    """No-BA figures for ``count`` random 23-question subsets of our deck, drawn with
    replacement (the rule the no-BA variance points to): which subsets reproduce the paper's
    no-BA mean and variance, and how the mean depends on the information per question."""
    full = list(bound_deck(VALUES, CARDS, PLAYERS))
    _, info = decks()
    rng = np.random.default_rng(7)
    rows = []
    for i in range(count):
        ids = sorted(rng.choice(full, size=23, replace=False).tolist(), key=full.index)
        spec = dict(BASE, draw="replace", deck=ids, rounds=rounds, analysing=0)
        r = run(spec, 4, 100 + i, scheduler)
        s = summary(counted_games(r["no_ba"], "questions"))
        rows.append({"deck": ids, "left_out": [q for q in full if q not in ids],
                     "mean_info_bits": round(float(np.mean([info[q] for q in ids])), 3), **s})
    m_lo, m_hi = paper_interval()["no_ba"]["mean_ci"]
    # a deck "reproduces" the paper when its mean is inside the paper's interval and the
    # paper's variance inside the deck's interval: by the game, and per observation (naive)
    hit = [r for r in rows if m_lo <= r["mean"] <= m_hi
           and r["var_ci"][0] <= PAPER["no_ba"][1] <= r["var_ci"][1]]
    naive_hit = [r for r in rows if m_lo <= r["mean"] <= m_hi
                 and r["naive_var_ci"][0] <= PAPER["no_ba"][1] <= r["naive_var_ci"][1]]
    # a deck whose own mean interval (by the game) overlaps the paper's and whose variance
    # interval holds 29.3: the decks the data cannot rule out
    not_ruled_out = [r for r in rows if r["mean_ci"][0] <= m_hi and r["mean_ci"][1] >= m_lo
                     and r["var_ci"][0] <= PAPER["no_ba"][1] <= r["var_ci"][1]]
    x = np.array([r["mean_info_bits"] for r in rows])
    y = np.array([r["mean"] for r in rows])
    slope, icpt = np.polyfit(x, y, 1)
    return {"subsets": count, "reproducing_no_ba": len(hit),
            "reproducing_no_ba_naive": len(naive_hit),
            "not_ruled_out": len(not_ruled_out),
            "not_ruled_out_mean_info_bits": sorted(r["mean_info_bits"] for r in not_ruled_out),
            "reproducing_decks_left_out": [r["left_out"] for r in hit],
            "mean_vs_info_fit": {"slope_rounds_per_bit": round(float(slope), 2),
                                 "intercept": round(float(icpt), 2),
                                 "corr": round(float(np.corrcoef(x, y)[0, 1]), 3)},
            "mean_range": [round(float(y.min()), 2), round(float(y.max()), 2)],
            "var_range": [min(r["var"] for r in rows), max(r["var"] for r in rows)],
            "rows": rows}


def part_ba(scheduler, rounds: int, games: int, which: list) -> dict:
    """BA (1 analysing player, the paper's table) and no-BA for selected settings."""
    d, _ = decks()
    out = {}
    for name, deck, draw, mod, reactions in which:
        spec = {"draw": draw, "moderator": mod, "reactions": reactions, "deck": d[deck],
                "rounds": rounds, "analysing": 1}
        t0 = time.perf_counter()
        r = run(spec, games, 13, scheduler)
        row = {"setting": {"deck": deck, "draw": draw, "moderator": mod, "reactions": reactions},
               "seconds": round(time.perf_counter() - t0, 1)}
        for count in COUNTS:
            row[count] = {"ba": summary(counted_games(r["ba"], count)),
                          "no_ba": summary(counted_games(r["no_ba"], count))}
        out[name] = row
        print(name, json.dumps(row["questions"]), row["seconds"], "s", file=sys.stderr, flush=True)
    return out


def part_counts(scheduler, rounds: int, games: int) -> dict:
    """BA when reactions reveal how many combinations each player still holds (not in the
    seed; an upper end for what reactions can carry), against solve / not solve."""
    d, _ = decks()
    out = {}
    for name, deck, draw in (("ours", "ours-28", "deck"),
                             ("lowest-info-23/replace", "lowest-info-23", "replace")):
        spec = {"draw": draw, "moderator": "external", "reactions": "counts", "deck": d[deck],
                "rounds": rounds, "analysing": 1}
        t0 = time.perf_counter()
        r = run(spec, games, 14, scheduler, play_counts)
        out[name] = {"ba": summary(counted_games(r["ba"], "questions")),
                     "no_ba": summary(counted_games(r["no_ba"], "questions")),
                     "seconds": round(time.perf_counter() - t0, 1)}
        print(name, json.dumps(out[name]), file=sys.stderr, flush=True)
    return out


BA_SETTINGS = [
    ("ours", "ours-28", "deck", "external", "fixpoint"),
    ("ours/once", "ours-28", "deck", "external", "once"),
    ("ours/replace", "ours-28", "replace", "external", "fixpoint"),
    ("ours/replace/rotating", "ours-28", "replace", "rotating", "fixpoint"),
    ("lowest-info-23", "lowest-info-23", "deck", "external", "fixpoint"),
    ("lowest-info-23/replace", "lowest-info-23", "replace", "external", "fixpoint"),
    ("random-23-7/replace", "random-23-7", "replace", "external", "fixpoint"),
    ("random-23-11/replace", "random-23-11", "replace", "external", "fixpoint"),
]


def main(argv=None) -> int:
    """``python -m engines.egghead.study [--part ...]``: run the chosen parts and print (and with
    ``--out`` write) one JSON document; returns the exit code."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--part", choices=("all", "info", "decks", "rules", "subsets", "ba",
                                       "counts"),
                    default="all")
    ap.add_argument("--subsets", type=int, default=100, help="random 23-subsets (no BA)")
    ap.add_argument("--scheduler", default=None, help="processes:N, local:N or tcp://HOST:8786")
    ap.add_argument("--rounds", type=int, default=1000, help="rounds per no-BA game (8 games)")
    ap.add_argument("--ba-rounds", type=int, default=750, help="rounds per BA game")
    ap.add_argument("--ba-games", type=int, default=4, help="BA games per setting")
    ap.add_argument("--counts-rounds", type=int, default=500, help="rounds per counts game")
    ap.add_argument("--counts-games", type=int, default=2, help="counts games per setting")
    ap.add_argument("--ba-settings", default=None, help="comma-separated names (default all)")
    ap.add_argument("--out", default=None, help="write the JSON here too")
    a = ap.parse_args(argv)
    res: dict = {"paper": PAPER, "paper_intervals": paper_interval()}
    t0 = time.perf_counter()
    if a.part in ("all", "info"):
        res.update(part_info())
    if a.part in ("all", "decks"):
        res["decks_no_ba"] = part_decks_no_ba(a.scheduler, a.rounds)
    if a.part in ("all", "rules"):
        res["rules_no_ba"] = part_rules_no_ba(a.scheduler, a.rounds)
    if a.part in ("all", "subsets"):
        res["subsets_no_ba"] = part_subsets(a.scheduler, a.rounds, a.subsets)
    if a.part in ("all", "ba"):
        names = None if not a.ba_settings else a.ba_settings.split(",")
        which = [s for s in BA_SETTINGS if names is None or s[0] in names]
        res["ba"] = part_ba(a.scheduler, a.ba_rounds, a.ba_games, which)
    if a.part in ("all", "counts"):
        res["counts_ba"] = part_counts(a.scheduler, a.counts_rounds, a.counts_games)
    res["seconds"] = round(time.perf_counter() - t0, 1)
    text = json.dumps(res, indent=1)
    if a.out:
        Path(a.out).write_text(text + "\n")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
