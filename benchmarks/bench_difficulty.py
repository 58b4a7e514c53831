"""The difficulty model's cost and generate's cost per difficulty, medians, both twins.

    python benchmarks/bench_difficulty.py                 # model and generate, compiled and twin
    python benchmarks/bench_difficulty.py --generate-only # generate() only
    python benchmarks/bench_difficulty.py --against OTHER.so  # this build's kernels beside another's

``--against`` loads another build of flagcore._connections (say, main's before a change:
``git worktree add ../base main``, build it, pass its
``.venv/lib/python3.*/site-packages/flagcore/_connections.*.so``) beside this one, and times
generate's kernel at each difficulty (``search_board``, ``search_board_model`` on the same tables and
targets) for both builds in alternating rounds, the order swapped every round: on a shared machine
the load slows both alike, so the ratio is the figure. It also checks that both deal the same boards.

"generate before the model" is what generate(int seed) cost before difficulties: its fast path, the
compiled search_board on the bundled library's prepared tables (a dict lookup more in the public call).

Each figure is the median over ROUNDS rounds of the mean call time in a round of CALLS calls
(distinct seeds), in microseconds. The machine is shared: compare figures of one run, side by side.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import time

from flagcore import _connections as compiled
from flagcore import _impl, connections
from flagcore._args.connections import difficulty_target
from flagcore.connections.difficulty import _prepare, model_tables
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


def load_build(path: str):
    """Another build of flagcore._connections, loaded beside this one (not in sys.modules)."""
    spec = importlib.util.spec_from_file_location("flagcore._connections", path)
    assert spec is not None and spec.loader is not None, path
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def kernels_side_by_side(mode: str, other, calls: int) -> dict[str, tuple[float, float]]:
    """Per difficulty, the median µs a board of generate's kernel on (this build, ``other``),
    rounds alternating and each round's order swapped."""
    kit = tables_for(compiled, None, mode)[1].kit
    mt = model_tables(compiled, None, mode)
    builds = []
    for impl in (compiled, other):
        prep = impl.prepare(mt.tables, kit)
        model = _prepare(impl, mt.tables, mt.data, [d.salience for d in mt.data])
        variants = {"search alone": lambda s, impl=impl, prep=prep: impl.search_board(prep, s, s, False, True, False)}
        for level in ("easy", "normal", "hard"):
            target = difficulty_target(level)
            variants[level] = lambda s, impl=impl, prep=prep, model=model, target=target: impl.search_board_model(
                prep, model, s, s, True, *target, False
            )
        builds.append(variants)
    for name in builds[0]:
        for s in range(200):  # the same boards, tiles, groups and stats
            a, b = builds[0][name](s), builds[1][name](s)
            assert (a.tiles, a.groups, a.stats) == (b.tiles, b.groups, b.stats), (mode, name, s)
    times: dict[str, list[list[float]]] = {name: [[], []] for name in builds[0]}
    for r in range(ROUNDS):
        seeds = range(1000 + r * calls, 1000 + (r + 1) * calls)
        for name in builds[0]:
            for side in (0, 1) if r % 2 == 0 else (1, 0):
                fn = builds[side][name]
                t = time.perf_counter()
                for s in seeds:
                    fn(s)
                times[name][side].append((time.perf_counter() - t) / calls * 1e6)
    return {name: (statistics.median(v[0]), statistics.median(v[1])) for name, v in times.items()}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--generate-only", action="store_true")
    ap.add_argument("--against", metavar="SO", help="another build of flagcore._connections: its kernels beside these")
    args = ap.parse_args()
    if args.against:
        other = load_build(args.against)
        for mode in ("flags", "trivia"):
            for name, (this, that) in kernels_side_by_side(mode, other, 200).items():
                print(f"{mode:6} {name:12}: this build {this:8.2f} us, the other {that:8.2f} us ({that / this:.2f}x)")
        return
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
