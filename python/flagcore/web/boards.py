"""Keyed Connections boards: what a client may know (a game number) never yields the answers.

A seed fixes a board for anyone with flagcore, so the server never hands one out. Instead:

- a request names a board by a public **game number** ``p`` (a uint32: an int seed as given, or
  the FNV-1a 32 hash of a str seed such as ``"daily:2026-11-30"``) and a mode;
- one HMAC-SHA256 under the secret, of ``p (4 bytes) | mode (1 byte)``, gives both the id's tag
  (its bytes 0-2) and the engine seed (bytes 3-6, a uint32): the board actually dealt is
  ``generate(engine seed, mode)``, so without the secret ``p`` says nothing about the groups;
- the id a client sees and shares is the base32 of 8 bytes, ``p (4) | mode (1) | tag (3)``
  (most significant bit first, one zero pad bit), written in Crockford's alphabet (13
  characters, case-insensitive, o/i/l read as 0/1/1): an id from a typo, another secret or a
  CLI board id is refused rather than opening some other board (the tag is public, and the
  engine seed is other bytes of the same MAC, which the tag does not reveal).

Every server that shares the secret deals the same board for the same id, so ids and daily
boards work across workers and machines. These ids are not ``flagcore connections --id`` ids,
which carry the engine seed and therefore the answers.
"""

from __future__ import annotations

import datetime as _dt
import functools
import hmac
import re
from collections.abc import Callable
from functools import lru_cache
from time import perf_counter
from typing import Any, NamedTuple

from .._args.connections import BASE32_ALPHABET as _ALPHABET  # Crockford base32
from .._args.connections import BASE32_DECODE as _DECODE  # o/i/l as 0/1/1
from .._args.connections import as_mode
from .._impl import core
from ..connections import Board, daily, generate
from ..connections.ids import daily_seed
from ..days import EPOCH, latest_day, latest_day_text
from ..errors import ApiError, BoardRequestError, ForgedTokenError, TokenError
from ..library import MODES, Library
from .ops import METRICS
from .tokens import Signer

ID_LENGTH = 13
# An id's characters as the digits int(..., 32) reads (0-9a-v), so the C parser decodes it
_TO_DIGITS = str.maketrans({ch: "0123456789abcdefghijklmnopqrstuv"[digit] for ch, digit in _DECODE.items()})
_ID_TEXT = re.compile(f"[{''.join(sorted(_DECODE))}]{{{ID_LENGTH}}}")
# every pair of id characters (10 bits), so an id is 7 lookups: 6 pairs and the last character
_PAIRS = tuple(a + b for a in _ALPHABET for b in _ALPHABET)
BOARD_CACHE = 4096  # boards kept per process, each with its id and encoded reply (a few kB each)
DAILY_YEARS = 100  # the game numbers of this many years of dailies are reserved for them (below)


def game_number(seed: int | str) -> int:
    """The public uint32 a seed names (str seeds: FNV-1a 32 of the UTF-8, as the engine does)."""
    return int(core.rng.seed_to_state(seed))


def daily_number(date: str) -> int:
    """The public game number of the daily board of ``date`` (YYYY-MM-DD, as the CLI reads it)."""
    return game_number(daily_seed(date))


@functools.cache
def daily_numbers() -> frozenset[int]:
    """The game numbers of the dailies of DAILY_YEARS years from EPOCH: a board of one of these,
    asked by seed or id before its day has begun, is refused (it would be dealt and kept as a
    plain board, then served beside the day's board under the same id once the day begins)."""
    return frozenset(daily_number((EPOCH + _dt.timedelta(days=i)).isoformat()) for i in range(366 * DAILY_YEARS))


class Dealt(NamedTuple):
    """A keyed board with what a server derives from it once: its id and ``extra`` (whatever the
    KeyedBoards' ``prepare`` made of it, e.g. the encoded reply)."""

    board: Board
    board_id: str
    extra: Any


class KeyedBoards:
    """Board ids and boards under one server secret.

    ``library``: the library boards are dealt from (None: the bundled one). ``prepare(board,
    board_id)`` is called once per board dealt, and its result is cached with
    the board (``Dealt.extra``): a server keeps there what it would otherwise rebuild at every
    request for the board (its encoded reply, its grading table).
    """

    def __init__(
        self,
        signer: Signer,
        prepare: Callable[[Board, str], Any] | None = None,
        cache_size: int = BOARD_CACHE,
        library: Library | None = None,
        ratings: Any = None,
        season_key: bytes | None = None,
    ) -> None:
        self._signer = signer
        self._prepare = prepare
        self._library = library  # None: the bundled library (generate's fast path)
        # dealt with ratings (docs/ratings.md): steered and coloured by learned difficulty, and the
        # ids' MAC keyed with the ratings' digest too, so an id names the ratings it was dealt with
        # (a server on other ratings refuses it as not its own, rather than deal another board);
        # a daily's names the ratings that colour its day (_keys), which a refit keeps
        self._ratings = ratings
        self._label = _label(ratings)
        self.season_key = season_key  # the dailies' schedule (connections.daily's key; None: the public one)
        # A board is dealt once and then graded at every guess of every player on it (a daily
        # board: everyone); Boards are frozen, so one object can serve every request.
        self.dealt = lru_cache(maxsize=cache_size)(self._deal)
        daily_numbers()  # made once per process, here rather than at some request
        self._days: dict[int, str] = {}  # game number of each day's daily so far -> its date
        self._days_until = EPOCH - _dt.timedelta(days=1)
        self._days_text = ""  # _days_until as YYYY-MM-DD (empty: not read yet)

    def scheduled_day(self, number: int) -> str | None:
        """The date whose daily board has game number ``number`` (from the schedule's epoch to today
        in the earliest time zone), or None: such a board is the day's scheduled board."""
        if self._days_text < latest_day_text():  # the clock read once a second, not at every request
            latest = latest_day()
            while self._days_until < latest:  # a day's number is added once, when the day begins
                self._days_until += _dt.timedelta(days=1)
                day = self._days_until.isoformat()
                self._days[daily_number(day)] = day
            self._days_text = self._days_until.isoformat()
        return self._days.get(number)

    def _dealing(self, number: int) -> Any:
        """The ratings that deal game number ``number`` (None: none): a daily's, those that colour
        its day (``Ratings.for_day``), so its ids and tokens outlive a refit whose ``dailies_from``
        is later; a seed's, the newest, which deal it anew after a refit."""
        if self._ratings is not None and (day := self.scheduled_day(number)) is not None:
            return self._ratings.for_day(day)
        return self._ratings

    def ratings_digest(self, number: int) -> str:
        """The digest of the ratings that deal game number ``number`` ("" without ratings): what a
        game token names, so a token of a board dealt before a refit is refused, not graded on
        the board dealt after it (flagcore.web.game_tokens)."""
        ratings = self._dealing(number)
        return "" if ratings is None else str(ratings.digest)

    def _keys(self, body: bytes, key: int = 0) -> bytes:
        """The MAC of an id's first 5 bytes under secret ``key``: bytes 0-2 are its tag, bytes 3-6
        the engine seed; keyed with the ratings that deal the board (``_dealing``)."""
        if self._ratings is None:  # one label for every board (a server without ratings)
            return self._signer.derive(self._label + body, 7, key)
        ratings = self._dealing(int.from_bytes(body[:4], "big"))
        label = self._label if ratings is self._ratings else _label(ratings)
        return self._signer.derive(label + body, 7, key)

    def board_id(self, number: int, mode: str, key: int = 0) -> str:
        """The id a client sees for game number ``number`` in ``mode`` (13 Crockford base32 characters)."""
        body = _id_body(number, mode)
        return _encode_id(body + self._keys(body, key)[:3])

    def parse_id(self, board_id: Any) -> tuple[int, str, int]:
        """(game number, mode, secret) of an id this server (or one sharing its secrets) issued:
        the secret is 0 (the current one) or an old one that still verifies."""
        read = self._read_id(board_id)
        if isinstance(read, str):
            raise BoardRequestError(read)
        return read

    def parse_token_id(self, token: str) -> tuple[int, str, int]:
        """``parse_id`` of a new game's token (its board id, spelt exactly as the server wrote
        it): a TokenError when it is not one."""
        read = self._read_id(token)
        if isinstance(read, str):
            raise TokenError(f"token is neither a game token nor a board id: {read}")
        if token != self.board_id(*read):
            raise ForgedTokenError("token is altered: a board id as a token is spelt exactly as the server wrote it")
        return read

    def _read_id(self, board_id: Any) -> tuple[int, str, int] | str:
        """(game number, mode, secret) of an issued id, or what is wrong with it."""
        if not isinstance(board_id, str):
            return f"board id must be a string, not {type(board_id).__name__}"
        text = board_id.strip().lower()
        if len(text) != ID_LENGTH:
            return f"board id {board_id[:40]!r}: must be {ID_LENGTH} characters"
        if not _ID_TEXT.fullmatch(text):
            bad = next(ch for ch in text if ch not in _DECODE)
            return f"board id {board_id!r}: invalid character {bad!r}"
        value = int(text.translate(_TO_DIGITS), 32)
        raw = (value >> 1).to_bytes(8, "big")
        body, tag = raw[:5], raw[5:]
        # value & 1 is the pad bit of the last character: set, it would be a second spelling of an id
        if not value & 1 and body[4] < len(MODES):
            for key in range(self._signer.key_count):  # the current secret first, then the old ones
                if hmac.compare_digest(self._keys(body, key)[:3], tag):
                    return int.from_bytes(body[:4], "big"), MODES[body[4]], key
        return f"board id {board_id!r}: not a board id of this server (mistyped, or made under an older secret?)"

    def board(self, number: int, mode: str, key: int = 0) -> Board:
        """The board dealt for game number ``number`` in ``mode`` (generated once, then cached)."""
        return self.dealt(number, mode, key).board

    def _deal(self, number: int, mode: str, key: int = 0) -> Dealt:
        body = _id_body(number, mode)
        keys = self._keys(body, key)  # bytes 3-6: the secret engine seed behind the public game number
        day = self.scheduled_day(number)
        start = perf_counter()
        if day is not None:  # a daily: the board of the season's schedule (connections.daily)
            board = daily(day, as_mode(mode), library=self._library, ratings=self._ratings, key=self.season_key)
        elif number in daily_numbers():  # raised, so never cached: asked again when the day has begun
            raise ApiError(400, "future_daily", "this board is the daily of a day that has not begun yet")
        else:
            board = generate(
                int.from_bytes(keys[3:7], "big"), as_mode(mode), library=self._library, ratings=self._ratings
            )
        # the histogram's count is the boards_dealt counter too (flagcore.web.ops: COUNTED_BY)
        METRICS.observe("board_deal_duration_seconds", perf_counter() - start, mode)
        board_id = _encode_id(body + keys[:3])
        return Dealt(board, board_id, self._prepare(board, board_id) if self._prepare else None)


def _label(ratings: Any) -> bytes:
    """What an id's MAC is keyed with besides the secret: the digest of the ratings that deal the
    board (none without ratings)."""
    return b"connections board|" + (b"" if ratings is None else ratings.digest.encode() + b"|")


_MODE_BYTES: dict[str, bytes] = {
    mode: bytes([i]) for i, mode in enumerate(MODES)
}  # an id's fifth byte: the mode's index


def _id_body(number: int, mode: str) -> bytes:
    """An id's first 5 bytes: the game number (4, big-endian) and the mode's index."""
    return number.to_bytes(4, "big") + _MODE_BYTES[mode]


def _encode_id(raw: bytes) -> str:
    """13 Crockford base32 characters of 8 bytes and a zero pad bit (65 bits, 5 per character)."""
    value = int.from_bytes(raw, "big") << 1
    pairs = _PAIRS
    return (
        pairs[value >> 55]
        + pairs[(value >> 45) & 1023]
        + pairs[(value >> 35) & 1023]
        + pairs[(value >> 25) & 1023]
        + pairs[(value >> 15) & 1023]
        + pairs[(value >> 5) & 1023]
        + _ALPHABET[value & 31]
    )
