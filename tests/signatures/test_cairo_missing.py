"""Without the cairo C library (libcairo2): a one-line install hint, and None where documented.

The machine running the tests has libcairo2, so its absence is simulated the way cairocffi
reports it: a ``cairocffi`` package placed first on the path raises the same multi-line OSError
that the real one raises when it finds no library. Each case runs in a fresh interpreter, since
cairosvg loads cairocffi once per process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

# What cairocffi 1.x raises when dlopen finds none of its candidate names.
CAIROCFFI_ERROR = "\n".join(
    [
        'no library called "cairo-2" was found',
        'no library called "cairo" was found',
        'no library called "libcairo-2" was found',
        "cannot load library 'libcairo.so.2': libcairo.so.2: cannot open shared object file",
        "cannot load library 'libcairo.2.dylib': libcairo.2.dylib: cannot open shared object file",
        "cannot load library 'libcairo-2.dll': libcairo-2.dll: cannot open shared object file",
    ]
)
FAKE_CAIROCFFI = f"raise OSError({CAIROCFFI_ERROR!r})\n"
HINT = "install libcairo2"


@pytest.fixture(scope="module")
def no_cairo(tmp_path_factory) -> dict[str, str]:
    fake = tmp_path_factory.mktemp("no-cairo")
    (fake / "cairocffi").mkdir()
    (fake / "cairocffi" / "__init__.py").write_text(FAKE_CAIROCFFI)
    env = dict(os.environ, PYTHONPATH=str(fake))
    env.pop("PYTHONWARNINGS", None)
    return env


def python(code: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], env=env, cwd=cwd, capture_output=True, text=True, timeout=120)


def flagcore(env: dict[str, str], cwd: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "flagcore", *argv], env=env, cwd=cwd, capture_output=True, text=True, timeout=120
    )


def test_the_simulation_is_what_cairocffi_raises(no_cairo, tmp_path):
    res = python("import cairosvg", no_cairo, tmp_path)
    assert res.returncode != 0 and "OSError: no library called" in res.stderr


def test_render_flag_raises_one_line_hint(no_cairo, tmp_path):
    res = python(
        "from flagcore import signatures\n"
        "try:\n    signatures.render_flag('JP', 3)\n"
        "except OSError as exc:\n    print(type(exc).__name__, '|', exc)\n",
        no_cairo,
        tmp_path,
    )
    assert res.returncode == 0, res.stderr
    name, message = res.stdout.strip().split(" | ")
    assert name == "CairoMissingError" and HINT in message and "\n" not in message.strip()


def test_piece_signatures_and_new_game_give_none_with_a_warning(no_cairo, tmp_path):
    code = (
        "import json, warnings\n"
        "from flagcore import puzzle, signatures\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.simplefilter('always')\n"
        "    sigs = signatures.piece_signatures('JP', 6, 4)\n"
        "    game = puzzle.new_game('JP', '6x4', seed=1)\n"
        "    table = signatures.piece_signatures('JP', 5, 3)\n"  # the precomputed table needs no cairo
        "print(json.dumps({'sigs': sigs, 'game': game.signatures, 'table': table is not None,\n"
        "                  'warnings': [str(w.message) for w in caught]}))\n"
    )
    res = python(code, no_cairo, tmp_path)
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert out["sigs"] is None and out["game"] is None and out["table"]
    assert out["warnings"] and all(HINT in w for w in out["warnings"])


@pytest.mark.parametrize(
    "argv",
    [
        ["puzzle", "--flag", "JP", "--grid", "3x2", "--png", "p.png"],
        ["connections", "--seed", "12", "--png", "c.png"],
        ["data", "check"],
    ],
)
def test_cli_prints_one_line_hint(no_cairo, tmp_path, argv):
    res = flagcore(no_cairo, tmp_path, *argv)
    assert res.returncode == 2
    *progress, hint = res.stderr.splitlines()  # `data check` starts its progress bar first
    assert HINT in hint and "Traceback" not in res.stderr
    assert all(line.startswith("data check colours") for line in progress) and len(progress) <= 1
    assert list(tmp_path.iterdir()) == []


def test_cli_warning_is_one_line(no_cairo, tmp_path):
    res = flagcore(no_cairo, tmp_path, "puzzle", "--flag", "JP", "--grid", "6x4", "--seed", "1", "--json")
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["signatures"] is None
    assert res.stderr.startswith("flagcore: warning: ") and res.stderr.count("\n") == 1
    assert HINT in res.stderr
