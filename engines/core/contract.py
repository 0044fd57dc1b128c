"""The engine contract as code: what every ``engines/<game>`` package offers.

The desktop (``desktop/``), the command line (``engines/__main__.py``), the session reader
(:mod:`engines.core.schema`) and the belief timeline (:mod:`engines.core.timeline`) use only
these names, so a game is pluggable: a module that satisfies :class:`GameEngine` can be
declared in the game registry (:mod:`engines.registry`, :data:`engines.GAMES`) and gets a tab,
session files, ``python -m engines infer``, a history with the beliefs after every entry and a
CSV export. ``isinstance(module, GameEngine)``
checks that the names exist (a ``runtime_checkable`` Protocol checks presence, not types);
``tests/engines/test_contract.py`` checks the behaviour for every registered game.

Layout of a game package (the same in every game)::

    engines/<game>/__init__.py   re-exports the public names below
    engines/<game>/model.py      GAME, TITLE, EVENT_TYPES, Setup, events, event_from_json,
                                 describe_event, default_setup
    engines/<game>/inference.py  METHODS, infer, belief_summary (and the Posterior)
    engines/<game>/recommend.py  recommend (where the next move needs its own module)
    engines/<game>/simulate.py   SimConfig, simulate, SimulationResult, add_simulate_arguments,
                                 simulate_main

The optional capabilities — :class:`QuickEntryEngine`, :class:`CheckingEngine`,
:class:`ExplainingEngine`, :class:`FactReasonEngine`, :class:`Recommender`, :class:`Simulator`,
:class:`IncrementalEngine` — are Protocols too; :func:`capabilities` names those a module has,
and the desktop builds the matching part of a tab (quick entry, the check of a form's entry,
Why?, …) only for an engine that has it.

Errors: :class:`~engines.core.errors.SessionFormatError` for bad input (with the JSON path),
:class:`~engines.core.errors.ContradictionError` for an impossible log,
:class:`~engines.core.errors.Cancelled` when ``cancel()`` became true. Never NaN in a result.
"""
from __future__ import annotations

import argparse
from typing import Any, Callable, Optional, Protocol, Sequence, runtime_checkable

from engines.core.errors import CancelFlag, Progress


@runtime_checkable
class GameEngine(Protocol):
    """A game's inference engine (a module). Pure functions: no state between calls.

    Attributes:
        GAME: the session file's ``"game"`` value (``"cluedo"``, …).
        TITLE: the tab title (``"Guess Who?"``).
        METHODS: inference methods; the first is the default.
        EVENT_TYPES: the ``"type"`` values of events. Optional beside it, ``EVENT_KEYS``
            (``{type: keys}``, from what each event's ``to_json`` writes): the keys the reader
            accepts in an event (engines/CONTRACT.md).
        Setup: frozen dataclass with ``Setup.from_json(obj, path="$.setup")`` (raises
            SessionFormatError naming the JSON path) and ``setup.to_json()`` (round-trips).
    """

    GAME: str
    TITLE: str
    METHODS: tuple
    EVENT_TYPES: tuple
    Setup: type

    def default_setup(self) -> Any:
        """The setup the New game dialog starts from."""

    def event_from_json(self, obj: Any, setup: Any, path: str) -> Any:
        """One event validated against ``setup`` (a frozen dataclass with ``to_json()``
        including ``"type"``); raises SessionFormatError at ``path``."""

    def describe_event(self, setup: Any, event: Any) -> str:
        """The event in words for the history panel."""

    def infer(self, setup: Any, events: Sequence, *, method: str = ...,
              cancel: CancelFlag = None) -> Any:
        """The posterior after ``events``: a frozen dataclass whose ``to_json()`` is the CLI
        output. Raises ContradictionError(event_index, message) naming the first event after
        which nothing is consistent; polls ``cancel`` in long loops."""

    def belief_summary(self, setup: Any, posterior: Any) -> dict:
        """Flat named numbers (probabilities, or bits for keys ending in ``_bits``) for the
        CSV export and the belief plot; the same keys after every event of a session."""


@runtime_checkable
class Recommender(Protocol):
    """A game that advises the next move (``python -m engines recommend FILE``)."""

    def recommend(self, setup: Any, events: Sequence, *, cancel: CancelFlag = None) -> Any:
        """The next move: an object with ``to_json()``."""


@runtime_checkable
class Simulator(Protocol):
    """A game's simulator (``python -m engines simulate GAME ...``).

    Attributes:
        SimConfig: frozen dataclass of the run's options, every field with a default.
        SimulationResult: the result type; ``to_json()`` gives JSON-able figures.
    """

    SimConfig: type
    SimulationResult: type

    def simulate(self, config: Any, *, progress: Progress = None,
                 cancel: CancelFlag = None) -> Any:
        """Run the simulation described by ``config``; ``progress(done, total)`` is called as
        work finishes; raises Cancelled when ``cancel()`` becomes true and SessionFormatError
        for a bad option (path = the CLI option)."""

    def add_simulate_arguments(self, parser: argparse.ArgumentParser) -> None:
        """Add the simulator's command-line options to ``parser``."""

    def simulate_main(self, args: argparse.Namespace) -> dict:
        """Run from parsed arguments; a JSON-able result."""


@runtime_checkable
class IncrementalEngine(Protocol):
    """Optional: an engine that folds events one at a time (Bayesian filtering).

    :class:`engines.core.timeline.Timeline` uses these, when present, so that appending an
    event costs one update instead of a whole inference. ``infer(setup, events)`` must equal
    ``posterior(setup, fold(update, events, initial(setup)))``.
    """

    def initial(self, setup: Any) -> Any:
        """The state before any event (owned by the caller)."""

    def update(self, setup: Any, state: Any, index: int, event: Any,
               cancel: CancelFlag = None) -> Any:
        """The state after ``event`` (event number ``index``, 0-based). May change ``state``
        in place and return it: the timeline copies a state it wants to keep
        (``copy_state``). Raises ContradictionError(index, ...) when nothing is left."""

    def posterior(self, setup: Any, state: Any, cancel: CancelFlag = None) -> Any:
        """The posterior (what ``infer`` returns) of a state; does not change the state."""

    def copy_state(self, state: Any) -> Any:
        """An independent copy of ``state`` (a snapshot the timeline keeps)."""

    def state_bytes(self, setup: Any) -> int:
        """Bytes of one state for ``setup``: the timeline keeps snapshots while they fit its
        memory budget and otherwise moves one live state forward."""


@runtime_checkable
class QuickEntryEngine(Protocol):
    """Optional: events typed as one line (the desktop's quick entry; engines/CONTRACT.md).

    The grammar is the module docstring of the engine's ``parse`` module; names match by any
    unique prefix of any word (:mod:`engines.core.names`). Pure functions, microseconds: the
    desktop calls them on the GUI thread at every keystroke.
    """

    def parse(self, setup: Any, events: Sequence, text: str) -> Any:
        """The event ``text`` stands for; raises SessionFormatError("$.text", message) naming
        the unknown or ambiguous word and its candidates."""

    def preview(self, setup: Any, events: Sequence, text: str) -> str:
        """The typed line's event in words (``describe_event``); SessionFormatError as parse."""

    def complete(self, setup: Any, events: Sequence, text: str) -> list:
        """Whole-line completions of the line's last word (strings)."""

    def format_event(self, setup: Any, event: Any) -> str:
        """The canonical line of ``event`` (``parse`` reads it back)."""


@runtime_checkable
class CheckingEngine(Protocol):
    """Optional: a new entry checked against the log before it is logged."""

    def contradiction(self, setup: Any, events: Sequence, event: Any, *,
                      cancel: CancelFlag = None) -> Optional[str]:
        """Why ``event`` cannot follow ``events`` ("you hold it"), or None. May run the
        engine (milliseconds to seconds): polls ``cancel`` and raises Cancelled; raises
        SessionFormatError when ``event`` is not an event of ``setup``.

        The verdict: None exactly when ``infer(setup, [*events, event])`` with the default
        method raises no ContradictionError (``tests/engines/test_contract.py`` checks it), so
        :meth:`engines.core.timeline.Timeline.check` decides from its cached posteriors and asks
        this function only for the words of a refusal."""


@runtime_checkable
class ExplainingEngine(Protocol):
    """Optional: why a fact is certain or ruled out, and which entries conflict
    (:mod:`engines.core.explain`; ``python -m engines explain``)."""

    def explain(self, setup: Any, events: Sequence, fact: dict, *,
                cancel: CancelFlag = None) -> Any:
        """An :class:`engines.core.explain.Explanation` of ``fact`` under ``events``;
        SessionFormatError at ``$.fact…`` for a fact naming nothing in the setup;
        ConflictError for a contradictory log."""

    def explain_contradiction(self, setup: Any, events: Sequence, *,
                              cancel: CancelFlag = None) -> Optional[list]:
        """An irreducible list of 0-based entry indices that cannot all be true together
        (None: the log is consistent)."""


@runtime_checkable
class FactReasonEngine(Protocol):
    """Optional: the reason a worksheet cell is decided, read from an exact posterior (no
    inference; Cluedo's "shown to Bob in suggestion 3")."""

    def fact_reason(self, setup: Any, posterior: Any, player: str, card: str,
                    has: bool) -> Optional[str]:
        """Why ``player`` has (``has``) or lacks ``card`` under ``posterior``, or None."""


#: Capability name -> its Protocol: what :func:`capabilities` reports.
CAPABILITIES: dict[str, type] = {
    "quick_entry": QuickEntryEngine,
    "checking": CheckingEngine,
    "explanation": ExplainingEngine,
    "fact_reasons": FactReasonEngine,
    "recommendation": Recommender,
    "simulation": Simulator,
    "incremental": IncrementalEngine,
}

#: Functions of the capabilities whose ``cancel`` must be keyword-only with default None.
CANCELLABLE = {"checking": ("contradiction",),
               "explanation": ("explain", "explain_contradiction"),
               "recommendation": ("recommend",)}


def capabilities(module: Any) -> frozenset[str]:
    """The names of :data:`CAPABILITIES` whose Protocol ``module`` satisfies."""
    return frozenset(name for name, proto in CAPABILITIES.items() if isinstance(module, proto))


def has_capability(module: Any, name: str) -> bool:
    """Whether ``module`` satisfies the Protocol of capability ``name`` (a key of
    :data:`CAPABILITIES`; KeyError otherwise)."""
    return isinstance(module, CAPABILITIES[name])


def cancel_keyword_ok(fn: Callable) -> Optional[str]:
    """None when ``fn`` takes ``cancel`` as a keyword-only parameter with default None, else
    what differs (for the conformance test's message)."""
    import inspect

    p = inspect.signature(fn).parameters.get("cancel")
    if p is None or p.kind is not inspect.Parameter.KEYWORD_ONLY or p.default is not None:
        return f"{getattr(fn, '__name__', fn)}: cancel must be keyword-only with default None"
    return None


def check_engine(module: Any) -> list[str]:
    """The contract's names missing from ``module`` (empty when it conforms).

    Returns:
        a list of messages such as ``"engines.x: no infer"``.
    """
    name = getattr(module, "__name__", repr(module))
    need = [n for n in _names(GameEngine) if not hasattr(module, n)]
    return [f"{name}: no {n}" for n in need]


def _names(proto: type) -> list[str]:
    return sorted(n for n in getattr(proto, "__protocol_attrs__", ()) if not n.startswith("_"))


def simulate_signature_ok(fn: Callable) -> Optional[str]:
    """None when ``fn`` has the contract's signature ``simulate(config, *, progress=None,
    cancel=None)``, else what differs (for the conformance test's message)."""
    import inspect

    params = list(inspect.signature(fn).parameters.values())
    if not params or params[0].name != "config":
        return "the first parameter must be config"
    kw = {p.name: p for p in params[1:]}
    for n in ("progress", "cancel"):
        p = kw.get(n)
        if p is None or p.kind is not inspect.Parameter.KEYWORD_ONLY or p.default is not None:
            return f"{n} must be keyword-only with default None"
    extra = set(kw) - {"progress", "cancel"}
    if extra:
        return f"unexpected parameters {sorted(extra)}"
    return None
