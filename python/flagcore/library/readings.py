"""Alternative readings ("arguable"): values a reasonable player could read for an attribute
although the data's main reading differs, and the arguable and doubtful codes of a category
that follow from them."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
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


Reading = tuple[dict[str, Any], tuple[str, ...]]  # (the derived facts, the lines of its changes)
Readings = Mapping[str, list[Reading]]
_MISSING = object()
_ANY = object()  # (attribute, _ANY): a change of an attribute that is not a set in both readings


class ReadingIndex:
    """Every country's alternative readings (their facts), indexed by the attributes each one
    changes against the country's main facts. A rule gives a reading that changes none of the
    attributes it reads (rules.rule_reads) the main reading's answer, so a rule is evaluated only
    on the readings that touch its attributes (a few dozen of about 2,700): loading the library
    and the difficulty model's named sets were mostly rules run on every reading."""

    def __init__(
        self, facts: Mapping[str, Mapping[str, Any]], alternatives: Mapping[str, Sequence[Mapping[str, Any]]]
    ) -> None:
        self.facts = facts
        self.alternatives = alternatives
        self._order = {code: k for k, code in enumerate(alternatives)}
        # what each reading changes (an attribute, and for a set attribute each member that comes
        # or goes: rules.rule_reads's keys) -> code -> the indices of its readings that change it
        changed: dict[Hashable, dict[str, list[int]]] = {}
        for code, alts in alternatives.items():
            main = facts.get(code, {})
            for k, f in enumerate(alts):
                for attr in f.keys() | main.keys():
                    was, now = main.get(attr, _MISSING), f.get(attr, _MISSING)
                    if was == now:
                        continue
                    keys: list[Hashable] = [attr]
                    if isinstance(was, frozenset) and isinstance(now, frozenset):
                        keys += [(attr, member) for member in was ^ now]
                    else:  # not two sets: any member may have changed
                        keys.append((attr, _ANY))
                    for key in keys:
                        changed.setdefault(key, {}).setdefault(code, []).append(k)
        self._changed = changed

    def touching(self, reads: Iterable[Hashable] | None) -> Iterator[tuple[str, list[int]]]:
        """(code, the indices of its readings that change one of ``reads``, in order), in the codes'
        order; ``reads``: rules.rule_reads's attributes and (set attribute, member) pairs, None:
        every code's every reading."""
        if reads is None:
            yield from ((code, list(range(len(alts)))) for code, alts in self.alternatives.items())
            return
        hit: dict[str, set[int]] = {}
        for read in reads:
            for key in (read, (read[0], _ANY)) if isinstance(read, tuple) else (read,):
                for code, ks in self._changed.get(key, {}).items():
                    hit.setdefault(code, set()).update(ks)
        for code in sorted(hit, key=self._order.__getitem__):
            yield code, sorted(hit[code])

    def fitting(self, fits: Callable[[Mapping[str, Any]], bool], reads: Iterable[Hashable] | None) -> frozenset[str]:
        """The codes that ``fits`` under their main reading or any alternative one (codes without
        facts are left out)."""
        out = {code for code, f in self.facts.items() if f and fits(f)}
        for code, ks in self.touching(reads):
            if code not in out:
                alts = self.alternatives[code]
                if any(alts[k] and fits(alts[k]) for k in ks):
                    out.add(code)
        return frozenset(out)


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
    index: ReadingIndex | None = None,
    reads: Iterable[Hashable] | None = None,
) -> tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]]:
    """A category's (arguable codes, doubtful codes) with their reasons.

    Arguable: codes outside the pool that ``fits`` under some alternative reading, then the
    category's hand-listed ``arguable`` codes outside its pool. Doubtful: pool codes that do not
    fit under some alternative reading, then the hand-listed codes inside the pool (a reading of
    this label alone that no attribute states: DR Congo's diagonal band as a stripe beside "no
    stripes"). Reasons are those of the readings with the fewest changes. ``index``: the
    readings' ReadingIndex and ``reads`` the attributes ``fits`` reads (rules.rule_reads): only
    the readings that change them are evaluated (without them, every reading)."""
    out: dict[str, tuple[str, ...]] = {}
    doubtful: dict[str, tuple[str, ...]] = {}
    if fits is not None:
        touched = index.touching(reads) if index is not None else ((c, range(len(a))) for c, a in readings.items())
        for code, ks in touched:
            fit = code in pool
            alts = readings[code]
            hits = [alts[k][1] for k in ks if fits(alts[k][0]) != fit]
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


def kept_apart(
    file: Path,
    what: str,
    apart: Any,
    pool: frozenset[str],
    index: ReadingIndex,
    compile_rule: Callable[[Any], Callable[[Mapping[str, Any]], bool]],
    reads: Callable[[Any], Iterable[Hashable]],
) -> dict[str, tuple[str, ...]]:
    """A category's look-alikes (its ``apart``: ``{"where": rule, "reason": "..."}``): the codes
    outside its pool that fit ``where`` under their main reading or another, each with the reason.
    They are arguable codes of the category, so none is dealt on a board that shows its label: a
    fifth flag that only a detail of the label keeps out (the colour of a crescent, "nothing
    else") is never its decoy. ``compile_rule`` and ``reads`` compile a rule and give what it reads."""
    at = f"{what}: apart"
    if not isinstance(apart, dict) or set(apart) != {"where", "reason"}:
        raise fail(file, at, "must be an object with exactly 'where' (a rule) and 'reason'")
    why = reason_text(file, f"{at}: reason", apart["reason"])
    fits = compile_rule(apart["where"])
    return {code: (why,) for code in sorted(index.fitting(fits, reads(apart["where"])) - pool)}
