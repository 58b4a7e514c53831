"""Every code block of README.md and CONTRIBUTING.md, extracted from the pages themselves so that
the two cannot drift, each held to the rule of its class (code_blocks.py; CONTRIBUTING.md, "Docs").
The docs site's pages are tests/package/test_docs.py's.

The README's set-up lines are not run here: .ci/run runs them, and this test holds the two to the
same lines.
"""

from __future__ import annotations

import re

import pytest
from code_blocks import (
    CLASSES,
    EXIT_STATUS,
    INSTALL,
    NOT_RUN,
    REPO,
    bash_commands,
    blocks,
    check_command,
    check_install_line,
    check_json_excerpt,
    command_params,
    folders_fixture,
    not_run_used,
    pages,
    run_command,
    run_python,
    runnable,
)

README = REPO / "README.md"
PAGES = pages("README.md", "CONTRIBUTING.md")
BLOCKS = blocks(PAGES)
PYTHON = [b for b in BLOCKS if b.lang == "python"]
RUN = runnable(BLOCKS)


def test_every_block_has_a_class():
    assert [b.id for b in BLOCKS if b.lang not in CLASSES] == []
    assert len(PYTHON) >= 1 and len(RUN) >= 5


def test_readme_is_short():
    assert README.stat().st_size <= 12 * 1024  # the details live in docs/ (issue 33)


def test_the_readme_setup_is_what_ci_runs():
    """The two set-up lines, as the README shows them, are lines of .ci/run (which runs them)."""
    setup = re.search(r"^## Set up\n(.*?)^## ", README.read_text(encoding="utf-8"), re.S | re.M)
    assert setup
    lines = [c for b in blocks([README]) if b.lang == "bash" and b.body in setup.group(1) for c in b.body.splitlines()]
    assert lines == [
        'python3 -m venv .venv && . .venv/bin/activate && pip install ".[web]"',
        'pip install ".[test]" && pytest -n auto',
    ]
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert [line for line in ci if line in lines] == lines  # each once, in that order


@pytest.mark.parametrize("command", [c for _, c in bash_commands(BLOCKS) if INSTALL.search(c)])
def test_install_line_installs_what_exists(command):
    check_install_line(command)


def test_json_blocks_parse():
    for block in BLOCKS:
        if block.lang == "json":
            check_json_excerpt(block.body)


folders = folders_fixture(BLOCKS)


@pytest.mark.parametrize("block", PYTHON, ids=[b.id for b in PYTHON])
def test_python_block_runs(folders, block):
    res = run_python(block.body, folders(block.page))
    assert res.returncode == 0, f"{block.id}:\n{res.stderr[-3000:]}"


RUN_PARAMS = command_params(RUN)


@pytest.mark.parametrize("command,page", RUN_PARAMS)
def test_bash_command_runs(folders, command, page, monkeypatch, capsys):
    check_command(command, folders(page), monkeypatch, capsys)


def test_the_reveal_hint_is_what_the_readme_promises(folders, monkeypatch, capsys):
    """The tour's first command shows a hidden board; its last line says how to see the groups."""
    code, out, _ = run_command("flagcore connections --seed 12", folders("README.md"), monkeypatch, capsys)
    assert code == 0 and "--reveal" in out.strip().splitlines()[-1]


def test_not_run_lists_only_what_some_page_shows():
    shown = not_run_used(blocks(pages("README.md", "CONTRIBUTING.md", "docs/**/*.md")))
    assert sorted(set(NOT_RUN) - shown) == []
    assert set(EXIT_STATUS) <= {
        c for _, c in bash_commands(blocks(pages("README.md", "CONTRIBUTING.md", "docs/**/*.md")))
    }
