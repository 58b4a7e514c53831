"""``flagcore connections``: make a board from a seed, a day or a board id, and show it.

Readable by default (the 4x4 grid of codes and country names, with the board id to share);
``--reveal`` adds the groups, coloured by tier on a colour terminal; ``--json`` prints the
client's view (``Board.to_dict()``, no answers; with ``--reveal`` the answers too) and nothing
else on stdout; ``--trace`` prints the generator's events and its search counters.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import sys
from typing import Any, TextIO

from .._args.cli import check_daily_not_difficulty, check_daily_not_legacy
from .._args.common import parse_seed_text
from .._args.connections import as_difficulty, as_mode, check_board_id_difficulty, check_board_id_options
from ..connections import TIER_NAMES, Board, board_id, daily_seed, parse_board_id
from ..library import MODES, Library, house_rules_text

_CELL = 22  # characters per grid cell: "CC " and a name cut to fit, so 4 cells fit 100 columns
# Background colours per tier (yellow, green, blue, magenta) with a readable foreground.
_ANSI = ("\x1b[30;43m", "\x1b[30;42m", "\x1b[97;44m", "\x1b[97;45m")
_RESET = "\x1b[0m"


def register(groups: dict[str, Any]) -> None:
    p = groups[""].add_parser(
        "connections",
        help="generate and show a Connections board",
        description="Generate a Connections board from a seed, a day or a board id and show it.",
        epilog="House rules (how a label is read against a flag):\n" + house_rules_text(),
        formatter_class=argparse.RawDescriptionHelpFormatter,  # keeps the rules' paragraphs
    )
    source = p.add_mutually_exclusive_group()
    source.add_argument(
        "--seed", metavar="S", help="all digits: an int seed in [0, 2^32); anything else: a str seed (default: random)"
    )
    source.add_argument(
        "--daily",
        nargs="?",
        const="",
        metavar="DATE",
        help="the day's scheduled board (categories and flags in rotation; default: today in UTC); "
        "the plain seed of a day is --seed daily:YYYY-MM-DD",
    )
    source.add_argument(
        "--id",
        dest="board_id",
        metavar="BOARD_ID",
        help="rebuild the board a board id names (it holds seed, mode and --legacy)",
    )
    p.add_argument("--mode", choices=MODES, default=None, help="category set (default: flags)")
    p.add_argument("--legacy", action="store_true", help="the spec's original generator, flaws included")
    p.add_argument(
        "--library",
        metavar="PATH",
        default=None,
        help="a library directory or JSON file (default: the bundled flags/ data)",
    )
    p.add_argument(
        "--difficulty",
        metavar="LEVEL",
        default=None,
        help="easy, normal (default: two hard-to-see groups and two red herrings), hard (harder to see, three red "
        "herrings), or a number 0..8 of tempting red-herring sets the board aims for (a board id holds its own)",
    )
    p.add_argument("--trace", action="store_true", help="print the search's events")
    p.add_argument(
        "--json",
        action="store_true",
        help='print {"mode","tiles"} as JSON; with --reveal also "seed","board_id","groups"',
    )
    p.add_argument("--reveal", action="store_true", help="show the groups (tier colours on a terminal)")
    p.add_argument(
        "--png",
        metavar="FILE",
        help="also draw the board as a 4x4 grid of flag images (groups outlined with --reveal); "
        "the format follows the extension: .png, .jpg, .webp, ...",
    )
    p.set_defaults(func=run)


def parse_seed(text: str) -> int | str:
    """A seed typed on the command line, read as the server reads it (flagcore._args.common)."""
    return parse_seed_text(text, "--seed")


def _difficulty(args: argparse.Namespace) -> Any:
    """The board's difficulty: the id's own, else --difficulty (its rule names the option)."""
    if args.board_id is not None:
        from ..connections.ids import id_difficulty

        return id_difficulty(args.board_id)
    return as_difficulty("normal" if args.difficulty is None else args.difficulty, "--difficulty")


def _resolve(args: argparse.Namespace) -> tuple[int | str, str, bool]:
    if args.board_id is not None:
        state, mode, legacy = parse_board_id(args.board_id)
        check_board_id_options(args.board_id, mode, legacy, args.mode, args.legacy)
        if args.difficulty is not None:
            asked = as_difficulty(args.difficulty, "--difficulty")
            check_board_id_difficulty(args.board_id, _difficulty(args), asked)
        return state, mode, legacy
    mode = args.mode or "flags"
    if args.daily is not None:
        return daily_seed(args.daily or None), mode, args.legacy
    if args.seed is not None:
        return parse_seed(args.seed), mode, args.legacy
    # No seed asked for: a fresh one, printed with the board so it can be replayed.
    return secrets.randbelow(2**32), mode, args.legacy


def use_colour(stream: TextIO) -> bool:
    """ANSI colour only on a terminal, and never when NO_COLOR is set or TERM is dumb."""
    if "NO_COLOR" in os.environ or os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def _cell(code: str, library: Library) -> str:
    text = f"{code} {library.name(code)}"
    return text if len(text) <= _CELL else text[: _CELL - 1] + "\u2026"


def format_board(board: Board, library: Library, *, reveal: bool, colour: bool) -> str:
    seed = json.dumps(board.seed, ensure_ascii=False)
    if board.stats.get("scheduled"):  # its board id would name a plain seed, not this board
        where = f"scheduled daily {str(board.seed).removeprefix('season:')}"
    else:
        where = f"seed {seed}  board id {board_id(board)}"
    lines = [f"Connections  {board.mode} mode  {where}" + ("  (legacy generator)" if board.legacy else ""), ""]
    tier_of = {c: g.tier for g in board.groups for c in g.codes}
    for row in range(4):
        cells = []
        for code in board.tiles[4 * row : 4 * row + 4]:
            text = _cell(code, library).ljust(_CELL)
            if reveal and colour:
                text = f"{_ANSI[tier_of[code]]} {text} {_RESET}"
            else:
                text = f" {text} "
            cells.append(text)
        lines.append(" ".join(cells).rstrip())
    if not reveal:  # sixteen tiles and nothing else leave a first-time user stuck
        lines += ["", "The four groups are hidden: add --reveal to show them."]
    else:
        lines.append("")
        for g in board.groups:
            name = TIER_NAMES[g.tier].ljust(6)
            if colour:
                name = f"{_ANSI[g.tier]} {name} {_RESET}"
            members = ", ".join(f"{c} {library.name(c)}" for c in g.codes)
            lines.append(f"{name}  {g.label}: {members}")
    return "\n".join(lines)


def format_event(index: int, event: Any) -> str:
    """One trace event per line: what happened ("event") first, then the other fields as key=value."""
    if isinstance(event, dict):
        name = str(event.get("event", "event"))
        rest = " ".join(f"{k}={_field(v)}" for k, v in event.items() if k != "event")
        return f"{index:5d}  {name:<9} {rest}".rstrip()
    return f"{index:5d}  {event}"


def _field(value: Any) -> str:
    if isinstance(value, str) and (" " in value or not value):
        return json.dumps(value, ensure_ascii=False)  # labels have spaces: quote them
    if isinstance(value, (list, tuple)):
        return ",".join(map(str, value))
    if isinstance(value, dict):
        return "(" + " ".join(f"{k}={_field(v)}" for k, v in value.items()) + ")"
    return "none" if value is None else str(value)


def run(args: argparse.Namespace) -> int:
    # Loaded here, not at import: every `flagcore` command imports this module to register it.
    from ..connections import generate
    from ..library import load_library

    check_daily_not_legacy(args.daily, args.legacy)
    check_daily_not_difficulty(args.daily, args.difficulty)
    if args.daily is not None:
        from .._args.season import as_day

        args.daily = as_day(args.daily or None, "--daily").isoformat()  # its error names the option
    seed, mode, legacy = _resolve(args)
    if args.png is not None:
        from ..review.pictures import picture_format

        picture_format(args.png)  # a bad file name fails now, not after the board is made
    library = load_library(args.library)
    if args.daily is not None:
        from ..connections import daily

        board = daily(args.daily, as_mode(mode), library=library)
    else:
        board = generate(
            seed, as_mode(mode), library=library, legacy=legacy, trace=args.trace, difficulty=_difficulty(args)
        )
    events = [format_event(i, e) for i, e in enumerate(board.events or [])]
    if args.png is not None:
        from ..review.pictures import connections_png

        connections_png(board, args.png, reveal=args.reveal, names={code: library.name(code) for code in board.tiles})
        print(f"flagcore: wrote {args.png}", file=sys.stderr)
    if args.json:
        if events:  # stdout stays one JSON object; the trace goes beside it
            print("\n".join(events), file=sys.stderr)
        view = board.to_dict(reveal=args.reveal)
        if args.reveal and board.stats.get("scheduled"):  # a board id would name a plain seed
            view.pop("board_id")
            view["daily"] = str(board.seed).removeprefix("season:")
        return _write(json.dumps(view))
    out = format_board(board, library, reveal=args.reveal, colour=use_colour(sys.stdout))
    if args.trace:
        if board.stats:  # the search's own counters: for whoever studies the generator
            out += "\n\nstats: " + ", ".join(f"{k} {_field(v)}" for k, v in board.stats.items())
        out += f"\n\ntrace: {len(events)} events" + "".join("\n" + e for e in events)
    return _write(out)


def _write(text: str) -> int:
    # A reader that goes away early (``| head``) is handled once, in flagcore.cli.main.
    print(text)
    sys.stdout.flush()
    return 0
