"""Cluedo tab: a classic-deck game switched between the UK, German and French card names is the
same log (one undoable step); the worksheet, the history and the CSV export show the names on
screen, and the saved file stores the canonical ids (docs/session-format.md, "Local editions")."""
import json

from engines import cluedo


def test_card_names_switch_relabels_the_same_log(window, qtbot, tmp_path):
    window.select_game("cluedo")
    tab = window.tab_for("cluedo")
    setup = cluedo.Setup.from_json({"edition": "cluedo-de", "players": ["Me", "Ann", "Bob"], "me": "Me"})
    events = [cluedo.parse(setup, [], "Ann: ming dolch küche; Bob"),
              cluedo.parse(setup, [], "Bob lacks weiß")]
    tab.reset_document(setup, events)   # no wait for beliefs: the engine test compares them
    assert tab.card_names.isVisibleTo(tab)
    assert [tab.card_names.itemData(i) for i in range(tab.card_names.count())] == \
        ["cluedo-uk", "cluedo-de", "cluedo-fr"]
    tab.card_names.setCurrentIndex(tab.card_names.findData("cluedo-fr"))
    tab.card_names.activated.emit(tab.card_names.currentIndex())
    doc = tab.document
    assert doc.setup.edition == "cluedo-fr"
    assert doc.events[0].cards == ("Mademoiselle Rose", "Poignard", "Cuisine")
    assert doc.events[1].card == "Madame Leblanc"
    assert tab.model.row_label(tab.model.row_of_item(0)) == "Mademoiselle Rose"   # the worksheet
    assert "Cuisine" in doc.module.describe_event(doc.setup, doc.events[0])
    # the saved file holds the canonical ids; the CSV the names on screen
    path = tmp_path / "fr.json"
    doc.save(str(path))
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert saved["setup"]["edition"] == "cluedo-fr"
    assert saved["events"][0]["cards"] == ["Miss Scarlett", "Dagger", "Kitchen"]
    csv_text = doc.history_csv([None] * len(doc.events))
    assert "Mademoiselle Rose" in csv_text and "Fräulein Ming" not in csv_text
    window.undo_action.trigger()
    assert doc.setup.edition == "cluedo-de" and list(doc.events) == events
    assert tab.card_names.currentData() == "cluedo-de"

    # a deck with no other names: no switch
    tab.reset_document(cluedo.Setup.from_json({"edition": "clue-master-detective",
                                               "players": ["Me", "Ann", "Bob"], "me": "Me"}), [])
    assert not tab.card_names.isVisibleTo(tab)
