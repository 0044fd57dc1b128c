"""What to do next in Cluedo: the suggestion with the largest expected information gain about
the envelope, whether an accusation is certain, and which card to show when I must refute
(issue 2, section 3 "recommend").

Expected information gain of my suggestion (s, w, r): the observable outcome ``O`` is who
refutes (the first player after me, in seating order, holding one of the three cards) and which
card I am shown — the refuter is modelled as choosing uniformly among their matching cards. The
gain is ``sum over categories of I(E_cat; O)`` in bits, where ``E_cat`` is the envelope's card of
that category: the expected reduction of :meth:`CluedoPosterior.envelope_entropy_bits`. The
joint law of (deal, outcome) is estimated from exact uniform samples of the consistent deals
(:func:`engines.cluedo.inference.sample_deals`; the same samples for every candidate, so the
ranking is not blurred by independent noise). The outcome given a deal is computed exactly
(the refuter's choice is averaged, not sampled).
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Optional, Sequence

import numpy as np

from engines.core.errors import SessionFormatError, check_cancel
from engines.core.info import entropy_bits
from engines.cluedo.counting import count_deals, propagate
from engines.cluedo.inference import _raise_contradiction, constraints_for, infer
from engines.cluedo.model import (HandEvent, LacksEvent, Setup, ShownEvent, SuggestionEvent)

CERTAIN = 1.0 - 1e-9


@dataclass(frozen=True)
class CluedoRecommendation:
    """The next move for me.

    Fields:
        suggestions: list of ``(suspect, weapon, room, information_bits)``, best first;
            ``information_bits`` is the expected information gain about the envelope (bits).
        accusation: ``(suspect, weapon, room)`` when the envelope is certain, else None.
        room: the room the ranking was restricted to, or None (all rooms).
        envelope_entropy_bits: current envelope uncertainty (bits).
        samples: number of consistent deals sampled for the estimate.
        seconds: wall time.
    """

    suggestions: list
    accusation: Optional[tuple]
    room: Optional[str] = None
    envelope_entropy_bits: float = 0.0
    samples: int = 0
    seconds: float = 0.0

    def to_json(self) -> dict:
        return {"game": "cluedo",
                "accusation": list(self.accusation) if self.accusation else None,
                "room": self.room,
                "envelope_entropy_bits": self.envelope_entropy_bits,
                "samples": self.samples,
                "suggestions": [{"suspect": s, "weapon": w, "room": r, "information_bits": b}
                                for s, w, r, b in self.suggestions],
                "seconds": round(self.seconds, 6)}


def _mi_bits(labels: np.ndarray, n_labels: int, rows: np.ndarray, outs: np.ndarray, weights: np.ndarray,
             n_outs: int, n: int) -> float:
    """Plug-in mutual information (bits) between a per-sample label and the outcome, from
    weighted (sample, outcome) pairs."""
    joint = np.bincount(labels[rows] * n_outs + outs, weights=weights, minlength=n_labels * n_outs)
    joint = joint.reshape(n_labels, n_outs) / n
    return max(float(entropy_bits(joint.sum(1)) + entropy_bits(joint.sum(0)) - entropy_bits(joint)), 0.0)


def suggestion_outcomes(setup: Setup, deals: np.ndarray, suggester: str, triple_idx) -> tuple:
    """Outcome law of a suggestion for each sampled deal.

    Args:
        deals: int array (N, n_cards) of owner indices.
        suggester: who suggests; the others answer in seating order.
        triple_idx: card indices (suspect, weapon, room).
    Returns:
        ``(rows, outs, weights, n_outs)``: for each sample ``rows[i]``, outcome ``outs[i]`` has
        probability ``weights[i]``; outcome 0 = nobody refutes, ``1 + 3*j + t`` = the j-th
        player after the suggester refutes by showing card t of the triple.
    """
    players = list(setup.players)
    i = players.index(suggester)
    order = [(i + 1 + j) % len(players) for j in range(len(players) - 1)]
    own = deals[:, list(triple_idx)]                          # N x 3
    n = own.shape[0]
    holds = np.stack([own == p for p in order], axis=1)       # N x (k-1) x 3
    anyh = holds.any(axis=2)
    has_ref = anyh.any(axis=1)
    ref = np.argmax(anyh, axis=1)
    match = holds[np.arange(n), ref] & has_ref[:, None]       # N x 3
    cnt = match.sum(axis=1)
    rows, outs, weights = [np.flatnonzero(~has_ref)], [np.zeros(int((~has_ref).sum()), dtype=np.int64)], \
        [np.ones(int((~has_ref).sum()))]
    for t in range(3):
        sel = np.flatnonzero(match[:, t])
        rows.append(sel)
        outs.append(1 + 3 * ref[sel] + t)
        weights.append(1.0 / cnt[sel])
    return (np.concatenate(rows), np.concatenate(outs).astype(np.int64), np.concatenate(weights),
            1 + 3 * len(order))


def recommend(setup: Setup, events: Sequence = (), *, room: Optional[str] = None, cancel=None,
              samples: int = 4000, seed: Optional[int] = 0) -> CluedoRecommendation:
    """Rank my possible suggestions by expected information gain about the envelope.

    Args:
        setup, events: the table and the log.
        room: rank only suggestions in this room (the room I am in); None: all rooms.
        cancel: cancel flag (raises ``Cancelled``).
        samples: consistent deals sampled (exactly, uniformly) for the estimate.
        seed: random seed of the sampler (fixed by default: the same log gives the same advice).
    Returns:
        :class:`CluedoRecommendation` (suggestions best first, information in bits).
    Raises:
        ContradictionError: the log is impossible. SessionFormatError: unknown room.
    """
    t0 = time.perf_counter()
    events = tuple(events)
    (_, suspects), (_, weapons), (_, rooms) = setup.categories
    if room is not None and room not in rooms:
        raise SessionFormatError("room", f"unknown room {room!r}")
    res = count_deals(propagate(constraints_for(setup, events)), cancel, marginals=True, keep_backward=True)
    if res.count == 0:
        _raise_contradiction(setup, events, cancel)
    env = res.marginal[:, -1] / res.count_float
    cards = setup.cards
    accusation = None
    env_entropy = 0.0
    start = 0
    triple = []
    for _, deck in setup.categories:
        col = env[start:start + len(deck)]
        env_entropy += entropy_bits(col)
        j = int(np.argmax(col))
        triple.append(deck[j] if col[j] >= CERTAIN else None)
        start += len(deck)
    if all(triple):
        accusation = tuple(triple)
    rng = np.random.default_rng(seed)
    deals = res.sample(max(int(samples), 1), rng)
    n = deals.shape[0]
    k = len(setup.players)
    # envelope card index per category for each sample
    labels = []
    start = 0
    for _, deck in setup.categories:
        block = deals[:, start:start + len(deck)] == k
        labels.append((np.argmax(block, axis=1), len(deck)))
        start += len(deck)
    ci = {c: i for i, c in enumerate(cards)}
    out = []
    if accusation is None:
        for r in ([room] if room else rooms):
            check_cancel(cancel)
            for s in suspects:
                for w in weapons:
                    rows, outs, wts, n_outs = suggestion_outcomes(setup, deals, setup.me, (ci[s], ci[w], ci[r]))
                    bits = sum(_mi_bits(lab, nl, rows, outs, wts, n_outs, n) for lab, nl in labels)
                    out.append((s, w, r, bits))
        out.sort(key=lambda t: (-t[3], cards.index(t[2]), cards.index(t[0]), cards.index(t[1])))
    return CluedoRecommendation(out, accusation, room, float(env_entropy), n, time.perf_counter() - t0)


def public_events(setup: Setup, events: Sequence, viewer: Optional[str] = None) -> list:
    """The part of my log another player (``viewer``) also knows: my hand, the cards shown to me
    and my 'lacks' facts are removed, the card shown to me in my own suggestions is hidden; a
    card I showed to ``viewer`` stays known to them."""
    me = setup.me
    out = []
    for ev in events:
        if isinstance(ev, HandEvent) and ev.player == me:
            continue
        if isinstance(ev, (ShownEvent,)):
            continue
        if isinstance(ev, LacksEvent) and ev.player == me:
            continue
        if isinstance(ev, SuggestionEvent) and ev.shown is not None:
            if ev.refuter == me and ev.suggester == viewer:
                out.append(ev)
                continue
            ev = SuggestionEvent(ev.suggester, ev.cards, ev.passed, ev.refuter, None)
        out.append(ev)
    return out


def refute_advice(setup: Setup, events: Sequence, suggester: str, cards: Sequence, *, cancel=None) -> list:
    """When I must refute ``suggester``'s suggestion ``cards``: which of my matching cards to show.

    For each card I hold among ``cards``: the information it gives the suggester about the
    envelope, in bits = the drop of the envelope entropy (sum over categories, bits) of the
    posterior built from what the suggester can know (:func:`public_events`) when they learn I
    hold that card (0 when it drops nothing or they knew it already).

    Returns:
        list of ``(card, bits_revealed)``, least revealing first; empty when I hold none of
        ``cards`` (or I am the suggester).
    Raises:
        ContradictionError: the log is impossible. SessionFormatError: unknown player/card.
    """
    if suggester not in setup.players:
        raise SessionFormatError("suggester", f"unknown player {suggester!r}")
    for c in cards:
        if c not in setup.cards:
            raise SessionFormatError("cards", f"unknown card {c!r}")
    if suggester == setup.me:
        return []
    events = tuple(events)
    mine = infer(setup, events, cancel=cancel)
    col = setup.players.index(setup.me)
    matching = [c for c in cards if mine.matrix[setup.cards.index(c), col] >= CERTAIN]
    if not matching:
        return []
    pub = public_events(setup, events, suggester)
    base = infer(setup, pub, cancel=cancel)
    h0 = base.envelope_entropy_bits()
    out = []
    for c in matching:
        p = base.probability(c, setup.me)
        post = infer(setup, pub + [ShownEvent(setup.me, c)], cancel=cancel)
        bits = max(h0 - post.envelope_entropy_bits(), 0.0)
        surprisal = -np.log2(p) if p > 0 else float("inf")
        out.append((c, float(bits), float(surprisal)))
    out.sort(key=lambda t: (t[1], t[2], setup.cards.index(t[0])))
    return [(c, b) for c, b, _ in out]
