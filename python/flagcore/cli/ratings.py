"""``flagcore ratings fit`` and ``flagcore ratings show`` (docs/ratings.md)."""

from __future__ import annotations

import argparse
import datetime as _dt
import sys
from pathlib import Path
from typing import Any

from ..library import MODES


def register(groups: dict[str, Any]) -> None:
    top = groups[""].add_parser("ratings", help="learned difficulty from play records")
    sub = top.add_subparsers(dest="ratings_command", metavar="ACTION", parser_class=type(top))
    f = sub.add_parser("fit", help="fit ratings from play records")
    src = f.add_mutually_exclusive_group(required=True)
    src.add_argument("--store", metavar="URL", help="the server's store (sqlite:///FILE or redis://...)")
    src.add_argument(
        "--records",
        metavar="FILE.jsonl",
        nargs="+",
        help="play records, one JSON object a line (several files: read in the order of their names)",
    )
    f.add_argument("--mode", choices=MODES, default=None, help="one mode (default: every mode in the records)")
    f.add_argument("--out", required=True, metavar="ratings.json")
    f.add_argument(
        "--dailies-from",
        metavar="YYYY-MM-DD",
        default=None,
        help="the first day whose daily the ratings colour (default: the day after today in UTC+14, "
        "the first day not begun anywhere)",
    )
    f.set_defaults(func=run_fit)
    s = sub.add_parser("show", help="a ratings file as a table (and a chart with --png)")
    s.add_argument("ratings", metavar="ratings.json")
    s.add_argument("--png", metavar="FILE", default=None, help="also draw the chart")
    s.add_argument("--mode", choices=MODES, default=None)
    s.add_argument("--limit", type=int, default=None, help="categories per mode in the table (default all)")
    s.set_defaults(func=run_show)
    e = sub.add_parser("export", help="a store's play records as JSON lines")
    e.add_argument("--store", metavar="URL", required=True)
    e.add_argument("--out", metavar="FILE.jsonl", required=True)
    e.set_defaults(func=run_export)
    i = sub.add_parser("import", help="JSON lines play records into a store (each line once)")
    i.add_argument("records", metavar="FILE.jsonl")
    i.add_argument("--store", metavar="URL", required=True)
    i.add_argument("--days", type=int, default=400, help="days to keep them (default 400)")
    i.set_defaults(func=run_import)
    top.set_defaults(func=lambda _a: (top.print_help(sys.stderr), 2)[1])


def _store_records(url: str) -> Any:
    """The play records of the store at ``url`` (bad ones skipped and counted)."""
    from ..ratings import read_records  # noqa: PLC0415
    from ..store import open_store  # noqa: PLC0415

    store = open_store(url)
    if store is None:
        raise ValueError("--store none holds no play records")
    try:
        return read_records(raw.decode("utf-8", "replace") for raw in store.play_records())
    finally:
        store.close()


def run_export(a: argparse.Namespace) -> int:
    from ..ratings import write_records  # noqa: PLC0415

    got = _store_records(a.store)
    n = write_records([*got.records, *got.puzzle], a.out)
    print(f"{a.out}: {n} records; skipped {got.skipped}")
    return 0


def run_import(a: argparse.Namespace) -> int:
    import hashlib  # noqa: PLC0415
    import json  # noqa: PLC0415

    from ..ratings import PlayRecord, PuzzleRecord, read_records  # noqa: PLC0415
    from ..store import open_store  # noqa: PLC0415

    got = read_records(a.records)
    store = open_store(a.store)
    if store is None:
        raise ValueError("--store none keeps no play records")
    added = 0
    try:
        both: list[PlayRecord | PuzzleRecord] = [*got.records, *got.puzzle]
        for n, rec in enumerate(both):
            data = json.dumps(rec.to_dict(), separators=(",", ":")).encode()
            # the record and its place in the file are its key: importing a file twice adds nothing
            key = "import:" + hashlib.sha256(b"%d:" % n + data).hexdigest()[:32]
            added += store.record_play(key, data, "import", ("plays",), max(1, a.days) * 86400)
    finally:
        store.close()
    print(f"{a.store}: {added} records added; skipped {got.skipped}")
    return 0


def run_fit(a: argparse.Namespace) -> int:
    from ..ratings import fit, read_records  # noqa: PLC0415 (numpy work only when asked)

    if a.records is not None:
        # files in the order of their names, whatever order the shell gave them: the same files
        # give the same ratings, byte for byte (the shipped file's command: flagcore.ratings.shipped)
        records, skipped, reasons = [], 0, []
        for path in sorted(a.records):
            got = read_records(path)
            records += got.records
            skipped += got.skipped
            reasons += [f"{path}: {r}" for r in got.reasons]
    else:
        got = _store_records(a.store)
        records, skipped, reasons = got.records, got.skipped, got.reasons
    ratings = fit(records, a.mode)
    ratings.dailies_from = dailies_from(a.dailies_from)
    keep_replaced(Path(a.out), ratings)
    ratings.save(a.out)
    for r in reasons:
        print(f"flagcore: skipped {r}", file=sys.stderr)
    used = ", ".join(f"{m} {n}" for m, n in sorted(ratings.records.items())) or "none"
    print(
        f"{a.out}: ratings {ratings.digest} from {sum(ratings.records.values())} records ({used}); "
        f"skipped {skipped + ratings.skipped}; dailies from {ratings.dailies_from}"
    )
    return 0


def dailies_from(given: str | None) -> str:
    """``--dailies-from`` checked, or the day after today in the earliest time zone: no daily that
    has begun anywhere is coloured by a new fit."""
    from .._args.ratings import as_day  # noqa: PLC0415
    from ..days import latest_day  # noqa: PLC0415

    day = as_day(given, "--dailies-from")
    return day or (latest_day() + _dt.timedelta(days=1)).isoformat()


def keep_replaced(out: Path, new: Any) -> None:
    """A refit over a file with history (``NAME/`` beside ``NAME.json``, docs/ratings.md) keeps the
    file it replaces there, named by its digest, so the dailies it coloured keep their colours;
    the same ratings again keep the replaced file's ``dailies_from`` (they colour alike)."""
    from ..ratings import load_ratings  # noqa: PLC0415

    folder = out.with_suffix("")
    if folder == out or not out.is_file() or not folder.is_dir():
        return
    old = load_ratings(out)
    same = old.digest == new.digest
    if same:
        new.dailies_from = old.dailies_from
    earlier = old.earlier if same else (*old.earlier, old)
    last = earlier[-1].dailies_from if earlier else None
    if last is not None and new.dailies_from <= last:
        raise ValueError(f"--dailies-from {new.dailies_from}: must be after {last}, the day of the file before")
    if not same and not (folder / f"{old.digest}.json").exists():
        (folder / f"{old.digest}.json").write_bytes(out.read_bytes())


def run_show(a: argparse.Namespace) -> int:
    from ..ratings import load_ratings  # noqa: PLC0415
    from ..ratings.show import chart, table  # noqa: PLC0415

    ratings = load_ratings(a.ratings)
    print(f"ratings {ratings.digest}, dailies from {ratings.dailies_from or 'the first'}")
    for r in reversed(ratings.earlier):  # the history that colours the dailies before
        print(f"  before it: ratings {r.digest}, dailies from {r.dailies_from or 'the first'}")
    print(table(ratings, a.mode, a.limit))
    if a.png:
        print(f"chart: {chart(ratings, a.png, a.mode)}")
    return 0
