"""Inkognito engine: Höhle's worked example, joint vs independent, brute force over deals
and answer choices, likelihood vs explicit enumeration, the no-repeat rule, the deception
model, recommendation vs explicit information gain, schema, CLI, profiles."""
import dataclasses
import itertools
import json
import math
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engines.inkognito as ink
from engines.core.errors import ContradictionError, SessionFormatError
from engines.core.schema import parse_session, read_session_file

ROOT = Path(__file__).parents[2]
LF, MZ, CB, AX = ink.default_names()["identities"]
TALL, SHORT, FAT, THIN = ink.default_names()["builds"]


def seed_setup(**kw):
    """me = Agent X / build 2 (short), as in the seed."""
    return dataclasses.replace(ink.default_setup(), **kw)


def ans(opp, q, asked, ids, builds, mission=False):
    return ink.Answer(opponent=opp, question=q, asked=asked, identities=tuple(ids), builds=tuple(builds),
                      mission=mission)


SEED_ROWS = [ans("Red", "player", "build", [LF], [SHORT, FAT]),
             ans("Red", "ambassador", "build", [], [FAT, THIN]),
             ans("Red", "player", "identity", [LF, MZ], [FAT])]


# ------------------------------------------------------------------ Höhle's Inkognito post known answer

@pytest.mark.parametrize("method", ink.METHODS)
def test_seed_worksheet_known_answer(method):
    post = ink.infer(seed_setup(), SEED_ROWS, method=method)
    red = post.opponents["Red"]
    assert list(red.identity.values()) == pytest.approx([0.5, 0.25, 0.25, 0.0], abs=1e-12)
    assert list(red.build.values()) == pytest.approx([0.0, 0.0, 0.75, 0.25], abs=1e-12)
    # Höhle's four surviving cells (I1/B3, I2/B3, I3/B3, I1/B4), equally likely
    assert red.joint[0, 2] == red.joint[1, 2] == red.joint[2, 2] == red.joint[0, 3] \
        == pytest.approx(0.25)
    assert red.partner == pytest.approx(0.25)  # Agent X's partner is Madame Zsa Zsa
    # the others were not asked: independent keeps them uniform over the 9 cells without my
    # cards; joint knows Blue holds what Red does not (P(Blue = LF) = (1 - 0.5) / 2)
    blue = list(post.opponents["Blue"].identity.values())
    want = [1 / 3, 1 / 3, 1 / 3, 0] if method == "independent" else [0.25, 0.375, 0.375, 0]
    assert blue == pytest.approx(want)


def test_seed_sequence_step_by_step():
    """Höhle's sequential update: prior 1/3 each, then after each row."""
    s = seed_setup()
    p0 = ink.infer(s, [])
    assert p0.worlds == 36 and p0.entropy_bits == pytest.approx(math.log2(36))
    assert list(p0.opponents["Red"].identity.values()) == pytest.approx([1 / 3] * 3 + [0])
    p1 = ink.infer(s, SEED_ROWS[:1])
    # after I1+B2+B3 (build question): cells i=1 or b in {2,3}; b=2 is mine -> 3 + 2 = 5 cells
    assert np.count_nonzero(p1.opponents["Red"].joint) == 5


def test_joint_uses_what_others_said_independent_misses():
    """Blue's ambassador answer (Lord Fiddlebottom or Agent X; Agent X is me) makes Blue Lord
    Fiddlebottom, so Red cannot be: the joint model moves Red's identity to (0, .5, .5, 0) and
    build to fat for sure; the independent model still says (.5, .25, .25, 0)."""
    s = seed_setup()
    log = SEED_ROWS + [ans("Blue", "ambassador", "identity", [LF, AX], [])]
    j = ink.infer(s, log, method="joint")
    i = ink.infer(s, log, method="independent")
    assert j.opponents["Blue"].identity[LF] == pytest.approx(1.0)
    assert list(j.opponents["Red"].identity.values()) == pytest.approx([0, 0.5, 0.5, 0])
    assert list(j.opponents["Red"].build.values()) == pytest.approx([0, 0, 1, 0])
    assert list(i.opponents["Red"].identity.values()) == pytest.approx([0.5, 0.25, 0.25, 0])
    assert i.opponents["Red"].build[FAT] == pytest.approx(0.75)
    # Yellow was never asked, yet the joint model knows Yellow is not Lord Fiddlebottom
    assert j.opponents["Yellow"].identity[LF] == 0.0
    assert i.opponents["Yellow"].identity[LF] == pytest.approx(1 / 3)


def test_contradiction_index_joint_only():
    s = seed_setup()
    log = [ans(o, "ambassador", "identity", [LF, MZ], []) for o in ("Red", "Blue", "Yellow")]
    ink.infer(s, log[:2])
    with pytest.raises(ContradictionError) as e:
        ink.infer(s, log)
    assert e.value.event_index == 2
    ink.infer(s, log, method="independent")  # each alone is possible
    with pytest.raises(ContradictionError) as e:  # short is mine: Red is tall, then fat
        ink.infer(s, [ans("Red", "ambassador", "build", [], [SHORT, TALL]),
                      ans("Red", "ambassador", "build", [], [SHORT, FAT])], method="independent")
    assert e.value.event_index == 1


# ------------------------------------------------------------------ likelihood vs enumeration

FORMS = [(q, a, m) for q in ink.QUESTIONS for a in ink.KINDS for m in (False, True)
         if not (q == "ambassador" and m)]


def explicit_choices(form, i, b):
    """All card sets an opponent with identity i, build b may show in this form (by the rules,
    written out independently of the engine)."""
    q, asked, mission = form
    out = []
    for ni in range(5):
        for nb in range(5):
            for I in itertools.combinations(range(4), ni):
                for B in itertools.combinations(range(4), nb):
                    true = (i in I) + (b in B)
                    if q == "ambassador":
                        ok = (ni, nb) == ((2, 0) if asked == "identity" else (0, 2)) \
                            and true == 1
                    elif not mission:
                        ok = (ni, nb) == ((2, 1) if asked == "identity" else (1, 2)) \
                            and true >= 1
                    else:  # the mission card replaced one of the three cards
                        base = (2, 1) if asked == "identity" else (1, 2)
                        ok = (ni, nb) in {(base[0] - 1, base[1]), (base[0], base[1] - 1)} \
                            and true >= 1
                    if ok:
                        out.append((sum(1 << x for x in I), sum(1 << x for x in B)))
    return out


@pytest.mark.parametrize("form", FORMS)
def test_likelihood_equals_uniform_over_explicit_choices(form):
    t = ink.form_table(*form)
    L = t.likelihood(None)[:, :, 0]
    for i in range(4):
        for b in range(4):
            choices = explicit_choices(form, i, b)
            for a, x in enumerate(t.answers):
                want = 1 / len(choices) if x in choices else 0.0
                assert L[a, 4 * i + b] == pytest.approx(want, abs=1e-15)
            assert set(choices) <= set(t.answers)
    n = len(explicit_choices(form, 0, 0))
    assert n == {("player", False): 15, ("player", True): 10,
                 ("ambassador", False): 3}[(form[0], form[2])]


def test_seed_counts_15_and_3():
    """Höhle's Inkognito post's 1/15 (12 with the identity true + 3 with only the build true) and 1/3."""
    t = ink.form_table("player", "identity")
    assert t.valid[:, 0].sum() == 15 and t.lone[:, 0].sum() == 3 and t.pair[:, 0].sum() == 12
    assert ink.form_table("ambassador", "build").valid[:, 5].sum() == 3


@pytest.mark.parametrize("form", FORMS)
def test_likelihood_sums_to_one_for_every_theta(form):
    L = ink.form_table(*form).likelihood(ink.theta_grid())
    assert np.allclose(L.sum(0), 1.0)
    if form[0] == "player" and not form[2]:
        # θ = n_lone / n_valid = 0.2 gives the indifferent opponent back
        U = ink.form_table(*form).likelihood(None)[:, :, 0]
        assert np.allclose(ink.form_table(*form).likelihood(np.array([0.2]))[:, :, 0], U)


# ------------------------------------------------------------------ brute force reference

def brute_force(setup, events, method="joint"):
    """Posterior over deals by explicit enumeration of every deal and every answer choice,
    including the no-repeat exclusion and (with deception) θ summed over the same grid."""
    ids = [k for k in range(4) if k != setup.my_identity_index]
    bs = [k for k in range(4) if k != setup.my_build_index]
    n = len(setup.opponents)
    thetas = ink.theta_grid() if setup.deception.enabled else [None]

    def choice_prob(o, form, shown_before, x, i, b, th):
        choices = explicit_choices(form, i, b)
        if th is not None and form[0] == "player" and not form[2]:
            asked = form[1]

            def lone(c):
                ti, tb = bool(c[0] >> i & 1), bool(c[1] >> b & 1)
                return (tb and not ti) if asked == "identity" else (ti and not tb)
            weight = {c: (th / sum(map(lone, choices)) if lone(c) else
                          (1 - th) / sum(not lone(d) for d in choices)) for c in choices}
        else:
            weight = {c: 1 / len(choices) for c in choices}
        if setup.no_repeats:
            for s in set(shown_before):
                weight.pop(s, None)
        tot = sum(weight.values())
        return weight.get(x, 0.0) / tot if tot > 0 else 0.0

    def opp_lik(o, i, b):
        evs = [e for e in events if e.opponent == setup.opponents[o]]
        total = 0.0
        for th in thetas:
            w = 1.0 if th is None else \
                ink.beta_on_grid(*setup.deception.prior_of(setup.opponents[o]),
                                 ink.theta_grid())[list(ink.theta_grid()).index(th)]
            shown = []
            for e in evs:
                _, form, x = ink.encode(setup, e)
                w *= choice_prob(o, form, shown, x, i, b, th)
                shown.append(x)
            total += w
        return total

    if method == "joint":
        weights = {}
        for pi in itertools.permutations(ids, n):
            for pb in itertools.permutations(bs, n):
                weights[(pi, pb)] = math.prod(opp_lik(o, pi[o], pb[o]) for o in range(n))
        Z = sum(weights.values())
        marg = np.zeros((n, 4, 4))
        for (pi, pb), w in weights.items():
            for o in range(n):
                marg[o, pi[o], pb[o]] += w / Z
        return marg
    marg = np.zeros((n, 4, 4))
    for o in range(n):
        for i in ids:
            for b in bs:
                marg[o, i, b] = opp_lik(o, i, b)
        marg[o] /= marg[o].sum()
    return marg


def random_log(rng, setup, k, truth=None):
    """k answers drawn from the rules for a random true deal (so the log is consistent)."""
    ids = [x for x in range(4) if x != setup.my_identity_index]
    bs = [x for x in range(4) if x != setup.my_build_index]
    n = len(setup.opponents)
    pi, pb = truth or (rng.sample(ids, n), rng.sample(bs, n))
    shown = {o: [] for o in range(n)}
    out = []
    for _ in range(k):
        o = rng.randrange(n)
        form = rng.choice(FORMS)
        choices = [c for c in explicit_choices(form, pi[o], pb[o]) if c not in shown[o]]
        if not choices:
            continue
        x = rng.choice(choices)
        shown[o].append(x)
        out.append(ink.Answer(opponent=setup.opponents[o], question=form[0], asked=form[1],
                              identities=tuple(setup.identities[j] for j in range(4) if x[0] >> j & 1),
                              builds=tuple(setup.builds[j] for j in range(4) if x[1] >> j & 1),
                              mission=form[2]))
    return out


@pytest.mark.parametrize("seed", range(12))
def test_joint_posterior_equals_brute_force(seed):
    rng = random.Random(seed)
    opps = ["A", "B", "C"][:rng.choice([2, 3])]
    s = dataclasses.replace(ink.default_setup(), opponents=tuple(opps),
                            me_identity=rng.choice([LF, MZ, CB, AX]),
                            me_build=rng.choice([TALL, SHORT, FAT, THIN]),
                            no_repeats=rng.random() < 0.7)
    log = random_log(rng, s, rng.randint(1, 7))
    for method in ink.METHODS:
        post = ink.infer(s, log, method=method)
        ref = brute_force(s, log, method)
        for o, name in enumerate(opps):
            assert np.allclose(post.opponents[name].joint, ref[o], atol=1e-12), (seed, method)


@pytest.mark.parametrize("seed", range(3))
def test_deception_posterior_equals_brute_force(seed):
    rng = random.Random(100 + seed)
    s = seed_setup(deception=ink.Deception(enabled=True, prior=(2.0, 3.0), priors=(("Blue", (5.0, 1.5)),)))
    log = random_log(rng, s, 6)
    for method in ink.METHODS:
        post = ink.infer(s, log, method=method)
        ref = brute_force(s, log, method)
        for o, name in enumerate(s.opponents):
            assert np.allclose(post.opponents[name].joint, ref[o], atol=1e-10)


# ------------------------------------------------------------------ the no-repeat rule

def test_exclusion_leaves_indifferent_posterior_unchanged():
    """Every set an opponent showed before is valid in every surviving world, so removing them
    from the choice set divides the likelihood by the same number in every world."""
    rng = random.Random(7)
    checked = 0
    for _ in range(40):
        s = seed_setup()
        log = random_log(rng, s, 10)
        with_rule = ink.infer(s, log)
        without = ink.infer(dataclasses.replace(s, no_repeats=False), log)
        for name in s.opponents:
            assert np.allclose(with_rule.opponents[name].joint, without.opponents[name].joint,
                               atol=1e-12)
        # and the likelihood itself did change (1/14 instead of 1/15 ...)
        o_forms = [(e.opponent, e.question, e.asked, e.mission) for e in log]
        checked += len(o_forms) != len(set(o_forms))
    assert checked > 10  # the logs did contain repeated forms from the same opponent


def test_exclusion_changes_the_likelihood_value():
    t = ink.form_table("player", "identity")
    first, second = (3, 1), (3, 4)  # {LF, MZ}+tall, then {LF, MZ}+fat
    L1 = ink.answer_likelihood(t, second, [], None)
    L2 = ink.answer_likelihood(t, second, [first], None)
    live = L1[:, 0] > 0
    live &= t.valid[t.index[first]]
    assert np.allclose(L2[live, 0], 1 / 14) and np.allclose(L1[live, 0], 1 / 15)


def test_exclusion_does_change_the_deception_posterior():
    """Not true with θ: the excluded answer's probability depends on whether it was a 'lone'
    or a 'pair' answer in each world, so the renormalisation differs between worlds."""
    s = seed_setup(deception=ink.Deception(enabled=True, prior=(2.0, 2.0)))
    log = [ans("Red", "player", "identity", [LF, MZ], [TALL]),
           ans("Red", "player", "identity", [LF, CB], [THIN])]
    a = ink.infer(s, log).opponents["Red"].joint
    b = ink.infer(dataclasses.replace(s, no_repeats=False), log).opponents["Red"].joint
    assert np.abs(a - b).max() > 1e-4
    assert np.array_equal(a > 0, b > 0)  # same support


def test_repeated_set_is_a_contradiction_only_with_the_rule():
    s = seed_setup()
    log = [ans("Red", "ambassador", "build", [], [FAT, THIN])] * 2
    with pytest.raises(ContradictionError) as e:
        ink.infer(s, log)
    assert e.value.event_index == 1 and "twice" in e.value.message
    ink.infer(dataclasses.replace(s, no_repeats=False), log)
    # the same cards from another opponent are fine
    ink.infer(s, [log[0], ans("Blue", "ambassador", "build", [], [FAT, THIN])])


# ------------------------------------------------------------------ deception model

def test_concentrated_prior_at_0_2_equals_indifferent():
    s = seed_setup(deception=ink.Deception(enabled=True, prior=(400.0, 1600.0)))
    log = SEED_ROWS + [ans("Blue", "player", "build", [CB], [TALL, THIN])]
    d = ink.infer(s, log)
    u = ink.infer(seed_setup(), log)
    for name in s.opponents:
        assert np.allclose(d.opponents[name].joint, u.opponents[name].joint, atol=2e-3)
    assert d.opponents["Red"].theta_mean == pytest.approx(0.2, abs=1e-3)


def test_theta_learned_from_lone_answers():
    """Red is pinned to Lord Fiddlebottom / thin by ambassador answers; then Red answers player
    questions with the truth only in the lone statement: θ's posterior mean rises."""
    s = seed_setup(deception=ink.Deception(enabled=True, prior=(1.0, 4.0)))
    pin = [ans("Red", "ambassador", "identity", [LF, AX], []),
           ans("Red", "ambassador", "build", [], [SHORT, THIN])]
    lone = [ans("Red", "player", "identity", [MZ, CB], [THIN]),
            ans("Red", "player", "build", [LF], [TALL, FAT])]
    p0 = ink.infer(s, pin).opponents["Red"]
    p1 = ink.infer(s, pin + lone).opponents["Red"]
    assert p0.theta_mean == pytest.approx(1 / 5, abs=0.01)  # the prior mean
    assert p1.theta_mean > 0.4
    g, p = p1.theta
    assert p.sum() == pytest.approx(1) and g.shape == p.shape == (ink.GRID,)
    # Blue said nothing: its θ posterior is its prior
    b = ink.infer(s, pin + lone).opponents["Blue"]
    assert np.allclose(b.theta[1], ink.beta_on_grid(1, 4, ink.theta_grid()))
    # off: no θ in the result
    assert ink.infer(seed_setup(), pin).opponents["Red"].theta is None


def test_deception_shifts_belief_towards_lone_reading():
    """A strong liar prior (θ near 1) reads a player answer's lone statement as the truth."""
    liar = seed_setup(deception=ink.Deception(enabled=True, prior=(20.0, 1.0)))
    log = [ans("Red", "player", "identity", [LF, MZ], [FAT])]
    p = ink.infer(liar, log).opponents["Red"]
    q = ink.infer(seed_setup(), log).opponents["Red"]
    assert p.build[FAT] > 0.8 > q.build[FAT]


# ------------------------------------------------------------------ properties

@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10 ** 6), st.integers(0, 12), st.booleans(), st.sampled_from(ink.METHODS))
def test_random_consistent_logs_properties(seed, k, deception, method):
    rng = random.Random(seed)
    s = seed_setup(opponents=("A", "B", "C")[:rng.choice([2, 3])],
                   deception=ink.Deception(enabled=deception, prior=(1.0, 4.0)))
    log = random_log(rng, s, k)
    post = ink.infer(s, log, method=method)
    assert post.worlds >= 1 and post.entropy_bits >= 0
    for _name, b in post.opponents.items():
        assert np.all(np.isfinite(b.joint)) and b.joint.min() >= 0 and b.joint.max() <= 1
        assert b.joint.sum() == pytest.approx(1)
        assert sum(b.identity.values()) == pytest.approx(1)
        assert sum(b.build.values()) == pytest.approx(1)
        assert b.identity[s.me_identity] == 0 and b.build[s.me_build] == 0
        assert 0 <= b.partner <= 1
    if method == "joint":
        # identities are a permutation: the opponents' marginals of an identity sum to <= 1
        for x in s.identities:
            assert sum(b.identity[x] for b in post.opponents.values()) <= 1 + 1e-9
    summary = ink.belief_summary(s, post)
    assert all(math.isfinite(v) for v in summary.values())
    assert set(summary) == set(ink.belief_summary(s, ink.infer(s, [], method=method)))
    json.dumps(post.to_json(), allow_nan=False)


def test_prefix_is_previous_posterior():
    """Undo = infer on the shorter log; the state never leaks between calls."""
    rng = random.Random(3)
    s = seed_setup()
    log = random_log(rng, s, 8)
    before = ink.infer(s, log[:-1]).to_json()
    ink.infer(s, log)
    assert ink.infer(s, log[:-1]).to_json() == before


def test_partner_probability():
    s = seed_setup()  # Agent X: partner is Madame Zsa Zsa
    assert s.partner_identity == MZ
    p = ink.infer(s, [ans("Blue", "ambassador", "identity", [MZ, AX], [])])
    assert p.opponents["Blue"].partner == pytest.approx(1)
    assert p.opponents["Red"].partner == 0
    s2 = seed_setup(me_identity=LF)
    assert s2.partner_identity == CB


def test_three_player_game_two_opponents():
    s = seed_setup(opponents=("Red", "Blue"))
    p = ink.infer(s, [])
    assert p.worlds == 36
    # partner may be the card put aside: P(some opponent is my partner) = 2/3
    assert sum(b.partner for b in p.opponents.values()) == pytest.approx(2 / 3)


# ------------------------------------------------------------------ recommend

def test_recommend_gain_equals_explicit_expected_entropy_drop():
    s = seed_setup()
    log = SEED_ROWS
    rec = ink.recommend(s, log)
    post = ink.infer(s, log)
    assert len(rec.ranking) == 3 * 2 * 2
    gains = [r.information_bits for r in rec.ranking]
    assert gains == sorted(gains, reverse=True)
    for r in rec.ranking[:3] + rec.ranking[-2:]:
        t = ink.form_table(r.question, r.asked)
        exp_h, total = 0.0, 0.0
        for x in t.answers:
            L = ink.answer_likelihood(t, x, [ink.encode(s, e)[2] for e in log
                                             if e.opponent == r.opponent], None)[:, 0]
            pa = float(post.opponents[r.opponent].joint.ravel() @ L)
            if pa <= 0:
                continue
            e = ans(r.opponent, r.question, r.asked,
                    [s.identities[j] for j in range(4) if x[0] >> j & 1],
                    [s.builds[j] for j in range(4) if x[1] >> j & 1])
            exp_h += pa * ink.infer(s, list(log) + [e]).entropy_bits
            total += pa
        assert total == pytest.approx(1)
        assert r.information_bits == pytest.approx(post.entropy_bits - exp_h, abs=1e-9)
    # Red's build is known to be fat or thin: the ambassador on Red's build, or on an
    # unasked opponent, is worth more than Red's identity player question
    assert rec.best.information_bits > 0.8


# ------------------------------------------------------------------ schema, errors

def test_validate_answer_messages():
    ink.validate_answer("player", "identity", [LF, MZ], [FAT])
    ink.validate_answer("player", "build", [LF], [FAT, THIN])
    ink.validate_answer("ambassador", "build", [], [FAT, THIN])
    ink.validate_answer("player", "identity", [LF], [FAT], mission=True)
    with pytest.raises(SessionFormatError) as e:
        ink.validate_answer("player", "identity", [LF], [FAT])
    assert "2 identities and 1 build" in e.value.message and "1 identity and 1 build" \
        in e.value.message
    with pytest.raises(SessionFormatError) as e:
        ink.validate_answer("ambassador", "identity", [LF, MZ], [FAT])
    assert "exactly one" in e.value.message
    with pytest.raises(SessionFormatError):
        ink.validate_answer("ambassador", "identity", [LF], [], mission=True)
    with pytest.raises(SessionFormatError):
        ink.validate_answer("shout", "identity", [LF, MZ], [FAT])


def test_session_schema_round_trip_and_errors():
    s = read_session_file(str(ROOT / "resources/examples/inkognito.json"))
    assert s.game == "inkognito" and len(s.events) >= 6
    assert {e.opponent for e in s.events} == {"Red", "Blue", "Yellow"}
    again = parse_session(json.loads(json.dumps(s.to_json())))
    assert again.setup == s.setup and again.events == s.events
    base = s.to_json()

    def bad(mutate, path):
        d = json.loads(json.dumps(base))
        mutate(d)
        with pytest.raises(SessionFormatError) as e:
            parse_session(d)
        assert e.value.path.startswith(path), e.value

    bad(lambda d: d["setup"].update(opponents=["A"]), "$.setup.opponents")
    bad(lambda d: d["setup"]["me"].update(identity="Nobody"), "$.setup.me.identity")
    bad(lambda d: d["setup"].update(deception={"enabled": True, "prior": [0, 1]}),
        "$.setup.deception.prior[0]")
    bad(lambda d: d["events"][0].update(opponent="Zed"), "$.events[0].opponent")
    bad(lambda d: d["events"][0].update(builds=["fat"]), "$.events[0]")
    bad(lambda d: d["events"][0].update(identities=["Ghost"]), "$.events[0].identities[0]")
    bad(lambda d: d["events"][1].update(question="telepathy"), "$.events[1].question")


def test_describe_event():
    s = seed_setup()
    text = ink.describe_event(s, SEED_ROWS[0])
    assert "Red" in text and LF in text and FAT in text and "build" in text


# ------------------------------------------------------------------ CLI

def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "engines", *args], capture_output=True,
                          text=True, cwd=str(ROOT))


def test_cli_infer_format():
    out = run_cli("infer", "resources/examples/inkognito.json")
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert d["game"] == "inkognito" and set(d["opponents"]) == {"Red", "Blue", "Yellow"}
    for v in d["opponents"].values():
        assert set(v) >= {"identity", "build", "partner"}
        assert sum(v["identity"].values()) == pytest.approx(1)
    s = read_session_file(str(ROOT / "resources/examples/inkognito.json"))
    assert d["worlds"] == ink.infer(s.setup, s.events).worlds
    assert d["opponents"]["Red"]["identity"][LF] == pytest.approx(0.5)
    assert d["model"] == "uniform" and d["method"] == "joint" and d["entropy_bits"] >= 0
    assert np.array(d["opponents"]["Red"]["joint"]).shape == (4, 4)
    out = run_cli("infer", "resources/examples/inkognito.json", "--method", "independent")
    assert json.loads(out.stdout)["method"] == "independent"
    out = run_cli("recommend", "resources/examples/inkognito.json")
    assert out.returncode == 0 and json.loads(out.stdout)["best"]["opponent"] in d["opponents"]


def test_cli_contradiction_and_bad_input(tmp_path):
    d = json.loads((ROOT / "resources/examples/inkognito.json").read_text())
    d["events"].append(dict(d["events"][2]))  # the same set shown twice
    f = tmp_path / "c.json"
    f.write_text(json.dumps(d))
    out = run_cli("infer", str(f))
    assert out.returncode == 3 and f"event {len(d['events'])}" in out.stderr
    d["events"][0]["builds"] = []
    f.write_text(json.dumps(d))
    out = run_cli("infer", str(f))
    assert out.returncode == 2 and "$.events[0]" in out.stderr and "Traceback" not in out.stderr


# ------------------------------------------------------------------ profiles

def test_profile_store_round_trip(tmp_path):
    store = ink.ProfileStore(tmp_path).load()
    assert store.prior("Ann") == ink.DEFAULT_DECEPTION_PRIOR
    s = seed_setup(deception=ink.Deception(enabled=True))
    post = ink.infer(s, [ans("Red", "ambassador", "identity", [LF, AX], []),
                         ans("Red", "ambassador", "build", [], [SHORT, THIN]),
                         ans("Red", "player", "identity", [MZ, CB], [THIN])])
    g, p = post.opponents["Red"].theta
    a, b = store.update("Red", g, p)
    assert a / (a + b) == pytest.approx(float(g @ p), abs=1e-9)
    assert a / (a + b) > 0.2
    store.save()
    again = ink.ProfileStore(tmp_path).load()
    assert again.prior("Red") == pytest.approx((a, b))
    assert again.profiles["Red"]["games"] == 1
    again.update_counts("Red", lone=3, pair=1)
    assert again.prior("Red") == pytest.approx((a + 3, b + 1))
    (tmp_path / "inkognito-profiles.json").write_text("{broken")
    with pytest.raises(SessionFormatError):
        ink.ProfileStore(tmp_path).load()


def test_engine_never_imports_qt():
    code = "import engines.inkognito, sys; print('PySide6' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=str(ROOT))
    assert out.stdout.strip() == "False"
