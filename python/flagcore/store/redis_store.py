"""``RedisStore``: the store in a Redis database, shared by every server of a deployment.

Needs the ``redis`` extra (``pip install "flagcore[redis]"``: redis-py with its hiredis parser).
Each operation is one atomic Redis command or Lua script, so any number of processes and
machines can share it: a new game is ``SET NX``, a game's compare-and-set a script that checks
the version (and the data, when given) and writes in one step (with the player's result when the
save ends a game), a spend ``SET NX`` with the token's expiry, a write-once a script that returns
the value already there or writes the new one, a verified Puzzle result one script that spends
the token and writes both results or nothing.

Two clients: the plain calls use one connection per thread (redis-py's synchronous one); an
event loop's calls (``aload_game``, ...) use redis-py's asyncio connections, each turn's calls in
one pipeline, so a hung Redis never blocks the loop: each call answers StoreUnavailable within
``timeout`` and requests that need no store go on as usual.

Faults: a plain call waits at most ``timeout`` seconds for the server, and a connection that
broke (Redis restarted) is retried once on a new connection, so a call raises StoreUnavailable
within twice ``timeout`` and the store works again by itself once Redis is back. An awaitable
call does the same within ``timeout``: a kept asyncio connection found broken drops every kept
one and the call goes once more on a new connection; a new connection refused opens the store's
breaker (``Store``): the calls of the next PAUSE_AFTER_FAILURE seconds fail at once (no socket,
timer or task each), then one call tries Redis again while the others go on failing at once, so
the store is tried again at most that long after Redis is back. Games and spent
tokens expire in Redis (``EXPIRE``); boards and results (a player's too) are kept for good. Run
Redis with persistence (AOF or RDB) if they must survive a restart of Redis itself.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import textwrap
import threading
import time
from collections.abc import Callable
from typing import Any, NamedTuple

from ..errors import StoreUnavailable
from .base import DEFAULT_TIMEOUT, PAUSE_AFTER_FAILURE, GameRecord, Play, Save, Store, Verified


def _play_record(key: int | str, arg: int) -> tuple[str, str]:
    """Lua of a play record, the one text of it in every script that writes one: (the SET NX of
    its write-once mark, which is true when it was not there; the writes of the record, to run
    only then). Its four keys (the mark, the day's list of records, the set of days, the counter
    set) begin at KEYS[key], ``key`` a number or a Lua expression (a game's save places them after
    the keys it may have); its arguments at ARGV[arg]: seconds to keep, the record, the day's
    number, then the fields to bump."""

    def k(i: int) -> str:
        return str(key + i) if isinstance(key, int) else (key if i == 0 else f"{key} + {i}")

    ttl = f"ARGV[{arg}]"
    mark = f"redis.call('SET', KEYS[{k(0)}], '1', 'NX', 'EX', {ttl})"
    writes = (
        f"redis.call('RPUSH', KEYS[{k(1)}], ARGV[{arg + 1}])\n"
        f"redis.call('EXPIRE', KEYS[{k(1)}], tonumber({ttl}) + 86400)\n"
        f"redis.call('SADD', KEYS[{k(2)}], ARGV[{arg + 2}])\n"
        f"for i = {arg + 3}, #ARGV do redis.call('HINCRBY', KEYS[{k(3)}], ARGV[i], 1) end\n"
        f"redis.call('EXPIRE', KEYS[{k(3)}], {ttl})\n"
    )
    return mark, writes


def _with_play(key: str, arg: int) -> str:
    """The end of a script that saves and may add a play record (its keys after KEYS[key - 1])."""
    mark, writes = _play_record(key, arg)
    return f"if #KEYS > {key} and {mark} then\n{textwrap.indent(writes, '  ')}end\nreturn 1\n"


# A game is one string, b"<version>:<data>", so a new game is one plain SET NX (a game's first
# guess, the most frequent write) and every later one this script.
# KEYS[1] the game, then the player's results (with a player's result) and the four keys of
# _RECORD_PLAY (with a play record); ARGV: expected version, data, ttl, "1" and the expected data
# when the caller gives it ("0", "" otherwise), "1" and the result's key and value with a result
# ("0", "", "" otherwise), then with a play record _RECORD_PLAY's ARGV. 1 if written, 0 if the
# game is not the one expected. A script is not rolled back by an error, so every check (the
# results' type too) comes before the first write; the play's part repeats _RECORD_PLAY.
_SAVE_GAME = """
local p = 2
if ARGV[6] == '1' then
  if redis.call('TYPE', KEYS[2]).ok ~= 'hash' and redis.call('EXISTS', KEYS[2]) == 1 then
    return redis.error_reply('WRONGTYPE the player results key holds another type')
  end
  p = 3
end
local old = redis.call('GET', KEYS[1])
local v = 0
if old then
  local colon = string.find(old, ':', 1, true)
  v = tonumber(string.sub(old, 1, colon - 1))
  if ARGV[4] == '1' and string.sub(old, colon + 1) ~= ARGV[5] then return 0 end
end
if v ~= tonumber(ARGV[1]) then return 0 end
redis.call('SET', KEYS[1], (v + 1) .. ':' .. ARGV[2], 'EX', ARGV[3])
if ARGV[6] == '1' then redis.call('HSETNX', KEYS[2], ARGV[7], ARGV[8]) end
""" + _with_play("p", 9)
# KEYS[1] the record; ARGV[1] the value. The value already there, or nil after writing ARGV[1].
_PUT_ONCE = """
local old = redis.call('GET', KEYS[1])
if old then return old end
redis.call('SET', KEYS[1], ARGV[1])
return false
"""
# KEYS[1] a player's results (a hash); ARGV[1] the result's key, ARGV[2] its value. As _PUT_ONCE.
_PUT_PLAYER_RESULT = """
local old = redis.call('HGET', KEYS[1], ARGV[1])
if old then return old end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return false
"""
# KEYS[1] the spent token, KEYS[2] the result, then the player's results (with a player's result)
# and the four keys of _RECORD_PLAY (with a play record); ARGV: the token's seconds to live, the
# result, "1" and the player's result key and value ("0", "", "" without), then with a play record
# _RECORD_PLAY's ARGV. 1 if all written, 0 (nothing written) if the token was spent or the result
# is there. The play's part is _RECORD_PLAY's (_play_record: a script cannot call another).
_VERIFIED = """
local p = 3
if ARGV[3] == '1' then
  if redis.call('TYPE', KEYS[3]).ok ~= 'hash' and redis.call('EXISTS', KEYS[3]) == 1 then
    return redis.error_reply('WRONGTYPE the player results key holds another type')
  end
  p = 4
end
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
if not redis.call('SET', KEYS[1], '1', 'NX', 'EX', ARGV[1]) then return 0 end
redis.call('SET', KEYS[2], ARGV[2])
if ARGV[3] == '1' then redis.call('HSETNX', KEYS[3], ARGV[4], ARGV[5]) end
""" + _with_play("p", 6)
# KEYS[1] the play's write-once mark, KEYS[2] the day's list of records, KEYS[3] the set of days,
# KEYS[4] the counter set; ARGV: seconds to keep, the record, the day's number, the fields to bump.
# 1 if recorded, 0 (nothing written) if the mark is there.
_MARK, _WRITES = _play_record(1, 1)
_RECORD_PLAY = f"if not {_MARK} then return 0 end\n{_WRITES}return 1\n"
_SCRIPTS = {
    hashlib.sha1(s.encode()).hexdigest(): s
    for s in (_SAVE_GAME, _PUT_ONCE, _PUT_PLAYER_RESULT, _VERIFIED, _RECORD_PLAY)
}
_SHA = {source: sha for sha, source in _SCRIPTS.items()}
# Replies of a Redis that is up but cannot serve yet (loading its data, a read-only replica, ...)
_UNAVAILABLE_REPLIES = ("LOADING", "READONLY", "MISCONF", "MASTERDOWN", "BUSY", "TRYAGAIN", "CLUSTERDOWN")
MAX_ASYNC_CONNECTIONS = 16  # per event loop: batches in flight at once (a hung Redis holds each one to its timeout)
REFUSED_PAUSE = PAUSE_AFTER_FAILURE  # its name here before the breaker moved to Store

Command = tuple[str | bytes | int, ...]


class Op(NamedTuple):
    """One call: its commands, and what its result is made from their replies."""

    commands: list[Command]
    decode: Callable[[list[Any]], Any]


def _driver_info() -> dict[str, Any]:
    """The name and version a connection tells Redis (CLIENT SETINFO), made once: redis-py 8 reads
    its version from the package's metadata for every new connection otherwise (about 2 ms of CPU,
    paid by every request while Redis refuses connections). Older redis-py read it once anyway."""
    try:
        from redis.driver_info import resolve_driver_info
    except ImportError:
        return {}
    return {"driver_info": resolve_driver_info()}


def _pack(commands: list[Command]) -> bytes:
    """``commands`` in Redis's protocol (RESP), as redis-py packs them (a str in UTF-8, an int in
    decimal), in one bytes: redis-py's own packing cost a guess more CPU than Redis's answer."""
    parts = []
    for command in commands:
        parts.append(b"*%d\r\n" % len(command))
        for arg in command:
            data = arg.encode() if isinstance(arg, str) else arg if isinstance(arg, bytes) else b"%d" % arg
            parts.append(b"$%d\r\n%s\r\n" % (len(data), data))
    return b"".join(parts)


def _script(source: str, keys: list[str], *args: str | bytes | int) -> Command:
    """A script's command, by its SHA1 (the pipelines send the source when Redis lacks it)."""
    return ("EVALSHA", _SHA[source], len(keys), *keys, *args)


class RedisStore(Store):
    """The store in the Redis database at ``url`` (``redis://host:port/db``, ``rediss://`` for TLS).

    timeout: seconds to wait for Redis per attempt (connect, or a reply); a plain call makes at
        most two attempts, so it raises StoreUnavailable within twice this; an awaitable call
        raises it within this.
    prefix: the start of every key this store writes (several deployments can share a Redis).
    """

    kind = "redis"

    def __init__(
        self,
        url: str,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        prefix: str = "flagcore:",
        clock: Callable[[], float] = time.time,
    ) -> None:
        try:
            import redis
            import redis.asyncio
            from redis.backoff import NoBackoff
            from redis.retry import Retry
        except ImportError:
            raise StoreUnavailable('a Redis store needs the redis extra: pip install "flagcore[redis]"') from None
        super().__init__()
        self.url = url
        self.timeout = float(timeout)
        self.prefix = prefix
        self._clock = clock
        # the pool only parses the URL (host, port, db, TLS, password) into connection settings;
        # a connection makes one attempt (``_pipeline`` decides what to try again)
        settings = {"socket_timeout": self.timeout, "socket_connect_timeout": self.timeout, **_driver_info()}
        pool = redis.ConnectionPool.from_url(url, retry=Retry(NoBackoff(), 0), **settings)
        kwargs = pool.connection_kwargs
        self._where = f"{kwargs.get('host', 'localhost')}:{kwargs.get('port', 6379)}/{kwargs.get('db', 0)}"
        # redis-py's connections are untyped: Any here and in _connection
        self._new_connection: Callable[[], Any] = lambda: pool.connection_class(**kwargs)
        # no retry given: one attempt, and no copy of a Retry per connection (a new connection per
        # request while Redis refuses them)
        # no socket_timeout on an event loop's connections: ``_apipeline`` bounds each exchange as a
        # whole, and redis-py's own timeout would cost a timer per reply and a task per write
        asettings = {"socket_connect_timeout": self.timeout, **_driver_info()}
        apool = redis.asyncio.ConnectionPool.from_url(url, **asettings)
        self._new_async_connection: Callable[[], Any] = lambda: apool.connection_class(**apool.connection_kwargs)
        self._local = threading.local()
        self._lock = threading.Lock()
        self._connections: list[Any] = []
        # per event loop: (idle asyncio connections, a semaphore bounding those in use)
        self._async: dict[asyncio.AbstractEventLoop, tuple[list[Any], asyncio.Semaphore]] = {}
        self._down = (redis.ConnectionError, redis.TimeoutError, OSError)
        self._broken = (redis.ConnectionError, ConnectionError)  # redis-py's, or the socket's own (reset, refused)
        self._reply_error = redis.ResponseError
        self._no_script = redis.exceptions.NoScriptError

    def __repr__(self) -> str:
        return f"RedisStore('redis://{self._where}')"

    def _unavailable(self, why: str) -> str:
        return f"the Redis store at {self._where} is unavailable: {why}"

    def _connection(self) -> Any:
        """This thread's connection (a new one after a fork: a socket never crosses processes).
        Kept rather than taken from redis-py's pool at each call: the pool's checkout and the
        client's command machinery cost more CPU than the round trip itself."""
        held = getattr(self._local, "held", None)
        if held is not None and held[0] == os.getpid():
            return held[1]
        conn = self._new_connection()
        self._local.held = (os.getpid(), conn)
        with self._lock:
            self._connections.append(conn)
        return conn

    def _checked(self, replies: list[Any]) -> list[Any]:
        """StoreUnavailable when a reply says Redis cannot serve now (loading, read-only, ...)."""
        for reply in replies:
            if isinstance(reply, self._reply_error) and str(reply).startswith(_UNAVAILABLE_REPLIES):
                raise StoreUnavailable(self._unavailable(str(reply))) from reply
        return replies

    def _missing_scripts(self, replies: list[Any]) -> list[int]:
        """The places of the scripts Redis did not have (a new or restarted Redis): sent again by source."""
        return [i for i, reply in enumerate(replies) if isinstance(reply, self._no_script)]

    def _pipeline(self, commands: list[Command]) -> list[Any]:
        """Send ``commands`` in one write and read their replies in order (an error reply in its
        place, as the exception; a script Redis lacks sent again by its source); Redis down, slow
        or not ready becomes StoreUnavailable. A connection that broke (Redis restarted) is tried
        once more, reconnected; a timeout is not: the commands may have run, and the call has
        waited enough. Any failure drops the connection, so no late reply is read as another's."""
        conn = self._connection()
        for attempt in (1, 2):
            try:
                conn.send_packed_command([_pack(commands)])
                replies = []
                for _ in commands:
                    try:
                        replies.append(conn.read_response())
                    except self._reply_error as exc:
                        replies.append(exc)
            except self._down as exc:
                conn.disconnect()
                if attempt == 2 or not isinstance(exc, self._broken):
                    raise StoreUnavailable(self._unavailable(str(exc))) from exc
                continue
            except BaseException:
                conn.disconnect()
                raise
            missing = self._missing_scripts(replies)
            if missing:
                again = self._pipeline([("EVAL", _SCRIPTS[str(commands[i][1])], *commands[i][2:]) for i in missing])
                for i, reply in zip(missing, again, strict=True):
                    replies[i] = reply
            return self._checked(replies)
        raise AssertionError("unreachable")  # the loop returns or raises

    async def _apipeline(self, commands: list[Command]) -> list[Any]:
        """``_pipeline`` on an asyncio connection of this loop, within ``timeout``."""
        loop = asyncio.get_running_loop()
        held = self._async.get(loop)
        if held is None:
            held = self._async[loop] = ([], asyncio.Semaphore(MAX_ASYNC_CONNECTIONS))
        idle, slots = held
        try:
            async with asyncio.timeout(self.timeout), slots:
                replies = await self._aexchange(idle, commands)
        except TimeoutError:
            raise StoreUnavailable(self._unavailable(f"no answer within {self.timeout:g} s")) from None
        except self._down as exc:
            if not idle and isinstance(exc, self._broken):  # a new connection refused (or broken at once)
                self._failed("it refused a connection")
            raise StoreUnavailable(self._unavailable(str(exc))) from exc
        missing = self._missing_scripts(replies)
        if missing:
            again = await self._apipeline([("EVAL", _SCRIPTS[str(commands[i][1])], *commands[i][2:]) for i in missing])
            for i, reply in zip(missing, again, strict=True):
                replies[i] = reply
        return self._checked(replies)

    async def _aexchange(self, idle: list[Any], commands: list[Command]) -> list[Any]:
        """Send ``commands`` on a kept connection of this loop (``idle``), else a new one, and read
        their replies. A kept connection found broken (Redis restarted, or dropped it, since it was
        last used) means every kept one is: they are all dropped and the commands go once more, on
        a new connection, so the first request after Redis is back gets its answer rather than a
        503 per stale connection. (The broken one failed before any reply: as ``_pipeline`` does,
        a command that ran anyway finds its compare-and-set or write-once already done.) A
        timeout, a cancel or a new connection's failure is never tried again."""
        while True:
            kept = bool(idle)
            conn = idle.pop() if kept else self._new_async_connection()
            try:
                await conn.send_packed_command([_pack(commands)], check_health=False)
                replies = []
                for _ in commands:
                    try:
                        replies.append(await conn.read_response())
                    except self._reply_error as exc:
                        replies.append(exc)
            except BaseException as exc:
                # a timeout, a broken socket, a cancel: no late reply may ever be read as another's
                await conn.disconnect(nowait=True)
                if kept and isinstance(exc, self._broken):
                    stale, idle[:] = idle[:], []
                    for other in stale:
                        await other.disconnect(nowait=True)
                    continue
                raise
            idle.append(conn)
            return replies

    def _run(self, op: Op) -> Any:
        replies = self._pipeline(op.commands) if op.commands else []
        for reply in replies:
            if isinstance(reply, self._reply_error):
                raise reply
        return op.decode(replies)

    async def _execute(self, ops: list[Op]) -> list[Any]:
        commands = [command for op in ops for command in op.commands]
        replies = await self._apipeline(commands) if commands else []
        results: list[Any] = []
        start = 0
        for op in ops:
            mine = replies[start : start + len(op.commands)]
            start += len(op.commands)
            error = next((r for r in mine if isinstance(r, self._reply_error)), None)
            results.append(error if error is not None else op.decode(mine))
        return results

    def close(self) -> None:
        """Close this process's connections to Redis (a later call opens new ones)."""
        with self._lock:
            connections, self._connections = self._connections, []
            self._async = {}  # an event loop's connections close with the loop
        for conn in connections:
            conn.disconnect()
        self._local = threading.local()

    async def aclose(self) -> None:
        """Close this event loop's asyncio connections (a server's shutdown)."""
        held = self._async.pop(asyncio.get_running_loop(), None)
        for conn in held[0] if held else ():
            await conn.disconnect()

    # ------------------------------------------------------------ keys

    def _game_key(self, player: str, board: str) -> str:
        # the player's length first, so no (player, board) pair can spell another's key
        return f"{self.prefix}game:{len(player)}:{player}:{board}"

    def _player_results_key(self, player: str) -> str:
        return f"{self.prefix}player-results:{player}"  # one hash per player, kept for good

    def _spent_key(self, kind: str, jti: str) -> str:
        return f"{self.prefix}spent:{len(kind)}:{kind}:{jti}"

    # ------------------------------------------------------------ operations

    def _ping_op(self) -> Op:
        return Op([("PING",)], lambda replies: None)

    def _load_game_op(self, player: str, board: str) -> Op:
        def decode(replies: list[Any]) -> GameRecord | None:
            if replies[0] is None:
                return None
            version, _, data = bytes(replies[0]).partition(b":")
            return GameRecord(int(version), data)

        return Op([("GET", self._game_key(player, board))], decode)

    def _save_op(self, save: Save) -> Op:
        player, board, expected, data, ttl, previous, result, play = save
        key = self._game_key(player, board)
        if expected == 0 and result is None and play is None:  # written only if there is none (an expired one is gone)
            return Op([("SET", key, b"1:" + data, "NX", "EX", ttl)], lambda replies: replies[0] is not None)
        keys = [key]
        args: tuple[str | bytes | int, ...] = (
            (expected, data, ttl, b"0", b"")
            if previous is None
            else (
                expected,
                data,
                ttl,
                b"1",
                previous,
            )
        )
        if result is None:
            args += (b"0", b"", b"")
        else:
            keys.append(self._player_results_key(player))
            args += (b"1", *result)
        if play is not None:
            play_keys, play_args = self._play_command(play)
            keys += play_keys
            args += play_args
        return Op([_script(_SAVE_GAME, keys, *args)], lambda replies: bool(replies[0]))

    def _spend_op(self, kind: str, jti: str, exp: int) -> Op:
        ttl = exp - int(self._clock())
        if ttl <= 0:
            return Op([], lambda replies: False)  # an expired token is never spent (its record may be gone already)
        return Op([("SET", self._spent_key(kind, jti), b"1", "NX", "EX", ttl)], lambda replies: replies[0] is not None)

    def _put_once_op(self, table: str, key: str, data: bytes) -> Op:
        command = _script(_PUT_ONCE, [f"{self.prefix}{table}:{key}"], data)
        return Op([command], lambda replies: data if replies[0] is None else bytes(replies[0]))

    def _get_once_op(self, table: str, key: str) -> Op:
        return Op(
            [("GET", f"{self.prefix}{table}:{key}")], lambda replies: None if replies[0] is None else bytes(replies[0])
        )

    def _verified_op(self, verified: Verified) -> Op:
        kind, jti, exp, key, data, player, result, play = verified
        ttl = exp - int(self._clock())
        if ttl <= 0:
            return Op([], lambda replies: False)
        keys = [self._spent_key(kind, jti), f"{self.prefix}result:{key}"]
        args: tuple[str | bytes | int, ...] = (ttl, data, b"0", b"", b"")
        if player is not None and result is not None:
            keys.append(self._player_results_key(player))
            args = (ttl, data, b"1", *result)
        if play is not None:
            play_keys, play_args = self._play_command(play)
            keys += play_keys
            args += play_args
        return Op([_script(_VERIFIED, keys, *args)], lambda replies: bool(replies[0]))

    def _put_player_result_op(self, player: str, key: str, data: bytes) -> Op:
        command = _script(_PUT_PLAYER_RESULT, [self._player_results_key(player)], key, data)
        return Op([command], lambda replies: data if replies[0] is None else bytes(replies[0]))

    def _player_results_op(self, player: str) -> Op:
        def decode(replies: list[Any]) -> dict[str, bytes]:
            reply = replies[0]
            # RESP2 answers [key, value, key, value, ...], RESP3 a map
            pairs = reply.items() if isinstance(reply, dict) else zip(reply[::2], reply[1::2], strict=True)
            return {bytes(k).decode(): bytes(v) for k, v in pairs}

        return Op([("HGETALL", self._player_results_key(player))], decode)

    # ------------------------------------------------------------ play records
    # the records of a day (UTC, by the store's clock) are one list, kept a day past the last
    # record's ttl; the set of days lists them in order, so a reader pages day by day

    def _play_command(self, play: Play) -> tuple[list[str], tuple[str | bytes | int, ...]]:
        """The keys and arguments of _RECORD_PLAY for a play record."""
        key, data, counts, fields, ttl = play
        day = int(self._clock()) // 86400
        keys = [
            f"{self.prefix}play:{key}",
            f"{self.prefix}plays:{day}",
            f"{self.prefix}play-days",
            f"{self.prefix}play-counts:{counts}",
        ]
        return keys, (ttl, data, day, *fields)

    def _record_play_op(self, play: Play) -> Op:
        keys, args = self._play_command(play)
        return Op([_script(_RECORD_PLAY, keys, *args)], lambda replies: bool(replies[0]))

    def _play_counts_op(self, counts: str) -> Op:
        def decode(replies: list[Any]) -> dict[str, int]:
            reply = replies[0]
            pairs = reply.items() if isinstance(reply, dict) else zip(reply[::2], reply[1::2], strict=True)
            return {bytes(k).decode(): int(v) for k, v in pairs}

        return Op([("HGETALL", f"{self.prefix}play-counts:{counts}")], decode)

    def _play_page_op(self, cursor: Any, chunk: int) -> Op:
        # cursor: (day, index in its list); the days come from the set, each read chunk by chunk
        if cursor is None:
            days_reply = self._run(Op([("SMEMBERS", f"{self.prefix}play-days")], lambda r: r[0]))
            days = sorted(int(d) for d in days_reply)
            if not days:
                return Op([], lambda replies: ([], None))
            cursor = (tuple(days), 0, 0)
        days, d, start = cursor

        def decode(replies: list[Any]) -> tuple[list[bytes], Any]:
            rows = [bytes(x) for x in replies[0]]
            if len(rows) == chunk:
                return rows, (days, d, start + chunk)
            return rows, ((days, d + 1, 0) if d + 1 < len(days) else None)

        return Op([("LRANGE", f"{self.prefix}plays:{days[d]}", start, start + chunk - 1)], decode)
