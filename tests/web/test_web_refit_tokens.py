"""A game token after a ratings refit (flagcore.web.game_tokens): a token names the ratings that
dealt its board, so a seed's game in progress, whose number deals another board after the refit,
is refused with 410 ``ratings_changed`` rather than graded on the new board (where its codes are
"not on this board"); a daily of a day before the refit's ``dailies_from`` keeps its ratings,
and its tokens grade as before. Stateless and with a store alike."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from web_helpers import SECRET

from flagcore import connections
from flagcore.web import create_app
from flagcore.web.app import derived_season_key
from flagcore.web.boards import game_number
from flagcore.web.tokens import Signer

ROOT = Path(__file__).resolve().parents[2]
OLD = ROOT / "records" / "felt" / "ratings-7rx8zs.json"  # a ratings file without dailies_from
REFIT = "2026-11-20"  # the refit's first day (past: the server serves it)
DAY = "2026-11-19"  # a day before it: its daily keeps the old ratings
SEED, MODE = 2024, "trivia"


def refit(tmp_path: Path) -> Path:
    """The ratings file of a server, then its refit: the old file moved into the history folder, the
    new one (each category's difficulty negated, so seeds deal other boards) colouring the
    dailies from REFIT. Returns the file's path; the first call's file is the old one."""
    path = tmp_path / "ratings.json"
    if not path.exists():
        shutil.copy(OLD, path)
        return path
    (tmp_path / "ratings").mkdir()
    shutil.move(path, tmp_path / "ratings" / "7rx8zs.json")
    doc = json.loads(OLD.read_text())
    for categories in doc["categories"].values():
        for entry in categories.values():
            entry["difficulty"] = -entry["difficulty"]
    path.write_text(json.dumps({**doc, "dailies_from": REFIT}))
    return path


def guess(client: TestClient, token: str, codes: list[str]) -> dict:
    reply = client.post("/api/connections/guess", json={"token": token, "codes": codes})
    assert reply.status_code == 200, reply.text
    return reply.json()


def graded(reply: dict) -> dict:
    """A guess's reply without its token (signed anew at every reply: its expiry and nonce)."""
    return {k: v for k, v in reply.items() if k != "token"}


def one_guess_in(client: TestClient, board: dict) -> tuple[str, list[str]]:
    """A signed token one guess into ``board`` (its first four tiles) and a second guess of it."""
    codes = [t["code"] for t in board["tiles"]]
    return guess(client, board["token"], codes[:4])["token"], codes[4:8]


@pytest.mark.parametrize("store", ["none", "sqlite"])
def test_a_refit_refuses_a_seeds_token_and_grades_a_daily_it_leaves_alone(tmp_path: Path, store: str) -> None:
    url = "none" if store == "none" else f"sqlite:///{tmp_path / 'games.db'}"
    before = TestClient(create_app(SECRET, store=url, ratings=refit(tmp_path)))
    seed = before.get("/api/connections/board", params={"seed": SEED, "mode": MODE}).json()
    daily = before.get("/api/connections/board", params={"daily": DAY, "mode": MODE}).json()
    seed_token, seed_next = one_guess_in(before, seed)
    groups = connections.daily(DAY, MODE, key=derived_season_key(Signer(SECRET.encode()))).groups
    first = guess(before, daily["token"], list(groups[0].codes))
    # a store keeps one game per player and board: this server's own grading of the next guess is
    # what the refit server must give, so it is asked of a token that the store then refuses as used
    on_before = graded(guess(before, first["token"], list(groups[1].codes))) if store == "none" else None

    after = TestClient(create_app(SECRET, store=url, ratings=refit(tmp_path)), cookies=before.cookies)
    reseeded = after.get("/api/connections/board", params={"seed": SEED, "mode": MODE}).json()
    assert sorted(t["code"] for t in reseeded["tiles"]) != sorted(t["code"] for t in seed["tiles"])  # another board
    refused = after.post("/api/connections/guess", json={"token": seed_token, "codes": seed_next})
    assert refused.status_code == 410, refused.text
    assert refused.json()["error"]["code"] == "ratings_changed"
    kept = guess(after, first["token"], list(groups[1].codes))  # the day's board and its ratings: unchanged
    assert kept["result"] == "correct" and sorted(kept["group"]["codes"]) == sorted(groups[1].codes)
    if on_before is not None:
        assert graded(kept) == on_before


def test_a_token_signed_before_tokens_named_their_ratings_is_read_as_before(tmp_path: Path) -> None:
    """A token without the ratings' digest (a game in progress when the server was upgraded) is
    graded on the board its number deals, as every token was before."""
    client = TestClient(create_app(SECRET, store="none", ratings=refit(tmp_path)))
    board = client.get("/api/connections/board", params={"seed": SEED, "mode": MODE}).json()
    token, codes = one_guess_in(client, board)
    signer = Signer(SECRET.encode())
    state = signer.check("connections", token)
    assert state["r"] == "7rx8zs" and state["n"] == game_number(SEED)
    legacy = signer.sign("connections", {k: v for k, v in state.items() if k in ("n", "m", "g")}, 3600)
    assert graded(guess(client, legacy, codes)) == graded(guess(client, token, codes))
