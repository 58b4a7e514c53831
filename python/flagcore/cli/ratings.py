"""``flagcore ratings fit`` and ``flagcore ratings show`` (docs/ratings.md)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..library import MODES


def register(groups: dict[str, Any]) -> None:
    top = groups[""].add_parser("ratings", help="learned difficulty from play records")
    sub = top.add_subparsers(dest="ratings_command", metavar="ACTION", parser_class=type(top))
    f = sub.add_parser("fit", help="fit ratings from play records")
    src = f.add_mutually_exclusive_group(required=True)
    src.add_argument("--store", metavar="URL", help="the server's store (sqlite:///FILE or redis://...)")
    src.add_argument("--records", metavar="FILE.jsonl", help="play records, one JSON object a line")
    f.add_argument("--mode", choices=MODES, default=None, help="one mode (default: every mode in the records)")
    f.add_argument("--out", required=True, metavar="ratings.json")
    f.set_defaults(func=run_fit)
    s = sub.add_parser("show", help="a ratings file as a table (and a chart with --png)")
    s.add_argument("ratings", metavar="ratings.json")
    s.add_argument("--png", metavar="FILE", default=None, help="also draw the chart")
    s.add_argument("--mode", choices=MODES, default=None)
    s.add_argument("--limit", type=int, default=None, help="categories per mode in the table (default all)")
    s.set_defaults(func=run_show)
    top.set_defaults(func=lambda _a: (top.print_help(sys.stderr), 2)[1])


def run_fit(a: argparse.Namespace) -> int:
    from ..ratings import fit, read_records  # noqa: PLC0415 (numpy work only when asked)

    if a.records is not None:
        got = read_records(a.records)
        records, skipped, reasons = got.records, got.skipped, got.reasons
    else:
        from ..store import open_store  # noqa: PLC0415

        store = open_store(a.store)
        try:
            got = store.play_records(a.mode)
            records, skipped, reasons = got.records, got.skipped, got.reasons
        finally:
            store.close()
    ratings = fit(records, a.mode)
    ratings.save(a.out)
    for r in reasons:
        print(f"flagcore: skipped {r}", file=sys.stderr)
    used = ", ".join(f"{m} {n}" for m, n in sorted(ratings.records.items())) or "none"
    print(
        f"{a.out}: ratings {ratings.digest} from {sum(ratings.records.values())} records ({used}); "
        f"skipped {skipped + ratings.skipped}"
    )
    return 0


def run_show(a: argparse.Namespace) -> int:
    from ..ratings import load_ratings  # noqa: PLC0415
    from ..ratings.show import chart, table  # noqa: PLC0415

    ratings = load_ratings(a.ratings)
    print(f"ratings {ratings.digest}")
    print(table(ratings, a.mode, a.limit))
    if a.png:
        print(f"chart: {chart(ratings, a.png, a.mode)}")
    return 0
