"""FLAGCORE_IMPL: the accepted spellings pick the core; anything else fails with a clear message."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from conftest import use_twin

import flagcore
from flagcore.errors import FlagcoreError, ImplError

CODE = "import flagcore; from flagcore import _impl; print(_impl.IMPL, flagcore.Rng.__module__)"


def run(value: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, FLAGCORE_IMPL=value)
    return subprocess.run([sys.executable, "-c", CODE], env=env, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize(
    "value,impl,module",
    [
        ("", "compiled", "flagcore._rng"),
        ("compiled", "compiled", "flagcore._rng"),
        ("Cython", "compiled", "flagcore._rng"),
        (" python ", "python", "flagcore.reference.rng"),
        ("reference", "python", "flagcore.reference.rng"),
    ],
)
def test_accepted_values(value, impl, module):
    res = run(value)
    assert res.returncode == 0, res.stderr
    assert res.stdout.split() == [impl, module]


def test_unknown_value_names_the_choices():
    res = run("pypy")
    assert res.returncode != 0
    last = res.stderr.strip().splitlines()[-1]
    assert last.startswith("flagcore.errors.ImplError: FLAGCORE_IMPL='pypy' is not understood")
    assert "'compiled'" in last and "'python'" in last
    # an ImportError, so code that guards an import with ``except ImportError`` still works
    assert issubclass(ImplError, ImportError) and issubclass(ImplError, FlagcoreError)


def test_unknown_value_is_one_line_in_the_command():
    env = dict(os.environ, FLAGCORE_IMPL="pypy")
    cmd = [sys.executable, "-m", "flagcore", "puzzle", "--seed", "1"]
    res = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=60)
    assert res.returncode == 2
    assert res.stdout == ""
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("flagcore: error: FLAGCORE_IMPL='pypy' is not understood"), (
        res.stderr
    )


def test_one_switch_moves_every_engine(monkeypatch):
    # The twin fixture's promise: one call points every public module at the other implementation.
    from flagcore import _impl, connections, puzzle, signatures
    from flagcore.reference import connections as ref_connections
    from flagcore.reference import puzzle as ref_puzzle

    use_twin(monkeypatch, "python")
    assert flagcore.Rng.__module__ == "flagcore.reference.rng"
    assert _impl.core.puzzle is ref_puzzle and _impl.core.connections is ref_connections
    calls = []
    monkeypatch.setattr(ref_puzzle, "deal", lambda *a: calls.append("deal") or ([1, 0], 1))
    puzzle.new_game(None, (2, 1), seed=3)
    assert calls == ["deal"]
    board = connections.generate(5)
    digest = signatures.hash_pixel_data(bytes(range(256)))
    _impl.core.use("compiled")
    assert flagcore.Rng.__module__ == "flagcore._rng"
    assert connections.generate(5) == board
    assert signatures.hash_pixel_data(bytes(range(256))) == digest
