"""Inkognito words in the player's language: the four builds of the figures and the
quick-entry keywords in German and French.

The identities (Lord Fiddlebottom, Madame Zsa Zsa, Colonel Bubble, Agent X) are proper names
and stay as the setup spells them. The builds are shown translated (tall → groß / grand, short →
klein / petit, fat → dick / gros, thin → dünn / fin): plain translations of the English names
(docs/references.md: the German edition's own wording is not in the sources this project
holds). Quick entry always reads the English words; with German or French in effect it reads
that language's build names and keywords too. The command line never sets a language.
"""
from __future__ import annotations

from engines.core.i18n import N_, _, language

#: The standard builds, in words (translated where shown).
BUILDS = {"tall": N_("tall"), "short": N_("short"), "fat": N_("fat"), "thin": N_("thin")}

#: Quick-entry keywords of each language beside the English ones (always read).
QUICK = {
    "de": {"ambassador": ("botschafter",), "mission": ("auftrag", "mission"),
           "identity": ("identität", "identitäten"), "build": ("gestalt", "statur", "figur")},
    "fr": {"ambassador": ("ambassadeur", "amb"), "mission": ("mission",),
           "identity": ("identité", "identités"), "build": ("silhouette", "gabarit")},
}


def card_words(name: str) -> str:
    """A card's name for the player: a standard build translated ("groß"), any other name as
    it is."""
    return _(BUILDS[name]) if name in BUILDS else name


def kind_words(kind: str, n: int = 1) -> str:
    """"identity"/"build" (``n`` of them) in the language in effect."""
    from engines.core.i18n import ngettext

    if kind == "identity":
        return ngettext("identity", "identities", n)
    return ngettext("build", "builds", n)


def quick_words(kind: str) -> tuple:
    """The words of the language in effect for ``kind`` (``"ambassador"``, ``"mission"``,
    ``"identity"``, ``"build"``); () in English."""
    return QUICK.get(language(), {}).get(kind, ())


def local_card_names(builds) -> dict:
    """``{typed name: build}`` of the translated names of ``builds`` in the language in effect
    ({} in English)."""
    if language() not in QUICK:
        return {}
    return {card_words(b): b for b in builds if b in BUILDS}
