"""Step 2, the plan: each tier's block matched to the days of the tiers planned before it.

The tiers are planned one after the other, the one with fewest turns first (free). Within each
block of a cycle, the next tier's categories are matched to the block's days (:func:`flagcore.
season.match`) so that, as far as a matching allows, each day's planned categories form a board:
the fixed search finds one with them and, for each tier still to plan, a category of the block
that tier deals that day. Conflicting categories (one that crowds another's flags out) are kept
apart, inside their blocks, so the gap bound stands. Among those days, a category first tries the
ones where no other planned group's fit set takes any of the four flags its use deals (step 4):
then every group of the day gets its own four, and a group comes back only when its category's
rotation of fours does.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .members import intended
from .state import ITEMS, TIERS, WEEK, Schedule
from .turns import planned_at, rare_member, use_at


def found(impl: Any, prepared: Any, lists: list[list[int]]) -> bool:
    """Whether the fixed search finds a board with tier d drawn from lists[d]."""
    flat = np.array([x for lst in lists for x in lst], dtype=np.int32)
    a, b, c = len(lists[0]), len(lists[1]), len(lists[2])
    off = np.array([0, a, a + b, a + b + c, a + b + c + len(lists[3])], dtype=np.int32)
    return bool(impl.search_categories(prepared, flat, off)[0] == 0)


def pair_fits(s: Schedule, a: int, b: int) -> bool:
    """Necessary for a and b on one board: each keeps 4 certain codes outside the other's fit set
    (and they do not share a tag)."""
    tags = s.tags
    if tags[a] >= 0 and tags[a] == tags[b]:
        return False
    return len(s.certain[a] - s.fit[b]) >= ITEMS and len(s.certain[b] - s.fit[a]) >= ITEMS


def block_at(s: Schedule, t: int, i: int) -> list[int]:
    """The categories of the block tier t's rotation deals on day i (rare turns by their member)."""
    rot = s.rotations[t]
    k, pos = divmod(i, rot.n)
    block = rot.blocks[pos // len(rot.blocks[0])]
    return [rare_member(s, t, -1 - x, k) if x < 0 else x for x in block]


class DayFit:
    """``fits(item, day)`` of tier t's rotation: 0 where the item's category cannot join the
    categories planned for the day by the ``earlier`` tiers; else 1, plus 1 where every planned
    group keeps the four its use deals (no other group's fit set takes one of them), plus 2 where
    the earlier tiers' plans show its label identity on none of the WEEK days either side, plus 2
    more where they rest its family too (``crowded``): a player's rests weigh more than the fours."""

    def __init__(self, s: Schedule, t: int, earlier: tuple[int, ...]) -> None:
        self.s, self.t, self.earlier = s, t, earlier
        self._windows: dict[int, list[tuple[int, int, int]]] = {}  # per day: what the earlier tiers show near it

    def __call__(self, item: int, i: int) -> int:
        s, t = self.s, self.t
        c = rare_member(s, t, -1 - item, i // s.rotations[t].n) if item < 0 else item
        planned = {e: planned_at(s, e, i) for e in self.earlier}
        if not all(pair_fits(s, c, o) for o in planned.values()):
            return 0
        if s.min_facts and not self._facts_possible(c, i, planned):
            return 0
        lists = [[c] if d == t else [planned[d]] if d in planned else block_at(s, d, i) for d in range(TIERS)]
        if not found(s.impl, s.prepared, lists):
            return 0
        mine = intended(s, c, use_at(s, t, item, i))
        own_four = True
        for e, o in planned.items():
            theirs = intended(s, o, use_at(s, e, s.rotations[e].at(i), i))
            if mine & s.fit_mask[o] or theirs & s.fit_mask[c]:
                own_four = False
                break
        return 1 + own_four + 2 * self._rests(c, i)

    def _rests(self, c: int, i: int) -> int:
        """How well c on day i keeps what a player sees apart from the earlier tiers' plans: 0 when
        one of them shows its label identity within WEEK days, 1 when only the label is apart, 2
        when its family rests too (``crowded`` says no)."""
        s = self.s
        ident, fam = s.identity[c], s.family[c]
        same = [0]  # days (from i) of the family's showings in the earlier tiers' plans, c's own first
        for shown, family, d in self._window(i):
            if shown == ident:
                return 0
            if family == fam:
                same.append(d)
        return 1 if crowded(same) else 2

    def _window(self, i: int) -> list[tuple[int, int, int]]:
        """(label identity, family, day - i) of each earlier tier's plan on the days i - WEEK .. i + WEEK,
        kept per day (a block's matching asks each of its days once per item)."""
        hit = self._windows.get(i)
        if hit is None:
            s = self.s
            hit = []
            for e in self.earlier:
                for j in range(max(0, i - WEEK), i + WEEK + 1):
                    o = planned_at(s, e, j)
                    hit.append((s.identity[o], s.family[o], j - i))
            if len(self._windows) >= 1024:  # a bound: the days of a few blocks are asked together
                self._windows.clear()
            self._windows[i] = hit
        return hit

    def _facts_possible(self, c: int, i: int, planned: dict[int, int]) -> bool:
        """Whether day i can still hold its fact groups with c and the planned categories."""
        s = self.s
        later = [d for d in range(TIERS) if d != self.t and d not in planned]
        could = sum(1 for d in later if any(s.fact[x] for x in block_at(s, d, i)))
        return s.fact[c] + sum(s.fact[o] for o in planned.values()) + could >= s.min_facts


def crowded(days: list[int]) -> bool:
    """Whether showings of one family on these days break its rest: two on consecutive days (or one
    day), or three within WEEK days."""
    days = sorted(days)
    if any(b - a <= 1 for a, b in zip(days, days[1:])):
        return True
    return any(c - a < WEEK for a, c in zip(days, days[2:]))


def attach_plan(s: Schedule) -> None:
    """Give each tier's rotation its DayFit: the tiers in depth order, each matched to the earlier."""
    for step, t in enumerate(s.depth_order):
        s.rotations[t].fits = DayFit(s, t, s.depth_order[:step])
