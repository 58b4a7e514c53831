"""The rules of play records and ratings files (flagcore.ratings), stated once.

A play record and a ratings file come from outside (a store, a JSON lines file, a file a server
is started with): every field is checked here, and every failure is a ValueError/TypeError whose
message names the field, in one line.
"""

from __future__ import annotations

import datetime as _dt
import math
import re
from typing import Any

from .connections import DIFFICULTY_LEVELS, MAX_TEMPTING, MODES

MAX_RECORD_CHARS = 4096  # one JSON line of a play record; a real one is about 300
MAX_RATINGS_BYTES = 32 * 1024 * 1024  # a ratings file; the bundled one is a few KB
MAX_CATEGORIES = 10_000  # per mode in a ratings file
MAX_BOARDS = 1_000_000  # per mode in a ratings file
MAX_MISTAKES = 4
COLOURS = ("yellow", "green", "blue", "purple")
RECORD_KEYS = {"board", "mode", "day", "difficulty", "won", "mistakes", "groups", "wrong", "game"}
PUZZLE_KEYS = {"game", "flag", "grid", "swaps_over_par", "solved", "day"}
_BOARD = re.compile(r"[0-9A-Za-z][0-9A-Za-z._:-]{0,63}")
_CATEGORY = re.compile(r"[^\x00-\x1f\x7f]{1,200}")
_CODE = re.compile(r"[A-Za-z]{2}(?:-[A-Za-z]{2,3})?")
_GRID = re.compile(r"(\d{1,2})x(\d{1,2})")
_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def _int(v: Any) -> bool:
    return type(v) is int


def as_day(v: Any, name: str = "day") -> str | None:
    """None or a real date as 'YYYY-MM-DD'."""
    if v is None:
        return None
    if not isinstance(v, str) or not _DAY.fullmatch(v):
        raise ValueError(f"{name} must be null or 'YYYY-MM-DD'")
    try:
        _dt.date.fromisoformat(v)
    except ValueError:
        raise ValueError(f"{name} {v!r} is not a date") from None
    return v


def as_record_difficulty(v: Any) -> Any:
    if v is None or (isinstance(v, str) and v in DIFFICULTY_LEVELS):
        return v
    if _int(v) and 0 <= v <= MAX_TEMPTING:
        return v
    raise ValueError(f"difficulty must be null, one of {tuple(DIFFICULTY_LEVELS)} or an int 0..{MAX_TEMPTING}")


def as_category_id(v: Any, name: str = "category") -> str:
    if not isinstance(v, str) or not _CATEGORY.fullmatch(v):
        raise ValueError(f"{name} must be a category id (1..200 printable characters)")
    return v


def check_connections_record(obj: Any) -> tuple[Any, ...]:
    """A Connections play record (a parsed JSON object) as a tuple of checked fields:
    (board, mode, day, difficulty, won, mistakes, categories (4), solved_at (4: 1..4 or 0), wrong)."""
    if not isinstance(obj, dict):
        raise ValueError("a play record must be a JSON object")
    extra = set(obj) - RECORD_KEYS
    if extra:
        raise ValueError(f"unknown key {sorted(extra)[0]!r}")
    if obj.get("game", "connections") != "connections":
        raise ValueError("game must be 'connections' (or absent) in a Connections record")
    for key in ("board", "mode", "won", "mistakes", "groups"):
        if key not in obj:
            raise ValueError(f"missing key {key!r}")
    board = obj["board"]
    if not isinstance(board, str) or not _BOARD.fullmatch(board):
        raise ValueError("board must be a board id (1..64 letters, digits, '.', '_', ':' or '-')")
    mode = obj["mode"]
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}")
    day = as_day(obj.get("day"))
    difficulty = as_record_difficulty(obj.get("difficulty"))
    won = obj["won"]
    if type(won) is not bool:
        raise ValueError("won must be true or false")
    mistakes = obj["mistakes"]
    if not _int(mistakes) or not 0 <= mistakes <= MAX_MISTAKES:
        raise ValueError(f"mistakes must be an int 0..{MAX_MISTAKES}")
    if won == (mistakes >= MAX_MISTAKES):
        raise ValueError(f"a won game has fewer than {MAX_MISTAKES} mistakes, a lost one {MAX_MISTAKES}")
    groups = obj["groups"]
    if not isinstance(groups, list) or len(groups) != 4:
        raise ValueError("groups must be a list of 4 objects")
    cats: list[str] = []
    at: list[int] = []
    for i, g in enumerate(groups):
        if not isinstance(g, dict) or set(g) != {"category", "solved_at"}:
            raise ValueError(f"groups[{i}] must be an object with exactly category and solved_at")
        cats.append(as_category_id(g["category"], f"groups[{i}].category"))
        s = g["solved_at"]
        if s is not None and not (_int(s) and 1 <= s <= 4):
            raise ValueError(f"groups[{i}].solved_at must be 1..4 or null")
        at.append(s or 0)
    if len(set(cats)) != 4:
        raise ValueError("groups must name 4 different categories")
    solved = sorted(s for s in at if s)
    if solved != list(range(1, len(solved) + 1)):
        raise ValueError("solved_at must number the solved groups 1, 2, ... without gaps or repeats")
    if won != (len(solved) == 4):
        raise ValueError("a won game solves all 4 groups, a lost one fewer")
    wrong = obj.get("wrong", [])
    if not isinstance(wrong, list) or len(wrong) != mistakes:
        raise ValueError("wrong must be a list of the wrong fours, one per mistake")
    fours = []
    for i, four in enumerate(wrong):
        if (
            not isinstance(four, list)
            or len(four) != 4
            or not all(isinstance(c, str) and _CODE.fullmatch(c) for c in four)
        ):
            raise ValueError(f"wrong[{i}] must be a list of 4 country codes")
        fours.append(tuple(c.upper() for c in four))
    return board, mode, day, difficulty, won, mistakes, tuple(cats), tuple(at), tuple(fours)


def check_puzzle_record(obj: Any) -> tuple[Any, ...]:
    """A Puzzle play record: (flag, grid, swaps_over_par, solved, day)."""
    if not isinstance(obj, dict) or obj.get("game") != "puzzle":
        raise ValueError("a Puzzle record is a JSON object with game 'puzzle'")
    extra = set(obj) - PUZZLE_KEYS
    if extra:
        raise ValueError(f"unknown key {sorted(extra)[0]!r}")
    flag = obj.get("flag")
    if not isinstance(flag, str) or not _CODE.fullmatch(flag):
        raise ValueError("flag must be a country code")
    grid = obj.get("grid")
    m = _GRID.fullmatch(grid) if isinstance(grid, str) else None
    if m is None or not all(2 <= int(x) <= 16 for x in m.groups()):
        raise ValueError("grid must be 'CxR', columns and rows 2..16")
    over = obj.get("swaps_over_par")
    if over is not None and not (_int(over) and 0 <= over <= 10_000):
        raise ValueError("swaps_over_par must be an int 0..10000 or null (unsolved)")
    solved = obj.get("solved")
    if type(solved) is not bool:
        raise ValueError("solved must be true or false")
    return flag.upper(), grid, over, solved, as_day(obj.get("day"))


def as_finite(v: Any, name: str, low: float = -math.inf) -> float:
    """A JSON number that is finite (NaN and the infinities are refused) and >= low."""
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v < low:
        raise ValueError(f"{name} must be a finite number{'' if low == -math.inf else f' >= {low:g}'}")
    return float(v)


def as_count(v: Any, name: str) -> int:
    if not _int(v) or v < 0:
        raise ValueError(f"{name} must be an int >= 0")
    return int(v)
