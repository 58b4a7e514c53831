"""The argument rules of the Connections API and of a Library, stated once.

Each ``as_<thing>(value, ...)`` returns the checked value or raises TypeError/ValueError naming
the argument; each ``check_<thing>`` raises or returns None. The public modules
(flagcore.connections, flagcore.library) and the web server call these, so a bad mode, date or
board id gets the same error wherever it is passed.

Board ids. A board is fixed by (seed, mode, legacy) and the library; a board id packs the seed's
uint32 state, the format version and the flags into 8 bytes::

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
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import ArgumentError, ArgumentTypeError
from ..types import Difficulty, DifficultyLevel, Mode

MODES: tuple[Mode, ...] = ("flags", "trivia")
ITEMS_PER_CATEGORY = 4  # tiles per group

# ---------------------------------------------------------------- scalars


def as_mode(mode: Any, name: str = "mode") -> Mode:
    """``mode``: "flags" or "trivia"; TypeError for a non-str, ValueError for another str."""
    if not isinstance(mode, str):
        raise ArgumentTypeError(f"{name} must be a str, one of {MODES}, not {type(mode).__name__}")
    if mode not in MODES:
        raise ArgumentError(f"{name} must be one of {MODES}, got {mode!r}")
    return mode


def as_flag(value: Any, name: str) -> bool:
    """An on/off option: a bool (numpy's too)."""
    if not isinstance(value, (bool, np.bool_)):
        raise ArgumentTypeError(f"{name} must be a bool, not {type(value).__name__}")
    return bool(value)


def as_threads(threads: Any) -> int | None:
    """``threads`` of a batch: an int >= 1, or None for the default."""
    if threads is None:
        return None
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)):
        raise ArgumentTypeError(f"threads must be an int >= 1 or None, not {type(threads).__name__}")
    if threads < 1:
        raise ArgumentError(f"threads must be >= 1, got {threads}")
    return int(threads)


_DATE_RE = re.compile(r"\d{4}-\d{2}-\d{2}")


def as_date(value: Any, name: str = "date") -> _dt.date:
    """A day: a datetime.date, a datetime (its date), a "YYYY-MM-DD" str, or None for today in UTC.

    UTC so that every server agrees on which day it is, whatever its local zone.
    """
    if value is None:
        return _dt.datetime.now(_dt.timezone.utc).date()
    if isinstance(value, _dt.datetime):
        return value.date()
    if isinstance(value, _dt.date):
        return value
    if isinstance(value, str):
        # the pattern first: fromisoformat also reads other ISO forms ("20260101", week dates)
        if not _DATE_RE.fullmatch(value):
            raise ArgumentError(f"{name} must be YYYY-MM-DD, got {value!r}")
        try:
            return _dt.date.fromisoformat(value)
        except ValueError:
            raise ArgumentError(f"{name} {value!r} is not a calendar date") from None
    raise ArgumentTypeError(f"{name} must be a datetime.date, a 'YYYY-MM-DD' str or None, not {type(value).__name__}")


def as_path(path: Any) -> Any:
    """A library file or directory: a str, a Path or None (the bundled library)."""
    if path is not None and not isinstance(path, (str, Path)):
        raise ArgumentTypeError(f"path must be a str, a Path or None, got {type(path).__name__}")
    return path


def as_code(code: Any, known: Mapping[str, Any] | Iterable[str]) -> str:
    """A country code of the library (``known`` holds them)."""
    # str first: an unhashable argument (a list) would otherwise raise an unnamed TypeError
    if not isinstance(code, str):
        raise ArgumentTypeError(f"code must be a str country code, not {type(code).__name__}")
    if code not in known:
        raise ArgumentError(f"code: unknown country code {code!r}")
    return code


def as_instance(value: Any, cls: type, name: str, what: str) -> Any:
    """``value`` when it is a ``cls`` (``what`` names the class for the message)."""
    if not isinstance(value, cls):
        raise ArgumentTypeError(f"{name} must be {what}, not {type(value).__name__}")
    return value


def as_library(library: Any, library_type: type) -> Any:
    """A Library or None (the bundled one)."""
    if library is not None and not isinstance(library, library_type):
        raise ArgumentTypeError(f"library must be a flagcore.library.Library or None, not {type(library).__name__}")
    return library


# ---------------------------------------------------------------- difficulty

# difficulty -> (tempting phantoms lo, hi, searches at most, the hidden pair's cap: the two least
# visible groups' saliences summed at most the cap, NO_PAIR_CAP any pair); docs/difficulty.md.
# "normal" makes two searches at most: its cost stays near a plain search.
NO_PAIR_CAP = 99
DIFFICULTY_LEVELS: dict[DifficultyLevel, tuple[int, int, int, int]] = {
    "easy": (0, 0, 8, NO_PAIR_CAP),
    "normal": (2, 99, 2, 6),
    "hard": (3, 99, 32, 5),
}
MAX_TEMPTING = 8  # a number asks for exactly that many tempting phantoms, 0..MAX_TEMPTING
DIFFICULTY_ATTEMPTS = 8
# a board id's flags byte keeps the difficulty in bits 2..5: normal 0 (what an id before
# difficulties names), None 1, easy 2, hard 3, a number n: 4 + n
ID_DIFFICULTY_SHIFT = 2
_DIFFICULTY_CODES: dict[DifficultyLevel | None, int] = {"normal": 0, None: 1, "easy": 2, "hard": 3}


def as_difficulty(value: Any, name: str = "difficulty") -> Difficulty | None:
    """``difficulty``: "easy", "normal", "hard", an int 0..MAX_TEMPTING (tempting phantoms asked
    for), or None (the search alone: no model, the categories' tiers as colours)."""
    if value is None:
        return None
    if isinstance(value, str):
        if value in DIFFICULTY_LEVELS:
            return value
        if value.strip().isdigit():  # the CLI and the server pass a number as text
            value = int(value.strip())
        else:
            raise ArgumentError(
                f"{name} must be one of {tuple(DIFFICULTY_LEVELS)} or an int 0..{MAX_TEMPTING}, got {value!r}"
            )
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ArgumentTypeError(
            f"{name} must be one of {tuple(DIFFICULTY_LEVELS)}, an int 0..{MAX_TEMPTING} or None, "
            f"not {type(value).__name__}"
        )
    if not 0 <= value <= MAX_TEMPTING:
        raise ArgumentError(f"{name} must be an int 0..{MAX_TEMPTING} (tempting phantom groups), got {value}")
    return int(value)


def difficulty_target(difficulty: Difficulty) -> tuple[int, int, int, int]:
    """(lo, hi, attempts, pair_cap) of a checked difficulty other than None."""
    if isinstance(difficulty, str):
        return DIFFICULTY_LEVELS[difficulty]
    return difficulty, difficulty, DIFFICULTY_ATTEMPTS, NO_PAIR_CAP


def difficulty_code(difficulty: Difficulty | None) -> int:
    """A checked difficulty as the 4 bits a board id keeps."""
    return _DIFFICULTY_CODES[difficulty] if difficulty is None or isinstance(difficulty, str) else 4 + difficulty


def difficulty_of_code(code: int, board_id: str) -> Difficulty | None:
    """The difficulty a board id's 4 bits name."""
    for value, c in _DIFFICULTY_CODES.items():
        if c == code:
            return value
    if 4 <= code <= 4 + MAX_TEMPTING:
        return code - 4
    raise ArgumentError(f"board id {board_id!r}: unknown difficulty {code}")


# ---------------------------------------------------------------- seeds of a batch


def as_seed_sequence(seeds: Any) -> Any:
    """``seeds`` of generate_many: an ordered sequence, or a 1-D integer array of states in [0, 2**32).

    Returns a uint32 array for an integer array, else a list (its seeds checked one by one later).
    """
    if isinstance(seeds, (str, bytes)):
        raise ArgumentTypeError("seeds must be a sequence of seeds (int or str), not a single str or bytes")
    if isinstance(seeds, (set, frozenset, dict)) or hasattr(seeds, "keys"):
        # batch[i] must be the board of seeds[i]: an unordered collection has no i.
        raise ArgumentTypeError(f"seeds must be an ordered sequence, not {type(seeds).__name__}")
    if isinstance(seeds, np.ndarray) and seeds.dtype.kind in "iu":
        if seeds.ndim != 1:
            raise ArgumentError(f"seeds must be one-dimensional, got shape {seeds.shape}")
        wide = seeds if seeds.dtype == np.uint64 else seeds.astype(np.int64)
        bad = wide[(wide < 0) | (wide >= 2**32)]
        if bad.size:
            raise ArgumentError(f"seeds: every seed must be in [0, 2**32), got {int(bad[0])}")
        return seeds.astype(np.uint32)
    try:
        return list(seeds)
    except TypeError:
        raise ArgumentTypeError(f"seeds must be a sequence of seeds (int or str), not {type(seeds).__name__}") from None


def in_item(exc: Exception, i: int) -> Exception:
    """The error of ``seeds[i]``: the same type, its message prefixed with the index."""
    return type(exc)(f"seeds[{i}]: {exc}")


def as_index(i: Any, n: int, what: str) -> int:
    """An index into ``n`` items (negative from the end)."""
    if isinstance(i, bool) or not isinstance(i, (int, np.integer)):
        raise ArgumentTypeError(f"{what} indices must be int or slice, not {type(i).__name__}")
    j = int(i) + n if i < 0 else int(i)
    if not 0 <= j < n:
        raise IndexError(f"{what} index {i} out of range for {n} boards")
    return j


# ---------------------------------------------------------------- board ids

ID_LENGTH = 13
ID_VERSION = 1
ID_FLAG_TRIVIA = 0x01
ID_FLAG_LEGACY = 0x02
BASE32_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"
# Crockford's reading aliases: the letters people confuse with digits decode as those digits.
BASE32_DECODE = {ch: i for i, ch in enumerate(BASE32_ALPHABET)} | {"o": 0, "i": 1, "l": 1}


def id_checksum(body: bytes) -> int:
    """CRC-16/CCITT of a board id's first six bytes."""
    return binascii.crc_hqx(body, 0xFFFF)


def base32_encode(value: int, length: int) -> str:
    """``value`` as exactly ``length`` Crockford base32 characters (most significant first)."""
    chars = []
    for _ in range(length):
        value, digit = divmod(value, 32)
        chars.append(BASE32_ALPHABET[digit])
    return "".join(reversed(chars))


def as_board_id(board_id: Any) -> tuple[int, int]:
    """(seed state, flags byte) of a board id; ValueError names what is wrong with it."""
    if not isinstance(board_id, str):
        raise ArgumentTypeError(f"board id must be a str, not {type(board_id).__name__}")
    text = board_id.strip().lower()
    if len(text) != ID_LENGTH:
        raise ArgumentError(f"board id {board_id!r}: must be {ID_LENGTH} characters, got {len(text)}")
    value = 0
    for ch in text:
        digit = BASE32_DECODE.get(ch)
        if digit is None:
            raise ArgumentError(f"board id {board_id!r}: invalid character {ch!r}")
        value = value * 32 + digit
    if value >> 64:  # 13 characters hold 65 bits; an id uses 64, so the first is at most 'f'
        raise ArgumentError(f"board id {board_id!r}: not a board id (first character out of range)")
    raw = value.to_bytes(8, "big")
    body, crc = raw[:6], int.from_bytes(raw[6:], "big")
    if id_checksum(body) != crc:
        raise ArgumentError(f"board id {board_id!r}: checksum mismatch (mistyped?)")
    version, flags = body[4], body[5]
    if version != ID_VERSION:
        raise ArgumentError(f"board id {board_id!r}: unsupported version {version} (this flagcore reads {ID_VERSION})")
    if flags & ~(ID_FLAG_TRIVIA | ID_FLAG_LEGACY | (0xF << ID_DIFFICULTY_SHIFT)):
        raise ArgumentError(f"board id {board_id!r}: unknown flag bits {flags:#04x}")
    return int.from_bytes(body[:4], "big"), flags


# ---------------------------------------------------------------- guesses and boards


def as_selection(selected: Any, name: str = "selected") -> tuple[str, ...]:
    """``selected`` as a tuple of 4 distinct codes, or TypeError/ValueError naming it.

    Shared by check_guess and ConnectionsGame.guess so both reject the same inputs the same way.
    """
    if type(selected) is list or type(selected) is tuple:  # what clients send: skip the type probes
        codes = tuple(selected)
    else:
        if selected is None or isinstance(selected, (str, bytes, bytearray)) or not isinstance(selected, Iterable):
            raise ArgumentTypeError(
                f"{name} must be a list of {ITEMS_PER_CATEGORY} country codes, not {type(selected).__name__}"
            )
        if isinstance(selected, dict):
            raise ArgumentTypeError(f"{name} must be a list of {ITEMS_PER_CATEGORY} country codes, not dict")
        codes = tuple(selected)
    for code in codes:
        if not isinstance(code, str):
            raise ArgumentTypeError(f"{name} must hold country codes (str), found {type(code).__name__} {code!r}")
    if len(codes) != ITEMS_PER_CATEGORY:
        raise ArgumentError(f"{name} must hold exactly {ITEMS_PER_CATEGORY} codes, got {len(codes)}")
    if len(set(codes)) != len(codes):
        dupes = sorted({c for c in codes if codes.count(c) > 1})
        raise ArgumentError(f"{name} must hold {ITEMS_PER_CATEGORY} distinct codes, repeated: {dupes}")
    return codes


def as_groups(groups: Any, group_type: Any) -> tuple[Any, ...]:
    """``groups`` of check_guess: Group objects (``group_type``) of four codes each."""
    if isinstance(groups, (str, bytes)) or not isinstance(groups, Iterable):
        raise ArgumentTypeError(f"groups must be a sequence of Group, not {type(groups).__name__}")
    out: tuple[Any, ...] = tuple(groups)
    for g in out:
        if not isinstance(g, group_type):
            raise ArgumentTypeError(f"groups must hold Group objects, found {type(g).__name__}")
        if len(g.codes) != ITEMS_PER_CATEGORY:
            raise ArgumentError(f"groups: group {g.label!r} has {len(g.codes)} codes, needs {ITEMS_PER_CATEGORY}")
    return out


def check_board_shape(board: Any, group_type: Any) -> None:
    """A board a game can be played on: 16 distinct tiles in 4 groups of four codes."""
    tiles = board.tiles
    if len(tiles) != 4 * ITEMS_PER_CATEGORY or len(set(tiles)) != len(tiles):
        raise ArgumentError(f"board: needs {4 * ITEMS_PER_CATEGORY} distinct tiles, got {list(tiles)}")
    if len(board.groups) != 4:
        raise ArgumentError(f"board: needs 4 groups, got {len(board.groups)}")
    group: Any
    for group in board.groups:
        if not isinstance(group, group_type) or len(group.codes) != ITEMS_PER_CATEGORY:
            raise ArgumentError(f"board: every group needs {ITEMS_PER_CATEGORY} codes")


def check_groups_cover(disjoint_and_covering: bool) -> None:
    """Disjoint groups covering the tiles are what makes grading order-independent."""
    if not disjoint_and_covering:
        raise ArgumentError("board: the groups must be disjoint and cover exactly the 16 tiles")


def check_game_open(over: bool, won: bool) -> None:
    """A guess needs a game that has not ended."""
    if over:
        raise ArgumentError(f"guess: the game is over ({'won' if won else 'lost'}), no more guesses")


def check_playable(unknown: list[str], solved: list[str]) -> None:
    """The four codes of a guess are on the board (``unknown`` are not) and unsolved (``solved`` are)."""
    if unknown:
        raise ArgumentError(f"codes: not on this board: {unknown}")
    if solved:
        raise ArgumentError(f"codes: already in a solved group: {solved}")


def rng_error(rng: Any) -> ArgumentTypeError:
    """What shuffle_remaining raises for an ``rng`` that is neither a flagcore.Rng nor a seed."""
    return ArgumentTypeError(f"rng must be a flagcore.Rng or a seed (int or str), not {type(rng).__name__}")


def check_category_known(category_id: str, index: Mapping[str, int], mode: str) -> int:
    """The index of a board's category in the library's tables for ``mode``."""
    if category_id not in index:
        raise ArgumentError(f"board: category {category_id!r} is not in the library's {mode!r} categories")
    return index[category_id]


def check_board_id_options(board_id: str, mode: str, legacy: bool, asked_mode: str | None, asked_legacy: bool) -> None:
    """``--mode`` and ``--legacy`` beside ``--id``: they may repeat what the id holds, never contradict it."""
    if asked_mode is not None and asked_mode != mode:
        raise ArgumentError(f"--mode {asked_mode} contradicts board id {board_id!r} ({mode} mode)")
    if asked_legacy and not legacy:
        raise ArgumentError(f"--legacy contradicts board id {board_id!r} (not a legacy board)")


def check_board_id_difficulty(board_id: str, difficulty: Difficulty | None, asked: Difficulty | None) -> None:
    """``--difficulty`` beside ``--id``: it may repeat the id's difficulty, never contradict it."""
    if asked != difficulty:
        raise ArgumentError(f"--difficulty {asked} contradicts board id {board_id!r} (difficulty {difficulty})")


# search_categories' order (both twins check it in their own loop and raise these, written once)
ORDER_OFFSETS = 1
ORDER_TIER_LENGTH = 2  # detail: (tier, count)
ORDER_INDEX = 3  # detail: the category index


def category_order_error(code: int, detail: Any = None) -> ArgumentError:
    """What search_categories raises for an order it cannot search."""
    if code == ORDER_OFFSETS:
        return ArgumentError("search_categories: order_off must be 5 offsets from 0 to len(order_flat)")
    if code == ORDER_TIER_LENGTH:
        return ArgumentError(f"search_categories: tier {detail[0]} lists {detail[1]} candidates")
    if code == ORDER_INDEX:
        return ArgumentError(f"search_categories: category index {detail} out of range")
    raise AssertionError(f"unknown order status {code}")  # a twin reported a code this table lacks
