"""The readings' index (library.readings.ReadingIndex with rules.rule_reads): a rule is evaluated
only on the alternative readings that change what it reads, and that gives exactly what evaluating
it on every reading gives: the arguable and doubtful sets (and their reasons, in order) of every
bundled category, the difficulty model's named sets, and random rules on random readings."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from flagcore.connections import difficulty
from flagcore.library import ATTRIBUTE_KINDS, load_library, rules
from flagcore.library.readings import ReadingIndex, arguable_sets
from flagcore.library.rules import compile_rule

HERE = Path("<test>")


def _brute_fitting(facts: dict[str, Any], alts: dict[str, list[Any]], fits: Any) -> frozenset[str]:
    return frozenset(code for code in facts if any(fits(f) for f in (facts[code], *alts.get(code, ())) if f))


def test_every_bundled_category_gets_what_every_reading_gives() -> None:
    lib = load_library()
    index = lib._index
    assert index is not None  # load_library built it for the categories and gave it to the Library
    readings = {code: list(zip(alts, [()] * len(alts))) for code, alts in index.alternatives.items()}
    ruled = [c for c in lib._categories if c.kind == "library" and "rule" in c.extra]
    assert len(ruled) > 100
    touched = 0
    for cat in ruled:
        fits = compile_rule(cat.extra["rule"], ATTRIBUTE_KINDS)
        reads = rules.rule_reads(cat.extra["rule"], ATTRIBUTE_KINDS)
        some = sum(len(ks) for _, ks in index.touching(reads))
        every = sum(len(ks) for _, ks in index.touching(None))
        assert some <= every
        touched += some
        fast = arguable_sets(HERE, cat.id, fits, cat.pool, readings, None, lib.codes, index, reads)
        slow = arguable_sets(HERE, cat.id, fits, cat.pool, readings, None, lib.codes)
        assert [list(d.items()) for d in fast] == [list(d.items()) for d in slow], cat.id
    assert touched < len(ruled) * every / 4  # the index does skip most readings


def test_the_models_named_sets_are_what_every_reading_gives() -> None:
    lib = load_library()
    _, entries = difficulty.difficulty_data()
    named = [(cid, e) for cid, e in entries.items() if "_rule" in e]
    assert len(named) > 50
    facts = {code: lib.facts(code) for code in lib.codes}
    alts = {code: lib.readings(code) for code in lib.codes}
    for cid, entry in named:
        assert lib.fitting(entry["_rule"], entry["_reads"]) == _brute_fitting(facts, alts, entry["_rule"]), cid


# random rules over a small set of attributes, on random countries with random readings
KINDS = {"colours": "set", "stars": "number", "name": "str", "capital": "str", "island": "bool"}
MEMBERS = ["red", "white", "blue", "green"]
WORDS = ["ab", "abc", "b", "ca", ""]

_set_cond = st.one_of(
    st.sampled_from(MEMBERS),
    st.fixed_dictionaries({"has": st.sampled_from(MEMBERS)}),
    st.builds(
        lambda op, xs: {op: xs},
        st.sampled_from(["has_all", "has_any", "has_none", "eq", "subset_of"]),
        st.lists(st.sampled_from(MEMBERS), max_size=3),
    ),
)
_leaf = st.one_of(
    st.builds(lambda c: {"colours": c}, _set_cond),
    st.builds(lambda op, n: {"stars": {op: n}}, st.sampled_from(["min", "max"]), st.integers(0, 3)),
    st.builds(lambda xs: {"stars": {"in": xs}}, st.lists(st.integers(0, 3), max_size=3)),
    st.builds(lambda w: {"name": {"contains": w}}, st.sampled_from(WORDS[:-1])),
    st.builds(lambda op: {"capital": {op: "name"}}, st.sampled_from(["contains_attr", "includes_attr"])),
    st.builds(lambda b: {"island": b}, st.booleans()),
)
_rules = st.recursive(
    _leaf,
    lambda sub: st.one_of(
        st.builds(lambda rs: {"any": rs}, st.lists(sub, min_size=1, max_size=3)),
        st.builds(lambda r: {"not": r}, sub),
        st.builds(lambda a, b: {**a, **b}, sub, sub),
    ),
    max_leaves=6,
)
_facts = st.fixed_dictionaries(
    {
        "colours": st.frozensets(st.sampled_from(MEMBERS)),
        "stars": st.integers(0, 3),
        "name": st.sampled_from(WORDS),
        "capital": st.sampled_from(WORDS),
        "island": st.booleans(),
    }
)


@st.composite
def _countries(draw: st.DrawFn) -> tuple[dict[str, dict[str, Any]], dict[str, list[dict[str, Any]]]]:
    facts: dict[str, dict[str, Any]] = {}
    alts: dict[str, list[dict[str, Any]]] = {}
    for k in range(draw(st.integers(1, 6))):
        code = f"C{k}"
        facts[code] = draw(_facts)
        readings = []
        for other in draw(st.lists(_facts, max_size=3)):  # a reading: the main facts, some attributes changed
            changed = draw(st.sets(st.sampled_from(sorted(KINDS)), max_size=2))
            readings.append({**facts[code], **{a: other[a] for a in changed}})
        if readings:
            alts[code] = readings
    return facts, alts


@settings(max_examples=300, deadline=None)
@given(_rules, _countries())
def test_random_rules_on_random_readings(rule: Any, countries: Any) -> None:
    facts, alts = countries
    fits = compile_rule(rule, KINDS)
    reads = rules.rule_reads(rule, KINDS)
    index = ReadingIndex(facts, alts)
    assert index.fitting(fits, reads) == _brute_fitting(facts, alts, fits)
    pool = frozenset(code for code, f in facts.items() if fits(f))
    readings = {code: [(f, (f"{code}#{k}",)) for k, f in enumerate(fs)] for code, fs in alts.items()}
    fast = arguable_sets(HERE, "c", fits, pool, readings, None, facts, index, reads)
    slow = arguable_sets(HERE, "c", fits, pool, readings, None, facts)
    assert [list(d.items()) for d in fast] == [list(d.items()) for d in slow]
