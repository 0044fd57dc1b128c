"""The New game dialog's suggestion model: a choice and a number per opponent, into the setup's
"model" key and back."""
from PySide6.QtCore import Qt

from engines import cluedo


def _tick_my_cards(dlg):
    need = next(s.cards for s in dlg.seats() if s.me)
    items = [dlg.my_cards.item(i) for i in range(dlg.my_cards.count())
             if dlg.my_cards.item(i).data(Qt.ItemDataRole.UserRole)][:need]
    for it in items:
        it.setCheckState(Qt.Checked)


def test_choices_per_opponent_reach_the_setup(qtbot):
    from desktop.games.cluedo.forms import NewGameDialog

    dlg = NewGameDialog()
    qtbot.addWidget(dlg)
    _tick_my_cards(dlg)
    model = dlg.table.model()
    # Ann: what they lack (0.25); Bob: bluffs, then the number edited to 3; Cy: learn
    assert model.setData(model.index(1, dlg.SUGGESTS), "lacks", Qt.ItemDataRole.EditRole)
    model.setData(model.index(2, dlg.SUGGESTS), "bluffs", Qt.ItemDataRole.EditRole)
    model.setData(model.index(2, dlg.RHO), 3.0, Qt.ItemDataRole.EditRole)
    model.setData(model.index(3, dlg.SUGGESTS), "learn", Qt.ItemDataRole.EditRole)
    assert not model.index(3, dlg.RHO).flags() & Qt.ItemIsEditable       # learned: no number
    assert model.index(2, dlg.RHO).flags() & Qt.ItemIsEditable
    assert model.index(1, dlg.RHO).data(Qt.ItemDataRole.DisplayRole) == "0.25"
    assert model.index(1, dlg.SUGGESTS).data(Qt.ItemDataRole.DisplayRole) == "what they lack"
    setup, _ = dlg.build()
    assert setup.suggestion_trust == (("Ann", 0.25), ("Bob", 3.0), ("Cy", "learn"))
    # an edited number names the behaviour; back to 1 is neutral and leaves the setup's model out
    model.setData(model.index(1, dlg.RHO), 1.0, Qt.ItemDataRole.EditRole)
    assert dlg.seats()[1].suggests == "neutral"
    model.setData(model.index(2, dlg.SUGGESTS), "neutral", Qt.ItemDataRole.EditRole)
    model.setData(model.index(3, dlg.SUGGESTS), "neutral", Qt.ItemDataRole.EditRole)
    setup, _ = dlg.build()
    assert setup.suggestion_trust == () and "model" not in setup.to_json()


def test_dialog_reopens_with_the_model(qtbot):
    from desktop.games.cluedo.forms import NewGameDialog

    setup = cluedo.Setup.from_json({"edition": "cluedo-uk", "players": ["Me", "Ann", "Bob"], "me": "Me",
                                    "model": {"suggestion_trust": {"Ann": 0.1, "Bob": "learn"}}})
    dlg = NewGameDialog(setup=setup)
    qtbot.addWidget(dlg)
    seats = dlg.seats()
    assert [(s.suggests, s.rho) for s in seats[1:]] == [("lacks", 0.1), ("learn", 1.0)]
    assert not dlg.table.model().index(0, dlg.SUGGESTS).flags() & Qt.ItemIsEditable   # me


def test_learned_behaviour_shows_beside_the_player(qtbot):
    from desktop.games.cluedo.suggestion_notes import learned_notes
    from desktop.widgets.worksheet import ProbabilityTableModel

    setup = cluedo.Setup.from_json({"categories": {"suspect": ["a", "b", "c"], "weapon": ["d", "e", "f"],
                                                   "room": ["g", "h", "i"]},
                                    "players": ["Me", "Ann", "Bob"], "me": "Me",
                                    "model": {"suggestion_trust": {"Ann": "learn"}}})
    # Ann keeps naming cards that Bob or I turn out to hold: she suggests what she lacks
    ev = [cluedo.SuggestionEvent(suggester="Ann", cards=t, passed=(), refuter=r, shown=None) for t, r in
          [(("a", "d", "g"), "Bob"), (("a", "d", "h"), "Bob"), (("a", "e", "g"), "Bob"),
           (("b", "d", "g"), "Bob")]]
    post = cluedo.infer(setup, ev)
    notes = learned_notes(post)
    assert set(notes) == {1}
    short, long = notes[1]
    lt = post.suggestion_model["learned"]["Ann"]
    assert short == lt["short"] and short.split()[0] in ("lacks", "bluffs", "neutral")
    assert "from 4 suggestions" in long
    model = ProbabilityTableModel([("", list(setup.cards))], list(setup.owners))
    model.set_column_notes(notes)
    assert model.headerData(1, Qt.Orientation.Horizontal) == f"Ann\n{short}"
    assert model.headerData(1, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole) == long
    assert model.headerData(2, Qt.Orientation.Horizontal) == "Bob"
    assert learned_notes(cluedo.infer(cluedo.Setup.from_json({**setup.to_json(), "model": {}}), ev)) == {}
