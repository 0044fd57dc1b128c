"""The contradiction banner's diagnosis: which entry was probably mistyped, and how to fix it.

The tab's contradiction banner names the entries that cannot all be true together
(:func:`desktop.widgets.why.conflict_html`). When the game's engine has a ``diagnose``
(:mod:`engines.core.diagnosis`), the banner leads with the corrections it found, likeliest
first, each a link that selects the entry in History: "Probably mistyped: #1 (the answer 3
fits — Fix…), #5 (remove it — Remove…)"; *Fix…* opens the entry's form filled with the suggested
value and *Remove…* shows the beliefs without the entry before it is removed
(:mod:`desktop.tabs.entry_fix`); either change is one undoable step (Ctrl+Z). The search
runs in the controller's conflict job (a pool thread), with the engine's step budget and a
wall-clock cap of :data:`TIME_LIMIT` seconds.
"""
from __future__ import annotations

import html
import json
import urllib.parse
from typing import Callable, Optional

from desktop.widgets.why import conflict_html, entry_link
from engines.core.i18n import _

#: Wall-clock cap of a diagnosis in the app (s); the engine's step budget applies too.
TIME_LIMIT = 1.0

#: Most corrections named in the banner (the rest: "and N more").
BANNER_CORRECTIONS = 5


class DiagnosedEntries(tuple):
    """The conflicting entries (0-based, ascending; a tuple as the conflict job always
    returned) with the engine's :class:`~engines.core.diagnosis.Diagnosis` as ``diagnosis``
    (None when the game has none)."""

    diagnosis = None

    def __new__(cls, entries, diagnosis=None):
        obj = super().__new__(cls, entries)
        obj.diagnosis = diagnosis
        return obj


def conflict_job(module, setup, events: tuple, task) -> tuple:
    """The controller's conflict job: ``((setup, events), entries)`` where ``entries`` is a
    :class:`DiagnosedEntries` (None when the log is consistent). Uses the game's ``diagnose``
    when it has one (falling back on ``explain_contradiction`` when it refuses the setup, e.g.
    Egghead with six players), else ``explain_contradiction``."""
    from engines.core.errors import SessionFormatError

    log = (setup, events)
    diagnose = getattr(module, "diagnose", None)
    if diagnose is not None:
        try:
            d = diagnose(setup, events, time_limit=TIME_LIMIT, cancel=task)
        except SessionFormatError:
            d = False
        if d is None:
            return log, None
        if d is not False:
            return log, DiagnosedEntries(d.conflict, d)
    entries = module.explain_contradiction(setup, events, cancel=task)
    return log, None if entries is None else DiagnosedEntries(entries)


def diagnosis_html(diagnosis, describe: Callable[[int], str]) -> str:
    """The banner's text for a :class:`~engines.core.diagnosis.Diagnosis`: the corrections
    first ("Probably mistyped: #1 (the answer 3 fits — Fix… or Remove…), #5 (remove it —
    Remove…)": each entry's likeliest correction, and Remove… when removing the entry is one;
    links selecting the entries and reviewing the corrections), then the entries that cannot
    all be true together (:func:`conflict_html`)."""
    from engines.core.diagnosis import removal

    found = []
    for c in diagnosis.corrections:
        if c.entry not in [e for e, _text, _c in found]:
            found.append((c.entry, c.text if c.field is None else _("{correction} fits").format(correction=c.text), c))
    base = conflict_html(diagnosis.conflict, describe)
    if found:
        removable = {c.entry for c in diagnosis.corrections if c.field is None}
        items = ", ".join(f"{entry_link(i, f'#{i + 1}')} ({html.escape(t)} — {_fix_link(c)}"
                          + (" " + _("or") + f" {_fix_link(removal(i))}" if c.field is not None
                             and i in removable else "") + ")"
                          for i, t, c in found[:BANNER_CORRECTIONS])
        more = (" " + _("and {n} more").format(n=len(found) - BANNER_CORRECTIONS)
                if len(found) > BANNER_CORRECTIONS else "")
        head = _("<b>Probably mistyped</b>: {entries}.").format(entries=items + more)
        if not diagnosis.complete:
            head += " <i>" + _("(the search stopped at its time limit: there may be more)") + "</i>"
        return head + " " + base
    if diagnosis.removal_sets:
        sets = "; ".join((" " + _("and") + " ").join(entry_link(i, f"#{i + 1}") for i in s)
                         for s in diagnosis.removal_sets[:BANNER_CORRECTIONS])
        return _("<b>No single entry fits when changed or removed</b>; removing these together "
                 "does: {sets}.").format(sets=sets) + " " + base
    if not diagnosis.complete:
        return "<i>" + _("No correction found within the time limit.") + "</i> " + base
    return base


def _fix_link(c) -> str:
    """A link that reviews correction ``c`` before applying it: ``fix:<entry>:<event JSON>``
    (URL-quoted; *Fix…*) or ``remove:<entry>`` (*Remove…*)."""
    if c.event is None:
        return f"<a href='remove:{c.entry}'>" + _("Remove…") + "</a>"
    q = urllib.parse.quote(json.dumps(c.event.to_json(), separators=(",", ":")), safe="")
    return f"<a href='fix:{c.entry}:{q}'>" + _("Fix…") + "</a>"


def handle_link(tab, href: str) -> bool:
    """Act on a :func:`_fix_link` clicked in ``tab``'s banner: *Fix…* opens the form of entry
    ``i`` filled with the suggested entry (validated by the game's ``event_from_json``;
    :func:`desktop.tabs.entry_fix.open_fix_dialog`: OK replaces the entry, one undoable
    step), *Remove…* the preview of the beliefs without entry ``i``
    (:func:`desktop.tabs.entry_fix.open_removal_preview`: *Remove* removes it, one undoable
    step). Returns False for any other link (entry links select the entry, as before)."""
    from desktop.tabs.entry_fix import open_fix_dialog, open_removal_preview
    from engines.core.errors import SessionFormatError

    doc = tab.controller.document
    try:
        if href.startswith("remove:"):
            i = int(href[len("remove:"):])
            if 0 <= i < len(doc.events):
                open_removal_preview(tab, i)
            return True
        if href.startswith("fix:"):
            _, i, q = href.split(":", 2)
            i = int(i)
            event = doc.module.event_from_json(json.loads(urllib.parse.unquote(q)), doc.setup,
                                               f"$.events[{i}]")
            if 0 <= i < len(doc.events):
                open_fix_dialog(tab, i, event)
            return True
    except (ValueError, SessionFormatError):
        return True          # a stale or damaged link: nothing to apply
    return False


def banner_html(entries, describe: Callable[[int], str]) -> Optional[str]:
    """:func:`diagnosis_html` when ``entries`` carries a diagnosis, else None (the tab then
    shows :func:`conflict_html` as before)."""
    d = getattr(entries, "diagnosis", None)
    return None if d is None else diagnosis_html(d, describe)
