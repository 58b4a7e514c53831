"""Loading flags/ (or a user's file) into a Library: ``load_library``.

Every problem of a file raises LibraryError naming the file, the category (or country, or flag)
and the problem.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import replace
from importlib import resources
from pathlib import Path
from typing import Any

from .._args.connections import MODES, as_path
from ..errors import LibraryError, RuleError
from .model import Category, Library
from .readings import (
    ReadingIndex,
    Readings,
    alternative_readings,
    arguable_sets,
    dimensions,
    flag_allowed,
    kept_apart,
)
from .rules import Read, compile_rule, rule_reads
from .schema import (
    ARGUABLE_COUNTRY_FIELDS,
    ARGUABLE_FLAG_FIELDS,
    ATTRIBUTE_KINDS,
    CATEGORY_KEYS,
    COUNTRY_FIELDS,
    FILES,
    FLAG_KEYS,
    MAX_READINGS,
    SHOWN_FILE,
    SYNTHETIC_KEYS,
    TOP_KEYS,
    derive,
    fail,
)


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


def _countries(file: Path, rows: Any) -> dict[str, dict[str, Any]]:
    if not isinstance(rows, list) or not rows:
        raise fail(file, "countries", "must be a non-empty list")
    out: dict[str, dict[str, Any]] = {}
    for i, row in enumerate(rows):
        if not isinstance(row, dict):
            raise fail(file, f"country #{i}", "must be an object")
        code = row.get("code")
        if (
            not isinstance(code, str)
            or len(code) != 2
            or not code.isascii()
            or not code.isupper()
            or not code.isalpha()
        ):
            raise fail(file, f"country #{i}", f"code must be ISO alpha-2 upper case, got {code!r}")
        if code in out:
            raise fail(file, f"country {code}", "duplicate code")
        missing = [k for k in ("code", "name") if k not in row]
        if missing:
            raise fail(file, f"country {code}", f"missing fields {missing}")
        unknown = set(row) - set(COUNTRY_FIELDS) - {"arguable"}
        if unknown:
            raise fail(file, f"country {code}", f"unknown fields {sorted(unknown)}")
        facts: dict[str, Any] = {}
        for key, kind in COUNTRY_FIELDS.items():
            value = row.get(key, {"set": [], "bool": False, "number": 0, "str": ""}[kind])
            facts[key] = _typed(file, f"country {code}", key, kind, value)
        out[code] = facts
    for code, facts in out.items():
        strangers = sorted(facts["neighbours"] - set(out))
        if strangers:
            raise fail(file, f"country {code}", f"neighbours has unknown codes {strangers}")
    return out


def _typed(file: Path, what: str, key: str, kind: str, value: Any) -> Any:
    if kind == "set":
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise fail(file, what, f"{key} must be a list of strings")
        return frozenset(value)
    if kind == "bool":
        if not isinstance(value, bool):
            raise fail(file, what, f"{key} must be true or false")
        return value
    if kind == "number":
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise fail(file, what, f"{key} must be a number")
        return value
    if value is None:
        return ""
    if not isinstance(value, str):
        raise fail(file, what, f"{key} must be a string")
    return value


def _flags(
    file: Path, doc: Any, palette: list[str], features: Mapping[str, str], codes: set[str]
) -> dict[str, dict[str, Any]]:
    if not isinstance(doc, dict):
        raise fail(file, "flags", "must be an object mapping codes to flag descriptions")
    out: dict[str, dict[str, Any]] = {}
    for code, entry in doc.items():
        what = f"flag {code}"
        if code not in codes:
            raise fail(file, what, "unknown code (not in the country list)")
        if not isinstance(entry, dict) or set(entry) - {"arguable"} != FLAG_KEYS:
            raise fail(file, what, "must have exactly colours, stripes, stars, features (and optionally arguable)")
        colours = entry["colours"]
        if not isinstance(colours, list) or not colours or len(set(colours)) != len(colours):
            raise fail(file, what, "colours must be a non-empty list without repeats")
        bad = [c for c in colours if c not in palette]
        if bad:
            raise fail(file, what, f"colours {bad} are not in the palette {palette}")
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
            raise fail(file, what, "stripes must be null or {orientation: horizontal|vertical, count >= 1}")
        stars = entry["stars"]
        if isinstance(stars, bool) or not isinstance(stars, int) or stars < 0:
            raise fail(file, what, "stars must be an integer >= 0")
        feats = entry["features"]
        if not isinstance(feats, list) or not all(isinstance(f, str) for f in feats):
            raise fail(file, what, "features must be a list of strings")
        unknown = sorted(set(feats) - set(features))
        if unknown:
            raise fail(file, what, f"unknown features {unknown} (see the features table)")
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
        raise fail(file, "flags", f"no flag description for {missing}")
    return out


def _modes(file: Path, what: str, value: Any) -> frozenset[str]:
    if value is None:
        return frozenset(MODES)
    if (
        not isinstance(value, list)
        or not value
        or not set(value) <= set(MODES)
        or not all(isinstance(v, str) for v in value)
    ):
        raise fail(file, what, f"modes must be a non-empty list drawn from {list(MODES)}, got {value!r}")
    return frozenset(value)


def _tier(file: Path, what: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value not in range(4):
        raise fail(file, what, f"tier must be an integer 0..3 (0 yellow .. 3 purple), got {value!r}")
    return value


def _label(file: Path, what: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise fail(file, what, "label must be a non-empty string")
    return value


def _family(file: Path, what: str, value: Any) -> str:
    """A family name: lower-case words joined by hyphens ("vertical-stripes"); absent: ""."""
    if value is None:
        return ""
    if (
        not isinstance(value, str)
        or not value
        or not all(part and part.isascii() and part.isalnum() and part.islower() for part in value.split("-"))
    ):
        raise fail(file, what, f"family must be lower-case words joined by hyphens, got {value!r}")
    return value


def shown_labels() -> dict[str, tuple[str, ...]]:
    """The simpler label each category id shows when its clause is idle (flags/difficulty.json's
    "simpler"; the difficulty model reads the same file for every library, so does this)."""
    file = bundled_path() / SHOWN_FILE
    entries = _read_shown(file)
    out: dict[str, tuple[str, ...]] = {}
    for cid, entry in entries.items():
        simpler = entry.get("simpler") if isinstance(entry, dict) else None
        if isinstance(simpler, str) and simpler.strip():
            out[cid] = (simpler,)
    return out


def _read_shown(file: Path) -> dict[str, Any]:
    try:
        doc = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise LibraryError(f"{file}: cannot read: {exc}") from None
    entries = doc.get("categories") if isinstance(doc, dict) else None
    if not isinstance(entries, dict):
        raise LibraryError(f"{file}: categories must be an object keyed by category id")
    return entries


def _categories(
    file: Path, rows: Any, facts: Mapping[str, Mapping[str, Any]], readings: Readings, index: ReadingIndex
) -> list[Category]:
    if not isinstance(rows, list):
        raise fail(file, "categories", "must be a list")
    out: list[Category] = []
    seen: set[str] = set()
    for i, row in enumerate(rows):
        if not isinstance(row, dict):
            raise fail(file, f"category #{i}", "must be an object")
        cid = row.get("id")
        if not isinstance(cid, str) or not cid or cid.startswith("tag:"):
            raise fail(file, f"category #{i}", f"id must be a non-empty string not starting with 'tag:', got {cid!r}")
        what = f"category {cid!r}"
        if cid in seen:
            raise fail(file, what, "duplicate id")
        seen.add(cid)
        unknown = set(row) - CATEGORY_KEYS
        if unknown:
            raise fail(file, what, f"unknown keys {sorted(unknown)}")
        label = _label(file, what, row.get("label"))
        tier = _tier(file, what, row.get("tier"))
        modes = _modes(file, what, row.get("modes"))
        family = _family(file, what, row.get("family"))
        if ("where" in row) == ("codes" in row):
            raise fail(file, what, "needs exactly one of 'where' (a rule) or 'codes' (a hand list)")
        if "where" in row:
            try:
                pred = compile_rule(row["where"], ATTRIBUTE_KINDS)
            except RuleError as exc:
                raise fail(file, what, f"rule: {exc}") from None
            pool = frozenset(code for code, f in facts.items() if pred(f))
            fits: Callable[[Mapping[str, Any]], bool] | None = pred
            reads: frozenset[Read] | None = rule_reads(row["where"], ATTRIBUTE_KINDS)
            extra: dict[str, object] = {"rule": row["where"]}
        else:
            codes = row["codes"]
            if not isinstance(codes, list) or not all(isinstance(c, str) for c in codes):
                raise fail(file, what, "codes must be a list of country codes")
            if len(set(codes)) != len(codes):
                raise fail(file, what, "codes has repeats")
            strangers = sorted(set(codes) - set(facts))
            if strangers:
                raise fail(file, what, f"unknown codes {strangers}")
            pool = frozenset(codes)
            fits = None  # a hand list has no rule to read again; only hand-listed arguable codes
            reads = None
            extra = {"codes": list(codes)}
        if len(pool) < 4:
            raise fail(file, what, f"pool has {len(pool)} codes ({sorted(pool)}), needs at least 4")
        arguable, doubtful = arguable_sets(file, what, fits, pool, readings, row.get("arguable"), facts, index, reads)
        _add_apart(file, what, row, pool, index, arguable)
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
                family,
            )
        )
    return out


def _add_apart(
    file: Path,
    what: str,
    row: Mapping[str, Any],
    pool: frozenset[str],
    index: ReadingIndex,
    arguable: dict[str, tuple[str, ...]],
) -> None:
    """Add a row's look-alikes (its ``apart``, readings.kept_apart) to its arguable codes."""
    if "apart" not in row:
        return

    def compiled(rule: Any) -> Callable[[Mapping[str, Any]], bool]:
        try:
            return compile_rule(rule, ATTRIBUTE_KINDS)
        except RuleError as exc:
            raise fail(file, f"{what}: apart", f"rule: {exc}") from None

    looks = kept_apart(file, what, row["apart"], pool, index, compiled, lambda r: rule_reads(r, ATTRIBUTE_KINDS))
    for code, why in looks.items():
        arguable[code] = arguable.get(code, ()) + why


def _has_tag(tag: str) -> Callable[[Mapping[str, Any]], bool]:
    return lambda f: tag in f["tags"]


def _synthetic(
    file: Path, rows: Any, tags: Mapping[str, frozenset[str]], readings: Readings, index: ReadingIndex
) -> list[Category]:
    if not isinstance(rows, list):
        raise fail(file, "synthetic", "must be a list")
    out: list[Category] = []
    seen: set[str] = set()
    for i, row in enumerate(rows):
        if not isinstance(row, dict) or not isinstance(row.get("tag"), str) or not row["tag"]:
            raise fail(file, f"synthetic #{i}", "must be an object with a non-empty 'tag'")
        tag = row["tag"]
        what = f"category 'tag:{tag}'"
        if tag in seen:
            raise fail(file, what, "duplicate id (the tag is listed twice)")
        seen.add(tag)
        unknown = set(row) - SYNTHETIC_KEYS
        if unknown:
            raise fail(file, what, f"unknown keys {sorted(unknown)}")
        label = _label(file, what, row.get("label"))
        tier = _tier(file, what, row.get("tier"))
        modes = _modes(file, what, row.get("modes"))
        family = _family(file, what, row.get("family"))
        pool = frozenset(code for code, t in tags.items() if tag in t)
        if len(pool) < 4:
            raise fail(file, what, f"pool has {len(pool)} codes ({sorted(pool)}), needs at least 4")
        hand, reads = row.get("arguable"), [("tags", tag)]  # a tag's rule reads one member of the tags
        arguable, doubtful = arguable_sets(file, what, _has_tag(tag), pool, readings, hand, tags, index, reads)
        _add_apart(file, what, row, pool, index, arguable)
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
                family,
            )
        )
    return out


def load_library(path: str | Path | None = None) -> Library:
    """Load the bundled library (``path=None``) or a user's directory or JSON file.

    A user's file replaces the parts it holds (``countries``, ``flags``, ``categories``,
    ``synthetic``, ...) and takes the rest from the bundled data. A broken file raises
    LibraryError naming the file, the category (or country, or flag) and the problem.
    """
    parts = _sources(as_path(path))
    cfile, crow = parts["countries"]
    countries = _countries(cfile, crow)
    pfile, palette = parts["palette"]
    if not isinstance(palette, list) or not palette or not all(isinstance(c, str) for c in palette):
        raise fail(pfile, "palette", "must be a non-empty list of colour names")
    ffile, features = parts["features"]
    if not isinstance(features, dict):
        raise fail(ffile, "features", "must be an object mapping feature names to descriptions")
    gfile, flag_rows = parts["flags"]
    flags = _flags(gfile, flag_rows, palette, features, set(countries))
    facts: dict[str, dict[str, Any]] = {}
    tags: dict[str, frozenset[str]] = {}
    readings: dict[str, list[tuple[dict[str, Any], tuple[str, ...]]]] = {}
    country_rows = {row["code"]: row for row in crow}
    allowed_in_flag = flag_allowed(palette, features)
    for code, country in countries.items():
        fields = {**country, **flags[code]}
        facts[code] = derive(fields, palette)
        tags[code] = facts[code]["tags"]
        dims = []
        if "arguable" in flag_rows[code]:
            dims += dimensions(
                gfile, f"flag {code}", flag_rows[code]["arguable"], ARGUABLE_FLAG_FIELDS, fields, allowed_in_flag
            )
        if "arguable" in country_rows[code]:
            dims += dimensions(
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
                raise fail(
                    gfile,
                    f"flag {code}",
                    f"arguable values make {n - 1} alternative readings "
                    f"(country and flag together), at most {MAX_READINGS}",
                )
            readings[code] = alternative_readings(fields, dims, palette)
    kfile, krows = parts["categories"]
    sfile, srows = parts.get("synthetic", (kfile, []))
    alternatives = {code: [f for f, _ in alts] for code, alts in readings.items()}
    index = ReadingIndex(facts, alternatives)
    cats = _categories(kfile, krows, facts, readings, index) + _synthetic(sfile, srows, tags, readings, index)
    shown = shown_labels()
    cats = [replace(c, shown=shown[c.id]) if c.id in shown else c for c in cats]
    labels: dict[tuple[str, str], str] = {}
    for cat in cats:
        where = sfile if cat.kind == "synthetic" else kfile
        for mode in sorted(cat.modes):
            key = (mode, cat.label.strip().lower())
            if key in labels:
                raise fail(
                    where,
                    f"category {cat.id!r}",
                    f"label {cat.label!r} repeats category {labels[key]!r} in mode {mode!r}",
                )
            labels[key] = cat.id
    names = {code: c["name"] for code, c in countries.items()}
    source = str(path) if path is not None else str(bundled_path())
    try:
        return Library(names, tags, cats, source=source, facts=facts, readings=alternatives, index=index)
    except LibraryError as exc:
        raise LibraryError(f"{kfile}: {exc}") from None
