"""Names that look alike: the confusable skeleton of Unicode Technical Standard #39.

Two strings are *confusable* when their skeletons are equal (UTS #39 "Unicode Security
Mechanisms", section 4 "Confusable Detection"): ``skeleton(X)`` converts ``X`` to NFD, replaces
every character by its prototype from the standard's data file ``confusables.txt`` (a
character not listed is its own prototype) and converts the result to NFD again. So the
Cyrillic "Аnn" (U+0410) and the Latin "Ann" share the skeleton "Ann", as do "Al" and "AI"
(capital I and small L are both the prototype ``l``).

The data file is Unicode's ``confusables.txt``, shipped verbatim in
``resources/unicode/confusables.txt`` (its header gives the version and the Unicode terms of
use). It is read once, on the first call.

No library is used: PyICU (``icu.SpoofChecker.getSkeleton``) computes the same skeleton but is
a source distribution that compiles against the system's ICU (no wheels for the platforms the
app ships to, and the bundle would carry ICU's ~30 MB of data); ``confusable-homoglyphs``
3.3.1 answers "is this string mixed-script / confusable with a script" but has no skeleton, and
its data keeps the pairs without their direction; ``confusables`` 1.2.0 (2021, unmaintained)
gives its own regular expressions and normal forms, not UTS #39's skeleton. The algorithm is
five lines over the standard's own data file.
"""
from __future__ import annotations

import unicodedata
from functools import lru_cache


@lru_cache(maxsize=1)
def prototypes() -> dict[str, str]:
    """``{source character: prototype string}`` from ``confusables.txt`` (lines
    ``SOURCE ; TARGET ; MA # comment``, code points in hex, the target possibly several).

    Raises:
        OSError: the data file is missing from the resources (a broken installation).
    """
    from engines.core.resources import resource_path

    table: dict[str, str] = {}
    with open(resource_path("unicode", "confusables.txt"), encoding="utf-8-sig") as fh:
        for line in fh:
            data = line.split("#", 1)[0].strip()
            if not data:
                continue
            fields = [f.strip() for f in data.split(";")]
            if len(fields) < 2:
                continue
            source = "".join(chr(int(cp, 16)) for cp in fields[0].split())
            target = "".join(chr(int(cp, 16)) for cp in fields[1].split())
            table[source] = target
    return table


def skeleton(text: str) -> str:
    """The UTS #39 skeleton of ``text`` (section 4): NFD, each character replaced by its
    prototype, NFD again. Equal skeletons mean the two strings may look the same."""
    table = prototypes()
    nfd = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(table.get(ch, ch) for ch in nfd))


def name_keys(name: str) -> tuple[str, str]:
    """The two keys under which names are compared for look-alikes: the skeleton of the name
    and the skeleton of its case fold (so the Cyrillic "Аnn" is caught beside "ann" too, not
    only beside "Ann")."""
    nfc = unicodedata.normalize("NFC", name)
    return skeleton(nfc), skeleton(nfc.casefold())
