"""The ratings file: round trip, digest, and a hostile file refused in one line."""

from __future__ import annotations

import json

import pytest
from synth import games, hidden

from flagcore.errors import RatingsError
from flagcore.ratings import fit, load_ratings


@pytest.fixture(scope="module")
def ratings():
    return fit(games("flags", 400, hidden("flags")), "flags")


def test_round_trip_and_digest(ratings, tmp_path) -> None:
    path = tmp_path / "r.json"
    ratings.save(path)
    back = load_ratings(path)
    assert back.dumps() == ratings.dumps()
    assert back.digest == ratings.digest and len(back.digest) == 6
    doc = json.loads(path.read_text())
    assert doc["format"] == 1 and set(doc["categories"]) == {"flags"}
    one = next(iter(doc["categories"]["flags"].values()))
    assert set(one) == {"difficulty", "sd", "plays"}
    doc["categories"]["flags"][next(iter(doc["categories"]["flags"]))]["difficulty"] += 0.5
    assert load_ratings(doc).digest != ratings.digest


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"format": 2, "categories": {}}', "format must be 1"),
        ('{"format": 1}', "missing key 'categories'"),
        ('{"format": 1, "categories": {"chess": {}}}', "unknown mode"),
        ('{"format": 1, "categories": {"flags": {"tag:cross": {"difficulty": NaN, "sd": 1, "plays": 1}}}}', "NaN"),
        ('{"format": 1, "categories": {"flags": {"tag:cross": {"difficulty": 1e999, "sd": 1, "plays": 1}}}}', "finite"),
        ('{"format": 1, "categories": {"flags": {"tag:cross": {"difficulty": 0, "sd": 0, "plays": 1}}}}', "sd"),
        (
            '{"format": 1, "categories": {"flags": {"no:such": {"difficulty": 0, "sd": 1, "plays": 1}}}}',
            "not a flags category",
        ),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ("{", "not JSON"),
        ('"just a string"', "must be an object"),
    ],
)
def test_hostile_files_are_one_line_errors(tmp_path, text: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(RatingsError, match=message) as info:
        load_ratings(path)
    assert "\n" not in str(info.value)


def test_a_huge_file_is_refused_before_it_is_read(tmp_path) -> None:
    path = tmp_path / "huge.json"
    with open(path, "wb") as f:
        f.truncate(1 << 30)  # 1 GB, sparse: costs no disk
    with pytest.raises(RatingsError, match="larger than"):
        load_ratings(path)
