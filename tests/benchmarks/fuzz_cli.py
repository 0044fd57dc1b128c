"""Fuzz the command line as a user runs it: ``python -m engines ...`` in a child process, over
every game and command, with hostile files and arguments, checking the contract on each run.

Run (not part of the test run; a few thousand runs take about an hour on a loaded 2-core
machine)::

    nice -n 10 python tests/benchmarks/fuzz_cli.py --runs 3000 --seed 1 --out /tmp/fuzz

The runs are drawn from a seeded ``random.Random`` (the same ``--seed`` and ``--runs`` give the
same runs). Each run is one of ``parse``, ``infer``, ``explain`` (with and without ``--fact``),
``recommend`` (with ``--seed``/``--samples``), ``turn`` (Cluedo), ``simulate`` (small budgets,
and hostile option values) or a bad command line, on a mutated copy of the game's example
session (``resources/examples/<game>.json``): values replaced by lone surrogates, NaN and
infinities, ``1e999``, integers of thousands of digits, nesting thousands of levels deep, very
long strings, huge lists, wrong types, unknown keys holding terminal escape sequences; fields
dropped; the file truncated, in another encoding, with a byte-order mark or with bytes that are
not UTF-8; a missing file or a directory.

The contract checked on every run (a run that breaks it is a *violation*, listed at the end):

* the exit code is 0, 2 (bad input) or 3 (contradiction), never 1 or a signal;
* stdout is empty or one valid JSON document in UTF-8 with no NaN or infinity (strict
  parsing); with exit 0 it is a JSON document;
* stderr holds no traceback, no terminal control character (ESC, other C0 controls but newline
  and tab) and at most a few lines;
* the run ends within ``--timeout`` seconds (12), its CPU time (user + system, from
  ``os.wait4``) is under 10 s and its peak resident memory (``ru_maxrss``) under 1 GB. The
  child's address space is capped at 4 GB (``RLIMIT_AS``) so a runaway run cannot take the
  machine down. Linux keeps the larger peak across ``exec``, so a child's figure is at least
  the fuzzer's own size when it forked (about 60 MB; the files it writes are bounded by
  :data:`MAX_FILE_BYTES` so that it stays so). The timeout is wall-clock time: on a loaded
  machine a run of a few seconds of CPU can pass it (the violation then says so, with its CPU).
  ``simulate`` is the exception: a batch as long as its ``--games``/``--rounds`` ask (up to
  100,000; the defaults take minutes), outside the 10 s contract (``docs/cli.md``). One still
  running at the timeout gets Ctrl+C (SIGINT) and must then stop within
  :data:`INTERRUPT_S` with exit 130, nothing on stdout and no traceback: counted as
  *interrupted*, not a violation; its memory is checked as any run's.

Output: progress every 100 runs; at the end the runs by game and command, by exit code, the
worst CPU time, wall time and memory, and every violation with its command line (the file is
kept in ``--out`` to replay it); ``--out``/summary.json holds the same figures.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import resource
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests", "engines"))
from json_tree import delete_at as _delete  # noqa: E402 (after the set-up above)
from json_tree import paths as _paths  # noqa: E402 (after the set-up above)
from json_tree import set_at as _set  # noqa: E402 (after the set-up above)

GAMES = ("cluedo", "egghead", "guesswho", "inkognito", "spyfall")
CPU_LIMIT_S = 10.0
#: Seconds a simulation still running at the timeout has to stop after Ctrl+C (exit 130).
INTERRUPT_S = 3.0
RSS_LIMIT_MB = 1024.0
AS_CAP = 4 << 30

#: Raw JSON texts put where a value was (not producible by ``json.dumps``).
RAW_VALUES = [
    '"\\ud800"', '"a\\udfffb"', '"\\ud83d"', "NaN", "Infinity", "-Infinity", "1e999", "-1e999",
    "7" * 5000, "-" + "9" * 4400, "[" * 5000 + "]" * 5000, "{\"a\":" * 3000 + "1" + "}" * 3000,
    '"\\u001b[31mred\\u001b[0m"', '"\\u0000"', '"\\u202eevil"', "1" + "0" * 30, "-1", "0", "1e308",
    "5e-324", "true", "null", "[]", "{}", '""', '"' + "x" * 100_000 + '"',
    '"' + "y" * 3_000_000 + '"', "[" + ",".join(["1"] * 100_000) + "]",
    "[" + ",".join(['"p"'] * 20_000) + "]", "2147483648", "9223372036854775808", "0.5", "-0.0",
]
CONTROL_KEYS = ["\x1b[2J\x1b[31mkey", "a\x07b", "tab\tkey", "new\nline", "\x00nul", "\u202eevil",
                "x" * 5000, "\ud800", "playrs", "format", ""]
WEIRD_WORDS = ["", " ", "\x1b[31m", "😀😀", "e\u0301", "<b>x</b>", "=1+1", "a\nb", "nan", "inf",
               "-1", "1e999", "9" * 400, "x" * 20000, "envelope", "none", "?", ";", ":", ","]
FACT_TEXTS = ['{"card": NaN}', '{"card": Infinity}', '{"x": 1e999}', "[" * 10000 + "]" * 10000,
              '{"a":' * 50 + "1" + "}" * 50, '{"name": "\\ud800"}', '{"card": "\\u001b[2J"}',
              "7" * 5000, '"just text"', "[]", "null", "{", '{"card": 1}', "x" * 20000,
              '{"stack": [1, 2, 99999999999999999999]}', '{"name": "' + "z" * 9000 + '"}']


class Case:
    """One run: ``argv`` after ``python -m engines`` (str or bytes items) and the session file's
    bytes (None: the path in argv is used as it is)."""

    def __init__(self, game, command, argv, data):
        self.game, self.command, self.argv, self.data = game, command, argv, data


#: Largest mutated file (bytes): past the reader's own limit (16 MB), and small enough that the
#: fuzzer itself stays small — a child's peak memory as ``os.wait4`` reports it includes the
#: fuzzer's at the fork (Linux keeps the larger high-water mark across ``exec``).
MAX_FILE_BYTES = 24 << 20
#: Longest list a mutation builds (items).
MAX_LIST_ITEMS = 20_000


def mutated_session(rng: random.Random, example: dict) -> bytes:
    """Bytes of a hostile copy of ``example`` (at most :data:`MAX_FILE_BYTES`)."""
    doc = json.loads(json.dumps(example))
    raws = {}

    def raw(text):
        key = f"@@RAW{len(raws)}@@"
        raws[key] = text
        return key

    for _ in range(rng.randint(0, 3)):
        nodes = [(p, v) for p, v in _paths(doc) if p]
        if not nodes:
            break
        path, value = rng.choice(nodes)
        kind = rng.choice(["raw", "raw", "raw", "drop", "retype", "unknown_key", "swap",
                           "duplicate", "huge_list", "text"])
        if kind == "raw":
            _set(doc, path, raw(rng.choice(RAW_VALUES)))
        elif kind == "drop":
            _delete(doc, path)
        elif kind == "retype":
            _set(doc, path, rng.choice([None, True, 1, 1.5, "x", [], {}, [1, "a"], {"a": 1}]))
        elif kind == "unknown_key":
            dicts = [v for _p, v in _paths(doc) if isinstance(v, dict)]
            rng.choice(dicts)[rng.choice(CONTROL_KEYS)] = rng.choice([1, "v", None, []])
        elif kind == "swap":
            names = [v for _p, v in _paths(doc) if isinstance(v, str) and len(v) < 30]
            strs = [p for p, v in _paths(doc) if p and isinstance(v, str)]
            if names and strs:
                _set(doc, rng.choice(strs), rng.choice(names))
        elif kind == "duplicate":
            events = doc.get("events") if isinstance(doc, dict) else None
            if isinstance(events, list) and events:
                i = rng.randrange(len(events))
                n = min(rng.choice([1, 5, 60, 3000]), max(MAX_LIST_ITEMS - len(events), 0))
                events[i:i] = [json.loads(json.dumps(events[i]))] * n
        elif kind == "huge_list":
            lists = [p for p, v in _paths(doc) if p and isinstance(v, list) and v]
            if lists:
                p = rng.choice(lists)
                for _p, v in _paths(doc):
                    if _p == p:
                        times = min(rng.choice([50, 2000, 20000]), MAX_LIST_ITEMS) // len(v) + 1
                        _set(doc, p, v * times)
                        break
        elif kind == "text":
            strs = [p for p, v in _paths(doc) if p and isinstance(v, str)]
            if strs:
                _set(doc, rng.choice(strs), rng.choice(WEIRD_WORDS))
    text = json.dumps(doc, ensure_ascii=rng.random() < 0.5)
    if len(text) > MAX_FILE_BYTES:
        text = text[:MAX_FILE_BYTES]
    for key, value in raws.items():
        text = text.replace(json.dumps(key), value)
    text = text[:MAX_FILE_BYTES]
    textual = rng.choice(["none"] * 6 + ["truncate", "utf16", "latin1", "bom", "garbage",
                                         "empty", "top_deep", "trailing"])
    if textual == "truncate":
        text = text[:rng.randrange(max(1, len(text)))]
    elif textual == "empty":
        text = rng.choice(["", " ", "\n", "null", "[]", "1"])
    elif textual == "top_deep":
        text = "[" * 200_000 + "]" * 200_000
    elif textual == "trailing":
        text = text + rng.choice(["x", "{}", "\x00", " ,"])
    if textual == "utf16":
        return text.encode("utf-16", errors="surrogatepass")
    if textual == "latin1":
        return text.encode("latin-1", errors="replace")
    data = text.encode("utf-8", errors="surrogatepass")
    if textual == "bom":
        data = b"\xef\xbb\xbf" + data
    elif textual == "garbage":
        pos = rng.randrange(len(data) + 1)
        data = data[:pos] + bytes(rng.randrange(256) for _ in range(rng.randint(1, 8))) + data[pos:]
    return data


def _line(rng, game, words) -> list:
    """A quick-entry line (bytes when it holds bytes that are not UTF-8)."""
    pick = rng.random()
    if pick < 0.1:
        return b"Ann \xff\xfe rope"
    if pick < 0.2:
        return rng.choice(WEIRD_WORDS)
    return " ".join(rng.choice(words + WEIRD_WORDS[:8] + [";", ":", "has", "no", "shows", "asks"])
                    for _ in range(rng.randint(0, 7)))


def _simulate_argv(rng, game) -> list:
    """Small budgets; a third of the time a hostile option value."""
    small = {
        "cluedo": ["--games", "1", "--players", "3", "--samples", "40", "--strategy", "random"],
        "egghead": ["--rounds", "3", "--players", "3", "--values", "4", "--cards", "2"],
        "guesswho": ["--games", "1", "--board", "demo"],
        "inkognito": ["--games", "1", "--max-questions", "4", "--policy", "random"],
        "spyfall": ["--games", "2", "--rounds", "2", "--players", "3", "--workers", "1"],
    }[game]
    argv = ["simulate", game] + small + ["--seed", str(rng.randrange(1000))]
    if rng.random() < 0.35:
        opt = rng.choice({
            "cluedo": ["--games", "--players", "--samples", "--seed", "--edition"],
            "egghead": ["--rounds", "--players", "--values", "--cards", "--target", "--workers"],
            "guesswho": ["--games", "--board", "--strategies", "--seed"],
            "inkognito": ["--games", "--theta", "--prior", "--max-questions", "--target"],
            "spyfall": ["--games", "--players", "--locations", "--beta", "--lambda", "--rounds",
                        "--workers"],
        }[game])
        val = rng.choice(["-1", "0", "nan", "inf", "-inf", "1e999", "9" * 30, "x", "",
                          "\x1b[2J", "2.5", "99999", "/dev/zero", "../../etc/passwd"])
        argv += [opt, val] + (["1"] if opt == "--prior" else [])
    if rng.random() < 0.1:
        argv += ["--scheduler", rng.choice(["bogus", "processes:0", "processes:999",
                                            "tcp://10.255.255.1:8786", "local:x"])]
    return argv


def make_case(rng: random.Random, examples: dict, words: dict) -> Case:
    """One run drawn from ``rng``."""
    game = rng.choice(GAMES)
    command = rng.choices(["parse", "infer", "explain", "recommend", "turn", "simulate", "bad_cli",
                           "no_file"], weights=[22, 24, 18, 12, 4, 8, 6, 6])[0]
    if command == "turn":
        game = "cluedo"
    hostile = rng.random() < 0.8
    data = mutated_session(rng, examples[game]) if hostile else \
        json.dumps(examples[game]).encode()
    if command == "parse":
        return Case(game, command, ["parse", "{file}", _line(rng, game, words[game])], data)
    if command == "infer":
        extra = ["--method", rng.choice(["exact", "bogus", "\x1b[31m", "mcmc", ""])] \
            if rng.random() < 0.2 else []
        return Case(game, command, ["infer", "{file}"] + extra, data)
    if command == "explain":
        extra = []
        if rng.random() < 0.7:
            if rng.random() < 0.5:
                extra = ["--fact", rng.choice(FACT_TEXTS)]
            else:
                keys = {"cluedo": ("card", "place"), "inkognito": ("opponent", "identity"),
                        "egghead": ("stack",), "guesswho": ("name",), "spyfall": ("name",)}[game]
                fact = {k: ([rng.randint(1, 6) for _ in range(3)] if k == "stack"
                            else rng.choice(words[game] + ["envelope"])) for k in keys}
                extra = ["--fact", json.dumps(fact)]
        if rng.random() < 0.2:
            extra += ["--budget", rng.choice(["1", "0", "-5", "100", "99999999999", "x"])]
        return Case(game, command, ["explain", "{file}"] + extra, data)
    if command == "recommend":
        extra = []
        if rng.random() < 0.5:
            extra += ["--samples", rng.choice(["64", "63", "0", "-1", "100000", "100001",
                                               "9" * 25, "x"])]
        if rng.random() < 0.3:
            extra += ["--seed", rng.choice(["0", "-1", "7", "9" * 40, "x"])]
        if game in ("cluedo", "egghead") and not extra and rng.random() < 0.5:
            extra = ["--samples", "64"]
        return Case(game, command, ["recommend", "{file}"] + extra, data)
    if command == "turn":
        extra = []
        if rng.random() < 0.5:
            extra += ["--at", rng.choice(["Kitchen", "3,4", "99,99", "x", "\x1b[2J", "-1,-1"])]
        if rng.random() < 0.5:
            extra += ["--roll", rng.choice(["2", "12", "0", "-3", "999999", "x"])]
        extra += ["--opponents-seconds", "0"] if rng.random() < 0.7 else []
        return Case(game, command, ["turn", "{file}"] + extra, data)
    if command == "simulate":
        return Case(game, command, _simulate_argv(rng, game), None)
    if command == "no_file":
        path = rng.choice(["/nonexistent/x.json", "/", "/dev/null", "/proc/self/mem", "",
                           "/etc/shadow-missing", "-"])
        return Case(game, command, [rng.choice(["infer", "recommend", "explain"]), path], None)
    argv = rng.choice([[], ["bogus"], ["infer"], ["--help-me"], ["simulate"],
                       ["simulate", "nogame"], ["infer", "{file}", "--unknown", "\x1b[2J"],
                       ["parse", "{file}"], ["recommend", "{file}", "--samples"]])
    return Case(game, "bad_cli", list(argv), data)


def run_case(case: Case, workdir: str, timeout: float) -> dict:
    """Run one case in a child; its exit status, output and resource use."""
    path = os.path.join(workdir, "session.json")
    if case.data is not None:
        with open(path, "wb") as f:
            f.write(case.data)
    argv = [a.replace("{file}", path) if isinstance(a, str) else a for a in case.argv]
    out_path, err_path = os.path.join(workdir, "out"), os.path.join(workdir, "err")

    def limits():
        resource.setrlimit(resource.RLIMIT_AS, (AS_CAP, AS_CAP))
        os.setsid()
        # Ctrl+C as a user's terminal delivers it: a fuzzer started in the background of a
        # shell ignores SIGINT, and an ignored signal stays ignored across exec
        signal.signal(signal.SIGINT, signal.SIG_DFL)

    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        t0 = time.perf_counter()
        p = subprocess.Popen([sys.executable, "-m", "engines", *argv], stdout=out, stderr=err,
                             stdin=subprocess.DEVNULL, cwd=ROOT, preexec_fn=limits)
        interrupted = threading.Event()

        def stop():
            # a simulation is a batch whose length the user asks for (--games, --rounds): at the
            # timeout it gets Ctrl+C, which must stop it within INTERRUPT_S; anything else, or
            # a simulation still running then, is killed
            if case.command == "simulate" and not interrupted.is_set():
                interrupted.set()
                os.killpg(p.pid, signal.SIGINT)
                timers.append(threading.Timer(INTERRUPT_S, stop))
                timers[-1].start()
            else:
                os.killpg(p.pid, signal.SIGKILL)

        timers = [threading.Timer(timeout, stop)]
        timers[0].start()
        try:
            _, status, ru = os.wait4(p.pid, 0)
        finally:
            for t in list(timers):
                t.cancel()
        wall = time.perf_counter() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
    with open(out_path, "rb") as f:
        stdout = f.read()
    with open(err_path, "rb") as f:
        stderr = f.read()
    stopped = interrupted.is_set() and p.returncode == 130 and wall < timeout + INTERRUPT_S
    return {"rc": p.returncode, "wall": wall, "cpu": ru.ru_utime + ru.ru_stime,
            "rss_mb": ru.ru_maxrss / 1024.0, "stdout": stdout, "stderr": stderr,
            "timed_out": wall >= timeout and not stopped, "interrupted": stopped}


def _no_constant(name):
    raise ValueError(f"{name} in the output")


def violations(case: Case, r: dict) -> list:
    """The ways run ``r`` of ``case`` breaks the contract (empty: none)."""
    bad = []
    if r["timed_out"]:
        bad.append(f"killed after {r['wall']:.1f} s" + (" (Ctrl+C did not stop it)"
                                                        if case.command == "simulate" else ""))
    elif r["interrupted"]:
        if r["stdout"].strip():
            bad.append("output after Ctrl+C")
    elif r["rc"] not in (0, 2, 3):
        bad.append(f"exit code {r['rc']}")
    out = r["stdout"]
    if out.strip():
        try:
            json.loads(out.decode("utf-8"), parse_constant=_no_constant)
        except (UnicodeDecodeError, ValueError) as exc:
            if not (case.command == "bad_cli" and r["rc"] == 0 and b"usage:" in out):
                bad.append(f"stdout is not valid JSON: {str(exc)[:100]}")
    elif r["rc"] == 0 and case.command != "bad_cli":
        bad.append("exit 0 with nothing on stdout")
    err = r["stderr"].decode("utf-8", errors="replace")
    if "Traceback (most recent call last)" in err:
        bad.append("traceback on stderr: " + err.strip().splitlines()[-1][:160])
    if any(ord(ch) < 32 and ch not in "\n\t" for ch in err) or "\x7f" in err:
        bad.append("control character on stderr")
    if case.command != "bad_cli" and err.count("\n") > 3:
        bad.append(f"{err.count(chr(10))} lines on stderr")
    if r["cpu"] >= CPU_LIMIT_S and not r["interrupted"]:
        bad.append(f"{r['cpu']:.1f} s CPU")
    if r["rss_mb"] >= RSS_LIMIT_MB:
        bad.append(f"{r['rss_mb']:.0f} MB resident")
    return bad


def _shown(argv) -> str:
    return " ".join(repr(a) if not isinstance(a, str) or not a.isprintable() or " " in a or not a
                    else a for a in argv)[:300]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=12.0)
    ap.add_argument("--out", default=None, help="folder for summary.json and violating inputs")
    ap.add_argument("--only", default=None, help="only this game")
    ap.add_argument("--max-seconds", type=float, default=None,
                    help="stop after this much wall time (the summary covers the runs done); "
                         "SIGTERM stops the same way")
    ap.add_argument("--skip", type=int, default=0,
                    help="draw and skip the first SKIP runs (continue an earlier run)")
    ap.add_argument("--cases", default=None,
                    help="comma-separated run numbers to replay (those of the same --seed)")
    args = ap.parse_args(argv)
    out_dir = args.out or tempfile.mkdtemp(prefix="fuzz_cli_")
    os.makedirs(out_dir, exist_ok=True)
    examples = {g: json.load(open(os.path.join(ROOT, "resources", "examples", f"{g}.json"),
                                  encoding="utf-8")) for g in GAMES}
    words = {g: sorted({v for _p, v in _paths(examples[g]) if isinstance(v, str) and len(v) < 30})
             for g in GAMES}
    rng = random.Random(args.seed)
    by = Counter()
    exits = Counter()
    interrupted = 0
    exits_by = defaultdict(Counter)
    worst = {"cpu": (0.0, ""), "wall": (0.0, ""), "rss_mb": (0.0, "")}
    found = []
    t_start = time.time()
    replay = sorted({int(x) for x in args.cases.split(",")}) if args.cases else None
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(True))
    with tempfile.TemporaryDirectory() as work:
        done = 0
        drawn = 0
        while ((done < args.runs) if replay is None else (drawn < replay[-1])) and not stop:
            if args.max_seconds is not None and time.time() - t_start > args.max_seconds:
                break
            case = make_case(rng, examples, words)
            if args.only and case.game != args.only:
                continue
            drawn += 1
            if drawn <= args.skip or (replay is not None and drawn not in replay):
                continue
            r = run_case(case, work, args.timeout)
            done += 1
            key = f"{case.game} {case.command}"
            by[key] += 1
            exits[r["rc"]] += 1
            interrupted += r["interrupted"]
            exits_by[case.command][r["rc"]] += 1
            for m in worst:
                if r[m] > worst[m][0]:
                    worst[m] = (r[m], f"{key}: {_shown(case.argv)}")
            bad = violations(case, r)
            if bad:
                n = len(found)
                kept = None
                if case.data is not None:
                    kept = os.path.join(out_dir, f"violation{n}.json")
                    with open(kept, "wb") as f:
                        f.write(case.data)
                found.append({"run": drawn, "game": case.game, "command": case.command,
                              "argv": _shown(case.argv), "file": kept, "problems": bad,
                              "rc": r["rc"], "cpu": round(r["cpu"], 2),
                              "stderr": r["stderr"].decode("utf-8", "replace")[-300:]})
                print(f"VIOLATION run {drawn} {key}: {'; '.join(bad)} [{_shown(case.argv)}]",
                      flush=True)
            if done % 100 == 0:
                print(f"{done} runs, {len(found)} violations, {time.time() - t_start:.0f} s, "
                      f"load {os.getloadavg()[0]:.1f}", flush=True)
    summary = {"runs": done, "seed": args.seed, "skipped": args.skip, "replayed": replay,
               "by_game_command": dict(sorted(by.items())),
               "exit_codes": {str(k): v for k, v in sorted(exits.items())},
               "interrupted_simulations": interrupted,
               "exit_codes_by_command": {c: {str(k): v for k, v in sorted(e.items())}
                                         for c, e in sorted(exits_by.items())},
               "worst": {m: {"value": round(v, 2), "case": c} for m, (v, c) in worst.items()},
               "violations": found, "seconds": round(time.time() - t_start)}
    with open(os.path.join(out_dir, "summary.json"), "w", encoding="utf-8") as f:
        json.dump(summary, f, indent=2, ensure_ascii=True)
    print(json.dumps({k: v for k, v in summary.items() if k != "violations"}, indent=1))
    print(f"{len(found)} violations; summary in {out_dir}/summary.json")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
