"""Issue 21: a day's result you can trust. Each test runs on a real SQLite file and on a real
redis-server (the ``store`` fixture): binding games, one verified result per Puzzle deal, published
dailies, future dailies, token spellings, secrets and rotation, hosts and exact flag codes."""

from __future__ import annotations

import datetime
import os
import re
import time
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from web_helpers import SECRET, answers, optimal_log

from flagcore.store import Store
from flagcore.web import create_app
from flagcore.web.players import new_player_id
from flagcore.web.tokens import Signer

pytest_plugins = ["stores"]  # the store fixture: each real store, fresh

OTHER = "Nw5tYc8Kq2Vb7Rx4Lm9Pz3Hg6Jd1Fs0A"  # another strong secret (rotation)


@pytest.fixture
def client(store: Store) -> TestClient:
    return TestClient(create_app(SECRET, store=store))  # keeps the player cookie like a browser


def error(r, status: int, code: str) -> dict:
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/json")
    err = r.json()["error"]
    assert err["code"] == code and err["message"]
    return err


def guess(client: TestClient, token: str, codes: list[str]):
    return client.post("/api/connections/guess", json={"token": token, "codes": codes})


def wrong_guesses(board: dict, groups: list[list[str]], count: int) -> list[list[str]]:
    """``count`` distinct wrong guesses (two tiles of group 1, one of 2, one of 3: never group 0's)."""
    g1, g2, g3 = groups[1], groups[2], groups[3]
    found = [[g1[a], g1[b], g2[k], g3[k]] for k, (a, b) in enumerate([(0, 1), (0, 2), (1, 2), (0, 3)])]
    return found[:count]


def open_board(client: TestClient, seed: str = "77", secret: str = SECRET) -> tuple[dict, list[list[str]]]:
    data = client.get("/api/connections/board", params={"seed": seed}).json()
    return data, [list(g.codes) for g in answers(data["board_id"], secret).groups]


# ------------------------------------------------------------------ binding games


def test_a_replayed_or_older_token_gets_409_and_the_game_is_unchanged(client):
    board, groups = open_board(client)
    first = guess(client, board["token"], groups[0]).json()
    second = guess(client, first["token"], wrong_guesses(board, groups, 1)[0]).json()
    assert second["mistakes"] == 1
    # the board id (a new game's token) and the first reply's token are both older than the game now
    for old in (board["token"], first["token"]):
        error(guess(client, old, groups[1]), 409, "stale_token")
    error(guess(client, second["token"], groups[0]), 400, "bad_guess")  # already solved: nothing recorded
    third = guess(client, second["token"], groups[1]).json()
    assert third["result"] == "correct" and third["mistakes"] == 1
    error(guess(client, second["token"], groups[2]), 409, "stale_token")  # used once already


def test_reloading_the_board_mid_game_keeps_the_mistakes(client):
    board, groups = open_board(client)
    token = board["token"]
    for codes in wrong_guesses(board, groups, 3):
        token = guess(client, token, codes).json()["token"]
    again = client.get("/api/connections/board", params={"seed": "77"}).json()
    assert again["mistakes"] == 3 and again["mistakes_left"] == 1 and not again["over"]
    assert again["board_id"] == board["board_id"]
    # the reload's token continues the game; the perfect replay of issue 21 is refused
    error(guess(client, board["board_id"], groups[0]), 409, "stale_token")
    last = guess(client, again["token"], groups[0]).json()
    assert last["mistakes"] == 3 and not last["won"]


def test_a_finished_game_stays_finished_and_its_share_says_what_happened(client):
    board, groups = open_board(client)
    token = board["token"]
    for codes in wrong_guesses(board, groups, 4):
        reply = guess(client, token, codes).json()
        token = reply["token"]
    assert reply["lost"] and reply["over"]
    error(guess(client, token, groups[0]), 409, "game_over")
    again = client.get("/api/connections/board", params={"seed": "77"}).json()
    assert again["over"] and again["lost"] and not again["won"] and again["mistakes"] == 4
    assert again["share"] == reply["share"] and len(again["groups"]) == 4
    error(guess(client, again["token"], groups[0]), 409, "game_over")


def test_each_player_has_a_game_of_their_own(store):
    ann, bob = TestClient(create_app(SECRET, store=store)), TestClient(create_app(SECRET, store=store))
    board, groups = open_board(ann)
    guess(ann, board["token"], wrong_guesses(board, groups, 1)[0])
    assert ann.get("/api/connections/board", params={"seed": "77"}).json()["mistakes"] == 1
    assert bob.get("/api/connections/board", params={"seed": "77"}).json()["mistakes"] == 0
    assert ann.cookies["flagcore_player"] != bob.cookies["flagcore_player"]
    # a made-up cookie is not a player: the server hands out a new one
    eve = TestClient(create_app(SECRET, store=store))
    r = eve.get("/api/connections/board", params={"seed": "77"}, headers={"cookie": "flagcore_player=a:0000.forged"})
    assert r.json()["mistakes"] == 0
    assert "flagcore_player=a:" in r.headers["set-cookie"] and "HttpOnly" in r.headers["set-cookie"]


def test_an_embedding_server_names_the_player(store):
    app = create_app(SECRET, store=store)

    def as_player(name: str):
        async def embedded(scope, receive, send):
            scope["flagcore.player"] = name
            await app(scope, receive, send)

        return TestClient(embedded)

    one, same = as_player("user-42"), as_player("user-42")
    board, groups = open_board(one)
    guess(one, board["token"], wrong_guesses(board, groups, 1)[0])
    assert same.get("/api/connections/board", params={"seed": "77"}).json()["mistakes"] == 1
    assert "set-cookie" not in same.get("/api/connections/board", params={"seed": "77"}).headers
    assert as_player("user-43").get("/api/connections/board", params={"seed": "77"}).json()["mistakes"] == 0


def test_a_puzzle_deal_is_verified_once_per_player(client):
    d = client.post("/api/puzzle/deal", json={"flag": "FR", "grid": "easy", "seed": 5}).json()
    best = optimal_log(d["tiles_by_slot"], d["classes"])
    first = client.post("/api/puzzle/verify", json={"token": d["token"], "swaps": best})
    assert first.status_code == 200 and first.json()["perfect"]
    error(client.post("/api/puzzle/verify", json={"token": d["token"], "swaps": best}), 409, "already_verified")
    # dealing the same puzzle again gives a new token, not a second result
    again = client.post("/api/puzzle/deal", json={"flag": "FR", "grid": "easy", "seed": 5}).json()
    assert again["token"] != d["token"]
    error(client.post("/api/puzzle/verify", json={"token": again["token"], "swaps": best}), 409, "already_verified")


# ------------------------------------------------------------------ published boards


def test_a_future_daily_is_refused(client):
    latest = datetime.datetime.now(datetime.timezone(datetime.timedelta(hours=14))).date()
    assert client.get("/api/connections/board", params={"daily": latest.isoformat()}).status_code == 200
    for day in (latest + datetime.timedelta(days=1), datetime.date(9999, 12, 31)):
        err = error(client.get("/api/connections/board", params={"daily": day.isoformat()}), 400, "future_daily")
        assert "not out yet" in err["message"]
    err = error(client.get("/api/connections/board", params={"daily": "2025-12-31"}), 400, "bad_board")
    assert "no daily board before 2026-01-01" in err["message"]


def test_the_days_board_is_published_once_and_read_from_the_store(store):
    today = datetime.datetime.now(datetime.timezone.utc).date().isoformat()
    first = TestClient(create_app(SECRET, store=store)).get("/api/connections/board", params={"daily": today}).json()
    published = store.published_board(first["board_id"])
    assert published is not None
    # another server (as after an upgrade that deals another board) serves what was published
    board = answers(first["board_id"])
    import orjson

    changed = orjson.loads(published)
    changed["tiles"] = changed["tiles"][::-1]
    other = make_other_store_with(store, first["board_id"], orjson.dumps(changed))
    served = TestClient(create_app(SECRET, store=other)).get("/api/connections/board", params={"daily": today}).json()
    assert [t["code"] for t in served["tiles"]] == list(board.tiles)[::-1]
    reply = guess(TestClient(create_app(SECRET, store=other)), served["token"], list(board.groups[0].codes)).json()
    assert reply["result"] == "correct"


def make_other_store_with(store: Store, key: str, data: bytes) -> Store:
    """A store of the same kind holding only ``data`` published under ``key``."""
    import tempfile

    from flagcore.store import RedisStore, SQLiteStore

    if store.kind == "sqlite":
        other: Store = SQLiteStore(Path(tempfile.mkdtemp()) / "games.db")
    else:
        other = RedisStore(store.url, prefix=store.prefix + "other:")
    assert other.publish_board(key, data) == data
    return other


# ------------------------------------------------------------------ tokens and secrets


def altered_spellings(token: str) -> list[str]:
    """Issue 21's re-spellings of one token: each decodes to the same bytes under a lax decoder."""
    kid, payload, tag = token.split(".")
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    unused = {2: 4, 3: 2}[len(tag) % 4]  # low bits of the last character that carry no data
    last = alphabet[alphabet.index(tag[-1]) | ((1 << unused) - 1)]
    spellings = [
        f"{kid}.{payload}.{tag[:-1]}{last}",  # unused low bits set
        f"{kid}.{payload}.{tag[:5]}*!{tag[5:]}",  # junk a lax decoder skips
        f"{kid}.{payload}.{tag}==",  # padding
    ]
    # the standard alphabet for the URL-safe one ("+/" for "-_"), in whichever part has one
    std = [
        ".".join(
            part.replace("-", "+").replace("_", "/") if i == n else part for i, part in enumerate((kid, payload, tag))
        )
        for n in range(3)
    ]
    respelt = [t for t in std if t != token]
    assert respelt, "no - or _ in this token: sign another"
    return spellings + respelt


def test_every_altered_spelling_of_a_token_is_refused(client):
    board, groups = open_board(client)
    token = guess(client, board["token"], groups[0]).json()["token"]
    for spelling in altered_spellings(token):
        assert spelling != token
        err = error(guess(client, spelling, groups[1]), 403, "forged_token")
        assert "altered" in err["message"]
    error(guess(client, board["token"].upper(), groups[1]), 403, "forged_token")  # a board id as a token, too
    assert guess(client, token, groups[1]).json()["result"] == "correct"  # the one true spelling still works


def test_rotation_old_tokens_verify_and_new_ones_are_signed_with_the_new_secret(store):
    old_app = TestClient(create_app(OTHER, store=store))
    board, groups = open_board(old_app, secret=OTHER)
    token = guess(old_app, board["token"], groups[0]).json()["token"]
    new_app = TestClient(create_app(SECRET, old_secrets=[OTHER], store=store), cookies=old_app.cookies)
    reply = guess(new_app, token, groups[1]).json()
    assert reply["result"] == "correct"
    new_kid, old_kid = Signer(SECRET.encode()).kid(), Signer(OTHER.encode()).kid()
    assert token.split(".")[0] == old_kid and reply["token"].split(".")[0] == new_kid
    # the old secret's board id and player cookie are still read, and the game is the same one
    again = new_app.get("/api/connections/board", params={"id": board["board_id"]}).json()
    assert again["mistakes"] == 0 and len(again["solved"]) == 2
    # once the old secret is removed, its tokens say the secret changed (not "forged")
    gone = TestClient(create_app(SECRET, store=store))
    err = error(guess(gone, token, groups[1]), 403, "secret_changed")
    assert "secret changed" in err["message"]


# ------------------------------------------------------------------ the rest of the review


def test_hosts_outside_the_allowed_list_get_a_json_400_and_no_redirect_names_a_host(store):
    app = create_app(SECRET, store=store, allowed_hosts=["games.example"])
    good = TestClient(app, base_url="http://games.example")
    assert good.get("/api/flags").status_code == 200
    evil = TestClient(app, base_url="http://evil.example")
    for path in ("/static", "/api/flags", "/"):
        error(evil.get(path, follow_redirects=False), 400, "bad_host")
    r = good.get("/static", follow_redirects=False)
    assert r.status_code == 404 and "location" not in r.headers  # no redirect at all


def test_flag_codes_are_exact_and_seeds_follow_the_cli(client):
    error(client.post("/api/puzzle/deal", json={"flag": "\ufb01"}), 400, "unknown_flag")  # "fi" ligature
    assert client.get("/flags/\ufb01.svg").status_code == 404
    for seed in ("-1", "+7"):
        error(client.get("/api/connections/board", params={"seed": seed}), 400, "bad_seed")


def test_a_stateless_token_is_refused_by_a_server_with_a_store(store):
    stateless = TestClient(create_app(SECRET, store="none"))
    board, groups = open_board(stateless)
    token = guess(stateless, board["token"], groups[0]).json()["token"]
    bound = TestClient(create_app(SECRET, store=store))
    error(guess(bound, token, groups[1]), 400, "bad_token")


def test_a_private_library_deals_the_boards(tmp_path: Path, store):
    import json

    def category(tier, label, codes):
        return {"id": f"mine:{tier}", "label": label, "tier": tier, "modes": ["flags", "trivia"], "codes": codes}

    mine = {
        "synthetic": [],
        "categories": [
            category(0, "Nordic crosses", ["DK", "FI", "IS", "NO", "SE"]),
            category(1, "Vertical tricolours", ["FR", "BE", "IE", "IT"]),
            category(2, "Stars and stripes", ["US", "LR", "MY", "TG"]),
            category(3, "Plants", ["CA", "LB", "CY", "ER"]),
        ],
    }
    path = tmp_path / "private.json"
    path.write_text(json.dumps(mine))
    c = TestClient(create_app(SECRET, store=store, library=path))
    board = c.get("/api/connections/board", params={"seed": "77"}).json()
    tiles = {t["code"] for t in board["tiles"]}
    assert tiles <= {code for cat in mine["categories"] for code in cat["codes"]}
    reply = guess(c, board["token"], ["FR", "BE", "IE", "IT"]).json()
    assert reply["result"] == "correct" and reply["group"]["label"] == "Vertical tricolours"


def test_rotation_from_the_environment(monkeypatch, store):
    old_app = TestClient(create_app(OTHER, store=store))
    board, groups = open_board(old_app, secret=OTHER)
    token = guess(old_app, board["token"], groups[0]).json()["token"]
    monkeypatch.setenv("FLAGCORE_SECRET", SECRET)
    monkeypatch.setenv("FLAGCORE_OLD_SECRETS", f"{OTHER}  some-retired-secret-0001")
    rotated = TestClient(create_app(store=store))
    reply = guess(rotated, token, groups[1]).json()
    assert reply["result"] == "correct" and reply["token"].split(".")[0] == Signer(SECRET.encode()).kid()
    monkeypatch.setenv("FLAGCORE_OLD_SECRETS", "short")
    with pytest.raises(ValueError, match="FLAGCORE_OLD_SECRETS: each old secret must be at least 16 characters"):
        create_app(store=store)
    monkeypatch.setenv("FLAGCORE_SECRET", "weak")
    monkeypatch.delenv("FLAGCORE_OLD_SECRETS")
    create_app(SECRET, store=store)  # a secret given to create_app: the environment's is not read


def test_a_new_player_id_begins_with_its_second_and_an_old_random_id_stays_a_player(store):
    app = create_app(SECRET, store=store)
    ann = TestClient(app)
    before = int(time.time())
    open_board(ann)
    after = int(time.time())
    player = ann.cookies["flagcore_player"].split(".", 1)[0]
    assert re.fullmatch(r"a:[0-9a-f]{32}", player), player  # the length of the earlier ids
    assert before <= int(player[2:10], 16) <= after  # the second it was made, then 96 random bits
    assert new_player_id(1000) < new_player_id(1001) and new_player_id(1000) != new_player_id(1000)
    # an id of the earlier form (128 random bits) in a cookie this server signed: still its player
    old = "a:" + os.urandom(16).hex()
    bob = TestClient(app, cookies={"flagcore_player": app.players.cookie_value(old)})
    board, groups = open_board(bob)
    reply = guess(bob, board["token"], wrong_guesses(board, groups, 1)[0])
    assert reply.status_code == 200 and "set-cookie" not in reply.headers  # not made anew
    assert store.load_game(old, board["board_id"]) is not None  # the game is the old id's
    assert bob.get("/api/connections/board", params={"seed": "77"}).json()["mistakes"] == 1


def counting(store: Store) -> list[object]:
    """The operations asked of ``store`` from now on, plain or awaitable (each goes through _run or
    _arun): the real store, its two entry points wrapped to list what reaches them."""
    asked: list[object] = []
    run, arun = store._run, store._arun

    def _run(op: object) -> object:
        asked.append(op)
        return run(op)

    async def _arun(op: object) -> object:
        asked.append(op)
        return await arun(op)

    store._run, store._arun = _run, _arun  # type: ignore[method-assign]
    return asked


def test_a_cookieless_board_or_deal_asks_the_store_nothing(store):
    today = datetime.datetime.now(datetime.timezone.utc).date().isoformat()
    app = create_app(SECRET, store=store)
    named = TestClient(app)
    daily = named.get("/api/connections/board", params={"daily": today}).json()  # published, then kept in memory
    asked = counting(store)
    requests = [
        ("GET", "/api/connections/board", {"params": {"seed": "77"}}),
        ("GET", "/api/connections/board", {"params": {"daily": today}}),
        ("GET", "/api/connections/board", {"params": {"seed": "78", "mode": "trivia"}}),
        ("POST", "/api/puzzle/deal", {"json": {"flag": "FR", "grid": "easy", "seed": 5}}),
    ]
    for method, path, kwargs in requests:
        first_visit = TestClient(app)  # no cookie: the request makes its player
        r = first_visit.request(method, path, **kwargs)
        assert r.status_code == 200 and first_visit.cookies.get("flagcore_player"), r.text
    assert asked == []
    assert r.json()["kept"] is True  # the Puzzle's page keeps its swaps all the same
    # a player with a cookie has a game to look up: one call each (what the count would have seen)
    assert named.get("/api/connections/board", params={"daily": today}).json()["board_id"] == daily["board_id"]
    named.post("/api/puzzle/deal", json={"flag": "FR", "grid": "easy", "seed": 5})
    assert len(asked) == 3  # the board's game; the deal's result and game, in one batch
