"""Families (a category's template) and label identities (categories a player cannot tell apart)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from flagcore.connections.difficulty import category_difficulty
from flagcore.library import Category, Library, LibraryError, bundled_path, load_library
from flagcore.library.model import identities, label_key

LIB = load_library()
MODES = ("flags", "trivia")


def test_every_bundled_row_names_its_family() -> None:
    doc = json.loads((bundled_path() / "categories.json").read_text(encoding="utf-8"))
    rows = doc["categories"] + doc["synthetic"]
    assert all(isinstance(r.get("family"), str) and r["family"] for r in rows)
    for mode in MODES:
        for cat in LIB.categories(mode):
            assert cat.family and cat.family != cat.id, cat.id


def test_families_of_the_issue_hold_their_categories() -> None:
    fam = {c.id: c.family for mode in MODES for c in LIB.categories(mode)}
    # the week of issue 31: three vertical-stripe groups, two star counts, three official languages
    assert fam["tag:stripes:vertical"] == fam["flag:vertical-stripes-only"] == fam["flag:vertical-tricolour"]
    assert fam["tag:stars:1"] == fam["tag:stars:5"] == fam["flag:two-or-three-stars"] == "star-count"
    assert {fam[f"lang:{x}"] for x in ("english", "french", "arabic", "swahili")} == {"official-language"}
    assert {fam[f"money:{x}"] for x in ("euro", "peso", "rupee")} == {"currency"}
    assert fam["geo:europe"] == fam["geo:oceania"] == "continent"
    assert fam["flag:vertical-tricolour"] != fam["flag:horizontal-tricolour"]


def test_identity_joins_the_categories_that_show_the_same_words() -> None:
    by_id = {c.id: c for mode in MODES for c in LIB.categories(mode)}
    # issue 31: 2027-01-25 and 01-26 both read "Triangle at the hoist"
    assert by_id["flag:hoist-triangle-stripes"].identity == by_id["flag:hoist-triangle-star"].identity
    assert by_id["flag:hoist-triangle-star"].identity == by_id["tag:hoist_triangle"].identity == "triangle at the hoist"
    assert by_id["flag:red-white-blue-only"].identity == by_id["flag:rwb-star"].identity
    assert by_id["flag:vertical-tricolour"].identity != by_id["tag:stripes:vertical"].identity
    assert by_id["geo:europe"].identity == "in europe"
    # the identity is exactly the union of shown words: two categories share one iff a chain of
    # shared words joins them (checked against a plain graph search)
    cats = list(by_id.values())
    words = {c.id: {label_key(x) for x in c.labels} for c in cats}
    for c in cats:
        reach, todo = {c.id}, [c.id]
        while todo:
            x = todo.pop()
            for d in cats:
                if d.id not in reach and words[x] & words[d.id]:
                    reach.add(d.id)
                    todo.append(d.id)
        assert {d.id for d in cats if d.identity == c.identity} == reach, c.id


def test_each_identity_lies_within_one_family() -> None:
    family_of: dict[str, set[str]] = {}
    for mode in MODES:
        for cat in LIB.categories(mode):
            family_of.setdefault(cat.identity, set()).add(cat.family)
    assert all(len(f) == 1 for f in family_of.values()), {k: v for k, v in family_of.items() if len(v) > 1}


def test_no_board_can_show_one_identity_twice() -> None:
    """Why two groups of one board never show the same words: a simpler label is shown only when
    no other tile carries what it names (its named set), and every category that can show those
    words has its certain codes (where its tiles come from) inside that named set."""
    for mode in MODES:
        cats = LIB.categories(mode)
        for a in cats:
            d = category_difficulty(a, LIB)
            if d.simpler is None:
                continue
            named = d.named | a.pool | a.arguable
            for b in cats:
                if b is not a and label_key(d.simpler) in {label_key(x) for x in b.labels}:
                    assert b.certain <= named, (mode, a.id, b.id)


def test_shown_labels_come_from_the_simpler_labels() -> None:
    cat = next(c for c in LIB.categories("flags") if c.id == "flag:orange-no-red")
    assert cat.labels == ("Orange but no red", "Has orange")
    plain = next(c for c in LIB.categories("flags") if c.id == "flag:ten-plus-stars")
    assert plain.labels == (plain.label,)


def test_a_hand_made_category_is_a_family_and_identity_of_its_own() -> None:
    names = {c: c for c in "ABCDEF"}
    cats = [
        Category("x", "Some label", 0, "library", frozenset("ABCD")),
        Category("y", "Other", 1, "library", frozenset("CDEF"), shown=("some  LABEL",), family="mine"),
        Category("z", "Third", 2, "library", frozenset("ABEF")),
    ]
    lib = Library(names, {}, cats)
    got = {c.id: (c.family, c.identity) for c in lib.categories("flags")}
    assert got == {"x": ("x", "some label"), "y": ("mine", "some label"), "z": ("z", "third")}
    assert identities(cats) == {"x": "some label", "y": "some label", "z": "third"}
    assert list(lib.families("flags")) == ["x", "mine", "z"]
    with pytest.raises(LibraryError, match="shown must be"):
        Library(names, {}, [Category("x", "X", 0, "library", frozenset("ABCD"), shown=("",))])
    with pytest.raises(LibraryError, match="family must be"):
        Library(names, {}, [Category("x", "X", 0, "library", frozenset("ABCD"), family=3)])  # type: ignore[arg-type]


@pytest.mark.parametrize("family", ["Vertical", "two words", "", "a--b", 7, "-x"])
def test_a_bad_family_names_file_and_category(tmp_path: Path, family: object) -> None:
    row = {"id": "mine:x", "label": "Mine", "tier": 0, "family": family, "where": {"landlocked": True}}
    path = tmp_path / "lib.json"
    path.write_text(json.dumps({"categories": [row]}), encoding="utf-8")
    with pytest.raises(LibraryError) as info:
        load_library(path)
    assert str(path) in str(info.value) and "'mine:x'" in str(info.value) and "family must be" in str(info.value)


def test_cli_data_families() -> None:
    def run(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "flagcore", "data", "families", *argv], capture_output=True, text=True
        )

    text = run("--mode", "trivia")
    assert text.returncode == 0, text.stderr
    assert text.stdout.startswith("trivia: 228 categories in ")
    assert "  official-language (9)" in text.stdout and "[identity: landlocked]" in text.stdout
    doc = json.loads(run("--json").stdout)
    assert set(doc) == {"flags", "trivia"}
    flags = {c["id"]: (family, c["identity"]) for family, cats in doc["flags"].items() for c in cats}
    assert flags["flag:hoist-triangle-star"] == ("hoist-triangle", "triangle at the hoist")
    assert len(flags) == len(LIB.categories("flags"))
