"""The board id codec (seed, mode, legacy <-> 13 characters) and the daily seed.

A board is fixed by (seed, mode, legacy) and the library: ``generate`` turns a str seed into its
uint32 state (FNV-1a 32 of the UTF-8) before drawing, so the state alone rebuilds the board.
A board id packs that into 8 bytes::

    seed state (4, big endian) | version (1) | flags (1: bit 0 trivia, bit 1 legacy) | crc16 (2)

written as 13 characters of Crockford base32 (digits and lower-case letters without i, l, o, u):
URL-safe, case-insensitive, easy to read aloud. The CRC-16/CCITT over the six bytes before it
detects every burst error up to 16 bits, and one character spans 5 bits, so every single
mistyped character and every swap of two neighbouring characters is rejected rather than
silently opening another board. The seed comes first so that ids do not all start alike.
"""

from __future__ import annotations

import binascii
import datetime as _dt
import re

from .._impl import core
from ..library import MODES

VERSION = 1
ID_LENGTH = 13
_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"
# Crockford's reading aliases: the letters people confuse with digits decode as those digits.
_DECODE = {ch: i for i, ch in enumerate(_ALPHABET)} | {"o": 0, "i": 1, "l": 1}
_FLAG_TRIVIA = 0x01
_FLAG_LEGACY = 0x02
_DATE_RE = re.compile(r"\d{4}-\d{2}-\d{2}")


def encode_board_id(seed: int | str, mode: str = "flags", legacy: bool = False) -> str:
    """The board id of ``generate(seed, mode, legacy=legacy)`` without generating the board."""
    state = core.rng.seed_to_state(seed)
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
    if not isinstance(legacy, bool):
        raise TypeError(f"legacy must be a bool, not {type(legacy).__name__}")
    flags = (_FLAG_TRIVIA if mode == "trivia" else 0) | (_FLAG_LEGACY if legacy else 0)
    body = state.to_bytes(4, "big") + bytes([VERSION, flags])
    value = int.from_bytes(body + binascii.crc_hqx(body, 0xFFFF).to_bytes(2, "big"), "big")
    chars = []
    for _ in range(ID_LENGTH):
        value, digit = divmod(value, 32)
        chars.append(_ALPHABET[digit])
    return "".join(reversed(chars))


def parse_board_id(board_id: str) -> tuple[int, str, bool]:
    """Decode a board id into (seed state, mode, legacy); ValueError names what is wrong."""
    if not isinstance(board_id, str):
        raise TypeError(f"board id must be a str, not {type(board_id).__name__}")
    text = board_id.strip().lower()
    if len(text) != ID_LENGTH:
        raise ValueError(f"board id {board_id!r}: must be {ID_LENGTH} characters, got {len(text)}")
    value = 0
    for ch in text:
        digit = _DECODE.get(ch)
        if digit is None:
            raise ValueError(f"board id {board_id!r}: invalid character {ch!r}")
        value = value * 32 + digit
    if value >> 64:  # 13 characters hold 65 bits; an id uses 64, so the first is at most 'f'
        raise ValueError(f"board id {board_id!r}: not a board id (first character out of range)")
    raw = value.to_bytes(8, "big")
    body, crc = raw[:6], int.from_bytes(raw[6:], "big")
    if binascii.crc_hqx(body, 0xFFFF) != crc:
        raise ValueError(f"board id {board_id!r}: checksum mismatch (mistyped?)")
    version, flags = body[4], body[5]
    if version != VERSION:
        raise ValueError(f"board id {board_id!r}: unsupported version {version} (this flagcore reads {VERSION})")
    if flags & ~(_FLAG_TRIVIA | _FLAG_LEGACY):
        raise ValueError(f"board id {board_id!r}: unknown flag bits {flags:#04x}")
    mode = "trivia" if flags & _FLAG_TRIVIA else "flags"
    return int.from_bytes(body[:4], "big"), mode, bool(flags & _FLAG_LEGACY)


def daily_seed(date: _dt.date | str | None = None) -> str:
    """The seed of a day's board, "daily:YYYY-MM-DD"; ``None`` means today in UTC.

    UTC so that every server agrees on which board is today's, whatever its local zone.
    """
    if date is None:
        day = _dt.datetime.now(_dt.timezone.utc).date()
    elif isinstance(date, _dt.datetime):
        day = date.date()
    elif isinstance(date, _dt.date):
        day = date
    elif isinstance(date, str):
        if not _DATE_RE.fullmatch(date):
            raise ValueError(f"date must be YYYY-MM-DD, got {date!r}")
        try:
            day = _dt.date.fromisoformat(date)
        except ValueError:
            raise ValueError(f"date {date!r} is not a calendar date") from None
    else:
        raise TypeError(f"date must be a datetime.date, a 'YYYY-MM-DD' str or None, not {type(date).__name__}")
    return f"daily:{day.isoformat()}"
