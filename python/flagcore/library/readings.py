"""Alternative readings ("arguable"): values a reasonable player could read for an attribute
although the data's main reading differs, and the arguable and doubtful codes of a category
that follow from them."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from .schema import STRIPE_ORIENTATIONS, derive, fail

# One change of a reading: (attribute, value, its line for the reasons: "colours +yellow: why").
Change = tuple[str, Any, str]


def reason_text(file: Path, what: str, reason: Any) -> str:
    """A one-line reason of the data, stripped; LibraryError when it is not a non-empty string."""
    if not isinstance(reason, str) or not reason.strip():
        raise fail(file, what, "the reason must be a non-empty string")
    return reason.strip()


def _alternative(file: Path, what: str, kind: str, text: str) -> Any:
    """A scalar alternative written as a JSON key ("5", "true", "vertical") in the attribute's type."""
    if kind == "bool":
        if text not in ("true", "false"):
            raise fail(file, what, "a true/false attribute takes the alternative 'true' or 'false'")
        return text == "true"
    if kind == "number":
        try:
            return int(text)
        except ValueError:
            pass
        try:
            return float(text)
        except ValueError:
            raise fail(file, what, "the alternative must be a number") from None
    return text


def dimensions(
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
        raise fail(file, where, "must be an object mapping attributes to {value: reason}")
    dims: list[list[Change]] = []
    for attr, values in doc.items():
        if attr not in kinds:
            raise fail(file, where, f"unknown attribute {attr!r} (known: {', '.join(sorted(kinds))})")
        at = f"{where}: {attr}"
        if not isinstance(values, dict) or not values:
            raise fail(file, at, "must be a non-empty object mapping values to one-line reasons")
        kind = kinds[attr]
        alternatives: list[Change] = []
        for text, reason in values.items():
            why = reason_text(file, f"{at}: {text!r}", reason)
            if kind == "set":
                if not text:
                    raise fail(file, at, "values must be non-empty strings")
                value: Any = text
                line = f"{attr} {'-' if text in main[attr] else '+'}{text}: {why}"
            else:
                value = _alternative(file, f"{at}: {text!r}", kind, text)
                if value == main[attr]:
                    raise fail(file, f"{at}: {text!r}", "is the main reading already")
                line = f"{attr} {text}: {why}"
            problem = allowed(attr, value)
            if problem:
                raise fail(file, f"{at}: {text!r}", problem)
            alternatives.append((attr, value, line))
        if kind == "set":
            dims.extend([alt] for alt in alternatives)
        else:
            dims.append(alternatives)
    return dims


def flag_allowed(palette: Iterable[str], features: Mapping[str, str]) -> Callable[[str, Any], str | None]:
    """The check of a flag's alternative values: ``allowed(attr, value)`` returns a problem or None."""
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


def alternative_readings(
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
        out.append((derive(f, palette), tuple(line for _, _, line in changes)))
    return out


Readings = Mapping[str, list[tuple[dict[str, Any], tuple[str, ...]]]]


def _fewest(hits: list[tuple[str, ...]]) -> tuple[str, ...]:
    """The reason lines of the readings with the fewest changes."""
    least = min(len(h) for h in hits)
    return tuple(dict.fromkeys(line for h in hits if len(h) == least for line in h))


def arguable_sets(
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
    category's hand-listed ``arguable`` codes outside its pool. Doubtful: pool codes that do not
    fit under some alternative reading, then the hand-listed codes inside the pool (a reading of
    this label alone that no attribute states: DR Congo's diagonal band as a stripe beside "no
    stripes"). Reasons are those of the readings with the fewest changes."""
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
        raise fail(file, f"{what}: arguable", "must be an object mapping country codes to one-line reasons")
    strangers = sorted(set(hand) - set(known))
    if strangers:
        raise fail(file, f"{what}: arguable", f"unknown codes {strangers}")
    for code, reason in hand.items():
        why = reason_text(file, f"{what}: arguable: {code}", reason)
        # a pool code listed by hand fits by the rule but not as a player reads this label: doubtful
        kept = doubtful if code in pool else out
        kept[code] = kept.get(code, ()) + (why,)
    return out, doubtful
