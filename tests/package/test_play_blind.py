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


def test_a_game_keeps_the_board_it_dealt_and_its_felt_line_carries_it(tmp_path):
    """The state keeps the board as met: a seed that now deals another board (here: the seed
    changed under it, as a data change would) replays the kept one; a state without it (older
    games) deals again; the felt line holds the board, which felt_order.py reads as it is."""
    import json

    state = tmp_path / "g.json"
    records = str(tmp_path / "records.jsonl")
    board = generate("blind-kept", "flags")
    assert _run("new", str(state), "--seed", "blind-kept").returncode == 0
    kept = json.loads(state.read_text())
    assert kept["board"]["id"] == board_id(board)
    assert [(g["category_id"], g["label"], g["codes"], g["tier"]) for g in kept["board"]["groups"]] == [
        (g.category_id, g.label, list(g.codes), g.tier) for g in board.groups
    ]
    kept["seed"] = "another-seed"  # dealt again, this seed's board is another
    state.write_text(json.dumps(kept))
    assert generate("another-seed", "flags").groups != board.groups
    for g in board.groups:
        last = _run("guess", str(state), *g.codes, "--records", records)
    assert "WON with 0 mistakes" in last.stdout
    assert read_records(records).records[0].board == board_id(board)
    easiest_first = [g.label for g in reversed(board.groups)]
    felt = _run("felt", str(state), "--player", "t1", *easiest_first)
    assert felt.returncode == 0, felt.stderr
    line = json.loads(felt.stdout)
    assert line["board"] == kept["board"] and line["felt"] == easiest_first and line["seed"] == "another-seed"
    (tmp_path / "felt.jsonl").write_text(felt.stdout)
    out = subprocess.run(
        [sys.executable, str(TOOL.parent / "felt_order.py"), "--felt", str(tmp_path / "felt.jsonl"), "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    assert got["games"] == 1 and got["unmatched_labels"] == 0
    assert got["colours"]["as dealt"]["exact"] == 0 and got["colours"]["as dealt"]["within_one_swap"] == 0
    # an older state, without the board: dealt again from its seed, as before
    old = tmp_path / "old.json"
    old.write_text(json.dumps({**kept, "seed": "blind-kept", "board": None, "guesses": []}))
    assert _run("guess", str(old), *board.groups[0].codes, "--records", records).stdout.startswith("CORRECT")
