"""The shape of the code in lines, read statically (``ast``; nothing is imported): the three
largest classes and functions of ``desktop/`` and ``engines/``, and each game's ``Tab`` class.

Run: ``python tests/benchmarks/code_shape.py`` (from the repository root, or give it as the
argument).
"""
import ast
import pathlib
import sys


def spans(path: pathlib.Path):
    """``(kind, name, lines)`` of every class and function of the file at ``path``."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            kind = "class" if isinstance(node, ast.ClassDef) else "function"
            yield kind, node.name, node.end_lineno - node.lineno + 1


def main(root: pathlib.Path) -> None:
    for package in ("desktop", "engines"):
        found = {"class": [], "function": []}
        for path in sorted((root / package).rglob("*.py")):
            for kind, name, n in spans(path):
                found[kind].append((n, f"{path.relative_to(root)}:{name}"))
        for kind, rows in found.items():
            top = ", ".join(f"{where} {n}" for n, where in sorted(rows, reverse=True)[:3])
            print(f"{package} largest {kind}es: {top}" if kind == "class" else
                  f"{package} largest {kind}s: {top}")
    for path in sorted((root / "desktop" / "games").glob("*/tab.py")):
        n = next((n for kind, name, n in spans(path) if kind == "class" and name == "Tab"), None)
        print(f"{path.parent.name} Tab: {n} lines")


if __name__ == "__main__":
    main(pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve())
