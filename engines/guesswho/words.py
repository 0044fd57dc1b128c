"""Guess Who? words in the player's language: the classic board's attributes in German and French
(the editions are "Wer ist es?" and "Qui est-ce ?"; the attribute words are plain translations,
not checked against those editions' rule sheets: docs/references.md), and the quick-entry words
a German or French player types.

The classic board's attribute names (``glasses``, ``hair_colour``…) are the session file's keys
and stay English there; what the player reads goes through gettext (:func:`attribute_words`,
:func:`value_words`, :func:`chip_words`). A board of the player's own keeps its own words.

Quick entry (docs/quick-entry.md) always reads the English words; with German or French in
effect it reads that language's words too (:func:`quick_words`, :func:`local_atom_labels`), so
``Brille? nein`` and ``lunettes ? non`` log the event ``glasses? no`` logs. The command line
never sets a language: its input and output stay English.
"""
from __future__ import annotations

from engines.core.i18n import N_, _, language

#: The classic board's yes/no attributes and categories, in words (translated where shown).
ATTRIBUTES = {
    "gender": N_("gender"), "hair_colour": N_("hair colour"), "eye_colour": N_("eye colour"),
    "glasses": N_("glasses"), "hat": N_("hat"), "beard": N_("beard"), "moustache": N_("moustache"),
    "bald": N_("bald"), "big_nose": N_("big nose"), "rosy_cheeks": N_("rosy cheeks"),
    "big_mouth": N_("big mouth"), "earrings": N_("earrings"), "long_hair": N_("long hair"),
    "curly_hair": N_("curly hair"), "hair_parting": N_("hair parting"),
    "sad_looking": N_("sad looking"),
}
#: The classic board's category values, in words.
VALUES = {
    ("gender", "male"): N_("male"), ("gender", "female"): N_("female"),
    ("hair_colour", "black"): N_("black"), ("hair_colour", "brown"): N_("brown"),
    ("hair_colour", "blond"): N_("blond"), ("hair_colour", "ginger"): N_("ginger"),
    ("hair_colour", "white"): N_("white"),
    ("eye_colour", "brown"): N_("brown"), ("eye_colour", "blue"): N_("blue"),
}
#: A category value as a card shows it (the English of the code: "brown hair", "blue eyes").
CHIPS = {
    ("hair_colour", "black"): N_("black hair"), ("hair_colour", "brown"): N_("brown hair"),
    ("hair_colour", "blond"): N_("blond hair"), ("hair_colour", "ginger"): N_("ginger hair"),
    ("hair_colour", "white"): N_("white hair"),
    ("eye_colour", "brown"): N_("brown eyes"), ("eye_colour", "blue"): N_("blue eyes"),
}

#: Quick-entry words of each language beside the English ones (always read).
QUICK = {
    "de": {"yes": ("ja", "j"), "no": ("nein",), "down": ("weg", "umlegen", "raus"),
           "opponent": ("gegner",), "or": ("oder",), "not": ("ohne", "kein", "keine", "keinen", "nicht"),
           "is it": ("ist es",)},
    "fr": {"yes": ("oui", "o"), "no": ("non",), "down": ("baisser", "abattre", "retourner"),
           "opponent": ("adversaire", "adv"), "or": ("ou",), "not": ("pas de", "pas", "sans"),
           "is it": ("est-ce", "c'est")},
}
#: Extra words a German or French player uses for a classic board's question.
SYNONYMS = {
    "de": {"Mann": ("gender", "male"), "Frau": ("gender", "female")},
    "fr": {"homme": ("gender", "male"), "femme": ("gender", "female")},
}


def attribute_words(name: str) -> str:
    """An attribute's name for the player (``"big_nose"`` → "big nose", German "große Nase");
    an attribute of the player's own board: its name with spaces."""
    return _(ATTRIBUTES[name]) if name in ATTRIBUTES else name.replace("_", " ")


def value_words(attribute: str, value) -> str:
    """A category value for the player (``("hair_colour", "ginger")`` → "ginger", "rot")."""
    key = (attribute, value)
    return _(VALUES[key]) if key in VALUES else str(value)


def chip_words(attribute: str, value) -> str | None:
    """A classic category value as a card shows it ("ginger hair", "rote Haare"), or None for a
    value this table does not know (the card then builds its own words)."""
    key = (attribute, value)
    if key in CHIPS:
        return _(CHIPS[key])
    return _(VALUES[key]) if key in VALUES else None


def quick_words(kind: str) -> tuple:
    """The words of the language in effect for ``kind`` (``"yes"``, ``"no"``, ``"down"``,
    ``"opponent"``, ``"or"``, ``"not"``, ``"is it"``); () in English."""
    return QUICK.get(language(), {}).get(kind, ())


def local_atom_labels(board) -> dict:
    """``{label: (attribute, value)}`` of the classic questions in the language in effect
    ({} in English): a yes/no attribute by its translated name ("Brille"), a value by its card
    words ("rote Haare") and the :data:`SYNONYMS`. Only attributes of ``board`` are included."""
    if language() not in QUICK:
        return {}
    out: dict = {}
    for a in board.attributes:
        if a.kind == "yes/no":
            if a.name in ATTRIBUTES:
                out[_(ATTRIBUTES[a.name])] = (a.name, True)
        else:
            for v in a.values:
                words = chip_words(a.name, v)
                if words is not None:
                    out[words] = (a.name, v)
    names = {a.name: a for a in board.attributes}
    for label, (attr, value) in SYNONYMS.get(language(), {}).items():
        if attr in names and value in names[attr].values:
            out.setdefault(label, (attr, value))
    return out
