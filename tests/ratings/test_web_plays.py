"""A server with a store records each finished Connections game once, anonymously, and shows the
board's aggregate only once the player finished (issue 30, items 1 and 5); both real stores."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient
from stores import store  # noqa: F401 (the fixture)

from flagcore.ratings import parse_record
from flagcore.store import Store
from flagcore.web import create_app
from flagcore.web.boards import KeyedBoards
from flagcore.web.tokens import Signer

SECRET = "Xq3v9ZtKe_Lw0pRj7HcUy2mNfA8sDgB4"


def groups_of(board_id: str) -> list[tuple[str, list[str]]]:
    boards = KeyedBoards(Signer(SECRET.encode()))
    return [(g.category_id, list(g.codes)) for g in boards.board(*boards.parse_id(board_id)).groups]


def play(client: TestClient, order: list[int], mistakes: int, seed: str = "77") -> tuple[dict, dict]:
    board = client.get("/api/connections/board", params={"seed": seed}).json()
    groups = groups_of(board["board_id"])
    token, reply = board["token"], {}
    g1, g2, g3 = groups[1][1], groups[2][1], groups[3][1]
    for k, (a, b) in enumerate([(0, 1), (0, 2), (1, 2), (0, 3)][:mistakes]):
        wrong = [g1[a], g1[b], g2[k], g3[k]]
        reply = client.post("/api/connections/guess", json={"token": token, "codes": wrong}).json()
        assert "today" not in reply or reply["over"]
        token = reply["token"]
        if reply["over"]:
            return board, reply
    for g in order:
        reply = client.post("/api/connections/guess", json={"token": token, "codes": groups[g][1]}).json()
        if not reply["over"]:
            assert "today" not in reply  # nothing of the others' games before the player finished
        token = reply["token"]
    return board, reply


def test_finished_games_are_recorded_once_with_the_days_aggregate(store: Store) -> None:  # noqa: F811
    app = create_app(SECRET, store=store)
    # one client, so one event loop for the whole test, as a server has: a record is written in the
    # batch after its game's reply; each player is a cookie of their own
    with TestClient(app) as client:
        board, end = play(client, [3, 0, 1, 2], mistakes=1)
        assert end["won"] and end["today"]["plays"] == 1 and end["today"]["won"] == 1.0
        assert end["today"]["found_first"]["purple"] == 1.0 and end["today"]["found_last"]["blue"] == 1.0
        first = dict(client.cookies)
        client.cookies.clear()  # another player: lost
        _, lost = play(client, [], mistakes=4)
        assert lost["lost"] and lost["today"]["plays"] == 2 and lost["today"]["won"] == 0.5
        # the finished game reopened shows the aggregate
        client.cookies.clear()
        client.cookies.update(first)
        again = client.get("/api/connections/board", params={"seed": "77"}).json()
        assert again["over"] and again["today"]["plays"] == 2
    records = [parse_record(raw.decode()) for raw in store.play_records()]
    assert len(records) == 2
    won, lost_rec = records
    cats = [c for c, _ in groups_of(board["board_id"])]
    assert won.board == board["board_id"] and won.categories == tuple(cats)
    assert won.solved_at == (2, 3, 4, 1) and won.mistakes == 1 and len(won.wrong) == 1
    assert not lost_rec.won and lost_rec.solved_at == (0, 0, 0, 0) and lost_rec.mistakes == 4
    assert all("player" not in raw.decode() for raw in store.play_records())


def test_a_stateless_server_records_nothing() -> None:
    client = TestClient(create_app(SECRET, store="none"))
    _, end = play(client, [0, 1, 2, 3], mistakes=0)
    assert end["won"] and "today" not in end


@pytest.mark.parametrize("text", ['{"format": 2, "categories": {}}', "{", '{"format": 1, "categories": {"x": {}}}'])
def test_a_bad_ratings_file_stops_the_app(tmp_path, text: str) -> None:
    path = tmp_path / "ratings.json"
    path.write_text(text)
    with pytest.raises(ValueError, match="ratings"):
        create_app(SECRET, store="none", ratings=str(path))


def test_serve_refuses_a_bad_ratings_file(tmp_path, capsys, monkeypatch) -> None:
    from flagcore.cli import main

    # serve sets its workers' environment: put it back after the test
    for name in ("FLAGCORE_STORE", "FLAGCORE_RATINGS", "FLAGCORE_LIBRARY", "FLAGCORE_ALLOWED_HOSTS"):
        monkeypatch.setenv(name, "")  # remembered as it was (set or not), put back after the test
        monkeypatch.delenv(name)
    monkeypatch.setenv("FLAGCORE_SECRET", SECRET)

    bad = tmp_path / "ratings.json"
    bad.write_text('{"format": 1, "categories": {"flags": {"tag:cross": {"difficulty": NaN, "sd": 1, "plays": 1}}}}')
    assert main(["serve", "--store", "none", "--ratings", str(bad), "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "NaN" in err
