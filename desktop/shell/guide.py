"""The guide inside the app: Help → Guide (F1) shows the current game's page in a dock.

The pages are the Markdown files of ``resources/guide/`` (the repository links them as
``docs/guide/``), shipped with the package and the bundle, so the guide works offline. A
:class:`QTextBrowser` renders them (Qt's Markdown reader, CommonMark with GitHub tables);
relative links between the pages and the pictures in ``img/`` resolve against the page's own
folder, and a link to anything outside the guide opens in the system's browser.

A page may have translations beside it, ``cluedo.de.md`` for German: the guide shows the page of
the language the app speaks (:func:`engines.core.i18n.language`) when it exists, else the
English one, and a link to another page goes to that page's translation in the same way.

The last page, *Keyboard shortcuts*, is made when it is shown from the window's own actions and
shortcuts (:mod:`desktop.shell.shortcuts`), so it cannot drift from what the keys do.
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

from PySide6.QtCore import Qt, QUrl, Slot
from PySide6.QtGui import QDesktopServices, QTextCursor, QTextDocument
from PySide6.QtWidgets import QComboBox, QDockWidget, QHBoxLayout, QMainWindow, QTextBrowser, QVBoxLayout, QWidget

from engines.core.i18n import DEFAULT_LANGUAGE, LANGUAGES, N_, _, language
from engines.core.resources import resource_path

#: The guide's pages in the order of its page list: (file stem, title). The first is the
#: overview; a game's page has the game's id as its stem.
PAGES: tuple[tuple[str, str], ...] = (
    ("index", N_("Every tab")), ("cluedo", "Cluedo"), ("egghead", "Egghead"),
    ("guesswho", N_("Guess Who?")), ("inkognito", "Inkognito"), ("spyfall", "Spyfall"),
    ("cluedo-how", N_("Cluedo: how it works")), ("egghead-how", N_("Egghead: how it works")),
    ("guesswho-how", N_("Guess Who?: how it works")), ("inkognito-how", N_("Inkognito: how it works")),
    ("spyfall-how", N_("Spyfall: how it works")),
)
#: The suffix of a game's "How it works" page (``cluedo-how.md``): the formulas, methods and
#: studies behind the figures; the game's own page speaks a player's words.
HOW_SUFFIX = "-how"
#: The generated page's key in the page list.
SHORTCUTS_PAGE = "shortcuts"
def guide_dir() -> Path:
    """The folder of the guide's Markdown pages (``resources/guide``)."""
    return resource_path("guide")


def localized(path: Path, lang: Optional[str] = None) -> Path:
    """The translation of the guide page ``path`` into ``lang`` (default: the language in
    effect), ``cluedo.md`` → ``cluedo.de.md`` beside it, when that file exists; else ``path``
    itself. A path that is already a translation (``cluedo.de.md``) is first taken back to its
    English page, so a link from a German page to an English one finds the French page in French."""
    lang = language() if lang is None else lang
    english = english_page(path)
    if lang == DEFAULT_LANGUAGE:
        return english if english.is_file() else path
    translated = english.with_name(f"{english.stem}.{lang}.md")
    if translated.is_file():
        return translated
    return english if english.is_file() else path


def english_page(path: Path) -> Path:
    """The English page a translated guide page belongs to (``index.de.md`` → ``index.md``);
    ``path`` itself when it is not a translation."""
    stem, dot, code = path.stem.rpartition(".")
    if dot and path.suffix == ".md" and code in LANGUAGES:
        return path.with_name(f"{stem}.md")
    return path


def page_path(stem: str) -> Path:
    """The Markdown file of the page ``stem`` in the language in effect (:func:`localized`): a
    game's page as its ``GameInfo`` declares it (:meth:`engines.registry.GameInfo.guide_page_path`;
    a game installed from another package ships its own), else the guide's own page of that
    name, else the overview."""
    from engines.registry import known_games

    info = known_games().get(stem)
    declared = info.guide_page_path() if info is not None else None
    if declared is not None:
        return localized(declared)
    path = guide_dir() / f"{stem}.md"
    return localized(path if path.is_file() else guide_dir() / "index.md")


class GuideBrowser(QTextBrowser):
    """A :class:`QTextBrowser` that reads the guide's ``.md`` files as Markdown and opens
    links outside the guide in the system's browser."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setOpenLinks(False)
        self.setObjectName("guideBrowser")
        self.anchorClicked.connect(self._follow)

    def show_page(self, path: Path, fragment: str = "") -> None:
        """Show the Markdown file ``path`` (scrolled to ``fragment`` when given)."""
        url = QUrl.fromLocalFile(str(path))
        if fragment:
            url.setFragment(fragment)
        self.setSource(url, QTextDocument.ResourceType.MarkdownResource)
        self.fit_images()

    def fit_images(self) -> None:
        """Scale every picture of the page down to the width the browser has (Qt draws a
        Markdown image at its natural size, a 1280-pixel screenshot past the dock's edge)."""
        room = max(120, self.viewport().width() - 24)
        doc = self.document()
        block = doc.begin()
        while block.isValid():
            it = block.begin()
            while not it.atEnd():
                fragment = it.fragment()
                fmt = fragment.charFormat()
                if fragment.isValid() and fmt.isImageFormat():
                    image_format = fmt.toImageFormat()
                    image = doc.resource(QTextDocument.ResourceType.ImageResource.value,
                                         QUrl(image_format.name()))
                    size = getattr(image, "size", lambda: None)()
                    if size is not None and size.width() > 0:
                        width = min(room, size.width())
                        image_format.setWidth(width)
                        image_format.setHeight(size.height() * width / size.width())
                        cursor = QTextCursor(doc)
                        cursor.setPosition(fragment.position())
                        cursor.setPosition(fragment.position() + fragment.length(),
                                           QTextCursor.MoveMode.KeepAnchor)
                        cursor.setCharFormat(image_format)
                it += 1
            block = block.next()

    def resizeEvent(self, event) -> None:   # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        self.fit_images()

    @Slot(QUrl)
    def _follow(self, url: QUrl) -> None:
        if url.isRelative() or url.isLocalFile():
            target = self.source().resolved(url) if url.isRelative() else url
            path = Path(target.toLocalFile())
            if path.suffix == ".md" and (path.is_file() or english_page(path).is_file()):
                self.show_page(localized(path), target.fragment())
                return
            if not url.path() and url.fragment():   # an anchor on this page
                self.scrollToAnchor(url.fragment())
                return
        QDesktopServices.openUrl(url)


class GuideDock(QDockWidget):
    """The guide as a dock of the main window: a page list and the page.

    :meth:`show_for_game` shows a game's page (the overview for a game without one).
    """

    def __init__(self, window: QMainWindow):
        super().__init__(_("Guide"), window)
        self.setObjectName("guideDock")
        self._window = window
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(4, 4, 4, 4)
        bar = QHBoxLayout()
        self.pages = QComboBox()
        self.pages.setObjectName("guidePages")
        for stem, title in PAGES:
            self.pages.addItem(_(title), stem)
        self.pages.addItem(_("Keyboard shortcuts"), SHORTCUTS_PAGE)
        self.pages.activated.connect(self._page_chosen)
        bar.addWidget(self.pages, 1)
        layout.addLayout(bar)
        self.browser = GuideBrowser()
        layout.addWidget(self.browser, 1)
        self.setWidget(body)
        self.setAllowedAreas(Qt.DockWidgetArea.RightDockWidgetArea
                             | Qt.DockWidgetArea.LeftDockWidgetArea)

    def show_page(self, stem: str) -> None:
        """Show the page ``stem`` (a game id, ``"index"`` or :data:`SHORTCUTS_PAGE`)."""
        if self.isFloating() and not self.isVisible():
            self._place()
        i = self.pages.findData(stem)
        if stem == SHORTCUTS_PAGE:
            from desktop.shell.shortcuts import shortcuts_html
            self.browser.setHtml("<h1>" + _("Keyboard shortcuts") + "</h1><p>"
                                 + _("Made from the window's own actions, so every key listed works.")
                                 + "</p>" + shortcuts_html(self._window))
        else:
            path = page_path(stem)
            self.browser.show_page(path)
            if i < 0 and path.parent != guide_dir():     # an installed game's own page
                from engines.registry import known_games

                self.pages.insertItem(self.pages.count() - 1, known_games()[stem].title, stem)
                i = self.pages.findData(stem)
            if i < 0:
                i = self.pages.findData("index")
        self.pages.setCurrentIndex(max(i, 0))
        self.show()
        self.raise_()

    def show_for_game(self, game: Optional[str]) -> None:
        """Show ``game``'s page, or the overview when ``game`` is None."""
        self.show_page(game or "index")

    def _place(self) -> None:
        """Size the floating guide to a readable column inside the window's screen, over the
        window's right part."""
        screen = (self._window.screen() or self.screen()).availableGeometry()
        width = min(560, max(360, screen.width() // 3))
        height = min(screen.height() - 80, max(480, self._window.height() - 80))
        frame = self._window.frameGeometry()
        x = min(frame.right() - width - 20, screen.right() - width - 10)
        y = max(screen.top() + 40, frame.top() + 60)
        self.setGeometry(max(screen.left(), x), y, width, height)

    @Slot(int)
    def _page_chosen(self, index: int) -> None:
        self.show_page(self.pages.itemData(index))


def guide_dock(window: QMainWindow) -> GuideDock:
    """The guide dock of ``window``, made (hidden, floating, right-hand area) on the first call."""
    dock = window.findChild(GuideDock, "guideDock", Qt.FindChildOption.FindDirectChildrenOnly)
    if dock is None:
        dock = GuideDock(window)
        window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
        dock.setFloating(True)
        dock.hide()
    return dock
