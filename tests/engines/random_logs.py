"""Random consistent logs of every game, and single-field mutations of them (shared by
tests/engines/test_diagnosis.py and tests/benchmarks/bench_diagnosis.py).

Each generator plays a game truthfully from a random hidden world, so the log it returns is
consistent; :func:`mutate` changes one field of one entry to another value the event's schema
accepts, the way a player mistypes it.
"""
from __future__ import annotations

import random
from typing import Optional

import engines.cluedo as cl
import engines.egghead as eg
import engines.guesswho as gw
import engines.inkognito as ink
from engines.egghead import inference as egi


# ------------------------------------------------------------------ Egghead
def egghead_log(rng: random.Random, players: int = 3, answers: int = 4, values: int = 6,
                cards: int = 3):
    """A truthful Egghead game as seen by player A: ``answers`` questions, each followed by the
    reaction rounds the true table produces (every player solves as soon as their row of the
    master table has one stack, seed eqs. (3)-(4)) and the solves they cause.
    Returns (setup, events, real table)."""
    names = ["A", "B", "C", "D", "E"][:players]
    sp = eg.stack_space(values, cards)
    real = {p: sp.stack(rng.randrange(sp.size)) for p in names}
    setup = eg.Setup.from_json({"players": names, "me": "A", "values": values,
                                "cards_per_player": cards,
                                "visible": {p: list(real[p]) for p in names[1:]}})
    ctx = egi._Ctx(setup)
    st = egi.initial(setup)
    deck = [q.id for q in eg.questions_for(setup)]
    events: list = []

    def add(ev):
        egi.update(setup, st, len(events), ev)
        events.append(ev)

    for _ in range(answers):
        q = rng.choice(deck)
        add(eg.Answer(question=q, answer=eg.answer_for(setup, q, real)))
        for _ in range(20):
            w = [sp.index(real[p]) for p in ctx.order]
            solvers = tuple(p for p in names
                            if ctx.table_for(st, p).row_count(ctx.axis[p], w) == 1)
            before = st.M.count()
            add(eg.Reactions(solved=solvers))
            changed = st.M.count() != before
            for p in solvers:
                new = sp.stack(rng.randrange(sp.size))
                add(eg.Solve(player=p, cards=tuple(real[p]), new_cards=None if p == "A" else tuple(new)))
                real[p] = new
            if not solvers and not changed:
                break
    return setup, events, real


def egghead_mutations(setup, events, rng: random.Random, kinds=("answer", "solved")):
    """Every single-field mistyping of one answer or one reactions round, as (index, field,
    new event); an answer changes to another answer the deck allows for its question."""
    deck = eg.bound_deck(setup.values, setup.cards_per_player, len(setup.players))
    out = []
    for i, ev in enumerate(events):
        if isinstance(ev, eg.Answer) and "answer" in kinds:
            for a in deck[ev.question].possible_answers(len(setup.players)):
                if a != ev.answer:
                    out.append((i, "answer", eg.Answer(question=ev.question, answer=a, moderator=ev.moderator)))
        elif isinstance(ev, eg.Reactions) and "solved" in kinds:
            for mask in range(1 << len(setup.players)):
                solved = tuple(p for b, p in enumerate(setup.players) if mask >> b & 1)
                if set(solved) != set(ev.solved):
                    out.append((i, "solved", eg.Reactions(solved=solved)))
    return out


# ------------------------------------------------------------------ Cluedo
def cluedo_small_setup(players=("Me", "Ann", "Bob")):
    cats = {"suspect": ["S1", "S2"], "weapon": ["W1", "W2"], "room": ["R1", "R2", "R3"]}
    return cl.Setup.from_json({"categories": cats, "players": list(players), "me": "Me"})


def cluedo_log(setup, rng: random.Random, n_events: int):
    """A truthful Cluedo log from a random deal: my hand, suggestions (passers and refuter as
    the deal says, the shown card when I suggested), shown / lacks entries and wrong
    accusations. Returns (deal as owner index per card, events)."""
    import numpy as np

    from engines.cluedo.simulate import play_suggestion, random_deal
    nrng = np.random.default_rng(rng.randrange(2 ** 32))
    deal = random_deal(setup, nrng)
    k = len(setup.players)
    cards = setup.cards
    events = [cl.HandEvent(player=setup.me, cards=tuple(c for c, o in zip(cards, deal) if o == 0))]
    (_, S), (_, W), (_, R) = setup.categories
    while len(events) < n_events:
        kind = rng.randrange(4)
        c = rng.randrange(len(cards))
        p = rng.randrange(1, k)
        if kind == 0 and deal[c] < k and deal[c] != 0:
            events.append(cl.ShownEvent(player=setup.players[deal[c]], card=cards[c]))
        elif kind == 1 and deal[c] != p:
            events.append(cl.LacksEvent(player=setup.players[p], card=cards[c]))
        elif kind == 2:
            trip = (rng.choice(S), rng.choice(W), rng.choice(R))
            if not all(deal[setup.card_index(x)] == k for x in trip):
                events.append(cl.AccusationEvent(player=setup.players[p], cards=trip, correct=False))
        else:
            trip = (rng.choice(S), rng.choice(W), rng.choice(R))
            sug = rng.randrange(k)
            events.append(play_suggestion(setup, deal, sug, trip, nrng, reveal=sug == 0))
    return deal, events


# ------------------------------------------------------------------ Inkognito
def inkognito_log(rng: random.Random, n_events: int, four: bool = True):
    from engines.inkognito.simulate import _answer
    setup = ink.default_setup(None if four else ["Red", "Blue"])
    ident, build = ink.worlds(setup)
    w = rng.randrange(len(ident))
    shown = [[] for _ in setup.opponents]
    events = []
    for _ in range(4 * n_events):
        if len(events) >= n_events:
            break
        o = rng.randrange(len(setup.opponents))
        a = _answer(rng, setup, o, int(ident[w, o] * 4 + build[w, o]), rng.choice(ink.QUESTIONS),
                    rng.choice(ink.KINDS), None, shown[o])
        if a is not None:
            events.append(a)
    return setup, events


# ------------------------------------------------------------------ Guess Who?
def guesswho_log(rng: random.Random, n_events: int):
    setup = gw.default_setup()
    board = setup.board
    secret = rng.randrange(board.size)
    qs = list(board.questions())
    events = []
    for _ in range(n_events):
        if rng.random() < 0.7:
            q = rng.choice(qs)
            events.append(gw.Answer(question=q, answer=bool(board.truth(q)[secret])))
        else:
            events.append(gw.Eliminate(name=board.names[rng.choice(
                [j for j in range(board.size) if j != secret])]))
    return setup, events


def mutate_json(game_module, setup, event, rng: random.Random) -> Optional[tuple]:
    """One field of ``event`` changed at random through its JSON form (the way the desktop's
    form would store a slip), validated by the game's ``event_from_json``: (field, new event),
    or None when no other valid value was found in a few tries."""
    from engines.core.errors import SessionFormatError
    obj = event.to_json()
    fields = [k for k in obj if k != "type"]
    for _ in range(30):
        f = rng.choice(fields)
        new = dict(obj)
        v = obj[f]
        if isinstance(v, bool):
            new[f] = not v
        elif isinstance(v, int):
            new[f] = v + rng.choice([-2, -1, 1, 2])
        elif isinstance(v, list):
            pool = _pool(game_module, setup, f, obj)
            if not pool:
                continue
            lst = list(v)
            if lst and rng.random() < 0.7:
                lst[rng.randrange(len(lst))] = rng.choice(pool)
            elif lst and rng.random() < 0.5:
                lst.pop(rng.randrange(len(lst)))
            else:
                lst.append(rng.choice(pool))
            new[f] = lst
        elif isinstance(v, str) or v is None:
            pool = _pool(game_module, setup, f, obj)
            if not pool:
                continue
            new[f] = rng.choice(pool)
        else:
            continue
        if new == obj:
            continue
        try:
            ev = game_module.event_from_json(new, setup)
        except SessionFormatError:
            continue
        if ev != event:
            return f, ev
    return None


def _pool(mod, setup, f, obj):
    game = mod.GAME
    if game == "cluedo":
        if f in ("player", "suggester", "refuter", "passed"):
            return list(setup.players)
        if f in ("card", "cards", "shown"):
            return list(setup.cards)
    if game == "inkognito":
        if f == "opponent":
            return list(setup.opponents)
        if f == "identities":
            return list(setup.identities)
        if f == "builds":
            return list(setup.builds)
        if f == "question":
            return list(ink.QUESTIONS)
        if f == "asked":
            return list(ink.KINDS)
    if game == "guesswho":
        if f == "name":
            return list(setup.board.names)
    return []
