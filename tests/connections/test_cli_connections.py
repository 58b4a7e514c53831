"""`flagcore connections`: the installed console script from a temp folder, and main(argv) in-process."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from flagcore.cli import connections as cli_conn
from flagcore.cli import main
from flagcore.connections import board_id, encode_board_id, generate
from flagcore.library import load_library
from flagcore.reference.rng import seed_to_state

ANSI = re.compile(r"\x1b\[")


def flagcore_exe() -> str:
    here = Path(sys.executable).parent / "flagcore"
    found = str(here) if here.exists() else shutil.which("flagcore")
    assert found, "the flagcore console script is not installed"
    return found


def run(*argv: str, tmp_path: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    full_env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    full_env.update(env or {})
    return subprocess.run(
        [flagcore_exe(), *argv], cwd=tmp_path, capture_output=True, text=True, env=full_env, timeout=120
    )


# ---------------------------------------------------------------- console script, any folder


def test_script_readable_grid(tmp_path):
    res = run("connections", "--seed", "12", tmp_path=tmp_path)
    assert res.returncode == 0, res.stderr
    board = generate(12, "flags")
    lib = load_library()
    out = res.stdout
    assert board_id(board) in out and "seed 12" in out
    grid = [line for line in out.splitlines()[2:6]]
    for row, line in enumerate(grid):
        codes = re.findall(r"(?:^|\s)([A-Z]{2}) ", line)
        assert codes == list(board.tiles[4 * row : 4 * row + 4])
    for code in board.tiles:
        assert lib.name(code)[:10] in out
    assert not any(g.label in out for g in board.groups)  # not revealed
    assert out.rstrip().splitlines()[-1] == "The four groups are hidden: add --reveal to show them."
    assert not ANSI.search(out)


def test_script_json_is_the_clients_view_without_answers(tmp_path):
    res = run("connections", "--seed", "12", "--json", tmp_path=tmp_path)
    assert res.returncode == 0, res.stderr
    data = json.loads(res.stdout)
    board = generate(12, "flags")
    assert data == {"mode": "flags", "tiles": list(board.tiles)} == board.to_dict()
    for g in board.groups:  # neither a label nor anything else that gives a group away
        assert g.label not in res.stdout and g.category_id not in res.stdout
    assert board_id(board) not in res.stdout  # the id holds the seed, which rebuilds the answers


def test_script_json_reveal_adds_the_answers(tmp_path):
    res = run("connections", "--seed", "12", "--json", "--reveal", tmp_path=tmp_path)
    assert res.returncode == 0, res.stderr
    data = json.loads(res.stdout)
    board = generate(12, "flags")
    assert set(data) == {"seed", "board_id", "mode", "tiles", "groups"}
    assert all(set(g) == {"tier", "label", "codes", "category_id"} for g in data["groups"])
    assert data == board.to_dict(reveal=True)
    assert data["seed"] == 12 and data["board_id"] == board_id(board) and len(data["tiles"]) == 16
    assert [g["codes"] for g in data["groups"]] == [list(g.codes) for g in board.groups]


def test_script_reveal_piped_has_no_colour(tmp_path):
    res = run("connections", "--seed", "7", "--mode", "trivia", "--reveal", tmp_path=tmp_path)
    assert res.returncode == 0, res.stderr
    board = generate(7, "trivia")
    for g in board.groups:
        assert g.label in res.stdout
    for tier in ("yellow", "green", "blue", "purple"):
        assert tier in res.stdout
    assert "--reveal" not in res.stdout  # the hint is for the hidden board only
    assert not ANSI.search(res.stdout)


@pytest.mark.parametrize(
    "argv",
    [
        ["--seed", "4294967296"],
        ["--seed", "1", "--mode", "chess"],
        ["--id", "not-an-id"],
        ["--id", "000001g0g0j21"],
        ["--seed", "1", "--daily"],
        ["--daily", "2026-02-30"],
        ["--daily", "tomorrow"],
        ["--seed"],
        ["--png"],
        ["--bogus"],
        ["--id", encode_board_id(12), "--mode", "trivia"],
        ["--id", encode_board_id(12), "--legacy"],
        ["--seed", ""],
        ["--seed", " "],
        ["--seed=-1"],
        ["--seed", "+7"],
    ],
)
def test_script_bad_arguments(tmp_path, argv):
    res = run("connections", *argv, tmp_path=tmp_path)
    assert res.returncode != 0
    assert "Traceback" not in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1, res.stderr
    assert res.stdout == ""


# ---------------------------------------------------------------- main(argv) in-process


def main_json(capsys, *argv):
    """The revealed JSON (with seed and groups), which these tests compare against generate()."""
    assert main(["connections", *argv, "--json", "--reveal"]) == 0
    return json.loads(capsys.readouterr().out)


def test_seed_all_digits_is_int_else_str(capsys):
    assert main_json(capsys, "--seed", "0012")["seed"] == 12
    data = main_json(capsys, "--seed", "daily:2026-11-29")
    assert data["seed"] == "daily:2026-11-29"
    assert data == generate("daily:2026-11-29", "flags").to_dict(reveal=True)
    assert main_json(capsys, "--seed", "x-5")["seed"] == "x-5"
    assert cli_conn.parse_seed("42") == 42 and cli_conn.parse_seed("4 2") == "4 2"
    assert cli_conn.parse_seed("\u0661\u0662") == "\u0661\u0662"  # non-ASCII digits stay a str


def test_daily_is_the_scheduled_board(capsys):
    # --daily is the scheduled daily (issue 19); the plain seed of a day stays --seed daily:DATE
    from flagcore.connections import daily

    data = main_json(capsys, "--daily", "2026-11-29", "--mode", "trivia")
    expected = daily("2026-11-29", "trivia").to_dict(reveal=True)
    expected.pop("board_id")
    assert data == {**expected, "daily": "2026-11-29"}
    today = main_json(capsys, "--daily")
    assert today["seed"].startswith("season:")


@pytest.mark.parametrize(
    "seed,mode,legacy", [(12, "flags", False), ("daily:2026-11-29", "trivia", True), (2**32 - 1, "flags", True)]
)
def test_id_rebuilds_the_board(capsys, seed, mode, legacy):
    board = generate(seed, mode, legacy=legacy)
    data = main_json(capsys, "--id", board_id(board))
    assert data["seed"] == seed_to_state(seed)
    assert {k: data[k] for k in ("mode", "tiles", "groups")} == {
        k: board.to_dict(reveal=True)[k] for k in ("mode", "tiles", "groups")
    }
    assert data["board_id"] == board_id(board)
    # a consistent --mode / --legacy beside an id is accepted
    assert main_json(capsys, "--id", board_id(board).upper(), "--mode", mode)["tiles"] == list(board.tiles)


def test_legacy_flag(capsys):
    assert main_json(capsys, "--seed", "12", "--legacy") == generate(12, "flags", legacy=True).to_dict(reveal=True)


def test_random_seed_is_printed_and_replayable(capsys):
    data = main_json(capsys)
    assert isinstance(data["seed"], int)
    assert data == generate(data["seed"], "flags").to_dict(reveal=True)


def test_trace_prints_events(capsys):
    assert main(["connections", "--seed", "12", "--trace"]) == 0
    out = capsys.readouterr().out
    events = generate(12, "flags", trace=True).events
    assert events
    assert f"trace: {len(events)} events" in out
    assert "stats: moves_tried" in out  # the search's counters belong to the trace
    assert main(["connections", "--seed", "12", "--reveal"]) == 0
    assert "stats:" not in capsys.readouterr().out  # ... not to the answers a player asked for
    assert main(["connections", "--seed", "12", "--trace", "--json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out) == generate(12, "flags").to_dict()  # stdout stays one object
    assert len(captured.err.splitlines()) == len(events)


def test_reveal_colour_only_on_a_terminal(capsys, monkeypatch):
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("TERM", raising=False)
    assert cli_conn.use_colour(Tty()) and not cli_conn.use_colour(io.StringIO())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not cli_conn.use_colour(Tty())
    monkeypatch.delenv("NO_COLOR")
    monkeypatch.setenv("TERM", "dumb")
    assert not cli_conn.use_colour(Tty())
    monkeypatch.delenv("TERM")

    tty = Tty()
    monkeypatch.setattr(sys, "stdout", tty)
    assert main(["connections", "--seed", "12", "--reveal"]) == 0
    coloured = tty.getvalue()
    assert ANSI.search(coloured)
    board = generate(12, "flags")
    plain = cli_conn.format_board(board, load_library(), reveal=True, colour=False)
    # the colour codes wrap the same text: stripped of them, the output is the plain one
    stripped = re.sub(r"\x1b\[[0-9;]*m", "", coloured)

    def words(text: str) -> list[list[str]]:
        return [line.split() for line in text.splitlines()]

    assert words(stripped) == words(plain)


def test_bad_arguments_in_process(capsys):
    assert main(["connections", "--seed", "99999999999"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("flagcore: error:") and "seed" in err and len(err.splitlines()) == 1
    assert main(["connections", "--id", "zzzz"]) == 2
    assert "board id" in capsys.readouterr().err


def test_closed_pipe_ends_quietly(tmp_path):
    """`flagcore connections ... | head` must not print an error when the reader leaves early."""
    r, w = os.pipe()
    os.close(r)
    try:
        for argv in (["--seed", "12", "--trace"], ["--seed", "12", "--json"]):
            res = subprocess.run(
                [flagcore_exe(), "connections", *argv],
                cwd=tmp_path,
                stdout=w,
                stderr=subprocess.PIPE,
                text=True,
                timeout=120,
            )
            assert res.returncode == 0 and res.stderr == ""
    finally:
        os.close(w)
