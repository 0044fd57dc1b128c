"""The suggestion model (engines.cluedo.suggestions) against brute force over every deal of small
decks: the weighted posterior, the learned posterior over rho and the model average; rho = 1
gives today's posterior bit for bit; the setup's "model" key is validated."""
import itertools
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.cluedo.counting import count_deals, propagate
from engines.cluedo.inference import constraints_for, infer
from engines.cluedo.model import AccusationEvent, HandEvent, Setup, SuggestionEvent
from engines.cluedo.simulate import play_suggestion, random_deal
from engines.cluedo.suggestions import GRID, learn_trust, weighted_count
from engines.core.errors import ContradictionError, SessionFormatError

DECK = {"suspect": ["a", "b", "c"], "weapon": ["d", "e", "f"], "room": ["g", "h", "i"]}


def _setup(players=("Me", "Ann", "Bob"), trust=None, deck=DECK):
    obj = {"categories": deck, "players": list(players), "me": players[0]}
    if trust is not None:
        obj["model"] = {"suggestion_trust": trust}
    return Setup.from_json(obj)


def _deals(setup):
    """Every deal (owner index per card; len(players) = envelope) of a small setup."""
    k = len(setup.players)
    n = len(setup.cards)
    cats = []
    start = 0
    for _, deck in setup.categories:
        cats.append(range(start, start + len(deck)))
        start += len(deck)
    for env in itertools.product(*cats):
        rest = [c for c in range(n) if c not in env]

        def hands(cards, p):
            if p == k - 1:
                yield [cards]
                return
            for h in itertools.combinations(cards, setup.hand_sizes[p]):
                left = [c for c in cards if c not in h]
                for more in hands(left, p + 1):
                    yield [list(h)] + more

        for hs in hands(rest, 0):
            own = np.empty(n, dtype=int)
            own[list(env)] = k
            for p, h in enumerate(hs):
                own[h] = p
            yield own


def _consistent(cons, own):
    return (all(cons.allowed[c, o] for c, o in enumerate(own))
            and all(any(own[c] == o for c, o in cl) for cl in cons.clauses))


def _named(setup, events):
    """(player index, card index) per card of every opponent suggestion."""
    out = []
    for ev in events:
        if isinstance(ev, SuggestionEvent) and ev.suggester != setup.me:
            p = setup.players.index(ev.suggester)
            out += [(p, setup.cards.index(c)) for c in ev.cards]
    return out


def _weighted_deals(setup, events, rhos, skip=None):
    """Every deal consistent with the log's constraints, with its weight: the product over the
    cards opponents named (other than ``skip``'s) of their owner's rho when they own it."""
    cons = constraints_for(setup, events)
    pi = {p: i for i, p in enumerate(setup.players)}
    r = {pi[p]: v for p, v in rhos.items() if p != skip}
    named = [(q, c) for q, c in _named(setup, events) if skip is None or q != pi[skip]]
    for own in _deals(setup):
        if not _consistent(cons, own):
            continue
        w = 1.0
        for q, c in named:
            if own[c] == q:
                w *= r.get(q, 1.0)
        yield own, w


def brute(setup, events, rhos):
    """(weighted marginals / weighted count, weighted count, number of deals of positive weight)
    by enumeration."""
    k = len(setup.players)
    m = np.zeros((len(setup.cards), k + 1))
    z = 0.0
    n = 0
    for own, w in _weighted_deals(setup, events, rhos):
        n += w > 0
        z += w
        m[np.arange(len(own)), own] += w
    return (m / z if z > 0 else None), z, n


def brute_rho_posterior(setup, events, player, rhos, exact_normaliser=False):
    """The posterior over ``player``'s rho on GRID by enumeration: the plug-in likelihood of the
    module docstring or, with ``exact_normaliser``, the exact sum over deals of
    prod over suggestions and categories of (rho if own card else 1) / (n_cat + (rho-1) h_cat)."""
    p = setup.players.index(player)
    sugg = [ev for ev in events if isinstance(ev, SuggestionEvent) and ev.suggester == player]
    cat_of = {c: j for j, (_, deck) in enumerate(setup.categories) for c in deck}
    sizes = [len(deck) for _, deck in setup.categories]
    lls = []
    for g in GRID:
        z = 0.0
        exact = 0.0
        h = np.zeros(3)
        for own, w in _weighted_deals(setup, events, rhos, skip=player):
            hc = np.zeros(3)
            for ci, c in enumerate(setup.cards):
                if own[ci] == p:
                    hc[cat_of[c]] += 1
            wl = w
            for ev in sugg:
                for c in ev.cards:
                    if own[setup.cards.index(c)] == p:
                        wl *= g
            z += wl
            h += wl * hc
            norm = 1.0
            for _ in sugg:
                for j in range(3):
                    norm *= sizes[j] + (g - 1) * hc[j]
            exact += wl / norm
        if exact_normaliser:
            lls.append(math.log(exact))
        else:
            h /= z
            lls.append(math.log(z) - len(sugg) * sum(math.log(sizes[j] + (g - 1) * h[j]) for j in range(3)))
    w = np.exp(np.array(lls) - max(lls))
    return w / w.sum()


@st.composite
def logs(draw, players=3, max_events=5):
    """A setup's players and a log drawn from a random true deal (hence consistent): opponents'
    and my suggestions, failed accusations; cards I hold."""
    names = ["Me", "Ann", "Bob", "Cy"][:players]
    setup = _setup(tuple(names))
    rng = np.random.default_rng(draw(st.integers(0, 2 ** 32 - 1)))
    deal = random_deal(setup, rng)
    events = []
    if draw(st.booleans()):
        events.append(HandEvent(player="Me", cards=tuple(c for c, o in zip(setup.cards, deal) if o == 0)))
    for _ in range(draw(st.integers(1, max_events))):
        p = draw(st.integers(0, players - 1))
        if draw(st.integers(0, 5)) == 0:
            env = tuple(c for c, o in zip(setup.cards, deal) if o == players)
            triple = tuple(draw(st.sampled_from(deck)) for _, deck in setup.categories)
            if triple != env:
                events.append(AccusationEvent(player=names[p], cards=triple, correct=False))
            continue
        triple = tuple(draw(st.sampled_from(deck)) for _, deck in setup.categories)
        events.append(play_suggestion(setup, deal, p, triple, rng, reveal=(p == 0)))
    return names, events


RHO = st.sampled_from([0.0, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 37.0])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(logs(), RHO, RHO)
def test_weighted_posterior_equals_brute_force(log, r1, r2):
    names, events = log
    rhos = {names[1]: r1, names[2]: r2}
    setup = _setup(tuple(names), rhos)
    want, z, n = brute(setup, events, rhos)
    if want is None:
        with pytest.raises(ContradictionError):
            infer(setup, events)
        return
    post = infer(setup, events)
    assert np.max(np.abs(post.matrix - want)) < 1e-9
    assert post.consistent_deals == n
    res = weighted_count(setup, events, rhos)
    assert math.isclose(res.count_float * math.exp(res.log_scale), z, rel_tol=1e-9)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(logs(max_events=7))
def test_rho_one_is_todays_posterior_bit_for_bit(log):
    names, events = log
    plain = infer(_setup(tuple(names)), events)
    ones = infer(_setup(tuple(names), {names[1]: 1, names[2]: 1.0}), events)
    assert np.array_equal(plain.matrix, ones.matrix)
    assert plain.consistent_deals == ones.consistent_deals
    assert "suggestion_model" not in ones.to_json()
    # weights of exactly 1 on every cell go through the weighted code path and change nothing
    cons = constraints_for(plain_setup := _setup(tuple(names)), events)
    cons.weights = {(c, o): 1.0 for c in range(len(plain_setup.cards)) for o in range(len(names) + 1)}
    a = count_deals(propagate(cons), marginals=True)
    b = count_deals(propagate(constraints_for(plain_setup, events)), marginals=True)
    assert np.array_equal(a.marginal, b.marginal) and a.count == b.count


def test_weighted_posterior_four_players_master_check():
    deck = {"suspect": ["a", "b", "c"], "weapon": ["d", "e"], "room": ["g", "h", "i"]}
    setup = _setup(("Me", "Ann", "Bob", "Cy"), {"Ann": 0.1, "Cy": 5}, deck)
    ev = [SuggestionEvent(suggester="Ann", cards=("a", "d", "g"), passed=("Bob",), refuter="Cy", shown=None),
          SuggestionEvent(suggester="Cy", cards=("a", "e", "h"), passed=(), refuter="Me", shown=None),
          SuggestionEvent(suggester="Ann", cards=("b", "d", "i"), passed=("Bob", "Cy", "Me"), refuter=None, shown=None),
          SuggestionEvent(suggester="Ann", cards=("c", "e", "h"), passed=(), refuter="Bob", shown=None)]
    want, _, n = brute(setup, ev, {"Ann": 0.1, "Cy": 5.0})
    post = infer(setup, ev)
    assert np.max(np.abs(post.matrix - want)) < 1e-9 and post.consistent_deals == n


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(logs(max_events=6), RHO.filter(lambda r: r > 0))
def test_rho_posterior_equals_brute_force(log, other):
    names, events = log
    setup = _setup(tuple(names))
    lt = learn_trust(setup, events, names[1], {names[2]: other})
    want = brute_rho_posterior(setup, events, names[1], {names[2]: other})
    assert np.max(np.abs(np.array(lt.posterior) - want)) < 1e-9


def test_model_average_is_the_mixture_of_the_grid_posteriors():
    setup = _setup(("Me", "Ann", "Bob"), {"Ann": "learn", "Bob": 0.5})
    ev = [SuggestionEvent(suggester="Ann", cards=("a", "d", "g"), passed=("Bob",), refuter="Me", shown=None),
          SuggestionEvent(suggester="Ann", cards=("a", "e", "g"), passed=(), refuter="Bob", shown=None),
          SuggestionEvent(suggester="Bob", cards=("b", "e", "h"), passed=(), refuter="Ann", shown=None),
          SuggestionEvent(suggester="Ann", cards=("c", "d", "g"), passed=(), refuter="Bob", shown=None)]
    pi = brute_rho_posterior(setup, ev, "Ann", {"Bob": 0.5})
    want = sum(q * brute(setup, ev, {"Ann": g, "Bob": 0.5})[0] for q, g in zip(pi, GRID))
    post = infer(setup, ev)
    assert np.max(np.abs(post.matrix - want)) < 1e-9
    sm = post.to_json()["suggestion_model"]
    assert sm["averaging"] == "mixture"
    assert np.allclose(sm["learned"]["Ann"]["posterior"], pi, atol=1e-9)
    assert sm["trust"] == {"Ann": "learn", "Bob": 0.5}


def test_learning_finds_a_lack_seeker_and_a_bluffer():
    """An opponent who names own cards with odds 0.1 (or 10) in 14 suggestions on the small
    deck: the learned posterior puts most mass on the right side of 1, and the plug-in
    normaliser stays close to the exact one (total variation below 0.1 on these logs)."""
    setup = _setup(("Me", "Ann", "Bob"))
    for rho_true, side in ((0.1, "p_lacks"), (10.0, "p_bluffs")):
        rng = np.random.default_rng(7)
        deal = random_deal(setup, rng)
        events = []
        for _t in range(14):
            triple = []
            for _, deck in setup.categories:
                w = np.array([rho_true if deal[setup.cards.index(c)] == 1 else 1.0 for c in deck])
                triple.append(deck[rng.choice(len(deck), p=w / w.sum())])
            events.append(play_suggestion(setup, deal, 1, tuple(triple), rng, reveal=False))
        lt = learn_trust(setup, events, "Ann")
        assert getattr(lt, side) > 0.7, (rho_true, lt.posterior)
        exact = brute_rho_posterior(setup, events, "Ann", {}, exact_normaliser=True)
        assert 0.5 * np.abs(np.array(lt.posterior) - exact).sum() < 0.1
        assert lt.summary().startswith("suggests what they lack" if rho_true < 1 else "bluffs")


def test_several_learners_use_the_plug_in():
    setup = _setup(("Me", "Ann", "Bob"), {"Ann": "learn", "Bob": "learn"})
    ev = [SuggestionEvent(suggester="Ann", cards=("a", "d", "g"), passed=("Bob",), refuter="Me", shown=None),
          SuggestionEvent(suggester="Bob", cards=("b", "e", "h"), passed=(), refuter="Ann", shown=None)]
    post = infer(setup, ev)
    sm = post.suggestion_model
    assert sm["averaging"] == "plug-in"
    rhos = {"Ann": sm["rho_used"]["Ann"], "Bob": sm["rho_used"]["Bob"]}
    assert np.max(np.abs(post.matrix - brute(setup, ev, rhos)[0])) < 1e-9


def test_rho_zero_can_contradict_the_log():
    setup = _setup(("Me", "Ann", "Bob"), {"Ann": 0})
    # Ann showed me a, then named it: impossible for a player who never names own cards
    ev = [HandEvent(player="Me", cards=("b", "e")), SuggestionEvent(suggester="Me", cards=("a", "d", "g"), passed=(),
                                                                    refuter="Ann", shown="a"),
          SuggestionEvent(suggester="Ann", cards=("a", "d", "g"), passed=(), refuter="Bob", shown=None)]
    with pytest.raises(ContradictionError, match="never name"):
        infer(setup, ev)


@pytest.mark.parametrize("model, msg", [
    ({"suggestion_trust": {"Zed": 0.5}}, "not one of the players"),
    ({"suggestion_trust": {"Me": 0.5}}, "that is you"),
    ({"suggestion_trust": {"Ann": -1}}, "must be >= 0"),
    ({"suggestion_trust": {"Ann": "lots"}}, "\"learn\""),
    ({"suggestion_trust": {"Ann": float("nan")}}, "expected a number"),
    ({"suggestion_trust": {"Ann": 1000}}, "must be <= 100"),
    ({"suggestion_trust": [1]}, "expected an object"),
    ({"trust": {}}, "unknown model setting"),
    ([], "expected an object"),
])
def test_bad_model_settings_are_named(model, msg):
    obj = {"categories": DECK, "players": ["Me", "Ann", "Bob"], "me": "Me", "model": model}
    with pytest.raises(SessionFormatError, match=msg) as info:
        Setup.from_json(obj)
    assert info.value.path.startswith("$.setup.model")


def test_model_round_trips_and_old_setups_are_unchanged():
    s = _setup(("Me", "Ann", "Bob"), {"Ann": 0.25, "Bob": "learn"})
    assert s.to_json()["model"] == {"suggestion_trust": {"Ann": 0.25, "Bob": "learn"}}
    assert Setup.from_json(s.to_json()) == s
    assert "model" not in _setup(("Me", "Ann", "Bob")).to_json()
    assert "model" not in _setup(("Me", "Ann", "Bob"), {"Ann": 1}).to_json()


def test_best_triple_under_the_model_equals_brute_force():
    from engines.cluedo.accuse import best_triple

    setup = _setup(("Me", "Ann", "Bob"))
    ev = [HandEvent(player="Me", cards=("a", "e")),
          SuggestionEvent(suggester="Ann", cards=("b", "d", "g"), passed=(), refuter="Bob", shown=None),
          SuggestionEvent(suggester="Ann", cards=("a", "f", "h"), passed=("Bob",), refuter="Me", shown=None),
          SuggestionEvent(suggester="Bob", cards=("c", "e", "h"), passed=(), refuter="Me", shown=None)]
    for rhos in ({"Ann": 0.1, "Bob": 4.0}, {"Ann": 9.0}, {}):
        cons = constraints_for(setup, ev)
        named = _named(setup, ev)
        pi = {p: i for i, p in enumerate(setup.players)}
        r = {pi[p]: v for p, v in rhos.items()}
        joint: dict = {}
        for own in _deals(setup):
            if not _consistent(cons, own):
                continue
            w = 1.0
            for p, c in named:
                if own[c] == p:
                    w *= r.get(p, 1.0)
            env = tuple(setup.cards[c] for c in range(len(own)) if own[c] == 3)
            joint[env] = joint.get(env, 0.0) + w
        z = sum(joint.values())
        want = max(joint.items(), key=lambda t: (t[1], [-setup.cards.index(c) for c in t[0]]))
        triple, p = best_triple(setup, ev, rhos=rhos)
        assert math.isclose(p, want[1] / z, rel_tol=1e-9) and joint[triple] == want[1]


def test_suggestion_race_pairs_engines_on_the_same_game():
    from engines.cluedo.suggestion_race import ENGINES, run, summarise

    rs = run("neutral", 2, players=3, theta=0.8)
    for r in rs:
        assert r["right"] == r["today"]          # neutral opponents: the right model is today's
        for eng in ENGINES:
            assert r[eng] is None or r[eng]["p"] >= 0.8
    table = summarise(rs)["neutral"]
    assert table["games"] == 2 and table["right"]["vs_today"]["won_only_here"] == 0
    lack = run("lack-0.1", 1, start=1, players=3)[0]
    assert lack["game"] == 1 and lack["focal"] == 1
