"""Quick entry: each game's typed-line grammar gives the event event_from_json builds; unknown
and ambiguous words are named with their candidates; format_event -> parse round-trips; the
contradiction checks and Egghead's possible answers equal brute-force enumeration."""
import itertools
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from event_strategies import cluedo_events
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines import cluedo, egghead, guesswho, inkognito, spyfall
from engines.core.errors import ContradictionError, SessionFormatError
from engines.core.names import candidates, complete_word, match_name, split_names

ROOT = Path(__file__).resolve().parents[2]
UK = cluedo.Setup.from_json({"edition": "cluedo-uk", "players": ["Me", "Ann", "Bob", "Cy"],
                             "me": "Me"})


def err(fn, *args) -> str:
    with pytest.raises(SessionFormatError) as exc:
        fn(*args)
    return exc.value.message


# ------------------------------------------------------------------------------------ names

def test_names_by_unique_prefix_of_any_word():
    suspects = UK.categories[0][1]
    weapons = UK.categories[1][1]
    assert match_name("plum", suspects) == "Professor Plum"
    assert match_name("PROF", suspects) == "Professor Plum"
    assert match_name("mus", suspects) == "Colonel Mustard"
    assert match_name("rev", weapons) == "Revolver"
    assert match_name("rev", suspects) == "Reverend Green"
    assert match_name("lead piping", weapons) == "Lead Piping"
    assert match_name("pip lea", weapons) == "Lead Piping"  # any order, each word once


def test_ambiguous_and_unknown_names_are_named_with_candidates():
    msg = err(match_name, "rev", UK.cards, "card")
    assert "'rev'" in msg and "Reverend Green" in msg and "Revolver" in msg and "ambiguous" in msg
    msg = err(match_name, "zz", UK.players, "player")
    assert "unknown player 'zz'" in msg and "Ann" in msg and "Cy" in msg


def test_exact_full_name_and_whole_word_win():
    assert match_name("rope", ["Rope", "Rope Ladder"]) == "Rope"
    assert match_name("white", ["Mrs White", "Whiteboard"]) == "Mrs White"
    assert candidates("whi", ["Mrs White", "Whiteboard"]) == ["Mrs White", "Whiteboard"]


def test_split_names_reads_multi_word_names_and_refuses_two_readings():
    names = ["Madame Zsa Zsa", "Agent X", "fat", "tall"]
    got = split_names("madame zsa zsa agent x fat".split(), lambda t: candidates(t, names))
    assert [n for _, n in got] == ["Madame Zsa Zsa", "Agent X", "fat"]
    two = ["Al Bo", "Cy", "Al", "Bo Cy"]  # "al bo cy": Al Bo + Cy, or Al + Bo Cy
    msg = err(split_names, "al bo cy".split(), lambda t: candidates(t, two))
    assert "Al Bo, Cy" in msg and "Al, Bo Cy" in msg and "commas" in msg
    names = ["Big Ben", "Ben", "Big"]  # "big ben" = Big Ben (1 name) beats Big + Ben (2 names)
    assert [n for _, n in split_names(["big", "ben"], lambda t: candidates(t, names))] == ["Big Ben"]


def test_complete_word_replaces_the_last_word():
    assert complete_word("Ann: pl", ["Professor Plum", "Rope"]) == ["Ann: Plum"]
    assert complete_word("Ann has re", ["Reverend Green", "Revolver"]) == \
        ["Ann has Reverend", "Ann has Revolver"]


def test_overlong_line_is_refused_before_reading():
    assert "too long" in err(cluedo.parse, UK, [], "Ann has " + "rope " * 1000)


# ----------------------------------------------------------------------------------- Cluedo

def ev(mod, setup, obj):
    return mod.event_from_json(obj, setup, "$")


@pytest.mark.parametrize("text, obj", [
    ("Ann: plum rope hall; Bob",
     {"type": "suggestion", "suggester": "Ann", "cards": ["Professor Plum", "Rope", "Hall"],
      "passed": [], "refuter": "Bob"}),
    ("Ann: plum rope hall; Me",
     {"type": "suggestion", "suggester": "Ann", "cards": ["Professor Plum", "Rope", "Hall"],
      "passed": ["Bob", "Cy"], "refuter": "Me"}),
    ("Cy: mus, lead piping, dining room; Bob",
     {"type": "suggestion", "suggester": "Cy", "cards": ["Colonel Mustard", "Lead Piping", "Dining Room"],
      "passed": ["Me", "Ann"], "refuter": "Bob"}),
    ("Ann: plum rope hall; none",
     {"type": "suggestion", "suggester": "Ann", "cards": ["Professor Plum", "Rope", "Hall"],
      "passed": ["Bob", "Cy", "Me"], "refuter": None}),
    ("me: plum rope hall; Bob rope",
     {"type": "suggestion", "suggester": "Me", "cards": ["Professor Plum", "Rope", "Hall"],
      "passed": ["Ann"], "refuter": "Bob", "shown": "Rope"}),
    ("me: scarlett rev study; cy study",
     {"type": "suggestion", "suggester": "Me", "cards": ["Miss Scarlett", "Revolver", "Study"],
      "passed": ["Ann", "Bob"], "refuter": "Cy", "shown": "Study"}),
    ("Bob has rope", {"type": "shown", "player": "Bob", "card": "Rope"}),
    ("Bob lacks rope", {"type": "lacks", "player": "Bob", "card": "Rope"}),
    ("bob doesn't have lead", {"type": "lacks", "player": "Bob", "card": "Lead Piping"}),
    ("Ann accuses plum rope hall",
     {"type": "accusation", "player": "Ann", "cards": ["Professor Plum", "Rope", "Hall"],
      "correct": False}),
    ("Ann accuses plum rope hall correct",
     {"type": "accusation", "player": "Ann", "cards": ["Professor Plum", "Rope", "Hall"],
      "correct": True}),
    ("me hand: scarlett, revolver, kitchen, ball, study",
     {"type": "hand", "player": "Me",
      "cards": ["Miss Scarlett", "Revolver", "Kitchen", "Ballroom", "Study"]}),
    ("me hand: scarlett candle billiard room",
     {"type": "hand", "player": "Me", "cards": ["Miss Scarlett", "Candlestick", "Billiard Room"]}),
])
def test_cluedo_forms(text, obj):
    assert cluedo.parse(UK, [], text) == ev(cluedo, UK, obj)
    assert cluedo.preview(UK, [], text) == cluedo.describe_event(UK, ev(cluedo, UK, obj))


@pytest.mark.parametrize("text, words", [
    ("Ann: m rope hall; Bob", ["'m'", "Miss Scarlett", "Mrs White"]),
    ("Bob has rev", ["'rev'", "Reverend Green", "Revolver"]),
    ("Zed has rope", ["'Zed'", "Ann"]),
    ("Ann: plum rope kitchenette; Bob", ["'kitchenette'", "Kitchen"]),
    ("Ann: plum rope hall; Ann", ["own suggestion"]),
    ("me: plum rope hall; Bob dagger", ["'dagger'", "Rope"]),
    ("Ann: plum rope hall", ["; none"]),
    ("Ann: plum rope; Bob", ["three cards"]),
    ("hello there", ["Ann: plum rope hall; Bob"]),
])
def test_cluedo_errors_name_the_word(text, words):
    msg = err(cluedo.parse, UK, [], text)
    for w in words:
        assert w in msg, msg


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_cluedo_round_trip(data):
    e = data.draw(cluedo_events(UK))
    assert cluedo.parse(UK, [], cluedo.format_event(UK, e)) == e


def test_cluedo_completion_fits_the_position():
    assert cluedo.complete(UK, [], "Ann: pl") == ["Ann: Plum"]
    assert "Ann: plum Rope" in cluedo.complete(UK, [], "Ann: plum r")   # a weapon after a suspect
    assert all(not c.endswith("Reverend") for c in cluedo.complete(UK, [], "Ann: plum r"))
    assert cluedo.complete(UK, [], "me: plum rope hall; B") == ["me: plum rope hall; Bob"]
    assert "Ann has" in cluedo.complete(UK, [], "Ann ")


# Cluedo contradiction: brute force over every deal of a small deck is the reference.
SMALL = cluedo.Setup.from_json({"categories": {"suspect": ["a1", "b1", "c1"],
                                               "weapon": ["d2", "e2", "f2"],
                                               "room": ["g3", "h3", "i3", "j3"]},
                                "players": ["P", "Q", "R"], "me": "P"})


def _small_deals():
    s = SMALL
    cats = [cards for _, cards in s.categories]
    labels = [p for p, h in zip(s.players, s.hand_sizes) for _ in range(h)]
    perms = sorted(set(itertools.permutations(labels)))
    out = []
    for env in itertools.product(*cats):
        rest = [c for c in s.cards if c not in env]
        for perm in perms:
            d = dict(zip(rest, perm))
            d.update({c: "envelope" for c in env})
            out.append(d)
    return out


DEALS = _small_deals()


def _holds(deal, event) -> bool:
    if isinstance(event, cluedo.HandEvent):
        return all(deal[c] == event.player for c in event.cards)
    if isinstance(event, cluedo.ShownEvent):
        return deal[event.card] == event.player
    if isinstance(event, cluedo.LacksEvent):
        return deal[event.card] != event.player
    if isinstance(event, cluedo.SuggestionEvent):
        if any(deal[c] == p for p in event.passed for c in event.cards):
            return False
        if event.refuter is None:
            return True
        if event.shown:
            return deal[event.shown] == event.refuter
        return any(deal[c] == event.refuter for c in event.cards)
    in_env = all(deal[c] == "envelope" for c in event.cards)
    return in_env == event.correct


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_cluedo_contradiction_equals_brute_force(data):
    """``contradiction`` is None exactly when some deal satisfies the log and the event."""
    strat = cluedo_events(SMALL)
    log = []
    for e in data.draw(st.lists(strat, max_size=4)):
        if any(all(_holds(d, x) for x in log + [e]) for d in DEALS):
            log.append(e)
    cand = data.draw(strat)
    possible = any(all(_holds(d, x) for x in log + [cand]) for d in DEALS)
    reason = cluedo.contradiction(SMALL, log, cand)
    assert (reason is None) == possible, (log, cand, reason)


def test_cluedo_contradiction_names_the_holder():
    hand = cluedo.parse(UK, [], "me hand: scarlett, revolver, kitchen, ball, study")
    assert cluedo.contradiction(UK, [hand], cluedo.parse(UK, [], "Ann has scarlett")) == "you hold it"
    assert cluedo.contradiction(UK, [hand], cluedo.parse(UK, [], "me lacks scarlett")) == "you hold it"
    assert cluedo.contradiction(UK, [hand], cluedo.parse(UK, [], "Ann has plum")) is None
    shown = cluedo.parse(UK, [], "Bob has plum")
    assert cluedo.contradiction(UK, [hand, shown], cluedo.parse(UK, [], "Ann has plum")) == "Bob holds it"
    assert "Miss Scarlett" in cluedo.contradiction(UK, [hand], cluedo.parse(UK, [], "Ann: scar rope hall; none"))


# ------------------------------------------------------------------------------- Guess Who?

GW = guesswho.default_setup()


@pytest.mark.parametrize("text, obj", [
    ("glasses? no", {"type": "answer", "question": {"attribute": "glasses", "value": True}, "answer": False}),
    ("Glasses? Yes", {"type": "answer", "question": {"attribute": "glasses", "value": True}, "answer": True}),
    ("ginger hair? yes",
     {"type": "answer", "question": {"attribute": "hair_colour", "value": "ginger"}, "answer": True}),
    ("ginger? y", {"type": "answer", "question": {"attribute": "hair_colour", "value": "ginger"}, "answer": True}),
    ("brown eyes? n", {"type": "answer", "question": {"attribute": "eye_colour", "value": "brown"}, "answer": False}),
    ("no hat? yes", {"type": "answer", "question": {"attribute": "hat", "value": False}, "answer": True}),
    ("big nose? no", {"type": "answer", "question": {"attribute": "big_nose", "value": True}, "answer": False}),
    ("glasses or hat? no", {"type": "answer", "question": {"any": [
        {"attribute": "glasses", "value": True}, {"attribute": "hat", "value": True}]}, "answer": False}),
    ("is it alex? no", {"type": "answer", "question": {"attribute": "name", "value": "Alex"}, "answer": False}),
    ("anita? no", {"type": "answer", "question": {"attribute": "name", "value": "Anita"}, "answer": False}),
    ("down alex", {"type": "eliminate", "name": "Alex"}),
    ("x anita", {"type": "eliminate", "name": "Anita"}),
    ("opponent 12", {"type": "opponent", "remaining": 12}),
])
def test_guesswho_forms(text, obj):
    assert guesswho.parse(GW, [], text) == ev(guesswho, GW, obj)


@pytest.mark.parametrize("text, words", [
    ("brown? yes", ["'brown'", "brown hair colour", "brown eye colour"]),
    ("hair? no", ["'hair'", "long hair", "ginger hair colour"]),
    ("zork? no", ["'zork'", "glasses"]),
    ("down zed", ["'zed'", "Alex"]),
    ("glasses", ["glasses? no"]),
])
def test_guesswho_errors_name_the_word(text, words):
    msg = err(guesswho.parse, GW, [], text)
    for w in words:
        assert w in msg, msg


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_guesswho_round_trip(data):
    qs = GW.board.questions(compound=True)
    e = data.draw(st.one_of(
        st.builds(guesswho.Answer, question=st.sampled_from(qs), answer=st.booleans()),
        st.builds(guesswho.Answer, question=st.sampled_from(
            [guesswho.Question(((a.name, False),)) for a in GW.board.attributes if a.kind == "yes/no"]),
            answer=st.booleans()),
        st.builds(guesswho.Eliminate, name=st.sampled_from(GW.board.names)),
        st.builds(guesswho.Opponent, remaining=st.integers(1, GW.board.size))))
    assert guesswho.parse(GW, [], guesswho.format_event(GW, e)) == e


def test_guesswho_contradiction():
    log = [guesswho.parse(GW, [], "is it alex? yes")]
    assert "no candidate" in guesswho.contradiction(GW, log, guesswho.parse(GW, [], "down alex"))
    assert guesswho.contradiction(GW, log, guesswho.parse(GW, [], "down anita")) is None


# -------------------------------------------------------------------------------- Inkognito

INK = inkognito.default_setup()


@pytest.mark.parametrize("text, obj", [
    ("Red: lord zsa fat", {"type": "answer", "opponent": "Red", "question": "player", "asked": "identity",
                           "identities": ["Lord Fiddlebottom", "Madame Zsa Zsa"], "builds": ["fat"]}),
    ("red: lord tall fat", {"type": "answer", "opponent": "Red", "question": "player", "asked": "build",
                            "identities": ["Lord Fiddlebottom"], "builds": ["tall", "fat"]}),
    ("Blue: ambassador colonel agent", {"type": "answer", "opponent": "Blue", "question": "ambassador",
                                        "asked": "identity", "identities": ["Colonel Bubble", "Agent X"],
                                        "builds": []}),
    ("Yellow amb: tall thin", {"type": "answer", "opponent": "Yellow", "question": "ambassador",
                               "asked": "build", "identities": [], "builds": ["tall", "thin"]}),
    ("Red: mission lord zsa", {"type": "answer", "opponent": "Red", "question": "player", "asked": "identity",
                               "identities": ["Lord Fiddlebottom", "Madame Zsa Zsa"], "builds": [],
                               "mission": True}),
    ("Red: mission build lord fat", {"type": "answer", "opponent": "Red", "question": "player",
                                     "asked": "build", "identities": ["Lord Fiddlebottom"],
                                     "builds": ["fat"], "mission": True}),
    ("Red: agent x, madame zsa zsa, tall", {"type": "answer", "opponent": "Red", "question": "player",
                                            "asked": "identity", "identities": ["Madame Zsa Zsa", "Agent X"],
                                            "builds": ["tall"]}),
])
def test_inkognito_forms(text, obj):
    assert inkognito.parse(INK, [], text) == ev(inkognito, INK, obj)


@pytest.mark.parametrize("text, words", [
    ("Red: lord zsa zork", ["'zork'", "Agent X"]),
    ("Re: lord zsa fat", []),  # unique prefix of Red: no error (checked below)
    ("Red: lord fat", ["2 identities and 1 build"]),
    ("Red: mission lord fat", ["which kind"]),
    ("Zed: lord zsa fat", ["'Zed'", "Blue"]),
])
def test_inkognito_errors_name_the_word(text, words):
    if not words:
        assert inkognito.parse(INK, [], text).opponent == "Red"
        return
    msg = err(inkognito.parse, INK, [], text)
    for w in words:
        assert w in msg, msg


def _ink_answers():
    out = []
    ids, builds = INK.identities, INK.builds
    for form in inkognito.answer_forms():
        q, asked, mission = form.question, form.asked, form.mission
        for ni, nb in inkognito.form_shapes(q, asked, mission):
            for i in itertools.combinations(ids, ni):
                for b in itertools.combinations(builds, nb):
                    for opp in INK.opponents:
                        out.append(inkognito.Answer(opponent=opp, question=q, asked=asked, identities=i, builds=b,
                                                    mission=mission))
    return out


def test_inkognito_round_trip_every_answer():
    answers = _ink_answers()
    assert len(answers) > 100
    for a in answers:
        assert inkognito.parse(INK, [], inkognito.format_event(INK, a)) == a


def test_inkognito_contradiction():
    a = inkognito.parse(INK, [], "Red: ambassador lord zsa")
    assert inkognito.contradiction(INK, [], a) is None
    assert "twice" in inkognito.contradiction(INK, [a], a) or "same set" in inkognito.contradiction(INK, [a], a)


# ---------------------------------------------------------------------------------- Egghead

EGG = egghead.default_setup()


@pytest.mark.parametrize("text, obj", [
    ("missing = 0", {"type": "answer", "question": "missing", "answer": 0, "moderator": None}),
    ("sum 30", {"type": "answer", "question": "sum", "answer": 30, "moderator": None}),
    ("count 6? 2", {"type": "answer", "question": "count-6", "answer": 2, "moderator": None}),
    ("largest sum: 15", {"type": "answer", "question": "highest-stack-sum", "answer": 15, "moderator": None}),
    ("reactions: B", {"type": "reactions", "solved": ["B"]}),
    ("reactions: b, c", {"type": "reactions", "solved": ["B", "C"]}),
    ("reactions: none", {"type": "reactions", "solved": []}),
    ("nobody solved", {"type": "reactions", "solved": []}),
    ("B solves 456 -> 112", {"type": "solve", "player": "B", "cards": [4, 5, 6], "new_cards": [1, 1, 2]}),
    ("B solved 4 5 6 new 1 1 2", {"type": "solve", "player": "B", "cards": [4, 5, 6], "new_cards": [1, 1, 2]}),
    ("C solves -> 123", {"type": "solve", "player": "C", "cards": None, "new_cards": [1, 2, 3]}),
    ("me solves 122", {"type": "solve", "player": "A", "cards": [1, 2, 2], "new_cards": None}),
])
def test_egghead_forms(text, obj):
    assert egghead.parse(EGG, [], text) == ev(egghead, EGG, obj)


def test_egghead_rotating_moderator_form():
    s = egghead.Setup.from_json(dict(EGG.to_json(), moderator="rotating"))
    assert egghead.parse(s, [], "B: sum = 20") == ev(egghead, s, {"type": "answer", "question": "sum",
                                                                 "answer": 20, "moderator": "B"})
    assert "say who answered" in err(egghead.parse, s, [], "sum = 20")


@pytest.mark.parametrize("text, words", [
    ("even = 1", ["'even'", "count-even", "sum-even"]),
    ("zork = 1", ["'zork'", "missing"]),
    ("sum = 99", ["99", "possible"]),
    ("B solves 45 -> 112", ["3 card values"]),
    ("reactions: Zed", ["'Zed'"]),
])
def test_egghead_errors_name_the_word(text, words):
    msg = err(egghead.parse, EGG, [], text)
    for w in words:
        assert w in msg, msg


@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_egghead_round_trip(data):
    deck = egghead.bound_deck(EGG.values, EGG.cards_per_player, len(EGG.players))
    stack = st.lists(st.integers(1, EGG.values), min_size=3, max_size=3).map(lambda x: tuple(sorted(x)))
    qid = data.draw(st.sampled_from(list(deck)))
    e = data.draw(st.one_of(
        st.builds(egghead.Answer, question=st.just(qid),
                  answer=st.sampled_from(deck[qid].possible_answers(3))),
        st.builds(egghead.Reactions, solved=st.lists(st.sampled_from(EGG.players), unique=True).map(tuple)),
        st.builds(egghead.Solve, player=st.sampled_from(["B", "C"]), cards=st.one_of(st.none(), stack),
                  new_cards=stack),
        st.builds(egghead.Solve, player=st.just("A"), cards=stack, new_cards=st.none())))
    assert egghead.parse(EGG, [], egghead.format_event(EGG, e)) == e


# Egghead possible answers: the brute-force epistemic model (Zorn 2024's definitions by
# enumeration of every world) is the reference.
def _answer(qid, stacks, v):
    cards = [c for s in stacks for c in s]
    return {"missing": lambda: sum(1 for x in range(1, v + 1) if x not in cards),
            "sum": lambda: sum(cards),
            "count-1": lambda: cards.count(1),
            "count-2": lambda: cards.count(2),
            "pairs": lambda: sum(1 for s in stacks if len(set(s)) < len(s)),
            "highest": lambda: max(cards),
            "distinct": lambda: len(set(cards))}[qid]()


QIDS = ["missing", "sum", "count-1", "count-2", "pairs", "highest", "distinct"]


class World:
    """Every world (one stack per player) and the epistemic updates by their definitions."""

    def __init__(self, n, v, k):
        self.v, self.n = v, n
        self.stacks = list(itertools.combinations_with_replacement(range(1, v + 1), k))
        self.M = set(itertools.product(range(len(self.stacks)), repeat=n))

    def ans(self, qid, w, mod):
        return _answer(qid, [self.stacks[w[i]] for i in range(self.n) if i != mod], self.v)

    def valids(self, i, w):
        return [x for x in range(len(self.stacks)) if w[:i] + (x,) + w[i + 1:] in self.M]

    def solves(self, i, w):
        return len(self.valids(i, w)) == 1


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10 ** 6), rotating=st.booleans(),
       nvk=st.sampled_from([(3, 2, 2), (3, 3, 1), (4, 2, 1), (3, 3, 2)]))
def test_egghead_possible_answers_equal_brute_force(seed, rotating, nvk):
    """After every event of a random truthful game (everyone analyses), the answers
    ``possible_answers`` offers for every question and moderator are exactly those of the
    worlds consistent with the log in which the others hold what I see."""
    rng = random.Random(seed)
    n, v, k = nvk
    ref = World(n, v, k)
    names = [f"P{i}" for i in range(n)]
    me = rng.randrange(n)
    real = tuple(rng.randrange(len(ref.stacks)) for _ in range(n))
    s = egghead.Setup.from_json({"players": names, "me": names[me], "values": v,
                                 "cards_per_player": k,
                                 "moderator": "rotating" if rotating else "external",
                                 "visible": {names[i]: list(ref.stacks[real[i]])
                                             for i in range(n) if i != me}})
    events = []

    def check():
        for mod in (range(n) if rotating else [None]):
            for qid in QIDS:
                expect = sorted({ref.ans(qid, real[:me] + (x,) + real[me + 1:], mod)
                                 for x in ref.valids(me, real)})
                got = egghead.possible_answers(s, events, qid, None if mod is None else names[mod])
                assert got == expect, (qid, mod, events)
                assert ref.ans(qid, real, mod) in got

    for _step in range(3):
        check()
        mod = rng.randrange(n) if rotating else None
        qid = rng.choice(QIDS)
        a = ref.ans(qid, real, mod)
        ref.M = {w for w in ref.M if ref.ans(qid, w, mod) == a}
        events.append(egghead.Answer(question=qid, answer=a, moderator=None if mod is None else names[mod]))
        check()
        r = [ref.solves(i, real) for i in range(n)]
        ref.M = {w for w in ref.M if all(ref.solves(i, w) == r[i] for i in range(n))}
        events.append(egghead.Reactions(solved=tuple(names[i] for i in range(n) if r[i])))
        if any(r):  # solves would change the stacks; the reactions round is checked, then stop
            check()
            break


def test_egghead_impossible_answer_is_refused_with_the_possible_ones():
    # I see B = 4 5 6 and C = 3 3 3 (sum 24): the sum is 27..42, not 9
    assert egghead.possible_answers(EGG, [], "sum") == list(range(27, 43))
    reason = egghead.contradiction(EGG, [], egghead.parse(EGG, [], "sum = 9"))
    assert "27–42" in reason
    assert egghead.contradiction(EGG, [], egghead.parse(EGG, [], "sum = 30")) is None
    log = [egghead.parse(EGG, [], "missing = 0")]   # seed example 3.1: I hold 1 2 x
    assert egghead.possible_answers(EGG, log, "count-1") == [1, 2]
    assert egghead.forced_answer(EGG, log, "missing") == 0


# ---------------------------------------------------------------------------------- Spyfall

SPY = spyfall.default_setup()


@pytest.mark.parametrize("text, claim", [
    ("Bob: beach 1, casino .5", {"Beach": 1, "Casino": 0.5}),
    ("Bob: beach, casino", {"Beach": 1, "Casino": 1}),
    ("Bob: beach 50%, casino 25%", {"Beach": 0.5, "Casino": 0.25}),
    ("Bob: space st 2 hotel 1", {"Space Station": 2, "Hotel": 1}),
    ("Bob: 2 beach", {"Beach": 2}),
    ("Bob: beach casino", {"Beach": 1, "Casino": 1}),
])
def test_spyfall_forms(text, claim):
    assert spyfall.parse(SPY, [], text) == ev(spyfall, SPY, {"type": "claim", "player": "Bob", "claim": claim})


def test_spyfall_me_and_all():
    e = spyfall.parse(SPY, [], "me: all")
    assert e.player == SPY.me and len(set(e.weights)) == 1


@pytest.mark.parametrize("text, words", [
    ("Bob: station", ["'station'", "Polar Station", "Space Station"]),
    ("Bob: beach 0", ["positive weight"]),
    ("Bob: beach, beach", ["Beach is named twice"]),
    ("Zed: beach", ["'Zed'", "Ann"]),
    ("Bob: zork 1", ["'zork'", "Beach"]),
])
def test_spyfall_errors_name_the_word(text, words):
    msg = err(spyfall.parse, SPY, [], text)
    for w in words:
        assert w in msg, msg


@settings(max_examples=100, deadline=None)
@given(player=st.sampled_from(SPY.players),
       weights=st.dictionaries(st.sampled_from(SPY.locations),
                               st.floats(0.001, 1000, allow_nan=False) | st.integers(1, 100),
                               min_size=1, max_size=6))
def test_spyfall_round_trip(player, weights):
    e = spyfall.make_claim(SPY, player, weights)
    # exact numbers off the worksheet grid come back with the claim weight 1 they imply
    implied = spyfall.make_claim(SPY, player, weights, spyfall.entry_claim_weight(e.weights))
    assert spyfall.parse(SPY, [], spyfall.format_event(SPY, e)) == implied
    own = spyfall.make_claim(SPY, player, weights, 0.3)
    assert spyfall.parse(SPY, [], spyfall.format_event(SPY, own)) == own


# ------------------------------------------------------------------------------------ CLI

def _cli(*args):
    return subprocess.run([sys.executable, "-m", "engines", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def test_cli_parse_prints_the_event_and_exits_2_on_a_bad_line(tmp_path):
    f = tmp_path / "c.json"
    f.write_text(json.dumps({"format": "deduction-desk.session", "version": 1, "game": "cluedo",
                             "setup": UK.to_json(), "events": []}))
    r = _cli("parse", str(f), "Ann: plum rope hall; Bob")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == {"type": "suggestion", "suggester": "Ann",
                                    "cards": ["Professor Plum", "Rope", "Hall"], "passed": [],
                                    "refuter": "Bob", "shown": None}
    r = _cli("parse", str(f), "Bob has rev")
    assert r.returncode == 2
    assert "'rev'" in r.stderr and "Revolver" in r.stderr and "Traceback" not in r.stderr


@pytest.mark.parametrize("game", ["cluedo", "inkognito", "egghead", "guesswho", "spyfall"])
def test_every_game_exports_the_quick_entry(game):
    from engines import game_module
    mod = game_module(game)
    for name in ("parse", "preview", "complete", "format_event", "contradiction"):
        assert callable(getattr(mod, name)) and name in mod.__all__
    with pytest.raises(SessionFormatError):
        mod.parse(mod.default_setup(), [], "   ")


# ------------------------------------------------------------------- any text: a clear error

def _vocabulary(game, setup):
    words = {"cluedo": list(setup.players) + list(setup.cards) if game == "cluedo" else [],
             }.get(game, [])
    if game == "inkognito":
        words = list(setup.opponents) + list(setup.identities) + list(setup.builds)
    elif game == "egghead":
        words = list(setup.players) + list(egghead.bound_deck(setup.values, setup.cards_per_player,
                                                             len(setup.players)))
    elif game == "guesswho":
        words = list(setup.board.names) + [a.name for a in setup.board.attributes]
    elif game == "spyfall":
        words = list(setup.players) + list(setup.locations)
    return words + ["me", "has", "lacks", "accuses", "hand", "none", "amb", "mission", "build",
                    "reactions", "solves", "down", "opponent", "or", "is it", "yes", "no", "all",
                    ":", ";", ",", "?", "=", "->", "0", "1", ".5", "12", "456", "50%", "", "  "]


SETUPS = {"cluedo": UK, "inkognito": INK, "egghead": EGG, "guesswho": GW, "spyfall": SPY}
MODS = {"cluedo": cluedo, "inkognito": inkognito, "egghead": egghead, "guesswho": guesswho,
        "spyfall": spyfall}


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), game=st.sampled_from(sorted(SETUPS)))
def test_any_line_gives_an_event_or_a_clear_error(data, game):
    """Random lines made of the game's names, keywords and punctuation (and arbitrary text):
    parse returns a valid event or raises SessionFormatError — never another exception — and
    complete never fails."""
    setup, mod = SETUPS[game], MODS[game]
    vocab = _vocabulary(game, setup)
    line = data.draw(st.one_of(
        st.lists(st.sampled_from(vocab), max_size=8).map(" ".join),
        st.text(max_size=40)))
    for c in mod.complete(setup, [], line):      # completions of a partial line never fail
        assert isinstance(c, str) and c.casefold() != line.casefold()
    try:
        e = mod.parse(setup, [], line)
    except SessionFormatError as exc:
        assert exc.message and "Traceback" not in exc.message
        return
    assert mod.event_from_json(e.to_json(), setup, "$") == e
    assert mod.preview(setup, [], line) == mod.describe_event(setup, e)


def _example(game):
    from engines.core.schema import read_session_file
    s = read_session_file(str(ROOT / "resources" / "examples" / f"{game}.json"))
    return s.setup, list(s.events)


def _candidates(game, setup):
    if game == "guesswho":
        return ([guesswho.Answer(question=q, answer=b) for q in setup.board.questions() for b in (True, False)]
                + [guesswho.Eliminate(name=n) for n in setup.board.names]
                + [guesswho.Opponent(remaining=k) for k in range(1, setup.board.size + 1)])
    if game == "inkognito":
        return [a for a in _ink_answers() if a.opponent in setup.opponents]
    if game == "egghead":
        deck = egghead.bound_deck(setup.values, setup.cards_per_player, len(setup.players))
        seen = len(setup.players)
        out = [egghead.Answer(question=q, answer=a) for q in deck for a in deck[q].possible_answers(seen)]
        out += [egghead.Reactions(solved=tuple(c)) for r in range(len(setup.players) + 1)
                for c in itertools.combinations(setup.players, r)]
        return out
    return [spyfall.make_claim(setup, p, {loc: 1}) for p in setup.players for loc in setup.locations]


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), game=st.sampled_from(["guesswho", "inkognito", "egghead", "spyfall"]))
def test_contradiction_agrees_with_inference(data, game):
    """On each game's example session, ``contradiction`` gives a reason exactly when the
    engine's ``infer`` of the log plus the entry raises ContradictionError."""
    mod = MODS[game]
    setup, events = _example(game)
    e = data.draw(st.sampled_from(_candidates(game, setup)))
    reason = mod.contradiction(setup, events, e)
    try:
        mod.infer(setup, events + [e])
        impossible = False
    except ContradictionError:
        impossible = True
    assert (reason is not None) == impossible, (e, reason)
    if reason is not None:
        assert isinstance(reason, str) and reason


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_cluedo_fact_reason_from_the_posterior_equals_brute_force(data):
    """The menu's check from the exact posterior (no inference) refuses "P has c" / "P lacks c"
    exactly when no deal consistent with the log allows it, and names the holder when known."""
    strat = cluedo_events(SMALL)
    log = []
    for e in data.draw(st.lists(strat, max_size=5)):
        if any(all(_holds(d, x) for x in log + [e]) for d in DEALS):
            log.append(e)
    post = cluedo.infer(SMALL, log)
    consistent = [d for d in DEALS if all(_holds(d, x) for x in log)]
    for player in SMALL.players:
        for card in SMALL.cards:
            for has in (True, False):
                fact = cluedo.ShownEvent(player=player, card=card) if has \
                    else cluedo.LacksEvent(player=player, card=card)
                possible = any(_holds(d, fact) for d in consistent)
                reason = cluedo.fact_reason(SMALL, post, player, card, has)
                assert (reason is None) == possible, (log, fact, reason)
                if reason and "cannot" not in reason:  # a named holder holds it in every deal
                    holders = {d[card] for d in consistent}
                    assert len(holders) == 1
                    who = holders.pop()
                    assert reason == ("it is in the envelope" if who == "envelope" else
                                      "you hold it" if who == SMALL.me else f"{who} holds it")


def test_cluedo_fact_reason_needs_an_exact_posterior():
    hand = cluedo.parse(UK, [], "me hand: scarlett, revolver, kitchen, ball, study")
    assert cluedo.fact_reason(UK, cluedo.infer(UK, [hand]), "Ann", "Miss Scarlett", True) == "you hold it"
    assert cluedo.fact_reason(UK, cluedo.infer(UK, [hand], method="montecarlo"), "Ann",
                              "Miss Scarlett", True) is None


def test_egghead_seen_answers_use_the_cards_i_see_and_contain_the_possible_ones():
    # I see B = 4 5 6 and C = 3 3 3: the sum is 24 + my 3..18
    assert egghead.seen_answers(EGG, [], "sum") == list(range(27, 43))
    log = [egghead.parse(EGG, [], "missing = 0")]
    assert set(egghead.possible_answers(EGG, log, "sum")) <= set(egghead.seen_answers(EGG, log, "sum"))
    solved = log + [egghead.parse(EGG, [], "reactions: B"), egghead.parse(EGG, [], "B solves -> 111")]
    assert egghead.seen_answers(EGG, solved, "sum") == list(range(12 + 3, 12 + 19))  # 1 1 1 + 3 3 3
    assert egghead.complete(EGG, [], "sum = 2") == ["sum = 27", "sum = 28", "sum = 29"]
    assert egghead.complete(EGG, [], "B solves ") == ["B solves 456 -> "]


def test_docs_quick_entry_examples_parse():
    """Every line in the quick-entry table (docs/quick-entry.md) parses in its game (the docs stay
    true)."""
    import re
    section = (ROOT / "docs" / "quick-entry.md").read_text(encoding="utf-8")
    rotating = egghead.Setup.from_json(dict(EGG.to_json(), moderator="rotating"))
    titles = {"Cluedo": "cluedo", "Inkognito": "inkognito", "Egghead": "egghead",
              "Guess Who?": "guesswho", "Spyfall": "spyfall"}
    game, seen = None, 0
    for row in section.splitlines():
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        if len(cells) != 3 or cells[0] not in titles and cells[0] != "":
            continue
        game = titles.get(cells[0], game)
        if game is None:
            continue
        for line in re.findall(r"`([^`]+)`", cells[1]):
            setup = rotating if game == "egghead" and re.match(r"^\w+:", line) else SETUPS[game]
            MODS[game].parse(setup, [], line)
            seen += 1
    assert seen >= 25
