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
    assert "Ann: bloom seil eingangshalle; Bob" in tab.quick_entry.line.placeholderText()
    assert [tab.card_names.itemData(i) for i in range(tab.card_names.count())] == \
        ["cluedo-uk", "cluedo-de", "cluedo-fr"]
    tab.card_names.setCurrentIndex(tab.card_names.findData("cluedo-fr"))
    tab.card_names.activated.emit(tab.card_names.currentIndex())
    doc = tab.controller.document
    assert doc.setup.edition == "cluedo-fr"
    assert doc.events[0].cards == ("Mademoiselle Rose", "Poignard", "Cuisine")
    assert doc.events[1].card == "Madame Leblanc"
    assert tab.model.row_label(tab.model.row_of_item(0)) == "Mademoiselle Rose"   # the worksheet
    assert "Ann: violet corde hall; Bob" in tab.quick_entry.line.placeholderText()
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


def test_new_game_dialog_offers_the_local_editions_by_their_titles(qtbot):
    from PySide6.QtCore import Qt

    from desktop.games.cluedo.forms import NewGameDialog

    dlg = NewGameDialog()
    qtbot.addWidget(dlg)
    titles = [dlg.edition.itemText(i) for i in range(dlg.edition.count())]
    assert "Cluedo (Deutsch, Parker)" in titles and "Cluedo (Français, Miro 1974)" in titles
    dlg.edition.setCurrentIndex(dlg.edition.findData("cluedo-de"))
    labels = [dlg.my_cards.item(i).text() for i in range(dlg.my_cards.count())
              if dlg.my_cards.item(i).data(Qt.ItemDataRole.UserRole)]
    assert "Küche" in labels and "Kitchen" not in labels
    need = next(s.cards for s in dlg.seats() if s.me)
    ticked = [dlg.my_cards.item(i) for i in range(dlg.my_cards.count())
              if dlg.my_cards.item(i).data(Qt.ItemDataRole.UserRole)][:need]
    for it in ticked:
        it.setCheckState(Qt.Checked)
    setup, events = dlg.build()
    assert setup.edition == "cluedo-de" and events[0].cards[0] == "Fräulein Ming"
    # the UK board under the German names: the dice and the pawns are offered
    assert dlg.dice.isEnabled()
    model = dlg.table.model()
    assert model.setData(model.index(1, dlg.PAWN), "Oberst von Gatow", Qt.ItemDataRole.EditRole)
    setup, _ = dlg.build()
    assert setup.pawns == ((setup.players[1], "Oberst von Gatow"),)
    assert setup.to_json()["pawns"] == {setup.players[1]: "Colonel Mustard"}
