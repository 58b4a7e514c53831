"""The public API is typed: ``mypy --strict`` passes on tests/typing_sample.py and on the package.

mypy runs against the INSTALLED flagcore (its .pyi stubs and py.typed), from a scratch folder so
the source tree can never stand in for it. The sample also has to run, and has to use every name
each public module exports, so it keeps covering the API as the API grows.
"""

from __future__ import annotations

import ast
import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

SAMPLE = Path(__file__).resolve().parents[1] / "typing_sample.py"
# The public modules; each one's __all__ must be used by the sample.
PUBLIC_MODULES = ("flagcore", "flagcore.puzzle", "flagcore.connections", "flagcore.signatures", "flagcore.types")
# flagcore.library has no __all__ (it also holds the loader's helpers): its public API.
LIBRARY_API = ("load_library", "Library", "Category", "LibraryError")
# The reference twins: "flagcore.reference.<module>.<same function>" (docs/architecture.md).
REFERENCE_API = {
    "flagcore.reference.rng": ("Rng", "shuffle"),
    "flagcore.reference.signatures": ("hash_pixel_data", "tile_signatures", "visual_signatures"),
    "flagcore.reference.puzzle": ("count_cycles", "min_swaps_to_identity"),
    "flagcore.reference.connections": ("search_board", "search_many"),
}


def _mypy(tmp_path: Path, *target: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("MYPYPATH", "PYTHONPATH")}
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--no-error-summary",
            "--cache-dir",
            str(tmp_path / "mypy_cache"),
            *target,
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )


def _used_names() -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(SAMPLE.read_text("utf-8"))):
        if isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, ast.Attribute):
            names.add(node.attr)
        elif isinstance(node, ast.alias):
            names.add(node.name.rsplit(".", 1)[-1])
    return names


@pytest.mark.slow
def test_mypy_strict_passes_on_the_sample(tmp_path: Path) -> None:
    done = _mypy(tmp_path, str(SAMPLE))
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.slow
def test_mypy_strict_passes_on_the_installed_package(tmp_path: Path) -> None:
    done = _mypy(tmp_path, "-p", "flagcore")
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_sample_runs(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(SAMPLE)], cwd=tmp_path, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip() == "typing sample: ok"


@pytest.mark.parametrize("module", PUBLIC_MODULES)
def test_the_sample_uses_every_exported_name(module: str) -> None:
    exported = set(importlib.import_module(module).__all__) - {"__version__"}
    missing = sorted(exported - _used_names())
    assert not missing, f"tests/typing_sample.py does not use {module}.{missing}"


def test_the_sample_uses_the_library_and_reference_api() -> None:
    used = _used_names()
    wanted = {("flagcore.library", n) for n in LIBRARY_API}
    wanted |= {(m, n) for m, names in REFERENCE_API.items() for n in names}
    for module, name in sorted(wanted):
        assert hasattr(importlib.import_module(module), name), f"{module}.{name} is gone"
    assert not sorted(n for _, n in wanted if n not in used)
