"""The contradiction banner leads with the corrections the engine's diagnosis found
(desktop/tabs/diagnosis.py): Egghead's mistyped first answer is named with the answer that
fits, as a link that selects the entry in History."""
import re

from test_entry_fix import egghead_fix_and_remove
from window_idle import wait_idle

from engines import egghead
from engines.core.resources import resource_path
from engines.core.schema import read_session_file

#: The tab the ``window`` fixture shows first (tests/desktop/conftest.py).
WINDOW_GAME = "egghead"


def test_egghead_banner_names_the_mistyped_answer(window, qtbot):
    data = read_session_file(str(resource_path("examples", "egghead.json")))
    events = [egghead.Answer(question="missing", answer=1)] + list(data.events[1:])
    window.select_game("egghead")
    tab = window.tab_for("egghead")
    tab.reset_document(data.setup, events)
    assert wait_idle(window, 60)
    qtbot.waitUntil(lambda: "Probably mistyped" in tab.banner.message(), timeout=30000)
    text = tab.banner.message()
    assert re.search(r"href='entry:0'>#1</a> \(the answer 0 fits — <a href='fix:0:", text), text
    assert "cannot" in text                      # the conflict is still named after them
    tab.banner.label.linkActivated.emit("entry:0")
    assert tab.history.current_entry() == 1
    assert re.search(r"href='remove:1'>Remove…</a>", text), text
    # Fix… and Remove… open the form and the preview (tests/desktop/test_entry_fix.py)
    tab.history.select_live()
    egghead_fix_and_remove(window, qtbot, tab, data, events)


def test_banner_text_without_corrections():
    from desktop.tabs.diagnosis import diagnosis_html
    from engines.core.diagnosis import Diagnosis
    d = Diagnosis(1, (0, 1), (), ((0, 2), (1, 2)), True)
    text = diagnosis_html(d, lambda i: f"entry {i}")
    assert "No single entry" in text and "entry:2" in text
    d = Diagnosis(1, (0, 1), (), (), False)
    assert "within the time limit" in diagnosis_html(d, lambda i: f"entry {i}")
