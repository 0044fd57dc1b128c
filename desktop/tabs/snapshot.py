"""What one tab shows: the immutable snapshot of the moment selected (docs/ARCHITECTURE.md,
"One moment on screen").

A :class:`desktop.tabs.controller.GameController` publishes a new :class:`Snapshot` whenever what the
tab must show changes (the log, the selected History entry, a result, a cancel, an advice); the
views render it and read nothing else about the beliefs, so every text on screen speaks of the
same moment: the first :attr:`Snapshot.k` events of the log.
"""
from __future__ import annotations

import dataclasses
import enum
from types import MappingProxyType
from typing import Any, Mapping, Optional

from desktop.tabs.wording import PLAIN, Wording
from engines.core.errors import ContradictionError
from engines.core.i18n import _


class Status(enum.Enum):
    """Where the beliefs of the moment stand.

    COMPUTING: asked for, not delivered yet (the posterior, if any, is the previous one's).
    READY: the posterior of the moment is delivered. CANCELLED: Cancel stopped the work: nothing
    computes until the next change or Compute. CONTRADICTION: the log cannot all be true; the
    beliefs are those before the first impossible entry. ERROR: the engine failed otherwise.
    """

    COMPUTING = "computing"
    READY = "ready"
    CANCELLED = "cancelled"
    CONTRADICTION = "contradiction"
    ERROR = "error"


@dataclasses.dataclass(frozen=True)
class Advice:
    """One advisor's answer (a recommendation, what opponents know) for the moment.

    Attributes:
        value: the advisor job's result (partial while ``final`` is False); None with ``error``.
        final: False for a partial result still being refined.
        error: the exception that stopped the advisor, or None.
    """

    value: Any
    final: bool = True
    error: Optional[BaseException] = None


_NO_ADVICE: Mapping[str, Advice] = MappingProxyType({})


@dataclasses.dataclass(frozen=True, kw_only=True)
class Snapshot:
    """The moment a tab shows.

    Attributes:
        revision: the document revision the snapshot belongs to.
        setup: the document's setup at that revision (the game the moment is of; None before
            the first snapshot): panes draw from the snapshot alone.
        n: events in the log.
        events: the log at that revision, oldest first (``len(events) == n``; the moment is
            ``events[:k]``): forms that log after the whole log draw from it.
        selected: the History entry selected: -1 for the live view (the whole log), else ``k``.
        k: the prefix shown: the posterior is that of the first ``k`` events (``k <= n``; under
            a contradiction at most the last consistent prefix).
        status: :class:`Status`.
        posterior: the engine's posterior after ``k`` events, or None (not computed yet).
        timeline: the last :class:`engines.core.timeline.TimelineResult` of the whole log (the
            plots draw it; None before the first), or None.
        error: the ContradictionError or EngineError behind CONTRADICTION / ERROR.
        conflict: entries (0-based) that cannot all be true together, once found; None before.
        conflict_searching: True while they are searched.
        advice: advisor name -> :class:`Advice` for this moment (missing: not computed yet).
        seconds: wall time of the computation that delivered the timeline.
        busy: True while the beliefs are being recomputed (also under CONTRADICTION: the
            contradiction of an unchanged prefix stays while the rest is computed).
        why_fact: the fact the Why? popup asks about (engine JSON form), or None.
        why: its answer for this moment: a :class:`desktop.tabs.controller.WhyResult`, or the
            exception that stopped it; None while it is computed.
        wording: how the views word their numbers (:class:`desktop.tabs.wording.Wording`: plain
            words, or the Details view's figures).
    """

    revision: int = 0
    setup: Any = None
    n: int = 0
    events: tuple = ()
    selected: int = -1
    k: int = 0
    status: Status = Status.COMPUTING
    posterior: Any = None
    timeline: Any = None
    error: Optional[BaseException] = None
    conflict: Optional[tuple] = None
    conflict_searching: bool = False
    advice: Mapping[str, Advice] = _NO_ADVICE
    seconds: float = 0.0
    busy: bool = True
    why_fact: Optional[dict] = None
    why: Any = None
    wording: Wording = PLAIN

    @property
    def live(self) -> bool:
        """True when the moment is the whole log (no past entry selected, or the last one)."""
        return self.selected < 0 or self.k >= self.n

    @property
    def contradiction_index(self) -> Optional[int]:
        """The first impossible entry (0-based; -1 the setup), or None."""
        if isinstance(self.error, ContradictionError):
            return self.error.event_index
        return None

    def scope(self) -> str:
        """"" for the whole log, else "as after entry k of n" (how views name the moment)."""
        return "" if self.live else _("as after entry {k} of {n}").format(k=self.k, n=self.n)

    def advice_for(self, name: str) -> Optional[Advice]:
        return self.advice.get(name)

    def replace(self, **changes) -> "Snapshot":
        if "advice" in changes:
            changes["advice"] = MappingProxyType(dict(changes["advice"]))
        return dataclasses.replace(self, **changes)
