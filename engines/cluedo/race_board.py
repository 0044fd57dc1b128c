"""The board race: bots that roll and move on the classic board, to measure the turn advice
(:mod:`engines.cluedo.turn`) against simple movers. An extension of :mod:`engines.cluedo.race`
(its dealing, suggestion resolution, logs and rates are reused).

The game: Cluedo (UK), the classic board (:mod:`engines.cluedo.board`), two dice; four players
move the pawns of Miss Scarlett, Colonel Mustard, Mrs White and Reverend Green from their
starting squares. On a turn a bot moves (below); when its move ends in a room — entered this
turn, reached by the secret passage, or stayed in after another player's suggestion pulled it
there — it suggests in that room: the first player after it holding a suggested card refutes,
showing a uniformly chosen matching card, and the named suspect's pawn is pulled into the room.
Every bot keeps its own log as in :mod:`engines.cluedo.race`, and every bot accuses only when its
exact posterior makes the envelope certain, so the winner is the first bot, in playing order, to
be certain; the game is played on until every bot is certain (or ``max_rounds``), which gives
every bot's *turns to solve* (its own turns until certain) uncensored, without changing who won.

Movers (the other pawns block corridor squares; a pulled pawn may stay):

* ``nearest``: stays when pulled in; else rolls and enters the nearest room the roll reaches
  (ties at random), else walks the roll along a shortest path towards the nearest room;
* ``random``: stays when pulled in; else rolls and enters a room the roll reaches, chosen
  uniformly, else walks towards a target room drawn uniformly (kept until reached);
* ``sensible``: a player who moves with its own posterior: stays when pulled into a room its
  exact posterior still allows in the envelope; else rolls and enters the nearest such room the
  roll reaches (ties at random), else walks the roll towards the nearest such room (any room
  when none of them can be reached); it suggests there what the advice bot would (the best expected
  information in that room), so against it the advice is measured on movement alone;
* ``advice``: the turn advice: before rolling, takes the passage or stays when that is worth
  more than rolling (``roll_value_bits``); else rolls and makes the best move for the roll;
  it suggests the advice's suggestion (the best expected information in that room).

The ``nearest`` and ``random`` movers suggest, in each category but the room, a card drawn
uniformly from those their exact posterior still allows in the envelope (as in
:mod:`engines.cluedo.race`). So against them the advice bot differs in where it goes *and* in
what it suggests: the race measures the whole turn; against ``sensible`` it measures where to go.

One focal bot plays three bots of one baseline kind, its seat rotating with the game number;
were it no better, its win rate would be 1/4 (binomial test). Turns to solve: the focal bot's
against the baseline bot seated after it, one pair per game (Mann-Whitney U test,
``scipy.stats.mannwhitneyu``). Win rates with 95 % Wilson intervals.
"""
from __future__ import annotations

import dataclasses
import time

import numpy as np

from engines.cluedo.board import edition_board, room_distances, shortest_path
from engines.cluedo.model import HandEvent, Setup, SuggestionEvent
from engines.cluedo.race import _certain_triple, _rate, _suggest, run_cli
from engines.cluedo.simulate import play_suggestion, random_deal
from engines.core.errors import SessionFormatError, check_cancel

KINDS = ("advice", "nearest", "random", "sensible")
SUSPECTS = ("Miss Scarlett", "Colonel Mustard", "Mrs White", "Reverend Green", "Mrs Peacock",
            "Professor Plum")
MAX_GAMES = 100_000


def _walk_towards(board, pos, room, n, blocked):
    """The square ``n`` steps along a shortest path from ``pos`` towards ``room`` (``n`` is less
    than the room's distance), or None when the room cannot be reached."""
    try:
        path = shortest_path(board, pos, room, blocked)
    except SessionFormatError:
        return None
    i = n if not isinstance(pos, str) else n - 1
    return path[min(i, len(path) - 1)]


def _baseline_move(kind, board, pos, pulled, blocked, rng, dice, target):
    """(new position, entered/stayed room or None, new target) for a baseline mover."""
    if isinstance(pos, str) and pulled:
        return pos, pos, target
    n = int(rng.integers(1, 7, size=dice).sum())
    dist = room_distances(board, pos, blocked)
    if not dist:
        return pos, None, target                      # trapped: doors blocked
    inside = [r for r, k in dist.items() if k <= n]
    if inside:
        if kind == "nearest":
            k0 = min(dist[r] for r in inside)
            inside = [r for r in inside if dist[r] == k0]
        room = inside[int(rng.integers(len(inside)))]
        return room, room, None
    if kind == "nearest":
        k0 = min(dist.values())
        goal = sorted(r for r in dist if dist[r] == k0)[0]
    else:
        if target is None or target not in dist:
            target = sorted(dist)[int(rng.integers(len(dist)))]
        goal = target
    sq = _walk_towards(board, pos, goal, n, blocked)
    return (sq if sq is not None else pos), None, target


def _sensible_move(setup, log, board, pos, pulled, blocked, rng, dice):
    """(new position, entered/stayed room or None) for the sensible player: the rooms it aims at
    are those its exact posterior still allows in the envelope (any room when none of them can
    be reached); it stays when pulled into one of them; else it rolls and enters the
    nearest of them the roll reaches (ties at random), else walks the roll towards the nearest."""
    from engines.cluedo.inference import infer

    env = infer(setup, log).envelope_marginals()["room"]
    possible = {r for r, p in env.items() if p > 0}
    if isinstance(pos, str) and pulled and pos in possible:
        return pos, pos
    n = int(rng.integers(1, 7, size=dice).sum())
    dist = room_distances(board, pos, blocked)
    if not dist:
        return pos, None                               # trapped: doors blocked
    aims = {r: k for r, k in dist.items() if r in possible} or dist
    inside = [r for r, k in aims.items() if k <= n]
    if inside:
        k0 = min(aims[r] for r in inside)
        near = sorted(r for r in inside if aims[r] == k0)
        room = near[int(rng.integers(len(near)))]
        return room, room
    k0 = min(aims.values())
    goal = sorted(r for r in aims if aims[r] == k0)[0]
    sq = _walk_towards(board, pos, goal, n, blocked)
    return (sq if sq is not None else pos), None


def _best_suggestion(setup, log, room):
    """The turn advice's suggestion in ``room``: the best expected information there
    (:func:`engines.cluedo.turn.information_by_room`), or None when the envelope is certain."""
    from engines.cluedo.turn import information_by_room

    info = information_by_room(setup, log, opponents_seconds=0)[0]
    return info[room][1] if room in info else None


def _advice_move(setup, log, board, pos, pulled, others, rng, dice):
    """(new position, room or None, suggestion or None) for the advice bot."""
    from engines.cluedo.turn import information_by_room, turn_advice

    info = information_by_room(setup, log, opponents_seconds=0)
    pre = turn_advice(setup, log, at=pos, roll=None, others=others, may_stay=pulled, room_bits=info)
    free = [m for m in pre.moves if m.to in ("passage", "stay")]
    if free and free[0].value_bits >= pre.roll_value_bits:
        m = max(free, key=lambda m: m.value_bits)
        return m.room, m.room, m.suggestion
    n = int(rng.integers(1, 7, size=dice).sum())
    adv = turn_advice(setup, log, at=pos, roll=n, others=others, may_stay=False, room_bits=info)
    moves = [m for m in adv.moves if m.to not in ("passage", "stay")]
    if not moves:
        return pos, None, None
    m = moves[0]
    if m.room is not None:
        return m.room, m.room, m.suggestion
    return tuple(m.to), None, None


def play_board_game(setup: Setup, kinds: list, rng: np.random.Generator, *, max_rounds: int = 40,
                    track: tuple | None = None, cancel=None) -> dict:
    """One game (the module docstring). ``kinds[p]`` in :data:`KINDS`; ``track``: the seats
    whose turns to solve are wanted (default all): the game stops once they and the winner are
    known.

    Returns:
        ``{"winner": seat or None, "solved": [own turns to certainty or None per seat],
        "rounds": rounds played, "suggestions": [suggestions made per seat]}``.
    """
    eb = edition_board(setup)
    board, dice = eb.board, eb.dice
    k = len(setup.players)
    deal = random_deal(setup, rng)
    setups = [dataclasses.replace(setup, me=name) for name in setup.players]
    logs = [[HandEvent(player=name, cards=tuple(c for c, o in zip(setup.cards, deal) if o == p))]
            for p, name in enumerate(setup.players)]
    pawn_of = dict(setup.pawns)
    player_of = {s: p for p, s in setup.pawns}
    pos = {name: eb.start_of(pawn_of[name]) for name in setup.players}
    pulled = set()
    targets = [None] * k
    solved = [None] * k
    first = None
    sugg_count = [0] * k
    rnd = 0
    for rnd in range(1, max_rounds + 1):
        for p in range(k):
            check_cancel(cancel)
            name = setup.players[p]
            others = {q: pos[q] for q in setup.players if q != name}
            blocked = frozenset(v for v in others.values() if not isinstance(v, str))
            kind = kinds[p] if solved[p] is None else "nearest"
            triple = None
            if kind == "advice":
                new, room, triple = _advice_move(setups[p], logs[p], board, pos[name], name in pulled,
                                                 others, rng, dice)
            elif kind == "sensible":
                new, room = _sensible_move(setups[p], logs[p], board, pos[name], name in pulled, blocked,
                                           rng, dice)
                triple = _best_suggestion(setups[p], logs[p], room) if room is not None else None
            else:
                new, room, targets[p] = _baseline_move(kind, board, pos[name], name in pulled, blocked,
                                                       rng, dice, targets[p])
            pos[name] = new
            pulled.discard(name)
            if room is None:
                continue
            if triple is None or triple[2] != room:
                if solved[p] is not None:
                    continue                    # certain: no need to suggest any more
                s, w, _ = _suggest(setups[p], logs[p], rng, "allowed")
                triple = (s, w, room)
            ev = play_suggestion(setup, deal, p, triple, rng, reveal=True)
            sugg_count[p] += 1
            hidden = SuggestionEvent(suggester=ev.suggester, cards=ev.cards, passed=ev.passed, refuter=ev.refuter,
                                     shown=None)
            for q in range(k):
                sees = q == p or (ev.refuter is not None and setup.players[q] == ev.refuter)
                logs[q].append(ev if sees else hidden)
            moved = player_of.get(triple[0])
            if moved is not None and moved != name:
                pos[moved] = room
                pulled.add(moved)
            if solved[p] is None and _certain_triple(setups[p], logs[p]) is not None:
                solved[p] = rnd
                if first is None:
                    first = p
        wanted = range(k) if track is None else track
        if first is not None and all(solved[q] is not None for q in wanted):
            break
    return {"winner": first, "solved": solved, "rounds": rnd, "suggestions": sugg_count}


def board_race(games: int = 100, *, focal: str = "advice", baseline: str = "nearest", n_players: int = 4,
               seed: int | None = 0, max_rounds: int = 40, progress=None, cancel=None,
               on_game=None) -> dict:
    """Play ``games`` games of one ``focal`` bot against ``n_players - 1`` ``baseline`` bots, the
    focal seat rotating (module docstring).

    ``on_game(record)`` is called after each game with ``{"game", "seat", "winner",
    "focal_solved", "baseline_solved", "rounds"}`` (a file of them is summarised by
    :func:`summarize`).

    Returns:
        ``{"games", "focal", "baseline", "focal_result": {"wins", "games", "win_rate",
        "wilson_95", "p_value_vs_0.25"}, "turns_to_solve": {"focal_median", "baseline_median",
        "focal_mean", "baseline_mean", "unsolved_focal", "unsolved_baseline",
        "mann_whitney_p"}, "mean_rounds", "seconds"}``.
    Raises:
        SessionFormatError: an unknown kind, or a count out of range.
    """

    if focal not in KINDS or baseline not in KINDS:
        raise SessionFormatError("kind", f"one of {', '.join(KINDS)}")
    if not 1 <= games <= MAX_GAMES:
        raise SessionFormatError("games", f"between 1 and {MAX_GAMES}")
    if not 3 <= n_players <= 6:
        raise SessionFormatError("players", "3 to 6 players")
    if not 1 <= max_rounds <= 1000:
        raise SessionFormatError("max_rounds", "between 1 and 1000")
    names = [f"P{i + 1}" for i in range(n_players)]
    setup = Setup.from_json({"edition": "cluedo-uk", "players": names, "me": names[0],
                             "pawns": dict(zip(names, SUSPECTS))}, "$.race")
    rng = np.random.default_rng(seed)
    t0 = time.perf_counter()
    records = []
    for g in range(games):
        seat = g % n_players
        kinds = [baseline] * n_players
        kinds[seat] = focal
        nxt = (seat + 1) % n_players
        res = play_board_game(setup, kinds, rng, max_rounds=max_rounds, track=(seat, nxt), cancel=cancel)
        rec = {"game": g, "seat": seat, "winner": res["winner"], "focal_solved": res["solved"][seat],
               "baseline_solved": res["solved"][nxt], "rounds": res["rounds"]}
        records.append(rec)
        if on_game is not None:
            on_game(rec)
        if progress is not None:
            progress(g + 1, games)
    out = summarize(records, n_players=n_players, max_rounds=max_rounds)
    out.update({"focal": focal, "baseline": baseline, "seed": seed,
                "seconds": round(time.perf_counter() - t0, 1)})
    return out


def summarize(records: list, *, n_players: int = 4, max_rounds: int = 40) -> dict:
    """Win rate (Wilson 95 %, binomial test against 1/n_players) and turns to solve
    (Mann-Whitney U, focal against the baseline seated after it; unsolved games count as
    ``max_rounds + 1``) from per-game records of :func:`board_race`."""
    from scipy.stats import mannwhitneyu

    n = len(records)
    wins = sum(1 for r in records if r["winner"] == r["seat"])
    cens = max_rounds + 1
    f = [r["focal_solved"] if r["focal_solved"] is not None else cens for r in records]
    b = [r["baseline_solved"] if r["baseline_solved"] is not None else cens for r in records]
    mw = mannwhitneyu(f, b, alternative="two-sided") if n > 1 else None
    return {"game": "cluedo", "board": "classic", "games": n, "players": n_players,
            "focal_result": _rate(wins, n, 1.0 / n_players),
            "no_winner": sum(1 for r in records if r["winner"] is None),
            "turns_to_solve": {"focal_median": float(np.median(f)) if n else None,
                               "baseline_median": float(np.median(b)) if n else None,
                               "focal_mean": float(np.mean(f)) if n else None,
                               "baseline_mean": float(np.mean(b)) if n else None,
                               "unsolved_focal": sum(1 for r in records if r["focal_solved"] is None),
                               "unsolved_baseline": sum(1 for r in records if r["baseline_solved"] is None),
                               "censored_at": cens,
                               "mann_whitney_p": float(mw.pvalue) if mw is not None else None},
            "mean_rounds": float(np.mean([r["rounds"] for r in records])) if n else None}


def main(argv=None) -> None:
    """``python -m engines.cluedo.race_board [--games N] [--focal K] [--baseline K] [--seed S]``:
    prints JSON (progress on stderr)."""
    import argparse
    import json
    import sys

    ap = argparse.ArgumentParser(prog="python -m engines.cluedo.race_board",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--focal", choices=KINDS, default="advice")
    ap.add_argument("--baseline", choices=KINDS, default="nearest")
    ap.add_argument("--max-rounds", type=int, default=40)
    ap.add_argument("--jsonl", help="append one line per game to this file")
    ap.add_argument("--summarize", metavar="JSONL", help="only summarise a file of game lines")
    a = ap.parse_args(argv)
    try:
        if a.summarize:
            with open(a.summarize, encoding="utf-8") as fh:
                recs = [json.loads(line) for line in fh if line.strip()]
            print(json.dumps(summarize(recs, n_players=a.players, max_rounds=a.max_rounds), indent=2))
            return
        sink = open(a.jsonl, "a", encoding="utf-8") if a.jsonl else None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        print(f"error: {a.summarize or a.jsonl}: {exc}", file=sys.stderr)
        raise SystemExit(2) from None

    def on_game(rec):
        if sink is not None:
            sink.write(json.dumps(rec) + "\n")
            sink.flush()

    try:
        run_cli(lambda progress: board_race(a.games, focal=a.focal, baseline=a.baseline,
                                            n_players=a.players, seed=a.seed, max_rounds=a.max_rounds,
                                            progress=progress, on_game=on_game))
    finally:
        if sink is not None:
            sink.close()


if __name__ == "__main__":
    main()
