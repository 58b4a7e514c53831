"""The bundled flag and country library: schema, counts, pools, determinism, known families."""

from __future__ import annotations

from importlib import resources

import pytest

from flagcore.library import MODES, Category, Library, load_library
from flagcore.review.library_check import MINIMUM_PER_TIER, artwork_path, check_library, tier_counts


@pytest.fixture(scope="module")
def lib() -> Library:
    return load_library()


def pool(lib: Library, cid: str) -> set[str]:
    for mode in MODES:
        for c in lib.categories(mode):
            if c.id == cid:
                return set(c.pool)
    raise KeyError(cid)


def test_data_is_installed_inside_the_package() -> None:
    base = resources.files("flagcore") / "flags"
    for name in ("countries.json", "flag_tags.json", "categories.json", "README.md"):
        assert (base / name).is_file(), name


def test_countries(lib: Library) -> None:
    assert 195 <= len(lib.codes) <= 210
    assert lib.codes == sorted(lib.codes)
    for code in lib.codes:
        assert len(code) == 2 and code.isupper() and code.isalpha()
    for code in ("VA", "PS", "XK", "TW", "US", "ZW"):
        assert code in lib.codes
    assert lib.name("GB") == "United Kingdom"
    facts = lib.facts("CH")
    assert facts["landlocked"] and "Europe" in facts["continents"] and facts["capital"] == "Bern"
    with pytest.raises(ValueError, match="code"):
        lib.name("ZZ")
    with pytest.raises(ValueError, match="code"):
        lib.facts("ZZ")


def test_every_code_has_artwork(lib: Library) -> None:
    missing = [c for c in lib.codes if not artwork_path(c).is_file()]
    assert missing == []


def test_tags_describe_the_flag(lib: Library) -> None:
    jp = lib.tags("JP")
    assert {"colour:red", "colour:white", "colours:red-white", "plain_disc", "disc"} <= jp
    assert "stars" not in jp
    us = lib.tags("US")
    assert {"stars", "stars:50", "canton", "stripes:horizontal", "stripes:horizontal:13"} <= us


@pytest.mark.parametrize("mode", MODES)
def test_tier_counts_reach_the_minimum(lib: Library, mode: str) -> None:
    counts = tier_counts(lib, mode)
    assert all(have >= want for have, want in zip(counts, MINIMUM_PER_TIER[mode])), counts


@pytest.mark.parametrize("mode", MODES)
def test_categories_are_sound(lib: Library, mode: str) -> None:
    cats = lib.categories(mode)
    assert len({c.id for c in cats}) == len(cats)
    assert len({c.label.lower() for c in cats}) == len(cats)
    assert len({c.pool for c in cats}) == len(cats), "two categories with the same pool"
    known = set(lib.codes)
    for c in cats:
        assert isinstance(c, Category) and c.tier in range(4) and mode in c.modes
        assert len(c.pool) >= 4 and c.pool <= known
        if c.kind == "synthetic":
            assert c.id == f"tag:{c.tag}"
            assert c.pool == {code for code in lib.codes if c.tag in lib.tags(code)}
    # library categories in file order, then synthetic ones in table order
    kinds = [c.kind for c in cats]
    assert kinds == sorted(kinds)
    # flags mode is a subset of trivia mode ("flags + trivia")
    if mode == "trivia":
        assert {c.id for c in lib.categories("flags")} <= {c.id for c in cats}


def test_order_is_deterministic(lib: Library) -> None:
    again = load_library()
    for mode in MODES:
        assert [(c.id, sorted(c.pool)) for c in lib.categories(mode)] == [
            (c.id, sorted(c.pool)) for c in again.categories(mode)
        ]


def test_rule_pools_hold_every_fitting_country(lib: Library) -> None:
    """A rule pool is exactly the countries its rule accepts (re-evaluated independently here)."""
    for c in lib.categories("trivia"):
        rule = c.extra.get("rule")
        if rule == {"landlocked": True}:
            assert c.pool == {k for k in lib.codes if lib.facts(k)["landlocked"]}
        if rule == {"colours": {"eq": ["red", "white"]}}:
            assert c.pool == {k for k in lib.codes if lib.facts(k)["colours"] == {"red", "white"}}


# Spot checks of well-known families against an independent source (Wikipedia's lists:
# "Nordic cross flag", "Flags with the Union Jack", "Landlocked country", "Star and crescent",
# "Pan-African colours", "Member state of the European Union", "Member states of NATO").
def test_family_nordic_crosses(lib: Library) -> None:
    assert pool(lib, "tag:nordic_cross") == {"DK", "FI", "IS", "NO", "SE"}


def test_family_union_jack(lib: Library) -> None:
    assert pool(lib, "tag:union_jack") == {"GB", "AU", "NZ", "FJ", "TV"}


def test_family_landlocked(lib: Library) -> None:
    wikipedia = set(
        "AF AD AM AT AZ BY BT BO BW BF BI CF TD CZ SZ ET HU KZ KG LA LS LI LU MW ML MD "
        "MN NP NE MK PY RW SM RS SK SS CH TJ TM UG UZ VA ZM ZW".split()
    )
    assert len(wikipedia) == 44
    assert pool(lib, "geo:landlocked") == wikipedia | {"XK"}


def test_family_crescents(lib: Library) -> None:
    star_and_crescent = set("AZ DZ KM LY MR MY PK SG TM TN TR UZ".split())
    assert pool(lib, "flag:crescent-and-star") == star_and_crescent
    # crescent without a star: Maldives, Nepal, Brunei, and Mongolia's Soyombo
    assert pool(lib, "tag:crescent") == star_and_crescent | {"MV", "NP", "BN", "MN"}


def test_family_pan_african(lib: Library) -> None:
    classic = set("GH ET GN ML SN CM BF BJ CG TG GW ST ZW".split())
    assert classic <= pool(lib, "flag:pan-african")
    assert all("Africa" in lib.facts(c)["continents"] for c in pool(lib, "flag:pan-african"))


def test_family_memberships(lib: Library) -> None:
    assert len(pool(lib, "org:eu")) == 27 and "GB" not in pool(lib, "org:eu")
    assert len(pool(lib, "org:nato")) == 32 and {"FI", "SE"} <= pool(lib, "org:nato")
    assert pool(lib, "org:g7") == {"US", "CA", "GB", "FR", "DE", "IT", "JP"}
    assert len(pool(lib, "org:commonwealth")) == 56


def test_check_library_passes_without_colours(lib: Library) -> None:
    result = check_library(lib, colours=False)
    assert result.ok, result.problems
