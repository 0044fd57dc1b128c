"""The shape of the code, read statically (``ast``; nothing is imported): no import circle in
``desktop`` and ``engines`` (function-level imports included: a lazy import is still a
dependency, as is a name of a lazy package's table), QSettings keys only in
``desktop/shell/settings.py``, and MainWindow's size."""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("desktop", "engines")


def _modules() -> dict[str, Path]:
    out = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


def import_graph() -> dict[str, set]:
    """module -> the modules of the two packages it imports (anywhere in its file)."""
    modules = _modules()

    def known(name: str):
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph = {}
    for name, path in modules.items():
        edges = set()
        package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [known(a.name) for a in node.names]
            elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "lazy_package":
                # a package's table of names imported on first use (engines/core/lazy.py):
                # each "submodule" or "submodule:attribute" value is a dependency
                targets = [known(f"{name}.{v.value.partition(':')[0]}")
                           for arg in node.args if isinstance(arg, ast.Dict)
                           for v in arg.values if isinstance(v, ast.Constant)]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    base = ".".join(package[:len(package) - node.level + 1] + [base] * bool(base))
                # ``from pkg import mod`` imports the module pkg.mod when there is one
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else known(base)
                           for a in node.names]
            else:
                continue
            edges.update(t for t in targets if t and t != name)
        graph[name] = edges
    return graph


def cycles(graph: dict[str, set]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan's algorithm,
    iterative), each sorted."""
    index, low, on_stack, stack, out = {}, {}, set(), [], []
    counter = 0
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            v, children = work[-1]
            for w in children:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    component = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        component.append(w)
                        if w == v:
                            break
                    if len(component) > 1:
                        out.append(sorted(component))
    return out


def test_the_cycle_finder_finds_a_planted_circle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_circle_in_desktop_and_engines():
    graph = import_graph()
    assert "desktop.shell.selftest" in graph["desktop.shell.main_window"]              # the graph sees lazy imports
    assert "engines.spyfall.recommend" in graph["engines.spyfall"]
    assert cycles(graph) == []


def _annotations(node) -> list:
    """The annotation expressions of ``node`` (arguments, return, annotated assignment)."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        args = node.args
        every = args.posonlyargs + args.args + args.kwonlyargs + [args.vararg, args.kwarg]
        return [a.annotation for a in every if a is not None and a.annotation is not None] \
            + ([node.returns] if node.returns is not None else [])
    if isinstance(node, ast.AnnAssign):
        return [node.annotation]
    return []


def test_settings_keys_are_declared_in_one_module():
    """Every QSettings read or write outside desktop/shell/settings.py goes through its options."""
    offenders = []
    for path in (ROOT / "desktop").rglob("*.py"):
        if path.name == "settings.py" and path.parent.name == "shell":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        annotations = {id(n) for node in ast.walk(tree)   # a type annotation is not a use
                       for ann in _annotations(node) for n in ast.walk(ann)}
        for node in ast.walk(tree):
            if id(node) in annotations:
                continue
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr in ("value", "setValue", "remove", "contains") \
                    and node.args and isinstance(node.args[0], (ast.Constant, ast.JoinedStr)) \
                    and isinstance(getattr(node.args[0], "value", ""), (str, type(None))):
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}")
            if isinstance(node, ast.Name) and node.id == "QSettings" \
                    and path.name != "window_state.py":   # window_state: a type annotation
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno} QSettings")
    assert offenders == []


def test_main_window_is_under_400_lines():
    tree = ast.parse((ROOT / "desktop" / "shell" / "main_window.py").read_text(encoding="utf-8"))
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "MainWindow")
    assert cls.end_lineno - cls.lineno + 1 < 400


def document_reads(source: str) -> list[int]:
    """The lines of ``source`` that read an attribute named ``document`` (``x.document``, also
    ``x.controller.document``): the session document is the controller's alone."""
    return sorted(node.lineno for node in ast.walk(ast.parse(source))
                  if isinstance(node, ast.Attribute) and node.attr == "document")


def test_document_reads_are_found():
    assert document_reads("a = tab.controller.document.events\nb = tab.document\n") == [1, 2]
    assert document_reads("a = tab.controller.events\ndocument = 1\nb = doc.setup\n") == []


def test_games_never_read_the_document():
    """The game packages draw from the Snapshot and write through the controller's commands
    (docs/ARCHITECTURE.md): no module under desktop/games/ reads ``.document``; nor does the
    base tab offer it."""
    offenders = [f"{path.relative_to(ROOT)}:{line}"
                 for path in sorted((ROOT / "desktop" / "games").rglob("*.py"))
                 for line in document_reads(path.read_text(encoding="utf-8"))]
    assert offenders == []
    tree = ast.parse((ROOT / "desktop" / "tabs" / "base.py").read_text(encoding="utf-8"))
    tab = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "GameTab")
    assert "document" not in {n.name for n in tab.body if isinstance(n, ast.FunctionDef)}
