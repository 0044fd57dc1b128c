"""Cluedo engine: exact deal counting, the analytical center, exact Monte Carlo sampling, the
next suggestion by expected information gain, and a simulator (Agade09's Cluedo_Sheet).

The public API the Cluedo tab and the CLI use is re-exported here (see engines/CONTRACT.md).
"""
from engines.core.lazy import PARSE_NAMES, SIMULATE_NAMES, exports_of, lazy_package

# each public name -> the submodule that defines it, imported on first use (engines/core/lazy.py)
__all__ = lazy_package(__name__, {
    "METHODS": "inference", "CluedoPosterior": "inference", "belief_summary": "inference",
    "first_contradiction": "inference", "infer": "inference", "sample_deals": "inference",
    "Posterior": "inference:CluedoPosterior",
    "ENVELOPE": "model", "EVENT_KEYS": "model", "EVENT_TYPES": "model", "GAME": "model", "TITLE": "model",
    "AccusationEvent": "model", "HandEvent": "model", "LacksEvent": "model", "Setup": "model",
    "ShownEvent": "model", "SuggestionEvent": "model", "deal_hand_sizes": "model",
    "default_setup": "model", "describe_event": "model", "event_from_json": "model",
    "load_editions": "model", "passers_between": "model", "seated_after": "model",
    "event_to_file": "model", "event_from_file": "model", "card_id": "model", "card_name": "model",
    "names_of": "model", "same_deck_editions": "model", "relabel": "model",
    "canonical_names": "model", "CATEGORY_WORDS": "model",
    "CluedoRecommendation": "recommend", "recommend": "recommend",
    "recommend_for_cli": "recommend", "refute_advice": "recommend",
    **exports_of("simulate", SIMULATE_NAMES),
    "diagnose": "diagnosis",
    "explain": "explain", "explain_contradiction": "explain",
    **exports_of("parse", PARSE_NAMES), "fact_reason": "parse", "example_for": "parse",
})
