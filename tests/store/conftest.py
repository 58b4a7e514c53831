"""The store tests' fixture ``store``: each test once on a SQLite file and once on Redis (the real
redis-server of tests/conftest.py), the same contract for both."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from redis_server import RedisServer
from stores import KINDS, make_store

from flagcore.store import Store


@pytest.fixture(params=KINDS)
def store(request: pytest.FixtureRequest, tmp_path: Path, redis_server: RedisServer) -> Iterator[Store]:
    made = make_store(request.param, tmp_path, redis_server)
    yield made
    made.close()
