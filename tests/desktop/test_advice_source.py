"""The accuse/wait advice beside a worksheet of another method: after switching Cluedo's method
to the quick estimate, the worksheet's chances are the estimate's while the advice's are counted
over the deals (a triple's chance needs the deals: the estimate gives each card alone); the
advice then says where its figures come from, and they are still the exact count's."""
import re

from window_idle import example_tab, wait_idle

from desktop.games.cluedo.tab import advice_source
from desktop.tabs.wording import DETAILS, PLAIN
from engines.cluedo.accuse import best_triple

WINDOW_GAME = "cluedo"


def _plain(html: str) -> str:
    return re.sub(r"<[^>]+>", "", html).replace("\u00a0", " ")


def test_the_advice_names_its_source_beside_the_quick_estimate(window, qtbot):
    tab, session = example_tab(window, "cluedo")
    assert "worksheet" not in _plain(tab.advice_panel.detail.text())     # exact: one source
    tab.method.setCurrentIndex(tab.method.findData("center"))
    assert wait_idle(window, 90)
    qtbot.waitUntil(lambda: "Quick estimate" in _plain(tab.advice_panel.detail.text()), timeout=60_000)
    text = _plain(tab.advice_panel.detail.text())
    assert "come from the possible deals" in text, text
    # the advice's triple and chance are the exact count's, not the estimate's
    triple, p = best_triple(session.setup, list(session.events))
    assert ", ".join(triple) in text, (triple, text)
    assert f"({round(100 * p)} %)" in text, (p, text)


def test_advice_source_words():
    assert advice_source("exact", PLAIN) == ""
    assert advice_source(None, PLAIN) == ""
    assert "Quick estimate" in advice_source("center", PLAIN)
    assert "Analytical center" in advice_source("center", DETAILS)
