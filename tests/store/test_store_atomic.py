"""A game's last save and the player's result are one atomic step, and so are a Puzzle token's
spend and its results; every call has an awaitable form that gives the plain call's answer. On a
SQLite file and a real redis-server (the ``store`` fixture runs each test on both)."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from stores import make_store

from flagcore.errors import StoreUnavailable
from flagcore.store import GameRecord

pytest_plugins = ["stores"]  # the store fixture: each real store, fresh

FAR = int(time.time()) + 3600


def run_loop(coroutine):
    """asyncio.run in a thread of its own: a browser test's Playwright may hold this thread's loop."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def test_a_save_that_ends_a_game_records_the_result_with_it(store):
    assert store.save_game("ann", "B1", 0, b"one", 60)
    result = ("connections:2026-12-01", b"won")
    assert not store.save_game("ann", "B1", 0, b"again", 60, result=result)  # the compare-and-set lost
    assert store.player_results("ann") == {}  # so nothing of it was written
    assert not store.save_game("ann", "B1", 1, b"two", 60, previous=b"not one", result=result)
    assert store.player_results("ann") == {}
    assert store.save_game("ann", "B1", 1, b"two", 60, previous=b"one", result=result)
    assert store.load_game("ann", "B1") == GameRecord(2, b"two")
    assert store.player_results("ann") == {"connections:2026-12-01": b"won"}
    # write-once: a second game of the day (another board) keeps the first result
    assert store.save_game("ann", "B2", 0, b"one", 60, result=("connections:2026-12-01", b"lost"))
    assert store.player_results("ann") == {"connections:2026-12-01": b"won"}


def test_a_verified_result_spends_its_token_and_records_both_results_or_nothing(store):
    mine = ("puzzle:2026-12-01", b"perfect")
    assert store.record_verified("puzzle", "j1", FAR, "deal-1", b"first", "ann", mine)
    assert store.result("deal-1") == b"first"
    assert store.player_results("ann") == {"puzzle:2026-12-01": b"perfect"}
    assert not store.spend("puzzle", "j1", FAR)  # spent by it
    # the token again: nothing written
    assert not store.record_verified("puzzle", "j1", FAR, "deal-2", b"x", "ann", ("puzzle:other", b"x"))
    assert store.result("deal-2") is None
    # another token of a deal with a result: refused, and its token not spent
    assert not store.record_verified("puzzle", "j2", FAR, "deal-1", b"second", "ann", ("puzzle:other", b"x"))
    assert store.result("deal-1") == b"first"
    assert store.spend("puzzle", "j2", FAR)
    assert store.player_results("ann") == {"puzzle:2026-12-01": b"perfect"}
    assert store.record_verified("puzzle", "j3", FAR, "deal-3", b"no player")  # a deal without a player
    assert not store.record_verified("puzzle", "j4", int(time.time()) - 1, "deal-4", b"expired")
    with pytest.raises(ValueError, match="give both player and result"):
        store.record_verified("puzzle", "j5", FAR, "deal-5", b"x", "ann")


def test_every_awaitable_call_answers_as_the_plain_one(store):
    async def calls():
        return [
            await store.aload_game("ann", "B1"),
            await store.asave_game("ann", "B1", 0, b"one", 60),
            await store.asave_game("ann", "B1", 1, b"two", 60, b"one", ("k", b"won")),
            await store.aload_game("ann", "B1"),
            await store.aspend("puzzle", "j", FAR),
            await store.aspend("puzzle", "j", FAR),
            await store.apublish_board("d", b"first"),
            await store.apublish_board("d", b"second"),
            await store.apublished_board("d"),
            await store.apublished_board("none"),
            await store.arecord_verified("puzzle", "v", FAR, "deal", b"r", "bob", ("p", b"perfect")),
            await store.arecord_player_result("cy", "k", b"x"),
            await store.aplayer_results("ann"),
            await store.aplayer_results("bob"),
            await store.aping(),
        ]

    assert run_loop(calls()) == [
        None,
        True,
        True,
        GameRecord(2, b"two"),
        True,
        False,
        b"first",
        b"first",
        b"first",
        None,
        True,
        b"x",
        {"k": b"won"},
        {"p": b"perfect"},
        None,
    ]
    assert store.result("deal") == b"r"


def test_calls_of_one_turn_go_together_each_with_its_own_answer(store, monkeypatch):
    assert store.save_game("ann", "B1", 0, b"one", 60)
    batches = []
    real = store._execute
    monkeypatch.setattr(store, "_execute", lambda ops: batches.append(len(ops)) or real(ops))

    async def turn():
        return await asyncio.gather(
            store.aload_game("ann", "B1"),
            store.asave_game("ann", "B1", 1, b"two", 60, b"one", ("k", b"won")),
            store.asave_game("ann", "B1", 1, b"lost", 60, b"one", ("k", b"lost")),
            store.apublish_board("d", b"x"),
            store.aplayer_results("ann"),
        )

    loaded, saved, lost, board, results = run_loop(turn())
    assert batches == [5]
    assert (loaded, saved, lost, board) == (GameRecord(1, b"one"), True, False, b"x")
    assert results == {"k": b"won"}  # in the order asked: after the save that won
    assert store.player_results("ann") == {"k": b"won"}


def test_a_sqlite_failure_between_the_save_and_the_result_writes_neither(tmp_path, monkeypatch):
    from flagcore.store import sqlite_store

    store = sqlite_store.SQLiteStore(tmp_path / "games.db", timeout=5.0)
    assert store.save_game("ann", "B1", 0, b"one", 60)
    real = sqlite_store._put_player_result
    failures = [sqlite3.OperationalError("disk I/O error")]

    def failing(*args):  # the game's UPDATE has run in the transaction; the result's INSERT fails
        if failures:
            raise failures.pop()
        return real(*args)

    monkeypatch.setattr(sqlite_store, "_put_player_result", failing)
    with pytest.raises(StoreUnavailable, match="disk I/O error"):
        store.save_game("ann", "B1", 1, b"two", 60, b"one", ("k", b"won"))
    assert store.load_game("ann", "B1") == GameRecord(1, b"one")  # the save was rolled back with it
    assert store.player_results("ann") == {}
    assert store.save_game("ann", "B1", 1, b"two", 60, b"one", ("k", b"won"))  # the retry: both, once
    assert store.load_game("ann", "B1") == GameRecord(2, b"two")
    assert store.player_results("ann") == {"k": b"won"}
    store.close()


def test_a_redis_script_checks_before_it_writes(tmp_path, redis_server):
    """A Redis script is not rolled back by an error (a SQLite transaction is: the test above):
    the scripts write only after every check, so the one error they can meet (a key of another
    type) leaves the game and the token as they were."""
    store = make_store("redis", tmp_path, redis_server)
    assert store.save_game("ann", "B1", 0, b"one", 60)
    store._pipeline([("SET", store._player_results_key("ann"), b"not a hash")])
    with pytest.raises(Exception, match="WRONGTYPE"):
        store.save_game("ann", "B1", 1, b"two", 60, b"one", ("k", b"won"))
    assert store.load_game("ann", "B1") == GameRecord(1, b"one")
    with pytest.raises(Exception, match="WRONGTYPE"):
        store.record_verified("puzzle", "j", FAR, "deal", b"r", "ann", ("k", b"won"))
    assert store.spend("puzzle", "j", FAR)  # not spent by the refused script
    assert store.result("deal") is None
    store.close()
