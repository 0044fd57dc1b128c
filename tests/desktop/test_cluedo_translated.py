"""The Cluedo tab's parts in German and French (docs/translating.md): the panes draw their
words in the language, and the suggestion form's translated "nobody" / "not shown" entries
still mean no refuter / no card (they are compared translated)."""
from __future__ import annotations

import pytest

from desktop.games.cluedo.forms import SuggestionForm
from desktop.games.cluedo.panes import SuggestionRanking
from desktop.tabs.snapshot import Advice, Snapshot, Status
from engines import cluedo
from engines.cluedo.recommend import CluedoRecommendation

SETUP = cluedo.Setup.from_json({"edition": "cluedo-uk", "players": ["Me", "Ann", "Bob", "Cy"],
                                "me": "Me"}, "$")


@pytest.mark.parametrize("code, nobody, title, ranked", [
    ("de", "niemand", "Verdächtigung eintragen", "Rangfolge wie nach Eintrag 2 von 4."),
    ("fr", "personne", "Saisir une hypothèse", "Classement comme après l’entrée 2 sur 4."),
])
def test_the_form_and_the_ranking_speak_the_language(qapp, language, code, nobody, title, ranked):
    language(code)
    form = SuggestionForm(SETUP)
    assert form.title() == title
    form.set_suggester("Ann")
    items = [form.refuter.itemText(i) for i in range(form.refuter.count())]
    assert items[-1] == nobody
    form.refuter.setCurrentText(nobody)                 # the translated "nobody": no refuter
    event = form.event_json()
    assert event["refuter"] is None and event["shown"] is None
    assert event["passed"] == ["Bob", "Cy", "Me"]
    form.set_suggester("Me")
    form.refuter.setCurrentText("Bob")                  # the translated "not shown": no card
    assert form.event_json()["refuter"] == "Bob" and form.event_json()["shown"] is None
    rank = SuggestionRanking()
    rank.set_setup(SETUP)
    rec = CluedoRecommendation(suggestions=[("Professor Plum", "Rope", "Hall", 1.5)], accusation=None,
                               samples=300, exact=frozenset({("Professor Plum", "Rope", "Hall")}))
    rank.render(Snapshot(setup=SETUP, n=4, selected=2, k=2, status=Status.READY,
                         advice={"recommend": Advice(rec)}))
    assert rank.note.text().startswith(ranked)
