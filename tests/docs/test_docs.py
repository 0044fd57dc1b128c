"""The documentation cannot drift: links and pictures exist, the commands shown as runnable
run, and figures marked as generated equal the benchmark's last saved output.

* Links: every relative link or image of a Markdown page of the repository (README, docs/,
  the guide, engines/CONTRACT.md) names a file that exists.
* Runnable commands: a fenced block whose info string is ``sh runnable`` holds one command per
  line, run from the repository root; a trailing ``# exit N`` gives the exit code expected
  (0 otherwise).
* Generated figures: a number followed by ``<!--gen:BENCH.KEY.PATH-->`` must equal the value at
  KEY.PATH of ``tests/benchmarks/results/BENCH.json`` (written by the benchmark with ``--save``).
* No page or shipped text names a folder of the machine it was written on.
"""
from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted({ROOT / "README.md", ROOT / "engines" / "CONTRACT.md",
                *(ROOT / "docs").rglob("*.md"), *(ROOT / "resources" / "guide").rglob("*.md")})
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^```([^\n]*)\n(.*?)^```", re.M | re.S)
GEN = re.compile(r"(-?[0-9][0-9.,]*)\s*<!--gen:([A-Za-z0-9_]+)\.([A-Za-z0-9_.]+)-->")
MACHINE_PATH = re.compile(r"(?<![\w.])/(?:work|root|home|tmp)/[\w.\-]+/")


def _rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


def _without_code(text: str) -> str:
    """``text`` with fenced blocks and inline code removed (links there are examples)."""
    return re.sub(r"`[^`\n]*`", "", FENCE.sub("", text))


def test_pages_found():
    names = {_rel(p) for p in PAGES}
    assert "README.md" in names and "docs/references.md" in names
    assert any(n.startswith("resources/guide/") for n in names)


@pytest.mark.parametrize("page", PAGES, ids=_rel)
def test_relative_links_exist(page):
    missing = []
    for target in LINK.findall(_without_code(page.read_text(encoding="utf-8"))):
        if re.match(r"^[a-z][a-z0-9+.\-]*:", target) or target.startswith("#"):
            continue   # a URL (http:, mailto:) or an anchor on the same page
        path = (page.parent / target.split("#", 1)[0]).resolve()
        if not path.exists():
            missing.append(target)
    assert not missing, f"{_rel(page)}: links to missing files {missing}"


def test_every_doc_reachable_from_the_readme():
    """Following relative links from the README reaches every page under docs/."""
    seen, todo = set(), [ROOT / "README.md"]
    while todo:
        page = todo.pop()
        if page in seen or page.suffix != ".md" or not page.is_file():
            continue
        seen.add(page)
        for target in LINK.findall(_without_code(page.read_text(encoding="utf-8"))):
            if not re.match(r"^[a-z][a-z0-9+.\-]*:", target) and not target.startswith("#"):
                todo.append((page.parent / target.split("#", 1)[0]).resolve())
    unreached = [_rel(p) for p in (ROOT / "docs").glob("*.md") if p.resolve() not in seen]
    assert not unreached, f"not linked from the README (directly or through a page): {unreached}"


def _runnable_commands():
    for page in PAGES:
        for info, body in FENCE.findall(page.read_text(encoding="utf-8")):
            if info.split()[1:2] == ["runnable"]:
                for line in body.splitlines():
                    if line.strip():
                        yield pytest.param(line.strip(), id=f"{_rel(page)}: {line.strip()[:60]}")


RUNNABLE = list(_runnable_commands())


def test_some_commands_are_runnable():
    assert len(RUNNABLE) >= 5


@pytest.mark.parametrize("line", RUNNABLE)
def test_runnable_command(line):
    command, _, comment = line.partition("  #")
    expect = int(m.group(1)) if (m := re.search(r"exit (\d+)", comment)) else 0
    argv = shlex.split(command)
    assert argv[0] == "python", "runnable commands start with python (run with this interpreter)"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, *argv[1:]], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == expect, f"{line}\nexit {done.returncode}\n{done.stderr[-2000:]}"
    assert "Traceback" not in done.stderr
    if expect == 0 and argv[1:3] == ["-m", "engines"] and argv[3] != "simulate":
        json.loads(done.stdout)   # the engines' commands print JSON


def _generated_figures():
    for page in PAGES:
        for figure, bench, key in GEN.findall(page.read_text(encoding="utf-8")):
            yield pytest.param(figure, bench, key, id=f"{_rel(page)}: {bench}.{key}")


GENERATED = list(_generated_figures())


def test_some_figures_are_generated():
    assert len(GENERATED) >= 10


@pytest.mark.parametrize("figure,bench,key", GENERATED)
def test_generated_figure_matches_saved_output(figure, bench, key):
    saved = ROOT / "tests" / "benchmarks" / "results" / f"{bench}.json"
    assert saved.is_file(), f"{saved} missing: run python tests/benchmarks/{bench}.py --save"
    value = json.loads(saved.read_text(encoding="utf-8"))
    for part in key.split("."):
        value = value[part]
    shown = float(figure.replace(",", ""))
    decimals = len(figure.split(".", 1)[1]) if "." in figure else 0
    assert round(float(value), decimals) == shown, f"{bench}.{key}: the docs say {figure}, " \
                                                   f"the benchmark saved {value}"


def test_no_machine_paths_in_docs_or_shipped_text():
    texts = list(PAGES) + sorted((ROOT / "resources").rglob("*.json"))
    found = []
    for path in texts:
        for m in MACHINE_PATH.finditer(path.read_text(encoding="utf-8")):
            found.append(f"{_rel(path)}: {m.group(0)}")
    assert not found, found


def test_guide_pages_link_only_inside_the_guide():
    """The app shows the guide from the installed package, where docs/ does not exist: a
    guide page links only to guide pages, its pictures and web addresses."""
    guide = (ROOT / "resources" / "guide").resolve()
    outside = []
    for page in guide.rglob("*.md"):
        for target in LINK.findall(_without_code(page.read_text(encoding="utf-8"))):
            if re.match(r"^[a-z][a-z0-9+.\-]*:", target) or target.startswith("#"):
                continue
            path = (page.parent / target.split("#", 1)[0]).resolve()
            if guide not in path.parents:
                outside.append(f"{page.name}: {target}")
    assert not outside, outside
