"""What a library is: ``Category`` (one candidate group) and ``Library`` (countries, flag tags,
categories), the contract between the data (flags/) and the engines."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from .._args.connections import MODES, as_code, as_mode
from .._connections_layout import TIER_NAMES as TIERS
from ..errors import LibraryError
from .readings import ReadingIndex

__all__ = ["KINDS", "MODES", "TIERS", "Category", "Library", "identities", "label_key"]

KINDS = ("library", "synthetic")


@dataclass(frozen=True)
class Category:
    """One candidate group. ``pool`` holds every country that fits ``label`` on the data's main reading.

    ``arguable`` holds the countries (never in the pool) that a reasonable player could argue fit
    the label too: the rule holds under one of their alternative readings (an emblem colour, thin
    lines read as stripes, ...) or the data lists them by hand. ``doubtful`` holds the pool codes a
    player could argue do *not* fit: the rule fails under one of their alternative readings, or the
    data lists them by hand (a reading of this label alone). A
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
    # Its template ("vertical-stripes", "official-language", ...): what a schedule rests between
    # days. Empty in a Category built by hand: the Library gives it a family of its own (its id).
    family: str = ""
    # Every label a group of it can show: its own, and the simpler label an idle clause shows
    # (flags/difficulty.json). Empty: the label alone.
    shown: tuple[str, ...] = ()
    # The label identity, filled in by the Library: categories that can show the same words share
    # one (see Library), so a schedule that rotates by it never shows a player the same label twice.
    identity: str = ""

    @property
    def certain(self) -> frozenset[str]:
        """The pool codes that fit the label under every reading: where a group's tiles come from."""
        return self.pool - self.doubtful if self.doubtful else self.pool

    @property
    def labels(self) -> tuple[str, ...]:
        """Every label a group of it can show, its own first (``shown`` plus ``label``)."""
        return tuple(dict.fromkeys((self.label, *self.shown)))


def label_key(label: str) -> str:
    """The words a player reads: the label without case or surrounding spaces."""
    return " ".join(label.split()).lower()


def identities(categories: Iterable[Category]) -> dict[str, str]:
    """Each category's label identity, by id: categories that can show the same words (a label or
    an idle clause's simpler label) are one identity, transitively (one union of labels).

    An identity is named by the words most of its categories can show (ties: the first category's
    first label in the given order), so "three vertical stripes" names the five categories that
    show those words when their clauses are idle.
    """
    cats = list(categories)
    parent = list(range(len(cats)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    first: dict[str, int] = {}
    for i, cat in enumerate(cats):
        for label in cat.labels:
            j = first.setdefault(label_key(label), i)
            parent[root(i)] = root(j)
    members: dict[int, list[int]] = {}
    for i in range(len(cats)):
        members.setdefault(root(i), []).append(i)
    out: dict[str, str] = {}
    for group in members.values():
        counts: dict[str, int] = {}
        for i in group:
            for label in cats[i].labels:
                key = label_key(label)
                counts[key] = counts.get(key, 0) + 1
        name = max(counts, key=lambda k: counts[k])  # dicts keep order: the first of the most shown
        for i in group:
            out[cats[i].id] = name
    return out


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
        readings: Mapping[str, Iterable[Mapping[str, Any]]] | None = None,
        index: ReadingIndex | None = None,
    ) -> None:
        self.source = source
        self._names = dict(names)
        # Every attribute a rule can test, per code (country facts and flag facts together).
        self._facts = {code: dict(facts.get(code, {})) for code in self._names} if facts else {}
        # The same under each alternative reading the data allows (its "arguable" values).
        self._readings = {code: [dict(r) for r in readings.get(code, ())] for code in self._names} if readings else {}
        self.codes: list[str] = sorted(self._names)
        self._tags = {code: frozenset(tags.get(code, ())) for code in self.codes}
        self._categories = list(categories)
        # the readings indexed by the attributes they change (load_library built it for the
        # categories' arguable sets; else built at the first fitting() call)
        self._index = index
        self._check()
        # every category with its family (its own id when none is given) and its label identity
        named = identities(self._categories)
        self._categories = [replace(c, family=c.family or c.id, identity=named[c.id]) for c in self._categories]

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
            if not isinstance(cat.family, str):
                raise LibraryError(f"{where}: family must be a string, not {type(cat.family).__name__}")
            if not isinstance(cat.shown, tuple) or not all(isinstance(x, str) and x.strip() for x in cat.shown):
                raise LibraryError(f"{where}: shown must be a tuple of non-empty labels")

    def name(self, code: str) -> str:
        """The country's short English name ("Türkiye"); ValueError for a code not in the library."""
        return self._names[as_code(code, self._names)]

    def tags(self, code: str) -> frozenset[str]:
        """The flag's tags ("colour:red", "stripes:horizontal", ...) from which synthetic categories are made."""
        return self._tags[as_code(code, self._names)]

    def facts(self, code: str) -> dict[str, Any]:
        """The attributes of ``code`` that category rules test (empty for a Library built in memory)."""
        return dict(self._facts.get(as_code(code, self._names), {}))

    def readings(self, code: str) -> list[dict[str, Any]]:
        """``facts(code)`` under each alternative reading of its arguable values (empty without any)."""
        return [dict(r) for r in self._readings.get(as_code(code, self._names), ())]

    def fitting(
        self, fits: Callable[[Mapping[str, Any]], bool], reads: Iterable[Hashable] | None = None
    ) -> frozenset[str]:
        """The codes whose facts ``fits`` under the main reading or any alternative one; ``reads``:
        what ``fits`` reads (rules.rule_reads: only the readings that change it are evaluated),
        None: every reading."""
        if self._index is None:
            self._index = ReadingIndex(self._facts, self._readings)
        return self._index.fitting(fits, reads)

    def families(self, mode: str) -> dict[str, list[Category]]:
        """The categories of ``mode`` by family, families in order of their first category."""
        out: dict[str, list[Category]] = {}
        for cat in self.categories(mode):
            out.setdefault(cat.family, []).append(cat)
        return out

    def categories(self, mode: str) -> list[Category]:
        """The candidate categories of ``mode`` ("flags" or "trivia"), library and synthetic, in a fixed order."""
        mode = as_mode(mode)
        return [c for c in self._categories if mode in c.modes]

    def __repr__(self) -> str:
        return f"<Library {self.source}: {len(self.codes)} countries, {len(self._categories)} categories>"
