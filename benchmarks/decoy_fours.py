"""How many complete off-board decoy fours a board deals (issue 31).

    python benchmarks/decoy_fours.py [BOARDS] [--from YYYY-MM-DD --days N] [--json]

A *complete off-board four* of a board is a category of the mode (library or synthetic) that is
not one of the board's four groups and whose members on the board are exactly four tiles, drawn
from two or more of its groups: four tiles a player can submit whole, that share a true feature,
and that are not an answer. Members are the category's fit set, certain and arguable codes alike
(a player argues either way), as the difficulty model's phantoms (docs/difficulty.md) and
``tools/play_blind.py review`` ("exact fours over 2+ groups") count them. Not counted: a category
whose four members are exactly one group's tiles (that group under another label: guessing it is
guessing the group), and one with five or more members on the board (no four of it is complete).

Per mode and difficulty (seeds 0..BOARDS-1) and the scheduled dailies of ``--from`` on: the mean,
p50, p90 and max of such fours per board, and the same for the salient ones (salience >= 5: the
ones a player sees at tile size, docs/difficulty.md). The counter is the model's
(``board_difficulty``), not the generator's own.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json

from second_splits import board_sets

from flagcore.connections import Board, board_difficulty

SALIENT = 5  # a four of this salience or more is seen at tile size (the model's TEMPTING needs 5 too)


def decoy_fours(board: Board) -> tuple[int, int]:
    """(complete off-board fours of the board, of them those with salience >= SALIENT)."""
    fours = [p for p in board_difficulty(board).phantoms if len(p.codes) == 4 and p.spread >= 2]
    return len(fours), sum(1 for p in fours if p.salience >= SALIENT)


def quantiles(values: list[int]) -> dict[str, float]:
    """mean, p50, p90 (nearest rank) and max."""
    v = sorted(values)
    n = len(v)
    return {"mean": round(sum(v) / n, 2), "p50": v[(n - 1) // 2], "p90": v[(9 * n - 1) // 10], "max": v[-1]}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("boards", nargs="?", type=int, default=5000)
    ap.add_argument("--from", dest="start", type=dt.date.fromisoformat, default=None, help="first scheduled daily")
    ap.add_argument("--days", type=int, default=365, help="scheduled dailies from --from")
    ap.add_argument("--json", action="store_true", help="one JSON object instead of the table")
    args = ap.parse_args()
    days = [] if args.start is None else [(args.start, args.days)]
    out = {}
    for name, boards in board_sets(args.boards, False, days):
        counts = [decoy_fours(b) for b in boards]
        out[name] = {
            "boards": len(boards),
            "fours": quantiles([c[0] for c in counts]),
            "salient": quantiles([c[1] for c in counts]),
        }
        if not args.json:
            f, s = out[name]["fours"], out[name]["salient"]
            print(
                f"{name:<32} boards {len(boards)}: fours mean {f['mean']:.2f} p50 {f['p50']} p90 {f['p90']} "
                f"max {f['max']}; salient mean {s['mean']:.2f} p50 {s['p50']} p90 {s['p90']} max {s['max']}",
                flush=True,
            )
    if args.json:
        print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
