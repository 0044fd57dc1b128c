"""Egghead's point-wise check of one event (engines/egghead/diagnosis.py ``refuses``), which
lets the diagnosis skip whole-table updates, is exact: on random truthful logs and every
candidate edit of every entry (answers, reactions, solves), it says "refused" exactly when the
master-table engine's ``update`` raises at that event, and it leaves the state unchanged."""
import dataclasses
import random

import numpy as np
import pytest
from random_logs import egghead_log

from engines.core.errors import ContradictionError
from engines.egghead import diagnosis as egd
from engines.egghead import inference as egi


def _fits(setup, st, i, ev) -> bool:
    try:
        egi.update(setup, egi.copy_state(st), i, ev)
    except ContradictionError:
        return False
    return True


@pytest.mark.parametrize("players,seed,models", [(3, 1, "all"), (3, 2, "all"), (4, 3, "all"),
                                                  (3, 4, "answers"), (3, 5, "none")])
def test_refuses_is_exactly_the_engines_verdict(players, seed, models):
    """``models``: who is modelled with behavioural analysis — "all", "answers" (the others
    from the answers-only table), "none" (nor me)."""
    rng = random.Random(seed)
    setup, events, _ = egghead_log(rng, players, 3)
    if models != "all":
        setup = dataclasses.replace(setup, analysing=(),
                                    behavioural_analysis=models == "answers")
    ctx = egi._Ctx(setup)
    st = egi.initial(setup)
    checked = refused = 0
    for i, ev in enumerate(events):
        cands = [ev] + [e.event for e in egd._edits(setup, events, i)]
        if players == 4:
            cands = cands[:12]                       # the 4-player table: a sample per entry
        before = st.M.t.copy(), st.ans_row.copy(), dict(st.visible)
        for cand in cands:
            verdict = egd.refuses(ctx, st, cand)
            assert verdict is not None
            assert verdict == (not _fits(setup, st, i, cand)), (i, cand)
            checked += 1
            refused += verdict
        assert np.array_equal(st.M.t, before[0]) and np.array_equal(st.ans_row, before[1])
        assert st.visible == before[2]
        try:
            egi.update(setup, st, i, ev)
        except ContradictionError:      # the log was played under the other players' model
            break
    assert checked > 20 and 0 < refused < checked      # both verdicts were exercised


def test_new_cards_edits_decided_together_as_one_by_one():
    """The edits of a solve's new cards share one replay of the tables (``_Checker``); each
    verdict equals the replay of that edit alone, on logs where the solve was mistyped or not."""
    compared = agreed_true = 0
    for players, seed in [(3, 6), (3, 7), (4, 8), (3, 9), (3, 10)]:
        rng = random.Random(seed)
        setup, events, _ = egghead_log(rng, players, 3)
        solves = [i for i, e in enumerate(events) if hasattr(e, "new_cards")
                  and e.new_cards is not None]
        for i in solves[:1]:
            for bad in [None] + egd._one_card_off(setup, tuple(events[i].new_cards))[:1]:
                log = list(events)
                if bad is not None:
                    log[i] = dataclasses.replace(events[i], new_cards=bad)
                chk = egd.checker(setup, log)
                edits = [e for e in egd._edits(setup, log, i) if e.field == "new_cards"][:8]
                edits.append(egd.Edit(i, "new_cards", None, events[i], 2.0, "as played"))
                if chk.group(edits[0]) is None:
                    continue
                tails = [[e.event] + log[i + 1:] for e in edits]
                together = chk.consistent_batch(i, tails)
                alone = [egd.checker(setup, log).consistent_with(i, t, i + 1) for t in tails]
                assert together == alone, (i, bad)
                compared += len(tails)
                agreed_true += sum(alone)
    assert compared > 20 and 0 < agreed_true < compared
