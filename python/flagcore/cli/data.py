"""``flagcore data check``: validate the bundled flag library (or a user's library file)."""
from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any


def register(groups: dict[str, Any]) -> None:
    p = groups["data"].add_parser("check", help="validate the library: schema, artwork, pools, tiers, colours")
    p.add_argument("--library", metavar="PATH", default=None,
                   help="a library directory or JSON file (default: the bundled flags/ data)")
    p.add_argument("--svg-dir", metavar="DIR", default=None, help="artwork directory (default: bundled flags/svg)")
    p.add_argument("--no-colours", action="store_true", help="skip rendering flags for the colour cross-check")
    p.set_defaults(func=run_check)


def run_check(args: argparse.Namespace) -> int:
    from ..library import load_library
    from ..library_check import check_library

    library = load_library(args.library)  # a broken file raises LibraryError (a ValueError): exit 2
    result = check_library(library, svg_dir=Path(args.svg_dir) if args.svg_dir else None,
                           colours=not args.no_colours)
    for line in result.lines:
        print(line)
    return 0 if result.ok else 1
