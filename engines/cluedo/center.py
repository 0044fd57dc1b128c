"""The analytical center of the relaxed Cluedo polytope (seed 004, "Analytical center").

The 0/1 card × owner matrix is relaxed to [0, 1]. Rows sum to 1, hand columns to the hand
sizes, the envelope column to 1 per category; a refutation without a known card says the
refuter's three cells sum to at least 1, and a failed accusation that the three envelope cells
sum to at most 2 — each such inequality becomes an equality with a slack variable ``s >= 0``.
The analytical center maximises ``sum(log x) + sum(log s)`` over the free variables (cells fixed
by propagation are constants). It is fast but approximate: it measures volumes, while the true
posterior counts lattice points.
"""
from __future__ import annotations

import numpy as np

from engines.core.errors import check_cancel
from engines.cluedo.counting import Compiled


def analytic_center(setup, comp: Compiled, cancel=None):
    """Solve for the analytical center.

    Args:
        setup: the :class:`~engines.cluedo.model.Setup`.
        comp: the propagated constraints (feasible).
    Returns:
        ``(matrix, note)``: float array (n_cards, n_players + 1) of approximate probabilities
        and None; or ``(None, reason)`` when the solver fails (the caller falls back).
    """
    import cvxpy as cp
    import scipy.sparse as sp

    k = comp.n_players
    n = comp.n_cards
    matrix = np.zeros((n, k + 1))
    for c, o in comp.fixed.items():
        matrix[c, o] = 1.0
    cells = [(c, o) for c in comp.free for o, _, _ in comp.choices[c]]
    if not cells:
        return matrix, None
    index = {cell: i for i, cell in enumerate(cells)}
    m = len(cells)
    rows, cols, b = [], [], []
    r = 0
    for c in comp.free:                                   # each card is somewhere
        for o, _, _ in comp.choices[c]:
            rows.append(r)
            cols.append(index[(c, o)])
        b.append(1.0)
        r += 1
    res_cells: dict = {}
    for (c, o), i in index.items():                       # hands and envelope slots
        res = next(rr for oo, rr, _ in comp.choices[c] if oo == o)
        res_cells.setdefault(res, []).append(i)
    for res, idx in sorted(res_cells.items()):
        rows.extend([r] * len(idx))
        cols.extend(idx)
        b.append(float(comp.init[res]))
        r += 1
    A = sp.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(r, m))
    # clauses: sum of literals - 1 = slack
    clause_res = sorted({q for c in comp.free for _, _, qs in comp.choices[c] for q in qs})
    crow, ccol = [], []
    for j, q in enumerate(clause_res):
        for c in comp.touched[q]:
            for o, _, qs in comp.choices[c]:
                if q in qs:
                    crow.append(j)
                    ccol.append(index[(c, o)])
    check_cancel(cancel)
    x = cp.Variable(m)
    objective = cp.sum(cp.log(x))
    constraints = [A @ x == np.asarray(b)]
    if clause_res:
        C = sp.csr_matrix((np.ones(len(crow)), (crow, ccol)), shape=(len(clause_res), m))
        s = cp.Variable(len(clause_res))
        objective = objective + cp.sum(cp.log(s))
        constraints.append(C @ x - 1 == s)
    prob = cp.Problem(cp.Maximize(objective), constraints)
    import warnings

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            prob.solve(solver=cp.CLARABEL)
    except Exception as exc:  # noqa: BLE001 - any solver failure becomes a message
        return None, f"the convex solver failed ({type(exc).__name__})"
    if prob.status != "optimal" or x.value is None or not np.all(np.isfinite(x.value)):
        return None, f"the relaxed polytope has no interior point the solver could reach (status {prob.status})"
    xv = np.clip(np.asarray(x.value, dtype=float), 0.0, 1.0)
    for (c, o), i in index.items():
        matrix[c, o] = xv[i]
    sums = matrix.sum(axis=1, keepdims=True)
    matrix = matrix / np.where(sums > 0, sums, 1.0)
    return matrix, None
