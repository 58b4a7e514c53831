"""Puzzle mathematics: compiled core vs reference twin, and both against independent oracles."""

import itertools
import math
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from puzzle_oracles import bfs_min_swaps, indep_min_swaps, sigma_min_swaps

from flagcore import _puzzle as core
from flagcore import puzzle
from flagcore._args.puzzle import as_classes
from flagcore._impl import IMPL
from flagcore.reference import puzzle as ref

IMPLS = [pytest.param(core, id="core"), pytest.param(ref, id="ref")]


@st.composite
def boards(draw, max_n=15, max_classes=None):
    n = draw(st.integers(1, max_n))
    perm = draw(st.permutations(range(n)))
    k = draw(st.integers(1, max_classes or n))
    sigs = draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n))
    return list(perm), sigs


def arr(x):
    return np.array(x, dtype=np.int32)


def classes_of(sigs):
    return as_classes(sigs, len(sigs))


def random_board(rng, n, k):
    tiles = list(range(n))
    rng.shuffle(tiles)
    return tiles, [rng.randrange(k) for _ in range(n)]


# ------------------------------------------------------------------ spec facts


@pytest.mark.parametrize("impl", IMPLS)
def test_worked_example(impl):
    tiles = arr([2, 0, 1, 4, 3, 5])
    assert impl.count_cycles(tiles) == 3
    assert impl.min_swaps_to_identity(tiles) == 3
    assert puzzle.min_swaps_to_identity([2, 0, 1, 4, 3, 5]) == 3


def stirling_first(n):
    row = [1]
    for m in range(n):
        nxt = [0] * (len(row) + 1)
        for k, v in enumerate(row):
            nxt[k] += m * v
            nxt[k + 1] += v
        row = nxt
    return row


@pytest.mark.parametrize("impl", IMPLS)
def test_par_distribution_over_s6_is_stirling(impl):
    counts = [0] * 7
    for p in itertools.permutations(range(6)):
        counts[impl.count_cycles(arr(p))] += 1
    assert counts == stirling_first(6)
    assert sum(counts) == math.factorial(6)


def test_batch_over_s6_matches_singles():
    allp = np.array(list(itertools.permutations(range(6))), dtype=np.int32)
    got = puzzle.count_cycles_batch(allp)
    assert np.bincount(got, minlength=7).tolist() == stirling_first(6)
    assert (puzzle.min_swaps_to_identity_batch(allp) == 6 - got).all()


# ------------------------------------------------------------------ parity core == reference


@given(boards(max_n=40))
@settings(max_examples=200, deadline=None)
def test_parity_cycles_and_checks(board):
    tiles, sigs = board
    t = arr(tiles)
    cls, k = classes_of(sigs)
    assert core.count_cycles(t) == ref.count_cycles(t)
    assert core.min_swaps_to_identity(t) == ref.min_swaps_to_identity(t)
    assert core.is_strictly_solved(t) == ref.is_strictly_solved(t)
    assert core.is_visually_solved(t, cls) == ref.is_visually_solved(t, cls)


@given(boards(max_n=40))
@settings(max_examples=200, deadline=None)
def test_parity_exact(board):
    tiles, sigs = board
    cls, k = classes_of(sigs)
    assert core.min_swaps_exact(arr(tiles), cls, k) == ref.min_swaps_exact(arr(tiles), cls, k)


@given(boards(max_n=9, max_classes=6))
@settings(max_examples=150, deadline=None)
def test_parity_enumerate(board):
    tiles, sigs = board
    cls, k = classes_of(sigs)
    assert core.min_swaps_enumerate(arr(tiles), cls, k) == ref.min_swaps_enumerate(arr(tiles), cls, k)


def test_parity_enumerate_hard_grid():
    rng = random.Random(7)
    for _ in range(3):
        sigs = [0] * 5 + [1] * 4 + [2] * 3 + [3] * 3
        rng.shuffle(sigs)
        tiles = list(range(15))
        rng.shuffle(tiles)
        cls, k = classes_of(sigs)
        assert core.min_swaps_enumerate(arr(tiles), cls, k) == ref.min_swaps_enumerate(arr(tiles), cls, k)


# ------------------------------------------------------------------ exactness against oracles


@pytest.mark.parametrize("impl", IMPLS)
def test_exact_equals_bfs_small(impl):
    rng = random.Random(11)
    for _ in range(400):
        n = rng.randint(1, 8)
        tiles, sigs = random_board(rng, n, rng.randint(1, n))
        cls, k = classes_of(sigs)
        assert impl.min_swaps_exact(arr(tiles), cls, k) == bfs_min_swaps(tiles, sigs), (tiles, sigs)


@given(boards(max_n=8))
@settings(max_examples=150, deadline=None)
def test_exact_equals_bfs_hypothesis(board):
    tiles, sigs = board
    assert puzzle.min_swaps_to_visual_solve(tiles, sigs) == bfs_min_swaps(tiles, sigs)


def test_exact_equals_sigma_definition_and_enumerate_below_cap():
    rng = random.Random(3)
    for _ in range(60):
        n = rng.randint(2, 9)
        tiles, sigs = random_board(rng, n, rng.randint(1, 5))
        want = sigma_min_swaps(tiles, sigs)
        assert puzzle.min_swaps_to_visual_solve(tiles, sigs) == want
        assert puzzle.min_swaps_to_visual_solve(tiles, sigs, method="enumerate") == want


@pytest.mark.parametrize("n,k", [(16, 4), (24, 6), (32, 8), (40, 10), (48, 12), (64, 4), (64, 8), (64, 16)])
def test_exact_equals_independent_solver(n, k):
    rng = random.Random(n * 100 + k)
    for _ in range(4):
        tiles, sigs = random_board(rng, n, k)
        want = indep_min_swaps(tiles, sigs)
        cls, kk = classes_of(sigs)
        assert core.min_swaps_exact(arr(tiles), cls, kk) == want
        assert ref.min_swaps_exact(arr(tiles), cls, kk) == want


@pytest.mark.parametrize("sizes", [(64, 64, 64, 64), (40,) * 6 + (16,), (20,) * 12 + (16,)])
def test_exact_n256_core_equals_reference(sizes):
    rng = random.Random(sum(sizes) + len(sizes))
    sigs = [c for c, size in enumerate(sizes) for _ in range(size)]
    assert len(sigs) == 256
    rng.shuffle(sigs)
    tiles = list(range(256))
    rng.shuffle(tiles)
    cls, k = classes_of(sigs)
    got = core.min_swaps_exact(arr(tiles), cls, k)
    assert got == ref.min_swaps_exact(arr(tiles), cls, k)
    assert got <= core.min_swaps_to_identity(arr(tiles))


def test_exact_never_above_enumerate_and_beats_fallback():
    # the original game's example board: classes 8, 3, 2, 2 on 5x3 -> 8!3!2!2! = 967,680 > 750,000
    rng = random.Random(1)
    sigs = [0] * 8 + [1] * 3 + [2] * 2 + [3] * 2
    for _ in range(20):
        tiles = list(range(15))
        rng.shuffle(tiles)
        enum = puzzle.min_swaps_to_visual_solve(tiles, sigs, method="enumerate")
        assert enum == puzzle.min_swaps_to_identity(tiles)  # the fallback, reproduced
        assert puzzle.min_swaps_to_visual_solve(tiles, sigs) <= enum
    assert any(
        puzzle.min_swaps_to_visual_solve(t, sigs) < puzzle.min_swaps_to_visual_solve(t, sigs, method="enumerate")
        for t in (rng.sample(range(15), 15) for _ in range(20))
    )


def test_k_le_3_closed_form_is_exact():
    rng = random.Random(9)
    for _ in range(200):
        n = rng.randint(2, 8)
        tiles, sigs = random_board(rng, n, 3)
        assert puzzle.min_swaps_to_visual_solve(tiles, sigs, method="enumerate") == bfs_min_swaps(tiles, sigs)


def test_greedy_long_cycles_would_be_wrong_but_exact_is_not():
    # a board where taking the first triangle greedily loses a cycle: exact must still be minimal
    rng = random.Random(21)
    found = 0
    for _ in range(300):
        tiles, sigs = random_board(rng, 12, 6)
        assert puzzle.min_swaps_to_visual_solve(tiles, sigs) == indep_min_swaps(tiles, sigs)
        found += 1
    assert found


# ------------------------------------------------------------------ batch == singles


@pytest.mark.parametrize("method", ["exact", "enumerate"])
def test_batch_matches_singles(method):
    rng = random.Random(5)
    # the reference's enumeration takes seconds per row: with FLAGCORE_IMPL=python, 4 rows make the point
    rows = [rng.sample(range(15), 15) for _ in range(4 if IMPL == "python" and method == "enumerate" else 30)]
    shared = [rng.randrange(4) for _ in range(15)]
    per_row = np.array([[rng.randrange(5) for _ in range(15)] for _ in rows], dtype=np.uint32)
    got = puzzle.min_swaps_batch(np.array(rows), shared, method=method)
    assert got.tolist() == [puzzle.min_swaps_to_visual_solve(r, shared, method=method) for r in rows]
    got = puzzle.min_swaps_batch(np.array(rows), per_row, method=method)
    assert got.tolist() == [puzzle.min_swaps_to_visual_solve(r, s, method=method) for r, s in zip(rows, per_row)]
    cls = np.array([classes_of(s)[0] for s in per_row], dtype=np.int32)
    ks = np.array([classes_of(s)[1] for s in per_row], dtype=np.int32)
    few = slice(0, 4)  # the reference enumeration is slow: a few rows make the point
    assert (
        ref.min_swaps_batch(np.array(rows, dtype=np.int32)[few], cls[few], ks[few], method).tolist()
        == got[few].tolist()
    )
    assert puzzle.min_swaps_batch(np.array(rows)).tolist() == [puzzle.min_swaps_to_identity(r) for r in rows]
    assert (
        ref.count_cycles_batch(np.array(rows, dtype=np.int32)).tolist()
        == puzzle.count_cycles_batch(np.array(rows)).tolist()
    )


# ------------------------------------------------------------------ invariants


@given(boards(max_n=30))
@settings(max_examples=200, deadline=None)
def test_invariants(board):
    tiles, sigs = board
    exact = puzzle.min_swaps_to_visual_solve(tiles, sigs)
    ident = puzzle.min_swaps_to_identity(tiles)
    assert 0 <= exact <= ident
    assert (exact == 0) == puzzle.is_visually_solved(tiles, sigs)
    assert puzzle.min_swaps_to_visual_solve(tiles, list(range(len(tiles)))) == ident
    assert puzzle.min_swaps_to_visual_solve(tiles, None) == ident
    assert puzzle.min_swaps_to_visual_solve(tiles, [7] * len(tiles)) == 0


_SIGNATURE_LAYOUTS = [
    lambda s: np.array(s, dtype=np.int32),
    lambda s: np.array(s, dtype=np.int64),
    lambda s: np.array(s, dtype=">i8"),  # not the native byte order
    lambda s: np.repeat(np.array(s, dtype=np.int32), 2)[::2],  # not contiguous
    lambda s: np.repeat(np.array(s, dtype=np.int64), 2)[::2],
    lambda s: np.array(s, dtype=np.uint16),
    lambda s: np.array(s, dtype=np.float64),  # not integers: the same error from both twins
]


@settings(max_examples=60, deadline=None)
@given(boards(max_n=10), st.sampled_from(range(len(_SIGNATURE_LAYOUTS))), st.sampled_from(["exact", "enumerate"]))
def test_checked_min_swaps_reads_each_signature_dtype_as_its_twin(board, layout, method):
    """The compiled entry picks its view of a signature array by dtype (int32, int64, else the
    checked path): every layout gives the twin's par, or the twin's error."""
    tiles, sigs = board
    outcomes = []
    for impl in (core, ref):
        try:
            given_sigs = _SIGNATURE_LAYOUTS[layout](sigs)
            outcomes.append(impl.checked_min_swaps(np.array(tiles, dtype=np.int32), given_sigs, method, None))
        except (TypeError, ValueError) as e:
            outcomes.append((type(e), str(e)))
    assert outcomes[0] == outcomes[1]
    if layout < 6:
        assert outcomes[0] == ref.checked_min_swaps(tiles, sigs, method, None)


def test_accepts_lists_tuples_and_any_integer_dtype():
    tiles, sigs = [2, 0, 1, 4, 3, 5], [5, 5, 9, 9, 1, 1]
    want = puzzle.min_swaps_to_visual_solve(tiles, sigs)
    for dtype in (np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64):
        assert puzzle.min_swaps_to_visual_solve(np.array(tiles, dtype=dtype), np.array(sigs, dtype=dtype)) == want
    assert puzzle.min_swaps_to_visual_solve(tuple(tiles), tuple(sigs)) == want
    assert puzzle.count_cycles(range(6)) == 6
    # None inside a signature list marks a tile unlike any other
    assert puzzle.min_swaps_to_visual_solve([1, 0], [None, None]) == 1
