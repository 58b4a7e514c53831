"""Faults, with a real redis-server of the test's own: a hung or killed Redis makes every store call
raise StoreUnavailable (from the socket timeout or a refused connection, never a hang), the same
store object works again by itself once Redis is back, and what was acknowledged before the fault
is still there (Redis with its append-only file). SQLite: a file locked by another writer past
the timeout raises StoreUnavailable too."""

from __future__ import annotations

import asyncio
import logging
import os
import shutil
import signal
import sqlite3
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import redis
from redis_server import RedisServer

from flagcore.errors import StoreUnavailable
from flagcore.store import GameRecord, RedisStore, SQLiteStore
from flagcore.store.redis_store import REFUSED_PAUSE

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


def run_loop(coroutine):
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


async def timed(call):
    """(seconds the awaitable took, its result or exception)."""
    start = time.monotonic()
    try:
        outcome = await call
    except Exception as exc:
        outcome = exc
    return time.monotonic() - start, outcome


async def loop_lag(until: asyncio.Future, tick: float = 0.005) -> float:
    """The longest the event loop went without running a ready callback, until ``until`` is done."""
    worst = 0.0
    while not until.done():
        start = time.monotonic()
        await asyncio.sleep(tick)
        worst = max(worst, time.monotonic() - start - tick)
    return worst


@pytest.mark.parametrize("fault", ["SIGSTOP", "SIGKILL"])
def test_awaitable_calls_of_a_hung_or_dead_redis_fail_within_the_timeout_and_never_block_the_loop(own_redis, fault):
    store = RedisStore(own_redis.url, timeout=TIMEOUT)
    assert store.save_game("ann", "B1", 0, b"one", 60)

    async def scenario():
        await store.aping()  # the loop's connection is open before the fault
        if fault == "SIGSTOP":
            os.kill(own_redis.process.pid, signal.SIGSTOP)
        else:
            own_redis.kill()
        calls = asyncio.gather(
            *(timed(store.aload_game("ann", "B1")) for _ in range(8)),
            timed(store.asave_game("ann", "B1", 1, b"two", 60, b"one", ("k", b"won"))),
            # a second turn's calls, asked for while the first turn's wait
            timed(asyncio.sleep(TIMEOUT / 5, None)),
        )
        later = asyncio.gather(*(timed(store.aload_game("bob", "B1")) for _ in range(8)))
        lag = await loop_lag(asyncio.gather(calls, later))
        return await calls, await later, lag

    try:
        first, later, lag = run_loop(scenario())
    finally:
        if own_redis.process is not None:
            os.kill(own_redis.process.pid, signal.SIGCONT)
    for took, outcome in first[:-1] + later:
        assert isinstance(outcome, StoreUnavailable), outcome
        assert took < 2 * TIMEOUT  # each within its own deadline (generous: a loaded machine), not one after another
    assert "127.0.0.1" in str(first[0][1])  # the message names the store (for the log; the web never shows it)
    assert lag < TIMEOUT / 2  # the loop went on serving meanwhile
    if fault == "SIGKILL":
        own_redis.start()
        time.sleep(REFUSED_PAUSE)  # the calls of the pause after a refused connection fail at once

    async def after():
        return await store.aload_game("ann", "B1"), await store.asave_game("ann", "B1", 1, b"two", 60, b"one")

    assert run_loop(after()) == (GameRecord(1, b"one"), True)  # recovered, the same store object
    store.close()


def test_the_first_awaitable_calls_after_redis_restarted_are_answered_not_refused(own_redis):
    # the loop keeps its connections between calls; Redis killed and back on its port meanwhile, so
    # every kept connection is broken: the next calls are answered (on new connections), not 503
    store = RedisStore(own_redis.url, timeout=TIMEOUT)

    async def scenario():
        calls = []
        for i in range(6):  # batches of several turns in flight at once: several connections kept
            calls.append(asyncio.ensure_future(store.asave_game("ann", f"B{i}", 0, b"one", 60)))
            await asyncio.sleep(0)
        assert await asyncio.gather(*calls) == [True] * 6
        own_redis.kill()
        own_redis.start()
        first = await asyncio.gather(*(timed(store.aload_game("ann", f"B{i}")) for i in range(6)))
        second = await timed(store.aload_game("ann", "B0"))
        return [outcome for _, outcome in first], second[1]

    first, second = run_loop(scenario())
    assert first == [GameRecord(1, b"one")] * 6 and second == GameRecord(1, b"one")  # the append-only file kept them
    store.close()


def test_after_a_refused_connection_the_calls_fail_at_once_until_the_pause_ends(own_redis):
    store = RedisStore(own_redis.url, timeout=TIMEOUT)
    own_redis.kill()

    async def down():
        outcomes = []
        for _ in range(3):
            try:
                await store.aload_game("ann", "B1")
            except StoreUnavailable as exc:
                outcomes.append(str(exc))
        return outcomes

    first, *rest = run_loop(down())
    assert "refused a connection" not in first  # the one that asked Redis
    assert all("refused a connection in the last" in m for m in rest)  # no socket opened for these
    own_redis.start()
    time.sleep(REFUSED_PAUSE)
    assert run_loop(store.aload_game("ann", "B1")) is None  # asked again: Redis is back
    store.close()


def test_the_breaker_lets_one_call_at_a_time_ask_a_killed_redis_and_logs_once_per_window(own_redis, caplog):
    # while Redis is down, a call that asks it (the probe) is the only one: the calls asked meanwhile
    # fail at once, and a failing store's log is one line per window naming how many it left out
    # (a long deadline: each probe's answer is the refused connection, even on a loaded machine)
    store = RedisStore(own_redis.url, timeout=10 * TIMEOUT)
    own_redis.kill()

    async def attempt():
        try:
            await store.aload_game("ann", "B1")
        except StoreUnavailable as exc:
            return str(exc)
        return "answered"

    async def together(n):
        return await asyncio.gather(*(attempt() for _ in range(n)))

    with caplog.at_level(logging.ERROR, logger="flagcore.store"):
        first = run_loop(together(5))
        time.sleep(REFUSED_PAUSE)
        second = run_loop(together(5))
        store._log_next = 0.0  # the log's window over (rather than a test waiting LOG_EVERY)
        third = run_loop(together(1))
    # the first turn's five calls are one batch, so one connection refused them all (the socket's error)
    assert len(set(first)) == 1 and "in the last" not in first[0], first
    asked = [m for m in second if "in the last" not in m]
    assert len(asked) == 1 and asked[0] == first[0], second  # the probe; the four others failed at once
    assert all("refused a connection in the last" in m for m in third)  # the probe's failure reopened the breaker
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 2, lines
    assert "(and 9 more store failures not logged)" in lines[1]  # 4 + 5 since the first line
    own_redis.start()
    time.sleep(REFUSED_PAUSE)
    assert run_loop(together(1)) == ["answered"]  # the probe answered: the breaker closed
    assert run_loop(together(5)) == ["answered"] * 5
    store.close()


@pytest.mark.parametrize("how", ["deleted", "replaced"])
def test_a_sqlite_file_deleted_or_replaced_under_a_running_store_is_unavailable_and_logged(tmp_path, caplog, how):
    path = tmp_path / "games.db"
    store = SQLiteStore(path, timeout=TIMEOUT)
    assert store.save_game("ann", "B1", 0, b"one", 60)
    if how == "deleted":
        path.unlink()
    else:
        other = SQLiteStore(tmp_path / "other.db")
        other.close()
        os.replace(tmp_path / "other.db", path)
    with caplog.at_level(logging.ERROR, logger="flagcore.store"):
        with pytest.raises(StoreUnavailable, match="deleted or replaced"):
            store.save_game("ann", "B1", 1, b"two", 60)
        with pytest.raises(StoreUnavailable, match="deleted or replaced"):
            run_loop(store.aload_game("ann", "B1"))
    assert any("deleted or replaced" in r.getMessage() for r in caplog.records)
    assert path.exists() == (how == "replaced")  # never recreated by the store
    store.close()


def test_backup_copies_a_store_in_use_and_the_copy_opens_as_a_store(tmp_path):
    store = SQLiteStore(tmp_path / "games.db")
    assert store.save_game("ann", "B1", 0, b"one", 60, result=None)
    assert store.record_player_result("ann", "k", b"won") == b"won"
    store.backup(tmp_path / "backup.db")
    assert store.save_game("ann", "B1", 1, b"two", 60)  # after the backup: not in it
    store.close()
    shutil.copy(tmp_path / "backup.db", tmp_path / "restored.db")
    restored = SQLiteStore(tmp_path / "restored.db")
    assert restored.load_game("ann", "B1") == GameRecord(1, b"one")
    assert restored.player_results("ann") == {"k": b"won"}
    restored.close()


def test_expired_games_are_swept_by_the_store_itself_without_further_writes(tmp_path):
    now = [1_000_000.0]
    store = SQLiteStore(tmp_path / "games.db", clock=lambda: now[0], sweep_seconds=0.05)
    for i in range(50):
        assert store.save_game(f"p{i}", "B1", 0, b"x" * 500, 60)
    assert store.save_game("kept", "B1", 0, b"x", 3600)

    def count():
        return store._call(lambda conn: conn.execute("SELECT COUNT(*) FROM games").fetchone()[0])

    assert count() == 51
    now[0] += 61
    deadline = time.monotonic() + 30
    while count() > 1 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert count() == 1
    assert store.load_game("kept", "B1") is not None
    store.close()


DISK_FULL = """
import resource, sys
from flagcore.errors import StoreUnavailable
from flagcore.store import SQLiteStore
store = SQLiteStore(sys.argv[1])
assert store.save_game("kept", "B1", 0, b"before the disk filled", 3600)
store.close()
store = SQLiteStore(sys.argv[1])
soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
resource.setrlimit(resource.RLIMIT_FSIZE, (256 * 1024, hard))  # the disk holds 256 KiB per file
failed = 0
for i in range(2000):
    try:
        store.save_game(f"p{i}", "B1", 0, b"x" * 2000, 3600)
    except StoreUnavailable:  # "database or disk is full", or "disk I/O error" from a WAL write
        failed += 1
print("failed", failed)
assert store.load_game("kept", "B1").data == b"before the disk filled"  # reads go on
resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))  # space again
assert store.save_game("after", "B1", 0, b"written", 3600)
print("recovered")
"""


def test_a_full_disk_makes_writes_unavailable_keeps_what_was_written_and_recovers(tmp_path):
    import subprocess
    import sys

    # a process of its own: the file size limit (RLIMIT_FSIZE, what a full disk does to writes)
    # is per process; Python ignores SIGXFSZ, so a write past it fails as a full disk does
    run = subprocess.run(
        [sys.executable, "-c", DISK_FULL, str(tmp_path / "games.db")], capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, run.stderr
    failed = int(run.stdout.split()[1])
    assert failed > 0 and "recovered" in run.stdout
    check = SQLiteStore(tmp_path / "games.db")
    assert check.load_game("after", "B1") == GameRecord(1, b"written")
    assert check._call(lambda conn: conn.execute("PRAGMA integrity_check").fetchone()[0]) == "ok"
    check.close()
