"""No second split in the scheduled dailies (issue 31): step 4b of connections.daily (daily/fours.py).

The engine's kernel (``find_second_split``, the twin in use: CI runs this a second time under
FLAGCORE_IMPL=python) and the shared exact-cover oracle (tests/second_split_oracle.py) both look.
"""

from __future__ import annotations

import datetime as dt

import pytest
from conftest import use_twin
from second_split_oracle import oracle

from flagcore.connections import daily, find_ambiguities, find_second_split
from flagcore.connections.daily import schedule, version_of
from flagcore.connections.daily.fours import draws, has_split
from flagcore.connections.daily.search import daily_categories
from flagcore.days import day_number
from flagcore.library import load_library

# days whose members as first drawn split into four other fours (found by the code, the data of
# flags/README.md's "Blind play-test of 7rx8zs"): schedule version 2 (January 2027, family
# first), each mode's first days with stats["split_redraw"] 1 (another draw); then version 3 (from
# 2027-02-01, families.py, its labels read in laps since 2026-12-03): its first day with 1 and its
# first with 2 (other categories). Since flags' families of two showings a week keep their weekdays
# (2026-12-04), flags' first version-3 day with 1 whose first draw splits is 2027-02-04 (02-01 .. 02-03
# redraw for another reason), and no day with 2 to 2033 has a first draw that splits: trivia's holds it
REDRAWN = {
    "flags": ["2027-01-28", "2027-01-29", "2027-02-04"],
    "trivia": ["2027-01-09", "2027-01-20", "2027-02-15", "2030-08-09"],
}


def _groups(board):
    return [tuple(g.codes) for g in board.groups]


@pytest.mark.parametrize("mode", ["flags", "trivia"])
def test_redrawn_days_have_no_second_split_and_the_twins_agree(monkeypatch, mode):
    boards = {}
    for name in ("compiled", "python"):
        use_twin(monkeypatch, name)
        boards[name] = [daily(day, mode, library=load_library()) for day in REDRAWN[mode]]  # nothing cached
    assert boards["compiled"] == boards["python"]
    for day, board in zip(REDRAWN[mode], boards["compiled"]):
        assert board.stats["split_redraw"] in (1, 2), day
        assert oracle(mode, _groups(board)) is None, day
        assert find_second_split(board) is None and find_ambiguities(board) == [], day
        # and the redraw was needed: the members first drawn for the day's categories split
        i = day_number(dt.date.fromisoformat(day))
        s = schedule(None, mode, version=version_of(i))
        first = next(draws(s, i, daily_categories(s, i)[0]))
        assert has_split(s, first), day


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["flags", "trivia"])
def test_no_daily_of_2027_and_2028_has_a_second_split(mode):
    """The issue's bar: zero scheduled dailies with a second split over 2027-2028 (731 days)."""
    redrawn = 0
    for j in range(731):
        board = daily(dt.date(2027, 1, 1) + dt.timedelta(days=j), mode)
        assert find_second_split(board) is None, board.seed
        assert oracle(mode, _groups(board)) is None, board.seed
        assert find_ambiguities(board) == [], board.seed
        redrawn += board.stats["split_redraw"] > 0
    assert redrawn >= 20  # the first draws do split on some days: the step is exercised
