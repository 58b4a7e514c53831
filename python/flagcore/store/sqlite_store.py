"""``SQLiteStore``: the store in one SQLite file (standard library), for one machine.

Safe across threads (a connection per thread) and processes (each opens its own; SQLite's file
locks serialise the writers). The file is in WAL mode, so readers never wait for a writer, and
every write is a transaction: the compare-and-set of a game is an UPDATE with the expected
version in its WHERE clause, a spend and a write-once an INSERT that does nothing on conflict,
and a save that ends a game writes the player's result in the same transaction.
``synchronous=NORMAL``: a committed write survives a crash of the process (every worker can die
at any moment); a power cut may lose the last moments of writes.

An event loop's calls (``aload_game``, ...) run on one thread of the store's, each turn's batch
in one transaction, so the loop never waits for the file, its locks or the disk.

The file is the store: if it is deleted or replaced while the server runs (another inode at its
path), every call raises StoreUnavailable and logs it, rather than writing on into a file no one
will read again. ``backup`` copies it while it is in use (SQLite's online backup).

Housekeeping is off the request path: each process's writes wake a thread of its own that copies
the WAL into the file (a checkpoint, which waits for the disk) and deletes expired records, so no
request waits for either (SQLite's own checkpoint would run inside the commit of some request).
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, NamedTuple

from ..errors import StoreUnavailable
from .base import DEFAULT_TIMEOUT, FIRST_PAUSE, LAST_PAUSE, GameRecord, Play, Save, Store, Verified, log

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    player TEXT NOT NULL, board TEXT NOT NULL, version INTEGER NOT NULL, data BLOB NOT NULL, exp INTEGER NOT NULL,
    PRIMARY KEY (player, board)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS spent (
    kind TEXT NOT NULL, jti TEXT NOT NULL, exp INTEGER NOT NULL, PRIMARY KEY (kind, jti)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS boards (key TEXT PRIMARY KEY, data BLOB NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS results (key TEXT PRIMARY KEY, data BLOB NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS player_results (
    player TEXT NOT NULL, key TEXT NOT NULL, data BLOB NOT NULL, PRIMARY KEY (player, key)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS plays (
    id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, exp INTEGER NOT NULL, data BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS play_counts (
    counts TEXT NOT NULL, field TEXT NOT NULL, n INTEGER NOT NULL, exp INTEGER NOT NULL,
    PRIMARY KEY (counts, field)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS plays_exp ON plays (exp);
CREATE INDEX IF NOT EXISTS games_exp ON games (exp);
CREATE INDEX IF NOT EXISTS spent_exp ON spent (exp);
"""
_ONCE_TABLES = {"board": "boards", "result": "results"}
CHECKPOINT_EVERY = 200  # writes between two checkpoints (a few hundred WAL pages, below SQLite's own 1000)
RESTART_FRAMES = 4096  # WAL frames (pages: 16 MiB) from which the housekeeper starts the WAL again (_tidy)
RESTART_WAIT = 0.02  # seconds its RESTART checkpoint may wait for the writers and readers of the moment
WAL_LIMIT = 16 << 20  # bytes the WAL file is cut back to when it starts again
SWEEP_EVERY = 1000  # writes between two deletions of expired games and spent tokens
SWEEP_SECONDS = 60.0  # and at least this often while the process lives, written to or not


class Op(NamedTuple):
    """One call's work on a connection, and whether it writes (a write runs in a transaction)."""

    work: Callable[[sqlite3.Connection], Any]
    writes: bool = False


class SQLiteStore(Store):
    """The store in the SQLite file at ``path`` (created with its tables if missing).

    timeout: seconds a call waits for a lock held by another writer before StoreUnavailable.
    clock: the time source for expiry (UNIX seconds; tests pass their own).
    sweep_seconds: the longest time between two deletions of expired records.
    """

    kind = "sqlite"
    one_batch_at_a_time = True  # its batches queue for its one thread anyway (Store: group commit)

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        timeout: float = DEFAULT_TIMEOUT,
        clock: Callable[[], float] = time.time,
        sweep_seconds: float = SWEEP_SECONDS,
    ) -> None:
        super().__init__()
        self.path = Path(path)
        self.timeout = float(timeout)
        self.sweep_seconds = float(sweep_seconds)
        self._clock = clock
        self._local = threading.local()
        self._lock = threading.Lock()
        self._connections: list[sqlite3.Connection] = []
        self._writes = 0
        self._swept = 0  # self._writes at the last sweep
        self._swept_at = time.monotonic()
        self._wake = threading.Event()  # set every CHECKPOINT_EVERY writes: the housekeeper runs
        self._housekeeper: tuple[int, threading.Thread] | None = None  # (pid, thread) of this process
        self._executor: tuple[int, ThreadPoolExecutor] | None = None  # (pid, thread) of an event loop's calls
        self._closed = False
        self._identity: tuple[int, int] | None = None  # (device, inode) of the file this store opened
        self._call(self._create_schema)  # a missing folder or an unreadable file fails here, not mid-game
        self._identity = self._file_identity()
        self._start_housekeeper()  # expired records go even when nothing is written

    def __repr__(self) -> str:
        return f"SQLiteStore({str(self.path)!r})"

    def _unavailable(self, why: str) -> str:
        return f"the SQLite store {str(self.path)!r} is unavailable: {why}"

    # ------------------------------------------------------------ connections

    def _connection(self) -> sqlite3.Connection:
        """This thread's connection (a new one after a fork: a connection never crosses processes)."""
        held = getattr(self._local, "held", None)
        if held is not None and held[0] == os.getpid():
            return held[1]  # type: ignore[no-any-return]
        # timeout=0: a busy file raises at once and _call retries it; SQLite's own busy handler
        # sleeps a whole millisecond or more per wait, which stalls every worker at each collision
        conn = self._open()
        conn.execute("PRAGMA wal_autocheckpoint=0")  # the housekeeper checkpoints (see the module's doc)
        self._local.held = (os.getpid(), conn)
        with self._lock:
            self._connections.append(conn)
        return conn

    def _open(self, wait: float = 0) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, timeout=wait, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA synchronous=NORMAL")
        return conn

    def _file_identity(self) -> tuple[int, int] | None:
        try:
            info = os.stat(self.path)
        except OSError:
            return None
        return info.st_dev, info.st_ino

    def _check_file(self) -> None:
        """StoreUnavailable (and an error log) if the file at ``path`` is not the one this store
        opened: deleted, or replaced by another file (a restore while running)."""
        if self._identity is not None and self._file_identity() != self._identity:
            why = "its file was deleted or replaced while in use (restore it, then restart: docs/server.md)"
            log.error("SQLite store %s: %s", self.path, why)
            raise StoreUnavailable(self._unavailable(why))

    def _start_housekeeper(self) -> None:
        """Start this process's housekeeper if it has none (a thread never crosses a fork)."""
        with self._lock:
            if self._housekeeper is None or self._housekeeper[0] != os.getpid():
                self._closed = False
                self._wake = threading.Event()
                thread = threading.Thread(target=self._housekeep, name="flagcore-sqlite-housekeeper", daemon=True)
                self._housekeeper = (os.getpid(), thread)
                thread.start()

    def _housekeep(self) -> None:
        """The housekeeper thread: a round of ``_tidy`` at each wake-up (and every sweep_seconds),
        on a connection of its own. A busy or failing file is left for the next wake-up: the
        requests themselves report a file that fails."""
        conn: sqlite3.Connection | None = None
        wake = self._wake
        while True:
            wake.wait(self.sweep_seconds)
            wake.clear()
            if self._closed:
                break
            try:
                if self._identity is not None and self._file_identity() != self._identity:
                    continue  # never recreate a deleted file by opening it
                if conn is None:
                    conn = self._open(RESTART_WAIT)
                    conn.execute(f"PRAGMA journal_size_limit={WAL_LIMIT}")
                self._tidy(conn)
            except sqlite3.Error:
                pass
        if conn is not None:
            conn.close()

    def _tidy(self, conn: sqlite3.Connection) -> None:
        """A checkpoint (PASSIVE: it copies what no reader needs and never waits for a lock) and,
        after SWEEP_EVERY writes or sweep_seconds since the last, the deletion of expired games
        and spent tokens.

        Under steady writes a PASSIVE checkpoint never ends with the whole WAL copied (frames
        come while it copies), so no writer ever starts the WAL again from its beginning and the
        file grows without bound (263 MB beside a 12 MB database after 20 s of load, two
        workers). Once the WAL holds RESTART_FRAMES, a RESTART checkpoint (it holds the writers
        off while it copies the few frames the PASSIVE one left, waiting at most RESTART_WAIT)
        lets the next writer start it again; journal_size_limit cuts the file back then."""
        ((_, frames, _),) = conn.execute(
            "PRAGMA wal_checkpoint(PASSIVE)"
        ).fetchall()  # run to its end: no statement left open
        if frames >= RESTART_FRAMES:
            conn.execute("PRAGMA wal_checkpoint(RESTART)")
        if self._writes - self._swept >= SWEEP_EVERY or time.monotonic() - self._swept_at >= self.sweep_seconds:
            self.sweep(conn)

    def sweep(self, conn: sqlite3.Connection | None = None) -> None:
        """Delete the expired games and spent tokens now (the housekeeper does it by itself)."""
        self._swept, self._swept_at = self._writes, time.monotonic()
        now = self._now()

        def work(conn: sqlite3.Connection) -> None:
            conn.execute("DELETE FROM games WHERE exp <= ?", (now,))
            conn.execute("DELETE FROM spent WHERE exp <= ?", (now,))
            conn.execute("DELETE FROM plays WHERE exp <= ?", (now,))
            conn.execute("DELETE FROM play_counts WHERE exp <= ?", (now,))

        if conn is None:
            self._call(work)
        else:
            work(conn)

    def _create_schema(self, conn: sqlite3.Connection) -> None:
        # WAL is a property of the file: the first process sets it, the others find it set
        conn.execute("PRAGMA journal_mode=WAL")
        conn.executescript(SCHEMA)

    def _call(self, work: Callable[[sqlite3.Connection], Any]) -> Any:
        """``work(connection)``, again while another writer holds the file (a refused transaction
        wrote nothing), for at most ``timeout`` seconds; then, and for any other failure of the
        file (unreadable, not a database, deleted), StoreUnavailable."""
        deadline = time.monotonic() + self.timeout
        pause = FIRST_PAUSE
        while True:
            self._check_file()
            try:
                return work(self._connection())
            except sqlite3.OperationalError as exc:
                busy = "locked" in str(exc) or "busy" in str(exc)
                if not busy or time.monotonic() > deadline:
                    raise StoreUnavailable(self._unavailable(str(exc))) from exc
            except sqlite3.DatabaseError as exc:
                raise StoreUnavailable(f"the SQLite store {str(self.path)!r} is unusable: {exc}") from exc
            time.sleep(pause)
            pause = min(pause * 2, LAST_PAUSE)

    def _batch(self, ops: list[Op]) -> Callable[[sqlite3.Connection], list[Any]]:
        """The work of running ``ops`` in order: in one transaction if any of them writes (taken
        IMMEDIATE, so a busy file refuses the batch before any write; a failure rolls all back)."""

        def work(conn: sqlite3.Connection) -> list[Any]:
            writes = sum(op.writes for op in ops)
            if not writes:
                return [op.work(conn) for op in ops]
            conn.execute("BEGIN IMMEDIATE")
            try:
                results = [op.work(conn) for op in ops]
                conn.execute("COMMIT")
            finally:
                if conn.in_transaction:  # a failure: nothing of the batch stays (it may be tried again)
                    conn.execute("ROLLBACK")
            self._wrote(writes)
            return results

        return work

    def _run(self, op: Op) -> Any:
        return self._call(self._batch([op]))[0]

    async def _execute(self, ops: list[Op]) -> list[Any]:
        held = self._executor
        if held is None or held[0] != os.getpid():
            with self._lock:
                held = self._executor = (os.getpid(), ThreadPoolExecutor(1, thread_name_prefix="flagcore-sqlite"))
        batch = self._batch(ops)
        return await asyncio.get_running_loop().run_in_executor(held[1], self._call, batch)

    def _now(self) -> int:
        return int(self._clock())

    def _wrote(self, count: int = 1) -> None:
        """Count ``count`` writes; every CHECKPOINT_EVERY writes, wake the housekeeper."""
        before = self._writes
        self._writes += count  # a lost increment between threads only delays the housekeeping
        if before // CHECKPOINT_EVERY == self._writes // CHECKPOINT_EVERY:
            return
        self._start_housekeeper()
        self._wake.set()

    def close(self) -> None:
        """Close every connection this store opened in this process."""
        with self._lock:
            connections, self._connections = self._connections, []
            housekeeper, self._housekeeper = self._housekeeper, None
            executor, self._executor = self._executor, None
            self._closed = True
        if housekeeper is not None and housekeeper[0] == os.getpid():
            self._wake.set()
            housekeeper[1].join()
        if executor is not None and executor[0] == os.getpid():
            executor[1].shutdown(wait=True)
        for conn in connections:
            conn.close()
        self._local = threading.local()

    def backup(self, target: str | os.PathLike[str]) -> None:
        """Copy the store, consistent, into the SQLite file ``target`` while it is in use (SQLite's
        online backup API: writers go on meanwhile; the copy is of one moment)."""
        self._check_file()
        dest = sqlite3.connect(target)
        try:
            self._connection().backup(dest)
        except sqlite3.Error as exc:
            raise StoreUnavailable(self._unavailable(f"backup failed: {exc}")) from exc
        finally:
            dest.close()

    # ------------------------------------------------------------ operations

    def _ping_op(self) -> Op:
        return Op(lambda conn: conn.execute("SELECT 1 FROM boards LIMIT 1").fetchall() and None)

    def _load_game_op(self, player: str, board: str) -> Op:
        def work(conn: sqlite3.Connection) -> GameRecord | None:
            row = conn.execute(
                "SELECT version, data FROM games WHERE player = ? AND board = ? AND exp > ?",
                (player, board, self._now()),
            ).fetchone()
            return None if row is None else GameRecord(row[0], bytes(row[1]))

        return Op(work)

    def _save_op(self, save: Save) -> Op:
        now = self._now()
        return Op(lambda conn: _save(conn, now, *save), writes=True)

    def _spend_op(self, kind: str, jti: str, exp: int) -> Op:
        if exp <= self._now():
            return Op(lambda conn: False)  # an expired token is never spent (its record may be swept already)
        return Op(lambda conn: _spend(conn, kind, jti, exp), writes=True)

    def _put_once_op(self, table: str, key: str, data: bytes) -> Op:
        name = _ONCE_TABLES[table]

        def work(conn: sqlite3.Connection) -> bytes:
            cur = conn.execute(f"INSERT INTO {name} VALUES (?, ?) ON CONFLICT (key) DO NOTHING", (key, data))
            if cur.rowcount == 1:
                return data
            # rows of these tables are never deleted, so the first writer's row is there
            return bytes(conn.execute(f"SELECT data FROM {name} WHERE key = ?", (key,)).fetchone()[0])

        return Op(work, writes=True)

    def _get_once_op(self, table: str, key: str) -> Op:
        name = _ONCE_TABLES[table]

        def work(conn: sqlite3.Connection) -> bytes | None:
            row = conn.execute(f"SELECT data FROM {name} WHERE key = ?", (key,)).fetchone()
            return None if row is None else bytes(row[0])

        return Op(work)

    def _verified_op(self, verified: Verified) -> Op:
        kind, jti, exp, key, data, player, result, play = verified
        now = self._now()
        if exp <= now:
            return Op(lambda conn: False)

        def work(conn: sqlite3.Connection) -> bool:
            # inside the batch's IMMEDIATE transaction: nothing changes between the check and the writes
            if conn.execute("SELECT 1 FROM results WHERE key = ?", (key,)).fetchone() is not None:
                return False
            if not _spend(conn, kind, jti, exp):
                return False
            conn.execute("INSERT INTO results VALUES (?, ?)", (key, data))
            if player is not None and result is not None:
                _put_player_result(conn, player, *result)
            if play is not None:
                _record_play(conn, now, play)
            return True

        return Op(work, writes=True)

    def _record_play_op(self, play: Play) -> Op:
        now = self._now()
        return Op(lambda conn: _record_play(conn, now, play), writes=True)

    def _play_counts_op(self, counts: str) -> Op:
        def work(conn: sqlite3.Connection) -> dict[str, int]:
            rows = conn.execute(
                "SELECT field, n FROM play_counts WHERE counts = ? AND exp > ?", (counts, self._now())
            ).fetchall()
            return {str(f): int(n) for f, n in rows}

        return Op(work)

    def _play_page_op(self, cursor: Any, chunk: int) -> Op:
        def work(conn: sqlite3.Connection) -> tuple[list[bytes], int | None]:
            rows = conn.execute(
                "SELECT id, data FROM plays WHERE id > ? AND exp > ? ORDER BY id LIMIT ?",
                (cursor or 0, self._now(), chunk),
            ).fetchall()
            return [bytes(r[1]) for r in rows], (int(rows[-1][0]) if len(rows) == chunk else None)

        return Op(work)

    def _put_player_result_op(self, player: str, key: str, data: bytes) -> Op:
        return Op(lambda conn: _put_player_result(conn, player, key, data), writes=True)

    def _player_results_op(self, player: str) -> Op:
        def work(conn: sqlite3.Connection) -> dict[str, bytes]:
            rows = conn.execute("SELECT key, data FROM player_results WHERE player = ?", (player,)).fetchall()
            return {key: bytes(data) for key, data in rows}

        return Op(work)


def _save(
    conn: sqlite3.Connection,
    now: int,
    player: str,
    board: str,
    expected: int,
    data: bytes,
    ttl: int,
    previous: bytes | None,
    result: tuple[str, bytes] | None,
    play: Play | None = None,
) -> bool:
    """One game's compare-and-set (see Store.save_game), with the player's result and the play
    record when it is stored: True if this statement wrote it."""
    if expected == 0:  # a new game: no row, or only an expired one
        cur = conn.execute(
            "INSERT INTO games (player, board, version, data, exp) VALUES (?, ?, 1, ?, ?) "
            "ON CONFLICT (player, board) DO UPDATE SET version = 1, data = excluded.data, "
            "exp = excluded.exp WHERE games.exp <= ?",
            (player, board, data, now + ttl, now),
        )
    elif previous is None:
        cur = conn.execute(
            "UPDATE games SET version = version + 1, data = ?, exp = ? "
            "WHERE player = ? AND board = ? AND version = ? AND exp > ?",
            (data, now + ttl, player, board, expected, now),
        )
    else:
        cur = conn.execute(
            "UPDATE games SET version = version + 1, data = ?, exp = ? "
            "WHERE player = ? AND board = ? AND version = ? AND exp > ? AND data = ?",
            (data, now + ttl, player, board, expected, now, previous),
        )
    stored = cur.rowcount == 1
    if stored and result is not None:
        _put_player_result(conn, player, *result)
    if stored and play is not None:
        _record_play(conn, now, play)
    return stored


def _spend(conn: sqlite3.Connection, kind: str, jti: str, exp: int) -> bool:
    cur = conn.execute(
        "INSERT INTO spent (kind, jti, exp) VALUES (?, ?, ?) ON CONFLICT (kind, jti) DO NOTHING", (kind, jti, exp)
    )
    return cur.rowcount == 1


def _put_player_result(conn: sqlite3.Connection, player: str, key: str, data: bytes) -> bytes:
    cur = conn.execute(
        "INSERT INTO player_results VALUES (?, ?, ?) ON CONFLICT (player, key) DO NOTHING", (player, key, data)
    )
    if cur.rowcount == 1:
        return data
    # never deleted, so the first writer's row is there
    row = conn.execute("SELECT data FROM player_results WHERE player = ? AND key = ?", (player, key)).fetchone()
    return bytes(row[0])


def _record_play(conn: sqlite3.Connection, now: int, play: Play) -> bool:
    """A play record, write-once per key, and its counters: True if this statement wrote it."""
    key, data, counts, fields, ttl = play
    exp = now + ttl
    cur = conn.execute(
        "INSERT INTO plays (key, exp, data) VALUES (?, ?, ?) ON CONFLICT (key) DO NOTHING", (key, exp, data)
    )
    if cur.rowcount != 1:
        return False
    conn.executemany(
        "INSERT INTO play_counts VALUES (?, ?, 1, ?) "
        "ON CONFLICT (counts, field) DO UPDATE SET n = n + 1, exp = max(exp, excluded.exp)",
        [(counts, f, exp) for f in fields],
    )
    return True
