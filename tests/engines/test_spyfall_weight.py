"""Spyfall claim weight (tempered likelihood), its calibration and the hide-reveal equilibrium.

References: a direct tempered enumeration written here from the formula
P(l, k | claims) ∝ Π_t p(C_t | l, k)^{w_t}, with the spy's Q from the untempered claims of the
others (the emission model is untouched by w); matching pennies for the zero-sum solver.
"""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.stats import dirichlet

from engines.core.errors import SessionFormatError
from engines.spyfall import Setup, infer, make_claim


def setup_of(n=4, players=("A", "B", "C"), model=None, **extra):
    obj = {"locations": [f"L{i}" for i in range(n)], "players": list(players), **extra}
    if model:
        obj["model"] = model
    return Setup.from_json(obj)


def tempered_enumeration(setup, events):
    """P(l, k | claims) ∝ exp(Σ_t w_t log Dir(C_t; γ_t(l, k))) by looping over every world
    (flat hide-reveal), the spy's Q_t read from the others' earlier claims untempered."""
    n, s = setup.n_locations, setup.n_players
    betas, lams, cws = setup.betas(), setup.lambdas(), setup.claim_weights()
    claims = [(setup.players.index(e.player), e.vector,
               cws[setup.players.index(e.player)] if e.claim_weight is None else e.claim_weight)
              for e in events]
    logp = np.zeros((n, s))
    for l in range(n):
        for k in range(s):
            for t, (j, c, w) in enumerate(claims):
                if j != k:
                    gamma = betas[j] * ((1 - lams[j]) * np.ones(n) + lams[j] * np.eye(n)[l])
                else:
                    q = np.zeros(n)
                    for m in range(n):
                        for (u, cu, _) in claims[:t]:
                            if u != j:
                                g = betas[u] * ((1 - lams[u]) + lams[u] * np.eye(n)[m])
                                q[m] += dirichlet.logpdf(cu, g)
                    q = np.exp(q - q.max())
                    q /= q.sum()
                    gamma = betas[j] * ((1 - lams[j]) + lams[j] * q)
                logp[l, k] += w * dirichlet.logpdf(c, gamma)
    p = np.exp(logp - logp.max())
    return p / p.sum()


grid_claims = st.lists(st.sampled_from([0.0, 0.5, 1.0]), min_size=4, max_size=4) \
    .filter(lambda w: sum(w) > 0)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(speakers=st.lists(st.integers(0, 2), min_size=1, max_size=5),
       weights=st.lists(grid_claims, min_size=5, max_size=5),
       cws=st.lists(st.floats(0.05, 1.0), min_size=3, max_size=3),
       override=st.one_of(st.none(), st.floats(0.05, 1.0)),
       lam=st.floats(0.0, 0.95))
def test_tempered_posterior_equals_tempered_enumeration(speakers, weights, cws, override, lam):
    model = {"lambda": lam, "players": {p: {"claim_weight": w} for p, w in zip("ABC", cws)}}
    setup = setup_of(model=model)
    events = [make_claim(setup, "ABC"[j], w, claim_weight=override if t == 0 else None)
              for t, (j, w) in enumerate(zip(speakers, weights))]
    ref = tempered_enumeration(setup, events)
    for method in ("exact", "enumeration"):
        post = infer(setup, events, method=method)
        np.testing.assert_allclose(post.joint, ref, atol=1e-9, rtol=1e-7)


def test_claim_weight_one_is_the_untempered_model():
    """w = 1 given explicitly, as the default, or per claim: the same numbers."""
    base = setup_of(model={"lambda": 0.7})
    ones = setup_of(model={"lambda": 0.7, "claim_weight": 1,
                           "players": {"B": {"claim_weight": 1.0}}})
    claims = [("A", [1, 0.5, 0, 0]), ("B", [0, 1, 0, 0]), ("C", [0.5, 0.5, 1, 0])]
    p0 = infer(base, [make_claim(base, p, w) for p, w in claims])
    p1 = infer(ones, [make_claim(ones, p, w) for p, w in claims])
    p2 = infer(base, [make_claim(base, p, w, claim_weight=1) for p, w in claims])
    np.testing.assert_array_equal(p0.joint, p1.joint)
    np.testing.assert_array_equal(p0.joint, p2.joint)
    # and a weight below 1 does change it
    half = setup_of(model={"lambda": 0.7, "claim_weight": 0.5})
    ph = infer(half, [make_claim(half, p, w) for p, w in claims])
    assert np.max(np.abs(np.log(ph.joint) - np.log(p0.joint))) > 1.0


def test_private_spy_location_belief_is_tempered():
    """As the spy, my location belief is P(N | S = me, claims) with the claims tempered: the
    enumeration's column of me, renormalised; a smaller w keeps it less sharp."""
    obj = dict(me="A", my_role={"spy": True})
    ev = [("B", [1, 0, 0, 0]), ("C", [1, 0.5, 0, 0]), ("A", [0, 0.5, 1, 0])]
    top = []
    for w in (1.0, 0.3):
        setup = setup_of(model={"claim_weight": w}, **obj)
        events = [make_claim(setup, p, c) for p, c in ev]
        post = infer(setup, events)
        ref = tempered_enumeration(setup, events)[:, 0]
        np.testing.assert_allclose(list(post.private_location.values()), ref / ref.sum(),
                                   atol=1e-9)
        top.append(post.private_location["L0"])
    assert top[1] < top[0]


def test_claim_weight_schema_round_trip_and_errors():
    s = setup_of(model={"claim_weight": 0.3, "players": {"B": {"claim_weight": 0.8}}})
    assert list(s.claim_weights()) == [0.3, 0.8, 0.3]
    assert Setup.from_json(s.to_json()) == s
    assert s.to_json()["model"]["claim_weight"] == 0.3
    assert "claim_weight" not in setup_of().to_json()["model"]   # old files stay as they were
    ev = make_claim(s, "A", {"L1": 1}, claim_weight=1)
    assert ev.to_json()["claim_weight"] == 1
    assert make_claim(s, "A", {"L1": 1}).to_json().get("claim_weight") is None
    for bad in (0, -0.1, 1.5, "x"):
        with pytest.raises(SessionFormatError) as e:
            setup_of(model={"claim_weight": bad})
        assert e.value.path == "$.setup.model.claim_weight"
    with pytest.raises(SessionFormatError) as e:
        setup_of(model={"players": {"C": {"claim_weight": 2}}})
    assert e.value.path == "$.setup.model.players.C.claim_weight"
    with pytest.raises(SessionFormatError) as e:
        make_claim(s, "A", {"L1": 1}, claim_weight=0)
    assert e.value.path == "$.claim_weight"


# -- one grid claim cannot move the spy log-odds further than its tempered evidence ----------
def spy_log_odds(p):
    """log p - log(1 - p) of marginals p (any shape)."""
    p = np.clip(np.asarray(p, float), 1e-300, 1.0)
    return np.log(p) - np.log1p(-np.minimum(p, 1 - 1e-16))


def spy_log_odds_of_joint(joint):
    """log P(S = k) - log P(S != k) for every k, from the joint (n, s): the complement is summed
    from its own worlds, not taken as 1 - p, which loses every digit when p is within 1e-12 of 1
    (a case hypothesis found)."""
    joint = np.clip(np.asarray(joint, float), 1e-300, None)
    mass = joint.sum(0)
    return np.log(mass) - np.log(np.array([np.delete(mass, k).sum() for k in range(mass.size)]))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(history=st.lists(st.tuples(st.integers(0, 2), grid_claims), min_size=0, max_size=4),
       last=st.tuples(st.integers(0, 2), grid_claims),
       w=st.sampled_from([0.02, 0.05, 0.1, 0.3, 1.0]))
def test_one_grid_claim_moves_spy_log_odds_at_most_w_times_its_evidence_range(history, last, w):
    """For every player k, |Δ log-odds(S = k)| <= w·(max_h log p(C | h) − min_h log p(C | h)):
    the tempered Bayes factor of any event lies between the extreme tempered likelihood ratios."""
    from engines.spyfall.inference import BeliefTracker

    setup = setup_of(model={"claim_weight": w})
    events = [make_claim(setup, "ABC"[j], c) for j, c in history + [last]]
    last = ("ABC"[last[0]], last[1])
    before = infer(setup, events[:-1]).joint
    after = infer(setup, events).joint
    # the claim's untempered log-likelihood under each hypothesis (l, k)
    tr = BeliefTracker(4, 3, setup.betas(), setup.lambdas(), setup.strategies())
    for e in events[:-1]:
        tr.add_claim("ABC".index(e.player), e.vector)
    j = "ABC".index(last[0])
    L0 = tr._model_log_joint()
    tr.add_claim(j, events[-1].vector)
    ell = tr._model_log_joint() - L0
    bound = w * (ell.max() - ell.min())
    moved = np.abs(spy_log_odds_of_joint(after) - spy_log_odds_of_joint(before))
    assert np.all(moved <= bound + 1e-6)


def test_issue_example_grid_claims_stay_moderate_with_the_calibrated_weight():
    """The table of the report: Ann (me, Beach) claims "Beach 1, Day Spa ½, Hotel ½", then Bob
    "Casino 1". With w = 1 the public is certain Ann is not the spy and then flips to Casino; with
    the tab's default (calibrated) w no one claim moves a player's spy log-odds by more than the
    calibration study's 99th percentile of one-claim moves (resources/spyfall/calibration.json)."""
    from engines.spyfall import default_setup
    from engines.spyfall.calibration import load_calibration

    cal = load_calibration()["default"]
    d = default_setup()
    w = d.claim_weight
    assert w == cal["best_w"] < 1
    p99 = cal["max_step_log_odds_p99"][cal["w"].index(w)]
    raw = Setup.from_json({**d.to_json(), "model": {**d.to_json()["model"], "claim_weight": 1}})
    claims = [("Ann", {"Beach": 1, "Day Spa": 0.5, "Hotel": 0.5}), ("Bob", {"Casino": 1})]
    for setup, tempered in ((d, True), (raw, False)):
        events = [make_claim(setup, p, c) for p, c in claims]
        # the public spy belief after 0..T claims (one posterior per prefix, as the timeline asks)
        hist = np.array([[infer(setup, events[:k]).spy[p] for p in setup.players]
                         for k in range(len(events) + 1)])
        steps = np.abs(np.diff(spy_log_odds(hist), axis=0))
        if tempered:
            assert steps.max() <= p99
            post = infer(setup, events)
            assert max(post.location.values()) < 0.9
            assert max(post.spy.values()) < 0.9
            assert max(post.contribution_bits.values()) < 5
        else:
            assert steps.max() > 3 * p99  # “Spyfall with Pyro”'s density reads the clicks as near-proof


# -- the zero-sum solver --------------------------------------------------------------------
def test_matching_pennies_and_a_known_mixed_game():
    from engines.spyfall.equilibrium import solve_matrix_game

    x, y, v = solve_matrix_game([[1, 0], [0, 1]])
    np.testing.assert_allclose(x, [0.5, 0.5], atol=1e-9)
    np.testing.assert_allclose(y, [0.5, 0.5], atol=1e-9)
    assert v == pytest.approx(0.5)
    # [[3, -1], [-2, 1]]: x = (3/7, 4/7), y = (2/7, 5/7), value 1/7 (solved by hand)
    x, y, v = solve_matrix_game([[3, -1], [-2, 1]])
    np.testing.assert_allclose(x, [3 / 7, 4 / 7], atol=1e-9)
    np.testing.assert_allclose(y, [2 / 7, 5 / 7], atol=1e-9)
    assert v == pytest.approx(1 / 7)
    # a saddle point and a dominated row
    x, y, v = solve_matrix_game([[0.3, 0.5], [0.2, 0.1], [0.25, 0.05]])
    np.testing.assert_allclose(x, [1, 0, 0], atol=1e-9)
    np.testing.assert_allclose(y, [1, 0], atol=1e-9)
    assert v == pytest.approx(0.3)
    with pytest.raises(ValueError):
        solve_matrix_game([[np.nan, 1]])


@settings(max_examples=25, deadline=None)
@given(st.lists(st.lists(st.floats(0, 1), min_size=3, max_size=3), min_size=2, max_size=4))
def test_zero_sum_solution_is_an_equilibrium(rows):
    """Neither side gains by a pure deviation, and the two LPs give one value."""
    from engines.spyfall.equilibrium import solve_matrix_game

    A = np.array(rows)
    x, y, v = solve_matrix_game(A)
    assert abs(x.sum() - 1) < 1e-9 and abs(y.sum() - 1) < 1e-9
    assert np.all(x @ A >= v - 1e-7)      # every column reply leaves the row player >= v
    assert np.all(A @ y <= v + 1e-7)      # every row reply leaves it <= v


def test_recommendation_follows_the_stored_equilibrium(monkeypatch):
    """Without a replication, my recommended claim is the mean claim of my side's stored
    equilibrium mix: as a non-spy before any claim, γ_i = β((1 − λ_i)·1 + λ_i·e_l), so the
    weight on my location is Σ_i p_i / (n(1 − λ_i) + λ_i)."""
    from engines.spyfall import default_setup, recommend, replication
    from engines.spyfall.equilibrium import equilibrium_strategy

    monkeypatch.setattr(replication, "load_replication", lambda: None)
    d = default_setup()
    rec = recommend(d, [])
    mix = equilibrium_strategy("non_spy")
    assert [{k: m[k] for k in ("lambda", "strategy", "probability")} for m in rec.strategy] == mix
    assert all(m["replicated"] is False for m in rec.strategy)
    assert abs(sum(m["probability"] for m in mix) - 1) < 1e-9
    n = d.n_locations
    # before any claim the dynamic rule has nothing to react to: γ = β((1−λ)·1 + λ e_l)
    expect = sum(m["probability"] / (n * (1 - m["lambda"]) + m["lambda"]) for m in mix)
    assert rec.claim[d.my_location] == pytest.approx(expect)
    assert rec.call_vote is False
    spy = Setup.from_json({**d.to_json(), "my_role": {"spy": True}})
    rs = recommend(spy, [])
    assert [{k: m[k] for k in ("lambda", "strategy", "probability")}
            for m in rs.strategy] == equilibrium_strategy("spy")
    np.testing.assert_allclose(list(rs.claim.values()), 1 / n)  # Q is uniform: a flat claim
    # the game's early vote: a non-spy whose spy belief reaches the threshold is told to call it
    from engines.spyfall.equilibrium import early_vote_threshold

    soft = [make_claim(d, "Bob", {"Casino": 1})]                   # one grid claim: w = 0.05
    exact = [make_claim(d, "Bob", {"Casino": 1}, claim_weight=1)] * 2  # typed as exact: w = 1
    r_soft, r_exact = recommend(d, soft), recommend(d, exact)
    assert (r_soft.accuse_probability or 0) < early_vote_threshold() and r_soft.call_vote is False
    assert r_exact.accuse == "Bob" and r_exact.accuse_probability >= early_vote_threshold()
    assert r_exact.call_vote is True


# -- the study's pieces ------------------------------------------------------------------------
def test_grid_claim_rounds_like_worksheet_clicks():
    from engines.spyfall.calibration import grid_claim

    # scaled to max 1: [1, 0.417, 0.167, 0.083] -> clicks [1, ½, 0, 0] -> [2/3, 1/3, ~0, ~0]
    g = grid_claim([0.6, 0.25, 0.1, 0.05])
    np.testing.assert_allclose(g, [2 / 3, 1 / 3, 0, 0], atol=1e-5)
    assert g.min() > 0                                   # floored, never exactly 0
    # scaled [0.75, 1, 0.25, 0.667]: ties go up (0.75 -> 1, 0.25 -> ½), 0.667 -> ½
    np.testing.assert_allclose(grid_claim([0.3, 0.4, 0.1, 0.4 * 2 / 3]), [1 / 3, 1 / 3, 1 / 6, 1 / 6])


def test_calibration_store_matches_the_new_game_model():
    from engines.spyfall import default_setup
    from engines.spyfall.calibration import calibrated_claim_weight, load_calibration

    d = default_setup()
    cal = load_calibration()["default"]
    assert (cal["lambda"], cal["strategy"]) == (d.lam, d.strategy)
    assert d.claim_weight == calibrated_claim_weight()
    i = int(np.argmin(cal["log_loss"]))
    assert cal["w"][i] == cal["best_w"]
    assert cal["log_loss"][i] < cal["uniform_log_loss"] < cal["log_loss"][-1]  # w = 1 is worse than a guess


def test_calibration_score_on_a_few_games_prefers_a_small_weight():
    from engines.spyfall.calibration import bot_games, score

    games = bot_games(12, players=4, locations=8, rounds=3, lam=0.7, seed=3)
    res = score(games, (0.05, 1.0), 8, 4, 5.0, 0.7, "flat")
    assert res["best_w"] == 0.05 and res["log_loss"][0] < res["log_loss"][1]
    assert all(np.isfinite(res["log_loss"]))
    rel = res["reliability"]["best"]
    assert sum(r["count"] for r in rel) == 12 * 12 * 4       # games × claims × players
    assert all(r["ci95"][0] <= r["observed"] <= r["ci95"][1] for r in rel)


def test_simulation_variants_early_vote_and_a_deviating_spy():
    from engines.spyfall.simulate import SimConfig, play_game

    base = SimConfig(players=4, locations=6, games=1, seats=("flat",) * 4, workers=1)
    r0 = play_game(base, 0)
    assert r0["turns"] == 20
    early = play_game(SimConfig(**{**base.__dict__, "vote_threshold": 1e-9}), 0)
    assert early["turns"] == 1 and early["location"] == r0["location"] and early["spy"] == r0["spy"]
    assert np.all(early["ig"][1:] == 0) and np.all(early["p_spy"][2:] == early["p_spy"][1])
    noisy = play_game(SimConfig(**{**base.__dict__, "spy_lam": 0.0}), 0)
    assert noisy["spy"] == r0["spy"]
    assert not np.allclose(noisy["p_spy"], r0["p_spy"])      # the spy's claims changed
    for bad, path in (({"vote_threshold": 0.0}, "--vote-threshold"), ({"vote_on": "x"}, "--vote-on"),
                      ({"spy_lam": 1.0}, "--spy-lambda"), ({"spy_strategy": "x"}, "--spy-strategy")):
        with pytest.raises(SessionFormatError) as e:
            SimConfig(**{**base.__dict__, **bad}).validate()
        assert e.value.path == path


def test_payoff_matrix_cells_carry_wilson_intervals():
    from engines.spyfall.equilibrium import payoff_matrix, solve, wilson_ci

    m = payoff_matrix(games=6, workers=1, non_spy=((0.3, "flat"),), spy=((0.0, "flat"), (0.7, "flat")))
    assert m["rate"].shape == (1, 2)
    for c in m["cells"]:
        assert tuple(c["ci95"]) == wilson_ci(c["non_spy_wins"], 6)
    assert np.all(m["low"] <= m["rate"]) and np.all(m["rate"] <= m["high"])
    eq = solve(m, ((0.3, "flat"),), ((0.0, "flat"), (0.7, "flat")))
    assert eq["value"] == pytest.approx(m["rate"].min())       # one row: the spy picks the minimum
    assert eq["value_ci95"][0] <= eq["value"] <= eq["value_ci95"][1]
    assert wilson_ci(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(speakers=st.lists(st.integers(0, 2), min_size=1, max_size=6),
       weights=st.lists(grid_claims, min_size=6, max_size=6),
       w=st.sampled_from([0.05, 0.3, 1.0]), me_spy=st.booleans())
def test_dynamic_tables_exact_equals_the_per_world_reference_with_weights(speakers, weights, w, me_spy):
    """Dynamic hide-reveal reads the untempered public beliefs: the factorised engine and the
    per-world scipy reference agree for every w, including my private beliefs."""
    setup = setup_of(model={"strategy": "dynamic", "claim_weight": w}, me="A",
                     my_role={"spy": True} if me_spy else {"location": "L1"})
    events = [make_claim(setup, "ABC"[j], c) for j, c in zip(speakers, weights)]
    a = infer(setup, events, method="exact")
    b = infer(setup, events, method="enumeration")
    np.testing.assert_allclose(a.joint, b.joint, atol=1e-9, rtol=1e-7)
    for k in range(len(events) + 1):     # my private beliefs after every prefix
        pa, pb = infer(setup, events[:k], method="exact"), infer(setup, events[:k], method="enumeration")
        for field in ("private_location", "private_spy"):
            np.testing.assert_allclose([getattr(pa, field)[x] for x in getattr(pa, field)],
                                       [getattr(pb, field)[x] for x in getattr(pa, field)], atol=1e-9)
