"""A Schedule: one (library, mode) ready to schedule, and the one bounded cache of what it computes."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from ... import season as _season
from ..._engines import ConnectionsEngine

ITEMS = 4
TIERS = 4
WEEK = 7  # a label shown is not shown again within WEEK days; a family at most twice in WEEK days
MEMO_SIZE = 1 << 15  # entries kept per schedule: a year of days needs about 5000

# The schedule's versions, each with the first day it schedules (days from the epoch). A change
# that would give any day another board is a new version from a day not yet published (a month
# ahead at least), so every day keeps the board of the version it was first scheduled by, with or
# without a store. Version 2 (from 2027-01-01, day 365): each tier's blocks spread a family's
# categories apart (flagcore.season.spread_blocks), family first (turns.balanced_shares). Version 3
# (from 2027-02-01, day 396): each day's four families first, across the tiers (families.py).
VERSIONS = ((0, 1), (365, 2), (396, 3))
LATEST = VERSIONS[-1][1]


def version_of(i: int) -> int:
    """The schedule version that schedules day i."""
    return max(v for first, v in VERSIONS if first <= i)


def version_start(version: int) -> int:
    """The first day the schedule version ``version`` schedules."""
    return next(first for first, v in VERSIONS if v == version)


class Memo:
    """One bounded cache per schedule for everything it derives from a day or a category (plans,
    distances, drafts, member orders, walks, boards). Each entry is a pure function of its key (a
    tuple whose first item names the kind), so dropping one only costs recomputing it; the bound
    keeps a long-running server's memory flat.

    Two generations, not an ordered LRU: a lookup is one or two dict reads with no lock (a new day
    makes about twenty, and an ordered dict's bookkeeping under a lock was a fifth of its time).
    New entries go to the young generation; when it holds ``size // 2`` the old one is dropped and
    the young one becomes old; an old entry read again moves back to the young one. So an entry in
    use survives, and at most ``size`` are kept. Threads share one schedule: each dict operation
    is atomic, and a race at worst recomputes an entry."""

    def __init__(self, size: int = MEMO_SIZE) -> None:
        self.size = size
        self._young: dict[tuple[Any, ...], Any] = {}
        self._old: dict[tuple[Any, ...], Any] = {}
        self._lock = threading.Lock()  # only for turning a full young generation old

    def get(self, key: tuple[Any, ...]) -> Any:
        """The value kept for ``key``, or None."""
        hit = self._young.get(key)
        if hit is None:
            hit = self._old.get(key)
            if hit is not None:
                self.put(key, hit)
        return hit

    def put(self, key: tuple[Any, ...], value: Any) -> Any:
        """Keep ``value`` for ``key`` (turning the young generation old when it is full); returns it."""
        young = self._young
        young[key] = value
        if len(young) >= self.size // 2:
            with self._lock:
                if young is self._young:
                    self._old, self._young = young, {}
        return value

    def __len__(self) -> int:
        return len(self._young.keys() | self._old.keys())

    def clear(self) -> None:
        """Drop every entry."""
        with self._lock:
            self._young, self._old = {}, {}


@dataclass(eq=False)
class Schedule:
    """One (library, mode) ready to schedule: the search's tables and each tier's rotation."""

    mode: str
    impl: ConnectionsEngine  # the engine (compiled or twin) whose tables these are
    engine_rng: Any  # the Rng engine of the same twin, read once with impl: every shuffle of the schedule
    tables: Any
    prepared: Any
    placeable: tuple[tuple[int, ...], ...]  # per tier: category indices some board can hold
    never: tuple[tuple[int, ...], ...]  # per tier: the others (listed last, for completeness)
    shares: tuple[tuple[tuple[int, ...], ...], ...]  # per tier, per shared turn: the rare categories in it
    certain: tuple[frozenset[int], ...]  # per category: its certain codes (code indices)
    fit: tuple[frozenset[int], ...]  # per category: every code that fits it, arguably or not
    fit_mask: tuple[int, ...]  # the same as bit sets (bit x: code x), for the members' lookups
    fact: tuple[int, ...]  # per category: 1 for a fact group (trivia mode), as the fixed search counts them
    min_facts: int  # fact groups a board must hold (tables.min_facts; 0: no rule)
    tier_of: tuple[int, ...]
    tags: tuple[int, ...]  # per category: its tag's index (-1: none); two of one tag never share a board
    identity: tuple[int, ...]  # per category: its label identity's index (the words a player sees)
    family: tuple[int, ...]  # per category: its family's index (the template a schedule rests)
    depth_order: tuple[int, ...]  # the tiers in the order they are planned and searched
    depth_orders: tuple[tuple[int, ...], ...]  # depth_order, then each other tier moved first
    rotations: list[_season.Rotation[int]] = field(default_factory=list)  # per tier; item -1 - j: shared turn j
    memo: Memo = field(default_factory=Memo)
    season_key: bytes | None = None  # None: the public schedule; else every random stream is keyed
    library: Any = None  # the Library it schedules (None: the bundled one), for the model's colours
    version: int = LATEST  # the schedule version (VERSIONS) these rotations are made by
    ahead: int = -1  # the last day whose plans are computed (prepare.py); -1: none yet
    preparing: bool = False  # a background thread is computing plans ahead
    pattern: Any = None  # from version 3: the families' Pattern (families.py) that plans each day

    def rng(self, name: str) -> Any:
        """The Rng of this schedule's stream ``name`` (flagcore.season.keyed: keyed by season_key)."""
        return self.engine_rng.Rng(_season.keyed(name, self.season_key))
