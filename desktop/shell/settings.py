"""Every ``QSettings`` key of the app, declared once (as MusicBrainz Picard declares its
options in ``picard/options.py``: a key, its type and default, used by name everywhere).

Use: ``LAST_TAB.read()`` / ``LAST_TAB.write("cluedo")``; a key with a part filled in by the
caller (one per game's tab) is a :class:`Option` made by :meth:`OptionFamily.of`. The settings
live where Qt keeps an application's settings (``QSettings(ORG_NAME, APP_NAME)``: on Linux
``~/.config/DeductionDesk/Deduction Desk.conf``). A stored value of the wrong type reads as the
default, never as an error: a hand-edited or older file must not stop the app.
"""
from __future__ import annotations

import dataclasses
from typing import Any, Callable, Optional

from PySide6.QtCore import QSettings

#: The application's name (window titles, QSettings, QStandardPaths folders).
APP_NAME = "Deduction Desk"
#: The organisation name under which QSettings and QStandardPaths keep the app's files.
ORG_NAME = "DeductionDesk"


def app_settings() -> QSettings:
    """The application's settings store."""
    return QSettings(ORG_NAME, APP_NAME)


@dataclasses.dataclass(frozen=True)
class Option:
    """One settings key.

    Attributes:
        key: the QSettings key (``"window/lastTab"``).
        default: what :meth:`read` returns when nothing (or nothing valid) is stored.
        convert: turns a stored value into the option's type; raises TypeError or ValueError
            for a value it cannot take (then :meth:`read` returns the default).
        doc: what the option holds.
    """

    key: str
    default: Any
    convert: Callable[[Any], Any]
    doc: str = ""

    def read(self, settings: Optional[QSettings] = None) -> Any:
        """The stored value, converted, or :attr:`default`."""
        settings = settings if settings is not None else app_settings()
        value = settings.value(self.key)
        if value is None:
            return self.default
        try:
            return self.convert(value)
        except (TypeError, ValueError):
            return self.default

    def write(self, value: Any, settings: Optional[QSettings] = None) -> None:
        """Store ``value`` under :attr:`key`."""
        (settings if settings is not None else app_settings()).setValue(self.key, value)


@dataclasses.dataclass(frozen=True)
class OptionFamily:
    """Keys of one pattern, one per name (``"splitters/{name}"``)."""

    pattern: str
    default: Any
    convert: Callable[[Any], Any]
    doc: str = ""

    def of(self, name: str) -> Option:
        """The :class:`Option` of ``name``."""
        return Option(self.pattern.format(name=name), self.default, self.convert, self.doc)


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(value)
    return value


def _texts(value: Any) -> list[str]:
    # QSettings gives a one-element list back as a plain string (INI and native formats)
    values = [value] if isinstance(value, str) else value
    if not isinstance(values, (list, tuple)):
        raise TypeError(value)
    return [v for v in values if isinstance(v, str)]


def _flag(value: Any) -> bool:
    # INI files give a stored bool back as "true" / "false"
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "false"):
        return value.lower() == "true"
    raise TypeError(value)


def _as_is(value: Any) -> Any:
    return value


RECENT_FILES = Option("recentFiles", [], _texts, "session files opened or saved, newest first")
LAST_TAB = Option("window/lastTab", "", _text, "the game whose tab was shown last (built first "
                  "at the next start)")
WINDOW_GEOMETRY = Option("window/geometry", None, _as_is, "QWidget.saveGeometry() of the window")
WINDOW_SCREEN = Option("window/screen", None, _as_is, "the available size (QSize) of the screen the "
                       "window state was saved on (splitters are restored on one as large)")
SPLITTERS = OptionFamily("splitters/{name}", None, _as_is, "QSplitter.saveState() of each "
                         "splitter of a game's tab, in the tab's order")

OPEN_FILES = Option("session/openFiles", [], _texts, "the session files open at the last quit "
                    "(reopened at the next start without a file: desktop.table.reopen)")
OPEN_TAB = Option("session/tab", "", _text, "the tab shown at the last quit (desktop.table.reopen)")
ZOOM = Option("view/zoom", 1.0, float, "the window's zoom factor (desktop.table.zoom)")
LAST_FOLDER = Option("files/lastFolder", "", _text, "the folder of the session file last opened, "
                     "saved or exported (where the file dialogs open)")
KEEP_AWAKE = Option("power/keepAwake", True, _as_is, "keep the screen awake while a game is "
                    "open and the window active (desktop.table.keep_awake)")
SHOW_DETAILS = Option("view/showDetails", False, _flag, "View → Show details: the technical "
                      "figures (intervals, sample counts, bits, parameters) beside the plain words "
                      "(desktop.tabs.wording)")
LANGUAGE = Option("view/language", "", _text, "View → Language: the language of the app (a code of "
                  "engines.core.i18n.LANGUAGES, or empty: the system's), applied at the next start")

#: Every option and family (for documentation and a test that keys are not repeated).
ALL = (RECENT_FILES, LAST_TAB, WINDOW_GEOMETRY, WINDOW_SCREEN, SPLITTERS, OPEN_FILES, OPEN_TAB, ZOOM,
       LAST_FOLDER, KEEP_AWAKE, SHOW_DETAILS, LANGUAGE)
