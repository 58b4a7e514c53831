"""The shipped ratings (issue 30, item 4): what ``flagcore serve`` deals with unless told otherwise,
never the library's default; fitted from records/*.jsonl by one deterministic command; the
package works with the file absent or present."""

from __future__ import annotations

import glob
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from flagcore import connections
from flagcore.cli import main
from flagcore.ratings import load_ratings, read_records, write_records
from flagcore.ratings import shipped as shipped_module
from flagcore.ratings.shipped import FIT_COMMAND, SHIPPED, serve_ratings, shipped_ratings

ROOT = Path(__file__).resolve().parents[2]
RECORDS = sorted(glob.glob(str(ROOT / "records" / "*.jsonl")))


def test_serve_takes_the_shipped_file_unless_told_otherwise(tmp_path, monkeypatch) -> None:
    present = tmp_path / "shipped.json"
    monkeypatch.setattr(shipped_module, "SHIPPED", present)
    assert shipped_ratings() is None and serve_ratings(None, None) is None  # absent: no ratings
    present.write_text('{"format": 1, "categories": {}}')
    assert shipped_ratings() == present
    assert serve_ratings(None, None) == present == serve_ratings("shipped", None)
    assert serve_ratings("none", None) is None
    assert serve_ratings("mine.json", None) == Path("mine.json")
    assert serve_ratings(None, "private-library.json") is None  # the shipped file rates the bundled library
    assert serve_ratings("mine.json", "private-library.json") == Path("mine.json")


def test_the_library_never_takes_the_shipped_ratings_by_itself() -> None:
    board = connections.generate(2024, "flags")
    assert "-" not in connections.board_id(board) and "ratings" not in board.stats["model"]


def test_the_fit_command_is_deterministic_whatever_the_order_of_its_files(tmp_path) -> None:
    lines = [
        json.dumps(
            {
                "board": f"b{i}",
                "mode": "flags",
                "day": None,
                "difficulty": "normal",
                "won": True,
                "mistakes": 0,
                "groups": [
                    {"category": c, "solved_at": (i + k) % 4 + 1}
                    for k, c in enumerate(["tag:cross", "tag:sun", "tag:stars", "tag:canton"])
                ],
                "wrong": [],
            }
        )
        for i in range(12)
    ]
    (tmp_path / "a.jsonl").write_text("\n".join(lines[:5]) + "\n")
    (tmp_path / "b.jsonl").write_text("\n".join(lines[5:]) + "\nnot json\n")
    one, two = tmp_path / "one.json", tmp_path / "two.json"
    a, b = str(tmp_path / "a.jsonl"), str(tmp_path / "b.jsonl")
    assert main(["ratings", "fit", "--records", a, b, "--out", str(one)]) == 0
    assert main(["ratings", "fit", "--records", b, a, "--out", str(two)]) == 0
    assert one.read_bytes() == two.read_bytes()
    assert load_ratings(one).records == {"flags": 12}  # the bad line skipped and counted, not fatal


def test_the_shipped_file_is_the_fit_of_the_records_when_there_is_one(tmp_path) -> None:
    """Present: it loads with the bundled library and is exactly what FIT_COMMAND makes of
    records/*.jsonl today (with its ``dailies_from``: the day it was fitted for). Absent: a server
    deals without ratings, as before."""
    if shipped_ratings() is None:
        assert serve_ratings(None, None) is None
        return
    assert load_ratings(SHIPPED).records  # fitted from some games
    shutil.copytree(ROOT / "records", tmp_path / "records", ignore=shutil.ignore_patterns("*.md"))
    (tmp_path / "python" / "flagcore" / "ratings").mkdir(parents=True)
    files = sorted(str(Path("records") / Path(f).name) for f in RECORDS)
    command = FIT_COMMAND.split()
    day = ["--dailies-from", load_ratings(SHIPPED).dailies_from or "a file fitted with its day"]
    argv = [*command[1 : command.index("--records") + 1], *files, *day, "--out", command[-1]]
    subprocess.run([sys.executable, "-m", "flagcore", *argv], cwd=tmp_path, check=True, capture_output=True)
    assert (tmp_path / command[-1]).read_bytes() == SHIPPED.read_bytes()


def test_the_records_in_the_repository_read_without_a_bad_line(tmp_path) -> None:
    for path in RECORDS:
        got = read_records(path)
        assert got.skipped == 0, (path, got.reasons)
        assert write_records([*got.records, *got.puzzle], tmp_path / "again.jsonl") == len(got.records) + len(
            got.puzzle
        )


@pytest.mark.parametrize("choice", ["none", "shipped"])
def test_serve_says_which_ratings_it_deals_with(choice, capsys, monkeypatch, tmp_path) -> None:
    import os

    from flagcore.cli import serve as serve_cli

    monkeypatch.setattr(serve_cli, "_start", lambda args: None)  # all the checks, then no server
    # serve sets its workers' environment: put it back after the test
    for name in (
        "FLAGCORE_STORE",
        "FLAGCORE_STORE_TIMEOUT",
        "FLAGCORE_LIBRARY",
        "FLAGCORE_ALLOWED_HOSTS",
        "FLAGCORE_METRICS_DIR",
        "FLAGCORE_LOG_FORMAT",
    ):
        monkeypatch.setenv(name, "")  # remembered as it was (set or not), put back after the test
        monkeypatch.delenv(name)
    monkeypatch.setenv("FLAGCORE_SECRET", "Xq3v9ZtKe_Lw0pRj7HcUy2mNfA8sDgB4")
    monkeypatch.setenv("FLAGCORE_RATINGS", "")
    present = tmp_path / "shipped.json"
    present.write_text('{"format": 1, "categories": {}}')
    monkeypatch.setattr(shipped_module, "SHIPPED", present)
    assert main(["serve", "--store", "none", "--port", "0", "--ratings", choice]) == 0
    said = capsys.readouterr().err
    if choice == "none":
        assert "no ratings" in said and "FLAGCORE_RATINGS" not in os.environ
    else:
        assert f"ratings {load_ratings(present).digest}" in said and os.environ["FLAGCORE_RATINGS"] == str(present)
