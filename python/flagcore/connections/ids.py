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
    BASE32_DECODE,
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
from ..errors import ArgumentError
from ..types import Difficulty, Mode

RATINGS_DIGEST_CHARS = 6  # flagcore.ratings.document.DIGEST_CHARS

__all__ = ["ID_LENGTH", "daily_seed", "encode_board_id", "id_difficulty", "parse_board_id"]


def encode_board_id(
    seed: int | str,
    mode: Mode = "flags",
    legacy: bool = False,
    difficulty: Difficulty | None = "normal",
    ratings: str | None = None,
) -> str:
    """The board id of ``generate(seed, mode, legacy=legacy, difficulty=difficulty)`` without generating it
    (``ratings``: the digest of the ratings it is dealt with, appended after "-")."""
    state = core.rng.seed_to_state(seed)
    mode = as_mode(mode)
    legacy = as_flag(legacy, "legacy")
    difficulty = as_difficulty(difficulty)
    flags = (ID_FLAG_TRIVIA if mode == "trivia" else 0) | (ID_FLAG_LEGACY if legacy else 0)
    flags |= difficulty_code(difficulty) << ID_DIFFICULTY_SHIFT
    body = state.to_bytes(4, "big") + bytes([ID_VERSION, flags])
    text = base32_encode(int.from_bytes(body + id_checksum(body).to_bytes(2, "big"), "big"), ID_LENGTH)
    return text if ratings is None else f"{text}{RATINGS_MARK}{split_ratings(f'{text}{RATINGS_MARK}{ratings}')[1]}"


RATINGS_MARK = "-"  # an id dealt with ratings: "<13 characters>-<the ratings' 6-character digest>"


def split_ratings(board_id: Any) -> tuple[Any, str | None]:
    """(the id without its ratings digest, the digest or None); ValueError for a malformed digest."""
    if not isinstance(board_id, str) or RATINGS_MARK not in board_id:
        return board_id, None
    base, _, digest = board_id.strip().partition(RATINGS_MARK)
    if len(base) != ID_LENGTH:
        return board_id, None  # not an id with a digest: the id's own rules name what is wrong
    digest = digest.lower()
    if len(digest) != RATINGS_DIGEST_CHARS or any(ch not in BASE32_DECODE for ch in digest):
        raise ArgumentError(
            f"board id {board_id!r}: the ratings digest must be {RATINGS_DIGEST_CHARS} base32 characters"
        )
    return base, digest


def id_ratings(board_id: str) -> str | None:
    """The digest of the ratings an id was dealt with, or None (dealt without)."""
    return split_ratings(board_id)[1]


def parse_board_id(board_id: str) -> tuple[int, Mode, bool]:
    """Decode a board id into (seed state, mode, legacy).

    Args:
        board_id: 13 Crockford base32 characters (any case; o, i and l read as 0, 1 and 1),
            optionally followed by "-" and a ratings digest.

    Returns:
        (the seed's uint32 state, "flags" or "trivia", legacy).

    Raises:
        ArgumentError: the wrong length, a character outside the alphabet, a checksum mismatch
            (a mistyped id), an unknown version or flag bits; the message says which.
        ArgumentTypeError: board_id is not a str.
    """
    state, flags = as_board_id(split_ratings(board_id)[0])
    return state, ("trivia" if flags & ID_FLAG_TRIVIA else "flags"), bool(flags & ID_FLAG_LEGACY)


def id_difficulty(board_id: str) -> Difficulty | None:
    """The difficulty a board id names ("normal" for an id made before difficulties)."""
    _, flags = as_board_id(split_ratings(board_id)[0])
    return difficulty_of_code((flags >> ID_DIFFICULTY_SHIFT) & 0xF, board_id)


def daily_seed(date: _dt.date | str | None = None) -> str:
    """The seed of a day's board, "daily:YYYY-MM-DD"; ``None`` means today in UTC.

    UTC so that every server agrees on which board is today's, whatever its local zone.
    """
    return f"daily:{as_date(date).isoformat()}"
