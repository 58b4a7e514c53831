"""Rules of the web server's requests: query strings and JSON bodies and their fields, seeds, modes,
dates, grids, flags, guesses, swap logs and bench boards (and create_app's own arguments).

Each request rule returns the checked value or raises ``ApiError`` (a ValueError) with the HTTP status
and JSON error code the client sees; flagcore.web.jsonapi sends it. A value with a rule of the
package's own (a seed, a mode, a date, a difficulty) is handed to that rule as it is: its
ArgumentError names the argument, and the web's error table (flagcore.web.jsonapi.ARGUMENT_CODES)
sends it with that argument's code. The values a request may name (modes, grids,
difficulties) are the engines' own (flagcore._args.connections, flagcore._args.puzzle): the routes'
OpenAPI enums are written from the same names.
"""

from __future__ import annotations

import binascii
from collections.abc import Callable
from typing import Any, NamedTuple

import orjson

from ..days import EPOCH
from ..errors import ApiError, BoardRequestError
from .common import parse_seed_text
from .connections import DIFFICULTY_LEVELS, MAX_TEMPTING, as_date, as_difficulty, as_mode
from .puzzle import GRID_ALIASES, GRIDS
from .season import as_day

MAX_CODE_CHARS = 8
MAX_BENCH_TILES = 64
MAX_SWAPS = 1000  # a 5x3 board needs at most 14; anything near this is not a game
_EPOCH_TEXT = EPOCH.isoformat()  # no daily before the one epoch of every daily (flagcore.days)
_INT_SEED_DIGITS = len(str(1 << 32))  # an int seed in [0, 2^32) has at most this many digits (leading zeros aside)
BOARD_NAMES = ("seed", "daily", "id")  # the ways a board request names its board (at most one)
GRID_NAMES = (*GRIDS, *GRID_ALIASES)  # what a deal's "grid" may say: the engine's grids and their aliases
DIFFICULTY_PATTERN = f"^({'|'.join(DIFFICULTY_LEVELS)}|[0-{MAX_TEMPTING}])$"  # the trace's difficulty
DIFFICULTY_TEXT = f"{', '.join(DIFFICULTY_LEVELS)} or a count 0..{MAX_TEMPTING}"


def as_ttl(ttl: Any, name: str) -> int:
    """A token lifetime for create_app: a positive int of seconds."""
    if isinstance(ttl, bool) or not isinstance(ttl, int) or ttl <= 0:
        raise ValueError(f"{name} must be a positive number of seconds, got {ttl!r}")
    return ttl


def as_spend_hook(on_spend: Any) -> Any:
    """create_app's single-use hook: a callable or None."""
    if on_spend is not None and not callable(on_spend):
        raise TypeError("on_spend must be callable or None")
    return on_spend


def as_json_object(raw: bytes) -> dict[str, Any]:
    """A request body as a JSON object (strict: no NaN, 64-bit integers)."""
    try:
        body = orjson.loads(raw)
    except orjson.JSONDecodeError:
        raise ApiError(400, "bad_json", "request body must be a JSON object") from None
    if not isinstance(body, dict):
        raise ApiError(400, "bad_json", f"request body must be a JSON object, not {type(body).__name__}")
    return body


def field(body: dict[str, Any], name: str, kinds: type | tuple[type, ...], required: bool = True) -> Any:
    """``body[name]`` when it has one of ``kinds`` (never a bool unless asked); None when absent and optional."""
    value = body.get(name)
    if value is None:
        if required:
            raise ApiError(400, "missing_field", f"{name} is required")
        return None
    if isinstance(value, bool) and bool not in (kinds if isinstance(kinds, tuple) else (kinds,)):
        raise ApiError(400, "bad_type", f"{name} must not be a boolean")
    if not isinstance(value, kinds):
        raise ApiError(400, "bad_type", f"{name} has the wrong type ({type(value).__name__})")
    return value


class BoardQuery(NamedTuple):
    """A board request's query, checked: the one way it names its board (``daily``, ``seed`` or
    ``board_id``; none of them: a random board) and its mode (None with an id: the id names it)."""

    mode: str | None
    daily: str | None = None
    seed: int | str | None = None
    board_id: str | None = None


def as_board_query(query: dict[str, str], latest_day: str) -> BoardQuery:
    """``GET /api/connections/board``'s query: at most one of seed, daily and id; a mode unless an
    id names it; a daily out by ``latest_day`` (today in the earliest time zone)."""
    if len(query) == 1:  # the common request, ``?seed=<digits>``, read without the general rules' passes
        seed = query.get("seed")
        if seed is not None and 0 < len(seed) <= _INT_SEED_DIGITS and seed.isdigit() and seed.isascii():
            number = int(seed)  # parse_seed_text's reading of all ASCII digits
            if number < 1 << 32:
                return BoardQuery("flags", seed=number)
    chosen = [k for k in BOARD_NAMES if k in query]
    if len(chosen) > 1:
        raise ApiError(400, "bad_request", f"give at most one of {', '.join(BOARD_NAMES)} (got {chosen})")
    if "id" in query:
        if "mode" in query:
            raise BoardRequestError("mode comes from the board id; do not pass both")
        return BoardQuery(None, board_id=query["id"])
    mode = as_mode(query.get("mode", "flags"))
    if "daily" in query:
        return BoardQuery(mode, daily=as_board_day(query["daily"], latest_day))
    if "seed" in query:
        return BoardQuery(mode, seed=as_request_seed(query["seed"]))
    return BoardQuery(mode)


def as_board_day(date: str, latest_day: str) -> str:
    """A daily board's date: a calendar day (as_date's rule) from the epoch (flagcore.days) to ``latest_day``."""
    as_date(date)
    return as_published_day(date, latest_day)


def as_published_day(date: str, latest_day: str) -> str:
    """A daily (a checked YYYY-MM-DD) that is out: from the epoch (flagcore.days) on, and begun somewhere by now
    (``latest_day``: today at UTC+14)."""
    if date < _EPOCH_TEXT:
        raise ApiError(400, "bad_board", f"there is no daily board before {_EPOCH_TEXT}")
    if date > latest_day:  # both YYYY-MM-DD, so text order is date order
        raise ApiError(
            400,
            "future_daily",
            f"the daily board of {date} is not out yet: it is {latest_day} in the earliest time zone",
        )
    return date


class TraceQuery(NamedTuple):
    """``GET /api/connections/trace``'s query, checked."""

    seed: int | str
    mode: str
    legacy: bool
    difficulty: Any  # None: the search alone (docs/difficulty.md)


def as_trace_query(query: dict[str, str]) -> TraceQuery:
    """The simulator's engine seed (default 12), mode, legacy switch and difficulty (default none)."""
    mode = as_mode(query.get("mode", "flags"))
    legacy = as_flag_switch(query.get("legacy", "false"), "legacy")
    seed = as_request_seed(query.get("seed", "12"))
    difficulty = as_difficulty(query["difficulty"]) if "difficulty" in query else None
    return TraceQuery(seed, mode, legacy, difficulty)


class DealRequest(NamedTuple):
    """``POST /api/puzzle/deal``'s body, checked: a day's deal (``daily``), or a grid, an optional
    seed and an optional flag (None: the seed's random flag)."""

    daily: str | None
    grid: str = "hard"
    seed: int | str | None = None
    flag: str | None = None


def as_deal_request(body: dict[str, Any], flag_codes: frozenset[str], latest_day: str) -> DealRequest:
    """A Puzzle deal's body: ``{"daily": day}`` alone, or ``grid``, ``seed`` and ``flag`` (a code
    of ``flag_codes``, any case, or "random")."""
    day = as_daily_deal(body)
    if day is not None:
        return DealRequest(as_published_day(day, latest_day))
    grid_name = (field(body, "grid", str, required=False) or "hard").strip().lower()
    grid = GRID_ALIASES.get(grid_name, grid_name)
    if grid not in GRIDS:
        raise ApiError(400, "bad_grid", f"grid must be one of {', '.join(GRIDS)} (or {', '.join(GRID_ALIASES)})")
    raw_seed = body.get("seed")
    seed = as_request_seed(raw_seed) if raw_seed is not None else None
    flag = field(body, "flag", str, required=False)
    if flag is not None and flag.lower() == "random":
        flag = None
    elif flag is not None:
        # ASCII only before upper(): "ﬁ".upper() is "FI" (a code is matched exactly, never folded)
        flag = flag.strip().upper() if flag.isascii() else flag
        if flag not in flag_codes:
            raise ApiError(400, "unknown_flag", f"flag {flag[:12]!r} is not a bundled flag")
    return DealRequest(None, grid, seed, flag)


def as_daily_deal(body: dict[str, Any]) -> str | None:
    """The day of a Puzzle deal request ``{"daily": "YYYY-MM-DD"}`` (a calendar date), None when it
    names none; the day names the flag, grid and seed, so the body may not name them too."""
    value = body.get("daily")
    if value is None:
        return None
    if any(body.get(k) is not None for k in ("flag", "grid", "seed")):
        raise ApiError(400, "bad_request", "daily names the flag, grid and seed: give it alone")
    if not isinstance(value, str):
        raise ApiError(400, "bad_date", f"daily must be a date YYYY-MM-DD, not {type(value).__name__}")
    as_day(value, "daily")  # the season's rule: a calendar day, on or after its epoch
    return value


def as_request_seed(value: Any, name: str = "seed") -> int | str:
    """A seed from a JSON body (an int, or text) or a query string (text); text is read as the CLI reads it."""
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise ApiError(400, "bad_type", f"{name} must be an int or a string")
    if isinstance(value, int):
        if not 0 <= value < 1 << 32:
            raise ApiError(400, "bad_seed", f"{name} {value}: an int seed must be in [0, 2^32)")
        return value
    if value != value.strip():  # "?seed=+7" reads " 7": a signed number, as the URL spells a plus
        raise ApiError(400, "bad_seed", f"{name} {value!r}: no spaces around a seed (a '+' in a query is a space)")
    return parse_seed_text(value, name)  # the shared rule; its ArgumentError is sent as bad_seed


def as_flag_switch(text: str, name: str) -> bool:
    """A true/false query parameter: "true", "false", "1" or "0" (any case)."""
    lowered = text.lower()
    if lowered not in ("true", "false", "1", "0"):
        raise ApiError(400, "bad_type", f"{name} must be true or false")
    return lowered in ("true", "1")


def as_guess_codes(codes: list[Any]) -> list[str]:
    """The four country codes of a Connections guess (strings of 1..MAX_CODE_CHARS characters)."""
    if len(codes) != 4 or not all(isinstance(c, str) and 0 < len(c) <= MAX_CODE_CHARS for c in codes):
        raise ApiError(400, "bad_codes", "codes must be a list of 4 country codes (strings)")
    return codes


def as_swap_list(swaps: list[Any]) -> list[Any]:
    """A Puzzle swap log's length (its moves are checked by the engine as it replays them)."""
    if len(swaps) > MAX_SWAPS:
        raise ApiError(400, "bad_swaps", f"swaps holds at most {MAX_SWAPS} moves")
    return swaps


def as_kept_swaps(swaps: list[Any], tiles: int) -> list[list[int]]:
    """A swap log to keep for a game in progress (``POST /api/puzzle/progress``): at most MAX_SWAPS
    moves, each [a, b] of slots of the board (0..tiles-1). Checked in full here, since a kept log
    is sent back to the page and replayed there, not by the engine."""
    if len(swaps) > MAX_SWAPS:
        raise ApiError(400, "bad_swaps", f"swaps holds at most {MAX_SWAPS} moves")
    for i, move in enumerate(swaps):
        if not (
            type(move) is list and len(move) == 2 and all(type(slot) is int and 0 <= slot < tiles for slot in move)
        ):
            raise ApiError(400, "bad_swaps", f"swaps[{i}] must be [a, b], two slots 0..{tiles - 1}")
    return swaps


def refused_swap_log(exc: Exception, body: dict[str, Any]) -> ApiError:
    """Why the engine refused a swap log: a malformed one (a move that is not [a, b] of ints) is a
    bad request, a well-formed one it cannot accept is rejected. Looked at only after a refusal,
    so an accepted log costs no second pass over its moves."""
    for i, move in enumerate(body["swaps"]):
        if not (type(move) is list and len(move) == 2 and type(move[0]) is int and type(move[1]) is int):
            return ApiError(400, "bad_swaps", f"swaps[{i}] must be a pair of slot numbers [a, b]")
    return ApiError(422, "rejected", f"swap log rejected: {exc}")


def refused_as(status: int, code: str) -> Callable[[Exception, dict[str, Any]], ApiError]:
    """A refusal that sends the engine's own message with ``status`` and ``code``."""

    def refusal(exc: Exception, request: dict[str, Any]) -> ApiError:
        return ApiError(status, code, str(exc))

    return refusal


def as_bench_tiles(tiles: list[Any]) -> list[int]:
    """The swap bench's board: a permutation of 0..n-1, 2 <= n <= MAX_BENCH_TILES."""
    if not 2 <= len(tiles) <= MAX_BENCH_TILES:
        raise ApiError(400, "bad_board", f"tiles_by_slot must hold 2..{MAX_BENCH_TILES} tiles")
    if not all(isinstance(t, int) and not isinstance(t, bool) for t in tiles) or sorted(tiles) != list(
        range(len(tiles))
    ):
        raise ApiError(400, "bad_board", "tiles_by_slot must be a permutation of 0..n-1")
    return tiles


_FROM_URLSAFE = bytes.maketrans(b"-_", b"+/")
_B64URL = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


# The last character of canonical base64url carries zero unused bits: with 2 (or 3) characters in
# the last group, 4 (or 2) of its 6 bits are unused. Checking it is the one-spelling rule, without
# encoding the bytes again.
_LAST_OF_2 = frozenset("AQgw")
_LAST_OF_3 = frozenset("AEIMQUYcgkosw048")


def canonical_b64url(text: str) -> bytes | None:
    """The bytes of canonical base64url text (no padding, zero unused bits: the one spelling the
    server writes), or None for any other text: a token spelt otherwise has been altered."""
    if not text.isascii():
        return None
    raw = text.encode("ascii")
    rest = len(raw) % 4
    if rest == 1 or not _B64URL.issuperset(raw):
        return None
    if (rest == 2 and text[-1] not in _LAST_OF_2) or (rest == 3 and text[-1] not in _LAST_OF_3):
        return None  # unused low bits set: a second spelling of the same bytes
    return binascii.a2b_base64(raw.translate(_FROM_URLSAFE) + b"=" * (-rest % 4))
