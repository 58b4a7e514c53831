"""Pure-Python twin of flagcore._puzzle: the Puzzle engine's hot paths, the spec's code transcribed.

Every function takes inputs already validated by flagcore.puzzle (a permutation as a 1-D int32
array or a sequence of ints, dense class ids 0..k-1 per piece) and returns exactly what the
compiled module returns.
"""
from __future__ import annotations

import itertools
from typing import Any, Sequence

import numpy as np

from .._validate_puzzle import ParSearchLimit
from ._cycle_packing import SearchLimit, max_cycles_nodes

ENUMERATION_CAP = 750_000

Ints = Sequence[int]


def count_cycles(tiles_by_slot: Ints) -> int:
    """The spec's countCyclesOfPermutation: cycles of the permutation, fixed points included."""
    mapping = [int(x) for x in tiles_by_slot]
    n = len(mapping)
    seen = [False] * n
    cycles = 0
    for i in range(n):
        if seen[i]:
            continue
        cycles += 1
        j = i
        while not seen[j]:
            seen[j] = True
            j = mapping[j]
    return cycles


def min_swaps_to_identity(tiles_by_slot: Ints) -> int:
    return len(tiles_by_slot) - count_cycles(tiles_by_slot)


def is_strictly_solved(tiles_by_slot: Ints) -> bool:
    return all(int(t) == s for s, t in enumerate(tiles_by_slot))


def is_visually_solved(tiles_by_slot: Ints, classes: Ints) -> bool:
    cls = [int(c) for c in classes]
    return all(cls[int(t)] == cls[s] for s, t in enumerate(tiles_by_slot))


def mismatch_matrix(tiles_by_slot: Ints, classes: Ints, k: int) -> tuple[list[list[int]], int]:
    """The spec's buildMismatchMatrix: mismatch[a][b] = slots of class a holding a class-b tile."""
    cls = [int(c) for c in classes]
    mismatch = [[0] * k for _ in range(k)]
    misplaced = 0
    for s, t in enumerate(tiles_by_slot):
        a, b = cls[s], cls[int(t)]
        if a != b:
            mismatch[a][b] += 1
            misplaced += 1
    return mismatch, misplaced


def _closed_form(tiles_by_slot: Ints, classes: Ints, k: int) -> int:
    """K <= 3: misplaced - 2-cycles - residual directed triangles (the closed form for up to 3 classes)."""
    mismatch, misplaced = mismatch_matrix(tiles_by_slot, classes, k)
    cycles = 0
    for a in range(k):
        for b in range(a + 1, k):
            t = min(mismatch[a][b], mismatch[b][a])
            mismatch[a][b] -= t
            mismatch[b][a] -= t
            cycles += t
    if k == 3:
        m = mismatch
        cycles += max(min(m[0][1], m[1][2], m[2][0]), min(m[0][2], m[2][1], m[1][0]))
    return misplaced - cycles


def _enumeration_size(classes: Ints, k: int) -> int:
    sizes = [0] * k
    for c in classes:
        sizes[int(c)] += 1
    total = 1
    for size in sizes:
        for f in range(2, size + 1):
            total *= f
            if total > ENUMERATION_CAP:
                return total
    return total


def min_swaps_enumerate(tiles_by_slot: Ints, classes: Ints, k: int) -> int:
    """The spec's minSwapsToVisualSolve: closed form for K <= 3, else every sigma in
    G_1! x ... x G_K! (n - max cycles of sigma^-1 pi), or the identity count past 750,000."""
    if k <= 3:
        return _closed_form(tiles_by_slot, classes, k)
    if _enumeration_size(classes, k) > ENUMERATION_CAP:
        return min_swaps_to_identity(tiles_by_slot)
    pi = [int(x) for x in tiles_by_slot]
    n = len(pi)
    groups: list[list[int]] = [[] for _ in range(k)]
    for s, c in enumerate(classes):
        groups[int(c)].append(s)
    best = 0
    inv = list(range(n))
    for orderings in itertools.product(*(itertools.permutations(g) for g in groups)):
        # sigma maps groups[j][i] -> orderings[j][i]; inv is sigma^-1
        for members, image in zip(groups, orderings):
            for s, t in zip(members, image):
                inv[t] = s
        cycles = count_cycles([inv[p] for p in pi])
        if cycles > best:
            best = cycles
    return n - best


def min_swaps_exact(tiles_by_slot: Ints, classes: Ints, k: int, max_nodes: int = -1) -> int:
    """The true minimum: misplaced slots minus the maximum cycle decomposition of the colour graph.

    Raises ParSearchLimit after max_nodes search nodes (negative: no limit).
    """
    return _exact(tiles_by_slot, classes, k, max_nodes)[0]


def exact_search_nodes(tiles_by_slot: Ints, classes: Ints, k: int) -> tuple[int, int]:
    """(par, search nodes it took) with no limit: how far a board is from any max_nodes."""
    return _exact(tiles_by_slot, classes, k, -1)


def _exact(tiles_by_slot: Ints, classes: Ints, k: int, max_nodes: int) -> tuple[int, int]:
    cls = [int(c) for c in classes]
    edges: dict[tuple[int, int], int] = {}
    misplaced = 0
    for s, t in enumerate(tiles_by_slot):
        a, b = cls[s], cls[int(t)]
        if a != b:
            edges[(a, b)] = edges.get((a, b), 0) + 1
            misplaced += 1
    if k == len(cls):  # all tiles distinct: the colour graph is the permutation itself
        return min_swaps_to_identity(tiles_by_slot), 0
    try:
        cycles, nodes = max_cycles_nodes(edges, max_nodes)
        return misplaced - cycles, nodes
    except SearchLimit:
        raise ParSearchLimit(len(cls), k, max_nodes) from None


def count_cycles_batch(boards: Any) -> np.ndarray:
    return np.array([count_cycles(row) for row in np.asarray(boards).tolist()], dtype=np.int64)


def min_swaps_to_identity_batch(boards: Any) -> np.ndarray:
    return np.array([min_swaps_to_identity(row) for row in np.asarray(boards).tolist()], dtype=np.int64)


def min_swaps_batch(boards: Any, classes: Any, ks: Any, method: str, max_nodes: int = -1) -> np.ndarray:
    """Par of each row of ``boards`` against the matching row of ``classes`` (k colours in ks).

    The node budget applies to each board separately; ParSearchLimit names the row that hit it.
    """
    rows = np.asarray(boards).tolist()
    cls = np.asarray(classes).tolist()
    out = []
    for i, (r, c, k) in enumerate(zip(rows, cls, np.asarray(ks).tolist())):
        if method != "exact":
            out.append(min_swaps_enumerate(r, c, int(k)))
            continue
        try:
            out.append(min_swaps_exact(r, c, int(k), max_nodes))
        except ParSearchLimit as e:
            raise ParSearchLimit(e.n, e.k, e.max_nodes, i) from None
    return np.array(out, dtype=np.int64)
