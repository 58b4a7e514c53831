"""The code blocks of the Markdown pages, and the one rule each block is held to (CONTRIBUTING.md, "Docs").

Every fenced block names its language, and the language is its class:

* ``python``: runs, each block in a fresh interpreter, in its page's scratch folder; the page's
  blocks that write a file (``open(..., "w")``) run there first, in page order, so a later block
  or command may read the file.
* ``bash``: one command a line (a trailing ``# comment`` is a comment). A command runs in its
  page's scratch folder with the installed ``flagcore`` and ``python`` first on PATH, must exit 0
  (or the status EXIT_STATUS gives it), print something and no traceback. Two kinds are not run:
  an *install line* (it holds ``pip install`` or ``python3 -m venv``), which is checked instead:
  every extra it names is an extra of pyproject.toml, and the README's own set-up lines are lines
  of .ci/run, which runs them; and a command listed in NOT_RUN with the place it runs instead
  (servers, builds, runs of minutes, by-hand tools).
* ``json``: a data file's object, or an excerpt of one: the block is JSON, or with the ``...``
  removed each line is.
* ``text``: a picture or an excerpt shown as it is (a diagram, a file's layout): not run.

Anything else (a block without a language, another language) fails test_every_block_has_a_class.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from importlib.metadata import metadata
from pathlib import Path
from typing import Any

import pytest
from conftest import use_twin

REPO = Path(__file__).resolve().parents[2]
CLASSES = ("python", "bash", "json", "text")
FENCE = re.compile(r"^( *)```(\S*)[^\n]*\n(.*?)^\1```[ \t]*$", re.S | re.M)
INSTALL = re.compile(r"pip install|python3? -m venv")

# Commands the pages show that the tests do not run, and where each runs instead.
NOT_RUN = {
    "pre-commit install": "optional, by hand (pip install pre-commit)",
    "ruff check . && ruff format .": ".ci/run runs ruff check and ruff format --check",
    "pytest -n auto": "the test command itself: .ci/run runs it",
    "mkdocs build --strict": ".ci/run builds the site after the tests",
    "pytest benchmarks/bench_season.py --benchmark-enable --benchmark-only --dist no --benchmark-json=benchmarks/results/season.json": "a timed run of minutes: by hand, before write_figures.py",
    "python scripts/write_figures.py": "reads the benchmarks' JSON files: tests/package/test_docs.py checks its output is the pages' tables",
    "FLAGCORE_SCREENSHOTS=docs pytest tests/web/test_web_play_screens.py": "the browser test itself runs in the suite; with the variable it also writes the pictures",
    "pytest benchmarks --benchmark-enable --benchmark-only --dist no --benchmark-columns=median,iqr,rounds --benchmark-sort=name": "the benchmarks take minutes; pytest collects them with timing disabled, so each runs once in the suite",
    "pytest benchmarks/bench_signatures.py --benchmark-enable --benchmark-only --dist no --benchmark-columns=median,iqr,rounds --benchmark-sort=name": "timed runs take a minute; pytest collects benchmarks/ with timing disabled, so each runs once in the suite",
    "flagcore stats puzzle --seeds 100 --audit": "minutes; tests/signatures/test_signatures_puzzle.py runs it with --seeds 4 on a few flags",
    "python -m pytest -q tests/hardening/": "part of the test suite itself",
    "python fuzz/run.py --inputs 1000000": "a long fuzz run, by hand",
    "bash scripts/sanitize.sh tests": "rebuilds under ASan + UBSan and reruns the suite: by hand",
    "bash scripts/sanitize.sh --fuzz 70000": "rebuilds under ASan + UBSan: by hand",
    "bash scripts/leaks.sh 20": "valgrind: by hand",
    "flagcore serve --port 8000": "serves until stopped: the web tests start the server and drive it",
    "flagcore serve": "serves until stopped: the web tests start the server and drive it",
    "flagcore serve --host 0.0.0.0 --port 8080 --workers 4 --allowed-host games.example.org": "serves until stopped (the web tests)",
    "FLAGCORE_SECRET=... flagcore serve --store redis://redis.internal:6379/0 --host 0.0.0.0 --workers 4": "serves until stopped (tests/web/test_web_store_servers.py runs it on a local redis-server)",
    "FLAGCORE_SECRET=... flagcore serve --host 0.0.0.0 --workers 4": "serves until stopped (the web tests)",
    "FLAGCORE_SECRET=... uvicorn --factory flagcore.web:create_app --host 0.0.0.0 --workers 4": "serves until stopped (the web tests)",
    "flagcore ratings fit --records records/blind-games.jsonl --out ratings.json": "needs play records: tests/ratings/test_ratings_cli.py fits synthetic ones",
    "flagcore ratings show ratings.json --png ratings.png": "needs a fit: tests/ratings/test_ratings_cli.py shows one",
    "pip wheel . -w dist": "scripts/check_wheel.sh builds the wheel",
    "python -m build --sdist": "scripts/check_wheel.sh builds the sdist",
    "bash scripts/check_wheel.sh": "minutes (builds twice); by hand and in the wheels workflow",
    "bash scripts/test_pythons.sh": "builds on every CPython found: by hand",
}
# Commands whose documented outcome is a non-zero exit status.
EXIT_STATUS = {"flagcore data check --library my.json --min-per-tier 1,1,1,2": 1}


@dataclass(frozen=True)
class Block:
    page: str  # the path from the repository's root
    line: int
    lang: str
    body: str

    @property
    def id(self) -> str:
        return f"{self.page}:{self.line}"


def pages(*globs: str) -> list[Path]:
    found = sorted({p for g in globs for p in REPO.glob(g)})
    # docs/contributing.md is CONTRIBUTING.md itself (a snippet include), read once as CONTRIBUTING.md
    return [p for p in found if p.relative_to(REPO).as_posix() != "docs/contributing.md"]


def blocks(paths: list[Path]) -> list[Block]:
    out = []
    for path in paths:
        text = path.read_text(encoding="utf-8")
        for m in FENCE.finditer(text):
            indent = len(m.group(1))
            body = "".join(line[indent:] if line[:indent].isspace() else line for line in m.group(3).splitlines(True))
            out.append(Block(path.relative_to(REPO).as_posix(), text[: m.start()].count("\n") + 1, m.group(2), body))
    return out


def commands(body: str) -> list[str]:
    """The commands of a bash block: one per line, without the trailing "# comment"."""
    out = []
    for line in body.splitlines():
        line = re.split(r"\s+#\s", line, maxsplit=1)[0].strip()
        if line and not line.startswith("#"):
            out.append(line)
    return out


def bash_commands(found: list[Block]) -> list[tuple[Block, str]]:
    return [(b, c) for b in found if b.lang == "bash" for c in commands(b.body)]


def runnable(found: list[Block]) -> list[tuple[Block, str]]:
    return [(b, c) for b, c in bash_commands(found) if c not in NOT_RUN and not INSTALL.search(c)]


def extras() -> set[str]:
    """The extras of the installed flagcore: pyproject.toml's optional-dependencies."""
    return set(metadata("flagcore").get_all("Provides-Extra") or [])


def install_parts(command: str) -> list[str]:
    return [part.strip() for part in command.split(" && ")]


def check_install_line(command: str) -> None:
    """An install line is not run here. What it installs must exist (the extras of pyproject.toml),
    and each command chained after the install is one NOT_RUN names (where it runs instead)."""
    for part in install_parts(command):
        if part in ("python3 -m venv .venv", ". .venv/bin/activate"):
            continue
        if INSTALL.search(part):
            named = re.findall(r'"\.\[([\w,-]+)\]"', part)
            for extra in (e for group in named for e in group.split(",")):
                assert extra in extras(), f"{command}: pyproject.toml has no extra {extra!r}"
        else:
            assert part in NOT_RUN, f"{command}: {part!r} is not run here, so NOT_RUN must say where it runs"


def not_run_used(found: list[Block]) -> set[str]:
    """The NOT_RUN commands the pages show, alone or chained after an install."""
    used = set()
    for _, command in bash_commands(found):
        used.update(p for p in [command, *install_parts(command)] if p in NOT_RUN)
    return used


def check_json_excerpt(body: str) -> None:
    """The whole block is JSON (an object over several lines), or, with "..." removed, each line is."""
    try:
        json.loads(body)
        return
    except ValueError:
        pass
    for line in body.splitlines():
        text = line.replace("..., ", "").strip()
        if text:
            json.loads("{" + text + "}" if text.startswith('"') else text)


def writes_files(block: Block) -> bool:
    return block.lang == "python" and re.search(r"""open\([^)]*["']w["']""", block.body) is not None


def run_env() -> dict[str, str]:
    """As a reader types the commands: the installed package first on PATH, no FLAGCORE_IMPL.

    Under FLAGCORE_IMPL=python the suite tests the twin; a stats run of 400,000 searches on it
    would test nothing more than the CLI tests do on it already.
    """
    venv_bin = str(Path(sys.executable).parent)
    base = {k: v for k, v in os.environ.items() if k != "FLAGCORE_IMPL"}
    return {**base, "PATH": venv_bin + os.pathsep + os.environ.get("PATH", "")}


def run_python(body: str, folder: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", body], cwd=folder, env=run_env(), capture_output=True, text=True, timeout=600
    )


def in_process(command: str) -> bool:
    """A plain ``flagcore ...`` command: run through flagcore.cli.main, as the console script does.

    A subprocess would add only an interpreter start (and, for the data commands, drawing every flag
    again instead of reading this process's caches). Commands with shell syntax run in bash.
    """
    return shlex.split(command)[0] == "flagcore" and not re.search(r"[|&;<>$`]", command)


def prepare(folder: Path, page_blocks: list[Block]) -> None:
    """Run the page's file-writing python blocks in ``folder``, in page order."""
    for block in page_blocks:
        if writes_files(block):
            res = run_python(block.body, folder)
            assert res.returncode == 0, f"{block.id}:\n{res.stderr[-3000:]}"


def folders_fixture(found: list[Block]) -> Any:
    """A module fixture: ``folders(page)`` is the page's scratch folder, its file-writing blocks run."""

    @pytest.fixture(scope="module")
    def folders(tmp_path_factory: pytest.TempPathFactory) -> Any:
        made: dict[str, Path] = {}

        def folder(page: str) -> Path:
            if page not in made:
                made[page] = tmp_path_factory.mktemp(re.sub(r"\W", "_", page))
                prepare(made[page], [b for b in found if b.page == page])
            return made[page]

        return folder

    return folders


def command_params(run: list[tuple[Block, str]]) -> list[Any]:
    """pytest params (command, page); the data commands draw every flag (seconds each): slow."""
    return [
        pytest.param(c, b.page, id=f"{b.id}:{c}", marks=[pytest.mark.slow] if c.startswith("flagcore data") else [])
        for b, c in run
    ]


def run_command(command: str, folder: Path, monkeypatch: Any, capsys: Any) -> tuple[int, str, str]:
    """Run one documented command as a reader types it; its exit status, stdout and stderr."""
    if in_process(command):
        from flagcore.cli import main

        monkeypatch.chdir(folder)
        # as a reader types it: the compiled core, whatever FLAGCORE_IMPL the suite runs under (run_env)
        use_twin(monkeypatch, "compiled")
        code = main(shlex.split(command)[1:])
        out, err = capsys.readouterr()
        return code, out, err
    res = subprocess.run(
        ["bash", "-c", command], cwd=folder, env=run_env(), capture_output=True, text=True, timeout=600
    )
    return res.returncode, res.stdout, res.stderr


def check_command(command: str, folder: Path, monkeypatch: Any, capsys: Any) -> None:
    want = EXIT_STATUS.get(command, 0)
    code, out, err = run_command(command, folder, monkeypatch, capsys)
    assert code == want, f"{command}\n{out[-2000:]}\n{err[-2000:]}"
    assert "Traceback" not in err
    if want == 0:
        assert out.strip() or "wrote" in err, command  # it said something: the board, the figures, the file
