"""Fitting the screen and telling the truth on it: plot colours keyed by series name, the
single quit dialog for several unsaved games, the default geometry on small screens, the
banner that floats over the worksheet, and stale or impossible states never shown as current."""
import os

import pytest
from PySide6.QtCore import QRect, QSize, Qt, QTimer
from PySide6.QtGui import QScreen
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox
from window_idle import wait_idle

from desktop.shell import window_geometry as window_state
from desktop.shell.unsaved_dialog import UnsavedDialog
from desktop.widgets.belief_plot import PALETTE, BeliefPlot, ColourKeys
from engines import cluedo


# -- plot colours -------------------------------------------------------------------------------
def test_colour_keys_stable_while_series_come_and_go():
    keys = ColourKeys()
    first = keys.assign(["suspect: Plum", "weapon: Rope", "room: Hall"])
    assert len(set(first.values())) == 3
    # the suspect leader changes: weapon and room keep their colours, the new name takes the
    # free one, and no two names on screen share a colour
    second = keys.assign(["suspect: Green", "weapon: Rope", "room: Hall"])
    assert second["weapon: Rope"] == first["weapon: Rope"]
    assert second["room: Hall"] == first["room: Hall"]
    assert len(set(second.values())) == 3
    # a series that leaves and comes back gets its colour again when it is free
    keys.assign(["room: Hall"])
    third = keys.assign(["weapon: Rope", "room: Hall"])
    assert third == {"weapon: Rope": first["weapon: Rope"], "room: Hall": first["room: Hall"]}


def test_belief_plot_colours_distinct_and_keyed_by_name(qtbot):
    plot = BeliefPlot()
    qtbot.addWidget(plot)
    names = [f"s{i}" for i in range(len(PALETTE) + 1)]
    plot.set_series({n: [0.1 * i, 0.2] for i, n in enumerate(names)})
    colours = {n: plot.series_colour(n).name() for n in names}
    assert len(set(colours.values())) == len(names)        # 8 names, 8 colours
    # removing one series (the old code then gave the next new one a colour in use) ...
    plot.set_series({n: [0.5] for n in names if n != "s1"})
    assert {n: plot.series_colour(n).name() for n in names if n != "s1"} == \
        {n: c for n, c in colours.items() if n != "s1"}
    plot.set_series({**{n: [0.5] for n in names if n != "s1"}, "new": [0.3]})
    now = {n: plot.series_colour(n).name() for n in names if n != "s1"} | {"new": plot.series_colour("new").name()}
    assert len(set(now.values())) == len(now)
    assert now["new"] == colours["s1"]                      # the only free colour
    assert plot.series_colour("s1") is None
    # the legend is outside the plot area and names every series
    assert plot.legend.parentWidget() is plot and "new" in plot.legend.text()
    assert plot.legend.geometry().bottom() <= plot.plot.geometry().top() or not plot.isVisible()


def test_cluedo_envelope_lines_have_three_colours(window):
    window.select_game("cluedo")
    tab = window.tab_for("cluedo")
    assert wait_idle(window, 60)   # its first beliefs (the tab may be built just now)
    names = list(tab.plot.series())
    assert len(names) == 3
    assert len({tab.plot.series_colour(n).name() for n in names}) == 3


# -- quit with several unsaved games ---------------------------------------------------------------
def _dirty(window, games):
    for game in games:
        tab = window.tab_for(game)
        tab.controller.document.undo_stack.resetClean()   # unsaved, as restored work is
        assert tab.controller.document.is_modified()


def _answer_unsaved(button_name, seen):
    """Click ``button_name`` of the UnsavedDialog as soon as it is up (the real exec)."""
    def click():
        dlg = QApplication.activeModalWidget()
        if not isinstance(dlg, UnsavedDialog):
            QTimer.singleShot(20, click)
            return
        seen.append([dlg.list.item(i).text() for i in range(dlg.list.count())])
        getattr(dlg, button_name).click()
    QTimer.singleShot(0, click)


def _no_single_questions(monkeypatch):
    import desktop.shell.unsaved_dialog

    monkeypatch.setattr("desktop.shell.file_actions.ask_unsaved",
                        desktop.shell.unsaved_dialog.ask_unsaved)  # the real one
    asked = []
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: asked.append(a) or QMessageBox.Cancel)
    return asked


def test_quit_with_several_unsaved_cancel_keeps_the_window(window, monkeypatch):
    asked = _no_single_questions(monkeypatch)
    _dirty(window, ["cluedo", "inkognito", "guesswho"])
    seen = []
    _answer_unsaved("cancel_button", seen)
    assert not window.close()
    assert len(seen) == 1 and len(seen[0]) == 3 and not asked      # one dialog, no modal per tab
    assert seen[0][0].startswith("Cluedo — ") and any(line.startswith("Guess Who?") for line in seen[0])
    assert all(window.tab_for(g).controller.document.is_modified() for g in ("cluedo", "inkognito", "guesswho"))
    _clean(window)


def test_quit_with_several_unsaved_discard_all(window, monkeypatch):
    asked = _no_single_questions(monkeypatch)
    _dirty(window, ["cluedo", "spyfall"])
    seen = []
    _answer_unsaved("discard_button", seen)
    assert window.close()
    assert len(seen) == 1 and len(seen[0]) == 2 and not asked


def test_quit_with_several_unsaved_save_all_writes_each(window, monkeypatch, tmp_path):
    asked = _no_single_questions(monkeypatch)
    games = ["cluedo", "egghead", "spyfall"]
    _dirty(window, games)
    window.tab_for("egghead").controller.document.save(str(tmp_path / "egg.json"))   # one has a file already
    window.tab_for("egghead").controller.document.undo_stack.resetClean()
    chosen = []

    def fake_save_name(parent, caption, suggested, *a, **k):
        chosen.append(os.path.basename(suggested))
        return str(tmp_path / os.path.basename(suggested)), ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", fake_save_name)
    seen = []
    _answer_unsaved("save_button", seen)
    assert window.close()
    assert len(seen) == 1 and not asked
    assert sorted(chosen) == ["cluedo.json", "spyfall.json"]       # only the untitled ones ask
    for name in ("cluedo.json", "spyfall.json", "egg.json"):
        assert (tmp_path / name).exists()
    assert not any(window.tab_for(g).controller.document.is_modified() for g in games)
    # the next start reopens all three, the two just named by Save all included
    from desktop.shell.settings import app_settings
    from desktop.table import reopen

    kept = app_settings().value(reopen.FILES_KEY)
    assert sorted(os.path.basename(p) for p in kept) == ["cluedo.json", "egg.json", "spyfall.json"]


def test_file_dialogs_open_in_the_folder_last_used(window, monkeypatch, tmp_path):
    """The first Save as… opens in the documents folder (not the folder the app was started
    from); after a file is saved in a folder, Export and Open open there, and the folder is
    remembered for the next start."""
    from PySide6.QtCore import QStandardPaths

    from desktop.shell.settings import LAST_FOLDER

    LAST_FOLDER.write("")
    asked = []

    def fake_save_name(parent, caption, suggested, *a, **k):
        asked.append(os.path.dirname(suggested))
        return str(tmp_path / os.path.basename(suggested)), ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", fake_save_name)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda parent, caption, folder, *a, **k:
                        asked.append(folder) or ("", ""))
    window.select_game("guesswho")
    assert window.save_as()
    window.export_json()
    window.open_dialog()
    documents = QStandardPaths.writableLocation(QStandardPaths.DocumentsLocation)
    if not os.path.isdir(documents):
        documents = os.path.expanduser("~")
    assert asked == [documents, str(tmp_path), str(tmp_path)] and os.getcwd() not in asked[:1]
    assert LAST_FOLDER.read() == str(tmp_path)


def test_a_file_dialog_opens_in_the_documents_folder_or_home_when_there_is_none(
        window, monkeypatch, tmp_path):
    from PySide6.QtCore import QStandardPaths

    from desktop.shell.settings import LAST_FOLDER

    LAST_FOLDER.write("")
    documents = tmp_path / "Documents"
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setattr(QStandardPaths, "writableLocation", lambda _location: str(documents))
    assert window.dialog_path() == str(tmp_path)          # no documents folder: home
    assert window.dialog_path("a.json") == str(tmp_path / "a.json")
    documents.mkdir()
    assert window.dialog_path() == str(documents)


def test_save_all_stops_when_a_file_name_is_refused(window, monkeypatch):
    _no_single_questions(monkeypatch)
    _dirty(window, ["cluedo", "spyfall"])
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: ("", ""))
    _answer_unsaved("save_button", [])
    assert not window.close()
    assert window.tab_for("cluedo").controller.document.is_modified()
    _clean(window)


def _clean(window):
    for tab in window.game_tabs.values():
        tab.controller.document.undo_stack.setClean()


# -- geometry ----------------------------------------------------------------------------------------
def test_default_geometry_fits_small_screens():
    for avail in (QRect(0, 0, 1280, 800), QRect(0, 27, 1280, 773), QRect(0, 0, 1366, 768),
                  QRect(0, 0, 1366, 741), QRect(0, 0, 1280, 720)):
        g = window_state.default_geometry(avail)
        frame = g.adjusted(-window_state.FRAME_ALLOWANCE.width() // 2,
                           -(window_state.FRAME_ALLOWANCE.height() - window_state.FRAME_ALLOWANCE.width() // 2),
                           window_state.FRAME_ALLOWANCE.width() // 2, window_state.FRAME_ALLOWANCE.width() // 2)
        assert avail.contains(frame), (avail, g)
    big = window_state.default_geometry(QRect(0, 0, 1920, 1080))
    assert big.size() == window_state.PREFERRED_SIZE


def test_window_at_1280x800_fits(qtbot, monkeypatch):
    """A new window on a 1280×800 screen (27 px panel) lies within the available area and every
    tab's minimum size fits in it."""
    from desktop.shell.main_window import MainWindow

    avail = QRect(0, 27, 1280, 773)
    monkeypatch.setattr(QScreen, "availableGeometry", lambda self: QRect(avail))
    win = MainWindow(autosave=False, interactive=False)
    qtbot.addWidget(win)
    g = win.geometry()
    assert avail.contains(g) and g.height() <= 773 - 30
    assert win.minimumSizeHint().width() <= 1280 and win.minimumSizeHint().height() <= 720
    win.show()
    for game, tab in win.build_all_tabs().items():
        win.select_game(game)
        QApplication.processEvents()
        assert tab.width() >= tab.minimumSizeHint().width(), game
        assert tab.height() >= tab.minimumSizeHint().height(), game
    win.shutdown()


def test_window_state_round_trip(qtbot, tmp_path):
    """Geometry and splitter positions come back from QSettings; a stored geometry that no
    longer fits the screen gives way to the default one."""
    from PySide6.QtCore import QSettings, Qt
    from PySide6.QtWidgets import QLabel, QSplitter, QVBoxLayout, QWidget

    settings = QSettings(str(tmp_path / "state.ini"), QSettings.IniFormat)

    def make():
        win = QWidget()
        pane = QWidget()
        lay = QVBoxLayout(pane)
        split = QSplitter(Qt.Horizontal)
        for text in ("a", "b", "c"):
            split.addWidget(QLabel(text))
        lay.addWidget(split)
        QVBoxLayout(win).addWidget(pane)
        qtbot.addWidget(win)
        return win, pane, split

    win, pane, split = make()
    win.setGeometry(QRect(60, 80, 600, 500))
    win.show()
    QApplication.processEvents()
    split.setSizes([300, 150, 130])
    sizes = split.sizes()
    window_state.save_window_state(settings, win, {"game": pane})
    win2, pane2, split2 = make()
    assert window_state.restore_window_state(settings, win2, {"game": pane2})
    win2.show()
    QApplication.processEvents()
    assert win2.geometry().size() == QSize(600, 500)
    assert split2.sizes() == sizes
    # a splitter layout of another shape is not forced onto the pane
    assert window_state.restore_splitters(settings, "other", pane2) == 0


def test_main_window_restores_its_splitters(qtbot, monkeypatch):
    from PySide6.QtWidgets import QSplitter

    from desktop.shell.main_window import MainWindow

    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.Discard)
    win = MainWindow(autosave=False)
    qtbot.addWidget(win)
    split = win.tab_for("guesswho").findChildren(QSplitter)[0]
    split.setSizes([500, 100] + [50] * (split.count() - 2))
    state = split.saveState()
    assert win.close()
    win2 = MainWindow(autosave=False)
    qtbot.addWidget(win2)
    assert win2.tab_for("guesswho").findChildren(QSplitter)[0].saveState() == state
    win.shutdown()
    win2.shutdown()


# -- banner and honest state --------------------------------------------------------------------------
def _contradiction(tab):
    card = tab.controller.document.setup.cards[0]
    tab.log_json({"type": "shown", "player": "Ann", "card": card})
    tab.log_json({"type": "shown", "player": "Bob", "card": card})  # one card, two hands


def test_no_ready_to_accuse_while_the_log_is_impossible(window):
    window.select_game("cluedo")
    tab = window.tab_for("cluedo")
    setup = cluedo.Setup.from_json({"edition": "cluedo-uk", "players": ["Me", "Ann", "Bob"], "me": "Me"}, "s")
    envelope = ("Miss Scarlett", "Rope", "Hall")
    others = [c for c in setup.cards if c not in envelope]
    hands = {"Me": others[0::3], "Ann": others[1::3], "Bob": others[2::3]}
    events = [cluedo.event_from_json({"type": "hand", "player": "Me", "cards": hands["Me"]}, setup, "e")]
    events += [cluedo.event_from_json({"type": "shown", "player": p, "card": c}, setup, "e")
               for p in ("Ann", "Bob") for c in hands[p]]
    tab.reset_document(setup, events)
    assert wait_idle(window, 120)
    assert "Ready to accuse" in tab.accuse_label.text()
    tab.log_json({"type": "shown", "player": "Ann", "card": hands["Bob"][0]})   # impossible
    assert wait_idle(window, 60)
    assert tab.banner.isVisible()
    assert tab.accuse_label.text() == ""


def test_switching_method_greys_the_old_numbers_at_once(window):
    window.set_details(True, remember=False)    # the sample count is a Details figure
    window.select_game("cluedo")
    window.set_details(True, remember=False)      # the sample count is a detail
    tab = window.tab_for("cluedo")
    tab.method.setCurrentIndex(tab.method.findData("montecarlo"))
    assert wait_idle(window, 120)
    assert "exact samples" in tab.deals_label.text() and not tab.model.is_stale()
    tab.method.setCurrentIndex(tab.method.findData("center"))
    # before any result arrives: greyed, and the label no longer speaks of samples
    assert tab.model.is_stale()
    assert "computing" in tab.deals_label.text() and "samples" not in tab.deals_label.text()
    assert wait_idle(window, 120)
    assert not tab.model.is_stale() and "samples" not in tab.deals_label.text()
    tab.method.setCurrentIndex(tab.method.findData("exact"))
    assert wait_idle(window, 120)


def test_guess_who_board_reflows_and_scrolls_at_1280x800(window):
    """The board's columns fit the width it has (no column cut off, no horizontal scrolling),
    every card is tall enough for all its attribute chips, and the board scrolls to the last
    row when the rows do not fit."""
    window.select_game("guesswho")
    tab = window.tab_for("guesswho")
    window.resize(1280, 760)          # 1280×800 less the title bar and a panel
    for _ in range(5):
        QApplication.processEvents()
    board = tab.board_view
    assert len(board.cards) == 24
    vp = board.viewport()
    for width in (vp.width(), 300, 900):
        if width != vp.width():
            board.resize(width + 2 * board.frameWidth(), board.height())
            for _ in range(5):
                QApplication.processEvents()
        for card in board.cards.values():
            left = card.mapTo(vp, card.rect().topLeft()).x()
            assert left >= 0 and left + card.width() <= vp.width() + 1, width
            assert card.height() >= card.height_for(card.width()), card.name
        assert board.horizontalScrollBar().maximum() == 0
        inner = board.widget().height()
        assert inner <= vp.height() or board.verticalScrollBar().maximum() >= inner - vp.height() - 1


def test_new_game_dialog_names_and_ticks(qtbot):
    from desktop.games.cluedo.forms import NewGameDialog

    previous = ["Miss Scarlett", "Rope", "Hall", "Study", "Dagger"]
    dlg = NewGameDialog(None, cluedo.default_setup(), previous)
    qtbot.addWidget(dlg)
    dlg.show()
    QApplication.processEvents()
    assert sorted(dlg.checked_cards()) == sorted(previous)       # same deal: my hand kept
    dlg.n_players.setValue(6)                                     # a new deal: a new hand
    assert dlg.checked_cards() == [] and "0 of 3 ticked" in dlg.my_cards_label.text()
    dlg.edition.setCurrentIndex(dlg.edition.findData("clue-master-detective"))
    dlg.n_players.setValue(10)
    for _ in range(3):
        QApplication.processEvents()
    fm = dlg.table.fontMetrics()
    names = [dlg.table.text(r, dlg.NAME) for r in range(10)]
    assert len(set(names)) == 10
    assert dlg.table.columnWidth(0) >= max(fm.horizontalAdvance(n) for n in names + ["Name"]) + 8
    assert dlg.table.verticalScrollBar().maximum() == 0           # every seat on screen
    # another dealer is another deal too
    dlg.my_cards.item(1).setCheckState(Qt.Checked)
    seat = next(r for r, s in enumerate(dlg.seats()) if not s.dealer)
    model = dlg.table.table_model          # tick the dealer as a click on the cell does
    assert model.setData(model.index(seat, dlg.DEALER), Qt.Checked, Qt.CheckStateRole)
    assert [s.dealer for s in dlg.seats()].count(True) == 1 and dlg.seats()[seat].dealer
    assert dlg.checked_cards() == []


def test_event_axis_ticks_are_round_and_few():
    from desktop.widgets.belief_plot import event_tick_step

    assert [event_tick_step(n) for n in (1, 8, 9, 20, 100, 2004, 4999)] == \
        [1, 1, 2, 5, 20, 500, 1000]
    for last in range(1, 20_000, 7):
        step = event_tick_step(last)
        mantissa = step / 10 ** (len(str(step)) - 1)
        assert mantissa in (1, 2, 5) and last / step <= 8
        smaller = [m * 10 ** k for k in range(6) for m in (1, 2, 5) if m * 10 ** k < step]
        assert all(last / x > 8 for x in smaller)      # the smallest such step


def test_a_long_series_is_drawn_as_thin_lines_without_symbols(qtbot):
    from desktop.widgets.belief_plot import MAX_SYMBOL_POINTS, BeliefPlot

    plot = BeliefPlot()
    qtbot.addWidget(plot)
    plot.set_series({"a": [0.5, None, 0.25], "b": [0.1, 0.2, float("nan")]})
    curve = plot._curves["a"]
    assert curve.opts["symbol"] is not None and curve.opts["pen"].width() == 2
    assert list(curve.getData()[0]) == [0, 2]                  # the gap is left out
    assert list(plot._curves["b"].getData()[0]) == [0, 1]      # and a NaN too
    long = [i / 1000 for i in range(MAX_SYMBOL_POINTS + 1)]
    plot.set_series({"a": long})
    curve = plot._curves["a"]
    assert curve.opts["symbol"] is None and curve.opts["pen"].width() == 1
    assert curve.opts["autoDownsample"] and curve.opts["clipToView"]
    assert "b" not in plot._curves


def test_a_series_that_comes_takes_the_curve_of_one_that_left(qtbot):
    """Opening a log with other names restyles the curves already in the plot instead of
    making new ones (making one is a pyqtgraph item added to the scene, about 1 ms each); a
    curve left over is kept hidden and empty for a later series."""
    import pyqtgraph as pg

    plot = BeliefPlot()
    qtbot.addWidget(plot)
    plot.set_series({"Ann": [0.1, 0.2], "Bo": [0.3, 0.4], "Cy": [0.5, 0.6]})
    assert plot.curves_made == 3
    before = set(plot._curves.values())
    plot.set_series({"d": [0.9, 0.8], "e": [0.7, 0.6]})
    assert plot.curves_made == 3 and set(plot._curves.values()) < before
    items = [i for i in plot.plot.getPlotItem().items if isinstance(i, pg.PlotDataItem)]
    shown = [i for i in items if i.isVisible()]
    assert len(shown) == 2 and set(shown) == set(plot._curves.values())
    assert [(c.isVisible(), len(c.getData()[1] or ())) for c in plot._spare] == [(False, 0)]
    assert sorted(plot._curves) == ["d", "e"]
    assert [list(plot._curves[k].getData()[1]) for k in ("d", "e")] == [[0.9, 0.8], [0.7, 0.6]]
    pens = {plot._curves[k].opts["pen"].color().name() for k in ("d", "e")}
    assert pens == {plot.series_colour("d").name(), plot.series_colour("e").name()} and len(pens) == 2
    assert "&nbsp;d" in plot.legend.text() and "Ann" not in plot.legend.text()
    plot.set_series({"d": [0.9], "e": [0.7], "f": [0.1], "g": [0.2]})
    assert plot.curves_made == 4 and not plot._spare      # the kept curve, and one made


def test_a_long_series_is_downsampled_to_the_plots_pixel_columns(qtbot):
    """5,000 values on a plot a few hundred pixels wide: one bin per pixel column, drawn as its
    minimum and maximum (pyqtgraph's "peak"), so every extreme stays and Qt strokes about
    two points a column, not 5,000."""
    plot = BeliefPlot()
    qtbot.addWidget(plot)
    plot.resize(500, 300)
    plot.show()
    qtbot.waitExposed(plot)
    values = [(i % 97) / 96 for i in range(5000)]
    values[1234] = 0.9995               # a lone spike among values under 0.8
    plot.set_series({"a": values})
    xs, ys = plot._curves["a"].getData()
    width = plot.plot.getPlotItem().vb.width()
    assert 0 < width < 600
    # the x range's 3 % padding each side makes a bin slightly under a column wide; at
    # pyqtgraph's default (five bins a column) all 5,000 points were drawn
    assert len(xs) <= 2.2 * width
    assert 0.9995 in ys and max(ys) == max(values) and min(ys) == 0.0


def test_reserved_curves_are_made_in_turns_before_the_series_come(qtbot):
    """reserve(n) makes the curves one per turn of the event loop, hidden; set_series then
    takes them and makes none in its own turn."""
    plot = BeliefPlot()
    qtbot.addWidget(plot)
    plot.set_series({"old": [0.5, 0.5]})
    plot.reserve(4)
    assert plot.curves_made == 1            # nothing made in the caller's turn
    qtbot.waitUntil(lambda: plot.curves_made == 4, timeout=2000)
    qtbot.wait(20)
    assert plot.curves_made == 4            # the curve kept for "old" counts towards the four
    assert not any(c.isVisible() for c in plot._spare)
    assert plot.legend.text().count("━━") == 1
    plot.set_series({n: [0.1, 0.2, 0.3] for n in ("A", "B", "C", "D")})
    assert plot.curves_made == 4 and not plot._spare
    assert all(c.isVisible() for c in plot._curves.values())
    plot.set_series({n: [0.1] for n in "ABCDE"})
    assert plot.curves_made == 5


def test_reserved_names_show_in_the_legend_before_their_series(qtbot):
    """reserve(count, names) on an empty plot shows the names in the legend at once, in the
    colours their curves get, so the plot keeps its layout when the data come."""
    plot = BeliefPlot()
    qtbot.addWidget(plot)
    names = ["Ann", "Bob", "Cy"]
    plot.reserve(3, names)
    text = plot.legend.text()
    assert not plot.legend.isHidden() and all(n in text for n in names)
    plot.set_series({n: [0.2, 0.3] for n in names})
    assert plot.legend.text() == text
    assert all(plot.series_colour(n).name() in text for n in names)
    plot.reserve(2, ["Dee", "Eve"])        # a plot showing series keeps its legend
    assert plot.legend.text() == text


@pytest.mark.parametrize("game", ["cluedo", "inkognito", "egghead", "guesswho", "spyfall"])
def test_a_tab_s_first_plot_is_drawn_on_curves_made_before_its_beliefs(qtbot, monkeypatch, game):
    """Each tab reserves the curves its plots will draw when its setup is shown, so the turn
    that draws the first beliefs makes none (each curve is 1-2 ms of pyqtgraph's Python in
    that turn otherwise, :meth:`BeliefPlot.reserve`)."""
    from desktop.shell.tab_pages import tab_class
    from desktop.tabs import base

    ask = base.GameTab.request_inference
    monkeypatch.setattr(base.GameTab, "request_inference", lambda self, *args: None)
    tab = tab_class(game)()                     # built, its setup shown, no beliefs asked for
    qtbot.addWidget(tab)
    plots = tab.findChildren(BeliefPlot)
    qtbot.waitUntil(lambda: not any(p._spare_timer.isActive() for p in plots), timeout=5000)
    made = {p: p.curves_made for p in plots}
    drawn = []
    draw = tab._draw_plot
    monkeypatch.setattr(tab, "_draw_plot", lambda snap: (draw(snap), drawn.append(snap)))
    monkeypatch.setattr(base.GameTab, "request_inference", ask)
    try:
        tab.request_inference()
        qtbot.waitUntil(lambda: bool(drawn), timeout=20000)
        shown = {p: len(p._curves) for p in plots if p._curves}
        assert tab.plot in shown                    # the first beliefs were drawn...
        assert {p: p.curves_made for p in plots} == made     # ...on curves made before
    finally:
        tab.controller.shutdown()


def test_later_series_are_drawn_over_earlier_ones_whichever_curve_they_got(qtbot):
    """The stacking of a plot's curves follows its series' order, whether a curve was made for
    the series, reserved ahead or another series' before: the same series give the same
    picture whatever was shown before (reserved curves are taken last made first)."""
    plot = BeliefPlot()
    qtbot.addWidget(plot)
    plot.reserve(3)
    qtbot.waitUntil(lambda: len(plot._spare) == 3, timeout=2000)

    def stacking():      # the series from the bottom up, as Qt stacks the curves
        shown = {id(plot._curves[name]): name for name in plot._series}
        children = plot._curves[next(iter(plot._series))].parentItem().childItems()
        return [shown[id(item)] for item in children if id(item) in shown]

    plot.set_series({n: [0.1, 0.2] for n in ("A", "B", "C")})
    assert stacking() == ["A", "B", "C"]
    plot.set_series({n: [0.1, 0.2] for n in ("C", "D", "A")})
    assert stacking() == ["C", "D", "A"]
    assert max(c.zValue() for c in plot._curves.values()) < plot.hover.zValue()


def test_missing_values_and_non_numbers_are_gaps():
    import numpy as np

    from desktop.widgets.belief_plot import _finite_values

    got = _finite_values([None, 1, 2.5, float("inf"), True, float("nan")])
    assert np.array_equal(np.isnan(got), [True, False, False, True, False, True])
    assert list(got[[1, 2, 4]]) == [1.0, 2.5, 1.0]
    assert np.isnan(_finite_values([None, "x", 3])[:2]).all() and _finite_values(["x", 3])[1] == 3.0


def test_a_curve_given_its_style_and_data_is_rebuilt_once(qtbot):
    """set_series gives a curve its style with its data: pyqtgraph rebuilds the path (and the
    downsampled view of a long series) once, not once per style setter and range change."""
    plot = BeliefPlot()
    qtbot.addWidget(plot)
    plot.reserve(3)
    qtbot.waitUntil(lambda: len(plot._spare) == 3, timeout=2000)
    rebuilds = {}
    for i, curve in enumerate(plot._spare):
        def counted(*args, _orig=curve.updateItems, _i=i, **kwargs):
            rebuilds[_i] = rebuilds.get(_i, 0) + 1
            return _orig(*args, **kwargs)
        curve.updateItems = counted
    plot.set_series({n: [(i % 7) / 7 for i in range(1000)] for n in "ABC"})
    assert rebuilds == {0: 1, 1: 1, 2: 1}
    curve = plot._curves["A"]
    assert curve.opts["symbol"] is None and curve.opts["autoDownsample"] and curve.opts["clipToView"]
    assert curve.opts["pen"].color().name() == plot.series_colour("A").name()


def test_new_data_is_painted_in_one_paint_of_the_plot(qtbot):
    """After set_series (and the marker set) the plot is painted once: the view's range and transform are brought up
    to date with the data, not as the paint begins (where the items they move asked for a second
    paint of the whole plot), on a fixed and on an auto-ranged y axis."""
    import pyqtgraph as pg

    for y_range in ((0.0, 1.0), None):
        plot = BeliefPlot(y_range=y_range)
        qtbot.addWidget(plot)
        plot.resize(400, 300)
        plot.show()
        qtbot.waitExposed(plot)
        paints = []

        class Counter(pg.QtCore.QObject):
            def eventFilter(self, obj, event):  # noqa: N802
                if event.type() == pg.QtCore.QEvent.Type.Paint:
                    paints.append(1)
                return False

        counter = Counter()
        plot.plot.viewport().installEventFilter(counter)
        for k in range(3):      # the first shows the legend: the plot is laid out again
            paints.clear()
            # a longer log each time, on the auto-ranged axis larger values (labels as wide):
            # both ranges change
            scale = 1 / 9 if y_range else (1 + k / 4) / 9
            length = 40 + 10 * k
            plot.set_series({n: [scale * ((i + j) % 9) for i in range(length)]
                             for j, n in enumerate("ABCDEF")})
            plot.set_marker(length - 1)
            qtbot.waitUntil(lambda: bool(paints), timeout=2000)
            qtbot.wait(60)
            assert k == 0 or len(paints) == 1, (y_range, k, len(paints))


def test_splitters_keep_their_order_and_side_whichever_page_was_shown(qtbot, tmp_path):
    """The Spyfall tab's splitters are saved in one order whether or not its Simulation page
    was shown (bringing a page to the front reorders its parent's children); states saved in
    another order are not restored: the Table page's vertical splitter stays vertical."""
    from PySide6.QtCore import QSettings, Qt

    from desktop.games.spyfall.tab import Tab
    from desktop.shell import window_geometry as window_state
    from desktop.shell.settings import SPLITTERS

    tab = Tab()
    qtbot.addWidget(tab)
    before = window_state._splitters(tab)
    tab.pages.setCurrentWidget(tab.simulation)
    tab.simulation.results.setCurrentWidget(tab.simulation.tournament_page)
    assert window_state._splitters(tab) == before
    assert [s.orientation() for s in before] == [Qt.Vertical, Qt.Horizontal, Qt.Horizontal]
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.IniFormat)
    # the order findChildren gave after the Simulation page was shown
    SPLITTERS.of("spyfall").write([s.saveState() for s in before[1:] + before[:1]], settings)
    assert window_state.restore_splitters(settings, "spyfall", tab) == 0
    assert [s.orientation() for s in before] == [Qt.Vertical, Qt.Horizontal, Qt.Horizontal]
    SPLITTERS.of("spyfall").write([s.saveState() for s in before], settings)
    assert window_state.restore_splitters(settings, "spyfall", tab) == 3
