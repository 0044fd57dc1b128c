"""The card I showed when I refuted a suggestion: optional in the session file (a file without
it reads as before), said in History, and known to the suggester only."""
import pytest

from engines import cluedo
from engines.cluedo.recommend import public_events
from engines.core.errors import ContradictionError

SETUP = cluedo.Setup.from_json({"edition": "cluedo-uk", "players": ["Me", "Ann", "Bob"],
                                "me": "Me"}, "$.setup")
HAND = cluedo.HandEvent(player="Me", cards=("Miss Scarlett", "Rope", "Hall", "Kitchen", "Professor Plum",
                               "Lounge"))
REFUTED = {"type": "suggestion", "suggester": "Ann", "cards": ["Miss Scarlett", "Dagger", "Hall"],
           "passed": [], "refuter": "Me"}


def test_a_file_without_the_card_reads_as_before():
    ev = cluedo.event_from_json(dict(REFUTED), SETUP, "$.events[1]")
    assert ev.shown is None
    assert cluedo.describe_event(SETUP, ev).endswith("I showed a card")
    assert cluedo.event_from_json(ev.to_json(), SETUP, "$") == ev


def test_the_card_i_showed_round_trips_and_history_says_it():
    ev = cluedo.event_from_json({**REFUTED, "shown": "Hall"}, SETUP, "$.events[1]")
    assert ev.shown == "Hall" and ev.to_json()["shown"] == "Hall"
    assert cluedo.event_from_json(ev.to_json(), SETUP, "$") == ev
    assert cluedo.describe_event(SETUP, ev) == ("Ann suggested Miss Scarlett, Dagger, Hall; "
                                                "I showed Ann Hall")


def test_a_card_i_do_not_hold_cannot_have_been_shown_by_me():
    ev = cluedo.event_from_json({**REFUTED, "shown": "Dagger"}, SETUP, "$")
    with pytest.raises(ContradictionError):
        cluedo.infer(SETUP, [HAND, ev])
    assert cluedo.contradiction(SETUP, [HAND], ev)


def test_the_suggester_knows_the_card_the_others_do_not():
    ev = cluedo.event_from_json({**REFUTED, "shown": "Hall"}, SETUP, "$")
    assert public_events(SETUP, [HAND, ev], viewer="Ann")[-1].shown == "Hall"
    assert public_events(SETUP, [HAND, ev], viewer="Bob")[-1].shown is None
    # my own beliefs are those of the refutation without the card (I knew my hand)
    with_card = cluedo.infer(SETUP, [HAND, ev]).matrix
    without = cluedo.infer(SETUP, [HAND, cluedo.event_from_json(REFUTED, SETUP, "$")]).matrix
    assert (abs(with_card - without) < 1e-12).all()
