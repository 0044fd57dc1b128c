"""Spyfall: my next move — the claim my side's equilibrium strategy announces and the end-game
move (whom to accuse, whether to call the vote, or which location to name).

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
from engines.spyfall.inference import _fold, _named, emission_params
from engines.spyfall.model import Claim, Setup


@dataclass(frozen=True)
class Recommendation:
    """My next move (bots' rules applied to me).

    Attributes:
        claim: the mean claim of my side's equilibrium strategy (a mix of hide-reveal bots with
            my β, :func:`engines.spyfall.equilibrium.equilibrium_strategy`), Σ_i p_i γ_i/Σγ_i
            (probabilities over locations): what I would announce on average playing it; my own
            model's strategy when no stored equilibrium exists.
        accuse: as a non-spy, my most likely spy (MLE of my private spy belief), else None.
        accuse_probability: its probability.
        name_location: as the spy, my most likely location (MLE of Q), else None.
        location_probability: its probability.
        strategy: the equilibrium mix for my side, ``[{"lambda", "strategy", "probability"}]``
            (most probable first); ``[]`` when the stored study is missing.
        call_vote: as a non-spy, True when my private spy belief reaches the early-vote
            threshold of the equilibrium's vote rule (call the vote now).
    """

    claim: dict
    accuse: Optional[str]
    accuse_probability: float
    name_location: Optional[str]
    location_probability: float
    strategy: tuple = ()
    call_vote: bool = False

    def to_json(self) -> dict:
        return {"game": "spyfall", "claim": self.claim, "accuse": self.accuse,
                "accuse_probability": self.accuse_probability, "name_location": self.name_location,
                "location_probability": self.location_probability,
                "strategy": [dict(m) for m in self.strategy], "call_vote": self.call_vote}


def recommend(setup: Setup, events: Sequence[Claim], *, cancel: CancelFlag = None) -> Recommendation:
    """The claim my side's equilibrium strategy would announce now (the mix's mean claim) and
    my end-game move (whom to accuse and whether to call the vote, or which location to name).

    The equilibrium is the stored hide-reveal game of :mod:`engines.spyfall.equilibrium` (solved
    for 5 players and 27 locations; used as an approximation at other tables).

    Raises:
        SessionFormatError: the setup has no ``me`` (an observer has no move), or a bad event.
    """
    if setup.me is None:
        raise SessionFormatError("$.setup.me", "a recommendation needs \"me\" and \"my_role\"")
    tr = _fold(setup, events, cancel).tracker
    me = setup.me_index
    mix, threshold = _equilibrium_mix("spy" if setup.i_am_spy else "non_spy")
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
        return Recommendation(_named(setup.locations, mean), None, 0.0,
                              setup.locations[k], float(q[k]), mix, False)
    priv = tr.private_spy(me, l0)
    k = int(np.argmax(priv))
    return Recommendation(_named(setup.locations, mean), setup.players[k],
                          float(priv[k]), None, 0.0, mix,
                          bool(threshold is not None and priv[k] >= threshold))


def _equilibrium_mix(side: str):
    """(the stored equilibrium mix of ``side``, the early-vote threshold), or ([], None) when
    the study file is missing or unreadable (the recommendation then uses my own model)."""
    from engines.spyfall import equilibrium  # scipy.optimize: imported when first asked

    try:
        return equilibrium.equilibrium_strategy(side), equilibrium.early_vote_threshold()
    except (OSError, ValueError, KeyError, TypeError):
        return [], None
