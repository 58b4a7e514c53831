"""The scheduled daily Connections board: ``daily(date, mode)``, categories in rotation.

``generate("daily:YYYY-MM-DD")`` is a plain seed: each day's board is drawn alone, so a category
can come back the next day and a group (the same category, the same four flags) comes back whole.
``daily`` schedules instead. The board of day i (days from ``EPOCH``) is computed from its date,
the mode and the library alone, in three steps:

1. **Which categories.** Per tier, the categories that can be placed at all (some board holds
   them) rotate (:class:`flagcore.season.Rotation`): each has one turn per cycle of n days (n the
   tier's placeable categories), two turns are at least n - n // 5 days apart (13 purple flags
   categories: 11 days at least). The search takes, per tier, the day's planned category first,
   then the others farthest from a turn of their own first (so a category that had its turn in
   the past days is tried last), then the categories that can never be placed. It is the fixed
   search (``_connections.search_categories`` and its twin): the same pruning, so zero rule
   ambiguity and the arguable memberships respected; and since every candidate is listed, it is
   complete: when the planned four cannot form a board it falls back to others, never fails
   where ``generate`` would not.
2. **Which flags.** A category's certain codes are shuffled once (its member order, seed
   ``season|mode|id``). Its use in cycle u starts reading that order at offset
   o(u) = (4u + 4u // p) mod p (p codes): four fresh codes each cycle, shifted by one each time the
   order wraps, so the windows differ from round to round. The codes of the previous cycle's
   window go last. The group is the first four codes, in that order, that fit no other group on
   the board (the fixed search's exclusive codes). The previous use's members need no history:
   its window is o(u - 1), a function of u, and its members come from that window except where the
   board of that day took some of them out, so a return keeps at most as many of its previous
   four as that day skipped. A use off the plan (a fallback) reads from o(u) + 2, half a window away.
3. **The tiles** are shuffled by the Rng of ``season:MODE:YYYY-MM-DD``; no decoy (the rotation
   of members is the variety).

Everything random is the twins' mulberry32 and every step is a function of (date, mode,
library), so both twins and every machine give the same board. The board records
``seed="season:YYYY-MM-DD"``; its board id names a plain seed, so share a scheduled daily by its
date, not by its id.
"""

from __future__ import annotations

import datetime as _dt
import threading
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .. import season as _season
from .._args.season import EPOCH, as_mode
from .._impl import core
from ..errors import NoBoardError
from ..library import MODES, Library
from .board import Board, Group
from .generator import _tables_for

ITEMS = 4
TIERS = 4
_ATTR = "_flagcore_season"  # where a Library keeps its schedules (one per mode and engine)
_lock = threading.Lock()
LOOKBACK = 7  # days whose off-plan categories a day tries last

__all__ = ["EPOCH", "Schedule", "daily", "daily_categories", "schedule"]


@dataclass(eq=False)
class Schedule:
    """One (library, mode) ready to schedule: the search's tables and each tier's rotation."""

    mode: str
    tables: Any
    prepared: Any
    placeable: tuple[tuple[int, ...], ...]  # per tier: category indices some board can hold
    never: tuple[tuple[int, ...], ...]  # per tier: the others (listed last, for completeness)
    rotations: tuple[_season.Rotation[int], ...]
    certain: tuple[frozenset[int], ...]  # per category: its certain codes (code indices)
    fit: tuple[frozenset[int], ...]  # per category: every code that fits it, arguably or not
    member_order: tuple[tuple[int, ...], ...]  # per category: its certain codes, shuffled once
    tier_of: tuple[int, ...]
    drafts: dict[int, tuple[int, ...]] = field(default_factory=dict)  # first drafts by day (a cache)


def _sets(flat: np.ndarray, off: np.ndarray) -> tuple[frozenset[int], ...]:
    f, o = flat.tolist(), off.tolist()
    return tuple(frozenset(f[o[c] : o[c + 1]]) for c in range(len(o) - 1))


def _build(library: Library | None, mode: str) -> Schedule:
    impl = core.connections
    tables, prepared = _tables_for(impl, library, mode)
    toff = tables.tier_off.tolist()
    tiers = [tables.tier_flat[toff[t] : toff[t + 1]].tolist() for t in range(TIERS)]
    placeable: list[tuple[int, ...]] = []
    never: list[tuple[int, ...]] = []
    for t in range(TIERS):
        ok = []
        for c in tiers[t]:
            # the search restricted to c in its tier: complete, so a failure means no board holds c
            lists = [[c] if d == t else tiers[d] for d in range(TIERS)]
            flat = np.array([x for lst in lists for x in lst], dtype=np.int32)
            off = np.cumsum([0] + [len(lst) for lst in lists], dtype=np.int64).astype(np.int32)
            if impl.search_categories(prepared, flat, off)[0] == 0:
                ok.append(c)
        placeable.append(tuple(ok))
        never.append(tuple(c for c in tiers[t] if c not in ok))
    if not all(placeable):
        raise NoBoardError(
            f"connections: no valid category combination found (mode {mode!r}): the schedule needs "
            "a board, and no four categories of this library can form one without an ambiguous tile"
        )
    certain = _sets(tables.pool_flat, tables.pool_off)
    member_order = tuple(
        tuple(core.rng.shuffle(sorted(certain[c]), core.rng.Rng(f"season|{mode}|{cat.id}")))
        for c, cat in enumerate(tables.categories)
    )
    return Schedule(
        mode=mode,
        tables=tables,
        prepared=prepared,
        placeable=tuple(placeable),
        never=tuple(never),
        rotations=tuple(_season.Rotation(placeable[t], f"season|{mode}|{t}") for t in range(TIERS)),
        certain=certain,
        fit=_sets(tables.fit_flat, tables.fit_off),
        member_order=member_order,
        tier_of=tuple(c.tier for c in tables.categories),
    )


def schedule(library: Library | None, mode: str) -> Schedule:
    """The Schedule of (library, mode) for the engine in use, built once per Library object."""
    mode = as_mode(mode, MODES)
    impl = core.connections
    owner = library if library is not None else _tables_for(impl, None, mode)[0]
    per = owner.__dict__.get(_ATTR)
    key = (mode, impl.__name__)
    if per is not None and key in per:
        return per[key]  # type: ignore[no-any-return]
    with _lock:
        per = owner.__dict__.setdefault(_ATTR, {})
        if key not in per:
            per[key] = _build(library, mode)
        return per[key]  # type: ignore[no-any-return]


def preferred_order(s: Schedule, i: int, recent: frozenset[int] = frozenset()) -> tuple[list[list[int]], list[int]]:
    """(per tier the candidates in the order day i tries them, the planned category per tier).

    The planned category first; then the others, farthest from a turn of their own first, those
    in ``recent`` (what the days before took off the plan) after them; the never placeable last.
    """
    orders, planned = [], []
    for t in range(TIERS):
        rot = s.rotations[t]
        first = rot.at(i)
        rest = sorted((c for c in s.placeable[t] if c != first), key=lambda c: (c in recent, -rot.distance(c, i)))
        orders.append([first, *rest, *s.never[t]])
        planned.append(first)
    return orders, planned


def window(p: int, u: int) -> int:
    """Where use u of a category with p certain codes starts reading its member order."""
    return (ITEMS * u + ITEMS * u // p) % p


def members(s: Schedule, c: int, i: int, exclusive: frozenset[int]) -> list[int]:
    """The four codes category c gets on day i, from its exclusive codes (see the module docstring)."""
    order = s.member_order[c]
    p = len(order)
    t = s.tier_of[c]
    rot = s.rotations[t]
    if c in rot.cycle(0)[1]:
        u = rot.nearest_cycle(c, i)
        o = window(p, u) + (0 if rot.turn(c, u) == i else ITEMS // 2)
        previous = {order[(window(p, u - 1) + j) % p] for j in range(ITEMS)} if u > 0 else set()
    else:  # never placeable: cannot happen on a board; kept total for a hand-made library
        o, previous = 0, set()
    ring = order[o % p :] + order[: o % p]
    ranked = [x for x in ring if x not in previous] + [x for x in ring if x in previous]
    return [x for x in ranked if x in exclusive][:ITEMS]


def _search(s: Schedule, i: int, recent: frozenset[int]) -> tuple[list[int], list[int], list[int]]:
    orders, planned = preferred_order(s, i, recent)
    flat = np.array([c for o in orders for c in o], dtype=np.int32)
    off = np.cumsum([0] + [len(o) for o in orders], dtype=np.int64).astype(np.int32)
    status, cats, counters = core.connections.search_categories(s.prepared, flat, off)
    if status != 0:  # unreachable: every tier holds a placeable category and the order is complete
        raise NoBoardError(f"connections: the schedule found no board for day {i} (mode {s.mode!r})")
    return list(cats), planned, list(counters)


def first_draft(s: Schedule, i: int) -> tuple[int, ...]:
    """Day i's categories without looking back (the plan and the fallback order alone)."""
    cache = s.drafts
    hit = cache.get(i)
    if hit is None:
        if len(cache) >= 4096:
            cache.clear()
        hit = cache[i] = tuple(_search(s, i, frozenset())[0])
    return hit


def daily_categories(s: Schedule, i: int) -> tuple[list[int], list[int], list[int]]:
    """(the categories of day i per tier, the planned ones, the search's counters).

    The days before may have left their plan (a fallback); the categories their first drafts
    took within the last LOOKBACK days are tried after the others. A first draft looks at no
    earlier day, so a day costs LOOKBACK + 1 searches and nothing is replayed.
    """
    recent = frozenset(c for j in range(max(0, i - LOOKBACK), i) for c in first_draft(s, j))
    return _search(s, i, recent)


def board_of_day(s: Schedule, i: int) -> Board:
    """The scheduled Board of day i."""
    cats, planned, counters = daily_categories(s, i)
    day = _season.day_of(i).isoformat()
    groups, tiles = [], []
    for g, c in enumerate(cats):
        others = frozenset().union(*(s.fit[h] for h in cats if h != c))
        four = members(s, c, i, s.certain[c] - others)
        cat = s.tables.categories[c]
        codes = tuple(s.tables.codes[x] for x in four)
        groups.append(Group(tier=g, label=cat.label, codes=codes, category_id=cat.id))
        tiles.extend(codes)
    ids = [s.tables.categories[c].id for c in planned]
    stats = {
        "scheduled": True,
        "day": i,
        "planned": ids,
        "off_plan_tiers": [g for g in range(TIERS) if cats[g] != planned[g]],
        "moves_tried": counters[0],
        "backtracks": counters[1],
        "decoy_applied": False,
        "ambiguous_tiles": 0,
        "arguable_tiles": 0,
    }
    shuffled = core.rng.shuffle(tiles, core.rng.Rng(f"season:{s.mode}:{day}"))
    return Board(
        tiles=tuple(shuffled),
        groups=tuple(groups),
        seed=f"season:{day}",
        mode=s.mode,
        legacy=False,
        stats=stats,
        events=None,
    )


def daily(date: _dt.date | str | None = None, mode: str = "flags", *, library: Library | None = None) -> Board:
    """The scheduled Connections board of ``date`` (a date, 'YYYY-MM-DD', None: today in UTC).

    Categories rotate per tier and members rotate per category (see this module's docstring);
    the board is a board of the fixed search (no tile fits another group, even arguably).
    ``generate(daily_seed(date))`` is unchanged: a plain seed, no schedule. Raises TypeError/
    ValueError naming ``date`` (not a day, or before ``EPOCH``) or ``mode``.
    """
    i = _season.day_index(date)
    return board_of_day(schedule(library, mode), i)
