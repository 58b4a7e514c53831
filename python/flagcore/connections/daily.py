"""The scheduled daily Connections board: ``daily(date, mode)``, categories and flags in rotation.

``generate("daily:YYYY-MM-DD")`` is a plain seed: each day's board is drawn alone, so a category
can come back the next day and a group (the same category, the same four flags) comes back whole.
``daily`` schedules instead. The board of day i (days from ``EPOCH``) is computed from its date,
the mode and the library alone; nothing before it is replayed.

1. **Turns.** Per tier, the categories that some board can hold rotate
   (:class:`flagcore.season.Rotation`): one turn each per cycle, in blocks, so two turns of a
   category are at least n - n // 5 days apart (n turns per cycle). Categories with fewer than
   RARE_BELOW certain codes cannot come back without keeping 3 of their 4 flags: they share turns
   (each shared turn goes to one of them in turn), as few shared turns as bring each back within
   a year. In trivia mode a board holds at least ``min_facts`` fact groups (about the country, not
   its flag's look), and with every category once per cycle the average day would hold fewer than
   two: the look categories share turns in pairs, so facts come about twice as often as looks, and
   the plan's matching (step 2) also asks that a day can still hold its fact groups.
2. **Plan.** The tiers are planned one after the other, the one with fewest turns first. Within
   each block of a cycle, the next tier's categories are matched to the block's days so that, as
   far as a matching allows, each day's planned categories form a board (the fixed search finds
   one with them and a category of each tier still to plan from that tier's block): conflicting
   categories (one that crowds another's flags out) are kept apart, inside their blocks, so the
   gap bound stands. Among those days, a category first tries the ones where no other planned
   group's fit set takes any of the four flags its use deals (step 4): then every group of the
   day gets its own four, and a group comes back only when its category's rotation of fours does.
3. **Search.** The fixed search (``_connections.search_categories`` and its twin: the same pruning,
   so zero rule ambiguity and the arguable memberships respected) over the day's preferred order:
   per tier the planned category, then categories owed a turn (their turn in the last LOOKBACK
   days went to another one), then the rest farthest from a turn of their own first (the small
   pools after the others: off its shared turn a small pool repeats a group), those the last
   LOOKBACK days took off the plan after them, the never placeable last. Every candidate is
   listed, so the search is complete: when the planned four cannot form a board it falls back to
   others, never fails where ``generate`` would not. Off the plan, the search runs once with each
   tier kept longest and the board whose off-plan category is farthest from its own turns wins.
   What the last LOOKBACK days took comes from their first drafts (their search without this
   step), so a day costs a bounded number of searches.
4. **Flags.** A category's use u (its turn count) picks its members. A pool of up to WALK_MAX
   certain codes deals its 4-subsets in a walk where consecutive ones share at most 2; a larger
   one reads a shuffled order four codes per use, reshuffled each lap. The previous use's
   group needs no history: it is the walk's (or order's) entry u - 1, a function of u, and its
   codes go last. The group is the first four codes in that order that fit no other group on the
   board (the fixed search's exclusive codes), so a return keeps at most 2 of the previous four
   unless one of the boards took codes out. A small pool whose entry u another group takes reads
   an entry that no use within a year of u reads as its own (``_walk_members``).
5. **Tiles** are shuffled by the Rng of ``season:MODE:YYYY-MM-DD``; no decoy.

Everything random is the twins' mulberry32 and every step is a function of (date, mode,
library), so both twins and every machine give the same board. The board records
``seed="season:YYYY-MM-DD"``; its board id would name a plain seed, so a scheduled daily is
shared by its date. A library with other categories gives another schedule, for every day.
"""

from __future__ import annotations

import datetime as _dt
import functools
import itertools
import threading
from collections.abc import Container
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .. import season as _season
from .._args.connections import as_mode
from .._args.season import EPOCH
from .._impl import core
from ..errors import NoBoardError
from ..library import Library
from .board import Board, Group, frozen_from_fields
from .difficulty import category_difficulty, colour_by_model, model_tables
from .tables import default_library, tables_for

ITEMS = 4
TIERS = 4
_ATTR = "_flagcore_season"  # where a Library keeps its schedules (one per mode and engine)
_lock = threading.Lock()
LOOKBACK = 7  # days whose off-plan categories a day tries last
# A category with fewer certain codes cannot come back without keeping 3 of its 4 previous
# members. The rare ones of a tier share turns: each shared turn of the rotation goes to one of
# its rare categories in turn, so each comes back that many times less often, but at least once
# in YEAR days (as few shared turns as allow that).
RARE_BELOW = 6
YEAR = 364
WALK_MAX = 10  # pools up to this size deal their 4-subsets in a walk (C(10, 4) = 210 groups)
FAR = 1 << 30  # the distance of a category with no turn near a day
BOARD_CACHE = 1024  # boards kept per schedule: a server asks for the same few days all day

__all__ = ["EPOCH", "Schedule", "daily", "daily_categories", "schedule"]


@dataclass(eq=False)
class Schedule:
    """One (library, mode) ready to schedule: the search's tables and each tier's rotation."""

    mode: str
    tables: Any
    prepared: Any
    placeable: tuple[tuple[int, ...], ...]  # per tier: category indices some board can hold
    never: tuple[tuple[int, ...], ...]  # per tier: the others (listed last, for completeness)
    shares: tuple[tuple[tuple[int, ...], ...], ...]  # per tier, per shared turn: the rare categories in it
    rotations: list[_season.Rotation[int]]  # per tier; item -1 - j is the tier's shared turn j
    certain: tuple[frozenset[int], ...]  # per category: its certain codes (code indices)
    fit: tuple[frozenset[int], ...]  # per category: every code that fits it, arguably or not
    fit_mask: tuple[int, ...]  # the same as bit sets (bit x: code x), for the members' lookups
    fact: tuple[int, ...]  # per category: 1 for a fact group (trivia mode), as the fixed search counts them
    min_facts: int  # fact groups a board must hold (tables.min_facts; 0: no rule)
    tier_of: tuple[int, ...]
    depth_order: tuple[int, ...]  # the tiers in the order they are planned and searched
    depth_orders: tuple[tuple[int, ...], ...] = ()  # depth_order, then each other tier moved first
    drafts: dict[int, tuple[int, ...]] = field(default_factory=dict)  # first drafts by day (a cache)
    orders: dict[Any, Any] = field(default_factory=dict)  # member orders and previous fours (a cache)
    boards: dict[int, tuple[Board, list[int], list[int]]] = field(default_factory=dict)  # _made() by day (a cache)
    coloured: dict[int, Board] = field(default_factory=dict)  # the same, coloured by the model (a cache)
    walks: dict[int, Any] = field(default_factory=dict)  # small pools' subset walks (_walk)
    offsets: dict[int, tuple[list[int], list[int]]] = field(default_factory=dict)  # _offsets() by category
    near: dict[tuple[int, int], dict[int, int]] = field(default_factory=dict)  # distances by (tier, day)
    plans: dict[int, tuple[tuple[int, int], ...]] = field(default_factory=dict)  # plan() by day (a cache)


def _sets(flat: np.ndarray, off: np.ndarray) -> tuple[frozenset[int], ...]:
    f, o = flat.tolist(), off.tolist()
    return tuple(frozenset(f[o[c] : o[c + 1]]) for c in range(len(o) - 1))


def _build(library: Library | None, mode: str) -> Schedule:
    impl = core.connections
    tables, prepared = tables_for(impl, library, mode)
    toff = tables.tier_off.tolist()
    tiers = [tables.tier_flat[toff[t] : toff[t + 1]].tolist() for t in range(TIERS)]
    placeable: list[tuple[int, ...]] = []
    never: list[tuple[int, ...]] = []
    for t in range(TIERS):
        ok = []
        for c in tiers[t]:
            # the search restricted to c in its tier: complete, so a failure means no board holds c
            if _found(impl, prepared, [[c] if d == t else tiers[d] for d in range(TIERS)]):
                ok.append(c)
        placeable.append(tuple(ok))
        never.append(tuple(c for c in tiers[t] if c not in ok))
    if not all(placeable):
        raise NoBoardError(
            f"connections: no valid category combination found (mode {mode!r}): the schedule needs "
            "a board, and no four categories of this library can form one without an ambiguous tile"
        )
    certain = _sets(tables.pool_flat, tables.pool_off)
    fit = _sets(tables.fit_flat, tables.fit_off)
    facts = tables.fact.tolist()
    shares = tuple(
        _shares(placeable[t], certain, mode, t) + _look_pairs(placeable[t], certain, facts, tables.min_facts, mode, t)
        for t in range(TIERS)
    )
    sched = Schedule(
        mode=mode,
        tables=tables,
        prepared=prepared,
        placeable=tuple(placeable),
        never=tuple(never),
        shares=shares,
        rotations=[],
        certain=certain,
        fit=fit,
        fit_mask=tuple(sum(1 << x for x in f) for f in fit),
        fact=tuple(tables.fact.tolist()),
        min_facts=int(tables.min_facts),
        tier_of=tuple(c.tier for c in tables.categories),
        depth_order=tuple(sorted(range(TIERS), key=lambda t: (_turns_per_cycle(placeable[t], shares[t]), t))),
    )
    sched.depth_orders = (sched.depth_order,) + tuple(
        (t, *(d for d in sched.depth_order if d != t)) for t in sched.depth_order[1:]
    )
    tags = tables.tag_index.tolist()

    def pair_fits(a: int, b: int) -> bool:
        # necessary for a and b on one board: each keeps 4 certain codes outside the other's fit set
        if tags[a] >= 0 and tags[a] == tags[b]:
            return False
        return len(certain[a] - fit[b]) >= ITEMS and len(certain[b] - fit[a]) >= ITEMS

    # Tiers are planned one after the other, the one with fewest turns first (free), each later
    # one matched, block by block, to the days of the earlier ones' categories: a category fits a
    # day when the fixed search finds a board with it, the earlier tiers' planned categories and,
    # for each tier still to plan, a category of the block that tier deals that day.
    # The weekly rhythm: within each block of a rotation the categories a player sees more readily
    # (the difficulty model's salience) go to the earlier weekdays, so the week runs easy to hard.
    salience = [category_difficulty(cat, library).salience for cat in tables.categories]

    def ease(item: int, k: int, t: int) -> float:
        return salience[rare_member(sched, t, -1 - item, k) if item < 0 else item]

    rotations: list[Any] = []
    for t in range(TIERS):
        ease_t = functools.partial(ease, t=t)
        shared = {c for share in shares[t] for c in share}
        items = [c for c in placeable[t] if c not in shared] + [-1 - j for j in range(len(shares[t]))]
        rotations.append(_season.Rotation(items, f"season|{mode}|{t}", ease=ease_t))
    sched.rotations = rotations

    def block_at(t: int, i: int) -> list[int]:
        rot = rotations[t]
        k, pos = divmod(i, rot.n)
        block = rot.blocks[pos // len(rot.blocks[0])]
        return [rare_member(sched, t, -1 - x, k) if x < 0 else x for x in block]

    for step, t in enumerate(sched.depth_order):
        earlier = sched.depth_order[:step]

        def fits(item: int, i: int, earlier: tuple[int, ...] = earlier, t: int = t) -> int:
            c = rare_member(sched, t, -1 - item, i // rotations[t].n) if item < 0 else item
            planned = {e: planned_at(sched, e, i) for e in earlier}
            if not all(pair_fits(c, o) for o in planned.values()):
                return 0
            if sched.min_facts:  # the day must still be able to hold its fact groups
                later = [d for d in range(TIERS) if d != t and d not in planned]
                could = sum(1 for d in later if any(sched.fact[x] for x in block_at(d, i)))
                if sched.fact[c] + sum(sched.fact[o] for o in planned.values()) + could < sched.min_facts:
                    return 0
            lists = [[c] if d == t else [planned[d]] if d in planned else block_at(d, i) for d in range(TIERS)]
            if not _found(impl, prepared, lists):
                return 0
            # better still where each planned group keeps its own four (no other group takes one of
            # them): then a group comes back only when its category's rotation of fours does
            mine = intended(sched, c, use_at(sched, t, item, i))
            for e, o in planned.items():
                theirs = intended(sched, o, use_at(sched, e, rotations[e].at(i), i))
                if mine & sched.fit_mask[o] or theirs & sched.fit_mask[c]:
                    return 1
            return 2

        rotations[t].fits = fits
    return sched


def _planned_search(s: Schedule, planned: list[int]) -> tuple[int, Any, Any]:
    """The fixed search over one category per tier (status 0: they form a board)."""
    flat = np.array([planned[t] for t in s.depth_order], dtype=np.int32)
    return core.connections.search_categories(s.prepared, flat, _ONE_EACH)  # type: ignore[no-any-return]


_ONE_EACH = np.arange(TIERS + 1, dtype=np.int32)  # offsets of four one-category lists


def _found(impl: Any, prepared: Any, lists: list[list[int]]) -> bool:
    """Whether the fixed search finds a board with tier d drawn from lists[d]."""
    flat = np.array([x for lst in lists for x in lst], dtype=np.int32)
    a, b, c = len(lists[0]), len(lists[1]), len(lists[2])
    off = np.array([0, a, a + b, a + b + c, a + b + c + len(lists[3])], dtype=np.int32)
    return bool(impl.search_categories(prepared, flat, off)[0] == 0)


def schedule(library: Library | None, mode: str) -> Schedule:
    """The Schedule of (library, mode) for the engine in use, built once per Library object."""
    mode = as_mode(mode)
    impl = core.connections
    owner = library if library is not None else default_library()  # the schedules live on the Library
    per = owner.__dict__.get(_ATTR)
    key = (mode, impl.__name__)
    if per is not None and key in per:
        return per[key]  # type: ignore[no-any-return]
    with _lock:
        per = owner.__dict__.setdefault(_ATTR, {})
        if key not in per:
            per[key] = _build(library, mode)
        return per[key]  # type: ignore[no-any-return]


def _turns_per_cycle(placeable: tuple[int, ...], shares: tuple[tuple[int, ...], ...]) -> int:
    return len(placeable) - sum(len(x) for x in shares) + len(shares)


def _shares(
    placeable: tuple[int, ...], certain: tuple[frozenset[int], ...], mode: str, t: int
) -> tuple[tuple[int, ...], ...]:
    """The tier's rare categories dealt into the fewest shared turns that bring each back within YEAR days."""
    rare = [c for c in placeable if len(certain[c]) < RARE_BELOW]
    if not rare:
        return ()
    if len(rare) == 1:  # one alone would keep a turn of its own: it shares with the largest pool
        rare.append(max((c for c in placeable if c not in rare), key=lambda c: (len(certain[c]), -c)))
    regular = len(placeable) - len(rare)
    k = next(k for k in range(1, len(rare) + 1) if -(-len(rare) // k) * (regular + k) <= YEAR or k == len(rare))
    rare = core.rng.shuffle(rare, core.rng.Rng(f"season|{mode}|{t}|shares"))
    return tuple(tuple(rare[j::k]) for j in range(k))


def _look_pairs(
    placeable: tuple[int, ...], certain: tuple[frozenset[int], ...], facts: list[int], min_facts: int, mode: str, t: int
) -> tuple[tuple[int, ...], ...]:
    """Where boards must hold fact groups (trivia), the tier's look categories (about the flag, not
    the country) in pairs that share a turn: each comes back half as often, so the days' plans hold
    about twice as many facts as looks and the matching can give every day its fact groups (with
    each category once per cycle the average day would hold fewer than two). An odd one out joins
    the last pair (a look alone would come back twice as often as the others)."""
    if not min_facts:
        return ()
    looks = [c for c in placeable if not facts[c] and len(certain[c]) >= RARE_BELOW]
    looks = core.rng.shuffle(looks, core.rng.Rng(f"season|{mode}|{t}|looks"))
    pairs = [looks[j : j + 2] for j in range(0, len(looks) - 1, 2)]
    if len(looks) % 2 and pairs:
        pairs[-1].append(looks[-1])
    return tuple(tuple(p) for p in pairs)


def rare_member(s: Schedule, t: int, j: int, k: int) -> int:
    """The rare category that has tier t's shared turn j in cycle k: each in turn, in a fixed order."""
    share = s.shares[t][j]
    return share[k % len(share)]


def planned_at(s: Schedule, t: int, i: int) -> int:
    """The category tier t plans for day i."""
    rot = s.rotations[t]
    item = rot.at(i)
    return rare_member(s, t, -1 - item, i // rot.n) if item < 0 else item


def plan(s: Schedule, i: int) -> tuple[tuple[int, int], ...]:
    """Per tier, (the category planned for day i, its use index: the turns it had before this one)."""
    hit = s.plans.get(i)
    if hit is None:
        if len(s.plans) >= 4096:
            s.plans.clear()
        out = []
        for t, rot in enumerate(s.rotations):
            k = i // rot.n
            item = rot.at(i)
            if item >= 0:
                out.append((item, k))
            else:  # a shared turn: its rare categories take it in turn, one lap each
                share = s.shares[t][-1 - item]
                out.append((share[k % len(share)], k // len(share)))
        hit = s.plans[i] = tuple(out)
    return hit


def own_turn(s: Schedule, c: int, i: int) -> int | None:
    """Category c's use index when day i is its own turn (it is the day's planned category), else None."""
    planned, u = plan(s, i)[s.tier_of[c]]
    return u if planned == c else None


def turns(s: Schedule, c: int, i: int) -> list[tuple[int, int]]:
    """(day, use index) of category c's turns in day i's cycle and its neighbours."""
    t = s.tier_of[c]
    rot = s.rotations[t]
    k = i // rot.n
    cycles = [q for q in (k - 1, k, k + 1) if q >= 0]
    if c in rot.cycle(0)[1]:
        return [(rot.turn(c, q), q) for q in cycles]
    for j, share in enumerate(s.shares[t]):
        if c in share:  # its use index counts its own turns: one per lap of the shared turn
            return [(rot.turn(-1 - j, q), q // len(share)) for q in cycles if rare_member(s, t, j, q) == c]
    return []


def distances(s: Schedule, t: int, i: int) -> dict[int, int]:
    """Days from day i to each category's nearest turn in tier t (in day i's cycle or a neighbour);
    a category with no turn there (a rare one between its turns) is absent: it is far."""
    hit = s.near.get((t, i))
    if hit is not None:
        return hit
    if len(s.near) >= 4096:
        s.near.clear()
    rot = s.rotations[t]
    k = i // rot.n
    out: dict[int, int] = {}
    for q in (k - 1, k, k + 1):
        if q < 0:
            continue
        base = q * rot.n - i
        for j, item in enumerate(rot.cycle(q)[0]):
            c = rare_member(s, t, -1 - item, q) if item < 0 else item
            d = abs(base + j)
            if d < out.get(c, FAR):
                out[c] = d
    s.near[(t, i)] = out
    return out


def preferred_order(
    s: Schedule, i: int, recent: frozenset[int] = frozenset(), owed: frozenset[int] = frozenset()
) -> tuple[list[list[int]], list[int]]:
    """(per tier the candidates in the order day i tries them, the planned category per tier).

    The planned category first; then the others: those ``owed`` a turn (their last turn went to
    another category) and far from their next one, then the rest, farthest from a turn of their
    own first, the small pools (fewer than RARE_BELOW certain codes: a use off their shared turn
    repeats a group) after them, those in ``recent`` (what the days before took off the plan) after
    all of these; the never placeable last.
    """
    orders, planned = [], []
    for t in range(TIERS):
        first = planned_at(s, t, i)
        near = distances(s, t, i)
        half = s.rotations[t].n // 2

        def key(c: int) -> tuple[bool, bool, bool, int]:
            d = near.get(c, FAR)
            return not (c in owed and d >= half), c in recent, len(s.certain[c]) < RARE_BELOW, -d

        rest = sorted((c for c in s.placeable[t] if c != first), key=key)
        orders.append([first, *rest, *s.never[t]])
        planned.append(first)
    return orders, planned


def subset_walk(p: int, key: str) -> tuple[tuple[int, ...], ...]:
    """Every 4-subset of range(p) once, consecutive ones sharing at most 2 (where the greedy walk
    can): the groups a small pool deals, one per use, before any comes back.

    Greedy over the subsets in a shuffled order (seed ``key``): each step takes the first subset not
    yet dealt that shares at most 2 with the last one, or, when none is left, the first not yet dealt.
    """
    remaining = core.rng.shuffle(list(itertools.combinations(range(p), ITEMS)), core.rng.Rng(key))
    walk = [remaining.pop(0)]
    while remaining:
        last = set(walk[-1])
        j = next((j for j, sub in enumerate(remaining) if len(last.intersection(sub)) <= 2), 0)
        walk.append(remaining.pop(j))
    return tuple(walk)


def _walk(s: Schedule, c: int) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...]]:
    """A small pool's (subset walk, its entries as code bit sets, the pool's codes in the order the
    walk's indices name them), made once per category."""
    hit = s.walks.get(c)
    if hit is None:
        name = s.tables.categories[c].id
        walk = subset_walk(len(s.certain[c]), f"season|{s.mode}|{name}|walk")
        order = tuple(core.rng.shuffle(sorted(s.certain[c]), core.rng.Rng(f"season|{s.mode}|{name}")))
        hit = s.walks[c] = (walk, tuple(sum(1 << order[k] for k in sub) for sub in walk), order)
    return hit


def _ring(s: Schedule, c: int, u: int) -> tuple[tuple[int, ...], int]:
    """Category c's certain codes in the order its use u reads them, as (sequence, start): the
    order is sequence[start:] + sequence[:start] (a large pool is not copied to rotate it)."""
    codes = s.certain[c]
    p = len(codes)
    name = s.tables.categories[c].id
    if p <= WALK_MAX:  # a small pool: every 4-subset once, in a walk, then again
        walk, _, hit = _walk(s, c)
        w = u % len(walk)
        ring = s.orders.get(("ring", c, w))
        if ring is None:
            now = walk[w]
            ring = s.orders[("ring", c, w)] = tuple([hit[j] for j in now] + [hit[j] for j in range(p) if j not in now])
        return ring, 0
    per_lap = max(1, p // ITEMS)
    lap, j = divmod(u, per_lap)
    lap_key = (c, lap)
    order = s.orders.get(lap_key)
    if order is None:
        if len(s.orders) >= 65536:
            s.orders.clear()
        seed = f"season|{s.mode}|{name}|{lap}"
        order = s.orders[lap_key] = tuple(core.rng.shuffle(sorted(codes), core.rng.Rng(seed)))
    return order, ITEMS * j


def member_order(s: Schedule, c: int, u: int) -> list[int]:
    """Category c's certain codes in the order its use u reads them (see the module docstring)."""
    seq, start = _ring(s, c, u)
    return list(seq[start:] + seq[:start])


def use_at(s: Schedule, t: int, item: int, i: int) -> int:
    """The use index of tier t's rotation item ``item`` on day i (its turn count before this one)."""
    k = i // s.rotations[t].n
    return k if item >= 0 else k // len(s.shares[t][-1 - item])


def intended(s: Schedule, c: int, u: int) -> int:
    """The four codes use u of category c reads first, as a bit set."""
    seq, start = _ring(s, c, u)
    p = len(seq)
    return sum(1 << seq[(start + k) % p] for k in range(ITEMS))


def _previous_four(s: Schedule, c: int, u: int) -> int:
    """The four codes use u - 1 of category c read first, as a bit set (0 for the first use)."""
    if u <= 0:
        return 0
    if len(s.orders) >= 65536:
        s.orders.clear()
    pseq, pstart = _ring(s, c, u - 1)
    return sum(1 << pseq[(pstart + k) % len(pseq)] for k in range(ITEMS))


def uses_in_a_year(s: Schedule, c: int) -> int:
    """The most turns category c has in YEAR days: one per cycle of its tier's rotation, one per lap
    of its shared turn for a rare one (a turn moves by less than a block between cycles, hence + 1)."""
    t = s.tier_of[c]
    lap = next((len(share) for share in s.shares[t] if c in share), 1)
    return -(-YEAR // (s.rotations[t].n * lap)) + 1


def _offsets(s: Schedule, c: int, n: int) -> tuple[list[int], list[int]]:
    """(the offsets d of the walk's entries u + d that no use within a year of u reads as its own,
    the other offsets, the farthest uses' first) for category c, whose walk has n entries."""
    hit = s.offsets.get(c)
    if hit is None:
        year = uses_in_a_year(s, c)
        window = list(range(year + 1, n - year))
        rest = sorted((d for d in range(1, n) if not year < d < n - year), key=lambda d: (-min(d, n - d), d))
        hit = s.offsets[c] = (window, rest)
    return hit


def _walk_members(s: Schedule, c: int, u: int, taken: int, off_plan: bool) -> list[int]:
    """A small pool's four for use u: the walk's entry u when no other group takes its codes.

    Else an entry that no use within a year of u reads as its own: entries u + d with d between
    Y and n - Y (Y: the category's uses in a year, n: the walk's length), starting at a point that
    depends on u so that two displaced uses do not start alike; then the others, the entries of the
    uses farthest away first. Sharing at most 2 codes with use u - 1's entry where one can.
    A use ``off_plan`` tries entry u last (the use on its turn reads it)."""
    walk, masks, order = _walk(s, c)
    n = len(walk)
    previous = masks[(u - 1) % n] if u > 0 else 0
    own = masks[u % n]
    if not off_plan and not own & taken and (own & previous).bit_count() <= 2:  # most uses
        return [order[k] for k in walk[u % n]]
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
                return [order[k] for k in walk[w]]
    return []  # no four codes left free: the fixed search never makes such a board


def members(s: Schedule, c: int, i: int, exclusive: Container[int] | int) -> list[int]:
    """The four codes category c gets on day i, from its exclusive codes (see the module docstring).

    ``exclusive`` is a set of codes, or a bit set (an int) of the codes that are *not* exclusive
    (the other groups' fit sets: what a board makes); the ring is read only as far as four codes."""
    if isinstance(exclusive, int):
        taken = exclusive
    else:
        taken = s.fit_mask[c] & ~sum(1 << x for x in s.certain[c] if x in exclusive)
    u_own = own_turn(s, c, i)  # most days: the day is c's turn (what turns() would find, cheaper)
    if u_own is not None:
        near: tuple[int, int] | None = (i, u_own)
    else:
        near = min(turns(s, c, i), key=lambda du: (abs(du[0] - i), du[1]), default=None)
    if near is None:  # never placeable: cannot happen on a board; kept total for a hand-made library
        return sorted(x for x in s.certain[c] if not taken >> x & 1)[:ITEMS]
    day, u = near
    if len(s.certain[c]) <= WALK_MAX:
        return _walk_members(s, c, u, taken, day != i)
    use = s.orders.get(("use", c, u))
    if use is None:  # use u's order and the previous use's four, read once per (category, use)
        use = s.orders[("use", c, u)] = (tuple(member_order(s, c, u)), _previous_four(s, c, u))
    ring, previous = use
    if day != i:  # a use off the plan reads half a window further than its nearest turn
        ring = ring[ITEMS // 2 :] + ring[: ITEMS // 2]
    four: list[int] = []
    # codes not in the previous use first, then the previous ones; never one another group takes
    for skip in (taken | previous, taken | ~previous):
        for x in ring:
            if not skip >> x & 1:
                four.append(x)
                if len(four) == ITEMS:
                    return four
    return four


def _search(
    s: Schedule, i: int, recent: frozenset[int], owed: frozenset[int] = frozenset()
) -> tuple[list[int], list[int], list[int]]:
    """The search of day i: the planned four when they form a board; else the best of the boards
    found with each tier in turn kept as long as possible (see ``_off_plan_score``)."""
    orders, planned = preferred_order(s, i, recent, owed)
    best = None
    for depths in s.depth_orders:
        cats, counters = _search_depths(s, i, orders, depths)
        if cats == planned and _enough_facts(s, cats):
            return cats, planned, counters
        score = _off_plan_score(s, i, cats, planned, recent)
        if best is None or score > best[0]:
            best = (score, cats, counters)
    assert best is not None
    return best[1], planned, best[2]


def _enough_facts(s: Schedule, cats: list[int]) -> bool:
    """Whether a trivia board of these categories holds its fact groups (always, in flags mode)."""
    return sum(s.fact[c] for c in cats) >= s.min_facts


def _off_plan_score(
    s: Schedule, i: int, cats: list[int], planned: list[int], recent: frozenset[int]
) -> tuple[bool, bool, float, int]:
    """How well a board off the plan keeps the rotation (higher is better): its off-plan category
    nearest a turn of its own, as a fraction of its tier's cycle (0 when the days before took it),
    then the fewest tiers off the plan; first of all, a board that keeps the day's rare categories,
    then one with its fact groups."""
    worst = float("inf")
    off = 0
    for t in range(TIERS):
        c = cats[t]
        if c == planned[t]:
            continue
        off += 1
        d = distances(s, t, i).get(c, FAR)
        worst = min(worst, 0.0 if c in recent else d / s.rotations[t].n)
    # Where boards need fact groups, fewer boards fit and a rare category that loses its turn waits
    # a whole lap of its shared turn (it could miss a year): keep it when some board can.
    rare_kept = not s.min_facts or all(
        cats[t] == planned[t] for t in range(TIERS) if len(s.certain[planned[t]]) < RARE_BELOW
    )
    return (rare_kept, _enough_facts(s, cats), worst, -off)


def _search_depths(
    s: Schedule, i: int, orders: list[list[int]], depths: tuple[int, ...]
) -> tuple[list[int], list[int]]:
    # The search changes its deepest tier first.
    by_depth = [orders[t] for t in depths]
    flat = np.array([c for o in by_depth for c in o], dtype=np.int32)
    off = np.cumsum([0] + [len(o) for o in by_depth], dtype=np.int64).astype(np.int32)
    status, found, counters = core.connections.search_categories(s.prepared, flat, off)
    if status != 0:  # unreachable: every tier holds a placeable category and the order is complete
        raise NoBoardError(f"connections: the schedule found no board for day {i} (mode {s.mode!r})")
    cats = [0] * TIERS
    for d, t in enumerate(depths):
        cats[t] = found[d]
    return cats, list(counters)


def first_draft(s: Schedule, i: int) -> tuple[int, ...]:
    """Day i's categories without looking back (the plan and the fallback order alone)."""
    cache = s.drafts
    hit = cache.get(i)
    if hit is None:
        if len(cache) >= 4096:
            cache.clear()
        planned = [planned_at(s, t, i) for t in range(TIERS)]
        # as in daily_categories: the plan, when it forms a board (with its fact groups)
        on_plan = _planned_search(s, planned)[0] == 0 and _enough_facts(s, planned)
        hit = cache[i] = tuple(planned if on_plan else _search(s, i, frozenset())[0])
    return hit


def daily_categories(s: Schedule, i: int) -> tuple[list[int], list[int], list[int]]:
    """(the categories of day i per tier, the planned ones, the search's counters).

    The days before may have left their plan (a fallback). Their first drafts (the plan and the
    fallback order alone, looking at no earlier day) say which: the categories they took within
    the last LOOKBACK days are tried after the others, and a category whose turn within the last
    LOOKBACK days went to another one is owed a turn and tried first among the fallbacks. So a day
    costs at most LOOKBACK + 1 searches, and nothing is replayed.

    Most days keep their plan, and then nothing else matters: the search tries each tier's planned
    category first, so when the planned four form a board it returns them whatever the fallback
    order. One search over the planned four alone settles that before any draft is computed.
    """
    planned = [c for c, _ in plan(s, i)]
    status, _, counters = _planned_search(s, planned)
    if status == 0 and _enough_facts(s, planned):
        return planned, planned, counters
    drafts = [(j, first_draft(s, j)) for j in range(max(0, i - LOOKBACK), i)]
    recent = frozenset(c for _, cats in drafts for c in cats)
    owed = frozenset(planned_at(s, t, j) for j, cats in drafts for t in range(TIERS) if planned_at(s, t, j) not in cats)
    return _search(s, i, recent, owed)


def board_of_day(s: Schedule, i: int) -> Board:
    """The scheduled Board of day i (made once, then kept: a Board is immutable)."""
    return _made(s, i)[0]


def _made(s: Schedule, i: int) -> tuple[Board, list[int], list[int]]:
    """(day i's Board, its groups' category indices, its groups' code indices in group order), kept."""
    made = s.boards.get(i)
    if made is None:
        if len(s.boards) >= BOARD_CACHE:
            s.boards.clear()
        made = s.boards[i] = _make_board(s, i)
    return made


def _make_board(s: Schedule, i: int) -> tuple[Board, list[int], list[int]]:
    cats, planned, counters = daily_categories(s, i)
    day = _season.day_of(i).isoformat()
    groups: list[Group] = []
    tiles: list[str] = []
    code_indices: list[int] = []
    fit_mask, table_codes = s.fit_mask, s.tables.codes
    for g, c in enumerate(cats):
        taken = 0  # the codes that fit another group of the board
        for h in cats:
            if h != c:
                taken |= fit_mask[h]
        cat = s.tables.categories[c]
        four = members(s, c, i, taken)
        code_indices.extend(four)
        codes = tuple([table_codes[x] for x in four])
        # every field set here, as assembly.board does (the dataclass __init__ costs a few us a board)
        groups.append(frozen_from_fields(Group, {"tier": g, "label": cat.label, "codes": codes, "category_id": cat.id}))
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
    fields = {"tiles": tuple(shuffled), "groups": tuple(groups), "seed": f"season:{day}", "mode": s.mode}
    board = frozen_from_fields(Board, {**fields, "legacy": False, "stats": stats, "events": None})
    return board, cats, code_indices


def daily(date: _dt.date | str | None = None, mode: str = "flags", *, library: Library | None = None) -> Board:
    """The scheduled Connections board of ``date`` (a date, 'YYYY-MM-DD', None: today in UTC).

    Categories rotate per tier and members rotate per category (see this module's docstring);
    the board is a board of the fixed search (no tile fits another group, even arguably).
    ``generate(daily_seed(date))`` is unchanged: a plain seed, no schedule. Raises TypeError/
    ValueError naming ``date`` (not a day, or before ``EPOCH``) or ``mode``.
    """
    i = _season.day_index(date)
    s = schedule(library, mode)
    board = s.coloured.get(i)
    if board is None:
        if len(s.coloured) >= BOARD_CACHE:
            s.coloured.clear()
        # the colours a player sees are the difficulty model's, as for generate (docs/difficulty.md)
        board, cats, code_indices = _made(s, i)
        # coloured(board, library) without its checks: the schedule made the board and knows its indices
        mt = model_tables(core.connections, library, s.mode)
        raw = core.connections.board_model(mt.prepared, code_indices, cats)
        board = s.coloured[i] = colour_by_model(board, mt, cats, raw)
    return board
