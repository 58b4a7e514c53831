"""Exact-par search nodes over every bundled flag's signatures at chosen grids (budget headroom).

    python benchmarks/puzzle_flag_nodes.py 3x2,4x3,5x3 200     # grids, random boards per flag
    python benchmarks/puzzle_flag_nodes.py 8x6,10x8 30

One JSON line per grid: boards solved, most tile classes seen, the largest node count (budget
units, see puzzle.DEFAULT_MAX_NODES) with its flag, the slowest call, and boards past 2,000,000.
Grids other than the shipped three render every flag first (about a second per flag).
"""

import json
import random
import sys
import time

import numpy as np

from flagcore import _puzzle as core
from flagcore._args.puzzle import as_classes
from flagcore.errors import ParSearchLimit
from flagcore.signatures import bundled_codes, piece_signatures

grids = [tuple(map(int, g.split("x"))) for g in sys.argv[1].split(",")]
boards = int(sys.argv[2])
CAP = 2_000_000
for c, r in grids:
    n = c * r
    worst = (0, None)
    worst_t = (0.0, None)
    limited = []
    kmax = 0
    total = 0
    for code in bundled_codes():
        sigs = piece_signatures(code, c, r)
        if sigs is None:
            continue
        cls, k = as_classes([int(x) for x in sigs], n)
        kmax = max(kmax, k)
        rng = random.Random(f"{code} {c}x{r}")  # str seeds are stable across runs
        for i in range(boards):
            p = list(range(n))
            rng.shuffle(p)
            t = np.array(p, dtype=np.int32)
            t0 = time.perf_counter()
            try:
                core.min_swaps_exact(t, cls, k, CAP)
            except ParSearchLimit:
                limited.append((code, i))
                continue
            dt = time.perf_counter() - t0
            par, nodes = core.exact_search_nodes(t, cls, k)
            total += 1
            if nodes > worst[0]:
                worst = (nodes, (code, k, i))
            if dt > worst_t[0]:
                worst_t = (dt, (code, k, i))
    print(
        json.dumps(
            {
                "grid": f"{c}x{r}",
                "boards": total,
                "max_classes": kmax,
                "max_nodes": worst,
                "max_seconds": worst_t,
                "over_cap": limited[:10],
                "n_over_cap": len(limited),
            }
        ),
        flush=True,
    )
