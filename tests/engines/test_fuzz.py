"""Fuzzing the session reader and the CLI with mutated example sessions (hypothesis).

Every example session in ``resources/examples/`` is mutated — fields dropped or retyped, unknown
names, extreme numbers, NaN and infinity, duplicated events, unicode and control characters,
huge strings, deep nesting, 5000-digit integers, truncation, wrong encodings — and run through
the session reader and the CLI's ``infer``, ``recommend``, ``explain`` (with mutated facts) and
``parse`` (with mutated lines) in this process (:func:`engines.__main__.main`). Every outcome
must be exit 0, 2 or 3 (no exception escapes, so no traceback), within a time bound, and a
result must hold only finite numbers with every probability in [0, 1]. The process's address
space is limited while the cases run (``ulimit -v``: what it uses now + 2 GB), so an input that
would allocate gigabytes must be refused by the engines' memory checks, which read that limit.

``FUZZ_EXAMPLES=n`` raises the number of cases per game and command (default 12);
``FUZZ_REPORT=1`` prints the figures (cases, outcomes by exit code, slowest case, peak memory).
"""
from __future__ import annotations

import contextlib
import functools
import io
import json
import math
import os
import re
import resource
import time
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from json_tree import delete_at as _delete
from json_tree import paths as _paths
from json_tree import set_at as _set

from engines import GAMES
from engines.__main__ import main as cli_main
from engines.core.errors import EngineError
from engines.core.resources import resource_path
from engines.core.schema import read_session_file

EXAMPLES = {g: json.loads(resource_path("examples", f"{g}.json").read_text(encoding="utf-8"))
            for g in GAMES}
N_EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "12"))
TIME_BOUND_S = 10.0         # CPU seconds per CLI call: the command line's contract (docs/cost-limits.md)
FIGURES = {"cases": 0, "exit": Counter(), "by_command": Counter(), "slowest": (0.0, ""),
           "peak_rss_mb": 0.0}

PROBABILITY_PATH = re.compile(r"probabilit|\.location\.|\.spy\.|\.identity\.|\.build\.|"
                              r"\.candidates\.|\.claim\.|\.joint|\.partner|\.race\.(official|instant)")

EXTREME_NUMBERS = [0, -1, 1, 2, 3, 7, 64, 1000, 10 ** 6, 2 ** 63, -(2 ** 63), 10 ** 300, 1e308,
                   -1e308, 5e-324, 1e-300, 0.5, -0.0, 1.5, float("nan"), float("inf"),
                   float("-inf")]
WEIRD_TEXT = ["", " ", "\x00", "\u202e", "😀" * 3, "e\u0301", "<img src=x>", "=1+1", "\ud800",
              "a\nb", "Me", "envelope", "name", "spy", "classic", "/dev/zero", "../../etc/passwd"]


FACT_KEYS = ["card", "place", "opponent", "identity", "build", "stack", "position", "value",
             "name"]
#: The keys of each game's own facts (engines/<game>/explain.py), drawn a third of the time.
GAME_FACT_KEYS = {"cluedo": ("card", "place"), "inkognito": ("opponent", "identity"),
                  "egghead": ("stack",), "guesswho": ("name",), "spyfall": ("name",)}


def _example_words(game) -> list:
    """The short strings of ``game``'s example (names of players, cards, locations…)."""
    return sorted({v for _p, v in _paths(EXAMPLES[game]) if isinstance(v, str) and len(v) < 30})


@st.composite
def mutated_fact(draw, game):
    """A ``--fact`` for ``explain``: an object with keys facts use, whose values are the
    example's names, weird text, extreme numbers or lists of them — or JSON that is not an
    object at all."""
    value = st.one_of(st.sampled_from(_example_words(game) + ["envelope"]),
                      st.sampled_from(WEIRD_TEXT), st.sampled_from(EXTREME_NUMBERS),
                      st.lists(st.integers(-2, 12), max_size=5))
    if draw(st.integers(0, 9)) == 0:
        return draw(st.sampled_from(["[]", "1", "null", '"card"', "{", "{\"card\": "]))
    if draw(st.integers(0, 2)) == 0:
        words = st.sampled_from(_example_words(game) + ["envelope"])
        fact = {k: draw(st.lists(st.integers(1, 6), min_size=3, max_size=3)
                        if k == "stack" else words) for k in GAME_FACT_KEYS[game]}
    else:
        fact = draw(st.dictionaries(st.sampled_from(FACT_KEYS), value, max_size=3))
    return json.dumps(fact, allow_nan=True)


@functools.lru_cache(maxsize=None)
def _example_lines(game) -> list:
    """The example's events written as quick-entry lines (``format_event``, which ``parse``
    reads back)."""
    from engines import game_module

    data = read_session_file(str(resource_path("examples", f"{game}.json")))
    return [game_module(game).format_event(data.setup, e) for e in data.events]


@st.composite
def mutated_line(draw, game):
    """A quick-entry line for ``parse``: one of the example's events as a line, perhaps with a
    word replaced; words of the example and of the grammars, numbers and weird text; or any
    text."""
    words = _example_words(game) + ["has", "shows", "showed", "no", "yes", "asks", "claims",
                                    "w=0.5", "?", "all", "1", "0.5", "-1", "1e308", "nan"]
    kind = draw(st.integers(0, 2))
    if kind == 0:
        line = draw(st.sampled_from(_example_lines(game))).split(" ")
        if draw(st.booleans()):
            line[draw(st.integers(0, len(line) - 1))] = draw(st.one_of(
                st.sampled_from(words), st.sampled_from(WEIRD_TEXT)))
        return " ".join(line)
    if kind == 1:
        return draw(st.text(max_size=40))
    return " ".join(draw(st.lists(st.one_of(st.sampled_from(words), st.sampled_from(WEIRD_TEXT)),
                                  max_size=6)))


@st.composite
def mutated_session(draw, game):
    """Bytes of a mutated copy of ``game``'s example session."""
    doc = json.loads(json.dumps(EXAMPLES[game]))
    for _ in range(draw(st.integers(1, 3))):
        nodes = [(p, v) for p, v in _paths(doc) if p]
        path, value = draw(st.sampled_from(nodes))
        kind = draw(st.sampled_from(["drop", "retype", "number", "text", "duplicate", "huge",
                                     "unknown_key", "swap_names"]))
        if kind == "drop":
            _delete(doc, path)
        elif kind == "retype":
            _set(doc, path, draw(st.sampled_from([None, True, 1, 1.5, "x", [], {}, [1, "a"],
                                                  {"a": 1}])))
        elif kind == "number":
            target = [(p, v) for p, v in _paths(doc) if p and isinstance(v, (int, float))]
            if target:
                path = draw(st.sampled_from(target))[0]
            _set(doc, path, draw(st.sampled_from(EXTREME_NUMBERS)))
        elif kind == "text":
            target = [(p, v) for p, v in _paths(doc) if p and isinstance(v, str)]
            if target:
                path, value = draw(st.sampled_from(target))
            _set(doc, path, draw(st.one_of(st.sampled_from(WEIRD_TEXT), st.text(max_size=12))))
        elif kind == "duplicate":
            events = doc.get("events") if isinstance(doc, dict) else None
            if isinstance(events, list) and events:
                i = draw(st.integers(0, len(events) - 1))
                events[i:i] = [json.loads(json.dumps(events[i]))] * draw(st.integers(1, 60))
        elif kind == "huge":
            _set(doc, path, "x" * draw(st.sampled_from([81, 1001, 100_000, 3_000_000])))
        elif kind == "unknown_key":
            parent = [(p, v) for p, v in _paths(doc) if isinstance(v, dict)]
            ppath, pv = draw(st.sampled_from(parent))
            pv[draw(st.sampled_from(["foo", "playrs", "format", "", "events"]))] = 1
        elif kind == "swap_names":
            names = [v for _p, v in _paths(doc) if isinstance(v, str) and len(v) < 30]
            target = [(p, v) for p, v in _paths(doc) if p and isinstance(v, str)]
            if names and target:
                _set(doc, draw(st.sampled_from(target))[0], draw(st.sampled_from(names)))
    text = json.dumps(doc, ensure_ascii=draw(st.booleans()), allow_nan=True)
    textual = draw(st.sampled_from(["none", "none", "none", "deep", "digits", "truncate",
                                    "utf16", "latin1", "bom", "garbage"]))
    if textual == "deep":
        depth = draw(st.sampled_from([100, 5000, 100_000]))
        text = text.replace("{", '{"deep": ' + "[" * depth + "]" * depth + ", ", 1)
    elif textual == "digits":
        text = text.replace("{", '{"n": ' + "7" * draw(st.sampled_from([4000, 5000])) + ", ", 1)
    elif textual == "truncate":
        text = text[:draw(st.integers(0, max(0, len(text) - 1)))]
    if textual == "utf16":
        return text.encode("utf-16", errors="surrogatepass")   # a lone surrogate stays
    if textual == "latin1":
        return text.encode("latin-1", errors="replace")
    if textual == "bom":
        return b"\xef\xbb\xbf" + text.encode("utf-8", errors="surrogatepass")
    data = text.encode("utf-8", errors="surrogatepass")
    if textual == "garbage":
        pos = draw(st.integers(0, len(data)))
        data = data[:pos] + draw(st.binary(min_size=1, max_size=8)) + data[pos:]
    return data


def _numbers(obj, prefix=""):
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _numbers(v, f"{prefix}.{k}")
    elif isinstance(obj, list):
        for v in obj:
            yield from _numbers(v, prefix + "[]")
    elif isinstance(obj, (int, float)) and not isinstance(obj, bool):
        yield prefix, obj


@pytest.fixture(scope="module")
def memory_limit():
    """Cap this process's address space at its current size + 2 GB while the cases run."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    with open("/proc/self/status") as f:
        vm = next(int(ln.split()[1]) * 1024 for ln in f if ln.startswith("VmSize:"))
    cap = vm + (2 << 30)
    if hard != resource.RLIM_INFINITY:
        cap = min(cap, hard)
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    yield cap
    resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
    if os.environ.get("FUZZ_REPORT"):
        print(f"\nfuzz figures: {FIGURES['cases']} CLI runs, exit codes "
              f"{dict(FIGURES['exit'])} ({dict(sorted(FIGURES['by_command'].items()))}), "
              f"slowest {FIGURES['slowest'][0]:.2f} s "
              f"({FIGURES['slowest'][1]}), peak RSS {FIGURES['peak_rss_mb']:.0f} MB")


def _run(command: str, path: str, label: str, extra: tuple = ()):
    out, err = io.StringIO(), io.StringIO()
    t0 = time.process_time()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli_main([command, path, *extra])
    dt = time.process_time() - t0
    FIGURES["cases"] += 1
    FIGURES["exit"][code] += 1
    FIGURES["by_command"][f"{command} {code}"] += 1
    if dt > FIGURES["slowest"][0]:
        FIGURES["slowest"] = (dt, label)
    FIGURES["peak_rss_mb"] = max(FIGURES["peak_rss_mb"],
                                 resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    assert code in (0, 2, 3), (code, err.getvalue())
    assert dt < TIME_BOUND_S, f"{label}: {dt:.1f} s"
    if code == 0:
        result = json.loads(out.getvalue())
        for where, x in _numbers(result):
            assert math.isfinite(x), (where, x)
            if PROBABILITY_PATH.search(where):
                assert -1e-9 <= x <= 1 + 1e-9, (where, x)
    else:
        msg = err.getvalue()
        assert msg and "Traceback" not in msg and len(msg) < 2000, msg[:300]
    return code


@pytest.mark.parametrize("game", GAMES)
def test_mutated_sessions_through_reader_and_cli(game, tmp_path_factory, memory_limit):
    folder = tmp_path_factory.mktemp(f"fuzz-{game}")
    commands = ["infer", "recommend", "explain", "parse"]

    @settings(max_examples=N_EXAMPLES, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(data=mutated_session(game), command=st.sampled_from(commands),
           fact=mutated_fact(game), line=mutated_line(game))
    def run(data, command, fact, line):
        path = folder / "case.json"
        path.write_bytes(data)
        try:
            read_session_file(str(path))          # the reader alone: a message or a session
        except EngineError:
            pass
        if game == "cluedo" and command == "recommend":
            command = "infer"                      # 3 s per recommendation: infer covers the log
        extra = {"explain": ("--fact", fact), "parse": (line,)}.get(command, ())
        _run(command, str(path), f"{game} {command}", extra)

    run()


def test_example_sessions_pass_unchanged(tmp_path):
    """The unmutated examples give exit 0 (the fuzz baseline is a working session)."""
    for game in GAMES:
        path = tmp_path / f"{game}.json"
        path.write_text(json.dumps(EXAMPLES[game]), encoding="utf-8")
        assert _run("infer", str(path), f"{game} infer") == 0


@pytest.mark.parametrize("game", GAMES)
def test_consistent_logs_never_fail(game, tmp_path_factory):
    """Sub-logs of a consistent log are consistent (fewer facts): every order-preserving subset of
    the example's events — a prefix for Egghead, whose reactions depend on the answer before
    them — gives exit 0 with finite probabilities, for infer and recommend."""
    from engines.core.schema import parse_session

    folder = tmp_path_factory.mktemp(f"consistent-{game}")
    n = len(EXAMPLES[game]["events"])

    @settings(max_examples=6, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(keep=st.lists(st.booleans(), min_size=n, max_size=n), cut=st.integers(0, n),
           command=st.sampled_from(["infer", "recommend"]))
    def run(keep, cut, command):
        doc = json.loads(json.dumps(EXAMPLES[game]))
        if game == "egghead":
            doc["events"] = doc["events"][:cut]
        else:
            doc["events"] = [e for e, k in zip(doc["events"], keep) if k]
        parse_session(doc)
        path = folder / "case.json"
        path.write_text(json.dumps(doc), encoding="utf-8")
        if game == "cluedo" and command == "recommend":
            command = "infer"
        assert _run(command, str(path), f"{game} {command} (consistent)") == 0

    run()
