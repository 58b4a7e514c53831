"""Run the fast subset of the tests against the installed flagcore: every test not marked slow or browser.

Used where the full suite (minutes) is too slow to run many times: by cibuildwheel on every
wheel it builds (``test-command`` in pyproject.toml) and by scripts/test_pythons.sh on every
CPython. The subset touches every compiled module (through its parity tests with the
pure-Python twin), the installed package's contents, the CLI and the pictures.

    python scripts/fast_tests.py [--without-cairo] [extra pytest arguments]

``--without-cairo`` also leaves out the tests marked ``render`` (they draw flags), for a platform where no
libcairo2 is installed (the Windows wheels on a hosted runner); everything else still runs.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# The fast subset is a marker expression, not a file list: a new test joins it unless it is marked.
FAST = "not slow and not browser"

if __name__ == "__main__":
    extra = sys.argv[1:]
    marks = FAST
    if "--without-cairo" in extra:
        extra.remove("--without-cairo")
        marks += " and not render"
        print("without cairo: not running the tests marked render")
    args = ["-q", "-p", "no:cacheprovider", "--rootdir", str(ROOT), "-c", str(ROOT / "pyproject.toml")]
    if importlib.util.find_spec("starlette") is None:
        # cibuildwheel installs the engines' test needs only (test-requires), not the web extra
        args += ["--ignore", str(ROOT / "tests" / "web")]
        print("without the web extra: not running tests/web")
    sys.exit(pytest.main([*args, "-m", marks, str(ROOT / "tests"), *extra]))
