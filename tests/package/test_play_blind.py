"""tools/play_blind.py: a blind game shows only what it earned, and the tally counts what was played."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from flagcore.connections import board_id, generate
from flagcore.ratings import read_records

TOOL = Path(__file__).resolve().parents[2] / "tools" / "play_blind.py"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(TOOL), *args], capture_output=True, text=True, timeout=120)


def test_a_blind_game_hides_the_groups_until_earned(tmp_path):
    state = str(tmp_path / "g.json")
    records = str(tmp_path / "records.jsonl")  # never the repository's own records file
    board = generate("blind-tool-test", "flags")
    new = _run("new", state, "--seed", "blind-tool-test")
    assert new.returncode == 0, new.stderr
    assert all(g.label not in new.stdout for g in board.groups)  # no label before it is earned
    wrong = [board.groups[0].codes[0], *board.groups[1].codes[:3]]
    # three of group 1
    assert _run("guess", state, *wrong, "--records", records).stdout.startswith("ONE_AWAY\nmistakes left: 3")
    first = _run("guess", state, *board.groups[3].codes, "--records", records)
    assert f"CORRECT: {board.groups[3].label} (purple)" in first.stdout
    assert board.groups[0].label not in first.stdout
    for g in board.groups[:3]:
        last = _run("guess", state, *g.codes, "--records", records)
    assert "WON with 1 mistakes" in last.stdout
    # the finished game's play record, appended once (docs/ratings.md's schema)
    got = read_records(records)
    assert got.skipped == 0 and len(got.records) == 1
    rec = got.records[0]
    assert rec.won and rec.mistakes == 1 and rec.wrong == (tuple(sorted(wrong)),)
    assert rec.categories == tuple(g.category_id for g in board.groups)
    assert rec.solved_at == (2, 3, 4, 1) and rec.board == board_id(board)
    assert _run("records", state).stdout == Path(records).read_text()
    tally = _run("tally", state)
    assert "1 games: 1 won (100%), 1 mistakes" in tally.stdout
    assert "solved purple > yellow > green > blue" in tally.stdout
    review = _run("review", state)
    assert review.returncode == 0, review.stderr
    assert f"one_away: {' '.join(wrong)} (3+1)" in review.stdout  # three of one group and one of another
    assert review.stdout.rstrip().endswith(" inside a tempting phantom")
    assert "1 wrong fours: " in review.stdout
