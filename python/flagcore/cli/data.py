"""``flagcore data check``: validate the bundled flag library (or a user's library file).
``flagcore data sheet``: draw contact sheets of every category for a person to review.
``flagcore data families``: every category by family (its template), with its label identity."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from .._args.review import as_tier_minimums
from ._progress import steps


def register(groups: dict[str, Any]) -> None:
    p = groups["data"].add_parser("check", help="validate the library: schema, artwork, pools, tiers, colours")
    p.add_argument(
        "--library",
        metavar="PATH",
        default=None,
        help="a library directory or JSON file (default: the bundled flags/ data)",
    )
    p.add_argument("--svg-dir", metavar="DIR", default=None, help="artwork directory (default: bundled flags/svg)")
    p.add_argument("--no-colours", action="store_true", help="skip rendering flags for the colour cross-check")
    p.add_argument(
        "--min-per-tier",
        metavar="Y,G,B,P",
        default=None,
        help="candidate categories each mode must offer per tier (yellow, green, blue, purple); "
        "default: the bundled library's figures for it, 1,1,1,1 (enough for a board) "
        "for a --library",
    )
    p.set_defaults(func=run_check)
    s = groups["data"].add_parser(
        "sheet",
        help="contact sheets: every category's pool and arguable codes as flags, one PNG per group",
        description="Draw every category with its pool (doubtful codes outlined in red) and its arguable "
        "codes (outlined in orange), with reasons, as flags at tile size, one PNG per category "
        "group, into OUT.",
    )
    s.add_argument("--out", metavar="DIR", required=True, help="folder for the PNGs (created if needed)")
    s.add_argument(
        "--library",
        metavar="PATH",
        default=None,
        help="a library directory or JSON file (default: the bundled flags/ data)",
    )
    s.add_argument("--svg-dir", metavar="DIR", default=None, help="artwork directory (default: bundled flags/svg)")
    s.add_argument("--mode", choices=("flags", "trivia", "both"), default="both", help="default: both")
    s.add_argument(
        "--group",
        action="append",
        default=None,
        metavar="GROUP",
        help="only this sheet group (repeatable): colours, stripes, symbols, geography, "
        "languages-money-names, politics-history, other",
    )
    s.add_argument("--tile-width", type=int, default=96, help="flag width in pixels (default 96)")
    s.add_argument("--columns", type=int, default=12, help="flags per row (default 12)")
    s.set_defaults(func=run_sheet)
    f = groups["data"].add_parser(
        "families",
        help="every category by family (its template) with its label identity",
        description="List the categories of each mode by family (the template a schedule rests between "
        "days: vertical stripes, official language, ...), each with its tier, id, label and, where other "
        "categories can show the same words, the label identity they share.",
    )
    f.add_argument(
        "--library",
        metavar="PATH",
        default=None,
        help="a library directory or JSON file (default: the bundled flags/ data)",
    )
    f.add_argument("--mode", choices=("flags", "trivia", "both"), default="both", help="default: both")
    f.add_argument("--json", action="store_true", help="one JSON object: mode -> family -> categories")
    f.set_defaults(func=run_families)


def run_check(args: argparse.Namespace) -> int:
    from ..library import MODES, load_library
    from ..review.library_check import MINIMUM_PER_TIER, check_library

    if args.min_per_tier is not None:
        minimums: dict[str, tuple[int, int, int, int]] | None = {m: as_tier_minimums(args.min_per_tier) for m in MODES}
    elif args.library is not None:
        minimums = {mode: (1, 1, 1, 1) for mode in MODES}  # a board needs one category per tier
    else:
        minimums = MINIMUM_PER_TIER
    library = load_library(args.library)  # a broken file raises LibraryError (a ValueError): exit 2
    with steps(0 if args.no_colours else len(library.codes), "data check colours") as step:
        result = check_library(
            library,
            svg_dir=Path(args.svg_dir) if args.svg_dir else None,
            colours=not args.no_colours,
            minimums=minimums,
            step=step,
        )
    for line in result.lines:
        print(line)
    return 0 if result.ok else 1


def run_sheet(args: argparse.Namespace) -> int:
    from ..library import MODES, load_library
    from ..review.contact_sheets import GROUPS, write_sheets

    library = load_library(args.library)
    modes = MODES if args.mode == "both" else (args.mode,)
    with steps(len(args.group or GROUPS), "data sheet") as step:
        paths = write_sheets(
            library,
            args.out,
            modes=modes,
            groups=args.group,
            tile_width=args.tile_width,
            columns=args.columns,
            svg_dir=Path(args.svg_dir) if args.svg_dir else None,
            step=step,
        )
    for path in paths:
        print(path)
    return 0


def run_families(args: argparse.Namespace) -> int:
    import json

    from ..library import MODES, load_library

    library = load_library(args.library)
    modes = MODES if args.mode == "both" else (args.mode,)
    doc = {
        mode: {
            family: [
                {"id": c.id, "label": c.label, "tier": c.tier, "identity": c.identity, "labels": list(c.labels)}
                for c in cats
            ]
            for family, cats in library.families(mode).items()
        }
        for mode in modes
    }
    if args.json:
        print(json.dumps(doc, indent=1, ensure_ascii=False))
        return 0
    for mode, families in doc.items():
        total = sum(len(v) for v in families.values())
        print(f"{mode}: {total} categories in {len(families)} families")
        for family, cats in families.items():
            print(f"  {family} ({len(cats)})")
            shared = {c["identity"] for c in cats if sum(d["identity"] == c["identity"] for d in cats) > 1}
            for c in cats:
                same = f"  [identity: {c['identity']}]" if c["identity"] in shared else ""
                print(f"    {c['tier']} {c['id']:<34} {c['label']}{same}")
    return 0
