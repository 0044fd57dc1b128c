"""Every name docs/ARCHITECTURE.md puts in backticks exists: a path names a file or folder of
the repository (``<game>`` standing for any game), a code name (``GameController.select``,
``timeline.compute(events, task)``) has each of its dotted parts defined or used as a word in
the Python sources, and a dotted module path (``engines.core.timeline``) is a module."""
import importlib.util
import re
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "ARCHITECTURE.md"
IDENT = re.compile(r"^@?[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)*$")


@lru_cache(maxsize=1)
def _words() -> frozenset:
    words = set()
    for folder in ("desktop", "engines", "tests"):
        for path in (ROOT / folder).rglob("*.py"):
            words.update(re.findall(r"[A-Za-z_]\w*", path.read_text(encoding="utf-8")))
    return frozenset(words)


def _spans() -> list:
    text = DOC.read_text(encoding="utf-8")
    text = re.sub(r"```.*?```", "", text, flags=re.S)         # the diagram is checked apart
    return re.findall(r"`([^`\n]+)`", text)


#: Files of other projects the document cites as sources.
EXTERNAL = {"picard/ui/columns.py"}   # MusicBrainz Picard, the model of the declared columns


def _path_exists(span: str) -> bool:
    """A file or folder of the repository; a bare file name anywhere in it (``model.py``: a
    module of every game package); or a key the code spells out (``window/lastTab``)."""
    span = span.rstrip("/")
    if span in EXTERNAL or (ROOT / span).exists():
        return True
    if "<game>" in span:
        return any((ROOT / span.replace("<game>", d.name)).exists()
                   for d in (ROOT / "engines").iterdir() if d.is_dir())
    if "/" not in span:
        return any(True for f in ("desktop", "engines", "tests") for _ in ROOT.joinpath(f).rglob(span))
    return any(f'"{span}"' in p.read_text(encoding="utf-8")
               for f in ("desktop", "engines") for p in ROOT.joinpath(f).rglob("*.py"))


def _problem(span: str):
    """Why ``span`` names nothing (None when it does, or when it is not a name)."""
    s = span.strip()
    if re.fullmatch(r"[\w./<>-]+\.(py|md|json|toml)|[\w<>-]+(/[\w.<>-]*)+", s):
        return None if _path_exists(s) else f"no file {s}"
    s = re.sub(r"\(.*\)$", "", s)                     # a call: its name
    if not IDENT.match(s):
        return None                                   # an expression, a command, a value
    parts = s.lstrip("@").split(".")
    if parts[0] in ("desktop", "engines") and len(parts) > 1:
        mod = ".".join(parts)
        while mod and importlib.util.find_spec(mod.split(".")[0]) is not None:
            try:
                if importlib.util.find_spec(mod) is not None:
                    break
            except ModuleNotFoundError:
                pass
            mod = mod.rpartition(".")[0]
        if mod.count(".") == 0 and len(parts) > 1 and parts[1] not in _words():
            return f"no module or name {s}"
    missing = [p for p in parts if p not in _words()]
    return f"{s}: {', '.join(missing)} not in the code" if missing else None


def test_every_backticked_name_exists():
    problems = sorted({p for p in map(_problem, _spans()) if p})
    assert not problems, problems


def test_the_diagram_names_exist():
    text = DOC.read_text(encoding="utf-8")
    diagrams = re.findall(r"```\n(.*?)```", text, flags=re.S)
    names = {n for d in diagrams for n in re.findall(r"\b[A-Z][a-z]+[A-Z]\w*|\b\w+_\w+\b", d)}
    missing = sorted(n for n in names if n not in _words())
    assert names and not missing, missing
