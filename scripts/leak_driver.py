"""Exercise every compiled flagcore module N times (for scripts/leaks.sh under valgrind).

    python scripts/leak_driver.py N

Each round goes through the success paths and the error paths of the compiled entry points
(errors raised from compiled code are where a missed DECREF or free usually hides). Rendering is
left out: it is cairosvg, not flagcore's compiled code, and is very slow under valgrind.
"""

from __future__ import annotations

import sys

import numpy as np

import flagcore
from flagcore import _connections, _puzzle, _rng, _signatures, connections, puzzle
from flagcore.connections.tables import tables_for
from flagcore.library import Category, Library


def _small_library(k: int) -> Library:
    codes = [f"{chr(65 + i // 26)}{chr(65 + i % 26)}" for i in range(70)]  # two bitset words
    cats = [
        Category(f"c{t}{j}", f"C {t}{j}", t, "library", frozenset(codes[(7 * j + 11 * t + k) % 60 :][:6]))
        for t in range(4)
        for j in range(3)
    ]
    return Library({c: c for c in codes}, {c: frozenset() for c in codes}, cats, source="<leaks>")


def _expect_error(fn) -> None:
    try:
        fn()
    except (TypeError, ValueError, connections.NoBoardError):
        return
    raise AssertionError("expected an error")


def one_round(i: int, image: np.ndarray) -> None:
    rng = _rng.Rng(i)
    rng(), rng.next_uint32(), rng.below(1 + i % 1000), _rng.seed_to_state(f"daily:{i}")
    _rng.shuffle(list(range(20)), rng)
    _expect_error(lambda: _rng.Rng(-1))
    _expect_error(lambda: rng.below(0))
    _expect_error(lambda: _rng.shuffle([1, 2], None))

    _signatures.hash_pixel_data(image, 1 + i % 9)
    _signatures.hash_pixel_data(memoryview(image.tobytes()))
    _signatures.tile_signatures(image, 5, 3)
    _signatures.tile_signatures(image[::-1], 4, 3, 2)
    _expect_error(lambda: _signatures.tile_signatures(image, 500, 3))
    _signatures.visual_signatures(image, 5, 3)
    _signatures.visual_signatures(image[::-1, ::2], 4, 2)
    _expect_error(lambda: _signatures.visual_signatures(image, 7, 5))
    _expect_error(lambda: _signatures.hash_pixel_data(image.astype(np.int16)))

    board = connections.generate(i, "trivia" if i % 2 else "flags", legacy=i % 3 == 0, trace=i % 5 == 0)
    game = connections.ConnectionsGame(board)
    game.guess(board.groups[0].codes)
    _expect_error(lambda: connections.generate(i, "nope"))
    prep = tables_for(_connections, None, "flags")[1]
    _connections.search_one(prep, i, False, True, i % 2 == 0)
    batch = connections.generate_many(np.arange(i, i + 8, dtype=np.uint32), threads=1 + i % 2)
    batch[3]
    lib = _small_library(i)
    try:
        connections.generate(i, library=lib)
    except connections.NoBoardError:
        pass
    flagcore.shuffle(board.tiles, flagcore.Rng(i))

    perm = np.roll(np.arange(15, dtype=np.int32), 1 + i % 14)
    classes = np.array([j % (2 + i % 4) for j in range(15)], dtype=np.int32)
    _puzzle.count_cycles(perm), _puzzle.min_swaps_to_identity(perm), _puzzle.is_strictly_solved(perm)
    _puzzle.is_visually_solved(perm, classes)
    _puzzle.min_swaps_exact(perm, classes, int(classes.max()) + 1)
    _puzzle.min_swaps_enumerate(perm, classes, int(classes.max()) + 1)
    mat = np.ascontiguousarray(np.stack([perm, perm[::-1]]))
    (
        puzzle.count_cycles_batch(mat),
        puzzle.min_swaps_batch(mat, classes),
        puzzle.min_swaps_batch(mat, classes, method="enumerate"),
    )
    pz = puzzle.new_game(None, "hard", seed=i)
    pz.swap(0, 1)
    _expect_error(lambda: puzzle.count_cycles([0, 0]))
    _expect_error(lambda: puzzle.verify([1, 0], [(0, 5)], None))


def main() -> None:
    n = int(sys.argv[1])
    image = (np.arange(96 * 240 * 4, dtype=np.uint32) * 2654435761 >> 24).astype(np.uint8).reshape(96, 240, 4)
    for i in range(n):
        one_round(i, image)
    print(f"leak driver: {n} rounds done")


if __name__ == "__main__":
    main()
