"""The app's start-up (the ASGI lifespan): a worker deals ahead what its first board request would
pay, so no request builds the library's tables, the difficulty model or today's schedule."""

from __future__ import annotations

import datetime as _dt
import gc
import json
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from web_helpers import SECRET

from flagcore.connections import difficulty, tables
from flagcore.connections.daily import ahead, build
from flagcore.connections.daily.ahead import PLANNER
from flagcore.web import boards, ops
from flagcore.web.app import create_app

# a private library: a Library object of this app's own, whose tables no other test built
PRIVATE = Path(__file__).resolve().parents[2] / "flags"


@pytest.fixture
def work(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The start-up work done so far, by name: every call that builds a table, a model or a day's
    board, but the daily's background planning (its thread plans the days ahead, by design: no
    request waits for it)."""
    done: list[str] = []

    def counted(name: str, real: Any) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            if threading.current_thread().name != PLANNER:
                done.append(name)
            return real(*args, **kwargs)

        return call

    monkeypatch.setattr(tables, "compile_tables", counted("tables", tables.compile_tables))
    monkeypatch.setattr(difficulty, "category_difficulty", counted("model", difficulty.category_difficulty))
    monkeypatch.setattr(build, "category_difficulty", counted("schedule", build.category_difficulty))
    monkeypatch.setattr(boards, "daily", counted("daily", boards.daily))
    return done


def test_the_first_requests_after_start_up_build_nothing(work: list[str]) -> None:
    app = create_app(SECRET, library=PRIVATE)
    assert work == []  # made, not started: a server run with the lifespan off pays it at its first board
    today = _dt.datetime.now(_dt.timezone.utc).date().isoformat()
    with TestClient(app) as client:  # the lifespan's start-up, as the servers send it before any request
        assert {"tables", "model", "schedule", "daily"} <= set(work), work
        work.clear()
        for mode in ("flags", "trivia"):
            assert client.get("/api/connections/board", params={"seed": "41", "mode": mode}).status_code == 200
            assert client.get("/api/connections/board", params={"daily": today, "mode": mode}).status_code == 200
    assert work == []  # a new seed's board is a search on built tables; today's daily was dealt at start-up


def test_without_the_lifespan_the_first_board_builds_them(work: list[str]) -> None:
    # the test above could not fail if the first request built nothing anyway: here it does
    client = TestClient(create_app(SECRET, library=PRIVATE))  # no `with`: no lifespan
    assert client.get("/api/connections/board", params={"seed": "41"}).status_code == 200
    assert "tables" in work and "model" in work


def test_the_start_up_objects_are_frozen_out_of_the_collector_while_serving() -> None:
    """After start-up, a full collection walks only what serving made: the app and what it made at
    start-up (the library, its tables, the dailies) are in no generation of the collector until
    the lifespan's shutdown gives them back."""
    app = create_app(SECRET)

    def tracked() -> bool:
        return any(o is app for o in gc.get_objects())

    assert tracked()
    with TestClient(app) as client:
        assert gc.get_freeze_count() > 0
        assert not tracked()
        assert client.get("/api/connections/board", params={"seed": "7"}).status_code == 200
        gc.collect()  # a full collection while serving: the frozen objects stay frozen
        assert not tracked()
    assert gc.get_freeze_count() == 0
    assert tracked()


def test_while_serving_the_collectors_first_threshold_is_raised_and_given_back_at_shutdown() -> None:
    """A young collection at CPython's 700 came every few turns of the loop and promoted the
    objects of the requests in flight, which set off full collections (flagcore.web.ops)."""
    before = gc.get_threshold()
    with TestClient(create_app(SECRET)) as client:
        assert gc.get_threshold() == (max(ops.YOUNG_COLLECTION, before[0]), *before[1:])
        assert ops.YOUNG_COLLECTION > 700
        assert client.get("/api/connections/board", params={"seed": "7"}).status_code == 200
    assert gc.get_threshold() == before


def test_serving_guesses_with_a_store_makes_no_cyclic_garbage(tmp_path: Path) -> None:
    """What the raised threshold rests on: the objects of a request die by their reference counts,
    so the collector has nothing to find (anonymous first guesses and second guesses, SQLite).
    Run in a process of its own (tests/web/cycle_probe.py): another test's garbage is not counted."""
    probe = Path(__file__).with_name("cycle_probe.py")
    done = subprocess.run(
        [sys.executable, str(probe), str(tmp_path / "games.db")], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.splitlines()[-1])
    assert seen["serving"][0] == max(ops.YOUNG_COLLECTION, seen["start"][0]) and seen["after"] == seen["start"]
    assert seen["cyclic"] == 0


def test_readyz_answers_503_until_the_first_plans_are_computed(monkeypatch: pytest.MonkeyPatch) -> None:
    # the warm-up starts the daily's planners; /readyz reads the events of their first plans
    pending = threading.Event()
    monkeypatch.setattr(ahead, "planning", lambda: (pending,))
    with TestClient(create_app(SECRET)) as client:
        reply = client.get("/readyz")
        assert reply.status_code == 503 and reply.json() == {"status": "planning"}
        assert client.get("/healthz").status_code == 200  # alive all the while
        pending.set()
        assert client.get("/readyz").status_code == 200


def test_readyz_is_ready_once_the_warm_ups_planners_are_done() -> None:
    with TestClient(create_app(SECRET, library=PRIVATE)) as client:
        assert ahead.settle(600)
        assert client.get("/readyz").status_code == 200
