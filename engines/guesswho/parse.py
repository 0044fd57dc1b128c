"""Guess Who? quick entry: one typed line -> one event.

Grammar (names and attributes: any unique prefix of any word, see :mod:`engines.core.names`)::

    glasses? no              I asked "glasses?"; the answer was no (yes/no, y/n)
    ginger hair? yes         a value of a category: value words and attribute words, any order
    no hat? yes              "no X" asks the opposite of a yes/no attribute
    glasses or hat? no       a compound question (house rule)
    is it alex? no           a question about one character (``alex? no`` too)
    down alex                I knocked Alex down (``knock``, ``x``, ``eliminate``)
    opponent 12              the opponent has 12 cards standing (``opp``, ``them``)

A question word that fits several things is refused with the candidates (``brown`` → brown
hair colour, brown eye colour).
"""
from __future__ import annotations

import re
from typing import Optional, Sequence

from engines.core.errors import ContradictionError, SessionFormatError
from engines.core.i18n import _
from engines.core.names import TEXT_PATH, check_length, complete_word, match_name
from engines.guesswho.board import NAME_ATTRIBUTE, YES_NO
from engines.guesswho.model import Answer, Eliminate, Opponent, Setup, describe_event, event_from_json
from engines.guesswho.words import local_atom_labels, quick_words

YES = ("yes", "y", "true", "1")
NO = ("no", "n", "false", "0")
DOWN = ("down", "knock", "x", "eliminate", "drop")
OPPONENT = ("opponent", "opp", "them", "they")


def _pretty(attr: str) -> str:
    return attr.replace("_", " ")


def atom_labels(setup: Setup) -> dict:
    """``{label: (attribute, value)}`` of every single question the board allows: a yes/no
    attribute by its name (``"big nose"``), a category value as ``"value attribute"``
    (``"ginger hair colour"``), a character as ``"is it Alex"``."""
    out: dict = {}
    for a in setup.board.attributes:
        if a.kind == YES_NO:
            out[_pretty(a.name)] = (a.name, True)
        else:
            for v in a.values:
                out[f"{v} {_pretty(a.name)}"] = (a.name, v)
    for n in setup.board.names:
        out[f"is it {n}"] = (NAME_ATTRIBUTE, n)
    return out


def _words(kind: str, english: tuple) -> tuple:
    """The English words of ``kind`` and those of the language in effect (:mod:`engines.guesswho.words`)."""
    return english + quick_words(kind)


def _atom(setup: Setup, text: str) -> tuple:
    labels = {**atom_labels(setup), **local_atom_labels(setup.board)}
    t = " ".join(text.split())
    low = t.casefold()
    for lead in _words("is it", ("is it",)):
        if low.startswith(lead + " "):
            return (NAME_ATTRIBUTE, match_name(t[len(lead) + 1:], setup.board.names, "character"))
    lead = next((w for w in sorted(_words("not", ("no", "not")), key=len, reverse=True)
                 if low.startswith(w + " ")), None)
    if lead is not None:
        rest = t[len(lead) + 1:]
        yesno = {k: v for k, v in labels.items() if v[1] is True}
        try:
            return (yesno[match_name(rest, yesno, "yes/no attribute")][0], False)
        except SessionFormatError:
            pass  # "no" may begin a name; read the whole text below
    return labels[match_name(t, labels, "question")]


def parse(setup: Setup, events: Sequence, text: str):
    """The event a typed line stands for (the grammar in the module docstring).

    Returns:
        an :class:`~engines.guesswho.model.Answer`, ``Eliminate`` or ``Opponent`` exactly as
        :func:`~engines.guesswho.model.event_from_json` builds it.
    Raises:
        SessionFormatError: the line does not follow the grammar, or names an unknown or
            ambiguous attribute, value or character (the message names the word and the
            candidates).
    """
    t = check_length(text)
    words = t.replace("?", " ? ").replace("=", " ").split()
    low = [w.casefold() for w in words]
    if not words:
        raise SessionFormatError(TEXT_PATH, _("expected “glasses? no”, “down alex” or “opponent 12”"))
    down, opponent = _words("down", DOWN), _words("opponent", OPPONENT)
    yes, no = _words("yes", YES), _words("no", NO)
    if low[0] in down and len(words) > 1:
        name = match_name(" ".join(words[1:]), setup.board.names, "character")
        return event_from_json({"type": "eliminate", "name": name}, setup, TEXT_PATH)
    if len(words) > 1 and low[-1] in down and "?" not in low:
        name = match_name(" ".join(words[:-1]), setup.board.names, "character")
        return event_from_json({"type": "eliminate", "name": name}, setup, TEXT_PATH)
    if low[0] in opponent:
        nums = [w for w in words[1:] if re.fullmatch(r"[0-9]{1,6}", w)]
        if len(nums) != 1:
            raise SessionFormatError(TEXT_PATH, _("write “opponent 12” (the opponent's count of "
                                                  "standing cards)"))
        return event_from_json({"type": "opponent", "remaining": int(nums[0])}, setup, TEXT_PATH)
    answer = low[-1]
    if answer not in yes + no:
        raise SessionFormatError(TEXT_PATH, _("end the question with its answer: “glasses? no”"))
    q_words = [w for w in words[:-1] if w != "?"]
    if not q_words:
        raise SessionFormatError(TEXT_PATH, _("which question? e.g. “glasses? no”"))
    ors = "|".join(re.escape(w) for w in _words("or", ("or",)))
    parts = re.split(rf"\s+(?:{ors})\s+", " ".join(q_words), flags=re.I)
    atoms = []
    for part in parts:
        p = part.strip()
        try:
            atoms.append(_atom(setup, p))
        except SessionFormatError as exc:
            try:  # a bare character name: "alex? no"
                atoms.append((NAME_ATTRIBUTE, match_name(p, setup.board.names, "character")))
            except SessionFormatError:
                raise exc from None
    forms = [{"attribute": a, "value": v} for a, v in atoms]
    q = forms[0] if len(forms) == 1 else {"any": forms}
    return event_from_json({"type": "answer", "question": q, "answer": answer in yes},
                           setup, TEXT_PATH)


def format_event(setup: Setup, event) -> str:
    """The canonical quick-entry line of ``event`` (``parse`` reads it back to ``event``)."""
    if isinstance(event, Answer):
        parts = []
        for a, v in event.question.atoms:
            if a == NAME_ATTRIBUTE:
                parts.append(f"is it {v}")
            elif v is True:
                parts.append(_pretty(a))
            elif v is False:
                parts.append(f"no {_pretty(a)}")
            else:
                parts.append(f"{v} {_pretty(a)}")
        return " or ".join(parts) + "? " + ("yes" if event.answer else "no")
    if isinstance(event, Eliminate):
        return f"down {event.name}"
    if isinstance(event, Opponent):
        return f"opponent {event.remaining}"
    raise SessionFormatError("event", f"not a Guess Who? event: {type(event).__name__}")


def preview(setup: Setup, events: Sequence, text: str) -> str:
    """The typed line's event in words (:func:`describe_event`). Raises like :func:`parse`."""
    return describe_event(setup, parse(setup, events, text))


def complete(setup: Setup, events: Sequence, text: str) -> list[str]:
    """Completions of the last word of ``text`` (whole lines): character names after
    ``down``/``is it``, else attribute and value words, then ``yes``/``no`` after ``?``."""
    low = text.casefold().split()
    if "?" in text:
        return complete_word(text, ["yes", "no"])
    if low and (low[0] in DOWN or low[:2] == ["is", "it"]) and (len(low) > 1 or text.endswith(" ")):
        return complete_word(text, setup.board.names)
    return complete_word(text, list(atom_labels(setup))[: -setup.board.size] + list(DOWN[:1])
                         + ["opponent"] + list(setup.board.names))


def contradiction(setup: Setup, events: Sequence, event, *, cancel=None) -> Optional[str]:
    """Why ``event`` cannot follow ``events`` (no character left, the last card knocked down,
    the opponent's count going up), or None. Runs the engine's greedy inference (no DP) on the
    log plus the event: milliseconds on the classic board.
    ``cancel`` is polled by the engine's long loops (Cancelled)."""
    from engines.guesswho.inference import infer

    try:
        infer(setup, list(events), method="greedy", cancel=cancel)
    except ContradictionError:
        return _("the log is already impossible")
    try:
        infer(setup, list(events) + [event], method="greedy", cancel=cancel)
    except ContradictionError as exc:
        return exc.message
    return None
