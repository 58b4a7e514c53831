"""What a user gets: each public call beside the compiled kernel alone and the reference's public call.

    pytest benchmarks/bench_public.py --benchmark-enable --benchmark-only \
        --benchmark-columns=median,iqr,rounds --benchmark-sort=name --benchmark-group-by=group

In each group, ``public`` is the call through flagcore.puzzle (or flagcore.connections) on the
compiled core, ``kernel`` the compiled work alone on inputs already in its layout (for par and
cycles of one small board, the batch kernel over ITERATIONS copies, per board: see
test_exact_par_5x3_interleaved), and ``reference``
the same public call with the reference twin behind it (what FLAGCORE_IMPL=python gives).
The ``threads`` groups time a fixed number of calls on 1 thread and split over 2 threads: the ratio
of their medians is the speed-up request threads get.

A call of a few microseconds is timed ITERATIONS times in a row per round (the figure is the mean
of those calls, a server's steady state); timed alone, each call would also pay for the caches
and branch history that the benchmark's own bookkeeping between rounds disturbs.
"""

from __future__ import annotations

import random
import threading

import numpy as np
import pytest

from flagcore import _impl, _puzzle, puzzle
from flagcore._args.puzzle import as_classes
from flagcore.reference import puzzle as ref_puzzle
from flagcore.reference import rng as ref_rng

SIZES = (5, 4, 3, 3)  # tile classes of the 5x3 exact-par board
# A 13-swap log that solves new_game("FR", "hard", 0) (every piece put home in slot order).
FR_START = [4, 7, 12, 13, 11, 6, 14, 8, 9, 10, 5, 1, 2, 0, 3]
FR_LOG = [
    (0, 13),
    (1, 11),
    (2, 12),
    (3, 14),
    (4, 13),
    (5, 10),
    (6, 10),
    (7, 11),
    (8, 11),
    (9, 11),
    (10, 11),
    (11, 13),
    (13, 14),
]
CALLS_PER_ROUND = 2000
ITERATIONS = 20  # calls per round for the microsecond calls


@pytest.fixture(params=["public", "reference"])
def side(request, monkeypatch):
    """``reference``: the public module with the reference twin behind it."""
    if request.param == "reference":
        monkeypatch.setattr(_impl.core, "puzzle", ref_puzzle)
        monkeypatch.setattr(_impl.core, "rng", ref_rng)
    return request.param


def _board():
    rng = random.Random(42)
    sigs = [c for c, size in enumerate(SIZES) for _ in range(size)]
    rng.shuffle(sigs)
    tiles = list(range(len(sigs)))
    random.Random(43).shuffle(tiles)
    return tiles, sigs


def _rounds(side, fast, slow):
    return fast if side != "reference" else slow


def _calls(side, fast, slow):
    """pedantic's arguments for a microsecond call: ``fast`` calls (``slow`` on the twin) in rounds
    of ITERATIONS."""
    return {"rounds": _rounds(side, fast, slow) // ITERATIONS, "iterations": ITERATIONS, "warmup_rounds": 10}


def test_exact_par_5x3_lists(benchmark, side):
    benchmark.group = "exact par 5x3, classes 5,4,3,3, lists in"
    tiles, sigs = _board()
    benchmark.pedantic(puzzle.min_swaps_to_visual_solve, args=(tiles, sigs), **_calls(side, 20000, 2000))


def test_count_cycles_5x3_list(benchmark, side):
    benchmark.group = "count_cycles 5x3 list"
    tiles, _ = _board()
    benchmark.pedantic(puzzle.count_cycles, args=(tiles,), **_calls(side, 20000, 5000))


def _big():
    return np.random.default_rng(1).permutation(100_000).astype(np.int32)


def test_count_cycles_100k_array(benchmark, side):
    benchmark.group = "count_cycles n=100,000 int32 array"
    benchmark.pedantic(puzzle.count_cycles, args=(_big(),), rounds=_rounds(side, 200, 5), warmup_rounds=1)


def _batch_of(board, rows=ITERATIONS):
    """``rows`` copies of a 1-D array, one per row (the batch kernels' layout)."""
    return np.ascontiguousarray(np.broadcast_to(board, (rows, board.size)))


def test_exact_par_5x3_interleaved(benchmark):
    """The kernel is the compiled batch over ITERATIONS copies of the board, one call per round: its
    per-board time is the par search alone. Timed one board per call instead, through
    min_swaps_exact(int32 array, int32 array, ...), it cost more than the public call from lists
    (0.85x): that entry point acquires a typed memoryview of each numpy array (the buffer protocol
    and a memoryview object per argument), mallocs its scratch and releases the GIL on every
    call, while the public call's checked entry reads 15 list items into a stack buffer."""
    benchmark.group = "exact par 5x3, classes 5,4,3,3, lists in, alternating rounds with its kernel"
    tiles, sigs = _board()
    classes, k = as_classes(sigs, len(sigs))
    boards, rows = _batch_of(np.array(tiles, dtype=np.int32)), _batch_of(classes)
    ks = np.full(ITERATIONS, k, dtype=np.int32)
    public = _each(lambda i: puzzle.min_swaps_to_visual_solve(tiles, sigs))
    kernel = lambda first: _puzzle.min_swaps_batch(boards, rows, ks, "exact", puzzle.DEFAULT_MAX_NODES)  # noqa: E731
    assert (kernel(0) == puzzle.min_swaps_to_visual_solve(tiles, sigs)).all()
    _alternating(benchmark, {"public": public, "kernel": kernel})


def test_count_cycles_5x3_interleaved(benchmark):
    """As exact par's: the kernel is count_cycles_batch over ITERATIONS copies, one call per round."""
    benchmark.group = "count_cycles 5x3 list, alternating rounds with its kernel"
    tiles, _ = _board()
    boards = _batch_of(np.array(tiles, dtype=np.int32))
    public = _each(lambda i: puzzle.count_cycles(tiles))
    assert (_puzzle.count_cycles_batch(boards) == puzzle.count_cycles(tiles)).all()
    _alternating(benchmark, {"public": public, "kernel": lambda first: _puzzle.count_cycles_batch(boards)})


def test_count_cycles_100k_interleaved(benchmark):
    """One array, the same work on both sides (the public call's walk also checks each step): timed
    in separate benchmarks one after the other, the load between them decided which was faster."""
    benchmark.group = "count_cycles n=100,000 int32 array, alternating rounds with its kernel"
    big = _big()
    sides = {"public": lambda first: puzzle.count_cycles(big), "kernel": lambda first: _puzzle.count_cycles(big)}
    _alternating(benchmark, sides, rounds=100, calls=1)


NEW_GAME = "new_game FR hard"


def test_new_game_fr_hard(benchmark, side):
    benchmark.group = NEW_GAME
    seeds = iter(range(10**9))
    puzzle.new_game("FR", "hard", 0)  # the flag's signatures are looked up once per process
    benchmark.pedantic(lambda: puzzle.new_game("FR", "hard", next(seeds)), **_calls(side, 20000, 2000))


def _deal_kernel():
    """deal(seed): the compiled work new_game hands a seed to, on the flag's classes already dense."""
    from flagcore import _rng

    classes, k = as_classes(puzzle.new_game("FR", "hard", 0).signatures, 15)
    return lambda s: _puzzle.deal(15, classes, k, _rng.seed_to_state(s), puzzle.DEFAULT_MAX_NODES)


def test_new_game_fr_hard_kernel(benchmark):
    benchmark.group = NEW_GAME
    deal, seeds = _deal_kernel(), iter(range(10**9))
    benchmark.pedantic(lambda: deal(next(seeds)), **_calls("kernel", 20000, 0))


@pytest.mark.parametrize("shape", ["tuples", "json lists"])
def test_verify_13_swaps(benchmark, side, shape):
    benchmark.group = f"verify FR 5x3, 13-swap log of {shape}"
    sigs = puzzle.new_game("FR", "hard", 0).signatures
    log = FR_LOG if shape == "tuples" else [list(move) for move in FR_LOG]  # [a, b]: what a server gets from JSON
    assert puzzle.verify(FR_START, log, sigs).swaps == 13
    benchmark.pedantic(puzzle.verify, args=(FR_START, log, sigs), **_calls(side, 20000, 2000))


@pytest.mark.parametrize("shape", ["tuples", "json lists"])
def test_verify_13_swaps_kernel(benchmark, shape):
    """The compiled replay verify hands its arguments to (it reads the lists in C, as verify's)."""
    benchmark.group = f"verify FR 5x3, 13-swap log of {shape}"
    sigs = puzzle.new_game("FR", "hard", 0).signatures
    log = FR_LOG if shape == "tuples" else [list(move) for move in FR_LOG]
    args = (FR_START, log, sigs, puzzle.DEFAULT_MAX_NODES)
    benchmark.pedantic(_puzzle.checked_verify, args=args, **_calls("kernel", 20000, 0))


def _each(call):
    """A round of ITERATIONS calls of call(i), i from ``first`` on (fresh arguments each call)."""

    def run(first):
        for i in range(first, first + ITERATIONS):
            call(i)

    return run


def _alternating(benchmark, sides, rounds=1000, calls=ITERATIONS):
    """Time the public call and its kernel (``sides``: name -> run(first), a round of ``calls``
    calls' work) in alternating rounds, so both see the same load, the one that goes first swapped
    every round: extra_info holds each side's median per call (the table's figures)."""
    import time

    counter = iter(range(10**9))
    times = {name: [] for name in sides}

    def pair():
        r = next(counter)
        for j, name in enumerate(("public", "kernel") if r % 2 else ("kernel", "public")):
            t0 = time.perf_counter()
            sides[name]((2 * r + j) * ITERATIONS)
            times[name].append(time.perf_counter() - t0)

    benchmark.pedantic(pair, rounds=rounds, warmup_rounds=10)
    benchmark.extra_info["public_s"] = float(np.median(times["public"])) / calls
    benchmark.extra_info["kernel_s"] = float(np.median(times["kernel"])) / calls


def test_new_game_interleaved(benchmark):
    benchmark.group = f"{NEW_GAME}, alternating rounds with its kernel"
    public = lambda s: puzzle.new_game("FR", "hard", s)  # noqa: E731
    _alternating(benchmark, {"public": _each(public), "kernel": _each(_deal_kernel())})


def test_verify_interleaved(benchmark):
    benchmark.group = "verify FR 5x3, 13-swap log of json lists, alternating rounds with its kernel"
    sigs = puzzle.new_game("FR", "hard", 0).signatures
    log = [list(move) for move in FR_LOG]
    sides = {
        "public": _each(lambda i: puzzle.verify(FR_START, log, sigs)),
        "kernel": _each(lambda i: _puzzle.checked_verify(FR_START, log, sigs, puzzle.DEFAULT_MAX_NODES)),
    }
    _alternating(benchmark, sides)


def _on_threads(threads, call):
    """CALLS_PER_ROUND calls of call(i), split evenly over ``threads`` threads."""
    per = CALLS_PER_ROUND // threads

    def work(t):
        for i in range(t * per, (t + 1) * per):
            call(i)

    if threads == 1:
        work(0)
        return
    pool = [threading.Thread(target=work, args=(t,)) for t in range(threads)]
    for th in pool:
        th.start()
    for th in pool:
        th.join()


@pytest.mark.parametrize("threads", [1, 2])
def test_new_game_threads(benchmark, threads):
    benchmark.group = f"new_game FR hard x{CALLS_PER_ROUND} on 1 vs 2 threads"
    benchmark.pedantic(
        _on_threads, args=(threads, lambda i: puzzle.new_game("FR", "hard", i)), rounds=30, warmup_rounds=2
    )


# ---------------------------------------------------------------- Connections


@pytest.fixture(params=["public", "reference"])
def connections_side(request, monkeypatch):
    """``reference``: connections.generate with the reference twin behind it."""
    from flagcore.reference import connections as ref_connections

    if request.param == "reference":
        monkeypatch.setattr(_impl.core, "connections", ref_connections)
    return request.param


GENERATE_GROUPS = {
    "normal": "connections.generate, flags mode, one board",
    None: "connections.generate difficulty=None",
}


@pytest.mark.parametrize("difficulty", list(GENERATE_GROUPS), ids=str)
def test_generate_per_board(benchmark, connections_side, difficulty):
    from flagcore import connections

    benchmark.group = GENERATE_GROUPS[difficulty]
    seeds = iter(range(10**9))
    connections.generate(0, difficulty=difficulty)  # the library's tables are built once per process
    benchmark.pedantic(
        lambda: connections.generate(next(seeds), difficulty=difficulty), **_calls(connections_side, 20000, 500)
    )


def _generate_kernel(difficulty):
    """search(seed): the compiled search generate calls once its checks pass, on the same tables."""
    from flagcore import _connections
    from flagcore._args.connections import difficulty_target
    from flagcore.connections.difficulty import model_tables
    from flagcore.connections.tables import tables_for

    prepared = tables_for(_connections, None, "flags")[1]
    if difficulty is None:
        return lambda s: _connections.search_board(prepared, s, s, False, True, False)
    model, target = model_tables(_connections, None, "flags").prepared, difficulty_target(difficulty)
    return lambda s: _connections.search_board_model(prepared, model, s, s, True, *target, False)


@pytest.mark.parametrize("difficulty", list(GENERATE_GROUPS), ids=str)
def test_generate_per_board_kernel(benchmark, difficulty):
    benchmark.group = GENERATE_GROUPS[difficulty]
    search, seeds = _generate_kernel(difficulty), iter(range(10**9))
    benchmark.pedantic(lambda: search(next(seeds)), **_calls("kernel", 20000, 0))


@pytest.mark.parametrize("difficulty", list(GENERATE_GROUPS), ids=str)
def test_generate_interleaved(benchmark, difficulty):
    """generate and its kernel in alternating rounds, each on fresh seeds (a search repeated on the
    same seed runs faster: caches and branch history)."""
    from flagcore import connections

    benchmark.group = f"{GENERATE_GROUPS[difficulty]}, alternating rounds with its kernel"
    connections.generate(0, difficulty=difficulty)
    public = lambda s: connections.generate(s, difficulty=difficulty)  # noqa: E731
    _alternating(benchmark, {"public": _each(public), "kernel": _each(_generate_kernel(difficulty))})


def _four_correct_guesses():
    from flagcore import connections

    board = connections.generate(12)
    return board, [list(g.codes) for g in board.groups]


def test_game_new_and_four_guesses(benchmark):
    from flagcore import connections

    benchmark.group = "ConnectionsGame: 4 correct guesses"
    board, answers = _four_correct_guesses()

    def play():
        game = connections.ConnectionsGame(board)
        for codes in answers:
            game.guess(codes)
        assert game.won

    benchmark.pedantic(play, **_calls("public", 20000, 0))


def test_game_four_guesses_only(benchmark):
    """The same 4 guesses on ITERATIONS games built before the timer starts: the round's median
    divided by ITERATIONS is the guesses' cost per game."""
    from flagcore import connections

    benchmark.group = f"ConnectionsGame: 4 correct guesses on each of {ITERATIONS} games built outside the timer"
    board, answers = _four_correct_guesses()

    def play(games):
        for game in games:
            for codes in answers:
                game.guess(codes)
        assert all(game.won for game in games)

    benchmark.pedantic(
        play,
        setup=lambda: (([connections.ConnectionsGame(board) for _ in range(ITERATIONS)],), {}),
        rounds=20000 // ITERATIONS,
        warmup_rounds=10,
    )


@pytest.mark.parametrize("threads", [1, 2])
def test_generate_threads(benchmark, threads):
    from flagcore import connections

    benchmark.group = f"connections.generate x{CALLS_PER_ROUND} on 1 vs 2 threads"
    connections.generate(0)
    benchmark.pedantic(_on_threads, args=(threads, connections.generate), rounds=30, warmup_rounds=2)
