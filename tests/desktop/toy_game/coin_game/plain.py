"""The coin as an engine with the contract's required names only (no quick entry, no Why?)."""
from coin_game.engine import (
                              EVENT_TYPES,
                              METHODS,
                              Setup,
                              belief_summary,
                              default_setup,
                              describe_event,
                              event_from_json,
                              infer,
)
from coin_game.info import PLAIN_COIN

GAME, TITLE = PLAIN_COIN.id, PLAIN_COIN.title
__all__ = ["GAME", "TITLE", "METHODS", "EVENT_TYPES", "Setup", "default_setup",
           "event_from_json", "describe_event", "infer", "belief_summary"]
