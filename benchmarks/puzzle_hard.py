"""Exact par on the hard boards (many small look-alike classes), one process per board.

    python benchmarks/puzzle_hard.py            # the installed flagcore
    PYTHONPATH=/path/to/other/build python benchmarks/puzzle_hard.py   # another build, to compare

Prints par, search nodes (budget units) and the median of a few timed calls, unlimited budget,
each board in a child process with a 90 s timeout. Boards: random permutations with classes of
the given sizes (seeds 7-9), the cases the exact-par limits paragraph of the README quotes.
"""

import random
import statistics
import subprocess
import sys
import time

CASES = [
    "(3,)*5",
    "(5,4,3,3)",
    "(2,)*7+(1,)",
    "(4,)*16",
    "(16,)*16",
    "(20,)*12+(16,)",
    "(2,)*64",
    "(4,)*32",
    "(8,)*32",
    "(2,)*128",
]


def one(sizes_text: str, seed: int) -> None:
    import numpy as np

    from flagcore import _puzzle as core
    from flagcore._args.puzzle import as_classes

    sizes = eval(sizes_text, {})  # our own literal list above
    rng = random.Random(seed)
    sigs = [c for c, size in enumerate(sizes) for _ in range(size)]
    rng.shuffle(sigs)
    cls, k = as_classes(sigs, len(sigs))
    tiles = list(range(len(sigs)))
    random.Random(seed + 1).shuffle(tiles)
    t = np.array(tiles, dtype=np.int32)
    par, nodes = core.exact_search_nodes(t, cls, k)
    times = []
    for _ in range(5):
        t0 = time.perf_counter()
        core.min_swaps_exact(t, cls, k)
        times.append(time.perf_counter() - t0)
        if sum(times) > 5:
            break
    print(f"par={par} nodes={nodes} median={statistics.median(times) * 1e3:.3f} ms")


def main() -> None:
    for case in CASES:
        for seed in (7, 8, 9):
            try:
                out = subprocess.run(
                    [sys.executable, __file__, case, str(seed)], capture_output=True, text=True, timeout=90
                ).stdout.strip()
            except subprocess.TimeoutExpired:
                out = "did not finish in 90 s"
            print(f"{case:16s} seed={seed}: {out}", flush=True)


if __name__ == "__main__":
    if len(sys.argv) == 3:
        one(sys.argv[1], int(sys.argv[2]))
    else:
        main()
