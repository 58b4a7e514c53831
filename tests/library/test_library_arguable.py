"""Arguable memberships in the library files: alternative readings of flags and countries, and
hand-listed codes per category. The loader turns them into ``Category.arguable`` (codes outside the
pool for which the rule holds under some alternative reading, plus the hand-listed ones) with one
reason line per change, and names the file and place of every mistake."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from flagcore.library import MAX_READINGS, Category, Library, LibraryError, bundled_path, load_library

BUNDLED = bundled_path()
FLAGS: dict[str, Any] = json.loads((BUNDLED / "flag_tags.json").read_text(encoding="utf-8"))["flags"]
COUNTRIES: list[dict[str, Any]] = json.loads((BUNDLED / "countries.json").read_text(encoding="utf-8"))["countries"]


def flags_with(**arguable: dict[str, dict[str, str]]) -> dict[str, Any]:
    flags = copy.deepcopy(FLAGS)
    for code, doc in arguable.items():
        flags[code]["arguable"] = doc
    return flags


def countries_with(**arguable: dict[str, dict[str, str]]) -> list[dict[str, Any]]:
    rows = copy.deepcopy(COUNTRIES)
    for row in rows:
        if row["code"] in arguable:
            row["arguable"] = arguable[row["code"]]
    return rows


def write(tmp_path: Path, doc: dict[str, Any], name: str = "mine.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def category(lib: Library, cid: str, mode: str = "trivia") -> Category:
    return next(c for c in lib.categories(mode) if c.id == cid)


def colours_of(code: str) -> set[str]:
    return set(FLAGS[code]["colours"])


def test_bundled_categories_keep_arguable_apart_from_pools() -> None:
    lib = load_library()
    for mode in ("flags", "trivia"):
        for cat in lib.categories(mode):
            assert not cat.arguable & cat.pool
            assert set(cat.arguable_reasons) == set(cat.arguable)
            assert cat.doubtful <= cat.pool and set(cat.doubtful_reasons) == set(cat.doubtful)
            assert all(r and all(isinstance(x, str) and x for x in r) for r in cat.arguable_reasons.values())


def test_flag_colour_toggle_reaches_rules_and_derived_tags(tmp_path: Path) -> None:
    code = next(c for c in sorted(FLAGS) if "yellow" not in colours_of(c) and len(colours_of(c)) == 3)
    lib = load_library(
        write(
            tmp_path,
            {
                "flags": flags_with(**{code: {"colours": {"yellow": "the emblem reads gold"}}}),
                "categories": [
                    {"id": "mine:yellow", "label": "Yellow somewhere", "tier": 1, "where": {"colours": "yellow"}},
                    {"id": "mine:four", "label": "Four colours", "tier": 2, "where": {"colour_count": 4}},
                ],
                "synthetic": [
                    {"tag": "colour:yellow", "label": "Has yellow", "tier": 0},
                    {"tag": "colour_count:3", "label": "Three colours", "tier": 0},
                ],
            },
        )
    )
    line = "colours +yellow: the emblem reads gold"
    for cid in ("mine:yellow", "mine:four", "tag:colour:yellow"):
        cat = category(lib, cid)
        assert code in cat.arguable and code not in cat.pool
        assert cat.arguable_reasons[code] == (line,)
    # its main reading keeps it in the pool of "Three colours", but it arguably does not fit: doubtful,
    # so never one of that group's tiles
    three = category(lib, "tag:colour_count:3")
    assert code in three.pool and code not in three.arguable and code not in three.certain
    assert three.doubtful_reasons[code] == (line,)
    # the main facts are untouched
    assert "yellow" not in lib.facts(code)["colours"] and "colour:yellow" not in lib.tags(code)


def test_toggle_removes_a_present_value_and_scalars_take_typed_alternatives(tmp_path: Path) -> None:
    french = next(r["code"] for r in COUNTRIES if "French" in r["languages"] and "Africa" in r["continents"])
    land = next(r["code"] for r in COUNTRIES if not r.get("landlocked") and "Africa" in r["continents"])
    striped = next(c for c in sorted(FLAGS) if FLAGS[c]["stripes"] == {"orientation": "horizontal", "count": 3})
    doc = {
        "countries": countries_with(
            **{
                french: {"languages": {"French": "dropped as official in 2023"}},
                land: {"landlocked": {"true": "a test reason"}},
            }
        ),
        "flags": flags_with(
            **{
                striped: {
                    "stripe_count": {"5": "thin lines read as stripes"},
                    "stripes": {"vertical": "reads sideways"},
                }
            }
        ),
        "categories": [
            {
                "id": "mine:not-french",
                "label": "Africa without French",
                "tier": 1,
                "where": {"continents": "Africa", "not": {"languages": "French"}},
            },
            {
                "id": "mine:landlocked",
                "label": "Landlocked Africa",
                "tier": 2,
                "where": {"continents": "Africa", "landlocked": True},
            },
            {
                "id": "mine:five-vertical",
                "label": "Five vertical",
                "tier": 3,
                "where": {
                    "any": [
                        {"stripes": "vertical", "stripe_count": 5},
                        {"stripes": "vertical", "stripe_count": 3},
                        {"stripes": "horizontal", "stripe_count": 5},
                        {"stars": {"min": 1}},
                    ]
                },
            },
        ],
        "synthetic": [
            {"tag": "stripes:horizontal:5", "label": "Five horizontal", "tier": 0},
            {"tag": "stripes:vertical", "label": "Vertical stripes", "tier": 0},
            {"tag": "stripes:horizontal", "label": "Horizontal stripes", "tier": 0},
        ],
    }
    lib = load_library(write(tmp_path, doc))
    assert category(lib, "mine:not-french").arguable_reasons[french] == (
        "languages -French: dropped as official in 2023",
    )
    assert category(lib, "mine:landlocked").arguable_reasons[land] == ("landlocked true: a test reason",)
    assert category(lib, "tag:stripes:horizontal:5").arguable_reasons[striped] == (
        "stripe_count 5: thin lines read as stripes",
    )
    assert category(lib, "tag:stripes:vertical").arguable_reasons[striped] == ("stripes vertical: reads sideways",)
    assert category(lib, "tag:stripes:horizontal").doubtful_reasons[striped] == ("stripes vertical: reads sideways",)
    assert category(lib, "mine:landlocked").doubtful == frozenset()


def test_a_rule_met_only_by_a_combination_gives_every_change_as_reason(tmp_path: Path) -> None:
    code = next(c for c in sorted(FLAGS) if "yellow" not in colours_of(c) and "sun" not in FLAGS[c]["features"])
    doc = {
        "flags": flags_with(**{code: {"colours": {"yellow": "gold arms"}, "features": {"sun": "a sunburst"}}}),
        "categories": [
            {
                "id": "mine:yellow-sun",
                "label": "Yellow and a sun",
                "tier": 1,
                "where": {"colours": "yellow", "features": "sun"},
            },
            {"id": "mine:sun", "label": "A sun", "tier": 1, "where": {"features": "sun"}},
        ],
        "synthetic": [],
    }
    lib = load_library(write(tmp_path, doc))
    assert category(lib, "mine:yellow-sun").arguable_reasons[code] == (
        "colours +yellow: gold arms",
        "features +sun: a sunburst",
    )
    # the reading with the fewest changes gives the reasons
    assert category(lib, "mine:sun").arguable_reasons[code] == ("features +sun: a sunburst",)


def test_hand_listed_arguable_codes(tmp_path: Path) -> None:
    doc = {
        "categories": [
            {
                "id": "mine:hand",
                "label": "Four",
                "tier": 3,
                "codes": ["FR", "DE", "IT", "ES"],
                "arguable": {"PT": "Iberia too"},
            }
        ],
        "synthetic": [{"tag": "canton", "label": "Canton", "tier": 1, "arguable": {"FR": "a hand reason"}}],
    }
    lib = load_library(write(tmp_path, doc))
    assert category(lib, "mine:hand").arguable_reasons == {"PT": ("Iberia too",)}
    # FR by the hand list; the bundled flags' own canton readings (DO, PA quarters) stay beside it
    canton = category(lib, "tag:canton")
    assert canton.arguable_reasons["FR"] == ("a hand reason",)
    assert canton.arguable - {"FR"} == {
        c for c in canton.arguable if "canton" in FLAGS[c].get("arguable", {}).get("features", {})
    }


def test_readings_with_disagreeing_stripes_are_no_readings(tmp_path: Path) -> None:
    plain = next(c for c in sorted(FLAGS) if FLAGS[c]["stripes"] is None)
    doc = {
        "flags": flags_with(**{plain: {"stripes": {"vertical": "the hoist band"}}}),
        "categories": [{"id": "mine:vertical", "label": "Vertical", "tier": 1, "where": {"stripes": "vertical"}}],
        "synthetic": [],
    }
    # vertical with no stripe count is no flag: no reading, nothing arguable
    assert plain not in category(load_library(write(tmp_path, doc)), "mine:vertical").arguable
    doc["flags"][plain]["arguable"]["stripe_count"] = {"2": "the hoist band and the field"}
    assert category(load_library(write(tmp_path, doc)), "mine:vertical").arguable_reasons[plain] == (
        "stripes vertical: the hoist band",
        "stripe_count 2: the hoist band and the field",
    )


@pytest.mark.parametrize(
    "part, doc, where, problem",
    [
        ("flags", {"colour_count": {"4": "x"}}, "flag {code}: arguable", "unknown attribute 'colour_count'"),
        ("flags", {"tags": {"sun": "x"}}, "flag {code}: arguable", "unknown attribute 'tags'"),
        ("flags", {"colours": {"purple": "x"}}, "flag {code}: arguable: colours: 'purple'", "not in the palette"),
        ("flags", {"features": {"unicorn": "x"}}, "flag {code}: arguable: features: 'unicorn'", "features table"),
        ("flags", {"colours": {"yellow": ""}}, "flag {code}: arguable: colours: 'yellow'", "non-empty string"),
        ("flags", {"colours": {"yellow": 3}}, "flag {code}: arguable: colours: 'yellow'", "non-empty string"),
        ("flags", {"stripe_count": {"five": "x"}}, "flag {code}: arguable: stripe_count: 'five'", "must be a number"),
        ("flags", {"stripe_count": {"2.5": "x"}}, "flag {code}: arguable: stripe_count: '2.5'", "integer >= 0"),
        ("flags", {"stripes": {"diagonal": "x"}}, "flag {code}: arguable: stripes: 'diagonal'", "must be one of"),
        ("flags", {"stars": {"0": "x"}}, "flag {code}: arguable: stars: '0'", "main reading already"),
        ("flags", {"colours": {}}, "flag {code}: arguable: colours", "non-empty object"),
        ("flags", ["colours"], "flag {code}: arguable", "must be an object"),
        ("countries", {"langauges": {"French": "x"}}, "country {code}: arguable", "unknown attribute 'langauges'"),
        ("countries", {"code": {"XX": "x"}}, "country {code}: arguable", "unknown attribute 'code'"),
        ("countries", {"landlocked": {"yes": "x"}}, "country {code}: arguable: landlocked: 'yes'", "'true' or 'false'"),
        ("countries", {"languages": {"French": "  "}}, "country {code}: arguable: languages: 'French'", "non-empty"),
    ],
)
def test_broken_reading_names_file_place_problem(tmp_path: Path, part: str, doc: Any, where: str, problem: str) -> None:
    code = "FR"  # stars 0, no stripes count change in the table above is its main value
    if part == "flags":
        path = write(tmp_path, {"flags": flags_with(**{code: doc})})
    else:
        path = write(tmp_path, {"countries": countries_with(**{code: doc})})
    with pytest.raises(LibraryError) as info:
        load_library(path)
    message = str(info.value)
    assert str(path) in message and where.format(code=code) in message and problem in message


@pytest.mark.parametrize(
    "arguable, problem",
    [
        ({"QQ": "x"}, "unknown codes ['QQ']"),
        ({"PT": ""}, "non-empty string"),
        (["PT"], "must be an object"),
    ],
)
def test_broken_hand_list_names_file_category_problem(tmp_path: Path, arguable: Any, problem: str) -> None:
    path = write(
        tmp_path,
        {
            "categories": [
                {"id": "mine:hand", "label": "Four", "tier": 3, "codes": ["FR", "DE", "IT", "ES"], "arguable": arguable}
            ]
        },
    )
    with pytest.raises(LibraryError) as info:
        load_library(path)
    message = str(info.value)
    assert str(path) in message and "category 'mine:hand': arguable" in message and problem in message


def test_hand_listed_pool_code_is_doubtful(tmp_path: Path) -> None:
    """A pool code listed by hand is doubtful: never dealt in the group, still in its fit set."""
    path = write(
        tmp_path,
        {
            "categories": [
                {
                    "id": "mine:hand",
                    "label": "Five",
                    "tier": 3,
                    "codes": ["FR", "DE", "IT", "ES", "PT"],
                    "arguable": {"FR": "read otherwise beside this label", "NL": "x"},
                }
            ]
        },
    )
    cat = next(c for c in load_library(path).categories("flags") if c.id == "mine:hand")
    assert cat.doubtful == {"FR"} and cat.doubtful_reasons["FR"] == ("read otherwise beside this label",)
    assert cat.certain == {"DE", "IT", "ES", "PT"} and cat.arguable == {"NL"} and "FR" in cat.pool


def test_synthetic_hand_list_is_checked_too(tmp_path: Path) -> None:
    path = write(tmp_path, {"synthetic": [{"tag": "canton", "label": "Canton", "tier": 1, "arguable": {"ZZ": "x"}}]})
    with pytest.raises(LibraryError, match=r"category 'tag:canton': arguable: unknown codes \['ZZ'\]"):
        load_library(path)


def test_too_many_readings_is_refused(tmp_path: Path) -> None:
    languages = {f"Language {i}": "x" for i in range(MAX_READINGS.bit_length())}
    path = write(tmp_path, {"countries": countries_with(FR={"languages": languages})})
    with pytest.raises(LibraryError, match="alternative readings"):
        load_library(path)


def test_library_in_memory_rejects_overlapping_or_unknown_arguable_codes() -> None:
    names = {c: c for c in "ABCDE"}
    with pytest.raises(LibraryError, match="both in the pool and arguable"):
        Library(names, {}, [Category("x", "X", 0, "library", frozenset("ABCD"), arguable=frozenset("AE"))])
    with pytest.raises(LibraryError, match="arguable has unknown codes"):
        Library(names, {}, [Category("x", "X", 0, "library", frozenset("ABCD"), arguable=frozenset({"Z"}))])
    with pytest.raises(LibraryError, match="doubtful must be a frozenset of pool codes"):
        Library(names, {}, [Category("x", "X", 0, "library", frozenset("ABCD"), doubtful=frozenset("E"))])
    cat = Category("x", "X", 0, "library", frozenset("ABCDE"), doubtful=frozenset("E"))
    assert cat.certain == frozenset("ABCD")


# The play-test of issue 31 (flags/README.md): each borderline reading kept apart on one board.
ISSUE_31 = [
    ("tag:plain_field", "arguable", {"NZ", "NO", "IS", "AU", "DK", "SE", "FI", "TO", "TW", "FJ", "TV", "GE"}),
    ("tag:red_field", "arguable", {"NO", "DK", "TO", "TW"}),
    ("tag:canton_stars", "arguable", {"CN", "UZ", "SG", "PA"}),
    ("flag:one-star-no-stripes", "arguable", {"PK", "DZ"}),
    ("flag:two-colours-no-stripes", "arguable", {"PK"}),
    ("flag:stripes-only", "arguable", {"BH"}),
    ("tag:fimbriation", "doubtful", {"ZW"}),
    ("tag:crown", "doubtful", {"SM"}),
    ("tag:stars", "doubtful", {"MY", "MH"}),
    ("tag:stars:1", "doubtful", {"MY", "MH"}),
    ("tag:canton_stars", "doubtful", {"MY"}),
    ("tag:star_white", "doubtful", {"MH"}),
    ("flag:one-star-no-stripes", "doubtful", {"MH"}),
    ("name:capital-person", "arguable", {"IT", "GR"}),
]


@pytest.mark.parametrize("category, kind, codes", ISSUE_31)
def test_issue_31_play_test_readings(category: str, kind: str, codes: set[str]) -> None:
    cat = next(c for c in load_library().categories("trivia") if c.id == category)
    assert codes <= getattr(cat, kind), sorted(codes - getattr(cat, kind))
    reasons = cat.arguable_reasons if kind == "arguable" else cat.doubtful_reasons
    assert all(reasons[code] for code in codes)
