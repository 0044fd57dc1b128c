"""What each opponent knows, and when to accuse: brute force over every deal and every shown-card
choice on small custom decks is the reference (exact: equal to 1e-9; sampled: within 4 standard
errors); a hand-made case; cancellation; the recommend CLI keys."""
import itertools
import math

import numpy as np
import pytest

from engines import cluedo
from engines.cluedo.accuse import accusation_advice, best_triple
from engines.cluedo.model import AccusationEvent, HandEvent, LacksEvent, ShownEvent, SuggestionEvent
from engines.cluedo.opponents import iter_opponent_knowledge, opponent_knowledge
from engines.cluedo.simulate import play_suggestion, random_deal
from engines.core.errors import Cancelled
from engines.core.info import entropy_bits

DECK3 = {"suspect": ["a", "b", "c"], "weapon": ["d", "e", "f"], "room": ["g", "h", "i"]}
DECK4 = {"suspect": ["a", "b", "c"], "weapon": ["d", "e", "f"], "room": ["g", "h", "i", "j"]}


def setup_of(deck, sizes=None):
    names = ["P", "Q", "R"]
    obj = {"categories": deck, "players": names, "me": "P"}
    if sizes:
        obj["hand_sizes"] = dict(zip(names, sizes))
    return cluedo.Setup.from_json(obj)


def all_deals(setup):
    """Every deal: int array (D, n_cards) of owner indices (len(players) = envelope)."""
    k = len(setup.players)
    n = len(setup.cards)
    labels = [p for p, h in enumerate(setup.hand_sizes) for _ in range(h)]
    arrangements = np.array(sorted(set(itertools.permutations(labels))))
    offsets = np.cumsum([0] + [len(d) for _, d in setup.categories])
    rows = []
    for env in itertools.product(*[range(len(d)) for _, d in setup.categories]):
        env_idx = [offsets[j] + e for j, e in enumerate(env)]
        rest = [c for c in range(n) if c not in env_idx]
        block = np.empty((len(arrangements), n), dtype=np.int64)
        block[:, env_idx] = k
        block[:, rest] = arrangements
        rows.append(block)
    return np.concatenate(rows)


def mask_of(setup, deals, events, *, public_for=None):
    """Deals consistent with the events; with ``public_for``, only what that player sees of them
    (no hand/shown/lacks facts, no shown cards)."""
    ci = {c: i for i, c in enumerate(setup.cards)}
    pi = {p: i for i, p in enumerate(setup.players)}
    k = len(setup.players)
    m = np.ones(len(deals), dtype=bool)
    for ev in events:
        if isinstance(ev, (HandEvent, ShownEvent, LacksEvent)) and public_for is not None:
            continue
        if isinstance(ev, HandEvent):
            for c in ev.cards:
                m &= deals[:, ci[c]] == pi[ev.player]
        elif isinstance(ev, ShownEvent):
            m &= deals[:, ci[ev.card]] == pi[ev.player]
        elif isinstance(ev, LacksEvent):
            m &= deals[:, ci[ev.card]] != pi[ev.player]
        elif isinstance(ev, SuggestionEvent):
            idx = [ci[c] for c in ev.cards]
            for p in ev.passed:
                for c in idx:
                    m &= deals[:, c] != pi[p]
            if ev.refuter is not None:
                r = pi[ev.refuter]
                m &= np.any(deals[:, idx] == r, axis=1)
                if ev.shown is not None and public_for is None:
                    m &= deals[:, ci[ev.shown]] == r
        elif isinstance(ev, AccusationEvent):
            idx = [ci[c] for c in ev.cards]
            at_env = np.all(deals[:, idx] == k, axis=1)
            m &= at_env if ev.correct else ~at_env
    return m


def brute_force(setup, events):
    """Reference: ``{name: (p_knows, entropy_bits)}`` and P(some active opponent knows), by
    enumerating every deal consistent with my log and every choice of the cards shown to each
    opponent (uniform among the refuter's matching cards, unless my log names the card)."""
    deals = all_deals(setup)
    mine = deals[mask_of(setup, deals, events)]
    return brute_opponents(setup, events, mine, np.full(len(mine), 1.0 / len(mine)))


def brute_opponents(setup, events, deals, w):
    """{name: (p_knows, entropy)} and P(some active opponent knows now), the true deal drawn
    from ``deals`` with probabilities ``w``; each opponent's belief uniform over the deals their
    view allows (their hand, the public log, the cards shown to them)."""
    alld = all_deals(setup)
    k = len(setup.players)
    ci = {c: i for i, c in enumerate(setup.cards)}
    pi = {p: i for i, p in enumerate(setup.players)}
    offsets = np.cumsum([0] + [len(d) for _, d in setup.categories])
    opps = [p for p in setup.players if p != setup.me]
    q = np.zeros((len(deals), len(opps)))
    h = np.zeros((len(deals), len(opps)))
    out = set()
    for jj, name in enumerate(opps):
        j = pi[name]
        public = mask_of(setup, alld, events, public_for=name)
        fixed = [(ci[e.shown], pi[e.refuter]) for e in events
                 if isinstance(e, SuggestionEvent) and e.suggester == name and e.refuter and e.shown]
        hidden = [([ci[c] for c in e.cards], pi[e.refuter]) for e in events
                  if isinstance(e, SuggestionEvent) and e.suggester == name and e.refuter and not e.shown]
        if any(isinstance(e, AccusationEvent) and e.player == name and not e.correct for e in events):
            out.add(jj)
        for i, d in enumerate(deals):
            opts = [[c for c in cards if d[c] == r] for cards, r in hidden]
            pw = 1.0 / math.prod(len(o) for o in opts)
            base = public & np.all((alld == j) == (d == j), axis=1)
            for c, r in fixed:
                base &= alld[:, c] == r
            for combo in itertools.product(*opts):
                view = base.copy()
                for c, (_, r) in zip(combo, hidden):
                    view &= alld[:, c] == r
                env = (alld[view] == k).mean(axis=0)
                q[i, jj] += pw * all(env[offsets[t]:offsets[t + 1]].max() == 1.0 for t in range(3))
                h[i, jj] += pw * sum(entropy_bits(env[offsets[t]:offsets[t + 1]]) for t in range(3))
    active = [jj for jj in range(len(opps)) if jj not in out]
    any_k = 1 - np.prod(1 - q[:, active], axis=1) if active else np.zeros(len(deals))
    return ({name: (float(w @ q[:, jj]), float(w @ h[:, jj])) for jj, name in enumerate(opps)},
            float(w @ any_k))


def random_log(setup, seed, n_suggestions, *, accusation=False):
    """My hand, then suggestions by the players in turn; I see the cards shown to me, and log
    the card I show (some of the time)."""
    rng = np.random.default_rng(seed)
    deal = random_deal(setup, rng)
    me = setup.players.index(setup.me)
    events = [HandEvent(player=setup.me, cards=tuple(c for c, o in zip(setup.cards, deal) if o == me))]
    (_, S), (_, W), (_, R) = setup.categories
    for t in range(n_suggestions):
        p = (t + 1) % len(setup.players)
        trip = (S[rng.integers(len(S))], W[rng.integers(len(W))], R[rng.integers(len(R))])
        ev = play_suggestion(setup, deal, p, trip, rng, reveal=True)
        if p != me and not (ev.refuter == setup.me and rng.random() < 0.5):
            ev = SuggestionEvent(suggester=ev.suggester, cards=ev.cards, passed=ev.passed, refuter=ev.refuter,
                                 shown=None)
        events.append(ev)
    if accusation:
        env = [c for c, o in zip(setup.cards, deal) if o == len(setup.players)]
        wrong = (S[(S.index(env[0]) + 1) % len(S)], env[1], env[2])
        events.append(AccusationEvent(player=setup.players[1], cards=wrong, correct=False))
    return events


CASES = [(DECK3, None, 0, 3, False), (DECK3, None, 1, 5, True), (DECK3, None, 2, 6, False),
         (DECK4, [3, 2, 2], 3, 4, False), (DECK4, [3, 2, 2], 4, 6, True), (DECK4, [2, 3, 2], 5, 7, False)]


@pytest.mark.parametrize("deck,sizes,seed,n_sugg,acc", CASES)
def test_exact_equals_brute_force(deck, sizes, seed, n_sugg, acc):
    setup = setup_of(deck, sizes)
    events = random_log(setup, seed, n_sugg, accusation=acc)
    ref, p_any = brute_force(setup, events)
    est = opponent_knowledge(setup, events, exact_max_deals=10 ** 6, exact_max_views=10 ** 6,
                             budget_seconds=None)
    assert est.exact
    for name, (p, h) in ref.items():
        k = est.opponents[name]
        assert k.exact and k.standard_error == 0.0
        assert k.p_knows_envelope == pytest.approx(p, abs=1e-9)
        assert k.envelope_entropy_bits == pytest.approx(h, abs=1e-9)
    assert est.p_any_knows == pytest.approx(p_any, abs=1e-9)


@pytest.mark.parametrize("deck,sizes,seed,n_sugg,acc", CASES[:4])
def test_sampled_within_four_standard_errors(deck, sizes, seed, n_sugg, acc):
    setup = setup_of(deck, sizes)
    events = random_log(setup, seed, n_sugg, accusation=acc)
    ref, p_any = brute_force(setup, events)
    est = opponent_knowledge(setup, events, exact_max_deals=0, max_samples=1024, budget_seconds=None,
                             seed=seed)
    assert not est.exact and est.samples == 1024
    for name, (p, h) in ref.items():
        k = est.opponents[name]
        # the knows indicator is Bernoulli(p) per sample: its true standard error when the
        # sample's is 0 (every sample agreed)
        se = max(k.standard_error, math.sqrt(p * (1 - p) / est.samples))
        assert abs(k.p_knows_envelope - p) <= 4 * se + 1e-12
        assert abs(k.envelope_entropy_bits - h) <= 4 * k.entropy_standard_error + 1e-12
    se_any = max(est.p_any_standard_error, math.sqrt(p_any * (1 - p_any) / est.samples))
    assert abs(est.p_any_knows - p_any) <= 4 * se_any + 1e-12


def test_some_case_is_not_trivial():
    """The brute-force cases include opponents who know with a probability strictly between 0
    and 1 (so the comparisons above test something)."""
    seen = []
    for deck, sizes, seed, n, acc in CASES:
        setup = setup_of(deck, sizes)
        ref, _ = brute_force(setup, random_log(setup, seed, n, accusation=acc))
        seen.extend(p for p, _ in ref.values())
    assert any(0 < p < 1 for p in seen)


def test_shown_the_two_missing_cards_knows():
    """I hold b and e and saw that Q holds a and d; the room h is in the envelope (nobody
    refuted Q's suggestion of it). Q's view lacks only the owners of the suspect and weapon
    cards; I showed Q b, then e: Q knows the envelope (c, f, h) with probability 1, while R,
    who was shown nothing, does not. Had I not logged which card I showed, each refutation
    shows b or e uniformly, and Q knows exactly when both were shown: probability 1/2."""
    setup = setup_of(DECK3)
    events = [HandEvent(player="P", cards=("b", "e")), HandEvent(player="Q", cards=("a", "d")),
              SuggestionEvent(suggester="Q", cards=("a", "d", "h"), passed=("R", "P"), refuter=None, shown=None),
              SuggestionEvent(suggester="Q", cards=("b", "e", "h"), passed=("R",), refuter="P", shown="b"),
              SuggestionEvent(suggester="Q", cards=("b", "e", "h"), passed=("R",), refuter="P", shown="e")]
    est = opponent_knowledge(setup, events)
    assert est.exact
    assert est.opponents["Q"].p_knows_envelope == 1.0
    assert est.opponents["Q"].envelope_entropy_bits == pytest.approx(0.0, abs=1e-12)
    assert est.opponents["R"].p_knows_envelope == 0.0
    assert est.opponents["R"].envelope_entropy_bits > 2.0
    assert est.p_any_knows == 1.0
    hidden = events[:3] + [SuggestionEvent(suggester=e.suggester, cards=e.cards, passed=e.passed, refuter=e.refuter,
                                           shown=None) for e in events[3:]]
    est = opponent_knowledge(setup, hidden)
    assert est.opponents["Q"].p_knows_envelope == pytest.approx(0.5, abs=1e-12)
    assert est.opponents["Q"].envelope_entropy_bits == pytest.approx(brute_force(setup, hidden)[0]["Q"][1], abs=1e-9)


def test_refined_estimates_and_cancel():
    setup = cluedo.Setup.from_json({"edition": "cluedo-uk", "players": ["Me", "A", "B", "C", "D", "E"],
                                    "me": "Me"})
    events = random_log(setup, 7, 20)
    ests = list(iter_opponent_knowledge(setup, events, first_batch=8, max_samples=64))
    assert [e.samples for e in ests] == [8, 16, 32, 64]
    assert [e.final for e in ests] == [False, False, False, True]
    assert all(0 <= k.p_knows_envelope <= 1 and k.standard_error >= 0 for e in ests for k in e.opponents.values())
    with pytest.raises(Cancelled):
        opponent_knowledge(setup, events, cancel=lambda: True)


def best_triple_brute(setup, events):
    deals = all_deals(setup)
    mine = deals[mask_of(setup, deals, events)]
    k = len(setup.players)
    env = [tuple(np.flatnonzero(d == k)) for d in mine]
    counts = {}
    for e in env:
        counts[e] = counts.get(e, 0) + 1
    return max(counts.values()) / len(mine)


@pytest.mark.parametrize("deck,sizes,seed,n_sugg,acc", CASES)
def test_best_triple_is_the_posterior_mode(deck, sizes, seed, n_sugg, acc):
    setup = setup_of(deck, sizes)
    events = random_log(setup, seed, n_sugg, accusation=acc)
    triple, p = best_triple(setup, events)
    assert p == pytest.approx(best_triple_brute(setup, events), abs=1e-12)
    deals = all_deals(setup)
    mine = deals[mask_of(setup, deals, events)]
    idx = [setup.cards.index(c) for c in triple]
    assert p == pytest.approx(float(np.mean(np.all(mine[:, idx] == 3, axis=1))), abs=1e-12)


def test_advice_follows_the_rule():
    from engines.cluedo.accuse import decide

    setup = setup_of(DECK3)
    events = [HandEvent(player="P", cards=("b", "e")),
              SuggestionEvent(suggester="Q", cards=("b", "e", "h"), passed=("R",), refuter="P", shown=None),
              SuggestionEvent(suggester="Q", cards=("b", "e", "h"), passed=("R",), refuter="P", shown=None)]
    adv = accusation_advice(setup, events)
    assert 0 < adv.p_correct < 1 and 0 < adv.p_opponent_knows_now < 1
    assert adv.advice == decide(adv.p_correct, adv.p_opponent_knows_before_my_turn)
    # knowing persists: the look-ahead is at least the knowledge now
    assert adv.p_opponent_knows_before_my_turn >= adv.p_opponent_knows_now - 4 * adv.standard_error
    ref, p_any = brute_force(setup, events)
    assert adv.p_opponent_knows_now == pytest.approx(p_any, abs=1e-9)
    assert adv.p_correct == pytest.approx(best_triple_brute(setup, events), abs=1e-12)
    # Q's failed accusation puts Q out: only R (who cannot know yet) still counts
    out = events + [AccusationEvent(player="Q", cards=("a", "d", "g"), correct=False)]
    adv_out = accusation_advice(setup, out)
    ref_out, p_any_out = brute_force(setup, out)
    assert ref_out["Q"][0] > 0 and p_any_out == 0.0
    assert adv_out.p_opponent_knows_now == 0.0
    assert decide(0.5, 0.5) == "accuse now" and decide(0.49, 0.5) == "wait" and decide(1.0, 0.0) == "accuse now"


def test_recommend_cli_has_the_opponents_and_the_accusation(tmp_path):
    import json
    import subprocess
    import sys

    setup = setup_of(DECK3)
    events = [HandEvent(player="P", cards=("b", "e")), HandEvent(player="Q", cards=("a", "d")),
              SuggestionEvent(suggester="Q", cards=("a", "d", "h"), passed=("R", "P"), refuter=None, shown=None),
              SuggestionEvent(suggester="Q", cards=("b", "e", "h"), passed=("R",), refuter="P", shown="b"),
              SuggestionEvent(suggester="Q", cards=("b", "e", "h"), passed=("R",), refuter="P", shown="e")]
    session = {"format": "deduction-desk.session", "version": 1, "game": "cluedo",
               "setup": setup.to_json(), "events": [e.to_json() for e in events]}
    f = tmp_path / "s.json"
    f.write_text(json.dumps(session))
    out = subprocess.run([sys.executable, "-m", "engines", "recommend", str(f)], capture_output=True, text=True,
                         check=True)
    rec = json.loads(out.stdout)
    assert set(rec["opponents"]) == {"Q", "R"}
    assert rec["opponents"]["Q"]["p_knows_envelope"] == 1.0 and rec["opponents"]["Q"]["exact"] is True
    assert {"p_knows_envelope", "envelope_entropy_bits", "standard_error", "exact"} <= set(rec["opponents"]["R"])
    acc = rec["accusation"]
    assert acc["p_opponent_knows_before_my_turn"] == 1.0
    # I know it too (a, d with Q, b, e with me, h in the envelope: R holds g and i)
    assert acc["advice"] == "accuse now" and acc["p_correct"] == 1.0 and acc["certain"] is True
    assert acc["triple"] == ["c", "f", "h"]


def test_look_ahead_is_at_least_the_knowledge_now():
    """Knowing persists, so P(some opponent knows after their next suggestion) >= P(some knows
    now); where an opponent surely knows, both are 1."""
    from engines.cluedo.opponents import p_any_knows_after_next_suggestion

    setup = setup_of(DECK3)
    events = [HandEvent(player="P", cards=("b", "e")), HandEvent(player="Q", cards=("a", "d")),
              SuggestionEvent(suggester="Q", cards=("a", "d", "h"), passed=("R", "P"), refuter=None, shown=None),
              SuggestionEvent(suggester="Q", cards=("b", "e", "h"), passed=("R",), refuter="P", shown=None),
              SuggestionEvent(suggester="Q", cards=("b", "e", "h"), passed=("R",), refuter="P", shown=None)]
    now = opponent_knowledge(setup, events).p_any_knows
    nxt, se = p_any_knows_after_next_suggestion(setup, events, samples=400, seed=3)
    assert now == pytest.approx(0.5) and nxt >= now - 4 * se and nxt > 0.5
    sure = events[:3] + [SuggestionEvent(suggester="Q", cards=("b", "e", "h"), passed=("R",), refuter="P", shown="b"),
                         SuggestionEvent(suggester="Q", cards=("b", "e", "h"), passed=("R",), refuter="P", shown="e")]
    assert p_any_knows_after_next_suggestion(setup, sure, samples=50)[0] == 1.0


def test_race_mechanics():
    """A few seeded games: every game has one winner (certain bots never accuse wrongly, and
    the seats' wins add up), Wilson intervals contain the rates."""
    from engines.cluedo.race import play_game, race

    out = race(4, control=True, seed=5)
    f, o = out["focal_result"], out["others_result"]
    assert f["wins"] + o["wins"] + out["no_winner"] == 4 and out["early_accusations"] == 0
    assert f["wilson_95"][0] <= f["win_rate"] <= f["wilson_95"][1]
    setup = cluedo.Setup.from_json({"edition": "cluedo-uk", "players": ["A", "B", "C", "D"], "me": "A"})
    res = play_game(setup, ["certain"] * 4, np.random.default_rng(1))
    assert res["winner"] is not None and res["accusations"] == [(res["winner"], True, True)]


def brute_force_look_ahead(setup, events):
    """Reference for P(some active opponent can name the envelope once their next suggestion
    is answered): every deal consistent with my log, every choice of shown cards, every
    suggestion the opponent may draw (uniform per category among the cards their belief allows
    in the envelope) and every card the refuter may show."""
    deals = all_deals(setup)
    k = len(setup.players)
    ci = {c: i for i, c in enumerate(setup.cards)}
    pi = {p: i for i, p in enumerate(setup.players)}
    offsets = np.cumsum([0] + [len(d) for _, d in setup.categories])
    mine = deals[mask_of(setup, deals, events)]

    def env_of(view):
        return (deals[view] == k).mean(axis=0)

    def knows(env):
        return all(env[offsets[t]:offsets[t + 1]].max() == 1.0 for t in range(3))

    per_deal = np.ones(len(mine))
    for name in setup.players:
        if name == setup.me or any(isinstance(e, AccusationEvent) and e.player == name and not e.correct
                                   for e in events):
            continue
        j = pi[name]
        public = mask_of(setup, deals, events, public_for=name)
        fixed = [(ci[e.shown], pi[e.refuter]) for e in events
                 if isinstance(e, SuggestionEvent) and e.suggester == name and e.refuter and e.shown]
        hidden = [([ci[c] for c in e.cards], pi[e.refuter]) for e in events
                  if isinstance(e, SuggestionEvent) and e.suggester == name and e.refuter and not e.shown]
        for i, d in enumerate(mine):
            opts = [[c for c in cards if d[c] == r] for cards, r in hidden]
            w = 1.0 / math.prod(len(o) for o in opts)
            base = public & np.all((deals == j) == (d == j), axis=1)
            for c, r in fixed:
                base &= deals[:, c] == r
            pk = 0.0
            for combo in itertools.product(*opts):
                view = base.copy()
                for c, (_, r) in zip(combo, hidden):
                    view &= deals[:, c] == r
                env = env_of(view)
                if knows(env):
                    pk += w
                    continue
                allowed = [[c for c in range(offsets[t], offsets[t + 1]) if env[c] > 0] for t in range(3)]
                wt = w / math.prod(len(a) for a in allowed)
                for triple in itertools.product(*allowed):
                    after = view.copy()
                    outcomes = [(after, 1.0)]
                    for step in range(1, k):
                        p = (j + step) % k
                        have = [c for c in triple if d[c] == p]
                        if have:
                            outcomes = [(after & (deals[:, c] == p), 1.0 / len(have)) for c in have]
                            break
                        for c in triple:
                            after &= deals[:, c] != p
                    pk += wt * sum(ws * knows(env_of(v)) for v, ws in outcomes)
            per_deal[i] *= 1.0 - pk
    return float(np.mean(1.0 - per_deal))


@pytest.mark.parametrize("deck,sizes,seed,n_sugg,acc", CASES[:4])
def test_look_ahead_within_four_standard_errors(deck, sizes, seed, n_sugg, acc):
    from engines.cluedo.opponents import p_any_knows_after_next_suggestion

    setup = setup_of(deck, sizes)
    events = random_log(setup, seed, n_sugg, accusation=acc)
    ref = brute_force_look_ahead(setup, events)
    p, se = p_any_knows_after_next_suggestion(setup, events, samples=1000, seed=seed)
    # per sample the value is in [0, 1]: its true standard error is at most sqrt(ref(1-ref)/n)
    assert abs(p - ref) <= 4 * max(se, math.sqrt(ref * (1 - ref) / 1000)) + 1e-12, (p, se, ref)
