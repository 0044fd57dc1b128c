"""The New game dialogs refuse the names the session reader refuses, with its words: they
build their setup with the same reader (``Setup.from_json``), so two players that look alike
(UTS #39 confusables) or a line separator in a name keep the dialog open, and a name typed in
NFD is kept in NFC."""
from __future__ import annotations

import pytest

from engines.core.errors import SessionFormatError


@pytest.fixture
def cluedo_dialog(qtbot):
    from desktop.games.cluedo.forms import NewGameDialog

    dlg = NewGameDialog()
    qtbot.addWidget(dlg)
    return dlg


def _named(dlg, *names):
    seats = dlg.seats()
    for seat, name in zip(seats, names):
        seat.name = name
    dlg.table.set_rows(seats)


def test_the_cluedo_dialog_refuses_a_cyrillic_look_alike(cluedo_dialog):
    _named(cluedo_dialog, "Me", "Ann", "\u0410nn")
    with pytest.raises(SessionFormatError) as exc:
        cluedo_dialog.build()
    assert "looks like 'Ann'" in exc.value.message and "TR #39" in exc.value.message


def test_the_cluedo_dialog_refuses_a_line_separator(cluedo_dialog):
    _named(cluedo_dialog, "Me", "An\u2028n", "Bob")
    with pytest.raises(SessionFormatError) as exc:
        cluedo_dialog.build()
    assert "U+2028" in exc.value.message


def test_the_cluedo_dialog_keeps_a_name_typed_in_nfd_in_nfc(cluedo_dialog):
    from PySide6.QtCore import Qt

    _named(cluedo_dialog, "Me", "Jose\u0301", "Bob")
    need = next(s.cards for s in cluedo_dialog.seats() if s.me)
    cards = cluedo_dialog.my_cards
    items = [cards.item(i) for i in range(cards.count())
             if cards.item(i).data(Qt.ItemDataRole.UserRole)]
    for it in items[:need]:
        it.setCheckState(Qt.Checked)
    setup, _events = cluedo_dialog.build()
    assert "Jos\u00e9" in setup.players and "Jose\u0301" not in setup.players
