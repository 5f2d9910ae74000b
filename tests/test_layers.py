"""The import graph of the library: no module-level cycle, and no layer imports a
layer above it (games < gp < qd < experiments)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("games", "gp", "qd", "experiments")
LAYER = {name: rank for rank, name in enumerate(PACKAGES)}


def module_files() -> dict[str, Path]:
    """Dotted module name -> file, for every module of the four packages."""
    out = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


def _top_level(body: list[ast.stmt]):
    """Statements run when the module is imported: not inside functions."""
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        yield node
        for field in ("body", "orelse", "finalbody", "handlers"):
            inner = getattr(node, field, None)
            if isinstance(inner, list):
                yield from _top_level([n for n in inner if isinstance(n, ast.stmt)] +
                                      [s for h in inner if isinstance(h, ast.excepthandler)
                                       for s in h.body])


def imports(name: str, path: Path, modules: dict[str, Path], module_level: bool) -> set[str]:
    """Modules of the four packages that ``name`` imports (at module level only, or
    anywhere in the file)."""
    tree = ast.parse(path.read_text())
    nodes = _top_level(tree.body) if module_level else ast.walk(tree)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            for alias in node.names:
                child = f"{source}.{alias.name}"
                out.add(child if child in modules else source)
    return {m for m in out if m in modules}


def test_no_module_level_import_cycle():
    modules = module_files()
    graph = {name: imports(name, path, modules, module_level=True)
             for name, path in modules.items()}
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycle = stack[stack.index(nxt):] + [nxt]
                raise AssertionError("import cycle: " + " -> ".join(cycle))
            if nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name)


def test_no_layer_imports_a_layer_above_it():
    modules = module_files()
    breaks = []
    for name, path in modules.items():
        rank = LAYER[name.split(".")[0]]
        for target in imports(name, path, modules, module_level=False):
            if LAYER[target.split(".")[0]] > rank:
                breaks.append(f"{name} imports {target}")
    assert not breaks, "\n".join(breaks)


def test_the_walker_sees_cycles_and_relative_imports(tmp_path, monkeypatch):
    """The walker itself: a relative import resolves, and a function-level import is
    not a module-level edge."""
    pkg = tmp_path / "games"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from . import b\n")
    (pkg / "b.py").write_text("def f():\n    from .a import x\n")
    modules = {"games": pkg / "__init__.py", "games.a": pkg / "a.py", "games.b": pkg / "b.py"}
    assert imports("games.a", pkg / "a.py", modules, module_level=True) == {"games.b"}
    assert imports("games.b", pkg / "b.py", modules, module_level=True) == set()
    assert imports("games.b", pkg / "b.py", modules, module_level=False) == {"games.a"}
