"""The app's language: chosen once at start, before any window is built, and View → Language.

The choice is the stored setting (:data:`desktop.shell.settings.LANGUAGE`: ``"en"``, ``"de"``,
``"fr"``) or, when it is empty ("System"), the first supported language of
``QLocale.system().uiLanguages()`` (which follows ``LANGUAGE`` / ``LC_ALL`` / ``LANG`` on Linux
and the platform's settings elsewhere). :func:`apply_language` then sets three things that must
agree: the gettext catalog of every string of the app (:mod:`engines.core.i18n`), Qt's own
strings (standard buttons, the file dialogs: ``qtbase_<lang>.qm`` from PySide6's
``Qt/translations``, loaded by a ``QTranslator``), and ``QLocale.setDefault`` for the numbers,
percentages and times (:mod:`desktop.shell.locale_format`).

Changing the language in View → Language takes effect at the next start (the app offers to
restart): the text already built is not translated again (Drepper, Meyering, Pinard
& Haible, "GNU gettext utilities", 2023).
"""
from __future__ import annotations

import logging
import os

from PySide6.QtCore import QLibraryInfo, QLocale, QTranslator

from engines.core import i18n
from engines.core.i18n import _

log = logging.getLogger(__name__)

def system_language() -> str:
    """The first supported language among the system's UI languages (``QLocale.system()``),
    else the environment's (:func:`engines.core.i18n.system_language`), else English."""
    env = i18n.system_language()
    if env != i18n.DEFAULT_LANGUAGE or os.environ.get("LANGUAGE") or os.environ.get("LC_ALL"):
        return env
    for name in QLocale.system().uiLanguages():
        found = i18n.normalize(name)
        if found:
            return found
    return i18n.DEFAULT_LANGUAGE


def chosen_language(stored: str | None = None) -> str:
    """The language to use: ``stored`` (the setting, read when None) if supported, else the
    system's (:func:`system_language`)."""
    if stored is None:
        from desktop.shell.settings import LANGUAGE

        stored = LANGUAGE.read()
    return i18n.normalize(stored) or system_language()


def qt_translations_dir() -> str:
    """Where Qt's own catalogs are (PySide6's ``Qt/translations``; in the bundle, PyInstaller's
    copy of it)."""
    return QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)


def apply_language(app, lang: str) -> str:
    """Make ``lang`` the app's language: the gettext catalog, Qt's own strings (a ``QTranslator``
    installed on ``app``, kept as ``app._qt_translator``) and the default ``QLocale``. Returns the
    language in effect (English when a catalog is missing). Call before any window is built."""
    lang = i18n.set_language(lang)
    from desktop.shell.locale_format import app_locale

    QLocale.setDefault(app_locale())
    old = getattr(app, "_qt_translator", None)
    if old is not None:
        app.removeTranslator(old)
        app._qt_translator = None
    if lang != "en":
        translator = QTranslator(app)
        if translator.load(f"qtbase_{lang}", qt_translations_dir()):
            app.installTranslator(translator)
            app._qt_translator = translator
        else:
            log.warning("Qt's own catalog qtbase_%s is missing: Qt's buttons stay in English", lang)
    return lang


def language_choices() -> list[tuple[str, str]]:
    """View → Language's entries: (setting value, label); ``""`` is the system's language."""
    return [("", _("System"))] + [(code, name) for code, name in i18n.LANGUAGES.items()]


def restart_command() -> tuple[str, list[str]]:
    """The program and arguments that start this app again: the bundle's executable, or this
    Python with the same script (``deduction-desk``) or ``-m desktop``. No session file is
    passed: the files open at the quit are reopened by :mod:`desktop.table.reopen`."""
    import sys

    if getattr(sys, "frozen", False):
        return sys.executable, []
    script = sys.argv[0] if sys.argv else ""
    if script and os.path.isfile(script) and not script.endswith("__main__.py"):
        return sys.executable, [script]
    return sys.executable, ["-m", "desktop"]


def restart_app() -> bool:
    """Start the app again, detached (after this one's event loop ended and its locks were
    released, so the new one does not hand its files over to this one). Returns whether it
    started."""
    from PySide6.QtCore import QProcess

    program, args = restart_command()
    ok = QProcess.startDetached(program, args)
    ok = ok[0] if isinstance(ok, tuple) else bool(ok)
    if not ok:
        log.warning("could not restart: %s %s", program, args)
    return ok
