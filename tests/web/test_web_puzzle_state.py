"""The Puzzle's game state on the server (issue 34), on a real SQLite file and a real redis-server
(the ``store`` fixture): a deal says its par; with a store it says the player's swaps so far
(``POST /api/puzzle/progress`` keeps them) and, once verified, the result, so a reload or another
browser of the player finds the game where it is; hostile logs are refused, never kept."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient
from web_helpers import SECRET, greedy_log, looks_solved

from flagcore.store import Store
from flagcore.web import create_app

pytest_plugins = ["stores"]  # the store fixture: each real store, fresh
DEAL = {"flag": "BR", "grid": "hard", "seed": 11}


@pytest.fixture
def client(store: Store) -> TestClient:
    return TestClient(create_app(SECRET, store=store))  # keeps the player cookie like a browser


def progress(client: TestClient, token: str, swaps: object):  # type: ignore[no-untyped-def]
    return client.post("/api/puzzle/progress", json={"token": token, "swaps": swaps})


def test_a_deal_says_its_par_with_or_without_a_store() -> None:
    stateless = TestClient(create_app(SECRET)).post("/api/puzzle/deal", json=DEAL).json()
    log = greedy_log(stateless["tiles_by_slot"], stateless["classes"])
    verified = (
        TestClient(create_app(SECRET))
        .post("/api/puzzle/verify", json={"token": stateless["token"], "swaps": log})
        .json()
    )
    assert stateless["par"] == verified["par"] and "kept" not in stateless and "swaps" not in stateless


def test_progress_is_kept_for_the_player_and_a_verified_deal_stays_finished(client, store) -> None:  # type: ignore[no-untyped-def]
    deal = client.post("/api/puzzle/deal", json=DEAL).json()
    assert deal["kept"] is True and "swaps" not in deal and "result" not in deal
    log = greedy_log(deal["tiles_by_slot"], deal["classes"])
    assert len(log) >= 3
    for n in (1, 2):
        r = progress(client, deal["token"], log[:n])
        assert r.status_code == 200 and r.json() == {"swaps": n}
    again = client.post("/api/puzzle/deal", json=DEAL).json()  # a reload: the same deal, the swaps so far
    assert again["swaps"] == log[:2] and again["tiles_by_slot"] == deal["tiles_by_slot"]
    other = TestClient(create_app(SECRET, store=store))  # another player: a game of their own
    assert "swaps" not in other.post("/api/puzzle/deal", json=DEAL).json()
    # the same player in another browser (its cookie), going on from the second swap with the new token
    browser = TestClient(create_app(SECRET, store=store), cookies=dict(client.cookies))
    there = browser.post("/api/puzzle/deal", json=DEAL).json()
    assert there["swaps"] == log[:2]
    verified = browser.post("/api/puzzle/verify", json={"token": there["token"], "swaps": log})
    assert verified.status_code == 200
    finished = client.post("/api/puzzle/deal", json=DEAL).json()
    assert {**finished["result"], "today": finished["today"]} == verified.json() and "swaps" not in finished
    r = progress(client, finished["token"], log[:1])  # a finished deal keeps no more swaps
    assert r.status_code == 409 and r.json()["error"]["code"] == "already_verified"


def test_the_days_deal_is_kept_too_and_counts_once(client) -> None:  # type: ignore[no-untyped-def]
    import datetime

    today = datetime.datetime.now(datetime.timezone.utc).date().isoformat()
    deal = client.post("/api/puzzle/deal", json={"daily": today}).json()
    log = greedy_log(deal["tiles_by_slot"], deal["classes"])
    assert progress(client, deal["token"], log[:1]).json() == {"swaps": 1}
    assert client.post("/api/puzzle/deal", json={"daily": today}).json()["swaps"] == log[:1]
    assert client.post("/api/puzzle/verify", json={"token": deal["token"], "swaps": log}).status_code == 200
    again = client.post("/api/puzzle/deal", json={"daily": today}).json()
    assert again["daily"] == today and again["result"]["swaps"] == len(log)
    played = client.get("/api/stats").json()["games"]["puzzle"]
    assert played["played"] == 1 and played["today"] == {"won": True, "score": len(log) - deal["par"]}


@pytest.mark.parametrize(
    "swaps,code",
    [
        ([[0, 15]], "bad_swaps"),  # a 5x3 board has slots 0..14
        ([[-1, 2]], "bad_swaps"),
        ([[1, 1.5]], "bad_swaps"),
        ([[1, True]], "bad_swaps"),
        ([[1, 2, 3]], "bad_swaps"),
        ([["1", "2"]], "bad_swaps"),
        ([1, 2], "bad_swaps"),
        ([[0, 1]] * 1001, "bad_swaps"),
        ("[[0, 1]]", "bad_type"),
    ],
)
def test_a_hostile_log_is_refused_and_never_kept(client, swaps, code) -> None:  # type: ignore[no-untyped-def]
    deal = client.post("/api/puzzle/deal", json=DEAL).json()
    r = progress(client, deal["token"], swaps)
    assert r.status_code == 400 and r.json()["error"]["code"] == code, r.text
    assert "swaps" not in client.post("/api/puzzle/deal", json=DEAL).json()


def test_progress_needs_a_store_and_a_good_token(client) -> None:  # type: ignore[no-untyped-def]
    stateless = TestClient(create_app(SECRET))
    deal = stateless.post("/api/puzzle/deal", json=DEAL).json()
    r = progress(stateless, deal["token"], [[0, 1]])
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_kept"
    r = progress(client, deal["token"], [[0, 1]])  # a token of a stateless deal names no player
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_kept"
    mine = client.post("/api/puzzle/deal", json=DEAL).json()
    assert progress(client, mine["token"][:-2] + "xx", [[0, 1]]).status_code == 403
    assert progress(client, "x", [[0, 1]]).status_code in (400, 403)


def test_a_kept_log_replays_to_a_solved_board(client) -> None:  # type: ignore[no-untyped-def]
    deal = client.post("/api/puzzle/deal", json=DEAL).json()
    log = greedy_log(deal["tiles_by_slot"], deal["classes"])
    progress(client, deal["token"], log)  # the whole log kept before the verify (a page that died)
    tiles = list(deal["tiles_by_slot"])
    for a, b in client.post("/api/puzzle/deal", json=DEAL).json()["swaps"]:
        tiles[a], tiles[b] = tiles[b], tiles[a]
    assert looks_solved(tiles, deal["classes"])
