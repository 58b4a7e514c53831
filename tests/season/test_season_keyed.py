"""The keyed schedule a server serves (connections.daily(key=...), season.puzzle_plan(key=...)):
another board and Puzzle deal than the public schedule's, the same on both twins and at every
call, and nothing of it computable from the public schedule."""

from __future__ import annotations

import pytest
from conftest import use_twin

from flagcore.connections import daily
from flagcore.season import keyed, puzzle_plan

KEY = b"a season key of 32 bytes, secret"
DAY = "2026-12-02"


def groups(board):
    return [(g.label, g.codes) for g in board.groups]


@pytest.mark.parametrize("mode", ["flags", "trivia"])
def test_a_keyed_daily_is_another_board_the_same_on_both_twins(monkeypatch, mode):
    boards = {}
    for name in ("compiled", "python"):
        use_twin(monkeypatch, name)
        boards[name] = daily(DAY, mode, key=KEY)
    assert groups(boards["compiled"]) == groups(boards["python"])
    assert boards["compiled"].tiles == boards["python"].tiles
    public = daily(DAY, mode)
    assert groups(public) != groups(boards["compiled"])
    assert groups(daily(DAY, mode, key=KEY[::-1])) != groups(boards["compiled"])  # another key, another board
    assert daily(DAY, mode, key=KEY) == boards["python"]  # the same at every call


def test_the_keyed_puzzle_daily_has_a_secret_seed_and_rotation():
    flag, grid, seed = puzzle_plan(DAY, KEY)
    assert seed.startswith(f"puzzle:{DAY}:") and len(seed) == len(f"puzzle:{DAY}:") + 16
    assert puzzle_plan(DAY, KEY) == (flag, grid, seed)
    public = puzzle_plan(DAY)
    assert public[2] == f"puzzle:{DAY}" and public[1] == grid  # the grid follows the weekday in both
    flags = [puzzle_plan(f"2026-12-{d:02d}", KEY)[0] for d in range(1, 29)]
    assert flags != [puzzle_plan(f"2026-12-{d:02d}")[0] for d in range(1, 29)]
    assert len(set(flags)) == len(flags)  # still a rotation: no flag twice in four weeks


def test_a_key_is_checked_and_seeds_are_32_bit_macs():
    assert keyed("season|flags|0") == "season|flags|0"
    assert 0 <= keyed("season|flags|0", KEY) < 1 << 32
    assert keyed("season|flags|0", KEY) != keyed("season|flags|1", KEY)
    with pytest.raises(ValueError, match="at least 16 bytes"):
        daily(DAY, key=b"short")
    with pytest.raises(TypeError, match="key must be bytes"):
        puzzle_plan(DAY, "a str key of more than sixteen")
