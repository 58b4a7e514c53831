"""A user's library file: loads like the bundled one; a broken one names file, category, problem."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from flagcore.library import LibraryError, load_library

GOOD = {
    "id": "mine:landlocked-africa",
    "label": "My landlocked Africa",
    "tier": 2,
    "modes": ["trivia"],
    "where": {"landlocked": True, "continents": "Africa"},
}
HAND = {"id": "mine:hand", "label": "My four", "tier": 3, "modes": ["flags"], "codes": ["FR", "DE", "IT", "ES"]}


def write(tmp_path: Path, doc: object, name: str = "mine.json") -> Path:
    p = tmp_path / name
    p.write_text(doc if isinstance(doc, str) else json.dumps(doc), encoding="utf-8")
    return p


def test_user_file_replaces_categories(tmp_path: Path) -> None:
    lib = load_library(write(tmp_path, {"categories": [GOOD, HAND], "synthetic": []}))
    assert [c.id for c in lib.categories("trivia")] == ["mine:landlocked-africa"]
    assert [c.id for c in lib.categories("flags")] == ["mine:hand"]
    assert {"ML", "NE", "TD"} <= lib.categories("trivia")[0].pool
    assert str(tmp_path) in lib.source


def test_user_directory_loads_the_same_way(tmp_path: Path) -> None:
    write(
        tmp_path,
        {"categories": [GOOD], "synthetic": [{"tag": "canton", "label": "Canton", "tier": 1}]},
        "categories.json",
    )
    lib = load_library(tmp_path)
    assert [c.id for c in lib.categories("trivia")] == ["mine:landlocked-africa", "tag:canton"]
    assert [c.id for c in lib.categories("flags")] == ["tag:canton"]


@pytest.mark.parametrize(
    "category, problem",
    [
        ({**HAND, "codes": ["FR", "DE", "IT", "QQ"]}, "unknown codes"),
        ({**HAND, "codes": ["FR", "DE", "IT"]}, "pool has 3 codes"),
        ({**GOOD, "where": {"landlocked": True, "continents": "Antarctica"}}, "pool has 0 codes"),
        ({**GOOD, "tier": 4}, "tier must be an integer 0..3"),
        ({**GOOD, "tier": "blue"}, "tier must be an integer 0..3"),
        ({**GOOD, "modes": ["chess"]}, "modes must be"),
        ({**GOOD, "where": {"landlockd": True}}, "unknown attribute 'landlockd'"),
        ({**GOOD, "where": {"stars": {"above": 3}}}, "operator 'above'"),
        ({**GOOD, "where": {"stars": "many"}}, "expected a number"),
        ({**GOOD, "codes": ["FR"]}, "exactly one of 'where'"),
        ({**GOOD, "colour": "red"}, "unknown keys"),
        ({**GOOD, "label": ""}, "label must be"),
    ],
)
def test_broken_category_names_file_category_problem(tmp_path: Path, category: dict, problem: str) -> None:
    path = write(tmp_path, {"categories": [category]})
    with pytest.raises(LibraryError) as info:
        load_library(path)
    message = str(info.value)
    assert str(path) in message and repr(category["id"]) in message and problem in message


def test_duplicate_id_and_label(tmp_path: Path) -> None:
    path = write(tmp_path, {"categories": [GOOD, GOOD]})
    with pytest.raises(LibraryError, match=r"mine\.json: category 'mine:landlocked-africa': duplicate id"):
        load_library(path)
    path = write(tmp_path, {"categories": [GOOD, {**GOOD, "id": "other"}]})
    with pytest.raises(LibraryError, match="label 'My landlocked Africa' repeats"):
        load_library(path)


def test_synthetic_problems(tmp_path: Path) -> None:
    path = write(tmp_path, {"synthetic": [{"tag": "no-such-tag", "label": "x", "tier": 1}]})
    with pytest.raises(LibraryError, match=r"category 'tag:no-such-tag': pool has 0 codes"):
        load_library(path)
    path = write(
        tmp_path,
        {"synthetic": [{"tag": "canton", "label": "a", "tier": 1}, {"tag": "canton", "label": "b", "tier": 2}]},
    )
    with pytest.raises(LibraryError, match="duplicate id"):
        load_library(path)


def test_bad_syntax_and_shapes(tmp_path: Path) -> None:
    path = write(tmp_path, '{"categories": [')
    with pytest.raises(LibraryError, match=r"mine\.json: bad JSON syntax at line 1"):
        load_library(path)
    with pytest.raises(LibraryError, match="top level must be a JSON object"):
        load_library(write(tmp_path, "[]"))
    with pytest.raises(LibraryError, match="unknown top-level keys"):
        load_library(write(tmp_path, {"categorys": []}))
    with pytest.raises(LibraryError, match="no such file"):
        load_library(tmp_path / "absent.json")
    with pytest.raises(TypeError, match="path"):
        load_library(42)  # type: ignore[arg-type]


def test_broken_countries_and_flags(tmp_path: Path) -> None:
    with pytest.raises(LibraryError, match="code must be ISO alpha-2"):
        load_library(write(tmp_path, {"countries": [{"code": "usa", "name": "USA"}]}))
    with pytest.raises(LibraryError, match=r"flag FR: colours \['mauve'\] are not in the palette"):
        load_library(
            write(tmp_path, {"flags": {"FR": {"colours": ["mauve"], "stripes": None, "stars": 0, "features": []}}})
        )
    with pytest.raises(LibraryError, match="flag QQ: unknown code"):
        load_library(
            write(tmp_path, {"flags": {"QQ": {"colours": ["red"], "stripes": None, "stars": 0, "features": []}}})
        )


def test_cli_data_check(tmp_path: Path) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "flagcore", "data", "check", "--no-colours"], capture_output=True, text=True
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.strip().endswith("OK")
    bad = write(tmp_path, {"categories": [{**GOOD, "tier": 9}]})
    run = subprocess.run(
        [sys.executable, "-m", "flagcore", "data", "check", "--library", str(bad)], capture_output=True, text=True
    )
    assert run.returncode == 2 and "tier must be" in run.stderr and str(bad) in run.stderr


# A small library of its own: one hand-made category per tier, in both modes.
SMALL = {
    "synthetic": [],
    "categories": [
        {"id": f"small:{t}", "label": f"Small {t}", "tier": t, "modes": ["flags", "trivia"], "codes": codes}
        for t, codes in enumerate(
            [["FR", "DE", "IT", "ES"], ["JP", "CN", "KR", "IN"], ["US", "CA", "MX", "BR"], ["NG", "KE", "EG", "ZA"]]
        )
    ],
}


def flagcore_cli(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "flagcore", *argv], capture_output=True, text=True, timeout=120)


def test_cli_data_check_a_small_library_by_its_own_minimums(tmp_path: Path) -> None:
    small = str(write(tmp_path, SMALL))
    run = flagcore_cli("data", "check", "--library", small, "--no-colours")
    assert run.returncode == 0, run.stdout + run.stderr  # not held to the bundled library's counts
    assert "yellow 1 (min 1)" in run.stdout and run.stdout.strip().endswith("OK")
    run = flagcore_cli("data", "check", "--library", small, "--no-colours", "--min-per-tier", "1,1,2,1")
    assert run.returncode == 1 and "FAIL mode flags: blue has 1 candidates, needs 2" in run.stdout
    run = flagcore_cli("data", "check", "--no-colours", "--min-per-tier", "0,0,0,0")
    assert run.returncode == 0 and "(min 0)" in run.stdout
    for bad in ("1,2,3", "a,b,c,d", "-1,1,1,1"):
        run = flagcore_cli("data", "check", "--library", small, "--min-per-tier", bad)
        assert run.returncode == 2 and "--min-per-tier" in run.stderr, bad


def test_cli_connections_uses_the_given_library(tmp_path: Path) -> None:
    small = str(write(tmp_path, SMALL))
    run = flagcore_cli("connections", "--library", small, "--seed", "5", "--json", "--reveal")
    assert run.returncode == 0, run.stderr
    board = json.loads(run.stdout)
    assert [g["category_id"] for g in board["groups"]] == ["small:0", "small:1", "small:2", "small:3"]
    assert sorted(board["tiles"]) == sorted(c for cat in SMALL["categories"] for c in cat["codes"])
    run = flagcore_cli("connections", "--library", str(tmp_path / "nope.json"), "--seed", "5")
    assert run.returncode == 2 and "nope.json" in run.stderr and len(run.stderr.splitlines()) == 1
