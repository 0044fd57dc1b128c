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
from engines.core import i18n
from engines.core.errors import SessionFormatError
from engines.core.i18n import _
from engines.core.names import TEXT_PATH, candidates, check_length, complete_word, match_name, match_player, split_names

HAS = ("has", "have", "holds", "shows", "showed", "shown")
LACKS = ("lacks", "lack", "not", "hasn't", "hasnt", "doesn't", "without")
ACCUSES = ("accuses", "accused", "accuse")
HAND = ("hand", "hand:")
CORRECT = ("correct", "right", "won", "wins")
AT = ("at", "in")
ROLLS = ("roll", "rolls", "rolled")

#: The quick-entry words of the player's language, read beside the English ones (which are
#: always read): the language the desktop chose (:func:`engines.core.i18n.language`; the command
#: line never chooses one, so it reads English only and its output is a function of its input).
#: ``not``: words after a "has" verb that turn it into "lacks" ("Bob hat nicht Seil", "Bob hat
#: Seil nicht", "Bob n'a pas corde"); ``skip``: words that carry no meaning where they stand
#: (the separable "an" of "klagt … an", articles before a card or a room). docs/quick-entry.md
#: lists them.
LOCAL_WORDS: dict[str, dict[str, tuple[str, ...]]] = {
    "de": {
        "has": ("hat", "habe", "hält", "halte", "zeigt", "zeigte", "zeige"),
        "lacks": ("ohne",),
        "not": ("nicht", "kein", "keine", "keinen"),
        "accuses": ("klagt", "klagte", "beschuldigt", "beschuldigte"),
        "hand": ("hand", "hand:"),
        "correct": ("richtig", "gewonnen", "gewinnt"),
        "at": ("bei", "im", "auf"),
        "rolls": ("wurf", "würfelt", "würfelte", "würfle"),
        "nobody": ("niemand", "keiner"),
        "me": ("ich", "mich", "mir", "mein", "meine"),
        "skip": ("an", "der", "die", "das", "den", "dem"),
        "a card": ("eine karte", "karte"),
    },
    "fr": {
        "has": ("a", "ai", "détient", "montre", "montré", "montrée"),
        "lacks": ("sans", "n'a", "n’a", "n'ai", "n’ai"),
        "not": ("pas",),
        "accuses": ("accuse", "accusé"),
        "hand": ("main", "main:"),
        "correct": ("juste", "gagné", "gagne"),
        "at": ("à", "dans", "en"),
        "rolls": ("lancer", "lance", "lancé"),
        "nobody": ("personne", "aucun"),
        "me": ("moi", "je"),
        "skip": ("le", "la", "les", "l'", "l’"),
        "a card": ("une carte", "carte"),
    },
}


def local_words(kind: str) -> tuple[str, ...]:
    """The words of :data:`LOCAL_WORDS` of ``kind`` in the language in effect (``()`` in English)."""
    return LOCAL_WORDS.get(i18n.language(), {}).get(kind, ())


def _words(english: tuple, kind: str) -> tuple[str, ...]:
    """The English words of a kind and the language's own (:data:`LOCAL_WORDS`)."""
    return english + local_words(kind)


def _player(setup: Setup, text: str) -> str:
    """The player ``text`` names: a name, ``me``/``I``, or "me" in the player's language."""
    if setup.me is not None and text.strip().casefold() in local_words("me") \
            and text.strip().casefold() not in {p.casefold() for p in setup.players}:
        return setup.me
    return match_player(text, setup.players, setup.me)


def _drop_skipped(tokens: list) -> list:
    """``tokens`` without the language's words that carry no meaning there (:data:`LOCAL_WORDS`
    ``skip``: the "an" of "klagt … an", articles)."""
    skip = local_words("skip")
    return [t for t in tokens if t.casefold() not in skip] if skip else list(tokens)


def _triple(setup: Setup, text: str) -> tuple:
    """Three cards: suspect, weapon, room (commas optional)."""
    parts = [p for p in re.split(r"\s*,\s*", text.strip()) if p]
    cats = [cards for _, cards in setup.categories]
    if len(parts) == 3:
        return tuple(match_name(p, deck, cat) for p, (cat, deck) in zip(parts, setup.categories))
    tokens = text.replace(",", " ").split()
    if len(tokens) < 3:
        raise SessionFormatError(TEXT_PATH, _("name three cards (suspect, weapon, room), got "
                                              "“{words}”").format(words=" ".join(tokens)))
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
    has_w, lacks_w, accuses_w = _words(HAS, "has"), _words(LACKS, "lacks"), _words(ACCUSES, "accuses")
    hand_w, rolls_w, at_w = _words(("hand",), "hand"), _words(ROLLS, "rolls"), _words(AT, "at")
    if local_words("me") and re.match(r"(?i)j['’]ai\s", t.strip()):   # French "j'ai corde"
        t = "moi a " + t.strip()[4:]
    head_words = [w.casefold() for w in t.split(":", 1)[0].split()[1:]]
    verb_first = any(w in has_w + lacks_w + accuses_w + hand_w for w in head_words)
    if ":" in t and not verb_first:
        who, rest = t.split(":", 1)
        suggester = _player(setup, who)
        if ";" in rest:
            cards_text, ref_text = rest.split(";", 1)
        else:
            raise SessionFormatError(TEXT_PATH, _("a suggestion reads “Ann: plum rope hall; Bob” — add "
                                                  "“; NAME” (who refuted) or “; none”"))
        triple = _triple(setup, cards_text)
        ref_text = ref_text.strip()
        if not ref_text or ref_text.casefold() in NOBODY + local_words("nobody"):
            obj = {"type": "suggestion", "suggester": suggester, "cards": list(triple),
                   "passed": list(passers_between(setup, suggester, None)), "refuter": None}
            return event_from_json(obj, setup, TEXT_PATH)
        refuter, shown = _refuter_and_card(setup, ref_text, triple)
        if refuter == suggester:
            raise SessionFormatError(TEXT_PATH, _("{player} cannot refute their own suggestion").format(
                player=refuter))
        obj = {"type": "suggestion", "suggester": suggester, "cards": list(triple),
               "passed": list(passers_between(setup, suggester, refuter)), "refuter": refuter,
               "shown": shown}
        return event_from_json(obj, setup, TEXT_PATH)
    tokens = t.replace(":", " : ").split()
    low = [w.casefold() for w in tokens]
    if low and low[0] in rolls_w:                     # "roll 8": my roll
        return _roll(setup, setup.me, tokens[1:])
    for i, w in enumerate(low):
        if i == 0:
            continue
        if w in rolls_w:
            return _roll(setup, _player(setup, " ".join(tokens[:i])), tokens[i + 1:])
        if w in at_w:
            player = _player(setup, " ".join(tokens[:i]))
            rest = " ".join(_drop_skipped(tokens[i + 1:])).strip()
            if rest.casefold().startswith("the "):
                rest = rest[4:]
            nums = re.fullmatch(r"\[?\s*(\d+)\s*[, ]\s*(\d+)\s*\]?", rest)
            if nums:
                at = [int(nums.group(1)), int(nums.group(2))]
            elif rest:
                at = match_name(rest, dict(setup.categories)["room"], "room")
            else:
                raise SessionFormatError(TEXT_PATH, _("where is {player}? a room or a square “row col”").format(
                    player=player))
            return event_from_json({"type": "position", "player": player, "at": at}, setup, TEXT_PATH)
        if w in has_w or w in lacks_w or w in accuses_w or w in hand_w:
            player = _player(setup, " ".join(tokens[:i]))
            rest = [x for x in tokens[i + 1:] if x != ":"]
            if w in accuses_w:
                rest = _drop_skipped(rest)
                correct = bool(rest) and rest[-1].casefold() in _words(CORRECT, "correct")
                if correct:
                    rest = rest[:-1]
                triple = _triple(setup, " ".join(rest))
                return event_from_json({"type": "accusation", "player": player,
                                        "cards": list(triple), "correct": correct}, setup, TEXT_PATH)
            if w in hand_w:
                cards = _cards(setup, " ".join(rest))
                return event_from_json({"type": "hand", "player": player, "cards": cards},
                                       setup, TEXT_PATH)
            return _fact(setup, player, w in lacks_w and w not in has_w, rest)
    raise SessionFormatError(TEXT_PATH, _("expected “Ann: plum rope hall; Bob”, “Bob has rope”, "
                                          "“Bob lacks rope” or “Ann accuses plum rope hall”"))


def _fact(setup: Setup, player: str, lacks: bool, rest: list):
    """The "has" / "lacks" event of ``player`` from the words after the verb (``lacks``: the
    verb said "lacks"); a negation after a "has" verb ("has not rope", "hat Seil nicht", "n'a
    pas") makes it "lacks"."""
    not_w = ("not",) + local_words("not")
    if rest and rest[0].casefold() in not_w + ("have", "has"):  # "doesn't have", "has not"
        if rest[0].casefold() in not_w:
            lacks = True
        rest = rest[1:]
    if len(rest) > 1 and rest[-1].casefold() in local_words("not"):   # "Bob hat Seil nicht"
        lacks = True
        rest = rest[:-1]
    rest = _drop_skipped(rest)
    card = match_name(" ".join(rest), setup.cards, "card") if rest else None
    if card is None:
        raise SessionFormatError(TEXT_PATH, (_("which card does {player} lack?") if lacks else
                                             _("which card does {player} hold?")).format(player=player))
    return event_from_json({"type": "lacks" if lacks else "shown", "player": player,
                            "card": card}, setup, TEXT_PATH)


def _roll(setup: Setup, player: str, rest: list):
    if len(rest) != 1 or not rest[0].isdigit():
        raise SessionFormatError(TEXT_PATH, _("a roll reads “roll 8” (the dice's total, 1 to 12)"))
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
        if not rest or " ".join(rest) in ("?", "a card", "card") or " ".join(rest).casefold() in local_words("a card"):
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

    example = _local_keywords(example)
    base = names_of(setup.edition)
    if base is None or base == setup.edition:
        return example
    _to_id, to_name = name_tables(setup.edition)
    out = []
    for token in example.split(" "):
        bare = token.strip(",;:?!.")
        hits = [cid for cid in to_name if bare and any(w.startswith(bare.casefold()) for w in words(cid))]
        if bare and len(hits) == 1 and bare.isalpha():
            token = token.replace(bare, words(to_name[hits[0]])[-1], 1)
        out.append(token)
    return " ".join(out)


#: The example's English keywords and the :data:`LOCAL_WORDS` kind that says them.
_EXAMPLE_KEYWORDS = {"has": "has", "lacks": "lacks", "accuses": "accuses", "none": "nobody"}


#: Example phrases said otherwise than word by word ("me has" is "ich habe", "j'ai").
_EXAMPLE_PHRASES = {"de": {"me has ": "ich habe "}, "fr": {"me has ": "j'ai "}}


def _local_keywords(example: str) -> str:
    """``example`` with its keywords ("has", "lacks", "accuses", "none") in the words of the
    language in effect (the first of each kind in :data:`LOCAL_WORDS`); unchanged in English."""
    for phrase, local in _EXAMPLE_PHRASES.get(i18n.language(), {}).items():
        example = example.replace(phrase, local)
    out = []
    for token in example.split(" "):
        kind = _EXAMPLE_KEYWORDS.get(token)
        local = local_words(kind) if kind else ()
        out.append(local[0] if local else token)
    return " ".join(out)


def preview(setup: Setup, events: Sequence, text: str) -> str:
    """The typed line's event in words (:func:`describe_event`). Raises like :func:`parse`."""
    return describe_event(setup, parse(setup, events, text))


def complete(setup: Setup, events: Sequence, text: str) -> list[str]:
    """Completions of the last word of ``text`` (whole lines, the last word completed to a word
    of a player's or card's name that fits where it stands)."""
    names: list[str]
    hand_w = _words(("hand",), "hand")
    if ":" in text and not set(hand_w) & set(text.split(":", 1)[0].casefold().split()):
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
                names = players + ["none"] + list(local_words("nobody")[:1])
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
        verb = any(w in _words(HAS, "has") + _words(LACKS, "lacks") + _words(ACCUSES, "accuses") + hand_w
                   for w in toks[1:])
        if verb or (len(toks) >= 1 and text.endswith(" ") and len(toks) >= 2):
            names = list(setup.cards)
        elif len(toks) >= 1 and (text.endswith(" ") or len(toks) >= 2):
            # the English verbs, then the language's own (the first of each kind)
            local = [ws[0] + (":" if kind == "hand" else "") for kind in ("has", "lacks", "accuses", "hand")
                     for ws in [local_words(kind)] if ws and ws[0] not in ("hand", "accuse")]
            names = ["has", "lacks", "accuses", "hand:"] + local
        else:
            names = list(setup.players) + [w for w in ("me",) + local_words("me")[:1] if w not in
                                           {p.casefold() for p in setup.players}]
    return complete_word(text, names)


# ---------------------------------------------------------------------------------------------
# item: is a candidate event impossible given the log, and why
# ---------------------------------------------------------------------------------------------
def _holder_phrase(setup: Setup, owner: str) -> str:
    if owner == ENVELOPE:
        return _("it is in the envelope")
    if owner == setup.me:
        return _("you hold it")
    return _("{player} holds it").format(player=owner)


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
        return _("the log is already impossible")
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
            return (_("you do not hold {card}") if p == setup.me else
                    _("{player} does not hold {card}")).format(player=p, card=c)
    lacking = []
    if isinstance(event, LacksEvent):
        lacking = [(event.player, event.card)]
    elif isinstance(event, SuggestionEvent):
        lacking = [(p, c) for p in event.passed for c in event.cards]
    for p, c in lacking:
        if known_owner(c) == p:
            if p == setup.me and isinstance(event, LacksEvent):
                return _("you hold it")
            return (_("you hold {card}") if p == setup.me else _("{player} holds {card}")).format(
                player=p, card=c)
    if isinstance(event, AccusationEvent) and not event.correct:
        if all(known_owner(c) == ENVELOPE for c in event.cards):
            return _("all three are known to be in the envelope")
    cons = constraints_for(setup, list(events) + [event])
    if count_deals(propagate(cons), cancel, marginals=False).count == 0:
        reason = _("no deal of the cards agrees with it and the log")
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
        return _("you cannot hold it") if player == setup.me else _("{player} cannot hold it").format(player=player)
    if not has and p >= 1 - 1e-12:
        return _("you hold it") if player == setup.me else _("{player} holds it").format(player=player)

    return None
