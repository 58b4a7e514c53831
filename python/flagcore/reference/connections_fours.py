"""The complete off-board fours of a draw and its second split, kept apart from the board search
(flagcore.reference.connections) so that the leaf's repair there and the daily's repair
(flagcore.reference.daily_repair) read one implementation without importing each other.

``prep`` is the search's ``Prepared`` (flagcore.reference.connections): ``code_fits`` (per code the
categories it fits, certain or arguable) and ``pool_sets`` (per category its certain codes).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from .._connections_layout import ITEMS, TIERS

FULL = (1 << (TIERS * ITEMS)) - 1  # all sixteen tiles
GROUP_MASKS = frozenset(0xF << (ITEMS * g) for g in range(TIERS))  # each group's four, as a mask


def _complete(mask: int) -> int:
    """1 when a category with these members on the board (bit i: tile i) deals a complete off-board four."""
    return 1 if mask.bit_count() == ITEMS and mask not in GROUP_MASKS else 0


class _Fours:
    """The complete off-board fours of a draw's sixteen tiles, kept as its tiles change (the core's
    ``Fours``): each category's members on the board (``masks``, bit i: tile i, from the tiles'
    per-code lists), per tile the complete fours that hold it (``hits``), and how many (``count``).
    A swap of one tile touches only the categories of the two codes it swaps."""

    __slots__ = ("code_fits", "masks", "hits", "count")

    def __init__(self, prep: Any, tiles: Sequence[int]) -> None:
        self.code_fits = prep.code_fits
        masks: dict[int, int] = {}
        for i, x in enumerate(tiles):
            for c in self.code_fits[x]:
                masks[c] = masks.get(c, 0) | (1 << i)
        self.masks = masks
        self.hits = [0] * (TIERS * ITEMS)
        self.count = 0
        for m in masks.values():
            if _complete(m):
                self._tally(m, 1)

    def _tally(self, mask: int, sign: int) -> None:
        self.count += sign
        for i in range(TIERS * ITEMS):
            if mask >> i & 1:
                self.hits[i] += sign

    def _set(self, c: int, mask: int) -> None:
        old = self.masks.get(c, 0)
        if _complete(old):
            self._tally(old, -1)
        if _complete(mask):
            self._tally(mask, 1)
        self.masks[c] = mask

    def swap(self, i: int, x: int, y: int) -> None:
        """Tile i changes from code x to code y (a category that holds both is set twice and ends as it was)."""
        bit = 1 << i
        for c in self.code_fits[x]:
            self._set(c, self.masks[c] & ~bit)
        for c in self.code_fits[y]:
            self._set(c, self.masks.get(c, 0) | bit)

    def taken_out(self, i: int, x: int) -> int:
        """How the count changes when tile i (code x) leaves the board."""
        bit = 1 << i
        return sum(_complete(m & ~bit) - _complete(m) for m in (self.masks[c] for c in self.code_fits[x]))

    def put_in(self, i: int, y: int) -> int:
        """With tile i taken out, how the count changes when code y takes its place: a category that
        holds both codes (bit i set) gives back what taking the old one out changed."""
        bit, delta = 1 << i, 0
        for c in self.code_fits[y]:
            m = self.masks.get(c, 0)
            delta += _complete(m) - _complete(m & ~bit) if m & bit else _complete(m | bit) - _complete(m)
        return delta


def _split(prep: Any, group_tiles: Sequence[int]) -> list[tuple[int, int]]:
    """The first split of a board's sixteen tiles into four fours other than its own groups, as
    four (category, mask) pairs (bit i of mask: ``group_tiles[i]``), or [] when there is none.

    ``group_tiles`` holds group g at 4g..4g+3. A *four* of category c is four tiles that all fit c
    (its fit set: certain or arguable) and hold every tile that certainly fits c (its pool here):
    under some reading of the data, c's label fits exactly those four. A split is four disjoint
    fours of four distinct categories; the board's own groups are fours of their categories, so a
    split may keep some of them, but not all four. Fours are listed by category, then by their
    extra tiles in lexicographic order, and bucketed by their lowest tile; the search covers the
    lowest uncovered tile first (every tile below it is covered, so only its bucket can), depth
    first, and returns the first split it completes.
    """
    tiles = list(group_tiles)
    may: dict[int, int] = {}
    for i, x in enumerate(tiles):
        for c in prep.code_fits[x]:
            may[c] = may.get(c, 0) | (1 << i)
    buckets: list[list[tuple[int, int]]] = [[] for _ in range(TIERS * ITEMS)]
    for c in sorted(may):
        fit = may[c]
        if fit.bit_count() < ITEMS:
            continue
        pool = prep.pool_sets[c]
        must = sum(1 << i for i, x in enumerate(tiles) if x in pool)
        if must.bit_count() > ITEMS:
            continue
        free = [i for i in range(TIERS * ITEMS) if (fit & ~must) >> i & 1]
        for extra in itertools.combinations(free, ITEMS - must.bit_count()):
            mask = must | sum(1 << i for i in extra)
            buckets[(mask & -mask).bit_length() - 1].append((c, mask))
    chosen: list[tuple[int, int]] = []
    return chosen if _cover(buckets, chosen, 0) else []


def _cover(buckets: list[list[tuple[int, int]]], chosen: list[tuple[int, int]], covered: int) -> bool:
    """_split's depth-first search from the tiles in ``covered`` (a function of its own, not a
    closure: a recursive closure holds itself through its cell, a reference cycle per call that a
    serving worker's collector, run rarely (flagcore.web.ops), would have to find)."""
    if covered == FULL:
        return any(mask not in _REAL_GROUPS for _, mask in chosen)
    low = (~covered & (covered + 1)).bit_length() - 1
    for c, mask in buckets[low]:
        if mask & covered or any(c == d for d, _ in chosen):
            continue
        chosen.append((c, mask))
        if _cover(buckets, chosen, covered | mask):
            return True
        chosen.pop()
    return False


_REAL_GROUPS = frozenset(0xF << (ITEMS * g) for g in range(TIERS))  # the board's own four masks
