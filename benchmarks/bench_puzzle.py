"""Puzzle engine, compiled core vs the pure-Python reference on the same inputs.

    pytest benchmarks/bench_puzzle.py --benchmark-enable --benchmark-only \
        --benchmark-columns=median,iqr,rounds --benchmark-sort=name --benchmark-group-by=group

Groups put core and ref side by side; the ratio of their medians is the speed-up.
"""

import random

import numpy as np
import pytest

from flagcore import _puzzle as core
from flagcore._args.puzzle import as_classes
from flagcore.reference import puzzle as ref

IMPLS = {"core": core, "ref": ref}
GRIDS = {"easy": 6, "medium": 12, "hard": 15}


def _perm(n, seed):
    rng = random.Random(seed)
    p = list(range(n))
    rng.shuffle(p)
    return np.array(p, dtype=np.int32)


def _board(sizes, seed):
    """A random board whose look-alike classes have the given sizes."""
    rng = random.Random(seed)
    sigs = [c for c, size in enumerate(sizes) for _ in range(size)]
    rng.shuffle(sigs)
    cls, k = as_classes(sigs, len(sigs))
    return _perm(len(sigs), seed + 1), cls, k


def _rounds(impl, core_rounds, ref_rounds):
    return core_rounds if impl == "core" else ref_rounds


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("n", [6, 12, 15, 100_000])
def test_count_cycles(benchmark, impl, n):
    benchmark.group = f"count_cycles n={n}"
    tiles = _perm(n, n)
    benchmark.pedantic(
        IMPLS[impl].count_cycles, args=(tiles,), rounds=_rounds(impl, 2000, 20 if n > 100 else 2000), warmup_rounds=1
    )


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("grid", GRIDS)
def test_exact_par_grids(benchmark, impl, grid):
    """Exact par on 200 random boards per grid with 2-6 random classes (one call each)."""
    benchmark.group = f"exact par {grid} x200 boards"
    n = GRIDS[grid]
    rng = random.Random(n)
    boards = []
    for i in range(200):
        k = rng.randint(2, 6)
        sigs = [rng.randrange(k) for _ in range(n)]
        cls, kk = as_classes(sigs, n)
        boards.append((_perm(n, i), cls, kk))
    fn = IMPLS[impl].min_swaps_exact

    def run():
        for t, c, k in boards:
            fn(t, c, k)

    benchmark.pedantic(run, rounds=_rounds(impl, 50, 5), warmup_rounds=1)


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("sizes", [(3, 3, 3, 3, 3), (5, 4, 3, 3), (2,) * 7 + (1,), (1,) * 15, (8, 3, 2, 2)])
def test_exact_par_hard_board(benchmark, impl, sizes):
    benchmark.group = f"exact par 5x3 classes {sizes}"
    t, c, k = _board(sizes, 42)
    benchmark.pedantic(IMPLS[impl].min_swaps_exact, args=(t, c, k), rounds=_rounds(impl, 5000, 200), warmup_rounds=1)


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("sizes", [(64,) * 4, (20,) * 12 + (16,), (4,) * 16])
def test_exact_par_large(benchmark, impl, sizes):
    benchmark.group = f"exact par n={sum(sizes)} K={len(sizes)}"
    t, c, k = _board(sizes, 7)
    benchmark.pedantic(IMPLS[impl].min_swaps_exact, args=(t, c, k), rounds=_rounds(impl, 50, 3), warmup_rounds=1)


@pytest.mark.parametrize("impl", IMPLS)
def test_enumerate_5x3_classes_5433(benchmark, impl):
    """The spec's sigma enumeration: 5!4!3!3! = 103,680 candidates."""
    benchmark.group = "enumerate 5x3 classes 5,4,3,3"
    t, c, k = _board((5, 4, 3, 3), 42)
    benchmark.pedantic(IMPLS[impl].min_swaps_enumerate, args=(t, c, k), rounds=_rounds(impl, 30, 2), warmup_rounds=0)


@pytest.mark.parametrize("impl", IMPLS)
def test_closed_form_tricolour(benchmark, impl):
    benchmark.group = "enumerate (K=3 closed form) 5x3"
    t, c, k = _board((5, 5, 5), 42)
    benchmark.pedantic(IMPLS[impl].min_swaps_enumerate, args=(t, c, k), rounds=2000, warmup_rounds=1)


@pytest.mark.parametrize("impl", IMPLS)
def test_batch_exact_2k_hard(benchmark, impl):
    """A server's batch: the same 2,000 hard boards of one flag (classes 5,4,3,3) for both, one call."""
    benchmark.group = "min_swaps_batch exact 2k hard boards"
    rng = np.random.default_rng(1)
    rows = 2_000  # equal for core and ref, so the ratio of medians is the speed-up
    boards = np.ascontiguousarray(np.argsort(rng.random((rows, 15)), axis=1).astype(np.int32))
    _, cls, k = _board((5, 4, 3, 3), 42)
    classes = np.ascontiguousarray(np.broadcast_to(cls, (rows, 15)))
    ks = np.full(rows, k, dtype=np.int32)
    benchmark.extra_info["boards"] = rows
    benchmark.pedantic(
        IMPLS[impl].min_swaps_batch, args=(boards, classes, ks, "exact"), rounds=_rounds(impl, 10, 2), warmup_rounds=0
    )
