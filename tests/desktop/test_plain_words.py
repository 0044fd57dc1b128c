"""The words a player reads: with each bundled example open at 1280×800 in the default view, no
visible text carries statistics jargon or a bare Greek parameter (the list below); View → Show
details brings the technical figures back, at once and without computing again."""
import re

import pytest
from plain_words_kit import visible_texts
from PySide6.QtWidgets import QApplication, QTabWidget
from window_idle import wait_idle

from desktop.shell.settings import SHOW_DETAILS
from desktop.tabs.wording import DETAILS, PLAIN, Wording, information_bar, percent
from engines.core.resources import resource_path

GAMES = ("cluedo", "inkognito", "egghead", "guesswho", "spyfall")

#: Words of the statistician, not of the player (case-insensitive; whole words). "deals" only
#: as a sample count ("256 deals)", "sampled deals"): a possible deal of the cards is a player's
#: word.
JARGON = tuple(re.compile(p, re.IGNORECASE) for p in (
    r"\bentropy\b", r"\bbits?\b", r"\bposterior", r"\bmarginal", r"\binterval\b",
    r"likelihood", r"\b\d[\d,]* deals\)", r"\bsampled deals\b", r"\bsamples?\b",
    r"information gain", r"\bwilson\b", r"\bKL\b", r"standard error", r"monte carlo",
    r"factorised", r"dirichlet", r"replications?\b", r"hide-reveal", r"\bP\(", r"\bDP\b",
    r"\bJSON\b", r"cvxpy", r"scipy", r"analytical center", r"\bw = ", r"equilibrium",
    r"\bworlds\b", r"valid stacks", r"\bprior\b",
)) + tuple(re.compile(g) for g in ("ρ", "θ", "ε", "β", "λ", "σ", "μ"))


def jargon_in(texts) -> list:
    """``(where, text, pattern)`` for every text that carries a jargon word."""
    return [(where, text, p.pattern) for where, text in texts for p in JARGON if p.search(text)]


def _open(window, qtbot, game: str) -> None:
    window.resize(1280, 800)
    window.show()
    assert window.open_path(str(resource_path("examples", f"{game}.json")), ask=False)
    window.select_game(game)
    assert wait_idle(window, 120)
    qtbot.wait(100)
    QApplication.processEvents()


#: Side pages left out of the walk: Spyfall's simulation is a study of bot strategies (its
#: stored equilibrium matrix is labelled with the model's λ on purpose: docs/spyfall-equilibrium.md).
STUDY_PAGES = {("spyfall", "Simulation")}


def _every_side_page(window, game):
    """The texts of the window with each page of the tab's side tab widgets shown in turn
    (Cluedo's Who is close? and Board pages are a click away in the default view)."""
    tab = window.tab_for(game)
    texts = list(visible_texts(window))
    for tabs in tab.findChildren(QTabWidget):
        if not tabs.isVisible():
            continue
        first = tabs.currentIndex()
        for i in range(tabs.count()):
            if (game, tabs.tabText(i).replace("&", "")) in STUDY_PAGES:
                continue
            tabs.setCurrentIndex(i)
            assert wait_idle(window, 120)
            QApplication.processEvents()
            texts += visible_texts(tabs)
        tabs.setCurrentIndex(first)
    return texts


@pytest.mark.parametrize("game", GAMES)
def test_default_view_speaks_plain_words_and_details_bring_the_figures(window, qtbot, game):
    assert not window.show_details.isChecked()          # the default view
    _open(window, qtbot, game)
    plain = _every_side_page(window, game)
    assert len(plain) > 30                              # the walk does see the screen
    assert jargon_in(plain) == []
    revision = window.tab_for(game).snapshot.revision
    window.show_details.trigger()                       # View → Show details
    assert SHOW_DETAILS.read() is True                  # remembered
    QApplication.processEvents()
    snap = window.tab_for(game).snapshot
    assert snap.wording == DETAILS and snap.revision == revision   # nothing computed again
    detailed = jargon_in(visible_texts(window))
    assert detailed, "the Details view shows no technical figure"
    window.show_details.trigger()                       # and back, at once
    QApplication.processEvents()
    assert jargon_in(visible_texts(window)) == []
    assert SHOW_DETAILS.read() is False


def test_show_details_is_remembered_for_the_next_start(window, qtbot):
    from desktop.shell.main_window import MainWindow

    window.show_details.trigger()
    assert SHOW_DETAILS.read() is True
    second = MainWindow(autosave=False)        # the next start reads the setting
    qtbot.addWidget(second)
    try:
        assert second.show_details.isChecked()
        assert second.tab_for("egghead").snapshot.wording == DETAILS   # a tab built then
    finally:
        for t in second.game_tabs.values():
            t.shutdown()
    window.show_details.trigger()
    assert SHOW_DETAILS.read() is False and window.current_tab().snapshot.wording == PLAIN

def test_the_words_of_a_figure():
    assert PLAIN.chance(0.09, (0.05, 0.16), 128) == "about 9\u00a0% (between 5 and 16\u00a0%)"
    assert DETAILS.chance(0.09, (0.05, 0.16), 128) == "9\u00a0% (95\u00a0% interval 5–16, 128 deals)"
    assert PLAIN.chance(0.5) == DETAILS.chance(0.5) == "50\u00a0%"
    assert information_bar(1.5, 1.5) == "▮▮▮▮▮"
    assert information_bar(0.0, 1.5) == "▯▯▯▯▯"
    assert information_bar(0.01, 1.5) == "▮▯▯▯▯"          # anything at all shows
    assert information_bar(float("nan"), 1.0) == "—"
    assert DETAILS.information(1.234, 2.0, approximate=True) == "≈1.23 bits"
    assert PLAIN.uncertainty(2.0) == "as open as 4 equally likely answers"
    assert DETAILS.uncertainty(2.0) == "entropy 2.00 bits"
    assert PLAIN.uncertainty(0.0) == "settled"
    assert (percent(0.001), percent(0.999), percent(None)) == ("<1\u00a0%", ">99\u00a0%", "—")
    assert Wording() == PLAIN and Wording(details=True) == DETAILS


def test_the_list_catches_the_old_words():
    old = ["95 % interval 1–6, 256 deals", "Bits", "envelope entropy (bits)", "θ (deception)",
           "Answer error ε", "175,616 worlds publicly possible", "flat hide-reveal",
           "disputed: curly_hair(1/3 yes) posterior: 0.0417", "counting DP", "JSON output",
           "Analytical center (cvxpy)", "3 replications of the study", "w = 1"]
    assert all(jargon_in([("", t)]) for t in old)
    plain = ["about 3 % (between 1 and 6 %)", "Information", "Uncertainty", "666 possible deals",
             "Wrong answers", "reach this turn: 40%", "Accuse now"]
    assert jargon_in([("", t)] for t in []) == [] and not any(jargon_in([("", t)]) for t in plain)


#: A file path or a typed command in a code span is a name, not a word to read.
_PATH_SPAN = re.compile(r"`[^`]*(?:/|\.json|\.md|\.py|python -m)[^`]*`")


def test_guide_pages_speak_plain_words_and_how_it_works_keeps_the_formulas():
    from desktop.shell.guide import HOW_SUFFIX, PAGES, guide_dir

    games = [stem for stem, _ in PAGES if not stem.endswith(HOW_SUFFIX)]
    assert {"cluedo", "egghead", "guesswho", "inkognito", "spyfall"} <= set(games)
    for stem in games:
        text = _PATH_SPAN.sub("", (guide_dir() / f"{stem}.md").read_text(encoding="utf-8"))
        found = jargon_in([(stem, line) for line in text.splitlines()])
        assert found == [], found
        if stem != "index":   # each game links its How it works page, which has the formulas
            assert f"({stem}{HOW_SUFFIX}.md)" in text
            how = (guide_dir() / f"{stem}{HOW_SUFFIX}.md").read_text(encoding="utf-8")
            assert jargon_in([(stem, how)]), f"{stem}{HOW_SUFFIX}.md explains no figure"
    cluedo_how = (guide_dir() / f"cluedo{HOW_SUFFIX}.md").read_text(encoding="utf-8")
    assert "I(E_suspect; O)" in cluedo_how and "counting DP" in cluedo_how
