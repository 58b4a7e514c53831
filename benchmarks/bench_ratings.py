"""The cost of ratings (docs/ratings.md, "Cost"): fitting, and generate with ratings vs without.

    OPENBLAS_NUM_THREADS=1 python benchmarks/bench_ratings.py fit [--records 1000000]
    python benchmarks/bench_ratings.py generate

fit: synthetic records (a hidden difficulty per category, Plackett-Luce draws) fitted on one
core: the median of 3 runs of ``fit_arrays`` over N records, and ``fit`` (PlayRecord objects to
arrays, the board and colour tables included) over N/10 records scaled to per-record cost.
generate: the median over rounds of the mean ``generate(seed)`` call, with and without ratings
(a ratings file fitted from synthetic records), in microseconds; distinct seeds in each round.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "ratings"))
from synth import games, hidden  # noqa: E402

from flagcore import connections  # noqa: E402
from flagcore.ratings import fit  # noqa: E402
from flagcore.ratings.fit import fit_arrays  # noqa: E402


def bench_fit(n: int) -> None:
    rng = np.random.default_rng(0)
    k = 228
    truth = rng.normal(0, 1, k)
    cats = (
        np.argsort(rng.random((n, k)), axis=1)[:, :4]
        if n <= 50_000
        else np.stack([rng.choice(k, 4, replace=False) for _ in range(n)])
    )
    order = np.argsort(truth[cats] - rng.gumbel(size=(n, 4)), axis=1)
    ranks = np.empty_like(order)
    np.put_along_axis(ranks, order, np.arange(1, 5)[None, :].repeat(n, 0), axis=1)
    ranks[rng.random(n) < 0.15, :] *= 0  # some games lost with nothing found
    times = []
    for _ in range(3):
        t = time.perf_counter()
        fit_arrays(cats, ranks, k)
        times.append(time.perf_counter() - t)
    print(f"fit_arrays: {n} records, {k} categories: median {statistics.median(times):.2f} s")
    m = max(n // 10, 1000)
    recs = games("trivia", m, hidden("trivia"))
    t = time.perf_counter()
    fit(recs, "trivia")
    dt = time.perf_counter() - t
    print(f"fit: {m} PlayRecords: {dt:.2f} s, {dt / m * 1e6:.1f} us a record")


def median_us(fn, calls: int = 300, rounds: int = 9) -> float:
    seeds = iter(range(10**9))
    fn(next(seeds))
    times = []
    for _ in range(rounds):
        batch = [next(seeds) for _ in range(calls)]
        t = time.perf_counter()
        for s in batch:
            fn(s)
        times.append((time.perf_counter() - t) / calls * 1e6)
    return statistics.median(times)


def bench_generate() -> None:
    for mode in ("flags", "trivia"):
        ratings = fit(games(mode, 20_000, hidden(mode)), mode)
        plain = median_us(lambda s: connections.generate(s, mode))
        rated = median_us(lambda s: connections.generate(s, mode, ratings=ratings))
        print(f"generate {mode}: {plain:.0f} us without ratings, {rated:.0f} us with ({rated / plain:.2f}x)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=("fit", "generate"))
    ap.add_argument("--records", type=int, default=1_000_000)
    a = ap.parse_args()
    if a.what == "fit":
        bench_fit(a.records)
    else:
        bench_generate()


if __name__ == "__main__":
    main()
