"""A toy game for Deduction Desk, outside its repository: from the flips seen, is the coin fair
or a trick coin that shows heads with probability ``bias``? Two games are declared
(``coin_game.info``): ``coin`` with quick entry, Why? and a tab of its own, and ``plaincoin``
with only the required names of the engine contract (the desktop gives it its generic tab)."""
