"""Faults, with a real redis-server of the test's own: a hung or killed Redis makes every store call
raise StoreUnavailable (from the socket timeout or a refused connection, never a hang), the same
store object works again by itself once Redis is back, and what was acknowledged before the fault
is still there (Redis with its append-only file). SQLite: a file locked by another writer past
the timeout raises StoreUnavailable too."""

from __future__ import annotations

import os
import signal
import sqlite3
import time

import pytest
import redis
from redis_server import RedisServer

from flagcore.errors import StoreUnavailable
from flagcore.store import GameRecord, RedisStore, SQLiteStore

TIMEOUT = 0.5  # the store's timeout in these tests: short, so a test waits little
FAR = int(time.time()) + 3600


@pytest.fixture
def own_redis(tmp_path):
    """A redis-server this test may kill, with an append-only file fsynced at every write."""
    server = RedisServer(data_dir=str(tmp_path))
    server.start()
    yield server
    if server.process is not None and server.process.poll() is None:
        os.kill(server.process.pid, signal.SIGCONT)  # a test that stopped it may have failed before resuming
    server.stop()


def every_call(store):
    """One call of each kind; each must raise StoreUnavailable while the store is down."""
    return [
        lambda: store.ping(),
        lambda: store.load_game("ann", "B1"),
        lambda: store.save_game("ann", "B1", 1, b"x", 60),
        lambda: store.spend("puzzle", "new", FAR),
        lambda: store.publish_board("d", b"x"),
        lambda: store.published_board("d"),
        lambda: store.record_result("r2", b"x"),
        lambda: store.result("r"),
    ]


def test_killed_redis_raises_store_unavailable_then_recovers_with_what_it_acknowledged(own_redis):
    store = RedisStore(own_redis.url, timeout=TIMEOUT)
    assert store.save_game("ann", "B1", 0, b"one guess", 60)
    assert store.record_result("r", b"won") == b"won"
    assert store.spend("puzzle", "spent", FAR)
    own_redis.kill()
    for call in every_call(store):
        with pytest.raises(StoreUnavailable, match=f"the Redis store at 127.0.0.1:{own_redis.port}/0 is unavailable"):
            call()
    own_redis.start()  # same port, same append-only file
    # the same object, no reconnect by hand: the broken pooled connections are replaced by itself
    assert store.load_game("ann", "B1") == GameRecord(1, b"one guess")
    assert store.result("r") == b"won"
    assert not store.spend("puzzle", "spent", FAR)  # a spent token stays spent across the crash
    assert store.save_game("ann", "B1", 1, b"two guesses", 60)
    store.close()


def test_a_hung_redis_times_out_then_recovers(own_redis):
    store = RedisStore(own_redis.url, timeout=TIMEOUT)
    store.ping()
    os.kill(own_redis.process.pid, signal.SIGSTOP)  # alive, accepting connections, never answering
    try:
        for call in every_call(store)[:3]:
            with pytest.raises(StoreUnavailable) as info:
                call()
            # what ended the wait is the socket timeout, not a refused or broken connection
            assert isinstance(info.value.__cause__, redis.TimeoutError)
    finally:
        os.kill(own_redis.process.pid, signal.SIGCONT)
    store.ping()
    assert store.save_game("ann", "B1", 0, b"after", 60)
    store.close()


def test_redis_that_never_ran_is_unavailable(tmp_path):
    from redis_server import free_port

    store = RedisStore(f"redis://127.0.0.1:{free_port()}/0", timeout=TIMEOUT)
    with pytest.raises(StoreUnavailable, match="is unavailable"):
        store.ping()


def test_a_sqlite_file_locked_past_the_timeout_is_unavailable(tmp_path):
    path = tmp_path / "games.db"
    store = SQLiteStore(path, timeout=0.2)
    assert store.save_game("ann", "B1", 0, b"one", 60)
    blocker = sqlite3.connect(path, isolation_level=None)
    blocker.execute("BEGIN EXCLUSIVE")  # another process's long write transaction
    try:
        with pytest.raises(StoreUnavailable, match="database is locked"):
            store.save_game("ann", "B1", 1, b"two", 60)
        # WAL: readers are not blocked by the writer
        assert store.load_game("ann", "B1") == GameRecord(1, b"one")
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    assert store.save_game("ann", "B1", 1, b"two", 60)  # works again once the lock is gone
