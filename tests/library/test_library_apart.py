"""A category's look-alikes (``apart``, docs/data.md): every code outside the pool that fits the
``apart`` rule, under its main reading or another, is an arguable code of the category, so it is
never dealt on a board that shows the label."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from flagcore.library import LibraryError, bundled_path, load_library

FLAGS: dict[str, Any] = json.loads((bundled_path() / "flag_tags.json").read_text(encoding="utf-8"))["flags"]


def _load(tmp_path: Path, row: dict[str, Any]):
    path = tmp_path / "mine.json"
    path.write_text(json.dumps({"categories": [row]}), encoding="utf-8")
    return path, load_library(path)


def test_apart_makes_every_look_alike_outside_the_pool_arguable(tmp_path: Path) -> None:
    row = {
        "id": "mine:white-crescent",
        "label": "A white crescent",
        "tier": 2,
        "where": {"features": "crescent_white"},
        "apart": {"where": {"features": "crescent"}, "reason": "another crescent"},
    }
    _, lib = _load(tmp_path, row)
    cat = next(c for c in lib.categories("flags") if c.id == "mine:white-crescent")
    crescents = {c for c, f in FLAGS.items() if "crescent" in f["features"]}
    assert crescents - cat.pool <= cat.arguable and {"TN", "MY", "DZ"} <= cat.arguable
    assert not cat.arguable & cat.pool
    assert cat.arguable_reasons["TN"] == ("another crescent",)
    # a reading counts too: Iran's emblem is an arguable crescent
    assert "IR" in cat.arguable and "crescent" not in FLAGS["IR"]["features"]


def test_a_synthetic_row_keeps_its_look_alikes_apart_too(tmp_path: Path) -> None:
    path = tmp_path / "mine.json"
    doc = {
        "synthetic": [
            {
                "tag": "crescent_white",
                "label": "A white crescent",
                "tier": 0,
                "apart": {"where": {"features": "crescent"}, "reason": "another crescent"},
            }
        ]
    }
    path.write_text(json.dumps(doc), encoding="utf-8")
    cat = next(c for c in load_library(path).categories("flags") if c.id == "tag:crescent_white")
    assert {"TN", "MY", "DZ"} <= cat.arguable and not cat.arguable & cat.pool
    assert cat.arguable_reasons["MY"] == ("another crescent",)


@pytest.mark.parametrize(
    "apart, problem",
    [
        ({"where": {"features": "crescent"}}, "exactly 'where' (a rule) and 'reason'"),
        ({"where": {"colour": "red"}, "reason": "x"}, "rule: unknown attribute 'colour'"),
        ({"where": {"features": "crescent"}, "reason": " "}, "non-empty string"),
    ],
)
def test_a_broken_apart_names_file_category_problem(tmp_path: Path, apart: Any, problem: str) -> None:
    row = {"id": "mine:x", "label": "X", "tier": 2, "where": {"features": "crescent"}, "apart": apart}
    with pytest.raises(LibraryError) as info:
        _load(tmp_path, row)
    assert "category 'mine:x': apart" in str(info.value) and problem in str(info.value)
