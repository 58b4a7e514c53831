"""Board ids people can share, and the daily seed.

A board is fixed by (seed, mode, legacy, difficulty) and the library: ``generate`` turns a str seed into its
uint32 state (FNV-1a 32 of the UTF-8) before drawing, so the state alone rebuilds the board. The
id's format (8 bytes as 13 Crockford base32 characters, with a CRC) and its codec are in
``flagcore._args.connections``, beside the rules that check an id. This module imports nothing
above it: ``board_id`` is beside the Board, ``from_board_id`` beside ``generate``.
"""

from __future__ import annotations

import datetime as _dt
from typing import Any

from .._args.connections import (
    ID_DIFFICULTY_SHIFT,
    ID_FLAG_LEGACY,
    ID_FLAG_TRIVIA,
    ID_LENGTH,
    ID_VERSION,
    as_board_id,
    as_date,
    as_difficulty,
    as_flag,
    as_mode,
    base32_encode,
    difficulty_code,
    difficulty_of_code,
    id_checksum,
)
from .._impl import core

__all__ = ["ID_LENGTH", "daily_seed", "encode_board_id", "id_difficulty", "parse_board_id"]


def encode_board_id(seed: int | str, mode: str = "flags", legacy: bool = False, difficulty: Any = "normal") -> str:
    """The board id of ``generate(seed, mode, legacy=legacy, difficulty=difficulty)`` without generating it."""
    state = core.rng.seed_to_state(seed)
    mode = as_mode(mode)
    legacy = as_flag(legacy, "legacy")
    difficulty = as_difficulty(difficulty)
    flags = (ID_FLAG_TRIVIA if mode == "trivia" else 0) | (ID_FLAG_LEGACY if legacy else 0)
    flags |= difficulty_code(difficulty) << ID_DIFFICULTY_SHIFT
    body = state.to_bytes(4, "big") + bytes([ID_VERSION, flags])
    return base32_encode(int.from_bytes(body + id_checksum(body).to_bytes(2, "big"), "big"), ID_LENGTH)


def parse_board_id(board_id: str) -> tuple[int, str, bool]:
    """Decode a board id into (seed state, mode, legacy); ValueError names what is wrong."""
    state, flags = as_board_id(board_id)
    return state, ("trivia" if flags & ID_FLAG_TRIVIA else "flags"), bool(flags & ID_FLAG_LEGACY)


def id_difficulty(board_id: str) -> Any:
    """The difficulty a board id names ("normal" for an id made before difficulties)."""
    _, flags = as_board_id(board_id)
    return difficulty_of_code((flags >> ID_DIFFICULTY_SHIFT) & 0xF, board_id)


def daily_seed(date: _dt.date | str | None = None) -> str:
    """The seed of a day's board, "daily:YYYY-MM-DD"; ``None`` means today in UTC.

    UTC so that every server agrees on which board is today's, whatever its local zone.
    """
    return f"daily:{as_date(date).isoformat()}"
