"""The season's rotation: which item (a category, a Puzzle flag) day i of the schedule gets.

Day i counts from the epoch (``flagcore.days.EPOCH``, day 0). A :class:`Rotation` over
n items deals them in cycles of n days, cycle k being days k*n .. k*n+n-1, so every item has its
turn once per cycle: nothing comes back before all the others had theirs. Each cycle's order is
computed from k alone (no replay of earlier days), in blocks so that the gap holds across the
cycle boundary too:

* the items are shuffled once (seed ``key``) and cut into blocks of b = n // 5 + 1 consecutive
  items; cycle k lists the blocks in that fixed order, each block shuffled by the Rng of
  ``key|k``;
* an item sits in the same block in every cycle, so its day moves by less than b between two
  cycles: two turns of one item are between n - b + 1 and n + b - 1 days apart, and
  n - b + 1 >= 0.8 * n for every n (b <= n / 5 + 1). With 13 items: 11 to 15 days.

The Rng is the twins' mulberry32 (the engine given, else ``core.rng`` read when the rotation is
made), so the same key gives the same rotation on every machine and in both twins.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import hmac
from collections.abc import Callable, Hashable, Sequence
from typing import Any, Generic, TypeVar

from . import days as _days
from ._args.season import as_day
from ._impl import core
from .days import EPOCH

T = TypeVar("T", bound=Hashable)
_CYCLE_CACHE = 256  # cycles kept per rotation: a season report walks them in order

__all__ = ["EPOCH", "Rotation", "by_weekday", "day_index", "day_of"]


def day_index(date: Any, name: str = "date") -> int:
    """Days from the epoch to ``date`` (a date, 'YYYY-MM-DD' or None for today in UTC)."""
    return _days.day_number(as_day(date, name))


def day_of(index: int) -> _dt.date:
    """The date of day ``index`` of the schedule."""
    return _days.date_of(index)


def block_size(n: int) -> int:
    """Items per block: the largest b with n - b + 1 >= 0.8 * n, i.e. n // 5 + 1."""
    return n // 5 + 1


def by_weekday(items: list[T], first_day: int, ease: Callable[[T], float]) -> list[T]:
    """``items`` (for days first_day, first_day + 1, ...) rearranged so that the easier ones fall on
    the earlier weekdays of those days: the k-th easiest item takes the day with the k-th earliest
    weekday (Monday first; ties keep the given order). A weekly rhythm inside a block: the block
    keeps its days, so the gap bound is untouched."""
    days = sorted(range(len(items)), key=lambda d: (day_of(first_day + d).weekday(), d))
    ranked = sorted(range(len(items)), key=lambda j: (-ease(items[j]), j))
    out: list[T] = list(items)
    for d, j in zip(days, ranked):
        out[d] = items[j]
    return out


def match(items: list[T], first_day: int, fits: Callable[[T, int], int]) -> list[T]:
    """``items`` reordered so that item j goes to day first_day + j and ``fits(item, day)`` holds
    for as many as possible (a maximum bipartite matching, Kuhn's augmenting paths). ``fits`` may
    grade a fit (0 no, higher better): each item then tries the days where it fits best first.
    Where the given order already fits best, it is kept; items nothing fits take the days left
    over, in order.
    """
    n = len(items)
    ok = [[int(fits(x, first_day + d)) for d in range(n)] for x in items]

    def days_best_first(x: int) -> list[int]:
        """The days item x fits, best first, its own day first among equals."""
        return sorted((d for d in range(n) if ok[x][d]), key=lambda d: (-ok[x][d], d != x, d))

    prefs = [days_best_first(x) for x in range(n)]
    day_of_item = [-1] * n
    item_of_day = [-1] * n

    for x in range(n):
        _augment(x, [False] * n, prefs, item_of_day, day_of_item)
    free_days = iter(d for d in range(n) if item_of_day[d] < 0)
    for x in range(n):
        if day_of_item[x] < 0:
            d = next(free_days)
            item_of_day[d] = x
    return [items[item_of_day[d]] for d in range(n)]


def _augment(x: int, seen: list[bool], prefs: list[list[int]], item_of_day: list[int], day_of_item: list[int]) -> bool:
    """:func:`match`'s augmenting path from item x (a function of its own, not a closure: a
    recursive closure holds itself through its cell, a reference cycle per call)."""
    for d in prefs[x]:
        if not seen[d]:
            seen[d] = True
            if item_of_day[d] < 0 or _augment(item_of_day[d], seen, prefs, item_of_day, day_of_item):
                item_of_day[d] = x
                day_of_item[x] = d
                return True
    return False


def best_match(items: list[T], first_day: int, fits: Callable[[T, int], int]) -> list[T]:
    """``items`` reordered as :func:`match` does, but by the best total grade: the most items on a
    day they fit, then the highest sum of ``fits`` over them, then the most items on their own day
    (an exact assignment, the Hungarian method on those three folded into one weight). ``match``
    lets the first item take its best day even where that costs two others theirs (a family's rest)."""
    n = len(items)
    ok = [[int(fits(x, first_day + d)) for d in range(n)] for x in items]
    grade_w = n + 1  # the own-day count (at most n) stays below one grade step
    fit_w = grade_w * (n * max((g for row in ok for g in row), default=0) + 1)  # the grades' sum below one fit
    # cost[x][d] (1-based, minimised): the negated weight of item x on day d
    cost = [[0] * (n + 1)] + [
        [0] + [-((ok[x][d] > 0) * fit_w + ok[x][d] * grade_w + (d == x)) for d in range(n)] for x in range(n)
    ]
    u: list[float] = [0.0] * (n + 1)
    v: list[float] = [0.0] * (n + 1)
    p, way = [0] * (n + 1), [0] * (n + 1)
    for x in range(1, n + 1):
        p[0], d0 = x, 0
        low, used = [float("inf")] * (n + 1), [False] * (n + 1)
        while True:
            used[d0] = True
            x0, delta, d1 = p[d0], float("inf"), 0
            for d in range(1, n + 1):
                if not used[d]:
                    cur = cost[x0][d] - u[x0] - v[d]
                    if cur < low[d]:
                        low[d], way[d] = cur, d0
                    if low[d] < delta:
                        delta, d1 = low[d], d
            for d in range(n + 1):
                if used[d]:
                    u[p[d]] += delta
                    v[d] -= delta
                else:
                    low[d] -= delta
            d0 = d1
            if p[d0] == 0:
                break
        while d0:
            d1 = way[d0]
            p[d0] = p[d1]
            d0 = d1
    return [items[p[d + 1] - 1] for d in range(n)]


def keyed(name: str, key: bytes | None = None) -> str | int:
    """The seed of the random stream ``name`` of a schedule: ``name`` itself in the public schedule
    (key None); under a season key, the first 32 bits of HMAC-SHA256(key, name), so without the
    key no stream of the schedule, and no board of it, can be computed. An int seed is the Rng's
    state as given, in both twins: nothing of the key reaches the engines."""
    if key is None:
        return name
    return int.from_bytes(hmac.new(key, name.encode("utf-8"), hashlib.sha256).digest()[:4], "big")


def as_season_key(key: Any) -> bytes | None:
    """A season key: None (the public schedule) or bytes of at least 16 (128 bits)."""
    if key is None:
        return None
    if not isinstance(key, bytes):
        raise TypeError(f"key must be bytes or None, not {type(key).__name__}")
    if len(key) < 16:
        raise ValueError(f"key must be at least 16 bytes (128 bits), got {len(key)}")
    return key


def spread_blocks(items: list[T], b: int, kind: Callable[[T], tuple[Hashable, Hashable]]) -> list[T]:
    """``items`` rearranged so that, cut into blocks of b, the items of one kind sit in blocks far
    apart. ``kind(x)`` is (its family, its label): the families, largest first (ties in the given
    order), deal their items, one label's items one after the other, to the blocks in the order
    0, 2, 4, ..., 1, 3, ... (each block holding b items at most, the last its remainder). When
    every block holds b items, two items of a family share a block only when it has more items
    than there are blocks; a shorter last block fills first and the deal then skips it, so a family
    no larger than the blocks may put two items in one block, never three (the property test).
    Two items of one label sit two blocks apart (at least b + 1 days in every cycle) unless their
    family's turn of the deal wraps. Each block keeps the given order of its items."""
    n = len(items)
    sizes = [min(b, n - j) for j in range(0, n, b)]
    order = list(range(0, len(sizes), 2)) + list(range(1, len(sizes), 2))
    families: dict[Hashable, list[T]] = {}
    first: dict[tuple[Hashable, Hashable], int] = {}
    for j, x in enumerate(items):
        families.setdefault(kind(x)[0], []).append(x)
        first.setdefault(kind(x), j)
    blocks: list[list[T]] = [[] for _ in sizes]
    turn = 0
    for family in sorted(families.values(), key=len, reverse=True):  # stable: ties keep the given order
        for x in sorted(family, key=lambda x: first[kind(x)]):  # one label's items together
            while len(blocks[order[turn % len(order)]]) >= sizes[order[turn % len(order)]]:
                turn += 1
            blocks[order[turn % len(order)]].append(x)
            turn += 1
    place = {x: j for j, x in enumerate(items)}
    return [x for block in blocks for x in sorted(block, key=place.__getitem__)]


class Rotation(Generic[T]):
    """``items`` dealt one a day in cycles of len(items) days (see the module docstring).

    ``fits(item, day)``, when given, says whether an item may sit on a day (a category next to the
    categories other rotations put on that day): each block's items are then matched to the
    block's days so that as many as possible fit (:func:`match`), still inside their block, so the
    gap bound holds unchanged. ``spread(item)``, when given, is (its family, its label), what a
    player sees: the blocks are then dealt so that items of one family sit in blocks far apart
    (:func:`spread_blocks`).
    """

    def __init__(
        self,
        items: Sequence[T],
        key: str,
        fits: Callable[[T, int], int] | None = None,
        ease: Callable[[T, int], float] | None = None,
        season_key: bytes | None = None,
        rng: Any = None,
        spread: Callable[[T], tuple[Hashable, Hashable]] | None = None,
        best: bool = False,
    ) -> None:
        if not items:
            raise ValueError(f"rotation {key!r}: no items to rotate")  # flagcore's invariant, not an argument
        self.key = key
        # the Rng engine (compiled or twin) of every shuffle, read once: a cycle computed in a
        # background thread uses the engine of the thread that made the rotation
        self.rng = core.rng if rng is None else rng
        self.season_key = season_key  # None: the public schedule; else every shuffle is keyed (see keyed)
        self.fits = fits
        self.matcher = best_match if best else match  # best: the blocks' best assignment (version 2)
        self.ease = ease  # ease(item, cycle): higher is easier; each block then runs easy to hard in the week
        self.n = len(items)
        self.items = frozenset(items)  # what it deals (no cycle needs computing to know)
        base = self.rng.shuffle(list(items), self.rng.Rng(keyed(key, season_key)))
        b = block_size(self.n)
        if spread is not None:
            base = spread_blocks(base, b, spread)
        self.blocks: tuple[tuple[T, ...], ...] = tuple(tuple(base[j : j + b]) for j in range(0, self.n, b))
        self._cycles: dict[int, tuple[tuple[T, ...], dict[T, int]]] = {}

    def cycle(self, k: int) -> tuple[tuple[T, ...], dict[T, int]]:
        """(the items of cycle k in day order, each item's offset in it)."""
        hit = self._cycles.get(k)
        if hit is None:
            rng = self.rng.Rng(keyed(f"{self.key}|{k}", self.season_key))
            order: list[T] = []
            for block in self.blocks:
                items = self.rng.shuffle(block, rng)
                if self.ease is not None:
                    items = by_weekday(items, k * self.n + len(order), lambda x, k=k: self.ease(x, k))  # type: ignore[misc]
                if self.fits is not None:
                    items = self.matcher(items, k * self.n + len(order), self.fits)
                order.extend(items)
            if len(self._cycles) >= _CYCLE_CACHE:
                self._cycles.clear()
            hit = self._cycles[k] = (tuple(order), {x: j for j, x in enumerate(order)})
        return hit

    def at(self, i: int) -> T:
        """The item of day i."""
        k, j = divmod(i, self.n)
        return self.cycle(k)[0][j]

    def turn(self, item: T, k: int) -> int:
        """The day of ``item``'s turn in cycle k."""
        return k * self.n + self.cycle(k)[1][item]

    def distance(self, item: T, i: int) -> int:
        """Days between day i and ``item``'s nearest turn (in day i's cycle or a neighbour's)."""
        k = i // self.n
        return min(abs(i - self.turn(item, q)) for q in (k - 1, k, k + 1) if q >= 0)

    def nearest_cycle(self, item: T, i: int) -> int:
        """The cycle whose turn of ``item`` is nearest day i (the earlier one on a tie)."""
        k = i // self.n
        return min((q for q in (k - 1, k, k + 1) if q >= 0), key=lambda q: (abs(i - self.turn(item, q)), q))


# ---------------------------------------------------------------- the Puzzle daily

# The weekly rhythm of the Puzzle daily's grid, Monday first: easy at the start of the week,
# hard at its end (a weekend has time for the 5x3 board).
WEEKLY_GRIDS = ("easy", "easy", "medium", "medium", "hard", "hard", "hard")
_puzzle_rotations: dict[bytes | None, Rotation[str]] = {}  # per season key (None: the public schedule)


def puzzle_flags() -> tuple[str, ...]:
    """The flags the Puzzle daily deals: every bundled artwork with a name (all 256 bundled flags
    are named: countries, territories, the UK's nations, the EU)."""
    from .library import flag_names
    from .signatures import bundled_codes

    named = flag_names()
    return tuple(code for code in bundled_codes() if code in named)


def puzzle_plan(date: Any = None, key: bytes | None = None) -> tuple[str, str, str]:
    """(flag, grid name, seed) of the Puzzle daily of ``date``: every named flag has its turn once
    per cycle (256 days with the bundled data), the grid follows WEEKLY_GRIDS.

    key: a season key (``keyed``): the flags' rotation is keyed and the seed is
    "puzzle:YYYY-MM-DD:" and 16 hex digits of the key's MAC of the day, so the deal of a day is
    known only to who has the key. None: the public schedule, seed "puzzle:YYYY-MM-DD"."""
    key = as_season_key(key)
    i = day_index(date)
    rotation = _puzzle_rotations.get(key)
    if rotation is None:
        rotation = _puzzle_rotations.setdefault(key, Rotation(puzzle_flags(), "season|puzzle", season_key=key))
    day = day_of(i).isoformat()
    seed = f"puzzle:{day}"
    if key is not None:
        seed += ":" + hmac.new(key, seed.encode("ascii"), hashlib.sha256).hexdigest()[:16]
    return rotation.at(i), WEEKLY_GRIDS[day_of(i).weekday()], seed
