"""Spyfall claim weight (tempered likelihood), its calibration and the hide-reveal equilibrium.

References: a direct tempered enumeration written here from the formula
P(l, k | claims) ∝ Π_t p(C_t | l, k)^{w_t}, with the spy's Q from the untempered claims of the
others (the emission model is untouched by w); matching pennies for the zero-sum solver.
"""
import json

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.stats import dirichlet

from engines.core.errors import SessionFormatError
from engines.spyfall import Setup, infer, make_claim
from engines.spyfall.model import Claim


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
