"""Egghead engine: Zorn's (2024) example, a brute-force epistemic reference, properties, CLI."""
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

import engines.egghead as egghead
import engines.egghead.inference as egghead_inference
from engines.core.errors import Cancelled, ContradictionError, SessionFormatError
from engines.core.schema import parse_session
from engines.core.timeline import Timeline
from engines.egghead import (
    Answer,
    BitTable,
    Reactions,
    Setup,
    SimConfig,
    Solve,
    answer_for,
    bound_deck,
    default_setup,
    describe_event,
    event_from_json,
    infer,
    load_deck,
    questions_for,
    reactions_can_change,
    recommend,
    simulate,
    stack_space,
    win_probabilities,
)
from engines.egghead.table import pack_bits, unpack_bits

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "resources" / "examples" / "egghead.json"


def setup(players, me, visible, **kw):
    return Setup.from_json({"players": players, "me": me,
                            "visible": {p: list(s) for p, s in visible.items()}, **kw})


# ----------------------------------------------------------------- seed example 3.1 / 4.1

SEED_TABLE = {"A": (1, 2, 2), "B": (4, 5, 6), "C": (3, 3, 3)}


def seed_view(me):
    return setup(["A", "B", "C"], me, {p: s for p, s in SEED_TABLE.items() if p != me})


def test_seed_example_first_player():
    s = seed_view("A")
    after_answer = infer(s, [Answer(question="missing", answer=0)])
    # eq. (1): A needs a 1 and a 2
    assert after_answer.my_valids == ((1, 1, 2), (1, 2, 2), (1, 2, 3), (1, 2, 4), (1, 2, 5), (1, 2, 6))
    post = infer(s, [Answer(question="missing", answer=0), Reactions(solved=("B",))])
    assert post.my_valids == ((1, 1, 2), (1, 2, 2), (1, 2, 3))
    # prior multinomial weights 3, 3, 6
    assert post.my_probabilities == pytest.approx((0.25, 0.25, 0.5))
    assert not post.can_solve
    assert post.valid_count_without_ba == 6 and post.valid_count_with_ba == 3
    counts = [(p.valid_count_with_ba, p.valid_count_without_ba)
              for p in Timeline(egghead, s).compute([Answer(question="missing", answer=0),
                                                     Reactions(solved=("B",))]).posteriors]
    assert counts == [(56, 56), (6, 6), (3, 6)]
    assert post.learned_from == {"moderator": 50, "B": 3, "C": 0}
    # the solve step (eq. 5) keeps A's valids
    post2 = infer(s, [Answer(question="missing", answer=0), Reactions(solved=("B",)),
                      Solve(player="B", cards=(4, 5, 6), new_cards=(1, 1, 2))])
    assert post2.my_valids == post.my_valids and post2.visible["B"] == (1, 1, 2)


def test_seed_example_third_player():
    post = infer(seed_view("C"), [Answer(question="missing", answer=0), Reactions(solved=("B",))])
    assert post.my_valids == ((1, 1, 3), (1, 2, 3), (1, 3, 3), (2, 2, 3), (2, 3, 3), (3, 3, 3))
    assert post.valid_count_without_ba == 21  # "at least one 3"


def test_seed_example_second_player_solves_from_the_answer():
    post = infer(seed_view("B"), [Answer(question="missing", answer=0)])
    assert post.can_solve and post.solution == (4, 5, 6)
    assert recommend(seed_view("B"), [Answer(question="missing", answer=0)]).solve
    # A and C see that B can solve whatever they hold? A knows B can solve only in some worlds
    pa = infer(seed_view("A"), [Answer(question="missing", answer=0)])
    assert pa.others_solve_probability["B"] == pytest.approx(
        sum(p for v, p in zip(pa.my_valids, pa.my_probabilities) if v in ((1, 1, 2), (1, 2, 2), (1, 2, 3))))
    assert pa.others_can_solve == {"B": False, "C": False}


def test_seed_example_file_and_cli():
    out = subprocess.run([sys.executable, "-m", "engines", "infer", str(EXAMPLE)], cwd=ROOT,
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert d["game"] == "egghead"
    assert d["my_valids"] == [[1, 1, 2], [1, 2, 2], [1, 2, 3]]
    assert d["my_probabilities"] == pytest.approx([0.25, 0.25, 0.5])
    assert d["can_solve"] is False
    assert set(d["others_can_solve"]) == {"B", "C"}
    assert isinstance(d["worlds"], int) and d["worlds"] > 0
    assert "NaN" not in out.stdout


def test_cli_exit_codes(tmp_path):
    obj = json.loads(EXAMPLE.read_text())
    obj["events"][0]["question"] = "nope"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(obj))
    out = subprocess.run([sys.executable, "-m", "engines", "infer", str(bad)], cwd=ROOT,
                         capture_output=True, text=True)
    assert out.returncode == 2 and "$.events[0].question" in out.stderr
    obj = json.loads(EXAMPLE.read_text())
    obj["events"][1]["solved"] = ["C"]  # C cannot know their cards
    bad.write_text(json.dumps(obj))
    out = subprocess.run([sys.executable, "-m", "engines", "infer", str(bad)], cwd=ROOT,
                         capture_output=True, text=True)
    assert out.returncode == 3 and "event 2" in out.stderr and "Traceback" not in out.stderr


# ----------------------------------------------------------------- deck

def test_deck_has_required_questions():
    deck = load_deck()
    assert len(deck) >= 24
    ids = [q.id for q in deck]
    assert len(set(ids)) == len(ids)
    b = bound_deck(6, 3, 3)
    sp = stack_space(6, 3)
    w = [sp.index(s) for s in SEED_TABLE.values()]
    assert b["missing"].answer(w) == 0
    assert b["sum"].answer(w) == 1 + 2 + 2 + 4 + 5 + 6 + 9
    assert b["count-6"].answer(w) == 1
    w2 = [sp.index(s) for s in [(1, 1, 1), (1, 1, 2), (6, 6, 2)]]
    assert b["missing"].answer(w2) == 3  # 3, 4, 5 appear nowhere
    assert b["sum"].answer(w2) == 3 + 4 + 14
    assert b["count-6"].answer(w2) == 2
    assert b["count-6"].possible_answers(4) == list(range(13))


def test_stack_space_and_prior():
    sp = stack_space(6, 3)
    assert sp.size == 56
    assert sp.weights.sum() == pytest.approx(1.0)
    assert sp.weights[sp.index((1, 2, 3))] == pytest.approx(6 * sp.weights[sp.index((1, 1, 1))])
    assert sp.index((3, 1, 2)) == sp.index((1, 2, 3))


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_vectorised_answer_filter_matches_direct_evaluation(data):
    n = data.draw(st.integers(2, 4))
    v = data.draw(st.integers(2, 4))
    k = data.draw(st.integers(1, 3))
    sp = stack_space(v, k)
    deck = bound_deck(v, k, n)
    q = deck[data.draw(st.sampled_from(sorted(deck)))]
    mod = data.draw(st.sampled_from([None] + list(range(n))))
    seen = [i != mod for i in range(n)]
    worlds = list(itertools.product(range(sp.size), repeat=n))
    w0 = data.draw(st.sampled_from(worlds))
    ans = q.answer([w0[i] for i in range(n) if seen[i]])
    T = BitTable(n, sp.size)
    T.filter_answer(q, ans, seen)
    expect = {w for w in worlds if q.answer([w[i] for i in range(n) if seen[i]]) == ans}
    got = {w for w in worlds if w in T}
    assert got == expect and T.count() == len(expect)


def test_pack_roundtrip():
    rng = np.random.default_rng(1)
    for S in (3, 56, 64, 65, 130):
        b = rng.random((4, S)) < 0.5
        assert (unpack_bits(pack_bits(b), S) == b).all()


# ----------------------------------------------------------------- brute-force reference

def _direct_answer(qid, stacks, v):
    """Independent evaluation of some deck questions on concrete stacks (tuples)."""
    cards = [c for s in stacks for c in s]
    if qid == "missing":
        return sum(1 for x in range(1, v + 1) if x not in cards)
    if qid == "sum":
        return sum(cards)
    if qid.startswith("count-") and qid[6:].isdigit():
        return cards.count(int(qid[6:]))
    if qid == "pairs":
        return sum(1 for s in stacks if len(set(s)) < len(s))
    if qid == "highest":
        return max(cards)
    if qid == "lowest":
        return min(cards)
    if qid == "distinct":
        return len(set(cards))
    if qid == "sum-even":
        return int(sum(cards) % 2 == 0)
    if qid == "highest-stack-sum":
        return max(sum(s) for s in stacks)
    raise KeyError(qid)


REF_QUESTIONS = ["missing", "sum", "count-1", "count-2", "pairs", "highest", "lowest",
                 "distinct", "sum-even", "highest-stack-sum"]


class Reference:
    """Epistemic model by enumeration: a set of world tuples, valids by definition."""

    def __init__(self, n, v, k, ba):
        self.v = v
        self.stacks = list(itertools.combinations_with_replacement(range(1, v + 1), k))
        self.S = len(self.stacks)
        self.n = n
        self.ba = ba
        allw = set(itertools.product(range(self.S), repeat=n))
        self.M, self.A = set(allw), set(allw)

    def valids(self, T, i, w):
        return {x for x in range(self.S) if w[:i] + (x,) + w[i + 1:] in T}

    def answer(self, qid, w, mod):
        return _direct_answer(qid, [self.stacks[w[i]] for i in range(self.n) if i != mod], self.v)

    def apply_answer(self, qid, a, mod):
        self.M = {w for w in self.M if self.answer(qid, w, mod) == a}
        self.A = {w for w in self.A if self.answer(qid, w, mod) == a}

    def solves(self, i, w):
        return len(self.valids(self.M if self.ba[i] else self.A, i, w)) == 1

    def apply_reactions(self, r):
        self.M = {w for w in self.M if all(self.solves(i, w) == r[i] for i in range(self.n))}

    def reset(self, i, s):
        keep = {w[:i] + w[i + 1:] for w in self.M if w[i] == s}
        self.M = {w[:i] + (x,) + w[i:] for w in keep for x in range(self.S)}
        keep = {w[:i] + w[i + 1:] for w in self.A if w[i] == s}
        self.A = {w[:i] + (x,) + w[i:] for w in keep for x in range(self.S)}


def _play_reference(rng, n, v, k, ba, rotating, steps):
    """A random truthful game; yields (events so far, reference, real world, initial deal)
    after every reactions round (and its solves)."""
    ref = Reference(n, v, k, ba)
    names = [f"P{i}" for i in range(n)]
    real = [rng.randrange(ref.S) for _ in range(n)]
    initial = list(real)
    events = []
    for _step in range(steps):
        mod = rng.randrange(n) if rotating else None
        qid = rng.choice(REF_QUESTIONS)
        a = ref.answer(qid, tuple(real), mod)
        ref.apply_answer(qid, a, mod)
        events.append({"type": "answer", "question": qid, "answer": a,
                       "moderator": None if mod is None else names[mod]})
        for _ in range(rng.randrange(1, 3)):
            r = [ref.solves(i, tuple(real)) for i in range(n)]
            ref.apply_reactions(r)
            events.append({"type": "reactions", "solved": [names[i] for i in range(n) if r[i]]})
            for i in range(n):
                if r[i]:
                    old = real[i]
                    ref.reset(i, old)
                    real[i] = rng.randrange(ref.S)
                    events.append({"type": "solve", "player": names[i],
                                   "cards": list(ref.stacks[old]),
                                   "new_cards": list(ref.stacks[real[i]])})
            yield list(events), ref, list(real), initial


def _engine_view(names, me, v, k, rotating, ba, ref, initial, events):
    vis = {names[i]: list(ref.stacks[initial[i]]) for i in range(len(names)) if i != me}
    s = Setup.from_json({"players": names, "me": names[me], "values": v, "cards_per_player": k,
                         "moderator": "rotating" if rotating else "external",
                         "behavioural_analysis": ba[me],
                         "analysing": [names[i] for i in range(len(names)) if i != me and ba[i]],
                         "visible": vis})
    evs = []
    for j, e in enumerate(events):
        if e["type"] == "solve" and e["player"] == names[me]:
            e = dict(e, new_cards=None)
        evs.append(event_from_json(e, s, f"$.events[{j}]"))
    return s, evs


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10 ** 6), rotating=st.booleans(),
       ba=st.lists(st.booleans(), min_size=4, max_size=4),
       nvk=st.sampled_from([(3, 2, 2), (3, 2, 2), (4, 2, 1), (3, 3, 1)]))
def test_matches_brute_force_reference(seed, rotating, ba, nvk):
    """Tiny setting (2 values, 2 cards, 3 players: 27 worlds): after every reactions round of
    a random truthful game, the engine's master table and my valids (with and without
    behavioural analysis) equal the enumeration of the epistemic definitions."""
    rng = random.Random(seed)
    n, v, k = nvk
    ba = ba[:n]
    me = rng.randrange(n)
    names = [f"P{i}" for i in range(n)]
    for events, ref, real, initial in _play_reference(rng, n, v, k, ba, rotating, 4):
        s, evs = _engine_view(names, me, v, k, rotating, ba, ref, initial, events)
        post = infer(s, evs)
        w = tuple(real)
        expect_ba = sorted(ref.stacks[x] for x in ref.valids(ref.M, me, w))
        expect_ans = sorted(ref.stacks[x] for x in ref.valids(ref.A, me, w))
        assert post.valid_count_with_ba == len(expect_ba)
        assert list(post.my_valids_without_ba) == expect_ans
        assert list(post.my_valids) == (expect_ba if ba[me] else expect_ans)
        assert post.worlds == len(ref.M)
        assert ref.stacks[real[me]] in post.my_valids  # the real world is never removed
        for i in range(n):
            if i == me:
                continue
            T = ref.M if ba[i] else ref.A
            can = [len(ref.valids(T, i, w[:me] + (x,) + w[me + 1:])) == 1
                   for x in ref.valids(ref.M, me, w)]
            assert post.others_can_solve[names[i]] == all(can)
        r_of = lambda ww: tuple(ref.solves(i, ww) for i in range(n))
        assert post.fixpoint_reached == (len({r_of(ww) for ww in ref.M}) <= 1)


def test_hand_checked_tiny_world():
    """v=2, k=2: stacks 11, 12, 22. I (P0) see P1 = 11 and P2 = 12; question: "how many
    players hold two equal cards?" answer 1 (P1's pair; so I hold 12). Checked by hand:
    without analysis, P1 sees P0 ∈ ? — P1 sees 12 (me) and 12 (P2): one pair among P1 → P1
    holds 11 or 22; P2 sees 12 and 11 → P2 holds no pair → P2 solves (12). So the reactions
    are: P0 solved (I know 12), P1 not, P2 solved."""
    s = setup(["P0", "P1", "P2"], "P0", {"P1": (1, 1), "P2": (1, 2)}, values=2,
              cards_per_player=2)
    post = infer(s, [Answer(question="pairs", answer=1)])
    assert post.my_valids == ((1, 2),) and post.can_solve
    assert post.others_can_solve == {"P1": False, "P2": True}
    # logging P1 as solving contradicts what P1 can know
    with pytest.raises(ContradictionError) as e:
        infer(s, [Answer(question="pairs", answer=1), Reactions(solved=("P0", "P1", "P2"))])
    assert e.value.event_index == 1 and "P1" in e.value.message
    # not solving although I can is a contradiction too (players solve asap, seed 3.1)
    with pytest.raises(ContradictionError) as e:
        infer(s, [Answer(question="pairs", answer=1), Reactions(solved=("P2",))])
    assert e.value.event_index == 1 and "you" in e.value.message
    post = infer(s, [Answer(question="pairs", answer=1), Reactions(solved=("P0", "P2"))])
    assert post.my_valids == ((1, 2),)


# ----------------------------------------------------------------- properties of random games

@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10 ** 6), n=st.integers(3, 4), a=st.integers(0, 4))
def test_random_games_keep_the_truth_and_never_grow(seed, n, a):
    """Simulated truthful games (v=3, k=2): every player's valids contain their real stack,
    and the size of a player's valids never grows except when they get new cards."""
    from engines.egghead.simulate import play_game

    rng = np.random.default_rng(seed)
    qs = list(bound_deck(3, 2, n).values())
    # play_game checks that every solve names the real stack (raises otherwise)
    obs_ba, obs_no, solves = play_game(n, 3, 2, 25, min(a, n), qs, rng)
    assert len(obs_ba) + len(obs_no) == solves
    assert all(x >= 1 for x in obs_ba + obs_no)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10 ** 6))
def test_infer_valids_never_grow_without_my_solve(seed):
    rng = random.Random(seed)
    n, v, k = 3, 3, 2
    ba = [rng.random() < 0.7 for _ in range(n)]
    names = [f"P{i}" for i in range(n)]
    for events, ref, real, initial in _play_reference(rng, n, v, k, ba, False, 3):  # noqa: B007 (to the last state)
        pass
    s, evs = _engine_view(names, 0, v, k, False, ba, ref, initial, events)
    posts = Timeline(egghead, s).compute(evs).posteriors
    post = posts[-1]
    h = [p.valid_count_with_ba for p in posts]
    h2 = [p.valid_count_without_ba for p in posts]
    assert len(h) == len(evs) + 1
    for j, e in enumerate(evs):
        if not (isinstance(e, Solve) and e.player == "P0"):
            assert h[j + 1] <= h[j] and h2[j + 1] <= h2[j]
        assert h[j + 1] <= h2[j + 1]  # analysis never knows less than the answers alone
    assert ref.stacks[real[0]] in post.my_valids


def test_fixpoint_loop_reaches_a_state_where_rounds_change_nothing():
    s = setup(["A", "B", "C", "D"], "A", {"B": (1, 2, 3), "C": (2, 2, 5), "D": (6, 6, 4)})
    real = {"A": (1, 1, 4), "B": (1, 2, 3), "C": (2, 2, 5), "D": (4, 6, 6)}
    sp = stack_space(6, 3)
    deck = bound_deck(6, 3, 4)
    evs = [Answer(question="sum", answer=deck["sum"].answer([sp.index(x) for x in real.values()]))]
    # play reactions rounds truthfully using the engine's own views of each player
    for _ in range(8):
        if not reactions_can_change(s, evs):
            break
        solved = []
        for p in s.players:
            sv = setup(["A", "B", "C", "D"], p, {q: real[q] for q in real if q != p})
            if infer(sv, evs).can_solve:
                solved.append(p)
        evs.append(Reactions(solved=tuple(solved)))
    assert not reactions_can_change(s, evs)
    w = infer(s, evs).worlds
    evs2 = evs + [evs[-1] if isinstance(evs[-1], Reactions) else Reactions(solved=())]
    assert infer(s, evs2).worlds == w


# ----------------------------------------------------------------- errors and format

def test_setup_and_event_errors():
    with pytest.raises(SessionFormatError) as e:
        Setup.from_json({"players": ["A", "B"], "me": "A", "visible": {}})
    assert e.value.path == "$.setup.players"
    with pytest.raises(SessionFormatError) as e:
        Setup.from_json({"players": ["A", "B", "C"], "me": "A", "visible": {"B": [1, 2, 7], "C": [1, 1, 1]}})
    assert e.value.path == "$.setup.visible.B[2]"
    with pytest.raises(SessionFormatError) as e:
        Setup.from_json({"players": ["A", "B", "C"], "me": "A", "visible": {"B": [1, 2, 3]}})
    assert e.value.path == "$.setup.visible.C"
    with pytest.raises(SessionFormatError) as e:
        Setup.from_json({"players": list("ABCDEF"), "me": "A", "values": 7, "visible": {}})
    assert e.value.path == "$.setup.players" and "memory" in e.value.message
    s = default_setup()
    with pytest.raises(SessionFormatError) as e:
        event_from_json({"type": "answer", "question": "missing", "answer": 9}, s, "$.events[0]")
    assert e.value.path == "$.events[0].answer"
    with pytest.raises(SessionFormatError) as e:
        event_from_json({"type": "answer", "question": "sum", "answer": 9, "moderator": "B"}, s, "$.events[0]")
    assert e.value.path == "$.events[0].moderator"
    with pytest.raises(SessionFormatError) as e:
        event_from_json({"type": "solve", "player": "B", "cards": [4, 5, 6]}, s, "$.events[2]")
    assert e.value.path == "$.events[2].new_cards"
    with pytest.raises(SessionFormatError) as e:
        event_from_json({"type": "reactions", "solved": ["Zed"]}, s, "$.events[1]")
    assert e.value.path == "$.events[1].solved[0]"


def test_contradictions_name_the_first_bad_event():
    s = seed_view("A")
    with pytest.raises(ContradictionError) as e:
        infer(s, [Answer(question="missing", answer=0), Answer(question="count-6", answer=0)])  # B shows a 6
    assert e.value.event_index == 1
    with pytest.raises(ContradictionError) as e:
        infer(s, [Answer(question="missing", answer=0), Reactions(solved=("B",)),
                  Solve(player="B", cards=(1, 2, 3), new_cards=(1, 1, 1))])
    assert e.value.event_index == 2 and "4 5 6" in e.value.message
    with pytest.raises(ContradictionError) as e:
        infer(s, [Answer(question="missing", answer=0), Solve(player="A", cards=(6, 6, 6))])
    assert e.value.event_index == 1


def test_roundtrip_describe_and_session():
    obj = json.loads(EXAMPLE.read_text())
    sess = parse_session(obj)
    assert sess.setup.to_json()["visible"] == {"B": [4, 5, 6], "C": [3, 3, 3]}
    assert Setup.from_json(sess.setup.to_json()) == sess.setup
    for i, ev in enumerate(sess.events):
        assert event_from_json(ev.to_json(), sess.setup, f"$.events[{i}]") == ev
    texts = [describe_event(sess.setup, ev) for ev in sess.events]
    assert "missing" not in texts[0] and "answer 0" in texts[0]
    assert texts[1] == "Reactions: B solved; A, C did not"
    assert "4 5 6" in texts[2] and "1 1 2" in texts[2]


def test_timeline_gives_the_same_result_as_a_fresh_inference():
    """Egghead's states folded by the timeline (snapshots; undo from the cache) equal a pure
    inference from the start, and the engine keeps nothing between calls."""
    s = seed_view("C")
    evs = [Answer(question="missing", answer=0), Reactions(solved=("B",)),
           Solve(player="B", cards=None, new_cards=(1, 1, 2)), Answer(question="sum", answer=18)]
    tl = Timeline(egghead, s)
    full = tl.posterior(evs)
    shorter = tl.posterior(evs[:2])          # undo from the timeline
    assert shorter == infer(s, evs[:2]) and full == infer(s, evs) == tl.posterior(evs)
    st = egghead.initial(s)
    for i, ev in enumerate(evs):
        st = egghead.update(s, st, i, ev)
    assert st.M.count() == full.worlds and egghead.posterior(s, st) == full
    assert not any(isinstance(v, dict) and v for k, v in vars(egghead_inference).items()
                   if k.startswith("_") and not k.startswith("__"))   # no module-level cache


def test_rotating_moderator_me_answering():
    s = setup(["A", "B", "C"], "A", {"B": (1, 1, 1), "C": (2, 2, 2)}, moderator="rotating")
    post = infer(s, [Answer(question="sum", answer=9, moderator="A")])
    assert post.valid_count_with_ba == 56  # my own answer says nothing about my cards
    with pytest.raises(ContradictionError):
        infer(s, [Answer(question="sum", answer=10, moderator="A")])


# ----------------------------------------------------------------- simulation

def test_win_probabilities_known_values():
    det = np.array([0, 0, 1.0])          # always 2 rounds
    late = np.array([0, 0, 0, 1.0])       # always 3 rounds
    assert win_probabilities([det, late]) == (1.0, 0.0)
    assert win_probabilities([det, det]) == (1.0, 1.0)  # ties count for both
    coin = np.array([0, 0.5, 0.5])
    p = win_probabilities([coin, coin])
    assert p == pytest.approx((0.75, 0.75))


def test_simulate_small_runs_and_reports():
    calls = []
    res = simulate(SimConfig(players=3, values=3, cards_per_player=2, rounds=40, analysing=(0, 3),
                             seed=3, target_points=3), progress=lambda d, t: calls.append((d, t)))
    assert calls[-1] == (80, 80)
    c0, c3 = res.configs
    assert c0.ba is None and c3.no_ba is None
    assert c0.no_ba.n > 0 and c3.ba.n > 0
    for m in (c0.no_ba, c3.ba):
        xs = [x for x, _ in m.ecdf]
        Fs = [f for _, f in m.ecdf]
        assert xs[0] == 1 and Fs[-1] == pytest.approx(1.0) and all(np.diff(Fs) >= 0)
        assert m.mean == pytest.approx(np.mean(m.observations))
        assert m.cdf_target[0][0] == 3 and m.cdf_target[-1][1] == pytest.approx(1.0)
    assert sum(c0.win_probabilities) >= 1.0 - 1e-9
    assert json.dumps(res.to_json())  # JSON-able
    # reproducible
    again = simulate(SimConfig(players=3, values=3, cards_per_player=2, rounds=40, analysing=(0, 3),
                               seed=3, target_points=3))
    assert again.configs[1].ba.observations == c3.ba.observations


def test_simulate_cancel_and_bad_arguments():
    with pytest.raises(Cancelled):
        simulate(SimConfig(players=3, values=3, cards_per_player=2, rounds=50), cancel=lambda: True)
    with pytest.raises(SessionFormatError):
        simulate(SimConfig(analysing=(7,)))
    with pytest.raises(SessionFormatError):
        simulate(SimConfig(questions=("nope",)))


def test_cli_simulate_runs():
    out = subprocess.run([sys.executable, "-m", "engines", "simulate", "egghead", "--players", "3",
                          "--values", "3", "--cards", "2", "--rounds", "20", "--analysing", "1"],
                         cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert d["configs"][0]["analysing"] == 1 and d["seed_table"]["ba"]["mean"] == 6.16


def test_question_picker_helpers():
    s = default_setup()
    qs = questions_for(s)
    assert [q.id for q in qs][:3] == ["missing", "distinct", "sum"]
    missing = next(q for q in qs if q.id == "missing")
    assert missing.answers == (0, 1, 2, 3, 4, 5) and "1 to 6" in missing.text
    assert answer_for(s, "sum", {"A": (1, 2, 2), "B": (4, 5, 6), "C": (3, 3, 3)}) == 29
    assert answer_for(s, "sum", {"A": (1, 2, 2), "B": (4, 5, 6), "C": (3, 3, 3)}, "A") == 24


@pytest.mark.parametrize("moderator_axis", [None, 0, 4])
def test_five_player_answer_filter_counts_by_convolution(moderator_axis):
    """5 players × 56 stacks (551 M worlds, chunked path): the number of worlds whose sum is
    the answer equals the convolution of the per-stack sum histogram (an independent count)."""
    n, sp = 5, stack_space(6, 3)
    q = bound_deck(6, 3, n)["sum"]
    seen = [i != moderator_axis for i in range(n)]
    ans = 50
    T = BitTable(n, sp.size)
    T.filter_answer(q, ans, seen)
    hist = np.bincount(q.feature).astype(object)
    conv = np.array([1], dtype=object)
    for _ in range(sum(seen)):
        conv = np.convolve(conv, hist)
    expect = int(conv[ans]) * sp.size ** (n - sum(seen))
    assert T.count() == expect


# ----------------------------------------------------------------- large tables (6 players)

@pytest.mark.parametrize("n,S", [(4, 7), (3, 70), (5, 5)])
def test_chunked_table_passes_equal_whole_table_reference(monkeypatch, n, S):
    """Every whole-table pass, done one axis-0 index at a time (as for the 4.4 GB table of 6
    players), equals the same operation on the unpacked boolean table."""
    import engines.egghead.table as table_mod

    monkeypatch.setattr(table_mod, "_CHUNK_BYTES", 1)     # one index of axis 0 per chunk
    monkeypatch.setattr(table_mod, "_BLOCK_WORDS", 3)     # blocks that split both sides
    rng = np.random.default_rng(n * 100 + S)
    dense = rng.random((S,) * n) < 0.35                       # bool worlds, last axis = bits
    T = BitTable(n, S, pack_bits(dense).copy())
    assert len(list(T.chunks())) == S
    assert T.count() == int(dense.sum())
    for axis in range(n):
        cnt = dense.sum(axis=axis, keepdims=True)             # valids of that player per world
        ref_ind = np.broadcast_to(cnt == 1, dense.shape)
        ind = T.solved_indicator(axis)
        for solved in (True, False):
            U = BitTable(n, S, T.t.copy())
            U.keep_reaction(axis, ind, solved)
            expect = dense & (ref_ind if solved else ~ref_ind)
            assert np.array_equal(unpack_bits(U.t, S), expect), (axis, solved)
        yes = (dense & ref_ind).any()
        no = (dense & ~ref_ind).any()
        ind2, sup = T.solved_indicator(axis, with_support=True)
        assert np.array_equal(ind2, ind)
        assert BitTable.reaction_is_constant_on(ind, sup) == (not (yes and no))
        ref_sup = dense.any(axis=axis)
        if axis == n - 1:
            assert np.array_equal(sup, ref_sup)
        else:   # words: bit v of the last player's axis
            assert np.array_equal(unpack_bits(sup, S), ref_sup)
        stack = int(rng.integers(S))
        U = BitTable(n, S, T.t.copy())
        U.reset_player(axis, stack)
        kept = np.take(dense, [stack], axis=axis)
        assert np.array_equal(unpack_bits(U.t, S), np.broadcast_to(kept, dense.shape))


def _random_engine_game(seed):
    rng = random.Random(seed)
    n, v, k = 4, 3, 2
    ba = [rng.random() < 0.7 for _ in range(n)]
    names = [f"P{i}" for i in range(n)]
    rotating = rng.random() < 0.5
    for events, ref, _real, initial in _play_reference(rng, n, v, k, ba, rotating, 4):  # noqa: B007 (to the last state)
        pass
    return _engine_view(names, 0, v, k, rotating, ba, ref, initial, events)


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10 ** 6))
def test_large_table_path_equals_the_snapshot_path(seed):
    """With every state treated as too large to copy (like 6 players: the timeline moves one
    live state forward in place), every prefix, asked for in order, out of order, after a
    cancel and after a contradiction, gives the posterior of a fresh inference."""
    s, evs = _random_engine_game(seed)
    expect = [infer(s, evs[:j]) for j in range(len(evs) + 1)]
    tl = Timeline(egghead, s, memory_budget=-1)
    assert tl.in_order
    assert tl.compute(evs).posteriors == tuple(expect)                     # in order
    live = tl._live[1]
    tl2 = Timeline(egghead, s, memory_budget=-1)
    assert tl2.posterior(evs) == expect[-1]
    assert tl2.posterior(evs[:1]) == expect[1]        # an earlier entry: a temporary state
    assert tl2._live[0] == tuple(evs)
    edited = list(evs[:1]) + [Answer(question="missing", answer=0)] + list(evs[1:])
    try:
        tl2.posterior(edited)                         # another log replaces the live state
    except ContradictionError:
        assert tl2._live is None
    else:
        assert tl2._live[0] == tuple(edited)
    assert tl2.posterior(evs) == expect[-1]
    assert tl._live[1] is live
    tl3 = Timeline(egghead, s, memory_budget=-1)
    tl3.posterior(evs[:1])
    calls = iter(range(10 ** 6))
    with pytest.raises(Cancelled):
        tl3.posterior(evs, cancel=lambda: next(calls) > 2)   # moving it forward, stopped midway
    assert tl3._live is None                                  # a half-updated state is dropped
    assert tl3.posterior(evs) == expect[-1]
    bad = list(evs) + [Answer(question="missing", answer=0)]
    try:
        tl3.posterior(bad)
    except ContradictionError:
        assert tl3._live is None
    assert tl3.posterior(evs[:2]) == expect[min(2, len(evs))]
    assert recommend(s, evs).another_round_useful == (not expect[-1].fixpoint_reached)


def test_memory_check_names_what_is_needed(monkeypatch):
    import engines.egghead.inference as inf
    import engines.egghead.orbits as orbits

    monkeypatch.setattr(orbits, "ORBIT_FROM_BYTES", 1 << 62)   # the explicit table's figures
    six = Setup.from_json({"players": list("ABCDEF"), "me": "A",
                           "visible": {p: [1, 2, 3] for p in "BCDEF"}})
    assert inf.is_large(six)
    assert 4.4e9 < inf.memory_needed(six) < 6.5e9
    monkeypatch.setattr(inf, "available_bytes", lambda: 2 * 10 ** 9)
    with pytest.raises(SessionFormatError) as e:
        infer(six, [])
    assert e.value.path == "$.setup.players"
    assert "GB of memory" in e.value.message and "2.0 GB is available" in e.value.message
    small = seed_view("A")
    assert not inf.is_large(small) and infer(small, []).worlds == 56 ** 3


def test_parallel_indicators_equal_sequential(monkeypatch):
    """The indicators computed two at a time (as for 6 players) equal the sequential ones, and
    a cancel inside a worker stops the whole computation."""
    import engines.egghead.inference as inf

    s, evs = _random_engine_game(11)
    expect = infer(s, evs)
    monkeypatch.setattr(inf, "_PARALLEL_BYTES", 0)
    assert infer(s, evs) == expect
    calls = iter(range(10 ** 6))
    with pytest.raises(Cancelled):
        infer(s, evs, cancel=lambda: next(calls) > 40)


@pytest.mark.parametrize("n", [4, 5])
def test_blocked_answer_filter_equals_the_row_filter(monkeypatch, n):
    """The large-table answer filter (cache-sized blocks, reused buffers) removes exactly the
    worlds the row-at-a-time filter removes, for every question, with and without a rotating
    moderator's blind axis."""
    import engines.egghead.table as table_mod

    v, k = 3, 2
    S = stack_space(v, k).size
    deck = bound_deck(v, k, n)
    rng = np.random.default_rng(n)
    removed = 0
    for qid, q in deck.items():
        world = [int(x) for x in rng.integers(S, size=n)]
        seen = [True] * n
        if rng.random() < 0.5:
            seen[int(rng.integers(n))] = False
        ans = int(q.answer([w for w, sn in zip(world, seen) if sn]))
        A = BitTable(n, S)
        A.filter_answer(q, ans, seen)
        monkeypatch.setattr(table_mod, "_BLOCK_WORDS", 2)
        B = BitTable(n, S)
        B.filter_answer(q, ans, seen)
        monkeypatch.undo()
        assert np.array_equal(A.t, B.t), qid
        removed += 0 < A.count() < S ** n
    assert removed >= len(deck) // 2      # the filters did remove worlds


def test_simulate_in_worker_processes_equals_one_process_and_reports_progress():
    """Games in two worker processes give the single-process result (each game has its own
    seed stream), progress rises to the total, and a cancel stops the run."""
    kw = dict(players=3, values=3, cards_per_player=2, rounds=60, analysing=(0, 1, 3), seed=5)
    one = simulate(SimConfig(**kw, workers=1))
    seen = []
    two = simulate(SimConfig(**kw, workers=2), progress=lambda d, t: seen.append((d, t)))
    same = lambda r: [(c.analysing, c.solves, c.ba, c.no_ba, c.win_probabilities) for c in r.configs]
    assert same(two) == same(one) and two.pooled_ba == one.pooled_ba
    assert seen and seen[-1] == (180, 180)
    assert all(b[0] >= a[0] for a, b in zip(seen, seen[1:]))
    calls = iter(range(10 ** 6))
    with pytest.raises(Cancelled):
        simulate(SimConfig(**dict(kw, rounds=100000), workers=2), cancel=lambda: next(calls) > 30)
