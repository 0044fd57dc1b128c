"""The Cluedo editions' card lists and local names (``resources/cluedo/editions.json``), read once.

A local edition (the German or French classic Cluedo) is another edition's deck under other
names: its entry says ``"names_of"`` and lists its cards in that edition's order, so the k-th
name of a category is the k-th canonical card (the canonical ids are that edition's names).
The model (:mod:`engines.cluedo.model`) and the board (:mod:`engines.cluedo.board`) both read
them here, so neither imports the other for them. Sources of the names: docs/references.md.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Optional

from engines.core.resources import load_json_resource

#: The three categories of a Cluedo deck, in the order of a session file.
CATEGORY_NAMES = ("suspect", "weapon", "room")


@lru_cache(maxsize=1)
def editions_raw() -> dict:
    """The parsed ``editions.json`` (one object per process; do not change it)."""
    return load_json_resource("cluedo", "editions.json")


@lru_cache(maxsize=None)
def name_tables(edition: str) -> tuple:
    """``(to_id, to_name)`` for a local edition (one with ``"names_of"``): ``{display name:
    canonical id}`` and back, pairing the two editions' cards by position in each category;
    ``({}, {})`` for an edition whose names are its ids."""
    raw = editions_raw()
    base = raw[edition].get("names_of")
    if base is None:
        return {}, {}
    to_id = {}
    for cat in CATEGORY_NAMES:
        for name, cid in zip(raw[edition]["categories"][cat], raw[base]["categories"][cat], strict=True):
            to_id[name] = cid
    return to_id, {cid: name for name, cid in to_id.items()}


def names_of(edition: Optional[str]) -> Optional[str]:
    """The edition whose card names are the canonical ids of ``edition``'s cards: ``"cluedo-uk"``
    for the German and French classic editions (the same deck and board under other names),
    else ``edition`` itself (None for a custom deck)."""
    if edition is None:
        return None
    return editions_raw().get(edition, {}).get("names_of", edition)
