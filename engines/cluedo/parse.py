"""Cluedo quick entry: one typed line -> one event, and whether an event contradicts the log.

Grammar (names: any unique prefix of any word, see :mod:`engines.core.names`; ``me`` or ``I``
is the player using the app)::

    Ann: plum rope hall; Bob        Ann suggested; the players seated between Ann and Bob
                                    passed; Bob refuted (card unknown to me)
    Ann: plum rope hall; none       nobody refuted; everyone else passed (also ``nobody``, ``-``)
    me: plum rope hall; Bob rope    I suggested; Bob showed me Rope
    Bob has rope                    Bob holds Rope (``shows``, ``showed`` too)
    Bob lacks rope                  Bob does not hold Rope (``hasn't``, ``not``)
    Ann accuses plum rope hall      a failed accusation (``… correct`` for a right one)
    me hand: plum, rope, hall       my hand at the deal (cards by commas or spaces)
    Ann at lounge                   Ann's pawn is in the Lounge (``in`` too)
    Ann at 17 3                     Ann's pawn is on the corridor square row 17, column 3
    roll 8                          I rolled 8 (``Ann rolled 8`` for another player)

In a triple the first name is a suspect, the second a weapon, the third a room, so ``rev`` is
Revolver there; after ``has``/``lacks`` any card may be meant and ``rev`` is ambiguous in the UK
edition (Reverend Green, Revolver). Commas may separate the three cards.
"""
from __future__ import annotations

import re
from functools import partial
from typing import Optional, Sequence

from engines.cluedo.model import (
    ENVELOPE,
    NOBODY,
    AccusationEvent,
    HandEvent,
    LacksEvent,
    PositionEvent,
    RollEvent,
    Setup,
    ShownEvent,
    SuggestionEvent,
    describe_event,
    event_from_json,
    passers_between,
)
from engines.core.errors import SessionFormatError
from engines.core.names import TEXT_PATH, candidates, check_length, complete_word, match_name, match_player, split_names

HAS = ("has", "have", "holds", "shows", "showed", "shown")
LACKS = ("lacks", "lack", "not", "hasn't", "hasnt", "doesn't", "without")
ACCUSES = ("accuses", "accused", "accuse")
HAND = ("hand", "hand:")
CORRECT = ("correct", "right", "won", "wins")
AT = ("at", "in")
ROLLS = ("roll", "rolls", "rolled")


def _player(setup: Setup, text: str) -> str:
    return match_player(text, setup.players, setup.me)


def _triple(setup: Setup, text: str) -> tuple:
    """Three cards: suspect, weapon, room (commas optional)."""
    parts = [p for p in re.split(r"\s*,\s*", text.strip()) if p]
    cats = [cards for _, cards in setup.categories]
    if len(parts) == 3:
        return tuple(match_name(p, deck, cat) for p, (cat, deck) in zip(parts, setup.categories))
    tokens = text.replace(",", " ").split()
    if len(tokens) < 3:
        raise SessionFormatError(TEXT_PATH, f"name three cards (suspect, weapon, room), got "
                                            f"“{' '.join(tokens)}”")
    if len(tokens) == 3:  # the usual case: one word each, errors name the word
        return tuple(match_name(t, deck, cat) for t, (cat, deck) in zip(tokens, setup.categories))
    got = split_names(tokens, [partial(candidates, names=deck) for deck in cats], what="card")
    return tuple(name for _, name in got)


def parse(setup: Setup, events: Sequence, text: str):
    """The event a typed line stands for (the grammar in the module docstring).

    Args:
        setup: the game's :class:`~engines.cluedo.model.Setup`.
        events: the log so far (unused by the grammar; kept for the common signature).
        text: the typed line (at most :data:`engines.core.names.MAX_TEXT` characters).
    Returns:
        the event exactly as :func:`~engines.cluedo.model.event_from_json` builds it.
    Raises:
        SessionFormatError: the line does not follow the grammar, or names an unknown or
            ambiguous player or card (the message names the word and the candidates).
    """
    t = check_length(text)
    head_words = [w.casefold() for w in t.split(":", 1)[0].split()[1:]]
    verb_first = any(w in HAS + LACKS + ACCUSES + ("hand",) for w in head_words)
    if ":" in t and not verb_first:
        who, rest = t.split(":", 1)
        suggester = _player(setup, who)
        if ";" in rest:
            cards_text, ref_text = rest.split(";", 1)
        else:
            raise SessionFormatError(TEXT_PATH, "a suggestion reads “Ann: plum rope hall; Bob” — add "
                                                "“; NAME” (who refuted) or “; none”")
        triple = _triple(setup, cards_text)
        ref_text = ref_text.strip()
        if not ref_text or ref_text.casefold() in NOBODY:
            obj = {"type": "suggestion", "suggester": suggester, "cards": list(triple),
                   "passed": list(passers_between(setup, suggester, None)), "refuter": None}
            return event_from_json(obj, setup, TEXT_PATH)
        refuter, shown = _refuter_and_card(setup, ref_text, triple)
        if refuter == suggester:
            raise SessionFormatError(TEXT_PATH, f"{refuter} cannot refute their own suggestion")
        obj = {"type": "suggestion", "suggester": suggester, "cards": list(triple),
               "passed": list(passers_between(setup, suggester, refuter)), "refuter": refuter,
               "shown": shown}
        return event_from_json(obj, setup, TEXT_PATH)
    tokens = t.replace(":", " : ").split()
    low = [w.casefold() for w in tokens]
    if low and low[0] in ROLLS:                       # "roll 8": my roll
        return _roll(setup, setup.me, tokens[1:])
    for i, w in enumerate(low):
        if i == 0:
            continue
        if w in ROLLS:
            return _roll(setup, _player(setup, " ".join(tokens[:i])), tokens[i + 1:])
        if w in AT:
            player = _player(setup, " ".join(tokens[:i]))
            rest = " ".join(tokens[i + 1:]).strip()
            if rest.casefold().startswith("the "):
                rest = rest[4:]
            nums = re.fullmatch(r"\[?\s*(\d+)\s*[, ]\s*(\d+)\s*\]?", rest)
            if nums:
                at = [int(nums.group(1)), int(nums.group(2))]
            elif rest:
                at = match_name(rest, dict(setup.categories)["room"], "room")
            else:
                raise SessionFormatError(TEXT_PATH, f"where is {player}? a room or a square “row col”")
            return event_from_json({"type": "position", "player": player, "at": at}, setup, TEXT_PATH)
        if w in HAS or w in LACKS or w in ACCUSES or w == "hand":
            player = _player(setup, " ".join(tokens[:i]))
            rest = [x for x in tokens[i + 1:] if x != ":"]
            if w in ACCUSES:
                correct = bool(rest) and rest[-1].casefold() in CORRECT
                if correct:
                    rest = rest[:-1]
                triple = _triple(setup, " ".join(rest))
                return event_from_json({"type": "accusation", "player": player,
                                        "cards": list(triple), "correct": correct}, setup, TEXT_PATH)
            if w == "hand":
                cards = _cards(setup, " ".join(rest))
                return event_from_json({"type": "hand", "player": player, "cards": cards},
                                       setup, TEXT_PATH)
            if rest and rest[0].casefold() in ("not", "have", "has"):  # "doesn't have", "has not"
                if w in HAS and rest[0].casefold() == "not":
                    w = "lacks"
                rest = rest[1:]
            card = match_name(" ".join(rest), setup.cards, "card") if rest else None
            if card is None:
                raise SessionFormatError(TEXT_PATH, f"which card does {player} "
                                                    f"{'hold' if w in HAS else 'lack'}?")
            return event_from_json({"type": "lacks" if w in LACKS else "shown", "player": player,
                                    "card": card}, setup, TEXT_PATH)
    raise SessionFormatError(TEXT_PATH, "expected “Ann: plum rope hall; Bob”, “Bob has rope”, "
                                        "“Bob lacks rope” or “Ann accuses plum rope hall”")


def _roll(setup: Setup, player: str, rest: list):
    if len(rest) != 1 or not rest[0].isdigit():
        raise SessionFormatError(TEXT_PATH, "a roll reads “roll 8” (the dice's total, 1 to 12)")
    return event_from_json({"type": "roll", "player": player, "total": int(rest[0])}, setup, TEXT_PATH)


def _cards(setup: Setup, text: str) -> list[str]:
    parts = [p for p in re.split(r"\s*,\s*", text.strip()) if p]
    if len(parts) > 1:
        return [match_name(p, setup.cards, "card") for p in parts]
    if not parts:
        return []
    got = split_names(parts[0].split(), partial(candidates, names=setup.cards),
                      vocabulary=setup.cards, what="card")
    return [n for _, n in got]


def _refuter_and_card(setup: Setup, text: str, triple: tuple) -> tuple:
    tokens = text.replace(",", " ").split()
    err = None
    for k in range(len(tokens), 0, -1):  # the longest player name first
        try:
            refuter = _player(setup, " ".join(tokens[:k]))
        except SessionFormatError as exc:
            err = err or exc
            continue
        rest = tokens[k:]
        if not rest or " ".join(rest) in ("?", "a card", "card"):
            return refuter, None
        return refuter, match_name(" ".join(rest), triple, "shown card (one of the suggested)")
    raise err


def format_event(setup: Setup, event) -> str:
    """The canonical quick-entry line of ``event`` (``parse`` reads it back to ``event`` when
    the passers are the seats between suggester and refuter, as the grammar implies)."""
    def who(p):
        return p

    if isinstance(event, SuggestionEvent):
        head = f"{who(event.suggester)}: {', '.join(event.cards)}; "
        if event.refuter is None:
            return head + "none"
        return head + who(event.refuter) + (f" {event.shown}" if event.shown else "")
    if isinstance(event, ShownEvent):
        return f"{who(event.player)} has {event.card}"
    if isinstance(event, LacksEvent):
        return f"{who(event.player)} lacks {event.card}"
    if isinstance(event, AccusationEvent):
        return f"{who(event.player)} accuses {', '.join(event.cards)}" + (" correct" if event.correct else "")
    if isinstance(event, HandEvent):
        return f"{who(event.player)} hand: {', '.join(event.cards)}"
    if isinstance(event, PositionEvent):
        at = event.at if isinstance(event.at, str) else f"{event.at[0]} {event.at[1]}"
        return f"{who(event.player)} at {at}"
    if isinstance(event, RollEvent):
        return f"{who(event.player)} rolled {event.total}"
    raise SessionFormatError("event", f"not a Cluedo event: {type(event).__name__}")


def example_for(setup: Setup, example: str) -> str:
    """The game's example line (:attr:`engines.registry.GameInfo.example`, written for the UK
    names) in ``setup``'s card names: for a local edition (German, French) every word that
    names one UK card becomes the last word of that card's local name, lowercase ("plum rope
    hall" -> "bloom seil eingangshalle"); ``example`` itself otherwise."""
    from engines.cluedo.editions import name_tables, names_of
    from engines.core.names import words

    base = names_of(setup.edition)
    if base is None or base == setup.edition:
        return example
    _, to_name = name_tables(setup.edition)
    out = []
    for token in example.split(" "):
        bare = token.strip(",;:?!.")
        hits = [cid for cid in to_name if bare and any(w.startswith(bare.casefold()) for w in words(cid))]
        if bare and len(hits) == 1 and bare.isalpha():
            token = token.replace(bare, words(to_name[hits[0]])[-1], 1)
        out.append(token)
    return " ".join(out)


def preview(setup: Setup, events: Sequence, text: str) -> str:
    """The typed line's event in words (:func:`describe_event`). Raises like :func:`parse`."""
    return describe_event(setup, parse(setup, events, text))


def complete(setup: Setup, events: Sequence, text: str) -> list[str]:
    """Completions of the last word of ``text`` (whole lines, the last word completed to a word
    of a player's or card's name that fits where it stands)."""
    names: list[str]
    if ":" in text and "hand" not in text.split(":", 1)[0].casefold().split():
        head, rest = text.split(":", 1)
        if ";" in rest:
            cards_text, after = rest.split(";", 1)
            try:
                suggester = _player(setup, head)
            except SessionFormatError:
                suggester = None
            if len(after.split()) + (1 if after.endswith(" ") else 0) <= 1:
                # the refuter: the seats after the suggester, in order, then "none"
                players = list(setup.players)
                if suggester in players:
                    i = players.index(suggester)
                    players = players[i + 1:] + players[:i]
                names = players + ["none"]
            elif suggester == setup.me:   # the card I was shown: one of the three
                try:
                    names = list(_triple(setup, cards_text))
                except SessionFormatError:
                    names = list(setup.cards)
            else:
                names = []
        else:
            done = len(rest.replace(",", " ").split()) - (0 if rest.endswith((" ", ",")) else 1)
            decks = [cards for _, cards in setup.categories]
            names = list(decks[min(max(done, 0), 2)])
    else:
        toks = text.casefold().split()
        verb = any(w in HAS + LACKS + ACCUSES + ("hand",) for w in toks[1:])
        if verb or (len(toks) >= 1 and text.endswith(" ") and len(toks) >= 2):
            names = list(setup.cards)
        elif len(toks) >= 1 and (text.endswith(" ") or len(toks) >= 2):
            names = ["has", "lacks", "accuses", "hand:"]
        else:
            names = list(setup.players) + [w for w in ("me",) if w not in
                                           {p.casefold() for p in setup.players}]
    return complete_word(text, names)


# ---------------------------------------------------------------------------------------------
# item: is a candidate event impossible given the log, and why
# ---------------------------------------------------------------------------------------------
def _holder_phrase(setup: Setup, owner: str) -> str:
    if owner == ENVELOPE:
        return "it is in the envelope"
    if owner == setup.me:
        return "you hold it"
    return f"{owner} holds it"


def contradiction(setup: Setup, events: Sequence, event, *, cancel=None) -> Optional[str]:
    """Why ``event`` cannot follow ``events``, or None when some deal agrees with both.

    The reason names what is known, e.g. ``"you hold it"`` for "Alice has Miss Scarlett" when
    Miss Scarlett is in my hand, ``"Bob does not hold Rope"`` for a shown card ruled out before,
    else ``"no deal of the cards agrees with it"``. Method: unit propagation of the log
    (:func:`engines.cluedo.counting.propagate`) for the named reasons, then the exact count of
    deals of log + event (:func:`engines.cluedo.counting.count_deals`, the same DP as
    ``infer``) for the verdict. Milliseconds for the classic deck.

    Raises:
        Cancelled: ``cancel()`` became true (it is polled by the engine's long loops).
        SessionFormatError: ``event`` is not an event of this setup.
    """
    from engines.cluedo.constraints import constraints_for
    from engines.cluedo.counting import count_deals, propagate

    comp = propagate(constraints_for(setup, events))
    if not comp.feasible or count_deals(comp, cancel, marginals=False).count == 0:
        return "the log is already impossible"
    owners = setup.owners
    ci = setup.card_indices

    def known_owner(card: str) -> Optional[str]:
        i = ci[card]
        return owners[comp.fixed[i]] if i in comp.fixed else None

    def can_hold(card: str, player: str) -> bool:
        i, p = ci[card], owners.index(player)
        if i in comp.fixed:
            return comp.fixed[i] == p
        return any(ch[0] == p for ch in comp.choices[i])

    reason = None
    held = []  # (player, card) the event says is held
    if isinstance(event, ShownEvent):
        held = [(event.player, event.card)]
    elif isinstance(event, HandEvent):
        held = [(event.player, c) for c in event.cards]
    elif isinstance(event, SuggestionEvent) and event.shown and event.refuter:
        held = [(event.refuter, event.shown)]
    for p, c in held:
        o = known_owner(c)
        if o is not None and o != p:
            return _holder_phrase(setup, o)
        if not can_hold(c, p):
            return f"{'you do' if p == setup.me else p + ' does'} not hold {c}"
    lacking = []
    if isinstance(event, LacksEvent):
        lacking = [(event.player, event.card)]
    elif isinstance(event, SuggestionEvent):
        lacking = [(p, c) for p in event.passed for c in event.cards]
    for p, c in lacking:
        if known_owner(c) == p:
            return "you hold it" if p == setup.me and isinstance(event, LacksEvent) else \
                f"{'you hold' if p == setup.me else p + ' holds'} {c}"
    if isinstance(event, AccusationEvent) and not event.correct:
        if all(known_owner(c) == ENVELOPE for c in event.cards):
            return "all three are known to be in the envelope"
    cons = constraints_for(setup, list(events) + [event])
    if count_deals(propagate(cons), cancel, marginals=False).count == 0:
        reason = "no deal of the cards agrees with it and the log"
    return reason


def fact_reason(setup: Setup, posterior, player: str, card: str, has: bool) -> Optional[str]:
    """Why the fact "``player`` has ``card``" (``has``) or "… does not have ``card``" cannot be
    true, read from an exact posterior already computed for the log (no inference: for a
    worksheet's context menu on the GUI thread), or None when it may be true.

    Args:
        setup: the game; posterior: the log's :class:`~engines.cluedo.inference.CluedoPosterior`.
        player: a player; card: a card; has: the fact's sense.
    Returns:
        ``"you hold it"``, ``"Bob holds it"``, ``"it is in the envelope"``, ``"Bob cannot hold
        it"`` …, or None. Only an ``exact`` posterior decides (a 0 or 1 of the analytical center
        or of Monte Carlo is not a proof): for the other methods the answer is None.
    Raises:
        SessionFormatError: unknown player or card.
    """
    if posterior is None or getattr(posterior, "method", None) != "exact":
        return None
    p = posterior.probability(card, player)
    if has and p <= 1e-12:
        for owner in posterior.owners:
            if posterior.probability(card, owner) >= 1 - 1e-12:
                return _holder_phrase(setup, owner)
        return f"{'you cannot' if player == setup.me else player + ' cannot'} hold it"
    if not has and p >= 1 - 1e-12:
        return "you hold it" if player == setup.me else f"{player} holds it"
    return None
