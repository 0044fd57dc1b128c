"""Cluedo quick entry in the player's language (engines/cluedo/parse.py, LOCAL_WORDS): a German
and a French line log the same event as the English one; English lines keep their meaning in
every language; the engine's words (History lines, refusals) follow the language, and the
command line's English (no language chosen) is unchanged."""
import pytest
from event_strategies import cluedo_events
from hypothesis import given, settings
from hypothesis import strategies as st

from engines import cluedo
from engines.core import i18n
from engines.core.errors import SessionFormatError

UK = cluedo.Setup.from_json({"edition": "cluedo-uk", "players": ["Me", "Ann", "Bob", "Cy"],
                             "me": "Me"})


#: (English line, German lines, French lines): each logs the English line's event.
SAME = [
    ("Bob has rope", ["Bob hat rope", "Bob zeigt rope", "bob hat das rope"], ["Bob a rope", "Bob a la rope"]),
    ("Bob lacks rope", ["Bob hat nicht rope", "Bob hat rope nicht", "Bob ohne rope", "Bob hat kein rope"],
     ["Bob n'a pas rope", "Bob n’a pas la rope", "Bob sans rope"]),
    ("me has rope", ["ich habe rope", "ich hat rope"], ["moi a rope", "j'ai rope", "j’ai rope"]),
    ("me lacks rope", ["ich habe rope nicht", "ich habe kein rope"], ["je n'ai pas rope", "moi sans rope"]),
    ("Ann accuses plum rope hall", ["Ann klagt an plum rope hall", "Ann klagt plum rope hall an"],
     ["Ann accuse plum rope hall", "Ann accusé plum rope hall"]),
    ("Ann accuses plum rope hall correct", ["Ann klagt an plum rope hall richtig"],
     ["Ann accuse plum rope hall juste"]),
    ("me hand: plum, rope, hall", ["ich Hand: plum, rope, hall"], ["moi main: plum, rope, hall"]),
    ("Ann: plum rope hall; none", ["Ann: plum rope hall; niemand", "Ann: plum rope hall; keiner"],
     ["Ann: plum rope hall; personne"]),
    ("Ann: plum rope hall; me", ["Ann: plum rope hall; ich"], ["Ann: plum rope hall; moi"]),
    ("Ann at lounge", ["Ann im lounge", "Ann bei lounge"], ["Ann dans le lounge", "Ann à lounge"]),
    ("Ann at 17 3", ["Ann auf 17 3"], ["Ann en 17 3"]),
    ("roll 8", ["wurf 8"], ["lancer 8"]),
    ("Ann rolled 8", ["Ann würfelt 8"], ["Ann lance 8"]),
]


@pytest.mark.parametrize("english, german, french", SAME)
def test_german_and_french_lines_log_the_english_event(language, english, german, french):
    want = cluedo.parse(UK, [], english)
    for code, lines in (("de", german), ("fr", french)):
        language(code)
        for line in lines:
            assert cluedo.parse(UK, [], line) == want, (code, line)
        assert cluedo.parse(UK, [], english) == want, (code, english)   # English is read too


def test_the_local_words_are_read_only_in_their_language():
    """English (the command line: no language chosen) refuses the German and French lines."""
    for line in ("Bob hat rope", "Bob sans rope", "Ann: plum rope hall; niemand"):
        with pytest.raises(SessionFormatError):
            cluedo.parse(UK, [], line)


@settings(max_examples=80, deadline=None)
@given(data=st.data(), code=st.sampled_from(["de", "fr"]))
def test_english_lines_keep_their_meaning_in_every_language(data, code):
    """format_event's canonical English line of any event (suggestions, has, lacks, accusations,
    hands) reads back to the event in German and French as in English."""
    e = data.draw(cluedo_events(UK))
    line = cluedo.format_event(UK, e)
    try:
        i18n.set_language(code)
        assert cluedo.parse(UK, [], line) == e
    finally:
        i18n.set_language("en")


def test_completion_offers_the_language_words(language):
    language("de")
    assert "Ann hat" in cluedo.complete(UK, [], "Ann h")
    assert "Ann ohne" in cluedo.complete(UK, [], "Ann o")
    assert "Ann: plum rope hall; niemand" in cluedo.complete(UK, [], "Ann: plum rope hall; n")
    assert "ich" in cluedo.complete(UK, [], "i")
    language("fr")
    assert "Ann sans" in cluedo.complete(UK, [], "Ann s")
    assert "Ann main:" in cluedo.complete(UK, [], "Ann m")
    assert "Ann: plum rope hall; personne" in cluedo.complete(UK, [], "Ann: plum rope hall; p")


def test_history_lines_and_refusals_follow_the_language(language):
    shown = cluedo.parse(UK, [], "me: plum rope hall; Bob rope")
    english = cluedo.describe_event(UK, shown)
    assert english == "I suggested Professor Plum, Rope, Hall; Ann passed; Bob showed me Rope"
    language("de")
    assert cluedo.describe_event(UK, shown) == ("Ich verdächtigte Professor Plum, Rope, Hall; Ann passte; "
                                                "Bob zeigte mir Rope")
    with pytest.raises(SessionFormatError, match="nennen Sie drei Karten"):
        cluedo.parse(UK, [], "Ann: plum rope; Bob")
    language("fr")
    assert cluedo.describe_event(UK, shown) == ("J’ai proposé Professor Plum, Rope, Hall ; Ann a passé ; "
                                                "Bob m’a montré Rope").replace(" ; ", "; ")
    language("en")
    assert cluedo.describe_event(UK, shown) == english


def test_the_example_line_speaks_the_language(language):
    """The quick-entry bar's example (engines.registry.CLUEDO) in the language's keywords."""
    example = "Ann: plum rope hall; Bob   ·   Bob has rope"
    assert cluedo.example_for(UK, example) == example
    language("de")
    german = cluedo.example_for(UK, example)
    assert german == "Ann: plum rope hall; Bob   ·   Bob hat rope"
    assert cluedo.parse(UK, [], german.split("·")[1].strip()) == cluedo.parse(UK, [], "Bob has rope")
    assert cluedo.example_for(UK, "me has rope") == "ich habe rope"     # the hand prompt's
    language("fr")
    assert cluedo.example_for(UK, example) == "Ann: plum rope hall; Bob   ·   Bob a rope"
    assert cluedo.parse(UK, [], cluedo.example_for(UK, "me has rope")) == cluedo.parse(UK, [], "me has rope")
