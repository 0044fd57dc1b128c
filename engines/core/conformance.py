"""The conformance kit: what the app relies on of a game, checked on the game alone.

A game package (this repository's or one installed beside it, docs/writing-a-game.md) runs it
from its own tests::

    from engines.core.conformance import conformance_problems
    from my_game.info import MY_GAME

    def test_my_game_conforms():
        assert conformance_problems(MY_GAME) == []

and this repository runs it on every registered game (``tests/engines/test_contract.py``), so
a plug-in installed here is held to exactly what the built-in games are. It checks the
required names of :class:`engines.core.contract.GameEngine` and each *optional* capability the
engine has (:data:`engines.core.contract.CAPABILITIES`), never one it lacks:

* the engine's ``GAME`` and ``TITLE`` are the ``GameInfo``'s id and title; ``infer`` takes
  ``method`` and ``cancel`` by keyword; every ``cancel`` is keyword-only with default None;
* the default setup, and the example session's setup and events, round-trip through
  ``to_json`` and the readers; every prefix of the example log infers (until a contradiction),
  its result is JSON without NaN and its ``belief_summary`` has the same finite keys after
  every event; ``cancel`` stops inference (and a simulation);
* with quick entry: each example entry reads back from its line (``format_event`` /
  ``parse``), ``preview`` and ``complete`` answer, and the placeholder's examples parse;
  with checking: no example entry is refused; with explanation: the example log has no
  conflict; with simulation: one ``simulate`` signature and a frozen ``SimConfig`` whose
  fields all have defaults.

Pure Python, no Qt and no pytest: it returns the problems as sentences, so any test runner (or
``python -c``) can use it. It imports the engine and runs it on the example session, which
takes what the engine takes (seconds for a heavy one).
"""
from __future__ import annotations

import dataclasses
import inspect
import json
import math
from typing import Callable

from engines.core.contract import (
    CANCELLABLE,
    GameEngine,
    cancel_keyword_ok,
    capabilities,
    check_engine,
    simulate_signature_ok,
)
from engines.core.errors import Cancelled, ContradictionError

#: Separator of the examples in :attr:`engines.registry.GameInfo.example` (the placeholder).
EXAMPLE_SEPARATOR = "   ·   "


def conformance_problems(info) -> list[str]:
    """Every way the game ``info`` (an :class:`engines.registry.GameInfo`) falls short of what
    the app relies on (module docstring), as sentences naming the game; ``[]`` when it
    conforms. Never raises for a fault of the game: an exception it raises is a problem."""
    problems: list[str] = []

    def check(what: str, fn: Callable[[], None]) -> bool:
        try:
            fn()
            return True
        except AssertionError as exc:
            problems.append(f"{info.id}: {what}: {exc}")
        except Exception as exc:   # noqa: BLE001 - the game's fault, reported as one
            problems.append(f"{info.id}: {what}: {type(exc).__name__}: {exc}")
        return False

    mod = None

    def load():
        nonlocal mod
        mod = info.module()

    if not check(f"import {info.engine}", load):
        return problems
    missing = check_engine(mod)
    if missing or not isinstance(mod, GameEngine):
        problems.append(f"{info.id}: not a GameEngine: {'; '.join(missing) or 'required names missing'}")
        return problems
    caps = capabilities(mod)
    check("names", lambda: _names(info, mod))
    check("cancel keywords", lambda: _cancel_keywords(mod, caps))
    if "simulation" in caps:
        check("simulation", lambda: _simulation(mod))
    check("default setup", lambda: _round_trip_setup(mod, mod.default_setup()))
    path = info.example_session_path()
    if info.example_session and path is None:
        problems.append(f"{info.id}: the example session {info.example_session} is missing")
    if path is None:
        return problems
    from engines.core.schema import read_session_file

    session = None

    def read():
        nonlocal session
        session = read_session_file(str(path))
        assert session.game == info.id, f"{path.name} is a {session.game!r} session"

    if not check(f"read {path.name}", read):
        return problems
    check("example session round trip", lambda: _round_trip_session(mod, session))
    check("every prefix infers", lambda: _every_prefix(mod, session))
    check("cancel", lambda: _cancel(mod, session, caps))
    if "quick_entry" in caps:
        check("quick entry", lambda: _quick_entry(info, mod, session))
    if "checking" in caps:
        check("checking", lambda: _checking(mod, session))
    if "explanation" in caps:
        check("explanation", lambda: _explanation(mod, session))
    return problems


def _names(info, mod) -> None:
    assert (mod.GAME, mod.TITLE) == (info.id, info.title), \
        f"GAME, TITLE = {mod.GAME!r}, {mod.TITLE!r}; the GameInfo says {info.id!r}, {info.title!r}"
    assert mod.METHODS and mod.EVENT_TYPES, "METHODS and EVENT_TYPES must not be empty"
    params = inspect.signature(mod.infer).parameters
    for name in ("method", "cancel"):
        assert name in params and params[name].kind is inspect.Parameter.KEYWORD_ONLY, \
            f"infer must take {name} by keyword only"


def _cancel_keywords(mod, caps) -> None:
    for cap, names in CANCELLABLE.items():
        for name in names if cap in caps else ():
            why = cancel_keyword_ok(getattr(mod, name))
            assert why is None, f"{name}: {why}"


def _simulation(mod) -> None:
    why = simulate_signature_ok(mod.simulate)
    assert why is None, why
    assert dataclasses.is_dataclass(mod.SimConfig) and mod.SimConfig.__dataclass_params__.frozen, \
        "SimConfig must be a frozen dataclass"
    mod.SimConfig()   # every option has a default


def _round_trip_setup(mod, setup) -> None:
    back = mod.Setup.from_json(setup.to_json())
    assert back == setup, "Setup.from_json(setup.to_json()) differs from the setup"


def _round_trip_session(mod, s) -> None:
    _round_trip_setup(mod, s.setup)
    for k, ev in enumerate(s.events):
        obj = ev.to_json()
        assert obj.get("type") in mod.EVENT_TYPES, f"event {k}: type {obj.get('type')!r} not in EVENT_TYPES"
        assert mod.event_from_json(obj, s.setup, f"$.events[{k}]") == ev, f"event {k} does not read back"
        assert isinstance(mod.describe_event(s.setup, ev), str), f"describe_event of event {k}"


def _every_prefix(mod, s) -> None:
    keys = None
    for k in range(len(s.events) + 1):
        try:
            post = mod.infer(s.setup, s.events[:k])
        except ContradictionError:
            break
        json.dumps(post.to_json(), allow_nan=False)
        summary = mod.belief_summary(s.setup, post)
        bad = [key for key, v in summary.items() if not (isinstance(v, float) and math.isfinite(v))]
        assert not bad, f"after {k} events, belief_summary values not finite floats: {bad}"
        keys = keys or list(summary)
        assert list(summary) == keys, f"after {k} events, belief_summary keys changed"


def _cancel(mod, s, caps) -> None:
    try:
        mod.infer(s.setup, s.events, cancel=lambda: True)
    except Cancelled:
        pass
    else:
        raise AssertionError("infer(..., cancel=lambda: True) did not raise Cancelled")
    if "simulation" in caps:
        try:
            mod.simulate(mod.SimConfig(), cancel=lambda: True)
        except Cancelled:
            pass
        else:
            raise AssertionError("simulate(..., cancel=lambda: True) did not raise Cancelled")


def _quick_entry(info, mod, s) -> None:
    events = list(s.events)
    for k, ev in enumerate(events):
        line = mod.format_event(s.setup, ev)
        assert mod.parse(s.setup, events[:k], line) == ev, f"event {k}: {line!r} does not read back"
        assert isinstance(mod.preview(s.setup, events[:k], line), str), f"preview of {line!r}"
        assert all(isinstance(c, str) for c in mod.complete(s.setup, events[:k], line[:3])), \
            f"complete of {line[:3]!r}"
    for line in filter(None, info.example.split(EXAMPLE_SEPARATOR)):
        mod.parse(s.setup, events, line)     # the placeholder's examples are lines that parse


def _checking(mod, s) -> None:
    events = list(s.events)
    for k, ev in enumerate(events):
        why = mod.contradiction(s.setup, events[:k], ev)
        assert why is None, f"example entry {k} refused: {why}"


def _explanation(mod, s) -> None:
    conflict = mod.explain_contradiction(s.setup, list(s.events))
    assert conflict is None, f"the example log has a conflict: entries {conflict}"
