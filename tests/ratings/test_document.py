"""The ratings file: round trip, digest, and a hostile file refused in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from synth import games, hidden

from flagcore.errors import RatingsError
from flagcore.ratings import fit, load_ratings
from flagcore.ratings.document import STEERING

ROOT = Path(__file__).resolve().parents[2]


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


def test_a_fit_writes_the_steering_and_a_file_without_it_is_steering_1(ratings) -> None:
    doc = ratings.to_dict()
    assert list(doc)[:2] == ["format", "steering"] and doc["steering"] == STEERING == ratings.steering
    del doc["steering"]
    old = load_ratings(doc)
    assert old.steering == 1 and "steering" not in old.to_dict()
    assert old.digest != ratings.digest  # the engine steers otherwise: another name
    assert load_ratings({**doc, "steering": 1}).digest == old.digest
    # the files kept with the blind tests' boards load and are named by their digests: those dealt
    # before the key existed (steering 1) keep their names, and steering 2 ones are there too
    seen = set()
    for path in sorted(ROOT.glob("records/felt/ratings-*.json")):
        kept = load_ratings(path)
        assert path.stem == f"ratings-{kept.digest}"
        seen.add(kept.steering)
    assert seen == {1, 2}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"format": 2, "categories": {}}', "format must be 1"),
        ('{"format": 1}', "missing key 'categories'"),
        ('{"format": 1, "steering": 3, "categories": {}}', "steering must be one of 1, 2"),
        ('{"format": 1, "steering": true, "categories": {}}', "steering must be one of 1, 2"),
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
