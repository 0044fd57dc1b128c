"""The guide inside the app (desktop/shell/guide.py): F1 shows the current game's page, links and
pictures resolve, and the shortcut page lists every key the window's actions have."""
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence

from desktop.shell.guide import PAGES, SHORTCUTS_PAGE, guide_dir, page_path
from desktop.shell.shortcuts import WIDGET_KEYS, shortcut_rows


def test_every_page_exists_and_names_its_game():
    for stem, title in PAGES:
        path = guide_dir() / f"{stem}.md"
        assert path.is_file(), path
        first = path.read_text(encoding="utf-8").splitlines()[0]
        assert first.startswith("# ") and (stem == "index" or title in first), (stem, first)
    # a game installed from another package has no page: the overview stands in
    assert page_path("no-such-game").name == "index.md"


def test_f1_shows_the_current_games_page(window, qtbot):
    window.tabs.setCurrentWidget(window._pages["egghead"])
    qtbot.keyClick(window, Qt.Key.Key_F1)
    dock = window.guide_dock
    qtbot.waitUntil(dock.isVisible, timeout=5000)
    text = dock.browser.toPlainText()
    assert "Egghead at the table" in text
    assert "reactions: B, C" in text            # the page's quick-entry table
    assert dock.pages.currentData() == "egghead"
    # its picture is found (Qt draws a missing image as an empty box without saying so)
    doc = dock.browser.document()
    image = doc.resource(doc.ResourceType.ImageResource.value,
                         dock.browser.source().resolved("img/egghead.png"))
    assert image is not None and not image.isNull()
    # a relative link to another page of the guide opens that page in the dock
    dock.browser.anchorClicked.emit(dock.browser.source().resolved("index.md"))
    assert "Every tab works the same way" in dock.browser.toPlainText()


def test_shortcut_page_lists_every_action_shortcut(window):
    rows = shortcut_rows(window)
    keys = {k for k, _ in rows}
    native = QKeySequence.SequenceFormat.NativeText
    for name in ("Save", "Open", "Undo"):   # (Quit has no key on some platforms)
        assert any(name in what for _, what in rows), name
    assert any(QKeySequence(QKeySequence.StandardKey.HelpContents).toString(native) in k for k in keys)
    assert any(QKeySequence("Ctrl+2").toString(native) in k for k in keys)   # switching tabs
    for k, _ in WIDGET_KEYS:
        assert k in keys
    # every shortcut of every menu action is listed, so the page cannot drift from the menus
    for top in window.menuBar().actions():
        for act in top.menu().actions():
            if act.menu() is None and not act.shortcut().isEmpty():
                assert act.shortcut().toString(native) in " ".join(keys), act.text()
    # quick entry's keys are shortcuts, not actions: listed too
    assert any("Ctrl+L" in k for k in keys)
    window.guide_dock.show_page(SHORTCUTS_PAGE)
    assert "Keyboard shortcuts" in window.guide_dock.browser.toPlainText()


def test_the_guide_speaks_the_chosen_language():
    """With German chosen the guide shows the German overview and Cluedo pages, a link to a page
    with a translation goes to the translation (else the English page), and every link of every
    translated page resolves to a file of the guide."""
    import re

    from desktop.shell.guide import english_page, localized
    from engines.core.i18n import language, set_language

    before = language()
    try:
        set_language("de")
        assert page_path("index").name == "index.de.md"
        assert page_path("cluedo").name == "cluedo.de.md"
        assert page_path("cluedo-how").name == "cluedo-how.de.md"
        assert page_path("egghead").name == "egghead.md"            # no German page yet
        assert localized(guide_dir() / "cluedo.fr.md").name == "cluedo.de.md"
        set_language("fr")
        assert page_path("index").name == "index.fr.md"
        assert page_path("cluedo").name == "cluedo.fr.md"
        set_language("en")
        assert page_path("cluedo").name == "cluedo.md"
    finally:
        set_language(before)
    translated = sorted(p for p in guide_dir().glob("*.*.md"))
    assert {p.name for p in translated} >= {f"{s}.{lang}.md" for s in ("index", "cluedo", "cluedo-how")
                                             for lang in ("de", "fr")}
    for page in translated:
        english = english_page(page)
        assert english.is_file() and english != page, page
        text = page.read_text(encoding="utf-8")
        links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text)
        assert links, page
        lang = page.stem.rsplit(".", 1)[1]
        for link in links:
            if "://" in link:
                continue
            target = (page.parent / link).resolve()
            assert target.is_file(), (page.name, link)
            # a link to another page goes to that page in the same language when it exists
            if target.suffix == ".md":
                assert target == localized(target, lang), (page.name, link)
        # the same pictures as the English page
        assert re.findall(r"!\[[^]]*\]\(([^)]+)\)", text) == \
            re.findall(r"!\[[^]]*\]\(([^)]+)\)", english.read_text(encoding="utf-8")), page


def test_the_guide_browser_follows_links_to_the_same_language(qtbot):
    """In German the browser shows the German overview, and a link to the English Cluedo page
    (as the English pages write it) opens the German one."""
    from desktop.shell.guide import GuideBrowser
    from engines.core.i18n import language, set_language

    before = language()
    browser = GuideBrowser()
    qtbot.addWidget(browser)
    try:
        set_language("de")
        browser.show_page(page_path("index"))
        assert "Jeder Tab funktioniert gleich" in browser.toPlainText()
        browser.anchorClicked.emit(browser.source().resolved("cluedo.md"))
        assert browser.source().fileName() == "cluedo.de.md"
        assert "Cluedo am Tisch" in browser.toPlainText()
        browser.anchorClicked.emit(browser.source().resolved("egghead.md"))   # no German page
        assert browser.source().fileName() == "egghead.md"
    finally:
        set_language(before)
