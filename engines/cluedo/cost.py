"""What a Cluedo recommendation costs, known before it starts, and the budget it must fit.

Every figure here is in *work units*, the unit of the counting DP's own limit
(:data:`engines.cluedo.counting.MAX_DP_WORK`: tensor entries x slice operations), so the
estimate is a function of the input alone (the command line's output never depends on the
machine). The pieces of a recommendation and their cost:

* one exact count (:func:`count_work`): the DP's work (:func:`engines.cluedo.counting.dp_size`)
  plus a fixed cost per card x owner cell (the schedule and propagation, Python code that does
  not shrink with the DP) — :data:`WORK_PER_CELL`;
* the ranking: every candidate at once (:func:`engines.cluedo.outcomes.estimated_work`, times
  :data:`AT_ONCE_FACTOR`, at least :data:`AT_ONCE_FLOOR`), or the staged path — an estimate
  from ``samples`` sampled deals for
  every candidate (:data:`WORK_PER_ESTIMATE` per candidate and deal) and then up to
  ``1 + 7 (k - 1)`` counts for each of the best candidates counted exactly;
* the most probable envelope (:func:`engines.cluedo.accuse.best_triple`): at most
  ``1 + |suspects| + |suspects| x |weapons|`` counts (all of them when the log says nothing);
* what each opponent knows: per sampled deal and opponent about :data:`OPPONENT_COUNTS` counts.

Calibration (CPU time of each piece against its estimate, ``tests/benchmarks/bench_cluedo_cost.py``):
about 3e8 work units per CPU second on one core of the project's 2-core machine (the rate
:mod:`engines.cluedo.counting` states). Whole recommendations planned at 6e9 units took 18-24 s
of CPU (classic deck 6 players, Master Detective 6 players, 20 cards per category with 3
players, all with an empty log; measured at load averages of 10-36 on 2 cores, with the same
CPU time at 10 as at 28), so the estimate is CPU seconds x 3e8 within about 20 %, and the
budget :data:`RECOMMEND_WORK` is 2.1e9 units: 7 s, leaving room for the command's start-up
and the estimate's error under the contract's 10 s (one count alone may take up to the counting
DP's own limit, :data:`engines.cluedo.counting.MAX_DP_WORK`).

What does not fit is first made cheaper, deterministically (the same input always gives the
same plan): fewer sampled deals for the opponents' figures (never under
:data:`engines.cluedo.opponents.MIN_INTERVAL_SAMPLES`), fewer exact candidates (not under
:data:`MIN_EXACT_TOP` at this stage), fewer deals for the ranking's estimate (never under :data:`MIN_RANK_SAMPLES`).
What is still too large is then left out, saying so in the plan's ``notes`` (the JSON's
``"notes"``): the exact counts (down to none: the ranking keeps its estimate from the sampled
deals), then the opponents' figures (the exact counts get the room back, up to 12), then the
most probable envelope. Every built-in edition and player count fits that way (Master Detective
with 10 players and an empty log: the ranking's estimate and the first count). What still does
not fit — decks far larger than a real game's — is refused at once
(:class:`engines.core.errors.SessionFormatError`) naming the field that makes it large and the
estimate.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from engines.core.errors import SessionFormatError
from engines.core.i18n import _, ngettext, number

#: Work of one exact count per card x owner cell, beyond the DP's own work (measured: 3.5 ms
#: for 21 cards x 4 owners, 9.6 ms for 30 x 4, 14.5 ms for 45 x 4 with little DP work).
WORK_PER_CELL = 2.0e4
#: Work per candidate and sampled deal of the staged ranking's estimate (measured 170-230).
WORK_PER_ESTIMATE = 200.0
#: :func:`engines.cluedo.outcomes.estimated_work` (with exchangeable classes) to work units, and
#: the least an at-once ranking is charged: measured 0.27-0.7 x the estimate on the classic deck
#: (3-6 players, empty logs and a hand with four suggestions) and Master Detective (3 players),
#: and 0.05-0.44 s of CPU (up to 1.3e8 units) however small the estimate.
AT_ONCE_FACTOR = 0.7
AT_ONCE_FLOOR = 1.5e8
#: Exact counts per sampled deal and opponent of the opponents' figures (their view's belief,
#: and the look-ahead's when they do not know yet), in counts of the log's own size: measured
#: 1.2-1.3 on empty logs, up to 1.65 with a hand and four suggestions logged (the classic deck,
#: 5 players: 9.2 s of CPU where 1.3 planned 7.3 s), and 2.2 for the same at a load of 9 with
#: 1.7 planned; 2.0 keeps that case near 7.5 s.
OPPONENT_COUNTS = 2.0
#: Work units per CPU second (engines.cluedo.counting: "about 3e8 ... per second").
WORK_PER_SECOND = 3e8
#: Budget of one recommendation (ranking, best envelope, opponents' figures together): 7 s at
#: :data:`WORK_PER_SECOND`, so that the whole command — start-up, the first count, and the
#: estimate's error — stays under the contract's 10 s of CPU on a loaded machine. (At 3e9 the
#: classic deck with 6 players took 10.3 s of CPU at a load of 3; at 2.4e9 with the kept
#: schedules of :func:`engines.cluedo.counting._schedule`, 5 players after a hand and four
#: suggestions took 9.2 s at a load of 9.)
RECOMMEND_WORK = 2.1e9
#: Fewest sampled deals of the ranking's estimate, and fewest exact candidates, kept while a
#: recommendation is made cheaper (below them the exact counts are left out, with a note).
MIN_RANK_SAMPLES = 1000
MIN_EXACT_TOP = 12
#: Fewest sampled deals the opponents' figures are given from, without an interval, before they
#: are left out (the app's first estimate uses as many).
MIN_FEW_OPPONENT_SAMPLES = 16


def count_work(dp_work: float, n_cards: int, n_players: int) -> float:
    """Work units of one exact count: the DP's work plus :data:`WORK_PER_CELL` per card x owner
    (``n_players`` + the envelope)."""
    return float(dp_work) + WORK_PER_CELL * n_cards * (n_players + 1)


def best_triple_counts(n_suspects: int, n_weapons: int) -> int:
    """Upper bound on the counts of :func:`engines.cluedo.accuse.best_triple`."""
    return 1 + n_suspects + n_suspects * n_weapons


def exact_counts(n_players: int) -> int:
    """Counts of one exact candidate (:func:`engines.cluedo.recommend.exact_information_bits`)."""
    return 1 + 7 * (n_players - 1)


@dataclass(frozen=True)
class Plan:
    """How a recommendation runs within :data:`RECOMMEND_WORK`.

    Fields:
        rank_samples: sampled deals of the staged ranking's estimate (0: every candidate at once).
        exact_top: candidates counted exactly after the estimate (None: as asked).
        opponents_samples: sampled deals of the opponents' figures (None: not sampled here;
            0: left out to fit, see ``notes``).
        work: the estimate of the whole, in work units.
        parts: ``{"ranking", "exact", "best envelope", "opponents"}`` -> work units.
        best_envelope: whether the most probable envelope is counted (False: left out to fit).
        notes: what was left out or lowered to fit, in words (the JSON's ``"notes"``).
    """

    rank_samples: int
    exact_top: Optional[int]
    opponents_samples: Optional[int]
    work: float
    parts: dict
    best_envelope: bool = True
    notes: tuple = ()

    def seconds(self) -> float:
        """The estimate in CPU seconds at :data:`WORK_PER_SECOND` (for messages)."""
        return self.work / WORK_PER_SECOND


def _describe(work: float) -> str:
    return _("about {work} work units").format(work=number(work, ".2g"))


def plan_recommendation(*, n_cards: int, n_players: int, n_suspects: int, n_weapons: int,
                        n_candidates: int, dp_work: float, at_once_work: Optional[float],
                        rank_samples: int, exact_top: Optional[int], exact_budgeted: bool,
                        opponents_samples: Optional[int], opponents_fixed: bool,
                        n_opponents: int, best_envelope: bool,
                        min_opponent_samples: int = 64) -> Plan:
    """Choose the sizes of a recommendation so that it fits :data:`RECOMMEND_WORK`, or refuse.

    Args:
        n_cards, n_players, n_suspects, n_weapons: the table.
        n_candidates: suggestions to rank (suspects x weapons x rooms considered).
        dp_work: the DP work of one count on the log (:func:`engines.cluedo.counting.dp_size`).
        at_once_work: :func:`engines.cluedo.outcomes.estimated_work` when every candidate is
            computed at once, else None (the staged path).
        rank_samples: sampled deals asked for the ranking's estimate (staged path).
        exact_top: candidates asked to be counted exactly (None: every one).
        exact_budgeted: a time budget stops the exact counts (the app): only one candidate's
            counts are charged, the budget stops the rest.
        opponents_samples: sampled deals asked for the opponents' figures (None: none here).
        opponents_fixed: the caller named that number (``--samples``): it is refused, never
            lowered.
        n_opponents: opponents still in the game.
        best_envelope: whether the most probable envelope is counted (the accusation advice).
        min_opponent_samples: fewest sampled deals the opponents' figures are lowered to
            (:data:`engines.cluedo.opponents.MIN_INTERVAL_SAMPLES`, given by the caller).
    Returns:
        :class:`Plan`.
    Raises:
        SessionFormatError: at ``--samples`` when a number of samples the caller named does not
            fit; else at ``$.setup.categories`` (the candidates and cards make it large) or
            ``$.setup.players`` (the owners and opponents do), naming the estimate and the budget.
    """
    cw = count_work(dp_work, n_cards, n_players)
    best = best_triple_counts(n_suspects, n_weapons) * cw if best_envelope else 0.0
    per_opp_sample = n_opponents * OPPONENT_COUNTS * cw
    per_exact = exact_counts(n_players) * cw
    if exact_top is None:
        want_exact = n_candidates
    else:
        want_exact = min(exact_top, n_candidates)
    MIN_INTERVAL_SAMPLES = min_opponent_samples

    def total(rs, et, os_):
        rank = max(AT_ONCE_FACTOR * at_once_work, AT_ONCE_FLOOR) if at_once_work is not None \
            else rs * n_candidates * WORK_PER_ESTIMATE
        exact = 0.0 if at_once_work is not None else (min(et, 1) if exact_budgeted else et) * per_exact
        opp = (os_ or 0) * per_opp_sample
        return {"ranking": rank, "exact": exact, "best envelope": best, "opponents": opp}

    rs, et, os_ = rank_samples, want_exact, opponents_samples
    parts = total(rs, et, os_)
    asked = (rs, et, os_)
    if sum(parts.values()) > RECOMMEND_WORK and os_ is not None and not opponents_fixed:
        room = RECOMMEND_WORK - parts["ranking"] - parts["exact"] - best
        os_ = max(MIN_INTERVAL_SAMPLES, min(os_, int(room // per_opp_sample) if room > 0 else 0))
        parts = total(rs, et, os_)
    if sum(parts.values()) > RECOMMEND_WORK and at_once_work is None and not exact_budgeted \
            and et > MIN_EXACT_TOP:
        room = RECOMMEND_WORK - parts["ranking"] - best - parts["opponents"]
        et = max(MIN_EXACT_TOP, min(et, int(room // per_exact) if room > 0 else 0))
        parts = total(rs, et, os_)
    if sum(parts.values()) > RECOMMEND_WORK and at_once_work is None and rs > MIN_RANK_SAMPLES:
        room = RECOMMEND_WORK - parts["exact"] - best - parts["opponents"]
        rs = max(MIN_RANK_SAMPLES, min(rs, int(room // (n_candidates * WORK_PER_ESTIMATE))
                                       if room > 0 else 0))
        parts = total(rs, et, os_)
    # what is still too large is left out, in this order (each step deterministic): the exact
    # counts (the ranking keeps its estimate from the sampled deals), then the opponents'
    # figures (the exact counts then get the room they leave, up to 12), then the most
    # probable envelope. Only the ranking's estimate and the first count remain.
    notes = []
    if sum(parts.values()) > RECOMMEND_WORK and at_once_work is None and not exact_budgeted \
            and et > 0:
        room = RECOMMEND_WORK - parts["ranking"] - best - parts["opponents"]
        et = max(0, min(et, int(room // per_exact) if room > 0 else 0))
        parts = total(rs, et, os_)
    room = RECOMMEND_WORK - parts["ranking"] - best - parts["exact"]
    if sum(parts.values()) > RECOMMEND_WORK and os_ and not opponents_fixed \
            and room >= MIN_FEW_OPPONENT_SAMPLES * per_opp_sample:
        fewer = int(room // per_opp_sample)
        notes.append(_("what the opponents know is estimated from {n} sampled deals, fewer "
                       "than the {least} a 95 % interval needs (none is given), to "
                       "fit the budget of {budget} work units").format(
            n=fewer, least=MIN_INTERVAL_SAMPLES, budget=number(RECOMMEND_WORK, ".2g")))
        os_ = fewer
        parts = total(rs, et, os_)
    if sum(parts.values()) > RECOMMEND_WORK and os_ and not opponents_fixed:
        notes.append(_("what the opponents know is left out: {n} sampled deals of it would take "
                       "{work} on top of the rest, and a recommendation "
                       "may take {budget} in all (log the cards you hold and were "
                       "shown, and the figures come back as the table gets smaller)").format(
            n=os_, work=_describe(os_ * per_opp_sample), budget=number(RECOMMEND_WORK, ".2g")))
        os_ = 0
        parts = total(rs, et, os_)
        if at_once_work is None and not exact_budgeted and et < asked[1]:   # room freed
            room = RECOMMEND_WORK - parts["ranking"] - best
            et = max(et, min(asked[1], MIN_EXACT_TOP, int(room // per_exact) if room > 0 else 0))
            parts = total(rs, et, os_)
    if sum(parts.values()) > RECOMMEND_WORK and best and not (opponents_fixed and os_):
        notes.append(_("the most probable envelope is left out: its counts would take "
                       "{work}, and a recommendation may take {budget} in all").format(
            work=_describe(best), budget=number(RECOMMEND_WORK, ".2g")))
        best = 0.0
        parts = total(rs, et, os_)
    if at_once_work is None and exact_top is not None and et < min(asked[1], MIN_EXACT_TOP):
        notes.append(ngettext("{n} of the best suggestions is counted exactly "
                              "(not {asked}): the others' information is estimated from {samples} sampled "
                              "deals, to fit the budget of {budget} work units",
                              "{n} of the best suggestions are counted exactly "
                              "(not {asked}): the others' information is estimated from {samples} sampled "
                              "deals, to fit the budget of {budget} work units", et).format(
            n=et, asked=asked[1], samples=number(rs, ","), budget=number(RECOMMEND_WORK, ".2g")))
    work = sum(parts.values())
    if work > RECOMMEND_WORK:
        what = ", ".join(f"{k} {v:.2g}" for k, v in parts.items() if v)
        limit = _("at most {budget} are allowed").format(budget=number(RECOMMEND_WORK, ".2g"))
        if opponents_fixed and os_:
            fit = (RECOMMEND_WORK - work + parts["opponents"]) // per_opp_sample
            raise SessionFormatError(
                "--samples", _("{n} sampled deals for the opponents' figures make this "
                               "recommendation {work} ({parts}); {limit}").format(
                    n=os_, work=_describe(work), parts=what, limit=limit)
                + (_("; at most {n} samples fit").format(n=int(fit)) if fit >= MIN_INTERVAL_SAMPLES
                   else ""))
        # the ranking and the best envelope grow with the cards per category (candidates,
        # suspect x weapon pairs); the exact candidates and the opponents with the owners
        by_cards = parts["ranking"] + parts["best envelope"] >= parts["exact"] + parts["opponents"]
        if by_cards:
            raise SessionFormatError(
                "$.setup.categories", _("ranking {n} suggestions over {cards} cards "
                                        "would take {work} ({parts}); {limit} for one "
                                        "recommendation (use fewer cards per category, or ask "
                                        "only about the room you are in)").format(
                    n=f"{n_candidates:,}", cards=n_cards, work=_describe(work), parts=what, limit=limit))
        raise SessionFormatError(
            "$.setup.players", _("a recommendation for {players} players with {cards} cards "
                                 "would take {work} ({parts}); {limit} (every count "
                                 "grows with the owners; log the cards you hold and were shown, "
                                 "or play with fewer players)").format(
                players=n_players, cards=n_cards, work=_describe(work), parts=what, limit=limit))

    return Plan(rs if at_once_work is None else 0, et if exact_top is not None else None, os_,
                work, parts, best_envelope=not (best_envelope and best == 0.0), notes=tuple(notes))


def check_work(work: float, path: str, what: str, advice: str) -> None:
    """Refuse ``what`` when its estimate ``work`` (work units) exceeds :data:`RECOMMEND_WORK`.

    Raises:
        SessionFormatError: at ``path``, naming the estimate, the budget and ``advice``.
    """
    if work > RECOMMEND_WORK:
        raise SessionFormatError(
            path, f"{what} would take {_describe(work)}; at most {RECOMMEND_WORK:.2g} "
                  f"are allowed ({advice})")


def check_best_triple(comp, n_players: int, n_suspects: int, n_weapons: int) -> None:
    """Refuse :func:`engines.cluedo.accuse.best_triple` on ``comp`` (the log's compiled
    constraints) when its bound of counts cannot fit (at ``$.setup.categories``)."""
    from engines.cluedo.counting import dp_size

    cw = count_work(dp_size(comp)[2], comp.n_cards, n_players)
    check_work(best_triple_counts(n_suspects, n_weapons) * cw, "$.setup.categories",
               f"finding the most probable envelope among {n_suspects} suspects x {n_weapons} "
               f"weapons with {comp.n_cards} cards", "use fewer cards per category")


def _opponents_work_per_deal(comp, n_players: int) -> float:
    """Work units of the opponents' figures per sampled deal on ``comp`` (the log's compiled
    constraints): :data:`OPPONENT_COUNTS` counts per opponent."""
    from engines.cluedo.counting import dp_size

    return (n_players - 1) * OPPONENT_COUNTS * count_work(dp_size(comp)[2], comp.n_cards,
                                                          n_players)


def opponent_deals_that_fit(comp, n_players: int, wanted: int, floor: int) -> int:
    """The most sampled deals, at most ``wanted`` and at least ``floor``, whose opponents'
    figures fit :data:`RECOMMEND_WORK` on ``comp`` (the log's compiled constraints); ``floor``
    when not even that many fit (then :func:`check_opponents` refuses them)."""
    per_deal = _opponents_work_per_deal(comp, n_players)
    fit = int(RECOMMEND_WORK // per_deal) if per_deal > 0 else wanted
    return max(floor, min(wanted, fit))


def check_opponents(comp, n_players: int, samples: int) -> None:
    """Refuse the opponents' figures (:func:`engines.cluedo.opponents.iter_opponent_knowledge`)
    when ``samples`` sampled deals cannot fit (at ``$.setup.players``)."""
    check_work(samples * _opponents_work_per_deal(comp, n_players), "$.setup.players",
               f"what {n_players - 1} opponents know, from {samples} sampled deals of "
               f"{comp.n_cards} cards", "log the cards you hold and were shown, or play with "
                                        "fewer players")
