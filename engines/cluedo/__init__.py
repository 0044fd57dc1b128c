"""Cluedo engine: exact deal counting, the analytical center, exact Monte Carlo sampling, the
next suggestion by expected information gain, and a simulator (Agade09's Cluedo_Sheet).

The public API the Cluedo tab and the CLI use is re-exported here (see engines/CONTRACT.md).
"""
from engines.cluedo.inference import METHODS, CluedoPosterior, belief_summary, first_contradiction, infer, sample_deals
from engines.cluedo.model import (
                                  ENVELOPE,
                                  EVENT_TYPES,
                                  GAME,
                                  TITLE,
                                  AccusationEvent,
                                  HandEvent,
                                  LacksEvent,
                                  Setup,
                                  ShownEvent,
                                  SuggestionEvent,
                                  deal_hand_sizes,
                                  default_setup,
                                  describe_event,
                                  event_from_json,
                                  load_editions,
                                  passers_between,
)
from engines.cluedo.recommend import CluedoRecommendation, recommend, recommend_for_cli, refute_advice
from engines.cluedo.simulate import SimConfig, SimulationResult, add_simulate_arguments, simulate, simulate_main

Posterior = CluedoPosterior

__all__ = [
    "GAME", "TITLE", "METHODS", "EVENT_TYPES", "ENVELOPE", "Setup", "HandEvent", "ShownEvent",
    "LacksEvent", "SuggestionEvent", "AccusationEvent", "event_from_json", "describe_event",
    "default_setup", "load_editions", "deal_hand_sizes", "passers_between", "infer",
    "CluedoPosterior", "Posterior", "belief_summary", "first_contradiction", "sample_deals",
    "recommend", "recommend_for_cli", "CluedoRecommendation", "refute_advice", "simulate", "SimConfig",
    "SimulationResult", "add_simulate_arguments",
    "simulate_main",
]
from engines.cluedo.diagnosis import diagnose  # noqa: E402 (after the set-up above)
from engines.cluedo.explain import explain, explain_contradiction  # noqa: E402 (after the set-up above)

__all__ += ["explain", "explain_contradiction", "diagnose"]

from engines.cluedo.parse import complete, contradiction, fact_reason, format_event, parse, preview  # noqa: E402 (after the set-up above)

__all__ += ["parse", "preview", "complete", "format_event", "contradiction", "fact_reason"]
