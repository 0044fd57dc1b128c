"""The Cluedo tab's panes draw a moment from the published Snapshot alone: the best suggestions
(SuggestionRanking) and "Accuse or wait" (AccuseAdvice), each built and rendered with no tab,
controller or document."""
from __future__ import annotations

from types import SimpleNamespace

from desktop.games.cluedo.estimates import OpponentsView
from desktop.games.cluedo.panes import AccuseAdvice, SuggestionRanking
from desktop.tabs.snapshot import Advice, Snapshot, Status
from desktop.tabs.wording import DETAILS
from engines import cluedo
from engines.cluedo.accuse import AccusationAdvice
from engines.cluedo.recommend import CluedoRecommendation

SETUP = cluedo.Setup.from_json({"edition": "cluedo-uk", "players": ["Me", "Ann", "Bob", "Cy"],
                                "me": "Me"}, "$")


def test_the_ranking_draws_the_recommendation_the_snapshot_carries(qapp):
    rank = SuggestionRanking()
    rank.set_setup(SETUP)
    assert rank.room.count() == 1 + 9 and rank.room.itemData(0) is None   # any room, 9 rooms
    rec = CluedoRecommendation(
        suggestions=[("Professor Plum", "Rope", "Hall", 1.5), ("Mrs White", "Knife", "Study", 0.75)],
        accusation=None, samples=300, exact=frozenset({("Professor Plum", "Rope", "Hall")}))
    snap = Snapshot(setup=SETUP, n=4, selected=2, k=2, status=Status.READY,
                    advice={"recommend": Advice(rec)})
    assert rank.render(snap) is True
    rows = rank.table.rows()
    assert [(r.suspect, r.weapon, r.room, r.bits, r.exact) for r in rows] == [
        ("Professor Plum", "Rope", "Hall", 1.5, True), ("Mrs White", "Knife", "Study", 0.75, False)]
    assert all(r.top == 1.5 for r in rows)                 # a full bar is the best suggestion
    note = rank.note.text()
    assert note.startswith("Ranked as after entry 2 of 4.") and "Some are estimates" in note
    assert rank.accuse.text() == ""
    # the Details view names the sample size; a certain envelope is "ready to accuse", live
    sure = CluedoRecommendation(suggestions=[], accusation=("Professor Plum", "Rope", "Hall"))
    assert rank.render(Snapshot(setup=SETUP, n=4, k=4, status=Status.READY, wording=DETAILS,
                                advice={"recommend": Advice(sure)}))
    assert rank.note.text() == "The envelope is certain: accuse!" and rank.table.rows() == []
    assert ">Ready to accuse: Professor Plum, Rope, Hall<" in rank.accuse.text()
    # no ranking of the moment yet: the rows stay, the line says so; an impossible log: none
    assert rank.render(Snapshot(setup=SETUP, n=5, k=5, status=Status.READY)) is False
    assert rank.note.text() == "Computing the best suggestions…" and rank.accuse.text() == ""
    rank.render(Snapshot(setup=SETUP, n=4, k=4, status=Status.READY,
                         advice={"recommend": Advice(rec)}))
    assert rank.render(Snapshot(setup=SETUP, n=5, k=4, status=Status.CONTRADICTION))
    assert rank.table.rows() == [] and "impossible" in rank.note.text()


def test_accuse_or_wait_draws_the_opponents_view_of_the_moment(qapp):
    pane = AccuseAdvice()
    who = {"Ann": SimpleNamespace(player="Ann", p_knows_envelope=0.8, exact=True, out=False),
           "Bob": SimpleNamespace(player="Bob", p_knows_envelope=0.1, exact=True, out=False)}
    est = SimpleNamespace(exact=True, samples=0, opponents=who, rhos=None,
                          p_any_next_interval=None)
    adv = AccusationAdvice(("Professor Plum", "Rope", "Hall"), 0.9, 0.85, 0.0, 0.8, True,
                           "accuse now", 0.01)
    snap = Snapshot(setup=SETUP, n=6, selected=3, k=3, status=Status.READY)
    assert pane.render(snap, OpponentsView(3, est, adv, True), "exact") is True
    assert pane.verdict.text() == "Accuse now"
    detail = pane.detail.text()
    assert detail.startswith("As after entry 3: Professor Plum, Rope, Hall is right nearly always")
    assert "85" in detail and "These figures come from" not in detail
    assert pane.alert.text().startswith("⚠ Ann (80") and "Bob" not in pane.alert.text()
    # another worksheet method: the advice says where its figures come from
    wait = AccusationAdvice(("Professor Plum", "Rope", "Hall"), 0.3, 0.2, 0.0, 0.0, True, "wait",
                            0.01)
    calm = SimpleNamespace(exact=True, samples=0, opponents={"Bob": who["Bob"]}, rhos=None,
                           p_any_next_interval=None)
    assert pane.render(snap.replace(k=6, selected=-1), OpponentsView(6, calm, wait, True),
                       "montecarlo") is False
    assert pane.verdict.text() == "Wait" and pane.alert.text() == ""
    assert not pane.detail.text().startswith("As after") and "These figures come from" in pane.detail.text()
    pane.clear("")
    assert pane.verdict.text() == "" and "no figures yet" in pane.detail.text()
