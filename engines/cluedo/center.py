"""The analytical center of the relaxed Cluedo polytope (Agade09's Cluedo_Sheet, "Analytical center").

The 0/1 card × owner matrix is relaxed to [0, 1]. Rows sum to 1, hand columns to the hand
sizes, the envelope column to 1 per category; a refutation without a known card says the
refuter's three cells sum to at least 1, and a failed accusation that the three envelope cells
sum to at most 2 — each such inequality becomes an equality with a slack variable ``s >= 0``.
The analytical center maximises ``sum(log x) + sum(log s)`` over the free variables (cells fixed
by propagation are constants). It is fast but approximate: it measures volumes, while the true
posterior counts lattice points.

Late in a game the relaxed polytope is often not full-dimensional: the log forces some cells (or
slacks) to 0 in every relaxed solution, although propagation did not fix them, and a log barrier
over all variables then has no interior point (the solver fails). Those *implicit equalities*
are found first with one linear program (Freund, Roundy & Todd, "Identifying the set of
always-active constraints in a system of linear inequalities by a single linear program", MIT
Sloan WP 1674-85, 1985): in the homogenised system ``A x = t b, C x - t = s, x, s >= 0, t >= 1``
maximise ``sum(y)`` with ``0 <= y <= 1``, ``y <= x`` and ``y <= s`` componentwise; at the
optimum ``y_i = 1`` exactly for the variables that can be positive, ``y_i = 0`` for those forced
to 0. Those are fixed at 0 (a forced clause slack makes its clause an equality) and the centre is
taken in the remaining face, whose relative interior has every remaining variable positive.
"""
from __future__ import annotations

import numpy as np

from engines.cluedo.counting import Compiled
from engines.core.errors import check_cancel
from engines.core.i18n import _


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
    cells = [(c, o) for c in comp.free for o, _res, _cls in comp.choices[c]]
    if not cells:
        return matrix, None
    index = {cell: i for i, cell in enumerate(cells)}
    m = len(cells)
    rows, cols, b = [], [], []
    r = 0
    for c in comp.free:                                   # each card is somewhere
        for o, _res, _cls in comp.choices[c]:
            rows.append(r)
            cols.append(index[(c, o)])
        b.append(1.0)
        r += 1
    res_cells: dict = {}
    for (c, o), i in index.items():                       # hands and envelope slots
        res = next(rr for oo, rr, _cls in comp.choices[c] if oo == o)
        res_cells.setdefault(res, []).append(i)
    for res, idx in sorted(res_cells.items()):
        rows.extend([r] * len(idx))
        cols.extend(idx)
        b.append(float(comp.init[res]))
        r += 1
    A = sp.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(r, m))
    # clauses: sum of literals - 1 = slack
    clause_res = sorted({q for c in comp.free for _o, _res, qs in comp.choices[c] for q in qs})
    crow, ccol = [], []
    for j, q in enumerate(clause_res):
        for c in comp.touched[q]:
            for o, _res, qs in comp.choices[c]:
                if q in qs:
                    crow.append(j)
                    ccol.append(index[(c, o)])
    check_cancel(cancel)
    b = np.asarray(b)
    nc = len(clause_res)
    C = sp.csr_matrix((np.ones(len(crow)), (crow, ccol)), shape=(nc, m))
    pos = implicit_support(A, b, C)
    if pos is None:
        return None, _("the relaxed polytope is empty (linear program)")
    px, ps = pos[:m], pos[m:]
    xv = np.zeros(m)
    keep = np.flatnonzero(px)
    if len(keep):
        Ak = A[:, keep]
        x = cp.Variable(len(keep))
        objective = cp.sum(cp.log(x))
        constraints = [Ak @ x == b]
        if nc:
            Ck = C[:, keep]
            tight = np.flatnonzero(~ps)
            loose = np.flatnonzero(ps)
            if len(tight):
                constraints.append(Ck[tight] @ x == 1)
            if len(loose):
                s = cp.Variable(len(loose))
                objective = objective + cp.sum(cp.log(s))
                constraints.append(Ck[loose] @ x - 1 == s)
        prob = cp.Problem(cp.Maximize(objective), constraints)
        import warnings

        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                prob.solve(solver=cp.CLARABEL)
        except Exception as exc:  # noqa: BLE001 - any solver failure becomes a message
            return None, _("the convex solver failed ({error})").format(error=type(exc).__name__)
        if prob.status not in ("optimal", "optimal_inaccurate") or x.value is None \
                or not np.all(np.isfinite(x.value)):
            return None, _("the convex solver stopped (status {status})").format(status=prob.status)
        xv[keep] = np.clip(np.asarray(x.value, dtype=float), 0.0, 1.0)
    for (c, o), i in index.items():
        matrix[c, o] = xv[i]
    sums = matrix.sum(axis=1, keepdims=True)
    matrix = matrix / np.where(sums > 0, sums, 1.0)
    return matrix, None


def implicit_support(A, b, C):
    """Which variables of ``{x >= 0 : A x = b, s = C x - 1 >= 0}`` can be positive.

    Args:
        A: sparse (r, m), b: (r,) equalities; C: sparse (q, m) clause rows (``C x >= 1``).
    Returns:
        bool array (m + q,): for each ``x_i`` then each slack ``s_j``, whether some point of the
        polytope has it positive (False: forced to 0 on the whole polytope); None when the
        polytope is empty.
    Method: the single linear program of Freund, Roundy & Todd (1985) described in the module
    docstring, solved with HiGHS (``scipy.optimize.linprog``). Variables: x (m), s (q), t, y (m + q).
    """
    import scipy.sparse as sp
    from scipy.optimize import linprog

    r, m = A.shape
    q = C.shape[0]
    n = m + q
    # columns: x (m) | s (q) | t (1) | y (n)
    eq_top = sp.hstack([A, sp.csr_matrix((r, q)), sp.csr_matrix(-b.reshape(-1, 1)), sp.csr_matrix((r, n))])
    blocks = [eq_top]
    if q:
        blocks.append(sp.hstack([C, -sp.identity(q), -np.ones((q, 1)), sp.csr_matrix((q, n))]))
    A_eq = sp.vstack(blocks).tocsc()
    b_eq = np.zeros(A_eq.shape[0])
    A_ub = sp.hstack([-sp.identity(n), sp.csr_matrix((n, 1)), sp.identity(n)]).tocsc()   # y - (x, s) <= 0
    b_ub = np.zeros(n)
    c = np.concatenate([np.zeros(n + 1), -np.ones(n)])
    bounds = [(0, None)] * n + [(1, None)] + [(0, 1)] * n
    res = linprog(c, A_ub=A_ub, b_ub=b_ub, A_eq=A_eq, b_eq=b_eq, bounds=bounds, method="highs")
    if res.status != 0:
        return None
    return res.x[n + 1:] > 0.5
