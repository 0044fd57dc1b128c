"""The New game dialog's board options (an edition with a board): the dice and each player's pawn
reach the setup, are checked with a message naming the field, survive a session file and come
back when the dialog is reopened."""
import json

import pytest
from PySide6.QtCore import Qt

from engines import cluedo
from engines.cluedo.board import edition_board
from engines.core.errors import SessionFormatError
from engines.core.schema import SessionData, dumps_session, parse_session


def _tick_my_cards(dlg):
    need = next(s.cards for s in dlg.seats() if s.me)
    items = [dlg.my_cards.item(i) for i in range(dlg.my_cards.count())
             if dlg.my_cards.item(i).data(Qt.ItemDataRole.UserRole)][:need]
    for it in items:
        it.setCheckState(Qt.Checked)


def _dialog(qtbot, **kw):
    from desktop.games.cluedo.forms import NewGameDialog

    dlg = NewGameDialog(**kw)
    qtbot.addWidget(dlg)
    return dlg


def test_dice_and_pawns_reach_the_setup_and_a_session_file(qtbot):
    dlg = _dialog(qtbot)
    dlg.edition.setCurrentIndex(dlg.edition.findData("cluedo-uk"))
    _tick_my_cards(dlg)
    assert dlg.dice.isEnabled() and dlg.dice.itemText(0) == "as the edition says (2 dice)"
    setup, events = dlg.build()
    assert setup.dice is None and setup.pawns == ()        # nothing said: the file has neither key
    assert "dice" not in setup.to_json() and "pawns" not in setup.to_json()
    model = dlg.table.model()
    assert model.index(0, dlg.PAWN).flags() & Qt.ItemIsEditable
    assert model.setData(model.index(0, dlg.PAWN), "Mrs White", Qt.ItemDataRole.EditRole)
    model.setData(model.index(2, dlg.PAWN), "Colonel Mustard", Qt.ItemDataRole.EditRole)
    dlg.dice.setCurrentIndex(dlg.dice.findData(1))
    setup, events = dlg.build()
    assert setup.dice == 1
    assert setup.pawns == (("Me", "Mrs White"), ("Bob", "Colonel Mustard"))
    # the session file round trip, then the dialog reopened on it
    text = dumps_session(SessionData("cluedo", setup, tuple(events)))
    obj = json.loads(text)
    assert obj["setup"]["dice"] == 1 and obj["setup"]["pawns"] == {"Me": "Mrs White", "Bob": "Colonel Mustard"}
    back = parse_session(obj)
    assert back.setup == setup
    assert edition_board(back.setup).dice == 1
    again = _dialog(qtbot, setup=back.setup, my_cards=events[0].cards)
    assert [s.pawn for s in again.seats()] == ["Mrs White", "", "Colonel Mustard", ""]
    assert again.dice.currentData() == 1
    assert again.build()[0] == setup


def test_two_players_with_one_pawn_is_refused_by_name(qtbot):
    dlg = _dialog(qtbot)
    dlg.edition.setCurrentIndex(dlg.edition.findData("cluedo-uk"))
    _tick_my_cards(dlg)
    model = dlg.table.model()
    model.setData(model.index(1, dlg.PAWN), "Miss Scarlett", Qt.ItemDataRole.EditRole)
    model.setData(model.index(3, dlg.PAWN), "Miss Scarlett", Qt.ItemDataRole.EditRole)
    with pytest.raises(SessionFormatError) as exc:
        dlg.build()
    assert exc.value.path == "Cy's pawn" and "Miss Scarlett is already Ann's pawn" in exc.value.message


def test_a_deck_without_a_board_has_no_dice_or_pawns(qtbot):
    setup = cluedo.Setup.from_json({"edition": "cluedo-uk", "players": ["Me", "Ann", "Bob"], "me": "Me",
                                    "dice": 2, "pawns": {"Ann": "Mrs Peacock"}})
    dlg = _dialog(qtbot, setup=setup)
    assert dlg.seats()[1].pawn == "Mrs Peacock" and dlg.dice.currentData() == 2
    dlg.edition.setCurrentIndex(dlg.edition.findData("custom"))
    assert not dlg.dice.isEnabled() and dlg.dice.itemText(0) == "no board for this deck"
    assert not dlg.table.model().index(1, dlg.PAWN).flags() & Qt.ItemIsEditable
    assert [s.pawn for s in dlg.seats()] == ["", "", ""]
    _tick_my_cards(dlg)
    built, _ = dlg.build()
    assert built.dice is None and built.pawns == ()
