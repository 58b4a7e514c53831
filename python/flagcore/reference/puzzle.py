"""Pure-Python twin of flagcore._puzzle: the Puzzle engine's hot paths, the spec's code transcribed.

Like the compiled module it has two kinds of entry points, returning exactly what the compiled
ones return:

* kernels (count_cycles, min_swaps_exact, the *_batch functions, ...) take trusted input: a
  permutation as a 1-D int32 array or a sequence of ints, dense class ids 0..k-1 per piece;
* ``checked_*``, ``deal`` and ``checked_verify`` take the public arguments as the user passed
  them and run the checks of flagcore._args first, in the same order as the compiled module, so
  both twins raise the same exception with the same message for every bad input.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np

from .._args.puzzle import (
    VERIFY_BELOW_PAR,
    VERIFY_MOVES_AFTER_SOLVED,
    VERIFY_NOT_SOLVED,
    VERIFY_START_SOLVED,
    VERIFY_TOO_FEW_TILES,
    as_classes,
    as_max_nodes,
    as_method,
    as_permutation,
    as_swap_log,
    verify_error,
)
from ..errors import ParSearchLimit, SearchLimit
from ._cycle_packing import max_cycles_nodes
from .rng import Rng, shuffle

ENUMERATION_CAP = 750_000
MAX_VISUAL_RESHUFFLE_ATTEMPTS = 24

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
    """K <= 3: misplaced - 2-cycles - residual directed triangles."""
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


# ------------------------------------------------------------------ checked entry points (public arguments)


def checked_count_cycles(tiles_by_slot: Any) -> int:
    return count_cycles(as_permutation(tiles_by_slot).tolist())


def checked_min_swaps_to_identity(tiles_by_slot: Any) -> int:
    return min_swaps_to_identity(as_permutation(tiles_by_slot).tolist())


def checked_is_strictly_solved(tiles_by_slot: Any) -> bool:
    return is_strictly_solved(as_permutation(tiles_by_slot).tolist())


def checked_is_visually_solved(tiles_by_slot: Any, signatures: Any) -> bool:
    tiles = as_permutation(tiles_by_slot).tolist()
    if signatures is None:
        return is_strictly_solved(tiles)
    classes, _ = as_classes(signatures, len(tiles))
    return is_visually_solved(tiles, classes.tolist())


def checked_min_swaps(tiles_by_slot: Any, signatures: Any, method: Any, max_nodes: Any) -> int:
    """min_swaps_to_visual_solve: checks in the public function's order, then the par."""
    exact = as_method(method) == "exact"
    budget = as_max_nodes(max_nodes)
    tiles = as_permutation(tiles_by_slot).tolist()
    if signatures is None:
        return min_swaps_to_identity(tiles)
    classes, k = as_classes(signatures, len(tiles))
    if exact:
        return min_swaps_exact(tiles, classes.tolist(), k, budget)
    return min_swaps_enumerate(tiles, classes.tolist(), k)


def _create_shuffled_board(n: int, rng: Rng) -> list[int]:
    """The spec's createShuffledBoard: Fisher-Yates until the board is not the identity."""
    solved = list(range(n))
    board = shuffle(solved, rng)
    while board == solved:
        board = shuffle(solved, rng)
    return board


def _break_solved_layout(board: list[int], classes: list[int]) -> list[int]:
    """Try every pair swap in order (i < j) until one leaves the board not visually solved."""
    n = len(board)
    for i in range(n):
        for j in range(i + 1, n):
            trial = list(board)
            trial[i], trial[j] = trial[j], trial[i]
            if not is_visually_solved(trial, classes):
                return trial
    raise AssertionError("unreachable: boards with two tile classes always have a breaking swap")


def deal(n: int, classes: Any, k: int, state: int, max_nodes: int) -> tuple[tuple[int, ...], int]:
    """A new game's start board and its par (trusted input, as the compiled deal)."""
    rng = Rng(state)
    board = _create_shuffled_board(n, rng)
    if classes is None or k == 1:
        return tuple(board), min_swaps_to_identity(board)
    cls = [int(c) for c in classes]
    attempts = 0
    while is_visually_solved(board, cls) and attempts < MAX_VISUAL_RESHUFFLE_ATTEMPTS:
        board = _create_shuffled_board(n, rng)
        attempts += 1
    if is_visually_solved(board, cls):
        board = _break_solved_layout(board, cls)
    return tuple(board), min_swaps_exact(board, cls, k, max_nodes)


def checked_verify(start_tiles_by_slot: Any, swaps: Any, signatures: Any, max_nodes: Any) -> tuple[int, int]:
    """puzzle.verify's replay: (moves, par), or the error for a malformed or impossible log."""
    budget = as_max_nodes(max_nodes)
    tiles = as_permutation(start_tiles_by_slot, "start_tiles_by_slot").tolist()
    n = len(tiles)
    cls: list[int] | None = None
    k = n
    if signatures is not None:
        classes, k = as_classes(signatures, n)
        cls = classes.tolist() if k != 1 else None  # one class: the game's identity mode

    def solved(board: list[int]) -> bool:
        return is_strictly_solved(board) if cls is None else is_visually_solved(board, cls)

    if n < 2:
        raise verify_error(VERIFY_TOO_FEW_TILES)
    if solved(tiles):
        raise verify_error(VERIFY_START_SOLVED)
    pairs = as_swap_log(swaps, n)
    board = list(tiles)
    for i, (a, b) in enumerate(pairs):
        board[a], board[b] = board[b], board[a]
        if i != len(pairs) - 1 and solved(board):
            raise verify_error(VERIFY_MOVES_AFTER_SOLVED, i + 1)
    if not solved(board):
        raise verify_error(VERIFY_NOT_SOLVED)
    par = min_swaps_to_identity(tiles) if cls is None else min_swaps_exact(tiles, cls, k, budget)
    if len(pairs) < par:
        raise verify_error(VERIFY_BELOW_PAR, (len(pairs), par))
    return len(pairs), par
