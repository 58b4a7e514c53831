"""Two house rules over python/flagcore: no import circle, and no function over MAX_LINES lines.

Import circles. Every import counts: at the top, inside a function (each module then needs the
other loaded to work) and under ``if TYPE_CHECKING:`` (a circle of annotations is still two
modules that cannot be understood one without the other). ``from pkg import sub`` is an import of
the module ``pkg.sub``; of ``pkg`` itself (its ``__init__``) only when it takes a name ``pkg``
defines, or is ``import pkg``: loading a parent package on the way to a submodule is Python's
doing, not a dependency.

Function length: ``end_lineno - lineno + 1`` of every def (methods and nested functions too),
the decorators not counted.
"""

from __future__ import annotations

import ast
from pathlib import Path

import flagcore

ROOT = Path(flagcore.__file__).parent
MAX_LINES = 80


def module_name(path: Path) -> str:
    parts = ["flagcore", *path.relative_to(ROOT).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_names(tree: ast.Module, name: str, is_package: bool, modules: set[str]) -> set[str]:
    """Every module of ``modules`` that module ``name`` imports, at any depth (see the docstring)."""
    package = name if is_package else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            subs = {f"{module}.{alias.name}" for alias in node.names} & modules
            out.update(subs)
            if len(subs) < len(node.names):  # a name the module itself defines
                out.add(module)
    return {m for m in out if m in modules and m != name}


def import_graph() -> dict[str, set[str]]:
    paths = {module_name(p): p for p in ROOT.rglob("*.py")}
    # the compiled modules (their stubs beside their .pyx-built code) are modules too, without imports here
    known = set(paths) | {module_name(p) for p in ROOT.rglob("*.pyi")}
    graph = {}
    for name, path in paths.items():
        tree = ast.parse(path.read_text("utf-8"), str(path))
        graph[name] = imported_names(tree, name, path.name == "__init__.py", known) & set(paths)
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as a list of modules (first == last), or None."""
    state: dict[str, int] = {}  # 1 on the current path, 2 done
    path: list[str] = []

    def walk(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return path[path.index(nxt) :] + [nxt]
            if nxt not in state:
                found = walk(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = walk(node)
            if found:
                return found
    return None


def long_functions(root: Path = ROOT, limit: int = MAX_LINES) -> list[str]:
    """``path:line name (n lines)`` of every function under ``root`` longer than ``limit`` lines."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > limit:
                    found.append(f"{path.relative_to(root.parent)}:{node.lineno} {node.name} ({lines} lines)")
    return found


def test_the_graph_sees_every_kind_of_import() -> None:
    source = (
        "from typing import TYPE_CHECKING\nimport flagcore\nfrom .. import errors\nfrom ..library import Library\n"
        "if TYPE_CHECKING:\n    from .board import Board\ndef f():\n    from . import game\n"
    )
    modules = {"flagcore", "flagcore.errors", "flagcore.library", "flagcore.connections.board"}
    modules |= {"flagcore.connections", "flagcore.connections.game", "flagcore.connections.search"}
    got = imported_names(ast.parse(source), "flagcore.connections.search", False, modules)
    # ``from .. import errors`` is the module flagcore.errors, not flagcore's __init__; ``import flagcore`` is
    assert got == {
        "flagcore",
        "flagcore.errors",
        "flagcore.library",
        "flagcore.connections.board",
        "flagcore.connections.game",
    }
    assert import_graph()["flagcore.connections.game"], "game imports other flagcore modules"


def test_find_cycle_finds_one() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_no_import_circle() -> None:
    cycle = find_cycle(import_graph())
    assert cycle is None, "import circle: " + " -> ".join(cycle or [])


def test_long_functions_measures_each_def(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_LINES - 1))
    (package / "m.py").write_text(f"def fits():\n{body}\n\n\ndef over():\n{body}\n    return 1\n", "utf-8")
    assert long_functions(package) == [f"pkg/m.py:{MAX_LINES + 3} over ({MAX_LINES + 1} lines)"]


def test_no_function_over_the_limit() -> None:
    too_long = long_functions()
    assert not too_long, f"functions over {MAX_LINES} lines: " + "; ".join(too_long)
