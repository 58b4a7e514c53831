"""The difficulty model's cost and generate's cost per difficulty, medians, both twins.

    python benchmarks/bench_difficulty.py                 # model and generate, compiled and twin
    python benchmarks/bench_difficulty.py --generate-only # generate() only

"generate before the model" is what generate(int seed) cost before difficulties: its fast path, the
compiled search_board on the bundled library's prepared tables (a dict lookup more in the public call).

Each figure is the median over ROUNDS rounds of the mean call time in a round of CALLS calls
(distinct seeds), in microseconds. The machine is shared: compare figures of one run, side by side.
"""

from __future__ import annotations

import argparse
import statistics
import time

from flagcore import _connections as compiled
from flagcore import _impl, connections
from flagcore.connections.difficulty import model_tables
from flagcore.connections.tables import tables_for
from flagcore.reference import connections as ref

ROUNDS = 15


def median_us(fn, calls: int) -> float:
    seeds = iter(range(10**9))
    fn(next(seeds))  # tables built once per process
    times = []
    for _ in range(ROUNDS):
        batch = [next(seeds) for _ in range(calls)]
        t = time.perf_counter()
        for s in batch:
            fn(s)
        times.append((time.perf_counter() - t) / calls * 1e6)
    return statistics.median(times)


def model_kernel(impl, mode: str, calls: int) -> float:
    mt = model_tables(impl, None, mode)
    idx = {c: i for i, c in enumerate(mt.tables.codes)}
    boards = []
    for s in range(calls):
        b = connections.generate(s, mode)
        boards.append(([idx[x] for g in b.groups for x in g.codes], [mt.tables.index[g.category_id] for g in b.groups]))

    def one(i: int) -> None:
        gt, cs = boards[i % calls]
        impl.board_model(mt.prepared, gt, cs)

    return median_us(one, calls)


def generate_side_by_side(mode: str, impl, calls: int) -> dict[str, float]:
    """Median call time of generate at each difficulty and before the model, rounds interleaved
    (each round times every variant on the same seeds), so a busy machine slows all alike."""
    prep = tables_for(impl, None, mode)[1]
    variants = {"before the model": lambda s: impl.search_board(prep, s, s, False, True, False)}
    for level in ("easy", "normal", "hard"):
        variants[f"difficulty={level}"] = lambda s, level=level: connections.generate(s, mode, difficulty=level)
    _impl.core.connections = impl
    try:
        for fn in variants.values():
            fn(0)
        times: dict[str, list[float]] = {name: [] for name in variants}
        for r in range(ROUNDS):
            seeds = range(r * calls, (r + 1) * calls)
            for name, fn in variants.items():
                t = time.perf_counter()
                for s in seeds:
                    fn(s)
                times[name].append((time.perf_counter() - t) / calls * 1e6)
    finally:
        _impl.core.connections = compiled
    return {name: statistics.median(v) for name, v in times.items()}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--generate-only", action="store_true")
    args = ap.parse_args()
    for mode in ("flags", "trivia"):
        if not args.generate_only:
            for impl, calls in ((compiled, 2000), (ref, 200)):
                print(f"{mode:6} board_model kernel, {impl.__name__:32}: {model_kernel(impl, mode, calls):8.2f} us")
            t = median_us(lambda s: connections.board_difficulty(connections.generate(s, mode)), 1000)
            print(f"{mode:6} generate + board_difficulty (public, compiled)       : {t:8.2f} us")
        for impl, calls in ((compiled, 1000), (ref, 20)):
            res = generate_side_by_side(mode, impl, calls)
            base = res["before the model"]
            for name, t in res.items():
                print(f"{mode:6} generate {name:18} on {impl.__name__:32}: {t:8.2f} us  ({t / base:.2f}x)")


if __name__ == "__main__":
    main()
