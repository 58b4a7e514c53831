"""One rule each: a bad mode or date gets the same error from every public entry point, and the
board id codec's public names (what the web server reads ids with) agree with the ids it writes."""

from __future__ import annotations

import datetime as dt

import pytest

from flagcore import connections
from flagcore._args.connections import (
    BASE32_ALPHABET,
    BASE32_DECODE,
    ID_LENGTH,
    as_date,
    as_mode,
    base32_encode,
)
from flagcore.errors import ArgumentError, ArgumentTypeError
from flagcore.library import load_library

LIB = load_library()


def error_of(call):
    with pytest.raises((TypeError, ValueError)) as info:
        call()
    return type(info.value), str(info.value)


@pytest.mark.parametrize("mode", ["x", "", "FLAGS", 5, None, ["flags"]])
def test_every_mode_check_is_the_same_rule(mode):
    expected = error_of(lambda: as_mode(mode))
    assert expected[0] is (ArgumentError if isinstance(mode, str) else ArgumentTypeError)
    assert error_of(lambda: connections.generate(1, mode)) == expected
    assert error_of(lambda: connections.generate_many([1], mode)) == expected
    assert error_of(lambda: connections.encode_board_id(1, mode)) == expected
    assert error_of(lambda: LIB.categories(mode)) == expected


def test_as_mode_names_the_argument():
    assert error_of(lambda: as_mode("x", name="query mode"))[1].startswith("query mode must be one of")
    assert as_mode("trivia") == "trivia"


@pytest.mark.parametrize("value", ["2026-02-30", "1/2/2026", "20260101", 20260101, b"2026-01-01"])
def test_daily_seed_checks_dates_with_as_date(value):
    assert error_of(lambda: connections.daily_seed(value)) == error_of(lambda: as_date(value))


def test_as_date_reads_each_form():
    day = dt.date(2026, 3, 4)
    assert as_date("2026-03-04") == as_date(day) == as_date(dt.datetime(2026, 3, 4, 23, 59)) == day
    before = dt.datetime.now(dt.timezone.utc).date()
    today = as_date(None)
    assert today in (before, dt.datetime.now(dt.timezone.utc).date())  # UTC, not the local zone


def test_codec_public_names_read_the_ids_written():
    assert len(BASE32_ALPHABET) == 32 and set(BASE32_ALPHABET).isdisjoint("ilou")
    assert {BASE32_DECODE[ch] for ch in "oil"} == {0, 1}
    for seed in (0, 1, 12345, 2**32 - 1, "daily:2026-01-01"):
        text = connections.encode_board_id(seed, "trivia", legacy=True)
        assert len(text) == ID_LENGTH
        value = 0
        for ch in text:
            value = value * 32 + BASE32_DECODE[ch]
        assert base32_encode(value, ID_LENGTH) == text
        state, mode, legacy = connections.parse_board_id(text.upper().replace("0", "o"))
        assert (mode, legacy) == ("trivia", True)
        assert state == connections.parse_board_id(text)[0]


# generate's fast path: each shape below is made once (checked by generate_with, which keeps a plan)
# and taken again; both must be generate_with's board, and an input it refuses must still be refused.
FAST_SHAPES = [{}, {"difficulty": None}, {"difficulty": "easy"}, {"difficulty": 1}, {"legacy": True}, {"decoy": False}]


@pytest.mark.parametrize("kwargs", FAST_SHAPES, ids=repr)
@pytest.mark.parametrize("seed", [7, "daily:x"])
@pytest.mark.parametrize("mode", ["flags", "trivia"])
def test_generate_fast_path_is_generate_with(twin, mode, seed, kwargs):
    from flagcore._impl import core
    from flagcore.connections.search import generate_with

    first = connections.generate(seed, mode, **kwargs)
    again = connections.generate(seed, mode, **kwargs)
    assert first == again == generate_with(core.connections, seed, mode, **kwargs)


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        ({"seed": -1}, (ArgumentError, "seed must be in [0, 2**32), got -1")),
        ({"seed": 2**32}, (ArgumentError, f"seed must be in [0, 2**32), got {2**32}")),
        ({"seed": 1.0}, (ArgumentTypeError, "seed must be an int in [0, 2**32) or a str, not float")),
        ({"seed": True}, (ArgumentTypeError, "seed must be an int in [0, 2**32) or a str, not bool")),
        (
            {"difficulty": True},
            (ArgumentTypeError, "difficulty must be one of ('easy', 'normal', 'hard'), an int 0..8 or None, not bool"),
        ),
        ({"difficulty": 9}, (ArgumentError, "difficulty must be an int 0..8 (tempting phantom groups), got 9")),
        (
            {"difficulty": [1]},
            (ArgumentTypeError, "difficulty must be one of ('easy', 'normal', 'hard'), an int 0..8 or None, not list"),
        ),
        ({"decoy": 1}, (ArgumentTypeError, "decoy must be a bool, not int")),
        ({"legacy": 0}, (ArgumentTypeError, "legacy must be a bool, not int")),
        ({"mode": "FLAGS"}, (ArgumentError, "mode must be one of ('flags', 'trivia'), got 'FLAGS'")),
    ],
    ids=repr,
)
def test_generate_fast_path_keeps_every_check(twin, kwargs, expected):
    for shape in FAST_SHAPES:  # every plan made first: a bad input must not find one
        connections.generate(3, **shape)
    call = {"seed": 3, **kwargs}
    assert error_of(lambda: connections.generate(call.pop("seed"), **call)) == expected
