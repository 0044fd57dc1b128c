"""Egghead words in the player's language: the standard deck's questions and the quick-entry
keywords in German and French.

The question cards of the standard deck (``resources/egghead/questions.json``, Zorn 2024,
"A study on the logic game Egghead", section 2) are data in English; their texts are listed here
for gettext so the app shows them translated (:func:`question_text`). A deck of the player's own
keeps its own words. Quick entry always reads the English words and each question's id; with
German or French in effect it reads that language's question texts and keywords too
(``B löst 456 -> 112``, ``reaktionen: B``, ``B résout 456 -> 112``). The command line never sets
a language. The game keeps its name, Egghead, in every language: our sources give no German or
French title.
"""
from __future__ import annotations

from engines.core.i18n import N_, _, language

#: The standard deck's question texts (the English of resources/egghead/questions.json).
QUESTION_TEXTS = (
    N_("How many of the values 1 to {values} appear on no card?"),
    N_("How many different values appear on the cards?"),
    N_("What is the sum of all cards?"),
    N_("How many cards show a 1?"),
    N_("How many cards show a 2?"),
    N_("How many cards show a 3?"),
    N_("How many cards show a 4?"),
    N_("How many cards show a 5?"),
    N_("How many cards show a 6?"),
    N_("How many cards show an even number?"),
    N_("How many cards show an odd number?"),
    N_("How many cards show a prime number (2, 3, 5 or 7)?"),
    N_("How many cards show 4 or more?"),
    N_("How many cards show 1 or 2?"),
    N_("How many players hold at least two equal cards?"),
    N_("How many players hold cards that are all equal?"),
    N_("How many players hold cards that are all different?"),
    N_("How many players hold consecutive values (like 2, 3, 4)?"),
    N_("What is the highest card?"),
    N_("What is the lowest card?"),
    N_("What is the largest sum of one player's cards?"),
    N_("What is the smallest sum of one player's cards?"),
    N_("Is the sum of all cards even? (1 = yes, 0 = no)"),
    N_("How many players hold at least one 6?"),
    N_("How many players hold at least one 1?"),
    N_("What is the sum of the players' middle cards (each stack sorted)?"),
    N_("What is the largest difference between one player's highest and lowest card?"),
    N_("What is the smallest of the players' highest cards?"),
)

#: Quick-entry keywords of each language beside the English ones (always read).
QUICK = {
    "de": {"solves": ("löst", "gelöst", "nennt"), "reactions": ("reaktionen", "reaktion", "reaktionen:"),
           "nobody": ("niemand", "keiner"), "new": ("neu", "dann")},
    "fr": {"solves": ("résout", "résolu", "annonce"), "reactions": ("réactions", "réaction", "réactions:"),
           "nobody": ("personne", "aucun"), "new": ("nouvelles", "puis")},
}


def question_text(text: str, values: int) -> str:
    """A question card's text for the player: a standard question translated, with the number of
    values put in (``{values}``); any other text as it is."""
    shown = _(text) if text in QUESTION_TEXTS else text
    return shown.replace("{values}", str(values))


#: Short names of the most asked questions in each language (typed like the ids ``sum``, ``missing``).
ALIASES = {
    "de": {"summe": "sum", "fehlend": "missing", "fehlt": "missing", "verschiedene": "distinct",
           "höchste": "highest", "niedrigste": "lowest", "gerade": "count-even", "ungerade": "count-odd",
           "paare": "pairs", "drillinge": "triples"},
    "fr": {"somme": "sum", "manquant": "missing", "manquants": "missing", "différentes": "distinct",
           "plus haute": "highest", "plus basse": "lowest", "nombres pairs": "count-even", "impairs": "count-odd",
           "paires": "pairs", "brelans": "triples"},
}


def question_aliases() -> dict:
    """``{short name: question id}`` of the language in effect ({} in English)."""
    return ALIASES.get(language(), {})


def quick_words(kind: str) -> tuple:
    """The words of the language in effect for ``kind`` (``"solves"``, ``"reactions"``,
    ``"nobody"``, ``"new"``); () in English."""
    return QUICK.get(language(), {}).get(kind, ())


def shown_question(text: str, values: int) -> str:
    """A question text as the deck shows it (``{values}`` already put in), translated when it is
    a standard question; any other text as it is."""
    for t in QUESTION_TEXTS:
        if t.replace("{values}", str(values)) == text:
            return question_text(t, values)
    return text
