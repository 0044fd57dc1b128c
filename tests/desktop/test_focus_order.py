"""The Tab key goes through each tab's controls in reading order (desktop.widgets.focus_order):
never back up and to the left, the quick entry before everything under it, and controls made
again for a new game (Cluedo's "passed" check boxes) in their place, not after the side panes.
Judged from where the controls stand on a 1280×800 window, not from the layouts the order is
made from (WCAG 2.2, success criterion 2.4.3 "Focus Order")."""
import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QWidget
from window_idle import wait_idle

GAMES = ("cluedo", "inkognito", "egghead", "guesswho", "spyfall")
#: pixels two controls may differ by and still stand in one row or column
SLACK = 4


def _focusable(w: QWidget, tab: QWidget) -> bool:
    return (w.isVisibleTo(tab) and w.isEnabled() and w.focusProxy() is None
            and bool(w.focusPolicy() & Qt.TabFocus) and w.width() > 0)


def tab_chain(tab: QWidget) -> list:
    """The tab's controls in the order the Tab key reaches them, from its top-left one, with
    each one's place (x, y) in the tab."""
    controls = [w for w in tab.findChildren(QWidget) if _focusable(w, tab)]
    where = {id(w): w.mapTo(tab, QPoint(0, 0)).toTuple() for w in controls}
    start = min(controls, key=lambda w: (where[id(w)][1], where[id(w)][0]))
    out, cur = [], start
    for _ in range(20 * len(controls) + 100):
        if id(cur) in where and all(cur is not o for o, _ in out):
            out.append((cur, where[id(cur)]))
        cur = cur.nextInFocusChain()
        if cur is start:
            break
    return out, controls


def _name(w) -> str:
    text = w.accessibleName() or (w.text() if hasattr(w, "text") and callable(w.text) else "")
    return f"{type(w).__name__} {text!r}"


def assert_reading_order(tab) -> None:
    chain, controls = tab_chain(tab)
    assert len(chain) == len(controls), "controls the Tab key never reaches: " + ", ".join(
        _name(w) for w in controls if all(w is not c for c, _ in chain))
    back = [f"{_name(a)} at {pa} -> {_name(b)} at {pb}"
            for (a, pa), (b, pb) in zip(chain, chain[1:])
            if pb[0] < pa[0] - SLACK and pb[1] < pa[1] - SLACK]
    assert back == [], "the Tab key jumps back up and to the left:\n" + "\n".join(back)
    qe = tab.quick_entry.line
    i = next(i for i, (w, _) in enumerate(chain) if w is qe)
    y = chain[i][1][1]
    before_below = [_name(w) for w, (_, wy) in chain[:i] if wy > y + SLACK]
    assert before_below == [], f"reached before the quick entry, though under it: {before_below}"


@pytest.mark.parametrize("game", GAMES)
def test_the_tab_key_follows_the_layout(window, game):
    window.resize(1280, 800)
    window.select_game(game)
    tab = window.tab_for(game)
    assert wait_idle(window, 60)
    assert_reading_order(tab)


def test_controls_made_for_a_new_game_are_reached_in_place(window):
    from engines import cluedo

    window.resize(1280, 800)
    window.select_game("cluedo")
    tab = window.tab_for("cluedo")
    six = cluedo.Setup.from_json({"edition": "cluedo-uk", "me": "Me",
                                  "players": ["Me", "Ann", "Bob", "Cy", "Dee", "Eve"]}, "$")
    tab.reset_document(six, [])
    assert wait_idle(window, 60)
    assert_reading_order(tab)
    chain = [w for w, _ in tab_chain(tab)[0]]
    boxes = [chain.index(cb) for cb in tab.form.passed_checks.values() if cb in chain]
    assert len(boxes) >= 4 and boxes == list(range(boxes[0], boxes[0] + len(boxes)))   # one run
    assert chain.index(tab.form.refuter) < boxes[0] < chain.index(tab.form.log_button)


def _cluedo_setup(*players):
    from engines import cluedo

    return cluedo.Setup.from_json({"edition": "cluedo-uk", "me": players[0], "players": list(players)}, "$")


def _walks_recorded(window, monkeypatch):
    """The Cluedo tab, idle, and a list that gets "order" at each walk of the Tab order."""
    from desktop.tabs import base

    window.select_game("cluedo")
    tab = window.tab_for("cluedo")
    assert wait_idle(window, 60)
    order = []
    real = base.follow_layout
    monkeypatch.setattr(base, "follow_layout", lambda root: order.append("order") or real(root))
    return tab, order


def test_the_tab_order_is_set_in_a_turn_of_its_own(window, monkeypatch):
    """A new game's Tab order (a walk of every control) is set by a timer, not with the events
    the reset posted (its paint among them): Qt 6 runs a 0 ms single shot as a posted event, in
    the same pass as those and before the timers and input due."""
    from PySide6.QtCore import QCoreApplication, QTimer

    tab, order = _walks_recorded(window, monkeypatch)
    tab.reset_document(_cluedo_setup("Me", "Ann", "Bob", "Cy", "Dee", "Eve"), [])
    QTimer.singleShot(0, lambda: order.append("posted"))
    QCoreApplication.sendPostedEvents()
    assert order == ["posted"]
    assert wait_idle(window, 60)
    assert order == ["posted", "order"]


def test_the_tab_order_waits_for_a_files_open_to_end(window, qtbot, monkeypatch):
    """While the worker gate is held (a file's open in its turns), the Tab order's walk is put
    off; it is set once the gate is free."""
    from desktop.tabs.jobs import worker_gate

    tab, order = _walks_recorded(window, monkeypatch)
    hold = worker_gate.hold()
    try:
        tab.reset_document(_cluedo_setup("Me", "Ann", "Bob"), [])
        qtbot.wait(60)
        assert order == []
    finally:
        hold.release()
    qtbot.waitUntil(lambda: order == ["order"], timeout=5000)
