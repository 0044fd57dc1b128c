"""Spyfall quick entry: one typed line -> one claim.

Grammar (names: any unique prefix of any word, see :mod:`engines.core.names`; ``me``/``I`` is
the player using the app)::

    Bob: beach 1, casino .5      Bob's claim: weight 1 on Beach, 0.5 on Casino, 0 elsewhere
    Bob: beach, casino           weight 1 each (weights are relative; they need not sum to 1)
    Bob: beach 50%, casino 25%   percentages are weights too
    Bob: space st 2 hotel 1      without commas a weight ends each location
    Bob: all                     every location alike (a claim that says nothing)
    Bob: beach .62, casino .38   exact numbers off the worksheet grid {0, ½, 1} are read
                                 untempered (claim weight 1, :func:`entry_claim_weight`)
    Bob: beach 1, w=0.3          the claim's own weight w in (0, 1]
    Bob asks Cy                  who asked whom (an ``ask`` event: the answerer asks next)

``station`` alone is ambiguous in Spyfall 1 (Polar, Police, Service, Space Station).
"""
from __future__ import annotations

import re
from functools import partial
from typing import Optional, Sequence

from engines.core.errors import SessionFormatError
from engines.core.i18n import _
from engines.core.names import TEXT_PATH, candidates, check_length, complete_word, match_name, match_player, split_names
from engines.spyfall.model import Ask, Claim, Setup, describe_event, entry_claim_weight, event_from_json
from engines.spyfall.words import quick_words

_ASK = re.compile(r"^\s*(.+?)\s+asks?\s+(.+?)\s*$", re.IGNORECASE)


def _ask_pattern() -> re.Pattern:
    """``A asks B`` with the words of the language in effect too (``A fragt B``, ``A demande à B``)."""
    words = quick_words("asks")
    if not words:
        return _ASK
    alts = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    return re.compile(rf"^\s*(.+?)\s+(?:asks?|{alts})\s+(.+?)\s*$", re.IGNORECASE)

_NUMBER = r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:e[+-]?[0-9]+)?%?"


def _player(setup: Setup, text: str) -> str:
    return match_player(text, setup.players, setup.me)


def _weight(text: str) -> float:
    pct = text.endswith("%")
    try:
        w = float(text.rstrip("%"))
    except ValueError:
        raise SessionFormatError(TEXT_PATH, _("expected a weight, got {text}").format(text=repr(text))) from None
    return w / 100.0 if pct else w


def parse(setup: Setup, events: Sequence, text: str) -> Claim:
    """The claim (or ask) a typed line stands for (the grammar in the module docstring).

    Returns:
        a :class:`~engines.spyfall.model.Claim` exactly as
        :func:`~engines.spyfall.model.event_from_json` builds it.
    Raises:
        SessionFormatError: the line does not follow the grammar; an unknown or ambiguous
            player or location (named, with the candidates); a location named twice; all
            weights zero.
    """
    t = check_length(text)
    ask = _ask_pattern().match(t) if ":" not in t else None
    if ask:
        return event_from_json({"type": "ask", "asker": _player(setup, ask.group(1)),
                                "answerer": _player(setup, ask.group(2))}, setup, TEXT_PATH)
    if ":" not in t:
        raise SessionFormatError(TEXT_PATH, _("write the player, a colon and the claim: "
                                              "“Bob: beach 1, casino .5”, or who asks whom: "
                                              "“Bob asks Cy”"))
    who, rest = t.split(":", 1)
    player = _player(setup, who)
    rest = rest.strip()
    if rest.casefold() in ("all", "*", "any", "everything") + quick_words("all"):
        return event_from_json({"type": "claim", "player": player,
                                "claim": [1] * setup.n_locations}, setup, TEXT_PATH)
    pairs: list[tuple[str, float]] = []
    items = [x.strip() for x in rest.split(",") if x.strip()]
    explicit: Optional[float] = None
    for item in [x for x in items if re.fullmatch(r"w\s*[=:]\s*\S+", x, re.I)]:
        explicit = _weight(re.split(r"[=:]", item, maxsplit=1)[1].strip())
        items.remove(item)
    if not items:
        raise SessionFormatError(TEXT_PATH, _("the claim names no location"))
    for item in items:
        # an item is "words [weight]" or "[weight] words"; without commas several may follow
        tokens = item.split()
        group: list[str] = []
        lead: Optional[float] = None  # a weight written before the location ("50% beach")
        for j, tok in enumerate(tokens):
            if re.fullmatch(_NUMBER, tok, re.I):
                if group:
                    pairs.append((" ".join(group), _weight(tok)))
                    group = []
                elif j == 0:
                    lead = _weight(tok)
                else:
                    raise SessionFormatError(TEXT_PATH, _("weight {weight} follows no location").format(
                        weight=repr(tok)))
            else:
                group.append(tok)
        if group:
            pairs.append((" ".join(group), 1.0 if lead is None else lead))
        elif lead is not None and len(tokens) == 1:
            raise SessionFormatError(TEXT_PATH, _("weight {weight} names no location").format(
                weight=repr(tokens[0])))
    claim: dict = {}
    for name, w in pairs:
        try:
            locs = [match_name(name, setup.locations, "location")]
        except SessionFormatError as exc:  # several locations without commas: "beach casino"
            if len(name.split()) < 2 or "," in rest:
                raise
            try:
                locs = [n for _, n in split_names(name.split(),
                                                  partial(candidates, names=setup.locations),
                                                  vocabulary=setup.locations, what="location")]
            except SessionFormatError:
                raise exc from None
        for loc in locs:
            if loc in claim:
                raise SessionFormatError(TEXT_PATH, _("{location} is named twice").format(location=loc))
            claim[loc] = w
    obj = {"type": "claim", "player": player, "claim": claim}
    # exact numbers off the worksheet grid are read untempered (entry_claim_weight)
    cw = entry_claim_weight([float(x) for x in claim.values()] + [0.0], explicit)
    if cw is not None:
        obj["claim_weight"] = cw
    return event_from_json(obj, setup, TEXT_PATH)


def format_event(setup: Setup, event) -> str:
    """The canonical quick-entry line of ``event``: ``parse`` reads it back to ``event``, with
    the claim weight :func:`entry_claim_weight` implies when the event has none."""
    if isinstance(event, Ask):
        return f"{event.asker} asks {event.answerer}"
    implied = entry_claim_weight(event.weights)
    own = "" if event.claim_weight is None or event.claim_weight == implied \
        else f", w={event.claim_weight!r}"
    if len(set(event.weights)) == 1 and event.weights and event.weights[0] > 0:
        return (f"{event.player}: all" if event.weights[0] == 1 else
                f"{event.player}: " + ", ".join(f"{loc} {event.weights[0]!r}"
                                                for loc in setup.locations)) + own
    items = [f"{loc} {w!r}" if not float(w).is_integer() else f"{loc} {int(w)}"
             for loc, w in zip(setup.locations, event.weights) if w > 0]
    return f"{event.player}: " + ", ".join(items) + own


def preview(setup: Setup, events: Sequence, text: str) -> str:
    """The typed line's claim in words (:func:`describe_event`). Raises like :func:`parse`."""
    return describe_event(setup, parse(setup, events, text))


def complete(setup: Setup, events: Sequence, text: str) -> list[str]:
    """Completions of the last word of ``text`` (whole lines): players before the colon (and on
    both sides of "asks"), locations after it."""
    if ":" not in text:
        return complete_word(text, list(setup.players))
    return complete_word(text, list(setup.locations))


def contradiction(setup: Setup, events: Sequence, event, *, cancel=None) -> Optional[str]:
    """Always None: a claim has positive likelihood under every (location, spy) hypothesis
    (Dirichlet emissions on a floored simplex, “Spyfall with Pyro”), so no claim contradicts a log."""
    return None
