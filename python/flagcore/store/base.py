"""The store interface: what a server keeps so that a day's result can be trusted.

Five kinds of record, each with the one atomic operation that makes it trustworthy when several
threads, processes or machines share the store:

- **games in progress**, one per (player, board): read, then write back with compare-and-set on
  the game's version, so of two requests grading the same game from the same version exactly one
  is recorded (the other learns it lost and reads again); the save that ends a game may carry the
  player's result, written in the same atomic step (or not at all), so no fault between the two
  loses a result or records it twice;
- **spent tokens**: ``spend`` answers True for a token id the first time only, ever (until the
  token's own expiry, after which the token is refused anyway);
- **published boards**: write-once; the first writer wins and every later reader (and writer)
  gets the first value, so a board players have seen never changes;
- **results** (optional): write-once like boards, kept for good: one result per key
  (``record_verified``: a token's spend, a deal's result and the player's result, all or none);
- **a player's results**: write-once per (player, key) like results, and listed per player (what
  a player's stats are computed from);
- **play records** (flagcore.ratings): write-once per key (a keyed hash of player and board, so a
  game is recorded once and no player is named), kept ``ttl`` seconds, with the counters of the
  day's aggregate bumped in the same atomic step (a Puzzle's: in its ``record_verified``); listed
  in the order recorded.

Values are bytes: the caller encodes them (JSON), the store never looks inside. Every call either
answers or raises ``StoreUnavailable`` within the store's ``timeout`` (a synchronous Redis call:
twice it, see ``RedisStore``); argument errors are TypeError/ValueError as usual.

Each call has two forms: a plain one (the command line, tests, a thread) and an awaitable one for
a server's event loop, named with a leading ``a`` (``aload_game``, ``asave_game``, ...). The
awaitable calls never block the loop: those asked for during one turn of the loop go to the store
together when the turn ends (SQLite: one transaction on the store's own thread; Redis: one
pipeline on an asyncio connection), and each answers or raises StoreUnavailable within
``timeout`` of being asked, however the store hangs. After the store's connection failed
(Redis refused one), a breaker makes them fail at once for PAUSE_AFTER_FAILURE seconds, then lets
one call try the store again (the others failing at once until it is answered); a failing store
is logged once per LOG_EVERY seconds, with the count of the failures not logged.
"""

from __future__ import annotations

import asyncio
import logging
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

from .._args.store import as_count, as_key, as_value
from ..errors import StoreUnavailable

DEFAULT_TIMEOUT = 2.0  # seconds a store call may take before StoreUnavailable
FIRST_PAUSE, LAST_PAUSE = 20e-6, 2e-3  # seconds between two tries of a busy store: 20 µs, 40 µs, ... 2 ms
log = logging.getLogger("flagcore.store")
# seconds an event loop's calls fail at once after the store's connection failed (Redis refused
# one, or broke it), before one call tries again: while Redis is down, the requests that need no
# store would otherwise pay for a socket, a timer and a task per failing request
PAUSE_AFTER_FAILURE = 0.1
# seconds between two log lines of a failing store: one line per window, with the count of the
# failures it did not log (a line per failed request, 400 a second, costs every request of the
# worker, the store-free ones too: a formatted line and a wake-up of the log's thread each)
LOG_EVERY = 1.0
# called after each batch of an event loop with (seconds it took, whether the store answered, calls
# in it): flagcore.web.ops counts them (the store itself knows nothing of metrics)
batch_observers: list[Callable[[float, bool, int], None]] = []

# record_play's arguments, checked: (key, data, counts, fields, ttl)
Play = tuple[str, bytes, str, tuple[str, ...], int]
# save_game's arguments, checked: (player, board, expected, data, ttl, previous, result, play),
# where result is the player's (key, data) and play a play record to record with the save, or None
Result = tuple[str, bytes]
Save = tuple[str, str, int, bytes, int, bytes | None, Result | None, Play | None]
# record_verified's arguments, checked: (kind, jti, exp, key, data, player, result, play)
Verified = tuple[str, str, int, str, bytes, str | None, Result | None, Play | None]


class _Batch:
    """The calls of one turn of an event loop (each an operation and the future its caller
    awaits), and the timer of their common deadline."""

    __slots__ = ("calls", "deadline")

    def __init__(self) -> None:
        self.calls: list[tuple[Any, asyncio.Future[Any]]] = []
        self.deadline: asyncio.TimerHandle | None = None


class GameRecord(NamedTuple):
    """A stored game: ``version`` (1 after the first save, one more per save) and its ``data``."""

    version: int
    data: bytes


class Store(ABC):
    """A game store; ``SQLiteStore`` and ``RedisStore`` implement it (``open_store`` picks one).

    ``timeout`` is the seconds a call may wait for the store before raising StoreUnavailable.

    An implementation describes each call as an *operation* (its own type: SQL work, Redis
    commands) and runs operations two ways: ``_run(op)`` now, and ``_execute(ops)`` for the
    batch of a turn of an event loop.
    """

    kind: str = ""
    timeout: float = DEFAULT_TIMEOUT
    # True: one batch of an event loop on its way at a time, the calls asked meanwhile gathering
    # into the next, sent when it is answered (group commit). For a store whose batches queue for
    # one thread anyway (SQLite): each batch costs that thread a transaction and the GIL back from
    # the loop at every statement, so eight small batches in its queue cost about eight times one
    # of their calls together (docs/performance.md)
    one_batch_at_a_time = False

    def __init__(self) -> None:
        # the operations waiting for the end of the current turn of each event loop using this store
        # (one_batch_at_a_time: or for the answer of the batch on its way)
        self._batches: dict[asyncio.AbstractEventLoop, _Batch] = {}
        self._flushing: set[asyncio.Task[None]] = set()  # batches on their way (kept: a task needs a reference)
        # one_batch_at_a_time: each loop's batch on its way, until it is answered or its deadline passes
        self._sending: dict[asyncio.AbstractEventLoop, _Batch] = {}
        # the breaker of the awaitable calls: after a connection failure (``_failed``), the calls
        # fail at once until ``_open_until`` (time.monotonic()); then one call goes to the store
        # (the probe), the others failing at once until it answers or its deadline passes
        self._failure: str | None = None  # why the connection failed, until a call is answered again
        self._open_until = 0.0
        self._log_next = 0.0  # time.monotonic() of the next StoreUnavailable logged
        self._unlogged = 0  # the failures since the last one logged

    # ------------------------------------------------------------ games in progress

    def load_game(self, player: str, board: str) -> GameRecord | None:
        """The game ``player`` has on ``board``, or None (never saved, or expired)."""
        return self._run(self._load_game_op(as_key(player, "player"), as_key(board, "board")))  # type: ignore[no-any-return]

    async def aload_game(self, player: str, board: str) -> GameRecord | None:
        """``load_game`` on an event loop."""
        return await self._arun(self._load_game_op(as_key(player, "player"), as_key(board, "board")))  # type: ignore[no-any-return]

    def save_game(
        self,
        player: str,
        board: str,
        expected: int,
        data: bytes,
        ttl: int,
        previous: bytes | None = None,
        result: Result | None = None,
        play: Play | None = None,
    ) -> bool:
        """Compare-and-set: store ``data`` as version ``expected + 1`` if the stored version is
        ``expected`` (0: no game stored yet) and, when ``previous`` is given, the stored data is
        ``previous``; True if stored, False if another writer got there first. The game is kept
        ``ttl`` seconds after this save.

        ``previous`` lets a caller that knows the game (from a signed token) write without reading
        it first: one round trip, and no write on a game that is not exactly the one it knows.
        ``result``: ``(key, data)``, the player's result recorded with this save in one atomic
        step (write-once per key, as ``record_player_result``), only if the save is stored;
        ``play``: ``(key, data, counts, fields, ttl)``, a play record likewise (as ``record_play``)."""
        return self._run(self._save_op(_checked_save(player, board, expected, data, ttl, previous, result, play)))  # type: ignore[no-any-return]

    async def asave_game(
        self,
        player: str,
        board: str,
        expected: int,
        data: bytes,
        ttl: int,
        previous: bytes | None = None,
        result: Result | None = None,
        play: Play | None = None,
    ) -> bool:
        """``save_game`` on an event loop: the saves of one turn of the loop are written together
        when the turn ends (each still its own compare-and-set, in the order asked), so a busy
        server pays one commit or round trip for many guesses."""
        return await self._arun(  # type: ignore[no-any-return]
            self._save_op(_checked_save(player, board, expected, data, ttl, previous, result, play))
        )

    save_game_batched = asave_game  # its name before every call had an awaitable form

    # ------------------------------------------------------------ spent tokens

    def spend(self, kind: str, jti: str, exp: int) -> bool:
        """Mark token ``jti`` of ``kind`` spent: True the first time, False ever after (the record
        is kept until ``exp``, the token's own expiry in UNIX seconds)."""
        return self._run(self._spend_op(as_key(kind, "kind"), as_key(jti, "jti"), as_count(exp, "exp", 0)))  # type: ignore[no-any-return]

    async def aspend(self, kind: str, jti: str, exp: int) -> bool:
        """``spend`` on an event loop."""
        return await self._arun(self._spend_op(as_key(kind, "kind"), as_key(jti, "jti"), as_count(exp, "exp", 0)))  # type: ignore[no-any-return]

    # ------------------------------------------------------------ published boards

    def publish_board(self, key: str, data: bytes) -> bytes:
        """Write-once: store ``data`` under ``key`` unless a value is there; return the stored value
        (``data`` for the first writer, the first writer's value for everyone after)."""
        return self._run(self._put_once_op("board", as_key(key, "key"), as_value(data)))  # type: ignore[no-any-return]

    async def apublish_board(self, key: str, data: bytes) -> bytes:
        """``publish_board`` on an event loop."""
        return await self._arun(self._put_once_op("board", as_key(key, "key"), as_value(data)))  # type: ignore[no-any-return]

    def published_board(self, key: str) -> bytes | None:
        """The board published under ``key``, or None."""
        return self._run(self._get_once_op("board", as_key(key, "key")))  # type: ignore[no-any-return]

    async def apublished_board(self, key: str) -> bytes | None:
        """``published_board`` on an event loop."""
        return await self._arun(self._get_once_op("board", as_key(key, "key")))  # type: ignore[no-any-return]

    # ------------------------------------------------------------ results

    def record_result(self, key: str, data: bytes) -> bytes:
        """Write-once, like ``publish_board``: the first result recorded under ``key`` is kept for good."""
        return self._run(self._put_once_op("result", as_key(key, "key"), as_value(data)))  # type: ignore[no-any-return]

    def result(self, key: str) -> bytes | None:
        """The result recorded under ``key``, or None."""
        return self._run(self._get_once_op("result", as_key(key, "key")))  # type: ignore[no-any-return]

    async def aresult(self, key: str) -> bytes | None:
        """``result`` on an event loop."""
        return await self._arun(self._get_once_op("result", as_key(key, "key")))  # type: ignore[no-any-return]

    def record_verified(
        self,
        kind: str,
        jti: str,
        exp: int,
        key: str,
        data: bytes,
        player: str | None = None,
        result: Result | None = None,
        play: Play | None = None,
    ) -> bool:
        """One atomic step: spend token ``jti`` (as ``spend``), record ``data`` as the result under
        ``key`` (as ``record_result``), given ``player`` the player's ``result`` ``(key, data)``
        (as ``record_player_result``) and, given ``play``, the play record ``(key, data, counts,
        fields, ttl)`` (as ``record_play``). True if all were written; False, writing nothing, if
        the token was spent or ``key`` has a result already."""
        return self._run(self._verified_op(_checked_verified(kind, jti, exp, key, data, player, result, play)))  # type: ignore[no-any-return]

    async def arecord_verified(
        self,
        kind: str,
        jti: str,
        exp: int,
        key: str,
        data: bytes,
        player: str | None = None,
        result: Result | None = None,
        play: Play | None = None,
    ) -> bool:
        """``record_verified`` on an event loop."""
        return await self._arun(  # type: ignore[no-any-return]
            self._verified_op(_checked_verified(kind, jti, exp, key, data, player, result, play))
        )

    # ------------------------------------------------------------ a player's results

    def record_player_result(self, player: str, key: str, data: bytes) -> bytes:
        """Write-once per (player, key), like ``record_result``: the first result recorded is kept
        for good and returned to every later writer."""
        return self._run(self._put_player_result_op(as_key(player, "player"), as_key(key, "key"), as_value(data)))  # type: ignore[no-any-return]

    async def arecord_player_result(self, player: str, key: str, data: bytes) -> bytes:
        """``record_player_result`` on an event loop."""
        return await self._arun(  # type: ignore[no-any-return]
            self._put_player_result_op(as_key(player, "player"), as_key(key, "key"), as_value(data))
        )

    def player_results(self, player: str) -> dict[str, bytes]:
        """Every result recorded for ``player``, by key (empty for a player without one)."""
        return self._run(self._player_results_op(as_key(player, "player")))  # type: ignore[no-any-return]

    async def aplayer_results(self, player: str) -> dict[str, bytes]:
        """``player_results`` on an event loop."""
        return await self._arun(self._player_results_op(as_key(player, "player")))  # type: ignore[no-any-return]

    # ------------------------------------------------------------ play records

    def record_play(self, key: str, data: bytes, counts: str, fields: tuple[str, ...], ttl: int) -> bool:
        """One atomic step, write-once per ``key``: keep the play record ``data`` for ``ttl``
        seconds and add 1 to each of ``fields`` in the counter set ``counts`` (kept as long);
        True if recorded, False (nothing written) if ``key`` was recorded already."""
        return self._run(self._record_play_op(_checked_play(key, data, counts, fields, ttl)))  # type: ignore[no-any-return]

    async def arecord_play(self, key: str, data: bytes, counts: str, fields: tuple[str, ...], ttl: int) -> bool:
        """``record_play`` on an event loop (in the same batch as the turn's other calls)."""
        return await self._arun(self._record_play_op(_checked_play(key, data, counts, fields, ttl)))  # type: ignore[no-any-return]

    def play_counts(self, counts: str) -> dict[str, int]:
        """The counter set ``counts``: field -> count (empty if none was recorded, or expired)."""
        return self._run(self._play_counts_op(as_key(counts, "counts")))  # type: ignore[no-any-return]

    async def aplay_counts(self, counts: str) -> dict[str, int]:
        """``play_counts`` on an event loop."""
        return await self._arun(self._play_counts_op(as_key(counts, "counts")))  # type: ignore[no-any-return]

    def play_records(self, chunk: int = 10_000) -> Iterator[bytes]:
        """Every play record kept, oldest first, read ``chunk`` at a time (memory stays bounded)."""
        cursor: Any = None
        while True:
            rows, cursor = self._run(self._play_page_op(cursor, as_count(chunk, "chunk", 1)))
            yield from rows
            if cursor is None:
                return

    # ------------------------------------------------------------ the connection

    def ping(self) -> None:
        """Return if the store answers within its timeout; StoreUnavailable otherwise."""
        self._run(self._ping_op())

    async def aping(self) -> None:
        """``ping`` on an event loop (a readiness check)."""
        await self._arun(self._ping_op())

    async def drain(self) -> None:
        """Wait until every awaitable call asked for so far has been written or has failed (a
        server's shutdown: no acknowledged save is left behind)."""
        while self._batches or self._flushing:
            await asyncio.sleep(0.001)

    @abstractmethod
    def close(self) -> None:
        """Release this process's connections (the store reopens them if used again)."""

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------ batches of an event loop

    async def _arun(self, op: Any) -> Any:
        """Run ``op`` with the other operations of this turn of the loop; its result, or
        StoreUnavailable when the batch fails or does not answer within ``timeout``."""
        if self._failure is not None:
            now = time.monotonic()
            if now < self._open_until:  # no batch, no timer: a failing request costs no more than an answered one
                raise self._refused_at_once(now)
            self._open_until = now + self.timeout  # this call is the probe: the others wait for its answer
        loop = asyncio.get_running_loop()
        batch = self._batches.get(loop)
        if batch is None:
            # one deadline for the whole batch, set at its first call: every call of it is asked
            # this turn, so each is answered within ``timeout`` of its asking (a timer per call
            # cost a request more than its share of the store's work)
            batch = self._batches[loop] = _Batch()
            batch.deadline = loop.call_later(self.timeout, self._expire, batch)
            loop.call_soon(self._flush, loop)  # after every callback this turn already holds
        done: asyncio.Future[Any] = loop.create_future()
        batch.calls.append((op, done))
        try:
            return await done
        except StoreUnavailable as exc:
            self._log_failure(exc, time.monotonic())
            raise

    def _refused_at_once(self, now: float) -> StoreUnavailable:
        """The failure of a call the open breaker refuses, logged. Made here and raised by the
        caller as it is returned: bound to a name of the raising frame, it would hold the
        traceback that holds that frame, a reference cycle per failing request (a young
        collection's work, then a full one's, while the store is down: docs/hardening.md)."""
        exc = StoreUnavailable(self._unavailable(f"{self._failure} in the last {PAUSE_AFTER_FAILURE:g} s"))
        self._log_failure(exc, now)
        return exc

    def _log_failure(self, exc: StoreUnavailable, now: float) -> None:
        """Log ``exc`` if no failure was logged in the last LOG_EVERY seconds, else count it (the
        next line logged says how many it left out). Called in the request's context: the log
        line names its request."""
        if now < self._log_next:
            self._unlogged += 1
            return
        more, self._unlogged, self._log_next = self._unlogged, 0, now + LOG_EVERY
        log.error("%s%s", exc, f" (and {more} more store failures not logged)" if more else "")

    def _failed(self, why: str) -> None:
        """The store's connection failed (``why``): the awaitable calls of the next
        PAUSE_AFTER_FAILURE seconds fail at once, then one call tries the store again."""
        self._failure, self._open_until = why, time.monotonic() + PAUSE_AFTER_FAILURE

    def _expire(self, batch: _Batch) -> None:
        """A batch's deadline: every call of it still waiting gets StoreUnavailable (what the store
        writes for them later stands, as for a request that gave up). A batch on its way
        (one_batch_at_a_time) holds the one gathering behind it no longer: that one goes now."""
        for _, done in batch.calls:
            if not done.done():
                done.set_exception(StoreUnavailable(self._unavailable(f"no answer within {self.timeout:g} s")))
        for loop, sending in list(self._sending.items()):
            if sending is batch:  # it may never be answered
                del self._sending[loop]
                if loop in self._batches:
                    self._flush(loop)

    def _flush(self, loop: asyncio.AbstractEventLoop) -> None:
        """Send the loop's batch (one_batch_at_a_time: unless one is on its way, whose answer sends it)."""
        if loop in self._sending:
            return
        batch = self._batches.pop(loop, None)
        if batch is None:  # sent already: by the answer of the one before it, in the turn it was asked
            return
        if self.one_batch_at_a_time:
            self._sending[loop] = batch
        task = loop.create_task(self._answer(batch, loop))
        self._flushing.add(task)
        task.add_done_callback(self._flushing.discard)

    async def _answer(self, batch: _Batch, loop: asyncio.AbstractEventLoop) -> None:
        """Write a batch, then answer each waiting request (a request that gave up or passed its
        deadline meanwhile is skipped: what was written for it stands); then send the batch that
        gathered meanwhile, if one did (one_batch_at_a_time)."""
        start = time.perf_counter()
        try:
            results = await self._execute([op for op, _ in batch.calls])
        except Exception as exc:  # StoreUnavailable, most likely: every operation of the batch failed alike
            # without the traceback, which holds this frame, whose ``results`` would hold it: a cycle
            results = [exc.with_traceback(None)] * len(batch.calls)
        finally:
            if self._sending.get(loop) is batch:
                del self._sending[loop]
                if loop in self._batches:
                    self._flush(loop)
        if batch.deadline is not None:
            batch.deadline.cancel()
        ok = not (results and isinstance(results[0], StoreUnavailable))
        if ok and self._failure is not None:  # the probe was answered: the breaker closes
            self._failure, self._open_until = None, 0.0
        for observe in batch_observers:
            observe(time.perf_counter() - start, ok, len(batch.calls))
        for (_, done), outcome in zip(batch.calls, results, strict=True):
            if done.done():
                continue
            if isinstance(outcome, BaseException):
                done.set_exception(outcome)
            else:
                done.set_result(outcome)

    def _unavailable(self, why: str) -> str:
        """A StoreUnavailable message: which store, and why."""
        return f"the {self.kind or 'game'} store {self!r} is unavailable: {why}"

    # ------------------------------------------------------------ what an implementation writes

    @abstractmethod
    def _run(self, op: Any) -> Any:
        """Run one operation now, in this thread: its result (or raise)."""

    @abstractmethod
    async def _execute(self, ops: list[Any]) -> list[Any]:
        """Run a turn's operations together, without blocking the loop: each one's result or
        exception, in order (raise StoreUnavailable if the store does not answer)."""

    @abstractmethod
    def _load_game_op(self, player: str, board: str) -> Any: ...

    @abstractmethod
    def _save_op(self, save: Save) -> Any: ...

    @abstractmethod
    def _spend_op(self, kind: str, jti: str, exp: int) -> Any: ...

    @abstractmethod
    def _put_once_op(self, table: str, key: str, data: bytes) -> Any: ...

    @abstractmethod
    def _get_once_op(self, table: str, key: str) -> Any: ...

    @abstractmethod
    def _verified_op(self, verified: Verified) -> Any: ...

    @abstractmethod
    def _put_player_result_op(self, player: str, key: str, data: bytes) -> Any: ...

    @abstractmethod
    def _player_results_op(self, player: str) -> Any: ...

    @abstractmethod
    def _ping_op(self) -> Any: ...

    @abstractmethod
    def _record_play_op(self, play: Play) -> Any: ...

    @abstractmethod
    def _play_counts_op(self, counts: str) -> Any: ...

    @abstractmethod
    def _play_page_op(self, cursor: Any, chunk: int) -> Any:
        """(up to ``chunk`` records after ``cursor`` (None: from the first), the next cursor or None)."""


def _checked_result(result: Any) -> Result | None:
    if result is None:
        return None
    if not isinstance(result, tuple) or len(result) != 2:
        raise TypeError(f"result must be a (key, data) tuple or None, not {type(result).__name__}")
    return as_key(result[0], "result key"), as_value(result[1], "result data")


def _checked_save(
    player: str, board: str, expected: int, data: bytes, ttl: int, previous: bytes | None, result: Any, play: Any
) -> Save:
    return (
        as_key(player, "player"),
        as_key(board, "board"),
        as_count(expected, "expected", 0),
        as_value(data),
        as_count(ttl, "ttl", 1),
        None if previous is None else as_value(previous, "previous"),
        _checked_result(result),
        _checked_play_tuple(play),
    )


def _checked_verified(
    kind: str, jti: str, exp: int, key: str, data: bytes, player: str | None, result: Any, play: Any
) -> Verified:
    if (player is None) != (result is None):
        raise ValueError("give both player and result, or neither")
    return (
        as_key(kind, "kind"),
        as_key(jti, "jti"),
        as_count(exp, "exp", 0),
        as_key(key, "key"),
        as_value(data),
        None if player is None else as_key(player, "player"),
        _checked_result(result),
        _checked_play_tuple(play),
    )


MAX_PLAY_FIELDS = 16  # counters one play bumps (the day's aggregate of a board names a handful)


def _checked_play_tuple(play: Any) -> Play | None:
    """A play record given to another call (save_game, record_verified): checked as record_play's."""
    if play is None:
        return None
    if not isinstance(play, tuple) or len(play) != 5:
        raise TypeError(f"play must be a (key, data, counts, fields, ttl) tuple or None, not {type(play).__name__}")
    return _checked_play(*play)


def _checked_play(key: str, data: bytes, counts: str, fields: Any, ttl: int) -> Play:
    if not isinstance(fields, tuple) or len(fields) > MAX_PLAY_FIELDS:
        raise TypeError(f"fields must be a tuple of at most {MAX_PLAY_FIELDS} counter names")
    return (
        as_key(key, "key"),
        as_value(data),
        as_key(counts, "counts"),
        tuple(as_key(f, "field") for f in fields),
        as_count(ttl, "ttl", 1),
    )
