"""The flagcore modules import each other without a cycle.

A cycle held together by an import inside a function still breaks the layering (each module needs
the other loaded to work), so imports inside functions count; only those under
``if TYPE_CHECKING:`` do not, since they never run.
"""

from __future__ import annotations

import ast
from pathlib import Path

import flagcore

ROOT = Path(flagcore.__file__).parent


def module_name(path: Path) -> str:
    parts = ["flagcore", *path.relative_to(ROOT).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imported_names(tree: ast.Module, name: str, is_package: bool) -> set[str]:
    """Every module name ``name`` imports, at any depth, except under ``if TYPE_CHECKING:``."""
    package = name if is_package else name.rpartition(".")[0]
    out: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and is_type_checking(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            out.add(module)
            # `from pkg import sub` imports the module pkg.sub when there is one
            out.update(f"{module}.{alias.name}" for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return out


def import_graph() -> dict[str, set[str]]:
    paths = {module_name(p): p for p in ROOT.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        targets = imported_names(tree, name, path.name == "__init__.py")
        # a module's import of its own package (or a parent) loads the __init__ first: not an edge
        # worth a cycle, since every submodule does it
        graph[name] = {t for t in targets if t in paths and t != name and not name.startswith(t + ".")}
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


def test_graph_sees_imports_inside_functions() -> None:
    graph = import_graph()
    assert "flagcore.connections.board" in graph
    assert graph["flagcore.connections.game"], "game imports other flagcore modules"


def test_find_cycle_finds_one() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_type_checking_imports_do_not_count() -> None:
    source = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import x\ndef f():\n    from . import y\n"
    tree = ast.parse(source)
    assert imported_names(tree, "flagcore.m", False) == {"typing", "typing.TYPE_CHECKING", "flagcore", "flagcore.y"}


def test_no_import_cycle() -> None:
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])
