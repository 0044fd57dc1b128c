"""Explanations (engines/core/explain.py and engines/<game>/explain.py): the subset found forces
the status on its own, dropping any one of its entries does not (exact engines, and brute force
over every deal of small Cluedo decks); the seeds' known examples; contradictions irreducible;
the CLI."""
import itertools
import json
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engines.cluedo as cl
import engines.egghead as eg
import engines.guesswho as gw
import engines.inkognito as ink
from engines.cluedo.explain import fact_status
from engines.cluedo.simulate import play_suggestion, random_deal
from engines.core.errors import ContradictionError, SessionFormatError
from engines.core.explain import ConflictError, minimal_conflict, quickxplain

ROOT = Path(__file__).resolve().parents[2]
SLOW = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ------------------------------------------------------------------ core: QuickXplain
@given(st.lists(st.frozensets(st.integers(0, 11), min_size=1, max_size=4), min_size=1, max_size=5),
       st.integers(1, 12))
def test_quickxplain_finds_an_irreducible_forcing_subset(families, n):
    """Monotone predicate "the subset contains one of these sets": the result contains one,
    and minus any element contains none."""
    families = [f for f in families if max(f) < n]

    def forces(s):
        return any(f <= set(s) for f in families)

    res = quickxplain(n, forces)
    if not families:
        assert res is None
        return
    assert forces(res)
    for i in res:
        assert not forces(tuple(j for j in res if j != i))


def test_quickxplain_non_monotone_is_reduced():
    # forces iff exactly {1, 3} or a superset of {0, 2, 4}: not monotone
    def forces(s):
        return set(s) == {1, 3} or {0, 2, 4} <= set(s)

    res = quickxplain(6, forces, monotone=False)
    assert forces(res)
    for i in res:
        assert not forces(tuple(j for j in res if j != i))
    assert minimal_conflict(3, lambda s: True) is None
    assert minimal_conflict(3, lambda s: False) == ()


def _irreducible(status_of, because, status):
    """``status_of(subset)`` (None = contradictory) gives ``status`` on ``because`` and not
    after dropping any one entry."""
    assert status_of(tuple(because)) == status
    for i in because:
        assert status_of(tuple(j for j in because if j != i)) != status


# ------------------------------------------------------------------ Cluedo, brute force
def small_setup(players=("Me", "Ann", "Bob")):
    cats = {"suspect": ["S1", "S2"], "weapon": ["W1", "W2"], "room": ["R1", "R2", "R3"]}
    return cl.Setup.from_json({"categories": cats, "players": list(players), "me": "Me"})


def all_deals(setup):
    """Every deal (tuple of owner indices per card): one envelope card per category."""
    k = len(setup.players)
    cards = setup.cards
    out = []
    cat_cards = [[setup.card_index(c) for c in cs] for _, cs in setup.categories]
    for env in itertools.product(*cat_cards):
        rest = [c for c in range(len(cards)) if c not in env]
        for owners in itertools.product(range(k), repeat=len(rest)):
            if all(owners.count(p) == setup.hand_sizes[p] for p in range(k)):
                d = [k] * len(cards)
                for c, o in zip(rest, owners):
                    d[c] = o
                out.append(tuple(d))
    return out


def fits(setup, deal, ev):
    k = len(setup.players)
    ci, pi = setup.card_index, setup.player_index
    if isinstance(ev, cl.HandEvent):
        return all(deal[ci(c)] == pi(ev.player) for c in ev.cards)
    if isinstance(ev, cl.ShownEvent):
        return deal[ci(ev.card)] == pi(ev.player)
    if isinstance(ev, cl.LacksEvent):
        return deal[ci(ev.card)] != pi(ev.player)
    if isinstance(ev, cl.SuggestionEvent):
        if any(deal[ci(c)] == pi(p) for p in ev.passed for c in ev.cards):
            return False
        if ev.refuter is None:
            return True
        if ev.shown is not None:
            return deal[ci(ev.shown)] == pi(ev.refuter)
        return any(deal[ci(c)] == pi(ev.refuter) for c in ev.cards)
    inside = all(deal[ci(c)] == k for c in ev.cards)
    return inside == ev.correct


def brute_status(setup, deals, events, card, owner):
    ok = [d for d in deals if all(fits(setup, d, e) for e in events)]
    if not ok:
        return None
    at = [d[card] == owner for d in ok]
    return "certain" if all(at) else "impossible" if not any(at) else "uncertain"


def random_cluedo_log(setup, rng, n_events, deal=None):
    deal = random_deal(setup, rng) if deal is None else deal
    k = len(setup.players)
    events = []
    (_, S), (_, W), (_, R) = setup.categories
    for _ in range(n_events):
        kind = rng.integers(5)
        p = int(rng.integers(k))
        c = int(rng.integers(len(setup.cards)))
        if kind == 0:
            events.append(cl.ShownEvent(player=setup.players[deal[c]], card=setup.cards[c])
                          if deal[c] < k else cl.LacksEvent(player=setup.players[p], card=setup.cards[c]))
        elif kind == 1:
            if deal[c] != p:
                events.append(cl.LacksEvent(player=setup.players[p], card=setup.cards[c]))
        elif kind == 2:
            trip = (S[rng.integers(len(S))], W[rng.integers(len(W))], R[rng.integers(len(R))])
            correct = all(deal[setup.card_index(x)] == k for x in trip)
            if not correct:
                events.append(cl.AccusationEvent(player=setup.players[p], cards=trip, correct=False))
        else:
            trip = (S[rng.integers(len(S))], W[rng.integers(len(W))], R[rng.integers(len(R))])
            events.append(play_suggestion(setup, deal, p, trip, rng, reveal=bool(rng.integers(2))))
    return deal, events


_SMALL = {}


def _small(players):
    if players not in _SMALL:
        s = small_setup(players)
        _SMALL[players] = (s, all_deals(s))
    return _SMALL[players]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 10), st.sampled_from([("Me", "Ann"), ("Me", "Ann", "Bob")]))
def test_cluedo_explanation_matches_brute_force(seed, n_events, players):
    setup, deals = _small(players)
    rng = np.random.default_rng(seed)
    _, events = random_cluedo_log(setup, rng, n_events)
    card = int(rng.integers(len(setup.cards)))
    owner = int(rng.integers(len(setup.owners)))
    fact = {"card": setup.cards[card], "place": setup.owners[owner]}
    e = cl.explain(setup, events, fact)
    assert e.status == brute_status(setup, deals, events, card, owner)
    if e.status == "uncertain":
        assert e.because == ()
        return
    assert list(e.because) == sorted(set(e.because))
    _irreducible(lambda s: brute_status(setup, deals, [events[i] for i in s], card, owner),
                 e.because, e.status)
    assert e.steps and all(isinstance(x, str) and x for x in e.steps)


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_cluedo_classic_explanations_irreducible(seed):
    """Classic deck, 4 players, my hand and 30 suggestions; checked with the exact engine."""
    setup = cl.default_setup()
    rng = np.random.default_rng(seed)
    deal = random_deal(setup, rng)
    events = [cl.HandEvent(player=setup.me, cards=tuple(c for c, o in zip(setup.cards, deal) if o == 0))]
    _, more = random_cluedo_log(setup, rng, 30, deal)
    events += more
    post = cl.infer(setup, events)
    decided = [(c, o) for c in range(len(setup.cards)) for o in range(len(setup.owners))
               if post.matrix[c, o] in (0.0, 1.0)]
    c, o = decided[int(rng.integers(len(decided)))]
    e = cl.explain(setup, events, {"card": setup.cards[c], "place": setup.owners[o]})
    assert e.status == ("certain" if post.matrix[c, o] == 1.0 else "impossible")
    _irreducible(lambda s: fact_status(setup, [events[i] for i in s], c, o), e.because, e.status)


def test_cluedo_short_chains_in_words():
    setup = cl.default_setup()   # Me, Ann, Bob, Cy
    events = [cl.HandEvent(player="Me", cards=("Rope", "Hall", "Lounge", "Study", "Candlestick")),
              cl.SuggestionEvent(suggester="Ann", cards=("Professor Plum", "Dagger", "Kitchen"), passed=("Bob",),
                                 refuter="Cy"),
              cl.SuggestionEvent(suggester="Me", cards=("Professor Plum", "Rope", "Ballroom"),
                                 passed=("Ann", "Bob", "Cy")),
              cl.SuggestionEvent(suggester="Bob", cards=("Colonel Mustard", "Candlestick", "Kitchen"), passed=("Cy",),
                                 refuter="Me")]
    e = cl.explain(setup, events, {"card": "Rope", "place": "Bob"})
    assert (e.status, e.because) == ("impossible", (0,))
    assert e.steps == ("#1: your hand: Rope, Hall, Lounge, Study and Candlestick",
                       "you hold Rope (#1) → Bob lacks Rope")
    e = cl.explain(setup, events, {"card": "Dagger", "place": "Me"})
    assert e.steps == ("#1: your hand: Rope, Hall, Lounge, Study and Candlestick",
                       "you hold 5 cards and they are known (Candlestick, Rope, Lounge, Hall and "
                       "Study) → you do not hold Dagger")
    e = cl.explain(setup, events, {"card": "Ballroom", "place": "Cy"})
    assert (e.status, e.because) == ("impossible", (2,))
    assert e.steps == ("Cy passed on #3 → Cy lacks Ballroom",)
    # Cy refuted #2 (Plum, Dagger, Kitchen), lacks Plum (#3) and Kitchen (#4) → Cy has Dagger
    e = cl.explain(setup, events, {"card": "Dagger", "place": "Cy"})
    assert (e.status, e.because) == ("certain", (1, 2, 3))
    assert e.steps[-1] == ("Cy refuted #2 holding one of Professor Plum, Dagger and Kitchen; "
                           "Cy lacks Professor Plum (#3) and Cy lacks Kitchen (#4) → Cy has Dagger")
    e = cl.explain(setup, events, {"card": "Dagger", "place": "Ann"})
    assert e.status == "impossible" and e.because == (1, 2, 3)
    assert e.steps[-1] == "Cy has Dagger → Ann lacks Dagger"


def test_cluedo_hand_size_count():
    """Cy holds 4 cards and refuted 4 suggestions of disjoint triples without my seeing the
    card: one card of each triple is Cy's, so Cy's hand is full and Cy lacks every other card.
    The step names the hand-size count and the four refutations."""
    setup = cl.default_setup()   # hand sizes Me 5, Ann 5, Bob 4, Cy 4 (dealer Cy)
    assert setup.hand_sizes[3] == 4
    triples = [("Miss Scarlett", "Candlestick", "Kitchen"), ("Colonel Mustard", "Dagger", "Ballroom"),
               ("Mrs White", "Lead Piping", "Conservatory"), ("Reverend Green", "Revolver", "Billiard Room")]
    events = [cl.SuggestionEvent(suggester="Ann", cards=t, passed=("Bob",), refuter="Cy") for t in triples]
    events.insert(2, cl.LacksEvent(player="Ann", card="Rope"))  # an entry that does not matter
    e = cl.explain(setup, events, {"card": "Rope", "place": "Cy"})
    assert e.status == "impossible"
    assert e.because == (0, 1, 3, 4)
    assert len(e.steps) == 1 and e.steps[0].startswith("Cy holds 4 cards: one of Miss Scarlett")
    assert all(f"(#{i + 1})" in e.steps[0] for i in e.because) and e.steps[0].endswith("Cy lacks Rope")
    # with one triple fewer the count does not fill the hand, and the fact is open
    assert cl.explain(setup, events[:4], {"card": "Rope", "place": "Cy"}).status == "uncertain"
    # no chain of worksheet rules: the steps name the counting argument
    from engines.cluedo.explain import derivation
    steps = derivation(setup, events, (0, 1), setup.card_index("Rope"), 3, False)
    assert len(steps) == 1 and "counting argument" in steps[0] and "Cy 4" in steps[0]
    _irreducible(lambda s: fact_status(setup, [events[i] for i in s], setup.card_index("Rope"), 3),
                 e.because, e.status)


def test_cluedo_setup_alone_and_bad_facts():
    setup = small_setup(("Me", "Ann"))
    e = cl.explain(setup, [], {"card": "S1", "place": "Me"})
    assert e.status == "uncertain" and e.because == ()
    with pytest.raises(SessionFormatError) as exc:
        cl.explain(setup, [], {"card": "Rope", "place": "Me"})
    assert exc.value.path == "$.fact.card"
    with pytest.raises(SessionFormatError) as exc:
        cl.explain(setup, [], {"card": "S1", "place": "Zed"})
    assert exc.value.path == "$.fact.place"
    with pytest.raises(SessionFormatError):
        cl.explain(setup, [], ["S1", "Me"])


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 8))
def test_cluedo_contradiction_irreducible(seed, n_events):
    setup, deals = _small(("Me", "Ann", "Bob"))
    rng = np.random.default_rng(seed)
    deal, events = random_cluedo_log(setup, rng, n_events)
    # a mistyped entry: someone "has" a card they do not hold
    c = int(rng.integers(len(setup.cards)))
    p = int((deal[c] + 1 + rng.integers(len(setup.players))) % (len(setup.players) + 1))
    if p == len(setup.players):
        p = 0 if deal[c] != 0 else 1
    events.insert(int(rng.integers(len(events) + 1)), cl.ShownEvent(player=setup.players[p], card=setup.cards[c]))

    def consistent(s):
        return any(all(fits(setup, d, events[i]) for i in s) for d in deals)

    if consistent(range(len(events))):
        assert cl.explain_contradiction(setup, events) is None
        return
    conflict = cl.explain_contradiction(setup, events)
    assert conflict and not consistent(conflict)
    for i in conflict:
        assert consistent([j for j in conflict if j != i])
    with pytest.raises(ConflictError) as exc:
        cl.explain(setup, events, {"card": "S1", "place": "Me"})
    assert exc.value.entries == tuple(conflict)
    assert isinstance(exc.value, ContradictionError)
    assert all(f"#{i + 1}" in str(exc.value) for i in conflict)


# ------------------------------------------------------------------ Inkognito
LF, MZ, CB, AX = ink.default_names()["identities"]
TALL, SHORT, FAT, THIN = ink.default_names()["builds"]


def ans(opp, q, asked, ids, builds, mission=False):
    return ink.Answer(opponent=opp, question=q, asked=asked, identities=tuple(ids), builds=tuple(builds),
                      mission=mission)


SEED_ROWS = [ans("Red", "player", "build", [LF], [SHORT, FAT]),
             ans("Red", "ambassador", "build", [], [FAT, THIN]),
             ans("Red", "player", "identity", [LF, MZ], [FAT])]


def test_inkognito_seed_worked_example():
    """Höhle's Inkognito post's worksheet (me Agent X / short): Red is fat or thin, never tall — the
    ambassador's answer (#2) alone says so; short and Agent X are mine; identity 1 stays open."""
    s = ink.default_setup()
    e = ink.explain(s, SEED_ROWS, {"opponent": "Red", "build": TALL})
    assert (e.status, e.because) == ("impossible", (1,))
    assert "exactly one of fat or thin" in e.steps[0]
    e = ink.explain(s, SEED_ROWS, {"opponent": "Red", "build": SHORT})
    assert (e.status, e.because) == ("impossible", ())
    assert e.steps == ("You are short yourself → Red is not short",)
    assert ink.explain(s, SEED_ROWS, {"opponent": "Red", "identity": AX}).because == ()
    for name in (LF, MZ, CB):
        assert ink.explain(s, SEED_ROWS, {"opponent": "Red", "identity": name}).status == "uncertain"
    # Blue's ambassador answer: Lord Fiddlebottom or Agent X (me) → Blue is LF → Red is not,
    # and with Red's first answer (LF, short or fat) Red is fat
    log = SEED_ROWS + [ans("Blue", "ambassador", "identity", [LF, AX], [])]
    e = ink.explain(s, log, {"opponent": "Red", "build": FAT})
    assert (e.status, e.because) == ("certain", (0, 3))
    assert any("Blue is Lord Fiddlebottom" in x for x in e.steps)
    assert ink.explain(s, log, {"opponent": "Yellow", "identity": LF}).because == (3,)


def _ink_status(setup, events, opp, kind, name):
    try:
        post = ink.infer(setup, events)
    except ContradictionError:
        return None
    p = (post.opponents[opp].identity if kind == "identity" else post.opponents[opp].build)[name]
    return "certain" if p >= 1 - 1e-9 else "impossible" if p <= 1e-12 else "uncertain"


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 8), st.booleans())
def test_inkognito_random_logs(seed, n_events, four):
    from engines.inkognito.simulate import _answer
    rng = random.Random(seed)
    setup = ink.default_setup(None if four else ["Red", "Blue"])
    ident, build = ink.worlds(setup)
    w = rng.randrange(len(ident))
    shown = [[] for _ in setup.opponents]
    events = []
    for _ in range(n_events):
        o = rng.randrange(len(setup.opponents))
        a = _answer(rng, setup, o, int(ident[w, o] * 4 + build[w, o]), rng.choice(ink.QUESTIONS),
                    rng.choice(ink.KINDS), None, shown[o])
        if a is not None:
            events.append(a)
    opp = rng.choice(setup.opponents)
    kind = rng.choice(["identity", "build"])
    name = rng.choice(setup.identities if kind == "identity" else setup.builds)
    e = ink.explain(setup, events, {"opponent": opp, kind: name})
    assert e.status == _ink_status(setup, events, opp, kind, name)
    if e.status != "uncertain":
        _irreducible(lambda s: _ink_status(setup, [events[i] for i in s], opp, kind, name),
                     e.because, e.status)


def test_inkognito_contradiction_and_bad_fact():
    s = ink.default_setup()
    log = [ans("Red", "player", "build", [LF], [SHORT, FAT])] + \
        [ans(o, "ambassador", "identity", [LF, MZ], []) for o in ("Red", "Blue", "Yellow")]
    assert ink.explain_contradiction(s, log) == [1, 2, 3]
    with pytest.raises(ConflictError) as exc:
        ink.explain(s, log, {"opponent": "Red", "build": FAT})
    assert exc.value.entries == (1, 2, 3)
    for fact, path in [({"opponent": "Zed", "build": FAT}, "$.fact.opponent"),
                       ({"opponent": "Red", "build": "huge"}, "$.fact.build"),
                       ({"opponent": "Red"}, "$.fact")]:
        with pytest.raises(SessionFormatError) as exc:
            ink.explain(s, [], fact)
        assert exc.value.path == path


# ------------------------------------------------------------------ Egghead
def egg_setup(players, me, visible, **kw):
    return eg.Setup.from_json({"players": players, "me": me,
                               "visible": {p: list(s) for p, s in visible.items()}, **kw})


SEED_TABLE = {"A": (1, 2, 2), "B": (4, 5, 6), "C": (3, 3, 3)}
SEED_LOG = [eg.Answer(question="missing", answer=0), eg.Reactions(solved=("B",)),
            eg.Solve(player="B", cards=(4, 5, 6), new_cards=(1, 1, 2))]


def test_egghead_seed_example_3_1():
    """Zorn 2024, example 3.1 / 4.1, as A: the answer "0 values missing" rules out every stack
    without a 1 and a 2 (3 3 3 by #1 alone); B's solving then rules out 1 2 4, 1 2 5, 1 2 6
    (#1 and #2 together: without the answer B could not have solved, so #2 alone is a
    contradictory sub-log and forces nothing); B's solve (#3) is never needed."""
    s = egg_setup(["A", "B", "C"], "A", {"B": SEED_TABLE["B"], "C": SEED_TABLE["C"]})
    e = eg.explain(s, SEED_LOG, {"stack": [3, 3, 3]})
    assert (e.status, e.because) == ("impossible", (0,))
    for stack in ([1, 2, 4], [1, 2, 5], [2, 1, 6]):
        e = eg.explain(s, SEED_LOG, {"stack": stack})
        assert (e.status, e.because) == ("impossible", (0, 1))
        assert "B solved" in e.steps[1] and "B could not have known their cards" in e.steps[1]
    for stack in ([1, 1, 2], [1, 2, 2], [1, 2, 3]):
        assert eg.explain(s, SEED_LOG, {"stack": stack}).status == "uncertain"
    e = eg.explain(s, SEED_LOG, {"position": 1, "value": 1})
    assert (e.status, e.because) == ("certain", (0,))
    e = eg.explain(s, SEED_LOG, {"position": 3, "value": 6})
    assert (e.status, e.because) == ("impossible", (0, 1))
    # B's point of view: the answer alone gives B the stack
    sb = egg_setup(["A", "B", "C"], "B", {"A": SEED_TABLE["A"], "C": SEED_TABLE["C"]})
    assert eg.explain(sb, SEED_LOG[:1], {"stack": [4, 5, 6]}).to_json()["status"] == "certain"


def _egg_status(setup, events, fact):
    from engines.egghead.explain import _status, parse_fact
    try:
        v = eg.infer(setup, events).my_valids
    except ContradictionError:
        return None
    return _status(v, parse_fact(setup, fact))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.integers(1, 6))
def test_egghead_random_logs(seed, n_events):
    """Random consistent logs (truthful answers about a random table; a reactions round picked
    among the announcements consistent with the log so far): the subset forces the status and
    no entry of it can be dropped."""
    rng = random.Random(seed)
    values, cards = 4, 2
    sp = eg.stack_space(values, cards)
    table = {p: sp.stack(rng.randrange(sp.size)) for p in "ABC"}
    s = egg_setup(["A", "B", "C"], "A", {p: table[p] for p in "BC"}, values=values,
                  cards_per_player=cards)
    deck = [q.id for q in eg.questions_for(s)]
    events = []
    for _ in range(n_events):
        if rng.random() < 0.6:
            q = rng.choice(deck)
            # truthful about the table; a reactions round picked below may not be truthful, so
            # an answer that would contradict the log so far is not asked
            try:
                eg.infer(s, events + [eg.Answer(question=q, answer=eg.answer_for(s, q, table))])
                events.append(eg.Answer(question=q, answer=eg.answer_for(s, q, table)))
            except ContradictionError:
                pass
        else:
            options = []
            for r in range(4):
                for solved in itertools.combinations("ABC", r):
                    try:
                        eg.infer(s, events + [eg.Reactions(solved=tuple(solved))])
                        options.append(eg.Reactions(solved=tuple(solved)))
                    except ContradictionError:
                        pass
            events.append(rng.choice(options))
    if rng.random() < 0.5:
        fact = {"stack": list(sp.stack(rng.randrange(sp.size)))}
    else:
        fact = {"position": rng.randint(1, cards), "value": rng.randint(1, values)}
    e = eg.explain(s, events, fact)
    assert e.status == _egg_status(s, events, fact)
    if e.status != "uncertain":
        _irreducible(lambda sub: _egg_status(s, [events[i] for i in sub], fact), e.because, e.status)


def test_egghead_contradiction_and_bad_fact():
    s = egg_setup(["A", "B", "C"], "A", {"B": SEED_TABLE["B"], "C": SEED_TABLE["C"]})
    log = [eg.Answer(question="missing", answer=0), eg.Reactions(solved=("B", "C"))]   # C cannot know their cards
    conflict = eg.explain_contradiction(s, log)
    assert conflict == [1]
    with pytest.raises(ConflictError):
        eg.explain(s, log, {"stack": [1, 2, 2]})
    assert eg.explain_contradiction(s, SEED_LOG) is None
    for fact, path in [({"stack": [1, 2]}, "$.fact.stack"), ({"stack": [1, 2, 7]}, "$.fact.stack[2]"),
                       ({"position": 4, "value": 1}, "$.fact.position"), ({}, "$.fact")]:
        with pytest.raises(SessionFormatError) as exc:
            eg.explain(s, [], fact)
        assert exc.value.path == path


# ------------------------------------------------------------------ Guess Who?
def _gw_status(setup, events, k):
    try:
        p = gw.posterior_probabilities(setup, events)[k]
    except ContradictionError:
        return None
    return "certain" if p >= 1 - 1e-12 else "impossible" if p <= 0 else "uncertain"


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 8), st.sampled_from([0.0, 0.1]))
def test_guesswho_random_logs(seed, n_events, eps):
    rng = random.Random(seed)
    setup = gw.setup_for_board("classic", error_rate=eps)
    board = setup.board
    secret = rng.randrange(board.size)
    qs = board.questions()
    events = []
    for _ in range(n_events):
        if rng.random() < 0.7:
            q = rng.choice(qs)
            events.append(gw.Answer(question=q, answer=bool(board.truth(q)[secret])))
        else:
            events.append(gw.Eliminate(name=board.names[rng.choice([j for j in range(board.size) if j != secret])]))
    k = rng.randrange(board.size)
    e = gw.explain(setup, events, {"name": board.names[k]})
    assert e.status == _gw_status(setup, events, k)
    if e.status != "uncertain":
        _irreducible(lambda s: _gw_status(setup, [events[i] for i in s], k), e.because, e.status)


def test_guesswho_example_and_bad_fact():
    from engines.core.schema import read_session_file
    s = read_session_file(str(ROOT / "resources" / "examples" / "guesswho.json"))
    e = gw.explain(s.setup, s.events, {"name": "Anita"})   # "Is it a woman? No." (#1)
    assert (e.status, e.because) == ("impossible", (0,))
    assert "does not fit Anita" in e.steps[0]
    with pytest.raises(SessionFormatError) as exc:
        gw.explain(s.setup, s.events, {"name": "Nobody"})
    assert exc.value.path == "$.fact.name"
    # knocked down by hand, and the last one standing
    names = s.setup.board.names
    log = [gw.Eliminate(name=x) for x in names if x != "Anita"]
    e = gw.explain(s.setup, log, {"name": "Anita"})
    assert e.status == "certain" and len(e.because) == len(names) - 1
    assert e.steps[-1].endswith("Anita is the secret character")


# ------------------------------------------------------------------ CLI
def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "engines", "explain", *args], cwd=ROOT,
                          capture_output=True, text=True)


def test_cli_explain(tmp_path):
    out = run_cli(str(ROOT / "resources" / "examples" / "cluedo.json"), "--fact",
                  json.dumps({"card": "Rope", "place": "Bob"}))
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert set(d) == {"fact", "status", "because", "steps"}
    assert d["status"] == "impossible" and d["because"] == [0]
    out = run_cli(str(ROOT / "resources" / "examples" / "egghead.json"), "--fact", '{"stack": [1, 2, 4]}')
    assert out.returncode == 0 and json.loads(out.stdout)["because"] == [0, 1]
    for fact in ['{"card": "Nope", "place": "Bob"}', "not json", '{"card": "Rope"}']:
        out = run_cli(str(ROOT / "resources" / "examples" / "cluedo.json"), "--fact", fact)
        assert out.returncode == 2 and "Traceback" not in out.stderr
    out = run_cli(str(ROOT / "resources" / "examples" / "spyfall.json"), "--fact", "{}")
    assert out.returncode == 2 and "no explanations" in out.stderr
    obj = json.loads((ROOT / "resources" / "examples" / "cluedo.json").read_text())
    obj["events"].append({"type": "lacks", "player": "Me", "card": "Rope"})
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(obj))
    out = run_cli(str(bad), "--fact", '{"card": "Rope", "place": "Bob"}')
    n = len(obj["events"])
    assert out.returncode == 3 and "Traceback" not in out.stderr
    assert "#1 (" in out.stderr and f"#{n} (" in out.stderr


def test_cancel():
    from engines.core.errors import Cancelled
    setup = cl.default_setup()
    events = [cl.HandEvent(player="Me", cards=("Rope", "Hall", "Lounge", "Study", "Candlestick"))]
    with pytest.raises(Cancelled):
        cl.explain(setup, events, {"card": "Rope", "place": "Bob"}, cancel=lambda: True)
    with pytest.raises(Cancelled):
        ink.explain(ink.default_setup(), SEED_ROWS, {"opponent": "Red", "build": TALL},
                    cancel=lambda: True)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 9))
def test_guesswho_and_inkognito_contradictions_irreducible(seed, n_events):
    """Random answers with no truth behind them until the log is contradictory (or not): the
    conflict found cannot all be true, and dropping any one of its entries can."""
    rng = random.Random(seed)
    setup = gw.default_setup()
    board = setup.board
    qs = board.questions()
    events = [gw.Answer(question=rng.choice(qs), answer=rng.random() < 0.5) for _ in range(n_events)]
    conflict = gw.explain_contradiction(setup, events)
    if conflict is not None:
        _irreducible(lambda s: _gw_status(setup, [events[i] for i in s], 0) is None and "x",
                     conflict, "x")
    iset = ink.default_setup()
    answers = []
    for _ in range(n_events):
        kind, q = rng.choice(ink.KINDS), rng.choice(ink.QUESTIONS)
        shape = rng.choice(ink.form_shapes(q, kind))
        answers.append(ink.Answer(opponent=rng.choice(iset.opponents), question=q, asked=kind,
                                  identities=tuple(sorted(rng.sample(iset.identities, shape[0]),
                                                          key=iset.identities.index)),
                                  builds=tuple(sorted(rng.sample(iset.builds, shape[1]), key=iset.builds.index))))
    conflict = ink.explain_contradiction(iset, answers)
    if conflict is not None:
        _irreducible(lambda s: _ink_status(iset, [answers[i] for i in s], "Red", "build", TALL) is None
                     and "x", conflict, "x")
