"""Write (or check) the published dailies' file, python/flagcore/connections/daily/published.json.gz.

The boards of schedule versions 1 and 2 (every day before 2027-02-01), public schedule, bundled
library, both modes, each with the difficulty model's colours and those of the shipped ratings
that colour its day, as the code and data of this checkout compute them (docs/season.md,
"Published dailies are stored"). Those boards are published: the file was written once and is
never written again (its digest is pinned in tests/season/test_published.py).

    python scripts/write_published_dailies.py --check   # what the code and data give now, against the file
    python scripts/write_published_dailies.py --write   # (re)write the file: changes published boards

``--check`` exits 1 and names the days whose boards the code and data in use would deal
otherwise: after a change of the flags data, those it would have changed without the file.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from flagcore.connections.daily import published, schedule, version_of
from flagcore.connections.daily.tiles import computed, made
from flagcore.days import date_of
from flagcore.ratings import load_ratings
from flagcore.ratings.shipped import shipped_ratings

MODES = ("flags", "trivia")


def entries() -> dict[str, list[published.Entry]]:
    """Per mode, the entries of days 0 .. END - 1 as computed now, each checked to rebuild the
    computed boards exactly."""
    path = shipped_ratings()
    ratings = None if path is None else load_ratings(path)
    out: dict[str, list[published.Entry]] = {}
    for mode in MODES:
        out[mode] = []
        for i in range(published.END):
            s = schedule(None, mode, None, version_of(i))
            plain = made(s, i)[0]
            coloured = {published.MODEL: computed(s, i, None)}
            if ratings is not None:
                r = ratings.for_day(date_of(i))
                coloured[r.digest] = computed(s, i, None, r)
            e = published.encode(plain, coloured)
            again = published.decode_plain(mode, i, e)
            assert again == plain and again.stats == plain.stats, (mode, i)
            for key, board in coloured.items():
                rebuilt = published.decode_coloured(again, e[3][key])
                assert rebuilt == board and rebuilt.stats == board.stats, (mode, i, key)
            out[mode].append(e)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--check", action="store_true", help="compare the file with what the code and data give now")
    what.add_argument("--write", action="store_true", help="write the file (changes published boards)")
    parser.add_argument("--file", type=Path, default=published.PATH, help="the file (default: the package's)")
    args = parser.parse_args(argv)
    days = entries()
    if args.write:
        text = published.write(days, args.file)
        size = args.file.stat().st_size
        print(f"wrote {args.file}: {size} bytes ({len(text)} of JSON), sha256 {published.digest(text)}")
        return 0
    stored = published.read_text(args.file)
    print(f"{args.file}: sha256 {published.digest(stored)}")
    kept = json.loads(stored)["modes"]
    days = json.loads(json.dumps(days))  # as the file reads back (lists, not tuples)
    changed = [(mode, i) for mode in MODES for i in range(published.END) if kept[mode][i] != days[mode][i]]
    for mode, i in changed:
        print(f"  {mode} {date_of(i).isoformat()} (day {i}): the code and data in use give another board")
    print(f"{len(changed)} of {len(MODES) * published.END} stored dailies differ from what the code and data give now")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
