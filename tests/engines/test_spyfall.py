"""Spyfall engine: exact posterior against a direct enumeration, private beliefs, bots, env, CLI."""
import json
import math
import subprocess
import sys
import types
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.stats import dirichlet

import engines.spyfall as spyfall_engine
from engines import spyfall
from engines.core.errors import Cancelled, SessionFormatError
from engines.core.schema import read_session_file
from engines.core.timeline import Timeline
from engines.spyfall import Setup, SimConfig, belief_summary, describe_event, infer, make_claim, play_game, simulate
from engines.spyfall.simulate import aggregate

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "resources" / "examples" / "spyfall.json"


def setup_of(n=4, players=("A", "B", "C"), me=None, role=None, model=None):
    obj = {"locations": [f"L{i}" for i in range(n)], "players": list(players)}
    if me:
        obj["me"] = me
        obj["my_role"] = role
    if model:
        obj["model"] = model
    return Setup.from_json(obj)


# -- a direct enumeration, written from the formulas (flat hide-reveal) --------------
def enumerate_flat(setup, events):
    """P(l, k | claims) by looping over every world with scipy.stats.dirichlet."""
    n, s = setup.n_locations, setup.n_players
    betas, lams = setup.betas(), setup.lambdas()
    claims = [(setup.players.index(e.player), e.vector) for e in events]
    logp = np.zeros((n, s))
    for l in range(n):
        for k in range(s):
            for t, (j, c) in enumerate(claims):
                if j != k:
                    gamma = betas[j] * ((1 - lams[j]) * np.ones(n) + lams[j] * np.eye(n)[l])
                else:
                    # Q_t: the spy's belief from the others' earlier claims read as non-spy claims
                    q = np.zeros(n)
                    for m in range(n):
                        for (u, cu) in claims[:t]:
                            if u != j:
                                g = betas[u] * ((1 - lams[u]) + lams[u] * np.eye(n)[m])
                                q[m] += dirichlet.logpdf(cu, g)
                    q = np.exp(q - q.max())
                    q /= q.sum()
                    gamma = betas[j] * ((1 - lams[j]) + lams[j] * q)
                logp[l, k] += dirichlet.logpdf(c, gamma)
    p = np.exp(logp - logp.max())
    return p / p.sum()


claim_weights = st.lists(st.sampled_from([0.0, 0.5, 1.0, 0.1, 2.0]), min_size=4, max_size=4) \
    .filter(lambda w: sum(w) > 0)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(speakers=st.lists(st.integers(0, 2), min_size=1, max_size=5),
       weights=st.lists(claim_weights, min_size=5, max_size=5),
       betas=st.lists(st.floats(0.5, 10), min_size=3, max_size=3),
       lams=st.lists(st.floats(0.0, 0.95), min_size=3, max_size=3))
def test_exact_equals_direct_enumeration(speakers, weights, betas, lams):
    model = {"players": {p: {"beta": b, "lambda": l} for p, b, l in zip("ABC", betas, lams)}}
    setup = setup_of(model=model)
    events = [make_claim(setup, "ABC"[j], w) for j, w in zip(speakers, weights)]
    post = infer(setup, events)
    ref = enumerate_flat(setup, events)
    np.testing.assert_allclose(post.joint, ref, atol=1e-9, rtol=1e-7)
    assert abs(sum(post.location.values()) - 1) < 1e-12
    assert abs(sum(post.spy.values()) - 1) < 1e-12


@settings(max_examples=10, deadline=None)
@given(speakers=st.lists(st.integers(0, 3), min_size=1, max_size=8),
       seed=st.integers(0, 10_000),
       strategy=st.sampled_from(["dynamic", "joker", "flat"]))
def test_exact_equals_scipy_enumeration_method_for_every_strategy(speakers, seed, strategy):
    rng = np.random.default_rng(seed)
    setup = setup_of(n=5, players=("A", "B", "C", "D"), me="B", role={"spy": True},
                     model={"strategy": strategy, "players": {"C": {"strategy": "flat"}}})
    events = [make_claim(setup, "ABCD"[j], rng.dirichlet(np.ones(5) * 0.7)) for j in speakers]
    a = infer(setup, events, method="exact")
    b = infer(setup, events, method="enumeration")
    np.testing.assert_allclose(a.joint, b.joint, atol=1e-10, rtol=1e-8)
    np.testing.assert_allclose(list(a.private_location.values()), list(b.private_location.values()),
                               atol=1e-10)
    np.testing.assert_allclose(a.private_information_gain_bits, b.private_information_gain_bits,
                               atol=1e-8)


def test_one_claim_known_answer():
    # n = 2, s = 3, β = 2, λ = 0.5; A claims (0.8, 0.2).
    # non-spy at L0: γ = (2, 1), density Γ(3)/(Γ(2)Γ(1))·0.8 = 1.6; at L1: 0.4.
    # A the spy (Q uniform): γ = (1.5, 1.5), density Γ(3)/Γ(1.5)²·sqrt(0.16) = 1.0185916...
    setup = setup_of(n=2, model={"beta": 2, "lambda": 0.5})
    post = infer(setup, [make_claim(setup, "A", [0.8, 0.2])])
    d_spy = math.gamma(3) / math.gamma(1.5) ** 2 * math.sqrt(0.8 * 0.2)
    total = 2 * d_spy + 2 * (1.6 + 0.4)
    assert post.spy["A"] == pytest.approx(2 * d_spy / total, rel=1e-12)
    assert post.spy["B"] == pytest.approx(2.0 / total, rel=1e-12)
    p0 = (d_spy + 2 * 1.6) / total
    assert post.location["L0"] == pytest.approx(p0, rel=1e-12)
    kl = p0 * math.log2(p0 / 0.5) + (1 - p0) * math.log2((1 - p0) / 0.5)
    assert post.information_gain_bits[0] == pytest.approx(kl, rel=1e-10)
    assert post.aggregate_information_gain_bits == pytest.approx(kl, rel=1e-10)


def test_no_claims_is_the_uniform_prior():
    setup = setup_of(n=3, players=("A", "B", "C", "D"))
    post = infer(setup, [])
    np.testing.assert_allclose(post.joint, np.full((3, 4), 1 / 12))
    assert len(post.information_gain_bits) == 0 and len(post.spy) == 4
    assert "spy_history" not in post.to_json()   # earlier beliefs come from the timeline


def test_private_beliefs_are_consistent_with_the_public_posterior():
    rng = np.random.default_rng(7)
    base = dict(n=6, players=("A", "B", "C", "D", "E"))
    obs = setup_of(**base)
    events = [make_claim(obs, "ABCDE"[t % 5], rng.dirichlet(np.ones(6))) for t in range(12)]
    pub = infer(obs, events)
    J = pub.joint
    # a non-spy at L2: P(S = k | N = L2, S ≠ me) from the public joint
    for me in ("A", "C"):
        m = obs.players.index(me)
        post = infer(setup_of(**base, me=me, role={"location": "L2"}), events)
        expected = J[2].copy()
        expected[m] = 0
        expected /= expected.sum()
        np.testing.assert_allclose(list(post.private_spy.values()), expected, atol=1e-12)
        assert post.private_location["L2"] == 1.0
        # the public parts do not depend on who I am
        np.testing.assert_allclose(post.joint, J, atol=1e-14)
    # the spy: its location belief is P(N | S = me), which is also its leave-one-out-free view Q
    spy = infer(setup_of(**base, me="D", role={"spy": True}), events)
    np.testing.assert_allclose(list(spy.private_location.values()), J[:, 3] / J[:, 3].sum(), atol=1e-12)
    # total probability: averaging the non-spy views over locations gives back the public spy belief
    mix = np.zeros(5)
    for l in range(6):
        mix += J[l] * 1.0
    np.testing.assert_allclose(mix, list(pub.spy.values()), atol=1e-12)


def test_leave_one_out_beliefs():
    rng = np.random.default_rng(3)
    setup = setup_of(n=5, players=("A", "B", "C", "D"))
    events = [make_claim(setup, "A", rng.dirichlet(np.ones(5))) for _ in range(3)] + \
             [make_claim(setup, "B", rng.dirichlet(np.ones(5)))]
    post = infer(setup, events)
    assert post.loo_location.shape == (4, 5) and post.loo_spy.shape == (4, 4)
    # a player who never spoke: leaving them out changes nothing
    np.testing.assert_allclose(post.loo_location[2], list(post.location.values()), atol=1e-12)
    np.testing.assert_allclose(post.loo_spy[3], list(post.spy.values()), atol=1e-12)
    assert post.contribution_bits["C"] == pytest.approx(0.0, abs=1e-12)
    assert post.contribution_bits["A"] > 0
    # leaving out the only speaker gives the uniform location prior
    one = infer(setup, events[:1])
    np.testing.assert_allclose(one.loo_location[0], np.full(5, 0.2), atol=1e-12)
    # without B's single claim we are back at A's three claims alone
    np.testing.assert_allclose(post.loo_location[1], list(infer(setup, events[:3]).location.values()),
                               atol=1e-12)


def test_claims_with_zeros_are_floored_and_stay_finite():
    setup = setup_of(n=4, me="A", role={"location": "L1"})
    # C speaks first (a spy then knows nothing) naming L3; B twice names L1
    events = [make_claim(setup, "C", {"L3": 1}), make_claim(setup, "B", {"L1": 1}),
              make_claim(setup, "B", {"L1": 1, "L2": 0})]
    post = infer(setup, events)
    assert np.all(np.isfinite(post.joint)) and np.all(post.joint >= 0)
    assert min(events[0].vector) == pytest.approx(1e-6, rel=1e-3)
    assert max(post.spy, key=post.spy.get) == "C"
    assert max(post.private_spy, key=post.private_spy.get) == "C"
    assert max(post.location, key=post.location.get) == "L1"
    json.dumps(post.to_json(), allow_nan=False)


def test_bad_input_names_the_field():
    setup = setup_of()
    with pytest.raises(SessionFormatError) as e:
        spyfall.event_from_json({"type": "claim", "player": "Zed", "claim": {"L0": 1}}, setup, "$.events[0]")
    assert e.value.path == "$.events[0].player"
    with pytest.raises(SessionFormatError) as e:
        spyfall.event_from_json({"type": "claim", "player": "A", "claim": {"L0": 0}}, setup, "$.events[1]")
    assert e.value.path == "$.events[1].claim" and "positive" in e.value.message
    with pytest.raises(SessionFormatError) as e:
        spyfall.event_from_json({"type": "claim", "player": "A", "claim": {"L0": -1}}, setup, "$.e")
    assert e.value.path == "$.e.claim.L0"
    with pytest.raises(SessionFormatError) as e:
        spyfall.event_from_json({"type": "claim", "player": "A", "claim": {"Moon": 1}}, setup, "$.e")
    assert e.value.path == "$.e.claim.Moon"
    with pytest.raises(SessionFormatError) as e:
        Setup.from_json({"locations": ["a", "b"], "players": ["A", "B", "C"], "model": {"lambda": 1}})
    assert e.value.path == "$.setup.model.lambda"
    with pytest.raises(SessionFormatError) as e:
        Setup.from_json({"edition": "spyfall9", "players": ["A", "B", "C"]})
    assert e.value.path == "$.setup.edition"
    with pytest.raises(SessionFormatError) as e:
        Setup.from_json({"locations": ["a", "b"], "players": ["A", "B", "C"], "me": "A"})
    assert e.value.path == "$.setup.my_role"
    with pytest.raises(SessionFormatError):
        infer(setup, [], method="mcmc")


def test_setup_and_events_round_trip():
    s = read_session_file(str(EXAMPLE))
    assert Setup.from_json(s.setup.to_json()) == s.setup
    assert len(s.setup.locations) == len(spyfall.editions()["spyfall1"]["locations"])
    for ev in s.events:
        again = spyfall.event_from_json(ev.to_json(), s.setup, "$")
        assert again == ev
        assert describe_event(s.setup, ev).startswith(ev.player)
    d = spyfall.default_setup()
    assert Setup.from_json(d.to_json()) == d


@settings(max_examples=25, deadline=None)
@given(speakers=st.lists(st.integers(0, 3), max_size=10), seed=st.integers(0, 2**31 - 1),
       spy=st.booleans())
def test_random_logs_give_probabilities_and_undo_restores(speakers, seed, spy):
    rng = np.random.default_rng(seed)
    setup = setup_of(n=5, players=("A", "B", "C", "D"), me="A",
                     role={"spy": True} if spy else {"location": "L0"}, model={"strategy": "dynamic"})
    events = [make_claim(setup, "ABCD"[j], rng.dirichlet(np.full(5, 0.3))) for j in speakers]
    post = infer(setup, events)
    for d in (post.location, post.spy, post.private_location, post.private_spy):
        v = np.array(list(d.values()))
        assert np.all((v >= 0) & (v <= 1)) and abs(v.sum() - 1) < 1e-9
    gains = np.concatenate([post.information_gain_bits, post.spy_information_gain_bits,
                            post.private_information_gain_bits])
    assert len(gains) == 3 * len(events)
    assert np.all(np.isfinite(gains) & (gains >= 0))
    summary = belief_summary(setup, post)
    assert all(math.isfinite(v) for v in summary.values())
    if events:  # undo the last event: the timeline's previous entry is the prefix's posterior
        prev = infer(setup, events[:-1])
        then = Timeline(spyfall_engine, setup).compute(events).posteriors[-2]
        np.testing.assert_allclose(list(prev.spy.values()), list(then.spy.values()), atol=1e-12)
        assert set(belief_summary(setup, prev)) == set(summary)


@settings(max_examples=25, deadline=None)
@given(speakers=st.lists(st.integers(0, 3), min_size=1, max_size=9),
       branch=st.lists(st.integers(0, 3), max_size=4), cut=st.integers(0, 9),
       seed=st.integers(0, 2**31 - 1), spy=st.sampled_from([None, True, False]),
       budget=st.sampled_from([1, 1 << 20]), checkpoints=st.sampled_from([1, 2, 128]))
def test_incremental_fold_equals_a_fresh_inference_after_every_prefix_and_branch(
        speakers, branch, cut, seed, spy, budget, checkpoints):
    """The incremental interface (initial/update/posterior/copy_state) through a timeline —
    snapshots (budget 1 MiB; a state at every prefix, or checkpoints every 8th or 16th prefix
    with at most 1 or 2 of them) or one live state (budget 1 byte) — gives exactly what
    ``infer`` gives for every prefix, also after an undo and a different continuation (the
    shared per-turn series must branch), with tempered claims."""
    rng = np.random.default_rng(seed)
    role = None if spy is None else ({"spy": True} if spy else {"location": "L1"})
    setup = setup_of(n=5, players=("A", "B", "C", "D"), me="B" if role else None, role=role,
                     model={"strategy": "dynamic", "claim_weight": 0.3,
                            "players": {"C": {"claim_weight": 1.0, "strategy": "flat"}}})
    claim = lambda j: make_claim(setup, "ABCD"[j], rng.dirichlet(np.full(5, 0.5)))
    first = [claim(j) for j in speakers]
    second = first[:min(cut, len(first))] + [claim(j) for j in branch]
    tl = Timeline(spyfall_engine, setup, memory_budget=budget, checkpoints=checkpoints)
    for log in (first, second):
        res = tl.compute(log)
        assert res.error is None and len(res.posteriors) == len(log) + 1
        for k, post in enumerate(res.posteriors):
            fresh = infer(setup, log[:k], method="enumeration")
            np.testing.assert_allclose(post.joint, fresh.joint, atol=1e-10, rtol=1e-8)
            for name in ("information_gain_bits", "spy_information_gain_bits",
                         "private_information_gain_bits"):
                np.testing.assert_allclose(getattr(post, name), getattr(fresh, name), atol=1e-8)
            assert post.speakers == fresh.speakers
            assert res.summaries[k] == pytest.approx(belief_summary(setup, fresh), abs=1e-8)


def test_a_copied_state_is_independent_of_the_original():
    setup = setup_of(n=4, players=("A", "B", "C"), me="A", role={"spy": True})
    a = make_claim(setup, "B", [0.7, 0.1, 0.1, 0.1])
    b = make_claim(setup, "C", [0.1, 0.1, 0.1, 0.7])
    state = spyfall.update(setup, spyfall.initial(setup), 0, a)
    before = spyfall.posterior(setup, state)
    twin = spyfall.copy_state(state)
    spyfall.update(setup, twin, 1, b)
    spyfall.update(setup, state, 1, a)     # both move on from the same series: they branch
    for s, log in ((twin, [a, b]), (state, [a, a])):
        got, want = spyfall.posterior(setup, s), infer(setup, log)
        np.testing.assert_allclose(got.joint, want.joint)
        np.testing.assert_allclose(got.information_gain_bits, want.information_gain_bits)
        assert got.speakers == want.speakers
    assert len(before.information_gain_bits) == 1      # an earlier posterior keeps its length
    with pytest.raises(ValueError):
        before.information_gain_bits[0] = 1.0           # and is read-only


def test_every_prefix_of_a_long_log_is_linear_not_quadratic():
    """2,000 repeated claims: every prefix through the timeline costs about as many claim
    updates as the log has claims (counted, not timed)."""
    setup = read_session_file(str(EXAMPLE)).setup
    events = tuple(read_session_file(str(EXAMPLE)).events)
    log = events + (events[-1],) * 2000
    calls = []

    def counted_update(*args, **kwargs):
        calls.append(1)
        return spyfall_engine.update(*args, **kwargs)

    # every public name (__all__) and those loaded: dir() of a lazily loaded game package lists
    # only the names loaded so far, which depends on the tests run before in the same process
    names = set(spyfall_engine.__all__) | {n for n in dir(spyfall_engine) if not n.startswith("__")}
    counting = types.SimpleNamespace(**{n: getattr(spyfall_engine, n) for n in names})
    counting.update = counted_update      # the Spyfall engine with its updates counted
    tl = Timeline(counting, setup)
    assert tl.incremental
    res = tl.compute(log)
    assert len(res.posteriors) == len(log) + 1 and res.is_full
    assert len(calls) == len(log)
    assert len(res.posteriors[-1].information_gain_bits) == len(log)


def test_true_spy_gains_public_suspicion_under_flat_high_lambda():
    config = SimConfig(players=5, locations=8, games=120, strategies=("flat",), lam=0.9,
                       beta=5, rounds=3, seed=11, workers=1)
    result = simulate(config)
    p = result.mean_true_spy_probability
    assert p[0] == pytest.approx(0.2)
    assert p[-1] > 0.4          # well above the prior 1/5
    assert result.accusation_accuracy > 0.3
    # jokers say nothing: with every seat a joker the public never learns anything
    jokers = simulate(SimConfig(players=4, locations=5, games=10, strategies=("joker",), workers=1))
    np.testing.assert_allclose(jokers.mean_true_spy_probability, 0.25, atol=1e-12)
    assert np.allclose(jokers.mean_information_gain_bits, 0.0)


def test_simulation_is_reproducible_and_progress_reported():
    config = SimConfig(players=4, locations=6, games=12, seed=5, workers=1)
    seen = []
    a = simulate(config, progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (12, 12)
    b = aggregate(config, [play_game(config, i) for i in range(12)])
    assert a.to_json()["spy_win_rate"] == b.to_json()["spy_win_rate"]
    np.testing.assert_array_equal(a.mean_true_spy_probability, b.mean_true_spy_probability)
    with pytest.raises(Cancelled):
        simulate(config, cancel=lambda: True)
    with pytest.raises(SessionFormatError):
        simulate(SimConfig(strategies=("bluff",)))


def test_workers_do_not_change_results():
    config = SimConfig(players=4, locations=6, games=16, seed=9, workers=1)
    one = simulate(config).to_json()
    two = simulate(SimConfig(players=4, locations=6, games=16, seed=9, workers=2)).to_json()
    for key in ("spy_win_rate", "accusation_accuracy", "mean_true_spy_probability",
                "mean_information_gain_bits"):
        assert one[key] == two[key]


def test_gymnasium_env_passes_env_checker():
    gym = pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env

    from engines.spyfall.env import ENV_ID, SpyfallEnv

    check_env(SpyfallEnv(n_players=4, n_locations=6, rounds=2, seat=1,
                         opponents=["flat", "flat", "dynamic", "joker"]), skip_render_check=True)
    env = gym.make(ENV_ID, n_players=4, n_locations=6, rounds=2)
    obs, info = env.reset(seed=0)
    done, steps, reward = False, 0, 0.0
    while not done:
        obs, reward, term, trunc, info = env.step(
            {"kind": 0, "claim": np.ones(6, np.float32), "target": 0})
        done = term or trunc
        steps += 1
    assert steps == 2 and reward in (-1.0, 1.0)
    # an end-game move ends the episode at once; the spy naming the right location wins
    for seed in range(30):
        obs, info = env.reset(seed=seed)
        if not info["spy"]:
            assert obs["private"][info["location"]] == 1.0 and obs["private"][-1] == 0.0
            continue
        true_loc = env.unwrapped.location
        _, r, term, _, _ = env.step({"kind": 1, "claim": np.ones(6, np.float32), "target": true_loc})
        assert term and r == 1.0
        break
    else:
        pytest.fail("no spy seat in 30 seeds")


def test_package_imports_without_gymnasium():
    code = ("import sys; sys.modules['gymnasium'] = None\n"
            "import engines.spyfall as s\n"
            "print(s.GAME, 'engines.spyfall.env' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["spyfall", "False"]


def test_cli_infer_and_simulate_format(tmp_path):
    out = subprocess.run([sys.executable, "-m", "engines", "infer", str(EXAMPLE)],
                         capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert d["game"] == "spyfall"
    assert set(d["public"]) == {"location", "spy"}
    assert abs(sum(d["public"]["location"].values()) - 1) < 1e-9
    assert set(d["private"]) == {"spy"} and d["private"]["spy"]["Ann"] == 0.0
    assert len(d["information_gain_bits"]) == 5
    # the example: Cy answered Casino/Hotel where everybody else said Beach
    assert max(d["public"]["spy"], key=d["public"]["spy"].get) == "Cy"
    assert max(d["public"]["location"], key=d["public"]["location"].get) == "Beach"
    bad = json.loads(EXAMPLE.read_text())
    bad["events"][2]["claim"] = {"Casino": 0}
    f = tmp_path / "bad.json"
    f.write_text(json.dumps(bad))
    out = subprocess.run([sys.executable, "-m", "engines", "infer", str(f)],
                         capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 2 and "$.events[2].claim" in out.stderr and "Traceback" not in out.stderr
    out = subprocess.run([sys.executable, "-m", "engines", "simulate", "spyfall", "--players", "4",
                          "--locations", "5", "--games", "6", "--workers", "1", "--seed", "2"],
                         capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert 0 <= d["spy_win_rate"] <= 1 and len(d["mean_true_spy_probability"]) == 4 * 5 + 1
    assert set(d["by_strategy"]) == {"flat", "dynamic", "joker"}


def test_private_belief_survives_a_public_posterior_that_underflows():
    # everybody else names L3 again and again while I hold L0: the public gives L0 ~ e^-1000,
    # yet my private spy belief must stay a finite probability vector (computed in log space)
    setup = setup_of(n=4, players=("A", "B", "C", "D"), me="A", role={"location": "L0"})
    events = [make_claim(setup, "BCD"[t % 3], {"L3": 1}) for t in range(30)]
    for method in ("exact",):
        post = infer(setup, events, method=method)
        v = np.array(list(post.private_spy.values()))
        assert np.all(np.isfinite(v)) and abs(v.sum() - 1) < 1e-12 and v[0] == 0
        assert post.location["L0"] < 1e-100
        json.dumps(post.to_json(), allow_nan=False)


def test_recommend_names_the_top_suspect_and_my_mean_claim(monkeypatch):
    from engines.spyfall import replication

    s = read_session_file(str(EXAMPLE))
    # without a replication the stored single-seed equilibrium is named, marked not replicated
    monkeypatch.setattr(replication, "load_replication", lambda: None)
    rec = spyfall.recommend(s.setup, s.events)
    assert rec.accuse == "Cy" and rec.name_location is None
    # Ann (β = 5) at Beach plays the stored non-spy equilibrium, flat λ = 0.05 (see
    # docs/spyfall-equilibrium.md): γ = 4.75 everywhere + 0.25 on Beach
    assert rec.strategy == ({"lambda": 0.05, "strategy": "flat", "probability": 1.0,
                             "replicated": False, "seeds": 1},)
    n = len(s.setup.locations)
    assert rec.claim["Beach"] == pytest.approx(5.0 / (4.75 * n + 0.25))
    spy_setup = Setup.from_json({**s.setup.to_json(), "my_role": {"spy": True}})
    rec = spyfall.recommend(spy_setup, s.events)
    assert rec.name_location == "Beach" and rec.accuse is None
    assert abs(sum(rec.claim.values()) - 1) < 1e-9
    with pytest.raises(SessionFormatError):
        spyfall.recommend(setup_of(), [])
    out = subprocess.run([sys.executable, "-m", "engines", "recommend", str(EXAMPLE)],
                         capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0 and json.loads(out.stdout)["accuse"] == "Cy"


def test_dynamic_hide_reveal_rule():
    from engines.spyfall import emission_params
    n = 4
    flat_loc = np.full(n, 0.25)
    q = np.array([0.7, 0.1, 0.1, 0.1])
    # not the top suspect, flat public location belief: same as flat hide-reveal
    a, b, g = emission_params("dynamic", 5.0, 0.7, 0, flat_loc, np.array([0.2, 0.5, 0.3]), q)
    np.testing.assert_allclose(a, 1.5)
    np.testing.assert_allclose(b, 3.5)
    np.testing.assert_allclose(g, 5 * (0.3 + 0.7 * q))
    # top suspect: λ rises by 0.2 (capped at 0.95); a flat spy belief has no top suspect
    a, b, _ = emission_params("dynamic", 5.0, 0.7, 1, flat_loc, np.array([0.2, 0.5, 0.3]), q)
    np.testing.assert_allclose(b / (a + b), 0.9)
    a, b, _ = emission_params("dynamic", 5.0, 0.9, 1, flat_loc, np.array([0.2, 0.5, 0.3]), q)
    np.testing.assert_allclose(b / (a + b), 0.95)
    a, b, _ = emission_params("dynamic", 5.0, 0.7, 1, flat_loc, np.full(3, 1 / 3), q)
    np.testing.assert_allclose(b / (a + b), 0.7)
    # the public knows location 2 for sure: a non-spy at 2 blurs (β/4), one at 0 does not
    known = np.array([0.0, 0.0, 1.0, 0.0])
    a, b, g = emission_params("dynamic", 8.0, 0.5, 0, known, np.array([0.2, 0.5, 0.3]), q)
    np.testing.assert_allclose(a + b, [8.0, 8.0, 2.0, 8.0])
    # the spy's c is its expectation Σ Q·P̂ = 0.1 -> below 1/n -> no shrink
    np.testing.assert_allclose(g.sum(), 8.0 * (0.5 * n + 0.5))


def test_the_prefixes_of_a_log_share_one_buffer_of_speakers():
    """A timeline's posteriors hold their speakers as views of one buffer (O(1) per prefix, no
    object for the cyclic collector to scan), given as a tuple of seats on request."""
    setup = setup_of(n=4, players=("A", "B", "C"))
    log = [make_claim(setup, p, [0.4, 0.3, 0.2, 0.1]) for p in "BCABCA"]
    res = Timeline(spyfall_engine, setup).compute(log)
    last = res.posteriors[-1]
    assert last.speakers == (1, 2, 0, 1, 2, 0) == infer(setup, log, method="enumeration").speakers
    for k, post in enumerate(res.posteriors[1:], start=1):
        assert post.speakers == last.speakers[:k]
        assert np.shares_memory(post.speaker_seats, last.speaker_seats)
        assert not post.speaker_seats.flags.writeable
