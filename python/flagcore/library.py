"""The flag and country library that Connections draws from.

``Library`` and ``Category`` are the contract between the data (flags/) and the engines.
``load_library`` (below) builds a Library from the bundled data or from a user's file.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Mapping

TIERS = ("yellow", "green", "blue", "purple")
MODES = ("flags", "trivia")
KINDS = ("library", "synthetic")


class LibraryError(ValueError):
    """A library file or category is broken; the message names the file, the category and the problem."""


@dataclass(frozen=True)
class Category:
    """One candidate group. ``pool`` holds every country that fits ``label``."""

    id: str
    label: str
    tier: int
    kind: str
    pool: frozenset[str]
    modes: frozenset[str] = frozenset(MODES)
    tag: str | None = None  # for kind == "synthetic": the flag tag it is made from
    extra: Mapping[str, object] = field(default_factory=dict, compare=False, hash=False)


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
    ) -> None:
        self.source = source
        self._names = dict(names)
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
            if len(cat.pool) < 4:
                raise LibraryError(f"{where}: pool has {len(cat.pool)} codes, needs at least 4")
            if not cat.modes or not cat.modes <= set(MODES):
                raise LibraryError(f"{where}: modes must be a non-empty subset of {MODES}")

    def name(self, code: str) -> str:
        try:
            return self._names[code]
        except KeyError:
            raise ValueError(f"code: unknown country code {code!r}") from None

    def tags(self, code: str) -> frozenset[str]:
        if code not in self._tags:
            raise ValueError(f"code: unknown country code {code!r}")
        return self._tags[code]

    def categories(self, mode: str) -> list[Category]:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
        return [c for c in self._categories if mode in c.modes]

    def __repr__(self) -> str:
        return f"<Library {self.source}: {len(self.codes)} countries, {len(self._categories)} categories>"
