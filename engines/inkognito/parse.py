"""Inkognito quick entry: one typed line -> one answer event.

Grammar (names: any unique prefix of any word, see :mod:`engines.core.names`)::

    Red: lord zsa fat              Red answered my player question with Lord Fiddlebottom,
                                   Madame Zsa Zsa and fat; two identities and one build, so
                                   I asked about identity (one identity and two builds: build)
    Red: ambassador lord zsa       the ambassador question (``amb``); 2 cards of the asked kind
    Red: mission lord zsa          the mission card was shown in place of a third card
    Red: mission build lord fat    with one card of each kind say which kind I asked about
                                   (``identity``/``id`` or ``build``)

Commas may separate the cards (``Red: agent x, madame zsa zsa, tall``). The kind I asked about
follows from the cards shown (:func:`engines.inkognito.model.form_shapes`) except in the
mission form with one card of each kind.
"""
from __future__ import annotations

import re
from functools import partial
from typing import Optional, Sequence

from engines.core.errors import ContradictionError, SessionFormatError
from engines.core.i18n import _
from engines.core.names import TEXT_PATH, candidates, check_length, complete_word, match_name, split_names
from engines.inkognito.model import Answer, Setup, describe_event, event_from_json
from engines.inkognito.words import local_card_names, quick_words

AMBASSADOR = ("ambassador", "amb", "ambassador:")
PLAYER = ("player",)
MISSION = ("mission", "+mission")
IDENTITY = ("identity", "id", "identities")
BUILD = ("build", "builds")


def parse(setup: Setup, events: Sequence, text: str) -> Answer:
    """The answer a typed line stands for (the grammar in the module docstring).

    Returns:
        an :class:`~engines.inkognito.model.Answer` exactly as
        :func:`~engines.inkognito.model.event_from_json` builds it.
    Raises:
        SessionFormatError: the line does not follow the grammar, names an unknown or ambiguous
            opponent or card (the message names the word and the candidates), or shows cards
            the rules do not allow for the question (the rule is named).
    """
    t = check_length(text)
    if ":" not in t:
        raise SessionFormatError(TEXT_PATH, _("write the opponent, a colon and the cards shown: "
                                              "“Red: lord zsa fat”"))
    ambassador, mission_w = AMBASSADOR + quick_words("ambassador"), MISSION + quick_words("mission")
    identity_w, build_w = IDENTITY + quick_words("identity"), BUILD + quick_words("build")
    who, rest = t.split(":", 1)
    head = who.split()
    question, mission, asked = "player", False, None
    while len(head) > 1 and head[-1].casefold() in ambassador + PLAYER + mission_w:
        w = head.pop().casefold()
        question = "ambassador" if w in ambassador else question
        mission = mission or w in mission_w
    opponent = match_name(" ".join(head), setup.opponents, "opponent")
    items = [x for x in re.split(r"\s*,\s*", rest.strip()) if x]
    # keywords lead the card list
    first = items[0].split() if items else []
    while first and first[0].casefold() in ambassador + PLAYER + mission_w + identity_w + build_w:
        w = first.pop(0).casefold()
        if w in ambassador:
            question = "ambassador"
        elif w in mission_w:
            mission = True
        elif w in identity_w:
            asked = "identity"
        elif w in build_w:
            asked = "build"
    if items:
        items[0] = " ".join(first)
        items = [x for x in items if x]
    local = local_card_names(setup.builds)       # "groß", "grand": the translated builds
    names = list(setup.identities) + list(setup.builds) + [n for n in local if n not in setup.builds]
    if len(items) > 1:
        cards = [match_name(x, names, "card") for x in items]
    elif items:
        cards = [n for _w, n in split_names(items[0].split(), partial(candidates, names=names),
                                                      vocabulary=names, what="card")]
    else:
        cards = []
    cards = [local.get(c, c) if c not in setup.builds else c for c in cards]
    ids = [c for c in cards if c in setup.identities]
    builds = [c for c in cards if c in setup.builds]
    if asked is None:
        ni, nb = len(ids), len(builds)
        if question == "ambassador":
            asked = "build" if nb and not ni else "identity"
        elif mission:
            if ni == 1 and nb == 1:
                raise SessionFormatError(TEXT_PATH, _("with the mission card and one card of each "
                                                      "kind, say which kind you asked about: "
                                                      "“Red: mission build lord fat”"))
            asked = "build" if nb > ni else "identity"
        else:
            asked = "build" if nb > ni else "identity"
    obj = {"type": "answer", "opponent": opponent, "question": question, "asked": asked,
           "identities": ids, "builds": builds}
    if mission:
        obj["mission"] = True
    try:
        return event_from_json(obj, setup, TEXT_PATH)
    except SessionFormatError as exc:  # the form's wording ("you ticked") for a typed line
        message = exc.message.replace("you ticked", "the line shows")
        raise SessionFormatError(exc.path, message.replace(_("you ticked"), _("the line shows"))) \
            from None


def format_event(setup: Setup, event: Answer) -> str:
    """The canonical quick-entry line of ``event`` (``parse`` reads it back to ``event``)."""
    words = []
    if event.question == "ambassador":
        words.append("ambassador")
    if event.mission:
        words.append("mission")
        if len(event.identities) == 1 and len(event.builds) == 1:
            words.append(event.asked)
    return f"{event.opponent}: " + " ".join(words) + (" " if words else "") + \
        ", ".join(list(event.identities) + list(event.builds))


def preview(setup: Setup, events: Sequence, text: str) -> str:
    """The typed line's answer in words (:func:`describe_event`). Raises like :func:`parse`."""
    return describe_event(setup, parse(setup, events, text))


def complete(setup: Setup, events: Sequence, text: str) -> list[str]:
    """Completions of the last word of ``text`` (whole lines): opponents before the colon,
    then the keywords and the identity and build names."""
    if ":" not in text:
        return complete_word(text, list(setup.opponents))
    return complete_word(text, list(setup.identities) + list(setup.builds)
                         + ["ambassador", "mission", "identity", "build"])


def contradiction(setup: Setup, events: Sequence, event, *, cancel=None) -> Optional[str]:
    """Why ``event`` cannot follow ``events`` (no world of identities and builds agrees, or the
    same set shown twice under the no-repeat rule), or None. Runs the exact joint inference
    (36 worlds per opponent pair; milliseconds).
    ``cancel`` is polled by the engine's long loops (Cancelled)."""
    from engines.inkognito.inference import infer

    try:
        infer(setup, list(events), cancel=cancel)
    except ContradictionError:
        return _("the log is already impossible")
    try:
        infer(setup, list(events) + [event], cancel=cancel)
    except ContradictionError as exc:
        return exc.message
    return None
