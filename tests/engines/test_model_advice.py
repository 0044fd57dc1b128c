"""The suggestion model in the advice: the recommendation's expected information, the most
probable envelope, the opponents' figures and the accuse-or-wait advice under a model of the
opponents' suggestions, against brute force over every deal of small decks (each deal weighted
by the model's likelihood, engines.cluedo.suggestions), to 1e-9; and without a model the
advice is the plain one."""
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_opponents import all_deals, brute_opponents, mask_of

from engines.cluedo.accuse import accusation_advice, best_triple, decide, recommendation_keys
from engines.cluedo.model import AccusationEvent, HandEvent, Setup, SuggestionEvent
from engines.cluedo.opponents import opponent_knowledge
from engines.cluedo.recommend import recommend
from engines.cluedo.simulate import play_suggestion, random_deal
from engines.cluedo.suggestions import advice_rhos, model_label
from engines.core.errors import ContradictionError
from engines.core.info import entropy_bits

DECK3 = {"suspect": ["a", "b", "c"], "weapon": ["d", "e", "f"], "room": ["g", "h", "i"]}
DECK4 = {"suspect": ["a", "b", "c"], "weapon": ["d", "e", "f"], "room": ["g", "h", "i", "j"]}
PLAYERS = ("Me", "Ann", "Bob")


def setup_of(deck=DECK3, trust=None, sizes=None):
    obj = {"categories": deck, "players": list(PLAYERS), "me": "Me"}
    if sizes:
        obj["hand_sizes"] = dict(zip(PLAYERS, sizes))
    if trust:
        obj["model"] = {"suggestion_trust": trust}
    return Setup.from_json(obj)


def weighted_deals(setup, events, rhos):
    """(deals consistent with my log, their probabilities under the model ``rhos``): each deal's
    weight is the product, over every card an opponent named, of that opponent's rho when the
    card is in their hand."""
    deals = all_deals(setup)
    deals = deals[mask_of(setup, deals, events)]
    w = np.ones(len(deals))
    pi = {p: i for i, p in enumerate(setup.players)}
    for ev in events:
        if isinstance(ev, SuggestionEvent) and ev.suggester != setup.me and ev.suggester in rhos:
            for c in ev.cards:
                w = np.where(deals[:, setup.cards.index(c)] == pi[ev.suggester], w * rhos[ev.suggester], w)
    keep = w > 0
    return deals[keep], w[keep] / w[keep].sum()


def outcome_law(setup, deal, triple):
    """{outcome: probability} of my suggestion ``triple`` (card indices) in ``deal``: 0 nobody
    refutes, ``1 + 3 j + t`` the j-th player after me shows card t (uniform among theirs)."""
    k = len(setup.players)
    me = setup.players.index(setup.me)
    for j in range(k - 1):
        p = (me + 1 + j) % k
        held = [t for t in range(3) if deal[triple[t]] == p]
        if held:
            return {1 + 3 * j + t: 1.0 / len(held) for t in held}
    return {0: 1.0}


def brute_information(setup, deals, w, triple):
    """(sum over categories of I(E_X; O), I(E; O)) in bits under the deals' law ``w``."""
    offsets = np.cumsum([0] + [len(d) for _, d in setup.categories])
    k = len(setup.players)
    env = [tuple(int(np.flatnonzero(d[offsets[t]:offsets[t + 1]] == k)[0]) for t in range(3)) for d in deals]
    laws = [outcome_law(setup, d, triple) for d in deals]

    def mi(key):
        joint: dict = {}
        for e, law, p in zip(env, laws, w):
            for o, q in law.items():
                joint[(key(e), o)] = joint.get((key(e), o), 0.0) + p * q
        px, po = {}, {}
        for (x, o), p in joint.items():
            px[x] = px.get(x, 0.0) + p
            po[o] = po.get(o, 0.0) + p
        return sum(p * math.log2(p / (px[x] * po[o])) for (x, o), p in joint.items() if p > 0)
    return sum(mi(lambda e, t=t: e[t]) for t in range(3)), mi(lambda e: e)


def brute_best(setup, deals, w):
    offsets = np.cumsum([0] + [len(d) for _, d in setup.categories])
    k = len(setup.players)
    law: dict = {}
    for d, p in zip(deals, w):
        e = tuple(setup.cards[offsets[t] + int(np.flatnonzero(d[offsets[t]:offsets[t + 1]] == k)[0])]
                  for t in range(3))
        law[e] = law.get(e, 0.0) + p
    return law


def behaviour_log(setup, seed, n_suggestions, rho_true, *, accusation=False):
    """My hand, then suggestions in turn; the opponents name, per category, an own card with
    weight ``rho_true`` and any other with weight 1; I log the card I show half of the time."""
    rng = np.random.default_rng(seed)
    deal = random_deal(setup, rng)
    k = len(setup.players)
    me = setup.players.index(setup.me)
    events = [HandEvent(player=setup.me, cards=tuple(c for c, o in zip(setup.cards, deal) if o == me))]
    for t in range(n_suggestions):
        p = (t + 1) % k
        trip, start = [], 0
        for _, deck in setup.categories:
            wts = np.array([rho_true if (p != me and deal[start + j] == p) else 1.0 for j in range(len(deck))])
            trip.append(deck[int(rng.choice(len(deck), p=wts / wts.sum()))])
            start += len(deck)
        ev = play_suggestion(setup, deal, p, tuple(trip), rng, reveal=True)
        if p != me and not (ev.refuter == setup.me and rng.random() < 0.5):
            ev = SuggestionEvent(suggester=ev.suggester, cards=ev.cards, passed=ev.passed, refuter=ev.refuter,
                                 shown=None)
        events.append(ev)
    if accusation:
        env = [c for c, o in zip(setup.cards, deal) if o == k]
        (_, S), _, _ = setup.categories
        events.append(AccusationEvent(player="Ann", cards=(S[(S.index(env[0]) + 1) % len(S)], env[1], env[2]),
                                      correct=False))
    return events


def check_recommendation(setup, events, rhos, at_once):
    deals, w = weighted_deals(setup, events, rhos)
    rec = recommend(setup, events, exact_seconds=None, opponents_seconds=0, at_once=at_once,
                    joint=True, samples=64)
    if rec.accusation is not None:
        assert len(brute_best(setup, deals, w)) == 1
        return rec
    assert rec.exact == frozenset(t[:3] for t in rec.suggestions)
    ci = {c: i for i, c in enumerate(setup.cards)}
    for s, wp, r, bits in rec.suggestions:
        ref, ref_joint = brute_information(setup, deals, w, (ci[s], ci[wp], ci[r]))
        assert bits == pytest.approx(ref, abs=1e-9), (s, wp, r)
        if (s, wp, r) in rec.joint_bits:
            assert rec.joint_bits[(s, wp, r)] == pytest.approx(ref_joint, abs=1e-9)
    env = (deals == len(setup.players)).T @ w
    h = sum(entropy_bits(env[a:b]) for a, b in ((0, 3), (3, 6), (6, len(setup.cards))))
    assert rec.envelope_entropy_bits == pytest.approx(h, abs=1e-9)
    return rec


CASES = [(DECK3, None, {"Ann": 0.25, "Bob": 4}, 4, 4, 0.1, False),
         (DECK3, None, {"Ann": 0.1}, 5, 3, 0.1, False),
         (DECK3, None, {"Ann": 4, "Bob": 4}, 2, 5, 4.0, True),
         (DECK4, [3, 2, 2], {"Ann": 0.5, "Bob": 0.25}, 3, 5, 0.25, False),
         (DECK4, [2, 3, 2], {"Bob": 2}, 4, 6, 2.0, True)]


@pytest.mark.parametrize("deck,sizes,trust,seed,n_sugg,rho_true,acc", CASES)
@pytest.mark.parametrize("at_once", [None, False])
def test_recommendation_is_the_weighted_posteriors_information(deck, sizes, trust, seed, n_sugg, rho_true,
                                                              acc, at_once):
    """Both ways of computing the information of every suggestion (all at once, and the class
    decomposition of the staged path) give, under the setup's suggestion model, the mutual
    information of the weighted posterior computed by enumerating every deal."""
    setup = setup_of(deck, trust, sizes)
    events = behaviour_log(setup, seed, n_sugg, rho_true, accusation=acc)
    rec = check_recommendation(setup, events, {p: float(r) for p, r in trust.items()}, at_once)
    assert rec.accusation is None and rec.suggestions          # the envelope is still uncertain
    assert rec.suggestion_model["rho"] == {p: float(r) for p, r in trust.items()}
    assert rec.suggestion_model["assumes"].startswith("assuming ")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10 ** 6), n=st.integers(1, 7),
       ann=st.sampled_from([0.0, 0.1, 0.25, 1.0, 2.0, 4.0]), bob=st.sampled_from([0.1, 0.5, 1.0, 4.0]),
       rho_true=st.sampled_from([0.1, 1.0, 4.0]))
def test_information_and_best_triple_match_brute_force_on_random_logs(seed, n, ann, bob, rho_true):
    """Property: on random logs of a 3 x 3 x 3 deck (opponents of any behaviour, any model set,
    rho 0 included) the recommendation's information of every suggestion and the most probable
    envelope with its probability equal brute force over every deal to 1e-9."""
    trust = {p: r for p, r in (("Ann", ann), ("Bob", bob)) if r != 1.0}
    setup = setup_of(DECK3, trust or None)
    events = behaviour_log(setup, seed, n, rho_true)
    rhos = {p: float(r) for p, r in trust.items()}
    deals, w = weighted_deals(setup, events, rhos)
    if len(deals) == 0:
        with pytest.raises(ContradictionError):
            recommend(setup, events, exact_seconds=None, opponents_seconds=0)
        return
    check_recommendation(setup, events, rhos, None)
    law = brute_best(setup, deals, w)
    triple, p = best_triple(setup, events)
    assert p == pytest.approx(max(law.values()), abs=1e-9)
    assert law[triple] == pytest.approx(p, abs=1e-9)


@pytest.mark.parametrize("deck,sizes,trust,seed,n_sugg,rho_true,acc", CASES)
def test_opponents_and_accusation_advice_match_brute_force(deck, sizes, trust, seed, n_sugg, rho_true, acc):
    """The opponents' exact figures (each opponent's chance of knowing the envelope, their
    expected entropy, the chance some active one knows) with the true deal drawn from my
    weighted posterior, and the accuse-or-wait advice's p_correct, equal brute force to 1e-9;
    the advice is the rule applied to the figures it reports."""
    setup = setup_of(deck, trust, sizes)
    events = behaviour_log(setup, seed, n_sugg, rho_true, accusation=acc)
    rhos = {p: float(r) for p, r in trust.items()}
    deals, w = weighted_deals(setup, events, rhos)
    ref, p_any = brute_opponents(setup, events, deals, w)
    est = opponent_knowledge(setup, events, exact_max_deals=10 ** 6, exact_max_views=10 ** 6,
                             budget_seconds=None, lookahead=True)
    assert est.exact and est.rhos == rhos and est.assumes == model_label(setup, rhos)
    for name, (p, h) in ref.items():
        assert est.opponents[name].p_knows_envelope == pytest.approx(p, abs=1e-9), name
        assert est.opponents[name].envelope_entropy_bits == pytest.approx(h, abs=1e-9), name
    assert est.p_any_knows == pytest.approx(p_any, abs=1e-9)
    adv = accusation_advice(setup, events, opponents=est)
    assert adv.p_correct == pytest.approx(max(brute_best(setup, deals, w).values()), abs=1e-9)
    assert adv.p_opponent_knows_now == pytest.approx(p_any, abs=1e-9)
    assert adv.advice == decide(adv.p_correct, adv.p_opponent_knows_before_my_turn)
    assert adv.to_json()["suggestion_model"]["rho"] == rhos
    # the same model given explicitly to a setup without one gives the same figures
    plain_setup = setup_of(deck, None, sizes)
    est2 = opponent_knowledge(plain_setup, events, exact_max_deals=10 ** 6, exact_max_views=10 ** 6,
                              budget_seconds=None, lookahead=True, rhos=rhos)
    assert est2.p_any_knows == est.p_any_knows and est2.p_any_knows_next == est.p_any_knows_next


def test_the_model_changes_the_figures():
    """A test that could fail: on a log where lack-seekers named cards, the weighted figures
    differ from the plain ones (otherwise the tests above would not tell the model apart)."""
    setup = setup_of(DECK3, {"Ann": 0.1, "Bob": 0.1})
    plain = setup_of(DECK3)
    events = behaviour_log(setup, 5, 3, 0.1)
    a = recommend(setup, events, exact_seconds=None, opponents_seconds=0)
    b = recommend(plain, events, exact_seconds=None, opponents_seconds=0)
    assert max(abs(x[3] - y[3]) for x, y in zip(sorted(a.suggestions), sorted(b.suggestions))) > 1e-3
    assert abs(best_triple(setup, events)[1] - best_triple(plain, events)[1]) > 1e-3


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_without_a_model_the_advice_is_the_plain_one(seed):
    """No model, every rho set to 1, or the empty model given explicitly: the same figures, bit
    for bit (the same code paths), and the JSON names no model."""
    plain = setup_of(DECK3)
    ones = setup_of(DECK3, {"Ann": 1, "Bob": 1})
    events = behaviour_log(plain, seed, 5, 0.25)
    assert advice_rhos(plain, events) == {} == advice_rhos(ones, events)
    outs = []
    for s, kw in ((plain, {}), (ones, {}), (plain, {"rhos": {}})):
        rec = recommend(s, events, exact_seconds=None, opponents_samples=64, seed=3, **kw)
        js = rec.to_json()
        js.pop("seconds")
        outs.append(js)
        assert "suggestion_model" not in js and "suggestion_model" not in js["accusation"]
    assert outs[0] == outs[1] == outs[2]
    keys = recommendation_keys(plain, events, None, samples=64, seed=3)
    assert "suggestion_model" not in keys[1]


def test_learned_model_is_the_geometric_mean_plug_in():
    """A learner's rho in the advice is their posterior geometric mean (the plug-in of the
    worksheet with several learners), and the opponents' figures name it as learned."""
    setup = setup_of(DECK3, {"Ann": "learn", "Bob": 0.25})
    events = behaviour_log(setup, 5, 7, 0.1)
    rhos = advice_rhos(setup, events)
    from engines.cluedo.suggestions import learn_trust

    assert rhos["Bob"] == 0.25
    assert rhos["Ann"] == learn_trust(setup, events, "Ann", {"Bob": 0.25}).geometric_mean
    assert "Ann suggests what they lack (learned ρ" in model_label(setup, rhos)
    deals, w = weighted_deals(setup, events, rhos)
    _, p = best_triple(setup, events)
    assert p == pytest.approx(max(brute_best(setup, deals, w).values()), abs=1e-9)


@pytest.mark.parametrize("deck,sizes,trust,seed,n_sugg,rho_true,acc", CASES[2:4])
def test_sampled_opponents_draw_the_deal_from_the_weighted_posterior(deck, sizes, trust, seed, n_sugg,
                                                                     rho_true, acc):
    """The sampled figures (the weighted sampler of the counting DP) lie within 4 standard
    errors of the weighted brute force, and not within them of the plain one where the two
    differ by more than 8 standard errors (so the test tells the two laws apart)."""
    setup = setup_of(deck, trust, sizes)
    events = behaviour_log(setup, seed, n_sugg, rho_true, accusation=acc)
    rhos = {p: float(r) for p, r in trust.items()}
    ref, _ = brute_opponents(setup, events, *weighted_deals(setup, events, rhos))
    plain, _ = brute_opponents(setup, events, *weighted_deals(setup, events, {}))
    est = opponent_knowledge(setup, events, exact_max_deals=0, max_samples=4096, budget_seconds=None, seed=seed)
    assert not est.exact and est.samples == 4096
    told_apart = 0
    for name, (p, h) in ref.items():
        k = est.opponents[name]
        se = max(k.standard_error, math.sqrt(max(p * (1 - p), 1e-4) / est.samples))
        assert abs(k.p_knows_envelope - p) <= 4 * se, (name, k.p_knows_envelope, p)
        hse = max(k.entropy_standard_error, 1e-3)
        assert abs(k.envelope_entropy_bits - h) <= 4 * hse, (name, k.envelope_entropy_bits, h)
        if abs(plain[name][1] - h) > 8 * hse:
            told_apart += 1
            assert abs(k.envelope_entropy_bits - plain[name][1]) > 4 * hse
    assert told_apart >= 1
