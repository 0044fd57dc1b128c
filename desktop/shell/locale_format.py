"""Numbers, percentages and times written the way the app's language writes them: by the
``QLocale`` of the language in effect (:func:`engines.core.i18n.language`; English is British
English, the app's English: 24-hour times, day/month/year). German "23,5 %" and "21:14",
French "23,5 %", English "23.5 %" and "21:14".

The space before the percent sign: German and French as the Unicode CLDR's percent patterns
have it (Unicode Consortium, "Unicode Common Locale Data Repository", release 46, 2024: German
``#,##0 %`` with a no-break space U+00A0, French ``#,##0 %`` with a narrow no-break space
U+202F); English as the app has always written it, with a no-break space (the SI Brochure's
rule, BIPM, "The International System of Units", 9th edition, 2019, §5.4.7). The number and
its sign never part at a line break.
"""
from __future__ import annotations

import datetime as _dt

from PySide6.QtCore import QDateTime, QLocale, QTime

#: What goes between a number and its percent sign, per language (CLDR's percent patterns).
PERCENT_SPACE = {"en": "\u00a0", "de": "\u00a0", "fr": "\u202f"}


def app_locale() -> QLocale:
    """The QLocale of the language in effect (English: British English)."""
    from engines.core.i18n import language

    lang = language()
    if lang == "de":
        return QLocale(QLocale.Language.German, QLocale.Country.Germany)
    if lang == "fr":
        return QLocale(QLocale.Language.French, QLocale.Country.France)
    return QLocale(QLocale.Language.English, QLocale.Country.UnitedKingdom)


def _locale(locale: QLocale | None) -> QLocale:
    return app_locale() if locale is None else locale


def _lang(locale: QLocale) -> str:
    return locale.name().split("_", 1)[0]


def number(x: float, digits: int = 0, locale: QLocale | None = None) -> str:
    """``x`` with ``digits`` decimals and the language's separators ("1.234,5" in German).
    A NaN or infinite value is written "–" (a dash; never "nan" on screen)."""
    if x != x or x in (float("inf"), float("-inf")):
        return "–"
    return _locale(locale).toString(float(x), "f", digits)


def significant(x: float, digits: int = 4, locale: QLocale | None = None) -> str:
    """``x`` to ``digits`` significant digits (Python's ``g`` format) with the language's decimal
    separator: 23.456 → "23,46" (German), "23.46" (English)."""
    if x != x:
        return "–"
    return f"{x:.{digits}g}".replace(".", _locale(locale).decimalPoint())


def percent(p: float, digits: int = 0, locale: QLocale | None = None) -> str:
    """The probability ``p`` (0..1) as a percentage with ``digits`` decimals: 0.235 → "23,5 %"
    (German, ``digits=1``), "23,5 %" (French), "23.5 %" (English). NaN: "–"."""
    loc = _locale(locale)
    if p != p:
        return "–"
    return number(100.0 * p, digits, loc) + PERCENT_SPACE.get(_lang(loc), "") + loc.percent()


def parse_local_time(iso: str | None) -> _dt.datetime | None:
    """An ISO 8601 time (an entry's or a file's) in local time, or None for none or an
    unreadable one (a naive time is taken as local already)."""
    if not iso:
        return None
    try:
        t = _dt.datetime.fromisoformat(iso)
    except ValueError:
        return None
    return t.astimezone() if t.tzinfo is not None else t


def clock_time(t: _dt.datetime | _dt.time, locale: QLocale | None = None) -> str:
    """The hour and minute of ``t`` in the language's short time format ("21:14")."""
    loc = _locale(locale)
    return loc.toString(QTime(t.hour, t.minute), QLocale.FormatType.ShortFormat)


def date_time(t: _dt.datetime, locale: QLocale | None = None) -> str:
    """The date and time of ``t`` in the language's short format ("29.11.26 21:14",
    "29/11/2026 21:14")."""
    loc = _locale(locale)
    return loc.toString(QDateTime(t.year, t.month, t.day, t.hour, t.minute, 0), QLocale.FormatType.ShortFormat)
