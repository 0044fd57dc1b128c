"""Spyfall engine (“Spyfall with Pyro”, a probabilistic model of the game).

Exact public and private beliefs over (location, spy) from claims on the simplex with Dirichlet
emissions (:mod:`engines.spyfall.inference`), bots and a tournament simulator
(:mod:`engines.spyfall.simulate`) and, when gymnasium is installed, a Gymnasium environment
(:mod:`engines.spyfall.env`, not imported here so this package works without gymnasium).
"""
from engines.core.lazy import PARSE_NAMES, SIMULATE_NAMES, exports_of, lazy_package

# each public name -> the submodule that defines it, imported on first use (engines/core/lazy.py)
__all__ = lazy_package(__name__, {
    "METHODS": "inference", "BeliefTracker": "inference", "Posterior": "inference",
    "belief_summary": "inference", "copy_state": "inference", "emission_params": "inference",
    "infer": "inference", "initial": "inference", "posterior": "inference",
    "state_bytes": "inference", "update": "inference",
    "EVENT_KEYS": "model", "EVENT_TYPES": "model", "GAME": "model", "NEW_GAME_MODEL": "model", "STRATEGIES": "model",
    "TITLE": "model", "Ask": "model", "Claim": "model", "PlayerModel": "model", "Setup": "model",
    "TableAids": "model", "claims_only": "model", "default_setup": "model",
    "describe_event": "model", "editions": "model", "entry_claim_weight": "model",
    "event_from_json": "model", "make_claim": "model", "next_turn": "model",
    "normalise_claim": "model", "on_grid": "model",
    **exports_of("parse", PARSE_NAMES),
    "Recommendation": "recommend", "recommend": "recommend",
    **exports_of("simulate", SIMULATE_NAMES), "SimResult": "simulate", "play_game": "simulate",
})
