"""FLAGCORE_IMPL: the accepted spellings pick the core; anything else fails with a clear message."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

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
    assert last.startswith("ImportError: FLAGCORE_IMPL='pypy' is not understood")
    assert "'compiled'" in last and "'python'" in last
