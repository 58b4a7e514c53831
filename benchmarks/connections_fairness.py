"""Fairness figures of the Connections generator on the bundled library, per mode.

For seeds 0..N-1 (default 100,000), fixed search and legacy: boards with a tile in another group's
pool for certain (rule), arguably (its arguable set or a doubtful pool code), either; "no board"; and per tier the candidate
categories of the library and how many distinct ones the boards actually used (purple is the thin
tier). Also the arguable memberships of the library. Run:

    python benchmarks/connections_fairness.py [--seeds N] [--json]
"""
from __future__ import annotations

import argparse
import json

import numpy as np

from flagcore import connections
from flagcore.connections.generator import default_library
from flagcore.library import MODES, TIERS


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
            out.append({
                "mode": mode, "legacy": legacy, "seeds": seeds, "no_board": int((~ok).sum()),
                "rule_boards": int((batch.ambiguous[ok] > 0).sum()),
                "arguable_boards": int((batch.arguable[ok] > 0).sum()),
                "either_boards": int(((batch.ambiguous[ok] > 0) | (batch.arguable[ok] > 0)).sum()),
                "candidates_per_tier": dict(zip(TIERS, candidates)),
                "used_per_tier": dict(zip(TIERS, used)),
                "arguable_memberships": sum(len(c.arguable) for c in cats),
                "categories_with_arguable": sum(1 for c in cats if c.arguable),
                "doubtful_memberships": sum(len(c.doubtful) for c in cats),
            })
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seeds", type=int, default=100_000)
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    rows = measure(args.seeds)
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    for r in rows:
        print(f"{r['mode']:6} {'legacy' if r['legacy'] else 'fixed ':6}  seeds {r['seeds']:,}  "
              f"no board {r['no_board']:,}  rule-ambiguous {r['rule_boards']:,}  "
              f"arguable-ambiguous {r['arguable_boards']:,}  either {r['either_boards']:,}")
        print(f"        candidates per tier {r['candidates_per_tier']}  used {r['used_per_tier']}  "
              f"arguable memberships {r['arguable_memberships']} in {r['categories_with_arguable']} categories, "
              f"doubtful {r['doubtful_memberships']}")


if __name__ == "__main__":
    main()
