"""Spyfall engine (“Spyfall with Pyro”, a probabilistic model of the game).

Exact public and private beliefs over (location, spy) from claims on the simplex with Dirichlet
emissions (:mod:`engines.spyfall.inference`), bots and a tournament simulator
(:mod:`engines.spyfall.simulate`) and, when gymnasium is installed, a Gymnasium environment
(:mod:`engines.spyfall.env`, not imported here so this package works without gymnasium).
"""
from __future__ import annotations

from engines.spyfall.inference import (
                                       METHODS,
                                       BeliefTracker,
                                       Posterior,
                                       belief_summary,
                                       copy_state,
                                       emission_params,
                                       infer,
                                       initial,
                                       posterior,
                                       state_bytes,
                                       update,
)
from engines.spyfall.model import (
                                       EVENT_TYPES,
                                       GAME,
                                       NEW_GAME_MODEL,
                                       STRATEGIES,
                                       TITLE,
                                       Ask,
                                       Claim,
                                       PlayerModel,
                                       Setup,
                                       TableAids,
                                       claims_only,
                                       default_setup,
                                       describe_event,
                                       editions,
                                       entry_claim_weight,
                                       event_from_json,
                                       make_claim,
                                       next_turn,
                                       normalise_claim,
                                       on_grid,
)
from engines.spyfall.parse import complete, contradiction, format_event, parse, preview
from engines.spyfall.recommend import Recommendation, recommend
from engines.spyfall.simulate import (
                                       SimConfig,
                                       SimResult,
                                       SimulationResult,
                                       add_simulate_arguments,
                                       play_game,
                                       simulate,
                                       simulate_main,
)

__all__ = ["GAME", "TITLE", "METHODS", "EVENT_TYPES", "STRATEGIES", "Setup", "PlayerModel",
           "Claim", "event_from_json", "make_claim", "describe_event", "infer", "Posterior",
           "belief_summary", "initial", "update", "posterior", "copy_state", "state_bytes",
           "recommend", "Recommendation", "BeliefTracker", "emission_params", "normalise_claim",
           "editions", "simulate", "SimConfig", "SimResult", "SimulationResult", "play_game",
           "add_simulate_arguments", "simulate_main", "default_setup", "NEW_GAME_MODEL",
           "entry_claim_weight", "on_grid", "parse", "preview", "complete", "format_event",
           "contradiction", "Ask", "TableAids", "next_turn", "claims_only"]
