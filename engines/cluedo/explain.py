"""Why a Cluedo cell is ✓ or ✗: the entries that force it, and the derivation in words.

Fact: ``{"card": "Rope", "place": "Bob"}`` (``place`` a player or ``"envelope"``). Its status
under a log is ``"certain"`` when every consistent deal puts the card there, ``"impossible"``
when none does, else ``"uncertain"`` — decided by the exact deal counting of
:mod:`engines.cluedo.counting` (Agade09's Cluedo_Sheet's "#Sat" model): a subset of the log forces
``"certain"`` iff no deal consistent with it puts the card elsewhere (the count with the cell
forbidden is 0), ``"impossible"`` iff the count with the cell forced is 0. Adding events only
removes deals, so the predicate is monotone and QuickXplain's subset is irreducible
(:mod:`engines.core.explain`).

Steps: forward chaining over the entries found, with the rules a player uses on a worksheet
(a pass or a "does not have" → lacks; a shown card or my hand → has; a card is in exactly one
place; a refutation whose other two cards the refuter lacks → has the third; a full hand lacks
every other card; a hand that can only be filled one way holds its candidates; the envelope
holds one card per category; a failed accusation with two of its cards in the envelope → the
third is not). When the rules reach the fact, the steps are its proof; otherwise the fact
needs a counting argument over the hand sizes and the envelope, and one sentence says so.
"""
from __future__ import annotations

from typing import Optional, Sequence

from engines.cluedo.counting import count_deals, propagate
from engines.cluedo.inference import apply_event, base_constraints
from engines.cluedo.model import (
    AccusationEvent,
    HandEvent,
    LacksEvent,
    Setup,
    ShownEvent,
    SuggestionEvent,
    describe_event,
)
from engines.core import i18n
from engines.core.explain import Explanation, conflict_error, explain_with
from engines.core.i18n import _, ngettext
from engines.core.schema import Reader

#: Longest derivation written out step by step; longer ones are summarised.
MAX_STEPS = 16


def parse_fact(setup: Setup, fact) -> tuple:
    """``(card index, owner index)`` of a fact object (owner ``len(players)`` = envelope).

    Raises:
        SessionFormatError: not an object, or a card / place the setup does not have
            (path ``$.fact.card`` / ``$.fact.place``).
    """
    r = Reader(fact, "$.fact")
    card = r.choice("card", setup.cards, what="card")
    place = r.choice("place", setup.owners, what="place (a player or \"envelope\")")
    return setup.cards.index(card), setup.owners.index(place)


def _count(setup: Setup, events: Sequence, extra=None) -> int:
    cons = base_constraints(setup)
    for ev in events:
        apply_event(setup, cons, ev)
    if extra is not None:
        extra(cons)
    return count_deals(propagate(cons), marginals=False).count


def fact_status(setup: Setup, events: Sequence, card: int, owner: int) -> str:
    """``"certain"``, ``"impossible"`` or ``"uncertain"`` of "card ``card`` is at ``owner``"
    under ``events`` (exact counting; a contradictory log makes every fact both, so call it
    on consistent logs)."""
    if _count(setup, events, lambda c: c.forbid(card, owner)) == 0:
        return "certain"
    if _count(setup, events, lambda c: c.force(card, owner)) == 0:
        return "impossible"
    return "uncertain"


def explain_contradiction(setup: Setup, events: Sequence, *, cancel=None) -> Optional[list]:
    """An irreducible set of 0-based event indices that cannot all be true together (no deal
    fits them, and every proper subset obtained by dropping one has a deal); ``[]`` when the
    setup alone is impossible; None when the log is consistent. Counting is monotone in the
    events, so QuickXplain's result is irreducible."""
    events = tuple(events)
    err = conflict_error(len(events), lambda s: _count(setup, [events[i] for i in s]) > 0,
                         lambda i: describe_event(setup, events[i]), cancel=cancel)
    return None if err is None else list(err.entries)


def explain(setup: Setup, events: Sequence, fact: dict, *, cancel=None) -> Explanation:
    """Why ``fact`` (``{"card", "place"}``) is certain, impossible or open under ``events``.

    Args:
        setup: the table; events: the log (Cluedo events, in order); fact: the JSON object.
    ``cancel``: zero-argument callable checked before every engine call (raises
    :class:`~engines.core.errors.Cancelled`), as in ``infer``.

    Returns:
        :class:`~engines.core.explain.Explanation`; ``because`` is an irreducible subset of
        the events forcing the status (0-based indices), ``steps`` the derivation in words.
    Raises:
        SessionFormatError: the fact names no card or place of the setup.
        ConflictError (a ContradictionError): the log is contradictory; its message and
            ``entries`` name an irreducible set of entries that cannot all be true.
    Cost: O(k log(n/k)) exact counts for k entries found among n (QuickXplain, Junker 2004);
        a classic deck after 30 entries: see tests/benchmarks/bench_explain.py.
    """
    card, owner = parse_fact(setup, fact)
    events = tuple(events)
    n = len(events)
    if _count(setup, events) == 0:
        raise conflict_error(n, lambda s: _count(setup, [events[i] for i in s]) > 0,
                             lambda i: describe_event(setup, events[i]), cancel=cancel)
    status = fact_status(setup, events, card, owner)
    if status == "certain":
        def negate(c):
            c.forbid(card, owner)
    else:
        def negate(c):
            c.force(card, owner)

    def forces(s):
        return _count(setup, [events[i] for i in s], negate) == 0

    return explain_with(dict(fact), n, status, forces,
                        lambda s: derivation(setup, events, s, card, owner, status == "certain"),
                        cancel=cancel)


# ---------------------------------------------------------------------------------- steps
class _Chain:
    """Forward chaining over worksheet rules with provenance: ``known[(card, owner)] =
    (value, text of the conclusion, premises, sentence)``; premises are keys of ``known``."""

    def __init__(self, setup: Setup):
        self.setup = setup
        self.k = len(setup.players)
        self.names = list(setup.players) + ["the envelope"]
        self.cards = setup.cards
        self.known: dict = {}
        self.conflict = False

    def fact_text(self, key, value: bool) -> str:
        c, o = key
        card = self.cards[c]
        if o == self.k:
            text = _("{card} is in the envelope") if value else _("{card} is not in the envelope")
        elif self.setup.players[o] == self.setup.me:
            text = _("you hold {card}") if value else _("you do not hold {card}")
        else:
            text = _("{player} has {card}") if value else _("{player} lacks {card}")
        return text.format(card=card, player=self.names[o])

    def ref(self, key) -> str:
        """A premise in words, with its entry when it comes straight from one."""
        v, _text, prem, sent, entry = self.known[key]
        t = self.fact_text(key, v)
        return f"{t} (#{entry + 1})" if entry is not None and not prem else t

    def add(self, key, value: bool, premises=(), sentence: Optional[str] = None, entry=None) -> bool:
        if key in self.known:
            if self.known[key][0] != value:
                self.conflict = True
            return False
        self.known[key] = (value, self.fact_text(key, value), tuple(premises), sentence, entry)
        return True

    def val(self, c: int, o: int):
        e = self.known.get((c, o))
        return None if e is None else e[0]


#: The thousands separator of each language (engines/ is Qt-free, so not QLocale's): "1,234"
#: in English, "1.234" in German, "1 234" (a narrow no-break space) in French.
_GROUP = {"en": ",", "de": ".", "fr": "\u202f"}


def grouped(n: int) -> str:
    """``n`` with the thousands grouped as the language in effect writes them ("12,345")."""
    return f"{n:,}".replace(",", _GROUP.get(i18n.language(), ","))


def _join(items: list) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + _(" and ") + items[-1]


def _envelope_holds_one(category: str, card: str, other: str) -> str:
    """"the envelope holds one weapon, Rope → Dagger is not in the envelope" (one sentence
    per category: the words agree with the category's noun in German and French)."""
    text = {"suspect": _("the envelope holds one suspect, {card} → {other} is not in the envelope"),
            "weapon": _("the envelope holds one weapon, {card} → {other} is not in the envelope"),
            "room": _("the envelope holds one room, {card} → {other} is not in the envelope")}.get(
        category, _("the envelope holds one {category}, {card} → {other} is not in the envelope"))
    return text.format(category=category, card=card, other=other)


def _every_other_elsewhere(category: str, card: str) -> str:
    """"the envelope holds one room and every other room is elsewhere → Hall is in the envelope"."""
    text = {"suspect": _("the envelope holds one suspect and every other suspect is elsewhere → "
                         "{card} is in the envelope"),
            "weapon": _("the envelope holds one weapon and every other weapon is elsewhere → "
                        "{card} is in the envelope"),
            "room": _("the envelope holds one room and every other room is elsewhere → "
                      "{card} is in the envelope")}.get(
        category, _("the envelope holds one {category} and every other {category} is elsewhere → "
                    "{card} is in the envelope"))
    return text.format(category=category, card=card)


def derivation(setup: Setup, events: Sequence, subset: Sequence[int], card: int, owner: int,  # noqa: C901 (one branch per reasoning rule of the explanation)
               value: bool) -> list:
    """The steps in words that derive "``card`` is (``value``) / is not at ``owner``" from
    the entries ``subset`` (0-based indices into ``events``) by worksheet rules (see the module
    docstring); a sentence naming the counting argument when the rules do not reach it."""
    ch = _Chain(setup)
    k = ch.k
    ci = setup.card_indices
    pi = setup.player_indices
    clauses = []      # (refuter, cards, entry) and ("accusation", cards, entry)
    for i in subset:
        ev = events[i]
        e = f"#{i + 1}"
        if isinstance(ev, HandEvent):
            hand = (_("{entry}: your hand: {cards}") if ev.player == setup.me else
                    _("{entry}: {player}'s hand: {cards}")).format(entry=e, player=ev.player,
                                                                  cards=_join(list(ev.cards)))
            for c in ev.cards:
                ch.add((ci[c], pi[ev.player]), True, (), hand, i)
        elif isinstance(ev, ShownEvent):
            ch.add((ci[ev.card], pi[ev.player]), True, (),
                   _("{entry}: {player} has {card}").format(entry=e, player=ev.player, card=ev.card), i)
        elif isinstance(ev, LacksEvent):
            ch.add((ci[ev.card], pi[ev.player]), False, (),
                   _("{entry}: {player} does not have {card}").format(entry=e, player=ev.player,
                                                                      card=ev.card), i)
        elif isinstance(ev, SuggestionEvent):
            for p in ev.passed:
                for c in ev.cards:
                    ch.add((ci[c], pi[p]), False, (),
                           _("{player} passed on {entry} → {player} lacks {card}").format(
                               player=p, entry=e, card=c), i)
            if ev.refuter is not None:
                if ev.shown is not None:
                    ch.add((ci[ev.shown], pi[ev.refuter]), True, (),
                           _("{player} showed {card} on {entry}").format(player=ev.refuter,
                                                                         card=ev.shown, entry=e), i)
                else:
                    clauses.append((pi[ev.refuter], [ci[c] for c in ev.cards], i))
        elif isinstance(ev, AccusationEvent):
            if ev.correct:
                for c in ev.cards:
                    ch.add((ci[c], k), True, (),
                           _("{entry}: the accusation was correct → {card} is in the envelope").format(
                               entry=e, card=c), i)
            else:
                clauses.append((None, [ci[c] for c in ev.cards], i))
    target = (card, owner)
    cat_cards = [[ci[c] for c in cards] for _, cards in setup.categories]
    n = len(setup.cards)
    changed = True
    while changed and target not in ch.known and not ch.conflict:
        changed = False
        # a card is in exactly one place
        for c in range(n):
            owners = [o for o in range(k + 1) if ch.val(c, o) is True]
            if owners:
                o = owners[0]
                for o2 in range(k + 1):
                    if o2 != o and ch.val(c, o2) is None:
                        changed |= ch.add((c, o2), False, [(c, o)],
                                          f"{ch.ref((c, o))} → "
                                          f"{ch.fact_text((c, o2), False)}")
                continue
            left = [o for o in range(k + 1) if ch.val(c, o) is not False]
            if len(left) == 1:
                prem = [(c, o) for o in range(k + 1) if o != left[0]]
                changed |= ch.add((c, left[0]), True, prem,
                                  _("{card} is nowhere else → {fact}").format(
                                      card=setup.cards[c], fact=ch.fact_text((c, left[0]), True)))
        # hands: a full hand lacks the rest; a hand with as many candidates as cards holds them
        for p in range(k):
            size = setup.hand_sizes[p]
            has = [c for c in range(n) if ch.val(c, p) is True]
            cand = [c for c in range(n) if ch.val(c, p) is None]
            if cand and len(has) == size:
                prem = [(c, p) for c in has]
                if setup.players[p] == setup.me:
                    full = ngettext("you hold {n} cards and it is known ({cards}) → {fact}",
                                    "you hold {n} cards and they are known ({cards}) → {fact}", size)
                else:
                    full = ngettext("{player} holds {n} cards and it is known ({cards}) → {fact}",
                                    "{player} holds {n} cards and they are known ({cards}) → {fact}", size)
                for c in cand:
                    changed |= ch.add((c, p), False, prem, full.format(
                        player=setup.players[p], n=size, cards=_join([setup.cards[x] for x in has]),
                        fact=ch.fact_text((c, p), False)))
            elif cand and len(has) + len(cand) == size:
                prem = [(c, p) for c in range(n) if ch.val(c, p) is False]
                for c in cand:
                    changed |= ch.add((c, p), True, prem,
                                      _("{player} holds {n} cards and lacks all but {cards} → "
                                        "{player} has {card}").format(
                                          player=setup.players[p], n=size,
                                          cards=_join([setup.cards[x] for x in has + cand]),
                                          card=setup.cards[c]))
        # the envelope holds one card of each category
        for j, cards in enumerate(cat_cards):
            cat = setup.categories[j][0]
            inside = [c for c in cards if ch.val(c, k) is True]
            if inside:
                for c in cards:
                    if ch.val(c, k) is None:
                        changed |= ch.add((c, k), False, [(inside[0], k)],
                                          _envelope_holds_one(cat, setup.cards[inside[0]], setup.cards[c]))
                continue
            left = [c for c in cards if ch.val(c, k) is not False]
            if len(left) == 1:
                prem = [(c, k) for c in cards if c != left[0]]
                changed |= ch.add((left[0], k), True, prem,
                                  _every_other_elsewhere(cat, setup.cards[left[0]]))
        # refutations and failed accusations
        for who, cards, i in clauses:
            if who is None:
                inside = [c for c in cards if ch.val(c, k) is True]
                rest = [c for c in cards if ch.val(c, k) is None]
                if len(inside) == 2 and len(rest) == 1:
                    changed |= ch.add((rest[0], k), False, [(c, k) for c in inside],
                                      _("{entry} was a wrong accusation and {cards} are in the "
                                        "envelope → {card} is not").format(
                                          entry=f"#{i + 1}", cards=_join([setup.cards[c] for c in inside]),
                                          card=setup.cards[rest[0]]))
                continue
            if any(ch.val(c, who) is True for c in cards):
                continue
            rest = [c for c in cards if ch.val(c, who) is not False]
            if len(rest) == 1 and ch.val(rest[0], who) is None:
                lacked = [c for c in cards if c != rest[0]]
                name = setup.players[who]
                changed |= ch.add((rest[0], who), True, [(c, who) for c in lacked],
                                  _("{player} refuted {entry} holding one of {cards}; {facts} → "
                                    "{player} has {card}").format(
                                      player=name, entry=f"#{i + 1}",
                                      cards=_join([setup.cards[c] for c in cards]),
                                      facts=_join([ch.ref((c, who)) for c in lacked]),
                                      card=setup.cards[rest[0]]))
        # a hand-size count: the known cards and one card of each of some disjoint open
        # refutations fill the hand → every other card is elsewhere
        if not changed:
            for p in range(k):
                changed |= _hand_count(ch, setup, p, clauses)
    if target in ch.known and ch.known[target][0] == value and not ch.conflict:
        order: list = []
        seen: set = set()

        def visit(key):
            if key in seen:
                return
            seen.add(key)
            for q in ch.known[key][2]:
                visit(q)
            order.append(key)

        visit(target)
        steps = list(dict.fromkeys(ch.known[key][3] for key in order))  # a hand: one step
        if len(steps) <= MAX_STEPS:
            return steps
    return [_counting_sentence(setup, events, subset, card, owner, value)]


def _hand_count(ch: _Chain, setup: Setup, p: int, clauses: list) -> bool:
    """Player ``p`` holds ``size`` cards; with ``h`` of them known and ``size - h`` refutations
    of ``p`` on pairwise disjoint sets of still-open cards, each of those sets holds one of
    ``p``'s cards, so ``p`` lacks every card outside them. Greedy choice of the sets (fewest open
    cards first); sound whatever the choice."""
    n = len(setup.cards)
    size = setup.hand_sizes[p]
    has = [c for c in range(n) if ch.val(c, p) is True]
    if len(has) >= size:
        return False
    open_sets = []
    for who, cards, i in clauses:
        if who != p or any(ch.val(c, p) is True for c in cards):
            continue
        live = [c for c in cards if ch.val(c, p) is None]
        open_sets.append((len(live), i, live, [c for c in cards if ch.val(c, p) is False]))
    used, chosen = set(has), []
    for _size, i, live, lacked in sorted(open_sets):
        if live and not used & set(live):
            chosen.append((i, live, lacked))
            used |= set(live)
    if not chosen or len(has) + len(chosen) != size:
        return False
    name = setup.players[p]
    parts = ([_("{cards} (known)").format(cards=_join([setup.cards[c] for c in has]))] if has else []) + \
        [_("one of {cards} ({entry})").format(cards=_join([setup.cards[c] for c in live]), entry=f"#{i + 1}")
         for i, live, _lacked in chosen]
    prem = [(c, p) for c in has] + [(c, p) for _i, _live, lacked in chosen for c in lacked]
    changed = False
    for c in range(n):
        if c not in used and ch.val(c, p) is None:
            changed |= ch.add((c, p), False, prem,
                              _("{player} holds {n} cards: {parts} → {player} lacks {card}").format(
                                  player=name, n=size, parts="; ".join(parts), card=setup.cards[c]))
    return changed


def _counting_sentence(setup: Setup, events, subset, card: int, owner: int, value: bool) -> str:
    """The counting argument in words, naming what was counted: the deals that fit the entries
    (exact count, :mod:`engines.cluedo.counting`) and how many of them put the card there."""
    sizes = ", ".join(f"{p} {n}" for p, n in zip(setup.players, setup.hand_sizes))
    where = _("in the envelope") if owner == len(setup.players) else \
        _("with {player}").format(player=setup.players[owner])
    entries = ", ".join(f"#{i + 1}" for i in subset) or _("no entry")
    evs = [events[i] for i in subset]
    n = _count(setup, evs)
    at = _count(setup, evs, lambda c: c.force(card, owner))
    deals = ngettext("{n} deal", "{n} deals", n).format(n=grouped(n))
    name = setup.cards[card]
    if at == 0:
        verdict = _("none puts {card} {where}")
    elif at == n:
        verdict = (_("all of them put {card} {where} (none puts it anywhere else)") if n != 1
                   else _("it puts {card} {where}"))
    else:
        verdict = _("{n} put {card} {where}")
    verdict = verdict.format(card=name, where=where, n=grouped(at))
    return _("A counting argument, not a short chain: of the {deals} of the cards that fit "
             "{entries}, with the hand sizes ({sizes}) and one suspect, one weapon and one room "
             "in the envelope, {verdict}.").format(deals=deals, entries=entries, sizes=sizes, verdict=verdict)

