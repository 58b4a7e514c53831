"""Atomicity under concurrent use, on a SQLite file and a real redis-server: a token is spent once
and only once, no guess is lost or doubled, a published board has one value; with threads of one
process and with two processes."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from store_worker import append  # the same compare-and-set loop the second process runs

pytest_plugins = ["stores"]  # the store fixture: each real store, fresh

FAR = int(time.time()) + 3600
THREADS = 8
WORKER = Path(__file__).with_name("store_worker.py")


def run_threads(count: int, work) -> list:
    """``work(i)`` in ``count`` threads released together; their results in order."""
    barrier = threading.Barrier(count)
    results: list = [None] * count
    errors: list[BaseException] = []

    def run(i: int) -> None:
        barrier.wait()
        try:
            results[i] = work(i)
        except BaseException as exc:  # reported below, so a failing thread fails the test
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    return results


def test_threads_spend_each_token_once(store):
    tokens = 200
    won = run_threads(THREADS, lambda i: [t for t in range(tokens) if store.spend("puzzle", f"t{t}", FAR)])
    every = sorted(t for mine in won for t in mine)
    assert every == list(range(tokens))  # each token won by exactly one thread


def test_threads_lose_no_write_and_double_none(store):
    per_thread = 25
    lost = run_threads(THREADS, lambda i: sum(append(store, f"{i}-{k}") for k in range(per_thread)))
    record = store.load_game("shared", "board")
    items = json.loads(record.data)
    assert sorted(items) == sorted(f"{i}-{k}" for i in range(THREADS) for k in range(per_thread))
    assert record.version == THREADS * per_thread  # one version per recorded write, none other
    print(f"{store.kind}: {sum(lost)} lost compare-and-sets retried")


def test_of_writers_from_one_version_exactly_one_wins(store):
    assert store.save_game("ann", "B1", 0, b"start", 60)
    barrier = threading.Barrier(THREADS)

    def write(i: int) -> bool:
        version = store.load_game("ann", "B1").version
        barrier.wait()  # every thread has read version 1 before any writes
        return store.save_game("ann", "B1", version, f"guess {i}".encode(), 60)

    wins = run_threads(THREADS, write)
    assert wins.count(True) == 1
    assert store.load_game("ann", "B1").data == f"guess {wins.index(True)}".encode()
    assert store.load_game("ann", "B1").version == 2


def test_threads_publishing_one_board_all_get_the_first(store):
    got = run_threads(THREADS, lambda i: store.publish_board("daily:2026-12-01", f"board {i}".encode()))
    assert len(set(got)) == 1
    assert store.published_board("daily:2026-12-01") == got[0]
    got = run_threads(THREADS, lambda i: store.record_result("deal|ann", f"result {i}".encode()))
    assert len(set(got)) == 1
    assert store.result("deal|ann") == got[0]


@pytest.mark.slow
def test_two_processes_spend_each_token_once_and_lose_no_write(store, redis_server):
    url = str(store.path) if store.kind == "sqlite" else redis_server.url
    prefix = "" if store.kind == "sqlite" else store.prefix
    count = 150
    workers = [
        subprocess.Popen(
            [sys.executable, str(WORKER), url, prefix, name, str(count)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for name in ("a", "b")
    ]
    for w in workers:  # both have opened the store; start them together
        w.stdin.write("go\n")
        w.stdin.flush()
    replies = [json.loads(w.communicate(timeout=300)[0]) for w in workers]
    assert all(w.returncode == 0 for w in workers)
    won = sorted(replies[0]["won"] + replies[1]["won"])
    assert won == list(range(count))  # every token spent, none twice
    record = store.load_game("shared", "board")
    items = json.loads(record.data)
    assert sorted(items) == sorted(f"{n}-{i}" for n in "ab" for i in range(count))
    assert record.version == 2 * count
    print(f"{store.kind}: {replies[0]['lost'] + replies[1]['lost']} lost compare-and-sets retried")
