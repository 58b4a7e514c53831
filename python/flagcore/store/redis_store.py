"""``RedisStore``: the store in a Redis database, shared by every server of a deployment.

Needs the ``redis`` extra (``pip install "flagcore[redis]"``: redis-py with its hiredis parser).
Each operation is one atomic Redis command or Lua script, so any number of processes and
machines can share it: a new game is ``SET NX``, a game's compare-and-set a script that checks
the version (and the data, when given) and writes in one step, a spend ``SET NX`` with the
token's expiry, a write-once a script that returns the value already there or writes the new one.

Faults: a call waits at most ``timeout`` seconds for the server, and a connection that broke
(Redis restarted) is retried once on a new connection, so a call raises StoreUnavailable within
twice ``timeout`` and the store works again by itself once Redis is back. Games and spent tokens
expire in Redis (``EXPIRE``); boards and results (a player's too) are kept for good. Run Redis with persistence
(AOF or RDB) if they must survive a restart of Redis itself.
"""

from __future__ import annotations

import hashlib
import os
import threading
import time
from collections.abc import Callable
from typing import Any

from ..errors import StoreUnavailable
from .base import DEFAULT_TIMEOUT, GameRecord, Save, Store

# A game is one string, b"<version>:<data>", so a new game is one plain SET NX (a game's first
# guess, the most frequent write) and every later one this script.
# KEYS[1] the game; ARGV: expected version, data, ttl, and "1" and the expected data when the
# caller gives it. 1 if written, 0 if the game is not the one expected.
_SAVE_GAME = """
local old = redis.call('GET', KEYS[1])
if not old then return 0 end
local colon = string.find(old, ':', 1, true)
local v = tonumber(string.sub(old, 1, colon - 1))
if v ~= tonumber(ARGV[1]) then return 0 end
if ARGV[4] == '1' and string.sub(old, colon + 1) ~= ARGV[5] then return 0 end
redis.call('SET', KEYS[1], (v + 1) .. ':' .. ARGV[2], 'EX', ARGV[3])
return 1
"""
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
# Replies of a Redis that is up but cannot serve yet (loading its data, a read-only replica, ...)
_UNAVAILABLE_REPLIES = ("LOADING", "READONLY", "MISCONF", "MASTERDOWN", "BUSY", "TRYAGAIN", "CLUSTERDOWN")


class RedisStore(Store):
    """The store in the Redis database at ``url`` (``redis://host:port/db``, ``rediss://`` for TLS).

    timeout: seconds to wait for Redis per attempt (connect, or a reply); a call makes at most
        two attempts, so it raises StoreUnavailable within twice this.
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
        # a connection makes one attempt (``_command`` decides what to try again)
        pool = redis.ConnectionPool.from_url(
            url, socket_timeout=self.timeout, socket_connect_timeout=self.timeout, retry=Retry(NoBackoff(), 0)
        )
        kwargs = pool.connection_kwargs
        self._where = f"{kwargs.get('host', 'localhost')}:{kwargs.get('port', 6379)}/{kwargs.get('db', 0)}"
        # redis-py's connections are untyped: Any here and in _connection
        self._new_connection: Callable[[], Any] = lambda: pool.connection_class(**kwargs)
        self._local = threading.local()
        self._lock = threading.Lock()
        self._connections: list[Any] = []
        self._down = (redis.ConnectionError, redis.TimeoutError)
        self._broken = redis.ConnectionError
        self._reply_error = redis.ResponseError
        self._no_script = redis.exceptions.NoScriptError
        self._save_game_sha = hashlib.sha1(_SAVE_GAME.encode()).hexdigest()
        self._put_once_sha = hashlib.sha1(_PUT_ONCE.encode()).hexdigest()
        self._put_player_result_sha = hashlib.sha1(_PUT_PLAYER_RESULT.encode()).hexdigest()

    def __repr__(self) -> str:
        return f"RedisStore('redis://{self._where}')"

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

    def _command(self, *args: str | bytes | int) -> Any:
        """Run one Redis command on this thread's connection and return its reply (see ``_pipeline``);
        an error reply raises."""
        reply = self._pipeline([args])[0]
        if isinstance(reply, self._reply_error):
            raise reply
        return reply

    def _pipeline(self, commands: list[tuple[str | bytes | int, ...]]) -> list[Any]:
        """Send ``commands`` in one write and read their replies in order (an error reply in its
        place, as the exception); Redis down, slow or not ready becomes StoreUnavailable. A
        connection that broke (Redis restarted) is tried once more, reconnected; a timeout is not:
        the commands may have run, and the call has waited enough. Any failure drops the
        connection, so no late reply is read as another's."""
        conn = self._connection()
        for attempt in (1, 2):
            try:
                conn.send_packed_command(conn.pack_commands(commands))
                replies = []
                for _ in commands:
                    try:
                        replies.append(conn.read_response())
                    except self._reply_error as exc:
                        replies.append(exc)
            except self._down as exc:
                conn.disconnect()
                if attempt == 2 or not isinstance(exc, self._broken):
                    raise StoreUnavailable(f"the Redis store at {self._where} is unavailable: {exc}") from exc
                continue
            except BaseException:
                conn.disconnect()
                raise
            for reply in replies:
                if isinstance(reply, self._reply_error) and str(reply).startswith(_UNAVAILABLE_REPLIES):
                    raise StoreUnavailable(f"the Redis store at {self._where} is unavailable: {reply}") from reply
            return replies
        raise AssertionError("unreachable")  # the loop returns or raises

    def _script(self, sha: str, source: str, keys: int, *args: str | bytes | int) -> Any:
        """Run a Lua script by its SHA1 (one short command), sending its source when Redis does not
        have it yet (a new or restarted Redis)."""
        try:
            return self._command("EVALSHA", sha, keys, *args)
        except self._no_script:
            return self._command("EVAL", source, keys, *args)

    def ping(self) -> None:
        """Return if Redis answers within the timeout; StoreUnavailable otherwise."""
        self._command("PING")

    def close(self) -> None:
        """Close this process's connections to Redis (a later call opens new ones)."""
        with self._lock:
            connections, self._connections = self._connections, []
        for conn in connections:
            conn.disconnect()
        self._local = threading.local()

    # ------------------------------------------------------------ keys

    def _game_key(self, player: str, board: str) -> str:
        # the player's length first, so no (player, board) pair can spell another's key
        return f"{self.prefix}game:{len(player)}:{player}:{board}"

    # ------------------------------------------------------------ records

    def _load_game(self, player: str, board: str) -> GameRecord | None:
        value = self._command("GET", self._game_key(player, board))
        if value is None:
            return None
        version, _, data = bytes(value).partition(b":")
        return GameRecord(int(version), data)

    def _save_games(self, saves: list[Save]) -> list[bool]:
        # a new game (a game's first guess, the most frequent write) is a plain SET NX; a later
        # one the script, by its SHA1; all of them in one pipeline
        commands: list[tuple[str | bytes | int, ...]] = []
        for player, board, expected, data, ttl, previous in saves:
            key = self._game_key(player, board)
            if expected == 0:  # written only if there is none (an expired one is gone)
                commands.append(("SET", key, b"1:" + data, "NX", "EX", ttl))
            else:
                args: tuple[str | bytes | int, ...] = (expected, data, ttl)
                if previous is not None:
                    args += (b"1", previous)
                commands.append(("EVALSHA", self._save_game_sha, 1, key, *args))
        stored = []
        for command, reply in zip(commands, self._pipeline(commands), strict=True):
            if isinstance(reply, self._no_script):  # a new or restarted Redis: send the source once
                reply = self._command("EVAL", _SAVE_GAME, *command[2:])
            elif isinstance(reply, self._reply_error):
                raise reply
            stored.append(reply is not None if command[0] == "SET" else bool(reply))
        return stored

    def _spend(self, kind: str, jti: str, exp: int) -> bool:
        ttl = exp - int(self._clock())
        if ttl <= 0:
            return False  # an expired token is never spent (its record may be gone already)
        return self._command("SET", f"{self.prefix}spent:{len(kind)}:{kind}:{jti}", b"1", "NX", "EX", ttl) is not None

    def _put_once(self, table: str, key: str, data: bytes) -> bytes:
        old = self._script(self._put_once_sha, _PUT_ONCE, 1, f"{self.prefix}{table}:{key}", data)
        return data if old is None else bytes(old)

    def _get_once(self, table: str, key: str) -> bytes | None:
        value = self._command("GET", f"{self.prefix}{table}:{key}")
        return None if value is None else bytes(value)

    def _player_results_key(self, player: str) -> str:
        return f"{self.prefix}player-results:{player}"  # one hash per player, kept for good

    def _put_player_result(self, player: str, key: str, data: bytes) -> bytes:
        old = self._script(
            self._put_player_result_sha, _PUT_PLAYER_RESULT, 1, self._player_results_key(player), key, data
        )
        return data if old is None else bytes(old)

    def _player_results(self, player: str) -> dict[str, bytes]:
        reply = self._command("HGETALL", self._player_results_key(player))
        # RESP2 answers [key, value, key, value, ...], RESP3 a map
        pairs = reply.items() if isinstance(reply, dict) else zip(reply[::2], reply[1::2], strict=True)
        return {bytes(key).decode(): bytes(value) for key, value in pairs}
