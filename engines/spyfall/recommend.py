"""Spyfall: my next move — the claim my model (or a replicated equilibrium strategy) announces
and the end-game move (whom to accuse, whether to call the vote, or which location to name),
named only when the log holds evidence for it.

A module of its own (engines/CONTRACT.md, "Layout"): the equilibrium it reads
(:mod:`engines.spyfall.equilibrium`) was solved with the simulator, which itself uses the belief
tracker of :mod:`engines.spyfall.inference`; kept apart, the three import in one direction
(inference <- simulate <- equilibrium <- recommend).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

import numpy as np

from engines.core.errors import CancelFlag, SessionFormatError
from engines.core.i18n import _, number
from engines.spyfall.inference import _fold, _named, emission_params
from engines.spyfall.model import Claim, Setup

#: An accusation (or, for the spy, a location) is named only when the leader is ahead of the
#: runner-up by more than this (relative to the leader): a tie means the claims have not set
#: anyone apart (e.g. before anyone but me has spoken).
MIN_LEAD = 1e-6


def _evidence(setup: Setup, events, belief: np.ndarray, names, what: str) -> tuple:
    """(True, "") when the log holds evidence for naming the leader of ``belief``, else
    (False, the reason in words with what would be needed). Evidence: at least one claim by a
    player other than me, and a single leader (ahead of the runner-up by more than
    :data:`MIN_LEAD` of its probability)."""
    me = setup.me
    others = [e for e in events if isinstance(e, Claim) and e.player != me]
    if not others:
        if what == "accusation":
            return False, _("No accusation yet: no one else has answered. It needs at least one "
                            "answer from another player.")
        return False, _("No location to name yet: no one else has answered. It needs at least "
                        "one answer from another player.")
    order = np.argsort(-belief, kind="stable")
    if belief.size > 1 and belief[order[0]] - belief[order[1]] <= MIN_LEAD * belief[order[0]]:
        said = dict(a=names[order[0]], pa=number(100 * belief[order[0]], ".1f") + " %",
                    b=names[order[1]], pb=number(100 * belief[order[1]], ".1f") + " %")
        if what == "accusation":
            return False, _("No accusation yet: the answers so far do not set anyone apart ({a} "
                            "{pa}, {b} {pb}). It needs an answer that fits one player better or "
                            "worse than the others.").format(**said)
        return False, _("No location to name yet: the answers so far do not set anyone apart "
                        "({a} {pa}, {b} {pb}). It needs an answer that fits one location better "
                        "or worse than the others.").format(**said)
    return True, ""


@dataclass(frozen=True)
class Recommendation:
    """My next move (bots' rules applied to me).

    Attributes:
        claim: the mean claim of my side's equilibrium strategy (a mix of hide-reveal bots with
            my β, :func:`engines.spyfall.equilibrium.equilibrium_strategy`), Σ_i p_i γ_i/Σγ_i
            (probabilities over locations): what I would announce on average playing it; my own
            model's strategy when no stored equilibrium exists.
        accuse: as a non-spy, my most likely spy (MLE of my private spy belief) once the log
            holds evidence (:func:`_evidence`), else None.
        accuse_probability: its probability (None when ``accuse`` is None).
        name_location: as the spy, my most likely location (MLE of Q) once the log holds
            evidence, else None.
        location_probability: its probability (None when ``name_location`` is None).
        strategy: the strategies named for my side, ``[{"lambda", "strategy", "probability",
            "replicated", "seeds"}]`` (most probable first): the replicated maximin strategy
            when the equilibrium replication shows one strategy across seeds
            (``"replicated": true``), ``[]`` when it does not (no single strategy is named),
            the stored single-seed mix (``"replicated": false``) when no replication is stored.
        call_vote: as a non-spy, True when my private spy belief reaches the early-vote
            threshold of the equilibrium's vote rule (call the vote now).
        reason: why ``accuse`` / ``name_location`` is None (words; what would be needed), else "".
        equilibrium: what the replication shows: ``{"seeds", "settled", "value",
            "never_dominated", "note"}`` (``value`` the range of the game's value over the
            seeds, non-spy win probability; ``never_dominated`` the non-spy strategies no other
            pure strategy beat in every column in any seed), or None without a replication.
    """

    claim: dict
    accuse: Optional[str]
    accuse_probability: float
    name_location: Optional[str]
    location_probability: float
    strategy: tuple = ()
    call_vote: bool = False
    reason: str = ""
    equilibrium: Optional[dict] = None

    def to_json(self) -> dict:
        return {"game": "spyfall", "claim": self.claim, "accuse": self.accuse,
                "accuse_probability": self.accuse_probability, "name_location": self.name_location,
                "location_probability": self.location_probability,
                "strategy": [dict(m) for m in self.strategy], "call_vote": self.call_vote,
                "reason": self.reason or None, "equilibrium": self.equilibrium}


def recommend(setup: Setup, events: Sequence[Claim], *, cancel: CancelFlag = None) -> Recommendation:
    """The claim my side's strategy would announce now (the mean claim) and my end-game move
    (whom to accuse and whether to call the vote, or which location to name).

    The strategy is the stored hide-reveal game's (:mod:`engines.spyfall.equilibrium`, solved
    for 5 players and 27 locations; an approximation at other tables) only where its
    replication across seeds (:mod:`engines.spyfall.replication`) shows it; otherwise the claim
    follows my own model and no strategy is named. No accusation and no location is named
    before the log holds evidence (:func:`_evidence`; ``reason`` says what is missing).

    Raises:
        SessionFormatError: the setup has no ``me`` (an observer has no move), or a bad event.
    """
    if setup.me is None:
        raise SessionFormatError("$.setup.me", "a recommendation needs \"me\" and \"my_role\"")
    tr = _fold(setup, events, cancel).tracker
    me = setup.me_index
    mix, threshold, eq = _equilibrium_mix("spy" if setup.i_am_spy else "non_spy")
    P = tr._model_joint
    params = [(m["probability"], emission_params(m["strategy"], tr.betas[me], m["lambda"], me,
                                                 P.sum(1), P.sum(0), tr.spy_view(me)))
              for m in mix] or [(1.0, tr.emission(me))]
    mean = np.zeros(setup.n_locations)
    l0 = None if setup.i_am_spy else setup.locations.index(setup.my_location)
    for p, (a, b, g) in params:
        if setup.i_am_spy:
            gamma = g
        else:
            gamma = np.full(setup.n_locations, a[l0])
            gamma[l0] += b[l0]
        mean += p * gamma / gamma.sum()
    mean /= mean.sum()
    mix = tuple(mix)
    if setup.i_am_spy:
        q = tr.location_given_spy(me)
        k = int(np.argmax(q))
        ok, why = _evidence(setup, events, q, setup.locations, "location to name")
        return Recommendation(_named(setup.locations, mean), None, None,
                              setup.locations[k] if ok else None, float(q[k]) if ok else None,
                              mix, False, why, eq)
    priv = tr.private_spy(me, l0)
    k = int(np.argmax(priv))
    ok, why = _evidence(setup, events, priv, setup.players, "accusation")
    return Recommendation(_named(setup.locations, mean), setup.players[k] if ok else None,
                          float(priv[k]) if ok else None, None, None, mix,
                          bool(ok and threshold is not None and priv[k] >= threshold), why, eq)


def _equilibrium_mix(side: str):
    """(the strategies to name for ``side``, the early-vote threshold, the replication's
    summary or None).

    With a stored replication (:func:`engines.spyfall.replication.replicated_strategies`) the
    named strategies are those it shows across seeds, each ``"replicated": true`` with the
    number of seeds — none when it does not settle; without one, the stored single-seed mix
    marked ``"replicated": false``. ([], None, None) when the study file is missing or
    unreadable (the recommendation then uses my own model)."""
    from engines.spyfall import equilibrium, replication  # here: they import the simulator

    try:
        threshold = equilibrium.early_vote_threshold()
        rep = replication.replicated_strategies(side)
        if rep["seeds"] == 0:
            mix = [dict(m, replicated=False, seeds=1)
                   for m in equilibrium.equilibrium_strategy(side)]
            return mix, threshold, None
    except (OSError, ValueError, KeyError, TypeError):
        return [], None, None
    named = []
    for label in rep["replicated"]:
        st, lam = replication.parse_label(label)
        named.append({"lambda": lam, "strategy": st, "probability": 1.0, "replicated": True,
                      "seeds": rep["seeds"]})
    never = [dict(zip(("strategy", "lambda"), replication.parse_label(x)))
             for x in rep["never_dominated"]]
    if named:
        note = (_("The same strategy was the maximin strategy in all {n} independent replications.")
                if side == "non_spy" else
                _("The same strategy was the minimax strategy in all {n} independent replications.")
                ).format(n=rep["seeds"])
    else:
        note = _("The equilibrium strategies differ between {n} independent replications, so no "
                 "single strategy is named; the value of the game and the strategies never "
                 "dominated hold across them.").format(n=rep["seeds"])
    eq = {"seeds": rep["seeds"], "settled": rep["settled"], "value": rep["value"],
          "never_dominated": never, "note": note}
    return named, threshold, eq
