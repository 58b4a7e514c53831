"""``SQLiteStore``: the store in one SQLite file (standard library), for one machine.

Safe across threads (a connection per thread) and processes (each opens its own; SQLite's file
locks serialise the writers). The file is in WAL mode, so readers never wait for a writer, and
each write is one statement, atomic by itself: the compare-and-set of a game is an UPDATE with
the expected version in its WHERE clause, a spend and a write-once an INSERT that does nothing
on conflict. ``synchronous=NORMAL``: a committed write survives a crash of the process (every
worker can die at any moment); a power cut may lose the last moments of writes.

Housekeeping is off the request path: each process's writes wake a thread of its own that copies
the WAL into the file (a checkpoint, which waits for the disk) and deletes expired records, so no
request waits for either (SQLite's own checkpoint would run inside the commit of some request).
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..errors import StoreUnavailable
from .base import DEFAULT_TIMEOUT, FIRST_PAUSE, LAST_PAUSE, GameRecord, Save, Store

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
CREATE INDEX IF NOT EXISTS games_exp ON games (exp);
CREATE INDEX IF NOT EXISTS spent_exp ON spent (exp);
"""
_ONCE_TABLES = {"board": "boards", "result": "results"}
CHECKPOINT_EVERY = 200  # writes between two checkpoints (a few hundred WAL pages, below SQLite's own 1000)
SWEEP_EVERY = 1000  # writes between two deletions of expired games and spent tokens
BUSY = object()  # what _call(work, wait=False) returns while another writer holds the file


class SQLiteStore(Store):
    """The store in the SQLite file at ``path`` (created with its tables if missing).

    timeout: seconds a call waits for a lock held by another writer before StoreUnavailable.
    clock: the time source for expiry (UNIX seconds; tests pass their own).
    """

    kind = "sqlite"

    def __init__(
        self, path: str | os.PathLike[str], *, timeout: float = DEFAULT_TIMEOUT, clock: Callable[[], float] = time.time
    ) -> None:
        super().__init__()
        self.path = Path(path)
        self.timeout = float(timeout)
        self._clock = clock
        self._local = threading.local()
        self._lock = threading.Lock()
        self._connections: list[sqlite3.Connection] = []
        self._writes = 0
        self._swept = 0  # self._writes at the last sweep
        self._wake = threading.Event()  # set every CHECKPOINT_EVERY writes: the housekeeper runs
        self._housekeeper: tuple[int, threading.Thread] | None = None  # (pid, thread) of this process
        self._closed = False
        self._call(self._create_schema)  # a missing folder or an unreadable file fails here, not mid-game

    def __repr__(self) -> str:
        return f"SQLiteStore({str(self.path)!r})"

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

    def _open(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, timeout=0, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA synchronous=NORMAL")
        return conn

    def _housekeep(self) -> None:
        """The housekeeper thread: a round of ``_tidy`` at each wake-up, on a connection of its own.
        A busy or failing file is left for the next wake-up: the requests themselves report a file
        that fails."""
        conn: sqlite3.Connection | None = None
        while True:
            self._wake.wait()
            self._wake.clear()
            if self._closed:
                break
            try:
                if conn is None:
                    conn = self._open()
                self._tidy(conn)
            except sqlite3.Error:
                pass
        if conn is not None:
            conn.close()

    def _tidy(self, conn: sqlite3.Connection) -> None:
        """A checkpoint (PASSIVE: it copies what no reader needs and never waits for a lock) and,
        after SWEEP_EVERY writes since the last, the deletion of expired games and spent tokens."""
        conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
        if self._writes - self._swept >= SWEEP_EVERY:
            self._swept = self._writes
            now = self._now()
            conn.execute("DELETE FROM games WHERE exp <= ?", (now,))
            conn.execute("DELETE FROM spent WHERE exp <= ?", (now,))

    def _create_schema(self, conn: sqlite3.Connection) -> None:
        # WAL is a property of the file: the first process sets it, the others find it set
        conn.execute("PRAGMA journal_mode=WAL")
        conn.executescript(SCHEMA)

    def _call(self, work: Callable[[sqlite3.Connection], Any], wait: bool = True) -> Any:
        """``work(connection)``, again while another writer holds the file (each statement is
        atomic, so a refused one wrote nothing), for at most ``timeout`` seconds; then, and for any
        other failure of the file (unreadable, not a database), StoreUnavailable. ``wait=False``:
        one try, BUSY when another writer holds the file."""
        deadline = time.monotonic() + self.timeout
        pause = FIRST_PAUSE
        while True:
            try:
                return work(self._connection())
            except sqlite3.OperationalError as exc:
                busy = "locked" in str(exc) or "busy" in str(exc)
                if busy and not wait:
                    return BUSY
                if not busy or time.monotonic() > deadline:
                    raise StoreUnavailable(f"the SQLite store {str(self.path)!r} is unavailable: {exc}") from exc
            except sqlite3.DatabaseError as exc:
                raise StoreUnavailable(f"the SQLite store {str(self.path)!r} is unusable: {exc}") from exc
            time.sleep(pause)
            pause = min(pause * 2, LAST_PAUSE)

    def _now(self) -> int:
        return int(self._clock())

    def _wrote(self, count: int = 1) -> None:
        """Count ``count`` writes; every CHECKPOINT_EVERY writes, wake the housekeeper (started at
        the first wake-up in each process: a thread never crosses a fork)."""
        before = self._writes
        self._writes += count  # a lost increment between threads only delays the housekeeping
        if before // CHECKPOINT_EVERY == self._writes // CHECKPOINT_EVERY:
            return
        with self._lock:
            if self._housekeeper is None or self._housekeeper[0] != os.getpid():
                self._closed = False
                self._wake = threading.Event()
                thread = threading.Thread(target=self._housekeep, name="flagcore-sqlite-housekeeper", daemon=True)
                self._housekeeper = (os.getpid(), thread)
                thread.start()
        self._wake.set()

    def ping(self) -> None:
        """Return if the file answers (a read); StoreUnavailable otherwise."""
        self._call(lambda conn: conn.execute("SELECT 1 FROM boards LIMIT 1").fetchall())

    def close(self) -> None:
        """Close every connection this store opened in this process."""
        with self._lock:
            connections, self._connections = self._connections, []
            housekeeper, self._housekeeper = self._housekeeper, None
            self._closed = True
        if housekeeper is not None and housekeeper[0] == os.getpid():
            self._wake.set()
            housekeeper[1].join()
        for conn in connections:
            conn.close()
        self._local = threading.local()

    # ------------------------------------------------------------ records

    def _load_game(self, player: str, board: str) -> GameRecord | None:
        row = self._call(
            lambda conn: conn.execute(
                "SELECT version, data FROM games WHERE player = ? AND board = ? AND exp > ?",
                (player, board, self._now()),
            ).fetchone()
        )
        return None if row is None else GameRecord(row[0], bytes(row[1]))

    def _save_games(self, saves: list[Save]) -> list[bool]:
        return self._call(self._save_work(saves))  # type: ignore[no-any-return]

    def _save_games_now(self, saves: list[Save]) -> list[bool] | None:
        stored = self._call(self._save_work(saves), wait=False)
        return None if stored is BUSY else stored

    def _save_work(self, saves: list[Save]) -> Callable[[sqlite3.Connection], list[bool]]:
        """The work of writing ``saves`` (see ``_call``)."""
        now = self._now()

        def work(conn: sqlite3.Connection) -> list[bool]:
            if len(saves) == 1:  # one statement: atomic by itself
                stored = [_save(conn, now, *saves[0])]
            else:
                # several: one transaction, one commit (the commit is most of a lone save's cost);
                # IMMEDIATE takes the write lock first, so a busy file refuses the batch before any write
                conn.execute("BEGIN IMMEDIATE")
                try:
                    stored = [_save(conn, now, *save) for save in saves]
                    conn.execute("COMMIT")
                finally:
                    if conn.in_transaction:  # a failure: nothing of the batch stays (it may be tried again)
                        conn.execute("ROLLBACK")
            self._wrote(len(saves))
            return stored

        return work

    def _spend(self, kind: str, jti: str, exp: int) -> bool:
        if exp <= self._now():
            return False  # an expired token is never spent (its record may be swept already)

        def work(conn: sqlite3.Connection) -> bool:
            cur = conn.execute(
                "INSERT INTO spent (kind, jti, exp) VALUES (?, ?, ?) ON CONFLICT (kind, jti) DO NOTHING",
                (kind, jti, exp),
            )
            self._wrote()
            return cur.rowcount == 1

        return self._call(work)  # type: ignore[no-any-return]

    def _put_once(self, table: str, key: str, data: bytes) -> bytes:
        name = _ONCE_TABLES[table]

        def work(conn: sqlite3.Connection) -> bytes:
            cur = conn.execute(f"INSERT INTO {name} VALUES (?, ?) ON CONFLICT (key) DO NOTHING", (key, data))
            if cur.rowcount == 1:
                return data
            # rows of these tables are never deleted, so the first writer's row is there
            return bytes(conn.execute(f"SELECT data FROM {name} WHERE key = ?", (key,)).fetchone()[0])

        return self._call(work)  # type: ignore[no-any-return]

    def _get_once(self, table: str, key: str) -> bytes | None:
        name = _ONCE_TABLES[table]
        row = self._call(lambda conn: conn.execute(f"SELECT data FROM {name} WHERE key = ?", (key,)).fetchone())
        return None if row is None else bytes(row[0])

    def _put_player_result(self, player: str, key: str, data: bytes) -> bytes:
        def work(conn: sqlite3.Connection) -> bytes:
            cur = conn.execute(
                "INSERT INTO player_results VALUES (?, ?, ?) ON CONFLICT (player, key) DO NOTHING", (player, key, data)
            )
            if cur.rowcount == 1:
                return data
            # never deleted, so the first writer's row is there
            row = conn.execute("SELECT data FROM player_results WHERE player = ? AND key = ?", (player, key)).fetchone()
            return bytes(row[0])

        return self._call(work)  # type: ignore[no-any-return]

    def _player_results(self, player: str) -> dict[str, bytes]:
        rows = self._call(
            lambda conn: conn.execute("SELECT key, data FROM player_results WHERE player = ?", (player,)).fetchall()
        )
        return {key: bytes(data) for key, data in rows}


def _save(
    conn: sqlite3.Connection,
    now: int,
    player: str,
    board: str,
    expected: int,
    data: bytes,
    ttl: int,
    previous: bytes | None,
) -> bool:
    """One game's compare-and-set (see Store.save_game): True if this statement wrote it."""
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
    return cur.rowcount == 1
