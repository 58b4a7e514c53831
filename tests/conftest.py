"""Shared fixtures: ``twin`` runs a test once on the compiled core and once on the reference twin.

``use_twin`` points the whole package at one implementation through its one switch
(``flagcore._impl.core``), which is what FLAGCORE_IMPL does at first use; a test using ``twin``
therefore exercises the public API over both twins in one run, whatever FLAGCORE_IMPL says. CI
also runs the whole suite with FLAGCORE_IMPL=python (.ci/run).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from redis_server import RedisServer

from flagcore import _impl

# The four engine modules of each twin, by name (for tests that call a twin's module directly).
TWINS = {name: _impl.modules(name) for name in ("compiled", "python")}


def use_twin(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """Make the whole package call the twin ``name`` ("compiled" or "python") for one test."""
    for slot in _impl.Core.__slots__:  # remember the switch's state: monkeypatch puts it back after the test
        monkeypatch.setattr(_impl.core, slot, getattr(_impl.core, slot))
    _impl.core.use(name)


@pytest.fixture(params=list(TWINS))
def twin(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    use_twin(monkeypatch, request.param)
    return str(request.param)


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    """A real redis-server for the session (tests/redis_server.py): the store and web tests share it."""
    server = RedisServer()
    server.start()
    yield server
    server.stop()
