"""Every code block of README.md, extracted from the README itself so that the two cannot drift.

* ```python blocks run, in order, each in a fresh interpreter, in one scratch folder (a block may
  leave a file for a later one, as the library example leaves my.json for the commands).
* ```bash blocks: every command runs in that folder, with the installed package's ``flagcore``
  and ``python`` first on PATH, and must exit 0 (or the status its line is listed with in
  EXIT_STATUS). Commands that install, build or take minutes are not run here; each is listed in
  NOT_RUN with where it is run instead, and the list must match the README exactly.
* ```json blocks show excerpts of the data files ("..." for the fields left out): with the
  "..." removed, each line must be valid JSON (a "key": value line as a one-key object).
* The one block without a language, the layout, must name paths that exist.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import use_twin

REPO = Path(__file__).resolve().parents[2]
README = (REPO / "README.md").read_text(encoding="utf-8")
BLOCKS = [
    (m.group(1), m.group(2), README[: m.start()].count("\n") + 1)
    for m in re.finditer(r"^```(\w*)\n(.*?)^```", README, re.S | re.M)
]

# Commands the README shows that this test does not run, and where each runs instead.
NOT_RUN = {
    "python3 -m venv .venv && . .venv/bin/activate && pip install . && flagcore connections --seed 12": "the install command: scripts/check_wheel.sh and scripts/test_pythons.sh install into fresh venvs",
    'python3 -m venv .venv && . .venv/bin/activate && pip install ".[test]" && pytest -n auto': "the test command: .ci/run runs exactly this",
    'pip install ".[test]"': "the test extras: .ci/run installs them",
    "pytest benchmarks --benchmark-enable --benchmark-only --benchmark-columns=median,iqr,rounds --benchmark-sort=name": "the benchmarks take minutes; pytest collects them with timing disabled, so each runs once in the suite",
    "pytest benchmarks/bench_signatures.py --benchmark-enable --benchmark-only --benchmark-columns=median,iqr,rounds --benchmark-sort=name": "timed runs take a minute; pytest collects benchmarks/ with timing disabled, so each runs once in the suite",
    "flagcore stats puzzle --seeds 100 --audit": "minutes; tests/signatures/test_signatures_puzzle.py runs it with --seeds 4 on a few flags",
    "python -m pytest -q tests/hardening/": "part of the test suite itself",
    "python fuzz/run.py --inputs 1000000": "a long fuzz run, by hand",
    "bash scripts/sanitize.sh tests": "rebuilds under ASan + UBSan and reruns the suite: by hand",
    "bash scripts/sanitize.sh --fuzz 70000": "rebuilds under ASan + UBSan: by hand",
    "bash scripts/leaks.sh 20": "valgrind: by hand",
    'python3 -m venv .venv && . .venv/bin/activate && pip install ".[web]" && flagcore serve': "installs, then serves until stopped: the web tests start the server and drive it",
    "flagcore serve": "serves until stopped: the web tests start the server and drive it",
    "flagcore serve --host 0.0.0.0 --port 8080 --workers 4 --allowed-host games.example.org": "serves until stopped (the web tests)",
    "FLAGCORE_SECRET=... flagcore serve --store redis://redis.internal:6379/0 --host 0.0.0.0 --workers 4": "serves until stopped (tests/web/test_web_store_servers.py runs it on a local redis-server)",
    "FLAGCORE_SECRET=... flagcore serve --host 0.0.0.0 --workers 4": "serves until stopped (the web tests)",
    "FLAGCORE_SECRET=... uvicorn --factory flagcore.web:create_app --host 0.0.0.0 --workers 4": "serves until stopped (the web tests)",
    "pip wheel . -w dist": "scripts/check_wheel.sh builds the wheel",
    "pip install build && python -m build --sdist": "scripts/check_wheel.sh builds the sdist",
    "bash scripts/check_wheel.sh": "minutes (builds twice); by hand and in the wheels workflow",
    "bash scripts/test_pythons.sh": "builds on every CPython found: by hand",
}
# Commands whose documented outcome is a non-zero exit status.
EXIT_STATUS = {"flagcore data check --library my.json --min-per-tier 1,1,1,2": 1}


def commands(body: str) -> list[str]:
    """The commands of a bash block: one per line, without the trailing "# comment"."""
    out = []
    for line in body.splitlines():
        line = re.split(r"\s+#\s", line, maxsplit=1)[0].strip()
        if line and not line.startswith("#"):
            out.append(line)
    return out


BASH = [cmd for lang, body, _ in BLOCKS if lang == "bash" for cmd in commands(body)]
PYTHON = [(body, line) for lang, body, line in BLOCKS if lang == "python"]


def test_every_block_is_known():
    assert {lang for lang, _, _ in BLOCKS} <= {"python", "bash", "json", ""}
    assert len(PYTHON) >= 5 and len(BASH) >= 20
    assert sorted(c for c in BASH if c in NOT_RUN) == sorted(NOT_RUN), (
        f"NOT_RUN lists commands the README no longer shows: {sorted(set(NOT_RUN) - set(BASH))}"
    )
    assert set(EXIT_STATUS) <= set(BASH)


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("readme")


@pytest.fixture(scope="module")
def env() -> dict[str, str]:
    venv_bin = str(Path(sys.executable).parent)
    # The commands run as a reader types them, in a shell without FLAGCORE_IMPL: under
    # FLAGCORE_IMPL=python the suite tests the twin, and a stats run of 400,000 searches on it
    # would test nothing more than the CLI tests do on it already.
    base = {k: v for k, v in os.environ.items() if k != "FLAGCORE_IMPL"}
    return {**base, "PATH": venv_bin + os.pathsep + os.environ.get("PATH", "")}


@pytest.mark.parametrize("body,line", PYTHON, ids=[f"line{line}" for _, line in PYTHON])
def test_python_block_runs(folder, env, body, line):
    res = subprocess.run([sys.executable, "-c", body], cwd=folder, env=env, capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, f"README.md line {line}:\n{res.stderr[-3000:]}"


RUN = [c for c in BASH if c not in NOT_RUN]


def in_process(command: str) -> bool:
    """A plain ``flagcore ...`` command: run through flagcore.cli.main, as the console script does.

    A subprocess would add only an interpreter start (and, for the data commands, drawing every flag
    again instead of reading this process's caches). Commands with shell syntax run in bash.
    """
    return shlex.split(command)[0] == "flagcore" and not re.search(r"[|&;<>$`]", command)


# the data commands draw every flag: seconds each
RUN_PARAMS = [pytest.param(c, marks=pytest.mark.slow) if c.startswith("flagcore data") else c for c in RUN]


@pytest.mark.parametrize("command", RUN_PARAMS)
def test_bash_command_runs(folder, env, command, request, monkeypatch, capsys):
    if "my.json" in command:  # written by the library example, a python block
        request.getfixturevalue("my_json")
    want = EXIT_STATUS.get(command, 0)
    if in_process(command):
        from flagcore.cli import main

        monkeypatch.chdir(folder)
        # as a reader types it: the compiled core, whatever FLAGCORE_IMPL the suite runs under (see env)
        use_twin(monkeypatch, "compiled")
        code = main(shlex.split(command)[1:])
        out, err = capsys.readouterr()
    else:
        res = subprocess.run(["bash", "-c", command], cwd=folder, env=env, capture_output=True, text=True, timeout=600)
        code, out, err = res.returncode, res.stdout, res.stderr
    assert code == want, f"{command}\n{out[-2000:]}\n{err[-2000:]}"
    assert "Traceback" not in err
    if want == 0 and shlex.split(command)[0] == "flagcore":
        assert out.strip(), command


@pytest.fixture(scope="module")
def my_json(folder, env) -> Path:
    body = next(b for b, _ in PYTHON if '"my.json"' in b)
    subprocess.run([sys.executable, "-c", body], cwd=folder, env=env, check=True, capture_output=True)
    return folder / "my.json"


def test_json_excerpts_parse():
    blocks = [body for lang, body, _ in BLOCKS if lang == "json"]
    for body in blocks:
        for line in body.splitlines():
            text = line.replace("..., ", "").strip()
            if text:
                json.loads("{" + text + "}" if text.startswith('"') else text)


def test_layout_names_real_paths():
    layout = [body for lang, body, _ in BLOCKS if lang == ""]
    assert len(layout) == 1
    for line in layout[0].splitlines():
        for path in line.split()[0].split(","):
            if path:
                assert (REPO / path.strip()).exists(), path
