"""A Schedule: one (library, mode) ready to schedule, and the one bounded cache of what it computes."""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from ... import season as _season
from ..._engines import ConnectionsEngine
from ..._impl import core

ITEMS = 4
TIERS = 4
WEEK = 7  # a label shown is not shown again within WEEK days; a family at most twice in WEEK days
MEMO_SIZE = 1 << 15  # entries kept per schedule: a year of days needs about 5000


class Memo:
    """One least-recently-used cache per schedule for everything it derives from a day or a
    category (plans, distances, drafts, member orders, walks, boards). Each entry is a pure function
    of its key (a tuple whose first item names the kind), so dropping one only costs recomputing it;
    the bound keeps a long-running server's memory flat."""

    def __init__(self, size: int = MEMO_SIZE) -> None:
        self.size = size
        self._data: OrderedDict[tuple[Any, ...], Any] = OrderedDict()
        self._lock = threading.Lock()  # a server's threads share one schedule

    def get(self, key: tuple[Any, ...]) -> Any:
        """The value kept for ``key``, or None."""
        with self._lock:
            hit = self._data.get(key)
            if hit is not None:
                self._data.move_to_end(key)
            return hit

    def put(self, key: tuple[Any, ...], value: Any) -> Any:
        """Keep ``value`` for ``key`` (dropping the least recently used beyond the bound); returns it."""
        with self._lock:
            self._data[key] = value
            if len(self._data) > self.size:
                self._data.popitem(last=False)
        return value

    def __len__(self) -> int:
        return len(self._data)

    def clear(self) -> None:
        """Drop every entry."""
        with self._lock:
            self._data.clear()


@dataclass(eq=False)
class Schedule:
    """One (library, mode) ready to schedule: the search's tables and each tier's rotation."""

    mode: str
    impl: ConnectionsEngine  # the engine (compiled or twin) whose tables these are
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
    ahead: int = -1  # the last day whose plans are computed (prepare.py); -1: none yet
    preparing: bool = False  # a background thread is computing plans ahead

    def rng(self, name: str) -> Any:
        """The Rng of this schedule's stream ``name`` (flagcore.season.keyed: keyed by season_key)."""
        return core.rng.Rng(_season.keyed(name, self.season_key))
