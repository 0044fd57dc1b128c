"""The learned suggestion behaviour beside each player of the Cluedo worksheet (read from the
posterior the controller published; no inference here)."""
from __future__ import annotations

from engines.core.i18n import _


def learned_notes(post) -> dict:
    """``{column index: (short, long)}`` for the players whose suggestion behaviour the posterior
    learned (:mod:`engines.cluedo.suggestions`, the player set to "learn"): ``short`` for the
    header ("lacks 80 %", empty before enough suggestions), ``long`` for its tooltip (the summary
    and the posterior over the grid). Empty without a suggestion model."""
    model = getattr(post, "suggestion_model", None) or {}
    out = {}
    for i, owner in enumerate(getattr(post, "owners", ())):
        lt = model.get("learned", {}).get(owner)
        if not lt:
            continue
        grid = ", ".join(f"ρ {g:g}: {100 * q:.0f} %" for g, q in zip(lt["grid"], lt["posterior"]))
        long = _("{player} {summary} (from {n} suggestions; learned: {grid}; "
                 "the worksheet averages over these)").format(player=owner, summary=lt["summary"],
                                                             n=lt["suggestions"], grid=grid)
        out[i] = (lt["short"], long)
    return out
