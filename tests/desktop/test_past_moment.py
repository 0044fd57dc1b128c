"""One moment on screen: with a past History entry selected, no visible text of the window
claims a state that the selected prefix of the log does not have.

For each of the five tabs the test reads every visible text of the window three times: with the
whole log live (``full``), with entry ``k`` selected in History (``past``), and with the log cut
to its first ``k`` entries, live (``cut``). A text shown in ``past`` that is also in ``full`` but
nowhere in ``cut`` speaks of the whole log while the moment selected is entry ``k``: a defect
(e.g. Cluedo's "Ready to accuse" when only the whole log makes the envelope certain). The
History list itself (the log, every entry of it), the belief plots (a line over every entry,
a marker at the moment) and texts that say they speak of the whole log
are exempt. Scope phrases ("as after entry 7 of 11") are removed before comparing, so a label
that names the moment but shows the whole log's figures is still caught.
"""
import json
import random
import re

import pytest
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QTextDocumentFragment
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QGroupBox,
    QLabel,
    QListView,
    QTabBar,
    QTextEdit,
    QWidget,
)
from window_idle import wait_idle

from desktop.widgets.belief_plot import BeliefPlot
from desktop.widgets.history import HistoryPanel
from engines import cluedo
from engines.core.resources import resource_path

SCOPE = re.compile(r"(?i)\b(as )?after (the )?(entry|event) \d+( of \d+)?( \(the beliefs shown\))?"
                   r"\s*[:·.,]?\s*|\bafter the whole log\s*[:·.,]?\s*")
MAX_ROWS = 200


def _plain(text: str) -> str:
    if "<" in text:
        text = QTextDocumentFragment.fromHtml(text).toPlainText()
    text = SCOPE.sub("", text)
    return " ".join(text.split()).strip(" ·:")


def _inside(w: QWidget, kinds) -> bool:
    p = w
    while p is not None:
        if isinstance(p, kinds):
            return True
        p = p.parentWidget()
    return False


def _view_texts(view: QAbstractItemView) -> list:
    model = view.model()
    if model is None:
        return []
    out = []
    top = QModelIndex()   # a list model's counts take the parent (no default in PySide)
    # a list view shows one column (QListWidget's model keeps columnCount private)
    columns = 1 if isinstance(view, QListView) else model.columnCount(top)
    for r in range(min(model.rowCount(top), MAX_ROWS)):
        for c in range(columns):
            v = model.data(model.index(r, c), Qt.DisplayRole)
            if v not in (None, ""):
                out.append(str(v))
    for c in range(columns if not isinstance(view, QListView) else 0):
        v = model.headerData(c, Qt.Horizontal, Qt.DisplayRole)
        if v not in (None, ""):
            out.append(str(v))
    return out


def visible_texts(win) -> set:
    """Every text the window shows: labels, push buttons, group and tab titles, text views, item
    views' displayed cells and headers, the title and the status bar. History and the belief
    plots are excepted (they show every entry of the log; the selected one is marked), and so
    are the inputs of the forms (combo boxes, line edits, toggles: the values of the next
    entry, which is appended to the whole log)."""
    texts = [win.windowTitle(), win.statusBar().currentMessage()]
    for w in win.findChildren(QWidget):
        if not w.isVisible() or _inside(w, (HistoryPanel, BeliefPlot)):
            continue
        if isinstance(w, QLabel):
            texts.append(w.text())
        elif isinstance(w, QAbstractButton) and not w.isCheckable():
            texts.append(w.text())
        elif isinstance(w, QGroupBox):
            texts.append(w.title())
        elif isinstance(w, QTabBar):
            texts.extend(w.tabText(i) for i in range(w.count()))
        elif isinstance(w, QTextEdit):
            texts.append(w.toPlainText())
        elif isinstance(w, QAbstractItemView):
            texts.extend(_view_texts(w))
    return {t for t in (_plain(x) for x in texts if x) if t}


def whole_log_claims(full: set, past: set, cut: set) -> set:
    """The texts of ``past`` that belong to the whole log only."""
    return {t for t in past & full if t not in cut and "whole log" not in t.lower()}


def _cluedo_log():
    """A 4-player Cluedo game (11 events): my hand, seven suggestions answered as a fixed deal
    answers them, then the other three hands — the envelope is certain after the last entry
    only."""
    setup = cluedo.Setup.from_json({"edition": "cluedo-uk", "players": ["Me", "Ann", "Bob", "Cy"],
                                    "me": "Me"}, "$.setup")
    rng = random.Random(7)
    cats = [list(cards) for _, cards in setup.categories]
    envelope = [c[0] for c in cats]
    rest = [c for cards in cats for c in cards if c not in envelope]
    rng.shuffle(rest)
    hands, i = {}, 0
    for p, n in zip(setup.players, setup.hand_sizes):
        hands[p] = rest[i:i + n]
        i += n
    events = [{"type": "hand", "player": "Me", "cards": hands["Me"]}]
    players = list(setup.players)
    for s in range(7):
        suggester = players[s % len(players)]
        cards = [rng.choice(c[1:]) if rng.random() < 0.7 else c[0] for c in cats]
        order = players[players.index(suggester) + 1:] + players[:players.index(suggester)]
        passed, refuter = [], None
        for p in order:
            if set(cards) & set(hands[p]):
                refuter = p
                break
            passed.append(p)
        shown = None
        if suggester == "Me" and refuter is not None:
            shown = sorted(set(cards) & set(hands[refuter]))[0]
        events.append({"type": "suggestion", "suggester": suggester, "cards": cards,
                       "passed": passed, "refuter": refuter, "shown": shown})
    for p in players[1:]:
        events.append({"type": "hand", "player": p, "cards": hands[p]})
    evs = [cluedo.event_from_json(e, setup, f"$.events[{j}]") for j, e in enumerate(events)]
    return setup, evs


def _example(game):
    from engines import game_module

    module = game_module(game)
    data = json.loads(resource_path("examples", f"{game}.json").read_text())
    setup = module.Setup.from_json(data["setup"], "$.setup")
    return setup, [module.event_from_json(e, setup, f"$.events[{j}]")
                   for j, e in enumerate(data["events"])]


CASES = {"cluedo": (_cluedo_log, 7), "egghead": (lambda: _example("egghead"), 1),
         "guesswho": (lambda: _example("guesswho"), 2),
         "inkognito": (lambda: _example("inkognito"), 3),
         "spyfall": (lambda: _example("spyfall"), 2)}


@pytest.mark.parametrize("game", list(CASES))
def test_a_past_entry_shows_only_its_moment(window, game):
    make, k = CASES[game]
    setup, events = make()
    window.select_game(game)
    tab = window.tab_for(game)
    tab.reset_document(setup, events)
    assert wait_idle(window, 90)
    full = visible_texts(window)
    if game == "cluedo":   # the scene of the report: the whole log makes the envelope certain
        assert any("accuse" in t.lower() for t in full), sorted(full)
    tab.history.select_event(k - 1)           # the beliefs after the first k entries
    assert wait_idle(window, 90)
    past = visible_texts(window)
    tab.history.select_live()
    tab.reset_document(setup, events[:k])
    assert wait_idle(window, 90)
    cut = visible_texts(window)
    leaks = whole_log_claims(full, past, cut)
    assert not leaks, f"{game}: after selecting entry {k}, these speak of the whole log: {sorted(leaks)}"


def test_undo_of_an_impossible_entry_clears_the_banner_in_the_same_frame(window):
    """The banner follows the snapshot: right after Ctrl+Z, before any event is processed, the
    red banner of the entry undone is gone; an entry after an impossible one keeps it."""
    window.select_game("cluedo")
    tab = window.tab_for("cluedo")
    setup = cluedo.Setup.from_json({"edition": "cluedo-uk", "players": ["Me", "Ann", "Bob"],
                                    "me": "Me"}, "$.setup")
    tab.reset_document(setup, [])
    tab.log_json({"type": "shown", "player": "Ann", "card": "Rope"})
    tab.log_json({"type": "lacks", "player": "Ann", "card": "Rope"})
    assert wait_idle(window, 60)
    assert "Impossible" in tab.banner.message()
    tab.log_json({"type": "shown", "player": "Bob", "card": "Hall"})
    assert "Impossible" in tab.banner.message()          # still impossible, at once
    tab.controller.document.undo_stack.undo()
    assert "Impossible" in tab.banner.message()
    tab.controller.document.undo_stack.undo()                       # the impossible entry goes
    assert tab.banner.message() == ""                    # no event processed in between
    assert wait_idle(window, 60)
    assert tab.banner.message() == "" and tab.snapshot.status.value == "ready"
