"""Many threads at once give exactly what one thread gives (issue 7, "Threads").

generate (+ a game), puzzle.new_game (+ solving it and verify) and piece_signatures are mixed
in one pool; generate_many and the puzzle batch functions are compared across thread counts.

The compiled searches and hashes run without the GIL, the signature cache and the per-Library
table cache are shared between threads; a data race would show up here as a board, a signature
list or a batch that differs from the single-threaded answer.
"""

from __future__ import annotations

import random
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from flagcore import connections, library, puzzle, signatures

THREADS = 8
SEEDS = list(range(300)) + [f"daily:2026-01-{d:02d}" for d in range(1, 29)]
FLAGS = ["FR", "US", "BR", "GB", "JP", "ZA", "KI", "NP"]
GRIDS = [(3, 2), (4, 3), (5, 3), (6, 4)]  # 6x4 is not in the table: rendered and cached


def _tasks():
    tasks = [("generate", s, mode, legacy) for s in SEEDS for mode in ("flags", "trivia") for legacy in (False, True)]
    tasks += [("piece", code, c, r) for code in FLAGS for c, r in GRIDS]
    tasks += [("piece-bytes", code, c, r) for code in FLAGS[:4] for c, r in GRIDS[:2]]
    tasks += [
        ("puzzle", seed, grid, flag)
        for seed in range(40)
        for grid in ("easy", "hard", "6x4")
        for flag in ("FR", "US", None)
    ]
    return tasks


def _run(task):
    kind, a, b, c = task
    if kind == "generate":
        board = connections.generate(a, b, legacy=c)
        game = connections.ConnectionsGame(board)
        outcome = game.guess(board.groups[0].codes)
        return board, outcome.result, game.share()
    if kind == "puzzle":
        game = puzzle.new_game(c, b, seed=a)
        start, par = game.tiles_by_slot, game.par
        for slot in range(len(start)):  # solve it by putting each piece home
            here = game.tiles_by_slot.index(slot)
            if here != slot and not game.solved:
                game.swap(slot, here)
        return start, par, game.result(), puzzle.verify(start, game.moves, game.signatures)
    if kind == "piece":
        return signatures.piece_signatures(a, b, c)
    return signatures.piece_signatures(signatures.flag_svg(a), b, c)


@pytest.mark.slow
def test_concurrent_calls_equal_one_thread():
    tasks = _tasks()
    signatures.clear_cache()
    expected = [_run(t) for t in tasks]
    for round_ in range(2):
        signatures.clear_cache()  # round 0 races on cold caches, round 1 on warm ones
        order = list(range(len(tasks)))
        random.Random(round_).shuffle(order)
        barrier = threading.Barrier(THREADS)

        def start(i):
            if i < THREADS:
                barrier.wait()  # the first THREADS tasks start together
            return i, _run(tasks[i])

        with ThreadPoolExecutor(THREADS) as pool:
            got = dict(pool.map(lambda i: start(i), order))
        mismatches = [tasks[i] for i in range(len(tasks)) if got[i] != expected[i]]
        assert not mismatches, mismatches[:5]


def test_concurrent_hashing_of_shared_buffers():
    image = signatures.render_flag("KI", 5)
    buffers = [image, image[::-1], np.ascontiguousarray(image[:, ::-1])]
    expected = [signatures.tile_signatures(b, 5, 3) for b in buffers]
    flat = image.tobytes()
    expected_flat = signatures.hash_pixel_data(flat)

    def work(i):
        return [signatures.tile_signatures(b, 5, 3) for b in buffers], signatures.hash_pixel_data(flat)

    with ThreadPoolExecutor(THREADS) as pool:
        for got, got_flat in pool.map(work, range(200)):
            assert got == expected and got_flat == expected_flat


ARRAYS = ("status", "categories", "group_tiles", "tiles", "decoys", "counters", "ambiguous")


@pytest.mark.parametrize("mode,legacy", [("flags", False), ("trivia", False), ("flags", True)])
def test_generate_many_identical_for_1_2_4_threads(mode, legacy):
    seeds = np.arange(5000, dtype=np.uint32) * 7919
    batches = {t: connections.generate_many(seeds, mode, threads=t, legacy=legacy) for t in (1, 2, 4)}
    for t in (2, 4):
        for name in ARRAYS:
            assert np.array_equal(getattr(batches[1], name), getattr(batches[t], name)), (t, name)
    for i in range(0, len(seeds), 499):
        # a batch deals what generate deals, at generate's default difficulty (docs/difficulty.md)
        assert batches[4][i] == connections.generate(int(seeds[i]), mode, legacy=legacy)


def test_generate_many_from_many_threads_at_once():
    # Batches that themselves run threaded, started from several threads on one shared Library.
    lib = library.load_library()
    seeds = list(range(2000))
    expected = connections.generate_many(seeds, library=lib, threads=1)

    def work(t):
        return connections.generate_many(seeds, library=lib, threads=1 + t % 4)

    with ThreadPoolExecutor(6) as pool:
        for batch in pool.map(work, range(12)):
            for name in ARRAYS:
                assert np.array_equal(getattr(batch, name), getattr(expected, name))


def test_puzzle_batches_from_many_threads():
    rng = np.random.default_rng(5)
    boards = np.array([rng.permutation(15) for _ in range(3000)], dtype=np.int32)
    sigs = signatures.piece_signatures("US", 5, 3)
    expected = (puzzle.count_cycles_batch(boards), puzzle.min_swaps_batch(boards, sigs))

    def work(_):
        return puzzle.count_cycles_batch(boards), puzzle.min_swaps_batch(boards, sigs)

    with ThreadPoolExecutor(THREADS) as pool:
        for cycles, par in pool.map(work, range(16)):
            assert np.array_equal(cycles, expected[0]) and np.array_equal(par, expected[1])
