"""Fairness figures of the Connections generator on the bundled library, per mode.

For seeds 0..N-1 (default 100,000), fixed search and legacy: boards with a tile in another group's
pool for certain (rule), arguably (its arguable set or a doubtful pool code), either; "no board";
and per tier the candidate categories of the library and how many distinct ones the boards
actually used (purple is the thin tier). Also the arguable memberships of the library. Run:

    python benchmarks/connections_fairness.py [--seeds N] [--json]

With ``--speed-against DIR`` (a library folder, e.g. the data before the fairness work:
``mkdir old && for f in countries categories flag_tags; do git show 7781a38:flags/$f.json > old/$f.json; done``)
it times instead what the data costs the search: ``generate()`` over the same seeds with the
bundled library and with DIR's, rounds interleaved so both see the same machine load, and prints
the median microseconds per board and their ratio per mode.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import numpy as np

from flagcore import connections
from flagcore.connections.tables import default_library
from flagcore.library import MODES, TIERS, load_library


def measure(seeds: int) -> list[dict[str, object]]:
    lib = default_library()
    out: list[dict[str, object]] = []
    for mode in MODES:
        cats = lib.categories(mode)
        candidates = [sum(1 for c in cats if c.tier == t) for t in range(4)]
        for legacy in (False, True):
            batch = connections.generate_many(np.arange(seeds, dtype=np.uint32), mode, library=lib, legacy=legacy)
            ok = batch.ok
            used = [len(set(batch.categories[ok, t].tolist())) for t in range(4)]
            out.append(
                {
                    "mode": mode,
                    "legacy": legacy,
                    "seeds": seeds,
                    "no_board": int((~ok).sum()),
                    "rule_boards": int((batch.ambiguous[ok] > 0).sum()),
                    "arguable_boards": int((batch.arguable[ok] > 0).sum()),
                    "either_boards": int(((batch.ambiguous[ok] > 0) | (batch.arguable[ok] > 0)).sum()),
                    "candidates_per_tier": dict(zip(TIERS, candidates)),
                    "used_per_tier": dict(zip(TIERS, used)),
                    "arguable_memberships": sum(len(c.arguable) for c in cats),
                    "categories_with_arguable": sum(1 for c in cats if c.arguable),
                    "doubtful_memberships": sum(len(c.doubtful) for c in cats),
                }
            )
    return out


def speed(other_dir: str, seeds: int, rounds: int) -> list[dict[str, object]]:
    """Median µs per generate() call, bundled library vs ``other_dir``'s, interleaved rounds."""
    libraries = {"bundled": default_library(), "other": load_library(other_dir)}
    out: list[dict[str, object]] = []
    for mode in MODES:
        times: dict[str, list[float]] = {name: [] for name in libraries}
        for _ in range(rounds):
            for name, lib in libraries.items():
                start = time.perf_counter()
                for s in range(seeds):
                    connections.generate(s, mode, library=lib)
                times[name].append((time.perf_counter() - start) / seeds * 1e6)
        med = {name: statistics.median(t) for name, t in times.items()}
        out.append(
            {
                "mode": mode,
                "seeds": seeds,
                "rounds": rounds,
                "bundled_us": round(med["bundled"], 2),
                "other_us": round(med["other"], 2),
                "ratio": round(med["bundled"] / med["other"], 3),
            }
        )
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seeds", type=int, default=100_000)
    p.add_argument("--json", action="store_true")
    p.add_argument(
        "--speed-against",
        metavar="DIR",
        default=None,
        help="time generate() with the bundled library against DIR's library instead",
    )
    p.add_argument("--rounds", type=int, default=11, help="interleaved rounds for --speed-against")
    args = p.parse_args()
    if args.speed_against:
        rows = speed(args.speed_against, min(args.seeds, 2_000), args.rounds)
        if args.json:
            print(json.dumps(rows, indent=2))
            return
        for r in rows:
            print(
                f"{r['mode']:6} generate() over {r['seeds']:,} seeds, median of {r['rounds']} rounds: "
                f"bundled {r['bundled_us']} µs/board, {args.speed_against} {r['other_us']} µs/board, "
                f"ratio {r['ratio']}"
            )
        return
    rows = measure(args.seeds)
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    for r in rows:
        print(
            f"{r['mode']:6} {'legacy' if r['legacy'] else 'fixed ':6}  seeds {r['seeds']:,}  "
            f"no board {r['no_board']:,}  rule-ambiguous {r['rule_boards']:,}  "
            f"arguable-ambiguous {r['arguable_boards']:,}  either {r['either_boards']:,}"
        )
        print(
            f"        candidates per tier {r['candidates_per_tier']}  used {r['used_per_tier']}  "
            f"arguable memberships {r['arguable_memberships']} in {r['categories_with_arguable']} categories, "
            f"doubtful {r['doubtful_memberships']}"
        )


if __name__ == "__main__":
    main()
