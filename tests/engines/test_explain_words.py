"""Explanations in words: every step states its rule and the entries it uses, no step concludes
what it starts from, long lists say "and N more" with the full list in the details, questions are
quoted as asked, counting arguments say what was counted."""
import random
import re
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engines.cluedo as cl
import engines.egghead as eg
import engines.guesswho as gw
import engines.inkognito as ink
from engines.guesswho.board import Question

sys.path.insert(0, str(Path(__file__).resolve().parent))
from random_logs import egghead_log

EGG_RULES = ("answers truthfully", "solve as soon as they know their cards", "called their cards",
             "none of your stacks")


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2 ** 32 - 1))
def test_egghead_steps_name_their_rule_and_never_repeat_a_count(seed):
    rng = random.Random(seed)
    setup, events, _ = egghead_log(rng, 3, 3)
    valid = set(eg.infer(setup, events).my_valids)
    sp = eg.stack_space(setup.values, setup.cards_per_player)
    out = [sp.stack(j) for j in range(sp.size) if sp.stack(j) not in valid]
    for stack in rng.sample(out, min(3, len(out))):
        e = eg.explain(setup, events, {"stack": list(stack)})
        counts = []
        for step in e.steps:
            if step.startswith("#") and ": " in step.split("→")[0]:
                assert any(r in step for r in EGG_RULES), step
                m = re.search(r"(\d+) of your stacks remain", step)
                counts.append(int(m.group(1)) if m else None)
                left, right = step.split(" → ", 1)
                assert left.strip() != right.strip()
        nums = [c for c in counts if c is not None]
        assert all(a > b for a, b in zip(nums, nums[1:])), e.steps   # each one rules out more
        assert e.steps[-1].endswith(f"you do not hold {' '.join(map(str, stack))}")
        for short, full in zip(e.steps, e.details or e.steps):
            if " more" in short:
                n = int(re.search(r"and (\d+) more", short).group(1))
                assert full and full.count(",") >= n


def test_guesswho_question_as_asked_and_complete_lists():
    setup = gw.default_setup()
    board = setup.board
    no_glasses = gw.Answer(question=Question((("glasses", False),)), answer=True)
    log = [no_glasses]
    gone = [n for n, t in zip(board.names, board.truth(Question((("glasses", True),)))) if t]
    e = gw.explain(setup, log, {"name": gone[0]})
    assert e.status == "impossible"
    assert "you asked “no glasses?” and the answer was yes" in e.steps[0]
    assert "the secret character has no glasses" in e.steps[0]
    # a certain character: the step of an answer that rules out many lists them all (details)
    male = [q for q in board.questions() if q.label() == "gender: male?"][0]
    names = board.names
    truth = board.truth(male)
    keep = next(n for n, t in zip(names, truth) if not t)
    log = [gw.Answer(question=male, answer=False)] + [gw.Eliminate(name=n) for n, t in zip(names, truth)
                                      if not t and n != keep]
    e = gw.explain(setup, log, {"name": keep})
    assert e.status == "certain"
    first = e.steps[0]
    men = [n for n, t in zip(names, truth) if t]
    assert len(men) > 8
    assert f"and {len(men) - 8} more" in first
    assert all(m in e.details[0] for m in men)
    assert "does not have male gender" in first
    assert e.to_json()["details"][0] == e.details[0]


def test_inkognito_intermediate_conclusion_has_its_reason():
    LF, MZ, _, AX = ink.default_names()["identities"]
    _, SHORT, FAT, THIN = ink.default_names()["builds"]
    s = ink.default_setup()
    log = [ink.Answer(opponent="Red", question="player", asked="build", identities=(LF,), builds=(SHORT, FAT)),
           ink.Answer(opponent="Red", question="ambassador", asked="build", identities=(), builds=(FAT, THIN)),
           ink.Answer(opponent="Red", question="player", asked="identity", identities=(LF, MZ), builds=(FAT,)),
           ink.Answer(opponent="Blue", question="ambassador", asked="identity", identities=(LF, AX), builds=())]
    e = ink.explain(s, log, {"opponent": "Red", "build": FAT})
    step = next(x for x in e.steps if x.endswith("→ Blue is Lord Fiddlebottom"))
    assert step.startswith("#4 (exactly one of Lord Fiddlebottom or Agent X is true of Blue)")
    assert "you are Agent X" in step


def test_cluedo_counting_argument_says_what_was_counted():
    from engines.cluedo.explain import _count, derivation
    setup = cl.default_setup()
    triples = [("Miss Scarlett", "Candlestick", "Kitchen"), ("Colonel Mustard", "Dagger", "Ballroom")]
    events = [cl.SuggestionEvent(suggester="Ann", cards=t, passed=("Bob",), refuter="Cy") for t in triples]
    rope = setup.card_index("Rope")
    step = derivation(setup, events, (0, 1), rope, 3, False)[0]
    n = _count(setup, events)
    at = _count(setup, events, lambda c: c.force(rope, 3))
    assert f"of the {n:,} deals of the cards that fit #1, #2" in step
    assert f"{at:,} put Rope with Cy" in step
    # a subset that forces the fact: none of the deals left puts the card there
    events = [cl.SuggestionEvent(suggester="Ann", cards=t, passed=("Bob",), refuter="Cy") for t in triples + [
        ("Mrs White", "Lead Piping", "Conservatory"), ("Reverend Green", "Revolver", "Billiard Room")]]
    step = derivation(setup, events, (0, 1, 2, 3), rope, 3, False)[0]
    assert "Cy lacks Rope" in step or "none puts Rope with Cy" in step
