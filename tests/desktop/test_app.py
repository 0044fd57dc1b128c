"""The application shell: CLI screenshot, menus and shortcuts, the Cluedo New game dialog."""
import os
import subprocess
import sys

from PySide6.QtGui import QImage, QKeySequence
from window_idle import wait_idle

from engines.core.resources import resource_path


def test_screenshot_cli_writes_png(tmp_path):
    out = tmp_path / "shot.png"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    r = subprocess.run([sys.executable, "-m", "desktop", str(resource_path("examples", "cluedo.json")),
                        "--tab", "cluedo", "--screenshot", str(out)], env=env, capture_output=True,
                       text=True, timeout=180)
    assert r.returncode == 0, r.stderr
    img = QImage(str(out))
    assert img.width() >= 800 and img.height() >= 600


def test_screenshot_cli_bad_file_exit_2(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("[]", encoding="utf-8")
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    r = subprocess.run([sys.executable, "-m", "desktop", str(bad), "--screenshot", str(tmp_path / "x.png")],
                       env=env, capture_output=True, text=True, timeout=180)
    assert r.returncode == 2
    assert "Traceback" not in r.stderr


def test_menus_and_standard_shortcuts(window):
    menus = {a.text().replace("&", ""): a.menu() for a in window.menuBar().actions()}
    assert set(menus) >= {"File", "Edit", "View", "Help"}
    file_items = [a.text().replace("&", "") for a in menus["File"].actions()]
    for item in ("New game…", "Open…", "Save", "Save As…", "Export history as CSV…",
                 "Export session as JSON…", "Open Recent", "Quit"):
        assert item in file_items
    assert QKeySequence("Ctrl+Z") in window.undo_action.shortcuts()
    assert {QKeySequence("Ctrl+Y"), QKeySequence("Ctrl+Shift+Z")} <= set(window.redo_action.shortcuts())


def test_title_shows_file_and_modified_mark(window, tmp_path):
    tab = window.tab_for("cluedo")
    window.select_game("cluedo")
    from engines import cluedo

    ev = cluedo.event_from_json({"type": "lacks", "player": tab.controller.document.setup.players[1],
                                 "card": tab.controller.document.setup.cards[0]}, tab.controller.document.setup, "$")
    tab.log_event(ev)
    assert window.isWindowModified()
    tab.controller.document.save(str(tmp_path / "t.json"))
    assert not window.isWindowModified()
    assert window.windowTitle().startswith("t.json")


def test_new_game_dialog_builds_setup_and_hand(qtbot):
    from desktop.games.cluedo.forms import NewGameDialog

    dlg = NewGameDialog()
    qtbot.addWidget(dlg)
    dlg.n_players.setValue(3)
    # classic deck, 3 players: 18 cards dealt 6/6/6
    assert [s.cards for s in dlg.seats()] == [6, 6, 6]
    wanted = [dlg.my_cards.item(i) for i in range(dlg.my_cards.count()) if dlg.my_cards.item(i).data(0x0100)][:6]
    for it in wanted:
        it.setCheckState(dlg.my_cards.item(1).checkState().__class__.Checked)
    setup, events = dlg.build()
    assert len(setup.players) == 3 and sum(setup.hand_sizes) == 18
    assert events[0].to_json()["cards"] == [it.data(0x0100) for it in wanted]
    # four players, the dealer still in seat 3: 18 cards dealt from the dealer's left
    # (seat 4, then seat 1, ...) -> seats 4 and 1 get the extra cards
    dlg.n_players.setValue(4)
    assert [s.dealer for s in dlg.seats()] == [False, False, True, False]
    assert [s.cards for s in dlg.seats()] == [5, 4, 4, 5]
    import pytest

    from engines.core.errors import SessionFormatError

    with pytest.raises(SessionFormatError):  # 6 cards ticked, 5 needed
        dlg.build()


def test_csv_export_has_beliefs_after_every_event_even_without_full_timeline(window, qtbot, tmp_path):
    """A tab that computes only the latest posterior (as for 6-player Egghead tables); the CSV
    export fills in the rest in the background, so every row carries the beliefs after that
    event."""
    import csv

    from engines import egghead
    from engines.core.schema import read_session_file

    path = resource_path("examples", "egghead.json")
    tab = window.tab_for("egghead")
    tab.FULL_TIMELINE = False
    assert window.open_path(str(path), ask=False)
    wait_idle(window, 60)
    assert not tab.controller.timeline.is_full and tab.controller.timeline.latest is not None  # the latest only
    out = tmp_path / "egg.csv"
    with qtbot.waitSignal(tab.exportFinished, timeout=60000) as blocker:
        window.write_csv(tab, str(out))
    assert blocker.args == [str(out), ""]
    rows = list(csv.reader(out.open(encoding="utf-8")))
    data = read_session_file(str(path))
    assert len(rows) == len(data.events) + 2
    header = rows[0]
    for k, row in enumerate(rows[1:]):
        expected = egghead.belief_summary(data.setup, egghead.infer(data.setup, data.events[:k]))
        for key, value in expected.items():
            assert float(row[header.index(key)]) == __import__("pytest").approx(value, rel=1e-5, abs=1e-9)


def test_file_open_example_opens_each_games_example_untitled(window):
    """File → Open Example lists every game's example; choosing one shows it in its tab,
    untitled (saving asks where), with the example's entries."""
    from engines.core.schema import read_session_file
    from engines.registry import registered_games

    window.examples_menu.aboutToShow.emit()
    titles = [a.text() for a in window.examples_menu.actions()]
    assert titles == [registered_games()[g].title for g in window.games()]
    spyfall_action = window.examples_menu.actions()[titles.index("Spyfall")]
    spyfall_action.trigger()
    assert wait_idle(window, 60)
    tab = window.current_tab()
    example = read_session_file(str(registered_games()["spyfall"].example_session_path()))
    assert tab.GAME == "spyfall" and tab.controller.document.path is None
    assert list(tab.controller.document.events) == list(example.events) and len(example.events) > 0
