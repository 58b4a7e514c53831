"""Keyed Connections boards: what a client may know (a game number) never yields the answers.

A seed fixes a board for anyone with flagcore, so the server never hands one out. Instead:

- a request names a board by a public **game number** ``p`` (a uint32: an int seed as given, or
  the FNV-1a 32 hash of a str seed such as ``"daily:2026-11-30"``) and a mode;
- the board actually dealt is ``generate(state, mode)`` where ``state`` is the first 4 bytes of
  HMAC-SHA256(secret, "connections" | mode | p): without the secret, ``p`` says nothing about
  the groups;
- the id a client sees and shares is the base32 of 8 bytes, ``p (4) | mode (1) | tag (3)``
  (most significant bit first, one zero pad bit), written in Crockford's alphabet (13
  characters, case-insensitive, o/i/l read as 0/1/1), the tag
  being HMAC(secret, the first 5 bytes): an id from a typo, another secret or a CLI board id is
  refused rather than opening some other board.

Every server that shares the secret deals the same board for the same id, so ids and daily
boards work across workers and machines. These ids are not ``flagcore connections --id`` ids,
which carry the engine seed and therefore the answers.
"""
from __future__ import annotations

import hmac
import re
from functools import lru_cache
from typing import Any

from .._impl import pick
from ..connections import Board, generate
from ..connections.ids import _ALPHABET, _DECODE, daily_seed  # Crockford base32, o/i/l as 0/1/1
from ..library import MODES
from .tokens import Signer

_rng = pick("_rng", "rng")

ID_LENGTH = 13
# An id's characters as the digits int(..., 32) reads (0-9a-v), so the C parser decodes it
_TO_DIGITS = str.maketrans({ch: "0123456789abcdefghijklmnopqrstuv"[digit] for ch, digit in _DECODE.items()})
_ID_TEXT = re.compile(f"[{''.join(sorted(_DECODE))}]{{{ID_LENGTH}}}")
_DIGITS = re.compile(r"[0-9]+")
MAX_SEED_CHARS = 64
BOARD_CACHE = 4096  # boards kept per process (about 2 kB each)


class BoardRequestError(ValueError):
    """A seed, date, mode or board id the server cannot turn into a board (HTTP 400)."""


def parse_seed(text: str) -> int | str:
    """A seed as typed: all digits is an int in [0, 2^32), anything else a str (1..64 chars)."""
    if not text or len(text) > MAX_SEED_CHARS:
        raise BoardRequestError(f"seed must be 1..{MAX_SEED_CHARS} characters")
    if _DIGITS.fullmatch(text):
        value = int(text)
        if value >= 1 << 32:
            raise BoardRequestError(f"seed {text}: an int seed must be in [0, 2^32)")
        return value
    return text


def game_number(seed: int | str) -> int:
    """The public uint32 a seed names (str seeds: FNV-1a 32 of the UTF-8, as the engine does)."""
    return int(_rng.seed_to_state(seed))


def daily_number(date: str) -> int:
    """The public game number of the daily board of ``date`` (YYYY-MM-DD, as the CLI reads it)."""
    try:
        return game_number(daily_seed(date))
    except (TypeError, ValueError) as exc:
        raise BoardRequestError(str(exc)) from None


def check_mode(mode: Any) -> str:
    """``mode`` when it names a Connections mode ("flags" or "trivia"); BoardRequestError otherwise."""
    if mode not in MODES:
        raise BoardRequestError(f"mode must be one of {list(MODES)}, got {mode!r}")
    return str(mode)


class KeyedBoards:
    """Board ids and boards under one server secret."""

    def __init__(self, signer: Signer, cache_size: int = BOARD_CACHE) -> None:
        self._signer = signer
        # A board is dealt once and then graded at every guess of every player on it (a daily
        # board: everyone); Boards are frozen, so one object can serve every request.
        self._board = lru_cache(maxsize=cache_size)(self._generate)

    def _tag(self, body: bytes) -> bytes:
        return self._signer.derive(b"connections board id|" + body, 3)

    def board_id(self, number: int, mode: str) -> str:
        """The id a client sees for game number ``number`` in ``mode`` (13 Crockford base32 characters)."""
        body = number.to_bytes(4, "big") + bytes([MODES.index(mode)])
        value = int.from_bytes(body + self._tag(body), "big") << 1  # 64 bits and a zero pad bit: 13 x 5
        return "".join([_ALPHABET[(value >> shift) & 31] for shift in range(60, -5, -5)])

    def parse_id(self, board_id: Any) -> tuple[int, str]:
        """(game number, mode) of an id this server (or one sharing its secret) issued."""
        if not isinstance(board_id, str):
            raise BoardRequestError(f"board id must be a string, not {type(board_id).__name__}")
        text = board_id.strip().lower()
        if len(text) != ID_LENGTH:
            raise BoardRequestError(f"board id {board_id[:40]!r}: must be {ID_LENGTH} characters")
        if not _ID_TEXT.fullmatch(text):
            bad = next(ch for ch in text if ch not in _DECODE)
            raise BoardRequestError(f"board id {board_id!r}: invalid character {bad!r}")
        value = int(text.translate(_TO_DIGITS), 32)
        raw = (value >> 1).to_bytes(8, "big")
        body, tag = raw[:5], raw[5:]
        # value & 1 is the pad bit of the last character: set, it would be a second spelling of an id
        if value & 1 or body[4] >= len(MODES) or not hmac.compare_digest(self._tag(body), tag):
            raise BoardRequestError(f"board id {board_id!r}: not a board id of this server (mistyped?)")
        return int.from_bytes(body[:4], "big"), MODES[body[4]]

    def engine_state(self, number: int, mode: str) -> int:
        """The secret engine seed behind a public game number."""
        label = b"connections|" + mode.encode("ascii") + b"|" + number.to_bytes(4, "big")
        return int.from_bytes(self._signer.derive(label, 4), "big")

    def board(self, number: int, mode: str) -> Board:
        """The board dealt for game number ``number`` in ``mode`` (generated once, then cached)."""
        return self._board(number, mode)

    def _generate(self, number: int, mode: str) -> Board:
        return generate(self.engine_state(number, mode), mode)
