"""Play records: the JSON lines schema, round trips, and bad lines skipped and counted."""

from __future__ import annotations

import io
import json

import pytest
from synth import games, hidden

from flagcore.ratings import PlayRecord, PuzzleRecord, parse_record, read_records, write_records

GOOD = {
    "board": "abcdefghjkmnp",
    "mode": "flags",
    "day": "2027-03-01",
    "difficulty": "normal",
    "won": False,
    "mistakes": 4,
    "groups": [
        {"category": "tag:cross", "solved_at": 1},
        {"category": "tag:sun", "solved_at": None},
        {"category": "tag:stars", "solved_at": 2},
        {"category": "tag:canton", "solved_at": None},
    ],
    "wrong": [["FR", "DE", "IT", "ES"]] * 4,
}


def test_round_trip(tmp_path) -> None:
    recs = games("flags", 50, hidden("flags"))
    recs.append(PlayRecord(**{**recs[0].__dict__, "day": "2027-01-02", "difficulty": 3}))
    path = tmp_path / "r.jsonl"
    assert write_records([*recs, PuzzleRecord("JP", "4x4", 2, True, None)], path) == 52
    got = read_records(path)
    assert got.records == recs and got.skipped == 0 and got.puzzle == [PuzzleRecord("JP", "4x4", 2, True, None)]
    assert parse_record(GOOD).to_dict() == GOOD


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"mode": "chess"}, "mode"),
        ({"day": "2027-02-30"}, "not a date"),
        ({"won": 1}, "won"),
        ({"mistakes": 5}, "mistakes"),
        ({"won": True}, "won game"),
        ({"wrong": []}, "wrong"),
        ({"extra": 1}, "unknown key"),
        ({"board": "a b"}, "board"),
        ({"difficulty": "brutal"}, "difficulty"),
        ({"groups": GOOD["groups"][:3]}, "4 objects"),
        ({"groups": [{"category": "tag:cross", "solved_at": 1}] * 4}, "different"),
        (
            {"groups": [{**g, "solved_at": 3 if g["solved_at"] == 2 else g["solved_at"]} for g in GOOD["groups"]]},
            "gaps",
        ),
    ],
)
def test_bad_records_name_the_field(change: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_record({**GOOD, **change})


def test_hostile_lines_are_skipped_and_counted() -> None:
    lines = [
        json.dumps(GOOD),
        "not json",
        "[" * 3000,
        '{"board": "x", "mode": "flags", "won": NaN}',
        "x" * 100_000,  # longer than a record may be: read in bounded pieces and refused
        "",
        json.dumps(GOOD),
    ]
    got = read_records(io.StringIO("\n".join(lines) + "\n"))
    assert len(got.records) == 2
    assert got.skipped == 4
    assert any("4096" in r for r in got.reasons)
