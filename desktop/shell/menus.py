"""The main window's menus and actions: File, Edit (undo/redo of the tab shown), View (panels,
tabs), Help (the guide, :mod:`desktop.shell.guide`; About) — a mixin of
:class:`desktop.shell.main_window.MainWindow`."""
from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from PySide6.QtGui import QAction, QKeySequence

import desktop
from desktop.shell.settings import APP_NAME, LANGUAGE, SHOW_DETAILS
from engines.core.i18n import _

if TYPE_CHECKING:
    from desktop.tabs.wording import Wording


class MenuActions:
    """Menus of :class:`desktop.shell.main_window.MainWindow` (its ``undo_group``, ``_pages``, ``tabs`` and
    the file actions of :class:`desktop.shell.file_actions.FileActions`)."""

    @property
    def guide_dock(self):
        """The guide dock (:class:`desktop.shell.guide.GuideDock`), made on first use."""
        from desktop.shell.guide import guide_dock

        return guide_dock(self)

    def _action(self, menu, text, slot, shortcut=None, tip=None) -> QAction:
        act = QAction(text, self)
        if shortcut is not None:
            # setShortcuts([…]) rather than setShortcut(…), the same for one key: PySide's
            # overload check of setShortcut creates the Qt namespace's enums (about 14 ms), which
            # the first frame does without (tests/desktop/test_startup.py)
            keys = shortcut if isinstance(shortcut, (list, tuple)) else [shortcut]
            act.setShortcuts([QKeySequence(s) for s in keys])
        if tip:
            act.setStatusTip(tip)
        act.triggered.connect(slot)
        menu.addAction(act)
        return act

    def _rebuild_examples(self) -> None:
        """File → Open Example: one entry per game that ships an example session."""
        from engines.registry import registered_games

        self.examples_menu.clear()
        for game, info in registered_games().items():
            if game in self.games() and info.example_session_path() is not None:
                self._action(self.examples_menu, _(info.title), functools.partial(self.open_example, game),
                             tip=_("A short {game} game to look around in (opened untitled: "
                                   "saving asks where)").format(game=_(info.title)))

    def _build_menus(self) -> None:
        mb = self.menuBar()
        f = mb.addMenu(_("&File"))
        self._action(f, _("&New game…"), self.new_game, QKeySequence.New,
                     _("Start a new game in this tab"))
        self._action(f, _("&Open…"), self.open_dialog, QKeySequence.Open)
        self.recent_menu = f.addMenu(_("Open &Recent"))
        self._rebuild_recent()
        self.examples_menu = f.addMenu(_("Open &Example"))
        # filled when opened: the installed packages' games are known after the first frame
        self.examples_menu.aboutToShow.connect(self._rebuild_examples)
        f.addSeparator()
        self._action(f, _("&Save"), self.save, QKeySequence.Save)
        self._action(f, _("Save &As…"), self.save_as, QKeySequence.SaveAs)
        f.addSeparator()
        self._action(f, _("Export history as &CSV…"), self.export_csv)
        self._action(f, _("Export session as &JSON…"), self.export_json)
        f.addSeparator()
        self._action(f, _("&Quit"), self.close, QKeySequence.Quit)

        e = mb.addMenu(_("&Edit"))
        undo = self.undo_group.createUndoAction(self, _("&Undo"))
        undo.setShortcuts([QKeySequence("Ctrl+Z")])
        redo = self.undo_group.createRedoAction(self, _("&Redo"))
        redo.setShortcuts([QKeySequence("Ctrl+Y"), QKeySequence("Ctrl+Shift+Z")])
        e.addAction(undo)
        e.addAction(redo)
        self.undo_action, self.redo_action = undo, redo

        v = mb.addMenu(_("&View"))
        self.show_history = self._action(v, _("Show &history"), self._toggle_panels)
        self.show_history.setCheckable(True)
        self.show_history.setChecked(True)
        self.show_plot = self._action(v, _("Show belief &plot"), self._toggle_panels)
        self.show_plot.setCheckable(True)
        self.show_plot.setChecked(True)
        self.show_details = self._action(
            v, _("Show &details"), self._toggle_details,
            tip=_("Show the technical figures behind the plain words: intervals and sample counts, "
                  "bits, model parameters and their symbols"))
        self.show_details.setCheckable(True)
        self.show_details.setChecked(bool(SHOW_DETAILS.read()))
        self._build_language_menu(v)
        v.addSeparator()
        self.view_menu = v
        for page in self._pages.values():
            self.add_tab_action(page)

        h = mb.addMenu(_("&Help"))
        self._build_guide_actions(h)
        self._action(h, _("&About Deduction Desk"), self.show_about)

    def _build_guide_actions(self, help_menu) -> None:
        """Help → Guide (F1) and Help → Keyboard shortcuts. The guide's module and its dock
        (:mod:`desktop.shell.guide`: QTextBrowser, the page list) are imported and made on their
        first use, not before the first window."""
        self._action(help_menu, _("&Guide"), self._show_guide,
                             QKeySequence.StandardKey.HelpContents, _("The guide to the game on screen"))
        self._action(help_menu, _("&Keyboard shortcuts"), self._show_shortcuts)

    def _show_guide(self, *_args) -> None:
        self.guide_dock.show_for_game(getattr(self.tabs.currentWidget(), "game", None))

    def _show_shortcuts(self, *_args) -> None:
        from desktop.shell.guide import SHORTCUTS_PAGE

        self.guide_dock.show_page(SHORTCUTS_PAGE)

    def _build_language_menu(self, view) -> None:
        """View → Language: System, English, Deutsch, Français (the setting
        :data:`desktop.shell.settings.LANGUAGE`, applied at the next start:
        :mod:`desktop.shell.language`)."""
        from PySide6.QtGui import QActionGroup

        from desktop.shell.language import language_choices

        menu = view.addMenu(_("&Language"))
        group = QActionGroup(self)
        group.setExclusive(True)
        stored = LANGUAGE.read()
        self.language_actions = {}
        for code, label in language_choices():
            act = QAction(label, self)
            act.setCheckable(True)
            act.setChecked(code == stored)
            act.triggered.connect(lambda _checked=False, c=code: self.choose_language(c))
            group.addAction(act)
            menu.addAction(act)
            self.language_actions[code] = act
        self.language_menu = menu

    def choose_language(self, code: str, *, ask: bool = True) -> None:
        """View → Language → ``code`` (``""``: the system's): stored for the next start; the
        window says so and offers to restart now (``ask``; the text already shown is not
        translated again)."""
        if code == LANGUAGE.read():
            return
        LANGUAGE.write(code)
        if code in self.language_actions:
            self.language_actions[code].setChecked(True)
        if not ask or not getattr(self, "interactive", True):
            return
        from PySide6.QtWidgets import QMessageBox

        box = QMessageBox(QMessageBox.Information, _("Language"),
                          _("The new language takes effect when you restart Deduction Desk."), parent=self)
        box.setInformativeText(_("Restart now? Your games are kept and reopened."))
        restart = box.addButton(_("&Restart now"), QMessageBox.AcceptRole)
        box.addButton(_("&Later"), QMessageBox.RejectRole)
        box.setDefaultButton(restart)
        box.exec()
        if box.clickedButton() is restart:
            self.restart_requested = True
            if not self.close():
                self.restart_requested = False

    def add_tab_action(self, page) -> QAction:
        """View → the game of ``page`` (Ctrl+1 … Ctrl+9 for the first nine tabs)."""
        i = self.tabs.indexOf(page)
        return self._action(self.view_menu, page.title,
                            lambda _=False, p=page: self.tabs.setCurrentWidget(p),
                            f"Ctrl+{i + 1}" if i < 9 else None)

    def _toggle_panels(self) -> None:
        for tab in self.game_tabs.values():
            tab.history.setVisible(self.show_history.isChecked())
            tab.plot.setVisible(self.show_plot.isChecked())

    def wording(self) -> Wording:
        """The wording View → Show details asks for (:mod:`desktop.tabs.wording`)."""
        from desktop.tabs.wording import DETAILS, PLAIN  # with the first tab, not before

        return DETAILS if self.show_details.isChecked() else PLAIN

    def set_details(self, on: bool, *, remember: bool = True) -> None:
        """Show the Details view (``on``) or the plain words, as View → Show details does
        (``remember``: stored for the next start)."""
        self.show_details.setChecked(bool(on))
        self._toggle_details(remember=remember)

    def _toggle_details(self, *_args, remember: bool = True) -> None:
        """View → Show details: remembered, and every built tab worded again at once (its
        controller publishes the moment with the new wording; nothing is computed again)."""
        if remember:
            SHOW_DETAILS.write(self.show_details.isChecked())
        for tab in self.game_tabs.values():
            tab.controller.set_wording(self.wording())

    def show_about(self) -> None:
        from PySide6.QtWidgets import QMessageBox

        QMessageBox.about(self, _("About {app}").format(app=APP_NAME),
                          f"<h3>{APP_NAME} {desktop.__version__}</h3><p>"
                          + _("Exact deduction at the game table: Cluedo, Inkognito, Egghead, "
                              "Guess Who? and Spyfall.")
                          + "</p><p>"
                          + _("Every probability shown is computed from what you logged, in a "
                              "background thread.")
                          + "</p>")
