"""The optional capabilities of a game engine, asked in one place.

A game engine module always offers the :class:`engines.core.contract.GameEngine` functions; the
desktop also uses a few optional ones when the engine has them: ``contradiction(setup, events,
event)`` (why an entry cannot follow the log, in words), ``explain`` and
``explain_contradiction`` (the Why? popup and the conflict banner) and ``fact_reason``, each a
Protocol of :mod:`engines.core.contract`. Each question is a small function here, so the rest of
the desktop does not probe modules with ``getattr``. Whether a log's prefixes must be computed in
order (a state too large to copy: Egghead with 6 players) is no engine function but the belief
timeline's answer (:attr:`engines.core.timeline.Timeline.in_order`, from the
:class:`engines.core.contract.IncrementalEngine`'s ``state_bytes`` and the memory budget).
"""
from __future__ import annotations

from typing import Any

from engines.core.contract import has_capability


def can_explain(module: Any) -> bool:
    """Whether the engine explains facts (``explain``) and contradictions
    (``explain_contradiction``): :class:`engines.core.contract.ExplainingEngine`."""
    return has_capability(module, "explanation")


