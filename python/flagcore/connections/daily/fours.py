"""Step 4b, the fours checked: no second split (issue 31).

The members of step 4 can give a board whose sixteen tiles split into four fours by other labels
(``second_split`` of the engine in use: under some reading of the data, four labels not all the
board's name all sixteen tiles). A player who finds that split has a true second answer, so the
day never keeps it:

1. each group in turn reads its members with one of its four codes left out (its use reads the
   next code of its order instead), the groups and codes in board order; then two codes left out;
   the first draw with no split is the day's (most days: the members of step 4 themselves);
2. where no such draw exists (a few days a decade: the four categories split however drawn), the
   day takes other categories (:func:`other_categories`): the day's search (its preferred order,
   step 3) once per tier in depth order with that tier's category left out, the first whose draws
   pass.

From schedule version 3, step 4c (:mod:`.decoys`) draws the members instead, with the same two
steps against the decoy fours as well.

Leaving a code out keeps the board fair: the members are still drawn from the codes that fit no
other group (the fixed search's exclusive codes). Every step is a function of the day alone.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from ...errors import NoBoardError
from .members import members
from .search import Found, lookback, preferred_order, search_depths
from .state import ITEMS, TIERS, Schedule

Fours = list[list[int]]  # per group, its four code indices


def others_fit(s: Schedule, cats: list[int]) -> list[int]:
    """Per group, the codes (a bit set) that fit another group of the board: never its members."""
    out = []
    for c in cats:
        taken = 0
        for h in cats:
            if h != c:
                taken |= s.fit_mask[h]
        out.append(taken)
    return out


def draws(s: Schedule, i: int, cats: list[int]) -> Iterator[Fours]:
    """Day i's draws of members for ``cats``, in the order they are tried (see the module docstring)."""
    taken = others_fit(s, cats)
    base = [members(s, c, i, taken[g]) for g, c in enumerate(cats)]
    yield base
    slots = [(g, x) for g in range(TIERS) for x in base[g]]
    for depth in (1, 2):
        for left_out in itertools.combinations(slots, depth):
            fours = []
            for g, c in enumerate(cats):
                extra = sum(1 << x for h, x in left_out if h == g)
                fours.append(members(s, c, i, taken[g] | extra) if extra else base[g])
            if all(len(f) == ITEMS for f in fours):
                yield fours


def has_split(s: Schedule, fours: Fours) -> bool:
    """Whether the board's sixteen tiles split into four fours other than its groups."""
    return bool(s.impl.second_split(s.prepared, [x for f in fours for x in f]))


def split_free(s: Schedule, i: int, cats: list[int]) -> Fours | None:
    """The first draw of day i's members for ``cats`` with no second split, or None."""
    return next((f for f in draws(s, i, cats) if not has_split(s, f)), None)


def other_categories(
    s: Schedule, i: int, cats: list[int], deep: int = 1, shown: frozenset[int] = frozenset()
) -> Iterator[tuple[list[int], list[int]]]:
    """Day i's other categories for ``cats``, in the order they are tried, each with its search's
    counters: the day's search (its preferred order, step 3, the label identities ``shown`` last)
    once per tier in depth order with that tier's category left out; with ``deep`` > 1 (step 4c),
    then again with the replacements found before left out too, up to ``deep`` replacements a
    tier, and from version 3 each tier's planned cell first."""
    orders, planned = preferred_order(s, i, *lookback(s, i), shown)
    if deep > 1 and s.pattern is not None:  # version 3's step 4c: the planned cell's categories first,
        # so a day that leaves its categories for the decoy cap keeps its families and the cells'
        # uses, not the few categories farthest from their turns (they would win most such days)
        for t in range(TIERS):
            kin = set(s.pattern.kin(planned[t], t)) | {planned[t]}
            orders[t] = sorted(orders[t], key=lambda c: c not in kin)
    out: list[list[int]] = [[c] for c in cats]  # per tier, its categories left out so far
    spent: set[int] = set()  # tiers with no other category left
    for _ in range(deep):
        for t in s.depth_order:  # a category of the day left out, one tier at a time
            if t in spent:
                continue
            trimmed = [o if d != t else [c for c in o if c not in out[t]] for d, o in enumerate(orders)]
            try:
                other, counters = search_depths(s, i, trimmed, s.depth_order)
            except NoBoardError:  # that tier has no other category with these: try the next tier
                spent.add(t)
                continue
            out[t].append(other[t])
            yield other, counters


def day_fours(s: Schedule, i: int, found: Found) -> tuple[Found, Fours, int]:
    """(day i's categories, planned and counters: ``found`` or the ones that replace it; its fours;
    how they were made: 0 the members of step 4, 1 another draw, 2 other categories, -1 none
    without a split)."""
    cats, planned, counters = found
    for k, fours in enumerate(draws(s, i, cats)):
        if not has_split(s, fours):
            return found, fours, min(k, 1)
    for other, other_counters in other_categories(s, i, cats):
        other_fours = split_free(s, i, other)
        if other_fours is not None:
            return (other, planned, other_counters), other_fours, 2
    # unreachable on the bundled library (tested over 2027-2028); kept total for a hand-made one
    return found, next(draws(s, i, cats)), -1
