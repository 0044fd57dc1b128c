"""Inkognito's deception model over long logs: the per-opponent tables are kept in log space,
so thousands of consistent answers never underflow into a false contradiction.

The answers are drawn from the rules' answer sets for a known deal (Inkognito, L. Colovini &
A. Randolph, 1988): with probability θ the lone statement is true, else the asked pair holds
the truth. An answer one opponent gives many times multiplies the same likelihood ratio into
the table each time, so without log space the cells the other opponents' answers leave
possible fall below the smallest float relative to the opponent's best cell.
"""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from engines.core.errors import ContradictionError
from engines.inkognito.inference import infer, recommend, worlds
from engines.inkognito.likelihood import form_table
from engines.inkognito.model import Answer, Deception, default_setup


def _answer(setup, rng, opponent, cell, theta, asked="identity"):
    """An answer of ``opponent`` with true ``cell`` (4 identity + build) to a player question,
    drawn with the deception parameter ``theta``."""
    table = form_table("player", asked, False)
    lone = np.flatnonzero(table.lone[:, cell])
    pair = np.flatnonzero(table.pair[:, cell])
    rows = lone if rng.random() < theta else pair
    im, bm = table.answers[int(rng.choice(rows))]
    return Answer(opponent=opponent, question="player", asked=asked,
                  identities=tuple(setup.identities[j] for j in range(4) if im >> j & 1),
                  builds=tuple(setup.builds[j] for j in range(4) if bm >> j & 1))


@pytest.mark.parametrize("theta", [0.05, 0.6, 0.95])
def test_5000_consistent_answers_are_no_contradiction(theta):
    setup = dataclasses.replace(default_setup(), no_repeats=False,
                                deception=Deception(enabled=True, prior=(1.0, 4.0)))
    ident, build = worlds(setup)
    rng = np.random.default_rng(2026)
    true_world = int(rng.integers(len(ident)))
    cells = ident[true_world] * 4 + build[true_world]
    events = [_answer(setup, rng, setup.opponents[k % 3], int(cells[k % 3]), theta,
                      "identity" if k % 2 else "build") for k in range(5000)]
    for method in ("joint", "independent"):
        post = infer(setup, events, method=method)   # consistent: must not raise
        for o, name in enumerate(setup.opponents):
            joint = post.opponents[name].joint
            assert np.isfinite(joint).all() and abs(joint.sum() - 1) < 1e-9
            # 5000 answers single out every opponent's cell
            assert joint.ravel()[cells[o]] > 0.99, (method, name)
    rec = recommend(setup, events)
    assert all(np.isfinite(r.information_bits) for r in rec)


def test_an_answer_that_only_the_disfavoured_cell_allows_is_no_contradiction():
    """Opponent A answers 4999 times in a way that favours cell Y over cell X by a factor each
    time (both stay possible); then one answer Y does not allow. The posterior must rule Y out,
    keep X, and not report a contradiction."""
    setup = dataclasses.replace(default_setup(), no_repeats=False,
                                deception=Deception(enabled=True, prior=(1.0, 1.0)))
    table = form_table("player", "identity", False)
    a = setup.opponents[0]
    free_i = [k for k in range(4) if k != setup.my_identity_index]
    free_b = [k for k in range(4) if k != setup.my_build_index]
    X, Y = 4 * free_i[0] + free_b[0], 4 * free_i[1] + free_b[0]
    # an answer valid for both cells whose likelihood differs between them, and one valid
    # for X only
    both = [r for r in range(len(table.answers))
            if table.valid[r, X] and table.valid[r, Y] and table.lone[r, Y] != table.lone[r, X]]
    only_x = [r for r in range(len(table.answers)) if table.valid[r, X] and not table.valid[r, Y]]
    assert both and only_x

    def ev(r):
        im, bm = table.answers[r]
        return Answer(opponent=a, question="player", asked="identity",
                      identities=tuple(setup.identities[j] for j in range(4) if im >> j & 1),
                      builds=tuple(setup.builds[j] for j in range(4) if bm >> j & 1))

    events = [ev(both[0])] * 4999 + [ev(only_x[0])]
    try:
        post = infer(setup, events)
    except ContradictionError as exc:   # pragma: no cover (the defect this test guards)
        pytest.fail(f"false contradiction: {exc}")
    joint = post.opponents[a].joint.ravel()
    assert joint[Y] == 0.0 and joint[X] > 0.0
    assert np.isfinite(joint).all() and joint.sum() == pytest.approx(1.0)
