"""Cluedo engine: brute-force enumeration is the reference for exact counting and marginals;
center and Monte Carlo within their error; contradictions; schema; CLI; recommendation."""
import itertools
import json
import math
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines import cluedo
from engines.cluedo.inference import constraints_for
from engines.cluedo.recommend import suggestion_outcomes
from engines.cluedo.simulate import play_suggestion, random_deal
from engines.core.errors import Cancelled, ContradictionError, SessionFormatError
from engines.core.info import mutual_information_bits
from engines.core.resources import resource_path
from engines.core.schema import parse_session, read_session_file

SMALL = {"suspect": ["a", "b", "c"], "weapon": ["d", "e", "f"], "room": ["g", "h", "i", "j"]}


def small_setup(n_players=3, sizes=None):
    names = ["P", "Q", "R", "S"][:n_players]
    obj = {"categories": SMALL, "players": names, "me": "P"}
    if sizes:
        obj["hand_sizes"] = dict(zip(names, sizes))
    return cluedo.Setup.from_json(obj)


def all_deals(setup):
    """Every deal of the small deck, one by one: int array (D, n_cards) of owner indices
    (an envelope card per category, then every arrangement of the hand labels)."""
    k = len(setup.players)
    n = len(setup.cards)
    labels = [p for p, h in enumerate(setup.hand_sizes) for _ in range(h)]
    arrangements = sorted(set(itertools.permutations(labels)))
    rows = []
    offsets = np.cumsum([0] + [len(d) for _, d in setup.categories])
    for env in itertools.product(*[range(len(d)) for _, d in setup.categories]):
        env_idx = [offsets[j] + e for j, e in enumerate(env)]
        rest = [c for c in range(n) if c not in env_idx]
        for arr in arrangements:
            own = np.empty(n, dtype=np.int64)
            own[env_idx] = k
            own[rest] = arr
            rows.append(own)
    return np.array(rows)


_DEALS = {}


def deals_of(setup):
    key = (setup.players, setup.hand_sizes)
    if key not in _DEALS:
        _DEALS[key] = all_deals(setup)
    return _DEALS[key]


def consistent_mask(setup, deals, events):
    """Which deals satisfy the events, checked directly from the events' meaning (not through
    the engine's constraint compiler)."""
    ci = {c: i for i, c in enumerate(setup.cards)}
    pi = {p: i for i, p in enumerate(setup.players)}
    k = len(setup.players)
    ok = np.ones(len(deals), dtype=bool)
    for ev in events:
        if isinstance(ev, cluedo.HandEvent):
            for c in ev.cards:
                ok &= deals[:, ci[c]] == pi[ev.player]
        elif isinstance(ev, cluedo.ShownEvent):
            ok &= deals[:, ci[ev.card]] == pi[ev.player]
        elif isinstance(ev, cluedo.LacksEvent):
            ok &= deals[:, ci[ev.card]] != pi[ev.player]
        elif isinstance(ev, cluedo.SuggestionEvent):
            idx = [ci[c] for c in ev.cards]
            for p in ev.passed:
                ok &= np.all(deals[:, idx] != pi[p], axis=1)
            if ev.refuter is not None:
                ok &= np.any(deals[:, idx] == pi[ev.refuter], axis=1)
                if ev.shown:
                    ok &= deals[:, ci[ev.shown]] == pi[ev.refuter]
        elif isinstance(ev, cluedo.AccusationEvent):
            inenv = np.all(deals[:, [ci[c] for c in ev.cards]] == k, axis=1)
            ok &= inenv if ev.correct else ~inenv
    return ok


def brute(setup, events):
    deals = deals_of(setup)
    ok = consistent_mask(setup, deals, events)
    z = int(ok.sum())
    k = len(setup.players)
    m = np.zeros((len(setup.cards), k + 1))
    for o in range(k + 1):
        m[:, o] = (deals[ok] == o).sum(axis=0)
    return z, m / max(z, 1)


def fixed_log(setup):
    return [cluedo.SuggestionEvent(suggester="P", cards=("a", "d", "g"), passed=("Q",), refuter="R", shown=None),
            cluedo.SuggestionEvent(suggester="Q", cards=("b", "e", "h"), passed=(), refuter="R", shown=None),
            cluedo.LacksEvent(player="P", card="c"),
            cluedo.AccusationEvent(player="Q", cards=("a", "e", "i")),
            cluedo.SuggestionEvent(suggester="R", cards=("c", "f", "j"), passed=(), refuter="P", shown=None),
            cluedo.SuggestionEvent(suggester="P", cards=("b", "f", "i"), passed=(), refuter="Q", shown="i")]


# --- known answers from Agade09's Cluedo_Sheet and closed forms -------------------------------------------------
def test_seed_three_player_count_and_uniform_prior():
    # Agade09's Cluedo_Sheet: 6 x 6 x 9 envelopes and 18 cards dealt; with hands of 6 the deals number
    # 324 * 18! / (6!)^3 (Agade09's Cluedo_Sheet's 3^18 ignores the hand sizes).
    s = cluedo.Setup.from_json({"edition": "cluedo-uk", "players": ["A", "B", "C"], "me": "A"})
    post = cluedo.infer(s, [])
    assert post.consistent_deals == 324 * math.factorial(18) // math.factorial(6) ** 3 == 5557616064
    assert post.probability("Hall", "envelope") == pytest.approx(1 / 9, abs=1e-12)
    assert post.probability("Rope", "B") == pytest.approx((1 - 1 / 6) / 3, abs=1e-12)
    assert post.envelope_entropy_bits() == pytest.approx(2 * math.log2(6) + math.log2(9), abs=1e-9)


def test_master_detective_count_is_exact_big_integer():
    s = cluedo.Setup.from_json({"edition": "clue-master-detective", "players": list("ABCDEFGH"), "me": "A"})
    assert s.hand_sizes == (4, 4, 4, 3, 3, 3, 3, 3) or sorted(s.hand_sizes) == [3] * 5 + [4] * 3
    post = cluedo.infer(s, [cluedo.HandEvent(player="A", cards=s.cards[:s.hand_sizes[0]])])
    h = list(s.hand_sizes)
    expected = (10 - h[0]) * 8 * 12 * math.factorial(27 - h[0])  # my cards are suspects
    for x in h[1:]:
        expected //= math.factorial(x)
    assert isinstance(post.consistent_deals, int) and post.consistent_deals == expected
    assert post.consistent_deals > 2 ** 53
    np.testing.assert_allclose(post.matrix.sum(axis=1), 1.0, atol=1e-12)


def test_editions_and_deal():
    eds = cluedo.load_editions()
    assert set(eds) == {"cluedo-uk", "cluedo-de", "cluedo-fr", "clue-us", "clue-orchid", "clue-master-detective"}
    md = eds["clue-master-detective"]["categories"]
    assert (len(md["suspect"]), len(md["weapon"]), len(md["room"])) == (10, 8, 12)
    assert "Dr. Orchid" in eds["clue-orchid"]["categories"]["suspect"]
    assert "Miss Scarlett" in eds["cluedo-uk"]["categories"]["suspect"]
    assert cluedo.deal_hand_sizes(4, 18, 3) == [5, 5, 4, 4]
    assert cluedo.deal_hand_sizes(4, 18, 0) == [4, 5, 5, 4]
    assert cluedo.deal_hand_sizes(5, 18, 4) == [4, 4, 4, 3, 3]
    s = cluedo.Setup.from_json({"edition": "cluedo-uk", "players": ["A", "B", "C", "D"], "dealer": "A", "me": "B"})
    assert s.hand_sizes == (4, 5, 5, 4)
    assert cluedo.Setup.from_json(s.to_json()) == s
    assert s.owners == ("A", "B", "C", "D", "envelope") and len(s.cards) == 21
    assert s.category_of("Hall") == "room"


# --- exact equals brute force ----------------------------------------------------------------------
@pytest.mark.parametrize("n_players,sizes", [(3, None), (4, None), (3, (4, 2, 1))])
def test_exact_equals_brute_force_on_fixed_log(n_players, sizes):
    setup = small_setup(n_players, sizes)
    events = fixed_log(setup) if n_players == 3 else fixed_log(setup)[:4]
    for m in range(len(events) + 1):
        z, ref = brute(setup, events[:m])
        if z == 0:
            with pytest.raises(ContradictionError):
                cluedo.infer(setup, events[:m])
            continue
        post = cluedo.infer(setup, events[:m])
        assert post.consistent_deals == z
        np.testing.assert_allclose(post.matrix, ref, atol=1e-12, rtol=0)


@st.composite
def game_logs(draw):
    n_players = draw(st.sampled_from([3, 4]))
    setup = small_setup(n_players)
    seed = draw(st.integers(0, 2 ** 31 - 1))
    rng = np.random.default_rng(seed)
    deal = random_deal(setup, rng)
    events = []
    (_, S), (_, W), (_, R) = setup.categories
    for _ in range(draw(st.integers(0, 9))):
        kind = draw(st.sampled_from(["suggestion", "suggestion", "suggestion", "shown", "lacks", "accusation", "hand"]))
        if kind == "suggestion":
            p = int(rng.integers(n_players))
            trip = (S[rng.integers(3)], W[rng.integers(3)], R[rng.integers(4)])
            events.append(play_suggestion(setup, deal, p, trip, rng, reveal=bool(rng.integers(2))))
        elif kind in ("shown", "lacks"):
            c = int(rng.integers(len(setup.cards)))
            if kind == "shown" and deal[c] < n_players:
                events.append(cluedo.ShownEvent(player=setup.players[deal[c]], card=setup.cards[c]))
            elif kind == "lacks":
                p = int(rng.integers(n_players))
                if deal[c] != p:
                    events.append(cluedo.LacksEvent(player=setup.players[p], card=setup.cards[c]))
        elif kind == "hand":
            p = int(rng.integers(n_players))
            events.append(cluedo.HandEvent(player=setup.players[p], cards=tuple(
                c for c, o in zip(setup.cards, deal) if o == p)))
        else:
            trip = (S[rng.integers(3)], W[rng.integers(3)], R[rng.integers(4)])
            truth = all(deal[setup.cards.index(c)] == n_players for c in trip)
            events.append(cluedo.AccusationEvent(player=setup.players[0], cards=trip, correct=bool(truth)))
    return setup, deal, events


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_logs())
def test_random_consistent_logs_match_brute_force(case):
    setup, deal, events = case
    z, ref = brute(setup, events)
    assert z > 0
    post = cluedo.infer(setup, events)
    assert post.consistent_deals == z
    np.testing.assert_allclose(post.matrix, ref, atol=1e-12, rtol=0)
    np.testing.assert_allclose(post.matrix.sum(axis=1), 1.0, atol=1e-12)
    assert np.all(post.matrix[np.arange(len(deal)), deal] > 0)       # the true deal has mass
    assert np.all(np.isfinite(post.matrix))
    summary = cluedo.belief_summary(setup, post)
    assert set(summary) == {f"envelope:{c}" for c in setup.cards} | {"envelope_entropy_bits"}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_logs())
def test_every_implicit_resource_choice_matches_brute_force(case):
    # The DP keeps one hand or envelope slot out of its state (its remaining capacity follows
    # from the others) and may search card orders. Whichever count resource is left implicit (or
    # none), in whichever order, the count, the marginals and the sampler's support must be those
    # of brute force.
    import dataclasses

    from engines.cluedo import counting

    setup, deal, events = case
    z, ref = brute(setup, events)
    comp = counting.propagate(constraints_for(setup, events))
    k = len(setup.players)
    cands = [None] + [r for r in range(k + 3) if comp.touched[r]]
    assert comp.implicit in cands
    deals = deals_of(setup)
    ok = consistent_mask(setup, deals, events)
    truth = {tuple(d) for d in deals[ok]}
    args = (comp.free, comp.choices, comp.sizes, comp.touched)
    rng = np.random.default_rng(1)
    for r in cands:
        # the order used, and randomised greedy orders as the order search tries them
        orders = [counting._order(*args, r)] + [counting._greedy_order(*args, r, rng) for _ in range(2)] \
            + [counting._local_search(list(reversed(comp.free)), comp.choices, comp.sizes, r)]
        for order in orders:
            assert sorted(order) == sorted(comp.free)
            alt = dataclasses.replace(comp, implicit=r, free=order)
            res = counting.count_deals(alt, keep_backward=True)
            assert res.count == z
            np.testing.assert_allclose(res.marginal / res.count_float, ref, atol=1e-12, rtol=0)
            sample = res.sample(50, np.random.default_rng(0))
            assert all(tuple(d) in truth for d in sample)


@st.composite
def accusation_logs(draw):
    """A random small deal, a few refutations and passes, and up to five failed accusations
    (triples that are not the envelope; some share cards, some cards may be known)."""
    n_players = draw(st.sampled_from([3, 4]))
    setup = small_setup(n_players)
    rng = np.random.default_rng(draw(st.integers(0, 10**6)))
    deal = random_deal(setup, rng)
    (_, S), (_, W), (_, R) = setup.categories
    events = []
    for _ in range(draw(st.integers(0, 3))):
        trip = (S[rng.integers(3)], W[rng.integers(3)], R[rng.integers(4)])
        events.append(play_suggestion(setup, deal, int(rng.integers(n_players)), trip, rng,
                                      reveal=bool(rng.integers(2))))
    if draw(st.booleans()):
        c = setup.cards[int(rng.integers(len(setup.cards)))]
        events.append(cluedo.LacksEvent(player=setup.players[0], card=c) if deal[setup.cards.index(c)] != 0
                      else cluedo.ShownEvent(player=setup.players[0], card=c))
    for _ in range(draw(st.integers(1, 5))):
        trip = (S[rng.integers(3)], W[rng.integers(3)], R[rng.integers(4)])
        if not all(deal[setup.cards.index(c)] == n_players for c in trip):
            events.append(cluedo.AccusationEvent(player=setup.players[int(rng.integers(n_players))], cards=trip))
    return setup, deal, events


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(accusation_logs())
def test_failed_accusations_by_inclusion_exclusion_match_brute_force(case):
    # Failed accusations are counted by inclusion-exclusion over "the envelope is this
    # accusation" (one DP per term) instead of clause axes; count and marginals must be those
    # of brute force and of the DP with every clause in it.
    from engines.cluedo import counting

    setup, deal, events = case
    z, ref = brute(setup, events)
    comp = counting.propagate(constraints_for(setup, events))
    res = counting.count_deals(comp)
    assert res.count == z
    np.testing.assert_allclose(res.marginal / res.count_float, ref, atol=1e-12, rtol=0)
    direct = counting._count_deals(comp, None, True, False)
    assert direct.count == z
    np.testing.assert_allclose(res.marginal, direct.marginal, rtol=1e-12, atol=1e-9)
    assert res.count == counting.count_deals(comp, marginals=False).count
    sample = counting.count_deals(comp, keep_backward=True).sample(20, np.random.default_rng(0))
    ok = consistent_mask(setup, sample, events)
    assert ok.all()


def test_failed_accusations_use_inclusion_exclusion_terms():
    """Whole failed accusations are recognised as envelope-only clauses (one term each)."""
    from engines.cluedo import counting

    setup = small_setup(3)
    events = [cluedo.AccusationEvent(player="Q", cards=("a", "d", "g")),
              cluedo.AccusationEvent(player="R", cards=("b", "d", "h"))]
    comp = counting.propagate(constraints_for(setup, events))
    env = counting._envelope_clauses(comp)
    assert sorted(cards for cards, _ in env.values()) == [(0, 3, 6), (1, 3, 7)]
    z, _ = brute(setup, events)
    assert counting.count_deals(comp).count == z


def test_order_local_search_scores_orders_like_the_cost_model():
    """The batch scoring of the order local search equals the one-order cost model on random
    orders of a Master Detective position with clauses, and the searched order is no worse than
    the greedy one and counts the same deals with the same marginals."""
    import dataclasses

    from engines.cluedo import counting

    names = ["Me"] + [f"P{i}" for i in range(1, 10)]
    setup = cluedo.Setup.from_json({"edition": "clue-master-detective", "players": names, "me": "Me"})
    rng = np.random.default_rng(7)
    deal = random_deal(setup, rng)
    events = [cluedo.HandEvent(player="Me", cards=tuple(c for c, o in zip(setup.cards, deal) if o == 0))]
    (_, S), (_, W), (_, R) = setup.categories
    for t in range(14):
        trip = (S[rng.integers(len(S))], W[rng.integers(len(W))], R[rng.integers(len(R))])
        events.append(play_suggestion(setup, deal, t % 10, trip, rng, reveal=(t % 10 == 0)))
    comp = counting.propagate(constraints_for(setup, events))
    a = (comp.choices, comp.sizes, comp.touched, comp.implicit)
    cols = sorted({rr for c in comp.free for _, r, qs in comp.choices[c] for rr in (r, *qs)} - {comp.implicit})
    member = np.array([[any(rr == col for _, r, qs in comp.choices[c] for rr in (r, *qs)) for col in cols]
                       for c in comp.free])
    logs = np.log([comp.sizes[r] for r in cols])
    weight = np.array([len(comp.choices[c]) + 2 for c in comp.free], dtype=float)
    perms = np.array([rng.permutation(len(comp.free)) for _ in range(5)])
    got = counting._batch_cost(perms, member, logs, weight)
    want = [counting._order_cost([comp.free[i] for i in p], *a) for p in perms]
    np.testing.assert_allclose(got, want, rtol=1e-9)
    greedy = counting._greedy_order(comp.free, *a)
    searched = counting._local_search(greedy, comp.choices, comp.sizes, comp.implicit)
    assert sorted(searched) == sorted(comp.free)
    assert counting._order_cost(searched, *a) <= counting._order_cost(greedy, *a)
    r1 = counting.count_deals(dataclasses.replace(comp, free=greedy))
    r2 = counting.count_deals(dataclasses.replace(comp, free=searched))
    assert r1.count == r2.count > 0
    np.testing.assert_allclose(r2.marginal, r1.marginal, rtol=1e-12)


def _overlapping_clause_log():
    # card "a" at R in three refutation clauses, at every player in an accusation clause:
    # one choice of the DP then satisfies up to four clauses at once
    return [cluedo.SuggestionEvent(suggester="P", cards=("a", "d", "g"), passed=("Q",), refuter="R", shown=None),
            cluedo.SuggestionEvent(suggester="Q", cards=("a", "e", "h"), passed=(), refuter="R", shown=None),
            cluedo.SuggestionEvent(suggester="P", cards=("a", "f", "i"), passed=(), refuter="R", shown=None),
            cluedo.AccusationEvent(player="Q", cards=("a", "e", "i")),
            cluedo.SuggestionEvent(suggester="R", cards=("b", "e", "j"), passed=(), refuter="P", shown=None)]


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_logs())
def test_modular_exact_count_matches_brute_force(case):
    # With the float threshold lowered to 2, every count goes through the forward pass modulo
    # 2**64 (uint64 wrap-around), and with the second threshold lowered also through the pass
    # modulo a prime (Chinese remainder theorem).
    from engines.cluedo import counting

    setup, deal, events = case
    saved = counting._EXACT_FLOAT, counting._ONE_RESIDUE_BELOW
    try:
        counting._EXACT_FLOAT = 2.0
        for below in (saved[1], 1.0):   # the uint64 residue alone; with a prime's residue (CRT)
            counting._ONE_RESIDUE_BELOW = below
            for evs in (events, _overlapping_clause_log()):
                z, _ = brute(setup, evs)
                res = counting.count_deals(counting.propagate(constraints_for(setup, evs)), marginals=False)
                assert res.count == z
    finally:
        counting._EXACT_FLOAT, counting._ONE_RESIDUE_BELOW = saved


def test_overlapping_clauses_match_brute_force():
    setup = small_setup(3)
    events = _overlapping_clause_log()
    z, ref = brute(setup, events)
    assert z > 0
    post = cluedo.infer(setup, events)
    assert post.consistent_deals == z
    np.testing.assert_allclose(post.matrix, ref, atol=1e-12, rtol=0)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_logs(), st.integers(0, 2 ** 31 - 1))
def test_contradiction_index_matches_brute_force(case, seed):
    setup, deal, events = case
    rng = np.random.default_rng(seed)
    # insert a random (possibly false) fact
    c = setup.cards[rng.integers(len(setup.cards))]
    p = setup.players[rng.integers(len(setup.players))]
    bad = cluedo.ShownEvent(player=p, card=c) if rng.integers(2) else cluedo.LacksEvent(player=p, card=c)
    events = list(events)
    events.insert(int(rng.integers(len(events) + 1)), bad)
    deals = deals_of(setup)
    first = len(events)
    for i in range(len(events)):
        if not consistent_mask(setup, deals, events[:i + 1]).any():
            first = i
            break
    assert cluedo.first_contradiction(setup, events) == first
    if first < len(events):
        with pytest.raises(ContradictionError) as err:
            cluedo.infer(setup, events)
        assert err.value.event_index == first


def test_contradiction_names_first_bad_event():
    s = cluedo.Setup.from_json({"edition": "cluedo-uk", "players": ["Me", "Ann", "Bob"], "me": "Me"})
    evs = [cluedo.ShownEvent(player="Ann", card="Rope"), cluedo.LacksEvent(player="Bob", card="Hall"),
           cluedo.ShownEvent(player="Bob", card="Rope"), cluedo.LacksEvent(player="Ann", card="Hall")]
    with pytest.raises(ContradictionError) as err:
        cluedo.infer(s, evs)
    assert err.value.event_index == 2 and "Bob has Rope" in err.value.message
    for method in ("center", "montecarlo"):
        with pytest.raises(ContradictionError) as err:
            cluedo.infer(s, evs, method=method)
        assert err.value.event_index == 2
    # nobody holds the three cards, so they are the envelope: a failed accusation of them contradicts
    evs = [cluedo.SuggestionEvent(suggester="Me", cards=("Mrs White", "Rope", "Hall"), passed=("Ann", "Bob"),
                                  refuter=None, shown=None),
           cluedo.LacksEvent(player="Me", card="Mrs White"), cluedo.LacksEvent(player="Me", card="Rope"),
           cluedo.LacksEvent(player="Me", card="Hall"),
           cluedo.AccusationEvent(player="Ann", cards=("Mrs White", "Rope", "Hall"), correct=False)]
    with pytest.raises(ContradictionError) as err:
        cluedo.infer(s, evs)
    assert err.value.event_index == 4


# --- approximate methods within their error ------------------------------------------------------
def test_montecarlo_within_standard_error():
    setup = small_setup(3)
    events = fixed_log(setup)
    z, ref = brute(setup, events)
    post = cluedo.infer(setup, events, method="montecarlo", samples=20000, seed=3)
    assert post.consistent_deals == z and post.method == "montecarlo"
    se = np.maximum(post.standard_error, 1e-4)
    assert np.all(np.abs(post.matrix - ref) <= 5 * se)
    np.testing.assert_allclose(post.matrix.sum(axis=1), 1.0, atol=1e-12)
    # cells that are impossible are never sampled, certain cells always
    assert np.all(post.matrix[ref == 0] == 0) and np.all(post.matrix[ref == 1] == 1)


def test_center_is_a_close_feasible_point():
    s = read_session_file(str(resource_path("examples", "cluedo.json")))
    exact = cluedo.infer(s.setup, s.events)
    center = cluedo.infer(s.setup, s.events, method="center")
    assert center.consistent_deals is None and center.method == "center"
    m = center.matrix
    np.testing.assert_allclose(m.sum(axis=1), 1.0, atol=1e-6)
    np.testing.assert_allclose(m[:, :-1].sum(axis=0), s.setup.hand_sizes, atol=1e-4)
    assert np.abs(m - exact.matrix).max() < 0.2
    assert np.all(m[exact.matrix == 1] > 1 - 1e-6) and np.all(m[exact.matrix == 0] < 1e-6)


def _late_game(n_players, seed, n_suggestions=30):
    names = ["Me"] + [f"P{i}" for i in range(1, n_players)]
    setup = cluedo.Setup.from_json({"edition": "cluedo-uk", "players": names, "me": "Me"})
    rng = np.random.default_rng(seed)
    deal = random_deal(setup, rng)
    events = [cluedo.HandEvent(player="Me", cards=tuple(c for c, o in zip(setup.cards, deal) if o == 0))]
    (_, S), (_, W), (_, R) = setup.categories
    for t in range(n_suggestions):
        trip = (S[rng.integers(len(S))], W[rng.integers(len(W))], R[rng.integers(len(R))])
        events.append(play_suggestion(setup, deal, t % n_players, trip, rng, reveal=(t % n_players == 0)))
    return setup, events


def test_center_has_no_solver_failure_late_in_the_game():
    """Random late-game positions (30 suggestions, 3-6 players), where the relaxed polytope has
    lost dimensions: the centre is taken in the face left after the forced variables, with no
    failure note, and it is a point of the relaxation close to the exact marginals."""
    for n_players in (3, 4, 5, 6):
        for seed in range(100, 106):
            setup, events = _late_game(n_players, seed)
            exact = cluedo.infer(setup, events)
            center = cluedo.infer(setup, events, method="center")
            assert center.note is None, (n_players, seed, center.note)
            m = center.matrix
            np.testing.assert_allclose(m.sum(axis=1), 1.0, atol=1e-6)
            np.testing.assert_allclose(m[:, :-1].sum(axis=0), setup.hand_sizes, atol=1e-4)
            assert np.all(m[exact.matrix > 0] > 1e-9)      # every deal is a relaxed point
            assert np.abs(m - exact.matrix).max() < 0.3


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_implicit_equalities_contain_every_deal(data):
    """The linear program's support (variables that can be positive in the relaxation) contains
    every cell some consistent deal uses (a deal is a relaxed point); a cell it calls forced is
    empty in every deal of brute-force enumeration."""
    from engines.cluedo.center import analytic_center
    from engines.cluedo.counting import propagate

    n_players = data.draw(st.sampled_from([3, 4]))
    setup = small_setup(n_players)
    log = fixed_log(setup) if n_players == 3 else fixed_log(setup)[:3]
    events = log[:data.draw(st.integers(0, len(log)))]
    z, ref = brute(setup, events)
    if z == 0:
        return
    m, note = analytic_center(setup, propagate(constraints_for(setup, events)))
    assert note is None
    assert np.all(m[ref > 0] > 1e-9)
    np.testing.assert_allclose(m.sum(axis=1), 1.0, atol=1e-6)


def test_cancel_is_honoured():
    s = cluedo.default_setup()
    with pytest.raises(Cancelled):
        cluedo.infer(s, [], cancel=lambda: True)


# --- schema, JSON, CLI ----------------------------------------------------------------------------
def test_event_json_round_trip_and_validation():
    s = cluedo.default_setup()
    objs = [{"type": "hand", "player": "Me", "cards": ["Rope", "Hall"]},
            {"type": "shown", "player": "Ann", "card": "Dagger"},
            {"type": "lacks", "player": "Bob", "card": "Study"},
            {"type": "suggestion", "suggester": "Me", "cards": ["Mrs White", "Rope", "Hall"],
             "passed": ["Ann"], "refuter": "Bob", "shown": "Hall"},
            {"type": "accusation", "player": "Cy", "cards": ["Mrs White", "Rope", "Hall"], "correct": False}]
    for o in objs:
        ev = cluedo.event_from_json(o, s, "$.e")
        assert ev.to_json() == o
        assert cluedo.describe_event(s, ev)
    bad = [({"type": "shown", "player": "Zed", "card": "Rope"}, "$.e.player"),
           ({"type": "shown", "player": "Ann", "card": "Spoon"}, "$.e.card"),
           ({"type": "suggestion", "suggester": "Me", "cards": ["Rope", "Mrs White", "Hall"]}, "$.e.cards[0]"),
           ({"type": "suggestion", "suggester": "Me", "cards": ["Mrs White", "Rope", "Hall"],
             "passed": ["Me"]}, "$.e.passed[0]"),
           ({"type": "suggestion", "suggester": "Me", "cards": ["Mrs White", "Rope", "Hall"],
             "refuter": "Ann", "shown": "Dagger"}, "$.e.shown"),
           ({"type": "hand", "player": "Me", "cards": ["Rope"] * 2}, "$.e.cards[1]")]
    for o, path in bad:
        with pytest.raises(SessionFormatError) as err:
            cluedo.event_from_json(o, s, "$.e")
        assert err.value.path == path


def test_setup_validation_paths():
    with pytest.raises(SessionFormatError) as err:
        cluedo.Setup.from_json({"edition": "cluedo-uk", "players": ["A", "B", "C"], "me": "A",
                                "hand_sizes": {"A": 6, "B": 6, "C": 5}})
    assert err.value.path == "$.setup.hand_sizes"
    with pytest.raises(SessionFormatError) as err:
        cluedo.Setup.from_json({"edition": "cluedo-uk", "players": list("ABCDEFG"), "me": "A"})
    assert err.value.path == "$.setup.players"
    with pytest.raises(SessionFormatError) as err:
        cluedo.Setup.from_json({"edition": "nope", "players": ["A", "B", "C"], "me": "A"})
    assert err.value.path == "$.setup.edition"
    assert len(cluedo.Setup.from_json({"edition": "clue-master-detective", "players": list("ABCDEFGHIJ"),
                                       "me": "A"}).players) == 10


def test_passers_between():
    s = cluedo.default_setup()   # Me, Ann, Bob, Cy
    assert cluedo.passers_between(s, "Ann", "Me") == ("Bob", "Cy")
    assert cluedo.passers_between(s, "Me", "Ann") == ()
    assert cluedo.passers_between(s, "Bob", None) == ("Cy", "Me", "Ann")
    with pytest.raises(SessionFormatError):
        cluedo.passers_between(s, "Ann", "Ann")


def test_example_session_round_trip_and_cli(tmp_path):
    path = resource_path("examples", "cluedo.json")
    obj = json.loads(path.read_text(encoding="utf-8"))
    s = parse_session(obj)
    assert len([e for e in s.events if isinstance(e, cluedo.SuggestionEvent)]) >= 10
    assert len(s.setup.players) == 4
    assert s.to_json() == obj
    out = subprocess.run([sys.executable, "-m", "engines", "infer", str(path), "--method", "exact"],
                         capture_output=True, text=True)
    assert out.returncode == 0
    res = json.loads(out.stdout)
    post = cluedo.infer(s.setup, s.events)
    assert res["game"] == "cluedo" and res["consistent_deals"] == post.consistent_deals
    assert res["probabilities"]["Hall"]["envelope"] == pytest.approx(post.probability("Hall", "envelope"))
    bad = tmp_path / "bad.json"
    obj2 = json.loads(json.dumps(obj))
    obj2["events"][1]["cards"][0] = "Spoon"
    bad.write_text(json.dumps(obj2), encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "engines", "infer", str(bad)], capture_output=True, text=True)
    assert out.returncode == 2 and "$.events[1].cards[0]" in out.stderr and "Traceback" not in out.stderr
    obj3 = json.loads(json.dumps(obj))
    mine = obj3["events"][0]["cards"][0]
    obj3["events"].append({"type": "shown", "player": "Ann", "card": mine})
    contra = tmp_path / "contra.json"
    contra.write_text(json.dumps(obj3), encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "engines", "infer", str(contra)], capture_output=True, text=True)
    assert out.returncode == 3 and f"event {len(obj3['events'])}" in out.stderr


# --- recommendation -------------------------------------------------------------------------------
def exact_gain_bits(setup, events, triple):
    """Brute force: sum over categories of I(envelope card; outcome) for my suggestion."""
    deals = deals_of(setup)
    ok = consistent_mask(setup, deals, events)
    d = deals[ok]
    ci = [setup.cards.index(c) for c in triple]
    rows, outs, wts, n_outs = suggestion_outcomes(setup, d, setup.me, ci)
    k = len(setup.players)
    total = 0.0
    start = 0
    for _, deck in setup.categories:
        lab = np.argmax(d[:, start:start + len(deck)] == k, axis=1)
        joint = np.zeros((len(deck), n_outs))
        np.add.at(joint, (lab[rows], outs), wts)
        total += mutual_information_bits(joint)
        start += len(deck)
    return total


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_exact_information_equals_brute_force(data):
    """The class decomposition (one exact count per outcome class) equals brute-force
    enumeration of the deals, for random logs, suggesters' seats and hand sizes."""
    from engines.cluedo.inference import constraints_for
    from engines.cluedo.recommend import exact_information_bits

    n_players = data.draw(st.sampled_from([3, 4]))
    setup = small_setup(n_players)
    log = fixed_log(setup) if n_players == 3 else fixed_log(setup)[:3]
    events = log[:data.draw(st.integers(0, len(log)))]
    cons = constraints_for(setup, events)
    total = float(sum(consistent_mask(setup, deals_of(setup), events)))
    if total == 0:
        return
    cats = setup.categories
    triple = tuple(data.draw(st.sampled_from(list(deck))) for _, deck in cats)
    ci = [setup.cards.index(c) for c in triple]
    got = exact_information_bits(setup, cons, total, setup.me, ci)
    assert got == pytest.approx(exact_gain_bits(setup, events, triple), abs=1e-9)


@settings(max_examples=20, deadline=None)
@given(data=st.data())
def test_every_suggestion_at_once_equals_brute_force(data):
    """The all-at-once outcome laws (clamped forward/backward messages) give, for every triple,
    the sum over categories of I(E_cat; O) and the joint I(E; O) of brute-force enumeration,
    for random logs, hand sizes, suggesters' seats and candidate subsets."""
    from engines.cluedo.counting import count_deals, propagate
    from engines.cluedo.outcomes import envelope_information

    n_players = data.draw(st.sampled_from([3, 4]))
    setup = small_setup(n_players)
    log = fixed_log(setup) if n_players == 3 else fixed_log(setup)[:3]
    events = log[:data.draw(st.integers(0, len(log)))]
    deals = deals_of(setup)
    d = deals[consistent_mask(setup, deals, events)]
    if len(d) == 0:
        return
    cons = constraints_for(setup, events)
    res = count_deals(propagate(cons.copy()), marginals=True)
    env = res.marginal[:, -1] / res.count_float
    seat = data.draw(st.integers(0, n_players - 1))
    cands = [[setup.cards.index(c) for c in deck] for _, deck in setup.categories]
    cands[2] = data.draw(st.sampled_from([cands[2], cands[2][1:2]]))
    got = envelope_information(res.comp, cons.cat_of, cands, seat, res.count_float, env, joint=True,
                               cons=cons if data.draw(st.booleans()) else None)
    k = n_players
    labels, start = [], 0
    for _, deck in setup.categories:
        labels.append((np.argmax(d[:, start:start + len(deck)] == k, axis=1), len(deck)))
        start += len(deck)
    full = (labels[0][0] * 3 + labels[1][0]) * 4 + labels[2][0]
    for i, s in enumerate(cands[0]):
        for j, w in enumerate(cands[1]):
            for l, r in enumerate(cands[2]):
                rows, outs, wts, n_outs = suggestion_outcomes(setup, d, setup.players[seat], (s, w, r))
                bits = []
                for lab, nl in labels + [(full, 36)]:
                    joint = np.zeros((nl, n_outs))
                    np.add.at(joint, (lab[rows], outs), wts)
                    bits.append(mutual_information_bits(joint))
                assert got["sum"][i, j, l] == pytest.approx(sum(bits[:3]), abs=1e-9)
                assert got["joint"][i, j, l] == pytest.approx(bits[3], abs=1e-9)


def test_classic_suggestions_at_once_equal_the_class_counts():
    """Classic deck mid-game: recommend's all-at-once values equal the per-suggestion class
    decomposition (one exact count per outcome class) for every suggestion in one room."""
    from engines.cluedo.counting import count_deals, propagate
    from engines.cluedo.recommend import exact_information_bits

    setup = cluedo.Setup.from_json({"edition": "cluedo-uk", "players": ["Me", "A", "B", "C", "D"], "me": "Me"})
    rng = np.random.default_rng(3)
    deal = random_deal(setup, rng)
    events = [cluedo.HandEvent(player="Me", cards=tuple(c for c, o in zip(setup.cards, deal) if o == 0))]
    (_, S), (_, W), (_, R) = setup.categories
    for t in range(12):
        trip = (S[rng.integers(len(S))], W[rng.integers(len(W))], R[rng.integers(len(R))])
        events.append(play_suggestion(setup, deal, t % 5, trip, rng, reveal=(t % 5 == 0)))
    rec = cluedo.recommend(setup, events, room=R[2])
    assert len(rec.exact) == len(rec.suggestions) == 36 and rec.samples == 0
    cons = constraints_for(setup, events)
    total = count_deals(propagate(cons.copy())).count_float
    for s, w, r, b in rec.suggestions:
        ci = [setup.cards.index(c) for c in (s, w, r)]
        assert b == pytest.approx(exact_information_bits(setup, cons, total, "Me", ci), abs=1e-9)
    assert max(b for *_, b in rec.suggestions) > 0.5


def test_recommendation_exact_values_and_budget():
    setup = small_setup(3)
    events = fixed_log(setup)[:3]
    rec = cluedo.recommend(setup, events, samples=500, seed=1, exact_seconds=None)
    assert len(rec.exact) == len(rec.suggestions) == 3 * 3 * 4
    bits = [b for *_, b in rec.suggestions]
    assert bits == sorted(bits, reverse=True)
    for s, w, r, b in rec.suggestions:
        assert b == pytest.approx(exact_gain_bits(setup, events, (s, w, r)), abs=1e-9)
    assert all(x["exact"] for x in rec.to_json()["suggestions"])
    est = cluedo.recommend(setup, events, samples=500, seed=1, exact_seconds=0)
    assert not est.exact and not any(x["exact"] for x in est.to_json()["suggestions"])


def test_recommendation_estimates_the_exact_information_gain():
    setup = small_setup(3)
    events = fixed_log(setup)[:3]
    rec = cluedo.recommend(setup, events, samples=20000, seed=1, exact_seconds=0)
    assert len(rec.suggestions) == 3 * 3 * 4
    bits = [b for *_, b in rec.suggestions]
    assert bits == sorted(bits, reverse=True)
    for s, w, r, b in rec.suggestions[:5] + rec.suggestions[-3:]:
        assert b == pytest.approx(exact_gain_bits(setup, events, (s, w, r)), abs=0.02)
    only_room = cluedo.recommend(setup, events, room="h", samples=2000)
    assert {r for _, _, r, _ in only_room.suggestions} == {"h"}
    assert rec.accusation is None


def test_recommendation_accusation_and_zero_gain_for_my_own_cards():
    s = cluedo.default_setup()
    evs = [cluedo.HandEvent(player="Me", cards=("Miss Scarlett", "Colonel Mustard", "Candlestick", "Kitchen",
                                                "Ballroom"))]
    rec = cluedo.recommend(s, evs, samples=1000)
    mine = [b for su, w, r, b in rec.suggestions if (su, w, r) == ("Miss Scarlett", "Candlestick", "Kitchen")]
    assert mine == [0.0]
    # everything but Plum, Rope, Study is placed: ready to accuse
    rest = [c for c in s.cards if c not in ("Professor Plum", "Rope", "Study") and c not in evs[0].cards]
    evs += [cluedo.ShownEvent(player="Ann", card=c) for c in rest[:5]] \
        + [cluedo.ShownEvent(player="Bob", card=c) for c in rest[5:9]] \
        + [cluedo.ShownEvent(player="Cy", card=c) for c in rest[9:]]
    rec = cluedo.recommend(s, evs, samples=100)
    assert rec.accusation == ("Professor Plum", "Rope", "Study") and rec.suggestions == []
    acc = json.loads(json.dumps(rec.to_json()))["accusation"]
    assert acc["triple"] == ["Professor Plum", "Rope", "Study"] and acc["certain"] and acc["advice"] == "accuse now"


def test_refute_advice_prefers_the_card_already_shown():
    s = cluedo.default_setup()
    hand = ("Miss Scarlett", "Rope", "Hall", "Kitchen", "Study")
    evs = [cluedo.HandEvent(player="Me", cards=hand),
           cluedo.SuggestionEvent(suggester="Ann", cards=("Mrs White", "Rope", "Lounge"), passed=(), refuter="Me",
                                  shown="Rope")]
    adv = cluedo.refute_advice(s, evs, "Ann", ("Miss Scarlett", "Rope", "Hall"))
    assert [c for c, _ in adv][0] == "Rope" and adv[0][1] == pytest.approx(0.0, abs=1e-12)
    assert {c for c, _ in adv} == {"Miss Scarlett", "Rope", "Hall"}
    assert all(b > 0 for _, b in adv[1:])
    assert cluedo.refute_advice(s, evs, "Ann", ("Mrs White", "Dagger", "Lounge")) == []


def test_simulator_runs():
    res = cluedo.simulate(cluedo.SimConfig(3, strategy="random", games=2, seed=1)).to_json()
    assert res["games"] == 2 and all(t is None or t >= 1 for t in res["turns_to_certainty"])


def test_recommendation_exact_top_limits_the_exact_pass():
    setup = small_setup(3)
    events = fixed_log(setup)[:3]
    rec = cluedo.recommend(setup, events, samples=500, seed=1, exact_seconds=None, exact_top=5, at_once=False)
    assert len(rec.exact) == 5
    full = cluedo.recommend(setup, events, samples=500, seed=1, exact_seconds=None)
    exact = {t[:3]: t[3] for t in full.suggestions}
    for s, w, r, b in rec.suggestions:
        if rec.is_exact(s, w, r):
            assert b == pytest.approx(exact[(s, w, r)], abs=1e-12)
