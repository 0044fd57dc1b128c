"""The games of this package as the Deduction Desk registry reads them (entry points)."""
from engines.registry import GameInfo

COIN = GameInfo("coin", "Coin", "coin_game.engine", example="heads   ·   tails",
                example_session="coin_game:coin.json", tab="coin_game.tab:CoinTab",
                guide="coin_game:coin.md")
PLAIN_COIN = GameInfo("plaincoin", "Plain coin", "coin_game.plain")
