"""What ``pip install`` put on disk: the installed flagcore is complete and holds no build sources.

Checked against the installed package (never the source folder): a compiled extension and a
``.pyi`` stub for each src/flagcore/*.pyx, ``py.typed``, the flag artwork and the JSON data, no
Cython/C sources, and a single version that the metadata, ``__version__`` and ``flagcore
--version`` all report. scripts/check_wheel.sh checks the same on a wheel in a fresh venv.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.metadata
import re
import subprocess
import sys
from pathlib import Path

import pytest

import flagcore
from flagcore.cli import main

# The layout of an installed wheel (an editable install keeps stubs and data in the source tree):
# CONTRIBUTING.md's edit loop deselects these with -m "not wheel"; CI installs a wheel and runs them.
pytestmark = pytest.mark.wheel

ROOT = Path(__file__).resolve().parents[2]
COMPILED = sorted(p.stem for p in (ROOT / "src" / "flagcore").glob("*.pyx"))
PACKAGE = Path(flagcore.__file__).resolve().parent
DATA_FILES = ("countries.json", "flag_tags.json", "categories.json", "names.json", "signatures.json")
BUILD_SOURCES = ("*.pyx", "*.pxd", "*.pxi", "*.c", "*.h", "CMakeLists.txt", "*.cmake")
MIN_FLAGS = 190


def test_tests_run_against_the_installed_package() -> None:
    assert not PACKAGE.is_relative_to(ROOT / "python"), f"flagcore imported from the source tree: {PACKAGE}"
    files = importlib.metadata.files("flagcore") or []
    assert any(f.name == "__init__.py" and f.parent.name == "flagcore" for f in files)


@pytest.mark.parametrize("name", COMPILED)
def test_each_compiled_module_is_an_extension_with_a_stub(name: str) -> None:
    module = importlib.import_module(f"flagcore.{name}")
    path = Path(module.__file__ or "")
    assert path.parent == PACKAGE
    assert path.name.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)), path.name
    assert (PACKAGE / f"{name}.pyi").is_file(), f"no {name}.pyi beside {path.name}"


def test_no_other_extension_and_no_stray_stub() -> None:
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    extensions = sorted(p.name.split(".", 1)[0] for p in PACKAGE.rglob("*") if p.name.endswith(suffixes))
    assert extensions == COMPILED
    stubs = sorted(p.stem for p in PACKAGE.rglob("*.pyi"))
    assert stubs == COMPILED


def test_py_typed() -> None:
    assert (PACKAGE / "py.typed").is_file()


def test_flag_data_is_installed() -> None:
    flags = PACKAGE / "flags"
    svgs = sorted((flags / "svg").glob("*.svg"))
    assert len(svgs) >= MIN_FLAGS
    assert all(p.stat().st_size > 0 for p in svgs)
    for name in DATA_FILES:
        assert (flags / name).is_file(), name
    assert (flags / "README.md").is_file()  # provenance and licence of the artwork


def test_the_shipped_ratings_and_their_history_are_installed() -> None:
    """shipped.json and every file of its history folder (the ratings that colour the dailies
    published before it, docs/ratings.md): a wheel without them would recolour those dailies."""
    source = ROOT / "python" / "flagcore" / "ratings"
    kept = sorted(p.relative_to(source) for p in [source / "shipped.json", *(source / "shipped").glob("*.json")])
    assert len(kept) >= 2
    for name in kept:
        assert (PACKAGE / "ratings" / name).read_bytes() == (source / name).read_bytes(), name


def test_the_published_dailies_are_installed() -> None:
    """connections/daily/published.json.gz (the published dailies, docs/season.md): a wheel without
    it would deal none of the dailies before 2027-02-01."""
    name = Path("connections") / "daily" / "published.json.gz"
    assert (PACKAGE / name).read_bytes() == (ROOT / "python" / "flagcore" / name).read_bytes()


def test_no_build_sources_are_installed() -> None:
    found = sorted(str(p.relative_to(PACKAGE)) for pattern in BUILD_SOURCES for p in PACKAGE.rglob(pattern))
    assert not found
    assert not (PACKAGE / "tools").exists()


def test_one_version_everywhere(capsys: pytest.CaptureFixture[str]) -> None:
    version = importlib.metadata.version("flagcore")
    assert flagcore.__version__ == version
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.strip() == f"flagcore {version}"
    # The source tree's _version.py is the one place the version is written; the install must be
    # built from it (a stale install of an older version fails here).
    source = (ROOT / "python" / "flagcore" / "_version.py").read_text("utf-8")
    assert re.fullmatch(r'__version__ = "([^"]+)"\n', source) is not None
    assert f'"{version}"' in source


def test_pyproject_does_not_repeat_the_version() -> None:
    text = (ROOT / "pyproject.toml").read_text("utf-8")
    project = text.split("[project]", 1)[1].split("\n[", 1)[0]
    assert re.search(r"^dynamic\s*=\s*\[.*\"version\".*\]", project, re.M)
    assert not re.search(r"^version\s*=", project, re.M)
    assert 'metadata.version.input = "python/flagcore/_version.py"' in text


def test_console_script_version() -> None:
    done = subprocess.run(
        [Path(sys.executable).with_name("flagcore"), "--version"], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"flagcore {importlib.metadata.version('flagcore')}"
