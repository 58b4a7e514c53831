"""Bad input to the season's dailies: one error naming the argument, the same from both twins; CLI exit 2."""

from __future__ import annotations

import datetime as dt

import pytest

from flagcore import puzzle
from flagcore.cli import main
from flagcore.connections import daily

BAD_DATES = [
    ("2025-12-31", ValueError, r"^date 2025-12-31 is before the schedule's epoch 2026-01-01$"),
    (dt.date(1999, 1, 1), ValueError, "before the schedule's epoch"),
    ("2027-02-30", ValueError, r"^date '2027-02-30' is not a calendar date$"),
    ("tomorrow", ValueError, r"^date must be YYYY-MM-DD, got 'tomorrow'$"),
    ("2027-1-1", ValueError, "date must be YYYY-MM-DD"),
    ("", ValueError, "date must be YYYY-MM-DD"),
    (20270101, TypeError, r"^date must be a datetime.date, a 'YYYY-MM-DD' str or None, not int$"),
    (b"2027-01-01", TypeError, "not bytes"),
]


@pytest.mark.parametrize("value,error,message", BAD_DATES)
def test_bad_date(twin, value, error, message):
    with pytest.raises(error, match=message):
        daily(value)
    with pytest.raises(error, match=message):
        puzzle.daily(value)


@pytest.mark.parametrize(
    "mode,error,message",
    [
        ("chess", ValueError, r"^mode must be one of \('flags', 'trivia'\), got 'chess'$"),
        (None, TypeError, "mode must be a str"),
        (1, TypeError, "mode must be a str"),
    ],
)
def test_bad_mode(twin, mode, error, message):
    with pytest.raises(error, match=message):
        daily("2027-01-01", mode)


def test_datetime_counts_by_its_date():
    assert daily(dt.datetime(2027, 1, 1, 23, 59)) == daily("2027-01-01")


@pytest.mark.parametrize(
    "argv,needle",
    [
        (["connections", "--daily", "2025-06-01"], "--daily 2025-06-01 is before the schedule's epoch"),
        (["connections", "--daily", "2027-13-01"], "--daily '2027-13-01' is not a calendar date"),
        (["connections", "--daily", "2027-01-01", "--legacy"], "--legacy does not apply to --daily"),
        (["puzzle", "--daily", "someday"], "--daily must be YYYY-MM-DD"),
        (["puzzle", "--daily", "2027-01-01", "--flag", "FR"], "drop --flag"),
        (["season", "--from", "2020-01-01"], "--from 2020-01-01 is before the schedule's epoch"),
        (["season", "--from", "2027-01-01", "--days", "0"], "--days must be in 1..100000, got 0"),
        (["season", "--from", "2027-01-01", "--days", "ten"], "--days must be a positive int"),
        (["season", "--from", "2027-01-01", "--days", "3", "--png", "out.txt"], "out.txt"),
    ],
)
def test_cli_one_line_exit_2(capsys, argv, needle):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert needle in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_cli_bad_mode_exits_2():
    with pytest.raises(SystemExit) as exc:
        main(["season", "--mode", "chess"])
    assert exc.value.code == 2
