"""The player's language: one translation mechanism for the engines and the desktop (GNU gettext).

Every user-visible string of the app is written in English in the code and marked for
translation: ``_("Save &As…")`` where it is shown, ``N_("…")`` where a constant is defined and
translated later, when shown (``_(CONSTANT)``), and ``ngettext(singular, plural, n)`` where the
words depend on a count. The catalogs are GNU gettext message catalogs
(``resources/locale/<lang>/LC_MESSAGES/deduction_desk.po``, compiled to ``.mo`` beside them:
docs/translating.md). gettext rather than Qt's ``tr`` because engines/ is Qt-free and produces
user-visible text too (quick-entry refusals, Why? explanations, advice lines): one mechanism
reaches both (Drepper, Meyering, Pinard & Haible, "GNU gettext utilities", 2023;
Python's :mod:`gettext` module reads the compiled catalogs).

The language is chosen once at start, before any window is built (:func:`set_language`);
until then, and for English, the text is the English of the code. A running app does not
change its language: the desktop's View → Language stores the choice for the next start.

Placeholders in a translated string are ``str.format`` names (``_("Saved {name}").format(name=…)``)
so a translation may reorder them; a test checks that every translation keeps the msgid's.
"""
from __future__ import annotations

import gettext as _gettext
import os
from collections.abc import Mapping
from pathlib import Path

#: The gettext domain: the catalogs' file name (``deduction_desk.po`` / ``.mo``).
DOMAIN = "deduction_desk"

#: The languages the app is translated into (ISO 639-1 code → the language's own name, as the
#: View → Language menu shows it). English is the code's own text.
LANGUAGES: dict[str, str] = {"en": "English", "de": "Deutsch", "fr": "Français"}

#: The language used when neither the settings nor the system name a supported one.
DEFAULT_LANGUAGE = "en"

_translations: _gettext.NullTranslations = _gettext.NullTranslations()
_language = DEFAULT_LANGUAGE


def locale_dir() -> Path:
    """The folder holding ``<lang>/LC_MESSAGES/deduction_desk.mo`` (``resources/locale``; in the
    wheel and the PyInstaller bundle as package data)."""
    from engines.core.resources import resource_path

    return resource_path("locale")


def normalize(code: str | None) -> str | None:
    """The supported language a locale name stands for, or None.

    ``"de_DE.UTF-8"``, ``"de-AT"``, ``"DE"`` → ``"de"``; ``"C"``, ``"POSIX"``, ``""``, ``"es_ES"`` → None.
    """
    if not code:
        return None
    base = code.split(".", 1)[0].split("@", 1)[0].replace("-", "_").split("_", 1)[0].lower()
    return base if base in LANGUAGES else None


def system_language(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment asks for, as gettext reads it: the first supported entry of
    ``LANGUAGE`` (a colon-separated list), else ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` (the first
    one set decides); :data:`DEFAULT_LANGUAGE` when none names a supported language. The desktop
    asks ``QLocale.system()`` instead (which also knows the platform's own settings)."""
    env = os.environ if environ is None else environ
    for code in (env.get("LANGUAGE") or "").split(":"):
        found = normalize(code)
        if found:
            return found
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var)
        if value:
            return normalize(value) or DEFAULT_LANGUAGE
    return DEFAULT_LANGUAGE


def set_language(code: str) -> str:
    """Translate from now on into ``code`` (a key of :data:`LANGUAGES`, or a locale name such as
    ``"fr_FR.UTF-8"``); returns the language in effect. An unsupported code, or a catalog that
    is missing from the installation, leaves the English of the code (never an error: a missing
    file must not stop the app). Call before any text is built: strings translated earlier
    stay as they were."""
    global _translations, _language
    lang = normalize(code) or DEFAULT_LANGUAGE
    if lang == DEFAULT_LANGUAGE:
        _translations, _language = _gettext.NullTranslations(), lang
        return lang
    try:
        _translations = _gettext.translation(DOMAIN, str(locale_dir()), languages=[lang])
        _language = lang
    except OSError:          # FileNotFoundError: the catalog is not installed
        _translations, _language = _gettext.NullTranslations(), DEFAULT_LANGUAGE
    return _language


def language() -> str:
    """The language in effect (a key of :data:`LANGUAGES`)."""
    return _language


def _(message: str) -> str:
    """``message`` in the language in effect (the English ``message`` where no translation).

    A word marked both alone (``_("identity")``) and with its plural (``ngettext("identity",
    "identities", n)``) has one catalog entry, keyed by the singular, and a compiled plural entry
    is found only by its forms (Python's ``gettext.GNUTranslations``): the singular form of that
    entry is then the translation."""
    text = _translations.gettext(message)
    if text is message or text == message:
        text = _translations.ngettext(message, message, 1)
    return text


def gettext(message: str) -> str:
    """The same as :func:`_` (for modules that use ``_`` for something else)."""
    return _(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of ``singular`` / ``plural`` for the count ``n`` in the language in effect (the
    language's own plural rule, from the catalog's ``Plural-Forms`` header)."""
    return _translations.ngettext(singular, plural, n)


#: Decimal and thousands separators of the languages other than English (Unicode CLDR: German
#: "1.234,5", French "1 234,5" with a narrow no-break space), and the space before "%".
_DECIMAL = {"de": ",", "fr": ","}
_GROUP = {"de": ".", "fr": "\u202f"}
_BEFORE_PERCENT = {"de": "\u00a0", "fr": "\u202f"}


def number(value: float, spec: str = "") -> str:
    """``format(value, spec)`` as the language in effect writes numbers: English unchanged
    (``number(0.25, ".0%")`` is "25%", ``number(12345, ",")`` "12,345"), German "25 %" and
    "12.345", French "25 %" and "12 345" (separators as Unicode CLDR gives them). For the text
    the engines build (the desktop writes its own numbers with QLocale,
    :mod:`desktop.shell.locale_format`); the command line, which sets no language, stays English.

    Raises:
        ValueError: ``spec`` is not a format spec for ``value``.
    """
    text = format(value, spec)
    if _language not in _DECIMAL:
        return text
    text = text.replace(",", "\0").replace(".", _DECIMAL[_language]).replace("\0", _GROUP[_language])
    if text.endswith("%"):
        text = text[:-1].rstrip() + _BEFORE_PERCENT[_language] + "%"
    return text


def N_(message: str) -> str:  # noqa: N802 (gettext's conventional name)
    """Mark ``message`` for extraction without translating it now (a constant defined at import,
    translated with :func:`_` where it is shown)."""
    return message
