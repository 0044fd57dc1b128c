"""Why an Inkognito opponent's identity or build is certain or ruled out: the answers that force it.

Facts: ``{"opponent": "Red", "identity": "Agent X"}`` or ``{"opponent": "Red", "build": "fat"}``.
Status under the exact joint posterior (:func:`engines.inkognito.inference.infer`, method
``"joint"``: identities and builds dealt one per player): ``"certain"`` at probability 1,
``"impossible"`` at 0, else ``"uncertain"``.

A subset of the answers forces the status when the joint posterior under it alone (answers in
their order) gives the same. Which worlds are possible depends only on which answers are valid
for them (the no-repeats rule and the deception model change likelihoods, not the support, on a
log without repeats), so the predicate is monotone and QuickXplain's subset is irreducible
(:mod:`engines.core.explain`).
"""
from __future__ import annotations

from typing import Optional, Sequence

from engines.core.errors import ContradictionError, SessionFormatError
from engines.core.explain import Explanation, conflict_error, explain_with
from engines.core.i18n import _
from engines.core.schema import Reader
from engines.inkognito.inference import infer
from engines.inkognito.model import Setup, describe_event
from engines.inkognito.words import card_words


def parse_fact(setup: Setup, fact) -> tuple:
    """``(opponent, kind, name)`` with kind ``"identity"`` or ``"build"``.

    Raises:
        SessionFormatError: unknown opponent, identity or build, or neither / both given.
    """
    r = Reader(fact, "$.fact")
    opp = r.choice("opponent", setup.opponents, what="opponent")
    kinds = [k for k in ("identity", "build") if r.has(k)]
    if len(kinds) != 1:
        raise SessionFormatError("$.fact", "give exactly one of \"identity\" or \"build\"")
    kind = kinds[0]
    name = r.choice(kind, setup.identities if kind == "identity" else setup.builds, what=kind)
    return opp, kind, name


def _prob(setup: Setup, events, opp: str, kind: str, name: str) -> Optional[float]:
    try:
        post = infer(setup, events, method="joint")
    except ContradictionError:
        return None
    b = post.opponents[opp]
    return float((b.identity if kind == "identity" else b.build)[name])


def _status(p: float) -> str:
    return "certain" if p >= 1.0 - 1e-9 else "impossible" if p <= 1e-12 else "uncertain"


def _consistent(setup: Setup, events) -> bool:
    try:
        infer(setup, events, method="joint")
        return True
    except ContradictionError:
        return False


def explain_contradiction(setup: Setup, events: Sequence, *, cancel=None) -> Optional[list]:
    """An irreducible set of 0-based answer indices that cannot all be true (no deal of
    identities and builds fits them, or a set shown twice); None when the log is consistent."""
    events = tuple(events)
    err = conflict_error(len(events), lambda s: _consistent(setup, [events[i] for i in s]),
                         lambda i: describe_event(setup, events[i]), cancel=cancel)
    return None if err is None else list(err.entries)


def explain(setup: Setup, events: Sequence, fact: dict, *, cancel=None) -> Explanation:
    """Why ``fact`` is certain, ruled out or open under ``events`` (exact joint model).

    ``cancel``: zero-argument callable checked before every engine call (raises
    :class:`~engines.core.errors.Cancelled`), as in ``infer``.

    Returns:
        :class:`~engines.core.explain.Explanation` (``because``: 0-based event indices).
    Raises:
        SessionFormatError: the fact names nothing in the setup (``$.fact...``).
        ConflictError (a ContradictionError): the log is contradictory; it names an
            irreducible set of answers that cannot all be true.
    """
    opp, kind, name = parse_fact(setup, fact)
    events = tuple(events)
    n = len(events)
    p = _prob(setup, events, opp, kind, name)
    if p is None:
        raise conflict_error(n, lambda s: _consistent(setup, [events[i] for i in s]),
                             lambda i: describe_event(setup, events[i]), cancel=cancel)
    status = _status(p)

    def forces(s):
        q = _prob(setup, [events[i] for i in s], opp, kind, name)
        return q is not None and _status(q) == status

    return explain_with(dict(fact), n, status, forces,
                        lambda s: _steps(setup, events, s, opp, kind, name, status), cancel=cancel)


def _rule(setup: Setup, ev) -> str:
    cards = [card_words(c) for c in list(ev.identities) + list(ev.builds)]
    shown = _("{first} or {second}").format(first=", ".join(cards[:-1]), second=cards[-1]) \
        if len(cards) > 1 else cards[0]
    if ev.question == "ambassador":
        return _("exactly one of {cards} is true of {opponent}").format(cards=shown, opponent=ev.opponent)
    return _("at least one of {cards} is true of {opponent}").format(cards=shown, opponent=ev.opponent)


def _steps(setup: Setup, events, subset, opp: str, kind: str, name: str, status: str) -> list:
    mine = setup.me_identity if kind == "identity" else setup.me_build
    said = dict(opponent=opp, card=card_words(name))
    what = (_("{opponent} is {card}") if status == "certain" else _("{opponent} is not {card}")).format(**said)
    if not subset:
        if name == mine:
            return [_("You are {card} yourself → {what}").format(card=card_words(name), what=what)]
        return [_("The setup alone → {what}").format(what=what)]
    out = [f"#{i + 1}: {describe_event(setup, events[i])} → {_rule(setup, events[i])}"
           for i in subset]
    shown_by = list(dict.fromkeys(events[i].opponent for i in subset))
    dealt = _("you are {identity} and {build}; every identity and build belongs to exactly one "
              "player").format(identity=setup.me_identity, build=card_words(setup.me_build))
    post = infer(setup, [events[i] for i in subset], method="joint")
    for other in shown_by:
        if other == opp:
            continue
        b = post.opponents[other]
        for k2, d in (("identity", b.identity), ("build", b.build)):
            for x, q in d.items():
                if q >= 1.0 - 1e-9:
                    out.append(_intermediate(setup, events, subset, other, k2, x))
    if shown_by == [opp]:
        out.append(_("Only the identities and builds of {opponent} that fit all of these answers "
                     "remain ({dealt}) → {what}").format(opponent=opp, dealt=dealt, what=what))
    else:
        out.append(_("Combining what {players} showed ({dealt}) → {what}").format(
            players=_join(shown_by), dealt=dealt, what=what))
    return out


def _intermediate(setup: Setup, events, subset, other: str, kind: str, x: str) -> str:
    """An intermediate conclusion ("Yellow is thin") with its reason: the answers among
    ``subset`` that force it on their own (an irreducible subset, QuickXplain), the rules they
    stand for, and the dealing rule."""
    from engines.core.explain import quickxplain
    sub = list(subset)

    def forces(s):
        q = _prob(setup, [events[sub[t]] for t in s], other, kind, x)
        return q is not None and q >= 1.0 - 1e-9

    use = quickxplain(len(sub), forces)
    use = [sub[t] for t in (use if use is not None else range(len(sub)))]
    mine = setup.me_identity if kind == "identity" else setup.me_build
    said = dict(mine=card_words(mine), other=other, card=card_words(x))
    if not use:
        return _("You are {mine} yourself and the rest is dealt → {other} is {card}").format(**said)
    refs = _join([f"#{i + 1} ({_rule(setup, events[i])})" for i in use])
    if kind == "identity":
        text = _("{refs}; you are {mine}, and each of the identities belongs to exactly one player: "
                 "the only identity left for {other} is {card} → {other} is {card}")
    else:
        text = _("{refs}; you are {mine}, and each of the builds belongs to exactly one player: "
                 "the only build left for {other} is {card} → {other} is {card}")
    return text.format(refs=refs, **said)


def _join(items: list) -> str:
    if len(items) == 1:
        return items[0]
    return _("{first} and {second}").format(first=", ".join(items[:-1]), second=items[-1])
