"""Stores for the tests (store and web): a fresh SQLite file, or a fresh key prefix on the session's
real redis-server (tests/conftest.py), so tests never see each other's records."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from redis_server import RedisServer

from flagcore.store import RedisStore, SQLiteStore, Store

KINDS = ["sqlite", "redis"]


def make_store(kind: str, tmp_path: Path, redis_server: RedisServer, **options: object) -> Store:
    """A fresh, empty store of ``kind``: a new SQLite file, or a new key prefix on the shared Redis.

    The tests wait longer for the store than a server does (unless a test sets ``timeout``): on a
    loaded shared machine a 2-second stall happens, and a test that fails on any 5xx would read the
    store's honest 503 as a crash."""
    options.setdefault("timeout", 15.0)
    if kind == "sqlite":
        return SQLiteStore(tmp_path / "games.db", **options)  # type: ignore[arg-type]
    return RedisStore(redis_server.url, prefix=f"test-{uuid.uuid4().hex}:", **options)  # type: ignore[arg-type]


@pytest.fixture(params=KINDS)
def store(request: pytest.FixtureRequest, tmp_path: Path, redis_server: RedisServer) -> Iterator[Store]:
    """Each real store in turn, fresh (a test module takes it with ``from stores import store``)."""
    made = make_store(request.param, tmp_path, redis_server)
    yield made
    made.close()
