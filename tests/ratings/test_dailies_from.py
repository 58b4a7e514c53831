"""A ratings refit never recolours a published daily, on a server without a store too (issue 31):
a ratings file says from which day it colours the dailies (``dailies_from``), keeps the files it
replaced in its history folder, and the daily of day D is coloured by the newest of them whose
``dailies_from`` is D or before (docs/ratings.md, "The shipped ratings")."""

from __future__ import annotations

import datetime as _dt
import json
import shutil
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from flagcore import connections
from flagcore.cli import main
from flagcore.errors import RatingsError
from flagcore.ratings import Ratings, load_ratings
from flagcore.ratings.shipped import SHIPPED
from flagcore.web import create_app
from flagcore.web.app import derived_season_key
from flagcore.web.tokens import Signer

ROOT = Path(__file__).resolve().parents[2]
FELT = sorted((ROOT / "records" / "felt").glob("ratings-*.json"))
OLD = ROOT / "records" / "felt" / "ratings-7rx8zs.json"  # the shipped file before njgagv
SECRET = "Xq3v9ZtKe_Lw0pRj7HcUy2mNfA8sDgB4"
REFIT = "2026-11-20"  # the refit's first day (past: the server serves it)


def colours(board: connections.Board) -> list[tuple[int, str]]:
    """A board's groups as the player sees them: (tier, category), yellow first."""
    return sorted((g.tier, g.category_id) for g in board.groups)


def reversed_ratings(doc: dict, day: str) -> dict:
    """A refit that disagrees with ``doc`` everywhere: each category's difficulty negated."""
    new = json.loads(json.dumps(doc))
    for cs in new["categories"].values():
        for e in cs.values():
            e["difficulty"] = -e["difficulty"]
    new["dailies_from"] = day
    return new


@pytest.mark.parametrize("path", FELT, ids=lambda p: p.name)
def test_files_without_the_key_still_load_and_keep_their_name(path) -> None:
    r = load_ratings(path)
    assert r.dailies_from is None and r.earlier == ()
    assert path.name == f"ratings-{r.digest}.json"
    assert "dailies_from" not in r.to_dict() and r.dumps() == path.read_text()  # read and written alike


def test_the_day_picks_the_newest_file_that_colours_it() -> None:
    a, b, c = Ratings(), Ratings(dailies_from="2026-12-05"), Ratings(dailies_from="2027-01-10")
    c.earlier = (a, b)
    assert c.for_day("2026-01-01") is a and c.for_day("2026-12-04") is a
    assert c.for_day(_dt.date(2026, 12, 5)) is b and c.for_day("2027-01-09") is b
    assert c.for_day("2027-01-10") is c and c.for_day("2031-03-03") is c
    d = Ratings(dailies_from="2026-12-05")  # no history: it colours every daily
    assert d.for_day("2026-01-01") is d
    b.earlier = (Ratings(dailies_from="2026-12-01"),)  # the oldest colours the days before it
    assert b.for_day("2026-11-01") is b.earlier[0]


def test_the_digest_does_not_read_the_day() -> None:
    doc = load_ratings(OLD).to_dict()
    assert load_ratings({**doc, "dailies_from": "2026-12-05"}).digest == load_ratings(doc).digest == "7rx8zs"


@pytest.mark.parametrize(
    ("newest", "history", "message"),
    [
        (None, [None], "needs dailies_from"),
        ("2026-12-05", ["2026-12-05"], "a dailies_from of its own"),
        ("2026-12-05", ["2026-12-09"], "a dailies_from of its own"),
        ("2026-12-05", [None, None], "a dailies_from of its own"),
        ("2026-12-05", ["2026-12-01", "2026-12-01"], "a dailies_from of its own"),
    ],
)
def test_a_history_that_does_not_climb_is_refused(tmp_path, newest, history, message) -> None:
    doc = {"format": 1, "categories": {}}
    (tmp_path / "r").mkdir()
    (tmp_path / "r.json").write_text(json.dumps({**doc, "dailies_from": newest}))
    for n, day in enumerate(history):
        (tmp_path / "r" / f"{n}.json").write_text(json.dumps({**doc, "dailies_from": day}))
    with pytest.raises(RatingsError, match=message):
        load_ratings(tmp_path / "r.json")


def test_a_bad_day_or_a_bad_file_of_the_history_is_refused(tmp_path) -> None:
    with pytest.raises(RatingsError, match="dailies_from '2026-02-30' is not a date"):
        load_ratings({"format": 1, "categories": {}, "dailies_from": "2026-02-30"})
    (tmp_path / "r").mkdir()
    (tmp_path / "r.json").write_text('{"format": 1, "categories": {}, "dailies_from": "2026-12-05"}')
    (tmp_path / "r" / "old.json").write_text('{"format": 1}')
    with pytest.raises(RatingsError, match=r"old\.json: missing key 'categories'"):
        load_ratings(tmp_path / "r.json")


def _served(client: TestClient, day: str, mode: str) -> list[tuple[int, str]]:
    """The colours the app serves for a daily: its board, each group guessed, the tier each
    reply names (what a player sees), as (tier, the group's label)."""
    board = client.get("/api/connections/board", params={"daily": day, "mode": mode}).json()
    groups = connections.daily(day, mode, key=derived_season_key(Signer(SECRET.encode()))).groups
    token, seen = board["token"], []
    for g in groups:
        reply = client.post("/api/connections/guess", json={"token": token, "codes": list(g.codes)}).json()
        seen.append((reply["group"]["tier"], reply["group"]["label"]))
        token = reply["token"] or token
    return sorted(seen)


def _expected(day: str, mode: str, ratings: Ratings) -> list[tuple[int, str]]:
    key = derived_season_key(Signer(SECRET.encode()))
    return sorted((g.tier, g.label) for g in connections.daily(day, mode, key=key, ratings=ratings).groups)


def test_a_refit_leaves_every_daily_before_its_day_as_served_on_a_server_without_a_store(tmp_path) -> None:
    """Before the refit the app serves the old file; after it (the old file kept in the history
    folder), the dailies before the refit's day are served exactly as before, and the days from
    it take the new ratings (which colour some of them otherwise)."""
    path = tmp_path / "ratings.json"
    shutil.copy(OLD, path)
    days = [(_dt.date(2026, 11, 20) + _dt.timedelta(days=k)).isoformat() for k in range(-4, 4)]
    before = TestClient(create_app(SECRET, store="none", ratings=path))
    served = {(d, m): _served(before, d, m) for d in days for m in ("flags", "trivia")}
    (tmp_path / "ratings").mkdir()
    shutil.move(path, tmp_path / "ratings" / "7rx8zs.json")
    path.write_text(json.dumps(reversed_ratings(json.loads(OLD.read_text()), REFIT)))
    after = TestClient(create_app(SECRET, store="none", ratings=path))
    new, alone = load_ratings(path), load_ratings(json.loads(path.read_text()))
    assert [r.digest for r in new.earlier] == ["7rx8zs"]
    moved = 0
    for (d, m), was in served.items():
        now = _served(after, d, m)
        if d < REFIT:
            assert now == was, (d, m)
        else:
            assert now == _expected(d, m, alone), (d, m)
            moved += now != was
    assert moved >= 2  # the refit does colour the days from its day otherwise


def _guess(client: TestClient, token: str, codes: list[str]) -> dict:
    reply = client.post("/api/connections/guess", json={"token": token, "codes": codes})
    assert reply.status_code == 200, reply.text
    return reply.json()


def _graded(reply: dict) -> dict:
    """A guess's reply without its token (signed anew at every reply: its expiry and nonce)."""
    return {k: v for k, v in reply.items() if k != "token"}


def test_a_refit_keeps_the_ids_and_tokens_of_the_dailies_it_leaves_alone(tmp_path) -> None:
    """A daily's id names the ratings that colour its day, so the id and game tokens a player
    holds of a day before the refit's stay this server's after it (no store), and grade as before;
    a seed's id names the newest ratings, which deal its board anew, so the old one is refused."""
    path = tmp_path / "ratings.json"
    shutil.copy(OLD, path)
    day, mode = "2026-11-19", "trivia"  # the day before REFIT
    groups = connections.daily(day, mode, key=derived_season_key(Signer(SECRET.encode()))).groups
    before = TestClient(create_app(SECRET, store="none", ratings=path))
    daily = before.get("/api/connections/board", params={"daily": day, "mode": mode}).json()
    seed = before.get("/api/connections/board", params={"seed": 2024, "mode": mode}).json()
    first = _guess(before, daily["token"], list(groups[0].codes))
    second = _guess(before, first["token"], list(groups[1].codes))
    (tmp_path / "ratings").mkdir()
    shutil.move(path, tmp_path / "ratings" / "7rx8zs.json")
    path.write_text(json.dumps(reversed_ratings(json.loads(OLD.read_text()), REFIT)))
    after = TestClient(create_app(SECRET, store="none", ratings=path))
    again = after.get("/api/connections/board", params={"id": daily["board_id"]})
    assert again.status_code == 200, again.text
    assert again.json() == {**daily, "daily": None}  # the same id, token and tiles (asked by id, not date)
    assert after.get("/api/connections/board", params={"daily": day, "mode": mode}).json() == daily
    assert _graded(_guess(after, daily["token"], list(groups[0].codes))) == _graded(first)  # the token: the id
    assert _graded(_guess(after, first["token"], list(groups[1].codes))) == _graded(second)
    refused = after.get("/api/connections/board", params={"id": seed["board_id"]})
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "bad_board"
    refused = after.post("/api/connections/guess", json={"token": seed["token"], "codes": list(groups[0].codes)})
    assert refused.status_code == 400 and "not a board id of this server" in refused.json()["error"]["message"]
    # a day from the refit's on: the newest ratings, so its id is one of theirs (no id outlives it)
    late = after.get("/api/connections/board", params={"daily": REFIT, "mode": mode}).json()
    assert before.get("/api/connections/board", params={"id": late["board_id"]}).status_code == 400


def test_the_shipped_file_keeps_the_ids_7rx8zs_dealt_for_the_dailies_it_colours() -> None:
    """A server on 7rx8zs alone (shipped before njgagv) and one on shipped.json deal 2026-12-03's
    daily under one id; a seed's ids differ (njgagv deals it)."""
    old = TestClient(create_app(SECRET, store="none", ratings=OLD))
    now = TestClient(create_app(SECRET, store="none", ratings=SHIPPED))
    for mode in ("flags", "trivia"):
        ask = [{"daily": "2026-12-03", "mode": mode}, {"seed": 7, "mode": mode}]
        daily, seed = ([c.get("/api/connections/board", params=p).json()["board_id"] for c in (old, now)] for p in ask)
        assert daily[0] == daily[1] and seed[0] != seed[1]


def test_the_shipped_history_keeps_the_december_dailies_as_served() -> None:
    """shipped.json (zhh102) colours the dailies from 2026-12-06 and njgagv, the file before it, the
    daily of 2026-12-05; every day before, the ones served through 2026-12-04 among them, keeps the
    colours of 7rx8zs (the file before njgagv)."""
    shipped = load_ratings(SHIPPED)
    assert (shipped.digest, shipped.dailies_from) == ("zhh102", "2026-12-06")
    assert [(r.digest, r.dailies_from) for r in shipped.earlier] == [("7rx8zs", None), ("njgagv", "2026-12-05")]
    for kept in (SHIPPED.with_suffix("")).glob("*.json"):
        assert kept.name == f"{load_ratings(kept).digest}.json"
    old, alone = load_ratings(OLD), load_ratings(json.loads(SHIPPED.read_text()))  # a document: no history
    njgagv = load_ratings(json.loads((SHIPPED.with_suffix("") / "njgagv.json").read_text()))
    for mode in ("flags", "trivia"):
        for d, by in [(d, old) for d in range(1, 5)] + [(5, njgagv)] + [(d, alone) for d in range(6, 20)]:
            day = f"2026-12-{d:02d}"
            assert colours(connections.daily(day, mode, ratings=shipped)) == colours(
                connections.daily(day, mode, ratings=by)
            )
    # what the history undoes: njgagv alone recoloured trivia's 12-01, 12-03 and 12-04
    assert colours(connections.daily("2026-12-04", "trivia", ratings=njgagv)) != colours(
        connections.daily("2026-12-04", "trivia", ratings=old)
    )
    board = connections.generate(41, "flags", ratings=shipped)  # a seed: the newest, whatever the day
    assert connections.board_id(board).endswith("-zhh102")


def _records(tmp_path: Path, flip: int = 0) -> str:
    lines = []
    for i in range(12):
        groups = [
            {"category": c, "solved_at": (i + k + flip) % 4 + 1}
            for k, c in enumerate(["tag:cross", "tag:sun", "tag:stars", "tag:canton"])
        ]
        lines.append(
            {"board": f"b{i}", "mode": "flags", "day": None, "difficulty": "normal", "won": True, "mistakes": 0}
            | {"groups": groups, "wrong": []}
        )
    path = tmp_path / f"records-{flip}.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines[: 12 - flip]))
    return str(path)


def test_the_fit_writes_its_day_and_a_refit_keeps_the_file_it_replaces(tmp_path, monkeypatch, capsys) -> None:
    from flagcore import days

    monkeypatch.setattr(days, "latest_day", lambda: _dt.date(2026, 12, 3))
    out = tmp_path / "r.json"
    assert main(["ratings", "fit", "--records", _records(tmp_path), "--out", str(out)]) == 0
    first = load_ratings(out)
    assert first.dailies_from == "2026-12-04" and "dailies from 2026-12-04" in capsys.readouterr().out
    (tmp_path / "r").mkdir()  # from now on the file keeps a history
    assert main(["ratings", "fit", "--records", _records(tmp_path), "--out", str(out)]) == 0
    assert load_ratings(out).dailies_from == "2026-12-04" and not any((tmp_path / "r").iterdir())  # the same
    # a refit on the same day of the clock: it would colour a day the replaced file colours
    assert main(["ratings", "fit", "--records", _records(tmp_path, 1), "--out", str(out)]) == 2
    assert "must be after 2026-12-04" in capsys.readouterr().err and load_ratings(out) == first
    assert not any((tmp_path / "r").iterdir())
    fit = ["ratings", "fit", "--records", _records(tmp_path, 1), "--dailies-from", "2026-12-09", "--out", str(out)]
    assert main(fit) == 0
    refit = load_ratings(out)
    assert refit.dailies_from == "2026-12-09" and refit.digest != first.digest
    assert [r.digest for r in refit.earlier] == [first.digest]
    assert (tmp_path / "r" / f"{first.digest}.json").read_text() == first.dumps()
    assert refit.for_day("2026-12-08") == first and refit.for_day("2026-12-09") is refit
    capsys.readouterr()
    assert main(["ratings", "show", str(out), "--limit", "1"]) == 0
    said = capsys.readouterr().out.splitlines()
    assert said[:2] == [
        f"ratings {refit.digest}, dailies from 2026-12-09",
        f"  before it: ratings {first.digest}, dailies from 2026-12-04",
    ]
    assert main(["ratings", "fit", "--records", _records(tmp_path), "--dailies-from", "12/09", "--out", "x"]) == 2
