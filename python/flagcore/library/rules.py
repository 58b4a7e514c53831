"""Category rules: a small JSON language over country and flag attributes.

A rule (the ``where`` of a category) is an object whose keys are attribute names and whose values
are conditions; all must hold. Two keys combine rules: ``"any": [rule, ...]`` (at least one
holds) and ``"not": rule``. A condition is either a literal (equality; for a set attribute, a
string literal means "contains it") or an object with one operator:

    has, has_all, has_any, has_none, eq (set equality), subset_of   -- set attributes
    min, max                                                          -- numbers
    in, startswith, endswith, contains, contains_attr, includes_attr  -- strings / scalars

Rules are compiled once (unknown attributes and operators fail at load time with a message
naming the category), then evaluated against every country, so a pool holds every country
that fits its label by construction.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..errors import RuleError

Facts = Mapping[str, Any]
Predicate = Callable[[Facts], bool]

SET_OPS = {"has", "has_all", "has_any", "has_none", "eq", "subset_of"}
NUM_OPS = {"min", "max"}
STR_OPS = {"in", "startswith", "endswith", "contains", "contains_attr", "includes_attr"}


def compile_rule(rule: object, kinds: Mapping[str, str]) -> Predicate:
    """Compile ``rule`` against ``kinds`` (attribute name -> "set" | "number" | "bool" | "str")."""
    if not isinstance(rule, dict) or not rule:
        raise RuleError(f"a rule must be a non-empty object, got {rule!r}")
    parts: list[Predicate] = []
    for key, cond in rule.items():
        if key == "any":
            if not isinstance(cond, list) or not cond:
                raise RuleError("'any' takes a non-empty list of rules")
            parts.append(_any([compile_rule(r, kinds) for r in cond]))
        elif key == "not":
            parts.append(_not(compile_rule(cond, kinds)))
        elif key in kinds:
            parts.append(_condition(key, kinds[key], cond, kinds))
        else:
            raise RuleError(f"unknown attribute {key!r} (known: {', '.join(sorted(kinds))})")
    return lambda f: all(p(f) for p in parts)


Read = str | tuple[str, str]  # an attribute read whole, or (a set attribute, one member it tests)
_MEMBER_OPS = ("has", "has_all", "has_any", "has_none")


def rule_reads(rule: object, kinds: Mapping[str, str]) -> frozenset[Read]:
    """What a rule (one compile_rule accepted) may read of the facts: an attribute's name where it
    reads the attribute whole, (attribute, member) where it only tests whether a set attribute
    holds that member (a literal, has, has_all, has_any, has_none), and the other attribute of
    contains_attr / includes_attr. A reading that changes none of them (readings.ReadingIndex)
    gets the same answer as the main reading."""
    out: set[Read] = set()
    if isinstance(rule, dict):
        for key, cond in rule.items():
            if key == "any":
                for sub in cond:
                    out |= rule_reads(sub, kinds)
            elif key == "not":
                out |= rule_reads(cond, kinds)
            elif kinds.get(key) == "set" and isinstance(cond, str):
                out.add((key, cond))
            elif kinds.get(key) == "set" and isinstance(cond, dict) and _members(cond) is not None:
                out.update((key, member) for member in _members(cond) or ())
            else:
                out.add(key)
                if isinstance(cond, dict):
                    out.update(arg for op, arg in cond.items() if op in ("contains_attr", "includes_attr"))
    return frozenset(out)


def _members(cond: dict[str, Any]) -> list[str] | None:
    """The members a set condition tests one by one, or None when it reads the set whole."""
    ((op, arg),) = cond.items()
    if op == "has" and isinstance(arg, str):
        return [arg]
    if op in _MEMBER_OPS and isinstance(arg, list) and all(isinstance(a, str) for a in arg):
        return arg
    return None


def _any(subs: list[Predicate]) -> Predicate:
    return lambda f: any(s(f) for s in subs)


def _not(sub: Predicate) -> Predicate:
    return lambda f: not sub(f)


def _condition(attr: str, kind: str, cond: object, kinds: Mapping[str, str]) -> Predicate:
    if not isinstance(cond, dict):
        if kind == "set":
            if not isinstance(cond, str):
                raise RuleError(f"{attr}: a literal for a set attribute must be a string")
            return lambda f: cond in f[attr]
        if kind == "bool" and not isinstance(cond, bool):
            raise RuleError(f"{attr}: expected true or false, got {cond!r}")
        if kind == "number" and (isinstance(cond, bool) or not isinstance(cond, (int, float))):
            raise RuleError(f"{attr}: expected a number, got {cond!r}")
        if kind == "str" and not isinstance(cond, str):
            raise RuleError(f"{attr}: expected a string, got {cond!r}")
        return lambda f: bool(f[attr] == cond)
    if len(cond) != 1:
        raise RuleError(f"{attr}: a condition object has exactly one operator, got {sorted(cond)}")
    ((op, arg),) = cond.items()
    allowed = {"set": SET_OPS, "number": NUM_OPS | {"in"}, "str": STR_OPS, "bool": set()}[kind]
    if op not in allowed:
        raise RuleError(
            f"{attr}: operator {op!r} does not apply to a {kind} attribute "
            f"(use one of {sorted(allowed) or ['a literal']})"
        )
    if op == "has":
        return lambda f: arg in f[attr]
    if op in ("has_all", "has_any", "has_none", "eq", "subset_of", "in"):
        if not isinstance(arg, list):
            raise RuleError(f"{attr}: {op!r} takes a list")
        s = frozenset(arg)
        if op == "has_all":
            return lambda f: s <= f[attr]
        if op == "has_any":
            return lambda f: bool(s & f[attr])
        if op == "has_none":
            return lambda f: not (s & f[attr])
        if op == "eq":
            return lambda f: f[attr] == s
        if op == "subset_of":
            return lambda f: f[attr] <= s
        return lambda f: f[attr] in s
    if op in ("min", "max"):
        if isinstance(arg, bool) or not isinstance(arg, (int, float)):
            raise RuleError(f"{attr}: {op!r} takes a number")
        return (lambda f: f[attr] >= arg) if op == "min" else (lambda f: f[attr] <= arg)
    if not isinstance(arg, str):
        raise RuleError(f"{attr}: {op!r} takes a string")
    if op in ("contains_attr", "includes_attr"):
        # contains_attr: this string contains another string attribute or is contained in it (the
        # capital "Tunis" and the name "Tunisia"); includes_attr: this string contains it whole
        # (the capital "Kuwait City" and the name "Kuwait"), one way only.
        if kinds.get(arg) != "str":
            raise RuleError(f"{attr}: {op} needs another string attribute, got {arg!r}")
        if op == "includes_attr":
            return lambda f: bool(f[arg]) and f[arg].lower() in f[attr].lower()
        return lambda f: (
            bool(f[attr]) and bool(f[arg]) and (f[arg].lower() in f[attr].lower() or f[attr].lower() in f[arg].lower())
        )
    low = arg.lower()
    if op == "startswith":
        return lambda f: f[attr].lower().startswith(low)
    if op == "endswith":
        return lambda f: f[attr].lower().endswith(low)
    return lambda f: low in f[attr].lower()
