"""What the library files may hold, and the attributes a rule can test that are derived from them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from ..errors import LibraryError

FILES = ("countries.json", "flag_tags.json", "categories.json")
TOP_KEYS = {"source", "comment", "countries", "flags", "palette", "features", "categories", "synthetic"}
COUNTRY_FIELDS: dict[str, str] = {
    # name -> kind; "set" fields are lists in the file
    "code": "str",
    "name": "str",
    "official_name": "str",
    "status": "str",
    "capital": "str",
    "capitals": "set",
    "continents": "set",
    "region": "str",
    "landlocked": "bool",
    "island": "bool",
    "languages": "set",
    "hemispheres": "set",
    "equator": "bool",
    "prime_meridian": "bool",
    "neighbours": "set",
    "area_km2": "number",
    "area_rank": "number",
    "monarchy": "bool",
    "commonwealth_realm": "bool",
    "drives_left": "bool",
    "memberships": "set",
    "history": "set",
    "coasts": "set",
    "regions": "set",
    "currencies": "set",
    "calling_code": "str",
    "trivia": "set",  # authored yes/no facts (capital on the coast, named after a river, ...)
}
DERIVED_FIELDS: dict[str, str] = {
    "name_letters": "number",
    "neighbour_count": "number",
    "currency_words": "set",
    "colours": "set",
    "colour_count": "number",
    "stripes": "str",
    "stripe_count": "number",
    "stars": "number",
    "features": "set",
    "tags": "set",
}
ATTRIBUTE_KINDS: dict[str, str] = {**COUNTRY_FIELDS, **DERIVED_FIELDS}
CATEGORY_KEYS = {"id", "label", "tier", "modes", "where", "codes", "note", "arguable", "family", "apart"}
SYNTHETIC_KEYS = {"tag", "label", "tier", "modes", "note", "arguable", "family", "apart"}
# the simpler labels an idle clause shows are the difficulty model's data (its "simpler" per category id)
SHOWN_FILE = "difficulty.json"
FLAG_KEYS = {"colours", "stripes", "stars", "features"}
# What an alternative reading ("arguable") may change: a flag's own fields (its tags, colour_count
# and the rest are derived from them) and any country field but the code.
ARGUABLE_FLAG_FIELDS: dict[str, str] = {
    "colours": "set",
    "features": "set",
    "stripes": "str",
    "stripe_count": "number",
    "stars": "number",
}
ARGUABLE_COUNTRY_FIELDS: dict[str, str] = {k: v for k, v in COUNTRY_FIELDS.items() if k != "code"}
STRIPE_ORIENTATIONS = ("horizontal", "vertical", "none")
MAX_READINGS = 4096  # alternative readings of one country (every combination of its arguable values)


def fail(file: Path, what: str, problem: str) -> LibraryError:
    """The error of a library file: the file, what in it (a country, a category ...) and the problem."""
    return LibraryError(f"{file}: {what}: {problem}")


def flag_tags(flag: Mapping[str, Any], palette: Iterable[str]) -> frozenset[str]:
    """The tags of one flag: what synthetic categories and ``Library.tags`` are made of."""
    order = list(palette)
    colours = sorted(flag["colours"], key=order.index)
    tags = {f"colour:{c}" for c in colours}
    tags.add("colours:" + "-".join(colours))
    tags.add(f"colour_count:{len(colours)}")
    if flag["stripes"] != "none":
        tags.add(f"stripes:{flag['stripes']}")
        tags.add(f"stripes:{flag['stripes']}:{flag['stripe_count']}")
    if flag["stars"]:
        tags.add("stars")
        tags.add(f"stars:{flag['stars']}")
    tags.update(flag["features"])
    return frozenset(tags)


def derive(fields: Mapping[str, Any], palette: Iterable[str]) -> dict[str, Any]:
    """Every attribute a rule can test, from a country's fields and its flag's fields."""
    f = dict(fields)
    f["colour_count"] = len(f["colours"])
    f["name_letters"] = sum(ch.isalpha() for ch in f["name"])  # "Chad" 4, "Timor-Leste" 10
    f["neighbour_count"] = len(f["neighbours"])
    f["currency_words"] = frozenset(c.split()[-1].lower() for c in f["currencies"] if c.split())
    f["tags"] = flag_tags(f, palette)
    return f
