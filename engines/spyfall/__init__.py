"""Spyfall engine (issue 6; seed 001 "Spyfall with a probabilistic model").

Exact public and private beliefs over (location, spy) from claims on the simplex with Dirichlet
emissions (:mod:`engines.spyfall.inference`), bots and a tournament simulator
(:mod:`engines.spyfall.simulation`) and, when gymnasium is installed, a Gymnasium environment
(:mod:`engines.spyfall.env`, not imported here so this package works without gymnasium).
"""
from __future__ import annotations

from engines.spyfall.inference import (METHODS, BeliefTracker, Posterior, Recommendation,
                                       belief_summary, recommend,
                                       emission_params, infer)
from engines.spyfall.model import (EVENT_TYPES, NEW_GAME_MODEL, STRATEGIES, Claim, PlayerModel, Setup,
                                   describe_event, editions, event_from_json, make_claim,
                                   normalise_claim)
from engines.spyfall.parse import complete, contradiction, format_event, parse, preview
from engines.spyfall.simulation import (SimConfig, SimResult, add_simulate_arguments, simulate,
                                      simulate_main, play_game)

GAME = "spyfall"
TITLE = "Spyfall"


def default_setup() -> Setup:
    """The New game dialog's start: Spyfall 1 locations, five players, I hold a location card,
    and the model of :data:`~engines.spyfall.model.NEW_GAME_MODEL` (chosen by the studies)."""
    return Setup.from_json({"edition": "spyfall1", "players": ["Ann", "Bob", "Cy", "Dee", "Eve"],
                            "me": "Ann", "my_role": {"location": "Beach"},
                            "model": dict(NEW_GAME_MODEL)})


__all__ = ["GAME", "TITLE", "METHODS", "EVENT_TYPES", "STRATEGIES", "Setup", "PlayerModel", "Claim",
           "event_from_json", "make_claim", "describe_event", "infer", "Posterior",
           "belief_summary", "recommend", "Recommendation", "BeliefTracker", "emission_params", "normalise_claim", "editions",
           "simulate", "SimConfig", "SimResult", "play_game", "add_simulate_arguments",
           "simulate_main", "default_setup", "parse", "preview", "complete", "format_event",
           "contradiction"]
