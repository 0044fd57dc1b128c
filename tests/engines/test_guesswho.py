"""Guess Who? engine: the “Guess Who Solver” notebook's worked example, DP vs brute force, Nica's race values, the
error model, boards, the CLI, and the simulator."""
import json
import math
import random
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engines.guesswho as gw
from engines.core.errors import Cancelled, ContradictionError, SessionFormatError
from engines.core.schema import parse_session

H_THIRD = -(1 / 3) * math.log2(1 / 3) - (2 / 3) * math.log2(2 / 3)  # 0.918...
H_QUARTER = -(1 / 4) * math.log2(1 / 4) - (3 / 4) * math.log2(3 / 4)  # 0.811...


def demo():
    return gw.setup_for_board("demo")


def yes_no(setup, attr, answer):
    q = gw.parse_question({"attribute": attr, "value": True}, setup.board, "$")
    return gw.Answer(question=q, answer=answer)


def bits(post):
    return {r.label[:-1]: r.information_bits for r in post.questions}


# ------------------------------------------------------------------ the “Guess Who Solver” notebook, worked example

def test_seed_demo_prior_cmi_values():
    post = gw.infer(demo(), [])
    b = bits(post)
    # seed In[11]: Short Hair 1.000, Female 1.000, Headgear/Glasses/Brown Eyes 0.918
    assert b["Short Hair"] == pytest.approx(1.0) and b["Female"] == pytest.approx(1.0)
    for k in ("Headgear", "Glasses", "Brown Eyes"):
        assert b[k] == pytest.approx(H_THIRD) and round(b[k], 3) == 0.918
    assert {r.label for r in post.questions[:2]} == {"Short Hair?", "Female?"}
    assert post.entropy_bits == pytest.approx(math.log2(6))


def test_seed_demo_sequence_and_question_order():
    s = demo()
    # seed In[12]: known Brown Eyes = 1 -> Headgear, Short Hair, Glasses 1.000; Female 0.811
    ev = [yes_no(s, "Brown Eyes", True)]
    post = gw.infer(s, ev)
    assert list(post.candidates) == ["Alice", "Bob", "Diane", "Emma"]
    b = bits(post)
    assert {k for k, v in b.items() if abs(v - 1) < 1e-12} == {"Headgear", "Short Hair", "Glasses"}
    assert b["Female"] == pytest.approx(H_QUARTER) and round(b["Female"], 3) == 0.811
    assert post.questions[3].label == "Female?"
    # seed asks Headgear (a top question), answer 0 -> Bob, Diane; Glasses now gives 0 bits
    assert "Headgear?" in {r.label for r in post.questions[:3]}
    ev.append(yes_no(s, "Headgear", False))
    post = gw.infer(s, ev)
    assert list(post.candidates) == ["Bob", "Diane"]
    b = bits(post)
    assert b["Short Hair"] == pytest.approx(1) and b["Female"] == pytest.approx(1)
    assert b["Glasses"] == 0.0
    assert post.questions[0].label in ("Short Hair?", "Female?")
    # seed asks Short Hair, answer 0 -> Diane
    ev.append(yes_no(s, "Short Hair", False))
    post = gw.infer(s, ev)
    assert post.candidates == {"Diane": 1.0}
    assert all(r.information_bits == 0.0 for r in post.questions)
    assert post.entropy_bits == 0.0 and post.expected_questions == 0.0


def test_seed_filter_example_in9():
    s = demo()
    post = gw.infer(s, [yes_no(s, "Female", True), yes_no(s, "Short Hair", False)])
    assert list(post.candidates) == ["Alice", "Diane"]
    b = bits(post)
    assert b["Headgear"] == pytest.approx(1) and b["Glasses"] == pytest.approx(1)
    assert b["Brown Eyes"] == 0.0
    r = {q.label: q for q in post.questions}["Headgear?"]
    assert (r.yes, r.no, r.expected_remaining) == (1, 1, 1.0)


# ------------------------------------------------------------------ expected-questions DP

def random_board(rng, n_chars, n_attrs, categorical=False):
    attrs = []
    chars = [{"name": f"C{i}", "attributes": {}} for i in range(n_chars)]
    for a in range(n_attrs):
        if categorical and a == 0:
            vals = ["red", "green", "blue"]
            attrs.append({"name": "colour", "type": "category", "values": vals})
            for c in chars:
                c["attributes"]["colour"] = rng.choice(vals)
        else:
            attrs.append({"name": f"a{a}", "type": "yes/no"})
            for c in chars:
                c["attributes"][f"a{a}"] = rng.random() < 0.5
    return gw.board_from_json({"attributes": attrs, "characters": chars})


def exhaustive_trees(masks, s):
    """Independent reference: the minimum over every decision tree, by enumerating every
    question at every node, with exact fractions (expected depth, uniform)."""
    n = bin(s).count("1")
    if n <= 1:
        return Fraction(0)
    best = None
    for q in masks:
        a = q & s
        if a in (0, s):
            continue
        na = bin(a).count("1")
        v = 1 + Fraction(na, n) * exhaustive_trees(masks, a) + \
            Fraction(n - na, n) * exhaustive_trees(masks, s ^ a)
        best = v if best is None else min(best, v)
    if best is None:  # name them one by one
        return Fraction(n * (n + 1) // 2 - 1, n)
    return best


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10 ** 6), st.integers(2, 7), st.integers(1, 4), st.booleans(),
       st.booleans())
def test_dp_matches_brute_force_on_small_boards(seed, n, k, compound, categorical):
    rng = random.Random(seed)
    board = random_board(rng, n, k, categorical)
    masks = [board.mask(q) for q in board.questions(compound)]
    dp = gw.QuestionDP(masks)
    full = (1 << n) - 1
    for s in [full] + [rng.randrange(1, full + 1) for _ in range(3)]:
        ref = exhaustive_trees(masks, s)
        val, qi = dp.best(s)
        assert val == pytest.approx(float(ref), abs=1e-12)
        assert float(gw.brute_force_expected_questions(masks, s)) == pytest.approx(float(ref))
        if qi >= 0:  # the advised question achieves the optimum
            a = masks[qi] & s
            m = bin(s).count("1")
            na = bin(a).count("1")
            v = 1 + Fraction(na, m) * exhaustive_trees(masks, a) + \
                Fraction(m - na, m) * exhaustive_trees(masks, s ^ a)
            assert v == ref


def test_dp_classic_board_against_brute_force_on_subsets():
    board = gw.load_board("classic")
    rng = random.Random(5)
    for compound in (False, True):
        masks = [board.mask(q) for q in board.questions(compound)]
        dp = gw.QuestionDP(masks)
        for _ in range(6):
            idx = rng.sample(range(24), rng.randint(3, 10))
            s = sum(1 << i for i in idx)
            assert dp.best(s)[0] == pytest.approx(
                float(gw.brute_force_expected_questions(masks, s)))


def test_dp_classic_full_board_bounds():
    board = gw.load_board("classic")
    lower = gw.balanced_depth_sum(24) / 24  # 112/24: no question tree can beat a balanced one
    single = gw.infer(gw.default_setup(), []).expected_questions
    comp = gw.infer(gw.Setup(board=board, board_ref="classic", compound_questions=True), []).expected_questions
    assert lower <= comp <= single <= 5.0
    assert comp == pytest.approx(112 / 24)  # with compound questions the bound is reached
    assert single == pytest.approx(113 / 24)


def test_dp_budget_gives_an_upper_bound_then_continues(monkeypatch):
    rng = random.Random(24 * 24)
    chars = [{"name": f"C{i}", "attributes": {f"a{j}": rng.random() < 0.1 for j in range(24)}}
             for i in range(24)]
    board = gw.board_from_json({"attributes": [f"a{j}" for j in range(24)], "characters": chars})
    exact = gw.QuestionDP([board.mask(q) for q in board.questions()]).best((1 << 24) - 1)[0]
    monkeypatch.setattr(gw.inference, "DP_BUDGET", 500)
    setup = gw.Setup(board=board, board_ref=None)
    post = gw.infer(setup, [])
    assert not post.expected_questions_exact
    assert post.expected_questions_lower <= exact <= post.expected_questions + 1e-12
    for _ in range(200):  # the memo persists: repeated calls finish the exact DP
        post = gw.infer(setup, [])
        if post.expected_questions_exact:
            break
    assert post.expected_questions_exact and post.expected_questions == pytest.approx(exact)


def test_indistinguishable_characters_are_named():
    b = gw.board_from_json({"attributes": ["x"], "characters": [
        {"name": "A", "attributes": {"x": True}}, {"name": "B", "attributes": {"x": True}},
        {"name": "C", "attributes": {"x": True}}, {"name": "D", "attributes": {"x": False}}]})
    post = gw.infer(gw.Setup(board=b, board_ref=None), [gw.Answer(question=gw.Question((("x", True),)), answer=True)])
    assert post.best_question["attribute"] == "name"
    assert post.expected_questions == pytest.approx(5 / 3)  # depths 1, 2, 2
    named = [q for q in post.questions if q.question["attribute"] == "name"]
    assert [q.question["value"] for q in named] == ["A", "B", "C"]
    assert post.questions[0] in named and named[0].information_bits == pytest.approx(H_THIRD)


# ------------------------------------------------------------------ Nica's race

def test_race_published_values():
    assert gw.race_win_probability(24, 24, "official") == Fraction(5, 9)
    assert gw.race_win_probability(24, 24, "instant") == Fraction(91, 144)


def test_race_small_cases_by_hand():
    # official: one card at my turn -> I name it; opponent on 1 -> I must gamble on a name
    assert gw.race_win_probability(1, 5) == 1
    assert gw.race_win_probability(3, 1) == Fraction(1, 3)
    assert gw.race_best_split(3, 1) == (0, 3)
    # official 2 vs 2: ask (1|1), opponent asks (1|1), I name: 1 - P(2,1) = 1/2 ... max(1/2, 1/2)
    assert gw.race_win_probability(2, 2) == Fraction(1, 2)
    # instant: two cards -> a 1|1 question wins at once
    assert gw.race_win_probability(2, 7, "instant") == 1
    # instant 3 vs 3: 1|2; opponent (3 vs my 2) wins 1/3 at once, else I win with my 2
    assert gw.race_win_probability(3, 3, "instant") == Fraction(1, 3) + Fraction(2, 3) * Fraction(2, 3)


def test_race_trailing_player_splits_boldly():
    def value(n, m, b, rules):
        return sum(Fraction(k, n) * (1 if rules == "instant" and k == 1
                                     else 1 - gw.race_win_probability(m, k, rules))
                   for k in (b, n - b))
    # instant, 24 vs 6: an uneven 4|20 split beats halving
    assert gw.race_best_split(24, 6, "instant") == (4, 20)
    assert value(24, 6, 4, "instant") > value(24, 6, 12, "instant")
    # official, 6 vs 7: 2|4 strictly beats 3|3
    assert gw.race_best_split(6, 7, "official") == (2, 4)
    assert value(6, 7, 2, "official") > value(6, 7, 3, "official")
    # the leader halves
    assert gw.race_best_split(24, 24, "official") == (12, 12)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 30), st.integers(1, 30), st.sampled_from(["official", "instant"]))
def test_race_properties(n, m, rules):
    p = gw.race_win_probability(n, m, rules)
    assert 0 <= p <= 1
    # more candidates for me never helps me; more for the opponent never hurts me
    if n > 1:
        assert gw.race_win_probability(n - 1, m, rules) >= p
    assert gw.race_win_probability(n, m + 1, rules) >= p
    yes, no = gw.race_best_split(n, m, rules)
    assert yes + no == n or (n == 1 and (yes, no) == (1, 0))


def test_posterior_race_fields_and_advised_question():
    s = gw.Setup(board=gw.load_board("classic"), board_ref="classic", opponent_remaining=24)
    post = gw.infer(s, [])
    assert post.win_probability == pytest.approx(5 / 9)
    assert post.win_probability_instant == pytest.approx(91 / 144)
    assert post.advised_split == (12, 12)
    q = gw.parse_question(post.advised_question, s.board, "$")
    assert min(int(s.board.truth(q).sum()), 24 - int(s.board.truth(q).sum())) == \
        max(min(r.yes, r.no) for r in post.questions)  # the most balanced real split
    post = gw.infer(s, [gw.Opponent(remaining=1)])
    assert post.advised_split == (0, 24) and post.advised_question["attribute"] == "name"
    assert post.win_probability == pytest.approx(1 / 24)


# ------------------------------------------------------------------ error model

def test_error_model_keeps_everyone_and_orders_by_mismatches():
    board = gw.load_board("classic")
    s = gw.Setup(board=board, board_ref="classic", error_rate=0.1)
    q_hat = gw.Question((("hat", True),))
    q_gl = gw.Question((("glasses", True),))
    post = gw.infer(s, [gw.Answer(question=q_hat, answer=True), gw.Answer(question=q_gl, answer=True)])
    p = post.probabilities
    assert np.all(p > 0) and p.sum() == pytest.approx(1)
    hat, gl = board.truth(q_hat), board.truth(q_gl)
    miss = (~hat).astype(int) + (~gl).astype(int)
    r = 0.1 / 0.9
    for i in range(24):
        for j in range(24):
            assert p[i] / p[j] == pytest.approx(r ** (miss[i] - miss[j]))
    # Claire is the only one with hat and glasses: most probable
    assert post.names[int(np.argmax(p))] == "Claire"
    assert post.likely.sum() == 1


def test_error_model_never_contradicts_but_elimination_does():
    board = gw.load_board("demo")
    q = gw.Question((("Female", True),))
    evs = [gw.Answer(question=q, answer=True), gw.Answer(question=q, answer=False)]
    with pytest.raises(ContradictionError) as e:
        gw.infer(gw.Setup(board=board, board_ref="demo"), evs)
    assert e.value.event_index == 1 and "Female" in e.value.message
    post = gw.infer(gw.Setup(board=board, board_ref="demo", error_rate=0.05), evs)
    assert np.allclose(post.probabilities, 1 / 6)  # one yes, one no: back to the prior
    assert post.n_candidates == 6


def test_error_model_information_is_noisy_mutual_information():
    s = gw.Setup(board=gw.load_board("demo"), board_ref="demo", error_rate=0.2)
    post = gw.infer(s, [])
    h = lambda x: -x * math.log2(x) - (1 - x) * math.log2(1 - x)
    assert bits(post)["Female"] == pytest.approx(1 - h(0.2))
    assert bits(post)["Glasses"] == pytest.approx(h(1 / 3 * 0.8 + 2 / 3 * 0.2) - h(0.2))


def test_error_model_tends_to_elimination():
    board = gw.load_board("classic")
    evs = [gw.Answer(question=gw.Question((("gender", "female"),)), answer=False),
           gw.Answer(question=gw.Question((("hat", True),)), answer=False)]
    exact = gw.infer(gw.Setup(board=board, board_ref="classic"), evs).probabilities
    noisy = gw.infer(gw.Setup(board=board, board_ref="classic", error_rate=1e-9), evs).probabilities
    assert np.allclose(exact, noisy, atol=1e-7)


def test_eliminate_last_card_is_a_contradiction():
    s = demo()
    evs = [yes_no(s, "Female", True), yes_no(s, "Short Hair", False), gw.Eliminate(name="Alice"),
           gw.Eliminate(name="Diane")]
    with pytest.raises(ContradictionError) as e:
        gw.infer(s, evs)
    assert e.value.event_index == 3
    with pytest.raises(ContradictionError) as e:
        gw.infer(s, [gw.Opponent(remaining=3), gw.Opponent(remaining=4)])
    assert e.value.event_index == 1


@st.composite
def consistent_logs(draw):
    board = gw.load_board("classic")
    secret = draw(st.integers(0, 23))
    eps = draw(st.sampled_from([0.0, 0.05, 0.2]))
    qs = board.questions(True)
    evs = []
    for _ in range(draw(st.integers(0, 8))):
        kind = draw(st.integers(0, 4))
        if kind == 0:
            name = board.names[draw(st.integers(0, 23))]
            if name != board.names[secret]:
                evs.append(gw.Eliminate(name=name))
        else:
            q = qs[draw(st.integers(0, len(qs) - 1))]
            evs.append(gw.Answer(question=q, answer=bool(board.truth(q)[secret])))
    return gw.Setup(board=board, board_ref="classic", error_rate=eps, opponent_remaining=draw(
        st.integers(1, 24))), evs, secret


@settings(max_examples=40, deadline=None)
@given(consistent_logs())
def test_random_consistent_logs(data):
    setup, evs, secret = data
    post = gw.infer(setup, evs)
    p = post.probabilities
    assert np.all((p >= 0) & (p <= 1)) and p.sum() == pytest.approx(1)
    assert p[secret] > 0
    if setup.error_rate == 0:
        assert post.likely[secret] and np.array_equal(post.likely, post.alive)
    assert all(0 <= r.information_bits <= 1 + 1e-12 for r in post.questions)
    if setup.error_rate == 0:
        assert all(r.information_bits <= post.entropy_bits + 1e-9 for r in post.questions)
        assert all(r.yes + r.no == post.n_candidates for r in post.questions)
    assert 0 <= post.win_probability <= 1
    json.dumps(post.to_json(), allow_nan=False)
    # undo: dropping the last event gives the posterior before it
    if evs:
        before = gw.infer(setup, evs[:-1])
        gw.infer(setup, evs)
        again = gw.infer(setup, evs[:-1])
        assert np.array_equal(before.probabilities, again.probabilities)
        assert again.to_json() == before.to_json()
    keys = set(gw.belief_summary(setup, post))
    assert keys == set(gw.belief_summary(setup, gw.infer(setup, [])))


# ------------------------------------------------------------------ boards and schema

def test_classic_board_keeps_disputed_note():
    b = gw.load_board("classic")
    assert b.size == 24 and "disputed" in b.note
    assert b.characters[b.names.index("Alex")].note == "curly_hair(1/3 yes)"
    assert b.attribute("hair_colour").values == ("black", "brown", "blond", "ginger", "white")
    # every character can be told apart by the board's questions
    assert len({tuple(c.values) for c in b.characters}) == 24


def test_load_csv_board_with_categories_and_images(tmp_path):
    p = tmp_path / "cats.csv"
    p.write_text("name,colour,stripes,image\nTom,black,yes,tom.png\nFelix,black,no,\n"
                 "Garfield,ginger,yes,g.png\n", encoding="utf-8")
    b = gw.load_board(str(p))
    assert b.names == ("Tom", "Felix", "Garfield")
    assert b.attribute("colour").kind == "category" and b.attribute("stripes").kind == "yes/no"
    assert b.characters[0].image == str(tmp_path / "tom.png")
    assert [q.label() for q in b.questions()] == ["colour: black?", "stripes?"]
    s = gw.setup_for_board(b)
    again = gw.Setup.from_json(json.loads(json.dumps(s.to_json())))
    assert again.board.names == b.names and again.to_json() == s.to_json()


@pytest.mark.parametrize("text,where,what", [
    ("colour,stripes\nblack,yes\n", "line 1", "name"),
    ("name,stripes\nTom,yes\nTom,no\n", "characters[1]", "twice"),
    ("name,stripes\nTom,yes\nFelix\n", "line 3", "fields"),
    ("name,stripes\nTom,yes\n", "characters", "at least 2"),
])
def test_bad_csv_boards(tmp_path, text, where, what):
    p = tmp_path / "bad.csv"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(SessionFormatError) as e:
        gw.load_board(str(p))
    assert where in e.value.path and what in e.value.message


def test_bad_json_boards_and_setups(tmp_path):
    with pytest.raises(SessionFormatError) as e:
        gw.load_board("nope")
    assert "unknown board" in e.value.message
    p = tmp_path / "b.json"
    p.write_text('{"attributes": ["x"], "characters": [{"name": "A", "attributes": {"x": 1}},'
                 ' {"name": "B", "attributes": {}}]}', encoding="utf-8")
    with pytest.raises(SessionFormatError) as e:
        gw.load_board(str(p))
    assert e.value.path == "$.characters[1].attributes" and "'x'" in e.value.message
    p.write_text("{bad json", encoding="utf-8")
    with pytest.raises(SessionFormatError) as e:
        gw.load_board(str(p))
    assert "JSON" in e.value.message
    with pytest.raises(SessionFormatError) as e:
        gw.Setup.from_json({"board": "classic", "error_rate": 0.5})
    assert e.value.path == "$.setup.error_rate"
    with pytest.raises(SessionFormatError) as e:
        gw.Setup.from_json({"board": "classic", "rules": "fast"})
    assert e.value.path == "$.setup.rules"
    setup = gw.default_setup()
    with pytest.raises(SessionFormatError) as e:
        gw.event_from_json({"type": "answer", "question": {"attribute": "hair_colour",
                                                           "value": "green"}, "answer": True},
                           setup, "$.events[0]")
    assert e.value.path == "$.events[0].question.value"
    with pytest.raises(SessionFormatError) as e:
        gw.event_from_json({"type": "eliminate", "name": "Zed"}, setup, "$.events[2]")
    assert e.value.path == "$.events[2].name"


def test_event_round_trip_and_words():
    setup = gw.default_setup()
    for obj in [{"type": "answer", "question": {"attribute": "glasses", "value": True},
                 "answer": False},
                {"type": "answer", "question": {"any": [{"attribute": "glasses", "value": True},
                                                        {"attribute": "hat", "value": True}]},
                 "answer": True},
                {"type": "answer", "question": {"attribute": "name", "value": "Alex"},
                 "answer": False},
                {"type": "eliminate", "name": "Alex"}, {"type": "opponent", "remaining": 5}]:
        ev = gw.event_from_json(obj, setup, "$")
        assert ev.to_json() == obj
        assert gw.describe_event(setup, ev)
    ev = gw.event_from_json({"type": "answer", "question": {"any": [
        {"attribute": "glasses", "value": True}, {"attribute": "hat", "value": True}]},
        "answer": True}, setup, "$")
    assert gw.describe_event(setup, ev) == "Asked “glasses or hat?” — yes"


def test_compound_questions_toggle():
    board = gw.load_board("classic")
    off = gw.infer(gw.Setup(board=board, board_ref="classic"), [])
    on = gw.infer(gw.Setup(board=board, board_ref="classic", compound_questions=True), [])
    assert all("any" not in r.question for r in off.questions)
    assert any("any" in r.question for r in on.questions)
    assert len(on.questions) > len(off.questions)
    # every ranked question parses back as an answer event's question
    for r in on.questions:
        gw.parse_question(r.question, board, "$")


# ------------------------------------------------------------------ CLI and session

def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "engines", *args], capture_output=True,
                          text=True, cwd=str(__import__("pathlib").Path(__file__).parents[2]))


def test_cli_infer_format():
    out = run_cli("infer", "resources/examples/guesswho.json")
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert d["game"] == "guesswho"
    assert set(d["candidates"]) == {"Paul", "Peter", "Sam"}
    assert sum(d["candidates"].values()) == pytest.approx(1)
    q0 = d["questions"][0]
    assert {"question", "information_bits", "yes", "no"} <= set(q0)
    assert q0["information_bits"] == pytest.approx(H_THIRD, abs=1e-6)
    bits_list = [q["information_bits"] for q in d["questions"]]
    assert bits_list == sorted(bits_list, reverse=True)
    assert d["expected_questions"] == pytest.approx(5 / 3)
    # my turn, 3 vs 7 under the official rules
    assert d["win_probability"] == pytest.approx(float(gw.race_win_probability(3, 7)))
    setup = parse_session(json.load(open("resources/examples/guesswho.json"))).setup
    for q in d["questions"]:
        gw.parse_question(q["question"], setup.board, "$")


def test_cli_errors(tmp_path):
    bad = tmp_path / "s.json"
    bad.write_text(json.dumps({"format": "deduction-desk.session", "version": 1,
                               "game": "guesswho", "setup": {"board": "classic"},
                               "events": [{"type": "answer", "question": {"attribute": "wings",
                                           "value": True}, "answer": True}]}))
    out = run_cli("infer", str(bad))
    assert out.returncode == 2 and "$.events[0].question.attribute" in out.stderr
    bad.write_text(json.dumps({"format": "deduction-desk.session", "version": 1,
                               "game": "guesswho", "setup": {"board": "demo"},
                               "events": [{"type": "answer", "question": {"attribute": "Female",
                                           "value": True}, "answer": True},
                                          {"type": "eliminate", "name": "Bob"},
                                          {"type": "answer", "question": {"attribute": "Female",
                                           "value": True}, "answer": False}]}))
    out = run_cli("infer", str(bad))
    assert out.returncode == 3 and "event 3" in out.stderr and "Traceback" not in out.stderr


def test_recommend():
    s = gw.Setup(board=gw.load_board("demo"), board_ref="demo")
    r = gw.recommend(s, [])
    assert r.question == r.optimal and r.label in ("Female?", "Short Hair?")
    s = gw.Setup(board=gw.load_board("demo"), board_ref="demo", opponent_remaining=6)
    assert gw.recommend(s, []).question == gw.infer(s, []).advised_question
    json.dumps(r.to_json())


# ------------------------------------------------------------------ simulator

def test_simulator_race_self_play_matches_nica():
    r = gw.simulate(gw.SimConfig("classic", ["race"], 1500, seed=3))
    m = r.matches[0]
    lo, hi = m.first_player_interval
    assert lo <= 5 / 9 <= hi
    assert m.wins_a + m.wins_b == 1500


def test_simulator_race_beats_greedy_and_is_reproducible():
    calls = []
    r1 = gw.simulate(gw.SimConfig("classic", ["greedy", "race"], 400, seed=7),
                     progress=lambda d, t: calls.append((d, t)))
    r2 = gw.simulate(gw.SimConfig("classic", ["greedy", "race"], 400, seed=7))
    assert r1.to_json() == r2.to_json()
    assert calls[-1] == (400, 400)
    m = r1.matches[0]
    assert m.interval_a[1] < 0.5  # greedy loses to the race strategy
    with pytest.raises(Cancelled):
        gw.simulate(gw.SimConfig("classic", ["greedy"], 10), cancel=lambda: True)
    with pytest.raises(SessionFormatError):
        gw.simulate(gw.SimConfig("classic", ["clever"], 10))


def test_simulate_cli():
    out = run_cli("simulate", "guesswho", "--board", "demo", "--strategies",
                  "random,optimal", "--games", "50")
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert d["matches"][0]["games"] == 50
