"""Pure-Python twin of the compiled ``repair_members`` (src/flagcore/daily_repair.pxi): the greedy
repair of a scheduled day's members, step 4c of flagcore.connections.daily (its decoys module
states the rule; this is the same loop over plain arrays, so it runs in C without the schedule).

A group's *reader* says which four codes its category's use reads with a set of codes skipped
(``read_four``), the members of flagcore.connections.daily.members as data:

* ``(RING, seq, start, previous)``: a large pool, ``seq`` its order read from ``start`` round to it,
  the codes not in ``previous`` (a bit set: the previous use's four) first, then those; the first
  four not skipped (fewer when the pool runs out);
* ``(WALK, subsets, window, rest, u, off_plan)``: a small pool's walk, ``subsets`` its entries as
  four codes each (n rows), use ``u``: the entries u + d for d in ``[0] + window`` (``window``
  rotated by u * 7; ``window + [0]`` for a use ``off_plan``) then in ``rest``, each part first
  with the entries sharing at most 2 codes with entry u - 1's, then with any; the first entry none
  of whose codes is skipped, or none.

The repair (``repair_members``): from ``fours`` (group g's four codes) and ``left`` (per group,
the codes left out, a bit set), while the draw has faults (its complete off-board fours of the
categories ``recent``, plus those over DECOY_FOURS_CAP; a draw without them but with a second
split counts 1), each step tries the board's tiles, those most of the fours to break hold first
(the ``recent`` ones, and with the draw over the cap every complete four; ties by group, then code
index), each for the next ``tries`` fours its group reads with that tile and the codes tried
before left out, and keeps the first draw with the fewest faults (a draw with none ends the
step); at most ``repairs`` steps. Returns (the fours, ``left``) of a draw with no fault, or None.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from .._connections_layout import DECOY_FOURS_CAP, ITEMS, TIERS
from .connections_fours import _complete, _Fours, _split

RING, WALK = 0, 1
Reader = tuple[Any, ...]


def read_four(reader: Reader, skip: int) -> list[int]:
    """The four codes ``reader`` reads with the codes of ``skip`` (a bit set) skipped (module docstring)."""
    if reader[0] == RING:
        seq, start, previous = [int(x) for x in reader[1]], int(reader[2]), int(reader[3])
        p = len(seq)
        four: list[int] = []
        for avoid in (skip | previous, skip | ~previous):
            for j in range(p):
                x = seq[(start + j) % p]
                if not avoid >> x & 1:
                    four.append(x)
                    if len(four) == ITEMS:
                        return four
        return four
    subsets = [[int(x) for x in row] for row in reader[1]]
    window, rest = [int(d) for d in reader[2]], [int(d) for d in reader[3]]
    u, off_plan = int(reader[4]), bool(reader[5])
    n = len(subsets)
    prev = set(subsets[(u - 1) % n]) if u > 0 else set()
    if window:
        r = u * 7 % len(window)
        window = window[r:] + window[:r]
    for part in (window + [0], rest) if off_plan else ([0] + window, rest):
        for strict in (True, False):
            for d in part:
                entry = subsets[(u + d) % n]
                if any(skip >> x & 1 for x in entry) or strict and len(prev.intersection(entry)) > 2:
                    continue
                return entry
    return []


def _faults(prep: Any, tiles: list[int], recent: Sequence[int]) -> tuple[int, _Fours]:
    """(the draw's faults (module docstring), its complete fours)."""
    fours = _Fours(prep, tiles)
    n = sum(_complete(fours.masks.get(c, 0)) for c in recent) + max(0, fours.count - DECOY_FOURS_CAP)
    return (n if n or not _split(prep, tiles) else 1), fours


def _swaps(
    prep: Any,
    readers: Sequence[Reader],
    taken: Sequence[int],
    recent: list[int],
    cur: list[list[int]],
    left: list[int],
    tries: int,
) -> Iterator[tuple[list[list[int]], int, int]]:
    """The draws one step tries from ``cur`` (module docstring), in order, each as (its fours, the
    group swapped, that group's codes left out)."""
    state = _Fours(prep, [x for four in cur for x in four])
    hits = list(state.hits) if state.count > DECOY_FOURS_CAP else [0] * (TIERS * ITEMS)
    for c in recent:
        m = state.masks.get(c, 0)
        if _complete(m):
            for i in range(TIERS * ITEMS):
                hits[i] += m >> i & 1
    for i in sorted(range(TIERS * ITEMS), key=lambda i: (-hits[i], i // ITEMS, cur[i // ITEMS][i % ITEMS])):
        g = i // ITEMS
        out = left[g] | 1 << cur[g][i % ITEMS]
        for _ in range(tries):
            four = read_four(readers[g], taken[g] | out)
            if len(four) < ITEMS:
                break
            yield [*cur[:g], four, *cur[g + 1 :]], g, out
            for y in four:  # the next try reads past the codes this one read
                if y not in cur[g]:
                    out |= 1 << y


def _checked(
    prep: Any, readers: Sequence[Reader], taken: Sequence[int], recent: Any, fours: Any, left: Any
) -> tuple[list[int], list[list[int]], list[int]]:
    recent = [int(c) for c in recent]
    cur = [[int(x) for x in four] for four in fours]
    left = [int(v) for v in left]
    if len(readers) != TIERS or len(taken) != TIERS or len(cur) != TIERS or len(left) != TIERS:
        raise ValueError("repair_members: four readers, taken sets, fours and left-out sets")
    if any(len(four) != ITEMS for four in cur) or not all(0 <= c < len(prep.fits) for c in recent):
        raise ValueError("repair_members: four codes a group, recent holds category indices")
    return recent, cur, left


def repair_members(
    prep: Any,
    readers: Sequence[Reader],
    taken: Sequence[int],
    recent: Any,
    fours: Sequence[Sequence[int]],
    left: Sequence[int],
    repairs: int,
    tries: int,
) -> tuple[list[list[int]], list[int]] | None:
    """The greedy repair of a day's draw (module docstring): ``taken[g]``, the codes group g never
    takes (the other groups' fit sets, a bit set); (the fours, the codes left out) or None."""
    recent, cur, left = _checked(prep, readers, taken, recent, fours, left)
    faults, _ = _faults(prep, [x for four in cur for x in four], recent)
    for _ in range(repairs):
        if faults == 0:
            return cur, left
        best: tuple[int, list[list[int]], int, int] | None = None
        for tried, g, out in _swaps(prep, readers, taken, recent, cur, left, tries):
            f, _ = _faults(prep, [x for four in tried for x in four], recent)
            if best is None or f < best[0]:
                best = (f, tried, g, out)
                if f == 0:  # none can do better (ties keep the first)
                    break
        if best is None:  # every group's codes used up
            return None
        faults, cur, g, left[g] = best
    return (cur, left) if faults == 0 else None


def wide_repair_members(
    prep: Any,
    readers: Sequence[Reader],
    taken: Sequence[int],
    recent: Any,
    starts: Sequence[tuple[Any, Any]],
    beam: int,
    steps: int,
    tries: int,
) -> tuple[list[list[int]], list[int]] | None:
    """The repair as a beam: from the draws ``starts`` ((fours, left) each), each step tries every
    swap (``_swaps``) of each of the ``beam`` draws with the fewest faults (the first tried among
    equals), a draw (its fours) met before not again, up to ``steps`` steps; the first draw with
    no fault, as (the fours, the codes left out), or None."""
    if not starts:
        raise ValueError("wide_repair_members: at least one draw to start from")
    front = [_checked(prep, readers, taken, recent, fours, left) for fours, left in starts]
    recent = front[0][0]
    seen = {tuple(map(tuple, cur)) for _, cur, _ in front}
    kept_beam = [(cur, left) for _, cur, left in front]
    for _ in range(steps):
        scored: list[tuple[int, int, list[list[int]], list[int]]] = []
        for cur, left in kept_beam:
            for tried, g, out in _swaps(prep, readers, taken, recent, cur, left, tries):
                key = tuple(map(tuple, tried))
                if key in seen:
                    continue
                seen.add(key)
                kept = [*left[:g], out, *left[g + 1 :]]
                f, _ = _faults(prep, [x for four in tried for x in four], recent)
                if f == 0:
                    return tried, kept
                scored.append((f, len(scored), tried, kept))
        if not scored:
            return None
        scored.sort(key=lambda x: x[:2])
        kept_beam = [(fours, left) for _, _, fours, left in scored[:beam]]
    return None
