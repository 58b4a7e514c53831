"""Step 4, the flags: the four members a category gets on a day.

A category's use u (its turn count) picks its members. A pool of up to WALK_MAX certain codes deals
its 4-subsets in a walk where consecutive ones share at most 2; a larger one reads a shuffled
order four codes per use, reshuffled each lap. The previous use's group needs no history: it is
the walk's (or order's) entry u - 1, a function of u, and its codes go last. The group is the
first four codes in that order that fit no other group on the board (the fixed search's exclusive
codes), so a return keeps at most 2 of the previous four unless one of the boards took codes out.
A small pool whose entry u another group takes reads an entry that no use within a year of u
reads as its own (:func:`walk_members`).
"""

from __future__ import annotations

import itertools
from collections.abc import Container
from typing import Any

import numpy as np

from ... import season as _season
from ..._impl import core
from .state import ITEMS, Schedule
from .turns import own_turn, turns, uses_in_a_year

WALK_MAX = 10  # pools up to this size deal their 4-subsets in a walk (C(10, 4) = 210 groups)
RING, WALK = 0, 1  # the kinds of a reader (``reader``)

Walk = tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...]]


def subset_walk(p: int, key: str | int, rng: Any = None) -> tuple[tuple[int, ...], ...]:
    """Every 4-subset of range(p) once, consecutive ones sharing at most 2 (where the greedy walk
    can): the groups a small pool deals, one per use, before any comes back.

    Greedy over the subsets in a shuffled order (seed ``key``): each step takes the first subset not
    yet dealt that shares at most 2 with the last one, or, when none is left, the first not yet dealt.
    """
    rng = core.rng if rng is None else rng  # the schedule's engine (core.rng: the one in use)
    remaining = rng.shuffle(list(itertools.combinations(range(p), ITEMS)), rng.Rng(key))
    walk = [remaining.pop(0)]
    while remaining:
        last = set(walk[-1])
        j = next((j for j, sub in enumerate(remaining) if len(last.intersection(sub)) <= 2), 0)
        walk.append(remaining.pop(j))
    return tuple(walk)


def walk(s: Schedule, c: int) -> Walk:
    """A small pool's (subset walk, its entries as code bit sets, the pool's codes in the order the
    walk's indices name them), made once per category."""
    hit = s.memo.get(("walk", c))
    if hit is None:
        name = s.tables.categories[c].id
        subsets = subset_walk(
            len(s.certain[c]), _season.keyed(f"season|{s.mode}|{name}|walk", s.season_key), s.engine_rng
        )
        order = tuple(s.engine_rng.shuffle(sorted(s.certain[c]), s.rng(f"season|{s.mode}|{name}")))
        hit = s.memo.put(("walk", c), (subsets, tuple(sum(1 << order[k] for k in sub) for sub in subsets), order))
    return hit  # type: ignore[no-any-return]


def member_ring(s: Schedule, c: int, u: int) -> tuple[tuple[int, ...], int]:
    """Category c's certain codes in the order its use u reads them, as (sequence, start): the
    order is sequence[start:] + sequence[:start] (a large pool is not copied to rotate it)."""
    codes = s.certain[c]
    p = len(codes)
    if p <= WALK_MAX:  # a small pool: every 4-subset once, in a walk, then again
        subsets, _, order = walk(s, c)
        w = u % len(subsets)
        ring = s.memo.get(("ring", c, w))
        if ring is None:
            now = subsets[w]
            ring = s.memo.put(
                ("ring", c, w), tuple([order[j] for j in now] + [order[j] for j in range(p) if j not in now])
            )
        return ring, 0
    per_lap = max(1, p // ITEMS)
    lap, j = divmod(u, per_lap)
    shuffled = s.memo.get(("lap", c, lap))
    if shuffled is None:
        seed = f"season|{s.mode}|{s.tables.categories[c].id}|{lap}"
        shuffled = s.memo.put(("lap", c, lap), tuple(s.engine_rng.shuffle(sorted(codes), s.rng(seed))))
    return shuffled, ITEMS * j


def member_order(s: Schedule, c: int, u: int) -> list[int]:
    """Category c's certain codes in the order its use u reads them (see the module docstring)."""
    seq, start = member_ring(s, c, u)
    return list(seq[start:] + seq[:start])


def intended(s: Schedule, c: int, u: int) -> int:
    """The four codes use u of category c reads first, as a bit set (0 for a use before the first)."""
    if u < 0:
        return 0
    seq, start = member_ring(s, c, u)
    p = len(seq)
    mask = 0
    for k in range(start, start + ITEMS):
        mask |= 1 << seq[k - p if k >= p else k]
    return mask


def _offsets(s: Schedule, c: int, n: int) -> tuple[list[int], list[int]]:
    """(the offsets d of the walk's entries u + d that no use within a year of u reads as its own,
    the other offsets, the farthest uses' first) for category c, whose walk has n entries."""
    hit = s.memo.get(("offsets", c))
    if hit is None:
        year = uses_in_a_year(s, c)
        window = list(range(year + 1, n - year))
        rest = sorted((d for d in range(1, n) if not year < d < n - year), key=lambda d: (-min(d, n - d), d))
        hit = s.memo.put(("offsets", c), (window, rest))
    return hit  # type: ignore[no-any-return]


def walk_members(s: Schedule, c: int, u: int, taken: int, off_plan: bool) -> list[int]:
    """A small pool's four for use u: the walk's entry u when no other group takes its codes.

    Else an entry that no use within a year of u reads as its own: entries u + d with d between
    Y and n - Y (Y: the category's uses in a year, n: the walk's length), starting at a point that
    depends on u so that two displaced uses do not start alike; then the others, the entries of the
    uses farthest away first. Sharing at most 2 codes with use u - 1's entry where one can.
    A use ``off_plan`` tries entry u last (the use on its turn reads it)."""
    subsets, masks, order = walk(s, c)
    n = len(subsets)
    previous = masks[(u - 1) % n] if u > 0 else 0
    own = masks[u % n]
    if not off_plan and not own & taken and (own & previous).bit_count() <= 2:  # most uses
        return [order[k] for k in subsets[u % n]]
    window, rest = _offsets(s, c, n)
    if window:
        r = u * 7 % len(window)
        window = window[r:] + window[:r]
    # a group of another use of the year is worse than keeping 3 of the previous four: the entries
    # no other use of the year reads come first, each part sharing at most 2 where it can
    for part in (window + [0], rest) if off_plan else ([0] + window, rest):
        for strict in (True, False):
            for d in part:
                w = (u + d) % n
                if masks[w] & taken or strict and (masks[w] & previous).bit_count() > 2:
                    continue
                return [order[k] for k in subsets[w]]
    return []  # no four codes left free: the fixed search never makes such a board


def _pool_members(s: Schedule, c: int, u: int, taken: int, off_plan: bool) -> list[int]:
    """A large pool's four for use u: its order's codes not in the previous use's four first, then
    those; never one another group takes. A use off the plan reads half a window further."""
    seq, start = member_ring(s, c, u)
    previous = intended(s, c, u - 1)
    p = len(seq)
    if off_plan:
        start = (start + ITEMS // 2) % p
    four: list[int] = []
    # seq[k] for k from start - p to start - 1 reads the order from its start round to it (no copy)
    for skip in (taken | previous, taken | ~previous):
        for k in range(start - p, start):
            x = seq[k]
            if not skip >> x & 1:
                four.append(x)
                if len(four) == ITEMS:
                    return four
    return four


def _nearest_turn(s: Schedule, c: int, i: int) -> tuple[int, int] | None:
    """(the day, the use index) of category c's turn nearest day i, or None; kept for a day off
    c's turns (a repair of step 4c reads c's members many times a day, and turns() is dear)."""
    u_own = own_turn(s, c, i)  # most days: the day is c's turn (what turns() would find, cheaper)
    if u_own is not None:
        return i, u_own
    hit = s.memo.get(("nearest turn", c, i))
    if hit is None:
        hit = s.memo.put(
            ("nearest turn", c, i), min(turns(s, c, i), key=lambda du: (abs(du[0] - i), du[1]), default=None)
        )
    return hit  # type: ignore[no-any-return]


def members(s: Schedule, c: int, i: int, exclusive: Container[int] | int) -> list[int]:
    """The four codes category c gets on day i, from its exclusive codes (see the module docstring).

    ``exclusive`` is a set of codes, or a bit set (an int) of the codes that are *not* exclusive
    (the other groups' fit sets: what a board makes); the ring is read only as far as four codes."""
    if isinstance(exclusive, int):
        taken = exclusive
    else:
        taken = s.fit_mask[c] & ~sum(1 << x for x in s.certain[c] if x in exclusive)
    near = _nearest_turn(s, c, i)
    if near is None:  # never placeable: cannot happen on a board; kept total for a hand-made library
        return sorted(x for x in s.certain[c] if not taken >> x & 1)[:ITEMS]
    day, u = near
    if len(s.certain[c]) <= WALK_MAX:
        return walk_members(s, c, u, taken, day != i)
    return _pool_members(s, c, u, taken, day != i)


def reader(s: Schedule, c: int, i: int) -> tuple[Any, ...]:
    """What ``members(s, c, i, taken)`` reads, as data for the engine's ``repair_members`` (its
    twin, flagcore.reference.daily_repair, says how a reader reads): ``members(s, c, i, taken)``
    is ``read_four(reader(s, c, i), taken)`` for every bit set ``taken``."""
    near = _nearest_turn(s, c, i)
    if near is None:  # never placeable (a hand-made library): its codes in order
        return (RING, _codes_array(s, ("sorted", c), sorted(s.certain[c])), 0, 0)
    day, u = near
    if len(s.certain[c]) <= WALK_MAX:
        subsets, _, order = walk(s, c)
        entries = s.memo.get(("walk entries", c))
        if entries is None:
            window, rest = _offsets(s, c, len(subsets))
            rows = np.array([[order[k] for k in sub] for sub in subsets], dtype=np.int32)
            entries = s.memo.put(("walk entries", c), (rows, np.array(window, np.int32), np.array(rest, np.int32)))
        return (WALK, *entries, u, day != i)
    seq, start = member_ring(s, c, u)
    if day != i:
        start = (start + ITEMS // 2) % len(seq)
    lap = u // max(1, len(seq) // ITEMS)  # member_ring's lap of use u: its order's key
    return (RING, _codes_array(s, ("lap array", c, lap), seq), start, intended(s, c, u - 1))


def _codes_array(s: Schedule, key: tuple[Any, ...], codes: Any) -> Any:
    hit = s.memo.get(key)
    if hit is None:
        hit = s.memo.put(key, np.array(codes, dtype=np.int32))
    return hit
