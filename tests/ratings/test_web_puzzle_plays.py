"""A server with a store records each verified Puzzle once, in the step that keeps its result, and
shows the aggregate of the day's Puzzle (or of the flag on its grid) only once the player finished
(issue 30, items 1 and 5); both real stores."""

from __future__ import annotations

import datetime

import pytest
from starlette.testclient import TestClient
from stores import store  # noqa: F401 (the fixture)

from flagcore.ratings import PuzzleRecord, parse_record
from flagcore.store import Store
from flagcore.web import create_app
from flagcore.web.plays import puzzle_aggregate

SECRET = "Xq3v9ZtKe_Lw0pRj7HcUy2mNfA8sDgB4"


def solve_log(start: list[int], classes: list[int], waste: int = 0) -> list[list[int]]:
    """A log that makes the board look solved (each slot given a look-alike of its own piece,
    stopping as soon as it looks solved), after ``waste`` pairs of a swap and its undoing (2 swaps
    over par a pair)."""
    tiles, log = list(start), []
    for i in range(len(tiles)):
        if all(classes[p] == classes[s] for s, p in enumerate(tiles)):
            break
        if classes[tiles[i]] != classes[i]:
            j = next(j for j in range(i + 1, len(tiles)) if classes[tiles[j]] == classes[i])
            tiles[i], tiles[j] = tiles[j], tiles[i]
            log.append([i, j])
    return [log[-1]] * (2 * waste) + log  # a swap that solves nothing alone (par >= 2, asserted)


def finish(client: TestClient, deal: dict, waste: int = 0) -> dict:
    assert deal["par"] >= 2
    log = solve_log(deal["tiles_by_slot"], deal["classes"], waste)
    r = client.post("/api/puzzle/verify", json={"token": deal["token"], "swaps": log})
    assert r.status_code == 200, r.text
    return r.json()


def test_verified_puzzles_are_recorded_once_with_the_days_aggregate(store: Store) -> None:  # noqa: F811
    today = datetime.datetime.now(datetime.timezone.utc).date().isoformat()
    with TestClient(create_app(SECRET, store=store)) as client:
        deal = client.post("/api/puzzle/deal", json={"daily": today}).json()
        assert "today" not in deal  # nothing of the others' games before the player finished
        assert client.post("/api/puzzle/progress", json={"token": deal["token"], "swaps": [[0, 1]]}).status_code == 200
        assert "today" not in client.post("/api/puzzle/deal", json={"daily": today}).json()
        first = finish(client, deal)
        assert first["today"]["plays"] == 1 and first["today"]["median_over_par"] == first["over_par"]
        log = solve_log(deal["tiles_by_slot"], deal["classes"])
        again = client.post("/api/puzzle/verify", json={"token": deal["token"], "swaps": log})
        assert again.status_code == 409  # verified once: recorded once
        me = dict(client.cookies)
        for waste in (2, 3):  # two more players, each 4 and 6 swaps over the first one's
            client.cookies.clear()
            theirs = client.post("/api/puzzle/deal", json={"daily": today}).json()
            assert "today" not in theirs
            last = finish(client, theirs, waste)
        assert last["today"]["plays"] == 3 and last["today"]["median_over_par"] == first["over_par"] + 4
        client.cookies.clear()
        client.cookies.update(me)
        reopened = client.post("/api/puzzle/deal", json={"daily": today}).json()
        assert reopened["today"] == last["today"] and "today" not in reopened["result"]
        # a random deal counts for its flag on its grid, not for the day
        jp = client.post("/api/puzzle/deal", json={"flag": "JP", "grid": "easy", "seed": 5}).json()
        assert finish(client, jp)["today"]["plays"] == 1
    records = [parse_record(raw.decode()) for raw in store.play_records()]
    assert len(records) == 4 and all(isinstance(r, PuzzleRecord) and r.solved for r in records)
    assert [r.day for r in records] == [today] * 3 + [None]
    assert [r.swaps_over_par for r in records[:3]] == [first["over_par"], first["over_par"] + 4, first["over_par"] + 6]
    assert (records[3].flag, records[3].grid) == ("JP", f"{jp['grid']['columns']}x{jp['grid']['rows']}")
    assert all("player" not in raw.decode() for raw in store.play_records())


def test_a_failed_verify_records_nothing(store: Store) -> None:  # noqa: F811
    with TestClient(create_app(SECRET, store=store)) as client:
        deal = client.post("/api/puzzle/deal", json={"flag": "BR", "grid": "hard", "seed": 11}).json()
        r = client.post("/api/puzzle/verify", json={"token": deal["token"], "swaps": [[0, 1]]})
        assert r.status_code == 422
        assert "today" not in client.post("/api/puzzle/deal", json={"flag": "BR", "grid": "hard", "seed": 11}).json()
    assert list(store.play_records()) == []


def test_a_stateless_server_shows_no_aggregate() -> None:
    client = TestClient(create_app(SECRET, store="none"))
    done = finish(client, client.post("/api/puzzle/deal", json={"flag": "BR", "grid": "hard", "seed": 11}).json())
    assert "today" not in done


@pytest.mark.parametrize(
    ("counts", "want"),
    [
        ({}, None),
        ({"plays": 1, "over:0": 1}, {"plays": 1, "perfect": 1.0, "median_over_par": 0, "over_par": [1]}),
        (
            {"plays": 4, "over:0": 1, "over:2": 2, "over:20": 1},
            {"plays": 4, "perfect": 0.25, "median_over_par": 2, "over_par": [1, 0, 2] + [0] * 17 + [1]},
        ),
        ({"plays": 2}, {"plays": 2, "perfect": 0.0, "median_over_par": None, "over_par": []}),
    ],
)
def test_the_aggregate_of_the_counters(counts: dict[str, int], want: object) -> None:
    assert puzzle_aggregate(counts) == want
