"""The JSON API: no answer before it is earned, stateless games in signed tokens, verified Puzzle
results, and clear 4xx JSON errors for anything forged, altered, expired or malformed."""

from __future__ import annotations

import base64
import json
import re
import time
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient
from stores import KINDS, make_store
from web_helpers import SECRET, answers, greedy_log, looks_solved, optimal_log

from flagcore import puzzle
from flagcore.connections import encode_board_id
from flagcore.web import create_app
from flagcore.web.app import STATIC
from flagcore.web.tokens import SECRET_ENV, Signer

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(scope="module", params=["none", *KINDS])
def client(request, tmp_path_factory, redis_server) -> Iterator[TestClient]:
    """The API, stateless and on each store (a real SQLite file, a real redis-server): every test
    of the API's rules and refusals holds for all three."""
    if request.param == "none":
        yield TestClient(create_app(SECRET, store="none"))
        return
    store = make_store(request.param, tmp_path_factory.mktemp("store"), redis_server)
    yield TestClient(create_app(SECRET, store=store))
    store.close()


def payload(token: str) -> dict:
    head = token.split(".")[1]  # <key id>.<payload>.<tag>
    return json.loads(base64.urlsafe_b64decode(head + "=" * (-len(head) % 4)))


def reencode(body: dict, token: str) -> str:
    """``token`` with ``body`` for its payload, its key id and tag kept."""
    kid, _, tag = token.split(".")
    raw = json.dumps(body, separators=(",", ":"), sort_keys=True).encode()
    return kid + "." + base64.urlsafe_b64encode(raw).rstrip(b"=").decode() + "." + tag


def error(r, status: int, code: str | None = None) -> dict:
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/json")
    err = r.json()["error"]
    assert err["message"]
    if code:
        assert err["code"] == code
    return err


# ------------------------------------------------------------------ Connections


def test_board_has_tiles_only_and_the_answers_stay_on_the_server(client: TestClient) -> None:
    r = client.get("/api/connections/board", params={"seed": "12"})
    data = r.json()
    assert set(data) == {"board_id", "mode", "daily", "tiles", "mistakes", "mistakes_left", "solved", "over", "token"}
    board = answers(data["board_id"])
    assert [t["code"] for t in data["tiles"]] == list(board.tiles)
    # a new game's token is its board id: an empty game holds nothing to sign or to hide
    assert data["token"] == data["board_id"]
    text = r.text
    for group in board.groups:
        assert group.label not in text and group.category_id not in text
    # the id is not the engine's id of the dealt board, nor of the seed the client gave
    assert data["board_id"] not in (encode_board_id(board.seed, "flags"), encode_board_id(12, "flags"))


def test_the_secret_keys_the_board(client: TestClient) -> None:
    mine = client.get("/api/connections/board", params={"seed": "12"}).json()
    other = (
        TestClient(create_app("another-secret-Hq9vR2xL7pW4mZ8k"))
        .get("/api/connections/board", params={"seed": "12"})
        .json()
    )
    assert mine["tiles"] != other["tiles"]
    r = TestClient(create_app("another-secret-0123456789")).get(
        "/api/connections/board", params={"id": mine["board_id"]}
    )
    error(r, 400, "bad_board")


def test_same_secret_same_board_from_seed_daily_or_id() -> None:
    a, b = TestClient(create_app(SECRET)), TestClient(create_app(SECRET))  # two workers
    first = a.get("/api/connections/board", params={"daily": "2026-11-30", "mode": "trivia"}).json()
    assert first["daily"] == "2026-11-30" and first["mode"] == "trivia"
    again = b.get("/api/connections/board", params={"id": first["board_id"].upper()}).json()
    assert again["tiles"] == first["tiles"] and again["mode"] == "trivia"
    # a game token from one worker is graded by the other
    guess = [t["code"] for t in first["tiles"][:4]]
    assert b.post("/api/connections/guess", json={"token": first["token"], "codes": guess}).status_code == 200


def test_the_daily_board_is_the_scheduled_one() -> None:
    # The server's daily is connections.daily of the schedule keyed by its season key (never the
    # public schedule's board), on every worker, and its id rebuilds it; a day before the one epoch
    # of every daily (flagcore.days) has no daily.
    from flagcore import connections

    key = b"the season key of these servers"
    a, b = TestClient(create_app(SECRET, season_key=key)), TestClient(create_app(SECRET, season_key=key))
    for day, mode in (("2026-11-30", "flags"), ("2026-06-01", "trivia")):
        served = a.get("/api/connections/board", params={"daily": day, "mode": mode}).json()
        scheduled = connections.daily(day, mode, key=key)
        assert [t["code"] for t in served["tiles"]] == list(scheduled.tiles)
        assert list(connections.daily(day, mode).tiles) != list(scheduled.tiles)
        again = b.get("/api/connections/board", params={"id": served["board_id"]}).json()
        assert [t["code"] for t in again["tiles"]] == list(scheduled.tiles)
    before = error(a.get("/api/connections/board", params={"daily": "2025-12-31"}), 400, "bad_board")
    assert before["message"] == "there is no daily board before 2026-01-01"


@pytest.mark.parametrize(
    "params,code",
    [
        ({"seed": "4294967296"}, "bad_seed"),
        ({"seed": "x" * 65}, "bad_seed"),
        ({"daily": "2026-02-30"}, "bad_board"),
        ({"daily": "yesterday"}, "bad_board"),
        ({"mode": "chess"}, "bad_board"),
        ({"id": "0000000000000"}, "bad_board"),
        ({"id": "short"}, "bad_board"),
        ({"seed": "1", "daily": "2026-11-30"}, "bad_request"),
        ({"id": "zzzzzzzzzzzzz"}, "bad_board"),
        ({"id": "000001g0d7s0!"}, "bad_board"),
    ],
)
def test_bad_board_requests(client: TestClient, params: dict, code: str) -> None:
    error(client.get("/api/connections/board", params=params), 400, code)


def test_cli_board_ids_are_not_server_ids(client: TestClient) -> None:
    error(client.get("/api/connections/board", params={"id": encode_board_id(12, "flags")}), 400, "bad_board")


def new_game(client: TestClient, seed: str = "77") -> tuple[dict, list[list[str]]]:
    data = client.get("/api/connections/board", params={"seed": seed}).json()
    return data, [list(g.codes) for g in answers(data["board_id"]).groups]


def guess(client: TestClient, token: str, codes: list[str]) -> dict:
    r = client.post("/api/connections/guess", json={"token": token, "codes": codes})
    assert r.status_code == 200, r.text
    return r.json()


def test_win_reveals_groups_only_as_they_are_solved(client: TestClient) -> None:
    data, groups = new_game(client)
    token = data["token"]
    for i, codes in enumerate(reversed(groups)):
        r = guess(client, token, codes[::-1])
        token = r["token"]
        assert r["result"] == "correct" and r["group"]["codes"] == codes
        assert len(r["solved"]) == i + 1
        if i < 3:  # nothing but what was solved: no other group, and the token holds only the guesses
            assert set(r) == {"result", "group", "solved", "mistakes", "mistakes_left", "won", "lost", "over", "token"}
            assert [g["codes"] for g in r["solved"]] == groups[::-1][: i + 1]
            body = payload(token)
            if "u" in body:  # a store keeps the guesses: the token names the player and the game's version
                assert set(body) == {"n", "m", "r", "u", "v", "g", "k", "exp", "jti"} and body["v"] == i + 1
            assert body["r"] == ""  # the digest of the ratings that dealt the board: none here
            assert body["g"] == [c[::-1] for c in groups[::-1][: i + 1]]
    assert r["won"] and r["over"] and not r["lost"] and r["mistakes"] == 0
    assert [g["tier"] for g in r["groups"]] == [0, 1, 2, 3]
    assert r["share"].startswith(f"flagcore Connections {data['board_id']}\nsolved")
    error(client.post("/api/connections/guess", json={"token": token, "codes": groups[0]}), 409, "game_over")


def test_unsolved_codes_are_not_in_any_response_before_the_end(client: TestClient) -> None:
    data, groups = new_game(client, "78")
    r = guess(client, data["token"], groups[0])
    # the reply names the solved group's codes, never a code of another group as grouped
    for g in r["solved"]:
        assert g["codes"] == groups[0]
    assert all(set(g["codes"]) == set(groups[0]) for g in r["solved"])


def test_lose_by_four_mistakes_then_the_answers(client: TestClient) -> None:
    data, groups = new_game(client, "79")
    token = data["token"]
    wrong = [[groups[0][k], groups[1][k], groups[2][k], groups[3][k]] for k in range(4)]
    for k, codes in enumerate(wrong):
        r = guess(client, token, codes)
        token = r["token"]
        assert r["result"] == "wrong" and r["mistakes"] == k + 1
    assert r["lost"] and r["over"] and not r["won"] and r["mistakes_left"] == 0
    assert [g["codes"] for g in r["groups"]] == groups
    assert "lost, mistakes 4/4" in r["share"]


def test_one_away_and_already_tried(client: TestClient) -> None:
    data, groups = new_game(client, "80")
    codes = groups[1][:3] + [groups[2][0]]
    r = guess(client, data["token"], codes)
    assert r["result"] == "one_away" and r["mistakes"] == 1 and r["group"] is None
    again = guess(client, r["token"], codes[::-1])
    assert again["result"] == "already_tried" and again["mistakes"] == 1


@pytest.mark.parametrize(
    "codes", [["FR"], ["FR", "FR", "DE", "IT"], [1, 2, 3, 4], "FRDEITES", None, ["XX", "YY", "ZZ", "QQ"]]
)
def test_bad_guesses(client: TestClient, codes: object) -> None:
    data, _ = new_game(client)
    r = client.post("/api/connections/guess", json={"token": data["token"], "codes": codes})
    assert 400 <= r.status_code < 500 and "error" in r.json()


def test_forged_altered_and_expired_connections_tokens(client: TestClient) -> None:
    data, groups = new_game(client, "81")
    token = guess(client, data["token"], groups[0])["token"]
    body = payload(token)
    body["g"] = [groups[0], groups[1], groups[2]]  # claim three solved groups
    error(
        client.post("/api/connections/guess", json={"token": reencode(body, token), "codes": groups[3]}),
        403,
        "forged_token",
    )
    state = {"n": body["n"], "m": body["m"], "g": []}
    other = Signer(b"some-other-secret-123456").sign("connections", state, 3600)
    error(client.post("/api/connections/guess", json={"token": other, "codes": groups[3]}), 403, "secret_changed")
    expired = Signer(SECRET.encode()).sign("connections", state, 60, now=time.time() - 120)
    error(client.post("/api/connections/guess", json={"token": expired, "codes": groups[3]}), 410, "expired_token")
    deal = client.post("/api/puzzle/deal", json={"flag": "FR", "grid": "easy", "seed": 1}).json()
    error(client.post("/api/connections/guess", json={"token": deal["token"], "codes": groups[3]}), 400, "bad_token")
    for junk in ["", "abc", "a.b", "!!!.???", "x" * 9000, 12]:
        r = client.post("/api/connections/guess", json={"token": junk, "codes": groups[3]})
        assert r.status_code in (400, 403), (junk, r.text)


def test_a_new_game_token_is_a_board_id_of_this_server(client: TestClient) -> None:
    data, groups = new_game(client, "82")
    # one spelling per token: the id exactly as served (the board URL's ?id= reads any case)
    error(
        client.post("/api/connections/guess", json={"token": data["token"].upper(), "codes": groups[1]}),
        403,
        "forged_token",
    )
    first = guess(client, data["token"], groups[1])
    assert first["result"] == "correct" and first["token"] != data["token"]
    # a typo, another server's id and a CLI id are refused, never read as some other board
    typo = data["token"][:-1] + ("0" if data["token"][-1] != "0" else "1")
    other = (
        TestClient(create_app("another-secret-Hq9vR2xL7pW4mZ8k"))
        .get("/api/connections/board", params={"seed": "82"})
        .json()
    )
    for token in (typo, other["token"], encode_board_id(12, "flags"), "!" * 13):
        error(client.post("/api/connections/guess", json={"token": token, "codes": groups[1]}), 400, "bad_token")


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200), st.binary(max_size=300))
def test_mac_is_hmac_sha256(key: bytes, message: bytes) -> None:
    import hmac

    from flagcore.web.tokens import Mac

    assert Mac(key).digest(message) == hmac.digest(key, message, "sha256")


def test_token_ids_are_unique_across_signers() -> None:
    a, b = Signer(SECRET.encode()), Signer(SECRET.encode())  # two workers
    ids = [payload(s.sign("puzzle", {}, 60))["jti"] for s in (a, b) for _ in range(500)]
    assert len(set(ids)) == len(ids)


# ------------------------------------------------------------------ Puzzle


def deal(client: TestClient, **body: object) -> dict:
    r = client.post("/api/puzzle/deal", json=body)
    assert r.status_code == 200, r.text
    return r.json()


def verify(client: TestClient, token: str, swaps: list) -> object:
    return client.post("/api/puzzle/verify", json={"token": token, "swaps": swaps})


def test_deal_matches_the_engine_and_binds_the_board(client: TestClient) -> None:
    d = deal(client, flag="JP", grid="hard", seed=3)
    game = puzzle.new_game("JP", "hard", seed=3)
    assert d["tiles_by_slot"] == list(game.start) and d["grid"] == {"name": "hard", "columns": 5, "rows": 3}
    assert d["positions"][7] == [puzzle.background_percent(2, 5), puzzle.background_percent(1, 3)]
    sigs = game.signatures
    assert all((sigs[a] == sigs[b]) == (d["classes"][a] == d["classes"][b]) for a in range(15) for b in range(15))
    claim = payload(d["token"])
    assert (claim["f"], claim["c"], claim["r"], claim["st"], claim["p"]) == ("JP", 5, 3, list(game.start), game.par)


def test_perfect_and_over_par_results() -> None:
    client = TestClient(create_app(SECRET))
    d = deal(client, flag="FR", grid="easy", seed=5)
    best = optimal_log(d["tiles_by_slot"], d["classes"])
    r = verify(client, d["token"], best).json()
    assert r == {"swaps": len(best), "par": len(best), "over_par": 0, "perfect": True, "solved": True, "flag": "FR"}
    d = deal(client, flag="JP", grid="hard", seed=3)
    start = d["tiles_by_slot"]
    detoured = [start[1], start[0], *start[2:]]
    assert not looks_solved(detoured, d["classes"])
    extra = [[0, 1], [0, 1]] + greedy_log(start, d["classes"])  # a detour of two swaps that cancel out
    r = verify(client, d["token"], extra).json()
    par = puzzle.new_game("JP", "hard", seed=3).par
    assert r["par"] == par and r["swaps"] == len(extra) and r["over_par"] == len(extra) - par >= 2
    assert not r["perfect"]


def test_every_bundled_flag_deals_on_every_grid(client: TestClient) -> None:
    codes = [f["code"] for f in client.get("/api/flags").json()]
    assert "GB-ENG" in codes
    for code in codes:
        for grid in ("easy", "medium", "hard"):
            d = deal(client, flag=code, grid=grid, seed=1)
            assert d["flag"] == code and sorted(d["tiles_by_slot"]) == list(range(len(d["classes"])))


def test_random_flag_deals_are_reproducible(client: TestClient) -> None:
    a, b = deal(client, flag="random", grid="medium", seed="x"), deal(client, grid="pro", seed="x")
    assert a["flag"] == b["flag"] and a["tiles_by_slot"] == b["tiles_by_slot"] and a["grid"]["name"] == "medium"


def test_forged_altered_expired_and_wrong_puzzle_results_are_refused(client: TestClient) -> None:
    d = deal(client, flag="FR", grid="easy", seed=5)
    best = optimal_log(d["tiles_by_slot"], d["classes"])
    body, token = payload(d["token"]), d["token"]
    error(verify(client, reencode(dict(body, p=body["p"] + 3), token), best), 403, "forged_token")  # raise par
    error(verify(client, reencode(dict(body, st=list(range(6))[::-1]), token), best), 403, "forged_token")
    forged = Signer(b"attacker-guessed-secret").sign("puzzle", {k: body[k] for k in "fcrstp" if k in body}, 3600)
    error(verify(client, forged, best), 403, "secret_changed")  # another secret's key id
    expired = Signer(SECRET.encode()).sign(
        "puzzle", {k: body[k] for k in ("f", "c", "r", "st", "p")}, 10, now=time.time() - 60
    )
    error(verify(client, expired, best), 410, "expired_token")
    error(verify(client, d["token"], best[:-1]), 422, "rejected")  # does not solve the board
    error(verify(client, d["token"], best + [[0, 1]]), 422, "rejected")  # keeps swapping after the end
    error(verify(client, d["token"], [[0, 9]] + best), 422, "rejected")  # a slot off the board
    for bad in ([[0]], [[0, 1, 2]], [["0", "1"]], [[True, False]], [[0.5, 1]], "0,1", [[0, 1]] * 1001):
        r = verify(client, d["token"], bad)
        assert r.status_code == 400, (bad, r.text)


def test_single_use_hook() -> None:
    spent: set[str] = set()

    def on_spend(kind: str, jti: str, exp: int) -> bool:
        assert kind == "puzzle" and exp > time.time()
        if jti in spent:
            return False
        spent.add(jti)
        return True

    client = TestClient(create_app(SECRET, on_spend=on_spend))
    d = deal(client, flag="FR", grid="easy", seed=5)
    best = optimal_log(d["tiles_by_slot"], d["classes"])
    assert verify(client, d["token"], best).status_code == 200
    error(verify(client, d["token"], best), 409, "token_used")
    assert len(spent) == 1


@pytest.mark.parametrize(
    "body,status",
    [
        ({"flag": "ZZ"}, 400),
        ({"flag": "../FR"}, 400),
        ({"grid": "8x8"}, 400),
        ({"grid": 3}, 400),
        ({"seed": -1}, 400),
        ({"seed": 2**40}, 400),
        ({"seed": True}, 400),
        ({"seed": 1.5}, 400),
        ({"seed": ""}, 400),
        ({"flag": ["FR"]}, 400),
    ],
)
def test_bad_deals(client: TestClient, body: dict, status: int) -> None:
    error(client.post("/api/puzzle/deal", json=body), status)


def test_cycles_match_the_engine(client: TestClient) -> None:
    import random

    rng = random.Random(4)
    for _ in range(50):
        tiles = list(range(rng.randint(2, 64)))
        rng.shuffle(tiles)
        r = client.post("/api/puzzle/cycles", json={"tiles_by_slot": tiles}).json()
        assert r["cycles"] == puzzle.count_cycles(tiles) == len(set(r["cycle_of"]))
        assert r["min_swaps"] == len(tiles) - r["cycles"]
        assert all(r["cycle_of"][s] == r["cycle_of"][tiles[s]] for s in range(len(tiles)))
    for bad in ([0, 0], [1], list(range(65)), [0, 1.0], [0, True], "01"):
        error(client.post("/api/puzzle/cycles", json={"tiles_by_slot": bad}), 400)


# ------------------------------------------------------------------ bodies, flags, pages


def test_bodies_that_are_not_small_json_objects(client: TestClient) -> None:
    url = "/api/puzzle/deal"
    error(client.post(url, content=b"{"), 400, "bad_json")
    error(client.post(url, content=b"[1, 2]"), 400, "bad_json")
    error(client.post(url, content=b'{"seed": NaN}'), 400, "bad_json")
    error(client.post(url, content=b"\xff\xfe"), 400, "bad_json")
    error(client.post(url, content=b"[" * 5000 + b"]" * 5000), 400, "bad_json")
    error(client.post(url, content=b" " * 20_000), 413, "body_too_large")
    error(client.post(url, content=(b" " * 20_000 for _ in range(3))), 413, "body_too_large")  # chunked, no length
    error(client.get(url), 405, "method_not_allowed")
    error(client.get("/api/nothing"), 404, "not_found")


def test_methods_head_and_allow(client: TestClient) -> None:
    got = client.get("/api/flags")
    head = client.head("/api/flags")
    assert head.status_code == 200 and head.content == b""
    assert head.headers["content-length"] == str(len(got.content))
    assert (
        error(client.post("/api/flags"), 405, "method_not_allowed")
        and client.post("/api/flags").headers["allow"] == "GET, HEAD"
    )
    assert client.get("/api/connections/guess").headers["allow"] == "POST"
    error(client.post("/flags/FR.svg"), 405, "method_not_allowed")


def test_mounted_inside_another_app() -> None:
    from starlette.applications import Starlette
    from starlette.routing import Mount

    outer = TestClient(Starlette(routes=[Mount("/game", app=create_app(SECRET))]))
    board = outer.get("/game/api/connections/board", params={"seed": "12"}).json()
    assert (
        outer.post(
            "/game/api/connections/guess",
            json={"token": board["token"], "codes": [t["code"] for t in board["tiles"][:4]]},
        ).status_code
        == 200
    )
    assert outer.get("/game/flags/FR.svg").status_code == 200
    assert outer.get("/game/connections").status_code == 200
    error(outer.get("/game/api/nothing"), 404, "not_found")


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(["seed", "id", "mode", "a b", "", "x%"]), st.text("ab1=&%+ 2é", max_size=6)),
        max_size=4,
    ),
    st.booleans(),
)
def test_query_strings_read_as_starlette_reads_them(pairs: list, raw: bool) -> None:
    from urllib.parse import urlencode

    from starlette.datastructures import QueryParams

    from flagcore.web.jsonapi import _query

    text = "&".join(f"{k}={v}" for k, v in pairs) if raw else urlencode(pairs)
    assert _query(text) == dict(QueryParams(text))


def test_flag_artwork(client: TestClient) -> None:
    r = client.get("/flags/FR.svg")
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    assert "max-age=31536000" in r.headers["cache-control"] and r.content.lstrip().startswith(b"<")
    assert client.get("/flags/fr.svg").content == r.content
    for bad in ("/flags/ZZ.svg", "/flags/..%2F..%2Fetc%2Fpasswd.svg", "/flags/%00.svg"):
        error(client.get(bad), 404)
    codes = [f["code"] for f in client.get("/api/flags").json()]
    assert "FR" in codes and len(codes) > 190


def test_pages_are_offline_and_self_contained(client: TestClient) -> None:
    for page in ("/", "/connections", "/puzzle", "/simulator", "/bench"):
        r = client.get(page)
        assert r.status_code == 200 and "text/html" in r.headers["content-type"]
        assert "default-src 'self'" in r.headers["content-security-policy"]
    for file in STATIC.iterdir():
        if file.suffix in (".png", ".ico"):  # the app's icons: pictures, they refer to nothing
            continue
        text = file.read_text().replace('xmlns="http://www.w3.org/2000/svg"', "")  # a namespace's name, not a link
        assert "http://" not in text and "https://" not in text and "//cdn" not in text, file.name
        if file.suffix == ".html":
            for ref in re.findall(r'(?:src|href)="(/static/[^"]+)"', text):
                assert client.get(ref).status_code == 200, ref


def test_openapi_lists_every_api_route(client: TestClient) -> None:
    spec = client.get("/api/openapi.json").json()
    assert spec["openapi"].startswith("3.")
    app = client.app
    routes = set(app.endpoints) | {f"{prefix}{{code}}{suffix}" for prefix, suffix, _ in app.patterns}
    assert routes - {"/api/openapi.json"} == set(spec["paths"])


def test_secret_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(SECRET_ENV, raising=False)
    with pytest.warns(RuntimeWarning, match="FLAGCORE_SECRET is not set"):
        create_app()
    monkeypatch.setenv(SECRET_ENV, SECRET)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        app = create_app()
    board = TestClient(app).get("/api/connections/board", params={"seed": "5"}).json()
    assert answers(board["board_id"]).tiles == tuple(t["code"] for t in board["tiles"])
    for weak in ("short", " " * 16, "0123456789abcdef", "0123456789abcdef" * 2, "correct horse battery staple"):
        monkeypatch.setenv(SECRET_ENV, weak)
        with pytest.raises(
            ValueError, match=r"too weak: a secret needs at least 128 bits .*secrets.token_urlsafe\(32\)"
        ):
            create_app()
    with pytest.raises(ValueError):
        create_app(SECRET, token_ttl=0)


# ------------------------------------------------------------------ the simulator


@pytest.mark.parametrize(
    "seed,mode,legacy",
    [("12", "flags", False), ("12", "trivia", True), ("37", "flags", True), ("word", "trivia", False)],
)
def test_trace_replays_the_engine(client: TestClient, seed: str, mode: str, legacy: bool) -> None:
    from flagcore.connections import generate

    value: int | str = int(seed) if seed.isdigit() else seed
    board = generate(value, mode, legacy=legacy, trace=True, difficulty=None)  # the simulator shows the search alone
    data = client.get(
        "/api/connections/trace", params={"seed": seed, "mode": mode, "legacy": str(legacy).lower()}
    ).json()
    steps = data["steps"]
    assert [s["event"] for s in steps] == board.events
    last = steps[-1]
    assert sorted(last["board"]) == sorted(board.tiles)
    assert [f["codes"] for f in last["stack"]] == [list(g.codes) for g in board.groups] or board.stats["decoy_applied"]
    assert last["attempts"] == board.stats["moves_tried"] and last["backtracks"] == board.stats["backtracks"]
    assert not set(last["spill"]) & set(last["board"]) or legacy


def test_trace_bad_input(client: TestClient) -> None:
    error(client.get("/api/connections/trace", params={"legacy": "maybe"}), 400)
    error(client.get("/api/connections/trace", params={"mode": "x"}), 400)
    error(client.get("/api/connections/trace", params={"seed": "99999999999"}), 400)


@pytest.mark.parametrize("library_seed", [3, 11, None])
def test_trace_uses_the_library_it_is_given(library_seed: int | None) -> None:
    """Board and spill come from the library given (random ones and the bundled one, all with
    arguable and doubtful codes, where the search's sets differ from the pools): each "place" event
    of the fixed search says how many exclusive codes its group keeps, the certain codes no other
    placed fit set holds."""
    from connections_libraries import random_library

    from flagcore.connections import generate
    from flagcore.library import load_library
    from flagcore.web.trace import simulate

    library = load_library() if library_seed is None else random_library(library_seed, arguable_range=(1, 4))
    certain = {c.id: c.certain for c in library.categories("flags")}
    for legacy in (False, True):
        board = generate(5, "flags", library=library, legacy=legacy, trace=True)
        data = simulate(5, "flags", legacy, library)
        assert data["tiles"] == list(board.tiles)
        assert [s["event"] for s in data["steps"]] == board.events
        assert all(set(s["board"]) <= set(library.codes) for s in data["steps"])
        placed = [s for s in data["steps"] if s["event"]["event"] == "place"]
        assert placed
        for step in placed:
            ev = step["event"]
            if legacy:  # the spill holds the rest of the group's certain codes
                assert set(certain[ev["category_id"]]) - set(ev["codes"]) <= set(step["spill"])
            else:
                assert len(certain[ev["category_id"]] - set(step["spill"])) == ev["exclusive"]


# ------------------------------------------------------------------ routes and errors


def test_the_shipped_app_has_no_no_op_endpoints(client: TestClient) -> None:
    assert not [path for path in client.app.endpoints if "noop" in path]
    error(client.get("/api/noop"), 404, "not_found")
    error(client.post("/api/noop/post", json={}), 404, "not_found")


def test_extra_endpoints_are_served_like_the_api() -> None:
    from flagcore.web.jsonapi import Endpoint

    def noop(request: dict) -> dict:
        return {"ok": True, "got": sorted(request)}

    extra = TestClient(
        create_app(SECRET, extra_endpoints={"/x/get": Endpoint("GET", noop), "/x/post": Endpoint("POST", noop)})
    )
    assert extra.get("/x/get", params={"a": "1"}).json() == {"ok": True, "got": ["a"]}
    r = extra.post("/x/post", json={"token": "x", "codes": ["FR"]})
    assert r.status_code == 200 and r.json() == {"ok": True, "got": ["codes", "token"]}
    error(extra.post("/x/post", content=b"[1, 2]"), 400, "bad_json")
    error(extra.post("/x/post", content=b" " * 20_000), 413, "body_too_large")
    error(extra.get("/x/post"), 405, "method_not_allowed")
    with pytest.raises(ValueError, match="route of the API"):
        create_app(SECRET, extra_endpoints={"/api/flags": Endpoint("GET", noop)})


def test_every_refusal_is_a_flagcore_error_with_its_builtin() -> None:
    from flagcore import errors
    from flagcore.web import TokenError
    from flagcore.web.jsonapi import ERRORS

    assert TokenError is errors.TokenError
    for cls in (*ERRORS, errors.ApiError):
        builtin = ConnectionError if cls is errors.StoreUnavailable else ValueError | RuntimeError
        assert issubclass(cls, errors.FlagcoreError) and issubclass(cls, builtin), cls
    with pytest.raises(errors.UnknownKeyError):
        Signer(b"k" * 16).check("puzzle", Signer(b"j" * 16).sign("puzzle", {}, 60))
    with pytest.raises(errors.ExpiredTokenError):
        Signer(b"k" * 16).check("puzzle", Signer(b"k" * 16).sign("puzzle", {}, 60, now=0))


def test_openapi_document_is_the_checked_in_file(client: TestClient) -> None:
    """The document is written from the route table; after changing a route, regenerate the file
    with the command in flagcore/web/openapi.py's docstring and review the diff."""
    from pathlib import Path

    from flagcore.web.openapi import SPEC, text

    checked_in = (Path(__file__).parent / "data" / "openapi.json").read_bytes()
    assert text(SPEC).encode() == checked_in
    assert client.get("/api/openapi.json").json() == json.loads(checked_in)


ARGUMENT_REFUSALS = [  # the package's rules' messages, sent with the web's codes (as before the ArgumentError family)
    (
        "GET",
        "/api/connections/board",
        {"mode": "chess"},
        "bad_board",
        "mode must be one of ('flags', 'trivia'), got 'chess'",
    ),
    ("GET", "/api/connections/board", {"daily": "2026-02-30"}, "bad_board", "date '2026-02-30' is not a calendar date"),
    ("GET", "/api/connections/board", {"daily": "yesterday"}, "bad_board", "date must be YYYY-MM-DD, got 'yesterday'"),
    (
        "GET",
        "/api/connections/board",
        {"seed": "4294967296"},
        "bad_seed",
        "seed 4294967296: int seeds are in [0, 2^32)",
    ),
    ("GET", "/api/connections/board", {"seed": ""}, "bad_seed", "seed is empty: give an int in [0, 2^32) or a word"),
    (
        "GET",
        "/api/connections/trace",
        {"difficulty": "9"},
        "bad_request",
        "difficulty must be an int 0..8 (tempting phantom groups), got 9",
    ),
    ("GET", "/api/connections/trace", {"mode": "x"}, "bad_board", "mode must be one of ('flags', 'trivia'), got 'x'"),
    (
        "POST",
        "/api/puzzle/deal",
        {"daily": "2025-12-31"},
        "bad_date",
        "daily 2025-12-31 is before the schedule's epoch 2026-01-01",
    ),
    ("POST", "/api/puzzle/deal", {"daily": "2026-13-01"}, "bad_date", "daily '2026-13-01' is not a calendar date"),
    (
        "POST",
        "/api/puzzle/deal",
        {"seed": "-4"},
        "bad_seed",
        "seed -4: int seeds are in [0, 2^32) and unsigned; for a str seed use a word (e.g. daily:2026-11-29)",
    ),
]


@pytest.mark.parametrize("method,path,arg,code,message", ARGUMENT_REFUSALS)
def test_argument_errors_are_sent_by_the_one_table(
    client: TestClient, method: str, path: str, arg: dict, code: str, message: str
) -> None:
    """The package's own rules refuse these values (ArgumentError, ArgumentTypeError); the web's error
    table sends each with the code of the argument it names, and the rule's message unchanged."""
    r = client.get(path, params=arg) if method == "GET" else client.post(path, json=arg)
    assert error(r, 400, code)["message"] == message


def test_an_argument_error_of_the_engine_is_the_routes_refusal(client: TestClient) -> None:
    """An argument error naming no request argument is the engine refusing a route's data (its
    ``refuses``): a guess of codes not on the board is bad_guess, not a bad argument."""
    token = client.get("/api/connections/board", params={"seed": "12"}).json()["token"]
    r = client.post("/api/connections/guess", json={"token": token, "codes": ["ZZ", "YY", "XX", "WW"]})
    assert error(r, 400, "bad_guess")["message"] == "codes: not on this board: ['ZZ', 'YY', 'XX', 'WW']"


def test_the_routes_enums_are_the_engines() -> None:
    from flagcore._args.connections import DIFFICULTY_LEVELS, MAX_TEMPTING, MODES
    from flagcore._args.puzzle import GRID_ALIASES, GRIDS
    from flagcore.web.openapi import SPEC

    board = SPEC["paths"]["/api/connections/board"]["get"]["parameters"]
    assert next(p for p in board if p["name"] == "mode")["schema"]["enum"] == list(MODES)
    deal = SPEC["paths"]["/api/puzzle/deal"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert deal["properties"]["grid"]["enum"] == [*GRIDS, *GRID_ALIASES]
    trace = SPEC["paths"]["/api/connections/trace"]["get"]["parameters"]
    pattern = next(p for p in trace if p["name"] == "difficulty")["schema"]["pattern"]
    assert all(re.fullmatch(pattern, str(d)) for d in (*DIFFICULTY_LEVELS, *range(MAX_TEMPTING + 1)))
    assert not re.fullmatch(pattern, str(MAX_TEMPTING + 1))


def _board_id(app) -> str:
    with TestClient(app) as c:
        return c.get("/api/connections/board", params={"seed": "41"}).json()["board_id"]


def test_the_app_reads_flagcore_ratings_as_flagcore_serve_does(monkeypatch, tmp_path) -> None:
    """FLAGCORE_RATINGS: "none" deals without ratings, a file with that file, "shipped" with the
    package's; an id names the ratings it was dealt with, so the ids tell which the app used."""
    from flagcore.ratings.shipped import shipped_ratings

    shipped = shipped_ratings()
    assert shipped is not None, "the package ships ratings"
    mine = tmp_path / "mine.json"
    mine.write_text('{"format": 1, "categories": {}}')
    monkeypatch.delenv("FLAGCORE_RATINGS", raising=False)
    plain = _board_id(create_app(SECRET))  # unset: no ratings (the app takes none it was not told of)
    by_file = _board_id(create_app(SECRET, ratings=mine))
    by_shipped = _board_id(create_app(SECRET, ratings=shipped))
    assert len({plain, by_file, by_shipped}) == 3
    for value, expected in (("none", plain), ("", plain), (str(mine), by_file), ("shipped", by_shipped)):
        monkeypatch.setenv("FLAGCORE_RATINGS", value)
        assert _board_id(create_app(SECRET)) == expected, value
    private = Path(__file__).resolve().parents[2] / "flags"  # a library given: the shipped ratings never apply
    monkeypatch.delenv("FLAGCORE_RATINGS")
    unrated = _board_id(create_app(SECRET, library=private))
    monkeypatch.setenv("FLAGCORE_RATINGS", "shipped")
    assert _board_id(create_app(SECRET, library=private)) == unrated


def test_a_forked_worker_makes_player_ids_of_its_own() -> None:
    """New players' ids come from a generator seeded once per process: a worker forked after the
    app was made reseeds it, or two workers would hand out the same ids (and share players' games)."""
    import os

    from flagcore.web import players

    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: its next id, then gone without running the parent's exit handlers
        os.write(write, b"%x" % players._NEW_IDS.getrandbits(128))
        os._exit(0)
    os.close(write)
    mine = b"%x" % players._NEW_IDS.getrandbits(128)
    os.waitpid(pid, 0)
    with os.fdopen(read, "rb") as pipe:
        theirs = pipe.read()
    assert theirs and theirs != mine


def test_a_forked_worker_makes_token_ids_of_its_own() -> None:
    """Token ids are a per-process prefix and a counter: a worker forked after the Signer was made
    takes a prefix of its own, or two workers would sign tokens under one jti (and a Puzzle result
    spent on one worker would refuse the other's)."""
    import os

    signer = Signer(SECRET.encode())
    signer.sign("t", {}, 60)  # the parent has signed before the fork, as a preloaded app may
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: its first token's id, then gone without running the parent's exit handlers
        os.write(write, signer.check("t", signer.sign("t", {}, 60))["jti"].encode())
        os._exit(0)
    os.close(write)
    mine = signer.check("t", signer.sign("t", {}, 60))["jti"]
    os.waitpid(pid, 0)
    with os.fdopen(read, "rb") as pipe:
        theirs = pipe.read().decode()
    assert theirs and theirs != mine
