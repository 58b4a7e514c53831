"""The difficulty model's cost and generate's cost per difficulty, medians, both twins.

    python benchmarks/bench_difficulty.py                 # model and generate, compiled and twin
    python benchmarks/bench_difficulty.py --generate-only # generate() as the public API runs it today

Each figure is the median over ROUNDS rounds of the mean call time in a round of CALLS calls
(distinct seeds), in microseconds. The machine is shared: compare figures of one run, side by side.
"""

from __future__ import annotations

import argparse
import inspect
import statistics
import time

from flagcore import _connections as compiled
from flagcore import _impl, connections
from flagcore.connections.difficulty import model_tables
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


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--generate-only", action="store_true")
    args = ap.parse_args()
    has_difficulty = "difficulty" in inspect.signature(connections.generate).parameters
    levels = ("easy", "normal", "hard") if has_difficulty else (None,)
    for mode in ("flags", "trivia"):
        if not args.generate_only:
            for impl, calls in ((compiled, 2000), (ref, 200)):
                print(f"{mode:6} board_model kernel, {impl.__name__:32}: {model_kernel(impl, mode, calls):8.2f} us")
            t = median_us(lambda s: connections.board_difficulty(connections.generate(s, mode)), 1000)
            print(f"{mode:6} generate + board_difficulty (public, compiled)       : {t:8.2f} us")
        for impl, calls in ((compiled, 2000), (ref, 100)):
            _impl.core.connections = impl
            try:
                for level in levels:
                    kw = {} if level is None else {"difficulty": level}
                    t = median_us(lambda s, kw=kw: connections.generate(s, mode, **kw), calls)
                    name = "today's generate" if level is None else f"difficulty={level}"
                    print(f"{mode:6} generate {name:18} on {impl.__name__:32}: {t:8.2f} us")
            finally:
                _impl.core.connections = compiled


if __name__ == "__main__":
    main()
