"""The store contract, on a SQLite file and on a real redis-server (the ``store`` fixture runs each
test on both): games with compare-and-set, spent tokens, write-once boards and results."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from stores import make_store

from flagcore.errors import StoreUnavailable
from flagcore.store import GameRecord, SQLiteStore

pytest_plugins = ["stores"]  # the store fixture: each real store, fresh

FAR = int(time.time()) + 3600  # an expiry an hour away


def test_a_game_is_created_once_then_advanced_by_compare_and_set(store):
    assert store.load_game("ann", "B1") is None
    assert store.save_game("ann", "B1", 0, b"one", 60)
    assert store.load_game("ann", "B1") == GameRecord(1, b"one")
    assert not store.save_game("ann", "B1", 0, b"again", 60)  # a second "new game" loses
    assert store.save_game("ann", "B1", 1, b"two", 60)
    assert store.load_game("ann", "B1") == GameRecord(2, b"two")
    assert not store.save_game("ann", "B1", 1, b"stale", 60)  # written from an older version
    assert not store.save_game("ann", "B1", 3, b"future", 60)  # from a version that never was
    assert store.load_game("ann", "B1") == GameRecord(2, b"two")


def test_compare_and_set_on_the_data_too_when_the_caller_knows_it(store):
    assert store.save_game("ann", "B1", 0, b"one", 60)
    assert not store.save_game("ann", "B1", 1, b"two", 60, previous=b"not one")  # the right version, other data
    assert store.load_game("ann", "B1") == GameRecord(1, b"one")
    assert store.save_game("ann", "B1", 1, b"two", 60, previous=b"one")
    assert not store.save_game("ann", "B1", 1, b"three", 60, previous=b"one")  # the version moved on
    assert store.load_game("ann", "B1") == GameRecord(2, b"two")


def test_a_game_that_was_never_created_cannot_be_advanced(store):
    assert not store.save_game("ann", "B1", 1, b"x", 60)
    assert store.load_game("ann", "B1") is None


def test_games_are_per_player_and_board(store):
    assert store.save_game("ann", "B1", 0, b"ann B1", 60)
    assert store.save_game("bob", "B1", 0, b"bob B1", 60)
    assert store.save_game("ann", "B2", 0, b"ann B2", 60)
    # no pair of key parts spells another pair's key
    assert store.save_game("a:b", "c", 0, b"first", 60)
    assert store.save_game("a", "b:c", 0, b"second", 60)
    assert store.load_game("ann", "B1").data == b"ann B1"
    assert store.load_game("bob", "B1").data == b"bob B1"
    assert store.load_game("ann", "B2").data == b"ann B2"
    assert store.load_game("a:b", "c").data == b"first"
    assert store.load_game("a", "b:c").data == b"second"


def test_values_are_kept_byte_for_byte(store):
    data = bytes(range(256)) * 4  # NUL, invalid UTF-8, everything
    assert store.save_game("ann", "B1", 0, data, 60)
    assert store.load_game("ann", "B1").data == data
    assert store.publish_board("bin", data) == data
    assert store.published_board("bin") == data


def test_a_token_is_spent_once(store):
    assert store.spend("puzzle", "jti-1", FAR)
    assert not store.spend("puzzle", "jti-1", FAR)
    assert not store.spend("puzzle", "jti-1", FAR + 100)  # a different expiry changes nothing
    assert store.spend("connections", "jti-1", FAR)  # kinds are separate
    assert store.spend("puzzle", "jti-2", FAR)


def test_an_expired_token_is_never_spent(store):
    past = int(time.time()) - 1
    assert not store.spend("puzzle", "old", past)
    assert not store.spend("puzzle", "old", past)


def test_a_published_board_is_write_once(store):
    assert store.published_board("daily:2026-12-01") is None
    assert store.publish_board("daily:2026-12-01", b"first") == b"first"
    assert store.publish_board("daily:2026-12-01", b"second") == b"first"  # later writers get the first
    assert store.published_board("daily:2026-12-01") == b"first"


def test_results_are_write_once_and_apart_from_boards(store):
    assert store.result("k") is None
    assert store.record_result("k", b"won in 4") == b"won in 4"
    assert store.record_result("k", b"won in 3") == b"won in 4"
    assert store.result("k") == b"won in 4"
    assert store.published_board("k") is None  # the same key names another record among boards


def test_a_players_results_are_write_once_per_key_and_listed_per_player(store):
    assert store.player_results("ann") == {}
    assert store.record_player_result("ann", "connections|2026-12-01", b"won") == b"won"
    assert store.record_player_result("ann", "connections|2026-12-01", b"lost") == b"won"  # the first one stays
    assert store.record_player_result("ann", "puzzle|2026-12-01", b"\x00\xff") == b"\x00\xff"
    assert store.record_player_result("bob", "connections|2026-12-01", b"lost") == b"lost"
    assert store.player_results("ann") == {"connections|2026-12-01": b"won", "puzzle|2026-12-01": b"\x00\xff"}
    assert store.player_results("bob") == {"connections|2026-12-01": b"lost"}
    assert store.result("connections|2026-12-01") is None  # apart from the results by key alone


def run_loop(coroutine):
    """asyncio.run in a thread of its own: a browser test's Playwright may hold this thread's loop."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def test_saves_of_one_event_loop_turn_are_written_together_each_its_own_compare_and_set(store, monkeypatch):
    assert store.save_game("ann", "B1", 0, b"one", 60)
    calls = []
    real = store._execute
    monkeypatch.setattr(store, "_execute", lambda ops: calls.append(len(ops)) or real(ops))

    async def turn():  # one turn: five saves asked for together, two of them losing their compare-and-set
        return await asyncio.gather(
            store.save_game_batched("ann", "B1", 1, b"two", 60, previous=b"one"),
            store.save_game_batched("ann", "B1", 1, b"two again", 60, previous=b"one"),  # the version moved on
            store.save_game_batched("bob", "B1", 0, b"bob", 60),
            store.save_game_batched("bob", "B1", 0, b"bob again", 60),  # a second new game loses
            store.save_game_batched("ann", "B2", 0, b"ann B2", 60),
        )

    assert run_loop(turn()) == [True, False, True, False, True]
    assert calls == [5]  # the five in one batch
    assert store.load_game("ann", "B1") == GameRecord(2, b"two")
    assert store.load_game("bob", "B1") == GameRecord(1, b"bob")
    assert store.load_game("ann", "B2") == GameRecord(1, b"ann B2")
    with pytest.raises(TypeError, match="player must be a str"):  # checked when asked, before any batch
        run_loop(store.save_game_batched(b"ann", "B1", 0, b"x", 60))


def test_a_batch_the_store_refuses_fails_every_save_in_it(store, monkeypatch):
    async def down(ops):
        raise StoreUnavailable("the store is down")

    monkeypatch.setattr(store, "_execute", down)

    async def turn():
        return await asyncio.gather(
            store.save_game_batched("ann", "B1", 0, b"x", 60),
            store.save_game_batched("bob", "B1", 0, b"y", 60),
            return_exceptions=True,
        )

    assert [type(r) for r in run_loop(turn())] == [StoreUnavailable, StoreUnavailable]


def test_a_batch_the_store_never_answers_fails_every_call_in_it_at_its_one_deadline(store, monkeypatch):
    real = store._execute
    taken = []

    async def never(ops):  # a store that takes the batch and never answers (a hung Redis, a stuck disk)
        taken.append(len(ops))
        await asyncio.Event().wait()

    monkeypatch.setattr(store, "timeout", 0.05)
    monkeypatch.setattr(store, "_execute", never)

    async def turns():
        first = await asyncio.gather(
            store.save_game_batched("ann", "B1", 0, b"x", 60), store.aload_game("bob", "B1"), return_exceptions=True
        )
        monkeypatch.setattr(store, "_execute", real)  # the store answers again: the next turn's call is served
        return first, await store.asave_game("ann", "B2", 0, b"y", 60)

    first, second = run_loop(turns())
    assert taken == [2]  # one batch, so one deadline for both calls
    assert [type(r) for r in first] == [StoreUnavailable, StoreUnavailable]
    assert all("no answer within 0.05 s" in str(r) for r in first)
    assert second is True and store.load_game("ann", "B2") == GameRecord(1, b"y")


def test_calls_asked_while_a_sqlite_batch_is_on_its_way_go_together_in_the_next(store, monkeypatch):
    """SQLite's batches queue for its one thread: the calls of the turns while one is on its way
    gather into one batch, sent when it is answered (Store.one_batch_at_a_time); Redis sends
    each turn's batch at once."""
    real = store._execute
    taken, answer = [], asyncio.Event()

    async def held(ops):  # the first batch is answered when the test says
        taken.append(len(ops))
        if len(taken) == 1:
            await answer.wait()
        return await real(ops)

    monkeypatch.setattr(store, "_execute", held)

    async def turns():
        asked = [asyncio.ensure_future(store.asave_game("ann", "B1", 0, b"a", 60))]
        await asyncio.sleep(0.01)  # the first batch is on its way
        asked += [asyncio.ensure_future(store.asave_game(p, "B1", 0, b"b", 60)) for p in ("bob", "cy")]
        await asyncio.sleep(0.01)  # a later turn
        asked.append(asyncio.ensure_future(store.aload_game("bob", "B2")))
        await asyncio.sleep(0.01)
        answer.set()
        return await asyncio.gather(*asked)

    assert run_loop(turns()) == [True, True, True, None]
    assert taken == ([1, 3] if store.kind == "sqlite" else [1, 2, 1])
    assert store.load_game("cy", "B1") == GameRecord(1, b"b")


def test_a_sqlite_batch_that_never_answers_holds_the_next_no_longer_than_its_deadline(tmp_path, monkeypatch):
    store = SQLiteStore(tmp_path / "games.db")
    real = store._execute
    taken = []

    async def first_never(ops):  # the first batch hangs (a stuck disk); the store answers the next ones
        taken.append(len(ops))
        if len(taken) == 1:
            await asyncio.Event().wait()
        return await real(ops)

    monkeypatch.setattr(store, "timeout", 0.05)
    monkeypatch.setattr(store, "_execute", first_never)

    async def turns():
        hung = asyncio.ensure_future(store.asave_game("ann", "B1", 0, b"x", 60))
        await asyncio.sleep(0.01)
        behind = await asyncio.gather(store.asave_game("bob", "B1", 0, b"y", 60), store.aload_game("ann", "B1"))
        return await asyncio.gather(hung, return_exceptions=True), behind

    (hung,), behind = run_loop(turns())
    assert isinstance(hung, StoreUnavailable) and "no answer within 0.05 s" in str(hung)
    assert behind == [True, None] and taken == [1, 2]  # sent when the first one's deadline passed
    store.close()


def test_a_busy_sqlite_file_makes_a_batch_wait_without_stopping_the_event_loop(tmp_path: Path):
    store = SQLiteStore(tmp_path / "games.db")
    other = sqlite3.connect(tmp_path / "games.db", isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")  # another worker holds the write lock

    async def scenario():
        saves = asyncio.gather(
            store.save_game_batched("ann", "B1", 0, b"x", 60), store.save_game_batched("bob", "B1", 0, b"y", 60)
        )
        for _ in range(10):  # the loop goes on serving while the file is busy
            await asyncio.sleep(0.002)
        waiting = not saves.done()
        late = asyncio.ensure_future(store.save_game_batched("cy", "B1", 0, b"z", 60))  # joins the waiting batch
        await asyncio.sleep(0.002)
        other.execute("COMMIT")
        return waiting, await saves, await late

    assert run_loop(scenario()) == (True, [True, True], True)
    assert store.load_game("cy", "B1") == GameRecord(1, b"z")
    other.close()
    store.close()


def test_a_second_client_of_the_same_store_sees_every_write(store, tmp_path, redis_server):
    if store.kind == "sqlite":
        other = SQLiteStore(store.path)
    else:
        other = type(store)(redis_server.url, prefix=store.prefix)
    try:
        assert store.save_game("ann", "B1", 0, b"one", 60)
        assert other.load_game("ann", "B1") == GameRecord(1, b"one")
        assert not other.save_game("ann", "B1", 0, b"mine", 60)
        assert other.save_game("ann", "B1", 1, b"two", 60)
        assert store.load_game("ann", "B1") == GameRecord(2, b"two")
        assert store.spend("puzzle", "j", FAR)
        assert not other.spend("puzzle", "j", FAR)
        assert other.publish_board("d", b"other's") == b"other's"
        assert store.publish_board("d", b"mine") == b"other's"
    finally:
        other.close()


def test_ping_and_close_then_use_again(store):
    store.ping()
    store.save_game("ann", "B1", 0, b"one", 60)
    store.close()
    assert store.load_game("ann", "B1") == GameRecord(1, b"one")  # reconnects by itself


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda s: s.load_game(1, "B"), TypeError, "player must be a str, not int"),
        (lambda s: s.load_game("", "B"), ValueError, "player must be 1..512 characters, got 0"),
        (lambda s: s.load_game("p", "B" * 513), ValueError, "board must be 1..512 characters, got 513"),
        (lambda s: s.save_game("p", "B", True, b"", 60), TypeError, "expected must be an int, not bool"),
        (lambda s: s.save_game("p", "B", -1, b"", 60), ValueError, "expected must be at least 0, got -1"),
        (lambda s: s.save_game("p", "B", 0, "text", 60), TypeError, "data must be bytes, not str"),
        (lambda s: s.save_game("p", "B", 0, b"", 0), ValueError, "ttl must be at least 1, got 0"),
        (lambda s: s.save_game("p", "B", 0, b"x" * (1 << 20 + 1), 60), ValueError, "data must be at most"),
        (lambda s: s.spend("puzzle", None, 1), TypeError, "jti must be a str, not NoneType"),
        (lambda s: s.spend("puzzle", "j", 1.5), TypeError, "exp must be an int, not float"),
        (lambda s: s.publish_board("d", bytearray(b"x")), TypeError, "data must be bytes, not bytearray"),
        (lambda s: s.record_result(b"k", b"x"), TypeError, "key must be a str, not bytes"),
        (lambda s: s.record_player_result("ann", "", b"x"), ValueError, "key must be 1..512 characters"),
        (lambda s: s.record_player_result("ann", "k", "x"), TypeError, "data must be bytes, not str"),
        (lambda s: s.player_results(None), TypeError, "player must be a str, not NoneType"),
    ],
)
def test_bad_arguments_are_refused_alike(store, call, error, message):
    with pytest.raises(error) as info:
        call(store)
    assert str(info.value).startswith(message)


def test_sqlite_games_expire_after_their_ttl(tmp_path: Path):
    now = [1_000_000.0]
    store = SQLiteStore(tmp_path / "games.db", clock=lambda: now[0])
    assert store.save_game("ann", "B1", 0, b"one", 60)
    now[0] += 59
    assert store.load_game("ann", "B1") == GameRecord(1, b"one")
    assert store.save_game("ann", "B1", 1, b"two", 60)  # each save keeps the game ttl more seconds
    now[0] += 60
    assert store.load_game("ann", "B1") is None
    assert not store.save_game("ann", "B1", 2, b"late", 60)  # an expired game cannot be advanced
    assert store.save_game("ann", "B1", 0, b"new", 60)  # but a new one can start
    assert store.load_game("ann", "B1") == GameRecord(1, b"new")


def test_redis_games_and_spent_tokens_carry_their_expiry(tmp_path, redis_server):
    import redis

    store = make_store("redis", tmp_path, redis_server)
    raw = redis.Redis.from_url(redis_server.url)
    store.save_game("ann", "B1", 0, b"one", 600)
    store.spend("puzzle", "j", int(time.time()) + 300)
    store.publish_board("d", b"board")
    prefix = store.prefix
    assert 590 <= raw.ttl(f"{prefix}game:3:ann:B1") <= 600
    assert 290 <= raw.ttl(f"{prefix}spent:6:puzzle:j") <= 300
    assert raw.ttl(f"{prefix}board:d") == -1  # published boards never expire
    raw.close()
    store.close()


def test_sqlite_housekeeping_deletes_expired_records_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    import sqlite3

    from flagcore.store import sqlite_store

    monkeypatch.setattr(sqlite_store, "SWEEP_EVERY", 2)
    now = [1_000_000.0]
    store = SQLiteStore(tmp_path / "games.db", clock=lambda: now[0])
    assert store.save_game("ann", "B1", 0, b"short", 60)
    assert store.save_game("bob", "B1", 0, b"long", 600)
    assert store.spend("puzzle", "j", int(now[0]) + 30)
    now[0] += 100
    conn = store._open()
    store._tidy(conn)  # what the housekeeper thread does at a wake-up
    conn.close()
    raw = sqlite3.connect(tmp_path / "games.db")
    assert raw.execute("SELECT player FROM games").fetchall() == [("bob",)]
    assert raw.execute("SELECT count(*) FROM spent").fetchone() == (0,)
    raw.close()
    store.close()


def test_sqlite_housekeeper_runs_beside_the_writes_and_stops_on_close(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    from flagcore.store import sqlite_store

    monkeypatch.setattr(sqlite_store, "CHECKPOINT_EVERY", 5)
    store = SQLiteStore(tmp_path / "games.db")
    for i in range(40):
        assert store.save_game(f"p{i}", "B1", 0, b"%d" % i, 600)
    housekeeper = store._housekeeper
    assert housekeeper is not None and housekeeper[1].is_alive()
    store.close()
    assert not housekeeper[1].is_alive()
    again = SQLiteStore(tmp_path / "games.db")
    assert [again.load_game(f"p{i}", "B1") for i in range(40)] == [GameRecord(1, b"%d" % i) for i in range(40)]
    again.close()


class _WritesDuringTheCheckpoint:
    """The housekeeper's connection, as a busy server's meets it: while each PASSIVE checkpoint
    runs, a request reads (a snapshot of the moment) and another one's game is saved after it, so
    the checkpoint never copies the whole WAL (the reader ends just after it)."""

    def __init__(self, conn: sqlite3.Connection, store: SQLiteStore, path: Path) -> None:
        self.conn, self.store, self.saved = conn, store, 0
        self.reader = sqlite3.connect(path, isolation_level=None)

    def execute(self, sql: str, *args: object) -> sqlite3.Cursor:
        if "PASSIVE" not in sql:
            return self.conn.execute(sql, *args)
        self.reader.execute("BEGIN")
        self.reader.execute("SELECT count(*) FROM games").fetchone()
        self.saved += 1
        assert self.store.save_game(f"w{self.saved}", "B1", 0, b"x" * 500, 600)
        cursor = self.conn.execute(sql, *args)
        self.reader.execute("COMMIT")
        return cursor


@pytest.mark.parametrize("restart", [True, False])
def test_sqlite_housekeeper_keeps_the_wal_bounded_under_steady_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, restart: bool
):
    from flagcore.store import sqlite_store

    # restart=False is the control: with the RESTART step out of reach the WAL grows at every round,
    # so the bound below is one the housekeeping keeps, not one the test's writes never reach
    monkeypatch.setattr(sqlite_store, "RESTART_FRAMES", 16 if restart else 1 << 30)
    monkeypatch.setattr(sqlite_store, "CHECKPOINT_EVERY", 1 << 30)  # the test is the housekeeper here
    store = SQLiteStore(tmp_path / "games.db")
    conn = store._open(sqlite_store.RESTART_WAIT)
    busy = _WritesDuringTheCheckpoint(conn, store, tmp_path / "games.db")
    wal = tmp_path / "games.db-wal"
    sizes = []
    for round_ in range(60):
        for i in range(5):
            assert store.save_game(f"p{round_}-{i}", "B1", 0, b"y" * 500, 600)
        store._tidy(busy)  # type: ignore[arg-type]  # what the housekeeper does at a wake-up
        sizes.append(wal.stat().st_size)
    busy.reader.close()
    conn.close()
    store.close()
    pages = max(sizes) // 4096
    if restart:
        assert pages < 64, sizes  # about RESTART_FRAMES and a round's frames
    else:
        assert pages > 150 and sizes[-1] > sizes[len(sizes) // 2], sizes
