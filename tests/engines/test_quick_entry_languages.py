"""Quick entry in the player's language (docs/quick-entry.md): with German or French in effect a
line in that language logs the event its English line logs, the English words are read still,
and with English in effect (the command line) the German and French words are refused. The
History line of the event is in the language in effect."""
from __future__ import annotations

import pytest

from engines.core import i18n
from engines.core.errors import SessionFormatError

GUESSWHO = [   # English line, German line, French line: the same event
    ("glasses? no", "Brille? nein", "lunettes ? non"),
    ("ginger hair? yes", "rote Haare? ja", "cheveux roux ? oui"),
    ("no hat? yes", "ohne Hut? ja", "pas de chapeau ? oui"),
    ("glasses or hat? no", "Brille oder Hut? nein", "lunettes ou chapeau ? non"),
    ("is it alex? no", "ist es Alex? nein", "est-ce Alex ? non"),
    ("male? yes", "Mann? ja", "homme ? oui"),
    ("blue eyes? yes", "blaue Augen? ja", "yeux bleus ? oui"),
    ("down alex", "weg Alex", "baisser Alex"),
    ("opponent 12", "Gegner 12", "adversaire 12"),
]



def test_guesswho_history_line_follows_the_language(language):
    import engines.guesswho as gw
    from engines.guesswho.parse import parse

    setup = gw.default_setup()
    event = parse(setup, [], "glasses? no")
    assert gw.describe_event(setup, event) == "Asked “glasses?” — no"
    language("de")
    assert gw.describe_event(setup, event) == "Gefragt: „Brille?“ – nein"
    assert gw.describe_event(setup, parse(setup, [], "Gegner 1")) == "Gegner hat noch 1 Karte"
    language("fr")
    assert gw.describe_event(setup, event) == "Demandé «\u202flunettes\u202f?\u202f» — non"


SPYFALL = [   # English line, German line, French line: the same event
    ("Bob asks Cy", "Bob fragt Cy", "Bob demande à Cy"),
    ("Bob: all", "Bob: alle", "Bob : tout"),
    ("Bob: beach 1, casino .5", "Bob: beach 1, casino .5", "Bob : beach 1, casino .5"),
]



def test_spyfall_history_line_follows_the_language(language):
    import engines.spyfall as sf
    from engines.spyfall.parse import parse

    setup = sf.default_setup()
    ask, claim = parse(setup, [], "Bob asks Cy"), parse(setup, [], "Bob: all")
    assert sf.describe_event(setup, ask) == "Bob asks Cy"
    assert sf.describe_event(setup, claim) == "Bob claims all locations alike"
    language("de")
    assert sf.describe_event(setup, ask) == "Bob fragt Cy"
    language("fr")
    assert sf.describe_event(setup, claim) == "Bob ne privilégie aucun lieu"


INKOGNITO = [   # English line, German line, French line: the same event
    ("Red: lord zsa fat", "Red: lord zsa dick", "Red: lord zsa gros"),
    ("Red: ambassador tall fat", "Red: botschafter groß dick", "Red: ambassadeur grand gros"),
    ("Red: mission build lord fat", "Red: auftrag gestalt lord dick", "Red: mission silhouette lord gros"),
]



def test_inkognito_history_line_and_refusal_follow_the_language(language):
    import engines.inkognito as ink
    from engines.inkognito.parse import parse

    setup = ink.default_setup()
    event = parse(setup, [], "Red: lord zsa fat")
    assert ink.describe_event(setup, event) == "Red (player question, identity): Lord Fiddlebottom, Madame Zsa Zsa, fat"
    language("de")
    assert ink.describe_event(setup, event) == "Red (Spielerfrage, Identität): Lord Fiddlebottom, Madame Zsa Zsa, dick"
    with pytest.raises(SessionFormatError, match="die Zeile zeigt"):
        parse(setup, [], "Red: lord dick")


EGGHEAD = [   # English line, German line, French line: the same event
    ("sum = 14", "Summe = 14", "somme = 14"),
    ("reactions: B, C", "reaktionen: B, C", "réactions: B, C"),
    ("reactions: none", "reaktionen: niemand", "réactions: personne"),
    ("B solves 456 -> 112", "B löst 456 -> 112", "B résout 456 -> 112"),
    ("B solves 456 new 112", "B löst 456 neu 112", "B résout 456 nouvelles 112"),
]



def test_egghead_history_line_follows_the_language(language):
    import engines.egghead as eh
    from engines.egghead.parse import parse

    setup = eh.default_setup()
    event = parse(setup, [], "reactions: B")
    assert eh.describe_event(setup, event) == "Reactions: B solved; A, C did not"
    language("de")
    assert eh.describe_event(setup, event) == "Reaktionen: B gelöst; A, C nicht"


LINES = [(game, *row) for game, rows in (("guesswho", GUESSWHO), ("spyfall", SPYFALL),
                                         ("inkognito", INKOGNITO), ("egghead", EGGHEAD)) for row in rows]


@pytest.mark.parametrize("game, english, german, french", LINES)
def test_german_and_french_lines_log_the_english_event(language, game, english, german, french):
    """With German or French in effect the line logs the English line's event and the English
    line is read still; with English in effect (the command line) a German word is refused
    (unless the German line is the English one)."""
    import importlib

    parse = importlib.import_module(f"engines.{game}.parse").parse
    setup = importlib.import_module(f"engines.{game}").default_setup()
    want = parse(setup, [], english)
    for code, line in (("de", german), ("fr", french)):
        language(code)
        assert parse(setup, [], line) == want, (code, line)
        assert parse(setup, [], english) == want, (code, english)
    language("en")
    # a Guess Who? question whose first German word is also the English line's reads as an
    # English question with another attribute word: refused or not, it says nothing here
    same_start = game == "guesswho" and german.split()[0].casefold() in english.casefold().split()
    if german != english and not same_start:
        with pytest.raises(SessionFormatError):
            parse(setup, [], german)


def test_numbers_in_engine_text_follow_the_language_and_english_is_unchanged():
    """engines.core.i18n.number: the separators of the language in effect (Unicode CLDR), the
    English format() output unchanged (the command line's)."""

    before = i18n.language()
    try:
        i18n.set_language("en")
        assert [i18n.number(0.25, ".0%"), i18n.number(12345.6, ",.1f")] == ["25%", "12,345.6"]
        i18n.set_language("de")
        assert [i18n.number(0.25, ".0%"), i18n.number(12345.6, ",.1f")] == ["25\u00a0%", "12.345,6"]
        i18n.set_language("fr")
        assert [i18n.number(0.25, ".0%"), i18n.number(12345.6, ",.1f")] == ["25\u202f%", "12\u202f345,6"]
    finally:
        i18n.set_language(before)
