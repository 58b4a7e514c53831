"""``flagcore puzzle``: text and --json output, reproducible seeds, one-line errors."""

import json
import subprocess
import sys

import pytest

from flagcore import puzzle
from flagcore.cli import main


def test_json(capsys):
    assert main(["puzzle", "--grid", "easy", "--seed", "7", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"flag", "grid", "seed", "tiles_by_slot", "signatures", "par"}
    g = puzzle.new_game(None, "easy", seed=7)
    assert out == {
        "flag": None,
        "grid": "3x2",
        "seed": 7,
        "tiles_by_slot": g.tiles_by_slot,
        "signatures": None,
        "par": g.par,
    }


def test_text_and_str_seed(capsys):
    assert main(["puzzle", "--grid", "4x2", "--seed", "daily:2026-11-29"]) == 0
    text = capsys.readouterr().out
    g = puzzle.new_game(None, "4x2", seed="daily:2026-11-29")
    assert f"Par (fewest swaps): {g.par}" in text and "4x2" in text


def test_flag(capsys):
    assert main(["puzzle", "--flag", "FR", "--grid", "hard", "--seed", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["flag"] == "FR" and len(out["tiles_by_slot"]) == 15
    assert out["signatures"] is not None and len(set(out["signatures"])) < 15  # France: look-alike tiles
    assert out["par"] == puzzle.min_swaps_to_visual_solve(out["tiles_by_slot"], out["signatures"])
    assert main(["puzzle", "--flag", "FR", "--grid", "hard", "--seed", "1"]) == 0
    assert "Par" in capsys.readouterr().out


@pytest.mark.parametrize("code", ["GB-ENG", "gb-sct"])
def test_regional_flag(capsys, code):
    """Regional flags are bundled (and `stats puzzle` takes them), so `puzzle --flag` takes them too."""
    assert main(["puzzle", "--flag", code, "--grid", "4x3", "--seed", "5", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    game = puzzle.new_game(code, "4x3", seed=5)
    assert out["flag"] == code.upper() == game.flag
    assert out["signatures"] == game.signatures and out["signatures"] is not None
    assert out["par"] == puzzle.min_swaps_to_visual_solve(out["tiles_by_slot"], out["signatures"])


@pytest.mark.parametrize(
    "argv",
    [
        ["--grid", "0x3"],
        ["--grid", "nope"],
        ["--flag", "France"],
        ["--grid", "1x1"],
        ["--flag", "GB-XXXX"],
        ["--flag", "ZZ-ZZ"],
    ],
)
def test_errors_are_one_line(capsys, argv):
    assert main(["puzzle", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("flagcore") and len(err.strip().splitlines()) == 1


def test_console_script():
    done = subprocess.run(
        [sys.executable, "-m", "flagcore", "puzzle", "--seed", "3", "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(done.stdout)["seed"] == 3


def test_par_limit_names_the_cli_option(capsys):
    """Past the node budget the CLI's advice is its own option, not the library's keyword."""
    argv = ["puzzle", "--flag", "FR", "--grid", "16x12", "--seed", "2", "--json"]
    assert main([*argv, "--max-nodes", "1"]) == 2
    err = capsys.readouterr().err
    assert "--max-nodes" in err and "max_nodes=" not in err and len(err.strip().splitlines()) == 1
    assert main([*argv, "--max-nodes", "none"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["par"] == puzzle.new_game("FR", "16x12", seed=2, max_nodes=None).par
    assert main([*argv, "--max-nodes", "-3"]) == 2 and "--max-nodes" in capsys.readouterr().err


@pytest.mark.parametrize("seed", ["", "-1", "+3"])
def test_signed_or_empty_seed_is_refused(capsys, seed):
    assert main(["puzzle", "--seed", seed]) == 2
    assert "--seed" in capsys.readouterr().err
