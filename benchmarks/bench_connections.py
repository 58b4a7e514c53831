"""Connections board generation: compiled core vs the pure-Python reference, same seeds, one run.

    pytest benchmarks/bench_connections.py --benchmark-enable --benchmark-only \
        --benchmark-columns=median,iqr,rounds --benchmark-sort=name

Each benchmark generates the same 200 seeds (flags mode, fixed search, unless named), so medians
compare directly: "per board" = median / 200. generate_many runs 20,000 seeds per round; its
extra_info "boards/s" is 20,000 / median. The library is the bundled one (flagcore.library).
"""

from __future__ import annotations

import functools

import numpy as np
import pytest

from flagcore import connections
from flagcore.connections.search import generate_with
from flagcore.connections.tables import default_library
from flagcore.reference import connections as ref

LIB = default_library()
SEEDS = list(range(200))
MANY = np.arange(20_000, dtype=np.uint32)


def _per_board(benchmark, n):
    benchmark.extra_info["boards"] = n
    if benchmark.stats is None:  # --benchmark-disable (the test run): ran once, nothing timed
        return
    benchmark.extra_info["us/board"] = round(benchmark.stats.stats.median / n * 1e6, 2)
    benchmark.extra_info["boards/s"] = round(n / benchmark.stats.stats.median)


def _loop(generate, mode, legacy):
    for s in SEEDS:
        generate(s, mode, library=LIB, legacy=legacy)


@pytest.mark.parametrize("legacy", [False, True], ids=["fixed", "legacy"])
@pytest.mark.parametrize("mode", ["flags", "trivia"])
@pytest.mark.parametrize("impl", ["core", "ref"])
def test_generate_200(benchmark, impl, mode, legacy):
    fn = connections.generate if impl == "core" else functools.partial(generate_with, ref)
    benchmark.pedantic(_loop, args=(fn, mode, legacy), rounds=3 if impl == "ref" else 30, warmup_rounds=1)
    _per_board(benchmark, len(SEEDS))


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("mode", ["flags", "trivia"])
def test_generate_many_20000(benchmark, mode, threads):
    benchmark.pedantic(
        connections.generate_many,
        args=(MANY, mode),
        kwargs={"threads": threads, "library": LIB},
        rounds=15,
        warmup_rounds=1,
    )
    _per_board(benchmark, len(MANY))


@pytest.mark.parametrize("difficulty", ["normal", None], ids=str)
def test_generate_many_ratio_side_by_side(benchmark, difficulty):
    """1 vs 2 threads interleaved in one benchmark, so both see the same machine load.

    extra_info "speedup_2_threads" is median(1 thread) / median(2 threads) over 15 interleaved pairs
    (the kernels table prints it as the row's ratio). The default batch is steered ("normal");
    None is the search alone.
    """
    import time

    one, two = [], []

    def pair():
        t0 = time.perf_counter()
        connections.generate_many(MANY, "flags", threads=1, library=LIB, difficulty=difficulty)
        t1 = time.perf_counter()
        connections.generate_many(MANY, "flags", threads=2, library=LIB, difficulty=difficulty)
        t2 = time.perf_counter()
        one.append(t1 - t0)
        two.append(t2 - t1)

    benchmark.pedantic(pair, rounds=15, warmup_rounds=1)
    benchmark.extra_info["boards/s 1 thread"] = round(len(MANY) / float(np.median(one)))
    benchmark.extra_info["boards/s 2 threads"] = round(len(MANY) / float(np.median(two)))
    benchmark.extra_info["speedup_2_threads"] = round(float(np.median(one) / np.median(two)), 2)
