"""``flagcore stats connections``: the spec's "Measured cost" and "Ambiguous tiles" tables.

Ambiguity comes in two kinds, reported apart: a tile in the pool of a group it is not in (the rule
says it fits) and a tile in that group's arguable set (a player could argue it fits).

Seeds 0..N-1 run through ``generate_many`` in chunks (a progress bar on stderr, plain lines off a
terminal), once with the spec's
generator (legacy) and once with the fixed one, per mode, and the tables put them side by side.
Percentiles are nearest-rank (the value at rank ceil(p/100 * n) of the sorted sample).
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from .. import _connections_layout as _ref
from .._args.common import as_at_least
from .._args.connections import as_mode
from ..connections.assembly import REASONS
from ..connections.batch import generate_many
from ..connections.tables import default_library
from ..library import MODES, Library, load_library
from ._progress import progress

CHUNK = 5000


def register(groups: dict[str, Any]) -> None:
    p = groups["stats"].add_parser("connections", help="board search cost and ambiguity, legacy vs fixed")
    p.add_argument("--seeds", type=int, default=2000, help="seeds 0..N-1 (default 2000)")
    p.add_argument("--mode", choices=(*MODES, "both"), default="both", help="default: both")
    p.add_argument("--threads", type=int, default=None, help="threads for generate_many (default: one per CPU)")
    p.add_argument("--library", default=None, help="a library file instead of the bundled data")
    p.add_argument(
        "--json", action="store_true", help='print the figures as one JSON object {"command", "seeds", "runs"}'
    )
    p.set_defaults(func=run)


def nearest_rank(sorted_values: np.ndarray, p: float) -> int:
    n = len(sorted_values)
    return int(sorted_values[max(0, math.ceil(p / 100 * n) - 1)]) if n else 0


def measure(
    seeds: int, mode: str, legacy: bool, library: Library, threads: int | None, progress: Callable[[int], object]
) -> dict[str, Any]:
    """Run seeds 0..seeds-1 and summarise the batch as the two tables need it."""
    parts: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
    for lo in range(0, seeds, CHUNK):
        hi = min(seeds, lo + CHUNK)
        # the search alone (difficulty=None): the spec's tables compare searches, not the model's steering
        b = generate_many(
            np.arange(lo, hi, dtype=np.uint32),
            as_mode(mode),
            threads=threads,
            library=library,
            legacy=legacy,
            difficulty=None,
        )
        parts.append((b.status, b.counters, b.decoys, b.ambiguous, b.arguable))
        progress(hi - lo)
    status = np.concatenate([p[0] for p in parts])
    counters = np.concatenate([p[1] for p in parts])
    ok = status == _ref.STATUS_OK
    decoy = np.concatenate([p[2] for p in parts])[:, 0] >= 0
    ambiguous = np.concatenate([p[3] for p in parts]) > 0
    arguable = np.concatenate([p[4] for p in parts]) > 0
    moves = np.sort(counters[:, _ref.C_MOVES])
    backtrack = counters[:, _ref.C_BACKTRACKS] > 0
    paths = {}
    for name, mask in (
        ("no backtrack, no decoy", ~backtrack & ~decoy),
        ("backtrack, no decoy", backtrack & ~decoy),
        ("decoy, no backtrack", ~backtrack & decoy),
        ("backtrack and decoy", backtrack & decoy),
    ):
        mask = mask & ok
        paths[name] = {
            "ambiguous": int((ambiguous & mask).sum()),
            "arguable": int((arguable & mask).sum()),
            "boards": int(mask.sum()),
        }
    return {
        "mode": mode,
        "legacy": legacy,
        "seeds": seeds,
        "boards": int(ok.sum()),
        "no_board": int((~ok).sum()),
        "moves_mean": float(moves.mean()) if seeds else 0.0,
        "moves_median": nearest_rank(moves, 50),
        "moves_p90": nearest_rank(moves, 90),
        "moves_p99": nearest_rank(moves, 99),
        "moves_max": int(moves[-1]) if seeds else 0,
        "no_backtrack": int((~backtrack & ok).sum()),
        "decoy_applied": int((decoy & ok).sum()),
        "skips": {r: int(counters[:, _ref.C_SKIPS + i].sum()) for i, r in enumerate(REASONS)},
        "purple_entered": int(counters[:, _ref.C_ENTRIES + 3].sum()),
        "purple_exhausted": int(counters[:, _ref.C_EXHAUSTED + 3].sum()),
        "ambiguous_boards": int((ambiguous & ok).sum()),
        "arguable_boards": int((arguable & ok).sum()),
        "either_boards": int(((ambiguous | arguable) & ok).sum()),
        "paths": paths,
    }


def _pct(n: int, of: int) -> str:
    return f"{n:,} ({100 * n / of:.1f}%)" if of else "0"


def _of(n: int, of: int) -> str:
    return f"{n:,} of {of:,}"


def render(results: list[dict[str, Any]]) -> str:
    heads = [f"{r['mode']} {'legacy' if r['legacy'] else 'fixed'}" for r in results]
    cost_rows: list[tuple[str, Callable[[dict[str, Any]], str]]] = [
        ("Mean moves tried", lambda r: f"{r['moves_mean']:.1f}"),
        ("Median / p90 / p99", lambda r: f"{r['moves_median']} / {r['moves_p90']} / {r['moves_p99']}"),
        ("Max moves tried", lambda r: f"{r['moves_max']:,}"),
        ("Boards with no backtrack", lambda r: _of(r["no_backtrack"], r["seeds"])),
        (
            "Decoy applied",
            lambda r: f"{_of(r['decoy_applied'], r['seeds'])} ({100 * r['decoy_applied'] / max(r['seeds'], 1):.1f}%)",
        ),
        ("No board", lambda r: _of(r["no_board"], r["seeds"])),
        ("Purple entered / exhausted", lambda r: f"{r['purple_entered']:,} / {r['purple_exhausted']:,}"),
        *[(f"Skips: {reason}", (lambda reason: lambda r: f"{r['skips'][reason]:,}")(reason)) for reason in REASONS],
    ]

    def ambiguity_rows(key: str) -> list[tuple[str, Callable[[dict[str, Any]], str]]]:
        return [
            ("All boards", lambda r: _pct(r[f"{key}_boards"], r["boards"])),
            *[
                (
                    path[0].upper() + path[1:],
                    (lambda path: lambda r: _of(r["paths"][path][key], r["paths"][path]["boards"]))(path),
                )
                for path in results[0]["paths"]
            ],
        ]

    either_rows: list[tuple[str, Callable[[dict[str, Any]], str]]] = [
        ("All boards", lambda r: _pct(r["either_boards"], r["boards"]))
    ]
    out = []
    for title, rows in (
        (f"Measured cost (seeds 0..{results[0]['seeds'] - 1})", cost_rows),
        ("Ambiguous tiles (boards with a tile in the pool of a group it is not in)", ambiguity_rows("ambiguous")),
        ("Arguable tiles (boards with a tile in the arguable set of a group it is not in)", ambiguity_rows("arguable")),
        ("Either kind (boards with a tile that fits, certainly or arguably, another group)", either_rows),
    ):
        cells = [[name, *[fn(r) for r in results]] for name, fn in rows]
        first = ["Metric" if "cost" in title else "Path", *heads]
        widths = [max(len(row[i]) for row in [first, *cells]) for i in range(len(first))]
        out.append(title)
        out.append("  ".join(h.ljust(w) for h, w in zip(first, widths)).rstrip())
        out.append("  ".join("-" * w for w in widths))
        out.extend("  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in cells)
        out.append("")
    return "\n".join(out)


def run(args: argparse.Namespace) -> int:
    as_at_least(args.seeds, "--seeds", 1)
    if args.threads is not None:
        as_at_least(args.threads, "--threads", 1)
    if args.library is not None:
        library = load_library(args.library)
    else:
        library = default_library()
    modes = MODES if args.mode == "both" else (args.mode,)
    results = []
    with progress(args.seeds * 2 * len(modes), "stats connections") as bar:
        for mode in modes:
            for legacy in (True, False):
                bar.set_description(f"{mode} {'legacy' if legacy else 'fixed'}", refresh=False)
                results.append(measure(args.seeds, mode, legacy, library, args.threads, bar.update))
    if args.json:  # the shape both stats commands share: {"command", "seeds", then the figures}
        print(json.dumps({"command": "stats connections", "seeds": args.seeds, "runs": results}, indent=2))
    else:
        print(render(results))
    return 0
