"""Run the fast subset of the tests against the installed flagcore (222 tests, a few minutes).

Used where the full suite (minutes) is too slow to run many times: by cibuildwheel on every
wheel it builds (``test-command`` in pyproject.toml) and by scripts/test_pythons.sh on every
CPython. The subset touches every compiled module (through its parity tests with the
pure-Python twin), the installed package's contents, the CLI and the pictures.

    python scripts/fast_tests.py [--without-cairo] [extra pytest arguments]

``--without-cairo`` leaves out the files that draw flags (CAIRO), for a platform where no
libcairo2 is installed (the Windows wheels on a hosted runner); everything else still runs.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FAST = [
    "tests/package/test_packaging.py",  # the installed package: extensions, stubs, data, version
    "tests/puzzle/test_rng.py",  # _rng vs its twin
    "tests/puzzle/test_puzzle_core.py",  # _puzzle vs its twin and brute force
    "tests/signatures/test_signatures_hash.py",  # _signatures vs the spec's JavaScript vectors
    "tests/connections/test_connections_game.py",  # the game on _connections' boards
    "tests/connections/test_cli_connections.py",  # the console script
    "tests/review/test_pictures.py",  # cairo, Pillow and the bundled font
]
CAIRO = ["tests/review/test_pictures.py"]

if __name__ == "__main__":
    extra = sys.argv[1:]
    files = FAST
    if "--without-cairo" in extra:
        extra.remove("--without-cairo")
        files = [f for f in FAST if f not in CAIRO]
        print(f"without cairo: not running {', '.join(CAIRO)}")
    args = [
        "-q",
        "-p",
        "no:cacheprovider",
        "--rootdir",
        str(ROOT),
        "-c",
        str(ROOT / "pyproject.toml"),
        *(str(ROOT / f) for f in files),
        *extra,
    ]
    sys.exit(pytest.main(args))
