"""The store interface: what a server keeps so that a day's result can be trusted.

Five kinds of record, each with the one atomic operation that makes it trustworthy when several
threads, processes or machines share the store:

- **games in progress**, one per (player, board): read, then write back with compare-and-set on
  the game's version, so of two requests grading the same game from the same version exactly one
  is recorded (the other learns it lost and reads again);
- **spent tokens**: ``spend`` answers True for a token id the first time only, ever (until the
  token's own expiry, after which the token is refused anyway);
- **published boards**: write-once; the first writer wins and every later reader (and writer)
  gets the first value, so a board players have seen never changes;
- **results** (optional): write-once like boards, kept for good: one result per key;
- **a player's results**: write-once per (player, key) like results, and listed per player (what
  a player's stats are computed from).

Values are bytes: the caller encodes them (JSON), the store never looks inside. Every call either
answers or raises ``StoreUnavailable`` within the store's ``timeout`` (a Redis call: twice it,
see ``RedisStore``); argument errors are TypeError/ValueError as usual.

A server's hot write, the save of a game at each guess, also has an awaitable form,
``save_game_batched``: the saves asked for during one turn of the event loop go to the store
together when the turn ends (one SQLite transaction, one Redis pipeline), because one commit or
one round trip per guess, taken on the event loop, is what limits a server's guess rate.
"""

from __future__ import annotations

import asyncio
import time
from abc import ABC, abstractmethod
from typing import NamedTuple

from .._args.store import as_count, as_key, as_value

DEFAULT_TIMEOUT = 2.0  # seconds a store call may take before StoreUnavailable
FIRST_PAUSE, LAST_PAUSE = 20e-6, 2e-3  # seconds between two tries of a busy store: 20 µs, 40 µs, ... 2 ms

# save_game's arguments, checked: (player, board, expected, data, ttl, previous)
Save = tuple[str, str, int, bytes, int, bytes | None]


class GameRecord(NamedTuple):
    """A stored game: ``version`` (1 after the first save, one more per save) and its ``data``."""

    version: int
    data: bytes


class Store(ABC):
    """A game store; ``SQLiteStore`` and ``RedisStore`` implement it (``open_store`` picks one).

    ``timeout`` is the seconds a call may wait for the store before raising StoreUnavailable.
    """

    kind: str = ""
    timeout: float = DEFAULT_TIMEOUT

    def __init__(self) -> None:
        # the saves waiting for the end of the current turn of each event loop using this store
        self._batches: dict[asyncio.AbstractEventLoop, list[tuple[Save, asyncio.Future[bool]]]] = {}

    # ------------------------------------------------------------ games in progress

    def load_game(self, player: str, board: str) -> GameRecord | None:
        """The game ``player`` has on ``board``, or None (never saved, or expired)."""
        return self._load_game(as_key(player, "player"), as_key(board, "board"))

    def save_game(
        self, player: str, board: str, expected: int, data: bytes, ttl: int, previous: bytes | None = None
    ) -> bool:
        """Compare-and-set: store ``data`` as version ``expected + 1`` if the stored version is
        ``expected`` (0: no game stored yet) and, when ``previous`` is given, the stored data is
        ``previous``; True if stored, False if another writer got there first. The game is kept
        ``ttl`` seconds after this save.

        ``previous`` lets a caller that knows the game (from a signed token) write without reading
        it first: one round trip, and no write on a game that is not exactly the one it knows."""
        return self._save_games([_checked_save(player, board, expected, data, ttl, previous)])[0]

    async def save_game_batched(
        self, player: str, board: str, expected: int, data: bytes, ttl: int, previous: bytes | None = None
    ) -> bool:
        """``save_game`` on an event loop: the same result, but the saves of one turn of the loop
        are written together when the turn ends (each still its own compare-and-set, in the order
        asked), so a busy server pays one commit or round trip for many guesses."""
        save = _checked_save(player, board, expected, data, ttl, previous)
        loop = asyncio.get_running_loop()
        batch = self._batches.get(loop)
        if batch is None:
            batch = self._batches[loop] = []
            loop.call_soon(self._flush, loop)  # after every callback this turn already holds
        done: asyncio.Future[bool] = loop.create_future()
        batch.append((save, done))
        return await done

    def _flush(self, loop: asyncio.AbstractEventLoop, since: float = 0.0, pause: float = FIRST_PAUSE) -> None:
        """Write the saves ``loop`` gathered, then answer each waiting request. While another writer
        holds the store (a SQLite file shared by several workers), the batch waits on a timer and
        the loop serves other requests meanwhile (their saves join the batch); after the store's
        ``timeout`` the last attempt waits as a lone call would, then fails."""
        batch = self._batches.pop(loop)
        saves = [save for save, _ in batch]
        now = time.monotonic()
        try:
            results = self._save_games(saves) if since and now - since > self.timeout else self._save_games_now(saves)
        except Exception as exc:  # StoreUnavailable, most likely: every save of the batch failed alike
            for _, done in batch:
                if not done.cancelled():
                    done.set_exception(exc)
            return
        if results is None:  # busy: try again after a pause, with the saves asked for meanwhile
            self._batches[loop] = batch + self._batches.get(loop, [])
            loop.call_later(pause, self._flush, loop, since or now, min(2 * pause, LAST_PAUSE))
            return
        for (_, done), stored in zip(batch, results, strict=True):
            if not done.cancelled():  # the client went away meanwhile: its save stands, unanswered
                done.set_result(stored)

    # ------------------------------------------------------------ spent tokens

    def spend(self, kind: str, jti: str, exp: int) -> bool:
        """Mark token ``jti`` of ``kind`` spent: True the first time, False ever after (the record
        is kept until ``exp``, the token's own expiry in UNIX seconds)."""
        return self._spend(as_key(kind, "kind"), as_key(jti, "jti"), as_count(exp, "exp", 0))

    # ------------------------------------------------------------ published boards

    def publish_board(self, key: str, data: bytes) -> bytes:
        """Write-once: store ``data`` under ``key`` unless a value is there; return the stored value
        (``data`` for the first writer, the first writer's value for everyone after)."""
        return self._put_once("board", as_key(key, "key"), as_value(data))

    def published_board(self, key: str) -> bytes | None:
        """The board published under ``key``, or None."""
        return self._get_once("board", as_key(key, "key"))

    # ------------------------------------------------------------ results

    def record_result(self, key: str, data: bytes) -> bytes:
        """Write-once, like ``publish_board``: the first result recorded under ``key`` is kept for good."""
        return self._put_once("result", as_key(key, "key"), as_value(data))

    def result(self, key: str) -> bytes | None:
        """The result recorded under ``key``, or None."""
        return self._get_once("result", as_key(key, "key"))

    # ------------------------------------------------------------ a player's results

    def record_player_result(self, player: str, key: str, data: bytes) -> bytes:
        """Write-once per (player, key), like ``record_result``: the first result recorded is kept
        for good and returned to every later writer."""
        return self._put_player_result(as_key(player, "player"), as_key(key, "key"), as_value(data))

    def player_results(self, player: str) -> dict[str, bytes]:
        """Every result recorded for ``player``, by key (empty for a player without one)."""
        return self._player_results(as_key(player, "player"))

    # ------------------------------------------------------------ the connection

    @abstractmethod
    def ping(self) -> None:
        """Return if the store answers within its timeout; StoreUnavailable otherwise."""

    @abstractmethod
    def close(self) -> None:
        """Release this process's connections (the store reopens them if used again)."""

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------ what an implementation writes

    @abstractmethod
    def _load_game(self, player: str, board: str) -> GameRecord | None: ...

    @abstractmethod
    def _save_games(self, saves: list[Save]) -> list[bool]:
        """Each save's compare-and-set, in order, written together where the store can (one
        transaction, one pipeline); raise StoreUnavailable if the store does not answer."""

    def _save_games_now(self, saves: list[Save]) -> list[bool] | None:
        """``_save_games`` without waiting for another writer: None when one holds the store."""
        return self._save_games(saves)

    @abstractmethod
    def _spend(self, kind: str, jti: str, exp: int) -> bool: ...

    @abstractmethod
    def _put_once(self, table: str, key: str, data: bytes) -> bytes: ...

    @abstractmethod
    def _get_once(self, table: str, key: str) -> bytes | None: ...

    @abstractmethod
    def _put_player_result(self, player: str, key: str, data: bytes) -> bytes: ...

    @abstractmethod
    def _player_results(self, player: str) -> dict[str, bytes]: ...


def _checked_save(player: str, board: str, expected: int, data: bytes, ttl: int, previous: bytes | None) -> Save:
    return (
        as_key(player, "player"),
        as_key(board, "board"),
        as_count(expected, "expected", 0),
        as_value(data),
        as_count(ttl, "ttl", 1),
        None if previous is None else as_value(previous, "previous"),
    )
