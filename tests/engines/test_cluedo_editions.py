"""The German and French classic Cluedo editions: the UK deck under other names. A session
stores canonical card ids (the UK names), so a file saved in one language opens in the other
with the same log (docs/session-format.md, "Local editions")."""
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines import cluedo
from engines.core.errors import SessionFormatError
from engines.core.schema import EventMeta, SessionData, parse_session

LOCAL = ("cluedo-de", "cluedo-fr")


def _session(edition: str, lines) -> SessionData:
    setup = cluedo.Setup.from_json({"edition": edition, "players": ["Me", "Ann", "Bob", "Cy"],
                                    "me": "Me", "pawns": {"Ann": "Miss Scarlett"}})
    events = []
    for line in lines:
        events.append(cluedo.parse(setup, events, line))
    return SessionData("cluedo", setup, tuple(events), tuple(EventMeta() for _ in events))


GERMAN_LOG = ["me hand: weiß, seil, pistole, musikzimmer, veranda",
              "Ann: ming dolch küche; Cy",
              "me: porz heizungsrohr bibliothek; Bob heizungsrohr",
              "Bob lacks oberst",
              "Ann at salon",
              "Cy accuses bloom rohrzange arbeitszimmer"]


@pytest.mark.parametrize("edition", LOCAL)
def test_every_name_maps_to_exactly_one_canonical_card(edition):
    eds = cluedo.load_editions()
    assert eds[edition]["names_of"] == "cluedo-uk"
    setup = cluedo.Setup.from_json({"edition": edition, "players": ["A", "B", "C"], "me": "A"})
    uk = cluedo.Setup.from_json({"edition": "cluedo-uk", "players": ["A", "B", "C"], "me": "A"})
    ids = [cluedo.card_id(setup, c) for c in setup.cards]
    assert sorted(ids) == sorted(uk.cards)                 # a bijection onto the UK deck
    for (cat, names), (_, uk_names) in zip(setup.categories, uk.categories):
        for name in names:                                # same category, and back again
            assert uk.category_of(cluedo.card_id(setup, name)) == cat
            assert cluedo.card_name(setup, cluedo.card_id(setup, name)) == name
        # a display name that is also a UK name ("Revolver", "Hall") is that same card
        for name in set(names) & set(uk_names):
            assert cluedo.card_id(setup, name) == name


def test_colour_mapping_of_the_suspects():
    """Each local suspect replaces the UK suspect of the same pawn colour (Mustard yellow,
    Scarlett red, Peacock blue, Plum purple)."""
    de = cluedo.Setup.from_json({"edition": "cluedo-de", "players": ["A", "B", "C"], "me": "A"})
    fr = cluedo.Setup.from_json({"edition": "cluedo-fr", "players": ["A", "B", "C"], "me": "A"})
    assert cluedo.card_id(de, "Oberst von Gatow") == cluedo.card_id(fr, "Colonel Moutarde") == "Colonel Mustard"
    assert cluedo.card_id(de, "Fräulein Ming") == cluedo.card_id(fr, "Mademoiselle Rose") == "Miss Scarlett"
    assert cluedo.card_id(de, "Baronin von Porz") == cluedo.card_id(fr, "Madame Pervenche") == "Mrs Peacock"
    assert cluedo.card_id(de, "Professor Bloom") == cluedo.card_id(fr, "Professeur Violet") == "Professor Plum"
    assert cluedo.card_id(de, "Heizungsrohr") == cluedo.card_id(fr, "Matraque") == "Lead Piping"
    assert cluedo.card_id(de, "Arbeitszimmer") == cluedo.card_id(fr, "Studio") == "Study"


def test_german_quick_entry_logs_the_right_event():
    s = _session("cluedo-de", [])
    ev = cluedo.parse(s.setup, [], "Ann: ming dolch küche; Cy")
    assert ev == cluedo.SuggestionEvent(suggester="Ann", cards=("Fräulein Ming", "Dolch", "Küche"),
                                        passed=("Bob",), refuter="Cy", shown=None)
    # ß folds to ss under Unicode case folding, so "weiss" is Frau Weiß; umlauts are not
    # folded: "kuche" is refused (completion offers Küche after "k")
    assert cluedo.parse(s.setup, [], "Bob has weiss") == cluedo.ShownEvent(player="Bob", card="Frau Weiß")
    with pytest.raises(SessionFormatError, match="Küche"):
        cluedo.parse(s.setup, [], "Ann: ming dolch kuche; Cy")
    assert cluedo.complete(s.setup, [], "Ann: ming dolch k") == ["Ann: ming dolch Küche"]


def test_german_session_reopens_as_french_with_the_same_log():
    de = _session("cluedo-de", GERMAN_LOG)
    text = json.dumps(de.to_json(), ensure_ascii=False)
    obj = json.loads(text)
    assert obj["setup"]["edition"] == "cluedo-de"
    assert obj["events"][1]["cards"] == ["Miss Scarlett", "Dagger", "Kitchen"]   # canonical ids
    assert obj["setup"]["pawns"] == {"Ann": "Miss Scarlett"}
    back = parse_session(json.loads(text))
    assert back.setup == de.setup and back.events == de.events     # round trip in German
    obj["setup"]["edition"] = "cluedo-fr"
    fr = parse_session(obj)
    assert fr.setup.pawns == (("Ann", "Mademoiselle Rose"),)
    assert fr.events[1].cards == ("Mademoiselle Rose", "Poignard", "Cuisine")
    assert fr.events[4].at == "Véranda"
    # the same log: the canonical form of every event is equal, and so is the posterior
    assert fr.to_json()["events"] == de.to_json()["events"]
    uk = parse_session(dict(obj, setup=dict(obj["setup"], edition="cluedo-uk")))
    p_de = cluedo.infer(de.setup, list(de.events))
    p_fr = cluedo.infer(fr.setup, list(fr.events))
    p_uk = cluedo.infer(uk.setup, list(uk.events))
    assert (abs(p_de.matrix - p_fr.matrix).max() < 1e-12 and abs(p_de.matrix - p_uk.matrix).max() < 1e-12)


def test_a_display_name_in_the_file_is_refused():
    obj = _session("cluedo-de", GERMAN_LOG).to_json()
    obj = json.loads(json.dumps(obj))
    obj["events"][1]["cards"][2] = "Küche"
    with pytest.raises(SessionFormatError) as err:
        parse_session(obj)
    assert err.value.path == "$.events[1].cards[2]"
    assert "Kitchen" in str(err.value)
    obj["events"][1]["cards"][2] = "Kitchen"
    obj["setup"]["pawns"] = {"Ann": "Fräulein Ming"}
    with pytest.raises(SessionFormatError) as err:
        parse_session(obj)
    assert err.value.path == "$.setup.pawns.Ann"


def test_relabel_keeps_the_log_and_refuses_another_deck():
    de = _session("cluedo-de", GERMAN_LOG)
    setup, events = cluedo.relabel(de.setup, de.events, "cluedo-uk")
    assert setup.edition == "cluedo-uk" and events[1].cards == ("Miss Scarlett", "Dagger", "Kitchen")
    back = cluedo.relabel(setup, events, "cluedo-de")
    assert back == (de.setup, de.events)
    assert cluedo.same_deck_editions("cluedo-fr") == ["cluedo-uk", "cluedo-de", "cluedo-fr"]
    with pytest.raises(SessionFormatError, match="not an edition of this deck"):
        cluedo.relabel(de.setup, de.events, "clue-us")


@pytest.mark.parametrize("edition", LOCAL)
def test_local_edition_moves_on_the_uk_board_under_its_names(edition):
    from engines.cluedo.board import edition_board, p_reach

    setup = cluedo.Setup.from_json({"edition": edition, "players": ["A", "B", "C"], "me": "A"})
    uk_setup = cluedo.Setup.from_json({"edition": "cluedo-uk", "players": ["A", "B", "C"], "me": "A"})
    eb, uk = edition_board(setup), edition_board(uk_setup)
    assert eb is not None and set(eb.board.rooms) == set(dict(setup.categories)["room"])
    assert eb.dice == uk.dice and eb.board.rows == uk.board.rows
    # every room's reach law is the UK one under the names (a passage room and a corridor start)
    kitchen = cluedo.card_name(setup, "Kitchen")
    start = uk.start_of("Miss Scarlett")
    assert eb.start_of(cluedo.card_name(setup, "Miss Scarlett")) == start
    for here, uk_here in ((kitchen, "Kitchen"), (start, start)):
        law = p_reach(eb.board, here, 2)
        uk_law = p_reach(uk.board, uk_here, 2)
        assert {cluedo.card_id(setup, r): p for r, p in law.items()} == uk_law
    assert eb.board.passages[kitchen] == cluedo.card_name(setup, "Study")


def test_french_quick_entry_names_are_exact_about_accents():
    s = _session("cluedo-fr", []).setup
    assert cluedo.parse(s, [], "Ann: rose poignard cuisine; Cy").cards == ("Mademoiselle Rose", "Poignard", "Cuisine")
    assert cluedo.parse(s, [], "Bob has véranda") == cluedo.ShownEvent(player="Bob", card="Véranda")
    with pytest.raises(SessionFormatError, match="veranda"):
        cluedo.parse(s, [], "Bob has veranda")
    with pytest.raises(SessionFormatError, match="Grand salon, Petit salon"):
        cluedo.parse(s, [], "Ann: rose poignard salon; Cy")


def test_cli_parse_prints_the_event_as_the_file_holds_it(tmp_path, capsys):
    from engines.__main__ import main

    f = tmp_path / "de.json"
    f.write_text(json.dumps(_session("cluedo-de", []).to_json(), ensure_ascii=False), encoding="utf-8")
    assert main(["parse", str(f), "Ann: ming dolch küche; Cy"]) == 0
    assert json.loads(capsys.readouterr().out)["cards"] == ["Miss Scarlett", "Dagger", "Kitchen"]


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1), n_players=st.integers(3, 6), n_events=st.integers(1, 15))
def test_any_log_reads_the_same_in_every_edition_of_the_deck(seed, n_players, n_events):
    """Property: a truthful random log relabelled UK -> German -> French -> UK is the log it was;
    each edition writes the same session-file events, and the German file read as French is
    the French relabelling."""
    from random_logs import cluedo_log

    names = ["Me", "Ann", "Bob", "Cy", "Di", "Ed"][:n_players]
    uk = cluedo.Setup.from_json({"edition": "cluedo-uk", "players": names, "me": "Me"})
    _, events = cluedo_log(uk, random.Random(seed), n_events)
    file_events = SessionData("cluedo", uk, tuple(events), ()).to_json()["events"]
    setup, evs = uk, tuple(events)
    for ed in ("cluedo-de", "cluedo-fr", "cluedo-uk"):
        setup, evs = cluedo.relabel(setup, evs, ed)
        assert SessionData("cluedo", setup, evs, ()).to_json()["events"] == file_events
        if ed == "cluedo-de":
            obj = SessionData("cluedo", setup, evs, ()).to_json()
            obj["setup"]["edition"] = "cluedo-fr"
            as_fr = parse_session(obj)
            assert (as_fr.setup, as_fr.events) == cluedo.relabel(setup, evs, "cluedo-fr")
    assert (setup, evs) == (uk, tuple(events))


@pytest.mark.parametrize("edition, words", [("cluedo-de", "bloom seil eingangshalle"),
                                            ("cluedo-fr", "violet corde hall"),
                                            ("cluedo-uk", "plum rope hall")])
def test_the_quick_entry_example_speaks_the_editions_names(edition, words):
    from engines.registry import CLUEDO

    setup = cluedo.Setup.from_json({"edition": edition, "players": ["Me", "Ann", "Bob"], "me": "Me"})
    uk = cluedo.Setup.from_json({"edition": "cluedo-uk", "players": ["Me", "Ann", "Bob"], "me": "Me"})
    example = cluedo.example_for(setup, CLUEDO.example)
    assert f"Ann: {words}; Bob" in example
    local = [cluedo.parse(setup, [], line.strip()) for line in example.split("·")]
    original = [cluedo.parse(uk, [], line.strip()) for line in CLUEDO.example.split("·")]
    assert cluedo.relabel(setup, local, "cluedo-uk")[1] == tuple(original)   # the same events
