"""The store tests' fixtures: a real redis-server for the session, and ``store``, which runs a test
once on a SQLite file and once on Redis (the same contract for both)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from redis_server import RedisServer

from flagcore.store import RedisStore, SQLiteStore, Store


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    server = RedisServer()
    server.start()
    yield server
    server.stop()


def make_store(kind: str, tmp_path: Path, redis_server: RedisServer, **options: object) -> Store:
    """A fresh, empty store of ``kind``: a new SQLite file, or a new key prefix on the shared Redis."""
    if kind == "sqlite":
        return SQLiteStore(tmp_path / "games.db", **options)  # type: ignore[arg-type]
    return RedisStore(redis_server.url, prefix=f"test-{uuid.uuid4().hex}:", **options)  # type: ignore[arg-type]


@pytest.fixture(params=["sqlite", "redis"])
def store(request: pytest.FixtureRequest, tmp_path: Path, redis_server: RedisServer) -> Iterator[Store]:
    made = make_store(request.param, tmp_path, redis_server)
    yield made
    made.close()
