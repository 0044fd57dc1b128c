"""The main window's file actions: New, Open (in the background), Open Recent, Save, Save As,
the exports, and the questions about unsaved games (a mixin of :class:`desktop.shell.main_window.MainWindow`).

Every path goes through the session layer (:mod:`desktop.storage.document`: QSaveFile, the schema
check); a bad file or a failed write shows a message naming the file and what is wrong, and
changes nothing.
"""
from __future__ import annotations

import functools
import html
import logging
import os
import sys

from PySide6.QtCore import QTimer, Slot

from desktop.shell.settings import LAST_FOLDER, RECENT_FILES
from engines.core.i18n import _, ngettext

log = logging.getLogger(__name__)

#: Milliseconds between the turns of showing an opened session (a timer of 0 ms may run in the
#: same pass of the event loop as the turn before it, with nothing painted or answered between).
TURN_MS = 5
#: Entries of File → Open Recent.
MAX_RECENT = 8


def plain_text_html(text: str) -> str:
    """``text`` as rich text that shows it literally: message boxes guess the format, so a file
    or player name such as ``<img src=…>`` would otherwise be drawn as HTML."""
    return "<p>" + html.escape(text, quote=False).replace("\n", "<br>") + "</p>"


def ask_unsaved(parent, entries) -> str:
    """:func:`desktop.shell.unsaved_dialog.ask_unsaved` (Save all / Discard all / Cancel),
    imported when first asked: the first frame does not need the dialog's classes."""
    from desktop.shell.unsaved_dialog import ask_unsaved as ask

    return ask(parent, entries)


def _read_session_job(path: str, _task) -> object:
    """Read and check a session file (a pool job; see FileActions.open_path_in_background);
    ``(SessionData, DiskStamp or None)``."""
    from desktop.storage import document as session

    return session.open_session_file_stamped(path)


def _stamp(path: str):
    """The file's :class:`desktop.storage.document.DiskStamp` now (None when it cannot be read)."""
    from desktop.storage.document import disk_stamp

    try:
        return disk_stamp(path)
    except OSError:
        return None


class FileActions:
    """File menu actions of :class:`desktop.shell.main_window.MainWindow` (which provides
    ``tab_for``, ``build_tab_in_turns``, ``off_screen_steps``, ``paint_next_turn``,
    ``current_tab``, ``select_game``, ``interactive``, ``recent_menu`` and the hand-off of
    :class:`desktop.storage.window_autosave.RecoveryWiring`)."""

    _file_reader = None
    _pending_open = None

    def recent_files(self) -> list[str]:
        """The recent session files, newest first."""
        return RECENT_FILES.read()

    def _add_recent(self, path: str) -> None:
        path = os.path.abspath(path)
        files = [path] + [p for p in self.recent_files() if p != path]
        RECENT_FILES.write(files[:MAX_RECENT])
        self._rebuild_recent()

    def _rebuild_recent(self) -> None:
        self.recent_menu.clear()
        files = self.recent_files()
        for p in files:
            act = self.recent_menu.addAction(os.path.basename(p))
            act.setToolTip(p)
            act.triggered.connect(lambda _=False, path=p: self.open_path_in_background(path))
        self.recent_menu.setEnabled(bool(files))

    def new_game(self) -> None:
        tab = self.current_tab()
        if tab is not None and self._maybe_save(tab):
            tab.new_game()

    def dialog_path(self, name: str = "") -> str:
        """Where a file dialog opens: ``name`` in the folder last used to open, save or export
        (:data:`desktop.shell.settings.LAST_FOLDER`), else in the user's documents folder
        (``QStandardPaths.DocumentsLocation``) when it exists, else in the home folder; never
        the folder the app was started from. (A documents folder that does not exist opened the
        Open dialog in the home folder with "Documents" typed as the file's name.)"""
        from PySide6.QtCore import QStandardPaths

        folder = LAST_FOLDER.read()
        if not folder or not os.path.isdir(folder):
            folder = QStandardPaths.writableLocation(QStandardPaths.DocumentsLocation)
            if not folder or not os.path.isdir(folder):
                folder = os.path.expanduser("~")
        return os.path.join(folder, name) if name else folder

    @staticmethod
    def remember_folder(path: str) -> None:
        """Keep the folder of ``path`` (chosen in a file dialog) for the next dialog."""
        LAST_FOLDER.write(os.path.dirname(os.path.abspath(path)))

    def open_dialog(self) -> None:
        from PySide6.QtWidgets import QFileDialog

        path, _filter = QFileDialog.getOpenFileName(self, _("Open session"), self.dialog_path(),
                                                    _("Session files (*.json);;All files (*)"))
        if path:
            self.remember_folder(path)
            self.open_path_in_background(path)

    def open_path(self, path: str, *, ask: bool = True) -> bool:
        """Open a session file into its game's tab (built if it was not), reading it on this
        thread (scripts, tests, the screenshot mode; the menus use
        :meth:`open_path_in_background`). A bad file shows a message, changes nothing.
        Returns True when the session was opened."""
        from desktop.storage.document import open_session_file_stamped
        from engines.core.errors import SessionFormatError

        if self.hand_off_if_open_elsewhere(path):
            return False
        try:
            data, stamp = open_session_file_stamped(path)
        except SessionFormatError as exc:
            self._error(_("Cannot open the session"), str(exc))
            return False
        return self._show_opened(path, data, ask, stamp)

    def open_path_in_background(self, path: str, *, ask: bool = True) -> None:
        """Open a session file as :meth:`open_path` does, with the file read and checked on a
        pool thread: the largest logs take a few hundred ms to parse, which the window spends
        responsive (the status bar says what is being opened). The tab shows the session when
        the reading is done; a bad file gets the same message. Of several opens in a row, the
        newest wins."""
        if self.hand_off_if_open_elsewhere(path):
            return
        self._pending_open = (path, ask)
        self.statusBar().showMessage(_("Opening {name}…").format(name=os.path.basename(path)))
        self.file_reader.submit(functools.partial(_read_session_job, path))

    @property
    def file_reader(self):
        """The runner that reads session files in the background (made on first use)."""
        if self._file_reader is None:
            from desktop.tabs.jobs import JobRunner

            self._file_reader = JobRunner(self, "open")
            self._file_reader.resultReady.connect(self._on_file_read)
            self._file_reader.failed.connect(self._on_file_read_failed)
        return self._file_reader

    @Slot(int, object, float)
    def _on_file_read(self, _revision: int, result, _seconds: float) -> None:
        self.statusBar().clearMessage()
        data, stamp = result if isinstance(result, tuple) else (result, None)
        self._show_opened_in_turns(self._pending_open, data, stamp)

    def _show_opened_in_turns(self, pending: tuple, data, stamp) -> None:
        """:meth:`_show_opened` in turns of the event loop — the tab built, a part per turn, if
        it was not; the session into its tab (its paint in the turn after when the tab is in
        front); the tab laid out and drawn off screen, a part per
        turn, if it is not in front (``off_screen_steps``); the tab to the front, its first
        paint in the turn after (``paint_next_turn``); the recent files and title — with
        the background jobs paused
        meanwhile (:data:`desktop.tabs.jobs.worker_gate`), so that the window keeps answering
        while a long log's views are made and its tab is painted: each turn of the 100-event
        Inkognito file took 30-60 ms, the three together 87-101 ms
        (tests/benchmarks/bench_open_stall.py). The open counts as pending (:meth:`is_idle`)
        until the last turn (``pending``: its ``(path, ask)``; a newer open replaces it)."""
        from desktop.tabs.jobs import worker_gate

        path, ask = pending
        hold = worker_gate.hold()

        def done(opened: bool) -> None:
            if self._pending_open is pending:
                self._pending_open = None
            if opened:
                self._remember_opened(path)
            QTimer.singleShot(TURN_MS, self, lambda: hold.release())   # after the first paint

        def in_front() -> bool:
            return self.tabs.currentWidget() is self._pages.get(data.game)

        def to_front() -> None:
            behind = not in_front()
            self.select_game(data.game)
            if behind:
                self.paint_next_turn()      # the page's first paint in a turn of its own
            QTimer.singleShot(TURN_MS, self, lambda: done(True))

        def prepare(steps: list) -> None:
            if steps:
                steps.pop(0)()
            QTimer.singleShot(TURN_MS, self, (lambda: prepare(steps)) if steps else to_front)

        def load() -> None:
            if in_front():
                # the tab in front, painted anew after the load in a turn of its own: the
                # largest Spyfall table's load (25-36 ms) and its paint (20-27 ms) were one turn
                self.paint_next_turn()
            if not self._load_opened(path, data, ask, stamp):
                done(False)
                return
            QTimer.singleShot(TURN_MS, self, lambda: prepare(self.off_screen_steps(data.game)))

        if data.game not in self.game_tabs:
            # the game's tab built a part per turn (80-130 ms of the GUI thread in all), the
            # session put in it in the turn after
            self.build_tab_in_turns(data.game, lambda: QTimer.singleShot(TURN_MS, self, load))
        else:
            load()

    @Slot(int, object)
    def _on_file_read_failed(self, _revision: int, exc) -> None:
        self._pending_open = None
        self.statusBar().clearMessage()
        self._error(_("Cannot open the session"), str(exc))

    def open_example(self, game: str) -> bool:
        """File → Open Example: ``game``'s example session (its
        :meth:`engines.registry.GameInfo.example_session_path`) in its tab, untitled, so that
        saving asks where and the installed example is never written over. False when the game
        has no example, its file cannot be read, or the user kept the unsaved game."""
        from engines.core.errors import SessionFormatError
        from engines.core.schema import read_session_file
        from engines.registry import registered_games

        info = registered_games().get(game)
        path = info.example_session_path() if info is not None else None
        tab = self.tab_for(game) if path is not None else None
        if tab is None:
            return False
        try:
            data = read_session_file(str(path))
        except (OSError, SessionFormatError) as exc:
            self._error(_("Cannot open the example"), str(getattr(exc, "message", exc)))
            return False
        if not self._maybe_save(tab):
            return False
        tab.load_session(data, None)
        tab.controller.document.disk_stamp = None      # no file of its own: Save asks where
        self.select_game(game)
        self._update_title()
        self.statusBar().showMessage(_("Opened the {game} example (untitled)").format(game=_(info.title)), 4000)
        return True

    def _show_opened(self, path: str, data, ask: bool, stamp=None) -> bool:
        """Load a read session into its game's tab and bring the tab to the front (False: no
        such tab, or the user kept the unsaved game)."""
        if not self._load_opened(path, data, ask, stamp):
            return False
        self.select_game(data.game)
        self._remember_opened(path)
        return True

    def _load_opened(self, path: str, data, ask: bool, stamp) -> bool:
        """A read session into its game's tab, the tab left where it is (False: no such tab, or
        the user kept the unsaved game)."""
        tab = self.tab_for(data.game)
        if tab is None:
            self._error(_("Cannot open the session"),
                        _("{path}: this build has no {game} tab").format(path=path, game=data.game))
            return False
        if ask and not self._maybe_save(tab):
            return False
        tab.load_session(data, os.path.abspath(path))
        tab.controller.document.disk_stamp = stamp     # what Save checks the file against
        log.info("opened %s (%s, %d entries)", path, data.game, len(data.events))
        return True

    def _remember_opened(self, path: str) -> None:
        """An opened session's file in Open Recent and the window's title."""
        self._add_recent(path)
        self._update_title()

    def save(self) -> bool:
        tab = self.current_tab()
        if tab is None:
            return False
        if not tab.controller.document.path:
            return self.save_as()
        return self._save_to(tab, tab.controller.document.path)

    def save_as(self) -> bool:
        tab = self.current_tab()
        if tab is None:
            return False
        from PySide6.QtWidgets import QFileDialog

        start = tab.controller.document.path or self.dialog_path(f"{tab.GAME}.json")
        path, _filter = QFileDialog.getSaveFileName(self, _("Save session"), start,
                                                    _("Session files (*.json)"))
        if not path:
            return False
        self.remember_folder(path)
        if not path.endswith(".json"):
            path += ".json"
        return self._save_to(tab, path)

    def _save_to(self, tab, path: str, *, overwrite: bool = False) -> bool:
        doc = tab.controller.document
        if not overwrite and doc.path and os.path.realpath(path) == os.path.realpath(doc.path) \
                and doc.disk_stamp is not None:
            now = _stamp(path)
            if now is not None and now.sha256 != doc.disk_stamp.sha256:
                return self._save_conflict(tab, path)
        try:   # never over a file another window has open (its lock is taken first)
            with self.autosave.write_target(path):
                tab.controller.document.save(path)
        except OSError as exc:
            self._error(_("Cannot save"), str(exc))
            return False
        log.info("saved %s", path)
        self._add_recent(path)
        self.statusBar().showMessage(_("Saved {path}").format(path=path), 4000)
        self._update_title()
        return True

    def _save_conflict(self, tab, path: str) -> bool:
        """Save found ``path`` changed on disk since this window read or wrote it (another
        program or window wrote it): never overwrite it silently. Offer Reload (open the file
        as it is now; this window's version is kept as a file in ``recovery/set-aside/``),
        Save as… and Overwrite, naming the entries the other writer added
        (:func:`conflict_text`). True when the game was saved."""
        text = conflict_text(tab.controller.document, path)
        log.warning("save conflict: %s", text)
        choice = self.ask_save_conflict(tab, text)
        if choice == "overwrite":
            return self._save_to(tab, path, overwrite=True)
        if choice == "save_as":
            return self.save_as()
        if choice == "reload":
            kept = set_aside_document(tab.controller.document)
            if not self.open_path(path, ask=False):
                return False
            if kept:
                self.statusBar().showMessage(_("Reloaded {path}; this window's version was kept "
                                               "as {kept}").format(path=path, kept=kept), 12000)
        return False

    def ask_save_conflict(self, tab, text: str) -> str:
        """Ask what to do about a file changed by another writer: ``"reload"``,
        ``"save_as"``, ``"overwrite"`` or ``"cancel"`` (without a user: cancel, and say so)."""
        if not self.interactive:
            print(f"error: {text}", file=sys.stderr)
            return "cancel"
        from PySide6.QtWidgets import QMessageBox

        box = QMessageBox(QMessageBox.Warning, _("The file was changed elsewhere"),
                          plain_text_html(text), QMessageBox.Cancel, self)
        reload_ = box.addButton(_("Reload"), QMessageBox.DestructiveRole)
        save_as = box.addButton(_("Save as…"), QMessageBox.AcceptRole)
        over = box.addButton(_("Overwrite"), QMessageBox.DestructiveRole)
        box.setDefaultButton(save_as)
        box.exec()
        return {reload_: "reload", save_as: "save_as", over: "overwrite"}.get(
            box.clickedButton(), "cancel")

    def export_json(self) -> None:
        from PySide6.QtWidgets import QFileDialog

        from desktop.storage.document import write_text_atomically

        tab = self.current_tab()
        path, _filter = QFileDialog.getSaveFileName(self, _("Export session as JSON"),
                                                    self.dialog_path(f"{tab.GAME}-session.json"),
                                                    "JSON (*.json)")
        if path:
            self.remember_folder(path)
            try:
                with self.autosave.write_target(path):
                    write_text_atomically(path, tab.controller.document.to_text(path))
                self.statusBar().showMessage(_("Exported {path}").format(path=path), 4000)
            except OSError as exc:
                self._error(_("Cannot export"), str(exc))

    def export_csv(self) -> None:
        from PySide6.QtWidgets import QFileDialog

        tab = self.current_tab()
        path, _filter = QFileDialog.getSaveFileName(self, _("Export history as CSV"),
                                                    self.dialog_path(f"{tab.GAME}-history.csv"), "CSV (*.csv)")
        if path:
            self.remember_folder(path)
            from desktop.storage.locks import check_write_target

            held = check_write_target(path, self.autosave)
            if held:
                self._error(_("Cannot export"), held)
                return
            self.write_csv(tab, path)

    def write_csv(self, tab, path: str) -> None:
        """Export ``tab``'s history with the beliefs after every event (finishes asynchronously
        when beliefs must be computed first; the status bar or a message tells the outcome)."""
        tab.export_history_csv(path)

    @Slot(str, str)
    def _export_finished(self, path: str, error: str) -> None:
        if error:
            self._error(_("Cannot export"), error)
        else:
            self.statusBar().showMessage(_("Exported {path}").format(path=path), 4000)

    def _error(self, title: str, text: str) -> None:
        log.warning("%s: %s", title, text)
        self.statusBar().showMessage(text, 8000)
        if self.interactive:
            from PySide6.QtWidgets import QMessageBox

            QMessageBox.warning(self, title, plain_text_html(text))
        else:
            print(f"error: {text}", file=sys.stderr)

    def _maybe_save(self, tab) -> bool:
        """Ask Save / Discard / Cancel when ``tab`` has unsaved changes; True to go on."""
        if not tab.controller.document.is_modified():
            return True
        from PySide6.QtWidgets import QMessageBox

        self.select_game(tab.GAME)
        ans = QMessageBox.question(
            self, _("Unsaved changes"),
            plain_text_html(_("The {game} game ({name}) has unsaved changes. Save them?")
                            .format(game=tab.title(), name=tab.controller.document.display_name())),
            QMessageBox.Save | QMessageBox.Discard | QMessageBox.Cancel, QMessageBox.Save)
        if ans == QMessageBox.Save:
            return self.save()
        return ans == QMessageBox.Discard

    def _unsaved_line(self, tab) -> str:
        n = len(tab.controller.document.events)
        return ngettext("{game} — {name} ({n} entry)", "{game} — {name} ({n} entries)", n).format(
            game=tab.title(), name=tab.controller.document.display_name(), n=n)

    def _close_unsaved(self) -> bool:
        """Ask about the unsaved games before quitting: one Save / Discard / Cancel question for
        one game, one Save all / Discard all / Cancel dialog listing them for several. True to
        quit (everything saved or discarded)."""
        # a tab not built yet has nothing unsaved
        unsaved = [t for t in self.game_tabs.values() if t.controller.document.is_modified()]
        if len(unsaved) <= 1:
            return all(self._maybe_save(t) for t in unsaved)
        from desktop.shell.unsaved_dialog import DISCARD_ALL, SAVE_ALL
        choice = ask_unsaved(self, [self._unsaved_line(t) for t in unsaved])
        if choice == DISCARD_ALL:
            return True
        if choice != SAVE_ALL:
            return False
        for tab in unsaved:   # an untitled game asks for its file; cancelling there stops quitting
            self.select_game(tab.GAME)
            if not self.save():
                return False
        return True


def conflict_text(doc, path: str) -> str:
    """What another writer did to ``path`` since ``doc`` read or wrote it, in words: the
    entries it added (by description, at most 10), for the Save conflict."""
    from desktop.storage.document import open_session_file
    from desktop.storage.restore import clock_time
    from engines.core.errors import SessionFormatError

    head = _("{path} was changed by another program or window since this window opened or "
             "saved it.").format(path=path)
    try:
        theirs = open_session_file(path)
    except (SessionFormatError, OSError) as exc:
        return head + " " + _("It cannot be read as a session now ({error}).").format(error=exc)
    if theirs.game != doc.game:
        return head + " " + _("It now holds a {game} game.").format(game=theirs.game)
    ours = [ev.to_json() for ev in doc.events]
    added = []
    remaining = list(ours)
    for ev, meta in zip(theirs.events, theirs.meta):
        j = ev.to_json()
        if j in remaining:
            remaining.remove(j)
            continue
        when = clock_time(meta.time)
        when = f" ({when})" if when else ""
        added.append(describe_entry(theirs, ev) + when)
    if not added:
        what = _("It holds no entry that this window lacks (other changes: the setup or removals).")
    else:
        shown = "\n".join(f"• {a}" for a in added[:10])
        more = "\n" + _("… and {n} more").format(n=len(added) - 10) if len(added) > 10 else ""
        what = ngettext("The other writer added {n} entry:", "The other writer added {n} entries:",
                        len(added)).format(n=len(added)) + f"\n{shown}{more}"
    return (f"{head} {what}\n\n" + _("Reload opens the file as it is now (this window's version is "
                                      "kept as a file); Save as… writes this window's version elsewhere; "
                                      "Overwrite replaces the file, dropping what the other writer added."))


def describe_entry(session, ev) -> str:
    """One entry of ``session`` in words (its game's ``describe_event``)."""
    from engines import game_module

    try:
        return game_module(session.game).describe_event(session.setup, ev)
    except Exception:   # noqa: BLE001 (a plug-in's description must not stop the question)
        return str(ev.to_json().get("type", "entry"))


def set_aside_document(doc):
    """Write ``doc`` as a session file to ``recovery/set-aside/`` (before it is replaced by
    Reload); the file's name, or None when it could not be written."""
    import re
    import time

    from desktop.storage.document import write_text_atomically
    from desktop.storage.paths import recovery_dir

    base = re.sub(r"[^\w.-]", "_", os.path.splitext(doc.display_name())[0])[:60] or doc.game
    dest = os.path.join(recovery_dir(), "set-aside",
                        f"{base}-{time.strftime('%Y%m%d-%H%M%S')}.json")
    try:
        write_text_atomically(dest, doc.to_text(""))
    except OSError:
        return None
    return dest
