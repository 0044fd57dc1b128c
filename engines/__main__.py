"""Command line: ``python -m engines infer|recommend|explain|parse|simulate|study ...`` (docs/cli.md).

Exit codes: 0 ok, 2 bad input (the message names the file and the JSON path of the field),
3 contradiction (the message names the event). No traceback for user errors.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys

from engines import available_games, game_module, warm_up
from engines.core.contract import ExplainingEngine, QuickEntryEngine, Recommender, Simulator
from engines.core.errors import ContradictionError, SessionFormatError, one_line
from engines.core.schema import check_text, excerpt, not_text, read_session_file
from engines.registry import known_games, registered_games

EXIT_OK, EXIT_BAD_INPUT, EXIT_CONTRADICTION = 0, 2, 3


class _Parser(argparse.ArgumentParser):
    """argparse, with its errors as one line on stderr (control characters escaped, the length
    bounded: :func:`engines.core.errors.one_line`) and exit code 2, like every other bad input;
    argparse itself echoes what was typed as it is (terminal escapes included) after the whole
    usage text."""

    def error(self, message):
        print(f"error: {one_line(message)} (python -m engines "
              f"{' '.join(self.prog.split()[3:]) + ' ' if len(self.prog.split()) > 3 else ''}"
              f"--help lists the options)", file=sys.stderr)
        sys.exit(EXIT_BAD_INPUT)


def _quiet_unraisable(unraisable) -> None:
    """``sys.unraisablehook`` of the command line: an exception in a finaliser at exit (Dask's
    client closing a connection to a server that was not a Dask scheduler) is not the user's
    error and prints no traceback; one line says what it was."""
    print(f"note: ignored while closing: {one_line(repr(unraisable.exc_value), 200)}",
          file=sys.stderr)


def _check_seed(seed: int) -> None:
    """Refuse a ``--seed`` outside 0..2**32-1 (numpy's generators take no negative seed)."""
    if not 0 <= seed <= 2 ** 32 - 1:
        raise SessionFormatError("--seed", f"must be 0 to {2 ** 32 - 1}, got {excerpt(seed)} "
                                           f"(random seeds are unsigned 32-bit numbers)")


def _simulated_games(argv: list[str]) -> list[str]:
    """The games whose simulator options the parser needs for ``argv``: none unless the
    command is ``simulate`` (importing every engine costs more than a whole ``parse``), only
    the game named after it when there is one, else every installed game (for the help)."""
    if not argv or argv[0] != "simulate":
        return []
    if len(argv) > 1 and argv[1] in known_games():   # a built-in game: no metadata read
        return [argv[1]]
    if len(argv) > 1 and argv[1] in registered_games():
        return [argv[1]]
    return available_games()


def _print(obj) -> None:
    """Write ``obj`` as JSON to stdout, all or nothing: a value JSON cannot hold (NaN,
    infinity, nesting too deep) is a :class:`SessionFormatError`, never a traceback or half a
    document; text that is not valid Unicode is written escaped, so the output is always valid
    UTF-8 (or ASCII JSON where stdout cannot take UTF-8)."""
    try:
        text = json.dumps(obj, indent=2, ensure_ascii=False, allow_nan=False)
    except (ValueError, TypeError, RecursionError) as exc:
        raise SessionFormatError("$", f"the result cannot be written as JSON ({one_line(exc, 120)})") \
            from None
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:   # a lone surrogate: write it as a JSON escape
        text = json.dumps(obj, indent=2, ensure_ascii=True, allow_nan=False)
    try:
        sys.stdout.write(text + "\n")
    except UnicodeEncodeError:   # stdout's encoding is not UTF-8 (PYTHONIOENCODING=ascii)
        sys.stdout.write(json.dumps(obj, indent=2, ensure_ascii=True, allow_nan=False) + "\n")


#: Longest ``--fact`` read (characters) and its deepest nesting: a fact is a small flat object
#: such as ``{"card": "Rope", "place": "Bob"}``.
MAX_FACT_CHARS = 10_000
MAX_FACT_DEPTH = 8


def read_fact(text: str):
    """The ``--fact`` JSON as an object, refusing what no engine could use: text longer than
    :data:`MAX_FACT_CHARS`, NaN and infinities (``NaN``, ``Infinity``, ``1e999``), nesting
    deeper than :data:`MAX_FACT_DEPTH`, and strings that are not valid Unicode.

    Raises:
        SessionFormatError: at ``--fact`` (or its JSON path inside it).
    """
    if len(text) > MAX_FACT_CHARS:
        raise SessionFormatError("--fact", f"is {len(text)} characters long; at most "
                                           f"{MAX_FACT_CHARS} are read")

    def constant(name):
        raise SessionFormatError("--fact", f"{name} is not a number JSON allows")

    def finite(literal):
        v = float(literal)
        if not math.isfinite(v):
            raise SessionFormatError("--fact", f"the number {excerpt(literal)} is out of range")
        return v

    try:
        fact = json.loads(text, parse_constant=constant, parse_float=finite)
    except RecursionError:
        raise SessionFormatError("--fact", "nested too deeply") from None
    except ValueError as exc:   # JSONDecodeError, or an integer of thousands of digits
        raise SessionFormatError("--fact", f"not JSON: {one_line(exc, 200)}") from None
    stack = [(fact, 1)]
    while stack:
        v, depth = stack.pop()
        if isinstance(v, (dict, list)):
            if depth > MAX_FACT_DEPTH:
                raise SessionFormatError("--fact", f"nested more than {MAX_FACT_DEPTH} levels "
                                                   f"deep; a fact is a small flat object")
            stack.extend((x, depth + 1) for x in (v.values() if isinstance(v, dict) else v))
    return check_text(fact, "$.fact")


def _engine(game: str):
    """The engine module of ``game``, imported, and then everything that exists frozen
    (:func:`engines.warm_up`): the command's one computation scans no start-up object in a
    full garbage collection."""
    warm_up([game])
    return game_module(game)


def _infer(args) -> int:
    s = read_session_file(args.session)
    mod = _engine(s.game)
    kwargs = {}
    if args.method:
        if args.method not in mod.METHODS:
            raise SessionFormatError("--method", f"unknown method {args.method!r} for {s.game}; "
                                                 f"expected one of {', '.join(mod.METHODS)}")
        kwargs["method"] = args.method
    _print(mod.infer(s.setup, s.events, **kwargs).to_json())
    return EXIT_OK


def _recommend(args) -> int:
    s = read_session_file(args.session)
    mod = _engine(s.game)
    if not isinstance(mod, Recommender):
        raise SessionFormatError("$.game", f"{s.game} has no recommendation")
    _check_seed(args.seed)
    for_cli = getattr(mod, "recommend_for_cli", None)   # budgets in samples, not seconds
    if for_cli is not None:
        _print(for_cli(s.setup, s.events, seed=args.seed, samples=args.samples).to_json())
    else:
        _print(mod.recommend(s.setup, s.events).to_json())
    return EXIT_OK


def _explain(args) -> int:
    """A fact's explanation (exit 0), or for a contradictory log its diagnosis (exit 3):
    ``{"status": "contradiction", "conflict", "corrections", "steps", ...}``
    (:class:`engines.core.diagnosis.Diagnosis`). Without ``--fact``: the diagnosis, or
    ``{"status": "consistent"}``."""
    s = read_session_file(args.session)
    mod = _engine(s.game)
    if not isinstance(mod, ExplainingEngine):
        raise SessionFormatError("$.game", f"{s.game} has no explanations")
    fact = None if args.fact is None else read_fact(args.fact)
    if args.budget is not None and not 1 <= args.budget <= 10_000_000:
        raise SessionFormatError("--budget", f"must be 1 to 10000000 steps, got {args.budget}")
    if hasattr(mod, "diagnose"):
        d = mod.diagnose(s.setup, s.events, budget=args.budget)
        if d is not None:
            _print(d.to_json())
            from engines.core.explain import entries_text
            shown = d.conflict[:8]
            conflict = entries_text(lambda i: mod.describe_event(s.setup, s.events[i]), shown)
            more = f" and {len(d.conflict) - 8} more" if len(d.conflict) > 8 else ""
            print(f"contradiction: these entries cannot all be true together: {conflict}{more}. "
                  f"{d.message}"[:1500], file=sys.stderr)
            return EXIT_CONTRADICTION
    if fact is None:
        _print({"status": "consistent", "steps": ["Some world fits every entry of the log."]})
        return EXIT_OK
    _print(mod.explain(s.setup, s.events, fact).to_json())
    return EXIT_OK


def _turn(args) -> int:
    s = read_session_file(args.session)
    if s.game != "cluedo":
        raise SessionFormatError("$.game", f"turn advice is for Cluedo, not {s.game}")
    from engines.cluedo.turn import parse_at, turn_advice

    _engine(s.game)

    at = parse_at(args.at, s.setup) if args.at else None
    _print(turn_advice(s.setup, s.events, at=at, roll=args.roll,
                       opponents_seconds=args.opponents_seconds).to_json())
    return EXIT_OK


def _parse(args) -> int:
    bad = not_text(args.text)
    if bad is not None:
        raise SessionFormatError("text", f"holds U+{bad[1]:04X} at character {bad[0] + 1}, which "
                                         f"is not a character (bytes that are not UTF-8?)")
    s = read_session_file(args.session)
    mod = _engine(s.game)
    if not isinstance(mod, QuickEntryEngine):
        raise SessionFormatError("$.game", f"{s.game} has no quick entry")
    from engines.core.schema import event_file_json

    # the event as the session file holds it (Cluedo's local editions: canonical card ids)
    _print(event_file_json(s.game, s.setup, mod.parse(s.setup, s.events, args.text)))
    return EXIT_OK


#: Limits of ``simulate`` options, checked before anything is built (every number here drives
#: memory or time): option -> (lowest, highest, why). Per game where the game differs.
_WHY_GAMES = "each game takes milliseconds to seconds and its figures are kept"
SIMULATE_LIMITS = {
    "*": {
        "games": (1, 100_000, _WHY_GAMES),
        "seed": (0, 2 ** 32 - 1, "random seeds are unsigned 32-bit numbers"),
        "workers": (1, 64, "each worker is a process with its own copy of the engine"),
        "samples": (1, 100_000, "deals sampled per recommendation; time grows with them"),
        "max_questions": (1, 1000, "questions per game; time grows with them"),
    },
    "cluedo": {"players": (3, 6, "the editions have six suspects; time grows fast with players")},
    "egghead": {
        "players": (3, 6, "the master table has (stacks)^players entries"),
        "values": (2, 9, "Zorn's (2024) deck has values 1..9"),
        "cards": (1, 6, "stacks grow combinatorially with the cards"),
        "rounds": (1, 100_000, "rounds per game; time grows with them"),
        "target": (1, 10_000, "points to win"),
    },
    "spyfall": {
        "players": (3, 12, "Spyfall is played by 3 to 12; the belief has players x locations "
                           "entries per round"),
        "locations": (2, 200, "the editions have about 30 locations"),
        "rounds": (1, 1000, "rounds of questions per game"),
    },
}
#: Float options: option -> (lowest, highest, why), finite and inside the range.
SIMULATE_FLOAT_LIMITS = {
    "beta": (1e-6, 1e6, "the Dirichlet concentration must stay where its numbers are finite"),
    "lam": (0.0, 0.999, "the reveal weight λ is in [0, 1)"),
    "theta": (0.0, 1.0, "a probability"),
    "target": (0.0, 1.0, "a probability"),
    "prior": (1e-3, 1e4, "Beta prior parameters"),
}


def check_simulate_args(game: str, args) -> None:
    """Refuse ``simulate`` options outside :data:`SIMULATE_LIMITS` before anything is built.

    Raises:
        SessionFormatError: at ``--option``, naming the limit and why.
    """
    import math

    limits = dict(SIMULATE_LIMITS["*"])
    limits.update(SIMULATE_LIMITS.get(game, {}))
    for name, (lo, hi, why) in limits.items():
        v = getattr(args, name, None)
        if v is None or isinstance(v, float):
            continue
        if not lo <= v <= hi:
            raise SessionFormatError(f"--{name.replace('_', '-')}",
                                     f"must be {lo} to {hi}, got {excerpt(v)} ({why})")
    for name, (lo, hi, why) in SIMULATE_FLOAT_LIMITS.items():
        v = getattr(args, name, None)
        if name in limits or v is None:
            continue
        for x in (v if isinstance(v, (list, tuple)) else [v]):
            if not isinstance(x, (int, float)) or not math.isfinite(x) or not lo <= x <= hi:
                raise SessionFormatError(f"--{name}", f"must be a number from {lo:g} to {hi:g}, "
                                                      f"got {excerpt(x)} ({why})")
    if game == "egghead":
        from engines.core.limits import check_memory
        from engines.egghead import memory_needed_for, stack_space

        S = stack_space(args.values, args.cards).size
        check_memory(memory_needed_for(args.players, S), "--players",
                     f"{args.players} players with {S} possible stacks each",
                     "use fewer players, values or cards")


def _simulate(args) -> int:
    check_simulate_args(args.game, args)
    _print(args.sim_module.simulate_main(args))
    return EXIT_OK


def _study(args) -> int:
    """``study NAME``: run a documented study (:mod:`engines.studies`), print its Markdown table,
    and with ``--out`` write ``{"study", "mode", "seed", "games", "result", "table"}`` as JSON."""
    from engines.studies import run_study

    if args.seed is not None:
        _check_seed(args.seed)
    if args.out and not os.path.isdir(os.path.dirname(os.path.abspath(args.out))):
        raise SessionFormatError("--out", f"no folder for {excerpt(args.out)}")
    out = run_study(args.name, quick=not args.full, seed=args.seed, broken=args.broken)
    if args.out:
        text = json.dumps(out, indent=1, ensure_ascii=False, allow_nan=False)
        try:
            with open(args.out, "w", encoding="utf-8") as f:
                f.write(text + "\n")
        except OSError as exc:
            raise SessionFormatError("--out", f"cannot write {excerpt(args.out)}: "
                                              f"{one_line(exc.strerror or exc, 120)}") from None
    sys.stdout.write(out["table"] + "\n")
    return EXIT_OK


def main(argv=None) -> int:
    """Run the CLI; returns the exit code."""
    parser = _Parser(prog="python -m engines", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("infer", help="print the posterior of a session file as JSON")
    p.add_argument("session")
    p.add_argument("--method", help="inference method (game-specific; default: exact)")
    p.set_defaults(func=_infer)
    p = sub.add_parser("recommend", help="print the recommended next move as JSON")
    p.add_argument("session")
    p.add_argument("--seed", type=int, default=0, help="random seed of sampled figures (Cluedo: "
                   "what the opponents know); the output depends only on the input and this")
    p.add_argument("--samples", type=int, default=None,
                   help="sampled deals behind sampled figures (Cluedo: default 256, at least 64)")
    p.set_defaults(func=_recommend)
    p = sub.add_parser("explain", help="print why a fact is certain or ruled out, as JSON")
    p.add_argument("session")
    p.add_argument("--fact", help='e.g. \'{"card": "Rope", "place": "Bob"}\' (without it: only '
                                   'whether the log is consistent, and what to fix if not)')
    p.add_argument("--budget", type=int, metavar="STEPS",
                   help="steps (events the engine processes) the search for corrections of a "
                        "contradictory log may spend (default: the game's, about a second)")
    p.set_defaults(func=_explain)
    p = sub.add_parser("turn", help="Cluedo: rank this turn's moves (where to go, what to suggest) as JSON")
    p.add_argument("session")
    p.add_argument("--at", help="my position: a room or ROW,COL (default: from the log)")
    p.add_argument("--roll", type=int, help="this turn's roll (default: my latest roll in the log, "
                                            "else ranked over the roll's law)")
    p.add_argument("--opponents-seconds", type=float, default=1.0,
                   help="time for the accuse/wait advice (0: skip it)")
    p.set_defaults(func=_turn)
    p = sub.add_parser("parse", help="print the event a quick-entry line stands for as JSON")
    p.add_argument("session")
    p.add_argument("text")
    p.set_defaults(func=_parse)
    from engines.studies import STUDIES

    p = sub.add_parser("study", help="run a study the documentation reports and print its table")
    p.add_argument("name", choices=list(STUDIES), help="; ".join(f"{s.name}: {s.page}" for s in STUDIES.values()))
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--quick", action="store_true", help="the tests' version (the default): the one "
                      "comparison that carries the page's claim")
    mode.add_argument("--full", action="store_true", help="the page's whole table (the Cluedo races: 400 games "
                      "a row)")
    p.add_argument("--seed", type=int, default=None, help="the games' seed (default: the study's)")
    p.add_argument("--out", help="also write the figures and the table as JSON to this file")
    p.add_argument("--broken", help=argparse.SUPPRESS)
    p.set_defaults(func=_study)
    p = sub.add_parser("simulate", help="run a game's simulator and print the figures as JSON")
    sub_sim = p.add_subparsers(dest="game", required=True)
    for game in _simulated_games(sys.argv[1:] if argv is None else argv):
        mod = game_module(game)
        if isinstance(mod, Simulator):
            gp = sub_sim.add_parser(game, help=f"simulate {game}")
            mod.add_simulate_arguments(gp)
            gp.add_argument("--scheduler", default=None, metavar="WHERE",
                            help="where the games run: processes:N (this computer), local:N (a "
                                 "Dask LocalCluster) or tcp://HOST:8786 (a Dask scheduler; "
                                 "pip install '.[cluster]'); the figures do not depend on it")
            gp.set_defaults(func=_simulate, sim_module=mod)
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except SessionFormatError as exc:
        if args.command == "explain":      # JSON on stdout in every case
            _print({"status": "error", "path": exc.path, "message": exc.message})
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except ContradictionError as exc:
        if args.command == "explain":
            _print({"status": "contradiction", "conflict": list(getattr(exc, "entries", ())),
                     "corrections": [], "steps": [str(exc)]})
        print(f"contradiction: {exc}", file=sys.stderr)
        return EXIT_CONTRADICTION
    except MemoryError:
        print("error: not enough memory for this computation", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:              # Ctrl+C: a long simulation stopped, nothing printed
        print("interrupted: stopped before a result (nothing on stdout)", file=sys.stderr)
        return 130
    except BrokenPipeError:  # output piped to e.g. `head`: not an error of the user's input
        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        return EXIT_OK


if __name__ == "__main__":
    sys.unraisablehook = _quiet_unraisable     # the process is the command line's own
    sys.exit(main())
