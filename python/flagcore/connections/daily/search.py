"""Step 3, the search: the day's categories, the plan's when they form a board, else the best fallback.

The fixed search (``_connections.search_categories`` and its twin: the same pruning, so zero rule
ambiguity and the arguable memberships respected) runs over the day's preferred order: per tier the
planned category, then categories owed a turn (their turn in the last LOOKBACK days went to another
one), then the rest farthest from a turn of their own first (the small pools after the others: off
its shared turn a small pool repeats a group), those the last LOOKBACK days took off the plan after
them, the never placeable last. Every candidate is listed, so the search is complete: when the
planned four cannot form a board it falls back to others, never fails where ``generate`` would not.
Off the plan, the search runs once with each tier kept longest and the board whose off-plan category
is farthest from its own turns wins. What the last LOOKBACK days took comes from their first drafts
(their search without this step), so a day costs a bounded number of searches.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...errors import NoBoardError
from .members import WALK_MAX
from .state import TIERS, WEEK, Schedule
from .turns import FAR, RARE_BELOW, label_distances, plan, planned_at, turns

LOOKBACK = 7  # days whose off-plan categories a day tries last
_ONE_EACH = np.arange(TIERS + 1, dtype=np.int32)  # offsets of four one-category lists

Found = tuple[list[int], list[int], list[int]]  # (categories per tier, the planned ones, the search's counters)


def planned_search(s: Schedule, planned: list[int]) -> tuple[int, Any, Any]:
    """The fixed search over one category per tier (status 0: they form a board)."""
    flat = np.array([planned[t] for t in s.depth_order], dtype=np.int32)
    return s.impl.search_categories(s.prepared, flat, _ONE_EACH)


def enough_facts(s: Schedule, cats: list[int]) -> bool:
    """Whether a trivia board of these categories holds its fact groups (always, in flags mode)."""
    return sum(s.fact[c] for c in cats) >= s.min_facts


def preferred_order(
    s: Schedule,
    i: int,
    recent: frozenset[int] = frozenset(),
    owed: frozenset[int] = frozenset(),
    shown: frozenset[int] = frozenset(),
) -> tuple[list[list[int]], list[int]]:
    """(per tier the candidates in the order day i tries them, the planned category per tier).

    The planned category first; then the others: those ``owed`` a turn (their last turn went to
    another category) and far from their next one, then the rest, farthest from a turn of their
    own first, the small pools (fewer than RARE_BELOW certain codes: a use off their shared turn
    repeats a group) after them, those in ``recent`` (what the days before took off the plan) after
    all of these; the never placeable last. Any category whose label identity is in ``shown``
    (what the days before showed) comes after all the others, the planned one too: off the plan,
    a player does not read the same words again within WEEK days where another board can avoid it.
    """
    orders, planned = [], []
    crowded = family_crowded(s, i) if s.pattern is not None else None
    for t in range(TIERS):
        first = planned_at(s, t, i)
        near = label_distances(s, t, i)
        half = s.rotations[t].n // 2
        keys = {
            c: (
                s.identity[c] in shown,
                crowded is not None and s.family[c] != s.family[first] and crowded(s.family[c], t),
                crowded is not None and len(s.certain[c]) <= WALK_MAX,  # v3: a large pool has fours to spare
                not (c in owed and near.get(c, FAR) >= half),
                c in recent,
                len(s.certain[c]) < RARE_BELOW,
                -near.get(c, FAR),
            )
            for c in s.placeable[t]
            if c != first
        }
        head = [first]
        if s.identity[first] in shown:  # sorted with the others that show a recent label, first among them
            keys[first] = (True, False, False, False, False, False, -FAR)
            head = []
        orders.append([*head, *sorted(keys, key=keys.__getitem__), *s.never[t]])
        planned.append(first)
    return orders, planned


def family_crowded(s: Schedule, i: int) -> Any:
    """Version 3: ``crowded(f, t)``, whether family f in tier t on day i breaks its rest against
    the plans of the days around (the day's other tiers, the day before or after, twice in a WEEK)."""
    near = [(d, u, s.family[planned_at(s, u, i + d)]) for d in range(-WEEK + 1, WEEK) for u in range(TIERS)]

    def crowded(f: int, t: int) -> bool:
        days = [d for d, u, g in near if g == f and (d or u != t)]
        if any(-1 <= d <= 1 for d in days):
            return True
        return any(sum(1 for d in days if w <= d < w + WEEK) >= 2 for w in range(-WEEK + 1, 1))

    return crowded


def search_day(
    s: Schedule,
    i: int,
    recent: frozenset[int],
    owed: frozenset[int] = frozenset(),
    before: list[list[int]] | None = None,
) -> Found:
    """The search of day i: the planned four when they form a board; else the best of the boards
    found with each tier in turn kept as long as possible (see ``_off_plan_score``), the labels
    the days ``before`` showed (their categories) tried last."""
    shown = frozenset(s.identity[c] for day in before or () for c in day)
    orders, planned = preferred_order(s, i, recent, owed, shown)
    crowded = family_crowded(s, i) if s.pattern is not None else None
    best: tuple[tuple[Any, ...], list[int], list[int]] | None = None
    for depths in s.depth_orders:
        cats, counters = search_depths(s, i, orders, depths)
        if cats == planned and enough_facts(s, cats):
            return cats, planned, counters
        score: tuple[Any, ...] = _off_plan_score(s, i, cats, planned, recent)
        if crowded is not None:  # version 3: first the board that shows no recent label and rests families
            rests = sum(
                s.family[c] == s.family[p] or not crowded(s.family[c], t) for t, (c, p) in enumerate(zip(cats, planned))
            )
            score = (-sum(s.identity[c] in shown for c in cats), rests, *score)
        if best is None or score > best[0]:
            best = (score, cats, counters)
    assert best is not None
    return best[1], planned, best[2]


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
        d = label_distances(s, t, i).get(c, FAR)
        worst = min(worst, 0.0 if c in recent else d / s.rotations[t].n)
    # Where boards need fact groups, fewer boards fit and a rare category that loses its turn waits
    # a whole lap of its shared turn (it could miss a year): keep it when some board can.
    rare_kept = not s.min_facts or all(
        cats[t] == planned[t] for t in range(TIERS) if len(s.certain[planned[t]]) < RARE_BELOW
    )
    return (rare_kept, enough_facts(s, cats), worst, -off)


def search_depths(s: Schedule, i: int, orders: list[list[int]], depths: tuple[int, ...]) -> tuple[list[int], list[int]]:
    """The fixed search over ``orders`` with the tiers at the given depths (it changes the deepest first)."""
    by_depth = [orders[t] for t in depths]
    flat = np.array([c for o in by_depth for c in o], dtype=np.int32)
    off = np.cumsum([0] + [len(o) for o in by_depth], dtype=np.int64).astype(np.int32)
    status, found, counters = s.impl.search_categories(s.prepared, flat, off)
    if status != 0:  # unreachable: every tier holds a placeable category and the order is complete
        raise NoBoardError(f"connections: the schedule found no board for day {i} (mode {s.mode!r})")
    cats = [0] * TIERS
    for d, t in enumerate(depths):
        cats[t] = found[d]
    return cats, list(counters)


def first_draft(s: Schedule, i: int) -> tuple[int, ...]:
    """Day i's categories without looking back (the plan and the fallback order alone)."""
    hit = s.memo.get(("draft", i))
    if hit is None:
        planned = [planned_at(s, t, i) for t in range(TIERS)]
        if s.pattern is not None:  # version 3: as daily_categories, against the plans of the days before
            before = [[c for c, _ in plan(s, j)] for j in range(max(0, i - WEEK), i)]
            inside = cell_search(s, i, planned, before)
            draft = inside[0] if inside is not None else search_day(s, i, frozenset(), before=before)[0]
            return s.memo.put(("draft", i), tuple(draft))  # type: ignore[no-any-return]
        # as in daily_categories: the plan, when it forms a board (with its fact groups)
        on_plan = planned_search(s, planned)[0] == 0 and enough_facts(s, planned)
        before = [] if on_plan else [[c for c, _ in plan(s, j)] for j in range(max(0, i - WEEK), i)]
        hit = s.memo.put(("draft", i), tuple(planned if on_plan else search_day(s, i, frozenset(), before=before)[0]))
    return hit  # type: ignore[no-any-return]


def daily_categories(s: Schedule, i: int) -> Found:
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
    status, _, counters = planned_search(s, planned)
    if s.pattern is not None:  # version 3: inside the day's families first, no label of the past WEEK days' drafts
        before = [list(first_draft(s, j)) for j in range(max(0, i - WEEK), i)]
        inside = cell_search(s, i, planned, before)
        if inside is not None:
            return inside
        recent, owed = lookback(s, i)
        return search_day(s, i, recent, owed, before)
    if status == 0 and enough_facts(s, planned):
        return planned, planned, counters
    recent, owed = lookback(s, i)
    return search_day(s, i, recent, owed, [list(first_draft(s, j)) for j in range(max(0, i - WEEK), i)])


def cell_search(s: Schedule, i: int, planned: list[int], before: list[list[int]]) -> Found | None:
    """Version 3: day i's categories inside its planned cells (its families, its tiers), or None.

    The planned four when they form a board with their fact groups and show no label of the days
    ``before`` (their categories). Else each tier whose planned label they showed tries the other
    categories of its cell first (and only those, where the day before showed it), the others their
    planned category first; a tier's alternatives are those of its cell whose label the day before
    did not show, the labels the days before showed or the next WEEK days plan last, the large
    pools (more than WALK_MAX certain codes) first, then the farthest from a turn of their own. The
    fixed search over these finds a board inside the day's families where one exists."""
    shown = {s.identity[c] for day in before for c in day}
    status, _, counters = planned_search(s, planned)
    again = [t for t in range(TIERS) if s.identity[planned[t]] in shown]
    if status == 0 and enough_facts(s, planned) and not again:
        return planned, planned, list(counters)
    ahead = {s.identity[planned_at(s, t, j)] for j in range(i + 1, i + WEEK + 1) for t in range(TIERS)}
    yesterday = {s.identity[c] for c in before[-1]} if before else set()
    orders = []
    for t in range(TIERS):
        if status == 0 and enough_facts(s, planned) and t not in again:
            orders.append([planned[t]])  # the plan forms a board: only the tiers that show a label again move
            continue

        def far(c: int, t: int = t) -> int:
            """Days from day i to the nearest turn of c's label in tier t (turns.label_distances,
            for the few categories asked)."""
            same = [x for x in s.placeable[t] if s.identity[x] == s.identity[c]]
            return min((abs(day - i) for x in same for day, _ in turns(s, x, i)), default=FAR)

        kin = sorted(
            (c for c in s.pattern.kin(planned[t], t) if s.identity[c] not in yesterday),
            key=lambda c: (
                s.identity[c] in shown or s.identity[c] in ahead,
                len(s.certain[c]) <= WALK_MAX,
                -far(c),
                c,
            ),
        )
        orders.append(
            [planned[t], *kin] if t not in again else kin if s.identity[planned[t]] in yesterday else [*kin, planned[t]]
        )
    if not all(orders):  # a tier whose label the day before showed, with no other category in its cell
        return None
    try:
        cats, found_counters = search_depths(s, i, orders, s.depth_order)
    except NoBoardError:
        return None
    return (cats, planned, found_counters) if enough_facts(s, cats) else None


def lookback(s: Schedule, i: int) -> tuple[frozenset[int], frozenset[int]]:
    """(the categories the last LOOKBACK days' first drafts took, the ones owed a turn: planned on
    one of those days and not taken)."""
    drafts = [(j, first_draft(s, j)) for j in range(max(0, i - LOOKBACK), i)]
    recent = frozenset(c for _, cats in drafts for c in cats)
    owed = frozenset(planned_at(s, t, j) for j, cats in drafts for t in range(TIERS) if planned_at(s, t, j) not in cats)
    return recent, owed
