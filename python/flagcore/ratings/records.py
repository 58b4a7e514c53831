"""Play records: what a finished game leaves behind, anonymous (docs/ratings.md, "Play records").

One Connections record, as a JSON object (one a line in a JSON lines file)::

    {"board": "<board id>", "mode": "flags" | "trivia", "day": "YYYY-MM-DD" | null,
     "difficulty": "easy" | "normal" | "hard" | 0..8 | null, "won": bool, "mistakes": 0..4,
     "groups": [{"category": "<category id>", "solved_at": 1..4 | null}, x4],   # in colour order
     "wrong": [["XX", "YY", "ZZ", "WW"], ...]}                                  # one per mistake

``groups`` lists the board's groups in the colours it showed them (yellow first), so the records
also tell how often each colour was found first .. last. A Puzzle record is
``{"game": "puzzle", "flag", "grid", "swaps_over_par", "solved", "day"}``. No player is named.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from .._args.ratings import MAX_RECORD_CHARS, check_connections_record, check_puzzle_record

__all__ = [
    "PlayRecord",
    "PuzzleRecord",
    "RecordsRead",
    "parse_record",
    "read_records",
    "record_of_game",
    "write_records",
]


@dataclass(frozen=True)
class PlayRecord:
    """One finished Connections game."""

    board: str
    mode: str
    day: str | None
    difficulty: Any
    won: bool
    mistakes: int
    categories: tuple[str, str, str, str]  # in colour order (yellow .. purple)
    solved_at: tuple[int, int, int, int]  # 1..4, or 0 unsolved
    wrong: tuple[tuple[str, ...], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The record as the JSON lines schema writes it (plain JSON types)."""
        return {
            "board": self.board,
            "mode": self.mode,
            "day": self.day,
            "difficulty": self.difficulty,
            "won": self.won,
            "mistakes": self.mistakes,
            "groups": [{"category": c, "solved_at": s or None} for c, s in zip(self.categories, self.solved_at)],
            "wrong": [list(w) for w in self.wrong],
        }


@dataclass(frozen=True)
class PuzzleRecord:
    """One finished (or abandoned) Puzzle game."""

    flag: str
    grid: str  # 'CxR'
    swaps_over_par: int | None
    solved: bool
    day: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The record as the JSON lines schema writes it (plain JSON types)."""
        return {
            "game": "puzzle",
            "flag": self.flag,
            "grid": self.grid,
            "swaps_over_par": self.swaps_over_par,
            "solved": self.solved,
            "day": self.day,
        }


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def parse_record(obj: Any) -> PlayRecord | PuzzleRecord:
    """A record from a parsed JSON object, or a str/bytes line; ValueError names what is wrong."""
    if isinstance(obj, (str, bytes, bytearray)):
        if len(obj) > MAX_RECORD_CHARS:
            raise ValueError(f"a record line is at most {MAX_RECORD_CHARS} characters")
        try:
            obj = json.loads(obj, parse_constant=_reject_constant)
        except RecursionError:
            raise ValueError("a record nests too deeply") from None
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise ValueError(f"not JSON: {exc}") from None
    if isinstance(obj, dict) and obj.get("game") == "puzzle":
        return PuzzleRecord(*check_puzzle_record(obj))
    board, mode, day, difficulty, won, mistakes, cats, at, wrong = check_connections_record(obj)
    return PlayRecord(board, mode, day, difficulty, won, mistakes, cats, at, wrong)


@dataclass
class RecordsRead:
    """The records of a file: the good ones, and how many lines were skipped (with the first reasons)."""

    records: list[PlayRecord] = field(default_factory=list)
    puzzle: list[PuzzleRecord] = field(default_factory=list)
    skipped: int = 0
    reasons: list[str] = field(default_factory=list)  # the first few, "line N: why"

    def skip(self, where: str, why: str) -> None:
        """Count one bad record (and keep its reason while there are few)."""
        self.skipped += 1
        if len(self.reasons) < 5:
            self.reasons.append(f"{where}: {why}")


def _lines(source: str | Path | IO[str] | Iterable[str]) -> Iterator[str]:
    """Lines of at most MAX_RECORD_CHARS + 1 characters (a longer line is cut, and then refused)."""
    if isinstance(source, (str, Path)):
        with open(source, encoding="utf-8", errors="replace", newline="") as f:
            yield from _lines(f)
        return
    if isinstance(source, io.TextIOBase) or hasattr(source, "readline"):
        text: Any = source
        while True:
            line = text.readline(MAX_RECORD_CHARS + 2)
            if not line:
                return
            if not line.endswith("\n") and len(line) > MAX_RECORD_CHARS:
                while True:  # the rest of an overlong line, read in bounded pieces and dropped
                    more = text.readline(1 << 16)
                    if not more or more.endswith("\n"):
                        break
                line = line[: MAX_RECORD_CHARS + 1]
            yield line
        return
    yield from source


def read_records(source: str | Path | IO[str] | Iterable[str]) -> RecordsRead:
    """The records of a JSON lines file (a path, an open text file or an iterable of lines).

    A bad line (not JSON, a field out of its range, too long, nested too deeply) is skipped and
    counted, never fatal; blank lines are ignored. Memory stays bounded by the good records.
    """
    out = RecordsRead()
    for n, line in enumerate(_lines(source), 1):
        text = line.strip()
        if not text:
            continue
        try:
            rec = parse_record(text)
        except (ValueError, TypeError) as exc:
            out.skip(f"line {n}", str(exc))
            continue
        (out.puzzle if isinstance(rec, PuzzleRecord) else out.records).append(rec)  # type: ignore[arg-type]
    return out


def write_records(records: Iterable[PlayRecord | PuzzleRecord], target: str | Path | IO[str]) -> int:
    """Write records as JSON lines (one object a line, keys in schema order); returns how many."""
    if isinstance(target, (str, Path)):
        with open(target, "w", encoding="utf-8") as f:
            return write_records(records, f)
    n = 0
    for rec in records:
        target.write(json.dumps(rec.to_dict(), separators=(",", ":")) + "\n")
        n += 1
    return n


def record_of_game(game: Any, board: str, day: str | None = None, difficulty: Any = None) -> PlayRecord:
    """The play record of a finished ConnectionsGame (``board``: its board id): its groups in
    the colours the board showed, each with the position it was solved at, and its wrong fours."""
    if not game.over:
        raise ValueError("a play record is made of a finished game")
    groups = sorted(game.board.groups, key=lambda g: g.tier)
    order = {g.category_id: i + 1 for i, g in enumerate(game.solved_groups)}
    sets = {frozenset(g.codes) for g in groups}
    wrong = tuple(tuple(sorted(four)) for four in game.guesses if frozenset(four) not in sets)
    return PlayRecord(
        board,
        game.board.mode,
        day,
        difficulty,
        bool(game.won),
        int(game.mistakes),
        tuple(g.category_id for g in groups),
        tuple(order.get(g.category_id, 0) for g in groups),  # type: ignore[arg-type]
        wrong,
    )
