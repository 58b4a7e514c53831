"""Bad input: every public Puzzle function raises TypeError/ValueError naming the argument,
before any compiled loop runs."""

import numpy as np
import pytest

from flagcore import puzzle

BAD_PERMUTATIONS = [
    ([0, 0, 1], ValueError, "twice"),
    ([0, 1, 3], ValueError, "out of range"),
    ([-1, 0, 1], ValueError, "out of range"),
    ([0, 1.0, 2], TypeError, r"tiles_by_slot\[1\]"),
    ([0, "1", 2], TypeError, r"tiles_by_slot\[1\]"),
    ([0, None, 2], TypeError, r"tiles_by_slot\[1\]"),
    ([0, True, 2], TypeError, r"tiles_by_slot\[1\]"),
    ("012", TypeError, "tiles_by_slot"),
    (None, TypeError, "tiles_by_slot"),
    (5, TypeError, "tiles_by_slot"),
    (np.array([[0, 1], [1, 0]]), ValueError, "1-dimensional"),
    (np.array([0.0, 1.0]), TypeError, "dtype"),
    ({0: 1}, TypeError, "tiles_by_slot"),
]


PERMUTATION_FNS = [
    puzzle.count_cycles,
    puzzle.min_swaps_to_identity,
    puzzle.is_strictly_solved,
    lambda t: puzzle.min_swaps_to_visual_solve(t, None),
    lambda t: puzzle.is_visually_solved(t, None),
]


@pytest.mark.parametrize("value,exc,match", BAD_PERMUTATIONS)
@pytest.mark.parametrize("fn", PERMUTATION_FNS)
def test_bad_permutations(fn, value, exc, match):
    with pytest.raises(exc, match=match):
        fn(value)


BAD_SIGNATURES = [
    ([0, 1], ValueError, "2 entries but the board has 3"),
    ([0, 1, 2, 3], ValueError, "signatures has 4"),
    ([0, 1.5, 2], TypeError, r"signatures\[1\]"),
    ([0, "a", 2], TypeError, r"signatures\[1\]"),
    ("abc", TypeError, "signatures"),
    (np.zeros((3, 1), dtype=int), ValueError, "1-dimensional"),
    (np.array([0.0, 1.0, 2.0]), TypeError, "dtype"),
]


@pytest.mark.parametrize("value,exc,match", BAD_SIGNATURES)
@pytest.mark.parametrize("method", ["exact", "enumerate"])
def test_bad_signatures(value, exc, match, method):
    with pytest.raises(exc, match=match):
        puzzle.min_swaps_to_visual_solve([2, 0, 1], value, method=method)
    with pytest.raises(exc, match=match):
        puzzle.is_visually_solved([2, 0, 1], value)


def test_bad_method():
    with pytest.raises(ValueError, match="method"):
        puzzle.min_swaps_to_visual_solve([1, 0], [0, 1], method="fast")
    with pytest.raises(ValueError, match="method"):
        puzzle.min_swaps_batch(np.array([[1, 0]]), [0, 1], method=None)


BAD_BATCHES = [
    (np.array([0, 1]), ValueError, "2-dimensional"),
    (np.zeros((2, 2, 2), dtype=int), ValueError, "2-dimensional"),
    (np.array([[0, 1], [1, 1]]), ValueError, r"boards\[1\] is not a permutation"),
    (np.array([[0, 2], [1, 0]]), ValueError, "out of range"),
    (np.array([[0, -1], [1, 0]]), ValueError, "out of range"),
    (np.array([[0.0, 1.0]]), TypeError, "dtype"),
    (None, TypeError, "boards"),
    ("01", TypeError, "boards"),
]
BATCH_FNS = [puzzle.count_cycles_batch, puzzle.min_swaps_to_identity_batch, lambda b: puzzle.min_swaps_batch(b, [0, 0])]


@pytest.mark.parametrize("value,exc,match", BAD_BATCHES)
@pytest.mark.parametrize("fn", BATCH_FNS)
def test_bad_batches(fn, value, exc, match):
    with pytest.raises(exc, match=match):
        fn(value)


def test_bad_batch_signatures():
    boards = np.array([[1, 0, 2], [0, 2, 1]])
    with pytest.raises(ValueError, match="signatures has 1 rows"):
        puzzle.min_swaps_batch(boards, np.zeros((1, 3), dtype=int))
    with pytest.raises(ValueError, match=r"signatures\[0\] has 4 entries"):
        puzzle.min_swaps_batch(boards, np.zeros((2, 4), dtype=int))
    with pytest.raises(ValueError, match="dimensions"):
        puzzle.min_swaps_batch(boards, np.zeros((2, 3, 1), dtype=int))


BAD_GRIDS = [
    ("0x3", ValueError),
    ("3x0", ValueError),
    ("1x1", ValueError),
    ("1000x1000", ValueError),
    ("huge", ValueError),
    ((0, 2), ValueError),
    ((3, 2.0), TypeError),
    (None, TypeError),
    (6, TypeError),
    ((True, 2), TypeError),
]


@pytest.mark.parametrize("grid,exc", BAD_GRIDS)
def test_bad_grids(grid, exc):
    with pytest.raises(exc, match="grid"):
        puzzle.new_game(None, grid, seed=1)


def test_bad_game_arguments():
    with pytest.raises(ValueError, match="flag_or_signatures has 5"):
        puzzle.new_game([0, 1, 2, 3, 4], "easy", seed=1)
    with pytest.raises(TypeError, match=r"flag_or_signatures\[0\]"):
        puzzle.new_game([0.5] * 6, "easy", seed=1)
    with pytest.raises(ValueError, match="flag"):
        puzzle.new_game("Ghana", "easy", seed=1)
    with pytest.raises(ValueError, match="seed"):
        puzzle.new_game(None, "easy", seed=-1)
    with pytest.raises(TypeError, match="seed"):
        puzzle.new_game(None, "easy", seed=1.5)


BAD_SWAP_LOGS = [
    (None, TypeError),
    ("0,1", TypeError),
    (5, TypeError),
    ([(0,)], ValueError),
    ([0, 1], ValueError),
    ([("0", 1)], TypeError),
    ([(0, 1.0)], TypeError),
    ([(0, 9)], ValueError),
    ([(-1, 0)], ValueError),
    ([(1, 1)], ValueError),
    ([], ValueError),
]


@pytest.mark.parametrize("swaps,exc", BAD_SWAP_LOGS)
def test_bad_swap_logs(swaps, exc):
    with pytest.raises(exc, match="swaps"):
        puzzle.verify([1, 0, 2], swaps, None)


def test_bad_verify_start():
    with pytest.raises(ValueError, match="start_tiles_by_slot"):
        puzzle.verify([0, 0, 1], [(0, 1)], None)
    with pytest.raises(ValueError, match="start_tiles_by_slot"):
        puzzle.verify([0], [], None)
