"""Command line: ``python -m engines infer|recommend|explain|parse|simulate ...`` (README, "Command line").

Exit codes: 0 ok, 2 bad input (the message names the file and the JSON path of the field),
3 contradiction (the message names the event). No traceback for user errors.
"""
from __future__ import annotations

import argparse
import json
import os
import sys

from engines import available_games, game_module
from engines.core.contract import Recommender, Simulator
from engines.core.errors import ContradictionError, SessionFormatError
from engines.core.schema import read_session_file

EXIT_OK, EXIT_BAD_INPUT, EXIT_CONTRADICTION = 0, 2, 3


def _print(obj) -> None:
    json.dump(obj, sys.stdout, indent=2, ensure_ascii=False, allow_nan=False)
    sys.stdout.write("\n")


def _infer(args) -> int:
    s = read_session_file(args.session)
    mod = game_module(s.game)
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
    mod = game_module(s.game)
    if not isinstance(mod, Recommender):
        raise SessionFormatError("$.game", f"{s.game} has no recommendation")
    _print(mod.recommend(s.setup, s.events).to_json())
    return EXIT_OK


def _explain(args) -> int:
    s = read_session_file(args.session)
    mod = game_module(s.game)
    if not hasattr(mod, "explain"):
        raise SessionFormatError("$.game", f"{s.game} has no explanations")
    try:
        fact = json.loads(args.fact)
    except ValueError as exc:
        raise SessionFormatError("--fact", f"not JSON: {exc}") from None
    _print(mod.explain(s.setup, s.events, fact).to_json())
    return EXIT_OK


def _parse(args) -> int:
    s = read_session_file(args.session)
    _print(game_module(s.game).parse(s.setup, s.events, args.text).to_json())
    return EXIT_OK


def main(argv=None) -> int:
    """Run the CLI; returns the exit code."""
    parser = argparse.ArgumentParser(prog="python -m engines", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("infer", help="print the posterior of a session file as JSON")
    p.add_argument("session")
    p.add_argument("--method", help="inference method (game-specific; default: exact)")
    p.set_defaults(func=_infer)
    p = sub.add_parser("recommend", help="print the recommended next move as JSON")
    p.add_argument("session")
    p.set_defaults(func=_recommend)
    p = sub.add_parser("explain", help="print why a fact is certain or ruled out, as JSON")
    p.add_argument("session")
    p.add_argument("--fact", required=True, help='e.g. \'{"card": "Rope", "place": "Bob"}\'')
    p.set_defaults(func=_explain)
    p = sub.add_parser("parse", help="print the event a quick-entry line stands for as JSON")
    p.add_argument("session")
    p.add_argument("text")
    p.set_defaults(func=_parse)
    p = sub.add_parser("simulate", help="run a game's simulator and print the figures as JSON")
    sub_sim = p.add_subparsers(dest="game", required=True)
    for game in available_games():
        mod = game_module(game)
        if isinstance(mod, Simulator):
            gp = sub_sim.add_parser(game, help=f"simulate {game}")
            mod.add_simulate_arguments(gp)
            gp.add_argument("--scheduler", default=None, metavar="WHERE",
                            help="where the games run: processes:N (this computer), local:N (a "
                                 "Dask LocalCluster) or tcp://HOST:8786 (a Dask scheduler; "
                                 "pip install '.[cluster]'); the figures do not depend on it")
            gp.set_defaults(func=lambda a, m=mod: (_print(m.simulate_main(a)), EXIT_OK)[1])
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except SessionFormatError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except ContradictionError as exc:
        print(f"contradiction: {exc}", file=sys.stderr)
        return EXIT_CONTRADICTION
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # output piped to e.g. `head`: not an error of the user's input
        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
