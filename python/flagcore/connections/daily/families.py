"""Schedule version 3's plan: each day's four families first, across the tiers (issue 31).

Versions 1 and 2 rotate each tier's categories on their own, one turn per cycle, so a family
shows as often as it has categories, and the tiers keep it apart only inside their blocks. Version
3 lays out the families first, in cycles of PATTERN days counted from the version's first day:

1. **Cells** (``make_cells``). A cell is one family's categories in one tier; a tier's small pools
   (fewer than RARE_BELOW certain codes), when it has RARE_CELL of them or more, make one cell of
   their own, used once a cycle (a small pool has few fours).
2. **Uses per cell** (``allocate``): each tier's PATTERN days are shared among its cells by their
   label identities (a label comes back about as often as its tier's others; a look cell counts
   half where boards need fact groups), no cell over its labels' uses (``label_uses``: PER_LABEL
   a label at most, fewer where its pools' fours leave less room, ``capacity``), no family over
   FAMILY_MAX a cycle or PER_IDENTITY per label it has; the rounded shares are made whole within
   those caps by a maximum flow (allot.py), the families' caps raised to FAMILY_MOST where a tier
   cannot fill its days within them (flags' purple).
3. **The layout** (``Layout``), families first. A family of two showings a WEEK (16 uses a
   cycle, flags' seven largest) rests only on a weekly layout, two weekdays 3 days apart
   (``weekdays``: seven such families take weekdays i and i + 3, in the order that puts families
   of different tiers on one weekday). Then the days are dealt in order (``deal``): each day the
   families due that day take their cells on distinct tiers, then each other tier the cell that
   breaks the fewest rests against the days around, the most overdue first (a cell's uses, and a
   family's, spaced evenly from a seeded phase); then swaps of two days' cells within a tier
   while they lower the rests broken (a family on two days in a row or twice on one day, three
   times in a WEEK, two cells able to show one label within a WEEK, a cell's uses closer than its
   labels allow within LABEL_GAP days, a day short of fact groups, two cells whose categories
   cannot meet on a board), no swap moving a family off its weekdays, read cyclically: the layout
   is the base of every cycle. Each cycle then deals its middle days anew, each cell's phase moved
   by the cycle's stream, and repairs them (``Pattern.cycle``), so the cells meet other cells from
   cycle to cycle (the same four categories every cycle would deal the same four flags), while
   the first and last WEEK days stay the base's, so a cycle's end meets the next one's start as
   the base's own end meets its start; then the week's rhythm: a Monday's or Tuesday's cell swaps
   with an easier one of the weekend where no rest breaks.
4. **The category of a cell's use** (``Cell.use``): a cell's uses are counted from the version's
   first day (use n = k * u + j on its j-th day of cycle k, u uses a cycle) and read its label
   identities in laps, each as often a lap as its ``label_uses`` and spread evenly in it, then the
   identity's categories in a fixed order (``cell_order``): two uses of one label are as many
   uses apart as the cell's other labels allow (a cell's categories read in one order, the order's
   wrap could show one label twice running), and each label's uses stay within the room of its
   fours; a category's use index (its turns before) is a function of the day alone, as a
   rotation's is. A cell of
   small pools (many families) takes the first of its categories from its use on whose family
   rests beside the days around (``Pattern.turn``).

So no family shows on two days in a row or three times in 7 days where the layout keeps its rests
and the days their plan (flags, a few rests the layout cannot keep; trivia, all); a planned four
that shows a label of the past WEEK days gives that tier another category of its cell (search.py's
``kin_swap``), and one that forms no board falls back to the search (step 3), which tries the
categories of families that rest first.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import math
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ... import season as _season
from .allot import fill
from .members import WALK_MAX
from .state import ITEMS, TIERS, WEEK

PATTERN = 56  # days of a cycle of the families' layout (eight weeks)
FAMILY_MOST = 2 * PATTERN // WEEK  # a family's uses a cycle where the caps leave a tier short: twice a week
FAMILY_MAX = 14  # a family's uses in one cycle at most (1.75 a week, under the 2)
PER_IDENTITY = 6  # ... and this many per label identity it has (each once in 9 days on average)
PER_LABEL = 4  # a cell's uses a cycle at most per label identity it has (a label once in 14 days in its tier)
RARE_BELOW = 6  # a pool with fewer certain codes has few fours (turns.RARE_BELOW)
RARE_CELL = 3  # a tier with this many small pools gives them one cell of their own
LOOK_WEIGHT = 0.5  # where boards need fact groups, a look category counts this much
PASSES = 2  # passes of a layout's repair at most (the first does nearly all the good)
MIX = 6  # without such families, a cycle deals about one in MIX of its middle days' cells anew (then repairs)
CYCLES_KEPT = 64  # cycles kept per pattern (a year is 7)
LABEL_GAP = 12  # days between two showings of a label in a tier at least (0.8 x PATTERN / PER_LABEL)
LABEL_WEIGHT = 2  # a label again within a WEEK, against a family rest (Layout.family_cost)
APART = 8  # the weight of two cells whose categories can never meet on a board (Layout.fact_cost)


@dataclass(frozen=True)
class Cell:
    """One family's categories in one tier (or a tier's small pools together), the unit the layout
    places on a day: ``order`` is the order its uses read its categories."""

    tier: int
    family: int  # the family index; a tier's cell of small pools: -1 - tier
    order: tuple[int, ...]  # its categories in the order its uses read them (a large pool may come twice)
    fact: bool  # every category of it is a fact group

    labels: tuple[int, ...] = ()  # per entry of order, its label identity (empty: one lap of order)
    weights: tuple[int, ...] = ()  # per label identity (first shown first), its uses per lap of the labels

    @functools.cached_property
    def groups(self) -> tuple[tuple[int, ...], ...]:
        """The order's entries by label identity (first shown first), each in the order's order."""
        by: dict[int, list[int]] = {}
        for c, ident in zip(self.order, self.labels):
            by.setdefault(ident, []).append(c)
        return tuple(tuple(g) for g in by.values())

    @functools.cached_property
    def lap(self) -> tuple[tuple[int, int], ...]:
        """One lap of the labels: per use, (its identity's group, that group's uses before it in the
        lap); each group ``weights`` times, spread evenly (a group's uses as far apart as can be)."""
        slots = sorted(((j + 0.5) / w, g) for g, w in enumerate(self.weights) for j in range(w))
        seen = [0] * len(self.weights)
        out = []
        for _, g in slots:
            out.append((g, seen[g]))
            seen[g] += 1
        return tuple(out)

    def use(self, n: int) -> tuple[int, int]:
        """(the category of the cell's use n, its use index: its turns before this one). With
        ``labels``, the uses read the label identities a lap at a time (``lap``), and each
        identity's uses read its categories a lap at a time, so a label comes back as late as its
        weight allows; without, the uses read ``order`` a lap at a time."""
        if not self.labels:
            lap, r = divmod(n, len(self.order))
            c = self.order[r]
            return c, lap * self.order.count(c) + self.order[:r].count(c)
        laps, r = divmod(n, len(self.lap))
        g, before = self.lap[r]
        group = self.groups[g]
        q, k = divmod(laps * self.weights[g] + before, len(group))
        c = group[k]
        return c, q * group.count(c) + group[:k].count(c)

    @functools.cached_property
    def _starts(self) -> dict[int, tuple[int, tuple[int, ...]]]:
        """Per category: (the period of the cell's uses in which its own repeat, its uses in one)."""
        out: dict[int, tuple[int, tuple[int, ...]]] = {}
        for c in set(self.order):
            if not self.labels:
                period = len(self.order)
            else:
                g = next(j for j, group in enumerate(self.groups) if c in group)
                period = len(self.lap) * len(self.groups[g])
            out[c] = (period, tuple(n for n in range(period) if self.use(n)[0] == c))
        return out

    def uses_of(self, c: int, near: int) -> list[int]:
        """The cell's uses n of category c in the three periods of its uses around use ``near``."""
        period, starts = self._starts[c]
        lap = near // period
        return [q * period + r for q in (lap - 1, lap, lap + 1) for r in starts if q * period + r >= 0]

    def share(self, c: int) -> float:
        """Category c's share of the cell's uses."""
        period, starts = self._starts[c]
        return len(starts) / period


class Layout:
    """PATTERN days of one cell per tier, with the rests they break (module docstring, 3)."""

    def __init__(
        self,
        cells: list[Cell],
        identity: tuple[int, ...],
        min_facts: int,
        days: list[list[int]],
        apart: list[list[int]],
        due: dict[int, set[int]] | None = None,
    ) -> None:
        self.cells, self.min_facts, self.days, self.apart = cells, min_facts, days, apart
        self.fam = [cell.family for cell in cells]
        self.fact = [cell.fact for cell in cells]
        self.due = due or {}  # per family of two showings a WEEK, its days (``weekdays``): swaps keep them
        self.families = sorted({f for f in self.fam if f >= 0})
        # two cells that can show one label on days a WEEK apart or less: one cell of one label,
        # or two of one family sharing a label, one of them of that label alone (a cell of more
        # labels shows them in turn: its next use shows another)
        ids = [{identity[c] for c in cell.order} for cell in cells]
        self.overlap = [[bool(a & b) and (len(a) == 1 or len(b) == 1) for b in ids] for a in ids]
        self.labels = [len(a) for a in ids]
        # per family, the cells its cost reads past the family rests: those that can show a label
        # of another of its cells (the label pairs) and those of more labels (their spacing)
        self.clash_cells = {
            f: frozenset(x for x, g in enumerate(self.fam) if g == f and any(self.overlap[x][y] for y in self._of(f)))
            for f in self.families
        }
        self.many_cells = {f: frozenset(x for x in self._of(f) if self.labels[x] > 1) for f in self.families}
        self.refresh()

    def refresh(self) -> None:
        """Recompute what the layout keeps of its days: each family's days and cost, each day's cost."""
        days = self.days
        self.where: dict[int, list[tuple[int, int]]] = {f: [] for f in self.families}  # (day, cell), sorted
        self.on: list[list[int]] = [
            [] for _ in self.cells
        ]  # per cell, its days, sorted (kept for cells of more labels)
        for d in range(PATTERN):
            for x in days[d]:
                if x >= 0:
                    self.on[x].append(d)
                    if self.fam[x] >= 0:
                        self.where[self.fam[x]].append((d, x))
        self.cost = {f: self.family_cost(f) for f in self.families}
        self.day_cost = [self.fact_cost(d) for d in range(PATTERN)]  # kept by keep()

    def _of(self, f: int) -> list[int]:
        """The cells of family f."""
        return [x for x, g in enumerate(self.fam) if g == f]

    def family_cost(self, f: int, above: int | None = None) -> int:
        """The rests family f breaks, weighted: 4 for two showings on one day, 2 on consecutive days,
        2 per day that three showings within a WEEK fall short of one; 2 per two showings within a
        WEEK whose cells can show one label (two cells; one cell of one label); for a cell of more
        labels, 1 per day that its uses m apart (m: its labels) fall short of LABEL_GAP. With
        ``above``, a part of it once that part is over ``above`` (every term counts up)."""
        shows = self.where[f]
        n = len(shows)
        out = 0
        if n < 2:
            return out
        days = [d for d, _ in shows]
        days += (days[0] + PATTERN, days[1] + PATTERN)  # read cyclically: the next cycle's first two
        for a, b in zip(days, days[1 : n + 1]):
            if b - a <= 1:
                out += 4 if b == a else 2
        if n >= 3:
            for a, c in zip(days, days[2 : n + 2]):
                if c - a < WEEK:
                    out += 2 * (WEEK - c + a)
        if above is not None and out > above:
            return out
        clash = self.clash_cells[f]
        if clash:  # each pair once: forward within a WEEK, or round the cycle's end
            overlap = self.overlap
            mine = [(d, x) for d, x in shows if x in clash]
            m = len(mine)
            pairs = 0
            for j, (d, x) in enumerate(mine):
                row = overlap[x]
                k = j + 1
                while k < m and mine[k][0] - d <= WEEK:
                    pairs += row[mine[k][1]]
                    k += 1
                k = 0
                while k < j and mine[k][0] + PATTERN - d <= WEEK:
                    pairs += row[mine[k][1]]
                    k += 1
            out += LABEL_WEIGHT * pairs
            if above is not None and out > above:
                return out
        many = self.many_cells[f]
        if many:  # a cell of m labels: m + 1 uses within LABEL_GAP days show one twice
            labels, on = self.labels, self.on
            for x in many:  # a cell of one label: its pairs within a WEEK, above
                used = on[x]
                m, u = labels[x], len(used)
                if u <= m:
                    continue
                for j in range(u):
                    span = used[(j + m) % u] - used[j] + (PATTERN if j + m >= u else 0)
                    if span < LABEL_GAP:
                        out += LABEL_GAP - span
        return out

    def fact_cost(self, d: int) -> int:
        """Day d's own cost (``day_fact``)."""
        return self.day_fact(self.days[d])

    def day_fact(self, day: list[int]) -> int:
        """A day's own cost, its cells ``day``: 3 per fact group it lacks (where boards need them),
        and for each two of its cells the share of their categories' pairs that cannot meet on a
        board (``apart``)."""
        apart = self.apart
        out = 0
        for j in range(1, len(day)):
            row = apart[day[j]]
            for y in day[:j]:
                out += row[y]
        if not self.min_facts:
            return out
        fact = self.fact
        return out + 3 * max(0, self.min_facts - sum(fact[x] for x in day))

    def broken(self) -> int:
        """The weighted rests the layout breaks now: family and label costs, and fact groups missing."""
        return sum(self.cost.values()) + sum(self.day_cost)

    def swap(self, d: int, e: int, t: int) -> None:
        """Swap tier t's cells of days d and e."""
        days, fam, where, on = self.days, self.fam, self.where, self.on
        x, y = days[d][t], days[e][t]
        if self.labels[x] > 1:  # only a cell of more labels reads its days (family_cost)
            on[x].remove(d)
            bisect.insort(on[x], e)
        if self.labels[y] > 1:
            on[y].remove(e)
            bisect.insort(on[y], d)
        if fam[x] >= 0:
            where[fam[x]].remove((d, x))
            bisect.insort(where[fam[x]], (e, x))
        if fam[y] >= 0:
            where[fam[y]].remove((e, y))
            bisect.insort(where[fam[y]], (d, y))
        days[d][t], days[e][t] = y, x

    def improves(self, d: int, e: int, t: int, least: int) -> bool:
        """Whether swapping tier t's cells of days d and e lowers the rests broken by ``least`` or
        more (False where both are of one family). A family's cost after is 0 at least, so the
        days' own costs decide first, then the costlier family's, and the other's is read only
        where these leave the answer open, each no further than the answer needs (its parts count
        up): the answers of reading every cost, with 0.61x the family costs read in flags' year of
        cycles, 0.16x in trivia's (its swaps mostly mend fact groups)."""
        days = self.days
        x, y = days[d][t], days[e][t]
        fx, fy = self.fam[x], self.fam[y]
        if fx == fy:
            return False
        due = self.due
        if due and ((fx in due and e not in due[fx]) or (fy in due and d not in due[fy])):
            return False  # a family of two showings a WEEK keeps its weekdays
        day_d, day_e = list(days[d]), list(days[e])
        day_d[t], day_e[t] = y, x
        g = self.day_cost[d] + self.day_cost[e] - self.day_fact(day_d) - self.day_fact(day_e)
        cx = self.cost[fx] if fx >= 0 else 0
        cy = self.cost[fy] if fy >= 0 else 0
        if g + cx + cy < least:
            return False
        if cy > cx:  # the costlier family first: the other's cost then bounds less
            fx, fy, cx, cy = fy, fx, cy, cx
        self.swap(d, e, t)
        if fx >= 0:
            g += cx - self.family_cost(fx, g + cx + cy - least)
        if fy >= 0 and g + cy >= least:
            g += cy - self.family_cost(fy, g + cy - least)
        self.swap(d, e, t)
        return g >= least

    def keep(self, d: int, e: int, t: int) -> None:
        """Swap for good, the costs of the families moved and of the two days recomputed."""
        self.swap(d, e, t)
        for x in (self.days[d][t], self.days[e][t]):
            if self.fam[x] >= 0:
                self.cost[self.fam[x]] = self.family_cost(self.fam[x])
        self.day_cost[d], self.day_cost[e] = self.fact_cost(d), self.fact_cost(e)

    def rhythm(self, ease: list[float], days: range) -> None:
        """The week runs easy to hard: a tier's cell of a Monday or Tuesday swaps with an easier one
        of a Saturday or Sunday (``ease``: per cell, higher is easier), both among ``days``, where
        that breaks no more rests. A cycle starts on a Monday (make_pattern checks the version's
        first day is one)."""
        early = [d for d in days if d % WEEK < 2]
        late = [d for d in days if d % WEEK >= 5]
        for t in range(TIERS):
            for d in early:
                for e in late:
                    if ease[self.days[d][t]] < ease[self.days[e][t]] and self.improves(d, e, t, 0):
                        self.keep(d, e, t)

    def repair(self, order: list[tuple[int, int]], days: range) -> None:
        """Passes over the slots (day, tier) in ``order``: a slot whose family breaks a rest (or
        whose day lacks fact groups) takes the first swap in its tier with a day of ``days`` that
        lowers the rests broken (the days after its own first)."""
        n = len(days)
        for _ in range(PASSES):
            improved = False
            for d, t in order:
                f = self.fam[self.days[d][t]]
                if (f < 0 or not self.cost[f]) and not self.day_cost[d]:
                    continue
                for j in range(1, n):
                    e = days[(d - days.start + j) % n]
                    if self.improves(d, e, t, 1):  # the costs are whole numbers
                        self.keep(d, e, t)
                        improved = True
                        break
            if not improved:
                return


def capacity(p: int) -> float:
    """The uses a PATTERN a category of p certain codes can take without a four again within a
    year: half its C(p, 4) fours a year for a small pool (its walk: a four another group takes is
    skipped), as many as any cell takes for a larger one."""
    return PATTERN if p > WALK_MAX else math.comb(p, ITEMS) * PATTERN / 365 / 2


def label_uses(group: tuple[int, ...], room: dict[int, float]) -> int:
    """A label identity's uses a PATTERN at most, 1 to PER_LABEL: the room its categories' fours
    leave (``capacity``), for a label that comes back no sooner than PATTERN / PER_LABEL days."""
    return max(1, min(PER_LABEL, math.floor(sum(room[c] for c in set(group)) + 1e-9)))


def cell_order(
    cats: list[int], identity: tuple[int, ...], shuffled: list[int], room: dict[int, float]
) -> tuple[int, ...]:
    """A cell's categories in the order its uses read them: one of each label identity in turn (the
    largest identity first), so a label comes back as late as the cell allows; a category with
    room for twice the uses of the cell's most crowded one (``room``: its ``capacity``) twice a
    lap; ``shuffled``: the categories in the schedule's seeded order (ties)."""
    least = min(room[c] for c in cats)
    by: dict[int, list[int]] = {}
    for c in shuffled:
        if c in cats:
            by.setdefault(identity[c], []).append(c)
    for ident, group in by.items():
        by[ident] = group + [c for c in group if room[c] >= 2 * least]
    groups = sorted(by.values(), key=lambda g: -len(g))
    out: list[int] = []
    while any(groups):
        for g in groups:
            if g:
                out.append(g.pop(0))
    return tuple(out)


class Categories(NamedTuple):
    """What the pattern reads of a schedule's categories (state.Schedule's fields of these names)."""

    placeable: tuple[tuple[int, ...], ...]  # per tier: the categories some board can hold
    certain: tuple[frozenset[int], ...]  # per category: its certain codes
    family: tuple[int, ...]  # per category: its family's index
    identity: tuple[int, ...]  # per category: its label identity's index
    fact: tuple[int, ...]  # per category: 1 for a fact group


def make_cells(data: Categories, shuffle: Any) -> list[Cell]:
    """Each tier's cells (module docstring, 1): its families' categories, its small pools apart."""
    placeable, certain, family, identity, fact = data
    cells = []
    room = {c: capacity(len(certain[c])) for tier in placeable for c in tier}
    for t in range(TIERS):
        tier = list(shuffle(list(placeable[t]), f"{t}|cells"))
        rare = [c for c in tier if len(certain[c]) < RARE_BELOW]
        apart = rare if len(rare) >= RARE_CELL else []
        by: dict[int, list[int]] = {}
        for c in tier:
            if c not in apart:
                by.setdefault(family[c], []).append(c)
        for f in sorted(by, key=lambda f: min(by[f])):
            cats = by[f]
            order = cell_order(cats, identity, tier, room)
            labels = tuple(identity[c] for c in order)
            cell = Cell(t, f, order, all(fact[c] for c in cats), labels)
            weights = tuple(label_uses(group, room) for group in cell.groups)
            cells.append(Cell(t, f, order, cell.fact, labels, weights))
        if apart:
            cells.append(Cell(t, -1 - t, cell_order(apart, identity, tier, room), all(fact[c] for c in apart)))
    return cells


def allocate(
    cells: list[Cell],
    identity: tuple[int, ...],
    certain: tuple[frozenset[int], ...],
    looks_half: bool,
    fact: tuple[int, ...],
) -> list[int]:
    """Each cell's uses in one pattern (module docstring, 2): each tier's PATTERN shared by weight
    (a cell weighs its label identities: a label comes back about as often as the tier's others; a
    look cell half where boards need fact groups), no cell over its labels' uses (``label_uses``,
    a cell without labels: the room of its categories' fours, ``capacity``, or PER_LABEL per
    label identity it has), no family over FAMILY_MAX or PER_IDENTITY per label identity it has,
    every cell one at least, the small pools' one; made whole within the caps by a flow where
    one can (``_filled``), else by the largest remainders."""
    idents: dict[int, set[int]] = {}
    for cell in cells:
        idents.setdefault(cell.family, set()).update(identity[c] for c in cell.order)
    family_cap = {f: min(FAMILY_MAX, PER_IDENTITY * len(ids)) for f, ids in idents.items()}
    cell_cap = [
        max(
            1.0,
            float(sum(cell.weights))
            if cell.weights
            else min(
                PER_LABEL * len({identity[c] for c in cell.order}),
                sum(capacity(len(certain[c])) for c in set(cell.order)),
            ),
        )
        for cell in cells
    ]

    def weight(cell: Cell) -> float:
        half = looks_half and not all(fact[c] for c in cell.order)
        return len({identity[c] for c in cell.order}) * (LOOK_WEIGHT if half else 1.0)

    share = [1.0 if cell.family < 0 else 0.0 for cell in cells]
    fixed = {x for x, cell in enumerate(cells) if cell.family < 0}
    for _ in range(100):  # water-filling: the free cells share what the fixed ones leave
        for t in range(TIERS):
            mine = [x for x, cell in enumerate(cells) if cell.tier == t]
            free = [x for x in mine if x not in fixed]
            left = PATTERN - sum(share[x] for x in mine if x in fixed)
            total = sum(weight(cells[x]) for x in free) or 1.0
            for x in free:
                share[x] = max(0.0, left) * weight(cells[x]) / total
        changed = False
        for x in range(len(cells)):
            if x not in fixed and share[x] > cell_cap[x] + 1e-9:
                share[x] = cell_cap[x]
                fixed.add(x)
                changed = True
        for f, cap in family_cap.items():
            mine = [x for x, cell in enumerate(cells) if cell.family == f]
            total = sum(share[x] for x in mine)
            if f >= 0 and total > cap + 1e-9:
                for x in mine:
                    share[x] *= cap / total
                    fixed.add(x)
                changed = True
        if not changed:
            break
    uses = [max(1, math.floor(x + 1e-9)) for x in share]
    uses = _filled(cells, uses, share, cell_cap, family_cap) or uses

    def room(x: int) -> bool:
        f = cells[x].family
        fam = sum(uses[y] for y, cell in enumerate(cells) if cell.family == f)
        return f >= 0 and uses[x] + 1 <= cell_cap[x] + 1e-9 and fam < family_cap[f]

    for t in range(TIERS):  # each tier's uses sum to PATTERN: the largest remainders first, in the caps
        mine = [x for x, cell in enumerate(cells) if cell.tier == t]
        while sum(uses[x] for x in mine) < PATTERN:
            fits = [x for x in mine if room(x)] or [x for x in mine if cells[x].family >= 0] or mine
            x = max(fits, key=lambda x: (share[x] - uses[x], -x))
            uses[x] += 1
        while sum(uses[x] for x in mine) > PATTERN:
            x = max((x for x in mine if uses[x] > 1), key=lambda x: (uses[x] - share[x], x))
            uses[x] -= 1
    return uses


def _filled(
    cells: list[Cell], uses: list[int], share: list[float], cell_cap: list[float], family_cap: dict[int, int]
) -> list[int] | None:
    """The uses made whole within every cell's cap and the families' caps (allot.fill), else within
    FAMILY_MOST a family (twice a week: its rest can still hold), else None (allocate's rounding)."""
    hard = [max(1, math.floor(c + 1e-9)) for c in cell_cap]
    fam_of = [cell.family for cell in cells]
    tiers = [cell.tier for cell in cells]
    remainder = [x - math.floor(x) for x in share]
    for most in (None, FAMILY_MOST):
        caps = {f: math.floor(c + 1e-9) if most is None else most for f, c in family_cap.items() if f >= 0}
        start = list(uses)
        for f, c in caps.items():  # the start keeps the caps (every cell keeps one use)
            mine = [x for x in range(len(cells)) if fam_of[x] == f]
            while sum(start[x] for x in mine) > c and any(start[x] > 1 for x in mine):
                start[max((x for x in mine if start[x] > 1), key=lambda x: (start[x] - share[x], x))] -= 1
            caps[f] = max(c, sum(start[x] for x in mine))
        if fill(start, tiers, fam_of, hard, caps, PATTERN, remainder) == 0:
            return start
    return None


@dataclass
class Pattern:
    """Version 3's plan: its first day, its cells, the base layout and each cycle's (kept)."""

    first: int
    cells: tuple[Cell, ...]
    base: tuple[tuple[int, ...], ...]  # per day of a cycle, per tier: the cell index
    broken: int  # the rests the base layout breaks (its weighted count)
    family: tuple[int, ...]  # per category: its family index
    cell_of: dict[tuple[int, int], int]  # (category, tier): its cell's index
    identity: tuple[int, ...]
    min_facts: int
    rng: Any  # the Rng engine of the schedule (compiled or twin)
    seed: Any  # cycle k's stream: seed(k)
    apart: list[list[int]]  # per two cells: how badly their categories meet on a board (Layout.fact_cost)
    ease: list[float]  # per cell: how readily a player sees its categories (the model's salience, mean)
    due: dict[int, set[int]]  # the days of the families of two showings a WEEK (``weekdays``)
    phase: tuple[float, ...]  # per cell: where in its spacing its first use falls (``deal``)
    _cycles: dict[int, Any] = field(default_factory=dict)

    def cycle(
        self, k: int
    ) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
        """(cycle k's days: per day, per tier, the cell; per day, per tier, the cell's uses before it in
        the cycle; per cell, its days in the cycle): the base, dealt anew in part (module docstring, 3)."""
        hit = self._cycles.get(k)
        if hit is not None:
            return hit  # type: ignore[no-any-return]
        days = [list(day) for day in self.base]
        rng = self.rng.Rng(self.seed(k))
        middle = range(WEEK, PATTERN - WEEK)
        if self.due:  # the middle days dealt anew, each cell's phase moved by the cycle's stream
            for d in middle:
                days[d] = [-1] * TIERS
        else:  # a share of the middle days' cells dealt anew, tier by tier
            for t in range(TIERS):
                moved = [d for d in middle if rng.below(MIX) == 0]
                for d, x in zip(moved, self.rng.shuffle([days[d][t] for d in moved], rng)):
                    days[d][t] = x
        lay = Layout(list(self.cells), self.identity, self.min_facts, days, self.apart, self.due)
        if self.due:
            phase = [(p + rng.below(1 << 16) / (1 << 16)) % 1.0 for p in self.phase]
            deal(lay, middle, phase, list(self.per_cycle), self.due)
        lay.repair([(d, t) for d in middle for t in range(TIERS)], middle)
        lay.rhythm(self.ease, middle)
        cell_days = [tuple(d for d in range(PATTERN) if days[d][cell.tier] == x) for x, cell in enumerate(self.cells)]
        slot = tuple(
            tuple(sum(1 for e in cell_days[days[d][t]] if e < d) for t in range(TIERS)) for d in range(PATTERN)
        )
        if len(self._cycles) >= CYCLES_KEPT:
            self._cycles.clear()
        hit = self._cycles[k] = (tuple(tuple(day) for day in days), slot, tuple(cell_days))
        return hit

    @functools.cached_property
    def base_days(self) -> tuple[tuple[int, ...], ...]:
        """Per cell, its days in the base layout."""
        return tuple(
            tuple(d for d in range(PATTERN) if self.base[d][cell.tier] == x) for x, cell in enumerate(self.cells)
        )

    def prepare(self, first: int, last: int) -> None:
        """Compute the cycles of days ``first`` .. ``last`` and one on each side (ahead.prepare)."""
        for k in range((first - self.first) // PATTERN - 1, (last - self.first) // PATTERN + 2):
            self.cycle(k)

    def uses(self, x: int) -> int:
        """Cell x's uses a cycle."""
        return self.per_cycle[x]

    @functools.cached_property
    def per_cycle(self) -> tuple[int, ...]:
        """Each cell's uses a cycle."""
        return tuple(sum(1 for day in self.base if day[cell.tier] == x) for x, cell in enumerate(self.cells))

    def turn(self, t: int, i: int) -> tuple[int, int]:
        """(tier t's category of day i, its use index: the uses it had before this one). A cell of
        small pools (many families) takes, from its use on, the first category whose family rests
        beside the other cells of the days around (else the first whose family is not on the day)."""
        k, p = divmod(i - self.first, PATTERN)
        days, slot, _ = self.cycle(k)
        x = days[p][t]
        cell = self.cells[x]
        n = k * self.uses(x) + slot[p][t]
        if cell.family >= 0:
            return cell.use(n)
        near: list[tuple[int, int]] = []  # (day - i, family) of the other cells' days around
        for d in range(-WEEK + 1, WEEK):
            q, r = divmod(p + d, PATTERN)
            for u, y in enumerate(self.cycle(k + q)[0][r] if q else days[r]):
                if self.cells[y].family >= 0 and (d or u != t):
                    near.append((d, self.cells[y].family))
        apart = None  # the first whose family is at least not on the day itself
        for step in range(len(cell.order)):
            c, use = cell.use(n + step)
            where = [d for d, f in near if f == self.family[c]]
            if apart is None and 0 not in where:
                apart = c, use
            if any(-1 <= d <= 1 for d in where):
                continue
            if all(sum(1 for d in where if w <= d < w + WEEK) <= 1 for w in range(-WEEK + 1, 1)):
                return c, use
        return apart or cell.use(n)

    def turns_of(self, c: int, t: int, i: int) -> list[tuple[int, int]]:
        """(day, use index) of category c's turns in tier t nearest day i, the last before it (or on
        it) and the first after (days from the version's first on)."""
        x = self.cell_of.get((c, t))
        if x is None:
            return []
        cell = self.cells[x]
        u = self.uses(x)
        k, p = divmod(i - self.first, PATTERN)
        n0 = k * u + sum(1 for d in self.cycle(k)[2][x] if d < p)  # the cell's uses before day i
        out = []
        for n in cell.uses_of(c, n0):
            q, j = divmod(n, u)
            # a cycle beyond the neighbours by the base's days (a day of a far cycle only
            # orders the fallbacks; computing it would cost a layout per cycle)
            where = self.cycle(q)[2] if abs(q - k) <= 1 else self.base_days
            out.append((self.first + q * PATTERN + where[x][j], cell.use(n)[1]))
        before = [du for du in out if du[0] <= i]
        after = [du for du in out if du[0] > i]
        return ([max(before)] if before else []) + ([min(after)] if after else [])

    def kin(self, c: int, t: int) -> tuple[int, ...]:
        """The other categories of category c's cell in tier t (its family's, or the small pools')."""
        x = self.cell_of.get((c, t))
        return () if x is None else tuple(sorted(set(self.cells[x].order) - {c}))

    def uses_in_a_year(self, c: int, t: int, year: int) -> int:
        """The most uses category c has in ``year`` days (its share of its cell's uses)."""
        x = self.cell_of[(c, t)]
        cell = self.cells[x]
        per_day = self.uses(x) * cell.share(c) / PATTERN
        return math.ceil(year * per_day) + 1


def make_pattern(
    first: int,
    data: Categories,
    min_facts: int,
    mode: str,
    key: bytes | None,
    rng: Any,
    meet: Any,
    salience: list[float],
) -> Pattern:
    """Version 3's Pattern from its first day (module docstring); every stream keyed by ``key``;
    ``meet(a, b)``: whether categories a and b can be on one board (plan.pair_fits); ``salience``:
    per category, how readily a player sees it (the week's rhythm)."""
    if _season.day_of(first).weekday() != 0:
        raise ValueError(f"schedule version 3 starts on a Monday (its cycles are whole weeks), not day {first}")

    def name(x: str) -> str | int:
        return _season.keyed(f"season|{mode}|v3|{x}", key)

    def shuffle(items: list[Any], x: str) -> list[Any]:
        return rng.shuffle(items, rng.Rng(name(x)))  # type: ignore[no-any-return]

    placeable, certain, family, identity, fact = data
    cells = make_cells(data, shuffle)
    uses = allocate(cells, identity, certain, bool(min_facts), fact)
    phase = shuffle(list(range(len(cells))), "phase")
    days = [[-1] * TIERS for _ in range(PATTERN)]
    apart = [[_apart(a, b, meet) for b in cells] for a in cells]
    ease = [sum(salience[c] for c in cell.order) / len(cell.order) for cell in cells]
    due = weekdays(cells, uses, shuffle(sorted({cell.family for cell in cells}), "weekdays"), ease)
    lay = Layout(cells, identity, min_facts, days, apart, due)
    whole = range(PATTERN)
    phases = tuple(phase[x] / len(cells) for x in range(len(cells)))
    if due:
        deal(lay, whole, list(phases), uses, due)
    else:  # each tier's cells spread evenly, a seeded phase each
        for t in range(TIERS):
            slots = sorted(
                ((j + phases[x]) / uses[x], x) for x in range(len(cells)) if cells[x].tier == t for j in range(uses[x])
            )
            for d, (_, x) in enumerate(slots):
                days[d][t] = x
        lay.refresh()
    lay.repair(shuffle([(d, t) for d in whole for t in range(TIERS)], "repair"), whole)
    lay.rhythm(ease, whole)
    assert all(sum(1 for day in days if day[cells[x].tier] == x) == uses[x] for x in range(len(cells)))
    assert ITEMS == TIERS
    return Pattern(
        first,
        tuple(cells),
        tuple(tuple(day) for day in lay.days),
        lay.broken(),
        family,
        {(c, cell.tier): x for x, cell in enumerate(cells) for c in cell.order},
        identity,
        min_facts,
        rng,
        lambda k: name(f"cycle|{k}"),
        apart,
        ease,
        due,
        phases,
    )


def _apart(a: Cell, b: Cell, meet: Any) -> int:
    """APART x the share of the category pairs of cells a and b (other tiers) that cannot meet on a board."""
    if a.tier == b.tier:
        return 0
    pairs = [(x, y) for x in set(a.order) for y in set(b.order)]
    return round(APART * sum(1 for x, y in pairs if not meet(x, y)) / len(pairs))


REST_W = 64  # deal's weight of a family rest broken (a showing the day before or after, a third in a WEEK)
CLASH_W = 16  # ... of a cell that can show the label of one shown within a WEEK (Layout.overlap)
SAME_DAY = 64  # ... of a family twice on one day, in REST_W (above DUE_W: never while another cell can go)
DUE_W = 1000  # ... of a family of two showings a WEEK off its weekdays (``weekdays``), or missing one


def deal(lay: Layout, free: range, phase: list[float], uses: list[int], due: dict[int, set[int]]) -> None:
    """Fill ``lay.days`` on the days ``free`` (the others kept; cells ``uses`` a cycle), day by day
    in order. First the families ``due`` that day (``weekdays``): one cell each, on distinct tiers,
    the choice of least cost; then each other tier, one at a time, the cell of least cost. A cell's
    cost against the days dealt and kept around it, read cyclically: REST_W per family rest it
    breaks, CLASH_W per showing of its label within a WEEK, DUE_W off its family's weekdays, plus
    the day's own cost (``Layout.day_fact``), less how overdue it is: a cell's j-th use of the
    cycle is due on day (j + phase) x PATTERN / its uses, its family's likewise by the family's
    uses over the tiers (a family that falls behind in one tier catches up in another). The
    layout's kept costs are then recomputed."""
    dealer = _Dealer(lay, free, phase, uses)
    for d in free:
        day = [-1] * TIERS
        taken: list[int] = []
        mine = [f for f in sorted(due) if d in due[f]]
        if mine:  # the families due today first: their cells on distinct tiers, the most overdue
            for x in dealer.due_first(mine, d):
                day[lay.cells[x].tier] = x
                taken.append(x)
                dealer.shown[lay.fam[x]][d] += 1
        while len(taken) < TIERS:
            t, x = dealer.cheapest(day, taken, d, due)
            day[t] = x
            taken.append(x)
            dealer.shown[lay.fam[x]][d] += 1
        for t, x in enumerate(day):
            lay.days[d][t] = x
            dealer.dealt(x, d)
    lay.refresh()


class _Dealer:
    """``deal``'s running state: per family its showings per day, per cell the days it is on, the
    uses left and the uses dealt or kept before the day being dealt, and the costs read from them."""

    def __init__(self, lay: Layout, free: range, phase: list[float], uses: list[int]) -> None:
        cells, fam, n = lay.cells, lay.fam, PATTERN
        self.lay, self.phase, self.uses = lay, phase, uses
        self.left = list(uses)
        self.total: dict[int, int] = {}
        for x, f in enumerate(fam):
            self.total[f] = self.total.get(f, 0) + uses[x]
        self.shown: dict[int, list[int]] = {f: [0] * n for f in self.total}  # per family, its showings per day
        self.cell_on: list[list[int]] = [[] for _ in cells]
        self.done = [0] * len(cells)  # uses dealt or kept before the day being dealt
        self.fdone: dict[int, int] = dict.fromkeys(self.total, 0)
        for d in (d for d in range(n) if d not in free):
            for x in lay.days[d]:
                self.left[x] -= 1
                self.shown[fam[x]][d] += 1
                self.cell_on[x].append(d)
                if d < free.start:
                    self.done[x] += 1
                    self.fdone[fam[x]] += 1
        self.fphase = {f: min(phase[x] for x in range(len(cells)) if fam[x] == f) for f in self.total}
        self.by_tier = [[x for x, cell in enumerate(cells) if cell.tier == t] for t in range(TIERS)]
        self.partners = [
            [y for y in range(len(cells)) if lay.overlap[x][y] and fam[y] == fam[x]] for x in range(len(cells))
        ]
        self.fam_cells: dict[int, list[int]] = {}
        for x, f in enumerate(fam):
            self.fam_cells.setdefault(f, []).append(x)

    def dealt(self, x: int, d: int) -> None:
        """Cell x is dealt on day d."""
        self.left[x] -= 1
        self.done[x] += 1
        self.fdone[self.lay.fam[x]] += 1
        self.cell_on[x].append(d)

    def rests(self, f: int, d: int) -> int:
        """The rests family f on day d breaks: SAME_DAY per showing that day (above any other
        cost), one per neighbour day with one, one per WEEK window around d holding two more."""
        if f < 0:
            return 0
        o, n = self.shown[f], PATTERN
        out = o[d] * SAME_DAY + (o[(d - 1) % n] > 0) + (o[(d + 1) % n] > 0)
        near = [o[(d + j) % n] for j in range(1 - WEEK, WEEK)]
        window = sum(near[:WEEK])  # the windows ending d - WEEK + 1 + w .. d + w, slid along
        out += window >= 2
        for w in range(1, WEEK):
            window += near[w + WEEK - 1] - near[w - 1]
            out += window >= 2
        return out

    def clashes(self, x: int, d: int) -> int:
        """Showings within a WEEK of day d of cells that can show a label of cell x (``overlap``)."""
        n = PATTERN
        return sum(1 for y in self.partners[x] for e in self.cell_on[y] if 0 < min((e - d) % n, (d - e) % n) <= WEEK)

    def lateness(self, x: int, d: int) -> float:
        """Days cell x is behind its spacing on day d, plus its family's (twice its own: small pools)."""
        f, n = self.lay.fam[x], PATTERN
        late = d - (self.done[x] + self.phase[x]) * n / self.uses[x]
        if f >= 0:
            return late + d - (self.fdone[f] + self.fphase[f]) * n / self.total[f]
        return 2 * late

    def cost(self, x: int, d: int) -> float:
        """Cell x's rest and clash costs on day d, less its lateness."""
        return REST_W * self.rests(self.lay.fam[x], d) + CLASH_W * self.clashes(x, d) - self.lateness(x, d)

    def due_first(self, mine: list[int], d: int) -> list[int]:
        """The cells of the families ``mine`` due on day d: one each or none, on distinct tiers,
        the choice of least cost."""
        cells = self.lay.cells
        best_combo: tuple[float, tuple[int, ...]] | None = None
        options = [[x for x in self.fam_cells[f] if self.left[x] > 0] + [-1] for f in mine]
        for combo in itertools.product(*options):
            placed = [x for x in combo if x >= 0]
            if len({cells[x].tier for x in placed}) < len(placed):
                continue
            score: float = DUE_W * (len(combo) - len(placed)) + self.lay.day_fact(placed)
            score += sum(self.cost(x, d) for x in placed)
            if best_combo is None or (score, combo) < best_combo:
                best_combo = (score, combo)
        assert best_combo is not None
        return [x for x in best_combo[1] if x >= 0]

    def cheapest(self, day: list[int], taken: list[int], d: int, due: dict[int, set[int]]) -> tuple[int, int]:
        """(tier, cell): of the tiers still open on day d, the cell of least cost."""
        best: tuple[tuple[float, int], int, int] | None = None
        for t in range(TIERS):
            if day[t] >= 0:
                continue
            for x in self.by_tier[t]:
                if self.left[x] <= 0:
                    continue
                f = self.lay.fam[x]
                score: float = REST_W * self.rests(f, d) + CLASH_W * self.clashes(x, d)
                score += self.lay.day_fact(taken + [x])
                score -= self.lateness(x, d)
                if f in due:
                    score += DUE_W
                key = (score, x)
                if best is None or key < best[0]:
                    best = (key, t, x)
        assert best is not None
        return best[1], best[2]


def weekdays(cells: list[Cell], uses: list[int], order: list[int], ease: list[float]) -> dict[int, set[int]]:
    """The days of each family of two showings a WEEK (PATTERN uses 2 x PATTERN / WEEK): its only
    layout that rests is weekly, two weekdays 3 days apart. The i-th such family (in the order
    that keeps families sharing a weekday in different tiers most, ties by ``order``) takes
    weekdays i + r and i + r + 3, so each weekday holds two of seven such families; r puts the
    easiest on Monday and Tuesday, the hardest on the weekend (``ease``: per cell, higher is
    easier; a cycle starts on a Monday)."""
    total: dict[int, list[int]] = {}
    easy: dict[int, float] = {}
    for x, cell in enumerate(cells):
        if cell.family >= 0:
            total.setdefault(cell.family, [0] * TIERS)[cell.tier] += uses[x]
            easy[cell.family] = easy.get(cell.family, 0.0) + ease[x] * uses[x]
    tight = [f for f in sorted(total, key=order.index) if sum(total[f]) * WEEK >= 2 * PATTERN]
    if not tight or len(tight) > WEEK:
        return {}

    def clash(perm: tuple[int, ...]) -> float:
        on: list[list[int]] = [[] for _ in range(WEEK)]
        for i, f in enumerate(perm):
            on[i].append(f)
            on[(i + 3) % WEEK].append(f)
        return sum(
            sum(a * b for a, b in zip(total[f], total[g])) for day in on for j, f in enumerate(day) for g in day[:j]
        )

    best = min(itertools.permutations(tight[1:]), key=lambda rest: clash((tight[0], *rest)))
    perm = (tight[0], *best)
    sign = {0: 1, 1: 1, 5: -1, 6: -1}  # Monday and Tuesday easy, the weekend hard

    def rhythm(r: int) -> float:
        return -sum(easy[f] * sign.get((i + r + j) % WEEK, 0) for i, f in enumerate(perm) for j in (0, 3))

    r = min(range(WEEK), key=lambda r: (rhythm(r), r))
    return {
        f: {d for d in range(PATTERN) if d % WEEK in ((i + r) % WEEK, (i + r + 3) % WEEK)} for i, f in enumerate(perm)
    }
