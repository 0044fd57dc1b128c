"""A colour-scheme switch while the window is open (the desktop's ``colorSchemeChanged``, which
desktop.shell.appearance.SchemeFollower follows) recolours text whose colour was chosen for the scheme
when its widget was built (desktop.shell.appearance.scheme_style): dark blue advice on a light window
turns light blue on a dark one, and back."""
import re

import pytest
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QLabel

from desktop.shell.appearance import contrast, muted_style, tone_style

#: The tab the ``window`` fixture shows first (tests/desktop/conftest.py).
WINDOW_GAME = "egghead"


@pytest.fixture
def follower(scheme_follower):
    """A light-scheme follower on the test application (put back afterwards)."""
    return scheme_follower("light")


def _colour(widget) -> QColor:
    return QColor(re.search(r"color:(#[0-9a-fA-F]{6})", widget.styleSheet()).group(1))


def test_scheme_switch_recolours_text_coloured_at_build(qtbot, qapp, follower):
    advice, note = QLabel("Accuse Cy"), QLabel("a note")
    for w in (advice, note):
        qtbot.addWidget(w)
    tone_style(advice, "#0d47a1", "; font-weight:bold")
    muted_style(note)

    def legible() -> bool:
        window = qapp.palette().color(QPalette.Window)
        return min(contrast(_colour(w), window) for w in (advice, note)) >= 4.5

    assert legible() and "font-weight:bold" in advice.styleSheet()
    light_blue = _colour(advice)
    follower.scheme = "dark"
    follower.apply()                      # as the desktop's switch does
    QApplication.processEvents()
    assert qapp.palette().color(QPalette.Window).lightness() < 128
    assert _colour(advice) != light_blue and legible()
    follower.scheme = "light"
    follower.apply()
    assert _colour(advice) == light_blue and legible()


def test_struck_locations_keep_their_contrast_through_a_switch(qtbot, qapp, follower):
    from PySide6.QtCore import Qt

    from desktop.games.spyfall.strikes import StrikeList

    strikes = StrikeList()
    qtbot.addWidget(strikes)
    strikes.set_locations(["Beach", "Casino"], struck=["Casino"])

    def colours():
        items = [strikes.list.item(i) for i in range(2)]
        return [it.data(Qt.ItemDataRole.ForegroundRole) for it in items]

    for scheme in ("dark", "light"):
        follower.scheme = scheme
        follower.apply()
        QApplication.processEvents()
        plain, struck = colours()
        base = strikes.list.palette().color(QPalette.Base)
        assert plain is None                             # the palette's own text colour
        assert contrast(QColor(struck), base) >= 4.5, scheme


def test_scheme_switch_recolours_the_rich_text_of_a_tab(window, qapp, follower):
    """Egghead's "Can I solve now?" line carries its colour in its markup: after a switch the
    tab draws its snapshot again, in the colours of the new palette, and back."""
    from window_idle import wait_idle

    from desktop.shell.appearance import tone
    from engines.core.resources import resource_path
    from engines.core.schema import read_session_file

    window.select_game("egghead")
    tab = window.tab_for("egghead")
    session = read_session_file(str(resource_path("examples", "egghead.json")))
    tab.reset_document(session.setup, list(session.events))
    assert wait_idle(window, 60)

    def toned(colours) -> bool:
        return any(tone(c) in tab.solve_label.text() for c in colours)

    colours = ("#b71c1c", "#1b5e20", "#6d4c00")
    assert toned(colours)
    light = tab.solve_label.text()
    follower.scheme = "dark"
    follower.apply()
    for _ in range(3):
        QApplication.processEvents()
    assert qapp.palette().color(QPalette.Window).lightness() < 128
    assert tab.solve_label.text() != light and toned(colours)
    follower.scheme = "light"
    follower.apply()
    for _ in range(3):
        QApplication.processEvents()
    assert tab.solve_label.text() == light


def test_high_contrast_is_at_least_seven_to_one_and_recolours_the_advice(qtbot, qapp, follower):
    """``--color-scheme high-contrast`` (or the desktop's contrast preference): every text
    colour of the palette at least 7:1 on its background (WCAG 2.1 1.4.6), disabled text 4.5:1,
    and the advice coloured for the scheme stays legible."""
    advice = QLabel("Accuse Cy")
    qtbot.addWidget(advice)
    tone_style(advice, "#0d47a1", "; font-weight:bold")
    follower.scheme = "high-contrast"
    follower.apply()
    QApplication.processEvents()
    p = qapp.palette()
    for fg, bg in ((QPalette.WindowText, QPalette.Window), (QPalette.Text, QPalette.Base),
                   (QPalette.ButtonText, QPalette.Button), (QPalette.HighlightedText, QPalette.Highlight),
                   (QPalette.ToolTipText, QPalette.ToolTipBase), (QPalette.Link, QPalette.Base)):
        assert contrast(p.color(fg), p.color(bg)) >= 7, (fg, bg)
    for role in (QPalette.WindowText, QPalette.Text):
        assert contrast(p.color(QPalette.Disabled, role), p.color(QPalette.Window)) >= 4.5
    assert contrast(_colour(advice), p.color(QPalette.Window)) >= 4.5
    assert follower.wanted() == "high-contrast"
