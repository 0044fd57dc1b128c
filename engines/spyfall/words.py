"""Spyfall quick-entry words in the player's language (docs/quick-entry.md).

Quick entry always reads the English words (``Bob asks Cy``, ``Bob: all``); with German or
French in effect it reads that language's words too (``Bob fragt Cy``, ``Bob : tout``). The
locations keep the names of the session's setup (the English edition's, or the player's own):
the German edition of the game (*Agent Undercover*) names other places, so no translation of
them is guessed. The command line never sets a language: its input stays English.
"""
from __future__ import annotations

from engines.core.i18n import language

#: The words of each language beside the English ones (always read).
QUICK = {
    "de": {"asks": ("fragt", "frage"), "all": ("alle", "alles", "egal")},
    "fr": {"asks": ("demande", "demande à", "interroge"), "all": ("tout", "tous", "toutes")},
}


def quick_words(kind: str) -> tuple:
    """The words of the language in effect for ``kind`` (``"asks"``, ``"all"``); () in English."""
    return QUICK.get(language(), {}).get(kind, ())
