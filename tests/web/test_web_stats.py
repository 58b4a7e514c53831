"""Issue 23: a player's stats on the server (GET /api/stats), on a real SQLite file and a real
redis-server: what counts (today's dailies, once), the figures, and who sees them."""

from __future__ import annotations

import datetime

import orjson
import pytest
from starlette.testclient import TestClient
from web_helpers import SECRET, answers, optimal_log, par_log

from flagcore.store import Store
from flagcore.web import create_app
from flagcore.web.stats import counts, result_data, result_key, summary

pytest_plugins = ["stores"]  # the store fixture: each real store, fresh

UTC = datetime.timezone.utc


def today() -> str:
    return datetime.datetime.now(UTC).date().isoformat()


@pytest.fixture
def client(store: Store) -> TestClient:
    return TestClient(create_app(SECRET, store=store))  # keeps the player cookie like a browser


def play(client: TestClient, query: dict[str, str], mistakes: int, win: bool = True) -> dict:
    """Open a board and finish it: ``mistakes`` wrong guesses, then the four groups (or a loss)."""
    board = client.get("/api/connections/board", params=query).json()
    groups = [list(g.codes) for g in answers(board["board_id"]).groups]
    g1, g2, g3 = groups[1], groups[2], groups[3]  # two tiles of group 1, one of 2, one of 3: always wrong
    wrong = [[g1[a], g1[b], g2[k], g3[k]] for k, (a, b) in enumerate([(0, 1), (0, 2), (1, 2), (0, 3)])]
    guesses = wrong[:mistakes] + (groups if win else wrong[mistakes:])
    token = board["token"]
    for codes in guesses:
        reply = client.post("/api/connections/guess", json={"token": token, "codes": codes}).json()
        token = reply["token"]
        if reply["over"]:
            return reply
    raise AssertionError("the game did not end")


def test_todays_dailies_count_once_per_game_and_other_boards_are_practice(client):
    assert client.get("/api/stats").json()["games"]["connections"]["played"] == 0
    assert play(client, {"daily": today()}, mistakes=1)["won"]
    assert play(client, {"seed": "practice"}, mistakes=0)["won"]  # not a daily
    assert play(client, {"daily": "2026-03-01"}, mistakes=0)["won"]  # the archive: its day is over everywhere
    assert play(client, {"daily": today(), "mode": "trivia"}, mistakes=0, win=False)["lost"]
    figures = client.get("/api/stats").json()["games"]
    assert figures["connections"] == {
        "played": 1,
        "wins": 1,
        "win_rate": 100,
        "current_streak": 1,
        "best_streak": 1,
        "scores": [0, 1],  # one win with one mistake
        "today": {"won": True, "score": 1},
        "days": {today(): {"won": True, "score": 1}},
    }
    trivia = figures["connections-trivia"]
    assert (trivia["played"], trivia["wins"], trivia["win_rate"], trivia["current_streak"]) == (1, 0, 0, 0)
    assert trivia["today"] == {"won": False, "score": 4}
    assert figures["puzzle"]["played"] == 0


def test_a_daily_puzzle_counts_its_swaps_over_par(client):
    deal = client.post("/api/puzzle/deal", json={"daily": today()}).json()
    swaps = par_log(deal["tiles_by_slot"], deal["classes"])  # today's grid may be 5x3: too large to search
    swaps = swaps[:1] + swaps[:1] + swaps  # a swap and its undo first: two over par
    verified = client.post("/api/puzzle/verify", json={"token": deal["token"], "swaps": swaps}).json()
    assert verified["solved"] and verified["over_par"] == 2
    puzzle = client.get("/api/stats").json()["games"]["puzzle"]
    assert (puzzle["played"], puzzle["wins"], puzzle["scores"]) == (1, 1, [0, 0, 1])
    practice = client.post("/api/puzzle/deal", json={"flag": "FR", "grid": "easy", "seed": 5}).json()
    best = optimal_log(practice["tiles_by_slot"], practice["classes"])
    assert client.post("/api/puzzle/verify", json={"token": practice["token"], "swaps": best}).status_code == 200
    assert client.get("/api/stats").json()["games"]["puzzle"]["played"] == 1


def test_stats_are_the_players_own(store):
    ann, bob = TestClient(create_app(SECRET, store=store)), TestClient(create_app(SECRET, store=store))
    play(ann, {"daily": today()}, mistakes=0)
    assert ann.get("/api/stats").json()["games"]["connections"]["wins"] == 1
    assert bob.get("/api/stats").json()["games"]["connections"]["played"] == 0
    # the same player on another worker (another app on the same store) sees the same figures
    other_worker = TestClient(create_app(SECRET, store=store), cookies=dict(ann.cookies))
    assert other_worker.get("/api/stats").json()["games"]["connections"]["wins"] == 1


def test_without_a_store_the_server_keeps_no_stats():
    r = TestClient(create_app(SECRET, store="none")).get("/api/stats")
    assert r.status_code == 200 and r.json() == {"kept": False}  # the browser shows its own


def test_figures_streaks_and_scores():
    def results(days: dict[str, tuple[bool, int]]) -> dict[str, bytes]:
        return {result_key("puzzle", day): result_data(won, score) for day, (won, score) in days.items()}

    today_ = datetime.date(2026, 12, 10)
    days = {
        "2026-12-01": (True, 0),
        "2026-12-02": (True, 3),
        "2026-12-03": (True, 0),  # a run of three
        "2026-12-05": (False, 1),
        "2026-12-08": (True, 1),
        "2026-12-09": (True, 0),  # yesterday: today not played yet, the streak still stands
    }
    figures = summary(results(days) | {"result-of-another-kind": b"x"}, today_)["puzzle"]
    assert figures["played"] == 6 and figures["wins"] == 5 and figures["win_rate"] == 83
    assert (figures["current_streak"], figures["best_streak"]) == (2, 3)
    assert figures["scores"] == [3, 1, 0, 1] and figures["today"] is None
    won_today = summary(results({**days, "2026-12-10": (True, 2)}), today_)["puzzle"]
    assert won_today["current_streak"] == 3 and won_today["today"] == {"won": True, "score": 2}
    lost_today = summary(results({**days, "2026-12-10": (False, 4)}), today_)["puzzle"]
    assert lost_today["current_streak"] == 0
    assert summary({}, today_)["connections"] == {
        "played": 0,
        "wins": 0,
        "win_rate": 0,
        "current_streak": 0,
        "best_streak": 0,
        "scores": [],
        "today": None,
        "days": {},
    }
    assert orjson.loads(result_data(True, 2)) == {"won": True, "score": 2}


def test_a_daily_counts_until_its_day_has_ended_everywhere():
    at = datetime.datetime(2026, 12, 2, 11, 59, tzinfo=UTC)  # still 2026-12-01 in UTC-12
    assert counts("2026-12-01", at) and counts("2026-12-02", at)
    assert not counts("2026-12-01", at + datetime.timedelta(minutes=1))
    assert not counts("2026-11-30", at)
