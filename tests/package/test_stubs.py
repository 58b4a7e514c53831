"""Every compiled module has a .pyi stub that declares exactly its public names.

The compiled modules are the src/flagcore/*.pyx files; a module's public names are what it
defines (functions, classes and values without a leading underscore; imported modules and
objects defined in another module are not its API). Inside classes, the public methods and
attributes must match as well. mypy's stubtest then compares signatures (parameter names,
defaults, kinds) against the runtime objects.
"""

from __future__ import annotations

import ast
import importlib
import importlib.machinery
import inspect
import re
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pytest

# The layout of an installed wheel (an editable install keeps stubs and data in the source tree):
# CONTRIBUTING.md's edit loop deselects these with -m "not wheel"; CI installs a wheel and runs them.
pytestmark = pytest.mark.wheel

SOURCE = Path(__file__).resolve().parents[2] / "src" / "flagcore"
COMPILED = sorted(p.stem for p in SOURCE.glob("*.pyx"))
# Members Cython adds to every module and cdef class; not part of anyone's API.
STUBTEST_ALLOWLIST = (
    r"flagcore\._\w+\.__test__",
    r".*\.__reduce_cython__",
    r".*\.__setstate_cython__",
    # A cdef class's __call__ introspects as (*args, **kwargs); the stub gives the real signature.
    r"flagcore\._rng\.Rng\.__call__",
)


def _stub(name: str) -> ast.Module:
    module = importlib.import_module(f"flagcore.{name}")
    path = Path(module.__file__ or "").with_name(f"{name}.pyi")
    assert path.is_file(), f"no stub {path.name} beside {Path(module.__file__ or '').name}"
    return ast.parse(path.read_text("utf-8"))


def _declared(body: list[ast.stmt]) -> set[str]:
    names: set[str] = set()
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return names


def _public(names: set[str]) -> set[str]:
    return {n for n in names if not n.startswith("_")}


def _defined_here(module: types.ModuleType, value: Any) -> bool:
    if isinstance(value, types.ModuleType):
        return False
    owner = getattr(value, "__module__", None) if (inspect.isclass(value) or callable(value)) else None
    return owner in (None, module.__name__)


def test_every_pyx_is_compiled_module() -> None:
    assert COMPILED, f"no .pyx found in {SOURCE}"
    for name in COMPILED:
        module = importlib.import_module(f"flagcore.{name}")
        suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
        assert module.__file__ and module.__file__.endswith(suffixes), module.__file__


@pytest.mark.parametrize("name", COMPILED)
def test_stub_declares_exactly_the_public_names(name: str) -> None:
    module = importlib.import_module(f"flagcore.{name}")
    stub = _stub(name)
    runtime = {n for n in dir(module) if not n.startswith("_") and _defined_here(module, getattr(module, n))}
    declared = _public(_declared(stub.body))
    assert declared == runtime, (
        f"{name}.pyi: missing {sorted(runtime - declared)}, not in the module {sorted(declared - runtime)}"
    )


@pytest.mark.parametrize("name", COMPILED)
def test_stub_classes_declare_exactly_the_public_members(name: str) -> None:
    module = importlib.import_module(f"flagcore.{name}")
    for node in _stub(name).body:
        if not isinstance(node, ast.ClassDef):
            continue
        cls = getattr(module, node.name)
        declared = _declared(node.body)
        runtime = _public(set(dir(cls)))
        assert _public(declared) == runtime, (
            f"{name}.{node.name}: missing {sorted(runtime - declared)}, "
            f"not at run time {sorted(_public(declared) - runtime)}"
        )
        absent = sorted(n for n in declared if not hasattr(cls, n))
        assert not absent, f"{name}.{node.name} stub declares {absent}, which the class lacks"


@pytest.mark.slow
def test_stubtest_agrees_with_the_runtime(tmp_path: Path) -> None:
    allow = tmp_path / "allowlist.txt"
    allow.write_text("\n".join(STUBTEST_ALLOWLIST) + "\n", "utf-8")
    cmd = [sys.executable, "-m", "mypy.stubtest", "--concise", "--allowlist", str(allow)]
    options = subprocess.run(cmd[:3] + ["--help"], capture_output=True, text=True).stdout
    # PEP 800 @disjoint_base checks (mypy >= 1.18) would ask for a marker older mypy cannot read.
    if re.search(r"--ignore-disjoint-bases\b", options):
        cmd.append("--ignore-disjoint-bases")
    done = subprocess.run(
        cmd + [f"flagcore.{n}" for n in COMPILED], cwd=tmp_path, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stdout + done.stderr
