"""Inkognito engine, second file: the answer forms against the rules and validate_answer, the
Posterior's model field, the ranked list of recommend, and property tests (order of different
opponents' answers, the no-repeat exclusion, bounds of the information gain)."""
import dataclasses
import itertools
import json
import math
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_inkognito import (
    AX,
    CB,
    FAT,
    LF,
    MZ,
    SEED_ROWS,
    SHORT,
    TALL,
    THIN,
    ans,
    explicit_choices,
    random_log,
    seed_setup,
)

import engines.inkognito as ink
from engines.core.errors import ContradictionError, SessionFormatError
from engines.core.info import entropy_bits

# ------------------------------------------------------------------ answer forms

def test_answer_forms_cover_every_question_and_kind():
    forms = ink.answer_forms()
    keys = {(f.question, f.asked, f.mission) for f in forms}
    assert keys == {("player", "identity", False), ("player", "build", False),
                    ("player", "identity", True), ("player", "build", True),
                    ("ambassador", "identity", False), ("ambassador", "build", False)}
    by = {(f.question, f.asked, f.mission): f for f in forms}
    assert by["player", "identity", False].shapes == ((2, 1),)
    assert by["player", "build", False].shapes == ((1, 2),)
    assert set(by["player", "identity", True].shapes) == {(2, 0), (1, 1)}
    assert set(by["player", "build", True].shapes) == {(0, 2), (1, 1)}
    assert by["ambassador", "identity", False].shapes == ((2, 0),)
    assert by["ambassador", "build", False].shapes == ((0, 2),)
    # Höhle's Inkognito post's 1/15 and 1/3; 10 with the mission card
    assert [by[k].choices for k in sorted(by)] == [3, 3, 15, 10, 15, 10]
    assert {f.rule for f in forms if f.question == "ambassador"} == {"exactly one true"}
    assert {f.rule for f in forms if f.question == "player"} == {"at least one true"}
    assert [f.deceptive for f in forms] == [f.question == "player" and not f.mission
                                           for f in forms]
    json.dumps([f.to_json() for f in forms])


@pytest.mark.parametrize("form", ink.answer_forms(), ids=lambda f: f.description[:40])
def test_answer_form_choices_equal_explicit_enumeration_for_every_cell(form):
    key = (form.question, form.asked, form.mission)
    for i, b in itertools.product(range(4), range(4)):
        choices = explicit_choices(key, i, b)
        assert len(choices) == form.choices
        # every explicit choice has a shape the form allows
        shapes = {(bin(im).count("1"), bin(bm).count("1")) for im, bm in choices}
        assert shapes == set(form.shapes)


@pytest.mark.parametrize("form", ink.answer_forms(), ids=lambda f: f.description[:40])
def test_validate_answer_accepts_exactly_the_form_shapes(form):
    ids = [LF, MZ, CB, AX]
    bs = [TALL, SHORT, FAT, THIN]
    for ni, nb in itertools.product(range(5), range(5)):
        args = (form.question, form.asked, ids[:ni], bs[:nb], form.mission)
        if (ni, nb) in form.shapes:
            ink.validate_answer(*args)
        else:
            with pytest.raises(SessionFormatError) as e:
                ink.validate_answer(*args)
            msg = e.value.message
            assert "you ticked" in msg and f"{ni} " in msg and f"{nb} " in msg


def test_validate_answer_four_argument_call_and_messages():
    """The tab's call: validate_answer(question, asked, identities, builds)."""
    ink.validate_answer("ambassador", "identity", [LF, CB], [])
    with pytest.raises(SessionFormatError) as e:
        ink.validate_answer("player", "build", [LF, MZ], [FAT])
    assert e.value.message.startswith("a player question about build is answered with "
                                      "1 identity and 2 builds")
    with pytest.raises(SessionFormatError) as e:
        ink.validate_answer("player", "identity", [LF, LF], [FAT])
    assert "twice" in e.value.message
    with pytest.raises(SessionFormatError) as e:
        ink.validate_answer("player", "colour", [LF, MZ], [FAT])
    assert e.value.path.endswith(".asked")


def test_mission_card_answer_in_a_session():
    s = seed_setup()
    ev = ink.event_from_json({"type": "answer", "opponent": "Red", "question": "player",
                              "asked": "build", "identities": [LF], "builds": [FAT],
                              "mission": True}, s, "$.events[0]")
    assert ev.mission and ev.to_json()["mission"] is True
    assert "mission" in ink.describe_event(s, ev)
    red = ink.infer(s, [ev]).opponents["Red"]
    # valid cells: identity LF or build fat (10 choices each) -> 3 + 3 - 1 = 5 cells
    assert np.count_nonzero(red.joint) == 5
    with pytest.raises(SessionFormatError) as e:
        ink.event_from_json({"type": "answer", "opponent": "Red", "question": "ambassador",
                             "asked": "build", "identities": [], "builds": [FAT, THIN],
                             "mission": True}, s, "$.events[0]")
    assert e.value.path == "$.events[0].mission"


# ------------------------------------------------------------------ posterior fields

def test_posterior_fields_the_tab_uses():
    s = seed_setup()
    p = ink.infer(s, SEED_ROWS)
    assert p.model == "uniform" and p.to_json()["model"] == "uniform"
    assert p.worlds == int(np.count_nonzero(p.world_probabilities))
    assert p.entropy_bits == pytest.approx(entropy_bits(p.world_probabilities))
    for name in s.opponents:
        b = p.opponents[name]
        assert isinstance(b.joint, np.ndarray) and b.joint.shape == (4, 4)
        assert list(b.identity) == list(s.identities) and list(b.build) == list(s.builds)
        assert b.partner == pytest.approx(b.identity[s.partner_identity])
        assert b.theta is None
        with pytest.raises(ValueError):
            b.joint[0, 0] = 1.0  # immutable result
    d = ink.infer(dataclasses.replace(s, deception=ink.Deception(enabled=True, prior=(2.0, 5.0))), SEED_ROWS)
    assert d.model == "deception" and d.to_json()["model"] == "deception"
    g, pr = d.opponents["Red"].theta
    assert g.shape == pr.shape == (ink.GRID,) and np.all(np.diff(g) > 0)
    assert pr.sum() == pytest.approx(1) and np.all(pr >= 0)
    out = d.to_json()["opponents"]["Red"]["theta"]
    assert len(out["grid"]) == len(out["probabilities"]) == ink.GRID


def test_seed_known_answer_joint_equals_uniform_deception_at_prior_point():
    """Höhle's answer under the joint model (others not asked) is the uniform model's;
    the deception model's answer differs, and has the same support."""
    s = seed_setup()
    u = ink.infer(s, SEED_ROWS).opponents["Red"]
    d = ink.infer(dataclasses.replace(s, deception=ink.Deception(enabled=True, prior=(5.0, 2.0))),
                  SEED_ROWS).opponents["Red"]
    assert list(u.identity.values()) == pytest.approx([0.5, 0.25, 0.25, 0])
    assert np.array_equal(u.joint > 0, d.joint > 0)
    assert abs(d.build[FAT] - 0.75) > 1e-3


# ------------------------------------------------------------------ recommend as a list

def test_recommend_is_a_ranked_list_of_tuples():
    s = seed_setup()
    rec = ink.recommend(s, SEED_ROWS)
    rows = list(rec)
    assert len(rec) == len(rows) == 12 and rec[0] is rec.best
    unpacked = [tuple(r) for r in rec]
    assert all(len(t) == 4 for t in unpacked)
    for opponent, question, asked, bits in unpacked:
        assert opponent in s.opponents and question in ink.QUESTIONS and asked in ink.KINDS
        assert bits >= 0
    bits = [t[3] for t in unpacked]
    assert bits == sorted(bits, reverse=True)
    assert {(t[0], t[1], t[2]) for t in unpacked} == set(
        itertools.product(s.opponents, ink.QUESTIONS, ink.KINDS))
    # Red's three answers leave 4 cells; Blue and Yellow have 6 each: an unasked opponent is
    # worth more than Red
    assert rec.best.opponent != "Red"


# ------------------------------------------------------------------ errors

def test_first_offending_event_is_named_even_with_later_events():
    s = seed_setup()
    log = [ans("Red", "ambassador", "identity", [LF, AX], []),      # Red = LF
           ans("Blue", "ambassador", "identity", [LF, AX], []),     # Blue = LF too: impossible
           ans("Yellow", "player", "build", [MZ], [TALL, FAT])]
    with pytest.raises(ContradictionError) as e:
        ink.infer(s, log)
    assert e.value.event_index == 1 and "Blue" in e.value.message
    with pytest.raises(ContradictionError) as e:
        ink.recommend(s, log)
    assert e.value.event_index == 1


def test_bad_setup_and_method():
    base = ink.default_setup().to_json()
    for change, path in [({"deception": {"enabled": True, "prior": [1]}}, "deception.prior"),
                         ({"deception": {"enabled": "yes"}}, "deception.enabled"),
                         ({"deception": {"priors": {"Zed": [1, 2]}}}, "deception.priors"),
                         ({"identities": ["a", "b", "c"]}, "identities"),
                         ({"builds": ["a", "a", "b", "c"]}, "builds"),
                         ({"no_repeats": 1}, "no_repeats")]:
        with pytest.raises(SessionFormatError) as e:
            ink.Setup.from_json({**base, **change})
        assert path in e.value.path, (change, e.value)
    with pytest.raises(SessionFormatError):
        ink.infer(ink.default_setup(), [], method="magic")
    assert ink.Setup.from_json(base) == ink.default_setup()


# ------------------------------------------------------------------ properties

def _interleave(rng, log, opponents):
    """A random order of the log that keeps each opponent's answers in their order."""
    queues = {o: [e for e in log if e.opponent == o] for o in opponents}
    out = []
    while any(queues.values()):
        o = rng.choice([o for o in opponents if queues[o]])
        out.append(queues[o].pop(0))
    return out


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10 ** 6), st.integers(1, 12), st.booleans(), st.sampled_from(ink.METHODS))
def test_order_of_different_opponents_answers_does_not_matter(seed, k, deception, method):
    rng = random.Random(seed)
    s = seed_setup(deception=ink.Deception(enabled=deception, prior=(2.0, 3.0)))
    log = random_log(rng, s, k)
    other = _interleave(rng, log, s.opponents)
    a = ink.infer(s, log, method=method)
    b = ink.infer(s, other, method=method)
    for name in s.opponents:
        assert np.allclose(a.opponents[name].joint, b.opponents[name].joint, atol=1e-12)
        if deception:
            assert np.allclose(a.opponents[name].theta[1], b.opponents[name].theta[1],
                               atol=1e-12)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10 ** 6), st.integers(1, 16), st.sampled_from(ink.METHODS))
def test_excluding_shown_answers_leaves_uniform_posterior_unchanged(seed, k, method):
    rng = random.Random(seed)
    s = seed_setup(opponents=("A", "B", "C")[:rng.choice([2, 3])])
    log = random_log(rng, s, k)
    a = ink.infer(s, log, method=method)
    b = ink.infer(dataclasses.replace(s, no_repeats=False), log, method=method)
    assert a.worlds == b.worlds and a.entropy_bits == pytest.approx(b.entropy_bits, abs=1e-12)
    for name in s.opponents:
        assert np.allclose(a.opponents[name].joint, b.opponents[name].joint, atol=1e-12)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10 ** 6), st.integers(0, 10), st.booleans())
def test_information_gain_bounds(seed, k, deception):
    """0 <= I(cell; answer) <= min(H(cell of that opponent), log2 #answers of the form)."""
    rng = random.Random(seed)
    s = seed_setup(deception=ink.Deception(enabled=deception, prior=(1.0, 4.0)))
    log = random_log(rng, s, k)
    post = ink.infer(s, log)
    rec = ink.recommend(s, log)
    assert rec.entropy_bits == pytest.approx(post.entropy_bits)
    for opponent, question, asked, bits in rec:
        h_cell = entropy_bits(post.opponents[opponent].joint)
        n_answers = len(ink.form_table(question, asked).answers)
        assert 0 <= bits <= min(h_cell, math.log2(n_answers)) + 1e-9
        assert math.isfinite(bits)


def test_likelihood_excluding_rows_match_answer_likelihood():
    rng = random.Random(5)
    thetas = ink.theta_grid()
    for form in [("player", "identity", False), ("player", "build", True),
                 ("ambassador", "build", False)]:
        t = ink.form_table(*form)
        for _ in range(5):
            shown = rng.sample(t.answers, rng.randint(0, 4))
            for th in (None, thetas):
                full = t.likelihood_excluding(th, shown)
                for a, x in enumerate(t.answers):
                    assert np.allclose(full[a], ink.answer_likelihood(t, x, shown, th))
                # columns are distributions over the answers left (or all zero)
                col = full.sum(0)
                assert np.all(np.isclose(col, 1) | np.isclose(col, 0))
