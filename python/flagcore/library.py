"""The flag and country library that Connections draws from.

``Library`` and ``Category`` are the contract between the data (flags/) and the engines.
``load_library`` (below) builds a Library from the bundled data or from a user's file.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from .errors import LibraryError as LibraryError  # re-exported: its old home
from .library_rules import RuleError, compile_rule

TIERS = ("yellow", "green", "blue", "purple")
MODES = ("flags", "trivia")
KINDS = ("library", "synthetic")


@dataclass(frozen=True)
class Category:
    """One candidate group. ``pool`` holds every country that fits ``label`` on the data's main reading.

    ``arguable`` holds the countries (never in the pool) that a reasonable player could argue fit
    the label too: the rule holds under one of their alternative readings (an emblem colour, thin
    lines read as stripes, ...) or the data lists them by hand. ``doubtful`` holds the pool codes a
    player could argue do *not* fit: the rule fails under one of their alternative readings. A
    group's tiles come from its pool minus its doubtful codes (the codes that certainly fit), and
    no tile may sit on a board where it fits (pool or arguable) another group.
    ``arguable_reasons`` and ``doubtful_reasons`` give each code's one-line reasons.
    """

    id: str
    label: str
    tier: int
    kind: str
    pool: frozenset[str]
    modes: frozenset[str] = frozenset(MODES)
    tag: str | None = None  # for kind == "synthetic": the flag tag it is made from
    extra: Mapping[str, object] = field(default_factory=dict, compare=False, hash=False)
    arguable: frozenset[str] = frozenset()
    arguable_reasons: Mapping[str, tuple[str, ...]] = field(default_factory=dict, compare=False, hash=False)
    doubtful: frozenset[str] = frozenset()
    doubtful_reasons: Mapping[str, tuple[str, ...]] = field(default_factory=dict, compare=False, hash=False)

    @property
    def certain(self) -> frozenset[str]:
        """The pool codes that fit the label under every reading: where a group's tiles come from."""
        return self.pool - self.doubtful if self.doubtful else self.pool


class Library:
    """Countries, their flag tags, and the categories of both modes.

    ``categories(mode)`` returns every candidate of that mode in a fixed order (library categories
    in file order, then synthetic ones in tag-table order); the generator shuffles from that order,
    so the order is part of what makes a seed reproducible.
    """

    def __init__(
        self,
        names: Mapping[str, str],
        tags: Mapping[str, Iterable[str]],
        categories: Iterable[Category],
        *,
        source: str = "<memory>",
        facts: Mapping[str, Mapping[str, Any]] | None = None,
    ) -> None:
        self.source = source
        self._names = dict(names)
        # Every attribute a rule can test, per code (country facts and flag facts together).
        self._facts = {code: dict(facts.get(code, {})) for code in self._names} if facts else {}
        self.codes: list[str] = sorted(self._names)
        self._tags = {code: frozenset(tags.get(code, ())) for code in self.codes}
        self._categories = list(categories)
        self._check()

    def _check(self) -> None:
        seen: set[str] = set()
        known = set(self.codes)
        for cat in self._categories:
            where = f"{self.source}: category {cat.id!r}"
            if cat.id in seen:
                raise LibraryError(f"{where}: duplicate id")
            seen.add(cat.id)
            if cat.tier not in range(4):
                raise LibraryError(f"{where}: tier must be 0..3, got {cat.tier!r}")
            if cat.kind not in KINDS:
                raise LibraryError(f"{where}: kind must be one of {KINDS}, got {cat.kind!r}")
            unknown = sorted(cat.pool - known)
            if unknown:
                raise LibraryError(f"{where}: unknown codes {unknown}")
            if not isinstance(cat.arguable, (frozenset, set)):
                raise LibraryError(f"{where}: arguable must be a frozenset of codes, not {type(cat.arguable).__name__}")
            unknown = sorted(cat.arguable - known)
            if unknown:
                raise LibraryError(f"{where}: arguable has unknown codes {unknown}")
            both = sorted(cat.arguable & cat.pool)
            if both:
                raise LibraryError(f"{where}: codes {both} are both in the pool and arguable")
            if not isinstance(cat.doubtful, (frozenset, set)) or not cat.doubtful <= cat.pool:
                raise LibraryError(f"{where}: doubtful must be a frozenset of pool codes")
            if len(cat.pool) < 4:
                raise LibraryError(f"{where}: pool has {len(cat.pool)} codes, needs at least 4")
            if not cat.modes or not cat.modes <= set(MODES):
                raise LibraryError(f"{where}: modes must be a non-empty subset of {MODES}")

    def _known(self, code: Any) -> str:
        # str first: an unhashable argument (a list) would otherwise raise an unnamed TypeError
        if not isinstance(code, str):
            raise TypeError(f"code must be a str country code, not {type(code).__name__}")
        if code not in self._names:
            raise ValueError(f"code: unknown country code {code!r}")
        return code

    def name(self, code: str) -> str:
        """The country's short English name ("Türkiye"); ValueError for a code not in the library."""
        return self._names[self._known(code)]

    def tags(self, code: str) -> frozenset[str]:
        """The flag's tags ("colour:red", "stripes:horizontal", ...) from which synthetic categories are made."""
        return self._tags[self._known(code)]

    def facts(self, code: str) -> dict[str, Any]:
        """The attributes of ``code`` that category rules test (empty for a Library built in memory)."""
        return dict(self._facts.get(self._known(code), {}))

    def categories(self, mode: str) -> list[Category]:
        """The candidate categories of ``mode`` ("flags" or "trivia"), library and synthetic, in a fixed order."""
        if not isinstance(mode, str):
            raise TypeError(f"mode must be a str, one of {MODES}, not {type(mode).__name__}")
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
        return [c for c in self._categories if mode in c.modes]

    def __repr__(self) -> str:
        return f"<Library {self.source}: {len(self.codes)} countries, {len(self._categories)} categories>"


# ---------------------------------------------------------------------------------------------
# Loading flags/ (or a user's file) into a Library.

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
}
DERIVED_FIELDS: dict[str, str] = {
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
CATEGORY_KEYS = {"id", "label", "tier", "modes", "where", "codes", "note", "arguable"}
SYNTHETIC_KEYS = {"tag", "label", "tier", "modes", "note", "arguable"}
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


def bundled_path() -> Path:
    """The flags/ directory installed inside the package."""
    return Path(str(resources.files("flagcore") / "flags"))


def _read_json(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise LibraryError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise LibraryError(f"{path}: bad JSON syntax at line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    if not isinstance(doc, dict):
        raise LibraryError(f"{path}: the top level must be a JSON object")
    unknown = set(doc) - TOP_KEYS
    if unknown:
        raise LibraryError(f"{path}: unknown top-level keys {sorted(unknown)} (known: {sorted(TOP_KEYS)})")
    return doc


def _sources(path: str | Path | None) -> dict[str, tuple[Path, Any]]:
    """Each part of the library ("countries", ...) with the file it comes from.

    Bundled data first; a user's directory (holding any of FILES) or single JSON file (holding
    any of the top-level keys) replaces the parts it has.
    """
    parts: dict[str, tuple[Path, Any]] = {}

    def take(file: Path) -> None:
        doc = _read_json(file)
        for key, value in doc.items():
            if key not in ("source", "comment"):
                parts[key] = (file, value)

    base = bundled_path()
    for name in FILES:
        take(base / name)
    if path is not None:
        p = Path(path)
        if p.is_dir():
            found = [p / name for name in FILES if (p / name).is_file()]
            if not found:
                raise LibraryError(f"{p}: directory holds none of {', '.join(FILES)}")
            for file in found:
                take(file)
        elif p.exists():
            take(p)
        else:
            raise LibraryError(f"{p}: no such file or directory")
    return parts


def _fail(file: Path, what: str, problem: str) -> LibraryError:
    return LibraryError(f"{file}: {what}: {problem}")


def _countries(file: Path, rows: Any) -> dict[str, dict[str, Any]]:
    if not isinstance(rows, list) or not rows:
        raise _fail(file, "countries", "must be a non-empty list")
    out: dict[str, dict[str, Any]] = {}
    for i, row in enumerate(rows):
        if not isinstance(row, dict):
            raise _fail(file, f"country #{i}", "must be an object")
        code = row.get("code")
        if (
            not isinstance(code, str)
            or len(code) != 2
            or not code.isascii()
            or not code.isupper()
            or not code.isalpha()
        ):
            raise _fail(file, f"country #{i}", f"code must be ISO alpha-2 upper case, got {code!r}")
        if code in out:
            raise _fail(file, f"country {code}", "duplicate code")
        missing = [k for k in ("code", "name") if k not in row]
        if missing:
            raise _fail(file, f"country {code}", f"missing fields {missing}")
        unknown = set(row) - set(COUNTRY_FIELDS) - {"arguable"}
        if unknown:
            raise _fail(file, f"country {code}", f"unknown fields {sorted(unknown)}")
        facts: dict[str, Any] = {}
        for key, kind in COUNTRY_FIELDS.items():
            value = row.get(key, {"set": [], "bool": False, "number": 0, "str": ""}[kind])
            facts[key] = _typed(file, f"country {code}", key, kind, value)
        out[code] = facts
    for code, facts in out.items():
        strangers = sorted(facts["neighbours"] - set(out))
        if strangers:
            raise _fail(file, f"country {code}", f"neighbours has unknown codes {strangers}")
    return out


def _typed(file: Path, what: str, key: str, kind: str, value: Any) -> Any:
    if kind == "set":
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise _fail(file, what, f"{key} must be a list of strings")
        return frozenset(value)
    if kind == "bool":
        if not isinstance(value, bool):
            raise _fail(file, what, f"{key} must be true or false")
        return value
    if kind == "number":
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise _fail(file, what, f"{key} must be a number")
        return value
    if value is None:
        return ""
    if not isinstance(value, str):
        raise _fail(file, what, f"{key} must be a string")
    return value


def _flags(
    file: Path, doc: Any, palette: list[str], features: Mapping[str, str], codes: set[str]
) -> dict[str, dict[str, Any]]:
    if not isinstance(doc, dict):
        raise _fail(file, "flags", "must be an object mapping codes to flag descriptions")
    out: dict[str, dict[str, Any]] = {}
    for code, entry in doc.items():
        what = f"flag {code}"
        if code not in codes:
            raise _fail(file, what, "unknown code (not in the country list)")
        if not isinstance(entry, dict) or set(entry) - {"arguable"} != FLAG_KEYS:
            raise _fail(file, what, "must have exactly colours, stripes, stars, features (and optionally arguable)")
        colours = entry["colours"]
        if not isinstance(colours, list) or not colours or len(set(colours)) != len(colours):
            raise _fail(file, what, "colours must be a non-empty list without repeats")
        bad = [c for c in colours if c not in palette]
        if bad:
            raise _fail(file, what, f"colours {bad} are not in the palette {palette}")
        stripes = entry["stripes"]
        if stripes is None:
            orientation, count = "none", 0
        elif (
            isinstance(stripes, dict)
            and set(stripes) == {"orientation", "count"}
            and stripes["orientation"] in ("horizontal", "vertical")
            and isinstance(stripes["count"], int)
            and not isinstance(stripes["count"], bool)
            and stripes["count"] >= 1
        ):
            orientation, count = stripes["orientation"], stripes["count"]
        else:
            raise _fail(file, what, "stripes must be null or {orientation: horizontal|vertical, count >= 1}")
        stars = entry["stars"]
        if isinstance(stars, bool) or not isinstance(stars, int) or stars < 0:
            raise _fail(file, what, "stars must be an integer >= 0")
        feats = entry["features"]
        if not isinstance(feats, list) or not all(isinstance(f, str) for f in feats):
            raise _fail(file, what, "features must be a list of strings")
        unknown = sorted(set(feats) - set(features))
        if unknown:
            raise _fail(file, what, f"unknown features {unknown} (see the features table)")
        out[code] = {
            "colours": frozenset(colours),
            "colour_count": len(colours),
            "stripes": orientation,
            "stripe_count": count,
            "stars": stars,
            "features": frozenset(feats),
        }
    missing = sorted(codes - set(out))
    if missing:
        raise _fail(file, "flags", f"no flag description for {missing}")
    return out


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


# ---------------------------------------------------------------------------------------------
# Alternative readings ("arguable"): values a reasonable player could read for an attribute
# although the data's main reading differs.

# One change of a reading: (attribute, value, its line for the reasons: "colours +yellow: why").
Change = tuple[str, Any, str]


def _reason(file: Path, what: str, reason: Any) -> str:
    if not isinstance(reason, str) or not reason.strip():
        raise _fail(file, what, "the reason must be a non-empty string")
    return reason.strip()


def _alternative(file: Path, what: str, kind: str, text: str) -> Any:
    """A scalar alternative written as a JSON key ("5", "true", "vertical") in the attribute's type."""
    if kind == "bool":
        if text not in ("true", "false"):
            raise _fail(file, what, "a true/false attribute takes the alternative 'true' or 'false'")
        return text == "true"
    if kind == "number":
        try:
            return int(text)
        except ValueError:
            pass
        try:
            return float(text)
        except ValueError:
            raise _fail(file, what, "the alternative must be a number") from None
    return text


def _dimensions(
    file: Path,
    owner: str,
    doc: Any,
    kinds: Mapping[str, str],
    main: Mapping[str, Any],
    allowed: Callable[[str, Any], str | None],
) -> list[list[Change]]:
    """The independent choices of one country's or flag's ``arguable`` object.

    A set attribute gives one choice per value (main reading, or that value toggled: added when
    absent, removed when present); a scalar attribute gives one choice between the main value and
    its alternatives. ``allowed(attr, value)`` returns a problem or None.
    """
    where = f"{owner}: arguable"
    if not isinstance(doc, dict):
        raise _fail(file, where, "must be an object mapping attributes to {value: reason}")
    dims: list[list[Change]] = []
    for attr, values in doc.items():
        if attr not in kinds:
            raise _fail(file, where, f"unknown attribute {attr!r} (known: {', '.join(sorted(kinds))})")
        at = f"{where}: {attr}"
        if not isinstance(values, dict) or not values:
            raise _fail(file, at, "must be a non-empty object mapping values to one-line reasons")
        kind = kinds[attr]
        alternatives: list[Change] = []
        for text, reason in values.items():
            why = _reason(file, f"{at}: {text!r}", reason)
            if kind == "set":
                if not text:
                    raise _fail(file, at, "values must be non-empty strings")
                value: Any = text
                line = f"{attr} {'-' if text in main[attr] else '+'}{text}: {why}"
            else:
                value = _alternative(file, f"{at}: {text!r}", kind, text)
                if value == main[attr]:
                    raise _fail(file, f"{at}: {text!r}", "is the main reading already")
                line = f"{attr} {text}: {why}"
            problem = allowed(attr, value)
            if problem:
                raise _fail(file, f"{at}: {text!r}", problem)
            alternatives.append((attr, value, line))
        if kind == "set":
            dims.extend([alt] for alt in alternatives)
        else:
            dims.append(alternatives)
    return dims


def _flag_allowed(palette: Iterable[str], features: Mapping[str, str]) -> Callable[[str, Any], str | None]:
    colours = list(palette)

    def allowed(attr: str, value: Any) -> str | None:
        if attr == "colours" and value not in colours:
            return f"is not in the palette {colours}"
        if attr == "features" and value not in features:
            return "is not in the features table"
        if attr == "stripes" and value not in STRIPE_ORIENTATIONS:
            return f"stripes must be one of {list(STRIPE_ORIENTATIONS)}"
        if attr in ("stripe_count", "stars") and (not isinstance(value, int) or value < 0):
            return f"{attr} must be an integer >= 0"
        return None

    return allowed


def _derive(fields: Mapping[str, Any], palette: Iterable[str]) -> dict[str, Any]:
    """Every attribute a rule can test, from a country's fields and its flag's fields."""
    f = dict(fields)
    f["colour_count"] = len(f["colours"])
    f["neighbour_count"] = len(f["neighbours"])
    f["currency_words"] = frozenset(c.split()[-1].lower() for c in f["currencies"] if c.split())
    f["tags"] = flag_tags(f, palette)
    return f


def _readings(
    fields: Mapping[str, Any],
    dims: list[list[Change]],
    palette: Iterable[str],
) -> list[tuple[dict[str, Any], tuple[str, ...]]]:
    """Every alternative reading of one country: (its derived facts, the lines of its changes).

    All combinations of the choices in ``dims`` but the main reading; a reading whose flag has no
    colour, or whose stripe orientation and count disagree, is no reading and is left out.
    """
    out = []
    for combo in itertools.product(*[[None, *d] for d in dims]):
        changes = [c for c in combo if c is not None]
        if not changes:
            continue
        f = dict(fields)
        for attr, value, _ in changes:
            f[attr] = f[attr] ^ {value} if isinstance(f[attr], frozenset) else value
        if not f["colours"] or (f["stripes"] == "none") != (f["stripe_count"] == 0):
            continue
        out.append((_derive(f, palette), tuple(line for _, _, line in changes)))
    return out


Readings = Mapping[str, list[tuple[dict[str, Any], tuple[str, ...]]]]


def _fewest(hits: list[tuple[str, ...]]) -> tuple[str, ...]:
    """The reason lines of the readings with the fewest changes."""
    least = min(len(h) for h in hits)
    return tuple(dict.fromkeys(line for h in hits if len(h) == least for line in h))


def _arguable_set(
    file: Path,
    what: str,
    fits: Callable[[Mapping[str, Any]], bool] | None,
    pool: frozenset[str],
    readings: Readings,
    hand: Any,
    known: Iterable[str],
) -> tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]]:
    """A category's (arguable codes, doubtful codes) with their reasons.

    Arguable: codes outside the pool that ``fits`` under some alternative reading, then the
    category's hand-listed ``arguable`` codes. Doubtful: pool codes that do not fit under some
    alternative reading. Reasons are those of the readings with the fewest changes."""
    out: dict[str, tuple[str, ...]] = {}
    doubtful: dict[str, tuple[str, ...]] = {}
    if fits is not None:
        for code, alts in readings.items():
            fit = code in pool
            hits = [lines for f, lines in alts if fits(f) != fit]
            if hits:
                (doubtful if fit else out)[code] = _fewest(hits)
    if hand is None:
        return out, doubtful
    if not isinstance(hand, dict):
        raise _fail(file, f"{what}: arguable", "must be an object mapping country codes to one-line reasons")
    strangers = sorted(set(hand) - set(known))
    if strangers:
        raise _fail(file, f"{what}: arguable", f"unknown codes {strangers}")
    inside = sorted(set(hand) & pool)
    if inside:
        raise _fail(file, f"{what}: arguable", f"codes {inside} are in the pool already")
    for code, reason in hand.items():
        why = _reason(file, f"{what}: arguable: {code}", reason)
        out[code] = out.get(code, ()) + (why,)
    return out, doubtful


def _modes(file: Path, what: str, value: Any) -> frozenset[str]:
    if value is None:
        return frozenset(MODES)
    if (
        not isinstance(value, list)
        or not value
        or not set(value) <= set(MODES)
        or not all(isinstance(v, str) for v in value)
    ):
        raise _fail(file, what, f"modes must be a non-empty list drawn from {list(MODES)}, got {value!r}")
    return frozenset(value)


def _tier(file: Path, what: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value not in range(4):
        raise _fail(file, what, f"tier must be an integer 0..3 (0 yellow .. 3 purple), got {value!r}")
    return value


def _label(file: Path, what: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _fail(file, what, "label must be a non-empty string")
    return value


def _categories(file: Path, rows: Any, facts: Mapping[str, Mapping[str, Any]], readings: Readings) -> list[Category]:
    if not isinstance(rows, list):
        raise _fail(file, "categories", "must be a list")
    out: list[Category] = []
    seen: set[str] = set()
    for i, row in enumerate(rows):
        if not isinstance(row, dict):
            raise _fail(file, f"category #{i}", "must be an object")
        cid = row.get("id")
        if not isinstance(cid, str) or not cid or cid.startswith("tag:"):
            raise _fail(file, f"category #{i}", f"id must be a non-empty string not starting with 'tag:', got {cid!r}")
        what = f"category {cid!r}"
        if cid in seen:
            raise _fail(file, what, "duplicate id")
        seen.add(cid)
        unknown = set(row) - CATEGORY_KEYS
        if unknown:
            raise _fail(file, what, f"unknown keys {sorted(unknown)}")
        label = _label(file, what, row.get("label"))
        tier = _tier(file, what, row.get("tier"))
        modes = _modes(file, what, row.get("modes"))
        if ("where" in row) == ("codes" in row):
            raise _fail(file, what, "needs exactly one of 'where' (a rule) or 'codes' (a hand list)")
        if "where" in row:
            try:
                pred = compile_rule(row["where"], ATTRIBUTE_KINDS)
            except RuleError as exc:
                raise _fail(file, what, f"rule: {exc}") from None
            pool = frozenset(code for code, f in facts.items() if pred(f))
            fits: Callable[[Mapping[str, Any]], bool] | None = pred
            extra: dict[str, object] = {"rule": row["where"]}
        else:
            codes = row["codes"]
            if not isinstance(codes, list) or not all(isinstance(c, str) for c in codes):
                raise _fail(file, what, "codes must be a list of country codes")
            if len(set(codes)) != len(codes):
                raise _fail(file, what, "codes has repeats")
            strangers = sorted(set(codes) - set(facts))
            if strangers:
                raise _fail(file, what, f"unknown codes {strangers}")
            pool = frozenset(codes)
            fits = None  # a hand list has no rule to read again; only hand-listed arguable codes
            extra = {"codes": list(codes)}
        if len(pool) < 4:
            raise _fail(file, what, f"pool has {len(pool)} codes ({sorted(pool)}), needs at least 4")
        arguable, doubtful = _arguable_set(file, what, fits, pool, readings, row.get("arguable"), facts)
        out.append(
            Category(
                cid,
                label,
                tier,
                "library",
                pool,
                modes,
                None,
                extra,
                frozenset(arguable),
                arguable,
                frozenset(doubtful),
                doubtful,
            )
        )
    return out


def _has_tag(tag: str) -> Callable[[Mapping[str, Any]], bool]:
    return lambda f: tag in f["tags"]


def _synthetic(file: Path, rows: Any, tags: Mapping[str, frozenset[str]], readings: Readings) -> list[Category]:
    if not isinstance(rows, list):
        raise _fail(file, "synthetic", "must be a list")
    out: list[Category] = []
    seen: set[str] = set()
    for i, row in enumerate(rows):
        if not isinstance(row, dict) or not isinstance(row.get("tag"), str) or not row["tag"]:
            raise _fail(file, f"synthetic #{i}", "must be an object with a non-empty 'tag'")
        tag = row["tag"]
        what = f"category 'tag:{tag}'"
        if tag in seen:
            raise _fail(file, what, "duplicate id (the tag is listed twice)")
        seen.add(tag)
        unknown = set(row) - SYNTHETIC_KEYS
        if unknown:
            raise _fail(file, what, f"unknown keys {sorted(unknown)}")
        label = _label(file, what, row.get("label"))
        tier = _tier(file, what, row.get("tier"))
        modes = _modes(file, what, row.get("modes"))
        pool = frozenset(code for code, t in tags.items() if tag in t)
        if len(pool) < 4:
            raise _fail(file, what, f"pool has {len(pool)} codes ({sorted(pool)}), needs at least 4")
        arguable, doubtful = _arguable_set(file, what, _has_tag(tag), pool, readings, row.get("arguable"), tags)
        out.append(
            Category(
                f"tag:{tag}",
                label,
                tier,
                "synthetic",
                pool,
                modes,
                tag,
                {},
                frozenset(arguable),
                arguable,
                frozenset(doubtful),
                doubtful,
            )
        )
    return out


def load_library(path: str | Path | None = None) -> Library:
    """Load the bundled library (``path=None``) or a user's directory or JSON file.

    A user's file replaces the parts it holds (``countries``, ``flags``, ``categories``,
    ``synthetic``, ...) and takes the rest from the bundled data. A broken file raises
    LibraryError naming the file, the category (or country, or flag) and the problem.
    """
    if path is not None and not isinstance(path, (str, Path)):
        raise TypeError(f"path must be a str, a Path or None, got {type(path).__name__}")
    parts = _sources(path)
    cfile, crow = parts["countries"]
    countries = _countries(cfile, crow)
    pfile, palette = parts["palette"]
    if not isinstance(palette, list) or not palette or not all(isinstance(c, str) for c in palette):
        raise _fail(pfile, "palette", "must be a non-empty list of colour names")
    ffile, features = parts["features"]
    if not isinstance(features, dict):
        raise _fail(ffile, "features", "must be an object mapping feature names to descriptions")
    gfile, flag_rows = parts["flags"]
    flags = _flags(gfile, flag_rows, palette, features, set(countries))
    facts: dict[str, dict[str, Any]] = {}
    tags: dict[str, frozenset[str]] = {}
    readings: dict[str, list[tuple[dict[str, Any], tuple[str, ...]]]] = {}
    country_rows = {row["code"]: row for row in crow}
    flag_allowed = _flag_allowed(palette, features)
    for code, country in countries.items():
        fields = {**country, **flags[code]}
        facts[code] = _derive(fields, palette)
        tags[code] = facts[code]["tags"]
        dims = []
        if "arguable" in flag_rows[code]:
            dims += _dimensions(
                gfile, f"flag {code}", flag_rows[code]["arguable"], ARGUABLE_FLAG_FIELDS, fields, flag_allowed
            )
        if "arguable" in country_rows[code]:
            dims += _dimensions(
                cfile,
                f"country {code}",
                country_rows[code]["arguable"],
                ARGUABLE_COUNTRY_FIELDS,
                fields,
                lambda attr, value: None,
            )
        if dims:
            n = 1
            for d in dims:
                n *= len(d) + 1
            if n - 1 > MAX_READINGS:
                raise _fail(
                    gfile,
                    f"flag {code}",
                    f"arguable values make {n - 1} alternative readings "
                    f"(country and flag together), at most {MAX_READINGS}",
                )
            readings[code] = _readings(fields, dims, palette)
    kfile, krows = parts["categories"]
    sfile, srows = parts.get("synthetic", (kfile, []))
    cats = _categories(kfile, krows, facts, readings) + _synthetic(sfile, srows, tags, readings)
    labels: dict[tuple[str, str], str] = {}
    for cat in cats:
        where = sfile if cat.kind == "synthetic" else kfile
        for mode in sorted(cat.modes):
            key = (mode, cat.label.strip().lower())
            if key in labels:
                raise _fail(
                    where,
                    f"category {cat.id!r}",
                    f"label {cat.label!r} repeats category {labels[key]!r} in mode {mode!r}",
                )
            labels[key] = cat.id
    names = {code: c["name"] for code, c in countries.items()}
    source = str(path) if path is not None else str(bundled_path())
    try:
        return Library(names, tags, cats, source=source, facts=facts)
    except LibraryError as exc:
        raise LibraryError(f"{kfile}: {exc}") from None
