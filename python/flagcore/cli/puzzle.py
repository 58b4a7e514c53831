"""``flagcore puzzle``: deal a Puzzle board (a flag cut into a grid and scrambled) and show it.

Readable by default (the grid of piece numbers, look-alike groups, par); ``--json`` prints the
game as one JSON object {"flag","grid","seed","tiles_by_slot","signatures","par"} and nothing else.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .. import puzzle
from .._args.cli import check_daily_alone, check_png_has_flag, max_nodes_option_error
from .._args.puzzle import as_max_nodes_text
from ..library import flag_name
from .connections import parse_seed as connections_seed


def register(groups: dict[str, Any]) -> None:
    p = groups[""].add_parser(
        "puzzle",
        help="deal a Puzzle board and show it",
        description="Deal a Puzzle board: a flag cut into a grid and scrambled; par is the exact minimum.",
    )
    p.add_argument(
        "--flag",
        metavar="CODE",
        help="flag code: ISO 3166-1 alpha-2 (FR) or a bundled regional flag (GB-ENG); tiles that look alike are interchangeable "  # noqa: E501
        "(default: no flag, every tile distinct)",
    )
    p.add_argument(
        "--grid",
        default=None,
        metavar="GRID",
        help="easy|medium|hard (aliases regular|pro|elite) or CxR (default: hard)",
    )
    p.add_argument(
        "--seed", metavar="S", help="all digits: an int seed in [0, 2^32); anything else: a str seed (default: random)"
    )
    p.add_argument(
        "--daily",
        nargs="?",
        const="",
        metavar="DATE",
        help="the day's Puzzle: flags in rotation, grid by weekday (easy Mon-Tue, medium Wed-Thu, hard Fri-Sun); "
        "default: today in UTC; not with --flag, --grid or --seed",
    )
    p.add_argument(
        "--max-nodes",
        default=str(puzzle.DEFAULT_MAX_NODES),
        metavar="N",
        help="node budget of the exact par search, or 'none' for no limit "
        f"(default {puzzle.DEFAULT_MAX_NODES}; only huge custom grids need more)",
    )
    p.add_argument(
        "--json", action="store_true", help='print {"flag","grid","seed","tiles_by_slot","signatures","par"} as JSON'
    )
    p.add_argument(
        "--png",
        metavar="FILE",
        help="also draw the scrambled start beside the solved flag, par under it (needs --flag); "
        "the format follows the extension: .png, .jpg, .webp, ...",
    )
    p.set_defaults(func=run)


def parse_seed(text: str | None) -> int | str | None:
    """As ``flagcore connections --seed`` reads it; None (no --seed) draws a random seed."""
    return None if text is None else connections_seed(text)


def run(args: argparse.Namespace) -> int:
    if args.daily is not None:
        given = [name for name, value in (("--flag", args.flag), ("--grid", args.grid), ("--seed", args.seed)) if value]
        check_daily_alone(given)
    if args.png is not None:
        from ..review.pictures import picture_format

        check_png_has_flag(args.flag, args.daily)
        picture_format(args.png)  # a bad file name fails now, not after the board is dealt
    seed, max_nodes = parse_seed(args.seed), as_max_nodes_text(args.max_nodes)
    try:
        if args.daily is not None:
            from .._args.season import as_day

            game = puzzle.daily(as_day(args.daily or None, "--daily"), max_nodes=max_nodes)
        else:
            game = puzzle.new_game(args.flag, args.grid or "hard", seed=seed, max_nodes=max_nodes)
    except puzzle.ParSearchLimit as exc:
        raise max_nodes_option_error(exc.n, exc.k, exc.max_nodes) from None
    columns, rows = game.grid
    if args.png is not None:
        from ..review.pictures import puzzle_png

        assert game.flag is not None
        puzzle_png(game.flag, game.tiles_by_slot, columns, rows, game.par, args.png)
        print(f"flagcore: wrote {args.png}", file=sys.stderr)
    if args.json:
        print(
            json.dumps(
                {
                    "flag": game.flag,
                    "grid": f"{columns}x{rows}",
                    "seed": game.seed,
                    "tiles_by_slot": game.tiles_by_slot,
                    "signatures": game.signatures,
                    "par": game.par,
                }
            )
        )
        return 0
    print(render(game))
    return 0


def render(game: puzzle.PuzzleGame) -> str:
    """The board as text: each slot shows the piece it holds (a letter marks its look-alike group)."""
    columns, rows = game.grid
    tiles = game.tiles_by_slot
    width = len(str(len(tiles) - 1))
    letters: dict[int, str] = {}
    if game.signatures is not None:
        counts: dict[int, int] = {}
        for s in game.signatures:
            counts[s] = counts.get(s, 0) + 1
        for s in game.signatures:
            if counts[s] > 1 and s not in letters and len(letters) < 26:
                letters[s] = chr(ord("A") + len(letters))

    def cell(piece: int) -> str:
        tag = letters.get(game.signatures[piece], " ") if game.signatures is not None else ""
        return f"{piece:>{width}}{tag}"

    flag = f"{flag_name(game.flag)} ({game.flag})" if game.flag else "(no flag)"
    title = f"Puzzle {flag} {columns}x{rows}, seed {game.seed!r}"
    lines = [title, ""]
    for r in range(rows):
        lines.append("  " + " ".join(cell(tiles[r * columns + c]) for c in range(columns)))
    lines.append("")
    if game.signatures is None:
        lines.append("Every tile is distinct: solved when piece i sits in slot i.")
    elif game.identity_mode:
        lines.append("Every tile looks alike: solved only when piece i sits in slot i.")
    elif letters:
        lines.append("Letters mark look-alike pieces (interchangeable); piece i belongs in slot i.")
    lines.append(f"Par (fewest swaps): {game.par}")
    return "\n".join(lines)
