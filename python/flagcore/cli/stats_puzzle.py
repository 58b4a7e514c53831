"""``flagcore stats puzzle``: tile classes, the spec's 750,000 cap, and par on random boards.

For every bundled flag at each grid (signatures from the precomputed table):

* K, the number of tile classes, and the size of the spec's enumeration, the product of
  |G_j|! over the classes. The spec enumerates only when K >= 4 and falls back to the
  identity count (an upper bound) past 750,000 candidates.
* On random boards (``puzzle.new_game`` with the string seeds "stats:<code>:<grid>:<i>" for
  i in 0..N-1, so every flag gets its own boards, as a player gets them), the par
  of ``method="enumerate"`` (the spec's path, fallback included) against ``method="exact"``:
  how many boards the fallback overstated and by how much.
* The mean exact par against the spec's table n - H_n, which holds for flags whose tiles are
  all distinct; look-alike tiles lower it.
* With ``--audit``: both signatures against what a player sees (flagcore.review.signature_audit).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
from collections import Counter
from collections.abc import Sequence
from typing import Any

from .. import puzzle, signatures
from .._args.cli import as_bundled_codes
from .._args.common import as_at_least, as_flag_code
from ..review import signature_audit
from ._progress import progress, steps

SPEC_CAP = 750_000


def register(groups: dict[str, Any]) -> None:
    p = groups["stats"].add_parser("puzzle", help="tile classes, the spec's 750,000 cap and par on random boards")
    p.add_argument("--seeds", type=int, default=100, help="random boards per flag and grid, seeds 0..N-1 (default 100)")
    p.add_argument(
        "--grid",
        action="append",
        choices=sorted(puzzle.GRIDS),
        default=None,
        help="a grid to measure (repeatable; default easy, medium and hard)",
    )
    p.add_argument("--flags", default=None, help="comma-separated flag codes (default: every bundled flag)")
    p.add_argument(
        "--json",
        action="store_true",
        help='print the figures as one JSON object {"command", "seeds", "grids", "flags"}',
    )
    p.add_argument(
        "--signature",
        choices=signatures.METHODS,
        default=signatures.METHODS[0],
        help="tile signature for the figures above (default visual)",
    )
    p.add_argument(
        "--audit",
        action="store_true",
        help="also measure both signatures against what a player sees: pairs the "
        "spec merges that visibly differ, pairs split that look the same, par moves",
    )
    p.set_defaults(func=run)


def harmonic(n: int) -> float:
    return sum(1 / k for k in range(1, n + 1))


def enumeration_size(sigs: Sequence[int]) -> tuple[int, int]:
    """(K, product of |G_j|!): the classes and the spec's candidate count."""
    sizes = Counter(sigs).values()
    return len(sizes), math.prod(math.factorial(s) for s in sizes)


def measure_flag(code: str, grid: str, seeds: int, method: str = "visual") -> dict[str, Any]:
    columns, rows = puzzle.GRIDS[grid]
    sigs = signatures.piece_signatures(code, columns, rows, method)
    if sigs is None:
        raise RuntimeError(f"no signatures for bundled flag {code} at {columns}x{rows}")
    k, candidates = enumeration_size(sigs)
    capped = k >= 4 and candidates > SPEC_CAP
    pars, over = [], []
    for seed in range(seeds):
        game = puzzle.new_game(sigs, (columns, rows), seed=f"stats:{code}:{grid}:{seed}")
        exact = puzzle.min_swaps_to_visual_solve(game.tiles_by_slot, sigs, method="exact")
        spec = puzzle.min_swaps_to_visual_solve(game.tiles_by_slot, sigs, method="enumerate")
        if exact != game.par or spec < exact:
            raise RuntimeError(f"{code} {grid} seed {seed}: par {game.par}, exact {exact}, enumerate {spec}")
        pars.append(exact)
        over.append(spec - exact)
    return {
        "code": code,
        "grid": grid,
        "k": k,
        "candidates": candidates,
        "capped": capped,
        "identity_mode": k == 1,
        "mean_par": statistics.fmean(pars) if pars else 0.0,
        "boards": seeds,
        "overstated_boards": sum(1 for o in over if o),
        "mean_overstatement": statistics.fmean(over) if over else 0.0,
        "max_overstatement": max(over, default=0),
    }


def summarise(grid: str, rows: list[dict[str, Any]]) -> dict[str, Any]:
    columns, nrows = puzzle.GRIDS[grid]
    n = columns * nrows
    ks = sorted(r["k"] for r in rows)
    capped = [r for r in rows if r["capped"]]
    distinct = [r for r in rows if r["k"] == n]
    boards = sum(r["boards"] for r in rows)

    def mean_par(sel: list[dict[str, Any]]) -> float | None:
        total = sum(r["boards"] for r in sel)
        return sum(r["mean_par"] * r["boards"] for r in sel) / total if total else None

    return {
        "grid": grid,
        "size": f"{columns}x{nrows}",
        "n": n,
        "flags": len(rows),
        "k_min": ks[0] if ks else 0,
        "k_median": statistics.median(ks) if ks else 0,
        "k_max": ks[-1] if ks else 0,
        "k_histogram": dict(sorted(Counter(ks).items())),
        "enumerating_flags": sum(1 for r in rows if r["k"] >= 4),
        "capped_flags": len(capped),
        "capped_boards_overstated": sum(r["overstated_boards"] for r in capped),
        "capped_boards": sum(r["boards"] for r in capped),
        "capped_mean_overstatement": (
            sum(r["mean_overstatement"] * r["boards"] for r in capped) / max(1, sum(r["boards"] for r in capped))
        ),
        "capped_max_overstatement": max((r["max_overstatement"] for r in capped), default=0),
        "boards": boards,
        "mean_par_all": mean_par(rows),
        "distinct_flags": len(distinct),
        "mean_par_distinct": mean_par(distinct),
        "spec_expected_par": n - harmonic(n),
    }


def _fmt(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _table(headers: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]

    def line(cells: list[str]) -> str:
        return "  ".join(c.rjust(w) for c, w in zip(cells, widths)).rstrip()

    return [line(headers)] + [line(r) for r in rows]


def render(summaries: list[dict[str, Any]], flags: list[dict[str, Any]], seeds: int) -> str:
    out = [
        f"Puzzle par over {seeds} random boards per flag and grid "
        f"(new_game seeds 'stats:<code>:<grid>:<i>', i < {seeds})",
        "",
    ]
    out += _table(
        [
            "grid",
            "n",
            "flags",
            "K min/med/max",
            "K>=4",
            "capped",
            "overstated boards",
            "over mean/max",
            "mean par",
            "all-distinct flags: par",
            "n - H_n",
        ],
        [
            [
                f"{s['grid']} {s['size']}",
                str(s["n"]),
                str(s["flags"]),
                f"{s['k_min']}/{s['k_median']:g}/{s['k_max']}",
                str(s["enumerating_flags"]),
                str(s["capped_flags"]),
                f"{s['capped_boards_overstated']}/{s['capped_boards']}",
                f"{_fmt(s['capped_mean_overstatement'])}/{s['capped_max_overstatement']}",
                _fmt(s["mean_par_all"]),
                f"{s['distinct_flags']}: {_fmt(s['mean_par_distinct'])}",
                f"{s['spec_expected_par']:.2f}",
            ]
            for s in summaries
        ],
    )
    out += [
        "",
        "capped: flags with K >= 4 classes and more than 750,000 candidate layouts, which",
        "the spec sends to the identity-count fallback; overstated: their random boards whose",
        "fallback par exceeds the exact par, and by how much (swaps).",
        "",
        "Flags past the cap:",
    ]
    capped = [f for f in flags if f["capped"]]
    if not capped:
        out.append("  none")
    out += (
        [
            "  " + line
            for line in _table(
                ["flag", "grid", "K", "candidates", "overstated", "mean over", "max over"],
                [
                    [
                        f["code"],
                        f["grid"],
                        str(f["k"]),
                        f"{f['candidates']:,}",
                        f"{f['overstated_boards']}/{f['boards']}",
                        f"+{f['mean_overstatement']:.2f}",
                        f"+{f['max_overstatement']}",
                    ]
                    for f in capped
                ],
            )
        ]
        if capped
        else []
    )
    out += ["", "Tile classes K per grid (K: number of flags):"]
    for s in summaries:
        out.append(f"  {s['grid']:<7}" + "  ".join(f"{k}:{v}" for k, v in s["k_histogram"].items()))
    return "\n".join(out)


def run(args: argparse.Namespace) -> int:
    as_at_least(args.seeds, "--seeds", 1)
    grids = args.grid or ["easy", "medium", "hard"]
    codes = signatures.bundled_codes()
    if args.flags:
        codes = as_bundled_codes((as_flag_code(c, "--flags") for c in args.flags.split(",") if c.strip()), codes)
    flags: list[dict[str, Any]] = []
    summaries = []
    with progress(len(grids) * len(codes), "stats puzzle") as bar:
        for grid in grids:
            rows = []
            for code in codes:
                bar.set_description(f"{grid} {code}", refresh=False)
                rows.append(measure_flag(code, grid, args.seeds, args.signature))
                bar.update(1)
            flags += rows
            summaries.append(summarise(grid, rows))
    audit = None
    if args.audit:
        with steps(len(grids) * len(codes), "signature audit") as step:
            audit = signature_audit.audit(codes, grids, args.seeds, step)
    if args.json:  # the shape both stats commands share: {"command", "seeds", then the figures}
        print(
            json.dumps(
                {
                    "command": "stats puzzle",
                    "seeds": args.seeds,
                    "signature": args.signature,
                    "grids": summaries,
                    "flags": flags,
                    **({"audit": audit} if audit else {}),
                },
                indent=2,
            )
        )
    else:
        print(render(summaries, flags, args.seeds))
        if audit:
            print("\n" + signature_audit.render(audit))
    return 0
